//! The answers to order messages: a receipt (the accepted orders echoed, the host-signed
//! receipt attached) or a rejection that says what is wrong and how to fix it.

use super::address::atom;
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
    for line in document.lines() {
        body.push_str("    ");
        body.push_str(line);
        body.push('\n');
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

/// The answer to a message that could not be used as an order.
pub fn rejection(a: Answer<'_>, subject: &str, problems: &[String]) -> Draft {
    let mut body = format!(
        "Your message {subject:?} was not accepted as an order for game {}; nothing in the \
         game changed.\n\nWhat is wrong:\n",
        a.game
    );
    for p in problems {
        for (i, line) in p.lines().enumerate() {
            body.push_str(if i == 0 { "  - " } else { "    " });
            body.push_str(line);
            body.push('\n');
        }
    }
    body.push_str(
        "\nHow to send an order:\n\
         \x20 - attach the signed file that `pbem sign ORDERS --key KEY -o signed.yaml` wrote, or\n\
         \x20   the order file together with the .sig that\n\
         \x20   `ssh-keygen -Y sign -n pbem -f ~/.ssh/id_ed25519 ORDERS` wrote;\n\
         \x20 - one order per message; attach files rather than pasting them, since mail\n\
         \x20   clients may rewrap pasted text;\n\
         \x20 - when a line and a rule are named above, fix that line, sign again and resend.\n",
    );
    a.draft("not accepted: see what to fix".into(), body, Vec::new())
}
