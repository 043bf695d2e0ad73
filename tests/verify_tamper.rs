//! `pbem verify` catches every single corruption, one at a time, and names where it is
//! (DESIGN section 2, "Audit"). Each test plays two steps of a real game, corrupts one thing
//! the way a dishonest host or a damaged disk would, and expects exit 5 with the place named.

mod common;
use common::*;
use pbem::protocol::journal::Record;

fn played() -> Table {
    let t = Table::kummen();
    t.play_step(&[]);
    t.play_step(&[]);
    let (code, out, err) = run(&["verify", t.dir()]);
    assert_eq!(code, 0, "an untouched game verifies:\n{out}{err}");
    t
}

fn rewrite_record(t: &Table, seq: u64, change: impl FnOnce(&mut Record)) {
    let path = t.game.join(format!("journal/{seq:06}.yaml"));
    let mut rec: Record = serde_saphyr::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut rec);
    std::fs::write(&path, serde_saphyr::to_string(&rec).unwrap()).unwrap();
}

fn flip_byte(path: &std::path::Path, at: usize) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[at] ^= 0x01;
    std::fs::write(path, bytes).unwrap();
}

fn assert_caught(t: &Table, args: &[&str], needles: &[&str]) {
    let mut all = vec!["verify", t.dir()];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 5, "expected verification to fail:\n{out}{err}");
    for n in needles {
        assert!(err.contains(n), "missing {n:?} in:\n{err}");
    }
}

#[test]
fn a_changed_die_is_caught_from_the_journal_alone() {
    let t = played();
    rewrite_record(&t, 1, |r| {
        let die = &mut r.step.as_mut().unwrap().dice[0];
        die.values[0] = die.values[0] % die.faces + 1;
    });
    assert_caught(
        &t,
        &["--public-only"],
        &["journal/000001.yaml: step.dice[0]", "recomputed"],
    );
}

#[test]
fn a_changed_journal_hash_link_is_caught() {
    let t = played();
    rewrite_record(&t, 2, |r| {
        r.prev = Some(pbem::protocol::hash::sha256(b"forged"))
    });
    assert_caught(&t, &["--public-only"], &["journal/000002.yaml: prev"]);
}

#[test]
fn an_edited_record_breaks_the_chain_at_the_next_record() {
    let t = played();
    rewrite_record(&t, 1, |r| {
        r.step
            .as_mut()
            .unwrap()
            .events
            .push("nothing happened".into())
    });
    assert_caught(&t, &["--public-only"], &["journal/000002.yaml: prev"]);
}

#[test]
fn a_reveal_that_does_not_match_its_commitment_is_caught() {
    let t = played();
    rewrite_record(&t, 1, |r| {
        r.step.as_mut().unwrap().host_reveal = pbem::protocol::hash::sha256(b"other")
    });
    assert_caught(
        &t,
        &["--public-only"],
        &["journal/000001.yaml: step.host_reveal"],
    );
}

#[test]
fn a_changed_step_seed_is_caught() {
    let t = played();
    rewrite_record(&t, 2, |r| {
        r.step.as_mut().unwrap().seed = pbem::protocol::hash::sha256(b"seed")
    });
    assert_caught(&t, &["--public-only"], &["journal/000002.yaml: step.seed"]);
}

#[test]
fn one_flipped_byte_of_a_stored_order_is_caught() {
    let t = played();
    let order = t.game.join("host/orders/000001-beeler.yaml");
    let text = std::fs::read_to_string(&order).unwrap();
    flip_byte(&order, text.find("side: beeler").unwrap() + 7);
    assert_caught(&t, &[], &["host/orders/000001-beeler.yaml"]);
}

#[test]
fn one_flipped_byte_of_a_receipt_is_caught() {
    let t = played();
    let dir = t.game.join("host/receipts");
    let receipt = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .min()
        .unwrap();
    let text = std::fs::read_to_string(&receipt).unwrap();
    flip_byte(&receipt, text.find("side: ").unwrap() + 6);
    assert_caught(&t, &[], &["host/receipts/"]);
}

#[test]
fn a_receipt_for_an_order_the_journal_dropped_is_caught() {
    let t = played();
    // The host hands out a receipt, then quietly drops the order from the record it writes.
    rewrite_record(&t, 2, |r| r.step.as_mut().unwrap().orders.clear());
    assert_caught(
        &t,
        &["--public-only"],
        &["journal/000002.yaml: step.orders"],
    );
}

#[test]
fn a_changed_host_state_is_caught_by_the_replay() {
    let t = played();
    let state = t.game.join("host/state/000001.yaml");
    let text = std::fs::read_to_string(&state).unwrap();
    std::fs::write(&state, text.replacen("turn: 1", "turn: 2", 1) + "\n").unwrap();
    assert_caught(&t, &[], &["host/state/000001.yaml"]);
}

#[test]
fn a_changed_view_is_caught() {
    let t = played();
    let view = t.game.join("views/beeler/view.yaml");
    let text = std::fs::read_to_string(&view).unwrap();
    std::fs::write(&view, text + "# extra\n").unwrap();
    assert_caught(&t, &[], &["views/beeler/view.yaml"]);
}

#[test]
fn a_player_order_the_journal_never_saw_is_caught() {
    let t = played();
    let f = t.signed("beeler", "unseen", &t.order("beeler", "orders: {}\n"));
    assert_caught(
        &t,
        &["--player", f.to_str().unwrap()],
        &["unseen.yaml", "not in the journal"],
    );
}
