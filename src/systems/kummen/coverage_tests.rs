//! Rule tests written for the coverage table of docs/kummen.md ("Rule coverage"): one behaviour
//! per test, named with its rule number. The dice are fixed by the state (values that make a hit
//! certain or impossible) or by choosing a seed (`seed_where`), so each test asserts the rule's
//! outcome, not luck.

use super::combat::{CombatPhase, Retreated, retreat_hexes};
use super::data::{self, BaseAttack, Class, Control, Side};
use super::fixtures::*;
use super::movement::{self, Allowance, MovementPhase, MoverKind};
use super::orders::{
    HeliMove, HeliTrigger, MoveOrder, Orders, RetreatWhen, SurveyOrder, TriggerPhase,
};
use super::state::{Log, Modifiers, Place, Stage, State, Step};
use super::{Kummen, control, end, reaction, reinforce, setup, steps, survey, view};
use crate::kit::seats::Seat;
use crate::protocol::dice::{Dice, Roll};
use crate::protocol::hash::Hash32;
use crate::systems::{DataSource, Problem, Reader, Rules};
use crate::yaml::{self, FieldPath};
use std::collections::BTreeMap;

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn finished(d: Dice) -> Vec<Roll> {
    match d.finish() {
        Ok(t) => t.public,
        Err(e) => panic!("dice defects: {e:?}"),
    }
}

fn rolled(rolls: &[Roll], label: &str) -> Option<u32> {
    rolls
        .iter()
        .find(|r| r.label == label)
        .map(|r| r.values.iter().sum())
}

fn has(events: &[String], text: &str) -> bool {
    events.iter().any(|e| e.contains(text))
}

/// Index of the first event containing `text`.
fn at(events: &[String], text: &str) -> usize {
    events
        .iter()
        .position(|e| e.contains(text))
        .unwrap_or_else(|| panic!("no event with {text:?}: {events:#?}"))
}

fn place(s: &State, id: &str) -> Place {
    s.unit(id).unwrap().place
}

/// Both sides fight on whatever happens (forced retreats still apply).
fn never(s: &mut State) {
    s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
    s.policies[Side::Beeler].retreat = RetreatWhen::Never;
}

/// Runs one combat phase; returns its public events and dice.
fn fight(s: &mut State, seed: Hash32, tag: &str, pp: Side) -> (Vec<String>, Vec<Roll>) {
    let mut d = Dice::new(seed, KEY);
    let mut log = Log::default();
    CombatPhase {
        state: s,
        dice: &mut d,
        log: &mut log,
        phase_player: pp,
        tag: tag.into(),
    }
    .run();
    (log.public, finished(d))
}

/// Resolves the current step with these orders (the other sides send none).
fn resolve(s: &State, orders: &[(Side, Orders)], seed: Hash32) -> (State, Vec<String>, Vec<Roll>) {
    let map: BTreeMap<String, Orders> = orders
        .iter()
        .map(|(side, o)| (side.name().to_string(), o.clone()))
        .collect();
    let mut d = Dice::new(seed, KEY);
    let r = steps::resolve(s, &map, &mut d).unwrap();
    (r.state, r.public, finished(d))
}

fn orders(text: &str) -> Orders {
    yaml::parse(text, "test orders").unwrap_or_else(|e| panic!("{e}"))
}

/// A ground move in a movement phase without dice; returns the problems.
fn mv(s: &mut State, side: Side, unit: &str, path: &[&str]) -> Vec<Problem> {
    let mut log = Log::default();
    let mut ph = MovementPhase::new(s, side, None, &mut log, "p2");
    let m = MoveOrder {
        unit: unit.into(),
        path: path.iter().map(|x| h(x)).collect(),
    };
    ph.ground_move(
        &m,
        &FieldPath::root().at("m"),
        Allowance::Normal(movement::GROUND_MP),
    );
    ph.problems
}

fn react(s: &mut State, reveal: &[&str], moves: &[(&str, &[&str])]) -> (Vec<Problem>, Log) {
    let moves: Vec<MoveOrder> = moves
        .iter()
        .map(|(u, p)| MoveOrder {
            unit: u.to_string(),
            path: p.iter().map(|x| h(x)).collect(),
        })
        .collect();
    let mut log = Log::default();
    let p = reaction::beeler_reaction(s, &ids(reveal), &moves, None, &mut log);
    (p, log)
}

fn survey_order(hex: &str) -> SurveyOrder {
    SurveyOrder {
        hex: h(hex),
        units: None,
        targets: vec![],
        stop_after: None,
    }
}

fn survey_with(s: &mut State, hex: &str, seed: Hash32) -> Vec<String> {
    let (plans, p) = survey::plan(s, &[survey_order(hex)]);
    assert!(p.is_empty(), "{p:?}");
    let mut d = Dice::new(seed, KEY);
    let mut log = Log::default();
    survey::run(s, &plans, &mut d, &mut log);
    finished(d);
    log.public
}

fn trigger(hex: &str, phase: TriggerPhase) -> HeliTrigger {
    HeliTrigger {
        when_beeler_in: vec![h(hex)],
        phase,
        ..HeliTrigger::default()
    }
}

fn reinforcement(s: &mut State, seed: Hash32) -> Vec<String> {
    let mut d = Dice::new(seed, KEY);
    let mut log = Log::default();
    reinforce::reinforcement_phase(s, &mut d, &mut log);
    finished(d);
    log.public
}

// ---- 1, 2: introduction and definitions ----------------------------------------------------

#[test]
fn two_players_command_the_mercenary_and_the_beeler_side_1_2() {
    assert_eq!(
        crate::systems::System::sides(&Kummen),
        ["mercenary", "beeler"]
    );
}

#[test]
fn a_2d_roll_is_the_sum_of_two_six_sided_dice_2_1_2() {
    let mut s = blank();
    never(&mut s);
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "B-AT01", "J07", true);
    let (log, rolls) = fight(&mut s, seed(1), "t1/p4", Side::Beeler);
    let r = rolls
        .iter()
        .find(|r| r.label == "t1/p4/combat/J07/r1/atk/M-AT01")
        .unwrap();
    assert_eq!((r.values.len(), r.faces), (2, 6));
    let sum: u32 = r.values.iter().sum();
    assert!(has(
        &log,
        &format!("r1: M-AT01 (9) at B-AT01 (4): need 2D <= 5, rolled {sum}:")
    ));
}

#[test]
fn only_the_mercenary_side_has_helis_2_2_1() {
    let (_, c) = data::load(&DataSource::default()).unwrap();
    assert!(
        c.units
            .keys()
            .filter(|id| c.class(id) == Some(Class::Heli))
            .all(|id| c.side(id) == Some(Side::Mercenary))
    );
    let bad = data::COUNTERS.builtin.replace(
        "{side: mercenary, class: heli",
        "{side: beeler, class: heli",
    );
    assert_ne!(bad, data::COUNTERS.builtin);
    let err = data::load(&DataSource::with(&data::COUNTERS, bad)).unwrap_err();
    assert!(
        err.contains("only the mercenary side has helis (2.2.1)"),
        "{err}"
    );
}

#[test]
fn named_units_are_ats_and_blue_at_strike_dog_proto_one_are_the_ps_2_2_2() {
    let mut s = blank();
    for id in ["M-KANYU", "M-KIRIKO", "B-BLUE", "B-SD", "B-PROTO"] {
        assert_eq!(s.class_of(id), Some(Class::At), "{id}");
    }
    let ps: Vec<&str> = ["M-KANYU", "M-KIRIKO", "B-BLUE", "B-SD", "B-PROTO", "B-AT01"]
        .into_iter()
        .filter(|id| s.counters.is_ps(id))
        .collect();
    assert_eq!(ps, ["B-BLUE", "B-SD", "B-PROTO"]);
    // Treated as an AT: Kan-Yu surveys like one (8.4: 1-3), so a 4 fails.
    s.turn = 3;
    put(&mut s, "M-KANYU", "K07", true);
    put(&mut s, "B-SO01", "K07", false);
    let log = survey_with(
        &mut s,
        "K07",
        seed_where(&[("t3/p6/survey/K07/M-KANYU", 1, 4..=4)]),
    );
    assert!(has(&log, "M-KANYU surveys K07: 1D = 4, needs 1-3: failure"));
    assert!(!s.unit("B-SO01").unwrap().face_up);
}

