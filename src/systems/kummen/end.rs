//! The general offensive (4.5), game end (14.1) and final scoring (14.2).

use super::data::{self, Class, Control, Side};
use super::state::{Ending, Log, State, Step};
use crate::kit::reach::fire;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;

/// 4.5: in the reinforcement phase of turn 7 the mercenary side draws one of the seven
/// general-offensive markers in secret (sealed draw; only the mercenary view shows its value).
pub fn draw_offensive(state: &mut State, dice: &mut Dice, log: &mut Log) {
    if state.turn != 7 || state.offensive_turn.is_some() {
        return;
    }
    let markers = state.counters.offensive_markers.clone();
    let i = dice.sealed_index(
        "t7/p1/offensive-marker",
        markers.len(),
        "general-offensive marker (4.5.2)",
    );
    let v = markers.get(i).copied().unwrap_or(11);
    state.offensive_turn = Some(v);
    for rule in ["4.5.1", "4.5.2", "4.5.3", "4.5.4"] {
        fire(rule);
    }
    log.public("t7/p1: the mercenary side draws a general-offensive marker in secret (4.5.2)");
    log.private(
        Side::Mercenary,
        format!("t7/p1: the general offensive comes at the end of turn {v} (4.5.4)"),
    );
}

/// 14.1.1: a side controlling the enemy home base ends the game after the combat phase.
pub fn home_captured(state: &State) -> bool {
    let palace = state.map.home(Side::Beeler);
    let ex10 = state.map.home(Side::Mercenary);
    state.control_of(palace) == Control::Mercenary || state.control_of(ex10) == Control::Beeler
}

/// 14.1.2: at the end of turns 8-11, the offensive turn ends the game.
pub fn offensive_now(state: &State) -> bool {
    (8..=11).contains(&state.turn) && state.offensive_turn == Some(state.turn)
}

/// Scores the end of the game (14.2) and marks it over.
pub fn finish(state: &mut State, dice: &mut Dice, log: &mut Log, by_offensive: bool) {
    let t = state.turn;
    let palace = state.map.home(Side::Beeler);
    fire(if by_offensive { "14.1.2" } else { "14.1.1" });
    if state.control_of(palace) == Control::Mercenary {
        // 14.2.1: 2D + 13.
        fire("14.2.1");
        let label = format!("t{t}/end/palace");
        let r = dice.two_d6(&label);
        dice.set_result(&label, format!("2D+13 = {} VP", r + 13));
        state.vp[Side::Mercenary] += i64::from(r) + 13;
        log.public(format!(
            "end: the mercenary side holds the palace: 2D = {r}, +{} VP (14.2.1)",
            r + 13
        ));
        // 14.2.2: (offensive turn - end turn) x 7; before turn 8 the marker is drawn now (4.5).
        let off = match state.offensive_turn {
            Some(v) => v,
            None => {
                let label = format!("t{t}/end/offensive-marker");
                let markers = state.counters.offensive_markers.clone();
                let k = dice.roll(&label, 1, markers.len().max(1) as u32)[0] as usize;
                let v = markers.get(k.saturating_sub(1)).copied().unwrap_or(11);
                dice.set_result(&label, format!("marker {v}"));
                log.public(format!(
                    "end: a general-offensive marker is drawn: turn {v} (14.2.2, 4.5)"
                ));
                v
            }
        };
        fire("14.2.2");
        if off > t {
            let bonus = i64::from(off - t) * 7;
            state.vp[Side::Mercenary] += bonus;
            log.public(format!(
                "end: palace taken before the offensive: ({off} - {t}) x 7 = +{bonus} VP (14.2.2)"
            ));
        }
        // 14.2.3: Kan-Yu's assault in stages 3-8.
        super::stages::palace_bonus(state, log);
    } else if by_offensive {
        // 14.2.4: each beeler AT (not soldiers, not PS; either face, A36) in or next to the palace.
        let mut hexes = vec![palace];
        hexes.extend(
            state
                .map
                .grid
                .neighbours(palace)
                .into_iter()
                .map(|(_, h)| h),
        );
        let n = hexes
            .iter()
            .flat_map(|h| state.side_units_in(*h, Side::Beeler))
            .filter(|id| state.class_of(id) == Some(Class::At) && !state.counters.is_ps(id))
            .count() as i64;
        fire("14.2.4");
        state.vp[Side::Beeler] += n;
        log.public(format!(
            "end: {n} beeler ATs in or next to the palace: +{n} VP (14.2.4)"
        ));
    }
    let (m, b) = (state.vp[Side::Mercenary], state.vp[Side::Beeler]);
    // 14.2.5 (2.1.1, 10.4): the VP totals decide.
    for rule in ["14.2.5", "2.1.1", "10.4"] {
        fire(rule);
    }
    let winner = match m.cmp(&b) {
        std::cmp::Ordering::Greater => Some(Side::Mercenary),
        std::cmp::Ordering::Less => Some(Side::Beeler),
        std::cmp::Ordering::Equal => None,
    };
    let why = if by_offensive {
        format!("the Melkian general offensive came at the end of turn {t} (14.1.2)")
    } else if state.control_of(palace) == Control::Mercenary {
        format!("the mercenary side took {} (14.1.1)", data::PALACE)
    } else {
        "the beeler side took EX-10 (14.1.1)".to_string()
    };
    let summary = format!(
        "{why}; VP mercenary {m}, beeler {b}: {} (14.2.5)",
        match winner {
            Some(s) => format!("{} wins", s.name()),
            None => "a draw".into(),
        }
    );
    log.public(format!("end: {summary}"));
    state.ending = Some(Ending { winner, summary });
    state.step = Step::Over;
}

