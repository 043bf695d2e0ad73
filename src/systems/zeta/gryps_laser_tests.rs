//! The laser's effects (31.5.3, 31.5.6, 31.5.8-31.5.10) and when Gryps 2 moves (31.4.2), on the
//! real setup (38).

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::carry::fixture::{loc, phase, put};
use crate::systems::zeta::colony::COLONY;
use crate::systems::zeta::combat::{CombatOrder, Wish};
use crate::systems::zeta::state::{Action, Card, CharPlace, PhaseCursor, Slot, State};
use crate::systems::zeta::steps;

/// The real setup with Gryps 2 (Titans, level 2) in Green Noa's hex and a Titans Space phase
/// under way (as gryps.rs's own tests).
fn placed() -> State {
    let mut st = crate::systems::zeta::carry::fixture::state();
    let g = st.bases.get_mut(GRYPS_2).unwrap();
    g.place = Some(Place::Hex(loc("space:C02")));
    g.governor = Some(Side::Titans);
    g.level = 2;
    phase(&mut st, Side::Titans, CardKind::Space);
    st
}

fn laser_at(at: &str) -> PhaseOrders {
    PhaseOrders {
        laser: vec![LaserTarget {
            at: loc(at),
            guard: None,
        }],
        ..Default::default()
    }
}

fn dice(seed: u8) -> Dice {
    Dice::new(Hash32([seed; 32]), Hash32([0x4c; 32]))
}

/// Fires at `at` with `seed`: the state after, the public lines and the dice.
fn fire_at(st: State, at: &str, seed: u8) -> (State, Vec<String>, Dice) {
    let mut d = dice(seed);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    resolve_laser(&mut ctx, Side::Titans, &laser_at(at));
    let Ctx { state, log, .. } = ctx;
    (state, log.into_lines().0, d)
}

/// A hex next to Gryps 2's, in the laser's reach (31.5.4).
fn next_hex(st: &State) -> Loc {
    let ctx = Ctx::new(st.clone(), None, Moment::Check);
    let n = ctx.data.neighbours(loc("space:C02"));
    n.into_iter()
        .find(|l| bases_at(&ctx.state, &ctx.data, Place::Hex(*l)).is_empty())
        .unwrap()
}

#[test]
fn rule_31_5_3_the_laser_fires_after_every_combat_of_the_phase() {
    let mut st = placed();
    let hex = next_hex(&st);
    let h = hex.label();
    put(&mut st, "t-alexandria-9", Side::Titans, "alexandria", &h);
    put(&mut st, "t-hizack-9", Side::Titans, "hizack", &h);
    for id in ["t-alexandria-9", "t-hizack-9"] {
        st.units.get_mut(id).unwrap().action = Some(Action::Move);
    }
    st.units.get_mut("t-hizack-9").unwrap().carrier = Some("t-alexandria-9".into());
    put(&mut st, "a-salamis-kai-9", Side::Aeug, "salamis_kai", &h);
    put(&mut st, "a-gm2-9", Side::Aeug, "gm2", &h);
    st.units.get_mut("a-gm2-9").unwrap().carrier = Some("a-salamis-kai-9".into());
    let mut orders = laser_at(&h);
    orders.combats = vec![CombatOrder {
        at: hex,
        versus: vec![Side::Aeug],
        guard: None,
        prep: None,
        prep_if: Vec::new(),
        bomb: Wish::No,
        bombard: Wish::No,
    }];
    let cursor = PhaseCursor {
        k: 1,
        card: Card {
            side: Side::Titans,
            kind: CardKind::Space,
            copy: 1,
        },
        slot: Slot::Combats,
        snapshot: Default::default(),
        combats_done: Vec::new(),
        combat_orders_done: 0,
    };
    let mut d = dice(3);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    steps::run_from(&mut ctx, 1, cursor, &orders);
    drop(ctx);
    let labels: Vec<String> = d
        .transcript()
        .public
        .iter()
        .map(|r| r.label.clone())
        .collect();
    let last_combat = labels.iter().rposition(|l| l.contains("/c:"));
    let first_laser = labels.iter().position(|l| l.contains("/laser/"));
    assert!(last_combat.is_some() && first_laser.is_some(), "{labels:?}");
    assert!(last_combat < first_laser, "{labels:?}");
}

