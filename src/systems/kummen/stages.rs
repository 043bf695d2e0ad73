//! The story stages (12), Kiriko and Ypsilon (13), and the stage part of final scoring (14.2.3).
//!
//! Stage changes come in two kinds (12.3). A scheduled change flips the turn marker
//! (`State::next_stage`) and happens at the next turn start (T0), before that turn's checks
//! (A49). An immediate change happens right after the combat that caused it, before the next
//! combat hex is chosen (A51); units it places make new combat hexes this phase (A12). Every
//! check rolls one public die under its own label, e.g. `t4/t0/escape` or
//! `t6/p8/combat/O06/r2/sd-arrival`.
//!
//! The functions here are called from small hooks in the phases: `steps` (T0), `combat` (round
//! start and end, losses, after each hex, retreat), `survey` and `end`.

use super::combat::Group;
use super::data::{Class, Role, Side};
use super::state::{Log, Place, Stage, State};
use crate::kit::hex::Hex;
use crate::kit::reach::fire;
use crate::protocol::dice::Dice;
use std::collections::{BTreeMap, BTreeSet};

/// Who destroyed whom in one hex's combat: each destroyed unit with the attackers whose roll
/// succeeded (`base` for a base attack). Every successful roll counts as "by" its attacker (A16).
pub type Kills = BTreeMap<String, Vec<String>>;

/// Strike Dog may move, fight and retreat only this many hexes from the palace (12.10, 12.12).
pub const SD_ZONE: u32 = 3;

/// A readable name: number and story title.
pub fn name(stage: Stage) -> &'static str {
    match stage {
        Stage::Initial => "the initial stage",
        Stage::Stage1 => "stage 1 (Encounter)",
        Stage::Stage2 => "stage 2 (Kiriko imprisoned)",
        Stage::Stage3 => "stage 3 (Kiriko returns)",
        Stage::Stage4 => "stage 4 (Fyana watches)",
        Stage::Stage5 => "stage 5 (Kiriko departs)",
        Stage::Stage6 => "stage 6 (Palace infiltration)",
        Stage::Stage7 => "stage 7 (Proto One completed)",
        Stage::Stage8 => "stage 8 (Ypsilon awakens)",
    }
}

/// The rule that describes a stage.
fn rule(stage: Stage) -> &'static str {
    match stage {
        Stage::Initial => "12.4",
        Stage::Stage1 => "12.5",
        Stage::Stage2 => "12.6",
        Stage::Stage3 => "12.7",
        Stage::Stage4 => "12.8",
        Stage::Stage5 => "12.9",
        Stage::Stage6 => "12.10",
        Stage::Stage7 => "12.11",
        Stage::Stage8 => "12.12",
    }
}

fn palace(state: &State) -> Hex {
    state.map.home(Side::Beeler)
}

fn has_role(state: &State, units: &BTreeSet<String>, role: Role) -> bool {
    units.iter().any(|u| state.role_of(u) == Some(role))
}

fn place_of(state: &State, id: &str) -> Option<Place> {
    state.unit(id).map(|u| u.place)
}

/// Puts a unit face-up in `hex` (stage placements and returns are face-up: A17, A21).
fn set_face_up_at(state: &mut State, id: &str, hex: Hex) {
    state.set_hex(id, hex);
    if let Some(mut u) = state.units.get_mut(id) {
        u.face_up = true;
        u.token = None;
        u.moved = false;
    }
}

/// 12.3: a stage change "at the start of the next turn" flips the turn marker; a second such
/// result in the same turn is ignored. The marker is always cleared at the next T0, so a marker
/// already flipped was flipped this turn.
pub fn schedule(state: &mut State, to: Stage, log: &mut Log, tag: &str, why: &str) {
    fire("12.3");
    if let Some(already) = state.next_stage {
        log.public(format!(
            "{tag}: {} would begin next turn ({why}), but the turn marker is already flipped for {}: ignored (12.3)",
            name(to),
            name(already)
        ));
        return;
    }
    state.next_stage = Some(to);
    fire("2.2.6");
    log.public(format!(
        "{tag}: {} begins at the start of next turn; the turn marker is flipped ({why}, 12.3)",
        name(to)
    ));
}

/// Moves the story to `to` now and applies its entry effects (12.5-12.12). `tag` names the
/// moment and prefixes the dice labels: `t4/t0` at a turn start, `t4/p8/combat/K07` after a
/// combat.
pub fn enter(state: &mut State, to: Stage, dice: &mut Dice, log: &mut Log, tag: &str, why: &str) {
    state.stage = to;
    fire("12.1");
    fire(match to {
        Stage::Initial => "12.2",
        Stage::Stage1 => "12.4",
        Stage::Stage2 => "12.5",
        Stage::Stage3 | Stage::Stage4 => "12.7",
        Stage::Stage5 | Stage::Stage6 => "12.9",
        Stage::Stage7 => "12.11",
        Stage::Stage8 => "12.12",
    });
    log.public(format!(
        "{tag}: the story moves to {} ({why}; {})",
        name(to),
        rule(to)
    ));
    match to {
        Stage::Initial | Stage::Stage4 | Stage::Stage6 => {}
        Stage::Stage1 => kanyu_home(state, log, tag, "12.5"),
        Stage::Stage2 => blue_to_palace(state, log, tag),
        Stage::Stage3 => {
            kanyu_home(state, log, tag, "12.7");
            let label = format!("{tag}/stage3-vp");
            let r = dice.two_d6(&label);
            fire("10.3");
            dice.set_result(&label, format!("mercenary +{r} VP"));
            state.vp[Side::Mercenary] += i64::from(r);
            log.public(format!(
                "{tag}: Kiriko is back: 2D = {r}, mercenary +{r} VP (12.7)"
            ));
            schedule(state, Stage::Stage4, log, tag, "12.7");
        }
        Stage::Stage5 => {
            remove(state, Role::BlueAt, log, tag, "12.9");
            schedule(state, Stage::Stage6, log, tag, "12.9");
        }
        Stage::Stage7 => {
            let label = format!("{tag}/stage7-vp");
            let r = dice.two_d6(&label);
            fire("10.3");
            dice.set_result(&label, format!("beeler +{r} VP"));
            state.vp[Side::Beeler] += i64::from(r);
            log.public(format!(
                "{tag}: Proto One is complete: 2D = {r}, beeler +{r} VP (12.11)"
            ));
            place_from_stock(state, Role::ProtoOne, log, tag, "12.11");
            schedule(state, Stage::Stage8, log, tag, "12.11");
        }
        Stage::Stage8 => {
            place_from_stock(state, Role::StrikeDog, log, tag, "12.12");
            remove(state, Role::BlueAt, log, tag, "12.12");
        }
    }
    // 2.2.5: Kan-Yu's values follow the stage (`State::values`); say which apply now.
    if let Some(k) = state.counters.with_role(Role::Kanyu)
        && place_of(state, &k) != Some(Place::Removed)
    {
        let v = state.values(&k);
        log.public(format!(
            "{tag}: Kan-Yu is now {}-{} (2.2.5)",
            v.attack, v.defense
        ));
    }
}

/// 12.5, 12.7: Kan-Yu goes home to EX-10, face-up; the event shows where he was (A21). A
/// destroyed Kan-Yu is already on his way home (9.10.4).
fn kanyu_home(state: &mut State, log: &mut Log, tag: &str, rule: &str) {
    let Some(k) = state.counters.with_role(Role::Kanyu) else {
        return;
    };
    let Some(at) = state.hex_of(&k) else {
        return;
    };
    let from = state.public_name(&k);
    let home = state.map.home(Side::Mercenary);
    set_face_up_at(state, &k, home);
    log.public(format!(
        "{tag}: Kan-Yu ({from} in {at}) returns face-up to EX-10 ({home}) ({})",
        super::ruling(rule, "A21", "sent back face-up, as a table would see it")
    ));
}

/// 12.6: Blue AT goes back to the palace, face-up (A21). A destroyed Blue AT goes there at the
/// end of the phase anyway (9.10.4).
fn blue_to_palace(state: &mut State, log: &mut Log, tag: &str) {
    let Some(b) = state.counters.with_role(Role::BlueAt) else {
        return;
    };
    let Some(at) = state.hex_of(&b) else {
        if place_of(state, &b) == Some(Place::Returning) {
            log.public(format!(
                "{tag}: {b} was destroyed and goes to the palace at the end of the phase (12.6, 9.10.4)"
            ));
        }
        return;
    };
    let home = palace(state);
    let from = state.public_name(&b);
    fire("12.6");
    set_face_up_at(state, &b, home);
    log.public(format!(
        "{tag}: {b} ({from} in {at}) returns face-up to the palace ({home}) ({})",
        super::ruling("12.6", "A21", "sent back face-up, as a table would see it")
    ));
}

/// Removes the unit with `role` from the game (12.9, 12.12), wherever it is.
fn remove(state: &mut State, role: Role, log: &mut Log, tag: &str, rule: &str) {
    let Some(id) = state.counters.with_role(role) else {
        return;
    };
    if place_of(state, &id) == Some(Place::Removed) {
        return;
    }
    let at = state
        .hex_of(&id)
        .map(|h| format!(" in {h}"))
        .unwrap_or_default();
    state.set_off_map(&id, Place::Removed, true);
    log.public(format!("{tag}: {id}{at} is removed from the game ({rule})"));
}

/// Places the unit with `role` from stock face-up in the palace (12.10, 12.11, 12.12).
fn place_from_stock(state: &mut State, role: Role, log: &mut Log, tag: &str, rule: &str) {
    let Some(id) = state.counters.with_role(role) else {
        return;
    };
    if place_of(state, &id) != Some(Place::Stock) {
        return;
    }
    let p = palace(state);
    set_face_up_at(state, &id, p);
    log.public(format!(
        "{tag}: {id} is placed face-up in the palace ({p}) ({rule})"
    ));
}

/// T0 of a turn (A49): the change the turn marker announced, with its entry effects (12.3),
/// then the turn-start checks: the escape check in stage 2 (12.6) and Strike Dog's arrival in
/// stage 6 (12.10). Phase 1 follows.
pub fn turn_start(state: &mut State, dice: &mut Dice, log: &mut Log) {
    let tag = format!("t{}/t0", state.turn);
    if let Some(to) = state.next_stage.take() {
        fire("12.3");
        enter(
            state,
            to,
            dice,
            log,
            &tag,
            "the turn marker was flipped, 12.3",
        );
    }
    match state.stage {
        Stage::Stage2 => escape_check(state, dice, log, &tag),
        Stage::Stage6 => sd_turn_check(state, dice, log, &tag),
        _ => {}
    }
}

