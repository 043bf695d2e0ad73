//! The board picture of a dougram view (`pbem map`, turn mail): sea, land, cold and desert
//! hexes with their numbers, mountain and impassable hexsides, places with their names, VP and
//! controllers, units as counters (crowded hexes listed beside the map), latent chits as
//! face-down tokens, the turn, step and VP, the boxes, cup, stock and replenishment box, the
//! cards as the view gives them, this record's moves as arrows and its combats marked, and a
//! legend.
//!
//! Drawn from the view, the view's events and the public map alone (Rules::picture). The events
//! name moves as `SIDE moves UNITS from hex A to B > C (9)`, `SIDE moves UNITS by sea from P to
//! Q with card N (10)`, `SIDE transports UNITS from P to Q (11)` (P and Q place ids) and
//! `UNIT leaves the over-stack in hex A for hex B`, and combats as `SIDE declares a combat at
//! NAME (12.2)` (NAME is `Place (73)` or `hex 74`).

use super::data::{Data, HexId, Hexside, Side};
use super::state::Step;
use super::view::{ChitView, UnitView, View, cards_text};
use crate::kit::picture::hexes::HexLayout;
use crate::kit::picture::page::{self, Cell, Page};
use crate::kit::picture::panel::{Panel, Swatch};
use crate::kit::picture::pieces::{self, Counter};
use crate::kit::picture::style::{self, Ink, Pattern};
use crate::kit::picture::{Doc, El, Pt, Svg};
use crate::kit::seats::Seat;
use std::collections::BTreeSet;

/// Hex radius, in pixels: the 9 x 9 map is about 900 pixels wide, and a hex holds its number,
/// a 2 x 2 block of counters, a column of three chits, a controller mark and a name plate.
const RADIUS: i32 = 64;
/// Counter size in a hex (2 x 2 fit inside).
const COUNTER: i32 = 28;
/// A latent chit's token (a column of three fits west of the counters).
const CHIT: i32 = 18;
const PANEL_WIDTH: i32 = 380;

const LAND: Ink = Ink::plain("#f6f2df", "#8a8a80", "#111111");
const SEA: Ink = Ink {
    pattern: Some(Pattern::Waves),
    ..Ink::plain("#8fb8de", "#8a8a80", "#111111")
};
const COLD: Ink = Ink {
    pattern: Some(Pattern::Cross),
    ..Ink::plain("#dce8f0", "#8a8a80", "#111111")
};
const DESERT: Ink = Ink {
    pattern: Some(Pattern::Dots),
    ..Ink::plain("#e3c27e", "#8a8a80", "#111111")
};
/// Mountain hexsides (+1 MP, 9.3): a brown band with a light core.
const MOUNTAIN_OUTER: &str = "#7a4a1c";
const MOUNTAIN_INNER: &str = "#d8b27a";
/// Impassable hexsides (9.6): solid black.
const IMPASSABLE: &str = "#111111";
const HEXSIDE_WIDTH: i32 = 8;
/// A latent chit: dark, unlike any counter face or control mark.
const CHIT_INK: Ink = Ink {
    width: 15,
    ..Ink::plain("#5b4a1a", "#1e1806", "#ffffff")
};

fn seat(side: Side) -> usize {
    Side::ALL.iter().position(|s| *s == side).unwrap_or(0)
}

fn letter(side: Side) -> &'static str {
    match side {
        Side::Lib => "L",
        Side::Fed => "F",
    }
}

/// Column and row (0-based) of a hex id `10 * column + row`.
fn cell_of(h: HexId) -> (u32, u32) {
    ((h / 10).saturating_sub(1), (h % 10).saturating_sub(1))
}

/// The unit as its counter shows it: its id and its values (anti-armor, anti-personnel,
/// defense), the damaged side's values when damaged.
fn counter(id: &str, u: &UnitView, data: &Data) -> Counter {
    let t = data.counters.types.get(&u.kind);
    let values = t.map(|t| match (&t.damaged, u.damaged) {
        (Some(d), true) => format!("{}-{}-{}", d.aa, d.ap, d.def),
        _ => format!("{}-{}-{}", t.aa, t.ap, t.def),
    });
    Counter {
        key: id.to_string(),
        side: seat(u.side),
        down: false,
        top: id.to_string(),
        main: values.unwrap_or_else(|| "?".into()),
        spent: u.damaged,
    }
}

