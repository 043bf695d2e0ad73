//! Reaction phases (7): mercenary helis by standing triggers (7.2) and beeler reaction moves
//! with reaction points (7.3).
//!
//! Legality of the items: `legal_react` (a reaction move), `movement::legal_flip_up` with rule
//! 7.3.2 (a reveal) and `legal_heli_triggers` (the standing triggers); `react_choices` lists the
//! legal reaction moves from `legal_react`. A heli reaction is judged when it fires, by the
//! movement rules' own `can_fly`, `legal_cargo` and `heli_route`.

use super::data::Side;
use super::movement::{self, Allowance, LegalMove, MovementPhase};
use super::orders::{HeliTrigger, MoveOrder, TriggerPhase};
use super::state::{Log, State};
use crate::kit::hex::Hex;
use crate::kit::reach::fire;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// Problems with the standing heli triggers `ts` sent by `side` (7.2, 5.11.5), the list at `p`.
pub fn legal_heli_triggers(
    state: &State,
    side: Side,
    ts: &[HeliTrigger],
    p: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Mercenary {
        out.push(Problem::new(
            p.clone(),
            "7.2",
            "only the mercenary side has helis",
            "leave heli_triggers out",
        ));
    }
    let ex10 = state.map.home(Side::Mercenary);
    for (i, t) in ts.iter().enumerate() {
        let tp = p.at(i);
        if t.when_beeler_in.is_empty() && t.to.is_none() && t.path.is_none() {
            out.push(Problem::new(
                tp.at("when_beeler_in"),
                "7.2",
                "a trigger needs hexes to watch or a destination",
                "when_beeler_in: [hexes], e.g. [E07, G10], or to: a hex",
            ));
        }
        for key in ["when_beeler_in", "when_no_mercenary_in"] {
            let list = if key == "when_beeler_in" {
                &t.when_beeler_in
            } else {
                &t.when_no_mercenary_in
            };
            for (k, h) in list.iter().enumerate() {
                if !state.map.grid.contains(*h) {
                    out.push(Problem::new(
                        tp.at(key).at(k),
                        "7.2",
                        format!("{h} is off the map"),
                        "hexes on the map",
                    ));
                }
            }
        }
        if let Some(to) = t.to {
            if !state.map.grid.contains(to) {
                out.push(Problem::new(
                    tp.at("to"),
                    "7.2",
                    format!("{to} is off the map"),
                    "a hex on the map",
                ));
            } else if to == ex10 {
                out.push(Problem::new(
                    tp.at("to"),
                    "7.2.2",
                    format!("{to} is EX-10, where the helis start"),
                    "another hex",
                ));
            }
        }
        if let Some(path) = &t.path {
            out.extend(legal_trigger_path(state, t.to, path, &tp.at("path")));
        }
        if t.helis == 0 {
            out.push(Problem::new(
                tp.at("helis"),
                "7.2",
                "send at least one heli",
                "1 or more",
            ));
        }
        for (k, c) in t.cargo.iter().enumerate() {
            if !trigger_cargo_ok(state, c) {
                out.push(Problem::new(
                    tp.at("cargo").at(k),
                    "5.11.5",
                    format!("{c} is not a mercenary AT or soldier a heli may carry"),
                    format!(
                        "ids of your ATs and soldiers (never Kiriko: {})",
                        super::ruling("5.11.5", "A3", "Kiriko is never carried")
                    ),
                ));
            }
        }
    }
    out
}

