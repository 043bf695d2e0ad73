//! Standing policies (plan §4.5) and plans (plan §4.4): every decision a faction faces outside
//! its own phase orders, decided in advance and kept in the state; `policies:` in any order
//! replaces the parts it names (kit::policies).

use super::data::{BaseId, Loc, Side, UnitId};
use super::guard::Guard;
use super::orders::PhaseOrders;
use super::state::CardKind;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};

/// The answer to an 18.9 join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JoinAnswer {
    /// Watch (Z-13: the default for people).
    #[default]
    Abstain,
    Attacker,
    Defender,
    /// Open an ask step (plan §1.1).
    Ask,
}

/// One rule of the join policy: the first rule whose conditions all hold answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRule {
    /// The attacking (acting) faction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acting: Option<Side>,
    /// The faction it declared against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Loc>,
    pub answer: JoinAnswer,
}

/// 18.9.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinPolicy {
    #[serde(default)]
    pub default: JoinAnswer,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<JoinRule>,
}

/// 20.3: which eligible MS sortie when defending or joining.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sortie {
    #[default]
    AllEligible,
    None,
    /// §12/F5: sortie when the own eligible MS expect at least as many air hits as the
    /// attacker's sortied MS (judged after the attacker's preparation).
    IfAirFavourable,
}

/// 20.4: what shelters in an own military base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum House {
    #[default]
    None,
    Damaged,
    Ships,
    All,
}

/// 20.5-20.6: pilots onto MS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pilots {
    #[default]
    BestFirst,
}

/// 20.8: captains onto ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Captains {
    #[default]
    MaxShipAttack,
}

/// Preparation when another faction attacks (20.2-20.9).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defence {
    #[serde(default)]
    pub sortie: Sortie,
    #[serde(default)]
    pub house: House,
    #[serde(default)]
    pub pilots: Pilots,
    #[serde(default)]
    pub captains: Captains,
}

/// 22.1: whether the camp wishes to bomb.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bomb {
    Never,
    #[default]
    IfTarget,
    IfMsAtLeast(u32),
}

/// 24.1: whether the camp wishes to bombard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bombard {
    Always,
    Never,
    /// Expected own hits at least the enemy's.
    #[default]
    IfStronger,
}

/// 25.3-25.5: how the scorer's hits are allocated.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Allocate {
    /// The exact knapsack: PP removed x 2 + PP flipped, ties by id.
    #[default]
    MaxValue,
    /// Unit ids, `type:X`, `flipped_first`, `ships_first`, `base_first`, in order.
    Priority(Vec<String>),
}

/// 26.1-26.4: the receiver's command share.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Share {
    #[default]
    MinLoss,
    Protect(Vec<UnitId>),
}

/// 25.11, 15.7, A-53: which own ships pick up stranded MS.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recarry {
    #[default]
    LargestCapacityFirst,
    List(Vec<UnitId>),
}

/// 27.5, A-27: where a survivor with no legal place goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orphans {
    #[default]
    Nearest,
}

/// 35.7, plan §12/F3: the base a colony landing from a drop point aims at. The landing is
/// compulsory and rolled when the card is drawn, so its target is a standing policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ColonyTarget {
    /// A rule (`highest_vp_enemy`).
    Rule(ColonyRule),
    /// Bases in order of preference; the first that is a target now is taken, else the rule
    /// `highest_vp_enemy` decides.
    Bases(Vec<BaseId>),
}

/// The named rules of [`ColonyTarget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColonyRule {
    /// The VP leader among the other factions, its highest-VP base in the area; then any other
    /// faction's; then a neutral base; the dropper's own last; ties by id.
    #[default]
    HighestVpEnemy,
}

impl Default for ColonyTarget {
    fn default() -> Self {
        ColonyTarget::Rule(ColonyRule::HighestVpEnemy)
    }
}

/// `colony:` (35.7, plan §12/F3): Titans and Neo Zeon.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColonyPolicy {
    #[serde(default)]
    pub target: ColonyTarget,
}

/// When Titans demolish the nuke base as their Ground card is drawn (36.4, plan §12/F3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DemolishWhen {
    /// Only by `pre.demolish` in the phase's orders (moving blind).
    #[default]
    Never,
    /// When the other factions' units in the base's hex are worth at least this many PP.
    EnemyPpInBaseMin(u32),
    /// When the other factions' units within two hexes of the base are worth more than twice
    /// Titans' units in its hex (and at least 1 PP).
    BaseThreatened,
}

/// `nuke:` (36.4, plan §12/F3): Titans only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NukePolicy {
    #[serde(default)]
    pub demolish_when: DemolishWhen,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A faction's standing policies; every part has its default (plan §4.5).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policies {
    #[serde(default)]
    pub join: JoinPolicy,
    #[serde(default)]
    pub defence: Defence,
    #[serde(default)]
    pub bomb: Bomb,
    #[serde(default)]
    pub bombard: Bombard,
    #[serde(default)]
    pub allocate: Allocate,
    #[serde(default)]
    pub share: Share,
    #[serde(default)]
    pub recarry: Recarry,
    #[serde(default)]
    pub orphans: Orphans,
    /// Put last in allocation and kept off risky sorties (25.3, 20.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protect: Vec<String>,
    /// 35.7 (plan §12/F3): the landing's target.
    #[serde(default, skip_serializing_if = "is_default")]
    pub colony: ColonyPolicy,
    /// 36.4 (plan §12/F3): Titans' demolition when their Ground card is drawn.
    #[serde(default, skip_serializing_if = "is_default")]
    pub nuke: NukePolicy,
}

