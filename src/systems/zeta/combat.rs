//! Combat: when it may happen (18), camps and the 18.9 join, preparation (20) and the
//! steps in order (19): air 21, AA 22, bombing 23, bombardment 24 (the dice in fire.rs), each
//! followed by its damage (25-26, damage.rs) and survival checks (27, survival.rs).
//!
//! Hooks for other commits: the colony is a target of bombing and bombardment only (35.8,
//! `ship_targets`, and `damage::remove_unit` for its removal); the Axis attack (30.4)
//! and the laser (31.5) are not combats and call `damage`/`survival` directly; the decline
//! step (28) is government's, at the end of [`fight`]; the 18.9 ask is commit 14 (the `Stop`
//! returned by [`camps`]).

use super::ctx::{Choice, Ctx, Moment, reason};
use super::damage::{self, Allocation, Losses, Quantum, Target};
use super::data::{
    BaseId, BaseKind, CharId, Class, Loc, MapId, Place, Side, Survival, Terrain, UnitId,
};
use super::fire;
use super::guard::{self, Guard};
use super::labels;
use super::orders::PhaseOrders;
use super::policy::{Bomb, Bombard, House, JoinAnswer, Recarry, Sortie};
use super::state::{
    Action, AskWhy, Card, CardKind, CharPlace, FaceUp, Pending, PhaseCursor, Slot, Stage,
};
use super::survival;
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A wish to bomb (22.1) or bombard (24.1): `auto` follows the standing policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wish {
    #[default]
    Auto,
    Yes,
    No,
}

/// Preparation choices (20.2-20.9); what is left out follows the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrepOrders {
    /// 20.2: movers the attacker keeps out of the fight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leave_out: Vec<UnitId>,
    /// 20.3: the MS that sortie (all eligible when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sortie: Option<Vec<UnitId>>,
    /// 20.3: MS -> the ship carrying it through the fight.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stow: BTreeMap<UnitId, UnitId>,
    /// 20.4: units sheltered in an own military base.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house: Vec<UnitId>,
    /// 20.5-20.6: MS -> pilot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pilots: BTreeMap<UnitId, CharId>,
    /// 20.8: ship -> captain.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub captains: BTreeMap<UnitId, CharId>,
    /// 20.7: characters staying in the base.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_base: Vec<CharId>,
}

/// Which camp a faction joined (18.9), or none (it watched, or was not there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JoinedCamp {
    Attacker,
    Defender,
    None,
}

/// The guard term `joined {side, camp}` (§12/F5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joined {
    pub side: Side,
    pub camp: JoinedCamp,
}

/// A preparation used when the join went as `joined` says (§12/F5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrepIf {
    pub joined: Joined,
    pub prep: PrepOrders,
}

/// One declared combat (18.7-18.8), in the acting faction's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatOrder {
    pub at: Loc,
    /// 18.8: one or both other factions.
    pub versus: Vec<Side>,
    /// Fight only if this holds when the hex comes up.
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prep: Option<PrepOrders>,
    /// §12/F5: preparations that replace `prep` when the 18.9 join went a given way; the first
    /// that matches is used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prep_if: Vec<PrepIf>,
    #[serde(default)]
    pub bomb: Wish,
    #[serde(default)]
    pub bombard: Wish,
}

/// One camp (18.9-18.10). The principal allocates the camp's hits on the enemy (25.3); the
/// command shares it receives are placed per faction (26, §12/F1) unless the camp gained a
/// voluntary joiner and the game's `camp_allocation` is `principal`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camp {
    pub principal: Side,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Side>,
    /// The faction that joined this camp of its own will (18.9), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joined: Option<Side>,
}

impl Camp {
    /// The principal, then the other members.
    pub fn sides(&self) -> Vec<Side> {
        let mut v = vec![self.principal];
        v.extend(
            self.members
                .iter()
                .copied()
                .filter(|s| *s != self.principal),
        );
        v
    }

    pub fn has(&self, side: Side) -> bool {
        self.principal == side || self.members.contains(&side)
    }
}

/// One camp's preparation (20).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prep {
    #[serde(default)]
    pub participants: BTreeSet<UnitId>,
    #[serde(default)]
    pub sortie: BTreeSet<UnitId>,
    #[serde(default)]
    pub stowed: BTreeMap<UnitId, UnitId>,
    #[serde(default)]
    pub housed: BTreeSet<UnitId>,
    #[serde(default)]
    pub pilots: BTreeMap<UnitId, CharId>,
    #[serde(default)]
    pub captains: BTreeMap<UnitId, CharId>,
    #[serde(default)]
    pub in_base: BTreeSet<CharId>,
}

/// The six steps (19.1, 28).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatStep {
    Prep,
    Air,
    Aa,
    Bombing,
    Bombard,
    Decline,
}

/// A combat in progress; stored only in a `Pending` before its preparation (plan §3.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatState {
    pub at: Loc,
    pub attacker: Camp,
    pub defender: Camp,
    pub step: CombatStep,
    /// Attacker's, then defender's.
    pub prep: [Prep; 2],
    pub bomb: [bool; 2],
    pub bombard: [bool; 2],
}

/// The turn, phase and drawn card of the step being resolved or checked.
fn phase_of(ctx: &Ctx<'_>) -> Option<(u8, u8, Card)> {
    match &ctx.state.stage {
        Stage::Phase { turn, k, card } => Some((*turn, *k, *card)),
        Stage::Ask { turn, k, .. } => ctx
            .state
            .pending
            .as_ref()
            .map(|p| (*turn, *k, p.cursor.card)),
        _ => None,
    }
}

fn problem(at: &FieldPath, rule: &str, message: impl Into<String>, accepted: &str) -> Problem {
    Problem::new(at.clone(), rule, message, accepted)
}

/// The bases in `at`: fixed ones from the map, mobile ones where they are now; never a
/// destroyed one.
pub fn bases_in(ctx: &Ctx<'_>, at: Loc) -> Vec<BaseId> {
    let mut v: Vec<BaseId> = ctx
        .data
        .bases_at(at)
        .into_iter()
        .map(str::to_string)
        .collect();
    for (id, b) in &ctx.state.bases {
        if b.place == Some(Place::Hex(at)) && !v.contains(id) {
            v.push(id.clone());
        }
    }
    v.retain(|b| !ctx.state.bases.get(b).is_some_and(|s| s.destroyed));
    v.sort();
    v
}

/// The military bases in `at` governed by `side` (20.4, 22.6, 24.7).
pub fn military_bases_of(ctx: &Ctx<'_>, at: Loc, side: Side) -> Vec<BaseId> {
    bases_in(ctx, at)
        .into_iter()
        .filter(|b| {
            ctx.data
                .base(b)
                .is_some_and(|d| d.kind == BaseKind::Military)
                && ctx
                    .state
                    .bases
                    .get(b)
                    .is_some_and(|s| s.governor == Some(side) && s.level > 0)
        })
        .collect()
}

/// The factions present in `at` for 18.1 and 18.8: units there, or a military base they
/// govern there.
pub fn present(ctx: &Ctx<'_>, at: Loc) -> BTreeSet<Side> {
    let mut s = ctx.state.sides_at(at);
    for side in Side::ALL.iter().copied() {
        if !military_bases_of(ctx, at, side).is_empty() {
            s.insert(side);
        }
    }
    s
}

/// `side`'s units in `at` that chose to move this phase (18.6).
fn movers(ctx: &Ctx<'_>, side: Side, at: Loc) -> Vec<UnitId> {
    ctx.state
        .units
        .iter()
        .filter(|(_, u)| {
            u.side == side && u.place == Place::Hex(at) && u.action == Some(Action::Move)
        })
        .map(|(id, _)| id.clone())
        .collect()
}

fn class_of(ctx: &Ctx<'_>, unit: &str) -> Option<Class> {
    let u = ctx.state.units.get(unit)?;
    ctx.data.unit_type(&u.type_id).map(|t| t.class)
}

