//! Wall time of `process --all` (engine::sweep) over many games.
//!
//! Run with `cargo bench --bench sweep`. One kummen game is made with the library and copied:
//! 10,000 copies of which none is due (no orders in, deadline ahead), then 1,000 copies with
//! every order of step 1 in (all due). Figures are printed, never asserted. Set
//! PBEM_BENCH_IDLE / PBEM_BENCH_DUE to change the counts.

mod common;

use common::{copy_dir, kummen_keys, measuring, new_kummen, submit_all};
use pbem::engine::config::DeadlineConfig;
use pbem::engine::game::Game;
use pbem::engine::mail;
use pbem::engine::sweep::{self, Outcome};
use std::path::Path;
use std::time::Instant;

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run(name: &str, root: &Path, now: jiff::Timestamp, games: usize) {
    let opts = sweep::Options {
        now,
        catch_up: false,
        max_late: "6h".parse::<pbem::engine::config::Duration>().unwrap().0,
    };
    let start = Instant::now();
    let entries = sweep::sweep(root, &opts).unwrap();
    let took = start.elapsed();
    let processed = entries
        .iter()
        .filter(|e| e.outcome == Outcome::Processed)
        .count();
    let failed: Vec<_> = entries
        .iter()
        .filter(|e| e.outcome == Outcome::Failed)
        .take(3)
        .map(|e| e.detail.clone())
        .collect();
    println!(
        "{name}: {games} games, {processed} processed, in {:.2} s ({:.3} ms per game){}",
        took.as_secs_f64(),
        took.as_secs_f64() * 1e3 / games as f64,
        if failed.is_empty() {
            String::new()
        } else {
            format!("; FAILURES: {failed:?}")
        }
    );
}

fn main() {
    if !measuring() {
        return;
    }
    let idle_n = count("PBEM_BENCH_IDLE", 10_000);
    let due_n = count("PBEM_BENCH_DUE", 1_000);
    let tmp = tempfile::tempdir().unwrap();
    let t0: jiff::Timestamp = "2026-05-01T10:00:00Z".parse().unwrap();
    let keys = kummen_keys();
    let proto = tmp.path().join("proto");
    let deadline = DeadlineConfig {
        step: Some("72h".parse().unwrap()),
        at: None,
        tz: None,
        grace: None,
        remind_before: None,
    };
    new_kummen(&proto, &keys, Some(deadline));
    mail::clock::record_opened(&Game::open(&proto).unwrap().dir, 1, t0).unwrap();

    // None due: no orders in, deadline 72h ahead.
    let idle = tmp.path().join("idle");
    let start = Instant::now();
    for i in 0..idle_n {
        copy_dir(&proto, &idle.join(format!("g{i:05}")));
    }
    println!(
        "(made {idle_n} idle games in {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let now = t0.checked_add(jiff::SignedDuration::from_hours(1)).unwrap();
    run("process --all, none due (cold-ish)", &idle, now, idle_n);
    run("process --all, none due (again)", &idle, now, idle_n);

    // All due: both orders of step 1 in the inbox (submitted through engine::order::submit).
    submit_all(&proto, &keys, tmp.path());
    let due = tmp.path().join("due");
    for i in 0..due_n {
        copy_dir(&proto, &due.join(format!("g{i:05}")));
    }
    run("process --all, all due", &due, now, due_n);
}