/// Problems with the flight path of a heli trigger at `p` (5.11, 7.2.2): it starts at EX-10,
/// each hex next to the one before, at most 9 hexes (5.3: 9 MP, 1 per hex, 5.11.3), on the map,
/// and it ends at `to` when both are given. What depends on the moment (enemy units on the way
/// cost +1 and end the flight, 5.11.4) is judged when the trigger fires, by
/// `movement::legal_flight_path`.
pub fn legal_trigger_path(
    state: &State,
    to: Option<Hex>,
    path: &[Hex],
    p: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(last) = path.last() else {
        return vec![Problem::new(
            p.clone(),
            "5.11",
            "an empty path",
            "the hexes entered from EX-10, e.g. [C08, D07]",
        )];
    };
    if path.len() > movement::HELI_MP as usize {
        out.push(Problem::new(
            p.clone(),
            "5.11.3",
            format!(
                "{} hexes cost {} MP; a heli has {}",
                path.len(),
                path.len(),
                movement::HELI_MP
            ),
            format!("at most {} hexes", movement::HELI_MP),
        ));
    }
    let mut at = state.map.home(Side::Mercenary);
    for (k, h) in path.iter().enumerate() {
        if !state.map.grid.contains(*h) {
            out.push(Problem::new(
                p.at(k),
                "5.11",
                format!("{h} is off the map"),
                "hexes on the map",
            ));
            return out;
        }
        if state.map.grid.distance(at, *h) != 1 {
            out.push(Problem::new(
                p.at(k),
                "5.11",
                format!("{h} is not next to {at}"),
                format!("a hex next to {at}"),
            ));
            return out;
        }
        at = *h;
    }
    if let Some(to) = to
        && to != *last
    {
        out.push(Problem::new(
            p.at(path.len() - 1),
            "7.2",
            format!("the path ends in {last}, not in the trigger's destination {to}"),
            format!("a path ending in {to}"),
        ));
    }
    out
}

/// The paths a heli trigger may give: the cheapest route from EX-10 to each hex a heli
/// reaches from there on the empty map (`legal_trigger_path` accepts each).
pub fn trigger_path_choices(state: &State) -> Vec<Vec<Hex>> {
    let ex10 = state.map.home(Side::Mercenary);
    let mut empty = state.clone();
    empty.units.clear();
    let reach = movement::reach(
        &empty,
        movement::MoverKind::Heli,
        Side::Mercenary,
        ex10,
        movement::HELI_MP,
        |_| true,
    );
    reach
        .hexes()
        .into_iter()
        .filter_map(|h| reach.route(h).map(|(path, _)| path))
        .collect()
}

/// Where trigger `t` sends its helis now, if it fires (7.2; policy D14): every condition given
/// holds, and the destination is `to`, else the end of `path`, else the first watched hex
/// holding at least `min_units` beeler units (either face).
pub fn trigger_target(state: &State, t: &HeliTrigger) -> Option<Hex> {
    let watched = if t.when_beeler_in.is_empty() {
        None
    } else {
        let found =
            t.when_beeler_in.iter().copied().find(|h| {
                state.side_units_in(*h, Side::Beeler).len() >= t.min_units.max(1) as usize
            });
        Some(found?)
    };
    // Acted helis are inert (A5): they do not hold a hex.
    if t.when_no_mercenary_in
        .iter()
        .any(|h| !state.present(*h, Side::Mercenary).is_empty())
    {
        return None;
    }
    t.to.or_else(|| t.path.as_ref().and_then(|p| p.last().copied()))
        .or(watched)
}

/// Whether a trigger may name `c` as cargo: a mercenary unit a heli may carry (5.11.5, A3).
/// Where it is and whether it has moved are judged when the trigger fires (`legal_cargo`).
fn trigger_cargo_ok(state: &State, c: &str) -> bool {
    state.side_of(c) == Some(Side::Mercenary) && movement::carriable(state, c)
}

/// The hexes a heli trigger may watch: every hex of the map.
pub fn trigger_hex_choices(state: &State) -> Vec<Hex> {
    state.map.grid.all()
}

/// The destinations a heli trigger may give (`to`): every hex of the map but EX-10, where the
/// helis start (7.2.2).
pub fn trigger_destination_choices(state: &State) -> Vec<Hex> {
    let ex10 = state.map.home(Side::Mercenary);
    state
        .map
        .grid
        .all()
        .into_iter()
        .filter(|h| *h != ex10)
        .collect()
}

/// The unit ids a heli trigger may name as cargo.
pub fn trigger_cargo_choices(state: &State) -> Vec<String> {
    state
        .counters
        .units
        .keys()
        .filter(|c| trigger_cargo_ok(state, c))
        .cloned()
        .collect()
}