#[test]
fn kan_yu_is_12_6_in_stages_1_3_4_and_11_5_in_the_others_2_2_5() {
    let mut s = blank();
    for (stage, want) in [
        (Stage::Initial, (11, 5)),
        (Stage::Stage1, (12, 6)),
        (Stage::Stage2, (11, 5)),
        (Stage::Stage3, (12, 6)),
        (Stage::Stage4, (12, 6)),
        (Stage::Stage5, (11, 5)),
        (Stage::Stage6, (11, 5)),
        (Stage::Stage7, (11, 5)),
        (Stage::Stage8, (11, 5)),
    ] {
        s.stage = stage;
        let v = s.values("M-KANYU");
        assert_eq!((v.attack, v.defense), want, "{stage:?}");
    }
}

#[test]
fn every_view_shows_the_flipped_turn_marker_and_the_stage_it_announces_2_2_6() {
    let mut s = blank();
    s.step = Step::B1;
    s.next_stage = Some(Stage::Stage1);
    for reader in [
        Reader::Public,
        Reader::Side("beeler".into()),
        Reader::Side("mercenary".into()),
    ] {
        let v = view::view(&s, &reader);
        assert_eq!(v.next_stage, Some(Stage::Stage1));
        assert!(view::render(&v).contains("turn marker flipped: stage 1 (Encounter) next turn"));
    }
}

// ---- 2.3: control ---------------------------------------------------------------------------

#[test]
fn base_control_is_settled_after_the_combats_of_the_phase_2_3_1() {
    let mut s = blank();
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "M-AT01", "K07", true); // EX-6, a beeler base
    put(&mut s, "B-SO01", "K07", true);
    assert_eq!(control::evaluate(&s, h("K07")), None);
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(at(&log, "B-SO01 destroyed") < at(&log, "control: EX-6"));
    assert_eq!(s.control_of(h("K07")), Control::Mercenary);
}

#[test]
fn the_supply_river_hexes_get_no_control_marker_2_3_2() {
    let mut s = blank();
    put(&mut s, "B-SO01", "C08", false);
    fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(!s.control.contains_key(&h("C08")));
    // Their control is worked out when the reinforcement phase needs it (4.4.2).
    assert_eq!(control::supply_hex(&s, h("C08")), Control::Beeler);
}

// ---- 3: sequence ----------------------------------------------------------------------------

#[test]
fn a_turn_runs_its_eight_phases_in_order_3_1() {
    let mut s = blank();
    s.step = Step::B1;
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "M-AT01", "B10", true);
    let b1 = orders("actions:\n  - move: {unit: B-AT01, path: [J06]}\n");
    let m1 = orders("actions:\n  - move: {unit: M-AT01, path: [B11]}\n");
    let (s, mut all, _) = resolve(&s, &[(Side::Beeler, b1)], seed(1));
    let (s, e, _) = resolve(&s, &[(Side::Mercenary, m1)], seed(2));
    all.extend(e);
    let (s, e, _) = resolve(&s, &[], seed(3));
    all.extend(e);
    assert_eq!((s.turn, s.step), (2, Step::B1));
    let order = [
        "t1/p2: B-AT01 moves",
        "t1/p3:",
        "t1/p4: combat phase",
        "t1/p5: M-AT01 moves",
        "t1/p6:",
        "t1/p7a:",
        "t1/p7b:",
        "t1/p8: combat phase",
        "turn 2 begins",
        "reinforcement: beeler",
    ];
    let idx: Vec<usize> = order.iter().map(|t| at(&all, t)).collect();
    assert!(idx.windows(2).all(|w| w[0] < w[1]), "{idx:?}: {all:#?}");
}

// ---- 4: reinforcement -----------------------------------------------------------------------

#[test]
fn the_beeler_side_reinforces_before_the_mercenary_side_4_1() {
    let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    let log = reinforcement(&mut s, seed(0));
    assert!(at(&log, "reinforcement: beeler") < at(&log, "reinforcement: mercenary"));
}

#[test]
fn no_more_units_come_once_a_cup_is_empty_4_2() {
    let mut s = blank();
    s.set_off_map("B-AT01", Place::Cup, false);
    s.set_off_map("B-AT02", Place::Cup, false);
    reinforcement(&mut s, seed(0));
    // 9 BP: the two units left, then the rest as RP (A55), capped at 9 (4.3.5).
    assert_eq!(s.side_units_in(h("O06"), Side::Beeler).len(), 2);
    assert_eq!(s.rp, 9);
    // The mercenary cup is empty: whatever the Cup die says, no unit arrives.
    assert!(
        s.side_units_in(h("B08"), Side::Mercenary)
            .iter()
            .all(|id| s.is_heli(id))
    );
}

#[test]
fn base_points_are_the_sum_over_the_bases_a_side_controls_4_3_1() {
    let mut s = blank();
    // Palace 3, Ramo 2, EX-6 2, EX-7 1, Zomm 1 (stand-in map).
    assert_eq!(reinforce::base_points(&s, Side::Beeler), 9);
    s.control.insert(h("K07"), Control::Mercenary);
    assert_eq!(reinforce::base_points(&s, Side::Beeler), 7);
    assert_eq!(reinforce::base_points(&s, Side::Mercenary), 8);
    s.control.insert(h("H08"), Control::Beeler); // Nuba, 2 BP
    assert_eq!(reinforce::base_points(&s, Side::Beeler), 9);
}

#[test]
fn base_points_not_spent_are_lost_4_3_3() {
    let mut s = blank();
    s.rp = 9;
    reinforcement(&mut s, seed(0));
    // Nothing to draw and the RP track full: the 9 BP buy nothing.
    assert_eq!(s.rp, 9);
    assert!(s.side_units_in(h("O06"), Side::Beeler).is_empty());
    // Next turn, with a full cup, only that turn's 9 BP are spent: nothing was carried over.
    for k in 1..=14 {
        s.set_off_map(&format!("B-AT{k:02}"), Place::Cup, false);
    }
    s.turn = 2;
    reinforcement(&mut s, seed(1));
    assert_eq!(s.side_units_in(h("O06"), Side::Beeler).len(), 9);
}

#[test]
fn acted_helis_in_ex10_become_active_in_the_mercenary_reinforcement_4_4_1() {
    let mut s = blank();
    for (heli, hex) in [("M-H01", "B08"), ("M-H02", "C09")] {
        s.set_hex(heli, h(hex));
        s.units.get_mut(heli).unwrap().face_up = false;
    }
    let log = reinforcement(&mut s, seed(0));
    assert!(s.unit("M-H01").unwrap().face_up);
    assert!(!s.unit("M-H02").unwrap().face_up, "only helis in EX-10");
    assert!(has(&log, "helis M-H01 at EX-10 are active again (4.4.1)"));
}

#[test]
fn the_mercenary_side_scores_1_vp_per_2_bp_rounded_down_4_4_4() {
    let mut s = blank();
    s.control.insert(h("G10"), Control::Beeler); // EX-9 lost: EX-10 3 + Zakui 2 = 5 BP
    reinforcement(&mut s, seed(0));
    assert_eq!(s.vp[Side::Mercenary], 2);
}

#[test]
fn the_offensive_marker_is_drawn_in_phase_1_of_turn_7_and_no_other_4_5_1() {
    for turn in [1, 6, 8] {
        let mut s = blank();
        s.turn = turn;
        let mut d = Dice::new(seed(0), KEY);
        let mut log = Log::default();
        steps::next_turn(&mut s, &mut d, &mut log);
        assert_eq!(s.offensive_turn, None, "turn {turn}");
        assert!(d.finish().unwrap().sealed.is_empty());
    }
    let mut s = blank();
    s.turn = 7;
    let mut d = Dice::new(seed(0), KEY);
    let mut log = Log::default();
    steps::next_turn(&mut s, &mut d, &mut log);
    assert!(s.offensive_turn.is_some());
    assert!(at(&log.public, "reinforcement: mercenary") < at(&log.public, "(4.5.2)"));
}

