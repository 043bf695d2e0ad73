//! A deck of cards: a draw pile in an order only the host knows, a discard pile, and hands.
//!
//! The draw pile is shuffled with a sealed Fisher-Yates shuffle ([`Dice::sealed_shuffle`]), so
//! its order stays secret until the game key is revealed at the end; drawing then takes the top
//! card without any further randomness. Every shuffle uses a label the caller gives (one event,
//! one label, as [`crate::kit::cup::Cup`] does); a [`Deck::draw`] that must reshuffle the
//! discards uses `<label>/reshuffle`. A shuffle starts from the pile sorted, so its result
//! depends only on which cards are shuffled and on the dice, never on the order in which they
//! happened to lie (an order that may itself be hidden, e.g. face-down discards): whoever
//! learns the cards and the game key at the end can replay it.
//!
//! What a view may show (the deck itself is host-only state):
//! - the draw pile: its **count only** ([`Deck::counts`]), never its cards or their order, not
//!   even to the players whose cards are in it;
//! - the discard pile, in the order of discarding (which every player saw happen): each card
//!   discarded face up to everyone, a card discarded face down to the holder only, and to every
//!   other reader as a face-down card ([`Deck::discard_seen`]);
//! - a hand: its cards to its holder, its count to everyone else. A [`Hand`] is kept sorted, so
//!   even its holder's copy says nothing about the order in which the cards came off the pile.
//!
//! Leak tests permute what a reader may not know with [`Deck::permute_hidden`] (another
//! holder's cards) and [`Deck::permute_draw_pile`] (the order nobody sees).

use crate::protocol::dice::Dice;
use serde::{Deserialize, Serialize};

/// How a card goes onto the discard pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    /// Every reader sees it (a card played, or taken from an open stock).
    Up,
    /// Only its holder knows it.
    Down,
}

/// A card on the discard pile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Discarded<C> {
    pub card: C,
    pub face_up: bool,
}

impl<C> Discarded<C> {
    pub fn new(card: C, face: Face) -> Discarded<C> {
        Discarded {
            card,
            face_up: face == Face::Up,
        }
    }
}

/// A card of the discard pile as one reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeenDiscard<C> {
    /// None: a face-down card the reader did not see.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<C>,
    pub face_down: bool,
}

/// A draw pile (top card first) and a discard pile (most recent last).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck<C> {
    /// Host-only: views show `draw_pile.len()`, never the cards.
    pub draw_pile: Vec<C>,
    #[serde(default = "Vec::new")]
    pub discard: Vec<Discarded<C>>,
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

impl<C: Clone + Ord> Deck<C> {
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

    /// Sorts the draw pile, then shuffles it with the sealed label `label` (see the module doc
    /// for why it is sorted first).
    pub fn shuffle(&mut self, dice: &mut Dice, label: &str, note: &str) {
        self.draw_pile.sort();
        dice.sealed_shuffle(label, &mut self.draw_pile, note);
    }

    /// Adds cards to the draw pile and shuffles the whole pile (e.g. the cards each side chose
    /// this turn go face down into one action deck).
    pub fn shuffle_in(&mut self, cards: Vec<C>, dice: &mut Dice, label: &str, note: &str) {
        self.draw_pile.extend(cards);
        self.shuffle(dice, label, note);
    }

    /// Puts the discard pile, face up and face down alike, back into the draw pile and
    /// shuffles it (with the cards still in the draw pile) under `label`.
    pub fn reshuffle(&mut self, dice: &mut Dice, label: &str, note: &str) {
        let discards = std::mem::take(&mut self.discard);
        self.shuffle_in(
            discards.into_iter().map(|d| d.card).collect(),
            dice,
            label,
            note,
        );
    }

    /// Takes the top card, or `None` from an empty draw pile (no reshuffle: see [`Deck::draw`]).
    pub fn take_top(&mut self) -> Option<C> {
        if self.draw_pile.is_empty() {
            None
        } else {
            Some(self.draw_pile.remove(0))
        }
    }

    /// Takes up to `n` cards off the top, in the order drawn, without reshuffling: a short
    /// draw pile gives only what it holds (for games whose rules reshuffle only between
    /// draws, or never).
    pub fn take(&mut self, n: usize) -> Vec<C> {
        let k = n.min(self.draw_pile.len());
        self.draw_pile.drain(..k).collect()
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

    /// Puts a card on the discard pile, face up or face down.
    pub fn discard(&mut self, card: C, face: Face) {
        self.discard.push(Discarded::new(card, face));
    }

    /// Takes a card out of the deck wherever it lies, draw pile or discard pile (a card that
    /// leaves the deck by an event, not by a draw). False when the deck does not hold it.
    pub fn withdraw(&mut self, card: &C) -> bool {
        if let Some(i) = self.draw_pile.iter().position(|c| c == card) {
            self.draw_pile.remove(i);
            true
        } else if let Some(i) = self.discard.iter().position(|d| d.card == *card) {
            self.discard.remove(i);
            true
        } else {
            false
        }
    }

    /// The discard pile as a reader sees it: `holder` is whether the reader holds this deck's
    /// cards (and so saw its own face-down discards).
    pub fn discard_seen(&self, holder: bool) -> Vec<SeenDiscard<C>> {
        self.discard
            .iter()
            .map(|d| SeenDiscard {
                card: (holder || d.face_up).then(|| d.card.clone()),
                face_down: !d.face_up,
            })
            .collect()
    }

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
        hand.extend(cards);
        k
    }

