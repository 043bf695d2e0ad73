//! Combat (18-27) on hand-built positions of the real setup state (38).

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::DataSource;
use crate::systems::zeta::carry::fixture;
use crate::systems::zeta::policy::{JoinPolicy, JoinRule};
use crate::systems::zeta::setup;
use crate::systems::zeta::state::State;

/// The setup with `side`'s card of `kind` drawn as phase 1 of turn 1.
pub(super) fn start(side: Side, kind: CardKind) -> State {
    let mut s = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    fixture::phase(&mut s, side, kind);
    s
}

pub(super) use fixture::loc;

/// Puts a new unit (front face, uncarried) in `at`; `moved` marks it a mover (18.6).
pub(super) fn put(s: &mut State, id: &str, side: Side, ty: &str, at: &str, moved: bool) {
    fixture::put(s, id, side, ty, at);
    if let Some(u) = s.units.get_mut(id) {
        u.action = moved.then_some(Action::Move);
    }
}

/// Green Noa's hex (map.yaml), where Titans' main stack starts (38).
const GREEN_NOA: &str = "space:C02";

/// Moves Titans' Green Noa stack (an Alexandria carrying four Hizacks and more, with five
/// characters) to `at`, all movers.
pub(super) fn titans_move_to(s: &mut State, at: &str) {
    for u in s.units.values_mut() {
        if u.side == Side::Titans && u.place == Place::Hex(loc(GREEN_NOA)) {
            u.place = Place::Hex(loc(at));
            u.action = Some(Action::Move);
        }
    }
}

pub(super) fn dice(n: u8) -> Dice {
    Dice::new(Hash32([n; 32]), Hash32([0x33; 32]))
}

pub(super) fn order(at: &str, versus: &[Side]) -> CombatOrder {
    CombatOrder {
        at: loc(at),
        versus: versus.to_vec(),
        guard: None,
        prep: None,
        prep_if: Vec::new(),
        bomb: Wish::Auto,
        bombard: Wish::Auto,
    }
}

fn check(s: &State, side: Side, o: &CombatOrder) -> Result<(), Problem> {
    let ctx = Ctx::new(s.clone(), None, Moment::Check);
    legal_combat(&ctx, side, o, &FieldPath::root())
}

fn at_resolve(s: &State, side: Side, o: &CombatOrder) -> Result<(), Problem> {
    let ctx = Ctx::new(s.clone(), None, Moment::Resolve);
    legal_combat(&ctx, side, o, &FieldPath::root())
}

fn msg(r: Result<(), Problem>) -> (Option<String>, String) {
    let p = r.unwrap_err();
    (p.rule.clone(), p.message.clone())
}

/// The public rolls of a resolution whose label contains `part`.
pub(super) fn rolls(d: &Dice, part: &str) -> Vec<(String, Vec<u32>)> {
    d.transcript()
        .public
        .iter()
        .filter(|r| r.label.contains(part))
        .map(|r| (r.label.clone(), r.values.clone()))
        .collect()
}

pub(super) fn lines(ctx: Ctx<'_>) -> Vec<String> {
    ctx.log.into_lines().0
}

// --- declaration (18) -------------------------------------------------------------------

#[test]
fn a_space_card_fights_only_on_the_space_map_18_2() {
    let s = start(Side::Titans, CardKind::Space);
    let (rule, m) = msg(check(&s, Side::Titans, &order("ground:C02", &[Side::Aeug])));
    assert_eq!(rule.as_deref(), Some("18.2"));
    assert_eq!(m, "a space card fights on the space map");
}

#[test]
fn only_the_acting_faction_declares_11_2() {
    let s = start(Side::Titans, CardKind::Space);
    let (rule, m) = msg(check(&s, Side::Aeug, &order("space:C05", &[Side::Titans])));
    assert_eq!(rule.as_deref(), Some("11.2"));
    assert_eq!(m, "this is titans's phase");
}

#[test]
fn a_faction_does_not_fight_itself_or_nobody_18_8() {
    let s = start(Side::Titans, CardKind::Space);
    let (rule, m) = msg(check(
        &s,
        Side::Titans,
        &order("space:C05", &[Side::Titans]),
    ));
    assert_eq!(
        (rule.as_deref(), m.as_str()),
        (Some("18.8"), "a faction does not fight itself")
    );
    let (_, m) = msg(check(&s, Side::Titans, &order("space:C05", &[])));
    assert_eq!(m, "name the faction(s) to fight");
    let (_, m) = msg(check(
        &s,
        Side::Titans,
        &order("space:C05", &[Side::Aeug, Side::Aeug]),
    ));
    assert_eq!(m, "a faction is named twice");
}

#[test]
fn no_combat_in_side_6s_hex_34_3() {
    let s = start(Side::Titans, CardKind::Space);
    let (rule, m) = msg(check(&s, Side::Titans, &order("space:K02", &[Side::Aeug])));
    assert_eq!(rule.as_deref(), Some("34.3"));
    assert_eq!(m, "no combat in space:K02 (Side 6)");
}

