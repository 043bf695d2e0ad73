//! Special units and characters (29, 33, 34). Done: Quattro's speech (29.1, slot A11, with
//! the conditional form of plan §12/F14). Still stubs (zeta commit 10): La Vie en Rose's
//! repairs, Jupitris, the mass-production Qubeley, Side 6, the Jupiter fleet, the Ple chains.

use super::ctx::{Choice, Ctx, Moment, not_yet, reason};
use super::data::{BaseId, BaseKind, Place, Side, UnitId};
use super::deploy::base_place;
use super::guard;
use super::labels;
use super::orders::SpeechOrder;
use super::state::{CharPlace, PhaseCursor};
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
        let gov = others_gov(ctx, &others);
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

/// the government values of the other factions' units and of the characters aboard.
fn others_gov(ctx: &Ctx<'_>, units: &[UnitId]) -> u32 {
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

/// Whether these units may be repaired by La Vie en Rose (29.2.2-29.2.5). Stub: refuses (zeta commit 10).
pub fn legal_lvr_repair(
    ctx: &Ctx<'_>,
    side: Side,
    item: &[UnitId],
    at: &FieldPath,
) -> Result<(), Problem> {
    let _ = (ctx, side, item);
    Err(not_yet(at, "29.2", "La Vie en Rose's repairs", 10))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::deploy::fixture::{state, unit};
    use crate::systems::zeta::guard::Guard;
    use crate::systems::zeta::state::{Card, CardKind, PhaseSnapshot, Slot, State};

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
}
