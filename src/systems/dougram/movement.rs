//! The movement phase (8-11): normal moves over the grid (9), sea moves by card (10), transport
//! between controlled cities (11), Fed kept out of Andy (23.1), Lib stacking with the standing
//! over-stack fix (8.4, 6.10, default A6), mercenaries ending together (8.6, default A52), the
//! immobile fortress (22.7), and the control checks at the start and end of the phase (3.3.1).
//!
//! Moves run in the order listed (3.4) and each is all or nothing: a move that has become
//! illegal by the time it runs is skipped with a line that cites the rule, told to the moving
//! side only: the opponent learns what moved, never what was ordered and did not happen.

use super::cards::{Card, Effect, Flag, PhaseName, SeaMove};
use super::control;
use super::ctx::{Ctx, reason};
use super::data::{Class, HexId, HexRef, Hexside, Map, Side};
use super::play;
use super::state::{ChitAt, State, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::kit::seats::{Seat, TwoSeats};
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Movement points of every unit (9.1).
pub const MP: u32 = 2;
/// Lib units per hex while card 29 is closed (8.4.2).
pub const LIB_STACK: usize = 4;
/// Transport range in hexes (11.4).
pub const TRANSPORT_RANGE: u32 = 3;

/// Units a side may transport in one movement phase (11.8).
pub fn transport_cap(side: Side) -> usize {
    match side {
        Side::Fed => 5,
        Side::Lib => 2,
    }
}

/// The phasing side's movement orders for one step (`orders.movement` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementOrders {
    /// Resolved in this order (3.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Move>,
}

/// One move of one group of units: exactly one of `path` (normal move, 9), `sea` (10) or
/// `transport` (11).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Move {
    /// Counter ids or labels given earlier in the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<String>,
    /// Normal move: the hexes entered, in order (the start hex is not listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<HexId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sea: Option<SeaOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<TransportOrder>,
}

/// A sea move (10): the card played and one of its routes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaOrder {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<HexRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<HexRef>,
}

/// A transport (11) from one city to another.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransportOrder {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<HexRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<HexRef>,
}

/// What the 6.10 fix does with the excess units of an over-stacked Lib hex.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverstackMode {
    /// Move each excess unit to the adjacent legal hex with the fewest Lib units; eliminate it
    /// to the stock when there is none.
    #[default]
    MoveThenEliminate,
    /// Eliminate the excess to the stock.
    Eliminate,
}

impl OverstackMode {
    fn is_default(&self) -> bool {
        *self == OverstackMode::default()
    }
}

/// The standing fix for a Lib hex still over the limit at the end of movement (6.10, A6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverstackPolicy {
    /// Unit types that leave an over-stacked hex first, in this order; the rest follow,
    /// soldiers before CBAs, then by counter id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shed_first: Vec<String>,
    #[serde(default, skip_serializing_if = "OverstackMode::is_default")]
    pub mode: OverstackMode,
}

impl OverstackPolicy {
    fn is_default(&self) -> bool {
        *self == OverstackPolicy::default()
    }
}

/// A side's standing movement policy (digest 3.2); replaced whenever the side sends one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementPolicy {
    #[serde(default, skip_serializing_if = "OverstackPolicy::is_default")]
    pub overstack: OverstackPolicy,
}

/// Problems with a policy, located under `at`.
pub fn legal_movement_policy(
    state: &State,
    side: Side,
    p: &MovementPolicy,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if side == Side::Fed && !p.overstack.is_default() {
        out.push(Problem::new(
            at.at("overstack"),
            "8.4.1",
            "Fed stacks are unlimited, so Fed has no over-stack fix",
            "leave overstack out",
        ));
    }
    for (i, t) in p.overstack.shed_first.iter().enumerate() {
        if !state.data.counters.types.contains_key(t) {
            out.push(Problem::new(
                at.at("overstack").at("shed_first").at(i),
                "6.10",
                format!("unknown unit type {t:?}"),
                "a type from games/dougram/counters.yaml, e.g. soldier or crab_gunner",
            ));
        }
    }
    out
}

/// The movement policies `side` may send, one value each: each unit type to shed first, and
/// each fix mode, where [`legal_movement_policy`] accepts it.
pub fn movement_policy_choices(state: &State, side: Side) -> Vec<MovementPolicy> {
    let mut out = Vec::new();
    let mut candidates: Vec<OverstackPolicy> =
        [OverstackMode::MoveThenEliminate, OverstackMode::Eliminate]
            .into_iter()
            .map(|mode| OverstackPolicy {
                shed_first: Vec::new(),
                mode,
            })
            .collect();
    candidates.extend(state.data.counters.types.keys().map(|t| OverstackPolicy {
        shed_first: vec![t.clone()],
        mode: OverstackMode::default(),
    }));
    for overstack in candidates {
        let p = MovementPolicy { overstack };
        if legal_movement_policy(state, side, &p, &FieldPath::root()).is_empty() {
            out.push(p);
        }
    }
    out
}

/// MP to enter `b` from the adjacent hex `a` (9.2, 9.3); `None` when it cannot be entered by a
/// normal move (sea or an impassable hexside, 9.6).
pub fn mp_cost(map: &Map, a: HexId, b: HexId) -> Option<u32> {
    if !map.is_land(b) || Map::distance(a, b) != 1 {
        return None;
    }
    match map.hexside(a, b) {
        Hexside::Open => Some(1),
        Hexside::Mountain => Some(2),
        Hexside::Impassable => None,
    }
}

/// Transport distance between two cities (11.4-11.7): the 11.7 pairs count as 3, and Fed's
/// North Pole Port-Sandrea lift ignores range (11.6) and counts as 0.
pub fn transport_distance(map: &Map, side: Side, from: HexId, to: HexId) -> u32 {
    let id = |h: HexId| map.place_at(h).map(|p| p.id.as_str()).unwrap_or("");
    let pair = |a: &str, b: &str| {
        let (x, y) = (id(from), id(to));
        (x == a && y == b) || (x == b && y == a)
    };
    if side == Side::Fed && pair("north_pole_port", "sandrea") {
        0
    } else if pair("bonar", "grante") || pair("spa", "grante") {
        TRANSPORT_RANGE
    } else {
        Map::distance(from, to)
    }
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step.
/// Names that are not counter ids are taken for labels of units created earlier in the step.
pub fn check(state: &State, side: Side, orders: &MovementOrders, at: &FieldPath) -> Vec<Problem> {
    check_with(state, side, orders, None, at)
}

/// [`check`] knowing the labels that earlier orders of the same file define: a name that is
/// neither a counter id nor one of `labels` is a problem.
pub fn check_with(
    state: &State,
    side: Side,
    orders: &MovementOrders,
    labels: Option<&BTreeSet<String>>,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut mem = Memory::default();
    let mut out = Vec::new();
    let mode = Mode::Check { labels };
    let mut judged = Vec::new();
    for (i, m) in orders.moves.iter().enumerate() {
        let mut j = legal_move(state, side, m, &at.at("moves").at(i), &mem, &mode);
        mem.note(&j);
        out.append(&mut j.problems);
        judged.push(j);
    }
    if !may_hold(state, side, &Flag::LibGovernment, &mode) {
        out.extend(legal_stacking(state, side, &judged, &at.at("moves")));
    }
    out
}

/// 8.4.2-8.4.3: while card 29 is closed, a hex holds at most 4 Lib units when movement ends
/// (units may pass through a full hex on the way). Judged on the moves of the orders as a
/// whole, `judged` in order, the problems under `at` (the `moves` list): each hex's Lib units
/// now, less those ordered out, plus those ordered in. Each move that brings units into a hex
/// that ends over the limit is refused. An over-stack that arming makes is not an order's
/// fault: 6.10 lets the movement phase fix it ([`fix_overstack`]), and units that stay put
/// are never refused.
pub fn legal_stacking(
    state: &State,
    side: Side,
    judged: &[Judged],
    at: &FieldPath,
) -> Vec<Problem> {
    if side != Side::Lib {
        return Vec::new(); // 8.4.1: no limit for Fed
    }
    let ok = |j: &&Judged| j.problems.is_empty() && j.dest.is_some();
    let mut end: BTreeMap<HexId, (usize, usize)> = BTreeMap::new(); // hex -> (units, arrived)
    for j in judged.iter().filter(ok) {
        let dest = j.dest.unwrap_or_default();
        for u in &j.units {
            if let Some(from) = u.loc {
                let e = end
                    .entry(from)
                    .or_insert_with(|| (state.units_in(from, side).len(), 0));
                e.0 = e.0.saturating_sub(1);
            }
            let e = end
                .entry(dest)
                .or_insert_with(|| (state.units_in(dest, side).len(), 0));
            e.0 += 1;
            e.1 += 1;
        }
    }
    let mut out = Vec::new();
    for (i, j) in judged.iter().enumerate() {
        if !ok(&j) {
            continue;
        }
        let dest = j.dest.unwrap_or_default();
        let (n, arrived) = end.get(&dest).copied().unwrap_or_default();
        if n > LIB_STACK && arrived > 0 {
            out.push(bad(
                at.at(i),
                "8.4.2",
                format!(
                    "hex {dest} would hold {n} Lib units when movement ends ({arrived} moved in); Lib stacks at most {LIB_STACK} while card 29 is closed"
                ),
                format!(
                    "moves that leave at most {LIB_STACK} Lib units in hex {dest} at the end of the phase (passing through is fine, 8.4.3)"
                ),
            ));
        }
    }
    out
}

/// The moves `side` may make now, each on its own, as the phase would judge them on this state
/// by [`legal_move`] (with control as it stands for 10.6 and 11.3; the phase judges them
/// against control at its start): per unit on the map, in id order, a normal move to every hex
/// it can reach (a shortest path), each sea move its side's cards in hand allow, and each
/// transport. Several units of one hex may move together wherever each of them may.
pub fn move_choices(state: &State, side: Side) -> Vec<Move> {
    let labels = BTreeMap::new();
    let mode = Mode::Live {
        labels: &labels,
        start: &state.control,
    };
    let mem = Memory::default();
    let stack_limit = side == Side::Lib && !state.flag(&Flag::LibGovernment);
    let legal = |m: &Move| {
        let j = legal_move(state, side, m, &FieldPath::root(), &mem, &mode);
        j.problems.is_empty()
            && (!stack_limit || legal_stacking(state, side, &[j], &FieldPath::root()).is_empty())
    };
    let map = &state.data.map;
    let cities: Vec<&str> = map
        .places
        .iter()
        .filter(|p| p.city)
        .map(|p| p.id.as_str())
        .collect();
    let sea_routes: Vec<(u32, &[String; 2])> = state
        .cards
        .get(side)
        .hand
        .cards()
        .iter()
        .filter_map(|no| {
            state
                .card(*no)
                .and_then(|c| sea_effect(&c.effects).map(|e| (*no, e)))
        })
        .flat_map(|(no, e)| e.routes.iter().map(move |r| (no, r)))
        .collect();
    let mut out = Vec::new();
    for (id, u) in &state.units {
        let UnitAt::Hex(h) = u.at else { continue };
        if u.side != side {
            continue;
        }
        let units = vec![id.clone()];
        let mut reached = BTreeSet::from([h]);
        let mut paths: Vec<Vec<HexId>> = map.neighbours(h).into_iter().map(|n| vec![n]).collect();
        for n in map.neighbours(h) {
            paths.extend(map.neighbours(n).into_iter().map(|m| vec![n, m]));
        }
        for path in paths {
            let end = path[path.len() - 1];
            if reached.contains(&end) {
                continue;
            }
            let m = Move {
                units: units.clone(),
                path,
                ..Move::default()
            };
            if legal(&m) {
                reached.insert(end);
                out.push(m);
            }
        }
        for (card, [a, b]) in &sea_routes {
            for (from, to) in [(a, b), (b, a)] {
                let m = Move {
                    units: units.clone(),
                    sea: Some(SeaOrder {
                        card: Some(*card),
                        from: Some(HexRef::Place(from.clone())),
                        to: Some(HexRef::Place(to.clone())),
                    }),
                    ..Move::default()
                };
                if map.place(from).is_some_and(|p| p.hex == h) && legal(&m) {
                    out.push(m);
                }
            }
        }
        if map.place_at(h).is_some_and(|p| p.city) {
            let from = place_id(state, h);
            for to in cities.iter().filter(|c| **c != from) {
                let m = Move {
                    units: units.clone(),
                    transport: Some(TransportOrder {
                        from: Some(HexRef::Place(from.clone())),
                        to: Some(HexRef::Place(to.to_string())),
                    }),
                    ..Move::default()
                };
                if legal(&m) {
                    out.push(m);
                }
            }
        }
    }
    out
}

/// Runs the phase for the phasing `side`.
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &MovementOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    reach::fire("3.3.1");
    control::check(state, "start of movement", ctx); // 3.3.1
    let start = state.control.clone();
    let mut mem = Memory::default();
    for (i, m) in orders.moves.iter().enumerate() {
        let labels = ctx.labels.clone();
        let mode = Mode::Live {
            labels: &labels,
            start: &start,
        };
        let j = legal_move(state, side, m, &FieldPath::root(), &mem, &mode);
        if let Some(b) = j.problems.first() {
            let field = if b.path.0.is_empty() {
                String::new()
            } else {
                format!(" at {}", b.path)
            };
            // 3.4: a move that has become illegal is skipped, the others still run.
            reach::fire("3.4");
            // Private: the order may name cards in hand or plans that did not happen.
            ctx.log.private(
                side,
                format!("your move {} is skipped{field}: {}", i + 1, reason(b)),
            );
            continue;
        }
        let Some(kind) = j.kind.clone() else {
            return Err(format!("move {} judged legal without a kind", i + 1));
        };
        let ids: Vec<String> = j.units.iter().filter_map(|u| u.id.clone()).collect();
        // 8.1 (own units on the map), 8.2 (one move of one kind), 8.3 (any of them), 8.5
        // (units only; chits stay) were judged by legal_move and apply to this move.
        for r in ["3.4", "8.1", "8.2", "8.3", "8.5"] {
            reach::fire(r);
        }
        if j.units.iter().any(|u| u.merc) {
            reach::fire("8.6");
        }
        fire_kind(state, side, ids.first(), &kind);
        // Where the move really ended (a move can stop short, 9.4): 8.6 joins that hex.
        let end = execute(state, side, i, &ids, &kind, ctx)?;
        let mut j = j;
        j.dest = Some(end);
        mem.note(&j);
    }
    if !orders.moves.is_empty() {
        // 8.4.3: stacking counts at the end of the phase only; 8.4.2 caps Lib before card 29,
        // 8.4.1 leaves Fed (and Lib after it) without a limit.
        reach::fire("8.4.3");
        if side == Side::Lib && !state.flag(&Flag::LibGovernment) {
            reach::fire("8.4.2");
        } else {
            reach::fire("8.4.1");
        }
    }
    if side == Side::Lib && !state.flag(&Flag::LibGovernment) {
        fix_overstack(state, ctx);
    }
    control::check(state, "end of movement", ctx); // 3.3.1
    Ok(())
}

