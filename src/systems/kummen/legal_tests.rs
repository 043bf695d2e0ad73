//! Legality is written once per order item: the choices the template lists and a bot picks
//! from (`steps::choices`, `steps::policy_choices`, `steps::override_choices`) are accepted by
//! `check`, for every side at every step of played games; and for the kinds whose legal values
//! can be listed, whatever `check` accepts is among the choices (candidates generated from the
//! state: random walks from every unit, every unit and token, every hex).

use super::Kummen;
use super::data::Side;
use super::fixtures::*;
use super::orders::{
    Action, HeliMove, HeliTrigger, HideGroup, KINDS, MoveOrder, Orders, PolicyPatch, RetreatTo,
    RetreatWhen, RuleOr, SurveyOrder, TriggerPhase,
};
use super::state::{Place, State, Step};
use super::steps::{self, Choices};
use crate::kit::hex::Hex;
use crate::kit::seats::Seat;
use crate::systems::{Problem, Rules};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::BTreeSet;

fn check(s: &State, side: Side, o: &Orders) -> Vec<Problem> {
    Kummen.check(s, side.name(), o)
}

fn accepted(s: &State, side: Side, o: &Orders) -> bool {
    check(s, side, o).is_empty()
}

/// `n` in 0..len, from the test's seeded generator.
fn pick(rng: &mut ChaCha20Rng, len: usize) -> usize {
    (rng.next_u64() % len.max(1) as u64) as usize
}

/// Games whose asked sides each send one choice a step, picked at random among the item
/// choices and, now and then, a policy value with it: they reach states the demo script does
/// not (other moves, surveys, reactions), and `check` must accept every order they send.
fn random_games() -> Vec<State> {
    let mut out = Vec::new();
    for game in 0..3u32 {
        let mut rng = ChaCha20Rng::seed_from_u64(u64::from(game));
        out.extend(played(100 + game, 60, |s, n, side| {
            let items = steps::choices(s, side).orders();
            let mut o = if items.is_empty() {
                Orders::default()
            } else {
                items[pick(&mut rng, items.len())].clone()
            };
            if pick(&mut rng, 4) == 0 {
                let policies = steps::policy_choices(s, side);
                o.policies = policies[pick(&mut rng, policies.len())].clone();
            }
            let p = check(s, side, &o);
            assert!(p.is_empty(), "game {game} step {n}: {o:?}: {p:?}");
            o
        }));
    }
    out
}

/// The states the properties are checked in: two demo games to their end and the random games.
fn states() -> Vec<State> {
    let mut v = demo_game(0);
    v.extend(demo_game(1));
    v.extend(random_games());
    v
}

#[test]
fn every_choice_is_accepted_by_check_for_every_side_at_every_step_of_played_games() {
    let mut checked = 0;
    for s in states() {
        for &side in Side::ALL {
            for o in steps::choices(&s, side).orders() {
                let p = check(&s, side, &o);
                assert!(p.is_empty(), "{:?} {}: {o:?}: {p:?}", s.step, side.name());
                checked += 1;
            }
        }
    }
    assert!(
        checked > 10_000,
        "only {checked} choices: the games are too short"
    );
}

#[test]
fn the_template_names_every_unit_and_hex_of_the_choices() {
    for s in demo_game(0) {
        for side in asked(&s) {
            let t = Kummen.template(&s, side.name());
            let c = steps::choices(&s, side);
            let mut names: BTreeSet<String> = BTreeSet::new();
            for m in c.moves.iter().chain(&c.react) {
                names.insert(m.unit.clone());
                names.extend(m.path.last().map(|h| h.label()));
            }
            names.extend(c.flip_up.iter().chain(&c.hide).chain(&c.reveal).cloned());
            names.extend(c.hide_at_start.iter().map(|g| g.hex.label()));
            names.extend(c.survey.iter().map(|o| o.hex.label()));
            for (heli, cargo) in &c.cargo {
                names.insert(heli.clone());
                names.extend(cargo.iter().cloned());
            }
            for n in names {
                assert!(t.contains(&n), "{n} is missing:\n{t}");
            }
        }
    }
}

#[test]
fn every_policy_value_and_override_hex_is_accepted_by_check_for_both_sides() {
    let game = demo_game(0);
    // Policy legality reads only the map and the counters: the first and last states do.
    for s in [&game[0], &game[game.len() - 1]] {
        for &side in Side::ALL {
            let patches = steps::policy_choices(s, side);
            assert!(patches.len() > 300, "{}", patches.len());
            for p in patches {
                let o = Orders {
                    policies: p,
                    ..Orders::default()
                };
                assert_eq!(check(s, side, &o), vec![], "{o:?}");
            }
            for c in steps::override_choices(s) {
                let o = Orders {
                    combat_overrides: vec![c],
                    ..Orders::default()
                };
                assert_eq!(check(s, side, &o), vec![], "{o:?}");
            }
        }
    }
}

