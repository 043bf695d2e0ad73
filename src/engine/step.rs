//! One step of a game, resolved: state, orders and seeds in, resolution out, no file touched.
//!
//! `process` resolves the open step with it and `verify` replays recorded steps with it, so the
//! two cannot drift apart; benches and simulations call it without a game directory.

use crate::protocol::dice::{Dice, DiceTranscript};
use crate::protocol::hash::{Hash32, sha256};
use crate::systems::{GameData, Phase, Reader, System};
use std::collections::BTreeMap;

/// What resolving a step gives.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The host's full state after the step.
    pub state: String,
    /// Events everyone may read (the report and the journal).
    pub public: Vec<String>,
    /// Events only one side may read, by side.
    pub private: BTreeMap<String, Vec<String>>,
    /// Every die of the step: public rolls and sealed draws.
    pub dice: DiceTranscript,
    /// SHA-256 of the public view of the new state (a record's `public_state`).
    pub public_state: Hash32,
    /// What the game waits for after the step.
    pub phase: Phase,
}

/// Resolves step number `step` of a game with component data `data`. `orders` maps every side the step waits for to its order document (a
/// player's, or the default document of a side that missed the deadline); `seed` is the step
/// seed and `game_key` the key of the sealed draws. A rule that asks the dice for something
/// they cannot give is a defect in the rules code, reported as such.
pub fn resolve(
    system: &dyn System,
    data: &GameData,
    state: &str,
    orders: &BTreeMap<String, String>,
    step: u64,
    seed: Hash32,
    game_key: Hash32,
) -> Result<Resolved, String> {
    let mut dice = Dice::new(seed, game_key).at_step(step);
    let res = system.resolve(data, state, orders, &mut dice)?;
    let dice = dice
        .finish()
        .map_err(|faults| format!("defect in the rules code: {}", faults.join("; ")))?;
    let public_view = system.view(data, &res.state, &Reader::Public)?;
    let phase = system.phase(data, &res.state)?;
    Ok(Resolved {
        state: res.state,
        public: res.public,
        private: res.private,
        dice,
        public_state: sha256(public_view.yaml.as_bytes()),
        phase,
    })
}
