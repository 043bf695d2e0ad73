//! Zeta Gundam / Gundam ZZ: three players, `titans`, `aeug` and `neo_zeon` (issue 14).
//!
//! Built following docs/zeta-plan.md, registered in `systems::all()`; docs/zeta.md describes
//! the steps, the orders and the rule coverage. The rulebook (Japanese) is the authority;
//! comments cite its rule numbers.

pub mod action;
pub mod arming;
pub mod ask;
pub mod atmosphere;
pub mod axis;
pub mod bot;
pub mod cards;
pub mod carry;
pub mod character;
pub mod choices;
pub mod colony;
pub mod combat;
pub mod ctx;
pub mod damage;
pub mod data;
pub mod defaults;
pub mod deploy;
pub mod fire;
pub mod government;
pub mod gryps;
pub mod guard;
pub mod invariants;
pub mod labels;
pub mod leak;
pub mod movement;
pub mod nuke;
pub mod orders;
pub mod phase_start;
pub mod picture;
pub mod policy;
pub mod recovery;
pub mod setup;
pub mod specials;
pub mod standing;
pub mod state;
pub mod steps;
pub mod survival;
pub mod template;
pub mod validate;
pub mod victory;
pub mod view;
pub mod zeon;

use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::{DataFile, DataSource, Outcome, Phase, Problem, Reader, Resolution, Rules};
use data::{Side, ZetaData};
use orders::Orders;
use state::{Stage, State};
use std::collections::BTreeMap;
use std::sync::Arc;
use view::View;

/// The zeta rule set.
pub struct Zeta;

impl Rules for Zeta {
    type Side = Side;
    type State = State;
    type Data = ZetaData;
    type Orders = Orders;
    type View = View;

    fn id(&self) -> &'static str {
        "zeta"
    }

    fn title(&self) -> &'static str {
        "Zeta Gundam / Gundam ZZ: Titans, AEUG and Neo Zeon (stand-in map, counters and track)"
    }

    /// 1: the rules as first registered (docs/zeta.md, "Rules versions" once raised).
    fn rules_version(&self) -> u32 {
        1
    }

    fn data_of(&self, state: &State) -> Arc<ZetaData> {
        state.data.arc()
    }

    fn attach(&self, state: &mut State, data: Arc<ZetaData>) {
        state.data = data.into();
    }

    fn scenarios(&self) -> Vec<(String, String)> {
        vec![(
            setup::GRYPS.to_string(),
            "the campaign from rule 38 (stand-in map, counters, characters and track)".into(),
        )]
    }

    fn data_files(&self) -> &'static [DataFile] {
        data::FILES
    }

    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<State, String> {
        setup::initial_state(scenario, data)
    }

    fn phase(&self, state: &State) -> Phase {
        match &state.stage {
            Stage::Over(end) => {
                let vp = state.base_vp();
                let scores = vp
                    .iter()
                    .map(|(s, v)| (s.name().to_string(), i64::from(*v)))
                    .collect();
                let names: Vec<&str> = end.winners.iter().map(|s| s.name()).collect();
                Phase::Finished(Outcome {
                    winner: match end.winners.as_slice() {
                        [one] => Some(one.name().to_string()),
                        _ => None,
                    },
                    summary: format!("{} ({})", names.join(" and "), end.rule),
                    scores,
                    rule: end.rule.clone(),
                    turn: u32::from(end.turn),
                })
            }
            Stage::Packet { turn } => Phase::Waiting {
                title: format!("turn {turn}: armament, deployment and cards"),
                sides: Side::NAMES.iter().map(|s| s.to_string()).collect(),
            },
            Stage::Phase { turn, k, card } => Phase::Waiting {
                title: format!(
                    "turn {turn}, action phase {k}: {} ({} card)",
                    card.side,
                    card.kind.name()
                ),
                sides: vec![card.side.name().to_string()],
            },
            Stage::Ask { turn, k, who, why } => Phase::Waiting {
                title: match why {
                    state::AskWhy::Join { at } => {
                        format!("turn {turn}, phase {k}: {who} may join the combat in {at}")
                    }
                    state::AskWhy::Checkpoint(cp) => {
                        let at = match cp {
                            state::Checkpoint::AfterPre => "after the colony and demolition",
                            state::Checkpoint::BeforeCombat => "before combat",
                            state::Checkpoint::BeforeLaser => "before the laser",
                            state::Checkpoint::None => "where it stopped",
                        };
                        format!("turn {turn}, phase {k}: {who} continues ({at})")
                    }
                },
                sides: vec![who.name().to_string()],
            },
        }
    }

    fn check(&self, state: &State, side: &str, orders: &Orders) -> Vec<Problem> {
        orders::check(state, side, orders)
    }

    /// Plan §1.7 (defaults.rs).
    fn default_orders(&self, state: &State, side: &str) -> Orders {
        match Side::parse(side) {
            Some(s) => defaults::default_orders(state, s),
            None => Orders::default(),
        }
    }

    fn resolve(
        &self,
        state: &State,
        orders: &BTreeMap<String, Orders>,
        dice: &mut Dice,
    ) -> Result<Resolution<State>, String> {
        steps::resolve(state, orders, dice)
    }

    fn view(&self, state: &State, reader: &Reader) -> View {
        view::view(state, reader)
    }

    fn render(&self, view: &View) -> String {
        view::render(view)
    }

    fn picture(
        &self,
        view: &View,
        events: &[String],
        data: &ZetaData,
    ) -> Option<crate::kit::picture::Svg> {
        Some(picture::picture(view, events, data))
    }

    fn template(&self, state: &State, side: &str) -> String {
        match Side::parse(side) {
            Some(s) => template::template(state, s),
            None => format!("# no side {side:?} in zeta\n"),
        }
    }

    /// Plan §8 (bot.rs).
    fn bot(&self, state: &State, side: &str, seed: &Hash32) -> Orders {
        bot::bot(state, side, seed)
    }

    fn invariants(&self, before: &State, after: &State) -> Vec<String> {
        invariants::broken(before, after)
    }

    fn choice_items(&self, state: &State, side: &str) -> Vec<Orders> {
        choices::choice_items(state, side)
    }

    fn coverage_doc(&self) -> &'static str {
        include_str!("../../../docs/zeta.md")
    }
}

#[cfg(test)]
mod setup_tests;
#[cfg(test)]
mod validate_tests;
