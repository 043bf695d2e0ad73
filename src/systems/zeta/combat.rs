//! Combat: when it may happen (18), camps and the 18.9 join, preparation (20) and the six
//! steps in order (19). Stub until zeta commits 8 (declaration, camps, preparation) and 9
//! (fire, damage, survival): the types and signatures are fixed here.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{CharId, Loc, Side, UnitId};
use super::guard::Guard;
use super::steps::SlotOutcome;
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
    #[serde(default)]
    pub bomb: Wish,
    #[serde(default)]
    pub bombard: Wish,
}

/// One camp (18.9-18.10): its principal allocates for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Camp {
    pub principal: Side,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Side>,
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

/// Whether `side` may declare `order` now (18.1-18.8). Stub: refuses (zeta commit 8).
pub fn legal_combat(
    ctx: &Ctx<'_>,
    side: Side,
    order: &CombatOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, order);
    Err(not_yet(at, "18", "combat", 8))
}

/// The hexes `side` may fight in now, with the factions it may declare. Stub: none yet.
pub fn combat_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<CombatOrder>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Resolves one combat in `at` against `versus` (18.8-28). Stub (zeta commits 8-9): does
/// nothing and lets the phase continue.
pub fn resolve_combat(
    ctx: &mut Ctx<'_>,
    at: Loc,
    versus: &[Side],
    order: &CombatOrder,
) -> SlotOutcome {
    let _ = (ctx, at, versus, order);
    SlotOutcome::Continue
}
