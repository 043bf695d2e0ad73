//! What a side may write under `orders:` and the standing policies it may set.
//!
//! One `Orders` type serves every step; `check` refuses the parts that do not belong to the
//! current step and side. Every list defaults to empty, so `orders: {}` is always well-formed.

use crate::kit::hex::Hex;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Replaces the named standing policies (any step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyPatch>,
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
}

/// When a side chooses to retreat after a combat round (9.11; policy D9). Forced retreats
/// (9.11.3, 9.11.4) happen whatever this says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetreatWhen {
    /// Keep fighting unless forced.
    Never,
    /// Retreat when fewer of your face-up units than the enemy's remain in the hex.
    #[default]
    Outnumbered,
    /// Retreat when the enemy has at least twice as many face-up units in the hex.
    TwoToOne,
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

fn one() -> u32 {
    1
}

/// A mercenary heli reaction given in advance (7.2; policy D14): when at least `min_units`
/// beeler units (either face) stand in one of `when_beeler_in`, send `helis` helis from EX-10 to
/// the first such hex, carrying the listed `cargo` units (one per heli) if they are still at
/// EX-10.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeliTrigger {
    pub when_beeler_in: Vec<Hex>,
    #[serde(default = "one")]
    pub min_units: u32,
    #[serde(default = "one")]
    pub helis: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cargo: Vec<String>,
    #[serde(default)]
    pub phase: TriggerPhase,
}

/// A side's standing policies. Defaults are documented in docs/kummen.md.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Beeler (D1, 4.3.2): spend base points on 2 RP each until RP reach this, the rest on
    /// units; BP left when the cup is empty become RP. Default 0: every BP draws a unit.
    #[serde(default)]
    pub rp_target: u32,
    /// D2 (9.4): combat hexes this side resolves first when it is the phase player; the others
    /// follow in label order.
    #[serde(default)]
    pub hex_order: Vec<Hex>,
    /// D9 (9.11).
    #[serde(default)]
    pub retreat: RetreatWhen,
    /// Mercenary (D14, 7.2).
    #[serde(default)]
    pub heli_triggers: Vec<HeliTrigger>,
}

/// The policies an order replaces; fields left out keep their standing value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rp_target: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex_order: Option<Vec<Hex>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<RetreatWhen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heli_triggers: Option<Vec<HeliTrigger>>,
}

impl Policy {
    pub fn apply(&mut self, patch: &PolicyPatch) {
        if let Some(v) = patch.rp_target {
            self.rp_target = v;
        }
        if let Some(v) = &patch.hex_order {
            self.hex_order = v.clone();
        }
        if let Some(v) = patch.retreat {
            self.retreat = v;
        }
        if let Some(v) = &patch.heli_triggers {
            self.heli_triggers = v.clone();
        }
    }
}

impl RetreatWhen {
    /// Whether a side with `own` face-up units against `enemy` chooses to retreat.
    pub fn wants(self, own: usize, enemy: usize) -> bool {
        match self {
            RetreatWhen::Never => false,
            RetreatWhen::Outnumbered => own < enemy,
            RetreatWhen::TwoToOne => enemy >= 2 * own.max(1),
        }
    }
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
        let mut p = Policy {
            rp_target: 4,
            ..Policy::default()
        };
        let patch: PolicyPatch = yaml::parse("retreat: never\n", "o").unwrap();
        p.apply(&patch);
        assert_eq!(p.rp_target, 4);
        assert_eq!(p.retreat, RetreatWhen::Never);
    }

    #[test]
    fn retreat_when_outnumbered_9_11() {
        assert!(RetreatWhen::Outnumbered.wants(1, 2));
        assert!(!RetreatWhen::Outnumbered.wants(2, 2));
        assert!(RetreatWhen::TwoToOne.wants(2, 4));
        assert!(!RetreatWhen::TwoToOne.wants(2, 3));
        assert!(!RetreatWhen::Never.wants(1, 9));
    }
}
