//! Tests of the colony drop (35), on the real setup (38) with the map emptied.

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::carry::fixture::{phase, put, state};
use crate::systems::zeta::policy::{ColonyPolicy, ColonyTarget};
use crate::systems::zeta::state::{CharPlace, FaceUp};

fn loc(s: &str) -> Loc {
    Loc::parse(s).unwrap()
}

fn govern(st: &mut State, base: &str, side: Option<Side>, level: u8) {
    let b = st.bases.get_mut(base).unwrap();
    b.governor = side;
    b.level = level;
}

/// Neo Zeon's Space phase with Side 2 (F02) governed at level 1 and a Gaza C there.
fn nz_at_side_2() -> State {
    let mut st = state();
    govern(&mut st, "side_2", Some(Side::NeoZeon), 1);
    put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "space:F02");
    phase(&mut st, Side::NeoZeon, CardKind::Space);
    st
}

/// The colony in use by `side` at `at`.
fn colony_at(st: &mut State, side: Side, at: &str) {
    put(st, COLONY, side, COLONY, at);
    st.colony.in_use_by = Some(side);
    st.colony.used.insert(side);
}

fn place_at(base: &str) -> Pre {
    Pre {
        colony: Some(ColonyAt {
            place_at: base.into(),
        }),
        ..Pre::default()
    }
}

fn refusal(st: &State, side: Side, pre: &Pre) -> Problem {
    let ctx = Ctx::new(st.clone(), None, Moment::Check);
    legal_colony(&ctx, side, pre, &FieldPath::root().at("pre")).unwrap_err()
}

fn move_refusal(st: &State, side: Side, to: &str, moment: Moment) -> Problem {
    let ctx = Ctx::new(st.clone(), None, moment);
    legal_colony_move(&ctx, side, &loc(to), &FieldPath::root().at("colony_move")).unwrap_err()
}

fn dice(seed: u8) -> Dice {
    Dice::new(Hash32([seed; 32]), Hash32([0x3c; 32])).at_step(2)
}

/// A seed whose rolls under the labels are the wanted ones.
fn seed_for(want: &[(&str, u32)]) -> u8 {
    (0..=255u8)
        .find(|s| {
            let mut d = dice(*s);
            want.iter().all(|(l, v)| d.d6(l) == *v)
        })
        .expect("some seed rolls it")
}

