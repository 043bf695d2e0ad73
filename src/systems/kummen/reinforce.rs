//! Turn start (T0) and the reinforcement phase (4): beeler first, then mercenary (4.1).

use super::control;
use super::data::{self, Control, Side};
use super::orders::DrawUntil;
use super::state::{Log, Place, State, token_label};
use super::tactics;
use crate::kit::reach::fire;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The most RP the beeler side may hold (4.3.5).
pub const RP_MAX: u32 = 9;

/// The problem, if any, with the beeler policy D1 `rp_target: v` at `p` sent by `side`
/// (4.3.2: only the beeler side buys RP; 4.3.5: at most 9).
pub fn legal_rp_target(side: Side, v: u32, p: &FieldPath) -> Option<Problem> {
    if side != Side::Beeler {
        Some(Problem::new(
            p.clone(),
            "4.3.2",
            "only the beeler side buys reaction points",
            "leave rp_target out",
        ))
    } else if v > RP_MAX {
        Some(Problem::new(
            p.clone(),
            "4.3.5",
            format!("RP are capped at {RP_MAX}, not {v}"),
            format!("0 to {RP_MAX}"),
        ))
    } else {
        None
    }
}

/// The values `side` may give `rp_target`: 0 to 9 for the beeler side, none for the other.
pub fn rp_target_choices(side: Side) -> Vec<u32> {
    if side == Side::Beeler {
        (0..=RP_MAX).collect()
    } else {
        Vec::new()
    }
}

/// The kinds `draw_until.drawn` may name: what the beeler cup holds (15.2, 9.10.2; a PS never
/// goes into a cup, 9.10.4).
pub const CUP_KINDS: [&str; 2] = ["at", "soldier"];

/// Problems with the beeler policy D1 `draw_until` at `p` sent by `side` (4.3.2, A28): only the
/// beeler side draws units; `drawn` names beeler units that can be in its cup.
pub fn legal_draw_until(state: &State, side: Side, v: &DrawUntil, p: &FieldPath) -> Vec<Problem> {
    if side != Side::Beeler {
        return vec![Problem::new(
            p.clone(),
            "4.3.2",
            "only the beeler side draws reinforcements from its cup",
            "leave draw_until out",
        )];
    }
    tactics::legal_names(
        state,
        &p.at("drawn"),
        "4.3.2",
        &v.drawn,
        Side::Beeler,
        &CUP_KINDS,
    )
}

/// The single conditions `side` may give `draw_until`: stop after 0 to 9 units (no more BP
/// than that come from the stand-in map's bases), or once one named unit or kind is drawn.
pub fn draw_until_choices(state: &State, side: Side) -> Vec<DrawUntil> {
    if side != Side::Beeler {
        return Vec::new();
    }
    let counts = (0..=RP_MAX).map(|n| DrawUntil {
        units: Some(n),
        drawn: Vec::new(),
    });
    let names = tactics::name_choices(state, Side::Beeler, &CUP_KINDS)
        .into_iter()
        .map(|n| DrawUntil {
            units: None,
            drawn: vec![n],
        });
    counts.chain(names).collect()
}

/// T0: helis may move again this turn (default A4). The stage change and the turn-start stage
/// checks follow in `stages::turn_start` (12.3, A49).
pub fn turn_start(state: &mut State, log: &mut Log) {
    state.units.update_all(|u| u.moved = false);
    log.public(format!("turn {} begins", state.turn));
}

/// Phase 1 for both sides.
pub fn reinforcement_phase(state: &mut State, dice: &mut Dice, log: &mut Log) {
    beeler(state, dice, log);
    mercenary(state, dice, log);
}

/// Base points of the bases `side` controls (4.3.1, 4.4.4).
pub fn base_points(state: &State, side: Side) -> u32 {
    state
        .map
        .bases
        .iter()
        .filter(|b| state.control_of(b.hex) == Control::of(side))
        .map(|b| b.bp)
        .sum()
}

