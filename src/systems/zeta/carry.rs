//! Carrying and existence (13.10, 15): which ship carries what, and who may be where.
//!
//! The helpers here answer the questions movement, atmospheric movement and the clean-up ask
//! about one place: which bases stand there, whether another faction is there, how
//! much room a ship has left (15.3), and whether an uncarried MS or a lone character may stay
//! (15.4-15.6). `existence_check` applies 15.7 to one place.

use super::ctx::Ctx;
use super::data::{BaseKind, Class, Loc, MapId, Place, Side, Terrain, UnitId, UnitType, ZetaData};
use super::labels;
use super::orders::Board;
use super::policy::Recarry;
use super::state::{CharPlace, Stage, State, Wound};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// Where base `id` stands now: its fixed hex, or a mobile base's place (30.3, 31.4); `None`
/// for a destroyed base or one not on the map (Gryps 2 before 31.1).
pub fn base_place(state: &State, data: &ZetaData, id: &str) -> Option<Place> {
    let b = state.bases.get(id);
    if b.is_some_and(|b| b.destroyed) {
        return None;
    }
    match data.base_hex(id) {
        Some(l) => Some(Place::Hex(l)),
        None => b.and_then(|b| b.place),
    }
}

/// The bases standing in `place` now (17.5: a hex may hold several), in id order.
pub fn bases_at(state: &State, data: &ZetaData, place: Place) -> Vec<String> {
    data.bases
        .bases
        .keys()
        .filter(|id| base_place(state, data, id) == Some(place))
        .cloned()
        .collect()
}

/// Whether a unit of another faction than `side` is in `place` (13.5, 15.6; A-18: any other
/// faction, the colony counting for its user).
pub fn others_at(state: &State, side: Side, place: Place) -> bool {
    state
        .units
        .values()
        .any(|u| u.place == place && u.side != side)
}

/// The map hexes holding a unit of `side`, in hex order.
pub fn own_hexes(state: &State, side: Side) -> BTreeSet<Loc> {
    state
        .units
        .values()
        .filter(|u| u.side == side)
        .filter_map(|u| u.place.loc())
        .collect()
}

/// Whether `place` holds a military base governed by a faction other than `side` (13.6).
pub fn foreign_military_base_at(state: &State, data: &ZetaData, side: Side, place: Place) -> bool {
    bases_at(state, data, place).iter().any(|id| {
        let military = data.base(id).is_some_and(|b| b.kind == BaseKind::Military);
        let gov = state.bases.get(id).and_then(|b| b.governor);
        military && gov.is_some_and(|g| g != side)
    })
}

/// Whether `place` holds a base `side` governs (12.4, 14.9).
pub fn own_base_at(state: &State, data: &ZetaData, side: Side, place: Place) -> bool {
    bases_at(state, data, place)
        .iter()
        .any(|id| state.bases.get(id).and_then(|b| b.governor) == Some(side))
}

/// How many MS a unit may carry (15.3): its type's capacity, 0 for an MS or an unknown type.
pub fn capacity(state: &State, id: &str) -> usize {
    type_of(state, id)
        .filter(|t| t.class == Class::Ship)
        .map_or(0, |t| usize::from(t.carry))
}

/// The MS aboard ship `ship` (15.1), in id order.
pub fn cargo_of(state: &State, ship: &str) -> Vec<UnitId> {
    state
        .units
        .iter()
        .filter(|(_, u)| u.carrier.as_deref() == Some(ship))
        .map(|(id, _)| id.clone())
        .collect()
}

/// Room left aboard `ship` (15.3).
pub fn spare(state: &State, ship: &str) -> usize {
    capacity(state, ship).saturating_sub(cargo_of(state, ship).len())
}

/// The type of unit `id`, if it and its type exist.
pub fn type_of<'a>(state: &'a State, id: &str) -> Option<&'a UnitType> {
    let u = state.units.get(id)?;
    state.data.unit_type(&u.type_id)
}

/// The class of unit `id`, if it and its type exist.
pub fn class_of(state: &State, id: &str) -> Option<Class> {
    type_of(state, id).map(|t| t.class)
}

