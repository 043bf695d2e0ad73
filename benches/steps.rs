//! `pbem process` of one step, run as a process, against its floor measured in the same run; the
//! same step after 300 more journal records (pauses and resumes, which change nothing else), so
//! the cost of a journal's length shows alone; a late step of a long game; and
//! `pbem verify --full` in steps per second.
//!
//! Run with `cargo bench --bench steps`. Set `PBEM_BENCH_PBEM=/path/to/pbem` to measure another
//! build beside this one (each binary plays its own games through its own command line, so an
//! older release is measured on games it can read). Figures are printed, never asserted; the
//! machine is noisy, so what counts is the median and its ratio to the floor of the same run
//! (docs/performance.md). `PBEM_BENCH_KEEP=DIR` keeps a copy of each measured game, its step
//! ready to process, for a profiler.
//!
//! The floor is what no implementation of a step can avoid: starting a process, reading the
//! game's configuration, the open step's orders and the journal head, checking each order's
//! signature, hashing them, and one atomic commit (write, fsync, rename, fsync of the folder).
//! The bench binary runs it by starting itself again with `PBEM_BENCH_FLOOR=DIR`.

mod common;

use common::{copy_dir, copy_dir_as_is, measuring};
use pbem::engine::config::GameConfig;
use pbem::protocol::{envelope, hash};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 31;

/// Pause and resume pairs that lengthen a journal without changing its game.
const LONG_PAIRS: usize = 150;

fn main() {
    if let Some(dir) = std::env::var_os("PBEM_BENCH_FLOOR") {
        floor(Path::new(&dir));
        return;
    }
    if !measuring() {
        return;
    }
    let mut builds = vec![(
        "this build".to_string(),
        PathBuf::from(env!("CARGO_BIN_EXE_pbem")),
    )];
    if let Some(other) = std::env::var_os("PBEM_BENCH_PBEM") {
        builds.push((format!("{}", Path::new(&other).display()), other.into()));
    }
    let tmp = tempfile::tempdir().unwrap();
    // Each build's game played by the bots, verified by every build side by side at the end.
    let mut demos = Vec::new();
    for (name, pbem) in &builds {
        println!("== {name}");
        let play = Player::new(pbem, tmp.path(), name);
        for (system, label) in [
            ("kummen", "kummen step 2 (B1: movement, first combat)"),
            ("dougram", "dougram step 2 (Lib player-turn 1)"),
        ] {
            let game = play.new_game(system);
            play.steps(&game, system, 1);
            play.submit_open_step(&game, system);
            compare(label, &game, pbem);
            if system == "kummen" {
                // The same step with the same state and orders after a journal 100 times as
                // long: pauses and resumes add records and change nothing else, so any
                // difference is what the journal's length costs.
                let long = game.with_extension("long");
                copy_dir(&game, &long);
                for _ in 0..LONG_PAIRS {
                    play.run(&["pause", long.to_str().unwrap(), "--reason", "bench"]);
                    play.run(&["resume", long.to_str().unwrap(), "--reason", "bench"]);
                }
                compare(
                    &format!("kummen step 2 after {} host records", 2 * LONG_PAIRS),
                    &long,
                    pbem,
                );
            }
        }
        // A step late in a long game: its cost must not grow with the game's length. (The
        // game is played with the demo script and fresh dice, so it may end early; then the
        // latest step before the end is measured.)
        let game = play.new_game("kummen");
        let mut played = 0;
        while played < 20 {
            let before = game.with_extension("before");
            let _ = std::fs::remove_dir_all(&before);
            copy_dir(&game, &before);
            if play.steps(&game, "kummen", 1) == 0 {
                break;
            }
            if play.status(&game)["finished"].as_bool().unwrap() {
                std::fs::remove_dir_all(&game).unwrap();
                std::fs::rename(&before, &game).unwrap();
                break;
            }
            played += 1;
        }
        play.submit_open_step(&game, "kummen");
        compare(
            &format!("kummen step {} (after {played} steps)", played + 1),
            &game,
            pbem,
        );
        play.steps(&game, "kummen", 1);
        // verify --full of a whole game, in replayed steps per second.
        play.steps(&game, "kummen", 100);
        verify_speed(pbem, &game, "kummen game (scripted, then empty orders)");
        // A game the bots played: combats every turn, so heavier steps to replay.
        let demo = play.dir.join("demo");
        let _ = std::fs::remove_dir_all(&demo);
        play.run(&["demo", "kummen", "--keep", demo.to_str().unwrap()]);
        verify_speed(
            pbem,
            &demo.join("game"),
            "kummen game played by the bots (pbem demo)",
        );
        demos.push((name.clone(), demo.join("game")));
    }
    // The builds above are timed one after the other, and a shared machine drifts between
    // them; verify runs of the builds interleaved on one game compare them fairly.
    if builds.len() > 1 {
        println!("== verify --full side by side (runs interleaved on the same game)");
        for (played_by, game) in &demos {
            verify_side_by_side(&builds, game, played_by);
        }
    }
}

