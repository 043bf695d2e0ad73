//! 13.1: the units that chose to move go along their paths, on the real setup (38).

use super::*;
use crate::systems::zeta::carry::fixture::{loc, phase, put, state};
use crate::systems::zeta::state::CardKind;

#[test]
fn rule_13_1_a_unit_that_chose_to_move_goes_along_its_path() {
    let mut st = state();
    put(
        &mut st,
        "t-alexandria-9",
        Side::Titans,
        "alexandria",
        "space:C02",
    );
    put(
        &mut st,
        "t-salamis-kai-9",
        Side::Titans,
        "salamis_kai",
        "space:C02",
    );
    phase(&mut st, Side::Titans, CardKind::Space);
    let orders = PhaseOrders {
        units: vec![UnitOrder {
            unit: "t-alexandria-9".into(),
            path: Some(vec![loc("space:C03")]),
            carry: Vec::new(),
            recover: None,
            govern: None,
        }],
        ..Default::default()
    };
    let mut ctx = Ctx::new(st, None, Moment::Resolve);
    let problems = run_moves(&mut ctx, Side::Titans, &orders, &FieldPath::root());
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        ctx.state.units["t-alexandria-9"].place,
        Place::Hex(loc("space:C03"))
    );
    // The unit not named stays (12.5).
    assert_eq!(
        ctx.state.units["t-salamis-kai-9"].place,
        Place::Hex(loc("space:C02"))
    );
}