/// Notes the rules of the kind of a move about to be made (9, 10, 11).
fn fire_kind(state: &State, side: Side, first: Option<&String>, kind: &Kind) {
    let map = &state.data.map;
    match kind {
        Kind::Normal(path) => {
            for r in ["9.1", "9.2", "9.6"] {
                reach::fire(r);
            }
            let from = first.and_then(|id| match state.units.get(id).map(|u| &u.at) {
                Some(UnitAt::Hex(h)) => Some(*h),
                _ => None,
            });
            let hexes: Vec<HexId> = from.into_iter().chain(path.iter().copied()).collect();
            for w in hexes.windows(2) {
                if map.hexside(w[0], w[1]) == Hexside::Mountain {
                    reach::fire("9.3");
                }
            }
            let through = &path[..path.len().saturating_sub(1)];
            if side == Side::Fed
                && through
                    .iter()
                    .any(|h| !state.units_in(*h, Side::Lib).is_empty())
            {
                reach::fire("9.5");
            }
            if side == Side::Fed && path.contains(&map.hex_of("andy")) {
                reach::fire("23.1");
            }
        }
        Kind::Sea { card, .. } => {
            for r in ["10.1", "10.2", "10.7", "10.8"] {
                reach::fire(r);
            }
            if let Some(c) = state.card(*card) {
                let r = route_rule(c);
                if r != "10.2" {
                    reach::fire(r);
                }
                if sea_effect(&c.effects).is_some_and(|e| e.origin_must_be_friendly) {
                    reach::fire("10.6");
                }
            }
        }
        Kind::Transport { from, to } => {
            for r in ["11.1", "11.2", "11.3", "11.4", "11.8"] {
                reach::fire(r);
            }
            let id = |h: &HexId| map.place_at(*h).map(|p| p.id.as_str()).unwrap_or("");
            let pair = [id(from), id(to)];
            if side == Side::Fed && pair.contains(&"north_pole_port") && pair.contains(&"sandrea") {
                reach::fire("11.6");
            } else if pair.contains(&"grante") && (pair.contains(&"bonar") || pair.contains(&"spa"))
            {
                reach::fire("11.7");
            } else {
                reach::fire("11.5");
            }
            if side == Side::Lib {
                reach::fire("11.9");
            }
            if side == Side::Fed && *to == map.hex_of("andy") {
                reach::fire("23.1");
            }
        }
    }
}

/// Commented YAML lines for the order skeleton (the legal choices now). Every line is a comment
/// (`# ...`), to be indented under `movement:` by the caller.
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    let mut v: Vec<String> = Vec::new();
    v.push(format!(
        "# movement (8-11): moves run in the order listed; each unit makes one move a phase (8.2); {MP} MP each (9.1)"
    ));
    let mut by_hex: BTreeMap<HexId, Vec<String>> = BTreeMap::new();
    for (id, u) in &state.units {
        if let UnitAt::Hex(h) = u.at
            && u.side == side
        {
            let ty = state.unit_type(id).unwrap_or("?");
            by_hex.entry(h).or_default().push(format!("{id} {ty}"));
        }
    }
    v.push("# your units on the map, by hex:".into());
    if by_hex.is_empty() {
        v.push("#   (none)".into());
    }
    for (h, list) in &by_hex {
        let name = state
            .data
            .map
            .place_at(*h)
            .map(|p| format!(" {}", p.id))
            .unwrap_or_default();
        let over =
            if side == Side::Lib && !state.flag(&Flag::LibGovernment) && list.len() > LIB_STACK {
                " (over the stack limit of 4: fix it by the end of the phase, 6.10)"
            } else {
                ""
            };
        v.push(format!("#   {h}{name}: {}{over}", list.join(", ")));
    }
    v.push("# a mountain hexside costs 1 MP more (9.3); no sea, no impassable hexside (9.6); entering a hex with enemy units ends the move (9.4)".into());
    if side == Side::Lib && !state.flag(&Flag::LibGovernment) {
        v.push(format!(
            "# at most {LIB_STACK} Lib units in a hex when movement ends, until card 29 is open (8.4.2); passing through is fine (8.4.3)"
        ));
    }
    v.extend(choice_lines(state, &c.moves));
    if side == Side::Fed {
        v.push(
            "# Fed may pass hexes with at most 3 Lib units while card 29 is closed (9.5)".into(),
        );
        if !state.flag(&Flag::FedMayEnterAndy) {
            v.push("# Andy is closed to Fed units until its entry card is open (23.1)".into());
        }
    }
    let mut sea_cards = Vec::new();
    for no in state.cards.get(side).hand.cards() {
        if let Some(c) = state.card(*no)
            && let Some(s) = sea_effect(&c.effects)
        {
            let routes: Vec<String> = s.routes.iter().map(|[a, b]| format!("{a}-{b}")).collect();
            let own = if s.origin_must_be_friendly {
                ", origin controlled at the start of the phase (10.6)"
            } else {
                ""
            };
            sea_cards.push(format!(
                "#   card {no} {}: {}{own}",
                c.en,
                routes.join(", ")
            ));
        }
    }
    if sea_cards.is_empty() {
        v.push("# sea moves (10): no sea-move card in hand".into());
    } else {
        v.push("# sea-move cards in hand (10); all of a phase's sea moves go from one city to one city (10.8):".into());
        v.extend(sea_cards);
    }
    if side == Side::Lib && !state.flag(&Flag::LibGovernment) {
        v.push("# transport (11): Lib cannot transport until card 29 is open (11.9)".into());
    } else {
        v.push(format!(
            "# transport (11): between cities you control at the start of the phase, range {TRANSPORT_RANGE} (bonar/spa-grante count 3), at most {} units a phase{}",
            transport_cap(side),
            if side == Side::Fed {
                "; north_pole_port-sandrea at any range"
            } else {
                ""
            }
        ));
    }
    let example = by_hex
        .iter()
        .next()
        .and_then(|(h, l)| l.first().map(|u| (*h, u.split(' ').next().unwrap_or("ID"))));
    v.push("# example:".into());
    v.push("#   moves:".into());
    match example {
        Some((h, id)) => {
            let to = state
                .data
                .map
                .neighbours(h)
                .into_iter()
                .find(|n| mp_cost(&state.data.map, h, *n).is_some())
                .unwrap_or(h);
            v.push(format!(
                "#     - {{units: [{id}], path: [{to}]}}   # normal move: the hexes entered, in order"
            ));
        }
        None => v.push("#     - {units: [ID], path: [HEX, HEX]}   # normal move".into()),
    }
    v.push("#     - {units: [ID], sea: {card: NO, from: PLACE, to: PLACE}}   # sea move".into());
    v.push("#     - {units: [ID], transport: {from: PLACE, to: PLACE}}   # transport".into());
    v.join("\n") + "\n"
}

/// The template's lines for the move choices: per start hex, where its units can end a
/// normal move (through which hex), and where sea moves and transports take them now.
fn choice_lines(state: &State, choices: &[Move]) -> Vec<String> {
    let from = |m: &Move| {
        m.units
            .first()
            .and_then(|id| state.units.get(id))
            .and_then(|u| match u.at {
                UnitAt::Hex(h) => Some(h),
                _ => None,
            })
    };
    let mut reach: BTreeMap<HexId, BTreeMap<HexId, Option<HexId>>> = BTreeMap::new();
    // (start hex, what and from where) -> where to.
    let mut other: BTreeMap<(HexId, String), BTreeSet<String>> = BTreeMap::new();
    let name = |r: &Option<HexRef>| r.as_ref().map(|r| r.to_string()).unwrap_or_default();
    for m in choices {
        let Some(h) = from(m) else { continue };
        if let [.., end] = m.path.as_slice() {
            let via = (m.path.len() > 1).then(|| m.path[0]);
            reach.entry(h).or_default().entry(*end).or_insert(via);
        } else if let Some(sea) = &m.sea {
            let how = format!(
                "by sea (card {}, from {})",
                sea.card.unwrap_or(0),
                name(&sea.from)
            );
            other.entry((h, how)).or_default().insert(name(&sea.to));
        } else if let Some(t) = &m.transport {
            let how = format!("by transport (from {})", name(&t.from));
            other.entry((h, how)).or_default().insert(name(&t.to));
        }
    }
    let mut v = vec!["# where a normal move from each hex can end now (path: the hexes entered; via: the first of two):".to_string()];
    if reach.is_empty() {
        v.push("#   nowhere".into());
    }
    for (h, ends) in &reach {
        let list: Vec<String> = ends
            .iter()
            .map(|(e, via)| match via {
                Some(x) => format!("{e} (via {x})"),
                None => e.to_string(),
            })
            .collect();
        v.push(format!("#   from {h}: {}", list.join(", ")));
    }
    for ((h, how), to) in &other {
        let to: Vec<&str> = to.iter().map(String::as_str).collect();
        v.push(format!("#   from {h} {how}: to {}", to.join(", ")));
    }
    v
}

