//! Government (17, 28): units raise or take a base's level. Stub until zeta commit 7.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{BaseId, Side};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether a unit may govern this base (17.2-17.9, 34.2). Stub: refuses (zeta commit 7).
pub fn legal_govern(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "17.2", "government", 7))
}

/// The bases `side`'s units may govern. Stub (zeta commit 7): none yet.
pub fn govern_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let _ = (ctx, side);
    Vec::new()
}
