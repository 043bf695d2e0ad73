//! The colony drop (35). Stub until zeta commit 12.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{Loc, Side};
use super::orders::Pre;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether the colony may be placed or aimed so (35.1-35.5, 35.7, A-74). Stub: refuses (zeta commit 12).
pub fn legal_colony(ctx: &Ctx<'_>, side: Side, item: &Pre, at: &FieldPath) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "35", "the colony", 12))
}

/// Where `side` may place or aim the colony. Stub (zeta commit 12): none yet.
pub fn colony_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<Pre>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Whether the colony may move to this hex (35.6.1, A-76). Stub: refuses (zeta commit 12).
pub fn legal_colony_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &Loc,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "35.6.1", "the colony's move", 12))
}
