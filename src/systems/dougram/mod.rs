//! Fang of the Sun Dougram, the Deloyer war of independence: two players, `lib` (Liberation
//! Army) and `fed` (Federation Army).
//!
//! The rulebook (Japanese) is the authority; comments cite its rule numbers. The map, the
//! counters, the chits and most cards are stand-ins (games/dougram/). docs/dougram.md has the
//! step model, the order and policy formats, the decisions and the rule -> code -> test table.
//! Each phase has its own module; [`steps`] runs them in the order of 4.1.

pub mod arming;
pub mod bot;
pub mod cardphase;
pub mod cards;
pub mod combat;
pub mod control;
pub mod ctx;
pub mod damage;
pub mod data;
pub mod invariants;
pub mod latency;
pub mod movement;
pub mod odds;
pub mod orders;
pub mod picture;
pub mod play;
pub mod policy;
pub mod replenish;
pub mod security;
pub mod setup;
pub mod state;
pub mod steps;
pub mod template;
pub mod victory;
pub mod view;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod legal_tests;

use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::{DataFile, DataSource, Outcome, Phase, Problem, Reader, Resolution, Rules};
use data::Side;
use orders::Orders;
use state::{State, Step};
use std::collections::BTreeMap;
use view::View;

/// The dougram rule set.
pub struct Dougram;

impl Rules for Dougram {
    type Side = data::Side;
    type State = State;
    type Data = data::Data;
    type Orders = Orders;
    type View = View;

