//! Legality is written once per order item: the choices the template lists and a bot picks
//! from (`steps::choices`, `policy::policy_choices`) are accepted by `check`, for every side at
//! every step of played games (the demo script and random games of both scenarios); and for the
//! kinds whose legal values can be listed, whatever `check` accepts is among the choices
//! (candidates from the state: every card, unit, unit type and hex, random walks from each
//! unit). Dougram's `check` judges the orders on the state they were written for and refuses
//! only what is certain to be wrong when the item comes (units move, cards are played and units
//! created before a later phase); where the phase judges an item again by a rule of the moment
//! (a combat needs units of both sides, latency a hex with soldiers, a move the control and
//! flags of the phase), the choices hold what the phase would carry out now, and the candidates
//! are held to that rule too.

use super::Dougram;
use super::cards::{Flag, StepName};
use super::data::{Class, HexId, HexRef, Side};
use super::fixtures::*;
use super::movement::{Memory, Mode, Move, SeaOrder, TransportOrder};
use super::orders::{Orders, Play, phases, played_cards};
use super::replenish::{Convert, FortressOrder};
use super::state::{State, UnitAt};
use super::steps::{self, Choices};
use super::{combat, latency, movement, policy, replenish, security};
use crate::kit::seats::Seat;
use crate::systems::{Problem, Rules};
use crate::yaml::FieldPath;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};

fn check(s: &State, side: Side, o: &Orders) -> Vec<Problem> {
    Dougram.check(s, side.name(), o)
}

fn accepted(s: &State, side: Side, o: &Orders) -> bool {
    check(s, side, o).is_empty()
}

/// `n` in 0..len, from the test's seeded generator.
fn pick(rng: &mut ChaCha20Rng, len: usize) -> usize {
    (rng.next_u64() % len.max(1) as u64) as usize
}

/// `item` added to `o`: lists extended, single values replaced.
fn merge(o: &mut Orders, item: &Orders) {
    let i = item.clone();
    o.discard_to_six = i.discard_to_six.or(o.discard_to_six);
    o.play.extend(i.play);
    o.arming.play.extend(i.arming.play);
    o.arming.repair.extend(i.arming.repair);
    o.arming.arm.extend(i.arming.arm);
    o.replenishment.play.extend(i.replenishment.play);
    o.replenishment.to_box = i.replenishment.to_box.or(o.replenishment.to_box.take());
    o.replenishment.convert = i.replenishment.convert.or(o.replenishment.convert.take());
    o.replenishment.soldiers.extend(i.replenishment.soldiers);
    o.replenishment.cbas.extend(i.replenishment.cbas);
    o.replenishment.fortress = i.replenishment.fortress.or(o.replenishment.fortress.take());
    o.movement.moves.extend(i.movement.moves);
    o.combat.combats.extend(i.combat.combats);
    o.latency.skip.extend(i.latency.skip);
    o.latency.counts.extend(i.latency.counts);
    o.security.cards.extend(i.security.cards);
    o.security.groups.extend(i.security.groups);
}

/// The states of [`random_games`], played once for every test of this file.
fn random_game_states() -> &'static [State] {
    static GAMES: std::sync::OnceLock<Vec<State>> = std::sync::OnceLock::new();
    GAMES.get_or_init(random_games)
}