/// The rule that ended a finished game: a home base taken (14.1.1) or the general offensive
/// (14.1.2), read from the state as `finish` judged it.
pub fn ending_rule(state: &State) -> &'static str {
    let palace = state.map.hex_of(data::PALACE);
    let ex10 = state.map.hex_of(data::EX10);
    if state.control_of(palace) == Control::Mercenary || state.control_of(ex10) == Control::Beeler {
        "14.1.1"
    } else {
        "14.1.2"
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup;
    use super::*;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;

    #[test]
    fn taking_the_palace_ends_the_game_with_2d_plus_13_and_the_offensive_bonus_14_1_1_14_2() {
        let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
        let palace = s.map.home(Side::Beeler);
        assert!(!home_captured(&s));
        s.control.insert(palace, Control::Mercenary);
        assert!(home_captured(&s));
        s.turn = 5;
        s.offensive_turn = Some(10);
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        finish(&mut s, &mut d, &mut log, false);
        let t = d.finish().unwrap();
        let roll: i64 = t.public[0].values.iter().map(|&v| i64::from(v)).sum();
        // 2D + 13, plus (10 - 5) x 7 = 35.
        assert_eq!(s.vp[Side::Mercenary], roll + 13 + 35);
        assert_eq!(s.step, Step::Over);
        assert_eq!(s.ending.as_ref().unwrap().winner, Some(Side::Mercenary));
    }

    #[test]
    fn the_offensive_scores_beeler_ats_in_and_around_the_palace_14_2_4() {
        let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
        let palace = s.map.home(Side::Beeler);
        s.place_face_down(&["B-AT01".to_string()], palace); // either face counts (A36)
        s.set_hex("B-AT02", crate::kit::hex::Hex::parse("O05").unwrap());
        s.set_hex("B-SO01", palace); // soldiers do not count
        s.set_hex("B-BLUE", palace); // nor PS
        s.turn = 9;
        s.offensive_turn = Some(9);
        assert!(offensive_now(&s));
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        finish(&mut s, &mut d, &mut log, true);
        assert_eq!(s.vp[Side::Beeler], 2);
    }

    #[test]
    fn the_offensive_marker_is_drawn_in_secret_on_turn_7_4_5() {
        let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
        s.turn = 7;
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        draw_offensive(&mut s, &mut d, &mut log);
        let v = s.offensive_turn.unwrap();
        assert!((8..=11).contains(&v));
        assert!(log.public.iter().all(|e| !e.contains(&format!("turn {v}"))));
        let t = d.finish().unwrap();
        assert!(t.public.is_empty() && t.sealed.len() == 1);
    }
}
