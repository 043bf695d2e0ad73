//! The full game state. Hidden facts live here next to public ones; [`super::view`] decides who
//! sees what (digest 2.3). Chit ids (`K01`...) are internal and never shown: a chit on the map or
//! a sheet is shown by its opaque token, handed out in placement order, so neither an id nor a
//! token says anything about a value.

use super::cards::{Card, Flag};
use super::data::{Class, Data, HexId, PerSide, Side};
use super::policy::Policies;
use crate::kit::cup::Cup;
use crate::kit::deck::{Deck, Hand};
use crate::kit::seats::TwoSeats;
use crate::kit::shared::Shared;
use crate::protocol::dice::Dice;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a counter is (2.8: everything off the map and sheets is in the stock).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitAt {
    Stock,
    Hex(HexId),
    /// The Replenishment box printed on the map (17.6).
    ReplenishmentBox,
    Removed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub at: UnitAt,
    /// The face in use decides the side (2.2, default A45).
    pub side: Side,
    /// A two-step unit on its back side (21).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub damaged: bool,
}

/// Where a random chit is (2.4-2.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChitAt {
    Cup,
    /// A latent chit (2.5).
    Hex(HexId),
    /// A play-sheet box (2.6).
    Box(String),
}

/// A chit. Its value is sealed: only [`super::view`] decides who may read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chit {
    pub value: u32,
    pub at: ChitAt,
    /// Opaque token while out of the cup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<u32>,
}

/// One side's own card zones (2.11): its hand and its deck (draw pile, top first, which nobody
/// sees the order of (5.5), and discard pile, each card face up when both sides saw it: played,
/// or taken from the open stock).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zones {
    pub hand: Hand<u32>,
    pub deck: Deck<u32>,
}

/// Which step of the turn the game is at: which submission it waits for (docs/dougram.md,
/// step model). Named `Step` in every system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Step 1: the deal (28.x.2.2, 28.x.3 chits); both sides may send standing policies.
    Setup,
    /// A Lib player-turn (4.1).
    Lib,
    /// A Fed player-turn (4.1).
    Fed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    pub scenario: String,
    /// The game's component data: in data.yaml, not in the state file (kit::shared).
    #[serde(skip)]
    pub data: Shared<Data>,
    pub turn: u32,
    pub step: Step,
    pub units: BTreeMap<String, Unit>,
    pub chits: BTreeMap<String, Chit>,
    pub next_token: u32,
    pub cards: PerSide<Zones>,
    /// Cards in the shared, open stock (2.8).
    pub stock: BTreeSet<u32>,
    pub open: BTreeSet<u32>,
    pub removed: BTreeSet<u32>,
    /// Controller of each city (3), by place id.
    pub control: BTreeMap<String, Side>,
    pub policies: PerSide<Policies>,
    /// 5.4: the hand reached 7; the owner discards one at the top of its next submission.
    pub pending_discard: PerSide<bool>,
    /// Set by the victory check (20); the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<Finish>,
}

/// How the game ended (20.2, 20.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Finish {
    pub winner: Side,
    /// The rule that decided it, e.g. "20.3.2".
    pub rule: String,
    pub reason: String,
}

impl State {
    /// The side whose player-turn is being resolved.
    pub fn phasing(&self) -> Option<Side> {
        match self.step {
            Step::Setup => None,
            Step::Lib => Some(Side::Lib),
            Step::Fed => Some(Side::Fed),
        }
    }

    pub fn card(&self, no: u32) -> Option<&Card> {
        self.data.cards.cards.iter().find(|c| c.no == no)
    }

    /// Flags of open cards (digest 6.4).
    pub fn flag(&self, f: &Flag) -> bool {
        self.open
            .iter()
            .filter_map(|n| self.card(*n))
            .any(|c| c.while_open.contains(f))
    }

    pub fn unit_type(&self, id: &str) -> Option<&str> {
        let u = self.units.get(id)?;
        let line = self.data.counters.counter_line(id)?;
        let face = if line.front.side == u.side {
            &line.front
        } else {
            line.back.as_ref()?
        };
        Some(self.data.counters.types.get_key_value(&face.kind)?.0)
    }

