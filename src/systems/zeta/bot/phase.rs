//! The bot's action phase (plan §4.2, review §5 "Phase planner"): first what its units do
//! (move, carry, govern, recover, atmospheric moves) and its faction's specials, then the
//! combats at the hexes where its units will stand, each kept only if `check` accepts the
//! whole order.

use super::eval;
use super::{Side, State, accepted};
use crate::kit::bot::{BotRng, best_per_key, compose};
use crate::kit::seats::Seat;
use crate::systems::zeta::axis::AXIS;
use crate::systems::zeta::combat::{CombatOrder, Wish};
use crate::systems::zeta::ctx::{Ctx, Moment};
use crate::systems::zeta::data::{Loc, MapId, Place};
use crate::systems::zeta::gryps::GRYPS_2;
use crate::systems::zeta::orders::{
    AtmoOrder, AxisOrder, GrypsOrder, LaserTarget, Orders, SpeechOrder, UnitOrder,
};
use crate::systems::zeta::state::{FaceUp, Stage};
use crate::systems::zeta::{
    action, atmosphere, axis, carry, colony, gryps, movement, nuke, specials,
};
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

/// Per unit, the bot weighs at most this many of its destinations, so composing costs a
/// bounded number of checks whatever the unit's reach.
const DESTINATIONS_PER_UNIT: usize = 3;

/// One thing the bot may add to its phase orders.
#[derive(Debug, Clone)]
enum Item {
    Unit(UnitOrder),
    Atmo(AtmoOrder),
    Colony(crate::systems::zeta::orders::Pre),
    Demolish,
    Axis(AxisOrder),
    Gryps(GrypsOrder),
    Lvr(String),
    Speech(String),
    Laser(LaserTarget),
}

pub fn orders(state: &State, side: Side, rng: &mut BotRng) -> Orders {
    let ctx = Ctx::new(state.clone(), None, Moment::Check);
    let mut o = Orders::default();
    if let Stage::Phase { card, .. } = &state.stage {
        // 11.2: the drawn card, echoed (optional; it catches an order sent for another card).
        o.card = Some(crate::systems::zeta::orders::CardEcho {
            side: card.side,
            kind: card.kind,
        });
        if !accepted(state, side, &o) {
            o.card = None;
        }
    }
    let mut candidates: Vec<(i64, Item)> = Vec::new();
    let mut moves: Vec<(String, i64, Item)> = Vec::new();
    unit_items(&ctx, side, rng, &mut candidates, &mut moves);
    special_items(&ctx, side, rng, &mut candidates);
    candidates.extend(best_per_key(moves, DESTINATIONS_PER_UNIT));
    let o = compose(o, candidates, usize::MAX, add, |o| {
        each_unit_once(o) && accepted(state, side, o)
    });
    combats(state, side, o, rng)
}

/// Puts one item into the orders.
fn add(o: &mut Orders, item: &Item) {
    match item {
        Item::Unit(u) => o.units.push(u.clone()),
        Item::Atmo(a) => o.atmospheric.push(a.clone()),
        Item::Colony(p) => {
            o.pre.colony = p.colony.clone();
            o.pre.colony_target = p.colony_target.clone();
        }
        Item::Demolish => o.pre.demolish = true,
        Item::Axis(a) => o.axis = Some(a.clone()),
        Item::Gryps(g) => o.gryps = Some(g.clone()),
        Item::Lvr(u) => o.lvr_repair.push(u.clone()),
        Item::Speech(b) => o.speech = Some(SpeechOrder::from(b.as_str())),
        Item::Laser(l) => o.laser.push(l.clone()),
    }
}

/// A unit acts once per phase (12.5): named once, moving, carried or moving through the
/// atmosphere.
fn each_unit_once(o: &Orders) -> bool {
    let mut seen = BTreeSet::new();
    let named = o
        .units
        .iter()
        .flat_map(|u| std::iter::once(&u.unit).chain(u.carry.iter()))
        .chain(
            o.atmospheric
                .iter()
                .flat_map(|a| a.unit.iter().chain(a.carry.iter())),
        );
    for id in named {
        if !seen.insert(id.clone()) {
            return false;
        }
    }
    true
}

/// How strongly `loc` pulls `side`'s units from afar: the best base there is to take or
/// raise on its map, less two per hex of distance (so stacks close in on targets beyond one
/// phase's reach).
fn pull(state: &State, side: Side, loc: Loc) -> i64 {
    state
        .bases
        .keys()
        .filter_map(|b| state.data.base_hex(b).map(|l| (b, l)))
        .filter(|(_, l)| l.map == loc.map)
        .filter_map(|(b, l)| {
            let gain = eval::base_gain(state, side, b);
            let d = i64::from(state.data.distance(loc, l)?);
            (gain > 0).then_some(gain * 4 - 2 * d)
        })
        .max()
        .unwrap_or(0)
        .max(0)
}

