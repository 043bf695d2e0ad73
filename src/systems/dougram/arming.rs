//! The arming phase (6) with the Dougram repair (21.3): Lib turns latent chits into units.
//!
//! Arming points (6.3) are one pool for the phase: the VP of every city Lib controls, each city
//! once, a city that flips to Lib during the phase adding its VP when it flips (default A4),
//! plus the chits drawn by played `arming_points` cards (6.3.2, 6.7; their values are public).
//! Unspent points lapse at the end of the phase (6.3.3). Arm orders run in the listed order
//! (3.4); each one is all or nothing: if it cannot be paid or a counter is missing it is
//! skipped with a line told to Lib only (the opponent learns what was armed, never what was
//! ordered and did not happen), and the next one is tried.

use super::cards::{After, Effect, Flag, PhaseName};
use super::control;
use super::ctx::{Ctx, reason};
use super::data::{Class, HexId, HexRef, Side};
use super::play;
use super::state::{ChitAt, State, Unit, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where chits drawn by cards wait until the end of the phase, so that a second card cannot
/// draw the same chit (2.7: they go back to the cup once used). Never seen in a view: resolve
/// empties it before it returns.
const HOLD: &str = "arming_points";

/// The CBA type Lib may arm from the start (6.8).
pub const START_CBA: &str = "crab_gunner";
/// Lib's soldier type, always armable (6.4).
pub const SOLDIER: &str = "soldier";

/// A hex for log lines: `hex 57`, or `Spa (hex 34)` for a place.
pub fn hex_name(state: &State, h: HexId) -> String {
    match state.data.map.place_at(h) {
        Some(p) => format!("{} (hex {h})", p.en),
        None => format!("hex {h}"),
    }
}

/// The phasing side's arming orders for one step (`orders.arming` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmingOrders {
    /// 21.3: damaged Dougram-family units to repair at phase start (1 arming point each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repair: Vec<String>,
    /// Cards to play in this phase, before repairs and arming (6.3.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<u32>,
    /// Armings, resolved in this order (3.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arm: Vec<Arm>,
}

/// One arming: latent chits of one hex become new units in that hex (6.4-6.6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arm {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<HexRef>,
    /// Tokens of latent chits in that hex; their points are summed and split (6.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chits: Vec<u32>,
    /// Unit types to create.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub create: Vec<String>,
    /// Labels for the created units, in `create` order, for later orders of this step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

/// Latent and arming points a unit type costs (6.4), or None for an unknown type.
pub fn cost(state: &State, kind: &str) -> Option<u32> {
    state.data.counters.types.get(kind).map(|t| match t.class {
        Class::Soldier => 1,
        Class::Cba => 3,
    })
}

/// Whether some counter has a Lib face of this type (else Lib can never arm it, 6.9).
pub fn has_lib_face(state: &State, kind: &str) -> bool {
    state.data.counters.counter_defs().values().any(|d| {
        (d.front.side == Side::Lib && d.front.kind == kind)
            || d.back
                .as_ref()
                .is_some_and(|b| b.side == Side::Lib && b.kind == kind)
    })
}

/// The first stock counter (id order) with a face of `side` and type `kind`, never a 6th Army
/// counter (24.3) and none of `taken`.
pub fn stock_counter(
    state: &State,
    side: Side,
    kind: &str,
    taken: &BTreeSet<String>,
) -> Option<String> {
    let defs = state.data.counters.counter_defs();
    state
        .units
        .iter()
        .filter(|(id, u)| u.at == UnitAt::Stock && !taken.contains(*id))
        .find_map(|(id, _)| {
            let d = defs.get(id)?;
            let face = (d.front.side == side && d.front.kind == kind)
                || d.back
                    .as_ref()
                    .is_some_and(|b| b.side == side && b.kind == kind);
            (face && !d.sixth_army).then(|| id.clone())
        })
}

/// Stock counters Lib could arm as `kind` now (6.9).
fn stock_count(state: &State, kind: &str) -> usize {
    let mut taken = BTreeSet::new();
    while let Some(id) = stock_counter(state, Side::Lib, kind, &taken) {
        taken.insert(id);
    }
    taken.len()
}

/// 6.8, default A7: soldiers and Crab Gunners always; another type while a card with
/// `lib_arm: <type>` is open, or (in checks) will be opened by a card this order plays.
fn armable(state: &State, kind: &str, extra: &[Flag]) -> bool {
    let f = Flag::LibArm(kind.to_string());
    kind == SOLDIER || kind == START_CBA || state.flag(&f) || extra.contains(&f)
}

/// Flags of the listed cards that stay open once played.
pub fn flags_of_played(state: &State, plays: &[u32]) -> Vec<Flag> {
    plays
        .iter()
        .filter_map(|n| state.card(*n))
        .filter(|c| c.after == After::Open)
        .flat_map(|c| c.while_open.iter().cloned())
        .collect()
}

/// Tokens of the latent chits in hex `h`, in token order, with their ids.
fn latent(state: &State, h: HexId) -> Vec<(u32, String)> {
    let mut v: Vec<(u32, String)> = state
        .chits
        .iter()
        .filter(|(_, c)| c.at == ChitAt::Hex(h))
        .filter_map(|(id, c)| c.token.map(|t| (t, id.clone())))
        .collect();
    v.sort();
    v
}

fn is_city(state: &State, h: HexId) -> bool {
    state.data.map.place_at(h).is_some_and(|p| p.city)
}

/// Problems with labels for new units: empty, repeated in these orders, or a counter id.
pub fn check_label(
    state: &State,
    label: &str,
    seen: &mut BTreeSet<String>,
    at: &FieldPath,
) -> Option<Problem> {
    if label.is_empty() {
        return Some(Problem::new(
            at.clone(),
            "3.4",
            "an empty label",
            "a short name such as A1",
        ));
    }
    if state.units.contains_key(label) {
        return Some(Problem::new(
            at.clone(),
            "3.4",
            format!("label {label:?} is a counter id"),
            "a name that is no counter id",
        ));
    }
    if !seen.insert(label.to_string()) {
        return Some(Problem::new(
            at.clone(),
            "3.4",
            format!("label {label:?} is used twice"),
            "each label once",
        ));
    }
    None
}

