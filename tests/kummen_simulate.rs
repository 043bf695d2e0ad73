//! kummen played bot against bot by `pbem simulate` (issue 12): a small run of the figures
//! docs/kummen.md "Simulated play" gives for 200 games.

mod common;
use common::*;

/// The JSON report of 20 games, played once for all the tests of this file (they run in
/// parallel; the second waits for the first's run).
fn twenty_games() -> &'static serde_json::Value {
    static REPORT: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    REPORT.get_or_init(|| {
        serde_json::from_str(&ok(&["simulate", "kummen", "--games", "20", "--json"])).unwrap()
    })
}

#[test]
fn every_rule_the_resolver_fires_is_a_row_of_the_coverage_table() {
    let r = twenty_games();
    assert_eq!(r["rule_reach"]["unlisted"], serde_json::json!([]), "{r}");
    assert_eq!(r["errors"], 0, "{r}");
}

#[test]
fn twenty_games_reach_most_rules_both_sides_win_and_none_ends_in_its_first_two_turns() {
    let r = twenty_games();
    let reached = r["rule_reach"]["reached"].as_u64().unwrap();
    let total = r["rule_reach"]["total"].as_u64().unwrap();
    // 200 games reach 133 of 145 (docs/kummen.md "Simulated play"); 20 games nearly as many.
    assert!(reached * 100 >= total * 80, "{reached} of {total}: {r}");
    for side in ["mercenary", "beeler"] {
        assert!(r["wins"][side].as_u64().unwrap_or(0) > 0, "{side}: {r}");
    }
    assert_eq!(r["ended_by_turn_2"], 0, "{r}");
}

#[test]
fn no_rule_the_doc_lists_as_unreached_fires_in_simulated_play() {
    let r = twenty_games();
    let unreached = coverage::unreached_in_simulation("docs/kummen.md");
    assert!(unreached.len() >= 5, "the table was read: {unreached:?}");
    for rule in &unreached {
        assert!(
            r["rule_reach"]["rules"][rule] == 0,
            "{rule} fired in simulated play, so docs/kummen.md must not list it as unreached: {r}"
        );
    }
}
