//! The step machine: which side is asked what, checking orders, and resolving a step.

use super::combat::CombatPhase;
use super::data::{Class, Side};
use super::movement::MovementPhase;
use super::orders::{
    CombatOverride, KINDS, Orders, PolicyPatch, PsRule, RetreatTo, RetreatWhen, RuleOr, TargetRule,
    flow,
};
use super::state::{Log, State, Step};
use super::{end, reaction, reinforce, setup, stages, survey, tactics, view};
use crate::kit::policies;
use crate::kit::seats::{Seat, TwoSeats};
use crate::protocol::dice::Dice;
use crate::systems::{Problem, Resolution};
use crate::yaml::FieldPath;
use std::collections::BTreeMap;

fn root() -> FieldPath {
    FieldPath::root().at("orders")
}

/// What a priority list accepts, naming units of `of`.
fn accepted_names(state: &State, of: Side, kinds: &[&str]) -> String {
    let example = state
        .counters
        .units
        .keys()
        .find(|id| state.side_of(id) == Some(of) && !state.counters.is_ps(id))
        .cloned()
        .unwrap_or_default();
    format!(
        "a {} unit id (e.g. {example}) or one of {}",
        of.name(),
        kinds.join(", ")
    )
}

/// Problems with a priority list of unit ids and kinds that must name units of `of`; `kinds`
/// are the kinds allowed here.
fn check_names(
    state: &State,
    path: &FieldPath,
    rule: &str,
    list: &[String],
    of: Side,
    kinds: &[&str],
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (k, sel) in list.iter().enumerate() {
        let ok = match tactics::kind_side(sel) {
            Some(side) => kinds.contains(&sel.as_str()) && side.is_none_or(|s| s == of),
            None => {
                state.side_of(sel) == Some(of)
                    && kinds.iter().any(|k| tactics::matches(state, k, sel))
                    && (kinds.contains(&"kiriko") || !tactics::matches(state, "kiriko", sel))
            }
        };
        if !ok {
            out.push(Problem::new(
                path.at(k),
                rule,
                format!(
                    "{sel} does not name a {} unit that can be chosen here",
                    of.name()
                ),
                accepted_names(state, of, kinds),
            ));
        }
    }
    out
}

/// Kinds that can name an enemy of `side` in combat.
fn enemy_kinds(side: Side) -> Vec<&'static str> {
    KINDS
        .iter()
        .copied()
        .filter(|k| tactics::kind_side(k).is_some_and(|s| s.is_none_or(|s| s == side.other())))
        .collect()
}

fn check_rule_or<R>(
    state: &State,
    side: Side,
    path: &FieldPath,
    rule: &str,
    v: &RuleOr<R>,
) -> Vec<Problem> {
    match v {
        RuleOr::Rule(_) => Vec::new(),
        RuleOr::Prefer(list) => {
            let mut out = Vec::new();
            if list.is_empty() {
                out.push(Problem::new(
                    path.clone(),
                    rule,
                    "an empty priority list",
                    "a keyword, or a list of at least one unit id or kind",
                ));
            }
            out.extend(check_names(
                state,
                path,
                rule,
                list,
                side.other(),
                &enemy_kinds(side),
            ));
            out
        }
    }
}

fn check_retreat(state: &State, side: Side, path: &FieldPath, r: &RetreatWhen) -> Vec<Problem> {
    let mut out = Vec::new();
    match r {
        RetreatWhen::AfterRound(0) => out.push(Problem::new(
            path.at("after_round"),
            "9.11",
            "rounds count from 1",
            "1 or more",
        )),
        RetreatWhen::LostGe(0) => out.push(Problem::new(
            path.at("lost_ge"),
            "9.11",
            "lost_ge: 0 would always retreat",
            "1 or more",
        )),
        RetreatWhen::EnemyHas(list) => {
            let p = path.at("enemy_has");
            if list.is_empty() {
                out.push(Problem::new(
                    p.clone(),
                    "9.11",
                    "an empty list",
                    "at least one unit id or kind",
                ));
            }
            out.extend(check_names(
                state,
                &p,
                "9.11",
                list,
                side.other(),
                &enemy_kinds(side),
            ));
        }
        RetreatWhen::Any(list) | RetreatWhen::All(list) => {
            let key = if matches!(r, RetreatWhen::Any(_)) {
                "any"
            } else {
                "all"
            };
            let p = path.at(key);
            if list.is_empty() {
                out.push(Problem::new(
                    p.clone(),
                    "9.11",
                    "an empty list",
                    "at least one condition",
                ));
            }
            for (k, c) in list.iter().enumerate() {
                if *c == RetreatWhen::Never {
                    out.push(Problem::new(
                        p.at(k),
                        "9.11",
                        "`never` cannot be combined with other conditions",
                        "`retreat: never` on its own, or other conditions",
                    ));
                }
                out.extend(check_retreat(state, side, &p.at(k), c));
            }
        }
        _ => {}
    }
    out
}

