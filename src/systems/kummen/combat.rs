//! Combat phases (9): forced flips, combat hexes, base attacks, pairing, attack rolls, damage,
//! retreat, and the end of the phase (control, heli return, units going home).

use super::control;
use super::data::{Class, Control, PerSide, Role, Side};
use super::orders::{HexKind, RetreatGroup, RetreatTo, Split, flow};
use super::stages::{self, Kills};
use super::state::{Log, Place, State};
use super::tactics;
use crate::kit::hex::{Dir, Hex};
use crate::kit::reach::fire;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

/// Hard cap on rounds in one combat (default A13).
pub const MAX_ROUNDS: u32 = 50;

/// P(2D <= n) in 36ths (9.9.3).
pub fn p36(hit: i64) -> u32 {
    match hit {
        i64::MIN..=1 => 0,
        2 => 1,
        3 => 3,
        4 => 6,
        5 => 10,
        6 => 15,
        7 => 21,
        8 => 26,
        9 => 30,
        10 => 33,
        11 => 35,
        _ => 36,
    }
}

/// Retreat directions (9.11.10): towards the side's home.
pub fn retreat_dirs(side: Side) -> [Dir; 3] {
    match side {
        Side::Mercenary => [Dir::NE, Dir::SE, Dir::S],
        Side::Beeler => [Dir::N, Dir::NW, Dir::SW],
    }
}

/// Legal retreat hexes for `side` from `from`, best first (9.11.5, 9.11.6, 9.11.10, 9.11.11),
/// ranked by the side's policy D10 in force there (`retreat_to`): the listed hexes first, then
/// the kinds in the order preferred (default own base, own units, empty, only face-down
/// enemies); ties by distance to the home base, then label. The policy passed
/// `legal_retreat_to` when it was set; a listed hex counts only if it is legal now.
pub fn retreat_hexes(state: &State, side: Side, from: Hex) -> Vec<Hex> {
    let rule = state.policies.get(side).at(from).retreat_to;
    ranked_retreat_hexes(state, side, from, &rule.hexes, &rule.prefer)
}

/// The legal retreat hexes of `retreat_hexes`, ranked by `listed` hexes first, then the kinds
/// in the order `prefer` gives: the ranking of a retreat rule or of one of its groups (9.11.9).
pub fn ranked_retreat_hexes(
    state: &State,
    side: Side,
    from: Hex,
    listed: &[Hex],
    prefer: &[HexKind],
) -> Vec<Hex> {
    let home = state.map.home(side);
    let kind_rank = |k: HexKind| -> usize {
        prefer
            .iter()
            .position(|p| *p == k)
            .unwrap_or_else(|| prefer.len() + k as usize)
    };
    let mut v: Vec<(usize, usize, u32, Hex)> = Vec::new();
    for d in retreat_dirs(side) {
        let Some(h) = state.map.grid.neighbour(from, d) else {
            continue; // no retreat off the map (A14)
        };
        // 9.11.5-1: no face-up enemy unit (acted helis are inert, A5).
        if !state.active_face_up(h, side.other()).is_empty() {
            continue;
        }
        // 9.11.5-3, 9.11.11: no enemy base with a base attack, even if empty.
        if let Some(b) = state.map.base_at(h)
            && b.base_attack.is_some()
            && state.control_of(h) == Control::of(side.other())
        {
            continue;
        }
        let own_base = state.map.base_at(h).is_some() && state.control_of(h) == Control::of(side);
        let own_units = !state.side_units_in(h, side).is_empty();
        let enemies = !state.side_units_in(h, side.other()).is_empty();
        let kind = if own_base {
            HexKind::OwnBase
        } else if own_units {
            HexKind::OwnUnits
        } else if !enemies {
            HexKind::Empty
        } else {
            HexKind::OnlyFacedownEnemy
        };
        let listed = listed.iter().position(|x| *x == h).unwrap_or(usize::MAX);
        v.push((listed, kind_rank(kind), state.map.grid.distance(h, home), h));
    }
    v.sort();
    v.into_iter().map(|(_, _, _, h)| h).collect()
}

/// Whether a hex in `side`'s retreat directions from `from` is closed to it only by 9.11.11:
/// an enemy base with a base attack, occupied or not.
fn barred_by_base_attack(state: &State, side: Side, from: Hex) -> bool {
    retreat_dirs(side).into_iter().any(|d| {
        state.map.grid.neighbour(from, d).is_some_and(|h| {
            state
                .map
                .base_at(h)
                .is_some_and(|b| b.base_attack.is_some())
                && state.control_of(h) == Control::of(side.other())
        })
    })
}

/// Logs `text` publicly after recording that `rule` was applied.
fn fire_then(log: &mut Log, rule: &'static str, text: String) {
    fire(rule);
    log.public(text);
}

/// Problems with a retreat destination policy of `side` at `p` (D10, 9.11.9): hexes on the map
/// (only the legal ones of the moment are used, `retreat_hexes`), each kind of hex at most
/// once; each group names at least one unit of `side` by id or kind, with hexes and kinds as
/// the rule's.
pub fn legal_retreat_to(state: &State, side: Side, p: &FieldPath, r: &RetreatTo) -> Vec<Problem> {
    let mut out = legal_retreat_ranking(state, p, &r.hexes, &r.prefer);
    for (i, g) in r.groups.iter().enumerate() {
        let gp = p.at("groups").at(i);
        if g.units.is_empty() {
            out.push(Problem::new(
                gp.at("units"),
                "9.11.9",
                "a group names no unit",
                "unit ids or kinds of your side, e.g. [soldier]",
            ));
        }
        out.extend(tactics::legal_names(
            state,
            &gp.at("units"),
            "9.11.9",
            &g.units,
            side,
            &tactics::enemy_kinds(side.other()),
        ));
        out.extend(legal_retreat_ranking(
            state,
            &gp,
            &g.hexes,
            g.prefer.as_deref().unwrap_or(&[]),
        ));
    }
    out
}

/// Problems with the `hexes` and `prefer` of a retreat rule or group at `p` (9.11.9).
fn legal_retreat_ranking(
    state: &State,
    p: &FieldPath,
    hexes: &[Hex],
    prefer: &[HexKind],
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (k, h) in hexes.iter().enumerate() {
        if !state.map.grid.contains(*h) {
            out.push(Problem::new(
                p.at("hexes").at(k),
                "9.11.9",
                format!("{h} is off the map"),
                "hexes on the map (only adjacent legal ones are used, 9.11.5-9.11.11)",
            ));
        }
    }
    let mut listed = Vec::new();
    for (k, kind) in prefer.iter().enumerate() {
        // At most four kinds exist, so `listed` stays short however long the list is.
        if listed.contains(kind) {
            out.push(Problem::new(
                p.at("prefer").at(k),
                "9.11.9",
                format!("{} is listed twice", flow(kind)),
                "each of own_base, own_units, empty, only_facedown_enemy at most once",
            ));
        } else {
            listed.push(*kind);
        }
    }
    out
}

