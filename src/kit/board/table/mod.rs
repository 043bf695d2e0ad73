//! Continuous table coordinates in integer units, for games measured with a ruler.
//!
//! The unit is a tenth of a millimetre ([`MM`] = 10 units), because both kinds of game ruler
//! are then exact: an inch is exactly 25.4 mm = [`INCH`] = 254 units, and ember's 25 mm and
//! 75 mm grids are 250 and 750 units. `x` grows to the east, `y` to the north. There are no
//! floats anywhere: distances are rounded **up** to a whole unit from exact integer square
//! roots, so "within 5 inches" is `distance <= 5 * INCH` with the same answer on every machine.
//!
//! Footprints (bases) are round or rectangular. A rectangle faces one of the eight compass
//! directions. Facing N, E, S or W its corners are exact; facing a diagonal, its corners are the
//! exact ones rounded to the nearest unit (each coordinate off by at most half a unit, 0.05 mm,
//! far below what a ruler shows; an odd size likewise puts its half-unit edges half a unit
//! outward), and from there on every computation is exact on that polygon. Results are exact
//! while coordinates and sizes stay within [`LIMIT`] = 10^8 units, 10 km
//! ([`Footprint::validate`]); past that the arithmetic saturates instead of overflowing.
//!
//! Two bases *overlap* when their interiors meet ([`Footprint::overlaps`]); bases that touch
//! are in contact (distance 0) and do not overlap.
//!
//! Submodules: [`shape`] (convex polygons [`Convex`], their unions [`Area`], shapes of mixed
//! kinds [`Shape`]), [`segment`] (straight lines of sight and of movement, [`Segment`]),
//! [`grow`] (growing a polygon by a base or a disc) and [`length`] (lengths written in orders
//! and views, `"18.35"` inches). Their bounds are in [`shape`]'s documentation: a polygon's
//! corners from data lie within [`LIMIT`], computed ones (grown polygons, segments) within
//! [`SPAN`] = 4 [`LIMIT`], and every product is then taken in `i128` without overflow.

pub mod grow;
pub mod length;
#[cfg(test)]
mod properties;
pub mod segment;
pub mod shape;

pub use segment::Segment;
pub use shape::{Area, Convex, SPAN, Shape, Sides};

use serde::{Deserialize, Serialize};

/// Units per millimetre.
pub const MM: i64 = 10;
/// Units per inch (25.4 mm).
pub const INCH: i64 = 254;

/// A point on the table, in units. Written `{east: x, north: y}` in YAML (a bare `y` key would
/// need quotes: YAML 1.1 reads it as a boolean).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    #[serde(rename = "east")]
    pub x: i64,
    #[serde(rename = "north")]
    pub y: i64,
}

impl Point {
    pub fn new(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    /// The distance to `other`, rounded up to a whole unit.
    pub fn distance(self, other: Point) -> u64 {
        let dx = i128::from(self.x) - i128::from(other.x);
        let dy = i128::from(self.y) - i128::from(other.y);
        ceil_sqrt(sq(dx).saturating_add(sq(dy)))
    }
}

pub(super) fn sq(v: i128) -> i128 {
    v.saturating_mul(v)
}

/// The smallest n with n * n >= v (0 for v <= 0), saturating at `u64::MAX`.
pub fn ceil_sqrt(v: i128) -> u64 {
    if v <= 0 {
        return 0;
    }
    let v = v.unsigned_abs();
    let r = v.isqrt();
    let r = if r * r < v { r + 1 } else { r };
    u64::try_from(r).unwrap_or(u64::MAX)
}

/// ceil(sqrt(num / den)) for num >= 0, den > 0: the smallest n with n^2 >= ceil(num / den).
pub(super) fn ceil_sqrt_ratio(num: i128, den: i128) -> u64 {
    if den <= 0 {
        return ceil_sqrt(num);
    }
    let q = num / den + i128::from(num % den != 0);
    ceil_sqrt(q)
}

/// The eight compass facings; N is +y.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Facing {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Facing {
    pub const ALL: [Facing; 8] = [
        Facing::N,
        Facing::NE,
        Facing::E,
        Facing::SE,
        Facing::S,
        Facing::SW,
        Facing::W,
        Facing::NW,
    ];

