//! The full game state (docs/zeta-plan.md §3.3): what changes, hidden facts beside public ones.
//! [`super::view`] decides who sees what (plan §2). The component data is not stored here; it
//! is attached when a state is read (`#[serde(skip)] Shared<ZetaData>`).

use super::data::{BaseId, CharId, Loc, PerSide, Place, Side, TypeId, UnitId, ZetaData};
use super::orders::PhaseOrders;
use super::policy::{Plan, Policies};
use crate::kit::deck::{Deck, Hand};
use crate::kit::shared::Shared;
use crate::protocol::dice::SealedKey;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

fn is_false(b: &bool) -> bool {
    !*b
}

/// The three kinds of action card (12.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Space,
    Ground,
    Atmosphere,
}

impl CardKind {
    pub const ALL: [CardKind; 3] = [CardKind::Space, CardKind::Ground, CardKind::Atmosphere];

    pub fn name(self) -> &'static str {
        match self {
            CardKind::Space => "space",
            CardKind::Ground => "ground",
            CardKind::Atmosphere => "atmosphere",
        }
    }
}

/// One action card: each faction owns Space 1 and 2, Ground 1 and 2, Atmosphere 1 (10.2).
/// Ordered, so a [`Hand`] keeps it sorted and a shuffle starts from a sorted pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub side: Side,
    pub kind: CardKind,
    pub copy: u8,
}

impl Card {
    /// The five cards of `side` (10.2).
    pub fn hand_of(side: Side) -> Vec<Card> {
        let c = |kind, copy| Card { side, kind, copy };
        vec![
            c(CardKind::Space, 1),
            c(CardKind::Space, 2),
            c(CardKind::Ground, 1),
            c(CardKind::Ground, 2),
            c(CardKind::Atmosphere, 1),
        ]
    }
}

/// Which step the game waits for (plan §1.1). Named `Stage` in state and view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// All three seats: armament, deployment, card choice (5-10), policies and plans.
    Packet { turn: u8 },
    /// The faction whose card was drawn (11.2): action phase `k` (1-9) of `turn`.
    Phase { turn: u8, k: u8, card: Card },
    /// One faction answers mid-phase (18.9 join, or a checkpoint of the acting faction);
    /// what to resume is in [`State::pending`].
    Ask {
        turn: u8,
        k: u8,
        who: Side,
        why: AskWhy,
    },
    /// The game is over (37.2, 37.3).
    Over(Ending),
}

/// How the game ended, in the state's own words (`Outcome` is built from it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    /// The winners: one, or several sharing a tie after turn 10.
    pub winners: Vec<Side>,
    /// "37.2" or "37.3".
    pub rule: String,
    pub turn: u8,
}

/// Why an ask step was opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AskWhy {
    /// 18.9: the undeclared third faction may join a camp.
    Join { at: Loc },
    /// The acting faction asked to continue from here.
    Checkpoint(Checkpoint),
}

/// Where the acting faction may ask to stop (plan §1.3, Z-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checkpoint {
    #[default]
    None,
    AfterPre,
    BeforeCombat,
    BeforeLaser,
}

/// The slots of one action phase (plan §1.3), in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    /// A1: the phase-start snapshot (17.9, 30.3.2, 31.4.2, 35.5.1, 36.4).
    Snapshot,
    /// A2: colony landing check or placement (35.5, 35.7).
    Colony,
    /// A3: demolition (36.4-36.7).
    Demolition,
    /// A4: each acting unit's action (12.5-12.7).
    Actions,
    /// A5: movement and what it triggers (13-15, 30.3, 31.3-31.4, 32, 33.3, 35.6, 29.2).
    Movement,
    /// A6: the Axis attack (30.4).
    AxisAttack,
    /// A7: recovery (16, 34.4).
    Recovery,
    /// A8: government (17).
    Government,
    /// A9: combats (18-28).
    Combats,
    /// A10: the laser (31.5).
    Laser,
    /// A11: Quattro's speech (29.1).
    Speech,
    /// A12: existence clean-up; the phase ends.
    End,
}

