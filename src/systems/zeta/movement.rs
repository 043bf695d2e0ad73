//! Movement (13, 15.2): paths, movement points, carrying ships.
//!
//! A move is judged at its moment in the phase (the moves before it already made): `check`
//! runs the same sequence on a copy of the state, so what it refuses is what the resolution
//! would skip. Each move is all or nothing.

use super::action;
use super::carry;
use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{Aptitude, Class, Loc, MapId, Place, Side, UnitId};
use super::orders::{PhaseOrders, UnitOrder};
use super::state::{Action, CardKind};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// Movement points of a ship (13.2).
pub const SHIP_MP: u32 = 3;
/// Movement points of an MS (13.2).
pub const MS_MP: u32 = 2;

/// A legal move, worked out: what it costs and what rides along.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub cost: u32,
    /// The MS the ship takes along: those aboard and those boarding at the start (15.2, A-14).
    pub cargo: Vec<UnitId>,
    /// Steps across the ground map's east-west seam (13.12).
    pub seam: bool,
    /// 13.5-13.7 applied on some step.
    pub extra: bool,
}

/// Whether a unit's path (and what it carries) is legal (13.2-13.9, 15.2-15.3, 30.3.4,
/// 32.1.2), judged on the state as it is.
pub fn legal_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    at: &FieldPath,
) -> Result<(), Problem> {
    legal_move_after(ctx, side, item, &BTreeSet::new(), at).map(|_| ())
}

