//! Property tests of the table geometry against brute-force oracles: sampling a fine grid
//! (quarter units for insides, 1/256 of a segment for crossings) and an independent `f64`
//! computation, used here only (exact for these small coordinates where it decides: sign tests
//! of small integers and dyadic grid points). Each property runs [`CASES`] cases with a fixed
//! seed; its `_many` twin runs [`MANY`] and is `#[ignore]`d (`cargo test -- --ignored`).

use super::*;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

const CASES: u32 = 24;
const MANY: u32 = 2000;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x15_f1b),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A property at two sizes: `$small` runs by default, `$many` is ignored.
macro_rules! property {
    ($small:ident, $many:ident, ($($arg:ident in $strat:expr),* $(,)?) $body:block) => {
        proptest! {
            #![proptest_config(config(CASES))]
            #[test]
            fn $small($($arg in $strat),*) $body
        }
        proptest! {
            #![proptest_config(config(MANY))]
            #[test]
            #[ignore]
            fn $many($($arg in $strat),*) $body
        }
    };
}

// ---- generators -------------------------------------------------------------------------

const BOX: i64 = 60;

fn convex() -> impl Strategy<Value = Convex> {
    prop::collection::vec((0..BOX, 0..BOX), 3..9).prop_filter_map("all in a line", |v| {
        Convex::hull(
            &v.into_iter()
                .map(|(x, y)| Point::new(x, y))
                .collect::<Vec<_>>(),
        )
    })
}

fn footprint() -> impl Strategy<Value = Footprint> {
    (0..BOX, 0..BOX, 2i64..30, 2i64..30, 0usize..8, 0u8..4).prop_map(|(x, y, w, d, f, kind)| {
        Footprint {
            centre: Point::new(x, y),
            // One base in four is round.
            base: if kind == 0 {
                Base::Round { radius: w / 2 + 1 }
            } else {
                Base::Rect { width: w, depth: d }
            },
            facing: Facing::ALL[f],
        }
    })
}

fn rect_footprint() -> impl Strategy<Value = Footprint> {
    (0..BOX, 0..BOX, 2i64..30, 2i64..30, 0usize..8).prop_map(|(x, y, w, d, f)| Footprint {
        centre: Point::new(x, y),
        base: Base::Rect { width: w, depth: d },
        facing: Facing::ALL[f],
    })
}

fn segment() -> impl Strategy<Value = Segment> {
    (-10..BOX + 10, -10..BOX + 10, -10..BOX + 10, -10..BOX + 10)
        .prop_map(|(ax, ay, bx, by)| Segment::new(Point::new(ax, ay), Point::new(bx, by)))
}

// ---- the f64 oracle -----------------------------------------------------------------------

type F = (f64, f64);

fn f(p: Point) -> F {
    (p.x as f64, p.y as f64)
}

fn fcross(o: F, a: F, b: F) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

fn fpoly(poly: &[Point]) -> Vec<F> {
    poly.iter().map(|&p| f(p)).collect()
}

/// Inside or on an anticlockwise convex polygon (`strict`: inside only).
fn finside(p: F, poly: &[F], strict: bool) -> bool {
    (0..poly.len()).all(|i| {
        let c = fcross(poly[i], poly[(i + 1) % poly.len()], p);
        if strict { c > 0.0 } else { c >= 0.0 }
    })
}

fn fdist(a: F, b: F) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn fseg_point(p: F, a: F, b: F) -> f64 {
    let (ex, ey) = (b.0 - a.0, b.1 - a.1);
    let l2 = ex * ex + ey * ey;
    if l2 == 0.0 {
        return fdist(p, a);
    }
    let t = (((p.0 - a.0) * ex + (p.1 - a.1) * ey) / l2).clamp(0.0, 1.0);
    fdist(p, (a.0 + t * ex, a.1 + t * ey))
}

fn fpoly_point(p: F, poly: &[F]) -> f64 {
    if finside(p, poly, false) {
        return 0.0;
    }
    (0..poly.len())
        .map(|i| fseg_point(p, poly[i], poly[(i + 1) % poly.len()]))
        .fold(f64::INFINITY, f64::min)
}