/// Whether `side` may declare `order` now (18.1-18.8, 34.3) with its preparation (20). At
/// `check` only what is already certain is refused: the hex's occupants change with this
/// phase's movement.
pub fn legal_combat(
    ctx: &Ctx<'_>,
    side: Side,
    order: &CombatOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let Some((_, _, card)) = phase_of(ctx) else {
        return Err(problem(
            at,
            "18.1",
            "combats are declared in an action phase",
            "no combats here",
        ));
    };
    if card.side != side {
        return Err(problem(
            at,
            "11.2",
            format!("this is {}'s phase", card.side),
            "no combats",
        ));
    }
    let hex = order.at;
    let here = at.at("at");
    if !ctx.data.on_map(hex) {
        return Err(problem(
            &here,
            "18.1",
            format!("{} is not on the map", hex.label()),
            "a hex of the map",
        ));
    }
    // 34.3: no fighting in Side 6's hex.
    if bases_in(ctx, hex)
        .iter()
        .any(|b| ctx.data.base(b).is_some_and(|d| d.ungovernable))
    {
        return Err(problem(
            &here,
            "34.3",
            format!("no combat in {} (Side 6)", hex.label()),
            "another hex",
        ));
    }
    // 18.2: the card's map; 18.3: with an Atmosphere card, where units moved through the
    // atmosphere, on either map.
    match card.kind {
        CardKind::Space | CardKind::Ground => {
            let want = if card.kind == CardKind::Space {
                MapId::Space
            } else {
                MapId::Ground
            };
            if hex.map != want {
                return Err(problem(
                    &here,
                    "18.2",
                    format!(
                        "a {} card fights on the {} map",
                        card.kind.name(),
                        want.id()
                    ),
                    "a hex of the card's map",
                ));
            }
        }
        CardKind::Atmosphere => {
            let atmo = ctx
                .state
                .units
                .values()
                .any(|u| u.side == side && u.place == Place::Hex(hex) && u.atmo_moved);
            if ctx.moment == Moment::Resolve && !atmo {
                return Err(problem(
                    &here,
                    "18.3",
                    format!("no own unit came to {} through the atmosphere", hex.label()),
                    "a hex an atmospheric move reached",
                ));
            }
        }
    }
    // 18.8: one or both other factions, each once.
    let vs = at.at("versus");
    if order.versus.is_empty() {
        return Err(problem(
            &vs,
            "18.8",
            "name the faction(s) to fight",
            "one or both others",
        ));
    }
    if order.versus.contains(&side) {
        return Err(problem(
            &vs,
            "18.8",
            "a faction does not fight itself",
            "one or both others",
        ));
    }
    if order.versus.len() > 1 && order.versus.first() == order.versus.get(1) {
        return Err(problem(
            &vs,
            "18.8",
            "a faction is named twice",
            "one or both others",
        ));
    }
    if order.versus.len() > 2 {
        return Err(problem(
            &vs,
            "18.8",
            "there are only two other factions",
            "one or both others",
        ));
    }
    if ctx.moment == Moment::Resolve {
        // 18.1, 18.6: own movers meet another faction's units or military base.
        if movers(ctx, side, hex).is_empty() {
            return Err(problem(
                &here,
                "18.6",
                format!("no own unit that moved this phase is in {}", hex.label()),
                "a hex with own movers",
            ));
        }
        let there = present(ctx, hex);
        for v in &order.versus {
            if !there.contains(v) {
                crate::kit::reach::fire("18.1");
                return Err(problem(
                    &vs,
                    "18.1",
                    format!("{v} has no unit and no military base in {}", hex.label()),
                    "a faction present there",
                ));
            }
        }
    }
    if let Some(p) = &order.prep {
        legal_prep(ctx, side, hex, p, &at.at("prep"))?;
    }
    for (i, alt) in order.prep_if.iter().enumerate() {
        legal_prep(
            ctx,
            side,
            hex,
            &alt.prep,
            &at.at("prep_if").at(i).at("prep"),
        )?;
    }
    Ok(())
}

/// Whether a character may pilot an MS of `ty` (20.5: MS attack or defense; 20.6 and 29.6:
/// NT-only and pilotless MS take NT pilots only).
fn may_pilot(ctx: &Ctx<'_>, char: &str, ty: &str) -> Result<(), (&'static str, String)> {
    let Some(c) = ctx.data.character(char) else {
        return Err(("20.5", format!("no character {char}")));
    };
    if c.ms_attack == 0 && c.ms_defense == 0 {
        return Err(("20.5", format!("{char} has no MS attack or defense")));
    }
    let t = ctx.data.unit_type(ty);
    if t.is_some_and(|t| (t.nt_only || t.pilotless) && !c.nt) {
        let rule = if t.is_some_and(|t| t.pilotless) {
            "29.6"
        } else {
            "20.6"
        };
        return Err((rule, format!("{char} is not an NT and cannot pilot a {ty}")));
    }
    Ok(())
}

/// Whether a character may captain a ship (20.8).
fn may_captain(ctx: &Ctx<'_>, char: &str) -> bool {
    ctx.data
        .character(char)
        .is_some_and(|c| c.ship_attack > 0 || c.ship_defense > 0)
}

/// The preparation items of one faction (20.2-20.9). Items that depend on where units stand
/// after movement are judged when the combat comes (`Resolve`).
pub fn legal_prep(
    ctx: &Ctx<'_>,
    side: Side,
    hex: Loc,
    p: &PrepOrders,
    at: &FieldPath,
) -> Result<(), Problem> {
    let resolve = ctx.moment == Moment::Resolve;
    let own = |u: &str, path: FieldPath| -> Result<(), Problem> {
        match ctx.state.units.get(u) {
            Some(x) if x.side == side => {
                if resolve && x.place != Place::Hex(hex) {
                    return Err(problem(
                        &path,
                        "20.2",
                        format!("{u} is not in {}", hex.label()),
                        "own units in the hex",
                    ));
                }
                Ok(())
            }
            _ => Err(problem(
                &path,
                "20.2",
                format!("{u} is not a unit of {side}"),
                "own units",
            )),
        }
    };
    for (i, u) in p.leave_out.iter().enumerate() {
        own(u, at.at("leave_out").at(i))?;
    }
    for (i, u) in p.sortie.iter().flatten().enumerate() {
        let path = at.at("sortie").at(i);
        own(u, path.clone())?;
        if class_of(ctx, u) != Some(Class::Ms) {
            return Err(problem(
                &path,
                "20.3",
                format!("{u} is not an MS"),
                "MS only",
            ));
        }
        // 20.9: an MS of the wrong aptitude stays carried or housed.
        let apt = ctx
            .state
            .units
            .get(u)
            .and_then(|x| ctx.data.unit_type(&x.type_id))
            .and_then(|t| t.aptitude);
        if apt.is_some_and(|a| !a.allows(hex.map)) {
            return Err(problem(
                &path,
                "20.9",
                format!("{u} cannot sortie on the {} map", hex.map.id()),
                "MS fit for the map",
            ));
        }
    }
    for (i, (ms, ship)) in p.stow.iter().enumerate() {
        let path = at.at("stow").at(i);
        own(ms, path.clone())?;
        own(ship, path.clone())?;
        if class_of(ctx, ms) != Some(Class::Ms) || class_of(ctx, ship) != Some(Class::Ship) {
            return Err(problem(
                &path,
                "20.3",
                format!("{ms} -> {ship}: an MS onto a ship"),
                "MS -> ship",
            ));
        }
    }
    if !p.house.is_empty() || !p.in_base.is_empty() {
        // 20.4, 20.7: only in an own military base (judged when the combat comes: 17.7 can make
        // a neutral base own in the same phase).
        let has = bases_in(ctx, hex).iter().any(|b| {
            ctx.data
                .base(b)
                .is_some_and(|d| d.kind == BaseKind::Military)
        });
        if !has || (resolve && military_bases_of(ctx, hex, side).is_empty()) {
            return Err(problem(
                &at.at("house"),
                "20.4",
                format!("no own military base in {}", hex.label()),
                "house only in an own military base",
            ));
        }
    }
    for (i, u) in p.house.iter().enumerate() {
        own(u, at.at("house").at(i))?;
    }
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for (i, (ms, c)) in p.pilots.iter().enumerate() {
        let path = at.at("pilots").at(i);
        own(ms, path.clone())?;
        if ctx.state.chars.get(c).is_none_or(|x| x.side != side) {
            return Err(problem(
                &path,
                "20.5",
                format!("{c} is not a character of {side}"),
                "own characters",
            ));
        }
        let ty = ctx
            .state
            .units
            .get(ms)
            .map(|u| u.type_id.clone())
            .unwrap_or_default();
        if class_of(ctx, ms) != Some(Class::Ms) {
            return Err(problem(
                &path,
                "20.5",
                format!("{ms} is not an MS"),
                "MS -> pilot",
            ));
        }
        if let Err((rule, m)) = may_pilot(ctx, c, &ty) {
            return Err(problem(
                &path,
                rule,
                m,
                "a pilot with MS attack or defense (NT where needed)",
            ));
        }
        if !seen.insert(c) {
            return Err(problem(
                &path,
                "20.5",
                format!("{c} pilots two MS"),
                "one MS per pilot",
            ));
        }
    }
    for (i, (ship, c)) in p.captains.iter().enumerate() {
        let path = at.at("captains").at(i);
        own(ship, path.clone())?;
        if class_of(ctx, ship) != Some(Class::Ship) {
            return Err(problem(
                &path,
                "20.8",
                format!("{ship} is not a ship"),
                "ship -> captain",
            ));
        }
        if ctx.state.chars.get(c).is_none_or(|x| x.side != side) || !may_captain(ctx, c) {
            return Err(problem(
                &path,
                "20.8",
                format!("{c} cannot captain (own character with ship attack or defense)"),
                "a captain with ship attack or defense",
            ));
        }
        if !seen.insert(c) {
            return Err(problem(
                &path,
                "20.5",
                format!("{c} is given two seats"),
                "one seat per character",
            ));
        }
    }
    Ok(())
}

