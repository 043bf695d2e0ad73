//! Movement phases (5, 5.9, 5.10, 5.11, 11) and the beeler reaction moves (7.3).
//!
//! Legality is written once per order item, here: `legal_move`, `legal_flip_up`, `legal_hide`,
//! `legal_hide_at_start` and `legal_heli_move` (with `can_fly` and `legal_cargo`) say whether
//! one item is legal at a given moment of the phase, with the problem's field path and rule;
//! the `*_choices` functions list the legal items of a moment by asking those same functions.
//! A phase runs as one sequential simulation (`MovementPhase`): `check` runs it without dice on
//! a copy of the state and `resolve` with dice, and both judge every item by its legal_*
//! function at the moment it is carried out, after the items before it (5.4: each unit moves
//! once per phase; an earlier move may put an enemy on the way). An item illegal at that moment
//! is refused by `check` and skipped, and reported privately, by `resolve`.

use super::data::{self, Class, Role, Side, Terrain};
use super::orders::{Action, HeliMove, HideGroup, MoveOrder};
use super::stages;
use super::state::{Log, Place, State};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

use crate::kit::reach::fire;

pub const GROUND_MP: u32 = 5; // 5.3
pub const HELI_MP: u32 = 9; // 5.3
pub const REACTION_MP: u32 = 3; // 7.3.5
pub const REACTION_ADJACENT_MP: u32 = 4; // 7.3.6

/// Who is moving, for costs and stop rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoverKind {
    /// A beeler AT or soldier: stops on entering any hex with mercenary units (5.9.2).
    Beeler,
    /// A mercenary AT or soldier: stops on entering a hex with a face-up beeler unit (5.10.1).
    MercGround,
    /// A heli: 1 MP per hex, stops on entering any hex with beeler units (5.11.3, 5.11.4).
    Heli,
}

impl MoverKind {
    /// The kind of `side`'s ground units.
    pub fn ground(side: Side) -> MoverKind {
        match side {
            Side::Beeler => MoverKind::Beeler,
            Side::Mercenary => MoverKind::MercGround,
        }
    }
}

/// MP to enter `to` from `from` (5.4, 5.6, 5.7, 5.11.3), `enemy` telling whether units of the
/// mover's enemy are in `to`.
fn enter_cost(state: &State, kind: MoverKind, from: Hex, to: Hex, enemy: bool) -> u32 {
    let base = match kind {
        MoverKind::Heli => 1,
        _ => match state.map.terrain(to) {
            Terrain::Clear => 1,
            Terrain::Forest | Terrain::Highland => 3,
            Terrain::River => {
                if state.map.along_river(from, to) {
                    1
                } else {
                    2
                }
            }
        },
    };
    base + u32::from(enemy)
}

/// Whether a mover ends its move on entering a hex where the enemy has units (`enemy`), some
/// of them active and face-up (`enemy_face_up`) (5.9.2, 5.10.1, 5.10.2, 5.11.4).
fn must_stop(kind: MoverKind, enemy: bool, enemy_face_up: bool) -> bool {
    match kind {
        MoverKind::Beeler | MoverKind::Heli => enemy,
        MoverKind::MercGround => enemy_face_up,
    }
}

/// MP to enter `to` from `from` (5.4, 5.6, 5.7, 5.11.3).
pub fn step_cost(state: &State, kind: MoverKind, side: Side, from: Hex, to: Hex) -> u32 {
    enter_cost(state, kind, from, to, state.has_units(to, side.other()))
}

/// Whether a mover must end its move on entering `hex` (5.9.2, 5.10.1, 5.11.4).
pub fn stops_in(state: &State, kind: MoverKind, side: Side, hex: Hex) -> bool {
    let enemy = side.other();
    must_stop(
        kind,
        state.has_units(hex, enemy),
        state.has_active_face_up(hex, enemy),
    )
}

/// Where one side has units, and active face-up units (acted helis are face-down, A5): a
/// snapshot of what `step_cost` and `stops_in` look at, for searches that ask it of many hexes.
struct Presence {
    any: BTreeSet<Hex>,
    face_up: BTreeSet<Hex>,
}

impl Presence {
    fn of(state: &State, side: Side) -> Presence {
        let mut p = Presence {
            any: BTreeSet::new(),
            face_up: BTreeSet::new(),
        };
        for (id, u) in &state.units {
            let Some(h) = u.hex.filter(|_| u.place == Place::Map) else {
                continue;
            };
            if state.side_of(id) == Some(side) {
                p.any.insert(h);
                if u.face_up {
                    p.face_up.insert(h);
                }
            }
        }
        p
    }
}

/// The MP allowance of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    Normal(u32),
    /// 3 MP, or one adjacent hex costing up to 4 (7.3.5, 7.3.6, default A38).
    Reaction,
}

impl Allowance {
    /// The most MP any path may cost under this allowance.
    fn most(self) -> u32 {
        match self {
            Allowance::Normal(mp) => mp,
            Allowance::Reaction => REACTION_ADJACENT_MP,
        }
    }
}

/// Costs a path (5.3-5.7, 5.9.2, 5.10.1, 5.11.3, 5.11.4, 7.3.5, 7.3.6); a problem names the
/// offending entry of the list at `p` (the `path` field).
#[allow(clippy::too_many_arguments)]
pub fn cost_path(
    state: &State,
    kind: MoverKind,
    side: Side,
    unit: &str,
    start: Hex,
    path: &[Hex],
    allowance: Allowance,
    p: &FieldPath,
) -> Result<u32, Problem> {
    if path.is_empty() {
        return Err(Problem::new(
            p.clone(),
            "5.4",
            format!("the move of {unit} has an empty path"),
            "a list of the hexes entered, e.g. [N06, M06]",
        ));
    }
    let mut prev = start;
    let mut total = 0;
    let mut stopped_at: Option<Hex> = None;
    for (k, &h) in path.iter().enumerate() {
        if !state.map.grid.contains(h) {
            return Err(Problem::new(
                p.at(k),
                "5.4",
                format!("{h} is off the map"),
                "a hex on the map",
            ));
        }
        if let Some(s) = stopped_at {
            let rule = match kind {
                MoverKind::Beeler => "5.9.2",
                MoverKind::MercGround => "5.10.1",
                MoverKind::Heli => "5.11.4",
            };
            return Err(Problem::new(
                p.at(k),
                rule,
                format!("{unit} must stop on entering {s}, which holds enemy units"),
                format!("a path ending at {s}"),
            ));
        }
        if !state.map.grid.adjacent(prev, h) {
            let near: Vec<String> = state
                .map
                .grid
                .neighbours(prev)
                .iter()
                .map(|(_, n)| n.label())
                .collect();
            return Err(Problem::new(
                p.at(k),
                "5.4",
                format!("{h} is not adjacent to {prev}"),
                format!("one of {}", near.join(", ")),
            ));
        }
        total += step_cost(state, kind, side, prev, h);
        if stops_in(state, kind, side, h) {
            stopped_at = Some(h);
        }
        prev = h;
    }
    let ok = match allowance {
        Allowance::Normal(mp) => total <= mp,
        Allowance::Reaction => {
            total <= REACTION_MP || (path.len() == 1 && total <= REACTION_ADJACENT_MP)
        }
    };
    if !ok {
        let route: Vec<String> = std::iter::once(start)
            .chain(path.iter().copied())
            .map(|h| h.label())
            .collect();
        let (rule, has) = match allowance {
            Allowance::Normal(mp) if kind == MoverKind::Heli => ("5.3", format!("a heli has {mp}")),
            Allowance::Normal(mp) => ("5.3", format!("a unit has {mp}")),
            Allowance::Reaction => (
                "7.3.5",
                format!("a reaction move has {REACTION_MP} (4 for a single adjacent hex, 7.3.6)"),
            ),
        };
        return Err(Problem::new(
            p.at(path.len() - 1),
            rule,
            format!(
                "moving {unit} along {} costs {total} MP; {has}",
                route.join("→")
            ),
            "a shorter path (forest and highland 3, river 2 or 1 along the river, clear 1, +1 entering a hex with enemy units)",
        ));
    }
    Ok(total)
}

