//! What a side may write under `orders:` and the standing policies it may set.
//!
//! One `Orders` type serves every step; `check` refuses the parts that do not belong to the
//! current step and side. Every list defaults to empty, so `orders: {}` is always well-formed.

use super::data::Side;
use crate::kit::hex::Hex;
use crate::kit::policies;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Replaces the named standing policies (any step).
    #[serde(default, skip_serializing_if = "policies::is_empty")]
    pub policies: PolicyPatch,
    /// B1: hide face-up units in hexes with a beeler soldier at the start of phase 2 (5.9.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide_at_start: Vec<HideGroup>,
    /// B1 (phase 2) and M1 (phase 5): moves and flips, carried out in the order listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// M1 (phase 6): survey checks (8).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub survey: Vec<SurveyOrder>,
    /// B2 (phase 7a): face-down units to flip face-up before any reaction move (7.3.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveal: Vec<String>,
    /// B2 (phase 7a): reaction moves, 1 RP each (7.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub react: Vec<MoveOrder>,
    /// Any step: combat policies for single hexes, for the side's next combat phase only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat_overrides: Vec<CombatOverride>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HideGroup {
    pub hex: Hex,
    pub units: Vec<String>,
}

/// One action: exactly one of its keys.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Move a ground unit along `path` (the hexes entered, not the start hex).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<MoveOrder>,
    /// Flip one of your face-down units face-up (5.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flip_up: Option<String>,
    /// Flip face-up units in your home base face-down, together (5.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hide: Option<Vec<String>>,
    /// Mercenary only: fly a heli, optionally carrying one AT or soldier from its hex (5.11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heli: Option<HeliMove>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveOrder {
    pub unit: String,
    pub path: Vec<Hex>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeliMove {
    pub heli: String,
    pub path: Vec<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cargo: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyOrder {
    pub hex: Hex,
    /// Which face-up ATs and soldiers roll; all eligible ones when left out (8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<String>>,
    /// Beeler tokens to flip first, in this order; then the lowest token numbers (8.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Stop rolling in this hex after this many successes (A29); all listed units roll when
    /// left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_after: Option<u32>,
}

/// When a side chooses to retreat after a combat round (9.11; policy D9). Forced retreats
/// (9.11.3, 9.11.4) happen whatever this says; a side with no legal hex fights on (9.11.8).
/// Written as a keyword, a one-key map, or `any`/`all` of a list of them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatWhen {
    /// Keep fighting unless forced.
    Never,
    /// Fewer of your face-up units than the enemy's remain in the hex.
    Outnumbered,
    /// The enemy has at least twice as many face-up units in the hex.
    TwoToOne,
    /// Outnumbered, and your face-up units expect fewer kills next round than the enemy's
    /// (each unit counted with its best chance against any enemy face-up unit there).
    #[default]
    Outmatched,
    /// From this round of the combat on (rounds count from 1).
    AfterRound(u32),
    /// Once this side has lost at least this many units in this combat (base attack included).
    LostGe(u32),
    /// An enemy face-up unit in the hex is one of these unit ids or kinds (`ps`, `kanyu`, ...).
    EnemyHas(Vec<String>),
    /// Any of the conditions holds.
    Any(Vec<RetreatWhen>),
    /// All of the conditions hold.
    All(Vec<RetreatWhen>),
}

impl RetreatWhen {
    /// The conditions written as a bare keyword.
    pub const KEYWORDS: [RetreatWhen; 4] = [
        RetreatWhen::Never,
        RetreatWhen::Outnumbered,
        RetreatWhen::TwoToOne,
        RetreatWhen::Outmatched,
    ];
}

/// The unit kinds a priority list may name besides unit ids (2.2.2, 2.2.5, 13).
pub const KINDS: [&str; 9] = [
    "ps",
    "at",
    "soldier",
    "heli",
    "kanyu",
    "kiriko",
    "blue_at",
    "strike_dog",
    "proto_one",
];

/// A named rule, or a priority list of unit ids and kinds (`M-KANYU`, `heli`, `at`...). Units
/// matching the first entry come first, then the second...; ties and units matching nothing
/// are ordered by the default rule of the decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleOr<R> {
    Rule(R),
    Prefer(Vec<String>),
}