/// Runs `f` with a Resolve context and the seed's dice; the state, public and private lines.
fn run(st: State, seed: u8, f: impl FnOnce(&mut Ctx<'_>)) -> (State, Vec<String>, Vec<String>) {
    let mut d = dice(seed);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    f(&mut ctx);
    let Ctx { state, log, .. } = ctx;
    let private: Vec<String> = Side::ALL
        .iter()
        .flat_map(|s| log.private[*s].clone())
        .collect();
    (state, log.public, private)
}

fn nz_card() -> Card {
    Card {
        side: Side::NeoZeon,
        kind: CardKind::Space,
        copy: 1,
    }
}

const LANDING: &str = "t1/p1/colony/landing";

// --- 35.1-35.5: placement ---

#[test]
fn neo_zeon_places_the_colony_at_its_side_with_its_ms_35_5() {
    let (st, public, _) = run(nz_at_side_2(), 1, |c| {
        resolve_colony(c, Side::NeoZeon, &place_at("side_2"))
    });
    let u = st.units.get(COLONY).unwrap();
    assert_eq!(
        (u.side, u.place),
        (Side::NeoZeon, Place::Hex(loc("space:F02")))
    );
    assert_eq!(st.colony.in_use_by, Some(Side::NeoZeon));
    assert!(st.colony.used.contains(&Side::NeoZeon));
    assert!(
        public
            .iter()
            .any(|l| l.contains("places the colony at side_2")),
        "{public:?}"
    );
}

#[test]
fn aeug_drops_no_colony_35_1() {
    let mut st = nz_at_side_2();
    govern(&mut st, "side_2", Some(Side::Aeug), 1);
    let p = refusal(&st, Side::Aeug, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.1"));
    assert!(p.message.contains("AEUG drops no colony"), "{}", p.message);
}

#[test]
fn a_second_drop_is_refused_35_1() {
    let mut st = nz_at_side_2();
    st.colony.used.insert(Side::NeoZeon);
    let p = refusal(&st, Side::NeoZeon, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.1"));
    assert!(
        p.message.contains("used its one colony drop"),
        "{}",
        p.message
    );
}

#[test]
fn no_drop_while_another_faction_uses_the_colony_35_3() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::Titans, "space:H09");
    let p = refusal(&st, Side::NeoZeon, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.3"));
    assert!(
        p.message.contains("titans is using the colony"),
        "{}",
        p.message
    );
}

#[test]
fn placement_needs_an_own_space_card_35_4() {
    let mut st = nz_at_side_2();
    phase(&mut st, Side::NeoZeon, CardKind::Ground);
    let p = refusal(&st, Side::NeoZeon, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.4"));
    assert!(p.message.contains("your own Space card"), "{}", p.message);
}

#[test]
fn only_sides_1_2_4_5_are_sources_35_5_1() {
    let mut st = nz_at_side_2();
    govern(&mut st, "granada", Some(Side::NeoZeon), 1);
    let p = refusal(&st, Side::NeoZeon, &place_at("granada"));
    assert_eq!(p.rule.as_deref(), Some("35.5.1"));
    assert!(p.message.contains("not Side 1, 2, 4 or 5"), "{}", p.message);
}

#[test]
fn the_side_must_be_own_governed_at_level_1_35_5_1() {
    let mut st = nz_at_side_2();
    govern(&mut st, "side_2", Some(Side::Aeug), 1);
    let p = refusal(&st, Side::NeoZeon, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.5.1"));
    assert!(
        p.message.contains("not governed by neo_zeon"),
        "{}",
        p.message
    );
}

#[test]
fn an_own_ms_must_be_there_35_5_2() {
    let mut st = nz_at_side_2();
    st.units.clear();
    let p = refusal(&st, Side::NeoZeon, &place_at("side_2"));
    assert_eq!(p.rule.as_deref(), Some("35.5.2"));
    assert!(p.message.contains("no MS at side_2"), "{}", p.message);
}

#[test]
fn a_landing_target_in_phase_orders_is_a_policy_now_f3() {
    let pre = Pre {
        colony_target: Some("dublin".into()),
        ..Pre::default()
    };
    let p = refusal(&nz_at_side_2(), Side::NeoZeon, &pre);
    assert_eq!(p.rule.as_deref(), Some("35.7"));
    assert!(p.message.contains("standing policy"), "{}", p.message);
}

#[test]
fn a_placement_no_longer_legal_is_skipped_and_told_35_5_2() {
    let mut st = nz_at_side_2();
    st.units.clear();
    let (st, public, private) = run(st, 1, |c| {
        resolve_colony(c, Side::NeoZeon, &place_at("side_2"))
    });
    assert!(!st.units.contains_key(COLONY));
    assert!(public.is_empty(), "{public:?}");
    assert!(
        private.iter().any(|l| l.contains("colony not placed")),
        "{private:?}"
    );
}

#[test]
fn choices_list_the_sides_where_placing_is_legal_35_5() {
    let ctx = Ctx::new(nz_at_side_2(), None, Moment::Check);
    let ch = colony_choices(&ctx, Side::NeoZeon);
    assert_eq!(ch.len(), 1);
    assert_eq!(ch[0].item, place_at("side_2"));
    assert!(colony_choices(&ctx, Side::Aeug).is_empty());
}

// --- 35.6: the move ---

#[test]
fn the_colony_moves_exactly_two_hexes_35_6_1() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    let ctx = Ctx::new(st.clone(), None, Moment::Resolve);
    let at = FieldPath::root().at("colony_move");
    assert!(legal_colony_move(&ctx, Side::NeoZeon, &loc("space:F04"), &at).is_ok());
    let p = move_refusal(&st, Side::NeoZeon, "space:F03", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("35.6.1"));
    assert!(
        p.message.contains("is not 2 hexes from the colony"),
        "{}",
        p.message
    );
    for c in colony_move_choices(&ctx, Side::NeoZeon) {
        assert_eq!(ctx.data.distance(loc("space:F02"), c.item), Some(2));
    }
}

#[test]
fn the_colony_never_enters_earth_a_19() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:E03");
    let p = move_refusal(&st, Side::NeoZeon, "space:E05", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("A-19"));
    assert!(p.message.contains("Earth"), "{}", p.message);
}

#[test]
fn the_colony_stays_on_the_space_map_35_6_1() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    let p = move_refusal(&st, Side::NeoZeon, "ground:F02", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("35.6.1"));
    assert!(
        p.message.contains("not a hex of the space map"),
        "{}",
        p.message
    );
}

#[test]
fn the_colony_moves_only_on_its_users_space_card_35_6() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    phase(&mut st, Side::NeoZeon, CardKind::Ground);
    let p = move_refusal(&st, Side::NeoZeon, "space:F04", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("35.6"));
    assert!(p.message.contains("its user's Space card"), "{}", p.message);
}