/// The unit `side` means by `name` (an id, or the token of one of its face-down units) and its
/// hex, if it is one of `side`'s units on the map (5.1); the problem names the field at `p`.
pub fn own_unit(
    state: &State,
    side: Side,
    name: &str,
    p: &FieldPath,
) -> Result<(String, Hex), Problem> {
    let Some(id) = state.find_own(side, name) else {
        let msg = if name.contains('#') {
            format!("{name} is not one of your face-down units on the map")
        } else {
            format!("there is no unit {name:?}")
        };
        return Err(Problem::new(
            p.clone(),
            "",
            msg,
            "the id of one of your units, or its token (see your view)",
        ));
    };
    if state.side_of(&id) != Some(side) {
        return Err(Problem::new(
            p.clone(),
            "5.1",
            format!("{id} is not a {} unit", side.name()),
            "one of your own units",
        ));
    }
    match state.hex_of(&id) {
        Some(h) => Ok((id, h)),
        None => Err(Problem::new(
            p.clone(),
            "5.1",
            format!("{id} is not on the map"),
            "a unit on the map",
        )),
    }
}

/// A ground or reaction move found legal: the unit, where it starts and the hexes it enters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalMove {
    pub unit: String,
    pub start: Hex,
    pub path: Vec<Hex>,
}

/// Whether `side` may make the ground move `m` (at field `p`) now, with `moved` the units that
/// have moved or were carried earlier in the phase (5.3-5.10, 5.9.3, 12.10; with
/// `Allowance::Reaction` the MP of 7.3.5 and 7.3.6; `reaction::legal_react` adds the rest of 7.3):
/// `legal_mover` for the unit, then `legal_path` for the path.
pub fn legal_move(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    m: &MoveOrder,
    p: &FieldPath,
    allowance: Allowance,
) -> Result<LegalMove, Problem> {
    let (id, start) = legal_mover(state, side, moved, &m.unit, &p.at("unit"))?;
    legal_path(state, side, &id, start, &m.path, allowance, &p.at("path"))?;
    Ok(LegalMove {
        unit: id,
        start,
        path: m.path.clone(),
    })
}

/// Whether `side` may move the unit `name` (at `p`, the move's `unit` field) now, wherever it
/// goes: one of its ground units on the map (5.1, 5.11), not moved this phase (5.4), not Proto
/// One (5.9.3). The unit's id and hex.
pub fn legal_mover(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    name: &str,
    p: &FieldPath,
) -> Result<(String, Hex), Problem> {
    let (id, start) = own_unit(state, side, name, p)?;
    if state.is_heli(&id) {
        return Err(Problem::new(
            p.clone(),
            "5.11",
            format!("{id} is a heli"),
            "use `heli: {heli, path, cargo}` for helis",
        ));
    }
    if moved.contains(&id) {
        return Err(Problem::new(
            p.clone(),
            "5.4",
            format!("{id} has already moved (or was carried) this phase"),
            "each unit moves once per phase",
        ));
    }
    if state.role_of(&id) == Some(Role::ProtoOne) {
        return Err(Problem::new(
            p.clone(),
            "5.9.3",
            "Proto One may not leave the palace",
            "another unit",
        ));
    }
    Ok((id, start))
}

/// Whether ground unit `id` of `side`, standing in `start`, may enter the hexes `path` (at `p`,
/// the move's `path` field) now: costs and stops (`cost_path`), and Strike Dog's zone (12.10,
/// 12.12). Of the unit only its zone and its id (in messages) count, so units alike in those
/// and in their hex share every answer (`move_choices` relies on that).
pub fn legal_path(
    state: &State,
    side: Side,
    id: &str,
    start: Hex,
    path: &[Hex],
    allowance: Allowance,
    p: &FieldPath,
) -> Result<(), Problem> {
    let kind = MoverKind::ground(side);
    cost_path(state, kind, side, id, start, path, allowance, p)?;
    // 12.10, 12.12: Strike Dog stays within 3 hexes of the palace in stages 6 and 8.
    if stages::zone_bound(state, id)
        && let Some(k) = path.iter().position(|h| !stages::in_zone(state, *h))
    {
        return Err(Problem::new(
            p.at(k),
            "12.10",
            "Strike Dog must stay within 3 hexes of the palace",
            "hexes within 3 of the palace",
        ));
    }
    Ok(())
}

/// Whether `side` may flip `name` (at field `p`) face-up now, citing `rule` (5.2 in a movement
/// phase, 7.3.2 in the beeler reaction); helis have no hidden side (2.2.3).
pub fn legal_flip_up(
    state: &State,
    side: Side,
    name: &str,
    p: &FieldPath,
    rule: &str,
) -> Result<String, Problem> {
    let (id, _) = own_unit(state, side, name, p)?;
    if state.is_heli(&id) {
        return Err(Problem::new(
            p.clone(),
            "2.2.3",
            format!("{id} is a heli; helis have no hidden side"),
            "a face-down AT or soldier",
        ));
    }
    if state.unit(&id).is_some_and(|u| u.face_up) {
        return Err(Problem::new(
            p.clone(),
            rule,
            format!("{id} is already face-up"),
            "a face-down unit",
        ));
    }
    Ok(id)
}

