//! Survey phase (8): mercenary face-up ATs and soldiers search hexes holding face-down beeler
//! units; each success flips one of them face-up.

use super::data::{Class, Side};
use super::orders::SurveyOrder;
use super::state::{Log, State, token_label};
use crate::kit::hex::Hex;
use crate::kit::reach::fire;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::collections::BTreeSet;

/// A survey order made concrete: the hex, the rolling units and the token order to flip.
pub struct Plan {
    pub hex: crate::kit::hex::Hex,
    pub units: Vec<String>,
    pub targets: Vec<String>,
    /// Stop rolling after this many successes (A29).
    pub stop_after: Option<u32>,
}

/// Units that may survey in a hex (8.1, 8.2): face-up mercenary ATs and soldiers.
pub fn eligible(state: &State, hex: crate::kit::hex::Hex) -> Vec<String> {
    state
        .active_face_up(hex, Side::Mercenary)
        .into_iter()
        .filter(|id| matches!(state.class_of(id), Some(Class::At | Class::Soldier)))
        .collect()
}

/// Whether the mercenary side may survey as `o` (at `p`) says now, after its moves, with the
/// hexes `listed` before it (8.1, 8.2, 8.4, 8.5, A29): each hex once, holding an eligible unit
/// and a face-down beeler unit; the listed units eligible there; the listed targets face-down
/// beeler tokens there. Every bad entry is a problem of its own.
pub fn legal_survey(
    state: &State,
    listed: &BTreeSet<Hex>,
    o: &SurveyOrder,
    p: &FieldPath,
) -> Result<Plan, Vec<Problem>> {
    if listed.contains(&o.hex) {
        return Err(vec![Problem::new(
            p.at("hex"),
            "8.1",
            format!("{} is surveyed twice", o.hex),
            "each hex once",
        )]);
    }
    let can = eligible(state, o.hex);
    let hidden = state.face_down_in(o.hex, Side::Beeler);
    if can.is_empty() || hidden.is_empty() {
        return Err(vec![Problem::new(
            p.at("hex"),
            "8.1",
            format!(
                "no survey in {}: it needs a face-up mercenary AT or soldier and a face-down beeler unit (after your moves)",
                o.hex
            ),
            "a hex with both",
        )]);
    }
    let mut problems = Vec::new();
    let units = match &o.units {
        None => can.clone(),
        Some(list) => {
            let mut ok = Vec::new();
            for (k, u) in list.iter().enumerate() {
                if !can.contains(u) {
                    problems.push(Problem::new(
                        p.at("units").at(k),
                        "8.2",
                        format!("{u} cannot survey in {}", o.hex),
                        format!("one of {}", can.join(", ")),
                    ));
                } else if !ok.contains(u) {
                    ok.push(u.clone());
                }
            }
            ok
        }
    };
    let tokens: Vec<String> = hidden.iter().map(|id| state.public_name(id)).collect();
    for (k, t) in o.targets.iter().enumerate() {
        if !tokens.contains(t) {
            let mut sorted = tokens.clone();
            sorted.sort();
            problems.push(Problem::new(
                p.at("targets").at(k),
                "8.5",
                format!("{t} is not a face-down beeler token in {}", o.hex),
                format!("one of {}", sorted.join(", ")),
            ));
        }
    }
    if o.stop_after == Some(0) {
        problems.push(Problem::new(
            p.at("stop_after"),
            "8.4",
            "stop_after: 0 would roll no die; leave the hex out instead",
            "1 or more",
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Plan {
        hex: o.hex,
        units,
        targets: o.targets.clone(),
        stop_after: o.stop_after,
    })
}

/// The survey orders as plans, judged by `legal_survey` on the state after the mercenary moves;
/// an order with a problem has no plan.
pub fn plan(state: &State, orders: &[SurveyOrder]) -> (Vec<Plan>, Vec<Problem>) {
    let mut plans = Vec::new();
    let mut problems = Vec::new();
    let root = FieldPath::root().at("orders").at("survey");
    let mut listed = BTreeSet::new();
    for (i, o) in orders.iter().enumerate() {
        match legal_survey(state, &listed, o, &root.at(i)) {
            Ok(plan) => plans.push(plan),
            Err(p) => problems.extend(p),
        }
        listed.insert(o.hex);
    }
    (plans, problems)
}

/// The hexes the mercenary side may survey now, each as an order with every eligible unit and
/// no target, by `legal_survey`.
pub fn survey_choices(state: &State) -> Vec<SurveyOrder> {
    let here = FieldPath::root();
    state
        .occupied_hexes()
        .into_iter()
        .map(|hex| SurveyOrder {
            hex,
            units: None,
            targets: Vec::new(),
            stop_after: None,
        })
        .filter(|o| legal_survey(state, &BTreeSet::new(), o, &here).is_ok())
        .collect()
}

/// 8.4, 8.5: 1D per surveying unit (soldier 1-5, AT 1-3); each success flips one face-down
/// beeler unit: the listed tokens first, then the lowest token numbers. Surplus successes are
/// lost (A29). The plans passed `legal_survey` after the mercenary moves (`plan`), and nothing
/// happens between then and now.
pub fn run(state: &mut State, plans: &[Plan], dice: &mut Dice, log: &mut Log) {
    let tag = state.label_prefix("p6");
    if plans.is_empty() {
        log.public(format!("{tag}: no survey"));
    }
    for pl in plans {
        // 8.1-8.3: the plan was judged (face-up surveyors, face-down beeler units there).
        for r in ["8.1", "8.2", "8.3"] {
            fire(r);
        }
        let mut successes = 0;
        for u in &pl.units {
            if pl.stop_after.is_some_and(|k| successes >= k) {
                break; // A29: the mercenary side stops surveying here
            }
            let label = format!("{tag}/survey/{}/{u}", pl.hex);
            let need = if state.class_of(u) == Some(Class::Soldier) {
                5
            } else {
                3
            };
            let d = dice.d6(&label);
            fire("8.4");
            let ok = d <= need;
            dice.set_result(
                &label,
                format!("need 1-{need}: {}", if ok { "success" } else { "failure" }),
            );
            log.public(format!(
                "{tag}: {u} surveys {}: 1D = {d}, needs 1-{need}: {} (8.4)",
                pl.hex,
                if ok { "success" } else { "failure" }
            ));
            if ok {
                successes += 1;
            }
        }
        for _ in 0..successes {
            let mut hidden: Vec<(u32, String)> = state
                .face_down_in(pl.hex, Side::Beeler)
                .into_iter()
                .map(|id| (state.unit(&id).and_then(|u| u.token).unwrap_or(0), id))
                .collect();
            hidden.sort();
            let pick = pl
                .targets
                .iter()
                .find_map(|t| {
                    hidden
                        .iter()
                        .find(|(n, _)| token_label(Side::Beeler, *n) == *t)
                })
                .or_else(|| hidden.first())
                .map(|(_, id)| id.clone());
            let Some(id) = pick else { break };
            if let Some(ev) = state.reveal(&id) {
                fire("8.5");
                log.public(format!("{tag}: survey success: {ev} (8.5)"));
                super::stages::survey_bonus(state, pl.hex, log, &tag); // 12.7, 12.8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::*;
    use crate::protocol::hash::Hash32;

    fn order(hex: &str, targets: &[&str]) -> SurveyOrder {
        SurveyOrder {
            hex: h(hex),
            units: None,
            targets: targets.iter().map(|t| t.to_string()).collect(),
            stop_after: None,
        }
    }

    #[test]
    fn survey_needs_a_face_up_at_or_soldier_and_a_face_down_enemy_8_1_8_2() {
        let mut s = blank();
        s.place_face_down(&["B-SO01".to_string()], h("K07"));
        s.place_face_down(&["M-AT01".to_string()], h("K07"));
        let (_, p) = plan(&s, &[order("K07", &[])]);
        assert_eq!(p[0].rule.as_deref(), Some("8.1"));
        s.set_hex("M-H01", h("K07"));
        let (_, p) = plan(&s, &[order("K07", &[])]);
        assert_eq!(p.len(), 1, "a heli cannot survey (8.2)");
        s.reveal("M-AT01");
        let (pl, p) = plan(&s, &[order("K07", &[])]);
        assert!(p.is_empty());
        assert_eq!(pl[0].units, vec!["M-AT01".to_string()]);
    }

    #[test]
    fn successes_flip_the_listed_token_first_8_5() {
        // A soldier succeeds on 1-5: try seeds until one succeeds, then check which unit flipped.
        for seed in 0..30u8 {
            let mut s = blank();
            s.place_face_down(&["B-SO01".to_string(), "B-SO02".to_string()], h("K07"));
            s.set_hex("M-SO01", h("K07"));
            let (pl, p) = plan(&s, &[order("K07", &["B#2"])]);
            assert!(p.is_empty(), "{p:?}");
            let mut d = Dice::new(Hash32([seed; 32]), Hash32([0; 32]));
            let mut log = Log::default();
            run(&mut s, &pl, &mut d, &mut log);
            if log.public.iter().any(|e| e.contains("success:")) {
                assert!(s.unit("B-SO02").unwrap().face_up, "B#2 was listed first");
                assert!(!s.unit("B-SO01").unwrap().face_up);
                return;
            }
        }
        panic!("no seed gave a success");
    }

    #[test]
    fn unknown_target_token_is_refused_8_5() {
        let mut s = blank();
        s.place_face_down(&["B-SO01".to_string()], h("K07"));
        s.set_hex("M-SO01", h("K07"));
        let (_, p) = plan(&s, &[order("K07", &["B#9"])]);
        assert_eq!(p[0].path.to_string(), "orders.survey[0].targets[0]");
    }
}
