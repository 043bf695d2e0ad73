//! How serde-saphyr 2.1.1 (default options) writes one string: plain, `'.'`, or double-quoted
//! with escapes, and when a string becomes a block scalar (`|` or `>`).
//!
//! The rules are serde-saphyr's own (`ser/quoting.rs`, `parse_scalars.rs`, `ser/wrapping.rs`,
//! MIT OR Apache-2.0), kept function for function so that each can be compared with its
//! original: every spelling a reader could take for a number, a boolean, a null or a timestamp
//! (YAML 1.1 and 1.2) is quoted. Only the scans over the whole string are new: serde-saphyr
//! walks a string's characters several times (controls, flow indicators, `: `, ` #`), which
//! made most of its cost; here a string of printable ASCII, nearly every string pbem writes,
//! is classified in one pass over its bytes, and anything else takes the original expressions.

use std::fmt::Write;

/// What one pass over a string's bytes tells the plain-scalar rules, as flags of [`CLASS`].
/// The original rules walk a string's characters once for controls, once for flow indicators,
/// once for `: ` and once for ` #`; this pass decides all of them for a string of printable
/// ASCII (nearly every string pbem writes), where no character needs escaping and
/// `char::is_whitespace` holds for the space alone. Other strings take the original walks.
#[derive(Clone, Copy)]
pub(super) struct Scan(u8);

/// A byte outside printable ASCII (0x20..=0x7E): a control, a line break or part of a
/// multi-byte character.
const OTHER: u8 = 1;
const COLON: u8 = 2;
const HASH: u8 = 4;
const SPACE: u8 = 8;
/// `,[]{}`: structural in flow collections, whose rules keys follow.
const FLOW: u8 = 16;

/// The flags of each byte value.
static CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0x20;
    while b <= 0x7E {
        class[b] = match b as u8 {
            b':' => COLON,
            b'#' => HASH,
            b' ' => SPACE,
            b',' | b'[' | b']' | b'{' | b'}' => FLOW,
            _ => 0,
        };
        b += 1;
    }
    class
};

impl Scan {
    pub(super) fn of(s: &str) -> Scan {
        Scan(s.bytes().fold(0, |flags, b| flags | CLASS[usize::from(b)]))
    }

    /// Every byte is printable ASCII.
    pub(super) fn printable_ascii(self) -> bool {
        self.0 & OTHER == 0
    }

    fn any(self, flags: u8) -> bool {
        self.0 & flags != 0
    }
}

/// Numeric syntax without constructing a value (serde-saphyr's `is_numeric`).
fn is_numeric(s: &str, yaml_12: bool) -> bool {
    if !matches!(
        s.as_bytes().first(),
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'_')
    ) {
        return false;
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if unsigned.eq_ignore_ascii_case(".inf") || unsigned.eq_ignore_ascii_case(".nan") {
        return true;
    }
    if !yaml_12 {
        if is_yaml11_sexagesimal(s) {
            return true;
        }
        if let Some((radix, digits)) = radix_digits(unsigned)
            && is_digit_run(digits, radix, false)
        {
            return true;
        }
    }
    let normalized;
    let s = if !yaml_12 && s.contains('_') {
        normalized = s.replace('_', "");
        normalized.as_str()
    } else {
        s
    };
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if let Some((radix, digits)) = radix_digits(unsigned) {
        let digits = if !yaml_12 && (s.starts_with("0b") || s.starts_with("0o")) {
            digits.strip_prefix(['+', '-']).unwrap_or(digits)
        } else {
            digits
        };
        return is_digit_run(digits, radix, true);
    }
    let mantissa = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if !is_digit_run(exponent, 10, true) {
                return false;
            }
            mantissa
        }
        None => unsigned,
    };
    match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            if !whole.is_empty() && !is_digit_run(whole, 10, true) {
                return false;
            }
            if !yaml_12 {
                fraction.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            } else if fraction.is_empty() {
                !whole.is_empty()
            } else {
                is_digit_run(fraction, 10, true)
            }
        }
        None => is_digit_run(mantissa, 10, true),
    }
}

fn radix_digits(s: &str) -> Option<(u32, &str)> {
    match s.as_bytes() {
        [b'0', b'b' | b'B', ..] => Some((2, &s[2..])),
        [b'0', b'o' | b'O', ..] => Some((8, &s[2..])),
        [b'0', b'x' | b'X', ..] => Some((16, &s[2..])),
        _ => None,
    }
}

fn is_digit_run(s: &str, radix: u32, strict_underscores: bool) -> bool {
    let is_digit = |b: u8| b.is_ascii() && char::from(b).is_digit(radix);
    let bytes = s.as_bytes();
    !bytes.is_empty()
        && bytes.iter().enumerate().all(|(i, &b)| {
            is_digit(b)
                || (b == b'_'
                    && (!strict_underscores
                        || (i > 0
                            && is_digit(bytes[i - 1])
                            && bytes.get(i + 1).is_some_and(|&next| is_digit(next)))))
        })
}

