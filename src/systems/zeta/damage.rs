//! Damage (25-26): hits become quanta of loss, chosen by the scorer's allocation policy
//! after the receivers have placed their command shares (26, §12/F1), then applied to the
//! state: flips, removals with their cargo (25.9), bases losing levels (25.8, 25.10), and the
//! survival checks of the characters aboard (27.1-27.2).

use super::ctx::Ctx;
use super::data::{BaseId, CharId, Class, Side, UnitId};
use super::policy::{Allocate, Share};
use super::state::{CharPlace, FaceUp};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One legal unit of loss.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantum {
    /// A front-face unit flips (its defense in hits, 25.4).
    Flip(UnitId),
    /// A flipped unit is removed (its back defense).
    Kill(UnitId),
    /// A front-face unit is removed at once (front + back defense).
    KillFresh(UnitId),
    /// A military base loses `levels` levels (the sum of those levels' defenses, 25.8, A-52).
    BaseDown(BaseId, u8),
}

impl Quantum {
    /// The unit or base the quantum falls on: quanta of one key exclude each other.
    pub fn key(&self) -> &str {
        match self {
            Quantum::Flip(u) | Quantum::Kill(u) | Quantum::KillFresh(u) => u,
            Quantum::BaseDown(b, _) => b,
        }
    }
}

/// What an allocation's hits do, in order.
pub type Allocation = Vec<Quantum>;

/// What a target is, for the priority policy's words (plan §4.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Ms,
    Ship,
    Colony,
    Base,
}

/// Something hits may land on, with the hits each quantum costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub quantum: Quantum,
    pub cost: u32,
    /// What the scorer gains by it (plan §4.5 with §12/F11: PP removed x 2 + PP flipped, 3 per
    /// VP a base loses, 2 per character aboard a removed unit, 3 for NT or commanders).
    pub value: u32,
    /// The faction that owns the unit or governs the base (§12/F1: a share's faction places
    /// it on its own targets only).
    pub side: Side,
    pub kind: TargetKind,
    /// The unit's type (the base id for a base), for `type:X`.
    pub type_id: String,
    /// The unit shows its back (for `flipped_first`).
    pub flipped: bool,
}

/// Targets grouped by key, in key order: at most one quantum of a group is taken.
fn groups(targets: &[Target]) -> Vec<Vec<&Target>> {
    let mut by: BTreeMap<&str, Vec<&Target>> = BTreeMap::new();
    for t in targets {
        by.entry(t.quantum.key()).or_default().push(t);
    }
    by.into_values().collect()
}

/// The best choice of at most one target per group within `cap` hits, by `score` (an exact
/// knapsack over groups; equal scores keep the earlier choice, so the result depends only on
/// the ids).
fn knapsack<'a>(
    groups: &[Vec<&'a Target>],
    cap: u32,
    score: impl Fn(&Target) -> i64,
) -> Vec<&'a Target> {
    let width = usize::try_from(cap).unwrap_or(0).saturating_add(1);
    let mut best = vec![0i64; width];
    let mut choice: Vec<Vec<Option<usize>>> = Vec::with_capacity(groups.len());
    for g in groups {
        let mut next = best.clone();
        let mut pick = vec![None; width];
        for (h, slot) in next.iter_mut().enumerate() {
            for (i, t) in g.iter().enumerate() {
                let Ok(c) = usize::try_from(t.cost) else {
                    continue;
                };
                if c > h || c == 0 {
                    continue;
                }
                let Some(prev) = best.get(h - c) else {
                    continue;
                };
                let s = prev.saturating_add(score(t));
                if s > *slot {
                    *slot = s;
                    if let Some(p) = pick.get_mut(h) {
                        *p = Some(i);
                    }
                }
            }
        }
        best = next;
        choice.push(pick);
    }
    let mut out = Vec::new();
    let mut h = width - 1;
    for (g, pick) in groups.iter().zip(choice.iter()).rev() {
        if let Some(Some(i)) = pick.get(h)
            && let Some(t) = g.get(*i)
        {
            out.push(*t);
            h = h.saturating_sub(usize::try_from(t.cost).unwrap_or(h));
        }
    }
    out.reverse();
    out
}

