//! The board picture of a zeta view (`pbem map`, turn mail; plan §9): the space map with
//! Earth, its drop points, the Moon and the belt and Jupiter boxes; the ground map below it
//! (it wraps east-west: marked on both edges) with its terrain and areas; bases with their
//! governors and levels; units as counters (crowded hexes listed beside the map); where
//! characters are; this step's moves, crossings, combats and strikes; and the panel.
//!
//! Drawn from the view, the view's events and the public component data alone
//! (`Rules::picture`): the reader's secrets (its hand, Titans' nuke base) come from the view's
//! `mine`, which only the reader's own view holds.

mod activity;
mod sheet;

use super::data::{Area, BaseKind, Class, Loc, MapId, Place, Side, Terrain, ZetaData};
use super::state::{CharPlace, FaceUp};
use super::view::{UnitView, View};
use crate::kit::hex::Hex;
use crate::kit::picture::hexes::HexLayout;
use crate::kit::picture::page::{self, Cell, Page};
use crate::kit::picture::pieces::{self, Counter};
use crate::kit::picture::style::{self, Ink, Pattern};
use crate::kit::picture::{Doc, El, Pt, Svg, text};
use crate::kit::seats::Seat;
use activity::Activity;
use std::collections::BTreeMap;

/// Hex radius in pixels: a hex holds its label, a 2 x 2 block of counters, a base's mark at
/// its east corner, a character badge at its west corner and a name plate at its foot.
const RADIUS: i32 = 44;
/// Counter size (2 x 2 fit between the label and the name plate).
const COUNTER: i32 = 24;
const PANEL_WIDTH: i32 = 400;
/// Room beside the ground map for its wrap marks.
const SIDE_MARGIN: i32 = 40;
/// The strip above the space map (its title and the Jupiter box).
const TOP_STRIP: i32 = 100;
/// Between the space map and the ground map's title.
const MAP_GAP: i32 = 14;
/// The ground map's title line and area letters.
const GROUND_HEAD: i32 = 44;
/// The belt box, east of the space map.
const BOX_W: i32 = 150;
const BOX_H: i32 = 84;
const BOX_GAP: i32 = 30;

const SPACE: Ink = Ink::plain("#eef0f6", "#8a8a80", "#111111");
const LAND: Ink = Ink::plain("#f4efd9", "#8a8a80", "#111111");
const COAST: Ink = Ink {
    pattern: Some(Pattern::Dots),
    ..Ink::plain("#c9dcc0", "#8a8a80", "#111111")
};
const OCEAN: Ink = Ink {
    pattern: Some(Pattern::Waves),
    ..Ink::plain("#7fa7cf", "#8a8a80", "#111111")
};
const EARTH: Ink = Ink {
    width: 20,
    pattern: Some(Pattern::Waves),
    ..Ink::plain("#4f7fb8", "#1d3553", "#ffffff")
};
const BOX: Ink = Ink {
    width: 15,
    ..Ink::plain("#f7f5ee", "#444444", "#111111")
};
/// Drop-point rings (14.3): light and dotted, unlike any governor's ring.
pub(super) const DROP_RING: Ink = Ink {
    width: 30,
    dash: Some("2 3"),
    ..Ink::plain("none", "#4f7fb8", "#111111")
};
/// The badge counting the characters in a place.
pub(super) const CHAR_INK: Ink = Ink {
    width: 10,
    ..Ink::plain("#555555", "#111111", "#ffffff")
};
/// Area boundaries on the ground map.
const AREA_LINE: &str = "#333333";

pub(super) fn seat(side: Side) -> usize {
    Side::ALL.iter().position(|s| *s == side).unwrap_or(0)
}

pub(super) fn letter(side: Side) -> &'static str {
    match side {
        Side::Titans => "T",
        Side::Aeug => "A",
        Side::NeoZeon => "N",
    }
}

