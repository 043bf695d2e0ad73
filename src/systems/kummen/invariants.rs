//! What holds after every kummen step whatever the players ordered (issue 12: conservation
//! invariants in random play). `pbem simulate` checks them after each step it resolves, and
//! counts a broken one as an error of the game; they are not rules of the book but the book's
//! bookkeeping: every counter is in exactly one place, face-down units carry one token each, a
//! cup holds exactly the units it should, and what left the game stays out.

use super::data::Side;
use super::state::{Place, State};
use crate::kit::seats::Seat;
use std::collections::BTreeMap;

/// Each invariant `after` breaks, given the state `before` the step, as one line.
pub fn broken(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    counters_conserved(before, after, &mut out);
    places_consistent(after, &mut out);
    tokens_unique(after, &mut out);
    cups_hold_their_units(after, &mut out);
    removed_stay_removed(before, after, &mut out);
    clocks_move_forward(before, after, &mut out);
    out
}

/// No counter appears or vanishes: a destroyed one goes to a place off the map (2.2.12, 9.10).
fn counters_conserved(before: &State, after: &State, out: &mut Vec<String>) {
    for id in before.units.keys() {
        if !after.units.contains_key(id) {
            out.push(format!("counter {id} vanished"));
        }
    }
    for id in after.units.keys() {
        if !before.units.contains_key(id) {
            out.push(format!("counter {id} appeared"));
        }
        if after.side_of(id).is_none() {
            out.push(format!("counter {id} is not in the counter tables"));
        }
    }
}

/// A unit has a hex exactly when it is on the map, the hex is on the map, and only a unit
/// face-down on the map has a token (6.3).
fn places_consistent(s: &State, out: &mut Vec<String>) {
    if !s.units.index_is_fresh() {
        out.push("the index of units by hex disagrees with the units".into());
    }
    for (id, u) in &s.units {
        match (u.place, u.hex) {
            (Place::Map, None) => out.push(format!("{id} is on the map without a hex")),
            (Place::Map, Some(h)) if !s.map.grid.contains(h) => {
                out.push(format!("{id} is in {h}, which is not on the map"))
            }
            (p, Some(h)) if p != Place::Map => {
                out.push(format!("{id} is at {p:?} and also in hex {h}"))
            }
            _ => {}
        }
        if u.token.is_some() && (u.face_up || u.place != Place::Map) {
            out.push(format!("{id} has a token but is not face-down on the map"));
        }
        if u.token.is_none() && !u.face_up && u.place == Place::Map && !s.is_heli(id) {
            out.push(format!(
                "{id} is face-down on the map without a token (6.3)"
            ));
        }
    }
}

/// Two face-down units of a side never share a token, and no token is newer than the side's
/// counter of tokens handed out.
fn tokens_unique(s: &State, out: &mut Vec<String>) {
    let mut seen: BTreeMap<(Side, u32), &str> = BTreeMap::new();
    for (id, u) in &s.units {
        let (Some(t), Some(side)) = (u.token, s.side_of(id)) else {
            continue;
        };
        if t > *s.next_token.get(side) {
            out.push(format!("{id} has token {t}, never handed out"));
        }
        if let Some(other) = seen.insert((side, t), id) {
            out.push(format!("{id} and {other} share token {t}"));
        }
    }
}

/// A side's cup holds each of its units at the cup once and nothing else (4.3.4, 9.10.2).
fn cups_hold_their_units(s: &State, out: &mut Vec<String>) {
    for &side in Side::ALL {
        let cup = &s.cups.get(side).items;
        let mut counted: BTreeMap<&str, usize> = BTreeMap::new();
        for id in cup {
            *counted.entry(id.as_str()).or_default() += 1;
        }
        for (id, n) in &counted {
            if *n > 1 {
                out.push(format!("{id} is {n} times in the {side:?} cup"));
            }
            match s.units.get(*id) {
                Some(u) if u.place == Place::Cup && s.side_of(id) == Some(side) => {}
                _ => out.push(format!(
                    "{id} is in the {side:?} cup but is not a unit there"
                )),
            }
        }
        for id in s.off_map(side, Place::Cup) {
            if !counted.contains_key(id.as_str()) {
                out.push(format!("{id} is at the cup but not in the {side:?} cup"));
            }
        }
    }
}

/// A counter removed from the game never comes back (9.10.4, 12.9, 13).
fn removed_stay_removed(before: &State, after: &State, out: &mut Vec<String>) {
    for (id, u) in &before.units {
        if u.place == Place::Removed
            && let Some(now) = after.units.get(id)
            && now.place != Place::Removed
        {
            out.push(format!(
                "{id} was removed from the game and is back at {:?}",
                now.place
            ));
        }
    }
}

/// Turns, tokens handed out and an ending never go back.
fn clocks_move_forward(before: &State, after: &State, out: &mut Vec<String>) {
    if after.turn < before.turn {
        out.push(format!(
            "turn went back from {} to {}",
            before.turn, after.turn
        ));
    }
    for &side in Side::ALL {
        if after.next_token.get(side) < before.next_token.get(side) {
            out.push(format!("the {side:?} token counter went back"));
        }
    }
    if before.ending.is_some() && after.ending != before.ending {
        out.push("a finished game changed its ending".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::kummen::fixtures;

    /// The state after setup: face-down units with tokens on the map, units in both cups.
    fn start() -> State {
        fixtures::played(1, 1, |_, _, _| Default::default())
            .pop()
            .unwrap()
    }

    #[test]
    fn a_state_after_setup_breaks_nothing() {
        let s = start();
        assert_eq!(broken(&s, &s), Vec::<String>::new());
    }

    #[test]
    fn a_counter_that_vanishes_is_reported() {
        let before = start();
        let mut after = before.clone();
        let id = after.units.keys().next().unwrap().clone();
        after.units.remove(&id);
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("vanished"))
        );
    }

    #[test]
    fn a_unit_twice_in_a_cup_is_reported() {
        let before = start();
        let mut after = before.clone();
        let side = Side::Beeler;
        let id = after.off_map(side, Place::Cup)[0].clone();
        after.cups.get_mut(side).put(id);
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("2 times"))
        );
    }

    #[test]
    fn face_down_units_sharing_a_token_are_reported() {
        let before = start();
        let mut after = before.clone();
        let down: Vec<String> = after
            .units
            .iter()
            .filter(|(id, u)| u.token.is_some() && after.side_of(id) == Some(Side::Beeler))
            .map(|(id, _)| id.clone())
            .take(2)
            .collect();
        let t = after.units[&down[0]].token;
        after.units.get_mut(&down[1]).unwrap().token = t;
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("share token"))
        );
    }

    #[test]
    fn a_removed_counter_that_comes_back_is_reported() {
        let mut before = start();
        let id = before.off_map(Side::Beeler, Place::Cup)[0].clone();
        before.cups.get_mut(Side::Beeler).take(&id);
        before.units.get_mut(&id).unwrap().place = Place::Removed;
        let mut after = before.clone();
        after.units.get_mut(&id).unwrap().place = Place::Stock;
        assert!(
            broken(&before, &after)
                .iter()
                .any(|l| l.contains("is back"))
        );
    }
}
