//! Armament (5-8): scrapping, refits, augmentation and production within the faction's
//! points, carried out in the order listed (5.3). Points are counted in half-points, because
//! a refit costs half a point (8.3); nothing here rolls a die.
//!
//! The running budget and the produced units live in the side's [`PacketSheet`] while the
//! packet resolves (and while `check` simulates it, [`simulate_armament`]), so each item is
//! judged where it comes in the list.

use super::ctx::{Choice, Ctx};
use super::data::{Class, Place, Side, TypeId, UnitId};
use super::deploy;
use super::orders::{ArmItem, Augment, Produce, Refit};
use super::state::{CharPlace, Wound};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

/// 5.4: every faction's flat income, in half-points (10P).
const FLAT_INCOME: u32 = 20;
/// 7.2: one counter into the factory box costs 2P.
const AUGMENT_COST: u32 = 4;

/// Half-points as the book writes points: `7P`, `7.5P`.
pub fn points(half: u32) -> String {
    if half.is_multiple_of(2) {
        format!("{}P", half / 2)
    } else {
        format!("{}.5P", half / 2)
    }
}

/// 5.4 (and 30.2): 10P plus the armament points of every base `side` governs at its current
/// level, plus Axis's bonus while it waits in the belt box. In half-points.
pub fn income(ctx: &Ctx<'_>, side: Side) -> u32 {
    let mut total = FLAT_INCOME;
    for (id, b) in &ctx.state.bases {
        if b.governor != Some(side) || b.destroyed {
            continue;
        }
        let Some(def) = ctx.data.base(id) else {
            continue;
        };
        if let Some(v) = def.at_level(b.level) {
            total += 2 * u32::from(v.armament);
        }
        // 30.2: the belt bonus counts while the base is in the belt box.
        if def.belt_bonus > 0 && b.place == Some(Place::Belt) {
            total += 2 * u32::from(def.belt_bonus);
        }
    }
    total
}

/// The half-points `side` has left at this point of its list (5.3).
pub fn points_left(ctx: &Ctx<'_>, side: Side) -> u32 {
    ctx.state.sides[side]
        .sheet
        .points_left
        .unwrap_or_else(|| income(ctx, side))
}

/// 5.2, 7.3: whether `side` may augment (and refit into) `t` this turn: a type permitted
/// before, or one whose reinforcement starts on this turn's track.
pub fn permitted(ctx: &Ctx<'_>, side: Side, t: &str) -> bool {
    ctx.state.sides[side].permitted.contains(t) || starts_now(ctx, side).contains(t)
}

/// 5.2: the types this turn's track lets `side` augment from now on.
fn starts_now(ctx: &Ctx<'_>, side: Side) -> BTreeSet<TypeId> {
    ctx.data
        .turn(ctx.state.turn)
        .and_then(|e| e.reinforcements.get(&side))
        .map(|ts| ts.iter().cloned().collect())
        .unwrap_or_default()
}

/// What one item costs, in half-points (6.2, 7.2, 8.3 with A-10: per swap).
pub fn cost(ctx: &Ctx<'_>, item: &ArmItem) -> u32 {
    match item {
        ArmItem::Scrap(_) => 0,
        ArmItem::Refit(_) => u32::from(ctx.data.scenarios.options.refit_cost_halfpts),
        ArmItem::Augment(a) => AUGMENT_COST * u32::from(a.count),
        ArmItem::Produce(p) => {
            let pp = ctx.data.unit_type(&p.type_id).map_or(0, |t| t.pp);
            2 * u32::from(pp) * u32::from(p.count)
        }
    }
}

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

fn count_of(map: &BTreeMap<TypeId, u8>, t: &str) -> u8 {
    map.get(t).copied().unwrap_or(0)
}

