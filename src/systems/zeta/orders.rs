//! The `orders:` block of a zeta order (plan §4): one struct with a part per step kind (the
//! packet's armament, deployment, cards, nuke and plans; a phase's acting orders; an ask's
//! answer), `deny_unknown_fields` everywhere, plain YAML. `check` refuses a part sent in the
//! wrong step. Each item is judged by the `legal_*` function of the module that owns its rule.

use super::combat::{self, CombatOrder};
use super::ctx::{Ctx, Moment};
use super::data::{BaseId, CharId, Loc, Place, Side, TypeId, UnitId};
use super::guard::{self, Guard};
use super::policy::{self, JoinAnswer, Plan, PolicyPatch};
use super::state::{CardKind, Checkpoint, Stage, State};
use super::{action, arming, axis, cards, colony, deploy, gryps, nuke, specials, zeon};
use crate::kit::policies;
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One armament item (5.3: carried out in list order within the budget).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmItem {
    /// 5.6: own units to the factory box.
    Scrap(Vec<UnitId>),
    /// 8.2-8.4: a factory-box type out to stock, a stock type in.
    Refit(Refit),
    /// 7.1-7.4: counters from stock into the factory box, 2P each.
    Augment(Augment),
    /// 6.1-6.2: factory-box units onto the map, PP each; `label` names them for deployment.
    Produce(Produce),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refit {
    pub out: TypeId,
    #[serde(rename = "in")]
    pub into: TypeId,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Augment {
    #[serde(rename = "type")]
    pub type_id: TypeId,
    pub count: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Produce {
    #[serde(rename = "type")]
    pub type_id: TypeId,
    pub count: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Units produced this packet, placed (9.2-9.4, 29.2.6, 29.3.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployUnit {
    pub label: String,
    /// How many of the label's units (all when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<BaseId>,
    /// An own La Vie en Rose or Jupitris (29.2.6, 29.3.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onto: Option<UnitId>,
}

/// A waiting character, placed (9.5-9.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeployChar {
    pub char: CharId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<UnitId>,
    /// Alone in a base hex (15.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Loc>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<DeployUnit>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<DeployChar>,
    /// Plan §12/F4: deployments guarded on the others' production, tried in order once every
    /// faction's armament is done; the first whose guard holds replaces `units` and
    /// `characters`, which stay the deployment when none holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<GuardedDeployment>,
}

/// One guarded deployment (plan §12/F4); its guard may read only `produced` terms.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardedDeployment {
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<DeployUnit>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<DeployChar>,
}

/// One alternative of a guarded card choice (plan §4.1, A-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardedCards {
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    pub choose: Vec<CardKind>,
}

/// 10.2-10.3: three kinds, or guarded alternatives judged on the deployed board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CardChoice {
    Plain(Vec<CardKind>),
    Guarded(Vec<GuardedCards>),
}

/// One entry of `cards:`: a kind, or an alternative. Read by hand, so that a wrong entry gets
/// the message of the form it was written in rather than serde's "no variant matched".
enum CardItem {
    Kind(CardKind),
    Guarded(GuardedCards),
}

impl<'de> Deserialize<'de> for CardItem {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardItem, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = CardItem;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a card kind (space, ground or atmosphere) or an alternative {if: ..., choose: [...]}",
                )
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<CardItem, E> {
                use serde::de::IntoDeserializer;
                CardKind::deserialize(s.into_deserializer()).map(CardItem::Kind)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, m: A) -> Result<CardItem, A::Error> {
                GuardedCards::deserialize(serde::de::value::MapAccessDeserializer::new(m))
                    .map(CardItem::Guarded)
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for CardChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardChoice, D::Error> {
        let items = Vec::<CardItem>::deserialize(d)?;
        let mut kinds = Vec::new();
        let mut alts = Vec::new();
        for i in items {
            match i {
                CardItem::Kind(k) => kinds.push(k),
                CardItem::Guarded(g) => alts.push(g),
            }
        }
        match (kinds.is_empty(), alts.is_empty()) {
            (_, true) => Ok(CardChoice::Plain(kinds)),
            (true, false) => Ok(CardChoice::Guarded(alts)),
            (false, false) => Err(serde::de::Error::custom(
                "write either three kinds or a list of alternatives ({if: ..., choose: [...]}), not both",
            )),
        }
    }
}

/// The drawn card, echoed (11.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardEcho {
    pub side: Side,
    pub kind: CardKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColonyAt {
    pub place_at: BaseId,
}

/// Before the units act (slots A2-A3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pre {
    /// 35.5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colony: Option<ColonyAt>,
    /// 35.7: the base of the linked area a landing aims at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colony_target: Option<BaseId>,
    /// 36.4.
    #[serde(default, skip_serializing_if = "is_false")]
    pub demolish: bool,
}

