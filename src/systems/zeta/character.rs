//! Characters: the character phase (4: arrivals, growth, recovery rolls) and the survival
//! check (27). The phase runs at the end of the step that ends the previous turn (plan §0.1),
//! so its results are known before the next packet is written. Survival is zeta commit 9.

use super::ctx::Ctx;
use super::data::{ArrivalCode, Class, Place, Recovery, Side, Survival, UnitId};
use super::labels;
use super::state::{CharPlace, Transfer, Unit, Wound};
use crate::kit::reach;

/// 4.2-4.4 for every faction, for the turn `ctx.state.turn` that is about to begin.
pub fn character_phase(ctx: &mut Ctx<'_>) {
    arrivals(ctx);
    growth(ctx);
    recovery_checks(ctx);
    // 29.4.2, 29.5.1: Ple's transfers, after the turn's arrivals and recoveries.
    transfers(ctx);
}

/// 4.2: the track's characters wait for the next deployment, with the place it gives.
fn arrivals(ctx: &mut Ctx<'_>) {
    let list = ctx
        .data
        .turn(ctx.state.turn)
        .map(|e| e.arrivals.clone())
        .unwrap_or_default();
    for a in list {
        let Some(c) = ctx.state.chars.get_mut(&a.char) else {
            continue;
        };
        if c.place != CharPlace::Track {
            continue;
        }
        c.place = CharPlace::ToDeploy {
            code: a.code.clone(),
        };
        let side = c.side;
        reach::fire("4.2");
        ctx.log.public(format!(
            "{} arrives for {side} and is placed at the next deployment (4.2)",
            a.char
        ));
    }
}

/// 4.3: each (1) the track names becomes its (2) where it is; from a wounded box the
/// (2) comes onto the map at the next deployment. A (1) already dead or grown is ignored.
fn growth(ctx: &mut Ctx<'_>) {
    let list = ctx
        .data
        .turn(ctx.state.turn)
        .map(|e| e.growth.clone())
        .unwrap_or_default();
    for one in list {
        let Some(two) = ctx.data.character(&one).and_then(|c| c.grows_to.clone()) else {
            continue;
        };
        let Some(place) = ctx.state.chars.get(&one).map(|c| c.place.clone()) else {
            continue;
        };
        let next = match place {
            CharPlace::Dead | CharPlace::Replaced | CharPlace::OutOfGame => continue,
            CharPlace::Wounded(_) | CharPlace::Track => CharPlace::ToDeploy {
                code: ArrivalCode::Any,
            },
            other => other,
        };
        if let Some(c) = ctx.state.chars.get_mut(&one) {
            c.place = CharPlace::Replaced;
        }
        if let Some(c) = ctx.state.chars.get_mut(&two) {
            c.place = next;
        }
        reach::fire("4.3");
        ctx.log.public(format!("{one} grows into {two} (4.3)"));
    }
}

/// 4.4: one die for each character in a wounded box, on the box's table (A-30: worse from H
/// is death; A-7: a recovered character is placed anywhere at the next deployment).
fn recovery_checks(ctx: &mut Ctx<'_>) {
    let wounded: Vec<(String, Wound)> = ctx
        .state
        .chars
        .iter()
        .filter_map(|(id, c)| match c.place {
            CharPlace::Wounded(w) => Some((id.clone(), w)),
            _ => None,
        })
        .collect();
    let turn = ctx.state.turn;
    for (id, box_) in wounded {
        let label = labels::recovery(turn, &id);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let die = dice.d6(&label);
        let table = match box_ {
            Wound::L => &ctx.data.characters.wounds.l,
            Wound::M => &ctx.data.characters.wounds.m,
            Wound::H => &ctx.data.characters.wounds.h,
        };
        let result = usize::try_from(die)
            .ok()
            .and_then(|d| d.checked_sub(1))
            .and_then(|i| table.get(i))
            .copied()
            .unwrap_or(Recovery::N);
        let (next, rule, what) = match (result, box_) {
            (Recovery::R, _) => (
                Some(CharPlace::ToDeploy {
                    code: ArrivalCode::Any,
                }),
                "4.4.1",
                "recovers and is placed at the next deployment".to_string(),
            ),
            (Recovery::N, _) => (None, "4.4.2", "stays in its box".to_string()),
            (Recovery::W, Wound::L) => (
                Some(CharPlace::Wounded(Wound::M)),
                "4.4.3",
                "worsens to box M".to_string(),
            ),
            (Recovery::W, Wound::M) => (
                Some(CharPlace::Wounded(Wound::H)),
                "4.4.3",
                "worsens to box H".to_string(),
            ),
            (Recovery::W, Wound::H) | (Recovery::D, _) => {
                (Some(CharPlace::Dead), "4.4.4", "dies".to_string())
            }
        };
        dice.set_result(&label, format!("{result:?}"));
        if let Some(p) = next
            && let Some(c) = ctx.state.chars.get_mut(&id)
        {
            c.place = p;
        }
        reach::fire("4.4");
        reach::fire(rule);
        ctx.log.public(format!(
            "{id} in wounded box {box_:?} rolls {die}: {what} ({rule})"
        ));
    }
}

