//! SKELETON (to be written): the movement rules. See docs/dougram.md.

use super::ctx::Ctx;
use super::data::Side;
use super::state::State;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};

/// The phasing side's movement orders for one step (`orders.movement` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementOrders {}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step.
pub fn check(state: &State, side: Side, orders: &MovementOrders, at: &FieldPath) -> Vec<Problem> {
    let _ = (state, side, orders, at);
    Vec::new()
}

/// Runs the phase for the phasing `side`.
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &MovementOrders,
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

/// A side's standing movement policy (digest 3.2); replaced whenever the side sends one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementPolicy {}

/// Problems with a policy, located under `at`.
pub fn check_policy(state: &State, side: Side, p: &MovementPolicy, at: &FieldPath) -> Vec<Problem> {
    let _ = (state, side, p, at);
    Vec::new()
}