/// Whether Lib may repair `name` now (21.1, 21.3, 21.3.1; the arming point, 21.3.2, is the
/// phase's to count): a damaged Lib Dougram-family unit on the map, in a city hex with a
/// latent chit, not listed before (`listed`: the names before it in the list, A34). Returns
/// the unit's hex. Nothing before the repairs moves a Lib unit, damages or repairs one, or takes
/// a latent chit off the map, so `check` and the phase judge alike.
pub fn legal_repair(
    state: &State,
    name: &str,
    listed: &BTreeSet<String>,
    at: &FieldPath,
) -> Result<HexId, Problem> {
    let problem = |rule: &str, msg: String, acc: &str| Problem::new(at.clone(), rule, msg, acc);
    let accepted = "a damaged Dougram-family unit in a city hex with a latent chit";
    if listed.contains(name) {
        return Err(problem(
            "21.3",
            format!("{name} is listed twice"),
            "one repair per unit per phase (21.3.1; docs/dougram.md, Decisions)",
        ));
    }
    let Some(u) = state.units.get(name) else {
        return Err(problem(
            "21.3",
            format!("there is no unit {name}"),
            accepted,
        ));
    };
    let two_step = state
        .unit_type(name)
        .and_then(|t| state.data.counters.types.get(t))
        .is_some_and(|t| t.damaged.is_some());
    let UnitAt::Hex(h) = u.at else {
        return Err(problem(
            "21.3",
            format!("{name} is not on the map"),
            accepted,
        ));
    };
    if u.side != Side::Lib || !two_step {
        Err(problem(
            "21.1",
            format!("{name} is not a Lib Dougram-family unit"),
            accepted,
        ))
    } else if !u.damaged {
        Err(problem("21.3", format!("{name} is not damaged"), accepted))
    } else if !is_city(state, h) {
        Err(problem(
            "21.3.1",
            format!("{name} is not in a city hex"),
            accepted,
        ))
    } else if latent(state, h).is_empty() {
        Err(problem(
            "21.3.1",
            format!("{} holds no latent chit", hex_name(state, h)),
            accepted,
        ))
    } else {
        Ok(h)
    }
}

/// The Lib units [`legal_repair`] accepts now, in id order.
pub fn repair_choices(state: &State) -> Vec<String> {
    let none = BTreeSet::new();
    state
        .units
        .keys()
        .filter(|id| legal_repair(state, id, &none, &FieldPath::root()).is_ok())
        .cloned()
        .collect()
}

/// Whether Lib may arm units of type `kind` now (6.4, 6.8, 6.9), `extra` holding the flags of
/// cards played before the arming; returns its cost in latent and arming points.
pub fn legal_arm_type(
    state: &State,
    kind: &str,
    extra: &[Flag],
    at: &FieldPath,
) -> Result<u32, Problem> {
    let Some(c) = cost(state, kind) else {
        return Err(Problem::new(
            at.clone(),
            "6.4",
            format!("there is no unit type {kind:?}"),
            "a type from counters.yaml, such as soldier or crab_gunner",
        ));
    };
    if !has_lib_face(state, kind) {
        return Err(Problem::new(
            at.clone(),
            "6.9",
            format!("no counter has a Lib {kind} face"),
            "soldier or crab_gunner",
        ));
    }
    if !armable(state, kind, extra) {
        return Err(Problem::new(
            at.clone(),
            "6.8",
            format!("Lib may not arm {kind} yet"),
            format!("soldier, {START_CBA}, or a type of an open lib_arm card"),
        ));
    }
    Ok(c)
}

/// The unit types [`legal_arm_type`] accepts now, in name order.
pub fn arm_type_choices(state: &State) -> Vec<String> {
    state
        .data
        .counters
        .types
        .keys()
        .filter(|k| legal_arm_type(state, k, &[], &FieldPath::root()).is_ok())
        .cloned()
        .collect()
}

/// What a legal arm order does: the latent chits it spends (token, chit id), the stock
/// counters it brings in (type, counter id), and the points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmPlan {
    pub hex: HexId,
    pub chits: Vec<(u32, String)>,
    pub counters: Vec<(String, String)>,
    /// Latent and arming points it costs (6.4).
    pub need: u32,
    /// Latent points of its chits (6.6).
    pub have: u32,
}

