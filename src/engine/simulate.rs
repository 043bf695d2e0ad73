//! `pbem simulate`: whole games bot against bot, through the functions real games use: each
//! bot's orders are checked as `submit` checks a player's (`System::check_order`), and each step
//! is resolved by `step::resolve`, as `process` and `verify` resolve it. No file is written.
//!
//! What it measures (issue 12): wins per side, game length in turns, how games ended (the
//! victory rule), errors (a refused bot order, a failed resolution, a panic, a game that does
//! not end, a step that breaks one of the system's invariants: `Rules::invariants`), and rule
//! reach: for each leaf rule of the system's coverage table, in how many
//! games the resolver applied it (`kit::reach`).

use super::Error;
use super::bots;
use super::demo::order_text;
use super::game::{Game, Secrets};
use super::new::{Extras, NewGame};
use super::step;
use crate::kit::reach;
use crate::protocol::hash::{Hash32, Transcript};
use crate::systems::{self, DataSource, GameData, Phase, System};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A game that has not ended after this many steps counts as an error (no system's game is
/// that long: kummen ends by turn 11, three steps a turn).
pub const STEP_LIMIT: u64 = 600;

pub struct Options {
    pub system: String,
    pub scenario: Option<String>,
    pub games: u32,
    /// Seeds every game's dice and bots: the same seed gives the same games.
    pub seed: u64,
    /// (side, bot name) from `--bot SIDE=NAME`; a side not named plays the `default` bot.
    pub bots: Vec<(String, String)>,
    /// Play each game as a real game directory `KEEP/game-N` (`--keep`), through `pbem new`
    /// with every seat a bot seat and `pbem process`, so `pbem verify --full` can audit it.
    pub keep: Option<PathBuf>,
}

/// How one game went.
#[derive(Debug, Clone)]
pub struct GameRun {
    /// The winner's side, or `draw`.
    pub result: String,
    pub turns: u32,
    /// The rule that ended it (`none` when it did not end).
    pub ending: String,
    pub steps: u64,
    pub errors: Vec<String>,
    pub fired: BTreeSet<&'static str>,
}

impl GameRun {
    /// Counts each invariant step `n` broke (`Rules::invariants`), or the failure to check
    /// them, as an error of game `g`.
    fn check_invariants(&mut self, g: u32, n: u64, broken: Result<Vec<String>, String>) {
        match broken {
            Ok(broken) => self.errors.extend(
                broken
                    .into_iter()
                    .map(|b| format!("game {g} step {n}: invariant broken: {b}")),
            ),
            Err(e) => self
                .errors
                .push(format!("game {g} step {n}: invariants: {e}")),
        }
    }

    /// Counts step `n` of game `g`, which `what` (resolve, pbem process) failed with `error` or
    /// panicked in, as an error.
    fn step_failed(
        &mut self,
        g: u32,
        n: u64,
        what: &str,
        failure: Result<String, Box<dyn std::any::Any + Send>>,
    ) {
        self.errors.push(match failure {
            Ok(e) => format!("game {g} step {n}: {what}: {e}"),
            Err(panic) => format!(
                "game {g} step {n}: {what} panicked: {}",
                panic_text(&*panic)
            ),
        });
    }
}

/// The figures `pbem simulate` prints (`--json` prints this object).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub system: String,
    pub scenario: String,
    pub seed: u64,
    pub games: u32,
    /// Side -> the bot that played it.
    pub bots: BTreeMap<String, String>,
    /// Side (or `draw`) -> games.
    pub wins: BTreeMap<String, u32>,
    pub turns: Turns,
    /// Games that ended in their first two turns.
    pub ended_by_turn_2: u32,
    /// Victory rule -> games.
    pub endings: BTreeMap<String, u32>,
    /// Errors, panics and refused bot orders, over all games.
    pub errors: u32,
    /// The first few errors, with their game and step.
    pub error_samples: Vec<String>,
    pub rule_reach: RuleReach,
}

/// Game length in turns, over the games that ended.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Turns {
    pub min: u32,
    pub median: u32,
    pub max: u32,
}

/// Rule -> count pairs, written as a JSON object in the coverage table's order (1.2 before
/// 10.1), which a sorted map would not keep.
#[derive(Debug, Clone, Default)]
pub struct InTableOrder(pub Vec<(String, u32)>);

