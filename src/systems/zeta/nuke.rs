//! Titans' nuke (36): the secret base chosen in the turn-1 packet (36.2-36.3) and its public
//! commitment (plan §12/F10), the reveal, the forced reveal (36.8) and the public exclusion of
//! candidates, and the demolition (36.4-36.7).

use super::ctx::{Choice, Ctx, Moment};
use super::data::{BaseId, Side};
use super::labels;
use super::state::Stage;
use crate::kit::reach::fire;
use crate::protocol::hash::{Hash32, Transcript};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The domain of the base's commitment (plan §12/F10).
const DOMAIN: &str = "pbem-zeta-nuke-v1";

/// `H("pbem-zeta-nuke-v1"; salt; base)`: what Titans' turn-1 packet step publishes, and what
/// anyone recomputes once the base and the salt (the revealed key of `nuke/salt`) are public.
pub fn commitment(salt: &Hash32, base: &str) -> Hash32 {
    Transcript::new(DOMAIN).hash(salt).str(base).finish()
}

/// Whether `side` may hide the nuke in this base now: only Titans (36.1), only in the turn-1
/// packet, before the game starts (36.3), and only in one of the four candidates (36.2).
pub fn legal_nuke_base(
    ctx: &Ctx<'_>,
    side: Side,
    item: &BaseId,
    at: &FieldPath,
) -> Result<(), Problem> {
    let listing = ctx
        .data
        .nuke_candidates()
        .into_iter()
        .collect::<Vec<_>>()
        .join(" | ");
    if side != Side::Titans {
        return Err(Problem::new(
            at.clone(),
            "36.1",
            format!("{side} has no nuke: only Titans hide one"),
            "leave `nuke_base` out",
        ));
    }
    if ctx.state.stage != (Stage::Packet { turn: 1 }) || ctx.state.nuke.base.is_some() {
        return Err(Problem::new(
            at.clone(),
            "36.3",
            "the nuke's base is chosen once, in the turn-1 packet",
            "leave `nuke_base` out",
        ));
    }
    if !ctx.data.nuke_candidates().contains(item) {
        return Err(Problem::new(
            at.clone(),
            "36.2",
            format!("{item} is not a base the nuke may be hidden in"),
            format!("one of {listing}"),
        ));
    }
    Ok(())
}

/// The bases the nuke may be hidden in now.
pub fn nuke_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<BaseId>> {
    let at = FieldPath::root().at("nuke_base");
    ctx.data
        .nuke_candidates()
        .into_iter()
        .filter(|b| legal_nuke_base(ctx, side, b, &at).is_ok())
        .map(|b| Choice {
            note: format!("hide the nuke in {b} (36.3)"),
            item: b,
        })
        .collect()
}

/// 36.3: hides the nuke in Titans' base (their packet's `nuke_base`, or, when it is missing or
/// no longer legal, a sealed draw among the candidates, `t1/nuke-default`, plan §1.7), draws
/// the sealed salt `nuke/salt`, commits to its key, and publishes the base's commitment
/// (plan §12/F10). Titans are told the base privately. Does nothing outside the turn-1
/// packet or once the base is chosen.
pub fn resolve_nuke_base(ctx: &mut Ctx<'_>, given: Option<&BaseId>) {
    if ctx.state.stage != (Stage::Packet { turn: 1 }) || ctx.state.nuke.base.is_some() {
        return;
    }
    let at = FieldPath::root().at("nuke_base");
    let chosen = given.filter(|b| legal_nuke_base(ctx, Side::Titans, b, &at).is_ok());
    let candidates: Vec<BaseId> = ctx.data.nuke_candidates().into_iter().collect();
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    let (base, by_default) = match chosen {
        Some(b) => (b.clone(), false),
        None => {
            let i = dice.sealed_index(
                &labels::nuke_default(),
                candidates.len(),
                "Titans' nuke base",
            );
            let Some(b) = candidates.get(i) else {
                return;
            };
            (b.clone(), true)
        }
    };
    fire("36.3");
    let label = labels::nuke_salt();
    // The range of 1 draws nothing: what counts is the stream's key, the salt, which the
    // reveal makes public and the commitment below binds.
    dice.sealed_index(&label, 1, "");
    let seal = dice.commit_sealed_key(&label);
    let hash = commitment(&seal.key, &base);
    ctx.state.nuke.base = Some(base.clone());
    ctx.state.nuke.seal = Some(seal);
    ctx.log.public(format!(
        "Titans hide the nuke in one of their candidate bases (36.3); commitment \
         H(pbem-zeta-nuke-v1; salt; base) = {} (the salt is the key of sealed draw {label})",
        hash.hex()
    ));
    let how = if by_default {
        "your packet named none, so it was drawn (sealed)"
    } else {
        "as your packet said"
    };
    ctx.log.private(
        Side::Titans,
        format!("the nuke is hidden in {base}: {how} (36.3)"),
    );
}

