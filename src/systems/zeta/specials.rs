//! Special units and characters (29, 33, 34). Done: Quattro's speech (29.1, slot A11, with
//! the conditional form of plan §12/F14) and La Vie en Rose's repairs on the move (29.2,
//! slot A5) and the Jupiter fleet's entry (33.3, slot A5).

use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{BaseId, BaseKind, Class, Loc, MapId, Place, Side, UnitId};
use super::deploy::base_place;
use super::guard;
use super::labels;
use super::orders::{PhaseOrders, SpeechOrder};
use super::state::{Action, CardKind, CharPlace, FaceUp, PhaseCursor};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The highest level a speech can give (2.6, A-57).
const TOP: u8 = 3;

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// Where Quattro is on the board: his ship's or MS's place, or his own hex when alone.
fn quattro_place(ctx: &Ctx<'_>) -> Option<Place> {
    match &ctx.state.chars.get("quattro")?.place {
        CharPlace::Aboard(u) => ctx.state.units.get(u).map(|u| u.place),
        CharPlace::Solo(loc) => Some(Place::Hex(*loc)),
        _ => None,
    }
}

/// Whether Quattro may speak at this base (29.1.1, 29.1.3, A-57). At Check his place is
/// not judged: he may still move there in this phase (29.1.2); at Resolve (end of the
/// phase) he must stand in the base's hex.
pub fn legal_speech(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    if side != Side::Aeug {
        return Err(problem(
            at,
            "29.1.1",
            format!("{side} has no Quattro to speak"),
            "a speech by AEUG only",
        ));
    }
    if ctx.state.once.quattro_spoke || quattro_place(ctx).is_none() {
        return Err(problem(
            at,
            "29.1.6",
            "Quattro is not on the board (he has spoken, or is not there yet)".to_string(),
            "Quattro on the board",
        ));
    }
    let (Some(def), Some(place)) = (ctx.data.base(item), base_place(&ctx.state, item)) else {
        return Err(problem(
            at,
            "29.1.3",
            format!("no base {item:?} on the map"),
            "a political base in play",
        ));
    };
    if def.kind != BaseKind::Political {
        return Err(problem(
            at,
            "29.1.3",
            format!("{item} is not a political base"),
            "a political base",
        ));
    }
    // 34.2, A-57: nobody ever governs Side 6, a speech included.
    if def.ungovernable {
        return Err(problem(
            at,
            "34.2",
            format!("nobody may govern {item}"),
            "a political base other than Side 6",
        ));
    }
    if ctx.moment == Moment::Resolve && quattro_place(ctx) != Some(place) {
        return Err(problem(
            at,
            "29.1.3",
            format!("Quattro is not at {item} at the end of the phase"),
            "Quattro in the base's hex",
        ));
    }
    Ok(())
}

/// The bases where Quattro may speak: political bases that can be governed.
pub fn speech_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let at = FieldPath::root();
    let here = quattro_place(ctx);
    ctx.state
        .bases
        .keys()
        .filter(|b| legal_speech(ctx, side, b, &at).is_ok())
        .map(|b| Choice {
            item: b.clone(),
            note: if here.is_some() && base_place(&ctx.state, b) == here {
                "Quattro is there (29.1.3)".to_string()
            } else {
                "Quattro must end the phase there (29.1.3)".to_string()
            },
        })
        .collect()
}

/// Slot A11: Quattro's speech at the end of an AEUG phase (29.1.1), if its guard holds then
/// (plan §12/F14). With no other faction's unit in the base's hex AEUG takes it at level 3
/// (29.1.4); otherwise 2d6 minus the others' government values (their MS and ships and the
/// characters aboard, A-57) gives the level, capped at 3, or neutral at 0 or less (29.1.5).
/// Char then replaces Quattro where he stands (29.1.6).
pub fn resolve_speech(
    ctx: &mut Ctx<'_>,
    side: Side,
    cursor: &PhaseCursor,
    order: Option<&SpeechOrder>,
) {
    let Some(order) = order else {
        return;
    };
    let base = &order.at;
    if let Some(g) = &order.guard
        && guard::holds(ctx, side, g) != Some(true)
    {
        ctx.log.private(
            side,
            format!("no speech at {base}: its condition does not hold"),
        );
        return;
    }
    if let Err(p) = legal_speech(ctx, side, base, &FieldPath::root()) {
        ctx.log
            .private(side, format!("no speech at {base}: {}", reason(&p)));
        return;
    }
    let Some(place) = base_place(&ctx.state, base) else {
        return;
    };
    reach::fire("29.1.1");
    reach::fire("29.1.3");
    let others: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side != side && u.place == place)
        .map(|(id, _)| id.clone())
        .collect();
    let (governor, level, outcome) = if others.is_empty() {
        reach::fire("29.1.4");
        (
            Some(side),
            TOP,
            format!("no other faction is there: {side} governs it at level {TOP} (29.1.4)"),
        )
    } else {
        // the other factions' units and the characters aboard them.
        let gov = super::government::total_gov(ctx, &others);
        let label = labels::under(&labels::phase(ctx.state.turn, cursor.k), &["speech", base]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let roll = dice.two_d6(&label);
        reach::fire("29.1.5");
        let net = i64::from(roll) - i64::from(gov);
        let (g, l, words) = if net >= 1 {
            let l = u8::try_from(net.min(i64::from(TOP))).unwrap_or(TOP);
            (Some(side), l, format!("{side} governs it at level {l}"))
        } else {
            (None, 0, "it becomes neutral".to_string())
        };
        dice.set_result(&label, words.clone());
        (
            g,
            l,
            format!("rolls {roll} against the others' government {gov}: {words} (29.1.5)"),
        )
    };
    if let Some(b) = ctx.state.bases.get_mut(base) {
        b.governor = governor;
        b.level = level;
    }
    // 29.1.6: Char takes Quattro's place; the speech happens once.
    let was = ctx.state.chars.get("quattro").map(|c| c.place.clone());
    if let Some(q) = ctx.state.chars.get_mut("quattro") {
        q.place = CharPlace::Replaced;
    }
    if let (Some(c), Some(was)) = (ctx.state.chars.get_mut("char"), was) {
        c.place = was;
    }
    ctx.state.once.quattro_spoke = true;
    reach::fire("29.1.6");
    ctx.log.public(format!(
        "Quattro speaks at {base}: {outcome}; Char replaces Quattro (29.1.6)"
    ));
}

