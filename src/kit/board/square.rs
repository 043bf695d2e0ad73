//! Square grids with labelled squares such as `C7`: a column letter (A = the west column) and a
//! row number (1 = the north row).
//!
//! Distances come in both usual kinds (Chebyshev: a diagonal step costs 1; Manhattan: only
//! orthogonal steps), and the grid's own [`Adjacency`] picks which one [`Grid`] uses. Line of
//! sight is an integer walk from centre to centre that lists every square the line crosses.

use super::Grid;
use serde::{Deserialize, Serialize};

/// A square named by its column letter (A = 0) and row number (1-based), e.g. `C7`.
/// Ordered column first, then row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    pub col: u8,
    pub row: u8,
}

impl Square {
    /// Parses `C7` (a capital letter and a row 1-99; `C07` is read as `C7`).
    pub fn parse(label: &str) -> Result<Square, String> {
        let what = || format!("square label {label:?} must be a column letter and a row, like C7");
        let mut chars = label.chars();
        let letter = chars.next().ok_or_else(what)?;
        let digits = chars.as_str();
        if !letter.is_ascii_uppercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.chars().all(|c| c.is_ascii_digit())
        {
            return Err(what());
        }
        let row: u8 = digits.parse().map_err(|_| what())?;
        if row == 0 {
            return Err(format!("square label {label:?}: rows start at 1"));
        }
        Ok(Square {
            col: letter as u8 - b'A',
            row,
        })
    }

    /// The label, e.g. `C7`.
    pub fn label(&self) -> String {
        format!("{}{}", (b'A' + self.col) as char, self.row)
    }

    fn xy(self) -> (i64, i64) {
        (i64::from(self.col), i64::from(self.row))
    }
}

crate::kit::written_as_label!(Square);

/// Which squares are one step apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjacency {
    /// Four neighbours; distance is Manhattan.
    Orthogonal,
    /// Eight neighbours; distance is Chebyshev.
    Diagonal,
}

/// How a line of sight meets a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Touch {
    /// The line passes through the square's inside.
    Through,
    /// The line only touches a corner of the square (it passes exactly through a grid point).
    /// Rules differ on this (ember: blocking terrain blocks at a corner, but a grazed object
    /// does not obstruct), so the walk reports it and the rules decide.
    Corner,
}

/// A rectangular square grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquareGrid {
    pub columns: u8,
    pub rows: u8,
    pub adjacency: Adjacency,
}

