//! The things on a board: counters (face up with their values, face down as their side's
//! back with the opaque token), stacks in a cell, places with their controller, move arrows
//! and combat markers.
//!
//! Every counter carries `class="unit"` and `data-unit` naming it as the view does (an id or a
//! token), and a stack too crowded to draw counter by counter draws none of them: the units go
//! to the side list instead ([`super::panel::Panel::units`]), where each entry carries the same
//! attributes. So every unit of a view is one `data-unit` element of its picture, wherever it
//! is drawn, which the tests count.

use super::style::{self, COMBAT, Ink};
use super::svg::{Doc, El, Pt};
use super::text;

/// Counters a cell shows one by one (2 x 2); a larger stack is drawn as piles with a count.
pub const MAX_IN_CELL: usize = 4;

/// One counter as a picture shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The unit as the view names it (an id, or the token of a face-down unit): the
    /// `data-unit` attribute.
    pub key: String,
    /// The seat position of its side (its ink: [`style::side`]).
    pub side: usize,
    /// Face down: drawn as the side's back.
    pub down: bool,
    /// The small upper line (a short name, or a token's prefix).
    pub top: String,
    /// The large lower line (attack-defense values, or a token's number).
    pub main: String,
    /// Spent for the turn (an acted heli, a used unit): drawn with a diagonal bar.
    pub spent: bool,
}

impl Counter {
    /// The ink this counter is painted with.
    pub fn ink(&self) -> Ink {
        let s = style::side(self.side);
        if self.down { s.back } else { s.front }
    }

    /// Draws the counter `size` pixels square with its top-left corner at `at`, marked as
    /// the unit `key`.
    pub fn draw(&self, doc: &mut Doc, at: Pt, size: i32) {
        self.draw_as(doc, at, size, true);
    }

    /// Draws the counter as [`Counter::draw`] does but not marked as a unit (a legend's
    /// sample).
    pub fn draw_sample(&self, doc: &mut Doc, at: Pt, size: i32) {
        self.draw_as(doc, at, size, false);
    }

    fn draw_as(&self, doc: &mut Doc, at: Pt, size: i32, unit: bool) {
        let ink = self.ink();
        doc.open(if unit {
            El::new("g")
                .attr("class", "unit")
                .attr("data-unit", &self.key)
        } else {
            El::new("g").attr("class", "sample")
        });
        ink.paint(
            doc,
            El::new("rect")
                .at(at)
                .num("width", size)
                .num("height", size)
                .num("rx", 3),
        );
        let small = (size * 3 / 10).max(7);
        let large = (size * 4 / 10).max(8);
        // A plate under the text keeps it readable: a back's pattern shows as a frame.
        if self.down {
            doc.add(
                El::new("rect")
                    .at(at.add(4, 4))
                    .num("width", size - 8)
                    .num("height", size - 8)
                    .num("rx", 2)
                    .attr("fill", ink.fill),
            );
        }
        let cx = at.x + size / 2;
        // A long name or value is set smaller before it is cut.
        let top_size = shrink(&self.top, small, 6, false, size - 2);
        doc.text(
            El::new("text")
                .num("x", cx)
                .num("y", at.y + small + 1)
                .num("font-size", top_size)
                .attr("text-anchor", "middle")
                .attr("fill", ink.text),
            &text::fit(&self.top, top_size, false, size - 2),
        );
        let main_size = shrink(&self.main, large, 7, true, size - 3);
        doc.text(
            El::new("text")
                .num("x", cx)
                .num("y", at.y + size - 4)
                .num("font-size", main_size)
                .attr("font-weight", "bold")
                .attr("text-anchor", "middle")
                .attr("fill", ink.text),
            &text::fit(&self.main, main_size, true, size - 2),
        );
        if self.spent {
            doc.add(
                El::new("line")
                    .num("x1", at.x + 2)
                    .num("y1", at.y + size - 2)
                    .num("x2", at.x + size - 2)
                    .num("y2", at.y + 2)
                    .attr("stroke", ink.text)
                    .attr("stroke-opacity", "0.7")
                    .num("stroke-width", 2),
            );
        }
        doc.close();
    }
}

