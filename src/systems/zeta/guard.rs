//! Guards: the conditions of guarded card choices, plans, combats and laser targets (plan
//! §4.4). A small closed enum in plain YAML, with no expression parser; every term reads a
//! public fact or the planner's own cards, so a guard cannot read another seat's secret (plan
//! §2.3, trap 7).

use super::ctx::Ctx;
use super::data::{Area, BaseId, CharId, Loc, MapId, Place, Side, TypeId, UnitId};
use super::state::{CardKind, CharPlace, FaceUp};
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};

/// How many units of whom are in one hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountAt {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    pub at: Loc,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// How many units of whom are on one map (or one ground area).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountOn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    pub map: MapId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitAt {
    pub unit: UnitId,
    pub at: Place,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFace {
    pub unit: UnitId,
    pub face: FaceUp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseIs {
    pub base: BaseId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_min: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_max: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharAt {
    pub char: CharId,
    pub at: Place,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VpLead {
    pub side: Side,
    pub min: i32,
}

/// Cards of a faction still in the deck (a count every seat may deduce).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardsLeft {
    pub side: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

/// Cards drawn this turn (public).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CardKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
}

/// Units a faction produced in this turn's packet (public once the armament is done; the
/// guard of deployment alternatives, plan §12/F4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Produced {
    pub side: Side,
    /// Only units of this type; all types when absent.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub type_id: Option<TypeId>,
    pub min: u32,
}

/// One condition (plan §4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Guard {
    All(Vec<Guard>),
    Any(Vec<Guard>),
    Not(Box<Guard>),
    UnitsAt(CountAt),
    /// Units of the factions other than the planner's.
    EnemyUnitsAt(CountAt),
    /// The planner's own units.
    MyUnitsAt(CountAt),
    UnitsOn(CountOn),
    UnitAt(UnitAt),
    UnitFace(UnitFace),
    Base(BaseIs),
    CharAt(CharAt),
    /// The action phase (1-9) is at least / at most this.
    PhaseMin(u8),
    PhaseMax(u8),
    Turn(u8),
    VpLead(VpLead),
    CardsLeft(CardsLeft),
    Drawn(Drawn),
    Produced(Produced),
}

