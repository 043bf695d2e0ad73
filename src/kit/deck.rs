//! A deck of cards: a draw pile in an order only the host knows, a discard pile, and hands.
//!
//! The draw pile is shuffled with a sealed Fisher-Yates shuffle ([`Dice::sealed_shuffle`]), so
//! its order stays secret until the game key is revealed at the end; drawing then takes the top
//! card without any further randomness. Every shuffle uses a label the caller gives (one event,
//! one label, as [`crate::kit::cup::Cup`] does); a draw that must reshuffle the discards uses
//! `<label>/reshuffle`.
//!
//! What a view may show (the deck itself is host-only state):
//! - the draw pile: its **count only** ([`Deck::counts`]), never its cards or their order, not
//!   even to the players whose cards are in it;
//! - the discard pile: its count to everyone; its cards only if the game's discards are face up
//!   (the pile keeps the order of discarding, which every player saw happen);
//! - a hand: its cards to its holder, its count to everyone else. A [`Hand`] is kept sorted, so
//!   even its holder's copy says nothing about the order in which the cards came off the pile.

use crate::protocol::dice::Dice;
use serde::{Deserialize, Serialize};

/// A draw pile (top card first) and a discard pile (most recent last).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck<C> {
    /// Host-only: views show `draw_pile.len()`, never the cards.
    pub draw_pile: Vec<C>,
    #[serde(default = "Vec::new")]
    pub discard: Vec<C>,
}

impl<C> Default for Deck<C> {
    fn default() -> Self {
        Deck {
            draw_pile: Vec::new(),
            discard: Vec::new(),
        }
    }
}

/// What every reader may know of a deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckCounts {
    pub draw_pile: usize,
    pub discard: usize,
}

impl<C: Clone + PartialEq> Deck<C> {
    /// A deck with these cards in the draw pile, in the order given (not shuffled yet).
    pub fn new(cards: Vec<C>) -> Deck<C> {
        Deck {
            draw_pile: cards,
            discard: Vec::new(),
        }
    }

    /// The counts a view may show.
    pub fn counts(&self) -> DeckCounts {
        DeckCounts {
            draw_pile: self.draw_pile.len(),
            discard: self.discard.len(),
        }
    }

    /// Shuffles the draw pile with the sealed label `label`.
    pub fn shuffle(&mut self, dice: &mut Dice, label: &str, note: &str) {
        dice.sealed_shuffle(label, &mut self.draw_pile, note);
    }

    /// Adds cards to the draw pile and shuffles the whole pile (e.g. the cards each side chose
    /// this turn go face down into one action deck).
    pub fn shuffle_in(&mut self, cards: Vec<C>, dice: &mut Dice, label: &str, note: &str) {
        self.draw_pile.extend(cards);
        self.shuffle(dice, label, note);
    }

    /// Puts the discard pile back into the draw pile and shuffles it (with the cards still in
    /// the draw pile) under `label`.
    pub fn reshuffle(&mut self, dice: &mut Dice, label: &str, note: &str) {
        let discards = std::mem::take(&mut self.discard);
        self.shuffle_in(discards, dice, label, note);
    }

    /// Takes the top card, or `None` from an empty draw pile (no reshuffle: see [`Deck::draw`]).
    pub fn take_top(&mut self) -> Option<C> {
        if self.draw_pile.is_empty() {
            None
        } else {
            Some(self.draw_pile.remove(0))
        }
    }

    /// Draws up to `n` cards for one event. When the draw pile runs out and there are discards,
    /// they are reshuffled once with the sealed label `<label>/reshuffle` and drawing goes on;
    /// fewer than `n` come out only when both piles are empty. Returns the cards in the order
    /// drawn (host-side: put them in a [`Hand`] before anything a reader sees).
    pub fn draw(&mut self, n: usize, dice: &mut Dice, label: &str, note: &str) -> Vec<C> {
        let mut out = Vec::new();
        let mut reshuffled = false;
        while out.len() < n {
            if self.draw_pile.is_empty() && !reshuffled && !self.discard.is_empty() {
                self.reshuffle(dice, &format!("{label}/reshuffle"), note);
                reshuffled = true;
            }
            match self.take_top() {
                Some(c) => out.push(c),
                None => break,
            }
        }
        out
    }

