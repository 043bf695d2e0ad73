//! Acting units and their actions (12): which units a card activates and what each does.
//!
//! Slot A4 records one action per acting unit (12.5): what the order names, `move` (0 hexes)
//! for a unit not named, `move` for the MS aboard a ship that moves (12.6), `move` for all on
//! an Atmosphere card (12.7). Recovery (16) and government (17) are carried out later by their
//! own modules; this one only records the choice. The paths are slot A5's ([`super::movement`]).

use super::carry;
use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{Class, MapId, Place, Side, UnitId};
use super::orders::{PhaseOrders, UnitOrder};
use super::state::{Action, Card, CardKind, Stage, State};
use super::{government, movement, recovery};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

/// The drawn card of the phase under way (a phase step, or an ask step inside one).
pub fn current_card(state: &State) -> Option<Card> {
    match &state.stage {
        Stage::Phase { card, .. } => Some(*card),
        Stage::Ask { .. } => state.pending.as_ref().map(|p| p.cursor.card),
        _ => None,
    }
}

/// Whether `side`'s unit `id` acts under `card` (12.2-12.4, 14.1): on the card's map (the belt
/// box counts as space), or on an Atmosphere card at a drop point or an own-governed ground
/// base. The colony and units placed this phase never act (35.6, 32.1.5, 32.2.4).
fn acts(state: &State, side: Side, id: &str, card: Card) -> bool {
    let Some(u) = state.units.get(id) else {
        return false;
    };
    if u.side != side
        || card.side != side
        || u.placed_this_phase
        || carry::class_of(state, id) == Some(Class::Colony)
    {
        return false;
    }
    let data = &state.data;
    match (card.kind, u.place) {
        (CardKind::Space, Place::Hex(l)) => l.map == MapId::Space,
        (CardKind::Space, Place::Belt) => true,
        (CardKind::Ground, Place::Hex(l)) => l.map == MapId::Ground,
        (CardKind::Atmosphere, Place::Hex(l)) => match l.map {
            MapId::Space => data.map.space.drop_area(l.at).is_some(),
            MapId::Ground => carry::own_base_at(state, data, side, u.place),
        },
        // The Jupiter fleet's box: it enters by 33.3 (zeta commit 10), not by acting.
        _ => false,
    }
}

/// The units of `side` that act under `card` (12.2-12.4), in id order.
pub fn acting_units(ctx: &Ctx<'_>, side: Side, card: Card) -> Vec<UnitId> {
    ctx.state
        .units
        .keys()
        .filter(|id| acts(&ctx.state, side, id, card))
        .cloned()
        .collect()
}

/// Whether a unit may take this action under the drawn card (12.2-12.7, 16.2, 17.2), with its
/// path judged on the state as it is (13, [`movement::legal_move`]).
pub fn legal_action(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    legal_choice(ctx, side, item, at)?;
    if item.path.is_some() {
        movement::legal_move(ctx, side, item, at)?;
    }
    Ok(())
}

