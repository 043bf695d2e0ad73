//! Which incoming messages must never be answered: anything automatic (RFC 3834
//! Auto-Submitted, Precedence bulk/list/junk, auto-responder marks), bounces (null return
//! path, MAILER-DAEMON, delivery reports), mailing-list traffic (List-Id and friends) and
//! messages a spam filter flagged. Such messages are recorded, never answered, so pbem cannot
//! take part in a mail loop.

use super::parse::Mail;

/// Why a message is not answered, or None when it may be.
pub fn automatic(mail: &Mail) -> Option<String> {
    let h = |name: &str| mail.header(name).map(|v| v.trim().to_ascii_lowercase());
    if let Some(v) = h("auto-submitted")
        && v != "no"
        && !v.starts_with("no ")
        && !v.starts_with("no;")
    {
        return Some(format!("automatic message (Auto-Submitted: {v})"));
    }
    if let Some(v) = h("precedence")
        && ["bulk", "list", "junk", "auto_reply"].contains(&v.as_str())
    {
        return Some(format!("bulk or list message (Precedence: {v})"));
    }
    for name in [
        "list-id",
        "list-unsubscribe",
        "list-post",
        "list-help",
        "mailing-list",
    ] {
        if h(name).is_some() {
            return Some(format!("mailing-list message ({name} header)"));
        }
    }
    for name in ["x-autoreply", "x-autorespond", "x-auto-reply"] {
        if h(name).is_some() {
            return Some(format!("auto-reply ({name} header)"));
        }
    }
    if h("x-auto-response-suppress").is_some_and(|v| v.contains("all") || v.contains("oof")) {
        return Some("auto-reply (X-Auto-Response-Suppress)".into());
    }
    if let Some(v) = h("return-path")
        && v.trim_matches(|c: char| c == '<' || c == '>' || c.is_whitespace())
            .is_empty()
    {
        return Some("bounce (null return path)".into());
    }
    let from = mail.from_text.to_ascii_lowercase();
    if from.contains("mailer-daemon") || from.contains("postmaster@") {
        return Some("bounce (from the mail system)".into());
    }
    if mail.content_type == "multipart/report" {
        return Some("bounce (delivery status report)".into());
    }
    if h("x-spam-flag").is_some_and(|v| v.starts_with("yes"))
        || h("x-spam-status").is_some_and(|v| v.starts_with("yes"))
    {
        return Some("flagged as spam".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(headers: &[(&str, &str)]) -> Mail {
        Mail {
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
                .collect(),
            from_text: headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("from"))
                .map(|(_, v)| v.to_string())
                .unwrap_or_default(),
            ..Mail::default()
        }
    }

    #[test]
    fn a_personal_message_may_be_answered() {
        assert_eq!(automatic(&mail(&[("From", "ann@example.org")])), None);
        assert_eq!(
            automatic(&mail(&[("Auto-Submitted", "no"), ("From", "a@b")])),
            None
        );
    }

    #[test]
    fn automatic_list_bounce_and_spam_messages_are_never_answered() {
        for h in [
            ("Auto-Submitted", "auto-replied"),
            ("Precedence", "bulk"),
            ("Precedence", "junk"),
            ("List-Id", "<games.example.org>"),
            ("Return-Path", "<>"),
            ("From", "MAILER-DAEMON@example.org"),
            ("X-Spam-Flag", "YES"),
        ] {
            assert!(automatic(&mail(&[h])).is_some(), "{h:?}");
        }
    }
}
