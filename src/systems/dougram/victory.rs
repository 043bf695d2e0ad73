//! The victory check (20), once per turn after the Fed security phase (A32). Card victories
//! first (20.2), then the VP test on the cities Lib controls now (20.3): with card 29 open
//! (20.3.1) 9 VP or more win for Lib and 0 VP win for Fed; without it (20.3.2) Lib cannot win
//! and 0 VP lets Fed roll 3d6 (+3 with no Dougram of any kind on the map) against the number of
//! Lib units on the map. There is no turn limit (4.2).

use super::cards::Flag;
use super::control;
use super::ctx::Ctx;
use super::data::Side;
use super::state::{Finish, State, UnitAt};
use crate::kit::reach;
use crate::kit::seats::Seat;

/// Lib wins at or above this VP while card 29 is open (20.3.1).
pub const LIB_WIN_VP: u32 = 9;
/// The types whose presence on the map denies Fed the +3 (20.3.2).
pub const DOUGRAMS: [&str; 3] = ["dougram", "dougram_tb", "jagd_dougram"];
/// Added to the 3d6 when no Dougram is on the map (20.3.2).
pub const NO_DOUGRAM_BONUS: u32 = 3;

/// Lib units on the map (A33: every Lib unit in a hex, CBAs and the Dougram family included;
/// chits are not units).
pub fn lib_units_on_map(state: &State) -> usize {
    state
        .units
        .values()
        .filter(|u| u.side == Side::Lib && matches!(u.at, UnitAt::Hex(_)))
        .count()
}

/// Whether any Dougram, Dougram TB or Jagd Dougram is on the map (20.3.2).
pub fn dougram_on_map(state: &State) -> bool {
    state.units.iter().any(|(id, u)| {
        matches!(u.at, UnitAt::Hex(_)) && state.unit_type(id).is_some_and(|t| DOUGRAMS.contains(&t))
    })
}

/// The bonus added to the 20.3.2 roll now.
pub fn bonus(state: &State) -> u32 {
    if dougram_on_map(state) {
        0
    } else {
        NO_DOUGRAM_BONUS
    }
}

/// The exact chance, out of 216, that the 20.3.2 roll (3d6 plus the bonus) reaches the number of
/// Lib units on the map, on `state` as it is.
pub fn fed_check_chance(state: &State) -> (u32, u32) {
    let need = u32::try_from(lib_units_on_map(state)).unwrap_or(u32::MAX);
    let b = bonus(state);
    let mut hits = 0;
    for x in 1..=6u32 {
        for y in 1..=6u32 {
            for z in 1..=6u32 {
                if x + y + z + b >= need {
                    hits += 1;
                }
            }
        }
    }
    (hits, 216)
}

fn finish(state: &mut State, winner: Side, rule: &str, reason: String, ctx: &mut Ctx) {
    // 4.2: a game ends only by a victory condition, never by a turn limit.
    reach::fire("4.2");
    ctx.log.public(format!(
        "{} wins: {reason} ({rule}); the game is over",
        winner.name()
    ));
    state.finished = Some(Finish {
        winner,
        rule: rule.to_string(),
        reason,
    });
}