/// What standing at `loc` with `extra` strength is worth, near and far.
fn place_value(state: &State, side: Side, loc: Loc, extra: i64) -> i64 {
    eval::worth(state, side, loc, extra) + pull(state, side, loc)
}

/// The own MS in `unit`'s hex that may ride along (15.2-15.3), up to its capacity.
fn riders(state: &State, side: Side, unit: &str) -> Vec<String> {
    let Some(u) = state.units.get(unit) else {
        return Vec::new();
    };
    let cap = state
        .data
        .unit_type(&u.type_id)
        .map_or(0, |t| usize::from(t.carry));
    if cap == 0 {
        return Vec::new();
    }
    state
        .units
        .iter()
        .filter(|(id, r)| {
            r.side == side
                && r.place == u.place
                && id.as_str() != unit
                && state
                    .data
                    .unit_type(&r.type_id)
                    .is_some_and(|t| t.class == crate::systems::zeta::data::Class::Ms)
        })
        .map(|(id, _)| id.clone())
        .take(cap)
        .collect()
}

/// Moves (13), carrying (15), government (17), recovery (16) and atmospheric moves (14).
fn unit_items(
    ctx: &Ctx<'_>,
    side: Side,
    rng: &mut BotRng,
    candidates: &mut Vec<(i64, Item)>,
    moves: &mut Vec<(String, i64, Item)>,
) {
    let state = &ctx.state;
    for c in movement::move_choices(ctx, side) {
        let u = &c.item;
        let (Some(start), Some(end)) = (
            state.units.get(&u.unit).and_then(|x| x.place.loc()),
            u.path.as_ref().and_then(|p| p.last().copied()),
        ) else {
            continue;
        };
        let power = eval::unit_power(state, &u.unit);
        let riders = riders(state, side, &u.unit);
        let rider_power: i64 = riders.iter().map(|r| eval::unit_power(state, r)).sum();
        let gain =
            place_value(state, side, end, power + rider_power) - place_value(state, side, start, 0);
        // 17.9: the last unit guarding an own political base leaves it open to 17.7.
        let alone = eval::sole_guard(state, side, &u.unit, &[]);
        let with_riders = eval::sole_guard(state, side, &u.unit, &riders);
        if !riders.is_empty() && gain - with_riders > 0 {
            // A ship takes its MS along (15.2): one stack moving is the point of fleets.
            let mut with = u.clone();
            with.carry = riders.clone();
            let score = (gain - with_riders) * 10 + rng.jitter(30);
            moves.push((u.unit.clone(), score + 5, Item::Unit(with)));
        }
        let gain =
            place_value(state, side, end, power) - place_value(state, side, start, 0) - alone;
        if gain <= 0 {
            continue;
        }
        let score = gain * 10 + rng.jitter(30);
        moves.push((u.unit.clone(), score, Item::Unit(u.clone())));
    }
    for c in action::action_choices(ctx, side) {
        let u = &c.item;
        let score = if let Some(b) = &u.govern {
            // 17: raising or taking a base is the VP of rule 37.
            let gain = eval::base_gain(state, side, b);
            if gain <= 0 {
                continue;
            }
            60 + gain * 20
        } else if u.recover.is_some() {
            // 16: a damaged unit turns face up at an own base.
            if state
                .units
                .get(&u.unit)
                .is_none_or(|x| x.face != FaceUp::Back)
            {
                continue;
            }
            50
        } else {
            continue;
        };
        candidates.push((score + rng.jitter(20), Item::Unit(u.clone())));
    }
    for c in atmosphere::atmospheric_choices(ctx, side) {
        let a = &c.item;
        let start = a
            .unit
            .as_ref()
            .and_then(|id| state.units.get(id))
            .and_then(|u| u.place.loc());
        let score = match (a.descend, start) {
            (Some(to), Some(from)) => {
                let power = a.unit.as_ref().map_or(0, |id| eval::unit_power(state, id));
                let alone = a
                    .unit
                    .as_ref()
                    .map_or(0, |id| eval::sole_guard(state, side, id, &a.carry));
                place_value(state, side, to, power) - place_value(state, side, from, 0) - alone
            }
            // A lone character's descent (14.12) or a launch: now and then.
            _ => {
                if rng.chance(20) {
                    1
                } else {
                    continue;
                }
            }
        };
        if score <= 0 {
            continue;
        }
        let key = a
            .unit
            .clone()
            .or_else(|| a.char.clone())
            .unwrap_or_default();
        moves.push((key, score * 10 + rng.jitter(30), Item::Atmo(a.clone())));
    }
}

