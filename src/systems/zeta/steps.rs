//! The step machine (plan §1): the packet step, the phase steps, the ask steps, and the chain
//! that draws the next card. The rules it calls are stubs until their commits land (4-14), so
//! for now a packet resolves to nothing and the turn ends at once; the shape is what commit 2
//! fixes.

use super::ctx::{Ctx, Moment};
use super::data::{Loc, Side};
use super::orders::{Orders, PhaseOrders};
use super::state::{Pending, PhaseCursor, Slot, Stage, State};
use super::{action, arming, cards, carry, character, combat, deploy, movement, victory};
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::Resolution;
use std::collections::{BTreeMap, BTreeSet};

/// What a slot of an action phase ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotOutcome {
    /// Go on to the next slot (or the next combat).
    Continue,
    /// Stop the phase here and wait for one faction (an 18.9 join ask or a checkpoint).
    Stop(Box<Pending>),
}

/// Resolves the current step with the orders of every side it waits for.
pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Orders>,
    dice: &mut Dice,
) -> Result<Resolution<State>, String> {
    let of = |side: Side| orders.get(side.name()).cloned().unwrap_or_default();
    let mut ctx = Ctx::new(state.clone(), Some(dice), Moment::Resolve);
    match state.stage.clone() {
        Stage::Packet { turn } => {
            for side in Side::ALL.iter().copied() {
                arming::resolve_armament(&mut ctx, side, &of(side).armament);
            }
            for side in Side::ALL.iter().copied() {
                deploy::resolve_deployment(&mut ctx, side, &of(side).deployment);
            }
            // 10.4: the chosen cards are judged and taken by cards.rs (commit 5).
            cards::shuffle_deck(&mut ctx, &[]);
            chain(&mut ctx, turn)?;
        }
        Stage::Phase { turn, k, card } => {
            let mut cursor = PhaseCursor {
                k,
                card,
                slot: Slot::Snapshot,
                snapshot: Default::default(),
                combats_done: Vec::new(),
            };
            let body = of(card.side).phase_orders();
            for slot in Slot::ALL {
                cursor.slot = slot;
                if let SlotOutcome::Stop(p) = resolve_phase_slot(&mut ctx, &mut cursor, &body) {
                    return Err(format!(
                        "a stop for {} is not implemented yet (zeta commit 14)",
                        p.who
                    ));
                }
            }
            chain(&mut ctx, turn)?;
        }
        Stage::Ask { .. } => {
            return Err("ask steps are not implemented yet (zeta commit 14)".into());
        }
        Stage::Over(_) => return Err("the game is over (37)".into()),
    }
    let Ctx { state, log, .. } = ctx;
    Ok(Resolution::new(state, log))
}

/// Draws the next card and opens its phase step; with the deck empty, ends the turn (11.3-11.5,
/// 37) and opens the next packet step after the character phase (4). Auto-pass and plans
/// (plan §1.5) come with commit 5.
fn chain(ctx: &mut Ctx<'_>, turn: u8) -> Result<(), String> {
    let k = u8::try_from(ctx.state.drawn.len())
        .unwrap_or(u8::MAX)
        .saturating_add(1);
    if let Some(card) = cards::draw(ctx, k) {
        ctx.state.stage = Stage::Phase { turn, k, card };
        return Ok(());
    }
    cards::end_of_turn(ctx, turn);
    if let Some(ending) = victory::end_of_turn(ctx, turn) {
        ctx.state.stage = Stage::Over(ending);
        return Ok(());
    }
    if turn >= 10 {
        return Err(
            "the end of the game after turn 10 (37.3) is not implemented yet (zeta commit 5)"
                .into(),
        );
    }
    ctx.state.turn = turn + 1;
    ctx.state.drawn.clear();
    character::character_phase(ctx);
    ctx.state.stage = Stage::Packet { turn: turn + 1 };
    Ok(())
}

/// Resolves one slot of an action phase (plan §1.3) with the acting faction's `orders`, from
/// `cursor` on. Only the dispatch is written: combats go to [`combat::resolve_combat`] in the
/// acting faction's order (18.7), the end runs the existence checks (15.7); every other slot
/// does nothing until its commit (6, 7, 10-12) lands.
pub fn resolve_phase_slot(
    ctx: &mut Ctx<'_>,
    cursor: &mut PhaseCursor,
    orders: &PhaseOrders,
) -> SlotOutcome {
    match cursor.slot {
        // 12.5-12.7: each acting unit's action.
        Slot::Actions => {
            action::resolve_actions(ctx, cursor.card.side, orders);
            SlotOutcome::Continue
        }
        // 13-15: the moves, or the atmospheric moves on an Atmosphere card.
        Slot::Movement => {
            movement::resolve_movement(ctx, cursor.card.side, orders);
            SlotOutcome::Continue
        }
        Slot::Combats => {
            for c in &orders.combats {
                if cursor.combats_done.contains(&c.at) {
                    continue;
                }
                let out = combat::resolve_combat(ctx, c.at, &c.versus, c);
                cursor.combats_done.push(c.at);
                if out != SlotOutcome::Continue {
                    return out;
                }
            }
            SlotOutcome::Continue
        }
        Slot::End => {
            let hexes: BTreeSet<Loc> = ctx
                .state
                .units
                .values()
                .filter_map(|u| u.place.loc())
                .collect();
            for at in hexes {
                carry::existence_check(ctx, at);
            }
            action::end_of_phase(ctx);
            SlotOutcome::Continue
        }
        _ => SlotOutcome::Continue,
    }
}