impl<R: Default> Default for RuleOr<R> {
    fn default() -> Self {
        RuleOr::Rule(R::default())
    }
}

impl<R: Serialize> Serialize for RuleOr<R> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RuleOr::Rule(r) => r.serialize(s),
            RuleOr::Prefer(v) => v.serialize(s),
        }
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for RuleOr<R> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, IntoDeserializer, Visitor};
        struct V<R>(std::marker::PhantomData<R>);
        impl<'de, R: Deserialize<'de>> Visitor<'de> for V<R> {
            type Value = RuleOr<R>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a keyword, or a list of unit ids and kinds")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                R::deserialize(v.into_deserializer()).map(RuleOr::Rule)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, s: A) -> Result<Self::Value, A::Error> {
                Vec::<String>::deserialize(de::value::SeqAccessDeserializer::new(s))
                    .map(RuleOr::Prefer)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// D3 (9.8.2, 9.8.6): how each PS picks its partner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PsRule {
    /// The enemy with the best P(hit) x experience VP (10.1; a heli counts 2); ties go to the
    /// lower defense, then the lower id.
    #[default]
    MaxExpectedVp,
}

impl PsRule {
    pub const ALL: [PsRule; 1] = [PsRule::MaxExpectedVp];
}

/// D4 (9.8.1): how the phase player pairs the free units one to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    /// The pairing with the best total of v(enemy) x P(own hit) - v(own) x P(enemy hit), with
    /// the value weights of the digest (3.5), in 36ths of half VP.
    #[default]
    NetValue,
    /// Own units, strongest attack first, each take the enemy they are most likely to destroy.
    BestOdds,
    /// Own units, weakest attack first, each take the enemy they are most likely to destroy
    /// (the strong units are left for the hard targets).
    WeakestFirst,
}

impl Pairing {
    pub const ALL: [Pairing; 3] = [Pairing::NetValue, Pairing::BestOdds, Pairing::WeakestFirst];
}

/// D5, D6 (9.8.3, 9.8.5): where the owner puts surplus units; the balance rule (A6) holds
/// either way: a unit only joins a group with the fewest units of its side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Distribute {
    /// Each unit, strongest first, joins the allowed group where its best v x P(hit) is largest.
    #[default]
    Focus,
    /// Each unit, strongest first, joins the first allowed group.
    Even,
}

impl Distribute {
    pub const ALL: [Distribute; 2] = [Distribute::Focus, Distribute::Even];
}

/// D7 (9.8.4) and D8 (9.12.3): which enemy to attack first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetRule {
    /// Largest value x P(hit) (digest 3.5); ties: lower defense, then id.
    #[default]
    BestValue,
    /// Largest P(hit); ties: id.
    BestOdds,
    /// Lowest attack, then lowest defense, then id.
    Weakest,
    /// Highest attack, then largest P(hit), then id.
    Strongest,
}

impl TargetRule {
    pub const ALL: [TargetRule; 4] = [
        TargetRule::BestValue,
        TargetRule::BestOdds,
        TargetRule::Weakest,
        TargetRule::Strongest,
    ];
}

/// D10: kinds of legal retreat hex (9.11.5-9.11.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HexKind {
    /// A base this side controls.
    OwnBase,
    /// A hex with units of this side.
    OwnUnits,
    /// A hex with no units.
    Empty,
    /// A hex with enemy units, none of them face-up (9.11.6).
    OnlyFacedownEnemy,
}

impl HexKind {
    pub const ALL: [HexKind; 4] = [
        HexKind::OwnBase,
        HexKind::OwnUnits,
        HexKind::Empty,
        HexKind::OnlyFacedownEnemy,
    ];
}

/// D10: one hex for everybody, or spread over the legal hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    #[default]
    Together,
    /// Units, face-up ones by id then tokens by number, go in turn to each legal hex in order.
    Spread,
}

impl Split {
    pub const ALL: [Split; 2] = [Split::Together, Split::Spread];
}

fn all_kinds() -> Vec<HexKind> {
    HexKind::ALL.to_vec()
}