    /// Moves `card` from `hand` to the discard pile; an error if the hand does not hold it.
    pub fn discard_from(&mut self, hand: &mut Hand<C>, card: &C, face: Face) -> Result<(), String>
    where
        C: std::fmt::Debug,
    {
        if hand.take(card) {
            self.discard(card.clone(), face);
            Ok(())
        } else {
            Err(format!("the hand holds no {card:?}"))
        }
    }

    /// Discards the whole hand, in its (sorted) order, and returns the cards.
    pub fn discard_hand(&mut self, hand: &mut Hand<C>, face: Face) -> Vec<C> {
        let cards = std::mem::take(&mut hand.cards);
        for c in &cards {
            self.discard(c.clone(), face);
        }
        cards
    }

    /// For leak tests: deals the cards a reader other than their holder cannot see (`hand`,
    /// the draw pile and the face-down discards) back into the same places in an order `pick`
    /// chooses (`pick(n)` is below `n`). Counts, face-up discards and the places of the
    /// face-down ones stay as they were.
    pub fn permute_hidden(&mut self, hand: &mut Hand<C>, pick: &mut dyn FnMut(usize) -> usize) {
        let mut pool = std::mem::take(&mut hand.cards);
        let in_hand = pool.len();
        pool.append(&mut self.draw_pile);
        let in_pile = pool.len() - in_hand;
        pool.extend(
            self.discard
                .iter()
                .filter(|d| !d.face_up)
                .map(|d| d.card.clone()),
        );
        permute(&mut pool, pick);
        let mut it = pool.into_iter();
        *hand = Hand::new(it.by_ref().take(in_hand).collect());
        self.draw_pile = it.by_ref().take(in_pile).collect();
        for (d, c) in self.discard.iter_mut().filter(|d| !d.face_up).zip(it) {
            d.card = c;
        }
    }

    /// For leak tests: reorders the draw pile as `pick` chooses (the order nobody sees, not
    /// even the holder).
    pub fn permute_draw_pile(&mut self, pick: &mut dyn FnMut(usize) -> usize) {
        permute(&mut self.draw_pile, pick);
    }
}