/// Where things are drawn: the two maps and the two boxes.
pub(super) struct Geometry {
    space: HexLayout,
    ground: HexLayout,
    space_grid: crate::kit::hex::HexGrid,
    ground_grid: crate::kit::hex::HexGrid,
    /// Centres of the belt and Jupiter boxes.
    belt: Pt,
    jupiter: Pt,
    size: (i32, i32),
}

impl Geometry {
    fn new(data: &ZetaData) -> Geometry {
        let o = Page::map_origin();
        let space_grid = data.map.space.grid.clone();
        let ground_grid = data.map.ground.grid.clone();
        let space = HexLayout::for_grid(&space_grid, RADIUS, o.add(SIDE_MARGIN, TOP_STRIP));
        let (sw, sh) = space.size();
        let ground_top = TOP_STRIP + sh + MAP_GAP + GROUND_HEAD;
        let ground = HexLayout::for_grid(&ground_grid, RADIUS, o.add(SIDE_MARGIN, ground_top));
        let (gw, gh) = ground.size();
        // The boxes lie beside the hexes next to them (30.3, 33.3).
        let mean = |hexes: &[Hex]| -> Option<Pt> {
            let n = i32::try_from(hexes.len()).ok().filter(|n| *n > 0)?;
            let (sx, sy) = hexes.iter().fold((0, 0), |(x, y), h| {
                let c = space.hex_centre(&space_grid, *h);
                (x + c.x, y + c.y)
            });
            Some(Pt::new(sx / n, sy / n))
        };
        let east = o.x + SIDE_MARGIN + sw + BOX_GAP + BOX_W / 2;
        let belt = Pt::new(
            east,
            mean(&data.map.space.belt_adjacent).map_or(o.y + TOP_STRIP + sh / 2, |p| p.y),
        );
        let jupiter = Pt::new(
            mean(&data.map.space.jupiter_adjacent).map_or(o.x + SIDE_MARGIN + sw / 2, |p| p.x),
            o.y + TOP_STRIP - BOX_H / 2 - 8,
        );
        let width = (SIDE_MARGIN + sw + BOX_GAP + BOX_W).max(SIDE_MARGIN + gw + SIDE_MARGIN);
        Geometry {
            space,
            ground,
            space_grid,
            ground_grid,
            belt,
            jupiter,
            size: (width, ground_top + gh),
        }
    }

    fn layout(&self, map: MapId) -> (&HexLayout, &crate::kit::hex::HexGrid) {
        match map {
            MapId::Space => (&self.space, &self.space_grid),
            MapId::Ground => (&self.ground, &self.ground_grid),
        }
    }

    pub(super) fn hex(&self, loc: Loc) -> Pt {
        let (l, g) = self.layout(loc.map);
        l.hex_centre(g, loc.at)
    }

    /// The point a place's counters gather around.
    pub(super) fn place(&self, p: Place) -> Pt {
        match p {
            Place::Hex(loc) => self.hex(loc),
            Place::Belt => self.belt,
            Place::Jupiter => self.jupiter,
        }
    }

    fn corners(&self, p: Place) -> Vec<Pt> {
        match p {
            Place::Hex(loc) => {
                let (l, _) = self.layout(loc.map);
                l.corners(self.hex(loc)).to_vec()
            }
            Place::Belt | Place::Jupiter => {
                let c = self.place(p);
                let (w, h) = (BOX_W / 2, BOX_H / 2);
                vec![c.add(-w, -h), c.add(w, -h), c.add(w, h), c.add(-w, h)]
            }
        }
    }
}

/// Where a base is drawn: its fixed hex, or a mobile base's place (none before it appears).
pub(super) fn base_place(id: &str, v: &View, data: &ZetaData) -> Option<Place> {
    match data.base_hex(id) {
        Some(loc) => Some(Place::Hex(loc)),
        None => v.bases.get(id).and_then(|b| b.place),
    }
}