#[test]
fn only_movers_fight_18_6_and_only_against_present_factions_18_1() {
    let mut s = start(Side::Titans, CardKind::Space);
    let o = order("space:C05", &[Side::Aeug]);
    // At check the movement is still to come: accepted.
    assert!(check(&s, Side::Titans, &o).is_ok());
    let (rule, m) = msg(at_resolve(&s, Side::Titans, &o));
    assert_eq!(
        (rule.as_deref(), m.as_str()),
        (
            Some("18.6"),
            "no own unit that moved this phase is in space:C05"
        )
    );
    titans_move_to(&mut s, "space:C05");
    assert!(at_resolve(&s, Side::Titans, &o).is_ok());
    let (rule, m) = msg(at_resolve(
        &s,
        Side::Titans,
        &order("space:C05", &[Side::NeoZeon]),
    ));
    assert_eq!(
        (rule.as_deref(), m.as_str()),
        (
            Some("18.1"),
            "neo_zeon has no unit and no military base in space:C05"
        )
    );
}

#[test]
fn another_factions_military_base_alone_allows_combat_18_1() {
    let mut s = start(Side::Titans, CardKind::Space);
    // Granada (AEUG L3) with its garrison gone: the base alone is enough.
    s.units
        .retain(|_, u| u.place != Place::Hex(loc("space:J04")));
    titans_move_to(&mut s, "space:J04");
    assert!(at_resolve(&s, Side::Titans, &order("space:J04", &[Side::Aeug])).is_ok());
}

#[test]
fn an_atmosphere_card_fights_where_atmospheric_movers_arrived_18_3() {
    let mut s = start(Side::Titans, CardKind::Atmosphere);
    titans_move_to(&mut s, "space:C05");
    let o = order("space:C05", &[Side::Aeug]);
    let (rule, _) = msg(at_resolve(&s, Side::Titans, &o));
    assert_eq!(rule.as_deref(), Some("18.3"));
    s.units.get_mut("t-alexandria-1").unwrap().atmo_moved = true;
    assert!(at_resolve(&s, Side::Titans, &o).is_ok());
}

/// The rule and message Titans' combat in C05 against AEUG is refused with in `s` when it
/// carries the preparation `p`.
fn prep_refusal(s: &State, p: PrepOrders) -> (Option<String>, String) {
    let mut o = order("space:C05", &[Side::Aeug]);
    o.prep = Some(p);
    msg(check(s, Side::Titans, &o))
}

#[test]
fn preparation_items_are_judged_20_5_20_6_20_8_20_9_20_4() {
    let s = start(Side::Titans, CardKind::Space);
    let mut p = PrepOrders::default();
    p.pilots.insert("t-hizack-1".into(), "bask".into());
    assert_eq!(
        prep_refusal(&s, p),
        (
            Some("20.5".into()),
            "bask has no MS attack or defense".into()
        )
    );

    let mut s2 = s.clone();
    put(
        &mut s2,
        "t-the-o-1",
        Side::Titans,
        "qubeley",
        GREEN_NOA,
        true,
    );
    let mut p = PrepOrders::default();
    p.pilots.insert("t-the-o-1".into(), "jerid_1".into());
    assert_eq!(
        prep_refusal(&s2, p),
        (
            Some("20.6".into()),
            "jerid_1 is not an NT and cannot pilot a qubeley".into()
        )
    );

    let mut p = PrepOrders::default();
    p.captains.insert("t-alexandria-1".into(), "jerid_1".into());
    assert_eq!(prep_refusal(&s, p).0.as_deref(), Some("20.8"));

    let mut s3 = s.clone();
    put(
        &mut s3,
        "t-garuda-9",
        Side::Titans,
        "hizack",
        GREEN_NOA,
        true,
    );
    s3.units.get_mut("t-garuda-9").unwrap().type_id = "dom_tropen".into();
    let p = PrepOrders {
        sortie: Some(vec!["t-garuda-9".into()]),
        ..Default::default()
    };
    assert_eq!(
        prep_refusal(&s3, p),
        (
            Some("20.9".into()),
            "t-garuda-9 cannot sortie on the space map".into()
        )
    );

    let p = PrepOrders {
        house: vec!["t-hizack-1".into()],
        ..Default::default()
    };
    assert_eq!(
        prep_refusal(&s, p),
        (
            Some("20.4".into()),
            "no own military base in space:C05".into()
        )
    );

    let p = PrepOrders {
        leave_out: vec!["a-argama-1".into()],
        ..Default::default()
    };
    assert_eq!(
        prep_refusal(&s, p),
        (
            Some("20.2".into()),
            "a-argama-1 is not a unit of titans".into()
        )
    );
}

/// Titans' Green Noa stack moved into C05, where AEUG's Fleet is, and a Neo Zeon Gwadan there.
fn titans_meet_gwadan_in_c05() -> State {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    put(
        &mut s,
        "n-gwadan-9",
        Side::NeoZeon,
        "gwadan",
        "space:C05",
        false,
    );
    s
}

