//! The state before step 1, and setup (15) when the setup step is resolved.

use super::data::{self, Class, Control, PerSide, Role, Side};
use super::orders::Policies;
use super::state::{Log, Modifiers, Place, Stage, State, Step, Unit};
use crate::kit::cup::Cup;
use crate::kit::hex::Hex;
use crate::kit::reach::fire;
use crate::kit::seats::Seat;
use crate::kit::shared::Shared;
use crate::protocol::dice::Dice;
use crate::systems::DataSource;
use std::collections::BTreeMap;

pub const SCENARIO: &str = "campaign";

/// The state before setup: every unit in its cup or in stock, bases under their starting
/// control (15.7), turn 1, the initial stage, 0 VP and 0 RP (15.3-15.6).
pub fn initial_state(scenario: &str, source: &DataSource) -> Result<State, String> {
    if scenario != SCENARIO {
        return Err(format!(
            "unknown kummen scenario {scenario:?}; the only one is {SCENARIO:?}"
        ));
    }
    let (map, counters) = data::load(source)?;
    let mut units = BTreeMap::new();
    let mut cups: PerSide<Cup> = PerSide::default();
    for id in counters.units.keys() {
        let (Some(side), Some(class)) = (counters.side(id), counters.class(id)) else {
            continue;
        };
        // 15.1-2, 15.2-2: ATs and soldiers without a special role go into the cup; helis and
        // named units start beside the map (Kan-Yu and Blue AT are placed by setup).
        let in_cup = class != Class::Heli && counters.role(id).is_none();
        if in_cup {
            cups.get_mut(side).put(id.clone());
        }
        units.insert(
            id.clone(),
            Unit {
                place: if in_cup { Place::Cup } else { Place::Stock },
                hex: None,
                face_up: !in_cup,
                token: None,
                moved: false,
            },
        );
    }
    let control: BTreeMap<Hex, Control> = map.bases.iter().map(|b| (b.hex, b.control)).collect();
    Ok(State {
        scenario: scenario.to_string(),
        map: Shared::new(map),
        counters: Shared::new(counters),
        turn: 1,
        step: Step::Setup,
        stage: Stage::Initial,
        next_stage: None,
        modifiers: Modifiers::default(),
        palace_combat_with_kanyu: false,
        units: units.into(),
        cups,
        control,
        vp: PerSide::default(),
        rp: 0,
        next_token: PerSide::default(),
        policies: PerSide::<Policies>::default(),
        offensive_turn: None,
        ending: None,
    })
}

/// Setup placement (15.1-3, 15.2-3): units drawn from the cups with sealed dice, face-down;
/// the named units placed with them; helis face-up.
pub fn place_units(state: &mut State, dice: &mut Dice, log: &mut Log) {
    // 15.1-3 mercenary: EX-10 Kan-Yu + 7 units + 2 helis; Zakui 5; EX-9 1.
    let kanyu = state.counters.with_role(Role::Kanyu);
    place(state, dice, log, Side::Mercenary, data::EX10, 7, kanyu);
    let helis: Vec<String> = state
        .off_map(Side::Mercenary, Place::Stock)
        .into_iter()
        .filter(|id| state.is_heli(id))
        .take(2)
        .collect();
    let ex10 = state.map.hex_of(data::EX10);
    fire("2.2.1");
    for h in &helis {
        state.set_hex(h, ex10);
        if let Some(mut u) = state.units.get_mut(h) {
            u.face_up = true;
        }
    }
    log.public(format!(
        "setup: helis {} placed face-up in EX-10 ({ex10}) (15.1)",
        helis.join(", ")
    ));
    place(state, dice, log, Side::Mercenary, data::ZAKUI, 5, None);
    place(state, dice, log, Side::Mercenary, data::EX9, 1, None);
    // 15.2-3 beeler: palace Blue AT + 8; Ramo 5; EX-7 2; EX-6 5; Zomm 2.
    let blue = state.counters.with_role(Role::BlueAt);
    place(state, dice, log, Side::Beeler, data::PALACE, 8, blue);
    place(state, dice, log, Side::Beeler, data::RAMO, 5, None);
    place(state, dice, log, Side::Beeler, data::EX7, 2, None);
    place(state, dice, log, Side::Beeler, data::EX6, 5, None);
    place(state, dice, log, Side::Beeler, data::ZOMM, 2, None);
}

fn place(
    state: &mut State,
    dice: &mut Dice,
    log: &mut Log,
    side: Side,
    base: &str,
    draws: usize,
    named: Option<String>,
) {
    let hex = state.map.hex_of(base);
    let label = format!("setup/{}/{base}", side.name());
    let mut ids = state.cups.get_mut(side).draw_many(
        dice,
        &format!("{label}/draw"),
        draws,
        "setup draw (15)",
    );
    fire(if side == Side::Mercenary {
        "15.1"
    } else {
        "15.2"
    });
    fire("2.1.4");
    let tokens = if let Some(n) = named {
        fire("2.2.2");
        // The named unit goes in with the drawn ones: shuffle so its token is unknown (A30).
        ids.push(n);
        state.hide_together(&ids, hex, Some(dice), &format!("{label}/tokens"))
    } else {
        state.place_face_down(&ids, hex)
    };
    log.public(format!(
        "setup: {} places {} face-down units in {base} ({hex}): {} (15)",
        side.name(),
        tokens.len(),
        tokens.join(", ")
    ));
    let mine: Vec<String> = state
        .side_units_in(hex, side)
        .into_iter()
        .filter(|id| !state.is_heli(id))
        .filter_map(|id| state.unit(&id).and_then(|u| u.token).map(|t| (t, id)))
        .collect::<BTreeMap<u32, String>>()
        .into_iter()
        .map(|(t, id)| format!("{}={id}", super::state::token_label(side, t)))
        .collect();
    log.private(
        side,
        format!("setup: in {base} ({hex}): {}", mine.join(", ")),
    );
}
