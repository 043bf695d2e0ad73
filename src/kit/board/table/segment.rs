//! Straight segments: lines of sight and legs of a move (docs/first-blood-plan.md §10, K4).
//!
//! Endpoints lie within [`SPAN`] (checked by `debug_assert`), so every test is exact in `i128`
//! (see [`super::shape`]). Lengths and distances are rounded **up**; [`Segment::point_at`] rounds
//! **toward `a`**, so a model moved to `point_at(d)` has moved no more than `d`.

use super::shape::SPAN;
use super::{Convex, Point, cross3, point_polygon_distance, point_segment_distance};
use serde::{Deserialize, Serialize};

/// The segment from `a` to `b`, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    pub a: Point,
    pub b: Point,
}

/// `n / d` with `d > 0`, compared exactly.
#[derive(Clone, Copy)]
struct Ratio(i128, i128);

impl Ratio {
    fn compare(self, o: Ratio) -> std::cmp::Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
}

impl Segment {
    pub fn new(a: Point, b: Point) -> Segment {
        Segment { a, b }
    }

    fn check(&self) {
        debug_assert!(
            [self.a, self.b]
                .iter()
                .all(|p| (-SPAN..=SPAN).contains(&p.x) && (-SPAN..=SPAN).contains(&p.y)),
            "segment {self:?} beyond the exact range"
        );
    }

    /// The length, rounded up.
    pub fn len(&self) -> u64 {
        self.a.distance(self.b)
    }

    /// Whether the segment is a single point.
    pub fn is_empty(&self) -> bool {
        self.a == self.b
    }