/// Times `pbem verify --full` of `game` by each build that verifies it, 15 rounds of one run
/// per build (the order turning each round), and prints each build's median.
fn verify_side_by_side(builds: &[(String, PathBuf)], game: &Path, played_by: &str) {
    let records = std::fs::read_dir(game.join("journal")).unwrap().count();
    let able: Vec<&(String, PathBuf)> = builds
        .iter()
        .filter(|(_, pbem)| {
            Command::new(pbem)
                .args(["verify", "--full", game.to_str().unwrap()])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); able.len()];
    for round in 0..15 {
        for k in 0..able.len() {
            let k = (k + round) % able.len();
            samples[k].push(time(
                &able[k].1,
                &["verify", "--full", game.to_str().unwrap()],
            ));
        }
    }
    for ((name, _), samples) in able.iter().zip(samples) {
        let median = median(samples);
        println!(
            "verify --full of the {records}-record bots' game {played_by} played, by {name}: median {:.1} ms, {:.0} steps/s",
            ms(median),
            (records - 1) as f64 / median.as_secs_f64()
        );
    }
}

/// Times the floor and `pbem process` on fresh copies of `game`, interleaved.
fn compare(label: &str, game: &Path, pbem: &Path) {
    // As a host finds a game when its last order arrives: the submits came minutes after the
    // previous step, so the command before `process` found `journal/` settled and remembered
    // it (a game whose last record is under two seconds old is listed again by every
    // command).
    std::thread::sleep(Duration::from_millis(2100));
    settle_journal(game, pbem);
    // PBEM_BENCH_KEEP=DIR keeps each measured game (its step ready to process) for profiling.
    if let Some(keep) = std::env::var_os("PBEM_BENCH_KEEP") {
        let slug: String = label.split(" (").next().unwrap().replace(' ', "-");
        copy_dir_as_is(game, &Path::new(&keep).join(slug));
    }
    let me = std::env::current_exe().unwrap();
    let (mut floor, mut process) = (Vec::new(), Vec::new());
    let scratch = game.with_extension("runs");
    for i in 0..RUNS {
        let copy = scratch.join(format!("f{i}"));
        copy_dir_as_is(game, &copy);
        let p_copy = scratch.join(format!("p{i}"));
        copy_dir_as_is(game, &p_copy);
        // The copies are written to disk before anything is timed: `process` flushes the
        // game's filesystem once per batch (syncfs), which would otherwise pay for writing
        // the freshly copied game too, a cost no real step has.
        settle();
        if i == 0 {
            // ext4 passes over the files freed in the last 30 seconds (dirty_expire_centisecs,
            // plus 5 s while their inode table is unwritten) each time it creates one
            // (`recently_deleted`), so a step timed right after the bench deleted thousands of
            // files (the previous game's copies, a game's scratch copies) pays for them: 14.6
            // against 8.6 ms for a dougram step. A host's step follows the game's previous
            // one by minutes.
            std::thread::sleep(Duration::from_secs(36));
        }
        let start = Instant::now();
        let ok = Command::new(&me)
            .env("PBEM_BENCH_FLOOR", &copy)
            .status()
            .unwrap()
            .success();
        floor.push(start.elapsed());
        assert!(ok, "the floor program failed");
        process.push(time(pbem, &["process", p_copy.to_str().unwrap()]));
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    let (f, p) = (median(floor), median(process));
    println!(
        "{label}: process {:.2} ms, floor {:.2} ms, ratio {:.1}",
        ms(p),
        ms(f),
        p.as_secs_f64() / f.as_secs_f64()
    );
}

/// Times `pbem verify --full` of `game`, 9 times, and prints the median in replayed steps a
/// second.
fn verify_speed(pbem: &Path, game: &Path, what: &str) {
    let records = std::fs::read_dir(game.join("journal")).unwrap().count();
    let samples: Vec<Duration> = (0..9)
        .map(|_| time(pbem, &["verify", "--full", game.to_str().unwrap()]))
        .collect();
    let median = median(samples);
    println!(
        "verify --full of a {records}-record {what}: median {:.1} ms, {:.0} steps/s",
        ms(median),
        (records - 1) as f64 / median.as_secs_f64()
    );
}

/// Lets a read-only command open `game`, which stores the journal summary with `journal/`
/// remembered as listed clean.
fn settle_journal(game: &Path, pbem: &Path) {
    time(pbem, &["status", game.to_str().unwrap()]);
}

/// Writes every dirty page of the machine to disk (`sync`), outside any timed part.
fn settle() {
    let ok = Command::new("sync").status().is_ok_and(|s| s.success());
    assert!(ok, "sync failed");
}

fn time(pbem: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let out = Command::new(pbem).args(args).output().unwrap();
    let took = start.elapsed();
    assert!(
        out.status.success(),
        "pbem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The floor of one step (see the module comment).
fn floor(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("game.yaml")).unwrap();
    let config: GameConfig = pbem::yaml::parse(&text, "game.yaml").unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir.join("inbox"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    let mut digest = Vec::new();
    for path in names {
        let side = path.file_stem().unwrap().to_string_lossy()[7..].to_string();
        let bytes = std::fs::read(&path).unwrap();
        let signed = envelope::open_embedded(&bytes).unwrap();
        let key = &config.seat(&side).unwrap().key;
        envelope::verify(&signed, key, envelope::ORDER_NAMESPACE).unwrap();
        digest.extend_from_slice(&signed.document_hash().0);
    }
    let journal = dir.join("journal");
    let head = (0..)
        .map(|n| journal.join(format!("{n:06}.yaml")))
        .take_while(|p| p.exists())
        .last()
        .unwrap();
    digest.extend_from_slice(&hash::sha256(&std::fs::read(head).unwrap()).0);
    // One atomic commit of a record-sized file.
    let record = hash::sha256(&digest).hex().repeat(40);
    pbem::engine::dir::write_atomic(&dir.join("host/floor.yaml"), record.as_bytes()).unwrap();
}

/// Plays games through one pbem binary's command line, as a host and its players would.
struct Player {
    pbem: PathBuf,
    dir: PathBuf,
}

impl Player {
    fn new(pbem: &Path, tmp: &Path, name: &str) -> Player {
        let dir = tmp.join(hash::sha256(name.as_bytes()).hex());
        std::fs::create_dir_all(&dir).unwrap();
        Player {
            pbem: pbem.to_path_buf(),
            dir,
        }
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new(&self.pbem).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "pbem {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    fn key(&self, side: &str) -> PathBuf {
        self.dir.join("keys").join(side)
    }

    fn new_game(&self, system: &str) -> PathBuf {
        let game = self.dir.join(system);
        let mut args = vec![
            "new".to_string(),
            game.to_str().unwrap().into(),
            "--system".into(),
            system.into(),
            "--id".into(),
            "bench".into(),
        ];
        for side in pbem::systems::by_id(system).unwrap().sides() {
            if !self.key(&side).exists() {
                self.run(&["keygen", "--out", self.key(&side).to_str().unwrap()]);
            }
            args.push("--seat".into());
            args.push(format!("{side}={}.pub", self.key(&side).display()));
        }
        let _ = std::fs::remove_dir_all(&game);
        self.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        game
    }

    fn status(&self, game: &Path) -> serde_json::Value {
        serde_json::from_str(&self.run(&["status", game.to_str().unwrap(), "--json"])).unwrap()
    }

    /// Signs and submits the demo script's orders (or empty ones) for the open step.
    fn submit_open_step(&self, game: &Path, system: &str) {
        let st = self.status(game);
        let step = st["step"].as_u64().unwrap();
        for side in st["waiting_for"].as_array().unwrap() {
            let side = side.as_str().unwrap();
            let template = self.run(&["template", game.to_str().unwrap(), "--side", side]);
            let head = &template[..template.find("\norders:").unwrap() + 1];
            let body: String = pbem::engine::demo::scripted(system, step, side)
                .unwrap_or("{}")
                .lines()
                .map(|l| format!("  {l}\n"))
                .collect();
            let file = self.dir.join(format!("{system}-{step}-{side}.yaml"));
            std::fs::write(&file, format!("{head}orders:\n{body}")).unwrap();
            let signed = file.with_extension("signed.yaml");
            self.run(&[
                "sign",
                file.to_str().unwrap(),
                "--key",
                self.key(side).to_str().unwrap(),
                "--out",
                signed.to_str().unwrap(),
            ]);
            self.run(&["submit", game.to_str().unwrap(), signed.to_str().unwrap()]);
        }
    }

    /// Plays up to `n` steps (fewer when the game ends); returns how many were played.
    fn steps(&self, game: &Path, system: &str, n: u64) -> u64 {
        for played in 0..n {
            if self.status(game)["finished"].as_bool().unwrap() {
                return played;
            }
            self.submit_open_step(game, system);
            self.run(&["process", game.to_str().unwrap()]);
        }
        n
    }
}