/// Whether `guard` holds for `side` now, read on the public board and `side`'s own cards
/// only (plan §2.3, trap 7). `None` when it names something the game does not have (a unit
/// gone from the map, say): the callers read that as "does not hold".
pub fn holds(ctx: &Ctx<'_>, side: Side, guard: &Guard) -> Option<bool> {
    let st = &ctx.state;
    Some(match guard {
        Guard::All(gs) => {
            for g in gs {
                if !holds(ctx, side, g)? {
                    return Some(false);
                }
            }
            true
        }
        Guard::Any(gs) => {
            for g in gs {
                if holds(ctx, side, g)? {
                    return Some(true);
                }
            }
            false
        }
        Guard::Not(g) => !holds(ctx, side, g)?,
        Guard::UnitsAt(c) => within(
            count_at(ctx, c.at, |s| c.side.is_none_or(|w| w == s)),
            c.min,
            c.max,
        ),
        Guard::EnemyUnitsAt(c) => within(count_at(ctx, c.at, |s| s != side), c.min, c.max),
        Guard::MyUnitsAt(c) => within(count_at(ctx, c.at, |s| s == side), c.min, c.max),
        Guard::UnitsOn(c) => {
            let n = st
                .units
                .values()
                .filter(|u| c.side.is_none_or(|w| w == u.side))
                .filter(|u| u.place.map() == c.map)
                .filter(|u| c.area.is_none_or(|a| area_of(ctx, u.place) == Some(a)))
                .count();
            within(n, c.min, c.max)
        }
        Guard::UnitAt(u) => st.units.get(&u.unit)?.place == u.at,
        Guard::UnitFace(u) => st.units.get(&u.unit)?.face == u.face,
        Guard::Base(b) => {
            let base = st.bases.get(&b.base)?;
            let governed = base.governor.filter(|_| !base.destroyed);
            b.governor.is_none_or(|g| governed == Some(g))
                && b.level_min.is_none_or(|m| base.level >= m)
                && b.level_max.is_none_or(|m| base.level <= m)
        }
        Guard::CharAt(c) => char_place(ctx, &c.char)? == c.at,
        Guard::PhaseMin(k) => phase_now(ctx) >= *k,
        Guard::PhaseMax(k) => phase_now(ctx) <= *k,
        Guard::Turn(t) => st.turn == *t,
        Guard::VpLead(v) => {
            // The live board's VP (37.1 counts them the same way at the turn's end).
            let vp = st.base_vp();
            let best_other = Side::ALL
                .iter()
                .filter(|s| **s != v.side)
                .map(|s| vp[*s])
                .max()
                .unwrap_or(0);
            vp[v.side] - best_other >= v.min
        }
        Guard::CardsLeft(c) => {
            // The count of a faction's cards still in the deck is deducible by everyone
            // (3 chosen minus those drawn, plan §2.3 trap 3); their kinds are never read.
            let n = st
                .deck
                .draw_pile
                .iter()
                .filter(|k| k.side == c.side)
                .count();
            within(n, c.min, c.max)
        }
        Guard::Drawn(d) => {
            let n = st
                .drawn
                .iter()
                .filter(|c| d.side.is_none_or(|s| s == c.side))
                .filter(|c| d.kind.is_none_or(|k| k == c.kind))
                .count();
            n >= usize::try_from(d.min.unwrap_or(1)).unwrap_or(usize::MAX)
        }
        // §12/F4: production is public once every packet is in.
        Guard::Produced(p) => produced_holds(ctx, p),
    })
}

/// The action phase now: the number of cards drawn this turn (0 while the cards are chosen).
fn phase_now(ctx: &Ctx<'_>) -> u8 {
    u8::try_from(ctx.state.drawn.len()).unwrap_or(u8::MAX)
}

fn within(n: usize, min: Option<u32>, max: Option<u32>) -> bool {
    let n = u32::try_from(n).unwrap_or(u32::MAX);
    min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m)
}

/// Units in the hex `at` whose owner passes `who` (carried MS are where their ship is).
fn count_at(ctx: &Ctx<'_>, at: Loc, who: impl Fn(Side) -> bool) -> usize {
    ctx.state
        .units
        .values()
        .filter(|u| u.place == Place::Hex(at) && who(u.side))
        .count()
}

/// The ground area of a place on the ground map.
fn area_of(ctx: &Ctx<'_>, p: Place) -> Option<Area> {
    match p {
        Place::Hex(l) if l.map == MapId::Ground => ctx.data.map.ground.area(l.at),
        _ => None,
    }
}

/// Where a character is on the board: its carrier's place, or its own hex.
fn char_place(ctx: &Ctx<'_>, id: &str) -> Option<Place> {
    match &ctx.state.chars.get(id)?.place {
        CharPlace::Aboard(u) => ctx.state.units.get(u).map(|u| u.place),
        CharPlace::Solo(l) => Some(Place::Hex(*l)),
        _ => None,
    }
}