/// Whether one armament item is legal where it comes in the list (5.3-8.6), judged on
/// `ctx.state` as the items before it have left it.
pub fn legal_armament_item(
    ctx: &Ctx<'_>,
    side: Side,
    item: &ArmItem,
    at: &FieldPath,
) -> Result<(), Problem> {
    let sheet = &ctx.state.sides[side];
    match item {
        ArmItem::Scrap(ids) => legal_scrap(ctx, side, ids, at)?,
        ArmItem::Refit(Refit { out, into }) => {
            known_type(ctx, out, at)?;
            known_type(ctx, into, at)?;
            if out == into {
                return Err(problem(
                    at,
                    "8.2",
                    format!("a refit of {out} into {into} changes nothing"),
                    "two different types",
                ));
            }
            if count_of(&sheet.factory, out) == 0 {
                return Err(problem(
                    at,
                    "8.2",
                    format!("no {out} in the factory box to refit"),
                    "a type in the factory box",
                ));
            }
            if count_of(&sheet.stock, into) == 0 {
                return Err(problem(
                    at,
                    "8.2",
                    format!("no {into} left in stock"),
                    "a type in stock",
                ));
            }
            if !permitted(ctx, side, into) {
                return Err(problem(
                    at,
                    "8.4",
                    format!("{into} is not producible for {side} yet"),
                    "a permitted type",
                ));
            }
        }
        ArmItem::Augment(Augment { type_id, count }) => {
            known_type(ctx, type_id, at)?;
            positive(*count, at, "7.1")?;
            if !permitted(ctx, side, type_id) {
                return Err(problem(
                    at,
                    "7.3",
                    format!("{side} may not augment {type_id} (not permitted yet)"),
                    "a permitted type",
                ));
            }
            let have = count_of(&sheet.stock, type_id);
            if have < *count {
                return Err(problem(
                    at,
                    "7.4",
                    format!("only {have} {type_id} counter(s) left in stock, {count} asked"),
                    "at most the counters in stock",
                ));
            }
        }
        ArmItem::Produce(Produce { type_id, count, .. }) => {
            known_type(ctx, type_id, at)?;
            positive(*count, at, "6.1")?;
            let have = count_of(&sheet.factory, type_id);
            if have < *count {
                return Err(problem(
                    at,
                    "6.1",
                    format!("only {have} {type_id} in the factory box here, {count} asked"),
                    "at most the units in the factory box",
                ));
            }
        }
    }
    let (need, left) = (cost(ctx, item), points_left(ctx, side));
    if need > left {
        return Err(problem(
            at,
            "5.3",
            format!(
                "this costs {} and only {} of armament points are left",
                points(need),
                points(left)
            ),
            "items within the armament points",
        ));
    }
    Ok(())
}

fn known_type(ctx: &Ctx<'_>, t: &str, at: &FieldPath) -> Result<(), Problem> {
    match ctx.data.unit_type(t) {
        Some(ty) if ty.class != Class::Colony => Ok(()),
        _ => Err(problem(
            at,
            "5.1",
            format!("no unit type {t:?} to arm"),
            "a unit type of counters.yaml",
        )),
    }
}

fn positive(count: u8, at: &FieldPath, rule: &str) -> Result<(), Problem> {
    if count == 0 {
        return Err(problem(
            at,
            rule,
            "a count of 0".into(),
            "a count of 1 or more",
        ));
    }
    Ok(())
}

/// 5.6: own units anywhere on the map, each once; never the colony.
fn legal_scrap(ctx: &Ctx<'_>, side: Side, ids: &[UnitId], at: &FieldPath) -> Result<(), Problem> {
    if ids.is_empty() {
        return Err(problem(
            at,
            "5.6",
            "scrap names no unit".into(),
            "one or more own units",
        ));
    }
    let mut seen = BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(problem(
                at,
                "5.6",
                format!("{id} is named twice"),
                "each unit once",
            ));
        }
        let own = ctx.state.units.get(id).filter(|u| u.side == side);
        let class = own.and_then(|u| ctx.data.unit_type(&u.type_id).map(|t| t.class));
        if !matches!(class, Some(Class::Ms | Class::Ship)) {
            return Err(problem(
                at,
                "5.6",
                format!("{id} is not a unit of {side} on the map"),
                "own units on the map",
            ));
        }
    }
    Ok(())
}

