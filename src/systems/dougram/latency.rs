//! SKELETON (to be written): the latency rules. See docs/dougram.md.

use super::ctx::Ctx;
use super::data::Side;
use super::state::State;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};

/// The phasing side's latency orders for one step (`orders.latency` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatencyOrders {}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step.
pub fn check(state: &State, side: Side, orders: &LatencyOrders, at: &FieldPath) -> Vec<Problem> {
    let _ = (state, side, orders, at);
    Vec::new()
}

/// Runs the phase for the phasing `side`.
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &LatencyOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    let _ = (state, side, orders, ctx);
    Ok(())
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side) -> String {
    let _ = (state, side);
    String::new()
}