/// The hexes `side` may fight in now, with the factions it may declare.
pub fn combat_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<CombatOrder>> {
    let hexes: BTreeSet<Loc> = ctx
        .state
        .units
        .values()
        .filter(|u| u.side == side)
        .filter_map(|u| u.place.loc())
        .collect();
    let mut out = Vec::new();
    for hex in hexes {
        let others: Vec<Side> = present(ctx, hex)
            .into_iter()
            .filter(|s| *s != side)
            .collect();
        let mut sets: Vec<Vec<Side>> = others.iter().map(|s| vec![*s]).collect();
        if others.len() == 2 {
            sets.push(others.clone());
        }
        for versus in sets {
            let order = CombatOrder {
                at: hex,
                versus: versus.clone(),
                guard: None,
                prep: None,
                prep_if: Vec::new(),
                bomb: Wish::Auto,
                bombard: Wish::Auto,
            };
            if legal_combat(ctx, side, &order, &FieldPath::root()).is_ok() {
                let names: Vec<&str> = versus.iter().map(|s| s.name()).collect();
                out.push(Choice {
                    item: order,
                    note: format!("fight {} in {}", names.join(" and "), hex.label()),
                });
            }
        }
    }
    out
}

/// 18.9: the answer of the undeclared third faction by its standing policy (first matching
/// rule, else the default).
pub fn join_answer(
    ctx: &Ctx<'_>,
    third: Side,
    acting: Side,
    declared: Side,
    at: Loc,
) -> JoinAnswer {
    let p = &ctx.state.policies[third].join;
    p.rules
        .iter()
        .find(|r| {
            r.acting.is_none_or(|s| s == acting)
                && r.declared.is_none_or(|s| s == declared)
                && r.at.is_none_or(|l| l == at)
        })
        .map(|r| r.answer)
        .unwrap_or(p.default)
}

/// The camps of a combat (18.8-18.10): the acting faction attacks; the declared factions
/// defend (co-declared defenders keep their shares apart, §12/F1); the third joins a camp
/// or watches by its policy (18.9). `Err` carries the 18.9 ask (zeta commit 14 answers it).
pub fn camps(
    ctx: &mut Ctx<'_>,
    acting: Side,
    order: &CombatOrder,
) -> Result<(Camp, Camp), Box<Pending>> {
    let at = order.at;
    let mut attacker = Camp {
        principal: acting,
        members: Vec::new(),
        joined: None,
    };
    let first = order.versus.first().copied().unwrap_or(acting);
    let mut defender = Camp {
        principal: first,
        members: order
            .versus
            .iter()
            .copied()
            .filter(|s| *s != first)
            .collect(),
        joined: None,
    };
    crate::kit::reach::fire("18.10");
    if order.versus.len() == 2 {
        crate::kit::reach::fire("18.8");
    }
    let there = present(ctx, at);
    let third = Side::ALL
        .iter()
        .copied()
        .find(|s| *s != acting && !order.versus.contains(s) && there.contains(s));
    if let Some(t) = third {
        // only when one faction was declared, and before preparation.
        crate::kit::reach::fire("18.9");
        match join_answer(ctx, t, acting, first, at) {
            JoinAnswer::Abstain => ctx
                .log
                .public(format!("{t} watches the combat in {} (18.9)", at.label())),
            JoinAnswer::Attacker => {
                attacker.members.push(t);
                attacker.joined = Some(t);
                ctx.log
                    .public(format!("{t} joins {acting} in {} (18.9)", at.label()));
            }
            JoinAnswer::Defender => {
                defender.members.push(t);
                defender.joined = Some(t);
                ctx.log
                    .public(format!("{t} joins {first} in {} (18.9)", at.label()));
            }
            JoinAnswer::Ask => {
                // The ask step is zeta commit 14: the phase stops here with what it needs to
                // resume this combat.
                let (turn, k, card) = phase_of(ctx).unwrap_or((
                    ctx.state.turn,
                    0,
                    Card {
                        side: acting,
                        kind: CardKind::Space,
                        copy: 1,
                    },
                ));
                let _ = turn;
                return Err(Box::new(Pending {
                    who: t,
                    why: AskWhy::Join { at },
                    cursor: PhaseCursor {
                        k,
                        card,
                        slot: Slot::Combats,
                        snapshot: Default::default(),
                        combats_done: Vec::new(),
                        combat_orders_done: 0,
                    },
                    rest: PhaseOrders {
                        combats: vec![order.clone()],
                        ..Default::default()
                    },
                }));
            }
        }
    }
    Ok((attacker, defender))
}

/// The preparation the acting faction gave, by how the join went (§12/F5).
fn acting_prep(order: &CombatOrder, attacker: &Camp, defender: &Camp) -> PrepOrders {
    for alt in &order.prep_if {
        let camp = if attacker.joined == Some(alt.joined.side) {
            JoinedCamp::Attacker
        } else if defender.joined == Some(alt.joined.side) {
            JoinedCamp::Defender
        } else {
            JoinedCamp::None
        };
        if camp == alt.joined.camp {
            return alt.prep.clone();
        }
    }
    order.prep.clone().unwrap_or_default()
}

/// Resolves one combat in `at` against `versus` (18.8-28): the camps and the join, the
/// preparation, and the steps in order (19.1). An item that is wrong now is skipped and its
/// side told.
pub fn resolve_combat(
    ctx: &mut Ctx<'_>,
    at: Loc,
    versus: &[Side],
    order: &CombatOrder,
) -> CombatOutcome {
    let Some((turn, k, card)) = phase_of(ctx) else {
        return CombatOutcome::Skipped;
    };
    let acting = card.side;
    let mut order = order.clone();
    order.at = at;
    order.versus = versus.to_vec();
    if let Err(p) = legal_combat(ctx, acting, &order, &FieldPath::root().at("combats")) {
        ctx.log.private(
            acting,
            format!("combat in {} skipped: {}", at.label(), reason(&p)),
        );
        return CombatOutcome::Skipped;
    }
    if let Some(g) = &order.guard
        && guard::holds(ctx, acting, g) != Some(true)
    {
        ctx.log.private(
            acting,
            format!(
                "combat in {} skipped: its condition does not hold",
                at.label()
            ),
        );
        return CombatOutcome::Skipped;
    }
    crate::kit::reach::fire("18.5");
    crate::kit::reach::fire("18.7");
    let names: Vec<&str> = versus.iter().map(|s| s.name()).collect();
    ctx.log.public(format!(
        "{acting} attacks {} in {} (18)",
        names.join(" and "),
        at.label()
    ));
    let (attacker, defender) = match camps(ctx, acting, &order) {
        Ok(c) => c,
        Err(p) => return CombatOutcome::Stop(p),
    };
    let mut cs = CombatState {
        at,
        attacker,
        defender,
        step: CombatStep::Prep,
        prep: [Prep::default(), Prep::default()],
        bomb: [false; 2],
        bombard: [false; 2],
    };
    let prefix = labels::combat(turn, k, at);
    prepare(ctx, &mut cs, &order);
    fight(ctx, &mut cs, &order, &prefix);
    CombatOutcome::Fought
}

/// What one combat order came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CombatOutcome {
    /// Not fought (wrong when it came, or its condition false): the hex may still have its
    /// combat this phase from a later order (18.4 counts combats, not orders).
    Skipped,
    Fought,
    /// Stopped before its preparation to ask a faction (18.9): resumed, the order runs again.
    Stop(Box<super::state::Pending>),
}

fn camp(cs: &CombatState, i: usize) -> &Camp {
    if i == 0 { &cs.attacker } else { &cs.defender }
}

/// Six times the air hits a set of MS expects (pilots' extra dice included, 21.6).
fn air_expected6(ctx: &Ctx<'_>, ms: &BTreeSet<UnitId>, pilots: &BTreeMap<UnitId, CharId>) -> u32 {
    ms.iter()
        .filter_map(|m| air_gun(ctx, m, pilots.get(m)))
        .map(|g| g.expected6())
        .sum()
}

