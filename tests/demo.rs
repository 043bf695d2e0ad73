//! `pbem demo SYSTEM` plays a real game (issue 12): several turns, the system's parts, an ending
//! by the book's victory rules; and a seed plays the same game again.

mod common;
use common::*;

#[test]
fn the_kummen_demo_moves_the_story_through_three_stages_and_ends_by_a_victory_rule() {
    let out = ok(&["demo", "kummen"]);
    for stage in ["stage 1 (Encounter)", "stage 2 (Kiriko imprisoned)"] {
        assert!(
            out.contains(&format!("the story moves to {stage}")),
            "12.3-12.6: {stage}:\n{out}"
        );
    }
    assert!(
        out.contains("stage 3 (Kiriko returns) begins"),
        "12.6:\n{out}"
    );
    assert!(out.contains("step 20: turn 7"), "several turns:\n{out}");
    assert!(
        out.contains("\nresult: ") && out.contains("(14.1."),
        "14.1:\n{out}"
    );
    assert!(out.contains("== pbem verify: OK"), "{out}");
}

#[test]
fn the_dougram_demo_plays_cards_over_several_turns_and_ends_by_a_victory_rule() {
    let out = ok(&["demo", "dougram"]);
    assert!(out.contains("step 15: turn 7"), "several turns:\n{out}");
    assert!(
        out.contains("lib draws 6 card(s) (5.3)"),
        "the card phase:\n{out}"
    );
    assert!(out.contains("fed plays card "), "2.13:\n{out}");
    let over = out
        .lines()
        .find(|l| l.starts_with("GAME OVER: "))
        .unwrap_or_else(|| panic!("no ending:\n{out}"));
    assert!(over.contains(", 20."), "20: {over}");
    assert!(out.contains("== pbem verify: OK"), "{out}");
}

/// zeta's demo: three seats, a scripted packet, then the bots over several turns of moves,
/// governments and combats to a rule-37 victory; and each seat's picture of the kept game.
#[test]
fn the_zeta_demo_plays_three_seats_over_several_turns_and_ends_by_a_victory_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("demo");
    let out = ok(&["demo", "zeta", "--keep", keep.to_str().unwrap()]);
    for side in ["titans", "aeug", "neo_zeon"] {
        assert!(
            out.contains(&format!("{side} submitted step 1 ")),
            "{side}:\n{out}"
        );
        assert!(
            out.contains(&format!("== view of {side}\n")),
            "{side}:\n{out}"
        );
    }
    assert!(
        out.contains("titans augments 2 hizack (4P, 7.2)"),
        "the script's packet:\n{out}"
    );
    assert!(out.contains(": turn 3: armament"), "several turns:\n{out}");
    assert!(out.contains(" governs "), "17:\n{out}");
    assert!(out.contains(" attacks "), "18:\n{out}");
    let result = out
        .lines()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no ending:\n{out}"));
    assert!(result.contains("(37."), "37: {result}");
    assert!(out.contains("== pbem verify: OK"), "{out}");
    let game = keep.join("game");
    for side in ["titans", "aeug", "neo_zeon"] {
        let svg = ok(&["map", game.to_str().unwrap(), "--side", side]);
        assert!(svg.contains("<svg") && svg.contains("data-unit"), "{side}");
    }
}

/// The lines of a demo's output that its dice decide (the dice, the events), without the
/// temporary folder, keys and signatures, which are fresh each run.
fn dice_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.contains("1d6 [") || l.starts_with("  - ") || l.starts_with("GAME OVER"))
        .collect()
}

#[test]
fn a_demo_seed_plays_the_same_game_again_and_another_seed_another() {
    let first = ok(&["demo", "dougram", "--seed", "1"]);
    let again = ok(&["demo", "dougram", "--seed", "1"]);
    let other = ok(&["demo", "dougram", "--seed", "2"]);
    assert!(first.contains("(seed 1)"), "{first}");
    assert!(!dice_lines(&first).is_empty());
    assert_eq!(dice_lines(&first), dice_lines(&again));
    assert_ne!(dice_lines(&first), dice_lines(&other));
}