/// 12.6: the mercenary side rolls 1D + m; 5 or more brings stage 3 at the start of next turn.
/// Any other result adds 1 to m for every later check (2.2.9; cumulative, A19). Stage 2 is only
/// ever entered during a turn, so the first check is at the next turn start (A34).
fn escape_check(state: &mut State, dice: &mut Dice, log: &mut Log, tag: &str) {
    let label = format!("{tag}/escape");
    let d = dice.d6(&label);
    fire("12.6");
    let m = state.modifiers.escape;
    let total = d + m;
    if total >= 5 {
        dice.set_result(
            &label,
            format!("1D+{m} = {total}: escape, stage 3 next turn"),
        );
        log.public(format!(
            "{tag}: escape check 1D = {d} +{m} = {total}, 5 or more: Kiriko escapes (12.6)"
        ));
        schedule(state, Stage::Stage3, log, tag, "12.6");
    } else {
        fire("2.2.9");
        state.modifiers.escape += 1;
        dice.set_result(
            &label,
            format!(
                "1D+{m} = {total}: no effect; modifier now +{}",
                state.modifiers.escape
            ),
        );
        log.public(format!(
            "{tag}: escape check 1D = {d} +{m} = {total}, below 5: no effect; later escape checks get +{} (12.6, 2.2.9)",
            state.modifiers.escape
        ));
    }
}

/// 12.10: while Strike Dog is still in stock, the beeler side rolls 1D at every turn start of
/// stage 6, the turn it begins included (A20); a 6 places it face-up in the palace. This check
/// has no modifier and failures add none.
fn sd_turn_check(state: &mut State, dice: &mut Dice, log: &mut Log, tag: &str) {
    let Some(sd) = state.counters.with_role(Role::StrikeDog) else {
        return;
    };
    if place_of(state, &sd) != Some(Place::Stock) {
        return;
    }
    let label = format!("{tag}/sd-arrival");
    let d = dice.d6(&label);
    fire("12.10");
    if d == 6 {
        dice.set_result(&label, "6: Strike Dog arrives");
        log.public(format!(
            "{tag}: Strike Dog arrival check 1D = {d}: it arrives (12.10)"
        ));
        place_from_stock(state, Role::StrikeDog, log, tag, "12.10");
    } else {
        dice.set_result(&label, "not 6: no arrival");
        log.public(format!(
            "{tag}: Strike Dog arrival check 1D = {d}, not 6: it does not arrive (12.10)"
        ));
    }
}

/// Start of a combat phase: no palace combat has been fought in it yet (14.2.3).
pub fn combat_phase_start(state: &mut State) {
    state.palace_combat_with_kanyu = false;
}

/// Start of one hex's combat, with its first participants (A22): a palace combat records
/// whether Kan-Yu takes part from its start (14.2.3, A24).
pub fn combat_start(state: &mut State, hex: Hex, took_part: &BTreeSet<String>) {
    if hex == palace(state) {
        state.palace_combat_with_kanyu = has_role(state, took_part, Role::Kanyu);
    }
}

/// 12.10: at the start of each round of a palace combat in stage 6 before Strike Dog has arrived
/// (it is still in stock), the beeler side rolls 1D + m; 4 or more places it face-up in the
/// palace, fighting from this round. A failure adds 1 to m for every later check (cumulative,
/// A19). `checked` holds the last round already checked, so no round is rolled twice. No round
/// starts once the mercenary side has no face-up unit left there, nor after round 1 once the
/// beeler side has none (the combat is over, 9.7). Round 1 is checked even with no beeler
/// defender (a base-attack-only combat, 9.3): an arriving Strike Dog defends. True if SD arrived.
pub fn round_start(
    state: &mut State,
    dice: &mut Dice,
    log: &mut Log,
    hex: Hex,
    tag: &str,
    round: u32,
    checked: &mut u32,
) -> bool {
    if *checked >= round {
        return false;
    }
    *checked = round;
    let Some(sd) = state.counters.with_role(Role::StrikeDog) else {
        return false;
    };
    if state.stage != Stage::Stage6
        || hex != palace(state)
        || place_of(state, &sd) != Some(Place::Stock)
        || state.active_face_up(hex, Side::Mercenary).is_empty()
        || (round > 1 && state.active_face_up(hex, Side::Beeler).is_empty())
    {
        return false;
    }
    let label = format!("{tag}/r{round}/sd-arrival");
    let d = dice.d6(&label);
    fire("12.10");
    let m = state.modifiers.sd_arrival;
    let total = d + m;
    if total >= 4 {
        dice.set_result(&label, format!("1D+{m} = {total}: Strike Dog arrives"));
        log.public(format!(
            "{tag}/r{round}: Strike Dog arrival check 1D = {d} +{m} = {total}, 4 or more: it arrives (12.10)"
        ));
        place_from_stock(
            state,
            Role::StrikeDog,
            log,
            &format!("{tag}/r{round}"),
            "12.10",
        );
        true
    } else {
        fire("2.2.9");
        state.modifiers.sd_arrival += 1;
        dice.set_result(
            &label,
            format!(
                "1D+{m} = {total}: no arrival; modifier now +{}",
                state.modifiers.sd_arrival
            ),
        );
        log.public(format!(
            "{tag}/r{round}: Strike Dog arrival check 1D = {d} +{m} = {total}, below 4: it does not arrive; later checks get +{} (12.10, 2.2.9)",
            state.modifiers.sd_arrival
        ));
        false
    }
}

/// 12.10: at the end of each round of a palace combat in stage 6 in which Strike Dog fights, when
/// another round follows (A18: Strike Dog and a mercenary unit are still face-up there), the
/// mercenary side rolls 1D + k while Kiriko is in stock; 4 or less brings Kiriko in from the next
/// round, compulsorily, from stock and face-up (A17). A failure adds 1 to k for every later
/// check: the book's +1, taken literally although it makes Kiriko less likely (A18). True if
/// Kiriko joined.
pub fn round_end(
    state: &mut State,
    dice: &mut Dice,
    log: &mut Log,
    hex: Hex,
    tag: &str,
    round: u32,
) -> bool {
    let (Some(sd), Some(kiriko)) = (
        state.counters.with_role(Role::StrikeDog),
        state.counters.with_role(Role::Kiriko),
    ) else {
        return false;
    };
    if state.stage != Stage::Stage6
        || hex != palace(state)
        || !state.active_face_up(hex, Side::Beeler).contains(&sd)
        || state.active_face_up(hex, Side::Mercenary).is_empty()
        || place_of(state, &kiriko) != Some(Place::Stock)
    {
        return false;
    }
    let label = format!("{tag}/r{round}/kiriko");
    let d = dice.d6(&label);
    fire("12.10");
    let k = state.modifiers.kiriko;
    let total = d + k;
    if total <= 4 {
        dice.set_result(&label, format!("1D+{k} = {total}: Kiriko joins next round"));
        log.public(format!(
            "{tag}/r{round}: Kiriko check 1D = {d} +{k} = {total}, 4 or less: Kiriko joins the mercenary side from the next round (12.10)"
        ));
        place_from_stock(
            state,
            Role::Kiriko,
            log,
            &format!("{tag}/r{round}"),
            &super::ruling("12.10", "A17", "Kiriko enters face-up from stock"),
        );
        true
    } else {
        fire("2.2.9");
        state.modifiers.kiriko += 1;
        dice.set_result(
            &label,
            format!(
                "1D+{k} = {total}: Kiriko does not come; modifier now +{}",
                state.modifiers.kiriko
            ),
        );
        log.public(format!(
            "{tag}/r{round}: Kiriko check 1D = {d} +{k} = {total}, above 4: Kiriko does not come; later checks get +{} ({})",
            state.modifiers.kiriko,
            super::ruling("12.10", "A18", "+1 per failure, as written")
        ));
        false
    }
}

/// 13.1: when Strike Dog and Kiriko are in the same combat (only ever the palace), Strike Dog's
/// group must hold Kiriko. Applied to the groups the pairing made: Kiriko swaps places with one
/// mercenary unit of Strike Dog's group, so every group keeps its size and the balance of 9.8.3
/// still holds.
pub fn duel_groups(state: &State, groups: &mut [Group]) {
    let (Some(sd), Some(kiriko)) = (
        state.counters.with_role(Role::StrikeDog),
        state.counters.with_role(Role::Kiriko),
    ) else {
        return;
    };
    let gs = groups.iter().position(|g| g.b.contains(&sd));
    let gk = groups.iter().position(|g| g.m.contains(&kiriko));
    let (Some(gs), Some(gk)) = (gs, gk) else {
        return;
    };
    fire("13.1");
    if gs == gk {
        return;
    }
    let Some(partner) = groups[gs].m.first().cloned() else {
        return;
    };
    for u in groups[gs].m.iter_mut() {
        if *u == partner {
            *u = kiriko.clone();
        }
    }
    for u in groups[gk].m.iter_mut() {
        if *u == kiriko {
            *u = partner.clone();
        }
    }
}

/// 13.1: Strike Dog attacks Kiriko whenever both fight (after `duel_groups` they share a group).
pub fn duel_targets(state: &State, aims: &mut BTreeMap<String, String>) {
    let (Some(sd), Some(kiriko)) = (
        state.counters.with_role(Role::StrikeDog),
        state.counters.with_role(Role::Kiriko),
    ) else {
        return;
    };
    if aims.contains_key(&sd) && aims.contains_key(&kiriko) {
        fire("13.1");
        aims.insert(sd, kiriko);
    }
}

/// 10.2: the mercenary side scores nothing for a PS destroyed by Kiriko in stage 6. A16: only
/// when Kiriko's was the only successful roll on it.
pub fn kiriko_only_kill(state: &State, by: &[String]) -> bool {
    state.stage == Stage::Stage6
        && !by.is_empty()
        && by.iter().all(|a| state.role_of(a) == Some(Role::Kiriko))
}

