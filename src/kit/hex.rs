//! Hex grids with labelled hexes such as `C08`: a column letter and a two-digit row.
//!
//! Only flat-topped grids are modelled (columns run north-south), because that is what games
//! whose rules name the directions N and S need. A [`HexGrid`] says how many columns and rows the
//! map has, from which edge the column letters count, and which columns sit half a hex lower.
//! A [`Hex`] is just a label; it needs its grid to find neighbours or distances.

use serde::{Deserialize, Serialize};

/// A hex named by its column letter (A = 0) and row number (1-based), e.g. `C08`.
///
/// The order is column first, then row: the same as the labels' alphabetical order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    pub col: u8,
    pub row: u8,
}

impl Hex {
    /// Parses `C08` (letters A-Z, row 1-99 written with at least two digits is not required:
    /// `C8` is accepted too).
    pub fn parse(label: &str) -> Result<Hex, String> {
        let mut chars = label.chars();
        let letter = chars
            .next()
            .ok_or_else(|| "an empty hex label".to_string())?;
        if !letter.is_ascii_uppercase() {
            return Err(format!(
                "hex label {label:?} must start with a capital column letter, like C08"
            ));
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "hex label {label:?} must be a column letter and a row number, like C08"
            ));
        }
        let row: u8 = digits
            .parse()
            .map_err(|_| format!("hex label {label:?} has a bad row number"))?;
        if row == 0 {
            return Err(format!("hex label {label:?}: rows start at 01"));
        }
        Ok(Hex {
            col: letter as u8 - b'A',
            row,
        })
    }

    /// The label, e.g. `C08`.
    pub fn label(&self) -> String {
        format!("{}{:02}", (b'A' + self.col) as char, self.row)
    }
}

crate::kit::written_as_label!(Hex);

/// The six neighbour directions of a flat-topped grid, north at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];
}

/// The edge of the map from which column letters count (A is the column at that edge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LettersFrom {
    West,
    East,
}

/// Which lettered columns sit half a hex south of their neighbours: `even` means B, D, F...
/// (the 2nd, 4th, ... letters), `odd` means A, C, E...
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shifted {
    Even,
    Odd,
}

