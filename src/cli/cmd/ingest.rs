//! `pbem ingest`: read incoming mail (standard input, a file, or a Maildir) and answer it.

use crate::cli::args::Ingest;
use crate::cli::output::{json, print};
use crate::engine::mail::{clock, ingest, maildir};
use crate::engine::{Error, exit};

pub fn run(a: Ingest) -> Result<i32, Error> {
    let opts = ingest::Options {
        max_size: a.max_size,
        now: clock::now_or(a.now.as_deref())?,
    };
    let results: Vec<Result<ingest::Outcome, String>> = match (a.maildir, a.file) {
        (Some(m), _) => ingest::ingest_maildir(&a.dir, &m, &opts)?,
        (None, Some(f)) => {
            let raw = maildir::read_file(&f, a.max_size)?;
            vec![
                ingest::ingest(&a.dir, &raw, &f.display().to_string(), &opts)
                    .map_err(|e| e.to_string()),
            ]
        }
        (None, None) => {
            let raw = maildir::read_limited(std::io::stdin().lock(), a.max_size)
                .map_err(|e| Error::Fail(format!("standard input: {e}")))?;
            vec![ingest::ingest(&a.dir, &raw, "stdin", &opts).map_err(|e| e.to_string())]
        }
    };
    if a.json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .map(|r| match r {
                Ok(o) => serde_json::to_value(o).unwrap_or_default(),
                Err(e) => serde_json::json!({"error": e}),
            })
            .collect();
        json(&items)?;
    } else {
        print(&text(&results))?;
    }
    let failed = results.iter().any(|r| r.is_err());
    Ok(if failed { exit::FAILURE } else { exit::OK })
}

/// One line per message: its verdict and the answer queued, or why it was left for next time.
fn text(results: &[Result<ingest::Outcome, String>]) -> String {
    let mut s = String::new();
    for r in results {
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
    s
}
