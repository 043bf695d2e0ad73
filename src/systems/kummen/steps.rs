//! The step machine: which side is asked what, checking orders, and resolving a step.

use super::combat::CombatPhase;
use super::data::{Class, Side};
use super::movement::Phase;
use super::orders::{Orders, PolicyPatch};
use super::state::{Log, Stage, State, Step};
use super::{end, reaction, reinforce, setup, survey, view};
use crate::protocol::dice::Dice;
use crate::systems::{Problem, Resolution};
use crate::yaml::FieldPath;
use std::collections::BTreeMap;

fn root() -> FieldPath {
    FieldPath::root().at("orders")
}

/// Problems with a policy patch sent by `side`.
fn check_policy(state: &State, side: Side, p: &PolicyPatch) -> Vec<Problem> {
    let mut out = Vec::new();
    let base = root().at("policy");
    if let Some(v) = p.rp_target {
        if side != Side::Beeler {
            out.push(Problem::new(
                base.at("rp_target"),
                "4.3.2",
                "only the beeler side buys reaction points",
                "leave rp_target out",
            ));
        } else if v > 9 {
            out.push(Problem::new(
                base.at("rp_target"),
                "4.3.5",
                format!("RP are capped at 9, not {v}"),
                "0 to 9",
            ));
        }
    }
    if let Some(hs) = &p.hex_order {
        for (i, h) in hs.iter().enumerate() {
            if !state.map.grid.contains(*h) {
                out.push(Problem::new(
                    base.at("hex_order").at(i),
                    "9.4",
                    format!("{h} is off the map"),
                    "hexes on the map",
                ));
            }
        }
    }
    if let Some(ts) = &p.heli_triggers {
        if side != Side::Mercenary {
            out.push(Problem::new(
                base.at("heli_triggers"),
                "7.2",
                "only the mercenary side has helis",
                "leave heli_triggers out",
            ));
        }
        for (i, t) in ts.iter().enumerate() {
            let tp = base.at("heli_triggers").at(i);
            if t.when_beeler_in.is_empty() {
                out.push(Problem::new(
                    tp.at("when_beeler_in"),
                    "7.2",
                    "a trigger needs at least one hex",
                    "a list of hexes, e.g. [E07, G10]",
                ));
            }
            for (k, h) in t.when_beeler_in.iter().enumerate() {
                if !state.map.grid.contains(*h) {
                    out.push(Problem::new(
                        tp.at("when_beeler_in").at(k),
                        "7.2",
                        format!("{h} is off the map"),
                        "hexes on the map",
                    ));
                }
            }
            if t.helis == 0 {
                out.push(Problem::new(
                    tp.at("helis"),
                    "7.2",
                    "send at least one heli",
                    "1 or more",
                ));
            }
            for (k, c) in t.cargo.iter().enumerate() {
                let ok = state.side_of(c) == Some(Side::Mercenary)
                    && matches!(state.class_of(c), Some(Class::At | Class::Soldier));
                if !ok {
                    out.push(Problem::new(
                        tp.at("cargo").at(k),
                        "5.11.5",
                        format!("{c} is not a mercenary AT or soldier"),
                        "ids of your ATs and soldiers",
                    ));
                }
            }
        }
    }
    out
}

fn not_now(out: &mut Vec<Problem>, field: &str, present: bool, step: &str) {
    if present {
        out.push(Problem::new(
            root().at(field),
            "",
            format!("`{field}` is not part of step {step}"),
            "only the fields the template lists for this step",
        ));
    }
}