impl Serialize for InTableOrder {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (rule, n) in &self.0 {
            map.serialize_entry(rule, n)?;
        }
        map.end()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct RuleReach {
    /// Leaf rules with behaviour in the coverage table.
    pub total: usize,
    /// Those that fired in at least one game.
    pub reached: usize,
    /// Rule -> games in which it fired (every leaf rule, 0 included), in the table's order.
    pub rules: InTableOrder,
    /// Rules that fired but have no row in the table (a wrong number in the code).
    pub unlisted: Vec<String>,
}

/// At most this many errors are quoted in the report.
const ERROR_SAMPLES: usize = 10;

/// Plays `opts.games` games; `progress` is told after each one (games done so far).
pub fn simulate(opts: &Options, mut progress: impl FnMut(u32)) -> Result<Report, Error> {
    let system = systems::by_id(&opts.system).map_err(Error::Fail)?;
    let scenario = match &opts.scenario {
        Some(s) => {
            if !system.scenarios().iter().any(|(n, _)| n == s) {
                return Err(Error::Fail(format!(
                    "{} has no scenario {s:?}; it has: {}",
                    system.id(),
                    names(&system.scenarios())
                )));
            }
            s.clone()
        }
        None => system.scenarios()[0].0.clone(),
    };
    let (initial, data_yaml) = system
        .initial_state(&scenario, &DataSource::default())
        .map_err(Error::Fail)?;
    let data = system.parse_data(&data_yaml).map_err(Error::Fail)?;
    let bots = bots_by_side(&*system, &opts.bots)?;
    if let Some(keep) = &opts.keep {
        std::fs::create_dir_all(keep).map_err(|e| Error::io(keep, e))?;
    }
    let mut runs = Vec::new();
    for g in 0..opts.games {
        runs.push(match &opts.keep {
            Some(keep) => play_kept(&*system, &scenario, &bots, opts.seed, g, keep),
            None => play_one(&*system, &data, &initial, &bots, opts.seed, g),
        });
        progress(g + 1);
    }
    Ok(summarise(&*system, &scenario, opts, &bots, &runs))
}

/// Side -> bot name for every side of `system`: `default` unless `--bot SIDE=NAME` says
/// otherwise. A side the system lacks or a bot nobody wrote is refused with the choices.
fn bots_by_side(
    system: &dyn System,
    asked: &[(String, String)],
) -> Result<BTreeMap<String, String>, Error> {
    let sides = system.sides();
    let mut out: BTreeMap<String, String> = sides
        .iter()
        .map(|s| (s.clone(), bots::DEFAULT.to_string()))
        .collect();
    for (side, name) in asked {
        if !sides.contains(side) {
            return Err(Error::Fail(format!(
                "--bot {side}={name}: {} has no side {side:?}; its sides are: {}",
                system.id(),
                sides.join(", ")
            )));
        }
        let name =
            bots::require(name).map_err(|e| Error::Fail(format!("--bot {side}={name}: {e}")))?;
        out.insert(side.clone(), name.to_string());
    }
    Ok(out)
}

/// The time every step of a kept game is processed at: a fixed one, so a kept game's files
/// are the same for the same seed.
const KEPT_NOW: &str = "2026-01-01T00:00:00Z";

/// Plays game number `g` as a real game directory `keep/game-g`: `pbem new` with every seat a
/// bot seat (the bots of `bots`) and secrets derived from the seed, then `pbem process` until
/// the game ends, then `pbem conclude`. The bots' orders are those of hosted bot seats
/// (process.rs), checked, signed and journaled, so `pbem verify --full` audits the game; the
/// system's invariants are checked after every step, as in [`play_one`].
pub fn play_kept(
    system: &dyn System,
    scenario: &str,
    bots: &BTreeMap<String, String>,
    seed: u64,
    g: u32,
    keep: &Path,
) -> GameRun {
    let mut run = GameRun {
        result: "none".into(),
        turns: 0,
        ending: "none".into(),
        steps: 0,
        errors: Vec::new(),
        fired: BTreeSet::new(),
    };
    let root = keep.join(format!("game-{g}"));
    let now: jiff::Timestamp = KEPT_NOW.parse().expect("a valid time");
    let created = super::new::create_with(
        NewGame {
            dir: root.clone(),
            system: system.id().to_string(),
            scenario: Some(scenario.to_string()),
            seats: Vec::new(),
            names: Vec::new(),
            emails: Vec::new(),
            id: Some(format!("simulate-{seed}-{g}")),
            data: None,
            mail: Default::default(),
            deadline: None,
        },
        Extras {
            bots: system
                .sides()
                .iter()
                .map(|s| {
                    let bot = bots.get(s).map(String::as_str).unwrap_or(bots::DEFAULT);
                    (s.clone(), bot.to_string())
                })
                .collect(),
            secrets: Some(Secrets {
                master: seed_of(seed, g, 0, "master"),
                game_key: seed_of(seed, g, 0, "game key"),
            }),
        },
    );
    if let Err(e) = created {
        run.errors.push(format!("game {g}: pbem new: {e}"));
        return run;
    }
    for n in 1..=STEP_LIMIT {
        let game = match Game::open(&root) {
            Ok(game) => game,
            Err(e) => {
                run.errors.push(format!("game {g}: {e}"));
                return run;
            }
        };
        if game.open_step().is_none() {
            let ended = game
                .state()
                .and_then(|state| Ok(system.phase(game.data()?, &state)?));
            match ended {
                Ok(Phase::Finished(o)) => {
                    run.result = o.winner.unwrap_or_else(|| "draw".into());
                    run.turns = o.turn;
                    run.ending = o.rule;
                }
                Ok(Phase::Waiting { .. }) => {
                    run.errors
                        .push(format!("game {g}: the journal is closed, the state is not"));
                }
                Err(e) => run.errors.push(format!("game {g}: {e}")),
            }
            if let Err(e) = super::conclude::conclude(&root) {
                run.errors.push(format!("game {g}: pbem conclude: {e}"));
            }
            return run;
        }
        run.steps = n;
        let before = match game.state() {
            Ok(state) => state,
            Err(e) => {
                run.errors.push(format!("game {g} step {n}: {e}"));
                return run;
            }
        };
        let processed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            reach::recording(|| super::process::process_at(&root, now))
        }));
        match processed {
            Ok((Ok(_), fired)) => {
                run.fired.extend(fired);
                let after = Game::open(&root).and_then(|game| {
                    let state = game.state()?;
                    Ok(system.invariants(game.data()?, &before, &state)?)
                });
                run.check_invariants(g, n, after.map_err(|e| e.to_string()));
            }
            Ok((Err(e), _)) => {
                run.step_failed(g, n, "pbem process", Ok(e.to_string()));
                return run;
            }
            Err(panic) => {
                run.step_failed(g, n, "pbem process", Err(panic));
                return run;
            }
        }
    }
    run.errors
        .push(format!("game {g}: not over after {STEP_LIMIT} steps"));
    run
}

