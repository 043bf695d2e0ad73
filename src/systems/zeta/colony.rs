//! The colony drop (35): the placement at the start of the dropper's Space phase (slot A2),
//! the compulsory two-hex move (slot A5) and the landing check, which plan §12/F3 rolls when
//! the dropper's Space card is drawn, before its orders are written (phase_start.rs calls
//! [`resolve_landing`]). The one counter is the unit `colony`, on the map only while a faction
//! uses it (35.3, A-72); its use is spent when it is placed (35.1), so losing it in combat
//! (35.8, A-75), to the laser (31.5.10) or by a failed landing needs nothing more here.

use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{BaseId, Class, Loc, MapId, Place, Side, UnitId};
use super::labels;
use super::orders::{ColonyAt, Pre};
use super::policy::ColonyTarget;
use super::state::{Card, CardKind, Stage, State, Unit};
use crate::kit::reach::fire;
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// The colony's unit id and type id (35.3: one counter, shared).
pub const COLONY: &str = "colony";

/// The faces' landing rolls: success on this or less (35.7.1).
const FRONT_LANDS_ON: u32 = 5;
const BACK_LANDS_ON: u32 = 3;

fn refuse(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// The colony on the map, if a faction uses it: its id and unit.
pub fn on_map(state: &State) -> Option<(UnitId, Unit)> {
    state
        .units
        .iter()
        .find(|(_, u)| {
            state
                .data
                .unit_type(&u.type_id)
                .is_some_and(|t| t.class == Class::Colony)
        })
        .map(|(id, u)| (id.clone(), u.clone()))
}

/// The card of the phase under way.
fn phase_card(ctx: &Ctx<'_>) -> Option<Card> {
    match ctx.state.stage {
        Stage::Phase { card, .. } => Some(card),
        _ => None,
    }
}

/// Whether the phase under way is `side`'s Space phase (35.4, 35.6).
fn own_space_phase(ctx: &Ctx<'_>, side: Side) -> bool {
    phase_card(ctx).is_some_and(|c| c.side == side && c.kind == CardKind::Space)
}

/// Whether the colony may be placed as `item` says (35.1-35.5.2); a landing target in phase
/// orders is refused: the landing is rolled when the card is drawn (plan §12/F3), so its
/// target is the standing policy `colony:`.
pub fn legal_colony(ctx: &Ctx<'_>, side: Side, item: &Pre, at: &FieldPath) -> Result<(), Problem> {
    if item.colony_target.is_some() {
        return Err(refuse(
            &at.at("colony_target"),
            "35.7",
            "the landing is rolled when your Space card is drawn, before these orders (plan \
             §12/F3): its target is your standing policy"
                .into(),
            "`policies: {colony: {target: [base, ...]}}` instead",
        ));
    }
    if let Some(c) = &item.colony {
        legal_place(ctx, side, &c.place_at, &at.at("colony").at("place_at"))?;
    }
    Ok(())
}

/// 35.1-35.5.2: `side` may place the colony at `base` now. Placement is the first thing of
/// the phase (slot A2), so the state now is the phase's start (35.5.1).
fn legal_place(ctx: &Ctx<'_>, side: Side, base: &BaseId, at: &FieldPath) -> Result<(), Problem> {
    let leave = "leave `colony` out";
    if side == Side::Aeug {
        return Err(refuse(at, "35.1", "AEUG drops no colony".into(), leave));
    }
    if ctx.state.colony.used.contains(&side) {
        return Err(refuse(
            at,
            "35.1",
            format!("{side} has used its one colony drop"),
            leave,
        ));
    }
    if let Some(other) = ctx
        .state
        .colony
        .in_use_by
        .or(on_map(&ctx.state).map(|(_, u)| u.side))
    {
        return Err(refuse(
            at,
            "35.3",
            format!("{other} is using the colony"),
            leave,
        ));
    }
    if !own_space_phase(ctx, side) {
        return Err(refuse(
            at,
            "35.4",
            "a colony is placed only in a phase of your own Space card".into(),
            leave,
        ));
    }
    let Some(def) = ctx.data.base(base) else {
        return Err(refuse(
            at,
            "35.5.1",
            format!("no base {base:?}"),
            "side_1, side_2, side_4 or side_5",
        ));
    };
    if !def.colony_source {
        return Err(refuse(
            at,
            "35.5.1",
            format!("{base} is not Side 1, 2, 4 or 5"),
            "side_1, side_2, side_4 or side_5",
        ));
    }
    let governed = ctx
        .state
        .bases
        .get(base)
        .is_some_and(|b| !b.destroyed && b.governor == Some(side) && b.level >= 1);
    if !governed {
        return Err(refuse(
            at,
            "35.5.1",
            format!("{base} is not governed by {side} at level 1 or more as the phase starts"),
            "a Side you govern",
        ));
    }
    let Some(loc) = ctx.data.base_hex(base) else {
        return Err(refuse(at, "35.5.1", format!("{base} has no hex"), leave));
    };
    let own_ms = ctx.state.units.values().any(|u| {
        u.side == side
            && u.place == Place::Hex(loc)
            && ctx
                .data
                .unit_type(&u.type_id)
                .is_some_and(|t| t.class == Class::Ms)
    });
    if !own_ms {
        return Err(refuse(
            at,
            "35.5.2",
            format!("{side} has no MS at {base}"),
            "a Side with one of your MS in its hex",
        ));
    }
    Ok(())
}

/// Where `side` may place the colony now (35.5).
pub fn colony_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<Pre>> {
    let at = FieldPath::root().at("pre").at("colony").at("place_at");
    ctx.data
        .bases
        .bases
        .iter()
        .filter(|(_, d)| d.colony_source)
        .filter(|(id, _)| legal_place(ctx, side, id, &at).is_ok())
        .map(|(id, _)| Choice {
            item: Pre {
                colony: Some(ColonyAt {
                    place_at: id.clone(),
                }),
                ..Pre::default()
            },
            note: format!("place the colony at {id}; it moves 2 hexes this phase (35.5, 35.6)"),
        })
        .collect()
}

/// Slot A2: places the colony (35.5) if `pre` says so and it is still legal; otherwise the
/// side is told why. A `colony_target` is told to be a policy (plan §12/F3).
pub fn resolve_colony(ctx: &mut Ctx<'_>, side: Side, pre: &Pre) {
    if let Err(p) = legal_colony(
        ctx,
        side,
        &Pre {
            colony: None,
            ..pre.clone()
        },
        &FieldPath::root().at("pre"),
    ) {
        ctx.log
            .private(side, format!("colony target ignored: {}", reason(&p)));
    }
    let Some(c) = &pre.colony else {
        return;
    };
    let base = &c.place_at;
    let at = FieldPath::root().at("pre").at("colony").at("place_at");
    if let Err(p) = legal_place(ctx, side, base, &at) {
        ctx.log
            .private(side, format!("colony not placed: {}", reason(&p)));
        return;
    }
    let Some(loc) = ctx.data.base_hex(base) else {
        return;
    };
    ctx.state.units.insert(
        COLONY.to_string(),
        Unit {
            side,
            type_id: COLONY.to_string(),
            place: Place::Hex(loc),
            face: Default::default(),
            carrier: None,
            action: None,
            atmo_moved: false,
            placed_this_phase: false,
        },
    );
    // 35.1: the use is spent from now on, whatever becomes of the colony.
    ctx.state.colony.in_use_by = Some(side);
    ctx.state.colony.used.insert(side);
    for r in ["35.1", "35.3", "35.4", "35.5", "35.5.1", "35.5.2"] {
        fire(r);
    }
    ctx.log.public(format!(
        "{side} places the colony at {base} ({}): its one drop (35.5)",
        loc.label()
    ));
}

/// The hexes the colony may end its move in from `from` (35.6.1): those exactly 2 hexes away,
/// or the farthest there are within 2 at a map edge; never Earth. Other units
/// and bases do not matter (35.6.2).
pub fn move_reach(ctx: &Ctx<'_>, from: Loc) -> Vec<Loc> {
    if from.map != MapId::Space {
        return Vec::new();
    }
    let earth = ctx.data.map.space.earth;
    let near: Vec<(u32, Loc)> = ctx
        .data
        .grid(MapId::Space)
        .all()
        .into_iter()
        .filter(|h| *h != earth)
        .map(|h| Loc::new(MapId::Space, h))
        .filter_map(|l| ctx.data.distance(from, l).map(|d| (d, l)))
        .filter(|(d, _)| (1..=2).contains(d))
        .collect();
    let best = near.iter().map(|(d, _)| *d).max().unwrap_or(0);
    near.into_iter()
        .filter(|(d, _)| *d == best)
        .map(|(_, l)| l)
        .collect()
}

/// Whether the colony may move to `item` (35.6, 35.6.1, A-76). At Check a faction with no
/// colony on the map yet may still place it this phase, so only the map is judged.
pub fn legal_colony_move(
    ctx: &Ctx<'_>,
    side: Side,
    item: &Loc,
    at: &FieldPath,
) -> Result<(), Problem> {
    let leave = "leave `colony_move` out";
    if item.map != MapId::Space || !ctx.data.grid(MapId::Space).contains(item.at) {
        return Err(refuse(
            at,
            "35.6.1",
            format!("{} is not a hex of the space map", item.label()),
            "a space hex 2 hexes from the colony",
        ));
    }
    if item.at == ctx.data.map.space.earth {
        return Err(refuse(
            at,
            "A-19",
            "nothing enters Earth's hex".into(),
            "a space hex 2 hexes from the colony",
        ));
    }
    if !own_space_phase(ctx, side) {
        return Err(refuse(
            at,
            "35.6",
            "the colony moves only in a phase of its user's Space card".into(),
            leave,
        ));
    }
    match on_map(&ctx.state) {
        Some((_, u)) if u.side == side => {
            let Some(from) = u.place.loc() else {
                return Err(refuse(
                    at,
                    "35.6",
                    "the colony is not on a hex".into(),
                    leave,
                ));
            };
            let reach = move_reach(ctx, from);
            if reach.contains(item) {
                return Ok(());
            }
            let d = reach
                .first()
                .and_then(|l| ctx.data.distance(from, *l))
                .unwrap_or(2);
            Err(refuse(
                at,
                "35.6.1",
                format!(
                    "{} is not {d} hexes from the colony at {}",
                    item.label(),
                    from.label()
                ),
                "a space hex 2 hexes from the colony",
            ))
        }
        Some((_, u)) => Err(refuse(
            at,
            "35.3",
            format!("the colony is {}'s", u.side),
            leave,
        )),
        None if ctx.moment == Moment::Check
            && side != Side::Aeug
            && !ctx.state.colony.used.contains(&side) =>
        {
            Ok(())
        }
        None => Err(refuse(
            at,
            "35.6",
            format!("{side} has no colony on the map"),
            leave,
        )),
    }
}

/// Where `side`'s colony may move now, nearest to a landing first.
pub fn colony_move_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<Loc>> {
    let Some((_, u)) = on_map(&ctx.state).filter(|(_, u)| u.side == side) else {
        return Vec::new();
    };
    let Some(from) = u.place.loc() else {
        return Vec::new();
    };
    let at = FieldPath::root().at("colony_move");
    let goals = goals(ctx, side);
    let mut out: Vec<(u32, Choice<Loc>)> = move_reach(ctx, from)
        .into_iter()
        .filter(|l| legal_colony_move(ctx, side, l, &at).is_ok())
        .map(|l| {
            let d = to_goal(ctx, l, &goals);
            let note = if d == u32::MAX {
                "no landing hex ahead (35.6.1)".to_string()
            } else {
                format!("{d} hexes from a landing hex after it (35.6.1, 35.7)")
            };
            (d, Choice { item: l, note })
        })
        .collect();
    out.sort_by_key(|(d, c)| (*d, c.item.label()));
    out.into_iter().map(|(_, c)| c).collect()
}

/// The hexes where `side`'s colony would make a landing check (35.7): its policy's first
/// listed base still standing (its Moon hex, or the drop point of its area), else every such
/// hex: Moon bases for both, the drop points of areas with a base for Neo Zeon.
fn goals(ctx: &Ctx<'_>, side: Side) -> Vec<Loc> {
    let standing = |id: &str| ctx.state.bases.get(id).is_some_and(|b| !b.destroyed);
    let hex_of_target = |id: &str| -> Option<Loc> {
        let l = ctx.data.base_hex(id)?;
        match l.map {
            MapId::Space => ctx.data.base(id).filter(|d| d.moon).map(|_| l),
            MapId::Ground if side == Side::NeoZeon => {
                let area = ctx.data.map.ground.area(l.at)?;
                let d = ctx
                    .data
                    .map
                    .space
                    .drop_points
                    .iter()
                    .find(|(a, _)| *a == area)?;
                Some(Loc::new(MapId::Space, d.1))
            }
            MapId::Ground => None,
        }
    };
    if let ColonyTarget::Bases(list) = &ctx.state.policies[side].colony.target
        && let Some(l) = list
            .iter()
            .filter(|b| standing(b))
            .find_map(|b| hex_of_target(b))
    {
        return vec![l];
    }
    let all: BTreeSet<Loc> = ctx
        .state
        .bases
        .keys()
        .filter(|b| standing(b))
        .filter_map(|b| hex_of_target(b))
        .collect();
    all.into_iter().collect()
}

fn to_goal(ctx: &Ctx<'_>, l: Loc, goals: &[Loc]) -> u32 {
    goals
        .iter()
        .filter_map(|g| ctx.data.distance(l, *g))
        .min()
        .unwrap_or(u32::MAX)
}

/// The default move (35.6 is compulsory): the reachable hex nearest a landing hex, ties by
/// hex label.
pub fn default_move(ctx: &Ctx<'_>, side: Side, from: Loc) -> Option<Loc> {
    let goals = goals(ctx, side);
    move_reach(ctx, from)
        .into_iter()
        .min_by_key(|l| (to_goal(ctx, *l, &goals), l.label()))
}

/// Slot A5: the colony's compulsory move in its user's Space phase (35.6-35.6.2): the order's
/// hex if legal now, else the default toward a landing (the side is told why).
pub fn resolve_colony_move(ctx: &mut Ctx<'_>, side: Side, given: Option<&Loc>) {
    let at = FieldPath::root().at("colony_move");
    let mine = on_map(&ctx.state).filter(|(_, u)| u.side == side);
    let Some((id, u)) = mine.filter(|_| own_space_phase(ctx, side)) else {
        if let Some(l) = given
            && let Err(p) = legal_colony_move(ctx, side, l, &at)
        {
            ctx.log
                .private(side, format!("colony_move skipped: {}", reason(&p)));
        }
        return;
    };
    let Some(from) = u.place.loc() else {
        return;
    };
    let to = match given.map(|l| (l, legal_colony_move(ctx, side, l, &at))) {
        Some((l, Ok(()))) => Some(*l),
        Some((_, Err(p))) => {
            ctx.log.private(
                side,
                format!(
                    "colony_move refused ({}): it moves toward a landing instead (35.6)",
                    reason(&p)
                ),
            );
            default_move(ctx, side, from)
        }
        None => {
            ctx.log.private(
                side,
                "no colony_move: the colony moves toward a landing (35.6)".to_string(),
            );
            default_move(ctx, side, from)
        }
    };
    let Some(to) = to else {
        return;
    };
    if let Some(c) = ctx.state.units.get_mut(&id) {
        c.place = Place::Hex(to);
    }
    fire("35.6");
    fire("35.6.1");
    fire("35.6.2");
    ctx.log.public(format!(
        "{side}'s colony moves from {} to {} (35.6.1)",
        from.label(),
        to.label()
    ));
}

/// The bases a colony at `loc` would land on (35.7): the standing Moon bases of its hex; at a
/// drop point, for Neo Zeon only (35.2, A-72), the standing bases of the linked area.
pub fn landing_targets(ctx: &Ctx<'_>, side: Side, loc: Loc) -> Vec<BaseId> {
    let standing = |id: &str| ctx.state.bases.get(id).is_some_and(|b| !b.destroyed);
    let moon: Vec<BaseId> = ctx
        .data
        .bases
        .bases
        .iter()
        .filter(|(id, d)| d.moon && ctx.data.base_hex(id) == Some(loc) && standing(id))
        .map(|(id, _)| id.clone())
        .collect();
    if !moon.is_empty() || side != Side::NeoZeon || loc.map != MapId::Space {
        return moon;
    }
    let Some(area) = ctx.data.map.space.drop_area(loc.at) else {
        return Vec::new();
    };
    ctx.data
        .bases
        .bases
        .keys()
        .filter(|id| standing(id))
        .filter(|id| {
            ctx.data
                .base_hex(id)
                .filter(|l| l.map == MapId::Ground)
                .and_then(|l| ctx.data.map.ground.area(l.at))
                == Some(area)
        })
        .cloned()
        .collect()
}

/// The base `side`'s landing aims at among `targets` (35.7, A-74, plan §12/F3): the first
/// base its `colony.target` list names, else `highest_vp_enemy`: the bases of the other
/// faction(s) with the most VP now first, then the other faction's, then neutral ones, its
/// own last; the higher VP first; ties by id.
pub fn landing_target(ctx: &Ctx<'_>, side: Side, targets: &[BaseId]) -> Option<BaseId> {
    if let ColonyTarget::Bases(list) = &ctx.state.policies[side].colony.target
        && let Some(b) = list.iter().find(|b| targets.contains(b))
    {
        return Some(b.clone());
    }
    let vp = ctx.state.base_vp();
    let top = Side::ALL
        .iter()
        .filter(|s| **s != side)
        .map(|s| vp[*s])
        .max()
        .unwrap_or(0);
    targets
        .iter()
        .min_by_key(|id| {
            let b = ctx.state.bases.get(id.as_str());
            let gov = b.and_then(|b| b.governor);
            let rank = match gov {
                Some(g) if g == side => 3,
                Some(g) if vp[g] == top => 0,
                Some(_) => 1,
                None => 2,
            };
            let worth = b
                .filter(|b| b.governor.is_some())
                .and_then(|b| ctx.data.base(id).and_then(|d| d.at_level(b.level)))
                .map_or(0, |v| v.vp);
            (rank, std::cmp::Reverse(worth), (*id).clone())
        })
        .cloned()
}

/// 35.7-35.7.3, rolled when `card` is drawn (plan §12/F3): if the drawn faction's colony is
/// on a Moon base's hex, or (Neo Zeon) on a drop point whose area has a base, it must land:
/// one die, 1-5 face up or 1-3 flipped. The colony is used up either way. On success
/// the base is gone for good and each unit in its hex is removed on a 1, its characters
/// making survival checks.
pub fn resolve_landing(ctx: &mut Ctx<'_>, k: u8, card: Card) {
    if card.kind != CardKind::Space {
        return;
    }
    let side = card.side;
    let Some((id, u)) = on_map(&ctx.state).filter(|(_, u)| u.side == side) else {
        return;
    };
    let Some(loc) = u.place.loc() else {
        return;
    };
    let targets = landing_targets(ctx, side, loc);
    if targets.is_empty() {
        if side == Side::NeoZeon && ctx.data.map.space.drop_area(loc.at).is_some() {
            ctx.log.public(format!(
                "{side}'s colony is at drop point {}, but no base stands in its area: no \
                 landing, it moves on (A-74)",
                loc.label()
            ));
        }
        return;
    }
    let Some(target) = landing_target(ctx, side, &targets) else {
        return;
    };
    fire("35.7");
    let prefix = labels::under(&labels::phase(ctx.state.turn, k), &["colony"]);
    let label = labels::under(&prefix, &["landing"]);
    let need = if u.face == super::state::FaceUp::Back {
        BACK_LANDS_ON
    } else {
        FRONT_LANDS_ON
    };
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    let die = dice.d6(&label);
    let lands = die <= need;
    dice.set_result(&label, if lands { "lands" } else { "fails" });
    fire("35.7.1");
    // The counter leaves the map either way, to no factory box.
    ctx.state.units.remove(&id);
    ctx.state.colony.in_use_by = None;
    if !lands {
        ctx.log.public(format!(
            "{side}'s colony falls on {target}: rolls {die}, needs 1-{need}: it misses and is \
             lost (35.7.1, A-73)"
        ));
        return;
    }
    ctx.log.public(format!(
        "{side}'s colony falls on {target}: rolls {die}, needs 1-{need}: {target} is gone for \
         good (35.7.1, 35.7.2)"
    ));
    fire("35.7.2");
    if let Some(b) = ctx.state.bases.get_mut(&target) {
        b.destroyed = true;
        b.governor = None;
        b.level = 0;
    }
    // the nuke's base destroyed otherwise loses the demolition; it stays secret.
    if ctx.state.nuke.base.as_deref() == Some(target.as_str())
        && !ctx.state.nuke.used
        && !ctx.state.nuke.revealed
    {
        ctx.state.nuke.lost = true;
        ctx.log.private(
            Side::Titans,
            format!("the nuke was in {target}: the demolition is lost (A-78)"),
        );
    }
    let Some(hex) = ctx.data.base_hex(&target) else {
        return;
    };
    impact(ctx, &prefix, hex);
}

/// 35.7.3: one die for each unit in the vanished base's hex, removed on a 1; the characters
/// aboard removed units make survival checks, and one left with no unit is placed (27.5).
fn impact(ctx: &mut Ctx<'_>, prefix: &str, hex: Loc) {
    let here: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.place == Place::Hex(hex))
        .map(|(id, _)| id.clone())
        .collect();
    let mut losses = super::damage::Losses::default();
    for id in here {
        // 25.9: a ship removed earlier took its cargo with it.
        if !ctx.state.units.contains_key(&id) {
            continue;
        }
        let label = labels::under(prefix, &[id.as_str()]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let die = dice.d6(&label);
        let gone = die == 1;
        dice.set_result(&label, if gone { "removed" } else { "unharmed" });
        fire("35.7.3");
        if gone {
            ctx.log.public(format!(
                "the colony's impact on {id}: rolls 1, removed (35.7.3)"
            ));
            super::damage::remove_unit(ctx, &id, &mut losses);
        } else {
            ctx.log.public(format!(
                "the colony's impact on {id}: rolls {die}, unharmed (35.7.3)"
            ));
        }
    }
    for (c, at) in losses.survivors {
        let label = labels::under(prefix, &["survival", c.as_str()]);
        super::survival::survival(ctx, &c, 0, &label);
        if super::survival::stranded(ctx, &c) {
            super::survival::rehome(ctx, &c, at);
        }
    }
}

#[cfg(test)]
#[path = "colony_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "colony_move_tests.rs"]
mod move_tests;