/// Whether `side` may flip the units `names` (the list at `p`) face-down together now: face-up
/// ATs and soldiers in its own home base (5.2). Every bad entry is a problem of its own.
pub fn legal_hide(
    state: &State,
    side: Side,
    names: &[String],
    p: &FieldPath,
) -> Result<Vec<String>, Vec<Problem>> {
    let home = state.map.home(side);
    let mut problems = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let up = p.at(k);
        let (id, h) = match own_unit(state, side, name, &up) {
            Ok(found) => found,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        let seen_before = ids.contains(&id);
        ids.push(id.clone());
        let problem = if state.is_heli(&id) {
            Some(Problem::new(
                up,
                "5.2",
                format!("{id} is a heli; helis cannot be hidden"),
                "an AT or soldier",
            ))
        } else if h != home {
            Some(Problem::new(
                up,
                "5.2",
                format!("{id} is in {h}; units hide only in their home base {home}"),
                format!("a unit in {home}"),
            ))
        } else if !state.unit(&id).is_some_and(|u| u.face_up) {
            Some(Problem::new(
                up,
                "5.2",
                format!("{id} is already face-down"),
                "a face-up unit",
            ))
        } else if seen_before {
            Some(Problem::new(
                up,
                "5.2",
                format!("{id} is listed twice"),
                "each unit once",
            ))
        } else {
            None
        };
        problems.extend(problem);
    }
    if problems.is_empty() {
        Ok(ids)
    } else {
        Err(problems)
    }
}

/// Whether `side` may hide the group `g` (at `p`) at the start of its movement phase, after
/// groups in the hexes `listed` (5.9.1, 11.4): face-up units of a hex outside Nuba that holds
/// one of its soldiers, each hex once. Every bad unit is a problem of its own.
pub fn legal_hide_at_start(
    state: &State,
    side: Side,
    listed: &BTreeSet<Hex>,
    g: &HideGroup,
    p: &FieldPath,
) -> Result<Vec<String>, Vec<Problem>> {
    if listed.contains(&g.hex) {
        return Err(vec![Problem::new(
            p.at("hex"),
            "5.9.1",
            format!("{} is listed twice", g.hex),
            "each hex once, with all its units",
        )]);
    }
    if state.map.is_nuba(g.hex) {
        return Err(vec![Problem::new(
            p.at("hex"),
            "11.4",
            format!("units cannot hide in the Nuba Highlands ({})", g.hex),
            "a hex outside Nuba with one of your soldiers",
        )]);
    }
    if soldiers_in(state, side, g.hex).is_empty() {
        return Err(vec![Problem::new(
            p.at("hex"),
            "5.9.1",
            format!("no beeler soldier in {}", g.hex),
            "a hex holding one of your soldiers",
        )]);
    }
    let mut problems = Vec::new();
    let mut units: Vec<String> = Vec::new();
    for (k, name) in g.units.iter().enumerate() {
        let up = p.at("units").at(k);
        let (id, h) = match own_unit(state, side, name, &up) {
            Ok(found) => found,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        if h != g.hex {
            problems.push(Problem::new(
                up,
                "5.9.1",
                format!("{id} is in {h}, not {}", g.hex),
                "units in that hex",
            ));
        } else if !state.unit(&id).is_some_and(|u| u.face_up) {
            problems.push(Problem::new(
                up,
                "5.9.1",
                format!("{id} is already face-down"),
                "face-up units",
            ));
        } else if units.contains(&id) {
            problems.push(Problem::new(
                up,
                "5.9.1",
                format!("{id} is listed twice"),
                "each unit once",
            ));
        } else {
            units.push(id);
        }
    }
    if problems.is_empty() {
        Ok(units)
    } else {
        Err(problems)
    }
}

fn soldiers_in(state: &State, side: Side, hex: Hex) -> Vec<String> {
    state
        .side_units_in(hex, side)
        .into_iter()
        .filter(|id| state.class_of(id) == Some(Class::Soldier))
        .collect()
}

/// Whether heli `id` may fly now: an active heli that has not moved this turn (5.11.1, 5.11.2).
/// The problem names the field at `p`.
pub fn can_fly(state: &State, id: &str, p: &FieldPath) -> Result<(), Problem> {
    if !state.is_heli(id) {
        return Err(Problem::new(
            p.clone(),
            "5.11",
            format!("{id} is not a heli"),
            "a heli id",
        ));
    }
    let u = state.unit(id);
    if !u.is_some_and(|u| u.face_up) {
        return Err(Problem::new(
            p.clone(),
            "5.11.2",
            format!("{id} has acted and cannot move"),
            "an active heli",
        ));
    }
    if u.is_some_and(|u| u.moved) {
        return Err(Problem::new(
            p.clone(),
            "5.11.1",
            format!("{id} has already moved this turn"),
            "a heli that has not moved this turn",
        ));
    }
    Ok(())
}

/// Whether a heli may carry unit `id` at all (5.11.5, A3): an AT or soldier, never Kiriko.
pub fn carriable(state: &State, id: &str) -> bool {
    matches!(state.class_of(id), Some(Class::At | Class::Soldier))
        && state.role_of(id) != Some(Role::Kiriko)
}

/// Whether a heli of `side` leaving `start` now may take `name` (at `p`) along (5.11.5, A3): a
/// carriable unit of its own in `start` that has not moved this phase (`moved`).
pub fn legal_cargo(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    start: Hex,
    name: &str,
    p: &FieldPath,
) -> Result<String, Problem> {
    let (c, ch) = own_unit(state, side, name, p)?;
    if !carriable(state, &c) {
        return Err(Problem::new(
            p.clone(),
            "5.11.5",
            format!("{c} cannot be carried"),
            "an AT or soldier",
        ));
    }
    if ch != start {
        return Err(Problem::new(
            p.clone(),
            "5.11.5",
            format!("{c} is in {ch}, not with the heli in {start}"),
            format!("a unit in {start}"),
        ));
    }
    if moved.contains(&c) {
        return Err(Problem::new(
            p.clone(),
            "5.11.5",
            format!("{c} has already moved this phase"),
            format!(
                "a unit that has not moved this phase ({})",
                super::ruling("5.11.5", "A3", "cargo must not have moved")
            ),
        ));
    }
    Ok(c)
}

/// A heli flight found legal: the heli, its start, the hexes entered and the cargo's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalFlight {
    pub heli: String,
    pub start: Hex,
    pub path: Vec<Hex>,
    pub cargo: Option<String>,
}