    /// Discards a card (face up or not is the game's business: see the module doc).
    pub fn discard(&mut self, card: C) {
        self.discard.push(card);
    }
}

impl<C: Clone + Ord + PartialEq> Deck<C> {
    /// Draws up to `n` cards into `hand`; see [`Deck::draw`]. Returns how many came.
    pub fn draw_to(
        &mut self,
        hand: &mut Hand<C>,
        n: usize,
        dice: &mut Dice,
        label: &str,
        note: &str,
    ) -> usize {
        let cards = self.draw(n, dice, label, note);
        let k = cards.len();
        for c in cards {
            hand.put(c);
        }
        k
    }

    /// Moves `card` from `hand` to the discard pile; an error if the hand does not hold it.
    pub fn discard_from(&mut self, hand: &mut Hand<C>, card: &C) -> Result<(), String>
    where
        C: std::fmt::Debug,
    {
        if hand.take(card) {
            self.discard(card.clone());
            Ok(())
        } else {
            Err(format!("the hand holds no {card:?}"))
        }
    }
}

/// The cards one holder has, kept sorted (duplicates allowed). Its holder's view may list it;
/// every other view shows [`Hand::len`] only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent, bound(deserialize = "C: Deserialize<'de> + Ord"))]
pub struct Hand<C: Ord> {
    #[serde(deserialize_with = "sorted")]
    cards: Vec<C>,
}

fn sorted<'de, D, C>(d: D) -> Result<Vec<C>, D::Error>
where
    D: serde::Deserializer<'de>,
    C: Deserialize<'de> + Ord,
{
    let mut v = Vec::<C>::deserialize(d)?;
    v.sort();
    Ok(v)
}

impl<C: Ord> Default for Hand<C> {
    fn default() -> Self {
        Hand { cards: Vec::new() }
    }
}

impl<C: Ord + Clone> Hand<C> {
    pub fn new(mut cards: Vec<C>) -> Hand<C> {
        cards.sort();
        Hand { cards }
    }

