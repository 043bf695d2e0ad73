//! YAML in and out, and the rejection messages that point into a player's file.
//!
//! Parsing goes through serde-saphyr, which refuses duplicate keys (a signed order must mean one
//! thing) and reports line and column. Semantic checks report a field path such as
//! `orders.actions[2].move.path[3]`; [`locate`] turns that path back into a line and column by
//! walking the parser's events, so every rejection can name where in the file it applies.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_saphyr::granit_parser::{Event, Parser};
use std::fmt;

/// One step of a field path: a mapping key or a sequence index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl From<&str> for Seg {
    fn from(s: &str) -> Seg {
        Seg::Key(s.to_string())
    }
}

impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

/// A path into a YAML document, written `orders.actions[2].move`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    pub fn root() -> FieldPath {
        FieldPath(Vec::new())
    }

    /// A copy of this path extended by one segment.
    pub fn at(&self, seg: impl Into<Seg>) -> FieldPath {
        let mut p = self.clone();
        p.0.push(seg.into());
        p
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for seg in &self.0 {
            match seg {
                Seg::Key(k) if first => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        Ok(())
    }
}

/// Why an input was refused: where, which rule, and what would have been accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub field: Option<String>,
    pub rule: Option<String>,
    pub message: String,
    pub accepted: Option<String>,
}

impl Rejection {
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Rejection {
        Rejection {
            file: file.into(),
            line: None,
            column: None,
            field: None,
            rule: None,
            message: message.into(),
            accepted: None,
        }
    }

    pub fn rule(mut self, rule: impl Into<String>) -> Rejection {
        self.rule = Some(rule.into());
        self
    }

    pub fn accepted(mut self, accepted: impl Into<String>) -> Rejection {
        self.accepted = Some(accepted.into());
        self
    }

    /// Names the field and, when the source text has it, its line and column.
    pub fn at_field(mut self, source: &str, path: &FieldPath) -> Rejection {
        if !path.0.is_empty() {
            self.field = Some(path.to_string());
        }
        if let Some((line, col)) = locate(source, path) {
            self.line = Some(line);
            self.column = Some(col);
        }
        self
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.column {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)?;
        if let Some(field) = &self.field {
            write!(f, "\n  field: {field}")?;
        }
        if let Some(rule) = &self.rule {
            write!(f, "\n  rule: {rule}")?;
        }
        if let Some(acc) = &self.accepted {
            write!(f, "\n  accepted: {acc}")?;
        }
        Ok(())
    }
}

// A rejection is built once per refused input, never on a hot path; its size does not matter.
#[allow(clippy::result_large_err)]
/// Parses a YAML document into `T`, refusing duplicate keys and (where `T` says so) unknown
/// fields, with the file name, line and column of the first problem.
pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Rejection> {
    serde_saphyr::from_str::<T>(text).map_err(|e| {
        let loc = e.location();
        let mut r = Rejection::new(file, first_line(&e.to_string()));
        if let Some(loc) = loc {
            r.line = Some(loc.line() as usize);
            r.column = Some(loc.column() as usize);
        }
        if r.message.contains("unknown field") {
            r.accepted = Some("only the fields listed in the template (`pbem template`)".into());
        } else if r.message.contains("duplicate") {
            r.accepted = Some("each key once per mapping".into());
        }
        r
    })
}

/// serde-saphyr renders a source snippet after the message; the rejection shows its own
/// location, so only the message line is kept.
fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("").trim();
    // The message may start with "line L column C: "; the location is carried separately.
    match line.find(": ") {
        Some(i) if line.starts_with("line ") => line[i + 2..].to_string(),
        _ => line.to_string(),
    }
}

/// Serialises `T` as YAML for storage or hashing. Our types hold only maps with ordered keys,
/// so equal values always give equal bytes. A failure is an error, never a placeholder text.
pub fn encode<T: Serialize>(value: &T) -> Result<String, String> {
    serde_saphyr::to_string(value).map_err(|e| format!("cannot write YAML: {e}"))
}

/// Serialises `T` as YAML for display only (templates, messages): a failure shows as a comment.
pub fn to_string<T: Serialize>(value: &T) -> String {
    encode(value).unwrap_or_else(|e| format!("# {e}\n"))
}