/// [`legal_move`] when the units of `moved` have already moved this phase (13.3, A-14: one
/// move a unit a phase, its own or aboard a ship).
pub fn legal_move_after(
    ctx: &Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    moved: &BTreeSet<UnitId>,
    at: &FieldPath,
) -> Result<Planned, Problem> {
    let st = &ctx.state;
    let data = &ctx.data;
    let id = &item.unit;
    let refuse = |rule: &str, msg: String, ok: &str| {
        Err(Problem::new(
            at.at("move"),
            rule,
            format!("{id}: {msg}"),
            ok,
        ))
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
    let Some(card) = action::current_card(st) else {
        return refuse(
            "13.1",
            "units move only in an action phase".into(),
            "no move",
        );
    };
    if card.kind == CardKind::Atmosphere {
        return refuse(
            "12.7",
            "an Atmosphere card moves units only by atmospheric movement".into(),
            "`atmospheric:` items",
        );
    }
    let path = item.path.clone().unwrap_or_default();
    let Some(t) = data.unit_type(&u.type_id) else {
        return refuse("2.2", format!("unknown type {}", u.type_id), "a unit");
    };
    if t.class == Class::Colony {
        return refuse(
            "35.6",
            "the colony moves by colony_move".into(),
            "`colony_move:`",
        );
    }
    if u.placed_this_phase {
        return refuse(
            "32.1.5",
            "was placed this phase and may not move".into(),
            "no move",
        );
    }
    if moved.contains(id) || u.atmo_moved {
        return refuse(
            "13.3",
            "has already moved this phase".into(),
            "one move a unit",
        );
    }
    if path.is_empty() {
        if !item.carry.is_empty() {
            return refuse(
                "15.2",
                "carry goes with a move; this unit stays".into(),
                "a path to carry along",
            );
        }
        return Ok(Planned {
            cost: 0,
            cargo: Vec::new(),
            seam: false,
            extra: false,
        });
    }
    let Place::Hex(start) = u.place else {
        // 30.3.4: only Axis crosses between the belt box and the map.
        return refuse(
            "30.3.4",
            format!("is in the {} box; only Axis leaves it", u.place.label()),
            "units on the map",
        );
    };
    if side == Side::NeoZeon && axis_in_belt(ctx) {
        return refuse(
            "30.3.4",
            "Neo Zeon's units may not move while Axis is in the asteroid belt".into(),
            "no move until Axis has left the belt",
        );
    }
    let is_ms = t.class == Class::Ms;
    if is_ms && start.map == MapId::Space {
        return refuse(
            "13.8",
            "an MS moves in space only aboard a ship (name it in the ship's carry)".into(),
            "the ship's `carry:`",
        );
    }
    if !t.aptitude.is_some_and(|a| a.allows(start.map)) {
        return refuse(
            "2.4",
            format!(
                "a {} unit does not act on the {} map (it moves only when carried)",
                aptitude_name(t.aptitude),
                start.map.id()
            ),
            "units whose aptitude allows the map",
        );
    }
    if is_ms && !item.carry.is_empty() {
        return refuse("15.1", "only ships carry MS".into(), "no carry");
    }
    let mp = if is_ms { MS_MP } else { SHIP_MP };
    let grid = data.grid(start.map);
    let mut prev = start;
    let mut cost = 0u32;
    let mut seam = false;
    let mut extra = false;
    let mut steps = Vec::new();
    for next in &path {
        let hex = next.label();
        if next.map != start.map || !data.on_map(*next) {
            return refuse(
                "13.4",
                format!("{hex} is not a hex of the {} map", start.map.id()),
                "adjacent hexes of the unit's map",
            );
        }
        if !grid.adjacent(prev.at, next.at) {
            return refuse(
                "13.4",
                format!("{hex} is not next to {}", prev.label()),
                "each step to an adjacent hex",
            );
        }
        if next.map == MapId::Space && next.at == data.map.space.earth {
            return refuse("A-19", "Earth is never entered".into(), "other hexes");
        }
        if closed_to(ctx, side, *next) {
            return refuse(
                "32.1.2",
                format!("{hex} (Side 3) is closed to {side} until Neo Zeon has governed it"),
                "other hexes",
            );
        }
        if is_ms
            && !data
                .map
                .ground
                .terrain(next.at)
                .is_some_and(super::data::Terrain::solid)
        {
            return refuse(
                "13.9",
                format!("{hex} is ocean; an MS moves only on land and coast"),
                "land and coast hexes",
            );
        }
        // 13.5-13.7: +1 into another faction's units or military base, once for both.
        let place = Place::Hex(*next);
        let plus = carry::others_at(st, side, place)
            || carry::foreign_military_base_at(st, data, side, place);
        let step = 1 + u32::from(plus);
        extra |= plus;
        seam |= grid.wrap && prev.at.col.abs_diff(next.at.col) > 1;
        cost += step;
        steps.push(format!("{hex} {step}"));
        prev = *next;
    }
    if cost > mp {
        return refuse(
            "13.2",
            format!(
                "the path costs {cost} MP ({}); {} has {mp}",
                steps.join(", "),
                if is_ms { "an MS" } else { "a ship" }
            ),
            "a path within the unit's movement points (13.4-13.7)",
        );
    }
    let cargo = if is_ms {
        Vec::new()
    } else {
        carry::moving_cargo(ctx, side, id, &item.carry, moved, at)?
    };
    Ok(Planned {
        cost,
        cargo,
        seam,
        extra,
    })
}

fn aptitude_name(a: Option<Aptitude>) -> &'static str {
    match a {
        Some(Aptitude::S) => "space-only (S)",
        Some(Aptitude::G) => "ground-only (G)",
        Some(Aptitude::SG) => "SG",
        None => "non-moving",
    }
}

/// 30.3.4: Axis is in the belt box.
pub fn axis_in_belt(ctx: &Ctx<'_>) -> bool {
    ctx.data.bases.bases.iter().any(|(id, b)| {
        b.belt_bonus > 0 && carry::base_place(&ctx.state, &ctx.data, id) == Some(Place::Belt)
    })
}

/// 32.1.2, 32.1.6: a base closed to AEUG and Titans until Neo Zeon has governed it.
fn closed_to(ctx: &Ctx<'_>, side: Side, at: Loc) -> bool {
    side != Side::NeoZeon
        && carry::bases_at(&ctx.state, &ctx.data, Place::Hex(at))
            .iter()
            .any(|id| {
                ctx.data.base(id).is_some_and(|b| b.closed_until_nz)
                    && ctx.state.bases.get(id).is_some_and(|b| {
                        !b.governed_by_nz_once && b.governor != Some(Side::NeoZeon)
                    })
            })
}