/// The single values a retreat destination policy of `side` accepts: each hex of the map as
/// `hexes`, each kind of hex as `prefer`, each `split`, and a group for each name of a unit or
/// kind of `side` (9.11.9).
pub fn retreat_to_choices(state: &State, side: Side) -> Vec<RetreatTo> {
    let hexes = state.map.grid.all().into_iter().map(|h| RetreatTo {
        hexes: vec![h],
        ..RetreatTo::default()
    });
    let kinds = HexKind::ALL.iter().map(|k| RetreatTo {
        prefer: vec![*k],
        ..RetreatTo::default()
    });
    let splits = Split::ALL.iter().map(|s| RetreatTo {
        split: *s,
        ..RetreatTo::default()
    });
    let groups = tactics::name_choices(state, side, &tactics::enemy_kinds(side.other()))
        .into_iter()
        .map(|n| RetreatTo {
            groups: vec![RetreatGroup {
                units: vec![n],
                hexes: Vec::new(),
                prefer: None,
                split: Split::Together,
            }],
            ..RetreatTo::default()
        });
    hexes.chain(kinds).chain(splits).chain(groups).collect()
}

/// Problems with the order of combat hexes at `p` (D2, 9.4): hexes on the map.
pub fn legal_hex_order(state: &State, p: &FieldPath, hexes: &[Hex]) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, h) in hexes.iter().enumerate() {
        if !state.map.grid.contains(*h) {
            out.push(Problem::new(
                p.at(i),
                "9.4",
                format!("{h} is off the map"),
                "hexes on the map",
            ));
        }
    }
    out
}

/// The hexes the order of combat hexes may list: every hex of the map.
pub fn hex_order_choices(state: &State) -> Vec<Hex> {
    state.map.grid.all()
}

/// One pairing (9.8): units of both sides that attack within the group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    pub m: Vec<String>,
    pub b: Vec<String>,
}

impl Group {
    pub fn side(&self, s: Side) -> &Vec<String> {
        match s {
            Side::Mercenary => &self.m,
            Side::Beeler => &self.b,
        }
    }
    pub fn side_mut(&mut self, s: Side) -> &mut Vec<String> {
        match s {
            Side::Mercenary => &mut self.m,
            Side::Beeler => &mut self.b,
        }
    }
}

fn hit(state: &State, attacker: &str, target: &str) -> i64 {
    i64::from(state.values(attacker).attack) - i64::from(state.values(target).defense)
}

/// VP the beeler side would get for killing `target` with a PS (10.1: its defense, a heli 2).
pub fn experience(state: &State, target: &str) -> u32 {
    if state.is_heli(target) {
        2
    } else {
        state.values(target).defense
    }
}

/// Pairs the face-up units of a combat in `hex` for one round (9.8.1-9.8.6), starting from the
/// groups of the previous round (empty in round 1), by the policies in force in `hex`:
/// each PS first takes a partner by the beeler `ps_partner` (D3; 9.8.2, 9.8.6); the phase player
/// pairs the other free units one to one by its `pairing` (D4; 9.8.1); each side's leftover
/// units join the groups by its owner's `distribute` (D5; 9.8.3, A8); finally each owner
/// rebalances so that no two groups differ by 2 or more in its count (D6; 9.8.5, default A6).
pub fn pair(
    state: &State,
    hex: Hex,
    m_alive: &[String],
    b_alive: &[String],
    prev: &[Group],
    phase_player: Side,
) -> Vec<Group> {
    let alive: BTreeSet<&String> = m_alive.iter().chain(b_alive).collect();
    let mut groups: Vec<Group> = prev
        .iter()
        .map(|g| Group {
            m: g.m.iter().filter(|u| alive.contains(u)).cloned().collect(),
            b: g.b.iter().filter(|u| alive.contains(u)).cloned().collect(),
        })
        .collect();
    // PS choose first, every round, ignoring the old groups (9.8.2, 9.8.6).
    let mut ps: Vec<String> = b_alive
        .iter()
        .filter(|u| state.counters.is_ps(u))
        .cloned()
        .collect();
    ps.sort();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut ps_groups = Vec::new();
    for p in &ps {
        let free: Vec<String> = m_alive
            .iter()
            .filter(|m| !taken.contains(*m))
            .cloned()
            .collect();
        let partner = tactics::ps_partner(state, hex, p, &free);
        if let Some(m) = partner {
            fire("9.8.2");
            if !prev.is_empty() {
                fire("9.8.6");
            }
            taken.insert(m.clone());
            for g in groups.iter_mut() {
                g.m.retain(|u| *u != m);
                g.b.retain(|u| u != p);
            }
            ps_groups.push(Group {
                m: vec![m],
                b: vec![p.clone()],
            });
        } else {
            // More PS than enemies: this PS is spread like a surplus unit (A9).
            for g in groups.iter_mut() {
                g.b.retain(|u| u != p);
            }
        }
    }
    // Groups that lost every unit of one side dissolve; their units are free (9.8.5, 9.8.6).
    groups.retain(|g| !g.m.is_empty() && !g.b.is_empty());
    groups.extend(ps_groups);
    let in_group: BTreeSet<String> = groups
        .iter()
        .flat_map(|g| g.m.iter().chain(&g.b))
        .cloned()
        .collect();
    let free = |alive: &[String]| -> Vec<String> {
        alive
            .iter()
            .filter(|u| !in_group.contains(*u))
            .cloned()
            .collect()
    };
    let (free_m, free_b) = (free(m_alive), free(b_alive));
    // 1-to-1 pairing of free units by the phase player (9.8.1).
    let policy = |side: Side| state.policies.get(side).at(hex);
    let (mine, theirs) = match phase_player {
        Side::Mercenary => (free_m, free_b),
        Side::Beeler => (free_b, free_m),
    };
    let one = tactics::one_to_one(state, policy(phase_player).pairing, &mine, &theirs);
    if !one.pairs.is_empty() {
        fire("9.8.1");
    }
    if !prev.is_empty() && !groups.is_empty() {
        // 9.8.5: the groups of the last round are kept, and free units are paired again.
        fire("9.8.5");
    }
    if !one.left_mine.is_empty() || !one.left_theirs.is_empty() {
        fire("9.8.3");
    }
    for (u, t) in one.pairs {
        let mut g = Group::default();
        g.side_mut(phase_player).push(u);
        g.side_mut(phase_player.other()).push(t);
        groups.push(g);
    }
    // Surplus units spread over the groups by their owner (9.8.3, A8).
    for (side, rest) in [
        (phase_player, one.left_mine),
        (phase_player.other(), one.left_theirs),
    ] {
        tactics::place_surplus(state, policy(side).distribute, side, &mut groups, &rest);
    }
    // Balance over all groups (9.8.3, 9.8.5): each owner moves its excess units, never a PS.
    for side in [Side::Mercenary, Side::Beeler] {
        tactics::rebalance(state, policy(side).distribute, side, &mut groups);
    }
    groups
}

/// Target of each unit in `hex` (9.8.4, 9.9.1; default A7): a unit facing one enemy attacks
/// it; otherwise its owner's `targets` policy in force there (D7) ranks the enemies of its
/// group.
pub fn targets(state: &State, hex: Hex, groups: &[Group]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for &side in Side::ALL {
        let rule = state.policies.get(side).at(hex).targets;
        for g in groups {
            let enemy = g.side(side.other());
            for u in g.side(side) {
                if enemy.len() > 1 {
                    fire("9.8.4");
                }
                let t = tactics::rank(state, &rule, tactics::Shooter::unit(state, u), enemy);
                if let Some(t) = t.into_iter().next() {
                    out.insert(u.clone(), t);
                }
            }
        }
    }
    out
}

