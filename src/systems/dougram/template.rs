//! Order skeletons: the `orders:` block for the open step, with the legal choices as comments.
//!
//! Every choice listed comes from `steps::choices` (cards, units, hexes, moves, combats), whose
//! lists come from the legal_* function of each item's rule, never from a copy of a rule:
//! `check` accepts each on its own (dougram::legal_tests).

use super::data::Side;
use super::orders::phases;
use super::state::{State, Step};
use super::steps::{self, Choices};
use super::{arming, combat, latency, movement, replenish, security};
use crate::kit::seats::Seat;

/// What each policy part means and accepts (digest 3.2).
const POLICY_HELP: &str = "\
# policies (standing, kept until you send a new one; each part replaces the stored part):
#   card: {keep: [cards, best first], keep_none: false, stock_wishlist: [cards], swap_out: [cards]}   (5.2, 5.5)
#         by default (no listed card in hand) the best card is kept: one that stays open, then
#         sea moves, arming points and placements, then combat and security cards, lowest number
#         first; keep_none: true keeps only a listed card
#   combat: see docs/dougram.md, Policies (capture requests, card reactions, AP and melee
#           requests, hit allocation, fight group, fortress displacement)
#   movement: see docs/dougram.md, Policies (over-stack fix, 6.10)
#   sixth_army: [unit types, best first]   (Fed: 6th Army placement, 24.2, 7.11)";

fn indent(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("  {l}\n"))
        .collect()
}

fn card_lines(state: &State, side: Side, c: &Choices) -> String {
    let mut out = String::new();
    let hand = &state.cards.get(side).hand;
    if hand.is_empty() {
        out.push_str("# your hand is empty\n");
    } else {
        out.push_str("# your hand (card: when it may be played):\n");
        for no in hand.cards() {
            if let Some(c) = state.card(*no) {
                let step = c
                    .when
                    .step
                    .map(|s| format!(", step {s:?}"))
                    .unwrap_or_default();
                // 2.10: the card's conditions, and whether each holds now.
                let needs = if c.requires.is_empty() {
                    String::new()
                } else {
                    let list: Vec<String> = c
                        .requires
                        .iter()
                        .map(|r| {
                            let (ok, now) = super::play::condition(state, side, r);
                            format!(
                                "{} ({})",
                                r.describe(),
                                if ok {
                                    "met".to_string()
                                } else {
                                    format!("not met: {now}")
                                }
                            )
                        })
                        .collect();
                    format!("; needs {}", list.join(", "))
                };
                out.push_str(&format!(
                    "#   {no} \"{}\": {:?} turn, {} phase{step}{needs}\n",
                    c.en,
                    c.when.turn,
                    c.when.phase.name()
                ));
            }
        }
        out.push_str(
            "# cards that only open or draw: play: [{card: N, phase: movement}] (default: first phase)\n",
        );
        let plays: Vec<String> = c
            .play
            .iter()
            .map(|p| format!("{} ({})", p.card, p.phase_for(side).name()))
            .collect();
        out.push_str(&format!(
            "#   you may play so now: {}\n",
            if plays.is_empty() {
                "none".to_string()
            } else {
                plays.join(", ")
            }
        ));
    }
    if !c.discard_to_six.is_empty() {
        let cards: Vec<String> = c.discard_to_six.iter().map(|n| n.to_string()).collect();
        out.push_str(&format!(
            "# you hold 7 cards: discard_to_six: CARD (5.4), one of {}; else your card policy decides\n",
            cards.join(", ")
        ));
    }
    out
}

pub fn template(state: &State, side_name: &str) -> String {
    let Some(side) = Side::parse(side_name) else {
        return format!(
            "orders: {{}}\n  # no side {side_name:?} in dougram ({})\n",
            Side::listing()
        );
    };
    if let Some(f) = &state.finished {
        return format!(
            "orders: {{}}\n  # the game is over: {} won ({})\n",
            f.winner.name(),
            f.rule
        );
    }
    let mut body = String::new();
    match state.step {
        Step::Setup => {
            body.push_str("# setup (28): send standing policies if you want; resolving deals the chits and hands\n");
        }
        _ if state.phasing() != Some(side) => {
            body.push_str(&format!(
                "# turn {}: {}'s player-turn; you may send standing policies only\n",
                state.turn,
                state.phasing().map(|s| s.name()).unwrap_or("?")
            ));
        }
        _ => {
            body.push_str(&format!(
                "# turn {}: your player-turn, phases in order: {} (4.1)\n",
                state.turn,
                phases(side)
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            let c = steps::choices(state, side);
            body.push_str(&card_lines(state, side, &c));
            let parts = match side {
                Side::Lib => [
                    arming::template(state, side, &c),
                    movement::template(state, side, &c),
                    combat::template(state, side, &c),
                    latency::template(state, side, &c),
                ],
                Side::Fed => [
                    replenish::template(state, side, &c),
                    movement::template(state, side, &c),
                    combat::template(state, side, &c),
                    security::template(state, side, &c),
                ],
            };
            for p in parts {
                for l in p.lines().filter(|l| !l.trim().is_empty()) {
                    let l = l.trim_start();
                    if l.starts_with('#') {
                        body.push_str(l);
                    } else {
                        body.push_str("# ");
                        body.push_str(l);
                    }
                    body.push('\n');
                }
            }
        }
    }
    body.push_str(POLICY_HELP);
    body.push('\n');
    format!("orders:\n{}  policies: {{}}\n", indent(&body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::fixtures::{dealt, give};

    #[test]
    fn the_template_lists_a_cards_conditions_and_whether_they_hold_2_10() {
        let mut s = dealt("setup1", 12);
        s.step = Step::Fed;
        give(&mut s, Side::Fed, 77);
        let t = template(&s, "fed");
        let line = t
            .lines()
            .find(|l| l.contains("77 \""))
            .unwrap_or_else(|| panic!("card 77 listed: {t}"));
        assert!(
            line.contains("needs turn 5 or later (not met: it is turn 1)"),
            "{line}"
        );
        assert!(line.contains("Lib VP at most 7 (met)"), "{line}");
        assert!(
            t.contains("keep_none"),
            "the card policy's default is explained: {t}"
        );
    }
}
