//! A reader for the YAML pbem writes itself (states, records, views, receipts, events files,
//! the orders its bots write), at a fraction of serde-saphyr's cost: the writer's subset
//! only, and only where its meaning is certain. Anything else makes it give up, and the caller
//! parses the text with serde-saphyr as before, so every value and every error message stays
//! serde-saphyr's.
//!
//! The subset is what [`super::write`] emits: block mappings and sequences (a sequence under a
//! key may sit at the key's column), `[]` and `{}`, plain scalars that the writer itself would
//! write plain (so never a number, boolean or null in disguise), `null`, `true`, `false` and
//! decimal integers in their one spelling, double-quoted strings on one line with the writer's
//! escapes, single-quoted strings on one line, `|` block scalars (with `2`, `-` or `+`) and
//! `>-` folded ones. It gives up on tabs, carriage returns, control characters, blank lines
//! outside block scalars, comments, tags, anchors, aliases, flow collections that are not
//! empty, `?` keys, document markers and directives (all of these fail the plain-scalar test
//! or the layout; only whole-line comments at the very end, a signed order's signature, are
//! skipped), duplicate keys, more than [`MAX_DEPTH`] levels or [`MAX_NODES`] nodes, and
//! a text that does not end with a line break.
//!
//! Reading happens in two parts: one pass over the lines builds a tree ([`Node`]) and checks
//! the layout (each line is visited once, so the work is linear in the text); then a serde
//! `Deserializer` over the tree hands the target type what serde-saphyr would hand it. Where
//! serde-saphyr's answer depends on details not reproduced here (a quoted number read as a
//! number, a float, a `char`, bytes, serde-saphyr's wrapper types), the deserializer fails,
//! and any failure, a real type error included, is a give-up: serde-saphyr then reads the text
//! again and reports the error in its own words. Debug builds read every accepted document
//! with serde-saphyr too and panic on any difference in what the type was given ([`check`]).

#[cfg(any(debug_assertions, test))]
mod check;
#[cfg(test)]
mod tests;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Deeper nesting gives up (serde-saphyr refuses past 64 levels).
const MAX_DEPTH: usize = 48;
/// More nodes (keys included) give up (serde-saphyr's budget is 250,000).
const MAX_NODES: usize = 200_000;
/// A longer text gives up (serde-saphyr's budget allows 64 MiB of scalar text).
const MAX_BYTES: usize = 32 << 20;

/// The fast reader does not read this text (or the type refused what it read): the caller
/// parses with serde-saphyr.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct GiveUp;

impl fmt::Display for GiveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not read by pbem's YAML reader")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        GiveUp
    }
}

type Res<T> = Result<T, GiveUp>;

/// `text` read into `T`, or `None` where serde-saphyr must read it. Debug builds check the
/// answer against serde-saphyr.
pub(super) fn from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    #[cfg(debug_assertions)]
    {
        check::from_str_checked(text)
    }
    #[cfg(not(debug_assertions))]
    {
        read(text).ok()
    }
}

/// `text` read into `T` without the debug check.
#[cfg(not(debug_assertions))]
fn read<T: DeserializeOwned>(text: &str) -> Res<T> {
    let node = parse(text)?;
    T::deserialize(NodeDe(node))
}

/// How a scalar reads: what serde-saphyr makes of it when the type does not say.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Text: quoted, a block scalar, or plain and not readable as anything else.
    Str,
    /// A plain `null`.
    Null,
    /// A plain `true` or `false`.
    Bool(bool),
    /// A plain decimal integer without sign or leading zero.
    UInt(u64),
    /// A plain negative decimal integer without leading zero.
    Int(i64),
}

#[derive(Debug, Clone, PartialEq)]
struct Scalar<'a> {
    text: Cow<'a, str>,
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
enum Node<'a> {
    Scalar(Scalar<'a>),
    Seq(Vec<Node<'a>>),
    Map(Vec<(Scalar<'a>, Node<'a>)>),
}

/// The tree of `text`, or [`GiveUp`] where it is outside the subset.
fn parse(text: &str) -> Res<Node<'_>> {
    if text.len() > MAX_BYTES {
        return Err(GiveUp);
    }
    screen(text)?;
    let text = without_trailing_comments(text);
    let mut p = Parser {
        src: text,
        at: 0,
        col: 0,
        eol: 0,
        eof: false,
        nodes: 0,
    };
    p.load_line(0)?;
    if p.eof || p.col != 0 {
        return Err(GiveUp);
    }
    let node = p.inline_or_block(0, 0, None)?;
    if !p.eof {
        return Err(GiveUp);
    }
    Ok(node)
}

