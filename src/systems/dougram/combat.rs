//! The combat phase (12-17, 21.1-21.2, 22.7-22.10, 25.1, 26.1, 27.1) and its standing policies.
//!
//! The phasing side declares combats, one hex at a time in the listed order (12.2, 12.6, 3.4;
//! only the phasing side declares, default A51). Each combat runs: W1 cards (phasing side
//! first, 2.13) -> capture step (13, Fed phase only, at Lib's request) -> W2 cards -> CBA step
//! (14) -> AP step (15, default A18) -> melee step (16) -> control check (3.3.2). Cards that
//! name a step are played at that step when it takes place; other combat cards at W2 (A26).
//! The non-phasing side's choices (capture request, card reactions, AP and melee requests, hit
//! allocation, fortress displacement) come from its standing [`CombatPolicy`] (digest 3.2).
//! After the last combat Fed may push Lib units out of the fortress hex (22.9, A35).

use super::cards::{Effect, ModTarget, PhaseName, StepName, Whose};
use super::control;
use super::ctx::{Ctx, reason};
use super::damage;
use super::data::{Class, HexId, HexRef, Hexside, PerSide, Side, Values};
use super::play;
use super::state::{State, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::kit::seats::{Seat, TwoSeats};
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The Fed group that fights where Fed has both regulars and mercenaries (12.5). 6th Army
/// units and the fortress are regulars (default A22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FightGroup {
    Regulars,
    Mercenaries,
}

/// One declared combat (12.2-12.6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Declared {
    /// A place id (`spa`) or a hex number (`57`).
    #[serde(default)]
    pub hex: String,
    /// 12.5: only where Fed has both regulars and mercenaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fight_group: Option<FightGroup>,
    /// Cards played before the capture step (12.9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub w1: Vec<u32>,
    /// Cards that name the capture step (Fed combat phase only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capture: Vec<u32>,
    /// Combat and damage cards, played after a successful capture check (12.9, A26).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub w2: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cba: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ap: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub melee: Vec<u32>,
    /// Overrides the policy's AP-step request for this combat (15.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_attack: Option<bool>,
    /// Overrides the policy's melee request for this combat (16.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee_attack: Option<bool>,
    /// Overrides the policy's hit-allocation priority for this combat (17.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation: Option<Vec<String>>,
}

impl Declared {
    /// The cards listed for `step`, to add to.
    pub fn cards_mut(&mut self, step: StepName) -> &mut Vec<u32> {
        match step {
            StepName::W1 => &mut self.w1,
            StepName::W2 => &mut self.w2,
            StepName::Capture => &mut self.capture,
            StepName::Cba => &mut self.cba,
            StepName::Ap => &mut self.ap,
            StepName::Melee => &mut self.melee,
        }
    }

    fn cards(&self, step: StepName) -> &[u32] {
        match step {
            StepName::W1 => &self.w1,
            StepName::W2 => &self.w2,
            StepName::Capture => &self.capture,
            StepName::Cba => &self.cba,
            StepName::Ap => &self.ap,
            StepName::Melee => &self.melee,
        }
    }
}

/// The phasing side's combat orders for one step (`orders.combat` in an order file): the
/// declared combats in resolution order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CombatOrders {
    pub combats: Vec<Declared>,
}

impl CombatOrders {
    pub fn is_empty(&self) -> bool {
        self.combats.is_empty()
    }
}

/// Lib's capture-check request (13.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureRequest {
    #[default]
    Always,
    Never,
    /// Request only when Fed's target number (after W1 cards) is at most this.
    IfTargetAtMost(i32),
}

/// AP-step request (15.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApRequest {
    /// Whenever the side has a shooter with a target.
    #[default]
    Always,
    Never,
}

/// Melee request (16.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeleeRequest {
    /// When the side's expected melee hits are at least the enemy's (exact, in integers).
    #[default]
    Expected,
    Always,
    Never,
}

/// Who fights where Fed has both groups, when the phasing side's order names none (12.5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupChoice {
    /// Digest 3.2: Lib picks the group with the lower total AA+AP, Fed the higher (ties:
    /// regulars).
    #[default]
    Auto,
    Regulars,
    Mercenaries,
}

/// Fed's fortress displacement at the end of each combat phase (22.9, A35).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Displace {
    /// To the adjacent legal hex with the most Fed units (ties: lowest hex id).
    #[default]
    MostFed,
    Never,
}

/// A card reaction: play card `play` at window or step `at` of any combat where the
/// conditions hold (12.9, 12.10, 2.13). For the phasing side it is a fallback used only when
/// the declared combat lists no card for that window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    #[serde(default = "default_window")]
    pub at: StepName,
    #[serde(default)]
    pub play: u32,
    /// Only in these hexes (place ids or hex numbers); empty means everywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexes: Vec<String>,
    /// Participating units of the player's own side, counted when the window opens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_own_units_at_most: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_own_units_at_least: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_enemy_units_at_most: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_enemy_units_at_least: Option<u32>,
}

fn default_window() -> StepName {
    StepName::W2
}

impl Default for Reaction {
    fn default() -> Reaction {
        Reaction {
            at: default_window(),
            play: 0,
            hexes: Vec::new(),
            if_own_units_at_most: None,
            if_own_units_at_least: None,
            if_enemy_units_at_most: None,
            if_enemy_units_at_least: None,
        }
    }
}

/// A side's standing combat policy (digest 3.2); replaced whenever the side sends one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatPolicy {
    /// Lib only (13.1); default always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<CaptureRequest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<Reaction>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub ap_attack: ApRequest,
    #[serde(default, skip_serializing_if = "is_default")]
    pub melee: MeleeRequest,
    /// Hit-allocation priority (17.3): unit types or counter ids, first hit first; then the
    /// largest DEF that still fits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allocation: Vec<String>,
    /// 12.5 fallback when this side is phasing and its order names no group.
    #[serde(default, skip_serializing_if = "is_default")]
    pub fight_group: GroupChoice,
    /// Fed only (22.9); default most_fed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fortress_displace: Option<Displace>,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Which field of the orders holds the cards of a window or step.
fn step_name(s: StepName) -> &'static str {
    play::step_field(s)
}

/// A hex named in orders: a place id or a hex number on the map's land.
pub fn parse_hex(state: &State, s: &str) -> Option<HexId> {
    HexRef::Place(s.to_string()).resolve(&state.data.map)
}

fn hex_name(state: &State, h: HexId) -> String {
    match state.data.map.place_at(h) {
        Some(p) => format!("{} ({h})", p.en),
        None => format!("hex {h}"),
    }
}

/// Hexes that a card may fill with Fed units in the middle of a Lib turn (24.2).
fn placement_hexes(state: &State) -> BTreeSet<HexId> {
    state
        .data
        .cards
        .cards
        .iter()
        .flat_map(|c| c.effects.iter().chain(c.on_open.iter()))
        .filter_map(|e| match e {
            Effect::PlaceUnits(p) => Some(state.data.map.hex_of(&p.at)),
            _ => None,
        })
        .collect()
}

/// The steps of a combat where cards are played, in order (12.9, 2.13).
pub const CARD_STEPS: [StepName; 6] = [
    StepName::W1,
    StepName::Capture,
    StepName::W2,
    StepName::Cba,
    StepName::Ap,
    StepName::Melee,
];

/// Whether the phasing side may declare a combat in the hex named `name` (12.3, 12.6): a
/// place or land hex, not declared before in the phase (`declared`: hex -> the index of its
/// declaration). Whether the hex holds units of both sides is judged when the combat comes up
/// ([`legal_fight`]): units move and fight before.
pub fn legal_declared_hex(
    state: &State,
    name: &str,
    declared: &BTreeMap<HexId, usize>,
    at: &FieldPath,
) -> Result<HexId, Problem> {
    let Some(h) = parse_hex(state, name) else {
        return Err(Problem::new(
            at.at("hex"),
            "12.3",
            format!("{name:?} is no place and no land hex of the map"),
            "a place id (spa, bonar, ...) or a land hex number (57)",
        ));
    };
    if let Some(first) = declared.get(&h) {
        return Err(Problem::new(
            at.at("hex"),
            "12.6",
            format!(
                "{} is already declared at combat[{first}]",
                hex_name(state, h)
            ),
            "each hex at most once per combat phase (12.6, 12.8)",
        ));
    }
    Ok(h)
}

/// Whether a combat declared in hex `h` takes place now: the hex holds units of both sides
/// (12.3). The phase judges each declaration by this when it comes up.
pub fn legal_fight(state: &State, h: HexId) -> Result<(), Problem> {
    if state.units_in(h, Side::Lib).is_empty() || state.units_in(h, Side::Fed).is_empty() {
        return Err(Problem::new(
            FieldPath::root(),
            "12.3",
            "it does not hold units of both sides",
            "a hex with units of both sides",
        ));
    }
    Ok(())
}

/// Whether a declaration may name a fight group for hex `h` (12.5): refused only when Fed
/// cannot have both regulars and mercenaries there when the combat comes up. Fed units enter
/// hexes only in Fed's own turn, except 24.2 placements; no mercenary comes back to the map in
/// the middle of a step.
pub fn legal_fight_group(
    state: &State,
    side: Side,
    h: HexId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let fed = state.units_in(h, Side::Fed);
    let mercs = fed.iter().any(|id| state.is_mercenary(id));
    let regs = fed.iter().any(|id| !state.is_mercenary(id));
    let certain_no = if side == Side::Lib {
        !mercs || (!regs && !placement_hexes(state).contains(&h))
    } else {
        !state
            .units
            .iter()
            .any(|(id, u)| matches!(u.at, UnitAt::Hex(_)) && state.is_mercenary(id))
    };
    if certain_no {
        return Err(Problem::new(
            at.at("fight_group"),
            "12.5",
            format!(
                "Fed cannot have both regulars and mercenaries in {} when this combat comes up",
                hex_name(state, h)
            ),
            "leave fight_group out (it applies only where Fed has both groups)",
        ));
    }
    Ok(())
}

/// Whether `side` may play card `no` at combat `step` now (12.9, 13.1, 2.10-2.13): a card
/// [`play::may_play`] accepts at that step, and no capture card in the Lib combat phase.
pub fn legal_combat_card<'s>(
    state: &'s State,
    side: Side,
    no: u32,
    step: StepName,
    at: &FieldPath,
) -> Result<&'s super::cards::Card, Problem> {
    if step == StepName::Capture && state.phasing() == Some(Side::Lib) {
        return Err(Problem::new(
            at.clone(),
            "13.1",
            "there is no capture step in the Lib combat phase",
            "capture cards only in Fed's orders",
        ));
    }
    play::may_play(state, side, no, PhaseName::Combat, Some(step)).map_err(|r| r.at(at.clone()))
}