/// The armament items `side` may order now: scrapping each own unit, one refit of each
/// possible pair, one more counter of each permitted type, one unit of each factory type.
pub fn armament_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<ArmItem>> {
    let sheet = &ctx.state.sides[side];
    let mut items = Vec::new();
    for t in sheet.factory.keys() {
        items.push(ArmItem::Produce(Produce {
            type_id: t.clone(),
            count: 1,
            label: None,
        }));
    }
    for t in sheet.stock.keys() {
        items.push(ArmItem::Augment(Augment {
            type_id: t.clone(),
            count: 1,
        }));
        for out in sheet.factory.keys() {
            items.push(ArmItem::Refit(Refit {
                out: out.clone(),
                into: t.clone(),
            }));
        }
    }
    for (id, u) in &ctx.state.units {
        if u.side == side {
            items.push(ArmItem::Scrap(vec![id.clone()]));
        }
    }
    let at = FieldPath::root();
    items
        .into_iter()
        .filter(|i| legal_armament_item(ctx, side, i, &at).is_ok())
        .map(|item| {
            let note = format!(
                "{} of {}",
                points(cost(ctx, &item)),
                points(points_left(ctx, side))
            );
            Choice { item, note }
        })
        .collect()
}

/// Productions that become legal after an augment earlier in the same list (5.3: the order
/// and combination of items are free): for each type `side` may augment now, a production of
/// one of it judged (by [`legal_armament_item`]) on the sheet that augment leaves. These are
/// not legal alone, so the template lists them apart from [`armament_choices`].
pub fn produce_after_augment_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<ArmItem>> {
    let at = FieldPath::root();
    let mut out = Vec::new();
    for t in ctx.state.sides[side].stock.keys() {
        let aug = ArmItem::Augment(Augment {
            type_id: t.clone(),
            count: 1,
        });
        if legal_armament_item(ctx, side, &aug, &at).is_err() {
            continue;
        }
        let mut sim = Ctx::new(ctx.state.clone(), None, super::ctx::Moment::Check);
        sim.state.sides[side].sheet.points_left = Some(points_left(ctx, side));
        apply(&mut sim, side, &aug);
        let item = ArmItem::Produce(Produce {
            type_id: t.clone(),
            count: 1,
            label: None,
        });
        if legal_armament_item(&sim, side, &item, &at).is_ok() {
            let note = format!(
                "after augment {t} earlier in the list (5.3): {} more of {} left",
                points(cost(&sim, &item)),
                points(points_left(&sim, side))
            );
            out.push(Choice { item, note });
        }
    }
    out
}

/// A unit that already waits for this deployment without being produced in this packet
/// (29.5.2: the Red Qubeley Mk-II when Glemy is not on the board) is named by its type, as a
/// production without a label is (6.1), so the deployment can place it.
fn name_waiting_units(ctx: &mut Ctx<'_>, side: Side) {
    for (id, type_id) in &ctx.state.sides[side].sheet.awaiting {
        let named = ctx.labels.entry(type_id.clone()).or_default();
        if !named.contains(id) {
            named.push(id.clone());
        }
    }
}

/// Starts `side`'s armament: last turn's production is forgotten, 5.2's new types are
/// permitted for good, and the income is on the sheet.
fn begin(ctx: &mut Ctx<'_>, side: Side) {
    let new_types = starts_now(ctx, side);
    let income = income(ctx, side);
    let s = &mut ctx.state.sides[side];
    s.produced.clear();
    s.sheet.points_left = Some(income);
    let added: Vec<TypeId> = new_types
        .into_iter()
        .filter(|t| s.permitted.insert(t.clone()))
        .collect();
    name_waiting_units(ctx, side);
    if !added.is_empty() {
        reach::fire("5.2");
        ctx.log.public(format!(
            "{side} may now augment {} (reinforcements, 5.2)",
            added.join(", ")
        ));
    }
    reach::fire("5.4");
    ctx.log
        .public(format!("{side} has {} of armament (5.4)", points(income)));
}