/// Finds the line and column (both 1-based) of the value at `path`; `None` if the path does not
/// occur in the text (for example a field that was left out and took its default).
pub fn locate(text: &str, path: &FieldPath) -> Option<(usize, usize)> {
    enum Frame {
        Map {
            expecting_key: bool,
            key: Option<String>,
        },
        Seq {
            next: usize,
        },
    }
    let mut stack: Vec<Frame> = Vec::new();
    // Path of the node the next event starts, compared against the wanted path.
    let mut current: Vec<Seg> = Vec::new();
    for item in Parser::new_from_str(text) {
        let (event, span) = item.ok()?;
        // Work out which path the node that starts at this event has.
        let starts_node = matches!(
            event,
            Event::Scalar(..)
                | Event::MappingStart(..)
                | Event::SequenceStart(..)
                | Event::Alias(..)
        );
        if starts_node {
            match stack.last_mut() {
                Some(Frame::Map {
                    expecting_key: true,
                    key,
                }) => {
                    if let Event::Scalar(k, ..) = &event {
                        *key = Some(k.to_string());
                    }
                    if let Some(Frame::Map { expecting_key, .. }) = stack.last_mut() {
                        *expecting_key = false;
                    }
                    continue;
                }
                Some(Frame::Map { expecting_key, key }) => {
                    *expecting_key = true;
                    current.push(Seg::Key(key.clone().unwrap_or_default()));
                }
                Some(Frame::Seq { next }) => {
                    current.push(Seg::Index(*next));
                    *next += 1;
                }
                None => {}
            }
            if current == path.0 {
                return Some((span.start.line(), span.start.col() + 1));
            }
        }
        match event {
            Event::MappingStart(..) => stack.push(Frame::Map {
                expecting_key: true,
                key: None,
            }),
            Event::SequenceStart(..) => stack.push(Frame::Seq { next: 0 }),
            Event::MappingEnd | Event::SequenceEnd => {
                stack.pop();
                current.pop();
            }
            Event::Scalar(..) | Event::Alias(..) => {
                current.pop();
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    const DOC: &str = "game: g1\norders:\n  actions:\n    - move: {unit: A, path: [B08, C08]}\n    - flip_up: B\n";

    fn p(segs: Vec<Seg>) -> FieldPath {
        FieldPath(segs)
    }

    #[test]
    fn locates_top_level_keys() {
        assert_eq!(locate(DOC, &p(vec!["game".into()])), Some((1, 7)));
    }

    #[test]
    fn locates_values_inside_sequences_and_flow_maps() {
        let path = p(vec![
            "orders".into(),
            "actions".into(),
            0.into(),
            "move".into(),
            "path".into(),
            1.into(),
        ]);
        assert_eq!(locate(DOC, &path), Some((4, 35)));
        let path = p(vec![
            "orders".into(),
            "actions".into(),
            1.into(),
            "flip_up".into(),
        ]);
        assert_eq!(locate(DOC, &path), Some((5, 16)));
    }

    #[test]
    fn missing_path_has_no_location() {
        assert_eq!(locate(DOC, &p(vec!["nothing".into()])), None);
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Small {
        game: String,
    }

    #[test]
    fn unknown_field_is_rejected_with_its_line() {
        let r = parse::<Small>("game: g\ngmae: h\n", "o.yaml").unwrap_err();
        assert_eq!((r.line, r.file.as_str()), (Some(2), "o.yaml"));
        assert!(r.message.contains("gmae"), "{r}");
    }

    #[test]
    fn duplicate_key_is_rejected_with_its_line() {
        let r = parse::<Small>("game: g\ngame: h\n", "o.yaml").unwrap_err();
        assert_eq!(r.line, Some(2), "{r}");
        assert!(r.message.contains("duplicate"), "{r}");
    }

    #[test]
    fn path_displays_like_the_docs() {
        let path = p(vec![
            "orders".into(),
            "actions".into(),
            2.into(),
            "move".into(),
        ]);
        assert_eq!(path.to_string(), "orders.actions[2].move");
    }
}