fn check_retreat_to(state: &State, path: &FieldPath, r: &RetreatTo) -> Vec<Problem> {
    let mut out = Vec::new();
    for (k, h) in r.hexes.iter().enumerate() {
        if !state.map.grid.contains(*h) {
            out.push(Problem::new(
                path.at("hexes").at(k),
                "9.11.9",
                format!("{h} is off the map"),
                "hexes on the map (only adjacent legal ones are used, 9.11.5-9.11.11)",
            ));
        }
    }
    let mut listed = Vec::new();
    for (k, kind) in r.prefer.iter().enumerate() {
        // At most four kinds exist, so `listed` stays short however long the list is.
        if listed.contains(kind) {
            out.push(Problem::new(
                path.at("prefer").at(k),
                "9.11.9",
                format!("{} is listed twice", flow(kind)),
                "each of own_base, own_units, empty, only_facedown_enemy at most once",
            ));
        } else {
            listed.push(*kind);
        }
    }
    out
}

/// Problems with the combat policies shared by `policy` and `combat_overrides`.
#[allow(clippy::too_many_arguments)]
fn check_combat(
    state: &State,
    side: Side,
    base: &FieldPath,
    ps_partner: Option<&RuleOr<PsRule>>,
    targets: Option<&RuleOr<TargetRule>>,
    base_targets: Option<&RuleOr<TargetRule>>,
    retreat: Option<&RetreatWhen>,
    retreat_to: Option<&RetreatTo>,
    heli_cargo: Option<&Vec<String>>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(v) = ps_partner {
        if side != Side::Beeler {
            out.push(Problem::new(
                base.at("ps_partner"),
                "9.8.2",
                "only the beeler side has PS (2.2.2)",
                "leave ps_partner out",
            ));
        } else {
            out.extend(check_rule_or(
                state,
                side,
                &base.at("ps_partner"),
                "9.8.2",
                v,
            ));
        }
    }
    if let Some(v) = targets {
        out.extend(check_rule_or(state, side, &base.at("targets"), "9.8.4", v));
    }
    if let Some(v) = base_targets {
        out.extend(check_rule_or(
            state,
            side,
            &base.at("base_targets"),
            "9.12.3",
            v,
        ));
    }
    if let Some(v) = retreat {
        out.extend(check_retreat(state, side, &base.at("retreat"), v));
    }
    if let Some(v) = retreat_to {
        out.extend(check_retreat_to(state, &base.at("retreat_to"), v));
    }
    if let Some(v) = heli_cargo {
        if side != Side::Mercenary {
            out.push(Problem::new(
                base.at("heli_cargo"),
                "9.13.4",
                "only the mercenary side has helis",
                "leave heli_cargo out",
            ));
        } else {
            out.extend(check_names(
                state,
                &base.at("heli_cargo"),
                "9.13.4",
                v,
                Side::Mercenary,
                &["at", "soldier", "kanyu"],
            ));
        }
    }
    out
}

/// Problems with per-hex combat overrides sent by `side`.
fn check_overrides(state: &State, side: Side, list: &[CombatOverride]) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut overridden = std::collections::HashSet::new();
    for (i, o) in list.iter().enumerate() {
        let p = root().at("combat_overrides").at(i);
        if !state.map.grid.contains(o.hex) {
            out.push(Problem::new(
                p.at("hex"),
                "9.2",
                format!("{} is off the map", o.hex),
                "a hex on the map",
            ));
        } else if !overridden.insert(o.hex) {
            out.push(Problem::new(
                p.at("hex"),
                "9.2",
                format!("{} has two overrides", o.hex),
                "each hex once",
            ));
        }
        out.extend(check_combat(
            state,
            side,
            &p,
            o.ps_partner.as_ref(),
            o.targets.as_ref(),
            o.base_targets.as_ref(),
            o.retreat.as_ref(),
            o.retreat_to.as_ref(),
            o.heli_cargo.as_ref(),
        ));
    }
    out
}

/// Problems with a policy patch sent by `side`.
fn check_policy(state: &State, side: Side, p: &PolicyPatch) -> Vec<Problem> {
    let mut out = Vec::new();
    let base = root().at("policies");
    out.extend(check_combat(
        state,
        side,
        &base,
        p.ps_partner.as_ref(),
        p.targets.as_ref(),
        p.base_targets.as_ref(),
        p.retreat.as_ref(),
        p.retreat_to.as_ref(),
        p.heli_cargo.as_ref(),
    ));
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
    let pp = check_policy(state, side, &o.policies);
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
        let pp = check_overrides(state, side, &o.combat_overrides);
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
        out.extend(check_policy(state, side, &orders.policies));
        out.extend(check_overrides(state, side, &orders.combat_overrides));
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
