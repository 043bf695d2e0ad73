//! The step machine (docs/dougram.md, step model): step 1 deals; then each step is one side's
//! player-turn (4.1) followed by the opponent's card phase (5), so every player sees its new
//! hand before it writes orders. Two submissions per turn.

use super::arming::Arm;
use super::cardphase;
use super::cards::{PhaseName, StepName};
use super::combat::Declared;
use super::ctx::{Ctx, reason};
use super::data::Side;
use super::data::{Class, HexId, HexRef};
use super::movement::Move;
use super::orders::{Orders, Play};
use super::replenish::{Convert, FortressOrder};
use super::state::{State, Step};
use super::{arming, combat, latency, movement, play, replenish, security, setup, victory};
use crate::kit::policies;
use crate::kit::reach;
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
    reach::fire("1.2");
    match s.step {
        Step::Setup => {
            let lines = setup::deal(&mut s, ctx.dice)?;
            for l in lines {
                ctx.log.public(l);
            }
            s.step = Step::Lib;
            reach::fire("5.7");
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
    reach::fire("4.1");
    ctx.log
        .public(format!("turn {}: {who} player-turn (4.1)", s.turn));
    if *s.pending_discard.get(side) {
        let c = cardphase::discard_to_six(s, side, o.discard_to_six)?;
        reach::fire("5.4");
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
        let judged = (p.phase_for(side) == phase)
            .then(|| super::orders::legal_play(s, side, p, &listed, true, &FieldPath::root()));
        // Every play counts as listed, whatever its phase, as in `check`.
        listed.insert(p.card);
        let Some(judged) = judged else { continue };
        // 2.10 and 2.13: the card's hand, conditions and phase are judged now, when it plays.
        reach::fire("2.10");
        reach::fire("2.13");
        match judged {
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

/// The legal items of `side`'s part of the current step, each legal on its own at the start of
/// the step, as `check` judges it and, where the phase judges it again when it comes, as the
/// phase would judge it on this state: what the template lists and a bot picks from. Each list
/// comes from the choices function of the module that owns the item's rule, which asks the
/// item's legal_* function (tests: dougram::legal_tests). Items sent together are judged in
/// their order, each at its moment: an earlier move or arming changes what a later one may do
/// (movement::Memory, arming::legal_arm's labels), and the phase skips what has become illegal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    /// 5.4: the card to discard when 7 are in hand.
    pub discard_to_six: Vec<u32>,
    /// 2.13, 4.1: cards played at the start of a phase for their open flags or draws.
    pub play: Vec<Play>,
    /// Lib, 6.3.2: cards played in the arming phase.
    pub arming_play: Vec<u32>,
    /// Lib, 21.3.
    pub repair: Vec<String>,
    /// Lib, 6.4-6.9: per hex with latent chits, all of them for one unit of each armable type.
    pub arm: Vec<Arm>,
    /// Fed, 7: cards played in the replenishment phase.
    pub replenishment_play: Vec<u32>,
    /// Fed, 7.10.
    pub to_box: Vec<String>,
    /// Fed, 7.7-7.9.
    pub convert: Vec<Convert>,
    /// Fed, 7.2-7.6: soldiers and CBAs of the box.
    pub soldiers: Vec<String>,
    pub cbas: Vec<String>,
    /// Fed, 22.
    pub fortress: Vec<FortressOrder>,
    /// 8-11: one move per unit and end hex, sea route or transport.
    pub moves: Vec<Move>,
    /// 12.2-12.6: hexes with units of both sides, with a fight group where it applies.
    pub combats: Vec<Declared>,
    /// 12.9: cards of the hand and the combat step they are played at.
    pub combat_cards: Vec<(StepName, u32)>,
    /// Lib, 18: hexes with Lib soldiers and the most chits each may take now.
    pub latency: Vec<(HexId, usize)>,
    /// Fed, 19.3.
    pub security_cards: Vec<u32>,
    /// Fed, 19.4-19.8: per hex where checks are possible, the soldiers that may check there.
    pub security_members: BTreeMap<HexId, Vec<String>>,
}

impl Choices {
    /// Every choice as an order of its own; a combat card rides on the first declared combat,
    /// a latency choice is each count from 0 to the most, and a security group is each soldier
    /// alone.
    pub fn orders(&self) -> Vec<Orders> {
        let mut out = Vec::new();
        let mut put = |f: &dyn Fn(&mut Orders)| {
            let mut o = Orders::default();
            f(&mut o);
            out.push(o);
        };
        for c in &self.discard_to_six {
            put(&|o| o.discard_to_six = Some(*c));
        }
        for p in &self.play {
            put(&|o| o.play = vec![p.clone()]);
        }
        for c in &self.arming_play {
            put(&|o| o.arming.play = vec![*c]);
        }
        for id in &self.repair {
            put(&|o| o.arming.repair = vec![id.clone()]);
        }
        for a in &self.arm {
            put(&|o| o.arming.arm = vec![a.clone()]);
        }
        for c in &self.replenishment_play {
            put(&|o| o.replenishment.play = vec![*c]);
        }
        for id in &self.to_box {
            put(&|o| o.replenishment.to_box = Some(id.clone()));
        }
        for c in &self.convert {
            put(&|o| o.replenishment.convert = Some(c.clone()));
        }
        for id in &self.soldiers {
            put(&|o| o.replenishment.soldiers = vec![id.clone()]);
        }
        for id in &self.cbas {
            put(&|o| o.replenishment.cbas = vec![id.clone()]);
        }
        for f in &self.fortress {
            put(&|o| o.replenishment.fortress = Some(f.clone()));
        }
        for m in &self.moves {
            put(&|o| o.movement.moves = vec![m.clone()]);
        }
        for d in &self.combats {
            put(&|o| o.combat.combats = vec![d.clone()]);
        }
        if let Some(first) = self.combats.first() {
            for (step, no) in &self.combat_cards {
                let mut d = Declared {
                    fight_group: None,
                    ..first.clone()
                };
                d.cards_mut(*step).push(*no);
                put(&|o| o.combat.combats = vec![d.clone()]);
            }
        }
        for (h, max) in &self.latency {
            put(&|o| o.latency.skip = vec![HexRef::Hex(*h)]);
            for n in 0..=*max {
                put(&|o| {
                    o.latency.counts = [(HexRef::Hex(*h), n as i64)].into();
                });
            }
        }
        for c in &self.security_cards {
            put(&|o| o.security.cards = vec![*c]);
        }
        for (h, ids) in &self.security_members {
            for id in ids {
                put(&|o| {
                    o.security.groups = [(HexRef::Hex(*h), vec![vec![id.clone()]])].into();
                });
            }
        }
        out
    }
}

/// The legal items of `side`'s part of the current step (nothing when it is not `side`'s
/// player-turn: then it sends policies only, `policy::policy_choices`). The parts are those of
/// the side's phases (`orders::phases`), as `check` judges them.
pub fn choices(state: &State, side: Side) -> Choices {
    if state.finished.is_some() || state.phasing() != Some(side) {
        return Choices::default();
    }
    let mine = super::orders::phases(side);
    let has = |p: PhaseName| mine.contains(&p);
    let mut c = Choices {
        discard_to_six: cardphase::discard_choices(state, side),
        play: super::orders::play_choices(state, side),
        moves: movement::move_choices(state, side),
        combats: combat::declare_choices(state, side),
        combat_cards: combat::combat_card_choices(state, side),
        ..Choices::default()
    };
    if has(PhaseName::Arming) {
        c.arming_play = play::phase_play_choices(state, side, PhaseName::Arming);
        c.repair = arming::repair_choices(state);
        c.arm = arming::arm_choices(state);
    }
    if has(PhaseName::Replenishment) {
        c.replenishment_play = play::phase_play_choices(state, side, PhaseName::Replenishment);
        c.to_box = replenish::to_box_choices(state);
        c.convert = replenish::convert_choices(state);
        c.soldiers = replenish::box_unit_choices(state, Class::Soldier);
        c.cbas = replenish::box_unit_choices(state, Class::Cba);
        c.fortress = replenish::fortress_choices(state);
    }
    if has(PhaseName::Latency) {
        c.latency = latency::latency_choices(state);
    }
    if has(PhaseName::Security) {
        c.security_cards = security::enabler_choices(state);
        c.security_members = security::member_choices(state);
    }
    c
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
        let mut s = start();
        s.policies[Side::Lib].card.keep_none = true;
        let s = resolve(&s, &none(), &mut dice(6)).unwrap().state;
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
        // Stand-in card 29 may be played from turn 3 (cards.yaml).
        s.turn = 3;
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
    fn a_rules_2_game_of_the_stand_in_deck_takes_the_rules_3_cards_and_its_own_deck_stays_2_10() {
        let s = resolve(&start(), &none(), &mut dice(21)).unwrap().state;
        let text = crate::yaml::to_string(&s);
        let shipped = (*s.data.arc()).clone();
        // The rules-2 stand-in deck had no conditions.
        let mut old = shipped.clone();
        for c in old.cards.cards.iter_mut() {
            c.requires.clear();
        }
        let up = |d: &super::super::data::Data| {
            crate::systems::Rules::upgrade_state(
                &super::super::Dougram,
                2,
                &text,
                Some(std::sync::Arc::new(d.clone())),
            )
            .unwrap()
        };
        let st = up(&old);
        assert_eq!(st.data.cards, shipped.cards, "the rules-3 cards");
        assert_eq!(st.cards, s.cards, "hands and decks as they were");
        // A game with its own cards.yaml keeps it as it is.
        let mut own = old.clone();
        own.cards.stand_in = false;
        assert_eq!(up(&own).data.cards, own.cards);
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
