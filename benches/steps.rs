//! Wall time of `process` for one kummen step and one dougram player-turn, and of `verify` on a
//! played kummen game.
//!
//! Run with `cargo bench --bench steps`. Each sample copies a prepared game directory (orders
//! already in the inbox) and times one call, so every sample does the same work; the median
//! and the spread are printed. Figures belong in issue notes, never in assertions.

mod common;

use common::{copy_dir, keys_for, kummen_keys, measuring, new_game, new_kummen, submit_all};
use pbem::engine::game::Game;
use pbem::engine::{process, verify};
use std::time::{Duration, Instant};

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let median = samples[samples.len() / 2];
    println!(
        "{name}: median {:.2} ms over {} runs (min {:.2} ms, max {:.2} ms)",
        median.as_secs_f64() * 1e3,
        samples.len(),
        samples[0].as_secs_f64() * 1e3,
        samples[samples.len() - 1].as_secs_f64() * 1e3
    );
}

fn main() {
    if !measuring() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let keys = kummen_keys();
    let game_dir = tmp.path().join("game");
    new_kummen(&game_dir, &keys, None);
    // Play setup, then stand before the B1 step (movement and first combat) with its orders in.
    submit_all(&game_dir, &keys, tmp.path());
    process::process(&game_dir).unwrap();
    submit_all(&game_dir, &keys, tmp.path());

    let runs = 30;
    let mut samples = Vec::new();
    for i in 0..runs {
        let copy = tmp.path().join(format!("p{i}"));
        copy_dir(&game_dir, &copy);
        let start = Instant::now();
        process::process(&copy).unwrap();
        samples.push(start.elapsed());
    }
    report(
        "process (one kummen step: B1, movement to first combat)",
        samples,
    );

    // Dougram: the Lib player-turn of turn 1 (arming, movement, a combat, latency, Fed card phase).
    let dkeys = keys_for("dougram");
    let dougram = tmp.path().join("dougram");
    new_game("dougram", &dougram, &dkeys, None);
    submit_all(&dougram, &dkeys, tmp.path());
    process::process(&dougram).unwrap();
    submit_all(&dougram, &dkeys, tmp.path());
    let mut samples = Vec::new();
    for i in 0..runs {
        let copy = tmp.path().join(format!("d{i}"));
        copy_dir(&dougram, &copy);
        let start = Instant::now();
        process::process(&copy).unwrap();
        samples.push(start.elapsed());
    }
    report(
        "process (one dougram step: Lib turn 1, scripted orders)",
        samples,
    );

    // Verify a game played through every scripted step.
    let played = tmp.path().join("p0");
    loop {
        let game = Game::open(&played).unwrap();
        let Some(step) = game.open_step() else { break };
        if step
            .waiting_for
            .iter()
            .any(|s| pbem::engine::demo::scripted("kummen", step.step, s).is_none())
        {
            break;
        }
        submit_all(&played, &keys, tmp.path());
        process::process(&played).unwrap();
    }
    let records = Game::open(&played).unwrap().records.len();
    let mut samples = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        verify::verify(
            &played,
            &verify::Options {
                player_files: vec![],
                public_only: false,
                full: true,
            },
        )
        .unwrap();
        samples.push(start.elapsed());
    }
    report(
        &format!("verify (full, {records} records incl. replay)"),
        samples,
    );
}