/// D10 (9.11.9-9.11.11): where a retreating side goes. Legal hexes are ranked: the listed
/// `hexes` first, in their order; then by `prefer` (kinds left out rank after the listed ones,
/// in the default order); ties go to the hex nearest the side's home base, then label order.
/// 9.11.9 lets the units split: each of `groups` takes the units it names to hexes ranked by
/// its own `hexes`, `prefer` and `split`; the units no group names follow the rule itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetreatTo {
    #[serde(default)]
    pub hexes: Vec<Hex>,
    #[serde(default = "all_kinds")]
    pub prefer: Vec<HexKind>,
    #[serde(default)]
    pub split: Split,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<RetreatGroup>,
}

impl Default for RetreatTo {
    fn default() -> Self {
        RetreatTo {
            hexes: Vec::new(),
            prefer: all_kinds(),
            split: Split::Together,
            groups: Vec::new(),
        }
    }
}

/// D10, 9.11.9: some of the retreating units, named by unit ids and kinds (a unit goes with the
/// first group naming it), and where they go: `hexes` tried first, then `prefer` (default: the
/// retreat rule's), with their own `split` (default `together`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetreatGroup {
    pub units: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexes: Vec<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefer: Option<Vec<HexKind>>,
    #[serde(default)]
    pub split: Split,
}

/// D1 (4.3.2, A28): the BP are spent one at a time, so the beeler side may stop drawing units
/// once it has seen enough: after `units` units were drawn in this phase, or once a unit named
/// by `drawn` (ids or kinds: `at`, `soldier`) came out of the cup. The BP left then buy 2 RP
/// each. Neither given: draw with every BP that `rp_target` leaves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawUntil {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<String>,
}

impl DrawUntil {
    /// No condition: every BP left after `rp_target` draws a unit.
    pub fn is_never(&self) -> bool {
        self.units.is_none() && self.drawn.is_empty()
    }
}

/// In which reaction phase a heli trigger may fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerPhase {
    #[default]
    Both,
    /// Phase 3, after beeler movement.
    First,
    /// Phase 7b, after beeler reaction.
    Second,
}

impl TriggerPhase {
    pub const ALL: [TriggerPhase; 3] = [
        TriggerPhase::Both,
        TriggerPhase::First,
        TriggerPhase::Second,
    ];
}

fn one() -> u32 {
    1
}

/// A mercenary heli reaction given in advance (7.2; policy D14). It fires when every condition
/// given holds: at least `min_units` beeler units (either face) stand in one of
/// `when_beeler_in`, and no mercenary unit (acted helis aside) is in any of
/// `when_no_mercenary_in`. Then `helis` helis fly from EX-10, each carrying the next listed
/// `cargo` unit still at EX-10, to `to` (default: the first watched hex holding the beeler
/// units), along `path` (the hexes entered, ending at the destination; default the cheapest
/// route). 7.2 lets an eligible heli fly anywhere a heli may: a trigger may reinforce an empty
/// base as well as answer a beeler move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeliTrigger {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when_beeler_in: Vec<Hex>,
    #[serde(default = "one")]
    pub min_units: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when_no_mercenary_in: Vec<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Hex>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Hex>>,
    #[serde(default = "one")]
    pub helis: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cargo: Vec<String>,
    #[serde(default)]
    pub phase: TriggerPhase,
}

impl Default for HeliTrigger {
    /// No condition and no destination yet: a trigger must be given one (`legal_heli_triggers`).
    fn default() -> Self {
        HeliTrigger {
            when_beeler_in: Vec::new(),
            min_units: 1,
            when_no_mercenary_in: Vec::new(),
            to: None,
            path: None,
            helis: 1,
            cargo: Vec::new(),
            phase: TriggerPhase::Both,
        }
    }
}