impl Slot {
    pub const ALL: [Slot; 12] = [
        Slot::Snapshot,
        Slot::Colony,
        Slot::Demolition,
        Slot::Actions,
        Slot::Movement,
        Slot::AxisAttack,
        Slot::Recovery,
        Slot::Government,
        Slot::Combats,
        Slot::Laser,
        Slot::Speech,
        Slot::End,
    ];
}

/// 16.1, 25.4: the face a counter shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceUp {
    #[default]
    Front,
    Back,
}

/// What a unit chose this phase (12.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Move,
    Recover,
    Govern { base: BaseId },
}

/// One counter on the map or in a box. The colony is a unit of class colony (35.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// The owner; for the colony, the faction using it (35.3, Z-14).
    pub side: Side,
    #[serde(rename = "type")]
    pub type_id: TypeId,
    /// Where it is; a carried MS is where its ship is.
    pub place: Place,
    #[serde(default, skip_serializing_if = "is_front")]
    pub face: FaceUp,
    /// The ship carrying this MS (15.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carrier: Option<UnitId>,
    /// This phase's action (12.5); cleared when a phase ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// Moved by atmospheric movement this phase (18.3, A-23).
    #[serde(default, skip_serializing_if = "is_false")]
    pub atmo_moved: bool,
    /// Placed this phase and may not act (32.1.5, 32.2.4).
    #[serde(default, skip_serializing_if = "is_false")]
    pub placed_this_phase: bool,
}

fn is_front(f: &FaceUp) -> bool {
    *f == FaceUp::Front
}

/// The three wounded boxes (4.4, 27.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Wound {
    L,
    M,
    H,
}

/// Where a character is (plan §3.3). Pilots and captains are not stored: each combat's
/// preparation chooses them (20.5, 20.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CharPlace {
    /// Not arrived yet (4.2).
    Track,
    /// Arrived, recovered or grown: placed at the next deployment (4.2-4.4.1, 9.5).
    ToDeploy {
        code: super::data::ArrivalCode,
    },
    /// Riding a unit (13.10).
    Aboard(UnitId),
    /// Alone in a base hex (15.6) or after 14.12.
    Solo(Loc),
    Wounded(Wound),
    Dead,
    /// A (1) after growth, or Quattro after 29.1.6.
    Replaced,
    /// Neo Zeon's Ple after 29.4.1.
    OutOfGame,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Character {
    pub side: Side,
    #[serde(rename = "where")]
    pub place: CharPlace,
}

/// A base's card in play (2.6-2.7).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<Side>,
    /// 0 (neutral, 2.6) to 3.
    #[serde(default)]
    pub level: u8,
    /// 30.4.6, 31.5.6, 35.7.2, 36.7.
    #[serde(default, skip_serializing_if = "is_false")]
    pub destroyed: bool,
    /// Where a mobile base is (Axis, Gryps 2); `None` for a fixed base (its hex is in the
    /// data) and for Gryps 2 before it appears (31.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    /// 30.4.7: Axis never moves again.
    #[serde(default, skip_serializing_if = "is_false")]
    pub immobile_forever: bool,
    /// 32.1.6: Neo Zeon has governed Side 3; from then on AEUG and Titans may enter it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub governed_by_nz_once: bool,
}

/// One faction's sheet (A-4: public) and hand (secret).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideState {
    /// The cards not in the deck: all five between turns, the two unchosen during the action
    /// phases (10.5: secret).
    pub hand: Hand<Card>,
    /// Type -> count in the factory box (6.1).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub factory: BTreeMap<TypeId, u8>,
    /// Type -> count in stock (8.1): the counter mix not on the map nor in the factory box.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stock: BTreeMap<TypeId, u8>,
    /// Type -> counters taken out of the game for good (29.4.1: Neo Zeon's Ple's Black
    /// Qubeley Mk-II; 29.4.4: AEUG's), so the counter mix still adds up (7.4). Plan §3.3 had a
    /// flag on the unit; a removed unit has no record left to hold it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub out_of_game: BTreeMap<TypeId, u8>,
    /// Types it may augment (7.3, 5.2; 29.4.1 revokes).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub permitted: BTreeSet<TypeId>,
    pub vp: i32,
    /// Steps it missed (default orders used).
    #[serde(default)]
    pub missed: u32,
    /// Type -> units produced in this turn's packet (6.1; public, read by the `produced`
    /// guard of deployment alternatives, plan §12/F4). Replaced at each packet.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub produced: BTreeMap<TypeId, u8>,
    /// The packet step's working sheet (armament points left, units awaiting deployment);
    /// empty between steps.
    #[serde(default, skip_serializing_if = "PacketSheet::is_empty")]
    pub sheet: PacketSheet,
}

