//! Axis (30.3.1, 30.4.2, 30.4.3) on the real setup (38) with the map emptied.

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::carry::fixture::{loc, phase, put};
use crate::systems::zeta::combat::{CombatOrder, Wish};
use crate::systems::zeta::state::{Action, Card, PhaseCursor, Slot, State};
use crate::systems::zeta::steps;

/// Axis (Neo Zeon, level 3) in Granada's hex (AEUG, level 3), a Neo Zeon Space phase.
fn at_granada() -> State {
    let mut st = crate::systems::zeta::carry::fixture::state();
    st.bases.get_mut(AXIS).unwrap().place = Some(Place::Hex(loc("space:J04")));
    phase(&mut st, Side::NeoZeon, CardKind::Space);
    st
}

fn dice(seed: u8) -> Dice {
    Dice::new(Hash32([seed; 32]), Hash32([0x41; 32]))
}

#[test]
fn rule_30_3_1_axis_moves_itself_from_level_1_only() {
    let mut st = crate::systems::zeta::carry::fixture::state();
    phase(&mut st, Side::NeoZeon, CardKind::Space);
    let order = AxisOrder {
        to: Some(Place::parse("space:N04").unwrap()),
        attack: None,
    };
    let at = FieldPath::root().at("axis");
    for (level, ok) in [(1, true), (3, true), (0, false)] {
        st.bases.get_mut(AXIS).unwrap().level = level;
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        assert_eq!(
            legal_axis(&ctx, Side::NeoZeon, &order, &at).is_ok(),
            ok,
            "level {level}"
        );
    }
}

#[test]
fn rule_30_4_2_without_an_attack_order_axis_does_not_attack() {
    let st = at_granada();
    let mut d = dice(1);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    for axis in [
        None,
        Some(AxisOrder {
            to: None,
            attack: None,
        }),
    ] {
        let orders = PhaseOrders {
            axis,
            ..Default::default()
        };
        resolve_axis_attack(&mut ctx, Side::NeoZeon, &orders);
    }
    assert_eq!(ctx.state.bases["granada"].level, 3);
    assert_eq!(ctx.state.bases[AXIS].level, 3);
    assert!(ctx.log.clone().into_lines().0.is_empty());
    drop(ctx);
    assert!(d.transcript().public.is_empty());
}

#[test]
fn rule_30_4_3_the_axis_attack_comes_after_the_moves_and_before_combat() {
    let mut st = at_granada();
    put(&mut st, "n-gwadan-9", Side::NeoZeon, "gwadan", "space:J04");
    put(&mut st, "n-gaza-c-9", Side::NeoZeon, "gaza_c", "space:J04");
    for id in ["n-gwadan-9", "n-gaza-c-9"] {
        st.units.get_mut(id).unwrap().action = Some(Action::Move);
    }
    st.units.get_mut("n-gaza-c-9").unwrap().carrier = Some("n-gwadan-9".into());
    put(
        &mut st,
        "a-salamis-kai-9",
        Side::Aeug,
        "salamis_kai",
        "space:J04",
    );
    let orders = PhaseOrders {
        axis: Some(AxisOrder {
            to: None,
            attack: Some("granada".into()),
        }),
        combats: vec![CombatOrder {
            at: loc("space:J04"),
            versus: vec![Side::Aeug],
            guard: None,
            prep: None,
            prep_if: Vec::new(),
            bomb: Wish::Yes,
            bombard: Wish::Yes,
        }],
        ..Default::default()
    };
    let cursor = PhaseCursor {
        k: 1,
        card: Card {
            side: Side::NeoZeon,
            kind: CardKind::Space,
            copy: 1,
        },
        slot: Slot::Movement,
        snapshot: Default::default(),
        combats_done: Vec::new(),
        combat_orders_done: 0,
    };
    let mut d = dice(2);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    steps::run_from(&mut ctx, 1, cursor, &orders);
    drop(ctx);
    let labels: Vec<String> = d
        .transcript()
        .public
        .iter()
        .map(|r| r.label.clone())
        .collect();
    let first_combat = labels.iter().position(|l| l.contains("/c:"));
    let last_other = labels.iter().rposition(|l| !l.contains("/c:"));
    assert!(
        labels.iter().any(|l| l.contains("/axis_attack/")),
        "{labels:?}"
    );
    assert!(first_combat.is_some() && last_other.is_some(), "{labels:?}");
    assert!(last_other < first_combat, "{labels:?}");
}
