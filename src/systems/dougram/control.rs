//! Control checks at the moments 3.3b names: the start and end of movement (3.3.1), after each
//! combat (3.3.2), and after anything else that changes a city's units (3.3.3). Each check
//! reports the cities that changed hands and evaluates the 24.1 control trigger (A53).

use super::ctx::Ctx;
use super::play;
use super::state::State;

/// Recomputes control; `when` names the moment for the report.
pub fn check(state: &mut State, when: &str, ctx: &mut Ctx) {
    let before = state.control.clone();
    state.recompute_control();
    for (place, side) in &state.control {
        if before.get(place) != Some(side) {
            let name = state
                .data
                .map
                .place(place)
                .map(|p| p.en.clone())
                .unwrap_or_else(|| place.clone());
            ctx.log.public(format!(
                "{name} passes to {} control ({when}, 3.3b)",
                side.name()
            ));
        }
    }
    play::control_checked(state, ctx);
}