/// After a round's losses: 13.2, Kiriko destroying Strike Dog leaves the game (A16: his roll
/// succeeded). 13.3 needs nothing here: a destroyed Kiriko is always removed (A17), and Strike
/// Dog then attacks freely.
pub fn after_losses(state: &mut State, log: &mut Log, tag: &str, hits: &Kills) {
    let Some(kiriko) = state.counters.with_role(Role::Kiriko) else {
        return;
    };
    for (dead, by) in hits {
        if state.role_of(dead) == Some(Role::StrikeDog)
            && by.contains(&kiriko)
            && place_of(state, &kiriko) == Some(Place::Map)
        {
            fire("13.2");
            state.set_off_map(&kiriko, Place::Removed, true);
            log.public(format!(
                "{tag}: {kiriko} destroyed Strike Dog and is removed from the game (13.2)"
            ));
        }
    }
}

/// Adds one volley's kills to the combat's record.
pub fn add_kills(kills: &mut Kills, hits: &Kills) {
    for (dead, by) in hits {
        kills
            .entry(dead.clone())
            .or_default()
            .extend(by.iter().cloned());
    }
}

/// After one hex's combat, before the next combat hex (A51): whenever Kan-Yu and Blue AT both
/// took part (A22; they need not have attacked each other), 12.4 in the initial stage, the
/// encounter check in stage 1 (12.5) or the watch check in stage 4 (12.8). Then Kiriko, if he
/// is still on the map, goes back to stock (A17). `tag` is the combat's tag
/// (`t3/p4/combat/K07`).
pub fn after_combat(
    state: &mut State,
    dice: &mut Dice,
    log: &mut Log,
    tag: &str,
    took_part: &BTreeSet<String>,
    kills: &Kills,
) {
    let both = has_role(state, took_part, Role::Kanyu) && has_role(state, took_part, Role::BlueAt);
    if both {
        match state.stage {
            Stage::Initial => schedule(
                state,
                Stage::Stage1,
                log,
                tag,
                "Kan-Yu and Blue AT fought in the same combat, 12.4",
            ),
            Stage::Stage1 => encounter(state, dice, log, tag, kills),
            Stage::Stage4 => watch(state, dice, log, tag, kills),
            _ => {}
        }
    }
    if let Some(kiriko) = state.counters.with_role(Role::Kiriko)
        && place_of(state, &kiriko) == Some(Place::Map)
    {
        state.set_off_map(&kiriko, Place::Stock, true);
        log.public(format!(
            "{tag}: {kiriko} leaves the battlefield and goes back to stock ({})",
            super::ruling("12.10", "A17", "Kiriko belongs to the palace combat only")
        ));
    }
}

/// Whether Blue AT's roll was among those that destroyed Kan-Yu (12.5, 12.8; A16).
fn blue_killed_kanyu(state: &State, kills: &Kills) -> bool {
    kills.iter().any(|(dead, by)| {
        state.role_of(dead) == Some(Role::Kanyu)
            && by.iter().any(|a| state.role_of(a) == Some(Role::BlueAt))
    })
}

/// Whether Blue AT was destroyed in this combat, by anyone, base attacks included (12.8).
fn blue_destroyed(state: &State, kills: &Kills) -> bool {
    kills
        .keys()
        .any(|dead| state.role_of(dead) == Some(Role::BlueAt))
}

/// 12.5, after a combat in stage 1 with Kan-Yu and Blue AT. If Blue AT's attack destroyed
/// Kan-Yu, stage 2 begins at once without a roll. Otherwise the mercenary side rolls 1D: 1-2
/// gives it 4 VP and the story stays; 3-6 begins stage 2 at once. Made after every such combat
/// (A52).
fn encounter(state: &mut State, dice: &mut Dice, log: &mut Log, tag: &str, kills: &Kills) {
    fire("12.5");
    if blue_killed_kanyu(state, kills) {
        enter(
            state,
            Stage::Stage2,
            dice,
            log,
            tag,
            "Blue AT destroyed Kan-Yu: no encounter check, 12.5",
        );
        return;
    }
    let label = format!("{tag}/encounter");
    let d = dice.d6(&label);
    if d <= 2 {
        dice.set_result(&label, "1-2: mercenary +4 VP");
        fire("10.3");
        state.vp[Side::Mercenary] += 4;
        log.public(format!(
            "{tag}: encounter check 1D = {d}: mercenary +4 VP (12.5)"
        ));
    } else {
        dice.set_result(&label, "3-6: stage 2 at once");
        log.public(format!(
            "{tag}: encounter check 1D = {d}: Kiriko is captured (12.5)"
        ));
        enter(
            state,
            Stage::Stage2,
            dice,
            log,
            tag,
            "encounter check 3-6, 12.5",
        );
    }
}

/// 12.8, after a combat in stage 4 with Kan-Yu and Blue AT: the beeler side rolls 1D, +1 if
/// Blue AT's attack destroyed Kan-Yu (not another unit's), -1 if Blue AT was destroyed (by
/// anyone). 0-5: stage 5 at once; 6: beeler +3 VP; 7: stage 7 at once.
fn watch(state: &mut State, dice: &mut Dice, log: &mut Log, tag: &str, kills: &Kills) {
    let plus = i64::from(blue_killed_kanyu(state, kills));
    let minus = i64::from(blue_destroyed(state, kills));
    let label = format!("{tag}/watch");
    let d = dice.d6(&label);
    fire("12.8");
    let total = i64::from(d) + plus - minus;
    let mut mods = String::new();
    if plus > 0 {
        mods.push_str(" +1 (Blue AT destroyed Kan-Yu)");
    }
    if minus > 0 {
        mods.push_str(" -1 (Blue AT destroyed)");
    }
    log.public(format!(
        "{tag}: watch check 1D = {d}{mods} = {total} (12.8)"
    ));
    match total {
        i64::MIN..=5 => {
            dice.set_result(&label, format!("{total}: stage 5 at once"));
            enter(
                state,
                Stage::Stage5,
                dice,
                log,
                tag,
                "watch check 0-5, 12.8",
            );
        }
        6 => {
            dice.set_result(&label, "6: beeler +3 VP");
            fire("10.3");
            state.vp[Side::Beeler] += 3;
            log.public(format!("{tag}: Fyana watches on: beeler +3 VP (12.8)"));
        }
        _ => {
            dice.set_result(&label, "7: stage 7 at once");
            enter(state, Stage::Stage7, dice, log, tag, "watch check 7, 12.8");
        }
    }
}

/// A12: hexes that now hold face-up units of both sides and are not already waiting: a stage
/// effect placed a unit there during the phase, so they are fought this phase too (keeping
/// 2.3.3-2 true after the phase). Hexes whose combat already ended with both sides still there
/// (a standoff, A13) are left as they are.
pub fn new_combat_hexes(state: &State, waiting: &[Hex], standoffs: &BTreeSet<Hex>) -> Vec<Hex> {
    state
        .occupied_hexes()
        .into_iter()
        .filter(|h| !waiting.contains(h) && !standoffs.contains(h))
        .filter(|h| {
            !state.active_face_up(*h, Side::Mercenary).is_empty()
                && !state.active_face_up(*h, Side::Beeler).is_empty()
        })
        .collect()
}

/// Whether unit `id` is bound to Strike Dog's zone now (12.10, 12.12).
pub fn zone_bound(state: &State, id: &str) -> bool {
    state.role_of(id) == Some(Role::StrikeDog)
        && matches!(state.stage, Stage::Stage6 | Stage::Stage8)
}

/// Whether `hex` lies in Strike Dog's zone (12.10, 12.12).
pub fn in_zone(state: &State, hex: Hex) -> bool {
    state.map.grid.distance(hex, palace(state)) <= SD_ZONE
}

/// A retreat with Strike Dog bound to its zone (12.10, 12.12). Takes the retreating ground units
/// and the legal retreat hexes (best first); returns the units the caller still has to move, or
/// `None` when the side cannot retreat at all (Strike Dog alone, no legal hex in the zone: the
/// caller then applies 9.11.8 or 9.11.12). Strike Dog goes to the best legal hex in the zone. If
/// there is none while the others can retreat, it leaves the combat and goes to the palace at
/// the end of the phase, not destroyed (9.11.12, A42).
pub fn zone_retreat(
    state: &mut State,
    log: &mut Log,
    tag: &str,
    ground: Vec<String>,
    dests: &[Hex],
) -> Option<Vec<String>> {
    if dests.is_empty() || !ground.iter().any(|u| zone_bound(state, u)) {
        return Some(ground);
    }
    let (bound, rest): (Vec<String>, Vec<String>) =
        ground.into_iter().partition(|u| zone_bound(state, u));
    match dests.iter().copied().find(|h| in_zone(state, *h)) {
        Some(z) => {
            fire("12.10");
            for u in &bound {
                state.set_hex(u, z);
            }
            log.public(format!(
                "{tag}: {} retreats to {z}, within {SD_ZONE} hexes of the palace (9.11.9, 12.10)",
                bound.join(", ")
            ));
            Some(rest)
        }
        None if rest.is_empty() => None,
        None => {
            fire("12.10");
            fire("9.11.12");
            for u in &bound {
                state.set_off_map(u, Place::Returning, true);
            }
            log.public(format!(
                "{tag}: {} has no retreat hex within {SD_ZONE} hexes of the palace and returns to the palace at the end of the phase ({})",
                bound.join(", "),
                super::ruling("12.10, 9.11.12", "A42", "it leaves the combat at once")
            ));
            Some(rest)
        }
    }
}

/// 12.7, 12.8: in stages 3 and 4, a beeler unit flipped by the survey in the hex where Kan-Yu is
/// (either face, A23) gives the mercenary side 3 VP. Called once per flipped unit.
pub fn survey_bonus(state: &mut State, hex: Hex, log: &mut Log, tag: &str) {
    if !matches!(state.stage, Stage::Stage3 | Stage::Stage4) {
        return;
    }
    let Some(k) = state.counters.with_role(Role::Kanyu) else {
        return;
    };
    if state.hex_of(&k) != Some(hex) {
        return;
    }
    state.vp[Side::Mercenary] += 3;
    fire("10.3");
    fire(if state.stage == Stage::Stage3 {
        "12.7"
    } else {
        "12.8"
    });
    let rule = if state.stage == Stage::Stage3 {
        "12.7"
    } else {
        "12.8"
    };
    log.public(format!(
        "{tag}: the unit was found where Kan-Yu is ({hex}): mercenary +3 VP ({})",
        super::ruling(rule, "A23", "Kan-Yu in the hex, either face")
    ));
}

