//! Plain YAML for signed orders: a signed order must mean one thing to every reader, so only
//! the plain forms of YAML are accepted (docs/architecture.md, "Plain YAML").
//!
//! Two parts make the check. While serde reads the document into the order's type, [`Track`]
//! notes every scalar the type took as a number, a boolean or a null, with its field path: only
//! the type knows that `'1'` was read as the number 1 (YAML alone says it is text). Then one
//! walk over the parser events ([`super::walk`]) checks how each noted scalar was written, and
//! refuses what plain YAML has no use for anywhere: tags, anchors and aliases, merge keys,
//! directives, keys that are collections.

use super::Seg;
use super::walk::{self, Node, Role};
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Visitor};
use serde_saphyr::granit_parser::{Event, ScalarStyle};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::ops::ControlFlow;

/// What the target type made of a scalar.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Read {
    /// An integer; the text is its plain decimal spelling.
    Int(String),
    Bool(bool),
    Float,
    Null,
}

/// One scalar the type read as something other than text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Typed {
    /// The value's path; for a key, the path of its mapping.
    pub path: Vec<Seg>,
    /// `Some(i)` when the scalar is the key of entry `i` of the mapping at `path`.
    pub key_entry: Option<usize>,
    pub read: Read,
}

/// Shared state of one tracked deserialization.
#[derive(Default)]
pub(crate) struct Recorder {
    path: RefCell<Vec<Seg>>,
    /// The text of the last mapping key or enum variant read, which names the path of the
    /// value that follows.
    key: RefCell<Option<String>>,
    typed: RefCell<Vec<Typed>>,
}

impl Recorder {
    pub fn into_typed(self) -> Vec<Typed> {
        self.typed.into_inner()
    }

    fn push(&self, seg: Seg) {
        self.path.borrow_mut().push(seg);
    }

    fn pop(&self) {
        self.path.borrow_mut().pop();
    }

    fn take_key(&self) -> String {
        self.key.borrow_mut().take().unwrap_or_default()
    }
}

/// Where the scalar being read sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Value,
    Key(usize),
    /// An enum variant's name: an identifier, never a number to check.
    Variant,
}

/// A serde deserializer that forwards to `de` and records through `rec` (see the module doc).
pub(crate) struct Track<'r, D> {
    de: D,
    rec: &'r Recorder,
    at: At,
}

impl<'r, D> Track<'r, D> {
    pub fn new(de: D, rec: &'r Recorder) -> Self {
        Track {
            de,
            rec,
            at: At::Value,
        }
    }
}

struct Vis<'r, V> {
    v: V,
    rec: &'r Recorder,
    at: At,
}

impl<V> Vis<'_, V> {
    fn note(&self, read: Read) {
        let key_entry = match self.at {
            At::Value => None,
            At::Key(i) => Some(i),
            At::Variant => return,
        };
        self.rec.typed.borrow_mut().push(Typed {
            path: self.rec.path.borrow().clone(),
            key_entry,
            read,
        });
    }

    /// Keeps the text of a key or variant name, to name the path of the value that follows.
    fn name(&self, text: impl fmt::Display) {
        if self.at != At::Value {
            *self.rec.key.borrow_mut() = Some(text.to_string());
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            let vis = Vis { v: visitor, rec: self.rec, at: self.at };
            self.de.$method($($arg,)* vis)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Track<'_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

macro_rules! visit_int {
    ($($method:ident: $ty:ty),*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.note(Read::Int(v.to_string()));
            self.name(v);
            self.v.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Vis<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.v.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.note(Read::Bool(v));
        self.name(v);
        self.v.visit_bool(v)
    }

    visit_int!(visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64, visit_i128: i128,
        visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64, visit_u128: u128);

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<V::Value, E> {
        self.note(Read::Float);
        self.name(v);
        self.v.visit_f32(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.note(Read::Float);
        self.name(v);
        self.v.visit_f64(v)
    }

    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        self.name(v);
        self.v.visit_char(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.name(v);
        self.v.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.name(v);
        self.v.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.name(&v);
        self.v.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.v.visit_bytes(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.v.visit_borrowed_bytes(v)
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.v.visit_byte_buf(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.note(Read::Null);
        self.v.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.note(Read::Null);
        self.v.visit_unit()
    }

    fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        let (rec, at) = (self.rec, self.at);
        self.v.visit_some(Track { de: d, rec, at })
    }

    fn visit_newtype_struct<D2: Deserializer<'de>>(self, d: D2) -> Result<V::Value, D2::Error> {
        let (rec, at) = (self.rec, self.at);
        self.v.visit_newtype_struct(Track { de: d, rec, at })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        let rec = self.rec;
        self.v.visit_seq(Seq { a, rec, next: 0 })
    }

    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        let rec = self.rec;
        self.v.visit_map(Map { a, rec, entries: 0 })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, a: A) -> Result<V::Value, A::Error> {
        let rec = self.rec;
        self.v.visit_enum(Enum { a, rec })
    }
}

struct Seed<'r, S> {
    seed: S,
    rec: &'r Recorder,
    at: At,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Track {
            de,
            rec: self.rec,
            at: self.at,
        })
    }
}