/// Whether `side` may make the heli flight `hm` (at `p`) now, with `moved` the units moved or
/// carried earlier in the phase (5.11).
pub fn legal_heli_move(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    hm: &HeliMove,
    p: &FieldPath,
) -> Result<LegalFlight, Problem> {
    let (id, start) = own_unit(state, side, &hm.heli, &p.at("heli"))?;
    can_fly(state, &id, &p.at("heli"))?;
    legal_flight_path(state, side, &id, start, &hm.path, &p.at("path"))?;
    let cargo = match &hm.cargo {
        Some(name) => Some(legal_cargo(
            state,
            side,
            moved,
            start,
            name,
            &p.at("cargo"),
        )?),
        None => None,
    };
    Ok(LegalFlight {
        heli: id,
        start,
        path: hm.path.clone(),
        cargo,
    })
}

/// Whether heli `id` of `side`, in `start`, may fly over `path` (at `p`): 9 MP, 1 per hex, +1
/// and a stop on entering a hex with enemy units (5.3, 5.11.3, 5.11.4). Of the heli only its id
/// (in messages) counts.
pub fn legal_flight_path(
    state: &State,
    side: Side,
    id: &str,
    start: Hex,
    path: &[Hex],
    p: &FieldPath,
) -> Result<(), Problem> {
    let allowance = Allowance::Normal(HELI_MP);
    cost_path(state, MoverKind::Heli, side, id, start, path, allowance, p).map(|_| ())
}

/// The cheapest routes of one mover from one hex (`reach`).
pub struct Reach {
    start: Hex,
    cost: BTreeMap<Hex, u32>,
    prev: BTreeMap<Hex, Hex>,
}

impl Reach {
    /// The hexes reached, the start left out, in label order.
    pub fn hexes(&self) -> Vec<Hex> {
        self.cost
            .keys()
            .copied()
            .filter(|h| *h != self.start)
            .collect()
    }

    /// The cheapest route to `to` (the hexes entered) and its MP; `None` for the start hex and
    /// for hexes out of reach.
    pub fn route(&self, to: Hex) -> Option<(Vec<Hex>, u32)> {
        let cost = *self.cost.get(&to)?;
        if to == self.start {
            return None;
        }
        let mut path = vec![to];
        let mut at = to;
        while let Some(&p) = self.prev.get(&at) {
            if p == self.start {
                break;
            }
            path.push(p);
            at = p;
        }
        path.reverse();
        Some((path, cost))
    }
}

/// Every hex a `kind` mover of `side` can reach from `start` within `max` MP, entering only
/// hexes that `allowed` lets in, with the cheapest route: each step costs what `step_cost`
/// says, and a hex where `stops_in` ends the move is entered but never left (5.9.2, 5.10.1,
/// 5.11.4); both are asked of a snapshot of who stands where, taken once. Ties keep the route
/// found first, neighbours taken in the grid's order, so a route is the same in every run (a
/// heli reaction flies it, 7.2).
pub fn reach(
    state: &State,
    kind: MoverKind,
    side: Side,
    start: Hex,
    max: u32,
    allowed: impl Fn(Hex) -> bool,
) -> Reach {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let enemy = Presence::of(state, side.other());
    let mut cost = BTreeMap::from([(start, 0)]);
    let mut prev = BTreeMap::new();
    // Ordered by cost, then by when the hex was queued: with equal costs this is a
    // breadth-first search in the grid's neighbour order.
    let mut queue = BinaryHeap::from([Reverse((0u32, 0u64, start))]);
    let mut queued = 0u64;
    while let Some(Reverse((c, _, h))) = queue.pop() {
        if cost.get(&h).is_some_and(|best| *best < c) {
            continue;
        }
        if h != start && must_stop(kind, enemy.any.contains(&h), enemy.face_up.contains(&h)) {
            continue;
        }
        for (_, n) in state.map.grid.neighbours(h) {
            if !allowed(n) {
                continue;
            }
            let to = c + enter_cost(state, kind, h, n, enemy.any.contains(&n));
            if to > max || cost.get(&n).is_some_and(|best| *best <= to) {
                continue;
            }
            cost.insert(n, to);
            prev.insert(n, h);
            queued += 1;
            queue.push(Reverse((to, queued, n)));
        }
    }
    Reach { start, cost, prev }
}

/// The paths worth trying from `start` for a `kind` mover of `side` within `max` MP, entering
/// only hexes `allowed` lets in: to every hex in `reach`, the cheapest route, and into a
/// neighbour also the single step (7.3.6 allows one adjacent hex of up to 4 MP in a reaction,
/// which a cheaper route through more hexes would not be); back to `start`, out to each
/// neighbour and back (nothing forbids a round trip, and passing Nuba flips a unit, 11.2).
/// Which are legal only the item's legal_* function decides.
fn path_candidates(
    state: &State,
    kind: MoverKind,
    side: Side,
    start: Hex,
    max: u32,
    allowed: impl Fn(Hex) -> bool,
) -> Vec<Vec<Hex>> {
    let r = reach(state, kind, side, start, max, allowed);
    let mut out = Vec::new();
    for to in r.hexes() {
        let Some((path, _)) = r.route(to) else {
            continue;
        };
        if path.len() > 1 && state.map.grid.adjacent(start, to) {
            out.push(path);
            out.push(vec![to]);
        } else {
            out.push(path);
        }
    }
    for (_, n) in state.map.grid.neighbours(start) {
        if let Some((mut path, _)) = r.route(n) {
            path.push(start);
            out.push(path);
        }
    }
    out
}

/// Of `paths`, the first `legal` one to each last hex, in their order.
fn first_legal_per_end(paths: Vec<Vec<Hex>>, legal: impl Fn(&[Hex]) -> bool) -> Vec<Vec<Hex>> {
    let mut done: BTreeSet<Hex> = BTreeSet::new();
    paths
        .into_iter()
        .filter(|path| {
            path.last()
                .is_some_and(|end| !done.contains(end) && legal(path) && done.insert(*end))
        })
        .collect()
}

/// One legal ground move per unit of `movers` and hex it can end in: `movers` are the units
/// (with their hex) that the unit-level legality of the item let through, and each path is
/// judged by `legal_path`, once for the units alike in hex and zone (its answer is theirs).
pub fn moves_of(
    state: &State,
    side: Side,
    movers: Vec<(String, Hex)>,
    allowance: Allowance,
) -> Vec<MoveOrder> {
    let here = FieldPath::root();
    let mut paths: BTreeMap<(Hex, bool), Vec<Vec<Hex>>> = BTreeMap::new();
    let mut out = Vec::new();
    for (id, start) in movers {
        let zone = stages::zone_bound(state, &id);
        let legal = paths.entry((start, zone)).or_insert_with(|| {
            let cands = path_candidates(
                state,
                MoverKind::ground(side),
                side,
                start,
                allowance.most(),
                |h| !zone || stages::in_zone(state, h),
            );
            first_legal_per_end(cands, |path| {
                legal_path(state, side, &id, start, path, allowance, &here).is_ok()
            })
        });
        out.extend(legal.iter().map(|path| MoveOrder {
            unit: id.clone(),
            path: path.clone(),
        }));
    }
    out
}

