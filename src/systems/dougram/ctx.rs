//! What one step's resolution carries from phase to phase: the dice, the event log, and the
//! labels that orders give to units created earlier in the same step (digest 3.2: arming and
//! replenishment orders may label new units so that later movement and combat orders can use
//! them).

use super::data::Side;
use super::state::State;
use crate::kit::events;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use std::collections::BTreeMap;

/// Events of one step: lines for everyone, and lines only one side may read.
pub type Log = events::Log<Side>;

pub struct Ctx<'d> {
    pub dice: &'d mut Dice,
    pub log: Log,
    /// Label given in this step's orders -> counter id of the unit it created.
    pub labels: BTreeMap<String, String>,
}

impl<'d> Ctx<'d> {
    pub fn new(dice: &'d mut Dice) -> Ctx<'d> {
        Ctx {
            dice,
            log: Log::default(),
            labels: BTreeMap::new(),
        }
    }

    /// The counter an order names: a label from this step, else a counter id in the state.
    pub fn unit(&self, state: &State, name: &str) -> Option<String> {
        if let Some(id) = self.labels.get(name) {
            return Some(id.clone());
        }
        state.units.contains_key(name).then(|| name.to_string())
    }
}

/// Why an order item is skipped, for the line that tells its side: the problem its legal_*
/// function found, with the rule.
pub fn reason(p: &Problem) -> String {
    match &p.rule {
        Some(r) => format!("{} ({r})", p.message),
        None => p.message.clone(),
    }
}
