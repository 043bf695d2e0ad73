//! Axis (30): the mobile base, its moves with the units inside it (30.3) and its attack on a
//! base in its hex (30.4); the belt's bonus (30.2) is arming.rs's.

use super::action::current_card;
use super::carry::{base_place, bases_at, phase_prefix};
use super::ctx::{Choice, Ctx, Moment};
use super::data::{MapId, Place, Side};
use super::labels;
use super::orders::{AxisOrder, PhaseOrders};
use super::state::{Action, CardKind};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// Axis's base id.
pub const AXIS: &str = "axis";

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// Whether Axis may move and attack so (30.3-30.4, A-63, A-70). At `check` an attack is
/// judged in the hex the move leads to; when the step resolves Axis has moved already (A5
/// before A6).
pub fn legal_axis(
    ctx: &Ctx<'_>,
    side: Side,
    item: &AxisOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    if let Some(to) = item.to {
        legal_move(ctx, side, to, &at.at("move"))?;
    }
    let here = match (ctx.moment, item.to) {
        (Moment::Check, Some(to)) => Some(to),
        _ => base_place(&ctx.state, &ctx.data, AXIS),
    };
    match &item.attack {
        Some(target) => legal_attack(ctx, side, target, here, &at.at("attack")),
        None => Ok(()),
    }
}

/// 30.3.1-30.3.5, 30.4.7: Axis moves one hex on its governor's Space card, at level 1 or more,
/// on the space map or between the belt box and the hexes next to it, never to the ground.
fn legal_move(ctx: &Ctx<'_>, side: Side, to: Place, at: &FieldPath) -> Result<(), Problem> {
    let st = &ctx.state;
    let space = current_card(st).is_some_and(|c| c.side == side && c.kind == CardKind::Space);
    if !space {
        return Err(problem(
            at,
            "30.3.2",
            "Axis moves only in a phase of its governor's own Space card".into(),
            "no Axis move in this phase",
        ));
    }
    let axis = st.bases.get(AXIS);
    if !axis.is_some_and(|b| !b.destroyed && b.governor == Some(side)) {
        return Err(problem(
            at,
            "30.3.1",
            format!("{side} does not govern Axis"),
            "the governor of Axis",
        ));
    }
    if axis.is_none_or(|b| b.level < 1) {
        return Err(problem(
            at,
            "30.3.2",
            "Axis moves only at level 1 or more".into(),
            "Axis at level 1 or more",
        ));
    }
    if axis.is_some_and(|b| b.immobile_forever) {
        return Err(problem(
            at,
            "30.4.7",
            "Axis attacked a Moon base and never moves again".into(),
            "no Axis move",
        ));
    }
    let space_map = &ctx.data.map.space;
    let expected = "a space hex next to Axis, or the belt box from a hex next to it";
    let next = match (base_place(st, &ctx.data, AXIS), to) {
        (Some(Place::Belt), Place::Hex(l)) => {
            l.map == MapId::Space && space_map.belt_adjacent.contains(&l.at)
        }
        (Some(Place::Hex(f)), Place::Belt) => {
            f.map == MapId::Space && space_map.belt_adjacent.contains(&f.at)
        }
        (Some(Place::Hex(f)), Place::Hex(l)) => {
            l.map == MapId::Space && l.at != space_map.earth && ctx.data.neighbours(f).contains(&l)
        }
        _ => false,
    };
    if !next {
        let rule = match to {
            Place::Hex(l) if l.map != MapId::Space => "30.3.5",
            _ => "30.3.3",
        };
        return Err(problem(
            at,
            rule,
            format!("Axis cannot move to {} in one step", to.label()),
            expected,
        ));
    }
    Ok(())
}