/// 14.2.3 (A24), when the mercenary side holds the palace at the end of a game in stages 3-8:
/// 5 VP if Kan-Yu is in the palace, and 1 VP for each other mercenary AT or soldier there
/// (helis and Kiriko score nothing). Nothing at all unless Kan-Yu took part in the palace
/// combat from its start; if he did and was destroyed in it, the others still score.
pub fn palace_bonus(state: &mut State, log: &mut Log) {
    if !matches!(
        state.stage,
        Stage::Stage3
            | Stage::Stage4
            | Stage::Stage5
            | Stage::Stage6
            | Stage::Stage7
            | Stage::Stage8
    ) {
        return;
    }
    if !state.palace_combat_with_kanyu {
        log.public(
            "end: Kan-Yu did not take part in the palace combat from its start: no VP from 14.2.3",
        );
        return;
    }
    fire("14.2.3");
    let p = palace(state);
    let mut kanyu = 0;
    let mut others = 0;
    for id in state.side_units_in(p, Side::Mercenary) {
        match state.role_of(&id) {
            Some(Role::Kanyu) => kanyu = 5,
            Some(Role::Kiriko) => {}
            _ if matches!(state.class_of(&id), Some(Class::At | Class::Soldier)) => others += 1,
            _ => {}
        }
    }
    state.vp[Side::Mercenary] += kanyu + others;
    log.public(format!(
        "end: Kan-Yu led the assault on the palace: {kanyu} VP for Kan-Yu there, {others} VP for the other ATs and soldiers there (14.2.3)"
    ));
}

#[cfg(test)]
mod tests {
    use super::super::combat::{CombatPhase, pair, targets};
    use super::super::fixtures::*;
    use super::super::orders::RetreatWhen;
    use super::super::state::Step;
    use super::super::{reinforce, steps, survey};
    use super::*;
    use crate::protocol::dice::Roll;
    use crate::protocol::hash::Hash32;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn kills(v: &[(&str, &[&str])]) -> Kills {
        v.iter()
            .map(|(dead, by)| (dead.to_string(), ids(by)))
            .collect()
    }

    fn finished(d: Dice) -> Vec<Roll> {
        match d.finish() {
            Ok(t) => t.public,
            Err(e) => panic!("dice defects: {e:?}"),
        }
    }

    fn rolled(rolls: &[Roll], label: &str) -> Option<u32> {
        rolls
            .iter()
            .find(|r| r.label == label)
            .map(|r| r.values.iter().sum())
    }

    fn place(s: &State, id: &str) -> Place {
        s.unit(id).unwrap().place
    }

    /// Runs one combat phase and returns its log and dice.
    fn fight(s: &mut State, seed: Hash32, tag: &str, pp: Side) -> (Log, Vec<Roll>) {
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        CombatPhase {
            state: s,
            dice: &mut d,
            log: &mut log,
            phase_player: pp,
            tag: tag.into(),
        }
        .run();
        (log, finished(d))
    }

    fn has(log: &Log, text: &str) -> bool {
        log.public.iter().any(|e| e.contains(text))
    }

    fn t0(s: &mut State, seed: Hash32) -> (Log, Vec<Roll>) {
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        turn_start(s, &mut d, &mut log);
        (log, finished(d))
    }

    fn after(
        s: &mut State,
        seed: Hash32,
        tag: &str,
        took: &[&str],
        k: &[(&str, &[&str])],
    ) -> (Log, Vec<Roll>) {
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        after_combat(s, &mut d, &mut log, tag, &set(took), &kills(k));
        (log, finished(d))
    }

    const TAG: &str = "t2/p4/combat/J07";

    // ---- 12.3 ----------------------------------------------------------------------------

    #[test]
    fn a_second_next_turn_change_in_the_same_turn_is_ignored_12_3() {
        let mut s = blank();
        let mut log = Log::default();
        schedule(&mut s, Stage::Stage1, &mut log, "t1/p4", "12.4");
        schedule(&mut s, Stage::Stage3, &mut log, "t1/p8", "test");
        assert_eq!(s.next_stage, Some(Stage::Stage1));
        assert!(has(&log, "ignored (12.3)"));
        // Two qualifying combats in one turn: one change only.
        let mut s = blank();
        after(
            &mut s,
            seed(0),
            "t1/p4/combat/J07",
            &["M-KANYU", "B-BLUE"],
            &[],
        );
        let (log, _) = after(
            &mut s,
            seed(0),
            "t1/p8/combat/K07",
            &["M-KANYU", "B-BLUE"],
            &[],
        );
        assert_eq!(s.next_stage, Some(Stage::Stage1));
        assert_eq!(s.stage, Stage::Initial);
        assert!(has(&log, "ignored (12.3)"));
    }

    #[test]
    fn a_scheduled_change_happens_at_the_next_turn_start_and_clears_the_marker_12_3() {
        let mut s = blank();
        s.stage = Stage::Stage3;
        s.next_stage = Some(Stage::Stage4);
        s.turn = 6;
        let (_, rolls) = t0(&mut s, seed(0));
        assert_eq!(s.stage, Stage::Stage4);
        assert_eq!(s.next_stage, None);
        assert!(rolls.is_empty(), "entering stage 4 rolls nothing");
    }

    // ---- 12.4 ----------------------------------------------------------------------------

    #[test]
    fn kan_yu_and_blue_at_in_one_combat_bring_stage_1_next_turn_12_4_12_5() {
        let mut s = blank();
        s.turn = 1;
        // Kan-Yu does not attack Blue AT (his attack cannot hit); M-AT01 destroys it.
        values(&mut s, "blue_at", 0, 7);
        values(&mut s, "merc_at", 30, 4);
        put(&mut s, "M-KANYU", "J07", true);
        put(&mut s, "M-AT01", "J07", true);
        put(&mut s, "B-BLUE", "J07", true);
        s.counters.types.get_mut("kanyu").unwrap().attack = 0;
        s.counters
            .types
            .get_mut("kanyu")
            .unwrap()
            .boosted
            .as_mut()
            .unwrap()
            .attack = 0;
        let (log, _) = fight(&mut s, seed(1), "t1/p4", Side::Beeler);
        assert!(has(&log, "B-BLUE destroyed"), "{:?}", log.public);
        assert_eq!(
            s.stage,
            Stage::Initial,
            "the change waits for the next turn"
        );
        assert_eq!(s.next_stage, Some(Stage::Stage1));
        // Next turn start: stage 1; Kan-Yu goes home face-up and uses 12-6.
        s.place_face_down(&["M-KANYU".to_string()], h("F07"));
        s.turn = 2;
        let mut d = Dice::new(seed(2), KEY);
        let mut log = Log::default();
        steps::next_turn(&mut s, &mut d, &mut log);
        finished(d);
        assert_eq!(s.stage, Stage::Stage1);
        assert_eq!(s.next_stage, None);
        assert_eq!(s.hex_of("M-KANYU"), Some(h("B08")));
        assert!(s.unit("M-KANYU").unwrap().face_up);
        assert!(has(&log, "returns face-up to EX-10"), "{:?}", log.public);
        assert_eq!(s.values("M-KANYU").defense, 6);
    }

    #[test]
    fn no_stage_1_without_both_kan_yu_and_blue_at_12_4() {
        let mut s = blank();
        after(&mut s, seed(0), TAG, &["M-KANYU", "B-AT01"], &[]);
        after(
            &mut s,
            seed(0),
            "t1/p4/combat/K07",
            &["M-AT01", "B-BLUE"],
            &[],
        );
        assert_eq!(s.next_stage, None);
    }

    // ---- 12.5 ----------------------------------------------------------------------------

    fn stage1() -> State {
        let mut s = blank();
        s.stage = Stage::Stage1;
        s.turn = 2;
        put(&mut s, "M-KANYU", "J07", true);
        put(&mut s, "B-BLUE", "J07", true);
        s
    }

    #[test]
    fn encounter_check_1_or_2_gives_mercenary_4_vp_after_every_such_combat_12_5_a52() {
        let mut s = stage1();
        let sd = seed_where(&[
            (&format!("{TAG}/encounter"), 1, 1..=2),
            ("t2/p8/combat/J07/encounter", 1, 1..=2),
        ]);
        let (log, _) = after(&mut s, sd, TAG, &["M-KANYU", "B-BLUE"], &[]);
        assert!(has(&log, "(12.5)"));
        assert_eq!(s.vp[Side::Mercenary], 4);
        assert_eq!(s.stage, Stage::Stage1);
        after(&mut s, sd, "t2/p8/combat/J07", &["M-KANYU", "B-BLUE"], &[]);
        assert_eq!(
            s.vp[Side::Mercenary],
            8,
            "a second qualifying combat checks again (A52)"
        );
        assert_eq!(s.stage, Stage::Stage1);
    }

    #[test]
    fn encounter_check_3_to_6_enters_stage_2_at_once_blue_at_home_kan_yu_11_5_12_5_12_6() {
        let mut s = stage1();
        assert_eq!(s.values("M-KANYU").attack, 12);
        let sd = seed_where(&[(&format!("{TAG}/encounter"), 1, 3..=6)]);
        after(&mut s, sd, TAG, &["M-KANYU", "B-BLUE"], &[]);
        assert_eq!(s.stage, Stage::Stage2);
        assert_eq!(s.next_stage, None);
        assert_eq!(s.vp[Side::Mercenary], 0);
        assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
        assert!(s.unit("B-BLUE").unwrap().face_up);
        assert_eq!(s.values("M-KANYU").attack, 11);
        assert_eq!(s.values("M-KANYU").defense, 5);
    }

    #[test]
    fn blue_at_destroying_kan_yu_enters_stage_2_without_a_roll_12_5() {
        let mut s = stage1();
        s.set_off_map("M-KANYU", Place::Returning, true);
        let (log, rolls) = after(
            &mut s,
            seed(0),
            TAG,
            &["M-KANYU", "B-BLUE"],
            &[("M-KANYU", &["B-BLUE", "B-AT01"])],
        );
        assert_eq!(s.stage, Stage::Stage2);
        assert!(rolls.is_empty(), "no encounter check: {rolls:?}");
        assert!(has(&log, "no encounter check"));
        // Another unit's kill is not Blue AT's: the check is made.
        let mut s = stage1();
        let (_, rolls) = after(
            &mut s,
            seed(0),
            TAG,
            &["M-KANYU", "B-BLUE"],
            &[("M-KANYU", &["B-AT01"])],
        );
        assert!(rolled(&rolls, &format!("{TAG}/encounter")).is_some());
    }