/// `side`'s ships in `place` with room for one more MS, the largest room first,
/// ties by id; `except` is never offered.
pub fn ships_with_room(state: &State, side: Side, place: Place, except: &str) -> Vec<UnitId> {
    let mut ships: Vec<(usize, UnitId)> = state
        .units
        .iter()
        .filter(|(id, u)| u.side == side && u.place == place && id.as_str() != except)
        .map(|(id, _)| (spare(state, id), id.clone()))
        .filter(|(room, _)| *room > 0)
        .collect();
    ships.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    ships.into_iter().map(|(_, id)| id).collect()
}

/// Whether an uncarried MS or a lone character of `side` may stay in `place` (15.4-15.6,
/// 13.10): on the ground's land and coast always; in space, at sea and in the belt box only at
/// an own-governed or neutral military base or any political base, and not while
/// another faction is there.
pub fn may_stand_alone(state: &State, data: &ZetaData, side: Side, place: Place) -> bool {
    let open = match place {
        Place::Hex(l) if l.map == MapId::Ground => {
            data.map.ground.terrain(l.at).is_some_and(Terrain::solid)
        }
        _ => false,
    };
    open || shelter(state, data, side, place)
}

/// 15.6: a base in `place` that lets `side`'s uncarried MS and characters stand there.
pub fn shelter(state: &State, data: &ZetaData, side: Side, place: Place) -> bool {
    if others_at(state, side, place) {
        return false;
    }
    bases_at(state, data, place).iter().any(|id| {
        let gov = state.bases.get(id).and_then(|b| b.governor);
        match data.base(id).map(|b| b.kind) {
            Some(BaseKind::Political) => true,
            Some(BaseKind::Military) => gov.is_none() || gov == Some(side),
            None => false,
        }
    })
}

/// Whether `ship` may carry `cargo` from where it stands (15.1, 15.3): own MS in its place,
/// not aboard another ship that has moved, and with what it already carries within its
/// capacity (A-15: the load does not change during the move, so one count covers every hex).
pub fn legal_carry(
    ctx: &Ctx<'_>,
    side: Side,
    ship: &UnitId,
    cargo: &[UnitId],
    at: &FieldPath,
) -> Result<(), Problem> {
    legal_carry_after(ctx, side, ship, cargo, &BTreeSet::new(), at)
}

/// [`legal_carry`] when the units of `moved` have already moved this phase (A-14: one move a
/// unit a phase; a carried MS does not move again on its own).
/// What a moving ship takes along (15.1-15.3): the MS aboard it and those its order names, once
/// `legal_carry_after` accepts the named ones. Movement and atmospheric movement both use it.
pub fn moving_cargo(
    ctx: &Ctx<'_>,
    side: Side,
    ship: &UnitId,
    named: &[UnitId],
    moved: &BTreeSet<UnitId>,
    at: &FieldPath,
) -> Result<Vec<UnitId>, Problem> {
    legal_carry_after(ctx, side, ship, named, moved, &at.at("carry"))?;
    let mut cargo = cargo_of(&ctx.state, ship);
    for c in named {
        if !cargo.contains(c) {
            cargo.push(c.clone());
        }
    }
    Ok(cargo)
}

