//! Wall time of `process` for one kummen step and of `verify` on a played game.
//!
//! Run with `cargo bench --bench steps`. Each sample copies a prepared game directory (orders
//! already in the inbox) and times one call, so every sample does the same work; the median
//! and the spread are printed. Figures belong in issue notes, never in assertions.

use pbem::engine::demo::order_document;
use pbem::engine::game::Game;
use pbem::engine::new::{NewGame, create};
use pbem::engine::{order, process, verify};
use pbem::protocol::keys::SecretKey;
use std::path::Path;
use std::time::{Duration, Instant};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Submits the demo script's orders (or empty orders) for every side the open step waits for.
fn submit_all(dir: &Path, keys: &[(String, SecretKey)], tmp: &Path) {
    let game = Game::open(dir).unwrap();
    let step = game.open_step().unwrap().clone();
    for side in &step.waiting_for {
        let body = pbem::engine::demo::scripted("kummen", step.step, side).unwrap_or("{}");
        let doc = order_document(&game, side, body).unwrap();
        let key = &keys.iter().find(|(s, _)| s == side).unwrap().1;
        let file = tmp.join(format!("{}-{side}.yaml", step.step));
        std::fs::write(&file, order::sign(doc.as_bytes(), key).unwrap()).unwrap();
        order::submit(&game, &file, None).unwrap();
    }
}

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
    // `cargo test --all-targets` runs bench binaries too, without `--bench`: measuring belongs
    // to `cargo bench` alone, so the test run only checks that this builds.
    if !std::env::args().any(|a| a == "--bench") {
        println!("benchmark skipped: run it with `cargo bench`");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let keys: Vec<(String, SecretKey)> = ["mercenary", "beeler"]
        .iter()
        .map(|s| (s.to_string(), SecretKey::generate(s).unwrap()))
        .collect();
    let game_dir = tmp.path().join("game");
    create(NewGame {
        dir: game_dir.clone(),
        system: "kummen".into(),
        scenario: None,
        seats: keys.iter().map(|(s, k)| (s.clone(), k.public())).collect(),
        names: vec![],
        emails: vec![],
        id: Some("bench".into()),
        data: None,
        mail: Default::default(),
        deadline: None,
    })
    .unwrap();
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
