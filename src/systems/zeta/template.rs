//! The order skeleton for the step a seat must answer, with the legal choices as comments
//! (plan §4.6). Every choice listed comes from a `*_choices` function, which asks the
//! `legal_*` function of its rule: legality is written once. The skeleton itself orders
//! nothing but `policies: {}` (keep the standing policies), so sent back unedited it is the
//! seat's default answer, and `check` has nothing in it to refuse.

use super::ask::checkpoint_name;
use super::choices::{Choices, choices};
use super::ctx::Choice;
use super::data::Side;
use super::orders::stage_name;
use super::state::{AskWhy, Stage, State};
use serde::Serialize;

/// The `orders:` block of an order skeleton for `side`.
pub fn template(state: &State, side: Side) -> String {
    let mut body = format!("# {side}: {}\n", stage_name(&state.stage));
    let c = choices(state, side);
    match &state.stage {
        Stage::Packet { .. } => packet(state, side, &c, &mut body),
        Stage::Phase { card, .. } if card.side == side => {
            body.push_str(&format!(
                "# card: {{side: {}, kind: {}}}   (echo of the drawn card, optional)\n",
                card.side,
                card.kind.name()
            ));
            phase(&c, &mut body);
        }
        Stage::Phase { card, .. } => body.push_str(&format!(
            "# {} acts in this phase; you may only change your policies\n",
            card.side
        )),
        Stage::Ask { who, why, .. } if *who == side => match why {
            AskWhy::Join { at } => {
                list(
                    &mut body,
                    &format!(
                        "join (18.9: the combat in {}; unanswered: your policy's answer, ask read as abstain)",
                        at.label()
                    ),
                    &c.join,
                );
            }
            AskWhy::Checkpoint(cp) => {
                body.push_str(&format!(
                    "# continue: {{...}}   your phase's orders from {} on; left out, the orders you sent run on\n",
                    checkpoint_name(*cp)
                ));
                phase(&c, &mut body);
            }
        },
        Stage::Ask { who, .. } => body.push_str(&format!(
            "# {who} answers this step; you may only change your policies\n"
        )),
        Stage::Over(_) => body.push_str("# the game is over\n"),
    }
    format!("orders:\n{}  policies: {{}}\n", indent(&body))
}

fn indent(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("  {l}\n"))
        .collect()
}

/// One commented list: its heading, then each legal item on one line (JSON, which YAML
/// reads as a flow value) with its note.
fn list<T: Serialize>(out: &mut String, heading: &str, choices: &[Choice<T>]) {
    if choices.is_empty() {
        out.push_str(&format!("# {heading}: none now\n"));
        return;
    }
    out.push_str(&format!("# {heading}:\n"));
    for c in choices {
        let item = serde_json::to_string(&c.item).unwrap_or_else(|e| format!("({e})"));
        if c.note.is_empty() {
            out.push_str(&format!("#   - {item}\n"));
        } else {
            out.push_str(&format!("#   - {item}   # {}\n", c.note));
        }
    }
}

/// The packet (plan §4.1): armament, deployment, cards, the nuke's base (Titans, turn 1),
/// plans.
fn packet(state: &State, side: Side, c: &Choices, out: &mut String) {
    if side == Side::Titans && state.turn == 1 {
        list(out, "nuke_base (36.3, one of)", &c.nuke_base);
        // 36.3: the choice is secret. Left out (as in the unedited template), the rules draw
        // it sealed among the candidates: an unedited template must not name a base an
        // opponent could guess, such as the first of the list.
        if let Some(first) = c.nuke_base.first() {
            let item = serde_json::to_string(&first.item).unwrap_or_default();
            out.push_str(&format!(
                "# nuke_base: {item}   # your secret choice (only you see it); left out, it is drawn sealed among the candidates\n"
            ));
        }
    }
    list(out, "armament (5-8, items in order)", &c.armament);
    list(
        out,
        "armament: produce after an augment of the type earlier in the list (5.3)",
        &c.produce_after_augment,
    );
    list(out, "deployment: units (9)", &c.deploy_units);
    list(out, "deployment: characters (4.2, 9.5)", &c.deploy_chars);
    list(
        out,
        "cards (10.2-10.3, one set of three; unanswered: the default set)",
        &c.cards,
    );
    out.push_str(
        "# plans: [{key: {card: space, nth: 1}, if: ..., then: {...}, else: ask}]   (replaces last turn's)\n",
    );
}