/// Carries out a move judged legal: the unit and its cargo go to the path's last hex (13.1,
/// 15.2), an MS leaving a ship on the ground gets off at the start, and the existence
/// checks of both ends follow.
pub fn resolve_move(
    ctx: &mut Ctx<'_>,
    side: Side,
    item: &UnitOrder,
    plan: &Planned,
    moved: &mut BTreeSet<UnitId>,
) {
    let id = &item.unit;
    let path = item.path.clone().unwrap_or_default();
    let (Some(end), Some(start)) = (
        path.last().copied(),
        ctx.state.units.get(id).and_then(|u| u.place.loc()),
    ) else {
        return;
    };
    reach::fire("13.1");
    reach::fire("13.2");
    reach::fire("13.4");
    if plan.extra {
        reach::fire("13.5");
        reach::fire("13.6");
        reach::fire("13.7");
    }
    if plan.seam {
        reach::fire("13.12");
    }
    let ms = carry::class_of(&ctx.state, id) == Some(Class::Ms);
    if ms {
        reach::fire("13.8");
        reach::fire("13.9");
    }
    if let Some(u) = ctx.state.units.get_mut(id) {
        u.place = Place::Hex(end);
        if ms {
            u.carrier = None;
        }
    }
    moved.insert(id.clone());
    for c in &plan.cargo {
        reach::fire("15.2");
        if let Some(u) = ctx.state.units.get_mut(c) {
            u.place = Place::Hex(end);
            u.carrier = Some(id.clone());
            u.action = Some(Action::Move);
        }
        moved.insert(c.clone());
    }
    let hexes: Vec<String> = path.iter().map(Loc::label).collect();
    let cargo = if plan.cargo.is_empty() {
        String::new()
    } else {
        format!(", carrying {}", plan.cargo.join(", "))
    };
    ctx.log.public(format!(
        "{side}: {id} moves {} -> {} ({} MP{cargo})",
        start.label(),
        hexes.join(" -> "),
        plan.cost
    ));
    carry::existence_check(ctx, start);
    carry::existence_check(ctx, end);
}

/// Slot A5 for `side`'s `units` (not Atmosphere cards): each path in the order given, judged
/// at its moment; what is wrong then is skipped and told to `side` alone. Returns the
/// problems (what `check` refuses).
pub fn run_moves(
    ctx: &mut Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    root: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut moved = BTreeSet::new();
    let verdicts = action::verdicts(ctx, side, orders);
    for (i, item) in orders.units.iter().enumerate() {
        // Items refused at A4 were told there; a path of zero hexes moves nothing.
        if !verdicts.get(i).is_some_and(|v| *v) || item.path.as_ref().is_none_or(Vec::is_empty) {
            continue;
        }
        let at = root.at("units").at(i);
        match legal_move_after(ctx, side, item, &moved, &at) {
            Ok(plan) => resolve_move(ctx, side, item, &plan, &mut moved),
            Err(p) => {
                if ctx.moment == Moment::Resolve {
                    ctx.log
                        .private(side, format!("{} not moved: {}", item.unit, reason(&p)));
                }
                out.push(p);
            }
        }
    }
    out
}

/// Slot A5: `side`'s moves (13), or its atmospheric moves on an Atmosphere card (14).
pub fn resolve_movement(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let root = FieldPath::root().at("orders");
    carry::run_boards(ctx, side, &orders.board, &root);
    match action::current_card(&ctx.state).map(|c| c.kind) {
        Some(CardKind::Atmosphere) => {
            super::atmosphere::run_atmospheric(ctx, side, orders, &root);
        }
        Some(_) => {
            run_moves(ctx, side, orders, &root);
            // 30.3: Axis moves after the units, taking those inside it along.
            super::axis::resolve_axis_move(ctx, side, orders);
            super::gryps::resolve_gryps_move(ctx, side, orders);
        }
        None => {}
    }
    // 32.1.3, 32.2.1: Haman's or Mineva's arrival wakes the Zeon remnants.
    super::zeon::after_moves(ctx, orders);
}