/// 4.3: each BP buys one unit from the cup (face-down into the palace, 4.3.4) or 2 RP (RP capped
/// at 9, 4.3.5); unused BP are lost (4.3.3). Policies D1: buy RP until `rp_target`, then draw
/// units one BP at a time until `draw_until` says stop (4.3.2 spends the BP one by one, so the
/// side may decide after each draw, A28); the BP left, and those left once the cup is empty
/// (4.2, default A55), become RP.
fn beeler(state: &mut State, dice: &mut Dice, log: &mut Log) {
    let bp = base_points(state, Side::Beeler);
    fire("4.1");
    if bp > 0 {
        fire("4.3.1");
        fire("4.3.2");
    }
    // `legal_rp_target` kept the policy within 9; the cap stays for states of any origin.
    let target = state.policies[Side::Beeler].rp_target.min(RP_MAX);
    let until = state.policies[Side::Beeler].draw_until.clone();
    let mut to_rp = 0;
    let mut rp = state.rp;
    let mut left = bp;
    while left > 0 && rp < target {
        left -= 1;
        to_rp += 1;
        rp = (rp + 2).min(RP_MAX);
    }
    let label = format!("{}/beeler-reinforce/cup", state.label_prefix("p1"));
    // The k-th draw uses `<label>/<k>`, as `Cup::draw_many` would.
    let mut drawn: Vec<String> = Vec::new();
    let mut stopped = false;
    while left > 0 {
        let enough = until.units.is_some_and(|n| drawn.len() >= n as usize)
            || drawn.last().is_some_and(|d| {
                until
                    .drawn
                    .iter()
                    .any(|sel| tactics::matches(state, sel, d))
            });
        if enough {
            stopped = true;
            break;
        }
        let k = drawn.len() + 1;
        let Some(d) = state.cups[Side::Beeler].draw(
            dice,
            &format!("{label}/{k}"),
            "beeler reinforcement (4.3.4)",
        ) else {
            // 4.2: the cup is empty; the BP left buy RP (A55).
            fire("4.2");
            break;
        };
        drawn.push(d);
        left -= 1;
    }
    to_rp += left;
    if to_rp > 0 {
        fire("4.3.5");
        // 4.3.3: BP whose RP would pass the cap are lost.
        if state.rp + 2 * to_rp > RP_MAX {
            fire("4.3.3");
        }
    }
    rp = (rp + 2 * left).min(RP_MAX);
    if stopped {
        log.private(
            Side::Beeler,
            format!(
                "reinforcement: draw_until {} holds after {} draws: the other {left} BP buy RP (4.3.2)",
                super::orders::flow(&until),
                drawn.len()
            ),
        );
    }
    let palace = state.map.home(Side::Beeler);
    let tokens = state.place_face_down(&drawn, palace);
    if !drawn.is_empty() {
        fire("4.3.4");
    }
    let before = state.rp;
    state.rp = rp;
    log.public(format!(
        "reinforcement: beeler has {bp} BP (4.3.1): {} units face-down into the palace ({palace}){}, {to_rp} BP to RP ({before} -> {} RP, 4.3.5)",
        drawn.len(),
        if tokens.is_empty() {
            String::new()
        } else {
            format!(" as {}", tokens.join(", "))
        },
        state.rp
    ));
    if !drawn.is_empty() {
        let pairs: Vec<String> = tokens
            .iter()
            .zip(&drawn)
            .map(|(t, id)| format!("{t}={id}"))
            .collect();
        log.private(
            Side::Beeler,
            format!("reinforcement: you drew {} (4.3.4)", pairs.join(", ")),
        );
    }
}