pub fn legal_carry_after(
    ctx: &Ctx<'_>,
    side: Side,
    ship: &UnitId,
    cargo: &[UnitId],
    moved: &BTreeSet<UnitId>,
    at: &FieldPath,
) -> Result<(), Problem> {
    let st = &ctx.state;
    let refuse = |rule: &str, msg: String, ok: &str| Err(Problem::new(at.clone(), rule, msg, ok));
    let Some(s) = st.units.get(ship) else {
        return refuse("15.1", format!("no unit {ship}"), "an own ship");
    };
    if class_of(st, ship) != Some(Class::Ship) {
        return refuse("15.1", format!("{ship} is not a ship"), "an own ship");
    }
    let mut load = cargo_of(st, ship);
    for (i, c) in cargo.iter().enumerate() {
        if cargo[..i].contains(c) {
            return refuse("15.3", format!("{c} is listed twice"), "each MS once");
        }
        let Some(u) = st.units.get(c) else {
            return refuse("15.1", format!("no unit {c}"), "own MS in the ship's hex");
        };
        if u.side != side {
            return refuse(
                "15.1",
                format!("{c} is not {side}'s"),
                "own MS in the ship's hex",
            );
        }
        if class_of(st, c) != Some(Class::Ms) {
            return refuse("15.3", format!("{c} is not an MS"), "MS");
        }
        if moved.contains(c) || u.atmo_moved {
            return refuse(
                "13.3",
                format!("{c} has already moved this phase"),
                "MS that have not moved",
            );
        }
        if u.place != s.place {
            return refuse(
                "15.2",
                format!(
                    "{c} is at {}, not in {ship}'s hex {} (A-14: MS board where the move starts)",
                    u.place.label(),
                    s.place.label()
                ),
                "own MS in the ship's hex",
            );
        }
        if !load.contains(c) {
            load.push(c.clone());
        }
    }
    let cap = capacity(st, ship);
    if load.len() > cap {
        return refuse(
            "15.3",
            format!(
                "{ship} carries at most {cap} MS; this would be {} ({})",
                load.len(),
                load.join(", ")
            ),
            "no more MS than the ship's capacity",
        );
    }
    Ok(())
}

/// 15.7 in hex `at`: whatever cannot exist there leaves (MS to the factory box, characters
/// roll, A-25, A-53).
pub fn existence_check(ctx: &mut Ctx<'_>, at: Loc) {
    existence_check_place(ctx, Place::Hex(at));
}

/// 15.7 in `place` (a hex or the belt box): each uncarried MS that may not stand there is first
/// put aboard an own ship with room (A-53, the `recarry` policy), else goes to its faction's
/// factory box; each character left without a carrier boards an own unit there, stays alone
/// where 15.6 allows, or makes a survival check and, surviving, goes to the nearest own unit
///
pub fn existence_check_place(ctx: &mut Ctx<'_>, place: Place) {
    let data = ctx.data.clone();
    // Carriers that are gone or elsewhere carry nothing (a ship removed by damage).
    let ids: Vec<UnitId> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.place == place)
        .map(|(id, _)| id.clone())
        .collect();
    for id in &ids {
        let stale = ctx.state.units.get(id).and_then(|u| u.carrier.clone());
        if let Some(ship) = stale
            && ctx.state.units.get(&ship).map(|s| s.place) != Some(place)
            && let Some(u) = ctx.state.units.get_mut(id)
        {
            u.carrier = None;
        }
    }
    for id in ids {
        let Some(u) = ctx.state.units.get(&id) else {
            continue;
        };
        if u.carrier.is_some() || class_of(&ctx.state, &id) != Some(Class::Ms) {
            continue;
        }
        let side = u.side;
        let type_id = u.type_id.clone();
        // an MS off its own map stands only when carried.
        let apt_ok = data
            .unit_type(&type_id)
            .and_then(|t| t.aptitude)
            .is_some_and(|a| a.allows(place.map()));
        if apt_ok && may_stand_alone(&ctx.state, &data, side, place) {
            continue;
        }
        if let Some(ship) = recarry_ship(&ctx.state, side, place, &id) {
            if let Some(u) = ctx.state.units.get_mut(&id) {
                u.carrier = Some(ship.clone());
            }
            reach::fire("15.7");
            ctx.log.private(
                side,
                format!(
                    "{id} may not stand alone in {}; it boards {ship} (15.7, A-53)",
                    place.label()
                ),
            );
            continue;
        }
        reach::fire("15.7");
        ctx.state.units.remove(&id);
        let n = ctx.state.sides[side].factory.entry(type_id).or_insert(0);
        *n = n.saturating_add(1);
        ctx.log.public(format!(
            "{id} cannot stay in {} and goes to {side}'s factory box (15.7)",
            place.label()
        ));
    }
    characters_check(ctx, place);
}

/// The ship an uncarried MS boards before it would be removed: the first with room of
/// the owner's `recarry` list, else the largest room.
fn recarry_ship(state: &State, side: Side, place: Place, ms: &str) -> Option<UnitId> {
    let ships = ships_with_room(state, side, place, ms);
    if let Recarry::List(order) = &state.policies[side].recarry
        && let Some(s) = order.iter().find(|s| ships.contains(s))
    {
        return Some(s.clone());
    }
    ships.into_iter().next()
}

