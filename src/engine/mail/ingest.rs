//! `pbem ingest`: one incoming message (from stdin, a file or a Maildir) → its game, its order
//! filed exactly as `pbem submit` files it, and an answer queued in the outbox. Automatic
//! messages are recorded and never answered. Every message is recorded in the game's
//! `mail/in/` (or `unmatched-mail/` under a root of many games) as `HASH.eml` (written before
//! anything is done) and `HASH.yaml` (the verdict); a message whose verdict is recorded is
//! never handled twice, so a redelivered message changes nothing.

use super::super::dir::{self, GameDir};
use super::super::game::Game;
use super::super::{Error, order};
use super::address;
use super::classify;
use super::extract::{self, Candidate};
use super::maildir::{self, Raw};
use super::outbox::{self, Queued};
use super::parse::{self, Mail};
use super::replies::{self, Answer};
use super::turn::{host_mailbox, seat_mailbox};
use super::{games_under, read_config, received_dir};
use crate::protocol::envelope;
use crate::protocol::hash::sha256;
use jiff::Timestamp;
use lettre::message::Mailbox;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Messages above this many bytes are refused unread (default 10 MiB).
    pub max_size: u64,
    pub now: Timestamp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// An order was filed; a receipt is queued.
    Accepted,
    /// An order message that could not be used; the answer says why.
    Rejected,
    /// Not an order, or not to be answered (automatic, bounce, list, spam, unknown game).
    Ignored,
    /// This exact message was handled before; nothing was done again.
    Duplicate,
}

/// What was done with one message; also its record in `mail/in/HASH.yaml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    pub source: String,
    pub received: Timestamp,
    pub size: u64,
    pub message_id: Option<String>,
    pub from: String,
    pub subject: String,
    pub game: Option<String>,
    pub verdict: Verdict,
    pub detail: String,
    pub side: Option<String>,
    pub step: Option<u64>,
    pub order: Option<String>,
    /// Outbox key of the answer, when one was queued.
    pub reply: Option<String>,
}

/// The game of a message: one game directory, or a root of many found by id.
struct Games {
    single: Option<PathBuf>,
    by_id: Vec<(String, PathBuf)>,
    root: PathBuf,
}

impl Games {
    fn load(root: &Path) -> Result<Games, Error> {
        let dirs = games_under(root)?;
        if dirs.len() == 1 && dirs[0] == root {
            return Ok(Games {
                single: Some(root.to_path_buf()),
                by_id: Vec::new(),
                root: root.to_path_buf(),
            });
        }
        let mut by_id = Vec::new();
        for d in dirs {
            // A damaged game.yaml must not stop mail for the other games.
            if let Ok(c) = read_config(&d) {
                by_id.push((c.id, d));
            }
        }
        Ok(Games {
            single: None,
            by_id,
            root: root.to_path_buf(),
        })
    }

    fn find(&self, ids: &[Option<String>]) -> Option<PathBuf> {
        if let Some(s) = &self.single {
            return Some(s.clone());
        }
        ids.iter().flatten().find_map(|id| {
            self.by_id
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, d)| d.clone())
        })
    }

    /// Where messages of no known game are recorded.
    fn unmatched(&self) -> PathBuf {
        self.root.join("unmatched-mail")
    }
}