fn names(scenarios: &[(String, String)]) -> String {
    scenarios
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The seed of game `game`'s step `step` for `what` (dice, game key, bots).
fn seed_of(seed: u64, game: u32, step: u64, what: &str) -> Hash32 {
    Transcript::new("pbem-simulate-v1")
        .u64(seed)
        .u64(u64::from(game))
        .u64(step)
        .str(what)
        .finish()
}

/// Plays game number `g` to its end (or [`STEP_LIMIT`]).
pub fn play_one(
    system: &dyn System,
    data: &GameData,
    initial: &str,
    bots: &BTreeMap<String, String>,
    seed: u64,
    g: u32,
) -> GameRun {
    let mut run = GameRun {
        result: "none".into(),
        turns: 0,
        ending: "none".into(),
        steps: 0,
        errors: Vec::new(),
        fired: BTreeSet::new(),
    };
    let game_key = seed_of(seed, g, 0, "game key");
    let id = format!("simulate-{g}");
    let mut state = initial.to_string();
    let mut basis = seed_of(seed, g, 0, "basis");
    for n in 1..=STEP_LIMIT {
        let sides = match system.phase(data, &state) {
            Ok(Phase::Finished(o)) => {
                run.result = o.winner.unwrap_or_else(|| "draw".into());
                run.turns = o.turn;
                run.ending = o.rule;
                return run;
            }
            Ok(Phase::Waiting { sides, .. }) => sides,
            Err(e) => {
                run.errors.push(format!("game {g} step {n}: phase: {e}"));
                return run;
            }
        };
        run.steps = n;
        let bot_seed = seed_of(seed, g, n, "bots");
        let mut orders = BTreeMap::new();
        for side in &sides {
            let doc = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let bot = bots.get(side).map(String::as_str).unwrap_or(bots::DEFAULT);
                bots::document(system, data, &state, &id, n, side, &basis, bot, &bot_seed)
                    .map_err(|e| e.to_string())
            }))
            .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_text(&*panic))))
            .unwrap_or_else(|e| {
                run.errors
                    .push(format!("game {g} step {n}: {side}'s bot: {e}"));
                fallback(system, data, &state, &id, n, side, &basis)
            });
            orders.insert(side.clone(), doc);
        }
        let step_seed = seed_of(seed, g, n, "step seed");
        let resolved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            reach::recording(|| {
                step::resolve(system, data, &state, &orders, n, step_seed, game_key)
            })
        }));
        match resolved {
            Ok((Ok(r), fired)) => {
                run.fired.extend(fired);
                run.check_invariants(g, n, system.invariants(data, &state, &r.state));
                basis = Transcript::new("pbem-simulate-basis-v1")
                    .hash(&basis)
                    .hash(&r.public_state)
                    .finish();
                state = r.state;
            }
            Ok((Err(e), _)) => {
                run.step_failed(g, n, "resolve", Ok(e.to_string()));
                return run;
            }
            Err(panic) => {
                run.step_failed(g, n, "resolve", Err(panic));
                return run;
            }
        }
    }
    run.errors
        .push(format!("game {g}: not over after {STEP_LIMIT} steps"));
    run
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// What a side whose bot failed sends instead: the default orders, as a missed deadline.
fn fallback(
    system: &dyn System,
    data: &GameData,
    state: &str,
    id: &str,
    step: u64,
    side: &str,
    basis: &Hash32,
) -> String {
    let body = system
        .default_orders(data, state, side)
        .unwrap_or_else(|_| "{}".into());
    order_text(id, step, side, basis, &Hash32([0; 32]), &body)
}