/// The hexes where the phasing `side` may declare a combat that takes place if nothing moves
/// (12.3: [`legal_fight`]), in id order; where Fed has both groups now, also one declaration
/// per group, if [`legal_fight_group`] accepts it.
pub fn declare_choices(state: &State, side: Side) -> Vec<Declared> {
    let hexes: BTreeSet<HexId> = state
        .units
        .values()
        .filter_map(|u| match u.at {
            UnitAt::Hex(h) => Some(h),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for h in hexes.into_iter().filter(|h| legal_fight(state, *h).is_ok()) {
        let d = Declared {
            hex: super::movement::place_id(state, h),
            ..Declared::default()
        };
        let fed = state.units_in(h, Side::Fed);
        let both = fed.iter().any(|id| state.is_mercenary(id))
            && fed.iter().any(|id| !state.is_mercenary(id));
        let grouped = [FightGroup::Regulars, FightGroup::Mercenaries]
            .into_iter()
            .filter(|_| both && legal_fight_group(state, side, h, &FieldPath::root()).is_ok())
            .map(|g| Declared {
                fight_group: Some(g),
                ..d.clone()
            });
        out.push(d.clone());
        out.extend(grouped);
    }
    out
}

/// The cards of `side`'s hand [`legal_combat_card`] accepts now, with their step, in hand
/// order.
pub fn combat_card_choices(state: &State, side: Side) -> Vec<(StepName, u32)> {
    let mut out = Vec::new();
    for no in state.cards.get(side).hand.cards() {
        for step in CARD_STEPS {
            if legal_combat_card(state, side, *no, step, &FieldPath::root()).is_ok() {
                out.push((step, *no));
            }
        }
    }
    out
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step:
/// each item by its legal_* function, each card once in the orders (2.10).
pub fn check(state: &State, side: Side, orders: &CombatOrders, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut seen_hex: BTreeMap<HexId, usize> = BTreeMap::new();
    let mut seen_card: BTreeSet<u32> = BTreeSet::new();
    for (i, d) in orders.combats.iter().enumerate() {
        let p = at.at(i);
        let h = match legal_declared_hex(state, &d.hex, &seen_hex, &p) {
            Ok(h) => h,
            Err(e) => {
                out.push(e);
                // A hex declared twice is still a hex: its other fields are judged.
                match parse_hex(state, &d.hex) {
                    Some(h) => h,
                    None => continue,
                }
            }
        };
        seen_hex.insert(h, i);
        if d.fight_group.is_some()
            && let Err(e) = legal_fight_group(state, side, h, &p)
        {
            out.push(e);
        }
        for step in CARD_STEPS {
            let field = step_name(step);
            for (j, no) in d.cards(step).iter().enumerate() {
                let cp = p.at(field).at(j);
                match legal_combat_card(state, side, *no, step, &cp) {
                    Err(e) => out.push(e),
                    Ok(_) if !seen_card.insert(*no) => out.push(Problem::new(
                        cp,
                        "2.10",
                        format!("card {no} is already played earlier in these orders"),
                        "each card once",
                    )),
                    Ok(_) => {}
                }
            }
        }
        if let Some(list) = &d.allocation {
            out.extend(legal_priority(state, list, &p.at("allocation")));
        }
    }
    out
}

/// Problems with a hit-allocation priority (17.3): unit types or counter ids.
pub fn legal_priority(state: &State, list: &[String], at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        if !state.data.counters.types.contains_key(t) && !state.units.contains_key(t) {
            out.push(Problem::new(
                at.at(i),
                "17.3",
                format!("{t:?} is no unit type and no counter id"),
                "a type from counters.yaml (soldier, hasty, ...) or a counter id (HS01)",
            ));
        }
    }
    out
}

/// Problems with a policy, located under `at`.
pub fn legal_combat_policy(
    state: &State,
    side: Side,
    p: &CombatPolicy,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if p.capture.is_some() && side != Side::Lib {
        out.push(Problem::new(
            at.at("capture"),
            "13.1",
            "only Lib requests capture checks",
            "leave capture out",
        ));
    }
    if p.fortress_displace.is_some() && side != Side::Fed {
        out.push(Problem::new(
            at.at("fortress_displace"),
            "22.9",
            "only Fed displaces Lib units from the fortress hex",
            "leave fortress_displace out",
        ));
    }
    for (i, r) in p.reactions.iter().enumerate() {
        let rp = at.at("reactions").at(i);
        match state.card(r.play) {
            None => out.push(Problem::new(
                rp.at("play"),
                "2.10",
                format!("there is no card {}", r.play),
                "a card number from games/dougram/cards.yaml",
            )),
            Some(c) if c.owner != side => out.push(Problem::new(
                rp.at("play"),
                "2.10",
                format!("card {} belongs to {}", r.play, c.owner.name()),
                format!("one of {}'s cards", side.name()),
            )),
            Some(c) if c.when.phase != PhaseName::Combat && c.when.phase != PhaseName::Any => out
                .push(Problem::new(
                    rp.at("play"),
                    "2.13",
                    format!(
                        "card {} is played in the {} phase",
                        r.play,
                        c.when.phase.name()
                    ),
                    "a combat card",
                )),
            Some(c) if c.when.step.unwrap_or(StepName::W2) != r.at => out.push(Problem::new(
                rp.at("at"),
                "12.9",
                format!(
                    "card {} is played at {}",
                    r.play,
                    step_name(c.when.step.unwrap_or(StepName::W2))
                ),
                format!("at: {}", step_name(c.when.step.unwrap_or(StepName::W2))),
            )),
            Some(_) => {}
        }
        for (j, h) in r.hexes.iter().enumerate() {
            if parse_hex(state, h).is_none() {
                out.push(Problem::new(
                    rp.at("hexes").at(j),
                    "12.3",
                    format!("{h:?} is no place and no land hex of the map"),
                    "a place id or a land hex number",
                ));
            }
        }
    }
    out.extend(legal_priority(state, &p.allocation, &at.at("allocation")));
    out
}

/// The combat policies `side` may send, one value each: every capture request (with each
/// target number a d6 roll tells apart, 0 to 6: 13.3), reaction (each of the side's combat cards at its step), AP and
/// melee request, allocation entry (each unit type and counter id, as a list of one), fight
/// group and displacement, where [`legal_combat_policy`] accepts it.
pub fn combat_policy_choices(state: &State, side: Side) -> Vec<CombatPolicy> {
    let none = CombatPolicy::default;
    let mut candidates: Vec<CombatPolicy> = Vec::new();
    let captures = [CaptureRequest::Always, CaptureRequest::Never]
        .into_iter()
        .chain((0..=6).map(CaptureRequest::IfTargetAtMost));
    candidates.extend(captures.map(|c| CombatPolicy {
        capture: Some(c),
        ..none()
    }));
    for c in &state.data.cards.cards {
        candidates.push(CombatPolicy {
            reactions: vec![Reaction {
                at: c.when.step.unwrap_or(StepName::W2),
                play: c.no,
                ..Reaction::default()
            }],
            ..none()
        });
    }
    candidates.extend(
        [ApRequest::Always, ApRequest::Never].map(|ap_attack| CombatPolicy {
            ap_attack,
            ..none()
        }),
    );
    candidates.extend(
        [
            MeleeRequest::Expected,
            MeleeRequest::Always,
            MeleeRequest::Never,
        ]
        .map(|melee| CombatPolicy { melee, ..none() }),
    );
    let names = state.data.counters.types.keys().chain(state.units.keys());
    candidates.extend(names.map(|t| CombatPolicy {
        allocation: vec![t.clone()],
        ..none()
    }));
    candidates.extend(
        [
            GroupChoice::Auto,
            GroupChoice::Regulars,
            GroupChoice::Mercenaries,
        ]
        .map(|fight_group| CombatPolicy {
            fight_group,
            ..none()
        }),
    );
    candidates.extend([Displace::MostFed, Displace::Never].map(|d| CombatPolicy {
        fortress_displace: Some(d),
        ..none()
    }));
    candidates
        .into_iter()
        .filter(|p| legal_combat_policy(state, side, p, &FieldPath::root()).is_empty())
        .collect()
}

/// Card modifiers of one side in one combat (12.9, A27: they add up).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Mods {
    aa: i32,
    ap: i32,
    def: i32,
}

/// One combat in progress.
struct Fight {
    hex: HexId,
    name: String,
    label: String,
    phasing: Side,
    /// Participating units still in the fight (12.4, 12.5, A23).
    parts: PerSide<Vec<String>>,
    mods: PerSide<Mods>,
    /// Added to Fed's capture target (13.3).
    capture: i32,
    cancelled: bool,
}

fn clamp(v: i64, lo: i64, hi: i64) -> u32 {
    v.clamp(lo, hi) as u32
}

impl Fight {
    /// A unit's AA/AP/DEF in this combat: printed (or back, 21.1), terrain (25.1 set, 26.1
    /// add capped at 6, A46), then card modifiers of its side.
    fn values(&self, state: &State, id: &str) -> Values {
        let Some(v) = damage::in_hex(state, id, self.hex) else {
            return Values::default();
        };
        let side = state.units.get(id).map(|u| u.side).unwrap_or(Side::Lib);
        let m = self.mods.get(side);
        Values {
            aa: clamp(v.aa as i64 + m.aa as i64, 0, 6),
            ap: clamp(v.ap as i64 + m.ap as i64, 0, 6),
            def: clamp(v.def as i64 + m.def as i64, 1, 12),
        }
    }

    fn of_class(&self, state: &State, side: Side, class: Class) -> Vec<String> {
        self.parts
            .get(side)
            .iter()
            .filter(|id| state.class_of(id) == Some(class))
            .cloned()
            .collect()
    }
}

/// The total AA+AP of a group, for the 12.5 fallback choice.
fn strength(state: &State, hex: HexId, ids: &[String]) -> u32 {
    let probe = Fight {
        hex,
        name: String::new(),
        label: String::new(),
        phasing: Side::Lib,
        parts: PerSide::default(),
        mods: PerSide::default(),
        capture: 0,
        cancelled: false,
    };
    ids.iter()
        .map(|id| {
            let v = probe.values(state, id);
            v.aa + v.ap
        })
        .sum()
}

/// Runs the phase for the phasing `side`.
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &CombatOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    let mut done: BTreeMap<HexId, usize> = BTreeMap::new();
    // A declaration that does not happen is the declarer's own news: the opponent learns the
    // combats fought, never the ones planned.
    for (i, d) in orders.combats.iter().enumerate() {
        let h = match legal_declared_hex(state, &d.hex, &done, &FieldPath::root()) {
            Ok(h) => h,
            Err(p) => {
                reach::fire("3.4");
                ctx.log
                    .private(side, format!("your combat[{i}] is skipped: {}", reason(&p)));
                continue;
            }
        };
        done.insert(h, i);
        // 12.1 (a combat phase of declared combats), 12.2 and 3.4 (the list, in order),
        // 12.6 and 12.8 (one combat a hex, then the next).
        for r in ["12.1", "12.2", "3.4", "12.6", "12.8"] {
            reach::fire(r);
        }
        fight(state, side, h, d, ctx)?;
    }
    displace_from_fortress(state, ctx);
    Ok(())
}