/// Every legal ground move of `side` now, one per unit and hex it can end in: the units
/// `legal_mover` lets move, the paths `legal_path` accepts (together, `legal_move`).
pub fn move_choices(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    allowance: Allowance,
) -> Vec<MoveOrder> {
    let here = FieldPath::root();
    let movers = units_on_map(state, side)
        .into_iter()
        .filter_map(|id| legal_mover(state, side, moved, &id, &here).ok())
        .collect();
    moves_of(state, side, movers, allowance)
}

/// `side`'s units on the map (ids, in id order).
fn units_on_map(state: &State, side: Side) -> Vec<String> {
    state
        .units
        .iter()
        .filter(|(id, u)| state.side_of(id) == Some(side) && u.place == Place::Map)
        .map(|(id, _)| id.clone())
        .collect()
}

/// The units `side` may flip face-up now, by `legal_flip_up`.
pub fn flip_up_choices(state: &State, side: Side, rule: &str) -> Vec<String> {
    let here = FieldPath::root();
    units_on_map(state, side)
        .into_iter()
        .filter(|id| legal_flip_up(state, side, id, &here, rule).is_ok())
        .collect()
}

/// The units `side` may flip face-down in its home base now (any of them together), by
/// `legal_hide`.
pub fn hide_choices(state: &State, side: Side) -> Vec<String> {
    let here = FieldPath::root();
    units_on_map(state, side)
        .into_iter()
        .filter(|id| legal_hide(state, side, std::slice::from_ref(id), &here).is_ok())
        .collect()
}

/// The groups `side` may hide at the start of its movement phase: for each hex where one is
/// legal (`legal_hide_at_start`), all its face-up units.
pub fn hide_at_start_choices(state: &State, side: Side) -> Vec<HideGroup> {
    let here = FieldPath::root();
    state
        .occupied_hexes()
        .into_iter()
        .map(|hex| HideGroup {
            hex,
            units: state
                .side_units_in(hex, side)
                .into_iter()
                .filter(|id| state.unit(id).is_some_and(|u| u.face_up))
                .collect(),
        })
        .filter(|g| {
            !g.units.is_empty()
                && legal_hide_at_start(state, side, &BTreeSet::new(), g, &here).is_ok()
        })
        .collect()
}

/// Every legal heli flight of `side` now, without cargo: per heli and hex in reach, the
/// cheapest route; the helis `can_fly` lets fly, the paths `legal_flight_path` accepts (with
/// the cargo, `legal_heli_move`), judged once for the helis in one hex.
pub fn flight_choices(state: &State, side: Side) -> Vec<HeliMove> {
    let here = FieldPath::root();
    let mut paths: BTreeMap<Hex, Vec<Vec<Hex>>> = BTreeMap::new();
    let mut out = Vec::new();
    for id in units_on_map(state, side) {
        let Ok((id, start)) = own_unit(state, side, &id, &here) else {
            continue;
        };
        if can_fly(state, &id, &here).is_err() {
            continue;
        }
        let legal = paths.entry(start).or_insert_with(|| {
            let cands = path_candidates(state, MoverKind::Heli, side, start, HELI_MP, |_| true);
            first_legal_per_end(cands, |path| {
                legal_flight_path(state, side, &id, start, path, &here).is_ok()
            })
        });
        out.extend(legal.iter().map(|path| HeliMove {
            heli: id.clone(),
            path: path.clone(),
            cargo: None,
        }));
    }
    out
}

/// The units heli `heli` may carry on any of its flights now, by `legal_cargo`.
pub fn cargo_choices(
    state: &State,
    side: Side,
    moved: &BTreeSet<String>,
    heli: &str,
) -> Vec<String> {
    let here = FieldPath::root();
    let Some(start) = state.hex_of(heli) else {
        return Vec::new();
    };
    state
        .side_units_in(start, side)
        .into_iter()
        .filter(|c| legal_cargo(state, side, moved, start, c, &here).is_ok())
        .collect()
}

/// The state of one side's movement (or reaction) phase while its orders are carried out.
pub struct MovementPhase<'a> {
    pub state: &'a mut State,
    pub side: Side,
    pub dice: Option<&'a mut Dice>,
    pub log: &'a mut Log,
    pub problems: Vec<Problem>,
    /// Label prefix, e.g. `t1/p2`.
    pub tag: String,
    /// Units that moved (or were carried) this phase.
    pub moved: BTreeSet<String>,
}