/// How a unit is written in the side list: as the text view names it.
fn list_entry(id: &str, u: &UnitView) -> String {
    format!(
        "{id} {}{}",
        u.kind.replace('_', " "),
        if u.damaged { " (damaged)" } else { "" }
    )
}

fn chit_text(c: &ChitView) -> String {
    match c.value {
        Some(v) => format!("#{}={v}", c.token),
        None => format!("#{}", c.token),
    }
}

fn chits_text(v: &[ChitView]) -> String {
    v.iter().map(chit_text).collect::<Vec<_>>().join(" ")
}

/// What the events of the record say moved and fought.
#[derive(Debug, Default, PartialEq, Eq)]
struct Activity {
    /// (side, path, what moved), one per distinct side and path, in event order.
    moves: Vec<(Side, Vec<HexId>, String)>,
    combats: BTreeSet<HexId>,
}

/// The hex of a name as the events write it: `hex 74` or `Cardinal (73)`.
fn hex_of_name(name: &str) -> Option<HexId> {
    if let Some(n) = name.strip_prefix("hex ") {
        return n.parse().ok();
    }
    let (_, rest) = name.rsplit_once('(')?;
    rest.strip_suffix(')')?.parse().ok()
}

/// Reads moves and combats from the view's events; `side_of` names the side of a unit id,
/// `place` the hex of a place id.
fn activity(
    events: &[String],
    side_of: impl Fn(&str) -> Option<Side>,
    place: impl Fn(&str) -> Option<HexId>,
) -> Activity {
    let mut act = Activity::default();
    let add = |act: &mut Activity, side: Side, path: Vec<HexId>, what: String| match act
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
        // Drop the rule citation at the end: `... (9)`.
        let body = match e.rsplit_once(" (") {
            Some((b, cite)) if cite.ends_with(')') => b,
            _ => e,
        };
        let (first, rest) = body.split_once(' ').unwrap_or((body, ""));
        let side = Side::parse(first);
        if side.is_some()
            && let Some(rest) = rest.strip_prefix("declares a combat at ")
        {
            // `Cardinal (73)`: the citation already went, the hex is the last parentheses.
            if let Some(h) = hex_of_name(rest) {
                act.combats.insert(h);
            }
            continue;
        }
        if let Some(side) = side
            && let Some(rest) = rest.strip_prefix("moves ")
        {
            if let Some((units, path)) = rest.split_once(" from hex ") {
                let hexes: Option<Vec<HexId>> = path
                    .split(" to ")
                    .flat_map(|p| p.split(" > "))
                    .map(|h| h.trim().parse().ok())
                    .collect();
                if let Some(p) = hexes.filter(|p| p.len() >= 2) {
                    add(&mut act, side, p, units.to_string());
                }
            } else if let Some((units, sea)) = rest.split_once(" by sea from ")
                && let Some((from, to)) = sea.split_once(" to ")
                && let Some((to, _card)) = to.split_once(" with card ")
                && let (Some(a), Some(b)) = (place(from), place(to))
            {
                add(&mut act, side, vec![a, b], units.to_string());
            }
            continue;
        }
        if let Some(side) = side
            && let Some(rest) = rest.strip_prefix("transports ")
            && let Some((units, way)) = rest.split_once(" from ")
            && let Some((from, to)) = way.split_once(" to ")
            && let (Some(a), Some(b)) = (place(from), place(to))
        {
            add(&mut act, side, vec![a, b], units.to_string());
            continue;
        }
        // UNIT leaves the over-stack in hex A for hex B
        if let Some(way) = rest.strip_prefix("leaves the over-stack in hex ")
            && let Some((a, b)) = way.split_once(" for hex ")
            && let (Ok(a), Ok(b)) = (a.parse(), b.trim().parse())
            && let Some(side) = side_of(first)
        {
            add(&mut act, side, vec![a, b], first.to_string());
        }
    }
    act
}

/// The two corners of the hex at `a` that it shares with its neighbour at `b`.
fn shared_side(layout: &HexLayout, a: Pt, b: Pt) -> [Pt; 2] {
    let dist = |p: Pt| {
        let (dx, dy) = (i64::from(p.x - b.x), i64::from(p.y - b.y));
        dx * dx + dy * dy
    };
    let mut corners = layout.corners(a).to_vec();
    corners.sort_by_key(|p| (dist(*p), p.x, p.y));
    [corners[0], corners[1]]
}

fn step_name(s: Step) -> &'static str {
    match s {
        Step::Setup => "setup",
        Step::Lib => "Lib player-turn",
        Step::Fed => "Fed player-turn",
    }
}