/// The face `unit` shows now.
fn face<'d>(ctx: &'d Ctx<'_>, unit: &str) -> Option<&'d super::data::Face> {
    let u = ctx.state.units.get(unit)?;
    let t = ctx.data.unit_type(&u.type_id)?;
    Some(if u.face == FaceUp::Back {
        &t.back
    } else {
        &t.front
    })
}

fn ms_attack(ctx: &Ctx<'_>, c: Option<&CharId>) -> u32 {
    c.and_then(|c| ctx.data.character(c))
        .map(|d| u32::from(d.ms_attack))
        .unwrap_or(0)
}

/// An MS's air gun (21.5-21.6): one die, and one more per point of its pilot's MS attack.
fn air_gun(ctx: &Ctx<'_>, ms: &str, pilot: Option<&CharId>) -> Option<fire::Gun> {
    let u = ctx.state.units.get(ms)?;
    let f = face(ctx, ms)?;
    Some(fire::Gun {
        who: ms.to_string(),
        side: u.side,
        dice: 1 + ms_attack(ctx, pilot),
        values: f.air.clone(),
    })
}

/// Preparation (20), attacker camp first (20.1) and each camp faction by faction: the
/// acting faction by its order and policy, every other faction by its `defence` policy,
/// which is judged after the attacker's preparation is known (§12/F5).
pub fn prepare(ctx: &mut Ctx<'_>, cs: &mut CombatState, order: &CombatOrder) {
    crate::kit::reach::fire("20.1");
    let at = cs.at;
    let acting = cs.attacker.principal;
    let mine = acting_prep(order, &cs.attacker, &cs.defender);
    for i in 0..2 {
        for side in camp(cs, i).sides() {
            let explicit = if side == acting {
                mine.clone()
            } else {
                PrepOrders::default()
            };
            let enemy_air = if i == 1 {
                air_expected6(ctx, &cs.prep[0].sortie, &cs.prep[0].pilots)
            } else {
                0
            };
            let mut p = std::mem::take(&mut cs.prep[i]);
            prepare_side(ctx, at, side, side == acting, &explicit, enemy_air, &mut p);
            cs.prep[i] = p;
        }
    }
    for (i, name) in [(0, "attacker"), (1, "defender")] {
        let p = &cs.prep[i];
        ctx.log.public(format!(
            "{name} {}: {} units, sortie {}, carried {}, housed {} (20)",
            camp(cs, i)
                .sides()
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join("+"),
            p.participants.len(),
            list(p.sortie.iter()),
            list(p.stowed.keys()),
            list(p.housed.iter()),
        ));
    }
}

