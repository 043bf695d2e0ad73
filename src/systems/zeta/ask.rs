//! Ask steps (plan §1.1, §1.3, §4.3): a phase stopped mid-way waits for one faction, the
//! undeclared third faction whose join policy said `ask` (18.9), or the acting faction at the
//! checkpoint its orders named (`after_pre`, `before_combat`, `before_laser`). The state holds
//! the stop (`State::pending`: the cursor and the acting faction's orders still to carry out);
//! the answer resumes the phase exactly there.
//!
//! Answers: `join: attacker | defender | abstain` for an 18.9 ask; `continue: {...}` for a
//! checkpoint, the phase's orders for the slots still to come, replacing the stored ones
//! (without `continue`, the stored orders run on: plan §1.7's default).

use super::ctx::{Choice, Ctx, Moment};
use super::data::{Loc, Side};
use super::orders::{Orders, PhaseOrders};
use super::policy::{JoinAnswer, JoinRule};
use super::state::{AskWhy, Checkpoint, Pending, Stage, State};
use super::steps::{Ran, checkpoint_slot, run_from};
use super::{combat, orders};
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The checkpoint as its orders write it.
pub fn checkpoint_name(cp: Checkpoint) -> &'static str {
    match cp {
        Checkpoint::None => "none",
        Checkpoint::AfterPre => "after_pre",
        Checkpoint::BeforeCombat => "before_combat",
        Checkpoint::BeforeLaser => "before_laser",
    }
}

/// The parts of phase orders carried out before each checkpoint's stop (plan §1.3): a
/// `continue` may not name them.
fn passed_parts(cp: Checkpoint) -> &'static [&'static str] {
    const PRE: &[&str] = &["pre"];
    const BEFORE_COMBAT: &[&str] = &[
        "pre",
        "units",
        "board",
        "atmospheric",
        "colony_move",
        "lvr_repair",
        "axis",
        "gryps",
        "africa_hex",
    ];
    const BEFORE_LASER: &[&str] = &[
        "pre",
        "units",
        "board",
        "atmospheric",
        "colony_move",
        "lvr_repair",
        "axis",
        "gryps",
        "africa_hex",
        "combats",
    ];
    match cp {
        Checkpoint::None => &[],
        Checkpoint::AfterPre => PRE,
        Checkpoint::BeforeCombat => BEFORE_COMBAT,
        Checkpoint::BeforeLaser => BEFORE_LASER,
    }
}

/// The orders the phase stopped at `cp` runs on with: the stored ones for the slots already
/// passed (some later slots read them, 16's recovery the units' actions), `answer`'s for the
/// slots still to come. A `checkpoint` in `answer` counts only if it comes later.
pub fn splice(stored: &PhaseOrders, answer: &PhaseOrders, cp: Checkpoint) -> PhaseOrders {
    let mut out = answer.clone();
    let passed = passed_parts(cp);
    let has = |p: &str| passed.contains(&p);
    if has("pre") {
        out.pre = stored.pre.clone();
    }
    if has("units") {
        out.units = stored.units.clone();
        out.board = stored.board.clone();
        out.atmospheric = stored.atmospheric.clone();
        out.colony_move = stored.colony_move;
        out.lvr_repair = stored.lvr_repair.clone();
        out.axis = stored.axis.clone();
        out.gryps = stored.gryps.clone();
        out.africa_hex = stored.africa_hex;
    }
    if has("combats") {
        out.combats = stored.combats.clone();
    }
    if checkpoint_slot(out.checkpoint) <= checkpoint_slot(cp) {
        out.checkpoint = Checkpoint::None;
    }
    out
}

/// The faction declared against in the stopped combat at `at` (18.8: the first named).
fn declared_of(p: &Pending, at: Loc) -> Option<Side> {
    p.rest
        .combats
        .iter()
        .find(|c| c.at == at)
        .and_then(|c| c.versus.first().copied())
}

