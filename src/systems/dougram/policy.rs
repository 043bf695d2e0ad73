//! A side's standing policies (digest 3.2): the choices the rules give a player in the middle
//! of a step, often in the opponent's turn, decided in advance. Stored in the state and
//! replaced part by part by `policies:` in any order file.

use super::cardphase::{self, CardPolicy};
use super::combat::{self, CombatPolicy};
use super::data::Side;
use super::movement::{self, MovementPolicy};
use super::state::State;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policies {
    #[serde(default)]
    pub card: CardPolicy,
    #[serde(default)]
    pub combat: CombatPolicy,
    #[serde(default)]
    pub movement: MovementPolicy,
    /// Fed: 6th Army unit types, best first, for 24.2 and 7.11 placements (by counter id
    /// after the list).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sixth_army: Vec<String>,
}

/// `policies:` in an order file: each part present replaces the stored one (kit::policies).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MovementPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sixth_army: Option<Vec<String>>,
}

/// Problems with a policy patch, located under `at`: each part judged by the legal_* function
/// of the module that owns its rule. The step merges a patch as sent (steps::resolve): it
/// relies on `check` having refused every problem here, and what reads the policies later
/// reads them as valid.
pub fn legal_policies(state: &State, side: Side, u: &PolicyPatch, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(p) = &u.card {
        out.extend(cardphase::legal_card_policy(state, side, p, &at.at("card")));
    }
    if let Some(p) = &u.combat {
        out.extend(combat::legal_combat_policy(
            state,
            side,
            p,
            &at.at("combat"),
        ));
    }
    if let Some(p) = &u.movement {
        out.extend(movement::legal_movement_policy(
            state,
            side,
            p,
            &at.at("movement"),
        ));
    }
    if let Some(list) = &u.sixth_army {
        out.extend(legal_sixth_army(state, side, list, &at.at("sixth_army")));
    }
    out
}

/// Problems with a 6th Army placement order (24.2, 24.3, 7.11): Fed's, unit types of 6th Army
/// counters.
pub fn legal_sixth_army(
    state: &State,
    side: Side,
    list: &[String],
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let defs = state.data.counters.counter_defs();
    for (i, t) in list.iter().enumerate() {
        if side != Side::Fed {
            out.push(Problem::new(
                at.clone(),
                "24.2",
                "only Fed places 6th Army units",
                "leave sixth_army out",
            ));
            break;
        }
        if !defs.values().any(|d| d.sixth_army && d.front.kind == *t) {
            out.push(Problem::new(
                at.at(i),
                "24.3",
                format!("no 6th Army counter has type {t:?}"),
                "a type of a counter line with sixth_army: true in counters.yaml",
            ));
        }
    }
    out
}

/// The policy patches `side` may send in any step, one part and one value each: every value
/// of the card, combat and movement policies their modules list (`*_policy_choices`), and every
/// 6th Army type, each as a list of one, where [`legal_sixth_army`] accepts it.
pub fn policy_choices(state: &State, side: Side) -> Vec<PolicyPatch> {
    let mut out: Vec<PolicyPatch> = Vec::new();
    for c in cardphase::card_policy_choices(state, side) {
        out.push(PolicyPatch {
            card: Some(c),
            ..PolicyPatch::default()
        });
    }
    for c in combat::combat_policy_choices(state, side) {
        out.push(PolicyPatch {
            combat: Some(c),
            ..PolicyPatch::default()
        });
    }
    for m in movement::movement_policy_choices(state, side) {
        out.push(PolicyPatch {
            movement: Some(m),
            ..PolicyPatch::default()
        });
    }
    let types: std::collections::BTreeSet<String> = state
        .data
        .counters
        .counter_defs()
        .into_values()
        .filter(|d| d.sixth_army)
        .map(|d| d.front.kind)
        .collect();
    for t in types {
        let list = vec![t];
        if legal_sixth_army(state, side, &list, &FieldPath::root()).is_empty() {
            out.push(PolicyPatch {
                sixth_army: Some(list),
                ..PolicyPatch::default()
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::policies;
    use crate::yaml;

    #[test]
    fn every_part_of_a_patch_is_a_standing_policy_of_the_same_name_3_2() {
        let text = "card: {keep: [36]}\ncombat: {ap_attack: never}\n\
                    movement: {overstack: {mode: eliminate}}\nsixth_army: [round_facer]\n";
        let patch: PolicyPatch = yaml::parse(text, "o").unwrap();
        let mut p = Policies::default();
        policies::merge(&mut p, &patch).unwrap();
        let changed: PolicyPatch = yaml::parse(&yaml::to_string(&p), "p").unwrap();
        assert_eq!(changed, patch);
    }
}
