//! Flat-topped hex maps drawn from their geometry: which column is the westernmost, which
//! columns sit half a hex lower. Works for a lettered [`HexGrid`] (kummen: letters from the
//! east, even letters shifted) and for any grid numbered by column and row (dougram's odd-q
//! `10 * column + row`: [`HexLayout::odd_q`]).
//!
//! Sizes are whole pixels: a hex of radius `r` is `2r` wide and `2h` high with `h` the nearest
//! integer to `r * sqrt(3) / 2`, so a hex is within half a pixel of regular and every centre
//! and corner is an integer.

use super::style::{GRID_LINE, Ink, QUIET_TEXT};
use super::svg::{Doc, El, Pt};
use crate::kit::hex::{Hex, HexGrid, LettersFrom, Shifted};

/// Where the hexes of a map are drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexLayout {
    /// Centre to corner, in pixels.
    pub radius: i32,
    /// Half the height of a hex (centre to the middle of its top side).
    pub half_height: i32,
    /// Columns and rows.
    pub columns: u32,
    pub rows: u32,
    /// Per column counted from the west: whether it sits half a hex south.
    shifted: Vec<bool>,
    /// The top-left corner of the map's bounding box.
    pub origin: Pt,
}

/// The nearest integer to `r * sqrt(3) / 2`, exactly: the largest `h` with
/// `(2h - 1)^2 <= 3 r^2` (no float).
fn half_height(radius: i32) -> i32 {
    let target = 3 * i64::from(radius) * i64::from(radius);
    let mut h: i64 = 0;
    while (2 * (h + 1) - 1) * (2 * (h + 1) - 1) <= target {
        h += 1;
    }
    i32::try_from(h).unwrap_or(i32::MAX)
}

impl HexLayout {
    /// `columns` x `rows` hexes of `radius`, the column `x` (0 = west) half a hex south when
    /// `shifted(x)`, the map's bounding box starting at `origin`.
    pub fn new(
        columns: u32,
        rows: u32,
        radius: i32,
        shifted: impl Fn(u32) -> bool,
        origin: Pt,
    ) -> HexLayout {
        HexLayout {
            radius,
            half_height: half_height(radius),
            columns,
            rows,
            shifted: (0..columns).map(shifted).collect(),
            origin,
        }
    }

    /// The layout of a lettered grid.
    pub fn for_grid(grid: &HexGrid, radius: i32, origin: Pt) -> HexLayout {
        let g = grid.clone();
        HexLayout::new(
            u32::from(grid.columns),
            u32::from(grid.rows),
            radius,
            move |x| {
                let col = column_of_x(&g, x);
                // Letter ordinal (A = 1) even <=> index odd (kit::hex).
                let ordinal_even = col % 2 == 1;
                match g.shifted {
                    Shifted::Even => ordinal_even,
                    Shifted::Odd => !ordinal_even,
                }
            },
            origin,
        )
    }

    /// An "odd-q" grid: the 2nd, 4th, ... columns from the west (0-based odd) sit lower.
    pub fn odd_q(columns: u32, rows: u32, radius: i32, origin: Pt) -> HexLayout {
        HexLayout::new(columns, rows, radius, |x| x % 2 == 1, origin)
    }

    /// The centre of the hex in column `x` (0 = west) and row `y` (0 = north).
    pub fn centre(&self, x: u32, y: u32) -> Pt {
        let xi = i32::try_from(x).unwrap_or(0);
        let yi = i32::try_from(y).unwrap_or(0);
        let down = self.shifted.get(x as usize).copied().unwrap_or(false);
        Pt::new(
            self.origin.x + self.radius + xi * (3 * self.radius / 2),
            self.origin.y
                + self.half_height
                + yi * 2 * self.half_height
                + if down { self.half_height } else { 0 },
        )
    }

    /// The centre of hex `h` of the lettered `grid` this layout was made for.
    pub fn hex_centre(&self, grid: &HexGrid, h: Hex) -> Pt {
        let x = match grid.letters_from {
            LettersFrom::West => u32::from(h.col),
            LettersFrom::East => u32::from(grid.columns.saturating_sub(1).saturating_sub(h.col)),
        };
        self.centre(x, u32::from(h.row.saturating_sub(1)))
    }

    /// The map's width and height in pixels (from its origin).
    pub fn size(&self) -> (i32, i32) {
        let cols = i32::try_from(self.columns).unwrap_or(0);
        let rows = i32::try_from(self.rows).unwrap_or(0);
        let any_shift = self.shifted.iter().any(|s| *s);
        (
            if cols == 0 {
                0
            } else {
                2 * self.radius + (cols - 1) * (3 * self.radius / 2)
            },
            rows * 2 * self.half_height + if any_shift { self.half_height } else { 0 },
        )
    }