// ---- 5: movement ----------------------------------------------------------------------------

#[test]
fn a_side_moves_only_its_own_units_and_need_not_move_any_5_1() {
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    let p = mv(&mut s, Side::Mercenary, "B-AT01", &["J06"]);
    assert_eq!(p[0].rule.as_deref(), Some("5.1"));
    assert_eq!(s.hex_of("B-AT01"), Some(h("J07")));
    s.step = Step::B1;
    assert!(steps::check(&s, "beeler", &Orders::default()).is_empty());
}

#[test]
fn a_face_down_unit_may_be_flipped_face_up_at_any_point_of_its_sides_move_5_2() {
    let mut s = blank();
    s.step = Step::B1;
    put(&mut s, "B-AT01", "J07", false); // B#1
    let o = orders("actions:\n  - move: {unit: 'B#1', path: [J06]}\n  - flip_up: B-AT01\n");
    assert!(steps::check(&s, "beeler", &o).is_empty());
    let (after, events, _) = resolve(&s, &[(Side::Beeler, o)], seed(0));
    assert!(after.unit("B-AT01").unwrap().face_up);
    assert!(has(&events, "B#1 in J06 is B-AT01 (flipped face-up, 5.2)"));
}

#[test]
fn helis_are_never_flipped_face_down_5_2() {
    let mut s = blank();
    put(&mut s, "M-H01", "B08", true);
    let mut log = Log::default();
    let mut ph = MovementPhase::new(&mut s, Side::Mercenary, None, &mut log, "p5");
    ph.hide_at_home(&ids(&["M-H01"]), &FieldPath::root().at("hide"), 0);
    assert_eq!(ph.problems[0].rule.as_deref(), Some("5.2"));
    assert!(s.unit("M-H01").unwrap().face_up);
}

#[test]
fn face_up_and_face_down_units_move_alike_5_5() {
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "B-AT02", "J07", false);
    let path = [h("J06"), h("J05")];
    let cost = |s: &State, id: &str| {
        movement::cost_path(
            s,
            MoverKind::Beeler,
            Side::Beeler,
            id,
            h("J07"),
            &path,
            Allowance::Normal(movement::GROUND_MP),
            &FieldPath::root(),
        )
        .ok()
    };
    assert_eq!(cost(&s, "B-AT01"), Some(3));
    assert_eq!(cost(&s, "B-AT02"), Some(3));
    assert!(mv(&mut s, Side::Beeler, "B-AT01", &["J06", "J05"]).is_empty());
    assert!(mv(&mut s, Side::Beeler, "B-AT02", &["J06", "J05"]).is_empty());
    assert_eq!(s.hex_of("B-AT02"), Some(h("J05")));
}

#[test]
fn leaving_an_enemy_hex_costs_nothing_extra_even_straight_into_another_5_8() {
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "M-AT02", "I07", false);
    // 1 for clear I07 and 1 for its enemy unit (5.7); nothing for leaving J07.
    let cost = movement::cost_path(
        &s,
        MoverKind::Beeler,
        Side::Beeler,
        "B-AT01",
        h("J07"),
        &[h("I07")],
        Allowance::Normal(movement::GROUND_MP),
        &FieldPath::root(),
    );
    assert_eq!(cost.ok(), Some(2));
    assert!(mv(&mut s, Side::Beeler, "B-AT01", &["I07"]).is_empty());
    assert_eq!(s.hex_of("B-AT01"), Some(h("I07")));
}

#[test]
fn an_acted_heli_cannot_move_5_11_2() {
    let mut s = blank();
    s.set_hex("M-H01", h("B08"));
    s.units.get_mut("M-H01").unwrap().face_up = false;
    let mut log = Log::default();
    let mut ph = MovementPhase::new(&mut s, Side::Mercenary, None, &mut log, "p5");
    let hm = HeliMove {
        heli: "M-H01".into(),
        path: vec![h("C08")],
        cargo: None,
    };
    assert!(!ph.heli_move(&hm, &FieldPath::root().at("heli")));
    assert_eq!(ph.problems[0].rule.as_deref(), Some("5.11.2"));
}

#[test]
fn a_heli_pays_1_mp_whatever_the_terrain_5_11_3() {
    let s = blank();
    let c =
        |a: &str, b: &str| movement::step_cost(&s, MoverKind::Heli, Side::Mercenary, h(a), h(b));
    assert_eq!(c("C09", "C10"), 1); // forest
    assert_eq!(c("H07", "H08"), 1); // highland
    assert_eq!(c("C09", "C08"), 1); // river, not along it
    assert_eq!(c("J08", "J07"), 1); // clear
}

#[test]
fn a_heli_entering_a_hex_with_any_enemy_unit_pays_1_more_and_stops_5_11_4() {
    let mut s = blank();
    put(&mut s, "M-H01", "B08", true);
    put(&mut s, "B-SO01", "C08", false);
    assert_eq!(
        movement::step_cost(&s, MoverKind::Heli, Side::Mercenary, h("B08"), h("C08")),
        2
    );
    let mut log = Log::default();
    let mut ph = MovementPhase::new(&mut s, Side::Mercenary, None, &mut log, "p5");
    let hm = HeliMove {
        heli: "M-H01".into(),
        path: vec![h("C08"), h("D07")],
        cargo: None,
    };
    assert!(!ph.heli_move(&hm, &FieldPath::root().at("heli")));
    assert_eq!(ph.problems[0].rule.as_deref(), Some("5.11.4"));
    assert_eq!(ph.problems[0].path.to_string(), "heli.path[1]");
}

// ---- 6: stacks ------------------------------------------------------------------------------

#[test]
fn any_number_of_units_of_both_sides_may_share_a_hex_6_2() {
    let mut s = blank();
    for k in 1..=18 {
        put(&mut s, &format!("M-AT{k:02}"), "J08", k % 2 == 0);
    }
    for k in 1..=20 {
        put(&mut s, &format!("B-SO{k:02}"), "J08", false);
    }
    put(&mut s, "M-KANYU", "J07", true);
    assert!(mv(&mut s, Side::Mercenary, "M-KANYU", &["J08"]).is_empty());
    assert_eq!(s.units_in(h("J08")).len(), 39);
}

#[test]
fn the_opponent_sees_a_stacks_face_up_units_and_tokens_never_a_hidden_identity_6_3() {
    let mut s = blank();
    s.step = Step::B1;
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "M-AT02", "J07", false);
    put(&mut s, "M-SO01", "J07", false);
    let v = view::view(&s, &Reader::Side("beeler".into()));
    let hex = v.hexes.iter().find(|x| x.hex == h("J07")).unwrap();
    let shown: Vec<(Option<String>, Option<String>, Option<String>)> = hex
        .units
        .iter()
        .map(|u| (u.id.clone(), u.token.clone(), u.values.clone()))
        .collect();
    assert_eq!(
        shown,
        vec![
            (Some("M-AT01".into()), None, Some("9-4".into())),
            (None, Some("M#1".into()), None),
            (None, Some("M#2".into()), None),
        ]
    );
    assert!(!s.unit("M-AT02").unwrap().face_up);
}

// ---- 7: reaction ----------------------------------------------------------------------------

#[test]
fn a_reaction_move_follows_the_normal_stop_rule_7_1() {
    let mut s = blank();
    s.rp = 2;
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "M-AT01", "I07", false);
    let (p, _) = react(&mut s, &[], &[("B-AT01", &["I07", "H07"])]);
    assert_eq!(p[0].rule.as_deref(), Some("5.9.2"));
    assert_eq!((s.hex_of("B-AT01"), s.rp), (Some(h("J07")), 2));
}

#[test]
fn mercenary_helis_react_again_after_the_beeler_reaction_is_complete_7_2_1() {
    let mut s = blank();
    s.step = Step::B2;
    s.rp = 1;
    put(&mut s, "M-H01", "B08", true);
    put(&mut s, "B-AT01", "G09", true);
    s.policies[Side::Mercenary].heli_triggers = vec![trigger("F09", TriggerPhase::Second)];
    let o = orders("react: [{unit: B-AT01, path: [F09]}]\n");
    assert!(steps::check(&s, "beeler", &o).is_empty());
    let (_, events, _) = resolve(&s, &[(Side::Beeler, o)], seed(0));
    assert!(at(&events, "t1/p7a: B-AT01 moves G09→F09") < at(&events, "t1/p7b: heli M-H01 flies"));
}

