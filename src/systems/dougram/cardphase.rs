//! The card phase (5) and the standing policies that stand in for its choices (digest 3.2).
//!
//! The processor runs a side's card phase at the end of the submission before that side's
//! player-turn (docs/dougram.md, step model), so the 5.2 keep choice and the 5.5.1-5.5.2 stock
//! choices come from the side's [`CardPolicy`]; the 5.4 discard waits for the owner's next
//! submission ([`discard_to_six`]).

use super::cards::{After, DECK_SIZE, Effect};
use super::data::Side;
use super::state::State;
use crate::kit::deck::{Discarded, Face};
use crate::kit::reach;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Hand size drawn in each card phase (5.3).
pub const DRAW: usize = 6;
/// Most discards swapped with stock cards before a reshuffle (5.5.2).
pub const MAX_SWAPS: usize = 3;

/// A side's standing card policy; replaced whenever the side sends a new one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardPolicy {
    /// 5.2: keep the highest-ranked card of this list that is in hand; when none of them is,
    /// the best card of the hand by [`default_rank`], unless `keep_none`.
    #[serde(default)]
    pub keep: Vec<u32>,
    /// 5.2 lets a player keep no card: with `true`, only a listed card is ever kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_none: bool,
    /// 5.5.1-5.5.2: stock cards wanted, best first. Top-up takes these first, then the lowest
    /// numbers of the side's other stock cards; swaps take only these.
    #[serde(default)]
    pub stock_wishlist: Vec<u32>,
    /// 5.5.2: discards to swap out for wishlist cards (at most 3 swaps happen).
    #[serde(default)]
    pub swap_out: Vec<u32>,
}

/// What one card phase did: lines for everyone, lines for the owner.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub public: Vec<String>,
    pub private: Vec<String>,
}

/// Problems with a policy, located under `at` in the order document.
pub fn legal_card_policy(
    state: &State,
    side: Side,
    p: &CardPolicy,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (field, list) in [
        ("keep", &p.keep),
        ("stock_wishlist", &p.stock_wishlist),
        ("swap_out", &p.swap_out),
    ] {
        for (i, no) in list.iter().enumerate() {
            match state.card(*no) {
                None => out.push(Problem::new(
                    at.at(field).at(i),
                    "",
                    format!("there is no card {no}"),
                    "a card number from games/dougram/cards.yaml",
                )),
                Some(c) if c.owner != side => out.push(Problem::new(
                    at.at(field).at(i),
                    "5.5.1",
                    format!("card {no} belongs to {}", c.owner.name()),
                    format!("one of {}'s own cards (5.5.1: a side takes only its own cards from the stock; docs/dougram.md, Decisions)", side.name()),
                )),
                _ => {}
            }
        }
    }
    out
}

/// The card policies `side` may send, one card in one list each: every card of the side's own
/// where [`legal_card_policy`] accepts it, in card order.
pub fn card_policy_choices(state: &State, side: Side) -> Vec<CardPolicy> {
    let mut out = Vec::new();
    for c in &state.data.cards.cards {
        for p in [
            CardPolicy {
                keep: vec![c.no],
                ..CardPolicy::default()
            },
            CardPolicy {
                stock_wishlist: vec![c.no],
                ..CardPolicy::default()
            },
            CardPolicy {
                swap_out: vec![c.no],
                ..CardPolicy::default()
            },
        ] {
            if legal_card_policy(state, side, &p, &FieldPath::root()).is_empty() {
                out.push(p);
            }
        }
    }
    out
}