#[test]
fn another_factions_colony_is_not_moved_35_3() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::Titans, "space:F02");
    let p = move_refusal(&st, Side::NeoZeon, "space:F04", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("35.3"));
    assert!(
        p.message.contains("the colony is titans's"),
        "{}",
        p.message
    );
}

#[test]
fn a_move_with_no_colony_waits_for_the_placement_at_check_only_35_6() {
    let st = nz_at_side_2();
    let ctx = Ctx::new(st.clone(), None, Moment::Check);
    let at = FieldPath::root().at("colony_move");
    assert!(legal_colony_move(&ctx, Side::NeoZeon, &loc("space:F04"), &at).is_ok());
    let p = move_refusal(&st, Side::NeoZeon, "space:F04", Moment::Resolve);
    assert_eq!(p.rule.as_deref(), Some("35.6"));
    assert!(p.message.contains("no colony on the map"), "{}", p.message);
}

#[test]
fn an_ordered_move_is_made_35_6_1() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    let to = loc("space:H02");
    let (st, public, _) = run(st, 1, |c| resolve_colony_move(c, Side::NeoZeon, Some(&to)));
    assert_eq!(st.units.get(COLONY).unwrap().place, Place::Hex(to));
    assert!(
        public
            .iter()
            .any(|l| l.contains("colony moves from space:F02 to space:H02")),
        "{public:?}"
    );
}

#[test]
fn a_missing_move_is_made_toward_a_landing_35_6() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    let (st, _, private) = run(st, 1, |c| resolve_colony_move(c, Side::NeoZeon, None));
    // Drop point A (E04) is 2 hexes from Side 2: the compulsory move reaches it.
    assert_eq!(
        st.units.get(COLONY).unwrap().place,
        Place::Hex(loc("space:E04"))
    );
    assert!(
        private.iter().any(|l| l.contains("no colony_move")),
        "{private:?}"
    );
}

#[test]
fn an_illegal_move_is_replaced_by_the_default_and_told_35_6_1() {
    let mut st = nz_at_side_2();
    colony_at(&mut st, Side::NeoZeon, "space:F02");
    let to = loc("space:F03");
    let (st, _, private) = run(st, 1, |c| resolve_colony_move(c, Side::NeoZeon, Some(&to)));
    assert_eq!(
        st.units.get(COLONY).unwrap().place,
        Place::Hex(loc("space:E04"))
    );
    assert!(
        private.iter().any(|l| l.contains("colony_move refused")),
        "{private:?}"
    );
}

#[test]
fn a_titans_colony_heads_for_the_moon_a_72() {
    let mut st = state();
    phase(&mut st, Side::Titans, CardKind::Space);
    colony_at(&mut st, Side::Titans, "space:H02");
    let (st, _, _) = run(st, 1, |c| resolve_colony_move(c, Side::Titans, None));
    let now = st.units.get(COLONY).unwrap().place.loc().unwrap();
    let data = &st.data;
    // Granada (J04) is 2 hexes from H02: nearer after the move than before.
    assert!(
        data.distance(now, loc("space:J04")) < data.distance(loc("space:H02"), loc("space:J04"))
    );
}

// --- 35.7: the landing ---

#[test]
fn at_a_drop_point_neo_zeon_lands_on_its_areas_base_35_7_1_35_7_2() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    st.policies[Side::NeoZeon].colony = ColonyPolicy {
        target: ColonyTarget::Bases(vec!["cape_kennedy".into()]),
    };
    let seed = seed_for(&[(LANDING, 5)]);
    let (st, public, _) = run(st, seed, |c| resolve_landing(c, 1, nz_card()));
    assert!(st.bases.get("cape_kennedy").unwrap().destroyed);
    assert!(!st.units.contains_key(COLONY));
    assert_eq!(st.colony.in_use_by, None);
    assert!(
        public
            .iter()
            .any(|l| l.contains("cape_kennedy is gone for good")),
        "{public:?}"
    );
}

