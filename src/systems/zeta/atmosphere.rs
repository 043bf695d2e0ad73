//! Atmospheric movement (14): descent and launch through the drop points.
//!
//! On an Atmosphere card every acting unit has chosen move (12.7, [`super::action`]); the
//! `atmospheric` items say which of them go down or up, in order, each judged at its moment.
//! A unit need not go. Descent and launch cost no movement points and end the move
//! (14.5, 14.9; A-22: a descent may end among enemies).

use super::action;
use super::carry;
use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{Aptitude, Class, Loc, MapId, Place, Side, UnitId};
use super::orders::{AtmoOrder, PhaseOrders};
use super::state::{Action, CardKind, CharPlace};
use crate::kit::hex::Hex;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// A legal atmospheric move, worked out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtmoPlan {
    pub from: Loc,
    pub to: Loc,
    /// What a ship takes along (15.2): the MS aboard and those boarding at the start.
    pub cargo: Vec<UnitId>,
    /// The own ship a lone MS or character boards on arrival (14.6, 14.11, 14.12).
    pub board: Option<UnitId>,
}

/// Whether an atmospheric move is legal (14.1-14.12), judged on the state as it is.
pub fn legal_atmospheric(
    ctx: &Ctx<'_>,
    side: Side,
    item: &AtmoOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    legal_atmospheric_after(ctx, side, item, &BTreeSet::new(), at).map(|_| ())
}

fn problem(at: &FieldPath, rule: &str, msg: String, ok: &str) -> Problem {
    Problem::new(at.clone(), rule, msg, ok)
}

/// Where a launch from ground hex `h` arrives: the drop point of its area (14.4, 14.9).
fn linked_drop_point(ctx: &Ctx<'_>, h: Hex) -> Option<Loc> {
    let area = ctx.data.map.ground.area(h)?;
    Some(Loc::new(
        MapId::Space,
        ctx.data.map.space.drop_points.get(area),
    ))
}

/// [`legal_atmospheric`] when the units of `moved` have already moved this phase.
pub fn legal_atmospheric_after(
    ctx: &Ctx<'_>,
    side: Side,
    item: &AtmoOrder,
    moved: &BTreeSet<UnitId>,
    at: &FieldPath,
) -> Result<AtmoPlan, Problem> {
    let st = &ctx.state;
    let card = action::current_card(st);
    if !card.is_some_and(|c| c.kind == CardKind::Atmosphere && c.side == side) {
        return Err(problem(
            at,
            "14.1",
            "atmospheric movement needs one's own Atmosphere card".into(),
            "`units:` moves on this card",
        ));
    }
    let to = match (item.descend, item.launch) {
        (Some(_), true) | (None, false) => {
            return Err(problem(
                at,
                "14.2",
                "an atmospheric move is a descent or a launch".into(),
                "one of `descend: <ground hex>` or `launch: true`",
            ));
        }
        (Some(d), false) => Some(d),
        (None, true) => None,
    };
    match (&item.unit, &item.char) {
        (Some(u), None) => unit_move(ctx, side, u, to, &item.carry, moved, at),
        (None, Some(c)) if item.carry.is_empty() => char_move(ctx, side, c, to, at),
        _ => Err(problem(
            at,
            "14.12",
            "name one unit (with what it carries) or one lone character".into(),
            "`unit:` or `char:`",
        )),
    }
}