/// The units whose action is Quattro's (29.1.2): the unit he rides, the ship carrying it,
/// and the MS those carry (12.6: carried MS follow their ship).
fn quattro_units(ctx: &Ctx<'_>) -> Vec<UnitId> {
    let Some(CharPlace::Aboard(u)) = ctx.state.chars.get("quattro").map(|c| &c.place) else {
        return Vec::new();
    };
    let mut set = vec![u.clone()];
    if let Some(ship) = ctx.state.units.get(u).and_then(|x| x.carrier.clone()) {
        set.push(ship);
    }
    let carried: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, x)| x.carrier.as_ref().is_some_and(|c| set.contains(c)))
        .map(|(id, _)| id.clone())
        .filter(|id| !set.contains(id))
        .collect();
    set.extend(carried);
    set
}

/// 29.1.2: in a phase whose orders declare a speech (guarded or not, plan §12/F14), Quattro
/// only moves: the units carrying him may not recover or govern. Judges the `units` items
/// at `at` (the orders' `units`); nothing when no speech is declared.
pub fn legal_speech_actions(
    ctx: &Ctx<'_>,
    side: Side,
    orders: &PhaseOrders,
    at: &FieldPath,
) -> Vec<Problem> {
    if side != Side::Aeug || orders.speech.is_none() {
        return Vec::new();
    }
    let his = quattro_units(ctx);
    let mut out = Vec::new();
    for (i, o) in orders.units.iter().enumerate() {
        if !his.contains(&o.unit) {
            continue;
        }
        for (what, given) in [("recover", &o.recover), ("govern", &o.govern)] {
            if given.is_some() {
                out.push(problem(
                    &at.at(i).at(what),
                    "29.1.2",
                    format!(
                        "Quattro speaks this phase, so {} (carrying him) may only move, not {what}",
                        o.unit
                    ),
                    "a move, or no speech",
                ));
            }
        }
    }
    out
}

/// Slot A4, after the actions are recorded: in a speech phase the units carrying Quattro
/// that chose to recover or govern only move (0 hexes unless their order moves them), and
/// AEUG is told (29.1.2).
pub fn restrain_quattro(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    if side != Side::Aeug || orders.speech.is_none() {
        return;
    }
    for id in quattro_units(ctx) {
        let Some(u) = ctx.state.units.get_mut(&id) else {
            continue;
        };
        if !matches!(u.action, Some(Action::Recover | Action::Govern { .. })) {
            continue;
        }
        u.action = Some(Action::Move);
        reach::fire("29.1.2");
        ctx.log.private(
            side,
            format!(
                "{id} does not recover or govern: Quattro speaks this phase and only moves (29.1.2)"
            ),
        );
    }
}

/// 29.6.2: a character without NT ability may not ride a mass-production Qubeley (an MS
/// that sorties with no pilot, 29.6.1). For every place a character boards a unit: a board
/// order, a deployment (9.5), a rehoming (27.5).
pub fn legal_rider(ctx: &Ctx<'_>, char: &str, unit: &str, at: &FieldPath) -> Result<(), Problem> {
    let pilotless = ctx
        .state
        .units
        .get(unit)
        .and_then(|u| ctx.data.unit_type(&u.type_id))
        .is_some_and(|t| t.pilotless);
    let nt = ctx.data.character(char).is_some_and(|c| c.nt);
    if pilotless && !nt {
        return Err(problem(
            at,
            "29.6.2",
            format!("{char} is not a Newtype and may not board {unit}"),
            "a Newtype, or another unit",
        ));
    }
    Ok(())
}

