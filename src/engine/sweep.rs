//! `pbem process --all ROOT`: one cron line for every game under a directory.
//!
//! Each game directory (a directory with `game.yaml`; the walk does not enter a game, nor
//! hidden directories) is handled on its own, under its own lock: a game another command is
//! working on is reported `busy`, a damaged game `failed`, and neither stops the sweep. A game
//! is processed when every order is in, or when its deadline plus grace has passed and the
//! missed-order policy allows it. Outage guard: a deadline that passed more than `max_late`
//! before the sweep (the host's machine was down, cron stopped…) is not processed without
//! `--catch-up`, so players are not run over by defaults they had no chance to avoid.

use super::config::MissedOrders;
use super::game::Game;
use super::process::{self, Options as ProcessOptions};
use super::schedule::{self, Due};
use super::{Error, exit};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Default of `--max-late`: how long after deadline + grace a sweep still processes.
pub const DEFAULT_MAX_LATE: &str = "6h";

pub struct Options {
    pub now: Timestamp,
    /// Process games whose deadline passed more than `max_late` ago.
    pub catch_up: bool,
    pub max_late: SignedDuration,
}

/// What happened to one game, from best to worst (the exit code follows the worst).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A step was resolved.
    Processed,
    /// Nothing to do now: orders missing and the deadline ahead, no deadline, paused,
    /// `missed_orders: wait`, or the game is over.
    Idle,
    /// Another pbem command holds the game's lock; the next sweep tries again.
    Busy,
    /// Due, but held for the host: the outage guard (run with --catch-up) or
    /// `missed_orders: host` (run `pbem process --force-defaults DIR`).
    Held,
    /// The game could not be handled (damaged directory, a refused order, I/O).
    Failed,
}

impl Outcome {
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Processed | Outcome::Idle => exit::OK,
            Outcome::Busy | Outcome::Held => exit::WAITING,
            Outcome::Failed => exit::FAILURE,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Processed => "processed",
            Outcome::Idle => "idle",
            Outcome::Busy => "busy",
            Outcome::Held => "held",
            Outcome::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub dir: PathBuf,
    pub game: Option<String>,
    pub outcome: Outcome,
    /// The step processed, or open.
    pub step: Option<u64>,
    /// Sides given default orders by this run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<String>,
    pub detail: String,
}

impl Entry {
    pub fn line(&self) -> String {
        format!(
            "{:<9} {}{}: {}",
            self.outcome.name(),
            self.dir.display(),
            self.game
                .as_ref()
                .map(|g| format!(" [{g}]"))
                .unwrap_or_default(),
            self.detail
        )
    }
}

/// The sweep's exit code: 1 if any game failed, else 3 if any was busy or held, else 0.
pub fn exit_code(entries: &[Entry]) -> i32 {
    entries
        .iter()
        .map(|e| e.outcome)
        .max()
        .map(Outcome::exit_code)
        .unwrap_or(exit::OK)
}

/// Every game directory under `root` (or `root` itself), sorted.
pub fn find_games(root: &Path) -> Result<Vec<PathBuf>, Error> {
    if root.join("game.yaml").is_file() {
        return Ok(vec![root.to_path_buf()]);
    }
    if !root.is_dir() {
        return Err(Error::Fail(format!("{}: not a directory", root.display())));
    }
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))?;
        for e in entries.flatten() {
            let hidden = e.file_name().to_string_lossy().starts_with('.');
            let p = e.path();
            if hidden || !e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                continue;
            }
            if p.join("game.yaml").is_file() {
                out.push(p);
            } else {
                stack.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Sweeps every game under `root`.
pub fn sweep(root: &Path, opts: &Options) -> Result<Vec<Entry>, Error> {
    Ok(find_games(root)?
        .into_iter()
        .map(|dir| one(&dir, opts))
        .collect())
}

enum Lock {
    Held(std::fs::File),
    Busy,
}

/// Takes the game's lock without waiting (the same file `GameDir::lock` uses).
fn try_lock(dir: &super::dir::GameDir) -> Result<Lock, Error> {
    let path = dir.lock_file();
    let file = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Error::io(&path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Lock::Held(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(Lock::Busy),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::io(&path, e)),
    }
}

fn one(dir: &Path, opts: &Options) -> Entry {
    let mut entry = Entry {
        dir: dir.to_path_buf(),
        game: None,
        outcome: Outcome::Failed,
        step: None,
        defaults: Vec::new(),
        detail: String::new(),
    };
    // A panic in one game's rules must not stop the others.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        decide(dir, opts, &mut entry)
    }));
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            entry.outcome = Outcome::Failed;
            entry.detail = e.to_string().replace('\n', "; ");
        }
        Err(_) => {
            entry.outcome = Outcome::Failed;
            entry.detail = "internal error (panic) while handling this game".into();
        }
    }
    entry
}

