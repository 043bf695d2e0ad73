//! What holds after every zeta step whatever the players ordered (`Rules::invariants`;
//! dougram's invariants.rs): the bookkeeping, not the book's judgement. `pbem simulate` and
//! the random-play tests count a broken one as an error.
//!
//! - the step and its stop agree: an ask step has its stopped phase, no other step has one
//!   (plan §1.3);
//! - every card is in exactly one place, its owner's hand, the deck or the drawn row (10.2,
//!   10.4, 11.2, 11.5), and a phase's number is the count of cards drawn;
//! - every unit stands on its map; a carried MS rides an own ship in its place, which rides
//!   nothing, and no ship carries more than its room (15.1, 15.3); an MS carries one
//!   character at most (20.5, A-90); a character aboard is aboard an own unit that exists;
//! - a base's level is 0 to 3 (2.6); the nuke's base is a candidate (36.2) and a used nuke
//!   had one (36.4);
//! - between phases no unit keeps what it did in one (12.5, 18.3, 32.1.5);
//! - the turn never goes back and an ended game stays ended (37).

use super::carry;
use super::data::{Class, Place};
use super::state::{CharPlace, Stage, State};
use crate::kit::seats::Seat;
use std::collections::BTreeMap;

/// Each invariant `after` breaks, given the state `before` the step, one line each.
pub fn broken(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    stage_and_stop(after, &mut out);
    cards_in_one_place(after, &mut out);
    phase_marks_cleared(after, &mut out);
    units_in_place(after, &mut out);
    characters_aboard(after, &mut out);
    bases_and_nuke(after, &mut out);
    if after.turn < before.turn {
        out.push(format!(
            "turn went back from {} to {}",
            before.turn, after.turn
        ));
    }
    if matches!(before.stage, Stage::Over(_)) && after.stage != before.stage {
        out.push("an ended game changed its ending (37)".into());
    }
    out
}

/// Plan §1.3: a stop is stored exactly while an ask step waits, for the faction and reason
/// the step names.
fn stage_and_stop(s: &State, out: &mut Vec<String>) {
    match (&s.stage, &s.pending) {
        (Stage::Ask { k, who, why, .. }, Some(p)) => {
            if p.who != *who || p.why != *why || p.cursor.k != *k {
                out.push(format!(
                    "the ask step (phase {k}, {who}, {why:?}) and its stopped phase (phase {}, {}, {:?}) differ",
                    p.cursor.k, p.who, p.why
                ));
            }
        }
        (Stage::Ask { .. }, None) => out.push("an ask step without a stopped phase".into()),
        (_, Some(p)) => out.push(format!(
            "a stopped phase (waiting for {}) outside an ask step",
            p.who
        )),
        (_, None) => {}
    }
    if let Stage::Phase { k, .. } | Stage::Ask { k, .. } = s.stage
        && usize::from(k) != s.drawn.len()
    {
        out.push(format!(
            "action phase {k} with {} cards drawn (11.2)",
            s.drawn.len()
        ));
    }
}

/// 12.5, 18.3, 32.1.5: what a unit did in a phase is cleared when the phase ends; between
/// phases (a packet step, the game's end) no unit keeps it.
fn phase_marks_cleared(s: &State, out: &mut Vec<String>) {
    if !matches!(s.stage, Stage::Packet { .. } | Stage::Over(_)) {
        return;
    }
    for (id, u) in &s.units {
        if u.action.is_some() || u.atmo_moved || u.placed_this_phase {
            out.push(format!(
                "unit {id} keeps a mark of a phase that has ended (12.5)"
            ));
        }
    }
}

