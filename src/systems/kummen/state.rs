//! The full game state (host-side; it holds every secret) and the small operations on it that
//! every phase uses: where units are, flipping, tokens, cups.

use super::data::{Class, Control, Counters, Map, PerSide, Role, Side, Values};
use super::orders::Policies;
use super::units::Units;
use crate::kit::cup::Cup;
use crate::kit::hex::Hex;
use crate::kit::shared::Shared;
use crate::protocol::dice::Dice;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a unit is when it is not on the map it has no hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Map,
    /// In its side's reinforcement cup (4.3.4, 9.10.2).
    Cup,
    /// Beside the map, face-up (2.2.12, 15.1, 15.2).
    Stock,
    /// Kan-Yu or a PS destroyed (or a PS that could not retreat): goes home face-up at the end of
    /// the combat phase (9.10.4, 9.11.12).
    Returning,
    /// Removed from the game (9.10.4, 12.9, 13).
    Removed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub place: Place,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<Hex>,
    /// Face-up (2.2.3). For a heli, face-up means active and face-down means acted.
    pub face_up: bool,
    /// The opaque token number while face-down on the map (default A30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<u32>,
    /// A heli that has moved this turn (5.11.1, default A4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
}

/// Which step of the turn the game is at: which submission it waits for (standard mode, digest
/// 3.3). Named `Step` in every system; not to be confused with `Stage`, the campaign stage (12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Both sides send standing policies; resolving runs setup (15), T0 and phase 1 of turn 1.
    Setup,
    /// Beeler: phase 2 movement; then phase 3 (mercenary heli triggers) and phase 4 combat.
    B1,
    /// Mercenary: phase 5 movement and phase 6 survey.
    M1,
    /// Beeler: phase 7a reaction; then 7b (heli triggers), phase 8 combat, turn end, next turn's
    /// phase 1.
    B2,
    /// The game has ended.
    Over,
}

/// The story stage (12); the transitions and their effects are in `stages`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Initial,
    Stage1,
    Stage2,
    Stage3,
    Stage4,
    Stage5,
    Stage6,
    Stage7,
    Stage8,
}