// ---------------------------------------------------------------------------------------------

/// A broken rule found while judging a move.
fn bad(at: FieldPath, rule: &str, msg: impl Into<String>, ok: impl Into<String>) -> Problem {
    Problem::new(at, rule, msg, ok)
}

/// How a move is judged: at check time, on the start state, rejecting only the certain; live,
/// on the current state, with the control snapshot of the phase start.
pub enum Mode<'a> {
    Check {
        labels: Option<&'a BTreeSet<String>>,
    },
    Live {
        labels: &'a BTreeMap<String, String>,
        start: &'a BTreeMap<String, Side>,
    },
}

impl Mode<'_> {
    fn live(&self) -> bool {
        matches!(self, Mode::Live { .. })
    }
}

/// What the moves so far in the phase used up.
#[derive(Debug, Default)]
pub struct Memory {
    /// Names and counter ids of units that moved (8.2).
    moved: BTreeSet<String>,
    transported: usize,
    cards: BTreeSet<u32>,
    /// The origin and destination of the first sea move (10.8).
    sea_route: Option<(HexId, HexId)>,
    /// Where the first mercenaries to move ended (8.6).
    merc_dest: Option<HexId>,
}

impl Memory {
    /// Adds what the judged move `j` uses up.
    pub fn note(&mut self, j: &Judged) {
        for u in &j.units {
            self.moved.insert(u.name.clone());
            if let Some(id) = &u.id {
                self.moved.insert(id.clone());
            }
        }
        match &j.kind {
            Some(Kind::Transport { .. }) => self.transported += j.units.len(),
            Some(Kind::Sea { card, from, to }) => {
                self.cards.insert(*card);
                self.sea_route.get_or_insert((*from, *to));
            }
            _ => {}
        }
        if j.units.iter().any(|u| u.merc) && self.merc_dest.is_none() {
            self.merc_dest = j.dest;
        }
    }
}

/// What kind of move it is (9, 10, 11).
#[derive(Debug, Clone)]
pub enum Kind {
    Normal(Vec<HexId>),
    Sea { card: u32, from: HexId, to: HexId },
    Transport { from: HexId, to: HexId },
}

/// One unit of a move.
#[derive(Debug, Clone)]
pub struct Mover {
    /// As the order names it.
    pub name: String,
    /// Counter id; `None` for a label not yet known at check time.
    pub id: Option<String>,
    /// The hex it moves from, when certain.
    pub loc: Option<HexId>,
    pub merc: bool,
}

/// A move as [`legal_move`] judged it.
#[derive(Debug, Default)]
pub struct Judged {
    pub units: Vec<Mover>,
    pub kind: Option<Kind>,
    /// Where the move ends, when certain.
    pub dest: Option<HexId>,
    /// Every problem with the move; none when it is legal.
    pub problems: Vec<Problem>,
}

fn sea_effect(effects: &[Effect]) -> Option<&SeaMove> {
    effects.iter().find_map(|e| match e {
        Effect::SeaMove(s) => Some(s),
        _ => None,
    })
}

/// Whether flag `f` is or may be open by the time this side moves: at check time a card with
/// the flag in the side's hand may still be played before the phase.
fn may_hold(state: &State, side: Side, f: &Flag, mode: &Mode) -> bool {
    state.flag(f)
        || (!mode.live()
            && state.cards.get(side).hand.cards().iter().any(|no| {
                state
                    .card(*no)
                    .is_some_and(|c| c.while_open.contains(f) && c.owner == side)
            }))
}

/// Who controls city `h` at the start of the movement phase (10.6, 11.3), when that is certain:
/// live, the phase's snapshot; at check time, control as the units give it now when nothing before `side`'s
/// movement can change it (3.3.3). Lib's arming needs latent chits in the hex (6.5) and card
/// 29 changes the control rule (3.3a); a card that places units there (24.2) may add to
/// either side. Fed's replenishment never places units where Lib has control (7.6), and
/// 7.10 only takes a Fed unit away, so neither can give Fed a city it does not hold.
fn start_control(state: &State, side: Side, h: HexId, mode: &Mode) -> Option<Side> {
    let id = place_id(state, h);
    match mode {
        Mode::Live { start, .. } => Some(start.get(&id).copied().unwrap_or(Side::Fed)),
        Mode::Check { .. } => {
            // A card the side may play before its movement, or one that opens by itself
            // (24.1), may place units in the hex.
            let places_here = |effects: &[Effect]| {
                effects.iter().any(
                    |e| matches!(e, Effect::PlaceUnits(p) if state.data.map.hex_of(&p.at) == h),
                )
            };
            let placed_here = state.data.cards.cards.iter().any(|c| {
                !state.open.contains(&c.no)
                    && !state.removed.contains(&c.no)
                    && ((state.cards.get(side).hand.contains(&c.no)
                        && (places_here(&c.effects) || places_here(&c.on_open)))
                        || (!c.auto_open.is_empty() && places_here(&c.on_open)))
            });
            let may_change = placed_here
                || (side == Side::Lib
                    && (state.chits.values().any(|c| c.at == ChitAt::Hex(h))
                        || (!state.flag(&Flag::LibGovernment)
                            && may_hold(state, side, &Flag::LibGovernment, mode))));
            // The movement phase starts with a control check (3.3.1): as the units stand.
            (!may_change).then(|| state.control_by_units(h))
        }
    }
}

