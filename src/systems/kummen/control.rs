//! Control of bases and of the two supply-line river hexes (2.3).

use super::data::{Control, Side};
use super::state::{Log, State};
use crate::kit::hex::Hex;
use crate::kit::reach::fire;

/// What 2.3.3 says about `hex` now; `None` when nobody is there (rule 4: a base keeps its
/// previous controller). Acted helis are ignored (default A5).
pub fn evaluate(state: &State, hex: Hex) -> Option<Control> {
    let m = state.present(hex, Side::Mercenary);
    let b = state.present(hex, Side::Beeler);
    match (m.is_empty(), b.is_empty()) {
        (true, true) => None,
        // 2.3.3-1: only one side's units, whatever their face.
        (false, true) => Some(Control::Mercenary),
        (true, false) => Some(Control::Beeler),
        (false, false) => {
            let m_up = !state.active_face_up(hex, Side::Mercenary).is_empty();
            let b_up = !state.active_face_up(hex, Side::Beeler).is_empty();
            match (m_up, b_up) {
                // 2.3.3-2: the side with face-up units controls.
                (true, false) => Some(Control::Mercenary),
                (false, true) => Some(Control::Beeler),
                // 2.3.3-3: only face-down units on both sides: neutral.
                (false, false) => Some(Control::Neutral),
                // Cannot happen after a combat phase (2.3.3-2); keep the old status.
                (true, true) => None,
            }
        }
    }
}

/// Control of a supply river hex (2.3.2): checked only in the mercenary reinforcement phase;
/// empty means neutral (2.3.3-4).
pub fn supply_hex(state: &State, hex: Hex) -> Control {
    evaluate(state, hex).unwrap_or(Control::Neutral)
}

/// Re-checks every base after the combats of a combat phase (2.3.1) and logs the changes.
pub fn check_bases(state: &mut State, log: &mut Log) {
    let bases: Vec<(String, Hex)> = state
        .map
        .bases
        .iter()
        .map(|b| (b.name.clone(), b.hex))
        .collect();
    fire("2.3.1");
    for (name, hex) in bases {
        if let Some(c) = evaluate(state, hex) {
            let old = state.control_of(hex);
            if c != old {
                fire("2.3.3");
                state.control.insert(hex, c);
                log.public(format!(
                    "control: {name} ({hex}) passes from {} to {} (2.3.3)",
                    control_name(old),
                    control_name(c)
                ));
            }
        }
    }
}

pub fn control_name(c: Control) -> &'static str {
    match c {
        Control::Mercenary => "mercenary",
        Control::Beeler => "beeler",
        Control::Neutral => "neutral",
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;

    #[test]
    fn one_side_present_controls_whatever_its_face_2_3_3_1() {
        let mut s = blank();
        s.place_face_down(&["B-SO01".to_string()], h("G10"));
        assert_eq!(evaluate(&s, h("G10")), Some(Control::Beeler));
    }

    #[test]
    fn face_up_side_controls_over_face_down_2_3_3_2() {
        let mut s = blank();
        s.place_face_down(&["B-SO01".to_string()], h("K07"));
        s.set_hex("M-AT01", h("K07"));
        assert_eq!(evaluate(&s, h("K07")), Some(Control::Mercenary));
    }

    #[test]
    fn both_face_down_is_neutral_2_3_3_3() {
        let mut s = blank();
        s.place_face_down(&["B-SO01".to_string()], h("K07"));
        s.place_face_down(&["M-AT01".to_string()], h("K07"));
        assert_eq!(evaluate(&s, h("K07")), Some(Control::Neutral));
    }

    #[test]
    fn empty_base_keeps_its_controller_but_supply_hexes_turn_neutral_2_3_3_4() {
        let mut s = blank();
        assert_eq!(evaluate(&s, h("K07")), None);
        let mut log = Log::default();
        check_bases(&mut s, &mut log);
        assert_eq!(s.control_of(h("K07")), Control::Beeler);
        assert_eq!(supply_hex(&s, h("C08")), Control::Neutral);
        s.place_face_down(&["B-SO01".to_string()], h("C08"));
        assert_eq!(supply_hex(&s, h("C08")), Control::Beeler);
    }

    #[test]
    fn acted_helis_do_not_hold_a_hex_a5() {
        let mut s = blank();
        s.set_hex("M-H01", h("G10"));
        s.units.get_mut("M-H01").unwrap().face_up = false;
        s.place_face_down(&["B-SO01".to_string()], h("G10"));
        assert_eq!(evaluate(&s, h("G10")), Some(Control::Beeler));
    }
}
