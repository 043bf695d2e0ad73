//! Whole games of three bots through the real step resolution (steps::resolve with a Dice per
//! step), from the Gryps scenario (38): every bot order must pass `check`, no step may fail,
//! and the game must move on. The `#[ignore]`d test plays many games and prints the balance
//! figures of plan §8.3 (win rates, length, games over by turn 2).

use super::orders_for;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::{Hash32, Transcript};
use crate::systems::DataSource;
use crate::systems::zeta::arming;
use crate::systems::zeta::ctx::{Ctx, Moment};
use crate::systems::zeta::data::Side;
use crate::systems::zeta::orders::{Orders, check};
use crate::systems::zeta::setup;
use crate::systems::zeta::state::{Ending, Stage, State};
use crate::systems::zeta::steps;
use std::collections::BTreeMap;

/// The most steps a game may take: a packet and at most nine phases (and a few asks) per
/// turn, ten turns (37.3).
const STEP_CAP: u64 = 200;

/// A seed per game, step and purpose.
fn seed(game: u64, step: u64, what: &str) -> Hash32 {
    Transcript::new("zeta-bot-games")
        .u64(game)
        .u64(step)
        .str(what)
        .finish()
}

/// How one game went.
#[derive(Debug)]
pub struct Played {
    /// `None` when the step cap came first.
    pub ending: Option<Ending>,
    /// The steps played.
    pub steps: u64,
    /// The turn the game was in when it stopped.
    pub turn: u8,
    pub vp: Vec<i32>,
}

/// The sides the step waits for.
fn waiting(st: &State) -> Vec<Side> {
    match &st.stage {
        Stage::Packet { .. } => Side::ALL.to_vec(),
        Stage::Phase { card, .. } => vec![card.side],
        Stage::Ask { who, .. } => vec![*who],
        Stage::Over(_) => Vec::new(),
    }
}

/// What happened in one game, for the balance figures (plan §8.3): the causes behind the
/// win rates.
#[derive(Debug, Default)]
pub struct Trace {
    /// VP per side (seat order) at the end of each turn (37.1).
    pub vp: Vec<[i32; 3]>,
    /// Armament income per side (half-points, 5.4) in each turn's packet.
    pub income: Vec<[u32; 3]>,
    /// Units removed per side, and their PP.
    pub lost: [u32; 3],
    pub lost_pp: [u32; 3],
    /// Units that appeared per side (production, arrivals, special formations).
    pub gained: [u32; 3],
    /// (base, old governor, new governor) -> times.
    pub changes: BTreeMap<(String, String, String), u32>,
    /// (acting, declared) -> combats ordered.
    pub combats: BTreeMap<(String, String), u32>,
    /// Public event lines counted by a keyword (joins, speeches, Axis attacks, ...).
    pub events: BTreeMap<&'static str, u32>,
}

/// The keywords of public lines the balance printout counts.
const EVENT_KEYS: &[&str] = &[
    "(17.7", "(28.4", "(29.1", "(30.4", "(31.5", "(32.1", "(32.2", "(35.7", "(36.5",
];

/// The position of `side` in seat order.
fn ix(side: Side) -> usize {
    Side::ALL.iter().position(|s| *s == side).unwrap_or(0)
}

/// A governor's name, or "-" for none.
fn gov_name(g: Option<Side>) -> String {
    g.map_or("-".to_string(), |s| s.name().to_string())
}

/// What one step changed, into `t`.
fn trace_step(t: &mut Trace, before: &State, after: &State, public: &[String]) {
    for (id, u) in &before.units {
        if !after.units.contains_key(id) {
            t.lost[ix(u.side)] += 1;
            t.lost_pp[ix(u.side)] += before
                .data
                .unit_type(&u.type_id)
                .map_or(0, |ty| u32::from(ty.pp));
        }
    }
    for (id, u) in &after.units {
        if !before.units.contains_key(id) {
            t.gained[ix(u.side)] += 1;
        }
    }
    for (id, b) in &after.bases {
        let old = before.bases.get(id).and_then(|x| x.governor);
        if old != b.governor {
            *t.changes
                .entry((id.clone(), gov_name(old), gov_name(b.governor)))
                .or_insert(0) += 1;
        }
    }
    for line in public {
        if line.contains("(18.9)") {
            let k = if line.contains(" joins ") {
                "join 18.9"
            } else {
                "watch 18.9"
            };
            *t.events.entry(k).or_insert(0) += 1;
        }
        for k in EVENT_KEYS {
            if line.contains(k) {
                *t.events.entry(k).or_insert(0) += 1;
            }
        }
    }
}

