//! The answers to order messages: a receipt (the accepted orders echoed, the host-signed
//! receipt attached) or a rejection that says what is wrong and how to fix it, both for the
//! seat whose key signed the order; and the fixed answer for everyone else. Every answer is
//! bounded in size whatever the order holds.

use super::address::atom;
use super::authenticate::Unverified;
use super::compose::{Attachment, Auto, Draft};
use crate::engine::order::Accepted;
use jiff::Timestamp;
use lettre::message::Mailbox;

/// What every answer shares.
pub struct Answer<'a> {
    pub game: &'a str,
    pub from: &'a Mailbox,
    pub to: Mailbox,
    /// Stable per incoming message (a hash of its bytes), so a redelivered message is never
    /// answered twice.
    pub message_hash: &'a str,
    pub in_reply_to: Option<String>,
    pub now: Timestamp,
}

impl Answer<'_> {
    fn draft(self, subject: String, body: String, attachments: Vec<Attachment>) -> Draft {
        Draft {
            key: format!("{}.reply.{}", atom(self.game), atom(self.message_hash)),
            from: self.from.clone(),
            to: vec![self.to],
            subject,
            game: self.game.to_string(),
            date: self.now,
            in_reply_to: self.in_reply_to,
            auto: Auto::Replied,
            body,
            attachments,
        }
    }
}

/// The receipt for an accepted order. `document` is the order as accepted (without its
/// signature); `sender_note` warns when the order came from another address than the seat's.
pub fn receipt(
    a: Answer<'_>,
    acc: &Accepted,
    title: &str,
    document: &str,
    sender_note: Option<&str>,
) -> Draft {
    let mut body = format!(
        "Your order for step {step} ({title}) of game {game} is accepted.\n\
         side: {side}\norder hash: {hash}\n",
        step = acc.step,
        game = a.game,
        side = acc.side,
        hash = acc.hash,
    );
    if let Some(r) = acc.replaced {
        body.push_str(&format!(
            "It replaces your earlier order {r} for this step.\n"
        ));
    }
    if let Some(note) = sender_note {
        body.push_str(&format!("\nNOTE: {note}\n"));
    }
    let receipt_name = format!("receipt-step-{}-{}.yaml", acc.step, acc.side);
    body.push_str(&format!(
        "\nThe host-signed receipt is attached ({receipt_name}): keep it. It proves the host \
         accepted this order; `pbem verify GAME --player {receipt_name}` checks that the journal \
         used it. You may send a new order for this step until it is processed; the last one \
         counts.\n\nThe orders you sent, as accepted:\n\n"
    ));
    let (echo, was_cut) = cut(document, MAX_ECHO_BYTES);
    for line in echo.lines() {
        body.push_str("    ");
        body.push_str(line);
        body.push('\n');
    }
    if was_cut {
        body.push_str(&format!(
            "\n[cut here: the order is {} bytes; its hash above names all of it]\n",
            document.len()
        ));
    }
    a.draft(
        format!("receipt: step {}, {}", acc.step, acc.side),
        body,
        vec![Attachment {
            name: receipt_name,
            content_type: "application/yaml",
            bytes: acc.receipt.clone(),
        }],
    )
}

/// How to send an order, in every answer that refuses one.
const HOW_TO_SEND: &str = "How to send an order:\n\
\x20 - attach the signed file that\n\
\x20   `pbem sign ORDERS --key KEY -o signed.yaml` wrote, or the order file\n\
\x20   together with the .sig that\n\
\x20   `ssh-keygen -Y sign -n pbem -f ~/.ssh/id_ed25519 ORDERS` wrote;\n\
\x20 - one order per message; attach files rather than pasting them, since mail\n\
\x20   clients may rewrap pasted text.\n";

/// At most this much of one line of a problem is quoted in a rejection: a problem can quote a
/// value of the order, and the order can be large. Cutting lines, not whole problems, keeps
/// the `field:` and `accepted:` lines that follow a long message.
pub const MAX_LINE_BYTES: usize = 1024;
/// At most this many lines of one problem.
pub const MAX_PROBLEM_LINES: usize = 20;
/// At most this much of the problem list goes into a rejection; the rest is counted.
pub const MAX_PROBLEMS_BYTES: usize = 32 * 1024;
/// At most this much of the accepted document is echoed in a receipt.
pub const MAX_ECHO_BYTES: usize = 32 * 1024;

/// `text` cut to at most `max` bytes at a character boundary; true when something was cut.
fn cut(text: &str, max: usize) -> (&str, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], true)
}