/// The paths `side`'s acting units may take now, each the cheapest to its end hex (ties: the
/// first found in hex order), carrying nothing.
pub fn move_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<UnitOrder>> {
    let Some(card) = action::current_card(&ctx.state) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for id in action::acting_units(ctx, side, card) {
        let Some(start) = ctx.state.units.get(&id).and_then(|u| u.place.loc()) else {
            continue;
        };
        // Every path of up to three steps (the most MP a unit has, 13.2), cheapest kept.
        let mut best: std::collections::BTreeMap<Loc, (u32, Vec<Loc>)> = Default::default();
        let mut frontier: Vec<Vec<Loc>> = vec![Vec::new()];
        for _ in 0..SHIP_MP {
            let mut next = Vec::new();
            for path in &frontier {
                let from = path.last().copied().unwrap_or(start);
                for n in ctx.data.neighbours(from) {
                    let mut p = path.clone();
                    p.push(n);
                    let item = UnitOrder {
                        unit: id.clone(),
                        path: Some(p.clone()),
                        carry: Vec::new(),
                        recover: None,
                        govern: None,
                    };
                    let at = FieldPath::root();
                    if let Ok(plan) = legal_move_after(ctx, side, &item, &BTreeSet::new(), &at) {
                        if best.get(&n).is_none_or(|(c, _)| plan.cost < *c) {
                            best.insert(n, (plan.cost, p.clone()));
                        }
                        next.push(p);
                    }
                }
            }
            frontier = next;
        }
        for (end, (cost, path)) in best {
            if end == start {
                continue;
            }
            out.push(Choice {
                item: UnitOrder {
                    unit: id.clone(),
                    path: Some(path),
                    carry: Vec::new(),
                    recover: None,
                    govern: None,
                },
                note: format!("to {} for {cost} MP", end.label()),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::carry::fixture::*;
    use super::*;
    use crate::systems::zeta::state::State;

    fn mv(unit: &str, path: &[&str]) -> UnitOrder {
        UnitOrder {
            unit: unit.into(),
            path: Some(path.iter().map(|h| loc(h)).collect()),
            carry: Vec::new(),
            recover: None,
            govern: None,
        }
    }

    fn judge(st: &State, side: Side, item: &UnitOrder) -> Result<Planned, Problem> {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_move_after(&ctx, side, item, &BTreeSet::new(), &FieldPath::root())
    }

    /// The MP `unit` spends on `path`, which must be legal.
    fn cost(st: &State, side: Side, unit: &str, path: &[&str]) -> u32 {
        judge(st, side, &mv(unit, path)).unwrap().cost
    }

    /// The problem a move of `unit` along `path` gets, which must be refused.
    fn refusal(st: &State, side: Side, unit: &str, path: &[&str]) -> Problem {
        judge(st, side, &mv(unit, path)).unwrap_err()
    }

    fn ground(side: Side) -> State {
        let mut st = state();
        phase(&mut st, side, CardKind::Ground);
        st
    }

    fn space(side: Side) -> State {
        let mut st = state();
        phase(&mut st, side, CardKind::Space);
        st
    }

    #[test]
    fn a_ship_has_three_mp_and_an_ms_two_13_2_13_4() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        let three = mv("a-argama-1", &["space:C06", "space:C07", "space:C08"]);
        assert_eq!(judge(&st, Side::Aeug, &three).unwrap().cost, 3);
        let four = mv(
            "a-argama-1",
            &["space:C06", "space:C07", "space:C08", "space:C09"],
        );
        let p = judge(&st, Side::Aeug, &four).unwrap_err();
        assert_refused(&p, "13.2", "costs 4 MP");
        let mut st = ground(Side::Aeug);
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:I02");
        assert!(
            judge(
                &st,
                Side::Aeug,
                &mv("a-gm2-1", &["ground:I03", "ground:I04"])
            )
            .is_ok()
        );
        let p = refusal(
            &st,
            Side::Aeug,
            "a-gm2-1",
            &["ground:I03", "ground:I04", "ground:I05"],
        );
        assert!(p.message.contains("an MS has 2"), "{}", p.message);
    }

    #[test]
    fn a_step_must_go_to_an_adjacent_hex_13_4() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        let p = refusal(&st, Side::Aeug, "a-argama-1", &["space:C07"]);
        assert_refused(&p, "13.4", "not next to space:C05");
    }

    #[test]
    fn entering_enemy_units_costs_one_more_13_5_colony_included_a18() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        put(
            &mut st,
            "t-salamis-kai-1",
            Side::Titans,
            "salamis_kai",
            "space:C06",
        );
        assert_eq!(
            cost(&st, Side::Aeug, "a-argama-1", &["space:C06", "space:C07"]),
            3
        );
        put(&mut st, "colony", Side::NeoZeon, "colony", "space:C07");
        assert!(
            refusal(&st, Side::Aeug, "a-argama-1", &["space:C06", "space:C07"])
                .message
                .contains("costs 4 MP")
        );
    }

    #[test]
    fn entering_another_factions_military_base_costs_one_more_but_not_a_political_one_13_6() {
        let mut st = space(Side::Aeug);
        // Green Noa (C02) is Titans' military base; Side 2 (F02) is AEUG's, Side 5 (H02) too.
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C04");
        assert_eq!(
            cost(&st, Side::Aeug, "a-argama-1", &["space:C03", "space:C02"]),
            3
        );
        // Titans entering AEUG's political base pays nothing extra.
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:F03",
        );
        phase(&mut st, Side::Titans, CardKind::Space);
        assert_eq!(cost(&st, Side::Titans, "t-alexandria-1", &["space:F02"]), 1);
    }

    #[test]
    fn enemy_units_in_another_factions_base_cost_one_extra_only_13_7() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C04");
        put(
            &mut st,
            "t-salamis-kai-1",
            Side::Titans,
            "salamis_kai",
            "space:C02",
        );
        assert_eq!(
            cost(&st, Side::Aeug, "a-argama-1", &["space:C03", "space:C02"]),
            3
        );
    }

    #[test]
    fn an_ms_in_space_moves_only_aboard_a_ship_13_8() {
        let mut st = space(Side::Titans);
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        let p = refusal(&st, Side::Titans, "t-hizack-1", &["space:B04"]);
        assert_refused(&p, "13.8", "only aboard a ship");
    }

    #[test]
    fn an_ms_never_enters_ocean_but_a_ship_may_13_9_a16() {
        let mut st = ground(Side::Aeug);
        // ground:C02 is land (Hickory); B02 is coast; A02 is ocean.
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        let p = judge(
            &st,
            Side::Aeug,
            &mv("a-gm2-1", &["ground:B02", "ground:A02"]),
        );
        let p = p.unwrap_err();
        assert_refused(&p, "13.9", "ground:A02 is ocean");
        put(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:C02");
        assert_eq!(
            cost(&st, Side::Aeug, "a-garuda-1", &["ground:B02", "ground:A02"]),
            2
        );
    }

    #[test]
    fn the_ground_map_wraps_east_west_13_12() {
        let mut st = ground(Side::Titans);
        // Hawaii (P04) is Titans'; P is next to A across the seam. A03 is ocean, a ship goes.
        put(&mut st, "t-garuda-1", Side::Titans, "garuda", "ground:P04");
        let item = mv("t-garuda-1", &["ground:A04"]);
        let plan = judge(&st, Side::Titans, &item).unwrap();
        assert!(plan.seam);
        assert_eq!(plan.cost, 1);
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let mut moved = BTreeSet::new();
        let (_, rules) =
            reach::recording(|| resolve_move(&mut ctx, Side::Titans, &item, &plan, &mut moved));
        assert!(rules.contains("13.12"));
        assert_eq!(
            ctx.state.units["t-garuda-1"].place,
            Place::Hex(loc("ground:A04"))
        );
        assert!(ctx.log.public[0].contains("ground:P04 -> ground:A04 (1 MP)"));
    }

    #[test]
    fn earth_is_never_entered_a19() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:D05");
        let p = refusal(&st, Side::Aeug, "a-argama-1", &["space:E05"]);
        assert_eq!(p.rule.as_deref(), Some("A-19"));
    }

    #[test]
    fn side_3_is_closed_to_aeug_and_titans_until_neo_zeon_governed_it_32_1_2() {
        let mut st = space(Side::Titans);
        // Side 3 is at space:L06.
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:L05",
        );
        let item = mv("t-alexandria-1", &["space:L06"]);
        let p = judge(&st, Side::Titans, &item).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("32.1.2"));
        if let Some(b) = st.bases.get_mut("side_3") {
            b.governed_by_nz_once = true;
        }
        assert!(judge(&st, Side::Titans, &item).is_ok());
    }

    #[test]
    fn neo_zeon_does_not_move_while_axis_is_in_the_belt_30_3_4() {
        let mut st = ground(Side::NeoZeon);
        put(&mut st, "n-gaza-d-1", Side::NeoZeon, "gaza_d", "ground:J03");
        let p = refusal(&st, Side::NeoZeon, "n-gaza-d-1", &["ground:J04"]);
        assert_refused(&p, "30.3.4", "while Axis is in the asteroid belt");
    }

    #[test]
    fn a_ship_carries_its_ms_along_and_the_enemy_lone_ms_leave_15_2_15_6() {
        let mut st = space(Side::Titans);
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:F03",
        );
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:F03");
        aboard(&mut st, "t-hizack-1", "t-alexandria-1");
        put(&mut st, "t-hizack-2", Side::Titans, "hizack", "space:F03");
        aboard(&mut st, "t-hizack-2", "t-alexandria-1");
        // AEUG's lone Nemo sits at its political base Side 2 (F02).
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "space:F02");
        let item = mv("t-alexandria-1", &["space:F02"]);
        let plan = judge(&st, Side::Titans, &item).unwrap();
        assert_eq!(plan.cost, 2);
        assert_eq!(plan.cargo, vec!["t-hizack-1", "t-hizack-2"]);
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        resolve_move(&mut ctx, Side::Titans, &item, &plan, &mut BTreeSet::new());
        assert_eq!(
            ctx.state.units["t-hizack-2"].place,
            Place::Hex(loc("space:F02"))
        );
        assert!(!ctx.state.units.contains_key("a-nemo-1"));
        assert_eq!(ctx.state.sides[Side::Aeug].factory.get("nemo"), Some(&1));
    }

    #[test]
    fn a_check_refuses_what_the_resolution_skips_with_a_private_line() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        let orders = PhaseOrders {
            units: vec![mv("a-argama-1", &["space:C07"])],
            ..Default::default()
        };
        let root = FieldPath::root().at("orders");
        let mut check = Ctx::new(st.clone(), None, Moment::Check);
        action::record_actions(&mut check, Side::Aeug, &orders, &root);
        let problems = run_moves(&mut check, Side::Aeug, &orders, &root);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].path.to_string(), "orders.units[0].move");
        let mut res = Ctx::new(st, None, Moment::Resolve);
        action::record_actions(&mut res, Side::Aeug, &orders, &root);
        run_moves(&mut res, Side::Aeug, &orders, &root);
        let lines = &res.log.private[Side::Aeug];
        assert!(
            lines.iter().any(|l| l.contains("a-argama-1 not moved")),
            "{lines:?}"
        );
        assert_eq!(
            res.state.units["a-argama-1"].place,
            Place::Hex(loc("space:C05"))
        );
        assert!(res.log.public.is_empty());
    }

    #[test]
    fn a_unit_moves_once_a_phase_13_3() {
        let mut st = ground(Side::Aeug);
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C03");
        put(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:C03");
        put(&mut st, "a-garuda-2", Side::Aeug, "garuda", "ground:C03");
        let with = |ship: &str, to: &str| {
            let mut g = mv(ship, &[to]);
            g.carry = vec!["a-gm2-1".into()];
            g
        };
        // Carried by the first Garuda, the GM II cannot also go with the second.
        let orders = PhaseOrders {
            units: vec![
                with("a-garuda-1", "ground:C04"),
                with("a-garuda-2", "ground:D03"),
            ],
            ..Default::default()
        };
        let root = FieldPath::root().at("orders");
        let mut check = Ctx::new(st, None, Moment::Check);
        action::record_actions(&mut check, Side::Aeug, &orders, &root);
        let problems = run_moves(&mut check, Side::Aeug, &orders, &root);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path.to_string(), "orders.units[1].carry");
        assert!(problems[0].message.contains("already moved"));
    }

    #[test]
    fn an_ms_listed_in_a_moving_ships_carry_takes_no_order_of_its_own_12_6() {
        let mut st = ground(Side::Aeug);
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:C02");
        put(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:C02");
        let mut g = mv("a-garuda-1", &["ground:C03"]);
        g.carry = vec!["a-gm2-1".into()];
        let orders = PhaseOrders {
            units: vec![mv("a-gm2-1", &["ground:D02"]), g],
            ..Default::default()
        };
        let problems = action::check_units(
            &Ctx::new(st, None, Moment::Check),
            Side::Aeug,
            &orders,
            &FieldPath::root(),
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].rule.as_deref(), Some("12.6"));
    }

    #[test]
    fn the_phase_slots_a4_and_a5_record_the_actions_and_move() {
        use crate::systems::zeta::state::{PhaseCursor, Slot};
        use crate::systems::zeta::steps;
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        put(
            &mut st,
            "a-rick-dias-1",
            Side::Aeug,
            "rick_dias",
            "space:C05",
        );
        aboard(&mut st, "a-rick-dias-1", "a-argama-1");
        let card = action::current_card(&st).unwrap();
        let orders = PhaseOrders {
            units: vec![mv("a-argama-1", &["space:C06"])],
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        let mut cursor = PhaseCursor {
            k: 1,
            card,
            slot: Slot::Actions,
            snapshot: Default::default(),
            combats_done: Vec::new(),
            combat_orders_done: 0,
        };
        for slot in [Slot::Actions, Slot::Movement] {
            cursor.slot = slot;
            steps::resolve_phase_slot(&mut ctx, &mut cursor, &orders);
        }
        for id in ["a-argama-1", "a-rick-dias-1"] {
            let u = &ctx.state.units[id];
            assert_eq!(u.place, Place::Hex(loc("space:C06")), "{id}");
            assert_eq!(u.action, Some(Action::Move), "{id}");
        }
        cursor.slot = Slot::End;
        steps::resolve_phase_slot(&mut ctx, &mut cursor, &orders);
        assert_eq!(ctx.state.units["a-argama-1"].action, None);
    }

    #[test]
    fn check_refuses_a_bad_path_at_its_field() {
        let mut st = space(Side::Aeug);
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        let orders = crate::systems::zeta::orders::Orders {
            units: vec![mv("a-argama-1", &["space:E05"])],
            ..Default::default()
        };
        let problems = crate::systems::zeta::orders::check(&st, "aeug", &orders);
        assert!(
            problems
                .iter()
                .any(|p| p.path.to_string() == "orders.units[0].move"
                    && p.rule.as_deref() == Some("13.4")),
            "{problems:?}"
        );
    }

    #[test]
    fn each_other_refusal_names_its_rule_and_reason() {
        let mut st = ground(Side::Aeug);
        put(
            &mut st,
            "a-rick-dias-1",
            Side::Aeug,
            "rick_dias",
            "ground:I02",
        );
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:I02");
        put(&mut st, "a-gm2-2", Side::Aeug, "gm2", "ground:I02");
        put(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:I02");
        put(&mut st, "colony", Side::Aeug, "colony", "ground:I02");
        put(&mut st, "a-gm2-3", Side::Aeug, "gm2", "ground:I02");
        if let Some(u) = st.units.get_mut("a-gm2-3") {
            u.placed_this_phase = true;
        }
        let carrying = |unit: &str, path: &[&str]| {
            let mut m = mv(unit, path);
            m.carry = vec!["a-gm2-2".into()];
            m
        };
        let cases = [
            (
                mv("a-rick-dias-1", &["ground:I03"]),
                "2.4",
                "space-only (S)",
            ),
            (
                carrying("a-gm2-1", &["ground:I03"]),
                "15.1",
                "only ships carry",
            ),
            (
                carrying("a-garuda-1", &[]),
                "15.2",
                "carry goes with a move",
            ),
            (mv("colony", &["ground:I03"]), "35.6", "colony_move"),
            (
                mv("a-gm2-3", &["ground:I03"]),
                "32.1.5",
                "placed this phase",
            ),
        ];
        for (item, rule, text) in cases {
            let p = judge(&st, Side::Aeug, &item).unwrap_err();
            assert_eq!(p.rule.as_deref(), Some(rule), "{}", p.message);
            assert!(p.message.contains(text), "{}", p.message);
        }
        let mut st = space(Side::NeoZeon);
        put(&mut st, "n-gwadan-1", Side::NeoZeon, "gwadan", "belt");
        let p = refusal(&st, Side::NeoZeon, "n-gwadan-1", &["space:N04"]);
        assert_refused(&p, "30.3.4", "only Axis leaves it");
    }

    #[test]
    fn move_choices_list_reachable_hexes_across_the_seam() {
        let mut st = ground(Side::Titans);
        put(&mut st, "t-garuda-1", Side::Titans, "garuda", "ground:P04");
        let ctx = Ctx::new(st, None, Moment::Check);
        let choices = move_choices(&ctx, Side::Titans);
        assert!(
            choices
                .iter()
                .any(|c| c.note.starts_with("to ground:A04 for 1 MP"))
        );
        assert!(
            choices
                .iter()
                .all(|c| legal_move(&ctx, Side::Titans, &c.item, &FieldPath::root()).is_ok())
        );
    }
}

#[cfg(test)]
#[path = "movement_rules_tests.rs"]
mod rules_tests;
