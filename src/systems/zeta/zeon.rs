//! The Zeon remnants (32): Side 3 and the Zeon Republic (32.1), Zeon Africa (32.2). Both
//! appear when Haman or Mineva arrive: movement.rs calls [`after_moves`] once the phase's
//! moves are done.

use super::carry::base_place;
use super::ctx::Ctx;
use super::data::{Loc, MapId, Place, Side};
use super::orders::PhaseOrders;
use super::state::{Action, CharPlace, FaceUp, Unit};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;

const SIDE_3: &str = "side_3";
const KILIMANJARO: &str = "kilimanjaro";
/// The two characters whose arrival wakes the remnants (32.1.3, 32.2.1).
const LEADERS: [&str; 2] = ["haman", "mineva"];

/// Where a character is on the map now: its unit's hex, or its own hex when alone.
fn char_loc(ctx: &Ctx<'_>, id: &str) -> Option<Loc> {
    match &ctx.state.chars.get(id)?.place {
        CharPlace::Aboard(u) => ctx.state.units.get(u)?.place.loc(),
        CharPlace::Solo(l) => Some(*l),
        _ => None,
    }
}

/// Kilimanjaro's hex and those next to it (32.2.3).
fn africa_hexes(ctx: &Ctx<'_>) -> Vec<Loc> {
    let Some(Place::Hex(k)) = base_place(&ctx.state, &ctx.data, KILIMANJARO) else {
        return Vec::new();
    };
    let mut out = vec![k];
    out.extend(
        ctx.data
            .neighbours(k)
            .into_iter()
            .filter(|l| l.map == MapId::Ground),
    );
    out
}

/// Whether Zeon Africa may appear in this hex (32.2.3): Kilimanjaro's hex or one next to it.
pub fn legal_africa_hex(
    ctx: &Ctx<'_>,
    side: Side,
    item: &Loc,
    at: &FieldPath,
) -> Result<(), Problem> {
    if side != Side::NeoZeon {
        return Err(Problem::new(
            at.clone(),
            "32.2.1",
            "Zeon Africa comes under Neo Zeon only",
            "no africa_hex",
        ));
    }
    if !africa_hexes(ctx).contains(item) {
        return Err(Problem::new(
            at.clone(),
            "32.2.3",
            format!(
                "{} is not Kilimanjaro's hex or one next to it",
                item.label()
            ),
            "Kilimanjaro's hex or a hex next to it",
        ));
    }
    Ok(())
}

/// Places one formation's counters for Neo Zeon in `at`, unable to move this phase.
fn place_formation(ctx: &mut Ctx<'_>, types: &[String], at: Loc) -> Vec<String> {
    let mut ids = Vec::new();
    for t in types {
        let id = ctx.state.new_unit_id(Side::NeoZeon, t);
        ctx.state.units.insert(
            id.clone(),
            Unit {
                side: Side::NeoZeon,
                type_id: t.clone(),
                place: Place::Hex(at),
                face: FaceUp::default(),
                carrier: None,
                action: None,
                atmo_moved: false,
                placed_this_phase: true,
            },
        );
        ids.push(id);
    }
    ids
}