    fn id(&self) -> &'static str {
        "dougram"
    }

    fn title(&self) -> &'static str {
        "Fang of the Sun Dougram: the Deloyer war (stand-in map, counters and cards)"
    }

    /// 1: the rules as first released (pbem 0.1.0); 2: the map, counters and cards moved out
    /// of the state into the game's data.yaml, `stage` is `step` in state and view, and the
    /// view's `policy` is `policies` (pbem 0.3.0); 3: the audited fixes of issue 12 (card
    /// conditions, 8.4.2 and 10.6/11.3 at check, 10.8, 15.6, the default card keep, no
    /// impossible rolls, the stand-in cards that bring every unit type into play). History:
    /// docs/dougram.md.
    fn rules_version(&self) -> u32 {
        3
    }

    fn data_of(&self, state: &State) -> std::sync::Arc<data::Data> {
        state.data.arc()
    }

    fn attach(&self, state: &mut State, data: std::sync::Arc<data::Data>) {
        state.data = data.into();
    }

    /// Rules 1 kept the map, counters and cards in every state: they become the game's data; its
    /// `stage` is rules 2's `step`, and each side's `deck` and `discard` are the two piles of
    /// its `deck` (kit::deck). Rules 2's state reads as it is; the cards of a game that plays
    /// the shipped stand-in deck become rules 3's ([`rules3_cards`]).
    fn upgrade_state(
        &self,
        from: u32,
        state: &str,
        data: Option<std::sync::Arc<data::Data>>,
    ) -> Result<State, String> {
        #[derive(serde::Deserialize)]
        struct Held {
            data: data::Data,
        }
        let (held, mut fields): (Option<Held>, serde_json::Map<String, serde_json::Value>) =
            crate::systems::split_state(state, from == 1, &["data"], &[("stage", "step")])?;
        if from == 1 {
            rules1_card_zones(&mut fields);
        }
        let mut st: State = serde_json::from_value(serde_json::Value::Object(fields))
            .map_err(|e| format!("the stored state: {e}"))?;
        let data = match held {
            Some(h) => h.data,
            None => {
                let d = data.ok_or("the game has no data.yaml to carry over")?;
                (*d).clone()
            }
        };
        let data = if from < 3 { rules3_cards(data)? } else { data };
        self.attach(&mut st, std::sync::Arc::new(data));
        Ok(st)
    }

    fn scenarios(&self) -> Vec<(String, String)> {
        vec![
            (
                setup::SETUP1.to_string(),
                "the campaign (28.1); stand-in map, counters and cards, see games/dougram/".into(),
            ),
            (
                setup::SETUP2.to_string(),
                "the short start (28.2), with card 29 and others already open".into(),
            ),
        ]
    }

    fn data_files(&self) -> &'static [DataFile] {
        data::FILES
    }

    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<State, String> {
        setup::initial_state(scenario, data)
    }

    fn phase(&self, state: &State) -> Phase {
        if let Some(f) = &state.finished {
            let mut scores = BTreeMap::new();
            scores.insert("lib".to_string(), i64::from(state.lib_vp()));
            return Phase::Finished(Outcome {
                winner: Some(f.winner.name().to_string()),
                summary: format!("{} wins: {} ({})", f.winner.name(), f.reason, f.rule),
                scores,
                rule: f.rule.clone(),
                turn: state.turn,
            });
        }
        let t = state.turn;
        let (title, sides) = match state.step {
            Step::Setup => (
                "setup: standing policies (both sides); resolving deals chits and hands (28)"
                    .to_string(),
                vec!["lib".to_string(), "fed".to_string()],
            ),
            Step::Lib => (
                format!("turn {t}, Lib player-turn: arming, movement, combat, latency"),
                vec![Side::Lib.name().to_string()],
            ),
            Step::Fed => (
                format!(
                    "turn {t}, Fed player-turn: replenishment, movement, combat, security, victory check"
                ),
                vec![Side::Fed.name().to_string()],
            ),
        };
        Phase::Waiting { title, sides }
    }

    fn check(&self, state: &State, side: &str, orders: &Orders) -> Vec<Problem> {
        orders::check(state, side, orders)
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
        data: &data::Data,
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
        include_str!("../../../docs/dougram.md")
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

/// Rules 3 gave cards conditions for their use (2.10: 34, 64, 76 and 77 among the stand-in
/// deck) and changed stand-in cards so that every unit type reaches the map (107, 108, 203,
/// 303, 304, 311; 208 and 311 swapped their setup1 marks; 210 is new and 207 left both decks).
/// A game whose cards are all in the shipped stand-in deck, by number and owner, takes rules
/// 3's versions of its cards (and no new card): no card changes
/// zone, so hands, decks and the stock stay as they are, and the setup marks only matter at
/// setup. A game with its own cards.yaml (`pbem new --data`) keeps its cards, which have no
/// conditions unless their owner writes them.
fn rules3_cards(mut old: data::Data) -> Result<data::Data, String> {
    let mut shipped = data::load(&crate::systems::DataSource::default())?.cards;
    let same_deck = old.cards.stand_in
        && old.cards.cards.iter().all(|c| {
            shipped
                .cards
                .iter()
                .any(|n| n.no == c.no && n.owner == c.owner)
        });
    if same_deck {
        // Cards rules 3 added (210) lie in no zone of the old game, so it plays without them.
        shipped
            .cards
            .retain(|n| old.cards.cards.iter().any(|c| c.no == n.no));
        old.cards = shipped;
    }
    Ok(old)
}

/// Rules 1 kept a side's draw pile and discard pile beside its hand (`cards.<side>.deck` a list,
/// `cards.<side>.discard`); rules 2 keeps them in one `kit::deck::Deck` under `deck`
/// (`draw_pile`, `discard`). Anything else is left as it is, for the state's reader to refuse.
fn rules1_card_zones(fields: &mut serde_json::Map<String, serde_json::Value>) {
    let Some(sides) = fields.get_mut("cards").and_then(|c| c.as_object_mut()) else {
        return;
    };
    for zones in sides.values_mut().filter_map(|z| z.as_object_mut()) {
        if !zones.get("deck").is_some_and(|d| d.is_array()) {
            continue;
        }
        let draw_pile = zones.remove("deck").unwrap_or_default();
        let mut deck = serde_json::Map::new();
        deck.insert("draw_pile".into(), draw_pile);
        if let Some(discard) = zones.remove("discard") {
            deck.insert("discard".into(), discard);
        }
        zones.insert("deck".into(), serde_json::Value::Object(deck));
    }
}