/// allocation goes on while a legal quantum still fits. Adds, group by group in key
/// order, the dearest quantum that fits, or turns a flip into the removal of the same unit.
fn fill<'a>(groups: &[Vec<&'a Target>], chosen: &mut Vec<&'a Target>, mut left: u32) {
    for g in groups {
        let Some(first) = g.first() else { continue };
        let key = first.quantum.key();
        let taken = chosen.iter().position(|t| t.quantum.key() == key);
        match taken {
            None => {
                let fit = g
                    .iter()
                    .filter(|t| t.cost > 0 && t.cost <= left)
                    .max_by_key(|t| t.cost);
                if let Some(t) = fit {
                    left -= t.cost;
                    chosen.push(t);
                }
            }
            Some(i) => {
                let Some(have) = chosen.get(i).copied() else {
                    continue;
                };
                let up = g
                    .iter()
                    .filter(|t| t.cost > have.cost && t.cost - have.cost <= left)
                    .max_by_key(|t| t.cost);
                if let Some(t) = up {
                    left -= t.cost - have.cost;
                    if let Some(slot) = chosen.get_mut(i) {
                        *slot = t;
                    }
                }
            }
        }
    }
}

fn spent(chosen: &[&Target]) -> u32 {
    chosen
        .iter()
        .map(|t| t.cost)
        .fold(0u32, u32::saturating_add)
}

/// Chooses the quanta `hits` buy among `targets` (25.3-25.5, A-50). `max_value` is the exact
/// knapsack on the targets' values; a priority list takes groups in its order, each with the
/// dearest quantum that fits. Either way the hits left are then spent while anything fits;
/// what fits nothing is lost (25.5).
pub fn allocate(policy: &Allocate, hits: u32, targets: &[Target]) -> Allocation {
    let gs = groups(targets);
    let cap = hits.min(
        targets
            .iter()
            .map(|t| t.cost)
            .fold(0u32, u32::saturating_add),
    );
    let mut chosen = match policy {
        Allocate::MaxValue => knapsack(&gs, cap, |t| i64::from(t.value)),
        Allocate::Priority(list) => {
            let mut order: Vec<&Vec<&Target>> = gs.iter().collect();
            order.sort_by_key(|g| g.first().map(|t| rank(list, t)).unwrap_or(usize::MAX));
            let mut chosen = Vec::new();
            let mut left = cap;
            for g in order {
                let fit = g
                    .iter()
                    .filter(|t| t.cost > 0 && t.cost <= left)
                    .max_by_key(|t| t.cost);
                if let Some(t) = fit {
                    left -= t.cost;
                    chosen.push(*t);
                }
            }
            chosen
        }
    };
    let left = cap.saturating_sub(spent(&chosen));
    fill(&gs, &mut chosen, left);
    chosen.sort_by(|a, b| a.quantum.cmp(&b.quantum));
    chosen.into_iter().map(|t| t.quantum.clone()).collect()
}

/// The position of the first priority word that names `t` (the list's length when none does).
fn rank(list: &[String], t: &Target) -> usize {
    list.iter()
        .position(|w| match w.as_str() {
            "flipped_first" => t.flipped,
            "ships_first" => t.kind == TargetKind::Ship,
            "base_first" => t.kind == TargetKind::Base,
            _ => match w.strip_prefix("type:") {
                Some(ty) => t.type_id == ty,
                None => w == t.quantum.key(),
            },
        })
        .unwrap_or(list.len())
}

/// How a faction places its command share (26.1-26.3) of `hits` on `targets` (its own
/// units only, §12/F1): as many hits as it can absorb, at the least value lost, never on the
/// units it protects (`share: protect` and the `protect` policy). What it cannot place goes
/// back to the scorer.
pub fn place_share(share: &Share, protect: &[String], hits: u32, targets: &[Target]) -> Allocation {
    let shielded = |t: &Target| {
        let listed = |l: &[String]| l.iter().any(|p| p == t.quantum.key());
        listed(protect) || matches!(share, Share::Protect(l) if listed(l))
    };
    let open: Vec<Target> = targets.iter().filter(|t| !shielded(t)).cloned().collect();
    let gs = groups(&open);
    let weight = open
        .iter()
        .map(|t| i64::from(t.value))
        .sum::<i64>()
        .saturating_add(1);
    let chosen = knapsack(&gs, hits, |t| {
        i64::from(t.cost)
            .saturating_mul(weight)
            .saturating_sub(i64::from(t.value))
    });
    let mut out: Allocation = chosen.into_iter().map(|t| t.quantum.clone()).collect();
    out.sort();
    out
}

