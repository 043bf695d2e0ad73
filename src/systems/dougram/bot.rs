//! dougram's bot: a player that arms and replenishes all it can, fights where its units are
//! the stronger, plays the cards it may unless a card would lose it the game, and moves its
//! units towards cities and fights it can win, away from hexes where the enemy is stronger.
//! Both sides follow the same heuristics. It picks from `steps::choices` (what the template
//! lists) and keeps an item only if `orders::check` accepts the orders with it
//! (kit::bot::compose), so it never sends a refused order. It reads its own hand, units and
//! the public facts only (units and their printed values are public; latent values are not).

use super::cardphase::CardPolicy;
use super::cards::{After, Effect, Flag};
use super::damage;
use super::data::{HexId, Side};
use super::movement::Move;
use super::orders::{self, Orders};
use super::policy::PolicyPatch;
use super::state::State;
use super::steps;
use crate::kit::bot::{BotRng, best_per_key, compose};
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::hash::Hash32;
use std::collections::BTreeSet;

/// Per moving group, the bot weighs at most this many of its destinations, so composing costs
/// a bounded number of checks whatever the group's reach.
const DESTINATIONS_PER_GROUP: usize = 3;

pub fn orders(state: &State, side: Side, seed: &Hash32) -> Orders {
    let mut rng = BotRng::new(seed, side.name());
    let choices = steps::choices(state, side);
    let mut candidates: Vec<(i64, Orders)> = Vec::new();
    let mut moves: Vec<(String, i64, Orders)> = Vec::new();
    for item in choices.orders() {
        let score = if let Some(m) = item.movement.moves.first() {
            // A group moves only where it gains: a city to hold, a fight it wins, or out of a
            // hex where the enemy is the stronger.
            let gain = move_gain(state, side, m);
            if gain <= 0 {
                continue;
            }
            moves.push((m.units.join(","), gain * 10 + rng.jitter(30), item));
            continue;
        } else if let Some(d) = item.combat.combats.first() {
            // Fight at good odds only: own firepower at least the enemy's.
            let h = super::combat::parse_hex(state, &d.hex);
            if h.is_none_or(|h| power(state, h, side) < power(state, h, side.other())) {
                continue;
            }
            30 + rng.jitter(20)
        } else if item.play.iter().any(|p| wins_by(state, p.card)) {
            // A card that wins at the victory check (20.2) is played whenever its conditions
            // hold, by either side.
            100
        } else if item.play.iter().any(|p| loses_by(state, side, p.card))
            || item.arming.play.iter().any(|c| loses_by(state, side, *c))
            || item
                .replenishment
                .play
                .iter()
                .any(|c| loses_by(state, side, *c))
        {
            continue;
        } else if !item.arming.arm.is_empty() || !item.arming.repair.is_empty() {
            25 + rng.jitter(10)
        } else if item.discard_to_six.is_some() {
            rng.jitter(20) + 1
        } else if !item.play.is_empty()
            || !item.arming.play.is_empty()
            || !item.replenishment.play.is_empty()
            || !item.security.cards.is_empty()
        {
            if rng.chance(80) {
                15 + rng.jitter(20)
            } else {
                continue;
            }
        } else if item.replenishment != Default::default() || !item.security.groups.is_empty() {
            20 + rng.jitter(10)
        } else if let Some((_, n)) = item.latency.counts.first_key_value() {
            10 + *n * 5 + rng.jitter(5)
        } else {
            continue;
        };
        candidates.push((score, item));
    }
    if let Some(p) = card_policy(state, side) {
        candidates.push((
            5,
            Orders {
                policies: PolicyPatch {
                    card: Some(p),
                    ..PolicyPatch::default()
                },
                ..Orders::default()
            },
        ));
    }
    candidates.extend(
        best_per_key(moves, DESTINATIONS_PER_GROUP)
            .into_iter()
            .map(|(score, item)| (10 + score / 10, item)),
    );
    compose(Orders::default(), candidates, usize::MAX, merge, |o| {
        moves_each_unit_once(o) && orders::check(state, side.name(), o).is_empty()
    })
}

/// Firepower of `side` in hex `h`: each unit's AA plus AP there (damage::in_hex: printed or
/// back values, terrain), the public values of its counters.
fn power(state: &State, h: HexId, side: Side) -> i64 {
    state
        .units_in(h, side)
        .iter()
        .filter_map(|id| damage::in_hex(state, id, h))
        .map(|v| i64::from(v.aa + v.ap))
        .sum()
}

/// The hex where a move ends, when the order says it.
fn move_end(state: &State, m: &Move) -> Option<HexId> {
    let map = &state.data.map;
    if let Some(h) = m.path.last() {
        return Some(*h);
    }
    if let Some(s) = &m.sea {
        return s.to.as_ref().and_then(|r| r.resolve(map));
    }
    m.transport
        .as_ref()
        .and_then(|t| t.to.as_ref())
        .and_then(|r| r.resolve(map))
}

/// What a hex is worth to `side` with `extra` more firepower of its own there: a city's VP,
/// more when the enemy is beaten there, much less when the enemy is the stronger.
fn worth(state: &State, side: Side, h: HexId, extra: i64) -> i64 {
    let own = power(state, h, side) + extra;
    let enemy = power(state, h, side.other());
    let vp = state
        .data
        .map
        .place_at(h)
        .filter(|p| p.city)
        .map_or(0, |p| i64::from(p.vp));
    let mut w = 2 * vp;
    if enemy > 0 {
        w += if own >= enemy { 3 } else { -4 };
    }
    w
}