/// YAML 1.1 base-60 integers and floats (`1:30`).
fn is_yaml11_sexagesimal(s: &str) -> bool {
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (integer, fraction) = match unsigned.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (unsigned, None),
    };
    let Some((first, rest)) = integer.split_once(':') else {
        return false;
    };
    let Some(first_digit) = first.as_bytes().first() else {
        return false;
    };
    if !first_digit.is_ascii_digit()
        || (fraction.is_none() && *first_digit == b'0')
        || !first.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return false;
    }
    if !rest.split(':').all(|part| match part.as_bytes() {
        [digit] => digit.is_ascii_digit(),
        [tens, units] => matches!(tens, b'0'..=b'5') && units.is_ascii_digit(),
        _ => false,
    }) {
        return false;
    }
    fraction.is_none_or(|part| part.bytes().all(|b| b.is_ascii_digit() || b == b'_'))
}

/// YAML 1.1 timestamp syntax, without calendar validation (`2026-11-24T07:30:00Z`).
fn is_yaml11_timestamp(mut s: &str) -> bool {
    fn digits(s: &mut &str, min: usize, max: usize) -> bool {
        let len = s.bytes().take_while(u8::is_ascii_digit).count();
        if !(min..=max).contains(&len) {
            return false;
        }
        *s = &s[len..];
        true
    }
    fn prefix(s: &mut &str, ch: char) -> bool {
        if let Some(rest) = s.strip_prefix(ch) {
            *s = rest;
            true
        } else {
            false
        }
    }
    if !digits(&mut s, 4, 4)
        || !prefix(&mut s, '-')
        || !digits(&mut s, 1, 2)
        || !prefix(&mut s, '-')
        || !digits(&mut s, 1, 2)
    {
        return false;
    }
    if s.is_empty() {
        return true;
    }
    if let Some(rest) = s.strip_prefix(['T', 't']) {
        s = rest;
    } else {
        let rest = s.trim_start_matches([' ', '\t']);
        if rest.len() == s.len() {
            return false;
        }
        s = rest;
    }
    if !digits(&mut s, 1, 2)
        || !prefix(&mut s, ':')
        || !digits(&mut s, 1, 2)
        || !prefix(&mut s, ':')
        || !digits(&mut s, 1, 2)
    {
        return false;
    }
    if prefix(&mut s, '.') || prefix(&mut s, ',') {
        digits(&mut s, 0, usize::MAX);
    }
    s = s.trim_start_matches([' ', '\t']);
    if s.is_empty() || s == "Z" {
        return true;
    }
    if !(prefix(&mut s, '+') || prefix(&mut s, '-')) || !digits(&mut s, 1, 2) {
        return false;
    }
    if prefix(&mut s, ':') && !digits(&mut s, 2, 2) {
        return false;
    }
    s.is_empty()
}

/// YAML 1.1 booleans, the "Norway problem" (serde-saphyr's `parse_yaml11_bool`, as a test).
fn is_yaml11_bool(s: &str) -> bool {
    const TRIMMED: [char; 4] = [' ', '\t', '\r', '\n'];
    let edge = |b: Option<&u8>| b.is_some_and(|&b| TRIMMED.contains(&char::from(b)));
    let bytes = s.as_bytes();
    // Trimming changes nothing when neither end is trimmed, the common case.
    let t = if edge(bytes.first()) || edge(bytes.last()) {
        s.trim_matches(TRIMMED)
    } else {
        s
    };
    t.len() <= 5
        && ["true", "yes", "y", "on", "false", "no", "n", "off"]
            .iter()
            .any(|b| t.eq_ignore_ascii_case(b))
}

/// Whether implicit scalar resolution can change a string's type or reject it.
fn is_ambiguous(s: &str, yaml_12: bool) -> bool {
    let bytes = s.as_bytes();
    // A string that starts with a letter and ends in no character a YAML 1.1 boolean is
    // trimmed of is no number, timestamp or `<<`: it is ambiguous only as one of the words
    // (compared as the chain below compares them, ignoring ASCII case).
    if let [first, .., last] | [first @ last] = bytes
        && first.is_ascii_alphabetic()
        && !matches!(last, b' ' | b'\t' | b'\r' | b'\n')
    {
        let mut lower = [0u8; 5];
        let Some(lower) = lower.get_mut(..bytes.len()) else {
            return false;
        };
        lower.copy_from_slice(bytes);
        lower.make_ascii_lowercase();
        return match &*lower {
            b"null" | b"true" | b"false" | b"nan" | b"inf" => true,
            b"y" | b"yes" | b"n" | b"no" | b"on" | b"off" => !yaml_12,
            _ => false,
        };
    }
    s.is_empty()
        || s == "~"
        || s.eq_ignore_ascii_case("null")
        || s.eq_ignore_ascii_case("true")
        || s.eq_ignore_ascii_case("false")
        || is_numeric(s, yaml_12)
        || s.eq_ignore_ascii_case("nan")
        || s.eq_ignore_ascii_case("inf")
        || s.eq_ignore_ascii_case("+inf")
        || s.eq_ignore_ascii_case("-inf")
        || (!yaml_12 && (is_yaml11_bool(s) || is_yaml11_timestamp(s) || matches!(s, "<<" | "=")))
}