/// The values a counter shows: an MS its air values and defense (`31/2`), a ship its AA and
/// bombard dice and defense (`2/1/3`); of its back when it is damaged (16.1).
fn values(u: &UnitView, data: &ZetaData) -> String {
    let Some(t) = data.unit_type(&u.type_id) else {
        return "?".into();
    };
    let f = match u.face {
        FaceUp::Front => &t.front,
        FaceUp::Back => &t.back,
    };
    match t.class {
        Class::Ms => {
            let air: String = f.air.iter().map(|v| v.to_string()).collect();
            format!("{air}/{}", f.defense)
        }
        Class::Ship => {
            let g = |x: &Option<super::data::Guns>| x.as_ref().map_or(0, |g| g.guns);
            format!("{}/{}/{}", g(&f.aa), g(&f.bombard), f.defense)
        }
        _ => String::new(),
    }
}

fn short(u: &UnitView, data: &ZetaData) -> String {
    data.unit_type(&u.type_id)
        .map_or_else(|| u.type_id.clone(), |t| t.short.clone())
}

fn counter(id: &str, u: &UnitView, data: &ZetaData) -> Counter {
    Counter {
        key: id.to_string(),
        side: seat(u.side),
        down: false,
        top: short(u, data),
        main: values(u, data),
        spent: false,
    }
}

/// How the panel lists a unit of a crowded place: its id, values, damage and carrier.
fn list_entry(id: &str, u: &UnitView, data: &ZetaData) -> String {
    let mut s = format!("{id} {}", values(u, data));
    if u.face == FaceUp::Back {
        s.push_str(" D");
    }
    if let Some(c) = &u.carrier {
        s.push_str(&format!(" on {c}"));
    }
    s
}

/// A character's name as the picture writes it: its version as ① / ② (4.3).
pub(super) fn char_name(id: &str, data: &ZetaData) -> String {
    let name = data
        .character(id)
        .map_or_else(|| id.to_string(), |c| c.name.clone());
    name.replace(" (1)", " ①").replace(" (2)", " ②")
}

/// A base's name for its plate.
fn base_name(id: &str, data: &ZetaData) -> String {
    data.base(id)
        .map_or_else(|| id.to_string(), |b| b.name.clone())
}

/// The picture of `v`.
pub fn picture(v: &View, events: &[String], data: &ZetaData) -> Svg {
    let g = Geometry::new(data);
    let mut page = Page::begin(
        &format!("Zeta Gundam: {}", page::whose(&v.reader)),
        &format!("now: {}", v.stage),
        g.size,
        PANEL_WIDTH,
    );
    let doc = &mut page.doc;
    space_background(doc, &g, data);
    ground_background(doc, &g, data);
    let names = bases(doc, &g, v, data);

    let act = activity::activity(events);
    overlays_under(doc, &g, data, &act);
    char_badges(doc, &g, v);

    // Units: carried ones just after their carrier, so a ship and its MS stay together.
    let mut by_place: BTreeMap<Place, Vec<(&String, &UnitView)>> = BTreeMap::new();
    for (id, u) in &v.units {
        by_place.entry(u.place).or_default().push((id, u));
    }
    let cells: Vec<Cell> = by_place
        .into_iter()
        .map(|(place, mut units)| {
            units.sort_by_key(|(id, u)| {
                (
                    u.carrier.clone().unwrap_or_else(|| (*id).clone()),
                    u.carrier.is_some(),
                )
            });
            let at = g.place(place);
            Cell {
                at,
                label: place_label(place),
                title: place_title(place, v, data),
                units: units
                    .into_iter()
                    .map(|(id, u)| (counter(id, u, data), list_entry(id, u, data)))
                    .collect(),
            }
        })
        .collect();
    let crowded = page.units(cells, COUNTER);
    let doc = &mut page.doc;
    damage_badges(doc, &g, v);
    page.names(&names, 2 * RADIUS - 24);
    let doc = &mut page.doc;
    overlays_over(doc, &g, v, data, &act);
    let combats: Vec<(Vec<Pt>, Pt, String)> = act
        .combats
        .iter()
        .map(|p| {
            let c = g.place(*p);
            (
                g.corners(*p),
                c.add(RADIUS / 2 + 4, -RADIUS / 2 - 2),
                place_label(*p),
            )
        })
        .collect();
    page.combats(&combats);

    let panel = sheet::panel(&mut page, v, data, &crowded);
    let note = "Stand-in map, counters, characters and track (games/zeta/): the rulebook prints \
                no components.";
    page.finish(panel, &sheet::legend(), v.stand_in.then_some(note))
}

