//! Armament (5-8): scrapping, refits, augmentation and production within the faction's
//! points, in the order listed (5.3). Stub until zeta commit 4.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::ArmItem;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether one armament item is legal where it comes in the list (5.3-8.6). Stub: refuses (zeta commit 4).
pub fn legal_armament_item(
    ctx: &Ctx<'_>,
    side: Side,
    item: &ArmItem,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "5.3", "armament", 4))
}

/// The armament items `side` may order now. Stub (zeta commit 4): none yet.
pub fn armament_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<ArmItem>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Carries out `side`'s armament (5-8). Stub (zeta commit 4): does nothing.
pub fn resolve_armament(ctx: &mut Ctx<'_>, side: Side, items: &[ArmItem]) {
    let _ = (ctx, side, items);
}