/// A side's standing policies: one for every decision taken during a step (docs/kummen.md
/// "Policies"). Each has a documented default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policies {
    /// Beeler (D1, 4.3.2): spend base points on 2 RP each until RP reach this, the rest on
    /// units; BP left when the cup is empty become RP. Default 0: every BP draws a unit.
    #[serde(default)]
    pub rp_target: u32,
    /// Beeler (D1, 4.3.2, A28): when to stop drawing units; the BP left buy RP.
    #[serde(default, skip_serializing_if = "DrawUntil::is_never")]
    pub draw_until: DrawUntil,
    /// D2 (9.4): combat hexes this side resolves first when it is the phase player; the others
    /// follow in label order.
    #[serde(default)]
    pub hex_order: Vec<Hex>,
    /// Beeler (D3; 9.8.2, 9.8.6).
    #[serde(default)]
    pub ps_partner: RuleOr<PsRule>,
    /// D4 (9.8.1), used as phase player.
    #[serde(default)]
    pub pairing: Pairing,
    /// D5, D6 (9.8.3, 9.8.5).
    #[serde(default)]
    pub distribute: Distribute,
    /// D7 (9.8.4).
    #[serde(default)]
    pub targets: RuleOr<TargetRule>,
    /// D8 (9.12.3): which enemies get the extra base attacks (or the only ones, when there are
    /// fewer attacks than enemies).
    #[serde(default)]
    pub base_targets: RuleOr<TargetRule>,
    /// D9 (9.11).
    #[serde(default)]
    pub retreat: RetreatWhen,
    /// D10 (9.11.9-9.11.11).
    #[serde(default)]
    pub retreat_to: RetreatTo,
    /// Mercenary (D11, 9.13.4): what each returning heli carries home, a priority list of unit
    /// ids and kinds (`at`, `soldier`, `kanyu`); empty: nothing.
    #[serde(default)]
    pub heli_cargo: Vec<String>,
    /// Mercenary (D14, 7.2).
    #[serde(default)]
    pub heli_triggers: Vec<HeliTrigger>,
    /// Per-hex overrides from the side's latest order, for its next combat phase only; dropped
    /// when that phase ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat_overrides: Vec<CombatOverride>,
}

/// The policies an order replaces; fields left out keep their standing value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rp_target: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_until: Option<DrawUntil>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex_order: Option<Vec<Hex>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ps_partner: Option<RuleOr<PsRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<Pairing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distribute: Option<Distribute>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<RuleOr<TargetRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_targets: Option<RuleOr<TargetRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<RetreatWhen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat_to: Option<RetreatTo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heli_cargo: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heli_triggers: Option<Vec<HeliTrigger>>,
}

/// Combat policies for one hex (`orders.combat_overrides`), for the side's next combat phase
/// only: the beeler side's B1 and B2 orders cover the combat of the same step; the mercenary
/// side's M1 orders cover phase 8 (resolved in step B2), its setup orders phase 4 of turn 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatOverride {
    pub hex: Hex,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ps_partner: Option<RuleOr<PsRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<Pairing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distribute: Option<Distribute>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<RuleOr<TargetRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_targets: Option<RuleOr<TargetRule>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<RetreatWhen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat_to: Option<RetreatTo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heli_cargo: Option<Vec<String>>,
}

/// The combat policies in force in one hex: the standing ones with that hex's override applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexPolicy {
    pub ps_partner: RuleOr<PsRule>,
    pub pairing: Pairing,
    pub distribute: Distribute,
    pub targets: RuleOr<TargetRule>,
    pub base_targets: RuleOr<TargetRule>,
    pub retreat: RetreatWhen,
    pub retreat_to: RetreatTo,
    pub heli_cargo: Vec<String>,
}

impl Policies {
    /// The combat policies in force in `hex` (the override for that hex, if any, wins).
    pub fn at(&self, hex: Hex) -> HexPolicy {
        let mut p = HexPolicy {
            ps_partner: self.ps_partner.clone(),
            pairing: self.pairing,
            distribute: self.distribute,
            targets: self.targets.clone(),
            base_targets: self.base_targets.clone(),
            retreat: self.retreat.clone(),
            retreat_to: self.retreat_to.clone(),
            heli_cargo: self.heli_cargo.clone(),
        };
        if let Some(o) = self.combat_overrides.iter().find(|o| o.hex == hex) {
            fn set<T: Clone>(slot: &mut T, v: &Option<T>) {
                if let Some(v) = v {
                    *slot = v.clone();
                }
            }
            set(&mut p.ps_partner, &o.ps_partner);
            set(&mut p.pairing, &o.pairing);
            set(&mut p.distribute, &o.distribute);
            set(&mut p.targets, &o.targets);
            set(&mut p.base_targets, &o.base_targets);
            set(&mut p.retreat, &o.retreat);
            set(&mut p.retreat_to, &o.retreat_to);
            set(&mut p.heli_cargo, &o.heli_cargo);
        }
        p
    }
}

