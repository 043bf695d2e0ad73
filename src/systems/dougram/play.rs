//! Playing and opening action cards (2.10-2.14, 24.1-24.2): the card moves out of the hand to
//! where its `after` field says, `draw_cards` and the box effects run here, and the caller runs
//! the effects that belong to its phase (arming points, sea moves, security checks, combat
//! modifiers). Auto-open triggers (24.1) are evaluated here too.

use super::cardphase;
use super::cards::{
    After, Card, Count, Effect, PhaseName, Requires, StepName, Trigger, TurnOf, UnitPool,
};
use super::ctx::Ctx;
use super::data::{HexId, Side};
use super::state::{ChitAt, State, Unit, UnitAt};
use crate::kit::deck::Face;
use crate::kit::reach;
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// Why a card may not be played: the rule it breaks and what would be accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub message: String,
    pub accepted: String,
}

/// Whether `side` may play card `no` now, in `phase` (and combat `step`), judged on `state`:
/// [`may_play_when`], and the card's conditions hold ([`conditions_hold`]).
pub fn may_play(
    state: &State,
    side: Side,
    no: u32,
    phase: PhaseName,
    step: Option<StepName>,
) -> Result<&Card, Refusal> {
    let card = may_play_when(state, side, no, phase, step)?;
    conditions_hold(state, side, card)?;
    Ok(card)
}

/// Whether condition `r` of a card holds for `side` now, and what the state says about it.
pub fn condition(state: &State, side: Side, r: &Requires) -> (bool, String) {
    match r {
        Requires::TurnAtLeast(t) => (state.turn >= *t, format!("it is turn {}", state.turn)),
        Requires::CardOpen(n) => (
            state.open.contains(n),
            format!(
                "card {n} is {}open",
                if state.open.contains(n) { "" } else { "not " }
            ),
        ),
        Requires::CardNotOpen(n) => (
            !state.open.contains(n),
            format!(
                "card {n} is {}open",
                if state.open.contains(n) { "" } else { "not " }
            ),
        ),
        Requires::LibVpAtLeast(v) => (
            state.lib_vp() >= *v,
            format!("Lib holds {} VP", state.lib_vp()),
        ),
        Requires::LibVpAtMost(v) => (
            state.lib_vp() <= *v,
            format!("Lib holds {} VP", state.lib_vp()),
        ),
        Requires::OwnControls(p) => {
            let holder = state.control.get(p).copied().unwrap_or(Side::Fed);
            (holder == side, format!("{p} is {}'s", holder.name()))
        }
    }
}

