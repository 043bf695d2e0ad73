//! The host's parsed copy of its journal (host/journal-cache.json, engine::game): opening a game
//! reads only the records added since, and a cache that does not end with the journal's head
//! record is never used.

mod common;
use common::*;

fn cache(t: &Table) -> std::path::PathBuf {
    t.game.join("host/journal-cache.json")
}

#[test]
fn the_cache_follows_the_journal_as_steps_are_played() {
    let t = Table::kummen();
    t.play_step(&[]);
    t.play_step(&[]);
    let cached: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cache(&t)).unwrap()).unwrap();
    assert_eq!(cached["records"].as_array().unwrap().len(), 3);
    assert_eq!(
        cached["records"][2][1].as_str(),
        Some(t.head().as_str()),
        "the cache ends with the head"
    );
}

#[test]
fn a_cache_that_does_not_end_with_the_head_record_is_not_used() {
    let t = Table::kummen();
    t.play_step(&[]);
    let head = t.head();
    // A cache of another history: the last record's hash is not that of journal/000001.yaml.
    let mut cached: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cache(&t)).unwrap()).unwrap();
    cached["records"][1][0]["step"]["title"] = "forged".into();
    cached["records"][1][1] = "00".repeat(32).into();
    std::fs::write(cache(&t), serde_json::to_vec(&cached).unwrap()).unwrap();
    let report = ok(&["report", t.dir()]);
    assert!(!report.contains("forged"), "{report}");
    assert_eq!(t.head(), head);
    t.play_step(&[]);
    ok(&["verify", "--full", t.dir()]);
}

#[test]
fn a_damaged_cache_is_rebuilt_from_the_journal() {
    let t = Table::dougram();
    t.play_step(&[]);
    std::fs::write(cache(&t), b"{not json").unwrap();
    assert_eq!(t.step(), 2);
    let cached: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cache(&t)).unwrap()).unwrap();
    assert_eq!(cached["records"].as_array().unwrap().len(), 2);
}
