//! `pbem simulate` (issue 12): whole bot-against-bot games through the check and step functions
//! of real games, reported as text or one JSON object.

mod common;
use common::*;

fn simulate_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(&ok(&all)).unwrap()
}

#[test]
fn simulate_reports_wins_turns_endings_errors_and_rule_reach_as_json() {
    for system in ["kummen", "dougram"] {
        let r = simulate_json(&[system, "--games", "3"]);
        assert_eq!(r["games"], 3, "{r}");
        let wins: u64 = r["wins"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(wins, 3, "{r}");
        let endings: u64 = r["endings"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(endings, 3, "{r}");
        assert!(r["endings"].get("none").is_none(), "every game ends: {r}");
        assert_eq!(r["errors"], 0, "{r}");
        let t = &r["turns"];
        assert!(
            t["min"].as_u64() <= t["median"].as_u64() && t["median"].as_u64() <= t["max"].as_u64()
        );
        assert!(t["min"].as_u64().unwrap() >= 1, "{r}");
        let reach = &r["rule_reach"];
        let rules = reach["rules"].as_object().unwrap();
        assert_eq!(reach["total"].as_u64().unwrap() as usize, rules.len());
        assert!(rules.len() > 100, "{system}: {} leaf rules", rules.len());
        let reached = rules.values().filter(|n| n.as_u64().unwrap() > 0).count();
        assert_eq!(reach["reached"].as_u64().unwrap() as usize, reached);
    }
}

#[test]
fn the_same_seed_plays_the_same_games() {
    let a = ok(&[
        "simulate", "dougram", "--games", "2", "--seed", "7", "--json",
    ]);
    let b = ok(&[
        "simulate", "dougram", "--games", "2", "--seed", "7", "--json",
    ]);
    assert_eq!(a, b);
}

#[test]
fn the_text_report_names_the_figures_a_reader_looks_for() {
    let out = ok(&["simulate", "kummen", "--games", "2"]);
    for line in [
        "2 games of kummen (campaign), seed 1",
        "wins:",
        "turns: min",
        "endings:",
        "errors: 0",
        "rule reach:",
    ] {
        assert!(out.contains(line), "{line:?} missing:\n{out}");
    }
}

#[test]
fn an_unknown_scenario_is_refused_with_the_scenarios_there_are() {
    let (code, _, err) = run(&["simulate", "dougram", "--scenario", "nope", "--games", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("dougram has no scenario \"nope\"") && err.contains("setup1"),
        "{err}"
    );
}

#[test]
fn zero_games_is_a_usage_error() {
    let (code, _, err) = run(&["simulate", "kummen", "--games", "0"]);
    assert_eq!(code, 2, "{err}");
}
