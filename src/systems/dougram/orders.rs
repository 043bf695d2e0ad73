//! The `orders:` block of a dougram order file (digest 3.4) and its checks. Each phase module
//! owns its part; this module puts them together, checks that a side only orders in its own
//! player-turn (4.1), and handles what belongs to no single phase: the 5.4 discard and cards
//! played for their open flags or card draws.

use super::arming::{self, ArmingOrders};
use super::cardphase;
use super::cards::PhaseName;
use super::combat::{self, CombatOrders};
use super::data::Side;
use super::latency::{self, LatencyOrders};
use super::movement::{self, MovementOrders};
use super::play;
use super::policy::{self, PolicyPatch};
use super::replenish::{self, ReplenishmentOrders};
use super::security::{self, SecurityOrders};
use super::state::{State, Step};
use crate::kit::policies;
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// 5.4: the card to discard when the last card phase left 7 in hand; without it the card
    /// policy's fallback decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard_to_six: Option<u32>,
    /// Cards played for their open flags or card draws, at the start of a phase.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<Play>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub arming: ArmingOrders,
    #[serde(default, skip_serializing_if = "is_default")]
    pub replenishment: ReplenishmentOrders,
    #[serde(default, skip_serializing_if = "is_default")]
    pub movement: MovementOrders,
    #[serde(default, skip_serializing_if = "is_default")]
    pub combat: CombatOrders,
    #[serde(default, skip_serializing_if = "is_default")]
    pub latency: LatencyOrders,
    #[serde(default, skip_serializing_if = "is_default")]
    pub security: SecurityOrders,
    /// Standing policies to replace (digest 3.2), part by part.
    #[serde(default, skip_serializing_if = "policies::is_empty")]
    pub policies: PolicyPatch,
}

/// A card played at the start of `phase` (default: the first phase of the player-turn).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    pub card: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<PhaseName>,
    /// Play it only if it is in hand when its phase comes (it may be drawn during the step);
    /// otherwise nothing happens and only its owner is told.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
}

/// The phases of `side`'s player-turn in order (4.1; the card phase runs at the end of the
/// previous step, the victory check is automatic).
pub fn phases(side: Side) -> [PhaseName; 4] {
    match side {
        Side::Lib => [
            PhaseName::Arming,
            PhaseName::Movement,
            PhaseName::Combat,
            PhaseName::Latency,
        ],
        Side::Fed => [
            PhaseName::Replenishment,
            PhaseName::Movement,
            PhaseName::Combat,
            PhaseName::Security,
        ],
    }
}

impl Play {
    pub fn phase_for(&self, side: Side) -> PhaseName {
        self.phase.unwrap_or(phases(side)[0])
    }
}

/// Everything wrong with `side`'s orders for the current step.
pub fn check(state: &State, side_name: &str, o: &Orders) -> Vec<Problem> {
    let root = FieldPath::root().at("orders");
    let Some(side) = Side::parse(side_name) else {
        return vec![Problem::new(
            FieldPath::root().at("side"),
            "",
            format!("no side {side_name:?} in dougram"),
            Side::listing(),
        )];
    };
    let mut out = policy::legal_policies(state, side, &o.policies, &root.at("policies"));
    if state.finished.is_some() {
        out.push(Problem::new(
            root.clone(),
            "20",
            "the game is over",
            "no orders",
        ));
        return out;
    }
    let phasing = state.phasing();
    if phasing != Some(side) {
        // Setup, or the other side's player-turn: only standing policies.
        let why = match state.step {
            Step::Setup => "the setup step takes standing policies only (28)".to_string(),
            _ => format!(
                "this step is {}'s player-turn; {} may send standing policies only (4.1)",
                phasing.map(|s| s.name()).unwrap_or("nobody"),
                side.name()
            ),
        };
        let only_policies = Orders {
            policies: o.policies.clone(),
            ..Orders::default()
        };
        if *o != only_policies {
            out.push(Problem::new(
                root.clone(),
                "4.1",
                why,
                "orders: {policies: ...}",
            ));
        }
        return out;
    }
    if let Some(c) = o.discard_to_six
        && let Err(e) =
            cardphase::legal_discard(state, side, c, &played_cards(o), &root.at("discard_to_six"))
    {
        out.push(e);
    }
    let mut listed = BTreeSet::new();
    for (i, p) in o.play.iter().enumerate() {
        if let Err(e) = legal_play(state, side, p, &listed, false, &root.at("play").at(i)) {
            out.push(e);
        }
        listed.insert(p.card);
    }
    let mine = phases(side);
    // Labels that the arming and replenishment orders give to new units (digest 3.2): later
    // phases of the same file may name them.
    let labels: BTreeSet<String> = o
        .arming
        .arm
        .iter()
        .flat_map(|a| a.labels.iter().cloned())
        .chain(o.replenishment.labels.values().cloned())
        .collect();
    // The parts only one side's player-turn has: each judged by its module in that side's
    // orders, refused in the other's (4.1). `steps::choices` fills the same parts.
    let parts = [
        (PhaseName::Arming, !is_default(&o.arming)),
        (PhaseName::Replenishment, !is_default(&o.replenishment)),
        (PhaseName::Latency, !is_default(&o.latency)),
        (PhaseName::Security, !is_default(&o.security)),
    ];
    for (phase, present) in parts {
        if present && !mine.contains(&phase) {
            let name = phase_orders_field(phase);
            out.push(Problem::new(
                root.at(name),
                "4.1",
                format!("{} has no {name} phase", side.name()),
                mine.iter().map(|p| p.name()).collect::<Vec<_>>().join(", "),
            ));
        }
    }
    for (phase, _) in parts.into_iter().filter(|(p, _)| mine.contains(p)) {
        let at = root.at(phase_orders_field(phase));
        out.extend(match phase {
            PhaseName::Arming => arming::check(state, side, &o.arming, &at),
            PhaseName::Replenishment => replenish::check(state, side, &o.replenishment, &at),
            PhaseName::Latency => latency::check(state, side, &o.latency, &at),
            PhaseName::Security => {
                security::check_with_labels(state, side, &o.security, &at, &labels)
            }
            _ => Vec::new(),
        });
    }
    out.extend(movement::check_with(
        state,
        side,
        &o.movement,
        Some(&labels),
        &root.at("movement"),
    ));
    out.extend(combat::check(state, side, &o.combat, &root.at("combat")));
    out
}

