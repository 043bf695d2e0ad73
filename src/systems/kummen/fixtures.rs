//! Test fixtures shared by the rule tests: an empty board and a way to put units on it.

use super::setup;
use super::state::{Place, State};
use crate::kit::hex::Hex;
use crate::systems::DataSource;

/// A hex from its label; panics on a typo, which is a bug in the test itself.
pub fn h(label: &str) -> Hex {
    Hex::parse(label).unwrap()
}

/// The campaign's state with every unit off the map and both cups empty: tests place what they
/// need.
pub fn blank() -> State {
    let mut s = setup::initial_state("campaign", &DataSource::default()).unwrap();
    for id in s.units.keys().cloned().collect::<Vec<_>>() {
        s.set_off_map(&id, Place::Stock, true);
    }
    s.cups = Default::default();
    s
}

/// Puts unit `id` in `hex`, face-up or face-down (a face-down unit gets the next token).
pub fn put(s: &mut State, id: &str, hex: &str, face_up: bool) {
    s.set_hex(id, h(hex));
    if face_up {
        s.reveal(id);
    } else {
        s.place_face_down(&[id.to_string()], h(hex));
    }
}