/// 4.4: flip acted helis at EX-10 (4.4.1); supply check (4.4.2); 1D Cup + 1D Heli on the
/// reinforcement table (4.4.3); VP for half the BP of controlled bases (4.4.4).
fn mercenary(state: &mut State, dice: &mut Dice, log: &mut Log) {
    let ex10 = state.map.home(Side::Mercenary);
    let acted: Vec<String> = state
        .side_units_in(ex10, Side::Mercenary)
        .into_iter()
        .filter(|id| state.is_heli(id) && state.unit(id).is_some_and(|u| !u.face_up))
        .collect();
    for h in &acted {
        if let Some(mut u) = state.units.get_mut(h) {
            u.face_up = true;
        }
    }
    if !acted.is_empty() {
        fire("4.4.1");
        log.public(format!(
            "reinforcement: helis {} at EX-10 are active again (4.4.1)",
            acted.join(", ")
        ));
    }
    // 4.4.2: EX-10, Zakui and the two river hexes; any beeler-controlled hex cuts supply.
    let mut line = vec![(data::EX10.to_string(), ex10, state.control_of(ex10))];
    let supply: Vec<_> = state.map.supply_hexes.clone();
    fire("4.4.2");
    fire("2.3.2");
    for h in supply {
        line.push((h.label(), h, control::supply_hex(state, h)));
    }
    let zakui = state.map.hex_of(data::ZAKUI);
    line.push((data::ZAKUI.to_string(), zakui, state.control_of(zakui)));
    let cut: Vec<String> = line
        .iter()
        .filter(|(_, _, c)| *c == Control::Beeler)
        .map(|(n, h, _)| {
            if n == &h.label() {
                n.clone()
            } else {
                format!("{n} ({h})")
            }
        })
        .collect();
    if cut.is_empty() {
        let prefix = state.label_prefix("p1/merc-reinforce");
        let cup_label = format!("{prefix}/cup");
        let heli_label = format!("{prefix}/heli");
        let cup_die = dice.d6(&cup_label);
        let heli_die = dice.d6(&heli_label);
        let table = &state.counters.merc_reinforcement;
        let n_units = table.cup.get(cup_die as usize - 1).copied().unwrap_or(0) as usize;
        let n_helis = table.heli.get(heli_die as usize - 1).copied().unwrap_or(0) as usize;
        let drawn = state.cups[Side::Mercenary].draw_many(
            dice,
            &format!("{prefix}/draw"),
            n_units,
            "mercenary reinforcement (4.4.3)",
        );
        fire("4.4.3");
        if drawn.len() < n_units {
            fire("4.2");
        }
        let tokens = state.place_face_down(&drawn, ex10);
        let helis: Vec<String> = state
            .off_map(Side::Mercenary, Place::Stock)
            .into_iter()
            .filter(|id| state.is_heli(id))
            .take(n_helis)
            .collect();
        for h in &helis {
            state.set_hex(h, ex10);
            if let Some(mut u) = state.units.get_mut(h) {
                u.face_up = true;
                u.moved = false;
            }
        }
        dice.set_result(
            &cup_label,
            format!("Cup {cup_die}: {n_units} units, {} drawn", drawn.len()),
        );
        dice.set_result(
            &heli_label,
            format!("Heli {heli_die}: {n_helis} helis, {} placed", helis.len()),
        );
        log.public(format!(
            "reinforcement: mercenary supply line open (4.4.2); Cup {cup_die} -> {} units face-down in EX-10 ({ex10}){}; Heli {heli_die} -> helis {} (4.4.3)",
            drawn.len(),
            if tokens.is_empty() {
                String::new()
            } else {
                format!(" as {}", tokens.join(", "))
            },
            if helis.is_empty() {
                "none".to_string()
            } else {
                helis.join(", ")
            }
        ));
        if !drawn.is_empty() {
            let pairs: Vec<String> = drawn
                .iter()
                .map(|id| {
                    let t = state.unit(id).and_then(|u| u.token).unwrap_or(0);
                    format!("{}={id}", token_label(Side::Mercenary, t))
                })
                .collect();
            log.private(
                Side::Mercenary,
                format!("reinforcement: you drew {} (4.4.3)", pairs.join(", ")),
            );
        }
    } else {
        log.public(format!(
            "reinforcement: mercenary supply line cut by beeler control of {}: no reinforcements (4.4.2)",
            cut.join(", ")
        ));
    }
    let bp = base_points(state, Side::Mercenary);
    let vp = i64::from(bp / 2);
    if vp > 0 {
        fire("4.4.4");
    }
    state.vp[Side::Mercenary] += vp;
    log.public(format!(
        "reinforcement: mercenary controls {bp} BP: +{vp} VP (4.4.4)"
    ));
}

#[cfg(test)]
mod tests {
    use super::super::setup;
    use super::*;
    use crate::kit::hex::Hex;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;

    fn h(s: &str) -> Hex {
        Hex::parse(s).unwrap()
    }

    fn fresh() -> State {
        setup::initial_state("campaign", &DataSource::default()).unwrap()
    }

    #[test]
    fn beeler_spends_every_bp_on_units_by_default_4_3_2() {
        let mut s = fresh();
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        beeler(&mut s, &mut d, &mut log);
        // Stand-in: palace 3 + EX-7 1 + EX-6 2 + Zomm 1 + Ramo 2 = 9 BP.
        assert_eq!(s.side_units_in(h("O06"), Side::Beeler).len(), 9);
        assert_eq!(s.rp, 0);
        assert!(
            s.units_in(h("O06"))
                .iter()
                .all(|id| !s.unit(id).unwrap().face_up)
        );
    }

    #[test]
    fn beeler_rp_target_buys_rp_first_and_caps_at_9_4_3_5() {
        let mut s = fresh();
        s.policies[Side::Beeler].rp_target = 9;
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        beeler(&mut s, &mut d, &mut log);
        assert_eq!(s.rp, 9);
        // 5 BP buy RP (0,2,4,6,8 -> 10 capped 9), the other 4 draw units.
        assert_eq!(s.side_units_in(h("O06"), Side::Beeler).len(), 4);
    }