/// The faction's specials: the colony (35), the nuke (36.4), Axis (30), Gryps 2 and its laser
/// (31), La Vie en Rose's repairs (29.2), Quattro's speech (29.1).
fn special_items(ctx: &Ctx<'_>, side: Side, rng: &mut BotRng, candidates: &mut Vec<(i64, Item)>) {
    let state = &ctx.state;
    // 35.5: the colony, placed when the rules allow (it heads for an enemy base).
    for c in colony::colony_choices(ctx, side) {
        if rng.chance(60) {
            candidates.push((40 + rng.jitter(10), Item::Colony(c.item)));
        }
    }
    // 36.4: demolish when the enemy in the nuke's hex outweighs the garrison (review §5).
    if side == Side::Titans
        && nuke::legal_demolish(ctx, side, &FieldPath::root()).is_ok()
        && let Some(l) = state
            .nuke
            .base
            .as_ref()
            .and_then(|b| state.data.base_hex(b))
    {
        let (enemy, _) = eval::enemy_at(state, l, side);
        let own = eval::power_at(state, l, side);
        if enemy >= 8 && enemy > own * 2 {
            candidates.push((200, Item::Demolish));
        }
    }
    // 30.4: Axis attacks a base in its hex once it has the strength (level 2 or more).
    let axis_level = state.bases.get(AXIS).map_or(0, |b| b.level);
    for c in axis::axis_choices(ctx, side) {
        if axis_level >= 2 {
            candidates.push((80 + rng.jitter(10), Item::Axis(c.item)));
        }
    }
    // 30.3: Axis leaves the belt (turn 1 by chance, always from turn 2) and heads for the
    // best enemy base on the space map.
    if state.bases.get(AXIS).and_then(|b| b.governor) == Some(side) {
        let here = carry::base_place(state, &ctx.data, AXIS);
        let leave = state.turn >= 2 || rng.chance(50);
        let options: Vec<Loc> = match here {
            Some(Place::Belt) if leave => ctx
                .data
                .map
                .space
                .belt_adjacent
                .iter()
                .map(|h| Loc::new(MapId::Space, *h))
                .collect(),
            Some(Place::Hex(l)) => ctx.data.neighbours(l),
            _ => Vec::new(),
        };
        let now = here.and_then(|p| p.loc());
        for to in options {
            let gain = pull(state, side, to) - now.map_or(0, |l| pull(state, side, l));
            candidates.push((
                30 + gain * 5 + rng.jitter(10),
                Item::Axis(AxisOrder {
                    to: Some(Place::Hex(to)),
                    attack: None,
                }),
            ));
        }
    }
    // 31.4: Gryps 2 closes on the strongest enemy stack on the space map, for the laser.
    if state.bases.get(GRYPS_2).and_then(|b| b.governor) == Some(side)
        && let Some(Place::Hex(now)) = carry::base_place(state, &ctx.data, GRYPS_2)
        && let Some(target) = strongest_enemy_stack(state, side, MapId::Space)
    {
        for to in ctx.data.neighbours(now) {
            let (Some(d_now), Some(d_to)) = (
                ctx.data.distance(now, target),
                ctx.data.distance(to, target),
            ) else {
                continue;
            };
            if d_to < d_now {
                candidates.push((
                    20 + rng.jitter(10),
                    Item::Gryps(GrypsOrder { to: Some(to) }),
                ));
            }
        }
    }
    // 31.5: the laser at the hex where it removes most enemy and least own strength.
    for c in gryps::laser_choices(ctx, side) {
        let at = c.item.at;
        let enemy: i64 = Side::ALL
            .iter()
            .filter(|s| **s != side)
            .map(|s| eval::power_at(state, at, *s))
            .sum();
        let own = eval::power_at(state, at, side);
        let score = enemy - 2 * own;
        if score > 6 {
            candidates.push((100 + score, Item::Laser(c.item)));
        }
    }
    // 29.2: La Vie en Rose repairs every damaged MS it may.
    for c in specials::lvr_repair_choices(ctx, side) {
        candidates.push((45, Item::Lvr(c.item)));
    }
    // 29.1: Quattro speaks at the base it gains most at.
    for c in specials::speech_choices(ctx, side) {
        let gain = eval::base_gain(state, side, &c.item);
        candidates.push((70 + gain * 10 + rng.jitter(10), Item::Speech(c.item)));
    }
}