/// Whether one arm order is legal now (3.4, 6.2-6.9; the arming points, 6.3, are the phase's
/// to count), or every problem with it. `extra`: flags of the cards played before the arming
/// (at check time, those the orders play; the phase has opened them). `labels`: the labels
/// given so far, this order's added. `check` judges every arm order on the state at the start
/// of the step, the phase each one as it comes, after the ones before it spent their chits
/// and counters: a chit or stock counter named twice is refused only then, since the earlier
/// order may still fail for want of points.
pub fn legal_arm(
    state: &State,
    a: &Arm,
    extra: &[Flag],
    labels: &mut BTreeSet<String>,
    at: &FieldPath,
) -> Result<ArmPlan, Vec<Problem>> {
    let mut out = Vec::new();
    let hex = match &a.hex {
        None => {
            out.push(Problem::new(
                at.at("hex"),
                "6.2",
                "no hex given",
                "a hex id such as 57 or a place id such as spa",
            ));
            None
        }
        Some(r) => {
            let h = r.resolve(&state.data.map);
            if h.is_none() {
                out.push(Problem::new(
                    at.at("hex"),
                    "6.2",
                    format!("{r} is not a land hex or place on the map"),
                    "a hex id such as 57 or a place id such as spa",
                ));
            }
            h
        }
    };
    // Chits (6.5, 6.6).
    let mut chits = Vec::new();
    let mut have: Option<u32> = Some(0);
    if a.chits.is_empty() {
        out.push(Problem::new(
            at.at("chits"),
            "6.4",
            "no latent chit named",
            "tokens of latent chits in that hex",
        ));
    }
    if let Some(h) = hex {
        let here = latent(state, h);
        let tokens: Vec<String> = here.iter().map(|(t, _)| t.to_string()).collect();
        let mut used = BTreeSet::new();
        for (j, t) in a.chits.iter().enumerate() {
            let found = here.iter().find(|(tok, _)| tok == t);
            if !used.insert(*t) {
                out.push(Problem::new(
                    at.at("chits").at(j),
                    "6.5",
                    format!("chit {t} is named twice"),
                    "each chit once",
                ));
            } else if let Some((tok, id)) = found {
                have = have.map(|s| s + state.chits[id].value);
                chits.push((*tok, id.clone()));
            } else {
                have = None;
                out.push(Problem::new(
                    at.at("chits").at(j),
                    "6.5",
                    format!("no latent chit {t} in {}", hex_name(state, h)),
                    format!("a token in that hex: [{}]", tokens.join(", ")),
                ));
            }
        }
    } else {
        have = None;
    }
    // Types (6.4, 6.8, 6.9).
    let mut need: Option<u32> = Some(0);
    if a.create.is_empty() {
        out.push(Problem::new(
            at.at("create"),
            "6.4",
            "no unit to create",
            "unit types such as soldier or crab_gunner",
        ));
    }
    let mut taken = BTreeSet::new();
    let mut counters = Vec::new();
    for (j, kind) in a.create.iter().enumerate() {
        let pp = at.at("create").at(j);
        match legal_arm_type(state, kind, extra, &pp) {
            Err(e) => {
                need = need.zip(cost(state, kind)).map(|(n, c)| n + c);
                out.push(e);
            }
            Ok(c) => {
                need = need.map(|n| n + c);
                match stock_counter(state, Side::Lib, kind, &taken) {
                    Some(id) => {
                        taken.insert(id.clone());
                        counters.push((kind.clone(), id));
                    }
                    None => {
                        let left = stock_count(state, kind);
                        out.push(Problem::new(
                            pp,
                            "6.9",
                            format!("no {kind} counter is left in the stock"),
                            format!("at most {left} {kind} in this arming"),
                        ));
                    }
                }
            }
        }
    }
    if let (Some(have), Some(need)) = (have, need)
        && !a.chits.is_empty()
        && !a.create.is_empty()
        && have < need
    {
        out.push(Problem::new(
            at.at("chits"),
            "6.4",
            format!("the named chits hold fewer than the {need} latent points needed"),
            "more chits of that hex, or fewer units (soldier 1, CBA 3)",
        ));
    }
    if a.labels.len() > a.create.len() {
        out.push(Problem::new(
            at.at("labels").at(a.create.len()),
            "3.4",
            "more labels than units created",
            format!("at most {} label(s)", a.create.len()),
        ));
    }
    for (j, l) in a.labels.iter().enumerate() {
        if let Some(pr) = check_label(state, l, labels, &at.at("labels").at(j)) {
            out.push(pr);
        }
    }
    match (hex, have, need) {
        (Some(hex), Some(have), Some(need)) if out.is_empty() => Ok(ArmPlan {
            hex,
            chits,
            counters,
            need,
            have,
        }),
        _ => Err(out),
    }
}

/// The arm orders offered now: in each hex with latent chits, all its chits for one unit of
/// each type [`legal_arm_type`] accepts, where [`legal_arm`] accepts that.
pub fn arm_choices(state: &State) -> Vec<Arm> {
    let hexes = super::latency::chit_hexes(state);
    let types = arm_type_choices(state);
    let mut out = Vec::new();
    for h in hexes {
        let chits: Vec<u32> = latent(state, h).into_iter().map(|(t, _)| t).collect();
        for kind in &types {
            let a = Arm {
                hex: Some(HexRef::Hex(h)),
                chits: chits.clone(),
                create: vec![kind.clone()],
                labels: Vec::new(),
            };
            if legal_arm(state, &a, &[], &mut BTreeSet::new(), &FieldPath::root()).is_ok() {
                out.push(a);
            }
        }
    }
    out
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step:
/// each item by its legal_* function.
pub fn check(state: &State, side: Side, orders: &ArmingOrders, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Lib {
        if *orders != ArmingOrders::default() {
            out.push(Problem::new(
                at.clone(),
                "6.1",
                "only Lib has an arming phase",
                "leave arming out",
            ));
        }
        return out;
    }
    out.extend(play::legal_phase_plays(
        state,
        side,
        &orders.play,
        PhaseName::Arming,
        &at.at("play"),
    ));
    let extra = flags_of_played(state, &orders.play);
    let mut listed = BTreeSet::new();
    for (i, name) in orders.repair.iter().enumerate() {
        if let Err(e) = legal_repair(state, name, &listed, &at.at("repair").at(i)) {
            out.push(e);
        }
        listed.insert(name.clone());
    }
    let mut labels = BTreeSet::new();
    for (i, a) in orders.arm.iter().enumerate() {
        if let Err(e) = legal_arm(state, a, &extra, &mut labels, &at.at("arm").at(i)) {
            out.extend(e);
        }
    }
    out
}

/// The phase's arming point pool (6.3).
#[derive(Debug, Default)]
struct Pool {
    points: u32,
    counted: BTreeSet<String>,
}

impl Pool {
    /// Adds the VP of each Lib-controlled city not counted yet this phase (6.3.1, A4).
    fn gain(&mut self, state: &State, ctx: &mut Ctx) {
        for p in state.data.map.places.iter().filter(|p| p.city) {
            if state.control.get(&p.id) == Some(&Side::Lib) && self.counted.insert(p.id.clone()) {
                reach::fire("6.3.1");
                self.points += p.vp;
                ctx.log.public(format!(
                    "{} (Lib) gives {} arming point(s); {} in all (6.3.1: each city once, when it counts; docs/dougram.md, Decisions)",
                    p.en, p.vp, self.points
                ));
            }
        }
    }
}

/// Runs the phase for the phasing `side`.
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &ArmingOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    if side != Side::Lib {
        if *orders == ArmingOrders::default() {
            return Ok(());
        }
        return Err("arming orders for Fed: only Lib arms (6.1)".into());
    }
    reach::fire("6.1");
    control::check(state, "start of the arming phase", ctx);
    let mut pool = Pool::default();
    pool.gain(state, ctx);
    let mut held = Vec::new();
    for no in &orders.play {
        if let Err(p) =
            play::legal_phase_play(state, side, *no, PhaseName::Arming, &FieldPath::root())
        {
            // Private: the opponent must not learn which card was meant (2.10).
            ctx.log.private(
                side,
                format!("your card {no} is not played: {}", reason(&p)),
            );
            continue;
        }
        let card = play::play(state, side, *no, ctx)?;
        for (k, e) in card.effects.iter().enumerate() {
            if let Effect::ArmingPoints(ap) = e {
                let label = format!("t{}/lib/arming/card{no}/{k}", state.turn);
                let ids = state.draw_chits(
                    ctx.dice,
                    &label,
                    ap.draw_chits as usize,
                    ChitAt::Box(HOLD.into()),
                );
                let values: Vec<u32> = ids
                    .iter()
                    .filter_map(|id| state.chits.get(id).map(|c| c.value))
                    .collect();
                let sum: u32 = values.iter().sum();
                reach::fire("6.3.2");
                reach::fire("6.7");
                pool.points += sum;
                ctx.log.public(format!(
                    "card {no}: {} chit(s) drawn, worth {} ({} arming point(s)); {} in all (6.3.2, 6.7)",
                    values.len(),
                    values
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" + "),
                    sum,
                    pool.points
                ));
                if values.len() < ap.draw_chits as usize {
                    ctx.log
                        .public("the cup ran out of chits (2.4, digest 4.2)".to_string());
                }
                held.extend(ids);
            }
        }
    }
    let mut listed = BTreeSet::new();
    for name in &orders.repair {
        repair(state, name, &mut listed, &mut pool, ctx);
    }
    for (i, a) in orders.arm.iter().enumerate() {
        arm(state, i, a, &mut pool, ctx);
    }
    for id in held {
        state.return_chit(&id);
    }
    if !orders.play.is_empty() {
        ctx.log
            .public("the chits drawn for arming points go back to the cup (2.7)".to_string());
    }
    if pool.points > 0 {
        reach::fire("6.3.3");
        ctx.log.public(format!(
            "{} unspent arming point(s) lapse (6.3.3)",
            pool.points
        ));
    }
    Ok(())
}

