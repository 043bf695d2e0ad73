//! Deployment (9, with 29.2.6, 29.3.1, 31.1, 33.1-33.2): produced units and waiting characters
//! placed. Stub until zeta commit 4.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::{DeployChar, DeployUnit, Deployment};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether produced units may be placed so (9.2-9.4, 29.2.6, 29.3.1, A-87). Stub: refuses (zeta commit 4).
pub fn legal_deploy_unit(
    ctx: &Ctx<'_>,
    side: Side,
    item: &DeployUnit,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "9.2", "deployment", 4))
}

/// Where `side`'s produced units may be placed. Stub (zeta commit 4): none yet.
pub fn deploy_unit_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<DeployUnit>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Whether a waiting character may be placed so (9.5-9.6, 13.10, 15.6, 20.5). Stub: refuses (zeta commit 4).
pub fn legal_char_place(
    ctx: &Ctx<'_>,
    side: Side,
    item: &DeployChar,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "9.5", "character placement", 4))
}

/// Where `side`'s waiting characters may be placed. Stub (zeta commit 4): none yet.
pub fn char_place_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<DeployChar>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Carries out `side`'s deployment (9). Stub (zeta commit 4): does nothing.
pub fn resolve_deployment(ctx: &mut Ctx<'_>, side: Side, orders: &Deployment) {
    let _ = (ctx, side, orders);
}
