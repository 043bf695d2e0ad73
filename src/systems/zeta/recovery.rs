//! Recovery (16, 34.4): damaged units flip back at own bases. Stub until zeta commit 7.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{BaseId, Side};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether a unit may recover at this base (16.2-16.6, 34.4). Stub: refuses (zeta commit 7).
pub fn legal_recover(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "16.2", "recovery", 7))
}

/// The bases where `side`'s units may recover. Stub (zeta commit 7): none yet.
pub fn recover_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let _ = (ctx, side);
    Vec::new()
}