/// The action part of an item (not its path): an own unit acting under this card, one action,
/// and for recover and govern a unit in that base's hex (16.2, 17.2) and what the base's
/// module says (16, 17).
fn legal_choice(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    let st = &ctx.state;
    let id = &item.unit;
    let refuse = |rule: &str, msg: String, ok: &str| {
        Err(Problem::new(at.clone(), rule, format!("{id}: {msg}"), ok))
    };
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
    let Some(card) = current_card(st) else {
        return refuse(
            "12.5",
            "units act only in an action phase".into(),
            "no units",
        );
    };
    if card.side != side {
        return refuse(
            "11.2",
            format!("this phase is {}'s", card.side),
            "orders from the drawn card's faction",
        );
    }
    if card.kind == CardKind::Atmosphere {
        return refuse(
            "12.7",
            "on an Atmosphere card every acting unit moves, by atmospheric movement only".into(),
            "`atmospheric:` items",
        );
    }
    if carry::class_of(st, id) == Some(Class::Colony) {
        return refuse(
            "35.6",
            "the colony moves by colony_move".into(),
            "`colony_move:`",
        );
    }
    if u.placed_this_phase {
        return refuse(
            "32.1.5",
            "was placed this phase and may not act".into(),
            "no action",
        );
    }
    if !acts(st, side, id, card) {
        let rule = if card.kind == CardKind::Space {
            "12.2"
        } else {
            "12.3"
        };
        return refuse(
            rule,
            format!(
                "is at {}; a {} card moves only the units of the {} map",
                u.place.label(),
                card.kind.name(),
                card.kind.name()
            ),
            "units on the card's map",
        );
    }
    let chosen = [
        item.path.is_some(),
        item.recover.is_some(),
        item.govern.is_some(),
    ];
    if chosen.iter().filter(|c| **c).count() > 1 {
        return refuse(
            "12.5",
            "one action a unit: move, recover or govern".into(),
            "one of move, recover, govern",
        );
    }
    if !item.carry.is_empty() && item.path.is_none() {
        return refuse(
            "15.2",
            "carry goes with a move".into(),
            "a move with a path",
        );
    }
    let base_here = |base: &str| carry::base_place(st, &ctx.data, base) == Some(u.place);
    if let Some(b) = &item.recover {
        if !base_here(b) {
            return refuse(
                "16.2",
                format!("is at {}, not at {b}", u.place.label()),
                "a base in the unit's hex",
            );
        }
        recovery::legal_recover(ctx, side, b, &at.at("recover"))?;
    }
    if let Some(b) = &item.govern {
        if !base_here(b) {
            return refuse(
                "17.2",
                format!("is at {}, not at {b}", u.place.label()),
                "a base in the unit's hex",
            );
        }
        government::legal_govern(ctx, side, b, &at.at("govern"))?;
    }
    Ok(())
}

/// The MS that ride ships moving this phase (12.6): MS -> ship, from the items with a path.
fn riders(st: &State, orders: &PhaseOrders) -> BTreeMap<UnitId, UnitId> {
    let mut out = BTreeMap::new();
    for item in &orders.units {
        if item.path.as_ref().is_none_or(Vec::is_empty)
            || carry::class_of(st, &item.unit) != Some(Class::Ship)
        {
            continue;
        }
        for c in carry::cargo_of(st, &item.unit).iter().chain(&item.carry) {
            out.entry(c.clone()).or_insert_with(|| item.unit.clone());
        }
    }
    out
}

/// Each item's verdict for slot A4, in order: named once (12.5), not riding a moving ship
/// (12.6), and its action legal; with the problem of each refused one.
fn judge_items(
    ctx: &Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    root: &FieldPath,
) -> Vec<Result<(), Problem>> {
    let rides = riders(&ctx.state, orders);
    let mut named = BTreeSet::new();
    let mut out = Vec::new();
    for (i, item) in orders.units.iter().enumerate() {
        let at = root.at("units").at(i);
        let id = &item.unit;
        let verdict = if !named.insert(id.clone()) {
            Err(Problem::new(
                at,
                "12.5",
                format!("{id} is named twice; a unit takes one action"),
                "each unit once",
            ))
        } else if let Some(ship) = rides.get(id).filter(|s| *s != id) {
            Err(Problem::new(
                at,
                "12.6",
                format!("{id} rides {ship}, which moves; it moves with its ship"),
                "no order for an MS aboard a moving ship",
            ))
        } else {
            legal_choice(ctx, side, item, &at)
        };
        out.push(verdict);
    }
    out
}

/// Which items of `orders.units` stand after slot A4 (true) or were refused there (false).
pub fn verdicts(ctx: &Ctx<'_>, side: Side, orders: &PhaseOrders) -> Vec<bool> {
    judge_items(ctx, side, orders, &FieldPath::root())
        .iter()
        .map(Result::is_ok)
        .collect()
}

