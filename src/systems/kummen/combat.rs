//! Combat phases (9): forced flips, combat hexes, base attacks, pairing, attack rolls, damage,
//! retreat, and the end of the phase (control, heli return, units going home).

use super::control;
use super::data::{Class, Control, Role, Side};
use super::state::{Log, Place, Stage, State};
use crate::kit::hex::{Dir, Hex};
use crate::protocol::dice::Dice;
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

/// Legal retreat hexes for `side` from `from`, best first (9.11.5, 9.11.6, 9.11.10, 9.11.11;
/// policy D10: own base, then a hex with own units, then an empty hex, then a hex with only
/// face-down enemies; ties by distance to the home base, then label).
pub fn retreat_hexes(state: &State, side: Side, from: Hex) -> Vec<Hex> {
    let home = state.map.home(side);
    let mut v: Vec<(u8, u32, Hex)> = Vec::new();
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
        let rank = if own_base {
            0
        } else if own_units {
            1
        } else if !enemies {
            2
        } else {
            3
        };
        v.push((rank, state.map.grid.distance(h, home), h));
    }
    v.sort();
    v.into_iter().map(|(_, _, h)| h).collect()
}

/// One pairing (9.8): units of both sides that attack within the group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    pub m: Vec<String>,
    pub b: Vec<String>,
}