/// Games whose phasing side sends a few of its choices each step, picked at random and kept
/// when `check` accepts them together, and now and then a policy value: they reach states the
/// demo script does not (armings, moves, combats, replenishments, security checks). Every
/// choice picked must be accepted on its own. Half the games start with Lib holding Estor
/// and play no card that wins at once (20.2), so that they last.
fn random_games() -> Vec<State> {
    let mut out = Vec::new();
    for (k, scenario) in ["setup1", "setup2"].into_iter().enumerate() {
        for game in 0..2u64 {
            let seed = 10 * game + k as u64;
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let mut start = super::setup::initial_state(scenario, &Default::default()).unwrap();
            let long = game == 1;
            if long {
                lib_holds_estor(&mut start);
            }
            let decisive: Vec<u32> = start
                .data
                .cards
                .cards
                .iter()
                .filter(|c| {
                    c.while_open
                        .iter()
                        .any(|f| matches!(f, Flag::LacockAssassinated | Flag::PeaceTalks))
                })
                .map(|c| c.no)
                .collect();
            out.extend(played_from(start, 100 + seed, 40, |s, n, side| {
                let items: Vec<Orders> = steps::choices(s, side)
                    .orders()
                    .into_iter()
                    .filter(|o| !long || played_cards(o).iter().all(|c| !decisive.contains(c)))
                    .collect();
                let mut o = Orders::default();
                for _ in 0..8 {
                    if items.is_empty() {
                        break;
                    }
                    let item = &items[pick(&mut rng, items.len())];
                    let p = check(s, side, item);
                    assert!(p.is_empty(), "{scenario} step {n}: {item:?}: {p:?}");
                    let mut trial = o.clone();
                    merge(&mut trial, item);
                    if accepted(s, side, &trial) {
                        o = trial;
                    }
                }
                if pick(&mut rng, 4) == 0 {
                    let policies = policy::policy_choices(s, side);
                    o.policies = policies[pick(&mut rng, policies.len())].clone();
                }
                let p = check(s, side, &o);
                assert!(p.is_empty(), "{scenario} step {n}: {o:?}: {p:?}");
                o
            }));
        }
    }
    out
}

/// The states the properties are checked in: two demo games and the random games.
fn states() -> Vec<State> {
    let mut v = demo_game(0);
    v.extend(demo_game(1));
    v.extend(random_game_states().iter().cloned());
    v
}

#[test]
fn every_choice_is_accepted_by_check_for_every_side_at_every_step_of_played_games() {
    let mut checked = 0;
    let mut kinds = BTreeSet::new();
    for s in states() {
        for &side in Side::ALL {
            for o in steps::choices(&s, side).orders() {
                let p = check(&s, side, &o);
                assert!(p.is_empty(), "{:?} {}: {o:?}: {p:?}", s.step, side.name());
                kinds.insert(format!("{:?}", kind(&o)));
                checked += 1;
            }
        }
    }
    assert!(
        checked > 10_000,
        "only {checked} choices: the games are too short"
    );
    assert!(
        kinds.len() >= 12,
        "only these kinds were offered: {kinds:?}"
    );
}

/// Which part of the orders an item of `Choices::orders` fills.
fn kind(o: &Orders) -> &'static str {
    let parts = [
        ("discard_to_six", o.discard_to_six.is_some()),
        ("play", !o.play.is_empty()),
        ("arming.play", !o.arming.play.is_empty()),
        ("arming.repair", !o.arming.repair.is_empty()),
        ("arming.arm", !o.arming.arm.is_empty()),
        ("replenishment.play", !o.replenishment.play.is_empty()),
        ("replenishment.to_box", o.replenishment.to_box.is_some()),
        ("replenishment.convert", o.replenishment.convert.is_some()),
        (
            "replenishment.soldiers",
            !o.replenishment.soldiers.is_empty(),
        ),
        ("replenishment.cbas", !o.replenishment.cbas.is_empty()),
        ("replenishment.fortress", o.replenishment.fortress.is_some()),
        ("movement", !o.movement.moves.is_empty()),
        ("combat", !o.combat.combats.is_empty()),
        ("latency", o.latency != Default::default()),
        ("security.cards", !o.security.cards.is_empty()),
        ("security.groups", !o.security.groups.is_empty()),
    ];
    parts
        .iter()
        .find(|(_, f)| *f)
        .map(|(k, _)| *k)
        .unwrap_or("")
}

#[test]
fn every_policy_value_is_accepted_by_check_for_both_sides() {
    let game = demo_game(0);
    let open: Vec<&State> = game.iter().filter(|s| s.finished.is_none()).collect();
    // Policy legality reads only the data, the side and the counters: the first and last
    // states of the game do.
    for s in [open[0], open[open.len() - 1]] {
        for &side in Side::ALL {
            let patches = policy::policy_choices(s, side);
            assert!(patches.len() > 100, "{}", patches.len());
            for p in patches {
                let o = Orders {
                    policies: p,
                    ..Orders::default()
                };
                assert_eq!(check(s, side, &o), vec![], "{o:?}");
            }
        }
    }
}

