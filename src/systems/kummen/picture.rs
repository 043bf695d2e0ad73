//! The board picture of a kummen view (`pbem map`, turn mail): terrain, the river chain, hex
//! labels, bases with their controllers, units as counters, crowded stacks listed beside the
//! map, the turn, stage and points, this record's moves as arrows and its combats marked, and
//! a legend.
//!
//! Drawn from the view, the view's events and the public map alone (Rules::picture). Moves and
//! combats come from the events the view lists (the record's public events and the reader's
//! own): a move is a line `UNIT moves A→B→C` (or `heli UNIT flies ...`), a retreat `... retreats
//! UNITS to HEX` inside a combat, and a combat is any event under `tN/pX/combat/HEX`.

use super::control::control_name;
use super::data::{self, Components, Control, Side, Terrain};
use super::stages;
use super::state::Modifiers;
use super::view::{View, ViewUnit};
use crate::kit::hex::Hex;
use crate::kit::picture::hexes::HexLayout;
use crate::kit::picture::page::{self, Cell, Page};
use crate::kit::picture::panel::Swatch;
use crate::kit::picture::pieces::{self, Counter};
use crate::kit::picture::style::{self, Ink, Pattern};
use crate::kit::picture::{El, Pt, Svg};
use crate::kit::seats::Seat;
use std::collections::BTreeSet;

/// Hex radius, in pixels: 16 columns make a map about 1180 pixels wide, and a hex holds its
/// label, a 2 x 2 block of counters and a base's name plate without overlap.
const RADIUS: i32 = 48;
/// Counter size in a hex (2 x 2 fit inside).
const COUNTER: i32 = 26;
const PANEL_WIDTH: i32 = 360;

const CLEAR: Ink = Ink::plain("#fbf8ee", "#8a8a80", "#111111");
const FOREST: Ink = Ink {
    pattern: Some(Pattern::Trees),
    ..Ink::plain("#bcd9a2", "#8a8a80", "#111111")
};
const HIGHLAND: Ink = Ink {
    pattern: Some(Pattern::Contours),
    ..Ink::plain("#cfb386", "#8a8a80", "#111111")
};
const RIVER_OUTER: &str = "#2c64a8";
const RIVER_INNER: &str = "#a9cdf0";

fn seat(side: Side) -> usize {
    Side::ALL.iter().position(|s| *s == side).unwrap_or(0)
}

fn control_ink(c: Control) -> (Ink, &'static str) {
    match c.side() {
        Some(s) => (
            style::side(seat(s)).front,
            match s {
                Side::Mercenary => "M",
                Side::Beeler => "B",
            },
        ),
        None => (style::NEUTRAL, "N"),
    }
}

/// The unit as its counter shows it.
fn counter(u: &ViewUnit) -> Counter {
    let key = u.token.clone().or_else(|| u.id.clone()).unwrap_or_default();
    // "M-AT01" shows as "AT01": the side is the counter's colour.
    let short = |id: &str| {
        id.split_once('-')
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_else(|| id.to_string())
    };
    let (top, main) = match (&u.id, &u.values, &u.token) {
        (Some(id), Some(v), _) => (short(id), v.clone()),
        (Some(id), None, _) => (short(id), String::new()),
        (None, _, Some(t)) => match t.split_once('#') {
            Some((prefix, n)) => (format!("{prefix}#"), n.to_string()),
            None => (String::new(), t.clone()),
        },
        (None, _, None) => (String::new(), "?".into()),
    };
    Counter {
        key,
        side: seat(u.side),
        down: u.face == "down",
        top,
        main,
        spent: u.face == "acted",
    }
}

/// How a unit is written in the side list: as the text view names it.
fn list_entry(u: &ViewUnit) -> String {
    let name = match (&u.token, &u.id) {
        (Some(t), Some(id)) => format!("{t}={id}"),
        (Some(t), None) => t.clone(),
        (None, Some(id)) => id.clone(),
        (None, None) => "?".into(),
    };
    match &u.values {
        Some(v) => format!("{name} {v}"),
        None => name,
    }
}

