//! Whole-step tests of the kummen system: setup, the turn loop, templates, the demo script and
//! the hidden-information property.

use super::data::Side;
use super::fixtures::demo_orders;
use super::orders::Orders;
use super::state::{Place, State, Step, permute_hidden};
use super::{Kummen, setup};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::{DataSource, Phase, Reader, Resolution, Rules};
use crate::yaml;
use std::collections::BTreeMap;

fn h(s: &str) -> Hex {
    Hex::parse(s).unwrap()
}

fn dice(seed: u64, step: u64) -> Dice {
    let mut a = [0u8; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    a[8..16].copy_from_slice(&step.to_le_bytes());
    Dice::new(Hash32(a), Hash32([0x5a; 32]))
}

fn fresh() -> State {
    Kummen
        .initial_state("campaign", &DataSource::default())
        .unwrap()
}

/// Resolves one step, asserting every order checks clean and no dice label is reused.
fn step(state: &State, orders: &[(Side, Orders)], seed: u64, n: u64) -> Resolution<State> {
    let mut map = BTreeMap::new();
    for (side, o) in orders {
        let problems = Kummen.check(state, side.name(), o);
        assert!(
            problems.is_empty(),
            "step {n}: {} orders rejected: {problems:?}",
            side.name()
        );
        map.insert(side.name().to_string(), o.clone());
    }
    let mut d = dice(seed, n);
    let res = Kummen.resolve(state, &map, &mut d).unwrap();
    if let Err(e) = d.finish() {
        panic!("step {n}: dice defects {e:?}");
    }
    res
}

/// Orders for whichever sides the state waits for: defaults.
fn defaults(state: &State) -> Vec<(Side, Orders)> {
    match Kummen.phase(state) {
        Phase::Waiting { sides, .. } => sides
            .iter()
            .filter_map(|s| Side::parse(s))
            .map(|s| (s, Orders::default()))
            .collect(),
        Phase::Finished(_) => vec![],
    }
}

#[test]
fn setup_places_units_as_15_1_and_15_2_say() {
    let mut s = fresh();
    let mut d = dice(1, 1);
    let mut log = super::state::Log::default();
    setup::place_units(&mut s, &mut d, &mut log);
    let count = |hex: &str, side: Side| {
        s.side_units_in(h(hex), side)
            .iter()
            .filter(|id| !s.is_heli(id))
            .count()
    };
    assert_eq!(count("B08", Side::Mercenary), 8); // Kan-Yu + 7
    assert_eq!(count("E07", Side::Mercenary), 5);
    assert_eq!(count("G10", Side::Mercenary), 1);
    assert_eq!(count("O06", Side::Beeler), 9); // Blue AT + 8
    assert_eq!(count("N03", Side::Beeler), 5);
    assert_eq!(count("J10", Side::Beeler), 2);
    assert_eq!(count("K07", Side::Beeler), 5);
    assert_eq!(count("M11", Side::Beeler), 2);
    assert_eq!(s.hex_of("M-KANYU"), Some(h("B08")));
    assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
    // Everything face-down except the two helis, which are face-up (15.1-3).
    for (id, u) in &s.units {
        if u.place == Place::Map {
            assert_eq!(u.face_up, s.is_heli(id), "{id}");
        }
    }
    assert_eq!(
        s.side_units_in(h("B08"), Side::Mercenary)
            .iter()
            .filter(|id| s.is_heli(id))
            .count(),
        2
    );
    // Tokens follow placement order: palace first for the beeler side.
    let palace_tokens: Vec<u32> = s
        .side_units_in(h("O06"), Side::Beeler)
        .iter()
        .filter_map(|id| s.unit(id).and_then(|u| u.token))
        .collect();
    let mut sorted = palace_tokens.clone();
    sorted.sort();
    assert_eq!(sorted, (1..=9).collect::<Vec<_>>());
    assert_eq!(s.cups[Side::Mercenary].len(), 28 - 13);
    assert_eq!(s.cups[Side::Beeler].len(), 36 - 22);
    let t = d.finish().unwrap();
    assert!(t.public.is_empty(), "setup draws are sealed");
}

#[test]
fn setup_step_runs_turn_1_reinforcement_and_waits_for_b1() {
    let s = fresh();
    assert_eq!(
        Kummen.phase(&s),
        Phase::Waiting {
            title: super::view::step_title(&s).0,
            sides: vec!["mercenary".into(), "beeler".into()]
        }
    );
    let r = step(&s, &defaults(&s), 7, 1);
    assert_eq!(r.state.step, Step::B1);
    assert!(
        r.public
            .iter()
            .any(|e| e.contains("beeler has 9 BP (4.3.1)"))
    );
    assert!(r.public.iter().any(|e| e.contains("(4.4.4)")));
    // Private draws go to their owner only; public events never name a face-down identity.
    assert!(r.private.contains_key("beeler") && r.private.contains_key("mercenary"));
    for e in &r.public {
        assert!(
            !e.contains("B-AT") && !e.contains("B-SO"),
            "public leak: {e}"
        );
    }
}

#[test]
fn default_orders_play_a_whole_game_to_its_end_14_1() {
    for seed in 0..3u64 {
        let mut s = fresh();
        let mut n = 1;
        while s.step != Step::Over {
            assert!(n < 60, "the game does not end");
            for reader in [
                Reader::Side("mercenary".into()),
                Reader::Side("beeler".into()),
                Reader::Public,
            ] {
                let v = Kummen.view(&s, &reader);
                assert!(!Kummen.render(&v).is_empty());
            }
            let r = step(&s, &defaults(&s), seed, n);
            s = r.state;
            // The state survives a YAML round trip unchanged, once its game's data is attached
            // again (the file holds only what changes).
            let text = yaml::to_string(&s);
            let mut back: State = yaml::parse(&text, "state").unwrap();
            Kummen.attach(&mut back, Kummen.data_of(&s));
            assert_eq!(back, s);
            assert!(!text.contains("counters:") && !text.contains("\nmap:"));
            n += 1;
        }
        assert!(matches!(Kummen.phase(&s), Phase::Finished(_)));
        assert!((8..=11).contains(&s.turn) || s.ending.is_some());
    }
}

#[test]
fn templates_parse_and_check_clean_at_every_step() {
    let mut s = fresh();
    for n in 1..=9 {
        for &side in Side::ALL {
            let t = Kummen.template(&s, side.name());
            assert!(t.starts_with("orders:"), "{t}");
            #[derive(serde::Deserialize)]
            struct Wrap {
                orders: Orders,
            }
            let w: Wrap = yaml::parse(&t, "template").unwrap_or_else(|e| panic!("{e}\n{t}"));
            let (_, asked) = super::view::step_title(&s);
            if asked.contains(&side) {
                let p = Kummen.check(&s, side.name(), &w.orders);
                assert!(p.is_empty(), "{p:?}\n{t}");
            }
        }
        s = step(&s, &defaults(&s), 3, n).state;
    }
}

#[test]
fn demo_script_is_valid_whatever_the_dice_and_shows_movement_reaction_and_combat() {
    for seed in 0..25u64 {
        let mut s = fresh();
        let mut all = Vec::new();
        for n in 1..=7u64 {
            let Phase::Waiting { sides, .. } = Kummen.phase(&s) else {
                panic!("game ended early");
            };
            let orders: Vec<(Side, Orders)> = sides
                .iter()
                .filter_map(|x| Side::parse(x))
                .map(|side| (side, demo_orders(n, side).unwrap_or_default()))
                .collect();
            let r = step(&s, &orders, seed, n);
            all.extend(r.public.clone());
            s = r.state;
        }
        let has = |needle: &str| all.iter().any(|e| e.contains(needle));
        assert!(has("B#15 moves J10→I10→H10→G10"), "seed {seed}");
        assert!(has("heli M-H01 flies"), "seed {seed}: {all:#?}");
        assert!(has("carrying M-KANYU"), "seed {seed}");
        assert!(has("/combat/G10"), "seed {seed}");
        assert!(has("surveys F07"), "seed {seed}");
        assert!(has("B-BLUE moves O06→O05"), "seed {seed}");
        assert_eq!(s.turn, 3);
    }
}

/// The hidden ids of `side`: face-down units on the map, then the cup.
fn hidden_count(s: &State, side: Side) -> usize {
    s.units
        .iter()
        .filter(|(id, u)| {
            s.side_of(id) == Some(side) && u.place == Place::Map && !u.face_up && !s.is_heli(id)
        })
        .count()
        + s.cups.get(side).len()
}

fn rendered(s: &State, reader: &Reader) -> (String, String) {
    let v = Kummen.view(s, reader);
    (yaml::to_string(&v), Kummen.render(&v))
}

#[test]
fn views_do_not_depend_on_the_opponents_hidden_identities_3() {
    let s0 = fresh();
    let s = step(&s0, &defaults(&s0), 11, 1).state;
    for &side in Side::ALL {
        let n = hidden_count(&s, side);
        // Reverse and rotate: two permutations that move every unit.
        for perm in [
            (0..n).rev().collect::<Vec<_>>(),
            (0..n).map(|i| (i + 1) % n).collect(),
        ] {
            let p = permute_hidden(&s, side, &perm).expect("a permutation of the hidden slots");
            assert_ne!(p, s, "the permutation must change the state");
            for reader in [Reader::Side(side.other().name().into()), Reader::Public] {
                assert_eq!(rendered(&s, &reader), rendered(&p, &reader));
            }
            // The owner does see the difference.
            let own = Reader::Side(side.name().into());
            assert_ne!(rendered(&s, &own), rendered(&p, &own));
        }
    }
}

#[test]
fn resolving_b1_does_not_leak_beeler_identities_into_public_events_or_the_mercenary_view() {
    for seed in 0..6u64 {
        let s0 = fresh();
        let s = step(&s0, &defaults(&s0), seed, 1).state;
        let n = hidden_count(&s, Side::Beeler);
        let perm: Vec<usize> = (0..n).rev().collect();
        let p = permute_hidden(&s, Side::Beeler, &perm).expect("a permutation of the hidden slots");
        // The same tokens move in both worlds (to hexes where no rule reveals them); the orders
        // name them by id, mapped accordingly.
        let map_ids = |st: &State| -> Orders {
            let by_token = |t: &str| st.find_own(Side::Beeler, t).unwrap();
            let text = format!(
                "actions:\n  - move: {{unit: {}, path: [J07, I07]}}\n  - move: {{unit: {}, path: [I10, H10]}}\n",
                by_token("B#17"),
                by_token("B#15")
            );
            yaml::parse(&text, "o").unwrap()
        };
        let (oa, ob) = (map_ids(&s), map_ids(&p));
        assert_ne!(oa, ob, "the orders must name different ids");
        let ra = step(&s, &[(Side::Beeler, oa)], seed, 2);
        let rb = step(&p, &[(Side::Beeler, ob)], seed, 2);
        assert_eq!(ra.public, rb.public, "seed {seed}");
        assert_eq!(ra.private.get("mercenary"), rb.private.get("mercenary"));
        for reader in [Reader::Side("mercenary".into()), Reader::Public] {
            assert_eq!(rendered(&ra.state, &reader), rendered(&rb.state, &reader));
        }
    }
}

#[test]
fn orders_out_of_step_are_refused_with_their_field() {
    let s0 = fresh();
    let s = step(&s0, &defaults(&s0), 2, 1).state;
    let o: Orders = yaml::parse("survey: [{hex: K07}]\n", "o").unwrap();
    let p = Kummen.check(&s, "beeler", &o);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].path.to_string(), "orders.survey");
    // Whether a side is asked at all is the engine's check; the content of `{}` is fine.
    assert!(Kummen.check(&s, "mercenary", &Orders::default()).is_empty());
    let o: Orders = yaml::parse("actions: [{flip_up: M-AT01}]\n", "o").unwrap();
    let p = Kummen.check(&s, "mercenary", &o);
    assert_eq!(p[0].path.to_string(), "orders.actions");
    let o: Orders = yaml::parse("actions:\n  - move: {unit: B-NOPE, path: [O05]}\n", "o").unwrap();
    let p = Kummen.check(&s, "beeler", &o);
    assert_eq!(p[0].path.to_string(), "orders.actions[0].move.unit");
    let o: Orders = yaml::parse("policies: {heli_triggers: []}\n", "o").unwrap();
    let p = Kummen.check(&s, "beeler", &o);
    assert_eq!(p[0].path.to_string(), "orders.policies.heli_triggers");
}

#[test]
fn a_policy_sent_in_any_order_is_kept_for_later_steps() {
    let s0 = fresh();
    let o: Orders = yaml::parse("policies: {retreat: never}\n", "o").unwrap();
    let r = step(
        &s0,
        &[(Side::Mercenary, o), (Side::Beeler, Orders::default())],
        4,
        1,
    );
    assert_eq!(
        r.state.policies[Side::Mercenary].retreat,
        super::orders::RetreatWhen::Never
    );
    // The policy is private: the beeler view does not show it.
    let v = Kummen.view(&r.state, &Reader::Side("beeler".into()));
    assert_eq!(v.policies, Some(r.state.policies[Side::Beeler].clone()));
}

#[test]
fn a_rules_1_state_is_carried_over_with_its_policy_as_policies() {
    let old = include_str!("../../../tests/fixtures/rules1-kummen/game/host/state/000002.yaml");
    let st = Rules::upgrade_state(&Kummen, 1, old, None).unwrap();
    assert_eq!(st.step, Step::M1);
    assert_eq!(st.policies[Side::Beeler].rp_target, 4);
    assert_eq!(st.policies[Side::Mercenary].heli_triggers[0].helis, 2);
}
