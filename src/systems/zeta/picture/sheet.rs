//! The panel beside the maps (plan §9.6): the turn track and this turn's track entries, VP
//! with the sudden-death margin, the cards drawn so far and each faction's count left in the
//! deck, the reader's own cards, the nuke as the reader may know it, factories and stocks,
//! crowded places, every character by where it is, the colony, the legend.

use super::super::data::{PerSide, Side, TypeId, ZetaData};
use super::super::state::{CharPlace, Wound};
use super::super::victory::{LAST_TURN, SUDDEN_DEATH_MARGIN};
use super::super::view::{CardMark, View};
use super::{char_name, letter, seat};
use crate::kit::picture::page::Page;
use crate::kit::picture::panel::{Panel, Swatch};
use crate::kit::picture::pieces::Counter;
use crate::kit::picture::style;
use crate::kit::seats::Seat;
use std::collections::BTreeMap;

/// Each faction's VP from the bases it governs now (37.1; A-86: neutral and destroyed bases
/// none), from the public board.
pub(super) fn vp_now(v: &View, data: &ZetaData) -> PerSide<i32> {
    let mut vp = PerSide::<i32>::default();
    for (id, b) in &v.bases {
        let (Some(gov), false) = (b.governor, b.destroyed) else {
            continue;
        };
        if let Some(l) = data.base(id).and_then(|d| d.at_level(b.level)) {
            vp[gov] += i32::from(l.vp);
        }
    }
    vp
}

