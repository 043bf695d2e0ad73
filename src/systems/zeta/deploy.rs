//! Deployment (9, with 29.2.6, 29.3.1, 31.1-31.2, 33.1-33.2): the units produced in this
//! packet and the waiting characters are placed. Deployment comes after every faction's
//! armament, and may be given as alternatives guarded on the others' production (plan
//! §12/F4), so a faction answers what the others built without a second round trip.
//!
//! Also the small facts of where things may stand (15.4-15.6, A-90) that armament, recovery
//! and government share.

use super::carry;
use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{ArrivalCode, BaseId, Class, MapId, Place, Side, TrackEvent, UnitId};
use super::guard::{self, Guard};
use super::orders::{DeployChar, DeployUnit, Deployment};
use super::state::{CharPlace, FaceUp, State, Unit};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// 31.1: the base Gryps 2 appears in.
const GREEN_NOA: &str = "green_noa";

/// Where base `id` is now (carry's answer, for callers holding only the state).
pub fn base_place(state: &State, id: &str) -> Option<Place> {
    carry::base_place(state, &state.data, id)
}

/// The bases in play at `place` (17.5), in id order (carry's answer).
pub fn bases_at(state: &State, place: Place) -> Vec<BaseId> {
    carry::bases_at(state, &state.data, place)
}

/// Whether units of a faction other than `side` are at `place` (13.5, 16.3).
pub fn enemies_at(state: &State, side: Side, place: Place) -> bool {
    carry::others_at(state, side, place)
}

/// 15.6: an uncarried MS or a lone character of `side` may be placed at `place`: carry's
/// shelter, on a map hex only (a unit is never placed or armed into the belt box here).
pub fn solo_allowed(state: &State, side: Side, place: Place) -> bool {
    place.loc().is_some() && carry::shelter(state, &state.data, side, place)
}

/// 13.9, 15.4-15.6: an MS of `side` may stand uncarried at `place` (a map hex).
pub fn ms_may_stand(state: &State, side: Side, place: Place) -> bool {
    place.loc().is_some() && carry::may_stand_alone(state, &state.data, side, place)
}

/// The first own ship at `place` (id order) with room for one more MS (15.3), not one of
/// `except`. Id order, not carry's most-room-first: production and scrapping fill
/// ships in a fixed order the player can foresee.
pub fn ship_with_room(
    state: &State,
    side: Side,
    place: Place,
    except: &[UnitId],
) -> Option<UnitId> {
    state
        .units
        .iter()
        .filter(|(id, u)| u.side == side && u.place == place && !except.contains(id))
        .find(|(id, _)| carry::spare(state, id) > 0)
        .map(|(id, _)| id.clone())
}

/// A-90 (20.5 at all times): a character may ride an MS only with an MS value of 1 or more.
pub fn may_pilot(state: &State, char: &str) -> bool {
    state
        .data
        .character(char)
        .is_some_and(|c| c.ms_attack >= 1 || c.ms_defense >= 1)
}

/// Whether a character rides unit `u`.
pub fn has_rider(state: &State, u: &str) -> bool {
    state
        .chars
        .values()
        .any(|c| matches!(&c.place, CharPlace::Aboard(x) if x == u))
}

/// Whether `char` may board unit `u` (13.10, 15.3: any number on a ship; A-90: one per MS).
pub fn may_board(state: &State, side: Side, char: &str, u: &str) -> bool {
    let Some(unit) = state.units.get(u) else {
        return false;
    };
    if unit.side != side {
        return false;
    }
    match carry::class_of(state, u) {
        Some(Class::Ship) => true,
        Some(Class::Ms) => may_pilot(state, char) && !has_rider(state, u),
        _ => false,
    }
}

/// An own unit at `place` that `char` may board: a ship first, else a free MS (id order).
pub fn unit_to_board(state: &State, side: Side, char: &str, place: Place) -> Option<UnitId> {
    let here = |class: Class| {
        state
            .units
            .iter()
            .filter(|(id, u)| u.place == place && carry::class_of(state, id) == Some(class))
            .map(|(id, _)| id.clone())
            .find(|id| may_board(state, side, char, id))
    };
    here(Class::Ship).or_else(|| here(Class::Ms))
}

