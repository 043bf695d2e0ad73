//! Seats played by the host's bot (issue 12): `pbem new --seat SIDE=bot`, `missed_orders: bot`,
//! and `pbem simulate --bot/--keep`, driven through the real binary. The bot's orders are
//! written at process time from the side's view and a seed fixed by the host's commitment,
//! signed by the host key and journaled as bot orders, and `verify` recomputes them.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// A kummen game `game` in `tmp` where the mercenary is a person (key `keys/mercenary`) and the
/// beeler is played by the bot named in `beeler` (`bot` or `bot:NAME`).
fn solo_game(tmp: &Path, beeler: &str, extra: &[&str]) -> PathBuf {
    let key = tmp.join("mercenary");
    ok(&["keygen", "--out", key.to_str().unwrap()]);
    let game = tmp.join("game");
    let mut args = vec![
        "new".to_string(),
        game.display().to_string(),
        "--system".into(),
        "kummen".into(),
        "--id".into(),
        "solo".into(),
        "--seat".into(),
        format!("mercenary={}.pub", key.display()),
        "--seat".into(),
        format!("beeler={beeler}"),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&refs);
    game
}

fn status(game: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(&["status", game.to_str().unwrap(), "--json"])).unwrap()
}

/// The mercenary sends the template of the open step as it stands (a person who changes
/// nothing), signed with its key.
fn submit_template(tmp: &Path, game: &Path) {
    let g = game.to_str().unwrap();
    let skeleton = tmp.join("orders.yaml");
    let signed = tmp.join("signed.yaml");
    ok(&[
        "template",
        g,
        "--side",
        "mercenary",
        "-o",
        skeleton.to_str().unwrap(),
    ]);
    ok(&[
        "sign",
        skeleton.to_str().unwrap(),
        "--key",
        tmp.join("mercenary").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    ok(&["submit", g, signed.to_str().unwrap()]);
}

fn journal(game: &Path, seq: u64) -> String {
    std::fs::read_to_string(game.join(format!("journal/{seq:06}.yaml"))).unwrap()
}

#[test]
fn a_person_plays_kummen_solo_against_the_bot_to_the_end_and_verify_full_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let g = game.to_str().unwrap();
    let mut processed: u64 = 0;
    while !status(&game)["finished"].as_bool().unwrap() {
        assert!(processed < 200, "the game does not end");
        if status(&game)["waiting_for"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "mercenary")
        {
            submit_template(tmp.path(), &game);
        }
        ok(&["process", g]);
        processed += 1;
    }
    ok(&["conclude", g]);
    let verified = ok(&["verify", "--full", g]);
    assert!(verified.starts_with("verified:"), "{verified}");
    // Every record names the bot's orders as the bot's, and the reports say so.
    let bot_steps = (1..=processed)
        .filter(|seq| journal(&game, *seq).contains("    bot: default\n"))
        .count();
    assert!(
        bot_steps as u64 >= processed / 2,
        "{bot_steps} of {processed}"
    );
    let report = std::fs::read_to_string(game.join("reports/000001.txt")).unwrap();
    assert!(report.contains("WRITTEN BY THE BOT (default)"), "{report}");
}

#[test]
fn a_step_with_a_bot_seat_is_due_as_soon_as_the_person_has_sent_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let g = game.to_str().unwrap();
    let s = status(&game);
    assert_eq!(s["waiting_for"], serde_json::json!(["mercenary"]), "{s}");
    assert_eq!(s["bots"], serde_json::json!(["beeler"]), "{s}");
    let (code, _, err) = run(&["process", g]);
    assert_eq!(code, 3, "waits for the person: {err}");
    submit_template(tmp.path(), &game);
    // Step 2 waits for the beeler alone: the same `process` plays it with the bot's orders
    // and stops at step 3, the person's.
    let out: serde_json::Value = serde_json::from_str(&ok(&["process", g, "--json"])).unwrap();
    assert_eq!(out["step"], 1, "{out}");
    assert_eq!(out["then_by_bots"][0]["step"], 2, "{out}");
    assert_eq!(out["then_by_bots"].as_array().unwrap().len(), 1, "{out}");
    let s = status(&game);
    assert_eq!(s["step"], 3, "{s}");
    assert_eq!(s["waiting_for"], serde_json::json!(["mercenary"]), "{s}");
    let (code, _, _) = run(&["process", g]);
    assert_eq!(code, 3, "waits for the person again");
}

#[test]
fn status_counts_missed_deadlines_only_for_the_seats_people_play() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let s = status(&game);
    assert_eq!(
        s["missed"],
        serde_json::json!([{"side": "mercenary", "count": 0}]),
        "{s}"
    );
    let text = ok(&["status", game.to_str().unwrap()]);
    assert!(
        text.contains("missed deadlines (default orders used): mercenary 0\n"),
        "{text}"
    );
}

