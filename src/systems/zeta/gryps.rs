//! Gryps 2 (31): the mobile base, its moves with the units inside it (31.3-31.4) and its laser
//! (31.5); its placement (31.1-31.2) is deploy.rs's.

use super::action::current_card;
use super::axis::{lower_base, riders};
use super::carry::{base_place, bases_at, phase_prefix};
use super::ctx::{Choice, Ctx, Moment};
use super::damage::{Losses, remove_unit};
use super::data::{Class, Loc, MapId, Place, Side};
use super::guard;
use super::labels;
use super::orders::{GrypsOrder, LaserTarget, PhaseOrders};
use super::state::CardKind;
use super::survival::survival;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Gryps 2's base id.
pub const GRYPS_2: &str = "gryps_2";

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// Whether Gryps 2 may move so (31.4): one hex on the space map (31.4.3, 31.4.4), on its
/// governor's Space card, at level 2 or more (31.4.1-31.4.2).
pub fn legal_gryps_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &GrypsOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let Some(to) = item.to else {
        return Ok(());
    };
    let at = at.at("move");
    let st = &ctx.state;
    let space = current_card(st).is_some_and(|c| c.side == side && c.kind == CardKind::Space);
    if !space {
        return Err(problem(
            &at,
            "31.4.2",
            "Gryps 2 moves only in a phase of its governor's own Space card".into(),
            "no Gryps 2 move in this phase",
        ));
    }
    let g = st.bases.get(GRYPS_2);
    if !g.is_some_and(|b| !b.destroyed && b.governor == Some(side)) {
        return Err(problem(
            &at,
            "31.4.1",
            format!("{side} does not govern Gryps 2"),
            "the governor of Gryps 2",
        ));
    }
    if g.is_none_or(|b| b.level < 2) {
        return Err(problem(
            &at,
            "31.4.1",
            "Gryps 2 moves only at level 2 or more".into(),
            "Gryps 2 at level 2 or more",
        ));
    }
    let next = match base_place(st, &ctx.data, GRYPS_2) {
        Some(Place::Hex(f)) => {
            to.map == MapId::Space
                && to.at != ctx.data.map.space.earth
                && ctx.data.neighbours(f).contains(&to)
        }
        _ => false,
    };
    if !next {
        let rule = if to.map == MapId::Space {
            "31.4.3"
        } else {
            "31.4.4"
        };
        return Err(problem(
            &at,
            rule,
            format!("Gryps 2 cannot move to {} in one step", to.label()),
            "a space hex next to Gryps 2",
        ));
    }
    Ok(())
}

/// Slot A5, after the units' moves (31.4): Gryps 2's move with the units governing or
/// recovering in it (31.3, F7), if it is still legal now; else skipped and `side` told.
pub fn resolve_gryps_move(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let Some(item) = &orders.gryps else { return };
    let Some(to) = item.to else { return };
    if let Err(p) = legal_gryps_move(ctx, side, item, &FieldPath::root().at("gryps")) {
        ctx.log
            .private(side, format!("Gryps 2's move skipped: {}", p.message));
        return;
    }
    let Some(from) = base_place(&ctx.state, &ctx.data, GRYPS_2) else {
        return;
    };
    for r in ["31.4.1", "31.4.2", "31.4.3"] {
        reach::fire(r);
    }
    let riding = riders(ctx, side, GRYPS_2, from, orders);
    if let Some(g) = ctx.state.bases.get_mut(GRYPS_2) {
        g.place = Some(Place::Hex(to));
    }
    for id in &riding {
        if let Some(u) = ctx.state.units.get_mut(id) {
            u.place = Place::Hex(to);
        }
    }
    if !riding.is_empty() {
        reach::fire("31.3");
    }
    let with = if riding.is_empty() {
        String::new()
    } else {
        format!(" with {} (31.3)", riding.join(", "))
    };
    ctx.log.public(format!(
        "{side}'s Gryps 2 moves from {} to {}{with}",
        from.label(),
        to.label()
    ));
}

