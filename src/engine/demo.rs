//! `pbem demo SYSTEM`: a whole scripted game in a temporary directory, with fresh keys, signed
//! orders, processing, reports, views, and a final audit.
//!
//! The dice come from a seed (`--seed`, or the system's [`default_seed`]): the host's secrets
//! and every order's entropy are derived from it, so the same seed plays the same game (only the
//! fresh keys and signatures differ), and the default shows what the system is about.

use super::game::{Game, Secrets};
use super::new::{Extras, NewGame, create_with};
use super::order::{self, ORDER_FORMAT};
use super::verify::{self, Options};
use super::{Error, process, views};
use crate::protocol::hash::{Hash32, Transcript};
use crate::protocol::keys::SecretKey;
use std::io::Write;
use std::path::Path;

mod script {
    include!(concat!(env!("OUT_DIR"), "/demo_orders.rs"));
}

/// The scripted orders body of `side` for `step`, if the script has one.
pub fn scripted(system: &str, step: u64, side: &str) -> Option<&'static str> {
    let name = format!("{step:02}-{side}.yaml");
    script::DEMO_ORDERS
        .iter()
        .find(|(s, n, _)| *s == system && *n == name)
        .map(|(_, _, text)| *text)
}

/// Systems that have a demo script.
pub fn systems_with_script() -> Vec<&'static str> {
    let mut v: Vec<&str> = script::DEMO_ORDERS.iter().map(|(s, _, _)| *s).collect();
    v.dedup();
    v
}

/// The seed `pbem demo SYSTEM` plays without `--seed`: picked so the game shows the system's
/// parts (kummen: stage changes, several turns; dougram: card play over several turns; zeta:
/// four turns of moves, governments and combats), ending by the book's victory rules. Any other
/// seed plays another game.
pub fn default_seed(system: &str) -> u64 {
    match system {
        "kummen" => KUMMEN_SEED,
        "dougram" => DOUGRAM_SEED,
        "zeta" => ZETA_SEED,
        _ => 1,
    }
}

const KUMMEN_SEED: u64 = 26;
const DOUGRAM_SEED: u64 = 12;
/// Titans win by sudden death (37.2) at the end of turn 4, after 16 combats (36 steps).
const ZETA_SEED: u64 = 7;

/// A value of the demo game derived from its seed: `what` names it (the host's master seed and
/// game key, an order's entropy by step and side).
fn derived(seed: u64, what: &str) -> Hash32 {
    Transcript::new("pbem-demo-v1").u64(seed).str(what).finish()
}

/// A complete order document: the header for this game and step, then the scripted body, with
/// fresh random entropy.
pub fn order_document(game: &Game, side: &str, body: &str) -> Result<String, Error> {
    let entropy = Hash32::random().map_err(|e| Error::Fail(e.to_string()))?;
    order_document_with(game, side, body, &entropy)
}

/// [`order_document`] with the given entropy.
fn order_document_with(
    game: &Game,
    side: &str,
    body: &str,
    entropy: &Hash32,
) -> Result<String, Error> {
    let step = game
        .open_step()
        .ok_or_else(|| Error::Fail("the game is over".into()))?;
    Ok(order_text(
        &game.config.id,
        step.step,
        side,
        &game.head(),
        entropy,
        body,
    ))
}

/// An order document (version 1) with this header and `body` (YAML of the `orders:` block,
/// comments allowed) indented under `orders:`.
pub fn order_text(
    game_id: &str,
    step: u64,
    side: &str,
    basis: &Hash32,
    entropy: &Hash32,
    body: &str,
) -> String {
    let mut doc = format!(
        "pbem: {ORDER_FORMAT}\ngame: {game_id}\nstep: {step}\nside: {side}\nbasis: {basis}\nentropy: {entropy}\nversion: 1\n"
    );
    let body = body.trim_end();
    let meaningful = body
        .lines()
        .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    if !meaningful || body.trim() == "{}" {
        doc.push_str("orders: {}\n");
    } else {
        doc.push_str("orders:\n");
        for line in body.lines() {
            doc.push_str(&format!("  {line}\n").replace("  \n", "\n"));
        }
    }
    doc
}

/// A demo game that has not ended after this many steps is a defect (kummen ends by turn 11,
/// three steps a turn).
const DEMO_STEP_LIMIT: u64 = 400;

