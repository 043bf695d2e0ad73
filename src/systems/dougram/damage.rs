//! Damage (17): allocating a step's hits, two-step units (21.1-21.2), where destroyed units go
//! (17.5-17.7, 22.10) and mercenary disbanding (27.1).

use super::cards::Flag;
use super::ctx::Ctx;
use super::data::{HexId, Side, TerrainKind, Values};
use super::state::{State, Unit, UnitAt};
use super::victory;
use crate::kit::reach;
use std::collections::BTreeSet;

/// Fed types that go back to the stock instead of the Replenishment box (17.6).
pub const TO_STOCK: [&str; 5] = [
    "garcia_squad",
    "tequila_gunner",
    "desert_gunner",
    "mackerel",
    "cochma_spl",
];

/// Mercenaries that leave the game once both Garcia Squads are gone (27.1, default A41).
pub const DISBANDED: [&str; 2] = ["tequila_gunner", "desert_gunner"];

/// What allocated hits did to one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A two-step unit turned to its back (21.2).
    Flipped,
    Destroyed,
}

/// The values a unit fights with before card and terrain modifiers: the back of a damaged
/// two-step unit uses the type's `damaged` values (21.1).
pub fn printed(state: &State, id: &str) -> Option<Values> {
    let ty = state.unit_type(id)?;
    let t = state.data.counters.types.get(ty)?;
    let damaged = state.units.get(id).is_some_and(|u| u.damaged);
    Some(match (&t.damaged, damaged) {
        (Some(back), true) => {
            reach::fire("21.1");
            *back
        }
        _ => Values {
            aa: t.aa,
            ap: t.ap,
            def: t.def,
        },
    })
}

/// A unit's AA/AP/DEF fighting in hex `hex` before any card: printed or back values (21.1),
/// then the terrain modifiers of counters.yaml (25.1 sets, 26.1 adds, capped at 6; A46).
pub fn in_hex(state: &State, id: &str, hex: HexId) -> Option<Values> {
    let mut v = printed(state, id)?;
    let ty = state.unit_type(id).unwrap_or("");
    let map = &state.data.map;
    for m in &state.data.counters.terrain_mods {
        let here = match m.terrain {
            TerrainKind::Desert => map.desert.contains(&hex),
            TerrainKind::Cold => map.cold.contains(&hex),
        };
        if !here || !m.types.iter().any(|t| t == ty) {
            continue;
        }
        reach::fire(match m.terrain {
            TerrainKind::Desert => "25.1",
            TerrainKind::Cold => "26.1",
        });
        if let Some(s) = m.set {
            v.aa = s.aa;
            v.ap = s.ap;
        }
        if let Some(a) = m.add {
            v.aa = (v.aa + a.aa).min(6);
            v.ap = (v.ap + a.ap).min(6);
        }
    }
    Some(v)
}

/// Greedy allocation (17.3, policy default): targets in order of the `priority` list (unit
/// types or counter ids; unlisted ones after), then by largest DEF, then by id; each target
/// that still fits gets exactly its DEF. Hits that complete no kill are void (17.4). `def`
/// gives a target's DEF for this combat. Returns the targets hit, in allocation order.
pub fn allocate(
    state: &State,
    hits: u32,
    targets: &[String],
    priority: &[String],
    def: &dyn Fn(&str) -> u32,
) -> Vec<String> {
    let rank = |id: &str| -> usize {
        let ty = state.unit_type(id).unwrap_or("");
        priority
            .iter()
            .position(|p| p == id || p == ty)
            .unwrap_or(priority.len())
    };
    let mut order: Vec<(usize, std::cmp::Reverse<u32>, &String)> = targets
        .iter()
        .map(|id| (rank(id), std::cmp::Reverse(def(id)), id))
        .collect();
    order.sort();
    let mut left = hits;
    let mut out = Vec::new();
    for (_, std::cmp::Reverse(d), id) in order {
        if d <= left {
            left -= d;
            out.push(id.clone());
        }
    }
    if hits > 0 {
        reach::fire("17.1");
        if !out.is_empty() {
            reach::fire("17.3");
        }
        if left > 0 {
            reach::fire("17.4");
        }
    }
    out
}

/// Applies DEF hits to unit `id` (17.4, 21.2): a two-step unit on its front turns over; any
/// other unit is destroyed and goes where 17.5-17.7 and 22.10 say.
pub fn take_hits(state: &mut State, id: &str, ctx: &mut Ctx) -> Outcome {
    let two_step = state
        .unit_type(id)
        .and_then(|t| state.data.counters.types.get(t))
        .is_some_and(|t| t.damaged.is_some());
    if let Some(u) = state.units.get_mut(id)
        && two_step
        && !u.damaged
    {
        u.damaged = true;
        reach::fire("21.2");
        ctx.log.public(format!(
            "{id} takes its DEF in hits and turns to its back (21.2)"
        ));
        return Outcome::Flipped;
    }
    destroy(state, id, ctx);
    Outcome::Destroyed
}