fn list<'a>(it: impl Iterator<Item = &'a String>) -> String {
    let v: Vec<&str> = it.map(|s| s.as_str()).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// One faction's preparation into its camp's `p` (20.2-20.9, A-38, A-43).
fn prepare_side(
    ctx: &mut Ctx<'_>,
    at: Loc,
    side: Side,
    is_acting: bool,
    explicit: &PrepOrders,
    enemy_air6: u32,
    p: &mut Prep,
) {
    let policy = ctx.state.policies[side].defence.clone();
    let protect = ctx.state.policies[side].protect.clone();
    // 20.2: the acting faction fights with its movers it does not leave out; every
    // other faction with all its units in the hex.
    crate::kit::reach::fire("20.2");
    let units: Vec<UnitId> = if is_acting {
        movers(ctx, side, at)
            .into_iter()
            .filter(|u| !explicit.leave_out.contains(u))
            .collect()
    } else {
        ctx.state
            .units
            .iter()
            .filter(|(_, u)| u.side == side && u.place == Place::Hex(at))
            .map(|(id, _)| id.clone())
            .collect()
    };
    let of_class = |ctx: &Ctx<'_>, c: Class| -> Vec<UnitId> {
        units
            .iter()
            .filter(|u| class_of(ctx, u) == Some(c))
            .cloned()
            .collect()
    };
    let ms = of_class(ctx, Class::Ms);
    let ships = of_class(ctx, Class::Ship);
    p.participants.extend(units.iter().cloned());
    // 20.4: housing, only in an own military base.
    let own_base = military_bases_of(ctx, at, side);
    let mut housed: BTreeSet<UnitId> = BTreeSet::new();
    if !own_base.is_empty() {
        if !explicit.house.is_empty() {
            housed.extend(explicit.house.iter().filter(|u| units.contains(u)).cloned());
        } else if !is_acting {
            for u in &units {
                let take = match policy.house {
                    House::None => false,
                    House::Damaged => ctx
                        .state
                        .units
                        .get(u)
                        .is_some_and(|x| x.face == FaceUp::Back),
                    House::Ships => class_of(ctx, u) == Some(Class::Ship),
                    House::All => true,
                };
                if take {
                    housed.insert(u.clone());
                }
            }
        }
        if !housed.is_empty() {
            crate::kit::reach::fire("20.4");
        }
    }
    // 20.9: only MS fit for the map may sortie.
    let fits = |ctx: &Ctx<'_>, u: &str| {
        ctx.state
            .units
            .get(u)
            .and_then(|x| ctx.data.unit_type(&x.type_id))
            .and_then(|t| t.aptitude)
            .is_some_and(|a| a.allows(at.map))
    };
    let eligible: Vec<UnitId> = ms
        .iter()
        .filter(|u| !housed.contains(*u) && fits(ctx, u))
        .cloned()
        .collect();
    if eligible.len() < ms.iter().filter(|u| !housed.contains(*u)).count() {
        crate::kit::reach::fire("20.9");
    }
    let own_air6 = || {
        let set: BTreeSet<UnitId> = eligible.iter().cloned().collect();
        air_expected6(ctx, &set, &BTreeMap::new())
    };
    // 20.3: the sortie.
    let mut sortie: BTreeSet<UnitId> = match &explicit.sortie {
        Some(list) => list
            .iter()
            .filter(|u| eligible.contains(u))
            .cloned()
            .collect(),
        None if is_acting => eligible.iter().cloned().collect(),
        None => match policy.sortie {
            Sortie::AllEligible => eligible.iter().cloned().collect(),
            Sortie::None => BTreeSet::new(),
            Sortie::IfAirFavourable => {
                if own_air6() >= enemy_air6 {
                    eligible.iter().cloned().collect()
                } else {
                    BTreeSet::new()
                }
            }
        },
    };
    // 20.5-20.6: pilots, the order's first, then the best remaining onto the best MS.
    let chars_here: Vec<CharId> = ctx
        .state
        .chars
        .iter()
        .filter(|(_, c)| c.side == side)
        // 29.1.2: in a phase whose orders declare his speech, Quattro stays aboard and is
        // neither pilot nor captain.
        .filter(|(id, _)| !(ctx.state.speech_phase && id.as_str() == "quattro"))
        .filter(|(_, c)| match &c.place {
            CharPlace::Aboard(u) => units.contains(u),
            CharPlace::Solo(l) => *l == at,
            _ => false,
        })
        .map(|(id, _)| id.clone())
        .collect();
    let mut pilots: BTreeMap<UnitId, CharId> = BTreeMap::new();
    let mut seated: BTreeSet<CharId> = explicit.in_base.iter().cloned().collect();
    for (m, c) in &explicit.pilots {
        let ty = ctx
            .state
            .units
            .get(m)
            .map(|u| u.type_id.clone())
            .unwrap_or_default();
        if sortie.contains(m)
            && chars_here.contains(c)
            && !seated.contains(c)
            && may_pilot(ctx, c, &ty).is_ok()
        {
            pilots.insert(m.clone(), c.clone());
            seated.insert(c.clone());
        }
    }
    let captains_wanted: BTreeSet<CharId> = explicit.captains.values().cloned().collect();
    let mut free: Vec<CharId> = chars_here
        .iter()
        .filter(|c| !seated.contains(*c) && !captains_wanted.contains(*c) && !protect.contains(c))
        .cloned()
        .collect();
    free.sort_by_key(|c| {
        let d = ctx.data.character(c);
        let s = d
            .map(|d| u32::from(d.ms_attack) + u32::from(d.ms_defense))
            .unwrap_or(0);
        (std::cmp::Reverse(s), c.clone())
    });
    let mut order_ms: Vec<UnitId> = sortie
        .iter()
        .filter(|m| !pilots.contains_key(*m))
        .cloned()
        .collect();
    order_ms.sort_by_key(|m| {
        let t = ctx
            .state
            .units
            .get(m)
            .and_then(|u| ctx.data.unit_type(&u.type_id));
        let nt = t.is_some_and(|t| t.nt_only);
        let pp = t.map(|t| t.pp).unwrap_or(0);
        let air = face(ctx, m).map(|f| fire::expected6(&f.air)).unwrap_or(0);
        (
            !nt,
            std::cmp::Reverse(pp),
            std::cmp::Reverse(air),
            m.clone(),
        )
    });
    for m in order_ms {
        let ty = ctx
            .state
            .units
            .get(&m)
            .map(|u| u.type_id.clone())
            .unwrap_or_default();
        if let Some(pos) = free.iter().position(|c| may_pilot(ctx, c, &ty).is_ok()) {
            let c = free.remove(pos);
            seated.insert(c.clone());
            pilots.insert(m, c);
        }
    }
    // 20.6: an NT-only MS without an NT pilot stays in (29.6: the pilotless one may go).
    let grounded: Vec<UnitId> = sortie
        .iter()
        .filter(|m| {
            let t = ctx
                .state
                .units
                .get(*m)
                .and_then(|u| ctx.data.unit_type(&u.type_id));
            t.is_some_and(|t| t.nt_only && !t.pilotless) && !pilots.contains_key(*m)
        })
        .cloned()
        .collect();
    for m in grounded {
        crate::kit::reach::fire("20.6");
        sortie.remove(&m);
    }
    // 20.3: MS that do not sortie ride a ship: the order's choice, the one carrying it, or
    // the own ship with the most room; with no room, an own military base houses them; with
    // neither, it must sortie if it may (A-43 hole, §12), or it is left to 25.11.
    let fighting_ships: Vec<UnitId> = ships
        .iter()
        .filter(|s| !housed.contains(*s))
        .cloned()
        .collect();
    let capacity = |ctx: &Ctx<'_>, ship: &str| {
        ctx.state
            .units
            .get(ship)
            .and_then(|u| ctx.data.unit_type(&u.type_id))
            .map(|t| usize::from(t.carry))
            .unwrap_or(0)
    };
    let load = |ctx: &Ctx<'_>, ship: &str| {
        ctx.state
            .units
            .values()
            .filter(|u| u.carrier.as_deref() == Some(ship))
            .count()
    };
    // Sortied MS leave their ships for the fight.
    for m in &sortie {
        if let Some(u) = ctx.state.units.get_mut(m) {
            u.carrier = None;
        }
    }
    let stay: Vec<UnitId> = ms
        .iter()
        .filter(|m| !sortie.contains(*m) && !housed.contains(*m))
        .cloned()
        .collect();
    let mut stowed = BTreeMap::new();
    for m in stay {
        let current = ctx.state.units.get(&m).and_then(|u| u.carrier.clone());
        let wanted = explicit.stow.get(&m).cloned();
        let ship = match (wanted, current) {
            (Some(s), cur)
                if fighting_ships.contains(&s)
                    && (cur.as_ref() == Some(&s) || load(ctx, &s) < capacity(ctx, &s)) =>
            {
                Some(s)
            }
            (_, Some(c)) if ships.contains(&c) => Some(c),
            _ => {
                let mut room: Vec<&UnitId> = fighting_ships
                    .iter()
                    .filter(|s| load(ctx, s) < capacity(ctx, s))
                    .collect();
                room.sort_by_key(|s| {
                    (
                        std::cmp::Reverse(capacity(ctx, s) - load(ctx, s)),
                        (*s).clone(),
                    )
                });
                room.first().map(|s| (*s).clone())
            }
        };
        match ship {
            Some(s) => {
                if let Some(u) = ctx.state.units.get_mut(&m) {
                    u.carrier = Some(s.clone());
                }
                stowed.insert(m, s);
            }
            None if !own_base.is_empty() => {
                crate::kit::reach::fire("20.4");
                housed.insert(m);
            }
            None if fits(ctx, &m)
                && ctx
                    .state
                    .units
                    .get(&m)
                    .and_then(|u| ctx.data.unit_type(&u.type_id))
                    .is_some_and(|t| !t.nt_only || t.pilotless) =>
            {
                if let Some(u) = ctx.state.units.get_mut(&m) {
                    u.carrier = None;
                }
                sortie.insert(m);
            }
            None => {}
        }
    }
    crate::kit::reach::fire("20.3");
    // Seats in the state: pilots aboard their MS; other characters aboard an own fighting
    // ship (20.7) unless they stay in the base.
    for (m, c) in &pilots {
        crate::kit::reach::fire("20.5");
        if let Some(ch) = ctx.state.chars.get_mut(c) {
            ch.place = CharPlace::Aboard(m.clone());
        }
    }
    let mut in_base: BTreeSet<CharId> = BTreeSet::new();
    for c in &chars_here {
        if pilots.values().any(|p| p == c) {
            continue;
        }
        let place = ctx.state.chars.get(c).map(|x| x.place.clone());
        let wants_base = explicit.in_base.contains(c) || matches!(place, Some(CharPlace::Solo(_)));
        if wants_base && !own_base.is_empty() {
            crate::kit::reach::fire("20.7");
            in_base.insert(c.clone());
            if let Some(ch) = ctx.state.chars.get_mut(c) {
                ch.place = CharPlace::Solo(at);
            }
            continue;
        }
        let on_ship = matches!(&place, Some(CharPlace::Aboard(u)) if ships.contains(u));
        let wanted = explicit
            .captains
            .iter()
            .find(|(_, x)| *x == c)
            .map(|(s, _)| s.clone());
        let target = wanted.filter(|s| ships.contains(s)).or_else(|| {
            if on_ship {
                None
            } else {
                fighting_ships.first().cloned()
            }
        });
        if let Some(s) = target
            && let Some(ch) = ctx.state.chars.get_mut(c)
        {
            ch.place = CharPlace::Aboard(s);
        }
    }
    // 20.8: a captain per fighting ship: the order's, else the best ship attack aboard.
    let mut captains = BTreeMap::new();
    for s in &fighting_ships {
        let aboard = damage::aboard(ctx, s);
        let pick = explicit
            .captains
            .get(s)
            .filter(|c| aboard.contains(*c) && may_captain(ctx, c))
            .cloned()
            .or_else(|| {
                let mut v: Vec<&CharId> = aboard.iter().filter(|c| may_captain(ctx, c)).collect();
                v.sort_by_key(|c| {
                    let d = ctx.data.character(c);
                    (
                        std::cmp::Reverse(d.map(|d| d.ship_attack).unwrap_or(0)),
                        std::cmp::Reverse(d.map(|d| d.ship_defense).unwrap_or(0)),
                        (*c).clone(),
                    )
                });
                v.first().map(|c| (*c).clone())
            });
        if let Some(c) = pick {
            crate::kit::reach::fire("20.8");
            captains.insert(s.clone(), c);
        }
    }
    p.sortie.extend(sortie);
    p.stowed.extend(stowed);
    p.housed.extend(housed);
    p.pilots.extend(pilots);
    p.captains.extend(captains);
    p.in_base.extend(in_base);
}

/// The four firing steps, for the command shares (26.1-26.2) and the labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireStep {
    Air,
    Aa,
    Bombing,
    Bombard,
}

impl FireStep {
    fn label(self) -> &'static str {
        match self {
            FireStep::Air => "air",
            FireStep::Aa => "aa",
            FireStep::Bombing => "bombing",
            FireStep::Bombard => "bombard",
        }
    }
}

fn alive(ctx: &Ctx<'_>, u: &str) -> bool {
    ctx.state.units.contains_key(u)
}

/// Camp `i`'s sortied MS still on the map (21.3, 23.1, A-43, A-46).
fn sortied(ctx: &Ctx<'_>, cs: &CombatState, i: usize) -> Vec<UnitId> {
    cs.prep[i]
        .sortie
        .iter()
        .filter(|u| alive(ctx, u))
        .cloned()
        .collect()
}

/// Camp `i`'s fighting units of `class`: taking part, not housed, still there.
fn fighting(ctx: &Ctx<'_>, cs: &CombatState, i: usize, class: Class) -> Vec<UnitId> {
    cs.prep[i]
        .participants
        .iter()
        .filter(|u| !cs.prep[i].housed.contains(*u) && class_of(ctx, u) == Some(class))
        .cloned()
        .collect()
}

/// Camp `i`'s military bases in the hex (22.6, 24.7, 23.3, 24.8).
fn camp_bases(ctx: &Ctx<'_>, cs: &CombatState, i: usize) -> Vec<BaseId> {
    camp(cs, i)
        .sides()
        .into_iter()
        .flat_map(|s| military_bases_of(ctx, cs.at, s))
        .collect()
}

fn char_value(ctx: &Ctx<'_>, c: Option<&CharId>, f: impl Fn(&super::data::CharDef) -> u8) -> u8 {
    c.and_then(|c| ctx.data.character(c)).map(f).unwrap_or(0)
}

