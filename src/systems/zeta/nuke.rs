//! Titans' nuke (36): the secret base, demolition, the forced reveal. Stub until zeta commit 12
//! (the turn-1 choice itself, 36.3, is judged with the packet in commit 4).

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{BaseId, Side};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether `side` may hide the nuke in this base now (36.2-36.3: Titans, turn 1, a candidate). Stub: refuses (zeta commit 4).
pub fn legal_nuke_base(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "36.3", "the nuke base", 4))
}

/// The bases the nuke may be hidden in. Stub (zeta commit 4): none yet.
pub fn nuke_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Whether `side` may demolish the nuke base now (36.1, 36.4). Stub: refuses (zeta commit
/// 12).
pub fn legal_demolish(ctx: &Ctx<'_>, side: Side, at: &FieldPath) -> Result<(), Problem> {
    let _ = (ctx, side);
    Err(not_yet(at, "36.4", "demolition", 12))
}
