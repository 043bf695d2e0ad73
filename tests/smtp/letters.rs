//! Messages as players' mail clients write them, and reading what arrived.

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use pbem::engine::mail::parse::{self, Mail};
use std::path::Path;

/// A player's message: a text body and attachments (name, content type, bytes), as a mail
/// client composes it (lettre picks base64 for application/*, 7bit or quoted-printable for
/// text/*).
pub fn letter(
    from: &str,
    to: &str,
    subject: &str,
    body: &str,
    attachments: &[(&str, &str, &[u8])],
    extra_headers: &[(&str, &str)],
) -> Vec<u8> {
    let mut b = lettre::Message::builder()
        .from(from.parse::<Mailbox>().unwrap())
        .to(to.parse::<Mailbox>().unwrap())
        .subject(subject)
        .message_id(Some(format!(
            "<{}@players.example.org>",
            subject.len() + body.len()
        )));
    for (n, v) in extra_headers {
        b = b.raw_header(HeaderValue::new(
            HeaderName::new_from_ascii(n.to_string()).unwrap(),
            v.to_string(),
        ));
    }
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body.to_string());
    let m = if attachments.is_empty() {
        b.singlepart(text).unwrap()
    } else {
        let mut mp = MultiPart::mixed().singlepart(text);
        for (name, ct, bytes) in attachments {
            mp = mp.singlepart(
                Attachment::new(name.to_string())
                    .body(bytes.to_vec(), ContentType::parse(ct).unwrap()),
            );
        }
        b.multipart(mp).unwrap()
    };
    m.formatted()
}

/// Reads and parses a delivered message.
pub fn read(path: &Path) -> Mail {
    parse::parse(&std::fs::read(path).unwrap()).expect("a mail message")
}

/// The decoded bytes of the attachment called `name`.
pub fn attachment(mail: &Mail, name: &str) -> Vec<u8> {
    mail.parts
        .iter()
        .find(|p| p.name.as_deref() == Some(name))
        .unwrap_or_else(|| {
            let names: Vec<_> = mail.parts.iter().map(|p| p.name.clone()).collect();
            panic!("no attachment {name}; parts: {names:?}")
        })
        .body
        .clone()
}

/// The first text part without a name: the body.
pub fn body(mail: &Mail) -> String {
    mail.parts
        .iter()
        .find(|p| p.name.is_none() && p.content_type.starts_with("text/"))
        .map(|p| String::from_utf8_lossy(&p.body).to_string())
        .unwrap_or_default()
}

/// Minimal quoted-printable with CRLF line endings, as some clients send text attachments.
pub fn quoted_printable_crlf(bytes: &[u8]) -> String {
    let mut out = String::new();
    for line in String::from_utf8_lossy(bytes).split_inclusive('\n') {
        let line = line.trim_end_matches('\n');
        let mut width = 0;
        for c in line.chars() {
            let enc = if c == '=' || !c.is_ascii() || c.is_ascii_control() {
                let mut b = [0u8; 4];
                c.encode_utf8(&mut b)
                    .bytes()
                    .map(|x| format!("={x:02X}"))
                    .collect::<String>()
            } else {
                c.to_string()
            };
            if width + enc.len() > 72 {
                out.push_str("=\r\n");
                width = 0;
            }
            width += enc.len();
            out.push_str(&enc);
        }
        out.push_str("\r\n");
    }
    out
}

/// A message with one text/plain attachment in quoted-printable, every line CRLF.
pub fn qp_attachment_message(from: &str, subject: &str, name: &str, bytes: &[u8]) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {}\r\nSubject: {subject}\r\nMessage-ID: <qp-{name}@players.example.org>\r\n\
MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n\
--b1\r\nContent-Type: text/plain; charset=utf-8; name=\"{name}\"\r\n\
Content-Disposition: attachment; filename=\"{name}\"\r\n\
Content-Transfer-Encoding: quoted-printable\r\n\r\n{}\r\n--b1--\r\n",
        super::game::HOST_ADDRESS,
        quoted_printable_crlf(bytes)
    )
    .into_bytes()
}
