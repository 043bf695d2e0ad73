//! Wall time of `process --all` (engine::sweep) over many games.
//!
//! Run with `cargo bench --bench sweep`. One kummen game is made with the library and copied,
//! each copy under its own game id (so that no two games share a journal record, as in real
//! life, and nothing parsed for one game serves another): 10,000 copies at step 1 of which none
//! is due (no orders in, deadline ahead), 2,000 copies of a game at step 30, none due, then
//! 1,000 plain copies with every order of step 1 in (all due; an order is signed for its game's
//! id, so these keep it). Figures are printed, never asserted.
//! Set PBEM_BENCH_IDLE / PBEM_BENCH_LONG / PBEM_BENCH_DUE to change the counts.

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
    let long_n = count("PBEM_BENCH_LONG", 2_000);
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
    new_kummen(&proto, &keys, Some(deadline.clone()));
    mail::clock::record_opened(&Game::open(&proto).unwrap().dir, 1, t0).unwrap();

    // None due: no orders in, deadline 72h ahead.
    let idle = tmp.path().join("idle");
    let start = Instant::now();
    for i in 0..idle_n {
        copy_as(&proto, &idle.join(format!("g{i:05}")), i);
    }
    println!(
        "(made {idle_n} idle games in {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let now = t0.checked_add(jiff::SignedDuration::from_hours(1)).unwrap();
    run(
        "process --all, none due, step 1 (cold-ish)",
        &idle,
        now,
        idle_n,
    );
    run(
        "process --all, none due, step 1 (again)",
        &idle,
        now,
        idle_n,
    );
    std::fs::remove_dir_all(&idle).unwrap();

    // None due at step 30: a long game, its next step just opened.
    let long = tmp.path().join("long-proto");
    new_kummen(&long, &keys, Some(deadline.clone()));
    let mut step = 1;
    while step < 30 {
        submit_all(&long, &keys, tmp.path());
        pbem::engine::process::process_at(&long, t0).unwrap();
        step = Game::open(&long)
            .unwrap()
            .open_step()
            .map_or(u64::MAX, |s| s.step);
    }
    let records = Game::open(&long).unwrap().journal.len;
    let long_games = tmp.path().join("long");
    for i in 0..long_n {
        copy_as(&long, &long_games.join(format!("g{i:05}")), i);
    }
    // The first sweep reads every record (the copies' caches name another game) and leaves
    // each game its host/journal-cache.json, as `process` does in real life; the second is the
    // one a host's cron sees.
    for pass in ["first", "again"] {
        run(
            &format!("process --all, none due, {records} records (step 30 or the end), {pass}"),
            &long_games,
            now,
            long_n,
        );
    }
    std::fs::remove_dir_all(&long_games).unwrap();

    // All due: both orders of step 1 in the inbox (submitted through engine::order::submit).
    // Plain copies: an order is signed for its game's id, so these games share their genesis
    // (the one record a due game at step 1 reads before it resolves the step).
    submit_all(&proto, &keys, tmp.path());
    let due = tmp.path().join("due");
    for i in 0..due_n {
        copy_dir(&proto, &due.join(format!("g{i:05}")));
    }
    run("process --all, all due", &due, now, due_n);
}

/// A copy of the game in `from` under the id `bench-N`: every file that names the id says the
/// new one, so no record of one copy is byte-identical to another's. (The copies' hash chains
/// do not verify; a sweep does not verify.)
fn copy_as(from: &Path, to: &Path, n: usize) {
    copy_dir(from, to);
    let id = format!("bench-{n:05}");
    let mut files = vec![to.join("game.yaml")];
    for entry in std::fs::read_dir(to.join("journal")).unwrap().flatten() {
        files.push(entry.path());
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let text = text
            .replace("id: bench\n", &format!("id: {id}\n"))
            .replace("game: bench\n", &format!("game: {id}\n"));
        std::fs::write(&file, text).unwrap();
    }
}
