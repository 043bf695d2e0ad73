//! `pbem process`: resolve one game's open step, or with `--all` sweep every game under a
//! directory.

use crate::cli::args::Process;
use crate::cli::output::{json, print};
use crate::engine::config::Duration;
use crate::engine::process::{self, Processed};
use crate::engine::{Error, exit, mail::clock, sweep};
use jiff::Timestamp;
use std::path::Path;

pub fn run(a: Process) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let dir = match (a.all, a.dir) {
        (Some(root), _) => return all(&root, now, a.catch_up, &a.max_late, a.json),
        (None, Some(d)) => d,
        (None, None) => return Err(Error::Fail("give a game directory or --all ROOT".into())),
    };
    let options = process::Options {
        force_defaults: a.force_defaults,
    };
    match process::process_with(&dir, now, options) {
        Ok(Some(p)) => {
            // Then the steps that wait for the host's bots alone (a person playing solo).
            let bots = process::bot_steps(&dir, || {
                process::process_with(&dir, now, process::Options::default())
            })?;
            if a.json {
                let mut out = processed_json(&p);
                out["then_by_bots"] = bots.iter().map(processed_json).collect();
                json(&out)?;
            } else {
                print(&processed_text(&p))?;
                for b in &bots {
                    print(&format!("then, by the host's bot: {}", processed_text(b)))?;
                }
            }
        }
        Ok(None) if a.json => json(&serde_json::json!({"processed": false, "finished": true}))?,
        Ok(None) => print("the game is over; nothing to process\n")?,
        Err(Error::Waiting(m)) if a.json => {
            json(&serde_json::json!({"processed": false, "waiting": m}))?;
            return Ok(exit::WAITING);
        }
        Err(e) => return Err(e),
    }
    Ok(exit::OK)
}

fn processed_json(p: &Processed) -> serde_json::Value {
    serde_json::json!({
        "processed": true, "record": p.seq, "step": p.step, "title": p.title,
        "head": p.head.hex(),
        "next_step": p.next.as_ref().map(|n| n.step),
        "waiting_for": p.next.as_ref().map(|n| n.waiting_for.clone()).unwrap_or_default(),
        "outcome": p.outcome,
    })
}

fn processed_text(p: &Processed) -> String {
    let mut s = format!(
        "processed step {} ({}); journal head {}\n",
        p.step, p.title, p.head
    );
    match (&p.next, &p.outcome) {
        (Some(n), _) => s.push_str(&format!(
            "next: step {} ({}), waiting for {}\n",
            n.step,
            n.title,
            n.waiting_for.join(", ")
        )),
        (None, Some(o)) => s.push_str(&format!("the game is over: {o}\n")),
        (None, None) => s.push_str("the game is over\n"),
    }
    s
}

/// `process --all ROOT`: one line per game; the exit code sums up the sweep.
fn all(
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
