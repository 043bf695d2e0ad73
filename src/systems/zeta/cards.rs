//! The action cards (10-11): the choice of three, the sealed shuffle, the draw, the turn's
//! end. Stub until zeta commit 5.

use super::ctx::{Choice, Ctx, not_yet};
use super::data::Side;
use super::orders::CardChoice;
use super::state::{Card, CardKind};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Whether a card choice (plain or guarded) is legal (10.2-10.3, plan §4.1). Stub: refuses (zeta commit 5).
pub fn legal_card_choice(
    ctx: &Ctx<'_>,
    side: Side,
    item: &CardChoice,
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "10.2", "the card choice", 5))
}

/// The legal sets of three kinds (10.2-10.3). Stub (zeta commit 5): none yet.
pub fn card_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<Vec<CardKind>>> {
    let _ = (ctx, side);
    Vec::new()
}

/// Puts the chosen cards into the deck and shuffles it sealed (10.4). Stub (zeta commit 5): does nothing.
pub fn shuffle_deck(ctx: &mut Ctx<'_>, chosen: &[Card]) {
    let _ = (ctx, chosen);
}

/// Draws the card of action phase `k` (11.2). Stub (zeta commit 5): does nothing.
pub fn draw(ctx: &mut Ctx<'_>, k: u8) -> Option<Card> {
    let _ = (ctx, k);
    None
}

/// Returns the cards to their hands and writes the turn's card line (11.5). Stub (zeta commit 5): does nothing.
pub fn end_of_turn(ctx: &mut Ctx<'_>, turn: u8) {
    let _ = (ctx, turn);
}
