//! Kummen through the CLI: a rule violation is refused with its rule and line, and hidden facts
//! of one side never reach the other side's view, the report or `status` (DESIGN section 3).

mod common;
use common::*;
use pbem::systems::kummen::data::Side;
use pbem::systems::kummen::state::{State, hidden_slots, permute_hidden};
use proptest::prelude::*;

#[test]
fn spending_6_movement_points_is_refused_naming_rule_5_3_and_the_line() {
    let t = Table::kummen();
    t.play_step(&[]);
    assert_eq!(t.status()["waiting_for"], serde_json::json!(["beeler"]));
    // O06 -> N06 (forest, 3) -> M06 (forest, 3) costs 6; every unit has 5.
    let block = "orders:\n  actions:\n    - move: {unit: 'B#1', path: [N06, M06]}\n";
    let f = t.signed("beeler", "six", &t.order("beeler", block));
    let before = snapshot(&t.game);
    let (code, out, err) = t.submit(&f);
    assert_eq!(code, 4, "{out}{err}");
    assert!(err.contains("six.yaml:10:"), "the line of the move: {err}");
    assert!(err.contains("rule: 5.3"), "{err}");
    assert!(err.contains("accepted:"), "{err}");
    assert_eq!(snapshot(&t.game), before);
}

/// Outputs a reader outside `side` can see: the other side's view, the report and status.
fn outsider_outputs(t: &Table, outsider: &str) -> Vec<String> {
    vec![
        ok(&["view", t.dir(), "--side", outsider]),
        ok(&["view", t.dir(), "--side", outsider, "--format", "yaml"]),
        ok(&["report", t.dir()]),
        ok(&["status", t.dir()]),
        ok(&["status", t.dir(), "--json"]),
    ]
}

/// Reorders `side`'s hidden identities in the stored state by sorting them on `keys`.
fn permute_stored_state(t: &Table, side: Side, keys: &[u64]) {
    let path = t.game.join(format!(
        "host/state/{:06}.yaml",
        t.status()["record"].as_u64().unwrap()
    ));
    let state: State = t.kummen_state(&path);
    let n = hidden_slots(&state, side).len();
    let mut perm: Vec<usize> = (0..n).collect();
    perm.sort_by_key(|&i| (keys[i % keys.len()], i));
    let permuted = permute_hidden(&state, side, &perm).expect("a permutation of the hidden slots");
    std::fs::write(&path, serde_saphyr::to_string(&permuted).unwrap()).unwrap();
    // The hidden identities really did move (otherwise the test would prove nothing).
    assert_ne!(state, permuted);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn another_sides_hidden_identities_change_no_byte_the_outsider_reads(
        keys in proptest::collection::vec(any::<u64>(), 64),
        beeler_hides in any::<bool>(),
    ) {
        let t = Table::kummen();
        t.play_step(&[]);
        let (side, outsider) = if beeler_hides { (Side::Beeler, "mercenary") } else { (Side::Mercenary, "beeler") };
        let before = outsider_outputs(&t, outsider);
        permute_stored_state(&t, side, &keys);
        prop_assert_eq!(outsider_outputs(&t, outsider), before);
    }
}
