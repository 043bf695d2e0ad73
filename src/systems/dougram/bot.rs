//! dougram's bot: a player that arms and replenishes all it can, fights wherever it may
//! declare a combat, plays the cards it may, and moves its units at random among their legal
//! destinations. It picks from `steps::choices` (what the template lists) and keeps an item
//! only if `orders::check` accepts the orders with it (kit::bot::compose), so it never sends a
//! refused order. It reads its own hand, units and the public facts only.

use super::data::Side;
use super::orders::{self, Orders};
use super::state::State;
use super::steps;
use crate::kit::bot::{BotRng, best_per_key, compose};
use crate::kit::seats::Seat;
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
            // A group stays put now and then; otherwise any legal destination will do.
            if rng.chance(25) {
                continue;
            }
            moves.push((m.units.join(","), rng.jitter(100), item));
            continue;
        } else if !item.combat.combats.is_empty() {
            30 + rng.jitter(20)
        } else if !item.arming.arm.is_empty() || !item.arming.repair.is_empty() {
            25 + rng.jitter(10)
        } else if item.discard_to_six.is_some() {
            rng.jitter(20) + 1
        } else if !item.play.is_empty()
            || !item.arming.play.is_empty()
            || !item.replenishment.play.is_empty()
            || !item.security.cards.is_empty()
        {
            if rng.chance(60) {
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
    candidates.extend(
        best_per_key(moves, DESTINATIONS_PER_GROUP)
            .into_iter()
            .map(|(score, item)| (10 + score / 10, item)),
    );
    compose(Orders::default(), candidates, usize::MAX, merge, |o| {
        moves_each_unit_once(o) && orders::check(state, side.name(), o).is_empty()
    })
}

/// Puts the items of `item` after those of `into` (a single-valued item only where `into` has
/// none yet).
fn merge(into: &mut Orders, item: &Orders) {
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