/// The mobile bases `orders` move (30.3, 31.4): Axis for `axis.move`, Gryps 2 (the one with
/// the laser) for `gryps.move`.
fn moving_bases(ctx: &Ctx<'_>, orders: &PhaseOrders) -> Vec<String> {
    ctx.data
        .bases
        .bases
        .iter()
        .filter(|(_, b)| b.mobile_min_level.is_some())
        .filter(|(_, b)| {
            if b.laser {
                orders.gryps.as_ref().is_some_and(|g| g.to.is_some())
            } else {
                orders.axis.as_ref().is_some_and(|a| a.to.is_some())
            }
        })
        .map(|(id, _)| id.clone())
        .collect()
}

/// Slot A4: records the action of each of `side`'s acting units (12.5-12.7). Refused items are
/// told to `side` alone at resolution and returned (what `check` refuses).
pub fn record_actions(
    ctx: &mut Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    root: &FieldPath,
) -> Vec<Problem> {
    for u in ctx.state.units.values_mut() {
        u.action = None;
        u.atmo_moved = false;
    }
    let Some(card) = current_card(&ctx.state) else {
        return Vec::new();
    };
    let acting = acting_units(ctx, side, card);
    let verdicts = judge_items(ctx, side, orders, root);
    let mut problems = Vec::new();
    if card.side != side {
        return problems;
    }
    reach::fire("12.1");
    for (item, verdict) in orders.units.iter().zip(verdicts) {
        match verdict {
            Ok(()) => {
                let action = match (&item.recover, &item.govern) {
                    (Some(_), _) => Action::Recover,
                    (_, Some(b)) => Action::Govern { base: b.clone() },
                    _ => Action::Move,
                };
                if let Some(u) = ctx.state.units.get_mut(&item.unit) {
                    u.action = Some(action);
                }
            }
            Err(p) => {
                if ctx.moment == Moment::Resolve {
                    ctx.log.private(side, format!("skipped: {}", reason(&p)));
                }
                problems.push(p);
            }
        }
    }
    // 12.6: the MS aboard a moving ship move with it.
    for (ms, ship) in riders(&ctx.state, orders) {
        let ship_moves =
            ctx.state.units.get(&ship).and_then(|u| u.action.clone()) == Some(Action::Move);
        if ship_moves
            && acting.contains(&ms)
            && let Some(u) = ctx.state.units.get_mut(&ms)
        {
            reach::fire("12.6");
            u.action = Some(Action::Move);
        }
    }
    // F7, A-60: units left unnamed in a mobile base that moves govern it, so they ride along.
    for base in moving_bases(ctx, orders) {
        let Some(place) = carry::base_place(&ctx.state, &ctx.data, &base) else {
            continue;
        };
        for id in &acting {
            let unnamed = ctx
                .state
                .units
                .get(id)
                .is_some_and(|u| u.action.is_none() && u.place == place);
            if !unnamed {
                continue;
            }
            let item = UnitOrder {
                unit: id.clone(),
                path: None,
                carry: Vec::new(),
                recover: None,
                govern: Some(base.clone()),
            };
            match legal_choice(ctx, side, &item, &FieldPath::root()) {
                Ok(()) => {
                    if let Some(u) = ctx.state.units.get_mut(id) {
                        u.action = Some(Action::Govern { base: base.clone() });
                    }
                    ctx.log.private(
                        side,
                        format!("{id} was not named; it governs {base} and moves with it (A-60)"),
                    );
                }
                Err(p) => ctx.log.private(
                    side,
                    format!(
                        "{id} was not named and may not govern {base}, so it stays when {base} moves: {}",
                        reason(&p)
                    ),
                ),
            }
        }
    }
    // 12.5: a unit not named moves 0 hexes.
    for id in &acting {
        if let Some(u) = ctx.state.units.get_mut(id)
            && u.action.is_none()
        {
            u.action = Some(Action::Move);
        }
    }
    reach::fire("12.5");
    match card.kind {
        CardKind::Space => reach::fire("12.2"),
        CardKind::Ground => reach::fire("12.3"),
        CardKind::Atmosphere => {
            reach::fire("12.4");
            reach::fire("12.7");
        }
    }
    warn_left_in_belt(ctx, side, orders);
    problems
}

