//! Deadline verbs: `process --all`, `pause`, `resume`, `extend`. Argument handling and output
//! only; the work is in engine::schedule and engine::sweep.

use super::{json, print};
use crate::engine::mail::clock;
use crate::engine::schedule::{self, Extension, HostOpDone};
use crate::engine::{Error, config::Duration, exit, sweep};
use jiff::Timestamp;
use std::path::Path;

pub fn process_all(
    root: &Path,
    now: Timestamp,
    catch_up: bool,
    max_late: &str,
    as_json: bool,
) -> Result<i32, Error> {
    let max_late: Duration = max_late
        .parse()
        .map_err(|e| Error::Fail(format!("--max-late: {e}")))?;
    let opts = sweep::Options {
        now,
        catch_up,
        max_late: max_late.0,
    };
    let entries = sweep::sweep(root, &opts)?;
    let code = sweep::exit_code(&entries);
    if as_json {
        json(&serde_json::json!({"games": entries, "exit": code}))?;
    } else {
        let mut s = String::new();
        for e in &entries {
            s.push_str(&e.line());
            s.push('\n');
        }
        if entries.is_empty() {
            s.push_str("no games found\n");
        }
        print(&s)?;
    }
    Ok(code)
}

fn done(d: &HostOpDone, as_json: bool) -> Result<i32, Error> {
    if as_json {
        json(d)?;
    } else {
        let when = d
            .schedule
            .as_ref()
            .map(|s| s.describe(None))
            .unwrap_or_else(|| "the game is over".into());
        print(&format!("{}: journal record {}; {when}\n", d.op, d.record))?;
    }
    Ok(exit::OK)
}

pub fn pause(dir: &Path, reason: &str, now: Option<String>, as_json: bool) -> Result<i32, Error> {
    let now = clock::now_or(now.as_deref())?;
    done(&schedule::pause(dir, reason, now)?, as_json)
}

pub fn resume(dir: &Path, reason: &str, now: Option<String>, as_json: bool) -> Result<i32, Error> {
    let now = clock::now_or(now.as_deref())?;
    done(&schedule::resume(dir, reason, now)?, as_json)
}

pub fn extend(
    dir: &Path,
    until: Option<String>,
    by: Option<String>,
    reason: &str,
    now: Option<String>,
    as_json: bool,
) -> Result<i32, Error> {
    let now = clock::now_or(now.as_deref())?;
    let how = match (until, by) {
        (Some(t), _) => Extension::Until(schedule::parse_time(&t)?),
        (None, Some(d)) => Extension::By(
            d.parse::<Duration>()
                .map_err(|e| Error::Fail(format!("--by: {e}")))?
                .0,
        ),
        (None, None) => return Err(Error::Fail("give --until TIME or --by DURATION".into())),
    };
    done(&schedule::extend(dir, how, reason, now)?, as_json)
}
