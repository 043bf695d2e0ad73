//! The replenishment phase (7), with the Hasty swap (17.8), the fortress (22.1-22.6) and the
//! Earth reinforcements (7.11, 24.3): Fed brings units back from the Replenishment box.
//!
//! Order within the phase (digest 2.2): cards played for the phase -> 17.8 -> 7.10 -> the
//! conversion (7.7-7.9) -> soldiers to Cardinal and CBAs to North Pole Port (7.2-7.6) with the
//! fortress (22.2-22.6) -> Earth reinforcements (7.11, default A11). Control is checked after
//! each change (3.3.3).

use super::arming::{check_label, flags_of_played, hex_name, stock_counter};
use super::cards::{Flag, PhaseName};
use super::control;
use super::ctx::{Ctx, reason};
use super::data::{Class, HexId, HexRef, Side};
use super::play;
use super::state::{ChitAt, State, Unit, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Most soldiers and CBAs placed from the box in one phase (7.2, default A8: maxima).
pub const MAX_SOLDIERS: usize = 3;
pub const MAX_CBAS: usize = 2;
/// CBA types always replenishable (7.3).
pub const ALWAYS: [&str; 2] = ["crab_gunner", "round_facer"];
/// The conversion target open from the start (7.8, default A9).
pub const CONVERT_ALWAYS: &str = "round_facer";
/// Types that never use the box (17.6), besides the mercenaries.
pub const NEVER_BOXED: [&str; 3] = ["mackerel", "cochma_spl", "fortress"];
pub const HASTY: &str = "hasty";
pub const FORTRESS: &str = "fortress";
/// Where replenished soldiers and CBAs go (7.6).
pub const SOLDIERS_TO: &str = "cardinal";
pub const CBAS_TO: &str = "north_pole_port";
const ANDY: &str = "andy";

/// The phasing side's replenishment orders for one step (`orders.replenishment`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplenishmentOrders {
    /// Cards to play for this phase, before anything else.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<u32>,
    /// 7.10: a Fed CBA on the map to move into the box.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_box: Option<String>,
    /// 7.7-7.9: one CBA in the box becomes another type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convert: Option<Convert>,
    /// 7.2, 7.6: up to 3 soldiers from the box to Cardinal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub soldiers: Vec<String>,
    /// 7.2-7.6: up to 2 CBAs from the box to North Pole Port (1 with a fortress order, 22.2).
    /// The unit converted this phase is named by its old counter id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cbas: Vec<String>,
    /// 22.2-22.6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fortress: Option<FortressOrder>,
    /// Labels for placed units (name in `soldiers`/`cbas` -> label) for later orders.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Convert {
    #[serde(default)]
    pub unit: String,
    /// The new CBA type.
    #[serde(default)]
    pub to: String,
}

/// `{place: <hex>}` (22.3-22.4) or `{remove: true}` (22.5); not both (22.6).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortressOrder {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<HexRef>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remove: bool,
}

impl FortressOrder {
    fn acts(&self) -> bool {
        self.place.is_some() || self.remove
    }
}

fn kind_of<'a>(state: &'a State, id: &str) -> Option<&'a str> {
    state.unit_type(id)
}

fn is_sixth(state: &State, id: &str) -> bool {
    state
        .data
        .counters
        .counter_def(id)
        .is_some_and(|d| d.sixth_army)
}

/// Units in the Replenishment box, in id order.
pub fn box_units(state: &State) -> Vec<String> {
    state
        .units
        .iter()
        .filter(|(_, u)| u.at == UnitAt::ReplenishmentBox)
        .map(|(id, _)| id.clone())
        .collect()
}

fn box_has_cba(state: &State) -> bool {
    box_units(state)
        .iter()
        .any(|id| state.class_of(id) == Some(Class::Cba))
}

/// 7.10, default A10: a regular Fed CBA that may go to the box (not the fortress, a mercenary,
/// the Mackerel or the Cochma Spl: those never use the box, 17.6).
fn boxable(state: &State, id: &str) -> bool {
    let Some(kind) = kind_of(state, id) else {
        return false;
    };
    let Some(t) = state.data.counters.types.get(kind) else {
        return false;
    };
    t.class == Class::Cba && !t.mercenary && !NEVER_BOXED.contains(&kind)
}

/// 7.3: CBA types that may be placed from the box now (plus `extra` flags in checks).
fn replenishable(state: &State, kind: &str, extra: &[Flag]) -> bool {
    let f = Flag::Deploy(kind.to_string());
    ALWAYS.contains(&kind) || state.flag(&f) || extra.contains(&f)
}

/// 7.8, default A9: conversion targets now (plus `extra` flags in checks).
fn convertible_to(state: &State, kind: &str, extra: &[Flag]) -> bool {
    let f = Flag::Deploy(kind.to_string());
    kind == CONVERT_ALWAYS || state.flag(&f) || extra.contains(&f)
}

/// The fortress counter (22, default A36: one).
pub fn fortress_id(state: &State) -> Option<String> {
    state
        .data
        .counters
        .counter_defs()
        .into_iter()
        .find(|(_, d)| d.front.kind == FORTRESS)
        .map(|(id, _)| id)
}

fn put(state: &mut State, id: &str, at: UnitAt) {
    state.units.insert(
        id.to_string(),
        Unit {
            at,
            side: Side::Fed,
            damaged: false,
        },
    );
}

/// 22.3, 22.4, 23.1 (A37): why the fortress may not be placed in `h` now, if it may not.
fn fortress_spot_refusal(state: &State, h: HexId) -> Option<(&'static str, String)> {
    let name = hex_name(state, h);
    if state.data.map.place_at(h).is_some_and(|p| p.city) {
        return Some(("22.4", format!("{name} is a city hex")));
    }
    if state.data.map.place_at(h).is_some_and(|p| p.id == ANDY)
        && !state.flag(&Flag::FedMayEnterAndy)
    {
        return Some((
            "23.1",
            format!("{name} is closed to Fed until its entry card is open"),
        ));
    }
    if !state.units_in(h, Side::Lib).is_empty() {
        return Some(("22.4", format!("{name} holds Lib units")));
    }
    if state.units_in(h, Side::Fed).is_empty() {
        return Some(("22.3", format!("{name} holds no Fed unit")));
    }
    None
}

/// Whether the box will hold a CBA when the 7.10 order comes, as far as the state at the
/// start of the step says: a CBA other than a Hasty, or a Hasty that 17.8 keeps there or
/// replaces with a Round Facer (A12). `check` passes this to [`legal_to_box`]; the phase
/// passes what the box holds once 17.8 has run.
pub fn box_will_hold_cba(state: &State) -> bool {
    let in_box = box_units(state);
    let non_hasty = in_box
        .iter()
        .any(|id| state.class_of(id) == Some(Class::Cba) && kind_of(state, id) != Some(HASTY));
    let hasty_stays = in_box.iter().any(|id| kind_of(state, id) == Some(HASTY))
        && (state.flag(&Flag::Deploy(HASTY.to_string()))
            || stock_counter(state, Side::Fed, CONVERT_ALWAYS, &BTreeSet::new()).is_some());
    non_hasty || hasty_stays
}

/// Whether Fed may move `name` into the box now (7.10, 17.6, A10): a regular Fed CBA on the
/// map, and the box holds no CBA (`box_holds_cba`, see [`box_will_hold_cba`]). Returns the
/// hex it leaves.
pub fn legal_to_box(
    state: &State,
    name: &str,
    box_holds_cba: bool,
    at: &FieldPath,
) -> Result<HexId, Problem> {
    let accepted =
        "a regular Fed CBA on the map (not the fortress, a mercenary, mackerel or cochma_spl)";
    let problem = |msg: String, acc: &str| Problem::new(at.clone(), "7.10", msg, acc);
    match state.units.get(name) {
        None => Err(problem(format!("there is no unit {name}"), accepted)),
        Some(u) if u.side != Side::Fed => Err(problem(
            format!("{name} is not a Fed unit on the map"),
            accepted,
        )),
        Some(u) => match u.at {
            UnitAt::Hex(_) if !boxable(state, name) => Err(problem(
                format!(
                    "{name} may not go to the box (17.6: it never uses the box; docs/dougram.md, Decisions)"
                ),
                accepted,
            )),
            UnitAt::Hex(_) if box_holds_cba => Err(problem(
                "the box holds a CBA at the start of the phase".into(),
                "leave to_box out",
            )),
            UnitAt::Hex(h) => Ok(h),
            _ => Err(problem(
                format!("{name} is not a Fed unit on the map"),
                accepted,
            )),
        },
    }
}