/// Air and AA targets: camp `i`'s sortied MS, each with its pilot's MS defense (25.6).
fn ms_targets(ctx: &Ctx<'_>, cs: &CombatState, i: usize) -> Vec<Target> {
    sortied(ctx, cs, i)
        .iter()
        .flat_map(|m| {
            let bonus = char_value(ctx, cs.prep[i].pilots.get(m), |d| d.ms_defense);
            if bonus > 0 {
                crate::kit::reach::fire("25.6");
            }
            damage::unit_targets(ctx, m, bonus)
        })
        .collect()
}

/// Bombing and bombardment targets: camp `i`'s fighting ships with their captains' ship
/// defense (25.7), its colony (35.8, A-75) and its military bases as ships (23.3, 24.8);
/// `base_only` keeps only the bases (24.2.5).
fn ship_targets(ctx: &Ctx<'_>, cs: &CombatState, i: usize, base_only: bool) -> Vec<Target> {
    let mut out = Vec::new();
    if !base_only {
        for s in fighting(ctx, cs, i, Class::Ship) {
            let bonus = char_value(ctx, cs.prep[i].captains.get(&s), |d| d.ship_defense);
            if bonus > 0 {
                crate::kit::reach::fire("25.7");
            }
            out.extend(damage::unit_targets(ctx, &s, bonus));
        }
        for c in fighting(ctx, cs, i, Class::Colony) {
            out.extend(damage::unit_targets(ctx, &c, 0));
        }
    }
    for b in camp_bases(ctx, cs, i) {
        out.extend(damage::base_targets(ctx, &b, &cs.prep[i].housed));
    }
    out
}

/// Camp `i`'s ship guns: AA (22.3, 22.5) or bombardment (24.4, 24.6), each with its captain's
/// ship attack in extra dice.
fn ship_guns(ctx: &Ctx<'_>, cs: &CombatState, i: usize, aa: bool) -> Vec<fire::Gun> {
    let mut out = Vec::new();
    for s in fighting(ctx, cs, i, Class::Ship) {
        let (Some(f), Some(u)) = (face(ctx, &s), ctx.state.units.get(&s)) else {
            continue;
        };
        let Some(g) = (if aa {
            f.aa.as_ref()
        } else {
            f.bombard.as_ref()
        }) else {
            continue;
        };
        let extra = char_value(ctx, cs.prep[i].captains.get(&s), |d| d.ship_attack);
        if extra > 0 {
            crate::kit::reach::fire(if aa { "22.5" } else { "24.6" });
        }
        out.push(fire::Gun {
            who: s.clone(),
            side: u.side,
            dice: u32::from(g.guns) + u32::from(extra),
            values: g.values.clone(),
        });
    }
    out
}

/// Camp `i`'s military bases as guns: as many dice as the current level's attack, at "2.1"
/// for AA (22.6) and "3.1" for bombardment (24.7).
fn base_guns(ctx: &Ctx<'_>, cs: &CombatState, i: usize, aa: bool) -> Vec<fire::Gun> {
    camp_bases(ctx, cs, i)
        .into_iter()
        .filter_map(|b| {
            let s = ctx.state.bases.get(&b)?;
            let v = ctx.data.base(&b)?.at_level(s.level)?;
            crate::kit::reach::fire(if aa { "22.6" } else { "24.7" });
            Some(fire::Gun {
                who: b.clone(),
                side: s.governor?,
                dice: u32::from(v.attack),
                values: if aa {
                    fire::BASE_AA.to_vec()
                } else {
                    fire::BASE_BOMBARD.to_vec()
                },
            })
        })
        .collect()
}

/// Camp `i`'s bombing guns (23.4-23.5): surviving sortied MS, pilots' extra dice.
fn bomb_guns(ctx: &Ctx<'_>, cs: &CombatState, i: usize) -> Vec<fire::Gun> {
    sortied(ctx, cs, i)
        .iter()
        .filter_map(|m| {
            let u = ctx.state.units.get(m)?;
            let f = face(ctx, m)?;
            Some(fire::Gun {
                who: m.clone(),
                side: u.side,
                dice: 1 + ms_attack(ctx, cs.prep[i].pilots.get(m)),
                values: f.bombing.clone(),
            })
        })
        .collect()
}

fn air_guns(ctx: &Ctx<'_>, cs: &CombatState, i: usize) -> Vec<fire::Gun> {
    sortied(ctx, cs, i)
        .iter()
        .filter_map(|m| air_gun(ctx, m, cs.prep[i].pilots.get(m)))
        .collect()
}

/// 22.1: whether camp `i` wishes to bomb: it has sortied MS and the enemy something to
/// bomb, and then the order (attacker) or the principal's `bomb` policy says so.
fn wish_bomb(ctx: &Ctx<'_>, cs: &CombatState, order: &CombatOrder, i: usize) -> bool {
    let own = sortied(ctx, cs, i).len();
    if own == 0 || ship_targets(ctx, cs, 1 - i, false).is_empty() {
        return false;
    }
    let w = if i == 0 { order.bomb } else { Wish::Auto };
    match w {
        Wish::Yes => true,
        Wish::No => false,
        Wish::Auto => match ctx.state.policies[camp(cs, i).principal].bomb {
            Bomb::Never => false,
            Bomb::IfTarget => true,
            Bomb::IfMsAtLeast(n) => u32::try_from(own).unwrap_or(u32::MAX) >= n,
        },
    }
}

/// 24.1: whether camp `i` wishes to bombard, `e6` the two camps' expected hits times six.
fn wish_bombard(
    ctx: &Ctx<'_>,
    cs: &CombatState,
    order: &CombatOrder,
    i: usize,
    e6: [u32; 2],
) -> bool {
    let w = if i == 0 { order.bombard } else { Wish::Auto };
    match w {
        Wish::Yes => true,
        Wish::No => false,
        Wish::Auto => match ctx.state.policies[camp(cs, i).principal].bombard {
            Bombard::Always => true,
            Bombard::Never => false,
            Bombard::IfStronger => e6[i] > 0 && e6[i] >= e6[1 - i],
        },
    }
}

/// The command shares camp `r` places itself (26.1-26.2): the two best commanders of the
/// camp (MS command of characters on its MS for air and AA; ship command of characters on its
/// ships for bombing and bombardment). Each commander's value is placed by its own faction
/// (§12/F1); a camp with a voluntary joiner under `camp_allocation: principal` gives the whole
/// share to its principal (`None`: on any of the camp's units).
pub fn command_shares(
    ctx: &Ctx<'_>,
    cs: &CombatState,
    r: usize,
    step: FireStep,
) -> Vec<(Option<Side>, u32)> {
    let mut commanders: Vec<(u32, CharId, Side)> = Vec::new();
    let ms = matches!(step, FireStep::Air | FireStep::Aa);
    let seats: Vec<UnitId> = if ms {
        sortied(ctx, cs, r)
    } else {
        fighting(ctx, cs, r, Class::Ship)
    };
    for u in seats {
        for c in damage::aboard(ctx, &u) {
            let Some(d) = ctx.data.character(&c) else {
                continue;
            };
            let v = u32::from(if ms { d.ms_command } else { d.ship_command });
            let side = ctx.state.chars.get(&c).map(|x| x.side).unwrap_or(d.side);
            if v > 0 {
                commanders.push((v, c, side));
            }
        }
    }
    commanders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    commanders.truncate(2);
    if commanders.is_empty() {
        return Vec::new();
    }
    crate::kit::reach::fire(if ms { "26.1" } else { "26.2" });
    let c = camp(cs, r);
    if c.joined.is_some() && ctx.data.scenarios.options.camp_allocation == "principal" {
        return vec![(None, commanders.iter().map(|x| x.0).sum())];
    }
    let mut by: BTreeMap<Side, u32> = BTreeMap::new();
    for (v, _, s) in commanders {
        *by.entry(s).or_insert(0) += v;
    }
    by.into_iter().map(|(s, v)| (Some(s), v)).collect()
}

