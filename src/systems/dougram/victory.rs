//! SKELETON (to be written): the victory check (20).

use super::ctx::Ctx;
use super::state::State;

/// The victory check phase (20), once per turn after the Fed security phase (A32). Sets
/// `state.finished` when a side wins.
pub fn check(state: &mut State, ctx: &mut Ctx) {
    let _ = (state, ctx);
}
