//! The step machine: which side is asked what, checking orders, listing the legal choices, and
//! resolving a step.
//!
//! Legality is written once per order item, in the module that owns its rule (movement,
//! reaction, survey, tactics, combat, reinforce: see their `legal_*` functions). `check` and
//! `resolve` run the side's part of the step through the same simulation (`run_orders`), which
//! judges each item by its legal_* function at the moment it is carried out; `choices` lists
//! the legal items of a step from each module's `*_choices`, which ask the same functions.

use super::combat::CombatPhase;
use super::data::Side;
use super::movement::{self, Allowance, GROUND_MP, MovementPhase};
use super::orders::{
    Action, CombatOverride, Distribute, HeliMove, HeliTrigger, HideGroup, MoveOrder, Orders,
    Pairing, PolicyPatch, PsRule, SurveyOrder, TargetRule, TriggerPhase,
};
use super::state::{Log, State, Step};
use super::{combat, end, reaction, reinforce, setup, stages, survey, tactics, view};
use crate::kit::policies;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::{Problem, Resolution};
use crate::yaml::FieldPath;
use std::collections::{BTreeMap, BTreeSet};

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
    if let Some(v) = &p.draw_until {
        out.extend(reinforce::legal_draw_until(
            state,
            side,
            v,
            &base.at("draw_until"),
        ));
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

/// The legal items of `side`'s part of the current step, each legal on its own at the start of
/// that part: what the template lists and a bot picks from. Each list comes from the choices
/// function of the module that owns the item's rule, which asks the item's legal_* function,
/// so `check` accepts every one of them (tests: kummen::legal_tests). Items sent together are
/// judged in their order, each at its moment: a unit carried by a heli has moved, moves change
/// where a survey may be made. To build several items, take the choices of the moment after
/// the ones already chosen: the per-module functions take the units moved so far
/// (`movement::move_choices`, `cargo_choices`, `reaction::react_choices`), and a
/// `movement::MovementPhase` run without dice carries the chosen items out on a copy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    /// B1 (5.9.1): per hex where hiding is legal, all its face-up units.
    pub hide_at_start: Vec<HideGroup>,
    /// B1, M1 (5.3-5.10): one ground move per unit and hex it can end in (a cheapest route).
    pub moves: Vec<MoveOrder>,
    /// B1, M1 (5.2): units that may flip face-up.
    pub flip_up: Vec<String>,
    /// B1, M1 (5.2): units that may flip face-down in the home base, any of them together.
    pub hide: Vec<String>,
    /// M1 (5.11): one flight per heli and hex in reach (a cheapest route), without cargo.
    pub flights: Vec<HeliMove>,
    /// M1 (5.11.5, A3): per heli that may fly, the units it may carry on any of its flights.
    pub cargo: BTreeMap<String, Vec<String>>,
    /// M1 (8): the hexes that may be surveyed, with every eligible unit rolling.
    pub survey: Vec<SurveyOrder>,
    /// B2 (7.3.2): units that may be revealed before the reaction moves.
    pub reveal: Vec<String>,
    /// B2 (7.3): one reaction move per unit and hex it can end in.
    pub react: Vec<MoveOrder>,
}