    #[test]
    fn a_destroyed_blue_at_still_goes_home_at_the_end_of_the_phase_in_stage_2_12_6_9_10_4() {
        let mut s = stage1();
        s.set_off_map("B-BLUE", Place::Returning, true);
        let sd = seed_where(&[(&format!("{TAG}/encounter"), 1, 3..=6)]);
        after(
            &mut s,
            sd,
            TAG,
            &["M-KANYU", "B-BLUE"],
            &[("B-BLUE", &["M-KANYU"])],
        );
        assert_eq!(s.stage, Stage::Stage2);
        assert_eq!(place(&s, "B-BLUE"), Place::Returning);
    }

    // ---- 12.6 ----------------------------------------------------------------------------

    fn stage2(turn: u32) -> State {
        let mut s = blank();
        s.stage = Stage::Stage2;
        s.turn = turn;
        s
    }

    #[test]
    fn escape_check_5_or_6_schedules_stage_3_for_the_next_turn_12_6() {
        let mut s = stage2(4);
        let (log, _) = t0(&mut s, seed_where(&[("t4/t0/escape", 1, 5..=6)]));
        assert_eq!(s.stage, Stage::Stage2);
        assert_eq!(s.next_stage, Some(Stage::Stage3));
        assert!(has(&log, "Kiriko escapes (12.6)"));
        assert_eq!(s.modifiers.escape, 0);
    }

    #[test]
    fn escape_check_failure_adds_one_to_the_next_check_12_6() {
        let mut s = stage2(4);
        t0(&mut s, seed_where(&[("t4/t0/escape", 1, 4..=4)]));
        assert_eq!(s.next_stage, None);
        assert_eq!(s.modifiers.escape, 1);
        // A 4 fails alone but succeeds with the +1.
        s.turn = 5;
        t0(&mut s, seed_where(&[("t5/t0/escape", 1, 4..=4)]));
        assert_eq!(s.next_stage, Some(Stage::Stage3));
    }

    #[test]
    fn escape_modifier_is_cumulative_12_6_2_2_9() {
        let mut s = stage2(3);
        for t in 3..6 {
            s.turn = t;
            t0(
                &mut s,
                seed_where(&[(&format!("t{t}/t0/escape"), 1, 1..=1)]),
            );
        }
        assert_eq!(s.modifiers.escape, 3);
        assert_eq!(s.next_stage, None);
        s.turn = 6;
        t0(&mut s, seed_where(&[("t6/t0/escape", 1, 2..=2)]));
        assert_eq!(s.next_stage, Some(Stage::Stage3), "2 + 3 = 5");
    }

    // ---- 12.7 ----------------------------------------------------------------------------

    #[test]
    fn entering_stage_3_brings_kan_yu_home_scores_2d_and_schedules_stage_4_12_7() {
        let mut s = stage2(5);
        s.next_stage = Some(Stage::Stage3);
        s.modifiers.escape = 2;
        s.place_face_down(&["M-KANYU".to_string()], h("F07"));
        let (log, rolls) = t0(&mut s, seed(3));
        assert_eq!(s.stage, Stage::Stage3);
        assert_eq!(s.next_stage, Some(Stage::Stage4));
        assert_eq!(s.hex_of("M-KANYU"), Some(h("B08")));
        assert!(s.unit("M-KANYU").unwrap().face_up);
        let r = rolled(&rolls, "t5/t0/stage3-vp").unwrap();
        assert_eq!(s.vp[Side::Mercenary], i64::from(r));
        assert!(
            rolled(&rolls, "t5/t0/escape").is_none(),
            "no escape check in stage 3"
        );
        assert_eq!(s.values("M-KANYU").attack, 12);
        assert!(
            has(&log, "M#1 in F07"),
            "the return shows where he was (A21)"
        );
    }

    fn survey_run(s: &mut State, units: &[&str], seed: Hash32) -> Log {
        let o = super::super::orders::SurveyOrder {
            hex: h("K07"),
            units: Some(ids(units)),
            targets: vec![],
            stop_after: None,
        };
        let (plans, problems) = survey::plan(s, &[o]);
        assert!(problems.is_empty(), "{problems:?}");
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        survey::run(s, &plans, &mut d, &mut log);
        finished(d);
        log
    }

    fn survey_state(stage: Stage, kanyu_at: &str) -> State {
        let mut s = blank();
        s.stage = stage;
        s.turn = 3;
        put(&mut s, "M-SO01", "K07", true);
        put(&mut s, "M-SO02", "K07", true);
        put(&mut s, "M-KANYU", kanyu_at, false); // either face (A23)
        s.place_face_down(&ids(&["B-SO01", "B-SO02", "B-AT01"]), h("K07"));
        s
    }

    #[test]
    fn survey_in_kan_yus_hex_scores_3_vp_per_unit_flipped_in_stages_3_and_4_12_7_12_8() {
        let sd = seed_where(&[
            ("t3/p6/survey/K07/M-SO01", 1, 1..=5),
            ("t3/p6/survey/K07/M-SO02", 1, 1..=5),
        ]);
        for stage in [Stage::Stage3, Stage::Stage4] {
            let mut s = survey_state(stage, "K07");
            let log = survey_run(&mut s, &["M-SO01", "M-SO02"], sd);
            assert_eq!(s.vp[Side::Mercenary], 6, "{:?}", log.public);
        }
        // Elsewhere, or in another stage: nothing.
        let mut s = survey_state(Stage::Stage3, "K08");
        survey_run(&mut s, &["M-SO01", "M-SO02"], sd);
        assert_eq!(s.vp[Side::Mercenary], 0);
        let mut s = survey_state(Stage::Stage2, "K07");
        survey_run(&mut s, &["M-SO01", "M-SO02"], sd);
        assert_eq!(s.vp[Side::Mercenary], 0);
    }

    #[test]
    fn a_failed_survey_scores_nothing_12_7() {
        let sd = seed_where(&[("t3/p6/survey/K07/M-SO01", 1, 6..=6)]);
        let mut s = survey_state(Stage::Stage3, "K07");
        survey_run(&mut s, &["M-SO01"], sd);
        assert_eq!(s.vp[Side::Mercenary], 0);
    }

    // ---- 12.8 ----------------------------------------------------------------------------

    fn stage4() -> State {
        let mut s = blank();
        s.stage = Stage::Stage4;
        s.turn = 5;
        put(&mut s, "M-KANYU", "J07", true);
        put(&mut s, "B-BLUE", "J07", true);
        s
    }

    fn watch_with(roll: u32, k: &[(&str, &[&str])]) -> (State, Log, Vec<Roll>) {
        let mut s = stage4();
        let sd = seed_where(&[(&format!("{TAG}/watch"), 1, roll..=roll)]);
        let (log, rolls) = after(&mut s, sd, TAG, &["M-KANYU", "B-BLUE"], k);
        (s, log, rolls)
    }

    #[test]
    fn watch_check_6_gives_beeler_3_vp_12_8() {
        let (s, log, _) = watch_with(6, &[]);
        assert_eq!(s.stage, Stage::Stage4);
        assert_eq!(s.vp[Side::Beeler], 3);
        assert!(has(&log, "beeler +3 VP (12.8)"));
    }

    #[test]
    fn watch_check_0_to_5_enters_stage_5_at_once_12_8_12_9() {
        for roll in 1..=5 {
            let (s, _, _) = watch_with(roll, &[]);
            assert_eq!(s.stage, Stage::Stage5);
            assert_eq!(place(&s, "B-BLUE"), Place::Removed, "12.9");
            assert_eq!(s.next_stage, Some(Stage::Stage6), "12.9");
            assert_eq!(s.values("M-KANYU").attack, 11, "12.9: 11-5 again");
            assert_eq!(s.vp[Side::Beeler], 0);
        }
    }

    #[test]
    fn watch_check_gets_plus_1_when_blue_at_destroyed_kan_yu_12_8() {
        // 6 + 1 = 7: stage 7 instead of 3 VP.
        let (s, _, _) = watch_with(6, &[("M-KANYU", &["B-BLUE"])]);
        assert_eq!(s.stage, Stage::Stage7);
    }

    #[test]
    fn watch_check_gets_no_plus_1_when_another_unit_destroyed_kan_yu_12_8() {
        let (s, _, _) = watch_with(6, &[("M-KANYU", &["B-AT01"])]);
        assert_eq!(s.stage, Stage::Stage4);
        assert_eq!(s.vp[Side::Beeler], 3);
    }

    #[test]
    fn watch_check_gets_minus_1_when_blue_at_is_destroyed_by_anyone_12_8() {
        // 6 - 1 = 5: stage 5 instead of 3 VP, even when Kan-Yu did not do it.
        let (s, _, _) = watch_with(6, &[("B-BLUE", &["M-AT01"])]);
        assert_eq!(s.stage, Stage::Stage5);
        let (s, _, _) = watch_with(6, &[("B-BLUE", &["base"])]);
        assert_eq!(s.stage, Stage::Stage5);
        // 1 - 1 = 0 is still stage 5.
        let (s, log, _) = watch_with(1, &[("B-BLUE", &["M-KANYU"])]);
        assert_eq!(s.stage, Stage::Stage5);
        assert!(has(&log, "= 0 (12.8)"), "{:?}", log.public);
    }

    #[test]
    fn watch_check_modifiers_add_up_12_8() {
        let (s, _, _) = watch_with(6, &[("M-KANYU", &["B-BLUE"]), ("B-BLUE", &["M-KANYU"])]);
        assert_eq!(s.stage, Stage::Stage4);
        assert_eq!(s.vp[Side::Beeler], 3);
    }

    #[test]
    fn watch_check_follows_a_real_combat_where_both_fall_12_8() {
        let mut s = stage4();
        values(&mut s, "kanyu", 30, 6);
        values(&mut s, "blue_at", 30, 7);
        let sd = seed_where(&[(&format!("{TAG}/watch"), 1, 6..=6)]);
        let (log, _) = fight(&mut s, sd, "t2/p4", Side::Beeler);
        assert!(has(&log, "M-KANYU destroyed") && has(&log, "B-BLUE destroyed"));
        // +1 and -1: 6, beeler +3 VP; also 6 PS experience for Kan-Yu (10.1). Mercenary +5 (10.2).
        assert_eq!(s.stage, Stage::Stage4);
        assert_eq!(s.vp[Side::Beeler], 9);
        assert_eq!(s.vp[Side::Mercenary], 5);
        // Both go home at the end of the phase (9.10.4).
        assert_eq!(s.hex_of("M-KANYU"), Some(h("B08")));
        assert_eq!(s.hex_of("B-BLUE"), Some(h("O06")));
    }