#[test]
fn only_active_helis_in_ex10_react_7_2_2() {
    let mut s = blank();
    s.set_hex("M-H01", h("C09")); // active, but away from EX-10
    s.set_hex("M-H02", h("B08"));
    s.units.get_mut("M-H02").unwrap().face_up = false; // acted
    put(&mut s, "B-SO01", "E07", false);
    s.policies[Side::Mercenary].heli_triggers = vec![trigger("E07", TriggerPhase::Both)];
    let mut log = Log::default();
    reaction::heli_reaction(&mut s, &mut log, false);
    assert_eq!(s.hex_of("M-H01"), Some(h("C09")));
    assert_eq!(s.hex_of("M-H02"), Some(h("B08")));
    assert!(has(&log.public, "no heli left at EX-10"));
    s.set_hex("M-H03", h("B08"));
    reaction::heli_reaction(&mut s, &mut log, true);
    assert_eq!(s.hex_of("M-H03"), Some(h("E07")));
}

#[test]
fn the_beeler_side_reacts_only_in_the_second_reaction_phase_7_3_1() {
    let mut s = blank();
    s.rp = 3;
    put(&mut s, "B-AT01", "J07", true);
    let o = orders("react: [{unit: B-AT01, path: [J06]}]\n");
    s.step = Step::B1;
    let p = steps::check(&s, "beeler", &o);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].path.to_string(), "orders.react");
    s.step = Step::B2;
    assert!(steps::check(&s, "beeler", &o).is_empty());
}

#[test]
fn a_face_down_unit_reacts_only_once_revealed_before_the_moves_7_3_2() {
    let mut s = blank();
    s.rp = 2;
    put(&mut s, "B-AT01", "J07", false); // B#1
    let (p, _) = react(&mut s.clone(), &[], &[("B-AT01", &["J06"])]);
    assert_eq!(p[0].rule.as_deref(), Some("7.3.3"));
    let (p, log) = react(&mut s, &["B#1"], &[("B-AT01", &["J06"])]);
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(s.hex_of("B-AT01"), Some(h("J06")));
    assert!(at(&log.public, "(flipped face-up, 7.3.2)") < at(&log.public, "B-AT01 moves"));
}

#[test]
fn each_reaction_move_costs_1_rp_and_none_is_made_without_rp_7_3_3() {
    let mut s = blank();
    s.rp = 1;
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "B-AT02", "J07", true);
    let (p, _) = react(&mut s, &[], &[("B-AT01", &["J06"]), ("B-AT02", &["J06"])]);
    assert_eq!(s.rp, 0);
    assert_eq!(s.hex_of("B-AT01"), Some(h("J06")));
    assert_eq!(s.hex_of("B-AT02"), Some(h("J07")));
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].rule.as_deref(), Some("7.3.3"));
}

#[test]
fn a_reaction_move_of_one_adjacent_hex_may_cost_4_7_3_6() {
    let mut s = blank();
    s.rp = 1;
    put(&mut s, "B-AT01", "J08", true);
    put(&mut s, "M-AT01", "K08", false); // forest 3, +1 for the enemy unit
    assert_eq!(
        movement::step_cost(&s, MoverKind::Beeler, Side::Beeler, h("J08"), h("K08")),
        4
    );
    let (p, _) = react(&mut s, &[], &[("B-AT01", &["K08"])]);
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(s.hex_of("B-AT01"), Some(h("K08")));
}

// ---- 8: survey ------------------------------------------------------------------------------

#[test]
fn a_hex_may_be_surveyed_with_face_up_beeler_units_there_too_8_3() {
    let mut s = blank();
    put(&mut s, "M-SO01", "K07", true);
    put(&mut s, "B-AT01", "K07", true);
    put(&mut s, "B-SO01", "K07", false);
    let (plans, p) = survey::plan(&s, &[survey_order("K07")]);
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(plans[0].units, ids(&["M-SO01"]));
}

#[test]
fn a_soldier_surveys_on_1_to_5_and_an_at_on_1_to_3_8_4() {
    let mut s = blank();
    s.turn = 3;
    put(&mut s, "M-AT01", "K07", true);
    put(&mut s, "M-SO01", "K07", true);
    s.place_face_down(&ids(&["B-SO01", "B-SO02"]), h("K07"));
    let sd = seed_where(&[
        ("t3/p6/survey/K07/M-AT01", 1, 4..=4),
        ("t3/p6/survey/K07/M-SO01", 1, 4..=4),
    ]);
    let log = survey_with(&mut s, "K07", sd);
    assert!(has(
        &log,
        "M-AT01 surveys K07: 1D = 4, needs 1-3: failure (8.4)"
    ));
    assert!(has(
        &log,
        "M-SO01 surveys K07: 1D = 4, needs 1-5: success (8.4)"
    ));
    assert_eq!(s.face_down_in(h("K07"), Side::Beeler).len(), 1);
}

// ---- 9: combat ------------------------------------------------------------------------------

#[test]
fn enemy_units_in_a_base_with_a_base_attack_flip_every_unit_there_and_fight_9_3() {
    let mut s = blank();
    put(&mut s, "M-SO01", "G10", false); // EX-9, mercenary
    put(&mut s, "B-SO01", "G10", false);
    let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(has(&log, "M#1 in G10 is M-SO01 (9.3)"), "{log:#?}");
    assert!(has(&log, "B#1 in G10 is B-SO01 (9.3)"));
    assert!(has(
        &log,
        "t1/p4/combat/G10: mercenary M-SO01 vs beeler B-SO01"
    ));
}

#[test]
fn the_phase_player_chooses_the_order_of_the_combat_hexes_9_4() {
    let run = |beeler: &[&str], mercenary: &[&str]| {
        let mut s = blank();
        never(&mut s);
        for (m, b, hex) in [("M-AT01", "B-AT01", "E09"), ("M-AT02", "B-AT02", "J07")] {
            put(&mut s, m, hex, true);
            put(&mut s, b, hex, true);
        }
        s.policies[Side::Beeler].hex_order = beeler.iter().map(|x| h(x)).collect();
        s.policies[Side::Mercenary].hex_order = mercenary.iter().map(|x| h(x)).collect();
        fight(&mut s, seed(0), "t1/p4", Side::Beeler).0
    };
    let log = run(&[], &[]);
    assert!(at(&log, "t1/p4/combat/E09:") < at(&log, "t1/p4/combat/J07:"));
    // Phase 4: the beeler side's order counts, not the mercenary side's.
    let log = run(&["J07"], &["E09"]);
    assert!(at(&log, "t1/p4/combat/J07:") < at(&log, "t1/p4/combat/E09:"));
}