/// 2.10: every condition the card names holds for `side` on `state`.
pub fn conditions_hold(state: &State, side: Side, card: &Card) -> Result<(), Refusal> {
    let unmet: Vec<String> = card
        .requires
        .iter()
        .filter_map(|r| {
            let (ok, now) = condition(state, side, r);
            (!ok).then(|| format!("{} ({now})", r.describe()))
        })
        .collect();
    if unmet.is_empty() {
        return Ok(());
    }
    Err(Refusal {
        rule: "2.10",
        message: format!(
            "card {} may be played only with {}",
            card.no,
            unmet.join(" and ")
        ),
        accepted: format!(
            "a card whose conditions hold now ({}); or play it with `optional: true` to have it played only if they hold by its phase",
            card.requires
                .iter()
                .map(|r| r.describe())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// [`may_play`] without the card's conditions: in hand, its turn, its phase and step (2.10,
/// 2.13, 12.9).
pub fn may_play_when(
    state: &State,
    side: Side,
    no: u32,
    phase: PhaseName,
    step: Option<StepName>,
) -> Result<&Card, Refusal> {
    let refuse = |rule, message: String, accepted: String| Refusal {
        rule,
        message,
        accepted,
    };
    let Some(card) = state.card(no) else {
        return Err(refuse(
            "2.10",
            format!("there is no card {no}"),
            "a card number from games/dougram/cards.yaml".into(),
        ));
    };
    if !state.cards.get(side).hand.contains(&no) {
        return Err(refuse(
            "2.10",
            format!("card {no} is not in {}'s hand", side.name()),
            format!("a card in hand: {:?}", state.cards.get(side).hand.cards()),
        ));
    }
    let own_turn = state.phasing() == Some(side);
    let turn_ok = match card.when.turn {
        TurnOf::Own => own_turn,
        TurnOf::Opponent => !own_turn,
        TurnOf::Any => true,
    };
    if !turn_ok {
        return Err(refuse(
            "2.13",
            format!(
                "card {no} is played in {} turn",
                if own_turn {
                    "the opponent's"
                } else {
                    "its owner's own"
                }
            ),
            "a card whose `when.turn` fits this player-turn".into(),
        ));
    }
    if card.when.phase != PhaseName::Any && card.when.phase != phase {
        return Err(refuse(
            "2.13",
            format!(
                "card {no} is played in the {} phase, not the {} phase",
                card.when.phase.name(),
                phase.name()
            ),
            format!(
                "play it under the {} phase's orders",
                card.when.phase.name()
            ),
        ));
    }
    if phase == PhaseName::Combat {
        let at = card.when.step.unwrap_or(StepName::W2);
        if step.is_some() && step != Some(at) {
            return Err(refuse(
                "12.9",
                format!("card {no} is played at combat step {at:?}"),
                format!("list it under {}", step_field(at)),
            ));
        }
    }
    Ok(card)
}

impl Refusal {
    /// The refusal as a problem of the order item at `at`.
    pub fn at(self, at: FieldPath) -> Problem {
        Problem::new(at, self.rule, self.message, self.accepted)
    }
}

/// Whether `side` may play card `no` as an item of a phase's own `play:` list (arming,
/// replenishment) at this moment: 2.10-2.13 as [`may_play`] judges them, and the card's
/// effects work in `phase` (2.13). `check` judges the list at the start of the step, the phase
/// again when it plays each card.
pub fn legal_phase_play<'s>(
    state: &'s State,
    side: Side,
    no: u32,
    phase: PhaseName,
    at: &FieldPath,
) -> Result<&'s Card, Problem> {
    let card = may_play(state, side, no, phase, None).map_err(|r| r.at(at.clone()))?;
    if let Some(other) = card
        .effects
        .iter()
        .filter_map(|e| e.phase())
        .find(|ph| *ph != phase)
    {
        return Err(Problem::new(
            at.clone(),
            "2.13",
            format!(
                "card {no} acts in the {} phase, not the {} phase",
                other.name(),
                phase.name()
            ),
            format!("play it under the {} phase's orders", other.name()),
        ));
    }
    Ok(card)
}

/// Problems with a phase's `play:` list (under `at`): each card by [`legal_phase_play`], and
/// each card once (2.10).
pub fn legal_phase_plays(
    state: &State,
    side: Side,
    plays: &[u32],
    phase: PhaseName,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, no) in plays.iter().enumerate() {
        let p = at.at(i);
        if !seen.insert(*no) {
            out.push(Problem::new(
                p,
                "2.10",
                format!("card {no} is listed twice"),
                "each card once",
            ));
            continue;
        }
        if let Err(e) = legal_phase_play(state, side, *no, phase, &p) {
            out.push(e);
        }
    }
    out
}

/// The cards of `side`'s hand that [`legal_phase_play`] accepts in `phase` now, in hand order.
pub fn phase_play_choices(state: &State, side: Side, phase: PhaseName) -> Vec<u32> {
    state
        .cards
        .get(side)
        .hand
        .cards()
        .iter()
        .copied()
        .filter(|no| legal_phase_play(state, side, *no, phase, &FieldPath::root()).is_ok())
        .collect()
}

/// The order field that plays cards at a combat step (12.9).
pub fn step_field(s: StepName) -> &'static str {
    match s {
        StepName::W1 => "w1",
        StepName::W2 => "w2",
        StepName::Capture => "capture",
        StepName::Cba => "cba",
        StepName::Ap => "ap",
        StepName::Melee => "melee",
    }
}