/// `text` without the whole-line comments at its end (the signature a signed order carries,
/// `# -----BEGIN SSH SIGNATURE-----` and its lines), which every YAML reader skips; comments
/// anywhere else give up.
fn without_trailing_comments(text: &str) -> &str {
    let mut end = text.len();
    while let Some(body) = text.get(..end)
        && let Some(before) = body.strip_suffix('\n')
    {
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        if !before
            .get(start..)
            .is_some_and(|line| line.starts_with('#'))
        {
            break;
        }
        end = start;
    }
    text.get(..end).unwrap_or(text)
}

/// Refuses the characters the writer never writes raw and whose reading could differ between
/// YAML versions or readers: controls but the line feed (tab and carriage return included),
/// DEL, the C1 controls (NEL among them), the line and paragraph separators and the byte
/// order mark.
fn screen(text: &str) -> Res<()> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' | 0x20..=0x7E => {}
            0..=0x1F | 0x7F => return Err(GiveUp),
            0xC2 if matches!(b.get(i + 1), Some(0x80..=0x9F)) => return Err(GiveUp),
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)) => {
                return Err(GiveUp);
            }
            0xEF if b.get(i + 1) == Some(&0xBB) && b.get(i + 2) == Some(&0xBF) => {
                return Err(GiveUp);
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// A cursor over the logical lines of the text: a physical line, or the rest of one after a
/// sequence dash (`- `), which opens a node at the column after it.
struct Parser<'a> {
    src: &'a str,
    /// Where the current logical line's content starts.
    at: usize,
    /// The column of `at`.
    col: usize,
    /// The index of the current physical line's `\n`.
    eol: usize,
    /// No line left.
    eof: bool,
    nodes: usize,
}

impl<'a> Parser<'a> {
    /// Makes the physical line starting at byte `start` current. A line without its `\n`, a
    /// blank line or one of spaces alone gives up.
    fn load_line(&mut self, start: usize) -> Res<()> {
        let src = self.src;
        if start >= src.len() {
            self.eof = true;
            return Ok(());
        }
        let rest = src.get(start..).ok_or(GiveUp)?;
        let len = rest.find('\n').ok_or(GiveUp)?;
        let indent = rest.bytes().take_while(|&b| b == b' ').count();
        if indent >= len {
            return Err(GiveUp);
        }
        self.col = indent;
        self.at = start + indent;
        self.eol = start + len;
        Ok(())
    }

    fn next_line(&mut self) -> Res<()> {
        self.load_line(self.eol + 1)
    }