impl Choices {
    /// Every choice as an order of its own; each heli's cargo rides on its first flight.
    pub fn orders(&self) -> Vec<Orders> {
        let action = |a: Action| Orders {
            actions: vec![a],
            ..Orders::default()
        };
        let mut out = Vec::new();
        for g in &self.hide_at_start {
            out.push(Orders {
                hide_at_start: vec![g.clone()],
                ..Orders::default()
            });
        }
        for m in &self.moves {
            out.push(action(Action {
                mv: Some(m.clone()),
                ..Action::default()
            }));
        }
        for id in &self.flip_up {
            out.push(action(Action {
                flip_up: Some(id.clone()),
                ..Action::default()
            }));
        }
        for id in &self.hide {
            out.push(action(Action {
                hide: Some(vec![id.clone()]),
                ..Action::default()
            }));
        }
        for f in &self.flights {
            out.push(action(Action {
                heli: Some(f.clone()),
                ..Action::default()
            }));
        }
        for (heli, cargo) in &self.cargo {
            let Some(first) = self.flights.iter().find(|f| f.heli == *heli) else {
                continue;
            };
            for c in cargo {
                out.push(action(Action {
                    heli: Some(HeliMove {
                        cargo: Some(c.clone()),
                        ..first.clone()
                    }),
                    ..Action::default()
                }));
            }
        }
        for o in &self.survey {
            out.push(Orders {
                survey: vec![o.clone()],
                ..Orders::default()
            });
        }
        for id in &self.reveal {
            out.push(Orders {
                reveal: vec![id.clone()],
                ..Orders::default()
            });
        }
        for m in &self.react {
            out.push(Orders {
                react: vec![m.clone()],
                ..Orders::default()
            });
        }
        out
    }
}

/// The legal items of `side`'s part of the current step (nothing when the step does not ask
/// `side`; policies are `policy_choices`).
pub fn choices(state: &State, side: Side) -> Choices {
    let (_, asked) = view::step_title(state);
    if !asked.contains(&side) {
        return Choices::default();
    }
    let none = BTreeSet::new();
    let part = |field| belongs(field, state.step);
    let mut c = Choices::default();
    if part("hide_at_start") {
        c.hide_at_start = movement::hide_at_start_choices(state, side);
    }
    if part("actions") {
        c.moves = movement::move_choices(state, side, &none, Allowance::Normal(GROUND_MP));
        c.flip_up = movement::flip_up_choices(state, side, "5.2");
        c.hide = movement::hide_choices(state, side);
        c.flights = movement::flight_choices(state, side);
        for f in &c.flights {
            c.cargo
                .entry(f.heli.clone())
                .or_insert_with(|| movement::cargo_choices(state, side, &none, &f.heli));
        }
    }
    if part("survey") {
        c.survey = survey::survey_choices(state);
    }
    if part("reveal") {
        c.reveal = reaction::reveal_choices(state);
    }
    if part("react") {
        c.react = reaction::react_choices(state, &none);
    }
    c
}