/// What the events of the record say moved and fought.
#[derive(Debug, Default, PartialEq, Eq)]
struct Activity {
    /// (side, path, what moved), one per distinct side and path, in event order.
    moves: Vec<(Side, Vec<Hex>, String)>,
    combats: BTreeSet<Hex>,
}

/// The hexes of a word like `B08→C09→D09;`.
fn path_of(word: &str) -> Option<Vec<Hex>> {
    let word = word.trim_end_matches([';', ',', '.', ')']);
    let hexes: Result<Vec<Hex>, _> = word.split('→').map(Hex::parse).collect();
    hexes.ok().filter(|p| p.len() >= 2)
}

/// Reads moves and combats from the view's events; `side_of` names the side of a unit (an id
/// or a token), or none.
fn activity(events: &[String], side_of: impl Fn(&str) -> Option<Side>) -> Activity {
    let mut act = Activity::default();
    let add = |act: &mut Activity, side: Side, path: Vec<Hex>, what: String| match act
        .moves
        .iter_mut()
        .find(|(s, p, _)| *s == side && *p == path)
    {
        Some((_, _, w)) => {
            w.push_str(", ");
            w.push_str(&what);
        }
        None => act.moves.push((side, path, what)),
    };
    for e in events {
        let e = e.strip_prefix("(only you) ").unwrap_or(e);
        let Some((head, body)) = e.split_once(": ") else {
            continue;
        };
        let combat_hex = head
            .split_once("/combat/")
            .and_then(|(_, rest)| Hex::parse(rest.split('/').next().unwrap_or("")).ok());
        if let Some(h) = combat_hex {
            act.combats.insert(h);
        }
        let words: Vec<&str> = body.split(' ').collect();
        // UNIT moves PATH / heli UNIT flies PATH
        if let Some(i) = words.iter().position(|w| *w == "moves" || *w == "flies")
            && i >= 1
            && let Some(path) = words.get(i + 1).and_then(|w| path_of(w))
        {
            let unit = words[i - 1];
            if let Some(side) = side_of(unit) {
                add(&mut act, side, path, unit.to_string());
            }
            continue;
        }
        // the SIDE side retreats U1, U2 to HEX (inside a combat)
        if let (Some(from), Some(i)) = (combat_hex, words.iter().position(|w| *w == "retreats"))
            && let Some(to) = words.iter().position(|w| *w == "to")
            && let Some(dest) = words.get(to + 1).and_then(|w| Hex::parse(w).ok())
            && to > i + 1
        {
            let units: Vec<&str> = words[i + 1..to]
                .iter()
                .map(|w| w.trim_end_matches(','))
                .collect();
            if let Some(side) = units.first().and_then(|u| side_of(u)) {
                add(&mut act, side, vec![from, dest], units.join(", "));
            }
        }
    }
    act
}