/// 7.2: mercenary helis at EX-10 that are active and have not moved this turn react by the
/// standing triggers (policy D14), in the order listed. `second` is phase 7b, else phase 3.
/// The triggers passed `legal_heli_triggers` when they were set; what depends on the moment
/// (which heli may fly, which cargo is still at EX-10, the route) is judged here by the
/// movement rules' `can_fly`, `legal_cargo` and `heli_route`.
pub fn heli_reaction(state: &mut State, log: &mut Log, second: bool) {
    let phase = if second { "p7b" } else { "p3" };
    let tag = state.label_prefix(phase);
    let triggers = state.policies[Side::Mercenary].heli_triggers.clone();
    let live: Vec<_> = triggers
        .iter()
        .enumerate()
        .filter(|(_, t)| match t.phase {
            TriggerPhase::Both => true,
            TriggerPhase::First => !second,
            TriggerPhase::Second => second,
        })
        .collect();
    if live.is_empty() {
        log.public(format!("{tag}: no mercenary heli reaction (7.2)"));
        return;
    }
    // 7.2.3: a face-up beeler unit in EX-10 grounds every heli.
    if movement::home_blocked(state) {
        fire("7.2.3");
        log.public(format!(
            "{tag}: a face-up beeler unit is in EX-10: no heli may react (7.2.3)"
        ));
        return;
    }
    let ex10 = state.map.home(Side::Mercenary);
    let mut any = false;
    let mut ph = MovementPhase::new(state, Side::Mercenary, None, log, phase);
    let policy = FieldPath::root().at("policies").at("heli_triggers");
    for (i, t) in live {
        let Some(target) = trigger_target(ph.state, t) else {
            continue;
        };
        let mut cargo = t.cargo.iter().enumerate();
        for _ in 0..t.helis {
            // 7.2.2, 5.11.1, 5.11.2: active helis at EX-10 not moved this turn, by id.
            let heli = ph
                .state
                .side_units_in(ex10, Side::Mercenary)
                .into_iter()
                .find(|id| movement::can_fly(ph.state, id, &policy.at(i)).is_ok());
            let Some(heli) = heli else {
                ph.log.public(format!(
                    "{}: no heli left at EX-10 for the reaction to {target}",
                    ph.tag
                ));
                break;
            };
            let path = match &t.path {
                // A path given is judged now, with the units where they are (5.11.4).
                Some(path) => {
                    let at = policy.at(i).at("path");
                    match movement::legal_flight_path(
                        ph.state,
                        Side::Mercenary,
                        &heli,
                        ex10,
                        path,
                        &at,
                    ) {
                        Ok(()) => path.clone(),
                        Err(problem) => {
                            ph.log.private(
                                Side::Mercenary,
                                format!(
                                    "{}: heli trigger {} not carried out: {}: {} ({})",
                                    ph.tag,
                                    i + 1,
                                    problem.path,
                                    problem.message,
                                    problem.rule.as_deref().unwrap_or("7.2")
                                ),
                            );
                            break;
                        }
                    }
                }
                None => match movement::heli_route(ph.state, ex10, target) {
                    Some((path, _)) => path,
                    None => {
                        ph.log.public(format!(
                            "{}: {target} is out of heli reach from EX-10 (5.3, 5.11.4)",
                            ph.tag
                        ));
                        break;
                    }
                },
            };
            // 7.2.4, 5.11.5: the next listed cargo still at EX-10 and not yet carried.
            let load = cargo.by_ref().find_map(|(k, c)| {
                let at = policy.at(i).at("cargo").at(k);
                movement::legal_cargo(ph.state, Side::Mercenary, &ph.moved, ex10, c, &at).ok()
            });
            fire("7.2.2");
            if second {
                fire("7.2.1");
            }
            if load.is_some() {
                fire("7.2.4");
            }
            ph.fly(&heli, ex10, &path, load.as_deref(), "reaction, 7.2");
            any = true;
        }
    }
    if !any {
        ph.log
            .public(format!("{}: no heli trigger fired (7.2)", ph.tag));
    }
}

