//! The bot's packet (plan §4.1, review §5 "Packet"): armament, deployment, characters, the
//! card choice and, for Titans on turn 1, the nuke's base. Standing policies stay as they are
//! (the defaults: abstain from others' fights, 18.9).

use super::eval::{self, NEAR};
use super::{Side, State, accepted};
use crate::kit::bot::{BotRng, compose};
use crate::kit::seats::Seat;
use crate::systems::zeta::arming;
use crate::systems::zeta::ctx::{Ctx, Moment};
use crate::systems::zeta::data::{Class, MapId, Place};
use crate::systems::zeta::orders::{ArmItem, CardChoice, DeployUnit, Orders, Produce};
use crate::systems::zeta::policy::{JoinAnswer, JoinPolicy, JoinRule};
use crate::systems::zeta::state::CardKind;
use crate::systems::zeta::{cards, carry, deploy, nuke};
use crate::yaml::FieldPath;

/// The most armament items the bot writes (each is one counter), a bound on its work.
const MAX_ARM_ITEMS: usize = 24;

pub fn orders(state: &State, side: Side, rng: &mut BotRng) -> Orders {
    let mut o = Orders::default();
    let ctx = Ctx::new(state.clone(), None, Moment::Check);
    // 36.3: Titans' turn-1 packet must hide the nuke.
    if side == Side::Titans && state.turn == 1 {
        o.nuke_base = nuke_base(&ctx, side, rng);
    }
    let (armament, placed) = armament(state, side, rng);
    o.armament = armament;
    let mut planned = o.clone();
    planned.deployment.units = placed;
    let mut o = if accepted(state, side, &planned) {
        planned
    } else {
        deployment(state, side, o, rng)
    };
    if !accepted(state, side, &o) {
        // 9.1: every produced unit must be deployed; a unit no base could take is not
        // produced after all (its augment stays: the counter waits in the factory box).
        let placed: Vec<String> = o.deployment.units.iter().map(|u| u.label.clone()).collect();
        o.armament.retain(|i| match i {
            ArmItem::Produce(p) => p.label.as_ref().is_some_and(|l| placed.contains(l)),
            _ => true,
        });
        if !accepted(state, side, &o) {
            o.armament.clear();
            o.deployment = Default::default();
        }
    }
    let o = characters(state, side, o, rng);
    let mut o = cards_choice(state, side, o, rng);
    let mut with = o.clone();
    with.policies.join = Some(join_policy(state, side));
    if accepted(state, side, &with) {
        o = with;
    }
    o
}

/// 18.9 by the anti-leader rule (plan §8.1 "Policies"): when another faction leads in VP,
/// join whoever fights it (attacking it with the acting faction, defending against it as the
/// declared one); else, or when the bot leads itself, watch. Rewritten every packet, as the
/// leader changes.
fn join_policy(state: &State, side: Side) -> JoinPolicy {
    let vp = state.base_vp();
    let mut rules = Vec::new();
    if let Some(leader) = eval::leader(state, side)
        && vp[leader] > vp[side]
    {
        rules.push(JoinRule {
            acting: Some(leader),
            declared: None,
            at: None,
            answer: JoinAnswer::Defender,
        });
        rules.push(JoinRule {
            acting: None,
            declared: Some(leader),
            at: None,
            answer: JoinAnswer::Attacker,
        });
    }
    JoinPolicy {
        default: JoinAnswer::Abstain,
        rules,
    }
}

/// 36.2-36.3: the candidate an enemy is most likely to attack, so that the demolition (36.4)
/// can catch its stack there; ties by seed.
fn nuke_base(ctx: &Ctx<'_>, side: Side, rng: &mut BotRng) -> Option<String> {
    nuke::nuke_choices(ctx, side)
        .into_iter()
        .map(|c| {
            let threat = ctx
                .data
                .base_hex(&c.item)
                .map_or(0, |l| eval::threat_near(&ctx.state, l, side));
            (threat * 10 + rng.jitter(15), c.item)
        })
        .max_by_key(|(s, _)| *s)
        .map(|(_, b)| b)
}

/// A type's strength from its counter's front (as [`eval::unit_power`]) plus what it carries.
fn type_power(state: &State, t: &str) -> i64 {
    let Some(ty) = state.data.unit_type(t) else {
        return 0;
    };
    eval::face_power(&ty.front) + i64::from(ty.carry) * 2
}

/// 9.4: the deployment points a type takes (MS 1, ship 2).
fn deploy_points(state: &State, t: &str) -> u8 {
    match state.data.unit_type(t).map(|t| t.class) {
        Some(Class::Ship) => 2,
        _ => 1,
    }
}

