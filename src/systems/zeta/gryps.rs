//! Gryps 2 (31): the mobile base and its laser. Stub until zeta commit 11.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::{GrypsOrder, LaserTarget};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether Gryps 2 may move so (31.4). Stub: refuses (zeta commit 11).
pub fn legal_gryps_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &GrypsOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "31.4", "Gryps 2's move", 11))
}

/// Whether the laser may fire at this hex (31.5.1-31.5.4, A-68, A-70). Stub: refuses (zeta commit 11).
pub fn legal_laser(
    ctx: &Ctx<'_>,
    side: Side,
    item: &LaserTarget,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "31.5", "the laser", 11))
}

/// The hexes the laser may fire at. Stub (zeta commit 11): none yet.
pub fn laser_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<LaserTarget>> {
    let _ = (ctx, side);
    Vec::new()
}
