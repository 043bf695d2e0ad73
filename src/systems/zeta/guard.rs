//! Guards: the conditions of guarded card choices, plans, combats and laser targets (plan
//! §4.4). A small closed enum in plain YAML, with no expression parser; every term reads a
//! public fact or the planner's own cards, so a guard cannot read another seat's secret (plan
//! §2.3, trap 7).

use super::ctx::Ctx;
use super::data::{Area, BaseId, CharId, Loc, MapId, Place, Side, TypeId, UnitId};
use super::state::{CardKind, FaceUp};
use serde::{Deserialize, Serialize};

/// How many units of whom are in one hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountAt {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    pub at: Loc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// How many units of whom are on one map (or one ground area).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountOn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    pub map: MapId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitAt {
    pub unit: UnitId,
    pub at: Place,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFace {
    pub unit: UnitId,
    pub face: FaceUp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseIs {
    pub base: BaseId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_min: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_max: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharAt {
    pub char: CharId,
    pub at: Place,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VpLead {
    pub side: Side,
    pub min: i32,
}

/// Cards of a faction still in the deck (a count every seat may deduce).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsLeft {
    pub side: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// Cards drawn this turn (public).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CardKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
}

/// Units a faction produced in this turn's packet (public once the armament is done; the
/// guard of deployment alternatives, plan §12/F4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Produced {
    pub side: Side,
    /// Only units of this type; all types when absent.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_id: Option<TypeId>,
    pub min: u32,
}

/// One condition (plan §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Guard {
    All(Vec<Guard>),
    Any(Vec<Guard>),
    Not(Box<Guard>),
    UnitsAt(CountAt),
    /// Units of the factions other than the planner's.
    EnemyUnitsAt(CountAt),
    /// The planner's own units.
    MyUnitsAt(CountAt),
    UnitsOn(CountOn),
    UnitAt(UnitAt),
    UnitFace(UnitFace),
    Base(BaseIs),
    CharAt(CharAt),
    /// The action phase (1-9) is at least / at most this.
    PhaseMin(u8),
    PhaseMax(u8),
    Turn(u8),
    VpLead(VpLead),
    CardsLeft(CardsLeft),
    Drawn(Drawn),
    Produced(Produced),
}

/// Whether `guard` holds for `side` now. Stub (zeta commit 5): no guard is evaluated yet, so
/// this answers `None` ("cannot tell"); nothing calls it before the step machine does.
pub fn holds(ctx: &Ctx<'_>, side: Side, guard: &Guard) -> Option<bool> {
    let _ = (ctx, side, guard);
    None
}

/// Whether the `produced` term holds: `p.side` produced at least `p.min` units (of `p.type_id`
/// when given) in this turn's packet. Production is public (6.1: the units appear on the map),
/// so any seat may read it.
pub fn produced_holds(ctx: &Ctx<'_>, p: &Produced) -> bool {
    let made = &ctx.state.sides[p.side].produced;
    let n: u32 = match &p.type_id {
        Some(t) => made.get(t).copied().map_or(0, u32::from),
        None => made.values().copied().map(u32::from).sum(),
    };
    n >= p.min
}