/// One game played, or the first refused order or failed step.
type Outcome = Result<(Played, Trace), String>;

/// Plays game `game` with three bots; `Err` names the first refused order or failed step.
pub fn play(game: u64) -> Result<Played, String> {
    play_traced(game).map(|(p, _)| p)
}

/// [`play`], with what happened on the way.
pub fn play_traced(game: u64) -> Outcome {
    let mut trace = Trace::default();
    let mut st = setup::initial_state(setup::GRYPS, &data_source()?)?;
    let show = std::env::var("ZETA_LOG").ok() == Some(game.to_string());
    let key = seed(game, 0, "game key");
    for step in 1..=STEP_CAP {
        if let Stage::Over(e) = &st.stage {
            trace.vp = vp_rows(&st);
            return Ok((
                Played {
                    ending: Some(e.clone()),
                    steps: step - 1,
                    turn: st.turn,
                    vp: Side::ALL.iter().map(|s| st.sides[*s].vp).collect(),
                },
                trace,
            ));
        }
        if let Stage::Packet { .. } = &st.stage {
            let ctx = Ctx::new(st.clone(), None, Moment::Check);
            let mut row = [0u32; 3];
            for side in Side::ALL {
                row[ix(*side)] = arming::income(&ctx, *side);
            }
            trace.income.push(row);
        }
        let mut orders: BTreeMap<String, Orders> = BTreeMap::new();
        for side in waiting(&st) {
            let o = orders_for(&st, side, &seed(game, step, side.name()));
            let problems = check(&st, side.name(), &o);
            if !problems.is_empty() {
                let text = serde_json::to_string(&o).unwrap_or_default();
                return Err(format!(
                    "game {game} step {step} ({:?}): {side}'s bot order refused: {problems:?}\n{text}",
                    st.stage
                ));
            }
            for c in &o.combats {
                let versus = c.versus.iter().map(|s| s.name()).collect::<Vec<_>>();
                *trace
                    .combats
                    .entry((side.name().to_string(), versus.join("+")))
                    .or_insert(0) += 1;
            }
            orders.insert(side.name().to_string(), o);
        }
        let mut dice = Dice::new(seed(game, step, "dice"), key).at_step(step);
        let before = st.stage.clone();
        let r = steps::resolve(&st, &orders, &mut dice)
            .map_err(|e| format!("game {game} step {step} ({before:?}): {e}"))?;
        trace_step(&mut trace, &st, &r.state, &r.public);
        if show {
            for line in &r.public {
                println!("{step:3} {line}");
            }
        }
        st = r.state;
        if st.stage == before {
            return Err(format!("game {game} step {step}: the game did not move on"));
        }
    }
    trace.vp = vp_rows(&st);
    Ok((
        Played {
            ending: None,
            steps: STEP_CAP,
            turn: st.turn,
            vp: Side::ALL.iter().map(|s| st.sides[*s].vp).collect(),
        },
        trace,
    ))
}

/// The built-in data, but for the files of the directory ZETA_DATA names (to try stand-in
/// values without a rebuild).
fn data_source() -> Result<DataSource, String> {
    let mut ds = DataSource::default();
    if let Ok(dir) = std::env::var("ZETA_DATA") {
        for name in [
            "bases.yaml",
            "characters.yaml",
            "counters.yaml",
            "map.yaml",
            "scenarios.yaml",
            "track.yaml",
        ] {
            let path = format!("{dir}/{name}");
            if let Ok(text) = std::fs::read_to_string(&path) {
                ds.replace(name, text, path);
            }
        }
    }
    Ok(ds)
}

/// The VP track so far, one row per ended turn in seat order.
fn vp_rows(st: &State) -> Vec<[i32; 3]> {
    st.vp_history
        .iter()
        .map(|v| {
            let mut row = [0; 3];
            for (s, x) in v.iter() {
                row[ix(s)] = *x;
            }
            row
        })
        .collect()
}