/// How good a card is to keep when the policy names none (5.2), lower is better, read from the
/// card's data: a card that stays open (a lasting effect, and every card a victory needs),
/// then one that moves or brings units (sea moves, arming points, placements), then combat
/// and security cards, then the rest; ties go to the lower number.
pub fn default_rank(state: &State, no: u32) -> (u8, u32) {
    let tier = match state.card(no) {
        None => 4,
        Some(c) if c.after == After::Open => 0,
        Some(c)
            if c.effects.iter().any(|e| {
                matches!(
                    e,
                    Effect::SeaMove(_) | Effect::ArmingPoints(_) | Effect::PlaceUnits(_)
                )
            }) =>
        {
            1
        }
        Some(c)
            if c.effects.iter().any(|e| {
                matches!(
                    e,
                    Effect::CombatMod(_) | Effect::CancelCombat | Effect::SecurityChecks
                )
            }) =>
        {
            2
        }
        Some(_) => 3,
    };
    (tier, no)
}

/// The card a 5.2 keep policy keeps from `hand`: the first listed card in hand, else the best
/// by [`default_rank`] unless the policy says `keep_none`.
pub fn kept(state: &State, hand: &[u32], policy: &CardPolicy) -> Option<u32> {
    policy
        .keep
        .iter()
        .copied()
        .find(|c| hand.contains(c))
        .or_else(|| {
            (!policy.keep_none)
                .then(|| hand.iter().copied().min_by_key(|c| default_rank(state, *c)))
                .flatten()
        })
}

/// The 5.4 fallback when the owner names no card: among the cards the policy does not list,
/// the worst by [`default_rank`]; else the lowest-listed card.
pub fn fallback_discard(state: &State, hand: &[u32], policy: &CardPolicy) -> Option<u32> {
    let rank = |c: u32| policy.keep.iter().position(|k| *k == c);
    hand.iter().copied().max_by_key(|c| {
        (
            rank(*c).is_none(),
            rank(*c).unwrap_or(0),
            default_rank(state, *c),
        )
    })
}