/// A random walk of `len` hexes from `from` (off the map never: the map rules are not what
/// this looks for).
fn walk(s: &State, rng: &mut ChaCha20Rng, from: Hex, len: usize) -> Vec<Hex> {
    let mut at = from;
    (0..len)
        .map(|_| {
            let next = s.map.grid.neighbours(at);
            at = next[pick(rng, next.len())].1;
            at
        })
        .collect()
}

fn ends(moves: &[MoveOrder]) -> BTreeSet<(String, Hex)> {
    moves
        .iter()
        .filter_map(|m| m.path.last().map(|h| (m.unit.clone(), *h)))
        .collect()
}

fn action(a: Action) -> Orders {
    Orders {
        actions: vec![a],
        ..Orders::default()
    }
}

fn move_order(unit: &str, path: Vec<Hex>) -> Action {
    Action {
        mv: Some(MoveOrder {
            unit: unit.into(),
            path,
        }),
        ..Action::default()
    }
}

fn flight(heli: &str, path: Vec<Hex>, cargo: Option<String>) -> Action {
    Action {
        heli: Some(HeliMove {
            heli: heli.into(),
            path,
            cargo,
        }),
        ..Action::default()
    }
}

/// Every name that might name a unit of `side`: every unit id, and the tokens of face-down
/// units of both sides.
fn all_names(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.units.keys().cloned().collect();
    for (id, u) in &s.units {
        if u.place == Place::Map && !u.face_up {
            v.push(s.public_name(id));
        }
    }
    v
}

/// Asserts that every move, flight and reaction `check` accepts from random walks ends in a
/// hex the choices list for its unit; returns how many it accepted.
fn accepted_paths_are_choices(s: &State, side: Side, c: &Choices, rng: &mut ChaCha20Rng) -> usize {
    let mut count = 0;
    let (moves, flights, react) = (
        ends(&c.moves),
        c.flights
            .iter()
            .filter_map(|f| f.path.last().map(|h| (f.heli.clone(), *h)))
            .collect::<BTreeSet<_>>(),
        ends(&c.react),
    );
    for (id, u) in &s.units {
        let Some(from) = u.hex.filter(|_| u.place == Place::Map) else {
            continue;
        };
        if s.side_of(id) != Some(side) {
            continue;
        }
        for _ in 0..12 {
            let mut try_one = |o: Orders, listed: &BTreeSet<(String, Hex)>, end: Hex| {
                if accepted(s, side, &o) {
                    assert!(listed.contains(&(id.clone(), end)), "{o:?} is not listed");
                    count += 1;
                }
            };
            match s.step {
                Step::B1 | Step::M1 if s.is_heli(id) => {
                    let len = 1 + pick(rng, 10);
                    let path = walk(s, rng, from, len);
                    let end = path[len - 1];
                    try_one(action(flight(id, path, None)), &flights, end);
                }
                Step::B1 | Step::M1 => {
                    let len = 1 + pick(rng, 6);
                    let path = walk(s, rng, from, len);
                    let end = path[len - 1];
                    try_one(action(move_order(id, path)), &moves, end);
                }
                Step::B2 => {
                    let len = 1 + pick(rng, 3);
                    let path = walk(s, rng, from, len);
                    let end = path[len - 1];
                    let o = Orders {
                        react: vec![MoveOrder {
                            unit: id.clone(),
                            path,
                        }],
                        ..Orders::default()
                    };
                    try_one(o, &react, end);
                }
                Step::Setup | Step::Over => {}
            }
        }
    }
    count
}