/// 13.10, 15.4-15.7 for the characters of `place`.
fn characters_check(ctx: &mut Ctx<'_>, place: Place) {
    let data = ctx.data.clone();
    // A character whose carrier has left the state was stranded where its carrier went: the
    // remover runs this check in that place right after, so it is handled here.
    let chars: Vec<(String, Side, bool)> = ctx
        .state
        .chars
        .iter()
        .filter_map(|(id, c)| match &c.place {
            CharPlace::Aboard(u) if !ctx.state.units.contains_key(u) => {
                Some((id.clone(), c.side, true))
            }
            CharPlace::Solo(l) if Place::Hex(*l) == place => Some((id.clone(), c.side, false)),
            _ => None,
        })
        .collect();
    for (id, side, stranded) in chars {
        // a character may change carriers inside its hex; an own ship first (it holds
        // any number, 15.3), else an own MS.
        if let Some(carrier) = own_carrier_in(&ctx.state, side, &id, place) {
            set_char(ctx, &id, CharPlace::Aboard(carrier.clone()));
            if stranded {
                ctx.log.private(
                    side,
                    format!("{id} boards {carrier} in {} (13.10)", place.label()),
                );
            }
            continue;
        }
        if let Place::Hex(l) = place
            && shelter(&ctx.state, &data, side, place)
        {
            if stranded {
                set_char(ctx, &id, CharPlace::Solo(l));
            }
            continue;
        }
        reach::fire("15.7");
        ctx.log.public(format!(
            "{id} cannot stay in {} and makes a survival check (15.7)",
            place.label()
        ));
        // A character may be stranded twice in one phase (a move's start and end hex).
        let label = ctx.free_label(labels::under(&phase_prefix(&ctx.state), &["exist", &id]));
        // 27.3 applies the result (zeta commit 9; until then nothing happens and the
        // character counts as unharmed).
        let _ = super::character::survival(ctx, &id, 0, &label);
        let alive = !matches!(
            ctx.state.chars.get(&id).map(|c| &c.place),
            Some(CharPlace::Dead | CharPlace::Wounded(_) | CharPlace::OutOfGame)
        );
        if alive {
            place_orphan(ctx, &id, side, place);
        }
    }
}

/// An own unit in `place` that `char` may ride: the ship with most capacity, else an MS it
/// may pilot that has no rider yet (A-90, judged once in `deploy::may_board`).
fn own_carrier_in(state: &State, side: Side, char: &str, place: Place) -> Option<UnitId> {
    let mut best: Option<(bool, usize, UnitId)> = None;
    for (id, u) in &state.units {
        if u.place != place || !super::deploy::may_board(state, side, char, id) {
            continue;
        }
        let class = class_of(state, id);
        let key = (class == Some(Class::Ship), capacity(state, id), id.clone());
        let better = match &best {
            None => true,
            Some((s, c, _)) => (key.0, key.1) > (*s, *c),
        };
        if better {
            best = Some(key);
        }
    }
    best.map(|(_, _, id)| id)
}

fn set_char(ctx: &mut Ctx<'_>, id: &str, to: CharPlace) {
    if let Some(c) = ctx.state.chars.get_mut(id) {
        c.place = to;
    }
}

/// a survivor with no place goes to the nearest hex with an own unit (its own map first,
/// ties by hex); with no own unit anywhere it waits in wounded box L (5.7's treatment).
fn place_orphan(ctx: &mut Ctx<'_>, id: &str, side: Side, from: Place) {
    let data = ctx.data.clone();
    let mut best: Option<((u8, u32, Loc), UnitId)> = None;
    for uid in ctx.state.units.keys() {
        let Some(u) = ctx.state.units.get(uid) else {
            continue;
        };
        let Place::Hex(l) = u.place else { continue };
        if u.side != side || !matches!(class_of(&ctx.state, uid), Some(Class::Ship | Class::Ms)) {
            continue;
        }
        let (other_map, dist) = match from {
            Place::Hex(f) => match data.distance(f, l) {
                Some(d) => (0, d),
                None => (1, 0),
            },
            _ => (u8::from(l.map != MapId::Space), 0),
        };
        let key = (other_map, dist, l);
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, uid.clone()));
        }
    }
    match best.and_then(|((_, _, l), _)| own_carrier_in(&ctx.state, side, id, Place::Hex(l))) {
        Some(carrier) => {
            let at = ctx
                .state
                .units
                .get(&carrier)
                .map(|u| u.place.label())
                .unwrap_or_default();
            set_char(ctx, id, CharPlace::Aboard(carrier.clone()));
            ctx.log
                .public(format!("{id} joins {carrier} in {at} (A-27)"));
        }
        None => {
            set_char(ctx, id, CharPlace::Wounded(Wound::L));
            ctx.log.public(format!(
                "{id} has no own unit to join and goes to wounded box L (A-27)"
            ));
        }
    }
}