/// Whether `side` may play card `p.card` at the start of its phase (`play:`): a phase of its
/// player-turn (4.1), not listed before (`listed`), a card [`play::may_play`] accepts in that
/// phase whose effects need no phase's own orders (2.13). At check time (`live` false) an
/// optional play may name any card of the side's own, not yet in hand: it may be drawn during
/// the step; when its phase comes (`live`), it must be in hand.
pub fn legal_play(
    state: &State,
    side: Side,
    p: &Play,
    listed: &BTreeSet<u32>,
    live: bool,
    at: &FieldPath,
) -> Result<(), Problem> {
    let mine = phases(side);
    let phase = p.phase_for(side);
    if !mine.contains(&phase) {
        return Err(Problem::new(
            at.at("phase"),
            "4.1",
            format!("{} has no {} phase", side.name(), phase.name()),
            mine.iter().map(|p| p.name()).collect::<Vec<_>>().join(", "),
        ));
    }
    if listed.contains(&p.card) {
        return Err(Problem::new(
            at.at("card"),
            "2.10",
            format!("card {} is played twice", p.card),
            "each card once",
        ));
    }
    if !live && p.optional && !state.cards.get(side).hand.contains(&p.card) {
        return match state.card(p.card) {
            None => Err(Problem::new(
                at.at("card"),
                "2.10",
                format!("there is no card {}", p.card),
                "a card number from games/dougram/cards.yaml",
            )),
            Some(c) if c.owner != side => Err(Problem::new(
                at.at("card"),
                "2.10",
                format!("card {} belongs to {}", p.card, c.owner.name()),
                format!("one of {}'s cards", side.name()),
            )),
            Some(_) => Ok(()),
        };
    }
    // An optional play's conditions (2.10) are judged when its phase comes: earlier phases of
    // the step may meet them (a city taken, card 29 opened).
    let card = if !live && p.optional {
        play::may_play_when(state, side, p.card, phase, None)
    } else {
        play::may_play(state, side, p.card, phase, None)
    }
    .map_err(|r| r.at(at.at("card")))?;
    if let Some(e) = card.effects.iter().find_map(|e| e.phase()) {
        return Err(Problem::new(
            at.at("card"),
            "2.13",
            format!(
                "card {} does its work in the {} phase; play it in that phase's orders",
                p.card,
                e.name()
            ),
            format!("orders.{}", phase_orders_field(e)),
        ));
    }
    Ok(())
}

/// The plays [`legal_play`] accepts now: each card of `side`'s hand in each phase of its
/// player-turn where it may be played.
pub fn play_choices(state: &State, side: Side) -> Vec<Play> {
    let mut out = Vec::new();
    let none = BTreeSet::new();
    for no in state.cards.get(side).hand.cards() {
        for phase in phases(side) {
            let p = Play {
                card: *no,
                phase: Some(phase),
                optional: false,
            };
            if legal_play(state, side, &p, &none, false, &FieldPath::root()).is_ok() {
                out.push(p);
            }
        }
    }
    out
}

/// Every card these orders play for certain (optional plays excluded).
pub fn played_cards(o: &Orders) -> BTreeSet<u32> {
    let combat = o.combat.combats.iter().flat_map(|d| {
        [&d.w1, &d.w2, &d.capture, &d.cba, &d.ap, &d.melee]
            .into_iter()
            .flatten()
            .copied()
    });
    let sea = o
        .movement
        .moves
        .iter()
        .filter_map(|m| m.sea.as_ref().and_then(|s| s.card));
    o.play
        .iter()
        .filter(|p| !p.optional)
        .map(|p| p.card)
        .chain(o.arming.play.iter().copied())
        .chain(o.replenishment.play.iter().copied())
        .chain(o.security.cards.iter().copied())
        .chain(combat)
        .chain(sea)
        .collect()
}