fn place_label(p: Place) -> String {
    match p {
        Place::Hex(l) => l.at.label(),
        Place::Belt => "belt".into(),
        Place::Jupiter => "Jupiter".into(),
    }
}

/// How the panel heads a crowded place: map, hex and the bases there.
fn place_title(p: Place, v: &View, data: &ZetaData) -> String {
    let mut s = match p {
        Place::Hex(l) => format!("{} {}", l.map.id(), l.at.label()),
        Place::Belt => "asteroid belt box".into(),
        Place::Jupiter => "Jupiter box".into(),
    };
    let here: Vec<String> = v
        .bases
        .keys()
        .filter(|b| base_place(b, v, data) == Some(p))
        .map(|b| base_name(b, data))
        .collect();
    if !here.is_empty() {
        s.push_str(&format!(" {}", here.join(", ")));
    }
    s
}

fn map_title(doc: &mut Doc, at: Pt, s: &str) {
    doc.text(
        El::new("text")
            .num("x", at.x)
            .num("y", at.y)
            .num("font-size", 14)
            .attr("font-weight", "bold")
            .attr("fill", "#111111"),
        s,
    );
}

fn small_text(doc: &mut Doc, at: Pt, s: &str, size: i32, anchor: &str, bold: bool) {
    let mut el = El::new("text")
        .num("x", at.x)
        .num("y", at.y)
        .num("font-size", size)
        .attr("text-anchor", anchor)
        .attr("fill", "#111111");
    if bold {
        el = el.attr("font-weight", "bold");
    }
    doc.text(el, s);
}

/// A box beside the space map: a framed rectangle with its name at the top.
fn draw_box(doc: &mut Doc, c: Pt, name: &str) {
    BOX.paint(
        doc,
        El::new("rect")
            .at(c.add(-BOX_W / 2, -BOX_H / 2))
            .num("width", BOX_W)
            .num("height", BOX_H)
            .num("rx", 6),
    );
    small_text(
        doc,
        c.add(-BOX_W / 2 + 6, -BOX_H / 2 + 13),
        name,
        10,
        "start",
        true,
    );
}

/// A thin connector from a hex to a box edge.
fn connector(doc: &mut Doc, a: Pt, b: Pt) {
    doc.add(
        El::new("line")
            .num("x1", a.x)
            .num("y1", a.y)
            .num("x2", b.x)
            .num("y2", b.y)
            .attr("stroke", "#444444")
            .num("stroke-width", 2)
            .attr("stroke-dasharray", "4 3"),
    );
}

