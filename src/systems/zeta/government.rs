//! Government (17): units that chose to govern (12.5) try to raise their base's level, or to
//! lower another faction's political base (slot A8); and the decline of a political base
//! where a combat took place (28), which the combat calls at its end.

use super::ctx::{Choice, Ctx, Moment, reason};
use super::data::{BaseId, BaseKind, Loc, Place, Side, UnitId};
use super::deploy::{base_place, bases_at};
use super::labels;
use super::state::{Action, CharPlace, PhaseCursor};
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeMap;

/// The highest level (2.6).
const TOP: u8 = 3;

fn problem(at: &FieldPath, rule: &str, message: String, expected: &str) -> Problem {
    Problem::new(at.clone(), rule, message, expected)
}

/// Whether `side`'s units may govern this base (17.2-17.9, 34.2). 17.9 is judged here on
/// the state `check` sees, which is the phase's start; the resolution judges it on the
/// phase-start snapshot ([`resolve_government`]).
pub fn legal_govern(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let (Some(def), Some(place)) = (ctx.data.base(item), base_place(&ctx.state, item)) else {
        return Err(problem(
            at,
            "17.2",
            format!("no base {item:?} on the map"),
            "a base in play",
        ));
    };
    if def.ungovernable {
        return Err(problem(
            at,
            "34.2",
            format!("nobody may govern {item}"),
            "a base that can be governed",
        ));
    }
    let governor = ctx.state.bases.get(item).and_then(|b| b.governor);
    if def.kind == BaseKind::Military && governor.is_some_and(|g| g != side) {
        return Err(problem(
            at,
            "17.8",
            format!("{item} is another faction's military base"),
            "an own, neutral or enemy political base",
        ));
    }
    if ctx.moment == Moment::Check
        && let Some(loc) = place.loc()
        && ctx.state.sides_at(loc).iter().any(|s| *s != side)
    {
        return Err(problem(
            at,
            "17.9",
            format!("other factions' units are at {item} at the start of the phase"),
            "a base hex only own units hold",
        ));
    }
    Ok(())
}

/// The bases `side`'s units may govern now: those in a hex with an own unit.
pub fn govern_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let at = FieldPath::root();
    ctx.state
        .bases
        .keys()
        .filter(|b| {
            base_place(&ctx.state, b).is_some_and(|p| {
                ctx.state
                    .units
                    .values()
                    .any(|u| u.side == side && u.place == p)
            })
        })
        .filter(|b| legal_govern(ctx, side, b, &at).is_ok())
        .map(|b| {
            let lvl = ctx.state.bases.get(b).map_or(0, |s| s.level);
            Choice {
                item: b.clone(),
                note: format!("level {lvl} now (17.7)"),
            }
        })
        .collect()
}

/// 17.6: the government values of these units and of the characters aboard them
/// (also the others' total a speech subtracts, 29.1.5, A-57).
pub fn total_gov(ctx: &Ctx<'_>, units: &[UnitId]) -> u32 {
    let mut total = 0;
    for id in units {
        if let Some(u) = ctx.state.units.get(id) {
            total += ctx
                .data
                .unit_type(&u.type_id)
                .map_or(0, |t| u32::from(t.gov));
        }
        for (c, ch) in &ctx.state.chars {
            if matches!(&ch.place, CharPlace::Aboard(x) if x == id) {
                total += ctx.data.character(c).map_or(0, |d| u32::from(d.gov));
            }
        }
    }
    total
}