    fn content(&self) -> &'a str {
        self.src.get(self.at..self.eol).unwrap_or("")
    }

    fn count(&mut self) -> Res<()> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// A node that starts on the current logical line at column `n`: a sequence, a mapping,
    /// or a scalar alone (at the root or after a dash). `parent` is the column of the
    /// collection holding it (`None` at the root), which places a block scalar's lines.
    fn inline_or_block(&mut self, n: usize, depth: usize, parent: Option<usize>) -> Res<Node<'a>> {
        if depth > MAX_DEPTH {
            return Err(GiveUp);
        }
        let c = self.content();
        if c == "-" || c.starts_with("- ") {
            self.seq(n, depth)
        } else if key_split(c)?.is_some() {
            self.map(n, depth)
        } else {
            self.scalar_value(parent)
        }
    }

    /// A block sequence whose dashes are at column `n`, starting on the current line.
    fn seq(&mut self, n: usize, depth: usize) -> Res<Node<'a>> {
        self.count()?;
        let mut items = Vec::new();
        while !self.eof && self.col == n {
            let c = self.content();
            if !c.starts_with("- ") {
                // A bare `-` (an item on the next lines, or a null) is never written.
                if c == "-" {
                    return Err(GiveUp);
                }
                break;
            }
            self.at += 2;
            self.col += 2;
            if self.content().starts_with(' ') {
                return Err(GiveUp);
            }
            items.push(self.inline_or_block(n + 2, depth + 1, Some(n))?);
        }
        Ok(Node::Seq(items))
    }

    /// A block mapping whose keys are at column `n`, starting on the current line.
    fn map(&mut self, n: usize, depth: usize) -> Res<Node<'a>> {
        self.count()?;
        let mut entries: Vec<(Scalar<'a>, Node<'a>)> = Vec::new();
        while !self.eof && self.col >= n {
            if self.col > n {
                return Err(GiveUp);
            }
            let c = self.content();
            let Some((key, after)) = key_split(c)? else {
                return Err(GiveUp);
            };
            self.count()?;
            let key = key_scalar(key)?;
            let rest = c.get(after..).unwrap_or("");
            let value = if rest.is_empty() {
                // `key:` alone: a collection on the next lines, deeper, or a sequence at the
                // key's column.
                self.next_line()?;
                if self.eof {
                    return Err(GiveUp);
                }
                let c = self.content();
                let is_seq = c.starts_with("- ");
                if self.col > n {
                    if depth + 1 > MAX_DEPTH {
                        return Err(GiveUp);
                    }
                    let m = self.col;
                    if is_seq {
                        self.seq(m, depth + 1)?
                    } else if key_split(c)?.is_some() {
                        self.map(m, depth + 1)?
                    } else {
                        return Err(GiveUp);
                    }
                } else if self.col == n && is_seq {
                    if depth + 1 > MAX_DEPTH {
                        return Err(GiveUp);
                    }
                    self.seq(n, depth + 1)?
                } else {
                    return Err(GiveUp);
                }
            } else {
                // `key: value`: one space, then a scalar, `[]` or `{}` (a collection would
                // have to start on the next line).
                let value = rest.strip_prefix(' ').ok_or(GiveUp)?;
                if value.starts_with(' ') {
                    return Err(GiveUp);
                }
                self.at = self.eol - value.len();
                self.col = self.col + c.len() - value.len();
                self.scalar_value(Some(n))?
            };
            entries.push((key, value));
        }
        if has_duplicates(&entries) {
            return Err(GiveUp);
        }
        Ok(Node::Map(entries))
    }

    /// A scalar (or `[]`, `{}`) that takes the rest of the current logical line, and for a
    /// block scalar the lines under it; leaves the cursor on the next line.
    fn scalar_value(&mut self, parent: Option<usize>) -> Res<Node<'a>> {
        self.count()?;
        let c = self.content();
        let node = match c.as_bytes().first() {
            Some(b'[') if c == "[]" => Node::Seq(Vec::new()),
            Some(b'{') if c == "{}" => Node::Map(Vec::new()),
            Some(b'"') => {
                let (text, end) = double_quoted(c)?;
                if end != c.len() {
                    return Err(GiveUp);
                }
                str_node(text)
            }
            Some(b'\'') => {
                let (text, end) = single_quoted(c)?;
                if end != c.len() {
                    return Err(GiveUp);
                }
                str_node(text)
            }
            Some(b'|' | b'>') => return self.block_scalar(c, parent.ok_or(GiveUp)?),
            _ => Node::Scalar(value_scalar(c)?),
        };
        self.next_line()?;
        Ok(node)
    }

    /// A `|` or `>` block scalar whose header `h` ends the current line, in a collection at
    /// column `parent`: the writer indents its lines one step past that column.
    fn block_scalar(&mut self, h: &'a str, parent: usize) -> Res<Node<'a>> {
        let bytes = h.as_bytes();
        let literal = bytes.first() == Some(&b'|');
        let mut i = 1;
        let indicator = bytes.get(i) == Some(&b'2');
        if indicator {
            i += 1;
        }
        let chomp = match bytes.get(i) {
            Some(b'-') => Some(false),
            Some(b'+') => Some(true),
            _ => None,
        };
        if chomp.is_some() {
            i += 1;
        }
        if i != bytes.len() {
            return Err(GiveUp);
        }
        let body = parent + 2;
        // The body's lines: `Some(text)` past the body's indentation, `None` for an empty
        // line; it ends at the first line indented less than the body, or at the end.
        let mut lines: Vec<Option<&'a str>> = Vec::new();
        let mut start = self.eol + 1;
        let src = self.src;
        while start < src.len() {
            let rest = src.get(start..).ok_or(GiveUp)?;
            let len = rest.find('\n').ok_or(GiveUp)?;
            let line = rest.get(..len).ok_or(GiveUp)?;
            let indent = line.bytes().take_while(|&b| b == b' ').count();
            if len == 0 {
                lines.push(None);
            } else if indent == len {
                return Err(GiveUp);
            } else if indent >= body {
                let text = line.get(body..).ok_or(GiveUp)?;
                // Without the indicator the first line sets the indentation: it must be the
                // writer's.
                if !indicator && !lines.iter().any(Option::is_some) && indent != body {
                    return Err(GiveUp);
                }
                lines.push(Some(text));
            } else {
                break;
            }
            start += len + 1;
        }
        let last = lines.iter().rposition(Option::is_some);
        let text = if literal {
            let mut text = String::new();
            let content = last.map_or(0, |l| l + 1);
            for (k, line) in lines.iter().take(content).enumerate() {
                if k > 0 {
                    text.push('\n');
                }
                text.push_str(line.unwrap_or(""));
            }
            let trailing = lines.len() - content;
            match (chomp, last.is_some()) {
                (Some(false), true) => {}
                (None, true) => text.push('\n'),
                (Some(true), true) => {
                    text.extend(std::iter::repeat_n('\n', trailing + 1));
                }
                (Some(true), false) if trailing > 0 => {
                    text.extend(std::iter::repeat_n('\n', trailing));
                }
                _ => return Err(GiveUp),
            }
            text
        } else {
            // Folded: only the writer's `>-` over lines that all fold (none empty, none
            // indented further).
            if chomp != Some(false) || indicator || last.is_none() {
                return Err(GiveUp);
            }
            let mut text = String::new();
            for (k, line) in lines.iter().enumerate() {
                let line = line.ok_or(GiveUp)?;
                if line.starts_with(' ') {
                    return Err(GiveUp);
                }
                if k > 0 {
                    text.push(' ');
                }
                text.push_str(line);
            }
            text
        };
        self.load_line(start)?;
        Ok(str_node(Cow::Owned(text)))
    }
}