/// The picture of `v`.
pub fn picture(v: &View, events: &[String], data: &Data) -> Svg {
    let map = &data.map;
    let layout = HexLayout::odd_q(map.grid.cols, map.grid.rows, RADIUS, Page::map_origin());
    let mut page = Page::begin(
        &format!("Dougram: {}", page::whose(&v.reader)),
        &format!("now: turn {}, {}", v.turn, step_name(v.step)),
        layout.size(),
        PANEL_WIDTH,
    );
    let doc = &mut page.doc;

    // Terrain, hex numbers, hexsides.
    let centre = |h: HexId| {
        let (x, y) = cell_of(h);
        layout.centre(x, y)
    };
    doc.open(El::new("g").attr("class", "terrain"));
    for c in 1..=map.grid.cols {
        for r in 1..=map.grid.rows {
            let h = 10 * c + r;
            let ink = if !map.is_land(h) {
                SEA
            } else if map.cold.contains(&h) {
                COLD
            } else if map.desert.contains(&h) {
                DESERT
            } else {
                LAND
            };
            layout.cell(doc, centre(h), &ink, &h.to_string());
        }
    }
    for (list, kind) in [
        (&map.mountain_hexsides, Hexside::Mountain),
        (&map.impassable_hexsides, Hexside::Impassable),
    ] {
        for [a, b] in list {
            let side = shared_side(&layout, centre(*a), centre(*b));
            let (outer, inner) = match kind {
                Hexside::Mountain => (MOUNTAIN_OUTER, MOUNTAIN_INNER),
                _ => (IMPASSABLE, IMPASSABLE),
            };
            layout.chain(doc, &side, outer, inner, HEXSIDE_WIDTH);
        }
    }
    doc.close();

    // Places: a ring in the controller's outline and the controller's mark.
    doc.open(El::new("g").attr("class", "places"));
    for p in &map.places {
        let c = centre(p.hex);
        if let Some(side) = v.control.get(&p.id) {
            let ink = style::side(seat(*side)).front;
            pieces::place_ring(doc, c, RADIUS - 10, &ink);
            // At the east corner, beside the counters (the chits take the west side).
            pieces::control_mark(doc, c.add(RADIUS - 9, 0), 8, &ink, letter(*side));
        } else {
            pieces::place_ring(doc, c, RADIUS - 10, &style::NEUTRAL);
        }
    }
    doc.close();

    // This record's moves and combats (from the view's events), under the counters.
    let side_of = |unit: &str| -> Option<Side> {
        v.map
            .values()
            .chain(std::iter::once(&v.replenishment_box))
            .find_map(|units| units.get(unit))
            .map(|u| u.side)
    };
    let place = |id: &str| map.place(id).map(|p| p.hex);
    let act = activity(events, side_of, place);
    doc.open(El::new("g").attr("class", "moves"));
    for (side, path, what) in &act.moves {
        let pts: Vec<Pt> = path.iter().map(|h| centre(*h)).collect();
        pieces::arrow(doc, &pts, seat(*side), 2 * COUNTER / 3 + 8, what);
    }
    doc.close();

    // Units: counters, or piles for a crowded hex (listed in the panel), east of the centre,
    // clear of the chits' column and the controller mark.
    let cells = v
        .map
        .iter()
        .map(|(h, units)| Cell {
            at: centre(*h).add(6, 1),
            label: h.to_string(),
            title: match map.place_at(*h) {
                Some(p) => format!("{h} {}", p.en),
                None => h.to_string(),
            },
            units: units
                .iter()
                .map(|(id, u)| (counter(id, u, data), list_entry(id, u)))
                .collect(),
        })
        .collect();
    let crowded = page.units(cells, COUNTER);
    let doc = &mut page.doc;

    // Latent chits: face-down tokens in a column west of the counters, each with its value
    // when the reader may know it (Lib, 2.5), else "?"; the panel lists their token numbers.
    doc.open(El::new("g").attr("class", "chits"));
    for (h, chits) in &v.latent {
        let c = centre(*h);
        let n = i32::try_from(chits.len()).unwrap_or(0).min(3);
        let top = c.y + 1 - (n * CHIT + (n - 1) * 2) / 2;
        for (i, chit) in chits.iter().enumerate().take(3) {
            // More than a column holds (never under 18.4's limits, but a game's own map may
            // allow it): the third token says how many more.
            let label = if i == 2 && chits.len() > 3 {
                format!("+{}", chits.len() - 2)
            } else {
                chit.value.map_or("?".into(), |x| x.to_string())
            };
            let i = i32::try_from(i).unwrap_or(0);
            chit_token(
                doc,
                Pt::new(c.x - RADIUS + 15, top + i * (CHIT + 2)),
                &label,
            );
        }
    }
    doc.close();

    // Place names and VP over the counters, at the foot of the hex; combats over them, each
    // with a burst at its north-east.
    let names: Vec<(Pt, String)> = map
        .places
        .iter()
        .map(|p| {
            let name = if p.vp > 0 {
                format!("{} {}VP", p.en, p.vp)
            } else {
                p.en.clone()
            };
            (centre(p.hex).add(0, layout.half_height - 8), name)
        })
        .collect();
    page.names(&names, 2 * RADIUS - 30);
    let combats: Vec<_> = act
        .combats
        .iter()
        .map(|h| {
            let c = centre(*h);
            (
                layout.corners(c),
                c.add(RADIUS / 2 + 6, -RADIUS / 2 - 2),
                h.to_string(),
            )
        })
        .collect();
    page.combats(&combats);

    let p = panel(&mut page, v, data, &crowded);
    let note = "Map, counters and cards are stand-ins (the rulebook has no components); see games/dougram/.";
    page.finish(p, &legend(), data.map.stand_in.then_some(note))
}