/// After the phase's moves: Side 3 falls to Neo Zeon when Haman or Mineva stands in its hex
/// (32.1.3-32.1.5), and Zeon Africa appears when either is on the ground map (32.2.1-32.2.4,
/// in the hex `orders.africa_hex` names, else Kilimanjaro's).
pub fn after_moves(ctx: &mut Ctx<'_>, orders: &PhaseOrders) {
    let leaders: Vec<Loc> = LEADERS.iter().filter_map(|c| char_loc(ctx, c)).collect();
    let side3 = base_place(&ctx.state, &ctx.data, SIDE_3).and_then(|p| p.loc());
    let wake = !ctx.state.once.side3_taken && side3.is_some_and(|s| leaders.contains(&s));
    if let (true, Some(s), Some(b)) = (wake, side3, ctx.state.bases.get_mut(SIDE_3)) {
        {
            reach::fire("32.1.3");
            b.governor = Some(Side::NeoZeon);
            b.level = 3;
            b.governed_by_nz_once = true;
            ctx.state.once.side3_taken = true;
            ctx.log
                .public("Side 3 joins Neo Zeon at level 3 (32.1.3)".to_string());
            if !ctx.state.once.republic_placed {
                reach::fire("32.1.4");
                reach::fire("32.1.5");
                let types = ctx.data.counters.formations.zeon_republic.clone();
                let ids = place_formation(ctx, &types, s);
                ctx.state.once.republic_placed = true;
                ctx.log.public(format!(
                    "the Zeon Republic forces appear in {} for Neo Zeon: {} (32.1.4)",
                    s.label(),
                    ids.join(", ")
                ));
            }
        }
    }
    let landed = leaders.iter().any(|l| l.map == MapId::Ground);
    if landed && !ctx.state.once.africa_placed {
        let hexes = africa_hexes(ctx);
        let at = orders
            .africa_hex
            .filter(|h| hexes.contains(h))
            .or_else(|| hexes.first().copied());
        if let Some(at) = at {
            for r in ["32.2.1", "32.2.2", "32.2.3", "32.2.4"] {
                reach::fire(r);
            }
            let types = ctx.data.counters.formations.zeon_africa.clone();
            let ids = place_formation(ctx, &types, at);
            // 32.2.4: placed, the forces have chosen to move, though they cannot, and
            // fight as usual: movers (18.6) whose hex counts as reached through the
            // atmosphere (18.3) for this phase.
            for id in &ids {
                if let Some(u) = ctx.state.units.get_mut(id) {
                    u.action = Some(Action::Move);
                    u.atmo_moved = ctx.data.scenarios.options.africa_can_fight;
                }
            }
            ctx.state.once.africa_placed = true;
            ctx.log.public(format!(
                "Zeon Africa appears in {} for Neo Zeon: {} (32.2.1)",
                at.label(),
                ids.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::zeta::carry::fixture::{loc, put};
    use crate::systems::zeta::ctx::Moment;

    fn kilimanjaro(ctx: &Ctx<'_>) -> Loc {
        ctx.data.base_hex(KILIMANJARO).unwrap()
    }

    #[test]
    fn haman_in_side_3_takes_it_and_places_the_republic_32_1_3_32_1_4() {
        let mut st = crate::systems::zeta::carry::fixture::state();
        put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "space:L06");
        st.chars.get_mut("haman").unwrap().place = CharPlace::Aboard("n-gaza-c-1".into());
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        after_moves(&mut ctx, &PhaseOrders::default());
        let b = &ctx.state.bases[SIDE_3];
        assert_eq!((b.governor, b.level), (Some(Side::NeoZeon), 3));
        assert!(b.governed_by_nz_once);
        let new: Vec<&Unit> = ctx
            .state
            .units
            .values()
            .filter(|u| u.placed_this_phase)
            .collect();
        assert_eq!(new.len(), ctx.data.counters.formations.zeon_republic.len());
        assert!(new.iter().all(|u| u.place == Place::Hex(loc("space:L06"))));
        let (public, _) = ctx.log.clone().into_lines();
        assert!(public.iter().any(|l| l.contains("32.1.4")), "{public:?}");
    }

    #[test]
    fn mineva_on_the_ground_brings_zeon_africa_to_the_named_hex_32_2_1_32_2_3() {
        let mut st = crate::systems::zeta::carry::fixture::state();
        put(&mut st, "n-gaza-c-1", Side::NeoZeon, "gaza_c", "ground:C02");
        st.chars.get_mut("mineva").unwrap().place = CharPlace::Aboard("n-gaza-c-1".into());
        let ctx0 = Ctx::new(st.clone(), None, Moment::Check);
        let k = kilimanjaro(&ctx0);
        let hex = ctx0
            .data
            .neighbours(k)
            .into_iter()
            .find(|l| l.map == MapId::Ground)
            .unwrap();
        assert!(legal_africa_hex(&ctx0, Side::NeoZeon, &hex, &FieldPath::root()).is_ok());
        let orders = PhaseOrders {
            africa_hex: Some(hex),
            ..Default::default()
        };
        let mut ctx = Ctx::new(st, None, Moment::Resolve);
        after_moves(&mut ctx, &orders);
        assert!(ctx.state.once.africa_placed);
        let n = ctx
            .state
            .units
            .values()
            .filter(|u| u.placed_this_phase && u.place == Place::Hex(hex))
            .count();
        assert_eq!(n, ctx.data.counters.formations.zeon_africa.len());
    }

    #[test]
    fn africa_far_from_kilimanjaro_is_refused_32_2_3() {
        let st = crate::systems::zeta::carry::fixture::state();
        let ctx = Ctx::new(st, None, Moment::Check);
        let p = legal_africa_hex(&ctx, Side::NeoZeon, &loc("space:L06"), &FieldPath::root())
            .unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("32.2.3"));
        let k = kilimanjaro(&ctx);
        let p = legal_africa_hex(&ctx, Side::Titans, &k, &FieldPath::root()).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("32.2.1"));
    }

    #[test]
    fn no_leader_no_remnants_32() {
        let st = crate::systems::zeta::carry::fixture::state();
        let mut ctx = Ctx::new(st.clone(), None, Moment::Resolve);
        after_moves(&mut ctx, &PhaseOrders::default());
        assert_eq!(ctx.state, st);
    }
}

#[cfg(test)]
#[path = "zeon_rules_tests.rs"]
mod rules_tests;
