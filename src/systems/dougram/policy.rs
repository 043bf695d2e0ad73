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

/// Problems with an update, located under `at`.
pub fn check(state: &State, side: Side, u: &PolicyPatch, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(p) = &u.card {
        out.extend(cardphase::check_policy(state, side, p, &at.at("card")));
    }
    if let Some(p) = &u.combat {
        out.extend(combat::check_policy(state, side, p, &at.at("combat")));
    }
    if let Some(p) = &u.movement {
        out.extend(movement::check_policy(state, side, p, &at.at("movement")));
    }
    if let Some(list) = &u.sixth_army {
        let defs = state.data.counters.counter_defs();
        for (i, t) in list.iter().enumerate() {
            if side != Side::Fed {
                out.push(Problem::new(
                    at.at("sixth_army"),
                    "24.2",
                    "only Fed places 6th Army units",
                    "leave sixth_army out",
                ));
                break;
            }
            if !defs.values().any(|d| d.sixth_army && d.front.kind == *t) {
                out.push(Problem::new(
                    at.at("sixth_army").at(i),
                    "24.3",
                    format!("no 6th Army counter has type {t:?}"),
                    "a type of a counter line with sixth_army: true in counters.yaml",
                ));
            }
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