/// 30.3.6-30.3.7, 31.3 (F7): the units of `side` in a mobile base's place whose action this
/// phase is to govern that base or to recover at it, and the MS they carry.
pub fn riders(
    ctx: &Ctx<'_>,
    side: Side,
    base: &str,
    from: Place,
    orders: &PhaseOrders,
) -> Vec<String> {
    let recovering: Vec<&str> = orders
        .units
        .iter()
        .filter(|o| o.recover.as_deref() == Some(base))
        .map(|o| o.unit.as_str())
        .collect();
    let first: Vec<String> = ctx
        .state
        .units
        .iter()
        .filter(|(id, u)| {
            u.side == side
                && u.place == from
                && match &u.action {
                    Some(Action::Govern { base: b }) => b == base,
                    Some(Action::Recover) => recovering.contains(&id.as_str()),
                    _ => false,
                }
        })
        .map(|(id, _)| id.clone())
        .collect();
    let mut all = first.clone();
    for (id, u) in &ctx.state.units {
        if u.carrier.as_ref().is_some_and(|c| first.contains(c)) && !all.contains(id) {
            all.push(id.clone());
        }
    }
    all
}

/// Slot A5, after the units' moves (30.3): Axis's move of `side`'s orders, with its riders,
/// if it is still legal now; else it is skipped and `side` told.
pub fn resolve_axis_move(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let Some(to) = orders.axis.as_ref().and_then(|a| a.to) else {
        return;
    };
    let at = FieldPath::root().at("axis").at("move");
    if let Err(p) = legal_move(ctx, side, to, &at) {
        ctx.log
            .private(side, format!("Axis's move skipped: {}", p.message));
        return;
    }
    let Some(from) = base_place(&ctx.state, &ctx.data, AXIS) else {
        return;
    };
    for r in ["30.3.1", "30.3.2", "30.3.3"] {
        reach::fire(r);
    }
    if from == Place::Belt || to == Place::Belt {
        reach::fire("30.3.4");
    }
    let riding = riders(ctx, side, AXIS, from, orders);
    if let Some(a) = ctx.state.bases.get_mut(AXIS) {
        a.place = Some(to);
    }
    for id in &riding {
        if let Some(u) = ctx.state.units.get_mut(id) {
            u.place = to;
        }
    }
    if !riding.is_empty() {
        reach::fire("30.3.6");
    }
    let with = if riding.is_empty() {
        String::new()
    } else {
        format!(" with {} (30.3.6-30.3.7)", riding.join(", "))
    };
    ctx.log.public(format!(
        "{side}'s Axis moves from {} to {}{with}",
        from.label(),
        to.label()
    ));
}

/// 30.4.1, A-63, A-70: Axis attacks a base in its own hex, in a phase of its governor's Space
/// card, Axis at level 1 or more; never Axis itself, an own base, or the sanctuary Side 6.
fn legal_attack(
    ctx: &Ctx<'_>,
    side: Side,
    target: &str,
    here: Option<Place>,
    at: &FieldPath,
) -> Result<(), Problem> {
    let st = &ctx.state;
    let space = current_card(st).is_some_and(|c| c.side == side && c.kind == CardKind::Space);
    if !space {
        return Err(problem(
            at,
            "30.4.1",
            "Axis attacks only in a phase of its governor's own Space card".into(),
            "no axis attack in this phase",
        ));
    }
    let axis = st.bases.get(AXIS);
    let governs = axis.is_some_and(|b| !b.destroyed && b.governor == Some(side));
    if !governs {
        return Err(problem(
            at,
            "30.4.1",
            format!("{side} does not govern Axis"),
            "the governor of Axis",
        ));
    }
    if axis.is_none_or(|b| b.level < 1) {
        return Err(problem(
            at,
            "30.4.1",
            "Axis attacks only at level 1 or more (A-63)".into(),
            "Axis at level 1 or more",
        ));
    }
    let Some(here) = here else {
        return Err(problem(
            at,
            "30.4.1",
            "Axis is not on the map".into(),
            "Axis on the map",
        ));
    };
    let expected = "a base in Axis's hex, not your own, not Side 6";
    if target == AXIS || !bases_at(st, &ctx.data, here).iter().any(|b| b == target) {
        return Err(problem(
            at,
            "30.4.1",
            format!("{target} is not a base in Axis's hex"),
            expected,
        ));
    }
    if st.bases.get(target).and_then(|b| b.governor) == Some(side) {
        return Err(problem(
            at,
            "30.4.1",
            format!("{target} is {side}'s own base"),
            expected,
        ));
    }
    if ctx.data.base(target).is_some_and(|b| b.ungovernable) {
        return Err(problem(
            at,
            "A-70",
            format!("{target} is a sanctuary and cannot be attacked"),
            expected,
        ));
    }
    Ok(())
}

