//! The card phase (10.1) and the card kinds (12.1) on the real setup (38).

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::DataSource;
use crate::systems::zeta::ctx::Moment;
use crate::systems::zeta::setup;
use std::collections::BTreeSet;

#[test]
fn rule_10_1_the_card_phase_fixes_the_nine_cards_of_the_turns_action_phases() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    let mut d = Dice::new(Hash32([4; 32]), Hash32([0x10; 32]));
    let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
    let mut chosen = Vec::new();
    for side in Side::ALL.iter().copied() {
        let kinds = chosen_kinds(&mut ctx, side, None);
        chosen.extend(take_from_hand(&mut ctx, side, &kinds));
        // The two cards not chosen stay in hand (10.5).
        assert_eq!(ctx.state.sides[side].hand.cards().len(), 2, "{side}");
    }
    shuffle_deck(&mut ctx, &chosen);
    let mut pile = ctx.state.deck.draw_pile.clone();
    assert_eq!(pile.len(), 9);
    pile.sort();
    chosen.sort();
    assert_eq!(pile, chosen);
    for side in Side::ALL.iter().copied() {
        assert_eq!(pile.iter().filter(|c| c.side == side).count(), 3);
    }
}

#[test]
fn rule_12_1_action_cards_come_in_three_kinds() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    for side in Side::ALL.iter().copied() {
        let kinds: BTreeSet<CardKind> =
            st.sides[side].hand.cards().iter().map(|c| c.kind).collect();
        assert_eq!(kinds, CardKind::ALL.into_iter().collect(), "{side}");
    }
}
