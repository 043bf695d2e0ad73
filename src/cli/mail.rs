//! The mail verbs: `ingest`, `send`, `remind`. Argument handling and output only; the work is
//! in engine::mail.

use super::{json, print};
use crate::engine::mail::{self, clock, ingest, send};
use crate::engine::{Error, exit};
use std::path::{Path, PathBuf};

pub fn ingest(
    dir: &Path,
    maildir: Option<PathBuf>,
    file: Option<PathBuf>,
    max_size: u64,
    now: Option<String>,
    as_json: bool,
) -> Result<i32, Error> {
    let opts = ingest::Options {
        max_size,
        now: clock::now_or(now.as_deref())?,
    };
    let results: Vec<Result<ingest::Outcome, String>> = match (maildir, file) {
        (Some(m), _) => ingest::ingest_maildir(dir, &m, &opts)?,
        (None, Some(f)) => {
            let raw = mail::maildir::read_file(&f, max_size)?;
            vec![
                ingest::ingest(dir, &raw, &f.display().to_string(), &opts)
                    .map_err(|e| e.to_string()),
            ]
        }
        (None, None) => {
            let raw = mail::maildir::read_limited(std::io::stdin().lock(), max_size)
                .map_err(|e| Error::Fail(format!("standard input: {e}")))?;
            vec![ingest::ingest(dir, &raw, "stdin", &opts).map_err(|e| e.to_string())]
        }
    };
    let failed = results.iter().filter(|r| r.is_err()).count();
    if as_json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .map(|r| match r {
                Ok(o) => serde_json::to_value(o).unwrap_or_default(),
                Err(e) => serde_json::json!({"error": e}),
            })
            .collect();
        json(&items)?;
    } else {
        let mut s = String::new();
        for r in &results {
            match r {
                Ok(o) => {
                    s.push_str(&format!(
                        "{}: {:?}{}: {}",
                        o.source,
                        o.verdict,
                        o.game
                            .as_ref()
                            .map(|g| format!(" [{g}]"))
                            .unwrap_or_default(),
                        o.detail
                    ));
                    if let Some(k) = &o.reply {
                        s.push_str(&format!(" -> answer queued: outbox/{k}.eml"));
                    }
                    s.push('\n');
                }
                Err(e) => s.push_str(&format!("NOT HANDLED (left for the next run): {e}\n")),
            }
        }
        if results.is_empty() {
            s.push_str("no new messages\n");
        }
        print(&s)?;
    }
    Ok(if failed > 0 { exit::FAILURE } else { exit::OK })
}

pub fn send(
    dir: &Path,
    config: Option<PathBuf>,
    to_dir: Option<PathBuf>,
    sendmail: Option<PathBuf>,
    now: Option<String>,
    as_json: bool,
) -> Result<i32, Error> {
    let now = clock::now_or(now.as_deref())?;
    let transport = match (to_dir, sendmail, config) {
        (Some(d), _, _) => send::Transport::Directory(d),
        (None, Some(p), _) => send::TransportConfig {
            sendmail: Some(p),
            ..Default::default()
        }
        .build("--sendmail")?,
        (None, None, c) => {
            let path = c
                .or_else(|| std::env::var_os(send::CONFIG_ENV).map(PathBuf::from))
                .ok_or_else(|| {
                    Error::Fail(format!(
                        "no transport: give --config FILE (or set {}), --to-dir DIR or --sendmail PROGRAM",
                        send::CONFIG_ENV
                    ))
                })?;
            send::TransportConfig::load(&path)?.build(&path.display().to_string())?
        }
    };
    let mut deliveries = Vec::new();
    let mut problems = Vec::new();
    for game in mail::games_under(dir)? {
        match send::send(&game, &transport, now) {
            Ok(d) => deliveries.extend(d),
            Err(e) => problems.push(format!("{}: {e}", game.display())),
        }
    }
    let failed = deliveries.iter().filter(|d| d.error.is_some()).count() + problems.len();
    if as_json {
        json(&serde_json::json!({"deliveries": deliveries, "problems": problems}))?;
    } else {
        let mut s = String::new();
        for d in &deliveries {
            match &d.error {
                None => s.push_str(&format!("sent {} to {}\n", d.message, d.to.join(", "))),
                Some(e) => s.push_str(&format!(
                    "KEPT {} (attempt {}): {e}\n",
                    d.message, d.attempts
                )),
            }
        }
        for p in &problems {
            eprintln!("pbem: FAILED {p}");
        }
        if deliveries.is_empty() && problems.is_empty() {
            s.push_str("the outbox is empty\n");
        }
        print(&s)?;
    }
    Ok(if failed > 0 { exit::FAILURE } else { exit::OK })
}

pub fn remind(dir: &Path, now: Option<String>, as_json: bool) -> Result<i32, Error> {
    let now = clock::now_or(now.as_deref())?;
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for game in mail::games_under(dir)? {
        // One damaged game must not keep the others' players from their reminders.
        match crate::engine::game::Game::open(&game).and_then(|g| mail::remind::remind(&g, now)) {
            Ok(r) => out.push(r),
            Err(e) => problems.push(format!("{}: {e}", game.display())),
        }
    }
    for p in &problems {
        eprintln!("pbem: FAILED {p}");
    }
    if as_json {
        json(&out)?;
    } else {
        let mut s = String::new();
        for r in &out {
            if let Some(n) = &r.note {
                s.push_str(&format!("{}: {n}\n", r.game));
            }
            for x in &r.reminders {
                s.push_str(&format!(
                    "{}: step {} {}: {}\n",
                    r.game, x.step, x.side, x.outcome
                ));
            }
        }
        print(&s)?;
    }
    Ok(if problems.is_empty() {
        exit::OK
    } else {
        exit::FAILURE
    })
}
