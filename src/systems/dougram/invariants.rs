//! What holds after every dougram step whatever the players ordered (issue 12: conservation
//! invariants). `pbem simulate` checks them after each step it resolves, and the random-play
//! test after each of its steps; a broken one is an error of the game. They are the book's
//! bookkeeping: every counter, chit and card is in exactly one place, a chit off the cup has a
//! token of its own, a Lib hex holds at most 4 units before card 29 (8.4.2, 6.10), Fed stays out
//! of Andy before card 64 (23.1).

use super::cards::Flag;
use super::data::Side;
use super::state::{ChitAt, State, Step, UnitAt};
use crate::kit::seats::Seat;
use std::collections::{BTreeMap, BTreeSet};

/// The Lib stack limit before card 29 (8.4.1, 8.4.2).
const LIB_STACK: usize = 4;

/// Each invariant `after` breaks, given the state `before` the step, as one line.
pub fn broken(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    counters_and_chits_conserved(before, after, &mut out);
    chit_tokens(after, &mut out);
    on_land(after, &mut out);
    if after.step != Step::Setup {
        cards_in_one_zone(after, &mut out);
    }
    lib_stacks(after, &mut out);
    andy_closed_to_fed(after, &mut out);
    if after.turn < before.turn {
        out.push(format!(
            "turn went back from {} to {}",
            before.turn, after.turn
        ));
    }
    if before.finished.is_some() && after.finished != before.finished {
        out.push("a finished game changed its ending".into());
    }
    out
}

/// No counter or chit appears or vanishes.
fn counters_and_chits_conserved(before: &State, after: &State, out: &mut Vec<String>) {
    if !after.units.keys().eq(before.units.keys()) {
        out.push("the set of counters changed".into());
    }
    if !after.chits.keys().eq(before.chits.keys()) {
        out.push("the set of chits changed".into());
    }
}

/// A chit in the cup has no token; any other has one of its own, never newer than the tokens
/// handed out, and none is left in the arming hold (2.5, 6).
fn chit_tokens(s: &State, out: &mut Vec<String>) {
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (id, c) in &s.chits {
        match (&c.at, c.token) {
            (ChitAt::Cup, None) => {}
            (ChitAt::Cup, Some(t)) => out.push(format!("chit {id} in the cup keeps token {t}")),
            (at, None) => out.push(format!("chit {id} at {at:?} has no token")),
            (at, Some(t)) => {
                if let Some(other) = seen.insert(t, id) {
                    out.push(format!("chits {id} and {other} share token {t}"));
                }
                if t > s.next_token {
                    out.push(format!("chit {id} has token {t}, never handed out"));
                }
                if *at == ChitAt::Box("arming_points".into()) {
                    out.push(format!("chit {id} left in the arming hold"));
                }
            }
        }
    }
}

/// Units and latent chits stand on land hexes only.
fn on_land(s: &State, out: &mut Vec<String>) {
    for (id, u) in &s.units {
        if let UnitAt::Hex(h) = u.at
            && !s.data.map.is_land(h)
        {
            out.push(format!("unit {id} in the non-land hex {h}"));
        }
    }
    for (id, c) in &s.chits {
        if let ChitAt::Hex(h) = c.at
            && !s.data.map.is_land(h)
        {
            out.push(format!("chit {id} in the non-land hex {h}"));
        }
    }
}

