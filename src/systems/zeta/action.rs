//! Acting units and their actions (12): which units a card activates and what each does.
//! Stub until zeta commit 6.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{Side, UnitId};
use super::orders::UnitOrder;
use super::state::Card;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether a unit may take this action under the drawn card (12.2-12.7, 16.4, 17.3). Stub: refuses (zeta commit 6).
pub fn legal_action(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "12.5", "unit actions", 6))
}

/// The actions of `side`'s acting units. Stub (zeta commit 6): none yet.
pub fn action_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<UnitOrder>> {
    let _ = (ctx, side);
    Vec::new()
}

/// The units of `side` that act under `card` (12.2-12.4). Stub (zeta commit 6): none.
pub fn acting_units(ctx: &Ctx<'_>, side: Side, card: Card) -> Vec<UnitId> {
    let _ = (ctx, side, card);
    Vec::new()
}