/// Whether character `item.char` may change to carrier `item.aboard` (A-13, 13.10): an own
/// character on the map, and an own ship or MS in its place.
pub fn legal_board(ctx: &Ctx<'_>, side: Side, item: &Board, at: &FieldPath) -> Result<(), Problem> {
    let st = &ctx.state;
    let (ch, to) = (&item.char, &item.aboard);
    let refuse = |msg: String| {
        Err(Problem::new(
            at.clone(),
            "A-13",
            msg,
            "an own ship or MS in the character's hex",
        ))
    };
    let Some(c) = st.chars.get(ch) else {
        return refuse(format!("no character {ch}"));
    };
    if c.side != side {
        return refuse(format!("{ch} belongs to {}", c.side));
    }
    let Some(here) = super::deploy::char_place(st, ch) else {
        return refuse(format!("{ch} is not on the map"));
    };
    let Some(u) = st.units.get(to) else {
        return refuse(format!("no unit {to}"));
    };
    if u.side != side || !matches!(class_of(st, to), Some(Class::Ship | Class::Ms)) {
        return refuse(format!("{to} is not an own ship or MS"));
    }
    if u.place != here {
        return refuse(format!(
            "{to} is at {}, {ch} at {}",
            u.place.label(),
            here.label()
        ));
    }
    // 29.6.2: only a Newtype rides a mass-production Qubeley.
    super::specials::legal_rider(ctx, ch, to, at)
}

/// `side`'s `board` items, in order, at the start of slot A5 (before anything moves): what is
/// wrong then is skipped and told to `side` alone. Returns the problems.
pub fn run_boards(
    ctx: &mut Ctx<'_>,
    side: Side,
    items: &[Board],
    root: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, b) in items.iter().enumerate() {
        match legal_board(ctx, side, b, &root.at("board").at(i)) {
            Ok(()) => {
                reach::fire("13.10");
                set_char(ctx, &b.char, CharPlace::Aboard(b.aboard.clone()));
            }
            Err(p) => {
                if ctx.moment == super::ctx::Moment::Resolve {
                    ctx.log
                        .private(side, format!("skipped: {}", super::ctx::reason(&p)));
                }
                out.push(p);
            }
        }
    }
    out
}

/// The label prefix of the current phase (`t3/p5`), or of the turn outside a phase.
pub fn phase_prefix(state: &State) -> String {
    match &state.stage {
        Stage::Phase { turn, k, .. } | Stage::Ask { turn, k, .. } => labels::phase(*turn, *k),
        _ => labels::turn(state.turn),
    }
}

#[cfg(test)]
pub(crate) mod fixture {
    //! A state for the movement lane's tests: the real setup (38) when it is there, else the
    //! real data with no units, which each test fills as it needs.

    use super::super::data::{Loc, Place, Side, UnitId};
    use super::super::setup;
    use super::super::state::{Card, CardKind, CharPlace, Stage, State, Unit};
    use crate::systems::DataSource;

    pub fn state() -> State {
        let mut st =
            setup::initial_state(setup::GRYPS, &DataSource::default()).expect("the gryps setup");
        // Tests place what they need: the bases as set up, the map emptied.
        st.units.clear();
        for c in st.chars.values_mut() {
            c.place = CharPlace::Track;
        }
        st
    }

    pub fn loc(s: &str) -> Loc {
        Loc::parse(s).expect("a test hex")
    }