/// What one camp's hits do to camp `r` (25.3, 26.3): first the receivers' command shares,
/// each faction on its own units, then the scorer's principal places the rest by its
/// `allocate` policy. A share's flip may be completed into a removal by the scorer.
fn allocation_for(
    ctx: &mut Ctx<'_>,
    cs: &CombatState,
    r: usize,
    step: FireStep,
    hits: u32,
    targets: &[Target],
) -> Allocation {
    let scorer = camp(cs, 1 - r).principal;
    let mut left = hits;
    let mut alloc: Allocation = Vec::new();
    for (faction, amount) in command_shares(ctx, cs, r, step) {
        let who = faction.unwrap_or(camp(cs, r).principal);
        let own: Vec<Target> = targets
            .iter()
            .filter(|t| faction.is_none_or(|f| t.side == f))
            .cloned()
            .collect();
        let pol = &ctx.state.policies[who];
        let placed = damage::place_share(&pol.share, &pol.protect, amount.min(left), &own);
        let used = damage::cost_of(&placed, &own);
        left = left.saturating_sub(used);
        if used > 0 {
            crate::kit::reach::fire("26.3");
            ctx.log.public(format!(
                "{who} places {used} of the hits by command (26): {}",
                show(&placed)
            ));
        }
        alloc.extend(placed);
    }
    // The rest for the scorer: untouched targets, and the removal of a unit a share flipped.
    let touched: BTreeSet<String> = alloc.iter().map(|q| q.key().to_string()).collect();
    let mut rest: Vec<Target> = targets
        .iter()
        .filter(|t| !touched.contains(t.quantum.key()))
        .cloned()
        .collect();
    for q in &alloc {
        let Quantum::Flip(u) = q else { continue };
        let flip = targets.iter().find(|t| t.quantum == *q);
        let fresh = targets
            .iter()
            .find(|t| t.quantum == Quantum::KillFresh(u.clone()));
        if let (Some(f), Some(k)) = (flip, fresh) {
            rest.push(Target {
                quantum: Quantum::Kill(u.clone()),
                cost: k.cost.saturating_sub(f.cost),
                value: k.value.saturating_sub(f.value),
                ..k.clone()
            });
        }
    }
    let scored = damage::allocate(&ctx.state.policies[scorer].allocate, left, &rest);
    crate::kit::reach::fire("25.3");
    let used = damage::cost_of(&scored, &rest);
    if left > used {
        crate::kit::reach::fire("25.5");
    }
    ctx.log.public(format!(
        "{scorer} places {used} of {}: {}{}",
        super::fire::hits_text(left),
        show(&scored),
        if left > used {
            format!("; {} lost (25.5)", left - used)
        } else {
            String::new()
        }
    ));
    alloc.extend(scored);
    alloc
}

fn show(a: &[Quantum]) -> String {
    if a.is_empty() {
        return "nothing".into();
    }
    a.iter()
        .map(|q| match q {
            Quantum::Flip(u) => format!("flip {u}"),
            Quantum::Kill(u) | Quantum::KillFresh(u) => format!("remove {u}"),
            Quantum::BaseDown(b, k) => format!("{b} -{k}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One step's damage (25.1-25.2, 26.4): both camps' allocations are chosen, then applied
/// together; then the survival checks (27.4) and the stranded MS (25.11).
fn damage_step(
    ctx: &mut Ctx<'_>,
    cs: &CombatState,
    step: FireStep,
    hits: [u32; 2],
    targets: [Vec<Target>; 2],
    prefix: &str,
) {
    crate::kit::reach::fire("25.1");
    let mut allocs: [Allocation; 2] = [Vec::new(), Vec::new()];
    for r in 0..2 {
        let h = hits[1 - r];
        if h == 0 {
            continue;
        }
        let t = &targets[r];
        allocs[r] = allocation_for(ctx, cs, r, step, h, t);
    }
    crate::kit::reach::fire("26.4");
    let mut housed: BTreeMap<BaseId, BTreeSet<UnitId>> = BTreeMap::new();
    let mut in_base: BTreeMap<BaseId, BTreeSet<CharId>> = BTreeMap::new();
    for i in 0..2 {
        if let Some(b) = camp_bases(ctx, cs, i).first() {
            housed.insert(b.clone(), cs.prep[i].housed.clone());
            in_base.insert(b.clone(), cs.prep[i].in_base.clone());
        }
    }
    let mut losses = Losses::default();
    for a in &allocs {
        damage::apply(ctx, a, &housed, &in_base, &mut losses);
    }
    crate::kit::reach::fire("25.2");
    survivals(ctx, &losses, &labels::under(prefix, &[step.label()]));
    stranded_ms(ctx, cs, &labels::under(prefix, &[step.label(), "stranded"]));
}

/// 27.1-27.4: every character of a lost unit or base rolls once, now; survivors without a
/// unit find one (27.5, A-27).
fn survivals(ctx: &mut Ctx<'_>, losses: &Losses, prefix: &str) {
    let mut done: BTreeSet<&str> = BTreeSet::new();
    for (c, at) in &losses.survivors {
        if !done.insert(c) {
            continue;
        }
        crate::kit::reach::fire("27.1");
        crate::kit::reach::fire("27.4");
        let label = labels::under(prefix, &["survival", c]);
        let result = survival::survival(ctx, c, 0, &label);
        // Growth put (2) where (1) was.
        let now = match (
            result,
            ctx.data.character(c).and_then(|d| d.grows_to.clone()),
        ) {
            (Some(Survival::G), Some(next))
                if ctx
                    .state
                    .chars
                    .get(c)
                    .is_some_and(|x| x.place == CharPlace::Replaced) =>
            {
                next
            }
            _ => c.clone(),
        };
        if survival::stranded(ctx, &now) {
            survival::rehome(ctx, &now, *at);
        }
    }
}

/// Whether an MS of `side` in the combat hex needs a ship after damage (25.11): in space away
/// from bases, in another faction's military base, or on an ocean hex.
fn needs_ship(ctx: &Ctx<'_>, at: Loc, side: Side) -> bool {
    let bases = bases_in(ctx, at);
    let others_base = bases.iter().any(|b| {
        ctx.data
            .base(b)
            .is_some_and(|d| d.kind == BaseKind::Military)
            && ctx
                .state
                .bases
                .get(b)
                .is_some_and(|s| s.governor.is_some_and(|g| g != side) && s.level > 0)
    });
    let plain = match at.map {
        MapId::Space => bases.is_empty(),
        MapId::Ground => ctx.data.map.ground.terrain(at.at) == Some(Terrain::Ocean),
    };
    plain || others_base
}

/// Own ships in `at` with their spare room, in the `recarry` policy's order.
fn seats(ctx: &Ctx<'_>, at: Loc, side: Side) -> Vec<(UnitId, usize)> {
    let mut v: Vec<(UnitId, usize, usize)> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side == side && u.place == Place::Hex(at))
        .filter_map(|(id, u)| {
            let t = ctx.data.unit_type(&u.type_id)?;
            if t.class != Class::Ship {
                return None;
            }
            let load = ctx
                .state
                .units
                .values()
                .filter(|m| m.carrier.as_deref() == Some(id.as_str()))
                .count();
            Some((
                id.clone(),
                usize::from(t.carry),
                usize::from(t.carry).saturating_sub(load),
            ))
        })
        .collect();
    match &ctx.state.policies[side].recarry {
        Recarry::LargestCapacityFirst => v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0))),
        Recarry::List(l) => v.sort_by_key(|s| {
            (
                l.iter().position(|x| *x == s.0).unwrap_or(l.len()),
                s.0.clone(),
            )
        }),
    }
    v.into_iter().map(|(id, _, room)| (id, room)).collect()
}

/// MS with no carrier in the hex, not housed, of `side`, best first (PP, then id).
fn loose_ms(ctx: &Ctx<'_>, cs: &CombatState, side: Side) -> Vec<UnitId> {
    let mut v: Vec<(u8, UnitId)> = ctx
        .state
        .units
        .iter()
        .filter(|(id, u)| {
            u.side == side
                && u.place == Place::Hex(cs.at)
                && !cs.prep.iter().any(|p| p.housed.contains(*id))
                && u.carrier.as_ref().is_none_or(|c| !alive(ctx, c))
        })
        .filter_map(|(id, u)| {
            let t = ctx.data.unit_type(&u.type_id)?;
            (t.class == Class::Ms).then(|| (t.pp, id.clone()))
        })
        .collect();
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    v.into_iter().map(|(_, id)| id).collect()
}

/// 25.11: after damage, where MS need a ship, those own ships in the hex cannot take
/// are removed and their characters roll. The MS keep fighting; they board at the end.
fn stranded_ms(ctx: &mut Ctx<'_>, cs: &CombatState, prefix: &str) {
    let mut losses = Losses::default();
    for side in Side::ALL.iter().copied() {
        if !needs_ship(ctx, cs.at, side) {
            continue;
        }
        let room: usize = seats(ctx, cs.at, side).iter().map(|s| s.1).sum();
        let loose = loose_ms(ctx, cs, side);
        for m in loose.iter().skip(room) {
            crate::kit::reach::fire("25.11");
            ctx.log
                .public(format!("{side} {m} has no ship to carry it (25.11)"));
            damage::remove_unit(ctx, m, &mut losses);
        }
    }
    survivals(ctx, &losses, prefix);
}

