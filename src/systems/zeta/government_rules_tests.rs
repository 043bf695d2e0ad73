//! Government (17.1, 17.4, 17.5, 17.10 with 16.6) on the real setup (38): Titans govern Green
//! Noa with units of their own in its emptied hex.

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::carry::fixture::phase;
use crate::systems::zeta::deploy::fixture::{state, unit};
use crate::systems::zeta::gryps::GRYPS_2;
use crate::systems::zeta::orders::{PhaseOrders, UnitOrder};
use crate::systems::zeta::state::{Card, CardKind, FaceUp, PhaseSnapshot, Slot, State};
use crate::systems::zeta::steps;

const C02: &str = "space:C02";

/// Green Noa (C02) Titans' at level 2, its hex holding only `units` (id, type, action).
fn green_noa(units: &[(&str, &str, Option<Action>)]) -> State {
    let mut st = state();
    st.units
        .retain(|_, u| u.place != Place::Hex(Loc::parse(C02).unwrap()));
    let b = st.bases.get_mut("green_noa").unwrap();
    b.governor = Some(Side::Titans);
    b.level = 2;
    for (id, t, action) in units {
        unit(&mut st, id, Side::Titans, t, C02);
        st.units.get_mut(*id).unwrap().action = action.clone();
    }
    phase(&mut st, Side::Titans, CardKind::Space);
    st
}

fn govern(base: &str) -> Option<Action> {
    Some(Action::Govern { base: base.into() })
}

fn cursor(st: &State, slot: Slot) -> PhaseCursor {
    PhaseCursor {
        k: 1,
        card: Card {
            side: Side::Titans,
            kind: CardKind::Space,
            copy: 1,
        },
        slot,
        snapshot: PhaseSnapshot {
            others_in: st
                .units
                .values()
                .filter_map(|u| u.place.loc())
                .map(|l| (l, st.sides_at(l)))
                .collect(),
            ..PhaseSnapshot::default()
        },
        combats_done: Vec::new(),
        combat_orders_done: 0,
    }
}

/// Titans' government slot: the state after, the public lines and the roll labels.
fn govern_now(st: State) -> (State, Vec<String>, Vec<String>) {
    let cur = cursor(&st, Slot::Government);
    let mut d = Dice::new(Hash32([3; 32]), Hash32([0x6e; 32]));
    let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
    resolve_government(&mut c, Side::Titans, &cur);
    let Ctx { state, log, .. } = c;
    let labels = d
        .transcript()
        .public
        .iter()
        .map(|r| r.label.clone())
        .collect();
    (state, log.into_lines().0, labels)
}

#[test]
fn rule_17_1_only_the_units_that_chose_to_govern_count() {
    let st = green_noa(&[
        ("t-alexandria-91", "alexandria", govern("green_noa")),
        ("t-salamis-kai-91", "salamis_kai", Some(Action::Move)),
    ]);
    let (_, public, _) = govern_now(st);
    assert!(
        public
            .iter()
            .any(|l| l.starts_with("titans governs green_noa with t-alexandria-91 (government 1)")),
        "{public:?}"
    );
}

#[test]
fn rule_17_4_one_roll_per_base_with_all_its_governors() {
    let st = green_noa(&[
        ("t-alexandria-91", "alexandria", govern("green_noa")),
        ("t-salamis-kai-91", "salamis_kai", govern("green_noa")),
    ]);
    let (_, public, labels) = govern_now(st);
    assert_eq!(labels, vec!["t1/p1/gov/green_noa".to_string()]);
    assert!(
        public.iter().any(|l| l.starts_with(
            "titans governs green_noa with t-alexandria-91, t-salamis-kai-91 (government 2)"
        )),
        "{public:?}"
    );
}