/// The victory check phase (20), once per turn after the Fed security phase (A32). Sets
/// `state.finished` when a side wins.
pub fn check(state: &mut State, ctx: &mut Ctx) {
    if state.finished.is_some() {
        return;
    }
    reach::fire("20.1");
    // 20.2: card victories; 34 takes precedence over 77.
    if state.flag(&Flag::LacockAssassinated) {
        reach::fire("20.2");
        return finish(
            state,
            Side::Lib,
            "20.2",
            "the card of Lacock's assassination is open".into(),
            ctx,
        );
    }
    if state.flag(&Flag::PeaceTalks) {
        reach::fire("20.2");
        return finish(
            state,
            Side::Fed,
            "20.2",
            "the peace talks card is open and Lacock's assassination is not".into(),
            ctx,
        );
    }
    // 20.3: control as it stands now.
    let open = state.open.clone();
    control::check(state, "victory check", ctx);
    if state.open != open {
        // A card opened by 24.1 may have placed units: count control again.
        control::check(state, "victory check", ctx);
    }
    let vp = state.lib_vp();
    if state.flag(&Flag::LibGovernment) {
        reach::fire("20.3.1");
        if vp >= LIB_WIN_VP {
            return finish(
                state,
                Side::Lib,
                "20.3.1",
                format!("Lib controls cities worth {vp} VP with its government open"),
                ctx,
            );
        }
        if vp == 0 {
            return finish(
                state,
                Side::Fed,
                "20.3.1",
                "Lib controls no city VP with its government open".into(),
                ctx,
            );
        }
        ctx.log.public(format!(
            "victory check: Lib holds {vp} VP (9 wins, 0 loses); the game goes on (20.3.1, 4.2)"
        ));
        return;
    }
    reach::fire("20.3.2");
    if vp > 0 {
        ctx.log.public(format!(
            "victory check: Lib holds {vp} VP and cannot win without its government; the game goes on (20.3.2, 4.2)"
        ));
        return;
    }
    let units = lib_units_on_map(state);
    let b = bonus(state);
    // No throw of 3d6 (at most 18, plus the bonus) can reach that many units: no dice.
    if units > (18 + b) as usize {
        ctx.log.public(format!(
            "victory check: Lib holds 0 VP, but no throw of 3d6{} reaches its {units} units on the map, so no dice are rolled; the game goes on (20.3.2, 4.2)",
            if b > 0 {
                format!(" + {b}")
            } else {
                String::new()
            }
        ));
        return;
    }
    let label = format!("t{}/victory/3d6", state.turn);
    let sum: u32 = ctx.dice.roll(&label, 3, 6).iter().sum();
    let total = sum + b;
    let fed_wins = total as usize >= units;
    let plus = if b > 0 {
        format!(" + {b} (no Dougram on the map)")
    } else {
        String::new()
    };
    ctx.dice.set_result(
        &label,
        format!(
            "{sum}{plus} = {total} {} {units} Lib units: {} (20.3.2)",
            if fed_wins { ">=" } else { "<" },
            if fed_wins { "Fed wins" } else { "no winner" }
        ),
    );
    ctx.log.public(format!(
        "victory check: Lib holds 0 VP; Fed rolls 3d6 = {sum}{plus} = {total} against {units} Lib unit(s) on the map (20.3.2)"
    ));
    if fed_wins {
        finish(
            state,
            Side::Fed,
            "20.3.2",
            format!("Lib holds 0 VP and the roll {total} reached its {units} units on the map"),
            ctx,
        );
    } else {
        ctx.log
            .public("the roll falls short; the game goes on (20.3.2, 4.2)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::DiceTranscript;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice};
    use crate::systems::dougram::state::Unit;

    fn run(s: &mut State, seed: u64) -> (Log, DiceTranscript) {
        let mut d = dice(seed);
        let mut ctx = Ctx::new(&mut d);
        check(s, &mut ctx);
        let log = ctx.log;
        (log, d.finish().unwrap())
    }

    /// setup1 with all Lib units off the map except `n` soldiers in Spa, Lib holding no city.
    fn with_lib_units(n: usize) -> State {
        let mut s = dealt("setup1", 31);
        for u in s.units.values_mut() {
            if u.side == Side::Lib && matches!(u.at, UnitAt::Hex(_)) {
                u.at = UnitAt::Stock;
            }
        }
        let spa = s.data.map.hex_of("spa");
        let ids: Vec<String> = s
            .units
            .iter()
            .filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with("SO"))
            .map(|(id, _)| id.clone())
            .take(n)
            .collect();
        for id in ids {
            s.units.insert(
                id,
                Unit {
                    at: UnitAt::Hex(spa),
                    side: Side::Lib,
                    damaged: false,
                },
            );
        }
        s
    }

    /// Gives Lib control of cities worth at least `vp` by emptying them of Fed units and
    /// putting a Lib soldier in each, in place order.
    fn lib_holds(s: &mut State, vp: u32) {
        let cities: Vec<(u32, u32)> = s
            .data
            .map
            .places
            .iter()
            // Not Cardinal: Lib control of it with 29 open opens card 76 (24.1).
            .filter(|p| p.city && p.id != "cardinal")
            .map(|p| (p.hex, p.vp))
            .collect();
        let mut got = 0;
        for (h, v) in cities {
            if got >= vp {
                break;
            }
            for u in s.units.values_mut() {
                if u.at == UnitAt::Hex(h) && u.side == Side::Fed {
                    u.at = UnitAt::Stock;
                }
            }
            let id = s
                .units
                .iter()
                .find(|(id, u)| u.at == UnitAt::Stock && id.starts_with("SO"))
                .map(|(id, _)| id.clone())
                .unwrap();
            s.units.insert(
                id,
                Unit {
                    at: UnitAt::Hex(h),
                    side: Side::Lib,
                    damaged: false,
                },
            );
            got += v;
        }
        s.recompute_control();
        assert!(s.lib_vp() >= vp);
    }

    #[test]
    fn lacock_assassinated_wins_for_lib_even_with_peace_talks_20_2() {
        let mut s = dealt("setup1", 32);
        s.open.insert(34);
        s.open.insert(77);
        let (log, tr) = run(&mut s, 1);
        let f = s.finished.unwrap();
        assert_eq!((f.winner, f.rule.as_str()), (Side::Lib, "20.2"));
        assert!(tr.public.is_empty());
        assert!(log.public.iter().any(|l| l.contains("lib wins")));
    }

    #[test]
    fn peace_talks_win_for_fed_20_2() {
        let mut s = dealt("setup1", 33);
        s.open.insert(77);
        run(&mut s, 2);
        let f = s.finished.unwrap();
        assert_eq!((f.winner, f.rule.as_str()), (Side::Fed, "20.2"));
    }

    #[test]
    fn with_government_nine_vp_win_for_lib_20_3_1() {
        let mut s = with_lib_units(0);
        s.open.insert(29);
        lib_holds(&mut s, 9);
        run(&mut s, 3);
        let f = s.finished.unwrap();
        assert_eq!((f.winner, f.rule.as_str()), (Side::Lib, "20.3.1"));
    }

    #[test]
    fn with_government_zero_vp_win_for_fed_and_between_goes_on_20_3_1() {
        let mut s = with_lib_units(3);
        s.open.insert(29);
        // Spa: 3 Lib soldiers against 3 Fed units, a tie, which is Fed's (3.3a).
        let (_, tr) = run(&mut s, 4);
        assert_eq!(s.lib_vp(), 0);
        let f = s.finished.unwrap();
        assert_eq!((f.winner, f.rule.as_str()), (Side::Fed, "20.3.1"));
        assert!(tr.public.is_empty(), "no roll with 29 open");
        let mut s = with_lib_units(0);
        s.open.insert(29);
        lib_holds(&mut s, 1);
        assert!(s.lib_vp() < 9);
        let (log, _) = run(&mut s, 5);
        assert!(s.finished.is_none());
        assert!(log.public.iter().any(|l| l.contains("goes on")));
    }

    #[test]
    fn without_government_lib_cannot_win_20_3_2() {
        let mut s = with_lib_units(0);
        lib_holds(&mut s, 12);
        let (log, tr) = run(&mut s, 6);
        assert!(s.finished.is_none());
        assert!(tr.public.is_empty());
        assert!(log.public.iter().any(|l| l.contains("cannot win")));
    }

    #[test]
    fn zero_vp_roll_wins_for_fed_on_sum_at_least_lib_units_20_3_2() {
        // 3 Lib units, no Dougram: 3d6 + 3 >= 3 always.
        let mut s = with_lib_units(3);
        let (_, tr) = run(&mut s, 7);
        assert_eq!(tr.public[0].label, "t1/victory/3d6");
        assert_eq!(tr.public[0].values.len(), 3);
        let f = s.finished.unwrap();
        assert_eq!((f.winner, f.rule.as_str()), (Side::Fed, "20.3.2"));
    }

    #[test]
    fn a_20_3_2_roll_that_cannot_reach_the_lib_units_is_not_made_20_3_2() {
        // 22 Lib units, no Dougram: 3d6 + 3 is 21 at most, so no throw wins: nothing rolled.
        let mut s = with_lib_units(22);
        let (log, tr) = run(&mut s, 8);
        assert!(s.finished.is_none());
        assert!(tr.public.is_empty(), "no dice: {tr:?}");
        assert!(
            log.public
                .iter()
                .any(|l| l.contains("no throw of 3d6 + 3 reaches its 22 units")),
            "{:?}",
            log.public
        );
        // 21 units can still be reached (6+6+6+3): the roll is made.
        let mut s = with_lib_units(21);
        let (_, tr) = run(&mut s, 8);
        assert_eq!(tr.public.len(), 1);
    }

    #[test]
    fn the_roll_is_compared_with_ge_and_the_bonus_needs_no_dougram_20_3_2() {
        // With a Dougram on the map (a unit itself): N = 11 Lib units, no bonus.
        let mut found = [false; 2];
        for seed in 0..200 {
            let mut s = with_lib_units(10);
            let spa = s.data.map.hex_of("spa");
            s.units.get_mut("DG01").unwrap().at = UnitAt::Hex(spa);
            let (_, tr) = run(&mut s, seed);
            let sum: u32 = tr.public[0].values.iter().sum();
            assert_eq!(s.finished.is_some(), sum >= 11, "seed {seed}");
            if sum == 11 {
                found[0] = true;
            }
            if sum == 10 {
                found[1] = true;
            }
        }
        assert!(found[0] && found[1], "the edge cases were rolled");
        // Without a Dougram the same roll gets +3.
        for seed in 0..100 {
            let mut s = with_lib_units(11);
            let (_, tr) = run(&mut s, seed);
            let sum: u32 = tr.public[0].values.iter().sum();
            assert_eq!(s.finished.is_some(), sum + 3 >= 11, "seed {seed}");
        }
    }

    #[test]
    fn lib_units_on_the_map_count_cbas_but_not_the_stock_or_the_box_a33() {
        let mut s = with_lib_units(2);
        let spa = s.data.map.hex_of("spa");
        s.units.get_mut("DG01").unwrap().at = UnitAt::Hex(spa);
        s.units.get_mut("DT01").unwrap().at = UnitAt::ReplenishmentBox;
        assert_eq!(lib_units_on_map(&s), 3);
        assert!(dougram_on_map(&s));
    }

    #[test]
    fn fed_check_chance_matches_a_hand_count_20_3_2() {
        // 17 Lib units, no Dougram: 3d6 >= 14 -> 15 + 10 + 6 + 3 + 1 = 35 of 216 (digest .162).
        let s = with_lib_units(17);
        assert_eq!(fed_check_chance(&s), (35, 216));
        // With a Dougram among 17 units: 3d6 >= 17 -> 3 + 1 = 4.
        let mut s = with_lib_units(16);
        let spa = s.data.map.hex_of("spa");
        s.units.get_mut("JD01").unwrap().at = UnitAt::Hex(spa);
        assert_eq!(fed_check_chance(&s), (4, 216));
        // 11 units with a Dougram: 3d6 >= 11 -> exactly half.
        let mut s = with_lib_units(10);
        s.units.get_mut("DG01").unwrap().at = UnitAt::Hex(spa);
        assert_eq!(fed_check_chance(&s), (108, 216));
        assert_eq!(fed_check_chance(&with_lib_units(0)), (216, 216));
    }

    #[test]
    fn a_finished_game_is_not_checked_again_20() {
        let mut s = dealt("setup1", 34);
        s.open.insert(77);
        run(&mut s, 9);
        s.open.insert(34);
        run(&mut s, 10);
        assert_eq!(s.finished.unwrap().winner, Side::Fed);
    }
}