/// Two whole games (about 15 s each in a debug build: the suite's budget); the ignored
/// `balance` test plays as many as wanted with the same checks.
#[test]
fn bot_games_run_with_every_order_accepted() {
    for game in 0..2 {
        let p = match play(game) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        // The game moved past its first turn or ended by sudden death (37.2).
        assert!(
            p.turn > 1 || p.ending.is_some(),
            "game {game} stuck in turn {}: {p:?}",
            p.turn
        );
    }
}

#[test]
fn the_bot_is_the_same_for_the_same_seed() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    for side in Side::ALL {
        let a = orders_for(&st, *side, &Hash32([3; 32]));
        let b = orders_for(&st, *side, &Hash32([3; 32]));
        assert_eq!(a, b);
    }
}

#[test]
fn the_titans_turn_1_packet_hides_the_nuke_and_spends_its_points() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    let o = orders_for(&st, Side::Titans, &Hash32([9; 32]));
    assert!(o.nuke_base.is_some(), "{o:?}");
    assert!(!o.armament.is_empty(), "{o:?}");
    assert!(o.cards.is_some(), "{o:?}");
    assert_eq!(check(&st, "titans", &o), vec![]);
}

/// Balance figures (plan §8.3): `cargo test --release --lib zeta::bot::games::balance --
/// --ignored --nocapture`; ZETA_GAMES sets the number of games (100 by default), ZETA_FIRST
/// the first game's number (0), ZETA_THREADS the threads playing them (2).
#[test]
#[ignore]
fn balance() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let n = env("ZETA_GAMES", 100);
    let first = env("ZETA_FIRST", 0);
    let threads = env("ZETA_THREADS", 2).max(1);
    let started = std::time::Instant::now();
    let mut results: Vec<(u64, Outcome, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                s.spawn(move || {
                    (first..first + n)
                        .filter(|g| g % threads == k)
                        .map(|g| {
                            let t = std::time::Instant::now();
                            let r = play_traced(g);
                            (g, r, t.elapsed().as_millis() as u64)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|(g, _, _)| *g);
    let ms: u64 = results.iter().map(|(_, _, ms)| *ms).sum();
    println!(
        "{} s in all on {threads} thread(s); {} ms per game",
        started.elapsed().as_secs(),
        ms / n.max(1)
    );
    let results: Vec<_> = results.into_iter().map(|(g, r, _)| (g, r)).collect();
    report(&results);
}

/// Prints the figures of plan §8.3 for `results`.
fn report(results: &[(u64, Outcome)]) {
    let n = results.len() as u64;
    let mut wins: BTreeMap<&str, f64> = BTreeMap::new();
    let mut sudden = 0;
    let mut early = 0;
    let mut capped = 0;
    let mut errors = Vec::new();
    let mut turns = 0u64;
    let mut steps = 0u64;
    let mut by_turn: BTreeMap<(u8, String), u32> = BTreeMap::new();
    let mut vp_sum = [0i64; 3];
    let mut vp_turn: BTreeMap<usize, ([i64; 3], i64)> = BTreeMap::new();
    let mut inc_turn: BTreeMap<usize, ([i64; 3], i64)> = BTreeMap::new();
    let mut lost = [0u64; 3];
    let mut lost_pp = [0u64; 3];
    let mut gained = [0u64; 3];
    let mut changes: BTreeMap<(String, String, String), u32> = BTreeMap::new();
    let mut combats: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut events: BTreeMap<&str, u32> = BTreeMap::new();
    for (_, r) in results {
        let (p, t) = match r {
            Ok(x) => x,
            Err(e) => {
                errors.push(e.clone());
                continue;
            }
        };
        steps += p.steps;
        for (i, v) in p.vp.iter().enumerate() {
            if let Some(s) = vp_sum.get_mut(i) {
                *s += i64::from(*v);
            }
        }
        for (k, row) in t.vp.iter().enumerate() {
            let e = vp_turn.entry(k + 1).or_insert(([0; 3], 0));
            for (sum, x) in e.0.iter_mut().zip(row) {
                *sum += i64::from(*x);
            }
            e.1 += 1;
        }
        for (k, row) in t.income.iter().enumerate() {
            let e = inc_turn.entry(k + 1).or_insert(([0; 3], 0));
            for (sum, x) in e.0.iter_mut().zip(row) {
                *sum += i64::from(*x);
            }
            e.1 += 1;
        }
        for (sum, x) in [&mut lost, &mut lost_pp, &mut gained]
            .into_iter()
            .zip([t.lost, t.lost_pp, t.gained])
        {
            for (s, v) in sum.iter_mut().zip(x) {
                *s += u64::from(v);
            }
        }
        for (k, v) in &t.changes {
            *changes.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &t.combats {
            *combats.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &t.events {
            *events.entry(k).or_insert(0) += v;
        }
        match &p.ending {
            Some(e) => {
                let share = 1.0 / e.winners.len() as f64;
                for w in &e.winners {
                    *wins.entry(w.name()).or_insert(0.0) += share;
                }
                if e.rule == "37.2" {
                    sudden += 1;
                }
                if e.turn <= 2 {
                    early += 1;
                }
                turns += u64::from(e.turn);
                let who = e
                    .winners
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join("+");
                *by_turn
                    .entry((e.turn, format!("{} {who}", e.rule)))
                    .or_insert(0) += 1;
            }
            None => capped += 1,
        }
    }
    let ended = n - capped - errors.len() as u64;
    let per = |x: u64| x as f64 / n.max(1) as f64;
    println!(
        "games {n}: ended {ended}, capped {capped}, errors {}; {:.1} steps per game",
        errors.len(),
        per(steps)
    );
    for side in Side::ALL {
        let w = wins.get(side.name()).copied().unwrap_or(0.0);
        println!(
            "  {:9} wins {:5.1} ({:4.1} %)",
            side.name(),
            w,
            100.0 * w / ended.max(1) as f64
        );
    }
    println!(
        "  sudden death (37.2) {sudden} ({:.1} %); over by turn 2: {early} ({:.1} %); mean length {:.2} turns",
        100.0 * sudden as f64 / ended.max(1) as f64,
        100.0 * early as f64 / ended.max(1) as f64,
        turns as f64 / ended.max(1) as f64
    );
    println!("  endings (turn, rule, winners): {by_turn:?}");
    println!(
        "  mean final VP titans/aeug/neo_zeon: {:?}",
        vp_sum.map(|v| v as f64 / n.max(1) as f64)
    );
    println!("  turn: mean VP t/a/n (games) | mean income t/a/n (half-points)");
    for (k, (sum, c)) in &vp_turn {
        let inc = inc_turn
            .get(k)
            .map_or([0.0; 3], |(s, c)| s.map(|x| x as f64 / (*c).max(1) as f64));
        println!(
            "   {k:2}: {:5.1} {:5.1} {:5.1} ({c:3}) | {:5.1} {:5.1} {:5.1}",
            sum[0] as f64 / (*c).max(1) as f64,
            sum[1] as f64 / (*c).max(1) as f64,
            sum[2] as f64 / (*c).max(1) as f64,
            inc[0],
            inc[1],
            inc[2]
        );
    }
    println!(
        "  per game, t/a/n: units lost {:.1} {:.1} {:.1} (PP {:.1} {:.1} {:.1}), units gained {:.1} {:.1} {:.1}",
        per(lost[0]),
        per(lost[1]),
        per(lost[2]),
        per(lost_pp[0]),
        per(lost_pp[1]),
        per(lost_pp[2]),
        per(gained[0]),
        per(gained[1]),
        per(gained[2])
    );
    println!("  combats ordered per game (acting -> declared):");
    for ((a, d), v) in &combats {
        println!("   {a:9} -> {d:18} {:.2}", per(u64::from(*v)));
    }
    println!("  events per game: ");
    for (k, v) in &events {
        println!("   {k:9} {:.2}", per(u64::from(*v)));
    }
    println!("  base changes per game (base: old -> new):");
    let mut rows: Vec<_> = changes.iter().collect();
    rows.sort_by_key(|(_, v)| std::cmp::Reverse(**v));
    for ((b, o, w), v) in rows.iter().take(40) {
        println!("   {b:13} {o:9} -> {w:9} {:.2}", per(u64::from(**v)));
    }
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
}
