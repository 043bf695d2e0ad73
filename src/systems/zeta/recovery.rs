//! Recovery (16, 34.4): units that chose to recover (12.5) flip back to their front at a base
//! in their hex, within the base's capacity (slot A7, before government: 16.6, 17.10).

use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{BaseId, Place, Side, UnitId};
use super::deploy::{base_place, bases_at, enemies_at};
use super::orders::UnitOrder;
use super::state::{Action, FaceUp};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeMap;

/// 34.4: a base anyone may repair at for free (Side 6).
fn sanctuary(ctx: &Ctx<'_>, base: &str) -> bool {
    ctx.data.base(base).is_some_and(|d| d.free_repair_pp > 0)
}

/// PP of units `base` repairs per phase (16.5: three times its deployment points; 34.4:
/// Side 6's fixed amount for each faction, A-32).
pub fn capacity(ctx: &Ctx<'_>, base: &str) -> u32 {
    let Some(def) = ctx.data.base(base) else {
        return 0;
    };
    if def.free_repair_pp > 0 {
        return u32::from(def.free_repair_pp);
    }
    let level = ctx.state.bases.get(base).map_or(0, |b| b.level);
    def.at_level(level).map_or(0, |v| 3 * u32::from(v.deploy))
}

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// Whether `side`'s units may recover at this base (16.2-16.5, 34.4, A-32). Whether a given
/// unit stands in its hex and chose to recover is the action's rule (12.5, action.rs).
pub fn legal_recover(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let Some(place) = base_place(&ctx.state, item) else {
        return Err(problem(
            at,
            "16.2",
            format!("no base {item:?} on the map"),
            "a base in play",
        ));
    };
    let free = sanctuary(ctx, item);
    let governor = ctx.state.bases.get(item).and_then(|b| b.governor);
    if !free && governor != Some(side) {
        return Err(problem(
            at,
            "16.2",
            format!("{item} is not governed by {side}"),
            "an own base (or Side 6, 34.4)",
        ));
    }
    // 16.3; Side 6 ignores it by default. Enemy units in the hex may still leave
    // before the slot (a combat comes later, but an Axis attack or a laser does not remove
    // them either), so only the resolution refuses.
    let ignores = free && ctx.data.scenarios.options.side6_ignores_enemies;
    if ctx.moment == Moment::Resolve && !ignores && enemies_at(&ctx.state, side, place) {
        return Err(problem(
            at,
            "16.3",
            format!("other factions' units are at {item}"),
            "a base hex without other factions' units",
        ));
    }
    if capacity(ctx, item) == 0 {
        return Err(problem(
            at,
            "16.5",
            format!("{item} has no deployment points at its level and repairs nothing"),
            "a base with deployment points",
        ));
    }
    Ok(())
}

/// The bases where `side`'s units may recover.
pub fn recover_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let at = FieldPath::root();
    ctx.state
        .bases
        .keys()
        .filter(|b| legal_recover(ctx, side, b, &at).is_ok())
        .map(|b| Choice {
            item: b.clone(),
            note: format!("repairs {} PP a phase (16.5)", capacity(ctx, b)),
        })
        .collect()
}

/// The base a recovering unit uses: the one its order names, else the first base of its
/// hex where it may recover.
fn base_for(ctx: &Ctx<'_>, side: Side, place: Place, named: Option<&BaseId>) -> Option<BaseId> {
    let at = FieldPath::root();
    if let Some(b) = named {
        return Some(b.clone());
    }
    bases_at(&ctx.state, place)
        .into_iter()
        .find(|b| legal_recover(ctx, side, b, &at).is_ok())
}

