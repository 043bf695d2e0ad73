//! `pbem remind` and `pbem send` over a directory of games: a game that cannot be opened is
//! reported on standard error and makes the exit code 1, and every other game is still served.

mod common;
mod smtp;

use common::*;
use smtp::game::mail_table;

/// A kummen game with mail on in `ROOT/game` beside a directory `ROOT/broken` whose game.yaml is
/// not YAML.
fn root_with_a_broken_game() -> (Table, String) {
    let t = mail_table();
    let broken = t.tmp.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("game.yaml"), "[not a game").unwrap();
    let root = t.tmp.path().to_str().unwrap().to_string();
    (t, root)
}

#[test]
fn remind_reports_a_broken_game_and_still_answers_for_the_others() {
    let (_t, root) = root_with_a_broken_game();
    let (code, out, err) = run(&["remind", &root]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.starts_with("pbem: FAILED "), "{err}");
    assert!(err.contains("broken"), "{err}");
    assert!(out.starts_with("kummen-test: "), "{out}");
}

#[test]
fn send_reports_a_broken_game_and_still_delivers_the_others() {
    let (t, root) = root_with_a_broken_game();
    let to = t.tmp.path().join("delivered");
    let (code, out, err) = run(&["send", &root, "--to-dir", to.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{out}");
    assert!(problems[0].as_str().unwrap().contains("broken"), "{out}");
    let deliveries = v["deliveries"].as_array().unwrap();
    assert!(!deliveries.is_empty(), "{out}");
    assert!(deliveries.iter().all(|d| d["error"].is_null()), "{out}");
    assert_eq!(std::fs::read_dir(&to).unwrap().count(), deliveries.len());
}