/// Whether two closed segments share a point (orientation tests, exact for small integers).
fn fsegs_meet(a: F, b: F, c: F, d: F) -> bool {
    let (d1, d2) = (fcross(a, b, c), fcross(a, b, d));
    let (d3, d4) = (fcross(c, d, a), fcross(c, d, b));
    let on = |p: F, q: F, r: F| {
        (p.0.min(q.0)..=p.0.max(q.0)).contains(&r.0) && (p.1.min(q.1)..=p.1.max(q.1)).contains(&r.1)
    };
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on(a, b, c))
        || (d2 == 0.0 && on(a, b, d))
        || (d3 == 0.0 && on(c, d, a))
        || (d4 == 0.0 && on(c, d, b))
}

fn edges(poly: &[F]) -> impl Iterator<Item = (F, F)> + '_ {
    (0..poly.len()).map(move |i| (poly[i], poly[(i + 1) % poly.len()]))
}

/// The distance between two closed convex polygons.
fn fpoly_poly(a: &[F], b: &[F]) -> f64 {
    let meet = a.iter().any(|&p| finside(p, b, false))
        || b.iter().any(|&p| finside(p, a, false))
        || edges(a).any(|(p, q)| edges(b).any(|(r, s)| fsegs_meet(p, q, r, s)));
    if meet {
        return 0.0;
    }
    let one = |x: &[F], y: &[F]| {
        x.iter()
            .flat_map(|&p| edges(y).map(move |(r, s)| fseg_point(p, r, s)))
            .fold(f64::INFINITY, f64::min)
    };
    one(a, b).min(one(b, a))
}

/// The area of the intersection of two anticlockwise convex polygons (Sutherland-Hodgman).
fn fintersection_area(a: &[F], b: &[F]) -> f64 {
    let mut out = a.to_vec();
    for (p, q) in edges(b) {
        let input = std::mem::take(&mut out);
        for i in 0..input.len() {
            let (s, e) = (input[i], input[(i + 1) % input.len()]);
            let (cs, ce) = (fcross(p, q, s), fcross(p, q, e));
            if cs >= 0.0 {
                out.push(s);
            }
            if (cs >= 0.0) != (ce >= 0.0) {
                let t = cs / (cs - ce);
                out.push((s.0 + t * (e.0 - s.0), s.1 + t * (e.1 - s.1)));
            }
        }
        if out.is_empty() {
            return 0.0;
        }
    }
    (0..out.len())
        .map(|i| fcross((0.0, 0.0), out[i], out[(i + 1) % out.len()]))
        .sum::<f64>()
        / 2.0
}

/// The footprint's polygon (its corners) for a rectangle.
fn fcorners(fp: &Footprint) -> Vec<F> {
    fpoly(&fp.corners())
}

fn fround(fp: &Footprint) -> Option<(F, f64)> {
    match fp.base {
        Base::Round { radius } => Some((f(fp.centre), radius as f64)),
        Base::Rect { .. } => None,
    }
}

/// Whether the grid point `q` is strictly inside the base.
fn fin_base(q: F, fp: &Footprint, strict: bool) -> bool {
    match fround(fp) {
        Some((c, r)) => {
            let d2 = (q.0 - c.0).powi(2) + (q.1 - c.1).powi(2);
            if strict { d2 < r * r } else { d2 <= r * r }
        }
        None => finside(q, &fcorners(fp), strict),
    }
}

/// The exact distance (rounded up) agrees with the f64 one: its ceiling, or either neighbour
/// of an integer the f64 value is too near to decide.
fn agrees(exact: u64, fl: f64) -> bool {
    let n = fl.round();
    if (fl - n).abs() < 1e-6 {
        exact == n as u64 || exact == n as u64 + 1
    } else {
        exact == fl.ceil() as u64
    }
}

/// Quarter-unit grid points over the bounding box of `points`, a quarter unit beyond.
fn near_grid(points: &[F]) -> impl Iterator<Item = F> + use<> {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in points {
        (x0, y0, x1, y1) = (x0.min(p.0), y0.min(p.1), x1.max(p.0), y1.max(p.1));
    }
    let (i0, i1) = ((4.0 * x0).floor() as i64 - 1, (4.0 * x1).ceil() as i64 + 1);
    let (j0, j1) = ((4.0 * y0).floor() as i64 - 1, (4.0 * y1).ceil() as i64 + 1);
    (i0..=i1).flat_map(move |i| (j0..=j1).map(move |j| (i as f64 / 4.0, j as f64 / 4.0)))
}

