//! The latency phase (18): Lib draws chits blind from the cup and lays them face down in hexes
//! with Lib soldiers, one chit per two soldiers (18.2-18.3), up to the hex limit (18.4). Lib
//! learns each value once the chit lies on the map (18.5, 2.5); the opponent sees counts only.
//!
//! Orders (`orders.latency`): by default every hex gets the most it may hold. `skip` lists hexes
//! that get none; `counts` asks for fewer in a hex ("may place", 18.3). A hex is named by its
//! number or by a place id.

use super::ctx::{Ctx, reason};
use super::data::{Class, HexId, HexRef, Side, hex_problem};
use super::state::{ChitAt, State, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The phasing side's latency orders for one step (`orders.latency` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatencyOrders {
    /// Hexes where no chit is placed this phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip: Vec<HexRef>,
    /// Hexes with a chosen number of chits (fewer than the most allowed; more is cut, 18.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counts: BTreeMap<HexRef, i64>,
}

/// Latent chits in hex `h` now.
pub fn chits_in(state: &State, h: HexId) -> usize {
    state
        .chits
        .values()
        .filter(|c| c.at == ChitAt::Hex(h))
        .count()
}

/// Hexes holding latent chits now, in id order.
pub fn chit_hexes(state: &State) -> BTreeSet<HexId> {
    state
        .chits
        .values()
        .filter_map(|c| match c.at {
            ChitAt::Hex(h) => Some(h),
            _ => None,
        })
        .collect()
}

/// Lib soldiers in hex `h` (18.2-18.3: CBAs, the Dougram family included, do not count).
pub fn lib_soldiers(state: &State, h: HexId) -> usize {
    state.count_class(h, Side::Lib, Class::Soldier)
}

/// The most chits Lib may place in hex `h` now: one per two soldiers (18.3), no more than the
/// room left under the hex limit, chits already there included (18.4, default A28).
pub fn max_in(state: &State, h: HexId) -> usize {
    let room = (state.data.map.chit_limit(h) as usize).saturating_sub(chits_in(state, h));
    (lib_soldiers(state, h) / 2).min(room)
}

/// Hexes holding Lib soldiers, in id order (18.2).
pub fn soldier_hexes(state: &State) -> Vec<HexId> {
    let hexes: BTreeSet<HexId> = state
        .units
        .values()
        .filter_map(|u| match u.at {
            UnitAt::Hex(h) if u.side == Side::Lib => Some(h),
            _ => None,
        })
        .collect();
    hexes
        .into_iter()
        .filter(|h| lib_soldiers(state, *h) > 0)
        .collect()
}

/// Whether `n` chits may be asked for in hex `h` (18.3, 18.4): a number no higher than the
/// hex limit. Units move before this phase, so a count above one chit per two soldiers of the
/// start state is not certain to be wrong: the phase cuts it ([`legal_target`]).
pub fn legal_count(state: &State, h: HexId, n: i64, at: &FieldPath) -> Result<(), Problem> {
    let limit = state.data.map.chit_limit(h);
    if n < 0 {
        Err(Problem::new(
            at.clone(),
            "18.3",
            format!("{n} chits is not a number of chits"),
            format!("0 to {limit}"),
        ))
    } else if n > i64::from(limit) {
        Err(Problem::new(
            at.clone(),
            "18.4",
            format!("hex {h} holds at most {limit} latent chit(s)"),
            format!("0 to {limit}"),
        ))
    } else {
        Ok(())
    }
}

/// Whether Lib may place chits in hex `h` now, and how many at most (18.2-18.4): a hex with
/// Lib soldiers. The phase judges each hex its orders name by this; `check` does not, since
/// units move before the phase.
pub fn legal_target(state: &State, h: HexId) -> Result<usize, Problem> {
    if lib_soldiers(state, h) == 0 {
        return Err(Problem::new(
            FieldPath::root(),
            "18.2",
            "no Lib soldier is there",
            "a hex with Lib soldiers",
        ));
    }
    Ok(max_in(state, h))
}

