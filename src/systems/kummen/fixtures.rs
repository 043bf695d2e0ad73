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

/// The game key every rule test rolls under.
pub const KEY: crate::protocol::hash::Hash32 = crate::protocol::hash::Hash32([7; 32]);

/// The `n`-th test step seed.
pub fn seed(n: u32) -> crate::protocol::hash::Hash32 {
    let mut a = [0u8; 32];
    a[..4].copy_from_slice(&n.to_le_bytes());
    a[31] = 0x5e;
    crate::protocol::hash::Hash32(a)
}

/// A step seed under which the dice of every listed label (label, number of dice, wanted sum)
/// come out as wanted. Each label has its own stream, so the scratch roll here is exactly what
/// the rules will roll under the same label: the tests assert outcomes, not luck.
pub fn seed_where(
    wants: &[(&str, usize, std::ops::RangeInclusive<u32>)],
) -> crate::protocol::hash::Hash32 {
    for n in 0..20_000 {
        let s = seed(n);
        let mut d = crate::protocol::dice::Dice::new(s, KEY);
        if wants
            .iter()
            .all(|(label, count, ok)| ok.contains(&d.roll(label, *count, 6).iter().sum()))
        {
            return s;
        }
    }
    panic!("no seed gives {wants:?}");
}

/// Sets a unit type's attack and defense (and its stage 1/3/4 values, if it has them): tests
/// make a hit certain (hit number 12 or more) or impossible (below 2).
pub fn values(s: &mut State, kind: &str, attack: u32, defense: u32) {
    let t = s.counters.types.get_mut(kind).unwrap();
    t.attack = attack;
    t.defense = defense;
    if let Some(b) = t.boosted.as_mut() {
        b.attack = attack;
        b.defense = defense;
    }
}
