//! Victory (37): VP at the end of each turn, sudden death, the end after turn 10. Stub until
//! zeta commit 5.

use super::ctx::Ctx;
use super::state::Ending;

/// 37.1-37.3 at the end of `turn`: the ending, if the game ends. Stub (zeta commit 5): does nothing.
pub fn end_of_turn(ctx: &mut Ctx<'_>, turn: u8) -> Option<Ending> {
    let _ = (ctx, turn);
    None
}