/// Whether a guard is well formed for `side` (plan §4.4): counts with `min` not above `max`,
/// phases 1-9, the bases and characters the game has, no `side` where the term fixes it.
/// Units are not checked by name: a unit may be produced in the same packet (Z-8).
pub fn legal_guard(
    ctx: &Ctx<'_>,
    side: Side,
    guard: &Guard,
    at: &FieldPath,
) -> Result<(), Problem> {
    // Every term reads public facts or the planner's own cards (trap 7), so what is well
    // formed does not depend on who writes it; `side` keeps the shared signature.
    let _ = side;
    let bad = |what: String, ok: &str| Err(Problem::new(at.clone(), "", what, ok.to_string()));
    let range = |min: Option<u32>, max: Option<u32>| match (min, max) {
        (Some(a), Some(b)) if a > b => bad(format!("min {a} is above max {b}"), "min <= max"),
        _ => Ok(()),
    };
    match guard {
        Guard::All(gs) | Guard::Any(gs) => {
            let key = if matches!(guard, Guard::All(_)) {
                "all"
            } else {
                "any"
            };
            for (i, g) in gs.iter().enumerate() {
                legal_guard(ctx, side, g, &at.at(key).at(i))?;
            }
            Ok(())
        }
        Guard::Not(g) => legal_guard(ctx, side, g, &at.at("not")),
        Guard::UnitsAt(c) => range(c.min, c.max),
        Guard::EnemyUnitsAt(c) | Guard::MyUnitsAt(c) => {
            if c.side.is_some() {
                return bad(
                    "`side` is fixed by this term (yours, or the others')".into(),
                    "units_at names a side",
                );
            }
            range(c.min, c.max)
        }
        Guard::UnitsOn(c) => {
            if c.area.is_some() && c.map != MapId::Ground {
                return bad(
                    "an area is a part of the ground map (14.3)".into(),
                    "map: ground",
                );
            }
            range(c.min, c.max)
        }
        Guard::CardsLeft(c) => range(c.min, c.max),
        // §12/F4: production is public once the packets are in.
        Guard::Produced(p) => match &p.type_id {
            Some(t) if ctx.data.unit_type(t).is_none() => {
                bad(format!("no unit type {t:?}"), "a type id of counters.yaml")
            }
            _ => Ok(()),
        },
        Guard::Base(b) => {
            if !ctx.state.bases.contains_key(&b.base) {
                return bad(format!("no base {:?}", b.base), "a base id of bases.yaml");
            }
            match (b.level_min, b.level_max) {
                (Some(a), Some(m)) if a > m => bad(
                    format!("level_min {a} is above level_max {m}"),
                    "level_min <= level_max",
                ),
                _ => Ok(()),
            }
        }
        Guard::CharAt(c) => {
            if ctx.data.character(&c.char).is_none() {
                return bad(
                    format!("no character {:?}", c.char),
                    "a character id of characters.yaml",
                );
            }
            Ok(())
        }
        Guard::PhaseMin(k) | Guard::PhaseMax(k) => {
            if (1..=9).contains(k) {
                Ok(())
            } else {
                bad(
                    format!("there is no action phase {k} (11.4: nine a turn)"),
                    "1 to 9",
                )
            }
        }
        Guard::Turn(t) => {
            if (1..=10).contains(t) {
                Ok(())
            } else {
                bad(format!("there is no turn {t} (37.3: ten turns)"), "1 to 10")
            }
        }
        Guard::UnitAt(_) | Guard::UnitFace(_) | Guard::VpLead(_) | Guard::Drawn(_) => Ok(()),
    }
}

