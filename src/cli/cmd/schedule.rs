//! The deadline verbs `pbem pause`, `resume` and `extend`: each a journaled host operation on
//! the game's clock (engine::schedule).

use crate::cli::args::{Extend, Pause, Resume};
use crate::cli::output::{json, print};
use crate::engine::mail::clock;
use crate::engine::schedule::{self, Extension, HostOpDone};
use crate::engine::{Error, config::Duration, exit};

pub fn pause(a: Pause) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    done(&schedule::pause(&a.dir, &a.reason, now)?, a.json)
}

pub fn resume(a: Resume) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    done(&schedule::resume(&a.dir, &a.reason, now)?, a.json)
}

pub fn extend(a: Extend) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let how = match (a.until, a.by) {
        (Some(t), _) => Extension::Until(schedule::parse_time(&t)?),
        (None, Some(d)) => Extension::By(
            d.parse::<Duration>()
                .map_err(|e| Error::Fail(format!("--by: {e}")))?
                .0,
        ),
        (None, None) => return Err(Error::Fail("give --until TIME or --by DURATION".into())),
    };
    done(&schedule::extend(&a.dir, how, &a.reason, now)?, a.json)
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