#[test]
fn choices_list_each_present_faction_and_both_18_8() {
    let s = titans_meet_gwadan_in_c05();
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    ctx.moment = Moment::Resolve;
    let got: Vec<Vec<Side>> = combat_choices(&ctx, Side::Titans)
        .into_iter()
        .filter(|c| c.item.at == loc("space:C05"))
        .map(|c| c.item.versus)
        .collect();
    assert_eq!(
        got,
        vec![
            vec![Side::Aeug],
            vec![Side::NeoZeon],
            vec![Side::Aeug, Side::NeoZeon]
        ]
    );
}

// --- camps and the join (18.8-18.10) ------------------------------------------------------

fn three_in_c05() -> State {
    let mut s = titans_meet_gwadan_in_c05();
    for g in ["n-gaza-c-8", "n-gaza-c-9"] {
        put(&mut s, g, Side::NeoZeon, "gaza_c", "space:C05", false);
        s.units.get_mut(g).unwrap().carrier = Some("n-gwadan-9".into());
    }
    s.chars.get_mut("haman").unwrap().place = CharPlace::Aboard("n-gwadan-9".into());
    s
}

#[test]
fn the_third_faction_watches_by_default_18_9() {
    let s = three_in_c05();
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    let (a, d) = camps(&mut ctx, Side::Titans, &order("space:C05", &[Side::Aeug])).unwrap();
    assert_eq!(a.sides(), vec![Side::Titans]);
    assert_eq!(d.sides(), vec![Side::Aeug]);
    assert!(
        lines(ctx)
            .iter()
            .any(|l| l == "neo_zeon watches the combat in space:C05 (18.9)")
    );
}

#[test]
fn the_third_faction_joins_by_its_first_matching_rule_18_9() {
    let mut s = three_in_c05();
    s.policies[Side::NeoZeon].join = JoinPolicy {
        default: JoinAnswer::Abstain,
        rules: vec![
            JoinRule {
                acting: Some(Side::Aeug),
                declared: None,
                at: None,
                answer: JoinAnswer::Attacker,
            },
            JoinRule {
                acting: Some(Side::Titans),
                declared: None,
                at: None,
                answer: JoinAnswer::Defender,
            },
        ],
    };
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    let (_, d) = camps(&mut ctx, Side::Titans, &order("space:C05", &[Side::Aeug])).unwrap();
    assert_eq!(d.sides(), vec![Side::Aeug, Side::NeoZeon]);
    assert_eq!(d.joined, Some(Side::NeoZeon));
}

#[test]
fn nobody_joins_when_both_others_are_declared_a41() {
    let mut s = three_in_c05();
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Attacker;
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    let (a, d) = camps(
        &mut ctx,
        Side::Titans,
        &order("space:C05", &[Side::Aeug, Side::NeoZeon]),
    )
    .unwrap();
    assert_eq!(a.sides(), vec![Side::Titans]);
    assert_eq!(d.sides(), vec![Side::Aeug, Side::NeoZeon]);
    assert_eq!(d.joined, None);
}

#[test]
fn an_ask_answer_stops_the_phase_for_the_third_18_9() {
    let mut s = three_in_c05();
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Ask;
    let mut d = dice(1);
    let mut ctx = Ctx::new(s, Some(&mut d), Moment::Resolve);
    let o = order("space:C05", &[Side::Aeug]);
    let CombatOutcome::Stop(p) = resolve_combat(&mut ctx, o.at, &o.versus, &o) else {
        panic!("no stop")
    };
    assert_eq!(p.who, Side::NeoZeon);
    assert_eq!(
        p.why,
        AskWhy::Join {
            at: loc("space:C05")
        }
    );
    assert_eq!(p.rest.combats, vec![o]);
}

// --- preparation (20) ---------------------------------------------------------------------

pub(super) fn prepared(s: State, o: &CombatOrder) -> (Ctx<'static>, CombatState) {
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    let (attacker, defender) = camps(&mut ctx, Side::Titans, o).unwrap();
    let mut cs = CombatState {
        at: o.at,
        attacker,
        defender,
        step: CombatStep::Prep,
        prep: [Prep::default(), Prep::default()],
        bomb: [false; 2],
        bombard: [false; 2],
    };
    prepare(&mut ctx, &mut cs, o);
    (ctx, cs)
}

#[test]
fn the_attacker_fights_with_movers_it_keeps_and_the_defender_with_all_20_2() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    s.units.get_mut("t-salamis-kai-1").unwrap().action = None;
    let mut o = order("space:C05", &[Side::Aeug]);
    o.prep = Some(PrepOrders {
        leave_out: vec!["t-hizack-6".into()],
        ..Default::default()
    });
    let (_, cs) = prepared(s.clone(), &o);
    assert!(!cs.prep[0].participants.contains("t-salamis-kai-1"));
    assert!(!cs.prep[0].participants.contains("t-hizack-6"));
    assert!(cs.prep[0].participants.contains("t-hizack-1"));
    let aeug: BTreeSet<String> = s
        .units
        .iter()
        .filter(|(_, u)| u.side == Side::Aeug && u.place == Place::Hex(loc("space:C05")))
        .map(|(i, _)| i.clone())
        .collect();
    assert_eq!(cs.prep[1].participants, aeug);
}