#[test]
fn rule_17_5_each_base_of_a_hex_is_governed_with_the_units_named_for_it() {
    let mut st = green_noa(&[
        ("t-alexandria-91", "alexandria", govern("green_noa")),
        ("t-salamis-kai-91", "salamis_kai", govern(GRYPS_2)),
    ]);
    // Gryps 2 placed in Green Noa's hex: two bases in one hex.
    let g = st.bases.get_mut(GRYPS_2).unwrap();
    g.place = Some(Place::Hex(Loc::parse(C02).unwrap()));
    g.governor = Some(Side::Titans);
    g.level = 1;
    let (_, public, labels) = govern_now(st);
    assert_eq!(
        labels,
        vec![
            "t1/p1/gov/green_noa".to_string(),
            format!("t1/p1/gov/{GRYPS_2}")
        ]
    );
    assert!(
        public
            .iter()
            .any(|l| l.starts_with("titans governs green_noa with t-alexandria-91 (government 1)"))
    );
    assert!(
        public.iter().any(|l| l.starts_with(&format!(
            "titans governs {GRYPS_2} with t-salamis-kai-91 (government 1)"
        ))),
        "{public:?}"
    );
}

#[test]
fn rule_17_10_recovery_comes_before_government_and_adds_nothing_to_it() {
    let mut st = green_noa(&[
        ("t-alexandria-91", "alexandria", govern("green_noa")),
        ("t-salamis-kai-91", "salamis_kai", Some(Action::Recover)),
    ]);
    st.units.get_mut("t-salamis-kai-91").unwrap().face = FaceUp::Back;
    let cur = cursor(&st, Slot::Recovery);
    let mut d = Dice::new(Hash32([3; 32]), Hash32([0x6e; 32]));
    let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
    steps::run_from(&mut c, 1, cur, &PhaseOrders::default());
    assert_eq!(c.state.units["t-salamis-kai-91"].face, FaceUp::Front);
    let public = c.log.into_lines().0;
    let recovered = public
        .iter()
        .position(|l| l == "t-salamis-kai-91 recovers at green_noa (16.1)");
    let governed = public.iter().position(|l| {
        l.starts_with("titans governs green_noa with t-alexandria-91 (government 1)")
    });
    assert!(recovered.is_some() && recovered < governed, "{public:?}");
}

/// The problems Titans' phase orders with the one item `item` get at check.
fn one_action_problems(item: UnitOrder) -> Vec<(Option<String>, String)> {
    let st = green_noa(&[("t-alexandria-91", "alexandria", None)]);
    let mut c = Ctx::new(st, None, Moment::Check);
    let orders = PhaseOrders {
        units: vec![item],
        ..Default::default()
    };
    crate::systems::zeta::action::record_actions(&mut c, Side::Titans, &orders, &FieldPath::root())
        .into_iter()
        .map(|p| (p.rule.clone(), p.message.clone()))
        .collect()
}

fn item(path: bool, recover: bool, govern: bool) -> UnitOrder {
    UnitOrder {
        unit: "t-alexandria-91".into(),
        path: path.then(|| vec![Loc::parse("space:C03").unwrap()]),
        carry: Vec::new(),
        recover: recover.then(|| "green_noa".to_string()),
        govern: govern.then(|| "green_noa".to_string()),
    }
}

const ONE_ACTION: &str = "t-alexandria-91: one action a unit: move, recover or govern";

#[test]
fn rule_16_4_a_unit_that_recovers_neither_moves_nor_governs() {
    for it in [item(true, true, false), item(false, true, true)] {
        assert_eq!(
            one_action_problems(it),
            vec![(Some("12.5".to_string()), ONE_ACTION.to_string())]
        );
    }
    assert!(one_action_problems(item(false, true, false)).is_empty());
}

#[test]
fn rule_17_3_a_unit_that_governs_neither_moves_nor_recovers() {
    assert_eq!(
        one_action_problems(item(true, false, true)),
        vec![(Some("12.5".to_string()), ONE_ACTION.to_string())]
    );
    assert!(one_action_problems(item(false, false, true)).is_empty());
}