    #[test]
    fn draw_until_units_stops_drawing_and_the_bp_left_buy_rp_4_3_2() {
        let mut s = fresh();
        s.policies[Side::Beeler].draw_until = DrawUntil {
            units: Some(2),
            drawn: Vec::new(),
        };
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        beeler(&mut s, &mut d, &mut log);
        // 9 BP: 2 draw units, the other 7 buy 14 RP, capped at 9 (4.3.5).
        assert_eq!(s.side_units_in(h("O06"), Side::Beeler).len(), 2);
        assert_eq!(s.rp, 9);
        assert!(
            log.private[Side::Beeler]
                .iter()
                .any(|e| e.contains("draw_until"))
        );
    }

    #[test]
    fn draw_until_drawn_stops_once_a_named_kind_comes_out_4_3_2() {
        for seed in 0..8u8 {
            let mut s = fresh();
            s.policies[Side::Beeler].draw_until = DrawUntil {
                units: None,
                drawn: vec!["at".into()],
            };
            let mut d = Dice::new(Hash32([seed; 32]), Hash32([2; 32]));
            let mut log = Log::default();
            beeler(&mut s, &mut d, &mut log);
            let drawn = s.side_units_in(h("O06"), Side::Beeler);
            let ats = drawn
                .iter()
                .filter(|u| s.class_of(u) == Some(data::Class::At))
                .count();
            // At most the one AT that stopped the draws; if none came out, every BP drew.
            assert!(ats <= 1, "{drawn:?}");
            if ats == 0 {
                assert_eq!(drawn.len(), 9);
            }
            let bp_left = 9 - drawn.len() as u32;
            assert_eq!(s.rp, (2 * bp_left).min(RP_MAX));
        }
    }

    #[test]
    fn draw_until_draws_with_the_same_dice_labels_as_drawing_everything_4_3_4() {
        let mut all = fresh();
        let mut some = fresh();
        some.policies[Side::Beeler].draw_until = DrawUntil {
            units: Some(3),
            drawn: Vec::new(),
        };
        for s in [&mut all, &mut some] {
            let mut d = Dice::new(Hash32([4; 32]), Hash32([2; 32]));
            beeler(s, &mut d, &mut Log::default());
        }
        // The first three draws are the same units: a stop changes what is drawn, not how.
        let mut first = some.side_units_in(h("O06"), Side::Beeler);
        first.sort();
        let by_token = |s: &State| {
            let mut v: Vec<(u32, String)> = s
                .side_units_in(h("O06"), Side::Beeler)
                .into_iter()
                .map(|id| (s.unit(&id).unwrap().token.unwrap(), id))
                .collect();
            v.sort();
            v.into_iter().map(|(_, id)| id).take(3).collect::<Vec<_>>()
        };
        let mut head = by_token(&all);
        head.sort();
        assert_eq!(first, head);
    }

    #[test]
    fn supply_cut_by_beeler_in_a_river_hex_4_4_2() {
        let mut s = fresh();
        s.set_hex("B-SO01", h("C08"));
        s.cups[Side::Beeler].take("B-SO01");
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        mercenary(&mut s, &mut d, &mut log);
        assert!(
            log.public.iter().any(|e| e.contains("cut")),
            "{:?}",
            log.public
        );
        assert!(d.transcript().public.is_empty());
        // VP is still scored (A27): EX-10 3 + Zakui 2 + EX-9 1 = 6 BP -> 3 VP.
        assert_eq!(s.vp[Side::Mercenary], 3);
    }

    #[test]
    fn supply_open_rolls_cup_and_heli_dice_4_4_3() {
        let mut s = fresh();
        let mut d = Dice::new(Hash32([5; 32]), Hash32([2; 32]));
        let mut log = Log::default();
        mercenary(&mut s, &mut d, &mut log);
        let t = d.finish().unwrap();
        assert_eq!(t.public.len(), 2);
        let cup = t.public[0].values[0] as usize;
        let heli = t.public[1].values[0] as usize;
        let want_units = [1, 1, 2, 2, 3, 3][cup - 1];
        let want_helis = [0, 0, 1, 1, 1, 2][heli - 1];
        let at = s.side_units_in(h("B08"), Side::Mercenary);
        assert_eq!(at.iter().filter(|id| s.is_heli(id)).count(), want_helis);
        assert_eq!(at.iter().filter(|id| !s.is_heli(id)).count(), want_units);
        assert_eq!(t.sealed.len(), want_units);
    }
}