/// Makes the base public (the demolition 36.4, the forced reveal 36.8, the game's end) and
/// reveals the salt's sealed draw so anyone can open the commitment (plan §12/F10). Once only.
pub fn reveal(ctx: &mut Ctx<'_>, why: &str) {
    if ctx.state.nuke.revealed {
        return;
    }
    let Some(base) = ctx.state.nuke.base.clone() else {
        return;
    };
    ctx.state.nuke.revealed = true;
    ctx.log
        .public(format!("the nuke was hidden in {base} ({why})"));
    reveal_salt_due(ctx);
}

/// Reveals the kept salt once the base is public. A reveal names an earlier step, so a base
/// made public in the step that drew the salt has its salt revealed at the start of the next
/// step (called there, as the deck's reveal is).
pub fn reveal_salt_due(ctx: &mut Ctx<'_>) {
    if !ctx.state.nuke.revealed {
        return;
    }
    let Some(seal) = ctx.state.nuke.seal.clone() else {
        return;
    };
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    if seal.step >= dice.step() {
        return;
    }
    dice.reveal_sealed(&seal, vec![1]);
    ctx.state.nuke.seal = None;
    ctx.log.public(format!(
        "the nuke's salt is the key of sealed draw {} of step {}, revealed now: anyone can \
         open its commitment (plan §12/F10)",
        seal.label, seal.step
    ));
}

/// 36.8, A-79, after government changes: the nuke's base governed by AEUG or Neo Zeon is
/// revealed at once and removed from the game (no demolition after); any other candidate so
/// governed at level 1 or more is publicly not the base (no reveal came). A neutral base
/// reveals nothing (36.8).
pub fn watch(ctx: &mut Ctx<'_>) {
    if ctx.moment != Moment::Resolve || ctx.state.nuke.revealed || ctx.state.nuke.used {
        return;
    }
    let secret = ctx.state.nuke.base.clone();
    for id in ctx.data.nuke_candidates() {
        let Some(b) = ctx.state.bases.get(&id) else {
            continue;
        };
        let enemy = matches!(b.governor, Some(Side::Aeug | Side::NeoZeon)) && b.level >= 1;
        if !enemy {
            continue;
        }
        if secret.as_deref() == Some(id.as_str()) {
            fire("36.8");
            // The card leaves the game: `revealed` forbids the demolition after (36.8).
            reveal(
                ctx,
                &format!("{id} is governed by an enemy of Titans, 36.8"),
            );
            return;
        }
        if ctx.state.nuke.excluded.insert(id.clone()) {
            ctx.log.public(format!(
                "{id} is governed by an enemy of Titans and nothing was revealed: the nuke is \
                 not there (A-79)"
            ));
        }
    }
}