/// One survival check of `char` (27.3) with `modifier` added to the die (31.5.9: +1), rolled
/// under `label`; returns the table's result after applying it. Written once, in survival.rs.
pub fn survival(ctx: &mut Ctx<'_>, char: &str, modifier: u8, label: &str) -> Option<Survival> {
    super::survival::survival(ctx, char, modifier, label)
}

/// The type of both Qubeley Mk-II counters Ple rides (29.4), and Ple Two's (29.5).
const BLACK_QUBELEY: &str = "black_qubeley";
const RED_QUBELEY: &str = "red_qubeley";

/// 29.4.1: Neo Zeon's Ple got a D on a survival check (survival.rs calls this). She
/// and Neo Zeon's Black Qubeley Mk-II leave the game at once, wherever the counter is (map,
/// factory box, stock), not to the factory box, and Neo Zeon may never augment it again (7.3);
/// AEUG's Ple (29.4.2) and Neo Zeon's Ple Two (29.5.1) now wait for the next deployment,
/// placed by [`transfers`]. Once only.
pub fn ple_removed(ctx: &mut Ctx<'_>) {
    if ctx.state.once.ple_transfer.is_some() {
        return;
    }
    if let Some(c) = ctx.state.chars.get_mut("ple_nz") {
        c.place = CharPlace::OutOfGame;
    }
    let gone: Vec<String> = ctx
        .state
        .units
        .iter()
        .filter(|(_, u)| u.side == Side::NeoZeon && u.type_id == BLACK_QUBELEY)
        .map(|(id, _)| id.clone())
        .collect();
    let mut out = 0u8;
    for id in &gone {
        ctx.state.units.remove(id);
        out = out.saturating_add(1);
    }
    let sheet = &mut ctx.state.sides[Side::NeoZeon];
    for boxed in [&mut sheet.factory, &mut sheet.stock] {
        if let Some(n) = boxed.remove(BLACK_QUBELEY) {
            out = out.saturating_add(n);
        }
    }
    if out > 0 {
        let e = sheet.out_of_game.entry(BLACK_QUBELEY.into()).or_insert(0);
        *e = e.saturating_add(out);
    }
    sheet.permitted.remove(BLACK_QUBELEY);
    ctx.state.once.ple_transfer = Some(Transfer::Waiting);
    ctx.state.once.ple_two = Some(Transfer::Waiting);
    reach::fire("29.4.1");
    ctx.log.public(format!(
        "Neo Zeon's Ple leaves the game{}, and Neo Zeon may not augment the Black Qubeley \
         Mk-II again (29.4.1)",
        if gone.is_empty() {
            String::new()
        } else {
            format!(", with {}", gone.join(", "))
        }
    ));
}

/// 29.4.4: AEUG's Black Qubeley Mk-II leaves the game the first time it is removed, instead
/// of going to the factory box (damage.rs asks this).
pub fn leaves_the_game(side: Side, type_id: &str) -> bool {
    side == Side::Aeug && type_id == BLACK_QUBELEY
}