/// The eight steps (dx, dy) in the order N, NE, E, SE, S, SW, W, NW (north is row - 1).
const STEPS: [(i64, i64); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

impl SquareGrid {
    /// Checks the grid's own numbers.
    pub fn validate(&self) -> Result<(), String> {
        if self.columns == 0 || self.columns > 26 {
            return Err(format!("columns must be 1-26, not {}", self.columns));
        }
        if self.rows == 0 || self.rows > 99 {
            return Err(format!("rows must be 1-99, not {}", self.rows));
        }
        Ok(())
    }

    fn at(&self, x: i64, y: i64) -> Option<Square> {
        let s = Square {
            col: u8::try_from(x).ok()?,
            row: u8::try_from(y).ok()?,
        };
        self.on_map(s).then_some(s)
    }

    fn on_map(&self, s: Square) -> bool {
        s.col < self.columns && s.row >= 1 && s.row <= self.rows
    }

    /// Every square in label order.
    pub fn all(&self) -> Vec<Square> {
        (0..self.columns)
            .flat_map(|col| (1..=self.rows).map(move |row| Square { col, row }))
            .collect()
    }

    fn around(&self, s: Square, diagonal: bool) -> Vec<Square> {
        let (x, y) = s.xy();
        STEPS
            .iter()
            .filter(|(dx, dy)| diagonal || dx * dy == 0)
            .filter_map(|(dx, dy)| self.at(x + dx, y + dy))
            .collect()
    }

    /// The on-map squares sharing an edge, in the order N, E, S, W.
    pub fn orthogonal_neighbours(&self, s: Square) -> Vec<Square> {
        self.around(s, false)
    }

    /// The on-map squares sharing an edge or a corner, in the order N, NE, E, SE, S, SW, W, NW.
    pub fn all_neighbours(&self, s: Square) -> Vec<Square> {
        self.around(s, true)
    }

    /// Steps when a diagonal step counts 1.
    pub fn chebyshev(a: Square, b: Square) -> u32 {
        let (dx, dy) = delta(a, b);
        dx.max(dy)
    }

    /// Steps when only orthogonal steps are allowed.
    pub fn manhattan(a: Square, b: Square) -> u32 {
        let (dx, dy) = delta(a, b);
        dx + dy
    }

    /// The squares a straight line from the centre of `a` to the centre of `b` meets, from `a`
    /// to `b` inclusive, each once, in the order the line meets them.
    ///
    /// The walk is exact integer arithmetic (a supercover walk): the line crosses a vertical
    /// grid line after `(2i + 1) / 2|dx|` of its length and a horizontal one after
    /// `(2j + 1) / 2|dy|`; whichever comes first is the next square. Tie rule: when both come
    /// at once the line passes exactly through a grid corner, and the two squares beside that
    /// corner are listed as [`Touch::Corner`] (the one in the column step first, then the one in
    /// the row step) before the diagonal square. With this rule the walk from `b` to `a` meets
    /// the same squares in the same ways.
    pub fn line(a: Square, b: Square) -> Vec<(Square, Touch)> {
        let (x0, y0) = a.xy();
        let (x1, y1) = b.xy();
        let (nx, ny) = ((x1 - x0).abs(), (y1 - y0).abs());
        let (sx, sy) = ((x1 - x0).signum(), (y1 - y0).signum());
        let (mut x, mut y) = (x0, y0);
        let (mut ix, mut iy) = (0i64, 0i64);
        // Every square lies in the box between a and b, so the coordinates fit a Square.
        let sq = |x: i64, y: i64| Square {
            col: u8::try_from(x).unwrap_or(u8::MAX),
            row: u8::try_from(y).unwrap_or(u8::MAX),
        };
        let mut out = vec![(a, Touch::Through)];
        while ix < nx || iy < ny {
            let d = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
            if d == 0 {
                out.push((sq(x + sx, y), Touch::Corner));
                out.push((sq(x, y + sy), Touch::Corner));
                x += sx;
                y += sy;
                ix += 1;
                iy += 1;
            } else if d < 0 {
                x += sx;
                ix += 1;
            } else {
                y += sy;
                iy += 1;
            }
            out.push((sq(x, y), Touch::Through));
        }
        out
    }

    /// The squares strictly between `a` and `b` that the line of sight meets, with how; the
    /// rules decide which of them block.
    pub fn between(a: Square, b: Square) -> Vec<(Square, Touch)> {
        Self::line(a, b)
            .into_iter()
            .filter(|&(s, _)| s != a && s != b)
            .collect()
    }
}

fn delta(a: Square, b: Square) -> (u32, u32) {
    (a.col.abs_diff(b.col).into(), a.row.abs_diff(b.row).into())
}

impl Grid for SquareGrid {
    type Cell = Square;

    fn cell(&self, label: &str) -> Result<Square, String> {
        let s = Square::parse(label)?;
        if self.on_map(s) {
            Ok(s)
        } else {
            Err(format!(
                "square {label} is off the map (columns A-{}, rows 1-{})",
                (b'A' + self.columns.saturating_sub(1)) as char,
                self.rows
            ))
        }
    }

    fn label(&self, cell: Square) -> String {
        cell.label()
    }

    fn contains(&self, cell: Square) -> bool {
        self.on_map(cell)
    }

    fn neighbours(&self, cell: Square) -> Vec<Square> {
        match self.adjacency {
            Adjacency::Orthogonal => self.orthogonal_neighbours(cell),
            Adjacency::Diagonal => self.all_neighbours(cell),
        }
    }

    fn distance(&self, a: Square, b: Square) -> u32 {
        match self.adjacency {
            Adjacency::Orthogonal => Self::manhattan(a, b),
            Adjacency::Diagonal => Self::chebyshev(a, b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sq(l: &str) -> Square {
        Square::parse(l).unwrap()
    }

    fn grid(adjacency: Adjacency) -> SquareGrid {
        SquareGrid {
            columns: 8,
            rows: 8,
            adjacency,
        }
    }

    fn labels(v: &[Square]) -> Vec<String> {
        v.iter().map(Square::label).collect()
    }

    fn walk(a: &str, b: &str) -> Vec<(String, Touch)> {
        SquareGrid::line(sq(a), sq(b))
            .into_iter()
            .map(|(s, t)| (s.label(), t))
            .collect()
    }

    #[test]
    fn labels_read_and_print_back() {
        assert_eq!(sq("C7"), Square { col: 2, row: 7 });
        assert_eq!(sq("C07").label(), "C7");
        assert_eq!(crate::yaml::to_string(&sq("H12")), "H12\n");
        for bad in ["", "c7", "C", "C0", "C123", "7C", "C-1"] {
            assert!(Square::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn off_map_labels_say_what_the_map_holds() {
        let g = grid(Adjacency::Diagonal);
        assert_eq!(
            g.cell("I1").unwrap_err(),
            "square I1 is off the map (columns A-H, rows 1-8)"
        );
        assert!(g.cell("H8").is_ok());
    }

    #[test]
    fn the_grid_checks_its_size() {
        let mut g = grid(Adjacency::Diagonal);
        assert!(g.validate().is_ok());
        g.columns = 27;
        assert!(g.validate().is_err());
        g.columns = 3;
        g.rows = 0;
        assert!(g.validate().is_err());
    }

    #[test]
    fn neighbours_come_in_compass_order_and_stop_at_the_edge() {
        let g = grid(Adjacency::Diagonal);
        assert_eq!(
            labels(&g.all_neighbours(sq("C3"))),
            ["C2", "D2", "D3", "D4", "C4", "B4", "B3", "B2"]
        );
        assert_eq!(
            labels(&g.orthogonal_neighbours(sq("C3"))),
            ["C2", "D3", "C4", "B3"]
        );
        assert_eq!(labels(&g.all_neighbours(sq("A1"))), ["B1", "B2", "A2"]);
        assert_eq!(
            Grid::neighbours(&grid(Adjacency::Orthogonal), sq("A1")).len(),
            2
        );
    }

    #[test]
    fn distances_chebyshev_and_manhattan() {
        assert_eq!(SquareGrid::chebyshev(sq("A1"), sq("D3")), 3);
        assert_eq!(SquareGrid::manhattan(sq("A1"), sq("D3")), 5);
        assert_eq!(
            Grid::distance(&grid(Adjacency::Orthogonal), sq("A1"), sq("D3")),
            5
        );
        assert_eq!(
            Grid::distance(&grid(Adjacency::Diagonal), sq("A1"), sq("D3")),
            3
        );
    }

    #[test]
    fn a_straight_line_meets_every_square_on_its_row() {
        use Touch::Through as T;
        assert_eq!(
            walk("A2", "D2"),
            [
                ("A2".into(), T),
                ("B2".into(), T),
                ("C2".into(), T),
                ("D2".into(), T)
            ]
        );
        assert_eq!(walk("B5", "B5"), [("B5".into(), T)]);
    }

    #[test]
    fn an_exact_diagonal_touches_the_corner_squares() {
        use Touch::{Corner as K, Through as T};
        assert_eq!(
            walk("A1", "B2"),
            [
                ("A1".into(), T),
                ("B1".into(), K),
                ("A2".into(), K),
                ("B2".into(), T)
            ]
        );
    }

    #[test]
    fn a_shallow_line_crosses_squares_without_corners() {
        // A1 to C2: the line leaves A1 through its east side, crosses into row 2 exactly on
        // B's centre line (x = 1/2 of the way), so it passes through B1 and B2.
        let w = walk("A1", "C2");
        let squares: Vec<&str> = w.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(squares, ["A1", "B1", "B2", "C2"]);
        assert!(w.iter().all(|(_, t)| *t == Touch::Through));
    }

    #[test]
    fn between_leaves_out_the_ends() {
        let b: Vec<String> = SquareGrid::between(sq("A1"), sq("D1"))
            .into_iter()
            .map(|(s, _)| s.label())
            .collect();
        assert_eq!(b, ["B1", "C1"]);
    }

    proptest! {
        #[test]
        fn lines_are_connected_symmetric_and_end_where_asked(
            ac in 0u8..26, ar in 1u8..100, bc in 0u8..26, br in 1u8..100,
        ) {
            let (a, b) = (Square { col: ac, row: ar }, Square { col: bc, row: br });
            let fwd = SquareGrid::line(a, b);
            prop_assert_eq!(fwd.first().map(|x| x.0), Some(a));
            prop_assert_eq!(fwd.last().map(|x| x.0), Some(b));
            // Consecutive squares met through their inside share an edge or a corner.
            let inside: Vec<Square> =
                fwd.iter().filter(|x| x.1 == Touch::Through).map(|x| x.0).collect();
            for w in inside.windows(2) {
                prop_assert_eq!(SquareGrid::chebyshev(w[0], w[1]), 1);
            }
            // Every square stays in the box between the ends.
            for (s, _) in &fwd {
                prop_assert!(s.col >= ac.min(bc) && s.col <= ac.max(bc));
                prop_assert!(s.row >= ar.min(br) && s.row <= ar.max(br));
            }
            let mut f = fwd.clone();
            let mut r = SquareGrid::line(b, a);
            f.sort();
            r.sort();
            prop_assert_eq!(f, r);
        }
    }
}