    /// The six corners of the hex centred at `c`, clockwise from the east.
    pub fn corners(&self, c: Pt) -> [Pt; 6] {
        let (r, h) = (self.radius, self.half_height);
        [
            c.add(r, 0),
            c.add(r / 2, h),
            c.add(-r / 2, h),
            c.add(-r, 0),
            c.add(-r / 2, -h),
            c.add(r / 2, -h),
        ]
    }

    /// The half-width of the hex at `dy` pixels above or below its centre.
    pub fn half_width_at(&self, dy: i32) -> i32 {
        let dy = dy.abs().min(self.half_height);
        // Along a slanted side x falls from r to r/2 as |dy| grows from 0 to h.
        self.radius - (self.radius / 2) * dy / self.half_height.max(1)
    }

    /// Draws the hex centred at `c` painted with `ink`, its `label` small at its top. The
    /// outline has a `data-hex` attribute naming the label.
    pub fn cell(&self, doc: &mut Doc, c: Pt, ink: &Ink, label: &str) {
        let outline = El::new("polygon")
            .attr("data-hex", label)
            .points(&self.corners(c));
        let ink = Ink {
            stroke: GRID_LINE,
            width: 10,
            ..*ink
        };
        ink.paint(doc, outline);
        doc.text(
            El::new("text")
                .num("x", c.x)
                .num("y", c.y - self.half_height + 11)
                .num("font-size", 10)
                .attr("text-anchor", "middle")
                .attr("fill", QUIET_TEXT),
            label,
        );
    }

    /// A line through the centres `pts` (a river chain, a road): drawn twice, a wide dark
    /// band and a narrower light core, so it reads as a line of its own in grey.
    pub fn chain(&self, doc: &mut Doc, pts: &[Pt], outer: &str, inner: &str, width: i32) {
        if pts.len() < 2 {
            return;
        }
        for (colour, w) in [(outer, width), (inner, width / 2)] {
            doc.add(
                El::new("polyline")
                    .points(pts)
                    .attr("fill", "none")
                    .attr("stroke", colour)
                    .num("stroke-width", w)
                    .attr("stroke-linecap", "round")
                    .attr("stroke-linejoin", "round"),
            );
        }
    }
}

/// The column index (letter, A = 0) of the column `x` places from the west.
fn column_of_x(grid: &HexGrid, x: u32) -> u8 {
    let x = u8::try_from(x).unwrap_or(0);
    match grid.letters_from {
        LettersFrom::West => x,
        LettersFrom::East => grid.columns.saturating_sub(1).saturating_sub(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kummen() -> HexGrid {
        HexGrid {
            columns: 16,
            rows: 12,
            letters_from: LettersFrom::East,
            shifted: Shifted::Even,
            wrap: false,
        }
    }

    /// Centres one hex apart: straight above/below, or 1.5 r across and h up or down.
    fn touching(l: &HexLayout, a: Pt, b: Pt) -> bool {
        let (dx, dy) = ((a.x - b.x).abs(), (a.y - b.y).abs());
        (dx == 0 && dy == 2 * l.half_height) || (dx == 3 * l.radius / 2 && dy == l.half_height)
    }

    #[test]
    fn a_hex_is_regular_within_half_a_pixel() {
        assert_eq!(half_height(46), 40); // 46 * 0.866 = 39.84
        assert_eq!(half_height(40), 35); // 34.64
        assert_eq!(half_height(10), 9); // 8.66
    }

    #[test]
    fn neighbours_on_the_grid_are_neighbours_in_the_picture_and_no_others() {
        for grid in [
            kummen(),
            HexGrid {
                columns: 7,
                rows: 5,
                letters_from: LettersFrom::West,
                shifted: Shifted::Odd,
                wrap: false,
            },
        ] {
            let l = HexLayout::for_grid(&grid, 46, Pt::new(10, 20));
            for a in grid.all() {
                for b in grid.all() {
                    let near = touching(&l, l.hex_centre(&grid, a), l.hex_centre(&grid, b));
                    assert_eq!(near, grid.adjacent(a, b), "{a} {b}");
                }
            }
        }
    }

    #[test]
    fn an_odd_q_grid_shifts_its_second_column_down() {
        let l = HexLayout::odd_q(3, 2, 40, Pt::new(0, 0));
        assert_eq!(l.centre(0, 0), Pt::new(40, 35));
        assert_eq!(l.centre(1, 0), Pt::new(100, 70));
        assert_eq!(l.centre(2, 1), Pt::new(160, 105));
        assert_eq!(l.size(), (200, 4 * 35 + 35));
    }

    #[test]
    fn every_hex_lies_inside_the_map_size() {
        let grid = kummen();
        let l = HexLayout::for_grid(&grid, 46, Pt::new(0, 0));
        let (w, h) = l.size();
        for hex in grid.all() {
            for p in l.corners(l.hex_centre(&grid, hex)) {
                assert!(
                    (0..=w).contains(&p.x) && (0..=h).contains(&p.y),
                    "{hex} {p:?}"
                );
            }
        }
    }
}