    // ---- 12.9 ----------------------------------------------------------------------------

    #[test]
    fn stage_5_removes_blue_at_even_on_its_way_home_12_9_9_10_4() {
        let mut s = stage4();
        s.set_off_map("B-BLUE", Place::Returning, true);
        let mut d = Dice::new(seed(0), KEY);
        let mut log = Log::default();
        enter(&mut s, Stage::Stage5, &mut d, &mut log, TAG, "test");
        assert_eq!(place(&s, "B-BLUE"), Place::Removed);
        assert_eq!(s.next_stage, Some(Stage::Stage6));
        // Stage 6 follows at the next turn start.
        s.turn = 6;
        t0(&mut s, seed(0));
        assert_eq!(s.stage, Stage::Stage6);
    }

    // ---- 12.10 ---------------------------------------------------------------------------

    fn stage6(turn: u32) -> State {
        let mut s = blank();
        s.stage = Stage::Stage6;
        s.turn = turn;
        s
    }

    #[test]
    fn strike_dog_arrives_at_a_turn_start_on_a_6_only_without_modifier_12_10() {
        let mut s = stage6(3);
        t0(&mut s, seed_where(&[("t3/t0/sd-arrival", 1, 5..=5)]));
        assert_eq!(place(&s, "B-SD"), Place::Stock);
        assert_eq!(s.modifiers.sd_arrival, 0, "no modifier at turn start");
        s.turn = 4;
        t0(&mut s, seed_where(&[("t4/t0/sd-arrival", 1, 5..=5)]));
        assert_eq!(place(&s, "B-SD"), Place::Stock, "a 5 never becomes a 6");
        s.turn = 5;
        t0(&mut s, seed_where(&[("t5/t0/sd-arrival", 1, 6..=6)]));
        assert_eq!(s.hex_of("B-SD"), Some(h("O06")));
        assert!(s.unit("B-SD").unwrap().face_up);
        // Once it has arrived the check stops (A20).
        s.turn = 6;
        let (_, rolls) = t0(&mut s, seed(0));
        assert!(rolls.is_empty());
    }

    #[test]
    fn the_strike_dog_turn_check_is_made_on_the_turn_stage_6_begins_a20_a49() {
        let mut s = blank();
        s.stage = Stage::Stage5;
        s.next_stage = Some(Stage::Stage6);
        s.turn = 7;
        t0(&mut s, seed_where(&[("t7/t0/sd-arrival", 1, 6..=6)]));
        assert_eq!(s.stage, Stage::Stage6);
        assert_eq!(s.hex_of("B-SD"), Some(h("O06")));
    }

    fn palace_round_start(s: &mut State, round: u32, seed: Hash32) -> bool {
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        let mut checked = round - 1;
        let r = round_start(
            s,
            &mut d,
            &mut log,
            h("O06"),
            "t6/p8/combat/O06",
            round,
            &mut checked,
        );
        finished(d);
        r
    }

    #[test]
    fn strike_dog_arrival_in_a_palace_combat_needs_4_and_each_failure_adds_1_12_10() {
        let mut s = stage6(6);
        put(&mut s, "M-AT01", "O06", true);
        put(&mut s, "B-SO01", "O06", true);
        let l1 = "t6/p8/combat/O06/r1/sd-arrival";
        let l2 = "t6/p8/combat/O06/r2/sd-arrival";
        let l3 = "t6/p8/combat/O06/r3/sd-arrival";
        assert!(!palace_round_start(
            &mut s,
            1,
            seed_where(&[(l1, 1, 2..=2)])
        ));
        assert_eq!(s.modifiers.sd_arrival, 1);
        assert!(!palace_round_start(
            &mut s,
            2,
            seed_where(&[(l2, 1, 2..=2)])
        ));
        assert_eq!(s.modifiers.sd_arrival, 2, "cumulative");
        assert_eq!(place(&s, "B-SD"), Place::Stock);
        // 2 + 2 = 4: it arrives.
        assert!(palace_round_start(&mut s, 3, seed_where(&[(l3, 1, 2..=2)])));
        assert_eq!(s.hex_of("B-SD"), Some(h("O06")));
        // No further check once it is there.
        let mut s2 = s.clone();
        assert!(!palace_round_start(&mut s2, 4, seed(0)));
    }

    #[test]
    fn no_strike_dog_arrival_once_the_palace_defenders_are_gone_9_7_12_10() {
        let mut s = stage6(6);
        put(&mut s, "M-AT01", "O06", true);
        // Round 2 with no beeler unit left: the combat is over, nothing is rolled.
        assert!(!palace_round_start(&mut s, 2, seed(0)));
        assert_eq!(s.modifiers.sd_arrival, 0);
        // With a defender still fighting, round 2 is checked.
        put(&mut s, "B-SO01", "O06", true);
        let l = "t6/p8/combat/O06/r2/sd-arrival";
        assert!(palace_round_start(&mut s, 2, seed_where(&[(l, 1, 6..=6)])));
    }

    #[test]
    fn no_strike_dog_arrival_check_outside_a_stage_6_palace_round_12_10() {
        // Not the palace, not stage 6, or no mercenary unit left to fight: no roll.
        let mut s = stage6(6);
        put(&mut s, "M-AT01", "K07", true);
        let mut d = Dice::new(seed(0), KEY);
        let mut log = Log::default();
        let mut c = 0;
        assert!(!round_start(
            &mut s,
            &mut d,
            &mut log,
            h("K07"),
            "x",
            1,
            &mut c
        ));
        let mut c = 0;
        assert!(!round_start(
            &mut s,
            &mut d,
            &mut log,
            h("O06"),
            "x",
            1,
            &mut c
        ));
        s.stage = Stage::Stage8;
        put(&mut s, "M-AT01", "O06", true);
        let mut c = 0;
        assert!(!round_start(
            &mut s,
            &mut d,
            &mut log,
            h("O06"),
            "x",
            1,
            &mut c
        ));
        assert!(finished(d).is_empty());
    }

    #[test]
    fn strike_dog_arrives_at_round_start_and_defends_an_empty_palace_12_10_9_3() {
        let mut s = stage6(6);
        // M-AT01 cannot be hurt by the base attack (7 - 7 < 2) and cannot hurt Strike Dog.
        values(&mut s, "merc_at", 0, 7);
        values(&mut s, "strike_dog", 30, 7);
        put(&mut s, "M-AT01", "O06", true);
        let sd = seed_where(&[("t6/p8/combat/O06/r1/sd-arrival", 1, 4..=6)]);
        let (log, _) = fight(&mut s, sd, "t6/p8", Side::Mercenary);
        assert!(has(&log, "it arrives (12.10)"), "{:?}", log.public);
        assert!(has(&log, "M-AT01 destroyed"), "{:?}", log.public);
        assert_eq!(s.hex_of("B-SD"), Some(h("O06")));
        assert_eq!(s.control_of(h("O06")), super::super::data::Control::Beeler);
    }

    #[test]
    fn without_strike_dog_the_base_attack_alone_decides_an_empty_palace_12_10_9_3() {
        let mut s = stage6(6);
        values(&mut s, "merc_at", 0, 7);
        put(&mut s, "M-AT01", "O06", true);
        let sd = seed_where(&[("t6/p8/combat/O06/r1/sd-arrival", 1, 1..=3)]);
        let (log, _) = fight(&mut s, sd, "t6/p8", Side::Mercenary);
        assert!(has(&log, "the combat ends after the base attack"));
        assert_eq!(place(&s, "B-SD"), Place::Stock);
        assert_eq!(s.modifiers.sd_arrival, 1);
    }

    fn kiriko_round_end(s: &mut State, round: u32, seed: Hash32) -> bool {
        let mut d = Dice::new(seed, KEY);
        let mut log = Log::default();
        let r = round_end(s, &mut d, &mut log, h("O06"), "t6/p8/combat/O06", round);
        finished(d);
        r
    }

    fn palace_with_sd() -> State {
        let mut s = stage6(6);
        put(&mut s, "B-SD", "O06", true);
        put(&mut s, "M-AT01", "O06", true);
        s
    }

    #[test]
    fn kiriko_check_4_or_less_brings_kiriko_in_from_stock_face_up_12_10_a17() {
        let mut s = palace_with_sd();
        let l = "t6/p8/combat/O06/r1/kiriko";
        assert!(kiriko_round_end(&mut s, 1, seed_where(&[(l, 1, 4..=4)])));
        assert_eq!(s.hex_of("M-KIRIKO"), Some(h("O06")));
        assert!(s.unit("M-KIRIKO").unwrap().face_up);
        // He is there now: no more checks.
        assert!(!kiriko_round_end(&mut s, 2, seed(0)));
    }

    #[test]
    fn kiriko_check_failure_adds_1_literally_making_him_less_likely_12_10_a18() {
        let mut s = palace_with_sd();
        let l = |r: u32| format!("t6/p8/combat/O06/r{r}/kiriko");
        assert!(!kiriko_round_end(
            &mut s,
            1,
            seed_where(&[(&l(1), 1, 5..=5)])
        ));
        assert_eq!(s.modifiers.kiriko, 1);
        // A 4 would have succeeded without the modifier; with +1 it is 5 and fails.
        assert!(!kiriko_round_end(
            &mut s,
            2,
            seed_where(&[(&l(2), 1, 4..=4)])
        ));
        assert_eq!(s.modifiers.kiriko, 2, "cumulative");
        // 2 + 2 = 4 succeeds.
        assert!(kiriko_round_end(
            &mut s,
            3,
            seed_where(&[(&l(3), 1, 2..=2)])
        ));
        assert_eq!(s.hex_of("M-KIRIKO"), Some(h("O06")));
    }

