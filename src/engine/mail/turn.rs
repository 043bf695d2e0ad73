//! The mails that follow a journal record: each side with an address gets its own view (text
//! in the body, YAML attached), the public report and, when the next step waits for it, an
//! order skeleton, and the board picture of its view (PNG and SVG); each observer gets the
//! public report and the public board. Everything in a side's mail is derived from that side's
//! view, the public report, public step data and the side's own template, so no hidden fact of
//! another side can reach it.

use super::super::Error;
use super::super::config::GameConfig;
use super::super::game::Game;
use super::super::{order, picture, views};
use super::address::{self, atom};
use super::clock;
use super::compose::{Attachment, Auto, Draft};
use super::outbox::{self, Queued};
use crate::protocol::hash::sha256;
use crate::protocol::journal::NextStep;
use jiff::Timestamp;
use lettre::message::Mailbox;

/// The host's From address, or None when mail/addresses.yaml has no `mail.from` (mail is off).
pub fn host_mailbox(config: &GameConfig) -> Result<Option<Mailbox>, Error> {
    if config.mail.from.is_empty() {
        return Ok(None);
    }
    address::mailbox(&config.mail.from, "mail/addresses.yaml: mail.from")
        .map(Some)
        .map_err(Error::Fail)
}

/// The mailbox of `side`'s seat (its name as display name), or None without an address.
pub fn seat_mailbox(config: &GameConfig, side: &str) -> Result<Option<Mailbox>, Error> {
    let Some((i, seat)) = config
        .seats
        .iter()
        .enumerate()
        .find(|(_, s)| s.side == side)
    else {
        return Ok(None);
    };
    if seat.email.is_empty() {
        return Ok(None);
    }
    let mb = address::mailbox(
        &seat.email,
        &format!("mail/addresses.yaml: seats[{i}].email"),
    )
    .map_err(Error::Fail)?;
    Ok(Some(match mb.name {
        Some(_) => mb,
        None => address::named(&seat.name, mb.email),
    }))
}

/// Records when the open step opened (if not yet recorded) and queues every mail of the newest
/// journal record that is not queued or delivered yet. Safe to call any number of times.
pub fn after_record(game: &Game, now: Timestamp) -> Result<Vec<Queued>, Error> {
    let date = match game.open_step() {
        Some(s) => clock::record_opened(&game.dir, s.step, now)?,
        None => now,
    };
    let Some(from) = host_mailbox(&game.config)? else {
        return Ok(Vec::new());
    };
    let mut queued = Vec::new();
    for draft in drafts(game, game.last_seq(), &from, date)? {
        queued.push(outbox::queue(&game.dir, &game.config, &draft)?);
    }
    Ok(queued)
}

/// The drafts of record `seq`: one per side with an address, one per observer.
pub fn drafts(game: &Game, seq: u64, from: &Mailbox, date: Timestamp) -> Result<Vec<Draft>, Error> {
    let id = &game.config.id;
    let record = &game.record(seq)?.0;
    let next = record.next.as_ref();
    let report = views::report_text(game, seq)?;
    let report_name = format!("report-{seq:06}.txt");
    let deadline = match next {
        Some(_) => super::super::schedule::at_record(game, seq)?.and_then(|s| s.deadline),
        None => None,
    };
    let mut out = Vec::new();
    for side in game.config.side_names() {
        let Some(to) = seat_mailbox(&game.config, &side)? else {
            continue;
        };
        let (yaml, text) = views::side_view_at(game, &side, seq)?;
        let must = next.filter(|n| n.waiting_for.contains(&side));
        let mut attachments = vec![
            Attachment {
                name: format!("view-{seq:06}-{side}.yaml"),
                content_type: "application/yaml",
                bytes: yaml.into_bytes(),
            },
            Attachment {
                name: report_name.clone(),
                content_type: "text/plain; charset=utf-8",
                bytes: report.clone().into_bytes(),
            },
        ];
        attachments.extend(pictures(
            game,
            &crate::systems::Reader::Side(side.clone()),
            seq,
            &format!("board-{seq:06}-{side}"),
        )?);
        let mut body = bot_lines(record);
        body.push_str(&text);
        if let Some(n) = must
            && seq == game.last_seq()
        {
            let skeleton = format!("orders-step-{}-{side}.yaml", n.step);
            attachments.push(Attachment {
                name: skeleton.clone(),
                content_type: "application/yaml",
                bytes: order::template(game, &side, None)?.into_bytes(),
            });
            body.push_str(&how_to_play(game, n, &side, &skeleton, from, deadline));
        }
        out.push(Draft {
            key: format!("{}.{seq:06}.view.{}", atom(id), atom(&side)),
            from: from.clone(),
            to: vec![to],
            subject: subject(seq, next, &side),
            game: id.clone(),
            date,
            in_reply_to: None,
            auto: Auto::Generated,
            body,
            attachments,
        });
    }
    // Observers get the public board, drawn once for all of them.
    let public_board = if game.config.mail.observers.is_empty() {
        Vec::new()
    } else {
        pictures(
            game,
            &crate::systems::Reader::Public,
            seq,
            &format!("board-{seq:06}-public"),
        )?
    };
    for (i, observer) in game.config.mail.observers.iter().enumerate() {
        let to = address::mailbox(
            observer,
            &format!("mail/addresses.yaml: mail.observers[{i}]"),
        )
        .map_err(Error::Fail)?;
        let tag = &sha256(to.email.to_string().to_ascii_lowercase().as_bytes()).hex()[..12];
        out.push(Draft {
            key: format!("{}.{seq:06}.report.{tag}", atom(id)),
            from: from.clone(),
            to: vec![to],
            subject: format!("record {seq}: public report"),
            game: id.clone(),
            date,
            in_reply_to: None,
            auto: Auto::Generated,
            body: report.clone(),
            attachments: public_board.clone(),
        });
    }
    Ok(out)
}