/// A destroyed unit leaves the map (17.5-17.7, 22.10).
pub fn destroy(state: &mut State, id: &str, ctx: &mut Ctx) {
    let Some(side) = state.units.get(id).map(|u| u.side) else {
        return;
    };
    let ty = state.unit_type(id).unwrap_or("").to_string();
    if side == Side::Lib {
        reach::fire("17.5");
        if victory::DOUGRAMS.contains(&ty.as_str()) {
            reach::fire("21.2");
        }
        state.to_stock(id);
        ctx.log.public(format!(
            "{id} ({ty}) is destroyed and goes to the stock (17.5)"
        ));
        return;
    }
    if ty == "fortress" {
        reach::fire("22.8");
        reach::fire("22.10");
        if let Some(u) = state.units.get_mut(id) {
            u.at = UnitAt::Removed;
            u.damaged = false;
        }
        ctx.log.public(format!(
            "{id} (fortress) is destroyed; Fed may never use the fortress again (22.10)"
        ));
        return;
    }
    if TO_STOCK.contains(&ty.as_str()) {
        reach::fire("17.6");
        state.to_stock(id);
        ctx.log.public(format!(
            "{id} ({ty}) is destroyed and goes to the stock (17.6)"
        ));
        if ty == "garcia_squad" {
            disband_mercenaries(state, ctx);
        }
        return;
    }
    if ty == "hasty" && !state.flag(&Flag::Deploy("hasty".into())) {
        reach::fire("17.7");
        state.to_stock(id);
        let defs = state.data.counters.counter_defs();
        let rf = state
            .units
            .iter()
            .filter(|(rid, u)| {
                u.at == UnitAt::Stock
                    && defs.get(*rid).is_some_and(|d| {
                        !d.sixth_army && d.front.side == Side::Fed && d.front.kind == "round_facer"
                    })
            })
            .map(|(rid, _)| rid.clone())
            .next();
        match rf {
            Some(rf) => {
                if let Some(u) = state.units.get_mut(&rf) {
                    *u = Unit {
                        at: UnitAt::ReplenishmentBox,
                        side: Side::Fed,
                        damaged: false,
                    };
                }
                ctx.log.public(format!(
                    "{id} (hasty) is destroyed and goes to the stock; Round Facer {rf} goes to the Replenishment box instead (17.7)"
                ));
            }
            None => ctx.log.public(format!(
                "{id} (hasty) is destroyed and goes to the stock; no Round Facer is left in the stock, so nothing enters the box (17.7: the replacement comes from the stock; docs/dougram.md, Decisions)"
            )),
        }
        return;
    }
    reach::fire("17.6");
    if let Some(u) = state.units.get_mut(id) {
        u.at = UnitAt::ReplenishmentBox;
        u.damaged = false;
    }
    ctx.log.public(format!(
        "{id} ({ty}) is destroyed and goes to the Replenishment box (17.6)"
    ));
}

/// 27.1, default A41: once no Garcia Squad is left on the map, every Tequila Gunner and the
/// Desert Gunner leave the game, wherever they are.
pub fn disband_mercenaries(state: &mut State, ctx: &mut Ctx) {
    let garcia_on_map = state.units.keys().any(|id| {
        matches!(state.units[id].at, UnitAt::Hex(_)) && state.unit_type(id) == Some("garcia_squad")
    });
    if garcia_on_map {
        return;
    }
    let defs = state.data.counters.counter_defs();
    let gone: BTreeSet<String> = state
        .units
        .iter()
        .filter(|(id, u)| {
            u.at != UnitAt::Removed
                && defs
                    .get(*id)
                    .is_some_and(|d| DISBANDED.contains(&d.front.kind.as_str()))
        })
        .map(|(id, _)| id.clone())
        .collect();
    if gone.is_empty() {
        return;
    }
    reach::fire("27.1");
    for id in &gone {
        if let Some(u) = state.units.get_mut(id) {
            u.at = UnitAt::Removed;
            u.damaged = false;
        }
    }
    ctx.log.public(format!(
        "both Garcia Squads are off the map: the other mercenaries leave the game: {} (27.1)",
        gone.iter().cloned().collect::<Vec<_>>().join(", ")
    ));
}