#[test]
fn a_failed_landing_loses_the_colony_a_73() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    let seed = seed_for(&[(LANDING, 6)]);
    let (st, public, _) = run(st, seed, |c| resolve_landing(c, 1, nz_card()));
    assert!(st.bases.values().all(|b| !b.destroyed));
    assert!(!st.units.contains_key(COLONY));
    assert!(st.colony.used.contains(&Side::NeoZeon));
    assert!(public.iter().any(|l| l.contains("it misses")), "{public:?}");
}

#[test]
fn a_flipped_colony_lands_on_1_to_3_only_35_7_1() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    st.units.get_mut(COLONY).unwrap().face = FaceUp::Back;
    let seed = seed_for(&[(LANDING, 4)]);
    let (st, public, _) = run(st, seed, |c| resolve_landing(c, 1, nz_card()));
    assert!(st.bases.values().all(|b| !b.destroyed));
    assert!(public.iter().any(|l| l.contains("needs 1-3")), "{public:?}");
}

#[test]
fn titans_ignore_drop_points_a_72() {
    let mut st = state();
    colony_at(&mut st, Side::Titans, "space:E04");
    let card = Card {
        side: Side::Titans,
        ..nz_card()
    };
    let (st, public, _) = run(st, 1, |c| resolve_landing(c, 1, card));
    assert!(st.units.contains_key(COLONY));
    assert!(public.is_empty(), "{public:?}");
}

#[test]
fn titans_land_on_a_moon_base_hex_35_2_35_7() {
    let mut st = state();
    colony_at(&mut st, Side::Titans, "space:J04");
    let card = Card {
        side: Side::Titans,
        ..nz_card()
    };
    let seed = seed_for(&[(LANDING, 1)]);
    let (st, public, _) = run(st, seed, |c| resolve_landing(c, 1, card));
    assert!(st.bases.get("granada").unwrap().destroyed);
    assert!(
        public
            .iter()
            .any(|l| l.contains("titans's colony falls on granada")),
        "{public:?}"
    );
}

#[test]
fn an_area_without_a_base_has_no_landing_a_74() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    for b in ["hickory", "cape_kennedy", "jaburo"] {
        st.bases.get_mut(b).unwrap().destroyed = true;
    }
    let (st, public, _) = run(st, 1, |c| resolve_landing(c, 1, nz_card()));
    assert!(st.units.contains_key(COLONY));
    assert!(public.iter().any(|l| l.contains("(A-74)")), "{public:?}");
}

#[test]
fn no_landing_on_a_ground_card_35_7() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    let card = Card {
        kind: CardKind::Ground,
        ..nz_card()
    };
    let (st, public, _) = run(st, 1, |c| resolve_landing(c, 1, card));
    assert!(st.units.contains_key(COLONY));
    assert!(public.is_empty());
}

#[test]
fn the_default_target_is_the_vp_leaders_highest_base_f3() {
    let mut st = state();
    for b in ["hickory", "cape_kennedy", "jaburo"] {
        govern(&mut st, b, None, 0);
    }
    govern(&mut st, "hickory", Some(Side::Aeug), 1);
    govern(&mut st, "cape_kennedy", Some(Side::Titans), 1);
    govern(&mut st, "jaburo", Some(Side::Titans), 3);
    let ctx = Ctx::new(st.clone(), None, Moment::Resolve);
    let targets = landing_targets(&ctx, Side::NeoZeon, loc("space:E04"));
    assert_eq!(targets.len(), 3);
    let vp = st.base_vp();
    let leader = if vp[Side::Titans] >= vp[Side::Aeug] {
        "jaburo"
    } else {
        "hickory"
    };
    assert_eq!(
        landing_target(&ctx, Side::NeoZeon, &targets).as_deref(),
        Some(leader)
    );
}

#[test]
fn the_policys_listed_base_is_the_target_f3() {
    let mut st = state();
    st.policies[Side::NeoZeon].colony = ColonyPolicy {
        target: ColonyTarget::Bases(vec!["dublin".into(), "hickory".into()]),
    };
    let ctx = Ctx::new(st, None, Moment::Resolve);
    let targets = landing_targets(&ctx, Side::NeoZeon, loc("space:E04"));
    // Dublin is in area B: the first listed base of this area is taken.
    assert_eq!(
        landing_target(&ctx, Side::NeoZeon, &targets).as_deref(),
        Some("hickory")
    );
}