/// The game id in a subject tag `[pbem ID]`, if any.
pub fn tag_in(subject: &str) -> Option<String> {
    let start = subject.find("[pbem ")? + "[pbem ".len();
    let rest = &subject[start..];
    let id = rest[..rest.find(']')?].trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// Ingests one message read from `source`.
pub fn ingest(root: &Path, raw: &Raw, source: &str, opts: &Options) -> Result<Outcome, Error> {
    let games = Games::load(root)?;
    ingest_in(&games, raw, source, opts)
}

/// Ingests every message in `maildir/new`; each handled message moves to `cur/`. A message
/// that could not be handled (an I/O error, a game busy with another command) stays in `new/`
/// for the next run, and the others go on.
pub fn ingest_maildir(
    root: &Path,
    maildir: &Path,
    opts: &Options,
) -> Result<Vec<Result<Outcome, String>>, Error> {
    let games = Games::load(root)?;
    let _lock = maildir::lock(maildir)?;
    let mut out = Vec::new();
    for path in maildir::new_messages(maildir)? {
        let source = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let result = maildir::read_file(&path, opts.max_size)
            .and_then(|raw| ingest_in(&games, &raw, &source, opts))
            .and_then(|o| maildir::mark_seen(maildir, &path).map(|_| o));
        out.push(result.map_err(|e| format!("{source}: {e}")));
    }
    Ok(out)
}

fn ingest_in(games: &Games, raw: &Raw, source: &str, opts: &Options) -> Result<Outcome, Error> {
    let hash = {
        let mut h = raw.bytes.clone();
        h.extend_from_slice(&raw.size.to_be_bytes());
        sha256(&h).hex()[..20].to_string()
    };
    let mail = parse::parse(&raw.bytes);
    let empty = Mail::default();
    let m = mail.as_ref().unwrap_or(&empty);
    let found = if raw.truncated() || mail.is_none() {
        extract::Found::default()
    } else {
        extract::find(&m.parts)
    };
    let order_game = found.orders.first().and_then(|c| extract::game_id(&c.doc));
    let tag = tag_in(&m.subject);
    let game_dir = games.find(&[order_game, tag.clone()]);
    let record_dir = match &game_dir {
        Some(d) => received_dir(&GameDir::new(d)),
        None => games.unmatched(),
    };
    let mut outcome = Outcome {
        source: source.to_string(),
        received: opts.now,
        size: raw.size,
        message_id: m.message_id.clone(),
        from: m.from_text.clone(),
        subject: m.subject.clone(),
        game: None,
        verdict: Verdict::Ignored,
        detail: String::new(),
        side: None,
        step: None,
        order: None,
        reply: None,
    };
    let verdict_path = record_dir.join(format!("{hash}.yaml"));
    if verdict_path.exists() {
        let earlier: Result<Outcome, _> = crate::yaml::parse(
            &dir::read_text(&verdict_path)?,
            &verdict_path.display().to_string(),
        );
        outcome.verdict = Verdict::Duplicate;
        outcome.detail = match earlier {
            Ok(e) => format!(
                "handled before ({:?}: {}); nothing done again",
                e.verdict, e.detail
            ),
            Err(_) => "handled before; nothing done again".into(),
        };
        return Ok(outcome);
    }
    // The audit copy first: whatever happens next, the message is kept.
    dir::write_atomic(&record_dir.join(format!("{hash}.eml")), &raw.bytes)?;
    decide(
        &mut outcome,
        game_dir.as_deref(),
        mail.as_ref(),
        &found,
        raw,
        tag,
        &hash,
        opts,
    )?;
    dir::write_atomic(&verdict_path, crate::yaml::encode(&outcome)?.as_bytes())?;
    Ok(outcome)
}

#[allow(clippy::too_many_arguments)]
fn decide(
    out: &mut Outcome,
    game_dir: Option<&Path>,
    mail: Option<&Mail>,
    found: &extract::Found,
    raw: &Raw,
    tag: Option<String>,
    hash: &str,
    opts: &Options,
) -> Result<(), Error> {
    let ignore = |out: &mut Outcome, why: String| {
        out.verdict = Verdict::Ignored;
        out.detail = why;
        Ok(())
    };
    let Some(mail) = mail else {
        return ignore(out, "not a mail message: no headers".into());
    };
    if let Some(why) = classify::automatic(mail) {
        return ignore(out, format!("{why}: recorded, never answered"));
    }
    let Some(game_dir) = game_dir else {
        return ignore(
            out,
            match tag {
                Some(t) => format!("no game {t:?} is run here: recorded, not answered"),
                None => "not an order: no [pbem GAME] tag in the subject and no signed order \
                         of a game run here"
                    .into(),
            },
        );
    };
    let game = Game::open(game_dir)?;
    out.game = Some(game.config.id.clone());
    let host = host_mailbox(&game.config)?;
    if let (Some(h), Some(f)) = (&host, &mail.from)
        && address::same(&h.email, f)
    {
        return ignore(
            out,
            "sent by this host's own address: never answered".into(),
        );
    }
    if found.orders.is_empty() && found.problems.is_empty() && !raw.truncated() && tag.is_none() {
        return ignore(
            out,
            "not an order: no [pbem GAME] tag in the subject and no order attached".into(),
        );
    }
    let problems: Vec<String> = if raw.truncated() {
        vec![format!(
            "the message is {} bytes, above this host's limit of {} bytes: attach only the \
             order file (and its .sig)",
            raw.size, opts.max_size
        )]
    } else if found.orders.len() > 1 {
        let names: Vec<&str> = found.orders.iter().map(|c| c.label.as_str()).collect();
        vec![format!(
            "{} different orders in one message ({}): send one order per message",
            names.len(),
            names.join(", ")
        )]
    } else if let Some(c) = found.orders.first() {
        match submit(&game, c)? {
            Ok(acc) => return accepted(out, &game, mail, c, acc, hash, opts),
            Err(rejections) => rejections,
        }
    } else if !found.problems.is_empty() || !mail.problems.is_empty() {
        found
            .problems
            .iter()
            .chain(&mail.problems)
            .cloned()
            .collect()
    } else {
        vec!["no order found in the message: no attachment holds a signed pbem order".into()]
    };
    out.verdict = Verdict::Rejected;
    out.detail = problems.join("; ");
    if let (Some(from), Some(to)) = (host.as_ref(), mail.reply_address()) {
        let draft = replies::rejection(
            Answer {
                game: &game.config.id,
                from,
                to: Mailbox::new(None, to.clone()),
                message_hash: hash,
                in_reply_to: mail.message_id.clone(),
                now: opts.now,
            },
            &address::header_text(&mail.subject, 200),
            &problems,
        );
        out.reply = Some(queued_key(outbox::queue(&game.dir, &draft)?));
    } else {
        out.detail.push_str(no_reply_reason(host.is_some()));
    }
    Ok(())
}

fn no_reply_reason(has_host: bool) -> &'static str {
    if has_host {
        " (no reply: the message has no valid sender address)"
    } else {
        " (no reply: game.yaml has no mail.from)"
    }
}