/// One declared combat in hex `h` (12.4-17).
fn fight(
    state: &mut State,
    phasing: Side,
    h: HexId,
    d: &Declared,
    ctx: &mut Ctx,
) -> Result<(), String> {
    let name = hex_name(state, h);
    let lib: Vec<String> = state
        .units_in(h, Side::Lib)
        .iter()
        .map(|s| s.to_string())
        .collect();
    let fed_all: Vec<String> = state
        .units_in(h, Side::Fed)
        .iter()
        .map(|s| s.to_string())
        .collect();
    reach::fire("12.3");
    if let Err(p) = legal_fight(state, h) {
        ctx.log.private(
            phasing,
            format!("your combat at {name} is skipped: {}", reason(&p)),
        );
        return Ok(());
    }
    ctx.log.public(format!(
        "{} declares a combat at {name} (12.2)",
        phasing.name()
    ));
    // 12.5, A22-A23
    reach::fire("12.4");
    let (mercs, regs): (Vec<String>, Vec<String>) =
        fed_all.into_iter().partition(|id| state.is_mercenary(id));
    let fed = if mercs.is_empty() || regs.is_empty() {
        if d.fight_group.is_some() {
            ctx.log.private(
                phasing,
                format!(
                    "your fight_group choice at {name} does not apply: Fed has only one group there (12.5)"
                ),
            );
        }
        if mercs.is_empty() { regs } else { mercs }
    } else {
        let group = match d.fight_group {
            Some(g) => g,
            None => match state.policies.get(phasing).combat.fight_group {
                GroupChoice::Regulars => FightGroup::Regulars,
                GroupChoice::Mercenaries => FightGroup::Mercenaries,
                GroupChoice::Auto => {
                    let (r, m) = (strength(state, h, &regs), strength(state, h, &mercs));
                    let mercs_win = match phasing {
                        Side::Fed => m > r,
                        Side::Lib => m < r,
                    };
                    if mercs_win {
                        FightGroup::Mercenaries
                    } else {
                        FightGroup::Regulars
                    }
                }
            },
        };
        reach::fire("12.5");
        let (fight, sit) = match group {
            FightGroup::Regulars => (regs, mercs),
            FightGroup::Mercenaries => (mercs, regs),
        };
        ctx.log.public(format!(
            "{} chooses the Fed {} to fight at {name}; {} stay out of this combat (12.5)",
            phasing.name(),
            match group {
                FightGroup::Regulars => "regulars",
                FightGroup::Mercenaries => "mercenaries",
            },
            sit.join(", ")
        ));
        fight
    };
    let mut f = Fight {
        hex: h,
        name: name.clone(),
        label: format!("t{}/{}/combat/{h}", state.turn, phasing.name()),
        phasing,
        parts: PerSide::from_fn(|side| match side {
            Side::Lib => lib.clone(),
            Side::Fed => fed.clone(),
        }),
        mods: PerSide::default(),
        capture: 0,
        cancelled: false,
    };
    reach::fire("12.7");
    run_steps(state, d, &mut f, ctx)?;
    reach::fire("3.3.2");
    control::check(state, &format!("after the combat at {name}"), ctx);
    Ok(())
}