/// The answer to an order signed by the seat it is mailed to, that could not be used. Its
/// problems may quote the order and name the seat's own secrets, so it goes to the seat's
/// registered address only; it is bounded, since a problem can quote a large value.
pub fn rejection(a: Answer<'_>, problems: &[String]) -> Draft {
    let mut body = format!(
        "Your signed order for game {} was not accepted;\n\
         nothing in the game changed.\n\nWhat is wrong:\n",
        a.game
    );
    let mut listed = String::new();
    let mut shown = 0;
    for p in problems {
        let mut item = String::new();
        let lines: Vec<&str> = p.lines().collect();
        for (i, line) in lines.iter().take(MAX_PROBLEM_LINES).enumerate() {
            let (line, was_cut) = cut(line, MAX_LINE_BYTES);
            item.push_str(if i == 0 { "  - " } else { "    " });
            item.push_str(line);
            if was_cut {
                item.push_str(" [cut here: the line is longer than this mail shows]");
            }
            item.push('\n');
        }
        if lines.len() > MAX_PROBLEM_LINES {
            item.push_str(&format!(
                "    [{} more lines of this problem are not shown]\n",
                lines.len() - MAX_PROBLEM_LINES
            ));
        }
        if shown > 0 && listed.len() + item.len() > MAX_PROBLEMS_BYTES {
            break;
        }
        listed.push_str(&item);
        shown += 1;
    }
    body.push_str(&listed);
    if shown < problems.len() {
        body.push_str(&format!(
            "  [{} more problems are not shown; fix these and send the order again]\n",
            problems.len() - shown
        ));
    }
    body.push('\n');
    body.push_str(HOW_TO_SEND);
    body.push_str(
        "\x20 - when a line and a rule are named above, fix that line, sign again and\n\
         \x20   resend.\n",
    );
    a.draft("not accepted: see what to fix".into(), body, Vec::new())
}

/// The one answer a message without a seat's signature can get, and only at a seat's
/// registered address: a fixed text in which nothing comes from the message (no subject, no
/// file name, no value, not even its Message-ID in In-Reply-To). Well below
/// [`super::outbox::MAX_TO_UNREGISTERED`].
pub fn fixed(a: Answer<'_>, why: Unverified) -> Draft {
    let mut body = format!(
        "A message to game {} was not accepted as an order;\n\
         nothing in the game changed.\n\n{}\n\n",
        a.game,
        why.text()
    );
    body.push_str(HOW_TO_SEND);
    body.push_str(
        "\nDetailed answers go only to orders signed with a seat's key, and only to\n\
         that seat's registered address. This answer says nothing of what the\n\
         message held, because anyone can write a message that seems to come from\n\
         you; at most one such answer a day goes to an address.\n",
    );
    Answer {
        in_reply_to: None,
        ..a
    }
    .draft("not accepted".into(), body, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::mail::compose::compose;

    fn answer<'a>(from: &'a Mailbox, game: &'a str) -> Answer<'a> {
        Answer {
            game,
            from,
            to: "A Player Whose Name Is As Long As A Display Name May Be In Game Yaml <p@example.org>"
                .parse()
                .unwrap(),
            message_hash: "0123456789abcdef0123",
            in_reply_to: Some("<x@example.org>".into()),
            now: "2026-05-01T12:00:00Z".parse().unwrap(),
        }
    }

    #[test]
    fn every_fixed_answer_composes_to_under_2_kib_and_repeats_no_message_id() {
        let from: Mailbox = "Kummen host <host@example.org>".parse().unwrap();
        let game = "g".repeat(64);
        for why in [
            Unverified::TooLarge { limit: u64::MAX },
            Unverified::Damaged,
            Unverified::LoneSignature,
            Unverified::NoOrder,
            Unverified::Unsigned,
            Unverified::BadSignature,
            Unverified::NotASeat,
            Unverified::SeveralSeats,
        ] {
            let draft = fixed(answer(&from, &game), why);
            assert_eq!(draft.in_reply_to, None);
            let bytes = compose(&draft).unwrap();
            assert!(bytes.len() < 2048, "{why:?}: {} bytes", bytes.len());
        }
    }

    #[test]
    fn a_rejection_with_many_long_problems_stays_bounded_and_counts_what_it_leaves_out() {
        let from: Mailbox = "Kummen host <host@example.org>".parse().unwrap();
        let problem = format!("{}\n  field: x\n  accepted: y", "z".repeat(100_000));
        let problems = vec![problem; 1000];
        let draft = rejection(answer(&from, "g"), &problems);
        assert!(
            draft.body.len() < MAX_PROBLEMS_BYTES + 2048,
            "{}",
            draft.body.len()
        );
        assert!(draft.body.contains("more problems are not shown"));
        assert!(draft.body.contains("field: x"));
    }
}
