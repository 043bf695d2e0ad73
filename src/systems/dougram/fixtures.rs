//! Test helpers: fixed dice and dealt states.

use super::data::{HexId, Side};
use super::setup;
use super::state::{State, Unit, UnitAt};
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::DataSource;

/// Dice whose every draw is fixed by `seed`.
pub fn dice(seed: u64) -> Dice {
    let mut a = [0u8; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    Dice::new(Hash32(a), Hash32([0x5a; 32]))
}

/// A scenario after the step-1 deal with dice `seed`.
pub fn dealt(scenario: &str, seed: u64) -> State {
    let mut s = setup::initial_state(scenario, &DataSource::default()).unwrap();
    let mut d = dice(seed);
    setup::deal(&mut s, &mut d).unwrap();
    assert!(d.finish().is_ok());
    s
}

/// Puts counter `id` in hex `h` on its `side` face.
pub fn put(s: &mut State, id: &str, h: HexId, side: Side) {
    assert!(s.units.contains_key(id), "no counter {id}");
    s.units.insert(
        id.to_string(),
        Unit {
            at: UnitAt::Hex(h),
            side,
            damaged: false,
        },
    );
}

/// Puts `n` stock counters whose id starts with `prefix` in hex `h` on their `side` face, in id
/// order; returns their ids.
pub fn put_from_stock(s: &mut State, prefix: &str, n: usize, h: HexId, side: Side) -> Vec<String> {
    let ids: Vec<String> = s
        .units
        .iter()
        .filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with(prefix))
        .map(|(id, _)| id.clone())
        .take(n)
        .collect();
    assert_eq!(ids.len(), n, "not enough {prefix} counters in the stock");
    for id in &ids {
        put(s, id, h, side);
    }
    ids
}

/// Takes card `no` out of every hand and deck and out of the stock, for a test to put it
/// where it wants.
pub fn lift(s: &mut State, no: u32) {
    for &side in Side::ALL {
        let z = s.cards.get_mut(side);
        z.hand.take(&no);
        z.deck.withdraw(&no);
    }
    s.stock.remove(&no);
}

/// Card `no` in `side`'s hand, wherever it was.
pub fn give(s: &mut State, side: Side, no: u32) {
    lift(s, no);
    s.cards.get_mut(side).hand.put(no);
}

/// The orders of the demo script (orders/dougram/NN-SIDE.yaml) for step `n`, if it has any.
pub fn demo_orders(n: u64, side: Side) -> Option<crate::systems::dougram::orders::Orders> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("orders/dougram");
    let path = dir.join(format!("{n:02}-{}.yaml", side.name()));
    let text = std::fs::read_to_string(&path).ok()?;
    Some(crate::yaml::parse(&text, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}")))
}

/// The sides a state waits for.
pub fn asked(s: &State) -> Vec<Side> {
    use crate::systems::{Phase, Rules};
    match super::Dougram.phase(s) {
        Phase::Waiting { sides, .. } => sides.iter().filter_map(|x| Side::parse(x)).collect(),
        Phase::Finished(_) => Vec::new(),
    }
}

/// Every state of a whole game of `scenario`, from setup to its end (at most `steps` steps):
/// each asked side sends what `orders` gives for (state, step number, side); `game` picks the
/// step seeds.
pub fn played(
    scenario: &str,
    game: u64,
    steps: u64,
    orders: impl FnMut(&State, u64, Side) -> crate::systems::dougram::orders::Orders,
) -> Vec<State> {
    let s = setup::initial_state(scenario, &DataSource::default()).unwrap();
    played_from(s, game, steps, orders)
}

/// [`played`] from the state `s`.
pub fn played_from(
    mut s: State,
    game: u64,
    steps: u64,
    mut orders: impl FnMut(&State, u64, Side) -> crate::systems::dougram::orders::Orders,
) -> Vec<State> {
    let mut states = vec![s.clone()];
    for n in 1..=steps {
        let sides = asked(&s);
        if sides.is_empty() {
            break;
        }
        let map = sides
            .iter()
            .map(|side| (side.name().to_string(), orders(&s, n, *side)))
            .collect();
        s = super::steps::resolve(&s, &map, &mut dice(game * 1000 + n))
            .unwrap()
            .state;
        states.push(s.clone());
    }
    states
}

/// Every state of the demo game (setup1): the demo script, then no orders, for at most 40
/// steps.
pub fn demo_game(game: u64) -> Vec<State> {
    played("setup1", game, 40, |_, n, side| {
        demo_orders(n, side).unwrap_or_default()
    })
}

/// `s` with Estor held by Lib: its Fed units go to the stock and two stock Lib soldiers come
/// in, so that Lib starts with 1 VP and the 20.3.2 roll does not end most games on turn 1.
pub fn lib_holds_estor(s: &mut State) {
    let estor = s.data.map.hex_of("estor");
    for u in s.units.values_mut() {
        if u.at == UnitAt::Hex(estor) && u.side == Side::Fed {
            u.at = UnitAt::Stock;
        }
    }
    for _ in 0..2 {
        let id = super::arming::stock_counter(s, Side::Lib, "soldier", &Default::default())
            .expect("a stock Lib soldier");
        put(s, &id, estor, Side::Lib);
    }
    s.recompute_control();
    assert!(s.lib_vp() >= 1);
}
