//! kummen's bot: a player that heads for the enemy home base (14.1.1) while keeping as many
//! guards at its own as enemy units are near it (at least two), surveys where it can (8) and reacts toward the enemy (7.3). It picks from
//! `steps::choices` (what the template lists) and keeps an item only if `steps::check` accepts
//! the orders with it (kit::bot::compose), so it never sends a refused order. It reads its own
//! units, the map and the public facts only: the other side's hidden units are never asked for.

use super::data::{Control, Side};
use super::movement;
use super::orders::{Action, HeliTrigger, Orders, PolicyPatch};
use super::state::State;
use super::steps;
use crate::kit::bot::{BotRng, best_per_key, compose};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::hash::Hash32;
use std::collections::BTreeSet;

/// Per unit, the bot weighs at most this many of its destinations (the best by heuristic), so
/// composing costs a bounded number of checks whatever the unit's reach.
const DESTINATIONS_PER_UNIT: usize = 3;
/// Enemy units within this distance of the home base count as a threat to it.
const THREAT_RANGE: u32 = 4;
/// The fewest units the bot keeps in its home base while it has them.
const MIN_GUARDS: usize = 2;

pub fn orders(state: &State, side: Side, seed: &Hash32) -> Orders {
    let mut rng = BotRng::new(seed, side.name());
    let choices = steps::choices(state, side);
    let goal = state.map.home(side.other());
    let home = state.map.home(side);
    // Where to go: the bases the side does not hold. Taking the enemy home base ends the game
    // (14.1.1), so it is a target only when the VP known now (public, 10.4), with the 2D+13 a
    // palace earns (14.2.1; 20 is about its mean), would then win; otherwise ending the game
    // would throw it away, and the other bases are worth taking first (4.3.1, 4.4.4).
    let bonus = if side == Side::Mercenary {
        PALACE_VP
    } else {
        0
    };
    let ending_wins = state.vp[side] + bonus > state.vp[side.other()];
    let targets: Vec<Hex> = state
        .map
        .bases
        .iter()
        .filter(|b| state.control_of(b.hex) != Control::of(side))
        .filter(|b| b.hex != goal || ending_wins)
        .map(|b| b.hex)
        .collect();
    let dist = |h: Hex| {
        targets
            .iter()
            .map(|t| state.map.grid.distance(h, *t))
            .min()
            .unwrap_or_else(|| state.map.grid.distance(h, goal)) as i64
    };
    let home_dist = |h: Hex| state.map.grid.distance(h, home) as i64;
    let from = |name: &str| state.find_own(side, name).and_then(|id| state.hex_of(&id));
    // The home base keeps as many guards as enemy units are near it (where units stand and
    // whose they are is public, face-down or not), at least MIN_GUARDS.
    let threat = state
        .units
        .keys()
        .filter(|id| {
            state.side_of(id) == Some(side.other())
                && state
                    .hex_of(id)
                    .is_some_and(|h| state.map.grid.distance(h, home) <= THREAT_RANGE)
        })
        .count();
    let mut at_home: Vec<String> = state
        .units
        .keys()
        .filter(|id| state.side_of(id) == Some(side) && !state.is_heli(id))
        .filter(|id| state.hex_of(id) == Some(home))
        .cloned()
        .collect();
    // Which of them stay is the bot's random choice.
    for i in (1..at_home.len()).rev() {
        at_home.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let needed = threat.max(MIN_GUARDS);
    let guards: BTreeSet<String> = at_home.iter().take(needed).cloned().collect();
    let short = needed.saturating_sub(at_home.len());
    let is_guard = |name: &str| {
        state
            .find_own(side, name)
            .is_some_and(|id| guards.contains(&id))
    };
    let mut candidates: Vec<(i64, Orders)> = Vec::new();
    let mut per_unit: Vec<(String, i64, Orders)> = Vec::new();
    for item in choices.orders() {
        let score = if let Some(a) = item.actions.first() {
            match a {
                Action { mv: Some(m), .. } => {
                    let (Some(start), Some(&end)) = (from(&m.unit), m.path.last()) else {
                        continue;
                    };
                    if is_guard(&m.unit) {
                        continue;
                    }
                    // Short of guards: units come home, the nearest first.
                    let gain = if short > 0 {
                        (home_dist(start) - home_dist(end)) * 2 - home_dist(start) / 3
                    } else {
                        dist(start) - dist(end)
                    };
                    let score = gain * 10 + rng.jitter(10);
                    per_unit.push((m.unit.clone(), score, item));
                    continue;
                }
                Action { heli: Some(h), .. } => {
                    let (Some(start), Some(&end)) = (from(&h.heli), h.path.last()) else {
                        continue;
                    };
                    (dist(start) - dist(end)) * 8 + rng.jitter(10)
                }
                // Face-up units fight; hiding keeps them safe at home only.
                Action {
                    flip_up: Some(_), ..
                } => rng.jitter(20) - 10,
                Action { hide: Some(_), .. } => rng.jitter(10) - 8,
                _ => continue,
            }
        } else if let Some(m) = item.react.first() {
            let (Some(start), Some(&end)) = (from(&m.unit), m.path.last()) else {
                continue;
            };
            (dist(start) - dist(end)) * 6 + rng.jitter(10) - 5
        } else if !item.survey.is_empty() {
            40 + rng.jitter(10)
        } else if !item.reveal.is_empty() {
            rng.jitter(10) - 5
        } else if !item.hide_at_start.is_empty() {
            rng.jitter(10) - 3
        } else {
            continue;
        };
        if score > 0 {
            candidates.push((score, item));
        }
    }
    // The best few destinations of each unit, the worthwhile ones only.
    per_unit.retain(|(_, score, _)| *score > 0);
    candidates.extend(best_per_key(per_unit, DESTINATIONS_PER_UNIT));
    let start = standing_policies(state, side);
    compose(start, candidates, usize::MAX, merge, |o| {
        moves_each_unit_once(o) && steps::check(state, side.name(), o).is_empty()
    })
}

/// What the side would expect to score for taking the palace (14.2.1: 2D + 13, about 20).
const PALACE_VP: i64 = 20;

/// The standing orders a sensible player keeps (policies D11, D14), when `check` accepts them:
/// the mercenary side sends a heli, with a unit from EX-10 aboard, to any of its other bases a
/// beeler unit enters (7.2), and flies Kan-Yu home from a fight when a heli returns (9.13.4).
fn standing_policies(state: &State, side: Side) -> Orders {
    if side != Side::Mercenary {
        return Orders::default();
    }
    let home = state.map.home(side);
    let mut cargo: Vec<String> = state
        .side_units_in(home, side)
        .into_iter()
        .filter(|id| movement::carriable(state, id))
        .collect();
    cargo.truncate(2);
    let triggers: Vec<HeliTrigger> = state
        .map
        .bases
        .iter()
        .filter(|b| b.hex != home && state.control_of(b.hex) == Control::of(side))
        .map(|b| HeliTrigger {
            when_beeler_in: vec![b.hex],
            cargo: cargo.clone(),
            ..HeliTrigger::default()
        })
        .collect();
    let o = Orders {
        policies: PolicyPatch {
            heli_triggers: (!triggers.is_empty()).then_some(triggers),
            heli_cargo: Some(vec!["kanyu".to_string()]),
            ..PolicyPatch::default()
        },
        ..Orders::default()
    };
    if steps::check(state, side.name(), &o).is_empty() {
        o
    } else {
        Orders::default()
    }
}

/// Puts the items of `item` after those of `into`.
fn merge(into: &mut Orders, item: &Orders) {
    into.hide_at_start
        .extend(item.hide_at_start.iter().cloned());
    into.actions.extend(item.actions.iter().cloned());
    into.survey.extend(item.survey.iter().cloned());
    into.reveal.extend(item.reveal.iter().cloned());
    into.react.extend(item.react.iter().cloned());
}

/// The bot moves a unit at most once a step: a second destination for the same unit is an
/// alternative, not a continuation.
fn moves_each_unit_once(o: &Orders) -> bool {
    let mut seen = BTreeSet::new();
    let moved = o.actions.iter().filter_map(|a| {
        a.mv.as_ref()
            .map(|m| m.unit.as_str())
            .or(a.heli.as_ref().map(|h| h.heli.as_str()))
    });
    let reacted = o.react.iter().map(|m| m.unit.as_str());
    moved.chain(reacted).all(|u| seen.insert(u))
}
