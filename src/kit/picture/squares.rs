//! Square-grid and open-table backgrounds, so a system on either board draws only its own
//! counters and markers. A square grid is drawn from its [`SquareGrid`] (labels like `C7`, A
//! the west column, 1 the north row); an open table from its size in table units
//! ([`crate::kit::board::table`], a tenth of a millimetre, y growing north), with a ruler grid
//! every inch.

use super::style::{GRID_LINE, Ink, QUIET_TEXT};
use super::svg::{Doc, El, Pt};
use crate::kit::board::square::{Square, SquareGrid};
use crate::kit::board::table::{Base, Footprint, INCH, Point};

/// Where the squares of a map are drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SquareLayout {
    /// Side of a square, in pixels.
    pub cell: i32,
    pub columns: u32,
    pub rows: u32,
    pub origin: Pt,
}

impl SquareLayout {
    pub fn for_grid(grid: &SquareGrid, cell: i32, origin: Pt) -> SquareLayout {
        SquareLayout {
            cell,
            columns: u32::from(grid.columns),
            rows: u32::from(grid.rows),
            origin,
        }
    }

    /// The centre of square `s`.
    pub fn centre(&self, s: Square) -> Pt {
        self.origin.add(
            i32::from(s.col) * self.cell + self.cell / 2,
            (i32::from(s.row) - 1) * self.cell + self.cell / 2,
        )
    }

    pub fn size(&self) -> (i32, i32) {
        (
            i32::try_from(self.columns).unwrap_or(0) * self.cell,
            i32::try_from(self.rows).unwrap_or(0) * self.cell,
        )
    }

    /// Draws square `s` painted with `ink` and its label small in its top-left corner; the
    /// square carries a `data-square` attribute naming the label.
    pub fn cell(&self, doc: &mut Doc, s: Square, ink: &Ink) {
        let c = self.centre(s);
        let top_left = c.add(-self.cell / 2, -self.cell / 2);
        let ink = Ink {
            stroke: GRID_LINE,
            width: 10,
            ..*ink
        };
        ink.paint(
            doc,
            El::new("rect")
                .attr("data-square", &s.label())
                .at(top_left)
                .num("width", self.cell)
                .num("height", self.cell),
        );
        doc.text(
            El::new("text")
                .at(top_left.add(3, 11))
                .num("font-size", 10)
                .attr("fill", QUIET_TEXT),
            &s.label(),
        );
    }

    /// Every square of the grid painted by `ink_of`.
    pub fn draw(&self, doc: &mut Doc, grid: &SquareGrid, ink_of: impl Fn(Square) -> Ink) {
        for s in grid.all() {
            self.cell(doc, s, &ink_of(s));
        }
    }
}

/// An open table `width` x `depth` table units, drawn at `units_per_px` units a pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableLayout {
    pub width: i64,
    pub depth: i64,
    pub units_per_px: i64,
    pub origin: Pt,
}

impl TableLayout {
    pub fn new(width: i64, depth: i64, units_per_px: i64, origin: Pt) -> TableLayout {
        TableLayout {
            width,
            depth,
            units_per_px: units_per_px.max(1),
            origin,
        }
    }

    fn px(&self, units: i64) -> i32 {
        // Rounded to the nearest pixel, halves away from zero, in integers.
        let u = self.units_per_px;
        let q = (2 * units + units.signum() * u) / (2 * u);
        i32::try_from(q).unwrap_or(0)
    }

    /// Where table point `p` is drawn (north at the top).
    pub fn point(&self, p: Point) -> Pt {
        self.origin.add(self.px(p.x), self.px(self.depth - p.y))
    }

    pub fn size(&self) -> (i32, i32) {
        (self.px(self.width), self.px(self.depth))
    }

