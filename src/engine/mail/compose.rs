//! Builds the bytes of an outgoing message. Apart from what SMTP requires, a message is a pure
//! function of its draft: the Message-ID comes from the draft's stable key, the Date from a
//! time recorded in the game (or the `--now` of the command), and the MIME boundary from a hash
//! of the content, so composing the same draft twice gives the same bytes.

use super::address::{self, atom};
use crate::protocol::hash::sha256;
use jiff::Timestamp;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as LettreAttachment, Mailbox, MultiPart, SinglePart};

/// RFC 3834: what kind of automatic message this is. Both kinds tell auto-responders not to
/// answer, and `ingest` ignores any message that carries one, so no mail loop can form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auto {
    /// Views, reports and reminders.
    Generated,
    /// Receipts and rejections.
    Replied,
}

#[derive(Debug, Clone)]
pub struct Attachment {
    /// File name as the player will see it; made safe before use.
    pub name: String,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

/// An outgoing message before it is composed.
#[derive(Debug, Clone)]
pub struct Draft {
    /// Stable name of this message: its outbox file stem and the left part of its Message-ID.
    /// Built from atoms (game, record or step, kind, side), so the same message always gets
    /// the same key and is never queued twice.
    pub key: String,
    pub from: Mailbox,
    pub to: Vec<Mailbox>,
    /// Without the tag; [`compose`] puts `[pbem GAME]` in front.
    pub subject: String,
    pub game: String,
    pub date: Timestamp,
    pub in_reply_to: Option<String>,
    pub auto: Auto,
    pub body: String,
    pub attachments: Vec<Attachment>,
}

impl Draft {
    /// `<KEY@DOMAIN-OF-FROM>`.
    pub fn message_id(&self) -> String {
        format!("<{}@{}>", self.key, atom(self.from.email.domain()))
    }

    pub fn subject_line(&self) -> String {
        format!(
            "{} {}",
            super::subject_tag(&self.game),
            address::header_text(&self.subject, 160)
        )
    }
}

/// The message as RFC 5322 bytes (CRLF line endings).
pub fn compose(d: &Draft) -> Result<Vec<u8>, String> {
    let mut b = lettre::Message::builder()
        .from(d.from.clone())
        .subject(d.subject_line())
        .date(std::time::SystemTime::from(d.date))
        .message_id(Some(d.message_id()))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            match d.auto {
                Auto::Generated => "auto-generated".into(),
                Auto::Replied => "auto-replied".into(),
            },
        ));
    for to in &d.to {
        b = b.to(to.clone());
    }
    if let Some(id) = d.in_reply_to.as_deref().and_then(address::safe_message_id) {
        b = b.in_reply_to(id.clone()).references(id);
    }
    let body = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(d.body.clone());
    let message = if d.attachments.is_empty() {
        b.singlepart(body)
    } else {
        let mut parts = MultiPart::mixed().boundary(boundary(d)).singlepart(body);
        for a in &d.attachments {
            let ct = ContentType::parse(a.content_type)
                .map_err(|e| format!("content type {:?}: {e}", a.content_type))?;
            parts = parts.singlepart(
                LettreAttachment::new(attachment_name(&a.name)).body(a.bytes.clone(), ct),
            );
        }
        b.multipart(parts)
    };
    message
        .map(|m| m.formatted())
        .map_err(|e| format!("cannot compose message {}: {e}", d.key))
}

/// A boundary that cannot appear in base64 or in the content it was derived from (in practice).
fn boundary(d: &Draft) -> String {
    let mut all = Vec::new();
    all.extend_from_slice(d.key.as_bytes());
    all.extend_from_slice(d.body.as_bytes());
    for a in &d.attachments {
        all.extend_from_slice(a.name.as_bytes());
        all.extend_from_slice(&a.bytes);
    }
    format!("=_pbem_{}", &sha256(&all).hex()[..32])
}

/// Attachment names keep a safe alphabet (they go into a header parameter).
fn attachment_name(name: &str) -> String {
    atom(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> Draft {
        Draft {
            key: "g1.000001.view.beeler".into(),
            from: "Host <host@example.org>".parse().unwrap(),
            to: vec!["Bob <bob@example.org>".parse().unwrap()],
            subject: "step 2\r\nBcc: evil@example.org".into(),
            game: "g1".into(),
            date: "2026-05-01T12:00:00Z".parse().unwrap(),
            in_reply_to: Some("<x@y>".into()),
            auto: Auto::Generated,
            body: "hello\n".into(),
            attachments: vec![Attachment {
                name: "view.yaml".into(),
                content_type: "application/yaml",
                bytes: b"a: 1\n".to_vec(),
            }],
        }
    }

    #[test]
    fn composing_twice_gives_the_same_bytes() {
        assert_eq!(compose(&draft()).unwrap(), compose(&draft()).unwrap());
    }

    #[test]
    fn a_line_break_in_a_subject_creates_no_header() {
        let bytes = compose(&draft()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text
                .lines()
                .any(|l| l.to_ascii_lowercase().starts_with("bcc:")),
            "{text}"
        );
        assert!(text.contains("Message-ID: <g1.000001.view.beeler@example.org>"));
        assert!(text.contains("Auto-Submitted: auto-generated"));
        assert!(
            text.contains("Date: Fri, 01 May 2026 12:00:00 +0000"),
            "{text}"
        );
    }
}