/// The 18.9 answer of a faction that sends none: its policy's, with `ask` read as `abstain`
/// (plan §1.7).
pub fn default_join(state: &State) -> Option<JoinAnswer> {
    let p = state.pending.as_ref()?;
    let AskWhy::Join { at } = p.why else {
        return None;
    };
    let acting = p.cursor.card.side;
    let declared = declared_of(p, at).unwrap_or(acting);
    let ctx = Ctx::new(state.clone(), None, Moment::Check);
    Some(
        match combat::join_answer(&ctx, p.who, acting, declared, at) {
            JoinAnswer::Ask => JoinAnswer::Abstain,
            a => a,
        },
    )
}

/// Resumes the phase stopped in `state.pending` with `answer`, the orders of the faction
/// asked; `Done` when the phase ran to its end, `Stopped` when it stopped again (a later
/// join ask or checkpoint).
pub fn resume(
    ctx: &mut Ctx<'_>,
    turn: u8,
    k: u8,
    who: Side,
    why: &AskWhy,
    answer: &Orders,
) -> Result<Ran, String> {
    let Some(p) = ctx.state.pending.clone() else {
        return Err("an ask step without a stopped phase to resume".into());
    };
    if p.who != who || &p.why != why || p.cursor.k != k {
        return Err(format!(
            "the stopped phase waits for {} ({:?}) but the step asks {who} ({why:?})",
            p.who, p.why
        ));
    }
    let card = p.cursor.card;
    ctx.state.pending = None;
    ctx.state.stage = Stage::Phase { turn, k, card };
    match why {
        AskWhy::Join { at } => {
            let given = answer.join.filter(|a| *a != JoinAnswer::Ask);
            let chosen = given
                .or_else(|| {
                    let mut st = ctx.state.clone();
                    st.pending = Some(p.clone());
                    default_join(&st)
                })
                .unwrap_or(JoinAnswer::Abstain);
            if given.is_none() {
                ctx.log.private(
                    who,
                    format!(
                        "you sent no answer to the join in {}: your policy's answer counts, `ask` read as abstain (plan §1.7)",
                        at.label()
                    ),
                );
            }
            // The combat runs again from its camps (nothing of it happened before the stop,
            // the answer is given to it as the first rule of the faction's join policy
            // for this combat alone, and the policy is put back after.
            let saved = ctx.state.policies[who].join.clone();
            ctx.state.policies[who].join.rules.insert(
                0,
                JoinRule {
                    acting: Some(card.side),
                    declared: declared_of(&p, *at),
                    at: Some(*at),
                    answer: chosen,
                },
            );
            let ran = run_from(ctx, turn, p.cursor, &p.rest);
            ctx.state.policies[who].join = saved;
            Ok(ran)
        }
        AskWhy::Checkpoint(cp) => {
            let rest = match &answer.resume {
                Some(c) => {
                    ctx.log.private(
                        who,
                        format!(
                            "your orders from the checkpoint ({}) on replace the ones you sent before",
                            checkpoint_name(*cp)
                        ),
                    );
                    splice(&p.rest, c, *cp)
                }
                None => p.rest.clone(),
            };
            ctx.log
                .public(format!("{who} continues action phase {k} (plan §1.3)"));
            Ok(run_from(ctx, turn, p.cursor, &rest))
        }
    }
}