/// The picture of `v`.
pub fn picture(v: &View, events: &[String], data: &Components) -> Svg {
    let map = &data.map;
    let layout = HexLayout::for_grid(&map.grid, RADIUS, Page::map_origin());
    let mut page = Page::begin(
        &format!("Kummen campaign: {}", page::whose(&v.reader)),
        &format!("now: {}", v.step),
        layout.size(),
        PANEL_WIDTH,
    );
    let doc = &mut page.doc;

    // Terrain, labels.
    let centre = |h: Hex| layout.hex_centre(&map.grid, h);
    doc.open(El::new("g").attr("class", "terrain"));
    for h in map.grid.all() {
        let ink = match map.terrain(h) {
            Terrain::Forest => FOREST,
            Terrain::Highland => HIGHLAND,
            Terrain::Clear | Terrain::River => CLEAR,
        };
        layout.cell(doc, centre(h), &ink, &h.label());
    }
    for river in &map.rivers {
        let pts: Vec<Pt> = river.iter().map(|h| centre(*h)).collect();
        layout.chain(doc, &pts, RIVER_OUTER, RIVER_INNER, 10);
    }
    doc.close();

    // Bases: a ring in the controller's outline, the controller's mark, the name.
    doc.open(El::new("g").attr("class", "bases"));
    for b in &v.bases {
        let c = centre(b.hex);
        let (ink, letter) = control_ink(b.control);
        pieces::place_ring(doc, c, RADIUS - 8, &ink);
        // At the east corner, beside the counters (the combat burst takes the west one).
        pieces::control_mark(doc, c.add(RADIUS - 11, 0), 8, &ink, letter);
    }
    doc.close();

    // This record's moves and combats (from the view's events).
    let side_of = |unit: &str| -> Option<Side> {
        let in_view = v
            .hexes
            .iter()
            .flat_map(|h| &h.units)
            .find(|u| u.id.as_deref() == Some(unit) || u.token.as_deref() == Some(unit));
        if let Some(u) = in_view {
            return Some(u.side);
        }
        if let Some(kind) = data.counters.units.get(unit) {
            return data.counters.types.get(kind).map(|t| t.side);
        }
        Side::ALL
            .iter()
            .copied()
            .find(|s| unit.starts_with(&format!("{}#", s.token_prefix())))
    };
    let act = activity(events, side_of);
    // Under the counters, so no value is hidden: the heads stop at the edge of the stack.
    doc.open(El::new("g").attr("class", "moves"));
    for (side, path, what) in &act.moves {
        let pts: Vec<Pt> = path.iter().map(|h| centre(*h)).collect();
        pieces::arrow(doc, &pts, seat(*side), 2 * COUNTER / 3 + 8, what);
    }
    doc.close();

    // Units: counters, or piles for a crowded hex (listed in the panel).
    let cells = v
        .hexes
        .iter()
        .map(|h| Cell {
            at: centre(h.hex).add(0, 1),
            label: h.hex.label(),
            title: match &h.base {
                Some(b) => format!("{} {b}", h.hex),
                None => h.hex.to_string(),
            },
            units: h
                .units
                .iter()
                .map(|u| (counter(u), list_entry(u)))
                .collect(),
        })
        .collect();
    let crowded = page.units(cells, COUNTER);

    // Base names over the counters, at the foot of the hex; combats over them, each with a
    // burst at its west corner.
    // The two river hexes of the supply line (2.3.2) are named as places are.
    let foot = |h: Hex| centre(h).add(0, layout.half_height - 7);
    let names: Vec<(Pt, String)> = v
        .bases
        .iter()
        .map(|b| (foot(b.hex), b.name.clone()))
        .chain(
            map.supply_hexes
                .iter()
                .map(|h| (foot(*h), "supply".to_string())),
        )
        .collect();
    page.names(&names, 2 * RADIUS - 20);
    let combats: Vec<_> = act
        .combats
        .iter()
        .map(|h| {
            let c = centre(*h);
            (layout.corners(c), c.add(-RADIUS + 10, 0), h.label())
        })
        .collect();
    page.combats(&combats);

    // The panel.
    let mut p = page.panel(PANEL_WIDTH);
    let doc = &mut page.doc;
    p.heading(doc, "Game");
    if !v.waiting_for.is_empty() {
        p.pair(doc, "Waiting for:", &v.waiting_for.join(", "));
    }
    if let Some(e) = &v.ending {
        p.para(doc, &format!("Game over: {e}"), 12, true);
    }
    p.track(doc, "Turn", 1, v.turn.max(12), v.turn);
    p.pair(doc, "Stage:", stages::name(v.stage));
    if let Some(next) = v.next_stage {
        p.pair(doc, "Next turn:", stages::name(next));
    }
    p.pair(
        doc,
        "VP:",
        &format!(
            "mercenary {}   beeler {}",
            v.vp[Side::Mercenary],
            v.vp[Side::Beeler]
        ),
    );
    p.pair(doc, "Beeler RP:", &v.rp.to_string());
    let m = &v.modifiers;
    if *m != Modifiers::default() {
        p.pair(
            doc,
            "Modifiers (2.2.9):",
            &format!(
                "escape +{}, SD +{}, Kiriko +{}",
                m.escape, m.sd_arrival, m.kiriko
            ),
        );
    }
    if let Some(o) = &v.offensive {
        p.pair(doc, "General offensive:", o);
    }
    p.pair(
        doc,
        "Cups:",
        &format!(
            "mercenary {}   beeler {}",
            v.cup_counts[Side::Mercenary],
            v.cup_counts[Side::Beeler]
        ),
    );
    let supply: Vec<String> = map.supply_hexes.iter().map(|h| h.label()).collect();
    p.pair(
        doc,
        "Supply line (4.4.2):",
        &format!("{}, {}, {}", data::EX10, supply.join(", "), data::ZAKUI),
    );
    p.heading(doc, "Bases");
    for b in &v.bases {
        p.pair(
            doc,
            &format!("{} {}", b.hex, b.name),
            &format!(
                "{} BP{}  {}",
                b.bp,
                b.base_attack
                    .as_ref()
                    .map(|a| format!(", attack {a}"))
                    .unwrap_or_default(),
                control_name(b.control)
            ),
        );
    }
    if !crowded.is_empty() {
        p.heading(doc, "Stacks of more than 4 units");
        for (name, entries) in &crowded {
            p.units(doc, name, entries);
        }
    }
    let mut off: Vec<(String, String)> = Vec::new();
    if let Some(c) = &v.own_cup {
        let list = if c.is_empty() {
            "empty".to_string()
        } else {
            c.join(", ")
        };
        off.push(("Your cup:".into(), list));
    }
    if !v.stock.is_empty() {
        off.push(("Stock:".into(), v.stock.join(", ")));
    }
    if !v.returning.is_empty() {
        off.push(("Returning:".into(), v.returning.join(", ")));
    }
    if !v.removed.is_empty() {
        off.push(("Removed:".into(), v.removed.join(", ")));
    }
    if !off.is_empty() {
        p.heading(doc, "Off the map");
        for (label, list) in &off {
            p.para(doc, &format!("{label} {list}"), 11, false);
        }
    }
    let note =
        "Map and counters are stand-ins (the rulebook has no components); see games/kummen/.";
    page.finish(p, &legend(), v.stand_in_data.then_some(note))
}