/// The hex of the strongest stack of another faction on `map`.
fn strongest_enemy_stack(state: &State, side: Side, map: MapId) -> Option<Loc> {
    let mut by_hex: BTreeMap<Loc, i64> = BTreeMap::new();
    for (id, u) in &state.units {
        if u.side != side
            && let Some(l) = u.place.loc()
            && l.map == map
        {
            *by_hex.entry(l).or_insert(0) += eval::unit_power(state, id);
        }
    }
    by_hex.into_iter().max_by_key(|(_, p)| *p).map(|(l, _)| l)
}

/// Where each own unit will stand after the orders' moves: the end of its path, its
/// carrier's end, its descent hex, else where it is.
fn ends(state: &State, side: Side, o: &Orders) -> BTreeMap<Loc, i64> {
    let mut at: BTreeMap<String, Loc> = BTreeMap::new();
    for (id, u) in &state.units {
        if u.side == side
            && let Some(l) = u.place.loc()
        {
            at.insert(id.clone(), l);
        }
    }
    for u in &o.units {
        if let Some(end) = u.path.as_ref().and_then(|p| p.last().copied()) {
            for id in std::iter::once(&u.unit).chain(u.carry.iter()) {
                at.insert(id.clone(), end);
            }
        }
    }
    for a in &o.atmospheric {
        if let (Some(id), Some(to)) = (&a.unit, a.descend) {
            for id in std::iter::once(id).chain(a.carry.iter()) {
                at.insert(id.clone(), to);
            }
        }
    }
    let mut power: BTreeMap<Loc, i64> = BTreeMap::new();
    for (id, l) in at {
        *power.entry(l).or_insert(0) += eval::unit_power(state, &id);
    }
    power
}

/// 18.7-18.8: a combat wherever the bot's stack will be the stronger by 6 to 5 against the
/// factions it declares (review §5: ratio ≥ 1.2), or at least as strong against a base's
/// governor (a base to take, 17). The third faction is left out unless it must be fought
/// too; the best fights first.
fn combats(state: &State, side: Side, o: Orders, rng: &mut BotRng) -> Orders {
    let mut candidates: Vec<(i64, CombatOrder)> = Vec::new();
    for (hex, own) in ends(state, side, &o) {
        if own <= 0 {
            continue;
        }
        let others: Vec<(Side, i64)> = Side::ALL
            .iter()
            .copied()
            .filter(|s| *s != side)
            .map(|s| (s, eval::power_at(state, hex, s)))
            .filter(|(_, p)| *p > 0)
            .collect();
        let base_of = |s: Side| {
            carry::bases_at(state, &state.data, Place::Hex(hex))
                .iter()
                .any(|b| state.bases.get(b).and_then(|x| x.governor) == Some(s))
        };
        let mut sets: Vec<Vec<Side>> = others.iter().map(|(s, _)| vec![*s]).collect();
        if others.len() == 2 {
            sets.push(others.iter().map(|(s, _)| *s).collect());
        }
        for versus in sets {
            let enemy: i64 = others
                .iter()
                .filter(|(s, _)| versus.contains(s))
                .map(|(_, p)| *p)
                .sum();
            let at_leader = eval::leader(state, side).is_some_and(|l| versus.contains(&l));
            // Against the VP leader 6 to 5 (or even odds at its base) is enough; against the
            // third faction only 3 to 2, so the two trailing factions do not wear each other
            // down while the leader runs away (plan §8.4: target choice weighted by the
            // leader).
            let good = if at_leader {
                own * 5 >= enemy * 6 || (own >= enemy && versus.iter().any(|s| base_of(*s)))
            } else {
                own * 2 >= enemy * 3
            };
            if !good {
                continue;
            }
            let leader_bonus = i64::from(at_leader) * 10;
            candidates.push((
                enemy + leader_bonus + rng.jitter(5),
                CombatOrder {
                    at: hex,
                    versus,
                    guard: None,
                    prep: None,
                    prep_if: Vec::new(),
                    bomb: Wish::Auto,
                    bombard: Wish::Auto,
                },
            ));
        }
    }
    compose(
        o,
        candidates,
        usize::MAX,
        |o, c| {
            // One combat per hex (18.7).
            if !o.combats.iter().any(|x| x.at == c.at) {
                o.combats.push(c.clone());
            }
        },
        |o| accepted(state, side, o),
    )
}