#[test]
fn face_down_units_and_acted_helis_take_no_part_in_a_combat_9_5() {
    let mut s = blank();
    never(&mut s);
    put(&mut s, "M-AT01", "J07", true);
    s.set_hex("M-H01", h("J07"));
    s.units.get_mut("M-H01").unwrap().face_up = false; // acted
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-AT01", "J07", false);
    let (log, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(
        has(&log, "t1/p4/combat/J07/r1: pairing [M-AT01 | B-SO01] (9.8)"),
        "{log:#?}"
    );
    let shooters: Vec<&str> = rolls
        .iter()
        .filter_map(|r| r.label.split("/atk/").nth(1))
        .collect();
    assert!(
        shooters.iter().all(|a| ["M-AT01", "B-SO01"].contains(a)),
        "{shooters:?}"
    );
}

#[test]
fn a_round_pairs_then_attacks_then_applies_damage_then_retreats_9_6() {
    let mut s = blank();
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-SO02", "J07", true);
    s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
    s.policies[Side::Beeler].retreat = RetreatWhen::AfterRound(1);
    let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    let steps = [
        "J07/r1: pairing",
        "J07/r1: M-AT01 (30) at",
        "destroyed, back into its cup",
        "the beeler side retreats",
    ];
    let idx: Vec<usize> = steps.iter().map(|t| at(&log, t)).collect();
    assert!(idx.windows(2).all(|w| w[0] < w[1]), "{log:#?}");
}

#[test]
fn an_attack_destroys_its_target_when_2d_is_at_most_attack_minus_defense_9_9_3() {
    for (roll, result) in [(5, "destroyed"), (6, "missed")] {
        let mut s = blank();
        never(&mut s);
        values(&mut s, "beeler_at", 0, 4);
        put(&mut s, "M-AT01", "J07", true);
        put(&mut s, "B-AT01", "J07", true);
        let sd = seed_where(&[("t1/p4/combat/J07/r1/atk/M-AT01", 2, roll..=roll)]);
        let (log, _) = fight(&mut s, sd, "t1/p4", Side::Beeler);
        assert!(has(
            &log,
            &format!("r1: M-AT01 (9) at B-AT01 (4): need 2D <= 5, rolled {roll}: {result}")
        ));
        assert_eq!(has(&log, "J07/r2: pairing"), result == "missed");
    }
}

#[test]
fn damage_is_simultaneous_so_two_units_can_destroy_each_other_9_10_1_9_9_4() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_at", 30, 4);
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "B-AT01", "J07", true);
    let (log, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(rolled(&rolls, "t1/p4/combat/J07/r1/atk/M-AT01").is_some());
    assert!(rolled(&rolls, "t1/p4/combat/J07/r1/atk/B-AT01").is_some());
    assert!(has(&log, "M-AT01 destroyed") && has(&log, "B-AT01 destroyed"));
    assert_eq!(
        (place(&s, "M-AT01"), place(&s, "B-AT01")),
        (Place::Cup, Place::Cup)
    );
}

#[test]
fn a_destroyed_heli_goes_back_to_stock_9_10_2() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "heli", 0, 3);
    values(&mut s, "beeler_at", 30, 4);
    put(&mut s, "M-H01", "J07", true);
    put(&mut s, "B-AT01", "J07", true);
    let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(has(&log, "M-H01 destroyed, to stock (9.10.2)"));
    assert_eq!(place(&s, "M-H01"), Place::Stock);
    assert!(
        view::view(&s, &Reader::Public)
            .stock
            .contains(&"M-H01".to_string())
    );
}

#[test]
fn beeler_with_only_ps_face_up_rolls_1d_and_must_retreat_on_1_to_3_9_11_4() {
    let t = "t1/p8/combat/J07";
    let atk = format!("{t}/r1/atk/M-AT01");
    let check = format!("{t}/r1/ps-check");
    for (die, forced) in [(1..=3, true), (4..=6, false)] {
        let mut s = blank();
        never(&mut s);
        values(&mut s, "blue_at", 0, 7);
        put(&mut s, "B-BLUE", "J07", true);
        put(&mut s, "M-AT01", "J07", true); // 9 - 7: hits only on a 2
        let sd = seed_where(&[(&atk, 2, 3..=12), (&check, 1, die)]);
        let (log, _) = fight(&mut s, sd, "t1/p8", Side::Mercenary);
        assert!(has(&log, "r1: only PS face-up: 1D ="), "{log:#?}");
        if forced {
            assert!(has(&log, "forced retreat (9.11.4)"));
            assert_ne!(s.hex_of("B-BLUE"), Some(h("J07")));
        } else {
            assert!(has(&log, "may continue (9.11.4)"));
            assert!(has(&log, "J07/r2: pairing"), "`retreat: never` fights on");
        }
    }
}

#[test]
fn a_hex_whose_face_up_enemies_have_gone_is_open_for_retreat_9_11_7() {
    let mut s = blank();
    values(&mut s, "merc_at", 0, 4);
    values(&mut s, "beeler_soldier", 30, 2);
    values(&mut s, "beeler_at", 0, 4);
    put(&mut s, "M-AT01", "K08", true); // fought first: M-AT01 falls
    put(&mut s, "B-SO01", "K08", true);
    put(&mut s, "M-AT02", "J07", true); // nobody can hit: the phase player retreats (A13)
    put(&mut s, "B-AT01", "J07", true);
    s.policies[Side::Beeler].hex_order = vec![h("K08")];
    s.policies[Side::Beeler].retreat_to.hexes = vec![h("K08")];
    assert!(!retreat_hexes(&s, Side::Beeler, h("J07")).contains(&h("K08")));
    let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(at(&log, "M-AT01 destroyed") < at(&log, "retreats B-AT01 to K08"));
    assert_eq!(s.hex_of("B-AT01"), Some(h("K08")));
}

#[test]
fn a_side_that_would_retreat_but_has_no_legal_hex_fights_on_9_11_8() {
    let mut s = blank();
    put(&mut s, "B-AT01", "P01", true);
    put(&mut s, "M-AT01", "P01", true);
    assert!(retreat_hexes(&s, Side::Beeler, h("P01")).is_empty());
    s.policies[Side::Beeler].retreat = RetreatWhen::AfterRound(1);
    s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
    let t = "t1/p4/combat/P01";
    let sd = seed_where(&[
        (&format!("{t}/r1/atk/M-AT01"), 2, 6..=12),
        (&format!("{t}/r1/atk/B-AT01"), 2, 6..=12),
    ]);
    let (log, _) = fight(&mut s, sd, "t1/p4", Side::Beeler);
    assert!(has(
        &log,
        "the beeler side would retreat but has no legal hex: it fights on (9.11.8)"
    ));
    assert!(has(&log, "P01/r2: pairing"));
}

#[test]
fn a_forced_retreat_with_no_legal_hex_flips_the_face_down_units_to_fight_9_11_8() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "B-SO01", "P01", true);
    put(&mut s, "B-AT01", "P01", false); // B#1
    put(&mut s, "M-AT01", "P01", true);
    let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(has(&log, "forced retreat (9.11.3)"));
    assert!(has(
        &log,
        "B#1 in P01 is B-AT01: no retreat hex, flipped face-up to fight on (9.11.8)"
    ));
}

#[test]
fn retreating_helis_go_straight_to_ex10_and_are_acted_9_11_9() {
    let mut s = blank();
    values(&mut s, "merc_at", 0, 4);
    values(&mut s, "heli", 0, 3);
    values(&mut s, "beeler_at", 0, 4);
    put(&mut s, "M-AT01", "J07", true);
    put(&mut s, "M-H01", "J07", true);
    put(&mut s, "B-AT01", "J07", true);
    // Nobody can hit: the phase player, mercenary in phase 8, retreats (A13).
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(has(
        &log,
        "helis M-H01 retreat straight to EX-10 and are acted (9.11.9)"
    ));
    assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
    assert!(!s.unit("M-H01").unwrap().face_up);
    assert!([h("I07"), h("I08"), h("J08")].contains(&s.hex_of("M-AT01").unwrap()));
}

#[test]
fn a_ps_forced_to_retreat_with_no_legal_hex_goes_back_to_the_palace_not_destroyed_9_11_12() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "blue_at", 0, 7);
    put(&mut s, "B-BLUE", "P01", true);
    put(&mut s, "M-AT01", "P01", true);
    let t = "t1/p8/combat/P01";
    let sd = seed_where(&[
        (&format!("{t}/r1/atk/M-AT01"), 2, 3..=12),
        (&format!("{t}/r1/ps-check"), 1, 1..=3),
    ]);
    let (log, _) = fight(&mut s, sd, "t1/p8", Side::Mercenary);
    assert!(has(
        &log,
        "B-BLUE cannot retreat and returns to the palace at the end of the phase (9.11.12)"
    ));
    assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
    assert!(s.unit("B-BLUE").unwrap().face_up);
    assert_eq!(s.vp[Side::Mercenary], 0, "not destroyed: no VP (10.2)");
}

#[test]
fn a_face_down_ps_forced_to_retreat_with_no_legal_hex_also_goes_back_to_the_palace_9_11_12() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "B-SO01", "P01", true);
    put(&mut s, "B-BLUE", "P01", false); // B#1
    put(&mut s, "M-AT01", "P01", true);
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(has(&log, "forced retreat (9.11.3)"));
    assert!(has(&log, "B#1 is B-BLUE, which cannot retreat"), "{log:#?}");
    assert!(!has(&log, "flipped face-up to fight on"));
    assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
    assert_eq!(s.vp[Side::Mercenary], 0);
}