/// Whether `side` may demolish the nuke base now: Titans (36.1), once, not after the forced
/// reveal (36.8) or the base's loss, on their own Ground card (36.4), the base governed
/// by Titans when the phase starts (36.4; plan §12/F3: judged when the card is drawn, before
/// any move, so the state now is the phase's start).
pub fn legal_demolish(ctx: &Ctx<'_>, side: Side, at: &FieldPath) -> Result<(), Problem> {
    let refuse =
        |rule: &str, msg: String| Err(Problem::new(at.clone(), rule, msg, "leave `demolish` out"));
    if side != Side::Titans {
        return refuse("36.1", format!("{side} has no nuke to demolish with"));
    }
    let n = &ctx.state.nuke;
    if n.used {
        return refuse("36.1", "the nuke has been used already".into());
    }
    if n.revealed || n.lost {
        return refuse("36.8", "the nuke is out of the game".into());
    }
    match ctx.state.stage {
        Stage::Phase { card, .. }
            if card.side == Side::Titans && card.kind == super::state::CardKind::Ground => {}
        _ => return refuse("36.4", "demolition needs a Titans Ground card".into()),
    }
    let Some(base) = n.base.clone() else {
        return refuse("36.3", "no nuke base was chosen".into());
    };
    let ours = ctx
        .state
        .bases
        .get(&base)
        .is_some_and(|b| !b.destroyed && b.governor == Some(Side::Titans) && b.level >= 1);
    if !ours {
        return refuse("36.4", format!("{base} is not governed by Titans now"));
    }
    Ok(())
}