    /// Asserts that the refusal `p` cites `rule` and says `text`.
    pub fn assert_refused(p: &crate::systems::Problem, rule: &str, text: &str) {
        assert_eq!(p.rule.as_deref(), Some(rule), "{}", p.message);
        assert!(p.message.contains(text), "{text:?} not in: {}", p.message);
    }

    /// Opens action phase 1 of turn 1 on `side`'s card of `kind`.
    pub fn phase(st: &mut State, side: Side, kind: CardKind) {
        st.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: Card {
                side,
                kind,
                copy: 1,
            },
        };
    }

    /// Puts a unit of `type_id` for `side` in `at` (a hex or `belt`), aboard `carrier`.
    pub fn put(st: &mut State, id: &str, side: Side, type_id: &str, at: &str) -> UnitId {
        st.units.insert(
            id.to_string(),
            Unit {
                side,
                type_id: type_id.into(),
                place: Place::parse(at).expect("a test place"),
                face: Default::default(),
                carrier: None,
                action: None,
                atmo_moved: false,
                placed_this_phase: false,
            },
        );
        id.to_string()
    }

    pub fn aboard(st: &mut State, ms: &str, ship: &str) {
        if let Some(u) = st.units.get_mut(ms) {
            u.carrier = Some(ship.to_string());
        }
    }

    pub fn seat(st: &mut State, ch: &str, on: &str) {
        if let Some(c) = st.chars.get_mut(ch) {
            c.place = CharPlace::Aboard(on.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::*;
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::deploy::fixture::ctx;
    use crate::systems::zeta::state::FaceUp;

    /// Puts Titans' Salamis Kai `t-salamis-kai-1` (room for 2 MS) at `at`.
    fn titans_salamis_at(st: &mut State, at: &str) {
        put(st, "t-salamis-kai-1", Side::Titans, "salamis_kai", at);
    }

    /// Titans' Jerid on a lone Hi-Zack in open space (C04), their Alexandria three hexes away.
    fn jerid_alone_in_open_space() -> State {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        seat(&mut st, "jerid_1", "t-hizack-1");
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:C07",
        );
        st
    }

    #[test]
    fn an_uncarried_ms_in_open_space_goes_to_the_factory_15_4_15_7() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        let mut c = ctx(st);
        existence_check(&mut c, loc("space:C04"));
        assert!(!c.state.units.contains_key("t-hizack-1"));
        assert_eq!(c.state.sides[Side::Titans].factory.get("hizack"), Some(&1));
        assert!(
            c.log
                .public
                .iter()
                .any(|l| l.contains("factory box (15.7)"))
        );
    }

    #[test]
    fn an_uncarried_ms_boards_an_own_ship_with_room_first_a53() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        titans_salamis_at(&mut st, "space:C04");
        let mut c = ctx(st);
        existence_check(&mut c, loc("space:C04"));
        let u = &c.state.units["t-hizack-1"];
        assert_eq!(u.carrier.as_deref(), Some("t-salamis-kai-1"));
        assert!(c.log.private[Side::Titans][0].contains("boards t-salamis-kai-1"));
    }

    #[test]
    fn an_own_military_base_shelters_lone_ms_until_an_enemy_comes_15_6() {
        let mut st = state();
        // Green Noa (space:C02) is Titans' military base.
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C02");
        let mut c = ctx(st.clone());
        existence_check(&mut c, loc("space:C02"));
        assert!(c.state.units.contains_key("t-hizack-1"));
        put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C02");
        let mut c = ctx(st);
        existence_check(&mut c, loc("space:C02"));
        assert!(!c.state.units.contains_key("t-hizack-1"));
    }

    #[test]
    fn another_factions_military_base_shelters_nobody_but_a_political_base_does_a26() {
        let mut st = state();
        // Green Noa is Titans' military base; Side 2 (space:F02) is AEUG's political base.
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "space:C02");
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:F02");
        let mut c = ctx(st);
        existence_check(&mut c, loc("space:C02"));
        existence_check(&mut c, loc("space:F02"));
        assert!(!c.state.units.contains_key("a-nemo-1"));
        assert!(c.state.units.contains_key("t-hizack-1"));
    }

    #[test]
    fn an_ms_at_sea_or_off_its_map_needs_a_carrier_15_5_a17() {
        let mut st = state();
        // ground:A01 is ocean; ground:C01 is land; rick_dias is space-only (S).
        put(&mut st, "a-gm2-1", Side::Aeug, "gm2", "ground:A01");
        put(
            &mut st,
            "a-rick-dias-1",
            Side::Aeug,
            "rick_dias",
            "ground:C01",
        );
        put(&mut st, "a-gm2-2", Side::Aeug, "gm2", "ground:C01");
        let mut c = ctx(st);
        existence_check(&mut c, loc("ground:A01"));
        existence_check(&mut c, loc("ground:C01"));
        assert!(!c.state.units.contains_key("a-gm2-1"));
        assert!(!c.state.units.contains_key("a-rick-dias-1"));
        assert!(c.state.units.contains_key("a-gm2-2"));
        assert_eq!(c.state.units["a-gm2-2"].face, FaceUp::Front);
    }

    #[test]
    fn a_character_whose_carrier_left_boards_another_own_unit_13_10() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        titans_salamis_at(&mut st, "space:C04");
        aboard(&mut st, "t-hizack-1", "t-salamis-kai-1");
        put(&mut st, "t-hizack-2", Side::Titans, "hizack", "space:C04");
        seat(&mut st, "jerid_1", "t-hizack-2");
        let mut c = ctx(st);
        // t-hizack-2 has no room aboard (the Salamis Kai holds 2; one is taken, one free).
        existence_check(&mut c, loc("space:C04"));
        assert_eq!(
            c.state.units["t-hizack-2"].carrier.as_deref(),
            Some("t-salamis-kai-1")
        );
        assert_eq!(
            c.state.chars["jerid_1"].place,
            CharPlace::Aboard("t-hizack-2".into())
        );
    }

    #[test]
    fn a_stranded_character_with_no_own_unit_near_joins_the_nearest_a27() {
        let st = jerid_alone_in_open_space();
        let mut c = ctx(st);
        existence_check(&mut c, loc("space:C04"));
        assert!(!c.state.units.contains_key("t-hizack-1"));
        assert_eq!(
            c.state.chars["jerid_1"].place,
            CharPlace::Aboard("t-alexandria-1".into())
        );
        assert!(c.log.public.iter().any(|l| l.contains("survival check")));
    }

    #[test]
    fn a_character_stranded_twice_in_one_phase_rolls_under_two_labels_15_7() {
        let st = jerid_alone_in_open_space();
        let mut dice = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        {
            let mut c = Ctx::new(st, Some(&mut dice), super::super::ctx::Moment::Resolve);
            existence_check(&mut c, loc("space:C04"));
            // Stranded again in the same phase: a second lone MS carries him into open space.
            put(
                &mut c.state,
                "t-hizack-2",
                Side::Titans,
                "hizack",
                "space:C04",
            );
            seat(&mut c.state, "jerid_1", "t-hizack-2");
            existence_check(&mut c, loc("space:C04"));
        }
        let transcript = dice.finish().expect("no dice label is used twice");
        let labels: Vec<&str> = transcript
            .public
            .iter()
            .map(|r| r.label.as_str())
            .filter(|l| l.contains("/exist/jerid_1"))
            .collect();
        assert_eq!(labels.len(), 2, "two survival checks: {labels:?}");
        assert_ne!(labels[0], labels[1]);
        assert!(labels[1].ends_with("/exist/jerid_1/2"), "{labels:?}");
    }

    #[test]
    fn a_character_changes_carriers_only_inside_its_hex_a13() {
        let mut st = state();
        put(
            &mut st,
            "t-alexandria-1",
            Side::Titans,
            "alexandria",
            "space:B03",
        );
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:B03");
        titans_salamis_at(&mut st, "space:C04");
        seat(&mut st, "bask", "t-alexandria-1");
        let items = vec![
            Board {
                char: "bask".into(),
                aboard: "t-salamis-kai-1".into(),
            },
            Board {
                char: "bask".into(),
                aboard: "t-hizack-1".into(),
            },
        ];
        let mut c = ctx(st);
        let problems = run_boards(&mut c, Side::Titans, &items, &FieldPath::root());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0]
                .message
                .contains("t-salamis-kai-1 is at space:C04")
        );
        assert_eq!(problems[0].rule.as_deref(), Some("A-13"));
        assert!(c.log.private[Side::Titans][0].starts_with("skipped:"));
        assert_eq!(
            c.state.chars["bask"].place,
            CharPlace::Aboard("t-hizack-1".into())
        );
    }

    #[test]
    fn a_board_order_onto_a_mass_production_qubeley_needs_a_newtype_29_6_2() {
        let mut st = state();
        put(&mut st, "n-gwadan-1", Side::NeoZeon, "gwadan", "space:M03");
        put(
            &mut st,
            "n-mp-qubeley-1",
            Side::NeoZeon,
            "mp_qubeley",
            "space:M03",
        );
        seat(&mut st, "mineva", "n-gwadan-1");
        seat(&mut st, "haman", "n-gwadan-1");
        let board = |char: &str| Board {
            char: char.into(),
            aboard: "n-mp-qubeley-1".into(),
        };
        let mut c = ctx(st);
        let items = vec![board("mineva"), board("haman")];
        let problems = run_boards(&mut c, Side::NeoZeon, &items, &FieldPath::root());
        assert_eq!(problems.len(), 1);
        assert_refused(&problems[0], "29.6.2", "not a Newtype");
        assert!(c.log.private[Side::NeoZeon][0].contains("(29.6.2)"));
        assert_eq!(
            c.state.chars["mineva"].place,
            CharPlace::Aboard("n-gwadan-1".into())
        );
        assert_eq!(
            c.state.chars["haman"].place,
            CharPlace::Aboard("n-mp-qubeley-1".into())
        );
    }

    #[test]
    fn a_stranded_character_does_not_take_an_ms_that_has_a_rider_a_90() {
        let mut st = state();
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "ground:I02");
        seat(&mut st, "jerid_1", "t-hizack-1");
        if let Some(c) = st.chars.get_mut("kacricon") {
            c.place = CharPlace::Solo(Loc::parse("ground:I02").unwrap());
        }
        let mut c = ctx(st);
        existence_check(&mut c, Loc::parse("ground:I02").unwrap());
        assert_ne!(
            c.state.chars["kacricon"].place,
            CharPlace::Aboard("t-hizack-1".into())
        );
        assert_eq!(
            c.state.chars["jerid_1"].place,
            CharPlace::Aboard("t-hizack-1".into())
        );
    }

    #[test]
    fn a_ship_carries_no_more_ms_than_its_capacity_15_3() {
        let mut st = state();
        titans_salamis_at(&mut st, "space:B03");
        for i in 1..=3 {
            put(
                &mut st,
                &format!("t-hizack-{i}"),
                Side::Titans,
                "hizack",
                "space:B03",
            );
        }
        let c = ctx(st);
        let at = FieldPath::root().at("carry");
        let two: Vec<UnitId> = vec!["t-hizack-1".into(), "t-hizack-2".into()];
        assert!(legal_carry(&c, Side::Titans, &"t-salamis-kai-1".into(), &two, &at).is_ok());
        let three: Vec<UnitId> = (1..=3).map(|i| format!("t-hizack-{i}")).collect();
        let p = legal_carry(&c, Side::Titans, &"t-salamis-kai-1".into(), &three, &at).unwrap_err();
        assert_refused(&p, "15.3", "carries at most 2 MS");
    }

    #[test]
    fn a_ship_carries_only_own_ms_from_its_own_hex_15_1_a14() {
        let mut st = state();
        titans_salamis_at(&mut st, "space:B03");
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "space:B03");
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "space:C04");
        let c = ctx(st);
        let at = FieldPath::root();
        let ship: UnitId = "t-salamis-kai-1".into();
        let p = legal_carry(&c, Side::Titans, &ship, &["a-nemo-1".into()], &at).unwrap_err();
        assert!(p.message.contains("not titans'"), "{}", p.message);
        let p = legal_carry(&c, Side::Titans, &ship, &["t-hizack-1".into()], &at).unwrap_err();
        assert!(
            p.message.contains("not in t-salamis-kai-1's hex"),
            "{}",
            p.message
        );
    }
}