fn space_background(doc: &mut Doc, g: &Geometry, data: &ZetaData) {
    let sp = &data.map.space;
    let o = g.space.origin;
    map_title(doc, Pt::new(o.x, o.y - TOP_STRIP + 18), "Space map");
    doc.open(El::new("g").attr("class", "space"));
    for h in g.space_grid.all() {
        g.space
            .cell(doc, g.hex(Loc::new(MapId::Space, h)), &SPACE, &h.label());
    }
    // The boxes and their connectors (drawn before the counters).
    let belt_edge = g.belt.add(-BOX_W / 2, 0);
    for h in &sp.belt_adjacent {
        let c = g.hex(Loc::new(MapId::Space, *h));
        connector(
            doc,
            c.add(RADIUS - 4, 0),
            belt_edge.add(0, (c.y - g.belt.y) / 3),
        );
    }
    let jup_edge = g.jupiter.add(0, BOX_H / 2);
    for h in &sp.jupiter_adjacent {
        let c = g.hex(Loc::new(MapId::Space, *h));
        connector(
            doc,
            c.add(0, -g.space.half_height + 13),
            jup_edge.add((c.x - g.jupiter.x) / 3, 0),
        );
    }
    draw_box(doc, g.belt, "Asteroid belt (30)");
    draw_box(doc, g.jupiter, "Jupiter (33)");
    // The Moon: a pale disc around the hexes between its two bases.
    let moon: Vec<Pt> = data
        .bases
        .bases
        .iter()
        .filter(|(_, b)| b.moon)
        .filter_map(|(id, _)| data.base_hex(id))
        .map(|l| g.hex(l))
        .collect();
    if let (Some(a), Some(b)) = (moon.iter().min(), moon.iter().max()) {
        let mid = Pt::new((a.x + b.x) / 2, (a.y + b.y) / 2);
        let r = 2 * g.space.half_height - 14;
        doc.add(
            El::new("circle")
                .num("cx", mid.x)
                .num("cy", mid.y)
                .num("r", r)
                .attr("fill", "#b8b8b0")
                .attr("fill-opacity", "0.35")
                .attr("stroke", "#66665e")
                .num("stroke-width", 2)
                .attr("stroke-dasharray", "6 4"),
        );
        pieces::plate(doc, mid, "Moon", 10, true);
    }
    // Earth and its drop points (14.3).
    let earth = g.hex(Loc::new(MapId::Space, sp.earth));
    EARTH.paint(
        doc,
        El::new("circle")
            .num("cx", earth.x)
            .num("cy", earth.y)
            .num("r", g.space.half_height - 4),
    );
    small_text(doc, earth.add(0, 5), "Earth", 13, "middle", true);
    for (_, h) in sp.drop_points.iter() {
        let c = g.hex(Loc::new(MapId::Space, h));
        pieces::place_ring(doc, c, g.space.half_height - 3, &DROP_RING);
    }
    doc.close();
}

/// The drop points' labels, at the foot of their hexes (drawn with the base names).
fn drop_names(g: &Geometry, data: &ZetaData) -> Vec<(Pt, String)> {
    data.map
        .space
        .drop_points
        .iter()
        .map(|(area, h)| {
            (
                g.hex(Loc::new(MapId::Space, h))
                    .add(0, g.space.half_height - 7),
                format!("drop {}", area.letter()),
            )
        })
        .collect()
}