fn bounds_of(fp: &Footprint) -> Vec<F> {
    match fround(fp) {
        Some((c, r)) => vec![(c.0 - r, c.1 - r), (c.0 + r, c.1 + r)],
        None => fcorners(fp),
    }
}

// ---- K1 and K2: overlap, containment, holding, distance ------------------------------------

property!(contains_agrees_with_the_oracle, contains_agrees_with_the_oracle_many,
    (c in convex()) {
        let fc = fpoly(c.points());
        for x in -3..BOX + 3 {
            for y in -3..BOX + 3 {
                let p = Point::new(x, y);
                prop_assert_eq!(c.contains(p), finside(f(p), &fc, false), "{:?}", p);
                prop_assert!(agrees(c.distance_to_point(p), fpoly_point(f(p), &fc)));
            }
        }
    }
);

property!(overlap_of_a_polygon_and_a_base_agrees_with_sampling,
    overlap_of_a_polygon_and_a_base_agrees_with_sampling_many,
    (c in convex(), fp in footprint()) {
        let fc = fpoly(c.points());
        let mut pts = fc.clone();
        pts.extend(bounds_of(&fp));
        let witness = near_grid(&pts)
            .any(|q| finside(q, &fc, true) && fin_base(q, &fp, true));
        let overlaps = c.overlaps_footprint(&fp);
        if witness {
            prop_assert!(overlaps, "a sampled point is inside both");
        }
        match fround(&fp) {
            Some((centre, r)) => {
                let d = fpoly_point(centre, &fc);
                if d < r - 1e-9 { prop_assert!(overlaps); }
                if d > r + 1e-9 { prop_assert!(!overlaps); }
            }
            None => {
                let area = fintersection_area(&fcorners(&fp), &fc);
                if overlaps {
                    prop_assert!(witness || area > 0.0, "overlap with no common area");
                } else {
                    prop_assert!(area < 1e-9, "common area {} yet no overlap", area);
                }
            }
        }
    }
);

property!(footprints_overlap_as_sampling_says, footprints_overlap_as_sampling_says_many,
    (a in footprint(), b in footprint()) {
        let mut pts = bounds_of(&a);
        pts.extend(bounds_of(&b));
        let witness = near_grid(&pts).any(|q| fin_base(q, &a, true) && fin_base(q, &b, true));
        let overlaps = a.overlaps(&b);
        prop_assert_eq!(overlaps, b.overlaps(&a));
        if witness {
            prop_assert!(overlaps);
        }
        match (fround(&a), fround(&b)) {
            (Some((ca, ra)), Some((cb, rb))) => {
                prop_assert_eq!(overlaps, fdist(ca, cb) < ra + rb - 1e-9 || witness);
            }
            (Some((c, r)), None) | (None, Some((c, r))) => {
                let other = if fround(&a).is_some() { &b } else { &a };
                let d = fpoly_point(c, &fcorners(other));
                if d < r - 1e-9 { prop_assert!(overlaps); }
                if d > r + 1e-9 { prop_assert!(!overlaps); }
            }
            (None, None) => {
                let area = fintersection_area(&fcorners(&a), &fcorners(&b));
                if overlaps {
                    prop_assert!(witness || area > 0.0);
                } else {
                    prop_assert!(area < 1e-9);
                }
            }
        }
    }
);

property!(holding_a_base_agrees_with_sampling, holding_a_base_agrees_with_sampling_many,
    (c in convex(), fp in footprint()) {
        let fc = fpoly(c.points());
        let holds = c.holds_footprint(&fp);
        if holds {
            for q in near_grid(&bounds_of(&fp)) {
                if fin_base(q, &fp, false) {
                    prop_assert!(finside(q, &fc, false), "{:?} of the base is outside", q);
                }
            }
        }
        match fround(&fp) {
            Some((centre, r)) => {
                let inside = finside(centre, &fc, false);
                let clear = edges(&fc)
                    .map(|(p, q)| fcross(p, q, centre) / fdist(p, q))
                    .fold(f64::INFINITY, f64::min);
                if inside && clear > r + 1e-9 { prop_assert!(holds); }
                if !inside || clear < r - 1e-9 { prop_assert!(!holds); }
            }
            None => {
                let all = fcorners(&fp).iter().all(|&q| finside(q, &fc, false));
                prop_assert_eq!(holds, all);
            }
        }
    }
);

