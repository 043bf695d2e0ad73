//! The Zeon remnants (32): Side 3 and the Zeon Republic, Zeon Africa. Stub until zeta commit 11.

use super::ctx::{Ctx, not_yet};
use super::data::{Loc, Side};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether Zeon Africa may appear in this hex (32.2.3). Stub: refuses (zeta commit 11).
pub fn legal_africa_hex(
    ctx: &Ctx<'_>,
    side: Side,
    item: &Loc,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "32.2.3", "Zeon Africa's hex", 11))
}