/// One place produced units may go (9.2-9.4, 29.2.6, 29.3.1): an own base's deployment
/// points left, or a ship's one MS slot.
#[derive(Debug, Clone)]
struct Bin {
    base: Option<String>,
    onto: Option<String>,
    map: MapId,
    left: u8,
    /// How much the place wants a unit (base_need), lowered as units are put there.
    need: i64,
}

/// The places `side` may deploy at this packet, with their points.
fn bins(state: &State, side: Side) -> Vec<Bin> {
    let mut out = Vec::new();
    for (id, b) in &state.bases {
        if b.governor != Some(side) || b.destroyed || deploy::base_place(state, id).is_none() {
            continue;
        }
        let Some(def) = state.data.base(id) else {
            continue;
        };
        let used = state.sides[side].sheet.used.get(id).copied().unwrap_or(0);
        let left = def
            .at_level(b.level)
            .map_or(0, |v| v.deploy)
            .saturating_sub(used);
        if left > 0 {
            out.push(Bin {
                base: Some(id.clone()),
                onto: None,
                map: def.map,
                left,
                need: base_need(state, side, id),
            });
        }
    }
    for (id, u) in &state.units {
        let slot = state
            .data
            .unit_type(&u.type_id)
            .is_some_and(|t| t.deploy_slot);
        if u.side == side && slot && carry::spare(state, id) > 0 {
            out.push(Bin {
                base: None,
                onto: Some(id.clone()),
                map: u.place.loc().map_or(MapId::Space, |l| l.map),
                left: 1,
                need: 5 + eval::unit_power(state, id) / 4,
            });
        }
    }
    out
}