    /// The integer direction vector (not of unit length on the diagonals).
    pub fn vector(self) -> (i64, i64) {
        match self {
            Facing::N => (0, 1),
            Facing::NE => (1, 1),
            Facing::E => (1, 0),
            Facing::SE => (1, -1),
            Facing::S => (0, -1),
            Facing::SW => (-1, -1),
            Facing::W => (-1, 0),
            Facing::NW => (-1, 1),
        }
    }

    /// The facing 45 degrees clockwise.
    pub fn clockwise(self) -> Facing {
        let i = Facing::ALL.iter().position(|&f| f == self).unwrap_or(0);
        Facing::ALL[(i + 1) % 8]
    }

    /// The facing 45 degrees anticlockwise.
    pub fn anticlockwise(self) -> Facing {
        let i = Facing::ALL.iter().position(|&f| f == self).unwrap_or(0);
        Facing::ALL[(i + 7) % 8]
    }

    fn diagonal(self) -> bool {
        let (x, y) = self.vector();
        x != 0 && y != 0
    }
}

/// The shape of a base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Base {
    Round {
        radius: i64,
    },
    /// `width` across the facing, `depth` along it.
    Rect {
        width: i64,
        depth: i64,
    },
}

/// A base on the table: where its centre is, its shape, and which way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Footprint {
    pub centre: Point,
    pub base: Base,
    pub facing: Facing,
}