#[test]
fn every_policy_value_check_accepts_is_among_the_policy_choices() {
    use super::cardphase::CardPolicy;
    use super::combat::{CaptureRequest, CombatPolicy, Reaction};
    use super::movement::{MovementPolicy, OverstackPolicy};
    use super::policy::PolicyPatch;
    let s = &demo_game(0)[0];
    let mut names: Vec<String> = s.data.counters.types.keys().cloned().collect();
    names.extend(s.units.keys().cloned());
    names.push("nobody".into());
    let cards: Vec<u32> =
        (0..=s.data.cards.cards.iter().map(|c| c.no).max().unwrap_or(0) + 1).collect();
    let mut candidates: Vec<PolicyPatch> = Vec::new();
    let patch = |f: &dyn Fn(&mut PolicyPatch)| {
        let mut p = PolicyPatch::default();
        f(&mut p);
        p
    };
    for no in &cards {
        for c in [
            CardPolicy {
                keep: vec![*no],
                ..CardPolicy::default()
            },
            CardPolicy {
                stock_wishlist: vec![*no],
                ..CardPolicy::default()
            },
            CardPolicy {
                swap_out: vec![*no],
                ..CardPolicy::default()
            },
        ] {
            candidates.push(patch(&|p| p.card = Some(c.clone())));
        }
        for at in combat::CARD_STEPS {
            let r = Reaction {
                at,
                play: *no,
                ..Reaction::default()
            };
            candidates.push(patch(&|p| {
                p.combat = Some(CombatPolicy {
                    reactions: vec![r.clone()],
                    ..CombatPolicy::default()
                })
            }));
        }
    }
    // Every integer is a capture target number check accepts (13.1): the choices list those
    // a d6 roll tells apart (combat::combat_policy_choices); the keywords are listed.
    for v in [CaptureRequest::Always, CaptureRequest::Never] {
        candidates.push(patch(&|p| {
            p.combat = Some(CombatPolicy {
                capture: Some(v),
                ..CombatPolicy::default()
            })
        }));
    }
    for n in &names {
        candidates.push(patch(&|p| {
            p.combat = Some(CombatPolicy {
                allocation: vec![n.clone()],
                ..CombatPolicy::default()
            })
        }));
        candidates.push(patch(&|p| {
            p.movement = Some(MovementPolicy {
                overstack: OverstackPolicy {
                    shed_first: vec![n.clone()],
                    ..OverstackPolicy::default()
                },
            })
        }));
        candidates.push(patch(&|p| p.sixth_army = Some(vec![n.clone()])));
    }
    for &side in Side::ALL {
        let choices = policy::policy_choices(s, side);
        let mut seen = 0;
        for p in &candidates {
            let o = Orders {
                policies: p.clone(),
                ..Orders::default()
            };
            if accepted(s, side, &o) {
                assert!(choices.contains(p), "{} {p:?}", side.name());
                seen += 1;
            }
        }
        assert!(
            seen > 50,
            "{}: only {seen} candidates accepted",
            side.name()
        );
    }
}