/// What moving `m`'s group gains for `side`: the worth of where it ends against the worth of
/// where it stands (with and without it), so a group leaves a held city only for better.
fn move_gain(state: &State, side: Side, m: &Move) -> i64 {
    let (Some(end), Some(start)) = (move_end(state, m), group_hex(state, m)) else {
        return 0;
    };
    let group: i64 = m
        .units
        .iter()
        .filter_map(|id| damage::in_hex(state, id, start))
        .map(|v| i64::from(v.aa + v.ap))
        .sum();
    let arrive = worth(state, side, end, group) - worth(state, side, end, 0);
    let leave = worth(state, side, start, 0) - worth(state, side, start, -group);
    arrive - leave + i64::from(worth(state, side, end, group) > worth(state, side, start, 0))
}

/// The hex the group of `m` stands in.
fn group_hex(state: &State, m: &Move) -> Option<HexId> {
    m.units
        .first()
        .and_then(|id| state.units.get(id))
        .and_then(|u| match u.at {
            super::state::UnitAt::Hex(h) => Some(h),
            _ => None,
        })
}

/// Whether playing card `no` would lose `side` the game at the next victory check, as far as
/// the public facts tell: Lib's government (20.3.1) with no city VP to show.
fn loses_by(state: &State, side: Side, no: u32) -> bool {
    state.card(no).is_some_and(|c| {
        side == Side::Lib && c.while_open.contains(&Flag::LibGovernment) && state.lib_vp() < 5
    })
}

/// Whether card `no` wins the game for its owner once open (20.2: 34, 77).
fn wins_by(state: &State, no: u32) -> bool {
    state.card(no).is_some_and(|c| {
        c.while_open
            .iter()
            .any(|f| matches!(f, Flag::LacockAssassinated | Flag::PeaceTalks))
    })
}

/// The card policy the bot sends once (when its standing policy swaps nothing): at a
/// reshuffle, swap its one-combat modifier cards for the side's cards in the stock (5.5.1,
/// 5.5.2; the stock is public), keeping the best card of the hand as by default (5.2).
fn card_policy(state: &State, side: Side) -> Option<CardPolicy> {
    if !state.policies.get(side).card.swap_out.is_empty() {
        return None;
    }
    let own = |no: &u32| state.card(*no).is_some_and(|c| c.owner == side);
    let stock_wishlist: Vec<u32> = state.stock.iter().copied().filter(own).collect();
    let swap_out: Vec<u32> = state
        .data
        .cards
        .cards
        .iter()
        .filter(|c| {
            c.owner == side
                && c.after == After::Discard
                && c.effects.iter().all(|e| matches!(e, Effect::CombatMod(_)))
                && !c.effects.is_empty()
        })
        .map(|c| c.no)
        .take(3)
        .collect();
    (!stock_wishlist.is_empty() && !swap_out.is_empty()).then(|| CardPolicy {
        stock_wishlist,
        swap_out,
        ..CardPolicy::default()
    })
}

/// Puts the items of `item` after those of `into` (a single-valued item only where `into` has
/// none yet).
fn merge(into: &mut Orders, item: &Orders) {
    if into.policies.card.is_none() {
        into.policies.card = item.policies.card.clone();
    }
    if into.discard_to_six.is_none() {
        into.discard_to_six = item.discard_to_six;
    }
    into.play.extend(item.play.iter().cloned());
    let (a, b) = (&mut into.arming, &item.arming);
    a.play.extend(b.play.iter().cloned());
    a.repair.extend(b.repair.iter().cloned());
    a.arm.extend(b.arm.iter().cloned());
    let (r, s) = (&mut into.replenishment, &item.replenishment);
    r.play.extend(s.play.iter().cloned());
    r.to_box = r.to_box.take().or(s.to_box.clone());
    r.convert = r.convert.take().or(s.convert.clone());
    r.soldiers.extend(s.soldiers.iter().cloned());
    r.cbas.extend(s.cbas.iter().cloned());
    r.fortress = r.fortress.take().or(s.fortress.clone());
    into.movement
        .moves
        .extend(item.movement.moves.iter().cloned());
    into.combat
        .combats
        .extend(item.combat.combats.iter().cloned());
    into.latency.skip.extend(item.latency.skip.iter().cloned());
    for (h, n) in &item.latency.counts {
        into.latency.counts.entry(h.clone()).or_insert(*n);
    }
    into.security
        .cards
        .extend(item.security.cards.iter().cloned());
    for (h, groups) in &item.security.groups {
        into.security
            .groups
            .entry(h.clone())
            .or_default()
            .extend(groups.iter().cloned());
    }
}

/// The bot moves a unit at most once a step: another destination for the same unit is an
/// alternative, not a continuation.
fn moves_each_unit_once(o: &Orders) -> bool {
    let mut seen = BTreeSet::new();
    o.movement
        .moves
        .iter()
        .flat_map(|m| m.units.iter())
        .all(|u| seen.insert(u.as_str()))
}