/// What the asked part of an order may hold in an ask step (plan §4.3), under `root`
/// (`orders`): the answer of the faction asked, of the kind the step asks; a `continue`
/// names only slots still to come, and its items are judged as a phase step's would be at
/// this point of the phase.
pub fn check_ask(state: &State, side: Side, o: &Orders, root: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    let (Stage::Ask { who, why, .. }, Some(p)) = (&state.stage, &state.pending) else {
        return out;
    };
    let asked = match why {
        AskWhy::Join { at } => format!("whether {who} joins the combat in {}", at.label()),
        AskWhy::Checkpoint(cp) => {
            format!(
                "{who} to continue from its checkpoint {}",
                checkpoint_name(*cp)
            )
        }
    };
    let sent: Vec<(&str, bool)> = vec![
        ("join", o.join.is_some()),
        ("prep", o.prep.is_some()),
        ("continue", o.resume.is_some()),
    ];
    if side != *who {
        for (part, _) in sent.iter().filter(|(_, s)| *s) {
            out.push(Problem::new(
                root.at(*part),
                "",
                format!(
                    "this step asks {asked}; {side} is not asked and may only change its policies"
                ),
                "only `policies:`",
            ));
        }
        return out;
    }
    match why {
        AskWhy::Join { .. } => {
            if o.resume.is_some() {
                out.push(Problem::new(
                    root.at("continue"),
                    "",
                    format!("`continue` answers a checkpoint; this step asks {asked} (18.9)"),
                    "join: attacker | defender | abstain",
                ));
            }
            if o.join == Some(JoinAnswer::Ask) {
                out.push(Problem::new(
                    root.at("join"),
                    "18.9",
                    "`ask` is a policy's answer; this step is the ask",
                    "join: attacker | defender | abstain",
                ));
            }
            if o.prep.is_some() {
                out.push(Problem::new(
                    root.at("prep"),
                    "20",
                    "preparation overrides of a joining faction are not carried out yet: your `defence` policy prepares your units",
                    "leave `prep` out; send `policies: {defence: ...}` with this answer",
                ));
            }
        }
        AskWhy::Checkpoint(cp) => {
            for part in ["join", "prep"] {
                if sent.iter().any(|(n, s)| *n == part && *s) {
                    out.push(Problem::new(
                        root.at(part),
                        "",
                        format!("`{part}` answers an 18.9 join; this step asks {asked}"),
                        "continue: {...} (the phase's orders from the checkpoint on), or nothing",
                    ));
                }
            }
            if let Some(c) = &o.resume {
                out.extend(check_continue(state, side, p, *cp, c, &root.at("continue")));
            }
        }
    }
    out
}

/// The problems of a checkpoint's `continue`, under `at`.
fn check_continue(
    state: &State,
    side: Side,
    p: &Pending,
    cp: Checkpoint,
    c: &PhaseOrders,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let as_orders = Orders {
        pre: c.pre.clone(),
        units: c.units.clone(),
        board: c.board.clone(),
        atmospheric: c.atmospheric.clone(),
        colony_move: c.colony_move,
        lvr_repair: c.lvr_repair.clone(),
        axis: c.axis.clone(),
        gryps: c.gryps.clone(),
        africa_hex: c.africa_hex,
        combats: c.combats.clone(),
        laser: c.laser.clone(),
        speech: c.speech.clone(),
        checkpoint: c.checkpoint,
        ..Orders::default()
    };
    let passed = passed_parts(cp);
    for (part, _) in as_orders.parts() {
        if passed.contains(&part.as_str()) {
            out.push(Problem::new(
                at.at(part.as_str()),
                "",
                format!(
                    "`{part}` were carried out before this checkpoint ({})",
                    checkpoint_name(cp)
                ),
                "only the parts of the slots still to come",
            ));
        }
    }
    if c.checkpoint != Checkpoint::None && checkpoint_slot(c.checkpoint) <= checkpoint_slot(cp) {
        out.push(Problem::new(
            at.at("checkpoint"),
            "",
            format!(
                "the phase is already past {}",
                checkpoint_name(c.checkpoint)
            ),
            "none, or a later checkpoint",
        ));
    }
    if !out.is_empty() {
        return out;
    }
    // The items themselves, judged as a phase step's at this point of the phase.
    let mut phase = state.clone();
    if let Stage::Ask { turn, k, .. } = state.stage {
        phase.stage = Stage::Phase {
            turn,
            k,
            card: p.cursor.card,
        };
    }
    for mut prob in orders::check(&phase, side.name(), &as_orders) {
        let tail: Vec<_> = prob.path.0.iter().skip(1).cloned().collect();
        let mut path = at.clone();
        path.0.extend(tail);
        prob.path = path;
        out.push(prob);
    }
    out
}