struct Seq<'r, A> {
    a: A,
    rec: &'r Recorder,
    next: usize,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.rec.push(Seg::Index(self.next));
        let seed = Seed {
            seed,
            rec: self.rec,
            at: At::Value,
        };
        let got = self.a.next_element_seed(seed);
        self.rec.pop();
        self.next += 1;
        got
    }

    fn size_hint(&self) -> Option<usize> {
        self.a.size_hint()
    }
}

struct Map<'r, A> {
    a: A,
    rec: &'r Recorder,
    entries: usize,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Map<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        *self.rec.key.borrow_mut() = None;
        let seed = Seed {
            seed,
            rec: self.rec,
            at: At::Key(self.entries),
        };
        self.entries += 1;
        self.a.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.rec.push(Seg::Key(self.rec.take_key()));
        let seed = Seed {
            seed,
            rec: self.rec,
            at: At::Value,
        };
        let got = self.a.next_value_seed(seed);
        self.rec.pop();
        got
    }

    fn size_hint(&self) -> Option<usize> {
        self.a.size_hint()
    }
}

struct Enum<'r, A> {
    a: A,
    rec: &'r Recorder,
}

impl<'r, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Enum<'r, A> {
    type Error = A::Error;
    type Variant = Variant<'r, A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        *self.rec.key.borrow_mut() = None;
        let seed = Seed {
            seed,
            rec: self.rec,
            at: At::Variant,
        };
        let (value, a) = self.a.variant_seed(seed)?;
        let name = self.rec.take_key();
        let rec = self.rec;
        Ok((value, Variant { a, rec, name }))
    }
}

/// The content of a variant written `name: content` sits at the path `.name`.
struct Variant<'r, A> {
    a: A,
    rec: &'r Recorder,
    name: String,
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Variant<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.a.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.rec.push(Seg::Key(self.name));
        let seed = Seed {
            seed,
            rec: self.rec,
            at: At::Value,
        };
        let got = self.a.newtype_variant_seed(seed);
        self.rec.pop();
        got
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.rec.push(Seg::Key(self.name));
        let vis = Vis {
            v: visitor,
            rec: self.rec,
            at: At::Value,
        };
        let got = self.a.tuple_variant(len, vis);
        self.rec.pop();
        got
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.rec.push(Seg::Key(self.name));
        let vis = Vis {
            v: visitor,
            rec: self.rec,
            at: At::Value,
        };
        let got = self.a.struct_variant(fields, vis);
        self.rec.pop();
        got
    }
}

/// A form that is not plain, found at `line`:`column`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unplain {
    pub line: usize,
    pub column: usize,
    /// The field path of the value (for a key: of its mapping), empty at the root.
    pub path: Vec<Seg>,
    pub message: String,
    pub accepted: &'static str,
}

const ACCEPTED_STRUCTURE: &str = "plain YAML: mappings, lists, text (plain or quoted), decimal \
    integers, true/false and null, each written out where it is used (no &anchors, *aliases, \
    << merges, !tags or % directives)";

/// What the plain check found: the first [`super::MAX_REPORTED`] forms that are not plain, in
/// document order, and how many more there are.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub listed: Vec<Unplain>,
    pub more: usize,
}

impl Found {
    fn push(&mut self, u: Unplain) {
        if self.listed.len() < super::MAX_REPORTED {
            self.listed.push(u);
        } else {
            self.more += 1;
        }
    }
}

