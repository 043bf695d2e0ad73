//! Setup (38) places what plan §5.8 says, and the skeleton's state, orders and views behave.

use super::Zeta;
use super::data::{Loc, Place, Side};
use super::state::{CharPlace, Stage, State};
use crate::kit::seats::Seat;
use crate::systems::{DataSource, Phase, Reader, Rules};
use std::collections::BTreeMap;

fn start() -> State {
    Zeta.initial_state("gryps", &DataSource::default()).unwrap()
}

/// Type -> count of `side`'s units at `place`.
fn units_at(st: &State, side: Side, place: &str) -> BTreeMap<String, u32> {
    let place = Place::parse(place).unwrap();
    let mut out = BTreeMap::new();
    for u in st
        .units
        .values()
        .filter(|u| u.side == side && u.place == place)
    {
        *out.entry(u.type_id.clone()).or_default() += 1;
    }
    out
}

fn counts(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
    list.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

#[test]
fn setup_places_the_units_of_rule_38_on_the_stand_in_hexes() {
    let st = start();
    let a = Side::Aeug;
    let t = Side::Titans;
    let n = Side::NeoZeon;
    for (side, place, want) in [
        (
            a,
            "space:C05",
            vec![("argama", 1), ("mk2", 1), ("rick_dias", 3)],
        ),
        (
            a,
            "space:J04",
            vec![("gm2", 2), ("nemo", 2), ("salamis_kai", 1), ("lvr", 1)],
        ),
        (
            a,
            "ground:C02",
            vec![("gm2", 3), ("nemo", 1), ("garuda", 1)],
        ),
        (
            t,
            "space:C02",
            vec![("hizack", 6), ("alexandria", 1), ("salamis_kai", 1)],
        ),
        (t, "space:D08", vec![("galbaldy_b", 1)]),
        (t, "space:M03", vec![("gm2", 2), ("salamis_kai", 1)]),
        (t, "ground:E06", vec![("gm2", 2), ("garuda", 1)]),
        (
            t,
            "ground:I06",
            vec![("gm2", 1), ("hizack", 1), ("garuda", 1)],
        ),
        (
            n,
            "belt",
            vec![("gaza_c", 8), ("qubeley", 1), ("gwadan", 1)],
        ),
    ] {
        assert_eq!(
            units_at(&st, side, place),
            counts(&want),
            "{side} at {place}"
        );
    }
    assert_eq!(st.units.len(), 5 + 6 + 5 + 8 + 1 + 3 + 3 + 3 + 10);
}

#[test]
fn the_first_fleet_rides_the_argama_with_its_seven_characters_38() {
    let st = start();
    let argama = "a-argama-1".to_string();
    for (id, u) in &st.units {
        if u.place == Place::parse("space:C05").unwrap() && id != &argama {
            assert_eq!(u.carrier.as_ref(), Some(&argama), "{id}");
        }
    }
    for c in [
        "quattro",
        "apolly",
        "roberto",
        "kamille_1",
        "emma_1",
        "henken",
        "blex",
    ] {
        assert_eq!(st.chars[c].place, CharPlace::Aboard(argama.clone()), "{c}");
    }
    // Elsewhere MS stand at their own bases (15.6) and need no ship.
    assert!(st.units["t-hizack-1"].carrier.is_none());
    assert_eq!(
        st.chars["hayato"].place,
        CharPlace::Aboard("a-garuda-1".into())
    );
    assert_eq!(
        st.chars["jerid_1"].place,
        CharPlace::Aboard("t-alexandria-1".into())
    );
    assert_eq!(
        st.chars["jamitov"].place,
        CharPlace::Aboard("t-garuda-2".into())
    );
    assert_eq!(
        st.chars["lila"].place,
        CharPlace::Aboard("t-galbaldy-b-1".into()),
        "no ship at Luna II: she rides her MS (13.10, 20.5)"
    );
    for c in ["haman", "mineva"] {
        assert_eq!(
            st.chars[c].place,
            CharPlace::Aboard("n-gwadan-1".into()),
            "{c}"
        );
    }
    for c in [
        "judau",
        "glemy",
        "ple_nz",
        "scirocco_1",
        "char",
        "kamille_2",
    ] {
        assert_eq!(st.chars[c].place, CharPlace::Track, "{c}");
    }
}

#[test]
fn setup_gives_the_bases_vp_income_sheets_and_hands_of_rule_38() {
    let st = start();
    let vp: Vec<i32> = Side::ALL.iter().map(|s| st.sides[*s].vp).collect();
    assert_eq!(vp, [21, 18, 8], "titans, aeug, neo_zeon (plan §12/F2)");
    let axis = &st.bases["axis"];
    assert_eq!(
        (axis.governor, axis.level, axis.place),
        (Some(Side::NeoZeon), 3, Some(Place::Belt))
    );
    for b in ["side_3", "side_6", "gryps_2"] {
        assert_eq!((st.bases[b].governor, st.bases[b].level), (None, 0), "{b}");
    }
    assert!(
        st.bases["gryps_2"].place.is_none(),
        "31.1: it appears on turn 5"
    );
    assert_eq!(st.bases["granada"].level, 3);
    assert_eq!(st.bases["dublin"].governor, Some(Side::Aeug));
    let t = &st.sides[Side::Titans];
    assert!(t.factory.is_empty(), "A-2");
    assert_eq!(t.stock.get("hizack"), Some(&3), "10 in the mix, 7 set up");
    assert_eq!(t.stock.get("jupitris"), Some(&1));
    assert!(t.permitted.contains("hizack") && !t.permitted.contains("marasai"));
    assert!(
        !st.sides[Side::NeoZeon].permitted.contains("zaku2_kai"),
        "A-9"
    );
    for s in Side::ALL {
        assert_eq!(st.sides[*s].hand.len(), 5, "10.2");
    }
    assert_eq!(st.stage, Stage::Packet { turn: 1 });
    assert!(
        st.nuke.base.is_none(),
        "chosen in Titans' turn-1 packet (Z-1)"
    );
}

#[test]
fn the_state_round_trips_through_its_yaml() {
    let st = start();
    let text = crate::yaml::to_string(&st);
    let mut back: State = crate::yaml::parse(&text, "state.yaml").unwrap();
    Zeta.attach(&mut back, Zeta.data_of(&st));
    assert_eq!(back, st);
}

#[test]
fn the_first_step_waits_for_all_three_seats() {
    let st = start();
    match Zeta.phase(&st) {
        Phase::Waiting { sides, .. } => assert_eq!(sides, ["titans", "aeug", "neo_zeon"]),
        other => panic!("{other:?}"),
    }
}

/// Plan §1.7: an empty packet keeps every standing default, so each seat may send one.
#[test]
fn an_empty_packet_is_accepted_from_every_seat_and_the_nuke_base_only_from_titans() {
    let st = start();
    for side in Side::NAMES {
        assert_eq!(Zeta.check(&st, side, &Default::default()), vec![], "{side}");
    }
    let o = super::orders::Orders {
        nuke_base: Some("odessa".into()),
        ..Default::default()
    };
    // The nuke base is judged (36.1-36.3): from Titans it is accepted, from AEUG refused.
    let problems = Zeta.check(&st, "titans", &o);
    assert!(
        !problems
            .iter()
            .any(|p| p.rule.as_deref().is_some_and(|r| r.starts_with("36"))),
        "{problems:?}"
    );
    let problems = Zeta.check(&st, "aeug", &o);
    assert!(
        problems.iter().any(|p| p.rule.as_deref() == Some("36.1")),
        "{problems:?}"
    );
}

#[test]
fn a_view_shows_a_hand_only_to_its_owner_and_the_nuke_only_to_titans() {
    let mut st = start();
    st.nuke.base = Some("odessa".into());
    let public = Zeta.view(&st, &Reader::Public);
    assert!(public.mine.is_none());
    assert_eq!(public.nuke.status, "hidden");
    assert_eq!(public.nuke.possible.len(), 4);
    let aeug = Zeta.view(&st, &Reader::Side("aeug".into()));
    assert!(
        aeug.mine
            .as_ref()
            .is_some_and(|m| m.nuke_base.is_none() && m.hand.len() == 5)
    );
    let titans = Zeta.view(&st, &Reader::Side("titans".into()));
    assert_eq!(
        titans.mine.and_then(|m| m.nuke_base).as_deref(),
        Some("odessa")
    );
    let text = crate::yaml::to_string(&aeug);
    assert!(!text.contains("nuke_base"), "{text}");
}

#[test]
fn an_unknown_scenario_is_refused_with_the_list() {
    let err = Zeta
        .initial_state("a_baoa_qu", &DataSource::default())
        .unwrap_err();
    assert!(err.contains("gryps"), "{err}");
}

fn dice() -> crate::protocol::dice::Dice {
    use crate::protocol::hash::Hash32;
    crate::protocol::dice::Dice::new(Hash32([7; 32]), Hash32([9; 32]))
}

#[test]
fn the_step_machine_runs_a_packet_over_the_stubs_to_the_first_phase() {
    // Armament and deployment are stubs: nothing is bought; the cards are chosen by default
    // (plan §1.7), shuffled and drawn until a phase needs its faction's orders (commit 5).
    let st = start();
    let orders = BTreeMap::new();
    let r = Zeta.resolve(&st, &orders, &mut dice()).unwrap();
    assert!(
        matches!(r.state.stage, Stage::Phase { turn: 1, .. }),
        "{:?}",
        r.state.stage
    );
    assert_eq!(r.state.units, st.units, "the stubs changed nothing");
}

#[test]
fn an_ask_step_without_its_stopped_phase_is_refused() {
    let mut st = start();
    st.stage = Stage::Ask {
        turn: 10,
        k: 1,
        who: Side::Aeug,
        why: super::state::AskWhy::Checkpoint(super::state::Checkpoint::BeforeCombat),
    };
    let err = Zeta
        .resolve(&st, &BTreeMap::new(), &mut dice())
        .unwrap_err();
    // An ask step resumes the phase stored in `pending` (ask.rs); without one it is refused.
    assert!(err.contains("without a stopped phase"), "{err}");
}

#[test]
fn unit_ids_count_per_side_and_type_z_8() {
    let mut st = start();
    assert!(st.units.contains_key("a-gm2-5") && st.units.contains_key("t-gm2-5"));
    assert_eq!(st.new_unit_id(Side::Titans, "gm2"), "t-gm2-6");
    assert_eq!(st.new_unit_id(Side::NeoZeon, "gaza_c"), "n-gaza-c-9");
}

#[test]
fn a_part_sent_in_the_wrong_step_is_named_with_the_step_it_belongs_to() {
    let st = start();
    let o: super::orders::Orders = crate::yaml::parse(
        "speech: {at: side_2}\njoin: defender\ncards: [space, ground, atmosphere]\n",
        "o",
    )
    .unwrap();
    let problems = Zeta.check(&st, "aeug", &o);
    let text: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect();
    let has = |s: &str| text.iter().any(|t| t.contains(s));
    assert!(
        has("orders.speech: `speech` belongs to the action phase steps"),
        "{text:?}"
    );
    assert!(
        has("orders.join: `join` belongs to the ask steps"),
        "{text:?}"
    );
    assert!(!has("orders.cards: `cards` belongs"), "{text:?}");
}

#[test]
fn a_state_with_a_stopped_phase_round_trips_through_yaml_and_json() {
    use super::state::{AskWhy, Card, CardKind, Pending, PhaseCursor, PhaseSnapshot, Slot};
    let mut st = start();
    let at = Loc::parse("space:H05").unwrap();
    let card = Card {
        side: Side::Aeug,
        kind: CardKind::Space,
        copy: 2,
    };
    let mut snapshot = PhaseSnapshot::default();
    snapshot
        .others_in
        .insert(at, [Side::Titans].into_iter().collect());
    snapshot
        .levels
        .insert("granada".into(), (Some(Side::Aeug), 3));
    st.drawn.push(card);
    st.stage = Stage::Ask {
        turn: 1,
        k: 1,
        who: Side::NeoZeon,
        why: AskWhy::Join { at },
    };
    st.pending = Some(Pending {
        who: Side::NeoZeon,
        why: AskWhy::Join { at },
        cursor: PhaseCursor {
            k: 1,
            card,
            slot: Slot::Combats,
            snapshot,
            combats_done: vec![at],
            combat_orders_done: 0,
        },
        rest: super::orders::PhaseOrders {
            speech: Some("side_2".into()),
            ..Default::default()
        },
    });
    let text = crate::yaml::to_string(&st);
    let mut back: State = crate::yaml::parse(&text, "state.yaml").unwrap();
    Zeta.attach(&mut back, Zeta.data_of(&st));
    assert_eq!(back, st, "{text}");
    let json = serde_json::to_string(&st).unwrap();
    let mut back: State = serde_json::from_str(&json).unwrap();
    Zeta.attach(&mut back, Zeta.data_of(&st));
    assert_eq!(back, st);
    // The stopped orders are host-only (plan §2.1).
    let view = crate::yaml::to_string(&Zeta.view(&st, &Reader::Side("neo_zeon".into())));
    assert!(
        !view.contains("speech") && !view.contains("pending"),
        "{view}"
    );
    let own = Zeta.view(&st, &Reader::Side("aeug".into()));
    assert_eq!(
        own.mine
            .and_then(|m| m.pending)
            .and_then(|p| p.speech)
            .map(|s| s.at)
            .as_deref(),
        Some("side_2"),
        "its own stopped orders are shown to the acting side"
    );
}