#[test]
fn units_in_the_vanished_base_roll_removed_on_1_35_7_3() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    st.policies[Side::NeoZeon].colony = ColonyPolicy {
        target: ColonyTarget::Bases(vec!["jaburo".into()]),
    };
    put(&mut st, "t-hizack-1", Side::Titans, "hizack", "ground:E06");
    put(&mut st, "t-hizack-2", Side::Titans, "hizack", "ground:E06");
    let seed = seed_for(&[
        (LANDING, 2),
        ("t1/p1/colony/t-hizack-1", 1),
        ("t1/p1/colony/t-hizack-2", 4),
    ]);
    let (st, public, _) = run(st, seed, |c| resolve_landing(c, 1, nz_card()));
    assert!(!st.units.contains_key("t-hizack-1"));
    assert!(st.units.contains_key("t-hizack-2"));
    assert!(
        public
            .iter()
            .any(|l| l.contains("impact on t-hizack-1: rolls 1, removed (35.7.3)")),
        "{public:?}"
    );
}

#[test]
fn a_character_whose_unit_is_removed_makes_a_survival_check_35_7_3() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    st.policies[Side::NeoZeon].colony = ColonyPolicy {
        target: ColonyTarget::Bases(vec!["jaburo".into()]),
    };
    put(&mut st, "t-hizack-1", Side::Titans, "hizack", "ground:E06");
    let who = st
        .chars
        .iter()
        .find(|(_, c)| c.side == Side::Titans)
        .map(|(id, _)| id.clone())
        .unwrap();
    st.chars.get_mut(&who).unwrap().place = CharPlace::Aboard("t-hizack-1".into());
    let seed = seed_for(&[(LANDING, 2), ("t1/p1/colony/t-hizack-1", 1)]);
    let mut d = dice(seed);
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    resolve_landing(&mut ctx, 1, nz_card());
    drop(ctx);
    let t = d.finish().unwrap();
    let want = format!("t1/p1/colony/survival/{who}");
    assert!(
        t.public.iter().any(|r| r.label == want),
        "{:?}",
        t.public.iter().map(|r| r.label.clone()).collect::<Vec<_>>()
    );
}

#[test]
fn the_nuke_base_destroyed_by_a_colony_loses_the_demolition_a_78() {
    let mut st = state();
    colony_at(&mut st, Side::NeoZeon, "space:E04");
    st.policies[Side::NeoZeon].colony = ColonyPolicy {
        target: ColonyTarget::Bases(vec!["jaburo".into()]),
    };
    st.nuke.base = Some("jaburo".into());
    let seed = seed_for(&[(LANDING, 3)]);
    let (st, public, private) = run(st, seed, |c| resolve_landing(c, 1, nz_card()));
    assert!(st.nuke.lost);
    assert!(!public.iter().any(|l| l.contains("nuke")), "{public:?}");
    assert!(private.iter().any(|l| l.contains("(A-78)")), "{private:?}");
}

#[test]
fn a_phase_places_then_moves_the_colony_through_the_slots_35_5_35_6() {
    use crate::systems::zeta::orders::PhaseOrders;
    use crate::systems::zeta::state::{PhaseCursor, Slot};
    use crate::systems::zeta::steps::{SlotOutcome, resolve_phase_slot};
    let orders = PhaseOrders {
        pre: place_at("side_2"),
        colony_move: Some(loc("space:H02")),
        ..PhaseOrders::default()
    };
    let (st, public, _) = run(nz_at_side_2(), 1, |c| {
        let mut cursor = PhaseCursor {
            k: 1,
            card: nz_card(),
            slot: Slot::Snapshot,
            snapshot: Default::default(),
            combats_done: Vec::new(),
            combat_orders_done: 0,
        };
        for slot in [Slot::Colony, Slot::Actions, Slot::Movement, Slot::End] {
            cursor.slot = slot;
            assert_eq!(
                resolve_phase_slot(c, &mut cursor, &orders),
                SlotOutcome::Continue
            );
        }
    });
    assert_eq!(
        st.units.get(COLONY).map(|u| u.place),
        Some(Place::Hex(loc("space:H02")))
    );
    assert!(
        public.iter().any(|l| l.contains("places the colony")),
        "{public:?}"
    );
    assert!(
        public.iter().any(|l| l.contains("colony moves")),
        "{public:?}"
    );
}
