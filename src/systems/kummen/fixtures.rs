//! Test fixtures shared by the rule tests: an empty board and a way to put units on it.

use super::Kummen;
use super::data::Side;
use super::orders::Orders;
use super::setup;
use super::state::{Place, State};
use crate::kit::hex::Hex;
use crate::kit::seats::Seat;
use crate::systems::{DataSource, Phase, Rules};
use std::collections::BTreeMap;

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

/// The orders of the demo script (orders/kummen/NN-SIDE.yaml) for step `n`, if it has any.
pub fn demo_orders(n: u64, side: Side) -> Option<Orders> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("orders/kummen");
    let path = dir.join(format!("{n:02}-{}.yaml", side.name()));
    let text = std::fs::read_to_string(&path).ok()?;
    Some(crate::yaml::parse(&text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}")))
}

/// The sides a state waits for.
pub fn asked(s: &State) -> Vec<Side> {
    match Kummen.phase(s) {
        Phase::Waiting { sides, .. } => sides.iter().filter_map(|x| Side::parse(x)).collect(),
        Phase::Finished(_) => Vec::new(),
    }
}

/// Every state of a whole game, from setup to its end (at most `steps` steps): each asked side
/// sends what `orders` gives for (state, step number, side); `game` picks the step seeds.
pub fn played(
    game: u32,
    steps: u32,
    mut orders: impl FnMut(&State, u32, Side) -> Orders,
) -> Vec<State> {
    let mut s = Kummen
        .initial_state(setup::SCENARIO, &DataSource::default())
        .unwrap();
    let mut states = vec![s.clone()];
    for n in 1..=steps {
        let sides = asked(&s);
        if sides.is_empty() {
            break;
        }
        let map: BTreeMap<String, Orders> = sides
            .iter()
            .map(|side| (side.name().to_string(), orders(&s, n, *side)))
            .collect();
        let mut d = crate::protocol::dice::Dice::new(seed(game * 1000 + n), KEY);
        s = Kummen.resolve(&s, &map, &mut d).unwrap().state;
        states.push(s.clone());
    }
    states
}

/// Every state of the demo game: the demo script, then default orders to the end.
pub fn demo_game(game: u32) -> Vec<State> {
    played(game, 200, |_, n, side| {
        demo_orders(u64::from(n), side).unwrap_or_default()
    })
}