/// Descent target `to`, if any, checked against the start `from` (14.3-14.5): a ground hex of
/// the area linked to the drop point.
fn descent_target(ctx: &Ctx<'_>, from: Loc, to: Loc, at: &FieldPath) -> Result<(), Problem> {
    let area = (from.map == MapId::Space)
        .then(|| ctx.data.map.space.drop_area(from.at))
        .flatten();
    let Some(area) = area else {
        return Err(problem(
            at,
            "14.5",
            format!(
                "{} is not a drop point; descent starts at one",
                from.label()
            ),
            "units at drop points",
        ));
    };
    if to.map != MapId::Ground
        || !ctx.data.on_map(to)
        || ctx.data.map.ground.area(to.at) != Some(area)
    {
        return Err(problem(
            &at.at("descend"),
            "14.4",
            format!(
                "{} is not in ground area {} linked to drop point {}",
                to.label(),
                area.letter(),
                from.label()
            ),
            "a ground hex of the linked area",
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn unit_move(
    ctx: &Ctx<'_>,
    side: Side,
    id: &UnitId,
    descend: Option<Loc>,
    carry: &[UnitId],
    moved: &BTreeSet<UnitId>,
    at: &FieldPath,
) -> Result<AtmoPlan, Problem> {
    let st = &ctx.state;
    let refuse =
        |rule: &str, msg: String, ok: &str| Err(problem(at, rule, format!("{id}: {msg}"), ok));
    let Some(u) = st.units.get(id) else {
        return refuse("12.5", "no such unit".into(), "an own acting unit");
    };
    if u.side != side {
        return refuse(
            "12.5",
            format!("belongs to {}", u.side),
            "an own acting unit",
        );
    }
    if moved.contains(id) || u.atmo_moved {
        return refuse(
            "13.3",
            "has already moved this phase".into(),
            "one move a unit",
        );
    }
    let Some(card) = action::current_card(st) else {
        return refuse("14.1", "no action phase".into(), "no move");
    };
    if !action::acting_units(ctx, side, card).contains(id) {
        return refuse(
            "14.1",
            format!(
                "is at {}; an Atmosphere card moves only units at drop points and own ground bases",
                u.place.label()
            ),
            "units at drop points or own-governed ground bases",
        );
    }
    let Some(t) = ctx.data.unit_type(&u.type_id) else {
        return refuse("2.2", format!("unknown type {}", u.type_id), "a unit");
    };
    let Some(from) = u.place.loc() else {
        return refuse("14.5", "is not on the map".into(), "units on the map");
    };
    let is_ms = t.class == Class::Ms;
    if is_ms && !carry.is_empty() {
        return refuse("15.1", "only ships carry MS".into(), "no carry");
    }
    let mut board = None;
    let to = match descend {
        Some(to) => {
            descent_target(ctx, from, to, at)?;
            // 14.8, A-17: a space-only unit descends only aboard a ship.
            if t.aptitude == Some(Aptitude::S) {
                return refuse(
                    "14.8",
                    "a space-only (S) unit descends only aboard a ship".into(),
                    "SG units, or S MS in a ship's carry",
                );
            }
            let ocean = !ctx
                .data
                .map
                .ground
                .terrain(to.at)
                .is_some_and(super::data::Terrain::solid);
            if is_ms && ocean {
                // 14.6, A-24: an own ship with room must already be there.
                board = carry::ships_with_room(st, side, Place::Hex(to), id)
                    .into_iter()
                    .next();
                if board.is_none() {
                    return refuse(
                        "14.6",
                        format!("{} is ocean and no own ship with room is there", to.label()),
                        "land or coast, or an ocean hex with an own ship with room",
                    );
                }
            }
            to
        }
        None => {
            if from.map != MapId::Ground || !carry::own_base_at(st, &ctx.data, side, u.place) {
                return refuse(
                    "14.9",
                    format!("{} is not an own-governed ground base", from.label()),
                    "units at own-governed ground bases",
                );
            }
            // a ground-only ship never launches; a ground-only MS only aboard a ship.
            if t.aptitude == Some(Aptitude::G) {
                return refuse(
                    "A-17",
                    "a ground-only (G) unit launches only as an MS aboard a ship".into(),
                    "S or SG units",
                );
            }
            let Some(to) = linked_drop_point(ctx, from.at) else {
                return refuse("14.4", "its hex has no area".into(), "a hex of an area");
            };
            if is_ms {
                board = carry::ships_with_room(st, side, Place::Hex(to), id)
                    .into_iter()
                    .next();
                if board.is_none() {
                    return refuse(
                        "14.11",
                        format!("no own ship with room waits at drop point {}", to.label()),
                        "a launch with a ship there, or aboard a launching ship",
                    );
                }
            }
            to
        }
    };
    let cargo = if is_ms {
        Vec::new()
    } else {
        carry::moving_cargo(ctx, side, id, carry, moved, at)?
    };
    Ok(AtmoPlan {
        from,
        to,
        cargo,
        board,
    })
}

/// 14.12: a lone character goes down or up when each end holds an own ship or is an own
/// base.
fn char_move(
    ctx: &Ctx<'_>,
    side: Side,
    id: &str,
    descend: Option<Loc>,
    at: &FieldPath,
) -> Result<AtmoPlan, Problem> {
    let st = &ctx.state;
    let refuse =
        |rule: &str, msg: String, ok: &str| Err(problem(at, rule, format!("{id}: {msg}"), ok));
    let Some(c) = st.chars.get(id) else {
        return refuse(
            "14.12",
            "no such character".into(),
            "an own character on the map",
        );
    };
    if c.side != side {
        return refuse(
            "14.12",
            format!("belongs to {}", c.side),
            "an own character",
        );
    }
    let from = match &c.place {
        CharPlace::Aboard(u) => st.units.get(u).and_then(|u| u.place.loc()),
        CharPlace::Solo(l) => Some(*l),
        _ => None,
    };
    let Some(from) = from else {
        return refuse(
            "14.12",
            "is not on the map".into(),
            "a character on the map",
        );
    };
    let to = match descend {
        Some(to) => {
            descent_target(ctx, from, to, at)?;
            to
        }
        None => {
            if from.map != MapId::Ground {
                return refuse(
                    "14.9",
                    "launches start on the ground".into(),
                    "a ground hex",
                );
            }
            match linked_drop_point(ctx, from.at) {
                Some(to) => to,
                None => return refuse("14.4", "its hex has no area".into(), "a hex of an area"),
            }
        }
    };
    let end_ok = |l: Loc| {
        let p = Place::Hex(l);
        carry::own_base_at(st, &ctx.data, side, p) || own_ship_at(ctx, side, p).is_some()
    };
    if !end_ok(from) || !end_ok(to) {
        return refuse(
            "14.12",
            format!(
                "{} and {} must each hold an own ship or be an own base",
                from.label(),
                to.label()
            ),
            "own ships or own bases at both ends",
        );
    }
    Ok(AtmoPlan {
        from,
        to,
        cargo: Vec::new(),
        board: own_ship_at(ctx, side, Place::Hex(to)),
    })
}

/// An own ship in `place` (the largest first), for a lone character (14.12).
fn own_ship_at(ctx: &Ctx<'_>, side: Side, place: Place) -> Option<UnitId> {
    let mut ships: Vec<(usize, &UnitId)> = ctx
        .state
        .units
        .iter()
        .filter(|(id, u)| {
            u.side == side
                && u.place == place
                && carry::class_of(&ctx.state, id) == Some(Class::Ship)
        })
        .map(|(id, _)| (carry::capacity(&ctx.state, id), id))
        .collect();
    ships.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    ships.first().map(|(_, id)| (*id).clone())
}

/// Carries out an atmospheric move judged legal, then the existence checks of both ends
///
pub fn resolve_atmospheric(
    ctx: &mut Ctx<'_>,
    side: Side,
    item: &AtmoOrder,
    plan: &AtmoPlan,
    moved: &mut BTreeSet<UnitId>,
) {
    reach::fire("14.1");
    reach::fire("14.2");
    let down = item.descend.is_some();
    reach::fire(if down { "14.5" } else { "14.9" });
    reach::fire(if down { "14.7" } else { "14.10" });
    let to = Place::Hex(plan.to);
    let (who, what) = if let Some(id) = &item.unit {
        if let Some(u) = ctx.state.units.get_mut(id) {
            u.place = to;
            u.atmo_moved = true;
            u.action = Some(Action::Move);
            if carry::class_of(&ctx.state, id) == Some(Class::Ms) {
                if plan.board.is_some() {
                    reach::fire(if down { "14.6" } else { "14.11" });
                }
                if let Some(u) = ctx.state.units.get_mut(id) {
                    u.carrier = plan.board.clone();
                }
            }
        }
        moved.insert(id.clone());
        for c in &plan.cargo {
            if let Some(u) = ctx.state.units.get_mut(c) {
                u.place = to;
                u.carrier = Some(id.clone());
                u.atmo_moved = true;
                u.action = Some(Action::Move);
            }
            if down
                && carry::type_of(&ctx.state, c).is_some_and(|t| t.aptitude == Some(Aptitude::S))
            {
                reach::fire("14.8");
            }
            reach::fire("15.2");
            moved.insert(c.clone());
        }
        (id.clone(), plan.cargo.clone())
    } else if let Some(ch) = &item.char {
        reach::fire("14.12");
        let place = match &plan.board {
            Some(s) => CharPlace::Aboard(s.clone()),
            None => CharPlace::Solo(plan.to),
        };
        if let Some(c) = ctx.state.chars.get_mut(ch) {
            c.place = place;
        }
        (ch.clone(), Vec::new())
    } else {
        return;
    };
    let cargo = if what.is_empty() {
        String::new()
    } else {
        format!(", carrying {}", what.join(", "))
    };
    ctx.log.public(format!(
        "{side}: {who} {} {} -> {}{cargo}",
        if down { "descends" } else { "launches" },
        plan.from.label(),
        plan.to.label()
    ));
    carry::existence_check(ctx, plan.from);
    carry::existence_check(ctx, plan.to);
}

/// Slot A5 on an Atmosphere card: `side`'s atmospheric moves in order; what is wrong at its
/// moment is skipped and told to `side` alone. Returns the problems (what `check` refuses).
pub fn run_atmospheric(
    ctx: &mut Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    root: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut moved = BTreeSet::new();
    for (i, item) in orders.atmospheric.iter().enumerate() {
        let at = root.at("atmospheric").at(i);
        match legal_atmospheric_after(ctx, side, item, &moved, &at) {
            Ok(plan) => resolve_atmospheric(ctx, side, item, &plan, &mut moved),
            Err(p) => {
                if ctx.moment == Moment::Resolve {
                    ctx.log.private(side, format!("skipped: {}", reason(&p)));
                }
                out.push(p);
            }
        }
    }
    out
}

/// The atmospheric moves `side` may make now: each acting unit's launch, and its descent to
/// each hex of the linked area, carrying nothing more than it carries.
pub fn atmospheric_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<AtmoOrder>> {
    let Some(card) = action::current_card(&ctx.state) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for id in action::acting_units(ctx, side, card) {
        let mut items = vec![AtmoOrder {
            unit: Some(id.clone()),
            char: None,
            descend: None,
            launch: true,
            carry: Vec::new(),
        }];
        for h in ctx.data.map.ground.grid.all() {
            items.push(AtmoOrder {
                unit: Some(id.clone()),
                char: None,
                descend: Some(Loc::new(MapId::Ground, h)),
                launch: false,
                carry: Vec::new(),
            });
        }
        for item in items {
            if let Ok(plan) =
                legal_atmospheric_after(ctx, side, &item, &BTreeSet::new(), &FieldPath::root())
            {
                let verb = if item.launch { "launches" } else { "descends" };
                out.push(Choice {
                    note: format!("{verb} to {}", plan.to.label()),
                    item,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::carry::fixture::*;
    use super::*;
    use crate::systems::zeta::state::State;

    fn atmo(st: &State) -> State {
        let mut st = st.clone();
        phase(&mut st, Side::Aeug, CardKind::Atmosphere);
        st
    }

    fn down(unit: &str, to: &str) -> AtmoOrder {
        AtmoOrder {
            unit: Some(unit.into()),
            char: None,
            descend: Some(loc(to)),
            launch: false,
            carry: Vec::new(),
        }
    }

    fn up(unit: &str) -> AtmoOrder {
        AtmoOrder {
            unit: Some(unit.into()),
            char: None,
            descend: None,
            launch: true,
            carry: Vec::new(),
        }
    }

    fn judge(st: &State, item: &AtmoOrder) -> Result<AtmoPlan, Problem> {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_atmospheric_after(&ctx, Side::Aeug, item, &BTreeSet::new(), &FieldPath::root())
    }

    /// The problem AEUG's `item` gets, which must be refused.
    fn refusal(st: &State, item: &AtmoOrder) -> Problem {
        judge(st, item).unwrap_err()
    }

    /// The test state with one AEUG unit `id` of type `t` at `at`, on AEUG's Atmosphere card.
    fn aeug_atmo_with(id: &str, t: &str, at: &str) -> State {
        let mut st = state();
        put(&mut st, id, Side::Aeug, t, at);
        atmo(&st)
    }

    #[test]
    fn a_ship_descends_from_a_drop_point_into_the_linked_area_with_its_ms_14_5_15_2() {
        let mut st = state();
        // Drop point C is D05, linked to ground area C (columns L-P). S-only Rick Dias aboard.
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
        put(
            &mut st,
            "a-rick-dias-1",
            Side::Aeug,
            "rick_dias",
            "space:D05",
        );
        aboard(&mut st, "a-rick-dias-1", "a-argama-1");
        seat(&mut st, "quattro", "a-argama-1");
        let st = atmo(&st);
        let item = down("a-argama-1", "ground:M03");
        let plan = judge(&st, &item).unwrap();
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let (_, rules) = reach::recording(|| {
            resolve_atmospheric(&mut ctx, Side::Aeug, &item, &plan, &mut BTreeSet::new())
        });
        assert!(rules.contains("14.5") && rules.contains("14.8"));
        let rd = &ctx.state.units["a-rick-dias-1"];
        assert_eq!(rd.place, Place::Hex(loc("ground:M03")));
        assert_eq!(rd.carrier.as_deref(), Some("a-argama-1"));
        assert!(ctx.state.units["a-argama-1"].atmo_moved);
        assert_eq!(
            ctx.state.chars["quattro"].place,
            CharPlace::Aboard("a-argama-1".into())
        );
        assert!(
            ctx.log.public[0].contains("descends space:D05 -> ground:M03, carrying a-rick-dias-1")
        );
    }

    #[test]
    fn descent_goes_only_to_the_linked_area_and_from_a_drop_point_14_4_14_5() {
        let st = aeug_atmo_with("a-argama-1", "argama", "space:D05");
        let p = refusal(&st, &down("a-argama-1", "ground:C03"));
        assert_refused(&p, "14.4", "not in ground area C");
        let st2 = aeug_atmo_with("a-argama-1", "argama", "space:C05");
        let p = refusal(&st2, &down("a-argama-1", "ground:M03"));
        assert_eq!(p.rule.as_deref(), Some("14.1"));
    }

    #[test]
    fn a_lone_ms_descends_into_ocean_only_onto_an_own_ship_with_room_14_6() {
        let mut st = state();
        // Drop point A is E04 (area A: columns A-F); ground:A01 is ocean.
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "space:E04");
        let st1 = atmo(&st);
        let p = refusal(&st1, &down("a-gm2-1", "ground:A01"));
        assert_eq!(p.rule.as_deref(), Some("14.6"));
        put(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:A01");
        let st2 = atmo(&st);
        let plan = judge(&st2, &down("a-gm2-1", "ground:A01")).unwrap();
        assert_eq!(plan.board.as_deref(), Some("a-garuda-1"));
    }

    #[test]
    fn a_space_only_unit_descends_only_carried_14_8() {
        let mut st = state();
        put(
            &mut st,
            "a-rick-dias-1",
            Side::Aeug,
            "rick_dias",
            "space:E04",
        );
        put(
            &mut st,
            "a-salamis-kai-1",
            Side::Aeug,
            "salamis_kai",
            "space:E04",
        );
        let st = atmo(&st);
        for unit in ["a-rick-dias-1", "a-salamis-kai-1"] {
            let p = refusal(&st, &down(unit, "ground:C03"));
            assert_eq!(p.rule.as_deref(), Some("14.8"), "{unit}");
        }
    }

    #[test]
    fn a_launch_goes_from_an_own_ground_base_to_the_linked_drop_point_14_9() {
        let mut st = state();
        // Hickory (ground:C02, area A) is AEUG's; drop point A is E04.
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "ground:C02");
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        let st = atmo(&st);
        let mut item = up("a-argama-1");
        item.carry = vec!["a-gm2-1".into()];
        let plan = judge(&st, &item).unwrap();
        assert_eq!(plan.to, loc("space:E04"));
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        resolve_atmospheric(&mut ctx, Side::Aeug, &item, &plan, &mut BTreeSet::new());
        assert_eq!(
            ctx.state.units["a-gm2-1"].carrier.as_deref(),
            Some("a-argama-1")
        );
        assert_eq!(
            ctx.state.units["a-gm2-1"].place,
            Place::Hex(loc("space:E04"))
        );
    }

    #[test]
    fn a_ground_only_ship_never_launches_a17() {
        let st = aeug_atmo_with("a-garuda-1", "garuda", "ground:C02");
        let p = refusal(&st, &up("a-garuda-1"));
        assert_eq!(p.rule.as_deref(), Some("A-17"));
    }

    #[test]
    fn a_lone_ms_launches_only_to_an_own_ship_with_room_14_11() {
        let mut st = state();
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        let st1 = atmo(&st);
        let p = refusal(&st1, &up("a-gm2-1"));
        assert_refused(&p, "14.11", "drop point space:E04");
        put(
            &mut st,
            "a-salamis-kai-1",
            Side::Aeug,
            "salamis_kai",
            "space:E04",
        );
        let st2 = atmo(&st);
        assert_eq!(
            judge(&st2, &up("a-gm2-1")).unwrap().board.as_deref(),
            Some("a-salamis-kai-1")
        );
    }

    #[test]
    fn a_lone_character_needs_an_own_ship_or_base_at_both_ends_14_12() {
        let mut st = state();
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        seat(&mut st, "hayato", "a-gm2-1");
        let item = AtmoOrder {
            unit: None,
            char: Some("hayato".into()),
            descend: None,
            launch: true,
            carry: Vec::new(),
        };
        let p = judge(&atmo(&st), &item).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("14.12"));
        put(
            &mut st,
            "a-salamis-kai-1",
            Side::Aeug,
            "salamis_kai",
            "space:E04",
        );
        let st = atmo(&st);
        let plan = judge(&st, &item).unwrap();
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        resolve_atmospheric(&mut ctx, Side::Aeug, &item, &plan, &mut BTreeSet::new());
        assert_eq!(
            ctx.state.chars["hayato"].place,
            CharPlace::Aboard("a-salamis-kai-1".into())
        );
    }

    #[test]
    fn atmospheric_moves_need_the_own_atmosphere_card_14_1() {
        let mut st = state();
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
        phase(&mut st, Side::Aeug, CardKind::Space);
        let p = refusal(&st, &down("a-argama-1", "ground:M03"));
        assert_eq!(p.rule.as_deref(), Some("14.1"));
    }

    #[test]
    fn a_skipped_atmospheric_move_is_told_privately() {
        let st = aeug_atmo_with("a-argama-1", "argama", "space:D05");
        let orders = PhaseOrders {
            atmospheric: vec![
                down("a-argama-1", "ground:M03"),
                down("a-argama-1", "ground:M04"),
            ],
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let problems = run_atmospheric(&mut ctx, Side::Aeug, &orders, &FieldPath::root());
        assert_eq!(problems.len(), 1);
        assert!(ctx.log.private[Side::Aeug][0].contains("already moved"));
        assert_eq!(
            ctx.state.units["a-argama-1"].place,
            Place::Hex(loc("ground:M03"))
        );
    }
}

#[cfg(test)]
#[path = "atmosphere_rules_tests.rs"]
mod rules_tests;