/// `policies:` in an order: each part present replaces the stored one (kit::policies).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<JoinPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<Defence>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bomb: Option<Bomb>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bombard: Option<Bombard>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocate: Option<Allocate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<Share>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recarry: Option<Recarry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orphans: Option<Orphans>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protect: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colony: Option<ColonyPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nuke: Option<NukePolicy>,
}

/// Which card a plan is for: the 1st or 2nd of the faction's cards of that kind drawn this
/// turn (Z-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanKey {
    pub card: CardKind,
    pub nth: u8,
}

/// What a plan does when its guard fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanElse {
    /// Open the phase step as usual.
    #[default]
    Ask,
    /// Resolve the phase with no voluntary action.
    Pass,
}

/// A phase's orders sent ahead in the packet (plan §1.5, §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    pub key: PlanKey,
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub guard: Option<Guard>,
    #[serde(default)]
    pub then: PhaseOrders,
    #[serde(default, rename = "else")]
    pub otherwise: PlanElse,
}

/// Problems with a policy patch, under `at`: each part judged where its rule is (plan §4.5:
/// standing.rs). The step merges a patch only without problems (`standing::merge_checked`),
/// so what reads the policies later reads them as valid.
pub fn legal_policies(side: Side, patch: &PolicyPatch, at: &FieldPath) -> Vec<Problem> {
    legal_policies_with(None, side, patch, at)
}

/// [`legal_policies`] with the game's data when the caller has it (`check` has the state):
/// then the `colony` part's targets are judged too (35.2).
pub fn legal_policies_with(
    data: Option<&super::data::ZetaData>,
    side: Side,
    patch: &PolicyPatch,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = super::standing::legal_parts(side, patch, at);
    // 35.1, 36.1 (plan §12/F3): the `colony` and `nuke` parts.
    out.extend(super::phase_start::legal_policy_parts(
        data, side, patch, at,
    ));
    out
}

/// Problems with a packet's plans (plan §4.4, Z-5): one plan per key at most, a key the
/// faction can hold (the 1st or 2nd Space or Ground card, the 1st Atmosphere card: 10.2), and
/// well-formed guards. The plan's orders are judged when it runs, on the board of that moment
/// (items wrong then are skipped and told privately).
pub fn legal_plans(
    ctx: &super::ctx::Ctx<'_>,
    side: Side,
    plans: &[Plan],
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in plans.iter().enumerate() {
        let here = at.at(i);
        let most = match p.key.card {
            CardKind::Atmosphere => 1,
            CardKind::Space | CardKind::Ground => 2,
        };
        if p.key.nth == 0 || p.key.nth > most {
            out.push(Problem::new(
                here.at("key").at("nth"),
                "10.2",
                format!(
                    "a faction holds {most} {} card{}, so there is no card {} of that kind",
                    p.key.card.name(),
                    if most == 1 { "" } else { "s" },
                    p.key.nth
                ),
                if most == 1 { "nth: 1" } else { "nth: 1 or 2" },
            ));
        } else if !seen.insert(p.key) {
            out.push(Problem::new(
                here.at("key"),
                "",
                format!(
                    "a second plan for your {} card {}: one plan per card (Z-5)",
                    p.key.card.name(),
                    p.key.nth
                ),
                "one plan per key",
            ));
        }
        if let Some(g) = &p.guard
            && let Err(e) = super::guard::legal_guard(ctx, side, g, &here.at("if"))
        {
            out.push(e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::DataSource;
    use crate::systems::zeta::ctx::{Ctx, Moment};
    use crate::systems::zeta::setup;

    fn problems(text: &str) -> Vec<Problem> {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        let ctx = Ctx::new(st, None, Moment::Check);
        let plans: Vec<Plan> = crate::yaml::parse(text, "p.yaml").unwrap();
        legal_plans(&ctx, Side::Aeug, &plans, &FieldPath::root().at("plans"))
    }

    #[test]
    fn a_second_atmosphere_card_has_no_plan_10_2() {
        let p = problems("[{key: {card: atmosphere, nth: 2}, else: pass}]");
        assert_eq!(p.len(), 1);
        assert!(
            p[0].message.contains("holds 1 atmosphere card,"),
            "{}",
            p[0].message
        );
        assert!(problems("[{key: {card: space, nth: 2}, else: pass}]").is_empty());
    }

    #[test]
    fn two_plans_for_one_card_are_refused_z_5() {
        let p =
            problems("[{key: {card: space, nth: 1}}, {key: {card: space, nth: 1}, else: pass}]");
        assert_eq!(p.len(), 1);
        assert!(p[0].message.contains("a second plan"), "{}", p[0].message);
    }

    #[test]
    fn a_plans_guard_is_judged() {
        let p = problems("[{key: {card: ground, nth: 1}, if: {phase_max: 10}}]");
        assert!(
            p[0].message.contains("no action phase 10"),
            "{}",
            p[0].message
        );
    }
}