    /// The table's surface with a ruler line every inch and a label every `label_every`
    /// inches along the west and north edges.
    pub fn draw(&self, doc: &mut Doc, surface: &Ink, label_every: i64) {
        let (w, h) = self.size();
        surface.paint(
            doc,
            El::new("rect")
                .at(self.origin)
                .num("width", w)
                .num("height", h),
        );
        let every = label_every.max(1);
        let mut inch = 1;
        while inch * INCH < self.width {
            let x = self.origin.x + self.px(inch * INCH);
            doc.add(line(
                Pt::new(x, self.origin.y),
                Pt::new(x, self.origin.y + h),
            ));
            if inch % every == 0 {
                doc.text(
                    quiet(Pt::new(x + 2, self.origin.y + 11)),
                    &format!("{inch}\""),
                );
            }
            inch += 1;
        }
        let mut inch = 1;
        while inch * INCH < self.depth {
            let y = self.origin.y + self.px(self.depth - inch * INCH);
            doc.add(line(
                Pt::new(self.origin.x, y),
                Pt::new(self.origin.x + w, y),
            ));
            if inch % every == 0 {
                doc.text(
                    quiet(Pt::new(self.origin.x + 2, y - 2)),
                    &format!("{inch}\""),
                );
            }
            inch += 1;
        }
    }

    /// The outline of a base on the table (a circle, or its rectangle's corners), painted with
    /// `ink`, a tick from its centre towards its facing.
    pub fn footprint(&self, doc: &mut Doc, f: &Footprint, ink: &Ink) -> Pt {
        let c = self.point(f.centre);
        match f.base {
            Base::Round { radius } => ink.paint(
                doc,
                El::new("circle")
                    .num("cx", c.x)
                    .num("cy", c.y)
                    .num("r", self.px(radius).max(2)),
            ),
            Base::Rect { .. } => {
                let pts: Vec<Pt> = f.corners().into_iter().map(|p| self.point(p)).collect();
                ink.paint(doc, El::new("polygon").points(&pts));
            }
        }
        let (fx, fy) = f.facing.vector();
        let reach = match f.base {
            Base::Round { radius } => radius,
            Base::Rect { depth, .. } => depth / 2,
        };
        let tip = self.point(Point::new(
            f.centre.x + fx.signum() * reach,
            f.centre.y + fy.signum() * reach,
        ));
        doc.add(
            El::new("line")
                .num("x1", c.x)
                .num("y1", c.y)
                .num("x2", tip.x)
                .num("y2", tip.y)
                .attr("stroke", ink.stroke)
                .num("stroke-width", 2),
        );
        c
    }
}

fn line(a: Pt, b: Pt) -> El {
    El::new("line")
        .num("x1", a.x)
        .num("y1", a.y)
        .num("x2", b.x)
        .num("y2", b.y)
        .attr("stroke", GRID_LINE)
        .dec("stroke-width", 5)
}

fn quiet(at: Pt) -> El {
    El::new("text")
        .at(at)
        .num("font-size", 10)
        .attr("fill", QUIET_TEXT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::board::square::Adjacency;
    use crate::kit::board::table::{Facing, MM};

    #[test]
    fn squares_are_laid_out_west_to_east_and_north_to_south() {
        let grid = SquareGrid {
            columns: 4,
            rows: 3,
            adjacency: Adjacency::Diagonal,
        };
        let l = SquareLayout::for_grid(&grid, 40, Pt::new(10, 10));
        let at = |s: &str| l.centre(Square::parse(s).unwrap());
        assert_eq!(at("A1"), Pt::new(30, 30));
        assert_eq!(at("B1"), Pt::new(70, 30));
        assert_eq!(at("A2"), Pt::new(30, 70));
        assert_eq!(l.size(), (160, 120));
        let mut doc = Doc::new(200, 200, "t");
        l.draw(&mut doc, &grid, |_| {
            Ink::plain("#ffffff", "#000000", "#000000")
        });
        assert_eq!(doc.finish().as_str().matches("data-square=").count(), 12);
    }

    #[test]
    fn the_table_has_north_at_the_top_and_rounds_to_whole_pixels() {
        // 48 x 48 inches at 1 mm a pixel.
        let l = TableLayout::new(48 * INCH, 48 * INCH, MM, Pt::new(0, 0));
        assert_eq!(l.size(), (1219, 1219));
        assert_eq!(l.point(Point::new(0, 48 * INCH)), Pt::new(0, 0));
        assert_eq!(l.point(Point::new(INCH, 0)), Pt::new(25, 1219));
        let f = Footprint {
            centre: Point::new(10 * INCH, 10 * INCH),
            base: Base::Round { radius: 125 },
            facing: Facing::N,
        };
        let mut doc = Doc::new(1300, 1300, "t");
        let c = l.footprint(&mut doc, &f, &Ink::plain("#ffffff", "#000000", "#000000"));
        assert_eq!(c, Pt::new(254, 965));
    }
}