impl Policies {
    /// Every policy of `side` as (key, flow-style value), in the documented order; the keys of
    /// the other side's decisions are left out.
    pub fn entries(&self, side: Side) -> Vec<(&'static str, String)> {
        let b = side == Side::Beeler;
        let m = side == Side::Mercenary;
        let mut v = Vec::new();
        let mut put = |show: bool, key: &'static str, value: String| {
            if show {
                v.push((key, value));
            }
        };
        put(b, "rp_target", self.rp_target.to_string());
        put(b, "draw_until", flow(&self.draw_until));
        put(true, "hex_order", flow(&self.hex_order));
        put(b, "ps_partner", flow(&self.ps_partner));
        put(true, "pairing", flow(&self.pairing));
        put(true, "distribute", flow(&self.distribute));
        put(true, "targets", flow(&self.targets));
        put(true, "base_targets", flow(&self.base_targets));
        put(true, "retreat", flow(&self.retreat));
        put(true, "retreat_to", flow(&self.retreat_to));
        put(m, "heli_cargo", flow(&self.heli_cargo));
        put(m, "heli_triggers", flow(&self.heli_triggers));
        put(
            !self.combat_overrides.is_empty(),
            "combat_overrides",
            flow(&self.combat_overrides),
        );
        v
    }
}

