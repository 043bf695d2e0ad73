//! What both benchmarks need: the `cargo bench` guard, a game with fresh keys, scripted
//! orders, and copies of a prepared game directory.
#![allow(dead_code)] // each bench uses its own part

use pbem::engine::config::DeadlineConfig;
use pbem::engine::demo::{order_document, scripted};
use pbem::engine::game::Game;
use pbem::engine::new::{NewGame, create};
use pbem::engine::order;
use pbem::protocol::keys::SecretKey;
use std::path::Path;

/// `cargo test --all-targets` runs bench binaries too, without `--bench`: measuring belongs to
/// `cargo bench` alone, so under the test run a benchmark only proves that it builds.
pub fn measuring() -> bool {
    let yes = std::env::args().any(|a| a == "--bench");
    if !yes {
        println!("benchmark skipped: run it with `cargo bench`");
    }
    yes
}

/// A fresh key for each side of `system`.
pub fn keys_for(system: &str) -> Vec<(String, SecretKey)> {
    pbem::systems::by_id(system)
        .unwrap()
        .sides()
        .iter()
        .map(|s| (s.clone(), SecretKey::generate(s).unwrap()))
        .collect()
}

/// A fresh key for each kummen side.
pub fn kummen_keys() -> Vec<(String, SecretKey)> {
    keys_for("kummen")
}

/// A kummen game with id `bench` in `dir`.
pub fn new_kummen(dir: &Path, keys: &[(String, SecretKey)], deadline: Option<DeadlineConfig>) {
    new_game("kummen", dir, keys, deadline);
}

/// A game of `system` with id `bench` in `dir`.
pub fn new_game(
    system: &str,
    dir: &Path,
    keys: &[(String, SecretKey)],
    deadline: Option<DeadlineConfig>,
) {
    create(NewGame {
        dir: dir.to_path_buf(),
        system: system.into(),
        scenario: None,
        seats: keys.iter().map(|(s, k)| (s.clone(), k.public())).collect(),
        names: vec![],
        emails: vec![],
        id: Some("bench".into()),
        data: None,
        mail: Default::default(),
        deadline,
    })
    .unwrap();
}

/// Submits the demo script's orders (or empty orders) for every side the open step waits for.
pub fn submit_all(dir: &Path, keys: &[(String, SecretKey)], tmp: &Path) {
    let game = Game::open(dir).unwrap();
    let step = game.open_step().unwrap().clone();
    for side in &step.waiting_for {
        let body = scripted(&game.config.system, step.step, side).unwrap_or("{}");
        let doc = order_document(&game, side, body).unwrap();
        let key = &keys.iter().find(|(s, _)| s == side).unwrap().1;
        let file = tmp.join(format!("{}-{side}.yaml", step.step));
        std::fs::write(&file, order::sign(doc.as_bytes(), key).unwrap()).unwrap();
        order::submit(&game, &file, None).unwrap();
    }
}

/// Copies `from` to `to` keeping every file's and folder's modification time, as a game left
/// alone looks to the next command (a stored journal summary remembers when `journal/` was last
/// listed clean; a copy with fresh times would make the next command list it again).
pub fn copy_dir_as_is(from: &Path, to: &Path) {
    copy_tree(from, to, true);
}

pub fn copy_dir(from: &Path, to: &Path) {
    copy_tree(from, to, false);
}

fn copy_tree(from: &Path, to: &Path, keep_times: bool) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_tree(&e.path(), &target, keep_times);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
            if keep_times {
                keep_time(&e.path(), &target);
            }
        }
    }
    if keep_times {
        keep_time(from, to);
    }
}

fn keep_time(from: &Path, to: &Path) {
    let modified = std::fs::metadata(from).unwrap().modified().unwrap();
    std::fs::File::open(to)
        .unwrap()
        .set_modified(modified)
        .unwrap();
}