/// Gryps 2's hex when `side` may fire its laser now: its governor's Space card (31.5.1), level
/// 2 or more when it fires (31.5.2, A-68).
fn laser_hex(ctx: &Ctx<'_>, side: Side, at: &FieldPath) -> Result<Loc, Problem> {
    let st = &ctx.state;
    let space = current_card(st).is_some_and(|c| c.side == side && c.kind == CardKind::Space);
    if !space {
        return Err(problem(
            at,
            "31.5.1",
            "the laser fires only in a phase of its governor's own Space card".into(),
            "no laser in this phase",
        ));
    }
    let g = st.bases.get(GRYPS_2);
    if !g.is_some_and(|b| !b.destroyed && b.governor == Some(side)) {
        return Err(problem(
            at,
            "31.5.1",
            format!("{side} does not govern Gryps 2"),
            "the governor of Gryps 2",
        ));
    }
    if g.is_none_or(|b| b.level < 2) {
        return Err(problem(
            at,
            "31.5.2",
            "the laser fires only with Gryps 2 at level 2 or more".into(),
            "Gryps 2 at level 2 or more",
        ));
    }
    match base_place(st, &ctx.data, GRYPS_2) {
        Some(Place::Hex(l)) => Ok(l),
        _ => Err(problem(
            at,
            "31.5.1",
            "Gryps 2 is not on the map".into(),
            "Gryps 2 on the map",
        )),
    }
}

/// Whether the laser may fire at this hex (31.5.1-31.5.4, A-68, A-70): Gryps 2's hex or one
/// next to it, never the sanctuary Side 6's hex.
pub fn legal_laser(
    ctx: &Ctx<'_>,
    side: Side,
    item: &LaserTarget,
    at: &FieldPath,
) -> Result<(), Problem> {
    let here = laser_hex(ctx, side, at)?;
    let expected = "Gryps 2's hex or a hex next to it, not Side 6's";
    if item.at != here && !ctx.data.neighbours(here).contains(&item.at) {
        return Err(problem(
            &at.at("at"),
            "31.5.4",
            format!("{} is out of the laser's reach", item.at.label()),
            expected,
        ));
    }
    let sanctuary = bases_at(&ctx.state, &ctx.data, Place::Hex(item.at))
        .iter()
        .any(|b| ctx.data.base(b).is_some_and(|d| d.ungovernable));
    if sanctuary {
        return Err(problem(
            &at.at("at"),
            "A-70",
            format!("{} is Side 6's hex, a sanctuary", item.at.label()),
            expected,
        ));
    }
    if let Some(g) = &item.guard {
        guard::legal_guard(ctx, side, g, &at.at("if"))?;
    }
    Ok(())
}

/// The hexes the laser may fire at.
pub fn laser_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<LaserTarget>> {
    let Ok(here) = laser_hex(ctx, side, &FieldPath::root()) else {
        return Vec::new();
    };
    let mut hexes = vec![here];
    hexes.extend(ctx.data.neighbours(here));
    hexes
        .into_iter()
        .map(|at| LaserTarget { at, guard: None })
        .filter(|t| legal_laser(ctx, side, t, &FieldPath::root()).is_ok())
        .map(|item| Choice {
            note: format!("laser at {} (31.5)", item.at.label()),
            item,
        })
        .collect()
}

/// 31.5.5: a base's loss for a die, by Gryps 2's level.
pub fn base_loss(level: u8, die: u32) -> u8 {
    match (level >= 3, die) {
        (false, 1) | (true, 1..=3) => 3,
        (false, 2 | 3) | (true, 4 | 5) => 2,
        _ => 1,
    }
}

/// 31.5.7: whether a unit is removed on a die, by Gryps 2's level.
pub fn unit_removed(level: u8, die: u32) -> bool {
    die <= if level >= 3 { 2 } else { 1 }
}