/// Flow-style YAML of a value, for one-line listings in templates and views.
pub fn flow<T: Serialize>(v: &T) -> String {
    let json = serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
    fn go(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::Null => "~".into(),
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(a) => {
                format!("[{}]", a.iter().map(go).collect::<Vec<_>>().join(", "))
            }
            serde_json::Value::Object(m) => format!(
                "{{{}}}",
                m.iter()
                    .map(|(k, v)| format!("{k}: {}", go(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    go(&json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;

    #[test]
    fn empty_orders_parse() {
        let o: Orders = yaml::parse("{}", "o").unwrap();
        assert_eq!(o, Orders::default());
    }

    #[test]
    fn actions_are_single_key_maps() {
        let o: Orders = yaml::parse(
            "actions:\n  - move: {unit: B-AT01, path: [N06, M06]}\n  - flip_up: B-SO02\n  - hide: [B-AT03]\n",
            "o",
        )
        .unwrap();
        assert_eq!(o.actions.len(), 3);
        assert!(o.actions[0].mv.is_some());
        let e = yaml::parse::<Orders>("actions:\n  - mvoe: {unit: X, path: []}\n", "o");
        assert!(e.is_err());
    }

    #[test]
    fn policy_patch_replaces_only_named_fields() {
        let mut p = Policies {
            rp_target: 4,
            ..Policies::default()
        };
        let patch: PolicyPatch = yaml::parse("retreat: never\n", "o").unwrap();
        policies::merge(&mut p, &patch).unwrap();
        assert_eq!(p.rp_target, 4);
        assert_eq!(p.retreat, RetreatWhen::Never);
    }

    #[test]
    fn every_part_of_a_patch_is_a_standing_policy_of_the_same_name() {
        let text = "rp_target: 5\nhex_order: [J07]\nps_partner: [heli]\npairing: best_odds\n\
                    distribute: even\ntargets: strongest\nbase_targets: [at]\nretreat: never\n\
                    retreat_to: {hexes: [K07]}\nheli_cargo: [at]\n\
                    heli_triggers: [{when_beeler_in: [I07]}]\n";
        let patch: PolicyPatch = yaml::parse(text, "o").unwrap();
        let mut p = Policies::default();
        policies::merge(&mut p, &patch).unwrap();
        let changed: PolicyPatch = yaml::parse(&yaml::to_string(&p), "p").unwrap();
        assert_eq!(changed, patch);
    }

    #[test]
    fn every_combat_policy_parses_and_round_trips_9_8_9_11_9_12_9_13() {
        let text = "ps_partner: [kanyu, heli]\npairing: best_odds\ndistribute: even\n\
                    targets: strongest\nbase_targets: [ps, at]\n\
                    retreat: {any: [outnumbered, {after_round: 3}, {lost_ge: 2}, {enemy_has: [ps]}]}\n\
                    retreat_to: {hexes: [K07], prefer: [own_units, own_base], split: spread}\n\
                    heli_cargo: [M-KANYU, at]\n";
        let patch: PolicyPatch = yaml::parse(text, "o").unwrap();
        let mut p = Policies::default();
        policies::merge(&mut p, &patch).unwrap();
        assert_eq!(
            p.ps_partner,
            RuleOr::Prefer(vec!["kanyu".into(), "heli".into()])
        );
        assert_eq!(p.pairing, Pairing::BestOdds);
        assert_eq!(p.targets, RuleOr::Rule(TargetRule::Strongest));
        assert_eq!(
            p.retreat,
            RetreatWhen::Any(vec![
                RetreatWhen::Outnumbered,
                RetreatWhen::AfterRound(3),
                RetreatWhen::LostGe(2),
                RetreatWhen::EnemyHas(vec!["ps".into()]),
            ])
        );
        assert_eq!(p.retreat_to.split, Split::Spread);
        let back: Policies = yaml::parse(&yaml::to_string(&p), "p").unwrap();
        assert_eq!(back, p);
        assert_eq!(
            flow(&p.retreat),
            "{any: [outnumbered, {after_round: 3}, {lost_ge: 2}, {enemy_has: [ps]}]}"
        );
    }

    /// The keywords the error of a misspelt one names, in order.
    fn accepted_keywords<T: serde::de::DeserializeOwned + std::fmt::Debug>() -> Vec<String> {
        let text = yaml::parse::<T>("nonsense\n", "o").unwrap_err().to_string();
        let (_, listed) = text.split_once("expected one of ").unwrap_or_default();
        listed.split(", ").map(|k| k.trim().to_string()).collect()
    }

    fn names<T: Serialize>(all: &[T]) -> Vec<String> {
        all.iter().map(flow).collect()
    }

    #[test]
    fn the_keyword_lists_of_the_choices_name_every_keyword_the_orders_accept() {
        assert_eq!(accepted_keywords::<PsRule>(), names(&PsRule::ALL));
        assert_eq!(accepted_keywords::<Pairing>(), names(&Pairing::ALL));
        assert_eq!(accepted_keywords::<Distribute>(), names(&Distribute::ALL));
        assert_eq!(accepted_keywords::<TargetRule>(), names(&TargetRule::ALL));
        assert_eq!(accepted_keywords::<HexKind>(), names(&HexKind::ALL));
        assert_eq!(accepted_keywords::<Split>(), names(&Split::ALL));
        assert_eq!(
            accepted_keywords::<TriggerPhase>(),
            names(&TriggerPhase::ALL)
        );
        // The retreat conditions written as a bare word; the others take a value.
        let mut conditions = names(&RetreatWhen::KEYWORDS);
        conditions.extend(["after_round", "lost_ge", "enemy_has", "any", "all"].map(String::from));
        assert_eq!(accepted_keywords::<RetreatWhen>(), conditions);
    }

    #[test]
    fn a_misspelt_keyword_is_refused_with_the_accepted_ones_9_8_4() {
        let e = yaml::parse::<PolicyPatch>("targets: bestodds\n", "o").unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("best_odds") && text.contains("strongest"),
            "{text}"
        );
    }

    #[test]
    fn a_combat_override_applies_to_its_hex_only() {
        let o: Orders = yaml::parse(
            "combat_overrides:\n  - {hex: K07, retreat: never, targets: [M-KANYU]}\n",
            "o",
        )
        .unwrap();
        let p = Policies {
            combat_overrides: o.combat_overrides,
            ..Policies::default()
        };
        let k07 = Hex::parse("K07").unwrap();
        assert_eq!(p.at(k07).retreat, RetreatWhen::Never);
        assert_eq!(p.at(k07).targets, RuleOr::Prefer(vec!["M-KANYU".into()]));
        assert_eq!(p.at(k07).pairing, Pairing::NetValue);
        let j07 = Hex::parse("J07").unwrap();
        assert_eq!(p.at(j07).retreat, RetreatWhen::Outmatched);
    }
}
