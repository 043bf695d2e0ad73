//! Movement (13, 15.2): paths, movement points, carrying ships. Stub until zeta commit 6.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::UnitOrder;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether a unit's path (and what it carries) is legal (13.2-13.9, 15.2-15.3, 30.3.4, 32.1.2). Stub: refuses (zeta commit 6).
pub fn legal_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "13", "movement", 6))
}

/// The paths `side`'s movers may take. Stub (zeta commit 6): none yet.
pub fn move_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<UnitOrder>> {
    let _ = (ctx, side);
    Vec::new()
}