#[test]
fn pilots_go_best_first_and_captains_by_ship_attack_20_5_20_8() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    let (ctx, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    // AEUG: Quattro (4) onto the Mk-II (PP 2), then Kamille (1), Emma, Apolly, Roberto (2
    // each) onto the Rick Dias by id; Henken (ship attack 1) captains the Argama.
    assert_eq!(
        cs.prep[1].pilots.get("a-mk2-1").map(String::as_str),
        Some("quattro")
    );
    assert_eq!(cs.prep[1].pilots.len(), 4);
    assert_eq!(
        cs.prep[1].captains.get("a-argama-1").map(String::as_str),
        Some("henken")
    );
    assert_eq!(
        ctx.state.chars["quattro"].place,
        CharPlace::Aboard("a-mk2-1".into())
    );
    // Titans: Jerid, Kacricon, Gady onto Hizacks; Bask captains the Alexandria.
    assert_eq!(cs.prep[0].pilots.len(), 3);
    assert!(
        cs.prep[0]
            .captains
            .values()
            .any(|c| c == "bask" || c == "jamaican")
    );
}

#[test]
fn quattro_is_neither_pilot_nor_captain_in_a_speech_phase_29_1_2() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    let quattro_was = s.chars["quattro"].place.clone();
    s.speech_phase = true;
    let (ctx, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    assert!(cs.prep[1].pilots.values().all(|c| c != "quattro"));
    assert!(cs.prep[1].captains.values().all(|c| c != "quattro"));
    assert_eq!(ctx.state.chars["quattro"].place, quattro_was);
}

#[test]
fn an_nt_only_ms_without_an_nt_pilot_stays_in_20_6() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    put(
        &mut s,
        "t-qubeley-9",
        Side::Titans,
        "qubeley",
        "space:C05",
        true,
    );
    s.units.get_mut("t-qubeley-9").unwrap().carrier = Some("t-salamis-kai-1".into());
    let (_, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    assert!(!cs.prep[0].sortie.contains("t-qubeley-9"));
    assert_eq!(
        cs.prep[0].stowed.get("t-qubeley-9").map(String::as_str),
        Some("t-salamis-kai-1")
    );
}

#[test]
fn a_defender_with_sortie_none_keeps_its_ms_aboard_20_3() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    s.policies[Side::Aeug].defence.sortie = Sortie::None;
    let (_, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    assert!(cs.prep[1].sortie.is_empty());
    assert_eq!(cs.prep[1].stowed.len(), 4);
    assert!(cs.prep[1].stowed.values().all(|s| s == "a-argama-1"));
}

#[test]
fn a_non_sortied_ms_with_no_room_and_no_base_must_sortie_a43() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    s.policies[Side::Aeug].defence.sortie = Sortie::None;
    put(&mut s, "a-nemo-9", Side::Aeug, "nemo", "space:C05", false);
    let (_, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    assert_eq!(
        cs.prep[1].sortie.iter().collect::<Vec<_>>(),
        vec!["a-nemo-9"]
    );
}

#[test]
fn if_air_favourable_compares_with_the_attackers_sortie_f5() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    s.policies[Side::Aeug].defence.sortie = Sortie::IfAirFavourable;
    // Six Hizacks (3·1, three with pilots) against a Mk-II and three Rick Dias: AEUG expects
    // fewer air hits without its pilots counted and stays in.
    let (_, cs) = prepared(s.clone(), &order("space:C05", &[Side::Aeug]));
    assert!(cs.prep[1].sortie.is_empty());
    // The attacker sorties one Hizack only: now AEUG goes out.
    let mut o = order("space:C05", &[Side::Aeug]);
    o.prep = Some(PrepOrders {
        sortie: Some(vec!["t-hizack-1".into()]),
        ..Default::default()
    });
    let (_, cs) = prepared(s, &o);
    assert_eq!(cs.prep[1].sortie.len(), 4);
}

#[test]
fn a_prep_alternative_follows_the_join_f5() {
    let mut s = three_in_c05();
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Defender;
    let mut o = order("space:C05", &[Side::Aeug]);
    o.prep = Some(PrepOrders {
        sortie: Some(vec!["t-hizack-1".into()]),
        ..Default::default()
    });
    o.prep_if = vec![PrepIf {
        joined: Joined {
            side: Side::NeoZeon,
            camp: JoinedCamp::Defender,
        },
        prep: PrepOrders {
            sortie: Some(vec!["t-hizack-1".into(), "t-hizack-2".into()]),
            ..Default::default()
        },
    }];
    let (_, cs) = prepared(s.clone(), &o);
    assert_eq!(cs.prep[0].sortie.len(), 2);
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
    let (_, cs) = prepared(s, &o);
    assert_eq!(cs.prep[0].sortie.len(), 1);
}

#[test]
fn housing_in_an_own_military_base_keeps_units_out_of_the_fight_20_4() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:J04");
    s.policies[Side::Aeug].defence.house = House::Ships;
    let (_, cs) = prepared(s, &order("space:J04", &[Side::Aeug]));
    assert!(cs.prep[1].housed.contains("a-salamis-kai-1"));
    assert!(cs.prep[1].housed.contains("a-lvr-1"));
    assert!(!cs.prep[0].housed.iter().any(|u| u.starts_with("t-")));
}

