//! Setup (38): the state before the turn-1 packet.

use super::state::State;
use crate::systems::DataSource;

/// The one scenario: rule 38's setup on the stand-in map.
pub const GRYPS: &str = "gryps";

/// The state before step 1. Not implemented yet (zeta commit 3).
pub fn initial_state(scenario: &str, data: &DataSource) -> Result<State, String> {
    let _ = (scenario, data);
    Err("zeta's setup is not implemented yet (zeta commit 3)".into())
}