    /// The cards in sorted order.
    pub fn cards(&self) -> &[C] {
        &self.cards
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    pub fn contains(&self, card: &C) -> bool {
        self.cards.binary_search(card).is_ok()
    }

    pub fn put(&mut self, card: C) {
        let at = self.cards.partition_point(|c| c <= &card);
        self.cards.insert(at, card);
    }

    /// Removes one copy of `card`, if held.
    pub fn take(&mut self, card: &C) -> bool {
        match self.cards.binary_search(card) {
            Ok(i) => {
                self.cards.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    /// Takes a secret choice out of the hand, all or nothing: every chosen card must be held
    /// (a card chosen twice must be held twice). On error the hand is unchanged and the message
    /// names the first card it lacks.
    pub fn take_all(&mut self, chosen: &[C]) -> Result<Vec<C>, String>
    where
        C: std::fmt::Debug,
    {
        let mut rest = self.clone();
        for c in chosen {
            if !rest.take(c) {
                return Err(format!(
                    "{c:?} is not in the hand (it holds {:?})",
                    self.cards
                ));
            }
        }
        *self = rest;
        Ok(chosen.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hash::Hash32;

    fn dice(k: u8) -> Dice {
        Dice::new(Hash32([5; 32]), Hash32([k; 32]))
    }

    fn nine() -> Vec<String> {
        (1..=9).map(|i| format!("C{i}")).collect()
    }

    #[test]
    fn a_shuffle_keeps_the_cards_and_is_reproducible() {
        let mut a = Deck::new(nine());
        let mut b = Deck::new(nine());
        let (mut da, mut db) = (dice(1), dice(1));
        a.shuffle(&mut da, "t1/deck", "");
        b.shuffle(&mut db, "t1/deck", "");
        assert_eq!(a, b);
        let mut sorted = a.draw_pile.clone();
        sorted.sort();
        assert_eq!(sorted, nine());
        let t = da.finish().unwrap();
        assert_eq!(t.sealed.len(), 1);
        assert!(t.public.is_empty(), "a shuffle is never a public roll");
    }

    #[test]
    fn the_order_depends_on_the_game_key() {
        let orders: std::collections::BTreeSet<Vec<String>> = (0..8)
            .map(|k| {
                let mut d = Deck::new(nine());
                d.shuffle(&mut dice(k), "t1/deck", "");
                d.draw_pile
            })
            .collect();
        assert!(orders.len() > 1);
    }

    #[test]
    fn drawing_takes_the_top_cards_without_randomness() {
        let mut d = Deck::new(nine());
        let mut x = dice(1);
        assert_eq!(d.draw(2, &mut x, "t1/draw", ""), vec!["C1", "C2"]);
        assert_eq!(
            d.counts(),
            DeckCounts {
                draw_pile: 7,
                discard: 0
            }
        );
        assert!(x.finish().unwrap().sealed.is_empty());
    }

    #[test]
    fn an_empty_draw_pile_reshuffles_the_discards_once_under_its_own_label() {
        let mut d = Deck::new(vec!["A".to_string()]);
        for c in ["B", "C", "D"] {
            d.discard(c.to_string());
        }
        let mut x = dice(2);
        let got = d.draw(3, &mut x, "t3/draw", "");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], "A");
        assert_eq!(
            d.counts(),
            DeckCounts {
                draw_pile: 1,
                discard: 0
            }
        );
        let t = x.finish().unwrap();
        assert_eq!(t.sealed.len(), 1);
        assert_eq!(t.sealed[0].label, "t3/draw/reshuffle");
    }

    #[test]
    fn drawing_from_two_empty_piles_stops_without_a_die() {
        let mut d: Deck<String> = Deck::default();
        let mut x = dice(2);
        assert!(d.draw(4, &mut x, "e", "").is_empty());
        assert!(x.finish().unwrap().sealed.is_empty());
    }

    #[test]
    fn drawing_more_than_both_piles_hold_gives_what_there_is() {
        let mut d = Deck::new(vec!["A".to_string()]);
        d.discard("B".to_string());
        let mut x = dice(2);
        assert_eq!(d.draw(5, &mut x, "e", "").len(), 2);
        assert!(x.finish().is_ok(), "one reshuffle, one label");
    }

    #[test]
    fn a_hand_is_sorted_whatever_the_draw_order() {
        let mut d = Deck::new(vec!["E", "B", "D"]);
        let mut h = Hand::default();
        assert_eq!(d.draw_to(&mut h, 3, &mut dice(1), "x", ""), 3);
        assert_eq!(h.cards(), ["B", "D", "E"]);
    }

    #[test]
    fn discarding_needs_the_card_in_hand() {
        let mut d: Deck<&str> = Deck::default();
        let mut h = Hand::new(vec!["B", "A"]);
        assert!(d.discard_from(&mut h, &"A").is_ok());
        assert!(d.discard_from(&mut h, &"A").unwrap_err().contains("\"A\""));
        assert_eq!(d.discard, vec!["A"]);
        assert_eq!(h.cards(), ["B"]);
    }

    #[test]
    fn a_secret_choice_of_three_from_five_is_all_or_nothing() {
        let mut h = Hand::new(vec!["S1", "S2", "G1", "G2", "A1"]);
        let err = h.take_all(&["S1", "S1", "G1"]).unwrap_err();
        assert!(err.contains("\"S1\" is not in the hand"), "{err}");
        assert_eq!(h.len(), 5, "a refused choice leaves the hand alone");
        assert_eq!(h.take_all(&["S1", "G2", "A1"]).unwrap(), ["S1", "G2", "A1"]);
        assert_eq!(h.cards(), ["G1", "S2"]);
    }

    #[test]
    fn yaml_names_the_piles_and_a_hand_reads_back_sorted() {
        let mut d = Deck::new(vec!["C1".to_string(), "C2".to_string()]);
        d.discard("C3".to_string());
        let text = crate::yaml::to_string(&d);
        assert_eq!(text, "draw_pile:\n- C1\n- C2\ndiscard:\n- C3\n");
        let back: Deck<String> = crate::yaml::parse(&text, "deck").unwrap();
        assert_eq!(back, d);
        let h: Hand<String> = crate::yaml::parse("[C9, C2]", "hand").unwrap();
        assert_eq!(h.cards(), ["C2", "C9"]);
    }

    #[test]
    fn a_deck_without_a_discard_key_reads_as_an_empty_discard_pile() {
        let d: Deck<String> = crate::yaml::parse("draw_pile: [A]\n", "deck").unwrap();
        assert!(d.discard.is_empty());
        assert!(crate::yaml::parse::<Deck<String>>("draw_pile: []\nhand: []\n", "deck").is_err());
    }
}