// --- the steps (21-24) with the dice read back ---------------------------------------------

/// An open space hex with one Titans Alexandria carrying `t` Hizacks against one AEUG
/// Salamis carrying `a` GM IIs, no characters; bombing and bombardment off unless asked.
pub(super) fn duel(t: usize, a: usize) -> State {
    let mut s = start(Side::Titans, CardKind::Space);
    put(
        &mut s,
        "t-alexandria-9",
        Side::Titans,
        "alexandria",
        "space:E05",
        true,
    );
    put(
        &mut s,
        "a-salamis-kai-9",
        Side::Aeug,
        "salamis_kai",
        "space:E05",
        false,
    );
    for i in 0..t {
        let id = format!("t-hizack-9{i}");
        put(&mut s, &id, Side::Titans, "hizack", "space:E05", true);
        s.units.get_mut(&id).unwrap().carrier = Some("t-alexandria-9".into());
    }
    for i in 0..a {
        let id = format!("a-gm2-9{i}");
        put(&mut s, &id, Side::Aeug, "gm2", "space:E05", false);
        s.units.get_mut(&id).unwrap().carrier = Some("a-salamis-kai-9".into());
    }
    for side in Side::ALL.iter().copied() {
        s.policies[side].bomb = Bomb::Never;
        s.policies[side].bombard = Bombard::Never;
    }
    s
}

pub(super) fn run(s: State, o: &CombatOrder, d: &mut Dice) -> (State, Vec<String>) {
    let mut ctx = Ctx::new(s, Some(d), Moment::Resolve);
    let out = resolve_combat(&mut ctx, o.at, &o.versus, o);
    assert!(!matches!(out, CombatOutcome::Stop(_)), "{out:?}");
    let Ctx { state, log, .. } = ctx;
    (state, log.into_lines().0)
}

#[test]
fn air_combat_hits_are_the_dice_read_against_the_air_values_21_5() {
    for seed in 1..=12u8 {
        let s = duel(1, 1);
        let mut d = dice(seed);
        let o = order("space:E05", &[Side::Aeug]);
        let (st, log) = run(s, &o, &mut d);
        let t = rolls(&d, "/air/titans/t-hizack-90");
        let a = rolls(&d, "/air/aeug/a-gm2-90");
        assert_eq!(t.len(), 1, "{log:?}");
        assert_eq!(t[0].0, "t1/p1/c:space:E05/air/titans/t-hizack-90");
        let th = fire::dice_hits(&t[0].1, &[3, 1]);
        let ah = fire::dice_hits(&a[0].1, &[3, 1]);
        // A GM II and a Hizack have 2/2: 2 hits flip, fewer do nothing (25.4-25.5).
        assert_eq!(
            st.units["a-gm2-90"].face == FaceUp::Back,
            th == 2,
            "seed {seed}"
        );
        assert_eq!(
            st.units["t-hizack-90"].face == FaceUp::Back,
            ah == 2,
            "seed {seed}"
        );
    }
}

#[test]
fn a_pilot_rolls_extra_air_dice_and_adds_ms_defense_21_6_25_6() {
    let mut s = duel(1, 1);
    s.chars.get_mut("jerid_1").unwrap().place = CharPlace::Aboard("t-alexandria-9".into());
    let mut d = dice(5);
    let (_, _) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
    let t = rolls(&d, "/air/titans/t-hizack-90");
    assert_eq!(t[0].1.len(), 2, "Jerid (1) has MS attack 1: two dice");
}

#[test]
fn bombardment_hits_are_the_dice_read_against_3_1_24_5() {
    for seed in 1..=12u8 {
        let mut s = duel(0, 0);
        s.policies[Side::Aeug].bombard = Bombard::Always;
        let mut o = order("space:E05", &[Side::Aeug]);
        o.bombard = Wish::Yes;
        let mut d = dice(seed);
        let (st, _) = run(s, &o, &mut d);
        let t = rolls(&d, "/bombard/titans/t-alexandria-9");
        let a = rolls(&d, "/bombard/aeug/a-salamis-kai-9");
        assert_eq!((t[0].1.len(), a[0].1.len()), (3, 2));
        let th = fire::dice_hits(&t[0].1, &[3, 1]);
        let ah = fire::dice_hits(&a[0].1, &[3, 1]);
        // Salamis 3/3: 3-5 flip, 6 removes; Alexandria 4/4: 4 flips (24.10: both at once).
        match th {
            0..=2 => assert_eq!(st.units["a-salamis-kai-9"].face, FaceUp::Front),
            3..=5 => assert_eq!(st.units["a-salamis-kai-9"].face, FaceUp::Back),
            _ => assert!(!st.units.contains_key("a-salamis-kai-9")),
        }
        assert_eq!(
            st.units["t-alexandria-9"].face == FaceUp::Back,
            ah >= 4,
            "seed {seed}"
        );
    }
}