/// A rectangular flat-topped hex grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexGrid {
    pub columns: u8,
    pub rows: u8,
    pub letters_from: LettersFrom,
    /// Columns shifted half a hex south.
    pub shifted: Shifted,
    /// The east and west edges meet: the last column's neighbours include the first's (a map
    /// around a planet, zeta 13.12). Needs an even number of columns, so that the shifted and
    /// unshifted columns keep alternating across the seam. Written only when set, so a grid
    /// without it reads and writes as before.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wrap: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl HexGrid {
    /// Checks the grid's own numbers.
    pub fn validate(&self) -> Result<(), String> {
        if self.columns == 0 || self.columns > 26 {
            return Err(format!("columns must be 1-26, not {}", self.columns));
        }
        if self.rows == 0 || self.rows > 99 {
            return Err(format!("rows must be 1-99, not {}", self.rows));
        }
        if self.wrap && !self.columns.is_multiple_of(2) {
            return Err(format!(
                "a map that wraps east-west needs an even number of columns, not {}",
                self.columns
            ));
        }
        Ok(())
    }

    pub fn contains(&self, h: Hex) -> bool {
        h.col < self.columns && h.row >= 1 && h.row <= self.rows
    }

    /// Parses a label and checks that the hex is on this map.
    pub fn hex(&self, label: &str) -> Result<Hex, String> {
        let h = Hex::parse(label)?;
        if self.contains(h) {
            Ok(h)
        } else {
            Err(format!(
                "hex {label} is off the map (columns A-{}, rows 01-{:02})",
                (b'A' + self.columns.saturating_sub(1)) as char,
                self.rows
            ))
        }
    }

    /// Every hex of the map in label order.
    pub fn all(&self) -> Vec<Hex> {
        let mut v = Vec::new();
        for col in 0..self.columns {
            for row in 1..=self.rows {
                v.push(Hex { col, row });
            }
        }
        v
    }

    /// Column index counted from the west edge.
    fn x(&self, col: u8) -> i32 {
        match self.letters_from {
            LettersFrom::West => i32::from(col),
            LettersFrom::East => i32::from(self.columns) - 1 - i32::from(col),
        }
    }

    fn col_of_x(&self, x: i32) -> Option<u8> {
        let x = if self.wrap {
            x.rem_euclid(i32::from(self.columns))
        } else {
            x
        };
        if x < 0 || x >= i32::from(self.columns) {
            return None;
        }
        let col = match self.letters_from {
            LettersFrom::West => x,
            LettersFrom::East => i32::from(self.columns) - 1 - x,
        };
        u8::try_from(col).ok()
    }

    /// Whether the column with this letter index sits half a hex south.
    fn is_shifted(&self, col: u8) -> bool {
        // Letter ordinal (A = 1) even <=> index odd.
        let ordinal_even = col % 2 == 1;
        match self.shifted {
            Shifted::Even => ordinal_even,
            Shifted::Odd => !ordinal_even,
        }
    }

    /// The neighbour in direction `d`, or `None` off the map.
    pub fn neighbour(&self, h: Hex, d: Dir) -> Option<Hex> {
        let x = self.x(h.col);
        let row = i32::from(h.row);
        let shifted = self.is_shifted(h.col);
        // In a shifted column the side neighbours of row r are rows r (north side) and r+1
        // (south side); in an unshifted column they are r-1 and r.
        let (north_side, south_side) = if shifted {
            (row, row + 1)
        } else {
            (row - 1, row)
        };
        let (nx, nrow) = match d {
            Dir::N => (x, row - 1),
            Dir::S => (x, row + 1),
            Dir::NE => (x + 1, north_side),
            Dir::SE => (x + 1, south_side),
            Dir::NW => (x - 1, north_side),
            Dir::SW => (x - 1, south_side),
        };
        let col = self.col_of_x(nx)?;
        let row = u8::try_from(nrow).ok()?;
        let n = Hex { col, row };
        self.contains(n).then_some(n)
    }

    /// Every on-map neighbour with its direction, in the order N, NE, SE, S, SW, NW.
    pub fn neighbours(&self, h: Hex) -> Vec<(Dir, Hex)> {
        Dir::ALL
            .iter()
            .filter_map(|&d| self.neighbour(h, d).map(|n| (d, n)))
            .collect()
    }

    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        self.neighbours(a).iter().any(|&(_, n)| n == b)
    }

    /// Cube coordinates (x, y, z) with x + y + z = 0.
    fn cube(&self, h: Hex) -> (i32, i32, i32) {
        self.cube_at(self.x(h.col), h)
    }

    /// Cube coordinates of `h` drawn at column `x` from the west (its own, or on a wrapping
    /// map a copy of it a map's width east or west: same parity, as the width is even).
    fn cube_at(&self, x: i32, h: Hex) -> (i32, i32, i32) {
        let row = i32::from(h.row);
        // Whether the column at x = 0 from the west is shifted decides the parity rule.
        let west_shifted = self
            .col_of_x(0)
            .map(|c| self.is_shifted(c))
            .unwrap_or(false);
        let parity = x & 1;
        let z = if west_shifted {
            // Even x columns sit lower.
            row - (x + parity) / 2
        } else {
            // Odd x columns sit lower.
            row - (x - parity) / 2
        };
        (x, -x - z, z)
    }

    /// Number of hex steps between two hexes (integer, no rounding); on a wrapping map, the
    /// shorter way round.
    pub fn distance(&self, a: Hex, b: Hex) -> u32 {
        let steps = |(ax, ay, az): (i32, i32, i32), (bx, by, bz): (i32, i32, i32)| {
            (ax - bx)
                .unsigned_abs()
                .max((ay - by).unsigned_abs())
                .max((az - bz).unsigned_abs())
        };
        let from = self.cube(a);
        let direct = steps(from, self.cube(b));
        if !self.wrap {
            return direct;
        }
        let width = i32::from(self.columns);
        let bx = self.x(b.col);
        [bx - width, bx + width]
            .into_iter()
            .map(|x| steps(from, self.cube_at(x, b)))
            .fold(direct, u32::min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Kummen stand-in: 16 x 12, A at the east edge, B, D, F... shifted south.
    fn kummen() -> HexGrid {
        HexGrid {
            columns: 16,
            rows: 12,
            letters_from: LettersFrom::East,
            shifted: Shifted::Even,
            wrap: false,
        }
    }

    fn h(s: &str) -> Hex {
        Hex::parse(s).unwrap()
    }

    #[test]
    fn labels_round_trip_and_sort_like_text() {
        assert_eq!(h("C08").label(), "C08");
        assert_eq!(h("C8").label(), "C08");
        assert!(h("A12") < h("B01"));
        assert!(Hex::parse("c08").is_err());
        assert!(Hex::parse("C").is_err());
        assert!(Hex::parse("C00").is_err());
        assert!(kummen().hex("Q01").is_err());
        assert!(kummen().hex("A13").is_err());
    }

    #[test]
    fn neighbours_of_an_unshifted_column_with_letters_from_the_east() {
        let g = kummen();
        // Digest table: C is odd-lettered (not shifted).
        assert_eq!(g.neighbour(h("C08"), Dir::NW), Some(h("D07")));
        assert_eq!(g.neighbour(h("C08"), Dir::SW), Some(h("D08")));
        assert_eq!(g.neighbour(h("C08"), Dir::NE), Some(h("B07")));
        assert_eq!(g.neighbour(h("C08"), Dir::SE), Some(h("B08")));
        assert_eq!(g.neighbour(h("C08"), Dir::N), Some(h("C07")));
        assert_eq!(g.neighbour(h("C08"), Dir::S), Some(h("C09")));
    }

    #[test]
    fn neighbours_of_a_shifted_column() {
        let g = kummen();
        // O06 (palace): O is the 15th letter... O has index 14, ordinal 15 (odd): unshifted.
        // Digest: palace neighbours N O05, NW P05, SW P06, NE N05, SE N06, S O07.
        let o6 = h("O06");
        assert_eq!(g.neighbour(o6, Dir::N), Some(h("O05")));
        assert_eq!(g.neighbour(o6, Dir::NW), Some(h("P05")));
        assert_eq!(g.neighbour(o6, Dir::SW), Some(h("P06")));
        assert_eq!(g.neighbour(o6, Dir::NE), Some(h("N05")));
        assert_eq!(g.neighbour(o6, Dir::SE), Some(h("N06")));
        assert_eq!(g.neighbour(o6, Dir::S), Some(h("O07")));
        // B08 (EX-10) is shifted: NE A08, SE A09, S B09, NW C08, SW C09.
        let b8 = h("B08");
        assert_eq!(g.neighbour(b8, Dir::NE), Some(h("A08")));
        assert_eq!(g.neighbour(b8, Dir::SE), Some(h("A09")));
        assert_eq!(g.neighbour(b8, Dir::S), Some(h("B09")));
        assert_eq!(g.neighbour(b8, Dir::NW), Some(h("C08")));
        assert_eq!(g.neighbour(b8, Dir::SW), Some(h("C09")));
    }

    #[test]
    fn off_map_neighbours_are_none() {
        let g = kummen();
        assert_eq!(g.neighbour(h("A01"), Dir::N), None);
        assert_eq!(g.neighbour(h("A01"), Dir::NE), None);
        assert_eq!(g.neighbour(h("P12"), Dir::S), None);
        // A01 is the north-east corner: only S (A02) and SW (B01) remain.
        assert_eq!(g.neighbours(h("A01")).len(), 2);
    }

    #[test]
    fn neighbours_are_symmetric_and_at_distance_one() {
        let g = kummen();
        for a in g.all() {
            for (_, b) in g.neighbours(a) {
                assert!(g.adjacent(b, a), "{a} {b}");
                assert_eq!(g.distance(a, b), 1, "{a} {b}");
            }
        }
    }

    #[test]
    fn distances_match_the_digest() {
        let g = kummen();
        assert_eq!(g.distance(h("B08"), h("E07")), 3);
        assert_eq!(g.distance(h("B08"), h("O06")), 13);
        assert_eq!(g.distance(h("B08"), h("G10")), 5);
        assert_eq!(g.distance(h("O06"), h("N03")), 3);
        assert_eq!(g.distance(h("O06"), h("O06")), 0);
    }

    #[test]
    fn distance_equals_breadth_first_steps() {
        for grid in [
            kummen(),
            HexGrid {
                columns: 7,
                rows: 5,
                letters_from: LettersFrom::West,
                shifted: Shifted::Odd,
                wrap: false,
            },
            wrapping(LettersFrom::West, Shifted::Even),
            wrapping(LettersFrom::West, Shifted::Odd),
            wrapping(LettersFrom::East, Shifted::Even),
            wrapping(LettersFrom::East, Shifted::Odd),
        ] {
            for start in grid.all() {
                distances_from(&grid, start);
            }
        }
    }

    /// A 16 x 8 map whose east and west edges meet (zeta's ground map, 13.12).
    fn wrapping(letters_from: LettersFrom, shifted: Shifted) -> HexGrid {
        HexGrid {
            columns: 16,
            rows: 8,
            letters_from,
            shifted,
            wrap: true,
        }
    }

    /// Checks `distance` from `start` against a breadth-first walk of the neighbours.
    fn distances_from(grid: &HexGrid, start: Hex) {
        let mut dist = std::collections::BTreeMap::new();
        dist.insert(start, 0u32);
        let mut frontier = vec![start];
        while let Some(next) = (!frontier.is_empty()).then(|| frontier.clone()) {
            frontier.clear();
            for a in next {
                let d = dist[&a];
                for (_, b) in grid.neighbours(a) {
                    if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(b) {
                        e.insert(d + 1);
                        frontier.push(b);
                    }
                }
            }
        }
        for (hex, d) in dist {
            assert_eq!(grid.distance(start, hex), d, "{start} to {hex} on {grid:?}");
        }
    }

    #[test]
    fn a_wrapping_map_joins_its_east_and_west_columns_13_12() {
        let g = wrapping(LettersFrom::West, Shifted::Even);
        // P (the 16th column, shifted) and A (unshifted) are neighbours across the seam.
        assert!(g.adjacent(h("P04"), h("A04")));
        assert!(g.adjacent(h("A04"), h("P04")));
        assert_eq!(g.neighbours(h("A04")).len(), 6, "no edge east or west");
        assert_eq!(g.distance(h("A04"), h("P04")), 1);
        assert_eq!(
            g.distance(h("A04"), h("O04")),
            2,
            "the short way, across the seam"
        );
        // North and south edges stay edges.
        assert_eq!(g.neighbour(h("A01"), Dir::N), None);
        let flat = HexGrid { wrap: false, ..g };
        assert!(!flat.adjacent(h("P04"), h("A04")));
        assert_eq!(flat.distance(h("A04"), h("O04")), 14);
    }

    #[test]
    fn a_wrapping_map_needs_an_even_number_of_columns() {
        let mut g = wrapping(LettersFrom::West, Shifted::Even);
        g.columns = 15;
        let err = g.validate().unwrap_err();
        assert!(err.contains("even number of columns, not 15"), "{err}");
    }

    #[test]
    fn a_grid_without_wrap_reads_and_writes_as_before() {
        let yaml = "columns: 16\nrows: 12\nletters_from: east\nshifted: even\n";
        let g: HexGrid = serde_saphyr::from_str(yaml).unwrap();
        assert_eq!(g, kummen());
        assert_eq!(crate::yaml::encode(&g).unwrap(), yaml);
        let wraps = crate::yaml::encode(&wrapping(LettersFrom::West, Shifted::Even)).unwrap();
        assert!(wraps.ends_with("wrap: true\n"), "{wraps}");
    }

    #[test]
    fn west_lettered_grid_with_odd_columns_shifted() {
        let g = HexGrid {
            columns: 5,
            rows: 5,
            letters_from: LettersFrom::West,
            shifted: Shifted::Odd,
            wrap: false,
        };
        // A is shifted, B is not: from B02, SW is A02 and NW is A01.
        assert_eq!(g.neighbour(h("B02"), Dir::SW), Some(h("A02")));
        assert_eq!(g.neighbour(h("B02"), Dir::NW), Some(h("A01")));
        assert_eq!(g.neighbour(h("A02"), Dir::SE), Some(h("B03")));
    }
}