fn str_node(text: Cow<'_, str>) -> Node<'_> {
    Node::Scalar(Scalar {
        text,
        kind: Kind::Str,
    })
}

/// Where a mapping entry's key ends on line `c`: the key's text (as written) and the index
/// after its `:`; `None` when the line is no `key:` entry.
fn key_split(c: &str) -> Res<Option<(&str, usize)>> {
    let end = match c.as_bytes().first() {
        Some(b'"') => match double_quoted(c) {
            Ok((_, end)) => end,
            Err(_) => return Ok(None),
        },
        Some(b'\'') => match single_quoted(c) {
            Ok((_, end)) => end,
            Err(_) => return Ok(None),
        },
        _ => {
            let colon_space = c.find(": ");
            let colon_end = c.ends_with(':').then(|| c.len() - 1);
            match (colon_space, colon_end) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => return Ok(None),
            }
        }
    };
    let rest = c.get(end..).unwrap_or("");
    if rest == ":" || rest.starts_with(": ") {
        Ok(Some((c.get(..end).ok_or(GiveUp)?, end + 1)))
    } else {
        Ok(None)
    }
}

/// The scalar a key is written as: quoted, or plain as the writer writes keys.
fn key_scalar(k: &str) -> Res<Scalar<'_>> {
    match k.as_bytes().first() {
        Some(b'"') => Ok(Scalar {
            text: double_quoted(k)?.0,
            kind: Kind::Str,
        }),
        Some(b'\'') => Ok(Scalar {
            text: single_quoted(k)?.0,
            kind: Kind::Str,
        }),
        _ => plain(k, super::write::plain_key),
    }
}