/// 10.2-11.5: each faction's five cards are each in one place, and hands hold their owner's.
fn cards_in_one_place(s: &State, out: &mut Vec<String>) {
    let mut at: BTreeMap<_, Vec<&str>> = BTreeMap::new();
    for side in Side::ALL.iter().copied() {
        for c in s.sides[side].hand.cards() {
            at.entry(*c).or_default().push("a hand");
            if c.side != side {
                out.push(format!("{side}'s hand holds {}'s card", c.side));
            }
        }
    }
    for c in &s.deck.draw_pile {
        at.entry(*c).or_default().push("the deck");
    }
    for c in &s.drawn {
        at.entry(*c).or_default().push("the drawn cards");
    }
    for side in Side::ALL.iter().copied() {
        for c in super::state::Card::hand_of(side) {
            match at.get(&c).map(Vec::len) {
                Some(1) => {}
                Some(_) => out.push(format!("{c:?} is in {:?}", at[&c])),
                None => out.push(format!("{c:?} is nowhere")),
            }
        }
    }
    if s.deck.draw_pile.len() + s.drawn.len() > 9 {
        out.push(format!(
            "{} cards in the deck and drawn: more than the nine chosen (10.4)",
            s.deck.draw_pile.len() + s.drawn.len()
        ));
    }
    if matches!(s.stage, Stage::Packet { .. })
        && !(s.drawn.is_empty() && s.deck.draw_pile.is_empty())
    {
        out.push("cards left out of the hands between turns (11.5)".into());
    }
}

use super::data::Side;

/// 15.1, 15.3, 20.5: units on their maps, carriers sound, room respected.
fn units_in_place(s: &State, out: &mut Vec<String>) {
    let data = &s.data;
    for (id, u) in &s.units {
        if let Place::Hex(l) = u.place
            && !data.on_map(l)
        {
            out.push(format!("unit {id} stands off its map in {}", l.label()));
        }
        if data.unit_type(&u.type_id).is_none() {
            out.push(format!("unit {id} has the unknown type {}", u.type_id));
        }
        let Some(c) = &u.carrier else {
            continue;
        };
        match s.units.get(c) {
            None => out.push(format!("unit {id} rides {c}, which is not on the map")),
            Some(ship) => {
                if ship.side != u.side {
                    out.push(format!("unit {id} rides {c} of {}", ship.side));
                }
                if ship.place != u.place {
                    out.push(format!(
                        "unit {id} in {} rides {c} in {}",
                        u.place.label(),
                        ship.place.label()
                    ));
                }
                if ship.carrier.is_some() {
                    out.push(format!("ship {c} carrying {id} is itself carried"));
                }
                if carry::class_of(s, c) != Some(Class::Ship) {
                    out.push(format!("unit {id} rides {c}, which is no ship"));
                }
            }
        }
    }
    for id in s.units.keys() {
        let n = carry::cargo_of(s, id).len();
        let room = carry::capacity(s, id);
        if n > room {
            out.push(format!("ship {id} carries {n} MS, room for {room} (15.3)"));
        }
    }
}

/// 13.10, 20.5, A-90: a character aboard rides an own unit that exists; an MS holds one.
fn characters_aboard(s: &State, out: &mut Vec<String>) {
    let mut on_ms: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, c) in &s.chars {
        let CharPlace::Aboard(u) = &c.place else {
            continue;
        };
        match s.units.get(u) {
            None => out.push(format!(
                "character {id} is aboard {u}, which is not on the map"
            )),
            Some(unit) => {
                if unit.side != c.side {
                    out.push(format!(
                        "character {id} of {} is aboard {u} of {}",
                        c.side, unit.side
                    ));
                }
                if carry::class_of(s, u) == Some(Class::Ms) {
                    *on_ms.entry(u.as_str()).or_default() += 1;
                }
            }
        }
    }
    for (u, n) in on_ms {
        if n > 1 {
            out.push(format!("MS {u} carries {n} characters (20.5, A-90)"));
        }
    }
}