fn legend() -> Vec<(Swatch, String)> {
    let sample = |side: Side, down: bool, top: &str, main: &str| {
        Swatch::Counter(Counter {
            key: String::new(),
            side: seat(side),
            down,
            top: top.into(),
            main: main.into(),
            spent: false,
        })
    };
    let mut items = vec![
        (Swatch::Fill(CLEAR), "clear".to_string()),
        (Swatch::Fill(FOREST), "forest".to_string()),
        (Swatch::Fill(HIGHLAND), "highland".to_string()),
        (
            Swatch::Chain(RIVER_OUTER, RIVER_INNER, 10),
            "river chain".to_string(),
        ),
    ];
    for side in Side::ALL {
        items.push((
            sample(*side, false, "AT01", "9-4"),
            format!("{} unit, face up: attack-defense", side.name()),
        ));
        items.push((
            sample(*side, true, &format!("{}#", side.token_prefix()), "7"),
            format!("{} unit, face down: its token", side.name()),
        ));
    }
    for c in [Control::Mercenary, Control::Beeler, Control::Neutral] {
        let (ink, letter) = control_ink(c);
        items.push((
            Swatch::Control(ink, letter.to_string()),
            format!("base held by {}", control_name(c)),
        ));
    }
    for side in Side::ALL {
        items.push((
            Swatch::Arrow(seat(*side)),
            format!("{} move in the last step", side.name()),
        ));
    }
    items.push((Swatch::Combat, "combat in the last step".to_string()));
    items.push((
        Swatch::Counter(Counter {
            key: String::new(),
            side: 0,
            down: false,
            top: "H01".into(),
            main: "8-3".into(),
            spent: true,
        }),
        "heli that has acted".to_string(),
    ));
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn side_by_prefix(u: &str) -> Option<Side> {
        match u.chars().next() {
            Some('M') => Some(Side::Mercenary),
            Some('B') => Some(Side::Beeler),
            _ => None,
        }
    }

    fn h(s: &str) -> Hex {
        Hex::parse(s).unwrap()
    }

    /// The grey a colour prints as (Rec. 601 luma, 0-255).
    fn luma(colour: &str) -> i32 {
        let hex = colour.trim_start_matches('#');
        let c = |i: usize| i32::from_str_radix(&hex[i..i + 2], 16).unwrap();
        (299 * c(0) + 587 * c(2) + 114 * c(4)) / 1000
    }

    #[test]
    fn terrain_is_told_apart_in_grey_by_lightness_or_texture() {
        let kinds = [CLEAR, FOREST, HIGHLAND];
        for (i, a) in kinds.iter().enumerate() {
            for b in &kinds[i + 1..] {
                let lighter = (luma(a.fill) - luma(b.fill)).abs() >= 30;
                assert!(lighter || a.pattern != b.pattern, "{a:?} {b:?}");
            }
        }
        // The river is a line of its own: a dark band with a light core.
        assert!(luma(RIVER_OUTER) < 100 && luma(RIVER_INNER) > 180);
    }

    #[test]
    fn moves_and_flights_become_paths_of_their_sides() {
        let act = activity(
            &lines(&[
                "t2/p2: B-BLUE moves O05→N04→M04",
                "t3/p5: heli M-H03 flies B08→C09→D09 (5.11)",
                "(only you) t3/p5: M#4 moves B08→C08; entering the Nuba Highlands: B#3 in H08 is B-AT01 (11.2)",
            ]),
            side_by_prefix,
        );
        assert_eq!(
            act.moves,
            vec![
                (
                    Side::Beeler,
                    vec![h("O05"), h("N04"), h("M04")],
                    "B-BLUE".into()
                ),
                (
                    Side::Mercenary,
                    vec![h("B08"), h("C09"), h("D09")],
                    "M-H03".into()
                ),
                (Side::Mercenary, vec![h("B08"), h("C08")], "M#4".into()),
            ]
        );
        assert!(act.combats.is_empty());
    }

    #[test]
    fn units_on_the_same_path_share_one_arrow() {
        let act = activity(
            &lines(&[
                "t10/p7a: B-AT09 moves J10→K11",
                "t10/p7a: B-SO05 moves J10→K11",
            ]),
            side_by_prefix,
        );
        assert_eq!(act.moves.len(), 1);
        assert_eq!(act.moves[0].2, "B-AT09, B-SO05");
    }

    #[test]
    fn combats_are_marked_by_hex_and_retreats_leave_them() {
        let act = activity(
            &lines(&[
                "t1/p8/combat/F07/r1: M-AT07 (9) at B-SO07 (2): need 2D <= 7, rolled 9: missed (9.9.3)",
                "t1/p8/combat/F07: the beeler side retreats B-SO07, B#18 to G07 (9.11.9, 9.11.10)",
                "t1/p4/combat/G10: no combat",
                "t1/p4: combat phase, phase player beeler (9.4)",
            ]),
            side_by_prefix,
        );
        assert_eq!(act.combats, BTreeSet::from([h("F07"), h("G10")]));
        assert_eq!(
            act.moves,
            vec![(
                Side::Beeler,
                vec![h("F07"), h("G07")],
                "B-SO07, B#18".into()
            )]
        );
    }

    #[test]
    fn a_line_that_only_looks_like_a_move_draws_nothing() {
        let act = activity(
            &lines(&[
                "t3/p9: the game moves to stage 3 (Kiriko returns) (the turn marker was flipped, 12.3; 12.7)",
                "t3/p9: X moves nowhere→Z",
                "no colon here",
            ]),
            side_by_prefix,
        );
        assert_eq!(act, Activity::default());
    }
}
