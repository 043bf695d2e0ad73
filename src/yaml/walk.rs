//! One walk over a document's parser events that knows, for every node, its field path.
//!
//! Everything that needs to connect a field path with the text (locating rejections, checking
//! that an order is plain YAML) is a visitor of this walk, so a document is walked once however
//! many paths are asked about: asking per path would re-parse the document per problem, which
//! made a 20,000-problem order take minutes.

use super::Seg;
use serde_saphyr::granit_parser::{self, Event, Parser, ScanError};
use std::collections::HashMap;
use std::ops::ControlFlow;

/// The options of every walk. Comment events are not emitted: nothing here reads comments, and
/// without them the parser has no look-ahead buffer of comments to run out of (the limit that
/// refused long skeletons). Comments are still scanned and validated. The nesting and key-length
/// limits stay at the parser's defaults, which are the ones serde-saphyr uses too.
pub(crate) fn parser_options() -> granit_parser::Options {
    granit_parser::options! {
        emit_comments: false,
    }
}

/// What a node is to its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// The document root, a sequence item or a mapping value: the node at `path`.
    Value,
    /// The key of entry `entry` (0-based) of the mapping at `path`.
    Key { entry: usize },
    /// Part of a key that is itself a sequence or mapping (`? [a, b]: c`); `path` is the
    /// mapping's. Such keys have no field path of their own.
    InKey,
}

/// One node of the document, as the walk meets it.
pub(crate) struct Node<'w, 'input> {
    pub path: &'w [Seg],
    pub role: Role,
    /// A `Scalar`, `SequenceStart`, `MappingStart` or `Alias` event.
    pub event: &'w Event<'input>,
    /// 1-based line and column of the node's first character.
    pub line: usize,
    pub column: usize,
    /// Nothing is written for the node (`key:` with no value): the parser reports it as `~`.
    pub empty: bool,
}

/// Why the text could not be walked: the parser's message and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WalkError {
    pub message: String,
    pub line: usize,
    pub column: usize,
    pub directive: bool,
}

impl From<ScanError> for WalkError {
    fn from(e: ScanError) -> WalkError {
        WalkError {
            message: e.info(),
            line: e.marker().line(),
            column: e.marker().col() + 1,
            directive: matches!(e.kind(), granit_parser::ErrorKind::DirectiveDisallowed),
        }
    }
}

enum Frame {
    Map {
        expecting_key: bool,
        key: Option<String>,
        entries: usize,
    },
    Seq {
        next: usize,
    },
    /// A sequence or mapping that is (part of) a mapping key.
    InKey,
}

/// Walks `text` once, calling `on_node` for every node and `on_document` with the number
/// (1-based) of every document that starts, until either returns `Break` or the text ends. `disallow_directives` makes a `%` directive a
/// parse error (orders have no use for them).
pub(crate) fn walk(
    text: &str,
    disallow_directives: bool,
    mut on_node: impl FnMut(&Node) -> ControlFlow<()>,
    mut on_document: impl FnMut(usize) -> ControlFlow<()>,
) -> Result<(), WalkError> {
    let mut options = parser_options();
    options.disallow_directives = disallow_directives;
    let mut stack: Vec<Frame> = Vec::new();
    // The path of the innermost value node that is open (a collection) or being visited.
    let mut current: Vec<Seg> = Vec::new();
    let mut documents = 0;
    for item in Parser::new_from_str_with_options(text, options) {
        let (event, span) = item?;
        if let Event::DocumentStart(..) = &event {
            documents += 1;
            if on_document(documents).is_break() {
                return Ok(());
            }
            continue;
        }
        if !event.is_node() {
            match event {
                Event::MappingEnd | Event::SequenceEnd => {
                    // A collection that is part of a key never entered `current`.
                    let part_of_key = matches!(stack.pop(), Some(Frame::InKey));
                    if !part_of_key {
                        current.pop();
                    }
                }
                Event::DocumentEnd => {
                    stack.clear();
                    current.clear();
                }
                _ => {}
            }
            continue;
        }
        let role = match stack.last_mut() {
            Some(Frame::InKey) => Role::InKey,
            Some(Frame::Map {
                expecting_key: expecting_key @ true,
                key,
                entries,
            }) => {
                *key = match &event {
                    Event::Scalar(k, ..) => Some(k.to_string()),
                    _ => None,
                };
                *expecting_key = false;
                *entries += 1;
                Role::Key {
                    entry: *entries - 1,
                }
            }
            Some(Frame::Map {
                expecting_key, key, ..
            }) => {
                *expecting_key = true;
                current.push(Seg::Key(key.take().unwrap_or_default()));
                Role::Value
            }
            Some(Frame::Seq { next }) => {
                current.push(Seg::Index(*next));
                *next += 1;
                Role::Value
            }
            None => Role::Value,
        };
        let node = Node {
            path: &current,
            role,
            event: &event,
            line: span.start.line(),
            column: span.start.col() + 1,
            empty: span.start.index() == span.end.index(),
        };
        if on_node(&node).is_break() {
            return Ok(());
        }
        let in_key = role != Role::Value;
        match event {
            Event::MappingStart(..) if in_key => stack.push(Frame::InKey),
            Event::SequenceStart(..) if in_key => stack.push(Frame::InKey),
            Event::MappingStart(..) => stack.push(Frame::Map {
                expecting_key: true,
                key: None,
                entries: 0,
            }),
            Event::SequenceStart(..) => stack.push(Frame::Seq { next: 0 }),
            // A scalar or alias value ends where it starts.
            _ if role == Role::Value => {
                current.pop();
            }
            _ => {}
        }
    }
    Ok(())
}

