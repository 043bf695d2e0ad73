//! Atmospheric movement (14): descent and launch through the drop points. Stub until zeta
//! commit 6.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::AtmoOrder;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether an atmospheric move is legal (14.1-14.12). Stub: refuses (zeta commit 6).
pub fn legal_atmospheric(
    ctx: &Ctx<'_>,
    side: Side,
    item: &AtmoOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "14", "atmospheric movement", 6))
}

/// The atmospheric moves `side` may make. Stub (zeta commit 6): none yet.
pub fn atmospheric_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<AtmoOrder>> {
    let _ = (ctx, side);
    Vec::new()
}