/// The side's dock ship (29.2.1: La Vie en Rose) in the same hex as the first unit listed,
/// or its only dock ship.
fn dock_ship(ctx: &Ctx<'_>, side: Side, item: &[UnitId]) -> Option<UnitId> {
    let docks: Vec<(&UnitId, Place)> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side == side && ctx.data.unit_type(&u.type_id).is_some_and(|t| t.dock))
        .map(|(id, u)| (id, u.place))
        .collect();
    let first = item
        .first()
        .and_then(|f| ctx.state.units.get(f))
        .map(|u| u.place);
    docks
        .iter()
        .find(|(_, p)| Some(*p) == first)
        .or(docks.first())
        .map(|(id, _)| (*id).clone())
}

/// Whether these units may be repaired by La Vie en Rose (29.2.2-29.2.5, A-58): one ship or
/// up to three MS, own, other than the dock ship itself, in its hex. At Check the hex is the
/// phase's start (A-58: they start with it); whether they make its move is judged when the
/// repairs are made ([`resolve_lvr_repair`]).
pub fn legal_lvr_repair(
    ctx: &Ctx<'_>,
    side: Side,
    item: &[UnitId],
    at: &FieldPath,
) -> Result<(), Problem> {
    let Some(lvr) = dock_ship(ctx, side, item) else {
        return Err(problem(
            at,
            "29.2.1",
            format!("{side} has no dock ship (La Vie en Rose) on the board"),
            "an own La Vie en Rose",
        ));
    };
    let lvr_place = ctx.state.units.get(&lvr).map(|u| u.place);
    let (mut ships, mut ms) = (0u32, 0u32);
    for (i, id) in item.iter().enumerate() {
        let at = at.at(i);
        if *id == lvr {
            return Err(problem(
                &at,
                "29.2.5",
                format!("{lvr} cannot repair itself this way"),
                "another unit (it recovers at a base like any ship)",
            ));
        }
        let Some(u) = ctx.state.units.get(id).filter(|u| u.side == side) else {
            return Err(problem(
                &at,
                "29.2.2",
                format!("{id} is not an own unit on the board"),
                "an own MS or ship",
            ));
        };
        if item.iter().take(i).any(|x| x == id) {
            return Err(problem(
                &at,
                "29.2.3",
                format!("{id} is listed twice"),
                "each unit once",
            ));
        }
        match ctx.data.unit_type(&u.type_id).map(|t| t.class) {
            Some(Class::Ship) => ships += 1,
            Some(Class::Ms) => ms += 1,
            _ => {
                return Err(problem(
                    &at,
                    "29.2.2",
                    format!("{id} is neither an MS nor a ship"),
                    "an own MS or ship",
                ));
            }
        }
        if Some(u.place) != lvr_place {
            return Err(problem(
                &at,
                "29.2.4",
                format!("{id} is not in {lvr}'s hex"),
                "a unit starting the phase with La Vie en Rose",
            ));
        }
    }
    if (ships > 1) || (ships == 1 && ms > 0) || ms > 3 {
        return Err(problem(
            at,
            "29.2.3",
            format!("{ships} ship(s) and {ms} MS listed"),
            "one ship or up to three MS",
        ));
    }
    Ok(())
}

/// The units La Vie en Rose may repair now: the own damaged MS and ships in its hex, one by
/// one (the list may hold one ship or up to three MS).
pub fn lvr_repair_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<UnitId>> {
    let at = FieldPath::root();
    ctx.state
        .units
        .iter()
        .filter(|(_, u)| u.side == side && u.face == FaceUp::Back)
        .filter(|(id, _)| legal_lvr_repair(ctx, side, &[(*id).clone()], &at).is_ok())
        .map(|(id, _)| Choice {
            item: id.clone(),
            note: "moves with La Vie en Rose (29.2.4)".to_string(),
        })
        .collect()
}

/// The path a unit's order gives it, and whether `by` (a ship making `path`) carries it.
fn moves_with(orders: &PhaseOrders, id: &str, lvr: &str) -> bool {
    let order = |u: &str| orders.units.iter().find(|o| o.unit == u);
    let path = |u: &str| order(u).and_then(|o| o.path.clone());
    let lvr_path = path(lvr);
    if order(id).is_some() && path(id) == lvr_path {
        return true;
    }
    // a carried MS rides La Vie en Rose or another ship making the same move.
    orders
        .units
        .iter()
        .any(|o| o.carry.iter().any(|c| c == id) && (o.unit == lvr || o.path == lvr_path))
}