/// Every card of the data is in exactly one zone, and a hand holds only its owner's cards.
fn cards_in_one_zone(s: &State, out: &mut Vec<String>) {
    let mut at: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for &side in Side::ALL {
        let z = s.cards.get(side);
        let n = side.name();
        for c in z.hand.cards() {
            at.entry(*c).or_default().push(format!("{n} hand"));
            if s.card(*c).map(|c| c.owner) != Some(side) {
                out.push(format!("card {c} is in {n}'s hand but is not {n}'s"));
            }
        }
        for c in &z.deck.draw_pile {
            at.entry(*c).or_default().push(format!("{n} deck"));
        }
        for d in &z.deck.discard {
            at.entry(d.card).or_default().push(format!("{n} discard"));
        }
    }
    for (zone, cards) in [
        ("stock", &s.stock),
        ("open", &s.open),
        ("removed", &s.removed),
    ] {
        for c in cards {
            at.entry(*c).or_default().push(zone.into());
        }
    }
    let known: BTreeSet<u32> = s.data.cards.cards.iter().map(|c| c.no).collect();
    for no in &known {
        match at.get(no).map(Vec::len) {
            Some(1) => {}
            Some(_) => out.push(format!("card {no} is in {:?}", at[no])),
            None => out.push(format!("card {no} is in no zone")),
        }
    }
    for no in at.keys().filter(|no| !known.contains(no)) {
        out.push(format!("unknown card {no} in a zone"));
    }
}

/// 8.4.2, 6.10: at most 4 Lib units in a hex until card 29 opens.
fn lib_stacks(s: &State, out: &mut Vec<String>) {
    if s.flag(&Flag::LibGovernment) {
        return;
    }
    let mut per_hex: BTreeMap<_, usize> = BTreeMap::new();
    for u in s.units.values() {
        if let UnitAt::Hex(h) = u.at
            && u.side == Side::Lib
        {
            *per_hex.entry(h).or_default() += 1;
        }
    }
    for (h, n) in per_hex {
        if n > LIB_STACK {
            out.push(format!(
                "hex {h} holds {n} Lib units before card 29 (8.4.2, 6.10)"
            ));
        }
    }
}

/// 23.1: no Fed unit in Andy until card 64 opens it.
fn andy_closed_to_fed(s: &State, out: &mut Vec<String>) {
    if s.flag(&Flag::FedMayEnterAndy) {
        return;
    }
    let andy = s.data.map.hex_of("andy");
    let fed = s.units_in(andy, Side::Fed);
    if !fed.is_empty() {
        out.push(format!("Fed units {fed:?} in Andy before card 64 (23.1)"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::dougram::{setup, steps};

    /// Setup 1 after its deal (step 1 resolved with no orders): cards in hands and decks.
    fn dealt() -> State {
        let s = setup::initial_state("setup1", &DataSource::default()).unwrap();
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        steps::resolve(&s, &Default::default(), &mut d)
            .unwrap()
            .state
    }

    #[test]
    fn a_dealt_game_breaks_nothing() {
        let s = dealt();
        assert_eq!(broken(&s, &s), Vec::<String>::new());
    }

    #[test]
    fn a_card_in_two_zones_is_reported() {
        let before = dealt();
        let mut after = before.clone();
        let card = *after.cards.get(Side::Lib).hand.cards().first().unwrap();
        after.stock.insert(card);
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.starts_with(&format!("card {card} is in")))
        );
    }

    #[test]
    fn five_lib_units_in_a_hex_before_card_29_are_reported() {
        let before = dealt();
        let mut after = before.clone();
        let lib: Vec<String> = after
            .units
            .iter()
            .filter(|(_, u)| u.side == Side::Lib && matches!(u.at, UnitAt::Hex(_)))
            .map(|(id, _)| id.clone())
            .collect();
        let UnitAt::Hex(h) = after.units[&lib[0]].at else {
            unreachable!()
        };
        let mut moved = 0;
        for id in after.units.keys().cloned().collect::<Vec<_>>() {
            let u = after.units.get_mut(&id).unwrap();
            if u.side == Side::Lib && moved < 5 {
                u.at = UnitAt::Hex(h);
                moved += 1;
            }
        }
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("Lib units before card 29 (8.4.2, 6.10)"))
        );
    }

    #[test]
    fn a_chit_token_handed_out_twice_is_reported() {
        let before = dealt();
        let mut after = before.clone();
        let with_token: Vec<String> = after
            .chits
            .iter()
            .filter(|(_, c)| c.token.is_some())
            .map(|(id, _)| id.clone())
            .take(2)
            .collect();
        let t = after.chits[&with_token[0]].token;
        after.chits.get_mut(&with_token[1]).unwrap().token = t;
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("share token"))
        );
    }
}