impl<'a> MovementPhase<'a> {
    pub fn new(
        state: &'a mut State,
        side: Side,
        dice: Option<&'a mut Dice>,
        log: &'a mut Log,
        phase: &str,
    ) -> MovementPhase<'a> {
        let tag = state.label_prefix(phase);
        MovementPhase {
            state,
            side,
            dice,
            log,
            problems: Vec::new(),
            tag,
            moved: BTreeSet::new(),
        }
    }

    pub fn problem(
        &mut self,
        path: FieldPath,
        rule: &str,
        msg: impl Into<String>,
        acc: impl Into<String>,
    ) {
        self.problems.push(Problem::new(path, rule, msg, acc));
    }

    /// 5.9.1 (with 11.4): at the start of the beeler movement phase, face-up units in a hex with
    /// a beeler soldier may be flipped face-down together.
    pub fn hide_at_start(&mut self, groups: &[HideGroup], base: &FieldPath) {
        let mut listed = BTreeSet::new();
        for (i, g) in groups.iter().enumerate() {
            match legal_hide_at_start(self.state, self.side, &listed, g, &base.at(i)) {
                Ok(units) if !units.is_empty() => {
                    // 11.4 was judged with 5.9.1 for this group.
                    fire("11.4");
                    self.carry_out_hide_at_start(g.hex, units)
                }
                Ok(_) => {}
                Err(problems) => self.problems.extend(problems),
            }
            listed.insert(g.hex);
        }
    }

    fn carry_out_hide_at_start(&mut self, hex: Hex, mut units: Vec<String>) {
        // If no soldier there is face-up, one face-down soldier is shown first and hidden
        // again with the others (5.9.1, default A40): the one with the lowest token.
        let soldiers = soldiers_in(self.state, self.side, hex);
        let face_up_soldier = soldiers
            .iter()
            .any(|id| self.state.unit(id).is_some_and(|u| u.face_up));
        if !face_up_soldier {
            let shown = soldiers
                .iter()
                .filter_map(|id| {
                    self.state
                        .unit(id)
                        .and_then(|u| u.token)
                        .map(|t| (t, id.clone()))
                })
                .min();
            if let Some((_, sid)) = shown {
                if let Some(ev) = self.state.reveal(&sid) {
                    self.log.public(format!(
                        "{}: {ev}: a soldier shown before hiding (5.9.1)",
                        self.tag
                    ));
                }
                units.push(sid);
            }
        }
        fire("5.9.1");
        let label = format!("{}/hide-at-start/{hex}", self.tag);
        let names = units.join(", ");
        let tokens = self
            .state
            .hide_together(&units, hex, self.dice.as_deref_mut(), &label);
        self.log.public(format!(
            "{}: {names} in {hex} flip face-down together as {} (5.9.1)",
            self.tag,
            tokens.join(", ")
        ));
    }

    /// One movement-phase action (5.2, 5.4, 5.11).
    pub fn action(&mut self, i: usize, a: &Action, base: &FieldPath) {
        let p = base.at(i);
        if self.side == Side::Beeler && a.heli.is_some() {
            self.problem(
                p.at("heli"),
                "5.11",
                "only the mercenary side has helis",
                "move, flip_up or hide",
            );
            return;
        }
        let given = usize::from(a.mv.is_some())
            + usize::from(a.flip_up.is_some())
            + usize::from(a.hide.is_some())
            + usize::from(a.heli.is_some());
        if given != 1 {
            self.problem(
                p,
                "",
                format!("an action needs exactly one key, not {given}"),
                "one of move, flip_up, hide, heli",
            );
            return;
        }
        if let Some(m) = &a.mv {
            self.ground_move(m, &p.at("move"), Allowance::Normal(GROUND_MP));
        } else if let Some(id) = &a.flip_up {
            self.flip_up(id, &p.at("flip_up"));
        } else if let Some(ids) = &a.hide {
            self.hide_at_home(ids, &p.at("hide"), i);
        } else if let Some(h) = &a.heli {
            self.heli_move(h, &p.at("heli"));
        }
    }

    /// 5.2: flip one's own face-down unit face-up.
    pub fn flip_up(&mut self, name: &str, p: &FieldPath) {
        self.flip_up_by_rule(name, p, "5.2");
    }

    /// Flips one's own face-down unit face-up, citing `rule` (5.2, or 7.3.2 in reaction).
    pub fn flip_up_by_rule(&mut self, name: &str, p: &FieldPath, rule: &str) {
        match legal_flip_up(self.state, self.side, name, p, rule) {
            Ok(id) => {
                fire(if rule == "7.3.2" { "7.3.2" } else { "5.2" });
                if let Some(ev) = self.state.reveal(&id) {
                    self.log
                        .public(format!("{}: {ev} (flipped face-up, {rule})", self.tag));
                }
            }
            Err(e) => self.problems.push(e),
        }
    }

    /// 5.2: flip face-up units in one's own home base face-down (not helis), together.
    pub fn hide_at_home(&mut self, names: &[String], p: &FieldPath, action: usize) {
        let ids = match legal_hide(self.state, self.side, names, p) {
            Ok(ids) if !ids.is_empty() => ids,
            Ok(_) => return,
            Err(problems) => {
                self.problems.extend(problems);
                return;
            }
        };
        fire("5.2");
        let home = self.state.map.home(self.side);
        let label = format!("{}/hide/a{action}", self.tag);
        let tokens = self
            .state
            .hide_together(&ids, home, self.dice.as_deref_mut(), &label);
        self.log.public(format!(
            "{}: {} in {home} flip face-down together as {} (5.2)",
            self.tag,
            ids.join(", "),
            tokens.join(", ")
        ));
    }

    /// A ground move (5.3-5.10) or, with `Allowance::Reaction`, a beeler reaction move (7.3).
    pub fn ground_move(&mut self, m: &MoveOrder, p: &FieldPath, allowance: Allowance) -> bool {
        match legal_move(self.state, self.side, &self.moved, m, p, allowance) {
            Ok(mv) => {
                self.carry_out_move(mv);
                true
            }
            Err(e) => {
                self.problems.push(e);
                false
            }
        }
    }

    /// Carries out a move its legal_* function accepted at this moment.
    pub fn carry_out_move(&mut self, mv: LegalMove) {
        let LegalMove {
            unit: id,
            start,
            path,
        } = mv;
        let name = self.state.public_name(&id);
        let route: Vec<String> = std::iter::once(start)
            .chain(path.iter().copied())
            .map(|h| h.label())
            .collect();
        let end = path.last().copied().unwrap_or(start);
        fire_ground_move(self.state, self.side, &id, start, &path);
        let mut ev = format!("{}: {name} moves {}", self.tag, route.join("→"));
        // 11.2: a face-down unit entering Nuba flips face-up there, even when passing through.
        let face_down = !self.state.unit(&id).is_some_and(|u| u.face_up);
        if face_down && let Some(n) = path.iter().find(|h| self.state.map.is_nuba(**h)) {
            self.state.set_hex(&id, *n);
            if let Some(r) = self.state.reveal(&id) {
                fire("11.1");
                fire("11.2");
                ev.push_str(&format!("; entering the Nuba Highlands: {r} (11.2)"));
            }
        }
        self.state.set_hex(&id, end);
        self.moved.insert(id);
        self.log.public(ev);
    }

    /// 5.11: a heli flies up to 9 MP, optionally carrying one AT or soldier from its start hex
    /// (5.11.5; default A3: cargo that has not moved this phase and moves no more after).
    pub fn heli_move(&mut self, hm: &HeliMove, p: &FieldPath) -> bool {
        match legal_heli_move(self.state, self.side, &self.moved, hm, p) {
            Ok(f) => {
                self.fly(&f.heli, f.start, &f.path, f.cargo.as_deref(), "5.11");
                true
            }
            Err(e) => {
                self.problems.push(e);
                false
            }
        }
    }

    /// Carries out a legal heli flight (shared by movement and reaction).
    pub fn fly(&mut self, heli: &str, start: Hex, path: &[Hex], cargo: Option<&str>, rule: &str) {
        let end = path.last().copied().unwrap_or(start);
        // 5.11.1-5.11.4: an active heli's one flight of the turn, 1 MP a hex, stopping on
        // entering beeler units.
        for r in ["5.11.1", "5.11.2", "5.11.3"] {
            fire(r);
        }
        if self.state.has_units(end, Side::Beeler) {
            fire("5.11.4");
        }
        if cargo.is_some() {
            fire("5.11.5");
        }
        if self.state.units_in(end).iter().any(|u| u != heli) {
            fire("6.1");
            fire("6.2");
        }
        let route: Vec<String> = std::iter::once(start)
            .chain(path.iter().copied())
            .map(|h| h.label())
            .collect();
        let mut ev = format!(
            "{}: heli {heli} flies {} ({rule})",
            self.tag,
            route.join("→")
        );
        if let Some(c) = cargo {
            if let Some(r) = self.state.reveal(c) {
                ev.push_str(&format!(" carrying {c} ({r}, flipped face-up, 5.11.5)"));
            } else {
                ev.push_str(&format!(" carrying {c} (5.11.5)"));
            }
            self.state.set_hex(c, end);
            self.moved.insert(c.to_string());
        }
        self.state.set_hex(heli, end);
        if let Some(mut u) = self.state.units.get_mut(heli) {
            u.moved = true;
        }
        self.moved.insert(heli.to_string());
        self.log.public(ev);
    }
}

