//! `pbem status`: where the game stands, for people and for scripts.

use super::Error;
use super::game::Game;
use serde::Serialize;

#[derive(Debug, Serialize)]
pub struct Status {
    pub game: String,
    pub system: String,
    pub scenario: String,
    pub record: u64,
    pub head: String,
    /// The open step, absent when the game is over.
    pub step: Option<u64>,
    pub title: Option<String>,
    /// Sides whose orders for the open step are still missing.
    pub waiting_for: Vec<String>,
    /// Sides whose orders for the open step are in.
    pub received: Vec<String>,
    /// Sides of the open step played by the host's bot: their orders are written when the
    /// step is processed, so the step never waits for them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<String>,
    pub finished: bool,
    pub outcome: Option<String>,
    /// The open step's deadline (absent when the game is over or has no deadline).
    pub schedule: Option<super::schedule::Schedule>,
    /// game.yaml `missed_orders`: default, wait, host or bot.
    pub missed_orders: String,
    /// Per side (every seat, in seat order): how many steps it was given default orders
    /// because its orders were missing at the deadline.
    pub missed: Vec<Missed>,
    /// Against the time `status` was asked at: how long until the open step is due (its
    /// deadline plus grace), negative when it is overdue. Absent without a running deadline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due_in: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overdue: Option<bool>,
}

impl Status {
    /// Fills `due_in` and `overdue` for the time `now`.
    pub fn at(mut self, now: jiff::Timestamp) -> Status {
        let due = self
            .schedule
            .as_ref()
            .filter(|s| s.paused_since.is_none())
            .and_then(|s| s.due_at());
        if let (Some(due), Some(_)) = (due, self.step) {
            let left = now.duration_until(due);
            self.due_in = Some(format!("{left:#}"));
            self.overdue = Some(left.is_negative());
        }
        self
    }
}

#[derive(Debug, Serialize)]
pub struct Missed {
    pub side: String,
    pub count: u64,
}

pub fn status(game: &Game) -> Result<Status, Error> {
    let next = game.open_step();
    let mut waiting = Vec::new();
    let mut received = Vec::new();
    let mut bots = Vec::new();
    if let Some(n) = next {
        for side in &n.waiting_for {
            if game.config.bot_of(side).is_some() {
                bots.push(side.clone());
            } else if game.dir.inbox_order(n.step, side).exists() {
                received.push(side.clone());
            } else {
                waiting.push(side.clone());
            }
        }
    }
    let outcome = game.journal.outcome.clone();
    // A bot seat never misses a deadline: its orders are written when the step is processed.
    let missed = game
        .config
        .side_names()
        .into_iter()
        .filter(|side| game.config.bot_of(side).is_none())
        .map(|side| {
            let count = game.journal.defaults.get(&side).copied().unwrap_or(0);
            Missed { side, count }
        })
        .collect();
    Ok(Status {
        // Only with deadlines on: the opening time alone is host bookkeeping.
        schedule: super::schedule::at_record(game, game.last_seq())?
            .filter(|s| s.deadline.is_some() || s.paused_since.is_some()),
        missed_orders: game.config.missed_orders.name().into(),
        missed,
        game: game.config.id.clone(),
        system: game.config.system.clone(),
        scenario: game.config.scenario.clone(),
        record: game.last_seq(),
        head: game.head().hex(),
        step: next.map(|n| n.step),
        title: next.map(|n| n.title.clone()),
        waiting_for: waiting,
        received,
        bots,
        finished: next.is_none(),
        outcome,
        due_in: None,
        overdue: None,
    })
}

impl Status {
    pub fn text(&self) -> String {
        let mut s = format!(
            "game {} ({}, scenario {})\n",
            self.game, self.system, self.scenario
        );
        s.push_str(&format!(
            "journal head {} (record {})\n",
            self.head, self.record
        ));
        match (self.step, &self.title) {
            (Some(step), Some(title)) => {
                s.push_str(&format!("open step {step}: {title}\n"));
                s.push_str(&format!(
                    "waiting for: {}\n",
                    if self.waiting_for.is_empty() {
                        "nobody (ready to process)".to_string()
                    } else {
                        self.waiting_for.join(", ")
                    }
                ));
                if !self.received.is_empty() {
                    s.push_str(&format!("received: {}\n", self.received.join(", ")));
                }
                if !self.bots.is_empty() {
                    s.push_str(&format!(
                        "played by the host's bot (orders written at process time): {}\n",
                        self.bots.join(", ")
                    ));
                }
                if let Some(sc) = &self.schedule {
                    s.push_str(&format!("{}\n", sc.describe(None)));
                }
                match (&self.due_in, self.overdue) {
                    (Some(left), Some(true)) => s.push_str(&format!(
                        "overdue by {}: `pbem process` now applies the missed-orders policy\n",
                        left.trim_start_matches('-')
                    )),
                    (Some(left), Some(false)) => {
                        s.push_str(&format!("due in {left} (deadline plus grace)\n"))
                    }
                    _ => {}
                }
            }
            _ => {
                s.push_str("the game is over\n");
                if let Some(o) = &self.outcome {
                    s.push_str(&format!("result: {o}\n"));
                }
            }
        }
        s.push_str(&format!("missed orders policy: {}\n", self.missed_orders));
        let missed: Vec<String> = self
            .missed
            .iter()
            .map(|m| format!("{} {}", m.side, m.count))
            .collect();
        s.push_str(&format!(
            "missed deadlines (default orders used): {}\n",
            missed.join(", ")
        ));
        s
    }
}
