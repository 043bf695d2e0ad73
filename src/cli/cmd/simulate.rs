//! `pbem simulate`: bot-against-bot games and their figures.

use crate::cli::args::Simulate;
use crate::cli::output::{json, print};
use crate::engine::simulate::{self, Options};
use crate::engine::{Error, exit};
use std::io::Write;

pub fn run(a: Simulate) -> Result<i32, Error> {
    let opts = Options {
        system: a.system,
        scenario: a.scenario,
        games: a.games,
        seed: a.seed,
        bots: a
            .bots
            .iter()
            .map(|b| {
                b.split_once('=')
                    .filter(|(s, n)| !s.is_empty() && !n.is_empty())
                    .map(|(s, n)| (s.to_string(), n.to_string()))
                    .ok_or_else(|| {
                        Error::Fail(format!(
                            "--bot {b:?}: expected SIDE=NAME, NAME one of: {}",
                            crate::engine::bots::names()
                        ))
                    })
            })
            .collect::<Result<_, _>>()?,
        keep: a.keep,
    };
    let total = opts.games;
    // Progress on stderr, so stdout stays the report (or the JSON object).
    let report = simulate::simulate(&opts, |done| {
        if total >= 10 && (done % (total / 10).max(1) == 0 || done == total) {
            let _ = writeln!(std::io::stderr(), "simulate: {done}/{total} games");
        }
    })?;
    if a.json {
        json(&report)?;
    } else {
        print(&report.text())?;
    }
    Ok(if report.errors == 0 {
        exit::OK
    } else {
        exit::FAILURE
    })
}
