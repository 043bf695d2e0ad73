//! The step machine (docs/dougram.md, step model): step 1 deals; then each step is one side's
//! player-turn (4.1) followed by the opponent's card phase (5), so every player sees its new
//! hand before it writes orders. Two submissions per turn.

use super::cardphase;
use super::cards::PhaseName;
use super::ctx::{Ctx, reason};
use super::data::Side;
use super::orders::{Orders, Play};
use super::state::{State, Step};
use super::{arming, combat, latency, movement, play, replenish, security, setup, victory};
use crate::kit::policies;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::Resolution;
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

/// Resolves the open step with the orders of every side it waits for.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Orders>,
    dice: &mut Dice,
) -> Result<Resolution<State>, String> {
    if state.finished.is_some() {
        return Err("the game is over".into());
    }
    let mut s = state.clone();
    let mut ctx = Ctx::new(dice);
    let get = |side: Side| orders.get(side.name()).cloned().unwrap_or_default();
    // A patch is merged as sent: `check` refused every problem with it
    // (policy::legal_policies), and what reads the policies later relies on that.
    for &side in Side::ALL {
        if let Some(o) = orders.get(side.name()) {
            policies::merge(s.policies.get_mut(side), &o.policies)?;
        }
    }
    match s.step {
        Step::Setup => {
            let lines = setup::deal(&mut s, ctx.dice)?;
            for l in lines {
                ctx.log.public(l);
            }
            s.step = Step::Lib;
            ctx.log
                .public("turn 1: no card phase on turn 1 (5.7); Lib player-turn next");
        }
        Step::Lib => {
            let o = get(Side::Lib);
            player_turn(&mut s, Side::Lib, &o, &mut ctx)?;
            s.step = Step::Fed;
            card_phase(&mut s, Side::Fed, &mut ctx);
        }
        Step::Fed => {
            let o = get(Side::Fed);
            player_turn(&mut s, Side::Fed, &o, &mut ctx)?;
            victory::check(&mut s, &mut ctx);
            if s.finished.is_none() {
                s.turn += 1;
                s.step = Step::Lib;
                ctx.log.public(format!("turn {} begins", s.turn));
                card_phase(&mut s, Side::Lib, &mut ctx);
            }
        }
    }
    Ok(Resolution::new(s, ctx.log))
}

fn card_phase(s: &mut State, side: Side, ctx: &mut Ctx) {
    let label = format!("t{}/cardphase", s.turn);
    let r = cardphase::card_phase(s, side, ctx.dice, &label);
    for l in r.public {
        ctx.log.public(l);
    }
    for l in r.private {
        ctx.log.private(side, l);
    }
}

/// One player-turn (4.1) of `side`: the 5.4 discard, then each phase in order, with the cards
/// played for that phase first.
fn player_turn(s: &mut State, side: Side, o: &Orders, ctx: &mut Ctx) -> Result<(), String> {
    let who = side.name();
    ctx.log
        .public(format!("turn {}: {who} player-turn (4.1)", s.turn));
    if *s.pending_discard.get(side) {
        let c = cardphase::discard_to_six(s, side, o.discard_to_six)?;
        ctx.log
            .public(format!("{who} discards a 7th card face down (5.4)"));
        ctx.log.private(side, format!("you discard card {c} (5.4)"));
    }
    for phase in super::orders::phases(side) {
        play_at(s, side, &o.play, phase, ctx);
        match phase {
            PhaseName::Arming => arming::resolve(s, side, &o.arming, ctx)?,
            PhaseName::Replenishment => replenish::resolve(s, side, &o.replenishment, ctx)?,
            PhaseName::Movement => movement::resolve(s, side, &o.movement, ctx)?,
            PhaseName::Combat => combat::resolve(s, side, &o.combat, ctx)?,
            PhaseName::Latency => latency::resolve(s, side, &o.latency, ctx)?,
            PhaseName::Security => security::resolve(s, side, &o.security, ctx)?,
            _ => {}
        }
    }
    Ok(())
}

