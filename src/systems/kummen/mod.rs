//! Armored Trooper VOTOMS, Kummen campaign: two players, `mercenary` and `beeler`.
//!
//! The rulebook (Japanese) is the authority; rule numbers are cited in comments. The map and
//! counters are stand-ins (games/kummen/). A turn takes three steps (docs/kummen.md): B1 (beeler
//! movement, mercenary heli reaction by standing triggers, first combat), M1 (mercenary movement
//! and survey), B2 (beeler reaction, heli triggers, second combat, turn end and the next turn's
//! reinforcement). Step 1 is setup: both sides may send standing policies.

pub mod bot;
pub mod combat;
pub mod control;
pub mod data;
pub mod end;
pub mod invariants;
pub mod movement;
pub mod odds;
pub mod orders;
pub mod picture;
pub mod reaction;
pub mod reinforce;
pub mod setup;
pub mod stages;
pub mod state;
pub mod steps;
pub mod survey;
pub mod tactics;
pub mod template;
pub mod units;
pub mod view;

#[cfg(test)]
mod coverage_tests;
#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod legal_tests;
#[cfg(test)]
mod policy_tests;
#[cfg(test)]
mod tests;

use super::*;
pub use orders::Orders;
pub use state::State;
pub use view::View;

pub struct Kummen;

/// How reports, views and check messages cite a decision taken where the book is silent or
/// unclear: the rule number, a short phrase, and the section of docs/kummen.md whose table
/// explains it under `id`, so a player who has only the book can look it up.
pub fn ruling(rule: &str, id: &str, phrase: &str) -> String {
    format!("{rule}; ruling {id}: {phrase}, docs/kummen.md \"Decisions on ambiguities\"")
}

impl Rules for Kummen {
    type Side = data::Side;
    type State = State;
    type Data = data::Components;
    type Orders = Orders;
    type View = View;

    fn id(&self) -> &'static str {
        "kummen"
    }

    fn title(&self) -> &'static str {
        "Armored Trooper VOTOMS: the Kummen campaign (stand-in map and counters)"
    }

    /// 1: the rules as first released (pbem 0.1.0); 2: the map and counters moved out of the
    /// state into the game's data.yaml, and `policy` is `policies` in orders, state and view
    /// (pbem 0.3.0); 3: the audited rule fixes of issue 12 (Proto One, 9.11.1, 9.12.2,
    /// impossible rolls) and the new policies (heli trigger destinations, retreat groups,
    /// draw_until). History: docs/kummen.md.
    fn rules_version(&self) -> u32 {
        3
    }

    fn data_of(&self, state: &State) -> std::sync::Arc<data::Components> {
        std::sync::Arc::new(data::Components {
            map: state.map.arc(),
            counters: state.counters.arc(),
        })
    }

    fn attach(&self, state: &mut State, data: std::sync::Arc<data::Components>) {
        state.map = data.map.clone().into();
        state.counters = data.counters.clone().into();
    }

    /// Rules 1 kept the map and counters in every state: they become the game's data; its
    /// `policy` is rules 2's `policies`.
    fn upgrade_state(
        &self,
        from: u32,
        state: &str,
        data: Option<std::sync::Arc<data::Components>>,
    ) -> Result<State, String> {
        let (components, mut st): (Option<data::Components>, State) = crate::systems::split_state(
            state,
            from == 1,
            &["map", "counters"],
            &[("policy", "policies")],
        )?;
        let data = match components {
            Some(c) => std::sync::Arc::new(c),
            None => data.ok_or("the game has no data.yaml to carry over")?,
        };
        self.attach(&mut st, data);
        Ok(st)
    }

    fn scenarios(&self) -> Vec<(String, String)> {
        vec![(
            setup::SCENARIO.to_string(),
            "the full campaign (15); stand-in map and counters, see games/kummen/".to_string(),
        )]
    }

    fn data_files(&self) -> &'static [DataFile] {
        data::FILES
    }

    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<State, String> {
        setup::initial_state(scenario, data)
    }

    fn phase(&self, state: &State) -> Phase {
        if let Some(e) = &state.ending {
            let scores = (state.vp.iter())
                .map(|(side, vp)| (side.name().to_string(), *vp))
                .collect();
            return Phase::Finished(Outcome {
                winner: e.winner.map(|s| s.name().to_string()),
                summary: e.summary.clone(),
                scores,
                rule: end::ending_rule(state).to_string(),
                turn: state.turn,
            });
        }
        let (title, sides) = view::step_title(state);
        Phase::Waiting {
            title,
            sides: sides.iter().map(|s| s.name().to_string()).collect(),
        }
    }

    fn check(&self, state: &State, side: &str, orders: &Orders) -> Vec<Problem> {
        steps::check(state, side, orders)
    }

    fn default_orders(&self, _state: &State, _side: &str) -> Orders {
        Orders::default()
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
        data: &data::Components,
    ) -> Option<crate::kit::picture::Svg> {
        Some(picture::picture(view, events, data))
    }

    fn template(&self, state: &State, side: &str) -> String {
        template::template(state, side)
    }

    fn invariants(&self, before: &State, after: &State) -> Vec<String> {
        invariants::broken(before, after)
    }

    fn choice_items(&self, state: &State, side: &str) -> Vec<Orders> {
        match data::Side::parse(side) {
            Some(side) => steps::choices(state, side).orders(),
            None => Vec::new(),
        }
    }

    fn bot(&self, state: &State, side: &str, seed: &Hash32) -> Orders {
        match data::Side::parse(side) {
            Some(side) => bot::orders(state, side, seed),
            None => Orders::default(),
        }
    }

    fn coverage_doc(&self) -> &'static str {
        include_str!("../../../docs/kummen.md")
    }

    fn odds(
        &self,
        state: Option<&State>,
        reader: &Reader,
        args: &[String],
    ) -> Result<String, String> {
        odds::odds(state, reader, args)
    }
}