/// Where an anchor character stands (29.4.2: Judau; 29.5.1: Glemy), following a (1) to its
/// (2) after growth: `Ok(Some(place, ship))` on the board (with the ship an MS there rides),
/// `Ok(None)` not there yet (on the track, waiting to deploy, or wounded), `Err(())` dead or
/// out of the game.
fn anchor(ctx: &Ctx<'_>, char: &str) -> Result<Option<(Place, Option<UnitId>)>, ()> {
    let mut id = char.to_string();
    for _ in 0..4 {
        let Some(c) = ctx.state.chars.get(&id) else {
            return Err(());
        };
        match &c.place {
            CharPlace::Aboard(u) => {
                let Some(unit) = ctx.state.units.get(u) else {
                    return Ok(None);
                };
                let ship = match ctx.data.unit_type(&unit.type_id).map(|t| t.class) {
                    Some(Class::Ship) => Some(u.clone()),
                    _ => unit.carrier.clone(),
                };
                return Ok(Some((unit.place, ship)));
            }
            CharPlace::Solo(l) => return Ok(Some((Place::Hex(*l), None))),
            CharPlace::Track | CharPlace::ToDeploy { .. } | CharPlace::Wounded(_) => {
                return Ok(None);
            }
            CharPlace::Dead | CharPlace::OutOfGame => return Err(()),
            CharPlace::Replaced => match ctx.data.character(&id).and_then(|d| d.grows_to.clone()) {
                Some(next) => id = next,
                None => return Err(()),
            },
        }
    }
    Err(())
}

/// Takes one counter of `type_id` from `side`'s stock (else its factory box) for a unit that
/// comes without production (29.4.2, 29.5); `None` when the counter mix has none left.
fn take_counter(ctx: &mut Ctx<'_>, side: Side, type_id: &str) -> Option<UnitId> {
    let sheet = &mut ctx.state.sides[side];
    let from = [&mut sheet.stock, &mut sheet.factory]
        .into_iter()
        .find(|b| b.get(type_id).is_some_and(|n| *n > 0))?;
    if let Some(n) = from.get_mut(type_id) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            from.remove(type_id);
        }
    }
    Some(ctx.state.new_unit_id(side, type_id))
}

/// Puts `char` aboard a new `type_id` of `side` in `place` (riding `ship` when there is one),
/// ignoring deployment points (29.4.2, 29.5.1).
fn appear(
    ctx: &mut Ctx<'_>,
    side: Side,
    char: &str,
    type_id: &str,
    place: Place,
    ship: Option<UnitId>,
) -> Option<UnitId> {
    let id = take_counter(ctx, side, type_id)?;
    // 15.3: a ship full already carries nothing more; another own ship there with room
    // takes it, else it stands alone and the phase's end judges it (15.7).
    let has_room = |st: &super::state::State, s: &str| {
        super::carry::cargo_of(st, s).len() < super::carry::capacity(st, s)
    };
    let ship = ship.filter(|s| has_room(&ctx.state, s)).or_else(|| {
        ctx.state
            .units
            .iter()
            .filter(|(_, u)| u.side == side && u.place == place)
            .filter(|(_, u)| {
                ctx.data
                    .unit_type(&u.type_id)
                    .is_some_and(|t| t.class == Class::Ship)
            })
            .map(|(id, _)| id.clone())
            .find(|s| has_room(&ctx.state, s))
    });
    ctx.state.units.insert(
        id.clone(),
        Unit {
            side,
            type_id: type_id.into(),
            place,
            face: Default::default(),
            carrier: ship,
            action: None,
            atmo_moved: false,
            placed_this_phase: false,
        },
    );
    if let Some(c) = ctx.state.chars.get_mut(char) {
        c.place = CharPlace::Aboard(id.clone());
    }
    Some(id)
}