/// Records the rules a ground move of `side`'s unit `id` from `start` along `path` applies, as
/// it is carried out (rule reach, `kit::reach`): the side moves its own unit within its MP
/// (5.1, 5.3), paying terrain (5.4, 5.6 along a river), the same face up or down (5.5), one
/// more to enter enemy units (5.7) and nothing to leave them (5.8), stopping where 5.9.2 or
/// 5.10.1 says, passing face-down beeler units (5.10.2), and stacking freely (6.1, 6.2).
fn fire_ground_move(state: &State, side: Side, id: &str, start: Hex, path: &[Hex]) {
    // Only the rule reach of a simulation reads what this works out.
    if !crate::kit::reach::is_recording() {
        return;
    }
    for r in ["5.1", "5.3", "5.4", "5.5"] {
        fire(r);
    }
    let enemy = side.other();
    let mut from = start;
    for (k, &to) in path.iter().enumerate() {
        if state.map.terrain(to) == Terrain::River && state.map.along_river(from, to) {
            fire("5.6");
        }
        if state.has_units(to, enemy) {
            fire("5.7");
        }
        if state.has_units(from, enemy) {
            fire("5.8");
        }
        let last = k + 1 == path.len();
        if side == Side::Mercenary
            && !last
            && state.has_units(to, enemy)
            && !state.has_active_face_up(to, enemy)
        {
            fire("5.10.2");
        }
        if last && side == Side::Beeler && state.has_units(to, enemy) {
            fire("5.9.2");
        }
        if last && side == Side::Mercenary && state.has_active_face_up(to, enemy) {
            fire("5.10.1");
        }
        from = to;
    }
    let end = path.last().copied().unwrap_or(start);
    if state.units_in(end).iter().any(|u| u != id) {
        fire("6.1");
        fire("6.2");
    }
}

/// Whether `hex` is the mercenary home with a face-up beeler unit (7.2.3 blocks heli reactions).
pub fn home_blocked(state: &State) -> bool {
    let ex10 = state.map.home(Side::Mercenary);
    !state.active_face_up(ex10, Side::Beeler).is_empty()
}

/// The cheapest heli route from `from` to `to` within 9 MP (5.3, 5.11.3, 5.11.4), from `reach`,
/// with its MP cost.
pub fn heli_route(state: &State, from: Hex, to: Hex) -> Option<(Vec<Hex>, u32)> {
    reach(
        state,
        MoverKind::Heli,
        Side::Mercenary,
        from,
        HELI_MP,
        |_| true,
    )
    .route(to)
}

