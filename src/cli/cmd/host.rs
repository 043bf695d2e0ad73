//! `pbem host ...`: host operations between steps, each a public journal record with its reason
//! (engine::ops). A new operation is a variant of `args::HostCommand`, an arm below, and the
//! engine function it calls; the printed summary is shared.

use crate::cli::args::{HandOver, HostCommand, ReplaceKey, Rollback, Upgrade};
use crate::cli::output::print;
use crate::engine::ops::{self, Done};
use crate::engine::{Error, exit, mail::clock};
use crate::protocol::keys::PublicKey;

pub fn run(op: HostCommand) -> Result<i32, Error> {
    let done = match op {
        HostCommand::ReplaceKey(a) => replace_key(a)?,
        HostCommand::HandOver(a) => hand_over(a)?,
        HostCommand::Rollback(a) => rollback(a)?,
        HostCommand::Upgrade(a) => upgrade(a)?,
    };
    print(&summary(&done))?;
    Ok(exit::OK)
}

fn replace_key(a: ReplaceKey) -> Result<Done, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let key = PublicKey::read(&a.key)?;
    ops::replace_key(&a.dir, &a.side, &key, &a.reason, now)
}

fn hand_over(a: HandOver) -> Result<Done, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let key = PublicKey::read(&a.key)?;
    ops::hand_over(
        &a.dir,
        &a.side,
        &key,
        a.name.as_deref(),
        a.email.as_deref(),
        &a.reason,
        now,
    )
}

fn rollback(a: Rollback) -> Result<Done, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    ops::rollback(&a.dir, a.to, &a.reason, now)
}

fn upgrade(a: Upgrade) -> Result<Done, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    ops::upgrade(&a.dir, &a.reason, now)
}

/// The record written, what it withdrew, and what the game waits for now.
fn summary(done: &Done) -> String {
    let mut s = format!(
        "record {}: {}\njournal head {}\n",
        done.seq, done.description, done.head
    );
    if !done.withdrawn.is_empty() {
        s.push_str(&format!(
            "withdrawn from the inbox (their players must send them again): {}\n",
            done.withdrawn.join(", ")
        ));
    }
    match &done.next {
        Some(n) => s.push_str(&format!(
            "open: step {} ({}), waiting for {}\n",
            n.step,
            n.title,
            n.waiting_for.join(", ")
        )),
        None => s.push_str("the game is over\n"),
    }
    s
}
