//! The crash-test hooks of src/engine/dir.rs (`PBEM_FAULT_AFTER_WRITES`,
//! `PBEM_FAULT_BEFORE_RENAME`, `PBEM_COUNT_WRITES`, `PBEM_FAULT_DELAY_MS`) exist only in a build
//! with the cargo feature `fault-injection`. This file holds one test per build: scripts/test.sh
//! runs the suite with the feature (the hooks fire) and this file once more without it (the
//! variables do nothing), each time against the `pbem` binary cargo built for that run.

mod common;
use common::*;

/// Runs `pbem new` for a fresh kummen game with every hook variable set to fire at the first
/// write. Returns the process output, the game directory and the write-count file.
fn new_game_with_hooks_armed(
    t: &tempfile::TempDir,
) -> (std::process::Output, std::path::PathBuf, std::path::PathBuf) {
    let keys = t.path().join("keys");
    for side in ["mercenary", "beeler"] {
        ok(&["keygen", "--out", keys.join(side).to_str().unwrap()]);
    }
    let game = t.path().join("game");
    let log = t.path().join("writes.log");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args([
            "new",
            game.to_str().unwrap(),
            "--system",
            "kummen",
            "--seat",
            &format!("mercenary={}", keys.join("mercenary.pub").display()),
            "--seat",
            &format!("beeler={}", keys.join("beeler.pub").display()),
        ])
        .env("PBEM_FAULT_AFTER_WRITES", "1")
        .env("PBEM_FAULT_BEFORE_RENAME", "1")
        .env("PBEM_COUNT_WRITES", &log)
        .env("PBEM_FAULT_DELAY_MS", "60000")
        .output()
        .expect("pbem runs");
    (out, game, log)
}

#[cfg(not(feature = "fault-injection"))]
#[test]
fn without_the_fault_injection_feature_the_hook_variables_do_nothing() {
    let t = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (out, game, log) = new_game_with_hooks_armed(&t);
    assert!(
        out.status.success(),
        "pbem new must finish normally: {out:?}"
    );
    // PBEM_FAULT_DELAY_MS=60000 would have slept a minute after each write.
    assert!(started.elapsed() < std::time::Duration::from_secs(50));
    assert!(!log.exists(), "PBEM_COUNT_WRITES must not be written");
    ok(&["verify", game.to_str().unwrap()]);
}

#[cfg(feature = "fault-injection")]
#[test]
fn with_the_fault_injection_feature_the_hooks_abort_at_the_first_write() {
    // The counterpart, so the test above is known to arm hooks that do exist in a test build:
    // the same command dies (by signal, as std::process::abort does) before its first rename.
    let t = tempfile::tempdir().unwrap();
    let (out, game, _) = new_game_with_hooks_armed(&t);
    assert_eq!(out.status.code(), None, "pbem new must be aborted: {out:?}");
    assert!(!game.join("game.yaml").exists());
}