/// Die-check modifiers (2.2.9; default A19: three separate counters).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifiers {
    pub escape: u32,
    pub sd_arrival: u32,
    pub kiriko: u32,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ending {
    pub winner: Option<Side>,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub scenario: String,
    /// The game's component data: in data.yaml, not in the state file (kit::shared).
    #[serde(skip)]
    pub map: Shared<Map>,
    #[serde(skip)]
    pub counters: Shared<Counters>,
    pub turn: u32,
    pub step: Step,
    pub stage: Stage,
    /// A stage change scheduled for the next turn start (12.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_stage: Option<Stage>,
    pub modifiers: Modifiers,
    /// 14.2.3 (A24): Kan-Yu took part from its start in the latest palace combat of the current
    /// combat phase (reset at each combat phase start).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub palace_combat_with_kanyu: bool,
    /// Every unit, with an index by hex (`units`): the file holds the plain map.
    pub units: Units,
    pub cups: PerSide<Cup>,
    /// Controller of every base hex (2.3).
    pub control: BTreeMap<Hex, Control>,
    pub vp: PerSide<i64>,
    /// Beeler reaction points, 0-9 (4.3.5).
    pub rp: u32,
    /// The next token number of each side.
    pub next_token: PerSide<u32>,
    /// Standing policies (private to each side).
    pub policies: PerSide<Policies>,
    /// The drawn general-offensive turn (4.5): drawn in secret in phase 1 of turn 7, or at the end
    /// of an earlier game for 14.2.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offensive_turn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

/// Events of one resolution: public ones and each side's private ones.
pub type Log = crate::kit::events::Log<Side>;

pub fn token_label(side: Side, n: u32) -> String {
    format!("{}#{n}", side.token_prefix())
}

impl State {
    pub fn side_of(&self, id: &str) -> Option<Side> {
        self.counters.side(id)
    }

    pub fn class_of(&self, id: &str) -> Option<Class> {
        self.counters.class(id)
    }

    pub fn role_of(&self, id: &str) -> Option<Role> {
        self.counters.role(id)
    }

    pub fn is_heli(&self, id: &str) -> bool {
        self.class_of(id) == Some(Class::Heli)
    }

    /// Attack and defense now: Kan-Yu uses his boosted values in stages 1, 3 and 4 (2.2.5).
    pub fn values(&self, id: &str) -> Values {
        let Some(t) = self.counters.unit_type(id) else {
            return Values {
                attack: 0,
                defense: 0,
            };
        };
        if t.role == Some(Role::Kanyu) {
            crate::kit::reach::fire("2.2.5");
        }
        if t.role == Some(Role::Kanyu)
            && matches!(self.stage, Stage::Stage1 | Stage::Stage3 | Stage::Stage4)
            && let Some(b) = t.boosted
        {
            return b;
        }
        Values {
            attack: t.attack,
            defense: t.defense,
        }
    }

    /// The unit a side means by `name`: one of its unit ids, or the token (`B#17`) of one of its
    /// face-down units on the map. Tokens are a convenience for order files written before the
    /// draws are known (the owner knows both names).
    pub fn find_own(&self, side: Side, name: &str) -> Option<String> {
        if let Some((prefix, n)) = name.split_once('#') {
            let n: u32 = n.parse().ok()?;
            if prefix != side.token_prefix() {
                return None;
            }
            return self
                .units
                .iter()
                .find(|(id, u)| {
                    self.side_of(id) == Some(side)
                        && u.place == Place::Map
                        && !u.face_up
                        && u.token == Some(n)
                })
                .map(|(id, _)| id.clone());
        }
        self.units.contains_key(name).then(|| name.to_string())
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.get(id)
    }

    pub fn hex_of(&self, id: &str) -> Option<Hex> {
        self.units
            .get(id)
            .filter(|u| u.place == Place::Map)
            .and_then(|u| u.hex)
    }

    /// Units on the map in `hex`, in id order.
    pub fn units_in(&self, hex: Hex) -> Vec<String> {
        self.units.in_hex(hex).to_vec()
    }

    /// The ids on the map in `hex` of `side`'s units that pass `keep`, in id order: the hex's
    /// own units from the index, never a scan of every unit.
    fn side_in<'a>(
        &'a self,
        hex: Hex,
        side: Side,
        keep: impl Fn(&str, &Unit) -> bool + 'a,
    ) -> impl Iterator<Item = &'a String> + 'a {
        self.units.in_hex(hex).iter().filter(move |id| {
            self.side_of(id) == Some(side)
                && self.units.get(id.as_str()).is_some_and(|u| keep(id, u))
        })
    }

    pub fn side_units_in(&self, hex: Hex, side: Side) -> Vec<String> {
        self.side_in(hex, side, |_, _| true).cloned().collect()
    }

    /// Whether `side` has units on the map in `hex`: `side_units_in` without building the list,
    /// for the cost and stop rules that ask it of every hex of a path.
    pub fn has_units(&self, hex: Hex, side: Side) -> bool {
        self.side_in(hex, side, |_, _| true).next().is_some()
    }

    /// Whether `side` has face-up units on the map in `hex`: `active_face_up` without building
    /// the list.
    pub fn has_active_face_up(&self, hex: Hex, side: Side) -> bool {
        self.side_in(hex, side, |_, u| u.face_up).next().is_some()
    }

    /// Face-up units of `side` in `hex` that count as present for fighting and control: acted
    /// helis are inert (default A5).
    pub fn active_face_up(&self, hex: Hex, side: Side) -> Vec<String> {
        self.side_in(hex, side, |_, u| u.face_up).cloned().collect()
    }

    /// Units of `side` in `hex` that are present for control (acted helis ignored, A5).
    pub fn present(&self, hex: Hex, side: Side) -> Vec<String> {
        self.side_in(hex, side, |id, u| !self.is_heli(id) || u.face_up)
            .cloned()
            .collect()
    }

    pub fn face_down_in(&self, hex: Hex, side: Side) -> Vec<String> {
        self.side_in(hex, side, |id, u| !u.face_up && !self.is_heli(id))
            .cloned()
            .collect()
    }

    /// Every hex holding at least one unit, in label order.
    pub fn occupied_hexes(&self) -> Vec<Hex> {
        self.units.occupied().collect()
    }

    pub fn control_of(&self, hex: Hex) -> Control {
        self.control.get(&hex).copied().unwrap_or(Control::Neutral)
    }

    /// How a unit is named in public: its id when face-up, else its token.
    pub fn public_name(&self, id: &str) -> String {
        match self.units.get(id) {
            Some(u) if !u.face_up && u.place == Place::Map && !self.is_heli(id) => {
                match (u.token, self.side_of(id)) {
                    (Some(t), Some(s)) => token_label(s, t),
                    _ => "?".into(),
                }
            }
            _ => id.to_string(),
        }
    }

    fn take_token(&mut self, side: Side) -> u32 {
        let t = self.next_token.get_mut(side);
        *t += 1;
        *t
    }

    /// Places units face-down in `hex` in the given order, each with a fresh token (draw order,
    /// default A30). Returns their token labels.
    pub fn place_face_down(&mut self, ids: &[String], hex: Hex) -> Vec<String> {
        let mut labels = Vec::new();
        for id in ids {
            let Some(side) = self.side_of(id) else {
                continue;
            };
            let t = self.take_token(side);
            // 2.2.3, 6.3: a face-down unit shows only its side's token.
            crate::kit::reach::fire("2.2.3");
            crate::kit::reach::fire("6.3");
            if let Some(mut u) = self.units.get_mut(id) {
                u.place = Place::Map;
                u.hex = Some(hex);
                u.face_up = false;
                u.token = Some(t);
            }
            labels.push(token_label(side, t));
        }
        labels
    }

    /// Flips several units of one side face-down together in one hex: their order is shuffled
    /// with sealed dice before fresh tokens are handed out, so nobody else can tell which token is
    /// which (default A30). Without dice (order checking) the order is kept.
    pub fn hide_together(
        &mut self,
        ids: &[String],
        hex: Hex,
        dice: Option<&mut Dice>,
        label: &str,
    ) -> Vec<String> {
        let mut order: Vec<String> = ids.to_vec();
        order.sort();
        if let Some(d) = dice
            && order.len() > 1
        {
            d.sealed_shuffle(
                label,
                &mut order,
                "units flipped face-down together get tokens",
            );
        }
        self.place_face_down(&order, hex)
    }

    /// Flips a unit face-up; returns the public event text when it was face-down on the map.
    pub fn reveal(&mut self, id: &str) -> Option<String> {
        let name = self.public_name(id);
        let mut u = self.units.get_mut(id)?;
        if u.face_up {
            return None;
        }
        u.face_up = true;
        u.token = None;
        let at = u.hex.map(|h| format!(" in {h}")).unwrap_or_default();
        Some(format!("{name}{at} is {id}"))
    }

    /// Moves a unit on the map (keeps its face and token: A30).
    pub fn set_hex(&mut self, id: &str, hex: Hex) {
        if let Some(mut u) = self.units.get_mut(id) {
            u.place = Place::Map;
            u.hex = Some(hex);
        }
    }

    /// Takes a unit off the map to `place`.
    pub fn set_off_map(&mut self, id: &str, place: Place, face_up: bool) {
        if place == Place::Stock {
            crate::kit::reach::fire("2.2.12");
        }
        if let Some(mut u) = self.units.get_mut(id) {
            u.place = place;
            u.hex = None;
            u.token = None;
            u.face_up = face_up;
            u.moved = false;
        }
        if place == Place::Cup
            && let Some(side) = self.side_of(id)
        {
            self.cups.get_mut(side).put(id);
        }
    }

    /// Units of a side at a place off the map, in id order.
    pub fn off_map(&self, side: Side, place: Place) -> Vec<String> {
        self.units
            .iter()
            .filter(|(id, u)| u.place == place && self.side_of(id) == Some(side))
            .map(|(id, _)| id.clone())
            .collect()
    }

    pub fn label_prefix(&self, phase: &str) -> String {
        format!("t{}/{phase}", self.turn)
    }
}