/// The bin a unit of type `t` would go to: the neediest with room on a map its aptitude
/// allows (ships never onto a slot).
fn fit(state: &State, bins: &[Bin], t: &str) -> Option<usize> {
    let ty = state.data.unit_type(t)?;
    let dp = deploy_points(state, t);
    bins.iter()
        .enumerate()
        .filter(|(_, b)| b.left >= dp)
        .filter(|(_, b)| match (&b.base, &b.onto) {
            (Some(_), _) => ty.aptitude.is_some_and(|a| a.allows(b.map)),
            _ => ty.class == Class::Ms,
        })
        .max_by_key(|(i, b)| (b.need, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
}

/// Puts one unit of `t` (label `label`) into bin `i`.
fn take(
    state: &State,
    bins: &mut [Bin],
    i: usize,
    t: &str,
    label: &str,
    count: Option<u8>,
) -> DeployUnit {
    let b = &mut bins[i];
    b.left = b.left.saturating_sub(deploy_points(state, t));
    b.need -= 1 + type_power(state, t) / 2;
    DeployUnit {
        label: label.to_string(),
        count,
        base: b.base.clone(),
        onto: b.onto.clone(),
    }
}

/// 5-8 planned against 9.2-9.4 (A-8: a produced unit needs a deployment place): produce only
/// what the faction's bases and ship slots can take, the strongest per deployment point first
/// (from the factory box, else augmented and produced at once, 5.3); refit weak counters left
/// in the box into stronger types (8, 0.5P each) and augment for next turn's deployment with
/// what is left. Points still left lapse (5.5). Never scrap (5.6). Returns the armament and the
/// deployment of the units it produces (and of those that waited from before, 29.5.2).
fn armament(state: &State, side: Side, rng: &mut BotRng) -> (Vec<ArmItem>, Vec<DeployUnit>) {
    let mut items: Vec<ArmItem> = Vec::new();
    let mut placed: Vec<DeployUnit> = Vec::new();
    let mut bins = bins(state, side);
    let capacity: i64 = bins.iter().map(|b| i64::from(b.left)).sum();
    // Units that wait from before (29.5.2's Red Qubeley Mk-II) go first: named by type.
    for (_, t) in state.sides[side].sheet.awaiting.iter() {
        if let Some(i) = fit(state, &bins, t) {
            placed.push(take(state, &mut bins, i, t, t, Some(1)));
        }
    }
    let mut spent = 0u32;
    let income = {
        let c = Ctx::new(state.clone(), None, Moment::Check);
        arming::income(&c, side)
    };
    while items.len() < MAX_ARM_ITEMS {
        // The sheet as the items so far leave it.
        let mut sim = Ctx::new(state.clone(), None, Moment::Check);
        let problems = arming::simulate_armament(&mut sim, side, &items, &FieldPath::root());
        if !problems.is_empty() {
            items.pop();
            break;
        }
        let left = income.saturating_sub(spent);
        sim.state.sides[side].sheet.points_left = Some(left);
        let in_box: i64 = sim.state.sides[side]
            .factory
            .values()
            .map(|n| i64::from(*n))
            .sum();
        // The best box unit that still fits: an augment must beat it to be worth its 2P.
        let best_box = sim.state.sides[side]
            .factory
            .keys()
            .filter(|t| fit(state, &bins, t).is_some())
            .map(|t| type_power(state, t) * 100 / i64::from(deploy_points(state, t)))
            .max();
        let choices = arming::armament_choices(&sim, side);
        let best = choices
            .into_iter()
            .filter_map(|c| {
                let score = match &c.item {
                    ArmItem::Produce(p) => {
                        fit(state, &bins, &p.type_id)?;
                        30_000
                            + type_power(state, &p.type_id) * 100
                                / i64::from(deploy_points(state, &p.type_id))
                    }
                    ArmItem::Refit(r) => {
                        // A weak counter into a stronger type before it is produced (or for
                        // next turn).
                        let gain = type_power(state, &r.into) * 100
                            / i64::from(deploy_points(state, &r.into))
                            - type_power(state, &r.out) * 100
                                / i64::from(deploy_points(state, &r.out));
                        let pp_more =
                            2 * i64::from(state.data.unit_type(&r.into).map_or(0, |t| t.pp));
                        if gain < 300 || i64::from(left) < 1 + pp_more {
                            return None;
                        }
                        40_000 + gain
                    }
                    ArmItem::Augment(a) => {
                        let pp = state.data.unit_type(&a.type_id).map_or(0, |t| t.pp);
                        let v = type_power(state, &a.type_id) * 100
                            / i64::from(deploy_points(state, &a.type_id));
                        if fit(state, &bins, &a.type_id).is_some()
                            && left >= 4 + 2 * u32::from(pp)
                            && best_box.is_none_or(|b| v > b)
                        {
                            // Augmented and produced at once (5.3).
                            20_000 + v
                        } else if in_box < capacity {
                            // For next turn's deployment.
                            10_000 + v
                        } else {
                            return None;
                        }
                    }
                    _ => return None,
                };
                Some((score + rng.jitter(40), c.item))
            })
            .max_by_key(|(s, _)| *s);
        let Some((_, mut item)) = best else {
            break;
        };
        spent += arming::cost(&sim, &item);
        if let ArmItem::Produce(p) = &mut item {
            let label = format!("b{}", items.len() + 1);
            if let Some(i) = fit(state, &bins, &p.type_id) {
                placed.push(take(state, &mut bins, i, &p.type_id, &label, None));
            }
            *p = Produce {
                type_id: p.type_id.clone(),
                count: 1,
                label: Some(label),
            };
        }
        items.push(item);
    }
    (items, placed)
}

/// How much a base wants a new unit (review §5 "Deployment": VP × how short the garrison is
/// of the threat), plus its own worth.
fn base_need(state: &State, side: Side, base: &str) -> i64 {
    let Some(loc) = state.data.base_hex(base).or_else(|| {
        state
            .bases
            .get(base)
            .and_then(|b| b.place)
            .and_then(|p| p.loc())
    }) else {
        return 0;
    };
    let vp = eval::vp_at(state, base, 3).max(1);
    let deficit = (eval::threat_near(state, loc, side) - eval::power_at(state, loc, side)).max(0);
    vp * (1 + deficit / 4)
}

/// 9.2-9.4: each produced unit to the base that needs it most, or onto a ship's slot
/// (29.2.6, 29.3.1) when that is better.
fn deployment(state: &State, side: Side, o: Orders, rng: &mut BotRng) -> Orders {
    let mut sim = Ctx::new(state.clone(), None, Moment::Check);
    let _ = arming::simulate_armament(&mut sim, side, &o.armament, &FieldPath::root());
    let mut candidates: Vec<(i64, DeployUnit)> = Vec::new();
    for c in deploy::deploy_unit_choices(&sim, side) {
        let score = match (&c.item.base, &c.item.onto) {
            (Some(b), _) => base_need(state, side, b),
            (None, Some(ship)) => 5 + eval::unit_power(state, ship) / 4,
            _ => 0,
        };
        candidates.push((score * 10 + rng.jitter(20), c.item));
    }
    compose(
        o,
        candidates,
        usize::MAX,
        |o, item| {
            // One place per label.
            if !o.deployment.units.iter().any(|u| u.label == item.label) {
                o.deployment.units.push(item.clone());
            }
        },
        |o| deployable(state, side, o),
    )
}

/// Whether `check` accepts `o` but for produced units not deployed yet (9.1), which the
/// deployment is being composed to place.
fn deployable(state: &State, side: Side, o: &Orders) -> bool {
    crate::systems::zeta::orders::check(state, side.name(), o)
        .iter()
        .all(|p| p.message.starts_with("produced but not deployed"))
}

/// 9.5-9.6: each waiting character aboard the strongest unit it may ride (a pilot's bonus
/// counts most on a strong MS, a captain's on a big ship), alone in a hex only if nothing
/// takes it.
fn characters(state: &State, side: Side, o: Orders, rng: &mut BotRng) -> Orders {
    let mut sim = Ctx::new(state.clone(), None, Moment::Check);
    let _ = arming::simulate_armament(&mut sim, side, &o.armament, &FieldPath::root());
    let mut candidates = Vec::new();
    for c in deploy::char_place_choices(&sim, side) {
        let score = match &c.item.aboard {
            Some(u) => 10 + eval::unit_power(&sim.state, u),
            None => 1,
        };
        candidates.push((score * 10 + rng.jitter(10), c.item));
    }
    compose(
        o,
        candidates,
        usize::MAX,
        |o, item| {
            if !o.deployment.characters.iter().any(|c| c.char == item.char) {
                o.deployment.characters.push(item.clone());
            }
        },
        |o| accepted(state, side, o),
    )
}

/// What one card of `kind` is worth to `side` this turn (review §5 "Cards"): the strength
/// that could act with it. Space and Ground move their map's units (12.2-12.3); an Atmosphere
/// card moves units at drop points and on own ground bases (12.4), counted at half.
fn kind_value(state: &State, side: Side, kind: CardKind) -> i64 {
    let mut v = 0;
    for (id, u) in state.units.iter().filter(|(_, u)| u.side == side) {
        let p = eval::unit_power(state, id);
        let on = match u.place {
            Place::Hex(l) => Some(l.map),
            // Axis's units act on Space cards (30.3).
            Place::Belt => Some(MapId::Space),
            Place::Jupiter => Some(MapId::Space),
        };
        v += match (kind, on) {
            (CardKind::Space, Some(MapId::Space)) => p,
            (CardKind::Ground, Some(MapId::Ground)) => p,
            (CardKind::Atmosphere, Some(MapId::Space)) => {
                let at_drop = u.place.loc().is_some_and(|l| {
                    state
                        .data
                        .map
                        .space
                        .drop_points
                        .iter()
                        .any(|(_, h)| h == l.at)
                });
                if at_drop { p } else { 0 }
            }
            (CardKind::Atmosphere, Some(MapId::Ground)) => p / 3,
            _ => 0,
        };
    }
    // Targets on a map make its card worth more: enemy-held bases near own units.
    let targets: i64 = state
        .bases
        .keys()
        .filter(|b| state.bases.get(*b).and_then(|x| x.governor) != Some(side))
        .filter_map(|b| state.data.base_hex(b).map(|l| (b, l)))
        .filter(|(_, l)| match kind {
            CardKind::Space => l.map == MapId::Space,
            CardKind::Ground => l.map == MapId::Ground,
            CardKind::Atmosphere => false,
        })
        .filter(|(_, l)| {
            state.units.values().any(|u| {
                u.side == side
                    && u.place
                        .loc()
                        .and_then(|m| state.data.distance(m, *l))
                        .is_some_and(|d| d <= NEAR)
            })
        })
        .map(|(b, _)| eval::base_gain(state, side, b))
        .sum();
    v + targets * 3
}

/// 10.2-10.3: the legal set of three with the most value, a second and third card of a kind
/// counting 6/10 and 3/10 of the first (review §5).
fn cards_choice(state: &State, side: Side, o: Orders, rng: &mut BotRng) -> Orders {
    let ctx = Ctx::new(state.clone(), None, Moment::Check);
    let value = |k: CardKind| kind_value(state, side, k);
    let mut best: Option<(i64, Vec<CardKind>)> = None;
    for c in cards::card_choices(&ctx, side) {
        let mut seen: Vec<CardKind> = Vec::new();
        let mut score = 0;
        for k in &c.item {
            let n = seen.iter().filter(|s| *s == k).count();
            score += value(*k) * [10, 6, 3].get(n).copied().unwrap_or(1);
            seen.push(*k);
        }
        score += rng.jitter(30);
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, c.item));
        }
    }
    let Some((_, set)) = best else {
        return o;
    };
    let mut with = o.clone();
    with.cards = Some(CardChoice::Plain(set));
    if accepted(state, side, &with) {
        with
    } else {
        o
    }
}