/// After the fight, MS that sortied where they need a ship board the own ships with room
/// (A-53, 15.1).
fn reboard(ctx: &mut Ctx<'_>, cs: &CombatState) {
    for side in Side::ALL.iter().copied() {
        if !needs_ship(ctx, cs.at, side) {
            continue;
        }
        let mut seats = seats(ctx, cs.at, side);
        for m in loose_ms(ctx, cs, side) {
            let Some(s) = seats.iter_mut().find(|s| s.1 > 0) else {
                break;
            };
            s.1 -= 1;
            let ship = s.0.clone();
            if let Some(u) = ctx.state.units.get_mut(&m) {
                u.carrier = Some(ship);
            }
        }
    }
}

/// The steps after preparation (19.1-19.3): air, AA, bombing, bombardment, then the decline
/// (28, government's) and the end.
pub fn fight(ctx: &mut Ctx<'_>, cs: &mut CombatState, order: &CombatOrder, prefix: &str) {
    crate::kit::reach::fire("19.1");
    crate::kit::reach::fire("19.2");
    // 21: air combat, compulsory, all sortied MS, simultaneous.
    cs.step = CombatStep::Air;
    crate::kit::reach::fire("21.1");
    crate::kit::reach::fire("21.2");
    let targets = [ms_targets(ctx, cs, 0), ms_targets(ctx, cs, 1)];
    let mut hits = [0u32; 2];
    let air = labels::under(prefix, &["air"]);
    for i in 0..2 {
        // no rolls without a target.
        if !targets[1 - i].is_empty() {
            crate::kit::reach::fire("21.3");
            crate::kit::reach::fire("21.5");
            let guns = air_guns(ctx, cs, i);
            if guns.iter().any(|g| g.dice > 1) {
                crate::kit::reach::fire("21.6");
            }
            hits[i] = fire::volley(ctx, &air, &guns);
        }
    }
    if hits.iter().any(|h| *h > 0) {
        crate::kit::reach::fire("21.4");
        crate::kit::reach::fire("21.7");
        damage_step(ctx, cs, FireStep::Air, hits, targets, prefix);
    }
    // 22.1: the bombing wishes, after the air damage.
    cs.bomb = [wish_bomb(ctx, cs, order, 0), wish_bomb(ctx, cs, order, 1)];
    // 22: AA only against a camp that wishes to bomb, both at once.
    cs.step = CombatStep::Aa;
    if cs.bomb.iter().any(|b| *b) {
        crate::kit::reach::fire("22.1");
        let aa = labels::under(prefix, &["aa"]);
        let mut hits = [0u32; 2];
        let targets = [
            if cs.bomb[0] {
                ms_targets(ctx, cs, 0)
            } else {
                Vec::new()
            },
            if cs.bomb[1] {
                ms_targets(ctx, cs, 1)
            } else {
                Vec::new()
            },
        ];
        for i in 0..2 {
            if cs.bomb[1 - i] && !targets[1 - i].is_empty() {
                crate::kit::reach::fire("22.2");
                crate::kit::reach::fire("22.3");
                let mut guns = ship_guns(ctx, cs, i, true);
                guns.extend(base_guns(ctx, cs, i, true));
                hits[i] = fire::volley(ctx, &aa, &guns);
            }
        }
        if hits.iter().any(|h| *h > 0) {
            crate::kit::reach::fire("22.4");
            crate::kit::reach::fire("22.7");
            damage_step(ctx, cs, FireStep::Aa, hits, targets, prefix);
        }
    }
    // 23: the survivors of a wishing camp bomb ships and bases.
    cs.step = CombatStep::Bombing;
    if cs.bomb.iter().any(|b| *b) {
        let bombing = labels::under(prefix, &["bombing"]);
        let mut hits = [0u32; 2];
        let targets = [
            if cs.bomb[1] {
                ship_targets(ctx, cs, 0, false)
            } else {
                Vec::new()
            },
            if cs.bomb[0] {
                ship_targets(ctx, cs, 1, false)
            } else {
                Vec::new()
            },
        ];
        for i in 0..2 {
            if cs.bomb[i] && !targets[1 - i].is_empty() {
                crate::kit::reach::fire("23.1");
                crate::kit::reach::fire("23.2");
                crate::kit::reach::fire("23.3");
                crate::kit::reach::fire("23.4");
                let guns = bomb_guns(ctx, cs, i);
                if guns.iter().any(|g| g.dice > 1) {
                    crate::kit::reach::fire("23.5");
                }
                hits[i] = fire::volley(ctx, &bombing, &guns);
            }
        }
        if hits.iter().any(|h| *h > 0) {
            crate::kit::reach::fire("23.6");
            damage_step(ctx, cs, FireStep::Bombing, hits, targets, prefix);
        }
    }
    // 24: bombardment.
    cs.step = CombatStep::Bombard;
    bombard(ctx, cs, order, prefix);
    // 28 (step 6): the decline at a political base, written in government.rs.
    cs.step = CombatStep::Decline;
    super::government::decline(ctx, cs.at, prefix);
    crate::kit::reach::fire("19.3");
    reboard(ctx, cs);
}

/// 24.1-24.10 with the occurrence check (24.2) and A-49.
fn bombard(ctx: &mut Ctx<'_>, cs: &mut CombatState, order: &CombatOrder, prefix: &str) {
    let all_guns = |ctx: &Ctx<'_>, cs: &CombatState, i: usize| {
        let mut g = ship_guns(ctx, cs, i, false);
        g.extend(base_guns(ctx, cs, i, false));
        g
    };
    let e6 = [0, 1].map(|i| {
        all_guns(ctx, cs, i)
            .iter()
            .map(|g| g.expected6())
            .sum::<u32>()
    });
    cs.bombard = [
        wish_bombard(ctx, cs, order, 0, e6),
        wish_bombard(ctx, cs, order, 1, e6),
    ];
    let has_base = [0, 1].map(|i| !camp_bases(ctx, cs, i).is_empty());
    let mut winner = None;
    if fire::needs_check(cs.bombard) {
        crate::kit::reach::fire("24.2");
        crate::kit::reach::fire("24.2.1");
        crate::kit::reach::fire("24.2.2");
        let mut totals = [0u32; 2];
        for (i, total) in totals.iter_mut().enumerate() {
            // 24.2.1: the two best ship commands aboard the camp's ships (a dominant choice);
            // none aboard adds 0.
            let mut cmd: Vec<u32> = fighting(ctx, cs, i, Class::Ship)
                .iter()
                .flat_map(|s| damage::aboard(ctx, s))
                .filter_map(|c| ctx.data.character(&c).map(|d| u32::from(d.ship_command)))
                .collect();
            cmd.sort_unstable_by(|a, b| b.cmp(a));
            let bonus: u32 = cmd.iter().take(2).sum();
            let who = camp(cs, i).principal;
            let label = labels::under(prefix, &["bombard-check", who.name()]);
            let Some(dice) = ctx.dice.as_deref_mut() else {
                return;
            };
            let die = dice.d6(&label);
            *total = die + bonus;
            dice.set_result(&label, format!("{}", die + bonus));
            ctx.log.public(format!(
                "{who} bombardment check: {die} + {bonus} = {}",
                die + bonus
            ));
        }
        winner = fire::check_winner(totals);
        if winner.is_none() {
            crate::kit::reach::fire("24.2.3");
        }
    }
    let shape = fire::bombardment(cs.bombard, winner, has_base);
    if !shape.happens {
        ctx.log.public("no bombardment (24.1-24.2)".to_string());
        return;
    }
    crate::kit::reach::fire("24.1");
    if shape.base_silent.iter().any(|b| *b) {
        crate::kit::reach::fire("24.2.4");
    }
    if shape.base_only.iter().any(|b| *b) {
        crate::kit::reach::fire("24.2.5");
    }
    crate::kit::reach::fire("24.3");
    crate::kit::reach::fire("24.4");
    let label = labels::under(prefix, &["bombard"]);
    let targets = [0, 1].map(|r| ship_targets(ctx, cs, r, shape.base_only[r]));
    let mut hits = [0u32; 2];
    for i in 0..2 {
        if targets[1 - i].is_empty() {
            continue;
        }
        let guns: Vec<fire::Gun> = if shape.base_only[i] {
            base_guns(ctx, cs, i, false)
        } else {
            let mut g = ship_guns(ctx, cs, i, false);
            if !shape.base_silent[i] {
                g.extend(base_guns(ctx, cs, i, false));
            }
            g
        };
        hits[i] = fire::volley(ctx, &label, &guns);
    }
    if hits.iter().any(|h| *h > 0) {
        crate::kit::reach::fire("24.5");
        crate::kit::reach::fire("24.8");
        crate::kit::reach::fire("24.9");
        crate::kit::reach::fire("24.10");
        damage_step(ctx, cs, FireStep::Bombard, hits, targets, prefix);
    }
}

#[cfg(test)]
#[path = "combat_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "combat_steps_tests.rs"]
mod steps_tests;