/// What one packet step carries from the armament to the deployment of one faction (5-9).
/// Empty outside a packet step's resolution (or `check`'s simulation of one).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacketSheet {
    /// Armament half-points left (5.3-5.4); `None` before the first item: the whole income.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_left: Option<u32>,
    /// Units produced this packet, not on the map yet (6.1, 9.1): id -> type.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub awaiting: BTreeMap<UnitId, TypeId>,
    /// Base -> deployment points used in this deployment (9.3).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub used: BTreeMap<BaseId, u8>,
    /// La Vie en Rose / Jupitris that took their one MS this deployment (29.2.6, 29.3.1, A-87).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub slots: BTreeSet<UnitId>,
}

impl PacketSheet {
    pub fn is_empty(&self) -> bool {
        *self == PacketSheet::default()
    }
}

/// The one colony counter (35).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColonyState {
    /// 35.1: Titans and Neo Zeon each drop once.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub used: BTreeSet<Side>,
    /// 35.3: who has the counter on the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_use_by: Option<Side>,
}

/// Titans' nuke (36). `base` is secret; `excluded` is public (A-79, plan §2.2).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NukeState {
    /// Host only and Titans' view (36.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseId>,
    /// Candidates governed by AEUG or Neo Zeon at level 1 or more without a reveal: not the
    /// nuke's base, as everyone can tell.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub excluded: BTreeSet<BaseId>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub revealed: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub used: bool,
    /// its base was destroyed otherwise; the demolition is lost.
    #[serde(default, skip_serializing_if = "is_false")]
    pub lost: bool,
    /// The salt of the base's public commitment (plan §12/F10): the key of the sealed draw
    /// `nuke/salt` of Titans' turn-1 packet step, kept for its reveal. Host only, never in a
    /// view (view.rs copies none of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<SealedKey>,
}

/// Ple's transfers (29.4-29.5, A-59).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transfer {
    Waiting,
    Done,
    Never,
}

/// Things that happen once in a game (public).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OneShots {
    /// 29.1: Quattro's speech.
    #[serde(default, skip_serializing_if = "is_false")]
    pub quattro_spoke: bool,
    /// 32.1.3: Side 3 taken.
    #[serde(default, skip_serializing_if = "is_false")]
    pub side3_taken: bool,
    /// 32.1.4.
    #[serde(default, skip_serializing_if = "is_false")]
    pub republic_placed: bool,
    /// 32.2.
    #[serde(default, skip_serializing_if = "is_false")]
    pub africa_placed: bool,
    /// 33.1-33.2: the fleet is in the Jupiter box.
    #[serde(default, skip_serializing_if = "is_false")]
    pub jupiter_arrived: bool,
    /// 33.3: it entered the map.
    #[serde(default, skip_serializing_if = "is_false")]
    pub jupiter_entered: bool,
    /// 31.1.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gryps2_placed: bool,
    /// 29.4.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ple_transfer: Option<Transfer>,
    /// 29.5.1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ple_two: Option<Transfer>,
}

/// What the factions saw at the start of a phase (A-36, slot A1).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseSnapshot {
    /// Hex -> the factions with units there (17.9).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub others_in: BTreeMap<Loc, BTreeSet<Side>>,
    /// 30.3.2.
    #[serde(default)]
    pub axis_level: u8,
    /// 31.4.2.
    #[serde(default)]
    pub gryps_level: u8,
    /// Base -> (governor, level) (35.5.1, 36.4).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub levels: BTreeMap<BaseId, (Option<Side>, u8)>,
}