fn summarise(
    system: &dyn System,
    scenario: &str,
    opts: &Options,
    bots: &BTreeMap<String, String>,
    runs: &[GameRun],
) -> Report {
    let mut wins = BTreeMap::new();
    let mut endings = BTreeMap::new();
    let mut fired: BTreeMap<&str, u32> = BTreeMap::new();
    let mut errors = 0;
    let mut samples = Vec::new();
    for r in runs {
        *wins.entry(r.result.clone()).or_insert(0) += 1;
        *endings.entry(r.ending.clone()).or_insert(0) += 1;
        for rule in &r.fired {
            *fired.entry(rule).or_insert(0) += 1;
        }
        errors += r.errors.len() as u32;
        for e in &r.errors {
            if samples.len() < ERROR_SAMPLES {
                samples.push(e.clone());
            }
        }
    }
    // A game that did not end has no length to count (it is an error already).
    let mut turns: Vec<u32> = runs
        .iter()
        .filter(|r| r.ending != "none")
        .map(|r| r.turns)
        .collect();
    turns.sort_unstable();
    let leaves = system.leaf_rules();
    let listed: BTreeSet<&str> = leaves.iter().map(String::as_str).collect();
    let rules: Vec<(String, u32)> = leaves
        .iter()
        .map(|rule| (rule.clone(), fired.get(rule.as_str()).copied().unwrap_or(0)))
        .collect();
    Report {
        system: system.id().to_string(),
        scenario: scenario.to_string(),
        seed: opts.seed,
        games: runs.len() as u32,
        bots: bots.clone(),
        wins,
        turns: Turns {
            min: turns.first().copied().unwrap_or(0),
            median: turns.get(turns.len() / 2).copied().unwrap_or(0),
            max: turns.last().copied().unwrap_or(0),
        },
        ended_by_turn_2: runs
            .iter()
            .filter(|r| r.ending != "none" && r.turns <= 2)
            .count() as u32,
        endings,
        errors,
        error_samples: samples,
        rule_reach: RuleReach {
            total: rules.len(),
            reached: rules.iter().filter(|(_, n)| *n > 0).count(),
            rules: InTableOrder(rules),
            unlisted: fired
                .keys()
                .filter(|r| !listed.contains(*r))
                .map(|r| r.to_string())
                .collect(),
        },
    }
}

impl Report {
    /// The report for people.
    pub fn text(&self) -> String {
        let pct = |n: u32| {
            if self.games == 0 {
                0.0
            } else {
                f64::from(n) * 100.0 / f64::from(self.games)
            }
        };
        let mut out = format!(
            "{} games of {} ({}), seed {}\n",
            self.games, self.system, self.scenario, self.seed
        );
        let bots: Vec<String> = self
            .bots
            .iter()
            .map(|(side, bot)| format!("{side} {bot}"))
            .collect();
        out.push_str(&format!("bots: {}\n", bots.join(", ")));
        out.push_str("wins:");
        for (side, n) in &self.wins {
            out.push_str(&format!(" {side} {n} ({:.0} %)", pct(*n)));
        }
        out.push('\n');
        out.push_str(&format!(
            "turns: min {}, median {}, max {}; ended by turn 2: {} ({:.1} %)\n",
            self.turns.min,
            self.turns.median,
            self.turns.max,
            self.ended_by_turn_2,
            pct(self.ended_by_turn_2)
        ));
        out.push_str("endings:");
        for (rule, n) in &self.endings {
            out.push_str(&format!(" {rule} {n}"));
        }
        out.push('\n');
        out.push_str(&format!("errors: {}\n", self.errors));
        for e in &self.error_samples {
            out.push_str(&format!("  {}\n", e.lines().next().unwrap_or("")));
        }
        let r = &self.rule_reach;
        out.push_str(&format!(
            "rule reach: {} of {} leaf rules fired in at least one game\n",
            r.reached, r.total
        ));
        let unreached: Vec<&str> = r
            .rules
            .0
            .iter()
            .filter(|(_, n)| *n == 0)
            .map(|(rule, _)| rule.as_str())
            .collect();
        if !unreached.is_empty() {
            out.push_str(&format!("not reached: {}\n", unreached.join(" ")));
        }
        if !r.unlisted.is_empty() {
            out.push_str(&format!(
                "fired but not in the coverage table: {}\n",
                r.unlisted.join(" ")
            ));
        }
        out
    }
}