/// The palace hex (for messages).
pub fn palace(state: &State) -> Hex {
    state.map.hex_of(data::PALACE)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::orders::MoveOrder;
    use super::*;

    fn mv(s: &mut State, side: Side, unit: &str, path: &[&str]) -> Vec<Problem> {
        let mut log = Log::default();
        let mut ph = MovementPhase::new(s, side, None, &mut log, "p2");
        let m = MoveOrder {
            unit: unit.into(),
            path: path.iter().map(|x| h(x)).collect(),
        };
        ph.ground_move(&m, &FieldPath::root().at("m"), Allowance::Normal(GROUND_MP));
        ph.problems
    }

    #[test]
    fn terrain_costs_clear_1_forest_3_river_2_or_1_along_5_4_5_6() {
        let s = blank();
        let c = |a: &str, b: &str| step_cost(&s, MoverKind::Beeler, Side::Beeler, h(a), h(b));
        assert_eq!(c("J08", "J07"), 1); // clear
        assert_eq!(c("O05", "O06"), 1); // palace: clear
        assert_eq!(c("M04", "N05"), 3); // forest
        assert_eq!(c("H07", "H08"), 3); // highland
        assert_eq!(c("C09", "C08"), 2); // river, entered from off the river
        assert_eq!(c("D07", "C08"), 1); // along the river
    }

    #[test]
    fn entering_an_enemy_hex_costs_one_more_and_stops_beeler_5_7_5_9_2() {
        let mut s = blank();
        put(&mut s, "B-AT01", "J07", true);
        put(&mut s, "M-AT01", "I07", false);
        assert_eq!(
            step_cost(&s, MoverKind::Beeler, Side::Beeler, h("J07"), h("I07")),
            2
        );
        let p = mv(&mut s, Side::Beeler, "B-AT01", &["I07", "H07"]);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].rule.as_deref(), Some("5.9.2"));
        assert_eq!(p[0].path.to_string(), "m.path[1]");
    }

    #[test]
    fn mercenary_passes_through_face_down_beeler_but_stops_at_face_up_5_10() {
        let mut s = blank();
        put(&mut s, "M-AT01", "J07", true);
        put(&mut s, "B-AT01", "I07", false);
        assert!(mv(&mut s, Side::Mercenary, "M-AT01", &["I07", "H07"]).is_empty());
        let mut s = blank();
        put(&mut s, "M-AT01", "J07", true);
        put(&mut s, "B-AT01", "I07", true);
        let p = mv(&mut s, Side::Mercenary, "M-AT01", &["I07", "H07"]);
        assert_eq!(p[0].rule.as_deref(), Some("5.10.1"));
    }

    #[test]
    fn too_long_a_move_names_the_cost_5_3() {
        let mut s = blank();
        put(&mut s, "B-AT03", "O06", true);
        // O06 -> N05 (forest 3) -> M05 (forest 3) = 6 MP.
        let p = mv(&mut s, Side::Beeler, "B-AT03", &["N05", "M05"]);
        assert_eq!(p.len(), 1);
        assert!(
            p[0].message.contains("costs 6 MP; a unit has 5"),
            "{}",
            p[0].message
        );
        assert_eq!(p[0].rule.as_deref(), Some("5.3"));
    }

    #[test]
    fn face_down_unit_entering_nuba_flips_face_up_11_2() {
        let mut s = blank();
        put(&mut s, "B-AT01", "H07", false);
        assert!(mv(&mut s, Side::Beeler, "B-AT01", &["H08"]).is_empty());
        assert!(s.unit("B-AT01").unwrap().face_up);
        assert_eq!(s.hex_of("B-AT01"), Some(h("H08")));
    }

    #[test]
    fn proto_one_may_not_leave_the_palace_5_9_3() {
        let mut s = blank();
        put(&mut s, "B-PROTO", "O06", true);
        let p = mv(&mut s, Side::Beeler, "B-PROTO", &["O05"]);
        assert_eq!(p[0].rule.as_deref(), Some("5.9.3"));
    }

    #[test]
    fn heli_route_avoids_beeler_hexes_and_fits_9_mp_5_11() {
        let mut s = blank();
        assert_eq!(s.map.grid.distance(h("B08"), h("K07")), 9);
        let (path, cost) = heli_route(&s, h("B08"), h("K07")).unwrap();
        assert_eq!((path.len(), cost), (9, 9));
        assert_eq!(path.last(), Some(&h("K07")));
        // With a beeler unit there, K07 costs 10 (5.11.4): out of reach.
        put(&mut s, "B-AT01", "K07", false);
        assert!(heli_route(&s, h("B08"), h("K07")).is_none());
        // J10 is 8 hexes away: 9 MP with the +1.
        put(&mut s, "B-AT02", "J10", false);
        assert_eq!(heli_route(&s, h("B08"), h("J10")).map(|r| r.1), Some(9));
        // A beeler unit on the way forces a detour, never a stop short of the target.
        put(&mut s, "B-AT03", "C08", false);
        let (p2, _) = heli_route(&s, h("B08"), h("E07")).unwrap();
        assert!(!p2[..p2.len() - 1].contains(&h("C08")));
        assert!(heli_route(&s, h("B08"), h("O06")).is_none());
    }

    fn hide(s: &mut State, hex: &str, units: &[&str]) -> Vec<Problem> {
        let mut log = Log::default();
        let mut d = Dice::new(
            crate::protocol::hash::Hash32([4; 32]),
            crate::protocol::hash::Hash32([5; 32]),
        );
        let mut ph = MovementPhase::new(s, Side::Beeler, Some(&mut d), &mut log, "p2");
        let g = HideGroup {
            hex: h(hex),
            units: units.iter().map(|u| u.to_string()).collect(),
        };
        ph.hide_at_start(&[g], &FieldPath::root().at("hide_at_start"));
        ph.problems
    }

    #[test]
    fn hiding_at_start_needs_a_soldier_and_hands_out_fresh_tokens_5_9_1() {
        let mut s = blank();
        put(&mut s, "B-AT01", "J07", true);
        put(&mut s, "B-AT02", "J07", true);
        let p = hide(&mut s, "J07", &["B-AT01"]);
        assert_eq!(p[0].rule.as_deref(), Some("5.9.1"));
        put(&mut s, "B-SO01", "J07", true);
        assert!(hide(&mut s, "J07", &["B-AT01", "B-AT02"]).is_empty());
        let mut tokens: Vec<u32> = ["B-AT01", "B-AT02"]
            .iter()
            .map(|id| s.unit(id).unwrap().token.unwrap())
            .collect();
        tokens.sort();
        assert_eq!(tokens, vec![1, 2]);
        assert!(
            s.unit("B-SO01").unwrap().face_up,
            "the face-up soldier stays up"
        );
    }

    #[test]
    fn a_face_down_soldier_is_shown_then_hidden_again_with_the_others_a40() {
        let mut s = blank();
        put(&mut s, "B-SO01", "J07", false); // token 1
        put(&mut s, "B-AT01", "J07", true);
        assert!(hide(&mut s, "J07", &["B-AT01"]).is_empty());
        assert!(!s.unit("B-SO01").unwrap().face_up);
        assert!(!s.unit("B-AT01").unwrap().face_up);
        let mut tokens: Vec<u32> = ["B-SO01", "B-AT01"]
            .iter()
            .map(|id| s.unit(id).unwrap().token.unwrap())
            .collect();
        tokens.sort();
        assert_eq!(tokens, vec![2, 3], "both get fresh tokens");
    }

    #[test]
    fn no_hiding_at_start_in_nuba_11_4() {
        let mut s = blank();
        put(&mut s, "B-SO01", "H08", true);
        put(&mut s, "B-AT01", "H08", true);
        let p = hide(&mut s, "H08", &["B-AT01"]);
        assert_eq!(p[0].rule.as_deref(), Some("11.4"));
    }

    #[test]
    fn hiding_by_5_2_only_in_the_home_base() {
        let mut s = blank();
        put(&mut s, "B-AT01", "J07", true);
        put(&mut s, "B-AT02", "O06", true);
        let mut log = Log::default();
        let mut ph = MovementPhase::new(&mut s, Side::Beeler, None, &mut log, "p2");
        ph.hide_at_home(&["B-AT01".to_string()], &FieldPath::root().at("hide"), 0);
        assert_eq!(ph.problems[0].rule.as_deref(), Some("5.2"));
        ph.problems.clear();
        ph.hide_at_home(&["B-AT02".to_string()], &FieldPath::root().at("hide"), 1);
        assert!(ph.problems.is_empty());
        assert!(!s.unit("B-AT02").unwrap().face_up);
    }

    #[test]
    fn heli_carries_one_unit_that_flips_face_up_and_moves_once_per_turn_5_11() {
        let mut s = blank();
        put(&mut s, "M-H01", "B08", true);
        put(&mut s, "M-AT01", "B08", false);
        let mut log = Log::default();
        let mut ph = MovementPhase::new(&mut s, Side::Mercenary, None, &mut log, "p5");
        let hm = HeliMove {
            heli: "M-H01".into(),
            path: vec![h("C08"), h("D07"), h("E07")],
            cargo: Some("M#1".into()),
        };
        assert!(ph.heli_move(&hm, &FieldPath::root().at("heli")));
        // Neither may move again this phase / turn.
        let again = MoveOrder {
            unit: "M-AT01".into(),
            path: vec![h("F07")],
        };
        assert!(!ph.ground_move(
            &again,
            &FieldPath::root().at("m"),
            Allowance::Normal(GROUND_MP)
        ));
        let back = HeliMove {
            heli: "M-H01".into(),
            path: vec![h("D07")],
            cargo: None,
        };
        assert!(!ph.heli_move(&back, &FieldPath::root().at("heli2")));
        assert_eq!(ph.problems.last().unwrap().rule.as_deref(), Some("5.11.1"));
        assert_eq!(s.hex_of("M-AT01"), Some(h("E07")));
        assert!(s.unit("M-AT01").unwrap().face_up);
    }
}