#[test]
fn orders_sent_for_a_bot_seat_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let g = game.to_str().unwrap();
    let doc = tmp.path().join("beeler.yaml");
    let head = status(&game)["head"].as_str().unwrap().to_string();
    std::fs::write(
        &doc,
        format!(
            "pbem: order/2\ngame: solo\nstep: 1\nside: beeler\nbasis: {head}\nentropy: auto\nversion: 1\norders: {{}}\n"
        ),
    )
    .unwrap();
    // Signed with the host's own key, the bot seat's key: still nobody's orders.
    let signed = tmp.path().join("beeler-signed.yaml");
    ok(&[
        "sign",
        doc.to_str().unwrap(),
        "--key",
        game.join("host/host_key").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    let (code, _, err) = run(&["submit", g, signed.to_str().unwrap()]);
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains("side beeler is played by the host's default bot"),
        "{err}"
    );
}

#[test]
fn a_bot_seat_may_name_another_bot_and_an_unknown_one_is_refused_with_the_names() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot:random", &[]);
    let config = std::fs::read_to_string(game.join("game.yaml")).unwrap();
    assert!(config.contains("  bot: random\n"), "{config}");
    assert!(journal(&game, 0).starts_with("pbem: journal/4\n"));
    let (code, _, err) = run(&[
        "new",
        tmp.path().join("other").to_str().unwrap(),
        "--system",
        "kummen",
        "--seat",
        "mercenary=bot:clever",
        "--seat",
        "beeler=bot",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no bot named \"clever\"; the bots are: default, random"),
        "{err}"
    );
}

#[test]
fn a_game_without_bots_keeps_writing_journal_3() {
    let t = Table::kummen();
    assert!(
        std::fs::read_to_string(t.game.join("journal/000000.yaml"))
            .unwrap()
            .starts_with("pbem: journal/3\n")
    );
}

#[test]
fn under_missed_orders_bot_a_side_late_at_the_deadline_gets_the_bots_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let keys: Vec<PathBuf> = ["mercenary", "beeler"]
        .iter()
        .map(|side| {
            let k = tmp.path().join(side);
            ok(&["keygen", "--out", k.to_str().unwrap()]);
            k
        })
        .collect();
    let game = tmp.path().join("game");
    let g = game.to_str().unwrap();
    ok(&[
        "new",
        g,
        "--system",
        "kummen",
        "--id",
        "late",
        "--seat",
        &format!("mercenary={}.pub", keys[0].display()),
        "--seat",
        &format!("beeler={}.pub", keys[1].display()),
        "--step-duration",
        "24h",
        "--now",
        "2026-03-01T12:00:00Z",
    ]);
    let config = game.join("game.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, format!("{text}missed_orders: bot\n")).unwrap();
    submit_template(tmp.path(), &game);
    let (code, _, err) = run(&["process", g, "--now", "2026-03-02T11:00:00Z"]);
    assert_eq!(code, 3, "before the deadline the step waits: {err}");
    ok(&["process", g, "--now", "2026-03-02T13:00:00Z"]);
    let record = journal(&game, 1);
    assert!(record.starts_with("pbem: journal/4\n"), "{record}");
    assert!(
        record.contains("  - side: beeler\n") && record.contains("    bot: default\n"),
        "{record}"
    );
    assert!(!record.contains("defaults:"), "{record}");
    let verified = ok(&["verify", g]);
    assert!(verified.starts_with("verified:"), "{verified}");
}

