//! Rules versions (issue 11 item 1): a game records the rules that resolved each step, a host
//! moves a running game to new rules only by a journaled `pbem host upgrade`, and `verify`
//! replays what this pbem's rules resolved and says which steps need another pbem.

mod common;
use common::*;

fn record(t: &Table, seq: u64) -> serde_json::Value {
    let path = t.game.join(format!("journal/{seq:06}.yaml"));
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn this_rules(system: &str) -> u64 {
    pbem::systems::by_id(system).unwrap().rules_version() as u64
}

#[test]
fn genesis_records_the_pbem_release_and_the_rules_version_the_game_starts_with() {
    let t = Table::kummen();
    let genesis = record(&t, 0);
    assert_eq!(genesis["pbem"].as_str(), Some("journal/3"));
    assert_eq!(
        genesis["genesis"]["pbem_version"].as_str(),
        Some(pbem::PBEM_VERSION)
    );
    assert_eq!(
        genesis["genesis"]["rules"].as_u64(),
        Some(this_rules("kummen"))
    );
}

#[test]
fn every_step_record_names_the_rules_version_that_resolved_it() {
    let t = Table::dougram();
    t.play_step(&[]);
    assert_eq!(
        record(&t, 1)["step"]["rules"].as_u64(),
        Some(this_rules("dougram"))
    );
}

#[test]
fn upgrading_a_game_that_already_runs_this_pbems_rules_is_refused() {
    let t = Table::kummen();
    let (code, _, err) = run(&["host", "upgrade", t.dir(), "--reason", "new release"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("already runs kummen rules"), "{err}");
    assert!(!t.game.join("journal/000001.yaml").exists());
}

#[test]
fn verify_finds_a_step_record_claiming_other_rules_than_the_game_ran() {
    let t = Table::kummen();
    t.play_step(&[]);
    let path = t.game.join("journal/000001.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let rules = format!("  rules: {}\n", this_rules("kummen"));
    assert!(text.contains(&rules), "{text}");
    std::fs::write(&path, text.replace(&rules, "  rules: 7\n")).unwrap();
    let (code, out, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        err.contains("journal/000001.yaml: step.rules: 7, but the game ran rules"),
        "{err}"
    );
}
