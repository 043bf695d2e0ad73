//! The step machine (plan §1): the packet step (armament, deployment, the card choice and the
//! sealed shuffle), the phase steps, and the chain that draws the next card and resolves its
//! phase at once when an auto-pass or a plan allows (plan §1.5), the turn's end (11.5) and
//! victory (37). The slot resolvers of other commits (6-14) are called through their
//! signatures; a slot whose module is still a stub does nothing.

use super::ctx::{Ctx, Moment};
use super::data::{Loc, MapId, PerSide, Place, Side};
use super::orders::{Orders, PhaseOrders};
use super::policy::{PlanElse, PlanKey};
use super::state::{Card, CardKind, CharPlace, Pending, PhaseCursor, Slot, Stage, State};
use super::{arming, cards, carry, character, combat, deploy, guard, victory};
use crate::kit::reach::fire;
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
    // The engine numbers steps 1, 2, ... one per resolution; a sealed reveal names the step
    // that drew (journal/5).
    ctx.state.step = state.step.saturating_add(1);
    // A deck whose turn ended in the step that shuffled it is revealed now (cards.rs).
    cards::reveal_due(&mut ctx);
    match state.stage.clone() {
        Stage::Packet { turn } => {
            for side in Side::ALL.iter().copied() {
                arming::resolve_armament(&mut ctx, side, &of(side).armament);
            }
            for side in Side::ALL.iter().copied() {
                deploy::resolve_deployment(&mut ctx, side, &of(side).deployment);
            }
            // 10.1-10.3: every faction's choice, guards judged on the deployed board (plan
            // §4.1, §12/F4), before any card is taken.
            let mut kinds = PerSide::<Vec<CardKind>>::default();
            for side in Side::ALL.iter().copied() {
                kinds[side] = cards::chosen_kinds(&mut ctx, side, of(side).cards.as_ref());
            }
            fire("10.2");
            fire("10.3");
            let mut nine = Vec::new();
            for side in Side::ALL.iter().copied() {
                nine.extend(cards::take_from_hand(&mut ctx, side, &kinds[side]));
            }
            // 10.4.
            cards::shuffle_deck(&mut ctx, &nine);
            // Plans replace last turn's when the packet sends them (Z-5), else stay.
            for side in Side::ALL.iter().copied() {
                if let Some(p) = of(side).plans {
                    ctx.state.plans[side] = p;
                }
            }
            chain(&mut ctx, turn)?;
        }
        Stage::Phase { turn, k, card } => {
            let body = of(card.side).phase_orders();
            run_phase(&mut ctx, k, card, &body)?;
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

/// How a drawn card's phase is resolved (plan §1.5).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Run {
    /// nothing of the drawn faction can act and it has no option; judged on public
    /// facts only.
    AutoPass,
    /// The faction's plan for this card holds: its orders, now.
    Plan(Box<PhaseOrders>),
    /// Its plan does not hold and says `else: pass`.
    Pass,
    /// Open a phase step for the drawn faction.
    Ask,
}

/// Draws the next card and resolves its phase at once when an auto-pass or a plan allows
/// (plan §1.5), drawing again; otherwise opens the phase step (11.2-11.4). With the deck
/// empty, ends the turn (11.5, 37) and opens the next packet step after the character phase
/// (4).
fn chain(ctx: &mut Ctx<'_>, turn: u8) -> Result<(), String> {
    loop {
        let k = u8::try_from(ctx.state.drawn.len())
            .unwrap_or(u8::MAX)
            .saturating_add(1);
        let Some(card) = cards::draw(ctx, k) else {
            break;
        };
        fire("11.3");
        ctx.state.stage = Stage::Phase { turn, k, card };
        match decide(ctx, card) {
            Run::Ask => return Ok(()),
            Run::AutoPass => {
                ctx.log.public(format!(
                    "{} has nothing to do with this card: the phase passes (A-89)",
                    card.side
                ));
                run_phase(ctx, k, card, &PhaseOrders::default())?;
            }
            Run::Plan(body) => {
                ctx.log.public(format!(
                    "{}'s orders for this phase were sent ahead",
                    card.side
                ));
                run_phase(ctx, k, card, &body)?;
            }
            Run::Pass => {
                ctx.log.public(format!(
                    "{}'s orders for this phase were sent ahead",
                    card.side
                ));
                run_phase(ctx, k, card, &PhaseOrders::default())?;
            }
        }
    }
    cards::end_of_turn(ctx, turn);
    if let Some(ending) = victory::end_of_turn(ctx, turn) {
        ctx.state.stage = Stage::Over(ending);
        return Ok(());
    }
    ctx.state.turn = turn.saturating_add(1);
    character::character_phase(ctx);
    ctx.state.stage = Stage::Packet {
        turn: ctx.state.turn,
    };
    Ok(())
}

/// Whether the phase of `card` needs its faction's orders now (plan §1.5): an auto-pass
/// first (nothing could be ordered), then the faction's plan for the card's key.
fn decide(ctx: &mut Ctx<'_>, card: Card) -> Run {
    if auto_pass(ctx, card) {
        return Run::AutoPass;
    }
    let key = PlanKey {
        card: card.kind,
        nth: cards::nth_of_kind(&ctx.state.drawn, card),
    };
    let Some(plan) = ctx.state.plans[card.side]
        .iter()
        .find(|p| p.key == key)
        .cloned()
    else {
        return Run::Ask;
    };
    let which = format!("your plan for your {} card {}", card.kind.name(), key.nth);
    let holds = plan
        .guard
        .as_ref()
        .is_none_or(|g| guard::holds(ctx, card.side, g) == Some(true));
    if holds {
        ctx.log.private(card.side, format!("{which} runs"));
        return Run::Plan(Box::new(plan.then));
    }
    match plan.otherwise {
        PlanElse::Pass => {
            ctx.log.private(
                card.side,
                format!("{which}: its guard does not hold, you pass"),
            );
            Run::Pass
        }
        PlanElse::Ask => {
            ctx.log.private(
                card.side,
                format!("{which}: its guard does not hold, you are asked"),
            );
            Run::Ask
        }
    }
}

/// A-89, plan §1.5: the drawn faction has no unit the card lets act (12.2-12.4) and no
/// option outside its units' actions (speech, demolition, colony placement, Axis and Gryps 2
/// moves). Read on **public facts only** (plan §2.3 trap 1): the nuke counts as an option
/// while it is unused and a candidate nobody has shown not to be it is Titans-governed, never
/// by which base it is.
pub fn auto_pass(ctx: &Ctx<'_>, card: Card) -> bool {
    let st = &ctx.state;
    let side = card.side;
    if st
        .units
        .values()
        .any(|u| u.side == side && may_act(ctx, side, card.kind, u.place))
    {
        return false;
    }
    let governs = |base: &str, min: u8| {
        st.bases
            .get(base)
            .is_some_and(|b| b.governor == Some(side) && !b.destroyed && b.level >= min)
    };
    // 29.1.1: at the end of any own phase, while Quattro is on the board.
    let speech = side == Side::Aeug
        && !st.once.quattro_spoke
        && st.chars.get("quattro").is_some_and(|c| {
            c.side == side && matches!(c.place, CharPlace::Aboard(_) | CharPlace::Solo(_))
        });
    let option = match card.kind {
        // 30.3.2, 31.4.2: the governor's Space card moves the mobile base; 35.5: a colony
        // may be placed (Titans, Neo Zeon) while the counter is free.
        CardKind::Space => {
            governs("axis", 1)
                || governs("gryps_2", 2)
                || (side != Side::Aeug
                    && !st.colony.used.contains(&side)
                    && st.colony.in_use_by.is_none())
        }
        // 36.4: public facts only.
        CardKind::Ground => {
            side == Side::Titans
                && !st.nuke.used
                && ctx
                    .data
                    .nuke_candidates()
                    .iter()
                    .filter(|b| !st.nuke.excluded.contains(*b))
                    .any(|b| governs(b, 1))
        }
        CardKind::Atmosphere => false,
    };
    !(speech || option)
}

/// Whether a unit of `side` at `place` acts under a card of `kind` (12.2-12.4, 14.1): on the
/// space map (and its boxes) for Space, on the ground map for Ground; for Atmosphere at a drop
/// point or in a ground hex with a base `side` governs.
fn may_act(ctx: &Ctx<'_>, side: Side, kind: CardKind, place: Place) -> bool {
    match kind {
        CardKind::Space => place.map() == MapId::Space,
        CardKind::Ground => place.map() == MapId::Ground,
        CardKind::Atmosphere => match place {
            Place::Hex(l) if l.map == MapId::Space => ctx.data.map.space.drop_area(l.at).is_some(),
            Place::Hex(l) => ctx.data.bases_at(l).iter().any(|b| {
                ctx.state
                    .bases
                    .get(*b)
                    .is_some_and(|s| s.governor == Some(side) && !s.destroyed)
            }),
            Place::Belt | Place::Jupiter => false,
        },
    }
}

/// Runs the slots A1-A12 of action phase `k` with the acting faction's `orders` (plan §1.3),
/// then clears what lasts one phase (12.5's actions, 18.3's atmospheric mark, 32.1.5's
/// placement mark).
fn run_phase(ctx: &mut Ctx<'_>, k: u8, card: Card, orders: &PhaseOrders) -> Result<(), String> {
    let mut cursor = PhaseCursor {
        k,
        card,
        slot: Slot::Snapshot,
        snapshot: Default::default(),
        combats_done: Vec::new(),
    };
    for slot in Slot::ALL {
        cursor.slot = slot;
        if let SlotOutcome::Stop(p) = resolve_phase_slot(ctx, &mut cursor, orders) {
            return Err(format!(
                "a stop for {} is not implemented yet (zeta commit 14)",
                p.who
            ));
        }
    }
    for u in ctx.state.units.values_mut() {
        u.action = None;
        u.atmo_moved = false;
        u.placed_this_phase = false;
    }
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
            SlotOutcome::Continue
        }
        _ => SlotOutcome::Continue,
    }
}
