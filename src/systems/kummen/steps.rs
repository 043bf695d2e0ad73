//! The step machine: which side is asked what, checking orders, and resolving a step.

use super::combat::CombatPhase;
use super::data::Side;
use super::movement::MovementPhase;
use super::orders::{Orders, PolicyPatch};
use super::state::{Log, State, Step};
use super::{combat, end, reaction, reinforce, setup, stages, survey, tactics, view};
use crate::kit::policies;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::{Problem, Resolution};
use crate::yaml::FieldPath;
use std::collections::BTreeMap;

fn root() -> FieldPath {
    FieldPath::root().at("orders")
}

/// Problems with a policy patch sent by `side`: each key judged by the legal_* function of the
/// module that owns its rule.
fn check_policies(state: &State, side: Side, p: &PolicyPatch) -> Vec<Problem> {
    let base = root().at("policies");
    let mut out = tactics::legal_combat_policies(state, side, &base, &p.into());
    if let Some(v) = p.rp_target {
        out.extend(reinforce::legal_rp_target(side, v, &base.at("rp_target")));
    }
    if let Some(hs) = &p.hex_order {
        out.extend(combat::legal_hex_order(state, &base.at("hex_order"), hs));
    }
    if let Some(ts) = &p.heli_triggers {
        out.extend(reaction::legal_heli_triggers(
            state,
            side,
            ts,
            &base.at("heli_triggers"),
        ));
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
    let pp = check_policies(state, side, &o.policies);
    if pp.is_empty()
        && let Err(e) = policies::merge(state.policies.get_mut(side), &o.policies)
    {
        problems.push(Problem::new(
            root().at("policies"),
            "",
            e,
            "the policies the template lists",
        ));
    }
    problems.extend(pp);
    if !o.combat_overrides.is_empty() {
        let pp = tactics::legal_overrides(state, side, &o.combat_overrides);
        if pp.is_empty() {
            state.policies.get_mut(side).combat_overrides = o.combat_overrides.clone();
        }
        problems.extend(pp);
    }
    let mut plans = Vec::new();
    match step {
        Step::B1 | Step::M1 => {
            let phase = if step == Step::B1 { "p2" } else { "p5" };
            let mut ph = MovementPhase::new(state, side, dice, log, phase);
            ph.hide_at_start(&o.hide_at_start, &root().at("hide_at_start"));
            for (i, a) in o.actions.iter().enumerate() {
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
            Side::listing(),
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
        out.extend(check_policies(state, side, &orders.policies));
        out.extend(tactics::legal_overrides(
            state,
            side,
            &orders.combat_overrides,
        ));
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

/// T0 of a new turn: helis reset (A4), the scheduled stage change with its entry effects (12.3),
/// then the turn-start checks of stages 2 and 6 (12.6, 12.10; A49), then phase 1 (4) and the
/// turn-7 offensive draw (4.5).
pub(super) fn next_turn(state: &mut State, dice: &mut Dice, log: &mut Log) {
    reinforce::turn_start(state, log);
    stages::turn_start(state, dice, log);
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
            for &side in Side::ALL {
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
    Ok(Resolution::new(s, log))
}