fn decide(dir: &Path, opts: &Options, entry: &mut Entry) -> Result<(), Error> {
    // The game is opened once, under its lock: what it says cannot change until we are done.
    // (Something that is not a game gets open's error, and no lock file.)
    let game_dir = super::dir::GameDir::new(dir);
    if !game_dir.config().exists() {
        Game::open(dir)?;
    }
    let _lock = match try_lock(&game_dir)? {
        Lock::Held(f) => f,
        Lock::Busy => {
            entry.outcome = Outcome::Busy;
            entry.detail = "another pbem command is working on this game".into();
            entry.game = Game::open(dir).ok().map(|g| g.config.id);
            return Ok(());
        }
    };
    let game = Game::open(dir)?;
    entry.game = Some(game.config.id.clone());
    let Some(step) = game.open_step().cloned() else {
        entry.outcome = Outcome::Idle;
        entry.detail = "the game is over".into();
        return Ok(());
    };
    entry.step = Some(step.step);
    let missing: Vec<String> = step
        .waiting_for
        .iter()
        .filter(|s| game.config.bot_of(s).is_none())
        .filter(|s| !game.dir.inbox_order(step.step, s).exists())
        .cloned()
        .collect();
    let sched = schedule::current(&game, opts.now)?.expect("the step is open");
    match schedule::due(&game, &sched, &missing, opts.now, false) {
        Due::AllIn => {}
        Due::NotYet(why) => {
            entry.outcome = Outcome::Idle;
            entry.detail = why;
            return Ok(());
        }
        Due::NeedsHost(why) => {
            entry.outcome = Outcome::Held;
            entry.detail = why;
            return Ok(());
        }
        Due::Defaults { late } => {
            if late > opts.max_late && !opts.catch_up {
                entry.outcome = Outcome::Held;
                entry.detail = format!(
                    "step {}: the deadline (plus grace) passed {:#} ago, more than --max-late {:#}: \
                     not processed in case pbem was not running (an outage); check, then run \
                     `pbem process --all --catch-up` or `pbem extend`",
                    step.step,
                    late.round(jiff::Unit::Second).unwrap_or(late),
                    opts.max_late
                );
                return Ok(());
            }
            entry.defaults = missing.clone();
        }
    }
    let p = process::process_locked(dir, opts.now, ProcessOptions::default())?;
    entry.outcome = Outcome::Processed;
    entry.detail = match p {
        Some(p) => {
            let mut d = format!("processed step {} ({}); head {}", p.step, p.title, p.head);
            if !entry.defaults.is_empty() {
                let given = if game.config.missed_orders == MissedOrders::Bot {
                    "the bot's orders"
                } else {
                    "default orders"
                };
                d.push_str(&format!("; {given} for {}", entry.defaults.join(", ")));
            }
            d
        }
        None => "the game is over".into(),
    };
    // Steps that wait for bot seats alone are due at once: play them now, so a person playing
    // against the bot gets the bot's turns with the same sweep, not one sweep per step.
    let bots = process::bot_steps(dir, || {
        process::process_locked(dir, opts.now, ProcessOptions::default())
    })?;
    for p in bots {
        entry.step = Some(p.step);
        entry.detail.push_str(&format!(
            "; then step {} ({}) by the bot; head {}",
            p.step, p.title, p.head
        ));
    }
    Ok(())
}
