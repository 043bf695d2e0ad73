//! Test helpers: fixed dice and dealt states.

use super::setup;
use super::state::State;
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