/// The answers the faction asked may give (plan §4.6): for a join, the three camps; for a
/// checkpoint, nothing but `continue` items (steps.rs lists them).
pub fn join_choices(state: &State, side: Side) -> Vec<Choice<JoinAnswer>> {
    let (Stage::Ask { who, why, .. }, Some(_)) = (&state.stage, &state.pending) else {
        return Vec::new();
    };
    if *who != side || !matches!(why, AskWhy::Join { .. }) {
        return Vec::new();
    }
    let root = FieldPath::root().at("orders");
    [
        (JoinAnswer::Attacker, "join the attacking faction"),
        (JoinAnswer::Defender, "join the defending faction"),
        (JoinAnswer::Abstain, "stay out (watch)"),
    ]
    .into_iter()
    .filter(|(a, _)| {
        let o = Orders {
            join: Some(*a),
            ..Orders::default()
        };
        check_ask(state, side, &o, &root).is_empty()
    })
    .map(|(a, note)| Choice {
        item: a,
        note: note.into(),
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::data::Place;
    use crate::systems::zeta::setup;
    use crate::systems::zeta::state::{Card, CardKind, CharPlace, FaceUp, Slot, Unit};
    use crate::systems::zeta::steps::resolve;
    use std::collections::BTreeMap;

    fn loc(s: &str) -> Loc {
        Loc::parse(s).unwrap()
    }

    /// Titans' Space card is phase 1 of turn 1; their Green Noa stack stands with AEUG's
    /// fleet in C05, and a Neo Zeon Gwadan with Haman is there too; Neo Zeon's join policy
    /// asks.
    fn three_in_c05() -> State {
        let mut s = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        s.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: Card {
                side: Side::Titans,
                kind: CardKind::Space,
                copy: 1,
            },
        };
        for u in s.units.values_mut() {
            if u.side == Side::Titans && u.place == Place::Hex(loc("space:C02")) {
                u.place = Place::Hex(loc("space:C05"));
            }
        }
        s.units.insert(
            "n-gwadan-9".into(),
            Unit {
                side: Side::NeoZeon,
                type_id: "gwadan".into(),
                place: Place::Hex(loc("space:C05")),
                face: FaceUp::Front,
                carrier: None,
                action: None,
                atmo_moved: false,
                placed_this_phase: false,
            },
        );
        if let Some(h) = s.chars.get_mut("haman") {
            h.place = CharPlace::Aboard("n-gwadan-9".into());
        }
        s.policies[Side::NeoZeon].join.default = JoinAnswer::Ask;
        s
    }

    fn orders_of(text: &str) -> Orders {
        crate::yaml::parse_order::<Orders>(text, "orders.yaml").unwrap()
    }

    struct Out {
        state: State,
        public: Vec<String>,
        private: BTreeMap<String, Vec<String>>,
    }

    fn step(st: &State, side: Side, text: &str, n: u64) -> Out {
        let mut o = BTreeMap::new();
        o.insert(side.name().to_string(), orders_of(text));
        let mut dice = Dice::new(Hash32([n as u8; 32]), Hash32([9; 32])).at_step(n);
        let r = resolve(st, &o, &mut dice).unwrap();
        Out {
            state: r.state,
            public: r.public,
            private: r.private,
        }
    }

    const FIGHT: &str = "combats: [{at: \"space:C05\", versus: [aeug]}]\n";

    fn problems(st: &State, side: Side, text: &str) -> Vec<String> {
        orders::check(st, side.name(), &orders_of(text))
            .into_iter()
            .map(|p| p.message)
            .collect()
    }

    fn join_stop() -> State {
        step(&three_in_c05(), Side::Titans, FIGHT, 2).state
    }

    /// 18.9, plan §1.3: a join policy answering `ask` stops the phase before the combat's
    /// preparation; the state keeps where to resume and Titans' orders, and the next step
    /// waits for Neo Zeon.
    #[test]
    fn a_join_ask_stops_the_phase_and_keeps_where_to_resume_18_9() {
        let out = step(&three_in_c05(), Side::Titans, FIGHT, 2);
        let st = &out.state;
        assert_eq!(
            st.stage,
            Stage::Ask {
                turn: 1,
                k: 1,
                who: Side::NeoZeon,
                why: AskWhy::Join {
                    at: loc("space:C05")
                }
            }
        );
        let p = st.pending.as_ref().unwrap();
        assert_eq!(p.cursor.slot, Slot::Combats);
        assert!(p.cursor.combats_done.is_empty());
        assert_eq!(p.rest.combats.len(), 1);
        assert!(
            out.public
                .iter()
                .any(|l| l.contains("neo_zeon is asked whether it joins the combat in space:C05")),
            "{:?}",
            out.public
        );
        assert!(!out.public.iter().any(|l| l.contains("attacker titans")));
    }

    /// 18.9, plan §4.3: Neo Zeon's answer resumes the combat with Neo Zeon in the camp it
    /// chose; the phase then runs to its end and the join policy is as it was.
    #[test]
    fn the_join_answer_resumes_the_combat_where_it_stopped_18_9() {
        let st = join_stop();
        assert!(problems(&st, Side::NeoZeon, "join: defender\n").is_empty());
        let out = step(&st, Side::NeoZeon, "join: defender\n", 3);
        assert!(
            out.public
                .iter()
                .any(|l| l == "neo_zeon joins aeug in space:C05 (18.9)"),
            "{:?}",
            out.public
        );
        assert!(
            out.public
                .iter()
                .any(|l| l.starts_with("defender aeug+neo_zeon"))
        );
        assert!(out.state.pending.is_none());
        assert!(!matches!(out.state.stage, Stage::Ask { .. }));
        assert_eq!(
            out.state.policies[Side::NeoZeon].join.default,
            JoinAnswer::Ask
        );
        assert!(out.state.policies[Side::NeoZeon].join.rules.is_empty());
    }

    /// Plan §1.7: with no answer, the policy's answer counts, `ask` read as `abstain`.
    #[test]
    fn no_join_answer_abstains_plan_1_7() {
        let st = join_stop();
        assert_eq!(default_join(&st), Some(JoinAnswer::Abstain));
        let out = step(&st, Side::NeoZeon, "{}\n", 3);
        assert!(
            out.public
                .iter()
                .any(|l| l == "neo_zeon watches the combat in space:C05 (18.9)")
        );
        assert!(out.private["neo_zeon"][0].contains("you sent no answer"));
    }

    /// Plan §4.3: only the faction asked answers.
    #[test]
    fn another_side_may_not_answer_the_ask() {
        let st = join_stop();
        let m = problems(&st, Side::Aeug, "join: defender\n");
        assert_eq!(
            m,
            vec![
                "this step asks whether neo_zeon joins the combat in space:C05; aeug is not asked and may only change its policies"
                    .to_string()
            ]
        );
    }

    /// Plan §4.3: an answer of the wrong kind (a stale checkpoint answer, `ask` itself) is
    /// refused, saying what the step asks.
    #[test]
    fn a_stale_or_wrong_answer_is_refused() {
        let st = join_stop();
        let m = problems(&st, Side::NeoZeon, "continue: {laser: []}\n");
        assert!(m[0].starts_with("`continue` answers a checkpoint"), "{m:?}");
        let m = problems(&st, Side::NeoZeon, "join: ask\n");
        assert!(m[0].contains("this step is the ask"), "{m:?}");
        let m = problems(
            &st,
            Side::NeoZeon,
            "units: []\ncombats: [{at: \"space:C05\", versus: [aeug]}]\n",
        );
        assert!(
            m[0].contains("`combats` belongs to the action phase steps"),
            "{m:?}"
        );
    }

    /// Plan §1.3: `checkpoint: before_combat` stops after government, before any combat;
    /// the answer's `continue` replaces the combats, so none is fought.
    #[test]
    fn a_checkpoint_stops_before_its_slot_and_continue_replaces_the_rest() {
        let mut s = three_in_c05();
        s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
        let out = step(
            &s,
            Side::Titans,
            &format!("{FIGHT}checkpoint: before_combat\n"),
            2,
        );
        let st = out.state;
        assert_eq!(
            st.stage,
            Stage::Ask {
                turn: 1,
                k: 1,
                who: Side::Titans,
                why: AskWhy::Checkpoint(Checkpoint::BeforeCombat)
            }
        );
        assert_eq!(st.pending.as_ref().unwrap().cursor.slot, Slot::Combats);
        assert!(!out.public.iter().any(|l| l.contains("attacks")));
        let out = step(&st, Side::Titans, "continue: {combats: []}\n", 3);
        assert!(
            !out.public.iter().any(|l| l.contains("attacks")),
            "{:?}",
            out.public
        );
        assert!(out.state.pending.is_none());
        // Without `continue`, the stored orders run on (plan §1.7).
        let out = step(&st, Side::Titans, "{}\n", 3);
        assert!(
            out.public
                .iter()
                .any(|l| l == "titans attacks aeug in space:C05 (18)"),
            "{:?}",
            out.public
        );
    }

    /// Plan §1.3: `after_pre` stops before the units act; `before_laser` after the combats.
    #[test]
    fn each_checkpoint_stops_before_its_own_slot() {
        let mut s = three_in_c05();
        s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
        let st = step(&s, Side::Titans, "checkpoint: after_pre\n", 2).state;
        assert_eq!(st.pending.as_ref().unwrap().cursor.slot, Slot::Actions);
        let out = step(
            &s,
            Side::Titans,
            &format!("{FIGHT}checkpoint: before_laser\n"),
            2,
        );
        assert_eq!(out.state.pending.as_ref().unwrap().cursor.slot, Slot::Laser);
        assert_eq!(
            out.state.pending.as_ref().unwrap().cursor.combats_done,
            vec![loc("space:C05")]
        );
        assert!(out.public.iter().any(|l| l.contains("attacks aeug")));
    }

    /// Plan §4.3: a `continue` may not name what was carried out before its checkpoint, nor
    /// a checkpoint already passed; the acting faction's `join` is refused there.
    #[test]
    fn continue_names_only_what_is_still_to_come() {
        let mut s = three_in_c05();
        s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
        let st = step(&s, Side::Titans, "checkpoint: before_combat\n", 2).state;
        let m = problems(
            &st,
            Side::Titans,
            "continue: {units: [{unit: t-hizack-1}]}\n",
        );
        assert_eq!(
            m,
            vec!["`units` were carried out before this checkpoint (before_combat)".to_string()]
        );
        let m = problems(&st, Side::Titans, "continue: {checkpoint: after_pre}\n");
        assert_eq!(m, vec!["the phase is already past after_pre".to_string()]);
        let m = problems(&st, Side::Titans, "join: attacker\n");
        assert!(m[0].starts_with("`join` answers an 18.9 join"), "{m:?}");
        assert!(problems(&st, Side::Titans, "continue: {checkpoint: before_laser}\n").is_empty());
        assert!(
            problems(
                &st,
                Side::Titans,
                &format!("continue: {{{}}}\n", FIGHT.trim())
            )
            .is_empty()
        );
    }

    /// Plan §4.3: a `continue` item is judged as the phase step would judge it now.
    #[test]
    fn continue_items_are_judged_like_phase_items() {
        let mut s = three_in_c05();
        s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
        let st = step(&s, Side::Titans, "checkpoint: before_combat\n", 2).state;
        let p = orders::check(
            &st,
            "titans",
            &orders_of("continue: {combats: [{at: \"space:C05\", versus: [titans]}]}\n"),
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].path.to_string().contains("continue"), "{}", p[0].path);
    }

    /// The answers listed for a join are the three camps, for the faction asked only.
    #[test]
    fn join_choices_list_the_three_answers_to_the_asked_only() {
        let st = join_stop();
        assert_eq!(join_choices(&st, Side::NeoZeon).len(), 3);
        assert!(join_choices(&st, Side::Aeug).is_empty());
    }
}
