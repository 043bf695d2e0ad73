//! The action-card vocabulary (digest 6.4): cards as data, so the owner of the real deck can
//! transcribe it into games/dougram/cards.yaml without touching code. The rule code reads
//! [`Flag`]s of open cards and [`Effect`]s of played cards, never card numbers, except where a
//! rule names a card (the checks in [`CardsFile::validate`] that those cards say what the book
//! says).

use super::data::Side;
use crate::kit::seats::Seat;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a card starts in setup1 (28.1.2.1: orange/purple numbers make the two decks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setup1 {
    Deck,
    Stock,
}

/// Where a card starts in setup2 (28.2.2.1-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setup2 {
    Deck,
    Open,
    Removed,
    Stock,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOf {
    Own,
    Opponent,
    Any,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Card,
    Arming,
    Replenishment,
    Movement,
    Combat,
    Latency,
    Security,
    Victory,
    Any,
}

/// Combat windows and steps (12.9: W1 before the capture check, W2 after it; a card naming a
/// step is played at that step).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepName {
    W1,
    W2,
    Capture,
    Cba,
    Ap,
    Melee,
}

/// When a card may be played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct When {
    pub turn: TurnOf,
    pub phase: PhaseName,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<StepName>,
}

/// Where a played card goes (default A44).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum After {
    Discard,
    Open,
    Removed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whose {
    Own,
    Enemy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModTarget {
    /// The capture check's target number (13.3).
    CaptureTarget,
    Aa,
    Ap,
    Def,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitPool {
    /// The blue 6th Army counters in the stock (24.2-24.3).
    SixthArmy,
    /// The stock counters whose Fed face is one of these types, 6th Army counters excepted, in
    /// counter id order (stand-in cards that bring the mercenaries, Mackerel and Cochma Spl).
    Types(Vec<String>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    /// Half the points of the chit revealed by this card's `reveal_box_chit`, rounded up (24.2).
    CeilHalfRevealed,
    /// Every counter of the pool in the stock.
    All,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaMove {
    /// 10.6 (cards 32, 68): the origin must be friendly at the start of movement; 10.7 (card 20): not.
    pub origin_must_be_friendly: bool,
    /// Two-way routes between place ids (10.2).
    pub routes: Vec<[String; 2]>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceUnits {
    pub pool: UnitPool,
    pub count: Count,
    /// A place id.
    pub at: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatMod {
    pub target: ModTarget,
    pub side: Whose,
    pub delta: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmingPoints {
    pub draw_chits: u32,
}

/// What playing a card (or opening it) does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Draw chits from the cup and add their points to this phase's arming points (6.3.2, 6.7).
    ArmingPoints(ArmingPoints),
    /// Sea movement on one of the routes (10).
    SeaMove(SeaMove),
    /// Enables security checks this phase (19.3).
    SecurityChecks,
    /// Reveal the chit in a play-sheet box (24.2 "open it").
    RevealBoxChit(String),
    /// Place units from a pool (24.2).
    PlaceUnits(PlaceUnits),
    /// A modifier for the current combat (12.9).
    CombatMod(CombatMod),
    /// The current combat does not take place.
    CancelCombat,
    /// The player draws cards (5.5 applies if the deck is empty).
    DrawCards(u32),
}

impl Effect {
    /// The phase a played effect belongs to; `None` for effects that work in any phase.
    pub fn phase(&self) -> Option<PhaseName> {
        match self {
            Effect::ArmingPoints(_) => Some(PhaseName::Arming),
            Effect::SeaMove(_) => Some(PhaseName::Movement),
            Effect::SecurityChecks => Some(PhaseName::Security),
            Effect::CombatMod(_) | Effect::CancelCombat => Some(PhaseName::Combat),
            Effect::RevealBoxChit(_) | Effect::PlaceUnits(_) | Effect::DrawCards(_) => None,
        }
    }
}

impl PhaseName {
    pub fn name(self) -> &'static str {
        match self {
            PhaseName::Card => "card",
            PhaseName::Arming => "arming",
            PhaseName::Replenishment => "replenishment",
            PhaseName::Movement => "movement",
            PhaseName::Combat => "combat",
            PhaseName::Latency => "latency",
            PhaseName::Security => "security",
            PhaseName::Victory => "victory",
            PhaseName::Any => "any",
        }
    }
}

/// A rule switch that holds while a card is open.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Card 29: 3.3a control, 8.4.2 no Lib stack limit, 9.5 lapses, 11.9, 13.2, 20.3.1, 22.1, 24.1.
    LibGovernment,
    /// Card 34: Lib wins at the victory check (20.2).
    LacockAssassinated,
    /// Card 77: Fed wins at the victory check unless 34 is open (20.2).
    PeaceTalks,
    /// Card 76: Earth reinforcements (7.11).
    SixthArmyActive,
    /// Card 64 (23.1).
    FedMayEnterAndy,
    /// Card 50 (19.3).
    SecurityEnabled,
    /// "X deployment begins": X may be replenished and is a conversion target (7.3, 7.8, 17.7-17.8).
    Deploy(String),
    /// Lib may arm this CBA type (6.8, default A7).
    LibArm(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibControls {
    pub place: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub while_flag: Option<Flag>,
}

/// What opens a card by itself, from any zone but `removed` (24.1, default A39).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    LibUnitEnters(String),
    LibControls(LibControls),
}

/// A condition a card names for its use (2.10: each card states when and on what conditions it
/// may be played). Every condition of a card must hold when it is played: `check` judges them
/// on the state at the start of the step, the phase again when it plays the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Requires {
    /// The game has reached this turn.
    TurnAtLeast(u32),
    /// This card is open (2.12).
    CardOpen(u32),
    /// This card is not open.
    CardNotOpen(u32),
    /// The cities Lib controls are worth at least this many VP (20.3).
    LibVpAtLeast(u32),
    /// The cities Lib controls are worth at most this many VP.
    LibVpAtMost(u32),
    /// The side that plays the card controls this city (3.2).
    OwnControls(String),
}

impl Requires {
    /// The condition in words, for templates and refusals.
    pub fn describe(&self) -> String {
        match self {
            Requires::TurnAtLeast(t) => format!("turn {t} or later"),
            Requires::CardOpen(n) => format!("card {n} open"),
            Requires::CardNotOpen(n) => format!("card {n} not open"),
            Requires::LibVpAtLeast(v) => format!("Lib VP at least {v}"),
            Requires::LibVpAtMost(v) => format!("Lib VP at most {v}"),
            Requires::OwnControls(p) => format!("you control {p}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub no: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ja: String,
    pub en: String,
    pub owner: Side,
    pub setup1: Setup1,
    pub setup2: Setup2,
    pub when: When,
    /// Conditions for its use, all of which must hold (2.10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<Requires>,
    pub after: After,
    #[serde(default)]
    pub effects: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub while_open: Vec<Flag>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_open: Vec<Effect>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auto_open: Vec<Trigger>,
    /// Rule numbers that state this card's behaviour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// Fields the book leaves open and that are guesses here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guess: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    #[serde(default)]
    pub stand_in: bool,
    pub cards: Vec<Card>,
}

/// Deck size per side in both setups (28.1.2, 28.2.2).
pub const DECK_SIZE: usize = 18;

/// What the validator needs to know about the other data files.
pub struct Known<'a> {
    pub places: &'a BTreeSet<String>,
    pub cities: &'a BTreeSet<String>,
    pub unit_types: &'a BTreeSet<String>,
    pub cba_types: &'a BTreeSet<String>,
    pub boxes: &'a BTreeSet<String>,
}

fn has_flag(c: &Card, f: &Flag) -> bool {
    c.while_open.contains(f)
}

impl CardsFile {
    pub fn by_no(&self) -> BTreeMap<u32, Card> {
        self.cards.iter().map(|c| (c.no, c.clone())).collect()
    }

    /// Semantic checks; each error names the field path.
    pub fn validate(&self, k: &Known) -> Vec<(FieldPath, String)> {
        let mut errs = Vec::new();
        let root = FieldPath::root().at("cards");
        let mut seen = BTreeSet::new();
        for (i, c) in self.cards.iter().enumerate() {
            let p = root.at(i);
            if c.no == 0 {
                errs.push((p.at("no"), "card numbers start at 1".into()));
            }
            if !seen.insert(c.no) {
                errs.push((p.at("no"), format!("card {} appears twice", c.no)));
            }
            if c.after == After::Open && c.while_open.is_empty() && c.on_open.is_empty() {
                errs.push((
                    p.at("after"),
                    "a card that stays open needs while_open flags or on_open effects".into(),
                ));
            }
            if c.setup2 == Setup2::Open && c.after != After::Open {
                errs.push((
                    p.at("after"),
                    "a card that starts open (setup2: open) must be a card that stays open".into(),
                ));
            }
            if c.when.step.is_some() && c.when.phase != PhaseName::Combat {
                errs.push((p.at("when").at("step"), "a step needs phase: combat".into()));
            }
            for (field, list) in [("effects", &c.effects), ("on_open", &c.on_open)] {
                for (j, e) in list.iter().enumerate() {
                    check_effect(e, &p.at(field).at(j), k, &mut errs);
                }
            }
            for (j, e) in c.effects.iter().enumerate() {
                if let Some(need) = e.phase()
                    && c.when.phase != need
                {
                    errs.push((
                        p.at("effects").at(j),
                        format!(
                            "this effect works only in the {} phase; when.phase is {}",
                            need.name(),
                            c.when.phase.name()
                        ),
                    ));
                }
            }
            for (j, f) in c.while_open.iter().enumerate() {
                match f {
                    Flag::Deploy(t) if !k.cba_types.contains(t) => errs.push((
                        p.at("while_open").at(j),
                        format!("deploy names {t:?}, which is not a CBA type in counters.yaml"),
                    )),
                    Flag::LibArm(t) if !k.cba_types.contains(t) => errs.push((
                        p.at("while_open").at(j),
                        format!("lib_arm names {t:?}, which is not a CBA type in counters.yaml"),
                    )),
                    _ => {}
                }
            }
            for (j, r) in c.requires.iter().enumerate() {
                let bad = match r {
                    Requires::CardOpen(n) | Requires::CardNotOpen(n)
                        if !self.cards.iter().any(|k| k.no == *n) =>
                    {
                        Some(format!("there is no card {n}"))
                    }
                    Requires::OwnControls(pl) if !k.cities.contains(pl) => {
                        Some(format!("{pl:?} is not a city of map.yaml"))
                    }
                    _ => None,
                };
                if let Some(m) = bad {
                    errs.push((p.at("requires").at(j), m));
                }
            }
            for (j, t) in c.auto_open.iter().enumerate() {
                let place = match t {
                    Trigger::LibUnitEnters(pl) => pl,
                    Trigger::LibControls(lc) => &lc.place,
                };
                if !k.places.contains(place) {
                    errs.push((
                        p.at("auto_open").at(j),
                        format!("unknown place {place:?} (map.yaml places)"),
                    ));
                }
            }
        }
        for &side in Side::ALL {
            let n1 = self
                .cards
                .iter()
                .filter(|c| c.owner == side && c.setup1 == Setup1::Deck)
                .count();
            let n2 = self
                .cards
                .iter()
                .filter(|c| c.owner == side && c.setup2 == Setup2::Deck)
                .count();
            for (n, field, rule) in [(n1, "setup1", "28.1.2.1"), (n2, "setup2", "28.2.2.1")] {
                if n != DECK_SIZE {
                    errs.push((
                        root.clone(),
                        format!(
                            "{} has {n} cards with {field}: deck; the deck is {DECK_SIZE} cards ({rule})",
                            side.name()
                        ),
                    ));
                }
            }
        }
        self.check_named(&mut errs);
        errs
    }

    /// The cards the rules name must do what the rules say.
    fn check_named(&self, errs: &mut Vec<(FieldPath, String)>) {
        let root = FieldPath::root().at("cards");
        let find = |no: u32| self.cards.iter().position(|c| c.no == no);
        let sea = |c: &Card| {
            c.effects.iter().find_map(|e| match e {
                Effect::SeaMove(s) => Some(s.clone()),
                _ => None,
            })
        };
        type Check = fn(&Card, &dyn Fn(&Card) -> Option<SeaMove>) -> bool;
        let named: [(u32, &str, Check); 13] = [
            (2, "effects: arming_points (6.3.2)", |c, _| {
                c.effects
                    .iter()
                    .any(|e| matches!(e, Effect::ArmingPoints(_)))
            }),
            (
                20,
                "sea_move on 11 routes, origin need not be friendly (10.3, 10.7)",
                |c, s| s(c).is_some_and(|m| m.routes.len() == 11 && !m.origin_must_be_friendly),
            ),
            (
                29,
                "after: open, while_open: lib_government (3.3a)",
                |c, _| c.after == After::Open && has_flag(c, &Flag::LibGovernment),
            ),
            (
                32,
                "sea_move on 5 routes from a friendly origin (10.4, 10.6)",
                |c, s| s(c).is_some_and(|m| m.routes.len() == 5 && m.origin_must_be_friendly),
            ),
            (
                34,
                "after: open, while_open: lacock_assassinated (20.2)",
                |c, _| c.after == After::Open && has_flag(c, &Flag::LacockAssassinated),
            ),
            (36, "effects: security_checks (19.3)", |c, _| {
                c.effects.contains(&Effect::SecurityChecks)
            }),
            (37, "effects: security_checks (19.3)", |c, _| {
                c.effects.contains(&Effect::SecurityChecks)
            }),
            (50, "enables security checks (19.3)", |c, _| {
                c.effects.contains(&Effect::SecurityChecks) || has_flag(c, &Flag::SecurityEnabled)
            }),
            (
                61,
                "after: open, while_open: deploy: hasty (7.3, 17.7)",
                |c, _| c.after == After::Open && has_flag(c, &Flag::Deploy("hasty".into())),
            ),
            (
                64,
                "after: open, while_open: fed_may_enter_andy (23.1)",
                |c, _| c.after == After::Open && has_flag(c, &Flag::FedMayEnterAndy),
            ),
            (
                68,
                "sea_move on 10 routes from a friendly origin (10.5, 10.6)",
                |c, s| s(c).is_some_and(|m| m.routes.len() == 10 && m.origin_must_be_friendly),
            ),
            (
                76,
                "after: open, sixth_army_active, on_open and auto_open (24.1-24.2)",
                |c, _| {
                    c.after == After::Open
                        && has_flag(c, &Flag::SixthArmyActive)
                        && !c.on_open.is_empty()
                        && c.auto_open.len() == 2
                },
            ),
            (77, "after: open, while_open: peace_talks (20.2)", |c, _| {
                c.after == After::Open && has_flag(c, &Flag::PeaceTalks)
            }),
        ];
        for (no, want, ok) in named {
            match find(no) {
                None => errs.push((root.clone(), format!("the rules name card {no}: {want}"))),
                Some(i) => {
                    if !ok(&self.cards[i], &sea) {
                        errs.push((root.at(i), format!("card {no} must have {want}")));
                    }
                }
            }
        }
    }
}

fn check_effect(e: &Effect, p: &FieldPath, k: &Known, errs: &mut Vec<(FieldPath, String)>) {
    match e {
        Effect::SeaMove(s) => {
            if s.routes.is_empty() {
                errs.push((p.at("sea_move").at("routes"), "no routes".into()));
            }
            for (r, route) in s.routes.iter().enumerate() {
                for (end, place) in route.iter().enumerate() {
                    if !k.cities.contains(place) {
                        errs.push((
                            p.at("sea_move").at("routes").at(r).at(end),
                            format!(
                                "{place:?} is not a city in map.yaml (sea routes join cities, 10.2)"
                            ),
                        ));
                    }
                }
                if route[0] == route[1] {
                    errs.push((
                        p.at("sea_move").at("routes").at(r),
                        "a route joins two different cities".into(),
                    ));
                }
            }
        }
        Effect::RevealBoxChit(b) if !k.boxes.contains(b) => errs.push((
            p.at("reveal_box_chit"),
            format!("unknown box {b:?} (counters.yaml boxes)"),
        )),
        Effect::PlaceUnits(pu) if !k.places.contains(&pu.at) => errs.push((
            p.at("place_units").at("at"),
            format!("unknown place {:?} (map.yaml places)", pu.at),
        )),
        Effect::PlaceUnits(PlaceUnits {
            pool: UnitPool::Types(ts),
            ..
        }) => {
            for (j, t) in ts.iter().enumerate() {
                if !k.unit_types.contains(t) {
                    errs.push((
                        p.at("place_units").at("pool").at("types").at(j),
                        format!("unknown unit type {t:?} (counters.yaml types)"),
                    ));
                }
            }
        }
        Effect::ArmingPoints(a) if a.draw_chits == 0 => errs.push((
            p.at("arming_points").at("draw_chits"),
            "must be at least 1".into(),
        )),
        Effect::DrawCards(0) => errs.push((p.at("draw_cards"), "must be at least 1".into())),
        _ => {}
    }
    let _ = k.unit_types;
}