/// F7: a private warning for each own unit that stays in the belt box while Axis leaves it
/// (30.3.4: it cannot leave on its own).
fn warn_left_in_belt(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let leaving = orders
        .axis
        .as_ref()
        .and_then(|a| a.to)
        .is_some_and(|to| to != Place::Belt)
        && movement::axis_in_belt(ctx);
    if !leaving {
        return;
    }
    let riding = |a: &Option<Action>| matches!(a, Some(Action::Govern { .. } | Action::Recover));
    let stay: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side == side && u.place == Place::Belt && !riding(&u.action))
        .map(|(id, _)| id.clone())
        .collect();
    for id in stay {
        ctx.log.private(
            side,
            format!("warning: {id} stays in the asteroid belt when Axis leaves, and cannot leave it alone (30.3.4)"),
        );
    }
}

/// The end of a phase (A12): the actions chosen and the atmospheric-move marks go (12.5, 18.6
/// and A-23 read them only within their phase).
pub fn end_of_phase(ctx: &mut Ctx<'_>) {
    for u in ctx.state.units.values_mut() {
        u.action = None;
        u.atmo_moved = false;
    }
}

/// Slot A4 of a phase: `side`'s actions recorded.
pub fn resolve_actions(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    record_actions(ctx, side, orders, &FieldPath::root().at("orders"));
}

/// `check` of `units` and `atmospheric`: slots A4 and A5 simulated on a copy of the state,
/// every item judged at its moment (plan §4.2).
pub fn check_units(
    ctx: &Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    root: &FieldPath,
) -> Vec<Problem> {
    let mut sim = Ctx::new(ctx.state.clone(), None, Moment::Check);
    let mut out = record_actions(&mut sim, side, orders, root);
    out.extend(carry::run_boards(&mut sim, side, &orders.board, root));
    if current_card(&sim.state).is_none_or(|c| c.kind != CardKind::Atmosphere) {
        // 14.1: atmospheric movement only on an Atmosphere card.
        for (i, a) in orders.atmospheric.iter().enumerate() {
            let at = root.at("atmospheric").at(i);
            if let Err(p) = super::atmosphere::legal_atmospheric(&sim, side, a, &at) {
                out.push(p);
            }
        }
    }
    match current_card(&sim.state).map(|c| c.kind) {
        Some(CardKind::Atmosphere) => {
            out.extend(super::atmosphere::run_atmospheric(
                &mut sim, side, orders, root,
            ));
        }
        Some(_) => out.extend(movement::run_moves(&mut sim, side, orders, root)),
        None => {}
    }
    out
}

