//! Order skeletons: the `orders:` block for the current step with the legal choices as comments.
//!
//! Every choice listed comes from `steps::choices` (units, hexes, helis, cargo, survey hexes,
//! reactions) or from the lists the legality of each policy uses (its keywords and the kinds a
//! priority list accepts), never from a copy of a rule: `check` accepts each on its own
//! (kummen::legal_tests).

use super::data::Side;
use super::movement::{GROUND_MP, HELI_MP};
use super::orders::{
    Distribute, HexKind, MoveOrder, Pairing, PsRule, RetreatWhen, Split, TargetRule, TriggerPhase,
    flow,
};
use super::reinforce::RP_MAX;
use super::state::{Place, State, Step};
use super::steps::{self, Choices};
use super::{reinforce, survey, tactics, view};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use std::collections::BTreeMap;

fn unit_line(state: &State, id: &str, hex: Hex) -> String {
    let u = state.unit(id);
    let face = match u {
        Some(u) if state.is_heli(id) && u.face_up && !u.moved => "active".to_string(),
        Some(u) if state.is_heli(id) && u.face_up => "moved this turn".to_string(),
        Some(_) if state.is_heli(id) => "acted".to_string(),
        Some(u) if u.face_up => "face-up".to_string(),
        Some(_) => format!("face-down as {}", state.public_name(id)),
        None => String::new(),
    };
    let v = state.values(id);
    let base = state
        .map
        .base_at(hex)
        .map(|b| format!(" ({})", b.name))
        .unwrap_or_default();
    format!(
        "  #   {id:<10} {hex}{base} {}-{} {face}",
        v.attack, v.defense
    )
}

/// Keywords in flow style, joined by ` | `.
fn keywords<T: serde::Serialize>(all: &[T]) -> String {
    all.iter().map(flow).collect::<Vec<_>>().join(" | ")
}

/// What each policy means and accepts, by key; the accepted keywords and kinds are the lists
/// the policy's legality uses.
fn policy_note(key: &str) -> String {
    match key {
        "rp_target" => format!(
            "D1 4.3.2: buy 2 RP per BP until RP reach this (0-{RP_MAX}); the rest draws units"
        ),
        "draw_until" => format!(
            "D1 4.3.2, A28: stop drawing units {{units: n}} drawn, or once one of\n\
             {{drawn: [ids or kinds: {}]}} comes out; the BP left buy 2 RP each; {{}} never",
            reinforce::CUP_KINDS.join(", ")
        ),
        "hex_order" => {
            "D2 9.4: combat hexes you resolve first as phase player; then label order".into()
        }
        "ps_partner" => format!(
            "D3 9.8.2, 9.8.6: {} | [ids or kinds] (listed first, then max_expected_vp)",
            keywords(&PsRule::ALL)
        ),
        "pairing" => format!("D4 9.8.1, as phase player: {}", keywords(&Pairing::ALL)),
        "distribute" => format!(
            "D5/D6 9.8.3, 9.8.5: {} (groups always stay balanced: ruling A6, docs/kummen.md)",
            keywords(&Distribute::ALL)
        ),
        "targets" => format!(
            "D7 9.8.4: {} | [ids or kinds] (then best_value)",
            keywords(&TargetRule::ALL)
        ),
        "base_targets" => {
            "D8 9.12.3: as targets; who gets the extra base attacks (ruling A10, docs/kummen.md)"
                .into()
        }
        "retreat" => format!(
            "D9 9.11: {} | {{after_round: n}} | {{lost_ge: n}}\n\
             | {{enemy_has: [ids or kinds]}} | {{any: [conditions]}} | {{all: [conditions]}}; forced retreats stay automatic",
            keywords(&RetreatWhen::KEYWORDS)
        ),
        "retreat_to" => format!(
            "D10 9.11.9-9.11.11: hexes: tried first; prefer: {}\n\
             (in your order); split: {}; 9.11.9 splits: groups: [{{units: [ids or kinds],\n\
             hexes: [..], prefer: [..], split: ..}}], each unit with the first group naming it",
            HexKind::ALL.iter().map(flow).collect::<Vec<_>>().join(", "),
            keywords(&Split::ALL)
        ),
        "heli_cargo" => format!(
            "D11 9.13.4: what returning helis carry home: [ids or kinds: {}]; [] nothing",
            tactics::CARGO_KINDS.join(", ")
        ),
        "heli_triggers" => format!(
            "D14 7.2: fired in phases 3 and 7b after beeler moves, e.g.\n\
             - {{when_beeler_in: [E07, G10], min_units: 1, helis: 1, cargo: [M-AT01], phase: both}}\n\
             - {{when_no_mercenary_in: [G10], to: G10, cargo: [M-AT02]}}   # hold an empty base\n\
             to: destination (default the watched hex); path: [hexes from EX-10] (default cheapest)\n\
             phase: {}; cargo: ids of your ATs and soldiers (never Kiriko: ruling A3, docs/kummen.md)",
            keywords(&TriggerPhase::ALL)
        ),
        "combat_overrides" => "pending per-hex overrides from your last order".into(),
        _ => String::new(),
    }
}