/// Plays the cards listed for `phase`; a card no longer playable is skipped with a reason.
fn play_at(s: &mut State, side: Side, plays: &[Play], phase: PhaseName, ctx: &mut Ctx) {
    let mut listed = BTreeSet::new();
    for p in plays {
        // Every play counts as listed, whatever its phase, as in `check`.
        let before = listed.clone();
        listed.insert(p.card);
        if p.phase_for(side) != phase {
            continue;
        }
        match super::orders::legal_play(s, side, p, &before, true, &FieldPath::root()) {
            Ok(()) => {
                if let Err(e) = play::play(s, side, p.card, ctx) {
                    ctx.log
                        .private(side, format!("card {} is not played: {e}", p.card));
                }
            }
            // Private: the opponent must not learn which card was meant.
            Err(e) => ctx.log.private(
                side,
                format!(
                    "{} does not play card {}: {}",
                    side.name(),
                    p.card,
                    reason(&e)
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::deck::{Discarded, Face};
    use crate::systems::DataSource;
    use crate::systems::dougram::fixtures::{dice, give, lift};

    fn none() -> BTreeMap<String, Orders> {
        BTreeMap::new()
    }

    /// Setup1 with Lib holding Estor (1 VP), so that no 20.3.2 roll ends the game early.
    fn start() -> State {
        let mut s = setup::initial_state("setup1", &DataSource::default()).unwrap();
        let estor = s.data.map.hex_of("estor");
        let fed: Vec<String> = s
            .units_in(estor, Side::Fed)
            .iter()
            .map(|x| x.to_string())
            .collect();
        for id in fed {
            s.units.get_mut(&id).unwrap().at = super::super::state::UnitAt::Stock;
        }
        let lib = s
            .units
            .iter()
            .find(|(id, u)| u.at == super::super::state::UnitAt::Stock && id.starts_with("SO"))
            .map(|(id, _)| id.clone())
            .unwrap();
        let u = s.units.get_mut(&lib).unwrap();
        u.at = super::super::state::UnitAt::Hex(estor);
        u.side = Side::Lib;
        s.recompute_control();
        assert_eq!(s.lib_vp(), 1);
        s
    }

    #[test]
    fn the_setup_step_deals_and_stores_both_sides_policies_28() {
        let mut o = BTreeMap::new();
        let mut lib = Orders::default();
        lib.policies.card = Some(cardphase::CardPolicy {
            keep: vec![34],
            ..Default::default()
        });
        o.insert("lib".to_string(), lib);
        let r = resolve(&start(), &o, &mut dice(1)).unwrap();
        assert_eq!(r.state.step, Step::Lib);
        assert_eq!(r.state.turn, 1);
        assert_eq!(r.state.cards[Side::Lib].hand.len(), 6);
        assert_eq!(r.state.policies[Side::Lib].card.keep, vec![34]);
    }

    #[test]
    fn each_step_ends_with_the_next_players_card_phase_except_on_turn_1_4_1_5_7() {
        let s = resolve(&start(), &none(), &mut dice(2)).unwrap().state;
        // Lib turn 1, then the Fed card phase of turn 1 is skipped (5.7).
        let r = resolve(&s, &none(), &mut dice(3)).unwrap();
        assert_eq!(r.state.step, Step::Fed);
        assert!(
            r.public
                .iter()
                .any(|l| l.contains("fed skips the card phase on turn 1"))
        );
        assert_eq!(r.state.cards[Side::Fed].hand.len(), 6);
        // Fed turn 1 ends turn 1; turn 2 begins with the Lib card phase.
        let r = resolve(&r.state, &none(), &mut dice(4)).unwrap();
        assert_eq!((r.state.turn, r.state.step), (2, Step::Lib));
        assert!(
            r.public
                .iter()
                .any(|l| l.contains("lib draws 6 card(s) (5.3)"))
        );
        assert!(r.private["lib"].iter().any(|l| l.starts_with("you draw")));
        assert!(!r.private.contains_key("fed"));
        // Lib turn 2 ends with the Fed card phase of turn 2.
        let r = resolve(&r.state, &none(), &mut dice(5)).unwrap();
        assert_eq!((r.state.turn, r.state.step), (2, Step::Fed));
        assert!(
            r.public
                .iter()
                .any(|l| l.contains("fed draws 6 card(s) (5.3)"))
        );
    }

    #[test]
    fn a_pending_discard_is_made_by_the_policy_fallback_without_an_order_5_4() {
        let s = resolve(&start(), &none(), &mut dice(6)).unwrap().state;
        let mut s = resolve(&s, &none(), &mut dice(7)).unwrap().state;
        s = resolve(&s, &none(), &mut dice(8)).unwrap().state;
        // Force a 7th card in Lib's hand as if one card had been kept.
        let extra = s.cards[Side::Lib].deck.draw_pile.remove(0);
        s.cards[Side::Lib].hand.put(extra);
        s.pending_discard[Side::Lib] = true;
        let down = |s: &State| {
            s.cards[Side::Lib]
                .deck
                .discard
                .iter()
                .filter(|d| !d.face_up)
                .count()
        };
        let before = down(&s);
        let r = resolve(&s, &none(), &mut dice(9)).unwrap();
        assert!(!r.state.pending_discard[Side::Lib]);
        assert!(r.public.iter().any(|l| l.contains("(5.4)")));
        assert_eq!(down(&r.state), before + 1);
        assert_eq!(r.state.cards[Side::Lib].hand.len(), 6);
    }

    #[test]
    fn opening_29_rechecks_control_at_once_so_cardinal_turns_lib_and_76_opens_3_3_3_24_1() {
        let mut s = resolve(&start(), &none(), &mut dice(15)).unwrap().state;
        let cardinal = s.data.map.hex_of("cardinal");
        for id in ["NK01", "RF01", "RF02", "SO14"] {
            s.units.get_mut(id).unwrap().at = super::super::state::UnitAt::Stock;
        }
        s.recompute_control();
        assert_eq!(
            s.control["cardinal"],
            Side::Fed,
            "4 Lib units against 2 Fed (3.2)"
        );
        give(&mut s, Side::Lib, 29);
        let o: Orders = crate::yaml::parse("play: [{card: 29, phase: latency}]", "test").unwrap();
        assert!(super::super::orders::check(&s, "lib", &o).is_empty());
        let mut all = BTreeMap::new();
        all.insert("lib".to_string(), o);
        let r = resolve(&s, &all, &mut dice(16)).unwrap();
        assert_eq!(r.state.control["cardinal"], Side::Lib, "{:?}", r.public);
        assert!(
            r.state.open.contains(&76),
            "24.1: Lib holds Cardinal with 29 open"
        );
        assert!(r.public.iter().any(|l| l.contains("after card 29 opens")));
        assert!(
            r.state.units_in(cardinal, Side::Lib).len() == 4,
            "nothing moved: only the count rule changed"
        );
    }

    #[test]
    fn units_landing_at_north_pole_port_move_in_the_same_player_turn_24_4() {
        let s = resolve(&start(), &none(), &mut dice(12)).unwrap().state;
        let mut s = resolve(&s, &none(), &mut dice(13)).unwrap().state;
        assert_eq!(s.step, Step::Fed);
        lift(&mut s, 76);
        s.open.insert(76); // Earth reinforcements (7.11) land in the replenishment phase
        let o: Orders =
            crate::yaml::parse("movement: {moves: [{units: [S6R01], path: [62]}]}", "test")
                .unwrap();
        assert!(super::super::orders::check(&s, "fed", &o).is_empty());
        let mut all = BTreeMap::new();
        all.insert("fed".to_string(), o);
        let r = resolve(&s, &all, &mut dice(14)).unwrap();
        assert_eq!(
            r.state.units["S6R01"].at,
            super::super::state::UnitAt::Hex(62),
            "{:?}",
            r.public
        );
    }

    #[test]
    fn an_optional_play_of_a_card_not_in_hand_is_told_to_its_owner_only() {
        let mut s = resolve(&start(), &none(), &mut dice(10)).unwrap().state;
        s.cards[Side::Lib].hand.take(&34);
        let mut o = BTreeMap::new();
        o.insert(
            "lib".to_string(),
            Orders {
                play: vec![Play {
                    card: 34,
                    phase: None,
                    optional: true,
                }],
                ..Orders::default()
            },
        );
        let r = resolve(&s, &o, &mut dice(11)).unwrap();
        assert!(r.public.iter().all(|l| !l.contains("34")));
        assert!(r.private["lib"].iter().any(|l| l.contains("card 34")));
    }

    #[test]
    fn a_rules_1_state_is_carried_over_with_its_stage_as_step() {
        let old =
            include_str!("../../../tests/fixtures/journal1-dougram/archive/state/000002.yaml");
        let st =
            crate::systems::Rules::upgrade_state(&super::super::Dougram, 1, old, None).unwrap();
        assert_eq!(st.step, Step::Fed);
        assert_eq!(st.policies[Side::Lib].card.keep, [34, 29, 20]);
    }

    const RULES1_STATE: &str =
        include_str!("../../../tests/fixtures/journal1-dougram/archive/state/000002.yaml");

    fn upgraded(old: &str) -> State {
        crate::systems::Rules::upgrade_state(&super::super::Dougram, 1, old, None).unwrap()
    }

    #[test]
    fn a_rules_1_state_keeps_each_sides_hand_and_deck_order() {
        let lib = &upgraded(RULES1_STATE).cards[Side::Lib];
        assert_eq!(lib.hand.cards(), [2, 105, 108, 109, 110, 112]);
        assert_eq!(
            lib.deck.draw_pile,
            [104, 34, 103, 20, 111, 106, 114, 107, 102, 29, 113, 101]
        );
        assert!(lib.deck.discard.is_empty());
    }

    #[test]
    fn a_rules_1_discard_pile_keeps_its_order_and_faces() {
        // The fixture's piles are empty: move Lib's top two cards to its discard pile, one face
        // down and one face up, as rules 1 wrote them.
        let at = RULES1_STATE.find("\ncards:\n").unwrap();
        let (data, cards) = RULES1_STATE.split_at(at);
        let cards = cards
            .replacen("    deck:\n    - 104\n    - 34\n", "    deck:\n", 1)
            .replacen(
                "    discard: []",
                "    discard:\n    - card: 104\n      face_up: false\n    - card: 34\n      face_up: true",
                1,
            );
        let lib = &upgraded(&format!("{data}{cards}")).cards[Side::Lib];
        assert_eq!(
            lib.deck.discard,
            [
                Discarded::new(104, Face::Down),
                Discarded::new(34, Face::Up)
            ]
        );
        assert_eq!(lib.deck.draw_pile.len(), 10);
    }
}