/// A city named in an order, as its hex.
/// The two cities of a sea move or transport (`from`, `to`), or the problems with them.
fn city_ends(
    state: &State,
    ends: [&Option<HexRef>; 2],
    at: &FieldPath,
    (rule, what, accepted): (&'static str, &str, &str),
    bads: &mut Vec<Problem>,
) -> Option<(HexId, HexId)> {
    let mut out = [None, None];
    for (k, (f, p)) in ["from", "to"].into_iter().zip(ends).enumerate() {
        match p {
            None => bads.push(bad(at.at(f), rule, format!("{what} needs `{f}`"), accepted)),
            Some(p) => match city(state, p, &at.at(f), rule) {
                Ok(h) => out[k] = Some(h),
                Err(b) => bads.push(b),
            },
        }
    }
    Some((out[0]?, out[1]?))
}

fn city(state: &State, p: &HexRef, at: &FieldPath, rule: &'static str) -> Result<HexId, Problem> {
    let map = &state.data.map;
    let place = match p {
        HexRef::Place(s) => map
            .place(s)
            .or_else(|| s.parse::<HexId>().ok().and_then(|h| map.place_at(h))),
        HexRef::Hex(h) => map.place_at(*h),
    };
    match place {
        Some(pl) if pl.city => Ok(pl.hex),
        Some(pl) => Err(bad(
            at.clone(),
            rule,
            format!("{} is not a city", pl.id),
            "a city id or hex",
        )),
        None => Err(bad(
            at.clone(),
            rule,
            format!("{p} is no city on the map"),
            "a city id (e.g. spa) or its hex number",
        )),
    }
}

/// How orders name hex `h`: its place id, else its number.
pub fn place_id(state: &State, h: HexId) -> String {
    state
        .data
        .map
        .place_at(h)
        .map(|p| p.id.clone())
        .unwrap_or_else(|| h.to_string())
}

/// Whether `side` may enter `h` at all (23.1, A37: every means of entry).
fn andy_bad(state: &State, side: Side, h: HexId, at: &FieldPath, mode: &Mode) -> Option<Problem> {
    (side == Side::Fed
        && h == state.data.map.hex_of("andy")
        && !may_hold(state, side, &Flag::FedMayEnterAndy, mode))
    .then(|| {
        bad(
            at.clone(),
            "23.1",
            "Fed units may not enter Andy before its entry card is open",
            "a path, route or city that avoids Andy",
        )
    })
}

/// The units of a move, with 8.1, 8.2 and 22.7.
fn movers(
    state: &State,
    side: Side,
    m: &Move,
    at: &FieldPath,
    mem: &Memory,
    mode: &Mode,
    bads: &mut Vec<Problem>,
) -> Vec<Mover> {
    let defs = state.data.counters.counter_defs();
    let box_has_cba = state.units.keys().any(|id| {
        state.units[id].at == UnitAt::ReplenishmentBox && state.class_of(id) == Some(Class::Cba)
    });
    let mut out = Vec::new();
    if m.units.is_empty() {
        bads.push(bad(
            at.at("units"),
            "8.1",
            "a move needs at least one unit",
            "units: [ID, ...]",
        ));
    }
    // A set, not a scan of the names before: a hostile order may list 100,000 units.
    let mut named = std::collections::HashSet::new();
    for (j, name) in m.units.iter().enumerate() {
        let p = at.at("units").at(j);
        if !named.insert(name) {
            bads.push(bad(
                p,
                "8.2",
                format!("{name} is named twice"),
                "each unit once",
            ));
            continue;
        }
        if mem.moved.contains(name) {
            bads.push(bad(
                p,
                "8.2",
                format!("{name} already moved this phase"),
                "a unit that has not moved yet: one move per unit and phase",
            ));
            continue;
        }
        let id = match mode {
            Mode::Live { labels, .. } => labels
                .get(name)
                .cloned()
                .or_else(|| state.units.contains_key(name).then(|| name.clone())),
            Mode::Check { .. } => state.units.contains_key(name).then(|| name.clone()),
        };
        let Some(id) = id else {
            let label_ok = match mode {
                Mode::Check { labels: None } => true,
                Mode::Check { labels: Some(l) } => l.contains(name),
                Mode::Live { .. } => false,
            };
            if label_ok {
                out.push(Mover {
                    name: name.clone(),
                    id: None,
                    loc: None,
                    merc: false,
                });
            } else {
                bads.push(bad(
                    p,
                    "8.1",
                    format!("there is no unit or label {name:?}"),
                    "a counter id of one of your units, or a label given earlier in these orders",
                ));
            }
            continue;
        };
        if mem.moved.contains(&id) {
            bads.push(bad(
                p,
                "8.2",
                format!("{name} ({id}) already moved this phase"),
                "a unit that has not moved yet",
            ));
            continue;
        }
        let Some(u) = state.units.get(&id) else {
            bads.push(bad(p, "8.1", format!("no unit {id}"), "a counter id"));
            continue;
        };
        let ty = state.unit_type(&id);
        if ty == Some("fortress") {
            bads.push(bad(
                p,
                "22.7",
                format!("{id} is the fortress, which never moves"),
                "any other unit",
            ));
            continue;
        }
        let merc = ty
            .and_then(|t| state.data.counters.types.get(t))
            .is_some_and(|t| t.mercenary);
        let loc = match &u.at {
            UnitAt::Hex(h) if u.side == side => {
                // 7.10 may send a Fed map CBA to the box and replenishment bring it back
                // elsewhere before Fed moves: its start hex is certain only when live.
                let may_relocate =
                    side == Side::Fed && !box_has_cba && state.class_of(&id) == Some(Class::Cba);
                if mode.live() || !may_relocate {
                    Some(*h)
                } else {
                    None
                }
            }
            UnitAt::Hex(_) => {
                bads.push(bad(
                    p,
                    "8.1",
                    // The unit's own side: it is not one of the mover's.
                    format!("{id} is a {} unit", u.side.name()),
                    format!("one of {}'s own units", side.name()),
                ));
                continue;
            }
            UnitAt::Removed => {
                bads.push(bad(
                    p,
                    "8.1",
                    format!("{id} is out of the game"),
                    "a unit on the map",
                ));
                continue;
            }
            UnitAt::Stock | UnitAt::ReplenishmentBox => {
                let where_ = if u.at == UnitAt::Stock {
                    "the stock"
                } else {
                    "the replenishment box"
                };
                // At check time a stock counter may still be armed or placed, and a box unit
                // replenished, before the movement phase.
                let has_face = defs.get(&id).is_some_and(|d| {
                    d.front.side == side || d.back.as_ref().is_some_and(|b| b.side == side)
                });
                let may_arrive =
                    has_face && (u.at == UnitAt::Stock || side == Side::Fed) && !mode.live();
                if !may_arrive {
                    bads.push(bad(
                        p,
                        "8.1",
                        format!("{id} is in {where_}, not on the map"),
                        "a unit on the map",
                    ));
                    continue;
                }
                None
            }
        };
        out.push(Mover {
            name: name.clone(),
            id: Some(id),
            loc,
            merc,
        });
    }
    out
}

/// Whether one move is legal at a moment ([`Mode`]), after the moves before it in the phase
/// (`mem`): 8.1-8.6, 9.1-9.6, 10.1-10.8, 11.2-11.9, 22.7, 23.1. `check` judges each move of
/// the orders on the state at the start of the step, refusing only what is certain to be wrong
/// when the move comes; the phase judges each as it comes and skips it if any problem is
/// found.
pub fn legal_move(
    state: &State,
    side: Side,
    m: &Move,
    at: &FieldPath,
    mem: &Memory,
    mode: &Mode,
) -> Judged {
    let mut bads = Vec::new();
    let kinds = usize::from(!m.path.is_empty())
        + usize::from(m.sea.is_some())
        + usize::from(m.transport.is_some());
    if kinds != 1 {
        bads.push(bad(
            at.clone(),
            "8.2",
            if kinds == 0 {
                "a move needs a path, a sea move or a transport".to_string()
            } else {
                "a move is one of normal move, sea move or transport, not several".to_string()
            },
            "exactly one of path: [...], sea: {...}, transport: {...}",
        ));
        return Judged {
            problems: bads,
            ..Judged::default()
        };
    }
    let units = movers(state, side, m, at, mem, mode, &mut bads);
    let known: Vec<(usize, HexId)> = units
        .iter()
        .enumerate()
        .filter_map(|(j, u)| u.loc.map(|h| (j, h)))
        .collect();
    let unit_at = |j: usize| {
        let k = m
            .units
            .iter()
            .position(|n| *n == units[j].name)
            .unwrap_or(j);
        at.at("units").at(k)
    };
    let (kind, dest) = if !m.path.is_empty() {
        let start = known.first().map(|(_, h)| *h);
        for (j, h) in &known {
            if Some(*h) != start {
                bads.push(bad(
                    unit_at(*j),
                    "9.2",
                    format!(
                        "{} is in hex {h}, not {} with the first unit: a move is one stack",
                        units[*j].name,
                        start.unwrap_or(0)
                    ),
                    "units that start in one hex (one move per stack)",
                ));
            }
        }
        normal(state, side, &m.path, start, at, mode, &mut bads);
        (Some(Kind::Normal(m.path.clone())), m.path.last().copied())
    } else if let Some(s) = &m.sea {
        match sea(state, side, s, &at.at("sea"), mem, mode, &mut bads) {
            Some((card, from, to)) => {
                for (j, h) in &known {
                    if *h != from {
                        bads.push(bad(
                            unit_at(*j),
                            "10.2",
                            format!(
                                "{} is in hex {h}, not in the origin {}",
                                units[*j].name,
                                place_id(state, from)
                            ),
                            "units in the origin city that have not moved (10.2, 8.2)",
                        ));
                    }
                }
                (Some(Kind::Sea { card, from, to }), Some(to))
            }
            None => (None, None),
        }
    } else if let Some(t) = &m.transport {
        match transport(state, side, t, &at.at("transport"), mode, &mut bads) {
            Some((from, to)) => {
                for (j, h) in &known {
                    if *h != from {
                        bads.push(bad(
                            unit_at(*j),
                            "11.2",
                            format!(
                                "{} is in hex {h}, not in {}",
                                units[*j].name,
                                place_id(state, from)
                            ),
                            "units in the origin city",
                        ));
                    }
                }
                let cap = transport_cap(side);
                if mem.transported + m.units.len() > cap {
                    bads.push(bad(
                        at.at("units"),
                        "11.8",
                        format!(
                            "{} may transport {cap} units a phase; {} already, {} more asked",
                            side.name(),
                            mem.transported,
                            m.units.len()
                        ),
                        format!("at most {} more", cap.saturating_sub(mem.transported)),
                    ));
                }
                (Some(Kind::Transport { from, to }), Some(to))
            }
            None => (None, None),
        }
    } else {
        (None, None)
    };
    // 8.6, A52: every mercenary that moves this phase ends in one hex.
    if let (Some(d), Some(first)) = (dest, mem.merc_dest) {
        for (j, u) in units.iter().enumerate() {
            if u.merc && d != first {
                bads.push(bad(
                    unit_at(j),
                    "8.6",
                    format!(
                        "mercenary {} would end in hex {d}; the mercenaries that moved before end in {first}",
                        u.name
                    ),
                    format!("move every mercenary to hex {first} (8.6: all moving mercenaries end in one hex)"),
                ));
            }
        }
    }
    Judged {
        units,
        kind,
        dest,
        problems: bads,
    }
}

/// 9.1-9.6 and 23.1 on a path; `start` is the stack's hex when certain.
fn normal(
    state: &State,
    side: Side,
    path: &[HexId],
    start: Option<HexId>,
    at: &FieldPath,
    mode: &Mode,
    bads: &mut Vec<Problem>,
) {
    let map = &state.data.map;
    let gov = state.flag(&Flag::LibGovernment);
    let mut spent = 0;
    let mut prev = start;
    for (k, h) in path.iter().copied().enumerate() {
        let p = at.at("path").at(k);
        if !map.valid_id(h) {
            bads.push(bad(
                p,
                "9.2",
                format!("hex {h} is off the map"),
                "a hex id on the map",
            ));
            return;
        }
        if !map.is_land(h) {
            bads.push(bad(
                p,
                "9.6",
                format!("hex {h} is sea"),
                "land hexes only: cross the sea by a sea move (10)",
            ));
            return;
        }
        let cost = match prev {
            Some(a) if Map::distance(a, h) != 1 => {
                bads.push(bad(
                    p,
                    "9.2",
                    format!("hex {h} is not next to hex {a}"),
                    format!("one of {:?}", land_neighbours(map, a)),
                ));
                return;
            }
            Some(a) => match map.hexside(a, h) {
                Hexside::Impassable => {
                    bads.push(bad(
                        p,
                        "9.6",
                        format!("the hexside {a}|{h} is impassable"),
                        "another way round",
                    ));
                    return;
                }
                Hexside::Mountain => 2,
                Hexside::Open => 1,
            },
            // Unknown start hex (check time): at least 1 MP.
            None => 1,
        };
        spent += cost;
        if spent > MP {
            let mountain = prev.is_some_and(|a| map.hexside(a, h) == Hexside::Mountain);
            bads.push(bad(
                p,
                if mountain { "9.3" } else { "9.1" },
                if mountain {
                    format!(
                        "crossing the mountain hexside into {h} costs 2 MP and only {} MP are left (9.3)",
                        MP + cost - spent
                    )
                } else {
                    format!("hex {h} needs more than the {MP} MP a unit has")
                },
                "a shorter path: 1 MP a hex, 2 across a mountain hexside",
            ));
            return;
        }
        if let Some(b) = andy_bad(state, side, h, &p, mode) {
            bads.push(b);
            return;
        }
        let enemy = state.units_in(h, side.other()).len();
        let last = k + 1 == path.len();
        if enemy > 0 && !last {
            let passes = side == Side::Fed && !gov && enemy <= 3;
            if !passes {
                bads.push(bad(
                    at.at("path").at(k + 1),
                    if side == Side::Fed && !gov {
                        "9.5"
                    } else {
                        "9.4"
                    },
                    format!(
                        "hex {h} holds {enemy} enemy unit(s): the move ends there{}",
                        if side == Side::Fed && !gov {
                            " (Fed passes only hexes with at most 3 Lib units)"
                        } else {
                            ""
                        }
                    ),
                    format!("a path that ends at hex {h}"),
                ));
                return;
            }
        }
        prev = Some(h);
    }
}

fn land_neighbours(map: &Map, h: HexId) -> Vec<HexId> {
    map.neighbours(h)
        .into_iter()
        .filter(|n| mp_cost(map, h, *n).is_some())
        .collect()
}

/// 10.1-10.8 except the units' location; returns (card, from, to).
fn sea(
    state: &State,
    side: Side,
    s: &SeaOrder,
    at: &FieldPath,
    mem: &Memory,
    mode: &Mode,
    bads: &mut Vec<Problem>,
) -> Option<(u32, HexId, HexId)> {
    let n0 = bads.len();
    let Some(no) = s.card else {
        bads.push(bad(
            at.at("card"),
            "10.1",
            "a sea move needs a card",
            "card: NO of a sea-move card in hand",
        ));
        return None;
    };
    if mem.cards.contains(&no) {
        bads.push(bad(
            at.at("card"),
            "10.8",
            format!("card {no} is already used by an earlier move: one route and group per card"),
            "another sea-move card in hand",
        ));
        return None;
    }
    let card = match play::may_play(state, side, no, PhaseName::Movement, None) {
        Ok(c) => c,
        Err(r) => {
            bads.push(bad(at.at("card"), r.rule, r.message, r.accepted));
            return None;
        }
    };
    let Some(effect) = sea_effect(&card.effects) else {
        bads.push(bad(
            at.at("card"),
            "10.1",
            format!("card {no} gives no sea move"),
            "a card with a sea_move effect",
        ));
        return None;
    };
    let (from, to) = city_ends(
        state,
        [&s.from, &s.to],
        at,
        ("10.2", "a sea move", "a city id on the card's routes"),
        bads,
    )?;
    let (a, b) = (place_id(state, from), place_id(state, to));
    // 10.8: every unit that moves by sea in the phase goes from the same hex to the same hex.
    if let Some((f0, t0)) = mem.sea_route
        && (f0, t0) != (from, to)
    {
        bads.push(bad(
            at.clone(),
            "10.8",
            format!(
                "an earlier sea move goes from {} to {}: all sea-moving units go from one hex to one hex",
                place_id(state, f0),
                place_id(state, t0)
            ),
            format!(
                "from: {}, to: {}, or move these units another way",
                place_id(state, f0),
                place_id(state, t0)
            ),
        ));
    }
    if !effect
        .routes
        .iter()
        .any(|[x, y]| (*x == a && *y == b) || (*x == b && *y == a))
    {
        let routes: Vec<String> = effect
            .routes
            .iter()
            .map(|[x, y]| format!("{x}-{y}"))
            .collect();
        bads.push(bad(
            at.at("to"),
            route_rule(card),
            format!("card {no} has no route {a}-{b}"),
            format!("one of its routes: {}", routes.join(", ")),
        ));
    }
    if effect.origin_must_be_friendly
        && let Some(held) = start_control(state, side, from, mode)
        && held != side
    {
        bads.push(bad(
            at.at("from"),
            "10.6",
            format!(
                "card {no} needs an origin {} controlled at the start of the phase; {a} {} {}'s{}",
                side.name(),
                if mode.live() { "was" } else { "is" },
                held.name(),
                if mode.live() {
                    ""
                } else {
                    " and nothing before your movement phase can change that"
                }
            ),
            "an origin you control when the phase begins (10.6)",
        ));
    }
    if let Some(b) = andy_bad(state, side, to, &at.at("to"), mode) {
        bads.push(b);
    }
    (bads.len() == n0).then_some((no, from, to))
}

/// The rule that lists a sea-move card's routes: 10.3 for card 20, 10.4 for 32, 10.5 for 68,
/// as each card's `rules` says; 10.2 (routes between cities) for a card that names none.
fn route_rule(card: &Card) -> &'static str {
    ["10.3", "10.4", "10.5"]
        .into_iter()
        .find(|r| card.rules.iter().any(|c| c == r))
        .unwrap_or("10.2")
}