/// Plays card `no` from `side`'s hand: it goes face up to the discard pile, the removed cards or
/// the open cards (A44), `draw_cards` and box effects run, and the card is returned so that the
/// caller runs the effects of its phase.
pub fn play(state: &mut State, side: Side, no: u32, ctx: &mut Ctx) -> Result<Card, String> {
    let card = state
        .card(no)
        .cloned()
        .ok_or_else(|| format!("there is no card {no}"))?;
    if !state.cards.get_mut(side).hand.take(&no) {
        return Err(format!("card {no} is not in {}'s hand", side.name()));
    }
    // 2.10 (a card of the hand, its conditions held), 2.11 (it leaves the hand).
    reach::fire("2.10");
    reach::fire("2.11");
    ctx.log.public(format!(
        "{} plays card {no} \"{}\" (2.13)",
        side.name(),
        card.en
    ));
    match card.after {
        After::Discard => state.cards.get_mut(side).deck.discard(no, Face::Up),
        After::Removed => {
            state.removed.insert(no);
        }
        After::Open => {
            reach::fire("2.12");
            state.open.insert(no);
            ctx.log.public(format!("card {no} is now open (2.11)"));
            run_box_effects(state, side, no, "open", &card.on_open, ctx);
        }
    }
    run_box_effects(state, side, no, "play", &card.effects, ctx);
    if card.after == After::Open {
        // 3.3.3: an open card can change control at once (29 switches to 3.3a) or place units.
        super::control::check(state, &format!("after card {no} opens"), ctx);
    }
    Ok(card)
}

/// Opens card `no` from wherever it is except the removed cards (24.1, default A39), and runs
/// its `on_open` effects. Returns false when it cannot be opened or is open already.
pub fn open_card(state: &mut State, no: u32, why: &str, ctx: &mut Ctx) -> bool {
    if state.open.contains(&no) || state.removed.contains(&no) {
        return false;
    }
    let Some(card) = state.card(no).cloned() else {
        return false;
    };
    for &side in Side::ALL {
        let z = state.cards.get_mut(side);
        z.hand.take(&no);
        z.deck.withdraw(&no);
    }
    state.stock.remove(&no);
    state.open.insert(no);
    reach::fire("24.1");
    reach::fire("2.11");
    ctx.log
        .public(format!("card {no} \"{}\" opens by itself: {why}", card.en));
    run_box_effects(state, card.owner, no, "open", &card.on_open, ctx);
    true
}