/// One acting unit's action (12.5): move (with a path and what it carries), recover or
/// govern. A unit not named "moves" 0 hexes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitOrder {
    pub unit: UnitId,
    /// The hexes entered, in order (13.4).
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Loc>>,
    /// MS it carries from its start hex (15.2, A-14).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carry: Vec<UnitId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recover: Option<BaseId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub govern: Option<BaseId>,
}

/// A character changing carriers inside its hex (A-13).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub char: CharId,
    pub aboard: UnitId,
}

/// One atmospheric move (14): a unit (or a lone character, 14.12) descends or launches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtmoOrder {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<UnitId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub char: Option<CharId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub descend: Option<Loc>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub launch: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carry: Vec<UnitId>,
}

/// Axis's governor on its Space card (30.3-30.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisOrder {
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub to: Option<Place>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<BaseId>,
}

/// Gryps 2's governor on its Space card (31.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrypsOrder {
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub to: Option<Loc>,
}

/// One laser target (31.5.4); the first legal entry fires.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaserTarget {
    pub at: Loc,
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
}

/// Quattro's speech (29.1.1) at a base, if its guard holds at the end of the phase (plan
/// §12/F14).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeechOrder {
    pub at: BaseId,
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
}

impl From<&str> for SpeechOrder {
    fn from(at: &str) -> SpeechOrder {
        SpeechOrder {
            at: at.to_string(),
            guard: None,
        }
    }
}