/// Slot A7 for the acting `side`: every own unit whose action is to recover (12.5) is
/// repaired at its base, in the order of `orders` (then id order), while the base's capacity
/// lasts (16.5, A-32: per base per phase); what cannot be repaired is told privately.
pub fn resolve_recovery(ctx: &mut Ctx<'_>, side: Side, orders: &[UnitOrder]) {
    let mut order: Vec<(UnitId, Option<BaseId>)> = orders
        .iter()
        .map(|o| (o.unit.clone(), o.recover.clone()))
        .collect();
    for id in ctx.state.units.keys() {
        if !order.iter().any(|(u, _)| u == id) {
            order.push((id.clone(), None));
        }
    }
    let mut left: BTreeMap<BaseId, u32> = BTreeMap::new();
    for (id, named) in order {
        let Some(u) = ctx.state.units.get(&id) else {
            continue;
        };
        if u.side != side || u.action != Some(Action::Recover) {
            continue;
        }
        let place = u.place;
        let pp = ctx
            .data
            .unit_type(&u.type_id)
            .map_or(0, |t| u32::from(t.pp));
        let back = u.face == FaceUp::Back;
        let Some(base) = base_for(ctx, side, place, named.as_ref()) else {
            ctx.log
                .private(side, format!("{id} has no base to recover at (16.2)"));
            continue;
        };
        let at = FieldPath::root();
        if let Err(p) = legal_recover(ctx, side, &base, &at) {
            ctx.log
                .private(side, format!("{id} does not recover: {}", reason(&p)));
            continue;
        }
        if base_place(&ctx.state, &base) != Some(place) {
            ctx.log.private(
                side,
                format!("{id} does not recover: it is not in {base}'s hex (16.2)"),
            );
            continue;
        }
        if !back {
            continue;
        }
        let cap = capacity(ctx, &base);
        let room = left.entry(base.clone()).or_insert(cap);
        if pp > *room {
            ctx.log.private(
                side,
                format!(
                    "{id} does not recover: {base} has {room} PP of repairs left, {id} needs {pp} (16.5)"
                ),
            );
            continue;
        }
        *room -= pp;
        if let Some(u) = ctx.state.units.get_mut(&id) {
            u.face = FaceUp::Front;
        }
        // 16.4, 16.6/17.10: a recovering unit did nothing else (its one action, 12.5), and
        // this slot comes before government's.
        for r in ["16.1", "16.3", "16.4", "16.5", "16.6"] {
            reach::fire(r);
        }
        let rule = if sanctuary(ctx, &base) {
            reach::fire("34.4");
            "34.4"
        } else {
            reach::fire("16.2");
            "16.1"
        };
        ctx.log.public(format!("{id} recovers at {base} ({rule})"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::zeta::deploy::fixture::{ctx, state, unit};
    use crate::systems::zeta::state::State;

    /// Titans govern Green Noa at `level`, with damaged units recovering in its hex.
    fn at_green_noa(level: u8, units: &[(&str, &str)]) -> State {
        let mut st = state();
        if let Some(b) = st.bases.get_mut("green_noa") {
            b.governor = Some(Side::Titans);
            b.level = level;
            b.destroyed = false;
        }
        let hex = st.data.base_hex("green_noa").unwrap();
        // Nobody else in the hex.
        st.units.retain(|_, u| u.place != Place::Hex(hex));
        for (id, t) in units {
            unit(&mut st, id, Side::Titans, t, &hex.label());
            if let Some(u) = st.units.get_mut(*id) {
                u.face = FaceUp::Back;
                u.action = Some(Action::Recover);
            }
        }
        st
    }

    #[test]
    fn a_damaged_unit_recovering_at_an_own_base_flips_16_1() {
        let mut c = ctx(at_green_noa(1, &[("t-hizack-91", "hizack")]));
        resolve_recovery(&mut c, Side::Titans, &[]);
        assert_eq!(
            c.state.units.get("t-hizack-91").map(|u| u.face),
            Some(FaceUp::Front)
        );
        let (lines, _) = c.log.into_lines();
        assert!(
            lines
                .iter()
                .any(|l| l == "t-hizack-91 recovers at green_noa (16.1)")
        );
    }

    #[test]
    fn capacity_is_three_times_the_deployment_points_16_5() {
        // Level 1: 1 deployment point, 3 PP; an alexandria (2 PP) and two hizacks (1 PP).
        let st = at_green_noa(
            1,
            &[
                ("t-alexandria-91", "alexandria"),
                ("t-hizack-91", "hizack"),
                ("t-hizack-92", "hizack"),
            ],
        );
        let mut c = ctx(st);
        assert_eq!(capacity(&c, "green_noa"), 3);
        resolve_recovery(&mut c, Side::Titans, &[]);
        let front = c
            .state
            .units
            .values()
            .filter(|u| u.face == FaceUp::Front && u.side == Side::Titans && u.action.is_some())
            .count();
        assert_eq!(front, 2);
        let (_, private) = c.log.into_lines();
        assert!(
            private
                .get("titans")
                .is_some_and(|l| l.iter().any(|l| l.contains("PP of repairs left")))
        );
    }

    #[test]
    fn another_sides_base_is_refused_16_2() {
        let c = ctx(at_green_noa(1, &[]));
        let e = legal_recover(&c, Side::Aeug, &"green_noa".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("16.2"));
        assert!(e.message.contains("not governed by aeug"));
    }

    #[test]
    fn enemy_units_in_the_hex_stop_recovery_16_3() {
        let mut st = at_green_noa(1, &[("t-hizack-91", "hizack")]);
        let hex = st.data.base_hex("green_noa").unwrap();
        unit(&mut st, "a-nemo-91", Side::Aeug, "nemo", &hex.label());
        let mut c = ctx(st);
        let e =
            legal_recover(&c, Side::Titans, &"green_noa".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("16.3"));
        resolve_recovery(&mut c, Side::Titans, &[]);
        assert_eq!(
            c.state.units.get("t-hizack-91").map(|u| u.face),
            Some(FaceUp::Back)
        );
    }

    #[test]
    fn a_base_without_deployment_points_repairs_nothing_16_5() {
        let mut st = state();
        if let Some(b) = st.bases.get_mut("side_1") {
            b.governor = Some(Side::Aeug);
            b.level = 1;
        }
        let c = ctx(st);
        let e = legal_recover(&c, Side::Aeug, &"side_1".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("16.5"));
    }

    #[test]
    fn anyone_repairs_six_pp_at_side_6_even_with_enemies_34_4() {
        let mut st = state();
        let hex = st.data.base_hex("side_6").unwrap();
        unit(&mut st, "a-nemo-91", Side::Aeug, "nemo", &hex.label());
        unit(&mut st, "t-hizack-91", Side::Titans, "hizack", &hex.label());
        if let Some(u) = st.units.get_mut("a-nemo-91") {
            u.face = FaceUp::Back;
            u.action = Some(Action::Recover);
        }
        let mut c = ctx(st);
        assert_eq!(capacity(&c, "side_6"), 6);
        resolve_recovery(&mut c, Side::Aeug, &[]);
        assert_eq!(
            c.state.units.get("a-nemo-91").map(|u| u.face),
            Some(FaceUp::Front)
        );
        let (lines, _) = c.log.into_lines();
        assert!(lines.iter().any(|l| l.contains("(34.4)")));
    }

    #[test]
    fn choices_list_own_bases_and_side_6() {
        let c = ctx(at_green_noa(1, &[]));
        let ch = recover_choices(&c, Side::Titans);
        assert!(ch.iter().any(|c| c.item == "green_noa"));
        assert!(ch.iter().any(|c| c.item == "side_6"));
    }

    #[test]
    fn an_unknown_base_is_refused_16_2() {
        let c = ctx(state());
        let e = legal_recover(&c, Side::Aeug, &"atlantis".into(), &FieldPath::root()).unwrap_err();
        assert!(e.message.contains("no base \"atlantis\""));
    }
}