/// 9.12.3 (policy D8, default A10): which enemy face-up unit in `hex` each of the controller's
/// `count` base attacks of strength `attack` goes to, in order. The enemies are ranked by the
/// controller's `base_targets` in force there; attack k goes to the (k mod E)-th, so each of the
/// E enemies gets ⌊N/E⌋ or ⌈N/E⌉ attacks, the extras going to the best ranked, and with fewer
/// attacks than enemies only the best ranked are attacked.
pub fn base_attack_plan(
    state: &State,
    hex: Hex,
    owner: Side,
    attack: u32,
    count: u32,
) -> Vec<String> {
    let enemies = state.active_face_up(hex, owner.other());
    if enemies.is_empty() {
        return Vec::new();
    }
    let rule = state.policies.get(owner).at(hex).base_targets;
    let ranked = tactics::rank(state, &rule, tactics::Shooter::base(attack), &enemies);
    (0..count as usize)
        .map(|k| ranked[k % ranked.len()].clone())
        .collect()
}

/// Adds the units destroyed in `hits` to each side's losses in this combat (D9 `lost_ge`).
fn tally(state: &State, lost: &mut PerSide<u32>, hits: &Kills) {
    for dead in hits.keys() {
        if let Some(side) = state.side_of(dead) {
            *lost.get_mut(side) += 1;
        }
    }
}

/// One combat phase.
pub struct CombatPhase<'a> {
    pub state: &'a mut State,
    pub dice: &'a mut Dice,
    pub log: &'a mut Log,
    pub phase_player: Side,
    /// e.g. `t1/p4`.
    pub tag: String,
}

pub(super) enum Flow {
    Fight,
    End,
}

/// What a retreat (9.11.9) did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Retreated {
    /// Nothing moved: no legal hex (9.11.8).
    No,
    /// Every unit of the side left the hex.
    All,
    /// The others left, but Proto One, which may not leave the palace (5.9.3), stays and fights
    /// on (9.11.8): the combat goes on.
    ProtoOneStays,
}