#[test]
fn a_beeler_retreat_from_the_palace_leaves_proto_one_there_fighting_on_5_9_3_9_11_8() {
    let mut s = blank();
    s.stage = Stage::Stage7;
    values(&mut s, "merc_at", 10, 7); // out of the base attack's reach (7 - 7)
    values(&mut s, "beeler_at", 0, 8);
    values(&mut s, "proto_one", 9, 7);
    put(&mut s, "B-PROTO", "O06", true);
    put(&mut s, "B-AT01", "O06", true);
    put(&mut s, "M-AT01", "O06", true);
    s.policies[Side::Beeler].retreat = RetreatWhen::AfterRound(1);
    s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
    let t = "t7/p4/combat/O06";
    let sd = seed_where(&[
        (&format!("{t}/r1/atk/M-AT01"), 2, 3..=12),
        (&format!("{t}/r1/atk/B-PROTO"), 2, 3..=12),
        (&format!("{t}/r2/atk/M-AT01"), 2, 3..=12),
        (&format!("{t}/r2/atk/B-PROTO"), 2, 2..=2),
    ]);
    let (log, _) = fight(&mut s, sd, "t7/p4", Side::Beeler);
    // The others retreat (9.11.9); Proto One may not move (5.9.3) and fights on (9.11.8).
    assert!([h("O05"), h("P05"), h("P06")].contains(&s.hex_of("B-AT01").unwrap()));
    assert!(
        has(
            &log,
            "B-PROTO may not leave the palace (5.9.3): it stays and fights on (9.11.8)"
        ),
        "{log:#?}"
    );
    assert!(at(&log, "stays and fights on") < at(&log, "/r2: B-PROTO"));
    assert!(has(&log, "M-AT01 destroyed"), "{log:#?}");
    assert_eq!(s.hex_of("B-PROTO"), Some(h("O06")));
    assert_eq!(s.control_of(h("O06")), Control::Beeler);
}

#[test]
fn proto_one_forced_to_retreat_stays_in_the_palace_and_fights_on_5_9_3_9_11_8() {
    let mut s = blank();
    s.stage = Stage::Stage7;
    never(&mut s);
    values(&mut s, "merc_at", 10, 7);
    values(&mut s, "proto_one", 9, 8);
    put(&mut s, "B-PROTO", "O06", true);
    put(&mut s, "M-AT01", "O06", true);
    let t = "t7/p8/combat/O06";
    let sd = seed_where(&[
        (&format!("{t}/r1/atk/M-AT01"), 2, 3..=12),
        (&format!("{t}/r1/atk/B-PROTO"), 2, 3..=12),
        (&format!("{t}/r1/ps-check"), 1, 1..=3),
        (&format!("{t}/r2/atk/M-AT01"), 2, 3..=12),
        (&format!("{t}/r2/atk/B-PROTO"), 2, 2..=2),
    ]);
    let (log, _) = fight(&mut s, sd, "t7/p8", Side::Mercenary);
    assert!(has(&log, "forced retreat (9.11.4)"), "{log:#?}");
    // Not 9.11.12: Proto One is in the palace already; it stays in the combat.
    assert!(!has(&log, "returns to the palace"), "{log:#?}");
    assert!(has(&log, "M-AT01 destroyed"), "{log:#?}");
    assert_eq!(s.hex_of("B-PROTO"), Some(h("O06")));
    assert_eq!(s.vp[Side::Mercenary], 0);
    assert_eq!(s.control_of(h("O06")), Control::Beeler);
}

#[test]
fn the_phase_player_chooses_first_even_when_the_other_side_must_retreat_9_11_1_9_11_3() {
    let mut s = blank();
    values(&mut s, "merc_at", 30, 4); // destroys B-SO01 in round 1 whatever the dice
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-SO02", "J07", false);
    put(&mut s, "M-AT01", "J07", true);
    s.policies[Side::Mercenary].retreat = RetreatWhen::AfterRound(1);
    s.policies[Side::Beeler].retreat = RetreatWhen::Never;
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(has(&log, "B-SO01 destroyed"));
    // The mercenary side, phase player in phase 8, retreats first (9.11.1); the beeler side
    // then cannot retreat (9.11.2), so its forced retreat (9.11.3) does not happen.
    assert!(has(&log, "the mercenary side retreats M-AT01"), "{log:#?}");
    assert!(!has(&log, "forced retreat (9.11.3)"), "{log:#?}");
    assert_eq!(s.hex_of("B-SO02"), Some(h("J07")));
    assert!(!s.unit("B-SO02").unwrap().face_up);
}

#[test]
fn a_phase_player_that_stays_lets_the_other_sides_forced_retreat_happen_9_11_3() {
    let mut s = blank();
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-SO02", "J07", false);
    put(&mut s, "M-AT01", "J07", true);
    never(&mut s);
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(has(&log, "forced retreat (9.11.3)"), "{log:#?}");
    assert_ne!(s.hex_of("B-SO02"), Some(h("J07")));
    assert_eq!(s.hex_of("M-AT01"), Some(h("J07")));
}

#[test]
fn the_base_controller_fires_7x7_7x5_7x4_or_7x3_base_attacks_9_12_1() {
    for (hex, unit, shots) in [
        ("O06", "M-AT01", 7),
        ("B08", "B-AT01", 5),
        ("E07", "B-AT01", 4),
        ("G10", "B-AT01", 3),
    ] {
        let mut s = blank();
        put(&mut s, unit, hex, false);
        let (_, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
        let base: Vec<&Roll> = rolls
            .iter()
            .filter(|r| r.label.contains("/base/"))
            .collect();
        assert_eq!(base.len(), shots, "{hex}");
        let prefix = format!("t1/p4/combat/{hex}/base/");
        assert!(base.iter().all(|r| r.label.starts_with(&prefix)));
    }
}

#[test]
fn the_base_attack_fires_once_before_round_1_9_12_2() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 6, 4); // cannot hit B-AT01 (6 - 5): never rolled
    values(&mut s, "beeler_at", 9, 5); // the base attack needs a 2
    put(&mut s, "M-AT01", "G10", true);
    put(&mut s, "B-AT01", "G10", true);
    let t = "t1/p4/combat/G10";
    let sd = seed_where(&[
        (&format!("{t}/base/a1/B-AT01"), 2, 3..=12),
        (&format!("{t}/base/a2/B-AT01"), 2, 3..=12),
        (&format!("{t}/base/a3/B-AT01"), 2, 3..=12),
        (&format!("{t}/r1/atk/B-AT01"), 2, 6..=12),
    ]);
    let (_, rolls) = fight(&mut s, sd, "t1/p4", Side::Beeler);
    let base: Vec<usize> = (0..rolls.len())
        .filter(|&i| rolls[i].label.contains("/base/"))
        .collect();
    assert_eq!(base.len(), 3);
    let first = rolls.iter().position(|r| r.label.contains("/r1/")).unwrap();
    assert!(base.iter().all(|&i| i < first));
    assert!(rolls.iter().any(|r| r.label.contains("/r2/")));
}

#[test]
fn an_attack_that_cannot_succeed_is_neither_rolled_nor_shown_9_9_3() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "blue_at", 13, 7);
    values(&mut s, "merc_soldier", 6, 2); // 6 - 7: no throw of 2D is -1 or less
    put(&mut s, "B-BLUE", "J07", true);
    put(&mut s, "M-SO01", "J07", true);
    let (log, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(rolls.iter().any(|r| r.label.contains("/atk/B-BLUE")));
    assert!(!rolls.iter().any(|r| r.label.contains("/atk/M-SO01")));
    assert!(!has(&log, "M-SO01 (6) at"), "{log:#?}");
    assert!(!has(&log, "need 2D <= -1"), "{log:#?}");
}

#[test]
fn a_base_attack_that_cannot_succeed_is_neither_rolled_nor_shown_9_9_3_9_12_1() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 0, 7); // the palace's 7 - 7: never a hit
    values(&mut s, "beeler_at", 30, 4);
    put(&mut s, "M-AT01", "O06", true);
    put(&mut s, "B-AT01", "O06", true);
    let (log, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(
        !rolls.iter().any(|r| r.label.contains("/base/")),
        "{rolls:?}"
    );
    assert!(!has(&log, "base attack 1"), "{log:#?}");
    assert!(has(&log, "M-AT01 destroyed"), "{log:#?}");
}