/// A plain value: `null`, a boolean, an integer, or text the writer would write plain.
fn value_scalar(v: &str) -> Res<Scalar<'_>> {
    plain(v, super::write::plain_value)
}

fn plain<'a>(s: &'a str, is_plain_text: fn(&str) -> bool) -> Res<Scalar<'a>> {
    let kind = match s {
        "null" => Kind::Null,
        "true" => Kind::Bool(true),
        "false" => Kind::Bool(false),
        _ => match integer(s) {
            Some(kind) => kind,
            None if is_plain_text(s) => Kind::Str,
            None => return Err(GiveUp),
        },
    };
    Ok(Scalar {
        text: Cow::Borrowed(s),
        kind,
    })
}

/// An integer in its one plain spelling (`0`, `12`, `-3`) that fits 64 bits; `None` for
/// anything else, which the caller then tests as text (where `012`, `+1` or `1_000` fail).
fn integer(s: &str) -> Option<Kind> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let b = digits.as_bytes();
    let canonical = match b {
        [] => false,
        [b'0'] => !neg,
        [first, ..] => (b'1'..=b'9').contains(first) && b.iter().all(u8::is_ascii_digit),
    };
    if !canonical {
        return None;
    }
    // Out of range: the caller tests it as text, which a number never passes.
    if neg {
        s.parse::<i64>().ok().map(Kind::Int)
    } else {
        s.parse::<u64>().ok().map(Kind::UInt)
    }
}

/// A double-quoted scalar at the start of `c`, on one line, with the escapes the writer
/// writes: its text and the index after the closing quote.
fn double_quoted(c: &str) -> Res<(Cow<'_, str>, usize)> {
    let b = c.as_bytes();
    let mut out: Option<String> = None;
    let mut run = 1;
    let mut i = 1;
    while let Some(&ch) = b.get(i) {
        match ch {
            b'"' => {
                let tail = c.get(run..i).ok_or(GiveUp)?;
                let text = match out {
                    Some(mut s) => {
                        s.push_str(tail);
                        Cow::Owned(s)
                    }
                    None => Cow::Borrowed(tail),
                };
                return Ok((text, i + 1));
            }
            b'\\' => {
                let s = out.get_or_insert_with(String::new);
                s.push_str(c.get(run..i).ok_or(GiveUp)?);
                let esc = *b.get(i + 1).ok_or(GiveUp)?;
                let (decoded, used) = match esc {
                    b'\\' => ('\\', 2),
                    b'"' => ('"', 2),
                    b'0' => ('\0', 2),
                    b'a' => ('\u{7}', 2),
                    b'b' => ('\u{8}', 2),
                    b't' => ('\t', 2),
                    b'n' => ('\n', 2),
                    b'v' => ('\u{b}', 2),
                    b'f' => ('\u{c}', 2),
                    b'r' => ('\r', 2),
                    b'e' => ('\u{1b}', 2),
                    b'N' => ('\u{85}', 2),
                    b'L' => ('\u{2028}', 2),
                    b'P' => ('\u{2029}', 2),
                    b'x' => (hex_char(c, i + 2, 2)?, 4),
                    b'u' => (hex_char(c, i + 2, 4)?, 6),
                    b'U' => (hex_char(c, i + 2, 8)?, 10),
                    _ => return Err(GiveUp),
                };
                s.push(decoded);
                i += used;
                run = i;
            }
            _ => i += 1,
        }
    }
    Err(GiveUp)
}

/// The character of the `len` hexadecimal digits at `c[at..]`.
fn hex_char(c: &str, at: usize, len: usize) -> Res<char> {
    let digits = c.get(at..at + len).ok_or(GiveUp)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(GiveUp);
    }
    let n = u32::from_str_radix(digits, 16).map_err(|_| GiveUp)?;
    char::from_u32(n).ok_or(GiveUp)
}