impl Group {
    fn side(&self, s: Side) -> &Vec<String> {
        match s {
            Side::Mercenary => &self.m,
            Side::Beeler => &self.b,
        }
    }
    fn side_mut(&mut self, s: Side) -> &mut Vec<String> {
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
fn experience(state: &State, target: &str) -> u32 {
    if state.is_heli(target) {
        2
    } else {
        state.values(target).defense
    }
}

/// Order in which a side's units are handled: strongest attack first, then id.
fn by_strength(state: &State, ids: &mut [String]) {
    ids.sort_by(|a, b| {
        state
            .values(b)
            .attack
            .cmp(&state.values(a).attack)
            .then_with(|| a.cmp(b))
    });
}

/// Pairs the face-up units of a combat for one round (9.8.1-9.8.6), starting from the groups of
/// the previous round (empty in round 1).
///
/// Deterministic policy: each PS first takes the mercenary partner with the best expected
/// experience VP (D3; 9.8.2, 9.8.6); the phase player's other units, strongest first, each take
/// the free enemy they are most likely to hit (D4; 9.8.1); units left over go, strongest first,
/// to the group with fewest of their side (D5, D6; 9.8.3, 9.8.5); finally no two groups may
/// differ by 2 or more in either side's count (9.8.3, default A6).
pub fn pair(
    state: &State,
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
        let partner = m_alive
            .iter()
            .filter(|m| !taken.contains(*m))
            .max_by(|x, y| {
                let vx = p36(hit(state, p, x)) * experience(state, x);
                let vy = p36(hit(state, p, y)) * experience(state, y);
                vx.cmp(&vy)
                    .then_with(|| state.values(y).defense.cmp(&state.values(x).defense))
                    .then_with(|| y.cmp(x))
            })
            .cloned();
        if let Some(m) = partner {
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
    let mut free_m: Vec<String> = m_alive
        .iter()
        .filter(|u| !in_group.contains(*u))
        .cloned()
        .collect();
    let mut free_b: Vec<String> = b_alive
        .iter()
        .filter(|u| !in_group.contains(*u))
        .cloned()
        .collect();
    // 1-to-1 pairing of free units by the phase player (9.8.1).
    let (mut mine, mut theirs) = match phase_player {
        Side::Mercenary => (std::mem::take(&mut free_m), std::mem::take(&mut free_b)),
        Side::Beeler => (std::mem::take(&mut free_b), std::mem::take(&mut free_m)),
    };
    by_strength(state, &mut mine);
    let mut left_mine = Vec::new();
    for u in mine {
        let best = theirs
            .iter()
            .enumerate()
            .max_by(|(_, x), (_, y)| {
                p36(hit(state, &u, x))
                    .cmp(&p36(hit(state, &u, y)))
                    .then_with(|| y.cmp(x))
            })
            .map(|(i, _)| i);
        match best {
            Some(i) => {
                let t = theirs.remove(i);
                let mut g = Group::default();
                g.side_mut(phase_player).push(u);
                g.side_mut(phase_player.other()).push(t);
                groups.push(g);
            }
            None => left_mine.push(u),
        }
    }
    // Surplus units of one side spread over the groups (9.8.3, A8).
    for (side, mut rest) in [(phase_player, left_mine), (phase_player.other(), theirs)] {
        by_strength(state, &mut rest);
        for u in rest {
            if let Some(g) = groups.iter_mut().min_by_key(|g| g.side(side).len()) {
                g.side_mut(side).push(u);
            }
        }
    }
    // Balance over all groups (9.8.3, 9.8.5): move surplus units, never a PS.
    for side in [Side::Mercenary, Side::Beeler] {
        for _ in 0..64 {
            let (Some(hi), Some(lo)) = (
                (0..groups.len())
                    .max_by_key(|&i| (groups[i].side(side).len(), std::cmp::Reverse(i))),
                (0..groups.len()).min_by_key(|&i| (groups[i].side(side).len(), i)),
            ) else {
                break;
            };
            if groups[hi].side(side).len() < groups[lo].side(side).len() + 2 {
                break;
            }
            let pos = groups[hi]
                .side(side)
                .iter()
                .rposition(|u| !state.counters.is_ps(u));
            let Some(pos) = pos else { break };
            let u = groups[hi].side_mut(side).remove(pos);
            groups[lo].side_mut(side).push(u);
        }
    }
    groups
}

/// Target of each unit (9.8.4, 9.9.1; default A7, policy D7): the enemy in its group it is most
/// likely to destroy; ties by id.
pub fn targets(state: &State, groups: &[Group]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for g in groups {
        for (own, enemy) in [(&g.m, &g.b), (&g.b, &g.m)] {
            for u in own {
                let t = enemy.iter().max_by(|x, y| {
                    p36(hit(state, u, x))
                        .cmp(&p36(hit(state, u, y)))
                        .then_with(|| y.cmp(x))
                });
                if let Some(t) = t {
                    out.insert(u.clone(), t.clone());
                }
            }
        }
    }
    out
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

enum Flow {
    Fight,
    End,
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
        let base_combats = self.forced_flips();
        let mut pending: Vec<Hex> = self
            .state
            .occupied_hexes()
            .into_iter()
            .filter(|h| self.is_combat_hex(*h) || base_combats.contains(h))
            .collect();
        // 9.4 (policy D2): listed hexes first, then label order.
        let order = self.state.policy.get(self.phase_player).hex_order.clone();
        let mut ordered: Vec<Hex> = order
            .iter()
            .filter(|h| pending.contains(h))
            .copied()
            .collect();
        ordered.dedup();
        pending.retain(|h| !ordered.contains(h));
        ordered.extend(pending);
        if ordered.is_empty() {
            self.log.public(format!("{}: no combat", self.tag));
        }
        for hex in ordered {
            if self.is_combat_hex(hex) || base_combats.contains(&hex) {
                self.resolve(hex, base_combats.contains(&hex));
            }
        }
        self.end_of_phase();
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

    fn resolve(&mut self, hex: Hex, base_combat: bool) {
        let tag = format!("{}/combat/{hex}", self.tag);
        self.log.public(format!(
            "{tag}: mercenary {} vs beeler {}",
            self.list(hex, Side::Mercenary),
            self.list(hex, Side::Beeler)
        ));
        let mut took_part: BTreeSet<String> = BTreeSet::new();
        let note = |s: &State, took: &mut BTreeSet<String>| {
            for side in Side::BOTH {
                took.extend(s.active_face_up(hex, side));
            }
        };
        note(self.state, &mut took_part);
        // 9.12: the controller's base attack, once, before round 1.
        let base = self.state.map.base_at(hex).cloned();
        if let Some(b) = &base
            && let Some(ba) = b.base_attack
            && let Some(owner) = self.state.control_of(hex).side()
        {
            self.base_attack(hex, owner, ba.attack, ba.count, &tag);
            if self.state.active_face_up(hex, owner).is_empty() {
                // 9.3: with no defender there, the base attack alone resolves the combat.
                self.log.public(format!(
                    "{tag}: no {} unit defends {}: the combat ends after the base attack (9.3)",
                    owner.name(),
                    b.name
                ));
                self.after_combat(hex, &took_part);
                return;
            }
        } else if base_combat {
            // Not reachable: base combats only happen in bases with a base attack.
        }
        let mut groups: Vec<Group> = Vec::new();
        let mut round = 0;
        loop {
            round += 1;
            if let Flow::End = self.fronts(hex, &tag, round) {
                break;
            }
            note(self.state, &mut took_part);
            if round > MAX_ROUNDS {
                self.log.public(format!(
                    "{tag}: {MAX_ROUNDS} rounds fought: the combat ends as a standoff (A13)"
                ));
                break;
            }
            let m = self.state.active_face_up(hex, Side::Mercenary);
            let b = self.state.active_face_up(hex, Side::Beeler);
            groups = pair(self.state, &m, &b, &groups, self.phase_player);
            let aims = targets(self.state, &groups);
            let desc: Vec<String> = groups
                .iter()
                .map(|g| format!("[{} | {}]", g.m.join(" "), g.b.join(" ")))
                .collect();
            self.log
                .public(format!("{tag}/r{round}: pairing {} (9.8)", desc.join(" ")));
            // A13: if nobody can hit at all, the phase player must retreat, else the other.
            if aims.iter().all(|(a, t)| hit(self.state, a, t) < 2) {
                self.log.public(format!(
                    "{tag}/r{round}: no unit can destroy its target (A13)"
                ));
                let pp = self.phase_player;
                if !self.retreat(hex, pp, &tag) && !self.retreat(hex, pp.other(), &tag) {
                    self.log
                        .public(format!("{tag}: neither side can retreat: standoff (A13)"));
                }
                break;
            }
            // 9.9: every unit attacks its target; damage is applied at once afterwards (9.10.1).
            let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (a, t) in &aims {
                let label = format!("{tag}/r{round}/atk/{a}");
                let n = hit(self.state, a, t);
                let roll = self.dice.two_d6(&label);
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
            self.apply_losses(&hits, &tag);
            if let Flow::End = self.decide(hex, &tag, round) {
                break;
            }
        }
        self.after_combat(hex, &took_part);
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
        self.log.public(format!(
            "{tag}: the {} side has only face-down units left: forced retreat (9.11.3)",
            loser.name()
        ));
        if self.retreat(hex, loser, tag) {
            return Flow::End;
        }
        self.flip_all(hex, loser, tag, "9.11.8");
        let _ = round;
        Flow::Fight
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
                self.log.public(format!(
                    "{tag}: {ev}: no retreat hex, flipped face-up to fight on ({rule})"
                ));
            }
        }
    }

    /// After damage: each side chooses retreat or continue, the phase player first (9.11.1,
    /// 9.11.2), by its standing policy (D9); the PS-only check (9.11.4) may force a retreat.
    fn decide(&mut self, hex: Hex, tag: &str, round: u32) -> Flow {
        let pp = self.phase_player;
        for side in [pp, pp.other()] {
            let own = self.state.active_face_up(hex, side);
            let enemy = self.state.active_face_up(hex, side.other());
            if own.is_empty() || enemy.is_empty() {
                return Flow::Fight; // handled by `fronts` (forced retreat or end)
            }
            if side == Side::Beeler && own.iter().all(|u| self.state.counters.is_ps(u)) {
                let label = format!("{tag}/r{round}/ps-check");
                let d = self.dice.d6(&label);
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
                    if self.retreat(hex, side, tag) {
                        return Flow::End;
                    }
                    // 9.11.12 (A42): PS that cannot retreat leave the combat and go home at the
                    // end of the phase; other units follow 9.11.8.
                    for p in own {
                        self.state.set_off_map(&p, Place::Returning, true);
                        self.log.public(format!(
                            "{tag}: {p} cannot retreat and returns to the palace at the end of the phase (9.11.12)"
                        ));
                    }
                    self.flip_all(hex, side, tag, "9.11.8");
                    continue;
                }
            }
            let policy = self.state.policy.get(side).retreat;
            if policy.wants(own.len(), enemy.len()) {
                if self.retreat(hex, side, tag) {
                    return Flow::End; // 9.11.2: the other side cannot retreat now
                }
                self.log.public(format!(
                    "{tag}: the {} side would retreat but has no legal hex: it fights on (9.11.8)",
                    side.name()
                ));
            }
        }
        Flow::Fight
    }

    /// Moves all of `side`'s units out of `hex` (9.11.9); false if there is no legal hex.
    fn retreat(&mut self, hex: Hex, side: Side, tag: &str) -> bool {
        let units = self.state.side_units_in(hex, side);
        let (helis, ground): (Vec<String>, Vec<String>) =
            units.into_iter().partition(|u| self.state.is_heli(u));
        let dests = retreat_hexes(self.state, side, hex);
        // Proto One never leaves the palace (5.9.3, A15); it stays out of the retreat.
        let (stay, ground): (Vec<String>, Vec<String>) = ground
            .into_iter()
            .partition(|u| self.state.role_of(u) == Some(Role::ProtoOne));
        let _ = stay;
        let dest = dests.first().copied();
        if dest.is_none() && !ground.is_empty() {
            return false;
        }
        let ex10 = self.state.map.home(Side::Mercenary);
        for h in &helis {
            self.state.set_hex(h, ex10);
            if let Some(u) = self.state.units.get_mut(h) {
                u.face_up = false;
            }
        }
        if !helis.is_empty() {
            self.log.public(format!(
                "{tag}: helis {} retreat straight to EX-10 and are acted (9.11.9)",
                helis.join(", ")
            ));
        }
        if let Some(d) = dest
            && !ground.is_empty()
        {
            let mut names: Vec<String> = ground.iter().map(|u| self.state.public_name(u)).collect();
            names.sort();
            for u in &ground {
                self.state.set_hex(u, d);
            }
            let mut ev = format!(
                "{tag}: the {} side retreats {} to {d} (9.11.9, 9.11.10)",
                side.name(),
                names.join(", ")
            );
            // 11.3: face-down units retreating into Nuba flip face-up.
            if self.state.map.is_nuba(d) {
                for u in &ground {
                    if let Some(r) = self.state.reveal(u) {
                        ev.push_str(&format!("; {r} (11.3)"));
                    }
                }
            }
            self.log.public(ev);
        }
        true
    }

    /// 9.12: the controller fires `count` attacks of strength `attack` at the enemy's face-up
    /// units (policy D8, default A10: spread evenly, extra attacks at the easiest targets).
    fn base_attack(&mut self, hex: Hex, owner: Side, attack: u32, count: u32, tag: &str) {
        let mut enemies = self.state.active_face_up(hex, owner.other());
        if enemies.is_empty() {
            return;
        }
        enemies.sort_by(|a, b| {
            let ha = i64::from(attack) - i64::from(self.state.values(a).defense);
            let hb = i64::from(attack) - i64::from(self.state.values(b).defense);
            p36(hb).cmp(&p36(ha)).then_with(|| a.cmp(b))
        });
        let n = count as usize;
        let mut plan: Vec<String> = Vec::new();
        for k in 0..n {
            if let Some(t) = enemies.get(k % enemies.len()) {
                plan.push(t.clone());
            }
        }
        let mut hits: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (k, t) in plan.iter().enumerate() {
            let label = format!("{tag}/base/a{}/{t}", k + 1);
            let need = i64::from(attack) - i64::from(self.state.values(t).defense);
            let roll = self.dice.two_d6(&label);
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
        self.apply_losses(&hits, tag);
    }

    /// 9.10 with the VP of 10.1 and 10.2 scored first (9.10.3).
    fn apply_losses(&mut self, hits: &BTreeMap<String, Vec<String>>, tag: &str) {
        for (dead, by) in hits {
            let Some(side) = self.state.side_of(dead) else {
                continue;
            };
            let mut vp_notes = Vec::new();
            match side {
                Side::Beeler => {
                    if self.state.counters.is_ps(dead) {
                        self.state.vp.mercenary += 5;
                        vp_notes.push("mercenary +5 VP (10.2)".to_string());
                    } else if self.state.class_of(dead) == Some(Class::At) {
                        self.state.vp.beeler += 1;
                        vp_notes.push("beeler +1 VP for its own AT (10.1)".to_string());
                    }
                }
                Side::Mercenary => {
                    let by_ps = by.iter().any(|a| {
                        matches!(self.state.role_of(a), Some(Role::BlueAt | Role::StrikeDog))
                    });
                    if by_ps {
                        let v = experience(self.state, dead);
                        self.state.vp.beeler += i64::from(v);
                        vp_notes.push(format!("beeler +{v} VP PS experience (10.1)"));
                    }
                }
            }
            let whither = if self.state.is_heli(dead) {
                self.state.set_off_map(dead, Place::Stock, true);
                "to stock"
            } else {
                match self.state.role_of(dead) {
                    Some(Role::Kanyu | Role::BlueAt | Role::StrikeDog | Role::ProtoOne) => {
                        self.state.set_off_map(dead, Place::Returning, true);
                        "home at the end of the phase (9.10.4)"
                    }
                    Some(Role::Kiriko) => {
                        self.state.set_off_map(dead, Place::Removed, true);
                        "removed from the game (A17)"
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

    /// After one hex's combat: the initial-stage trigger (12.4).
    fn after_combat(&mut self, hex: Hex, took_part: &BTreeSet<String>) {
        let has = |role: Role| {
            took_part
                .iter()
                .any(|u| self.state.role_of(u) == Some(role))
        };
        if self.state.stage == Stage::Initial
            && self.state.next_stage.is_none()
            && has(Role::Kanyu)
            && has(Role::BlueAt)
        {
            self.state.next_stage = Some(Stage::Stage1);
            self.log.public(format!(
                "{}: Kan-Yu and Blue AT fought in the same combat in {hex}: stage 1 begins next turn (12.4)",
                self.tag
            ));
        }
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
        for h in &away {
            self.state.set_hex(h, ex10);
            if let Some(u) = self.state.units.get_mut(h) {
                u.face_up = false;
            }
        }
        if !away.is_empty() {
            self.log.public(format!(
                "{}: helis {} return to EX-10 and are acted (9.13)",
                self.tag,
                away.join(", ")
            ));
        }
        for side in Side::BOTH {
            for id in self.state.off_map(side, Place::Returning) {
                let home = self.state.map.home(side);
                if self.state.control_of(home) == Control::of(side.other()) {
                    self.state.set_off_map(&id, Place::Removed, true);
                    self.log.public(format!(
                        "{}: {id} cannot go home, its home base is lost: removed from the game (9.10.4)",
                        self.tag
                    ));
                } else {
                    self.state.set_hex(&id, home);
                    if let Some(u) = self.state.units.get_mut(&id) {
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
        for pp in Side::BOTH {
            let g = pair(&s, &m, &b, &[], pp);
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
        let g = pair(&s, &m, &b, &[], Side::Mercenary);
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
        let t = targets(&s, &g);
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
            s.policy.beeler.retreat = super::super::orders::RetreatWhen::Never;
            s.policy.mercenary.retreat = super::super::orders::RetreatWhen::Never;
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
    fn outnumbered_side_retreats_towards_home_by_default_9_11() {
        // 3 M soldiers vs 1 B soldier; when both survive round 1 the beeler is outnumbered.
        let mut seen_retreat = false;
        for seed in 0..40u8 {
            let mut s = blank();
            put(&mut s, "M-SO01", "J07", true);
            put(&mut s, "M-SO02", "J07", true);
            put(&mut s, "M-SO03", "J07", true);
            put(&mut s, "B-AT01", "J07", true);
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
        let before = s.vp.beeler;
        let log = run(&mut s, 3, Side::Beeler);
        assert!(log.public.iter().any(|e| e.contains("(9.3)")));
        let shots = log.public.iter().filter(|e| e.contains("(9.12)")).count();
        assert_eq!(shots, 3, "{:?}", log.public);
        let dead = s.unit("B-AT01").unwrap().place == Place::Cup;
        assert_eq!(s.vp.beeler - before, i64::from(dead));
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
            s.policy.mercenary.retreat = super::super::orders::RetreatWhen::Never;
            let mvp = s.vp.mercenary;
            let log = run(&mut s, seed, Side::Mercenary);
            if log.public.iter().any(|e| e.contains("B-BLUE destroyed")) {
                assert_eq!(s.vp.mercenary - mvp, 5);
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
            s.policy.beeler.retreat = super::super::orders::RetreatWhen::Never;
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