/// The nearest integer to |k| / sqrt(den) (halves round up), exactly: the largest n with
/// (n - 1/2)^2 <= k^2 / den.
pub(super) fn round_sqrt_ratio(k: i128, den: u128) -> i64 {
    let k2 = k.unsigned_abs().saturating_mul(k.unsigned_abs());
    let den = den.max(1);
    let n = (k2 / den).isqrt();
    let m = 2 * n + 1;
    let n = if m.saturating_mul(m).saturating_mul(den) <= k2.saturating_mul(4) {
        n + 1
    } else {
        n
    };
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The largest coordinate (in absolute value) and size for which every result is exact.
pub const LIMIT: i64 = 100_000_000;

impl Footprint {
    /// Checks that the base has a positive size and lies within [`LIMIT`] units of the origin.
    pub fn validate(&self) -> Result<(), String> {
        let sizes: &[(&str, i64)] = match self.base {
            Base::Round { radius } => &[("radius", radius)],
            Base::Rect { width, depth } => &[("width", width), ("depth", depth)],
        };
        for &(name, v) in sizes {
            if !(1..=LIMIT).contains(&v) {
                return Err(format!("{name} must be 1-{LIMIT} units (0.1 mm), not {v}"));
            }
        }
        for (name, v) in [("east", self.centre.x), ("north", self.centre.y)] {
            if !(-LIMIT..=LIMIT).contains(&v) {
                return Err(format!(
                    "{name} must be within +-{LIMIT} units (10 km), not {v}"
                ));
            }
        }
        Ok(())
    }

    /// The corners of a rectangular base, anticlockwise from front-right; empty for a round one.
    pub fn corners(&self) -> Vec<Point> {
        let Base::Rect { width, depth } = self.base else {
            return Vec::new();
        };
        // A rectangle has some area whatever the input (validate() refuses such input): with a
        // size of 0 every point would be "inside" the degenerate polygon.
        let (width, depth) = (width.max(1), depth.max(1));
        let (fx, fy) = self.facing.vector();
        // The right-hand side of facing (fx, fy) is (fy, -fx).
        let (rx, ry) = (fy, -fx);
        // Offsets +-depth/2 along the facing and +-width/2 across it.
        let offsets = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
        offsets
            .iter()
            .map(|&(sd, sw)| {
                // Twice the offset times |(fx, fy)|, exact; then divided by 2 (axis facings)
                // or 2 sqrt 2 (diagonals) and rounded to the nearest unit, halves outward.
                let den = if self.facing.diagonal() { 8 } else { 4 };
                let off = |f: i64, r: i64| {
                    let v = i128::from(sd * f)
                        .saturating_mul(i128::from(depth))
                        .saturating_add(i128::from(sw * r).saturating_mul(i128::from(width)));
                    round_sqrt_ratio(v, den) * (v.signum() as i64)
                };
                Point::new(
                    self.centre.x.saturating_add(off(fx, rx)),
                    self.centre.y.saturating_add(off(fy, ry)),
                )
            })
            .collect()
    }

    /// Whether `p` lies inside or on the edge of this base.
    pub fn contains(&self, p: Point) -> bool {
        match self.base {
            Base::Round { radius } => self.centre.distance(p) <= radius.max(0).unsigned_abs(),
            Base::Rect { .. } => point_polygon_distance(p, &self.corners()) == 0,
        }
    }

    /// The distance between the nearest points of the two bases ("edge to edge"), rounded up
    /// to a whole unit; 0 when they touch or overlap.
    pub fn distance(&self, other: &Footprint) -> u64 {
        match (self.base, other.base) {
            (Base::Round { radius: a }, Base::Round { radius: b }) => self
                .centre
                .distance(other.centre)
                .saturating_sub(a.max(0).unsigned_abs())
                .saturating_sub(b.max(0).unsigned_abs()),
            (Base::Round { radius }, Base::Rect { .. }) => {
                point_polygon_distance(self.centre, &other.corners())
                    .saturating_sub(radius.max(0).unsigned_abs())
            }
            (Base::Rect { .. }, Base::Round { .. }) => other.distance(self),
            (Base::Rect { .. }, Base::Rect { .. }) => {
                polygon_distance(&self.corners(), &other.corners())
            }
        }
    }

    /// Whether the interiors of the two bases meet (plan K1). Bases that only touch, along an
    /// edge or at a corner, do not overlap: they are "in contact" (distance 0, no overlap).
    /// Exact on the (rounded) corners; a round base of radius 0 has no interior.
    pub fn overlaps(&self, other: &Footprint) -> bool {
        match (self.base, other.base) {
            (Base::Round { radius: a }, Base::Round { radius: b }) => {
                let (a, b) = (i128::from(a.max(0)), i128::from(b.max(0)));
                a > 0 && b > 0 && dist2(self.centre, other.centre) < sq(a.saturating_add(b))
            }
            (Base::Round { radius }, Base::Rect { .. }) => {
                closer_than(self.centre, &other.corners(), radius)
            }
            (Base::Rect { .. }, Base::Round { .. }) => other.overlaps(self),
            (Base::Rect { .. }, Base::Rect { .. }) => {
                overlap_strict(&self.corners(), &other.corners())
            }
        }
    }

    /// The distance from the nearest point of this base to `p`, rounded up; 0 inside.
    pub fn distance_to_point(&self, p: Point) -> u64 {
        match self.base {
            Base::Round { radius } => self
                .centre
                .distance(p)
                .saturating_sub(radius.max(0).unsigned_abs()),
            Base::Rect { .. } => point_polygon_distance(p, &self.corners()),
        }
    }

    /// Whether `p` is within the front arc: the 90-degree quarter centred on the facing and
    /// measured from the base's centre, both boundary lines included (so is the centre itself).
    pub fn in_front_arc(&self, p: Point) -> bool {
        let v = (
            i128::from(p.x) - i128::from(self.centre.x),
            i128::from(p.y) - i128::from(self.centre.y),
        );
        // The arc's edges point 45 degrees either side of the facing: the neighbouring compass
        // vectors. p is inside when it is anticlockwise of the right edge and clockwise of the
        // left one.
        let right = self.facing.clockwise().vector();
        let left = self.facing.anticlockwise().vector();
        cross(right, v) >= 0 && cross_rev(v, left) >= 0
    }
}

/// The cross product (a - o) x (b - o), exact in i128 for points within `shape::SPAN`.
pub(super) fn cross3(o: Point, a: Point, b: Point) -> i128 {
    (i128::from(a.x) - i128::from(o.x)) * (i128::from(b.y) - i128::from(o.y))
        - (i128::from(a.y) - i128::from(o.y)) * (i128::from(b.x) - i128::from(o.x))
}

pub(super) fn cross(a: (i64, i64), b: (i128, i128)) -> i128 {
    i128::from(a.0)
        .saturating_mul(b.1)
        .saturating_sub(i128::from(a.1).saturating_mul(b.0))
}

pub(super) fn cross_rev(a: (i128, i128), b: (i64, i64)) -> i128 {
    -cross(b, a)
}

/// Distance from `p` to the segment a-b, rounded up.
pub(super) fn point_segment_distance(p: Point, a: Point, b: Point) -> u64 {
    let (px, py) = (i128::from(p.x), i128::from(p.y));
    let (ax, ay) = (i128::from(a.x), i128::from(a.y));
    let (bx, by) = (i128::from(b.x), i128::from(b.y));
    let (ex, ey) = (bx - ax, by - ay);
    let (vx, vy) = (px - ax, py - ay);
    let len2 = sq(ex).saturating_add(sq(ey));
    let t = vx.saturating_mul(ex).saturating_add(vy.saturating_mul(ey));
    if len2 == 0 || t <= 0 {
        return p.distance(a);
    }
    if t >= len2 {
        return p.distance(b);
    }
    let c = vx.saturating_mul(ey).saturating_sub(vy.saturating_mul(ex));
    ceil_sqrt_ratio(sq(c), len2)
}

/// Whether `p` is inside or on the convex polygon (corners in either winding).
pub(super) fn inside(p: Point, poly: &[Point]) -> bool {
    let mut sign = 0i128;
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        let c = cross_rev(
            (
                i128::from(b.x) - i128::from(a.x),
                i128::from(b.y) - i128::from(a.y),
            ),
            (p.x - a.x, p.y - a.y),
        );
        if c != 0 {
            if sign != 0 && c.signum() != sign {
                return false;
            }
            sign = c.signum();
        }
    }
    !poly.is_empty()
}