fn ground_background(doc: &mut Doc, g: &Geometry, data: &ZetaData) {
    let gm = &data.map.ground;
    let o = g.ground.origin;
    let (w, h) = g.ground.size();
    map_title(
        doc,
        Pt::new(o.x, o.y - GROUND_HEAD + 16),
        "Ground map: wraps east-west (column P is next to column A, 13.12)",
    );
    doc.open(El::new("g").attr("class", "ground"));
    for hex in g.ground_grid.all() {
        let ink = match gm.terrain(hex) {
            Some(Terrain::Ocean) => OCEAN,
            Some(Terrain::Coast) => COAST,
            _ => LAND,
        };
        g.ground
            .cell(doc, g.hex(Loc::new(MapId::Ground, hex)), &ink, &hex.label());
    }
    // Area boundaries: the sides shared by neighbouring hexes of different areas (14.4),
    // not across the seam (the wrap marks show it).
    for a in g.ground_grid.all() {
        for b in g.ground_grid.all() {
            if a >= b || !g.ground_grid.adjacent(a, b) || gm.area(a) == gm.area(b) {
                continue;
            }
            let (ca, cb) = (
                g.hex(Loc::new(MapId::Ground, a)),
                g.hex(Loc::new(MapId::Ground, b)),
            );
            if (ca.x - cb.x).abs() > 2 * RADIUS {
                continue;
            }
            let side = shared_side(&g.ground, ca, cb);
            doc.add(
                El::new("line")
                    .num("x1", side[0].x)
                    .num("y1", side[0].y)
                    .num("x2", side[1].x)
                    .num("y2", side[1].y)
                    .attr("stroke", AREA_LINE)
                    .num("stroke-width", 4)
                    .attr("stroke-linecap", "round"),
            );
        }
    }
    // Area letters over their columns (14.4).
    for area in Area::ALL {
        let cols: Vec<i32> = g
            .ground_grid
            .all()
            .into_iter()
            .filter(|h| h.row == 1 && gm.area(*h) == Some(area))
            .map(|h| g.hex(Loc::new(MapId::Ground, h)).x)
            .collect();
        if let (Some(a), Some(b)) = (cols.iter().min(), cols.iter().max()) {
            small_text(
                doc,
                Pt::new((a + b) / 2, o.y - 6),
                &format!("area {} (drop {})", area.letter(), area.letter()),
                12,
                "middle",
                true,
            );
        }
    }
    // The seam: an arrow out of each edge naming the column beyond it.
    let last = (b'A' + g.ground_grid.columns.saturating_sub(1)) as char;
    for (x, dir, to) in [(o.x - 4, -1, last), (o.x + w + 4, 1, 'A')] {
        for y in [o.y + h / 4, o.y + 3 * h / 4] {
            wrap_mark(doc, Pt::new(x, y), dir, to);
        }
    }
    doc.close();
}

/// An arrow pointing off the map edge at `at` (`dir` -1 west, 1 east) and "to X" under it.
fn wrap_mark(doc: &mut Doc, at: Pt, dir: i32, to: char) {
    let tip = at.add(dir * (SIDE_MARGIN - 8), 0);
    doc.add(
        El::new("polyline")
            .points(&[at, tip])
            .attr("stroke", "#111111")
            .num("stroke-width", 3)
            .attr("fill", "none"),
    );
    doc.add(
        El::new("polygon")
            .points(&[tip.add(dir * 6, 0), tip.add(0, -5), tip.add(0, 5)])
            .attr("fill", "#111111"),
    );
    let mid = Pt::new((at.x + tip.x) / 2, at.y + 16);
    small_text(doc, mid, &format!("to {to}"), 11, "middle", true);
    small_text(doc, mid.add(0, 13), "wraps", 9, "middle", false);
}

/// The two corners of the hex at `a` it shares with its neighbour at `b`.
fn shared_side(layout: &HexLayout, a: Pt, b: Pt) -> [Pt; 2] {
    let dist = |p: Pt| {
        let (dx, dy) = (i64::from(p.x - b.x), i64::from(p.y - b.y));
        dx * dx + dy * dy
    };
    let mut corners = layout.corners(a).to_vec();
    corners.sort_by_key(|p| (dist(*p), p.x, p.y));
    [corners[0], corners[1]]
}

/// The ink of a base's governor, or neutral.
fn governor_ink(gov: Option<Side>) -> Ink {
    gov.map_or(style::NEUTRAL, |s| style::side(seat(s)).front)
}

