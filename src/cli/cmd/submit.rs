//! `pbem submit`: file a signed order and print its receipt.

use crate::cli::args::Submit;
use crate::cli::output::{json, print};
use crate::engine::{self, Error, exit};

pub fn run(a: Submit) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    let sig = a
        .sig
        .or_else(|| engine::order::detached_sig_beside(&a.file));
    let acc = engine::order::submit(&game, &a.file, sig.as_deref())?;
    if let Some(p) = a.receipt {
        engine::dir::write_atomic(&p, &acc.receipt)?;
    }
    if a.json {
        json(&serde_json::json!({
            "side": acc.side, "step": acc.step, "order": acc.hash.hex(),
            "replaced": acc.replaced.map(|h| h.hex()),
            "receipt": String::from_utf8_lossy(&acc.receipt),
        }))?;
    } else {
        let mut s = format!(
            "accepted: order {} of {} for step {}\n",
            acc.hash, acc.side, acc.step
        );
        if let Some(r) = acc.replaced {
            s.push_str(&format!("it replaces the earlier order {r}\n"));
        }
        s.push_str("receipt (keep it: it proves the host accepted this order):\n");
        s.push_str(&String::from_utf8_lossy(&acc.receipt));
        print(&s)?;
    }
    Ok(exit::OK)
}