#[test]
fn a_hex_fought_again_in_the_same_phase_gets_no_second_base_attack_9_12_2() {
    let mut s = blank();
    s.stage = Stage::Stage1;
    never(&mut s);
    values(&mut s, "merc_at", 30, 4); // the palace's base attack needs a 3 against it
    values(&mut s, "beeler_at", 0, 4);
    values(&mut s, "kanyu", 0, 5);
    values(&mut s, "blue_at", 0, 7);
    put(&mut s, "M-AT01", "O06", true);
    put(&mut s, "B-AT01", "O06", true);
    put(&mut s, "M-KANYU", "J07", true);
    put(&mut s, "B-BLUE", "J07", true);
    s.policies[Side::Mercenary].hex_order = vec![h("O06"), h("J07")];
    let base = |k: u32| format!("t1/p8/combat/O06/base/a{k}/M-AT01");
    let labels: Vec<String> = (1..=7).map(base).collect();
    let mut wants: Vec<(&str, usize, std::ops::RangeInclusive<u32>)> =
        labels.iter().map(|l| (l.as_str(), 2, 4..=12)).collect();
    // Kan-Yu and Blue AT fought: the encounter check brings stage 2 and Blue AT goes to the
    // palace at once (12.5, 12.6), where M-AT01 stands: O06 is fought again (A12).
    wants.push(("t1/p8/combat/J07/encounter", 1, 3..=6));
    let (log, rolls) = fight(&mut s, seed_where(&wants), "t1/p8", Side::Mercenary);
    assert!(has(&log, "t1/p8/combat/O06/visit2"), "{log:#?}");
    let fired: Vec<&str> = rolls
        .iter()
        .filter(|r| r.label.contains("/base/"))
        .map(|r| r.label.as_str())
        .collect();
    assert_eq!(fired.len(), 7, "{fired:?}");
    assert!(fired.iter().all(|l| !l.contains("visit2")), "{fired:?}");
}

#[test]
fn base_attack_losses_are_applied_before_round_1_9_12_4() {
    let mut s = blank();
    never(&mut s);
    // A base attack that always destroys (the stand-in strength raised for the test).
    let ex9 = s
        .map
        .bases
        .iter_mut()
        .find(|b| b.name == data::EX9)
        .unwrap();
    ex9.base_attack = Some(BaseAttack {
        attack: 30,
        count: 3,
    });
    put(&mut s, "M-AT01", "G10", true);
    put(&mut s, "B-AT01", "G10", true);
    put(&mut s, "B-SO01", "G10", true);
    let (log, rolls) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert!(has(&log, "B-AT01 destroyed") && has(&log, "B-SO01 destroyed"));
    assert!(rolls.iter().all(|r| !r.label.contains("/r1/")), "{rolls:?}");
}

#[test]
fn a_heli_holds_a_base_at_the_control_check_before_it_flies_home_9_13_1() {
    let mut s = blank();
    put(&mut s, "M-H01", "K07", true); // EX-6, beeler, no beeler unit there
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(at(&log, "control: EX-6") < at(&log, "helis M-H01 return to EX-10"));
    assert_eq!(s.control_of(h("K07")), Control::Mercenary);
    assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
}

#[test]
fn returning_helis_ignore_distance_route_and_enemy_units_9_13_3() {
    let mut s = blank();
    put(&mut s, "M-H01", "O05", true);
    assert!(s.map.grid.distance(h("O05"), h("B08")) > movement::HELI_MP);
    for (u, hex) in [("B-SO01", "N05"), ("B-SO02", "C08"), ("B-SO03", "A08")] {
        put(&mut s, u, hex, false);
    }
    fight(&mut s, seed(0), "t1/p4", Side::Beeler);
    assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
    assert!(!s.unit("M-H01").unwrap().face_up);
}

// ---- 10: victory points ---------------------------------------------------------------------

#[test]
fn the_beeler_side_scores_1_vp_per_own_at_lost_not_per_soldier_10_1_9_10_3() {
    let mut s = blank();
    never(&mut s);
    values(&mut s, "merc_at", 30, 4);
    values(&mut s, "beeler_at", 0, 4);
    values(&mut s, "beeler_soldier", 0, 2);
    for u in ["M-AT01", "M-AT02", "B-AT01", "B-SO01"] {
        put(&mut s, u, "J07", true);
    }
    let (log, _) = fight(&mut s, seed(0), "t1/p8", Side::Mercenary);
    assert!(has(
        &log,
        "B-AT01 destroyed, back into its cup (9.10.2); beeler +1 VP for its own AT (10.1)"
    ));
    assert_eq!(
        (place(&s, "B-AT01"), place(&s, "B-SO01")),
        (Place::Cup, Place::Cup)
    );
    assert_eq!(s.vp[Side::Beeler], 1);
}

#[test]
fn blue_at_and_strike_dog_kills_score_the_victims_defense_a_heli_2_10_1() {
    for (killer, victim, vp) in [
        ("B-BLUE", "M-AT01", 4),
        ("B-BLUE", "M-H01", 2),
        ("B-SD", "M-SO01", 2),
        ("B-AT01", "M-AT01", 0),
    ] {
        let mut s = blank();
        never(&mut s);
        for kind in ["blue_at", "strike_dog", "beeler_at"] {
            values(&mut s, kind, 30, 7);
        }
        values(&mut s, "merc_at", 0, 4);
        values(&mut s, "heli", 0, 3);
        values(&mut s, "merc_soldier", 0, 2);
        put(&mut s, killer, "J07", true);
        put(&mut s, victim, "J07", true);
        let (log, _) = fight(&mut s, seed(0), "t1/p4", Side::Beeler);
        assert!(has(&log, &format!("{victim} destroyed")));
        assert_eq!(s.vp[Side::Beeler], vp, "{killer} destroying {victim}");
    }
}

// ---- 11: the Nuba Highlands -----------------------------------------------------------------

#[test]
fn units_of_either_side_in_nuba_are_face_up_11_1() {
    for (side, unit) in [(Side::Mercenary, "M-AT01"), (Side::Beeler, "B-AT01")] {
        let mut s = blank();
        put(&mut s, unit, "H07", false);
        assert!(mv(&mut s, side, unit, &["H08"]).is_empty());
        assert!(s.unit(unit).unwrap().face_up, "{unit}");
    }
}

#[test]
fn a_face_down_unit_retreating_into_nuba_flips_face_up_11_3() {
    let mut s = blank();
    put(&mut s, "B-SO01", "H09", true);
    put(&mut s, "B-AT01", "H09", false);
    put(&mut s, "M-AT01", "H09", true);
    s.policies[Side::Beeler].retreat_to.hexes = vec![h("H08")];
    assert_eq!(retreat_hexes(&s, Side::Beeler, h("H09"))[0], h("H08"));
    let mut d = Dice::new(seed(0), KEY);
    let mut log = Log::default();
    let ok = CombatPhase {
        state: &mut s,
        dice: &mut d,
        log: &mut log,
        phase_player: Side::Beeler,
        tag: "t1/p4".into(),
    }
    .retreat(h("H09"), Side::Beeler, "t1/p4/combat/H09");
    assert_eq!(ok, Retreated::All);
    assert_eq!(s.hex_of("B-AT01"), Some(h("H08")));
    assert!(s.unit("B-AT01").unwrap().face_up);
    assert!(has(&log.public, "is B-AT01 (11.3)"));
}

// ---- 12: stages -----------------------------------------------------------------------------

#[test]
fn the_game_starts_in_the_initial_stage_with_no_modifiers_12_2_15_5() {
    let s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    assert_eq!((s.stage, s.next_stage), (Stage::Initial, None));
    assert_eq!(s.modifiers, Modifiers::default());
}

// ---- 14: end of the game --------------------------------------------------------------------