/// Carries out one item judged legal: spends its points and changes the sheet.
fn apply(ctx: &mut Ctx<'_>, side: Side, item: &ArmItem) {
    let need = cost(ctx, item);
    let left = points_left(ctx, side).saturating_sub(need);
    // 5.1, 5.3: any mix, in the listed order, within the points.
    reach::fire("5.1");
    reach::fire("5.3");
    ctx.state.sides[side].sheet.points_left = Some(left);
    match item {
        ArmItem::Scrap(ids) => {
            for id in ids {
                scrap(ctx, side, id);
            }
        }
        ArmItem::Refit(Refit { out, into }) => {
            let s = &mut ctx.state.sides[side];
            shift(&mut s.factory, &mut s.stock, out, 1);
            shift(&mut s.stock, &mut s.factory, into, 1);
            for r in ["8.1", "8.2", "8.3", "8.4", "8.6"] {
                reach::fire(r);
            }
            let class = |t: &str| ctx.data.unit_type(t).map(|ty| ty.class);
            if class(out) != class(into) {
                reach::fire("8.5");
            }
            ctx.log.public(format!(
                "{side} refits {out} into {into} ({}, 8.2)",
                points(need)
            ));
        }
        ArmItem::Augment(Augment { type_id, count }) => {
            let s = &mut ctx.state.sides[side];
            shift(&mut s.stock, &mut s.factory, type_id, *count);
            for r in ["7.1", "7.2", "7.3", "7.4"] {
                reach::fire(r);
            }
            ctx.log.public(format!(
                "{side} augments {count} {type_id} ({}, 7.2)",
                points(need)
            ));
        }
        ArmItem::Produce(p) => produce(ctx, side, p, need),
    }
}

/// Moves `n` counters of `t` from one box to the other (7.1, 8.2).
fn shift(from: &mut BTreeMap<TypeId, u8>, to: &mut BTreeMap<TypeId, u8>, t: &str, n: u8) {
    let left = count_of(from, t).saturating_sub(n);
    if left == 0 {
        from.remove(t);
    } else {
        from.insert(t.to_string(), left);
    }
    let e = to.entry(t.to_string()).or_insert(0);
    *e = e.saturating_add(n);
}

/// 6.1-6.2: units leave the factory box and wait for the deployment (9.1) under the order's
/// label, or under their type's name when the order gives none.
fn produce(ctx: &mut Ctx<'_>, side: Side, p: &Produce, need: u32) {
    let label = p.label.clone().unwrap_or_else(|| p.type_id.clone());
    let mut ids = Vec::new();
    for _ in 0..p.count {
        let id = ctx.state.new_unit_id(side, &p.type_id);
        ids.push(id);
    }
    let s = &mut ctx.state.sides[side];
    let left = count_of(&s.factory, &p.type_id).saturating_sub(p.count);
    if left == 0 {
        s.factory.remove(&p.type_id);
    } else {
        s.factory.insert(p.type_id.clone(), left);
    }
    for id in &ids {
        s.sheet.awaiting.insert(id.clone(), p.type_id.clone());
    }
    let made = s.produced.entry(p.type_id.clone()).or_insert(0);
    *made = made.saturating_add(p.count);
    ctx.labels
        .entry(label)
        .or_default()
        .extend(ids.iter().cloned());
    reach::fire("6.1");
    reach::fire("6.2");
    ctx.log.public(format!(
        "{side} produces {} {} ({}, 6.2): {}",
        p.count,
        p.type_id,
        points(need),
        ids.join(", ")
    ));
}