/// Axis's moves and attacks open to its governor: an attack on each base it may hit now.
pub fn axis_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<AxisOrder>> {
    let Some(here) = base_place(&ctx.state, &ctx.data, AXIS) else {
        return Vec::new();
    };
    bases_at(&ctx.state, &ctx.data, here)
        .into_iter()
        .filter(|b| legal_attack(ctx, side, b, Some(here), &FieldPath::root()).is_ok())
        .map(|b| Choice {
            note: format!("Axis attacks {b} (30.4)"),
            item: AxisOrder {
                to: None,
                attack: Some(b),
            },
        })
        .collect()
}

/// 30.4.4: the target's loss for a die.
pub fn target_loss(die: u32) -> u8 {
    match die {
        1 | 2 => 3,
        3..=5 => 2,
        _ => 1,
    }
}

/// 30.4.5, 30.4.7 (A-65: against a Moon base every row is one level worse): Axis's loss.
pub fn axis_loss(die: u32, moon: bool) -> u8 {
    let base = match die {
        1 => 3,
        2 | 3 => 2,
        4 | 5 => 1,
        _ => 0,
    };
    base + u8::from(moon)
}

/// Lowers `base` by `k` levels: at 0 it turns neutral (2.6); below 0 it is destroyed for the
/// rest of the game (30.4.6, 31.5.6). Returns the words for the event.
pub fn lower_base(ctx: &mut Ctx<'_>, base: &str, k: u8, rule: &'static str) -> String {
    let Some(b) = ctx.state.bases.get_mut(base) else {
        return String::new();
    };
    if k == 0 {
        return format!("{base} is unharmed");
    }
    if k > b.level {
        reach::fire(rule);
        b.destroyed = true;
        b.level = 0;
        b.governor = None;
        return format!("{base} loses {k} level(s) and is destroyed for good ({rule})");
    }
    b.level -= k;
    if b.level == 0 {
        b.governor = None;
        return format!("{base} loses {k} level(s) and turns neutral");
    }
    format!("{base} loses {k} level(s), now {}", b.level)
}