/// Runs the side's part of the current step on `state`; problems are returned, illegal parts
/// skipped. Without dice, nothing random happens (used by `check`).
fn run_orders(
    state: &mut State,
    side: Side,
    o: &Orders,
    dice: Option<&mut Dice>,
    log: &mut Log,
) -> (Vec<Problem>, Vec<survey::Plan>) {
    let mut problems = Vec::new();
    let step = state.step;
    let name = format!("{step:?}");
    not_now(
        &mut problems,
        "hide_at_start",
        !o.hide_at_start.is_empty() && step != Step::B1,
        &name,
    );
    not_now(
        &mut problems,
        "actions",
        !o.actions.is_empty() && !matches!(step, Step::B1 | Step::M1),
        &name,
    );
    not_now(
        &mut problems,
        "survey",
        !o.survey.is_empty() && step != Step::M1,
        &name,
    );
    not_now(
        &mut problems,
        "reveal",
        !o.reveal.is_empty() && step != Step::B2,
        &name,
    );
    not_now(
        &mut problems,
        "react",
        !o.react.is_empty() && step != Step::B2,
        &name,
    );
    if let Some(p) = &o.policy {
        let pp = check_policy(state, side, p);
        if pp.is_empty() {
            state.policy.get_mut(side).apply(p);
        }
        problems.extend(pp);
    }
    let mut plans = Vec::new();
    match step {
        Step::B1 | Step::M1 => {
            let phase = if step == Step::B1 { "p2" } else { "p5" };
            let mut ph = Phase::new(state, side, dice, log, phase);
            ph.hide_at_start(&o.hide_at_start, &root().at("hide_at_start"));
            for (i, a) in o.actions.iter().enumerate() {
                if side == Side::Beeler && a.heli.is_some() {
                    ph.problem(
                        root().at("actions").at(i).at("heli"),
                        "5.11",
                        "only the mercenary side has helis",
                        "move, flip_up or hide",
                    );
                    continue;
                }
                ph.action(i, a, &root().at("actions"));
            }
            problems.extend(std::mem::take(&mut ph.problems));
            drop(ph);
            if step == Step::M1 {
                let (pl, pp) = survey::plan(state, &o.survey);
                plans = pl;
                problems.extend(pp);
            }
        }
        Step::B2 => {
            problems.extend(reaction::beeler_reaction(
                state, &o.reveal, &o.react, dice, log,
            ));
        }
        Step::Setup | Step::Over => {}
    }
    (problems, plans)
}

pub fn check(state: &State, side_name: &str, orders: &Orders) -> Vec<Problem> {
    let Some(side) = Side::parse(side_name) else {
        return vec![Problem::new(
            root(),
            "",
            format!("no side {side_name:?} in kummen"),
            "mercenary or beeler",
        )];
    };
    let (_, asked) = view::step_title(state);
    if !asked.contains(&side) {
        // The engine refuses orders from a side the step does not wait for; here only the
        // content is judged: every field but the policy is out of place.
        let step = format!("{:?} (the {} side is not asked)", state.step, side.name());
        let mut out = Vec::new();
        not_now(
            &mut out,
            "hide_at_start",
            !orders.hide_at_start.is_empty(),
            &step,
        );
        not_now(&mut out, "actions", !orders.actions.is_empty(), &step);
        not_now(&mut out, "survey", !orders.survey.is_empty(), &step);
        not_now(&mut out, "reveal", !orders.reveal.is_empty(), &step);
        not_now(&mut out, "react", !orders.react.is_empty(), &step);
        if let Some(p) = &orders.policy {
            out.extend(check_policy(state, side, p));
        }
        return out;
    }
    let mut scratch = state.clone();
    let mut log = Log::default();
    run_orders(&mut scratch, side, orders, None, &mut log).0
}

fn orders_of(orders: &BTreeMap<String, Orders>, side: Side) -> Orders {
    orders.get(side.name()).cloned().unwrap_or_default()
}

fn ignored(log: &mut Log, side: Side, problems: &[Problem]) {
    for p in problems {
        log.private(side, format!("order ignored at {}: {}", p.path, p.message));
    }
}

