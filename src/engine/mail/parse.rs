//! Untrusted message bytes → an owned, simple form: the headers that matter and the leaf parts
//! with their decoded bytes (base64 and quoted-printable undone by mail-parser). The parser
//! runs behind `catch_unwind`, so even a parser defect on hostile input cannot stop a batch.

use lettre::Address;
use mail_parser::{MessageParser, MimeHeaders, PartType};

/// A parsed message.
#[derive(Debug, Clone, Default)]
pub struct Mail {
    /// Top-level headers: lower-case name, raw value (unfolded, trimmed).
    pub headers: Vec<(String, String)>,
    /// The From address, when it is one valid address.
    pub from: Option<Address>,
    /// The From header as written (for records; never put into a header).
    pub from_text: String,
    pub reply_to: Option<Address>,
    pub subject: String,
    pub message_id: Option<String>,
    /// Content type of the message itself, lower case (e.g. `multipart/report`).
    pub content_type: String,
    pub parts: Vec<Part>,
    /// What is damaged in the MIME structure, in words a player can act on.
    pub problems: Vec<String>,
}

/// A leaf part: text or binary, not a container, not a nested message.
#[derive(Debug, Clone)]
pub struct Part {
    /// The attachment's file name, when it has one.
    pub name: Option<String>,
    /// `type/subtype`, lower case.
    pub content_type: String,
    /// The decoded bytes (text parts: the text as UTF-8).
    pub body: Vec<u8>,
}

impl Mail {
    /// The raw value of the first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Where an answer goes: Reply-To, else From.
    pub fn reply_address(&self) -> Option<&Address> {
        self.reply_to.as_ref().or(self.from.as_ref())
    }
}

/// Parses `bytes`; None when the bytes hold no message headers at all.
pub fn parse(bytes: &[u8]) -> Option<Mail> {
    std::panic::catch_unwind(|| parse_inner(bytes))
        .ok()
        .flatten()
}

fn parse_inner(bytes: &[u8]) -> Option<Mail> {
    let msg = MessageParser::default().parse(bytes)?;
    let headers: Vec<(String, String)> = msg
        .headers_raw()
        .map(|(n, v)| {
            (
                n.to_ascii_lowercase(),
                v.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect();
    if headers.is_empty() {
        return None;
    }
    let one = |a: Option<&mail_parser::Address>| -> Option<Address> {
        let a = a?;
        let mut it = a.iter();
        let first = it.next()?;
        if it.next().is_some() {
            return None;
        }
        first.address()?.parse().ok()
    };
    let content_type = msg
        .root_part()
        .content_type()
        .map(|c| match c.subtype() {
            Some(s) => format!("{}/{}", c.ctype(), s),
            None => c.ctype().to_string(),
        })
        .unwrap_or_else(|| "text/plain".into())
        .to_ascii_lowercase();
    let mut parts = Vec::new();
    let mut problems = Vec::new();
    for part in &msg.parts {
        let body: &[u8] = match &part.body {
            PartType::Text(t) => t.as_bytes(),
            PartType::Binary(b) | PartType::InlineBinary(b) => b.as_ref(),
            PartType::Html(_) | PartType::Message(_) | PartType::Multipart(_) => continue,
        };
        let ct = part
            .content_type()
            .map(|c| match c.subtype() {
                Some(s) => format!("{}/{}", c.ctype(), s),
                None => c.ctype().to_string(),
            })
            .unwrap_or_else(|| "text/plain".into())
            .to_ascii_lowercase();
        if part.is_encoding_problem {
            problems.push(format!(
                "{}: its transfer encoding (base64 or quoted-printable) is damaged, so its \
                 content cannot be read exactly; attach the file again",
                part.attachment_name().unwrap_or("a part of the message")
            ));
        }
        parts.push(Part {
            name: part.attachment_name().map(str::to_string),
            content_type: ct,
            body: body.to_vec(),
        });
    }
    let boundary = msg
        .root_part()
        .content_type()
        .and_then(|c| c.attribute("boundary"))
        .map(|b| format!("--{b}"));
    let boundary_used = boundary
        .as_ref()
        .is_some_and(|b| bytes.windows(b.len()).any(|w| w == b.as_bytes()));
    if content_type.starts_with("multipart/") && (parts.is_empty() || !boundary_used) {
        problems.push(
            "the MIME structure is broken: the message says it has several parts, but its \
             boundary never appears, so no part (and no attachment) can be found"
                .into(),
        );
    }
    let from_text = headers
        .iter()
        .find(|(n, _)| n == "from")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    Some(Mail {
        from: one(msg.from()),
        from_text,
        reply_to: one(msg.reply_to()),
        subject: msg.subject().unwrap_or("").to_string(),
        message_id: msg.message_id().map(|m| format!("<{m}>")),
        content_type,
        headers,
        parts,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_printable_and_base64_parts_are_decoded() {
        let raw = b"From: a@example.org\r\nSubject: s\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\n\
Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nline=3D1\r\n\
--XX\r\nContent-Type: application/yaml; name=o.yaml\r\nContent-Disposition: attachment; filename=o.yaml\r\n\
Content-Transfer-Encoding: base64\r\n\r\ncGJlbTogb3JkZXIvMQo=\r\n--XX--\r\n";
        let m = parse(raw).unwrap();
        // The line break before a boundary belongs to the boundary (RFC 2046).
        assert_eq!(m.parts[0].body, b"line=1");
        assert_eq!(m.parts[1].name.as_deref(), Some("o.yaml"));
        assert_eq!(m.parts[1].body, b"pbem: order/1\n");
    }

    #[test]
    fn no_headers_is_no_message() {
        assert!(parse(b"").is_none());
    }
}