fn policy_lines(state: &State, side: Side) -> Vec<String> {
    let p = state.policies.get(side);
    let mut v = vec![
        "  policies: {}".to_string(),
        "  # Standing policy, kept until you change it; write only the keys you change. Now:"
            .to_string(),
    ];
    for (key, value) in p.entries(side) {
        let setting = format!("{key}: {value}");
        let note = policy_note(key);
        let mut notes = note.lines();
        let first = notes.next().unwrap_or("");
        if setting.len() <= 28 {
            v.push(format!("  #   {setting:<28} # {first}"));
        } else {
            v.push(format!("  #   {setting}"));
            v.push(format!("  #   {:<28} # {first}", ""));
        }
        for n in notes {
            v.push(format!("  #   {:<28} #   {}", "", n.trim()));
        }
    }
    v.push(format!(
        "  # Kinds naming {} units (ps_partner, targets, base_targets, enemy_has): {}.",
        side.other().name(),
        tactics::enemy_kinds(side).join(", ")
    ));
    v.push(
        "  # Survey targets (8.5) and heli cargo when flying (5.11.5) are orders, not policies."
            .into(),
    );
    v.push("  combat_overrides: []".into());
    let when = match (side, state.step) {
        (Side::Mercenary, Step::M1) => "the second combat (phase 8, resolved in step B2)",
        (Side::Mercenary, _) => "your next combat phase",
        (Side::Beeler, Step::Setup) => "the first combat of turn 1 (step B1)",
        (Side::Beeler, _) => "the combat of this step only",
    };
    v.push(format!(
        "  # Per-hex combat policies for {when}; any key from ps_partner to retreat_to, and heli_cargo:"
    ));
    v.push("  #   - {hex: K07, retreat: never, targets: [kanyu, at]}".into());
    v
}

