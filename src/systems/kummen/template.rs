//! Order skeletons: the `orders:` block for the current step with the legal choices as comments.

use super::data::{Class, Side};
use super::movement::{self, GROUND_MP, HELI_MP};
use super::orders::KINDS;
use super::state::{Place, State, Step};
use super::{survey, view};
use crate::kit::hex::Hex;
use crate::kit::seats::Seat;

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

/// What each policy means and accepts, by key.
fn policy_note(key: &str) -> &'static str {
    match key {
        "rp_target" => "D1 4.3.2: buy 2 RP per BP until RP reach this (0-9); the rest draws units",
        "hex_order" => "D2 9.4: combat hexes you resolve first as phase player; then label order",
        "ps_partner" => {
            "D3 9.8.2, 9.8.6: max_expected_vp | [ids or kinds] (listed first, then max_expected_vp)"
        }
        "pairing" => "D4 9.8.1, as phase player: net_value | best_odds | weakest_first",
        "distribute" => "D5/D6 9.8.3, 9.8.5: focus | even (groups always stay balanced, A6)",
        "targets" => {
            "D7 9.8.4: best_value | best_odds | weakest | strongest | [ids or kinds] (then best_value)"
        }
        "base_targets" => "D8 9.12.3: as targets; who gets the extra base attacks (A10)",
        "retreat" => {
            "D9 9.11: never | outnumbered | two_to_one | outmatched | {after_round: n} | {lost_ge: n}\n\
             | {enemy_has: [ids or kinds]} | {any: [conditions]} | {all: [conditions]}; forced retreats stay automatic"
        }
        "retreat_to" => {
            "D10 9.11.9-9.11.11: hexes: tried first; prefer: own_base, own_units, empty,\n\
             only_facedown_enemy (in your order); split: together | spread"
        }
        "heli_cargo" => {
            "D11 9.13.4: what returning helis carry home: [ids or kinds: at, soldier, kanyu]; [] nothing"
        }
        "heli_triggers" => {
            "D14 7.2: fired in phases 3 and 7b after beeler moves, e.g.\n\
             - {when_beeler_in: [E07, G10], min_units: 1, helis: 1, cargo: [M-AT01], phase: both}"
        }
        "combat_overrides" => "pending per-hex overrides from your last order",
        _ => "",
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
        let mut notes = policy_note(key).lines();
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
        "  # Kinds: {}. Survey targets (8.5) and heli cargo when flying (5.11.5) are orders, not policies.",
        KINDS.join(", ")
    ));
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
    let own: Vec<(String, Hex)> = state
        .units
        .iter()
        .filter(|(id, u)| state.side_of(id) == Some(side) && u.place == Place::Map)
        .filter_map(|(id, u)| u.hex.map(|h| (id.clone(), h)))
        .collect();
    let mut sorted = own.clone();
    sorted.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
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
            out.push(format!(
                "  # Your units on the map (each moves once, {GROUND_MP} MP; helis {HELI_MP} MP, once per turn):"
            ));
            for (id, h) in &sorted {
                out.push(unit_line(state, id, *h));
            }
            out.push("  # Costs (5.4-5.7): clear 1, forest 3, highland 3, river 2 (1 along the river), +1 entering a hex with enemy units.".into());
            out.push("  # Name a unit by its id or by its token (e.g. B#17 / M#9). Actions run in the order listed:".into());
            out.push(
                "  #   - move: {unit: ID, path: [HEX, HEX]}   # the hexes entered, in order".into(),
            );
            out.push(
                "  #   - flip_up: ID                          # 5.2: one of your face-down units"
                    .into(),
            );
            out.push(format!(
                "  #   - hide: [ID, ID]                        # 5.2: face-up units in your home {}, hidden together",
                state.map.home(side)
            ));
            if side == Side::Beeler {
                out.push("  # Entering a hex with mercenary units ends the move (5.9.2); entering Nuba (H08) flips face-up (11.2).".into());
                let hexes: Vec<String> = state
                    .occupied_hexes()
                    .into_iter()
                    .filter(|h| !state.map.is_nuba(*h))
                    .filter(|h| {
                        state
                            .side_units_in(*h, Side::Beeler)
                            .iter()
                            .any(|id| state.class_of(id) == Some(Class::Soldier))
                    })
                    .filter(|h| {
                        state
                            .side_units_in(*h, Side::Beeler)
                            .iter()
                            .any(|id| state.unit(id).is_some_and(|u| u.face_up))
                    })
                    .map(|h| h.label())
                    .collect();
                out.push("  hide_at_start: []".into());
                out.push(format!(
                    "  # 5.9.1: first, hide face-up units in a hex with your soldier (not Nuba): {}",
                    if hexes.is_empty() {
                        "no such hex now".to_string()
                    } else {
                        hexes.join(", ")
                    }
                ));
                out.push("  #   - {hex: M11, units: [B-AT01]}".into());
            } else {
                out.push("  # A move ends on entering a hex with a face-up beeler unit (5.10.1); face-down ones can be passed (5.10.2).".into());
                let helis: Vec<String> = own
                    .iter()
                    .filter(|(id, _)| state.is_heli(id))
                    .filter(|(id, _)| state.unit(id).is_some_and(|u| u.face_up && !u.moved))
                    .map(|(id, _)| id.clone())
                    .collect();
                out.push(format!(
                    "  # Helis that may fly: {} (9 MP, 1 per hex, +1 and stop entering a hex with beeler units; 5.11)",
                    if helis.is_empty() {
                        "none".into()
                    } else {
                        helis.join(", ")
                    }
                ));
                out.push("  #   - heli: {heli: M-H01, path: [HEX, HEX], cargo: M-AT01}   # cargo optional, an AT/soldier in the heli's hex".into());
                let mut hexes: Vec<String> = Vec::new();
                for h in state.occupied_hexes() {
                    if !survey::eligible(state, h).is_empty()
                        && !state.face_down_in(h, Side::Beeler).is_empty()
                    {
                        hexes.push(h.label());
                    }
                }
                out.push("  survey: []".into());
                out.push(format!(
                    "  # Survey (8), judged after your moves; hexes where you could survey now: {}",
                    if hexes.is_empty() {
                        "none".into()
                    } else {
                        hexes.join(", ")
                    }
                ));
                out.push("  #   - {hex: K07, units: [M-AT01], targets: [B#3], stop_after: 1}   # units: default all face-up ATs/soldiers there".into());
                out.push("  #     targets (8.5): tokens flipped first, then the lowest numbers; stop_after (A29): stop rolling after n successes".into());
            }
        }
        Step::B2 => {
            out.push("  react: []".into());
            out.push(title_line);
            out.push(format!(
                "  # Reaction (7.3): {} RP; each move costs 1 RP; 3 MP, or one adjacent hex costing up to 4.",
                state.rp
            ));
            out.push("  # Leaving a hex with face-up mercenary units needs as many face-up units staying (7.3.4).".into());
            out.push("  #   - {unit: ID, path: [HEX]}".into());
            for (id, h) in &sorted {
                if movement::movable(state, side).iter().any(|(m, _)| m == id) {
                    out.push(unit_line(state, id, *h));
                }
            }
            out.push("  reveal: []".into());
            out.push("  # Only face-up units react; list face-down ones here to flip them first (7.3.2).".into());
        }
    }
    out.extend(policy_lines(state, side));
    out.join("\n") + "\n"
}