impl CombatPhase<'_> {
    /// Runs the whole phase: 9.1, 9.3, every combat hex in the phase player's order (9.4), then
    /// the end of the phase (2.3.1, 9.13, 9.10.4).
    pub fn run(&mut self) {
        self.log.public(format!(
            "{}: combat phase, phase player {} (9.4)",
            self.tag,
            self.phase_player.name()
        ));
        stages::combat_phase_start(self.state);
        let base_combats = self.forced_flips();
        let mut pending: Vec<Hex> = self
            .state
            .occupied_hexes()
            .into_iter()
            .filter(|h| self.is_combat_hex(*h) || base_combats.contains(h))
            .collect();
        // 9.4 (policy D2): listed hexes first, then label order.
        let order = self.state.policies.get(self.phase_player).hex_order.clone();
        let mut ordered: Vec<Hex> = order
            .iter()
            .filter(|h| pending.contains(h))
            .copied()
            .collect();
        ordered.dedup();
        pending.retain(|h| !ordered.contains(h));
        ordered.extend(pending);
        if !ordered.is_empty() {
            fire("9.4");
        }
        if ordered.is_empty() {
            self.log.public(format!("{}: no combat", self.tag));
        }
        // A12: a hex that a stage effect fills with face-up units of both sides is fought too;
        // a hex fought again gets fresh dice labels (`/visit2`).
        let mut visits: BTreeMap<Hex, u32> = BTreeMap::new();
        let mut standoffs: BTreeSet<Hex> = BTreeSet::new();
        let mut next = 0;
        while let Some(&hex) = ordered.get(next) {
            next += 1;
            let first = !visits.contains_key(&hex);
            if self.is_combat_hex(hex) || (first && base_combats.contains(&hex)) {
                let visit = visits.entry(hex).or_insert(0);
                *visit += 1;
                let visit = *visit;
                self.resolve(hex, base_combats.contains(&hex), visit);
                if self.is_combat_hex(hex) {
                    standoffs.insert(hex);
                }
            }
            let fresh = stages::new_combat_hexes(self.state, &ordered[next..], &standoffs);
            ordered.extend(fresh);
        }
        self.end_of_phase();
        // Per-hex overrides hold for one combat phase only (docs/kummen.md "Policies").
        for &side in Side::ALL {
            self.state.policies.get_mut(side).combat_overrides.clear();
        }
    }

    /// 9.2: both sides have face-up units (acted helis excluded, 9.5).
    fn is_combat_hex(&self, hex: Hex) -> bool {
        !self.state.active_face_up(hex, Side::Mercenary).is_empty()
            && !self.state.active_face_up(hex, Side::Beeler).is_empty()
    }

    /// 9.1 and 9.3 at the start of the phase (default A11). Returns the 9.3 base combat hexes.
    fn forced_flips(&mut self) -> BTreeSet<Hex> {
        for hex in self.state.occupied_hexes() {
            if self.state.active_face_up(hex, Side::Beeler).is_empty() {
                continue;
            }
            // 9.1: mercenary face-down units where a beeler unit is face-up.
            for id in self.state.face_down_in(hex, Side::Mercenary) {
                if let Some(ev) = self.state.reveal(&id) {
                    fire("9.1");
                    self.log.public(format!("{}: {ev} (9.1)", self.tag));
                }
            }
        }
        let mut bases = BTreeSet::new();
        let list: Vec<(Hex, String)> = self
            .state
            .map
            .bases
            .iter()
            .filter(|b| b.base_attack.is_some())
            .map(|b| (b.hex, b.name.clone()))
            .collect();
        for (hex, name) in list {
            let Some(owner) = self.state.control_of(hex).side() else {
                continue;
            };
            if self.state.present(hex, owner.other()).is_empty() {
                continue;
            }
            // 9.3: every unit there flips face-up and a combat happens.
            let mut reveals: Vec<String> = self.state.face_down_in(hex, owner.other());
            reveals.extend(self.state.face_down_in(hex, owner));
            let mut tokens: Vec<(String, String)> = reveals
                .iter()
                .map(|id| (self.state.public_name(id), id.clone()))
                .collect();
            tokens.sort();
            for (_, id) in tokens {
                if let Some(ev) = self.state.reveal(&id) {
                    self.log.public(format!("{}: {ev} (9.3)", self.tag));
                }
            }
            fire("9.3");
            self.log.public(format!(
                "{}: enemy units in {name} ({hex}): a base combat (9.3)",
                self.tag
            ));
            bases.insert(hex);
        }
        bases
    }

    fn list(&self, hex: Hex, side: Side) -> String {
        let up = self.state.active_face_up(hex, side);
        let down: Vec<String> = self
            .state
            .face_down_in(hex, side)
            .iter()
            .map(|id| self.state.public_name(id))
            .collect();
        let mut downs = down;
        downs.sort_by_key(|t| t.split('#').nth(1).and_then(|n| n.parse::<u32>().ok()));
        let mut s = up.join(", ");
        if !downs.is_empty() {
            if !s.is_empty() {
                s.push_str("; ");
            }
            s.push_str(&format!("face-down {}", downs.join(", ")));
        }
        if s.is_empty() { "none".into() } else { s }
    }

    fn resolve(&mut self, hex: Hex, base_combat: bool, visit: u32) {
        let tag = if visit > 1 {
            format!("{}/combat/{hex}/visit{visit}", self.tag)
        } else {
            format!("{}/combat/{hex}", self.tag)
        };
        self.log.public(format!(
            "{tag}: mercenary {} vs beeler {}",
            self.list(hex, Side::Mercenary),
            self.list(hex, Side::Beeler)
        ));
        let mut took_part: BTreeSet<String> = BTreeSet::new();
        let note = |s: &State, took: &mut BTreeSet<String>| {
            for &side in Side::ALL {
                took.extend(s.active_face_up(hex, side));
            }
        };
        note(self.state, &mut took_part);
        if !base_combat {
            fire("9.2");
        }
        if Side::ALL.iter().any(|s| {
            self.state
                .side_units_in(hex, *s)
                .iter()
                .any(|u| self.state.unit(u).is_some_and(|u| !u.face_up))
        }) {
            // 9.5: face-down units and acted helis there take no part.
            fire("9.5");
        }
        stages::combat_start(self.state, hex, &took_part);
        // Who destroyed whom (A16), for the stage checks after the combat (12.5, 12.8).
        let mut kills = Kills::new();
        // The last round whose Strike Dog arrival check was made (12.10).
        let mut sd_round = 0;
        // Units each side has lost in this combat (D9 `lost_ge`).
        let mut lost: PerSide<u32> = PerSide::default();
        // 9.12: the controller's base attack, before round 1. 9.12.2: once only, so a hex
        // fought again in this phase (A12, `visit` > 1) gets none.
        let base = self.state.map.base_at(hex).cloned();
        if visit == 1
            && let Some(b) = &base
            && let Some(ba) = b.base_attack
            && let Some(owner) = self.state.control_of(hex).side()
        {
            fire("9.12.2");
            let hits = self.base_attack(hex, owner, ba.attack, ba.count, &tag);
            stages::add_kills(&mut kills, &hits);
            tally(self.state, &mut lost, &hits);
            // 12.10: Strike Dog may arrive at the start of round 1, even with no defender left.
            stages::round_start(self.state, self.dice, self.log, hex, &tag, 1, &mut sd_round);
            if self.state.active_face_up(hex, owner).is_empty() {
                // 9.3: with no defender there, the base attack alone resolves the combat.
                self.log.public(format!(
                    "{tag}: no {} unit defends {}: the combat ends after the base attack (9.3)",
                    owner.name(),
                    b.name
                ));
                self.after_combat(&tag, &took_part, &kills);
                return;
            }
        } else if base_combat {
            // Not reachable: base combats only happen in bases with a base attack.
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut round = 0;
        loop {
            round += 1;
            stages::round_start(
                self.state,
                self.dice,
                self.log,
                hex,
                &tag,
                round,
                &mut sd_round,
            );
            if let Flow::End = self.fronts(hex, &tag, round) {
                break;
            }
            note(self.state, &mut took_part);
            if round > MAX_ROUNDS {
                self.log.public(format!(
                    "{tag}: {MAX_ROUNDS} rounds fought: the combat ends as a standoff ({})",
                    super::ruling("9.7", "A13", "at most 50 rounds")
                ));
                break;
            }
            let m = self.state.active_face_up(hex, Side::Mercenary);
            let b = self.state.active_face_up(hex, Side::Beeler);
            groups = pair(self.state, hex, &m, &b, &groups, self.phase_player);
            stages::duel_groups(self.state, &mut groups); // 13.1
            let mut aims = targets(self.state, hex, &groups);
            stages::duel_targets(self.state, &mut aims); // 13.1
            fire("9.6");
            let desc: Vec<String> = groups
                .iter()
                .map(|g| format!("[{} | {}]", g.m.join(" "), g.b.join(" ")))
                .collect();
            self.log
                .public(format!("{tag}/r{round}: pairing {} (9.8)", desc.join(" ")));
            // A13: if nobody can hit at all, the phase player must retreat, else the other.
            if aims.iter().all(|(a, t)| hit(self.state, a, t) < 2) {
                self.log.public(format!(
                    "{tag}/r{round}: no unit can destroy its target: a side retreats ({})",
                    super::ruling("9.7", "A13", "a combat nobody can win must end")
                ));
                let pp = self.phase_player;
                if self.retreat(hex, pp, &tag) == Retreated::No
                    && self.retreat(hex, pp.other(), &tag) == Retreated::No
                {
                    self.log.public(format!(
                        "{tag}: neither side can retreat: standoff ({})",
                        super::ruling("9.7", "A13", "a combat nobody can win must end")
                    ));
                }
                break;
            }
            // 9.9: every unit attacks its target; damage is applied at once afterwards (9.10.1).
            let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (a, t) in &aims {
                let label = format!("{tag}/r{round}/atk/{a}");
                let n = hit(self.state, a, t);
                if n < 2 {
                    // 9.9.3: 2D is never below 2, so this attack cannot succeed; it is neither
                    // rolled nor shown (each roll has its own label, so the others are unchanged).
                    continue;
                }
                let roll = self.dice.two_d6(&label);
                for r in ["2.1.2", "9.9.1", "9.9.2", "9.9.3"] {
                    fire(r);
                }
                let ok = i64::from(roll) <= n;
                let text = format!(
                    "{a} ({}) at {t} ({}): need 2D <= {n}, rolled {roll}: {}",
                    self.state.values(a).attack,
                    self.state.values(t).defense,
                    if ok { "destroyed" } else { "missed" }
                );
                self.dice.set_result(&label, text.clone());
                self.log.public(format!("{tag}/r{round}: {text} (9.9.3)"));
                if ok {
                    hits.entry(t.clone()).or_default().push(a.clone());
                }
            }
            if !hits.is_empty() {
                fire("9.9.4");
            }
            self.apply_losses(&hits, &tag);
            tally(self.state, &mut lost, &hits);
            stages::add_kills(&mut kills, &hits);
            stages::after_losses(self.state, self.log, &tag, &hits); // 13.2
            if let Flow::End = self.decide(hex, &tag, round, &lost) {
                break;
            }
            // 12.10: the Kiriko check at the end of a palace round with Strike Dog.
            stages::round_end(self.state, self.dice, self.log, hex, &tag, round);
        }
        fire("9.7");
        self.after_combat(&tag, &took_part, &kills);
    }

    /// Before a round: a side left with only face-down units against face-up enemies must
    /// retreat (9.11.3); with nowhere to go it flips them face-up and fights (9.11.8). A side
    /// with nothing left, or no face-up units on either side, ends the combat (9.7).
    fn fronts(&mut self, hex: Hex, tag: &str, round: u32) -> Flow {
        let m_up = self.state.active_face_up(hex, Side::Mercenary);
        let b_up = self.state.active_face_up(hex, Side::Beeler);
        if !m_up.is_empty() && !b_up.is_empty() {
            return Flow::Fight;
        }
        if m_up.is_empty() && b_up.is_empty() {
            self.log.public(format!(
                "{tag}: no face-up units remain on either side: the combat ends (9.7)"
            ));
            return Flow::End;
        }
        let loser = if m_up.is_empty() {
            Side::Mercenary
        } else {
            Side::Beeler
        };
        if self.state.face_down_in(hex, loser).is_empty() {
            self.log.public(format!(
                "{tag}: the {} side has no units left: the combat ends (9.7)",
                loser.name()
            ));
            return Flow::End;
        }
        fire("9.11.3");
        self.log.public(format!(
            "{tag}: the {} side has only face-down units left: forced retreat (9.11.3)",
            loser.name()
        ));
        if self.retreat(hex, loser, tag) == Retreated::All {
            return Flow::End;
        }
        // 9.11.12 (A42): a PS forced to retreat with no legal hex leaves the combat; the others,
        // and Proto One which may not leave the palace (5.9.3), follow 9.11.8.
        self.ps_go_home(hex, loser, tag);
        if self.state.face_down_in(hex, loser).is_empty() {
            self.log.public(format!(
                "{tag}: the {} side has no units left: the combat ends (9.7)",
                loser.name()
            ));
            return Flow::End;
        }
        self.flip_all(hex, loser, tag, "9.11.8");
        let _ = round;
        Flow::Fight
    }

    /// 9.11.12 (A42): every PS of `side` in `hex` (either face) that was forced to retreat and
    /// has no legal hex leaves the combat at once and returns face-up to the palace at the end of
    /// the phase; it is not destroyed (no VP, 10.2). Not Proto One: 5.9.3 only forbids its
    /// moving, so it stays in the palace and fights on (9.11.8); 9.11.12 sends a PS *back* to
    /// the palace, which is where Proto One already is.
    fn ps_go_home(&mut self, hex: Hex, side: Side, tag: &str) {
        let ps: Vec<String> = self
            .state
            .side_units_in(hex, side)
            .into_iter()
            .filter(|u| {
                self.state.counters.is_ps(u) && self.state.role_of(u) != Some(Role::ProtoOne)
            })
            .collect();
        for p in ps {
            let name = self.state.public_name(&p);
            let who = if name == p {
                p.clone()
            } else {
                format!("{name} is {p}, which")
            };
            fire("9.11.12");
            self.state.set_off_map(&p, Place::Returning, true);
            self.log.public(format!(
                "{tag}: {who} cannot retreat and returns to the palace at the end of the phase (9.11.12)"
            ));
        }
    }

    fn flip_all(&mut self, hex: Hex, side: Side, tag: &str, rule: &str) {
        let mut downs: Vec<(u32, String)> = self
            .state
            .face_down_in(hex, side)
            .into_iter()
            .map(|id| (self.state.unit(&id).and_then(|u| u.token).unwrap_or(0), id))
            .collect();
        downs.sort();
        for (_, id) in downs {
            if let Some(ev) = self.state.reveal(&id) {
                fire("9.11.8");
                self.log.public(format!(
                    "{tag}: {ev}: no retreat hex, flipped face-up to fight on ({rule})"
                ));
            }
        }
    }

    /// After damage: each side chooses retreat or continue, the phase player first (9.11.1,
    /// 9.11.2), by its `retreat` policy in force in the hex (D9); the PS-only check (9.11.4) may
    /// force a retreat. `lost` counts each side's units destroyed in this combat so far.
    pub(super) fn decide(&mut self, hex: Hex, tag: &str, round: u32, lost: &PerSide<u32>) -> Flow {
        let pp = self.phase_player;
        for side in [pp, pp.other()] {
            let own = self.state.active_face_up(hex, side);
            let enemy = self.state.active_face_up(hex, side.other());
            // 9.11.1: the phase player chooses first, even when the other side has only
            // face-down units left and so must retreat (9.11.3): if the phase player retreats,
            // the other side cannot (9.11.2).
            let other_forced = side == pp
                && !own.is_empty()
                && enemy.is_empty()
                && !self.state.face_down_in(hex, side.other()).is_empty();
            if (own.is_empty() || enemy.is_empty()) && !other_forced {
                return Flow::Fight; // handled by `fronts` (forced retreat or end)
            }
            fire("9.11.1");
            if side == Side::Beeler && own.iter().all(|u| self.state.counters.is_ps(u)) {
                let label = format!("{tag}/r{round}/ps-check");
                let d = self.dice.d6(&label);
                fire("9.11.4");
                let forced = d <= 3;
                self.dice.set_result(
                    &label,
                    if forced {
                        "1-3: forced retreat"
                    } else {
                        "4-6: free choice"
                    },
                );
                self.log.public(format!(
                    "{tag}/r{round}: only PS face-up: 1D = {d}: {} (9.11.4)",
                    if forced {
                        "forced retreat"
                    } else {
                        "may continue"
                    }
                ));
                if forced {
                    match self.retreat(hex, side, tag) {
                        Retreated::All => return Flow::End,
                        // 9.11.2: whoever decides second cannot retreat now; Proto One fights on.
                        Retreated::ProtoOneStays => return Flow::Fight,
                        Retreated::No => {}
                    }
                    // 9.11.12 (A42): PS that cannot retreat leave the combat and go home at the
                    // end of the phase; other units (and Proto One, 5.9.3) follow 9.11.8.
                    self.ps_go_home(hex, side, tag);
                    self.flip_all(hex, side, tag, "9.11.8");
                    continue;
                }
            }
            let rule = self.state.policies.get(side).at(hex).retreat;
            let facts = tactics::Facts {
                round,
                lost: *lost.get(side),
                own: &own,
                enemy: &enemy,
            };
            if tactics::wants_retreat(self.state, &rule, &facts) {
                match self.retreat(hex, side, tag) {
                    Retreated::All => {
                        if side == pp {
                            fire("9.11.2");
                        }
                        return Flow::End; // 9.11.2: the other side cannot retreat now
                    }
                    Retreated::ProtoOneStays => {
                        if side == pp {
                            fire("9.11.2");
                        }
                        return Flow::Fight; // 9.11.2, and 9.11.8
                    }
                    Retreated::No => fire_then(
                        self.log,
                        "9.11.8",
                        format!(
                            "{tag}: the {} side would retreat but has no legal hex: it fights on (9.11.8)",
                            side.name()
                        ),
                    ),
                }
            }
            if other_forced {
                // The other side's forced retreat (9.11.3) follows at the start of the next
                // round (`fronts`).
                return Flow::Fight;
            }
        }
        Flow::Fight
    }

    /// Moves all of `side`'s units out of `hex` (9.11.9) to the legal hexes ranked by its
    /// `retreat_to` policy there (D10): all to the best hex (`together`), in turn to each legal
    /// hex (`spread`), or group by group (`groups`); Strike Dog keeps to its zone
    /// (`stages::zone_retreat`). Proto One stays (5.9.3).
    pub(super) fn retreat(&mut self, hex: Hex, side: Side, tag: &str) -> Retreated {
        let units = self.state.side_units_in(hex, side);
        let (helis, ground): (Vec<String>, Vec<String>) =
            units.into_iter().partition(|u| self.state.is_heli(u));
        let dests = retreat_hexes(self.state, side, hex);
        // 5.9.3: Proto One may not move out of the palace, so it has no retreat hex; the book
        // says nothing more, and a unit with no retreat hex fights on (9.11.8). So the others
        // may retreat (9.11.9 lets them split) and Proto One stays and fights on; alone it
        // cannot retreat at all.
        let (stuck, ground): (Vec<String>, Vec<String>) = ground
            .into_iter()
            .partition(|u| self.state.role_of(u) == Some(Role::ProtoOne));
        if !stuck.is_empty() && ground.is_empty() && helis.is_empty() {
            return Retreated::No;
        }
        if dests.is_empty() && !ground.is_empty() {
            return Retreated::No;
        }
        // 12.10, 12.12: Strike Dog retreats only within 3 hexes of the palace.
        let Some(ground) = stages::zone_retreat(self.state, self.log, tag, ground, &dests) else {
            return Retreated::No;
        };
        for p in &stuck {
            fire("5.9.3");
            fire("9.11.8");
            let name = self.state.public_name(p);
            self.log.public(format!(
                "{tag}: {name} may not leave the palace (5.9.3): it stays and fights on (9.11.8)"
            ));
        }
        let ex10 = self.state.map.home(Side::Mercenary);
        for h in &helis {
            self.state.set_hex(h, ex10);
            if let Some(mut u) = self.state.units.get_mut(h) {
                u.face_up = false;
            }
        }
        if !helis.is_empty() {
            fire("9.11.9");
            self.log.public(format!(
                "{tag}: helis {} retreat straight to EX-10 and are acted (9.11.9)",
                helis.join(", ")
            ));
        }
        let ground = tactics::public_order(self.state, &ground);
        let rule = self.state.policies.get(side).at(hex).retreat_to;
        // 9.11.9: the units may split. Each unit goes with the first group naming it, the rest
        // with the rule itself; each takes the legal hexes in its own ranking, all to the best
        // (`together`) or in turn to each (`spread`), in the public order.
        let mut count: Vec<usize> = vec![0; rule.groups.len() + 1];
        let plan: Vec<(String, Hex)> = ground
            .iter()
            .filter_map(|u| {
                let g = rule.groups.iter().position(|g| {
                    g.units
                        .iter()
                        .any(|sel| tactics::matches(self.state, sel, u))
                });
                let (ranked, split) = match g {
                    Some(g) => {
                        let grp = &rule.groups[g];
                        let prefer = grp.prefer.as_ref().unwrap_or(&rule.prefer);
                        let ranked =
                            ranked_retreat_hexes(self.state, side, hex, &grp.hexes, prefer);
                        (ranked, grp.split)
                    }
                    None => (dests.clone(), rule.split),
                };
                let slot = &mut count[g.unwrap_or(rule.groups.len())];
                let k = *slot;
                *slot += 1;
                let to = match split {
                    Split::Together => ranked.first(),
                    Split::Spread => ranked.get(k % ranked.len().max(1)),
                };
                to.map(|d| (u.clone(), *d))
            })
            .collect();
        for d in &dests {
            let movers: Vec<String> = plan
                .iter()
                .filter(|(_, to)| to == d)
                .map(|(u, _)| u.clone())
                .collect();
            if movers.is_empty() {
                continue;
            }
            let names: Vec<String> = movers.iter().map(|u| self.state.public_name(u)).collect();
            // 9.11.5-9.11.7, 9.11.9, 9.11.10: the units go, split if the policy says so, to
            // hexes judged legal and ranked now, in the side's retreat directions.
            for r in ["9.11.5", "9.11.6", "9.11.7", "9.11.9", "9.11.10"] {
                fire(r);
            }
            if barred_by_base_attack(self.state, side, hex) {
                fire("9.11.11");
            }
            for u in &movers {
                self.state.set_hex(u, *d);
            }
            let mut ev = format!(
                "{tag}: the {} side retreats {} to {d} (9.11.9, 9.11.10)",
                side.name(),
                names.join(", ")
            );
            // 11.3: face-down units retreating into Nuba flip face-up.
            if self.state.map.is_nuba(*d) {
                for u in &movers {
                    if let Some(r) = self.state.reveal(u) {
                        fire("11.1");
                        fire("11.3");
                        ev.push_str(&format!("; {r} (11.3)"));
                    }
                }
            }
            self.log.public(ev);
        }
        if stuck.is_empty() {
            Retreated::All
        } else {
            Retreated::ProtoOneStays
        }
    }

    /// 9.12: the controller fires `count` attacks of strength `attack` at the enemy's face-up
    /// units, as `base_attack_plan` allocates them. Returns who destroyed whom.
    fn base_attack(&mut self, hex: Hex, owner: Side, attack: u32, count: u32, tag: &str) -> Kills {
        let plan = base_attack_plan(self.state, hex, owner, attack, count);
        if !plan.is_empty() {
            fire("9.12.3");
        }
        let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (k, t) in plan.iter().enumerate() {
            let label = format!("{tag}/base/a{}/{t}", k + 1);
            let need = i64::from(attack) - i64::from(self.state.values(t).defense);
            if need < 2 {
                // 9.9.3: an attack that cannot succeed is neither rolled nor shown.
                continue;
            }
            let roll = self.dice.two_d6(&label);
            fire("2.1.2");
            fire("9.9.3");
            fire("9.12.1");
            let ok = i64::from(roll) <= need;
            let text = format!(
                "base attack {} ({attack}) at {t} ({}): need 2D <= {need}, rolled {roll}: {}",
                k + 1,
                self.state.values(t).defense,
                if ok { "destroyed" } else { "missed" }
            );
            self.dice.set_result(&label, text.clone());
            self.log.public(format!("{tag}: {text} (9.12)"));
            if ok {
                hits.entry(t.clone()).or_default().push("base".into());
            }
        }
        if !hits.is_empty() {
            fire("9.12.4");
        }
        self.apply_losses(&hits, tag);
        hits
    }

    /// 9.10 with the VP of 10.1 and 10.2 scored first (9.10.3).
    fn apply_losses(&mut self, hits: &BTreeMap<String, Vec<String>>, tag: &str) {
        for (dead, by) in hits {
            let Some(side) = self.state.side_of(dead) else {
                continue;
            };
            let mut vp_notes = Vec::new();
            fire("9.10.1");
            fire("9.10.2");
            match side {
                Side::Beeler => {
                    if self.state.counters.is_ps(dead) {
                        if stages::kiriko_only_kill(self.state, by) {
                            fire("10.2");
                            vp_notes.push("no VP: Kiriko's kill in stage 6 (10.2)".to_string());
                        } else {
                            fire("10.2");
                            self.state.vp[Side::Mercenary] += 5;
                            vp_notes.push("mercenary +5 VP (10.2)".to_string());
                        }
                    } else if self.state.class_of(dead) == Some(Class::At) {
                        fire("10.1");
                        self.state.vp[Side::Beeler] += 1;
                        vp_notes.push("beeler +1 VP for its own AT (10.1)".to_string());
                    }
                }
                Side::Mercenary => {
                    let by_ps = by.iter().any(|a| {
                        matches!(self.state.role_of(a), Some(Role::BlueAt | Role::StrikeDog))
                    });
                    if by_ps {
                        fire("10.1");
                        let v = experience(self.state, dead);
                        self.state.vp[Side::Beeler] += i64::from(v);
                        vp_notes.push(format!("beeler +{v} VP PS experience (10.1)"));
                    }
                }
            }
            if !vp_notes.is_empty() {
                // 9.10.3: the VP are scored before the unit leaves the map.
                fire("9.10.3");
            }
            let whither = if self.state.is_heli(dead) {
                self.state.set_off_map(dead, Place::Stock, true);
                "to stock"
            } else {
                match self.state.role_of(dead) {
                    Some(Role::Kanyu | Role::BlueAt | Role::StrikeDog | Role::ProtoOne) => {
                        fire("9.10.4");
                        self.state.set_off_map(dead, Place::Returning, true);
                        "home at the end of the phase (9.10.4)"
                    }
                    Some(Role::Kiriko) => {
                        if by
                            .iter()
                            .any(|a| self.state.role_of(a) == Some(Role::StrikeDog))
                        {
                            // 13.3: Strike Dog's kill removes Kiriko; it attacks freely after.
                            fire("13.3");
                        }
                        self.state.set_off_map(dead, Place::Removed, true);
                        "removed from the game (12.10; ruling A17: Kiriko destroyed is removed, docs/kummen.md \"Decisions on ambiguities\")"
                    }
                    None => {
                        self.state.set_off_map(dead, Place::Cup, false);
                        "back into its cup"
                    }
                }
            };
            let mut ev = format!("{tag}: {dead} destroyed, {whither} (9.10.2)");
            if !vp_notes.is_empty() {
                ev.push_str(&format!("; {}", vp_notes.join("; ")));
            }
            self.log.public(ev);
        }
    }

    /// After one hex's combat: the stage checks (12.4, 12.5, 12.8) and Kiriko back to stock.
    fn after_combat(&mut self, tag: &str, took_part: &BTreeSet<String>, kills: &Kills) {
        stages::after_combat(self.state, self.dice, self.log, tag, took_part, kills);
    }

    /// End of the combat phase (default A47): control (2.3.1), heli return (9.13), Kan-Yu and PS
    /// home (9.10.4, 9.11.12).
    fn end_of_phase(&mut self) {
        control::check_bases(self.state, self.log);
        let ex10 = self.state.map.home(Side::Mercenary);
        let away: Vec<String> = self
            .state
            .units
            .iter()
            .filter(|(id, u)| {
                self.state.is_heli(id) && u.place == Place::Map && u.hex != Some(ex10)
            })
            .map(|(id, _)| id.clone())
            .collect();
        // 9.13.4 (policy D11): each heli, in id order, may carry one AT or soldier home.
        let mut taken: BTreeSet<String> = BTreeSet::new();
        let mut cargo: Vec<(String, Hex, String)> = Vec::new();
        for h in &away {
            if let Some(from) = self.state.hex_of(h)
                && let Some(c) = tactics::return_cargo(self.state, from, &taken)
            {
                taken.insert(c.clone());
                cargo.push((h.clone(), from, c));
            }
        }
        for h in &away {
            self.state.set_hex(h, ex10);
            if let Some(mut u) = self.state.units.get_mut(h) {
                u.face_up = false;
            }
        }
        if !away.is_empty() {
            // 9.13.1-9.13.3: helis away held their hexes at the control check just made, then
            // fly home acted, whatever the distance and whoever is in the way.
            for r in ["9.13.1", "9.13.2", "9.13.3"] {
                fire(r);
            }
            self.log.public(format!(
                "{}: helis {} return to EX-10 and are acted (9.13)",
                self.tag,
                away.join(", ")
            ));
        }
        for (h, from, c) in cargo {
            let shown = match self.state.reveal(&c) {
                Some(r) => format!("{r}, flipped face-up (5.11.5)"),
                None => c.clone(),
            };
            fire("9.13.4");
            self.state.set_hex(&c, ex10);
            self.log.public(format!(
                "{}: heli {h} carries {shown} from {from} to EX-10 (9.13.4)",
                self.tag
            ));
        }
        for &side in Side::ALL {
            for id in self.state.off_map(side, Place::Returning) {
                let home = self.state.map.home(side);
                if self.state.control_of(home) == Control::of(side.other()) {
                    self.state.set_off_map(&id, Place::Removed, true);
                    self.log.public(format!(
                        "{}: {id} cannot go home, its home base is lost: removed from the game (9.10.4)",
                        self.tag
                    ));
                } else {
                    fire("9.10.4");
                    self.state.set_hex(&id, home);
                    if let Some(mut u) = self.state.units.get_mut(&id) {
                        u.face_up = true;
                        u.token = None;
                    }
                    self.log.public(format!(
                        "{}: {id} returns face-up to its home base {home} (9.10.4)",
                        self.tag
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;
    use crate::protocol::hash::Hash32;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn retreat_directions_for_beeler_are_n_nw_sw_9_11_10() {
        let s = blank();
        // J is the 10th letter, so column J sits half a hex south: from J07, N is J06, NW is
        // K07 and SW is K08.
        let v = retreat_hexes(&s, Side::Beeler, h("J07"));
        let set: BTreeSet<Hex> = v.into_iter().collect();
        assert_eq!(set, [h("J06"), h("K07"), h("K08")].into_iter().collect());
    }

    #[test]
    fn retreat_directions_for_mercenary_are_ne_se_s_9_11_10() {
        let s = blank();
        let v = retreat_hexes(&s, Side::Mercenary, h("J07"));
        let set: BTreeSet<Hex> = v.into_iter().collect();
        // From J07: NE I07, SE I08, S J08.
        assert_eq!(set, [h("I07"), h("I08"), h("J08")].into_iter().collect());
    }

    #[test]
    fn retreat_prefers_own_base_then_own_units_and_skips_face_up_enemies_9_11_5() {
        let mut s = blank();
        // K07 is EX-6 (a beeler base): first choice from J07.
        assert_eq!(retreat_hexes(&s, Side::Beeler, h("J07"))[0], h("K07"));
        put(&mut s, "M-AT01", "K07", true);
        let v = retreat_hexes(&s, Side::Beeler, h("J07"));
        assert!(!v.contains(&h("K07")));
        // A face-down enemy does not block (9.11.6).
        let mut s = blank();
        put(&mut s, "M-AT01", "K07", false);
        assert!(retreat_hexes(&s, Side::Beeler, h("J07")).contains(&h("K07")));
    }

    #[test]
    fn no_retreat_into_an_enemy_base_with_a_base_attack_even_empty_9_11_11() {
        let s = blank();
        // From H10, the mercenary EX-9 (G10) is... a beeler moving N/NW/SW from F10 reaches G10.
        let v = retreat_hexes(&s, Side::Beeler, h("F10"));
        assert!(!v.contains(&h("G10")), "{v:?}");
    }

    #[test]
    fn pairing_5_vs_3_never_makes_a_3_to_1_group_9_8_3() {
        let s = blank();
        let m = ids(&["M-AT01", "M-AT02", "M-AT03", "M-AT04", "M-AT05"]);
        let b = ids(&["B-AT01", "B-AT02", "B-AT03"]);
        for &pp in Side::ALL {
            let g = pair(&s, h("J07"), &m, &b, &[], pp);
            assert_eq!(g.len(), 3);
            let mut counts: Vec<usize> = g.iter().map(|g| g.m.len()).collect();
            counts.sort();
            assert_eq!(counts, vec![1, 2, 2]);
            assert!(g.iter().all(|g| g.b.len() == 1));
        }
    }

    #[test]
    fn ps_chooses_its_partner_first_9_8_2() {
        let s = blank();
        let m = ids(&["M-AT01", "M-SO01", "M-KANYU"]);
        let b = ids(&["B-BLUE", "B-SO01", "B-SO02"]);
        let g = pair(&s, h("J07"), &m, &b, &[], Side::Mercenary);
        // Blue AT 13 vs Kan-Yu (def 5): p36(8)=26 x 5 = 130; vs AT (def 4): 30 x 4 = 120;
        // vs soldier (def 2): 35 x 2 = 70. Kan-Yu is chosen.
        let blue = g
            .iter()
            .find(|g| g.b.contains(&"B-BLUE".to_string()))
            .unwrap();
        assert_eq!(blue.m, ids(&["M-KANYU"]));
        assert_eq!(blue.b, ids(&["B-BLUE"]));
    }

    #[test]
    fn free_units_are_repaired_and_balanced_in_later_rounds_9_8_5() {
        let s = blank();
        let prev = vec![
            Group {
                m: ids(&["M-AT01"]),
                b: ids(&["B-AT01"]),
            },
            Group {
                m: ids(&["M-AT02"]),
                b: ids(&["B-AT02", "B-AT03"]),
            },
        ];
        // M-AT01's partner B-AT01 died: M-AT01 is free and joins a group; balance holds.
        let g = pair(
            &s,
            h("J07"),
            &ids(&["M-AT01", "M-AT02"]),
            &ids(&["B-AT02", "B-AT03"]),
            &prev,
            Side::Beeler,
        );
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].m.len(), 2);
    }

    #[test]
    fn targets_are_the_easiest_enemy_in_the_group_9_8_4() {
        let s = blank();
        let g = vec![Group {
            m: ids(&["M-AT01"]),
            b: ids(&["B-AT01", "B-SO01"]),
        }];
        let t = targets(&s, h("J07"), &g);
        assert_eq!(t["M-AT01"], "B-SO01");
        assert_eq!(t["B-AT01"], "M-AT01");
    }

    fn run(s: &mut State, seed: u8, pp: Side) -> Log {
        let mut d = Dice::new(Hash32([seed; 32]), Hash32([9; 32]));
        let mut log = Log::default();
        CombatPhase {
            state: s,
            dice: &mut d,
            log: &mut log,
            phase_player: pp,
            tag: "t1/p4".into(),
        }
        .run();
        assert!(d.finish().is_ok(), "a dice label was reused");
        log
    }

    #[test]
    fn face_up_beeler_forces_mercenary_face_down_units_up_9_1() {
        let mut s = blank();
        put(&mut s, "B-SO01", "J07", true);
        put(&mut s, "M-AT01", "J07", false);
        let log = run(&mut s, 1, Side::Beeler);
        assert!(
            log.public.iter().any(|e| e.contains("(9.1)")),
            "{:?}",
            log.public
        );
        assert!(log.public.iter().any(|e| e.contains("combat/J07")));
    }

    #[test]
    fn beeler_face_down_units_stay_hidden_when_mercenary_is_face_up_9_1_9_2() {
        let mut s = blank();
        put(&mut s, "M-AT01", "J07", true);
        put(&mut s, "B-SO01", "J07", false);
        let log = run(&mut s, 1, Side::Beeler);
        assert!(!s.unit("B-SO01").unwrap().face_up);
        assert!(
            log.public.iter().any(|e| e == "t1/p4: no combat"),
            "{:?}",
            log.public
        );
    }

    #[test]
    fn combat_ends_with_one_side_gone_and_losses_go_to_the_cup_9_10_2() {
        // Try seeds until a loss happens; every outcome must keep the invariants.
        for seed in 0..20u8 {
            let mut s = blank();
            put(&mut s, "M-AT01", "J07", true);
            put(&mut s, "M-AT02", "J07", true);
            put(&mut s, "B-SO01", "J07", true);
            s.policies[Side::Beeler].retreat = super::super::orders::RetreatWhen::Never;
            s.policies[Side::Mercenary].retreat = super::super::orders::RetreatWhen::Never;
            run(&mut s, seed, Side::Beeler);
            let m = s.active_face_up(h("J07"), Side::Mercenary);
            let b = s.active_face_up(h("J07"), Side::Beeler);
            assert!(
                m.is_empty() || b.is_empty(),
                "combat must end with one side gone"
            );
            for id in ["M-AT01", "M-AT02", "B-SO01"] {
                let u = s.unit(id).unwrap();
                if u.place == Place::Cup {
                    assert!(s.cups.get(s.side_of(id).unwrap()).contains(id));
                }
            }
        }
    }

    #[test]
    fn outnumbered_side_retreats_towards_home_9_11() {
        // 3 M soldiers vs 1 B AT; when both survive round 1 the beeler is outnumbered.
        let mut seen_retreat = false;
        for seed in 0..40u8 {
            let mut s = blank();
            put(&mut s, "M-SO01", "J07", true);
            put(&mut s, "M-SO02", "J07", true);
            put(&mut s, "M-SO03", "J07", true);
            put(&mut s, "B-AT01", "J07", true);
            s.policies[Side::Beeler].retreat = super::super::orders::RetreatWhen::Outnumbered;
            let log = run(&mut s, seed, Side::Mercenary);
            if log
                .public
                .iter()
                .any(|e| e.contains("beeler side retreats"))
            {
                seen_retreat = true;
                let at = s.hex_of("B-AT01").unwrap();
                assert!([h("J06"), h("K07"), h("K08")].contains(&at), "{at}");
            }
        }
        assert!(seen_retreat);
    }

    #[test]
    fn base_attack_fires_before_round_one_and_b_scores_its_lost_ats_9_12_10_1() {
        let mut s = blank();
        // A beeler AT alone in EX-9 (mercenary, 7 x 3): 9.3 base combat, base attack only.
        put(&mut s, "B-AT01", "G10", false);
        let before = s.vp[Side::Beeler];
        let log = run(&mut s, 3, Side::Beeler);
        assert!(log.public.iter().any(|e| e.contains("(9.3)")));
        let shots = log.public.iter().filter(|e| e.contains("(9.12)")).count();
        assert_eq!(shots, 3, "{:?}", log.public);
        let dead = s.unit("B-AT01").unwrap().place == Place::Cup;
        assert_eq!(s.vp[Side::Beeler] - before, i64::from(dead));
        if !dead {
            // Survivors take control at the check (2.3.3-1).
            assert_eq!(s.control_of(h("G10")), Control::Beeler);
        }
    }

    #[test]
    fn helis_return_acted_at_the_end_of_the_phase_9_13() {
        let mut s = blank();
        put(&mut s, "M-H01", "K05", true);
        run(&mut s, 1, Side::Beeler);
        assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
        assert!(!s.unit("M-H01").unwrap().face_up);
    }

    #[test]
    fn a_destroyed_ps_scores_5_for_mercenary_and_goes_home_9_10_4_10_2() {
        for seed in 0..60u8 {
            let mut s = blank();
            put(&mut s, "B-BLUE", "J07", true);
            for k in 1..=4 {
                put(&mut s, &format!("M-AT0{k}"), "J07", true);
            }
            s.policies[Side::Mercenary].retreat = super::super::orders::RetreatWhen::Never;
            let mvp = s.vp[Side::Mercenary];
            let log = run(&mut s, seed, Side::Mercenary);
            if log.public.iter().any(|e| e.contains("B-BLUE destroyed")) {
                assert_eq!(s.vp[Side::Mercenary] - mvp, 5);
                assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
                assert!(s.unit("B-BLUE").unwrap().face_up);
                return;
            }
        }
        panic!("no seed destroyed Blue AT");
    }

    #[test]
    fn forced_retreat_when_only_face_down_units_remain_9_11_3() {
        for seed in 0..60u8 {
            let mut s = blank();
            put(&mut s, "M-AT01", "J07", true);
            put(&mut s, "M-AT02", "J07", true);
            put(&mut s, "B-SO01", "J07", true);
            put(&mut s, "B-SO02", "J07", false);
            s.policies[Side::Beeler].retreat = super::super::orders::RetreatWhen::Never;
            let log = run(&mut s, seed, Side::Beeler);
            if log.public.iter().any(|e| e.contains("B-SO01 destroyed")) {
                assert!(
                    log.public
                        .iter()
                        .any(|e| e.contains("forced retreat (9.11.3)")),
                    "{:?}",
                    log.public
                );
                let at = s.hex_of("B-SO02").unwrap();
                assert_ne!(at, h("J07"));
                assert!(
                    !s.unit("B-SO02").unwrap().face_up,
                    "retreating face-down units stay hidden (9.5)"
                );
                return;
            }
        }
        panic!("no seed destroyed B-SO01");
    }
}