/// 11.2-11.9 except the units' location and the cap; returns (from, to).
fn transport(
    state: &State,
    side: Side,
    t: &TransportOrder,
    at: &FieldPath,
    mode: &Mode,
    bads: &mut Vec<Problem>,
) -> Option<(HexId, HexId)> {
    let n0 = bads.len();
    if side == Side::Lib && !may_hold(state, side, &Flag::LibGovernment, mode) {
        bads.push(bad(
            at.clone(),
            "11.9",
            "Lib cannot transport until card 29 is open",
            "a normal or sea move",
        ));
        return None;
    }
    let (from, to) = city_ends(
        state,
        [&t.from, &t.to],
        at,
        ("11.2", "a transport", "a city id"),
        bads,
    )?;
    if from == to {
        bads.push(bad(
            at.at("to"),
            "11.2",
            "a transport goes to another city",
            "a different city",
        ));
        return None;
    }
    let d = transport_distance(&state.data.map, side, from, to);
    if d > TRANSPORT_RANGE {
        bads.push(bad(
            at.at("to"),
            "11.4",
            format!(
                "{} is {d} hexes from {}; the range is {TRANSPORT_RANGE}",
                place_id(state, to),
                place_id(state, from)
            ),
            "a city within 3 hexes (11.4); bonar/spa-grante count 3 (11.7); Fed: north_pole_port-sandrea (11.6)",
        ));
    }
    for (f, h) in [("from", from), ("to", to)] {
        let id = place_id(state, h);
        if let Some(held) = start_control(state, side, h, mode)
            && held != side
        {
            bads.push(bad(
                at.at(f),
                "11.3",
                if mode.live() {
                    format!("{id} was {}'s at the start of the phase", held.name())
                } else {
                    format!(
                        "{id} is {}'s and nothing before your movement phase can change that",
                        held.name()
                    )
                },
                "cities you control when the phase begins (11.3)",
            ));
        }
    }
    if let Some(b) = andy_bad(state, side, to, &at.at("to"), mode) {
        bads.push(b);
    }
    (bads.len() == n0).then_some((from, to))
}

/// Carries out a move judged legal on the live state.
fn execute(
    state: &mut State,
    side: Side,
    i: usize,
    ids: &[String],
    kind: &Kind,
    ctx: &mut Ctx,
) -> Result<HexId, String> {
    let who = side.name();
    let list = ids.join(", ");
    let from = ids
        .first()
        .and_then(|id| match state.units.get(id).map(|u| &u.at) {
            Some(UnitAt::Hex(h)) => Some(*h),
            _ => None,
        })
        .ok_or_else(|| format!("move {} has no unit on the map", i + 1))?;
    let put = |state: &mut State, h: HexId| {
        for id in ids {
            if let Some(u) = state.units.get_mut(id) {
                u.at = UnitAt::Hex(h);
            }
        }
    };
    match kind {
        Kind::Normal(path) => {
            let mut done = Vec::new();
            for (k, h) in path.iter().copied().enumerate() {
                put(state, h);
                done.push(h.to_string());
                if side == Side::Lib {
                    play::lib_unit_entered(state, h, ctx); // 24.1
                }
                // Enemy units that appeared on entry (24.2) end the move there (9.4).
                if k + 1 < path.len() && !state.units_in(h, side.other()).is_empty() {
                    let passes = side == Side::Fed
                        && !state.flag(&Flag::LibGovernment)
                        && state.units_in(h, Side::Lib).len() <= 3;
                    if !passes {
                        ctx.log.public(format!(
                            "{who} moves {list} from hex {from} to {} (9)",
                            done.join(" > ")
                        ));
                        reach::fire("9.4");
                        // Private: the rest of the path is a plan that did not happen.
                        ctx.log.private(
                            side,
                            format!(
                                "your move {} stops in hex {h}: enemy units are there now (9.4)",
                                i + 1
                            ),
                        );
                        return Ok(h);
                    }
                }
            }
            ctx.log.public(format!(
                "{who} moves {list} from hex {from} to {} (9)",
                done.join(" > ")
            ));
        }
        Kind::Sea { card, from, to } => {
            let played = play::play(state, side, *card, ctx)?;
            if sea_effect(&played.effects).is_none() {
                return Err(format!("card {card} lost its sea move"));
            }
            put(state, *to);
            ctx.log.public(format!(
                "{who} moves {list} by sea from {} to {} with card {card} (10)",
                place_id(state, *from),
                place_id(state, *to)
            ));
            if side == Side::Lib {
                play::lib_unit_entered(state, *to, ctx);
            }
        }
        Kind::Transport { from, to } => {
            put(state, *to);
            ctx.log.public(format!(
                "{who} transports {list} from {} to {} (11)",
                place_id(state, *from),
                place_id(state, *to)
            ));
            if side == Side::Lib {
                play::lib_unit_entered(state, *to, ctx);
            }
        }
    }
    Ok(ids
        .first()
        .and_then(|id| state.units.get(id))
        .and_then(|u| match u.at {
            UnitAt::Hex(h) => Some(h),
            _ => None,
        })
        .unwrap_or(from))
}