/// Line and column (both 1-based) of the value at each of `paths`, found in one walk; `None`
/// where a path does not occur in the text (a field left out that took its default) or the text
/// cannot be parsed up to it. The first occurrence counts.
pub fn locate_all(text: &str, paths: &[&[Seg]]) -> Vec<Option<(usize, usize)>> {
    let mut found = vec![None; paths.len()];
    let mut wanted: HashMap<&[Seg], Vec<usize>> = HashMap::new();
    for (i, p) in paths.iter().enumerate() {
        wanted.entry(p).or_default().push(i);
    }
    let mut left = wanted.len();
    let _ = walk(
        text,
        false,
        |node| {
            if node.role == Role::Value
                && let Some(indices) = wanted.remove(node.path)
            {
                for i in indices {
                    found[i] = Some((node.line, node.column));
                }
                left -= 1;
            }
            if left == 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
        |_| ControlFlow::Continue(()),
    );
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(segs: &[Seg]) -> Vec<Seg> {
        segs.to_vec()
    }

    fn k(s: &str) -> Seg {
        Seg::Key(s.into())
    }

    #[test]
    fn finds_many_paths_in_one_walk_in_the_order_asked() {
        let text = "a: 1\nb:\n  - x\n  - {c: y}\n";
        let b1c = p(&[k("b"), Seg::Index(1), k("c")]);
        let a = p(&[k("a")]);
        let missing = p(&[k("z")]);
        let got = locate_all(text, &[&b1c, &a, &missing, &a]);
        assert_eq!(got, vec![Some((4, 9)), Some((1, 4)), None, Some((1, 4))]);
    }

    #[test]
    fn keys_of_nested_collections_do_not_shift_later_paths() {
        // A mapping key that is a sequence must not be taken for a value, nor its items.
        let text = "? [a, b]\n: 1\nc: 2\n";
        let c = p(&[k("c")]);
        assert_eq!(locate_all(text, &[&c]), vec![Some((3, 4))]);
    }

    #[test]
    fn a_document_with_many_comment_lines_in_a_row_is_walked() {
        // The parser's default keeps at most 96 comments while looking ahead; the walk emits
        // none, so a skeleton with a long comment block still locates its fields.
        let comments: String = (0..500).map(|i| format!("  # choice {i}\n")).collect();
        let text = format!("orders:\n{comments}  actions: []\n");
        let path = p(&[k("orders"), k("actions")]);
        assert_eq!(locate_all(&text, &[&path]), vec![Some((502, 12))]);
    }

    #[test]
    fn unparsable_text_locates_nothing_past_the_error() {
        let text = "a: 1\nb: [\n";
        let a = p(&[k("a")]);
        let b = p(&[k("b"), Seg::Index(0)]);
        assert_eq!(locate_all(text, &[&a, &b]), vec![Some((1, 4)), None]);
    }
}