/// Bases: a ring (solid: military; dashed: political, 2.5) in the governor's outline, and a
/// mark at the hex's east corner with the governor's letter and the level (2.6-2.8). Returns
/// the name plates (drawn over the counters).
fn bases(doc: &mut Doc, g: &Geometry, v: &View, data: &ZetaData) -> Vec<(Pt, String)> {
    let mut names: Vec<(Pt, String)> = drop_names(g, data);
    let mut per_place: BTreeMap<Place, Vec<&String>> = BTreeMap::new();
    for id in v.bases.keys() {
        if let Some(p) = base_place(id, v, data) {
            per_place.entry(p).or_default().push(id);
        }
    }
    doc.open(El::new("g").attr("class", "bases"));
    for (place, ids) in &per_place {
        let c = g.place(*place);
        let in_box = !matches!(place, Place::Hex(_));
        let n = i32::try_from(ids.len()).unwrap_or(1);
        let mut plate: Vec<String> = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let Some(b) = v.bases.get(*id) else { continue };
            let def = data.base(id);
            let kind = def.map_or(BaseKind::Military, |d| d.kind);
            let gov = if b.destroyed { None } else { b.governor };
            let ink = governor_ink(gov);
            let ring = Ink {
                dash: match kind {
                    BaseKind::Military => None,
                    BaseKind::Political => Some("7 4"),
                },
                ..ink
            };
            let i = i32::try_from(i).unwrap_or(0);
            if !in_box && i == 0 {
                pieces::place_ring(doc, c, g.space.half_height - 3, &ring);
            }
            // Marks stacked down the east corner (several bases may share a hex, 17.5).
            let at = if in_box {
                c.add(BOX_W / 2 - 14, -BOX_H / 2 + 30 + i * 22)
            } else {
                c.add(RADIUS - 12, (2 * i - (n - 1)) * 10)
            };
            let text = if b.destroyed {
                "X".to_string()
            } else {
                format!("{}{}", gov.map_or("", letter), b.level)
            };
            let mark_ink = Ink {
                dash: ring.dash,
                ..ink
            };
            pieces::control_mark(doc, at, 10, &mark_ink, &text);
            let mut name = base_name(id, data);
            if b.destroyed {
                name.push_str(" destroyed");
            } else if def.is_some_and(|d| d.ungovernable) {
                name.push_str(": no combat");
            } else if def.is_some_and(|d| d.closed_until_nz) && !b.governed_by_nz_once {
                name.push_str(" closed");
            }
            plate.push(name);
        }
        let at = if in_box {
            c.add(0, BOX_H / 2 - 9)
        } else {
            c.add(0, g.space.half_height - 7)
        };
        names.push((at, plate.join(" / ")));
    }
    doc.close();
    names
}

/// Characters on the map: a badge at the hex's west corner with their count (the panel
/// lists them by name: each is one `data-unit` entry there).
fn char_badges(doc: &mut Doc, g: &Geometry, v: &View) {
    let mut count: BTreeMap<Place, usize> = BTreeMap::new();
    for c in v.characters.values() {
        let at = match &c.place {
            CharPlace::Aboard(u) => v.units.get(u).map(|u| u.place),
            CharPlace::Solo(l) => Some(Place::Hex(*l)),
            _ => None,
        };
        if let Some(p) = at {
            *count.entry(p).or_default() += 1;
        }
    }
    doc.open(El::new("g").attr("class", "characters"));
    for (p, n) in count {
        let c = g.place(p);
        let at = match p {
            Place::Hex(_) => c.add(-RADIUS + 12, 0),
            _ => c.add(-BOX_W / 2 + 16, 6),
        };
        CHAR_INK.paint(
            doc,
            El::new("rect")
                .at(at.add(-8, -8))
                .num("width", 16)
                .num("height", 16)
                .num("rx", 3),
        );
        doc.text(
            El::new("text")
                .num("x", at.x)
                .num("y", at.y + 4)
                .num("font-size", 11)
                .attr("font-weight", "bold")
                .attr("text-anchor", "middle")
                .attr("fill", CHAR_INK.text),
            &n.to_string(),
        );
    }
    doc.close();
}