/// 36.4-36.7: Titans demolish the nuke base, if still legal (else they are told why): the
/// base is revealed with its salt (plan §12/F10), every unit in its hex, whoever owns it
/// (36.6), is removed on a die at most the base's level (36.5), every character there rolls
/// the same die and on a hit makes a survival check (36.5), and the base is gone for good
/// (36.7).
pub fn resolve_demolish(ctx: &mut Ctx<'_>, side: Side) {
    if let Err(p) = legal_demolish(ctx, side, &FieldPath::root().at("pre").at("demolish")) {
        ctx.log
            .private(side, format!("demolition skipped: {}", p.message));
        return;
    }
    let Some(base) = ctx.state.nuke.base.clone() else {
        return;
    };
    let Stage::Phase { turn, k, .. } = ctx.state.stage else {
        return;
    };
    let level = ctx.state.bases.get(&base).map_or(0, |b| b.level);
    let place = super::carry::base_place(&ctx.state, &ctx.data, &base);
    fire("36.4");
    ctx.state.nuke.used = true;
    reveal(ctx, "Titans demolish it, 36.4");
    ctx.log
        .public(format!("Titans demolish {base} (level {level}) (36.4)"));
    let prefix = labels::under(&labels::phase(turn, k), &["demolition"]);
    let mut losses = super::damage::Losses::default();
    if let Some(place) = place {
        fire("36.5");
        fire("36.6");
        let units: Vec<String> = ctx
            .state
            .units
            .iter()
            .filter(|(_, u)| u.place == place)
            .map(|(id, _)| id.clone())
            .collect();
        for u in units {
            if !ctx.state.units.contains_key(&u) {
                continue; // 25.9: gone with its ship already.
            }
            let label = labels::under(&prefix, &[&u]);
            let Some(dice) = ctx.dice.as_deref_mut() else {
                return;
            };
            let die = dice.d6(&label);
            let hit = die <= u32::from(level);
            dice.set_result(&label, if hit { "destroyed" } else { "unharmed" });
            if hit {
                super::damage::remove_unit(ctx, &u, &mut losses);
            }
        }
        let loc = place.loc();
        let chars: Vec<String> = ctx
            .state
            .chars
            .iter()
            .filter(|(_, c)| match &c.place {
                super::state::CharPlace::Solo(l) => Some(*l) == loc,
                super::state::CharPlace::Aboard(u) => {
                    losses.removed.contains(u)
                        || ctx.state.units.get(u).is_some_and(|x| x.place == place)
                }
                _ => false,
            })
            .map(|(id, _)| id.clone())
            .collect();
        for c in chars {
            let label = labels::under(&prefix, &[&c]);
            let Some(dice) = ctx.dice.as_deref_mut() else {
                return;
            };
            let die = dice.d6(&label);
            let hit = die <= u32::from(level);
            dice.set_result(&label, if hit { "survival check" } else { "unharmed" });
            if hit {
                let sl = labels::under(&prefix, &[&c, "survival"]);
                super::survival::survival(ctx, &c, 0, &sl);
            }
            if let Some(l) = loc
                && super::survival::stranded(ctx, &c)
            {
                super::survival::rehome(ctx, &c, l);
            }
        }
    }
    // 36.7: no base in that hex from now on.
    fire("36.7");
    if let Some(b) = ctx.state.bases.get_mut(&base) {
        b.destroyed = true;
        b.governor = None;
        b.level = 0;
    }
    ctx.log.public(format!("{base} is gone for good (36.7)"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::seats::Seat;
    use crate::protocol::dice::{Dice, DiceTranscript, sealed_key_commit};
    use crate::systems::zeta::Zeta;
    use crate::systems::zeta::state::State;
    use crate::systems::{DataSource, Reader, Rules};

    fn start() -> State {
        Zeta.initial_state("gryps", &DataSource::default()).unwrap()
    }

    fn at() -> FieldPath {
        FieldPath::root().at("nuke_base")
    }

    fn judge(st: &State, side: Side, base: &str) -> Result<(), Problem> {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_nuke_base(&ctx, side, &base.to_string(), &at())
    }

    /// Resolves the turn-1 hiding in step 1; the state, the public lines and the dice.
    fn hide(given: Option<&str>) -> (State, Vec<String>, Vec<String>, DiceTranscript) {
        let mut dice = Dice::new(Hash32([3; 32]), Hash32([7; 32])).at_step(1);
        let mut ctx = Ctx::new(start(), Some(&mut dice), Moment::Resolve);
        resolve_nuke_base(&mut ctx, given.map(str::to_string).as_ref());
        let Ctx { state, log, .. } = ctx;
        let titans = log.private[Side::Titans].clone();
        (state, log.public, titans, dice.finish().unwrap())
    }

    /// Runs `f` on `st` in step `n` with a Resolve context; the state, lines and dice.
    fn later(
        st: State,
        n: u64,
        f: impl FnOnce(&mut Ctx<'_>),
    ) -> (State, Vec<String>, DiceTranscript) {
        let mut dice = Dice::new(Hash32([4; 32]), Hash32([7; 32])).at_step(n);
        let mut ctx = Ctx::new(st, Some(&mut dice), Moment::Resolve);
        f(&mut ctx);
        let Ctx { state, log, .. } = ctx;
        (state, log.public, dice.finish().unwrap())
    }

    #[test]
    fn titans_may_hide_the_nuke_in_each_of_the_four_candidates_36_2() {
        let st = start();
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        let listed: Vec<String> = nuke_choices(&ctx, Side::Titans)
            .into_iter()
            .map(|c| c.item)
            .collect();
        assert_eq!(listed, ["hawaii", "jaburo", "odessa", "torrington"]);
        assert!(nuke_choices(&ctx, Side::Aeug).is_empty());
    }

    #[test]
    fn only_titans_hide_a_nuke_36_1() {
        let p = judge(&start(), Side::Aeug, "odessa").unwrap_err();
        assert_eq!(p.message, "aeug has no nuke: only Titans hide one");
    }

    #[test]
    fn a_base_that_is_no_candidate_is_refused_36_2() {
        let p = judge(&start(), Side::Titans, "hickory").unwrap_err();
        assert_eq!(p.message, "hickory is not a base the nuke may be hidden in");
    }

    #[test]
    fn the_base_is_chosen_only_in_the_turn_1_packet_36_3() {
        let mut st = start();
        st.stage = Stage::Packet { turn: 2 };
        let p = judge(&st, Side::Titans, "odessa").unwrap_err();
        assert_eq!(
            p.message,
            "the nuke's base is chosen once, in the turn-1 packet"
        );
    }

    #[test]
    fn hiding_the_nuke_commits_to_a_sealed_salt_and_publishes_the_hash_f10() {
        let (st, public, titans, dice) = hide(Some("odessa"));
        assert_eq!(st.nuke.base.as_deref(), Some("odessa"));
        let seal = st.nuke.seal.clone().unwrap();
        assert_eq!(seal.label, "nuke/salt");
        assert_eq!(dice.key_commits.len(), 1);
        assert_eq!(
            dice.key_commits[0].commit,
            sealed_key_commit("nuke/salt", &seal.key)
        );
        let hash = commitment(&seal.key, "odessa").hex();
        assert!(public.iter().any(|l| l.contains(&hash)), "{public:?}");
        assert!(!public.iter().any(|l| l.contains("odessa")), "{public:?}");
        assert!(titans.iter().any(|l| l.contains("hidden in odessa")));
    }

    #[test]
    fn a_missing_base_is_drawn_sealed_among_the_candidates_plan_1_7() {
        let (st, _, titans, dice) = hide(None);
        let base = st.nuke.base.clone().unwrap();
        assert!(st.data.nuke_candidates().contains(&base));
        assert!(dice.sealed.iter().any(|d| d.label == "t1/nuke-default"));
        assert!(titans.iter().any(|l| l.contains("drawn")));
    }

    #[test]
    fn the_reveal_publishes_the_base_and_the_salt_that_opens_the_commitment_f10() {
        let (st, public, _, _) = hide(Some("jaburo"));
        let (st, lines, dice) = later(st, 5, |ctx| reveal(ctx, "test"));
        assert!(st.nuke.revealed && st.nuke.seal.is_none());
        assert!(lines.iter().any(|l| l.contains("hidden in jaburo")));
        let r = &dice.reveals[0];
        assert_eq!(
            (r.step, r.label.as_str(), r.range.clone()),
            (1, "nuke/salt", vec![1])
        );
        // Anyone: the revealed key opens the hash published in step 1.
        let hash = commitment(&r.key, "jaburo").hex();
        assert!(public.iter().any(|l| l.contains(&hash)));
    }

    #[test]
    fn an_enemy_governing_the_nuke_base_forces_the_reveal_36_8() {
        let (mut st, _, _, _) = hide(Some("hawaii"));
        let b = st.bases.get_mut("hawaii").unwrap();
        b.governor = Some(Side::Aeug);
        b.level = 1;
        let (st, lines, dice) = later(st, 4, watch);
        assert!(st.nuke.revealed);
        assert!(
            lines.iter().any(|l| l.contains("hidden in hawaii")),
            "{lines:?}"
        );
        assert_eq!(dice.reveals.len(), 1);
    }

    #[test]
    fn a_neutral_nuke_base_reveals_nothing_36_8() {
        let (mut st, _, _, _) = hide(Some("hawaii"));
        let b = st.bases.get_mut("hawaii").unwrap();
        b.governor = None;
        b.level = 0;
        let (st, lines, dice) = later(st, 4, watch);
        assert!(!st.nuke.revealed && st.nuke.excluded.is_empty());
        assert!(lines.is_empty() && dice.reveals.is_empty());
    }

    #[test]
    fn an_enemy_governed_candidate_without_a_reveal_is_publicly_excluded_a_79() {
        let (mut st, _, _, _) = hide(Some("hawaii"));
        let b = st.bases.get_mut("odessa").unwrap();
        b.governor = Some(Side::NeoZeon);
        b.level = 2;
        let (st, lines, _) = later(st, 4, watch);
        assert!(!st.nuke.revealed);
        assert!(st.nuke.excluded.contains("odessa"));
        assert!(lines.iter().any(|l| l.contains("odessa")));
        let public = Zeta.view(&st, &Reader::Public);
        assert!(!public.nuke.possible.contains(&"odessa".to_string()));
    }

    #[test]
    fn no_view_holds_the_salt_and_only_titans_see_the_base_f10() {
        let (a, _, _, _) = hide(Some("odessa"));
        let (b, _, _, _) = hide(Some("torrington"));
        let salt = a.nuke.seal.clone().unwrap().key.hex();
        for reader in [
            Reader::Public,
            Reader::Side("titans".into()),
            Reader::Side("aeug".into()),
            Reader::Side("neo_zeon".into()),
        ] {
            let text = crate::yaml::to_string(&Zeta.view(&a, &reader));
            assert!(!text.contains(&salt), "{reader:?}");
            assert!(!text.contains("nuke/salt"), "{reader:?}");
        }
        // Whatever the base, the others' views are the same.
        for reader in [
            Reader::Public,
            Reader::Side("aeug".into()),
            Reader::Side("neo_zeon".into()),
        ] {
            assert_eq!(
                crate::yaml::to_string(&Zeta.view(&a, &reader)),
                crate::yaml::to_string(&Zeta.view(&b, &reader)),
                "{reader:?}"
            );
        }
    }

    fn ground_phase(mut st: State, side: Side) -> State {
        st.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: crate::systems::zeta::state::Card {
                side,
                kind: crate::systems::zeta::state::CardKind::Ground,
                copy: 1,
            },
        };
        st
    }

    fn judge_demolish(st: &State, side: Side) -> Result<(), Problem> {
        let ctx = Ctx::new(st.clone(), None, Moment::Check);
        legal_demolish(&ctx, side, &FieldPath::root().at("pre").at("demolish"))
    }

    #[test]
    fn titans_may_demolish_their_governed_nuke_base_on_a_ground_card_36_4() {
        let (st, _, _, _) = hide(Some("odessa"));
        assert!(judge_demolish(&ground_phase(st, Side::Titans), Side::Titans).is_ok());
    }

    #[test]
    fn demolition_refusals_say_why_36_1_36_4_36_8() {
        let (st, _, _, _) = hide(Some("odessa"));
        let msg = |st: &State, side| judge_demolish(st, side).unwrap_err().message;
        let on_ground = ground_phase(st.clone(), Side::Titans);
        assert_eq!(
            msg(&on_ground, Side::Aeug),
            "aeug has no nuke to demolish with"
        );
        assert_eq!(
            msg(&ground_phase(st.clone(), Side::Aeug), Side::Titans),
            "demolition needs a Titans Ground card"
        );
        let mut used = on_ground.clone();
        used.nuke.used = true;
        assert_eq!(msg(&used, Side::Titans), "the nuke has been used already");
        let mut out = on_ground.clone();
        out.nuke.revealed = true;
        assert_eq!(msg(&out, Side::Titans), "the nuke is out of the game");
        let mut neutral = on_ground.clone();
        if let Some(b) = neutral.bases.get_mut("odessa") {
            b.governor = None;
            b.level = 0;
        }
        assert_eq!(
            msg(&neutral, Side::Titans),
            "odessa is not governed by Titans now"
        );
    }

    #[test]
    fn demolition_reveals_rolls_for_every_unit_and_destroys_the_base_36_5_to_36_7() {
        let (st, _, _, _) = hide(Some("odessa"));
        let st = ground_phase(st, Side::Titans);
        let mut st = st;
        let level = st.bases["odessa"].level;
        let place = crate::systems::zeta::carry::base_place(&st, &st.data, "odessa").unwrap();
        // Units of every faction in the hex (36.6: whoever owns them).
        for side in Side::ALL {
            let ids: Vec<String> = st
                .units
                .iter()
                .filter(|(_, u)| u.side == *side)
                .map(|(id, _)| id.clone())
                .take(3)
                .collect();
            for id in ids {
                if let Some(u) = st.units.get_mut(&id) {
                    u.place = place;
                }
            }
        }
        let there: Vec<String> = st
            .units
            .iter()
            .filter(|(_, u)| u.place == place)
            .map(|(id, _)| id.clone())
            .collect();
        assert_eq!(there.len(), 9);
        let (after, lines, dice) = later(st, 3, |ctx| resolve_demolish(ctx, Side::Titans));
        assert!(after.nuke.used && after.nuke.revealed);
        assert!(after.bases["odessa"].destroyed, "36.7");
        assert_eq!(dice.reveals.len(), 1, "F10: the salt");
        assert!(lines.iter().any(|l| l.contains("hidden in odessa")));
        for u in &there {
            let roll = dice
                .public
                .iter()
                .find(|r| r.label == format!("t1/p1/demolition/{u}"))
                .unwrap();
            let hit = roll.values[0] <= u32::from(level);
            assert_eq!(!after.units.contains_key(u), hit, "{u}: 36.5");
        }
    }

    #[test]
    fn a_refused_demolition_is_skipped_and_titans_told_36_4() {
        let (st, _, _, _) = hide(Some("odessa"));
        let st = ground_phase(st, Side::Aeug);
        let mut dice = Dice::new(Hash32([4; 32]), Hash32([7; 32])).at_step(3);
        let mut ctx = Ctx::new(st, Some(&mut dice), Moment::Resolve);
        resolve_demolish(&mut ctx, Side::Titans);
        assert!(!ctx.state.nuke.used && !ctx.state.bases["odessa"].destroyed);
        assert!(
            ctx.log.private[Side::Titans]
                .iter()
                .any(|l| l.contains("demolition skipped"))
        );
    }
}