/// The base the laser hits in a hex (D33): the enemy base worth the most VP, then a neutral
/// one, then the firer's own; never Gryps 2 itself.
fn laser_base(ctx: &Ctx<'_>, side: Side, at: Loc) -> Option<String> {
    bases_at(&ctx.state, &ctx.data, Place::Hex(at))
        .into_iter()
        .filter(|b| b != GRYPS_2)
        .max_by_key(|b| {
            let s = ctx.state.bases.get(b);
            let gov = s.and_then(|s| s.governor);
            let rank = match gov {
                Some(g) if g != side => 2,
                None => 1,
                Some(_) => 0,
            };
            let level = s.map_or(0, |s| s.level);
            let vp = ctx
                .data
                .base(b)
                .and_then(|d| d.levels.get(usize::from(level).wrapping_sub(1)))
                .map_or(0, |v| v.vp);
            (rank, vp, std::cmp::Reverse(b.clone()))
        })
}

/// Slot A10 (31.5.3: after all combats): the first entry of `side`'s laser list that is legal
/// now and whose guard holds fires; the others are skipped.
pub fn resolve_laser(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let mut chosen = None;
    for (i, t) in orders.laser.iter().enumerate() {
        let at = FieldPath::root().at("laser").at(i);
        if let Err(p) = legal_laser(ctx, side, t, &at) {
            ctx.log.private(
                side,
                format!("laser at {} skipped: {}", t.at.label(), p.message),
            );
            continue;
        }
        if t.guard
            .as_ref()
            .is_some_and(|g| guard::holds(ctx, side, g) != Some(true))
        {
            ctx.log.private(
                side,
                format!("laser at {}: its condition does not hold", t.at.label()),
            );
            continue;
        }
        chosen = Some(t.at);
        break;
    }
    let Some(target) = chosen else { return };
    if ctx.moment == Moment::Check || ctx.dice.is_none() {
        return;
    }
    fire(ctx, side, target);
}