/// `items` after `head`, or `none`, wrapped into comment lines of at most about 100 columns.
fn listing(head: &str, items: &[String], none: &str) -> Vec<String> {
    if items.is_empty() {
        return vec![format!("{head}{none}")];
    }
    let mut out = Vec::new();
    let mut line = head.to_string();
    let indent = "  #       ";
    for (k, item) in items.iter().enumerate() {
        let piece = if k + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() + piece.len() + 1 > 100 && line.len() > indent.len() {
            out.push(line);
            line = indent.to_string();
        } else if !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push(line);
    out
}

/// Where the units of `moves` can end a move: units with the same start and the same ends on
/// one line.
fn reach_lines(state: &State, moves: &[MoveOrder]) -> Vec<String> {
    let mut ends: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for m in moves {
        if let Some(h) = m.path.last() {
            ends.entry(m.unit.as_str()).or_default().push(h.label());
        }
    }
    let mut groups: BTreeMap<(Option<Hex>, Vec<String>), Vec<&str>> = BTreeMap::new();
    for (unit, mut hexes) in ends {
        hexes.sort();
        groups
            .entry((state.hex_of(unit), hexes))
            .or_default()
            .push(unit);
    }
    let mut out = Vec::new();
    for ((from, hexes), units) in groups {
        let from = from.map(|h| h.label()).unwrap_or_default();
        let units: Vec<String> = units.iter().map(|u| u.to_string()).collect();
        out.extend(listing(&format!("  #   from {from}:"), &units, ""));
        out.extend(listing("  #     to", &hexes, ""));
    }
    out
}

/// Own units by their owner's names: the id, with the token of a face-down one.
fn named(state: &State, ids: &[String]) -> Vec<String> {
    ids.iter()
        .map(|id| {
            let public = state.public_name(id);
            if public == *id {
                id.clone()
            } else {
                format!("{id} ({public})")
            }
        })
        .collect()
}

fn movement_lines(state: &State, side: Side, c: &Choices, own: &[(String, Hex)]) -> Vec<String> {
    let mut out = vec![format!(
        "  # Your units on the map (each moves once, {GROUND_MP} MP; helis {HELI_MP} MP, once per turn):"
    )];
    for (id, h) in own {
        out.push(unit_line(state, id, *h));
    }
    out.push("  # Costs (5.4-5.7): clear 1, forest 3, highland 3, river 2 (1 along the river), +1 entering a hex with enemy units.".into());
    out.push("  # Where each unit can end a move now (5.3-5.10; `move` lists the hexes entered, e.g. a shortest route):".into());
    if c.moves.is_empty() {
        out.push("  #   no unit can move".into());
    }
    out.extend(reach_lines(state, &c.moves));
    out.push("  # Name a unit by its id or by its token (e.g. B#17 / M#9). Actions run in the order listed:".into());
    out.push("  #   - move: {unit: ID, path: [HEX, HEX]}   # the hexes entered, in order".into());
    out.extend(listing(
        "  #   - flip_up: ID                          # 5.2: one of your face-down units:",
        &named(state, &c.flip_up),
        " none now",
    ));
    out.extend(listing(
        &format!(
            "  #   - hide: [ID, ID]                        # 5.2: face-up units in your home {}, hidden together:",
            state.map.home(side)
        ),
        &c.hide,
        " none now",
    ));
    out
}

fn beeler_movement_lines(c: &Choices) -> Vec<String> {
    let hexes: Vec<String> = c.hide_at_start.iter().map(|g| g.hex.label()).collect();
    let mut out = vec![
        "  # Entering a hex with mercenary units ends the move (5.9.2); entering Nuba (H08) flips face-up (11.2).".into(),
        "  hide_at_start: []".into(),
    ];
    out.extend(listing(
        "  # 5.9.1: first, hide face-up units in a hex with your soldier (not Nuba):",
        &hexes,
        " no such hex now",
    ));
    out.push("  #   - {hex: M11, units: [B-AT01]}".into());
    out
}

fn mercenary_movement_lines(state: &State, c: &Choices) -> Vec<String> {
    let mut out = vec!["  # A move ends on entering a hex with a face-up beeler unit (5.10.1); face-down ones can be passed (5.10.2).".into()];
    out.push("  # Helis that may fly (9 MP, 1 per hex, +1 and stop entering a hex with beeler units; 5.11)".into());
    out.push("  # and what each may carry from its hex (5.11.5):".into());
    let mut helis: BTreeMap<(Option<Hex>, &Vec<String>), Vec<&str>> = BTreeMap::new();
    for (heli, cargo) in &c.cargo {
        helis
            .entry((state.hex_of(heli), cargo))
            .or_default()
            .push(heli);
    }
    if helis.is_empty() {
        out.push("  #   none".into());
    }
    for ((from, cargo), ids) in helis {
        let from = from.map(|h| format!(" from {h}")).unwrap_or_default();
        out.extend(listing(
            &format!("  #   {}{from}; cargo:", ids.join(", ")),
            &named(state, cargo),
            " none",
        ));
    }
    out.push("  #   - heli: {heli: M-H01, path: [HEX, HEX], cargo: M-AT01}   # cargo optional, an AT/soldier in the heli's hex".into());
    out.push("  survey: []".into());
    let hexes: Vec<String> = c
        .survey
        .iter()
        .map(|o| {
            let tokens: Vec<String> = state
                .face_down_in(o.hex, Side::Beeler)
                .iter()
                .map(|id| state.public_name(id))
                .collect();
            format!(
                "{} (units {}; tokens {})",
                o.hex,
                survey::eligible(state, o.hex).join(" "),
                tokens.join(" ")
            )
        })
        .collect();
    out.extend(listing(
        "  # Survey (8), judged after your moves; hexes where you could survey now:",
        &hexes,
        " none",
    ));
    out.push("  #   - {hex: K07, units: [M-AT01], targets: [B#3], stop_after: 1}   # units: default all face-up ATs/soldiers there".into());
    out.push("  #     targets (8.5): tokens flipped first, then the lowest numbers; stop_after (ruling A29, docs/kummen.md): stop rolling after n successes".into());
    out
}

fn reaction_lines(state: &State, c: &Choices) -> Vec<String> {
    let mut out = vec![format!(
        "  # Reaction (7.3): {} RP; each move costs 1 RP; 3 MP, or one adjacent hex costing up to 4.",
        state.rp
    )];
    out.push("  # Leaving a hex with face-up mercenary units needs as many face-up units staying (7.3.4).".into());
    out.push("  #   - {unit: ID, path: [HEX]}".into());
    out.push("  # Units that may react now, and where each can end (7.3.3-7.3.6):".into());
    let mut units: Vec<&str> = c.react.iter().map(|m| m.unit.as_str()).collect();
    units.dedup();
    for id in &units {
        if let Some(h) = state.hex_of(id) {
            out.push(unit_line(state, id, h));
        }
    }
    if units.is_empty() {
        out.push("  #   none".into());
    }
    out.extend(reach_lines(state, &c.react));
    out.push("  reveal: []".into());
    out.extend(listing(
        "  # Only face-up units react; list face-down ones here to flip them first (7.3.2):",
        &named(state, &c.reveal),
        " none",
    ));
    out
}

/// The skeleton. serde-saphyr limits comment lines before the first key of a mapping, so every
/// block starts with a key and the explanations follow it.
pub fn template(state: &State, side_name: &str) -> String {
    let Some(side) = Side::parse(side_name) else {
        return format!(
            "orders: {{}}\n  # no side {side_name:?} in kummen ({})\n",
            Side::listing()
        );
    };
    let (title, asked) = view::step_title(state);
    if !asked.contains(&side) || state.step == Step::Over {
        return format!(
            "orders: {{}}\n  # {title}\n  # the {} side has nothing to send in this step\n",
            side.name()
        );
    }
    let mut own: Vec<(String, Hex)> = state
        .units
        .iter()
        .filter(|(id, u)| state.side_of(id) == Some(side) && u.place == Place::Map)
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .collect();
    own.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    let c = steps::choices(state, side);
    let title_line = format!("  # {title}");
    let mut out = vec!["orders:".to_string()];
    match state.step {
        Step::Setup | Step::Over => {
            out.extend(policy_lines(state, side));
            out.insert(2, title_line);
            out.insert(
                3,
                "  # Setup has no choices (15): only standing policies.".into(),
            );
            return out.join("\n") + "\n";
        }
        Step::B1 | Step::M1 => {
            out.push("  actions: []".into());
            out.push(title_line);
            out.extend(movement_lines(state, side, &c, &own));
            if side == Side::Beeler {
                out.extend(beeler_movement_lines(&c));
            } else {
                out.extend(mercenary_movement_lines(state, &c));
            }
        }
        Step::B2 => {
            out.push("  react: []".into());
            out.push(title_line);
            out.extend(reaction_lines(state, &c));
        }
    }
    out.extend(policy_lines(state, side));
    out.join("\n") + "\n"
}