/// A latent chit, face down: a dark square with `label` (its value, or "?").
fn chit_token(doc: &mut Doc, at: Pt, label: &str) {
    CHIT_INK.paint(
        doc,
        El::new("rect")
            .at(at)
            .num("width", CHIT)
            .num("height", CHIT)
            .num("rx", 3),
    );
    doc.text(
        El::new("text")
            .num("x", at.x + CHIT / 2)
            .num("y", at.y + CHIT - 5)
            .num("font-size", 12)
            .attr("font-weight", "bold")
            .attr("text-anchor", "middle")
            .attr("fill", CHIT_INK.text),
        label,
    );
}

/// The side panel: the game, places, crowded hexes, what lies off the map, the cards and the
/// legend; the picture grows to its end.
fn panel(
    page: &mut Page,
    v: &View,
    data: &Data,
    crowded: &[(String, Vec<(Counter, String)>)],
) -> Panel {
    let mut p = page.panel(PANEL_WIDTH);
    let doc = &mut page.doc;
    p.heading(doc, "Game");
    if let Some(f) = &v.finished {
        p.para(
            doc,
            &format!(
                "Game over: {} wins ({}, {})",
                f.winner.name(),
                f.reason,
                f.rule
            ),
            12,
            true,
        );
    }
    p.pair(doc, "Scenario:", &v.scenario);
    p.track(doc, "Turn", 1, v.turn.max(10), v.turn);
    p.pair(doc, "Step:", step_name(v.step));
    p.pair(doc, "Lib VP (20.3):", &v.lib_vp.to_string());

    p.heading(doc, "Places (VP, chit limit, control)");
    for pl in &data.map.places {
        let control = v.control.get(&pl.id).map_or("nobody", |s| s.name());
        p.pair(
            doc,
            &format!("{} {}", pl.hex, pl.en),
            &format!("{} VP, {} chits, {control}", pl.vp, pl.chit_limit),
        );
    }
    let mut other: Vec<String> = data
        .map
        .chit_limits
        .iter()
        .filter(|(h, _)| data.map.place_at(**h).is_none())
        .map(|(h, n)| format!("{n} in hex {h}"))
        .collect();
    other.insert(0, format!("{} in a land hex", data.map.land_chit_limit));
    p.para(
        doc,
        &format!("Latent chit limits (18.4): {}.", other.join(", ")),
        11,
        false,
    );

    if !crowded.is_empty() {
        p.heading(doc, "Hexes of more than 4 units");
        for (name, entries) in crowded {
            p.units(doc, name, entries);
        }
    }

    if !v.latent.is_empty() {
        let list: Vec<String> = v
            .latent
            .iter()
            .map(|(h, c)| format!("{h}: {}", chits_text(c)))
            .collect();
        p.para(
            doc,
            &format!("Latent chits (18): {}", list.join("; ")),
            11,
            false,
        );
    }

    p.heading(doc, "Off the map");
    let rbox: Vec<String> = v
        .replenishment_box
        .iter()
        .map(|(id, u)| list_entry(id, u))
        .collect();
    p.para(
        doc,
        &format!(
            "Replenishment box (17.6): {}",
            if rbox.is_empty() {
                "empty".to_string()
            } else {
                rbox.join(", ")
            }
        ),
        11,
        false,
    );
    p.pair(doc, "Units in the stock:", &v.stock_units.to_string());
    p.pair(doc, "Chits in the cup:", &v.cup.to_string());
    for (b, chits) in &v.boxes {
        if chits.is_empty() {
            continue;
        }
        let owner = data
            .counters
            .boxes
            .iter()
            .find(|x| x.id == *b)
            .map_or("", |x| x.owner.name());
        p.para(
            doc,
            &format!(
                "Box {} ({owner}): {}",
                b.replace('_', " "),
                chits_text(chits)
            ),
            11,
            false,
        );
    }

    p.heading(doc, "Cards");
    for (side, z) in &v.cards {
        let up: Vec<u32> = z
            .discard
            .iter()
            .filter(|d| !d.face_down)
            .filter_map(|d| d.card)
            .collect();
        let own_down: Vec<u32> = z
            .discard
            .iter()
            .filter(|d| d.face_down)
            .filter_map(|d| d.card)
            .collect();
        let down = z.discard.iter().filter(|d| d.face_down).count();
        let mut s = format!("{side}: hand {}", z.hand_size);
        if let Some(h) = &z.hand {
            s.push_str(&format!(" ({})", cards_text(h)));
        }
        s.push_str(&format!(", deck {}, discard ", z.deck_size));
        if z.discard.is_empty() {
            s.push_str("empty");
        } else {
            s.push_str(&format!("{} face up", cards_text(&up)));
        }
        if down > 0 {
            s.push_str(&format!(", {down} face down"));
            if !own_down.is_empty() {
                s.push_str(&format!(" ({})", cards_text(&own_down)));
            }
        }
        if z.pending_discard {
            s.push_str("; discards 1 with its next orders (5.4)");
        }
        p.para(doc, &s, 11, false);
    }
    let named = |no: &u32| match data.cards.cards.iter().find(|c| c.no == *no) {
        Some(c) => format!("{no} {}", c.en),
        None => no.to_string(),
    };
    if !v.open_cards.is_empty() {
        p.para(doc, "Open cards:", 11, true);
        for c in &v.open_cards {
            p.para(doc, &named(c), 11, false);
        }
    }
    if !v.removed_cards.is_empty() {
        p.para(
            doc,
            &format!("Removed cards: {}", cards_text(&v.removed_cards)),
            11,
            false,
        );
    }
    if !v.stock_cards.is_empty() {
        p.para(
            doc,
            &format!("Stock cards: {}", cards_text(&v.stock_cards)),
            11,
            false,
        );
    }

    p
}