/// 5.6-5.7: a unit back to the factory box. MS it carried stay if they can (on
/// another own ship with room, or alone where 15.4-15.6 allow), else go to the factory box
/// too (15.7); characters aboard board another own unit in the hex, stand alone where 15.6
/// allows, or go to wounded box L (5.7).
fn scrap(ctx: &mut Ctx<'_>, side: Side, id: &str) {
    let Some(unit) = ctx.state.units.remove(id) else {
        return;
    };
    let s = &mut ctx.state.sides[side];
    let e = s.factory.entry(unit.type_id.clone()).or_insert(0);
    *e = e.saturating_add(1);
    reach::fire("5.6");
    ctx.log
        .public(format!("{side} scraps {id} to the factory box (5.6)"));
    let mut gone = vec![id.to_string()];
    let riders: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.carrier.as_deref() == Some(id))
        .map(|(r, _)| r.clone())
        .collect();
    for r in riders {
        let ship = deploy::ship_with_room(&ctx.state, side, unit.place, &gone);
        let alone = deploy::ms_may_stand(&ctx.state, side, unit.place);
        if let Some(u) = ctx.state.units.get_mut(&r) {
            u.carrier = ship.clone();
        }
        match ship {
            Some(ship) => ctx
                .log
                .public(format!("{r} boards {ship} (its ship was scrapped)")),
            None if alone => ctx.log.public(format!("{r} stays alone in its hex")),
            None => {
                if let Some(u) = ctx.state.units.remove(&r) {
                    let e = ctx.state.sides[side].factory.entry(u.type_id).or_insert(0);
                    *e = e.saturating_add(1);
                }
                reach::fire("15.7");
                ctx.log.public(format!(
                    "{r} cannot stay without its ship and goes to the factory box (15.7)"
                ));
                gone.push(r);
            }
        }
    }
    for g in &gone {
        rehouse_riders(ctx, side, g, unit.place);
    }
}

/// The characters aboard the removed unit `gone`, which stood at `place`: another own unit
/// there takes them, else they stand alone where 15.6 allows, else box L (5.7, A-11).
fn rehouse_riders(ctx: &mut Ctx<'_>, side: Side, gone: &str, place: Place) {
    let chars: Vec<String> = ctx
        .state
        .chars
        .iter()
        .filter(|(_, c)| matches!(&c.place, CharPlace::Aboard(u) if u == gone))
        .map(|(c, _)| c.clone())
        .collect();
    for c in chars {
        let carrier = deploy::unit_to_board(&ctx.state, side, &c, place);
        let new_place = match (&carrier, place) {
            (Some(u), _) => CharPlace::Aboard(u.clone()),
            (None, Place::Hex(loc)) if deploy::solo_allowed(&ctx.state, side, place) => {
                CharPlace::Solo(loc)
            }
            _ => CharPlace::Wounded(Wound::L),
        };
        let line = match &new_place {
            CharPlace::Aboard(u) => format!("{c} boards {u}"),
            CharPlace::Solo(l) => format!("{c} stays alone at {}", l.label()),
            _ => {
                reach::fire("5.7");
                format!("{c} has no unit left to board and goes to wounded box L (5.7)")
            }
        };
        if let Some(ch) = ctx.state.chars.get_mut(&c) {
            ch.place = new_place;
        }
        ctx.log.public(line);
    }
}

/// Ends the armament: unspent points lapse (5.5).
fn finish(ctx: &mut Ctx<'_>, side: Side) {
    let left = points_left(ctx, side);
    ctx.state.sides[side].sheet.points_left = None;
    if left > 0 {
        reach::fire("5.5");
        ctx.log
            .public(format!("{side}'s unspent {} lapse (5.5)", points(left)));
    }
}