/// Slot A8 for the acting `side`: one roll per base (17.4) with every own unit that chose to
/// govern it and stands in its hex (17.2, 17.5); a base other factions held at the phase's
/// start (the cursor's snapshot, 17.9, A-36) is not rolled for.
pub fn resolve_government(ctx: &mut Ctx<'_>, side: Side, cursor: &PhaseCursor) {
    let mut by_base: BTreeMap<BaseId, Vec<UnitId>> = BTreeMap::new();
    for (id, u) in &ctx.state.units {
        if let (true, Some(Action::Govern { base })) = (u.side == side, &u.action) {
            by_base.entry(base.clone()).or_default().push(id.clone());
        }
    }
    let turn = ctx.state.turn;
    for (base, units) in by_base {
        let at = FieldPath::root();
        if let Err(p) = legal_govern(ctx, side, &base, &at) {
            ctx.log
                .private(side, format!("no government at {base}: {}", reason(&p)));
            continue;
        }
        let Some(place) = base_place(&ctx.state, &base) else {
            continue;
        };
        let held = place.loc().and_then(|l| cursor.snapshot.others_in.get(&l));
        if held.is_some_and(|s| s.iter().any(|x| *x != side)) {
            reach::fire("17.9");
            ctx.log.private(
                side,
                format!(
                    "no government at {base}: other factions were there at the phase's start (17.9)"
                ),
            );
            continue;
        }
        let here: Vec<UnitId> = units
            .into_iter()
            .filter(|id| ctx.state.units.get(id).is_some_and(|u| u.place == place))
            .collect();
        if here.is_empty() {
            ctx.log.private(
                side,
                format!("no government at {base}: none of its governors is in its hex (17.2)"),
            );
            continue;
        }
        let (governor, level) = ctx
            .state
            .bases
            .get(&base)
            .map_or((None, 0), |b| (b.governor, b.level));
        if governor == Some(side) && level >= TOP {
            ctx.log
                .private(side, format!("{base} is already at level {TOP} (17.7)"));
            continue;
        }
        let total = total_gov(ctx, &here);
        let label = labels::under(&labels::phase(turn, cursor.k), &["gov", &base]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let die = dice.d6(&label);
        let ok = die <= total;
        // 17.1-17.3: the units chose to govern (their one action, 12.5) in the base's hex;
        // 17.10: recovery's slot came first.
        for r in ["17.1", "17.2", "17.3", "17.4", "17.6", "17.8", "17.10"] {
            reach::fire(r);
        }
        if bases_at(&ctx.state, place).len() > 1 {
            reach::fire("17.5");
        }
        let outcome = if !ok {
            "fails".to_string()
        } else {
            raise_or_lower(ctx, side, &base, governor, level)
        };
        if let Some(d) = ctx.dice.as_deref_mut() {
            d.set_result(&label, if ok { "success" } else { "failure" });
        }
        ctx.log.public(format!(
            "{side} governs {base} with {} (government {total}), rolls {die}: {outcome}",
            here.join(", ")
        ));
    }
}

/// 17.7: a success raises an own base, takes a neutral one at level 1, or lowers another
/// faction's political base (neutral at 0). Returns the words for the event.
fn raise_or_lower(
    ctx: &mut Ctx<'_>,
    side: Side,
    base: &str,
    governor: Option<Side>,
    level: u8,
) -> String {
    let closed = ctx.data.base(base).is_some_and(|d| d.closed_until_nz);
    let Some(b) = ctx.state.bases.get_mut(base) else {
        return String::new();
    };
    reach::fire("17.7");
    let out = match governor {
        Some(g) if g == side => {
            b.level = (level + 1).min(TOP);
            format!("level {} (17.7)", b.level)
        }
        None => {
            b.governor = Some(side);
            b.level = 1;
            format!("{side} governs it at level 1 (17.7)")
        }
        Some(g) => {
            b.level = level.saturating_sub(1);
            if b.level == 0 {
                b.governor = None;
                format!("{g} loses it; it is neutral (17.7)")
            } else {
                format!("{g}'s level falls to {} (17.7)", b.level)
            }
        }
    };
    // 32.1.6: Side 3 opens once Neo Zeon has governed it.
    if closed && b.governor == Some(Side::NeoZeon) {
        b.governed_by_nz_once = true;
    }
    out
}

/// 28: after a combat in hex `at`, each political base there that someone governs may
/// decline: its governor rolls 2d6 against the government values of every ship and MS in the
/// hex, whoever owns them and whether they fought (28.3), characters left out (28.5).
/// `prefix` is the combat's label prefix.
pub fn decline(ctx: &mut Ctx<'_>, at: Loc, prefix: &str) {
    let place = Place::Hex(at);
    let total: u32 = ctx
        .state
        .units
        .values()
        .filter(|u| u.place == place)
        .map(|u| {
            ctx.data
                .unit_type(&u.type_id)
                .map_or(0, |t| u32::from(t.gov))
        })
        .sum();
    for base in bases_at(&ctx.state, place) {
        let political = ctx
            .data
            .base(&base)
            .is_some_and(|d| d.kind == BaseKind::Political && !d.ungovernable);
        let Some(gov) = ctx.state.bases.get(&base).and_then(|b| b.governor) else {
            continue;
        };
        if !political {
            continue;
        }
        let label = labels::under(prefix, &["decline", &base]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return;
        };
        let roll = dice.two_d6(&label);
        let falls = roll <= total;
        dice.set_result(&label, if falls { "declines" } else { "holds" });
        for r in ["28.1", "28.2", "28.3", "28.4", "28.5"] {
            reach::fire(r);
        }
        let what = if falls {
            let Some(b) = ctx.state.bases.get_mut(&base) else {
                continue;
            };
            b.level = b.level.saturating_sub(1);
            if b.level == 0 {
                b.governor = None;
                "it falls to neutral".to_string()
            } else {
                format!("it falls to level {}", b.level)
            }
        } else {
            "it holds".to_string()
        };
        ctx.log.public(format!(
            "{base} after the combat: {gov} rolls {roll} against government {total}, {what} (28.4)"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::deploy::fixture::{ctx, state, unit};
    use crate::systems::zeta::state::{PhaseSnapshot, State};

    fn dice(seed: u8) -> Dice {
        Dice::new(Hash32([seed; 32]), Hash32([0x5a; 32]))
    }

    fn seed_where(label: &str, ok: impl Fn(u32) -> bool, two: bool) -> u8 {
        (0..=255u8)
            .find(|s| {
                let mut d = dice(*s);
                ok(if two { d.two_d6(label) } else { d.d6(label) })
            })
            .expect("some seed")
    }

    fn cursor(st: &State) -> PhaseCursor {
        PhaseCursor {
            k: 1,
            card: crate::systems::zeta::state::Card {
                side: Side::Aeug,
                kind: crate::systems::zeta::state::CardKind::Space,
                copy: 1,
            },
            slot: crate::systems::zeta::state::Slot::Government,
            snapshot: PhaseSnapshot {
                others_in: st
                    .units
                    .values()
                    .filter_map(|u| u.place.loc())
                    .map(|l| (l, st.sides_at(l)))
                    .collect(),
                ..PhaseSnapshot::default()
            },
            combats_done: Vec::new(),
            combat_orders_done: 0,
        }
    }

    /// AEUG's units govern `base` (governed by `gov` at `level`) alone in its hex.
    fn governing(base: &str, gov: Option<Side>, level: u8, units: &[(&str, &str)]) -> State {
        let mut st = state();
        let hex = st.data.base_hex(base).unwrap();
        st.units.retain(|_, u| u.place != Place::Hex(hex));
        if let Some(b) = st.bases.get_mut(base) {
            b.governor = gov;
            b.level = level;
        }
        for (id, t) in units {
            unit(&mut st, id, Side::Aeug, t, &hex.label());
            if let Some(u) = st.units.get_mut(*id) {
                u.action = Some(Action::Govern { base: base.into() });
            }
        }
        st
    }

    fn run(st: State, seed: u8) -> (State, Vec<String>, Vec<String>) {
        let cur = cursor(&st);
        let mut d = dice(seed);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        resolve_government(&mut c, Side::Aeug, &cur);
        let (lines, private) = c.log.into_lines();
        (
            c.state,
            lines,
            private.get("aeug").cloned().unwrap_or_default(),
        )
    }

    #[test]
    fn a_success_takes_a_neutral_base_at_level_1_17_7() {
        let st = governing("side_1", None, 0, &[("a-argama-91", "argama")]);
        let label = labels::under(&labels::phase(st.turn, 1), &["gov", "side_1"]);
        let seed = seed_where(&label, |d| d == 1, false);
        let (st, lines, _) = run(st, seed);
        let b = st.bases.get("side_1").unwrap();
        assert_eq!((b.governor, b.level), (Some(Side::Aeug), 1));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("rolls 1: aeug governs it at level 1"))
        );
    }

    #[test]
    fn a_failure_changes_nothing_17_6() {
        let st = governing("side_1", None, 0, &[("a-nemo-91", "nemo")]);
        let label = labels::under(&labels::phase(st.turn, 1), &["gov", "side_1"]);
        let seed = seed_where(&label, |d| d == 6, false);
        let (st, lines, _) = run(st, seed);
        assert_eq!(st.bases.get("side_1").and_then(|b| b.governor), None);
        assert!(lines.iter().any(|l| l.contains("rolls 6: fails")));
    }

    #[test]
    fn a_success_lowers_another_factions_political_base_17_7() {
        let st = governing(
            "side_1",
            Some(Side::Titans),
            1,
            &[("a-argama-91", "argama")],
        );
        let label = labels::under(&labels::phase(st.turn, 1), &["gov", "side_1"]);
        let seed = seed_where(&label, |d| d == 1, false);
        let (st, lines, _) = run(st, seed);
        let b = st.bases.get("side_1").unwrap();
        assert_eq!((b.governor, b.level), (None, 0));
        assert!(lines.iter().any(|l| l.contains("titans loses it")));
    }

    #[test]
    fn a_success_raises_an_own_base_17_7() {
        let st = governing("side_1", Some(Side::Aeug), 1, &[("a-argama-91", "argama")]);
        let label = labels::under(&labels::phase(st.turn, 1), &["gov", "side_1"]);
        let seed = seed_where(&label, |d| d == 1, false);
        let (st, _, _) = run(st, seed);
        assert_eq!(st.bases.get("side_1").map(|b| b.level), Some(2));
    }

    #[test]
    fn another_factions_military_base_is_refused_17_8() {
        let st = governing("green_noa", Some(Side::Titans), 1, &[]);
        let c = ctx(st);
        let e = legal_govern(&c, Side::Aeug, &"green_noa".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("17.8"));
    }

    #[test]
    fn side_6_is_never_governed_34_2() {
        let c = ctx(state());
        let e = legal_govern(&c, Side::Aeug, &"side_6".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("34.2"));
    }

    #[test]
    fn others_at_the_phase_start_forbid_government_17_9() {
        let mut st = governing("side_1", None, 0, &[("a-argama-91", "argama")]);
        let hex = st.data.base_hex("side_1").unwrap();
        unit(&mut st, "t-hizack-91", Side::Titans, "hizack", &hex.label());
        let c = Ctx::new(st.clone(), None, Moment::Check);
        let e = legal_govern(&c, Side::Aeug, &"side_1".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("17.9"));
        // At resolution the snapshot decides, even if the Titans unit has gone since.
        let cur = cursor(&st);
        st.units.remove("t-hizack-91");
        let mut d = dice(1);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        resolve_government(&mut c, Side::Aeug, &cur);
        assert_eq!(c.state.bases.get("side_1").and_then(|b| b.governor), None);
        let (_, private) = c.log.into_lines();
        assert!(
            private
                .get("aeug")
                .is_some_and(|l| l.iter().any(|l| l.contains("(17.9)")))
        );
    }

    #[test]
    fn an_unknown_base_is_refused_17_2() {
        let c = ctx(state());
        let e = legal_govern(&c, Side::Aeug, &"atlantis".into(), &FieldPath::root()).unwrap_err();
        assert_eq!(e.rule.as_deref(), Some("17.2"));
    }

    #[test]
    fn choices_are_bases_in_hexes_with_own_units() {
        let st = governing("side_1", None, 0, &[("a-argama-91", "argama")]);
        let c = ctx(st);
        let ch = govern_choices(&c, Side::Aeug);
        assert!(ch.iter().any(|c| c.item == "side_1"));
        assert!(ch.iter().all(|c| c.item != "side_6"));
    }

    #[test]
    fn a_political_base_declines_after_a_combat_28_4() {
        let mut st = governing("side_1", Some(Side::Titans), 2, &[]);
        let hex = st.data.base_hex("side_1").unwrap();
        for i in 0..4 {
            unit(
                &mut st,
                &format!("a-argama-9{i}"),
                Side::Aeug,
                "argama",
                &hex.label(),
            );
        }
        let seed = seed_where("x/decline/side_1", |r| r <= 4, true);
        let mut d = dice(seed);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        decline(&mut c, hex, "x");
        assert_eq!(c.state.bases.get("side_1").map(|b| b.level), Some(1));
        let (lines, _) = c.log.into_lines();
        assert!(lines.iter().any(|l| l.contains("falls to level 1 (28.4)")));
    }

    #[test]
    fn a_neutral_or_military_base_does_not_decline_28_1() {
        let st = governing("side_1", None, 0, &[]);
        let hex = st.data.base_hex("side_1").unwrap();
        let mut d = dice(1);
        let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
        decline(&mut c, hex, "x");
        assert!(c.log.into_lines().0.is_empty());
    }
}

#[cfg(test)]
#[path = "government_decline_tests.rs"]
mod decline_tests;

#[cfg(test)]
#[path = "government_rules_tests.rs"]
mod rules_tests;