#[test]
fn the_beeler_side_taking_ex10_ends_the_game_after_that_combat_phase_14_1_1() {
    let mut s = blank();
    s.step = Step::B1;
    s.turn = 3;
    values(&mut s, "beeler_at", 9, 7); // out of reach of EX-10's base attack
    put(&mut s, "B-AT01", "B08", true);
    let (after, events, _) = resolve(&s, &[], seed(0));
    assert_eq!(after.step, Step::Over);
    assert_eq!(after.control_of(h("B08")), Control::Beeler);
    let ending = after.ending.unwrap();
    assert!(
        ending
            .summary
            .contains("the beeler side took EX-10 (14.1.1)")
    );
    assert!(
        !has(&events, "t3/p5"),
        "the rest of the turn is not played (A53)"
    );
}

#[test]
fn the_game_ends_at_the_end_of_the_general_offensive_turn_only_14_1_2() {
    let mut s = blank();
    s.step = Step::B2;
    s.offensive_turn = Some(9);
    s.turn = 8;
    let (a, _, _) = resolve(&s, &[], seed(0));
    assert_eq!((a.step, a.turn), (Step::B1, 9));
    s.turn = 9;
    let (b, _, _) = resolve(&s, &[], seed(1));
    assert_eq!(b.step, Step::Over);
    assert!(b.ending.unwrap().summary.contains("(14.1.2)"));
}

fn palace_taken_on(turn: u32, offensive: Option<u32>) -> (State, Vec<Roll>) {
    let mut s = blank();
    s.turn = turn;
    s.offensive_turn = offensive;
    s.control.insert(h("O06"), Control::Mercenary);
    let mut d = Dice::new(seed(0), KEY);
    let mut log = Log::default();
    end::finish(&mut s, &mut d, &mut log, false);
    (s, finished(d))
}

#[test]
fn a_game_ended_before_turn_8_draws_the_offensive_marker_for_the_palace_bonus_14_2_2() {
    let (s, rolls) = palace_taken_on(5, None);
    let k = rolled(&rolls, "t5/end/offensive-marker").unwrap() as usize;
    let marker = s.counters.offensive_markers[k - 1];
    let r = rolled(&rolls, "t5/end/palace").unwrap();
    assert_eq!(
        s.vp[Side::Mercenary],
        i64::from(r) + 13 + i64::from(marker - 5) * 7
    );
}

#[test]
fn the_palace_taken_on_the_offensive_turn_itself_earns_no_bonus_14_2_2_a25() {
    let (s, rolls) = palace_taken_on(9, Some(9));
    let r = rolled(&rolls, "t9/end/palace").unwrap();
    assert_eq!(s.vp[Side::Mercenary], i64::from(r) + 13);
}

#[test]
fn more_vp_wins_and_equal_vp_is_a_draw_14_2_5() {
    for (m, b, winner, text) in [
        (5, 5, None, "a draw"),
        (6, 5, Some(Side::Mercenary), "mercenary wins"),
        (4, 5, Some(Side::Beeler), "beeler wins"),
    ] {
        let mut s = blank();
        s.turn = 9;
        s.offensive_turn = Some(9);
        s.vp[Side::Mercenary] = m;
        s.vp[Side::Beeler] = b;
        let mut d = Dice::new(seed(0), KEY);
        let mut log = Log::default();
        end::finish(&mut s, &mut d, &mut log, true);
        let e = s.ending.unwrap();
        assert_eq!(e.winner, winner);
        assert!(e.summary.contains(text), "{}", e.summary);
    }
}

// ---- 15: setup ------------------------------------------------------------------------------

#[test]
fn setup_leaves_kiriko_strike_dog_proto_one_and_the_spare_helis_in_stock_15_1_15_2() {
    let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    let mut d = Dice::new(seed(0), KEY);
    let mut log = Log::default();
    setup::place_units(&mut s, &mut d, &mut log);
    for id in [
        "M-KIRIKO", "B-SD", "B-PROTO", "M-H03", "M-H04", "M-H05", "M-H06",
    ] {
        assert_eq!(place(&s, id), Place::Stock, "{id}");
    }
    for id in ["M-H01", "M-H02"] {
        assert_eq!(s.hex_of(id), Some(h("B08")));
        assert!(s.unit(id).unwrap().face_up);
    }
    // Only plain ATs and soldiers are in the cups.
    for &side in Side::ALL {
        assert!(
            s.cups
                .get(side)
                .items
                .iter()
                .all(|id| { s.role_of(id).is_none() && !s.is_heli(id) })
        );
    }
}

#[test]
fn the_game_starts_on_turn_1_15_3() {
    let s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    assert_eq!((s.turn, s.step), (1, Step::Setup));
}

#[test]
fn the_first_phase_played_is_the_reinforcement_phase_of_turn_1_15_4() {
    let s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    let both = [
        (Side::Mercenary, Orders::default()),
        (Side::Beeler, Orders::default()),
    ];
    let (after, events, _) = resolve(&s, &both, seed(0));
    assert_eq!((after.turn, after.step), (1, Step::B1));
    assert!(at(&events, "turn 1 begins") < at(&events, "reinforcement: beeler"));
    assert!(!has(&events, "t1/p2") && !has(&events, "t1/p4"));
}

#[test]
fn vp_and_rp_start_at_0_15_6() {
    let s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    assert_eq!((s.vp[Side::Mercenary], s.vp[Side::Beeler], s.rp), (0, 0, 0));
}

#[test]
fn bases_start_under_their_setup_controllers_and_nuba_is_neutral_15_7() {
    let s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    for (hex, c) in [
        ("B08", Control::Mercenary),
        ("E07", Control::Mercenary),
        ("G10", Control::Mercenary),
        ("O06", Control::Beeler),
        ("N03", Control::Beeler),
        ("J10", Control::Beeler),
        ("K07", Control::Beeler),
        ("M11", Control::Beeler),
        ("H08", Control::Neutral),
    ] {
        assert_eq!(s.control_of(h(hex)), c, "{hex}");
    }
}

/// DESIGN 3 with 9.11.3 and 9.11.9: face-down units forced out of a combat hex retreat face-down,
/// and nothing the mercenary reads (public events, its view) depends on which units they are.
#[test]
fn units_retreating_face_down_stay_hidden_9_11_3_9_11_9() {
    let mut s = blank();
    values(&mut s, "merc_at", 20, 9);
    values(&mut s, "beeler_soldier", 2, 2);
    values(&mut s, "beeler_at", 2, 2);
    put(&mut s, "M-AT01", "F07", true);
    put(&mut s, "B-SO01", "F07", true);
    put(&mut s, "B-AT01", "F07", false);
    put(&mut s, "B-SO02", "F07", false);
    put(&mut s, "B-AT02", "K07", false);
    let slots = super::state::hidden_slots(&s, Side::Beeler).len();
    // A rotation: a soldier in F07 is replaced by the AT from K07, so the units that retreat are
    // not the same ones in the two states.
    let rotated: Vec<usize> = (0..slots).map(|i| (i + 1) % slots).collect();
    let mut t = super::state::permute_hidden(&s, Side::Beeler, &rotated).unwrap();
    let in_f07 = |st: &State| {
        super::state::hidden_slots(st, Side::Beeler)
            .into_iter()
            .filter(|id| st.unit(id).and_then(|u| u.hex) == Some(h("F07")))
            .collect::<Vec<_>>()
    };
    assert_ne!(
        in_f07(&s),
        in_f07(&t),
        "different units wait face-down in F07"
    );
    let (events_s, dice_s) = fight(&mut s, seed(3), "t1/p8", Side::Mercenary);
    let (events_t, dice_t) = fight(&mut t, seed(3), "t1/p8", Side::Mercenary);
    assert!(
        events_s
            .iter()
            .any(|e| e.contains("forced retreat (9.11.3)")),
        "{events_s:#?}"
    );
    assert_eq!(events_s, events_t);
    assert_eq!(dice_s, dice_t);
    let merc = Reader::Side("mercenary".into());
    let view = |st: &State| yaml::to_string(&Kummen.view(st, &merc));
    assert_eq!(view(&s), view(&t));
    let public = |st: &State| yaml::to_string(&Kummen.view(st, &Reader::Public));
    assert_eq!(public(&s), public(&t));
}