/// The order field where cards of a phase are played.
pub fn phase_orders_field(p: PhaseName) -> &'static str {
    match p {
        PhaseName::Arming => "arming",
        PhaseName::Movement => "movement",
        PhaseName::Combat => "combat",
        PhaseName::Security => "security",
        PhaseName::Replenishment => "replenishment",
        PhaseName::Latency => "latency",
        _ => "play",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::fixtures::{dealt, give};
    use crate::yaml;

    fn parse(text: &str) -> Orders {
        yaml::parse(text, "test").unwrap()
    }

    fn lib_turn() -> State {
        let mut s = dealt("setup1", 31);
        s.step = Step::Lib;
        s
    }

    fn rules(p: &[Problem]) -> Vec<(String, Option<String>)> {
        p.iter()
            .map(|p| (p.path.to_string(), p.rule.clone()))
            .collect()
    }

    #[test]
    fn the_other_side_may_send_standing_policies_only_4_1() {
        let s = lib_turn();
        let ok = parse("policies: {card: {keep: [36]}}");
        assert!(check(&s, "fed", &ok).is_empty());
        let bad = parse("discard_to_six: 36");
        let p = check(&s, "fed", &bad);
        assert_eq!(rules(&p), vec![("orders".into(), Some("4.1".into()))]);
    }

    #[test]
    fn a_side_orders_only_the_phases_of_its_own_player_turn_4_1() {
        let mut s = lib_turn();
        let o = parse("replenishment: {}\nsecurity: {}");
        // Empty parts are the defaults, so they pass; a play in a foreign phase does not.
        assert!(check(&s, "lib", &o).is_empty());
        let hand = s.cards[Side::Lib].hand.cards()[0];
        let o = parse(&format!("play: [{{card: {hand}, phase: security}}]"));
        let p = check(&s, "lib", &o);
        assert_eq!(
            rules(&p),
            vec![("orders.play[0].phase".into(), Some("4.1".into()))]
        );
        s.step = Step::Fed;
        assert!(!check(&s, "lib", &o).is_empty());
    }

    #[test]
    fn discard_to_six_needs_a_pending_discard_and_a_card_in_hand_5_4() {
        let mut s = lib_turn();
        let c = s.cards[Side::Lib].hand.cards()[0];
        let o = parse(&format!("discard_to_six: {c}"));
        assert_eq!(
            rules(&check(&s, "lib", &o)),
            vec![("orders.discard_to_six".into(), Some("5.4".into()))]
        );
        s.pending_discard[Side::Lib] = true;
        assert!(check(&s, "lib", &o).is_empty());
        let o = parse("discard_to_six: 9999");
        assert_eq!(check(&s, "lib", &o)[0].rule.as_deref(), Some("5.4"));
    }

    #[test]
    fn a_card_cannot_be_discarded_to_six_and_played_in_the_same_orders_5_4() {
        let mut s = lib_turn();
        s.pending_discard[Side::Lib] = true;
        give(&mut s, Side::Lib, 2);
        let o = parse("discard_to_six: 2\narming: {play: [2]}");
        assert_eq!(
            rules(&check(&s, "lib", &o)),
            vec![("orders.discard_to_six".into(), Some("5.4".into()))]
        );
    }

    #[test]
    fn a_card_with_a_phase_effect_is_played_in_that_phases_orders_2_13() {
        let mut s = lib_turn();
        give(&mut s, Side::Lib, 20);
        let o = parse("play: [{card: 20, phase: movement}]");
        let p = check(&s, "lib", &o);
        assert_eq!(
            rules(&p),
            vec![("orders.play[0].card".into(), Some("2.13".into()))]
        );
        assert!(p[0].accepted.contains("orders.movement"));
    }

    #[test]
    fn an_optional_play_may_name_an_own_card_not_yet_in_hand() {
        let mut s = lib_turn();
        s.cards[Side::Lib].hand.take(&34);
        let o = parse("play: [{card: 34, optional: true}]");
        assert!(check(&s, "lib", &o).is_empty());
        let o = parse("play: [{card: 34}]");
        assert_eq!(check(&s, "lib", &o)[0].rule.as_deref(), Some("2.10"));
        let o = parse("play: [{card: 77, optional: true}]");
        assert_eq!(
            check(&s, "lib", &o)[0].message,
            "card 77 belongs to fed".to_string()
        );
    }

    #[test]
    fn unknown_fields_in_orders_are_errors() {
        assert!(yaml::parse::<Orders>("plya: []", "test").is_err());
        assert!(yaml::parse::<Orders>("play: [{card: 1, phse: arming}]", "test").is_err());
    }
}