fn run_steps(state: &mut State, d: &Declared, f: &mut Fight, ctx: &mut Ctx) -> Result<(), String> {
    let phasing = f.phasing;
    // W1 (12.9, 2.13)
    window(state, d, f, StepName::W1, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    // Capture step (13)
    if phasing == Side::Fed && !capture_step(state, d, f, ctx)? {
        return Ok(());
    }
    if f.cancelled {
        return Ok(());
    }
    if phasing != Side::Fed {
        skip_cards(d, f, StepName::Capture, "no capture step took place", ctx);
    }
    // W2 (12.9, A26)
    window(state, d, f, StepName::W2, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    // CBA step (14)
    cba_step(state, d, f, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    // AP step (15)
    ap_step(state, d, f, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    // Melee step (16)
    melee_step(state, d, f, ctx)?;
    if !f.cancelled {
        ctx.log
            .public(format!("the combat at {} ends (12.8)", f.name));
    }
    Ok(())
}

/// Cards listed for a step that did not take place stay in hand.
fn skip_cards(d: &Declared, f: &Fight, step: StepName, why: &str, ctx: &mut Ctx) {
    // Private: the opponent must not learn what is in the hand (2.10).
    for no in d.cards(step) {
        ctx.log.private(
            f.phasing,
            format!(
                "{} keeps card {no} (listed for {} at {}): {why} (12.9)",
                f.phasing.name(),
                step_name(step),
                f.name
            ),
        );
    }
}

/// The card plays of one window or step: the phasing side first, then the opponent (2.13).
fn window(
    state: &mut State,
    d: &Declared,
    f: &mut Fight,
    step: StepName,
    ctx: &mut Ctx,
) -> Result<(), String> {
    for side in [f.phasing, f.phasing.other()] {
        let listed: Vec<u32> = if side == f.phasing {
            d.cards(step).to_vec()
        } else {
            Vec::new()
        };
        let plays = if listed.is_empty() {
            reactions(state, side, f, step)
        } else {
            listed
        };
        for no in plays {
            if f.cancelled {
                return Ok(());
            }
            try_play(state, side, no, step, f, ctx)?;
        }
    }
    Ok(())
}

/// The policy reactions of `side` that fire at `step` of this combat, in policy order.
fn reactions(state: &State, side: Side, f: &Fight, step: StepName) -> Vec<u32> {
    let own = f.parts.get(side).len() as u32;
    let enemy = f.parts.get(side.other()).len() as u32;
    state
        .policies
        .get(side)
        .combat
        .reactions
        .iter()
        .filter(|r| r.at == step)
        .filter(|r| {
            r.hexes.is_empty() || r.hexes.iter().any(|x| parse_hex(state, x) == Some(f.hex))
        })
        .filter(|r| r.if_own_units_at_most.is_none_or(|n| own <= n))
        .filter(|r| r.if_own_units_at_least.is_none_or(|n| own >= n))
        .filter(|r| r.if_enemy_units_at_most.is_none_or(|n| enemy <= n))
        .filter(|r| r.if_enemy_units_at_least.is_none_or(|n| enemy >= n))
        .filter(|r| state.cards.get(side).hand.contains(&r.play))
        .filter(|r| capture_possible(state, f) || !only_moves_capture(state, r.play))
        .map(|r| r.play)
        .collect()
}

/// Whether this combat can still have a capture step (13.1, 13.2, A24), judged before the W1
/// cards; Lib's request policy decides later.
fn capture_possible(state: &State, f: &Fight) -> bool {
    f.phasing == Side::Fed
        && !state.flag(&super::cards::Flag::LibGovernment)
        && f.parts[Side::Lib].len() <= 3
}

/// A card whose every effect changes the capture target: a reaction with it is wasted when no
/// capture step can happen.
fn only_moves_capture(state: &State, no: u32) -> bool {
    state.card(no).is_some_and(|c| {
        !c.effects.is_empty()
            && c.effects
                .iter()
                .all(|e| matches!(e, Effect::CombatMod(m) if m.target == ModTarget::CaptureTarget))
    })
}

/// Plays one card into this combat if it is still legal (12.9, 12.10), and applies its combat
/// effects.
fn try_play(
    state: &mut State,
    side: Side,
    no: u32,
    step: StepName,
    f: &mut Fight,
    ctx: &mut Ctx,
) -> Result<(), String> {
    // Refusals are told to the card's owner only: they name a card still in its hand.
    reach::fire("12.10");
    if f.parts.get(side).is_empty() {
        ctx.log.private(side, format!(
            "{} cannot play card {no} at {}: no unit of its own takes part in that combat (12.10)",
            side.name(),
            f.name
        ));
        return Ok(());
    }
    if let Err(p) = legal_combat_card(state, side, no, step, &FieldPath::root()) {
        ctx.log.private(
            side,
            format!(
                "{} does not play card {no} at {}: {}",
                side.name(),
                f.name,
                reason(&p)
            ),
        );
        return Ok(());
    }
    // 2.10 (in hand, conditions), 2.13 (its step), 12.9 (a card of the combat) apply.
    for r in ["2.10", "2.13", "12.9"] {
        reach::fire(r);
    }
    let card = play::play(state, side, no, ctx)?;
    for e in &card.effects {
        match e {
            Effect::CombatMod(m) => {
                reach::fire("2.14");
                let target = match m.side {
                    Whose::Own => side,
                    Whose::Enemy => side.other(),
                };
                let what = match m.target {
                    ModTarget::CaptureTarget => {
                        if target == Side::Fed {
                            reach::fire("13.3");
                            f.capture += m.delta;
                            "the capture target"
                        } else {
                            ctx.log.public(format!(
                                "card {no}: only Fed has a capture target; no effect (13.3)"
                            ));
                            continue;
                        }
                    }
                    ModTarget::Aa => {
                        f.mods.get_mut(target).aa += m.delta;
                        "AA"
                    }
                    ModTarget::Ap => {
                        f.mods.get_mut(target).ap += m.delta;
                        "AP"
                    }
                    ModTarget::Def => {
                        f.mods.get_mut(target).def += m.delta;
                        "DEF"
                    }
                };
                ctx.log.public(format!(
                    "card {no}: {what} {:+} for {} in the combat at {} (12.9: modifiers add up for the side they name)",
                    m.delta,
                    target.name(),
                    f.name
                ));
            }
            Effect::CancelCombat => {
                f.cancelled = true;
                ctx.log.public(format!(
                    "card {no}: the combat at {} does not take place",
                    f.name
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// 13: returns false when the combat does not happen.
fn capture_step(
    state: &mut State,
    d: &Declared,
    f: &mut Fight,
    ctx: &mut Ctx,
) -> Result<bool, String> {
    let lib_n = f.parts[Side::Lib].len();
    reach::fire("13.1");
    reach::fire("13.2");
    if state.flag(&super::cards::Flag::LibGovernment) {
        ctx.log.public(format!(
            "no capture check at {}: card 29 is open (13.2)",
            f.name
        ));
        skip_cards(d, f, StepName::Capture, "no capture step took place", ctx);
        return Ok(true);
    }
    if lib_n > 3 {
        ctx.log.public(format!(
            "no capture check at {}: Lib has {lib_n} units there, more than 3 (13.1)",
            f.name
        ));
        skip_cards(d, f, StepName::Capture, "no capture step took place", ctx);
        return Ok(true);
    }
    let soldiers = f.of_class(state, Side::Fed, Class::Soldier);
    let garcia = soldiers
        .iter()
        .filter(|id| state.unit_type(id) == Some("garcia_squad"))
        .count() as i32;
    let target_now = soldiers.len() as i32 + 3 * garcia + f.capture;
    let request = match state.policies[Side::Lib].combat.capture.unwrap_or_default() {
        CaptureRequest::Always => true,
        CaptureRequest::Never => false,
        CaptureRequest::IfTargetAtMost(n) => target_now <= n,
    };
    if !request {
        ctx.log.public(format!(
            "Lib does not request a capture check at {} (13.1)",
            f.name
        ));
        skip_cards(d, f, StepName::Capture, "no capture step took place", ctx);
        return Ok(true);
    }
    ctx.log
        .public(format!("Lib requests a capture check at {} (13.1)", f.name));
    window(state, d, f, StepName::Capture, ctx)?;
    if f.cancelled {
        return Ok(false);
    }
    let t = soldiers.len() as i32 + 3 * garcia + f.capture;
    reach::fire("13.3");
    if garcia > 0 {
        reach::fire("13.4");
    }
    if t < 1 {
        // No face of the die is at most the target: nothing to roll.
        ctx.log.public(format!(
            "capture check at {}: target {t} ({} Fed soldier(s), {garcia} Garcia Squad(s) +3 each, cards {:+}); no roll can succeed, so no die is rolled and the combat does not take place (13.3-13.5)",
            f.name,
            soldiers.len(),
            f.capture
        ));
        return Ok(false);
    }
    let label = format!("{}/capture", f.label);
    let roll = ctx.dice.d6(&label) as i32;
    let ok = roll <= t;
    if !ok {
        reach::fire("13.5");
    }
    let result = if ok {
        "capture succeeds"
    } else {
        "capture fails: no combat"
    };
    ctx.dice.set_result(&label, result);
    ctx.log.public(format!(
        "capture check at {}: target {t} ({} Fed soldier(s), {garcia} Garcia Squad(s) +3 each, cards {:+}); Fed rolls {roll}: {} (13.3-13.5; 13.4: each Garcia Squad counts 1 + 3, docs/dougram.md, Decisions)",
        f.name,
        soldiers.len(),
        f.capture,
        if ok {
            "success, the combat goes on"
        } else {
            "failure, the combat does not take place"
        }
    ));
    Ok(ok)
}

/// Which value a shooter rolls against.
#[derive(Clone, Copy)]
enum Stat {
    Aa,
    Ap,
}

/// Each shooter rolls 1d6; a face at most its value scores that many hits (14.2-14.4,
/// 15.3-15.5, 16.2-16.4). Returns the pooled hits (14.5, 15.6, 16.5).
fn roll_all(
    state: &State,
    f: &Fight,
    shooters: &[String],
    stat: Stat,
    step: &str,
    rule: &str,
    ctx: &mut Ctx,
) -> u32 {
    let mut total = 0;
    for id in shooters {
        let v = f.values(state, id);
        let (value, vname) = match stat {
            Stat::Aa => (v.aa, "AA"),
            Stat::Ap => (v.ap, "AP"),
        };
        let ty = state.unit_type(id).unwrap_or("");
        if value == 0 {
            // A value of 0 (a card's modifier, 12.9) hits on no face: nothing to roll.
            ctx.log.public(format!(
                "{id} ({ty}, {vname} 0) cannot score a hit, so it rolls no die ({rule})"
            ));
            continue;
        }
        let label = format!("{}/{step}/{id}", f.label);
        let face = ctx.dice.d6(&label);
        if face <= value {
            total += face;
            ctx.dice.set_result(&label, format!("{face} hit(s)"));
            ctx.log.public(format!(
                "{id} ({ty}, {vname} {value}) rolls {face}: {face} hit(s) ({rule})"
            ));
        } else {
            ctx.dice.set_result(&label, "miss");
            ctx.log.public(format!(
                "{id} ({ty}, {vname} {value}) rolls {face}: miss ({rule})"
            ));
        }
    }
    total
}

/// The hit-allocation priority of `side` in this combat (17.3).
fn priority(state: &State, d: &Declared, f: &Fight, side: Side) -> Vec<String> {
    if side == f.phasing
        && let Some(p) = &d.allocation
    {
        return p.clone();
    }
    state.policies.get(side).combat.allocation.clone()
}

/// One pool of hits scored by `by` against `targets`, allocated by `by` (17.3-17.4, A21).
struct Pool {
    by: Side,
    hits: u32,
    targets: Vec<String>,
}

/// Allocates every pool of a step, then applies all damage together (14.5, 15.6, 16.5, 17.2).
fn apply_pools(
    state: &mut State,
    d: &Declared,
    f: &mut Fight,
    pools: Vec<Pool>,
    rule: &str,
    ctx: &mut Ctx,
) {
    let mut chosen: Vec<String> = Vec::new();
    let mut touched: BTreeSet<String> = BTreeSet::new();
    reach::fire("17.2");
    for pool in pools {
        let free: Vec<String> = pool
            .targets
            .iter()
            .filter(|id| !touched.contains(*id))
            .cloned()
            .collect();
        let prio = priority(state, d, f, pool.by);
        let fr: &Fight = f;
        let st: &State = state;
        let def = |id: &str| fr.values(st, id).def;
        let hit = damage::allocate(state, pool.hits, &free, &prio, &def);
        let used: u32 = hit.iter().map(|id| def(id)).sum();
        let desc = if hit.is_empty() {
            "none".to_string()
        } else {
            hit.iter()
                .map(|id| format!("{id} ({})", def(id)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        ctx.log.public(format!(
            "{} allocates {} hit(s) at {}: {desc}; {} void ({rule}, 17.3-17.4)",
            pool.by.name(),
            pool.hits,
            f.name,
            pool.hits - used
        ));
        touched.extend(hit.iter().cloned());
        chosen.extend(hit);
    }
    let here = UnitAt::Hex(f.hex);
    for id in chosen {
        // A mercenary disbanded earlier in this step (27.1) has left the game for good.
        if state.units.get(&id).map(|u| &u.at) != Some(&here) {
            continue;
        }
        damage::take_hits(state, &id, ctx);
    }
    // Destroyed units, and mercenaries 27.1 removed without a hit, stop fighting at once.
    for &side in Side::ALL {
        f.parts
            .get_mut(side)
            .retain(|x| state.units.get(x).is_some_and(|u| u.at == here));
    }
}

/// 14: every participating CBA rolls against AA; hits go to enemy CBAs (A19); no step when a
/// side has no CBA (A20).
fn cba_step(state: &mut State, d: &Declared, f: &mut Fight, ctx: &mut Ctx) -> Result<(), String> {
    let lib = f.of_class(state, Side::Lib, Class::Cba);
    let fed = f.of_class(state, Side::Fed, Class::Cba);
    if lib.is_empty() || fed.is_empty() {
        ctx.log.public(format!(
            "no CBA step at {}: a side has no CBA in the combat (14.1: CBAs fight CBAs; docs/dougram.md, Decisions)",
            f.name
        ));
        skip_cards(d, f, StepName::Cba, "no CBA step took place", ctx);
        return Ok(());
    }
    // 2.1: CBAs and soldiers fight by class.
    reach::fire("2.1");
    reach::fire("14.1");
    window(state, d, f, StepName::Cba, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    for r in ["14.2", "14.3", "14.4", "14.5"] {
        reach::fire(r);
    }
    // The window may not remove units, but re-read the CBAs in case a card changed them.
    let lib = f.of_class(state, Side::Lib, Class::Cba);
    let fed = f.of_class(state, Side::Fed, Class::Cba);
    // 22.8: the fortress fights as a CBA, so it rolls in this step with the others.
    if fed.iter().any(|id| state.unit_type(id) == Some("fortress")) {
        reach::fire("22.8");
    }
    let mut pools = Vec::new();
    for (side, own, enemy) in [
        (
            f.phasing,
            side_list(f.phasing, &lib, &fed),
            side_list(f.phasing.other(), &lib, &fed),
        ),
        (
            f.phasing.other(),
            side_list(f.phasing.other(), &lib, &fed),
            side_list(f.phasing, &lib, &fed),
        ),
    ] {
        let hits = roll_all(state, f, own, Stat::Aa, "cba", "14.2-14.4", ctx);
        pools.push(Pool {
            by: side,
            hits,
            targets: enemy.to_vec(),
        });
    }
    apply_pools(state, d, f, pools, "14.5", ctx);
    Ok(())
}

fn side_list<'a>(side: Side, lib: &'a [String], fed: &'a [String]) -> &'a [String] {
    match side {
        Side::Lib => lib,
        Side::Fed => fed,
    }
}

/// Whether `side` asks for the AP step (15.2); `can` says it has a shooter with a target.
fn wants_ap(state: &State, d: &Declared, f: &Fight, side: Side, can: bool) -> bool {
    if !can {
        return false;
    }
    if side == f.phasing
        && let Some(b) = d.ap_attack
    {
        return b;
    }
    state.policies.get(side).combat.ap_attack == ApRequest::Always
}

/// 15, default A18: each requesting side attacks in its own resolution; its CBAs roll AP
/// against enemy soldiers and its soldiers roll AA against enemy CBAs; all damage of the step
/// lands together.
fn ap_step(state: &mut State, d: &Declared, f: &mut Fight, ctx: &mut Ctx) -> Result<(), String> {
    let mut attackers = Vec::new();
    for side in [f.phasing, f.phasing.other()] {
        let own_cba = f.of_class(state, side, Class::Cba);
        let own_sol = f.of_class(state, side, Class::Soldier);
        let en_cba = f.of_class(state, side.other(), Class::Cba);
        let en_sol = f.of_class(state, side.other(), Class::Soldier);
        let can = (!own_cba.is_empty() && !en_sol.is_empty())
            || (!own_sol.is_empty() && !en_cba.is_empty());
        if wants_ap(state, d, f, side, can) {
            attackers.push(side);
        }
    }
    if attackers.is_empty() {
        ctx.log.public(format!(
            "no AP step at {}: nobody asks for it (15.2)",
            f.name
        ));
        skip_cards(d, f, StepName::Ap, "no AP step took place", ctx);
        return Ok(());
    }
    reach::fire("15.1");
    reach::fire("15.2");
    ctx.log.public(format!(
        "AP step at {}: {} attack(s) (15.2: the side that asks attacks; docs/dougram.md, Decisions)",
        f.name,
        attackers
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" and ")
    ));
    window(state, d, f, StepName::Ap, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    let mut pools = Vec::new();
    for side in attackers {
        let own_cba = f.of_class(state, side, Class::Cba);
        let own_sol = f.of_class(state, side, Class::Soldier);
        let en_cba = f.of_class(state, side.other(), Class::Cba);
        let en_sol = f.of_class(state, side.other(), Class::Soldier);
        // 15.6: the hits of every shooter of the side are added together and dealt to the
        // enemy units they were scored against: CBAs shoot at soldiers, soldiers at CBAs
        // (15.3), so one pool per side whose targets are the classes it shot at.
        let mut pool = Pool {
            by: side,
            hits: 0,
            targets: Vec::new(),
        };
        if !en_sol.is_empty() && !own_cba.is_empty() {
            pool.hits += roll_all(state, f, &own_cba, Stat::Ap, "ap", "15.3-15.5", ctx);
            pool.targets.extend(en_sol);
        }
        if !en_cba.is_empty() && !own_sol.is_empty() {
            pool.hits += roll_all(state, f, &own_sol, Stat::Aa, "ap", "15.3-15.5", ctx);
            pool.targets.extend(en_cba);
        }
        if !pool.targets.is_empty() {
            for r in ["15.3", "15.4", "15.5", "15.6"] {
                reach::fire(r);
            }
            pools.push(pool);
        }
    }
    apply_pools(state, d, f, pools, "15.6", ctx);
    Ok(())
}

/// Expected melee hits of `ids` times 12: a value v scores v(v+1)/12 on average (digest
/// 4.6), so the sums compare exactly in integers.
fn expected_x12(state: &State, f: &Fight, ids: &[String]) -> u32 {
    ids.iter()
        .map(|id| {
            let v = f.values(state, id).ap;
            v * (v + 1)
        })
        .sum()
}

/// 16: runs if either side asks; every participating soldier rolls against AP; hits go to
/// enemy soldiers (A19).
fn melee_step(state: &mut State, d: &Declared, f: &mut Fight, ctx: &mut Ctx) -> Result<(), String> {
    let lib = f.of_class(state, Side::Lib, Class::Soldier);
    let fed = f.of_class(state, Side::Fed, Class::Soldier);
    if lib.is_empty() || fed.is_empty() {
        ctx.log.public(format!(
            "no melee step at {}: a side has no soldier in the combat (16.1: melee is between soldiers; docs/dougram.md, Decisions)",
            f.name
        ));
        skip_cards(d, f, StepName::Melee, "no melee step took place", ctx);
        return Ok(());
    }
    let mut askers = Vec::new();
    for side in [f.phasing, f.phasing.other()] {
        let own = expected_x12(state, f, side_list(side, &lib, &fed));
        let enemy = expected_x12(state, f, side_list(side.other(), &lib, &fed));
        let wants = match (side == f.phasing, d.melee_attack) {
            (true, Some(b)) => b,
            _ => match state.policies.get(side).combat.melee {
                MeleeRequest::Always => true,
                MeleeRequest::Never => false,
                MeleeRequest::Expected => own >= enemy,
            },
        };
        if wants {
            askers.push(side.name());
        }
    }
    if askers.is_empty() {
        ctx.log.public(format!(
            "no melee step at {}: neither side asks for it (16.1)",
            f.name
        ));
        skip_cards(d, f, StepName::Melee, "no melee step took place", ctx);
        return Ok(());
    }
    reach::fire("16.1");
    ctx.log.public(format!(
        "melee step at {}: {} ask(s) for it (16.1)",
        f.name,
        askers.join(" and ")
    ));
    window(state, d, f, StepName::Melee, ctx)?;
    if f.cancelled {
        return Ok(());
    }
    let lib = f.of_class(state, Side::Lib, Class::Soldier);
    let fed = f.of_class(state, Side::Fed, Class::Soldier);
    let mut pools = Vec::new();
    for side in [f.phasing, f.phasing.other()] {
        let own = side_list(side, &lib, &fed);
        let hits = roll_all(state, f, own, Stat::Ap, "melee", "16.2-16.4", ctx);
        pools.push(Pool {
            by: side,
            hits,
            targets: side_list(side.other(), &lib, &fed).to_vec(),
        });
    }
    for r in ["16.2", "16.3", "16.4", "16.5"] {
        reach::fire(r);
    }
    apply_pools(state, d, f, pools, "16.5", ctx);
    Ok(())
}

/// Hexes Lib units in `from` could enter by normal movement: adjacent land across no
/// impassable hexside (22.9, A35; stacking is moot while card 29 is open).
fn displacement_targets(state: &State, from: HexId) -> Vec<HexId> {
    let map = &state.data.map;
    map.neighbours(from)
        .into_iter()
        .filter(|n| map.is_land(*n) && map.hexside(from, *n) != Hexside::Impassable)
        .collect()
}

/// 22.9, A35: at the end of each combat phase, Fed may move every Lib unit in the fortress hex
/// to one adjacent hex, by Fed's policy.
pub fn displace_from_fortress(state: &mut State, ctx: &mut Ctx) {
    let forts: Vec<HexId> = state
        .units
        .iter()
        .filter(|(id, u)| u.side == Side::Fed && state.unit_type(id) == Some("fortress"))
        .filter_map(|(_, u)| match u.at {
            UnitAt::Hex(h) => Some(h),
            _ => None,
        })
        .collect();
    for h in forts {
        let libs: Vec<String> = state
            .units_in(h, Side::Lib)
            .iter()
            .map(|s| s.to_string())
            .collect();
        if libs.is_empty() {
            continue;
        }
        let name = hex_name(state, h);
        reach::fire("22.7");
        reach::fire("22.9");
        if state.policies[Side::Fed]
            .combat
            .fortress_displace
            .unwrap_or_default()
            == Displace::Never
        {
            ctx.log.public(format!(
                "Fed leaves the Lib units in the fortress hex {name} where they are (22.9)"
            ));
            continue;
        }
        let best = displacement_targets(state, h)
            .into_iter()
            .map(|n| (std::cmp::Reverse(state.units_in(n, Side::Fed).len()), n))
            .min()
            .map(|(_, n)| n);
        let Some(to) = best else {
            ctx.log.public(format!(
                "the Lib units in the fortress hex {name} have no adjacent hex to go to (22.9)"
            ));
            continue;
        };
        for id in &libs {
            if let Some(u) = state.units.get_mut(id) {
                u.at = UnitAt::Hex(to);
            }
        }
        ctx.log.public(format!(
            "Fed displaces {} from the fortress hex {name} to {} (22.9: to a neighbouring land hex; docs/dougram.md, Decisions)",
            libs.join(", "),
            hex_name(state, to)
        ));
        play::lib_unit_entered(state, to, ctx);
        control::check(state, "after the fortress displacement (22.9)", ctx);
    }
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    let mut out = String::new();
    out.push_str("# combat (12.2-12.6): declared combats, resolved one at a time in this order.\n");
    out.push_str("#   - {hex: <place or hex>, fight_group: regulars|mercenaries, w1: [], ");
    if side == Side::Fed {
        out.push_str("capture: [], ");
    }
    out.push_str(
        "w2: [], cba: [], ap: [], melee: [], ap_attack: true, melee_attack: true, allocation: [<types>]}\n",
    );
    let declared = &c.combats;
    let plain: Vec<&Declared> = declared
        .iter()
        .filter(|d| d.fight_group.is_none())
        .collect();
    if plain.is_empty() {
        out.push_str("# no hex holds units of both sides now (12.3)\n");
    }
    for d in plain {
        let Some(h) = parse_hex(state, &d.hex) else {
            continue;
        };
        let grouped = declared
            .iter()
            .any(|g| g.hex == d.hex && g.fight_group.is_some());
        out.push_str(&format!(
            "#   - {{hex: {}}}   # lib {} vs fed {}{}\n",
            d.hex,
            state.units_in(h, Side::Lib).join(" "),
            state.units_in(h, Side::Fed).join(" "),
            if grouped {
                "; fight_group applies (12.5)"
            } else {
                ""
            }
        ));
    }
    let cards: Vec<String> = c
        .combat_cards
        .iter()
        .map(|(step, no)| format!("{no} ({})", step_name(*step)))
        .collect();
    if !cards.is_empty() {
        out.push_str(&format!("# combat cards in hand: {}\n", cards.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Roll;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice, give};
    use crate::systems::dougram::state::{Step, Unit};

    const H: HexId = 57;

    /// setup1 with `phasing` to move and hex 57 emptied.
    fn arena(phasing: Side) -> State {
        let mut s = dealt("setup1", 11);
        s.step = match phasing {
            Side::Lib => Step::Lib,
            Side::Fed => Step::Fed,
        };
        s.turn = 2;
        clear(&mut s, H);
        s
    }

    fn clear(s: &mut State, h: HexId) {
        let defs = s.data.counters.counter_defs();
        for (id, u) in s.units.iter_mut() {
            if u.at == UnitAt::Hex(h) {
                *u = Unit {
                    at: UnitAt::Stock,
                    side: defs[id].front.side,
                    damaged: false,
                };
            }
        }
    }

    fn put(s: &mut State, id: &str, side: Side, h: HexId) {
        crate::systems::dougram::fixtures::put(s, id, h, side);
    }

    fn set(s: &mut State, ty: &str, aa: u32, ap: u32, def: u32) {
        let t = s.data.counters.types.get_mut(ty).unwrap();
        t.aa = aa;
        t.ap = ap;
        t.def = def;
    }

    fn at(s: &State, id: &str) -> UnitAt {
        s.units[id].at.clone()
    }

    fn decl(hex: &str) -> Declared {
        Declared {
            hex: hex.to_string(),
            ..Declared::default()
        }
    }

    fn orders(list: Vec<Declared>) -> CombatOrders {
        CombatOrders { combats: list }
    }

    fn run(s: &mut State, side: Side, o: &CombatOrders, seed: u64) -> (Log, Vec<Roll>) {
        let mut d = dice(seed);
        let log = {
            let mut ctx = Ctx::new(&mut d);
            resolve(s, side, o, &mut ctx).unwrap();
            ctx.log
        };
        let t = d.finish().expect("every dice label is unique");
        (log, t.public)
    }

    fn rolled(rolls: &[Roll], part: &str) -> bool {
        rolls.iter().any(|r| r.label.contains(part))
    }

    fn says(log: &Log, part: &str) -> bool {
        log.public.iter().any(|l| l.contains(part))
    }

    fn root() -> FieldPath {
        FieldPath::root().at("combat")
    }

    // ---- orders, check ----

    #[test]
    fn orders_parse_with_a_place_or_a_hex_number_12_2() {
        let o: CombatOrders = crate::yaml::parse(
            "- {hex: 57, fight_group: mercenaries, w1: [202], w2: [201], ap_attack: true}\n- {hex: spa}\n",
            "t",
        )
        .unwrap();
        assert_eq!(o.combats.len(), 2);
        assert_eq!(o.combats[0].hex, "57");
        assert_eq!(o.combats[0].fight_group, Some(FightGroup::Mercenaries));
        let s = arena(Side::Fed);
        assert_eq!(parse_hex(&s, "spa"), Some(58));
        assert_eq!(parse_hex(&s, "57"), Some(57));
        assert_eq!(parse_hex(&s, "11"), None, "sea");
        let p: CombatPolicy = crate::yaml::parse(
            "capture: {if_target_at_most: 2}\nreactions: [{at: w2, play: 103, if_own_units_at_most: 2}]\nmelee: never\n",
            "t",
        )
        .unwrap();
        assert_eq!(p.capture, Some(CaptureRequest::IfTargetAtMost(2)));
        assert_eq!(p.reactions[0].at, StepName::W2);
        assert!(
            crate::yaml::encode(&CombatPolicy::default())
                .unwrap()
                .trim()
                == "{}"
        );
    }

    #[test]
    fn an_unknown_hex_is_a_problem_12_3() {
        let s = arena(Side::Fed);
        let p = check(
            &s,
            Side::Fed,
            &orders(vec![decl("spa"), decl("atlantis")]),
            &root(),
        );
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "combat[1].hex");
        assert_eq!(p[0].rule.as_deref(), Some("12.3"));
    }

    #[test]
    fn a_hex_declared_twice_is_a_problem_12_6() {
        let s = arena(Side::Fed);
        let p = check(
            &s,
            Side::Fed,
            &orders(vec![decl("58"), decl("spa")]),
            &root(),
        );
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "combat[1].hex");
        assert_eq!(p[0].rule.as_deref(), Some("12.6"));
    }

    #[test]
    fn a_hex_without_both_sides_is_no_check_error_but_skipped_at_resolution_12_3() {
        let mut s = arena(Side::Fed);
        put(&mut s, "RF01", Side::Fed, H);
        let o = orders(vec![decl("57")]);
        assert!(check(&s, Side::Fed, &o, &root()).is_empty());
        let (log, rolls) = run(&mut s, Side::Fed, &o, 1);
        assert!(log.private[Side::Fed].iter().any(|l| l.contains("(12.3)")));
        assert!(!says(&log, "(12.3)"), "{:?}", log.public);
        assert!(rolls.is_empty());
    }

    #[test]
    fn a_skipped_combat_is_told_to_its_player_only() {
        let mut s = arena(Side::Fed);
        put(&mut s, "RF01", Side::Fed, H); // no Lib unit in 57
        put(&mut s, "SO40", Side::Lib, 58);
        put(&mut s, "SO01", Side::Fed, 58);
        let mut one_group = decl("58");
        one_group.fight_group = Some(FightGroup::Mercenaries);
        let o = orders(vec![decl("nowhere"), decl("57"), decl("57"), one_group]);
        let (log, _) = run(&mut s, Side::Fed, &o, 1);
        for want in [
            "your combat[0] is skipped",
            "your combat at ",
            "your combat[2] is skipped",
            "your fight_group choice at ",
        ] {
            assert!(
                log.private[Side::Fed].iter().any(|l| l.contains(want)),
                "{want}: {log:?}"
            );
        }
        for needle in [
            "skip",
            "nowhere",
            "57",
            "fight_group",
            "12.3",
            "12.6",
            "12.5",
        ] {
            assert!(!says(&log, needle), "{needle}: {:?}", log.public);
        }
        assert!(says(&log, "fed declares a combat at"), "{:?}", log.public);
        assert!(log.private[Side::Lib].is_empty(), "{log:?}");
    }

    #[test]
    fn a_card_not_in_hand_is_a_problem_2_10() {
        let mut s = arena(Side::Fed);
        s.cards[Side::Fed].hand.take(&201);
        let mut d = decl("57");
        d.cba = vec![201];
        let p = check(&s, Side::Fed, &orders(vec![d]), &root());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "combat[0].cba[0]");
        assert_eq!(p[0].rule.as_deref(), Some("2.10"));
    }

    #[test]
    fn a_card_under_the_wrong_step_is_a_problem_12_9() {
        let mut s = arena(Side::Fed);
        give(&mut s, Side::Fed, 201);
        let mut d = decl("57");
        d.w2 = vec![201];
        let p = check(&s, Side::Fed, &orders(vec![d.clone()]), &root());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "combat[0].w2[0]");
        assert_eq!(p[0].rule.as_deref(), Some("12.9"));
        d.w2.clear();
        d.cba = vec![201];
        assert!(check(&s, Side::Fed, &orders(vec![d.clone()]), &root()).is_empty());
        // The same card twice.
        d.ap = vec![201];
        let p = check(&s, Side::Fed, &orders(vec![d]), &root());
        assert_eq!(p[0].path.to_string(), "combat[0].ap[0]");
    }

    #[test]
    fn lib_has_no_capture_cards_13_1() {
        let mut s = arena(Side::Lib);
        give(&mut s, Side::Lib, 101);
        let mut d = decl("57");
        d.capture = vec![101];
        let p = check(&s, Side::Lib, &orders(vec![d]), &root());
        assert_eq!(p[0].path.to_string(), "combat[0].capture[0]");
        assert_eq!(p[0].rule.as_deref(), Some("13.1"));
    }

    #[test]
    fn fight_group_where_fed_cannot_have_both_groups_is_a_problem_12_5() {
        let mut s = arena(Side::Lib);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "CG14", Side::Lib, H);
        let mut d = decl("57");
        d.fight_group = Some(FightGroup::Regulars);
        let p = check(&s, Side::Lib, &orders(vec![d.clone()]), &root());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].path.to_string(), "combat[0].fight_group");
        assert_eq!(p[0].rule.as_deref(), Some("12.5"));
        put(&mut s, "GA01", Side::Fed, H);
        assert!(check(&s, Side::Lib, &orders(vec![d.clone()]), &root()).is_empty());
        // Fed turn: a mercenary on the map might still move in; none on the map: certain.
        let mut f = arena(Side::Fed);
        put(&mut f, "RF01", Side::Fed, H);
        assert!(!check(&f, Side::Fed, &orders(vec![d.clone()]), &root()).is_empty());
        put(&mut f, "GA01", Side::Fed, 58);
        assert!(check(&f, Side::Fed, &orders(vec![d]), &root()).is_empty());
    }

    #[test]
    fn policy_problems_name_the_field_13_1_12_9_17_3_22_9() {
        let mut s = arena(Side::Fed);
        give(&mut s, Side::Lib, 103);
        let bad = CombatPolicy {
            capture: Some(CaptureRequest::Never),
            reactions: vec![Reaction {
                at: StepName::W1,
                play: 103,
                ..Reaction::default()
            }],
            allocation: vec!["zaku".into()],
            ..CombatPolicy::default()
        };
        let at = FieldPath::root().at("policies").at("combat");
        let p = legal_combat_policy(&s, Side::Fed, &bad, &at);
        let paths: Vec<String> = p.iter().map(|x| x.path.to_string()).collect();
        assert_eq!(
            paths,
            [
                "policies.combat.capture",
                "policies.combat.reactions[0].play",
                "policies.combat.allocation[0]"
            ]
        );
        let p = legal_combat_policy(&s, Side::Lib, &bad, &at);
        assert_eq!(p[0].path.to_string(), "policies.combat.reactions[0].at");
        assert_eq!(p[0].rule.as_deref(), Some("12.9"));
        let lib = CombatPolicy {
            fortress_displace: Some(Displace::Never),
            ..CombatPolicy::default()
        };
        let p = legal_combat_policy(&s, Side::Lib, &lib, &at);
        assert_eq!(p[0].rule.as_deref(), Some("22.9"));
    }

    // ---- CBA step ----

    #[test]
    fn cbas_roll_against_aa_and_score_the_die_face_14_2_14_4() {
        let mut s = arena(Side::Lib);
        set(&mut s, "crab_gunner", 6, 0, 6);
        set(&mut s, "round_facer", 1, 0, 1);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        let (log, rolls) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 2);
        let r = rolls
            .iter()
            .find(|r| r.label == "t2/lib/combat/57/cba/CG14")
            .unwrap();
        assert_eq!(r.result, format!("{} hit(s)", r.values[0]));
        let f = rolls
            .iter()
            .find(|r| r.label == "t2/lib/combat/57/cba/RF01")
            .unwrap();
        let want = if f.values[0] <= 1 { "1 hit(s)" } else { "miss" };
        assert_eq!(f.result, want, "AA 1: a hit on a 1 only");
        assert_eq!(at(&s, "RF01"), UnitAt::ReplenishmentBox, "17.6");
        assert_eq!(at(&s, "CG14"), UnitAt::Hex(H));
        assert!(says(&log, "(14.5, 17.3-17.4)"));
    }

    #[test]
    fn cba_damage_lands_on_both_sides_at_once_14_5() {
        let mut s = arena(Side::Fed);
        set(&mut s, "crab_gunner", 6, 0, 1);
        set(&mut s, "round_facer", 6, 0, 1);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::Never);
        let (_, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 23);
        assert!(rolled(&rolls, "/cba/CG14") && rolled(&rolls, "/cba/RF01"));
        assert_eq!(at(&s, "CG14"), UnitAt::Stock);
        assert_eq!(at(&s, "RF01"), UnitAt::ReplenishmentBox);
    }

    #[test]
    fn no_cba_step_when_a_side_has_no_cba_a20() {
        let mut s = arena(Side::Fed);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "SO40", Side::Lib, H);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::Never);
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Never;
        s.policies[Side::Lib].combat.ap_attack = ApRequest::Never;
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 3);
        assert!(says(&log, "(14.1: CBAs fight CBAs"));
        assert!(!rolls.iter().any(|r| r.label.contains("/cba/")));
    }

    #[test]
    fn cba_step_hits_go_only_to_enemy_cbas_a19() {
        let mut s = arena(Side::Lib);
        set(&mut s, "crab_gunner", 6, 6, 6);
        // DEF 12: no roll can complete a kill on the CBA, so every hit would go to the soldier
        // (DEF 1) if the CBA step could hit soldiers.
        set(&mut s, "round_facer", 0, 0, 12);
        set(&mut s, "soldier", 0, 0, 1);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "SO01", Side::Fed, H);
        s.policies[Side::Lib].combat.ap_attack = ApRequest::Never;
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Never;
        let (log, _) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 4);
        assert_eq!(at(&s, "SO01"), UnitAt::Hex(H), "{:?}", log.public);
        assert_eq!(at(&s, "RF01"), UnitAt::Hex(H));
        assert!(says(&log, "void"), "{:?}", log.public);
    }

    #[test]
    fn the_fortress_fights_as_a_cba_and_once_destroyed_leaves_the_game_22_8_22_10() {
        let mut s = arena(Side::Lib);
        set(&mut s, "crab_gunner", 6, 0, 6);
        set(&mut s, "fortress", 1, 0, 1);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "FT01", Side::Fed, H);
        s.policies[Side::Fed].combat.fortress_displace = Some(Displace::Never);
        let (log, rolls) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 5);
        assert!(rolled(&rolls, "/cba/FT01"));
        assert_eq!(at(&s, "FT01"), UnitAt::Removed);
        assert!(says(&log, "22.10"));
    }

    // ---- damage ----

    #[test]
    fn greedy_allocation_takes_the_largest_def_that_still_fits_17_3() {
        let mut s = arena(Side::Lib);
        set(&mut s, "round_facer", 1, 1, 4);
        set(&mut s, "hasty", 1, 1, 1);
        set(&mut s, "crab_gunner", 1, 1, 3);
        for id in ["RF01", "HS01", "CG01"] {
            put(&mut s, id, Side::Fed, H);
        }
        let t: Vec<String> = ["RF01", "HS01", "CG01"].map(String::from).to_vec();
        let def = |id: &str| damage::printed(&s, id).unwrap().def;
        assert_eq!(damage::allocate(&s, 5, &t, &[], &def), ["RF01", "HS01"]);
        assert_eq!(
            damage::allocate(&s, 5, &t, &["crab_gunner".into()], &def),
            ["CG01", "HS01"]
        );
    }

    #[test]
    fn hits_short_of_a_units_def_are_void_17_4() {
        let mut s = arena(Side::Lib);
        set(&mut s, "round_facer", 1, 1, 3);
        put(&mut s, "RF01", Side::Fed, H);
        let t = vec!["RF01".to_string()];
        let def = |id: &str| damage::printed(&s, id).unwrap().def;
        assert!(damage::allocate(&s, 2, &t, &[], &def).is_empty());
    }

    #[test]
    fn the_priority_list_picks_the_targets_17_3() {
        let mut s = arena(Side::Lib);
        set(&mut s, "crab_gunner", 6, 0, 6);
        set(&mut s, "round_facer", 0, 0, 6);
        set(&mut s, "hasty", 0, 0, 1);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "HS01", Side::Fed, H);
        let mut d = decl("57");
        d.allocation = Some(vec!["hasty".into()]);
        run(&mut s, Side::Lib, &orders(vec![d]), 6);
        assert_ne!(at(&s, "HS01"), UnitAt::Hex(H));
        assert_eq!(at(&s, "RF01"), UnitAt::Hex(H));
    }

    #[test]
    fn a_destroyed_lib_unit_goes_to_the_stock_front_face_up_17_5() {
        let mut s = arena(Side::Fed);
        set(&mut s, "soldier", 0, 6, 1);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO01", Side::Fed, H);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::Never);
        let mut d = decl("57");
        d.melee_attack = Some(true);
        let (_, rolls) = run(&mut s, Side::Fed, &orders(vec![d]), 7);
        assert!(rolled(&rolls, "/melee/SO01") && rolled(&rolls, "/melee/SO40"));
        assert_eq!(
            s.units["SO40"],
            Unit {
                at: UnitAt::Stock,
                side: Side::Fed,
                damaged: false
            }
        );
        // Both died at once (16.5): the Fed soldier goes to the box.
        assert_eq!(at(&s, "SO01"), UnitAt::ReplenishmentBox);
    }

    fn kill(s: &mut State, id: &str) -> Log {
        let mut d = dice(1);
        let mut ctx = Ctx::new(&mut d);
        damage::destroy(s, id, &mut ctx);
        ctx.log
    }

    #[test]
    fn mackerel_cochma_and_mercenaries_go_to_the_stock_others_and_the_6th_army_to_the_box_17_6() {
        let mut s = arena(Side::Lib);
        for id in ["MK01", "CS01", "TQ01", "SO01", "S6S01", "GA01", "GA02"] {
            put(&mut s, id, Side::Fed, H);
        }
        for id in ["MK01", "CS01", "TQ01"] {
            kill(&mut s, id);
            assert_eq!(at(&s, id), UnitAt::Stock, "{id}");
        }
        for id in ["SO01", "S6S01"] {
            kill(&mut s, id);
            assert_eq!(at(&s, id), UnitAt::ReplenishmentBox, "{id}");
        }
    }

    #[test]
    fn a_hasty_is_replaced_by_a_round_facer_in_the_box_17_7() {
        let mut s = arena(Side::Lib);
        put(&mut s, "HS01", Side::Fed, H);
        let rf = s
            .units
            .iter()
            .find(|(id, u)| id.starts_with("RF") && u.at == UnitAt::Stock)
            .map(|(id, _)| id.clone())
            .unwrap();
        let log = kill(&mut s, "HS01");
        assert_eq!(at(&s, "HS01"), UnitAt::Stock);
        assert_eq!(at(&s, &rf), UnitAt::ReplenishmentBox);
        assert!(says(&log, "17.7"));
        // No Round Facer left in the stock (A12): nothing enters the box.
        let mut s = arena(Side::Lib);
        put(&mut s, "HS01", Side::Fed, H);
        for (id, u) in s.units.iter_mut() {
            if id.starts_with("RF") && u.at == UnitAt::Stock {
                u.at = UnitAt::Hex(58);
            }
        }
        let log = kill(&mut s, "HS01");
        assert_eq!(at(&s, "HS01"), UnitAt::Stock);
        assert!(!s.units.values().any(|u| u.at == UnitAt::ReplenishmentBox));
        assert!(says(&log, "(17.7: the replacement comes from the stock"));
        // Hasty deployment open (61): the Hasty itself goes to the box.
        let mut s = arena(Side::Lib);
        s.open.insert(61);
        put(&mut s, "HS01", Side::Fed, H);
        kill(&mut s, "HS01");
        assert_eq!(at(&s, "HS01"), UnitAt::ReplenishmentBox);
    }

    #[test]
    fn a_disbanded_mercenary_hit_in_the_same_step_stays_out_of_the_game_27_1() {
        let mut s = arena(Side::Lib);
        for id in ["GA01", "GA02", "TQ01"] {
            put(&mut s, id, Side::Fed, H);
        }
        put(&mut s, "CG01", Side::Lib, H);
        put(&mut s, "SO01", Side::Lib, H);
        let mut f = Fight {
            hex: H,
            name: "x".into(),
            label: "t".into(),
            phasing: Side::Lib,
            parts: PerSide::from_fn(|side| match side {
                Side::Lib => vec!["CG01".into(), "SO01".into()],
                Side::Fed => vec!["GA01".into(), "GA02".into(), "TQ01".into()],
            }),
            mods: PerSide::default(),
            capture: 0,
            cancelled: false,
        };
        let mut d = dice(1);
        let mut ctx = Ctx::new(&mut d);
        let def = |s: &State, id: &str| damage::printed(s, id).unwrap().def;
        let pools = vec![
            Pool {
                by: Side::Lib,
                hits: def(&s, "GA01") + def(&s, "GA02"),
                targets: vec!["GA01".into(), "GA02".into()],
            },
            Pool {
                by: Side::Lib,
                hits: def(&s, "TQ01"),
                targets: vec!["TQ01".into()],
            },
        ];
        apply_pools(&mut s, &decl("57"), &mut f, pools, "15.6", &mut ctx);
        assert_eq!(at(&s, "TQ01"), UnitAt::Removed, "{:?}", ctx.log.public);
        assert!(f.parts[Side::Fed].is_empty());
    }

    #[test]
    fn when_both_garcia_squads_are_gone_the_other_mercenaries_leave_the_game_27_1() {
        let mut s = arena(Side::Lib);
        put(&mut s, "GA01", Side::Fed, H);
        put(&mut s, "GA02", Side::Fed, 58);
        put(&mut s, "TQ01", Side::Fed, 58);
        kill(&mut s, "GA01");
        assert_eq!(at(&s, "GA01"), UnitAt::Stock);
        assert_eq!(
            at(&s, "TQ01"),
            UnitAt::Hex(58),
            "one Garcia is still on the map"
        );
        let log = kill(&mut s, "GA02");
        assert_eq!(
            at(&s, "GA02"),
            UnitAt::Stock,
            "A41: Garcia stay in the stock"
        );
        for id in ["TQ01", "TQ02", "DS01"] {
            assert_eq!(at(&s, id), UnitAt::Removed, "{id}");
        }
        assert!(says(&log, "27.1"));
    }

    #[test]
    fn dougram_turns_over_then_is_destroyed_at_most_one_change_per_step_21_2_a21() {
        let mut s = arena(Side::Lib);
        {
            let t = s.data.counters.types.get_mut("dougram").unwrap();
            t.aa = 0;
            t.def = 1;
            t.damaged = Some(Values {
                aa: 0,
                ap: 0,
                def: 1,
            });
        }
        set(&mut s, "round_facer", 6, 0, 6);
        put(&mut s, "DG01", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "RF02", Side::Fed, H);
        // Two Fed CBAs score at least 2 hits, but the Dougram only turns over.
        let (log, _) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 8);
        assert!(says(&log, "turns to its back (21.2)"), "{:?}", log.public);
        assert!(s.units["DG01"].damaged);
        assert_eq!(at(&s, "DG01"), UnitAt::Hex(H));
        // Next phase: the back takes its DEF and the Dougram is destroyed (17.5).
        s.turn = 3;
        run(&mut s, Side::Lib, &orders(vec![decl("57")]), 9);
        assert_eq!(
            s.units["DG01"],
            Unit {
                at: UnitAt::Stock,
                side: Side::Lib,
                damaged: false
            }
        );
    }

    #[test]
    fn a_damaged_dougram_fights_with_its_back_values_21_1() {
        let mut s = arena(Side::Lib);
        put(&mut s, "DG01", Side::Lib, H);
        let front = damage::printed(&s, "DG01").unwrap();
        s.units.get_mut("DG01").unwrap().damaged = true;
        let back = damage::printed(&s, "DG01").unwrap();
        assert_eq!(front.aa, 5);
        assert_eq!(back, s.data.counters.types["dougram"].damaged.unwrap());
    }

    // ---- terrain, cards ----

    fn probe(s: &State, hex: HexId) -> Fight {
        let _ = s;
        Fight {
            hex,
            name: format!("hex {hex}"),
            label: format!("t/{hex}"),
            phasing: Side::Fed,
            parts: PerSide::default(),
            mods: PerSide::default(),
            capture: 0,
            cancelled: false,
        }
    }

    #[test]
    fn the_desert_gunner_is_5_5_in_a_desert_hex_25_1() {
        let mut s = arena(Side::Fed);
        put(&mut s, "DS01", Side::Fed, 68);
        let v = probe(&s, 68).values(&s, "DS01");
        assert_eq!((v.aa, v.ap), (5, 5));
        let v = probe(&s, 57).values(&s, "DS01");
        assert_eq!((v.aa, v.ap), (3, 3));
    }

    #[test]
    fn cold_climate_cbas_add_one_capped_at_6_26_1() {
        let mut s = arena(Side::Fed);
        set(&mut s, "big_foot", 6, 3, 4);
        put(&mut s, "BF01", Side::Fed, 52);
        let v = probe(&s, 52).values(&s, "BF01");
        assert_eq!((v.aa, v.ap), (6, 4));
        let v = probe(&s, 57).values(&s, "BF01");
        assert_eq!((v.aa, v.ap), (6, 3));
    }

    #[test]
    fn combat_card_modifiers_add_up_for_the_side_they_name_12_9_a27() {
        let mut s = arena(Side::Lib);
        set(&mut s, "round_facer", 0, 0, 6);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        give(&mut s, Side::Lib, 101); // w2: own AA +1
        let mut d = decl("57");
        d.w2 = vec![101];
        let (log, _) = run(&mut s.clone(), Side::Lib, &orders(vec![d.clone()]), 10);
        assert!(says(&log, "CG14 (crab_gunner, AA 4)"), "{:?}", log.public);
        give(&mut s, Side::Fed, 208); // Fed reaction at w2: enemy AA -1
        s.policies[Side::Fed].combat.reactions = vec![Reaction {
            at: StepName::W2,
            play: 208,
            ..Reaction::default()
        }];
        let (log, _) = run(&mut s, Side::Lib, &orders(vec![d]), 10);
        assert!(says(&log, "CG14 (crab_gunner, AA 3)"), "{:?}", log.public);
        let played: Vec<&String> = log
            .public
            .iter()
            .filter(|l| l.contains("plays card"))
            .collect();
        assert!(
            played[0].contains("lib plays card 101"),
            "phasing first (2.13)"
        );
        assert!(played[1].contains("fed plays card 208"));
    }

    #[test]
    fn a_cancel_card_stops_the_combat() {
        let mut s = arena(Side::Fed);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::Never);
        give(&mut s, Side::Lib, 103);
        s.policies[Side::Lib].combat.reactions = vec![Reaction {
            at: StepName::W2,
            play: 103,
            if_own_units_at_most: Some(2),
            ..Reaction::default()
        }];
        let (log, rolls) = run(&mut s.clone(), Side::Fed, &orders(vec![decl("57")]), 11);
        assert!(rolls.is_empty());
        assert!(says(&log, "does not take place"));
        // The condition fails with 3 Lib units: the card stays in hand and the combat runs.
        put(&mut s, "CG13", Side::Lib, H);
        put(&mut s, "CG12", Side::Lib, H);
        let (_, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 11);
        assert!(rolled(&rolls, "/cba/"));
        assert!(s.cards[Side::Lib].hand.contains(&103));
    }

    #[test]
    fn a_card_needs_an_own_unit_in_the_combat_12_10() {
        let mut s = arena(Side::Fed);
        give(&mut s, Side::Fed, 201);
        let mut f = probe(&s, H);
        f.parts[Side::Lib] = vec!["CG14".into()];
        let mut d = dice(1);
        let mut ctx = Ctx::new(&mut d);
        try_play(&mut s, Side::Fed, 201, StepName::Cba, &mut f, &mut ctx).unwrap();
        assert!(ctx.log.private[Side::Fed][0].contains("12.10"));
        assert!(ctx.log.public.is_empty(), "the hand stays secret");
        assert!(s.cards[Side::Fed].hand.contains(&201));
    }

    #[test]
    fn a_listed_card_no_longer_in_hand_is_skipped_at_resolution_2_10() {
        let mut s = arena(Side::Lib);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        give(&mut s, Side::Lib, 101);
        let mut d = decl("57");
        d.w2 = vec![101];
        let o = orders(vec![d]);
        assert!(check(&s, Side::Lib, &o, &root()).is_empty());
        s.cards[Side::Lib].hand.take(&101);
        let (log, _) = run(&mut s, Side::Lib, &o, 12);
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.contains("does not play card 101")),
            "{:?}",
            log.private
        );
        assert!(!says(&log, "card 101"), "the hand stays secret");
    }

    // ---- capture ----

    #[test]
    fn a_fed_stack_without_soldiers_never_captures_13_3_13_5() {
        let mut s = arena(Side::Fed);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 13);
        // Target 0: no face succeeds, so no die is rolled (an impossible roll is not made).
        assert!(!rolled(&rolls, "/capture"));
        assert!(!rolled(&rolls, "/cba/"));
        assert!(says(&log, "target 0"));
        assert!(says(&log, "no die is rolled"), "{:?}", log.public);
    }

    #[test]
    fn a_shooter_with_a_value_of_0_rolls_no_die_14_3_15_4() {
        let mut s = arena(Side::Lib);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        set(&mut s, "round_facer", 0, 0, 6);
        set(&mut s, "crab_gunner", 3, 3, 6);
        let (log, rolls) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 13);
        assert!(rolled(&rolls, "/cba/CG14"));
        assert!(!rolled(&rolls, "/cba/RF01"), "AA 0 hits on no face");
        assert!(says(&log, "RF01 (round_facer, AA 0) cannot score a hit"));
    }

    #[test]
    fn garcia_adds_three_and_a_capture_card_raises_the_target_13_4_a25() {
        let mut s = arena(Side::Fed);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "GA01", Side::Fed, H);
        give(&mut s, Side::Fed, 202); // w1: own capture target +2
        let mut d = decl("57");
        d.w1 = vec![202];
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![d]), 14);
        assert!(says(&log, "target 6"), "{:?}", log.public);
        let r = rolls
            .iter()
            .find(|r| r.label.ends_with("/capture"))
            .unwrap();
        assert_eq!(r.result, "capture succeeds");
    }

    #[test]
    fn lib_capture_cards_lower_fed_target_by_reaction_13_3() {
        let mut s = arena(Side::Fed);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO01", Side::Fed, H);
        put(&mut s, "SO02", Side::Fed, H);
        give(&mut s, Side::Lib, 102); // w1, enemy capture target -2
        s.policies[Side::Lib].combat.reactions = vec![Reaction {
            at: StepName::W1,
            play: 102,
            ..Reaction::default()
        }];
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 15);
        assert!(says(&log, "target 0"), "{:?}", log.public);
        assert!(!rolled(&rolls, "/melee/"));
    }

    #[test]
    fn a_capture_reaction_stays_in_hand_when_no_capture_step_can_happen_13_1() {
        let mut s = arena(Side::Fed);
        for id in ["SO40", "SO41", "SO42", "SO43"] {
            put(&mut s, id, Side::Lib, H);
        }
        put(&mut s, "SO01", Side::Fed, H);
        give(&mut s, Side::Lib, 102); // w1, enemy capture target -2
        s.policies[Side::Lib].combat.reactions = vec![Reaction {
            at: StepName::W1,
            play: 102,
            ..Reaction::default()
        }];
        let (log, _) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 15);
        assert!(s.cards[Side::Lib].hand.contains(&102), "{:?}", log.public);
        assert!(!says(&log, "plays card 102"));
    }

    #[test]
    fn no_capture_step_with_card_29_or_four_lib_units_or_no_request_or_in_the_lib_phase_13_1_13_2()
    {
        let base = |s: &mut State| {
            put(s, "SO40", Side::Lib, H);
            put(s, "RF01", Side::Fed, H);
        };
        let mut s = arena(Side::Fed);
        base(&mut s);
        s.open.insert(29);
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 16);
        assert!(!rolled(&rolls, "/capture") && says(&log, "13.2"));
        let mut s = arena(Side::Fed);
        base(&mut s);
        for id in ["SO41", "SO42", "SO43"] {
            put(&mut s, id, Side::Lib, H);
        }
        let (log, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 16);
        assert!(!rolled(&rolls, "/capture") && says(&log, "more than 3 (13.1)"));
        let mut s = arena(Side::Fed);
        base(&mut s);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::IfTargetAtMost(-1));
        let (_, rolls) = run(&mut s, Side::Fed, &orders(vec![decl("57")]), 16);
        assert!(!rolled(&rolls, "/capture"));
        let mut s = arena(Side::Lib);
        base(&mut s);
        let (_, rolls) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 16);
        assert!(!rolled(&rolls, "/capture"));
    }

    // ---- AP and melee ----

    #[test]
    fn only_the_requester_attacks_in_the_ap_step_15_2_a18() {
        let mut s = arena(Side::Lib);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "SO01", Side::Fed, H);
        set(&mut s, "round_facer", 1, 1, 6);
        set(&mut s, "crab_gunner", 1, 1, 6);
        set(&mut s, "soldier", 1, 1, 6);
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Never;
        s.policies[Side::Lib].combat.melee = MeleeRequest::Never;
        s.policies[Side::Fed].combat.melee = MeleeRequest::Never;
        let (_, rolls) = run(&mut s.clone(), Side::Lib, &orders(vec![decl("57")]), 17);
        assert!(rolled(&rolls, "/ap/CG14") && rolled(&rolls, "/ap/SO40"));
        assert!(!rolled(&rolls, "/ap/RF01") && !rolled(&rolls, "/ap/SO01"));
        // Both ask: two resolutions; the order can refuse for the phasing side.
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Always;
        let (_, rolls) = run(&mut s.clone(), Side::Lib, &orders(vec![decl("57")]), 17);
        assert!(rolled(&rolls, "/ap/RF01") && rolled(&rolls, "/ap/CG14"));
        let mut d = decl("57");
        d.ap_attack = Some(false);
        let (_, rolls) = run(&mut s, Side::Lib, &orders(vec![d]), 17);
        assert!(rolled(&rolls, "/ap/RF01") && !rolled(&rolls, "/ap/CG14"));
    }

    #[test]
    fn ap_step_cba_hits_go_to_soldiers_and_soldier_hits_to_cbas_a19() {
        let mut s = arena(Side::Lib);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "SO01", Side::Fed, H);
        set(&mut s, "crab_gunner", 0, 6, 6);
        set(&mut s, "round_facer", 0, 0, 1);
        set(&mut s, "soldier", 0, 0, 1);
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Never;
        run(&mut s, Side::Lib, &orders(vec![decl("57")]), 18);
        assert_eq!(at(&s, "SO01"), UnitAt::ReplenishmentBox);
        assert_eq!(
            at(&s, "RF01"),
            UnitAt::Hex(H),
            "AP hits of a CBA hit soldiers only"
        );
    }

    #[test]
    fn ap_step_hits_of_cbas_and_soldiers_are_added_into_one_pool_15_6() {
        let mut s = arena(Side::Lib);
        put(&mut s, "CG14", Side::Lib, H);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "RF01", Side::Fed, H);
        put(&mut s, "SO01", Side::Fed, H);
        // Every Lib die hits (AP 6 and AA 6); no Fed unit can hurt back.
        set(&mut s, "crab_gunner", 0, 6, 6);
        set(&mut s, "soldier", 6, 0, 6);
        set(&mut s, "round_facer", 0, 0, 6);
        s.policies[Side::Fed].combat.ap_attack = ApRequest::Never;
        s.policies[Side::Lib].combat.melee = MeleeRequest::Never;
        s.policies[Side::Fed].combat.melee = MeleeRequest::Never;
        let (log, rolls) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 18);
        let face = |id: &str| -> u32 {
            rolls
                .iter()
                .find(|r| r.label.ends_with(&format!("/ap/{id}")))
                .map(|r| r.values[0])
                .unwrap_or_else(|| panic!("{id} rolled in the AP step: {rolls:?}"))
        };
        let total = face("CG14") + face("SO40");
        let lines: Vec<&String> = log
            .public
            .iter()
            .filter(|l| l.starts_with("lib allocates") && l.contains("(15.6"))
            .collect();
        assert_eq!(lines.len(), 1, "one pool for the side: {lines:?}");
        assert!(
            lines[0].starts_with(&format!("lib allocates {total} hit(s)")),
            "the CBA's and the soldier's hits are added: {lines:?}"
        );
    }

    #[test]
    fn melee_by_default_when_own_expected_hits_are_not_lower_16_1() {
        let mut s = arena(Side::Fed);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO01", Side::Fed, H);
        put(&mut s, "GA01", Side::Fed, H);
        set(&mut s, "soldier", 0, 1, 6);
        set(&mut s, "garcia_squad", 0, 6, 6);
        s.policies[Side::Lib].combat.capture = Some(CaptureRequest::Never);
        // Mercenaries (AP 6) fight: Fed's expectation 42 >= Lib's 2, Fed asks.
        let mut d = decl("57");
        d.fight_group = Some(FightGroup::Mercenaries);
        let (log, rolls) = run(&mut s.clone(), Side::Fed, &orders(vec![d.clone()]), 19);
        assert!(says(&log, "fed ask(s)"), "{:?}", log.public);
        assert!(
            rolled(&rolls, "/melee/GA01") && !rolled(&rolls, "/melee/SO01"),
            "12.5, A23"
        );
        // Regulars (AP 1 vs 1): both expect the same, both ask.
        d.fight_group = Some(FightGroup::Regulars);
        let (log, _) = run(&mut s.clone(), Side::Fed, &orders(vec![d.clone()]), 19);
        assert!(says(&log, "fed and lib ask(s)"), "{:?}", log.public);
        // Nobody asks: no melee.
        s.policies[Side::Fed].combat.melee = MeleeRequest::Never;
        s.policies[Side::Lib].combat.melee = MeleeRequest::Never;
        let (_, rolls) = run(&mut s, Side::Fed, &orders(vec![d]), 19);
        assert!(!rolled(&rolls, "/melee/"));
    }

    #[test]
    fn the_12_5_fallback_lets_lib_pick_the_weaker_fed_group_12_5() {
        let mut s = arena(Side::Lib);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO01", Side::Fed, H);
        put(&mut s, "GA01", Side::Fed, H);
        s.policies[Side::Lib].combat.melee = MeleeRequest::Always;
        let (log, rolls) = run(&mut s.clone(), Side::Lib, &orders(vec![decl("57")]), 20);
        assert!(says(&log, "chooses the Fed regulars"), "{:?}", log.public);
        assert!(!rolled(&rolls, "/melee/GA01"));
        s.policies[Side::Lib].combat.fight_group = GroupChoice::Mercenaries;
        let (log, _) = run(&mut s, Side::Lib, &orders(vec![decl("57")]), 20);
        assert!(says(&log, "chooses the Fed mercenaries"));
    }

    // ---- after the combat ----

    #[test]
    fn control_is_checked_after_each_combat_3_3_2() {
        let mut s = arena(Side::Lib);
        clear(&mut s, 58);
        set(&mut s, "crab_gunner", 6, 0, 6);
        set(&mut s, "round_facer", 0, 0, 1);
        put(&mut s, "CG14", Side::Lib, 58);
        put(&mut s, "RF01", Side::Fed, 58);
        s.control.insert("spa".into(), Side::Fed);
        let (log, _) = run(&mut s, Side::Lib, &orders(vec![decl("spa")]), 21);
        assert_eq!(s.control["spa"], Side::Lib);
        assert!(says(&log, "after the combat at Spa"), "{:?}", log.public);
    }

    #[test]
    fn fed_displaces_lib_units_from_the_fortress_hex_at_phase_end_22_9() {
        let mut s = arena(Side::Lib);
        put(&mut s, "FT01", Side::Fed, H);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO41", Side::Lib, H);
        let target = displacement_targets(&s, H)[1];
        put(&mut s, "SO01", Side::Fed, target);
        let (log, _) = run(&mut s.clone(), Side::Lib, &orders(vec![]), 22);
        assert!(says(&log, "22.9"));
        let mut t = s.clone();
        run(&mut t, Side::Fed, &orders(vec![]), 22);
        assert_eq!(at(&t, "SO40"), UnitAt::Hex(target));
        assert_eq!(at(&t, "SO41"), UnitAt::Hex(target));
        assert_eq!(at(&t, "FT01"), UnitAt::Hex(H));
        s.policies[Side::Fed].combat.fortress_displace = Some(Displace::Never);
        run(&mut s, Side::Lib, &orders(vec![]), 22);
        assert_eq!(at(&s, "SO40"), UnitAt::Hex(H));
    }

    #[test]
    fn displacement_never_crosses_an_impassable_hexside_or_enters_the_sea_22_9() {
        let mut s = arena(Side::Lib);
        let land: Vec<HexId> = s
            .data
            .map
            .neighbours(H)
            .into_iter()
            .filter(|n| s.data.map.is_land(*n))
            .collect();
        s.data.map.impassable_hexsides.push([H, land[0]]);
        let t = displacement_targets(&s, H);
        assert!(!t.contains(&land[0]));
        assert!(t.iter().all(|h| s.data.map.is_land(*h)));
    }

    #[test]
    fn the_template_lists_contested_hexes_and_combat_cards() {
        let mut s = arena(Side::Fed);
        put(&mut s, "SO40", Side::Lib, H);
        put(&mut s, "SO01", Side::Fed, H);
        put(&mut s, "GA01", Side::Fed, H);
        give(&mut s, Side::Fed, 201);
        let t = template(
            &s,
            Side::Fed,
            &crate::systems::dougram::steps::choices(&s, Side::Fed),
        );
        assert!(t.contains("{hex: 57}"), "{t}");
        assert!(t.contains("fight_group applies"));
        assert!(t.contains("201 (cba)"));
        assert!(t.lines().all(|l| l.starts_with('#')));
    }
}