/// The actions of `side`'s acting units: for each, staying (move 0 hexes), and recover or
/// govern at each base in its hex where that is legal.
pub fn action_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<UnitOrder>> {
    let Some(card) = current_card(&ctx.state) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for id in acting_units(ctx, side, card) {
        let Some(place) = ctx.state.units.get(&id).map(|u| u.place) else {
            continue;
        };
        let mut items = vec![(
            UnitOrder {
                unit: id.clone(),
                path: None,
                carry: Vec::new(),
                recover: None,
                govern: None,
            },
            "stays (moves 0 hexes)".to_string(),
        )];
        for base in carry::bases_at(&ctx.state, &ctx.data, place) {
            let mk = |recover: bool| UnitOrder {
                unit: id.clone(),
                path: None,
                carry: Vec::new(),
                recover: recover.then(|| base.clone()),
                govern: (!recover).then(|| base.clone()),
            };
            items.push((mk(true), format!("recovers at {base}")));
            items.push((mk(false), format!("governs {base}")));
        }
        for (item, note) in items {
            if legal_action(ctx, side, &item, &FieldPath::root()).is_ok() {
                out.push(Choice { item, note });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::carry::fixture::*;
    use super::super::orders::AxisOrder;
    use super::*;

    fn item(unit: &str) -> UnitOrder {
        UnitOrder {
            unit: unit.into(),
            path: None,
            carry: Vec::new(),
            recover: None,
            govern: None,
        }
    }

    fn at() -> FieldPath {
        FieldPath::root().at("units").at(0)
    }

    #[test]
    fn a_space_card_activates_the_space_maps_units_and_a_ground_card_the_grounds_12_2_12_3() {
        let mut st = state();
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        phase(&mut st, Side::Aeug, CardKind::Space);
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let card = current_card(&ctx.state).unwrap();
        assert_eq!(acting_units(&ctx, Side::Aeug, card), vec!["a-argama-1"]);
        let p = legal_action(&ctx, Side::Aeug, &item("a-gm2-1"), &at()).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("12.2"));
        assert!(
            p.message.contains("only the units of the space map"),
            "{}",
            p.message
        );
        phase(&mut st, Side::Aeug, CardKind::Ground);
        let ctx = Ctx::new(st, None, Moment::Check);
        let card = current_card(&ctx.state).unwrap();
        assert_eq!(acting_units(&ctx, Side::Aeug, card), vec!["a-gm2-1"]);
    }

    #[test]
    fn an_atmosphere_card_activates_drop_points_and_own_ground_bases_12_4() {
        let mut st = state();
        // Drop point C is D05; Hickory (ground:C02) is AEUG's; ground:D03 is no base.
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
        put(
            &mut st,
            "a-salamis-kai-1",
            Side::Aeug,
            "salamis_kai",
            "space:C05",
        );
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        put(&mut st, "a-gm2-2", Side::Aeug, "gm2", "ground:D03");
        phase(&mut st, Side::Aeug, CardKind::Atmosphere);
        let ctx = Ctx::new(st, None, Moment::Check);
        let card = current_card(&ctx.state).unwrap();
        assert_eq!(
            acting_units(&ctx, Side::Aeug, card),
            vec!["a-argama-1", "a-gm2-1"]
        );
    }

    #[test]
    fn another_sides_unit_or_phase_is_refused_12_5_11_2() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        phase(&mut st, Side::Aeug, CardKind::Space);
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let p = legal_action(&ctx, Side::Aeug, &item("t-hizack-1"), &at()).unwrap_err();
        assert!(p.message.contains("belongs to titans"), "{}", p.message);
        let p = legal_action(&ctx, Side::Titans, &item("t-hizack-1"), &at()).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("11.2"));
    }

    #[test]
    fn one_action_a_unit_and_each_unit_named_once_12_5() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        phase(&mut st, Side::Titans, CardKind::Space);
        let ctx = Ctx::new(st, None, Moment::Check);
        let mut two = item("t-hizack-1");
        two.recover = Some("green_noa".into());
        two.govern = Some("green_noa".into());
        let p = legal_action(&ctx, Side::Titans, &two, &at()).unwrap_err();
        assert!(p.message.contains("one action a unit"), "{}", p.message);
        let orders = PhaseOrders {
            units: vec![item("t-hizack-1"), item("t-hizack-1")],
            ..Default::default()
        };
        let problems = check_units(&ctx, Side::Titans, &orders, &FieldPath::root());
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("named twice"));
    }

    #[test]
    fn an_atmosphere_card_takes_no_units_items_and_all_acting_units_move_12_7() {
        let mut st = state();
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
        phase(&mut st, Side::Aeug, CardKind::Atmosphere);
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let orders = PhaseOrders {
            units: vec![item("a-argama-1")],
            ..Default::default()
        };
        let problems = record_actions(&mut ctx, Side::Aeug, &orders, &FieldPath::root());
        assert_eq!(problems[0].rule.as_deref(), Some("12.7"));
        assert_eq!(ctx.state.units["a-argama-1"].action, Some(Action::Move));
        assert!(ctx.log.private[Side::Aeug][0].starts_with("skipped:"));
    }

    #[test]
    fn ms_aboard_a_moving_ship_move_with_it_and_take_no_order_of_their_own_12_6() {
        let mut st = state();
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:C04",
        );
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        aboard(&mut st, "t-hizack-1", "t-alexandria-1");
        phase(&mut st, Side::Titans, CardKind::Space);
        let mut ship = item("t-alexandria-1");
        ship.path = Some(vec![loc("space:C03")]);
        let mut own = item("t-hizack-1");
        own.govern = Some("green_noa".into());
        let orders = PhaseOrders {
            units: vec![ship, own],
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let problems = record_actions(&mut ctx, Side::Titans, &orders, &FieldPath::root());
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].rule.as_deref(), Some("12.6"));
        assert_eq!(ctx.state.units["t-hizack-1"].action, Some(Action::Move));
    }

    #[test]
    fn unnamed_units_move_zero_hexes_12_5() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        phase(&mut st, Side::Titans, CardKind::Space);
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        record_actions(
            &mut ctx,
            Side::Titans,
            &PhaseOrders::default(),
            &FieldPath::root(),
        );
        assert_eq!(ctx.state.units["t-hizack-1"].action, Some(Action::Move));
        assert_eq!(
            ctx.state.units["t-hizack-1"].place,
            Place::parse("space:B03").unwrap()
        );
    }

    #[test]
    fn recover_and_govern_need_the_base_in_the_units_hex_16_2_17_2() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B04");
        phase(&mut st, Side::Titans, CardKind::Space);
        let ctx = Ctx::new(st, None, Moment::Check);
        let mut r = item("t-hizack-1");
        r.recover = Some("green_noa".into());
        let p = legal_action(&ctx, Side::Titans, &r, &at()).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("16.2"));
        assert!(p.message.contains("not at green_noa"), "{}", p.message);
        let mut g = item("t-hizack-1");
        g.govern = Some("green_noa".into());
        let p = legal_action(&ctx, Side::Titans, &g, &at()).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("17.2"));
    }

    #[test]
    fn unnamed_units_in_a_moving_axis_govern_it_or_are_told_why_not_f7() {
        let mut st = state();
        put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "belt");
        put(&mut st, "n-gwadan-1", Side::NeoZeon, "gwadan", "belt");
        phase(&mut st, Side::NeoZeon, CardKind::Space);
        let mut gw = item("n-gwadan-1");
        gw.path = Some(Vec::new());
        let orders = PhaseOrders {
            units: vec![gw],
            axis: Some(AxisOrder {
                to: Some(Place::parse("space:N04").unwrap()),
                attack: None,
            }),
            ..Default::default()
        };
        let mut ctx = Ctx::new(st.clone(), None, Moment::Resolve);
        record_actions(&mut ctx, Side::NeoZeon, &orders, &FieldPath::root());
        let lines = ctx.log.private[Side::NeoZeon].join("\n");
        // Whether government is allowed is rule 17's (zeta commit 7); either way the side is told.
        let govern = UnitOrder {
            govern: Some("axis".into()),
            ..item("n-gaza-c-1")
        };
        let probe = Ctx::new(ctx.state.clone(), None, Moment::Check);
        if government::legal_govern(&probe, Side::NeoZeon, &"axis".into(), &at()).is_ok() {
            assert!(legal_choice(&probe, Side::NeoZeon, &govern, &at()).is_ok());
            assert_eq!(
                ctx.state.units["n-gaza-c-1"].action,
                Some(Action::Govern {
                    base: "axis".into()
                })
            );
            assert!(
                lines.contains("n-gaza-c-1 was not named; it governs axis"),
                "{lines}"
            );
        } else {
            assert_eq!(ctx.state.units["n-gaza-c-1"].action, Some(Action::Move));
            assert!(
                lines.contains("n-gaza-c-1 was not named and may not govern axis"),
                "{lines}"
            );
        }
        // The Gwadan was named to move: it stays in the belt, and the side is warned.
        assert!(
            lines.contains("warning: n-gwadan-1 stays in the asteroid belt"),
            "{lines}"
        );
    }
}