/// The Fed units [`legal_to_box`] accepts at the start of the step, in id order.
pub fn to_box_choices(state: &State) -> Vec<String> {
    let full = box_will_hold_cba(state);
    state
        .units
        .keys()
        .filter(|id| legal_to_box(state, id, full, &FieldPath::root()).is_ok())
        .cloned()
        .collect()
}

/// Whether the conversion `c` is legal now (7.7-7.9, A9), or every problem with it: `unit` a
/// CBA in the box (or `arrives` there by the 7.10 order before it) that is no 6th Army counter,
/// `to` another CBA type that is a conversion target (`extra`: flags of cards played before)
/// with a counter in the stock. Returns the unit's counter and the new one. Between `check` and
/// the conversion, 17.8 may send a Hasty to the stock and take the last Round Facer, and the
/// 7.10 order may be skipped.
pub fn legal_convert(
    state: &State,
    c: &Convert,
    arrives: bool,
    extra: &[Flag],
    at: &FieldPath,
) -> Result<(String, String), Vec<Problem>> {
    let mut out = Vec::new();
    let accepted = "a CBA in the Replenishment box that is no 6th Army counter";
    let in_box = state
        .units
        .get(&c.unit)
        .is_some_and(|u| u.at == UnitAt::ReplenishmentBox);
    let src_ok = if !in_box && !arrives {
        out.push(Problem::new(
            at.at("unit"),
            "7.7",
            "it is not in the Replenishment box",
            accepted,
        ));
        false
    } else if state.class_of(&c.unit) != Some(Class::Cba) {
        out.push(Problem::new(
            at.at("unit"),
            "7.7",
            format!("{} is not a CBA", c.unit),
            accepted,
        ));
        false
    } else if is_sixth(state, &c.unit) {
        out.push(Problem::new(
            at.at("unit"),
            "7.9",
            format!("{} is a 6th Army counter", c.unit),
            accepted,
        ));
        false
    } else {
        true
    };
    let targets = "round_facer, or a type with an open deploy card";
    let new = match state.data.counters.types.get(&c.to) {
        None => {
            out.push(Problem::new(
                at.at("to"),
                "7.7",
                format!("there is no unit type {:?}", c.to),
                targets,
            ));
            None
        }
        Some(t) if t.class != Class::Cba => {
            out.push(Problem::new(
                at.at("to"),
                "7.7",
                format!("{} is not a CBA type", c.to),
                targets,
            ));
            None
        }
        Some(_) if !convertible_to(state, &c.to, extra) => {
            out.push(Problem::new(
                at.at("to"),
                "7.8",
                format!(
                    "{} is not a conversion target yet (7.8: its deployment card is not open)",
                    c.to
                ),
                targets,
            ));
            None
        }
        Some(_) => match stock_counter(state, Side::Fed, &c.to, &BTreeSet::new()) {
            None => {
                out.push(Problem::new(
                    at.at("to"),
                    "7.7",
                    format!("no {} counter is in the stock", c.to),
                    targets,
                ));
                None
            }
            new => new,
        },
    };
    match new {
        Some(_) if src_ok && kind_of(state, &c.unit) == Some(c.to.as_str()) => {
            out.push(Problem::new(
                at.at("to"),
                "7.7",
                format!("{} is a {} already", c.unit, c.to),
                "another CBA type",
            ));
            Err(out)
        }
        Some(new) if src_ok => Ok((c.unit.clone(), new)),
        _ => Err(out),
    }
}

/// The conversions [`legal_convert`] accepts now: every CBA in the box to every CBA type.
pub fn convert_choices(state: &State) -> Vec<Convert> {
    let mut out = Vec::new();
    for unit in box_units(state) {
        for (to, t) in &state.data.counters.types {
            let c = Convert {
                unit: unit.clone(),
                to: to.clone(),
            };
            if t.class == Class::Cba
                && legal_convert(state, &c, false, &[], &FieldPath::root()).is_ok()
            {
                out.push(c);
            }
        }
    }
    out
}

/// Whether unit `id`, named `name` in the orders, may leave the box now as a unit of `class`
/// (7.2-7.4): listed once (`named`: the names before it), in the box (or `arrives` there by an
/// earlier order of the phase), of that class, and a CBA of type `kind` (its type after the
/// conversion) replenishable (7.3; `extra`: flags of cards played before).
#[allow(clippy::too_many_arguments)]
pub fn legal_box_unit(
    state: &State,
    name: &str,
    id: &str,
    kind: Option<&str>,
    class: Class,
    arrives: bool,
    extra: &[Flag],
    named: &mut BTreeSet<String>,
    at: &FieldPath,
) -> Result<(), Problem> {
    let (what, other) = match class {
        Class::Soldier => ("soldier", "CBAs under cbas"),
        Class::Cba => ("CBA", "soldiers under soldiers"),
    };
    let in_box = state
        .units
        .get(id)
        .is_some_and(|u| u.at == UnitAt::ReplenishmentBox);
    if !named.insert(name.to_string()) {
        Err(Problem::new(
            at.clone(),
            "7.2",
            format!("{name} is named twice"),
            "each unit once",
        ))
    } else if !in_box && !arrives {
        Err(Problem::new(
            at.clone(),
            "7.4",
            "it is not in the Replenishment box",
            format!("a {what} in the box"),
        ))
    } else if state.class_of(id) != Some(class) {
        Err(Problem::new(
            at.clone(),
            "7.2",
            format!("{name} is not a {what}"),
            format!("a {what} in the box (list {other})"),
        ))
    } else if let Some(k) = kind.filter(|k| class == Class::Cba && !replenishable(state, k, extra))
    {
        Err(Problem::new(
            at.clone(),
            "7.3",
            format!("{k} has no open deployment card"),
            "crab_gunner, round_facer, or a type with an open deploy card",
        ))
    } else {
        Ok(())
    }
}

/// Where units of `class` from the box go (7.6: Cardinal for soldiers, North Pole Port for
/// CBAs), or why none may go now: Lib controls it. Not judged by `check`: control may change
/// before the phase (24.2 placements, 3.3.3).
pub fn legal_destination(state: &State, class: Class) -> Result<HexId, Problem> {
    let (place, field) = match class {
        Class::Soldier => (SOLDIERS_TO, "soldiers"),
        Class::Cba => (CBAS_TO, "cbas"),
    };
    let hex = state.data.map.hex_of(place);
    if state.control.get(place) == Some(&Side::Lib) {
        return Err(Problem::new(
            FieldPath::root().at(field),
            "7.6",
            format!("Lib controls {}", hex_name(state, hex)),
            "none this phase",
        ));
    }
    Ok(hex)
}

/// The box units of `class` that [`legal_box_unit`] and [`legal_destination`] accept now, each
/// on its own, in id order.
pub fn box_unit_choices(state: &State, class: Class) -> Vec<String> {
    if legal_destination(state, class).is_err() {
        return Vec::new();
    }
    box_units(state)
        .into_iter()
        .filter(|id| {
            legal_box_unit(
                state,
                id,
                id,
                kind_of(state, id),
                class,
                false,
                &[],
                &mut BTreeSet::new(),
                &FieldPath::root(),
            )
            .is_ok()
        })
        .collect()
}

/// What a legal fortress order does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FortressAct {
    /// The fortress (its counter) goes to this hex (22.2-22.4).
    Place(HexId),
    /// The fortress leaves this hex for the stock (22.5).
    Remove(HexId),
}