property!(distance_to_a_base_agrees_with_the_oracle, distance_to_a_base_agrees_with_the_oracle_many,
    (c in convex(), fp in footprint(), dx in -80i64..80, dy in -80i64..80) {
        let fp = Footprint { centre: Point::new(fp.centre.x + dx, fp.centre.y + dy), ..fp };
        let fc = fpoly(c.points());
        let d = c.distance_to_footprint(&fp);
        let fl = match fround(&fp) {
            Some((centre, r)) => (fpoly_point(centre, &fc) - r).max(0.0),
            None => fpoly_poly(&fc, &fcorners(&fp)),
        };
        prop_assert!(agrees(d, fl), "exact {} f64 {}", d, fl);
        if fround(&fp).is_none() {
            prop_assert_eq!(d == 0, fl == 0.0);
        }
        let far = Convex::new(vec![Point::new(500, 500), Point::new(600, 500), Point::new(500, 600)]).unwrap();
        let area = Area(vec![far.clone(), c.clone()]);
        prop_assert_eq!(area.distance_to_footprint(&fp), d.min(far.distance_to_footprint(&fp)));
        prop_assert_eq!(area.overlaps_footprint(&fp), c.overlaps_footprint(&fp) || far.overlaps_footprint(&fp));
        prop_assert_eq!(area.holds_footprint(&fp), c.holds_footprint(&fp) || far.holds_footprint(&fp));
    }
);

property!(an_area_holds_a_base_as_the_whole_it_tiles, an_area_holds_a_base_as_the_whole_it_tiles_many,
    (fp in footprint(), k in 1i64..BOX, cut in 0u8..3, others in prop::collection::vec(convex(), 0..3)) {
        // A square cut into pieces holds exactly what the square holds (rectangles: exactly;
        // discs: within what one piece or the 16-gon gives).
        let (s, e) = (0, BOX);
        let pt = Point::new;
        let pieces = match cut {
            0 => vec![vec![pt(s, s), pt(k, s), pt(k, e), pt(s, e)], vec![pt(k, s), pt(e, s), pt(e, e), pt(k, e)]],
            1 => vec![vec![pt(s, s), pt(e, s), pt(e, e)], vec![pt(s, s), pt(e, e), pt(s, e)]],
            _ => vec![
                vec![pt(s, s), pt(k, s), pt(k, k), pt(s, k)], vec![pt(k, s), pt(e, s), pt(e, k), pt(k, k)],
                vec![pt(s, k), pt(k, k), pt(k, e), pt(s, e)], vec![pt(k, k), pt(e, k), pt(e, e), pt(k, e)],
            ],
        };
        let whole = Convex::new(vec![pt(s, s), pt(e, s), pt(e, e), pt(s, e)]).unwrap();
        let mut area = Area(pieces.into_iter().map(|v| Convex::new(v).unwrap()).collect());
        match fp.base {
            Base::Rect { .. } => prop_assert_eq!(area.holds_footprint(&fp), whole.holds_footprint(&fp)),
            Base::Round { .. } => if area.holds_footprint(&fp) { prop_assert!(whole.holds_footprint(&fp)) },
        }
        // More pieces: held means every sampled point of the base is in some piece.
        area.0.extend(others);
        if area.holds_footprint(&fp) {
            let fs: Vec<Vec<F>> = area.0.iter().map(|c| fpoly(c.points())).collect();
            for q in near_grid(&bounds_of(&fp)) {
                if fin_base(q, &fp, false) {
                    prop_assert!(fs.iter().any(|c| finside(q, c, false)), "{:?} uncovered", q);
                }
            }
        }
    }
);

// ---- K4: segments ---------------------------------------------------------------------------

