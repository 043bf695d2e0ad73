//! The order skeleton with the legal choices as comments (plan §4.6). Stub until zeta commit
//! 13: it says so, and offers nothing.

use super::data::Side;
use super::orders::stage_name;
use super::state::State;

/// The `orders:` block of an order skeleton for `side`.
pub fn template(state: &State, side: Side) -> String {
    format!(
        "orders: {{}}\n# {side}: {}; templates are not implemented yet (zeta commit 13)\n",
        stage_name(&state.stage)
    )
}