/// The largest font size from `size` down to `min` at which `s` fits `max` pixels (`min` if
/// none does).
fn shrink(s: &str, size: i32, min: i32, bold: bool, max: i32) -> i32 {
    let mut f = size;
    while f > min && text::width(s, f, bold) > max {
        f -= 1;
    }
    f
}

/// Draws the counters of one cell around `centre` and says whether they all found a place:
/// up to [`MAX_IN_CELL`] are drawn 2 x 2 (`size` pixels each); a larger stack is drawn as one
/// pile per side with that side's count on it (`data-stack` = `label`, `data-count`), and
/// `false` tells the caller to list every counter of the cell in the side list.
pub fn stack(doc: &mut Doc, centre: Pt, size: i32, label: &str, counters: &[Counter]) -> bool {
    let gap = 2;
    let block = 2 * size + gap;
    let left = centre.x - block / 2;
    let top = centre.y - block / 2;
    if counters.len() <= MAX_IN_CELL {
        // One counter sits in the middle; two side by side; three or four in a square.
        let spots: Vec<Pt> = match counters.len() {
            1 => vec![Pt::new(centre.x - size / 2, centre.y - size / 2)],
            2 => vec![
                Pt::new(left, centre.y - size / 2),
                Pt::new(left + size + gap, centre.y - size / 2),
            ],
            _ => vec![
                Pt::new(left, top),
                Pt::new(left + size + gap, top),
                Pt::new(left, top + size + gap),
                Pt::new(left + size + gap, top + size + gap),
            ],
        };
        for (c, at) in counters.iter().zip(spots) {
            c.draw(doc, at, size);
        }
        return true;
    }
    let mut sides: Vec<usize> = counters.iter().map(|c| c.side).collect();
    sides.sort_unstable();
    sides.dedup();
    let piles = i32::try_from(sides.len()).unwrap_or(1).max(1);
    let width = size + 6;
    let span = piles * width + (piles - 1) * gap;
    for (i, side) in sides.iter().enumerate() {
        let of_side: Vec<&Counter> = counters.iter().filter(|c| c.side == *side).collect();
        // The pile shows the front if any of its counters is face up, else the back.
        let ink = if of_side.iter().any(|c| !c.down) {
            style::side(*side).front
        } else {
            style::side(*side).back
        };
        let x = centre.x - span / 2 + i32::try_from(i).unwrap_or(0) * (width + gap);
        let y = centre.y - size / 2;
        doc.open(El::new("g").attr("data-stack", label).num(
            "data-count",
            i32::try_from(of_side.len()).unwrap_or(i32::MAX),
        ));
        for depth in [4, 2, 0] {
            ink.paint(
                doc,
                El::new("rect")
                    .at(Pt::new(x + depth, y - depth))
                    .num("width", size)
                    .num("height", size)
                    .num("rx", 3),
            );
        }
        let count = of_side.len().to_string();
        let font = size / 2;
        doc.add(
            El::new("rect")
                .at(Pt::new(x + 3, y + size / 2 - font / 2 - 3))
                .num("width", size - 6)
                .num("height", font + 6)
                .num("rx", 2)
                .attr("fill", ink.fill),
        );
        doc.text(
            El::new("text")
                .num("x", x + size / 2)
                .num("y", y + size / 2 + font / 2 - 1)
                .num("font-size", font)
                .attr("font-weight", "bold")
                .attr("text-anchor", "middle")
                .attr("fill", ink.text),
            &count,
        );
        doc.close();
    }
    false
}

/// A small dark label with light text, its right end at `at` (a stack's count).
pub fn badge(doc: &mut Doc, at: Pt, s: &str) {
    let w = text::width(s, 9, true) + 6;
    doc.add(
        El::new("rect")
            .at(Pt::new(at.x - w, at.y - 11))
            .num("width", w)
            .num("height", 13)
            .num("rx", 6)
            .attr("fill", "#222222"),
    );
    doc.text(
        El::new("text")
            .num("x", at.x - w / 2)
            .num("y", at.y - 1)
            .num("font-size", 9)
            .attr("font-weight", "bold")
            .attr("text-anchor", "middle")
            .attr("fill", "#ffffff"),
        s,
    );
}