#[test]
fn the_template_names_every_unit_card_and_hex_of_the_choices() {
    let mut states = demo_game(0);
    states.extend(random_game_states().iter().step_by(3).cloned());
    for s in states {
        for side in asked(&s) {
            let t = Dougram.template(&s, side.name());
            let c = steps::choices(&s, side);
            let mut names: BTreeSet<String> = BTreeSet::new();
            for ids in [&c.repair, &c.to_box, &c.soldiers, &c.cbas] {
                names.extend(ids.iter().cloned());
            }
            for cards in [
                &c.discard_to_six,
                &c.arming_play,
                &c.replenishment_play,
                &c.security_cards,
            ] {
                names.extend(cards.iter().map(|n| n.to_string()));
            }
            names.extend(c.play.iter().map(|p| p.card.to_string()));
            names.extend(c.convert.iter().map(|v| format!("{} -> {}", v.unit, v.to)));
            names.extend(
                c.arm
                    .iter()
                    .filter_map(|a| a.hex.as_ref().map(|h| h.to_string())),
            );
            names.extend(c.arm.iter().flat_map(|a| a.create.clone()));
            for m in &c.moves {
                names.extend(m.path.last().map(|h| h.to_string()));
                if let Some(sea) = &m.sea {
                    names.extend(sea.to.as_ref().map(|r| r.to_string()));
                }
                if let Some(tr) = &m.transport {
                    names.extend(tr.to.as_ref().map(|r| r.to_string()));
                }
            }
            names.extend(c.combats.iter().map(|d| format!("{{hex: {}}}", d.hex)));
            names.extend(c.combat_cards.iter().map(|(_, n)| n.to_string()));
            names.extend(c.latency.iter().map(|(h, _)| format!("hex {h}")));
            for (h, ids) in &c.security_members {
                names.insert(format!("hex {h}"));
                names.extend(ids.iter().cloned());
            }
            names.extend(
                c.fortress
                    .iter()
                    .filter_map(|f| f.place.as_ref().map(|r| r.to_string())),
            );
            for n in names {
                assert!(t.contains(&n), "{n} is missing:\n{t}");
            }
        }
    }
}

/// Every land hex of the map.
fn land(s: &State) -> Vec<HexId> {
    let map = &s.data.map;
    (0..=map.grid.cols * 10 + map.grid.rows)
        .filter(|h| map.valid_id(*h) && map.is_land(*h))
        .collect()
}

