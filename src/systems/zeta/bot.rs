//! zeta's bot, one per faction (plan §8, review §5 as adopted in plan §12): for whatever step
//! waits for its faction it picks among the legal items the `*_choices` functions list (the
//! same lists the template shows) and keeps an item only if `orders::check` still accepts the
//! whole order (kit::bot::compose), so it never sends a refused order.
//!
//! What it plays for (rule 37: VP of governed bases at the end of each turn):
//! - packet (bot/packet.rs): spend the whole armament (5.5: points do not carry over) on the
//!   strongest units it may produce, deploy them where its bases are most threatened, seat its
//!   characters on its strongest units, choose the card kinds its units can act with; Titans
//!   hide the nuke where an enemy attack is most likely (36.3, so 36.4 can strike it);
//! - phase (bot/phase.rs): move stacks toward bases to take or defend and fights it wins,
//!   govern where it can raise a level (17), recover damaged units (16), declare combats at
//!   good odds (18), use its faction's specials (speech 29.1, LVR 29.2, Axis 30, laser 31,
//!   nuke 36.4, colony 35).
//!
//! Both the estimates and the weights are deliberately simple (bot/eval.rs); `BotRng` breaks
//! ties and adds jitter so games vary by seed.

mod eval;
mod packet;
mod phase;

#[cfg(test)]
mod games;

use super::data::Side;
use super::orders::{self, Orders};
use super::state::{Stage, State};
use crate::kit::bot::BotRng;
use crate::kit::seats::Seat;
use crate::protocol::hash::Hash32;

/// The bot's orders for `side` (a seat name) in the step `state` is at; no orders for a name
/// that is not a seat or a step that does not wait for it.
pub fn bot(state: &State, side: &str, seed: &Hash32) -> Orders {
    match Side::parse(side) {
        Some(side) => orders_for(state, side, seed),
        None => Orders::default(),
    }
}

/// The bot's orders for `side`.
pub fn orders_for(state: &State, side: Side, seed: &Hash32) -> Orders {
    let mut rng = BotRng::new(seed, side.name());
    match &state.stage {
        Stage::Packet { .. } => packet::orders(state, side, &mut rng),
        Stage::Phase { card, .. } if card.side == side => phase::orders(state, side, &mut rng),
        // 18.9 asks: the standing policy (abstain) answers; an empty order keeps it.
        _ => Orders::default(),
    }
}

/// Whether `check` accepts `o` for `side`.
fn accepted(state: &State, side: Side, o: &Orders) -> bool {
    orders::check(state, side.name(), o).is_empty()
}