/// Text on a white plate centred at `centre` (a place name over the map).
pub fn plate(doc: &mut Doc, centre: Pt, s: &str, size: i32, bold: bool) {
    let w = text::width(s, size, bold) + 6;
    let h = size + 4;
    doc.add(
        El::new("rect")
            .at(Pt::new(centre.x - w / 2, centre.y - h / 2))
            .num("width", w)
            .num("height", h)
            .num("rx", 3)
            .attr("fill", "#ffffff")
            .attr("fill-opacity", "0.9")
            .attr("stroke", "#333333")
            .dec("stroke-width", 6),
    );
    let mut el = El::new("text")
        .num("x", centre.x)
        .num("y", centre.y + size * 35 / 100)
        .num("font-size", size)
        .attr("text-anchor", "middle")
        .attr("fill", "#111111");
    if bold {
        el = el.attr("font-weight", "bold");
    }
    doc.text(el, s);
}

/// A controller mark: a disc painted with `ink` (a side's front, or [`style::NEUTRAL`])
/// holding `letter`, so the controller reads in grey too.
pub fn control_mark(doc: &mut Doc, centre: Pt, radius: i32, ink: &Ink, letter: &str) {
    ink.paint(
        doc,
        El::new("circle")
            .num("cx", centre.x)
            .num("cy", centre.y)
            .num("r", radius),
    );
    doc.text(
        El::new("text")
            .num("x", centre.x)
            .num("y", centre.y + radius * 4 / 10)
            .num("font-size", radius + 2)
            .attr("font-weight", "bold")
            .attr("text-anchor", "middle")
            .attr("fill", ink.text),
        letter,
    );
}

/// A ring around a place (a base, a city): drawn under the counters.
pub fn place_ring(doc: &mut Doc, centre: Pt, radius: i32, ink: &Ink) {
    doc.add(
        El::new("circle")
            .num("cx", centre.x)
            .num("cy", centre.y)
            .num("r", radius)
            .attr("fill", "none")
            .attr("stroke", ink.stroke)
            .num("stroke-width", 3)
            .attr("stroke-dasharray", ink.dash.unwrap_or("none")),
    );
}

/// A move of side `side` through the points `path` (cell centres), with an arrowhead at the
/// end; the line stops `short` pixels before the last centre so the head does not hide the
/// counter there. `data-move` names what moved (none when `what` is empty: a legend's sample).
pub fn arrow(doc: &mut Doc, path: &[Pt], side: usize, short: i32, what: &str) {
    if path.len() < 2 {
        return;
    }
    let mut pts = path.to_vec();
    let n = pts.len();
    let (a, b) = (pts[n - 2], pts[n - 1]);
    pts[n - 1] = toward(b, a, short);
    let ink = style::side(side).arrow;
    let mut el = if what.is_empty() {
        El::new("polyline")
    } else {
        El::new("polyline").attr("data-move", what)
    };
    el = el
        .points(&pts)
        .attr("fill", "none")
        .attr("stroke", ink.stroke)
        .dec("stroke-width", ink.width)
        .attr("stroke-opacity", "0.85")
        .attr("stroke-linecap", "round")
        .attr("stroke-linejoin", "round")
        .attr("marker-end", &format!("url(#arrowhead-{})", side.min(3)));
    if let Some(d) = ink.dash {
        el = el.attr("stroke-dasharray", d);
    }
    doc.add(el);
    doc.add(
        El::new("circle")
            .num("cx", path[0].x)
            .num("cy", path[0].y)
            .num("r", 4)
            .attr("fill", ink.stroke),
    );
}

/// The point `by` pixels from `from` towards `to` (integer, rounded towards `from`).
fn toward(from: Pt, to: Pt, by: i32) -> Pt {
    let (dx, dy) = (i64::from(to.x - from.x), i64::from(to.y - from.y));
    let len = crate::kit::board::table::ceil_sqrt(i128::from(dx * dx + dy * dy));
    let len = i64::try_from(len).unwrap_or(i64::MAX).max(1);
    let by = i64::from(by).min(len);
    Pt::new(
        from.x + i32::try_from(dx * by / len).unwrap_or(0),
        from.y + i32::try_from(dy * by / len).unwrap_or(0),
    )
}

