//! What one step's resolution (or one `check`'s simulation) carries from slot to slot: the
//! state as the step has made it so far, the component data, the event log, the dice, the
//! moment, and the labels orders gave to units produced earlier in the same step.
//!
//! The fixed signatures every module follows (docs/zeta-plan.md §10):
//! `legal_X(ctx, side, item, at) -> Result<(), Problem>` judges one item at the moment
//! `ctx.moment` says (`at` is the item's field path, for the problem), and
//! `X_choices(ctx, side) -> Vec<Choice<Item>>` lists the legal values of the same moment by
//! asking it.

use super::data::{Side, ZetaData};
use super::orders::Labels;
use super::state::State;
use crate::kit::events;
use crate::protocol::dice::Dice;
use crate::systems::Problem;
use std::sync::Arc;

/// Events of one step: lines for everyone, and lines only one side may read.
pub type Log = events::Log<Side>;

/// When an item is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// `check`: on the state the order was written for; refuse only what is certainly wrong
    /// when the item comes.
    Check,
    /// The step is carrying the item out now: what is wrong now is skipped and its side told.
    Resolve,
}

pub struct Ctx<'a> {
    /// The state as the step has made it so far (a working copy).
    pub state: State,
    /// The game's component data, held apart from `state` so rules may read it while they
    /// change the state.
    pub data: Arc<ZetaData>,
    pub log: Log,
    /// `None` while `check` simulates: nothing is rolled then.
    pub dice: Option<&'a mut Dice>,
    pub moment: Moment,
    /// Label given in this step's orders -> ids of the units it produced.
    pub labels: Labels,
}

impl<'a> Ctx<'a> {
    /// `base` if no die of this step used it yet, else the first of `base/2`, `base/3`, ...
    /// that none did: an event that can happen twice in one step (a character stranded twice
    /// in one phase, 15.7) keeps the label it always had the first time and gets a fresh one
    /// after, so games that never repeated it replay unchanged.
    pub fn free_label(&self, base: String) -> String {
        let Some(dice) = self.dice.as_deref() else {
            return base;
        };
        if !dice.is_claimed(&base) {
            return base;
        }
        (2u32..)
            .map(|k| format!("{base}/{k}"))
            .find(|l| !dice.is_claimed(l))
            .unwrap_or(base)
    }

    pub fn new(state: State, dice: Option<&'a mut Dice>, moment: Moment) -> Ctx<'a> {
        let data = state.data.arc();
        Ctx {
            state,
            data,
            log: Log::default(),
            dice,
            moment,
            labels: Labels::new(),
        }
    }
}

/// One legal value of an order item, with the note a template writes beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice<T> {
    pub item: T,
    pub note: String,
}

/// Why an order item is skipped, for the line that tells its side.
pub fn reason(p: &Problem) -> String {
    match &p.rule {
        Some(r) => format!("{} ({r})", p.message),
        None => p.message.clone(),
    }
}