/// Whether the fortress order `f` is legal now (22.1-22.6, 22.10, 23.1). Between `check` and
/// the order, the 7.10 order may take the last Fed unit out of the hex it names.
pub fn legal_fortress(
    state: &State,
    f: &FortressOrder,
    at: &FieldPath,
) -> Result<FortressAct, Problem> {
    let where_now = fortress_id(state)
        .as_ref()
        .and_then(|id| state.units.get(id))
        .map(|u| u.at.clone());
    let spot = "a non-city hex with a Fed unit and no Lib unit";
    if f.place.is_some() && f.remove {
        return Err(Problem::new(
            at.clone(),
            "22.6",
            "the fortress is placed and removed in one phase",
            "either {place: <hex>} or {remove: true}",
        ));
    }
    if !f.acts() {
        return Err(Problem::new(
            at.clone(),
            "22.2",
            "the fortress order does nothing",
            "{place: <hex>} or {remove: true}, or leave fortress out",
        ));
    }
    if !state.flag(&Flag::LibGovernment) {
        return Err(Problem::new(
            at.clone(),
            "22.1",
            "Fed may use the fortress only while the Lib government card is open",
            "leave fortress out",
        ));
    }
    if matches!(where_now, None | Some(UnitAt::Removed)) {
        return Err(Problem::new(
            at.clone(),
            "22.10",
            "the fortress was destroyed",
            "leave fortress out",
        ));
    }
    match (&f.place, where_now) {
        (None, Some(UnitAt::Hex(h))) => Ok(FortressAct::Remove(h)),
        (None, _) => Err(Problem::new(
            at.at("remove"),
            "22.5",
            "the fortress is not on the map",
            "{place: <hex>}",
        )),
        (Some(_), Some(UnitAt::Hex(h))) => Err(Problem::new(
            at.at("place"),
            "22.3",
            format!("the fortress is on the map already, in hex {h}"),
            "{remove: true}, then place it in a later phase (22.6)",
        )),
        (Some(r), _) => {
            let Some(h) = r.resolve(&state.data.map) else {
                return Err(Problem::new(
                    at.at("place"),
                    "22.3",
                    format!("{r} is not a land hex on the map"),
                    spot,
                ));
            };
            match fortress_spot_refusal(state, h) {
                Some((rule, msg)) => Err(Problem::new(at.at("place"), rule, msg, spot)),
                None => Ok(FortressAct::Place(h)),
            }
        }
    }
}