/// A single-quoted scalar at the start of `c`, on one line (`''` is a quote): its text and
/// the index after the closing quote.
fn single_quoted(c: &str) -> Res<(Cow<'_, str>, usize)> {
    let b = c.as_bytes();
    let mut out: Option<String> = None;
    let mut run = 1;
    let mut i = 1;
    while let Some(&ch) = b.get(i) {
        if ch == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                let s = out.get_or_insert_with(String::new);
                s.push_str(c.get(run..=i).ok_or(GiveUp)?);
                i += 2;
                run = i;
                continue;
            }
            let tail = c.get(run..i).ok_or(GiveUp)?;
            let text = match out {
                Some(mut s) => {
                    s.push_str(tail);
                    Cow::Owned(s)
                }
                None => Cow::Borrowed(tail),
            };
            return Ok((text, i + 1));
        }
        i += 1;
    }
    Err(GiveUp)
}

/// Two keys with the same text, however written: serde-saphyr refuses some such pairs, and
/// telling which is not worth it here.
fn has_duplicates(entries: &[(Scalar<'_>, Node<'_>)]) -> bool {
    if entries.len() <= 8 {
        return entries
            .iter()
            .enumerate()
            .any(|(i, (k, _))| entries.iter().skip(i + 1).any(|(l, _)| k.text == l.text));
    }
    let mut keys: Vec<&str> = entries.iter().map(|(k, _)| k.text.as_ref()).collect();
    keys.sort_unstable();
    keys.windows(2).any(|w| w[0] == w[1])
}

/// The serde deserializer over one node of the tree.
struct NodeDe<'de>(Node<'de>);

impl<'de> NodeDe<'de> {
    fn scalar(self) -> Res<Scalar<'de>> {
        match self.0 {
            Node::Scalar(s) => Ok(s),
            _ => Err(GiveUp),
        }
    }

    /// The text of a plain integer, which serde-saphyr parses into the type asked for.
    fn int_text(self) -> Res<Cow<'de, str>> {
        let s = self.scalar()?;
        match s.kind {
            Kind::UInt(_) | Kind::Int(_) => Ok(s.text),
            _ => Err(GiveUp),
        }
    }

    /// Text, for strings and identifiers: only a scalar read as text (serde-saphyr would give
    /// `12` or `true` as text too, but such a string is never written plain).
    fn text<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        let s = self.scalar()?;
        if s.kind != Kind::Str {
            return Err(GiveUp);
        }
        match s.text {
            Cow::Borrowed(b) => visitor.visit_borrowed_str(b),
            Cow::Owned(o) => visitor.visit_string(o),
        }
    }
}

/// Integers as serde-saphyr gives them: parsed into the type asked for and handed to the
/// visitor method of that type; out of range gives up.
macro_rules! ints {
    ($($m:ident $ty:ty => $visit:ident;)*) => {$(
        fn $m<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
            let n: $ty = self.int_text()?.parse().map_err(|_| GiveUp)?;
            visitor.$visit(n)
        }
    )*};
}