/// Slot A5, after the moves: La Vie en Rose, having chosen to move, flips the listed
/// units that made exactly its move to their front (29.2.2-29.2.4), before any combat; they
/// keep their move and may fight (29.2.4).
pub fn resolve_lvr_repair(ctx: &mut Ctx<'_>, side: Side, orders: &PhaseOrders) {
    let item = &orders.lvr_repair;
    if item.is_empty() {
        return;
    }
    let skip = |ctx: &mut Ctx<'_>, why: String| {
        ctx.log
            .private(side, format!("no repairs by La Vie en Rose: {why}"));
    };
    let Some(lvr) = dock_ship(ctx, side, item) else {
        skip(
            ctx,
            format!("{side} has no dock ship on the board (29.2.1)"),
        );
        return;
    };
    let Some((lvr_place, lvr_action)) = ctx
        .state
        .units
        .get(&lvr)
        .map(|u| (u.place, u.action.clone()))
    else {
        return;
    };
    if lvr_action != Some(Action::Move) {
        skip(ctx, format!("{lvr} did not choose to move (29.2.2)"));
        return;
    }
    // The count, the classes and the dock ship itself are judged on the list as a whole;
    // the hex is judged below on the move made (the units have moved by now).
    let mut as_if_start = ctx.state.clone();
    for id in item {
        if let Some(u) = as_if_start.units.get_mut(id) {
            u.place = lvr_place;
        }
    }
    let judged = Ctx::new(as_if_start, None, Moment::Resolve);
    if let Err(p) = legal_lvr_repair(&judged, side, item, &FieldPath::root()) {
        skip(ctx, reason(&p));
        return;
    }
    reach::fire("29.2.1");
    reach::fire("29.2.3");
    let mut done = Vec::new();
    for id in item {
        let Some(u) = ctx.state.units.get(id) else {
            continue;
        };
        if u.action != Some(Action::Move) || u.place != lvr_place || !moves_with(orders, id, &lvr) {
            ctx.log.private(
                side,
                format!("{id} is not repaired: it did not make {lvr}'s move (29.2.4)"),
            );
            continue;
        }
        if u.face == FaceUp::Front {
            continue;
        }
        if let Some(u) = ctx.state.units.get_mut(id) {
            u.face = FaceUp::Front;
        }
        done.push(id.clone());
    }
    if done.is_empty() {
        return;
    }
    reach::fire("29.2.2");
    reach::fire("29.2.4");
    ctx.log.public(format!(
        "{lvr} repairs {} on the move (29.2.2)",
        done.join(", ")
    ));
}