property!(crossing_agrees_with_sampling, crossing_agrees_with_sampling_many,
    (c in convex(), s in segment()) {
        let fc = fpoly(c.points());
        let (a, b) = (f(s.a), f(s.b));
        const N: i64 = 256;
        let along = |k: i64| {
            let t = k as f64 / N as f64;
            (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
        };
        let witness = (0..=N).any(|k| finside(along(k), &fc, true));
        let crosses = s.crosses(&c);
        if witness {
            prop_assert!(crosses, "a sampled point is inside");
        }
        // The chord inside the closed polygon, in f64.
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for (p, q) in edges(&fc) {
            let (f0, f1) = (fcross(p, q, a), fcross(p, q, b));
            let sl = f1 - f0;
            if sl == 0.0 {
                if f0 < 0.0 { hi = -1.0; }
            } else if sl > 0.0 {
                lo = lo.max(-f0 / sl);
            } else {
                hi = hi.min(-f0 / sl);
            }
        }
        let chord = if hi >= lo { (hi - lo) * fdist(a, b) } else { -1.0 };
        let meets = finside(a, &fc, false)
            || finside(b, &fc, false)
            || edges(&fc).any(|(p, q)| fsegs_meet(a, b, p, q));
        prop_assert_eq!(s.meets(&c), meets);
        if crosses && !witness {
            // Inside without a sample: a short chord through the inside.
            prop_assert!(chord > 0.0 && chord < 1.0, "chord {}", chord);
        }
        if !crosses {
            // At most along an edge or through a corner: the midpoint of the chord is on an edge.
            if chord > 1e-9 {
                let on_edge = edges(&fc).any(|(p, q)| fcross(p, q, a).abs() < 1e-9 && fcross(p, q, b).abs() < 1e-9);
                prop_assert!(on_edge, "a chord of {} yet no crossing", chord);
            }
        }
        let fl = if s.meets(&c) { 0.0 } else {
            let ends = fpoly_point(a, &fc).min(fpoly_point(b, &fc));
            fc.iter().map(|&v| fseg_point(v, a, b)).fold(ends, f64::min)
        };
        prop_assert!(agrees(s.distance_to(&c), fl), "{} vs {}", s.distance_to(&c), fl);
        prop_assert!(agrees(s.len(), fdist(a, b)));
    }
);

property!(point_at_never_exceeds_the_allowance, point_at_never_exceeds_the_allowance_many,
    (ax in -2000i64..2000, ay in -2000i64..2000, bx in -2000i64..2000, by in -2000i64..2000,
     extra in 0u64..100, share in 0u64..=1000) {
        let s = Segment::new(Point::new(ax, ay), Point::new(bx, by));
        let len = s.len() + extra;
        let d = len * share / 1000;
        let q = s.point_at(d);
        let moved = dist2(s.a, q);
        prop_assert!(moved <= i128::from(d) * i128::from(d), "moved {} for {}", moved, d);
        prop_assert!(s.a.distance(q) <= d);
        let l2 = dist2(s.a, s.b);
        if i128::from(d) * i128::from(d) >= l2 {
            prop_assert_eq!(q, s.b);
        } else {
            // Close to the allowance, on the segment's box and within a unit of its line.
            prop_assert!(fdist(f(s.a), f(q)) >= d as f64 - 2.0);
            prop_assert!((ax.min(bx)..=ax.max(bx)).contains(&q.x) && (ay.min(by)..=ay.max(by)).contains(&q.y));
            prop_assert!(fseg_point(f(q), f(s.a), f(s.b)) <= 1.5);
        }
    }
);

// ---- K3 and K5: outlines and growing ---------------------------------------------------------

fn excess(sides: Sides) -> f64 {
    match sides {
        Sides::Octagon => 0.0824,
        Sides::Sixteen => 0.0196,
    }
}

property!(grown_polygons_contain_every_point_within_reach,
    grown_polygons_contain_every_point_within_reach_many,
    (c in convex(), r in 1i64..40, eight in proptest::bool::ANY) {
        let sides = if eight { Sides::Octagon } else { Sides::Sixteen };
        let g = c.grown(r, sides);
        let fc = fpoly(c.points());
        let rf = r as f64;
        for x in -r - 2..BOX + r + 2 {
            for y in -r - 2..BOX + r + 2 {
                let p = Point::new(x, y);
                if fpoly_point(f(p), &fc) <= rf {
                    prop_assert!(g.contains(p), "{:?} within {} but outside", p, r);
                }
            }
        }
        for &v in g.points() {
            let d = fpoly_point(f(v), &fc);
            prop_assert!((rf - 1e-9..=rf * (1.0 + excess(sides)) + 1.5).contains(&d), "corner {:?} at {}", v, d);
        }
    }
);

property!(grown_by_a_base_is_where_the_base_meets_the_polygon,
    grown_by_a_base_is_where_the_base_meets_the_polygon_many,
    (c in convex(), fp in rect_footprint()) {
        let g = c.grown_by(&fp);
        for x in -32..BOX + 32 {
            for y in -32..BOX + 32 {
                let p = Point::new(x, y);
                let at = Footprint { centre: p, ..fp };
                prop_assert_eq!(g.contains(p), c.distance_to_footprint(&at) == 0, "{:?}", p);
            }
        }
        let centred = Footprint { centre: Point::new(0, 0), ..fp };
        let sums: Vec<Point> = c.points().iter()
            .flat_map(|a| centred.corners().into_iter().map(move |b| Point::new(a.x + b.x, a.y + b.y)))
            .collect();
        let mut x = g.points().to_vec();
        let mut y = Convex::hull(&sums).unwrap().points().to_vec();
        x.sort();
        y.sort();
        prop_assert_eq!(x, y);
    }
);

property!(minkowski_is_the_hull_of_the_sums, minkowski_is_the_hull_of_the_sums_many,
    (a in convex(), b in convex()) {
        let m = a.minkowski(&b);
        let sums: Vec<Point> = a.points().iter()
            .flat_map(|p| b.points().iter().map(move |q| Point::new(p.x + q.x, p.y + q.y)))
            .collect();
        let mut x = m.points().to_vec();
        let mut y = Convex::hull(&sums).unwrap().points().to_vec();
        x.sort();
        y.sort();
        prop_assert_eq!(x, y);
        prop_assert!(Convex::new(m.points().to_vec()).is_ok());
    }
);

property!(an_outline_contains_its_disc_or_base, an_outline_contains_its_disc_or_base_many,
    (x in -50i64..50, y in -50i64..50, r in 0i64..60, fp in rect_footprint()) {
        let o = Shape::Disc { centre: Point::new(x, y), radius: r }.outline();
        let rf = r.max(1) as f64;
        for i in x - r - 2..=x + r + 2 {
            for j in y - r - 2..=y + r + 2 {
                if fdist((i as f64, j as f64), (x as f64, y as f64)) <= rf {
                    prop_assert!(o.contains(Point::new(i, j)));
                }
            }
        }
        for &v in o.points() {
            let d = fdist(f(v), (x as f64, y as f64));
            prop_assert!(d <= rf * 1.0196 + 1.5, "corner {:?} at {}", v, d);
        }
        let b = Shape::Base(fp).outline();
        prop_assert!(fp.corners().iter().all(|&q| b.contains(q)));
        prop_assert!(b.holds_footprint(&fp));
    }
);

// ---- K8: lengths ------------------------------------------------------------------------------

property!(lengths_round_trip_through_inches, lengths_round_trip_through_inches_many,
    (u in -(LIMIT - 2)..=LIMIT - 2, k in -39_370_078i64..=39_370_078) {
        // Any length (2 units inside the limit): written to the hundredth, read back within half a hundredth (1.27 units).
        let back = length::parse(&length::inches(u)).unwrap();
        prop_assert!((back - u).abs() <= 2, "{} -> {} -> {}", u, length::inches(u), back);
        prop_assert_eq!(length::inches(back), length::inches(u));
        // A whole number of hundredths comes back exactly.
        let text = format!("{}{}.{:02}", if k < 0 { "-" } else { "" }, k.abs() / 100, k.abs() % 100);
        let x = length::parse(&text).unwrap();
        prop_assert_eq!(length::parse(&length::inches(x)), Ok(x));
    }
);