/// Fisher-Yates with the leak tests' index picker.
fn permute<T>(items: &mut [T], pick: &mut dyn FnMut(usize) -> usize) {
    for i in (1..items.len()).rev() {
        items.swap(i, pick(i + 1));
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

impl<C: Ord + Clone> Extend<C> for Hand<C> {
    /// Puts every card in the hand ([`Hand::put`]).
    fn extend<I: IntoIterator<Item = C>>(&mut self, cards: I) {
        for c in cards {
            self.put(c);
        }
    }
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
            d.discard(c.to_string(), Face::Down);
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
        d.discard("B".to_string(), Face::Up);
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
    fn extending_a_hand_keeps_it_sorted() {
        let mut h = Hand::new(vec!["B", "D"]);
        h.extend(["E", "A", "C"]);
        assert_eq!(h.cards(), ["A", "B", "C", "D", "E"]);
    }

    #[test]
    fn discarding_needs_the_card_in_hand() {
        let mut d: Deck<&str> = Deck::default();
        let mut h = Hand::new(vec!["B", "A"]);
        assert!(d.discard_from(&mut h, &"A", Face::Down).is_ok());
        let err = d.discard_from(&mut h, &"A", Face::Down).unwrap_err();
        assert!(err.contains("\"A\""), "{err}");
        assert_eq!(d.discard, vec![Discarded::new("A", Face::Down)]);
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
        d.discard("C3".to_string(), Face::Down);
        let text = crate::yaml::to_string(&d);
        assert_eq!(
            text,
            "draw_pile:\n- C1\n- C2\ndiscard:\n- card: C3\n  face_up: false\n"
        );
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

    #[test]
    fn a_shuffle_ignores_the_order_the_cards_lay_in() {
        let mut reversed = nine();
        reversed.reverse();
        let mut a = Deck::new(nine());
        let mut b = Deck::new(reversed);
        a.shuffle(&mut dice(3), "t1/deck", "");
        b.shuffle(&mut dice(3), "t1/deck", "");
        assert_eq!(a.draw_pile, b.draw_pile);
    }

    #[test]
    fn taking_from_a_short_pile_gives_what_it_holds_and_never_reshuffles() {
        let mut d = Deck::new(vec!["A", "B"]);
        d.discard("C", Face::Up);
        assert_eq!(d.take(1), ["A"]);
        assert_eq!(d.take(5), ["B"]);
        assert!(d.take(5).is_empty());
        assert_eq!(d.counts().discard, 1, "the discards stay where they are");
    }

    #[test]
    fn a_reshuffle_takes_face_up_and_face_down_discards_with_the_rest_of_the_pile() {
        let mut d = Deck::new(vec!["A"]);
        d.discard("B", Face::Up);
        d.discard("C", Face::Down);
        let mut x = dice(4);
        d.reshuffle(&mut x, "t2/reshuffle", "");
        let mut cards = d.draw_pile.clone();
        cards.sort();
        assert_eq!(cards, ["A", "B", "C"]);
        assert!(d.discard.is_empty());
        assert_eq!(x.finish().unwrap().sealed[0].label, "t2/reshuffle");
    }

    #[test]
    fn withdrawing_takes_a_card_out_of_either_pile() {
        let mut d = Deck::new(vec!["A", "B"]);
        d.discard("C", Face::Down);
        assert!(d.withdraw(&"B"));
        assert!(d.withdraw(&"C"));
        assert_eq!(d.draw_pile, ["A"]);
        assert!(d.discard.is_empty());
    }

    #[test]
    fn withdrawing_a_card_the_deck_lacks_changes_nothing() {
        let mut d = Deck::new(vec!["A"]);
        assert!(!d.withdraw(&"Z"));
        assert_eq!(d, Deck::new(vec!["A"]));
    }

    #[test]
    fn a_face_down_discard_is_seen_by_its_holder_only() {
        let mut d = Deck::new(vec![]);
        d.discard("A", Face::Up);
        d.discard("B", Face::Down);
        let up = SeenDiscard {
            card: Some("A"),
            face_down: false,
        };
        assert_eq!(
            d.discard_seen(false),
            [
                up.clone(),
                SeenDiscard {
                    card: None,
                    face_down: true
                }
            ]
        );
        assert_eq!(
            d.discard_seen(true),
            [
                up,
                SeenDiscard {
                    card: Some("B"),
                    face_down: true
                }
            ]
        );
        let text = crate::yaml::to_string(&d.discard_seen(false));
        assert_eq!(text, "- card: A\n  face_down: false\n- face_down: true\n");
    }

    #[test]
    fn discarding_a_hand_empties_it_in_sorted_order() {
        let mut d = Deck::new(vec![]);
        let mut h = Hand::new(vec!["C", "A", "B"]);
        assert_eq!(d.discard_hand(&mut h, Face::Down), ["A", "B", "C"]);
        assert!(h.is_empty());
        assert_eq!(d.discard[2], Discarded::new("C", Face::Down));
    }

    /// A deck whose hidden cards are 1-9 and whose one face-up discard is 100.
    fn hidden_deck() -> (Deck<u32>, Hand<u32>) {
        let mut d = Deck::new(vec![4, 5, 6, 7]);
        d.discard(8, Face::Down);
        d.discard(100, Face::Up);
        d.discard(9, Face::Down);
        (d, Hand::new(vec![1, 2, 3]))
    }

    #[test]
    fn permuting_hidden_cards_keeps_every_count_and_the_face_up_discards() {
        let (mut d, mut h) = hidden_deck();
        d.permute_hidden(&mut h, &mut crate::kit::leak::picker(7));
        assert_eq!((h.len(), d.draw_pile.len(), d.discard.len()), (3, 4, 3));
        assert_eq!(d.discard[1], Discarded::new(100, Face::Up));
        assert!(!d.discard[0].face_up && !d.discard[2].face_up);
        let mut all: Vec<u32> = h.cards().to_vec();
        all.extend(&d.draw_pile);
        all.extend([d.discard[0].card, d.discard[2].card]);
        all.sort();
        assert_eq!(all, (1..=9).collect::<Vec<_>>());
    }

    #[test]
    fn permuting_hidden_cards_moves_them_between_hand_pile_and_face_down_discards() {
        let before = hidden_deck();
        let moved = (0..16).any(|seed| {
            let (mut d, mut h) = hidden_deck();
            d.permute_hidden(&mut h, &mut crate::kit::leak::picker(seed));
            h != before.1 && d.draw_pile != before.0.draw_pile && d.discard != before.0.discard
        });
        assert!(moved);
    }

    #[test]
    fn permuting_the_draw_pile_reorders_only_the_draw_pile() {
        let (mut d, _) = hidden_deck();
        let before = d.clone();
        d.permute_draw_pile(&mut crate::kit::leak::picker(3));
        assert_ne!(d.draw_pile, before.draw_pile);
        let mut cards = d.draw_pile.clone();
        cards.sort();
        assert_eq!(cards, before.draw_pile);
        assert_eq!(d.discard, before.discard);
    }
}