/// Plays the script, then the bots to the end, with the dice of `seed`; writes progress to
/// `out`. Keeps the game in `keep` when given.
pub fn run(system: &str, keep: Option<&Path>, seed: u64, out: &mut dyn Write) -> Result<(), Error> {
    let w = |out: &mut dyn Write, s: String| {
        out.write_all(s.as_bytes())
            .map_err(|e| Error::Fail(e.to_string()))
    };
    if !systems_with_script().contains(&system) {
        return Err(Error::Fail(format!(
            "no demo script for {system:?}; demos exist for: {}",
            systems_with_script().join(", ")
        )));
    }
    let tmp = tempfile::tempdir().map_err(|e| Error::Fail(format!("temporary directory: {e}")))?;
    let base = keep
        .map(Path::to_path_buf)
        .unwrap_or_else(|| tmp.path().to_path_buf());
    let keys_dir = base.join("keys");
    std::fs::create_dir_all(&keys_dir).map_err(|e| Error::io(&keys_dir, e))?;
    let sides = crate::systems::by_id(system)?.sides();
    let mut keys = Vec::new();
    let mut seats = Vec::new();
    for side in &sides {
        let key = SecretKey::generate(&format!("{side} (demo)"))
            .map_err(|e| Error::Fail(e.to_string()))?;
        let path = keys_dir.join(side);
        key.write(&path, None)
            .map_err(|e| Error::Fail(e.to_string()))?;
        seats.push((side.clone(), key.public()));
        keys.push((side.clone(), key));
    }
    let game_dir = base.join("game");
    let game = create_with(
        NewGame {
            dir: game_dir.clone(),
            system: system.into(),
            scenario: None,
            seats,
            names: Vec::new(),
            emails: Vec::new(),
            id: Some(format!("{system}-demo")),
            data: None,
            mail: Default::default(),
            deadline: None,
        },
        Extras {
            bots: Vec::new(),
            secrets: Some(Secrets {
                master: derived(seed, "master"),
                game_key: derived(seed, "game key"),
            }),
        },
    )?;
    w(
        out,
        format!(
            "== pbem demo: {} in {} (seed {seed})\n\n",
            game.system.title(),
            game_dir.display()
        ),
    )?;
    let orders_dir = base.join("orders");
    loop {
        let game = Game::open(&game_dir)?;
        let Some(step) = game.open_step().cloned() else {
            break;
        };
        if step.step > DEMO_STEP_LIMIT {
            return Err(Error::Fail(format!(
                "the demo game did not end in {DEMO_STEP_LIMIT} steps"
            )));
        }
        // Past the end of the script, the system's bot plays each side (Rules::bot), seeded by
        // the demo's seed and the step (not the journal head, which holds the fresh keys), so
        // the demo plays on to the book's victory rules and a seed plays the same game again.
        let bot_seed = derived(seed, &format!("bots {}", step.step));
        for side in &step.waiting_for {
            let body = match scripted(system, step.step, side) {
                Some(text) => text.to_string(),
                None => game
                    .system
                    .bot_orders(game.data()?, &game.state()?, side, &bot_seed)
                    .map_err(Error::Fail)?,
            };
            let entropy = derived(seed, &format!("entropy {} {side}", step.step));
            let doc = order_document_with(&game, side, &body, &entropy)?;
            let key = &keys
                .iter()
                .find(|(s, _)| s == side)
                .expect("every side has a demo key")
                .1;
            let signed = order::sign(doc.as_bytes(), key)?;
            let file = orders_dir.join(format!("{:02}-{side}.yaml", step.step));
            super::dir::write_atomic(&file, &signed)?;
            let accepted = order::submit(&game, &file, None)?;
            w(
                out,
                format!(
                    "{side} submitted step {} (order {})\n",
                    step.step,
                    accepted.hash.short()
                ),
            )?;
        }
        let done =
            process::process(&game_dir)?.ok_or_else(|| Error::Fail("nothing to process".into()))?;
        let game = Game::open(&game_dir)?;
        w(
            out,
            format!("\n{}\n", views::report_summary(&game, done.seq)?),
        )?;
    }
    let game = Game::open(&game_dir)?;
    for side in game.config.side_names() {
        let (_, text) = views::side_view(&game, &side)?;
        w(out, format!("== view of {side}\n{text}\n"))?;
    }
    let c = super::conclude::conclude(&game_dir)?;
    w(
        out,
        format!(
            "== pbem conclude: record {} publishes the sealed archive ({} files)\n",
            c.seq, c.files
        ),
    )?;
    let tally = verify::verify(
        &game_dir,
        &Options {
            player_files: Vec::new(),
            public_only: false,
            full: true,
        },
    )?;
    w(out, format!("== pbem verify: OK ({})\n", tally.summary()))?;
    if keep.is_some() {
        w(out, format!("the game is kept in {}\n", game_dir.display()))?;
    }
    Ok(())
}
