//! Movement phases (5, 5.9, 5.10, 5.11, 11) and the beeler reaction moves (7.3), run as one
//! sequential simulation: `check` runs it without dice on a copy of the state and reports
//! problems; `resolve` runs it with dice and skips (and reports privately) anything illegal.

use super::data::{self, Class, Role, Side, Terrain};
use super::orders::{Action, HeliMove, HideGroup, MoveOrder};
use super::state::{Log, Place, Stage, State};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

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

/// MP to enter `to` from `from` (5.4, 5.6, 5.7, 5.11.3).
pub fn step_cost(state: &State, kind: MoverKind, side: Side, from: Hex, to: Hex) -> u32 {
    let enemy = !state.side_units_in(to, side.other()).is_empty();
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

/// Whether a mover must end its move on entering `hex` (5.9.2, 5.10.1, 5.11.4).
pub fn stops_in(state: &State, kind: MoverKind, side: Side, hex: Hex) -> bool {
    match kind {
        MoverKind::Beeler | MoverKind::Heli => !state.side_units_in(hex, side.other()).is_empty(),
        MoverKind::MercGround => !state.active_face_up(hex, side.other()).is_empty(),
    }
}

/// The MP allowance of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowance {
    Normal(u32),
    /// 3 MP, or one adjacent hex costing up to 4 (7.3.5, 7.3.6, default A38).
    Reaction,
}