/// Whether the `produced` term holds: `p.side` produced at least `p.min` units (of `p.type_id`
/// when given) in this turn's packet. Production is public (6.1: the units appear on the map),
/// so any seat may read it.
pub fn produced_holds(ctx: &Ctx<'_>, p: &Produced) -> bool {
    let made = &ctx.state.sides[p.side].produced;
    let n: u32 = match &p.type_id {
        Some(t) => made.get(t).copied().map_or(0, u32::from),
        None => made.values().copied().map(u32::from).sum(),
    };
    n >= p.min
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::DataSource;
    use crate::systems::zeta::ctx::Moment;
    use crate::systems::zeta::setup;
    use crate::systems::zeta::state::Card;

    fn ctx() -> Ctx<'static> {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        Ctx::new(st, None, Moment::Check)
    }

    fn g(text: &str) -> Guard {
        crate::yaml::parse::<Guard>(text, "g.yaml").unwrap()
    }

    #[test]
    fn unit_counts_read_the_board() {
        let x = ctx();
        // The AEUG 1st Fleet: 5 units at C05 (38).
        assert_eq!(
            holds(
                &x,
                Side::Aeug,
                &g("my_units_at: {at: \"space:C05\", min: 5}")
            ),
            Some(true)
        );
        assert_eq!(
            holds(
                &x,
                Side::Titans,
                &g("enemy_units_at: {at: \"space:C05\", min: 5, max: 5}")
            ),
            Some(true)
        );
        assert_eq!(
            holds(
                &x,
                Side::Titans,
                &g("my_units_at: {at: \"space:C05\", min: 1}")
            ),
            Some(false)
        );
        assert_eq!(
            holds(
                &x,
                Side::Titans,
                &g("units_on: {side: neo_zeon, map: ground, min: 1}")
            ),
            Some(false)
        );
        assert_eq!(
            holds(
                &x,
                Side::Titans,
                &g("units_on: {side: neo_zeon, map: space, min: 10}")
            ),
            Some(true)
        );
    }

    #[test]
    fn bases_turns_vp_and_cards_read_public_facts() {
        let mut x = ctx();
        assert_eq!(
            holds(
                &x,
                Side::Aeug,
                &g("base: {base: granada, governor: aeug, level_min: 3}")
            ),
            Some(true)
        );
        assert_eq!(holds(&x, Side::Aeug, &g("turn: 1")), Some(true));
        assert_eq!(
            holds(&x, Side::Aeug, &g("vp_lead: {side: titans, min: 1}")),
            Some(true)
        );
        assert_eq!(
            holds(&x, Side::Aeug, &g("not: {drawn: {side: aeug}}")),
            Some(true)
        );
        x.state.drawn.push(Card {
            side: Side::Aeug,
            kind: CardKind::Space,
            copy: 1,
        });
        assert_eq!(
            holds(
                &x,
                Side::Aeug,
                &g("all: [{drawn: {side: aeug, kind: space}}, {phase_min: 1}, {phase_max: 1}]")
            ),
            Some(true)
        );
        assert_eq!(
            holds(&x, Side::Aeug, &g("cards_left: {side: aeug, max: 0}")),
            Some(true)
        );
    }

    #[test]
    fn a_name_the_game_lacks_cannot_hold() {
        let x = ctx();
        assert_eq!(
            holds(&x, Side::Aeug, &g("unit_at: {unit: a-zz-9, at: belt}")),
            None
        );
        assert_eq!(
            holds(
                &x,
                Side::Aeug,
                &g("any: [{base: {base: solomon}}, {turn: 1}]")
            ),
            None
        );
    }

    #[test]
    fn malformed_guards_are_refused_with_where() {
        let x = ctx();
        let at = FieldPath::root().at("if");
        let p = legal_guard(
            &x,
            Side::Aeug,
            &g("all: [{turn: 1}, {units_at: {at: \"space:C05\", min: 3, max: 1}}]"),
            &at,
        )
        .unwrap_err();
        assert!(p.message.contains("min 3 is above max 1"), "{}", p.message);
        let p = legal_guard(&x, Side::Aeug, &g("base: {base: solomon}"), &at).unwrap_err();
        assert!(p.message.contains("no base"), "{}", p.message);
        let p = legal_guard(
            &x,
            Side::Aeug,
            &g("my_units_at: {side: titans, at: \"space:C05\"}"),
            &at,
        )
        .unwrap_err();
        assert!(p.message.contains("fixed by this term"), "{}", p.message);
        let p =
            legal_guard(&x, Side::Aeug, &g("units_on: {map: space, area: A}"), &at).unwrap_err();
        assert!(p.message.contains("ground map"), "{}", p.message);
        let p =
            legal_guard(&x, Side::Aeug, &g("char_at: {char: amuro, at: belt}"), &at).unwrap_err();
        assert!(p.message.contains("no character"), "{}", p.message);
        let p = legal_guard(&x, Side::Aeug, &g("turn: 11"), &at).unwrap_err();
        assert!(p.message.contains("no turn 11"), "{}", p.message);
    }
}