/// The effects that work in any phase: card draws, box chit reveals and unit placement (24.2).
/// `list` ("play" or "open") and the effect's index make each dice label unique.
fn run_box_effects(
    state: &mut State,
    side: Side,
    no: u32,
    list: &str,
    effects: &[Effect],
    ctx: &mut Ctx,
) {
    let mut revealed: Option<u32> = None;
    for (k, e) in effects.iter().enumerate() {
        match e {
            Effect::DrawCards(n) => {
                let label = format!("t{}/{}/card{no}/{list}{k}/draw", state.turn, side.name());
                let mut r = cardphase::Report::default();
                let drawn = cardphase::draw(state, side, *n as usize, ctx.dice, &label, &mut r);
                for l in r.public {
                    ctx.log.public(l);
                }
                ctx.log.public(format!(
                    "{} draws {} card(s) (card {no})",
                    side.name(),
                    drawn.len()
                ));
                ctx.log
                    .private(side, format!("you drew {drawn:?} (card {no})"));
            }
            Effect::RevealBoxChit(b) => {
                let in_box = state
                    .chits
                    .iter()
                    .find(|(_, c)| c.at == ChitAt::Box(b.clone()))
                    .map(|(id, _)| id.clone());
                let id = match in_box {
                    Some(id) => Some(id),
                    None => {
                        // A40: an empty box draws from the cup instead.
                        let label = format!("t{}/card{no}/{list}{k}/reveal", state.turn);
                        state
                            .draw_chits(ctx.dice, &label, 1, ChitAt::Box(b.clone()))
                            .pop()
                    }
                };
                reach::fire("24.2");
                if let Some(id) = id {
                    // 2.6: the box's value was its owner's until now.
                    reach::fire("2.6");
                    let v = state.chits[&id].value;
                    ctx.log
                        .public(format!("the {b} box chit is revealed: {v} points (24.2)"));
                    state.return_chit(&id);
                    revealed = Some(v);
                } else {
                    ctx.log.public(format!(
                        "the {b} box is empty and so is the cup (24.2: an empty box draws from the cup; docs/dougram.md, Decisions)"
                    ));
                    revealed = Some(0);
                }
            }
            Effect::PlaceUnits(p) => {
                let n = match p.count {
                    Count::CeilHalfRevealed => revealed.unwrap_or(0).div_ceil(2) as usize,
                    Count::All => usize::MAX,
                };
                let hex = state.data.map.hex_of(&p.at);
                match &p.pool {
                    UnitPool::SixthArmy => place_sixth_army(state, n, hex, ctx),
                    UnitPool::Types(types) => place_types(state, types, n, hex, no, ctx),
                }
                // 3.3.3: new units may change who controls the hex.
                super::control::check(state, &format!("after card {no} places units"), ctx);
            }
            _ => {}
        }
    }
}

/// Places up to `n` 6th Army counters from the stock at `hex` (24.2-24.3), in the order of the
/// Fed policy `sixth_army` (unit types, best first), then by counter id. Only 12 exist (24.3):
/// when the stock runs out, fewer arrive.
pub fn place_sixth_army(state: &mut State, n: usize, hex: HexId, ctx: &mut Ctx) {
    let defs = state.data.counters.counter_defs();
    let priority = state.policies[Side::Fed].sixth_army.clone();
    let mut free: Vec<(usize, String)> = state
        .units
        .iter()
        .filter(|(id, u)| u.at == UnitAt::Stock && defs.get(*id).is_some_and(|d| d.sixth_army))
        .map(|(id, _)| {
            let kind = &defs[id].front.kind;
            let rank = priority
                .iter()
                .position(|t| t == kind)
                .unwrap_or(priority.len());
            (rank, id.clone())
        })
        .collect();
    free.sort();
    let placed: Vec<String> = free.into_iter().take(n).map(|(_, id)| id).collect();
    if !placed.is_empty() {
        // 24.2-24.3 (from the stock of 12), placed as ordinary units (24.4).
        for r in ["2.3", "24.2", "24.3", "24.4"] {
            reach::fire(r);
        }
    }
    for id in &placed {
        state.units.insert(
            id.clone(),
            Unit {
                at: UnitAt::Hex(hex),
                side: Side::Fed,
                damaged: false,
            },
        );
    }
    ctx.log.public(format!(
        "{} 6th Army unit(s) arrive at hex {hex}: {} (24.2-24.3)",
        placed.len(),
        placed.join(", ")
    ));
}

/// Places up to `n` stock counters whose Fed face is one of `types` at `hex`, as Fed units,
/// in counter id order (a `place_units` card with a `types` pool; 6th Army counters come by
/// their own pool, 24.2). What is not in the stock (on the map, in the box, out of the game,
/// 27.1) does not come.
pub fn place_types(
    state: &mut State,
    types: &[String],
    n: usize,
    hex: HexId,
    card: u32,
    ctx: &mut Ctx,
) {
    let defs = state.data.counters.counter_defs();
    let placed: Vec<String> = state
        .units
        .iter()
        .filter(|(id, u)| {
            u.at == UnitAt::Stock
                && defs.get(*id).is_some_and(|d| {
                    !d.sixth_army && d.front.side == Side::Fed && types.contains(&d.front.kind)
                })
        })
        .map(|(id, _)| id.clone())
        .take(n)
        .collect();
    if !placed.is_empty() {
        reach::fire("2.9");
    }
    for id in &placed {
        state.units.insert(
            id.clone(),
            Unit {
                at: UnitAt::Hex(hex),
                side: Side::Fed,
                damaged: false,
            },
        );
    }
    ctx.log.public(if placed.is_empty() {
        format!("card {card}: none of its units is in the stock, so none arrives")
    } else {
        format!(
            "card {card}: {} arrive at hex {hex} from the stock",
            placed.join(", ")
        )
    });
}