/// Where a character is on the map, if it is.
pub fn char_place(state: &State, char: &str) -> Option<Place> {
    match &state.chars.get(char)?.place {
        CharPlace::Aboard(u) => state.units.get(u).map(|u| u.place),
        CharPlace::Solo(l) => Some(Place::Hex(*l)),
        _ => None,
    }
}

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// The produced units of `side` under `label` still waiting to be placed (9.1).
fn waiting_under(ctx: &Ctx<'_>, side: Side, label: &str) -> Vec<UnitId> {
    let sheet = &ctx.state.sides[side].sheet;
    ctx.labels
        .get(label)
        .map(|ids| {
            ids.iter()
                .filter(|id| sheet.awaiting.contains_key(*id))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// 9.4: an MS takes 1 deployment point, a ship 2.
fn deploy_cost(ctx: &Ctx<'_>, t: &str) -> u8 {
    match ctx.data.unit_type(t).map(|t| t.class) {
        Some(Class::Ship) => 2,
        _ => 1,
    }
}

/// Whether produced units may be placed so (9.2-9.4, 29.2.6, 29.3.1, A-17, A-87).
pub fn legal_deploy_unit(
    ctx: &Ctx<'_>,
    side: Side,
    item: &DeployUnit,
    at: &FieldPath,
) -> Result<(), Problem> {
    let ids = waiting_under(ctx, side, &item.label);
    if ids.is_empty() {
        return Err(problem(
            at,
            "9.1",
            format!(
                "no unit produced under the label {:?} waits for deployment",
                item.label
            ),
            "a label of this packet's production",
        ));
    }
    let n = item.count.map_or(ids.len(), usize::from);
    if n == 0 || n > ids.len() {
        return Err(problem(
            at,
            "9.1",
            format!(
                "{n} unit(s) asked, {} wait under {:?}",
                ids.len(),
                item.label
            ),
            "between 1 and the units waiting under the label",
        ));
    }
    let ids = &ids[..n];
    let types: Vec<&str> = ids
        .iter()
        .filter_map(|id| ctx.state.sides[side].sheet.awaiting.get(id))
        .map(String::as_str)
        .collect();
    match (&item.base, &item.onto) {
        (Some(base), None) => legal_at_base(ctx, side, base, &types, at),
        (None, Some(ship)) => legal_onto(ctx, side, ship, &types, at),
        _ => Err(problem(
            at,
            "9.2",
            "name either a base or a ship (onto), not both or neither".into(),
            "base: or onto:",
        )),
    }
}

/// 9.2-9.4 and A-17 at one base.
fn legal_at_base(
    ctx: &Ctx<'_>,
    side: Side,
    base: &str,
    types: &[&str],
    at: &FieldPath,
) -> Result<(), Problem> {
    let (Some(def), Some(b)) = (ctx.data.base(base), ctx.state.bases.get(base)) else {
        return Err(problem(
            at,
            "9.2",
            format!("no base {base:?}"),
            "a base of bases.yaml",
        ));
    };
    if b.governor != Some(side) || b.destroyed || base_place(&ctx.state, base).is_none() {
        return Err(problem(
            at,
            "9.2",
            format!("{base} is not governed by {side}"),
            "a base governed by the deploying faction",
        ));
    }
    let points = def.at_level(b.level).map_or(0, |v| v.deploy);
    if points == 0 {
        return Err(problem(
            at,
            "9.3",
            format!("{base} has no deployment points at level {}", b.level),
            "a base with deployment points",
        ));
    }
    for t in types {
        let apt = ctx.data.unit_type(t).and_then(|ty| ty.aptitude);
        if !apt.is_some_and(|a| a.allows(def.map)) {
            return Err(problem(
                at,
                "2.4",
                format!("{t} cannot be used on the {} map", def.map.id()),
                "a base on a map the unit's aptitude allows",
            ));
        }
    }
    let used = ctx.state.sides[side]
        .sheet
        .used
        .get(base)
        .copied()
        .unwrap_or(0);
    let need: u8 = types
        .iter()
        .map(|t| deploy_cost(ctx, t))
        .fold(0, u8::saturating_add);
    if used.saturating_add(need) > points {
        return Err(problem(
            at,
            "9.3",
            format!(
                "{base} takes {points} deployment point(s), {used} used; these need {need} (MS 1, ship 2)"
            ),
            "at most the base's deployment points",
        ));
    }
    Ok(())
}

/// 29.2.6, 29.3.1, A-87: one MS onto an own La Vie en Rose or Jupitris with room.
fn legal_onto(
    ctx: &Ctx<'_>,
    side: Side,
    ship: &str,
    types: &[&str],
    at: &FieldPath,
) -> Result<(), Problem> {
    let slot = ctx
        .state
        .units
        .get(ship)
        .filter(|u| u.side == side)
        .and_then(|u| ctx.data.unit_type(&u.type_id))
        .is_some_and(|t| t.deploy_slot);
    if !slot {
        return Err(problem(
            at,
            "29.2.6",
            format!("{ship} is not an own La Vie en Rose or Jupitris"),
            "an own ship that takes a deployment",
        ));
    }
    let all_ms = types
        .iter()
        .all(|t| ctx.data.unit_type(t).map(|ty| ty.class) == Some(Class::Ms));
    if types.len() != 1 || !all_ms {
        return Err(problem(
            at,
            "29.2.6",
            format!("{ship} takes one MS at a deployment, never a ship"),
            "count: 1 of an MS",
        ));
    }
    if ctx.state.sides[side].sheet.slots.contains(ship) {
        return Err(problem(
            at,
            "29.2.6",
            format!("{ship} already took its MS at this deployment"),
            "one MS per ship",
        ));
    }
    if carry::spare(&ctx.state, ship) == 0 {
        return Err(problem(
            at,
            "29.2.6",
            format!("{ship} has no room for another MS (15.3)"),
            "a ship with spare carrying capacity",
        ));
    }
    Ok(())
}

fn placed(ctx: &Ctx<'_>, u: &str) -> Place {
    ctx.state.units.get(u).map_or(Place::Jupiter, |u| u.place)
}

/// Where `side`'s produced units may be placed: every waiting label, all of it, at every
/// base and onto every ship where it is legal.
pub fn deploy_unit_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<DeployUnit>> {
    let labels: Vec<String> = ctx
        .labels
        .keys()
        .filter(|l| !waiting_under(ctx, side, l).is_empty())
        .cloned()
        .collect();
    let mut out = Vec::new();
    let at = FieldPath::root();
    for label in labels {
        let mut items: Vec<DeployUnit> = ctx
            .state
            .bases
            .keys()
            .map(|b| DeployUnit {
                label: label.clone(),
                count: None,
                base: Some(b.clone()),
                onto: None,
            })
            .collect();
        for (id, u) in &ctx.state.units {
            if u.side == side {
                items.push(DeployUnit {
                    label: label.clone(),
                    count: Some(1),
                    base: None,
                    onto: Some(id.clone()),
                });
            }
        }
        for item in items {
            if legal_deploy_unit(ctx, side, &item, &at).is_ok() {
                let note = match &item.base {
                    Some(b) => format!("{b} (9.2)"),
                    None => "one MS onto the ship (29.2.6, 29.3.1)".into(),
                };
                out.push(Choice { item, note });
            }
        }
    }
    out
}

/// Places a legal unit item.
fn apply_deploy_unit(ctx: &mut Ctx<'_>, side: Side, item: &DeployUnit) {
    let ids = waiting_under(ctx, side, &item.label);
    let n = item.count.map_or(ids.len(), usize::from).min(ids.len());
    let (place, carrier, rule, whereto) = match (&item.base, &item.onto) {
        (Some(b), _) => {
            let Some(p) = base_place(&ctx.state, b) else {
                return;
            };
            (p, None, "9.2", b.clone())
        }
        (None, Some(ship)) => {
            let dock = carry::type_of(&ctx.state, ship).is_some_and(|t| t.dock);
            let rule = if dock { "29.2.6" } else { "29.3.1" };
            (placed(ctx, ship), Some(ship.clone()), rule, ship.clone())
        }
        (None, None) => return,
    };
    let mut done = Vec::new();
    for id in ids.into_iter().take(n) {
        let Some(type_id) = ctx.state.sides[side].sheet.awaiting.remove(&id) else {
            continue;
        };
        let cost = deploy_cost(ctx, &type_id);
        if let Some(b) = &item.base {
            let used = ctx.state.sides[side]
                .sheet
                .used
                .entry(b.clone())
                .or_insert(0);
            *used = used.saturating_add(cost);
        }
        ctx.state.units.insert(
            id.clone(),
            Unit {
                side,
                type_id,
                place,
                face: FaceUp::Front,
                carrier: carrier.clone(),
                action: None,
                atmo_moved: false,
                placed_this_phase: false,
            },
        );
        done.push(id);
    }
    reach::fire("9.1");
    if let Some(ship) = &carrier {
        ctx.state.sides[side].sheet.slots.insert(ship.clone());
    } else {
        reach::fire("9.3");
        reach::fire("9.4");
    }
    reach::fire(rule);
    ctx.log.public(format!(
        "{side} deploys {} at {whereto} ({rule})",
        done.join(", ")
    ));
}

/// Whether a waiting character may be placed so (9.5-9.6, 13.10, 15.6, A-90).
pub fn legal_char_place(
    ctx: &Ctx<'_>,
    side: Side,
    item: &DeployChar,
    at: &FieldPath,
) -> Result<(), Problem> {
    let st = &ctx.state;
    let code = match st.chars.get(&item.char) {
        Some(c) if c.side == side => match &c.place {
            CharPlace::ToDeploy { code } => code.clone(),
            _ => {
                return Err(problem(
                    at,
                    "9.5",
                    format!("{} is not waiting for deployment", item.char),
                    "a character that arrived, grew or recovered",
                ));
            }
        },
        _ => {
            return Err(problem(
                at,
                "9.5",
                format!("{} is not a character of {side}", item.char),
                "an own character",
            ));
        }
    };
    let target = match (&item.aboard, &item.at) {
        (Some(u), None) => {
            // 29.6.2 before A-90: a non-Newtype is refused a mass-production Qubeley for
            // that reason, even when it could not pilot an MS at all.
            super::specials::legal_rider(ctx, &item.char, u, at)?;
            if !may_board(st, side, &item.char, u) {
                return Err(problem(
                    at,
                    "13.10",
                    format!("{} cannot board {u}", item.char),
                    "an own ship, or an own MS with no rider that the character may pilot (A-90)",
                ));
            }
            placed(ctx, u)
        }
        (None, Some(loc)) => {
            let p = Place::Hex(*loc);
            let own_here = st.units.values().any(|u| u.side == side && u.place == p);
            if !own_here {
                return Err(problem(
                    at,
                    "9.5",
                    format!("no unit of {side} at {}", loc.label()),
                    "a hex with own units",
                ));
            }
            if !solo_allowed(st, side, p) {
                return Err(problem(
                    at,
                    "15.6",
                    format!("{} cannot stand alone at {}", item.char, loc.label()),
                    "a base hex where a lone character may stand, or aboard:",
                ));
            }
            p
        }
        _ => {
            return Err(problem(
                at,
                "9.5",
                "name either a unit (aboard) or a hex (at), not both or neither".into(),
                "aboard: or at:",
            ));
        }
    };
    let fits = match &code {
        ArrivalCode::Any => true,
        ArrivalCode::Space => target.map() == MapId::Space,
        ArrivalCode::Ground => target.map() == MapId::Ground,
        // 9.6: with [X] wounded, dead or off the map, anywhere.
        ArrivalCode::With(x) => char_place(st, x).is_none_or(|p| p == target),
    };
    if !fits {
        let want = match &code {
            ArrivalCode::Space => "the space map".to_string(),
            ArrivalCode::Ground => "the ground map".to_string(),
            ArrivalCode::With(x) => format!("the hex where {x} is"),
            ArrivalCode::Any => "anywhere".to_string(),
        };
        return Err(problem(
            at,
            "9.5",
            format!("{} must be placed on {want}", item.char),
            "the place the track gives",
        ));
    }
    Ok(())
}

/// Where `side`'s waiting characters may be placed: aboard each own unit, or alone in each
/// own unit's hex, where legal.
pub fn char_place_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<DeployChar>> {
    let waiting: Vec<String> = ctx
        .state
        .chars
        .iter()
        .filter(|(_, c)| c.side == side && matches!(c.place, CharPlace::ToDeploy { .. }))
        .map(|(id, _)| id.clone())
        .collect();
    let at = FieldPath::root();
    let mut out = Vec::new();
    for char in waiting {
        let mut items: Vec<DeployChar> = Vec::new();
        // Ships first: they take any number of characters (15.3).
        let mut ships = Vec::new();
        let mut others = Vec::new();
        for (id, _) in ctx.state.units.iter().filter(|(_, u)| u.side == side) {
            if carry::class_of(&ctx.state, id) == Some(Class::Ship) {
                ships.push(id.clone());
            } else {
                others.push(id.clone());
            }
        }
        for u in ships.into_iter().chain(others) {
            items.push(DeployChar {
                char: char.clone(),
                aboard: Some(u),
                at: None,
            });
        }
        for h in carry::own_hexes(&ctx.state, side) {
            items.push(DeployChar {
                char: char.clone(),
                aboard: None,
                at: Some(h),
            });
        }
        for item in items {
            if legal_char_place(ctx, side, &item, &at).is_ok() {
                let note = match (&item.aboard, &item.at) {
                    (Some(u), _) => format!("aboard {u}"),
                    (_, Some(l)) => format!("alone at {} (15.6)", l.label()),
                    _ => String::new(),
                };
                out.push(Choice { item, note });
            }
        }
    }
    out
}

fn apply_char_place(ctx: &mut Ctx<'_>, side: Side, item: &DeployChar) {
    let new_place = match (&item.aboard, item.at) {
        (Some(u), _) => CharPlace::Aboard(u.clone()),
        (None, Some(l)) => CharPlace::Solo(l),
        _ => return,
    };
    let with_missing = matches!(
        ctx.state.chars.get(&item.char).map(|c| &c.place),
        Some(CharPlace::ToDeploy { code: ArrivalCode::With(x) }) if char_place(&ctx.state, x).is_none()
    );
    if with_missing {
        reach::fire("9.6");
    }
    if let Some(c) = ctx.state.chars.get_mut(&item.char) {
        c.place = new_place;
    }
    reach::fire("9.5");
    let whereto = match (&item.aboard, item.at) {
        (Some(u), _) => format!("aboard {u}"),
        (_, Some(l)) => format!("at {}", l.label()),
        _ => String::new(),
    };
    ctx.log
        .public(format!("{side} places {} {whereto} (9.5)", item.char));
}

/// Whether a deployment guard holds: `produced` terms (and all/any/not of them) here, any
/// other term through [`guard::holds`].
fn guard_holds(ctx: &Ctx<'_>, side: Side, g: &Guard) -> bool {
    match g {
        Guard::Produced(p) => guard::produced_holds(ctx, p),
        Guard::All(v) => v.iter().all(|g| guard_holds(ctx, side, g)),
        Guard::Any(v) => v.iter().any(|g| guard_holds(ctx, side, g)),
        Guard::Not(g) => !guard_holds(ctx, side, g),
        other => guard::holds(ctx, side, other) == Some(true),
    }
}

/// Plan §12/F4: a deployment guard reads production only, so it means the same whichever
/// faction deploys first.
fn production_only(g: &Guard) -> bool {
    match g {
        Guard::Produced(_) => true,
        Guard::All(v) | Guard::Any(v) => v.iter().all(production_only),
        Guard::Not(g) => production_only(g),
        _ => false,
    }
}

/// The units and characters `side` deploys: the first alternative whose guard holds, else
/// the unguarded lists.
pub fn chosen(ctx: &Ctx<'_>, side: Side, d: &Deployment) -> (Vec<DeployUnit>, Vec<DeployChar>) {
    for alt in &d.alternatives {
        if alt.guard.as_ref().is_none_or(|g| guard_holds(ctx, side, g)) {
            return (alt.units.clone(), alt.characters.clone());
        }
    }
    (d.units.clone(), d.characters.clone())
}

/// 33.1-33.2 and 31.1-31.2: what this turn's track places at its deployment. Each happens
/// once (the one-shot flags), so every faction's deployment may call this.
fn track_events(ctx: &mut Ctx<'_>) {
    let events = ctx
        .data
        .turn(ctx.state.turn)
        .map(|e| e.events.clone())
        .unwrap_or_default();
    for e in events {
        match e {
            TrackEvent::JupiterFleet if !ctx.state.once.jupiter_arrived => jupiter_fleet(ctx),
            TrackEvent::Gryps2 if !ctx.state.once.gryps2_placed => gryps2(ctx),
            _ => {}
        }
    }
}

/// 33.1-33.2: Titans receive the Jupiter fleet in its entry box; its MS ride its ship, its
/// characters board it. Counters come from Titans' stock (else the factory box).
fn jupiter_fleet(ctx: &mut Ctx<'_>) {
    let side = Side::Titans;
    ctx.state.once.jupiter_arrived = true;
    let fleet = ctx.data.counters.formations.jupiter_fleet.clone();
    let mut made = Vec::new();
    for t in &fleet.units {
        let s = &mut ctx.state.sides[side];
        let from = if s.stock.get(t).copied().unwrap_or(0) > 0 {
            &mut s.stock
        } else if s.factory.get(t).copied().unwrap_or(0) > 0 {
            &mut s.factory
        } else {
            ctx.log
                .public(format!("no {t} counter is left for the Jupiter fleet"));
            continue;
        };
        if let Some(n) = from.get_mut(t) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                from.remove(t);
            }
        }
        let id = ctx.state.new_unit_id(side, t);
        let carrier = match ctx.data.unit_type(t).map(|ty| ty.class) {
            Some(Class::Ms) => ship_with_room(&ctx.state, side, Place::Jupiter, &[]),
            _ => None,
        };
        ctx.state.units.insert(
            id.clone(),
            Unit {
                side,
                type_id: t.clone(),
                place: Place::Jupiter,
                face: FaceUp::Front,
                carrier,
                action: None,
                atmo_moved: false,
                placed_this_phase: false,
            },
        );
        made.push(id);
    }
    for c in &fleet.chars {
        if let Some(u) = unit_to_board(&ctx.state, side, c, Place::Jupiter)
            && let Some(ch) = ctx.state.chars.get_mut(c)
        {
            ch.place = CharPlace::Aboard(u);
            made.push(c.clone());
        }
    }
    reach::fire("33.1");
    reach::fire("33.2");
    ctx.log.public(format!(
        "the Jupiter fleet arrives for titans in its entry box (33.1-33.2): {}",
        made.join(", ")
    ));
}

/// 31.1-31.2: Gryps 2 appears in Green Noa's hex at Green Noa's level under Green
/// Noa's governor; neutral when Green Noa has none or is destroyed.
fn gryps2(ctx: &mut Ctx<'_>) {
    ctx.state.once.gryps2_placed = true;
    let Some(id) = ctx
        .data
        .bases
        .bases
        .iter()
        .find(|(_, b)| b.laser)
        .map(|(id, _)| id.clone())
    else {
        return;
    };
    let Some(hex) = ctx.data.base_hex(GREEN_NOA) else {
        return;
    };
    let (governor, level) = match ctx.state.bases.get(GREEN_NOA) {
        Some(g) if !g.destroyed => (g.governor, g.level),
        _ => (None, 0),
    };
    let b = ctx.state.bases.entry(id.clone()).or_default();
    b.place = Some(Place::Hex(hex));
    b.governor = governor;
    b.level = if governor.is_some() { level } else { 0 };
    reach::fire("31.1");
    reach::fire("31.2");
    let who = governor.map_or("neutral".to_string(), |s| format!("{s}, level {level}"));
    ctx.log.public(format!(
        "{id} appears at {} ({who}, 31.1-31.2)",
        hex.label()
    ));
}

/// Carries out `side`'s deployment (9): the track's arrivals first, then the chosen units
/// and characters in order; a waiting character not placed goes to its first legal place; a
/// produced unit not placed returns to the factory box.
pub fn resolve_deployment(ctx: &mut Ctx<'_>, side: Side, orders: &Deployment) {
    track_events(ctx);
    let (units, chars) = chosen(ctx, side, orders);
    let root = FieldPath::root().at("deployment");
    for (i, item) in units.iter().enumerate() {
        match legal_deploy_unit(ctx, side, item, &root.at("units").at(i)) {
            Ok(()) => apply_deploy_unit(ctx, side, item),
            Err(p) => ctx.log.private(
                side,
                format!("deployment of {:?} skipped: {}", item.label, reason(&p)),
            ),
        }
    }
    for (i, item) in chars.iter().enumerate() {
        match legal_char_place(ctx, side, item, &root.at("characters").at(i)) {
            Ok(()) => apply_char_place(ctx, side, item),
            Err(p) => ctx.log.private(
                side,
                format!("placing {} skipped: {}", item.char, reason(&p)),
            ),
        }
    }
    place_the_rest(ctx, side);
    let left: Vec<(UnitId, String)> = std::mem::take(&mut ctx.state.sides[side].sheet.awaiting)
        .into_iter()
        .collect();
    for (id, t) in left {
        let e = ctx.state.sides[side].factory.entry(t.clone()).or_insert(0);
        *e = e.saturating_add(1);
        ctx.log.public(format!(
            "{side}'s {id} ({t}) was not deployed and returns to the factory box"
        ));
    }
    let sheet = &mut ctx.state.sides[side].sheet;
    sheet.used.clear();
    sheet.slots.clear();
}

/// 4.2, 9.5: a character must come onto the map at the deployment; one the orders left
/// waiting takes its first legal place (ships first), or waits if there is none.
fn place_the_rest(ctx: &mut Ctx<'_>, side: Side) {
    loop {
        let choices = char_place_choices(ctx, side);
        let Some(first) = choices.into_iter().next() else {
            break;
        };
        ctx.log.private(
            side,
            format!("{} was not placed by your orders", first.item.char),
        );
        apply_char_place(ctx, side, &first.item);
    }
    let still: Vec<String> = ctx
        .state
        .chars
        .iter()
        .filter(|(_, c)| c.side == side && matches!(c.place, CharPlace::ToDeploy { .. }))
        .map(|(id, _)| id.clone())
        .collect();
    for c in still {
        ctx.log.private(
            side,
            format!("{c} has no legal place and waits for the next deployment"),
        );
    }
}

/// `check`'s judgement of a deployment on the simulated packet (`ctx` after
/// [`super::arming::simulate_armament`]): each alternative, and the unguarded lists when
/// they may be used, is tried on its own copy; every produced unit must find a place.
pub fn simulate_deployment(
    ctx: &Ctx<'_>,
    side: Side,
    d: &Deployment,
    root: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut tries: Vec<(FieldPath, &[DeployUnit], &[DeployChar])> = Vec::new();
    for (i, alt) in d.alternatives.iter().enumerate() {
        let at = root.at("alternatives").at(i);
        if let Some(g) = &alt.guard
            && !production_only(g)
        {
            out.push(problem(
                &at.at("if"),
                "9",
                "a deployment guard may read only what the factions produced (produced: ...)"
                    .into(),
                "produced terms, with all/any/not",
            ));
        }
        tries.push((at, &alt.units, &alt.characters));
    }
    let fallback_used = d.alternatives.last().is_none_or(|a| a.guard.is_some());
    if fallback_used || !d.units.is_empty() || !d.characters.is_empty() {
        tries.push((root.clone(), &d.units, &d.characters));
    }
    for (at, units, chars) in tries {
        let mut sim = Ctx::new(ctx.state.clone(), None, Moment::Check);
        sim.labels = ctx.labels.clone();
        track_events(&mut sim);
        for (i, item) in units.iter().enumerate() {
            let p = at.at("units").at(i);
            match legal_deploy_unit(&sim, side, item, &p) {
                Ok(()) => apply_deploy_unit(&mut sim, side, item),
                Err(e) => out.push(e),
            }
        }
        for (i, item) in chars.iter().enumerate() {
            let p = at.at("characters").at(i);
            match legal_char_place(&sim, side, item, &p) {
                Ok(()) => apply_char_place(&mut sim, side, item),
                Err(e) => out.push(e),
            }
        }
        // A-8 binds what this packet produced; a unit that waited from before it (29.5.2's
        // Red Qubeley Mk-II, a type never produced) may be left, and goes to the factory box.
        let mine = &sim.state.sides[side];
        let left: Vec<UnitId> = mine
            .sheet
            .awaiting
            .iter()
            .filter(|(_, t)| mine.produced.get(*t).is_some_and(|n| *n > 0))
            .map(|(id, _)| id.clone())
            .collect();
        if !left.is_empty() {
            out.push(problem(
                &at.at("units"),
                "9.1",
                format!("produced but not deployed: {}", left.join(", ")),
                "a deployment for every produced unit (A-8)",
            ));
        }
    }
    out
}

/// Test states for the packet's modules: the real setup (38).
#[cfg(test)]
pub(crate) mod fixture {
    use crate::systems::DataSource;
    use crate::systems::zeta::ctx::{Ctx, Moment};
    use crate::systems::zeta::data::Side;
    use crate::systems::zeta::state::State;
    use crate::systems::zeta::{carry, setup};

    pub fn state() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).expect("the gryps setup")
    }

    pub fn ctx(state: State) -> Ctx<'static> {
        Ctx::new(state, None, Moment::Resolve)
    }

    /// Puts a front-up unit of `side` at `at` (`space:C05`).
    pub fn unit(st: &mut State, id: &str, side: Side, t: &str, at: &str) {
        carry::fixture::put(st, id, side, t, at);
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::{ctx, state, unit};
    use super::*;
    use crate::systems::zeta::arming;
    use crate::systems::zeta::carry::fixture::assert_refused;
    use crate::systems::zeta::guard::Produced;
    use crate::systems::zeta::orders::{ArmItem, GuardedDeployment, Produce};

    /// A state where `side` governs `base` at `level` with `n` hizack in its factory box.
    fn with_base(side: Side, base: &str, level: u8) -> State {
        let mut st = state();
        for b in st.bases.values_mut() {
            if b.governor == Some(side) {
                b.governor = None;
            }
        }
        if let Some(b) = st.bases.get_mut(base) {
            b.governor = Some(side);
            b.level = level;
        }
        let s = &mut st.sides[side];
        s.factory = [("hizack".to_string(), 3u8), ("alexandria".to_string(), 1u8)]
            .into_iter()
            .collect();
        st
    }

    fn produce(c: &mut Ctx<'_>, side: Side, t: &str, n: u8, label: &str) {
        arming::resolve_armament(
            c,
            side,
            &[ArmItem::Produce(Produce {
                type_id: t.into(),
                count: n,
                label: Some(label.into()),
            })],
        );
    }

    /// Titans governing Green Noa at `level`, having produced `n` of type `t` under `label`.
    fn titans_produced(level: u8, t: &str, n: u8, label: &str) -> Ctx<'static> {
        let mut c = ctx(with_base(Side::Titans, "green_noa", level));
        produce(&mut c, Side::Titans, t, n, label);
        c
    }

    fn at_base(label: &str, base: &str) -> DeployUnit {
        DeployUnit {
            label: label.into(),
            count: None,
            base: Some(base.into()),
            onto: None,
        }
    }

    /// Titans governing Green Noa at level 2 with an own ship `id` of type `t` in space A01.
    fn titans_with_ship(t: &str, id: &str) -> State {
        let mut st = with_base(Side::Titans, "green_noa", 2);
        unit(&mut st, id, Side::Titans, t, "space:A01");
        st
    }

    fn onto_ship(label: &str, ship: &str) -> DeployUnit {
        DeployUnit {
            label: label.into(),
            count: None,
            base: None,
            onto: Some(ship.into()),
        }
    }

    fn char_aboard(char: &str, unit: &str) -> DeployChar {
        DeployChar {
            char: char.into(),
            aboard: Some(unit.into()),
            at: None,
        }
    }

    /// `char` waits for deployment with its track code (9.5).
    fn waiting(st: &mut State, char: &str, code: ArrivalCode) {
        place_char(st, char, CharPlace::ToDeploy { code });
    }

    fn place_char(st: &mut State, char: &str, place: CharPlace) {
        if let Some(ch) = st.chars.get_mut(char) {
            ch.place = place;
        }
    }

    /// The problem `legal_deploy_unit` gives for `item`, which must be refused.
    fn unit_refusal(c: &Ctx<'_>, side: Side, item: &DeployUnit) -> Problem {
        legal_deploy_unit(c, side, item, &FieldPath::root()).unwrap_err()
    }

    /// The problem `legal_char_place` gives for `item`, which must be refused.
    fn char_refusal(c: &Ctx<'_>, side: Side, item: &DeployChar) -> Problem {
        legal_char_place(c, side, item, &FieldPath::root()).unwrap_err()
    }

    #[test]
    fn produced_units_deploy_at_an_own_base_within_its_points_9_2_9_4() {
        let mut c = titans_produced(2, "hizack", 2, "hz");
        let d = Deployment {
            units: vec![at_base("hz", "green_noa")],
            ..Deployment::default()
        };
        resolve_deployment(&mut c, Side::Titans, &d);
        let hex = base_place(&c.state, "green_noa").unwrap();
        let here = c
            .state
            .units
            .values()
            .filter(|u| u.place == hex && u.type_id == "hizack")
            .count();
        assert!(here >= 2);
        assert!(c.state.sides[Side::Titans].sheet.is_empty());
        let (lines, _) = c.log.into_lines();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("deploys") && l.contains("green_noa (9.2)"))
        );
    }

    #[test]
    fn a_base_refuses_more_than_its_deployment_points_9_3() {
        let c = titans_produced(1, "hizack", 2, "hz");
        let e = unit_refusal(&c, Side::Titans, &at_base("hz", "green_noa"));
        assert_refused(&e, "9.3", "these need 2");
    }

    #[test]
    fn a_ship_takes_two_deployment_points_9_4() {
        let c = titans_produced(1, "alexandria", 1, "al");
        let e = unit_refusal(&c, Side::Titans, &at_base("al", "green_noa"));
        assert!(e.message.contains("these need 2"));
    }

    #[test]
    fn a_base_not_governed_by_the_side_is_refused_9_2() {
        let c = titans_produced(2, "hizack", 1, "hz");
        let e = legal_deploy_unit(
            &c,
            Side::Titans,
            &at_base("hz", "granada"),
            &FieldPath::root(),
        );
        let governed = c.state.bases.get("granada").and_then(|b| b.governor) == Some(Side::Titans);
        if !governed {
            let e = e.unwrap_err();
            assert_refused(&e, "9.2", "not governed by titans");
        }
    }

    #[test]
    fn an_unknown_label_is_refused_9_1() {
        let c = ctx(with_base(Side::Titans, "green_noa", 2));
        let e = unit_refusal(&c, Side::Titans, &at_base("x", "green_noa"));
        assert_refused(&e, "9.1", "no unit produced under the label");
    }

    #[test]
    fn naming_both_base_and_ship_is_refused_9_2() {
        let c = titans_produced(2, "hizack", 1, "hz");
        let mut item = at_base("hz", "green_noa");
        item.onto = Some("t-x".into());
        let e = unit_refusal(&c, Side::Titans, &item);
        assert!(e.message.contains("either a base or a ship"));
    }

    #[test]
    fn one_ms_may_deploy_onto_an_own_jupitris_once_29_3_1() {
        let mut c = ctx(titans_with_ship("jupitris", "t-jupitris-9"));
        produce(&mut c, Side::Titans, "hizack", 2, "hz");
        let onto = DeployUnit {
            count: Some(1),
            ..onto_ship("hz", "t-jupitris-9")
        };
        assert!(legal_deploy_unit(&c, Side::Titans, &onto, &FieldPath::root()).is_ok());
        apply_deploy_unit(&mut c, Side::Titans, &onto);
        let e = unit_refusal(&c, Side::Titans, &onto);
        assert_refused(&e, "29.2.6", "already took its MS");
        let two = DeployUnit {
            count: None,
            ..onto.clone()
        };
        let mut c2 = ctx(titans_with_ship("jupitris", "t-jupitris-9"));
        produce(&mut c2, Side::Titans, "hizack", 2, "hz");
        let e = unit_refusal(&c2, Side::Titans, &two);
        assert!(e.message.contains("one MS at a deployment"));
    }

    #[test]
    fn onto_a_ship_without_a_deployment_slot_is_refused_29_2_6() {
        let mut c = ctx(titans_with_ship("alexandria", "t-alexandria-9"));
        produce(&mut c, Side::Titans, "hizack", 1, "hz");
        let onto = onto_ship("hz", "t-alexandria-9");
        let e = unit_refusal(&c, Side::Titans, &onto);
        assert!(e.message.contains("not an own La Vie en Rose or Jupitris"));
    }

    #[test]
    fn an_undeployed_unit_returns_to_the_factory_box_a_8() {
        let mut c = titans_produced(2, "hizack", 1, "hz");
        resolve_deployment(&mut c, Side::Titans, &Deployment::default());
        assert_eq!(
            c.state.sides[Side::Titans].factory.get("hizack").copied(),
            Some(3)
        );
        let (lines, _) = c.log.into_lines();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("returns to the factory box"))
        );
    }

    #[test]
    fn check_refuses_a_packet_that_leaves_a_produced_unit_undeployed_a_8() {
        let mut c = Ctx::new(with_base(Side::Titans, "green_noa", 2), None, Moment::Check);
        let items = [ArmItem::Produce(Produce {
            type_id: "hizack".into(),
            count: 1,
            label: Some("hz".into()),
        })];
        let root = FieldPath::root();
        assert!(arming::simulate_armament(&mut c, Side::Titans, &items, &root).is_empty());
        let probs = simulate_deployment(&c, Side::Titans, &Deployment::default(), &root);
        assert_eq!(probs.len(), 1);
        assert!(probs[0].message.contains("produced but not deployed"));
        let ok = Deployment {
            units: vec![at_base("hz", "green_noa")],
            ..Deployment::default()
        };
        assert!(simulate_deployment(&c, Side::Titans, &ok, &root).is_empty());
    }

    #[test]
    fn a_deployment_alternative_is_chosen_on_the_others_production_f4() {
        let mut c = ctx(with_base(Side::Titans, "green_noa", 2));
        c.state.sides[Side::Aeug].produced.insert("nemo".into(), 2);
        let g = |min| {
            Some(Guard::Produced(Produced {
                side: Side::Aeug,
                type_id: Some("nemo".into()),
                min,
            }))
        };
        let alt = |min, base: &str| GuardedDeployment {
            guard: g(min),
            units: vec![at_base("hz", base)],
            characters: vec![],
        };
        let d = Deployment {
            alternatives: vec![alt(3, "a"), alt(2, "b")],
            units: vec![at_base("hz", "c")],
            ..Deployment::default()
        };
        let (u, _) = chosen(&c, Side::Titans, &d);
        assert_eq!(u[0].base.as_deref(), Some("b"));
        c.state.sides[Side::Aeug].produced.clear();
        let (u, _) = chosen(&c, Side::Titans, &d);
        assert_eq!(u[0].base.as_deref(), Some("c"));
    }

    #[test]
    fn a_deployment_guard_reading_the_board_is_refused_f4() {
        let c = Ctx::new(with_base(Side::Titans, "green_noa", 2), None, Moment::Check);
        let d = Deployment {
            alternatives: vec![GuardedDeployment {
                guard: Some(Guard::Turn(2)),
                ..GuardedDeployment::default()
            }],
            ..Deployment::default()
        };
        let probs = simulate_deployment(&c, Side::Titans, &d, &FieldPath::root());
        assert!(
            probs
                .iter()
                .any(|p| p.message.contains("may read only what"))
        );
    }

    #[test]
    fn a_character_is_placed_by_its_track_code_9_5() {
        let mut st = with_base(Side::Aeug, "green_noa", 2);
        unit(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        unit(&mut st, "a-garuda-1", Side::Aeug, "garuda", "ground:E05");
        let id = "judau".to_string();
        waiting(&mut st, &id, ArrivalCode::Space);
        let c = ctx(st);
        let item = |u: &str| DeployChar {
            char: id.clone(),
            aboard: Some(u.into()),
            at: None,
        };
        assert!(legal_char_place(&c, Side::Aeug, &item("a-argama-1"), &FieldPath::root()).is_ok());
        let e = char_refusal(&c, Side::Aeug, &item("a-garuda-1"));
        assert_refused(&e, "9.5", "the space map");
    }

    #[test]
    fn a_non_newtype_is_not_placed_aboard_a_mass_production_qubeley_29_6_2() {
        let mut st = state();
        unit(
            &mut st,
            "n-mp-qubeley-1",
            Side::NeoZeon,
            "mp_qubeley",
            "space:M03",
        );
        waiting(&mut st, "mineva", ArrivalCode::Any);
        waiting(&mut st, "haman", ArrivalCode::Any);
        let c = ctx(st);
        let item = |ch: &str| DeployChar {
            char: ch.into(),
            aboard: Some("n-mp-qubeley-1".into()),
            at: None,
        };
        let e = char_refusal(&c, Side::NeoZeon, &item("mineva"));
        assert_refused(&e, "29.6.2", "not a Newtype");
        assert!(legal_char_place(&c, Side::NeoZeon, &item("haman"), &FieldPath::root()).is_ok());
    }

    #[test]
    fn a_character_not_waiting_is_refused_9_5() {
        let mut st = state();
        unit(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        place_char(&mut st, "judau", CharPlace::Track);
        let c = ctx(st);
        let item = char_aboard("judau", "a-argama-1");
        let e = char_refusal(&c, Side::Aeug, &item);
        assert!(e.message.contains("not waiting for deployment"));
        let e = char_refusal(&c, Side::Titans, &item);
        assert!(e.message.contains("not a character of titans"));
    }

    #[test]
    fn with_x_is_anywhere_when_x_is_off_the_map_9_6() {
        let mut st = state();
        unit(&mut st, "n-gwadan-1", Side::NeoZeon, "gwadan", "space:C05");
        waiting(&mut st, "glemy", ArrivalCode::With("haman".into()));
        place_char(&mut st, "haman", CharPlace::Dead);
        let mut c = ctx(st);
        resolve_deployment(
            &mut c,
            Side::NeoZeon,
            &Deployment {
                characters: vec![char_aboard("glemy", "n-gwadan-1")],
                ..Deployment::default()
            },
        );
        assert_eq!(
            c.state.chars.get("glemy").map(|c| c.place.clone()),
            Some(CharPlace::Aboard("n-gwadan-1".into()))
        );
    }

    #[test]
    fn a_second_rider_on_an_ms_is_refused_a_90() {
        let mut st = state();
        unit(&mut st, "a-nemo-1", Side::Aeug, "nemo", "ground:E05");
        waiting(&mut st, "judau", ArrivalCode::Any);
        let other = st
            .chars
            .iter()
            .find(|(id, c)| c.side == Side::Aeug && id.as_str() != "judau")
            .map(|(id, _)| id.clone())
            .unwrap();
        place_char(&mut st, &other, CharPlace::Aboard("a-nemo-1".into()));
        let c = ctx(st);
        let item = char_aboard("judau", "a-nemo-1");
        let e = char_refusal(&c, Side::Aeug, &item);
        assert_eq!(e.rule.as_deref(), Some("13.10"));
    }

    #[test]
    fn a_character_alone_needs_own_units_and_a_base_hex_9_5_15_6() {
        let mut st = state();
        waiting(&mut st, "judau", ArrivalCode::Any);
        let loc = data_loc("space:C05");
        st.units.retain(|_, u| u.place != Place::Hex(loc));
        let c = ctx(st.clone());
        let item = DeployChar {
            char: "judau".into(),
            aboard: None,
            at: Some(loc),
        };
        let e = char_refusal(&c, Side::Aeug, &item);
        assert!(e.message.contains("no unit of aeug"));
        unit(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        let c = ctx(st);
        if bases_at(&c.state, Place::Hex(loc)).is_empty() {
            let e = char_refusal(&c, Side::Aeug, &item);
            assert_eq!(e.rule.as_deref(), Some("15.6"));
        }
    }

    fn data_loc(s: &str) -> crate::systems::zeta::data::Loc {
        crate::systems::zeta::data::Loc::parse(s).unwrap()
    }

    #[test]
    fn an_unplaced_character_takes_its_first_legal_place_4_2() {
        let mut st = state();
        unit(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
        waiting(&mut st, "judau", ArrivalCode::Space);
        let mut c = ctx(st);
        resolve_deployment(&mut c, Side::Aeug, &Deployment::default());
        assert!(matches!(
            c.state.chars.get("judau").map(|c| &c.place),
            Some(CharPlace::Aboard(_))
        ));
        let (_, private) = c.log.into_lines();
        assert!(
            private
                .get("aeug")
                .is_some_and(|l| l.iter().any(|l| l.contains("not placed by your orders")))
        );
    }

    #[test]
    fn the_jupiter_fleet_arrives_on_its_turn_33_1_33_2() {
        let mut st = state();
        st.turn = 2;
        st.sides[Side::Titans].stock.insert("jupitris".into(), 1);
        st.sides[Side::Titans].stock.insert("messala".into(), 2);
        let mut c = ctx(st);
        resolve_deployment(&mut c, Side::Titans, &Deployment::default());
        assert!(c.state.once.jupiter_arrived);
        let ship = c
            .state
            .units
            .iter()
            .find(|(_, u)| u.type_id == "jupitris" && u.place == Place::Jupiter)
            .map(|(id, _)| id.clone())
            .unwrap();
        assert!(
            c.state
                .units
                .values()
                .any(|u| u.type_id == "messala" && u.carrier.as_deref() == Some(ship.as_str()))
        );
        assert!(matches!(
            c.state.chars.get("scirocco_1").map(|c| &c.place),
            Some(CharPlace::Aboard(u)) if *u == ship
        ));
        // Once only.
        resolve_deployment(&mut c, Side::Aeug, &Deployment::default());
        let n = c
            .state
            .units
            .values()
            .filter(|u| u.type_id == "jupitris")
            .count();
        assert_eq!(n, 1);
    }

    #[test]
    fn gryps_2_appears_at_green_noa_at_its_level_31_1_31_2() {
        let mut st = state();
        st.turn = 5;
        if let Some(b) = st.bases.get_mut(GREEN_NOA) {
            b.governor = Some(Side::Titans);
            b.level = 2;
        }
        let mut c = ctx(st);
        resolve_deployment(&mut c, Side::Aeug, &Deployment::default());
        let g = c.state.bases.get("gryps_2").cloned().unwrap();
        assert_eq!(g.governor, Some(Side::Titans));
        assert_eq!(g.level, 2);
        assert_eq!(g.place, c.data.base_hex(GREEN_NOA).map(Place::Hex));
        assert!(c.state.once.gryps2_placed);
    }

    #[test]
    fn choices_list_the_legal_bases_for_a_label() {
        let c = titans_produced(2, "hizack", 1, "hz");
        let ch = deploy_unit_choices(&c, Side::Titans);
        assert!(
            ch.iter()
                .any(|c| c.item.base.as_deref() == Some("green_noa"))
        );
        assert!(ch.iter().all(|c| c.item.label == "hz"));
    }

    #[test]
    fn check_accepts_a_whole_packet_and_names_the_item_that_overspends_5_3_a_8() {
        use crate::systems::zeta::orders::{self, Augment, Orders};
        let st = state();
        let base = st
            .bases
            .iter()
            .filter(|(_, b)| b.governor == Some(Side::Aeug))
            .find(|(id, b)| {
                st.data
                    .base(id)
                    .and_then(|d| d.at_level(b.level))
                    .is_some_and(|v| v.deploy >= 1)
            })
            .map(|(id, _)| id.clone())
            .expect("AEUG starts with a base that deploys");
        let mut o = Orders {
            armament: vec![
                ArmItem::Augment(Augment {
                    type_id: "nemo".into(),
                    count: 1,
                }),
                ArmItem::Produce(Produce {
                    type_id: "nemo".into(),
                    count: 1,
                    label: Some("n".into()),
                }),
            ],
            deployment: Deployment {
                units: vec![at_base("n", &base)],
                ..Deployment::default()
            },
            ..Orders::default()
        };
        let mine = |o: &Orders| -> Vec<String> {
            orders::check(&st, "aeug", o)
                .into_iter()
                .map(|p| format!("{} {}", p.path, p.message))
                .filter(|p| p.contains("armament") || p.contains("deployment"))
                .collect()
        };
        assert_eq!(mine(&o), Vec::<String>::new());
        // Ten more counters cost 20P: more than any income; the produce still finds its
        // counter, so only the augment is named.
        o.armament.insert(
            0,
            ArmItem::Augment(Augment {
                type_id: "nemo".into(),
                count: 10,
            }),
        );
        let probs = mine(&o);
        assert_eq!(probs.len(), 1, "{probs:?}");
        assert!(probs[0].contains("armament"), "{probs:?}");
        // Without its deployment the produced unit is refused.
        o.armament.remove(0);
        o.deployment = Deployment::default();
        let probs = mine(&o);
        assert!(
            probs
                .iter()
                .any(|p| p.contains("produced but not deployed")),
            "{probs:?}"
        );
    }

    #[test]
    fn a_space_only_unit_is_refused_at_a_ground_base_2_4() {
        let mut st = with_base(Side::Titans, "jaburo", 1);
        st.sides[Side::Titans].factory.insert("gaza_c".into(), 1);
        let mut c = ctx(st);
        produce(&mut c, Side::Titans, "gaza_c", 1, "g");
        let e = unit_refusal(&c, Side::Titans, &at_base("g", "jaburo"));
        assert_refused(&e, "2.4", "cannot be used on the ground map");
    }

    #[test]
    fn a_base_without_deployment_points_is_refused_9_3() {
        let mut c = ctx(with_base(Side::Titans, "side_1", 1));
        produce(&mut c, Side::Titans, "hizack", 1, "hz");
        let e = unit_refusal(&c, Side::Titans, &at_base("hz", "side_1"));
        assert_refused(&e, "9.3", "no deployment points");
    }

    #[test]
    fn more_units_than_the_label_holds_are_refused_9_1() {
        let c = titans_produced(2, "hizack", 1, "hz");
        let mut item = at_base("hz", "green_noa");
        item.count = Some(2);
        let e = unit_refusal(&c, Side::Titans, &item);
        assert!(e.message.contains("2 unit(s) asked, 1 wait"));
    }

    #[test]
    fn a_full_jupitris_takes_no_ms_a_87() {
        let mut st = titans_with_ship("jupitris", "t-jupitris-9");
        let cap = st.data.unit_type("jupitris").map_or(0, |t| t.carry);
        for i in 0..cap {
            let id = format!("t-hizack-9{i}");
            unit(&mut st, &id, Side::Titans, "hizack", "space:A01");
            if let Some(u) = st.units.get_mut(&id) {
                u.carrier = Some("t-jupitris-9".into());
            }
        }
        let mut c = ctx(st);
        produce(&mut c, Side::Titans, "hizack", 1, "hz");
        let onto = onto_ship("hz", "t-jupitris-9");
        let e = unit_refusal(&c, Side::Titans, &onto);
        assert!(e.message.contains("no room for another MS"));
    }

    #[test]
    fn a_character_needs_exactly_one_of_aboard_and_at_9_5() {
        let mut st = state();
        waiting(&mut st, "judau", ArrivalCode::Any);
        let c = ctx(st);
        let item = DeployChar {
            char: "judau".into(),
            aboard: None,
            at: None,
        };
        let e = char_refusal(&c, Side::Aeug, &item);
        assert!(e.message.contains("either a unit (aboard) or a hex (at)"));
    }

    #[test]
    fn a_skipped_deployment_is_told_privately_9() {
        let mut c = ctx(with_base(Side::Titans, "green_noa", 2));
        resolve_deployment(
            &mut c,
            Side::Titans,
            &Deployment {
                units: vec![at_base("nothing", "green_noa")],
                ..Deployment::default()
            },
        );
        let (_, private) = c.log.into_lines();
        assert!(private.get("titans").is_some_and(|l| {
            l.iter()
                .any(|l| l.contains("deployment of \"nothing\" skipped"))
        }));
    }
}