/// The hexes [`legal_target`] accepts now, with the most chits each may take, in id order.
pub fn latency_choices(state: &State) -> Vec<(HexId, usize)> {
    soldier_hexes(state)
        .into_iter()
        .filter_map(|h| legal_target(state, h).ok().map(|n| (h, n)))
        .collect()
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step:
/// each hex named once, each by [`hex_problem`], each count by [`legal_count`].
pub fn check(state: &State, side: Side, orders: &LatencyOrders, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Lib {
        if *orders != LatencyOrders::default() {
            out.push(Problem::new(
                at.clone(),
                "18.1",
                "only Lib has a latency phase",
                "no `latency` orders in a Fed file",
            ));
        }
        return out;
    }
    let mut seen: BTreeMap<HexId, FieldPath> = BTreeMap::new();
    let mut note = |h: HexId, p: &FieldPath, out: &mut Vec<Problem>| {
        if let Some(first) = seen.get(&h) {
            out.push(Problem::new(
                p.clone(),
                "18.3",
                format!("hex {h} is already named at {first}"),
                "each hex once, in `skip` or in `counts`",
            ));
        } else {
            seen.insert(h, p.clone());
        }
    };
    for (i, r) in orders.skip.iter().enumerate() {
        let p = at.at("skip").at(i);
        match hex_problem(&state.data.map, r, p.clone(), "18.2") {
            Ok(h) => note(h, &p, &mut out),
            Err(e) => out.push(e),
        }
    }
    for (r, n) in &orders.counts {
        let p = at.at("counts").at(r.to_string().as_str());
        let h = match hex_problem(&state.data.map, r, p.clone(), "18.2") {
            Ok(h) => h,
            Err(e) => {
                out.push(e);
                continue;
            }
        };
        note(h, &p, &mut out);
        if let Err(e) = legal_count(state, h, *n, &p) {
            out.push(e);
        }
    }
    out
}

/// Runs the phase for the phasing `side` (Lib).
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &LatencyOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    if side != Side::Lib {
        return Err("the latency phase is Lib's (18.1)".into());
    }
    // An order that does not happen as written is Lib's own news: the opponent sees the chits
    // placed, never the hexes or counts Lib asked for (2.5).
    let mut skip: BTreeSet<HexId> = BTreeSet::new();
    let ignored = |ctx: &mut Ctx, r: &HexRef, p: &Problem| {
        ctx.log.private(
            side,
            format!("your latency order for {r} is ignored: {}", reason(p)),
        );
    };
    for r in &orders.skip {
        match hex_problem(&state.data.map, r, FieldPath::root(), "18.2") {
            Ok(h) => {
                skip.insert(h);
            }
            Err(p) => ignored(ctx, r, &p),
        }
    }
    let mut wanted: BTreeMap<HexId, usize> = BTreeMap::new();
    for (r, n) in &orders.counts {
        match hex_problem(&state.data.map, r, FieldPath::root(), "18.2") {
            // `check` refused a negative count (legal_count).
            Ok(h) => {
                wanted.insert(h, usize::try_from(*n).unwrap_or(0));
            }
            Err(p) => ignored(ctx, r, &p),
        }
    }
    for h in wanted.keys().chain(skip.iter()) {
        if let Err(p) = legal_target(state, *h) {
            ctx.log.private(
                side,
                format!("your latency order for hex {h} is skipped: {}", reason(&p)),
            );
        }
    }
    reach::fire("18.1");
    let hexes = soldier_hexes(state);
    let mut placed_total = 0;
    for h in hexes {
        reach::fire("18.2");
        let max = max_in(state, h);
        // 18.3 (one per two soldiers) or 18.4 (the hex limit, chits there included) sets it.
        if max < lib_soldiers(state, h) / 2 {
            reach::fire("18.4");
        } else {
            reach::fire("18.3");
        }
        let n = if skip.contains(&h) {
            0
        } else if let Some(w) = wanted.get(&h) {
            if *w > max {
                ctx.log.private(
                    side,
                    format!(
                        "your latency order for hex {h} asks {w} chit(s), at most {max} allowed now; cut to {max} (18.3-18.4)"
                    ),
                );
            }
            (*w).min(max)
        } else {
            max
        };
        if n == 0 {
            // What happened, whichever order said it (`skip` or a count of 0): Lib could place
            // here and did not. Nothing is said where no chit could go.
            if max > 0 {
                ctx.log
                    .public(format!("lib places no latent chit in hex {h} (18.3)"));
            }
            continue;
        }
        let label = format!("t{}/lib/latency/{h}", state.turn);
        let ids = state.draw_chits(ctx.dice, &label, n, ChitAt::Hex(h));
        reach::fire("18.5");
        reach::fire("2.5");
        if ids.len() < n {
            reach::fire("2.4");
        }
        ctx.log.public(format!(
            "lib places {} latent chit(s) face down in hex {h} (18.3-18.5)",
            ids.len()
        ));
        if ids.len() < n {
            ctx.log.public(format!(
                "the cup ran out: {} of {n} chit(s) placed in hex {h} (2.4)",
                ids.len()
            ));
        }
        for id in &ids {
            if let Some(c) = state.chits.get(id) {
                ctx.log.private(
                    Side::Lib,
                    format!(
                        "latent chit token {} in hex {h} is worth {} (18.5, 2.5)",
                        c.token.unwrap_or(0),
                        c.value
                    ),
                );
            }
        }
        placed_total += ids.len();
    }
    if placed_total == 0 {
        ctx.log.public("lib places no latent chit this phase (18)");
    }
    Ok(())
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    if side != Side::Lib {
        return String::new();
    }
    let mut out = String::from(
        "# latency (18): by default every hex below gets its most chits, drawn blind (18.5).\n\
         # skip: [hex, ...] places none there; counts: {hex: n} places n (cut to the most allowed).\n\
         # Units still move before this phase: the most is counted again then (18.3-18.4).\n",
    );
    let hexes = &c.latency;
    if hexes.is_empty() {
        out.push_str("#   no hex holds Lib soldiers now\n");
    }
    for &(h, max) in hexes {
        let name = state
            .data
            .map
            .place_at(h)
            .map(|p| format!(" ({})", p.id))
            .unwrap_or_default();
        out.push_str(&format!(
            "#   hex {h}{name}: {} soldier(s), {} chit(s) there, limit {}: at most {} now\n",
            lib_soldiers(state, h),
            chits_in(state, h),
            state.data.map.chit_limit(h),
            max
        ));
    }
    out.push_str("# latency: {skip: [], counts: {}}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::DiceTranscript;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice};
    use crate::systems::dougram::state::permute_hidden;
    use proptest::prelude::*;

    /// Stock counters of `prefix`, put on the map in `h` for `side`.
    fn put(s: &mut State, prefix: &str, n: usize, h: HexId, side: Side) -> Vec<String> {
        crate::systems::dougram::fixtures::put_from_stock(s, prefix, n, h, side)
    }

    /// A dealt state with every Lib unit off the map and every unit and chit off hex `h`.
    fn cleared(h: HexId) -> State {
        let mut s = dealt("setup1", 11);
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(h) || (u.side == Side::Lib && matches!(u.at, UnitAt::Hex(_))) {
                u.at = UnitAt::Stock;
            }
        }
        let there: Vec<String> = s
            .chits
            .iter()
            .filter(|(_, c)| c.at == ChitAt::Hex(h))
            .map(|(id, _)| id.clone())
            .collect();
        for id in there {
            s.return_chit(&id);
        }
        s
    }

    fn run(s: &mut State, o: &LatencyOrders, seed: u64) -> (Log, DiceTranscript) {
        let mut d = dice(seed);
        let mut ctx = Ctx::new(&mut d);
        resolve(s, Side::Lib, o, &mut ctx).unwrap();
        let log = ctx.log;
        (log, d.finish().unwrap())
    }

    #[test]
    fn one_chit_per_two_lib_soldiers_odd_one_ignored_18_3() {
        let mut s = cleared(57);
        put(&mut s, "SO", 5, 57, Side::Lib);
        // limit of 57 is 2: 5 soldiers give 2.
        run(&mut s, &LatencyOrders::default(), 1);
        assert_eq!(chits_in(&s, 57), 2);
        let mut s = cleared(57);
        put(&mut s, "SO", 3, 57, Side::Lib);
        run(&mut s, &LatencyOrders::default(), 1);
        assert_eq!(chits_in(&s, 57), 1);
    }

    #[test]
    fn cbas_and_the_dougram_do_not_count_18_2_18_3() {
        let mut s = cleared(57);
        put(&mut s, "CG", 3, 57, Side::Lib);
        put(&mut s, "DG", 1, 57, Side::Lib);
        put(&mut s, "SO", 1, 57, Side::Lib);
        assert_eq!(max_in(&s, 57), 0);
        let (_, tr) = run(&mut s, &LatencyOrders::default(), 2);
        assert_eq!(chits_in(&s, 57), 0);
        assert!(tr.sealed.iter().all(|d| !d.label.contains("/57")));
    }

    #[test]
    fn chits_already_there_count_toward_the_limit_18_4_a28() {
        let mut s = cleared(58);
        // Spa: limit 3. One chit already there, 8 soldiers would allow 4.
        let mut d = dice(3);
        s.draw_chits(&mut d, "pre", 1, ChitAt::Hex(58));
        put(&mut s, "SO", 8, 58, Side::Lib);
        assert_eq!(max_in(&s, 58), 2);
        run(&mut s, &LatencyOrders::default(), 4);
        assert_eq!(chits_in(&s, 58), 3);
    }

    #[test]
    fn fed_units_in_the_hex_do_not_stop_placement_18_2() {
        let mut s = cleared(57);
        put(&mut s, "SO", 2, 57, Side::Lib);
        put(&mut s, "SO", 4, 57, Side::Fed);
        run(&mut s, &LatencyOrders::default(), 5);
        assert_eq!(chits_in(&s, 57), 1);
    }

    #[test]
    fn skip_and_fewer_are_allowed_and_too_many_is_cut_18_3() {
        let mut s = cleared(57);
        put(&mut s, "SO", 4, 57, Side::Lib);
        let mut t = s.clone();
        let mut u = s.clone();
        let o = LatencyOrders {
            skip: vec![HexRef::Hex(57)],
            ..LatencyOrders::default()
        };
        run(&mut s, &o, 6);
        assert_eq!(chits_in(&s, 57), 0);
        let o = LatencyOrders {
            counts: BTreeMap::from([(HexRef::Hex(57), 1)]),
            ..LatencyOrders::default()
        };
        run(&mut t, &o, 6);
        assert_eq!(chits_in(&t, 57), 1);
        // 2 soldiers leave before the phase: 2 asked, 1 allowed.
        let gone: Vec<String> = u
            .units_in(57, Side::Lib)
            .iter()
            .take(2)
            .map(|x| x.to_string())
            .collect();
        for id in gone {
            u.units.get_mut(&id).unwrap().at = UnitAt::Stock;
        }
        let o = LatencyOrders {
            counts: BTreeMap::from([(HexRef::Hex(57), 2)]),
            ..LatencyOrders::default()
        };
        let (log, _) = run(&mut u, &o, 6);
        assert_eq!(chits_in(&u, 57), 1);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("cut to 1") && l.contains("18.3"))
        );
    }

    #[test]
    fn a_latency_order_cut_or_skipped_is_told_to_lib_only() {
        let mut s = cleared(57);
        put(&mut s, "SO", 2, 57, Side::Lib); // at most 1 chit
        let o = LatencyOrders {
            skip: vec![HexRef::Hex(11), HexRef::Hex(76)],
            counts: BTreeMap::from([(HexRef::Hex(57), 3), (HexRef::Hex(53), 1)]),
        };
        let (log, _) = run(&mut s, &o, 11);
        assert_eq!(chits_in(&s, 57), 1);
        for want in [
            "your latency order for 11 is ignored",
            "your latency order for hex 53 is skipped",
            "your latency order for hex 76 is skipped",
            "your latency order for hex 57 asks 3 chit(s)",
        ] {
            assert!(
                log.private[Side::Lib].iter().any(|l| l.contains(want)),
                "{want}: {log:?}"
            );
        }
        for needle in [
            "11", "53", "76", "3 chit", "cut", "order", "skip", "ignored",
        ] {
            assert!(
                log.public.iter().all(|l| !l.contains(needle)),
                "{needle}: {log:?}"
            );
        }
        assert_eq!(
            log.public,
            vec!["lib places 1 latent chit(s) face down in hex 57 (18.3-18.5)".to_string()]
        );
        // Skipping a hex and asking 0 for it read the same: Lib placed nothing there.
        let mut t = cleared(57);
        put(&mut t, "SO", 2, 57, Side::Lib);
        let mut u = t.clone();
        let skip = LatencyOrders {
            skip: vec![HexRef::Hex(57)],
            ..LatencyOrders::default()
        };
        let zero = LatencyOrders {
            counts: BTreeMap::from([(HexRef::Hex(57), 0)]),
            ..LatencyOrders::default()
        };
        let (a, _) = run(&mut t, &skip, 12);
        let (b, _) = run(&mut u, &zero, 12);
        assert_eq!(a.public, b.public);
        assert!(
            a.public
                .iter()
                .any(|l| l.contains("no latent chit in hex 57"))
        );
    }

    #[test]
    fn a_place_id_names_its_hex_18_2() {
        let mut s = cleared(58);
        put(&mut s, "SO", 4, 58, Side::Lib);
        let o = LatencyOrders {
            skip: vec![HexRef::Place("spa".into())],
            ..LatencyOrders::default()
        };
        run(&mut s, &o, 7);
        assert_eq!(chits_in(&s, 58), 0);
    }

    #[test]
    fn values_are_told_to_lib_only_counts_to_everyone_18_5() {
        let mut s = cleared(57);
        put(&mut s, "SO", 4, 57, Side::Lib);
        let (log, tr) = run(&mut s, &LatencyOrders::default(), 8);
        let placed: Vec<(u32, u32)> = s
            .chits
            .values()
            .filter(|c| c.at == ChitAt::Hex(57))
            .map(|c| (c.token.unwrap(), c.value))
            .collect();
        assert_eq!(placed.len(), 2);
        for (tok, v) in placed {
            assert!(
                log.private[Side::Lib]
                    .iter()
                    .any(|l| l.contains(&format!("token {tok} in hex 57 is worth {v}")))
            );
        }
        assert!(log.private[Side::Fed].is_empty());
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("2 latent chit(s) face down in hex 57"))
        );
        // The draws are sealed: nothing public in the dice transcript.
        assert!(tr.public.is_empty());
    }

    #[test]
    fn an_empty_cup_places_what_it_has_2_4() {
        let mut s = cleared(57);
        put(&mut s, "SO", 4, 57, Side::Lib);
        let cup = s.cup();
        let keep = cup.len() - 1;
        let mut d = dice(9);
        s.draw_chits(&mut d, "drain", keep, ChitAt::Box("saltsev".into()));
        let (log, _) = run(&mut s, &LatencyOrders::default(), 10);
        assert_eq!(chits_in(&s, 57), 1);
        assert!(log.public.iter().any(|l| l.contains("cup ran out")));
    }

    #[test]
    fn check_rejects_bad_hexes_negative_and_absurd_counts_18_2_18_4() {
        let s = dealt("setup1", 12);
        let at = FieldPath::root().at("orders").at("latency");
        let o = LatencyOrders {
            skip: vec![
                HexRef::Hex(11),
                HexRef::Place("atlantis".into()),
                HexRef::Hex(57),
            ],
            counts: BTreeMap::from([
                (HexRef::Hex(53), 3),
                (HexRef::Hex(62), -1),
                (HexRef::Hex(57), 1),
                (HexRef::Hex(58), 3),
            ]),
        };
        let p = check(&s, Side::Lib, &o, &at);
        let got: Vec<(String, Option<String>)> = p
            .iter()
            .map(|x| (x.path.to_string(), x.rule.clone()))
            .collect();
        let want = |path: &str, rule: &str| (path.to_string(), Some(rule.to_string()));
        assert!(
            got.contains(&want("orders.latency.skip[0]", "18.2")),
            "{got:?}"
        );
        assert!(
            got.contains(&want("orders.latency.skip[1]", "18.2")),
            "{got:?}"
        );
        assert!(
            got.contains(&want("orders.latency.counts.53", "18.4")),
            "{got:?}"
        );
        assert!(
            got.contains(&want("orders.latency.counts.62", "18.3")),
            "{got:?}"
        );
        assert!(
            got.contains(&want("orders.latency.counts.57", "18.3")),
            "{got:?}"
        );
        assert_eq!(p.len(), 5, "{got:?}");
        // 58 with 3 is within Spa's limit even if there are not 6 soldiers now.
        let fed = check(&s, Side::Fed, &o, &at);
        assert_eq!(fed.len(), 1);
        assert_eq!(fed[0].rule.as_deref(), Some("18.1"));
        assert!(check(&s, Side::Lib, &LatencyOrders::default(), &at).is_empty());
    }

    #[test]
    fn orders_parse_with_hex_numbers_and_place_ids() {
        let o: LatencyOrders =
            crate::yaml::parse("{skip: [57, spa], counts: {58: 1, bonar: 0}}", "t").unwrap();
        assert_eq!(o.skip, vec![HexRef::Hex(57), HexRef::Place("spa".into())]);
        assert_eq!(o.counts[&HexRef::Hex(58)], 1);
        assert_eq!(o.counts[&HexRef::Place("bonar".into())], 0);
        assert!(crate::yaml::parse::<LatencyOrders>("{every: 1}", "t").is_err());
        let text = crate::yaml::encode(&o).unwrap();
        assert_eq!(crate::yaml::parse::<LatencyOrders>(&text, "t").unwrap(), o);
        assert_eq!(
            crate::yaml::encode(&LatencyOrders::default())
                .unwrap()
                .trim(),
            "{}"
        );
    }

    #[test]
    fn template_lists_hexes_with_lib_soldiers_and_their_maxima_18() {
        let mut s = cleared(57);
        put(&mut s, "SO", 4, 57, Side::Lib);
        let t = template(
            &s,
            Side::Lib,
            &crate::systems::dougram::steps::choices(&s, Side::Lib),
        );
        assert!(t.lines().all(|l| l.starts_with('#')), "{t}");
        assert!(
            t.contains("hex 57: 4 soldier(s), 0 chit(s) there, limit 2: at most 2 now"),
            "{t}"
        );
        assert!(
            template(
                &s,
                Side::Fed,
                &crate::systems::dougram::steps::choices(&s, Side::Fed)
            )
            .is_empty()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn latency_never_exceeds_a_limit_nor_leaks_a_value(
            seed in 0u64..1000,
            extra in proptest::collection::vec((1u32..=9, 1u32..=9, 0usize..7), 0..6),
            picks in proptest::collection::vec(0usize..1000, 64),
        ) {
            let mut s = dealt("setup1", seed);
            for (c, r, n) in extra {
                let h = 10 * c + r;
                if s.data.map.is_land(h) {
                    let free = s.units.iter().filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with("SO")).count();
                    put(&mut s, "SO", n.min(free), h, Side::Lib);
                }
            }
            let mut k = 0;
            let mut pick = |n: usize| { k += 1; picks[k % picks.len()] % n };
            let mut t = permute_hidden(&s, Side::Fed, &mut pick);
            let mut d1 = dice(seed + 1);
            let mut d2 = dice(seed + 1);
            let mut c1 = Ctx::new(&mut d1);
            let mut c2 = Ctx::new(&mut d2);
            resolve(&mut s, Side::Lib, &LatencyOrders::default(), &mut c1).unwrap();
            resolve(&mut t, Side::Lib, &LatencyOrders::default(), &mut c2).unwrap();
            for h in s.chits.values().filter_map(|c| match c.at { ChitAt::Hex(h) => Some(h), _ => None }).collect::<BTreeSet<_>>() {
                prop_assert!(chits_in(&s, h) <= s.data.map.chit_limit(h) as usize);
            }
            // Same public story whatever the hidden values are.
            prop_assert_eq!(&c1.log.public, &c2.log.public);
            prop_assert_eq!(&c1.dice.transcript().public, &c2.dice.transcript().public);
        }
    }
}