/// 24.1 (a), default A38: a Lib unit entered or appeared in `hex`.
pub fn lib_unit_entered(state: &mut State, hex: HexId, ctx: &mut Ctx) {
    let place = state.data.map.place_at(hex).map(|p| p.id.clone());
    let Some(place) = place else { return };
    let due: Vec<u32> = state
        .data
        .cards
        .cards
        .iter()
        .filter(|c| {
            c.auto_open
                .iter()
                .any(|t| matches!(t, Trigger::LibUnitEnters(p) if *p == place))
        })
        .map(|c| c.no)
        .collect();
    for no in due {
        open_card(
            state,
            no,
            &format!("a Lib unit entered {place} (24.1)"),
            ctx,
        );
    }
}

/// 24.1 (b), default A53: evaluated at every control check.
pub fn control_checked(state: &mut State, ctx: &mut Ctx) {
    let due: Vec<(u32, String)> = state
        .data
        .cards
        .cards
        .iter()
        .filter_map(|c| {
            c.auto_open.iter().find_map(|t| match t {
                Trigger::LibControls(lc)
                    if state.control.get(&lc.place) == Some(&Side::Lib)
                        && lc.while_flag.as_ref().is_none_or(|f| state.flag(f)) =>
                {
                    Some((c.no, lc.place.clone()))
                }
                _ => None,
            })
        })
        .collect();
    for (no, place) in due {
        open_card(state, no, &format!("Lib controls {place} (24.1)"), ctx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::deck::Discarded;
    use crate::systems::dougram::fixtures::{dealt, dice, give, lift};
    use crate::systems::dougram::state::Step;

    fn lib_turn(seed: u64) -> State {
        let mut s = dealt("setup1", seed);
        s.step = Step::Lib;
        s
    }

    fn sixth_on_map(s: &State) -> usize {
        let defs = s.data.counters.counter_defs();
        s.units
            .iter()
            .filter(|(id, u)| defs[*id].sixth_army && matches!(u.at, UnitAt::Hex(_)))
            .count()
    }

    #[test]
    fn only_cards_in_hand_are_played_2_10() {
        let mut s = lib_turn(1);
        give(&mut s, Side::Fed, 36);
        let r = may_play(&s, Side::Lib, 36, PhaseName::Movement, None).unwrap_err();
        assert_eq!(r.rule, "2.10");
        assert!(may_play(&s, Side::Lib, 9999, PhaseName::Movement, None).is_err());
    }

    fn plays(y: &str) -> crate::systems::dougram::orders::Orders {
        crate::yaml::parse(y, "orders.yaml").unwrap()
    }

    #[test]
    fn a_card_is_played_only_when_its_conditions_hold_2_10() {
        let mut s = dealt("setup1", 7);
        s.step = Step::Fed;
        give(&mut s, Side::Fed, 77); // stand-in: turn 5 or later, Lib VP at most 7
        let check = super::super::orders::check;
        let p = check(&s, "fed", &plays("play: [{card: 77}]"));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path.to_string(), "orders.play[0].card");
        assert_eq!(p[0].rule.as_deref(), Some("2.10"));
        assert!(
            p[0].message.contains("turn 5 or later (it is turn 1)"),
            "{p:?}"
        );
        assert!(p[0].accepted.contains("optional: true"), "{p:?}");
        // Optional: judged when its phase comes; skipped there while the conditions fail.
        let o = plays("play: [{card: 77, optional: true}]");
        assert!(check(&s, "fed", &o).is_empty());
        let mut d = dice(3);
        let r = super::super::steps::resolve(&s, &[("fed".to_string(), o.clone())].into(), &mut d)
            .unwrap();
        assert!(!r.state.open.contains(&77), "not played on turn 1");
        assert!(r.state.cards[Side::Fed].hand.contains(&77));
        // Turn 5 with Lib at 2 VP or less: accepted.
        s.turn = 5;
        assert!(s.lib_vp() <= 2);
        assert!(check(&s, "fed", &plays("play: [{card: 77}]")).is_empty());
        assert!(may_play(&s, Side::Fed, 77, PhaseName::Movement, None).is_ok());
    }

    #[test]
    fn no_card_wins_the_game_on_turn_1_in_either_setup_2_10_20_2() {
        for scenario in ["setup1", "setup2"] {
            let s0 = dealt(scenario, 8);
            let winners: Vec<&Card> = s0
                .data
                .cards
                .cards
                .iter()
                .filter(|c| {
                    c.while_open.iter().any(|f| {
                        matches!(
                            f,
                            super::super::cards::Flag::LacockAssassinated
                                | super::super::cards::Flag::PeaceTalks
                        )
                    })
                })
                .collect();
            assert_eq!(winners.len(), 2, "34 and 77");
            for c in winners {
                let mut s = s0.clone();
                s.step = match c.owner {
                    Side::Lib => Step::Lib,
                    Side::Fed => Step::Fed,
                };
                give(&mut s, c.owner, c.no);
                let choices = super::super::steps::choices(&s, c.owner);
                assert!(
                    !choices.play.iter().any(|p| p.card == c.no),
                    "{scenario}: card {} is playable on turn 1",
                    c.no
                );
                let y = format!("play: [{{card: {}}}]", c.no);
                assert!(
                    !super::super::orders::check(&s, c.owner.name(), &plays(&y)).is_empty(),
                    "{scenario}: card {} is accepted on turn 1",
                    c.no
                );
            }
        }
    }

    #[test]
    fn a_mercenary_contract_lands_every_mercenary_in_the_stock_where_fed_holds_the_city_2_9() {
        let mut s = dealt("setup1", 9);
        s.step = Step::Fed;
        let no = s
            .data
            .cards
            .cards
            .iter()
            .find(|c| {
                c.effects.iter().any(|e| {
                    matches!(e, Effect::PlaceUnits(p) if matches!(&p.pool, UnitPool::Types(t) if t.iter().any(|x| x == "garcia_squad")))
                })
            })
            .map(|c| c.no)
            .expect("a card brings the mercenaries");
        give(&mut s, Side::Fed, no);
        let doga = s.data.map.hex_of("doga");
        assert_eq!(s.control["doga"], Side::Fed);
        assert!(may_play(&s, Side::Fed, no, PhaseName::Replenishment, None).is_ok());
        let mut d = dice(4);
        let mut ctx = Ctx::new(&mut d);
        play(&mut s, Side::Fed, no, &mut ctx).unwrap();
        let mercs: Vec<&str> = s
            .units_in(doga, Side::Fed)
            .into_iter()
            .filter(|id| s.is_mercenary(id))
            .collect();
        assert_eq!(
            mercs,
            ["DS01", "GA01", "GA02", "TQ01", "TQ02"],
            "2.9: 2 + 2 + 1"
        );
        // Where Lib holds the city, the card cannot be played (its condition, 2.10).
        let mut t = dealt("setup1", 9);
        t.step = Step::Fed;
        give(&mut t, Side::Fed, no);
        t.control.insert("doga".into(), Side::Lib);
        let r = may_play(&t, Side::Fed, no, PhaseName::Replenishment, None).unwrap_err();
        assert_eq!(r.rule, "2.10");
        assert!(
            r.message.contains("you control doga (doga is lib's)"),
            "{r:?}"
        );
    }

    #[test]
    fn a_card_plays_only_in_its_turn_and_phase_2_13() {
        let mut s = lib_turn(2);
        give(&mut s, Side::Lib, 20); // own turn, movement
        give(&mut s, Side::Lib, 102); // opponent's turn, combat w1
        assert!(may_play(&s, Side::Lib, 20, PhaseName::Movement, None).is_ok());
        let wrong_phase = may_play(&s, Side::Lib, 20, PhaseName::Arming, None).unwrap_err();
        assert_eq!(wrong_phase.rule, "2.13");
        let wrong_turn =
            may_play(&s, Side::Lib, 102, PhaseName::Combat, Some(StepName::W1)).unwrap_err();
        assert_eq!(wrong_turn.rule, "2.13");
        s.step = Step::Fed;
        assert!(may_play(&s, Side::Lib, 102, PhaseName::Combat, Some(StepName::W1)).is_ok());
    }

    #[test]
    fn a_combat_card_is_played_at_its_step_12_9() {
        let mut s = lib_turn(3);
        give(&mut s, Side::Lib, 104); // own turn, melee step
        assert!(may_play(&s, Side::Lib, 104, PhaseName::Combat, Some(StepName::Melee)).is_ok());
        let r = may_play(&s, Side::Lib, 104, PhaseName::Combat, Some(StepName::W2)).unwrap_err();
        assert_eq!(r.rule, "12.9");
    }

    #[test]
    fn a_played_card_goes_where_its_after_field_says_2_11_2_12() {
        let mut s = lib_turn(4);
        give(&mut s, Side::Lib, 20);
        give(&mut s, Side::Lib, 29);
        let mut d = dice(5);
        let mut ctx = Ctx::new(&mut d);
        play(&mut s, Side::Lib, 20, &mut ctx).unwrap();
        play(&mut s, Side::Lib, 29, &mut ctx).unwrap();
        let z = &s.cards[Side::Lib];
        assert!(!z.hand.contains(&20) && !z.hand.contains(&29));
        assert!(z.deck.discard.contains(&Discarded::new(20, Face::Up)));
        assert!(s.open.contains(&29));
        assert!(s.flag(&super::super::cards::Flag::LibGovernment));
        assert!(ctx.log.public.iter().any(|l| l.contains("plays card 20")));
        assert!(play(&mut s, Side::Lib, 20, &mut ctx).is_err());
    }

    #[test]
    fn a_draw_card_effect_draws_for_its_player_only_in_private() {
        let mut s = lib_turn(6);
        give(&mut s, Side::Lib, 106); // draw_cards: 1
        let before = s.cards[Side::Lib].hand.len();
        let mut d = dice(7);
        let mut ctx = Ctx::new(&mut d);
        play(&mut s, Side::Lib, 106, &mut ctx).unwrap();
        assert_eq!(s.cards[Side::Lib].hand.len(), before); // one played, one drawn
        assert!(
            ctx.log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("you drew"))
        );
        assert!(ctx.log.public.iter().all(|l| !l.contains("you drew")));
    }

    #[test]
    fn a_lib_unit_entering_north_pole_port_opens_card_76_from_any_zone_24_1() {
        let mut s = lib_turn(8);
        assert!(!s.open.contains(&76));
        let npp = s.data.map.hex_of("north_pole_port");
        let mut d = dice(9);
        let mut ctx = Ctx::new(&mut d);
        lib_unit_entered(&mut s, npp, &mut ctx);
        assert!(s.open.contains(&76));
        assert!(
            !s.cards[Side::Fed].hand.contains(&76)
                && !s.cards[Side::Fed].deck.draw_pile.contains(&76)
        );
        assert!(ctx.log.public.iter().any(|l| l.contains("(24.1)")));
    }

    #[test]
    fn card_76_opens_when_lib_controls_cardinal_only_while_29_is_open_24_1() {
        let mut s = lib_turn(10);
        s.control.insert("cardinal".into(), Side::Lib);
        let mut d = dice(11);
        let mut ctx = Ctx::new(&mut d);
        control_checked(&mut s, &mut ctx);
        assert!(!s.open.contains(&76), "29 is not open");
        s.open.insert(29);
        control_checked(&mut s, &mut ctx);
        assert!(s.open.contains(&76));
    }

    #[test]
    fn a_removed_card_never_opens_by_itself_a39() {
        let mut s = lib_turn(12);
        lift(&mut s, 76);
        s.removed.insert(76);
        let mut d = dice(13);
        let mut ctx = Ctx::new(&mut d);
        assert!(!open_card(&mut s, 76, "test", &mut ctx));
        assert!(!s.open.contains(&76));
    }

    #[test]
    fn opening_76_reveals_the_box_chit_and_lands_half_its_points_rounded_up_24_2() {
        let mut s = lib_turn(14);
        let (id, v) = s
            .chits
            .iter()
            .find(|(_, c)| c.at == ChitAt::Box("sixth_army".into()))
            .map(|(id, c)| (id.clone(), c.value))
            .unwrap();
        let mut d = dice(15);
        let mut ctx = Ctx::new(&mut d);
        assert!(open_card(&mut s, 76, "test", &mut ctx));
        assert_eq!(sixth_on_map(&s) as u32, v.div_ceil(2));
        assert_eq!(s.chits[&id].at, ChitAt::Cup);
        assert!(
            ctx.log
                .public
                .iter()
                .any(|l| l.contains(&format!("{v} points")))
        );
        let npp = s.data.map.hex_of("north_pole_port");
        assert!(
            s.units
                .values()
                .filter(|u| u.at == UnitAt::Hex(npp))
                .all(|u| u.side == Side::Fed)
        );
    }

    #[test]
    fn an_empty_sixth_army_box_draws_from_the_cup_instead_a40() {
        let mut s = lib_turn(16);
        let id = s
            .chits
            .iter()
            .find(|(_, c)| c.at == ChitAt::Box("sixth_army".into()))
            .map(|(id, _)| id.clone())
            .unwrap();
        s.return_chit(&id);
        let cup = s.cup().len();
        let mut d = dice(17);
        let mut ctx = Ctx::new(&mut d);
        assert!(open_card(&mut s, 76, "test", &mut ctx));
        assert_eq!(s.cup().len(), cup, "drawn, revealed and returned");
        assert!(sixth_on_map(&s) >= 1);
        assert_eq!(d.finish().unwrap().sealed.len(), 1);
    }

    #[test]
    fn only_twelve_sixth_army_counters_exist_24_3() {
        let mut s = lib_turn(18);
        let mut d = dice(19);
        let mut ctx = Ctx::new(&mut d);
        place_sixth_army(&mut s, 20, 61, &mut ctx);
        assert_eq!(sixth_on_map(&s), 12);
        place_sixth_army(&mut s, 3, 61, &mut ctx);
        assert_eq!(sixth_on_map(&s), 12);
        assert!(ctx.log.public[1].starts_with("0 6th Army"));
    }

    #[test]
    fn sixth_army_units_follow_feds_type_priority_24_2() {
        let mut s = lib_turn(20);
        s.policies[Side::Fed].sixth_army = vec!["round_facer".into()];
        let mut d = dice(21);
        let mut ctx = Ctx::new(&mut d);
        place_sixth_army(&mut s, 2, 61, &mut ctx);
        let placed: Vec<&str> = s
            .units
            .iter()
            .filter(|(_, u)| u.at == UnitAt::Hex(61) && u.side == Side::Fed)
            .filter_map(|(id, _)| s.unit_type(id))
            .filter(|t| *t == "round_facer")
            .collect();
        // North Pole Port already holds 2 regular Round Facers in setup1.
        assert_eq!(placed.len(), 4);
    }
}