fn queued_key(q: Queued) -> String {
    q.path()
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Writes the order to files and submits it exactly as `pbem submit` does. Rejections come
/// back with the attachment's own name in place of the temporary file's.
fn submit(game: &Game, c: &Candidate) -> Result<Result<order::Accepted, Vec<String>>, Error> {
    let tmp = tempfile::tempdir().map_err(|e| Error::Fail(format!("temporary directory: {e}")))?;
    let doc = tmp.path().join(&c.file_name);
    std::fs::write(&doc, &c.doc).map_err(|e| Error::io(&doc, e))?;
    let sig = match &c.sig {
        Some(s) => {
            let p = tmp.path().join(format!("{}.sig", c.file_name));
            std::fs::write(&p, s).map_err(|e| Error::io(&p, e))?;
            Some(p)
        }
        None => None,
    };
    match order::submit(game, &doc, sig.as_deref()) {
        Ok(acc) => Ok(Ok(acc)),
        Err(Error::Rejected(rs)) => {
            let doc_name = doc.display().to_string();
            let sig_name = sig.as_ref().map(|p| p.display().to_string());
            Ok(Err(rs
                .into_iter()
                .map(|mut r| {
                    if r.file == doc_name {
                        r.file = c.label.clone();
                    } else if Some(&r.file) == sig_name.as_ref() {
                        r.file = format!("{}.sig", c.file_name);
                    }
                    r.to_string()
                })
                .collect()))
        }
        Err(e) => Err(e),
    }
}

fn accepted(
    out: &mut Outcome,
    game: &Game,
    mail: &Mail,
    c: &Candidate,
    acc: order::Accepted,
    hash: &str,
    opts: &Options,
) -> Result<(), Error> {
    out.verdict = Verdict::Accepted;
    out.side = Some(acc.side.clone());
    out.step = Some(acc.step);
    out.order = Some(acc.hash.hex());
    out.detail = format!("order {} of {} for step {}", acc.hash, acc.side, acc.step);
    let seat = seat_mailbox(&game.config, &acc.side)?;
    let note = match (&seat, &mail.from) {
        (Some(s), Some(f)) if !address::same(&s.email, f) => Some(format!(
            "this order was mailed from {f}, which is not the address registered for {} ({}). \
             The signature is what authenticates an order, so it is accepted; if you did not \
             send it, tell the host.",
            acc.side, s.email
        )),
        (Some(s), None) => Some(format!(
            "this order came without a valid sender address; the address registered for {} is {}.",
            acc.side, s.email
        )),
        _ => None,
    };
    if let Some(n) = &note {
        out.detail.push_str(&format!("; sender mismatch: {n}"));
    }
    let Some(host) = host_mailbox(&game.config)? else {
        out.detail.push_str(no_reply_reason(false));
        return Ok(());
    };
    // The receipt echoes the orders, which may name secrets: it goes to the seat's own address
    // when there is one, never to an unverified sender.
    let to = match seat {
        Some(s) => s,
        None => match mail.reply_address() {
            Some(a) => Mailbox::new(None, a.clone()),
            None => {
                out.detail.push_str(no_reply_reason(true));
                return Ok(());
            }
        },
    };
    let title = game
        .open_step()
        .filter(|s| s.step == acc.step)
        .map(|s| s.title.clone())
        .unwrap_or_default();
    let document = String::from_utf8_lossy(&envelope::strip_embedded_signature(&c.doc)).to_string();
    let draft = replies::receipt(
        Answer {
            game: &game.config.id,
            from: &host,
            to,
            message_hash: hash,
            in_reply_to: mail.message_id.clone(),
            now: opts.now,
        },
        &acc,
        &title,
        &document,
        note.as_deref(),
    );
    out.reply = Some(queued_key(outbox::queue(&game.dir, &draft)?));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_is_found_anywhere_in_the_subject() {
        assert_eq!(
            tag_in("Re: [pbem kummen-demo] step 3").as_deref(),
            Some("kummen-demo")
        );
        assert_eq!(tag_in("orders"), None);
        assert_eq!(tag_in("[pbem ]"), None);
    }
}