    #[test]
    fn no_kiriko_check_without_strike_dog_in_a_continuing_palace_round_12_10_a18() {
        // Strike Dog not there.
        let mut s = stage6(6);
        put(&mut s, "M-AT01", "O06", true);
        put(&mut s, "B-SO01", "O06", true);
        assert!(!kiriko_round_end(&mut s, 1, seed(0)));
        // No mercenary unit left: no further round (A18).
        let mut s = stage6(6);
        put(&mut s, "B-SD", "O06", true);
        assert!(!kiriko_round_end(&mut s, 1, seed(0)));
        // Kiriko removed from the game: never again.
        let mut s = palace_with_sd();
        s.set_off_map("M-KIRIKO", Place::Removed, true);
        assert!(!kiriko_round_end(&mut s, 1, seed(0)));
        // Stage 8: no Kiriko.
        let mut s = palace_with_sd();
        s.stage = Stage::Stage8;
        assert!(!kiriko_round_end(&mut s, 1, seed(0)));
    }

    #[test]
    fn strike_dog_zone_also_binds_its_retreat_12_10_12_12() {
        let mut s = stage6(6);
        let palace = h("O06");
        let far = s
            .map
            .grid
            .all()
            .into_iter()
            .find(|x| s.map.grid.distance(*x, palace) == SD_ZONE + 1)
            .unwrap();
        let near = s
            .map
            .grid
            .all()
            .into_iter()
            .find(|x| s.map.grid.distance(*x, palace) == SD_ZONE)
            .unwrap();
        put(&mut s, "B-SD", "M07", true);
        put(&mut s, "B-SO01", "M07", true);
        let mut log = Log::default();
        // The best hex is outside the zone: Strike Dog takes the best one inside.
        let rest = zone_retreat(
            &mut s,
            &mut log,
            "x",
            ids(&["B-SD", "B-SO01"]),
            &[far, near],
        );
        assert_eq!(rest, Some(ids(&["B-SO01"])));
        assert_eq!(s.hex_of("B-SD"), Some(near));
        // No hex inside: the others retreat, Strike Dog goes home at the end of the phase (A42).
        put(&mut s, "B-SD", "M07", true);
        let rest = zone_retreat(&mut s, &mut log, "x", ids(&["B-SD", "B-SO01"]), &[far]);
        assert_eq!(rest, Some(ids(&["B-SO01"])));
        assert_eq!(place(&s, "B-SD"), Place::Returning);
        // Strike Dog alone with no hex inside: no retreat.
        put(&mut s, "B-SD", "M07", true);
        assert_eq!(
            zone_retreat(&mut s, &mut log, "x", ids(&["B-SD"]), &[far]),
            None
        );
        assert_eq!(s.hex_of("B-SD"), Some(h("M07")));
        // Other units and other stages are not bound.
        assert_eq!(
            zone_retreat(&mut s, &mut log, "x", ids(&["B-SO01"]), &[far]),
            Some(ids(&["B-SO01"]))
        );
        s.stage = Stage::Stage4;
        assert!(!zone_bound(&s, "B-SD"));
    }

    // ---- 13 ------------------------------------------------------------------------------

    #[test]
    fn strike_dog_must_attack_kiriko_13_1() {
        let s = stage6(6);
        let mut groups = vec![
            Group {
                m: ids(&["M-SO01"]),
                b: ids(&["B-SD"]),
            },
            Group {
                m: ids(&["M-KIRIKO", "M-AT01"]),
                b: ids(&["B-SO01"]),
            },
        ];
        duel_groups(&s, &mut groups);
        assert_eq!(groups[0].m, ids(&["M-KIRIKO"]));
        assert_eq!(groups[1].m, ids(&["M-SO01", "M-AT01"]));
        let mut aims = targets(&s, h("O06"), &groups);
        duel_targets(&s, &mut aims);
        assert_eq!(aims["B-SD"], "M-KIRIKO");
        // Whatever the pairing policy does, Strike Dog ends up with Kiriko and group sizes hold.
        let m = ids(&["M-AT01", "M-AT02", "M-SO01", "M-KIRIKO"]);
        let b = ids(&["B-SD", "B-SO01", "B-AT01"]);
        let mut g = pair(&s, h("O06"), &m, &b, &[], Side::Mercenary);
        let sizes: Vec<(usize, usize)> = g.iter().map(|g| (g.m.len(), g.b.len())).collect();
        duel_groups(&s, &mut g);
        let after: Vec<(usize, usize)> = g.iter().map(|g| (g.m.len(), g.b.len())).collect();
        assert_eq!(sizes, after);
        let sd = g
            .iter()
            .find(|g| g.b.contains(&"B-SD".to_string()))
            .unwrap();
        assert!(sd.m.contains(&"M-KIRIKO".to_string()));
        let mut aims = targets(&s, h("O06"), &g);
        duel_targets(&s, &mut aims);
        assert_eq!(aims["B-SD"], "M-KIRIKO");
    }

    #[test]
    fn kiriko_joins_from_the_next_round_and_destroying_strike_dog_removes_him_without_vp_12_10_13_1_13_2_10_2()
     {
        let mut s = palace_with_sd();
        s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
        s.policies[Side::Beeler].retreat = RetreatWhen::Never;
        // M-AT01 is immune to the base attack (7 - 7) and hits Strike Dog only on a 2; Strike
        // Dog cannot hit anyone; Kiriko destroys Strike Dog for sure.
        values(&mut s, "merc_at", 9, 7);
        values(&mut s, "strike_dog", 8, 7); // needs a 2 against Kiriko, cannot hit M-AT01
        values(&mut s, "kiriko", 30, 6);
        let t = "t6/p8/combat/O06";
        let sd = seed_where(&[
            (&format!("{t}/r1/atk/M-AT01"), 2, 3..=12),
            (&format!("{t}/r1/ps-check"), 1, 4..=6),
            (&format!("{t}/r1/kiriko"), 1, 1..=4),
            (&format!("{t}/r2/atk/M-AT01"), 2, 3..=12),
            (&format!("{t}/r2/atk/B-SD"), 2, 3..=12),
        ]);
        let (log, rolls) = fight(&mut s, sd, "t6/p8", Side::Mercenary);
        assert!(has(&log, "Kiriko joins"), "{:?}", log.public);
        assert!(rolled(&rolls, &format!("{t}/r1/atk/M-KIRIKO")).is_none());
        assert!(has(&log, "B-SD (8) at M-KIRIKO"), "13.1: {:?}", log.public);
        assert!(has(&log, "M-KIRIKO (30) at B-SD"), "{:?}", log.public);
        assert_eq!(place(&s, "M-KIRIKO"), Place::Removed, "13.2");
        assert_eq!(
            s.vp[Side::Mercenary],
            0,
            "10.2: no VP for Kiriko's kill in stage 6"
        );
        // M-AT01 is left alone in the palace and takes it, so Strike Dog has no home to go
        // back to: it is removed from the game (9.10.4).
        assert_eq!(
            s.control_of(h("O06")),
            super::super::data::Control::Mercenary
        );
        assert_eq!(place(&s, "B-SD"), Place::Removed);
    }

    #[test]
    fn a_ps_kill_shared_with_another_unit_still_scores_10_2_a16() {
        let s = stage6(6);
        assert!(kiriko_only_kill(&s, &ids(&["M-KIRIKO"])));
        assert!(!kiriko_only_kill(&s, &ids(&["M-KIRIKO", "M-AT01"])));
        assert!(!kiriko_only_kill(&s, &ids(&["M-AT01"])));
        let mut s8 = s.clone();
        s8.stage = Stage::Stage8;
        assert!(!kiriko_only_kill(&s8, &ids(&["M-KIRIKO"])));
        // 13.2 applies as soon as Kiriko's roll is among the successful ones (A16).
        let mut s = palace_with_sd();
        put(&mut s, "M-KIRIKO", "O06", true);
        let mut log = Log::default();
        after_losses(
            &mut s,
            &mut log,
            "x",
            &kills(&[("B-SD", &["M-AT01", "M-KIRIKO"])]),
        );
        assert_eq!(place(&s, "M-KIRIKO"), Place::Removed);
    }

    #[test]
    fn strike_dog_destroying_kiriko_removes_him_then_attacks_freely_13_3() {
        let mut s = palace_with_sd();
        put(&mut s, "M-KIRIKO", "O06", true);
        s.policies[Side::Mercenary].retreat = RetreatWhen::Never;
        s.policies[Side::Beeler].retreat = RetreatWhen::Never;
        values(&mut s, "merc_at", 0, 7);
        values(&mut s, "kiriko", 0, 7);
        values(&mut s, "strike_dog", 30, 7);
        let t = "t6/p8/combat/O06";
        let sd = seed_where(&[(&format!("{t}/r1/ps-check"), 1, 4..=6)]);
        let (log, _) = fight(&mut s, sd, "t6/p8", Side::Mercenary);
        assert!(has(&log, "r1: B-SD (30) at M-KIRIKO"), "{:?}", log.public);
        assert_eq!(place(&s, "M-KIRIKO"), Place::Removed);
        assert!(has(&log, "r2: B-SD (30) at M-AT01"), "{:?}", log.public);
        assert_eq!(place(&s, "M-AT01"), Place::Cup);
    }

    #[test]
    fn kiriko_goes_back_to_stock_when_the_palace_combat_ends_a17() {
        let mut s = stage6(6);
        put(&mut s, "M-KIRIKO", "P05", true);
        let (log, _) = after(&mut s, seed(0), "t6/p8/combat/O06", &["M-KIRIKO"], &[]);
        assert_eq!(place(&s, "M-KIRIKO"), Place::Stock);
        assert!(has(&log, "ruling A17"));
    }

    // ---- 12.11, 12.12, A12 ---------------------------------------------------------------

    #[test]
    fn watch_check_7_enters_stage_7_beeler_2d_vp_proto_one_in_the_palace_12_11() {
        let (s, _, rolls) = watch_with(6, &[("M-KANYU", &["B-BLUE"])]);
        assert_eq!(s.stage, Stage::Stage7);
        let r = rolled(&rolls, &format!("{TAG}/stage7-vp")).unwrap();
        assert_eq!(s.vp[Side::Beeler], i64::from(r));
        assert_eq!(s.hex_of("B-PROTO"), Some(h("O06")));
        assert!(s.unit("B-PROTO").unwrap().face_up);
        assert_eq!(s.next_stage, Some(Stage::Stage8));
        assert_eq!(s.values("M-KANYU").attack, 11);
    }

