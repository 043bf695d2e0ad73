//! Host operations (`pbem host replace-key | hand-over | rollback`): each is a journal record
//! shown in the report; orders signed before a key change keep verifying, orders signed with
//! the old key after it are refused; a rollback re-opens the step under a new number, play goes
//! on and verifies, and an order for the abandoned step number is refused.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn scripted_block(step: u64, side: &str) -> String {
    match pbem::engine::demo::scripted("kummen", step, side) {
        Some(body) => {
            let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
            format!("orders:\n{indented}")
        }
        None => "orders: {}\n".to_string(),
    }
}

/// Plays the open step with the demo's orders (or empty ones).
fn play(t: &Table) -> String {
    play_as(t, t.step())
}

/// Plays the open step with the demo's orders of step `step` (after a rollback the open step's
/// number is not the position in the demo script).
fn play_as(t: &Table, step: u64) -> String {
    let blocks: Vec<(String, String)> = ["mercenary", "beeler"]
        .iter()
        .map(|s| (s.to_string(), scripted_block(step, s)))
        .collect();
    let refs: Vec<(&str, &str)> = blocks
        .iter()
        .map(|(s, b)| (s.as_str(), b.as_str()))
        .collect();
    t.play_step(&refs)
}

fn keygen(t: &Table, name: &str) -> PathBuf {
    let k = t.path(&format!("keys/{name}"));
    ok(&["keygen", "--out", k.to_str().unwrap(), "--comment", name]);
    k
}