pub(super) fn point_polygon_distance(p: Point, poly: &[Point]) -> u64 {
    if poly.is_empty() || inside(p, poly) {
        return 0;
    }
    (0..poly.len())
        .map(|i| point_segment_distance(p, poly[i], poly[(i + 1) % poly.len()]))
        .min()
        .unwrap_or(0)
}

/// Whether two convex polygons share a point (separating-axis test on every edge normal).
pub(super) fn overlap(a: &[Point], b: &[Point]) -> bool {
    !separated(a, b, false)
}

/// Whether an edge normal of `a` or `b` separates them: with `touching`, polygons that only
/// touch count as separated (two convex sets are apart, or meet only on their boundaries,
/// exactly when a line through an edge of one of them separates them).
fn separated(a: &[Point], b: &[Point], touching: bool) -> bool {
    for poly in [a, b] {
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let n = (
                i128::from(p.y) - i128::from(q.y),
                i128::from(q.x) - i128::from(p.x),
            );
            let proj = |s: &[Point]| {
                let v = s.iter().map(|c| {
                    n.0.saturating_mul(i128::from(c.x))
                        .saturating_add(n.1.saturating_mul(i128::from(c.y)))
                });
                (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
            };
            let ((amin, amax), (bmin, bmax)) = (proj(a), proj(b));
            let apart = if touching {
                amax <= bmin || bmax <= amin
            } else {
                amax < bmin || bmax < amin
            };
            if apart {
                return true;
            }
        }
    }
    false
}

/// The squared distance between two points, exact.
pub(super) fn dist2(a: Point, b: Point) -> i128 {
    sq(i128::from(a.x) - i128::from(b.x)).saturating_add(sq(i128::from(a.y) - i128::from(b.y)))
}

/// Whether the exact distance from `p` to the segment a-b is below `r` (r > 0).
pub(super) fn segment_closer_than(p: Point, a: Point, b: Point, r: i64) -> bool {
    let r2 = sq(i128::from(r));
    let (ex, ey) = (
        i128::from(b.x) - i128::from(a.x),
        i128::from(b.y) - i128::from(a.y),
    );
    let (vx, vy) = (
        i128::from(p.x) - i128::from(a.x),
        i128::from(p.y) - i128::from(a.y),
    );
    let len2 = sq(ex).saturating_add(sq(ey));
    let t = vx.saturating_mul(ex).saturating_add(vy.saturating_mul(ey));
    if len2 == 0 || t <= 0 {
        return dist2(p, a) < r2;
    }
    if t >= len2 {
        return dist2(p, b) < r2;
    }
    let c = vx.saturating_mul(ey).saturating_sub(vy.saturating_mul(ex));
    sq(c) < r2.saturating_mul(len2)
}

/// Whether the exact distance from `p` to the convex polygon is below `r`: false for r <= 0,
/// true when `p` is inside or on it.
pub(super) fn closer_than(p: Point, poly: &[Point], r: i64) -> bool {
    if r <= 0 || poly.is_empty() {
        return false;
    }
    inside(p, poly)
        || (0..poly.len()).any(|i| segment_closer_than(p, poly[i], poly[(i + 1) % poly.len()], r))
}

/// Whether the interiors of two convex polygons meet (polygons that only touch do not).
pub(super) fn overlap_strict(a: &[Point], b: &[Point]) -> bool {
    a.len() >= 3 && b.len() >= 3 && !separated(a, b, true)
}

