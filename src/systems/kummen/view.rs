//! Views: what one reader may know, built only from public facts plus the reader's own secrets.
//!
//! A face-down unit appears as its opaque token (`B#17`) to everyone but its owner; within a hex
//! face-up units come first by id, then tokens by number, so neither names nor order depend on
//! hidden identities. The opponent's cup is a count. Standing policies are private.

use super::data::{Control, PerSide, Side};
use super::orders::Policies;
use super::state::{Modifiers, Place, Stage, State, Step, token_label};
use crate::kit::hex::Hex;
use crate::kit::seats::Seat;
use crate::systems::Reader;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewUnit {
    pub side: Side,
    /// The unit id: face-up units, helis, and the reader's own units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The opaque token of a face-down unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// up | down | active | acted (helis).
    pub face: &'static str,
    /// attack-defense, when the reader may know the unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<String>,
    /// A heli that has moved this turn (5.11.1).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewHex {
    pub hex: Hex,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    pub units: Vec<ViewUnit>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ViewBase {
    pub name: String,
    pub hex: Hex,
    pub bp: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_attack: Option<String>,
    pub control: Control,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub system: &'static str,
    pub reader: String,
    pub turn: u32,
    pub step: String,
    pub waiting_for: Vec<String>,
    pub stage: Stage,
    /// The stage the flipped turn marker announces for the next turn start (12.3, 2.2.6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_stage: Option<Stage>,
    /// The die-check modifiers (2.2.9, A19): escape (12.6), SD arrival and Kiriko (12.10).
    pub modifiers: Modifiers,
    pub vp: PerSide<i64>,
    pub rp: u32,
    pub bases: Vec<ViewBase>,
    pub hexes: Vec<ViewHex>,
    pub cup_counts: PerSide<usize>,
    /// The reader's own cup, in id order (A31).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_cup: Option<Vec<String>>,
    pub stock: Vec<String>,
    pub returning: Vec<String>,
    pub removed: Vec<String>,
    /// The general-offensive marker: its turn for the mercenary side, "drawn" for others (4.5.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offensive: Option<String>,
    /// The reader's own standing policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policies: Option<Policies>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    pub stand_in_data: bool,
}

/// Title and the sides asked, for `phase()` and views.
pub fn step_title(state: &State) -> (String, Vec<Side>) {
    let t = state.turn;
    match state.step {
        Step::Setup => (
            "setup: standing policies (both sides); resolving runs setup and turn 1 reinforcement"
                .into(),
            vec![Side::Mercenary, Side::Beeler],
        ),
        Step::B1 => (
            format!("turn {t}, B1: beeler movement and first combat"),
            vec![Side::Beeler],
        ),
        Step::M1 => (
            format!("turn {t}, M1: mercenary movement and survey"),
            vec![Side::Mercenary],
        ),
        Step::B2 => (
            format!("turn {t}, B2: beeler reaction and second combat"),
            vec![Side::Beeler],
        ),
        Step::Over => (format!("turn {t}: the game is over"), vec![]),
    }
}

fn unit_view(
    state: &State,
    id: &str,
    reader: Option<Side>,
) -> Option<(ViewUnit, (u8, u32, String))> {
    let u = state.unit(id)?;
    let side = state.side_of(id)?;
    let own = reader == Some(side);
    let heli = state.is_heli(id);
    let hidden = !u.face_up && !heli;
    let v = state.values(id);
    let values = Some(format!("{}-{}", v.attack, v.defense));
    let token = if hidden {
        u.token.map(|t| token_label(side, t))
    } else {
        None
    };
    let face = match (heli, u.face_up) {
        (true, true) => "active",
        (true, false) => "acted",
        (false, true) => "up",
        (false, false) => "down",
    };
    let view = ViewUnit {
        side,
        id: (!hidden || own).then(|| id.to_string()),
        token,
        face,
        values: if !hidden || own { values } else { None },
        moved: heli && u.moved,
    };
    // Sort: side, face-up by id, then tokens by number (never by hidden id).
    let side_rank = match side {
        Side::Mercenary => 0,
        Side::Beeler => 1,
    };
    let key = if hidden {
        (side_rank * 2 + 1, u.token.unwrap_or(0), String::new())
    } else {
        (side_rank * 2, 0, id.to_string())
    };
    Some((view, key))
}

pub fn view(state: &State, reader: &Reader) -> View {
    let me = match reader {
        Reader::Side(s) => Side::parse(s),
        Reader::Public => None,
    };
    let (title, waiting) = step_title(state);
    let mut hexes = Vec::new();
    // The units on the map by hex from the state's index (ids in id order within a hex).
    for (hex, ids) in state.units.by_hex() {
        let mut units: Vec<(ViewUnit, (u8, u32, String))> = ids
            .iter()
            .filter_map(|id| unit_view(state, id, me))
            .collect();
        units.sort_by(|a, b| a.1.cmp(&b.1));
        hexes.push(ViewHex {
            hex,
            base: state.map.base_at(hex).map(|b| b.name.clone()),
            units: units.into_iter().map(|(v, _)| v).collect(),
        });
    }
    let bases = state
        .map
        .bases
        .iter()
        .map(|b| ViewBase {
            name: b.name.clone(),
            hex: b.hex,
            bp: b.bp,
            base_attack: b.base_attack.map(|a| format!("{}x{}", a.attack, a.count)),
            control: state.control_of(b.hex),
        })
        .collect();
    let all_off = |place: Place| -> Vec<String> {
        Side::ALL
            .iter()
            .flat_map(|s| state.off_map(*s, place))
            .collect()
    };
    let offensive = state.offensive_turn.map(|t| {
        if me == Some(Side::Mercenary) {
            format!("turn {t}")
        } else {
            "drawn".to_string()
        }
    });
    View {
        system: "kummen",
        reader: me
            .map(|s| s.name().to_string())
            .unwrap_or_else(|| "public".into()),
        turn: state.turn,
        step: title,
        waiting_for: waiting.iter().map(|s| s.name().to_string()).collect(),
        stage: state.stage,
        next_stage: state.next_stage,
        modifiers: state.modifiers.clone(),
        vp: state.vp.clone(),
        rp: state.rp,
        bases,
        hexes,
        cup_counts: state.cups.map(|_, cup| cup.len()),
        own_cup: me.map(|s| {
            let mut v = state.cups.get(s).items.clone();
            v.sort();
            v
        }),
        stock: all_off(Place::Stock),
        returning: all_off(Place::Returning),
        removed: all_off(Place::Removed),
        offensive,
        policies: me.map(|s| state.policies.get(s).clone()),
        ending: state.ending.as_ref().map(|e| e.summary.clone()),
        stand_in_data: state.map.stand_in,
    }
}

/// The view as text.
pub fn render(v: &View) -> String {
    let mut out = String::new();
    let line = |out: &mut String, s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(
        &mut out,
        format!("Kummen campaign (VOTOMS) - view for {}", v.reader),
    );
    line(&mut out, format!("Now: {}", v.step));
    if !v.waiting_for.is_empty() {
        line(
            &mut out,
            format!("Waiting for: {}", v.waiting_for.join(", ")),
        );
    }
    if let Some(e) = &v.ending {
        line(&mut out, format!("Game over: {e}"));
    }
    line(
        &mut out,
        format!(
            "Stage: {}{}   VP: mercenary {}, beeler {}   beeler RP: {}",
            super::stages::name(v.stage),
            v.next_stage
                .map(|s| format!(
                    " (turn marker flipped: {} next turn)",
                    super::stages::name(s)
                ))
                .unwrap_or_default(),
            v.vp[Side::Mercenary],
            v.vp[Side::Beeler],
            v.rp
        ),
    );
    let m = &v.modifiers;
    if *m != Modifiers::default() {
        line(
            &mut out,
            format!(
                "Die-check modifiers (2.2.9): escape +{}, Strike Dog arrival +{}, Kiriko +{}",
                m.escape, m.sd_arrival, m.kiriko
            ),
        );
    }
    if let Some(o) = &v.offensive {
        line(&mut out, format!("General-offensive marker: {o}"));
    }
    line(&mut out, String::new());
    line(&mut out, "Bases:".into());
    for b in &v.bases {
        line(
            &mut out,
            format!(
                "  {:<17} {}  BP {}  {:<18} {}",
                b.name,
                b.hex,
                b.bp,
                b.base_attack
                    .as_ref()
                    .map(|a| format!("base attack {a}"))
                    .unwrap_or_default(),
                super::control::control_name(b.control)
            ),
        );
    }
    line(&mut out, String::new());
    line(&mut out, "Units on the map:".into());
    for h in &v.hexes {
        let units: Vec<String> = h
            .units
            .iter()
            .map(|u| {
                let name = match (&u.token, &u.id) {
                    (Some(t), Some(id)) => format!("{t}={id}"),
                    (Some(t), None) => t.clone(),
                    (None, Some(id)) => id.clone(),
                    (None, None) => "?".into(),
                };
                let mut s = name;
                if let Some(val) = &u.values {
                    s.push_str(&format!(" {val}"));
                }
                match u.face {
                    "down" => s.push_str(" (face-down)"),
                    "acted" => s.push_str(" (acted)"),
                    "active" if u.moved => s.push_str(" (moved)"),
                    _ => {}
                }
                s
            })
            .collect();
        line(
            &mut out,
            format!(
                "  {}{}: {}",
                h.hex,
                h.base.as_ref().map(|b| format!(" {b}")).unwrap_or_default(),
                units.join(", ")
            ),
        );
    }
    line(&mut out, String::new());
    line(
        &mut out,
        format!(
            "Cups: mercenary {} units, beeler {} units",
            v.cup_counts[Side::Mercenary],
            v.cup_counts[Side::Beeler]
        ),
    );
    if let Some(c) = &v.own_cup {
        line(&mut out, format!("Your cup: {}", c.join(", ")));
    }
    line(&mut out, format!("Stock: {}", v.stock.join(", ")));
    if !v.returning.is_empty() {
        line(
            &mut out,
            format!(
                "Returning home at the end of the phase: {}",
                v.returning.join(", ")
            ),
        );
    }
    if !v.removed.is_empty() {
        line(
            &mut out,
            format!("Removed from the game: {}", v.removed.join(", ")),
        );
    }
    if let (Some(p), Some(side)) = (&v.policies, Side::parse(&v.reader)) {
        line(&mut out, String::new());
        line(
            &mut out,
            "Your standing policy (docs/kummen.md \"Policies\"):".into(),
        );
        for (key, value) in p.entries(side) {
            line(&mut out, format!("  {key}: {value}"));
        }
    }
    if v.stand_in_data {
        line(&mut out, String::new());
        line(
            &mut out,
            "Map and counters are stand-ins (the rulebook has no components); see games/kummen/."
                .into(),
        );
    }
    out
}