/// This turn's sealed shuffle of the nine cards, kept for its reveal when the turn ends (plan
/// §12, Open 3; docs/dice.md "Sealed reveals"). Host only: the key opens the deck's order, so
/// no view ever shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeckSeal {
    /// The step that shuffled (the packet step), the label and the key it committed to.
    pub sealed: SealedKey,
    /// How many cards were shuffled (the reveal's ranges follow from it).
    pub size: u32,
}

/// Where a stopped phase resumes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseCursor {
    pub k: u8,
    pub card: Card,
    pub slot: Slot,
    pub snapshot: PhaseSnapshot,
    /// The hexes whose combat was fought this phase (18.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combats_done: Vec<Loc>,
    /// How many of the phase's combat orders were handled (fought or skipped), so a phase
    /// resumed after an 18.9 ask goes on with the next one.
    #[serde(default, skip_serializing_if = "no_orders_done")]
    pub combat_orders_done: u32,
}

/// A stopped phase (plan §1.3): who must answer, why, where to resume and the acting
/// faction's remaining orders (host only, Z-10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pending {
    pub who: Side,
    pub why: AskWhy,
    pub cursor: PhaseCursor,
    pub rest: PhaseOrders,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    #[serde(skip)]
    pub data: Shared<ZetaData>,
    pub scenario: String,
    /// 1 to 10 (37.3).
    pub turn: u8,
    pub stage: Stage,
    pub units: BTreeMap<UnitId, Unit>,
    pub chars: BTreeMap<CharId, Character>,
    pub bases: BTreeMap<BaseId, BaseState>,
    pub sides: PerSide<SideState>,
    /// The sealed shuffle of this turn's deck, until it is revealed (host only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_seal: Option<DeckSeal>,
    /// The nine chosen cards not drawn yet (10.4; host only: views show counts).
    #[serde(default)]
    pub deck: Deck<Card>,
    /// This turn's drawn cards, in order (public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<Card>,
    #[serde(default)]
    pub colony: ColonyState,
    #[serde(default)]
    pub nuke: NukeState,
    #[serde(default)]
    pub once: OneShots,
    pub policies: PerSide<Policies>,
    /// This turn's plans (host only).
    pub plans: PerSide<Vec<Plan>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// Id prefix (`t-gm2`) -> the last number given to a unit id with it (Z-8).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub next_number: BTreeMap<TypeId, u16>,
    /// VP of each side at the end of each turn (the panel's track).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vp_history: Vec<PerSide<i32>>,
    /// 29.1.2: the acting AEUG's orders declare Quattro's speech in the current phase (set at
    /// slot A1, cleared when the phase ends); combat leaves Quattro out of its pilots and
    /// captains then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub speech_phase: bool,
}

impl State {
    /// The factions with units in `loc` (13.5, 17.9, 18.1; the colony counts for its user,
    ///
    pub fn sides_at(&self, loc: Loc) -> BTreeSet<Side> {
        self.units
            .values()
            .filter(|u| u.place == Place::Hex(loc))
            .map(|u| u.side)
            .collect()
    }

    /// The VP each side's bases are worth now (37.1; neutral and destroyed bases nothing,
    ///
    pub fn base_vp(&self) -> PerSide<i32> {
        let mut vp = PerSide::<i32>::default();
        for (id, b) in &self.bases {
            let (Some(gov), false) = (b.governor, b.destroyed) else {
                continue;
            };
            if let Some(v) = self.data.base(id).and_then(|d| d.at_level(b.level)) {
                vp[gov] += i32::from(v.vp);
            }
        }
        vp
    }

    /// A new unit id for a unit of `type_id` owned by `side` (Z-8), counting on.
    pub fn new_unit_id(&mut self, side: Side, type_id: &str) -> UnitId {
        let prefix = format!("{}-{}", side.letter(), type_id.replace('_', "-"));
        let n = self.next_number.entry(prefix.clone()).or_insert(0);
        *n = n.saturating_add(1);
        format!("{prefix}-{n}")
    }
}

/// Whether no combat order of the phase was handled yet (the field is then left out).
fn no_orders_done(n: &u32) -> bool {
    *n == 0
}