#[test]
fn verify_reports_bot_orders_that_are_not_what_the_bot_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let g = game.to_str().unwrap();
    submit_template(tmp.path(), &game);
    ok(&["process", g]); // step 1, then step 2: the beeler's bot moves
    // A host that keeps the bot's header and signs other orders for it (nothing at all).
    let used = game.join("host/orders/000002-beeler.yaml");
    let text = std::fs::read_to_string(&used).unwrap();
    let header: String = text
        .lines()
        .take_while(|l| !l.starts_with("orders:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let forged = tmp.path().join("forged.yaml");
    std::fs::write(&forged, format!("{header}orders: {{}}\n")).unwrap();
    let signed = tmp.path().join("forged-signed.yaml");
    ok(&[
        "sign",
        forged.to_str().unwrap(),
        "--key",
        game.join("host/host_key").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    std::fs::copy(&signed, &used).unwrap();
    let (code, out, err) = run(&["verify", g]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        err.contains(
            "host/orders/000002-beeler.yaml: not the orders the default bot writes for beeler"
        ),
        "{err}"
    );
}

#[test]
fn simulate_lists_the_bots_in_its_help_and_when_a_name_is_unknown() {
    let help = ok(&["simulate", "--help"]);
    assert!(
        help.contains("default:") && help.contains("random:"),
        "{help}"
    );
    let (code, _, err) = run(&["simulate", "kummen", "--bot", "beeler=clever"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--bot beeler=clever: no bot named \"clever\"; the bots are: default, random"),
        "{err}"
    );
}

#[test]
fn a_game_kept_by_simulate_is_a_hosted_game_of_bot_seats_that_verify_full_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("kept");
    let out = ok(&[
        "simulate",
        "kummen",
        "--games",
        "1",
        "--seed",
        "3",
        "--bot",
        "mercenary=random",
        "--keep",
        keep.to_str().unwrap(),
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["errors"], 0, "{report}");
    assert_eq!(report["bots"]["mercenary"], "random", "{report}");
    let game = keep.join("game-0");
    let verified = ok(&["verify", "--full", game.to_str().unwrap()]);
    assert!(verified.starts_with("verified:"), "{verified}");
    let config = std::fs::read_to_string(game.join("game.yaml")).unwrap();
    assert!(
        config.contains("  bot: random\n") && config.contains("  bot: default\n"),
        "{config}"
    );
    assert!(game.join("archive").is_dir(), "the kept game is concluded");
    // The published files alone replay it, the bots' orders included.
    std::fs::remove_dir_all(game.join("host")).unwrap();
    let verified = ok(&["verify", "--full", game.to_str().unwrap()]);
    assert!(verified.contains("replayed from archive"), "{verified}");
}

#[test]
fn random_players_on_both_sides_play_whole_games_without_a_refused_order_or_broken_invariant() {
    // The random player tries the system's legal choices (System::choice_items); simulate
    // counts a refused order and a broken invariant (Rules::invariants) as errors.
    for (system, sides) in [
        ("kummen", ["mercenary", "beeler"]),
        ("dougram", ["fed", "lib"]),
    ] {
        let out = ok(&[
            "simulate",
            system,
            "--games",
            "2",
            "--bot",
            &format!("{}=random", sides[0]),
            "--bot",
            &format!("{}=random", sides[1]),
            "--json",
        ]);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["errors"], 0, "{system}: {report}");
        assert!(
            report["endings"].get("none").is_none(),
            "{system}: {report}"
        );
    }
}

#[test]
fn a_journal_3_record_that_names_a_bot_seat_is_a_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let genesis = game.join("journal/000000.yaml");
    let text = std::fs::read_to_string(&genesis).unwrap();
    std::fs::write(
        &genesis,
        text.replace("pbem: journal/4\n", "pbem: journal/3\n"),
    )
    .unwrap();
    let (code, out, err) = run(&["verify", game.to_str().unwrap()]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        err.contains("journal/000000.yaml: pbem: a journal/3 record names a bot (journal/4 does)"),
        "{err}"
    );
}

#[test]
fn the_turn_mail_says_which_orders_the_bot_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(
        tmp.path(),
        "bot",
        &[
            "--mail-from",
            "host@example.org",
            "--email",
            "mercenary=me@example.org",
        ],
    );
    submit_template(tmp.path(), &game);
    ok(&["process", game.to_str().unwrap()]);
    let mail = std::fs::read_to_string(game.join("outbox/solo.000001.view.mercenary.eml")).unwrap();
    assert!(
        mail.contains("In step 1, the host's bot wrote the orders of: beeler (default bot)."),
        "{mail}"
    );
}

#[test]
fn a_process_all_sweep_plays_the_bots_turns_and_waits_for_the_person() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let root = tmp.path().to_str().unwrap();
    ok(&["process", "--all", root]);
    assert_eq!(status(&game)["step"], 1, "the sweep waits for the person");
    submit_template(tmp.path(), &game);
    // Step 1 (the person's and the bot's), then step 2, which waits for the bot alone: the
    // same sweep plays it, and stops at step 3, the person's.
    let out = ok(&["process", "--all", root]);
    assert!(out.contains("then step 2 ("), "{out}");
    assert_eq!(status(&game)["step"], 3);
    assert_eq!(
        status(&game)["waiting_for"],
        serde_json::json!(["mercenary"])
    );
}

#[test]
fn the_template_of_a_bot_seat_says_the_bot_writes_its_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let skeleton = ok(&["template", game.to_str().unwrap(), "--side", "beeler"]);
    assert!(
        skeleton.contains("# NOTE: beeler is played by the host's default bot"),
        "{skeleton}"
    );
}

#[test]
fn verify_reports_a_bot_seat_given_default_orders_while_its_bot_could_play() {
    let tmp = tempfile::tempdir().unwrap();
    let game = solo_game(tmp.path(), "bot", &[]);
    let g = game.to_str().unwrap();
    // A host that drops the bot from game.yaml to give the seat default orders instead.
    let config = game.join("game.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("  bot: default\n", "")).unwrap();
    submit_template(tmp.path(), &game);
    ok(&["process", g, "--force-defaults"]);
    let (code, _, err) = run(&["verify", g]);
    assert_eq!(code, 5);
    assert!(
        err.contains(
            "genesis.seats: beeler is played by the default bot, game.yaml says a player's seat"
        ),
        "{err}"
    );
    // With game.yaml put back, the public files agree; the replay finds the defaults.
    std::fs::write(&config, text).unwrap();
    let (code, out, err) = run(&["verify", g]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        err.contains(
            "journal/000001.yaml: step.defaults: beeler is played by the default bot, whose orders \
             for this step are accepted, yet it was given default orders"
        ),
        "{err}"
    );
}