#[test]
fn a_removed_ship_takes_its_cargo_and_its_characters_roll_25_9_27_1() {
    // Find a seed where the Titans' 3 bombard dice remove the flipped Salamis (3 hits).
    for seed in 1..=80u8 {
        let mut s = duel(0, 0);
        s.units.get_mut("a-salamis-kai-9").unwrap().face = FaceUp::Back;
        put(&mut s, "a-gm2-95", Side::Aeug, "gm2", "space:E05", false);
        s.units.get_mut("a-gm2-95").unwrap().carrier = Some("a-salamis-kai-9".into());
        s.policies[Side::Aeug].defence.sortie = Sortie::None;
        s.chars.get_mut("blex").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
        let mut o = order("space:E05", &[Side::Aeug]);
        o.bombard = Wish::Yes;
        s.policies[Side::Aeug].bombard = Bombard::Always;
        let mut d = dice(seed);
        let (st, log) = run(s, &o, &mut d);
        if st.units.contains_key("a-salamis-kai-9") {
            continue;
        }
        assert!(
            !st.units.contains_key("a-gm2-95"),
            "25.9: the carried GM II goes too"
        );
        assert_eq!(st.sides[Side::Aeug].factory.get("gm2"), Some(&1));
        assert_eq!(rolls(&d, "/bombard/survival/blex").len(), 1, "{log:?}");
        assert_ne!(
            st.chars["blex"].place,
            CharPlace::Aboard("a-salamis-kai-9".into())
        );
        return;
    }
    panic!("no seed removed the Salamis");
}

#[test]
fn stranded_ms_beyond_the_ships_room_are_removed_25_11() {
    // Three sortied GM IIs and a Salamis with room for two, in open space: after the first
    // damage step the one that gets no seat (lowest priority: same PP, highest id) is lost.
    for seed in 1..=40u8 {
        let s = duel(1, 3);
        let mut d = dice(seed);
        let (st, log) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
        if !log.iter().any(|l| l.ends_with("(25.11)")) {
            continue;
        }
        assert!(
            log.iter()
                .any(|l| l == "aeug a-gm2-92 has no ship to carry it (25.11)"),
            "{log:?}"
        );
        assert!(!st.units.contains_key("a-gm2-92"));
        let aboard = st
            .units
            .values()
            .filter(|u| u.carrier.as_deref() == Some("a-salamis-kai-9"))
            .count();
        assert!(aboard <= 2);
        return;
    }
    panic!("no seed gave a damage step");
}

#[test]
fn sortied_ms_board_again_after_the_fight_a53() {
    let s = duel(0, 2);
    let mut d = dice(1);
    let (st, _) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
    let aboard = st
        .units
        .values()
        .filter(|u| u.carrier.as_deref() == Some("a-salamis-kai-9"))
        .count();
    assert_eq!(aboard, 2);
}

#[test]
fn aa_fire_only_against_a_camp_that_bombs_22_1() {
    let mut s = duel(2, 0);
    let mut o = order("space:E05", &[Side::Aeug]);
    o.bomb = Wish::Yes;
    s.policies[Side::Aeug].bomb = Bomb::IfTarget;
    let mut d = dice(3);
    let (_, _) = run(s.clone(), &o, &mut d);
    // The Salamis fires 2 AA dice at the Hizacks; AEUG has no MS, so it does not bomb and
    // Titans fire no AA.
    assert_eq!(rolls(&d, "/aa/aeug/a-salamis-kai-9")[0].1.len(), 2);
    assert!(rolls(&d, "/aa/titans/").is_empty());
    assert!(
        !rolls(&d, "/bombing/titans/").is_empty()
            || d.transcript()
                .public
                .iter()
                .all(|r| !r.label.contains("/bombing/"))
    );
    o.bomb = Wish::No;
    let mut d = dice(3);
    let (_, _) = run(s, &o, &mut d);
    assert!(rolls(&d, "/aa/").is_empty());
}

#[test]
fn a_military_base_fires_aa_and_bombards_with_its_attack_22_6_24_7() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:J04");
    let mut o = order("space:J04", &[Side::Aeug]);
    o.bomb = Wish::Yes;
    o.bombard = Wish::Yes;
    s.policies[Side::Aeug].bombard = Bombard::Always;
    let mut d = dice(4);
    let (_, _) = run(s, &o, &mut d);
    // Granada at level 3: attack 3, so three dice at 2·1 and three at 3·1.
    assert_eq!(rolls(&d, "/aa/aeug/granada")[0].1.len(), 3);
    assert_eq!(rolls(&d, "/bombard/aeug/granada")[0].1.len(), 3);
}

// --- 24.2.4 / 24.2.5 in a base hex (A-49 rows 3 and 4 through the whole combat) ----------

fn granada_bombard(t_wish: Wish, a_policy: Bombard, seed: u8) -> (State, Dice) {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:J04");
    for side in Side::ALL.iter().copied() {
        s.policies[side].bomb = Bomb::Never;
        s.policies[side].defence.sortie = Sortie::None;
    }
    s.policies[Side::Aeug].bombard = a_policy;
    // Two AEUG ship commanders (2 + 2) aboard Granada's ships, as Titans have Bask and
    // Jamaican aboard the Alexandria: the check can go either way.
    s.chars.get_mut("hayato").unwrap().place = CharPlace::Aboard("a-salamis-kai-1".into());
    s.chars.get_mut("henken").unwrap().place = CharPlace::Aboard("a-lvr-1".into());
    let mut o = order("space:J04", &[Side::Aeug]);
    o.prep = Some(PrepOrders {
        sortie: Some(Vec::new()),
        ..Default::default()
    });
    o.bombard = t_wish;
    let mut d = dice(seed);
    let (st, _) = run(s, &o, &mut d);
    (st, d)
}

