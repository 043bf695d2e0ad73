//! `pbem dice`: list the public dice of the journal and show how any one was derived, so an
//! auditor can recompute it by hand (docs/dice.md has the same steps as a specification).

use super::Error;
use super::game::Game;
use crate::protocol::dice::{public_stream_key, replay_public};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct DieLine {
    pub record: u64,
    pub step: u64,
    pub label: String,
    pub faces: u32,
    pub values: Vec<u32>,
    pub result: String,
}

/// Every public die, optionally of one step only.
pub fn list(game: &Game, step: Option<u64>) -> Result<Vec<DieLine>, Error> {
    let mut out = Vec::new();
    for (rec, _) in game.records_all()? {
        let Some(st) = &rec.step else { continue };
        if step.is_some_and(|s| s != st.number) {
            continue;
        }
        for d in &st.dice {
            out.push(DieLine {
                record: rec.seq,
                step: st.number,
                label: d.label.clone(),
                faces: d.faces,
                values: d.values.clone(),
                result: d.result.clone(),
            });
        }
    }
    Ok(out)
}

/// The derivation of one die, step by step.
pub fn explain(game: &Game, step: u64, label: &str) -> Result<String, Error> {
    let (rec, st) = game
        .records_all()?
        .iter()
        .find_map(|(r, _)| r.step.as_ref().filter(|s| s.number == step).map(|s| (r, s)))
        .ok_or_else(|| Error::Fail(format!("step {step} has not been processed")))?;
    let roll = st.dice.iter().find(|d| d.label == label).ok_or_else(|| {
        let some: Vec<&str> = st.dice.iter().take(5).map(|d| d.label.as_str()).collect();
        Error::Fail(format!(
            "step {step} has no die labelled {label:?}; labels look like: {}",
            some.join(", ")
        ))
    })?;
    let mut s = String::new();
    s.push_str(&format!(
        "die {label} of step {step} (journal record {})\n",
        rec.seq
    ));
    s.push_str(&format!("algorithm: {}\n", st.dice_algorithm));
    s.push_str("step seed = H(\"pbem-step-seed-v1\", game, step, host reveal, then per seat: side, entropy or empty)\n");
    s.push_str(&format!(
        "  game        {}\n  step        {step}\n  host reveal {}\n",
        game.config.id, st.host_reveal
    ));
    for side in game.config.side_names() {
        match st.orders.iter().find(|o| o.side == side) {
            Some(o) => match (o.dice_entropy, o.entropy) {
                (Some(d), _) => s.push_str(&format!(
                    "  {side:<11} dice entropy {d} (= H(\"pbem-order-entropy-v1\", the order's secret entropy))\n"
                )),
                (None, Some(e)) => s.push_str(&format!("  {side:<11} entropy {e}\n")),
                (None, None) => s.push_str(&format!("  {side:<11} (no entropy recorded)\n")),
            },
            None => s.push_str(&format!("  {side:<11} (no order: empty part)\n")),
        }
    }
    s.push_str(&format!("  = {}\n", st.seed));
    let key = public_stream_key(&st.seed, label);
    s.push_str(&format!(
        "stream key = H(\"pbem-dice-v1/public\", step seed, label) = {key}\n"
    ));
    s.push_str("ChaCha20 keystream (RFC 8439, key = stream key, nonce 0, counter 0), little-endian u32 words:\n");
    let (values, words) = replay_public(&st.seed, label, roll.values.len(), roll.faces);
    let zone = (1u64 << 32) - ((1u64 << 32) % u64::from(roll.faces.max(1)));
    for w in &words {
        if u64::from(*w) < zone {
            s.push_str(&format!(
                "  {w:#010x} = {w:>10}  -> {w} mod {} + 1 = {}\n",
                roll.faces,
                w % roll.faces + 1
            ));
        } else {
            s.push_str(&format!("  {w:#010x} = {w:>10}  rejected (>= {zone})\n"));
        }
    }
    s.push_str(&format!(
        "values: {values:?}; journal: {:?} {}\n",
        roll.values,
        if values == roll.values {
            "(match)"
        } else {
            "(MISMATCH)"
        }
    ));
    if !roll.result.is_empty() {
        s.push_str(&format!("result: {}\n", roll.result));
    }
    Ok(s)
}
