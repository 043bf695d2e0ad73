//! 35.6.2: nothing on the map changes the colony's move, on the real setup (38).

use super::*;
use crate::systems::zeta::carry::fixture::{phase, put, state};

fn loc(s: &str) -> Loc {
    Loc::parse(s).unwrap()
}

/// Neo Zeon's Space phase with its colony in F02 (Side 2) and the map otherwise empty.
fn colony_in_f02() -> State {
    let mut st = state();
    put(&mut st, COLONY, Side::NeoZeon, COLONY, "space:F02");
    st.colony.in_use_by = Some(Side::NeoZeon);
    st.colony.used.insert(Side::NeoZeon);
    phase(&mut st, Side::NeoZeon, CardKind::Space);
    st
}

#[test]
fn rule_35_6_2_units_and_bases_in_the_way_do_not_change_the_colonys_move() {
    let st = colony_in_f02();
    let from = loc("space:F02");
    let empty = move_reach(&Ctx::new(st.clone(), None, Moment::Resolve), from);
    assert!(!empty.is_empty());
    // Titans ships on every hex within 2 and every base Titans' at level 3.
    let mut full = st.clone();
    let ctx = Ctx::new(st, None, Moment::Resolve);
    let near: Vec<Loc> = ctx
        .data
        .grid(MapId::Space)
        .all()
        .into_iter()
        .map(|h| Loc::new(MapId::Space, h))
        .filter(|l| {
            ctx.data
                .distance(from, *l)
                .is_some_and(|d| (1..=2).contains(&d))
        })
        .collect();
    for (i, l) in near.iter().enumerate() {
        put(
            &mut full,
            &format!("t-alexandria-{}", 90 + i),
            Side::Titans,
            "alexandria",
            &l.label(),
        );
    }
    for b in full.bases.values_mut() {
        b.governor = Some(Side::Titans);
        b.level = 3;
    }
    let ctx = Ctx::new(full, None, Moment::Resolve);
    assert_eq!(move_reach(&ctx, from), empty);
    let at = FieldPath::root().at("colony_move");
    for to in &empty {
        assert!(
            legal_colony_move(&ctx, Side::NeoZeon, to, &at).is_ok(),
            "{}",
            to.label()
        );
    }
}
