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