/// Costs a path; on failure returns the index of the offending path entry and a problem text.
pub fn cost_path(
    state: &State,
    kind: MoverKind,
    side: Side,
    unit: &str,
    start: Hex,
    path: &[Hex],
    allowance: Allowance,
) -> Result<u32, (Option<usize>, String, String, String)> {
    if path.is_empty() {
        return Err((
            None,
            "5.4".into(),
            format!("the move of {unit} has an empty path"),
            "a list of the hexes entered, e.g. [N06, M06]".into(),
        ));
    }
    let mut prev = start;
    let mut total = 0;
    let mut stopped_at: Option<Hex> = None;
    for (k, &h) in path.iter().enumerate() {
        if !state.map.grid.contains(h) {
            return Err((
                Some(k),
                "5.4".into(),
                format!("{h} is off the map"),
                "a hex on the map".into(),
            ));
        }
        if let Some(s) = stopped_at {
            let rule = match kind {
                MoverKind::Beeler => "5.9.2",
                MoverKind::MercGround => "5.10.1",
                MoverKind::Heli => "5.11.4",
            };
            return Err((
                Some(k),
                rule.into(),
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
            return Err((
                Some(k),
                "5.4".into(),
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
    let (limit, ok) = match allowance {
        Allowance::Normal(mp) => (mp, total <= mp),
        Allowance::Reaction => (
            REACTION_MP,
            total <= REACTION_MP || (path.len() == 1 && total <= REACTION_ADJACENT_MP),
        ),
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
                format!("a reaction move has {limit} (4 for a single adjacent hex, 7.3.6)"),
            ),
        };
        return Err((
            Some(path.len() - 1),
            rule.into(),
            format!(
                "moving {unit} along {} costs {total} MP; {has}",
                route.join("→")
            ),
            "a shorter path (forest and highland 3, river 2 or 1 along the river, clear 1, +1 entering a hex with enemy units)".into(),
        ));
    }
    Ok(total)
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

    /// Resolves `name` (an id, or a token of one's own face-down unit) to one of this side's
    /// units on the map, with its hex; reports a problem otherwise.
    pub fn own_unit(&mut self, name: &str, path: &FieldPath) -> Option<(String, Hex)> {
        let side = self.side;
        let Some(id) = self.state.find_own(side, name) else {
            let msg = if name.contains('#') {
                format!("{name} is not one of your face-down units on the map")
            } else {
                format!("there is no unit {name:?}")
            };
            self.problem(
                path.clone(),
                "",
                msg,
                "the id of one of your units, or its token (see your view)",
            );
            return None;
        };
        if self.state.side_of(&id) != Some(side) {
            self.problem(
                path.clone(),
                "5.1",
                format!("{id} is not a {} unit", side.name()),
                "one of your own units",
            );
            return None;
        }
        match self.state.hex_of(&id) {
            Some(h) => Some((id, h)),
            None => {
                self.problem(
                    path.clone(),
                    "5.1",
                    format!("{id} is not on the map"),
                    "a unit on the map",
                );
                None
            }
        }
    }

    /// 5.9.1 (with 11.4): at the start of the beeler movement phase, face-up units in a hex with
    /// a beeler soldier may be flipped face-down together.
    pub fn hide_at_start(&mut self, groups: &[HideGroup], base: &FieldPath) {
        let mut seen = BTreeSet::new();
        for (i, g) in groups.iter().enumerate() {
            let p = base.at(i);
            if !seen.insert(g.hex) {
                self.problem(
                    p.at("hex"),
                    "5.9.1",
                    format!("{} is listed twice", g.hex),
                    "each hex once, with all its units",
                );
                continue;
            }
            if self.state.map.is_nuba(g.hex) {
                self.problem(
                    p.at("hex"),
                    "11.4",
                    format!("units cannot hide in the Nuba Highlands ({})", g.hex),
                    "a hex outside Nuba with one of your soldiers",
                );
                continue;
            }
            let own = self.state.side_units_in(g.hex, self.side);
            let soldiers: Vec<String> = own
                .iter()
                .filter(|id| self.state.class_of(id) == Some(Class::Soldier))
                .cloned()
                .collect();
            if soldiers.is_empty() {
                self.problem(
                    p.at("hex"),
                    "5.9.1",
                    format!("no beeler soldier in {}", g.hex),
                    "a hex holding one of your soldiers",
                );
                continue;
            }
            let mut ok = true;
            let mut units = Vec::new();
            for (k, name) in g.units.iter().enumerate() {
                let up = p.at("units").at(k);
                let Some((id, h)) = self.own_unit(name, &up) else {
                    ok = false;
                    continue;
                };
                let id = &id;
                if h != g.hex {
                    self.problem(
                        up,
                        "5.9.1",
                        format!("{id} is in {h}, not {}", g.hex),
                        "units in that hex",
                    );
                    ok = false;
                } else if !self.state.unit(id).is_some_and(|u| u.face_up) {
                    self.problem(
                        up,
                        "5.9.1",
                        format!("{id} is already face-down"),
                        "face-up units",
                    );
                    ok = false;
                } else if units.contains(id) {
                    self.problem(
                        up,
                        "5.9.1",
                        format!("{id} is listed twice"),
                        "each unit once",
                    );
                    ok = false;
                } else {
                    units.push(id.clone());
                }
            }
            if !ok || units.is_empty() {
                continue;
            }
            // If no soldier there is face-up, one face-down soldier is shown first and hidden
            // again with the others (5.9.1, default A40): the one with the lowest token.
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
            let label = format!("{}/hide-at-start/{}", self.tag, g.hex);
            let names = units.join(", ");
            let tokens = self
                .state
                .hide_together(&units, g.hex, self.dice.as_deref_mut(), &label);
            self.log.public(format!(
                "{}: {names} in {} flip face-down together as {} (5.9.1)",
                self.tag,
                g.hex,
                tokens.join(", ")
            ));
        }
    }

    /// One movement-phase action (5.2, 5.4, 5.11).
    pub fn action(&mut self, i: usize, a: &Action, base: &FieldPath) {
        let p = base.at(i);
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
        let Some((id, _)) = self.own_unit(name, p) else {
            return;
        };
        let id = id.as_str();
        if self.state.is_heli(id) {
            self.problem(
                p.clone(),
                "2.2.3",
                format!("{id} is a heli; helis have no hidden side"),
                "a face-down AT or soldier",
            );
            return;
        }
        match self.state.reveal(id) {
            Some(ev) => self
                .log
                .public(format!("{}: {ev} (flipped face-up, {rule})", self.tag)),
            None => self.problem(
                p.clone(),
                rule,
                format!("{id} is already face-up"),
                "a face-down unit",
            ),
        }
    }

    /// 5.2: flip face-up units in one's own home base face-down (not helis), together.
    pub fn hide_at_home(&mut self, names: &[String], p: &FieldPath, action: usize) {
        let home = self.state.map.home(self.side);
        let mut ok = true;
        let mut ids: Vec<String> = Vec::new();
        for (k, name) in names.iter().enumerate() {
            let up = p.at(k);
            let Some((id, h)) = self.own_unit(name, &up) else {
                ok = false;
                continue;
            };
            let seen_before = ids.contains(&id);
            ids.push(id.clone());
            let id = &id;
            if self.state.is_heli(id) {
                self.problem(
                    up,
                    "5.2",
                    format!("{id} is a heli; helis cannot be hidden"),
                    "an AT or soldier",
                );
                ok = false;
            } else if h != home {
                self.problem(
                    up,
                    "5.2",
                    format!("{id} is in {h}; units hide only in their home base {home}"),
                    format!("a unit in {home}"),
                );
                ok = false;
            } else if !self.state.unit(id).is_some_and(|u| u.face_up) {
                self.problem(
                    up,
                    "5.2",
                    format!("{id} is already face-down"),
                    "a face-up unit",
                );
                ok = false;
            } else if seen_before {
                self.problem(up, "5.2", format!("{id} is listed twice"), "each unit once");
                ok = false;
            }
        }
        if !ok || ids.is_empty() {
            return;
        }
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
        let Some((id, start)) = self.own_unit(&m.unit, &p.at("unit")) else {
            return false;
        };
        if self.state.is_heli(&id) {
            self.problem(
                p.at("unit"),
                "5.11",
                format!("{id} is a heli"),
                "use `heli: {heli, path, cargo}` for helis",
            );
            return false;
        }
        if self.moved.contains(&id) {
            self.problem(
                p.at("unit"),
                "5.4",
                format!("{id} has already moved (or was carried) this phase"),
                "each unit moves once per phase",
            );
            return false;
        }
        if self.state.role_of(&id) == Some(Role::ProtoOne) {
            self.problem(
                p.at("unit"),
                "5.9.3",
                "Proto One may not leave the palace",
                "another unit",
            );
            return false;
        }
        let kind = match self.side {
            Side::Beeler => MoverKind::Beeler,
            Side::Mercenary => MoverKind::MercGround,
        };
        if let Err((k, rule, msg, acc)) =
            cost_path(self.state, kind, self.side, &id, start, &m.path, allowance)
        {
            let at = match k {
                Some(k) => p.at("path").at(k),
                None => p.at("path"),
            };
            self.problem(at, &rule, msg, acc);
            return false;
        }
        // 12.10, 12.12: Strike Dog stays within 3 hexes of the palace in stages 6 and 8.
        if self.state.role_of(&id) == Some(Role::StrikeDog)
            && matches!(self.state.stage, Stage::Stage6 | Stage::Stage8)
        {
            let palace = self.state.map.home(Side::Beeler);
            if let Some(k) = m
                .path
                .iter()
                .position(|h| self.state.map.grid.distance(*h, palace) > 3)
            {
                self.problem(
                    p.at("path").at(k),
                    "12.10",
                    "Strike Dog must stay within 3 hexes of the palace",
                    "hexes within 3 of the palace",
                );
                return false;
            }
        }
        let name = self.state.public_name(&id);
        let route: Vec<String> = std::iter::once(start)
            .chain(m.path.iter().copied())
            .map(|h| h.label())
            .collect();
        let end = m.path.last().copied().unwrap_or(start);
        let mut ev = format!("{}: {name} moves {}", self.tag, route.join("→"));
        // 11.2: a face-down unit entering Nuba flips face-up there, even when passing through.
        let face_down = !self.state.unit(&id).is_some_and(|u| u.face_up);
        if face_down && let Some(n) = m.path.iter().find(|h| self.state.map.is_nuba(**h)) {
            self.state.set_hex(&id, *n);
            if let Some(r) = self.state.reveal(&id) {
                ev.push_str(&format!("; entering the Nuba Highlands: {r} (11.2)"));
            }
        }
        self.state.set_hex(&id, end);
        self.moved.insert(id);
        self.log.public(ev);
        true
    }

    /// 5.11: a heli flies up to 9 MP, optionally carrying one AT or soldier from its start hex
    /// (5.11.5; default A3: cargo that has not moved this phase and moves no more after).
    pub fn heli_move(&mut self, hm: &HeliMove, p: &FieldPath) -> bool {
        let Some((id, start)) = self.own_unit(&hm.heli, &p.at("heli")) else {
            return false;
        };
        if !self.state.is_heli(&id) {
            self.problem(
                p.at("heli"),
                "5.11",
                format!("{id} is not a heli"),
                "a heli id",
            );
            return false;
        }
        let u = self.state.unit(&id).cloned();
        if !u.as_ref().is_some_and(|u| u.face_up) {
            self.problem(
                p.at("heli"),
                "5.11.2",
                format!("{id} has acted and cannot move"),
                "an active heli",
            );
            return false;
        }
        if u.as_ref().is_some_and(|u| u.moved) {
            self.problem(
                p.at("heli"),
                "5.11.1",
                format!("{id} has already moved this turn"),
                "a heli that has not moved this turn",
            );
            return false;
        }
        if let Err((k, rule, msg, acc)) = cost_path(
            self.state,
            MoverKind::Heli,
            self.side,
            &id,
            start,
            &hm.path,
            Allowance::Normal(HELI_MP),
        ) {
            let at = match k {
                Some(k) => p.at("path").at(k),
                None => p.at("path"),
            };
            self.problem(at, &rule, msg, acc);
            return false;
        }
        let mut cargo: Option<String> = None;
        if let Some(name) = &hm.cargo {
            let cp = p.at("cargo");
            let Some((c, ch)) = self.own_unit(name, &cp) else {
                return false;
            };
            let c = &c;
            if !matches!(self.state.class_of(c), Some(Class::At | Class::Soldier))
                || self.state.role_of(c) == Some(Role::Kiriko)
            {
                self.problem(
                    cp,
                    "5.11.5",
                    format!("{c} cannot be carried"),
                    "an AT or soldier",
                );
                return false;
            }
            if ch != start {
                self.problem(
                    cp,
                    "5.11.5",
                    format!("{c} is in {ch}, not with the heli in {start}"),
                    format!("a unit in {start}"),
                );
                return false;
            }
            if self.moved.contains(c) {
                self.problem(
                    cp,
                    "5.11.5",
                    format!("{c} has already moved this phase"),
                    "a unit that has not moved this phase (A3)",
                );
                return false;
            }
            cargo = Some(c.clone());
        }
        self.fly(&id, start, &hm.path, cargo.as_deref(), "5.11");
        true
    }

    /// Carries out a legal heli flight (shared by movement and reaction).
    pub fn fly(&mut self, heli: &str, start: Hex, path: &[Hex], cargo: Option<&str>, rule: &str) {
        let end = path.last().copied().unwrap_or(start);
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
        if let Some(u) = self.state.units.get_mut(heli) {
            u.moved = true;
        }
        self.moved.insert(heli.to_string());
        self.log.public(ev);
    }
}

/// Whether `hex` is the mercenary home with a face-up beeler unit (7.2.3 blocks heli reactions).
pub fn home_blocked(state: &State) -> bool {
    let ex10 = state.map.home(Side::Mercenary);
    !state.active_face_up(ex10, Side::Beeler).is_empty()
}

/// A shortest heli route from `from` to `to` that enters no beeler-occupied hex before `to`
/// (5.11.4), with its MP cost, if it fits in 9 MP.
pub fn heli_route(state: &State, from: Hex, to: Hex) -> Option<(Vec<Hex>, u32)> {
    use std::collections::{BTreeMap, VecDeque};
    let grid = &state.map.grid;
    let mut prev: BTreeMap<Hex, Hex> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(h) = queue.pop_front() {
        if h == to {
            break;
        }
        if h != from && !state.side_units_in(h, Side::Beeler).is_empty() {
            continue; // a heli would have stopped here
        }
        for (_, n) in grid.neighbours(h) {
            if seen.insert(n) {
                prev.insert(n, h);
                queue.push_back(n);
            }
        }
    }
    if !seen.contains(&to) || from == to {
        return None;
    }
    let mut path = vec![to];
    let mut cur = to;
    while let Some(&p) = prev.get(&cur) {
        if p == from {
            break;
        }
        path.push(p);
        cur = p;
    }
    path.reverse();
    let mut total = 0;
    let mut at = from;
    for &h in &path {
        total += step_cost(state, MoverKind::Heli, Side::Mercenary, at, h);
        at = h;
    }
    (total <= HELI_MP).then_some((path, total))
}

/// Units of `side` that may move in a movement phase, with their hex (for templates).
pub fn movable(state: &State, side: Side) -> Vec<(String, Hex)> {
    state
        .units
        .iter()
        .filter(|(id, u)| {
            state.side_of(id) == Some(side) && u.place == Place::Map && !state.is_heli(id)
        })
        .filter(|(id, _)| state.role_of(id) != Some(Role::ProtoOne))
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .collect()
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