/// Asserts that every card, unit and hex item `check` accepts is among the choices, for the
/// kinds the phase does not judge again by a rule of its moment; and, for those it does,
/// where that rule holds now.
fn accepted_items_are_choices(s: &State, side: Side, c: &Choices) {
    let all_cards: Vec<u32> = s.data.cards.cards.iter().map(|c| c.no).collect();
    let ids: Vec<String> = s.units.keys().cloned().collect();
    let with = |f: &dyn Fn(&mut Orders)| {
        let mut o = Orders::default();
        f(&mut o);
        o
    };
    for no in &all_cards {
        let o = with(&|o| o.discard_to_six = Some(*no));
        assert!(
            !accepted(s, side, &o) || c.discard_to_six.contains(no),
            "{o:?}"
        );
        for phase in phases(side) {
            let p = Play {
                card: *no,
                phase: Some(phase),
                optional: false,
            };
            let o = with(&|o| o.play = vec![p.clone()]);
            assert!(!accepted(s, side, &o) || c.play.contains(&p), "{o:?}");
        }
        let o = with(&|o| o.arming.play = vec![*no]);
        assert!(
            !accepted(s, side, &o) || c.arming_play.contains(no),
            "{o:?}"
        );
        let o = with(&|o| o.replenishment.play = vec![*no]);
        assert!(
            !accepted(s, side, &o) || c.replenishment_play.contains(no),
            "{o:?}"
        );
        let o = with(&|o| o.security.cards = vec![*no]);
        assert!(
            !accepted(s, side, &o) || c.security_cards.contains(no),
            "{o:?}"
        );
        if let Some(first) = land(s).first() {
            for step in combat::CARD_STEPS {
                let mut d = combat::Declared {
                    hex: first.to_string(),
                    ..combat::Declared::default()
                };
                d.cards_mut(step).push(*no);
                let o = with(&|o| o.combat.combats = vec![d.clone()]);
                assert!(
                    !accepted(s, side, &o) || c.combat_cards.contains(&(step, *no)),
                    "{o:?}"
                );
            }
        }
    }
    for id in &ids {
        let o = with(&|o| o.arming.repair = vec![id.clone()]);
        assert!(!accepted(s, side, &o) || c.repair.contains(id), "{o:?}");
        let o = with(&|o| o.replenishment.to_box = Some(id.clone()));
        assert!(!accepted(s, side, &o) || c.to_box.contains(id), "{o:?}");
        for (class, listed) in [(Class::Soldier, &c.soldiers), (Class::Cba, &c.cbas)] {
            let o = with(&|o| match class {
                Class::Soldier => o.replenishment.soldiers = vec![id.clone()],
                Class::Cba => o.replenishment.cbas = vec![id.clone()],
            });
            let now = replenish::legal_destination(s, class).is_ok();
            assert!(
                !accepted(s, side, &o) || !now || listed.contains(id),
                "{o:?}"
            );
        }
        if s.units.get(id).map(|u| &u.at) == Some(&UnitAt::ReplenishmentBox) {
            for to in s.data.counters.types.keys() {
                let v = Convert {
                    unit: id.clone(),
                    to: to.clone(),
                };
                let o = with(&|o| o.replenishment.convert = Some(v.clone()));
                assert!(!accepted(s, side, &o) || c.convert.contains(&v), "{o:?}");
            }
        }
    }
    let remove = FortressOrder {
        place: None,
        remove: true,
    };
    let o = with(&|o| o.replenishment.fortress = Some(remove.clone()));
    assert!(
        !accepted(s, side, &o) || c.fortress.contains(&remove),
        "{o:?}"
    );
    let fought: BTreeSet<String> = c
        .combats
        .iter()
        .filter(|d| d.fight_group.is_none())
        .map(|d| d.hex.clone())
        .collect();
    for h in land(s) {
        let f = FortressOrder {
            place: Some(HexRef::Hex(h)),
            remove: false,
        };
        let o = with(&|o| o.replenishment.fortress = Some(f.clone()));
        assert!(!accepted(s, side, &o) || c.fortress.contains(&f), "{o:?}");
        let key = movement::place_id(s, h);
        let d = combat::Declared {
            hex: key.clone(),
            ..combat::Declared::default()
        };
        let o = with(&|o| o.combat.combats = vec![d.clone()]);
        if accepted(s, side, &o) && combat::legal_fight(s, h).is_ok() {
            assert!(fought.contains(&key), "{o:?}");
        }
        let target = latency::legal_target(s, h).ok();
        let o = with(&|o| o.latency.skip = vec![HexRef::Hex(h)]);
        if accepted(s, side, &o) && target.is_some() {
            assert!(c.latency.iter().any(|(x, _)| *x == h), "{o:?}");
        }
        for n in 0..=4 {
            let o = with(&|o| o.latency.counts = [(HexRef::Hex(h), n)].into());
            if accepted(s, side, &o) && target.is_some_and(|max| n as usize <= max) {
                assert!(c.latency.contains(&(h, target.unwrap_or(0))), "{o:?}");
            }
        }
        let none = BTreeMap::new();
        for id in s.units_in(h, Side::Fed) {
            let o = with(&|o| {
                o.security.groups = [(HexRef::Hex(h), vec![vec![id.to_string()]])].into()
            });
            let live = security::legal_member(
                s,
                id,
                h,
                &security::Moment::Live(&none),
                &mut BTreeMap::new(),
                &FieldPath::root(),
            );
            if accepted(s, side, &o) && live.is_ok() && security::eligible_hexes(s).contains(&h) {
                assert!(
                    c.security_members
                        .get(&h)
                        .is_some_and(|v| v.iter().any(|x| x == id)),
                    "{o:?}"
                );
            }
        }
    }
}

/// A random walk of `len` hexes from `from`.
fn walk(s: &State, rng: &mut ChaCha20Rng, from: HexId, len: usize) -> Vec<HexId> {
    let mut at = from;
    (0..len)
        .map(|_| {
            let next = s.data.map.neighbours(at);
            at = next[pick(rng, next.len())];
            at
        })
        .collect()
}