fn sign_with(t: &Table, key: &Path, name: &str, doc: &str) -> PathBuf {
    let plain = t.path(&format!("{name}.plain.yaml"));
    std::fs::write(&plain, doc).unwrap();
    let signed = t.path(&format!("{name}.yaml"));
    ok(&[
        "sign",
        plain.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    signed
}

fn record(t: &Table, seq: u64) -> String {
    std::fs::read_to_string(t.game.join(format!("journal/{seq:06}.yaml"))).unwrap()
}

fn waits_for(t: &Table, side: &str) -> bool {
    t.status()["waiting_for"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == side)
}

#[test]
fn replace_key_is_recorded_old_orders_still_verify_and_the_old_key_is_refused_after_it() {
    let t = Table::kummen();
    play(&t);
    let old_order = t.path("s1-beeler.yaml");
    assert!(old_order.exists());
    let new_key = keygen(&t, "beeler-new");
    let out = ok(&[
        "host",
        "replace-key",
        t.dir(),
        "--side",
        "beeler",
        "--key",
        &format!("{}.pub", new_key.display()),
        "--reason",
        "lost laptop",
    ]);
    assert!(out.contains("record 2"), "{out}");
    let rec = record(&t, 2);
    assert!(
        rec.contains("op: replace_key") && rec.contains("lost laptop"),
        "{rec}"
    );
    let report = ok(&["report", t.dir()]);
    assert!(
        report.contains("host operation: host replaced the key of beeler"),
        "{report}"
    );
    let new_pub = std::fs::read_to_string(format!("{}.pub", new_key.display())).unwrap();
    let new_pub = new_pub
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert!(config.contains(&new_pub), "game.yaml has the new key");

    // Find a step that waits for beeler.
    while !waits_for(&t, "beeler") {
        play(&t);
    }
    let step = t.step();
    let doc = t.order("beeler", &scripted_block(step, "beeler"));
    let with_old = t.signed("beeler", "old-key-after", &doc);
    let before = snapshot(&t.game);
    let (code, _, err) = t.submit(&with_old);
    assert_eq!(code, 4, "the old key is refused: {err}");
    assert!(err.contains("signature"), "{err}");
    assert_eq!(snapshot(&t.game), before);
    let with_new = sign_with(&t, &new_key, "new-key", &doc);
    let (code, out, err) = t.submit(&with_new);
    assert_eq!(code, 0, "{out}{err}");
    play(&t);

    // Host level: every order verifies with the key its side had when it was used.
    let v = ok(&["verify", "--full", t.dir()]);
    assert!(v.contains("verified"), "{v}");
    ok(&[
        "verify",
        t.dir(),
        "--player",
        old_order.to_str().unwrap(),
        "--player",
        with_new.to_str().unwrap(),
    ]);

    // game.yaml must end where the key history ends.
    let config_path = t.game.join("game.yaml");
    let good = std::fs::read_to_string(&config_path).unwrap();
    let old_pub = std::fs::read_to_string(t.key("beeler").with_extension("pub")).unwrap();
    let old_pub = old_pub
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    std::fs::write(&config_path, good.replace(&new_pub, &old_pub)).unwrap();
    let (code, out, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(err.contains("game.yaml: seats"), "{err}");
}

#[test]
fn hand_over_changes_the_seat_and_withdrawn_orders_keep_valid_receipts() {
    let t = Table::kummen();
    play(&t);
    // An order waiting in the inbox when the host operation comes.
    let waiting: Vec<String> = t.status()["waiting_for"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    let side = waiting[0].clone();
    let doc = t.order(&side, &scripted_block(t.step(), &side));
    let pending = t.signed(&side, "pending", &doc);
    let receipt = t.path("pending.receipt");
    ok(&[
        "submit",
        t.dir(),
        pending.to_str().unwrap(),
        "--receipt",
        receipt.to_str().unwrap(),
    ]);

    let new_key = keygen(&t, "mercenary-new");
    let out = ok(&[
        "host",
        "hand-over",
        t.dir(),
        "--side",
        "mercenary",
        "--key",
        &format!("{}.pub", new_key.display()),
        "--name",
        "Carol",
        "--email",
        "carol@example.org",
        "--reason",
        "Alice left the game",
    ]);
    assert!(out.contains("withdrawn"), "{out}");
    let rec = record(&t, 2);
    assert!(
        rec.contains("op: hand_over") && rec.contains("Carol"),
        "{rec}"
    );
    let report = ok(&["report", t.dir()]);
    assert!(report.contains("handed mercenary to Carol"), "{report}");
    // The name is public; the address is the host's (mail/addresses.yaml), in neither the
    // record nor game.yaml.
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert!(
        config.contains("Carol") && !config.contains("carol@example.org"),
        "{config}"
    );
    assert!(!rec.contains("carol@example.org"), "{rec}");
    let addresses = std::fs::read_to_string(t.game.join("mail/addresses.yaml")).unwrap();
    assert!(addresses.contains("carol@example.org"), "{addresses}");
    assert!(t.status()["received"].as_array().unwrap().is_empty());
    // The receipt of the withdrawn order is explained by the host operation right after its basis.
    ok(&["verify", t.dir(), "--player", receipt.to_str().unwrap()]);

    // Play on with Carol's key.
    let step = t.step();
    for side in t.status()["waiting_for"].as_array().unwrap().clone() {
        let side = side.as_str().unwrap();
        let doc = t.order(side, &scripted_block(step, side));
        let f = if side == "mercenary" {
            sign_with(&t, &new_key, &format!("carol-{step}"), &doc)
        } else {
            t.signed(side, &format!("again-{step}-{side}"), &doc)
        };
        let (code, out, err) = t.submit(&f);
        assert_eq!(code, 0, "{out}{err}");
    }
    ok(&["process", t.dir()]);
    ok(&["verify", "--full", t.dir()]);
}

#[test]
fn rollback_reopens_the_step_under_a_new_number_and_play_goes_on_verifiably() {
    let t = Table::kummen();
    play(&t);
    play(&t);
    play(&t);
    let abandoned = t.step();
    let seats_before: Vec<String> = t.status()["waiting_for"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    // A pending order for the step about to be abandoned.
    let side = seats_before[0].clone();
    let stale = t.signed(
        &side,
        "stale",
        &t.order(&side, &scripted_block(abandoned, &side)),
    );
    let (code, out, err) = t.submit(&stale);
    assert_eq!(code, 0, "{out}{err}");

    let out = ok(&[
        "host",
        "rollback",
        t.dir(),
        "--to",
        "1",
        "--reason",
        "rules error in step 2",
    ]);
    assert!(out.contains("record 4"), "{out}");
    let rec = record(&t, 4);
    assert!(
        rec.contains("op: rollback") && rec.contains("to_record: 1"),
        "{rec}"
    );
    let report = ok(&["report", t.dir()]);
    assert!(
        report.contains("rolled the game back to record 1"),
        "{report}"
    );
    let step = t.step();
    assert!(step > abandoned, "a new step number: {step} > {abandoned}");
    assert_eq!(
        std::fs::read(t.game.join("host/state/000004.yaml")).unwrap(),
        std::fs::read(t.game.join("host/state/000001.yaml")).unwrap(),
        "the state is that of record 1"
    );
    assert!(
        std::fs::read_dir(t.game.join("inbox"))
            .map(|d| d.count() == 0)
            .unwrap_or(true),
        "the inbox of the old step is cleared"
    );
    // The published records 2 and 3 stay.
    assert!(t.game.join("journal/000002.yaml").exists());
    assert!(t.game.join("journal/000003.yaml").exists());

    // An order for the abandoned step number (even with the new basis) is refused.
    let doc = t
        .order(&side, &scripted_block(abandoned, &side))
        .replace(&format!("step: {step}\n"), &format!("step: {abandoned}\n"));
    assert!(doc.contains(&format!("step: {abandoned}\n")));
    let old_step = t.signed(&side, "old-step", &doc);
    let (code, _, err) = t.submit(&old_step);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("open step is"), "{err}");
    let (code, _, err) = t.submit(&stale);
    assert_eq!(code, 4, "{err}");

    // Play on from the rollback (the position of step 2 of the script); verify at every level.
    play_as(&t, 2);
    play_as(&t, 3);
    ok(&["verify", "--public-only", t.dir()]);
    let v = ok(&["verify", "--full", t.dir()]);
    assert!(v.contains("steps replayed from host"), "{v}");
    ok(&["verify", t.dir(), "--player", stale.to_str().unwrap()]);
}

/// A pause, a resumption or an extended deadline does not change the open step, so orders sent
/// before it stay valid, and orders written against the new journal head are valid too.
#[test]
fn orders_sent_before_a_pause_or_an_extension_still_count() {
    let t = common::Table::kummen();
    let early = t.signed("beeler", "early", &t.order("beeler", "orders: {}\n"));
    assert_eq!(t.submit(&early).0, 0);
    common::ok(&[
        "pause",
        t.dir(),
        "--reason",
        "holiday",
        "--now",
        "2026-11-23T10:00:00Z",
    ]);
    common::ok(&[
        "resume",
        t.dir(),
        "--reason",
        "back",
        "--now",
        "2026-11-24T10:00:00Z",
    ]);
    let late = t.signed("mercenary", "late", &t.order("mercenary", "orders: {}\n"));
    assert_eq!(
        t.submit(&late).0,
        0,
        "an order against the new head is accepted"
    );
    common::ok(&["process", t.dir(), "--now", "2026-11-24T11:00:00Z"]);
    let record = std::fs::read_to_string(t.game.join("journal/000003.yaml")).unwrap();
    assert!(
        record.contains("side: beeler") && record.contains("side: mercenary"),
        "{record}"
    );
    common::ok(&["verify", t.dir()]);
    // An order from before the step opened is still refused.
    let stale = t.signed(
        "beeler",
        "stale",
        &t.order("beeler", "orders: {}\n")
            .replace(&t.head(), &"0".repeat(64)),
    );
    let (code, _, err) = t.submit(&stale);
    assert_eq!(code, 4, "{err}");
}
