//! A whole kummen game through the CLI with signed orders, from setup to a rule-14 result; then
//! the host concludes it and anyone holding the public files plus the published archive can
//! replay every step, die, sealed draw and view (DESIGN section 2, "Audit", full level).

mod common;
use common::*;

/// Plays the demo script (orders/kummen) until the game is over (14.1). Returns the number of
/// steps played.
fn play_to_the_end(t: &Table) -> u64 {
    let steps = t.play_script("kummen", &["mercenary", "beeler"], 200);
    assert!(
        t.status()["finished"].as_bool().unwrap(),
        "the game must end (14.1)"
    );
    steps
}

#[test]
fn a_whole_game_reaches_a_rule_14_result_and_verifies_in_full_from_its_archive() {
    let t = Table::kummen();
    let steps = play_to_the_end(&t);
    assert!(steps > 20, "at least seven turns of three steps: {steps}");
    let report = ok(&["report", t.dir()]);
    assert!(
        report.contains("(14.2.5)") && report.contains("the game is over"),
        "{report}"
    );
    let outcome = t.status()["outcome"].as_str().unwrap().to_string();
    assert!(
        outcome.contains("wins") || outcome.contains("draw"),
        "{outcome}"
    );

    let concluded = ok(&["conclude", t.dir()]);
    assert!(concluded.contains("archive/"), "{concluded}");
    assert!(
        !t.game.join("archive/host_key").exists(),
        "the host's signing key is never published"
    );
    for cached in ["journal.jsonl", "data.json", "state.json"] {
        assert!(
            t.game.join("host/cache").join(cached).exists(),
            "the host keeps {cached} parsed"
        );
    }
    assert!(
        !t.game.join("archive/cache").exists(),
        "the host's caches of parsed files are not part of the archive"
    );
    assert!(t.game.join("archive/secrets.yaml").exists());

    // An auditor has the public files and the archive, not the host's directory.
    std::fs::remove_dir_all(t.game.join("host")).unwrap();
    let out = ok(&["verify", "--full", t.dir()]);
    assert!(out.contains("replayed from archive"), "{out}");
    assert!(
        out.contains(&format!("{} orders", steps + 1)),
        "every order (setup has two): {out}"
    );
}

#[test]
fn concluding_a_running_game_is_refused() {
    let t = Table::kummen();
    let before = snapshot(&t.game);
    let (code, _, err) = run(&["conclude", t.dir()]);
    assert_eq!(code, 1);
    assert!(err.contains("not over"), "{err}");
    assert_eq!(snapshot(&t.game), before, "nothing is published");
}

#[test]
fn a_full_replay_without_host_files_or_archive_fails_saying_why() {
    let t = Table::kummen();
    t.play_step(&[]);
    std::fs::remove_dir_all(t.game.join("host")).unwrap();
    let (code, _, err) = run(&["verify", "--full", t.dir()]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("archive"), "{err}");
    // The public level still passes.
    ok(&["verify", t.dir()]);
}

fn concluded_game() -> Table {
    let t = Table::kummen();
    play_to_the_end(&t);
    ok(&["conclude", t.dir()]);
    std::fs::remove_dir_all(t.game.join("host")).unwrap();
    t
}

#[test]
fn one_flipped_byte_in_the_published_archive_is_caught() {
    let t = concluded_game();
    let sealed = t.game.join("archive/sealed/000001.yaml");
    let mut bytes = std::fs::read(&sealed).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    std::fs::write(&sealed, bytes).unwrap();
    let (code, _, err) = run(&["verify", "--full", t.dir()]);
    assert_eq!(code, 5);
    assert!(err.contains("archive/sealed/000001.yaml"), "{err}");
}

#[test]
fn a_conclusion_revealing_another_game_key_is_caught() {
    let t = concluded_game();
    let last = std::fs::read_dir(t.game.join("journal"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .max()
        .unwrap();
    let mut rec: pbem::protocol::journal::Record =
        serde_saphyr::from_str(&std::fs::read_to_string(&last).unwrap()).unwrap();
    rec.conclusion.as_mut().unwrap().game_key = pbem::protocol::hash::sha256(b"another key");
    std::fs::write(&last, serde_saphyr::to_string(&rec).unwrap()).unwrap();
    let (code, _, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5);
    assert!(err.contains("conclusion.game_key"), "{err}");
}

#[test]
fn every_view_ever_sent_is_kept_and_checked() {
    let t = Table::kummen();
    t.play_step(&[]);
    t.play_step(&[]);
    for seq in 0..=2 {
        assert!(t.game.join(format!("views/beeler/{seq:06}.yaml")).exists());
    }
    let old = t.game.join("views/mercenary/000001.yaml");
    let text = std::fs::read_to_string(&old).unwrap();
    std::fs::write(&old, text.replacen("record: 1", "record: 7", 1)).unwrap();
    let (code, _, err) = run(&["verify", t.dir()]);
    assert_eq!(code, 5);
    assert!(err.contains("views/mercenary/000001.yaml"), "{err}");
}

#[test]
fn odds_are_exact_and_use_only_what_the_side_may_see() {
    let out = ok(&["odds", "kummen", "9", "4"]);
    assert!(out.contains("10 of 36 throws = 5/18 = 27.78%"), "{out}");
    let t = Table::kummen();
    t.play_step(&[]);
    let (code, _, err) = run(&[
        "odds",
        "--game",
        t.dir(),
        "--side",
        "mercenary",
        "M-H01",
        "B#1",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("hidden"), "{err}");
    let own = ok(&[
        "odds",
        "--game",
        t.dir(),
        "--side",
        "beeler",
        "B#1",
        "M-H01",
    ]);
    assert!(own.contains("attacking M-H01"), "{own}");
}
