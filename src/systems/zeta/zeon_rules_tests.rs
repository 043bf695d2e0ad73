//! The Zeon remnants (32.1.5, 32.1.6, 32.2.2, 32.2.4) on the real setup (38), map emptied.

use super::*;
use crate::systems::zeta::action::record_actions;
use crate::systems::zeta::carry::fixture::{loc, phase, put, state};
use crate::systems::zeta::combat::{CombatOrder, Wish, legal_combat};
use crate::systems::zeta::ctx::Moment;
use crate::systems::zeta::movement::legal_move;
use crate::systems::zeta::orders::UnitOrder;
use crate::systems::zeta::state::{CardKind, State};

/// Mineva aboard a Neo Zeon Gaza C on the ground map (she has just landed), Neo Zeon's
/// Atmosphere phase.
fn mineva_landed() -> State {
    let mut st = state();
    put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "ground:C02");
    st.chars.get_mut("mineva").unwrap().place = CharPlace::Aboard("n-gaza-c-1".into());
    phase(&mut st, Side::NeoZeon, CardKind::Atmosphere);
    st
}

fn africa_ids(st: &State) -> Vec<String> {
    st.units
        .iter()
        .filter(|(id, u)| u.placed_this_phase && id.as_str() != "n-gaza-c-1")
        .map(|(id, _)| id.clone())
        .collect()
}

#[test]
fn rule_32_2_2_zeon_africa_appears_at_once_even_without_a_named_hex() {
    for named in [None, Some(loc("space:L06"))] {
        let orders = PhaseOrders {
            africa_hex: named,
            ..Default::default()
        };
        let mut ctx = Ctx::new(mineva_landed(), None, Moment::Resolve);
        after_moves(&mut ctx, &orders);
        assert!(ctx.state.once.africa_placed);
        let hexes = africa_hexes(&ctx);
        let ids = africa_ids(&ctx.state);
        assert_eq!(ids.len(), ctx.data.counters.formations.zeon_africa.len());
        // An unusable hex falls back to the first of Kilimanjaro's.
        for id in &ids {
            assert_eq!(ctx.state.units[id].place, Place::Hex(hexes[0]));
        }
    }
}

#[test]
fn rule_32_2_4_zeon_africa_has_chosen_to_move_and_may_fight_where_it_appears() {
    let mut ctx = Ctx::new(mineva_landed(), None, Moment::Resolve);
    after_moves(&mut ctx, &PhaseOrders::default());
    let ids = africa_ids(&ctx.state);
    let at = ctx.state.units[&ids[0]].place.loc().unwrap();
    for id in &ids {
        assert_eq!(ctx.state.units[id].action, Some(Action::Move), "{id}");
    }
    // An AEUG unit there: Neo Zeon may declare the combat on its Atmosphere card.
    put(&mut ctx.state, "a-gm2-9", Side::Aeug, "gm2", &at.label());
    let order = CombatOrder {
        at,
        versus: vec![Side::Aeug],
        guard: None,
        prep: None,
        prep_if: Vec::new(),
        bomb: Wish::Auto,
        bombard: Wish::Auto,
    };
    assert_eq!(
        legal_combat(&ctx, Side::NeoZeon, &order, &FieldPath::root()),
        Ok(())
    );
}

#[test]
fn rule_32_1_5_the_republic_forces_do_not_act_in_their_placement_phase() {
    let mut st = state();
    put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "space:L06");
    st.chars.get_mut("haman").unwrap().place = CharPlace::Aboard("n-gaza-c-1".into());
    phase(&mut st, Side::NeoZeon, CardKind::Space);
    let mut ctx = Ctx::new(st, None, Moment::Resolve);
    after_moves(&mut ctx, &PhaseOrders::default());
    let republic: Vec<String> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.placed_this_phase)
        .map(|(id, _)| id.clone())
        .collect();
    assert!(!republic.is_empty());
    for id in &republic {
        assert_eq!(ctx.state.units[id].action, None, "{id}: no mover (A-82)");
    }
    let mut c = Ctx::new(ctx.state.clone(), None, Moment::Check);
    let orders = PhaseOrders {
        units: vec![UnitOrder {
            unit: republic[0].clone(),
            path: Some(vec![loc("space:L05")]),
            carry: Vec::new(),
            recover: None,
            govern: None,
        }],
        ..Default::default()
    };
    let problems = record_actions(&mut c, Side::NeoZeon, &orders, &FieldPath::root());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].rule.as_deref(), Some("32.1.5"));
}

#[test]
fn rule_32_1_6_once_neo_zeon_governed_side_3_the_others_may_enter() {
    let mut st = state();
    let side3 = st.data.base_hex(SIDE_3).unwrap();
    let ctx0 = Ctx::new(st.clone(), None, Moment::Check);
    let earth = ctx0.data.map.space.earth;
    let from = ctx0
        .data
        .neighbours(side3)
        .into_iter()
        .find(|l| l.at != earth)
        .unwrap();
    put(
        &mut st,
        "t-alexandria-9",
        Side::Titans,
        "alexandria",
        &from.label(),
    );
    phase(&mut st, Side::Titans, CardKind::Space);
    let item = UnitOrder {
        unit: "t-alexandria-9".into(),
        path: Some(vec![side3]),
        carry: Vec::new(),
        recover: None,
        govern: None,
    };
    let at = FieldPath::root();
    let closed = legal_move(
        &Ctx::new(st.clone(), None, Moment::Check),
        Side::Titans,
        &item,
        &at,
    );
    assert_eq!(closed.unwrap_err().rule.as_deref(), Some("32.1.2"));
    // Neo Zeon governed it once, and has lost it since: it stays open.
    let b = st.bases.get_mut(SIDE_3).unwrap();
    b.governed_by_nz_once = true;
    b.governor = None;
    b.level = 0;
    let open = legal_move(&Ctx::new(st, None, Moment::Check), Side::Titans, &item, &at);
    assert!(open.is_ok(), "{open:?}");
}
