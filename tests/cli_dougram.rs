//! Dougram through the CLI, as a host and two players would run it: a whole game with signed
//! orders from setup to a rule-20 victory, concluded and replayed in full from its archive; and
//! the errors a player sees for orders that break a rule.

mod common;
use common::*;
use pbem::engine::game::Game;
use pbem::protocol::hash::Hash32;

/// Plays the demo script (orders/dougram), then the bots for both sides (as `pbem demo` does)
/// until a rule-20 victory; returns the steps played. The script alone never ends a game:
/// Lib holds Andy Mine from turn 1 (23.1), and the victory cards need turn 5 (cards.yaml).
fn play_to_the_end(t: &Table) -> u64 {
    let mut steps = t.play_script("dougram", &["lib", "fed"], 3);
    while !t.status()["finished"].as_bool().unwrap() && steps < 60 {
        let game = Game::open(&t.game).unwrap();
        let step = game.open_step().unwrap().clone();
        let seed = Hash32([step.step as u8; 32]);
        let blocks: Vec<(String, String)> = step
            .waiting_for
            .iter()
            .map(|side| {
                let body = game
                    .system
                    .bot_orders(game.data().unwrap(), &game.state().unwrap(), side, &seed)
                    .unwrap();
                let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
                (side.clone(), format!("orders:\n{indented}"))
            })
            .collect();
        let refs: Vec<(&str, &str)> = blocks
            .iter()
            .map(|(s, b)| (s.as_str(), b.as_str()))
            .collect();
        t.play_step(&refs);
        steps += 1;
    }
    assert!(
        t.status()["finished"].as_bool().unwrap(),
        "over by a rule of 20"
    );
    steps
}

#[test]
fn a_whole_game_reaches_a_rule_20_victory_and_verifies_in_full_from_its_archive() {
    let t = Table::dougram();
    let steps = play_to_the_end(&t);
    assert!(
        steps >= 3,
        "setup, a Lib and a Fed player-turn at least: {steps}"
    );
    let report = ok(&["report", t.dir()]);
    assert!(report.contains("(20."), "{report}");
    assert!(report.contains("the game is over"), "{report}");
    let outcome = t.status()["outcome"].as_str().unwrap().to_string();
    assert!(outcome.contains("wins"), "{outcome}");

    ok(&["conclude", t.dir()]);
    assert!(!t.game.join("archive/host_key").exists());
    // An auditor has the public files and the archive, not the host's directory.
    std::fs::remove_dir_all(t.game.join("host")).unwrap();
    let out = ok(&["verify", "--full", t.dir()]);
    assert!(out.contains("replayed from archive"), "{out}");
    assert!(
        out.contains(&format!("{} orders", steps + 1)),
        "every order (setup has two): {out}"
    );
}

#[test]
fn a_move_into_the_sea_is_refused_naming_line_field_and_rule_9_6() {
    let t = Table::dougram();
    t.play_step(&[]);
    let before = snapshot(&t.game);
    let doc = t.order(
        "lib",
        "orders:\n  movement:\n    moves:\n      - {units: [SO13], path: [87]}\n",
    );
    let f = t.signed("lib", "sea", &doc);
    let (code, _, err) = t.submit(&f);
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains("sea.yaml:11:"),
        "line of the path (after the version line pbem sign adds): {err}"
    );
    assert!(err.contains("orders.movement.moves[0].path[0]"), "{err}");
    assert!(err.contains("rule: 9.6"), "{err}");
    assert!(err.contains("accepted:"), "{err}");
    assert_eq!(snapshot(&t.game), before, "nothing changed");
}

#[test]
fn fed_cannot_arm_in_its_player_turn_4_1() {
    let t = Table::dougram();
    t.play_step(&[]);
    t.play_step(&[]);
    if t.status()["finished"].as_bool().unwrap() {
        return; // 20.3.2 may end a game at the end of turn 1
    }
    let doc = t.order(
        "fed",
        "orders:\n  arming:\n    arm:\n      - {hex: 54, chits: [2], create: [soldier]}\n",
    );
    let f = t.signed("fed", "arm", &doc);
    let (code, _, err) = t.submit(&f);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("rule: 4.1"), "{err}");
}

#[test]
fn a_players_view_shows_its_own_hand_and_latent_values_only_to_whom_they_belong_2_5_2_10() {
    let t = Table::dougram();
    t.play_step(&[]);
    let view = |side: &str| -> serde_json::Value {
        let text = ok(&["view", t.dir(), "--side", side, "--format", "yaml"]);
        serde_saphyr::from_str(&text).unwrap()
    };
    let (lib, fed) = (view("lib"), view("fed"));
    let latent_values = |v: &serde_json::Value| -> Vec<bool> {
        v["board"]["latent"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|chits| chits.as_array().unwrap().clone())
            .map(|c| c.get("value").is_some())
            .collect()
    };
    // 2.5: Lib sees every latent value, Fed none.
    assert!(!latent_values(&lib).is_empty());
    assert!(latent_values(&lib).iter().all(|v| *v));
    assert!(latent_values(&fed).iter().all(|v| !*v));
    // 2.10: each side sees its own hand only.
    assert_eq!(
        lib["board"]["cards"]["lib"]["hand"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    assert!(lib["board"]["cards"]["fed"].get("hand").is_none());
    assert_eq!(
        fed["board"]["cards"]["fed"]["hand"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    assert!(fed["board"]["cards"]["lib"].get("hand").is_none());
    assert_eq!(fed["board"]["cards"]["lib"]["hand_size"], 6);
}

#[test]
fn odds_answer_exact_counts_with_and_without_a_game_14_3_20_3_2() {
    let out = ok(&["odds", "dougram", "roll", "4"]);
    assert!(
        out.contains("4 of 6 faces") && out.contains("20/12"),
        "{out}"
    );
    let out = ok(&["odds", "dougram", "federal", "17"]);
    assert!(
        out.contains("4 of 216") && out.contains("35 of 216"),
        "{out}"
    );
    let t = Table::dougram();
    let out = ok(&[
        "odds",
        "--game",
        t.dir(),
        "--side",
        "fed",
        "combat",
        "cardinal",
    ]);
    assert!(out.contains("CBA step (14, AA)"), "{out}");
    let (code, _, err) = run(&["odds", "dougram", "combat", "spa"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--game"), "{err}");
}