/// Asserts that every unit `check` accepts to flip, hide, reveal or carry, and every hex it
/// accepts to hide in at the start or to survey, is among the choices.
fn accepted_units_and_hexes_are_choices(s: &State, side: Side, c: &Choices) {
    let listed =
        |v: &[String], name: &str| s.find_own(side, name).is_some_and(|id| v.contains(&id));
    for name in all_names(s) {
        let o = action(Action {
            flip_up: Some(name.clone()),
            ..Action::default()
        });
        assert!(!accepted(s, side, &o) || listed(&c.flip_up, &name), "{o:?}");
        let o = action(Action {
            hide: Some(vec![name.clone()]),
            ..Action::default()
        });
        assert!(!accepted(s, side, &o) || listed(&c.hide, &name), "{o:?}");
        let o = Orders {
            reveal: vec![name.clone()],
            ..Orders::default()
        };
        assert!(!accepted(s, side, &o) || listed(&c.reveal, &name), "{o:?}");
        for (heli, cargo) in &c.cargo {
            let Some(first) = c.flights.iter().find(|f| f.heli == *heli) else {
                continue;
            };
            let o = action(flight(heli, first.path.clone(), Some(name.clone())));
            assert!(!accepted(s, side, &o) || listed(cargo, &name), "{o:?}");
        }
    }
    for hex in s.map.grid.all() {
        let units: Vec<String> = s
            .side_units_in(hex, side)
            .into_iter()
            .filter(|id| s.unit(id).is_some_and(|u| u.face_up))
            .collect();
        let o = Orders {
            hide_at_start: vec![HideGroup { hex, units }],
            ..Orders::default()
        };
        if accepted(s, side, &o) && !o.hide_at_start[0].units.is_empty() {
            assert!(c.hide_at_start.iter().any(|g| g.hex == hex), "{o:?}");
        }
        let o = Orders {
            survey: vec![SurveyOrder {
                hex,
                units: None,
                targets: Vec::new(),
                stop_after: None,
            }],
            ..Orders::default()
        };
        if accepted(s, side, &o) {
            assert!(c.survey.iter().any(|v| v.hex == hex), "{o:?}");
        }
    }
}

#[test]
fn every_unit_and_hex_check_accepts_is_among_the_choices_in_played_games() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut states = demo_game(0);
    states.extend(random_games());
    let mut paths = 0;
    for s in &states {
        for side in asked(s) {
            let c = steps::choices(s, side);
            paths += accepted_paths_are_choices(s, side, &c, &mut rng);
            accepted_units_and_hexes_are_choices(s, side, &c);
        }
    }
    assert!(paths > 1_000, "only {paths} random paths were legal");
}

#[test]
fn every_policy_value_check_accepts_is_among_the_policy_choices() {
    let s = &demo_game(0)[0];
    let mut names: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
    names.extend(all_names(s));
    names.extend(["B#1", "M#1", "nobody"].map(String::from));
    let mut hexes = s.map.grid.all();
    hexes.push(Hex::parse("Z99").unwrap());
    let trigger = |when: Hex, cargo: Vec<String>| HeliTrigger {
        when_beeler_in: vec![when],
        cargo,
        phase: TriggerPhase::Both,
        ..HeliTrigger::default()
    };
    let palace = s.map.home(Side::Beeler);
    let mut candidates: Vec<PolicyPatch> = (0..=12)
        .map(|v| PolicyPatch {
            rp_target: Some(v),
            ..PolicyPatch::default()
        })
        .collect();
    for h in &hexes {
        candidates.push(PolicyPatch {
            hex_order: Some(vec![*h]),
            ..PolicyPatch::default()
        });
        candidates.push(PolicyPatch {
            retreat_to: Some(RetreatTo {
                hexes: vec![*h],
                ..RetreatTo::default()
            }),
            ..PolicyPatch::default()
        });
        candidates.push(PolicyPatch {
            heli_triggers: Some(vec![trigger(*h, Vec::new())]),
            ..PolicyPatch::default()
        });
    }
    for n in &names {
        let one = vec![n.clone()];
        candidates.extend([
            PolicyPatch {
                ps_partner: Some(RuleOr::Prefer(one.clone())),
                ..PolicyPatch::default()
            },
            PolicyPatch {
                targets: Some(RuleOr::Prefer(one.clone())),
                ..PolicyPatch::default()
            },
            PolicyPatch {
                base_targets: Some(RuleOr::Prefer(one.clone())),
                ..PolicyPatch::default()
            },
            PolicyPatch {
                retreat: Some(RetreatWhen::EnemyHas(one.clone())),
                ..PolicyPatch::default()
            },
            PolicyPatch {
                heli_cargo: Some(one.clone()),
                ..PolicyPatch::default()
            },
            PolicyPatch {
                heli_triggers: Some(vec![trigger(palace, one)]),
                ..PolicyPatch::default()
            },
        ]);
    }
    for &side in Side::ALL {
        let choices = steps::policy_choices(s, side);
        for p in &candidates {
            let o = Orders {
                policies: p.clone(),
                ..Orders::default()
            };
            if accepted(s, side, &o) {
                assert!(choices.contains(p), "{} {p:?}", side.name());
            }
        }
    }
}

#[test]
fn a_heli_trigger_may_not_name_kiriko_as_cargo_5_11_5_a3() {
    let o: Orders = crate::yaml::parse(
        "policies: {heli_triggers: [{when_beeler_in: [G10], cargo: [M-KIRIKO]}]}\n",
        "o",
    )
    .unwrap();
    let p = check(&blank(), Side::Mercenary, &o);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        p[0].path.to_string(),
        "orders.policies.heli_triggers[0].cargo[0]"
    );
    assert_eq!(p[0].rule.as_deref(), Some("5.11.5"));
}