/// Slot A5 of a Titans Space card (33.3, A-80): the Jupiter fleet, in its box since its
/// arrival (33.1-33.2), enters the space map, whatever the orders say (also in an auto-pass,
/// plan §1.5 M2). It enters the adjacent hex the first order of one of its units names as
/// its first hex, else the first adjacent hex the map lists; its MS and characters aboard
/// come with it. It enters once.
pub fn resolve_jupiter_entry(ctx: &mut Ctx<'_>, side: Side, kind: CardKind, orders: &PhaseOrders) {
    if side != Side::Titans || kind != CardKind::Space || ctx.state.once.jupiter_entered {
        return;
    }
    let fleet: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side == side && u.place == Place::Jupiter)
        .map(|(id, _)| id.clone())
        .collect();
    if fleet.is_empty() {
        return;
    }
    let adjacent: Vec<Loc> = ctx
        .data
        .map
        .space
        .jupiter_adjacent
        .iter()
        .map(|h| Loc::new(MapId::Space, *h))
        .collect();
    let named = orders
        .units
        .iter()
        .filter(|o| fleet.contains(&o.unit))
        .find_map(|o| o.path.as_ref().and_then(|p| p.first().copied()))
        .filter(|l| adjacent.contains(l));
    let Some(to) = named.or(adjacent.first().copied()) else {
        return;
    };
    for id in &fleet {
        if let Some(u) = ctx.state.units.get_mut(id) {
            u.place = Place::Hex(to);
            u.action = Some(Action::Move);
        }
    }
    ctx.state.once.jupiter_entered = true;
    reach::fire("33.3");
    ctx.log.public(format!(
        "the Jupiter fleet ({}) enters the space map at {} (33.3)",
        fleet.join(", "),
        to.label()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::deploy::fixture::{state, unit};
    use crate::systems::zeta::guard::Guard;
    use crate::systems::zeta::orders::UnitOrder;
    use crate::systems::zeta::state::{Card, PhaseSnapshot, Slot, State};

    fn dice(seed: u8) -> Dice {
        Dice::new(Hash32([seed; 32]), Hash32([0x5a; 32]))
    }

    fn seed_where(label: &str, ok: impl Fn(u32) -> bool) -> u8 {
        (0..=255u8)
            .find(|s| ok(dice(*s).two_d6(label)))
            .expect("some seed")
    }

    fn cursor() -> PhaseCursor {
        PhaseCursor {
            k: 1,
            card: Card {
                side: Side::Aeug,
                kind: CardKind::Space,
                copy: 1,
            },
            slot: Slot::Speech,
            snapshot: PhaseSnapshot::default(),
            combats_done: Vec::new(),
            combat_orders_done: 0,
        }
    }

    /// The real setup with Quattro aboard an Argama in `base`'s hex, alone there.
    fn at_base(base: &str) -> State {
        let mut st = state();
        let hex = st.data.base_hex(base).expect("a base hex");
        st.units.retain(|_, u| u.place != Place::Hex(hex));
        unit(&mut st, "a-argama-91", Side::Aeug, "argama", &hex.label());
        if let Some(q) = st.chars.get_mut("quattro") {
            q.place = CharPlace::Aboard("a-argama-91".into());
        }
        st
    }

    fn run(st: State, seed: u8, order: &SpeechOrder) -> (State, Vec<String>, Vec<String>) {
        let mut d = dice(seed);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        resolve_speech(&mut c, Side::Aeug, &cursor(), Some(order));
        let (lines, private) = c.log.into_lines();
        (
            c.state,
            lines,
            private.get("aeug").cloned().unwrap_or_default(),
        )
    }

    fn refusal(st: State, side: Side, base: &str) -> String {
        let c = Ctx::new(st, None, Moment::Resolve);
        reason(&legal_speech(&c, side, &base.to_string(), &FieldPath::root()).unwrap_err())
    }

    #[test]
    fn alone_at_a_political_base_aeug_takes_it_at_level_3_29_1_4_and_char_replaces_quattro_29_1_6()
    {
        let (st, lines, _) = run(at_base("side_1"), 1, &"side_1".into());
        let b = st.bases.get("side_1").unwrap();
        assert_eq!((b.governor, b.level), (Some(Side::Aeug), 3));
        assert_eq!(st.chars["quattro"].place, CharPlace::Replaced);
        assert_eq!(
            st.chars["char"].place,
            CharPlace::Aboard("a-argama-91".into())
        );
        assert!(st.once.quattro_spoke);
        assert!(
            lines.iter().any(|l| l.contains("level 3 (29.1.4)")),
            "{lines:?}"
        );
    }

    #[test]
    fn with_others_there_2d6_minus_their_government_sets_the_level_capped_29_1_5() {
        let mut st = at_base("side_1");
        let hex = st.data.base_hex("side_1").unwrap();
        unit(&mut st, "t-hizack-91", Side::Titans, "hizack", &hex.label());
        let gov = u32::from(st.data.unit_type("hizack").unwrap().gov);
        let label = labels::under(&labels::phase(st.turn, 1), &["speech", "side_1"]);
        let seed = seed_where(&label, |r| r >= gov + 3);
        let (st, lines, _) = run(st, seed, &"side_1".into());
        let b = st.bases.get("side_1").unwrap();
        assert_eq!((b.governor, b.level), (Some(Side::Aeug), 3));
        assert!(lines.iter().any(|l| l.contains("(29.1.5)")), "{lines:?}");
    }

    #[test]
    fn a_result_of_0_or_less_makes_the_base_neutral_29_1_5() {
        let mut st = at_base("side_1");
        let hex = st.data.base_hex("side_1").unwrap();
        for i in 0..6 {
            unit(
                &mut st,
                &format!("t-hizack-9{i}"),
                Side::Titans,
                "hizack",
                &hex.label(),
            );
        }
        if let Some(b) = st.bases.get_mut("side_1") {
            b.governor = Some(Side::Titans);
            b.level = 2;
        }
        let gov = 6 * u32::from(st.data.unit_type("hizack").unwrap().gov);
        let label = labels::under(&labels::phase(st.turn, 1), &["speech", "side_1"]);
        let seed = seed_where(&label, |r| r <= gov);
        let (st, lines, _) = run(st, seed, &"side_1".into());
        let b = st.bases.get("side_1").unwrap();
        assert_eq!((b.governor, b.level), (None, 0));
        assert!(lines.iter().any(|l| l.contains("neutral")), "{lines:?}");
    }

    #[test]
    fn a_guard_that_fails_at_the_end_of_the_phase_cancels_the_speech_f14() {
        let order = SpeechOrder {
            at: "side_1".into(),
            guard: Some(Guard::PhaseMin(9)),
        };
        let (st, lines, private) = run(at_base("side_1"), 1, &order);
        assert!(!st.once.quattro_spoke);
        assert!(lines.is_empty());
        assert!(
            private
                .iter()
                .any(|l| l.contains("condition does not hold")),
            "{private:?}"
        );
    }

    #[test]
    fn quattro_elsewhere_at_the_end_of_the_phase_is_skipped_29_1_3() {
        let (st, _, private) = run(at_base("side_1"), 1, &"side_4".into());
        assert!(!st.once.quattro_spoke);
        assert!(
            private
                .iter()
                .any(|l| l.contains("Quattro is not at side_4")),
            "{private:?}"
        );
    }

    #[test]
    fn only_aeug_speaks_29_1_1() {
        assert!(refusal(at_base("side_1"), Side::Titans, "side_1").contains("no Quattro"));
    }

    #[test]
    fn no_speech_once_quattro_has_spoken_29_1_6() {
        let mut st = at_base("side_1");
        st.once.quattro_spoke = true;
        assert!(refusal(st, Side::Aeug, "side_1").contains("not on the board"));
    }

    #[test]
    fn a_military_base_is_refused_29_1_3() {
        let st = at_base("side_1");
        let mil = st
            .data
            .bases
            .bases
            .iter()
            .find(|(_, b)| b.kind == BaseKind::Military)
            .map(|(id, _)| id.clone())
            .unwrap();
        assert!(refusal(st, Side::Aeug, &mil).contains("not a political base"));
    }

    #[test]
    fn side_6_is_refused_34_2_a_57() {
        assert!(refusal(at_base("side_6"), Side::Aeug, "side_6").contains("nobody may govern"));
    }

    #[test]
    fn an_unknown_base_is_refused_29_1_3() {
        assert!(refusal(at_base("side_1"), Side::Aeug, "nowhere").contains("no base"));
    }

    #[test]
    fn choices_are_the_governable_political_bases() {
        let c = Ctx::new(at_base("side_1"), None, Moment::Check);
        let items: Vec<String> = speech_choices(&c, Side::Aeug)
            .into_iter()
            .map(|c| c.item)
            .collect();
        assert!(items.contains(&"side_1".to_string()), "{items:?}");
        assert!(!items.contains(&"side_6".to_string()), "{items:?}");
    }

    /// The real setup: La Vie en Rose at Granada, with extra AEUG units there.
    fn granada(extra: &[(&str, &str)]) -> (State, UnitId) {
        let mut st = state();
        let hex = st.data.base_hex("granada").expect("granada");
        for (id, t) in extra {
            unit(&mut st, id, Side::Aeug, t, &hex.label());
        }
        let lvr = st
            .units
            .iter()
            .find(|(_, u)| u.type_id.as_str() == "lvr" && u.place == Place::Hex(hex))
            .map(|(id, _)| id.clone())
            .expect("La Vie en Rose at Granada");
        (st, lvr)
    }

    /// Every named unit has moved along `path` (its order) and ends at its last hex, damaged.
    fn moved(st: &mut State, ids: &[&str], path: &[&str]) -> Vec<UnitOrder> {
        let path: Vec<Loc> = path.iter().map(|h| Loc::parse(h).unwrap()).collect();
        let end = *path.last().unwrap();
        ids.iter()
            .map(|id| {
                let u = st.units.get_mut(*id).unwrap();
                u.place = Place::Hex(end);
                u.action = Some(Action::Move);
                if !u.type_id.as_str().contains("lvr") {
                    u.face = FaceUp::Back;
                }
                UnitOrder {
                    unit: id.to_string(),
                    path: Some(path.clone()),
                    carry: Vec::new(),
                    recover: None,
                    govern: None,
                }
            })
            .collect()
    }

    fn repair(st: State, orders: &PhaseOrders) -> (State, Vec<String>, Vec<String>) {
        let mut c = Ctx::new(st, None, Moment::Resolve);
        resolve_lvr_repair(&mut c, Side::Aeug, orders);
        let (lines, private) = c.log.into_lines();
        (
            c.state,
            lines,
            private.get("aeug").cloned().unwrap_or_default(),
        )
    }

    fn lvr_refusal(st: State, side: Side, item: &[&str]) -> String {
        let c = Ctx::new(st, None, Moment::Check);
        let item: Vec<UnitId> = item.iter().map(|s| s.to_string()).collect();
        reason(&legal_lvr_repair(&c, side, &item, &FieldPath::root()).unwrap_err())
    }

    #[test]
    fn units_making_lvrs_move_are_repaired_before_combat_29_2_2_29_2_4() {
        let (mut st, lvr) = granada(&[("a-nemo-91", "nemo"), ("a-nemo-92", "nemo")]);
        let units = moved(&mut st, &[&lvr, "a-nemo-91", "a-nemo-92"], &["space:J05"]);
        let orders = PhaseOrders {
            units,
            lvr_repair: vec!["a-nemo-91".into(), "a-nemo-92".into()],
            ..Default::default()
        };
        let (st, lines, _) = repair(st, &orders);
        assert_eq!(st.units["a-nemo-91"].face, FaceUp::Front);
        assert_eq!(st.units["a-nemo-92"].face, FaceUp::Front);
        assert_eq!(st.units["a-nemo-91"].action, Some(Action::Move));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("repairs a-nemo-91, a-nemo-92")),
            "{lines:?}"
        );
    }

    #[test]
    fn an_ms_carried_by_lvr_is_repaired_a_58() {
        let (mut st, lvr) = granada(&[("a-nemo-91", "nemo")]);
        let mut units = moved(&mut st, &[&lvr, "a-nemo-91"], &["space:J05"]);
        units.retain(|o| o.unit == lvr);
        if let Some(o) = units.first_mut() {
            o.carry = vec!["a-nemo-91".into()];
        }
        let orders = PhaseOrders {
            units,
            lvr_repair: vec!["a-nemo-91".into()],
            ..Default::default()
        };
        let (st, _, _) = repair(st, &orders);
        assert_eq!(st.units["a-nemo-91"].face, FaceUp::Front);
    }

    #[test]
    fn a_unit_that_moved_otherwise_is_not_repaired_29_2_4() {
        let (mut st, lvr) = granada(&[("a-nemo-91", "nemo")]);
        let mut units = moved(&mut st, &[&lvr], &["space:J05"]);
        units.extend(moved(&mut st, &["a-nemo-91"], &["space:I05", "space:J05"]));
        let orders = PhaseOrders {
            units,
            lvr_repair: vec!["a-nemo-91".into()],
            ..Default::default()
        };
        let (st, lines, private) = repair(st, &orders);
        assert_eq!(st.units["a-nemo-91"].face, FaceUp::Back);
        assert!(lines.is_empty(), "{lines:?}");
        assert!(
            private.iter().any(|l| l.contains("did not make")),
            "{private:?}"
        );
    }

    #[test]
    fn lvr_that_did_not_move_repairs_nothing_29_2_2() {
        let (mut st, lvr) = granada(&[("a-nemo-91", "nemo")]);
        let units = moved(&mut st, &[&lvr, "a-nemo-91"], &["space:J05"]);
        st.units.get_mut(&lvr).unwrap().action = Some(Action::Recover);
        let orders = PhaseOrders {
            units,
            lvr_repair: vec!["a-nemo-91".into()],
            ..Default::default()
        };
        let (st, _, private) = repair(st, &orders);
        assert_eq!(st.units["a-nemo-91"].face, FaceUp::Back);
        assert!(
            private.iter().any(|l| l.contains("did not choose to move")),
            "{private:?}"
        );
    }

    #[test]
    fn more_than_three_ms_are_refused_29_2_3() {
        let ms = [
            ("a-nemo-91", "nemo"),
            ("a-nemo-92", "nemo"),
            ("a-nemo-93", "nemo"),
            ("a-nemo-94", "nemo"),
        ];
        let (st, _) = granada(&ms);
        let ids: Vec<&str> = ms.iter().map(|(i, _)| *i).collect();
        assert!(lvr_refusal(st, Side::Aeug, &ids).contains("0 ship(s) and 4 MS"));
    }

    #[test]
    fn a_ship_with_an_ms_is_refused_29_2_3() {
        let (st, _) = granada(&[("a-nemo-91", "nemo"), ("a-argama-91", "argama")]);
        assert!(
            lvr_refusal(st, Side::Aeug, &["a-nemo-91", "a-argama-91"])
                .contains("1 ship(s) and 1 MS")
        );
    }

    #[test]
    fn lvr_itself_is_refused_29_2_5() {
        let (st, lvr) = granada(&[]);
        assert!(lvr_refusal(st, Side::Aeug, &[&lvr]).contains("cannot repair itself"));
    }

    #[test]
    fn a_unit_outside_lvrs_hex_is_refused_29_2_4() {
        let (mut st, _) = granada(&[]);
        unit(&mut st, "a-nemo-91", Side::Aeug, "nemo", "space:C05");
        assert!(lvr_refusal(st, Side::Aeug, &["a-nemo-91"]).contains("not in"));
    }

    #[test]
    fn a_unit_listed_twice_is_refused_29_2_3() {
        let (st, _) = granada(&[("a-nemo-91", "nemo")]);
        assert!(lvr_refusal(st, Side::Aeug, &["a-nemo-91", "a-nemo-91"]).contains("twice"));
    }

    #[test]
    fn another_sides_unit_is_refused_29_2_2() {
        let (mut st, _) = granada(&[("a-nemo-91", "nemo")]);
        let hex = st.data.base_hex("granada").unwrap();
        unit(&mut st, "t-hizack-91", Side::Titans, "hizack", &hex.label());
        assert!(
            lvr_refusal(st, Side::Aeug, &["a-nemo-91", "t-hizack-91"]).contains("not an own unit")
        );
    }

    #[test]
    fn a_side_without_a_dock_ship_is_refused_29_2_1() {
        let (st, _) = granada(&[]);
        assert!(lvr_refusal(st, Side::Titans, &["a-nemo-1"]).contains("no dock ship"));
    }

    #[test]
    fn lvr_choices_are_damaged_units_in_its_hex() {
        let (mut st, _) = granada(&[("a-nemo-91", "nemo"), ("a-nemo-92", "nemo")]);
        st.units.get_mut("a-nemo-91").unwrap().face = FaceUp::Back;
        let c = Ctx::new(st, None, Moment::Check);
        let items: Vec<UnitId> = lvr_repair_choices(&c, Side::Aeug)
            .into_iter()
            .map(|c| c.item)
            .collect();
        assert_eq!(items, vec!["a-nemo-91".to_string()]);
    }

    /// The real setup on turn 2 after the deployment that brings the Jupiter fleet (33.1).
    fn fleet_in_box() -> State {
        let mut st = state();
        st.turn = 2;
        st.sides[Side::Titans].stock.insert("jupitris".into(), 1);
        st.sides[Side::Titans].stock.insert("messala".into(), 2);
        let mut c = Ctx::new(st, None, Moment::Resolve);
        crate::systems::zeta::deploy::resolve_deployment(
            &mut c,
            Side::Titans,
            &crate::systems::zeta::orders::Deployment::default(),
        );
        c.state
    }

    fn enter(st: State, side: Side, kind: CardKind, orders: &PhaseOrders) -> (State, Vec<String>) {
        let mut c = Ctx::new(st, None, Moment::Resolve);
        resolve_jupiter_entry(&mut c, side, kind, orders);
        let (lines, _) = c.log.into_lines();
        (c.state, lines)
    }

    #[test]
    fn the_fleet_enters_on_a_titans_space_card_33_3() {
        let st = fleet_in_box();
        let in_box = st
            .units
            .values()
            .filter(|u| u.place == Place::Jupiter)
            .count();
        assert!(in_box > 0);
        let (st, lines) = enter(st, Side::Titans, CardKind::Space, &PhaseOrders::default());
        let g01 = Place::Hex(Loc::parse("space:G01").unwrap());
        assert_eq!(st.units.values().filter(|u| u.place == g01).count(), in_box);
        assert!(st.units.values().all(|u| u.place != Place::Jupiter));
        assert!(st.once.jupiter_entered);
        assert!(lines.iter().any(|l| l.contains("(33.3)")), "{lines:?}");
    }

    #[test]
    fn the_fleet_enters_the_adjacent_hex_its_order_names_33_3() {
        let st = fleet_in_box();
        let id = st
            .units
            .iter()
            .find(|(_, u)| u.place == Place::Jupiter)
            .map(|(id, _)| id.clone())
            .unwrap();
        let h01 = Loc::parse("space:H01").unwrap();
        let orders = PhaseOrders {
            units: vec![UnitOrder {
                unit: id.clone(),
                path: Some(vec![h01]),
                carry: Vec::new(),
                recover: None,
                govern: None,
            }],
            ..Default::default()
        };
        let (st, _) = enter(st, Side::Titans, CardKind::Space, &orders);
        assert_eq!(st.units[&id].place, Place::Hex(h01));
    }

    #[test]
    fn the_fleet_waits_on_other_cards_33_3() {
        let (st, lines) = enter(
            fleet_in_box(),
            Side::Titans,
            CardKind::Ground,
            &PhaseOrders::default(),
        );
        assert!(st.units.values().any(|u| u.place == Place::Jupiter));
        assert!(!st.once.jupiter_entered);
        assert!(lines.is_empty());
        let (st, _) = enter(st, Side::Aeug, CardKind::Space, &PhaseOrders::default());
        assert!(st.units.values().any(|u| u.place == Place::Jupiter));
    }

    /// Quattro's Argama at Side 1 ordered to recover or govern there, with a speech declared.
    fn speech_orders(recover: bool) -> PhaseOrders {
        PhaseOrders {
            units: vec![UnitOrder {
                unit: "a-argama-91".into(),
                path: None,
                carry: Vec::new(),
                recover: recover.then(|| "side_1".to_string()),
                govern: (!recover).then(|| "side_1".to_string()),
            }],
            speech: Some("side_1".into()),
            ..PhaseOrders::default()
        }
    }

    #[test]
    fn quattros_unit_may_not_recover_or_govern_in_a_speech_phase_29_1_2() {
        let c = Ctx::new(at_base("side_1"), None, Moment::Check);
        let at = FieldPath::root().at("units");
        for recover in [true, false] {
            let p = legal_speech_actions(&c, Side::Aeug, &speech_orders(recover), &at);
            assert_eq!(p.len(), 1);
            assert_eq!(p[0].rule.as_deref(), Some("29.1.2"));
            assert!(p[0].message.contains("may only move"), "{}", p[0].message);
        }
        let mut no_speech = speech_orders(true);
        no_speech.speech = None;
        assert!(legal_speech_actions(&c, Side::Aeug, &no_speech, &at).is_empty());
    }

    #[test]
    fn in_a_speech_phase_quattros_unit_only_moves_29_1_2() {
        let mut st = at_base("side_1");
        if let Some(u) = st.units.get_mut("a-argama-91") {
            u.action = Some(Action::Govern {
                base: "side_1".into(),
            });
        }
        let mut c = Ctx::new(st, None, Moment::Resolve);
        restrain_quattro(&mut c, Side::Aeug, &speech_orders(false));
        assert_eq!(c.state.units["a-argama-91"].action, Some(Action::Move));
        let (_, private) = c.log.into_lines();
        let aeug = private.get("aeug").cloned().unwrap_or_default();
        assert!(aeug.iter().any(|l| l.contains("(29.1.2)")), "{aeug:?}");
    }

    #[test]
    fn without_a_speech_quattros_unit_keeps_its_action_29_1_2() {
        let mut st = at_base("side_1");
        if let Some(u) = st.units.get_mut("a-argama-91") {
            u.action = Some(Action::Recover);
        }
        let mut orders = speech_orders(true);
        orders.speech = None;
        let mut c = Ctx::new(st, None, Moment::Resolve);
        restrain_quattro(&mut c, Side::Aeug, &orders);
        assert_eq!(c.state.units["a-argama-91"].action, Some(Action::Recover));
    }

    #[test]
    fn only_a_newtype_boards_a_mass_production_qubeley_29_6_2() {
        let mut st = state();
        unit(
            &mut st,
            "n-mp-qubeley-91",
            Side::NeoZeon,
            "mp_qubeley",
            "space:M03",
        );
        unit(&mut st, "n-gaza-c-91", Side::NeoZeon, "gaza_c", "space:M03");
        let c = Ctx::new(st, None, Moment::Check);
        let at = FieldPath::root().at("board");
        let p = legal_rider(&c, "mineva", "n-mp-qubeley-91", &at).unwrap_err();
        assert_eq!(p.rule.as_deref(), Some("29.6.2"));
        assert!(p.message.contains("not a Newtype"), "{}", p.message);
        assert!(legal_rider(&c, "haman", "n-mp-qubeley-91", &at).is_ok());
        assert!(legal_rider(&c, "mineva", "n-gaza-c-91", &at).is_ok());
    }
}