/// The fortress orders [`legal_fortress`] accepts now: a removal, or a placement per hex.
pub fn fortress_choices(state: &State) -> Vec<FortressOrder> {
    let remove = FortressOrder {
        place: None,
        remove: true,
    };
    let mut out = Vec::new();
    if legal_fortress(state, &remove, &FieldPath::root()).is_ok() {
        out.push(remove);
    }
    let hexes: BTreeSet<HexId> = state
        .units
        .values()
        .filter_map(|u| match u.at {
            UnitAt::Hex(h) if u.side == Side::Fed => Some(h),
            _ => None,
        })
        .collect();
    for h in hexes {
        let f = FortressOrder {
            place: Some(HexRef::Hex(h)),
            remove: false,
        };
        if legal_fortress(state, &f, &FieldPath::root()).is_ok() {
            out.push(f);
        }
    }
    out
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step:
/// each item by its legal_* function.
pub fn check(
    state: &State,
    side: Side,
    orders: &ReplenishmentOrders,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Fed {
        if *orders != ReplenishmentOrders::default() {
            out.push(Problem::new(
                at.clone(),
                "7.1",
                "only Fed has a replenishment phase",
                "leave replenishment out",
            ));
        }
        return out;
    }
    out.extend(play::legal_phase_plays(
        state,
        side,
        &orders.play,
        PhaseName::Replenishment,
        &at.at("play"),
    ));
    let extra = flags_of_played(state, &orders.play);
    // 7.10
    let mut to_box: Option<&str> = None;
    if let Some(name) = &orders.to_box {
        match legal_to_box(state, name, box_will_hold_cba(state), &at.at("to_box")) {
            Ok(_) => to_box = Some(name),
            Err(e) => out.push(e),
        }
    }
    // 7.7-7.9
    let mut converted: Option<(&str, &str)> = None;
    if let Some(c) = &orders.convert {
        let arrives = to_box == Some(c.unit.as_str());
        match legal_convert(state, c, arrives, &extra, &at.at("convert")) {
            Ok(_) => converted = Some((c.unit.as_str(), c.to.as_str())),
            Err(e) => out.extend(e),
        }
    }
    // 7.2-7.6, 22.2
    let mut named = BTreeSet::new();
    if orders.soldiers.len() > MAX_SOLDIERS {
        out.push(Problem::new(
            at.at("soldiers").at(MAX_SOLDIERS),
            "7.2",
            format!("{} soldiers", orders.soldiers.len()),
            format!("at most {MAX_SOLDIERS} soldiers"),
        ));
    }
    for (i, name) in orders.soldiers.iter().enumerate() {
        if let Err(e) = legal_box_unit(
            state,
            name,
            name,
            kind_of(state, name),
            Class::Soldier,
            false,
            &extra,
            &mut named,
            &at.at("soldiers").at(i),
        ) {
            out.push(e);
        }
    }
    let fort = orders.fortress.as_ref().filter(|f| f.acts());
    let cap = if fort.is_some() {
        MAX_CBAS - 1
    } else {
        MAX_CBAS
    };
    if orders.cbas.len() > cap {
        out.push(Problem::new(
            at.at("cbas").at(cap),
            if fort.is_some() { "22.2" } else { "7.2" },
            format!("{} CBAs", orders.cbas.len()),
            if fort.is_some() {
                "at most 1 CBA when the fortress is placed or removed".to_string()
            } else {
                format!("at most {MAX_CBAS} CBAs")
            },
        ));
    }
    for (i, name) in orders.cbas.iter().enumerate() {
        let kind = match converted {
            Some((src, to)) if src == name => Some(to),
            _ => kind_of(state, name),
        };
        let arrives = to_box == Some(name.as_str())
            || orders.convert.as_ref().is_some_and(|c| c.unit == *name);
        if let Err(e) = legal_box_unit(
            state,
            name,
            name,
            kind,
            Class::Cba,
            arrives,
            &extra,
            &mut named,
            &at.at("cbas").at(i),
        ) {
            out.push(e);
        }
    }
    for key in orders.labels.keys() {
        let p = at.at("labels").at(key.as_str());
        if !orders.soldiers.contains(key) && !orders.cbas.contains(key) {
            out.push(Problem::new(
                p,
                "3.4",
                format!("{key} is not placed by these orders"),
                "a name listed under soldiers or cbas",
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (key, label) in &orders.labels {
        if let Some(pr) = check_label(state, label, &mut seen, &at.at("labels").at(key.as_str())) {
            out.push(pr);
        }
    }
    // 22
    if let Some(f) = &orders.fortress
        && let Err(e) = legal_fortress(state, f, &at.at("fortress"))
    {
        out.push(e);
    }
    out
}

/// 17.8, default A12: while no `deploy: hasty` card is open, each Hasty in the box is swapped
/// for a Round Facer from the stock; with none left the Hasty goes to the stock alone.
pub fn hasty_swap(state: &mut State, ctx: &mut Ctx) {
    if state.flag(&Flag::Deploy(HASTY.to_string())) {
        return;
    }
    for id in box_units(state) {
        if kind_of(state, &id) != Some(HASTY) {
            continue;
        }
        let rf = stock_counter(state, Side::Fed, CONVERT_ALWAYS, &BTreeSet::new());
        reach::fire("17.8");
        state.to_stock(&id);
        match rf {
            Some(rf) => {
                put(state, &rf, UnitAt::ReplenishmentBox);
                ctx.log.public(format!(
                    "the Hasty {id} in the box is replaced by Round Facer {rf} (17.8)"
                ));
            }
            None => ctx.log.public(format!(
                "the Hasty {id} in the box goes to the stock; no Round Facer is left (17.8: the replacement comes from the stock; docs/dougram.md, Decisions)"
            )),
        }
    }
}

/// Runs the phase for the phasing `side`. Each item is judged by its legal_* function as it
/// comes; the label map relies on `check` (labels name placed units, each label once).
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &ReplenishmentOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    if side != Side::Fed {
        if *orders == ReplenishmentOrders::default() {
            return Ok(());
        }
        return Err("replenishment orders for Lib: only Fed replenishes (7.1)".into());
    }
    reach::fire("7.1");
    // 3.3.3: control as it stands now, whatever changed since the last check.
    control::check(state, "start of the replenishment phase", ctx);
    for no in &orders.play {
        let at = FieldPath::root();
        if let Err(p) = play::legal_phase_play(state, side, *no, PhaseName::Replenishment, &at) {
            // Private: the opponent must not learn which card was meant (2.10).
            ctx.log.private(
                side,
                format!("your card {no} is not played: {}", reason(&p)),
            );
            continue;
        }
        play::play(state, side, *no, ctx)?;
    }
    hasty_swap(state, ctx);
    let had_cba = box_has_cba(state);
    if let Some(name) = &orders.to_box {
        to_box(state, name, had_cba, ctx);
    }
    let converted = orders
        .convert
        .as_ref()
        .and_then(|c| convert(state, c, ctx).map(|new| (c.unit.clone(), new)));
    let id_of = |state: &State, ctx: &Ctx, name: &str| -> Option<String> {
        match &converted {
            Some((src, new)) if src == name => Some(new.clone()),
            _ => ctx.unit(state, name),
        }
    };
    // 7.2, 7.6: soldiers to Cardinal, CBAs to North Pole Port.
    let mut named = BTreeSet::new();
    place_class(
        state,
        (&orders.soldiers, Class::Soldier, MAX_SOLDIERS),
        &orders.labels,
        &id_of,
        &mut named,
        ctx,
    );
    let fort = orders.fortress.as_ref().filter(|f| f.acts());
    let cap = if fort.is_some() {
        MAX_CBAS - 1
    } else {
        MAX_CBAS
    };
    place_class(
        state,
        (&orders.cbas, Class::Cba, cap),
        &orders.labels,
        &id_of,
        &mut named,
        ctx,
    );
    if let Some(f) = fort {
        fortress(state, f, ctx);
    }
    earth_reinforcements(state, ctx);
    Ok(())
}

/// 7.10, judged by [`legal_to_box`] after 17.8.
fn to_box(state: &mut State, name: &str, had_cba: bool, ctx: &mut Ctx) {
    let h = match legal_to_box(state, name, had_cba, &FieldPath::root()) {
        Ok(h) => h,
        // Skips are Fed's own news: the opponent learns what happened, not what was ordered.
        Err(p) => {
            return ctx.log.private(
                Side::Fed,
                format!("your move of {name} to the box is skipped: {}", reason(&p)),
            );
        }
    };
    reach::fire("7.10");
    put(state, name, UnitAt::ReplenishmentBox);
    ctx.log.public(format!(
        "fed moves {name} from {} to the Replenishment box (7.10)",
        hex_name(state, h)
    ));
    control::check(state, "after a unit left the map", ctx);
}

/// 7.7-7.9, judged by [`legal_convert`] as it comes; returns the new counter.
fn convert(state: &mut State, c: &Convert, ctx: &mut Ctx) -> Option<String> {
    let (id, new) = match legal_convert(state, c, false, &[], &FieldPath::root()) {
        Ok(v) => v,
        Err(p) => {
            // Skips are Fed's own news: the opponent learns what happened, not what was ordered.
            ctx.log.private(
                Side::Fed,
                format!(
                    "your conversion of {} to {} is skipped: {}",
                    c.unit,
                    c.to,
                    p.first().map(reason).unwrap_or_default()
                ),
            );
            return None;
        }
    };
    let old_kind = kind_of(state, &id).unwrap_or("?").to_string();
    // 7.7 (one conversion), 7.8 (its target), 7.9 (its source) apply.
    for r in ["7.7", "7.8", "7.9"] {
        reach::fire(r);
    }
    state.to_stock(&id);
    put(state, &new, UnitAt::ReplenishmentBox);
    ctx.log.public(format!(
        "fed converts {old_kind} {id} in the box into {} {new}; {id} goes to the stock (7.7-7.9)",
        c.to
    ));
    Some(new)
}

/// 7.2-7.6 for one class: [`legal_destination`] for the class, then each unit judged by
/// [`legal_box_unit`] as it comes; at most `cap` are placed (`check` refuses more names, 7.2,
/// 22.2).
fn place_class(
    state: &mut State,
    (names, class, cap): (&[String], Class, usize),
    labels: &BTreeMap<String, String>,
    id_of: &dyn Fn(&State, &Ctx, &str) -> Option<String>,
    named: &mut BTreeSet<String>,
    ctx: &mut Ctx,
) {
    if names.is_empty() {
        return;
    }
    let what = match class {
        Class::Soldier => "soldier",
        Class::Cba => "CBA",
    };
    reach::fire("7.6");
    let hex = match legal_destination(state, class) {
        Ok(h) => h,
        Err(p) => {
            // Private: the names listed are an order that did not happen.
            return ctx.log.private(
                Side::Fed,
                format!("your {what} replenishment is skipped: {}", reason(&p)),
            );
        }
    };
    let mut placed = 0;
    for name in names {
        // Skips are Fed's own news: the opponent learns what happened, not what was ordered.
        let skip = |ctx: &mut Ctx, why: String| {
            ctx.log.private(
                Side::Fed,
                format!("your replenishment of {name} is skipped: {why}"),
            );
        };
        if placed == cap {
            reach::fire("7.2");
            skip(
                ctx,
                format!("at most {cap} {what}(s) this phase (7.2, 22.2)"),
            );
            continue;
        }
        let Some(id) = id_of(state, ctx, name) else {
            skip(ctx, "no such unit (7.4)".into());
            continue;
        };
        let kind = kind_of(state, &id).unwrap_or("?").to_string();
        let at = FieldPath::root();
        if let Err(p) = legal_box_unit(state, name, &id, Some(&kind), class, false, &[], named, &at)
        {
            skip(ctx, reason(&p));
            continue;
        }
        // 7.2 (how many), 7.4 (units of the box), 7.3 (a type that needs its deployment
        // card), 7.5 (a 6th Army unit) apply to this unit.
        reach::fire("7.2");
        reach::fire("7.4");
        if !ALWAYS.contains(&kind.as_str()) {
            reach::fire("7.3");
        }
        if is_sixth(state, &id) {
            reach::fire("7.5");
        }
        put(state, &id, UnitAt::Hex(hex));
        placed += 1;
        let label = labels.get(name).filter(|l| !ctx.labels.contains_key(*l));
        if let Some(l) = label {
            ctx.labels.insert(l.clone(), id.clone());
        }
        ctx.log.public(format!(
            "fed replenishes {kind} {id}{} at {} (7.2-7.6)",
            label.map(|l| format!(" ({l})")).unwrap_or_default(),
            hex_name(state, hex)
        ));
        reach::fire("3.3.3");
        control::check(state, "after a replenishment", ctx);
    }
}

/// 22.1-22.6, 22.10, judged by [`legal_fortress`] as it comes.
fn fortress(state: &mut State, f: &FortressOrder, ctx: &mut Ctx) {
    let act = match legal_fortress(state, f, &FieldPath::root()) {
        Ok(act) => act,
        Err(p) => {
            // Skips are Fed's own news: the opponent learns what happened, not what was ordered.
            return ctx.log.private(
                Side::Fed,
                format!("your fortress order is skipped: {}", reason(&p)),
            );
        }
    };
    let Some(id) = fortress_id(state) else {
        return;
    };
    match act {
        FortressAct::Remove(h) => {
            reach::fire("22.5");
            reach::fire("22.6");
            state.to_stock(&id);
            ctx.log.public(format!(
                "fed removes the fortress {id} from {} to the stock (22.5)",
                hex_name(state, h)
            ));
        }
        FortressAct::Place(h) => {
            for r in ["22.1", "22.2", "22.3", "22.4", "22.10"] {
                reach::fire(r);
            }
            if h == state.data.map.hex_of("andy") {
                reach::fire("23.1");
            }
            put(state, &id, UnitAt::Hex(h));
            ctx.log.public(format!(
                "fed places the fortress {id} in {} (22.2-22.4)",
                hex_name(state, h)
            ));
        }
    }
    control::check(state, "after the fortress order", ctx);
}

/// 7.11 with 24.3, default A11: after the normal replenishment, from the stock only.
pub fn earth_reinforcements(state: &mut State, ctx: &mut Ctx) {
    if !state.flag(&Flag::SixthArmyActive) {
        return;
    }
    let np = state.data.map.hex_of(CBAS_TO);
    reach::fire("7.11");
    if state.control.get(CBAS_TO) == Some(&Side::Lib) {
        ctx.log
            .public("no Earth reinforcements: Lib controls North Pole Port (7.11)".to_string());
        return;
    }
    let defs = state.data.counters.counter_defs();
    let left = state
        .units
        .iter()
        .filter(|(id, u)| u.at == UnitAt::Stock && defs.get(*id).is_some_and(|d| d.sixth_army))
        .count();
    if left == 0 {
        reach::fire("24.3");
        ctx.log.public(
            "no Earth reinforcements: no 6th Army counter is left in the stock (7.11, 24.3)"
                .to_string(),
        );
        return;
    }
    let label = format!("t{}/fed/replenishment/earth", state.turn);
    let ids = state.draw_chits(ctx.dice, &label, 1, ChitAt::Box("earth".into()));
    let Some(id) = ids.first() else {
        ctx.log
            .public("no Earth reinforcements: the cup is empty (7.11, digest 4.2)".to_string());
        return;
    };
    let v = state.chits.get(id).map(|c| c.value).unwrap_or(0);
    state.return_chit(id);
    let n = v.div_ceil(2) as usize;
    ctx.log.public(format!(
        "Earth reinforcements: the chit drawn is worth {v}, so {n} 6th Army unit(s) come (7.11); it goes back to the cup (2.7)"
    ));
    play::place_sixth_army(state, n, np, ctx);
    control::check(state, "after the Earth reinforcements", ctx);
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    if side != Side::Fed {
        return String::new();
    }
    let mut out = vec![
        "# replenishment (7): Fed's orders; up to 3 soldiers to Cardinal, 2 CBAs to North Pole Port"
            .to_string(),
    ];
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let contents: Vec<String> = box_units(state)
        .iter()
        .map(|id| {
            format!(
                "{id} {}{}",
                kind_of(state, id).unwrap_or("?"),
                if is_sixth(state, id) {
                    " (6th Army)"
                } else {
                    ""
                }
            )
        })
        .collect();
    out.push(format!("#   Replenishment box: {}", list(contents)));
    let cards: Vec<String> = c.replenishment_play.iter().map(|n| n.to_string()).collect();
    out.push(format!(
        "#   cards you may play now (play:): {}",
        list(cards)
    ));
    if box_will_hold_cba(state) {
        out.push("#   to_box: not possible, the box holds a CBA (7.10)".to_string());
    } else {
        out.push(format!(
            "#   to_box candidates (7.10): {}",
            list(c.to_box.clone())
        ));
    }
    for (class, field, ids) in [
        (Class::Soldier, "soldiers", &c.soldiers),
        (Class::Cba, "cbas", &c.cbas),
    ] {
        if legal_destination(state, class).is_ok() {
            out.push(format!(
                "#   {field} you may name now (7.2-7.4): {}",
                list(ids.clone())
            ));
        }
    }
    let conversions: Vec<String> = c
        .convert
        .iter()
        .map(|c| format!("{} -> {}", c.unit, c.to))
        .collect();
    out.push(format!(
        "#   conversions you may order now (7.7-7.9): {}",
        list(conversions)
    ));
    let cba_types: Vec<&String> = state
        .data
        .counters
        .types
        .iter()
        .filter(|(_, t)| t.class == Class::Cba)
        .map(|(k, _)| k)
        .collect();
    let allowed: Vec<String> = cba_types
        .iter()
        .filter(|k| replenishable(state, k, &[]))
        .map(|k| k.to_string())
        .collect();
    out.push(format!(
        "#   CBA types you may replenish (7.3): {}",
        list(allowed)
    ));
    let targets: Vec<String> = cba_types
        .iter()
        .filter(|k| convertible_to(state, k, &[]))
        .map(|k| {
            let mut taken = BTreeSet::new();
            while let Some(id) = stock_counter(state, Side::Fed, k, &taken) {
                taken.insert(id);
            }
            format!("{k} ({} in stock)", taken.len())
        })
        .collect();
    out.push(format!("#   conversion targets (7.8): {}", list(targets)));
    for (class, what) in [(Class::Soldier, "soldiers"), (Class::Cba, "CBAs")] {
        if let Err(p) = legal_destination(state, class) {
            out.push(format!(
                "#   {what}: none this phase, {} ({})",
                p.message,
                p.rule.unwrap_or_default()
            ));
        }
    }
    let fort = fortress_id(state).and_then(|id| state.units.get(&id).map(|u| u.at.clone()));
    let fstate = match (state.flag(&Flag::LibGovernment), fort) {
        (_, None) | (_, Some(UnitAt::Removed)) => "destroyed, never again (22.10)".to_string(),
        (false, _) => "not usable until the Lib government card is open (22.1)".to_string(),
        (true, Some(UnitAt::Hex(h))) => format!("on the map in hex {h}: fortress: {{remove: true}} (22.5)"),
        (true, Some(_)) => {
            "in the stock: fortress: {place: <non-city hex with a Fed unit, no Lib unit>} (22.3-22.4)"
                .to_string()
        }
    };
    out.push(format!("#   fortress: {fstate}"));
    let spots: Vec<String> = c
        .fortress
        .iter()
        .filter_map(|f| f.place.as_ref().map(|r| r.to_string()))
        .collect();
    if !spots.is_empty() {
        out.push(format!(
            "#   fortress hexes now (22.3-22.4, 23.1): {}",
            spots.join(", ")
        ));
    }
    if state.flag(&Flag::SixthArmyActive) {
        out.push(
            "#   Earth reinforcements come after the replenishment (7.11); order them with policies.sixth_army"
                .to_string(),
        );
    }
    out.push("#   example:".to_string());
    out.push("#   convert: {unit: CG03, to: round_facer}".to_string());
    out.push("#   soldiers: [SO10, SO11]".to_string());
    out.push("#   cbas: [CG03]".to_string());
    out.push("#   labels: {CG03: R1}".to_string());
    let mut s = out.join("\n");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice, lift};

    const CARDINAL: HexId = 73;
    const NP_PORT: HexId = 61;

    fn at() -> FieldPath {
        FieldPath::root().at("orders").at("replenishment")
    }

    fn state() -> State {
        dealt("setup1", 21)
    }

    /// Puts `n` stock counters whose id starts with `prefix` into the box; returns their ids.
    fn boxed(s: &mut State, prefix: &str, n: usize) -> Vec<String> {
        let ids: Vec<String> = s
            .units
            .iter()
            .filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with(prefix))
            .map(|(id, _)| id.clone())
            .take(n)
            .collect();
        for id in &ids {
            put(s, id, UnitAt::ReplenishmentBox);
        }
        ids
    }

    fn open(s: &mut State, no: u32) {
        lift(s, no);
        s.open.insert(no);
    }

    fn run(s: &mut State, o: &ReplenishmentOrders) -> (Log, BTreeMap<String, String>) {
        let mut d = dice(3);
        let mut ctx = Ctx::new(&mut d);
        resolve(s, Side::Fed, o, &mut ctx).unwrap();
        let out = (ctx.log, ctx.labels);
        assert!(d.finish().is_ok());
        out
    }

    fn problems(s: &State, o: &ReplenishmentOrders) -> Vec<(String, String)> {
        check(s, Side::Fed, o, &at())
            .into_iter()
            .map(|p| (p.path.to_string(), p.rule.unwrap_or_default()))
            .collect()
    }

    fn pair(p: &str, r: &str) -> (String, String) {
        (p.to_string(), r.to_string())
    }

    fn names(v: &[String]) -> Vec<String> {
        v.to_vec()
    }

    #[test]
    fn the_brief_example_parses() {
        let text = "to_box: CG03\nconvert: {unit: RF02, to: hasty}\nsoldiers: [SO10, SO11]\ncbas: [RF02]\nfortress: {place: 53}\nlabels: {RF02: R1}\n";
        let o: ReplenishmentOrders = crate::yaml::parse(text, "o").unwrap();
        assert_eq!(o.fortress.unwrap().place, Some(HexRef::Hex(53)));
        let o: ReplenishmentOrders = crate::yaml::parse("fortress: {remove: true}", "o").unwrap();
        assert!(o.fortress.unwrap().remove);
        assert_eq!(
            crate::yaml::parse::<ReplenishmentOrders>("{}", "o").unwrap(),
            ReplenishmentOrders::default()
        );
    }

    #[test]
    fn soldiers_go_to_cardinal_and_cbas_to_north_pole_port_7_2_7_6() {
        let mut s = state();
        let so = boxed(&mut s, "SO", 3);
        let cg = boxed(&mut s, "CG", 2);
        let before_c = s.units_in(CARDINAL, Side::Fed).len();
        let before_n = s.units_in(NP_PORT, Side::Fed).len();
        let o = ReplenishmentOrders {
            soldiers: names(&so),
            cbas: names(&cg),
            labels: [(cg[0].clone(), "R1".to_string())].into(),
            ..ReplenishmentOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let (log, labels) = run(&mut s, &o);
        assert_eq!(s.units_in(CARDINAL, Side::Fed).len(), before_c + 3);
        assert_eq!(s.units_in(NP_PORT, Side::Fed).len(), before_n + 2);
        assert!(box_units(&s).is_empty());
        assert_eq!(labels["R1"], cg[0]);
        assert_eq!(
            log.public
                .iter()
                .filter(|l| l.contains("(7.2-7.6)"))
                .count(),
            5
        );
    }

    #[test]
    fn at_most_three_soldiers_and_two_cbas_7_2() {
        let mut s = state();
        let so = boxed(&mut s, "SO", 4);
        let cg = boxed(&mut s, "CG", 3);
        let o = ReplenishmentOrders {
            soldiers: names(&so),
            cbas: names(&cg),
            ..ReplenishmentOrders::default()
        };
        let p = problems(&s, &o);
        assert!(p.contains(&pair("orders.replenishment.soldiers[3]", "7.2")));
        assert!(p.contains(&pair("orders.replenishment.cbas[2]", "7.2")));
        let (log, _) = run(&mut s, &o);
        assert_eq!(box_units(&s).len(), 2, "one soldier and one CBA stay");
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("at most 3 soldier(s)"))
        );
    }

    #[test]
    fn only_units_of_the_box_and_of_the_right_class_7_4() {
        let mut s = state();
        let so = boxed(&mut s, "SO", 1);
        let on_map = s.units_in(CARDINAL, Side::Fed)[0].to_string();
        let o = ReplenishmentOrders {
            soldiers: vec![on_map, "XX99".into()],
            cbas: names(&so),
            ..ReplenishmentOrders::default()
        };
        assert_eq!(
            problems(&s, &o),
            vec![
                pair("orders.replenishment.soldiers[0]", "7.4"),
                pair("orders.replenishment.soldiers[1]", "7.4"),
                pair("orders.replenishment.cbas[0]", "7.2"),
            ]
        );
    }

    #[test]
    fn other_cba_types_need_an_open_deployment_card_7_3() {
        let mut s = state();
        let bm = boxed(&mut s, "BM", 1);
        let o = ReplenishmentOrders {
            cbas: names(&bm),
            ..ReplenishmentOrders::default()
        };
        assert_eq!(
            problems(&s, &o),
            vec![pair("orders.replenishment.cbas[0]", "7.3")]
        );
        let (log, _) = run(&mut s.clone(), &o);
        assert!(log.private[Side::Fed].iter().any(|l| l.contains("(7.3)")));
        open(&mut s, 204); // Bushman deployment begins
        assert!(problems(&s, &o).is_empty());
        run(&mut s, &o);
        assert_eq!(s.units[&bm[0]].at, UnitAt::Hex(NP_PORT));
    }

    #[test]
    fn sixth_army_units_may_be_replenished_7_5() {
        let mut s = state();
        let six = boxed(&mut s, "S6R", 1);
        let o = ReplenishmentOrders {
            cbas: names(&six),
            ..ReplenishmentOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        run(&mut s, &o);
        assert_eq!(s.units[&six[0]].at, UnitAt::Hex(NP_PORT));
    }

    #[test]
    fn nothing_is_placed_where_lib_has_control_7_6() {
        let mut s = state();
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(CARDINAL) && u.side == Side::Fed {
                u.at = UnitAt::Stock;
            }
        }
        s.recompute_control();
        assert_eq!(s.control["cardinal"], Side::Lib);
        let so = boxed(&mut s, "SO", 2);
        let cg = boxed(&mut s, "CG", 1);
        let o = ReplenishmentOrders {
            soldiers: names(&so),
            cbas: names(&cg),
            ..ReplenishmentOrders::default()
        };
        let (log, _) = run(&mut s, &o);
        assert_eq!(s.units[&so[0]].at, UnitAt::ReplenishmentBox);
        assert_eq!(s.units[&cg[0]].at, UnitAt::Hex(NP_PORT));
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("your soldier replenishment is skipped") && l.contains("7.6"))
        );
    }

    #[test]
    fn one_box_cba_converts_to_a_round_facer_from_the_stock_7_7_7_8() {
        let mut s = state();
        let cg = boxed(&mut s, "CG", 1);
        let o = ReplenishmentOrders {
            convert: Some(Convert {
                unit: cg[0].clone(),
                to: "round_facer".into(),
            }),
            cbas: names(&cg),
            labels: [(cg[0].clone(), "R1".to_string())].into(),
            ..ReplenishmentOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let (_, labels) = run(&mut s, &o);
        assert_eq!(s.units[&cg[0]].at, UnitAt::Stock);
        let rf = &labels["R1"];
        assert!(rf.starts_with("RF"));
        assert_eq!(s.units[rf].at, UnitAt::Hex(NP_PORT));
    }

    #[test]
    fn conversion_targets_and_sources_are_limited_7_8_7_9_a9() {
        let mut s = state();
        let cg = boxed(&mut s, "CG", 1);
        let six = boxed(&mut s, "S6R", 1);
        let conv = |unit: &str, to: &str| ReplenishmentOrders {
            convert: Some(Convert {
                unit: unit.into(),
                to: to.into(),
            }),
            ..ReplenishmentOrders::default()
        };
        for (o, want) in [
            (
                conv(&cg[0], "bushman"),
                pair("orders.replenishment.convert.to", "7.8"),
            ),
            (
                conv(&six[0], "round_facer"),
                pair("orders.replenishment.convert.unit", "7.9"),
            ),
            (
                conv(&cg[0], "crab_gunner"),
                pair("orders.replenishment.convert.to", "7.8"),
            ),
            (
                conv(&cg[0], "soldier"),
                pair("orders.replenishment.convert.to", "7.7"),
            ),
            (
                conv("SO01", "round_facer"),
                pair("orders.replenishment.convert.unit", "7.7"),
            ),
        ] {
            assert_eq!(problems(&s, &o), vec![want]);
        }
        let (log, _) = run(&mut s.clone(), &conv(&six[0], "round_facer"));
        assert!(log.private[Side::Fed].iter().any(|l| l.contains("(7.9)")));
        open(&mut s, 204);
        assert!(problems(&s, &conv(&cg[0], "bushman")).is_empty());
        run(&mut s, &conv(&cg[0], "bushman"));
        assert_eq!(s.units[&cg[0]].at, UnitAt::Stock);
        assert_eq!(box_units(&s).len(), 2);
    }

    #[test]
    fn a_map_cba_goes_to_an_empty_box_then_converts_7_10() {
        let mut s = state();
        let cg = s
            .units
            .iter()
            .find(|(id, u)| {
                id.starts_with("CG") && u.side == Side::Fed && matches!(u.at, UnitAt::Hex(_))
            })
            .map(|(id, _)| id.clone())
            .unwrap();
        let o = ReplenishmentOrders {
            to_box: Some(cg.clone()),
            convert: Some(Convert {
                unit: cg.clone(),
                to: "round_facer".into(),
            }),
            cbas: vec![cg.clone()],
            ..ReplenishmentOrders::default()
        };
        assert!(problems(&s, &o).is_empty());
        let (log, _) = run(&mut s, &o);
        assert_eq!(s.units[&cg].at, UnitAt::Stock);
        assert!(log.public.iter().any(|l| l.contains("(7.10)")));
        assert_eq!(
            s.units_in(NP_PORT, Side::Fed)
                .iter()
                .filter(|id| id.starts_with("RF"))
                .count(),
            3
        );
    }

    #[test]
    fn a_hasty_that_stays_in_the_box_blocks_to_box_at_check_as_at_resolution_7_10_17_8() {
        let mut s = state();
        let cg = s
            .units
            .iter()
            .find(|(id, u)| {
                id.starts_with("CG") && u.side == Side::Fed && matches!(u.at, UnitAt::Hex(_))
            })
            .map(|(id, _)| id.clone())
            .unwrap();
        boxed(&mut s, "HS", 1);
        let o = ReplenishmentOrders {
            to_box: Some(cg.clone()),
            ..ReplenishmentOrders::default()
        };
        // 61 closed and a Round Facer in the stock: 17.8 swaps it, the box holds a CBA.
        assert_eq!(
            problems(&s, &o),
            vec![pair("orders.replenishment.to_box", "7.10")]
        );
        // 61 open: the Hasty stays, the box holds a CBA.
        s.open.insert(61);
        assert_eq!(
            problems(&s, &o),
            vec![pair("orders.replenishment.to_box", "7.10")]
        );
        // 61 closed and no Round Facer left: the Hasty goes to the stock (A12), the box is empty.
        s.open.remove(&61);
        for id in s.units.keys().cloned().collect::<Vec<_>>() {
            if id.starts_with("RF") && s.units[&id].at == UnitAt::Stock {
                s.units.get_mut(&id).unwrap().at = UnitAt::Removed;
            }
        }
        assert!(problems(&s, &o).is_empty());
        let (_, _) = run(&mut s, &o);
        assert_eq!(s.units[&cg].at, UnitAt::ReplenishmentBox);
    }

    #[test]
    fn to_box_needs_a_box_without_cba_and_a_regular_fed_cba_7_10_a10() {
        let mut s = state();
        let cg = s
            .units
            .iter()
            .find(|(id, u)| {
                id.starts_with("CG") && u.side == Side::Fed && matches!(u.at, UnitAt::Hex(_))
            })
            .map(|(id, _)| id.clone())
            .unwrap();
        let spa = s.data.map.hex_of("spa");
        s.units.insert(
            "TQ01".into(),
            Unit {
                at: UnitAt::Hex(spa),
                side: Side::Fed,
                damaged: false,
            },
        );
        let tb = |u: &str| ReplenishmentOrders {
            to_box: Some(u.into()),
            ..ReplenishmentOrders::default()
        };
        let lib_so = s.units_in(spa, Side::Lib)[0].to_string();
        assert_eq!(
            problems(&s, &tb("TQ01")),
            vec![pair("orders.replenishment.to_box", "7.10")]
        );
        assert_eq!(
            problems(&s, &tb(&lib_so)),
            vec![pair("orders.replenishment.to_box", "7.10")]
        );
        boxed(&mut s, "CG", 1);
        assert_eq!(
            problems(&s, &tb(&cg)),
            vec![pair("orders.replenishment.to_box", "7.10")]
        );
        let (log, _) = run(&mut s, &tb(&cg));
        assert!(matches!(s.units[&cg].at, UnitAt::Hex(_)));
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("skipped") && l.contains("7.10"))
        );
    }

    #[test]
    fn a_skipped_replenishment_order_is_told_to_its_player_only() {
        let mut s = state();
        let so = boxed(&mut s, "SO", 4);
        boxed(&mut s, "CG", 1); // a CBA in the box: 7.10 is refused
        let cg = s
            .units
            .iter()
            .find(|(id, u)| {
                id.starts_with("CG") && u.side == Side::Fed && matches!(u.at, UnitAt::Hex(_))
            })
            .map(|(id, _)| id.clone())
            .unwrap();
        let card = s.cards[Side::Lib].hand.cards()[0]; // not Fed's to play
        let o = ReplenishmentOrders {
            play: vec![card],
            to_box: Some(cg.clone()),
            convert: Some(Convert {
                unit: so[0].clone(),
                to: "round_facer".into(),
            }),
            soldiers: names(&so),
            ..fort(Some(53), false)
        };
        let (log, _) = run(&mut s, &o);
        assert!(matches!(s.units[&cg].at, UnitAt::Hex(_)));
        assert_eq!(s.units[&so[3]].at, UnitAt::ReplenishmentBox);
        for want in [
            format!("your card {card} is not played"),
            format!("your move of {cg} to the box is skipped"),
            format!("your conversion of {} to round_facer is skipped", so[0]),
            format!("your replenishment of {} is skipped", so[3]),
            "your fortress order is skipped".to_string(),
        ] {
            assert!(
                log.private[Side::Fed].iter().any(|l| l.contains(&want)),
                "{want}: {log:?}"
            );
        }
        let secret = [
            "skipped".to_string(),
            "not played".to_string(),
            format!("card {card}"),
            cg.clone(),
            so[3].clone(),
            "fortress".to_string(),
            "conver".to_string(),
        ];
        for needle in &secret {
            assert!(
                log.public.iter().all(|l| !l.contains(needle.as_str())),
                "{needle}: {log:?}"
            );
        }
        assert!(log.private[Side::Lib].is_empty(), "{log:?}");
        // Lib control of Cardinal: the soldiers listed stay secret too (7.6).
        let mut s = state();
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(CARDINAL) && u.side == Side::Fed {
                u.at = UnitAt::Stock;
            }
        }
        s.recompute_control();
        assert_eq!(s.control["cardinal"], Side::Lib);
        let so = boxed(&mut s, "SO", 1);
        let (log, _) = run(
            &mut s,
            &ReplenishmentOrders {
                soldiers: names(&so),
                ..ReplenishmentOrders::default()
            },
        );
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("your soldier replenishment is skipped")),
            "{log:?}"
        );
        assert!(
            log.public
                .iter()
                .all(|l| !l.contains("replenish") && !l.contains(&so[0])),
            "{log:?}"
        );
    }

    #[test]
    fn a_hasty_in_the_box_becomes_a_round_facer_until_hasty_deploys_17_8_a12() {
        let mut s = state();
        let hs = boxed(&mut s, "HS", 1);
        let mut t = s.clone();
        let (log, _) = run(&mut s, &ReplenishmentOrders::default());
        assert_eq!(s.units[&hs[0]].at, UnitAt::Stock);
        let inside = box_units(&s);
        assert_eq!(inside.len(), 1);
        assert_eq!(kind_of(&s, &inside[0]), Some("round_facer"));
        assert!(log.public.iter().any(|l| l.contains("(17.8)")));
        // A12: no Round Facer left: the Hasty leaves and nothing replaces it.
        let mut u = t.clone();
        for (id, x) in u.units.iter_mut() {
            if id.starts_with("RF") && x.at == UnitAt::Stock {
                x.at = UnitAt::Removed;
            }
        }
        run(&mut u, &ReplenishmentOrders::default());
        assert!(box_units(&u).is_empty());
        // With card 61 open the Hasty stays, and may be replenished (7.3).
        open(&mut t, 61);
        let o = ReplenishmentOrders {
            cbas: names(&hs),
            ..ReplenishmentOrders::default()
        };
        assert!(problems(&t, &o).is_empty());
        run(&mut t, &o);
        assert_eq!(t.units[&hs[0]].at, UnitAt::Hex(NP_PORT));
    }

    fn fortress_state() -> (State, String) {
        let mut s = state();
        open(&mut s, 29);
        // A Fed unit alone in hex 53.
        let so = boxed(&mut s, "SO", 1);
        put(&mut s, &so[0], UnitAt::Hex(53));
        let f = fortress_id(&s).unwrap();
        (s, f)
    }

    fn fort(place: Option<HexId>, remove: bool) -> ReplenishmentOrders {
        ReplenishmentOrders {
            fortress: Some(FortressOrder {
                place: place.map(HexRef::Hex),
                remove,
            }),
            ..ReplenishmentOrders::default()
        }
    }

    #[test]
    fn the_fortress_is_placed_in_a_non_city_hex_with_fed_and_no_lib_units_22_3_22_4() {
        let (mut s, f) = fortress_state();
        assert!(problems(&s, &fort(Some(53), false)).is_empty());
        let (log, _) = run(&mut s, &fort(Some(53), false));
        assert_eq!(s.units[&f].at, UnitAt::Hex(53));
        assert!(log.public.iter().any(|l| l.contains("places the fortress")));
        let (s, _) = fortress_state();
        let spa = s.data.map.hex_of("spa");
        assert_eq!(
            problems(&s, &fort(Some(spa), false)),
            vec![pair("orders.replenishment.fortress.place", "22.4")]
        );
        assert_eq!(
            problems(&s, &fort(Some(62), false)),
            vec![pair("orders.replenishment.fortress.place", "22.3")]
        );
        let mut t = s.clone();
        crate::systems::dougram::arming::tests::soldiers(&mut t, 53, Side::Lib, 1);
        assert_eq!(
            problems(&t, &fort(Some(53), false)),
            vec![pair("orders.replenishment.fortress.place", "22.4")]
        );
        let (log, _) = run(&mut t, &fort(Some(53), false));
        assert_eq!(t.units[&fortress_id(&t).unwrap()].at, UnitAt::Stock);
        assert!(log.private[Side::Fed].iter().any(|l| l.contains("(22.4)")));
    }

    #[test]
    fn the_fortress_needs_card_29_22_1() {
        let (mut s, _) = fortress_state();
        s.open.remove(&29);
        assert_eq!(
            problems(&s, &fort(Some(53), false)),
            vec![pair("orders.replenishment.fortress", "22.1")]
        );
    }

    #[test]
    fn the_fortress_takes_one_of_the_two_cba_slots_22_2() {
        let (mut s, f) = fortress_state();
        let cg = boxed(&mut s, "CG", 2);
        let o = ReplenishmentOrders {
            cbas: names(&cg),
            ..fort(Some(53), false)
        };
        assert_eq!(
            problems(&s, &o),
            vec![pair("orders.replenishment.cbas[1]", "22.2")]
        );
        run(&mut s, &o);
        assert_eq!(s.units[&cg[0]].at, UnitAt::Hex(NP_PORT));
        assert_eq!(s.units[&cg[1]].at, UnitAt::ReplenishmentBox);
        assert_eq!(s.units[&f].at, UnitAt::Hex(53));
    }

    #[test]
    fn the_fortress_is_removed_to_the_stock_but_not_placed_in_the_same_phase_22_5_22_6() {
        let (mut s, f) = fortress_state();
        assert_eq!(
            problems(&s, &fort(None, true)),
            vec![pair("orders.replenishment.fortress.remove", "22.5")]
        );
        assert_eq!(
            problems(&s, &fort(Some(53), true)),
            vec![pair("orders.replenishment.fortress", "22.6")]
        );
        put(&mut s, &f, UnitAt::Hex(62));
        assert_eq!(
            problems(&s, &fort(Some(53), false)),
            vec![pair("orders.replenishment.fortress.place", "22.3")]
        );
        assert!(problems(&s, &fort(None, true)).is_empty());
        run(&mut s, &fort(None, true));
        assert_eq!(s.units[&f].at, UnitAt::Stock);
    }

    #[test]
    fn a_destroyed_fortress_never_returns_22_10() {
        let (mut s, f) = fortress_state();
        s.units.get_mut(&f).unwrap().at = UnitAt::Removed;
        assert_eq!(
            problems(&s, &fort(Some(53), false)),
            vec![pair("orders.replenishment.fortress", "22.10")]
        );
        run(&mut s, &fort(Some(53), false));
        assert_eq!(s.units[&f].at, UnitAt::Removed);
    }

    #[test]
    fn fed_places_nothing_in_andy_before_card_64_23_1_a37() {
        let (mut s, _) = fortress_state();
        let andy = s.data.map.hex_of("andy");
        for p in s.data.map.places.iter_mut().filter(|p| p.id == "andy") {
            p.city = false;
        }
        s.units.insert(
            "SO48".into(),
            Unit {
                at: UnitAt::Hex(andy),
                side: Side::Fed,
                damaged: false,
            },
        );
        assert_eq!(
            problems(&s, &fort(Some(andy), false)),
            vec![pair("orders.replenishment.fortress.place", "23.1")]
        );
        open(&mut s, 64);
        assert!(problems(&s, &fort(Some(andy), false)).is_empty());
    }

    fn all_chits(s: &mut State, v: u32) {
        for c in s.chits.values_mut() {
            c.value = v;
        }
    }

    #[test]
    fn earth_reinforcements_bring_half_a_chit_rounded_up_from_the_stock_7_11() {
        let mut s = state();
        open(&mut s, 76);
        all_chits(&mut s, 3);
        let cup = s.cup().len();
        let (log, _) = run(&mut s, &ReplenishmentOrders::default());
        let six: Vec<&str> = s
            .units_in(NP_PORT, Side::Fed)
            .into_iter()
            .filter(|id| id.starts_with("S6"))
            .collect();
        assert_eq!(six.len(), 2);
        assert_eq!(s.cup().len(), cup, "the chit is back in the cup");
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("worth 3, so 2 6th Army"))
        );
    }

    #[test]
    fn earth_reinforcements_stop_when_the_stock_runs_out_24_3() {
        let mut s = state();
        open(&mut s, 76);
        all_chits(&mut s, 5);
        let defs = s.data.counters.counter_defs();
        let ids: Vec<String> = defs
            .iter()
            .filter(|(_, d)| d.sixth_army)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids[1..] {
            s.units.get_mut(id).unwrap().at = UnitAt::ReplenishmentBox;
        }
        run(&mut s, &ReplenishmentOrders::default());
        assert_eq!(s.units[&ids[0]].at, UnitAt::Hex(NP_PORT));
        s.units.get_mut(&ids[0]).unwrap().at = UnitAt::ReplenishmentBox;
        let mut d = dice(4);
        let mut ctx = Ctx::new(&mut d);
        earth_reinforcements(&mut s, &mut ctx);
        assert!(ctx.log.public.iter().any(|l| l.contains("(7.11, 24.3)")));
        drop(ctx);
        assert!(d.finish().unwrap().sealed.is_empty(), "no chit is drawn");
    }

    #[test]
    fn no_earth_reinforcements_while_lib_controls_north_pole_port_7_11() {
        let mut s = state();
        open(&mut s, 76);
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(NP_PORT) {
                u.at = UnitAt::Stock;
            }
        }
        crate::systems::dougram::arming::tests::soldiers(&mut s, NP_PORT, Side::Lib, 1);
        assert_eq!(s.control["north_pole_port"], Side::Lib);
        let (log, _) = run(&mut s, &ReplenishmentOrders::default());
        assert!(s.units_in(NP_PORT, Side::Fed).is_empty());
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("Lib controls North Pole Port (7.11)"))
        );
        let mut t = state();
        run(&mut t, &ReplenishmentOrders::default());
        assert!(
            t.units
                .iter()
                .all(|(id, u)| !id.starts_with("S6") || u.at == UnitAt::Stock),
            "76 closed"
        );
    }

    #[test]
    fn labels_must_name_placed_units_and_lib_has_no_replenishment_7_1() {
        let mut s = state();
        let so = boxed(&mut s, "SO", 1);
        let o = ReplenishmentOrders {
            soldiers: names(&so),
            labels: [
                ("SO01".to_string(), "R1".to_string()),
                (so[0].clone(), "".to_string()),
            ]
            .into(),
            ..ReplenishmentOrders::default()
        };
        let p = problems(&s, &o);
        assert!(p.contains(&pair("orders.replenishment.labels.SO01", "3.4")));
        assert!(p.contains(&pair(
            &format!("orders.replenishment.labels.{}", so[0]),
            "3.4"
        )));
        let lib = check(&s, Side::Lib, &o, &at());
        assert_eq!(lib.len(), 1);
        assert_eq!(lib[0].rule.as_deref(), Some("7.1"));
    }

    #[test]
    fn control_is_checked_after_a_cba_leaves_a_city_3_3_3() {
        let mut s = state();
        open(&mut s, 29);
        let spa = s.data.map.hex_of("spa");
        crate::systems::dougram::arming::tests::soldiers(&mut s, spa, Side::Lib, 1);
        assert_eq!(s.control["spa"], Side::Fed, "3 against 3 is Fed's (3.3a)");
        let cg = s
            .units_in(spa, Side::Fed)
            .into_iter()
            .find(|id| id.starts_with("CG"))
            .unwrap()
            .to_string();
        let (log, _) = run(
            &mut s,
            &ReplenishmentOrders {
                to_box: Some(cg),
                ..ReplenishmentOrders::default()
            },
        );
        assert_eq!(s.control["spa"], Side::Lib);
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("Spa passes to lib control"))
        );
    }

    #[test]
    fn the_template_shows_box_types_and_fortress() {
        let (mut s, _) = fortress_state();
        boxed(&mut s, "CG", 1);
        let text = template(
            &s,
            Side::Fed,
            &crate::systems::dougram::steps::choices(&s, Side::Fed),
        );
        assert!(text.lines().all(|l| l.starts_with('#')));
        assert!(text.contains("Replenishment box: CG"));
        assert!(text.contains("crab_gunner, round_facer"));
        assert!(text.contains("fortress: in the stock"));
        assert!(
            template(
                &s,
                Side::Lib,
                &crate::systems::dougram::steps::choices(&s, Side::Lib)
            )
            .is_empty()
        );
    }
}
