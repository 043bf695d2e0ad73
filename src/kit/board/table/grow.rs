//! Growing a polygon (docs/first-blood-plan.md §10, K5): by a base, the exact Minkowski sum;
//! by a radius, the Minkowski sum with a polygon around the disc ([`Sides`]), so the result
//! contains every point within the radius (path clearance, the 1 mm strip of line of sight).
//! Corners stay within [`super::SPAN`] for a polygon from data grown once (see
//! [`super::shape`]).

use super::shape::{Sides, around_disc, within_span};
use super::{Convex, Footprint, Point, Shape};

impl Convex {
    /// The Minkowski sum with `other`, exact, by merging the two anticlockwise edge sequences
    /// from their lowest corners (parallel edges become one).
    pub fn minkowski(&self, other: &Convex) -> Convex {
        let lowest = |c: &Convex| -> Vec<Point> {
            let k = (0..c.0.len())
                .min_by_key(|&i| (c.0[i].y, c.0[i].x))
                .unwrap_or(0);
            let mut v: Vec<Point> = c.0[k..].iter().chain(c.0[..k].iter()).copied().collect();
            v.push(v[0]);
            v.push(v[1]);
            v
        };
        let (p, q) = (lowest(self), lowest(other));
        let (n, m) = (p.len() - 2, q.len() - 2);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::with_capacity(n + m);
        while i < n || j < m {
            out.push(Point::new(p[i].x + q[j].x, p[i].y + q[j].y));
            let ep = (p[i + 1].x - p[i].x, p[i + 1].y - p[i].y);
            let eq = (q[j + 1].x - q[j].x, q[j + 1].y - q[j].y);
            let c = i128::from(ep.0) * i128::from(eq.1) - i128::from(ep.1) * i128::from(eq.0);
            if c >= 0 && i < n {
                i += 1;
            }
            if c <= 0 && j < m {
                j += 1;
            }
        }
        debug_assert!(out.iter().all(|&p| within_span(p)));
        debug_assert!(Convex::strictly_convex(&out));
        Convex(out)
    }

    /// The polygon grown by a base centred at the origin (K5): the Minkowski sum, exact. A
    /// point `p` is in the result iff the base with its centre at `p` (same base and facing)
    /// meets the polygon, touching included, because a base's corners are symmetric about its
    /// centre. A round base stands in as its 16-gon (the result contains the exact sum).
    pub fn grown_by(&self, base: &Footprint) -> Convex {
        let at_origin = Footprint {
            centre: Point::new(0, 0),
            ..*base
        };
        self.minkowski(&Shape::Base(at_origin).outline())
    }

    /// The polygon grown by a polygon around the disc of radius `r` centred at the origin (K5),
    /// so it contains every point within `r` of the polygon. `r <= 0` gives the polygon itself.
    pub fn grown(&self, r: i64, sides: Sides) -> Convex {
        if r <= 0 {
            return self.clone();
        }
        self.minkowski(&around_disc(Point::new(0, 0), r, sides))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Facing;
    use super::super::shape::tests::{p, rect, square};
    use super::*;

    #[test]
    fn the_octagon_is_tight_around_the_disc() {
        // r = 5: t = ceil(5 sqrt 2) - 5 = 3; the diagonal edge x + y = 8 is 5.66 away.
        let o = around_disc(p(0, 0), 5, Sides::Octagon);
        assert_eq!(o.points().len(), 8);
        assert!(o.contains(p(5, 3)) && o.contains(p(3, 5)) && !o.contains(p(5, 4)));
        let big = around_disc(p(0, 0), 1000, Sides::Octagon);
        assert!(big.contains(p(1000, 415)) && !big.contains(p(1000, 416)));
    }

    #[test]
    fn growing_by_a_base_is_the_exact_minkowski_sum() {
        let s = square(0, 0, 100);
        let g = s.grown_by(&rect(7777, 7777, 20, 10, Facing::N));
        assert_eq!(
            g.points(),
            [p(-10, -5), p(110, -5), p(110, 105), p(-10, 105)]
        );
        // The base centred at a point of the result touches or overlaps the square.
        assert!(
            g.contains(p(110, 105))
                && s.distance_to_footprint(&rect(110, 105, 20, 10, Facing::N)) == 0
        );
        assert!(!g.contains(p(111, 50)));
        let tri = Convex::new(vec![p(0, 0), p(100, 0), p(0, 100)]).unwrap();
        let d = tri.grown_by(&rect(0, 0, 100, 100, Facing::NE));
        let mut sums = Vec::new();
        for &a in tri.points() {
            for &b in rect(0, 0, 100, 100, Facing::NE).corners().iter() {
                sums.push(p(a.x + b.x, a.y + b.y));
            }
        }
        let hull = Convex::hull(&sums).unwrap();
        let mut x = d.points().to_vec();
        let mut y = hull.points().to_vec();
        x.sort();
        y.sort();
        assert_eq!(x, y);
    }

    #[test]
    fn growing_by_a_radius_contains_every_point_that_near() {
        let s = square(0, 0, 100);
        assert_eq!(s.grown(0, Sides::Sixteen), s);
        for sides in [Sides::Octagon, Sides::Sixteen] {
            let g = s.grown(25, sides);
            assert!(g.contains(p(50, 125)) && g.contains(p(-25, 50)));
            // The corner's circle: (100 + 15, 100 + 20) is exactly 25 from (100, 100).
            assert!(g.contains(p(115, 120)));
            assert!(!g.contains(p(50, 135)));
        }
        assert!(!s.grown(25, Sides::Sixteen).contains(p(120, 120)));
    }
}