fn legend() -> Vec<(Swatch, String)> {
    let sample = |side: Side, top: &str, main: &str, spent: bool| {
        Swatch::Counter(Counter {
            key: String::new(),
            side: seat(side),
            down: false,
            top: top.into(),
            main: main.into(),
            spent,
        })
    };
    let mut items = vec![
        (Swatch::Fill(LAND), "land".to_string()),
        (Swatch::Fill(SEA), "sea (never entered)".to_string()),
        (Swatch::Fill(COLD), "cold (26.1)".to_string()),
        (Swatch::Fill(DESERT), "desert (25.1)".to_string()),
        (
            Swatch::Chain(MOUNTAIN_OUTER, MOUNTAIN_INNER, HEXSIDE_WIDTH),
            "mountain hexside: +1 MP (9.3)".to_string(),
        ),
        (
            Swatch::Chain(IMPASSABLE, IMPASSABLE, HEXSIDE_WIDTH),
            "impassable hexside (9.6)".to_string(),
        ),
        (
            sample(Side::Lib, "SO03", "1-2-1", false),
            "lib unit: id, values AA-AP-DEF".to_string(),
        ),
        (
            sample(Side::Fed, "CG01", "3-3-3", false),
            "fed unit: id, values AA-AP-DEF".to_string(),
        ),
        (
            sample(Side::Lib, "DG01", "4-4-3", true),
            "damaged unit: its damaged values (21)".to_string(),
        ),
        (
            Swatch::Fill(CHIT_INK),
            "latent chit, face down: its value to Lib (2.5), else ?".to_string(),
        ),
    ];
    for side in Side::ALL {
        items.push((
            Swatch::Control(style::side(seat(*side)).front, letter(*side).to_string()),
            format!("place held by {}", side.name()),
        ));
    }
    for side in Side::ALL {
        items.push((
            Swatch::Arrow(seat(*side)),
            format!("{} move in the last step", side.name()),
        ));
    }
    items.push((Swatch::Combat, "combat in the last step".to_string()));
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn no_side(_: &str) -> Option<Side> {
        None
    }

    fn places(id: &str) -> Option<HexId> {
        match id {
            "garland" => Some(95),
            "sandrea" => Some(75),
            "andy" => Some(66),
            "estor" => Some(97),
            _ => None,
        }
    }

    /// The grey a colour prints as (Rec. 601 luma, 0-255).
    fn luma(colour: &str) -> i32 {
        let hex = colour.trim_start_matches('#');
        let c = |i: usize| i32::from_str_radix(&hex[i..i + 2], 16).unwrap();
        (299 * c(0) + 587 * c(2) + 114 * c(4)) / 1000
    }

    #[test]
    fn terrain_is_told_apart_in_grey_by_lightness_or_texture() {
        let kinds = [LAND, SEA, COLD, DESERT];
        for (i, a) in kinds.iter().enumerate() {
            for b in &kinds[i + 1..] {
                let lighter = (luma(a.fill) - luma(b.fill)).abs() >= 30;
                assert!(lighter || a.pattern != b.pattern, "{a:?} {b:?}");
            }
        }
        // Mountain hexsides have a light core, impassable ones none.
        assert!(luma(MOUNTAIN_OUTER) < 100 && luma(MOUNTAIN_INNER) > 150);
        assert!(luma(IMPASSABLE) < 40);
    }

    #[test]
    fn moves_over_land_by_sea_and_by_transport_become_paths_of_their_sides() {
        let act = activity(
            &lines(&[
                "lib moves SO04 from hex 74 to 75 > 65 (9)",
                "fed moves CG05 by sea from garland to sandrea with card 20 (10)",
                "fed transports GA01 from andy to estor (11)",
                "lib moves CG13, SO01 from hex 54 to 55 (9)",
            ]),
            no_side,
            places,
        );
        assert_eq!(
            act.moves,
            vec![
                (Side::Lib, vec![74, 75, 65], "SO04".into()),
                (Side::Fed, vec![95, 75], "CG05".into()),
                (Side::Fed, vec![66, 97], "GA01".into()),
                (Side::Lib, vec![54, 55], "CG13, SO01".into()),
            ]
        );
        assert!(act.combats.is_empty());
    }

    #[test]
    fn units_on_the_same_path_share_one_arrow() {
        let act = activity(
            &lines(&[
                "lib moves SO38 from hex 58 to 68 > 79 (9)",
                "lib moves CG06 from hex 58 to 68 > 79 (9)",
            ]),
            no_side,
            places,
        );
        assert_eq!(act.moves.len(), 1);
        assert_eq!(act.moves[0].2, "SO38, CG06");
    }

    #[test]
    fn an_over_stack_unit_leaving_is_an_arrow_of_its_side() {
        let act = activity(
            &lines(&[
                "SO12 leaves the over-stack in hex 75 for hex 65 (6.10: your movement policy, docs/dougram.md, Decisions)",
            ]),
            |u| (u == "SO12").then_some(Side::Lib),
            places,
        );
        assert_eq!(act.moves, vec![(Side::Lib, vec![75, 65], "SO12".into())]);
    }

    #[test]
    fn declared_combats_are_marked_by_hex_in_a_place_or_not() {
        let act = activity(
            &lines(&[
                "fed declares a combat at Cardinal (73) (12.2)",
                "lib declares a combat at hex 74 (12.2)",
                "(only you) your combat at hex 65 is skipped: it does not hold units of both sides (12.3)",
            ]),
            no_side,
            places,
        );
        assert_eq!(act.combats, BTreeSet::from([73, 74]));
        assert!(act.moves.is_empty());
    }

    #[test]
    fn moves_off_the_map_or_to_unknown_places_draw_nothing() {
        let act = activity(
            &lines(&[
                "fed moves CG02 from hex 54 to the Replenishment box (7.10)",
                "fed moves RF01 from North Pole Port (hex 61) to the Replenishment box (7.10)",
                "fed transports SO01 from nowhere to estor (11)",
                "turn 5: lib player-turn (4.1)",
                "no spaces",
            ]),
            no_side,
            places,
        );
        assert_eq!(act, Activity::default());
    }
}