/// 2.6, 36.2-36.4.
fn bases_and_nuke(s: &State, out: &mut Vec<String>) {
    for (id, b) in &s.bases {
        if b.level > 3 {
            out.push(format!("base {id} at level {} (2.6)", b.level));
        }
        if s.data.base(id).is_none() {
            out.push(format!("base {id} is not in the data"));
        }
    }
    if let Some(b) = &s.nuke.base
        && !s.data.nuke_candidates().contains(b)
    {
        out.push(format!("the nuke is in {b}, not a candidate (36.2)"));
    }
    if s.nuke.used && s.nuke.base.is_none() {
        out.push("the nuke was used without a base (36.4)".into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::data::Loc;
    use crate::systems::zeta::state::{AskWhy, Card, CardKind};
    use crate::systems::zeta::{defaults, setup, steps};

    fn start() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    /// The setup holds every invariant, and so does every step of a turn of defaults.
    #[test]
    fn the_setup_and_a_turn_of_defaults_hold_every_invariant() {
        let mut st = start();
        assert_eq!(broken(&st, &st), Vec::<String>::new());
        for n in 1..40u64 {
            let o = Side::ALL
                .iter()
                .map(|s| (s.name().to_string(), defaults::default_orders(&st, *s)))
                .collect();
            let mut dice = Dice::new(Hash32([n as u8; 32]), Hash32([3; 32])).at_step(n);
            let next = steps::resolve(&st, &o, &mut dice).unwrap().state;
            assert_eq!(broken(&st, &next), Vec::<String>::new(), "step {n}");
            st = next;
            if st.turn == 2 {
                break;
            }
        }
    }

    /// Random play (docs/adding-a-system.md §4): each waiting side sends one of its choice
    /// items, picked by a fixed stream; every step resolves and holds every invariant.
    #[test]
    fn a_game_of_random_choice_items_holds_every_invariant() {
        let mut asks = 0;
        for game in 0..2u64 {
            let mut st = start();
            let mut pick = game.wrapping_mul(7919).wrapping_add(13);
            for n in 1..100u64 {
                let waiting: Vec<Side> = match &st.stage {
                    Stage::Packet { .. } => Side::ALL.to_vec(),
                    Stage::Phase { card, .. } => vec![card.side],
                    Stage::Ask { who, .. } => {
                        asks += 1;
                        vec![*who]
                    }
                    Stage::Over(_) => break,
                };
                let mut o = std::collections::BTreeMap::new();
                for side in waiting {
                    let items = crate::systems::zeta::choices::choices(&st, side).orders();
                    pick = pick
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let mut chosen = defaults::default_orders(&st, side);
                    if !items.is_empty() && pick % 3 != 0 {
                        let i = usize::try_from((pick >> 33) % items.len() as u64).unwrap();
                        let item = items[i].clone();
                        // Titans' turn-1 packet keeps its nuke base (36.3).
                        if item.nuke_base.is_none() {
                            chosen = crate::systems::zeta::orders::Orders {
                                cards: chosen.cards.clone(),
                                ..item
                            };
                        }
                        if chosen.cards.is_some() && !matches!(st.stage, Stage::Packet { .. }) {
                            chosen.cards = None;
                        }
                    }
                    o.insert(side.name().to_string(), chosen);
                }
                let mut dice =
                    Dice::new(Hash32([(n % 251) as u8; 32]), Hash32([game as u8; 32])).at_step(n);
                let next = match steps::resolve(&st, &o, &mut dice) {
                    Ok(r) => r.state,
                    Err(e) => panic!("game {game} step {n} at {:?}: {e}; orders {o:?}", st.stage),
                };
                let b = broken(&st, &next);
                assert!(
                    b.is_empty(),
                    "game {game} step {n} at {:?}: {b:?}; orders {o:?}",
                    st.stage
                );
                st = next;
            }
        }
        assert!(asks > 0, "no ask step was reached");
    }

    /// Plan §1.3: an ask step needs its stopped phase.
    #[test]
    fn an_ask_step_without_its_stop_is_broken() {
        let mut st = start();
        st.stage = Stage::Ask {
            turn: 1,
            k: 0,
            who: Side::Aeug,
            why: AskWhy::Join {
                at: Loc::parse("space:C05").unwrap(),
            },
        };
        assert_eq!(
            broken(&st, &st),
            vec!["an ask step without a stopped phase".to_string()]
        );
    }

    /// 10.2, 11.2: a card in two places, or a phase number the drawn cards do not give.
    #[test]
    fn a_card_in_two_places_and_a_wrong_phase_number_are_broken() {
        let mut st = start();
        let card = Card {
            side: Side::Titans,
            kind: CardKind::Space,
            copy: 1,
        };
        st.drawn.push(card);
        let b = broken(&st, &st);
        assert!(
            b.iter()
                .any(|l| l.contains("is in [\"a hand\", \"the drawn cards\"]")),
            "{b:?}"
        );
        st.stage = Stage::Phase {
            turn: 1,
            k: 2,
            card,
        };
        let b = broken(&st, &st);
        assert!(
            b.iter()
                .any(|l| l == "action phase 2 with 1 cards drawn (11.2)"),
            "{b:?}"
        );
    }

    /// 15.1, 15.3: a carried MS rides an own ship in its place, within its room.
    #[test]
    fn a_carrier_elsewhere_or_overfull_is_broken() {
        let mut st = start();
        let (ship, ms): (String, String) = {
            let (ms, u) = st.units.iter().find(|(_, u)| u.carrier.is_some()).unwrap();
            (u.carrier.clone().unwrap(), ms.clone())
        };
        let room = carry::capacity(&st, &ship);
        let mut far = st.clone();
        far.units.get_mut(&ms).unwrap().place = Place::Belt;
        assert!(
            broken(&st, &far)
                .iter()
                .any(|l| l.contains(&format!("unit {ms} in belt rides {ship}")))
        );
        // Fill the ship beyond its room with the same side's other MS of its place.
        let place = st.units[&ship].place;
        let side = st.units[&ship].side;
        for i in 0..=room {
            let id = format!("{}-extra-{i}", side.letter());
            let mut u = st.units[&ms].clone();
            u.place = place;
            u.carrier = Some(ship.clone());
            st.units.insert(id, u);
        }
        let b = broken(&st, &st);
        assert!(b.iter().any(|l| l.contains("(15.3)")), "{b:?}");
    }

    /// 20.5, A-90: one character per MS.
    #[test]
    fn two_characters_on_one_ms_are_broken() {
        let mut st = start();
        let ms = st
            .units
            .iter()
            .find(|(_, u)| {
                u.side == Side::Aeug
                    && carry::class_of(&st, "x").is_none()
                    && st
                        .data
                        .unit_type(&u.type_id)
                        .is_some_and(|t| t.class == Class::Ms)
            })
            .map(|(id, _)| id.clone())
            .unwrap();
        let aeug: Vec<String> = st
            .chars
            .iter()
            .filter(|(_, c)| c.side == Side::Aeug)
            .map(|(id, _)| id.clone())
            .take(2)
            .collect();
        for c in &aeug {
            st.chars.get_mut(c).unwrap().place = CharPlace::Aboard(ms.clone());
        }
        let b = broken(&st, &st);
        assert!(
            b.iter().any(|l| l.contains("carries 2 characters")),
            "{b:?}"
        );
    }

    /// 12.5: a unit's action does not outlive its phase.
    #[test]
    fn an_action_left_after_the_phase_is_broken() {
        let mut st = start();
        if let Some(u) = st.units.values_mut().next() {
            u.action = Some(crate::systems::zeta::state::Action::Move);
        }
        let b = broken(&st, &st);
        assert!(
            b.iter().any(|l| l.contains("keeps a mark of a phase")),
            "{b:?}"
        );
    }

    /// 37: the turn never goes back; an ended game stays ended.
    #[test]
    fn the_turn_going_back_is_broken() {
        let st = start();
        let mut later = st.clone();
        later.turn = 3;
        assert!(
            broken(&later, &st)
                .iter()
                .any(|l| l.contains("turn went back"))
        );
    }
}