/// A phase of the acting faction (plan §4.2), or what is left of it after a checkpoint: every
/// list still to come.
fn phase(c: &Choices, out: &mut String) {
    if !c.resume {
        list(out, "pre: colony (35)", &c.colony);
        if c.demolish {
            out.push_str("# pre: {demolish: true}   (36.4: allowed now)\n");
        }
    }
    if !c.resume || !c.actions.is_empty() || !c.moves.is_empty() {
        list(out, "units: actions (12, 16, 17)", &c.actions);
        list(out, "units: moves (13)", &c.moves);
        list(out, "atmospheric (14)", &c.atmospheric);
        list(out, "lvr_repair (29.2)", &c.lvr_repair);
        list(out, "axis (30)", &c.axis);
    }
    list(out, "combats (18)", &c.combats);
    list(out, "laser (31)", &c.laser);
    list(out, "speech (29)", &c.speech);
    let cps: Vec<&str> = c
        .checkpoints
        .iter()
        .map(|cp| checkpoint_name(*cp))
        .collect();
    if !cps.is_empty() {
        out.push_str(&format!(
            "# checkpoint: {}   (stop there and be asked again; plan §1.3)\n",
            cps.join(" | ")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::seats::Seat;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::orders::{Orders, check};
    use crate::systems::zeta::{setup, steps};

    fn packet_state() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    fn after_packet() -> State {
        let mut dice = Dice::new(Hash32([4; 32]), Hash32([5; 32])).at_step(1);
        steps::resolve(&packet_state(), &Default::default(), &mut dice)
            .unwrap()
            .state
    }

    /// The problems `check` gives the skeleton sent back unedited.
    fn problems(st: &State, side: Side) -> Vec<String> {
        let text = template(st, side);
        let doc: BTreeMap<String, Orders> = crate::yaml::parse_order(&text, "template").unwrap();
        let o = doc.get("orders").unwrap();
        check(st, side.name(), o)
            .into_iter()
            .map(|p| p.message)
            .collect()
    }

    use std::collections::BTreeMap;

    /// Plan §4.6: the packet skeleton of each seat parses and `check` accepts it unedited.
    #[test]
    fn the_packet_template_is_accepted_unedited() {
        let st = packet_state();
        for side in [Side::Titans, Side::Aeug, Side::NeoZeon] {
            assert_eq!(problems(&st, side), Vec::<String>::new(), "{side}");
            let t = template(&st, side);
            assert!(t.contains("# cards (10.2-10.3"), "{t}");
            assert!(t.contains("# armament"), "{t}");
            assert!(t.contains("# deployment: units"), "{t}");
        }
    }

    /// Plan §4.6: after a packet, the acting faction's phase skeleton lists its phase, the
    /// others' say who acts; each is accepted unedited.
    #[test]
    fn the_phase_template_is_accepted_unedited() {
        let st = after_packet();
        let Stage::Phase { card, .. } = &st.stage else {
            panic!("no phase after the packet: {:?}", st.stage);
        };
        for side in [Side::Titans, Side::Aeug, Side::NeoZeon] {
            assert_eq!(problems(&st, side), Vec::<String>::new(), "{side}");
            let t = template(&st, side);
            if side == card.side {
                assert!(t.contains("# combats (18)"), "{t}");
                assert!(t.contains("# card: {side: "), "{t}");
            } else {
                assert!(t.contains("acts in this phase"), "{t}");
            }
        }
    }

    /// Plan §4.3, §4.6: a checkpoint's template lists the orders still to come under
    /// `continue`, a join's the three answers; both are accepted unedited by every seat.
    #[test]
    fn the_ask_templates_are_accepted_unedited_and_name_the_answers() {
        let st = after_packet();
        let Stage::Phase { turn, k, card } = st.stage.clone() else {
            panic!("no phase after the packet: {:?}", st.stage);
        };
        let mut o = BTreeMap::new();
        o.insert(
            card.side.name().to_string(),
            crate::yaml::parse_order::<Orders>("checkpoint: after_pre\n", "o").unwrap(),
        );
        let mut dice = Dice::new(Hash32([6; 32]), Hash32([5; 32])).at_step(2);
        let st = steps::resolve(&st, &o, &mut dice).unwrap().state;
        assert!(matches!(st.stage, Stage::Ask { .. }), "{:?}", st.stage);
        for side in [Side::Titans, Side::Aeug, Side::NeoZeon] {
            assert_eq!(problems(&st, side), Vec::<String>::new(), "{side}");
        }
        let t = template(&st, card.side);
        assert!(t.contains("# continue: {...}"), "{t}");
        assert!(t.contains("# units: actions"), "{t}");
        assert!(!t.contains("# pre: colony"), "{t}");
        // The same stop as a join asked of another faction.
        let who = [Side::Titans, Side::Aeug, Side::NeoZeon]
            .into_iter()
            .find(|s| *s != card.side)
            .unwrap();
        let at = crate::systems::zeta::data::Loc::parse("space:C05").unwrap();
        let mut j = st.clone();
        j.stage = Stage::Ask {
            turn,
            k,
            who,
            why: AskWhy::Join { at },
        };
        if let Some(p) = j.pending.as_mut() {
            p.who = who;
            p.why = AskWhy::Join { at };
        }
        for side in [Side::Titans, Side::Aeug, Side::NeoZeon] {
            assert_eq!(problems(&j, side), Vec::<String>::new(), "{side}");
        }
        let t = template(&j, who);
        assert!(t.contains("# join (18.9: the combat in space:C05"), "{t}");
        assert!(
            t.contains("\"attacker\"") && t.contains("\"abstain\""),
            "{t}"
        );
        assert!(template(&j, card.side).contains("answers this step"));
    }

    /// Plan §2.3 trap 1: the template of a seat other than Titans never names the nuke base.
    #[test]
    fn only_titans_template_may_name_the_nuke_base() {
        let st = packet_state();
        let aeug = template(&st, Side::Aeug);
        assert!(!aeug.contains("nuke_base"), "{aeug}");
    }

    /// 36.3: Titans' unedited turn-1 template names no base (an opponent could guess the
    /// first candidate); left out, the base is drawn sealed, and the template is accepted.
    #[test]
    fn titans_unedited_template_leaves_the_nuke_base_to_the_sealed_draw_36_3() {
        let st = packet_state();
        let t = template(&st, Side::Titans);
        assert!(t.contains("# nuke_base: "), "{t}");
        assert!(!t.lines().any(|l| l.starts_with("nuke_base:")), "{t}");
        assert_eq!(problems(&st, Side::Titans), Vec::<String>::new());
    }
}
