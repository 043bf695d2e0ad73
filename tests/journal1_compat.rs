//! A game recorded before issue 10 (journal/1 records with the order entropy in the clear,
//! order/1 documents without a version, receipt/1, dougram rules 1) still verifies with this pbem
//! (every check but the replay of steps of other rules) and
//! with the independent auditor. The fixture is `pbem demo dougram` as made by the release
//! before the change, concluded, with host/, inbox/ and outbox/ removed (an auditor's copy).

mod common;
use common::*;

#[test]
fn a_concluded_journal_1_game_verifies_in_full_from_its_archive() {
    let (_tmp, game) = journal1_dougram();
    let out = ok(&["verify", "--full", game.to_str().unwrap()]);
    assert!(out.contains("replayed from archive"), "{out}");
    // Its steps were resolved by dougram rules 1 (pbem 0.1.0), which kept the component data in
    // every state; this pbem checks all that needs no replay and says which pbem replays them.
    for seq in 1..=3 {
        assert!(
            out.contains(&format!(
                "not replayed: journal/{seq:06}.yaml was resolved by dougram rules 1; this pbem {} has dougram rules {}: replay it with pbem 0.1.0",
                pbem::PBEM_VERSION,
                pbem::systems::by_id("dougram").unwrap().rules_version()
            )),
            "{out}"
        );
    }
}

#[test]
fn the_independent_auditor_reads_journal_1_records_and_their_archived_orders() {
    let (_tmp, game) = journal1_dougram();
    let out = std::process::Command::new("python3")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/dice_audit.py"))
        .arg(&game)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_changed_entropy_in_a_journal_1_archive_order_is_caught_by_the_auditor() {
    let (_tmp, game) = journal1_dougram();
    // The archived orders are the openings of the journal's commitments: one changed byte of
    // an order (here its entropy) no longer matches the record.
    let orders = game.join("archive/orders");
    let first = std::fs::read_dir(&orders)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .min()
        .unwrap();
    let text = std::fs::read_to_string(&first).unwrap();
    let line = text.lines().find(|l| l.starts_with("entropy: ")).unwrap();
    let flipped = match line.strip_suffix('0') {
        Some(head) => format!("{head}1"),
        None => format!("{}0", &line[..line.len() - 1]),
    };
    std::fs::write(&first, text.replace(line, &flipped)).unwrap();
    let out = std::process::Command::new("python3")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/dice_audit.py"))
        .arg(&game)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(said.contains("archive/orders/"), "{said}");
}