/// 8.4.2-8.4.3, 6.10, A6: Lib hexes over the limit at the end of the phase, fixed by the
/// standing policy. A unit moves only to an adjacent land hex across a passable hexside, free
/// of Fed units and with room left, so the fix never makes a new over-stack.
pub fn fix_overstack(state: &mut State, ctx: &mut Ctx) {
    let policy = state.policies[Side::Lib].movement.overstack.clone();
    let mut count: BTreeMap<HexId, usize> = BTreeMap::new();
    for u in state.units.values() {
        if let (UnitAt::Hex(h), Side::Lib) = (&u.at, u.side) {
            *count.entry(*h).or_default() += 1;
        }
    }
    let over: Vec<HexId> = count
        .iter()
        .filter(|(_, n)| **n > LIB_STACK)
        .map(|(h, _)| *h)
        .collect();
    for h in over {
        let mut here: Vec<(usize, u8, String)> = state
            .units_in(h, Side::Lib)
            .into_iter()
            .map(|id| {
                let ty = state.unit_type(id).unwrap_or("");
                let listed = policy
                    .shed_first
                    .iter()
                    .position(|t| t == ty)
                    .unwrap_or(policy.shed_first.len());
                let cba = u8::from(state.class_of(id) == Some(Class::Cba));
                (listed, cba, id.to_string())
            })
            .collect();
        here.sort();
        let excess = here.len().saturating_sub(LIB_STACK);
        reach::fire("6.10");
        reach::fire("8.4.2");
        ctx.log.public(format!(
            "hex {h} holds {} Lib units, over the limit of {LIB_STACK} (8.4.2): the standing policy removes {excess} (6.10: your movement policy, docs/dougram.md, Decisions)",
            here.len()
        ));
        for (_, _, id) in here.into_iter().take(excess) {
            let dest = if policy.mode == OverstackMode::MoveThenEliminate {
                let map = &state.data.map;
                let mut c: Vec<(usize, HexId)> = land_neighbours(map, h)
                    .into_iter()
                    .filter(|n| state.units_in(*n, Side::Fed).is_empty())
                    .map(|n| (state.units_in(n, Side::Lib).len(), n))
                    .filter(|(k, _)| *k < LIB_STACK)
                    .collect();
                c.sort();
                c.first().map(|(_, n)| *n)
            } else {
                None
            };
            match dest {
                Some(d) => {
                    if let Some(u) = state.units.get_mut(&id) {
                        u.at = UnitAt::Hex(d);
                    }
                    ctx.log.public(format!(
                        "{id} leaves the over-stack in hex {h} for hex {d} (6.10: your movement policy, docs/dougram.md, Decisions)"
                    ));
                    play::lib_unit_entered(state, d, ctx);
                }
                None => {
                    if let Some(u) = state.units.get_mut(&id) {
                        u.at = UnitAt::Stock;
                    }
                    ctx.log.public(format!(
                        "{id} is eliminated to the stock to end the over-stack in hex {h} (6.10: your movement policy, docs/dougram.md, Decisions)"
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice, give};
    use crate::systems::dougram::state::{ChitAt, Step};

    /// Setup1 after the deal with every unit back in the stock, `side` phasing.
    fn blank(side: Side) -> State {
        let mut s = dealt("setup1", 7);
        for u in s.units.values_mut() {
            u.at = UnitAt::Stock;
        }
        s.step = match side {
            Side::Lib => Step::Lib,
            Side::Fed => Step::Fed,
        };
        // Cards that change movement rules stay out of both hands unless a test puts them in.
        for (_, z) in s.cards.iter_mut() {
            for c in [20, 29, 32, 64, 68] {
                z.hand.take(&c);
            }
        }
        s.recompute_control();
        s
    }

    fn put(s: &mut State, ids: &[&str], side: Side, h: HexId) {
        for id in ids {
            crate::systems::dougram::fixtures::put(s, id, h, side);
        }
    }

    fn orders(y: &str) -> MovementOrders {
        crate::yaml::parse(y, "orders.yaml").unwrap()
    }

    /// (field path, rule) of each problem.
    fn probs(s: &State, side: Side, y: &str) -> Vec<(String, String)> {
        let at = FieldPath::root().at("orders").at("movement");
        check(s, side, &orders(y), &at)
            .into_iter()
            .map(|p| (p.path.to_string(), p.rule.unwrap_or_default()))
            .collect()
    }

    fn one(path: &str, rule: &str) -> Vec<(String, String)> {
        vec![(format!("orders.movement.{path}"), rule.to_string())]
    }

    fn run_with(s: &mut State, side: Side, y: &str, labels: &[(&str, &str)]) -> Log {
        let o = orders(y);
        let mut d = dice(11);
        let mut ctx = Ctx::new(&mut d);
        for (l, id) in labels {
            ctx.labels.insert(l.to_string(), id.to_string());
        }
        resolve(s, side, &o, &mut ctx).unwrap();
        ctx.log
    }

    fn run(s: &mut State, side: Side, y: &str) -> Log {
        run_with(s, side, y, &[])
    }

    fn at(s: &State, id: &str) -> UnitAt {
        s.units[id].at.clone()
    }

    fn has(log: &[String], needle: &str) -> bool {
        log.iter().any(|l| l.contains(needle))
    }

    #[test]
    fn an_empty_order_is_valid_and_still_checks_control_3_3_1() {
        let mut s = blank(Side::Lib);
        assert!(probs(&s, Side::Lib, "{}").is_empty());
        // Control is stale: Lib units sit in Spa. The start check sees it.
        put(&mut s, &["SO01"], Side::Lib, 58);
        let log = run(&mut s, Side::Lib, "{}");
        assert!(has(&log.public, "start of movement"), "{log:?}");
        assert_eq!(s.control["spa"], Side::Lib);
    }

    #[test]
    fn control_is_checked_at_the_end_of_movement_3_3_1() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 57);
        let log = run(&mut s, Side::Lib, "moves: [{units: [SO01], path: [58]}]");
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(58));
        assert!(
            has(&log.public, "Spa passes to lib control (end of movement"),
            "{log:?}"
        );
    }

    #[test]
    fn two_hexes_cost_the_two_mp_a_unit_has_9_1_9_2() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01", "SO02"], Side::Lib, 62);
        let y = "moves: [{units: [SO01, SO02], path: [52, 53]}]";
        assert!(probs(&s, Side::Lib, y).is_empty());
        let log = run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(53));
        assert_eq!(at(&s, "SO02"), UnitAt::Hex(53));
        assert!(has(&log.public, "from hex 62 to 52 > 53 (9)"), "{log:?}");
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 62);
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], path: [52, 53, 54]}]"
            ),
            one("moves[0].path[2]", "9.1")
        );
    }

    #[test]
    fn a_mountain_hexside_costs_one_more_mp_9_3() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 53);
        put(&mut s, &["SO02"], Side::Lib, 54);
        // 53|63 is a mountain hexside: 2 MP from 53 is fine ...
        run(&mut s, Side::Lib, "moves: [{units: [SO01], path: [63]}]");
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(63));
        // ... but not with 1 MP left (A14).
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO02], path: [53, 63]}]"),
            one("moves[0].path[1]", "9.3")
        );
        assert_eq!(mp_cost(&s.data.map, 53, 63), Some(2));
        assert_eq!(mp_cost(&s.data.map, 53, 54), Some(1));
    }

    #[test]
    fn sea_hexes_and_impassable_hexsides_are_never_crossed_9_6() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO01"], Side::Fed, 58);
        put(&mut s, &["SO02"], Side::Fed, 72);
        assert_eq!(
            probs(&s, Side::Fed, "moves: [{units: [SO01], path: [59]}]"),
            one("moves[0].path[0]", "9.6")
        );
        assert_eq!(
            probs(&s, Side::Fed, "moves: [{units: [SO02], path: [73]}]"),
            one("moves[0].path[0]", "9.6")
        );
        assert_eq!(mp_cost(&s.data.map, 72, 73), None);
    }

    #[test]
    fn path_hexes_must_be_adjacent_and_on_the_map_9_2() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 52);
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO01], path: [54]}]"),
            one("moves[0].path[0]", "9.2")
        );
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO01], path: [53, 103]}]"),
            one("moves[0].path[1]", "9.2")
        );
    }

    #[test]
    fn the_units_of_a_move_start_in_one_hex_9_2() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 62);
        put(&mut s, &["SO02"], Side::Lib, 52);
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO01, SO02], path: [53]}]"),
            one("moves[0].units[1]", "9.2")
        );
    }

    #[test]
    fn entering_a_hex_with_enemy_units_ends_the_move_9_4() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 53);
        put(&mut s, &["SO10"], Side::Fed, 54);
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO01], path: [54, 55]}]"),
            one("moves[0].path[1]", "9.4")
        );
        // Ending in the enemy hex is fine.
        run(&mut s, Side::Lib, "moves: [{units: [SO01], path: [54]}]");
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(54));
    }

    #[test]
    fn latent_chits_do_not_stop_a_move_9_4_a13() {
        let mut s = blank(Side::Fed);
        let k = s.cup()[0].clone();
        s.place_chit(&k, ChitAt::Hex(52));
        put(&mut s, &["SO11"], Side::Fed, 62);
        let y = "moves: [{units: [SO11], path: [52, 53]}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO11"), UnitAt::Hex(53));
    }

    #[test]
    fn fed_passes_hexes_with_three_lib_units_or_fewer_before_29_9_5() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 53);
        put(&mut s, &["SO01", "SO02", "SO03"], Side::Lib, 54);
        let y = "moves: [{units: [SO10], path: [54, 55]}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        let mut t = s.clone();
        run(&mut t, Side::Fed, y);
        assert_eq!(at(&t, "SO10"), UnitAt::Hex(55));
        // A fourth Lib unit stops Fed.
        let mut t = s.clone();
        put(&mut t, &["SO04"], Side::Lib, 54);
        assert_eq!(probs(&t, Side::Fed, y), one("moves[0].path[1]", "9.5"));
        // With card 29 open the exception lapses (9.4 applies).
        let mut t = s.clone();
        t.open.insert(29);
        assert_eq!(probs(&t, Side::Fed, y), one("moves[0].path[1]", "9.4"));
        // Lib never passes Fed units.
        let mut t = blank(Side::Lib);
        put(&mut t, &["SO01"], Side::Lib, 53);
        put(&mut t, &["SO10"], Side::Fed, 54);
        assert_eq!(
            probs(&t, Side::Lib, "moves: [{units: [SO01], path: [54, 55]}]"),
            one("moves[0].path[1]", "9.4")
        );
    }

    #[test]
    fn a_move_that_became_illegal_is_skipped_at_resolution_9_4() {
        // The path was clear at the start of the step; a Fed unit is there when Lib moves.
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 53);
        let y = "moves: [{units: [SO01], path: [54, 55]}]";
        assert!(probs(&s, Side::Lib, y).is_empty());
        put(&mut s, &["SO10"], Side::Fed, 54);
        let log = run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(53));
        assert!(
            has(&log.private[Side::Lib], "your move 1 is skipped at path[1]"),
            "{log:?}"
        );
        assert!(has(&log.private[Side::Lib], "(9.4)"), "{log:?}");
    }

    #[test]
    fn a_skipped_move_is_told_to_its_player_only() {
        // A sea move that names card 32 in hand and is refused at resolution (10.6): the
        // opponent must learn neither the card nor the plan.
        let mut s = blank(Side::Fed);
        give(&mut s, Side::Fed, 32);
        put(&mut s, &["SO10"], Side::Fed, 14);
        put(&mut s, &["SO01", "SO02", "SO03"], Side::Lib, 14);
        s.recompute_control();
        let y = "moves: [{units: [SO10], sea: {card: 32, from: grante, to: bonar}}]";
        let log = run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(14));
        assert!(
            has(
                &log.private[Side::Fed],
                "your move 1 is skipped at sea.from"
            ),
            "{log:?}"
        );
        for needle in ["skipped", "move 1", "card 32", "10.6", "bonar"] {
            assert!(!has(&log.public, needle), "{needle}: {log:?}");
        }
        assert!(log.private[Side::Lib].is_empty(), "{log:?}");
        // A move cut short by enemy units (9.4): public is where the units went, nothing more.
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 52);
        let log = run(
            &mut s,
            Side::Lib,
            "moves: [{units: [SO01], path: [61, 71]}]",
        );
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(61));
        assert!(
            has(&log.private[Side::Lib], "your move 1 stops in hex 61"),
            "{log:?}"
        );
        assert!(has(&log.public, "from hex 52 to 61 (9)"), "{log:?}");
        for needle in ["stops", "move 1", "> 71"] {
            assert!(!has(&log.public, needle), "{needle}: {log:?}");
        }
        assert!(log.private[Side::Fed].is_empty(), "{log:?}");
    }

    #[test]
    fn fed_never_enters_andy_before_its_card_is_open_23_1() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 57);
        let y = "moves: [{units: [SO10], path: [66]}]";
        assert_eq!(probs(&s, Side::Fed, y), one("moves[0].path[0]", "23.1"));
        // With card 64 in hand it may be opened first: check accepts, resolution skips.
        give(&mut s, Side::Fed, 64);
        assert!(probs(&s, Side::Fed, y).is_empty());
        let mut t = s.clone();
        let log = run(&mut t, Side::Fed, y);
        assert_eq!(at(&t, "SO10"), UnitAt::Hex(57));
        assert!(has(&log.private[Side::Fed], "(23.1)"), "{log:?}");
        // Open: Fed may enter.
        s.cards[Side::Fed].hand.take(&64);
        s.open.insert(64);
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(66));
        // Lib always may.
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 57);
        run(&mut s, Side::Lib, "moves: [{units: [SO01], path: [66]}]");
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(66));
    }

    #[test]
    fn fed_transport_into_andy_is_refused_too_23_1_a37() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 77);
        assert_eq!(
            probs(
                &s,
                Side::Fed,
                "moves: [{units: [SO10], transport: {from: lambel, to: andy}}]"
            ),
            one("moves[0].transport.to", "23.1")
        );
    }

    #[test]
    fn each_unit_makes_one_move_of_one_kind_a_phase_8_2() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 62);
        let y = "moves: [{units: [SO01], path: [52]}, {units: [SO01], path: [53]}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[1].units[0]", "8.2"));
        let log = run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(52));
        assert!(
            has(&log.private[Side::Lib], "your move 2 is skipped"),
            "{log:?}"
        );
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], path: [53], transport: {from: bonar, to: spa}}]"
            ),
            one("moves[0]", "8.2")
        );
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO01]}]"),
            one("moves[0]", "8.2")
        );
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{path: [53]}]"),
            one("moves[0].units", "8.1")
        );
    }

    #[test]
    fn the_fortress_never_moves_22_7() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["FT01"], Side::Fed, 62);
        assert_eq!(
            probs(&s, Side::Fed, "moves: [{units: [FT01], path: [52]}]"),
            one("moves[0].units[0]", "22.7")
        );
    }

    #[test]
    fn a_unit_of_the_other_side_is_named_by_its_own_side_8_1() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO05"], Side::Fed, 62);
        let at = FieldPath::root();
        let p = check(
            &s,
            Side::Lib,
            &orders("moves: [{units: [SO05], path: [52]}]"),
            &at,
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].message, "SO05 is a fed unit");
        assert_eq!(p[0].accepted, "one of lib's own units");
    }

    #[test]
    fn a_bad_sea_route_cites_the_rule_that_lists_the_cards_routes_10_3_10_4_10_5() {
        let mut s = blank(Side::Fed);
        give(&mut s, Side::Fed, 32);
        give(&mut s, Side::Fed, 68);
        put(&mut s, &["SO10"], Side::Fed, 95);
        for (card, rule) in [(32, "10.4"), (68, "10.5")] {
            let y = format!(
                "moves: [{{units: [SO10], sea: {{card: {card}, from: garland, to: estor}}}}]"
            );
            assert_eq!(probs(&s, Side::Fed, &y), one("moves[0].sea.to", rule));
        }
        let mut s = blank(Side::Lib);
        give(&mut s, Side::Lib, 20);
        put(&mut s, &["SO01"], Side::Lib, 95);
        let y = "moves: [{units: [SO01], sea: {card: 20, from: garland, to: estor}}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[0].sea.to", "10.3"));
    }

    #[test]
    fn only_own_units_on_the_map_move_8_1() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO10"], Side::Fed, 62);
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO10], path: [52]}]"),
            one("moves[0].units[0]", "8.1")
        );
        s.units.get_mut("SO10").unwrap().at = UnitAt::Removed;
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [SO10], path: [52]}]"),
            one("moves[0].units[0]", "8.1")
        );
        // A Fed-only counter in the stock can never be Lib's.
        assert_eq!(
            probs(&s, Side::Lib, "moves: [{units: [RF01], path: [52]}]"),
            one("moves[0].units[0]", "8.1")
        );
        // A stock counter Lib may still arm passes the check but cannot move if it stays there.
        let y = "moves: [{units: [SO20], path: [52]}]";
        assert!(probs(&s, Side::Lib, y).is_empty());
        let log = run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO20"), UnitAt::Stock);
        assert!(has(&log.private[Side::Lib], "(8.1)"), "{log:?}");
        // Unknown names are labels at check time unless the labels are known.
        let o = orders("moves: [{units: [nolabel], path: [52]}]");
        let root = FieldPath::root();
        assert!(check(&s, Side::Lib, &o, &root).is_empty());
        let p = check_with(&s, Side::Lib, &o, Some(&BTreeSet::new()), &root);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "moves[0].units[0]");
        assert_eq!(p[0].rule.as_deref(), Some("8.1"));
    }

    #[test]
    fn a_fed_cba_start_hex_is_judged_at_resolution_when_7_10_may_move_it_8_1() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["RF01"], Side::Fed, 62);
        // The box holds no CBA, so 7.10 may send RF01 to the box and replenishment bring it to
        // North Pole Port before Fed moves: a path from there passes the check.
        let y = "moves: [{units: [RF01], path: [71]}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        let log = run(&mut s.clone(), Side::Fed, y);
        assert!(has(&log.private[Side::Fed], "(9.2)"), "{log:?}");
        // With a CBA in the box 7.10 cannot apply, so the start hex is certain.
        s.units.get_mut("RF02").unwrap().at = UnitAt::ReplenishmentBox;
        s.units.get_mut("RF02").unwrap().side = Side::Fed;
        assert_eq!(probs(&s, Side::Fed, y), one("moves[0].path[0]", "9.2"));
    }

    #[test]
    fn a_label_from_earlier_in_the_step_names_the_new_unit_8_1() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO30"], Side::Lib, 62);
        run_with(
            &mut s,
            Side::Lib,
            "moves: [{units: [new1], path: [52]}]",
            &[("new1", "SO30")],
        );
        assert_eq!(at(&s, "SO30"), UnitAt::Hex(52));
    }

    #[test]
    fn mercenaries_that_move_end_in_one_hex_8_6() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["GA01"], Side::Fed, 62);
        put(&mut s, &["GA02"], Side::Fed, 72);
        assert_eq!(
            probs(
                &s,
                Side::Fed,
                "moves: [{units: [GA01], path: [52]}, {units: [GA02], path: [71]}]"
            ),
            one("moves[1].units[0]", "8.6")
        );
        let y = "moves: [{units: [GA01], path: [61]}, {units: [GA02], path: [61]}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        let mut t = s.clone();
        run(&mut t, Side::Fed, y);
        assert_eq!(at(&t, "GA01"), UnitAt::Hex(61));
        assert_eq!(at(&t, "GA02"), UnitAt::Hex(61));
        // A merc named by label is only known at resolution: skipped there.
        let y = "moves: [{units: [GA01], path: [52]}, {units: [m], path: [71]}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        let log = run_with(&mut s, Side::Fed, y, &[("m", "GA02")]);
        assert_eq!(at(&s, "GA02"), UnitAt::Hex(72));
        assert!(has(&log.private[Side::Fed], "(8.6)"), "{log:?}");
    }

    #[test]
    fn a_lib_over_stack_moves_to_the_emptiest_adjacent_hex_6_10_8_4_2() {
        let mut s = blank(Side::Lib);
        put(
            &mut s,
            &["CG01", "SO01", "SO02", "SO03", "SO04"],
            Side::Lib,
            62,
        );
        put(&mut s, &["SO05"], Side::Lib, 52);
        put(&mut s, &["SO06"], Side::Lib, 53);
        put(&mut s, &["SO07"], Side::Lib, 61);
        put(&mut s, &["SO08"], Side::Lib, 63);
        put(&mut s, &["SO10"], Side::Fed, 73);
        let mut t = s.clone();
        let log = run(&mut t, Side::Lib, "{}");
        // 72 is empty; 73 has Fed units; the first soldier leaves.
        assert_eq!(at(&t, "SO01"), UnitAt::Hex(72));
        assert_eq!(t.units_in(62, Side::Lib).len(), 4);
        assert!(has(&log.public, "(8.4.2)"), "{log:?}");
        // The policy names what leaves first.
        s.policies[Side::Lib].movement.overstack.shed_first = vec!["crab_gunner".into()];
        run(&mut s, Side::Lib, "{}");
        assert_eq!(at(&s, "CG01"), UnitAt::Hex(72));
    }

    #[test]
    fn a_lib_over_stack_with_no_room_nearby_is_eliminated_6_10() {
        let mut s = blank(Side::Lib);
        put(
            &mut s,
            &["SO01", "SO02", "SO03", "SO04", "SO05"],
            Side::Lib,
            13,
        );
        put(&mut s, &["SO06", "SO07", "SO08", "SO09"], Side::Lib, 14);
        let log = run(&mut s, Side::Lib, "{}");
        assert_eq!(at(&s, "SO01"), UnitAt::Stock);
        assert!(has(&log.public, "eliminated"), "{log:?}");
        // Mode eliminate never moves.
        let mut s = blank(Side::Lib);
        put(
            &mut s,
            &["SO01", "SO02", "SO03", "SO04", "SO05"],
            Side::Lib,
            62,
        );
        s.policies[Side::Lib].movement.overstack.mode = OverstackMode::Eliminate;
        run(&mut s, Side::Lib, "{}");
        assert_eq!(at(&s, "SO01"), UnitAt::Stock);
        assert_eq!(s.units_in(62, Side::Lib).len(), 4);
    }

    #[test]
    fn stacking_counts_only_at_the_end_of_the_phase_8_4_3() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01", "SO02", "SO03", "SO04"], Side::Lib, 53);
        put(&mut s, &["SO05"], Side::Lib, 52);
        // SO05 passes the full hex 53 to 54: no fix is needed.
        let log = run(
            &mut s,
            Side::Lib,
            "moves: [{units: [SO05], path: [53, 54]}]",
        );
        assert_eq!(at(&s, "SO05"), UnitAt::Hex(54));
        assert!(!has(&log.public, "6.10"), "{log:?}");
    }

    #[test]
    fn a_move_that_leaves_more_than_four_lib_units_in_a_hex_is_refused_at_check_8_4_2() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01", "SO02", "SO03"], Side::Lib, 53);
        put(&mut s, &["SO05", "SO06"], Side::Lib, 52);
        let y = "moves: [{units: [SO05, SO06], path: [53]}]";
        let p = check(&s, Side::Lib, &orders(y), &FieldPath::root());
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path.to_string(), "moves[0]");
        assert_eq!(p[0].rule.as_deref(), Some("8.4.2"));
        assert!(p[0].message.contains("would hold 5 Lib units"), "{p:?}");
        // A unit leaving the hex in the same phase makes room (8.4.3: only the end counts).
        let y = "moves: [{units: [SO05, SO06], path: [53]}, {units: [SO01], path: [54]}]";
        assert!(probs(&s, Side::Lib, y).is_empty());
        // With card 29 in hand it may be open before movement: no limit then (8.4.2).
        let y = "moves: [{units: [SO05, SO06], path: [53]}]";
        give(&mut s, Side::Lib, 29);
        assert!(probs(&s, Side::Lib, y).is_empty());
        // The template's choices offer no move into a full hex.
        let mut t = blank(Side::Lib);
        put(&mut t, &["SO01", "SO02", "SO03", "SO04"], Side::Lib, 53);
        put(&mut t, &["SO05"], Side::Lib, 52);
        assert!(
            !move_choices(&t, Side::Lib)
                .iter()
                .any(|m| m.units == ["SO05"] && m.path.last() == Some(&53)),
            "no choice ends in the full hex 53"
        );
    }

    #[test]
    fn no_stack_limit_for_fed_or_for_lib_with_29_open_8_4_1_8_4_2() {
        let mut s = blank(Side::Lib);
        put(
            &mut s,
            &["SO01", "SO02", "SO03", "SO04", "SO05"],
            Side::Lib,
            62,
        );
        s.open.insert(29);
        run(&mut s, Side::Lib, "{}");
        assert_eq!(s.units_in(62, Side::Lib).len(), 5);
        let mut s = blank(Side::Fed);
        put(
            &mut s,
            &["SO01", "SO02", "SO03", "SO04", "SO05", "SO06"],
            Side::Fed,
            62,
        );
        run(&mut s, Side::Fed, "{}");
        assert_eq!(s.units_in(62, Side::Fed).len(), 6);
        assert_eq!(
            legal_movement_policy(
                &s,
                Side::Fed,
                &MovementPolicy {
                    overstack: OverstackPolicy {
                        mode: OverstackMode::Eliminate,
                        ..OverstackPolicy::default()
                    }
                },
                &FieldPath::root()
            )[0]
            .rule
            .as_deref(),
            Some("8.4.1")
        );
    }

    #[test]
    fn an_overstack_policy_names_real_types_6_10() {
        let s = blank(Side::Lib);
        let p = MovementPolicy {
            overstack: OverstackPolicy {
                shed_first: vec!["soldier".into(), "zaku".into()],
                mode: OverstackMode::MoveThenEliminate,
            },
        };
        let probs = legal_movement_policy(&s, Side::Lib, &p, &FieldPath::root().at("movement"));
        assert_eq!(probs.len(), 1);
        assert_eq!(
            probs[0].path.to_string(),
            "movement.overstack.shed_first[1]"
        );
    }

    #[test]
    fn a_sea_move_takes_a_group_along_a_route_of_the_card_played_10_2_10_7() {
        let mut s = blank(Side::Lib);
        give(&mut s, Side::Lib, 20);
        put(&mut s, &["SO01", "SO02"], Side::Lib, 58);
        // Spa is Fed's (empty city, A2): card 20 does not care (10.7).
        let y = "moves: [{units: [SO01, SO02], sea: {card: 20, from: spa, to: 14}}]";
        assert!(probs(&s, Side::Lib, y).is_empty());
        let log = run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(14));
        assert_eq!(at(&s, "SO02"), UnitAt::Hex(14));
        assert!(!s.cards[Side::Lib].hand.contains(&20));
        assert!(
            s.cards[Side::Lib]
                .deck
                .discard
                .iter()
                .any(|d| d.card == 20 && d.face_up)
        );
        assert!(
            has(&log.public, "by sea from spa to grante with card 20 (10)"),
            "{log:?}"
        );
    }

    #[test]
    fn a_sea_move_needs_the_card_in_hand_and_one_of_its_routes_10_1_10_3() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 58);
        let y = "moves: [{units: [SO01], sea: {card: 20, from: spa, to: grante}}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[0].sea.card", "2.10"));
        give(&mut s, Side::Lib, 20);
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], sea: {card: 20, from: spa, to: bonar}}]"
            ),
            one("moves[0].sea.to", "10.3")
        );
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], sea: {card: 20, from: spa}}]"
            ),
            one("moves[0].sea.to", "10.2")
        );
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], sea: {card: 20, from: 57, to: grante}}]"
            ),
            one("moves[0].sea.from", "10.2")
        );
        // A card playable now that gives no sea move (106 draws cards, any phase).
        give(&mut s, Side::Lib, 106);
        let y = "moves: [{units: [SO01], sea: {card: 106, from: spa, to: grante}}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[0].sea.card", "10.1"));
    }

    #[test]
    fn sea_move_units_start_in_the_origin_city_10_2_a16() {
        let mut s = blank(Side::Lib);
        give(&mut s, Side::Lib, 20);
        put(&mut s, &["SO01"], Side::Lib, 57);
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], sea: {card: 20, from: spa, to: grante}}]"
            ),
            one("moves[0].units[0]", "10.2")
        );
        // Moving into the origin first is a second move (8.2, A16).
        let y = "moves: [{units: [SO01], path: [58]}, {units: [SO01], sea: {card: 20, from: spa, to: grante}}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[1].units[0]", "8.2"));
    }

    #[test]
    fn all_sea_moves_of_a_phase_go_from_one_hex_to_one_hex_10_8() {
        let mut s = blank(Side::Fed);
        give(&mut s, Side::Fed, 32);
        give(&mut s, Side::Fed, 68);
        put(&mut s, &["SO10"], Side::Fed, 95);
        put(&mut s, &["SO11"], Side::Fed, 95);
        // A card carries one group (2.10: it is played once).
        let y = "moves: [{units: [SO10], sea: {card: 32, from: garland, to: sandrea}}, {units: [SO11], sea: {card: 32, from: garland, to: sandrea}}]";
        assert_eq!(probs(&s, Side::Fed, y), one("moves[1].sea.card", "10.8"));
        // Two cards, two destinations: the second move breaks 10.8.
        let y = "moves: [{units: [SO10], sea: {card: 32, from: garland, to: sandrea}}, {units: [SO11], sea: {card: 68, from: garland, to: doga}}]";
        assert_eq!(probs(&s, Side::Fed, y), one("moves[1].sea", "10.8"));
        let mut t = s.clone();
        let log = run(&mut t, Side::Fed, y);
        assert_eq!(at(&t, "SO10"), UnitAt::Hex(75));
        assert_eq!(at(&t, "SO11"), UnitAt::Hex(95), "{log:?}");
        assert!(has(&log.private[Side::Fed], "(10.8)"), "{log:?}");
        // Two cards on the same hex-to-hex route: fine.
        let y = "moves: [{units: [SO10], sea: {card: 32, from: garland, to: sandrea}}, {units: [SO11], sea: {card: 68, from: garland, to: sandrea}}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(75));
        assert_eq!(at(&s, "SO11"), UnitAt::Hex(75));
    }

    #[test]
    fn cards_32_and_68_need_an_origin_controlled_at_the_phase_start_10_6() {
        let mut s = blank(Side::Fed);
        give(&mut s, Side::Fed, 32);
        put(&mut s, &["SO10"], Side::Fed, 14);
        put(&mut s, &["SO01", "SO02", "SO03"], Side::Lib, 14);
        s.recompute_control();
        assert_eq!(s.control["grante"], Side::Lib);
        let y = "moves: [{units: [SO10], sea: {card: 32, from: grante, to: bonar}}]";
        // Nothing before Fed's movement can give Fed a city Lib holds: refused at check.
        assert_eq!(probs(&s, Side::Fed, y), one("moves[0].sea.from", "10.6"));
        let mut t = s.clone();
        let log = run(&mut t, Side::Fed, y);
        assert_eq!(at(&t, "SO10"), UnitAt::Hex(14));
        assert!(has(&log.private[Side::Fed], "(10.6)"), "{log:?}");
        assert!(
            t.cards[Side::Fed].hand.contains(&32),
            "a skipped move plays no card"
        );
        // Fed-controlled origin: fine.
        s.units.get_mut("SO03").unwrap().at = UnitAt::Stock;
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(54));
    }

    #[test]
    fn transport_range_is_three_hexes_with_the_11_7_pairs_at_three_11_4_11_7() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 54);
        put(&mut s, &["SO11"], Side::Fed, 58);
        // Bonar-Grante is 4 hexes on the map and counts 3.
        let y = "moves: [{units: [SO10], transport: {from: bonar, to: grante}}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(14));
        // Bonar-Spa is 4 and no pair.
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 54);
        assert_eq!(
            probs(
                &s,
                Side::Fed,
                "moves: [{units: [SO10], transport: {from: bonar, to: spa}}]"
            ),
            one("moves[0].transport.to", "11.4")
        );
        assert_eq!(
            probs(
                &s,
                Side::Fed,
                "moves: [{units: [SO10], transport: {from: bonar, to: 53}}]"
            ),
            one("moves[0].transport.to", "11.2")
        );
    }

    #[test]
    fn fed_lifts_between_north_pole_port_and_sandrea_at_any_range_11_6() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 61);
        let y = "moves: [{units: [SO10], transport: {from: north_pole_port, to: sandrea}}]";
        assert!(probs(&s, Side::Fed, y).is_empty());
        run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(75));
        // Not for Lib.
        let mut s = blank(Side::Lib);
        s.open.insert(29);
        put(&mut s, &["SO01"], Side::Lib, 61);
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01], transport: {from: north_pole_port, to: sandrea}}]"
            ),
            one("moves[0].transport.to", "11.4")
        );
    }

    #[test]
    fn transport_caps_are_five_fed_and_two_lib_units_a_phase_11_8() {
        let mut s = blank(Side::Fed);
        put(
            &mut s,
            &["SO10", "SO11", "SO12", "SO13", "SO14", "SO15"],
            Side::Fed,
            75,
        );
        let y = "moves: [{units: [SO10, SO11, SO12], transport: {from: sandrea, to: cardinal}}, {units: [SO13, SO14, SO15], transport: {from: sandrea, to: cardinal}}]";
        assert_eq!(probs(&s, Side::Fed, y), one("moves[1].units", "11.8"));
        let log = run(&mut s, Side::Fed, y);
        assert_eq!(s.units_in(73, Side::Fed).len(), 3);
        assert!(has(&log.private[Side::Fed], "(11.8)"), "{log:?}");
        let mut s = blank(Side::Lib);
        s.open.insert(29);
        put(&mut s, &["SO01", "SO02", "SO03"], Side::Lib, 75);
        assert_eq!(
            probs(
                &s,
                Side::Lib,
                "moves: [{units: [SO01, SO02, SO03], transport: {from: sandrea, to: cardinal}}]"
            ),
            one("moves[0].units", "11.8")
        );
    }

    #[test]
    fn lib_transports_only_with_card_29_open_11_9() {
        let mut s = blank(Side::Lib);
        put(&mut s, &["SO01"], Side::Lib, 75);
        let y = "moves: [{units: [SO01], transport: {from: sandrea, to: cardinal}}]";
        assert_eq!(probs(&s, Side::Lib, y), one("moves[0].transport", "11.9"));
        // 29 in hand may be opened before movement.
        give(&mut s, Side::Lib, 29);
        assert!(probs(&s, Side::Lib, y).is_empty());
        let log = run(&mut s.clone(), Side::Lib, y);
        assert!(has(&log.private[Side::Lib], "(11.9)"), "{log:?}");
        // Open, and both cities Lib's at the start of the phase.
        s.open.insert(29);
        put(&mut s, &["SO02"], Side::Lib, 73);
        run(&mut s, Side::Lib, y);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(73));
    }

    #[test]
    fn transport_uses_cities_controlled_at_the_start_of_the_phase_11_3() {
        let mut s = blank(Side::Fed);
        put(&mut s, &["SO10"], Side::Fed, 54);
        put(&mut s, &["SO01"], Side::Lib, 73);
        let y = "moves: [{units: [SO10], transport: {from: bonar, to: cardinal}}]";
        // Lib holds Cardinal and nothing before Fed's movement can change that (7.6).
        assert_eq!(
            probs(&s, Side::Fed, y),
            one("moves[0].transport.to", "11.3")
        );
        let log = run(&mut s, Side::Fed, y);
        assert_eq!(at(&s, "SO10"), UnitAt::Hex(54));
        assert!(
            has(
                &log.private[Side::Fed],
                "transport.to: cardinal was lib's at the start of the phase"
            ),
            "{log:?}"
        );
    }

    #[test]
    fn a_transport_city_that_arming_may_still_turn_is_judged_when_the_phase_starts_11_3() {
        let mut s = blank(Side::Lib);
        s.open.insert(29);
        put(&mut s, &["SO01"], Side::Lib, 54);
        put(&mut s, &["SO10"], Side::Fed, 73);
        s.recompute_control();
        assert_eq!(s.control["cardinal"], Side::Fed);
        let y = "moves: [{units: [SO01], transport: {from: bonar, to: cardinal}}]";
        for c in s.chits.values_mut() {
            if c.at == ChitAt::Hex(73) {
                c.at = ChitAt::Cup;
            }
        }
        assert_eq!(
            probs(&s, Side::Lib, y),
            one("moves[0].transport.to", "11.3")
        );
        // A latent chit in Cardinal: arming may turn it before movement, so only the phase
        // can tell.
        let chit = s.cup()[0].clone();
        s.chits.get_mut(&chit).unwrap().at = ChitAt::Hex(73);
        assert!(probs(&s, Side::Lib, y).is_empty());
    }

    #[test]
    fn a_lib_unit_entering_north_pole_port_opens_its_card_and_the_arrivals_stop_it_24_1_9_4() {
        let mut s = blank(Side::Lib);
        let no = s
            .data
            .cards
            .cards
            .iter()
            .find(|c| !c.auto_open.is_empty())
            .map(|c| c.no)
            .unwrap();
        put(&mut s, &["SO01"], Side::Lib, 52);
        let log = run(
            &mut s,
            Side::Lib,
            "moves: [{units: [SO01], path: [61, 71]}]",
        );
        assert!(s.open.contains(&no), "{log:?}");
        assert!(!s.units_in(61, Side::Fed).is_empty());
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(61));
        assert!(
            has(&log.private[Side::Lib], "your move 1 stops in hex 61"),
            "{log:?}"
        );
    }

    #[test]
    fn orders_parse_places_by_id_or_hex_and_refuse_unknown_fields() {
        let o = orders(
            "moves:\n  - {units: [SO05, SO06], path: [57, 58]}\n  - {units: [SO07], sea: {card: 20, from: spa, to: 14}}\n  - {units: [SO08], transport: {from: bonar, to: grante}}\n",
        );
        assert_eq!(o.moves.len(), 3);
        let sea = o.moves[1].sea.clone().unwrap();
        assert_eq!(sea.from, Some(HexRef::Place("spa".into())));
        assert_eq!(sea.to, Some(HexRef::Hex(14)));
        assert!(
            crate::yaml::parse::<MovementOrders>("moves: [{units: [A], hop: 3}]", "o").is_err()
        );
        assert_eq!(
            crate::yaml::to_string(&MovementOrders::default()).trim(),
            "{}"
        );
    }

    #[test]
    fn the_template_lists_units_by_hex_and_sea_cards_in_hand() {
        let mut s = blank(Side::Lib);
        give(&mut s, Side::Lib, 20);
        put(&mut s, &["SO01", "SO02"], Side::Lib, 58);
        let t = template(
            &s,
            Side::Lib,
            &crate::systems::dougram::steps::choices(&s, Side::Lib),
        );
        assert!(t.lines().all(|l| l.starts_with('#')), "{t}");
        assert!(t.contains("58 spa: SO01 soldier, SO02 soldier"), "{t}");
        assert!(t.contains("card 20"), "{t}");
        assert!(t.contains("until card 29"), "{t}");
        assert!(t.contains("{units: [SO01], path: ["), "{t}");
        let f = template(
            &blank(Side::Fed),
            Side::Fed,
            &crate::systems::dougram::steps::choices(&blank(Side::Fed), Side::Fed),
        );
        assert!(f.contains("(none)") && f.contains("23.1"), "{f}");
    }
}