/// Whether the beeler side may make the reaction move `m` (at `p`) now, with `moved` the units
/// that have reacted: `legal_reactor` for the unit, then the path within 3 MP or one adjacent
/// hex of up to 4 (`movement::legal_path`, 7.3.5, 7.3.6).
pub fn legal_react(
    state: &State,
    moved: &BTreeSet<String>,
    m: &MoveOrder,
    p: &FieldPath,
) -> Result<LegalMove, Problem> {
    let (id, start) = legal_reactor(state, moved, &m.unit, &p.at("unit"))?;
    movement::legal_path(
        state,
        Side::Beeler,
        &id,
        start,
        &m.path,
        Allowance::Reaction,
        &p.at("path"),
    )?;
    Ok(LegalMove {
        unit: id,
        start,
        path: m.path.clone(),
    })
}

/// Whether the beeler side may make a reaction move with `name` (at `p`, the move's `unit`
/// field) now, wherever it goes: a face-up unit (7.3.2, 7.3.3), an RP left to pay (7.3.3),
/// enough face-up units staying to pin face-up mercenary units (7.3.4), and a unit that may
/// move at all (`movement::legal_mover`). The unit's id and hex.
pub fn legal_reactor(
    state: &State,
    moved: &BTreeSet<String>,
    name: &str,
    p: &FieldPath,
) -> Result<(String, Hex), Problem> {
    let (id, start) = movement::own_unit(state, Side::Beeler, name, p)?;
    if !state.unit(&id).is_some_and(|u| u.face_up) {
        return Err(Problem::new(
            p.clone(),
            "7.3.3",
            format!("{id} is face-down; only face-up units react"),
            "a face-up unit, or list it under `reveal` first (7.3.2)",
        ));
    }
    if state.rp == 0 {
        return Err(Problem::new(
            p.clone(),
            "7.3.3",
            format!("no reaction points left to move {name}"),
            "at most as many reaction moves as RP",
        ));
    }
    let enemies = state.active_face_up(start, Side::Mercenary).len();
    if enemies > 0 {
        let staying = state
            .active_face_up(start, Side::Beeler)
            .into_iter()
            .filter(|u| *u != id)
            .count();
        if staying < enemies {
            return Err(Problem::new(
                p.clone(),
                "7.3.4",
                format!(
                    "{id} may leave {start} only if {enemies} face-up beeler units stay to pin the {enemies} face-up mercenary units; {staying} would stay"
                ),
                "move another unit in first (chained reaction) or leave this one",
            ));
        }
    }
    movement::legal_mover(state, Side::Beeler, moved, name, p)
}

/// Every legal reaction move now, one per unit and hex it can end in: the units
/// `legal_reactor` lets react, the paths `movement::legal_path` accepts (together,
/// `legal_react`).
pub fn react_choices(state: &State, moved: &BTreeSet<String>) -> Vec<MoveOrder> {
    let here = FieldPath::root();
    let reactors = state
        .units
        .keys()
        .filter(|id| state.side_of(id) == Some(Side::Beeler))
        .filter_map(|id| legal_reactor(state, moved, id, &here).ok())
        .collect();
    movement::moves_of(state, Side::Beeler, reactors, Allowance::Reaction)
}

/// The face-down units the beeler side may reveal before its reaction moves (7.3.2).
pub fn reveal_choices(state: &State) -> Vec<String> {
    movement::flip_up_choices(state, Side::Beeler, "7.3.2")
}