    /// Whether some point of the segment lies in the polygon: its interior when `strict`, else
    /// the polygon with its edges. Clips the parameter interval [0, 1] by each edge's half-plane,
    /// with the bounds kept as exact ratios.
    fn clip(&self, c: &Convex, strict: bool) -> bool {
        self.check();
        let pts = c.points();
        let n = pts.len();
        // (bound, open)
        let (mut lo, mut lo_open) = (Ratio(0, 1), false);
        let (mut hi, mut hi_open) = (Ratio(1, 1), false);
        for i in 0..n {
            let (v, w) = (pts[i], pts[(i + 1) % n]);
            let f0 = cross3(v, w, self.a);
            let f1 = cross3(v, w, self.b);
            let s = f1 - f0;
            // f(t) = f0 + t s must be >= 0 (> 0 when strict).
            if s == 0 {
                if f0 < 0 || (strict && f0 == 0) {
                    return false;
                }
            } else if s > 0 {
                let l = Ratio(-f0, s);
                match l.compare(lo) {
                    std::cmp::Ordering::Greater => (lo, lo_open) = (l, strict),
                    std::cmp::Ordering::Equal => lo_open |= strict,
                    std::cmp::Ordering::Less => {}
                }
            } else {
                let u = Ratio(f0, -s);
                match u.compare(hi) {
                    std::cmp::Ordering::Less => (hi, hi_open) = (u, strict),
                    std::cmp::Ordering::Equal => hi_open |= strict,
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
        match lo.compare(hi) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => !lo_open && !hi_open,
            std::cmp::Ordering::Greater => false,
        }
    }

    /// Whether the segment meets the interior of the polygon (running along an edge or
    /// touching a corner does not cross it).
    pub fn crosses(&self, c: &Convex) -> bool {
        self.clip(c, true)
    }

    /// Whether the segment meets the polygon, edges included.
    pub fn meets(&self, c: &Convex) -> bool {
        self.clip(c, false)
    }

    /// The distance from `p` to the nearest point of the segment, rounded up.
    pub fn distance_to_point(&self, p: Point) -> u64 {
        self.check();
        point_segment_distance(p, self.a, self.b)
    }

    /// The distance between the nearest points of the segment and the polygon, rounded up; 0
    /// when they meet. (Apart, the nearest pair has a corner of one of them.)
    pub fn distance_to(&self, c: &Convex) -> u64 {
        if self.meets(c) {
            return 0;
        }
        let ends = [self.a, self.b]
            .into_iter()
            .map(|p| point_polygon_distance(p, c.points()));
        let corners = c.points().iter().map(|&v| self.distance_to_point(v));
        ends.chain(corners).min().unwrap_or(u64::MAX)
    }

    /// The point at distance `d` from `a` toward `b`, each coordinate of the exact point rounded
    /// toward `a`'s, so its distance from `a` is at most `d` (exactly, not only once rounded up)
    /// and it lies within a unit of the segment in each coordinate; `b` when `d` reaches it.
    pub fn point_at(&self, d: u64) -> Point {
        self.check();
        let (dx, dy) = (
            i128::from(self.b.x) - i128::from(self.a.x),
            i128::from(self.b.y) - i128::from(self.a.y),
        );
        let len2 = (dx * dx + dy * dy).unsigned_abs();
        let d2 = u128::from(d).saturating_mul(u128::from(d));
        if len2 == 0 || d2 >= len2 {
            return self.b;
        }
        // |k| = floor(|e| d / sqrt(len2)) = floor(sqrt(e^2 d^2 / len2)); e^2 d^2 < len2^2 < 2^122.
        let along = |e: i128| -> i64 {
            let k = (e.unsigned_abs().pow(2) * d2 / len2).isqrt();
            let k = i64::try_from(k).unwrap_or(i64::MAX);
            if e < 0 { -k } else { k }
        };
        Point::new(self.a.x + along(dx), self.a.y + along(dy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i64, y: i64) -> Point {
        Point::new(x, y)
    }

    fn s(ax: i64, ay: i64, bx: i64, by: i64) -> Segment {
        Segment::new(p(ax, ay), p(bx, by))
    }

    fn square() -> Convex {
        Convex::new(vec![p(0, 0), p(100, 0), p(100, 100), p(0, 100)]).unwrap()
    }

    #[test]
    fn a_segment_length_rounds_up() {
        assert_eq!(s(0, 0, 30, 40).len(), 50);
        assert_eq!(s(0, 0, 1, 1).len(), 2);
        assert_eq!(s(5, 5, 5, 5).len(), 0);
        assert!(s(5, 5, 5, 5).is_empty() && !s(0, 0, 1, 0).is_empty());
    }

    #[test]
    fn a_segment_through_the_inside_crosses() {
        let q = square();
        assert!(s(-50, 50, 150, 50).crosses(&q), "straight through");
        assert!(s(10, 10, 20, 20).crosses(&q), "wholly inside");
        assert!(s(-50, 50, 1, 50).crosses(&q), "ends one unit in");
        assert!(s(-10, 80, 30, 120).crosses(&q), "clips a corner");
        assert!(
            !s(-10, 90, 10, 110).crosses(&q),
            "meets only the corner (0, 100)"
        );
    }

    #[test]
    fn a_segment_along_an_edge_or_through_a_corner_does_not_cross() {
        let q = square();
        assert!(!s(-50, 0, 150, 0).crosses(&q), "along the south edge");
        assert!(!s(-50, 50, 0, 50).crosses(&q), "ends on the west edge");
        assert!(
            !s(-100, 0, 100, 200).crosses(&q),
            "touches the corner (0, 100)"
        );
        assert!(!s(-100, 200, 200, 200).crosses(&q), "apart");
        assert!(!s(0, 0, 0, 0).crosses(&q), "a point on the corner");
        assert!(s(50, 50, 50, 50).crosses(&q), "a point inside");
    }

    #[test]
    fn a_segment_meets_a_polygon_it_touches() {
        let q = square();
        assert!(s(-50, 0, 150, 0).meets(&q));
        assert!(s(-100, 0, 100, 200).meets(&q));
        assert!(!s(-100, 1, 100, 201).meets(&q));
    }

    #[test]
    fn distance_from_a_segment_to_a_polygon_is_nearest_points() {
        let q = square();
        assert_eq!(s(-50, 50, 150, 50).distance_to(&q), 0);
        assert_eq!(
            s(130, -100, 130, 300).distance_to(&q),
            30,
            "passing by an edge"
        );
        assert_eq!(
            s(130, 140, 200, 140).distance_to(&q),
            50,
            "from its end to a corner"
        );
        // The segment x + y = 250 passes (125, 125), 25 sqrt 2 = 35.36 from (100, 100).
        assert_eq!(
            s(50, 200, 200, 50).distance_to(&q),
            36,
            "a corner to the middle"
        );
        assert_eq!(s(-50, 0, 150, 0).distance_to(&q), 0, "along an edge");
    }

    #[test]
    fn point_at_measures_from_a() {
        let seg = s(0, 0, 300, 400);
        assert_eq!(seg.point_at(0), p(0, 0));
        assert_eq!(seg.point_at(50), p(30, 40));
        assert_eq!(seg.point_at(500), p(300, 400));
        assert_eq!(seg.point_at(9999), p(300, 400), "beyond the end: the end");
        assert_eq!(s(7, 7, 7, 7).point_at(3), p(7, 7));
    }

    #[test]
    fn point_at_rounds_toward_a_so_no_move_exceeds_its_allowance() {
        // Along (1, 1): 10 units reach (7.07, 7.07), rounded toward a to (7, 7).
        assert_eq!(s(0, 0, 100, 100).point_at(10), p(7, 7));
        assert_eq!(s(100, 100, 0, 0).point_at(10), p(93, 93));
        assert_eq!(s(0, 0, -100, 100).point_at(10), p(-7, 7));
        // 141.42 is the whole diagonal: 141 stops short, and the result is within 141.
        let q = s(0, 0, 100, 100).point_at(141);
        assert_eq!(q, p(99, 99));
        assert!(p(0, 0).distance(q) <= 141);
        assert_eq!(s(0, 0, 100, 100).point_at(142), p(100, 100));
    }
}
