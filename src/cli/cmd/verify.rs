//! `pbem verify`: audit a game (exit 5 on any discrepancy).

use crate::cli::args::Verify;
use crate::cli::output::{json, print};
use crate::engine::{self, Error, exit};

pub fn run(a: Verify) -> Result<i32, Error> {
    let opts = engine::verify::Options {
        player_files: a.player,
        public_only: a.public_only,
        full: a.full,
    };
    match engine::verify::verify(&a.dir, &opts) {
        Ok(t) if a.json => json(&serde_json::json!({
            "ok": true,
            "summary": t.summary(),
            "not_replayed": t.notes,
        }))?,
        Ok(t) => {
            // Steps of other rules are checked but for their replay: say which, first.
            let mut out = String::new();
            for note in &t.notes {
                out.push_str(&format!("not replayed: {note}\n"));
            }
            out.push_str(&format!("verified: {}\n", t.summary()));
            print(&out)?
        }
        Err(Error::Verify(f)) if a.json => {
            json(&serde_json::json!({"ok": false, "findings": f}))?;
            return Ok(exit::VERIFY_FAILED);
        }
        Err(e) => return Err(e),
    }
    Ok(exit::OK)
}
