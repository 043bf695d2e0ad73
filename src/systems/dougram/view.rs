//! What each reader may know (digest 2.3). Units, control, the stock, open and removed cards
//! and face-up discards are public. Hidden: hands (owner only), deck order (nobody), face-down
//! discards (owner only), latent chit values (Lib only, 2.5), box chit values (the box owner,
//! 2.6), the cup (nobody: a count). Chits are shown by token, never by id.

use super::data::{HexId, Side};
use super::policy::Policies;
use super::state::{Chit, ChitAt, Finish, State, Step, UnitAt};
use crate::kit::deck::SeenDiscard;
use crate::kit::seats::Seat;
use crate::systems::Reader;
use serde::Serialize;
use std::collections::BTreeMap;

/// Whether `reader` may know this chit's value.
pub fn chit_visible(state: &State, c: &Chit, reader: Side) -> bool {
    if state.finished.is_some() && c.at != ChitAt::Cup {
        return true; // the game is over: every chit still out is shown (digest 9)
    }
    match &c.at {
        ChitAt::Cup => false,
        ChitAt::Hex(_) => reader == Side::Lib, // 2.5
        ChitAt::Box(b) => state
            .data
            .counters
            .boxes
            .iter()
            .any(|x| x.id == *b && x.owner == reader), // 2.6
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    pub side: Side,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub damaged: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChitView {
    pub token: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ZonesView {
    pub hand_size: usize,
    /// The owner's own hand only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<u32>>,
    pub deck_size: usize,
    pub discard: Vec<SeenDiscard<u32>>,
    pub pending_discard: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub reader: String,
    pub scenario: String,
    pub turn: u32,
    pub step: Step,
    /// Units on the map, by hex, then by counter id.
    pub map: BTreeMap<HexId, BTreeMap<String, UnitView>>,
    pub replenishment_box: BTreeMap<String, UnitView>,
    pub stock_units: usize,
    /// Latent chits by hex, in token order.
    pub latent: BTreeMap<HexId, Vec<ChitView>>,
    /// Play-sheet boxes: chits in token order.
    pub boxes: BTreeMap<String, Vec<ChitView>>,
    pub cup: usize,
    pub cards: BTreeMap<String, ZonesView>,
    pub stock_cards: Vec<u32>,
    pub open_cards: Vec<u32>,
    pub removed_cards: Vec<u32>,
    pub control: BTreeMap<String, Side>,
    pub lib_vp: u32,
    /// Place names by hex, for the text.
    #[serde(skip)]
    pub places: BTreeMap<HexId, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished: Option<Finish>,
    /// The reader's own standing policies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policies: Option<Policies>,
}

pub fn view(state: &State, reader: &Reader) -> View {
    let me = match reader {
        Reader::Side(s) => Side::parse(s),
        Reader::Public => None,
    };
    let unit_view = |id: &str| UnitView {
        side: state.units[id].side,
        kind: state.unit_type(id).unwrap_or("?").to_string(),
        damaged: state.units[id].damaged,
    };
    let mut map: BTreeMap<HexId, BTreeMap<String, UnitView>> = BTreeMap::new();
    let mut rbox = BTreeMap::new();
    for (id, u) in &state.units {
        match u.at {
            UnitAt::Hex(h) => {
                map.entry(h).or_default().insert(id.clone(), unit_view(id));
            }
            UnitAt::ReplenishmentBox => {
                rbox.insert(id.clone(), unit_view(id));
            }
            _ => {}
        }
    }
    let chit_view = |c: &Chit| ChitView {
        token: c.token.unwrap_or(0),
        value: me.filter(|s| chit_visible(state, c, *s)).map(|_| c.value),
    };
    let mut latent: BTreeMap<HexId, Vec<ChitView>> = BTreeMap::new();
    let mut boxes: BTreeMap<String, Vec<ChitView>> = state
        .data
        .counters
        .boxes
        .iter()
        .map(|b| (b.id.clone(), Vec::new()))
        .collect();
    for c in state.chits.values() {
        match &c.at {
            ChitAt::Hex(h) => latent.entry(*h).or_default().push(chit_view(c)),
            ChitAt::Box(b) => boxes.entry(b.clone()).or_default().push(chit_view(c)),
            ChitAt::Cup => {}
        }
    }
    for v in latent.values_mut().chain(boxes.values_mut()) {
        v.sort_by_key(|c| c.token);
    }
    let mut cards = BTreeMap::new();
    for &side in Side::ALL {
        let z = state.cards.get(side);
        // At the end every hand and discard is shown (digest 9: publish the hidden state).
        let mine = me == Some(side) || state.finished.is_some();
        cards.insert(
            side.name().to_string(),
            ZonesView {
                hand_size: z.hand.len(),
                hand: mine.then(|| z.hand.cards().to_vec()),
                deck_size: z.deck.draw_pile.len(),
                discard: z.deck.discard_seen(mine),
                pending_discard: *state.pending_discard.get(side),
            },
        );
    }
    View {
        reader: me.map(|s| s.name()).unwrap_or("public").to_string(),
        scenario: state.scenario.clone(),
        turn: state.turn,
        step: state.step,
        map,
        replenishment_box: rbox,
        stock_units: state
            .units
            .values()
            .filter(|u| u.at == UnitAt::Stock)
            .count(),
        latent,
        boxes,
        cup: state.cup().len(),
        cards,
        stock_cards: state.stock.iter().copied().collect(),
        open_cards: state.open.iter().copied().collect(),
        removed_cards: state.removed.iter().copied().collect(),
        control: state.control.clone(),
        lib_vp: state.lib_vp(),
        places: state
            .data
            .map
            .places
            .iter()
            .map(|p| (p.hex, p.en.clone()))
            .collect(),
        finished: state.finished.clone(),
        policies: me.map(|s| state.policies.get(s).clone()),
    }
}

fn place_name(state_places: &BTreeMap<HexId, String>, h: HexId) -> String {
    match state_places.get(&h) {
        Some(n) => format!("hex {h} ({n})"),
        None => format!("hex {h}"),
    }
}

fn chits_text(v: &[ChitView]) -> String {
    v.iter()
        .map(|c| match c.value {
            Some(x) => format!("#{}={x}", c.token),
            None => format!("#{}", c.token),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn cards_text(v: &[u32]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The view as text, from the view alone.
pub fn render(v: &View) -> String {
    let mut out = Vec::new();
    let step = match v.step {
        Step::Setup => "setup".to_string(),
        Step::Lib => "Lib player-turn".to_string(),
        Step::Fed => "Fed player-turn".to_string(),
    };
    out.push(format!(
        "Dougram ({}), turn {}, {step}; view of {}",
        v.scenario, v.turn, v.reader
    ));
    if let Some(f) = &v.finished {
        out.push(format!(
            "GAME OVER: {} wins ({}, {})",
            f.winner.name(),
            f.reason,
            f.rule
        ));
    }
    let control: Vec<String> = v
        .control
        .iter()
        .map(|(p, s)| format!("{p} {}", s.name()))
        .collect();
    out.push(format!("Control (3): {}", control.join(", ")));
    out.push(format!("Lib VP (20.3): {}", v.lib_vp));
    out.push("Map:".into());
    let mut hexes: Vec<HexId> = v.map.keys().chain(v.latent.keys()).copied().collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        let mut parts = Vec::new();
        for &side in Side::ALL {
            let units: Vec<String> = v
                .map
                .get(&h)
                .into_iter()
                .flatten()
                .filter(|(_, u)| u.side == side)
                .map(|(id, u)| {
                    format!(
                        "{id} {}{}",
                        u.kind,
                        if u.damaged { " (damaged)" } else { "" }
                    )
                })
                .collect();
            if !units.is_empty() {
                parts.push(format!("{}: {}", side.name(), units.join(", ")));
            }
        }
        if let Some(c) = v.latent.get(&h).filter(|c| !c.is_empty()) {
            parts.push(format!("latent chits {}", chits_text(c)));
        }
        out.push(format!(
            "  {}: {}",
            place_name(&v.places, h),
            parts.join("; ")
        ));
    }
    let rbox: Vec<String> = v
        .replenishment_box
        .iter()
        .map(|(id, u)| format!("{id} {}", u.kind))
        .collect();
    out.push(format!(
        "Replenishment box (17.6): {}",
        if rbox.is_empty() {
            "empty".into()
        } else {
            rbox.join(", ")
        }
    ));
    out.push(format!("Units in the stock: {}", v.stock_units));
    for (b, c) in &v.boxes {
        if !c.is_empty() {
            out.push(format!("Box {b}: {}", chits_text(c)));
        }
    }
    out.push(format!("Chits in the cup: {}", v.cup));
    for (side, z) in &v.cards {
        let discard: Vec<String> = z
            .discard
            .iter()
            .map(|d| match d.card {
                Some(c) if d.face_down => format!("{c} (face down)"),
                Some(c) => c.to_string(),
                None => "?".into(),
            })
            .collect();
        out.push(format!(
            "Cards of {side}: hand {}{}, deck {}, discard [{}]{}",
            z.hand_size,
            z.hand
                .as_ref()
                .map(|h| format!(" ({})", cards_text(h)))
                .unwrap_or_default(),
            z.deck_size,
            discard.join(", "),
            if z.pending_discard {
                "; must discard 1 with the next orders (5.4)"
            } else {
                ""
            }
        ));
    }
    out.push(format!("Open cards: {}", cards_text(&v.open_cards)));
    out.push(format!("Removed cards: {}", cards_text(&v.removed_cards)));
    out.push(format!("Stock cards: {}", cards_text(&v.stock_cards)));
    out.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::cardphase::card_phase;
    use crate::systems::dougram::fixtures::{dealt, dice};

    fn side(s: &str) -> Reader {
        Reader::Side(s.into())
    }

    #[test]
    fn only_lib_sees_latent_values_2_5() {
        let s = dealt("setup1", 41);
        let l = view(&s, &side("lib"));
        let f = view(&s, &side("fed"));
        let p = view(&s, &Reader::Public);
        assert!(l.latent.values().flatten().all(|c| c.value.is_some()));
        assert!(f.latent.values().flatten().all(|c| c.value.is_none()));
        assert!(p.latent.values().flatten().all(|c| c.value.is_none()));
        assert_eq!(l.latent.values().flatten().count(), 13);
        assert_eq!(f.latent.values().flatten().count(), 13);
    }

    #[test]
    fn box_values_are_the_owners_only_2_6() {
        let s = dealt("setup2", 42);
        let l = view(&s, &side("lib"));
        let f = view(&s, &side("fed"));
        assert!(l.boxes["saltsev"].iter().all(|c| c.value.is_some()));
        assert!(f.boxes["saltsev"].iter().all(|c| c.value.is_none()));
        assert!(f.boxes["sixth_army"].iter().all(|c| c.value.is_some()));
        assert!(l.boxes["sixth_army"].iter().all(|c| c.value.is_none()));
        assert_eq!(l.boxes["deloyan_people"].len(), 6);
    }

    #[test]
    fn hands_and_face_down_discards_are_the_owners_only_2_10_5_6() {
        let mut s = dealt("setup1", 43);
        s.turn = 2;
        s.policies[Side::Lib].card.keep_none = true;
        card_phase(&mut s, Side::Lib, &mut dice(44), "t2");
        let l = view(&s, &side("lib"));
        let f = view(&s, &side("fed"));
        assert_eq!(l.cards["lib"].hand.as_ref().unwrap().len(), 6);
        assert!(f.cards["lib"].hand.is_none());
        assert_eq!(f.cards["lib"].hand_size, 6);
        assert!(
            f.cards["lib"]
                .discard
                .iter()
                .all(|d| d.card.is_none() && d.face_down)
        );
        assert!(l.cards["lib"].discard.iter().all(|d| d.card.is_some()));
        assert!(l.cards["fed"].hand.is_none());
        let p = view(&s, &Reader::Public);
        assert!(p.cards.values().all(|z| z.hand.is_none()) && p.policies.is_none());
    }
}
