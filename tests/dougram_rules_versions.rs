//! Dougram's rules 3 (issue 12): a game begun under dougram rules 2 is carried over by `pbem
//! host upgrade`, with the rules-3 cards (conditions for their use, 2.10) in its new data, and
//! plays on; `verify --full` notes the rules-2 steps and replays the rules-3 ones against the
//! data each was resolved with.
//!
//! The fixture tests/fixtures/rules2-dougram is a setup2 game made by pbem at the commit before
//! rules 3 (dougram rules 2): setup and turn 1 with empty orders, open at step 4, with the
//! players' keys.

mod common;
use common::*;

fn rules2_dougram() -> Table {
    fixture_table("rules2-dougram", "dougram-rules2", 0)
}

fn record(t: &Table, seq: u64) -> serde_json::Value {
    let path = t.game.join(format!("journal/{seq:06}.yaml"));
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn card(data: &serde_json::Value, no: u64) -> serde_json::Value {
    data["cards"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["no"].as_u64() == Some(no))
        .cloned()
        .unwrap()
}

#[test]
fn a_rules_2_game_is_upgraded_with_the_rules_3_cards_and_plays_on_2_10() {
    let t = rules2_dougram();
    let old = std::fs::read(t.game.join("data.yaml")).unwrap();
    let (code, _, err) = run(&["process", t.dir()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("this game runs dougram rules 2"), "{err}");

    let out = ok(&["host", "upgrade", t.dir(), "--reason", "issue 12 fixes"]);
    assert!(out.contains("from rules 2 to rules 3"), "{out}");
    // The data the rules-2 steps were resolved with stays public, named by the record that
    // pinned it (genesis).
    assert_eq!(std::fs::read(t.game.join("data/000000.yaml")).unwrap(), old);
    let data: serde_json::Value =
        serde_saphyr::from_str(&std::fs::read_to_string(t.game.join("data.yaml")).unwrap())
            .unwrap();
    let peace = card(&data, 77);
    assert!(
        peace["requires"].as_array().is_some_and(|r| !r.is_empty()),
        "card 77 has its rules-3 conditions: {peace}"
    );
    let upgrade = record(&t, 4);
    assert_eq!(upgrade["host_op"]["op"].as_str(), Some("upgrade"));

    // Lib's turn 2 and Fed's turn 2 under rules 3.
    t.play_step(&[]);
    t.play_step(&[]);
    assert_eq!(record(&t, 5)["step"]["rules"].as_u64(), Some(3));
    assert_eq!(record(&t, 6)["step"]["rules"].as_u64(), Some(3));
    // A card whose conditions fail is refused at submit (2.10): Fed may not open the peace
    // talks on turn 2.
    if t.status()["waiting_for"][0].as_str() == Some("lib") {
        let doc = t.order("lib", "orders: {}\n");
        let f = t.signed("lib", "s7", &doc);
        assert_eq!(t.submit(&f).0, 0);
        ok(&["process", t.dir()]);
    }
    let doc = t.order("fed", "orders:\n  play: [{card: 77}]\n");
    let f = t.signed("fed", "peace", &doc);
    let (code, _, err) = t.submit(&f);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("rule: 2.10"), "{err}");

    let out = ok(&["verify", "--full", t.dir()]);
    for seq in 1..=3 {
        assert!(
            out.contains(&format!(
                "not replayed: journal/{seq:06}.yaml was resolved by dougram rules 2"
            )),
            "{out}"
        );
    }
    assert!(!out.contains("journal/000005.yaml"), "{out}");
    assert!(out.contains("steps replayed from host"), "{out}");
    assert!(!out.contains(" 0 steps replayed from host"), "{out}");
}