macro_rules! give_up {
    ($($m:ident)*) => {$(
        fn $m<V: Visitor<'de>>(self, _visitor: V) -> Res<V::Value> {
            Err(GiveUp)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for NodeDe<'de> {
    type Error = GiveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.0 {
            Node::Scalar(s) => match s.kind {
                Kind::Null => visitor.visit_unit(),
                Kind::Bool(b) => visitor.visit_bool(b),
                Kind::UInt(n) => visitor.visit_u64(n),
                Kind::Int(n) => visitor.visit_i64(n),
                Kind::Str => match s.text {
                    Cow::Borrowed(b) => visitor.visit_borrowed_str(b),
                    Cow::Owned(o) => visitor.visit_string(o),
                },
            },
            Node::Seq(items) => visitor.visit_seq(SeqDe(items.into_iter())),
            Node::Map(entries) => visitor.visit_map(MapDe {
                entries: entries.into_iter(),
                value: None,
            }),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.scalar()?.kind {
            Kind::Bool(b) => visitor.visit_bool(b),
            _ => Err(GiveUp),
        }
    }

    ints! {
        deserialize_i8 i8 => visit_i8;
        deserialize_i16 i16 => visit_i16;
        deserialize_i32 i32 => visit_i32;
        deserialize_i64 i64 => visit_i64;
        deserialize_i128 i128 => visit_i128;
        deserialize_u8 u8 => visit_u8;
        deserialize_u16 u16 => visit_u16;
        deserialize_u32 u32 => visit_u32;
        deserialize_u64 u64 => visit_u64;
        deserialize_u128 u128 => visit_u128;
    }

    // Not written by pbem, or read by serde-saphyr in ways not reproduced here.
    give_up!(deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes
             deserialize_byte_buf);

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.text(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.text(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.text(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match &self.0 {
            Node::Scalar(Scalar {
                kind: Kind::Null, ..
            }) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.scalar()?.kind {
            Kind::Null => visitor.visit_unit(),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        match &self.0 {
            Node::Map(entries) if entries.is_empty() => visitor.visit_unit(),
            _ => self.deserialize_unit(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        // serde-saphyr's wrapper types (spans, anchors, tags) read more than the value.
        if name.starts_with("__yaml") {
            return Err(GiveUp);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.0 {
            Node::Seq(items) => visitor.visit_seq(SeqDe(items.into_iter())),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Res<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Res<V::Value> {
        if name.starts_with("__yaml") {
            return Err(GiveUp);
        }
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        match self.0 {
            Node::Map(entries) => visitor.visit_map(MapDe {
                entries: entries.into_iter(),
                value: None,
            }),
            _ => Err(GiveUp),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        if name.starts_with("__yaml") {
            return Err(GiveUp);
        }
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        if name.starts_with("__yaml") {
            return Err(GiveUp);
        }
        match self.0 {
            // `variant`: a unit variant.
            Node::Scalar(s) if s.kind == Kind::Str => visitor.visit_enum(EnumDe {
                variant: s,
                payload: None,
            }),
            // `variant: payload`: the only key of a mapping.
            Node::Map(entries) if entries.len() == 1 => {
                let Some((variant, payload)) = entries.into_iter().next() else {
                    return Err(GiveUp);
                };
                if variant.kind != Kind::Str {
                    return Err(GiveUp);
                }
                visitor.visit_enum(EnumDe {
                    variant,
                    payload: Some(payload),
                })
            }
            _ => Err(GiveUp),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        // The tree was checked whole while it was built; nothing more to read.
        visitor.visit_unit()
    }
}

struct SeqDe<'de>(std::vec::IntoIter<Node<'de>>);

impl<'de> de::SeqAccess<'de> for SeqDe<'de> {
    type Error = GiveUp;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        match self.0.next() {
            Some(node) => seed.deserialize(NodeDe(node)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct MapDe<'de> {
    entries: std::vec::IntoIter<(Scalar<'de>, Node<'de>)>,
    value: Option<Node<'de>>,
}

impl<'de> de::MapAccess<'de> for MapDe<'de> {
    type Error = GiveUp;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(NodeDe(Node::Scalar(key))).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<T::Value> {
        let value = self.value.take().ok_or(GiveUp)?;
        seed.deserialize(NodeDe(value))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct EnumDe<'de> {
    variant: Scalar<'de>,
    payload: Option<Node<'de>>,
}

impl<'de> de::EnumAccess<'de> for EnumDe<'de> {
    type Error = GiveUp;
    type Variant = VariantDe<'de>;
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<(S::Value, VariantDe<'de>)> {
        let v = seed.deserialize(NodeDe(Node::Scalar(self.variant)))?;
        Ok((v, VariantDe(self.payload)))
    }
}

struct VariantDe<'de>(Option<Node<'de>>);

impl<'de> de::VariantAccess<'de> for VariantDe<'de> {
    type Error = GiveUp;
    fn unit_variant(self) -> Res<()> {
        match self.0 {
            None => Ok(()),
            Some(_) => Err(GiveUp),
        }
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Res<T::Value> {
        seed.deserialize(NodeDe(self.0.ok_or(GiveUp)?))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Res<V::Value> {
        match self.0 {
            Some(Node::Seq(items)) => visitor.visit_seq(SeqDe(items.into_iter())),
            _ => Err(GiveUp),
        }
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        match self.0 {
            Some(Node::Map(entries)) => visitor.visit_map(MapDe {
                entries: entries.into_iter(),
                value: None,
            }),
            _ => Err(GiveUp),
        }
    }
}