/// Slot A6 (30.4.3: after the moves, before combat): the Axis attack of `side`'s orders, if
/// it is still legal now; else it is skipped and `side` told.
pub fn resolve_axis_attack(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let Some(target) = orders.axis.as_ref().and_then(|a| a.attack.clone()) else {
        return;
    };
    let at = FieldPath::root().at("axis").at("attack");
    let here = base_place(&ctx.state, &ctx.data, AXIS);
    if let Err(p) = legal_attack(ctx, side, &target, here, &at) {
        ctx.log.private(
            side,
            format!("Axis attack on {target} skipped: {}", p.message),
        );
        return;
    }
    if ctx.moment == Moment::Check {
        return;
    }
    let prefix = phase_prefix(&ctx.state);
    let l_target = labels::under(&prefix, &["axis_attack", &target]);
    let l_axis = labels::under(&prefix, &["axis_attack", AXIS]);
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    // 30.4.2: chosen by the order; 30.4.4-30.4.5: one die for the target, then one for Axis.
    reach::fire("30.4.1");
    reach::fire("30.4.2");
    reach::fire("30.4.3");
    reach::fire("30.4.4");
    reach::fire("30.4.5");
    let d_target = dice.d6(&l_target);
    let d_axis = dice.d6(&l_axis);
    let moon = ctx.data.base(&target).is_some_and(|b| b.moon);
    let lt = target_loss(d_target);
    let la = axis_loss(d_axis, moon);
    if let Some(d) = ctx.dice.as_deref_mut() {
        d.set_result(&l_target, format!("-{lt}"));
        d.set_result(&l_axis, format!("-{la}"));
    }
    let hit = lower_base(ctx, &target, lt, "30.4.6");
    let back = lower_base(ctx, AXIS, la, "30.4.6");
    ctx.log.public(format!(
        "{side}'s Axis attacks {target}: rolls {d_target}, {hit}; Axis rolls {d_axis}, {back}"
    ));
    if moon {
        // 30.4.7: after attacking a Moon base Axis never moves again.
        reach::fire("30.4.7");
        if let Some(a) = ctx.state.bases.get_mut(AXIS) {
            a.immobile_forever = true;
        }
        ctx.log
            .public("Axis attacked a Moon base and can never move again (30.4.7)".to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::carry::fixture::{loc, phase};
    use crate::systems::zeta::state::State;

    /// The real setup with Axis (Neo Zeon, level 3) moved into Granada's hex (AEUG, level 3)
    /// and a Neo Zeon Space phase under way.
    fn at_granada() -> State {
        let mut st = crate::systems::zeta::carry::fixture::state();
        st.bases.get_mut(AXIS).unwrap().place = Some(Place::Hex(loc("space:J04")));
        phase(&mut st, Side::NeoZeon, CardKind::Space);
        st
    }

    /// A space hex next to Granada's, not Earth's.
    fn near_granada(st: &State) -> crate::systems::zeta::data::Loc {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let earth = ctx.data.map.space.earth;
        ctx.data
            .neighbours(loc("space:J04"))
            .into_iter()
            .find(|l| l.at != earth)
            .unwrap()
    }

    fn attack(target: &str) -> AxisOrder {
        AxisOrder {
            to: None,
            attack: Some(target.into()),
        }
    }

    fn refusal(st: &State, side: Side, item: &AxisOrder) -> Problem {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_axis(&ctx, side, item, &FieldPath::root().at("axis")).unwrap_err()
    }

    #[test]
    fn attack_on_a_base_in_axis_hex_is_legal_30_4_1() {
        let ctx = Ctx::new(at_granada(), None, Moment::Check);
        assert!(legal_axis(&ctx, Side::NeoZeon, &attack("granada"), &FieldPath::root()).is_ok());
        let ch = axis_choices(&ctx, Side::NeoZeon);
        assert_eq!(ch.len(), 1);
        assert_eq!(ch[0].item, attack("granada"));
    }

    #[test]
    fn attack_outside_own_space_phase_is_refused_a_63() {
        let mut st = at_granada();
        phase(&mut st, Side::NeoZeon, CardKind::Ground);
        let p = refusal(&st, Side::NeoZeon, &attack("granada"));
        assert!(p.message.contains("own Space card"), "{}", p.message);
    }

    #[test]
    fn only_axis_governor_attacks_30_4_1() {
        let mut st = at_granada();
        phase(&mut st, Side::Titans, CardKind::Space);
        let p = refusal(&st, Side::Titans, &attack("granada"));
        assert!(p.message.contains("does not govern Axis"), "{}", p.message);
    }

    #[test]
    fn axis_at_level_0_does_not_attack_a_63() {
        let mut st = at_granada();
        st.bases.get_mut(AXIS).unwrap().level = 0;
        let p = refusal(&st, Side::NeoZeon, &attack("granada"));
        assert!(p.message.contains("level 1 or more"), "{}", p.message);
    }

    #[test]
    fn axis_in_the_belt_is_not_on_the_map_30_4_1() {
        let mut st = at_granada();
        st.bases.get_mut(AXIS).unwrap().place = Some(Place::Belt);
        let p = refusal(&st, Side::NeoZeon, &attack("granada"));
        assert!(
            p.message.contains("not a base in Axis's hex"),
            "{}",
            p.message
        );
    }

    #[test]
    fn a_base_elsewhere_or_axis_itself_is_refused_30_4_1() {
        let st = at_granada();
        let p = refusal(&st, Side::NeoZeon, &attack("green_noa"));
        assert!(
            p.message.contains("not a base in Axis's hex"),
            "{}",
            p.message
        );
        let p = refusal(&st, Side::NeoZeon, &attack(AXIS));
        assert!(
            p.message.contains("not a base in Axis's hex"),
            "{}",
            p.message
        );
    }

    #[test]
    fn an_own_base_is_refused_a_63() {
        let mut st = at_granada();
        st.bases.get_mut("granada").unwrap().governor = Some(Side::NeoZeon);
        let p = refusal(&st, Side::NeoZeon, &attack("granada"));
        assert!(p.message.contains("own base"), "{}", p.message);
    }

    #[test]
    fn side_6_is_a_sanctuary_a_70() {
        let mut st = at_granada();
        st.bases.get_mut(AXIS).unwrap().place = Some(Place::Hex(loc("space:K02")));
        let p = refusal(&st, Side::NeoZeon, &attack("side_6"));
        assert_eq!(p.rule.as_deref(), Some("A-70"));
    }

    fn to(place: &str) -> AxisOrder {
        AxisOrder {
            to: Some(Place::parse(place).unwrap()),
            attack: None,
        }
    }

    /// The real setup as it starts: Axis in the belt box (30.1), a Neo Zeon Space phase.
    fn in_belt() -> State {
        let mut st = crate::systems::zeta::carry::fixture::state();
        phase(&mut st, Side::NeoZeon, CardKind::Space);
        st
    }

    #[test]
    fn from_the_belt_axis_moves_to_a_hex_next_to_it_30_3_3() {
        let st = in_belt();
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        assert!(legal_axis(&ctx, Side::NeoZeon, &to("space:N04"), &FieldPath::root()).is_ok());
        let p = refusal(&st, Side::NeoZeon, &to("space:J04"));
        assert_eq!(p.rule.as_deref(), Some("30.3.3"));
        assert!(p.message.contains("in one step"), "{}", p.message);
    }

    #[test]
    fn axis_moves_one_hex_and_to_the_belt_only_from_next_to_it_30_3_3() {
        let st = at_granada();
        let p = refusal(&st, Side::NeoZeon, &to("belt"));
        assert_eq!(p.rule.as_deref(), Some("30.3.3"));
        let n = near_granada(&st);
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let item = AxisOrder {
            to: Some(Place::Hex(n)),
            attack: None,
        };
        assert!(legal_axis(&ctx, Side::NeoZeon, &item, &FieldPath::root()).is_ok());
    }

    #[test]
    fn axis_never_lands_30_3_5() {
        let p = refusal(&at_granada(), Side::NeoZeon, &to("ground:C02"));
        assert_eq!(p.rule.as_deref(), Some("30.3.5"));
    }

    #[test]
    fn after_a_moon_attack_axis_stays_30_4_7() {
        let mut st = in_belt();
        st.bases.get_mut(AXIS).unwrap().immobile_forever = true;
        let p = refusal(&st, Side::NeoZeon, &to("space:N04"));
        assert_eq!(p.rule.as_deref(), Some("30.4.7"));
    }

    #[test]
    fn axis_at_level_0_or_off_its_card_does_not_move_30_3_2() {
        let mut st = in_belt();
        st.bases.get_mut(AXIS).unwrap().level = 0;
        let p = refusal(&st, Side::NeoZeon, &to("space:N04"));
        assert!(p.message.contains("level 1 or more"), "{}", p.message);
        let mut st = in_belt();
        phase(&mut st, Side::NeoZeon, CardKind::Ground);
        let p = refusal(&st, Side::NeoZeon, &to("space:N04"));
        assert_eq!(p.rule.as_deref(), Some("30.3.2"));
    }

    #[test]
    fn a_move_and_an_attack_are_judged_in_the_new_hex_30_4_1() {
        let mut st = at_granada();
        let n = near_granada(&st);
        st.bases.get_mut(AXIS).unwrap().place = Some(Place::Hex(n));
        let item = AxisOrder {
            to: Some(Place::Hex(loc("space:J04"))),
            attack: Some("granada".into()),
        };
        let ctx = Ctx::new(st, None, Moment::Check);
        assert!(legal_axis(&ctx, Side::NeoZeon, &item, &FieldPath::root()).is_ok());
    }

    #[test]
    fn governors_and_recoverers_ride_with_axis_others_stay_30_3_6_30_3_7() {
        use crate::systems::zeta::carry::fixture::put;
        use crate::systems::zeta::orders::UnitOrder;
        let mut st = in_belt();
        put(&mut st, "n-gov", Side::NeoZeon, "gaza_c", "belt");
        put(&mut st, "n-rec", Side::NeoZeon, "gaza_c", "belt");
        put(&mut st, "n-idle", Side::NeoZeon, "gaza_c", "belt");
        st.units.get_mut("n-gov").unwrap().action = Some(Action::Govern { base: AXIS.into() });
        st.units.get_mut("n-rec").unwrap().action = Some(Action::Recover);
        let orders = PhaseOrders {
            axis: Some(to("space:N04")),
            units: vec![UnitOrder {
                unit: "n-rec".into(),
                path: None,
                carry: Vec::new(),
                recover: Some(AXIS.into()),
                govern: None,
            }],
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        resolve_axis_move(&mut ctx, Side::NeoZeon, &orders);
        let n04 = Place::Hex(loc("space:N04"));
        assert_eq!(ctx.state.bases[AXIS].place, Some(n04));
        assert_eq!(ctx.state.units["n-gov"].place, n04);
        assert_eq!(ctx.state.units["n-rec"].place, n04);
        assert_eq!(ctx.state.units["n-idle"].place, Place::Belt);
        let (public, _) = ctx.log.clone().into_lines();
        assert!(
            public
                .iter()
                .any(|l| l.contains("Axis moves from belt to space:N04 with")),
            "{public:?}"
        );
    }

    #[test]
    fn the_tables_30_4_4_30_4_5_and_the_moon_shift_a_65() {
        let t: Vec<u8> = (1..=6).map(target_loss).collect();
        assert_eq!(t, vec![3, 3, 2, 2, 2, 1]);
        let a: Vec<u8> = (1..=6).map(|d| axis_loss(d, false)).collect();
        assert_eq!(a, vec![3, 2, 2, 1, 1, 0]);
        let m: Vec<u8> = (1..=6).map(|d| axis_loss(d, true)).collect();
        assert_eq!(m, vec![4, 3, 3, 2, 2, 1]);
    }

    #[test]
    fn a_base_below_0_is_destroyed_for_good_30_4_6() {
        let mut ctx = Ctx::new(at_granada(), None, Moment::Resolve);
        ctx.state.bases.get_mut("granada").unwrap().level = 1;
        let what = lower_base(&mut ctx, "granada", 2, "30.4.6");
        let g = &ctx.state.bases["granada"];
        assert!(g.destroyed && g.governor.is_none(), "{what}");
        let what = lower_base(&mut ctx, AXIS, 3, "30.4.6");
        let a = &ctx.state.bases[AXIS];
        assert!(
            !a.destroyed && a.level == 0 && a.governor.is_none(),
            "{what}"
        );
    }

    #[test]
    fn the_attack_on_granada_rolls_both_dice_and_fixes_axis_30_4_7() {
        let mut dice = Dice::new(Hash32([3; 32]), Hash32([7; 32])).at_step(4);
        let mut ctx = Ctx::new(at_granada(), Some(&mut dice), Moment::Resolve);
        let orders = PhaseOrders {
            axis: Some(attack("granada")),
            ..Default::default()
        };
        resolve_axis_attack(&mut ctx, Side::NeoZeon, &orders);
        let g = &ctx.state.bases["granada"];
        let a = &ctx.state.bases[AXIS];
        // Granada loses 1-3 of its 3 levels; Axis at least 1 of its 3 (Moon shift).
        assert!(g.level <= 2, "{g:?}");
        assert!(a.level <= 2 || a.destroyed, "{a:?}");
        assert!(a.immobile_forever);
        let lines = ctx.log.clone().into_lines().0;
        assert!(
            lines.iter().any(|l| l.contains("Axis attacks granada")),
            "{lines:?}"
        );
        assert!(lines.iter().any(|l| l.contains("30.4.7")), "{lines:?}");
    }

    #[test]
    fn a_stale_attack_is_skipped_and_its_side_told_30_4_1() {
        let mut st = at_granada();
        st.bases.get_mut(AXIS).unwrap().place = Some(Place::Belt);
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let orders = PhaseOrders {
            axis: Some(attack("granada")),
            ..Default::default()
        };
        resolve_axis_attack(&mut ctx, Side::NeoZeon, &orders);
        assert_eq!(ctx.state.bases["granada"].level, 3);
        let (public, private) = ctx.log.clone().into_lines();
        assert!(public.is_empty());
        assert!(format!("{private:?}").contains("skipped"), "{private:?}");
    }
}

#[cfg(test)]
#[path = "axis_rules_tests.rs"]
mod rules_tests;