fn starts_with_document_marker(s: &str) -> bool {
    let Some(rest) = s.strip_prefix("---").or_else(|| s.strip_prefix("...")) else {
        return false;
    };
    rest.is_empty() || rest.as_bytes().first().is_some_and(u8::is_ascii_whitespace)
}

/// A string no plain scalar may start with (serde-saphyr's indicator lists, shared by keys
/// and values).
fn starts_with_indicator(first: u8) -> bool {
    matches!(
        first,
        b',' | b':'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// Whether `s` may be written as a plain mapping key (serde-saphyr's `is_plain_safe`);
/// `scan` is [`Scan::of`] `s`.
fn is_plain_key_safe(s: &str, scan: Scan) -> bool {
    if is_ambiguous(s, true) || s == "<<" || starts_with_document_marker(s) {
        return false;
    }
    let bytes = s.as_bytes();
    if bytes.first().is_some_and(u8::is_ascii_whitespace)
        || bytes.last().is_some_and(u8::is_ascii_whitespace)
    {
        return false;
    }
    match bytes {
        [b'-' | b'?'] => return false,
        [b'-' | b'?', b1, ..] if b1.is_ascii_whitespace() => return false,
        [b, ..] if starts_with_indicator(*b) => return false,
        _ => {}
    }
    if scan.printable_ascii() {
        let comment = scan.any(HASH) && scan.any(SPACE) && s.contains(" #");
        !(scan.any(COLON) || comment)
    } else {
        !contains_any_or_is_control(s, &[':']) && !has_comment_start(s)
    }
}

/// Whether `s` may be written as a plain value (serde-saphyr's `is_plain_value_safe`, YAML
/// 1.1 compatible); `in_flow` for the stricter rules of flow collections, which keys follow;
/// `scan` is [`Scan::of`] `s`.
pub(super) fn is_plain_value_safe(s: &str, in_flow: bool, scan: Scan) -> bool {
    if is_ambiguous(s, false) || starts_with_document_marker(s) {
        return false;
    }
    let bytes = s.as_bytes();
    if bytes.first().is_some_and(u8::is_ascii_whitespace)
        || bytes.last().is_some_and(u8::is_ascii_whitespace)
    {
        return false;
    }
    match bytes {
        [b'-' | b'?', b1, ..] if b1.is_ascii_whitespace() => return false,
        [b'-' | b'?'] => return false,
        [b, ..] if starts_with_indicator(*b) => return false,
        _ => {}
    }
    if scan.printable_ascii() {
        // No edge whitespace (tested above), so `trim` would change nothing.
        !(scan.any(COLON) && (s.ends_with(':') || s.contains(": ")))
            && !(scan.any(HASH) && scan.any(SPACE) && s.contains(" #"))
            && !(in_flow && scan.any(FLOW))
    } else {
        if s.contains(": ") || s.trim().ends_with(':') {
            return false;
        }
        let flow: &[char] = if in_flow {
            &[',', '[', ']', '{', '}']
        } else {
            &[]
        };
        !contains_any_or_is_control(s, flow) && !has_comment_start(s)
    }
}

/// Whether `s` may be a block scalar's content without escapes.
pub(super) fn is_block_scalar_content_safe(s: &str) -> bool {
    s.chars().all(|ch| match ch {
        '\n' | '\t' => true,
        '\r' | '\u{0085}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}' => false,
        c => matches!(
            c as u32,
            0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x0010_FFFF
        ),
    })
}

/// Characters that force double quotes (serde-saphyr's `is_controll_which_needs_escaping`).
fn needs_escaping(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{FEFF}' | '\u{2028}' | '\u{2029}' | '\u{FFFE}' | '\u{FFFF}'
        )
}

fn contains_any_or_is_control(s: &str, values: &[char]) -> bool {
    s.chars().any(|x| needs_escaping(x) || values.contains(&x))
}

fn has_comment_start(s: &str) -> bool {
    s.match_indices('#').any(|(index, _)| {
        s[..index]
            .chars()
            .next_back()
            .is_some_and(char::is_whitespace)
    })
}

/// Appends `s` as a double-quoted scalar's content (without the quotes). Runs of printable
/// ASCII other than `\` and `"` are copied as they are; every other character takes
/// serde-saphyr's `escape_double_quoted`.
pub(super) fn escape_double_quoted(s: &str, out: &mut String) {
    let mut rest = s;
    while !rest.is_empty() {
        let run = rest
            .bytes()
            .position(|b| !matches!(b, 0x20..=0x7E) || b == b'\\' || b == b'"')
            .unwrap_or(rest.len());
        out.push_str(&rest[..run]);
        rest = &rest[run..];
        let mut chars = rest.chars();
        if let Some(ch) = chars.next() {
            escape_char(ch, out);
            rest = chars.as_str();
        }
    }
}

fn escape_char(ch: char, out: &mut String) {
    match ch {
        '\\' => out.push_str("\\\\"),
        '"' => out.push_str("\\\""),
        '\0' => out.push_str("\\0"),
        '\u{7}' => out.push_str("\\a"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{b}' => out.push_str("\\v"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        '\u{1b}' => out.push_str("\\e"),
        '\u{FEFF}' => out.push_str("\\uFEFF"),
        '\u{0085}' => out.push_str("\\N"),
        '\u{2028}' => out.push_str("\\L"),
        '\u{2029}' => out.push_str("\\P"),
        c if (c as u32) <= 0xFF && (c.is_control() || (0x7F..=0x9F).contains(&(c as u32))) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\x{:02X}", c as u32);
        }
        c if (c as u32) <= 0xFFFF && needs_escaping(c) => {
            let _ = write!(out, "\\u{:04X}", c as u32);
        }
        c => out.push(c),
    }
}

/// Appends `s` double-quoted.
pub(super) fn push_double_quoted(s: &str, out: &mut String) {
    out.push('"');
    escape_double_quoted(s, out);
    out.push('"');
}

/// Appends `s` as a mapping key: plain when both the key and the flow-value rules allow it,
/// else double-quoted (serde-saphyr's `KeyScalarSink::serialize_str`).
pub(super) fn push_key(s: &str, out: &mut String) {
    push_key_as(s, key_is_plain(s), out);
}

/// Whether the key `s` is written plain.
pub(super) fn key_is_plain(s: &str) -> bool {
    let scan = Scan::of(s);
    is_plain_key_safe(s, scan) && is_plain_value_safe(s, true, scan)
}

/// Appends the key `s`, plain or double-quoted as [`key_is_plain`] said.
pub(super) fn push_key_as(s: &str, plain: bool, out: &mut String) {
    if plain {
        out.push_str(s);
    } else {
        push_double_quoted(s, out);
    }
}

/// The leading spaces of the first non-empty line.
pub(super) fn first_line_leading_spaces(s: &str) -> usize {
    for line in s.split('\n') {
        if !line.is_empty() {
            return line.len() - line.trim_start_matches(' ').len();
        }
    }
    0
}

/// A folded block scalar's body, each line indented by `indent` spaces and wrapped at ASCII
/// spaces to at most `wrap` characters (serde-saphyr's `write_folded_block`).
pub(super) fn push_folded_block(out: &mut String, s: &str, indent: usize, wrap: usize) {
    let indent_str = " ".repeat(indent);
    for line in s.split('\n') {
        if line.is_empty() {
            out.push('\n');
            continue;
        }
        if line.starts_with(' ') {
            out.push_str(&indent_str);
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut start = 0usize;
        let mut col = 0usize;
        let mut last_space_run: Option<(usize, usize, usize)> = None;
        let mut in_space_run = false;
        let mut run_start = 0usize;
        let mut run_len = 0usize;
        let mut prev_i = 0usize;
        let mut prev_ch_len = 0usize;
        for (i, ch) in line.char_indices() {
            if in_space_run && ch != ' ' {
                let run_end = prev_i + prev_ch_len;
                if ch != '\t' {
                    last_space_run = Some((run_start, run_end, run_len));
                }
                in_space_run = false;
                run_len = 0;
            }
            if ch == ' ' {
                if in_space_run {
                    run_len += 1;
                } else {
                    in_space_run = true;
                    run_start = i;
                    run_len = 1;
                }
            }
            col += 1;
            if col > wrap {
                let Some((ws_start, ws_end, ws_len)) = last_space_run else {
                    break;
                };
                out.push_str(&indent_str);
                out.push_str(&line[start..ws_start]);
                for _ in 1..ws_len {
                    out.push(' ');
                }
                out.push('\n');
                start = ws_end;
                col = 0;
                last_space_run = None;
            }
            prev_i = i;
            prev_ch_len = ch.len_utf8();
        }
        out.push_str(&indent_str);
        out.push_str(&line[start..]);
        out.push('\n');
    }
}
