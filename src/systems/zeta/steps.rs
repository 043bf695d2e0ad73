//! The step machine (plan §1): the packet step (armament, deployment, the card choice and the
//! sealed shuffle), the phase steps, and the chain that draws the next card and resolves its
//! phase at once when an auto-pass or a plan allows (plan §1.5), the turn's end (11.5) and
//! victory (37). The slot resolvers of other commits (6-14) are called through their
//! signatures; a slot whose module is still a stub does nothing.

use super::ctx::{Ctx, Moment};
use super::data::{Loc, MapId, PerSide, Place, Side};
use super::orders::{Orders, PhaseOrders};
use super::policy::{PlanElse, PlanKey};
use super::state::{
    AskWhy, Card, CardKind, CharPlace, Checkpoint, Pending, PhaseCursor, PhaseSnapshot, Slot,
    Stage, State,
};
use super::{
    action, arming, ask, axis, cards, carry, character, colony, combat, deploy, government, gryps,
    guard, movement, nuke, recovery, specials, standing, victory,
};
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
    // A deck whose turn ended in the step that shuffled it is revealed now (cards.rs).
    cards::reveal_due(&mut ctx);
    // A nuke base made public in the step that drew its salt: the salt now (plan §12/F10).
    nuke::reveal_salt_due(&mut ctx);
    // Plan §4.5: each side's `policies:` replaces the parts it names, before anything of the
    // step reads them (a join answer may come with its `defence`).
    for side in Side::ALL.iter().copied() {
        if let Some(o) = orders.get(side.name()) {
            standing::merge_checked(&mut ctx, side, &o.policies);
        }
    }
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
            // 36.3: Titans' nuke base and its commitment (turn 1 only).
            nuke::resolve_nuke_base(&mut ctx, of(Side::Titans).nuke_base.as_ref());
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
            if run_phase(&mut ctx, turn, k, card, &body) == Ran::Done {
                chain(&mut ctx, turn)?;
            }
        }
        Stage::Ask { turn, k, who, why } => {
            if ask::resume(&mut ctx, turn, k, who, &why, &of(who))? == Ran::Done {
                chain(&mut ctx, turn)?;
            }
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
                if run_phase(ctx, turn, k, card, &PhaseOrders::default()) == Ran::Stopped {
                    return Ok(());
                }
            }
            Run::Plan(body) => {
                ctx.log.public(format!(
                    "{}'s orders for this phase were sent ahead",
                    card.side
                ));
                // A plan may stop at a checkpoint or a join ask like a phase step (plan §4.4).
                if run_phase(ctx, turn, k, card, &body) == Ran::Stopped {
                    return Ok(());
                }
            }
            Run::Pass => {
                ctx.log.public(format!(
                    "{}'s orders for this phase were sent ahead",
                    card.side
                ));
                if run_phase(ctx, turn, k, card, &PhaseOrders::default()) == Ran::Stopped {
                    return Ok(());
                }
            }
        }
    }
    cards::end_of_turn(ctx, turn);
    if let Some(ending) = victory::end_of_turn(ctx, turn) {
        // The hidden base becomes public with the game's end (plan §1.8, §12/F10).
        nuke::reveal(ctx, "the game is over");
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
        // may be placed (Titans, Neo Zeon) while the counter is free; 35.6-35.7: its user
        // moves it and picks its landing target.
        CardKind::Space => {
            governs("axis", 1)
                || governs("gryps_2", 2)
                || st.colony.in_use_by == Some(side)
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

/// How running an action phase ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ran {
    /// Every slot ran: the phase is over and the chain draws on.
    Done,
    /// The phase stopped (plan §1.3): the state holds its `Pending` and waits in an ask step.
    Stopped,
}

/// Runs the slots A1-A12 of action phase `k` with the acting faction's `orders` (plan §1.3).
fn run_phase(ctx: &mut Ctx<'_>, turn: u8, k: u8, card: Card, orders: &PhaseOrders) -> Ran {
    let cursor = PhaseCursor {
        k,
        card,
        slot: Slot::Snapshot,
        snapshot: Default::default(),
        combats_done: Vec::new(),
        combat_orders_done: 0,
    };
    run_from(ctx, turn, cursor, orders)
}

/// The slot before which the acting faction's `checkpoint` stops its phase (plan §1.3):
/// after the colony and the demolition (A2-A3), before combat (A9), before the laser (A10).
pub fn checkpoint_slot(cp: Checkpoint) -> Option<Slot> {
    match cp {
        Checkpoint::None => None,
        Checkpoint::AfterPre => Some(Slot::Actions),
        Checkpoint::BeforeCombat => Some(Slot::Combats),
        Checkpoint::BeforeLaser => Some(Slot::Laser),
    }
}

/// Runs the slots of a phase from `cursor.slot` on (a new phase from A1, a stopped one from
/// where it stopped), then clears what lasts one phase (12.5's actions, 18.3's atmospheric
/// mark, 32.1.5's placement mark). Stops before the slot of the orders' checkpoint, and where
/// a slot asks a faction (the 18.9 join): the state then holds the [`Pending`] (the cursor and
/// the acting faction's orders) and waits in an ask step for the faction asked.
pub fn run_from(ctx: &mut Ctx<'_>, turn: u8, mut cursor: PhaseCursor, orders: &PhaseOrders) -> Ran {
    let start = cursor.slot;
    for slot in Slot::ALL.into_iter().filter(|s| *s >= start) {
        cursor.slot = slot;
        if checkpoint_slot(orders.checkpoint) == Some(slot) {
            let who = cursor.card.side;
            // Resumed, the rest runs on without stopping here again.
            let rest = PhaseOrders {
                checkpoint: Checkpoint::None,
                ..orders.clone()
            };
            stop(
                ctx,
                turn,
                who,
                AskWhy::Checkpoint(orders.checkpoint),
                cursor,
                rest,
            );
            return Ran::Stopped;
        }
        if let SlotOutcome::Stop(p) = resolve_phase_slot(ctx, &mut cursor, orders) {
            // The slot knows who is asked and why; where to resume and the orders still to
            // carry out are the phase's.
            stop(ctx, turn, p.who, p.why, cursor, orders.clone());
            return Ran::Stopped;
        }
    }
    for u in ctx.state.units.values_mut() {
        u.action = None;
        u.atmo_moved = false;
        u.placed_this_phase = false;
    }
    ctx.state.speech_phase = false;
    Ran::Done
}

/// Stops the phase at `cursor` (plan §1.3): the state keeps what resumes it (host only: the
/// acting faction's orders are never shown to another seat) and waits for `who`.
fn stop(
    ctx: &mut Ctx<'_>,
    turn: u8,
    who: Side,
    why: AskWhy,
    cursor: PhaseCursor,
    rest: PhaseOrders,
) {
    let k = cursor.k;
    let line = match &why {
        AskWhy::Join { at } => format!(
            "the phase stops: {who} is asked whether it joins the combat in {} (18.9)",
            at.label()
        ),
        AskWhy::Checkpoint(_) => format!("the phase stops: {who} asked to continue from here"),
    };
    ctx.log.public(line);
    ctx.state.pending = Some(Pending {
        who,
        why: why.clone(),
        cursor,
        rest,
    });
    ctx.state.stage = Stage::Ask { turn, k, who, why };
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
        // A1: what later slots judge by the phase's start (17.9: who stood where; 35.5.1,
        // 36.4: the bases' governors and levels).
        Slot::Snapshot => {
            cursor.snapshot = phase_snapshot(&ctx.state);
            // 29.1.2: a declared speech keeps Quattro out of this phase's combats.
            ctx.state.speech_phase = cursor.card.side == Side::Aeug && orders.speech.is_some();
            SlotOutcome::Continue
        }
        // 35.5: the colony's placement at the phase's start (its landing was rolled when the
        // card was drawn, plan §12/F3).
        Slot::Colony => {
            colony::resolve_colony(ctx, cursor.card.side, &orders.pre);
            SlotOutcome::Continue
        }
        // 36.4-36.7: Titans' demolition before any move.
        Slot::Demolition => {
            if orders.pre.demolish {
                nuke::resolve_demolish(ctx, cursor.card.side);
            }
            SlotOutcome::Continue
        }
        // 12.5-12.7: each acting unit's action.
        Slot::Actions => {
            action::resolve_actions(ctx, cursor.card.side, orders);
            // 29.1.2: Quattro only moves in a phase with a speech.
            specials::restrain_quattro(ctx, cursor.card.side, orders);
            SlotOutcome::Continue
        }
        // 13-15: the moves, or the atmospheric moves on an Atmosphere card.
        Slot::Movement => {
            movement::resolve_movement(ctx, cursor.card.side, orders);
            // 35.6: the colony's compulsory two-hex move in its user's Space phase.
            colony::resolve_colony_move(ctx, cursor.card.side, orders.colony_move.as_ref());
            // 29.2: La Vie en Rose repairs at the end of movement, before combat.
            specials::resolve_lvr_repair(ctx, cursor.card.side, orders);
            // 33.3: the Jupiter fleet enters on a Titans Space card, orders or not.
            specials::resolve_jupiter_entry(ctx, cursor.card.side, cursor.card.kind, orders);
            SlotOutcome::Continue
        }
        // 30.4.3: the Axis attack, after the moves and before combat.
        Slot::AxisAttack => {
            axis::resolve_axis_attack(ctx, cursor.card.side, orders);
            SlotOutcome::Continue
        }
        // 31.5.3: the laser, after all combats.
        Slot::Laser => {
            gryps::resolve_laser(ctx, cursor.card.side, orders);
            SlotOutcome::Continue
        }
        // 16, 34.4: recovery of the units that chose it.
        Slot::Recovery => {
            recovery::resolve_recovery(ctx, cursor.card.side, &orders.units);
            SlotOutcome::Continue
        }
        // 17: government by the units that chose it.
        Slot::Government => {
            government::resolve_government(ctx, cursor.card.side, cursor);
            // 36.8, A-79: at once when an enemy governs a candidate.
            nuke::watch(ctx);
            SlotOutcome::Continue
        }
        Slot::Combats => {
            // Resumed after an 18.9 ask, the orders already handled are not looked at again.
            let first = usize::try_from(cursor.combat_orders_done).unwrap_or(usize::MAX);
            for c in orders.combats.iter().skip(first) {
                if cursor.combats_done.contains(&c.at) {
                    // 18.4: one combat per hex and phase; the later order is skipped and its
                    // side told, as any item wrong when it comes.
                    crate::kit::reach::fire("18.4");
                    ctx.log.private(
                        cursor.card.side,
                        format!(
                            "combat in {} skipped: one combat per hex per phase (18.4)",
                            c.at.label()
                        ),
                    );
                    cursor.combat_orders_done = cursor.combat_orders_done.saturating_add(1);
                    continue;
                }
                match combat::resolve_combat(ctx, c.at, &c.versus, c) {
                    // Stopped before its preparation (18.9): resumed, this combat runs again
                    // from its camps with the answer.
                    combat::CombatOutcome::Stop(p) => return SlotOutcome::Stop(p),
                    combat::CombatOutcome::Fought => cursor.combats_done.push(c.at),
                    combat::CombatOutcome::Skipped => {}
                }
                cursor.combat_orders_done = cursor.combat_orders_done.saturating_add(1);
            }
            SlotOutcome::Continue
        }
        // 29.1: Quattro's speech at the end of the phase.
        Slot::Speech => {
            specials::resolve_speech(ctx, cursor.card.side, cursor, orders.speech.as_ref());
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
    }
}

/// The phase-start snapshot (A1) of `state`: the factions in each occupied hex (17.9) and
/// each base's governor and level (35.5.1, 36.4). The Axis and Gryps levels are left at
/// their defaults: no rule reads them from the snapshot yet.
fn phase_snapshot(state: &State) -> PhaseSnapshot {
    let mut others_in: BTreeMap<Loc, BTreeSet<Side>> = BTreeMap::new();
    for u in state.units.values() {
        if let Some(l) = u.place.loc() {
            others_in.entry(l).or_default().insert(u.side);
        }
    }
    PhaseSnapshot {
        others_in,
        levels: state
            .bases
            .iter()
            .map(|(id, b)| (id.clone(), (b.governor, b.level)))
            .collect(),
        ..PhaseSnapshot::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::{DiceTranscript, sealed_key_commit, shuffle_ranges};
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::{policy::Plan, setup};
    use crate::yaml;

    fn start() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    fn orders_of(text: &str) -> Orders {
        yaml::parse_order::<Orders>(text, "orders.yaml").unwrap()
    }

    /// 17.9 in play: slot A1 records a Titans unit at Side 1; it leaves before slot A8, and
    /// AEUG's government there is still refused because of the snapshot.
    #[test]
    fn the_phase_start_snapshot_forbids_government_where_others_stood_17_9() {
        use crate::systems::zeta::carry::fixture::put;
        use crate::systems::zeta::state::Action;
        let mut st = start();
        let hex = st.data.base_hex("side_1").unwrap();
        st.units.retain(|_, u| u.place != Place::Hex(hex));
        if let Some(b) = st.bases.get_mut("side_1") {
            b.governor = None;
            b.level = 0;
        }
        put(&mut st, "a-argama-91", Side::Aeug, "argama", &hex.label());
        put(&mut st, "t-hizack-91", Side::Titans, "hizack", &hex.label());
        if let Some(u) = st.units.get_mut("a-argama-91") {
            u.action = Some(Action::Govern {
                base: "side_1".into(),
            });
        }
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        let mut cursor = PhaseCursor {
            k: 1,
            card: Card {
                side: Side::Aeug,
                kind: CardKind::Space,
                copy: 1,
            },
            slot: Slot::Snapshot,
            snapshot: PhaseSnapshot::default(),
            combats_done: Vec::new(),
            combat_orders_done: 0,
        };
        let orders = PhaseOrders::default();
        resolve_phase_slot(&mut c, &mut cursor, &orders);
        assert_eq!(
            cursor.snapshot.others_in.get(&hex),
            Some(&BTreeSet::from([Side::Aeug, Side::Titans]))
        );
        c.state.units.remove("t-hizack-91");
        cursor.slot = Slot::Government;
        resolve_phase_slot(&mut c, &mut cursor, &orders);
        assert_eq!(c.state.bases.get("side_1").and_then(|b| b.governor), None);
        let (_, private) = c.log.into_lines();
        let aeug = private.get("aeug").cloned().unwrap_or_default();
        assert!(aeug.iter().any(|l| l.contains("(17.9)")), "{aeug:?}");
    }

    /// Step number `n` resolved with a dice seed of its own; the state, the events and the
    /// dice.
    fn step(
        state: &State,
        orders: &BTreeMap<String, Orders>,
        n: u64,
    ) -> (State, Vec<String>, DiceTranscript) {
        let seed = u8::try_from(n % 200).unwrap().wrapping_add(11);
        let mut dice = Dice::new(Hash32([seed; 32]), Hash32([7; 32])).at_step(n);
        let r = resolve(state, orders, &mut dice).unwrap();
        (r.state, r.public, dice.finish().unwrap())
    }

    fn packet(cards: [&str; 3]) -> BTreeMap<String, Orders> {
        Side::NAMES
            .iter()
            .zip(cards)
            .map(|(s, c)| (s.to_string(), orders_of(&format!("cards: {c}\n"))))
            .collect()
    }

    /// A board on which every faction has nothing to do with any card: no units, Quattro
    /// gone, the colony and the nuke used, no mobile base governed.
    fn quiet_board() -> State {
        let mut st = start();
        st.units.clear();
        if let Some(q) = st.chars.get_mut("quattro") {
            q.place = CharPlace::Dead;
        }
        st.colony.used = [Side::Titans, Side::NeoZeon].into_iter().collect();
        st.nuke.used = true;
        for b in ["axis", "gryps_2"] {
            if let Some(b) = st.bases.get_mut(b) {
                b.governor = None;
            }
        }
        st
    }

    /// 10.4, 11.2-11.5, plan §12 "Open 3": the packet step shuffles the nine chosen cards
    /// sealed and commits to the key; each phase draws one card; the step that ends the turn
    /// reveals the shuffle, whose values reproduce the order the cards were drawn in.
    #[test]
    fn a_turns_nine_cards_are_shuffled_sealed_drawn_one_a_phase_and_revealed_at_its_end() {
        let st0 = start();
        let orders = packet([
            "[space, ground, atmosphere]",
            "[space, space, ground]",
            "[space, space, atmosphere]",
        ]);
        let (mut st, public, t1) = step(&st0, &orders, 1);
        // The shuffle and the commitment to its key are in the packet step's record.
        let shuffle = t1
            .sealed
            .iter()
            .find(|d| d.label == "t1/deck")
            .cloned()
            .unwrap();
        assert_eq!(shuffle.range, shuffle_ranges(9));
        let seal = st.deck_seal.clone().unwrap();
        assert_eq!(
            (seal.sealed.step, seal.sealed.label.as_str(), seal.size),
            (1, "t1/deck", 9)
        );
        // The deck's and the nuke salt's (36.3, plan §12/F10).
        assert_eq!(t1.key_commits.len(), 2);
        assert_eq!(
            t1.key_commits[0].commit,
            sealed_key_commit("t1/deck", &seal.sealed.key)
        );
        assert!(t1.reveals.is_empty());
        assert!(
            public.iter().any(|l| l.contains("shuffled, 9 cards")),
            "{public:?}"
        );
        // Each faction keeps its two unchosen cards (10.5).
        for side in Side::ALL {
            assert_eq!(st.sides[*side].hand.len(), 2, "{side}");
        }
        // Phase steps until the turn ends; every step draws at least one card.
        let mut drawn: Vec<Card> = st.drawn.clone();
        let mut last = t1;
        let mut steps = 1;
        while let Stage::Phase { .. } = st.stage {
            assert_eq!(st.deck.draw_pile.len() + st.drawn.len(), 9);
            steps += 1;
            let (next, _, t) = step(&st, &BTreeMap::new(), steps);
            if let Stage::Phase { .. } = next.stage {
                assert!(t.reveals.is_empty(), "revealed before the turn's end");
                drawn = next.drawn.clone();
            } else {
                last = t;
            }
            st = next;
        }
        assert!(steps > 2, "the turn needed phase steps");
        assert_eq!(st.stage, Stage::Packet { turn: 2 });
        assert!(st.deck_seal.is_none() && st.deck.draw_pile.is_empty());
        for side in Side::ALL {
            assert_eq!(st.sides[*side].hand.len(), 5, "{side}: 11.5");
        }
        // The reveal in the last step is the packet step's sealed draw.
        assert_eq!(last.reveals.len(), 1);
        let r = &last.reveals[0];
        assert_eq!((r.step, r.label.as_str()), (1, "t1/deck"));
        assert_eq!(r.range, shuffle.range);
        assert_eq!(r.values, shuffle.values);
        assert_eq!(
            sealed_key_commit(&r.label, &r.key),
            t1_commit(&st0, &orders)
        );
        // The values applied to the sorted deck give the cards in the order drawn.
        let mut deck: Vec<Card> = Side::ALL
            .iter()
            .flat_map(|s| Card::hand_of(*s))
            .filter(|c| c.copy == 1 || c.kind != CardKind::Atmosphere)
            .collect();
        deck.retain(|c| {
            let chosen: &[(CardKind, u8)] = match c.side {
                Side::Titans => &[
                    (CardKind::Space, 1),
                    (CardKind::Ground, 1),
                    (CardKind::Atmosphere, 1),
                ],
                Side::Aeug => &[
                    (CardKind::Space, 1),
                    (CardKind::Space, 2),
                    (CardKind::Ground, 1),
                ],
                Side::NeoZeon => &[
                    (CardKind::Space, 1),
                    (CardKind::Space, 2),
                    (CardKind::Atmosphere, 1),
                ],
            };
            chosen.contains(&(c.kind, c.copy))
        });
        deck.sort();
        for (i, v) in (1..deck.len()).rev().zip(&r.values) {
            deck.swap(i, *v as usize);
        }
        // `drawn` is the state before the last step; the last card(s) drawn follow.
        assert_eq!(&deck[..drawn.len()], drawn.as_slice());
        assert_eq!(deck.len(), 9);
    }

    /// The commitment the packet step of `orders` on `st` publishes.
    fn t1_commit(st: &State, orders: &BTreeMap<String, Orders>) -> Hash32 {
        step(st, orders, 1).2.key_commits[0].commit
    }

    /// The turn's end lists the nine cards in the order drawn and each faction's kinds.
    #[test]
    fn the_turns_end_lists_the_cards_in_draw_order_and_each_factions_kinds() {
        let st0 = quiet_board();
        let orders = packet([
            "[space, ground, atmosphere]",
            "[space, space, ground]",
            "[ground, ground, atmosphere]",
        ]);
        let (st, public, _) = step(&st0, &orders, 1);
        assert_eq!(st.stage, Stage::Packet { turn: 2 });
        let order = public
            .iter()
            .find(|l| l.contains("the cards in the order drawn"))
            .unwrap();
        assert_eq!(order.matches(", ").count(), 8, "{order}");
        assert!(
            public
                .iter()
                .any(|l| l == "turn 1: aeug chose space, space, ground (10.2)")
        );
        assert!(
            public
                .iter()
                .any(|l| l == "turn 1: neo_zeon chose ground, ground, atmosphere (10.2)")
        );
    }

    /// Plan §1.5, A-89: when every phase auto-passes the turn ends in the packet step, which
    /// cannot reveal its own draw (a reveal names an earlier step): the next step does,
    /// before it shuffles the next deck.
    #[test]
    fn a_turn_ended_in_the_packet_step_is_revealed_by_the_next_step() {
        let st0 = quiet_board();
        let orders = packet(["[space, ground, atmosphere]"; 3]);
        let (st1, public, t1) = step(&st0, &orders, 1);
        assert_eq!(st1.stage, Stage::Packet { turn: 2 });
        assert_eq!(public.iter().filter(|l| l.contains("(A-89)")).count(), 9);
        assert!(t1.reveals.is_empty());
        assert!(st1.deck_seal.is_some());
        let (st2, _, t2) = step(&st1, &orders, 2);
        assert_eq!(t2.reveals.len(), 1);
        assert_eq!(
            (t2.reveals[0].step, t2.reveals[0].label.as_str()),
            (1, "t1/deck")
        );
        let first = t1.sealed.iter().find(|d| d.label == "t1/deck").unwrap();
        assert_eq!(t2.reveals[0].values, first.values);
        assert_eq!(t2.key_commits[0].label, "t2/deck");
        // Turn 2 brings the Jupiter fleet to Titans (33.1), whose Space card then has units
        // to act: the step stops at a phase of turn 2 instead of passing the whole turn.
        assert!(
            matches!(st2.stage, Stage::Phase { turn: 2, .. }),
            "{:?}",
            st2.stage
        );
    }

    /// Plan §1.7: a faction without a card choice plays space, ground, atmosphere.
    #[test]
    fn a_packet_without_cards_takes_one_of_each_kind() {
        let st0 = quiet_board();
        let (_, public, _) = step(&st0, &BTreeMap::new(), 1);
        assert!(
            public
                .iter()
                .any(|l| l == "turn 1: titans chose space, ground, atmosphere (10.2)")
        );
    }

    /// A-89, plan §2.3 trap 1: the auto-pass reads public facts only; whatever the nuke's
    /// base, the hands, the deck's order and the plans, its answers are the same.
    #[test]
    fn auto_pass_never_reads_hidden_facts() {
        let base = start();
        let answers = |st: &State| -> Vec<bool> {
            let ctx = Ctx::new(st.clone(), None, Moment::Check);
            Side::ALL
                .iter()
                .flat_map(|s| Card::hand_of(*s))
                .map(|c| auto_pass(&ctx, c))
                .collect()
        };
        let want = answers(&base);
        for nuke in [
            None,
            Some("jaburo"),
            Some("odessa"),
            Some("hawaii"),
            Some("torrington"),
        ] {
            for hands in [0, 1] {
                let mut st = base.clone();
                st.nuke.base = nuke.map(str::to_string);
                if hands == 1 {
                    // Chosen cards in the deck, in some order, two kept in each hand.
                    for side in Side::ALL {
                        let cards: Vec<Card> = st.sides[*side].hand.cards()[..3].to_vec();
                        for c in &cards {
                            st.sides[*side].hand.take(c);
                        }
                        st.deck.draw_pile.extend(cards);
                    }
                    st.deck.draw_pile.reverse();
                    st.plans[Side::Titans] = vec![Plan {
                        key: PlanKey {
                            card: CardKind::Ground,
                            nth: 1,
                        },
                        guard: None,
                        then: PhaseOrders::default(),
                        otherwise: PlanElse::Pass,
                    }];
                }
                assert_eq!(answers(&st), want, "nuke {nuke:?}, hands {hands}");
            }
        }
    }

    /// Neo Zeon starts with nothing on the ground map (12.3) and nothing at a drop point
    /// (12.4): its Ground and Atmosphere cards pass; its Space card does not (its units are
    /// in the belt, 12.2), nor AEUG's Atmosphere card (Quattro may speak, 29.1.1).
    #[test]
    fn auto_pass_follows_which_units_a_card_lets_act() {
        let st = start();
        let ctx = Ctx::new(st, None, Moment::Check);
        let card = |side, kind| Card {
            side,
            kind,
            copy: 1,
        };
        assert!(auto_pass(&ctx, card(Side::NeoZeon, CardKind::Ground)));
        assert!(auto_pass(&ctx, card(Side::NeoZeon, CardKind::Atmosphere)));
        assert!(!auto_pass(&ctx, card(Side::NeoZeon, CardKind::Space)));
        assert!(!auto_pass(&ctx, card(Side::Titans, CardKind::Atmosphere)));
        assert!(!auto_pass(&ctx, card(Side::Aeug, CardKind::Atmosphere)));
    }

    /// 36.4 read publicly: with no Titans unit on the ground, a Titans Ground card still
    /// opens a step while the nuke is unused and a possible candidate is Titans-governed.
    #[test]
    fn the_unused_nuke_keeps_a_titans_ground_card_from_passing() {
        let mut st = start();
        st.units
            .retain(|_, u| u.side != Side::Titans || u.place.map() == MapId::Space);
        let card = Card {
            side: Side::Titans,
            kind: CardKind::Ground,
            copy: 1,
        };
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        assert!(!auto_pass(&ctx, card));
        st.nuke.used = true;
        let ctx = Ctx::new(st, None, Moment::Check);
        assert!(auto_pass(&ctx, card));
    }

    /// 35.6-35.7: the colony's user has its moves to order on its Space card, even with no
    /// unit in space.
    #[test]
    fn a_colony_in_use_keeps_its_users_space_card_from_passing() {
        let mut st = start();
        st.units.retain(|_, u| u.side != Side::NeoZeon);
        if let Some(b) = st.bases.get_mut("axis") {
            b.governor = None;
        }
        st.colony.used.insert(Side::NeoZeon);
        let card = Card {
            side: Side::NeoZeon,
            kind: CardKind::Space,
            copy: 1,
        };
        assert!(auto_pass(&Ctx::new(st.clone(), None, Moment::Check), card));
        st.colony.in_use_by = Some(Side::NeoZeon);
        assert!(!auto_pass(&Ctx::new(st, None, Moment::Check), card));
    }

    /// Plan §4.4: a plan whose guard holds resolves its phase in the same step; one whose
    /// guard fails passes (`else: pass`) or opens the phase step (`else: ask`).
    #[test]
    fn a_plan_runs_passes_or_asks_by_its_guard() {
        let st0 = start();
        let run = |guard: &str, otherwise: &str| {
            let mut orders = packet([
                "[ground, ground, atmosphere]",
                "[ground, ground, atmosphere]",
                "[space, ground, atmosphere]",
            ]);
            // Neo Zeon's one card that needs a step is its Space card.
            orders.insert(
                "neo_zeon".into(),
                orders_of(&format!(
                    "cards: [space, ground, atmosphere]\nplans:\n  - key: {{card: space, nth: 1}}\n    if: {guard}\n    else: {otherwise}\n"
                )),
            );
            let mut st = st0.clone();
            let mut nz_steps = 0;
            let (mut s, _, _) = step(&st, &orders, 1);
            let mut privates = Vec::new();
            let mut n = 1;
            loop {
                if let Stage::Phase { card, .. } = s.stage
                    && card.side == Side::NeoZeon
                {
                    nz_steps += 1;
                }
                if matches!(s.stage, Stage::Packet { .. }) {
                    break;
                }
                st = s;
                n += 1;
                let mut dice = Dice::new(Hash32([3; 32]), Hash32([7; 32])).at_step(n);
                let r = resolve(&st, &BTreeMap::new(), &mut dice).unwrap();
                privates.extend(r.private.get("neo_zeon").cloned().unwrap_or_default());
                s = r.state;
            }
            (nz_steps, privates)
        };
        let (steps, _) = run("{turn: 1}", "ask");
        assert_eq!(steps, 0, "the plan ran");
        let (steps, _) = run("{turn: 2}", "pass");
        assert_eq!(steps, 0, "the plan passed");
        let (steps, _) = run("{turn: 2}", "ask");
        assert_eq!(steps, 1, "the plan asked");
    }

    /// 37.2 at the end of a turn: a faction 10 VP or more above the other two together wins
    /// at once.
    #[test]
    fn a_sudden_death_ends_the_game_at_the_turns_end() {
        let mut st = quiet_board();
        for b in st.bases.values_mut() {
            if b.governor.is_some() {
                b.governor = Some(Side::Titans);
            }
        }
        let (st, public, _) = step(&st, &BTreeMap::new(), 1);
        let Stage::Over(end) = &st.stage else {
            panic!("{:?}", st.stage)
        };
        assert_eq!(
            (end.winners.as_slice(), end.rule.as_str(), end.turn),
            (&[Side::Titans][..], "37.2", 1)
        );
        assert!(public.iter().any(|l| l.contains("sudden death")));
        assert_eq!(st.vp_history.len(), 1);
    }

    /// 37.3: after turn 10 the most VP wins; the setup's VP put Titans ahead.
    #[test]
    fn the_game_ends_after_turn_ten_with_the_most_vp() {
        let mut st = quiet_board();
        st.turn = 10;
        st.stage = Stage::Packet { turn: 10 };
        let (st, _, _) = step(&st, &BTreeMap::new(), 1);
        let Stage::Over(end) = &st.stage else {
            panic!("{:?}", st.stage)
        };
        assert_eq!(end.rule, "37.3");
        assert_eq!(end.turn, 10);
        let vp = st.base_vp();
        let best = vp.iter().map(|(_, v)| *v).max().unwrap();
        for w in &end.winners {
            assert_eq!(vp[*w], best);
        }
    }
}
