//! Atmospheric movement (14.2, 14.3, 14.7, 14.10) on the real setup (38), map emptied.

use super::super::carry::fixture::*;
use super::*;
use crate::systems::zeta::orders::PhaseOrders;
use crate::systems::zeta::state::State;

fn item(unit: &str, descend: Option<&str>) -> AtmoOrder {
    AtmoOrder {
        unit: Some(unit.into()),
        char: None,
        descend: descend.map(loc),
        launch: descend.is_none(),
        carry: Vec::new(),
    }
}

/// AEUG's Atmosphere phase with `items` carried out: the state after and the problems.
fn run(mut st: State, items: Vec<AtmoOrder>) -> (State, Vec<Problem>) {
    phase(&mut st, Side::Aeug, CardKind::Atmosphere);
    let orders = PhaseOrders {
        atmospheric: items,
        ..Default::default()
    };
    let mut ctx = Ctx::new(st, None, Moment::Resolve);
    let problems = run_atmospheric(&mut ctx, Side::Aeug, &orders, &FieldPath::root());
    (ctx.state, problems)
}

#[test]
fn rule_14_2_atmospheric_movement_descends_or_launches() {
    let mut st = state();
    // Drop point C (D05) over ground area C; Hickory (ground:C02, AEUG) under drop point A.
    put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
    put(&mut st, "a-argama-2", Side::Aeug, "argama", "ground:C02");
    let (st, problems) = run(
        st,
        vec![
            item("a-argama-1", Some("ground:M03")),
            item("a-argama-2", None),
        ],
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(st.units["a-argama-1"].place, Place::Hex(loc("ground:M03")));
    assert_eq!(st.units["a-argama-2"].place, Place::Hex(loc("space:E04")));
}

#[test]
fn rule_14_3_the_drop_points_are_the_three_hexes_by_earth() {
    let st = state();
    let ctx = Ctx::new(st, None, Moment::Check);
    let space = &ctx.data.map.space;
    let earth = Loc::new(MapId::Space, space.earth);
    let points = [
        space.drop_points.a,
        space.drop_points.b,
        space.drop_points.c,
    ];
    let next = ctx.data.neighbours(earth);
    for p in points {
        assert!(next.contains(&Loc::new(MapId::Space, p)), "{p:?}");
        assert!(space.drop_area(p).is_some());
    }
    assert!(points[0] != points[1] && points[1] != points[2] && points[0] != points[2]);
}

#[test]
fn rule_14_7_any_number_of_units_descend_in_a_phase() {
    let mut st = state();
    let mut items = Vec::new();
    for i in 1..=5 {
        let id = format!("a-argama-{i}");
        put(&mut st, &id, Side::Aeug, "argama", "space:D05");
        items.push(item(&id, Some("ground:M03")));
    }
    let (st, problems) = run(st, items);
    assert!(problems.is_empty(), "{problems:?}");
    for i in 1..=5 {
        assert_eq!(
            st.units[&format!("a-argama-{i}")].place,
            Place::Hex(loc("ground:M03"))
        );
    }
}

#[test]
fn rule_14_10_any_number_of_units_launch_from_one_hex() {
    let mut st = state();
    let mut items = Vec::new();
    for i in 1..=5 {
        let id = format!("a-argama-{i}");
        put(&mut st, &id, Side::Aeug, "argama", "ground:C02");
        items.push(item(&id, None));
    }
    let (st, problems) = run(st, items);
    assert!(problems.is_empty(), "{problems:?}");
    for i in 1..=5 {
        assert_eq!(
            st.units[&format!("a-argama-{i}")].place,
            Place::Hex(loc("space:E04"))
        );
    }
}