/// 21.3, default A34: one repair, judged by [`legal_repair`] as it comes.
fn repair(
    state: &mut State,
    name: &str,
    listed: &mut BTreeSet<String>,
    pool: &mut Pool,
    ctx: &mut Ctx,
) {
    // Skips are Lib's own news: a reason may hint at latent values (2.5).
    let skip = |ctx: &mut Ctx, why: String| {
        ctx.log.private(
            Side::Lib,
            format!("your repair of {name} is skipped: {why}"),
        );
    };
    let judged = legal_repair(state, name, listed, &FieldPath::root());
    listed.insert(name.to_string());
    let h = match judged {
        Ok(h) => h,
        Err(p) => return skip(ctx, reason(&p)),
    };
    reach::fire("21.3.1");
    if pool.points < 1 {
        return skip(ctx, "no arming point left (21.3.2)".into());
    }
    pool.points -= 1;
    reach::fire("21.3.2");
    if let Some(u) = state.units.get_mut(name) {
        u.damaged = false;
    }
    ctx.log.public(format!(
        "lib repairs {name} in {} for 1 arming point; {} left; the chits stay (21.3.2; docs/dougram.md, Decisions)",
        hex_name(state, h),
        pool.points
    ));
}

/// One arm order (6.4-6.9), judged by [`legal_arm`] as it comes; all or nothing.
fn arm(state: &mut State, i: usize, a: &Arm, pool: &mut Pool, ctx: &mut Ctx) {
    // Skips are Lib's own news: a reason may hint at latent values (2.5).
    let skip = |ctx: &mut Ctx, why: String| {
        ctx.log.private(
            Side::Lib,
            format!("your arming {} is skipped: {why}", i + 1),
        );
    };
    // The cards played before the arming are open now: no extra flag.
    let mut labels: BTreeSet<String> = ctx.labels.keys().cloned().collect();
    let plan = match legal_arm(state, a, &[], &mut labels, &FieldPath::root()) {
        Ok(plan) => plan,
        Err(p) => {
            // 3.4: an order that has become illegal is skipped, the others still run.
            reach::fire("3.4");
            return skip(ctx, p.first().map(reason).unwrap_or_default());
        }
    };
    let ArmPlan {
        hex: h,
        chits: ids,
        counters,
        need,
        have,
    } = plan;
    if pool.points < need {
        return skip(
            ctx,
            format!(
                "it needs {need} arming point(s) and {} are left (6.4, 3.4)",
                pool.points
            ),
        );
    }
    // 6.2 (a hex), 6.4 (the cost), 6.5 (chits of that hex), 6.6 (summed, split), 6.8 (an
    // armable type), 6.9 (a counter of the stock) were judged by legal_arm; they apply now.
    for r in ["6.2", "6.4", "6.5", "6.6", "6.8", "6.9"] {
        reach::fire(r);
    }
    pool.points -= need;
    let detail: Vec<String> = ids
        .iter()
        .filter_map(|(t, id)| state.chits.get(id).map(|c| format!("{t}={}", c.value)))
        .collect();
    for (_, id) in &ids {
        state.return_chit(id);
    }
    let mut made = Vec::new();
    for (j, (kind, id)) in counters.iter().enumerate() {
        state.units.insert(
            id.clone(),
            Unit {
                at: UnitAt::Hex(h),
                side: Side::Lib,
                damaged: false,
            },
        );
        match a.labels.get(j) {
            Some(l) => {
                ctx.labels.insert(l.clone(), id.clone());
                made.push(format!("{kind} {id} ({l})"));
            }
            None => made.push(format!("{kind} {id}")),
        }
    }
    let tokens: Vec<String> = ids.iter().map(|(t, _)| t.to_string()).collect();
    ctx.log.public(format!(
        "lib arms {} in {} with latent chit(s) {} ({} chit(s), back to the cup); {need} arming point(s) spent, {} left (6.4-6.6, 6.9)",
        made.join(", "),
        hex_name(state, h),
        tokens.join(", "),
        ids.len(),
        pool.points
    ));
    ctx.log.private(
        Side::Lib,
        format!(
            "arming {}: chits {} give {have} latent point(s); {need} used, {} lost (6.6: the rest is lost; docs/dougram.md, Decisions)",
            i + 1,
            detail.join(", "),
            have - need
        ),
    );
    if !state.flag(&Flag::LibGovernment) && state.units_in(h, Side::Lib).len() > 4 {
        // 6.10: arming ignores the stack limit; movement fixes it at its end.
        reach::fire("6.10");
    }
    play::lib_unit_entered(state, h, ctx);
    reach::fire("3.3.3");
    control::check(state, "after an arming", ctx);
    pool.gain(state, ctx);
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    if side != Side::Lib {
        return String::new();
    }
    let mut out = vec![
        "# arming (6): Lib's orders; soldier = 1 latent + 1 arming point, CBA = 3 + 3 (6.4)"
            .to_string(),
    ];
    let cities: Vec<String> = state
        .data
        .map
        .places
        .iter()
        .filter(|p| p.city && state.control.get(&p.id) == Some(&Side::Lib))
        .map(|p| format!("{} {}", p.id, p.vp))
        .collect();
    let vp: u32 = state
        .data
        .map
        .places
        .iter()
        .filter(|p| p.city && state.control.get(&p.id) == Some(&Side::Lib))
        .map(|p| p.vp)
        .sum();
    out.push(format!(
        "#   arming points from cities now: {vp} ({}) (6.3.1)",
        if cities.is_empty() {
            "none".to_string()
        } else {
            cities.join(", ")
        }
    ));
    let cards: Vec<String> = c
        .arming_play
        .iter()
        .filter_map(|n| state.card(*n))
        .map(|c| {
            let draws: u32 = c
                .effects
                .iter()
                .filter_map(|e| match e {
                    Effect::ArmingPoints(ap) => Some(ap.draw_chits),
                    _ => None,
                })
                .sum();
            if draws > 0 {
                format!("{} (draws {draws} chit(s) for arming points)", c.no)
            } else {
                c.no.to_string()
            }
        })
        .collect();
    out.push(format!(
        "#   cards you may play now (play:): {}",
        if cards.is_empty() {
            "none".to_string()
        } else {
            cards.join(", ")
        }
    ));
    let mut by_hex: BTreeMap<HexId, Vec<String>> = BTreeMap::new();
    for c in state.chits.values() {
        if let (ChitAt::Hex(h), Some(t)) = (&c.at, c.token) {
            by_hex
                .entry(*h)
                .or_default()
                .push(format!("{t}={}", c.value));
        }
    }
    out.push("#   latent chits (token=points, yours only):".to_string());
    for (h, list) in &by_hex {
        out.push(format!(
            "#     {}: {}",
            hex_name(state, *h),
            list.join(", ")
        ));
    }
    let types: Vec<String> = arm_type_choices(state)
        .iter()
        .map(|k| format!("{k} ({} in stock)", stock_count(state, k)))
        .collect();
    out.push(format!(
        "#   armable types (6.8, 6.9): {}",
        types.join(", ")
    ));
    let repairable = &c.repair;
    out.push(format!(
        "#   repairable now (21.3): {}",
        if repairable.is_empty() {
            "none".to_string()
        } else {
            repairable.join(", ")
        }
    ));
    out.push("#   example:".to_string());
    out.push("#   repair: [DG01]".to_string());
    out.push("#   play: [2]".to_string());
    out.push("#   arm:".to_string());
    out.push(
        "#     - {hex: 57, chits: [3, 4], create: [soldier, soldier], labels: [A1, A2]}"
            .to_string(),
    );
    let mut s = out.join("\n");
    s.push('\n');
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kit::deck::Hand;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice, give};

    pub const ANDY: HexId = 66;
    pub const GARLAND: HexId = 95;
    pub const NP_PORT: HexId = 61;

    fn at() -> FieldPath {
        FieldPath::root().at("orders").at("arming")
    }

    /// Moves every unit in `h` to the stock.
    pub fn clear(s: &mut State, h: HexId) {
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(h) {
                u.at = UnitAt::Stock;
            }
        }
        s.recompute_control();
    }

    /// Puts `n` stock soldier counters in `h` on their `side` face, and updates control.
    pub fn soldiers(s: &mut State, h: HexId, side: Side, n: usize) -> Vec<String> {
        let ids = crate::systems::dougram::fixtures::put_from_stock(s, "SO", n, h, side);
        s.recompute_control();
        ids
    }

    /// Puts a cup chit worth `value` in hex `h`; returns its token.
    fn chit(s: &mut State, h: HexId, value: u32) -> u32 {
        let id = s
            .cup()
            .into_iter()
            .find(|id| s.chits[id].value == value)
            .unwrap();
        s.place_chit(&id, ChitAt::Hex(h));
        s.chits[&id].token.unwrap()
    }

    /// setup1 with `vp` arming points: Garland (2 VP) and/or Andy (1 VP) made Lib's.
    fn with_points(vp: u32) -> State {
        let mut s = dealt("setup1", 11);
        clear(&mut s, GARLAND);
        clear(&mut s, ANDY);
        if vp >= 2 {
            soldiers(&mut s, GARLAND, Side::Lib, 1);
        }
        if vp % 2 == 1 {
            soldiers(&mut s, ANDY, Side::Lib, 1);
        }
        assert_eq!(s.lib_vp(), vp);
        s
    }

    fn run(s: &mut State, o: &ArmingOrders, seed: u64) -> (Log, BTreeMap<String, String>) {
        let mut d = dice(seed);
        let mut ctx = Ctx::new(&mut d);
        resolve(s, Side::Lib, o, &mut ctx).unwrap();
        (ctx.log, ctx.labels)
    }

    fn arm1(hex: HexId, chits: Vec<u32>, create: &[&str]) -> Arm {
        Arm {
            hex: Some(HexRef::Hex(hex)),
            chits,
            create: create.iter().map(|c| c.to_string()).collect(),
            labels: vec![],
        }
    }

    fn orders(arm: Vec<Arm>) -> ArmingOrders {
        ArmingOrders {
            arm,
            ..ArmingOrders::default()
        }
    }

    fn problems(s: &State, o: &ArmingOrders) -> Vec<(String, String)> {
        check(s, Side::Lib, o, &at())
            .into_iter()
            .map(|p| (p.path.to_string(), p.rule.unwrap_or_default()))
            .collect()
    }

    fn lib_count(s: &State, h: HexId) -> usize {
        s.units_in(h, Side::Lib).len()
    }

    #[test]
    fn the_brief_example_parses_with_hex_ids_and_place_ids() {
        let text = "repair: [DG01]\nplay: [2]\narm:\n  - {hex: 57, chits: [3, 4], create: [soldier, soldier], labels: [A1, A2]}\n  - {hex: spa, chits: [7], create: [crab_gunner], labels: [A3]}\n";
        let o: ArmingOrders = crate::yaml::parse(text, "orders.yaml").unwrap();
        assert_eq!(o.arm[0].hex, Some(HexRef::Hex(57)));
        assert_eq!(o.arm[1].hex, Some(HexRef::Place("spa".into())));
        let empty: ArmingOrders = crate::yaml::parse("{}", "o").unwrap();
        assert_eq!(empty, ArmingOrders::default());
        assert!(crate::yaml::parse::<ArmingOrders>("bogus: 1", "o").is_err());
    }

    #[test]
    fn a_soldier_costs_one_latent_and_one_arming_point_6_4_6_5() {
        let mut s = with_points(1);
        let t = chit(&mut s, 57, 1);
        let cup = s.cup().len();
        let (log, _) = run(&mut s, &orders(vec![arm1(57, vec![t], &["soldier"])]), 1);
        assert_eq!(lib_count(&s, 57), 1);
        let id = s.units_in(57, Side::Lib)[0].to_string();
        assert_eq!(s.unit_type(&id), Some("soldier"));
        assert_eq!(
            s.cup().len(),
            cup + 1,
            "the chit went back to the cup (6.5, 2.7)"
        );
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("1 arming point(s) spent, 0 left"))
        );
        assert!(
            !log.public.iter().any(|l| l.contains("=1")),
            "no value in public"
        );
    }

    #[test]
    fn a_cba_costs_three_latent_and_three_arming_points_6_4() {
        let mut s = with_points(2);
        let t = chit(&mut s, 57, 3);
        let (log, _) = run(
            &mut s,
            &orders(vec![arm1(57, vec![t], &["crab_gunner"])]),
            1,
        );
        assert_eq!(lib_count(&s, 57), 0, "2 arming points are not enough");
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("skipped") && l.contains("6.4"))
        );
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 3);
        run(
            &mut s,
            &orders(vec![arm1(57, vec![t], &["crab_gunner"])]),
            1,
        );
        let ids = s.units_in(57, Side::Lib);
        assert_eq!(ids.len(), 1);
        assert_eq!(s.unit_type(ids[0]), Some("crab_gunner"));
        assert_eq!(s.units[ids[0]].side, Side::Lib);
    }

    #[test]
    fn chits_of_a_hex_are_summed_and_split_and_the_rest_is_lost_6_6_a5() {
        let mut s = with_points(3);
        let a = chit(&mut s, 57, 2);
        let b = chit(&mut s, 57, 2);
        let (log, _) = run(
            &mut s,
            &orders(vec![arm1(
                57,
                vec![a, b],
                &["soldier", "soldier", "soldier"],
            )]),
            1,
        );
        assert_eq!(lib_count(&s, 57), 3);
        assert_eq!(latent(&s, 57).len(), 0, "both chits are used up");
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("4 latent point(s); 3 used, 1 lost"))
        );
        assert!(log.private[Side::Fed].is_empty());
    }

    #[test]
    fn latent_points_must_lie_in_the_armed_hex_6_5() {
        let mut s = with_points(1);
        let t = chit(&mut s, 53, 3);
        let o = orders(vec![arm1(57, vec![t], &["soldier"])]);
        assert_eq!(
            problems(&s, &o),
            vec![(
                "orders.arming.arm[0].chits[0]".to_string(),
                "6.5".to_string()
            )]
        );
        let (log, _) = run(&mut s, &o, 1);
        assert_eq!(lib_count(&s, 57), 0);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("no latent chit") && l.contains("6.5"))
        );
    }

    #[test]
    fn too_few_latent_points_is_a_problem_6_4() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 2);
        let o = orders(vec![arm1(57, vec![t], &["crab_gunner"])]);
        assert_eq!(
            problems(&s, &o),
            vec![("orders.arming.arm[0].chits".to_string(), "6.4".to_string())]
        );
        run(&mut s, &o, 1);
        assert_eq!(lib_count(&s, 57), 0);
        assert_eq!(latent(&s, 57).len(), 1, "a skipped arming keeps its chits");
    }

    #[test]
    fn empty_hex_chits_and_units_are_problems_6_2_6_4() {
        let s = with_points(1);
        let o = orders(vec![
            Arm::default(),
            Arm {
                hex: Some(HexRef::Hex(11)),
                ..Arm::default()
            },
            Arm {
                hex: Some(HexRef::Place("atlantis".into())),
                ..Arm::default()
            },
        ]);
        let p = problems(&s, &o);
        for want in [
            ("orders.arming.arm[0].hex", "6.2"),
            ("orders.arming.arm[0].chits", "6.4"),
            ("orders.arming.arm[0].create", "6.4"),
            ("orders.arming.arm[1].hex", "6.2"),
            ("orders.arming.arm[2].hex", "6.2"),
        ] {
            assert!(
                p.contains(&(want.0.to_string(), want.1.to_string())),
                "{want:?} in {p:?}"
            );
        }
    }

    #[test]
    fn a_city_that_flips_during_arming_adds_its_vp_once_a4_3_3_3() {
        // Garland gives 2 points. Arming 2 soldiers at Andy (empty, so Fed's, A2) flips it to
        // Lib: +1 point, enough for a third soldier at 57. Garland is not counted again.
        let mut s = with_points(2);
        let a = chit(&mut s, ANDY, 2);
        let b = chit(&mut s, 57, 1);
        let c = chit(&mut s, 57, 1);
        assert_eq!(s.control["andy"], Side::Fed);
        let o = orders(vec![
            arm1(ANDY, vec![a], &["soldier", "soldier"]),
            arm1(57, vec![b], &["soldier"]),
            arm1(57, vec![c], &["soldier"]),
        ]);
        assert!(problems(&s, &o).is_empty());
        let (log, _) = run(&mut s, &o, 1);
        assert_eq!(s.control["andy"], Side::Lib);
        assert_eq!(lib_count(&s, ANDY), 2);
        assert_eq!(lib_count(&s, 57), 1, "only one point came from Andy");
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("Andy Mine (Lib) gives 1"))
        );
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("passes to lib control"))
        );
        assert_eq!(
            log.public
                .iter()
                .filter(|l| l.contains("Garland (Lib) gives"))
                .count(),
            1
        );
    }

    #[test]
    fn an_arming_points_card_draws_a_public_chit_that_returns_to_the_cup_6_3_2_6_7() {
        let mut s = with_points(0);
        give(&mut s, Side::Lib, 2);
        let t = chit(&mut s, 57, 1);
        let cup = s.cup().len();
        let o = ArmingOrders {
            play: vec![2],
            arm: vec![arm1(57, vec![t], &["soldier"])],
            ..ArmingOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let mut d = dice(5);
        let mut ctx = Ctx::new(&mut d);
        resolve(&mut s, Side::Lib, &o, &mut ctx).unwrap();
        let log = ctx.log;
        assert_eq!(lib_count(&s, 57), 1, "every chit is worth at least 1");
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("card 2: 1 chit(s) drawn, worth"))
        );
        assert_eq!(
            s.cup().len(),
            cup + 1,
            "drawn chit and used latent chit are back"
        );
        assert!(s.chits.values().all(|c| c.at != ChitAt::Box(HOLD.into())));
        assert!(!s.cards[Side::Lib].hand.contains(&2));
        let tr = d.finish().unwrap();
        assert_eq!(tr.sealed[0].label, "t1/lib/arming/card2/0/1");
    }

    #[test]
    fn playing_a_card_not_in_hand_or_of_another_phase_is_a_problem_2_10_2_13() {
        let mut s = with_points(0);
        s.cards[Side::Lib].hand = Hand::new(vec![20]);
        let o = ArmingOrders {
            play: vec![2, 20, 20],
            ..ArmingOrders::default()
        };
        assert_eq!(
            problems(&s, &o),
            vec![
                ("orders.arming.play[0]".to_string(), "2.10".to_string()),
                ("orders.arming.play[1]".to_string(), "2.13".to_string()),
                ("orders.arming.play[2]".to_string(), "2.10".to_string()),
            ]
        );
        let (log, _) = run(&mut s, &o, 1);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("your card 2 is not played"))
        );
        assert!(log.public.iter().all(|l| !l.contains("card 2")), "{log:?}");
    }

    #[test]
    fn unspent_points_lapse_6_3_3() {
        let mut s = with_points(3);
        let (log, _) = run(&mut s, &ArmingOrders::default(), 1);
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("3 unspent arming point(s) lapse (6.3.3)"))
        );
    }

    #[test]
    fn only_crab_gunner_until_a_lib_arm_card_opens_6_8_a7() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 5);
        let o = orders(vec![arm1(57, vec![t], &["dougram"])]);
        assert_eq!(
            problems(&s, &o),
            vec![(
                "orders.arming.arm[0].create[0]".to_string(),
                "6.8".to_string()
            )]
        );
        let mut refused = s.clone();
        let (log, _) = run(&mut refused, &o, 1);
        assert_eq!(lib_count(&refused, 57), 0, "refused at resolution too");
        assert!(
            log.private[Side::Lib].iter().any(|l| l.contains("6.8")),
            "{log:?}"
        );
        // Card 107 opens with lib_arm; let it name the Dougram and play it in the same orders.
        for c in s.data.cards.cards.iter_mut().filter(|c| c.no == 107) {
            c.while_open = vec![Flag::LibArm("dougram".into())];
        }
        give(&mut s, Side::Lib, 107);
        let o = ArmingOrders {
            play: vec![107],
            ..o
        };
        assert!(problems(&s, &o).is_empty());
        run(&mut s, &o, 1);
        assert_eq!(s.units_in(57, Side::Lib), vec!["DG01"]);
    }

    #[test]
    fn a_type_without_a_lib_counter_or_with_an_empty_stock_cannot_be_armed_6_9() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 5);
        let o = orders(vec![arm1(57, vec![t], &["round_facer"])]);
        assert_eq!(
            problems(&s, &o),
            vec![(
                "orders.arming.arm[0].create[0]".to_string(),
                "6.9".to_string()
            )]
        );
        for (id, u) in s.units.iter_mut() {
            if id.starts_with("CG") && u.at == UnitAt::Stock {
                u.at = UnitAt::Removed;
            }
        }
        let o = orders(vec![arm1(57, vec![t], &["crab_gunner"])]);
        assert_eq!(
            problems(&s, &o),
            vec![(
                "orders.arming.arm[0].create[0]".to_string(),
                "6.9".to_string()
            )]
        );
        let (log, _) = run(&mut s, &o, 1);
        assert_eq!(lib_count(&s, 57), 0);
        assert!(log.private[Side::Lib].iter().any(|l| l.contains("6.9")));
    }

    #[test]
    fn a_damaged_dougram_in_a_city_with_a_chit_is_repaired_for_one_point_21_3() {
        let mut s = with_points(1);
        let spa = s.data.map.hex_of("spa");
        s.units.insert(
            "DG01".into(),
            Unit {
                at: UnitAt::Hex(spa),
                side: Side::Lib,
                damaged: true,
            },
        );
        chit(&mut s, spa, 1);
        let chits = latent(&s, spa);
        let o = ArmingOrders {
            repair: vec!["DG01".into()],
            ..ArmingOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let (log, _) = run(&mut s, &o, 1);
        assert!(!s.units["DG01"].damaged);
        assert_eq!(latent(&s, spa), chits, "the chits are not used (A34)");
        assert!(log.public.iter().any(|l| l.contains("21.3.2")));
        assert!(
            !log.public.iter().any(|l| l.contains("lapse")),
            "the one point was spent"
        );
    }

    #[test]
    fn repair_needs_a_point_a_city_a_chit_and_damage_21_3_1() {
        let mut s = with_points(0);
        s.units.insert(
            "DG01".into(),
            Unit {
                at: UnitAt::Hex(57),
                side: Side::Lib,
                damaged: true,
            },
        );
        chit(&mut s, 57, 1);
        let spa = s.data.map.hex_of("spa");
        s.units.insert(
            "DT01".into(),
            Unit {
                at: UnitAt::Hex(spa),
                side: Side::Lib,
                damaged: false,
            },
        );
        let o = ArmingOrders {
            repair: vec![
                "DG01".into(),
                "DT01".into(),
                "DT01".into(),
                "SO01".into(),
                "XX".into(),
            ],
            ..ArmingOrders::default()
        };
        let p = problems(&s, &o);
        assert_eq!(
            p[0],
            ("orders.arming.repair[0]".to_string(), "21.3.1".to_string())
        );
        assert_eq!(
            p[1],
            ("orders.arming.repair[1]".to_string(), "21.3".to_string())
        );
        assert_eq!(
            p[2],
            ("orders.arming.repair[2]".to_string(), "21.3".to_string())
        );
        assert_eq!(p[3].0, "orders.arming.repair[3]");
        assert_eq!(p[4].0, "orders.arming.repair[4]");
        // In a city with a chit but with no arming point: skipped at resolve.
        s.units.get_mut("DG01").unwrap().at = UnitAt::Hex(spa);
        chit(&mut s, spa, 2);
        let o = ArmingOrders {
            repair: vec!["DG01".into()],
            ..ArmingOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let (log, _) = run(&mut s, &o, 1);
        assert!(s.units["DG01"].damaged);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("no arming point left (21.3.2)"))
        );
    }

    #[test]
    fn a_lib_unit_armed_at_north_pole_port_opens_card_76_24_1_a38() {
        let mut s = with_points(1);
        let t = chit(&mut s, NP_PORT, 1);
        assert!(!s.open.contains(&76));
        let (log, _) = run(
            &mut s,
            &orders(vec![arm1(NP_PORT, vec![t], &["soldier"])]),
            1,
        );
        assert!(s.open.contains(&76));
        assert!(log.public.iter().any(|l| l.contains("opens by itself")));
    }

    #[test]
    fn labels_name_the_new_units_for_later_orders_and_must_be_unique() {
        let mut s = with_points(3);
        let a = chit(&mut s, 57, 2);
        let mut one = arm1(57, vec![a], &["soldier", "soldier"]);
        one.labels = vec!["A1".into(), "A2".into()];
        let o = orders(vec![one.clone()]);
        let (_, labels) = run(&mut s, &o, 1);
        let ids = s.units_in(57, Side::Lib);
        assert_eq!(labels["A1"], ids[0]);
        assert_eq!(labels["A2"], ids[1]);
        let s = with_points(3);
        let mut bad = one.clone();
        bad.labels = vec!["A1".into(), "A1".into(), "A3".into()];
        let mut two = one.clone();
        two.labels = vec!["SO01".into()];
        let p = problems(&s, &orders(vec![bad, two]));
        assert!(p.contains(&(
            "orders.arming.arm[0].labels[2]".to_string(),
            "3.4".to_string()
        )));
        assert!(p.contains(&(
            "orders.arming.arm[0].labels[1]".to_string(),
            "3.4".to_string()
        )));
        assert!(p.contains(&(
            "orders.arming.arm[1].labels[0]".to_string(),
            "3.4".to_string()
        )));
    }

    #[test]
    fn a_chit_used_by_an_earlier_arming_skips_a_later_one_3_4() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 2);
        let o = orders(vec![
            arm1(57, vec![t], &["soldier"]),
            arm1(57, vec![t], &["soldier"]),
        ]);
        assert!(
            problems(&s, &o).is_empty(),
            "fallback lists may reuse chits"
        );
        let (log, _) = run(&mut s, &o, 1);
        assert_eq!(lib_count(&s, 57), 1);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("arming 2 is skipped"))
        );
    }

    #[test]
    fn a_skipped_arming_order_is_told_to_lib_only() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 2);
        let card = s.cards[Side::Fed].hand.cards()[0]; // not Lib's to play
        let o = ArmingOrders {
            repair: vec!["nosuch".into()],
            play: vec![card],
            arm: vec![
                arm1(57, vec![t], &["soldier"]),
                arm1(57, vec![t], &["soldier"]),
            ],
        };
        let (log, _) = run(&mut s, &o, 1);
        assert_eq!(lib_count(&s, 57), 1);
        for want in [
            format!("your card {card} is not played"),
            "your repair of nosuch is skipped".to_string(),
            "your arming 2 is skipped".to_string(),
        ] {
            assert!(
                log.private[Side::Lib].iter().any(|l| l.contains(&want)),
                "{want}: {log:?}"
            );
        }
        for needle in [
            "skipped".to_string(),
            "not played".to_string(),
            format!("card {card}"),
            "nosuch".to_string(),
            "arming 2".to_string(),
        ] {
            assert!(
                log.public.iter().all(|l| !l.contains(needle.as_str())),
                "{needle}: {log:?}"
            );
        }
        assert!(log.private[Side::Fed].is_empty(), "{log:?}");
    }

    #[test]
    fn arming_may_overstack_a_hex_before_card_29_6_10() {
        let mut s = with_points(3);
        soldiers(&mut s, 57, Side::Lib, 4);
        let t = chit(&mut s, 57, 1);
        run(&mut s, &orders(vec![arm1(57, vec![t], &["soldier"])]), 1);
        assert_eq!(lib_count(&s, 57), 5);
    }

    #[test]
    fn fed_has_no_arming_phase_6_1() {
        let s = with_points(0);
        let o = orders(vec![Arm::default()]);
        let p = check(&s, Side::Fed, &o, &at());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].rule.as_deref(), Some("6.1"));
        assert!(check(&s, Side::Fed, &ArmingOrders::default(), &at()).is_empty());
    }

    #[test]
    fn the_template_lists_points_chits_types_and_repairs() {
        let mut s = with_points(3);
        let t = chit(&mut s, 57, 4);
        let text = template(
            &s,
            Side::Lib,
            &crate::systems::dougram::steps::choices(&s, Side::Lib),
        );
        assert!(text.lines().all(|l| l.starts_with('#')));
        assert!(text.contains("arming points from cities now: 3"));
        assert!(text.contains(&format!("hex 57: {t}=4")));
        assert!(text.contains("crab_gunner ("));
        assert!(
            template(
                &s,
                Side::Fed,
                &crate::systems::dougram::steps::choices(&s, Side::Fed)
            )
            .is_empty()
        );
    }
}