/// Every form in `text` that is not plain, given what the type read (`typed`). One walk; an
/// `Err` means the parser itself refused the text (or a `%` directive).
pub(crate) fn check(text: &str, typed: &[Typed]) -> Result<Found, walk::WalkError> {
    let mut index: HashMap<&[Seg], Vec<&Typed>> = HashMap::new();
    for t in typed {
        index.entry(t.path.as_slice()).or_default().push(t);
    }
    let mut found = Found::default();
    let mut second_document = false;
    walk::walk(
        text,
        true,
        |node| {
            if let Some(u) = structure(node) {
                found.push(u);
            }
            let key_entry = match node.role {
                Role::Value => None,
                Role::Key { entry } => Some(entry),
                Role::InKey => return ControlFlow::Continue(()),
            };
            if let (Some(reads), Event::Scalar(value, style, ..)) =
                (index.get(node.path), node.event)
            {
                for t in reads.iter().filter(|t| t.key_entry == key_entry) {
                    if let Some(u) = written(node, &t.read, value, *style) {
                        found.push(u);
                    }
                }
            }
            ControlFlow::Continue(())
        },
        |n| {
            if n > 1 {
                second_document = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )?;
    if second_document {
        found.push(Unplain {
            line: 0,
            column: 0,
            path: Vec::new(),
            message: "the file holds more than one YAML document (a `---` line after content)"
                .into(),
            accepted: "one document: the order, as `pbem template` writes it",
        });
    }
    Ok(found)
}

/// Tags, anchors, aliases, merge keys and collection keys: not plain wherever they occur.
fn structure(node: &Node) -> Option<Unplain> {
    let at = |message: String| Unplain {
        line: node.line,
        column: node.column,
        path: node.path.to_vec(),
        message,
        accepted: ACCEPTED_STRUCTURE,
    };
    let (anchor, tag) = match node.event {
        Event::Scalar(_, _, anchor, tag)
        | Event::SequenceStart(_, anchor, tag)
        | Event::MappingStart(_, anchor, tag) => (*anchor, tag.as_ref()),
        Event::Alias(..) | Event::UnresolvedAlias(..) => {
            return Some(at(
                "an alias (`*name`) is not accepted in an order: write the value out".into(),
            ));
        }
        _ => return None,
    };
    if let Some(tag) = tag {
        return Some(at(format!(
            "a tag (`{}{}`) is not accepted in an order: remove it",
            tag.original_handle(),
            tag.suffix()
        )));
    }
    if anchor != 0 {
        return Some(at(
            "an anchor (`&name`) is not accepted in an order: remove it".into(),
        ));
    }
    match (node.role, node.event) {
        (Role::Key { .. }, Event::Scalar(k, ScalarStyle::Plain, ..)) if k == "<<" => Some(at(
            "a merge key (`<<`) is not accepted in an order: write the keys out".into(),
        )),
        (Role::Key { .. }, Event::SequenceStart(..) | Event::MappingStart(..)) => Some(at(
            "a key that is a list or mapping is not accepted in an order".into(),
        )),
        _ => None,
    }
}

/// How a scalar the type read as `read` should have been written, if it was not.
fn written(node: &Node, read: &Read, value: &str, style: ScalarStyle) -> Option<Unplain> {
    let plain = style == ScalarStyle::Plain;
    let (ok, what, accepted) = match read {
        Read::Int(canonical) => (
            plain && value == canonical,
            "a number",
            "a decimal integer without quotes, `+`, leading zeros or `_` (e.g. 12, -3)",
        ),
        Read::Bool(b) => (
            plain && value == b.to_string(),
            "true or false",
            "true or false, in lower case and without quotes",
        ),
        Read::Float => (
            plain && is_plain_decimal(value),
            "a number",
            "a decimal number without quotes (e.g. 12 or 1.5)",
        ),
        Read::Null => (
            plain && (node.empty || value == "null"),
            "null (no value)",
            "null, or nothing after the colon",
        ),
    };
    if ok {
        return None;
    }
    let shown = match style {
        ScalarStyle::Plain => format!("`{value}`"),
        ScalarStyle::SingleQuoted => format!("`'{value}'`"),
        ScalarStyle::DoubleQuoted => format!("`\"{value}\"`"),
        _ => "a block scalar (`|` or `>`)".to_string(),
    };
    let place = if matches!(node.role, Role::Key { .. }) {
        "key"
    } else {
        "value"
    };
    Some(Unplain {
        line: node.line,
        column: node.column,
        path: node.path.to_vec(),
        message: format!("the {place} {shown} is read as {what}, but is not written plainly"),
        accepted,
    })
}

/// `12`, `-3`, `1.5`: digits, an optional leading minus and an optional fraction.
fn is_plain_decimal(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let s = s.strip_prefix('-').unwrap_or(s);
    match s.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac),
        None => digits(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals() {
        for ok in ["0", "12", "-3", "1.5", "-0.25"] {
            assert!(is_plain_decimal(ok), "{ok}");
        }
        for bad in ["", "-", "1.", ".5", "1e3", "+1", "1_000", "0x1", ".inf"] {
            assert!(!is_plain_decimal(bad), "{bad}");
        }
    }
}