/// Carries out `side`'s armament (5-8): items in the order listed (5.3); an item not legal
/// where it comes is skipped and `side` told why.
pub fn resolve_armament(ctx: &mut Ctx<'_>, side: Side, items: &[ArmItem]) {
    begin(ctx, side);
    let root = FieldPath::root().at("armament");
    for (i, item) in items.iter().enumerate() {
        match legal_armament_item(ctx, side, item, &root.at(i)) {
            Ok(()) => apply(ctx, side, item),
            Err(p) => ctx.log.private(
                side,
                format!(
                    "armament item {} skipped: {}",
                    i + 1,
                    super::ctx::reason(&p)
                ),
            ),
        }
    }
    finish(ctx, side);
}

/// `check`'s judgement of a whole armament list: each item on the sheet the items before it
/// leave (`ctx` is a simulation on a copy of the state); the legal ones are carried out on it, so
/// the deployment can then be judged on the same `ctx`.
pub fn simulate_armament(
    ctx: &mut Ctx<'_>,
    side: Side,
    items: &[ArmItem],
    root: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    ctx.state.sides[side].produced.clear();
    let income = income(ctx, side);
    ctx.state.sides[side].sheet.points_left = Some(income);
    name_waiting_units(ctx, side);
    for (i, item) in items.iter().enumerate() {
        match legal_armament_item(ctx, side, item, &root.at(i)) {
            Ok(()) => apply(ctx, side, item),
            Err(p) => out.push(p),
        }
    }
    ctx.state.sides[side].sheet.points_left = None;
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::systems::zeta::carry::fixture::assert_refused;
    use crate::systems::zeta::deploy::fixture::{ctx, state, unit};

    fn titans_sheet(st: &mut crate::systems::zeta::state::State) {
        let s = &mut st.sides[Side::Titans];
        s.factory = [("hizack".to_string(), 2u8)].into_iter().collect();
        s.stock = [("hizack".to_string(), 3u8), ("gm2".to_string(), 2u8)]
            .into_iter()
            .collect();
        s.permitted = ["hizack".to_string(), "gm2".to_string()]
            .into_iter()
            .collect();
    }

    #[test]
    fn income_is_ten_points_plus_own_bases_armament_5_4() {
        let mut st = state();
        for b in st.bases.values_mut() {
            b.governor = None;
        }
        if let Some(b) = st.bases.get_mut("granada") {
            b.governor = Some(Side::Titans);
            b.level = 2;
        }
        let c = ctx(st);
        // granada level 2 gives 2P in the stand-in.
        assert_eq!(income(&c, Side::Titans), 24);
        assert_eq!(income(&c, Side::Aeug), 20);
    }

    #[test]
    fn a_running_budget_refuses_the_item_that_overspends_5_3() {
        let mut st = state();
        for b in st.bases.values_mut() {
            b.governor = None;
        }
        titans_sheet(&mut st);
        st.sides[Side::Titans].stock.insert("gm2".into(), 3);
        let mut c =
            crate::systems::zeta::ctx::Ctx::new(st, None, crate::systems::zeta::ctx::Moment::Check);
        let aug = |t: &str, n| {
            ArmItem::Augment(Augment {
                type_id: t.into(),
                count: n,
            })
        };
        // 10P: three hizack (6P) and two gm2 (4P) spend it all; a refit (0.5P) does not fit.
        let items = vec![
            aug("hizack", 3),
            aug("gm2", 2),
            ArmItem::Refit(Refit {
                out: "hizack".into(),
                into: "gm2".into(),
            }),
        ];
        let probs = simulate_armament(&mut c, Side::Titans, &items, &FieldPath::root());
        assert_eq!(probs.len(), 1, "{probs:?}");
        assert_eq!(probs[0].rule.as_deref(), Some("5.3"));
        assert!(probs[0].message.contains("only 0P"), "{}", probs[0].message);
    }

    #[test]
    fn augment_needs_permission_7_3_and_stock_7_4() {
        let mut st = state();
        titans_sheet(&mut st);
        let c = ctx(st);
        let at = FieldPath::root();
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Augment(Augment {
                type_id: "the_o".into(),
                count: 1,
            }),
            &at,
        )
        .unwrap_err();
        assert_refused(&e, "7.3", "not permitted");
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Augment(Augment {
                type_id: "gm2".into(),
                count: 3,
            }),
            &at,
        )
        .unwrap_err();
        assert_refused(&e, "7.4", "only 2 gm2");
    }

    #[test]
    fn a_reinforcement_type_is_permitted_from_its_turn_5_2() {
        let mut st = state();
        st.turn = 2;
        let mut c = ctx(st);
        assert!(permitted(&c, Side::Titans, "marasai"));
        resolve_armament(&mut c, Side::Titans, &[]);
        assert!(c.state.sides[Side::Titans].permitted.contains("marasai"));
        let (lines, _) = c.log.into_lines();
        assert!(lines.iter().any(|l| l.contains("may now augment marasai")));
    }

    #[test]
    fn refit_needs_the_type_in_the_factory_box_and_a_permitted_stock_type_8_2_8_4() {
        let mut st = state();
        titans_sheet(&mut st);
        st.sides[Side::Titans].stock.insert("the_o".into(), 1);
        let c = ctx(st);
        let at = FieldPath::root();
        let refit = |o: &str, i: &str| {
            ArmItem::Refit(Refit {
                out: o.into(),
                into: i.into(),
            })
        };
        let e = legal_armament_item(&c, Side::Titans, &refit("gm2", "hizack"), &at).unwrap_err();
        assert_refused(&e, "8.2", "no gm2 in the factory box");
        let e = legal_armament_item(&c, Side::Titans, &refit("hizack", "the_o"), &at).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("8.4"));
        let e =
            legal_armament_item(&c, Side::Titans, &refit("hizack", "marasai"), &at).unwrap_err();
        assert!(e.message.contains("no marasai left in stock"));
        let e = legal_armament_item(&c, Side::Titans, &refit("hizack", "hizack"), &at).unwrap_err();
        assert!(e.message.contains("changes nothing"));
    }

    #[test]
    fn refit_swaps_one_counter_for_half_a_point_8_3() {
        let mut st = state();
        titans_sheet(&mut st);
        st.sides[Side::Titans].factory.remove("gm2");
        let mut c = ctx(st);
        resolve_armament(
            &mut c,
            Side::Titans,
            &[ArmItem::Refit(Refit {
                out: "hizack".into(),
                into: "gm2".into(),
            })],
        );
        let s = &c.state.sides[Side::Titans];
        assert_eq!(count_of(&s.factory, "hizack"), 1);
        assert_eq!(count_of(&s.factory, "gm2"), 1);
        assert_eq!(count_of(&s.stock, "hizack"), 4);
        assert_eq!(count_of(&s.stock, "gm2"), 1);
        let (lines, _) = c.log.into_lines();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("refits hizack into gm2 (0.5P"))
        );
        assert!(lines.iter().any(|l| l.contains("lapse (5.5)")));
    }

    #[test]
    fn produce_takes_from_the_factory_box_and_waits_under_its_label_6_1() {
        let mut st = state();
        titans_sheet(&mut st);
        let mut c = ctx(st);
        resolve_armament(
            &mut c,
            Side::Titans,
            &[ArmItem::Produce(Produce {
                type_id: "hizack".into(),
                count: 2,
                label: Some("new".into()),
            })],
        );
        let s = &c.state.sides[Side::Titans];
        assert_eq!(count_of(&s.factory, "hizack"), 0);
        assert_eq!(s.sheet.awaiting.len(), 2);
        assert_eq!(count_of(&s.produced, "hizack"), 2);
        assert_eq!(c.labels.get("new").map(Vec::len), Some(2));
        assert!(s.sheet.points_left.is_none());
    }

    #[test]
    fn produce_beyond_the_factory_box_is_refused_6_1() {
        let mut st = state();
        titans_sheet(&mut st);
        let c = ctx(st);
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Produce(Produce {
                type_id: "hizack".into(),
                count: 3,
                label: None,
            }),
            &FieldPath::root(),
        )
        .unwrap_err();
        assert_refused(&e, "6.1", "only 2 hizack");
    }

    #[test]
    fn a_skipped_item_is_told_privately_5_3() {
        let mut st = state();
        titans_sheet(&mut st);
        let mut c = ctx(st);
        resolve_armament(
            &mut c,
            Side::Titans,
            &[ArmItem::Produce(Produce {
                type_id: "the_o".into(),
                count: 1,
                label: None,
            })],
        );
        let (_, private) = c.log.into_lines();
        let lines = private.get("titans").cloned().unwrap_or_default();
        assert!(lines.iter().any(|l| l.contains("armament item 1 skipped")));
    }

    #[test]
    fn scrap_refuses_another_sides_unit_5_6() {
        let mut st = state();
        unit(&mut st, "a-nemo-1", Side::Aeug, "nemo", "space:C05");
        let c = ctx(st);
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Scrap(vec!["a-nemo-1".into()]),
            &FieldPath::root(),
        )
        .unwrap_err();
        assert_refused(&e, "5.6", "not a unit of titans");
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Scrap(vec![]),
            &FieldPath::root(),
        )
        .unwrap_err();
        assert!(e.message.contains("names no unit"));
    }

    #[test]
    fn scrapping_a_ship_in_space_sends_its_ms_to_the_factory_and_its_character_to_box_l_5_7() {
        let mut st = state();
        let loc = "space:A01";
        unit(&mut st, "t-alexandria-1", Side::Titans, "alexandria", loc);
        unit(&mut st, "t-hizack-1", Side::Titans, "hizack", loc);
        if let Some(u) = st.units.get_mut("t-hizack-1") {
            u.carrier = Some("t-alexandria-1".into());
        }
        if let Some(ch) = st.chars.get_mut("kacricon") {
            ch.place = CharPlace::Aboard("t-alexandria-1".into());
        }
        let mut c = ctx(st);
        resolve_armament(
            &mut c,
            Side::Titans,
            &[ArmItem::Scrap(vec!["t-alexandria-1".into()])],
        );
        assert!(!c.state.units.contains_key("t-alexandria-1"));
        assert!(!c.state.units.contains_key("t-hizack-1"));
        let s = &c.state.sides[Side::Titans];
        assert_eq!(count_of(&s.factory, "alexandria"), 1);
        assert_eq!(count_of(&s.factory, "hizack"), 1);
        assert_eq!(
            c.state.chars.get("kacricon").map(|c| c.place.clone()),
            Some(CharPlace::Wounded(Wound::L))
        );
        let (lines, _) = c.log.into_lines();
        assert!(lines.iter().any(|l| l.contains("wounded box L (5.7)")));
    }

    #[test]
    fn an_unknown_type_and_a_zero_count_are_refused_5_1() {
        let c = ctx(state());
        let at = FieldPath::root();
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Produce(Produce {
                type_id: "zaku9".into(),
                count: 1,
                label: None,
            }),
            &at,
        )
        .unwrap_err();
        assert!(e.message.contains("no unit type \"zaku9\""));
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Augment(Augment {
                type_id: "hizack".into(),
                count: 0,
            }),
            &at,
        )
        .unwrap_err();
        assert!(e.message.contains("a count of 0"));
    }

    #[test]
    fn a_unit_scrapped_twice_in_one_item_is_refused_5_6() {
        let mut st = state();
        unit(&mut st, "t-hizack-91", Side::Titans, "hizack", "ground:E05");
        let c = ctx(st);
        let e = legal_armament_item(
            &c,
            Side::Titans,
            &ArmItem::Scrap(vec!["t-hizack-91".into(), "t-hizack-91".into()]),
            &FieldPath::root(),
        )
        .unwrap_err();
        assert!(e.message.contains("named twice"));
    }
}

#[cfg(test)]
#[path = "arming_rules_tests.rs"]
mod rules_tests;