/// 29.4.2-29.4.3 and 29.5.1-29.5.2, in the character phase of each turn after Neo Zeon's
/// Ple's D (A-59: once each), so both are on the board before the turn's packet is written:
/// AEUG's Ple in a new Black Qubeley Mk-II in Judau's hex, waiting while Judau is not on the
/// board, never once he is dead; Neo Zeon's Ple Two in a new Red Qubeley Mk-II in Glemy's hex,
/// or by the normal deployment (Ple Two to be placed, the Red Qubeley awaiting deployment in
/// the packet) when Glemy is dead or wounded or not yet arrived (29.5.2, A-59).
pub fn transfers(ctx: &mut Ctx<'_>) {
    if ctx.state.once.ple_transfer == Some(Transfer::Waiting) {
        match anchor(ctx, "judau") {
            Err(()) => {
                ctx.state.once.ple_transfer = Some(Transfer::Never);
                reach::fire("29.4.3");
                ctx.log.public(
                    "Judau is dead: AEUG never receives Ple and the Black Qubeley Mk-II (29.4.3)"
                        .to_string(),
                );
            }
            Ok(None) => {
                reach::fire("29.4.3");
                ctx.log.public(
                    "Judau is not on the board: Ple and the Black Qubeley Mk-II wait for him \
                     (29.4.3)"
                        .to_string(),
                );
            }
            Ok(Some((place, ship))) => {
                ctx.state.once.ple_transfer = Some(Transfer::Done);
                match appear(ctx, Side::Aeug, "ple_aeug", BLACK_QUBELEY, place, ship) {
                    Some(id) => {
                        reach::fire("29.4.2");
                        ctx.log.public(format!(
                            "AEUG receives Ple in {id}, a Black Qubeley Mk-II, in Judau's hex \
                             {} (29.4.2)",
                            place.label()
                        ));
                    }
                    None => ctx.log.public(
                        "AEUG has no Black Qubeley Mk-II counter left: no transfer (29.4.2)"
                            .to_string(),
                    ),
                }
            }
        }
    }
    if ctx.state.once.ple_two == Some(Transfer::Waiting) {
        ctx.state.once.ple_two = Some(Transfer::Done);
        match anchor(ctx, "glemy") {
            Ok(Some((place, ship))) => {
                if let Some(id) = appear(ctx, Side::NeoZeon, "ple_two", RED_QUBELEY, place, ship) {
                    reach::fire("29.5.1");
                    ctx.log.public(format!(
                        "Neo Zeon receives Ple Two in {id}, a Red Qubeley Mk-II, in Glemy's hex \
                         {} (29.5.1)",
                        place.label()
                    ));
                }
            }
            _ => {
                if let Some(c) = ctx.state.chars.get_mut("ple_two") {
                    c.place = CharPlace::ToDeploy {
                        code: ArrivalCode::Any,
                    };
                }
                let unit = take_counter(ctx, Side::NeoZeon, RED_QUBELEY);
                if let Some(id) = &unit {
                    ctx.state.sides[Side::NeoZeon]
                        .sheet
                        .awaiting
                        .insert(id.clone(), RED_QUBELEY.into());
                }
                reach::fire("29.5.2");
                ctx.log.public(format!(
                    "Glemy is not on the board: Ple Two{} are deployed normally this turn \
                     (29.5.2)",
                    unit.map(|id| format!(" and {id}, a Red Qubeley Mk-II (label {RED_QUBELEY}),"))
                        .unwrap_or_default()
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::ctx::Moment;
    use crate::systems::zeta::deploy::fixture::state;
    use crate::systems::zeta::state::State;

    fn dice(seed: u8) -> Dice {
        Dice::new(Hash32([seed; 32]), Hash32([0x5a; 32]))
    }

    /// A seed whose roll under `label` is `want`.
    fn seed_for(label: &str, want: u32) -> u8 {
        (0..=255u8)
            .find(|s| dice(*s).d6(label) == want)
            .expect("some seed rolls it")
    }

    fn run(st: State, seed: u8) -> (State, Vec<String>) {
        let mut d = dice(seed);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        character_phase(&mut c);
        let (lines, _) = c.log.into_lines();
        (c.state, lines)
    }

    fn wounded(st: &mut State, id: &str, w: Wound) {
        if let Some(c) = st.chars.get_mut(id) {
            c.place = CharPlace::Wounded(w);
        }
    }

    #[test]
    fn the_tracks_arrivals_wait_for_deployment_4_2() {
        let mut st = state();
        // Judau arrives on turn 5 (plan §12, F8).
        st.turn = 5;
        if let Some(c) = st.chars.get_mut("judau") {
            c.place = CharPlace::Track;
        }
        let (st, lines) = run(st, 1);
        assert_eq!(
            st.chars.get("judau").map(|c| c.place.clone()),
            Some(CharPlace::ToDeploy {
                code: ArrivalCode::Space
            })
        );
        assert!(lines.iter().any(|l| l.contains("judau arrives for aeug")));
    }

    #[test]
    fn growth_swaps_one_for_two_where_it_stands_4_3() {
        let mut st = state();
        st.turn = 3;
        if let Some(c) = st.chars.get_mut("kamille_1") {
            c.place = CharPlace::Aboard("a-argama-1".into());
        }
        let (st, lines) = run(st, 1);
        assert_eq!(
            st.chars.get("kamille_1").map(|c| c.place.clone()),
            Some(CharPlace::Replaced)
        );
        assert_eq!(
            st.chars.get("kamille_2").map(|c| c.place.clone()),
            Some(CharPlace::Aboard("a-argama-1".into()))
        );
        assert!(lines.iter().any(|l| l.contains("grows into kamille_2")));
    }

    #[test]
    fn growth_from_a_wounded_box_heals_and_deploys_4_3() {
        let mut st = state();
        st.turn = 3;
        wounded(&mut st, "emma_1", Wound::H);
        let (st, _) = run(st, 1);
        assert_eq!(
            st.chars.get("emma_2").map(|c| c.place.clone()),
            Some(CharPlace::ToDeploy {
                code: ArrivalCode::Any
            })
        );
    }

    #[test]
    fn growth_of_a_dead_one_is_ignored_a_31() {
        let mut st = state();
        st.turn = 3;
        if let Some(c) = st.chars.get_mut("jerid_1") {
            c.place = CharPlace::Dead;
        }
        let before = st.chars.get("jerid_2").cloned();
        let (st, _) = run(st, 1);
        assert_eq!(st.chars.get("jerid_2").cloned(), before);
        assert_eq!(
            st.chars.get("jerid_1").map(|c| c.place.clone()),
            Some(CharPlace::Dead)
        );
    }

    #[test]
    fn a_recovered_character_is_placed_at_the_next_deployment_4_4_1() {
        let mut st = state();
        st.turn = 2;
        wounded(&mut st, "kacricon", Wound::L);
        let seed = seed_for(&labels::recovery(2, "kacricon"), 1);
        let (st, lines) = run(st, seed);
        assert_eq!(
            st.chars.get("kacricon").map(|c| c.place.clone()),
            Some(CharPlace::ToDeploy {
                code: ArrivalCode::Any
            })
        );
        assert!(lines.iter().any(|l| l.contains("rolls 1: recovers")));
    }

    #[test]
    fn no_effect_leaves_the_character_in_its_box_4_4_2() {
        let mut st = state();
        st.turn = 2;
        wounded(&mut st, "kacricon", Wound::L);
        let seed = seed_for(&labels::recovery(2, "kacricon"), 5);
        let (st, _) = run(st, seed);
        assert_eq!(
            st.chars.get("kacricon").map(|c| c.place.clone()),
            Some(CharPlace::Wounded(Wound::L))
        );
    }

    #[test]
    fn worse_moves_to_the_box_on_the_right_4_4_3() {
        let mut st = state();
        st.turn = 2;
        wounded(&mut st, "kacricon", Wound::L);
        let seed = seed_for(&labels::recovery(2, "kacricon"), 6);
        let (st, _) = run(st, seed);
        assert_eq!(
            st.chars.get("kacricon").map(|c| c.place.clone()),
            Some(CharPlace::Wounded(Wound::M))
        );
    }

    #[test]
    fn worse_from_h_and_death_remove_the_character_4_4_4_a_30() {
        for die in [5, 6] {
            let mut st = state();
            st.turn = 2;
            wounded(&mut st, "kacricon", Wound::H);
            let seed = seed_for(&labels::recovery(2, "kacricon"), die);
            let (st, lines) = run(st, seed);
            assert_eq!(
                st.chars.get("kacricon").map(|c| c.place.clone()),
                Some(CharPlace::Dead)
            );
            assert!(lines.iter().any(|l| l.contains("dies (4.4.4)")));
        }
    }

    #[test]
    fn ple_and_the_black_qubeley_leave_the_game_29_4_1() {
        let mut st = crate::systems::zeta::deploy::fixture::state();
        crate::systems::zeta::deploy::fixture::unit(
            &mut st,
            "n-black_qubeley-91",
            Side::NeoZeon,
            "black_qubeley",
            "space:C05",
        );
        let mut c = Ctx::new(st, None, crate::systems::zeta::ctx::Moment::Resolve);
        ple_removed(&mut c);
        assert_eq!(c.state.chars["ple_nz"].place, CharPlace::OutOfGame);
        assert!(!c.state.units.contains_key("n-black_qubeley-91"));
        assert_eq!(c.state.once.ple_transfer, Some(Transfer::Waiting));
        assert_eq!(c.state.once.ple_two, Some(Transfer::Waiting));
        let (lines, _) = c.log.into_lines();
        assert!(lines.iter().any(|l| l.contains("(29.4.1)")), "{lines:?}");
    }
}

#[cfg(test)]
#[path = "ple_tests.rs"]
mod ple_tests;