fn counts(m: &BTreeMap<TypeId, u8>, data: &ZetaData) -> String {
    let parts: Vec<String> = m
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(t, n)| {
            let s = data.unit_type(t).map_or(t.as_str(), |u| u.short.as_str());
            format!("{s} x{n}")
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn chip(key: &str, side: Side) -> Counter {
    Counter {
        key: key.to_string(),
        side: seat(side),
        down: false,
        top: String::new(),
        main: String::new(),
        spent: false,
    }
}

pub(super) fn panel(
    page: &mut Page,
    v: &View,
    data: &ZetaData,
    crowded: &[(String, Vec<(Counter, String)>)],
) -> Panel {
    let mut p = page.panel(super::PANEL_WIDTH);
    let doc = &mut page.doc;

    p.heading(doc, "Game");
    p.track(
        doc,
        "Turn (37.3: the game ends after turn 10)",
        1,
        u32::from(LAST_TURN),
        u32::from(v.turn),
    );
    p.pair(doc, "Now:", &v.stage);
    if let Some(t) = data.turn(v.turn) {
        let mut parts: Vec<String> = Vec::new();
        if !t.arrivals.is_empty() {
            let a: Vec<String> = t
                .arrivals
                .iter()
                .map(|a| char_name(&a.char, data))
                .collect();
            parts.push(format!("arrive: {}", a.join(", ")));
        }
        if !t.growth.is_empty() {
            let a: Vec<String> = t.growth.iter().map(|c| char_name(c, data)).collect();
            parts.push(format!("grow: {}", a.join(", ")));
        }
        for (side, types) in &t.reinforcements {
            let a: Vec<&str> = types
                .iter()
                .map(|t| data.unit_type(t).map_or(t.as_str(), |u| u.short.as_str()))
                .collect();
            parts.push(format!("{side} may build {}", a.join(", ")));
        }
        for e in &t.events {
            parts.push(
                match e {
                    super::super::data::TrackEvent::JupiterFleet => {
                        "the Jupiter fleet arrives (33)"
                    }
                    super::super::data::TrackEvent::Gryps2 => "Gryps 2 appears (31)",
                }
                .to_string(),
            );
        }
        if !parts.is_empty() {
            p.para(
                doc,
                &format!("Track, turn {}: {}.", v.turn, parts.join("; ")),
                11,
                false,
            );
        }
    }

    p.heading(doc, "Victory points (37)");
    let vp = vp_now(v, data);
    let total: i32 = vp.iter().map(|(_, x)| *x).sum();
    for (side, x) in vp.iter() {
        let others = total - x;
        let need = others + SUDDEN_DEATH_MARGIN - x;
        let tail = if need <= 0 {
            "sudden death reached".to_string()
        } else {
            format!("{need} short of sudden death")
        };
        p.pair(doc, &format!("{side}:"), &format!("{x} VP, {tail}"));
    }
    p.para(
        doc,
        &format!(
            "VP of the bases governed now (37.1). Sudden death (37.2): at the end of a turn, \
             a faction's VP at least the other two's together plus {SUDDEN_DEATH_MARGIN}."
        ),
        10,
        false,
    );

    p.heading(doc, "Cards");
    if v.drawn.is_empty() {
        p.para(doc, "No card drawn yet this turn.", 11, false);
    } else {
        let drawn: Vec<String> = v
            .drawn
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}. {} {}", i + 1, c.side, c.kind.name()))
            .collect();
        p.para(
            doc,
            &format!("Drawn (11.2): {}", drawn.join(", ")),
            11,
            false,
        );
    }
    let left: Vec<String> = v
        .sides
        .iter()
        .map(|(s, sv)| format!("{s} {}", sv.cards_in_deck))
        .collect();
    p.para(
        doc,
        &format!("Still in the deck: {}", left.join(", ")),
        11,
        false,
    );
    if let Some(m) = &v.mine {
        let mine: Vec<String> = m
            .cards
            .iter()
            .map(|c| {
                let mark = match c.mark {
                    CardMark::Hand => "in hand",
                    CardMark::Chosen => "chosen",
                    CardMark::Drawn => "drawn",
                    CardMark::Kept => "kept",
                };
                format!("{} ({mark})", c.kind.name())
            })
            .collect();
        p.para(doc, &format!("Your cards: {}", mine.join(", ")), 11, true);
    }

    p.heading(doc, "Nuke (36)");
    let possible: Vec<String> = v
        .nuke
        .possible
        .iter()
        .map(|b| data.base(b).map_or(b.clone(), |d| d.name.clone()))
        .collect();
    p.pair(
        doc,
        &format!("{}:", v.nuke.status),
        &format!(
            "possible: {}",
            if possible.is_empty() {
                "none".to_string()
            } else {
                possible.join(", ")
            }
        ),
    );
    if let Some(b) = v.mine.as_ref().and_then(|m| m.nuke_base.as_ref()) {
        let name = data.base(b).map_or(b.clone(), |d| d.name.clone());
        p.para(doc, &format!("your nuke: {name}"), 11, true);
    }

    p.heading(doc, "Factories and stocks (6, 7)");
    for (side, sv) in v.sides.iter() {
        p.para(
            doc,
            &format!(
                "{side}: factory {}; stock {}",
                counts(&sv.factory, data),
                counts(&sv.stock, data)
            ),
            10,
            false,
        );
    }

    if !crowded.is_empty() {
        p.heading(doc, "Places of more than 4 units");
        for (name, entries) in crowded {
            p.units(doc, name, entries);
        }
    }

    p.heading(doc, "Characters");
    for side in Side::ALL {
        let mut entries: Vec<(Counter, String)> = Vec::new();
        for (id, c) in v.characters.iter().filter(|(_, c)| c.side == *side) {
            let where_ = match &c.place {
                CharPlace::Aboard(u) => match v.units.get(u) {
                    Some(uv) => format!(
                        "{} {}",
                        data.unit_type(&uv.type_id)
                            .map_or(uv.type_id.as_str(), |t| t.short.as_str()),
                        short_place(uv.place)
                    ),
                    None => format!("on {u}"),
                },
                CharPlace::Solo(l) => format!("alone {}", l.at.label()),
                CharPlace::Track => "track".into(),
                CharPlace::ToDeploy { .. } => "to deploy".into(),
                CharPlace::Wounded(w) => format!(
                    "wounded {}",
                    match w {
                        Wound::L => "L",
                        Wound::M => "M",
                        Wound::H => "H",
                    }
                ),
                CharPlace::Dead => "dead".into(),
                CharPlace::Replaced => "replaced".into(),
                CharPlace::OutOfGame => "out".into(),
            };
            entries.push((chip(id, *side), format!("{} {where_}", char_name(id, data))));
        }
        if !entries.is_empty() {
            p.units(doc, side.name(), &entries);
        }
    }

    p.heading(doc, "Colony (35)");
    let used: Vec<&str> = v.colony.used.iter().map(|s| s.name()).collect();
    p.para(
        doc,
        &format!(
            "{}; dropped already: {}",
            v.colony
                .in_use_by
                .map_or("not on the map".to_string(), |s| format!(
                    "on the map, used by {s}"
                )),
            if used.is_empty() {
                "nobody".to_string()
            } else {
                used.join(", ")
            }
        ),
        11,
        false,
    );
    p
}

fn short_place(p: super::super::data::Place) -> String {
    match p {
        super::super::data::Place::Hex(l) => l.at.label(),
        super::super::data::Place::Belt => "belt".into(),
        super::super::data::Place::Jupiter => "Jupiter".into(),
    }
}

pub(super) fn legend() -> Vec<(Swatch, String)> {
    let sample = |side: Side, top: &str, main: &str| {
        Swatch::Counter(Counter {
            key: String::new(),
            side: seat(side),
            down: false,
            top: top.into(),
            main: main.into(),
            spent: false,
        })
    };
    let mut items = vec![
        (Swatch::Fill(super::SPACE), "space hex".to_string()),
        (Swatch::Fill(super::LAND), "ground: land".to_string()),
        (Swatch::Fill(super::COAST), "ground: coast".to_string()),
        (
            Swatch::Fill(super::OCEAN),
            "ground: ocean (no MS alone, 13.9)".to_string(),
        ),
        (
            Swatch::Fill(super::EARTH),
            "Earth (never entered, A-19)".to_string(),
        ),
        (
            sample(Side::Titans, "HZK", "31/2"),
            "MS: type, air values / defense".to_string(),
        ),
        (
            sample(Side::Aeug, "ARG", "2/1/3"),
            "ship: AA dice / bombard dice / defense".to_string(),
        ),
        (
            sample(Side::NeoZeon, "GZC", "21/2"),
            "D badge: damaged, back values (16.1)".to_string(),
        ),
    ];
    for side in Side::ALL {
        items.push((
            Swatch::Control(
                style::side(seat(*side)).front,
                format!("{}2", letter(*side)),
            ),
            format!("base governed by {side}, level 2"),
        ));
    }
    items.push((
        Swatch::Control(style::NEUTRAL, "0".into()),
        "neutral base; ring solid: military, dashed: political (2.5)".to_string(),
    ));
    items.push((
        Swatch::Fill(super::CHAR_INK),
        "characters here: how many (named under Characters)".to_string(),
    ));
    items.push((
        Swatch::Fill(super::DROP_RING),
        "drop point ring (14.3): lettered like its ground area".to_string(),
    ));
    for side in Side::ALL {
        items.push((Swatch::Arrow(seat(*side)), format!("{side} move this step")));
    }
    items.push((Swatch::Combat, "combat this step".to_string()));
    items
}
