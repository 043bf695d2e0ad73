//! Special units and characters (29, 33, 34): Quattro's speech, La Vie en Rose's repairs,
//! Jupitris, the mass-production Qubeley, Side 6, the Jupiter fleet. Stub until zeta commit 10.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::{BaseId, Side, UnitId};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether Quattro may speak at this base (29.1.1-29.1.3, A-57). Stub: refuses (zeta commit 10).
pub fn legal_speech(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "29.1", "Quattro's speech", 10))
}

/// The bases where Quattro may speak. Stub (zeta commit 10): none yet.
pub fn speech_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Whether these units may be repaired by La Vie en Rose (29.2.2-29.2.5). Stub: refuses (zeta commit 10).
pub fn legal_lvr_repair(
    ctx: &Ctx<'_>,
    side: Side,
    item: &[UnitId],
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "29.2", "La Vie en Rose's repairs", 10))
}
