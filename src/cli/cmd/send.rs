//! `pbem send`: deliver the outbox of a game, or of every game under a directory.

use crate::cli::args::Send;
use crate::cli::output::{json, print};
use crate::engine::mail::{clock, send};
use crate::engine::{Error, exit};
use std::path::PathBuf;

pub fn run(a: Send) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let transport = transport(a.to_dir, a.sendmail, a.config)?;
    let sent = send::send_all(&a.dir, &transport, now)?;
    if a.json {
        json(&serde_json::json!({"deliveries": sent.deliveries, "problems": sent.problems}))?;
    } else {
        let mut s = String::new();
        for d in &sent.deliveries {
            match &d.error {
                None => s.push_str(&format!("sent {} to {}\n", d.message, d.to.join(", "))),
                Some(e) => s.push_str(&format!(
                    "KEPT {} (attempt {}): {e}\n",
                    d.message, d.attempts
                )),
            }
        }
        for p in &sent.problems {
            eprintln!("pbem: FAILED {p}");
        }
        if sent.deliveries.is_empty() && sent.problems.is_empty() {
            s.push_str("the outbox is empty\n");
        }
        print(&s)?;
    }
    Ok(if sent.failures() > 0 {
        exit::FAILURE
    } else {
        exit::OK
    })
}

/// The transport the options name: a directory, a sendmail program, or the configuration file
/// given (default: the one named by $PBEM_MAIL_CONFIG).
fn transport(
    to_dir: Option<PathBuf>,
    sendmail: Option<PathBuf>,
    config: Option<PathBuf>,
) -> Result<send::Transport, Error> {
    match (to_dir, sendmail, config) {
        (Some(d), _, _) => Ok(send::Transport::Directory(d)),
        (None, Some(p), _) => send::TransportConfig {
            sendmail: Some(p),
            ..Default::default()
        }
        .build("--sendmail"),
        (None, None, c) => {
            let path = c
                .or_else(|| std::env::var_os(send::CONFIG_ENV).map(PathBuf::from))
                .ok_or_else(|| {
                    Error::Fail(format!(
                        "no transport: give --config FILE (or set {}), --to-dir DIR or --sendmail PROGRAM",
                        send::CONFIG_ENV
                    ))
                })?;
            send::TransportConfig::load(&path)?.build(&path.display().to_string())
        }
    }
}