/// 31.5.5-31.5.11: the laser hits `target`'s base and every unit there, of every faction.
fn fire(ctx: &mut Ctx<'_>, side: Side, target: Loc) {
    for r in ["31.5.1", "31.5.2", "31.5.3", "31.5.4"] {
        reach::fire(r);
    }
    let level = ctx.state.bases.get(GRYPS_2).map_or(0, |b| b.level);
    let prefix = phase_prefix(&ctx.state);
    ctx.log.public(format!(
        "{side} fires Gryps 2's laser (level {level}) at {} (31.5)",
        target.label()
    ));
    if let Some(b) = laser_base(ctx, side, target) {
        let label = labels::under(&prefix, &["laser", &b]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let die = dice.d6(&label);
        let k = base_loss(level, die);
        dice.set_result(&label, format!("-{k}"));
        reach::fire("31.5.5");
        let what = lower_base(ctx, &b, k, "31.5.6");
        ctx.log.public(format!("laser on {b}: rolls {die}, {what}"));
    }
    let here: Vec<String> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.place == Place::Hex(target))
        .map(|(id, _)| id.clone())
        .collect();
    let mut losses = Losses::default();
    for id in here {
        // A ship removed earlier took its cargo with it (25.9).
        let Some(u) = ctx.state.units.get(&id) else {
            continue;
        };
        if u.side != side {
            reach::fire("31.5.11");
        }
        let colony = ctx
            .data
            .unit_type(&u.type_id)
            .is_some_and(|t| t.class == Class::Colony);
        if colony {
            // 31.5.10: the colony goes without a roll.
            reach::fire("31.5.10");
            remove_unit(ctx, &id, &mut losses);
            continue;
        }
        let label = labels::under(&prefix, &["laser", &id]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let die = dice.d6(&label);
        let gone = unit_removed(level, die);
        dice.set_result(&label, if gone { "removed" } else { "unharmed" });
        reach::fire("31.5.7");
        if gone {
            // 31.5.8: to its faction's factory box.
            reach::fire("31.5.8");
            ctx.log
                .public(format!("laser on {id}: rolls {die}, removed"));
            remove_unit(ctx, &id, &mut losses);
        } else {
            ctx.log
                .public(format!("laser on {id}: rolls {die}, unharmed"));
        }
    }
    for (c, _) in losses.survivors {
        // 31.5.9: the removed unit's characters roll with +1 (A-29: over 6 reads 6).
        reach::fire("31.5.9");
        let label = labels::under(&prefix, &["laser", "survival", &c]);
        survival(ctx, &c, 1, &label);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::carry::fixture::{loc, phase, put};
    use crate::systems::zeta::state::State;

    /// The real setup with Gryps 2 (Titans, level 2) placed in Green Noa's hex (31.1-31.2)
    /// and a Titans Space phase under way.
    fn placed() -> State {
        let mut st = crate::systems::zeta::carry::fixture::state();
        let g = st.bases.get_mut(GRYPS_2).unwrap();
        g.place = Some(Place::Hex(loc("space:C02")));
        g.governor = Some(Side::Titans);
        g.level = 2;
        phase(&mut st, Side::Titans, CardKind::Space);
        st
    }

    fn target(at: &str) -> LaserTarget {
        LaserTarget {
            at: loc(at),
            guard: None,
        }
    }

    fn refusal(st: &State, side: Side, t: &LaserTarget) -> Problem {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_laser(&ctx, side, t, &FieldPath::root().at("laser").at(0)).unwrap_err()
    }

    #[test]
    fn the_laser_reaches_its_own_hex_and_the_six_next_31_5_4() {
        let ctx = Ctx::new(placed(), None, Moment::Check);
        let ch = laser_choices(&ctx, Side::Titans);
        let n = 1 + ctx.data.neighbours(loc("space:C02")).len();
        assert_eq!(ch.len(), n);
        assert!(ch.iter().any(|c| c.item.at == loc("space:C02")));
    }

    #[test]
    fn a_far_hex_is_out_of_reach_31_5_4() {
        let p = refusal(&placed(), Side::Titans, &target("space:J04"));
        assert_eq!(p.rule.as_deref(), Some("31.5.4"));
        assert!(
            p.message.contains("out of the laser's reach"),
            "{}",
            p.message
        );
    }

    #[test]
    fn only_in_the_governors_space_phase_31_5_1() {
        let mut st = placed();
        phase(&mut st, Side::Titans, CardKind::Ground);
        let p = refusal(&st, Side::Titans, &target("space:C02"));
        assert!(p.message.contains("own Space card"), "{}", p.message);
        let mut st = placed();
        phase(&mut st, Side::Aeug, CardKind::Space);
        let p = refusal(&st, Side::Aeug, &target("space:C02"));
        assert!(
            p.message.contains("does not govern Gryps 2"),
            "{}",
            p.message
        );
    }

    #[test]
    fn level_1_does_not_fire_31_5_2() {
        let mut st = placed();
        st.bases.get_mut(GRYPS_2).unwrap().level = 1;
        let p = refusal(&st, Side::Titans, &target("space:C02"));
        assert_eq!(p.rule.as_deref(), Some("31.5.2"));
    }

    #[test]
    fn before_its_placement_there_is_no_laser_31_1() {
        let mut st = placed();
        st.bases.get_mut(GRYPS_2).unwrap().place = None;
        let p = refusal(&st, Side::Titans, &target("space:C02"));
        assert!(p.message.contains("not on the map"), "{}", p.message);
    }

    fn move_to(at: &str) -> GrypsOrder {
        GrypsOrder { to: Some(loc(at)) }
    }

    fn move_refusal(st: &State, t: &GrypsOrder) -> Problem {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_gryps_move(&ctx, Side::Titans, t, &FieldPath::root().at("gryps")).unwrap_err()
    }

    #[test]
    fn gryps_moves_one_space_hex_31_4_3_31_4_4() {
        let st = placed();
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let earth = ctx.data.map.space.earth;
        let n = ctx
            .data
            .neighbours(loc("space:C02"))
            .into_iter()
            .find(|l| l.at != earth)
            .unwrap();
        let item = GrypsOrder { to: Some(n) };
        assert!(legal_gryps_move(&ctx, Side::Titans, &item, &FieldPath::root()).is_ok());
        let p = move_refusal(&st, &move_to("space:J04"));
        assert_eq!(p.rule.as_deref(), Some("31.4.3"));
        let p = move_refusal(&st, &move_to("ground:C02"));
        assert_eq!(p.rule.as_deref(), Some("31.4.4"));
    }

    #[test]
    fn gryps_at_level_1_does_not_move_31_4_1() {
        let mut st = placed();
        st.bases.get_mut(GRYPS_2).unwrap().level = 1;
        let p = move_refusal(&st, &move_to("space:B04"));
        assert!(p.message.contains("level 2 or more"), "{}", p.message);
    }

    #[test]
    fn governors_ride_with_gryps_others_stay_31_3() {
        use crate::systems::zeta::state::Action;
        let mut st = placed();
        put(&mut st, "t-gov", Side::Titans, "hizack", "space:C02");
        put(&mut st, "t-idle", Side::Titans, "hizack", "space:C02");
        st.units.get_mut("t-gov").unwrap().action = Some(Action::Govern {
            base: GRYPS_2.into(),
        });
        let ctx0 = Ctx::new(st.clone(), None, Moment::Check);
        let earth = ctx0.data.map.space.earth;
        let n = ctx0
            .data
            .neighbours(loc("space:C02"))
            .into_iter()
            .find(|l| l.at != earth)
            .unwrap();
        let orders = PhaseOrders {
            gryps: Some(GrypsOrder { to: Some(n) }),
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        resolve_gryps_move(&mut ctx, Side::Titans, &orders);
        assert_eq!(ctx.state.bases[GRYPS_2].place, Some(Place::Hex(n)));
        assert_eq!(ctx.state.units["t-gov"].place, Place::Hex(n));
        assert_eq!(
            ctx.state.units["t-idle"].place,
            Place::Hex(loc("space:C02"))
        );
    }

    #[test]
    fn the_tables_31_5_5_31_5_7() {
        let l2: Vec<u8> = (1..=6).map(|d| base_loss(2, d)).collect();
        assert_eq!(l2, vec![3, 2, 2, 1, 1, 1]);
        let l3: Vec<u8> = (1..=6).map(|d| base_loss(3, d)).collect();
        assert_eq!(l3, vec![3, 3, 3, 2, 2, 1]);
        let r2: Vec<bool> = (1..=6).map(|d| unit_removed(2, d)).collect();
        assert_eq!(r2, vec![true, false, false, false, false, false]);
        let r3: Vec<bool> = (1..=6).map(|d| unit_removed(3, d)).collect();
        assert_eq!(r3, vec![true, true, false, false, false, false]);
    }

    #[test]
    fn the_laser_hits_green_noa_not_itself_and_every_unit_31_5_11() {
        let mut st = placed();
        st.bases.get_mut("green_noa").unwrap().governor = Some(Side::Aeug);
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "space:C02");
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C02");
        let mut dice = Dice::new(Hash32([5; 32]), Hash32([7; 32])).at_step(9);
        let mut ctx = Ctx::new(st, Some(&mut dice), Moment::Resolve);
        let orders = PhaseOrders {
            laser: vec![target("space:J04"), target("space:C02")],
            ..Default::default()
        };
        resolve_laser(&mut ctx, Side::Titans, &orders);
        assert_eq!(ctx.state.bases[GRYPS_2].level, 2);
        assert!(ctx.state.bases["green_noa"].level <= 2);
        let (public, private) = ctx.log.clone().into_lines();
        // The far entry was skipped and its side told; the second fired.
        assert!(format!("{private:?}").contains("skipped"), "{private:?}");
        assert!(public.iter().any(|l| l.contains("laser on green_noa")));
        for id in ["a-gm2-1", "t-hizack-1"] {
            let line = public
                .iter()
                .find(|l| l.starts_with(&format!("laser on {id}:")))
                .unwrap();
            assert_eq!(
                line.ends_with("removed"),
                !ctx.state.units.contains_key(id),
                "{line}"
            );
        }
    }

    #[test]
    fn a_list_with_no_legal_entry_fires_nothing_31_5_4() {
        let st = placed();
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let orders = PhaseOrders {
            laser: vec![target("space:J04")],
            ..Default::default()
        };
        resolve_laser(&mut ctx, Side::Titans, &orders);
        assert_eq!(ctx.state.bases["green_noa"].level, 3);
        let (public, _) = ctx.log.clone().into_lines();
        assert!(public.is_empty());
    }
}

#[cfg(test)]
#[path = "gryps_laser_tests.rs"]
mod laser_tests;