    /// Soldier or CBA (2.1), by the face in use.
    pub fn class_of(&self, id: &str) -> Option<Class> {
        self.unit_type(id)
            .and_then(|t| self.data.counters.types.get(t))
            .map(|t| t.class)
    }

    /// One of the mercenary types (2.9).
    pub fn is_mercenary(&self, id: &str) -> bool {
        self.unit_type(id)
            .and_then(|t| self.data.counters.types.get(t))
            .is_some_and(|t| t.mercenary)
    }

    /// Units of `side` in hex `h`.
    pub fn units_in(&self, h: HexId, side: Side) -> Vec<&str> {
        self.units
            .iter()
            .filter(|(_, u)| u.at == UnitAt::Hex(h) && u.side == side)
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// Chit ids in the cup in canonical (id) order: draws index this list, so an index says
    /// nothing about a value (digest 4.5).
    pub fn cup(&self) -> Vec<String> {
        self.chits
            .iter()
            .filter(|(_, c)| c.at == ChitAt::Cup)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Moves chit `id` out of the cup to `at`, with a fresh token.
    pub fn place_chit(&mut self, id: &str, at: ChitAt) {
        self.next_token += 1;
        let token = self.next_token;
        if let Some(c) = self.chits.get_mut(id) {
            c.at = at;
            c.token = Some(token);
        }
    }

    /// Draws up to `n` chits blind from the cup (2.4) to `at`, with sealed labels
    /// `<label>/<k>`; fewer when the cup runs empty (digest 4.2 default). Returns their ids.
    pub fn draw_chits(
        &mut self,
        dice: &mut Dice,
        label: &str,
        n: usize,
        at: ChitAt,
    ) -> Vec<String> {
        let mut cup = Cup::new(self.cup());
        let ids = cup.draw_many(dice, label, n, "chit from the cup (2.4)");
        for id in &ids {
            self.place_chit(id, at.clone());
        }
        ids
    }

    /// Puts counter `id` in the stock with its front face up, as at setup (2.8).
    pub fn to_stock(&mut self, id: &str) {
        let side = self.data.counters.counter_def(id).map(|d| d.front.side);
        if let (Some(side), Some(u)) = (side, self.units.get_mut(id)) {
            // 2.8 (the stock), front face up (2.2).
            crate::kit::reach::fire("2.8");
            crate::kit::reach::fire("2.2");
            *u = Unit {
                at: UnitAt::Stock,
                side,
                damaged: false,
            };
        }
    }

    /// A used or removed chit goes straight back to the cup (2.7) and loses its token.
    pub fn return_chit(&mut self, id: &str) {
        if let Some(c) = self.chits.get_mut(id) {
            crate::kit::reach::fire("2.7");
            c.at = ChitAt::Cup;
            c.token = None;
        }
    }

    /// Control of every city (3.2, 3.3a), defaults A2 (Lib needs at least one unit) and A3
    /// (Lib units over the stack limit do not count before card 29).
    pub fn recompute_control(&mut self) {
        let mut out = BTreeMap::new();
        for p in self.data.map.places.iter().filter(|p| p.city) {
            out.insert(p.id.clone(), self.control_by_units(p.hex));
        }
        self.control = out;
    }

    /// Who the units in city hex `h` give control to now (3.2, 3.3a), whatever the last
    /// control check found.
    pub fn control_by_units(&self, h: HexId) -> Side {
        let l = self.units_in(h, Side::Lib).len();
        let f = self.units_in(h, Side::Fed).len();
        let lib = if self.flag(&Flag::LibGovernment) {
            l > f // 3.3a: more units; a tie is Fed's
        } else {
            let l = l.min(4); // 3.2, 8.4.1
            l >= 1 && l >= 3 * f
        };
        if lib { Side::Lib } else { Side::Fed }
    }

    /// VP of the cities Lib controls (20.3).
    pub fn lib_vp(&self) -> u32 {
        self.data
            .map
            .places
            .iter()
            .filter(|p| p.city && self.control.get(&p.id) == Some(&Side::Lib))
            .map(|p| p.vp)
            .sum()
    }

    /// Soldiers and CBAs of `side` in a hex.
    pub fn count_class(&self, h: HexId, side: Side, class: Class) -> usize {
        self.units_in(h, side)
            .iter()
            .filter(|id| {
                self.unit_type(id)
                    .and_then(|t| self.data.counters.types.get(t))
                    .is_some_and(|t| t.class == class)
            })
            .count()
    }
}

/// A state that differs from `state` only in facts `reader` may not know: the other side's
/// hidden cards (hand, deck, face-down discards) are reassigned among those slots, `reader`'s
/// own deck order is reshuffled, and the values of the chits `reader` may not see are permuted
/// among themselves. `pick(n)` returns an index below `n`.
pub fn permute_hidden(state: &State, reader: Side, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut out = state.clone();
    let z = out.cards.get_mut(reader.other());
    z.deck.permute_hidden(&mut z.hand, pick);
    // The reader's own deck order (5.5: nobody sees it).
    out.cards.get_mut(reader).deck.permute_draw_pile(pick);
    // Chit values the reader may not see.
    let hidden: Vec<String> = state
        .chits
        .iter()
        .filter(|(_, c)| !super::view::chit_visible(state, c, reader))
        .map(|(id, _)| id.clone())
        .collect();
    let mut values: Vec<u32> = hidden.iter().map(|id| state.chits[id].value).collect();
    for i in (1..values.len()).rev() {
        values.swap(i, pick(i + 1));
    }
    for (id, v) in hidden.iter().zip(values) {
        if let Some(c) = out.chits.get_mut(id) {
            c.value = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::fixtures::{dealt, dice};

    #[test]
    fn chits_are_drawn_sealed_and_go_back_to_the_cup_2_4_2_7() {
        let mut s = dealt("setup1", 51);
        let before = s.cup().len();
        let mut d = dice(52);
        let ids = s.draw_chits(&mut d, "t1/latent/57", 2, ChitAt::Hex(57));
        assert_eq!(ids.len(), 2);
        assert_eq!(s.cup().len(), before - 2);
        let t = d.finish().unwrap();
        assert!(t.public.is_empty());
        assert_eq!(t.sealed.len(), 2);
        assert_eq!(s.chits[&ids[0]].token, Some(15));
        s.return_chit(&ids[0]);
        assert_eq!(s.cup().len(), before - 1);
        assert_eq!(s.chits[&ids[0]].token, None);
    }

    #[test]
    fn an_empty_cup_yields_nothing() {
        let mut s = dealt("setup1", 53);
        let n = s.cup().len();
        let ids = s.draw_chits(&mut dice(54), "x", n + 5, ChitAt::Hex(57));
        assert_eq!(ids.len(), n);
        assert!(s.cup().is_empty());
    }

    #[test]
    fn control_with_card_29_open_is_by_majority_tie_to_fed_3_3a() {
        let mut s = dealt("setup1", 55);
        let spa = s.data.map.hex_of("spa");
        // Spa: Fed 3 units, Lib 2. Add 1 Lib: a tie, then 2 more: a majority.
        let spare: Vec<String> = s
            .units
            .iter()
            .filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with("SO"))
            .map(|(id, _)| id.clone())
            .take(3)
            .collect();
        s.open.insert(29);
        let put = |s: &mut State, id: &str| {
            s.units.insert(
                id.to_string(),
                Unit {
                    at: UnitAt::Hex(spa),
                    side: Side::Lib,
                    damaged: false,
                },
            );
        };
        put(&mut s, &spare[0]);
        s.recompute_control();
        assert_eq!(s.control["spa"], Side::Fed);
        put(&mut s, &spare[1]);
        s.recompute_control();
        assert_eq!(s.control["spa"], Side::Lib);
        // Without 29 Lib needs 3 times Fed's 3 units (3.2): 4 is not enough.
        s.open.remove(&29);
        s.recompute_control();
        assert_eq!(s.control["spa"], Side::Fed);
        assert_eq!(s.lib_vp(), 0);
    }
}