/// Swaps the identities of `side`'s hidden units (face-down on the map, and in its cup) by the
/// permutation `perm` (a reordering of 0..n over those units in id order, cup after map), keeping
/// every token, hex and cup position. The rules' views must not be able to tell the difference;
/// the leak tests use this. `None` when `perm` is not a permutation of `0..hidden_slots()`, so a
/// test can never pass by comparing a state with itself.
pub fn permute_hidden(state: &State, side: Side, perm: &[usize]) -> Option<State> {
    let slots = hidden_slots(state, side);
    let n = slots.len();
    let mut seen = vec![false; n];
    if perm.len() != n
        || perm
            .iter()
            .any(|&p| p >= n || std::mem::replace(&mut seen[p], true))
    {
        return None;
    }
    let mut out = state.clone();
    // Slot i (a location) receives unit slots[perm[i]].
    let mut new_cup = Vec::new();
    let map_slots = n - state.cups.get(side).len();
    for (i, &p) in perm.iter().enumerate() {
        if let Some(loc) = state.units.get(&slots[i]) {
            out.units.insert(slots[p].clone(), loc.clone());
        }
        if i >= map_slots {
            new_cup.push(slots[p].clone());
        }
    }
    out.cups.get_mut(side).items = new_cup;
    Some(out)
}

/// The ids of `side`'s hidden units: face-down on the map in id order, then its cup in order.
pub fn hidden_slots(state: &State, side: Side) -> Vec<String> {
    let mut slots: Vec<String> = state
        .units
        .iter()
        .filter(|(id, u)| {
            state.side_of(id) == Some(side)
                && u.place == Place::Map
                && !u.face_up
                && !state.is_heli(id)
        })
        .map(|(id, _)| id.clone())
        .collect();
    slots.extend(state.cups.get(side).items.iter().cloned());
    slots
}
