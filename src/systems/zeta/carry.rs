//! Carrying and existence (13.10, 15): which ship carries what, and who may be where. Stub
//! until zeta commit 6.

use super::ctx::{Ctx, not_yet};
use super::data::{Loc, Side, UnitId};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether `ship` may carry `cargo` (15.1, 15.3). Stub: refuses (zeta commit 6).
pub fn legal_carry(
    ctx: &Ctx<'_>,
    side: Side,
    ship: &UnitId,
    cargo: &[UnitId],
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, ship, cargo);
    Err(not_yet(at, "15.3", "carrying", 6))
}

/// 15.7 in hex `at`: whatever cannot exist there leaves (MS to the factory box, characters
/// roll, A-25, A-53). Stub (zeta commit 6): does nothing.
pub fn existence_check(ctx: &mut Ctx<'_>, at: Loc) {
    let _ = (ctx, at);
}