/// The hits an allocation uses, from the targets it was chosen among.
pub fn cost_of(alloc: &[Quantum], targets: &[Target]) -> u32 {
    alloc
        .iter()
        .filter_map(|q| targets.iter().find(|t| t.quantum == *q))
        .map(|t| t.cost)
        .fold(0u32, u32::saturating_add)
}

/// 3 for a character worth more in a fight (NT or a commander), else 2 (§12/F11).
fn char_weight(ctx: &Ctx<'_>, c: &str) -> u32 {
    match ctx.data.character(c) {
        Some(d) if d.nt || d.ms_command > 0 || d.ship_command > 0 => 3,
        Some(_) => 2,
        None => 0,
    }
}

/// Characters aboard `unit` now.
pub fn aboard(ctx: &Ctx<'_>, unit: &str) -> Vec<CharId> {
    ctx.state
        .chars
        .iter()
        .filter(|(_, c)| matches!(&c.place, CharPlace::Aboard(u) if u == unit))
        .map(|(id, _)| id.clone())
        .collect()
}

/// MS carried by `ship` now (15.1).
pub fn cargo(ctx: &Ctx<'_>, ship: &str) -> Vec<UnitId> {
    ctx.state
        .units
        .iter()
        .filter(|(_, u)| u.carrier.as_deref() == Some(ship))
        .map(|(id, _)| id.clone())
        .collect()
}

/// What removing `unit` is worth to the scorer: its PP twice, its characters, and the MS it
/// carries with theirs (25.9).
fn removal_value(ctx: &Ctx<'_>, unit: &str) -> u32 {
    let Some(u) = ctx.state.units.get(unit) else {
        return 0;
    };
    let pp = ctx
        .data
        .unit_type(&u.type_id)
        .map(|t| u32::from(t.pp))
        .unwrap_or(0);
    let chars: u32 = aboard(ctx, unit).iter().map(|c| char_weight(ctx, c)).sum();
    let carried: u32 = cargo(ctx, unit)
        .iter()
        .filter(|m| m.as_str() != unit)
        .map(|m| {
            let pp = ctx
                .state
                .units
                .get(m)
                .and_then(|u| ctx.data.unit_type(&u.type_id))
                .map(|t| u32::from(t.pp))
                .unwrap_or(0);
            2 * pp
                + aboard(ctx, m)
                    .iter()
                    .map(|c| char_weight(ctx, c))
                    .sum::<u32>()
        })
        .sum();
    2 * pp + chars + carried
}

/// The quanta one unit offers (25.4, A-50), with `bonus` added to both faces' defense (25.6
/// pilot's MS defense, 25.7 captain's ship defense).
pub fn unit_targets(ctx: &Ctx<'_>, unit: &str, bonus: u8) -> Vec<Target> {
    let Some(u) = ctx.state.units.get(unit) else {
        return Vec::new();
    };
    let Some(t) = ctx.data.unit_type(&u.type_id) else {
        return Vec::new();
    };
    let kind = match t.class {
        Class::Ms => TargetKind::Ms,
        Class::Ship => TargetKind::Ship,
        Class::Colony => TargetKind::Colony,
    };
    let front = u32::from(t.front.defense.saturating_add(bonus));
    let back = u32::from(t.back.defense.saturating_add(bonus));
    let pp = u32::from(t.pp);
    let kill = removal_value(ctx, unit);
    let mk = |quantum, cost, value| Target {
        quantum,
        cost,
        value,
        side: u.side,
        kind,
        type_id: u.type_id.clone(),
        flipped: u.face == FaceUp::Back,
    };
    // 35.8: the colony takes hits as a ship of defense 7 on each face: 7 hits turn it over
    // (35.7.1 rolls on its back), 7 more remove it. The book wins over the digest's A-75,
    // which read it as 14 hits at once with no back.
    match (u.face, kind) {
        (FaceUp::Front, _) => vec![
            mk(Quantum::Flip(unit.to_string()), front, pp),
            mk(Quantum::KillFresh(unit.to_string()), front + back, kill),
        ],
        (FaceUp::Back, _) => vec![mk(Quantum::Kill(unit.to_string()), back, kill)],
    }
}

