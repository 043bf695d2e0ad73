//! Header safety. Nothing from game data (names, titles, ids) or from a player's message may
//! create a header: text is stripped of control characters before it reaches a header (lettre
//! then RFC 2047-encodes anything that is not plain ASCII), addresses must parse as one
//! mailbox, and ids that go into Message-ID or file names keep to a small alphabet.

use super::super::config::GameConfig;
use lettre::Address;
use lettre::message::Mailbox;

/// Text for a header value: every control character (CR and LF included) becomes a space,
/// runs of spaces collapse, and the result is cut at `max` characters.
pub fn header_text(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max));
    let mut space = false;
    for c in text.chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' {
            if !space && !out.is_empty() {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
        if out.chars().count() >= max {
            break;
        }
    }
    out.trim_end().to_string()
}

/// A piece of a Message-ID or file name: ASCII letters, digits, '-', '_' and '.'; anything
/// else becomes '-'. Never empty.
pub fn atom(text: &str) -> String {
    let s: String = text
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if s.is_empty() { "-".into() } else { s }
}

/// Parses one mailbox (`Name <user@example.org>` or `user@example.org`), refusing control
/// characters and lists. `field` names where it came from, for the error.
pub fn mailbox(text: &str, field: &str) -> Result<Mailbox, String> {
    if text.chars().any(|c| c.is_control()) {
        return Err(format!(
            "{field}: {text:?} contains a line break or control character; give one address"
        ));
    }
    let mb: Mailbox = text.trim().parse().map_err(|e| {
        format!("{field}: {text:?} is not an email address ({e}); write user@example.org or Name <user@example.org>")
    })?;
    Ok(Mailbox::new(
        mb.name
            .map(|n| header_text(&n, 80))
            .filter(|n| !n.is_empty()),
        mb.email,
    ))
}

/// A mailbox with a display name from game data, made safe.
pub fn named(name: &str, email: Address) -> Mailbox {
    let name = header_text(name, 80);
    Mailbox::new((!name.is_empty()).then_some(name), email)
}

/// Whether two addresses are the same mailbox (the domain is case-insensitive; so, in
/// practice, is the local part).
pub fn same(a: &Address, b: &Address) -> bool {
    let (a, b): (&str, &str) = (a.as_ref(), b.as_ref());
    a.eq_ignore_ascii_case(b)
}

/// A Message-ID taken from a player's message, if it is safe to repeat in In-Reply-To:
/// `<…@…>`, printable ASCII without spaces, at most 250 characters.
pub fn safe_message_id(id: &str) -> Option<String> {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    let ok = !id.is_empty()
        && id.len() <= 250
        && id.contains('@')
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>' && b != b'"' && b != b'\\');
    ok.then(|| format!("<{id}>"))
}

/// Every address of the game (kept in mail/addresses.yaml), checked; errors name the field.
pub fn check_config(config: &GameConfig) -> Result<(), String> {
    let mut problems = Vec::new();
    if !config.mail.from.is_empty()
        && let Err(e) = mailbox(&config.mail.from, "mail.from")
    {
        problems.push(e);
    }
    for (i, o) in config.mail.observers.iter().enumerate() {
        if let Err(e) = mailbox(o, &format!("mail.observers[{i}]")) {
            problems.push(e);
        }
    }
    for (i, seat) in config.seats.iter().enumerate() {
        if !seat.email.is_empty()
            && let Err(e) = mailbox(&seat.email, &format!("seats[{i}].email ({})", seat.side))
        {
            problems.push(e);
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("game.yaml: {}", problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_text_turns_line_breaks_into_spaces() {
        assert_eq!(
            header_text("Step 3\r\nBcc: evil@example.org", 200),
            "Step 3 Bcc: evil@example.org"
        );
    }

    #[test]
    fn an_address_with_a_line_break_is_refused() {
        assert!(mailbox("a@example.org\r\nBcc: evil@example.org", "x").is_err());
        assert!(mailbox("a@example.org, b@example.org", "x").is_err());
        assert!(mailbox("Ann <a@example.org>", "x").is_ok());
    }

    #[test]
    fn message_ids_from_players_are_repeated_only_when_plain() {
        assert_eq!(
            safe_message_id("<abc@example.org>").as_deref(),
            Some("<abc@example.org>")
        );
        assert_eq!(safe_message_id("<a\r\nBcc: x@y>"), None);
        assert_eq!(safe_message_id("no-at-sign"), None);
    }

    #[test]
    fn atoms_keep_a_safe_alphabet() {
        assert_eq!(atom("kummen demo/../x"), "kummen-demo-..-x");
        assert_eq!(atom(""), "-");
    }
}