    #[test]
    fn entering_stage_8_places_strike_dog_and_removes_blue_at_12_12() {
        let mut s = blank();
        s.stage = Stage::Stage7;
        s.next_stage = Some(Stage::Stage8);
        s.turn = 8;
        put(&mut s, "B-BLUE", "K07", true);
        let (_, rolls) = t0(&mut s, seed(0));
        assert_eq!(s.stage, Stage::Stage8);
        assert_eq!(s.hex_of("B-SD"), Some(h("O06")));
        assert!(s.unit("B-SD").unwrap().face_up);
        assert_eq!(place(&s, "B-BLUE"), Place::Removed);
        assert!(rolls.is_empty(), "no stage 6 checks in stage 8");
        assert!(zone_bound(&s, "B-SD"));
    }

    #[test]
    fn a_unit_placed_by_a_stage_change_fights_in_the_same_phase_a12_a51() {
        let mut s = stage4();
        // The palace holds a face-up mercenary AT but is neutral: no combat there at first.
        s.control
            .insert(h("O06"), super::super::data::Control::Neutral);
        put(&mut s, "M-AT01", "O06", true);
        values(&mut s, "merc_at", 0, 7);
        values(&mut s, "kanyu", 0, 6);
        values(&mut s, "blue_at", 30, 7);
        values(&mut s, "proto_one", 30, 8);
        // Blue AT destroys Kan-Yu (+1): a 6 makes 7, stage 7, and Proto One lands on M-AT01.
        let sd = seed_where(&[("t5/p4/combat/J07/watch", 1, 6..=6)]);
        let (log, _) = fight(&mut s, sd, "t5/p4", Side::Beeler);
        assert_eq!(s.stage, Stage::Stage7);
        assert!(
            has(&log, "t5/p4/combat/O06: mercenary M-AT01"),
            "{:?}",
            log.public
        );
        assert_eq!(place(&s, "M-AT01"), Place::Cup);
        assert_eq!(s.hex_of("B-PROTO"), Some(h("O06")));
        assert_eq!(s.control_of(h("O06")), super::super::data::Control::Beeler);
    }

    // ---- 14.2.3 --------------------------------------------------------------------------

    fn taken_palace(stage: Stage, led: bool, kanyu_there: bool) -> State {
        let mut s = blank();
        s.stage = stage;
        s.palace_combat_with_kanyu = led;
        if kanyu_there {
            put(&mut s, "M-KANYU", "O06", true);
        }
        for u in ["M-AT01", "M-SO01", "M-H01", "M-KIRIKO"] {
            put(&mut s, u, "O06", true);
        }
        s
    }

    fn bonus(mut s: State) -> i64 {
        let mut log = Log::default();
        palace_bonus(&mut s, &mut log);
        s.vp[Side::Mercenary]
    }

    #[test]
    fn palace_taken_with_kan_yu_scores_5_plus_1_per_at_or_soldier_not_helis_or_kiriko_14_2_3() {
        assert_eq!(bonus(taken_palace(Stage::Stage3, true, true)), 5 + 2);
        assert_eq!(bonus(taken_palace(Stage::Stage8, true, true)), 5 + 2);
    }

    #[test]
    fn kan_yu_fallen_in_the_palace_combat_still_lets_the_others_score_14_2_3() {
        assert_eq!(bonus(taken_palace(Stage::Stage5, true, false)), 2);
    }

    #[test]
    fn no_palace_vp_if_kan_yu_was_not_in_the_combat_from_its_start_14_2_3() {
        assert_eq!(bonus(taken_palace(Stage::Stage4, false, true)), 0);
    }

    #[test]
    fn no_palace_vp_before_stage_3_14_2_3() {
        assert_eq!(bonus(taken_palace(Stage::Stage2, true, true)), 0);
        assert_eq!(bonus(taken_palace(Stage::Initial, true, true)), 0);
    }

    #[test]
    fn a_palace_assault_led_by_kan_yu_is_scored_at_the_end_14_2_3_a24() {
        let mut s = blank();
        s.stage = Stage::Stage3;
        s.turn = 9;
        s.offensive_turn = Some(10);
        // Base attacks cannot hurt 6-defense units (7 - 6 < 2); the mercenary units win at once.
        values(&mut s, "kanyu", 30, 6);
        values(&mut s, "merc_at", 30, 6);
        values(&mut s, "beeler_soldier", 0, 2);
        put(&mut s, "M-KANYU", "O06", true);
        put(&mut s, "M-AT01", "O06", true);
        put(&mut s, "B-SO01", "O06", true);
        let mut d = Dice::new(seed(4), KEY);
        let mut log = Log::default();
        CombatPhase {
            state: &mut s,
            dice: &mut d,
            log: &mut log,
            phase_player: Side::Mercenary,
            tag: "t9/p8".into(),
        }
        .run();
        assert!(s.palace_combat_with_kanyu);
        assert_eq!(
            s.control_of(h("O06")),
            super::super::data::Control::Mercenary
        );
        let before = s.vp[Side::Mercenary];
        super::super::end::finish(&mut s, &mut d, &mut log, false);
        let rolls = finished(d);
        let r = i64::from(rolled(&rolls, "t9/end/palace").unwrap());
        // 14.2.1 2D + 13, 14.2.2 (10 - 9) x 7, 14.2.3 5 + 1.
        assert_eq!(s.vp[Side::Mercenary] - before, r + 13 + 7 + 6);
        // A later combat phase without a palace combat forgets it.
        let mut d = Dice::new(seed(5), KEY);
        let mut log = Log::default();
        CombatPhase {
            state: &mut s,
            dice: &mut d,
            log: &mut log,
            phase_player: Side::Beeler,
            tag: "t10/p4".into(),
        }
        .run();
        assert!(!s.palace_combat_with_kanyu);
    }

    // ---- a whole run ---------------------------------------------------------------------

    fn resolve(s: &State, seed: Hash32) -> (State, Vec<String>, Vec<Roll>) {
        let mut d = Dice::new(seed, KEY);
        let r = steps::resolve(s, &BTreeMap::new(), &mut d).unwrap();
        (r.state, r.public, finished(d))
    }

    /// Resolves B1, M1 and B2 of the state's turn with default orders; `b2` is the seed of B2,
    /// which ends the turn and runs the next turn start.
    fn play_turn(s: &State, b2: Hash32) -> State {
        assert_eq!(s.step, Step::B1);
        let (s, _, _) = resolve(s, seed(11));
        assert_eq!(s.step, Step::M1);
        let (s, _, _) = resolve(&s, seed(12));
        assert_eq!(s.step, Step::B2);
        let (s, _, _) = resolve(&s, b2);
        assert_eq!(s.step, Step::B1);
        s
    }

    #[test]
    fn a_game_goes_from_the_initial_stage_through_stages_1_2_3_to_4_12() {
        let mut s = blank();
        s.step = Step::B1;
        // Blue AT destroys Kan-Yu for sure; Kan-Yu cannot hurt it.
        values(&mut s, "blue_at", 30, 7);
        s.counters.types.get_mut("kanyu").unwrap().attack = 0;
        s.counters
            .types
            .get_mut("kanyu")
            .unwrap()
            .boosted
            .as_mut()
            .unwrap()
            .attack = 0;
        put(&mut s, "M-KANYU", "J07", true);
        put(&mut s, "B-BLUE", "J07", true);

        // Turn 1: they meet (12.4); stage 1 comes at the turn 2 start (12.3).
        let (t1, events, _) = resolve(&s, seed(10));
        assert!(events.iter().any(|e| e.contains("12.4")), "{events:?}");
        assert_eq!(
            (t1.stage, t1.next_stage),
            (Stage::Initial, Some(Stage::Stage1))
        );
        let s = play_turn_rest(&t1, seed(13));
        assert_eq!((s.turn, s.stage, s.next_stage), (2, Stage::Stage1, None));
        assert_eq!(s.hex_of("M-KANYU"), Some(h("B08")));
        assert_eq!(s.values("M-KANYU").defense, 6, "12-6 in stage 1 (2.2.5)");

        // Turn 2: Kan-Yu meets Blue AT again and falls to it: stage 2 at once, no roll (12.5).
        let mut s = s;
        put(&mut s, "M-KANYU", "J07", true);
        let (t2, _, rolls) = resolve(&s, seed(20));
        assert_eq!(t2.stage, Stage::Stage2);
        assert!(rolls.iter().all(|r| !r.label.ends_with("/encounter")));
        assert_eq!(t2.hex_of("B-BLUE"), Some(h("O06")), "12.6");
        assert_eq!(t2.values("M-KANYU").defense, 5);
        // The first escape check is at the turn 3 start (A34), and it succeeds.
        let s = play_turn_rest(&t2, seed_where(&[("t3/t0/escape", 1, 5..=6)]));
        assert_eq!(
            (s.turn, s.stage, s.next_stage),
            (3, Stage::Stage2, Some(Stage::Stage3))
        );

        // Turn 3 ends; turn 4 starts in stage 3: 2D VP, Kan-Yu home, stage 4 scheduled (12.7).
        let b2 = seed(33);
        let (m1, _, _) = resolve(&resolve(&s, seed(31)).0, seed(32));
        let (s4, _, rolls) = resolve(&m1, b2);
        let r = i64::from(rolled(&rolls, "t4/t0/stage3-vp").unwrap());
        let base = i64::from(reinforce::base_points(&m1, Side::Mercenary) / 2);
        assert_eq!(s4.vp[Side::Mercenary] - m1.vp[Side::Mercenary], r + base);
        assert_eq!(
            (s4.turn, s4.stage, s4.next_stage),
            (4, Stage::Stage3, Some(Stage::Stage4))
        );
        assert_eq!(s4.hex_of("M-KANYU"), Some(h("B08")));
        assert_eq!(s4.values("M-KANYU").defense, 6);

        // Turn 5 starts in stage 4 (12.7 -> 12.8).
        let s5 = play_turn(&s4, seed(43));
        assert_eq!((s5.turn, s5.stage, s5.next_stage), (5, Stage::Stage4, None));
        assert_eq!(s5.values("M-KANYU").defense, 6);
    }

    /// M1 and B2 of a turn whose B1 is already resolved.
    fn play_turn_rest(s: &State, b2: Hash32) -> State {
        assert_eq!(s.step, Step::M1);
        let (s, _, _) = resolve(s, seed(12));
        let (s, _, _) = resolve(&s, b2);
        assert_eq!(s.step, Step::B1);
        s
    }
}