/// Declares `PhaseOrders` and `Orders` from one list of the phase parts (plan §4.2), with
/// `Orders::phase_orders` copying them: the phase parts are written once, in their order.
/// (Not a flattened inner struct: serde's `flatten` does not work with
/// `deny_unknown_fields`, and every order must refuse an unknown key.)
macro_rules! orders_with_phase_parts {
    (
        phase { $( $(#[$pm:meta])* $pf:ident : $pt:ty, )* }
        $(#[$om:meta])*
        pub struct Orders {
            before { $( $(#[$bm:meta])* $bf:ident : $bt:ty, )* }
            after { $( $(#[$am:meta])* $af:ident : $at:ty, )* }
        }
    ) => {
        /// The acting faction's orders for one action phase, from slot A2 on: the body of a
        /// phase step's orders, of a plan (`then`) and of a checkpoint's `continue` (plan
        /// §4.2-4.4).
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct PhaseOrders {
            $( $(#[$pm])* pub $pf: $pt, )*
        }

        $(#[$om])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Orders {
            $( $(#[$bm])* pub $bf: $bt, )*
            $( $(#[$pm])* pub $pf: $pt, )*
            $( $(#[$am])* pub $af: $at, )*
        }

        impl Orders {
            /// The phase part of these orders (`card`, the packet and the ask parts left out).
            pub fn phase_orders(&self) -> PhaseOrders {
                PhaseOrders {
                    $( $pf: self.$pf.clone(), )*
                }
            }
        }
    };
}

orders_with_phase_parts! {
    phase {
        #[serde(default, skip_serializing_if = "is_default")]
        pre: Pre,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        units: Vec<UnitOrder>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        board: Vec<Board>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        atmospheric: Vec<AtmoOrder>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colony_move: Option<Loc>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lvr_repair: Vec<UnitId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        axis: Option<AxisOrder>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gryps: Option<GrypsOrder>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        africa_hex: Option<Loc>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        combats: Vec<CombatOrder>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        laser: Vec<LaserTarget>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        speech: Option<SpeechOrder>,
        #[serde(default, skip_serializing_if = "is_default")]
        checkpoint: Checkpoint,
    }

    /// Everything a zeta order may hold; which parts fit depends on the step (plan §4).
    pub struct Orders {
        before {
            // The packet step (plan §4.1).
            /// 36.3: turn 1, Titans only.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            nuke_base: Option<BaseId>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            armament: Vec<ArmItem>,
            #[serde(default, skip_serializing_if = "is_default")]
            deployment: Deployment,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cards: Option<CardChoice>,
            /// Replaces last turn's plans.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            plans: Option<Vec<Plan>>,
            // A phase step (plan §4.2): the drawn card, echoed, then the phase parts above.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            card: Option<CardEcho>,
        }
        after {
            // Ask steps (plan §4.3).
            /// 18.9: attacker, defender or abstain (`ask` is a policy answer only).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            join: Option<JoinAnswer>,
            /// Preparation overrides of a joining faction (20).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            prep: Option<combat::PrepOrders>,
            /// A checkpoint's orders from its slot on.
            #[serde(default, rename = "continue", skip_serializing_if = "Option::is_none")]
            resume: Option<PhaseOrders>,
            /// Standing policies to replace, part by part (any step).
            #[serde(default, skip_serializing_if = "policies::is_empty")]
            policies: PolicyPatch,
        }
    }
}

impl Orders {
    /// The top-level parts these orders hold (the keys they are written with), each with the
    /// kind of step it belongs to; `policies` belongs to every step and is left out.
    pub fn parts(&self) -> Vec<(String, StepKind)> {
        let Ok(serde_json::Value::Object(keys)) = serde_json::to_value(self) else {
            return Vec::new();
        };
        keys.keys()
            .filter(|k| k.as_str() != "policies")
            .map(|k| {
                let kind = if PACKET_PARTS.contains(&k.as_str()) {
                    StepKind::Packet
                } else if ASK_PARTS.contains(&k.as_str()) {
                    StepKind::Ask
                } else {
                    StepKind::Phase
                };
                (k.clone(), kind)
            })
            .collect()
    }
}

/// The parts of the packet step (plan §4.1) and of the ask steps (§4.3); every other part
/// but `policies` belongs to a phase step (§4.2).
const PACKET_PARTS: [&str; 5] = ["nuke_base", "armament", "deployment", "cards", "plans"];
const ASK_PARTS: [&str; 3] = ["join", "prep", "continue"];

/// The three kinds of step an order may be written for (plan §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Packet,
    Phase,
    Ask,
}

impl StepKind {
    fn name(self) -> &'static str {
        match self {
            StepKind::Packet => "packet step",
            StepKind::Phase => "action phase steps",
            StepKind::Ask => "ask steps",
        }
    }

    fn of(stage: &Stage) -> Option<StepKind> {
        match stage {
            Stage::Packet { .. } => Some(StepKind::Packet),
            Stage::Phase { .. } => Some(StepKind::Phase),
            Stage::Ask { .. } => Some(StepKind::Ask),
            Stage::Over(_) => None,
        }
    }
}

/// Everything wrong with `side`'s orders for the current step.
pub fn check(state: &State, side_name: &str, o: &Orders) -> Vec<Problem> {
    let root = FieldPath::root().at("orders");
    let Some(side) = Side::parse(side_name) else {
        return vec![Problem::new(
            FieldPath::root().at("side"),
            "",
            format!("no side {side_name:?} in zeta"),
            Side::listing(),
        )];
    };
    let mut out = Vec::new();
    // 35.2: with the state at hand, the colony policy's targets are judged too.
    out.extend(policy::legal_policies_with(
        Some(&state.data),
        side,
        &o.policies,
        &root.at("policies"),
    ));
    if let Some(now) = StepKind::of(&state.stage) {
        for (part, kind) in o.parts() {
            if kind != now {
                out.push(Problem::new(
                    root.at(part.as_str()),
                    "",
                    format!(
                        "`{part}` belongs to the {}; this step is {}",
                        kind.name(),
                        stage_name(&state.stage)
                    ),
                    format!("only the parts of the {}", now.name()),
                ));
            }
        }
    }
    let ctx = Ctx::new(state.clone(), None, Moment::Check);
    match &state.stage {
        Stage::Packet { .. } => {
            if let Some(b) = &o.nuke_base
                && let Err(p) = nuke::legal_nuke_base(&ctx, side, b, &root.at("nuke_base"))
            {
                out.push(p);
            }
            // 36.3: a turn-1 packet without `nuke_base:` leaves the choice to the sealed
            // draw among the candidates (nuke::resolve_nuke_base), as for a missed packet.
            // 5.3: each armament item on the sheet the items before it leave, then the
            // deployment on the units they produced (A-8), on a copy of the state.
            let mut sim = Ctx::new(state.clone(), None, Moment::Check);
            out.extend(arming::simulate_armament(
                &mut sim,
                side,
                &o.armament,
                &root.at("armament"),
            ));
            out.extend(deploy::simulate_deployment(
                &sim,
                side,
                &o.deployment,
                &root.at("deployment"),
            ));
            if let Some(c) = &o.cards
                && let Err(p) = cards::legal_card_choice(&ctx, side, c, &root.at("cards"))
            {
                out.push(p);
            }
            if let Some(plans) = &o.plans {
                out.extend(policy::legal_plans(&ctx, side, plans, &root.at("plans")));
            }
        }
        Stage::Phase { .. } => {
            if let Some(echo) = &o.card
                && let Err(p) = cards::legal_card_echo(&ctx, side, echo, &root.at("card"))
            {
                out.push(p);
            }
            out.extend(check_phase(&ctx, side, &o.phase_orders(), &root));
        }
        // Plan §4.3 (ask.rs).
        Stage::Ask { .. } => out.extend(super::ask::check_ask(state, side, o, &root)),
        Stage::Over(_) => out.push(Problem::new(
            root.clone(),
            "37",
            "the game is over",
            "no orders",
        )),
    }
    out
}

/// The problems of a phase's orders, item by item, under `root`.
fn check_phase(ctx: &Ctx<'_>, side: Side, o: &PhaseOrders, root: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut push = |r: Result<(), Problem>| {
        if let Err(p) = r {
            out.push(p);
        }
    };
    if o.pre.colony.is_some() || o.pre.colony_target.is_some() {
        push(colony::legal_colony(ctx, side, &o.pre, &root.at("pre")));
    }
    if o.pre.demolish {
        push(nuke::legal_demolish(
            ctx,
            side,
            &root.at("pre").at("demolish"),
        ));
    }
    // 12-15: `units` and `atmospheric` are judged by simulating slots A4-A5 in order.
    for p in action::check_units(ctx, side, o, root) {
        push(Err(p));
    }
    if let Some(to) = &o.colony_move {
        push(colony::legal_colony_move(
            ctx,
            side,
            to,
            &root.at("colony_move"),
        ));
    }
    if !o.lvr_repair.is_empty() {
        push(specials::legal_lvr_repair(
            ctx,
            side,
            &o.lvr_repair,
            &root.at("lvr_repair"),
        ));
    }
    if let Some(a) = &o.axis {
        push(axis::legal_axis(ctx, side, a, &root.at("axis")));
    }
    if let Some(g) = &o.gryps {
        push(gryps::legal_gryps_move(ctx, side, g, &root.at("gryps")));
    }
    if let Some(h) = &o.africa_hex {
        push(zeon::legal_africa_hex(ctx, side, h, &root.at("africa_hex")));
    }
    for (i, c) in o.combats.iter().enumerate() {
        push(combat::legal_combat(
            ctx,
            side,
            c,
            &root.at("combats").at(i),
        ));
    }
    for (i, l) in o.laser.iter().enumerate() {
        push(gryps::legal_laser(ctx, side, l, &root.at("laser").at(i)));
    }
    if let Some(s) = &o.speech {
        let at = root.at("speech");
        push(specials::legal_speech(ctx, side, &s.at, &at.at("at")));
        if let Some(g) = &s.guard {
            push(guard::legal_guard(ctx, side, g, &at.at("if")));
        }
    }
    // 29.1.2: with a speech declared, the units carrying Quattro only move.
    out.extend(specials::legal_speech_actions(
        ctx,
        side,
        o,
        &root.at("units"),
    ));
    out
}

/// The step's name in messages.
pub fn stage_name(stage: &Stage) -> String {
    match stage {
        Stage::Packet { turn } => format!("the packet step of turn {turn}"),
        Stage::Phase { turn, k, .. } => format!("action phase {k} of turn {turn}"),
        Stage::Ask { turn, k, .. } => format!("an ask step in action phase {k} of turn {turn}"),
        Stage::Over(_) => "the end of the game".into(),
    }
}

/// Unit ids named by labels of produced units, per label (plan §4.1: `label` in `produce`).
pub type Labels = BTreeMap<String, Vec<UnitId>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;

    fn parse(text: &str) -> Result<Orders, String> {
        yaml::parse_order::<Orders>(text, "orders.yaml").map_err(|rs| {
            rs.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    fn round_trip(o: &Orders) {
        let text = yaml::to_string(o);
        assert_eq!(&parse(&text).unwrap(), o, "{text}");
    }

    /// The packet of plan §4.1, as a player would write it.
    const PACKET: &str = r#"
nuke_base: odessa
armament:
  - scrap: [t-gm2-4]
  - refit: {out: gm2, in: marasai}
  - augment: {type: hizack, count: 2}
  - produce: {type: hizack, count: 2, label: new_hz}
  - produce: {type: marasai, count: 1, label: new_ms}
deployment:
  units:
    - {label: new_hz, count: 2, base: green_noa}
    - {label: new_ms, count: 1, onto: t-jupitris-1}
  characters:
    - {char: kacricon, aboard: t-alexandria-1}
cards:
  - if: {any: [{units_on: {side: neo_zeon, map: ground, min: 1}}]}
    choose: [space, ground, ground]
  - choose: [space, space, atmosphere]
policies:
  join: {default: abstain, rules: [{acting: aeug, answer: defender}]}
  bomb: {if_ms_at_least: 2}
plans:
  - key: {card: atmosphere, nth: 1}
    if: {all: [{units_at: {side: aeug, at: "space:D05", min: 2}}, {not: {enemy_units_at: {at: "ground:E06", min: 1}}}]}
    then:
      atmospheric: [{unit: a-argama-1, descend: "ground:E05", carry: [a-rick-dias-1]}]
    else: ask
"#;

    /// The phase orders of plan §4.2.
    const PHASE: &str = r#"
card: {side: titans, kind: space}
pre:
  colony: {place_at: side_2}
  colony_target: dublin
  demolish: true
units:
  - {unit: t-alexandria-1, move: ["space:C04", "space:C05"], carry: [t-hizack-1, t-hizack-2]}
  - {unit: t-salamis-2, recover: luna_ii}
  - {unit: t-gm2-1, govern: zedan}
board:
  - {char: bask, aboard: t-alexandria-1}
atmospheric:
  - {unit: t-gm2-5, launch: true}
  - {unit: t-hizack-3, descend: "ground:E07"}
colony_move: "space:E04"
lvr_repair: [a-nemo-1, a-nemo-2]
axis: {move: "space:M03", attack: zedan}
gryps: {move: "space:B04"}
africa_hex: "ground:J05"
combats:
  - at: "space:C05"
    versus: [aeug]
    if: {my_units_at: {at: "space:C05", min: 3}}
    prep:
      leave_out: [t-hizack-4]
      stow: {t-hizack-2: t-alexandria-1}
      pilots: {t-hizack-1: jerid_2}
      captains: {t-alexandria-1: bask}
    bomb: auto
    bombard: yes
laser: [{at: "space:C04", if: {enemy_units_at: {at: "space:C04", min: 2}}}, {at: "space:B04"}]
speech: {at: side_2, if: {phase_min: 3}}
checkpoint: before_combat
"#;

    #[test]
    fn check_refuses_a_recovery_by_quattros_ship_in_a_speech_phase_29_1_2() {
        use crate::systems::zeta::carry::fixture::{phase, put};
        use crate::systems::zeta::data::Side;
        use crate::systems::zeta::state::CharPlace;
        let mut st = crate::systems::zeta::deploy::fixture::state();
        phase(&mut st, Side::Aeug, CardKind::Space);
        put(&mut st, "a-argama-91", Side::Aeug, "argama", "space:C05");
        if let Some(q) = st.chars.get_mut("quattro") {
            q.place = CharPlace::Aboard("a-argama-91".into());
        }
        let mut o = parse("units:\n- {unit: a-argama-91, recover: side_1}\nspeech: {at: side_1}\n")
            .unwrap();
        let speech = |o: &Orders| {
            check(&st, "aeug", o)
                .into_iter()
                .filter(|p| p.rule.as_deref() == Some("29.1.2"))
                .map(|p| p.path.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(speech(&o), vec!["orders.units[0].recover".to_string()]);
        o.speech = None;
        assert!(speech(&o).is_empty());
    }

    #[test]
    fn check_refuses_a_colony_policy_aimed_where_titans_cannot_land_35_2() {
        let st = crate::systems::zeta::deploy::fixture::state();
        let o = parse("policies:\n  colony: {target: [granada, jaburo]}\n").unwrap();
        let p: Vec<_> = check(&st, "titans", &o)
            .into_iter()
            .filter(|p| p.rule.as_deref() == Some("35.2"))
            .collect();
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].message.contains("jaburo"), "{}", p[0].message);
    }

    #[test]
    fn the_plans_packet_reads_and_round_trips() {
        let o = parse(PACKET).unwrap();
        assert_eq!(o.nuke_base.as_deref(), Some("odessa"));
        assert_eq!(o.armament.len(), 5);
        assert!(matches!(o.cards, Some(CardChoice::Guarded(ref g)) if g.len() == 2));
        assert_eq!(o.plans.as_ref().map(Vec::len), Some(1));
        round_trip(&o);
        let plain = parse("cards: [space, ground, atmosphere]\n").unwrap();
        assert!(matches!(plain.cards, Some(CardChoice::Plain(ref k)) if k.len() == 3));
        round_trip(&plain);
    }

    #[test]
    fn the_plans_phase_orders_read_and_round_trip() {
        let o = parse(PHASE).unwrap();
        assert_eq!(o.units.len(), 3);
        assert_eq!(o.combats.len(), 1);
        assert_eq!(o.checkpoint, Checkpoint::BeforeCombat);
        assert!(o.parts().iter().all(|(_, k)| *k == StepKind::Phase));
        round_trip(&o);
        // The phase part is the same body a plan's `then` holds.
        let body = o.phase_orders();
        let text = yaml::to_string(&body);
        assert_eq!(yaml::parse::<PhaseOrders>(&text, "x").unwrap(), body);
    }

    #[test]
    fn ask_answers_read() {
        let o =
            parse("join: defender\nprep: {sortie: [n-gaza-c-1], captains: {n-gwadan-1: haman}}\n")
                .unwrap();
        assert_eq!(o.join, Some(JoinAnswer::Defender));
        let o = parse("continue:\n  combats: [{at: \"space:C05\", versus: [aeug]}]\n").unwrap();
        assert!(o.resume.is_some_and(|r| r.combats.len() == 1));
    }

    #[test]
    fn an_unknown_field_is_refused_at_every_level() {
        for bad in [
            "nuke: odessa\n",
            "armament: [{produce: {type: hizack, count: 1, where: x}}]\n",
            "units: [{unit: t-gm2-1, run: [\"space:C04\"]}]\n",
            "combats: [{at: \"space:C05\", versus: [aeug], prep: {pilot: {}}}]\n",
            "policies: {defence: {sortie: none, hide: all}}\n",
            "plans: [{key: {card: space, nth: 1}, then: {units: []}, when: 3}]\n",
        ] {
            assert!(parse(bad).is_err(), "accepted: {bad}");
        }
    }

    #[test]
    fn a_wrong_card_entry_gets_the_message_of_its_own_form() {
        let err = parse("cards: [space, grnd, atmosphere]\n").unwrap_err();
        assert!(err.contains("grnd") && err.contains("ground"), "{err}");
        let err = parse("cards: [{choose: [space], iff: 3}]\n").unwrap_err();
        assert!(err.contains("iff"), "{err}");
        let err = parse("cards: [space, {choose: [space]}]\n").unwrap_err();
        assert!(err.contains("not both"), "{err}");
    }

    #[test]
    fn a_place_must_name_a_map() {
        let err = parse("colony_move: C05\n").unwrap_err();
        assert!(err.contains("space:C05"), "{err}");
        assert!(parse("colony_move: \"moon:C05\"\n").is_err());
        let o = parse("axis: {move: belt}\n").unwrap();
        assert_eq!(o.axis.and_then(|a| a.to), Some(Place::Belt));
    }
}