/// A damaged unit (16.1) drawn on the map gets a small "D" at its counter's corner; its
/// counter already shows the back's values.
fn damage_badges(doc: &mut Doc, g: &Geometry, v: &View) {
    let mut by_place: BTreeMap<Place, Vec<(&String, &UnitView)>> = BTreeMap::new();
    for (id, u) in &v.units {
        by_place.entry(u.place).or_default().push((id, u));
    }
    for (place, mut units) in by_place {
        if units.len() > pieces::MAX_IN_CELL {
            continue;
        }
        units.sort_by_key(|(id, u)| {
            (
                u.carrier.clone().unwrap_or_else(|| (*id).clone()),
                u.carrier.is_some(),
            )
        });
        let c = g.place(place);
        let spots = spots(c, units.len());
        for ((_, u), at) in units.iter().zip(spots) {
            if u.face == FaceUp::Back {
                pieces::badge(doc, at.add(COUNTER + 3, 4), "D");
            }
        }
    }
}

/// The top-left corners `pieces::stack` gives `n` counters around `centre`.
fn spots(centre: Pt, n: usize) -> Vec<Pt> {
    let gap = 2;
    let block = 2 * COUNTER + gap;
    let left = centre.x - block / 2;
    let top = centre.y - block / 2;
    match n {
        1 => vec![centre.add(-COUNTER / 2, -COUNTER / 2)],
        2 => vec![
            Pt::new(left, centre.y - COUNTER / 2),
            Pt::new(left + COUNTER + gap, centre.y - COUNTER / 2),
        ],
        _ => vec![
            Pt::new(left, top),
            Pt::new(left + COUNTER + gap, top),
            Pt::new(left, top + COUNTER + gap),
            Pt::new(left + COUNTER + gap, top + COUNTER + gap),
        ],
    }
}

/// Moves and the starts of crossings, under the counters.
fn overlays_under(doc: &mut Doc, g: &Geometry, data: &ZetaData, act: &Activity) {
    doc.open(El::new("g").attr("class", "moves"));
    for m in &act.moves {
        let pts: Vec<Pt> = m.path.iter().map(|p| g.place(*p)).collect();
        pieces::arrow(doc, &pts, seat(m.side), 2 * COUNTER / 3 + 8, &m.what);
    }
    // A crossing leaves its map: a short stub out of its start (toward Earth when it
    // descends, north when it launches), no line across the maps.
    for c in &act.crossings {
        let from = g.place(c.from);
        let to = if c.down {
            let earth = g.hex(Loc::new(MapId::Space, data.map.space.earth));
            Pt::new((from.x + earth.x) / 2, (from.y + earth.y) / 2)
        } else {
            from.add(0, -RADIUS + 6)
        };
        pieces::arrow(doc, &[from, to], seat(c.side), 0, &c.what);
    }
    doc.close();
}

/// Crossing arrivals and strikes, over the counters: a plate naming what happened.
fn overlays_over(doc: &mut Doc, g: &Geometry, v: &View, data: &ZetaData, act: &Activity) {
    doc.open(El::new("g").attr("class", "strikes"));
    for c in &act.crossings {
        let from = match c.from {
            Place::Hex(l) if l.map == MapId::Space => data
                .map
                .space
                .drop_area(l.at)
                .map_or_else(|| l.at.label(), |a| format!("drop {}", a.letter())),
            p => place_label(p),
        };
        let arrow = if c.down { "↓" } else { "↑" };
        let at = g.place(c.to).add(0, -g.space.half_height + 20);
        pieces::plate(doc, at, &format!("{arrow} from {from}"), 9, true);
    }
    for s in &act.strikes {
        let place =
            base_place(&s.target, v, data).or_else(|| v.units.get(&s.target).map(|u| u.place));
        if let Some(p) = place {
            let at = g.place(p).add(0, -g.space.half_height + 20);
            // The burst just west of the plate, so it hides none of its text.
            let half = (text::width(&s.label, 9, true) + 6) / 2;
            pieces::plate(doc, at, &s.label, 9, true);
            pieces::combat(doc, at.add(-half - 8, 0), 8, "");
        }
    }
    doc.close();
}

#[cfg(test)]
mod tests;