/// A combat marker: an eight-pointed burst of radius `r` at `centre` (`data-combat` = the
/// cell; none when `cell` is empty: a legend's sample), drawn over the counters.
pub fn combat(doc: &mut Doc, centre: Pt, r: i32, cell: &str) {
    // Outer points on a circle of r, inner ones at r/2; sines of multiples of 22.5 degrees
    // in thousandths.
    const S: [i32; 16] = [
        0, 383, 707, 924, 1000, 924, 707, 383, 0, -383, -707, -924, -1000, -924, -707, -383,
    ];
    let pts: Vec<Pt> = (0..16)
        .map(|i| {
            let rad = if i % 2 == 0 { r } else { r / 2 };
            let sin = S[i];
            let cos = S[(i + 4) % 16];
            Pt::new(centre.x + rad * cos / 1000, centre.y - rad * sin / 1000)
        })
        .collect();
    let el = if cell.is_empty() {
        El::new("polygon")
    } else {
        El::new("polygon").attr("data-combat", cell)
    };
    doc.add(COMBAT.on(el.points(&pts)));
    doc.text(
        El::new("text")
            .num("x", centre.x)
            .num("y", centre.y + r * 4 / 10)
            .num("font-size", r)
            .attr("font-weight", "bold")
            .attr("text-anchor", "middle")
            .attr("fill", COMBAT.text),
        "!",
    );
}

/// A cell outlined heavily in the combat ink (`corners` of a hex or square), drawn over its
/// counters without covering them.
pub fn combat_outline(doc: &mut Doc, corners: &[Pt]) {
    doc.add(
        El::new("polygon")
            .points(corners)
            .attr("fill", "none")
            .attr("stroke", COMBAT.stroke)
            .num("stroke-width", 4)
            .attr("stroke-linejoin", "round"),
    );
    doc.add(
        El::new("polygon")
            .points(corners)
            .attr("fill", "none")
            .attr("stroke", COMBAT.fill)
            .num("stroke-width", 2)
            .attr("stroke-dasharray", "6 3"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter(key: &str, side: usize, down: bool) -> Counter {
        Counter {
            key: key.into(),
            side,
            down,
            top: "AT01".into(),
            main: "9-4".into(),
            spent: false,
        }
    }

    fn units_in(svg: &str) -> usize {
        svg.matches("class=\"unit\"").count()
    }

    #[test]
    fn a_small_stack_draws_each_counter_once() {
        for n in 1..=MAX_IN_CELL {
            let cs: Vec<Counter> = (0..n)
                .map(|i| counter(&format!("u{i}"), i % 2, false))
                .collect();
            let mut doc = Doc::new(200, 200, "t");
            assert!(stack(&mut doc, Pt::new(100, 100), 26, "A01", &cs));
            assert_eq!(units_in(doc.finish().as_str()), n);
        }
    }

    #[test]
    fn a_crowded_stack_draws_piles_with_counts_and_no_counter() {
        let mut cs: Vec<Counter> = (0..8)
            .map(|i| counter(&format!("M{i}"), 0, false))
            .collect();
        cs.extend((0..18).map(|i| counter(&format!("B#{i}"), 1, true)));
        let mut doc = Doc::new(200, 200, "t");
        assert!(!stack(&mut doc, Pt::new(100, 100), 26, "B08", &cs));
        let s = doc.finish().into_string();
        assert_eq!(units_in(&s), 0);
        assert!(
            s.contains("data-count=\"8\"") && s.contains("data-count=\"18\""),
            "{s}"
        );
        assert!(
            s.contains(">8<") && s.contains(">18<"),
            "each pile shows its count: {s}"
        );
    }

    #[test]
    fn an_arrow_stops_short_of_its_last_centre() {
        assert_eq!(toward(Pt::new(100, 0), Pt::new(0, 0), 20), Pt::new(80, 0));
        let mut doc = Doc::new(200, 200, "t");
        arrow(&mut doc, &[Pt::new(0, 0), Pt::new(100, 0)], 1, 20, "B-BLUE");
        let s = doc.finish().into_string();
        assert!(s.contains("points=\"0,0 80,0\""), "{s}");
        assert!(s.contains("url(#arrowhead-1)"), "{s}");
    }
}