/// The quanta a military base offers (25.8, A-52): k levels for the sum of the defenses of
/// the current level and the k - 1 below it; worth 3 per VP it loses, and the housed units
/// when it falls to 0 (25.10).
pub fn base_targets(ctx: &Ctx<'_>, base: &str, housed: &BTreeSet<UnitId>) -> Vec<Target> {
    let (Some(b), Some(def)) = (ctx.state.bases.get(base), ctx.data.base(base)) else {
        return Vec::new();
    };
    let Some(gov) = b.governor else {
        return Vec::new();
    };
    let vp = |l: u8| def.at_level(l).map(|v| u32::from(v.vp)).unwrap_or(0);
    let mut out = Vec::new();
    let mut cost = 0u32;
    for k in 1..=b.level {
        let level = b.level - k + 1;
        cost = cost.saturating_add(
            def.at_level(level)
                .map(|v| u32::from(v.defense))
                .unwrap_or(0),
        );
        let mut value = 3 * (vp(b.level).saturating_sub(vp(b.level - k)));
        if k == b.level {
            value += housed.iter().map(|u| removal_value(ctx, u)).sum::<u32>();
        }
        out.push(Target {
            quantum: Quantum::BaseDown(base.to_string(), k),
            cost,
            value,
            side: gov,
            kind: TargetKind::Base,
            type_id: base.to_string(),
            flipped: false,
        });
    }
    out
}

/// What applying a step's quanta did, for the survival checks that follow (27.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Losses {
    /// Characters that must roll (27.1, 27.2), with the hex they were in.
    pub survivors: Vec<(CharId, super::data::Loc)>,
    pub removed: Vec<UnitId>,
}

/// Removes `unit` to its owner's factory box (25.4), its cargo with it (25.9), and notes the
/// characters aboard for their survival checks (27.1).
pub fn remove_unit(ctx: &mut Ctx<'_>, unit: &str, losses: &mut Losses) {
    let Some(u) = ctx.state.units.remove(unit) else {
        return;
    };
    let at = u.place.loc();
    if let Some(t) = ctx.data.unit_type(&u.type_id) {
        if t.class == Class::Colony {
            // 35.8 hook: the colony goes back off the map; the colony commit (12) owns
            // what its removal means for the faction's drop.
            ctx.state.colony.in_use_by = None;
        } else if super::character::leaves_the_game(u.side, &u.type_id) {
            // 29.4.4: AEUG's Black Qubeley Mk-II is out of the game, not in the factory box.
            crate::kit::reach::fire("29.4.4");
            let n = ctx.state.sides[u.side]
                .out_of_game
                .entry(u.type_id.clone())
                .or_insert(0);
            *n = n.saturating_add(1);
        } else {
            let f = ctx.state.sides[u.side]
                .factory
                .entry(u.type_id.clone())
                .or_insert(0);
            *f = f.saturating_add(1);
        }
    }
    ctx.log
        .public(format!("{} {unit} is removed (25.4)", u.side));
    losses.removed.push(unit.to_string());
    if let Some(at) = at {
        for c in aboard(ctx, unit) {
            losses.survivors.push((c, at));
        }
    }
    // 25.9: the MS a removed ship carries go with it.
    for m in cargo(ctx, unit) {
        crate::kit::reach::fire("25.9");
        remove_unit(ctx, &m, losses);
    }
}

