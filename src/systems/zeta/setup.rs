//! Setup (38): the state before the turn-1 packet. No die and no secret (the nuke's base is
//! chosen in Titans' turn-1 packet, Z-1), so the first step's seed, which mixes all three
//! seats' entropy, comes before any randomness (plan §1.1).

use super::data::{CharId, Class, Loc, MapId, PerSide, Side, StartStack, UnitId, ZetaData};
use super::state::{BaseState, Card, CharPlace, Character, SideState, Stage, State, Unit};
use crate::kit::deck::Hand;
use crate::kit::seats::Seat;
use crate::kit::shared::Shared;
use crate::systems::DataSource;
use std::collections::{BTreeMap, BTreeSet};

/// The one scenario: rule 38's setup on the stand-in map.
pub const GRYPS: &str = "gryps";

/// The state before step 1: the data loaded and validated, and `scenario` placed.
pub fn initial_state(scenario: &str, data: &DataSource) -> Result<State, String> {
    let d = super::validate::load(data)?;
    place(scenario, d)
}

/// `scenario` of `d` placed (38).
pub fn place(scenario: &str, d: ZetaData) -> Result<State, String> {
    let sc = d
        .scenarios
        .scenarios
        .get(scenario)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = d.scenarios.scenarios.keys().map(String::as_str).collect();
            format!(
                "no scenario {scenario:?} in zeta (scenarios: {})",
                names.join(", ")
            )
        })?;
    let bases = d
        .bases
        .bases
        .keys()
        .map(|id| {
            let start = sc.bases.get(id);
            let b = BaseState {
                governor: start.and_then(|s| s.governor),
                level: start.map_or(0, |s| s.level),
                place: start.and_then(|s| s.at),
                ..BaseState::default()
            };
            (id.clone(), b)
        })
        .collect();
    let chars = d
        .characters
        .characters
        .iter()
        .map(|(id, c)| {
            let ch = Character {
                side: c.side,
                place: CharPlace::Track,
            };
            (id.clone(), ch)
        })
        .collect();
    let mut st = State {
        data: Shared::new(d),
        scenario: scenario.to_string(),
        turn: 1,
        stage: Stage::Packet { turn: 1 },
        units: BTreeMap::new(),
        chars,
        bases,
        sides: PerSide::from_fn(|side| SideState {
            hand: Hand::new(Card::hand_of(side)),
            ..SideState::default()
        }),
        deck_seal: None,
        deck: Default::default(),
        drawn: Vec::new(),
        colony: Default::default(),
        nuke: Default::default(),
        once: Default::default(),
        policies: Default::default(),
        plans: Default::default(),
        pending: None,
        next_number: BTreeMap::new(),
        vp_history: Vec::new(),
        speech_phase: false,
    };
    for stack in &sc.stacks {
        place_stack(&mut st, stack)?;
    }
    let data = st.data.arc();
    let vp = st.base_vp();
    for side in Side::ALL.iter().copied() {
        let s = &mut st.sides[side];
        s.vp = vp[side];
        // factory boxes start empty; everything not on the map is in stock (8.1).
        let mut stock = data.counters.pools[side].clone();
        for u in st.units.values().filter(|u| u.side == side) {
            if let Some(n) = stock.get_mut(&u.type_id) {
                *n = n.saturating_sub(1);
            }
        }
        stock.retain(|_, n| *n > 0);
        s.stock = stock;
        // the types in the faction's setup and those the track starts on turn 1 (5.2).
        let mut permitted: BTreeSet<String> = st
            .units
            .values()
            .filter(|u| u.side == side)
            .map(|u| u.type_id.clone())
            .collect();
        if let Some(t) = data.turn(1) {
            permitted.extend(t.reinforcements.get(&side).into_iter().flatten().cloned());
        }
        s.permitted = permitted;
    }
    Ok(st)
}

/// One stack of 38: its units (ships first, so MS that must ride have a ship), MS aboard
/// ships where they could not stand alone (15.4-15.6), and its characters aboard its ship of
/// most capacity, else aboard an MS they may pilot, else alone at its own base.
fn place_stack(st: &mut State, stack: &StartStack) -> Result<(), String> {
    let data = st.data.arc();
    let side = stack.side;
    let mut ships: Vec<(u8, UnitId)> = Vec::new();
    let mut ms: Vec<UnitId> = Vec::new();
    for class in [Class::Ship, Class::Ms] {
        for (ty, n) in &stack.units {
            let t = data
                .unit_type(ty)
                .ok_or_else(|| format!("scenario: unknown unit type {ty:?}"))?;
            if t.class != class {
                continue;
            }
            for _ in 0..*n {
                let id = st.new_unit_id(side, ty);
                st.units.insert(
                    id.clone(),
                    Unit {
                        side,
                        type_id: ty.clone(),
                        place: stack.at,
                        face: Default::default(),
                        carrier: None,
                        action: None,
                        atmo_moved: false,
                        placed_this_phase: false,
                    },
                );
                match class {
                    Class::Ship => ships.push((t.carry, id)),
                    _ => ms.push(id),
                }
            }
        }
    }
    // Most capacity first, then id order.
    ships.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let own_base = super::carry::own_base_at(st, &st.data, side, stack.at);
    if stack.at.map() == MapId::Space && !own_base {
        let mut room: Vec<(UnitId, u8)> = ships.iter().map(|(c, id)| (id.clone(), *c)).collect();
        for m in &ms {
            let Some(slot) = room.iter_mut().find(|(_, r)| *r > 0) else {
                return Err(format!(
                    "scenario: no room aboard ships for {m} at {} (15.3)",
                    stack.at
                ));
            };
            slot.1 -= 1;
            if let Some(u) = st.units.get_mut(m) {
                u.carrier = Some(slot.0.clone());
            }
        }
    }
    // 13.10: a character rides a ship (any number, 15.3) or an MS (one each, and only one
    // with MS attack or defense, 20.5, A-90); 15.6 lets one stand alone at an own base.
    let mut piloted: BTreeSet<UnitId> = BTreeSet::new();
    for ch in &stack.chars {
        let def = data
            .character(ch)
            .ok_or_else(|| format!("scenario: unknown character {ch:?}"))?;
        let can_pilot = def.ms_attack > 0 || def.ms_defense > 0;
        let free_ms = ms.iter().find(|m| !piloted.contains(*m)).cloned();
        let place = match (ships.first(), free_ms, stack.at.loc()) {
            (Some((_, ship)), _, _) => CharPlace::Aboard(ship.clone()),
            (None, Some(m), _) if can_pilot => {
                piloted.insert(m.clone());
                CharPlace::Aboard(m)
            }
            (None, _, Some(loc)) if own_base => CharPlace::Solo(loc),
            _ => {
                return Err(format!(
                    "scenario: nowhere for {ch} to be at {} (13.10, 15.6)",
                    stack.at
                ));
            }
        };
        set_char(st, ch, place)?;
    }
    Ok(())
}

fn set_char(st: &mut State, ch: &CharId, place: CharPlace) -> Result<(), String> {
    let c = st
        .chars
        .get_mut(ch)
        .ok_or_else(|| format!("scenario: unknown character {ch:?}"))?;
    c.place = place;
    Ok(())
}

/// Every hex of `map` holding a unit, for tests and checks.
pub fn occupied(st: &State, map: MapId) -> BTreeSet<Loc> {
    st.units
        .values()
        .filter_map(|u| u.place.loc())
        .filter(|l| l.map == map)
        .collect()
}