/// The policy patches `side` may send in any step, one key and one value each: every keyword;
/// every entry a priority list accepts, as a list of one; every hex a hex list accepts; the
/// single retreat conditions (`any` and `all` combine them). Each comes from the choices
/// function of the module that owns the key's rule.
pub fn policy_choices(state: &State, side: Side) -> Vec<PolicyPatch> {
    let mut out = Vec::new();
    let mut put = |p: PolicyPatch| out.push(p);
    for v in reinforce::rp_target_choices(side) {
        put(PolicyPatch {
            rp_target: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in reinforce::draw_until_choices(state, side) {
        put(PolicyPatch {
            draw_until: Some(v),
            ..PolicyPatch::default()
        });
    }
    for h in combat::hex_order_choices(state) {
        put(PolicyPatch {
            hex_order: Some(vec![h]),
            ..PolicyPatch::default()
        });
    }
    if side == Side::Beeler {
        for v in tactics::rule_or_choices(state, side, &PsRule::ALL) {
            put(PolicyPatch {
                ps_partner: Some(v),
                ..PolicyPatch::default()
            });
        }
    }
    for v in Pairing::ALL {
        put(PolicyPatch {
            pairing: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in Distribute::ALL {
        put(PolicyPatch {
            distribute: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in tactics::rule_or_choices(state, side, &TargetRule::ALL) {
        put(PolicyPatch {
            targets: Some(v.clone()),
            ..PolicyPatch::default()
        });
        put(PolicyPatch {
            base_targets: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in tactics::retreat_choices(state, side) {
        put(PolicyPatch {
            retreat: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in combat::retreat_to_choices(state, side) {
        put(PolicyPatch {
            retreat_to: Some(v),
            ..PolicyPatch::default()
        });
    }
    for v in tactics::heli_cargo_choices(state, side) {
        put(PolicyPatch {
            heli_cargo: Some(vec![v]),
            ..PolicyPatch::default()
        });
    }
    if side == Side::Mercenary {
        let trigger = |h| HeliTrigger {
            when_beeler_in: vec![h],
            ..HeliTrigger::default()
        };
        let first = state.map.home(Side::Beeler);
        for h in reaction::trigger_hex_choices(state) {
            put(PolicyPatch {
                heli_triggers: Some(vec![trigger(h)]),
                ..PolicyPatch::default()
            });
        }
        // 7.2: a destination of its own, e.g. an empty base to hold.
        for h in reaction::trigger_destination_choices(state) {
            put(PolicyPatch {
                heli_triggers: Some(vec![HeliTrigger {
                    when_no_mercenary_in: vec![h],
                    to: Some(h),
                    ..HeliTrigger::default()
                }]),
                ..PolicyPatch::default()
            });
        }
        for path in reaction::trigger_path_choices(state) {
            put(PolicyPatch {
                heli_triggers: Some(vec![HeliTrigger {
                    path: Some(path),
                    ..trigger(first)
                }]),
                ..PolicyPatch::default()
            });
        }
        for c in reaction::trigger_cargo_choices(state) {
            put(PolicyPatch {
                heli_triggers: Some(vec![HeliTrigger {
                    cargo: vec![c],
                    ..trigger(first)
                }]),
                ..PolicyPatch::default()
            });
        }
        for phase in TriggerPhase::ALL {
            put(PolicyPatch {
                heli_triggers: Some(vec![HeliTrigger {
                    phase,
                    ..trigger(first)
                }]),
                ..PolicyPatch::default()
            });
        }
    }
    out
}

/// The per-hex combat overrides `side` may send: one per hex it may name, with no policy set
/// (any combat policy of `policy_choices` may be added to it).
pub fn override_choices(state: &State) -> Vec<CombatOverride> {
    tactics::override_hex_choices(state)
        .into_iter()
        .map(|hex| CombatOverride {
            hex,
            ps_partner: None,
            pairing: None,
            distribute: None,
            targets: None,
            base_targets: None,
            retreat: None,
            retreat_to: None,
            heli_cargo: None,
        })
        .collect()
}

/// Whether the orders' `field` is part of `step` (`policies` and `combat_overrides` are part
/// of every step): `check` refuses it elsewhere, `choices` lists nothing for it elsewhere.
fn belongs(field: &str, step: Step) -> bool {
    match field {
        "hide_at_start" => step == Step::B1,
        "actions" => matches!(step, Step::B1 | Step::M1),
        "survey" => step == Step::M1,
        "reveal" | "react" => step == Step::B2,
        _ => true,
    }
}

/// The step-bound fields of `o` (those `belongs` ties to steps), each with whether it is filled.
fn filled(o: &Orders) -> [(&'static str, bool); 5] {
    [
        ("hide_at_start", !o.hide_at_start.is_empty()),
        ("actions", !o.actions.is_empty()),
        ("survey", !o.survey.is_empty()),
        ("reveal", !o.reveal.is_empty()),
        ("react", !o.react.is_empty()),
    ]
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
/// skipped. Without dice, nothing random happens (used by `check`). Every item is judged here
/// by its legal_* function at the moment it is carried out, so `resolve` does not rely on
/// `check` having run; a policy patch is merged, and overrides kept, only without problems,
/// and what reads them later relies on that.
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
    for (field, present) in filled(o) {
        not_now(
            &mut problems,
            field,
            present && !belongs(field, step),
            &name,
        );
    }
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
        for (field, present) in filled(orders) {
            not_now(&mut out, field, present, &step);
        }
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
    crate::kit::reach::fire("3.1");
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
            // The game begins (15.3-15.7, 12.2): turn 1, initial stage, no VP or RP, the
            // setup controllers, and play opens with turn 1's reinforcement phase.
            for rule in ["1.2", "12.2", "15.3", "15.4", "15.5", "15.6", "15.7"] {
                crate::kit::reach::fire(rule);
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