/// Asserts that every move the phase would carry out now (movement::legal_move at the live
/// moment, control as it stands) among random walks, sea moves and transports from each unit
/// is accepted by `check` and among the choices (a normal move by its end hex); returns how many
/// there were.
fn legal_moves_are_choices(s: &State, side: Side, c: &Choices, rng: &mut ChaCha20Rng) -> usize {
    let labels = BTreeMap::new();
    let mode = Mode::Live {
        labels: &labels,
        start: &s.control,
    };
    let stack_limit =
        side == Side::Lib && !s.flag(&crate::systems::dougram::cards::Flag::LibGovernment);
    let live = |m: &Move| {
        let j = movement::legal_move(s, side, m, &FieldPath::root(), &Memory::default(), &mode);
        // 8.4.2 is judged on the orders as a whole; a move on its own is one such order.
        j.problems.is_empty()
            && (!stack_limit
                || movement::legal_stacking(s, side, &[j], &FieldPath::root()).is_empty())
    };
    let ends: BTreeSet<(String, HexId)> = c
        .moves
        .iter()
        .filter_map(|m| Some((m.units.first()?.clone(), *m.path.last()?)))
        .collect();
    let cities: Vec<String> = s
        .data
        .map
        .places
        .iter()
        .filter(|p| p.city)
        .map(|p| p.id.clone())
        .collect();
    let mut count = 0;
    for (id, u) in &s.units {
        let UnitAt::Hex(from) = u.at else { continue };
        if u.side != side {
            continue;
        }
        let mut candidates: Vec<Move> = (0..8)
            .map(|_| {
                let len = 1 + pick(rng, 2);
                Move {
                    units: vec![id.clone()],
                    path: walk(s, rng, from, len),
                    ..Move::default()
                }
            })
            .collect();
        // Sea moves and transports leave from the unit's own city (10.2, 11.2): from there,
        // with every card in hand, to every city.
        let here = s
            .data
            .map
            .place_at(from)
            .filter(|p| p.city)
            .map(|p| p.id.clone());
        for a in here.iter() {
            for b in &cities {
                for no in s.cards.get(side).hand.cards() {
                    candidates.push(Move {
                        units: vec![id.clone()],
                        sea: Some(SeaOrder {
                            card: Some(*no),
                            from: Some(HexRef::Place(a.clone())),
                            to: Some(HexRef::Place(b.clone())),
                        }),
                        ..Move::default()
                    });
                }
                candidates.push(Move {
                    units: vec![id.clone()],
                    transport: Some(TransportOrder {
                        from: Some(HexRef::Place(a.clone())),
                        to: Some(HexRef::Place(b.clone())),
                    }),
                    ..Move::default()
                });
            }
        }
        for m in candidates.into_iter().filter(|m| live(m)) {
            let o = Orders {
                movement: movement::MovementOrders {
                    moves: vec![m.clone()],
                },
                ..Orders::default()
            };
            assert_eq!(check(s, side, &o), vec![], "{m:?}");
            let listed = match m.path.last() {
                Some(end) if *end != from => ends.contains(&(id.clone(), *end)),
                // A walk back to the start is no move worth listing.
                Some(_) => true,
                None => c.moves.contains(&m),
            };
            assert!(listed, "{m:?} is not among the choices");
            count += 1;
        }
    }
    count
}

#[test]
fn every_item_check_accepts_is_among_the_choices_in_played_games() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut states = demo_game(0);
    states.extend(random_game_states().iter().step_by(2).cloned());
    let mut moves = 0;
    for s in &states {
        for side in asked(s) {
            let c = steps::choices(s, side);
            if s.phasing() == Some(side) {
                moves += legal_moves_are_choices(s, side, &c, &mut rng);
                accepted_items_are_choices(s, side, &c);
            }
        }
    }
    assert!(moves > 500, "only {moves} legal moves were tried");
}

#[test]
fn a_side_has_no_choices_outside_its_player_turn_4_1() {
    for s in demo_game(0) {
        for &side in Side::ALL {
            if s.phasing() != Some(side) {
                assert_eq!(steps::choices(&s, side), Choices::default());
            }
        }
    }
}

#[test]
fn a_combat_card_choice_is_played_at_its_step_12_9() {
    for s in demo_game(0) {
        for side in asked(&s) {
            for (step, no) in steps::choices(&s, side).combat_cards {
                let at = s.card(no).and_then(|c| c.when.step).unwrap_or(StepName::W2);
                assert_eq!(step, at, "card {no}");
            }
        }
    }
}
