//! Reminders: once the reminder time of the open step has come (game.yaml `deadline.step`
//! minus `deadline.remind_before`, counted from when the step opened), every side the step
//! waits for whose order is not in gets one reminder. "One" is kept by the message's stable
//! key: `GAME.stepNNNNNN.remind.SIDE` is never queued twice.

use super::super::Error;
use super::super::game::Game;
use super::super::order;
use super::address::atom;
use super::compose::{Attachment, Auto, Draft};
use super::outbox::{self, Queued};
use super::turn::{host_mailbox, how_to_play, seat_mailbox};
use jiff::Timestamp;
use serde::Serialize;
use std::path::Path;

/// What `remind` did for one side.
#[derive(Debug, Clone, Serialize)]
pub struct Reminder {
    pub game: String,
    pub step: u64,
    pub side: String,
    /// "queued", "already queued", "no address"
    pub outcome: String,
}

/// Why nothing was due, or the reminders queued.
#[derive(Debug, Clone, Serialize)]
pub struct Remind {
    pub game: String,
    pub due: Option<Timestamp>,
    pub deadline: Option<Timestamp>,
    pub reminders: Vec<Reminder>,
    pub note: Option<String>,
}

/// What `pbem remind` did over a directory of games.
pub struct RemindedAll {
    pub reminded: Vec<Remind>,
    /// `GAME-DIR: why` of each game that could not be opened or reminded.
    pub problems: Vec<String>,
}

/// [`remind`] for the game in `root`, or every game under it ([`super::games_under`]): one
/// damaged game must not keep the others' players from their reminders.
pub fn remind_all(root: &Path, now: Timestamp) -> Result<RemindedAll, Error> {
    let mut all = RemindedAll {
        reminded: Vec::new(),
        problems: Vec::new(),
    };
    for game in super::games_under(root)? {
        match Game::open(&game).and_then(|g| remind(&g, now)) {
            Ok(r) => all.reminded.push(r),
            Err(e) => all.problems.push(format!("{}: {e}", game.display())),
        }
    }
    Ok(all)
}

pub fn remind(game: &Game, now: Timestamp) -> Result<Remind, Error> {
    let mut r = Remind {
        game: game.config.id.clone(),
        due: None,
        deadline: None,
        reminders: Vec::new(),
        note: None,
    };
    let Some(step) = game.open_step() else {
        r.note = Some("the game is over".into());
        return Ok(r);
    };
    let sched = super::super::schedule::current(game, now)?.expect("the step is open");
    r.deadline = sched.deadline;
    // The reminder follows the deadline as pauses and extensions move it.
    r.due = match (
        sched.deadline,
        game.config.deadline.as_ref().and_then(|d| d.remind_before),
    ) {
        (Some(d), Some(lead)) => d.checked_sub(lead.0).ok(),
        _ => None,
    };
    let Some(due) = r.due else {
        r.note = Some(if sched.paused_since.is_some() {
            "deadlines are paused".into()
        } else {
            "game.yaml sets no deadline and deadline.remind_before".into()
        });
        return Ok(r);
    };
    if now < due {
        r.note = Some(format!("not due before {due}"));
        return Ok(r);
    }
    let Some(from) = host_mailbox(&game.config)? else {
        r.note = Some("mail/addresses.yaml has no mail.from: mail is off".into());
        return Ok(r);
    };
    for side in &step.waiting_for {
        // A bot seat is never late: its bot writes its orders at process time.
        if game.dir.inbox_order(step.step, side).exists() || game.config.bot_of(side).is_some() {
            continue;
        }
        let outcome = match seat_mailbox(&game.config, side)? {
            None => "no address".to_string(),
            Some(to) => {
                let skeleton = format!("orders-step-{}-{side}.yaml", step.step);
                let mut body = format!(
                    "Reminder: step {} ({}) of game {} is still waiting for your orders.\n",
                    step.step, step.title, game.config.id
                );
                body.push_str(&how_to_play(game, step, side, &skeleton, &from, r.deadline));
                let draft = Draft {
                    key: format!(
                        "{}.step{:06}.remind.{}",
                        atom(&game.config.id),
                        step.step,
                        atom(side)
                    ),
                    from: from.clone(),
                    to: vec![to],
                    subject: format!(
                        "step {} ({}): reminder, your orders are missing",
                        step.step, step.title
                    ),
                    game: game.config.id.clone(),
                    date: now,
                    in_reply_to: None,
                    auto: Auto::Generated,
                    body,
                    attachments: vec![Attachment {
                        name: skeleton,
                        content_type: "application/yaml",
                        bytes: order::template(game, side, None)?.into_bytes(),
                    }],
                };
                match outbox::queue(&game.dir, &game.config, &draft)? {
                    Queued::New(_) => "queued".to_string(),
                    Queued::Already(_) => "already queued".to_string(),
                }
            }
        };
        r.reminders.push(Reminder {
            game: game.config.id.clone(),
            step: step.step,
            side: side.clone(),
            outcome,
        });
    }
    Ok(r)
}