pub(super) fn polygon_distance(a: &[Point], b: &[Point]) -> u64 {
    if a.is_empty() || b.is_empty() || overlap(a, b) {
        return 0;
    }
    let one = |from: &[Point], to: &[Point]| {
        from.iter()
            .flat_map(|&p| (0..to.len()).map(move |i| (p, i)))
            .map(|(p, i)| point_segment_distance(p, to[i], to[(i + 1) % to.len()]))
            .min()
            .unwrap_or(u64::MAX)
    };
    one(a, b).min(one(b, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rect(x: i64, y: i64, width: i64, depth: i64, facing: Facing) -> Footprint {
        Footprint {
            centre: Point::new(x, y),
            base: Base::Rect { width, depth },
            facing,
        }
    }

    fn round(x: i64, y: i64, radius: i64) -> Footprint {
        Footprint {
            centre: Point::new(x, y),
            base: Base::Round { radius },
            facing: Facing::N,
        }
    }

    #[test]
    fn an_inch_is_exactly_254_units() {
        assert_eq!(INCH * 10, 254 * MM);
    }

    #[test]
    fn point_distance_rounds_up_exactly() {
        assert_eq!(Point::new(0, 0).distance(Point::new(3, 4)), 5);
        assert_eq!(
            Point::new(0, 0).distance(Point::new(1, 1)),
            2,
            "sqrt 2 rounds up"
        );
        assert_eq!(Point::new(5, 5).distance(Point::new(5, 5)), 0);
        assert_eq!(ceil_sqrt(24), 5);
        assert_eq!(ceil_sqrt(25), 5);
        assert_eq!(ceil_sqrt(26), 6);
    }

    #[test]
    fn huge_coordinates_saturate_instead_of_panicking() {
        let far = Point::new(i64::MAX, i64::MIN).distance(Point::new(i64::MIN, i64::MAX));
        assert!(far > 0);
        let _ = rect(i64::MAX, i64::MAX, i64::MAX, i64::MAX, Facing::NE).distance(&rect(
            i64::MIN,
            0,
            3,
            3,
            Facing::S,
        ));
    }

    #[test]
    fn footprints_check_their_sizes_and_place() {
        assert!(rect(0, 0, 1, LIMIT, Facing::NE).validate().is_ok());
        assert_eq!(
            rect(0, 0, 0, 5, Facing::N).validate().unwrap_err(),
            "width must be 1-100000000 units (0.1 mm), not 0"
        );
        assert!(
            round(0, 0, -1)
                .validate()
                .unwrap_err()
                .starts_with("radius")
        );
        assert!(
            round(0, LIMIT + 1, 5)
                .validate()
                .unwrap_err()
                .starts_with("north")
        );
    }

    #[test]
    fn a_zero_sized_rectangle_is_not_everywhere() {
        let dot = rect(0, 0, 0, 0, Facing::NE);
        assert!(!dot.contains(Point::new(50, 50)));
        assert!(dot.distance(&rect(100, 0, 0, 0, Facing::N)) > 90);
    }

    #[test]
    fn axis_rectangles_have_exact_corners() {
        let r = rect(0, 0, 40, 20, Facing::N);
        assert_eq!(
            r.corners(),
            [
                Point::new(20, 10),
                Point::new(-20, 10),
                Point::new(-20, -10),
                Point::new(20, -10)
            ]
        );
        let e = rect(0, 0, 40, 20, Facing::E);
        assert!(e.contains(Point::new(10, 20)) && !e.contains(Point::new(20, 10)));
    }

    #[test]
    fn diagonal_rectangles_round_their_corners_to_the_nearest_unit() {
        // A 100 x 100 square facing NE is a diamond with corners 100 / sqrt 2 = 70.7 away.
        let d = rect(0, 0, 100, 100, Facing::NE);
        let mut c = d.corners();
        c.sort();
        assert_eq!(
            c,
            [
                Point::new(-71, 0),
                Point::new(0, -71),
                Point::new(0, 71),
                Point::new(71, 0)
            ]
        );
        assert_eq!(round_sqrt_ratio(200, 8), 71);
        assert_eq!(round_sqrt_ratio(-20, 8), 7);
        assert_eq!(round_sqrt_ratio(3, 4), 2, "half a unit rounds outward");
    }

    #[test]
    fn edge_to_edge_between_axis_rectangles() {
        let a = rect(0, 0, 20, 20, Facing::N);
        assert_eq!(a.distance(&rect(50, 0, 20, 20, Facing::S)), 30);
        // Corner to corner: gaps of 30 and 40 make 50.
        assert_eq!(a.distance(&rect(50, 60, 20, 20, Facing::W)), 50);
        assert_eq!(a.distance(&rect(20, 0, 20, 20, Facing::N)), 0, "touching");
        assert_eq!(a.distance(&rect(5, 5, 2, 2, Facing::N)), 0, "inside");
    }

    #[test]
    fn edge_to_edge_with_round_bases() {
        let r = round(0, 0, 10);
        assert_eq!(r.distance(&round(100, 0, 15)), 75);
        assert_eq!(r.distance(&round(10, 0, 15)), 0);
        assert_eq!(r.distance(&rect(50, 0, 20, 20, Facing::N)), 30);
        assert_eq!(rect(50, 0, 20, 20, Facing::N).distance(&r), 30);
        assert_eq!(r.distance_to_point(Point::new(0, 30)), 20);
        assert!(r.contains(Point::new(6, 8)));
        assert!(!r.contains(Point::new(7, 8)));
    }

    #[test]
    fn a_diamond_measures_from_its_corner() {
        let d = rect(0, 0, 100, 100, Facing::NE);
        assert_eq!(d.distance_to_point(Point::new(100, 0)), 29);
        assert_eq!(d.distance(&rect(200, 0, 20, 20, Facing::N)), 200 - 10 - 71);
    }

    #[test]
    fn five_inches_between_bases_is_an_exact_comparison() {
        let a = round(0, 0, 25 * MM / 2);
        let b = round(5 * INCH + 25 * MM, 0, 25 * MM / 2);
        assert_eq!(a.distance(&b), 5 * INCH as u64);
    }

    #[test]
    fn the_front_arc_is_a_quarter_centred_on_the_facing() {
        let n = rect(0, 0, 20, 20, Facing::N);
        assert!(n.in_front_arc(Point::new(0, 100)));
        assert!(n.in_front_arc(Point::new(100, 100)), "the boundary counts");
        assert!(!n.in_front_arc(Point::new(101, 100)));
        assert!(!n.in_front_arc(Point::new(0, -100)));
        let ne = rect(0, 0, 20, 20, Facing::NE);
        assert!(ne.in_front_arc(Point::new(100, 0)));
        assert!(ne.in_front_arc(Point::new(0, 100)));
        assert!(!ne.in_front_arc(Point::new(-1, 100)));
        assert!(ne.in_front_arc(Point::new(0, 0)), "the centre itself");
    }

    #[test]
    fn yaml_of_a_footprint_is_readable() {
        let text = crate::yaml::to_string(&rect(1, 2, 3, 4, Facing::SE));
        assert_eq!(
            text,
            "centre:\n  east: 1\n  north: 2\nbase:\n  rect:\n    width: 3\n    depth: 4\nfacing: SE\n"
        );
        let back: Footprint = crate::yaml::parse(&text, "base").unwrap();
        assert_eq!(back, rect(1, 2, 3, 4, Facing::SE));
    }

    #[test]
    fn touching_rectangles_do_not_overlap() {
        let a = rect(0, 0, 20, 20, Facing::N);
        assert!(!a.overlaps(&rect(20, 0, 20, 20, Facing::N)), "edge to edge");
        assert!(
            !a.overlaps(&rect(20, 20, 20, 20, Facing::E)),
            "corner to corner"
        );
        assert!(
            !a.overlaps(&rect(20, 5, 20, 20, Facing::S)),
            "along part of an edge"
        );
        assert_eq!(
            a.distance(&rect(20, 0, 20, 20, Facing::N)),
            0,
            "yet in contact"
        );
        assert!(!a.overlaps(&rect(100, 0, 20, 20, Facing::N)), "apart");
    }

    #[test]
    fn rectangles_whose_insides_meet_overlap() {
        let a = rect(0, 0, 20, 20, Facing::N);
        assert!(a.overlaps(&rect(19, 0, 20, 20, Facing::N)), "by one unit");
        assert!(
            a.overlaps(&rect(0, 0, 4, 4, Facing::N)),
            "one inside the other"
        );
        assert!(a.overlaps(&a), "a base overlaps itself");
        // A diamond reaching 71 units from its centre, its corner 1 unit into the square.
        assert!(a.overlaps(&rect(80, 0, 100, 100, Facing::NE)));
        assert!(
            !a.overlaps(&rect(81, 0, 100, 100, Facing::NE)),
            "corner on the edge"
        );
    }

    #[test]
    fn touching_round_bases_do_not_overlap() {
        let r = round(0, 0, 10);
        assert!(!r.overlaps(&round(25, 0, 15)), "tangent");
        assert!(r.overlaps(&round(24, 0, 15)));
        // 3-4-5: centres 25 apart on a diagonal.
        assert!(!r.overlaps(&round(15, 20, 15)));
        assert!(r.overlaps(&round(15, 19, 15)));
        assert!(!r.overlaps(&round(0, 0, 0)), "no radius, no inside");
    }

    #[test]
    fn a_round_base_overlaps_a_rectangle_only_past_touching() {
        let s = rect(0, 0, 20, 20, Facing::N);
        assert!(!s.overlaps(&round(20, 0, 10)), "tangent to an edge");
        assert!(s.overlaps(&round(19, 0, 10)));
        // The corner (10, 10) is 5 from (13, 14).
        assert!(!round(13, 14, 5).overlaps(&s), "through the corner");
        assert!(round(13, 14, 6).overlaps(&s));
        assert!(round(0, 0, 50).overlaps(&s), "the square inside the disc");
        assert!(round(1, 1, 1).overlaps(&s), "the disc inside the square");
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 64,
            rng_seed: proptest::test_runner::RngSeed::Fixed(15),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn overlap_means_distance_zero_and_is_symmetric(
            ax in -300i64..300, ay in -300i64..300, aw in 2i64..200, ad in 2i64..200,
            bx in -300i64..300, by in -300i64..300, bw in 2i64..200, bd in 2i64..200,
            fa in 0usize..8, fb in 0usize..8, ra in proptest::bool::ANY, rb in proptest::bool::ANY,
        ) {
            let make = |x, y, w, d, f: usize, r: bool| if r { round(x, y, w / 2 + 1) } else { rect(x, y, w, d, Facing::ALL[f]) };
            let a = make(ax, ay, aw, ad, fa, ra);
            let b = make(bx, by, bw, bd, fb, rb);
            prop_assert_eq!(a.overlaps(&b), b.overlaps(&a));
            if a.overlaps(&b) {
                prop_assert_eq!(a.distance(&b), 0);
            }
            if a.distance(&b) > 0 {
                prop_assert!(!a.overlaps(&b));
            }
            prop_assert!(a.overlaps(&a));
        }
    }

    proptest! {
        #[test]
        fn distance_is_symmetric_and_never_below_the_centre_gap_less_the_sizes(
            ax in -5000i64..5000, ay in -5000i64..5000, aw in 1i64..400, ad in 1i64..400,
            bx in -5000i64..5000, by in -5000i64..5000, bw in 1i64..400, bd in 1i64..400,
            fa in 0usize..8, fb in 0usize..8,
        ) {
            let a = rect(ax, ay, aw, ad, Facing::ALL[fa]);
            let b = rect(bx, by, bw, bd, Facing::ALL[fb]);
            let d = a.distance(&b);
            prop_assert_eq!(d, b.distance(&a));
            // Every corner lies within half the diagonal (+1 for rounding) of its centre.
            let reach = |w: i64, dd: i64| ceil_sqrt(i128::from(w * w + dd * dd)) / 2 + 1;
            let gap = a.centre.distance(b.centre);
            prop_assert!(d + reach(aw, ad) + reach(bw, bd) >= gap);
            prop_assert!(d <= gap);
        }

        #[test]
        fn axis_rectangles_match_the_gap_formula(
            ax in -5000i64..5000, ay in -5000i64..5000, aw in 1i64..200, ad in 1i64..200,
            bx in -5000i64..5000, by in -5000i64..5000, bw in 1i64..200, bd in 1i64..200,
        ) {
            // Even sizes keep the corners on whole units.
            let (aw, ad, bw, bd) = (2 * aw, 2 * ad, 2 * bw, 2 * bd);
            let a = rect(ax, ay, aw, ad, Facing::N);
            let b = rect(bx, by, bw, bd, Facing::S);
            let gx = ((ax - bx).abs() - (aw + bw) / 2).max(0);
            let gy = ((ay - by).abs() - (ad + bd) / 2).max(0);
            prop_assert_eq!(a.distance(&b), ceil_sqrt(i128::from(gx * gx + gy * gy)));
        }
    }
}