/// Builds a new deck from the discard pile (5.5): top-up to 18 from the stock (5.5.1), up to
/// 3 swaps (5.5.2), no open or removed card (5.5.3: they are never in the pile), then a sealed
/// shuffle.
pub fn reshuffle(state: &mut State, side: Side, dice: &mut Dice, label: &str, r: &mut Report) {
    let policy = state.policies.get(side).card.clone();
    let own_stock = |s: &State| -> Vec<u32> {
        let mut wanted: Vec<u32> = policy
            .stock_wishlist
            .iter()
            .copied()
            .filter(|c| s.stock.contains(c) && s.card(*c).is_some_and(|k| k.owner == side))
            .collect();
        let mut rest: Vec<u32> = s
            .stock
            .iter()
            .copied()
            .filter(|c| !wanted.contains(c) && s.card(*c).is_some_and(|k| k.owner == side))
            .collect();
        wanted.append(&mut rest);
        wanted
    };
    // 5.5.1
    let have = state.cards.get(side).deck.discard.len();
    if have < DECK_SIZE {
        let picks: Vec<u32> = own_stock(state)
            .into_iter()
            .take(DECK_SIZE - have)
            .collect();
        for c in &picks {
            reach::fire("5.5.1");
            state.stock.remove(c);
            state.cards.get_mut(side).deck.discard(*c, Face::Up);
        }
        if !picks.is_empty() {
            r.public.push(format!(
                "{} tops the discard pile up to {} with stock cards {} (5.5.1)",
                side.name(),
                have + picks.len(),
                picks
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    // 5.5.2, after the top-up (the book's order), with the wishlist cards the top-up left.
    let mut swaps = 0;
    for out_card in policy.swap_out.iter().copied() {
        if swaps == MAX_SWAPS {
            break;
        }
        let Some(pos) = state
            .cards
            .get(side)
            .deck
            .discard
            .iter()
            .position(|d| d.card == out_card)
        else {
            continue;
        };
        let Some(in_card) =
            policy.stock_wishlist.iter().copied().find(|c| {
                state.stock.contains(c) && state.card(*c).is_some_and(|k| k.owner == side)
            })
        else {
            break;
        };
        state.stock.remove(&in_card);
        state.stock.insert(out_card);
        state.cards.get_mut(side).deck.discard[pos] = Discarded::new(in_card, Face::Up);
        swaps += 1;
        reach::fire("5.5.2");
        r.public.push(format!(
            "{} swaps discard {out_card} for stock card {in_card} (5.5.2)",
            side.name()
        ));
    }
    // 5.5.3: an open or removed card never goes back into a deck, wherever it lies.
    let gone: BTreeSet<u32> = state.open.union(&state.removed).copied().collect();
    let deck = &mut state.cards.get_mut(side).deck;
    let before = deck.discard.len();
    deck.discard.retain(|d| !gone.contains(&d.card));
    if deck.discard.len() < before {
        reach::fire("5.5.3");
    }
    deck.reshuffle(dice, label, &format!("{} deck (5.5)", side.name()));
    r.public.push(format!(
        "{} shuffles {} cards into a new deck (5.5)",
        side.name(),
        deck.draw_pile.len()
    ));
}

/// Draws up to `n` cards (5.3): reshuffles first if the deck is empty (5.5); a deck of 1-5
/// cards gives only those (default A42). Returns the cards drawn.
pub fn draw(
    state: &mut State,
    side: Side,
    n: usize,
    dice: &mut Dice,
    label: &str,
    r: &mut Report,
) -> Vec<u32> {
    if state.cards.get(side).deck.draw_pile.is_empty() {
        reshuffle(state, side, dice, label, r);
    }
    let z = state.cards.get_mut(side);
    let drawn = z.deck.take(n);
    z.hand.extend(drawn.iter().copied());
    drawn
}

/// One side's card phase (5). `label` prefixes the dice labels of this step.
pub fn card_phase(state: &mut State, side: Side, dice: &mut Dice, label: &str) -> Report {
    let mut r = Report::default();
    let who = side.name();
    if state.turn <= 1 {
        reach::fire("5.7");
        r.public
            .push(format!("{who} skips the card phase on turn 1 (5.7)"));
        return r;
    }
    // 5.2, 5.6
    reach::fire("5.1");
    let policy = state.policies.get(side).card.clone();
    let keep = kept(state, state.cards.get(side).hand.cards(), &policy);
    let z = state.cards.get_mut(side);
    if let Some(c) = keep {
        reach::fire("5.2");
        z.hand.take(&c);
    }
    let gone = z.deck.discard_hand(&mut z.hand, Face::Down);
    if !gone.is_empty() {
        reach::fire("5.6");
    }
    z.hand.extend(keep);
    r.public.push(format!(
        "{who} keeps {} card(s) and discards {} face down (5.2, 5.6)",
        z.hand.len(),
        gone.len()
    ));
    r.private.push(match keep {
        Some(c) => format!("you keep card {c}"),
        None => "you keep no card".to_string(),
    });
    // 5.3, 5.5
    let drawn = draw(
        state,
        side,
        DRAW,
        dice,
        &format!("{label}/reshuffle/{who}"),
        &mut r,
    );
    if !drawn.is_empty() {
        reach::fire("5.3");
    }
    r.public
        .push(format!("{who} draws {} card(s) (5.3)", drawn.len()));
    r.private.push(format!(
        "you draw {}",
        drawn
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    // 5.4
    if state.cards.get(side).hand.len() > DRAW {
        *state.pending_discard.get_mut(side) = true;
        r.public.push(format!(
            "{who} holds 7 cards and discards one with the next orders (5.4)"
        ));
    }
    r
}

/// Whether `side` may discard `card` face down to get back to six cards (5.4): a discard is
/// due, the card is in hand, and the same orders do not play it (`played`: the cards they play
/// for certain), since the discard comes before every phase.
pub fn legal_discard(
    state: &State,
    side: Side,
    card: u32,
    played: &BTreeSet<u32>,
    at: &FieldPath,
) -> Result<(), Problem> {
    let hand = &state.cards.get(side).hand;
    if played.contains(&card) {
        Err(Problem::new(
            at.clone(),
            "5.4",
            format!(
                "card {card} is discarded face down before any phase, so it cannot be played later in these orders"
            ),
            "discard another card, or do not play this one",
        ))
    } else if !*state.pending_discard.get(side) {
        Err(Problem::new(
            at.clone(),
            "5.4",
            "no discard is due: the last card phase did not leave 7 cards",
            "leave discard_to_six out",
        ))
    } else if !hand.contains(&card) {
        Err(Problem::new(
            at.clone(),
            "5.4",
            format!("card {card} is not in your hand"),
            format!("one of {:?}", hand.cards()),
        ))
    } else {
        Ok(())
    }
}

/// The cards [`legal_discard`] accepts now, in hand order (none when no discard is due).
pub fn discard_choices(state: &State, side: Side) -> Vec<u32> {
    let none = BTreeSet::new();
    state
        .cards
        .get(side)
        .hand
        .cards()
        .iter()
        .copied()
        .filter(|c| legal_discard(state, side, *c, &none, &FieldPath::root()).is_ok())
        .collect()
}

/// The 5.4 discard: `card` from the owner's orders, else the policy fallback. The discard
/// comes first in the player-turn, so the state is the one `check` judged the card on: an
/// error here means orders `check` refused.
pub fn discard_to_six(state: &mut State, side: Side, card: Option<u32>) -> Result<u32, String> {
    if !*state.pending_discard.get(side) {
        return Err("no discard is due (5.4 applies only with 7 cards)".into());
    }
    let policy = state.policies.get(side).card.clone();
    let c = match card {
        Some(c) => {
            legal_discard(state, side, c, &BTreeSet::new(), &FieldPath::root())
                .map_err(|p| p.message)?;
            c
        }
        None => fallback_discard(state, state.cards.get(side).hand.cards(), &policy)
            .ok_or("empty hand")?,
    };
    let z = state.cards.get_mut(side);
    z.deck
        .discard_from(&mut z.hand, &c, Face::Down)
        .map_err(|_| format!("card {c} is not in your hand"))?;
    *state.pending_discard.get_mut(side) = false;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::fixtures::{dealt, dice};

    #[test]
    fn turn_1_has_no_card_phase_5_7() {
        let mut s = dealt("setup1", 1);
        let before = s.cards.clone();
        let r = card_phase(&mut s, Side::Lib, &mut dice(2), "t1");
        assert_eq!(s.cards, before);
        assert!(r.public[0].contains("5.7"));
    }

    #[test]
    fn keep_at_most_one_discard_face_down_draw_six_5_2_5_3_5_6() {
        let mut s = dealt("setup1", 1);
        s.turn = 2;
        let hand = s.cards[Side::Lib].hand.cards().to_vec();
        s.policies[Side::Lib].card.keep = vec![hand[3], hand[1]];
        let mut d = dice(3);
        let r = card_phase(&mut s, Side::Lib, &mut d, "t2");
        let z = &s.cards[Side::Lib];
        assert_eq!(z.hand.len(), 7);
        assert!(z.hand.contains(&hand[3]));
        assert_eq!(z.deck.discard.len(), 5);
        assert!(z.deck.discard.iter().all(|x| !x.face_up));
        assert_eq!(z.deck.draw_pile.len(), 18 - 12);
        // The public report gives counts only; the owner learns which cards.
        assert_eq!(r.public.len(), 3);
        assert_eq!(r.private[0], format!("you keep card {}", hand[3]));
        assert!(d.finish().unwrap().sealed.is_empty(), "no reshuffle yet");
    }

    #[test]
    fn keeping_none_leaves_a_hand_of_six_and_no_5_4_discard() {
        let mut s = dealt("setup1", 1);
        s.turn = 2;
        s.policies[Side::Fed].card.keep_none = true;
        card_phase(&mut s, Side::Fed, &mut dice(4), "t2");
        assert_eq!(s.cards[Side::Fed].hand.len(), 6);
        assert!(!s.pending_discard[Side::Fed]);
        assert_eq!(s.cards[Side::Fed].deck.discard.len(), 6);
    }

    #[test]
    fn by_default_the_best_card_of_the_hand_is_kept_5_2() {
        let mut s = dealt("setup1", 1);
        s.turn = 2;
        let hand: Vec<u32> = s.cards[Side::Fed].hand.cards().to_vec();
        let best = *hand.iter().min_by_key(|c| default_rank(&s, **c)).unwrap();
        let r = card_phase(&mut s, Side::Fed, &mut dice(4), "t2");
        assert!(
            r.private.contains(&format!("you keep card {best}")),
            "{r:?}"
        );
        assert!(s.cards[Side::Fed].hand.contains(&best));
        assert_eq!(s.cards[Side::Fed].hand.len(), 7, "kept + 6 drawn (5.3)");
        // A card that stays open outranks one that only draws cards.
        let stays_open = s
            .data
            .cards
            .cards
            .iter()
            .find(|c| c.after == After::Open)
            .unwrap()
            .no;
        let draws = s
            .data
            .cards
            .cards
            .iter()
            .find(|c| c.effects.iter().any(|e| matches!(e, Effect::DrawCards(_))))
            .unwrap()
            .no;
        assert_eq!(
            kept(&s, &[draws, stays_open], &CardPolicy::default()),
            Some(stays_open)
        );
    }

    #[test]
    fn a_short_deck_gives_only_what_it_has_5_3() {
        let mut s = dealt("setup1", 1);
        s.policies[Side::Lib].card.keep_none = true;
        s.turn = 2;
        let rest: Vec<u32> = s.cards[Side::Lib].deck.draw_pile.drain(3..).collect();
        s.stock.extend(rest);
        card_phase(&mut s, Side::Lib, &mut dice(5), "t2");
        assert_eq!(s.cards[Side::Lib].hand.len(), 3);
        assert!(s.cards[Side::Lib].deck.draw_pile.is_empty());
    }

    #[test]
    fn an_empty_deck_reshuffles_the_discards_topped_up_to_18_5_5_5_5_1() {
        let mut s = dealt("setup1", 1);
        s.policies[Side::Lib].card.keep_none = true;
        s.turn = 3;
        let rest: Vec<u32> = s.cards[Side::Lib].deck.draw_pile.drain(..).collect();
        s.stock.extend(rest.iter().copied());
        let wish = rest[4];
        s.policies[Side::Lib].card.stock_wishlist = vec![wish];
        let mut d = dice(6);
        let r = card_phase(&mut s, Side::Lib, &mut d, "t3");
        // 6 discards + 12 from the stock, wish first; then 6 drawn.
        assert_eq!(
            s.cards[Side::Lib].hand.len() + s.cards[Side::Lib].deck.draw_pile.len(),
            18
        );
        assert_eq!(s.cards[Side::Lib].hand.len(), 6);
        assert!(!s.stock.contains(&wish));
        assert!(
            r.public
                .iter()
                .any(|l| l.contains("5.5.1") && l.contains(&wish.to_string()))
        );
        let t = d.finish().unwrap();
        assert_eq!(t.sealed.len(), 1);
        assert_eq!(t.sealed[0].label, "t3/reshuffle/lib");
        // Only Lib's own cards came from the stock (default A43).
        for c in s.cards[Side::Lib]
            .hand
            .cards()
            .iter()
            .chain(&s.cards[Side::Lib].deck.draw_pile)
        {
            assert_eq!(s.card(*c).unwrap().owner, Side::Lib);
        }
    }

    #[test]
    fn up_to_three_discards_are_swapped_for_stock_cards_5_5_2() {
        let mut s = dealt("setup1", 1);
        s.policies[Side::Lib].card.keep_none = true;
        s.turn = 3;
        // Four more Lib cards in the stock, so that the cap of 3 is what stops the swaps.
        let extra = [208, 302, 303, 310];
        for c in s.data.cards.cards.iter_mut() {
            if extra.contains(&c.no) {
                c.owner = Side::Lib;
            }
        }
        let rest: Vec<u32> = s.cards[Side::Lib].deck.draw_pile.drain(..).collect();
        for c in rest {
            s.cards[Side::Lib].deck.discard(c, Face::Down);
        }
        let hand = s.cards[Side::Lib].hand.cards().to_vec();
        s.policies[Side::Lib].card.swap_out = hand.clone();
        s.policies[Side::Lib].card.stock_wishlist = extra.to_vec();
        let r = card_phase(&mut s, Side::Lib, &mut dice(7), "t3");
        assert!(
            r.public.iter().all(|l| !l.contains("5.5.1")),
            "18 already: no top-up"
        );
        assert_eq!(r.public.iter().filter(|l| l.contains("5.5.2")).count(), 3);
        let in_play: Vec<u32> = s.cards[Side::Lib]
            .hand
            .cards()
            .iter()
            .chain(&s.cards[Side::Lib].deck.draw_pile)
            .copied()
            .collect();
        assert_eq!(in_play.len(), 18);
        assert_eq!(hand.iter().filter(|c| s.stock.contains(c)).count(), 3);
        assert_eq!(extra[..3].iter().filter(|c| in_play.contains(c)).count(), 3);
        assert!(s.stock.contains(&extra[3]));
    }

    #[test]
    fn open_and_removed_cards_never_enter_the_new_deck_5_5_3() {
        let mut s = dealt("setup2", 1);
        s.turn = 3;
        let rest: Vec<u32> = s.cards[Side::Fed].deck.draw_pile.drain(..).collect();
        s.stock.extend(rest);
        // An open card left lying in the discard pile must still stay out of the new deck.
        let open = *s.open.iter().next().unwrap();
        s.cards[Side::Fed].deck.discard(open, Face::Up);
        card_phase(&mut s, Side::Fed, &mut dice(8), "t3");
        assert!(!s.open.is_empty() && !s.removed.is_empty());
        for c in s.cards[Side::Fed]
            .hand
            .cards()
            .iter()
            .chain(&s.cards[Side::Fed].deck.draw_pile)
        {
            assert!(!s.open.contains(c) && !s.removed.contains(c));
        }
    }

    #[test]
    fn the_seventh_card_is_discarded_by_order_or_by_fallback_5_4() {
        let mut s = dealt("setup1", 1);
        s.turn = 2;
        let keep = s.cards[Side::Lib].hand.cards()[0];
        s.policies[Side::Lib].card.keep = vec![keep];
        card_phase(&mut s, Side::Lib, &mut dice(9), "t2");
        let mut t = s.clone();
        let named = s.cards[Side::Lib].hand.cards()[2];
        assert_eq!(discard_to_six(&mut s, Side::Lib, Some(named)), Ok(named));
        assert_eq!(s.cards[Side::Lib].hand.len(), 6);
        assert!(!s.cards[Side::Lib].deck.discard.last().unwrap().face_up);
        assert!(discard_to_six(&mut s, Side::Lib, None).is_err());
        let f = discard_to_six(&mut t, Side::Lib, None).unwrap();
        assert_ne!(f, keep, "the ranked card is discarded last");
        assert_eq!(
            f,
            *t.cards[Side::Lib]
                .hand
                .cards()
                .iter()
                .chain([&f])
                .filter(|c| **c != keep)
                .max_by_key(|c| default_rank(&t, **c))
                .unwrap(),
            "the worst unlisted card by the default rank goes"
        );
    }

    #[test]
    fn a_policy_naming_foreign_or_unknown_cards_is_a_problem_5_5_1() {
        let s = dealt("setup1", 1);
        let p = CardPolicy {
            keep: vec![77, 9999],
            ..CardPolicy::default()
        };
        let probs = legal_card_policy(&s, Side::Lib, &p, &FieldPath::root().at("policy"));
        assert_eq!(probs.len(), 2);
    }
}