#[test]
fn rule_31_5_6_a_base_driven_below_zero_is_destroyed_for_good() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let mut st = placed();
        // Green Noa at level 1: a loss of 2 or 3 (a 1-3 at Gryps level 2) goes below zero.
        let b = st.bases.get_mut("green_noa").unwrap();
        b.governor = Some(Side::Aeug);
        b.level = 1;
        let (st, public, _) = fire_at(st, "space:C02", seed);
        let b = &st.bases["green_noa"];
        if !b.destroyed {
            assert_eq!((b.level, b.governor), (0, None), "seed {seed}: a loss of 1");
            continue;
        }
        seen = true;
        assert_eq!((b.level, b.governor), (0, None));
        assert!(
            public
                .iter()
                .any(|l| l.contains("destroyed for good (31.5.6)")),
            "{public:?}"
        );
    }
    assert!(seen);
}

#[test]
fn rule_31_5_8_a_unit_the_laser_removes_goes_to_its_factory_box() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let mut st = placed();
        let h = next_hex(&st).label();
        put(&mut st, "a-gm2-9", Side::Aeug, "gm2", &h);
        let before = st.sides[Side::Aeug]
            .factory
            .get("gm2")
            .copied()
            .unwrap_or(0);
        let (st, _, _) = fire_at(st, &h, seed);
        if st.units.contains_key("a-gm2-9") {
            continue;
        }
        seen = true;
        assert_eq!(
            st.sides[Side::Aeug].factory.get("gm2").copied(),
            Some(before + 1)
        );
    }
    assert!(seen);
}

#[test]
fn rule_31_5_9_a_character_of_a_removed_unit_rolls_survival_plus_1() {
    let mut seen = false;
    for seed in 1..=60u8 {
        let mut st = placed();
        let h = next_hex(&st).label();
        put(&mut st, "a-salamis-kai-9", Side::Aeug, "salamis_kai", &h);
        st.chars.get_mut("blex").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
        let (st, _, d) = fire_at(st, &h, seed);
        if st.units.contains_key("a-salamis-kai-9") {
            continue;
        }
        seen = true;
        let roll = d
            .transcript()
            .public
            .iter()
            .find(|r| r.label.ends_with("/laser/survival/blex"))
            .cloned()
            .unwrap();
        let die = roll.values[0];
        let table = &st.data.character("blex").unwrap().survival;
        let read = table[usize::try_from((die + 1).min(6) - 1).unwrap()];
        assert_eq!(roll.result, format!("{read:?}"), "seed {seed}: die {die}");
    }
    assert!(seen);
}

#[test]
fn rule_31_5_10_the_colony_in_the_target_hex_is_removed_without_a_roll() {
    let mut st = placed();
    let h = next_hex(&st).label();
    put(&mut st, COLONY, Side::NeoZeon, COLONY, &h);
    st.colony.in_use_by = Some(Side::NeoZeon);
    st.colony.used.insert(Side::NeoZeon);
    let (st, _, d) = fire_at(st, &h, 1);
    assert!(!st.units.contains_key(COLONY));
    assert!(
        d.transcript()
            .public
            .iter()
            .all(|r| !r.label.ends_with(&format!("/laser/{COLONY}")))
    );
}

#[test]
fn rule_31_4_2_gryps_2_moves_only_on_its_governors_space_card() {
    let to = GrypsOrder {
        to: Some(next_hex(&placed())),
    };
    let at = FieldPath::root().at("gryps");
    let ctx = Ctx::new(placed(), None, Moment::Check);
    assert!(legal_gryps_move(&ctx, Side::Titans, &to, &at).is_ok());
    for (side, kind) in [
        (Side::Titans, CardKind::Ground),
        (Side::Titans, CardKind::Atmosphere),
        (Side::Aeug, CardKind::Space),
    ] {
        let mut st = placed();
        phase(&mut st, side, kind);
        let ctx = Ctx::new(st, None, Moment::Check);
        let p = legal_gryps_move(&ctx, Side::Titans, &to, &at).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("31.4.2"));
        assert_eq!(
            p.message,
            "Gryps 2 moves only in a phase of its governor's own Space card"
        );
    }
}