/// T0 of a new turn: scheduled stage change (12.3, with the entry effect of stage 1, 12.5),
/// helis reset (A4), then phase 1 (4) and the turn-7 offensive draw (4.5).
fn next_turn(state: &mut State, dice: &mut Dice, log: &mut Log) {
    reinforce::turn_start(state, log);
    if let Some(s) = state.next_stage.take() {
        state.stage = s;
        log.public(format!(
            "t{}/t0: the story moves to {s:?} (12.3)",
            state.turn
        ));
        if s == Stage::Stage1
            && let Some(k) = state.counters.with_role(super::data::Role::Kanyu)
            && state.hex_of(&k).is_some()
        {
            let ex10 = state.map.home(Side::Mercenary);
            let from = state.public_name(&k);
            state.set_hex(&k, ex10);
            if let Some(u) = state.units.get_mut(&k) {
                u.face_up = true;
                u.token = None;
            }
            log.public(format!(
                "t{}/t0: Kan-Yu ({from}) returns face-up to EX-10, now 12-6 (12.5, A21)",
                state.turn
            ));
        }
    }
    reinforce::reinforcement_phase(state, dice, log);
    end::draw_offensive(state, dice, log);
}

pub fn resolve(
    state: &State,
    orders: &BTreeMap<String, Orders>,
    dice: &mut Dice,
) -> Result<Resolution<State>, String> {
    let mut s = state.clone();
    let mut log = Log::default();
    match s.step {
        Step::Over => return Err("the game is over; there is nothing to resolve".into()),
        Step::Setup => {
            for side in Side::BOTH {
                let o = orders_of(orders, side);
                let (p, _) = run_orders(&mut s, side, &o, None, &mut log);
                ignored(&mut log, side, &p);
            }
            setup::place_units(&mut s, dice, &mut log);
            next_turn(&mut s, dice, &mut log);
            s.step = Step::B1;
        }
        Step::B1 => {
            let o = orders_of(orders, Side::Beeler);
            let (p, _) = run_orders(&mut s, Side::Beeler, &o, Some(dice), &mut log);
            ignored(&mut log, Side::Beeler, &p);
            reaction::heli_reaction(&mut s, &mut log, false);
            let tag = s.label_prefix("p4");
            CombatPhase {
                state: &mut s,
                dice,
                log: &mut log,
                phase_player: Side::Beeler,
                tag,
            }
            .run();
            if end::home_captured(&s) {
                end::finish(&mut s, dice, &mut log, false);
            } else {
                s.step = Step::M1;
            }
        }
        Step::M1 => {
            let o = orders_of(orders, Side::Mercenary);
            let (p, plans) = run_orders(&mut s, Side::Mercenary, &o, Some(dice), &mut log);
            ignored(&mut log, Side::Mercenary, &p);
            survey::run(&mut s, &plans, dice, &mut log);
            s.step = Step::B2;
        }
        Step::B2 => {
            let o = orders_of(orders, Side::Beeler);
            let (p, _) = run_orders(&mut s, Side::Beeler, &o, Some(dice), &mut log);
            ignored(&mut log, Side::Beeler, &p);
            reaction::heli_reaction(&mut s, &mut log, true);
            let tag = s.label_prefix("p8");
            CombatPhase {
                state: &mut s,
                dice,
                log: &mut log,
                phase_player: Side::Mercenary,
                tag,
            }
            .run();
            if end::home_captured(&s) {
                end::finish(&mut s, dice, &mut log, false);
            } else if end::offensive_now(&s) {
                end::finish(&mut s, dice, &mut log, true);
            } else {
                s.turn += 1;
                next_turn(&mut s, dice, &mut log);
                s.step = Step::B1;
            }
        }
    }
    let mut private = BTreeMap::new();
    for side in Side::BOTH {
        let v = log.private.get(side).clone();
        if !v.is_empty() {
            private.insert(side.name().to_string(), v);
        }
    }
    Ok(Resolution {
        state: s,
        public: log.public,
        private,
    })
}