/// 7.3: beeler reaction. All reveals first (7.3.2), then moves of face-up units at 1 RP each
/// (7.3.3), 3 MP or one adjacent hex of up to 4 (7.3.5, 7.3.6), leaving a hex with face-up
/// mercenary units only if enough face-up units stay to pin them (7.3.4).
pub fn beeler_reaction(
    state: &mut State,
    reveal: &[String],
    react: &[MoveOrder],
    dice: Option<&mut Dice>,
    log: &mut Log,
) -> Vec<Problem> {
    let mut ph = MovementPhase::new(state, Side::Beeler, dice, log, "p7a");
    let root = FieldPath::root().at("orders");
    for (i, id) in reveal.iter().enumerate() {
        ph.flip_up_by_rule(id, &root.at("reveal").at(i), "7.3.2");
    }
    for (i, m) in react.iter().enumerate() {
        match legal_react(ph.state, &ph.moved, m, &root.at("react").at(i)) {
            Ok(mv) => {
                // 7.1, 7.3.1, 7.3.3-7.3.6: a face-up unit's reaction move in the second
                // reaction phase, paid with 1 RP, of 3 MP or one adjacent hex of up to 4,
                // leaving behind enough face-up units to pin the face-up mercenary units.
                for r in ["7.1", "7.3.1", "7.3.3", "7.3.5"] {
                    fire(r);
                }
                if !ph
                    .state
                    .active_face_up(mv.start, Side::Mercenary)
                    .is_empty()
                {
                    fire("7.3.4");
                }
                if mv.path.len() == 1 {
                    let kind = movement::MoverKind::Beeler;
                    let cost =
                        movement::step_cost(ph.state, kind, Side::Beeler, mv.start, mv.path[0]);
                    if cost > movement::REACTION_MP {
                        fire("7.3.6");
                    }
                }
                ph.carry_out_move(mv);
                ph.state.rp -= 1;
            }
            Err(e) => ph.problems.push(e),
        }
    }
    let rp = ph.state.rp;
    let tag = ph.tag.clone();
    let problems = std::mem::take(&mut ph.problems);
    drop(ph);
    log.public(format!("{tag}: beeler reaction done, {rp} RP left (7.3.3)"));
    problems
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::orders::HeliTrigger;
    use super::*;
    use crate::kit::hex::Hex;

    fn trigger(hex: &str, cargo: &[&str]) -> HeliTrigger {
        HeliTrigger {
            when_beeler_in: vec![h(hex)],
            cargo: cargo.iter().map(|c| c.to_string()).collect(),
            ..HeliTrigger::default()
        }
    }

    #[test]
    fn heli_trigger_flies_with_cargo_flipped_face_up_7_2_5_11_5() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.place_face_down(&["M-AT01".to_string()], h("B08"));
        s.place_face_down(&["B-SO01".to_string()], h("E07"));
        s.policies[Side::Mercenary].heli_triggers = vec![trigger("E07", &["M-AT01"])];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("E07")));
        assert_eq!(s.hex_of("M-AT01"), Some(h("E07")));
        assert!(s.unit("M-AT01").unwrap().face_up);
        assert!(s.unit("M-H01").unwrap().moved);
    }

    #[test]
    fn a_heli_trigger_may_send_a_heli_to_hold_an_empty_base_7_2() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.place_face_down(&["M-AT01".to_string()], h("B08"));
        // No beeler unit anywhere: the trigger names a destination and a condition of its own.
        s.policies[Side::Mercenary].heli_triggers = vec![HeliTrigger {
            when_no_mercenary_in: vec![h("G10")],
            to: Some(h("G10")),
            cargo: vec!["M-AT01".into()],
            ..HeliTrigger::default()
        }];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("G10")), "{:?}", log.public);
        assert_eq!(s.hex_of("M-AT01"), Some(h("G10")));
    }

    #[test]
    fn a_heli_trigger_waits_while_a_mercenary_unit_holds_its_hex_7_2() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.set_hex("M-AT02", h("G10"));
        s.policies[Side::Mercenary].heli_triggers = vec![HeliTrigger {
            when_no_mercenary_in: vec![h("G10")],
            to: Some(h("G10")),
            ..HeliTrigger::default()
        }];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
        assert!(
            log.public
                .iter()
                .any(|e| e.contains("no heli trigger fired"))
        );
    }

    #[test]
    fn a_heli_trigger_flies_the_path_it_names_not_the_cheapest_7_2_5_11() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.place_face_down(&["B-SO01".to_string()], h("E07"));
        let cheapest = movement::heli_route(&s, h("B08"), h("E07")).unwrap().0;
        let path: Vec<Hex> = ["C09", "D08", "E08", "E07"].iter().map(|x| h(x)).collect();
        assert_ne!(cheapest, path);
        s.policies[Side::Mercenary].heli_triggers = vec![HeliTrigger {
            path: Some(path),
            ..trigger("E07", &[])
        }];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("E07")));
        assert!(
            log.public.iter().any(|e| e.contains("B08→C09→D08→E08→E07")),
            "{:?}",
            log.public
        );
    }

    #[test]
    fn a_trigger_path_an_enemy_cuts_short_is_not_flown_and_its_side_is_told_5_11_4() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.place_face_down(&["B-SO01".to_string()], h("E07"));
        // A beeler unit on the way ends the flight there (5.11.4): the path cannot go on.
        s.place_face_down(&["B-SO02".to_string()], h("D08"));
        let path: Vec<Hex> = ["C09", "D08", "E08", "E07"].iter().map(|x| h(x)).collect();
        s.policies[Side::Mercenary].heli_triggers = vec![HeliTrigger {
            path: Some(path),
            ..trigger("E07", &[])
        }];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
        let told = &log.private[Side::Mercenary];
        assert!(
            told.iter()
                .any(|e| e.contains("heli trigger 1 not carried out")),
            "{told:?}"
        );
    }

    #[test]
    fn no_heli_reacts_with_a_face_up_beeler_unit_in_ex10_7_2_3() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.set_hex("B-AT01", h("B08"));
        s.place_face_down(&["B-SO01".to_string()], h("E07"));
        s.policies[Side::Mercenary].heli_triggers = vec![trigger("E07", &[])];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, false);
        assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
        assert!(log.public.iter().any(|e| e.contains("7.2.3")));
    }

    #[test]
    fn a_heli_that_moved_this_turn_does_not_react_again_5_11_1() {
        let mut s = blank();
        s.set_hex("M-H01", h("B08"));
        s.units.get_mut("M-H01").unwrap().moved = true;
        s.place_face_down(&["B-SO01".to_string()], h("E07"));
        s.policies[Side::Mercenary].heli_triggers = vec![trigger("E07", &[])];
        let mut log = Log::default();
        heli_reaction(&mut s, &mut log, true);
        assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
    }

    #[test]
    fn reaction_costs_one_rp_and_3_mp_or_one_hex_of_4_7_3() {
        let mut s = blank();
        s.rp = 2;
        s.set_hex("B-AT01", h("J07"));
        s.set_hex("B-AT02", h("J07"));
        // J07 -> J08 -> I08 (highland 3): 4 MP over two hexes: refused (7.3.5).
        let long = MoveOrder {
            unit: "B-AT01".into(),
            path: vec![h("J08"), h("I08")],
        };
        // J07 -> K08 (forest 3) ... a single hex of 3 is fine; M hex +1 would be 4, also fine.
        let one = MoveOrder {
            unit: "B-AT02".into(),
            path: vec![h("K08")],
        };
        let mut log = Log::default();
        let p = beeler_reaction(&mut s, &[], &[long, one], None, &mut log);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].rule.as_deref(), Some("7.3.5"));
        assert_eq!(s.rp, 1);
        assert_eq!(s.hex_of("B-AT02"), Some(h("K08")));
    }

    #[test]
    fn pinning_needs_as_many_face_up_units_to_stay_7_3_4() {
        let mut s = blank();
        s.rp = 5;
        s.set_hex("M-AT01", h("J07"));
        s.set_hex("B-AT01", h("J07"));
        s.set_hex("B-AT02", h("J06"));
        let leave = MoveOrder {
            unit: "B-AT01".into(),
            path: vec![h("J08")],
        };
        let mut log = Log::default();
        let p = beeler_reaction(
            &mut s.clone(),
            &[],
            std::slice::from_ref(&leave),
            None,
            &mut log,
        );
        assert_eq!(p[0].rule.as_deref(), Some("7.3.4"));
        // Chained reaction: B-AT02 comes in first, then B-AT01 may leave.
        let come = MoveOrder {
            unit: "B-AT02".into(),
            path: vec![h("J07")],
        };
        let p = beeler_reaction(&mut s, &[], &[come, leave], None, &mut log);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(s.hex_of("B-AT01"), Some(h("J08")));
    }
}