fn check_winner_of(d: &Dice) -> Option<usize> {
    let t = rolls(d, "/bombard-check/titans");
    let a = rolls(d, "/bombard-check/aeug");
    // Titans' two best ship commands aboard the Alexandria and Salamis: Bask 2 + Jamaican 2;
    // AEUG's at Granada: Hayato 2 + Henken 2.
    let tt = t[0].1[0] + 4;
    let at = a[0].1[0] + 4;
    fire::check_winner([tt, at])
}

#[test]
fn a49_row3_the_owner_wins_the_check_and_its_base_stays_silent_24_2_4() {
    let mut seen = [false; 2];
    for seed in 1..=40u8 {
        let (_, d) = granada_bombard(Wish::No, Bombard::Always, seed);
        let base = !rolls(&d, "/bombard/aeug/granada").is_empty();
        let ships = !rolls(&d, "/bombard/aeug/a-").is_empty();
        match check_winner_of(&d) {
            Some(1) => {
                seen[0] = true;
                assert!(!base && ships, "seed {seed}: bombardment without Granada");
            }
            _ => {
                seen[1] = true;
                assert!(!base && !ships, "seed {seed}: no bombardment");
            }
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn a49_row4_the_owner_avoids_and_its_base_fights_alone_24_2_5() {
    let mut seen = [false; 2];
    for seed in 1..=40u8 {
        let (_, d) = granada_bombard(Wish::Yes, Bombard::Never, seed);
        let base = !rolls(&d, "/bombard/aeug/granada").is_empty();
        let ships = !rolls(&d, "/bombard/aeug/a-").is_empty();
        let titans = !rolls(&d, "/bombard/titans/").is_empty();
        assert!(base && titans, "seed {seed}: Granada fires either way");
        match check_winner_of(&d) {
            Some(0) => {
                seen[0] = true;
                assert!(ships, "seed {seed}: Titans won: full bombardment");
            }
            _ => {
                seen[1] = true;
                assert!(!ships, "seed {seed}: base-only bombardment");
            }
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn a49_rows1_and_2_need_no_check_24_1() {
    let (_, d) = granada_bombard(Wish::Yes, Bombard::Always, 1);
    assert!(rolls(&d, "/bombard-check/").is_empty());
    assert!(!rolls(&d, "/bombard/aeug/granada").is_empty());
    let (_, d) = granada_bombard(Wish::No, Bombard::Never, 1);
    assert!(rolls(&d, "/bombard").is_empty());
}

// --- command shares (26, §12/F1) -----------------------------------------------------------

#[test]
fn co_declared_defenders_place_their_own_shares_f1() {
    let s = three_in_c05();
    let (ctx, cs) = prepared(s, &order("space:C05", &[Side::Aeug, Side::NeoZeon]));
    // Quattro (MS command 2) and Haman (2) fly for the defenders.
    assert_eq!(
        cs.prep[1].pilots.get("n-gaza-c-8").map(String::as_str),
        Some("haman")
    );
    let shares = command_shares(&ctx, &cs, 1, FireStep::Air);
    assert_eq!(
        shares,
        vec![(Some(Side::Aeug), 2), (Some(Side::NeoZeon), 2)]
    );
    // Ship command for bombing and bombardment, from characters aboard ships: Henken (2) on
    // the Argama and Haman? No: Haman flies; Blex (1) is the other one aboard.
    let ships = command_shares(&ctx, &cs, 1, FireStep::Bombard);
    assert_eq!(ships, vec![(Some(Side::Aeug), 3)]);
}

#[test]
fn a_joined_camp_gives_the_whole_share_to_its_principal_a42() {
    let mut s = three_in_c05();
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Defender;
    let (ctx, cs) = prepared(s, &order("space:C05", &[Side::Aeug]));
    assert_eq!(command_shares(&ctx, &cs, 1, FireStep::Air), vec![(None, 4)]);
}

#[test]
fn each_faction_places_its_share_on_its_own_units_only_f1() {
    let mut s = three_in_c05();
    // Two more GM IIs: six AEUG MS for five pilots, so one flies without and a share of 2 can
    // flip it.
    for g in ["a-gm2-98", "a-gm2-99"] {
        put(&mut s, g, Side::Aeug, "gm2", "space:C05", false);
        s.units.get_mut(g).unwrap().carrier = Some("a-argama-1".into());
    }
    let o = order("space:C05", &[Side::Aeug, Side::NeoZeon]);
    let (mut ctx, cs) = prepared(s, &o);
    let targets = ms_targets(&ctx, &cs, 1);
    let alloc = allocation_for(&mut ctx, &cs, 1, FireStep::Air, 12, &targets);
    assert!(!alloc.is_empty());
    let log = lines(ctx);
    let aeug = log.iter().find(|l| l.starts_with("aeug places")).unwrap();
    let nz = log
        .iter()
        .find(|l| l.starts_with("neo_zeon places"))
        .unwrap();
    assert!(
        !aeug.contains(" n-") && aeug.contains("flip a-gm2-9"),
        "{aeug}"
    );
    // Haman's 2 cannot flip his own Gaza (2 + 2 defense); it flips the other one.
    assert!(
        !nz.contains(" a-") && nz.contains("flip n-gaza-c-9"),
        "{nz}"
    );
}

// --- bases (25.8, 25.10) ---------------------------------------------------------------------

#[test]
fn a_base_falls_to_neutral_and_loses_what_it_houses_25_10_27_2() {
    let mut s = start(Side::Titans, CardKind::Space);
    s.bases.get_mut("granada").unwrap().level = 1;
    let mut d = dice(2);
    let mut ctx = Ctx::new(s, Some(&mut d), Moment::Resolve);
    let housed: BTreeMap<BaseId, BTreeSet<UnitId>> = [(
        "granada".to_string(),
        ["a-lvr-1".to_string()].into_iter().collect(),
    )]
    .into_iter()
    .collect();
    let mut losses = Losses::default();
    damage::apply(
        &mut ctx,
        &[Quantum::BaseDown("granada".into(), 1)],
        &housed,
        &BTreeMap::new(),
        &mut losses,
    );
    assert_eq!(ctx.state.bases["granada"].level, 0);
    assert_eq!(ctx.state.bases["granada"].governor, None);
    assert!(!ctx.state.units.contains_key("a-lvr-1"));
    assert_eq!(losses.removed, vec!["a-lvr-1".to_string()]);
}

#[test]
fn base_targets_cost_the_sum_of_level_defenses_and_value_vp_25_8_f11() {
    let s = start(Side::Titans, CardKind::Space);
    let ctx = Ctx::new(s, None, Moment::Resolve);
    let t = damage::base_targets(&ctx, "granada", &BTreeSet::new());
    // Granada L3: defenses 5, 4, 3; VP 6, 4, 2 (stand-in).
    let got: Vec<(u32, u32)> = t.iter().map(|t| (t.cost, t.value)).collect();
    let def = ctx.data.base("granada").unwrap();
    let d = |l: u8| u32::from(def.at_level(l).unwrap().defense);
    let v = |l: u8| u32::from(def.at_level(l).unwrap().vp);
    assert_eq!(
        got,
        vec![
            (d(3), 3 * (v(3) - v(2))),
            (d(3) + d(2), 3 * (v(3) - v(1))),
            (d(3) + d(2) + d(1), 3 * v(3))
        ]
    );
}

// --- resolution events ------------------------------------------------------------------------

fn private_lines(log: crate::systems::zeta::ctx::Log, side: Side) -> Vec<String> {
    log.into_lines()
        .1
        .get(side.name())
        .cloned()
        .unwrap_or_default()
}

#[test]
fn a_combat_wrong_when_it_comes_is_skipped_and_its_side_told() {
    let s = start(Side::Titans, CardKind::Space);
    let o = order("space:C05", &[Side::Aeug]);
    let mut d = dice(1);
    let mut ctx = Ctx::new(s.clone(), Some(&mut d), Moment::Resolve);
    assert_eq!(
        resolve_combat(&mut ctx, o.at, &o.versus, &o),
        CombatOutcome::Skipped
    );
    assert_eq!(ctx.state.units, s.units);
    assert_eq!(
        private_lines(ctx.log, Side::Titans),
        vec![
            "combat in space:C05 skipped: no own unit that moved this phase is in space:C05 (18.6)"
        ]
    );
}

#[test]
fn a_guarded_combat_whose_guard_does_not_hold_is_skipped() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    let mut o = order("space:C05", &[Side::Aeug]);
    o.guard = Some(Guard::Turn(9));
    let mut d = dice(1);
    let mut ctx = Ctx::new(s, Some(&mut d), Moment::Resolve);
    resolve_combat(&mut ctx, o.at, &o.versus, &o);
    assert!(d_is_empty(&ctx));
    assert_eq!(
        private_lines(ctx.log, Side::Titans),
        vec!["combat in space:C05 skipped: its condition does not hold"]
    );
}

fn d_is_empty(ctx: &Ctx<'_>) -> bool {
    ctx.dice
        .as_ref()
        .is_some_and(|d| d.transcript().public.is_empty())
}

#[test]
fn a_combat_announces_itself_and_both_preparations_18_20() {
    let mut s = start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    let mut d = dice(2);
    let (_, log) = run(s, &order("space:C05", &[Side::Aeug]), &mut d);
    assert_eq!(log[0], "titans attacks aeug in space:C05 (18)");
    assert!(log[1].starts_with("attacker titans: 8 units, sortie t-hizack-1"));
    assert!(log[2].starts_with("defender aeug: 5 units, sortie a-mk2-1"));
    // Every die rolled names turn, phase and hex.
    assert!(
        d.transcript()
            .public
            .iter()
            .all(|r| r.label.starts_with("t1/p1/c:space:C05/"))
    );
}