/// Applies one step's quanta (25.4, 25.8, 25.10): units flip or go, bases lose levels and at 0
/// turn neutral with their housed units removed. `housed` lists the units sheltered in each
/// base (20.4) and `in_base` the characters staying in it (20.7).
pub fn apply(
    ctx: &mut Ctx<'_>,
    alloc: &[Quantum],
    housed: &BTreeMap<BaseId, BTreeSet<UnitId>>,
    in_base: &BTreeMap<BaseId, BTreeSet<CharId>>,
    losses: &mut Losses,
) {
    // A share's flip and the scorer's removal of the same unit add up (26.4: applied after
    // both): count per unit.
    let mut flips: BTreeSet<&str> = BTreeSet::new();
    let mut kills: BTreeSet<&str> = BTreeSet::new();
    for q in alloc {
        match q {
            Quantum::Flip(u) => {
                if !flips.insert(u) {
                    kills.insert(u);
                }
            }
            Quantum::Kill(u) | Quantum::KillFresh(u) => {
                kills.insert(u);
            }
            Quantum::BaseDown(..) => {}
        }
    }
    for u in &flips {
        if kills.contains(u) {
            continue;
        }
        if let Some(unit) = ctx.state.units.get_mut(*u) {
            crate::kit::reach::fire("25.4");
            unit.face = FaceUp::Back;
            let side = unit.side;
            ctx.log.public(format!("{side} {u} is flipped (25.4)"));
        }
    }
    for u in kills {
        crate::kit::reach::fire("25.4");
        remove_unit(ctx, u, losses);
    }
    for q in alloc {
        let Quantum::BaseDown(b, k) = q else { continue };
        let Some(base) = ctx.state.bases.get_mut(b) else {
            continue;
        };
        crate::kit::reach::fire("25.8");
        base.level = base.level.saturating_sub(*k);
        let level = base.level;
        let gov = base.governor;
        if level == 0 {
            // 25.10: at 0 the base turns neutral, and what it houses is lost.
            base.governor = None;
            crate::kit::reach::fire("25.10");
            ctx.log
                .public(format!("{b} falls to level 0 and turns neutral (25.10)"));
            let at = ctx.data.base_hex(b).or_else(|| {
                ctx.state
                    .bases
                    .get(b)
                    .and_then(|s| s.place.as_ref())
                    .and_then(|p| p.loc())
            });
            for u in housed.get(b).into_iter().flatten() {
                remove_unit(ctx, u, losses);
            }
            if let Some(at) = at {
                for c in in_base.get(b).into_iter().flatten() {
                    // 27.2: characters staying in the base roll too.
                    crate::kit::reach::fire("27.2");
                    losses.survivors.push((c.clone(), at));
                }
            }
        } else if let Some(g) = gov {
            ctx.log
                .public(format!("{g}'s {b} loses {k} level(s), now {level} (25.8)"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(q: Quantum, cost: u32, value: u32) -> Target {
        Target {
            quantum: q,
            cost,
            value,
            side: Side::Aeug,
            kind: TargetKind::Ms,
            type_id: "gm2".into(),
            flipped: false,
        }
    }

    fn unit(id: &str, def_f: u32, def_b: u32, pp: u32) -> Vec<Target> {
        vec![
            t(Quantum::Flip(id.into()), def_f, pp),
            t(Quantum::KillFresh(id.into()), def_f + def_b, 2 * pp),
        ]
    }

    #[test]
    fn max_value_takes_the_best_exact_knapsack_25_3() {
        // 5 hits: a 2/2 GM II (pp 1) and a 3/3 Mk-II (pp 2): flipping both (2 + 3 = 5, value
        // 3) beats removing the GM II (4 hits, value 2).
        let mut ts = unit("a-gm2-1", 2, 2, 1);
        ts.extend(unit("a-mk2-1", 3, 3, 2));
        let got = allocate(&Allocate::MaxValue, 5, &ts);
        assert_eq!(
            got,
            vec![
                Quantum::Flip("a-gm2-1".into()),
                Quantum::Flip("a-mk2-1".into())
            ]
        );
    }

    #[test]
    fn the_colony_turns_over_at_7_hits_and_goes_at_7_more_35_8() {
        use crate::systems::zeta::ctx::Moment;
        use crate::systems::zeta::deploy::fixture::{state, unit};
        let mut st = state();
        unit(&mut st, "colony", Side::NeoZeon, "colony", "space:F02");
        let c = Ctx::new(st.clone(), None, Moment::Resolve);
        let got: Vec<(Quantum, u32)> = unit_targets(&c, "colony", 0)
            .into_iter()
            .map(|t| (t.quantum, t.cost))
            .collect();
        assert_eq!(
            got,
            vec![
                (Quantum::Flip("colony".into()), 7),
                (Quantum::KillFresh("colony".into()), 14)
            ]
        );
        if let Some(u) = st.units.get_mut("colony") {
            u.face = FaceUp::Back;
        }
        let c = Ctx::new(st, None, Moment::Resolve);
        let got: Vec<(Quantum, u32)> = unit_targets(&c, "colony", 0)
            .into_iter()
            .map(|t| (t.quantum, t.cost))
            .collect();
        assert_eq!(got, vec![(Quantum::Kill("colony".into()), 7)]);
    }

    #[test]
    fn hits_below_every_defense_are_lost_25_5() {
        let ts = unit("a-mk2-1", 3, 3, 2);
        assert!(allocate(&Allocate::MaxValue, 2, &ts).is_empty());
    }

    #[test]
    fn allocation_goes_on_while_a_quantum_fits_a50() {
        // Worth nothing (a value of 0) still takes the hits: allocation is compulsory.
        let ts = vec![t(Quantum::KillFresh("x-colony".into()), 14, 0)];
        assert_eq!(allocate(&Allocate::MaxValue, 14, &ts).len(), 1);
    }

    #[test]
    fn a_base_loses_levels_for_the_sum_of_their_defenses_25_8() {
        let mut ts = vec![
            t(Quantum::BaseDown("granada".into(), 1), 5, 6),
            t(Quantum::BaseDown("granada".into(), 2), 9, 12),
        ];
        ts.extend(unit("a-gm2-1", 2, 2, 1));
        let got = allocate(&Allocate::MaxValue, 9, &ts);
        assert_eq!(got, vec![Quantum::BaseDown("granada".into(), 2)]);
    }

    #[test]
    fn a_priority_list_goes_in_its_order() {
        let mut ts = unit("a-gm2-1", 2, 2, 1);
        ts.extend(unit("a-mk2-1", 3, 3, 2));
        let got = allocate(&Allocate::Priority(vec!["a-gm2-1".into()]), 4, &ts);
        assert_eq!(got, vec![Quantum::KillFresh("a-gm2-1".into())]);
    }

    #[test]
    fn priority_words_pick_flipped_ships_bases_and_types() {
        let mut ts = unit("a-gm2-1", 2, 2, 1);
        let mut ship = unit("a-salamis-1", 3, 3, 2);
        for t in &mut ship {
            t.kind = TargetKind::Ship;
            t.type_id = "salamis_kai".into();
        }
        ts.extend(ship);
        let mut back = t(Quantum::Kill("a-nemo-1".into()), 2, 2);
        back.flipped = true;
        ts.push(back);
        let p = |w: &str| Allocate::Priority(vec![w.to_string()]);
        assert_eq!(
            allocate(&p("ships_first"), 3, &ts),
            vec![Quantum::Flip("a-salamis-1".into())]
        );
        assert_eq!(
            allocate(&p("type:salamis_kai"), 3, &ts),
            vec![Quantum::Flip("a-salamis-1".into())]
        );
        assert_eq!(
            allocate(&p("flipped_first"), 2, &ts),
            vec![Quantum::Kill("a-nemo-1".into())]
        );
    }

    #[test]
    fn a_share_absorbs_all_it_can_at_the_least_loss_26_3() {
        // 2 hits of share: flip the GM II (pp 1), not the Mk-II it cannot reach anyway.
        let mut ts = unit("a-gm2-1", 2, 2, 1);
        ts.extend(unit("a-nemo-1", 2, 2, 1));
        ts.extend(unit("a-mk2-1", 3, 3, 2));
        let got = place_share(&Share::MinLoss, &[], 3, &ts);
        assert_eq!(got, vec![Quantum::Flip("a-mk2-1".into())]);
        let got = place_share(&Share::MinLoss, &["a-mk2-1".into()], 3, &ts);
        assert_eq!(got, vec![Quantum::Flip("a-gm2-1".into())]);
        assert_eq!(cost_of(&got, &ts), 2);
    }
}
