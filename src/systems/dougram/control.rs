//! Control checks at the moments 3.3b names: the start and end of movement (3.3.1), after each
//! combat (3.3.2), and after anything else that changes a city's units (3.3.3). Each check
//! reports the cities that changed hands and evaluates the 24.1 control trigger (A53).

use super::ctx::Ctx;
use super::play;
use super::state::State;
use crate::kit::reach;
use crate::kit::seats::Seat;

/// Recomputes control; `when` names the moment for the report.
pub fn check(state: &mut State, when: &str, ctx: &mut Ctx) {
    let before = state.control.clone();
    state.recompute_control();
    for (place, side) in &state.control {
        if before.get(place) != Some(side) {
            // 3.1 (cities only change hands), by 3.2's three-to-one before card 29 (3.3a, the
            // majority after it, is no leaf rule of the table: nothing to note).
            reach::fire("3.1");
            if !state.flag(&super::cards::Flag::LibGovernment) {
                reach::fire("3.2");
            }
            let name = state
                .data
                .map
                .place(place)
                .map(|p| p.en.clone())
                .unwrap_or_else(|| place.clone());
            ctx.log.public(format!(
                "{name} passes to {} control ({when}, 3.3b)",
                side.name()
            ));
        }
    }
    play::control_checked(state, ctx);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::data::Side;
    use crate::systems::dougram::fixtures::{dealt, dice};
    use crate::systems::dougram::state::UnitAt;

    fn stock_ids(s: &State, prefix: &str, n: usize) -> Vec<String> {
        s.units
            .iter()
            .filter(|(id, u)| u.at == UnitAt::Stock && id.starts_with(prefix))
            .map(|(id, _)| id.clone())
            .take(n)
            .collect()
    }

    fn put(s: &mut State, id: &str, hex: u32, side: Side) {
        crate::systems::dougram::fixtures::put(s, id, hex, side);
    }

    #[test]
    fn lib_needs_three_times_feds_units_before_card_29_3_2() {
        let mut s = dealt("setup1", 1);
        let grante = s.data.map.hex_of("grante"); // Fed 3 units at setup1
        let fed: Vec<String> = s
            .units_in(grante, Side::Fed)
            .iter()
            .map(|x| x.to_string())
            .collect();
        for id in &fed[1..] {
            s.units.get_mut(id).unwrap().at = UnitAt::Stock;
        }
        let lib = stock_ids(&s, "SO", 3);
        put(&mut s, &lib[0], grante, Side::Lib);
        put(&mut s, &lib[1], grante, Side::Lib);
        s.recompute_control();
        assert_eq!(s.control["grante"], Side::Fed, "2 < 3 x 1");
        put(&mut s, &lib[2], grante, Side::Lib);
        s.recompute_control();
        assert_eq!(s.control["grante"], Side::Lib, "3 >= 3 x 1");
    }

    #[test]
    fn an_empty_city_is_feds_a2_and_over_stacked_lib_units_do_not_count_a3() {
        let mut s = dealt("setup1", 2);
        let estor = s.data.map.hex_of("estor");
        for id in s
            .units_in(estor, Side::Fed)
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
        {
            s.units.get_mut(&id).unwrap().at = UnitAt::Stock;
        }
        s.recompute_control();
        assert_eq!(s.control["estor"], Side::Fed, "A2");
        // Two Fed units need 6 Lib units: 6 over-stacked Lib units count as 4 (A3).
        let fed = stock_ids(&s, "CG", 2);
        for id in &fed {
            put(&mut s, id, estor, Side::Fed);
        }
        for id in stock_ids(&s, "SO", 6) {
            put(&mut s, &id, estor, Side::Lib);
        }
        s.recompute_control();
        assert_eq!(s.control["estor"], Side::Fed, "A3");
    }

    #[test]
    fn a_control_check_reports_each_city_that_changes_hands_3_3b() {
        let mut s = dealt("setup1", 3);
        let garland = s.data.map.hex_of("garland");
        for id in s
            .units_in(garland, Side::Fed)
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
        {
            s.units.get_mut(&id).unwrap().at = UnitAt::Stock;
        }
        let lib = stock_ids(&s, "SO", 1);
        put(&mut s, &lib[0], garland, Side::Lib);
        let mut d = dice(4);
        let mut ctx = Ctx::new(&mut d);
        check(&mut s, "end of movement", &mut ctx);
        assert_eq!(s.control["garland"], Side::Lib);
        assert_eq!(ctx.log.public.len(), 1);
        assert!(ctx.log.public[0].contains("Garland passes to lib control (end of movement"));
        check(&mut s, "again", &mut ctx);
        assert_eq!(ctx.log.public.len(), 1, "no change, no line");
    }
}
