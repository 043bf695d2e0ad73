//! Axis (30): the mobile base, the belt's bonus, its moves and its attack. Stub until zeta
//! commit 11.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::AxisOrder;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether Axis may move and attack so (30.3-30.4, A-63, A-70). Stub: refuses (zeta commit 11).
pub fn legal_axis(
    ctx: &Ctx<'_>,
    side: Side,
    item: &AxisOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "30.3", "Axis's move and attack", 11))
}

/// Axis's moves and attacks open to its governor. Stub (zeta commit 11): none yet.
pub fn axis_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<AxisOrder>> {
    let _ = (ctx, side);
    Vec::new()
}