/// The board picture of `reader`'s view at record `seq`, as `STEM.png` (to look at) and
/// `STEM.svg` (to zoom); none for a system without pictures.
fn pictures(
    game: &Game,
    reader: &crate::systems::Reader,
    seq: u64,
    stem: &str,
) -> Result<Vec<Attachment>, Error> {
    let Some(svg) = picture::optional(game, reader, seq)? else {
        return Ok(Vec::new());
    };
    let png = picture::encode(svg.clone(), picture::Format::Png)?;
    Ok(vec![
        Attachment {
            name: format!("{stem}.png"),
            content_type: "image/png",
            bytes: png,
        },
        Attachment {
            name: format!("{stem}.svg"),
            content_type: "image/svg+xml",
            bytes: svg.into_string().into_bytes(),
        },
    ])
}

/// What a player reads first when the host's bot wrote orders in the step the mail reports:
/// which sides' orders were the bot's (the attached report lists them too).
fn bot_lines(record: &crate::protocol::journal::Record) -> String {
    let Some(st) = &record.step else {
        return String::new();
    };
    let bots: Vec<String> = st
        .orders
        .iter()
        .filter_map(|o| Some(format!("{} ({} bot)", o.side, o.bot.as_ref()?)))
        .collect();
    if bots.is_empty() {
        return String::new();
    }
    format!(
        "In step {}, the host's bot wrote the orders of: {}.\n\n",
        st.number,
        bots.join(", ")
    )
}

fn subject(seq: u64, next: Option<&NextStep>, side: &str) -> String {
    match next {
        Some(n) if n.waiting_for.iter().any(|s| s == side) => format!(
            "record {seq}, step {} ({}): your orders are needed",
            n.step, n.title
        ),
        Some(n) => format!(
            "record {seq}, step {} ({}): waiting for {}",
            n.step,
            n.title,
            n.waiting_for.join(", ")
        ),
        None => format!("record {seq}: the game is over"),
    }
}

/// The footer of a mail that asks for orders: what to do from a mail client.
pub fn how_to_play(
    game: &Game,
    n: &NextStep,
    side: &str,
    skeleton: &str,
    from: &Mailbox,
    deadline: Option<Timestamp>,
) -> String {
    let tz = game.config.seat(side).and_then(|s| s.tz.as_ref());
    let by = deadline
        .map(|t| format!(" by {}", super::super::schedule::show(t, tz)))
        .unwrap_or_default();
    format!(
        "\n-- \nYour orders for step {step} of game {game} are needed{by}.\n\
         1. Fill in the attached {skeleton} (the legal choices are written in as comments).\n\
         2. Sign it on your own machine:\n\
         \x20    pbem sign {skeleton} --key YOUR_KEY -o signed.yaml\n\
         \x20  or, without pbem (first replace `entropy: auto` with the output of `openssl rand -hex 32`\n\
         \x20  and `version: auto` with a number, larger for each new version you send):\n\
         \x20    ssh-keygen -Y sign -n pbem -f ~/.ssh/id_ed25519 {skeleton}\n\
         3. Mail the signed file (or the file and its .sig) as attachments to {to}\n\
         \x20  with {tag} in the subject. A receipt, or a message saying what to fix, comes\n\
         \x20  back to the address registered for your side. To change your orders before\n\
         \x20  the step is processed, sign them again and resend: the larger version counts.\n\
         Side: {side}.\n",
        step = n.step,
        game = game.config.id,
        to = from.email,
        tag = super::subject_tag(&game.config.id),
    )
}
