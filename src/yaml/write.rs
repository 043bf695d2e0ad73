//! A YAML writer that gives, byte for byte, what `serde_saphyr::to_string` (2.1.1, default
//! options) gives, at a fraction of its cost. States, views, journal records and receipts are
//! hashed and signed as written, so one differing byte would break the verification of every
//! existing game: [`super::encode`] compares the two writers on every document in debug builds,
//! and the tests compare them on generated values.
//!
//! The layout is serde-saphyr's serializer (`ser/serializer.rs`, `ser/serializer/compound.rs`)
//! ported with its default options made constants (two-space indentation, compact sequences
//! under keys, `{}` and `[]` for empty collections, automatic `|` and `>` block scalars, YAML
//! 1.1 compatible quoting). Its state is kept flag for flag under the same names, because the
//! odd corners of its output (a `{}` on a line of its own after a block sibling inside an enum
//! variant) come from the order in which those flags are set and cleared; a cleaner writer
//! would differ there. Features pbem never uses (anchors, tags, comments, flow collections,
//! the string-style wrappers, floats, byte strings, keys that are collections or longer than
//! 1024 characters) are not ported: meeting one, the writer gives up with [`Unhandled`] and
//! the caller writes the whole value with serde-saphyr instead.
//!
//! Where the time went in serde-saphyr: its quoting checks walk each string several times, a
//! key is first written into a `String` of its own, numbers and indentation go through
//! `fmt::Write` one piece at a time. Here strings are scanned once (see [`scalar`]) and
//! everything is appended to one `String`.

mod scalar;
#[cfg(test)]
mod tests;

use serde::Serialize;
use serde::ser::{self, Impossible};
use std::fmt;

/// The writer met something it does not reproduce exactly (or the value's own `Serialize`
/// failed): the caller falls back to serde-saphyr, which writes it or reports the error.
#[derive(Debug)]
pub struct Unhandled;

impl fmt::Display for Unhandled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not written by pbem's YAML writer")
    }
}

impl std::error::Error for Unhandled {}

impl ser::Error for Unhandled {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Unhandled
    }
}

type Result<T = ()> = std::result::Result<T, Unhandled>;

/// `value` as serde-saphyr writes it, or `None` where this writer does not reproduce it.
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> Option<String> {
    let mut w = Writer::default();
    value.serialize(&mut w).ok()?;
    Some(w.out)
}

/// Whether the writer would write the string `s` as a plain value: what [`super::read`]
/// accepts as a plain string, so that a plain scalar is read only where its meaning is the
/// writer's (never a number, a boolean, a null or an indicator in disguise).
pub(super) fn plain_value(s: &str) -> bool {
    !matches!(s, "." | "#" | "-") && scalar::is_plain_value_safe(s, false, scalar::Scan::of(s))
}

/// Whether the writer would write the string `s` as a plain mapping key.
pub(super) fn plain_key(s: &str) -> bool {
    scalar::key_is_plain(s)
}

/// Spaces per indentation level (serde-saphyr's default `indent_step`).
const STEP: usize = 2;
/// Single-line strings longer than this many characters are folded (`>`).
const FOLD_WIDTH: usize = 80;
/// A longer key would be written in the explicit `? key` form.
const SIMPLE_KEY_MAX_LEN: usize = 1024;

/// The block scalar styles serde-saphyr picks by itself.
enum Block {
    /// `|`: a string with line breaks.
    Literal,
    /// `>`: a single line longer than [`FOLD_WIDTH`] that could be plain.
    Folded,
}

/// serde-saphyr's `SerializerState`, less what only the unported features touch. Its `depth`
/// only changes under complex keys, so it is always 0 here and not kept.
struct Writer {
    out: String,
    /// The output is at the start of a line.
    at_line_start: bool,
    /// `pending_space_after_colon`: a key's `:` was written, the space waits for the value.
    pending_space: bool,
    /// `pending_inline_map`: the next mapping's first key goes on the dash's line.
    pending_inline_map: bool,
    /// `last_value_was_block`: the last value was a non-empty block collection.
    last_value_was_block: bool,
    /// `after_dash_depth`: the depth of the sequence dash just written.
    after_dash_depth: Option<usize>,
    /// `current_map_depth`: the depth of the keys of the mapping whose value is being written.
    current_map_depth: Option<usize>,
    /// `current_map_key_column`: that mapping's key column, when it was opened after a dash.
    current_map_key_column: Option<usize>,
    /// Whether each `&'static str` key met is plain, by its address (a slot is its address,
    /// its length, the answer): struct field and variant names recur in every element of a
    /// sequence, and the same address always holds the same text.
    static_keys: [(usize, usize, bool); STATIC_KEY_SLOTS],
}

/// Slots of [`Writer::static_keys`]; more names than this only cost a recheck.
const STATIC_KEY_SLOTS: usize = 64;

impl Default for Writer {
    fn default() -> Writer {
        Writer {
            out: String::with_capacity(1024),
            at_line_start: true,
            pending_space: false,
            pending_inline_map: false,
            last_value_was_block: false,
            after_dash_depth: None,
            current_map_depth: None,
            current_map_key_column: None,
            static_keys: [(0, 0, false); STATIC_KEY_SLOTS],
        }
    }
}

/// A key's written text must be short enough for the implicit `key:` form; serde-saphyr
/// writes a longer one as `? key`, which is not reproduced.
fn simple_key(text: &str) -> Result {
    if text.len() > SIMPLE_KEY_MAX_LEN && text.chars().count() > SIMPLE_KEY_MAX_LEN {
        return Err(Unhandled);
    }
    Ok(())
}

/// Appends `n` spaces.
fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    while n > SPACES.len() {
        out.push_str(SPACES);
        n -= SPACES.len();
    }
    out.push_str(&SPACES[..n]);
}

/// Appends `n` in decimal, without `fmt`'s machinery.
fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

fn push_i64(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_u64(out, n.unsigned_abs());
}

impl Writer {
    /// `write_space_if_pending`: the space after a key's colon, before a scalar.
    fn space_if_pending(&mut self) {
        if self.pending_space {
            self.out.push(' ');
            self.pending_space = false;
        }
        self.last_value_was_block = false;
    }

    /// `write_indent`: indentation, if at the start of a line.
    fn indent(&mut self, depth: usize) {
        if self.at_line_start {
            push_spaces(&mut self.out, STEP * depth);
            self.at_line_start = false;
        }
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.at_line_start = true;
    }

    /// The start of every plain scalar: the pending space, the indentation at the root.
    fn scalar_start(&mut self) {
        self.space_if_pending();
        self.indent(0);
    }

    /// `write_end_of_scalar` outside flow collections.
    fn scalar_end(&mut self) {
        self.newline();
    }

    /// A struct field's or an enum variant's name as a key (serde-saphyr's `write_key_scalar`
    /// for variants), then checks it is a simple key.
    fn static_key(&mut self, key: &'static str) -> Result {
        let addr = key.as_ptr() as usize;
        let slot = &mut self.static_keys[(addr ^ (addr >> 6) ^ key.len()) % STATIC_KEY_SLOTS];
        let plain = if slot.0 == addr && slot.1 == key.len() {
            slot.2
        } else {
            let plain = scalar::key_is_plain(key);
            *slot = (addr, key.len(), plain);
            plain
        };
        let start = self.out.len();
        scalar::push_key_as(key, plain, &mut self.out);
        simple_key(&self.out[start..])
    }

    /// Appends a key written by `key`'s `Serialize`, then checks it is a simple key.
    fn key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result {
        let start = self.out.len();
        key.serialize(KeyWriter(&mut self.out))?;
        simple_key(&self.out[start..])
    }

    /// `serialize_str`: a string value, plain, quoted or as a block scalar.
    fn string(&mut self, v: &str) {
        let scan = scalar::Scan::of(v);
        // Printable ASCII has no line break, and up to this length it is never folded.
        let block = if scan.printable_ascii() && v.len() <= FOLD_WIDTH {
            None
        } else if v.contains('\n') {
            (scalar::is_block_scalar_content_safe(v) && !v.is_empty()).then_some(Block::Literal)
        } else if v.len() > FOLD_WIDTH {
            let probe = v.trim_end_matches(' ');
            (!probe.is_empty()
                && scalar::is_plain_value_safe(probe, false, scalar::Scan::of(probe))
                && v.chars().count() > FOLD_WIDTH)
                .then_some(Block::Folded)
        } else {
            None
        };
        match block {
            Some(block) if scalar::is_block_scalar_content_safe(v) => self.block_scalar(v, block),
            Some(_) => {
                self.scalar_start();
                scalar::push_double_quoted(v, &mut self.out);
                self.scalar_end();
            }
            None => {
                self.scalar_start();
                // serde-saphyr writes these three one-character strings single-quoted.
                if matches!(v, "." | "#" | "-") {
                    self.out.push('\'');
                    self.out.push_str(v);
                    self.out.push('\'');
                } else if scalar::is_plain_value_safe(v, false, scan) {
                    self.out.push_str(v);
                } else {
                    scalar::push_double_quoted(v, &mut self.out);
                }
                self.scalar_end();
            }
        }
    }

    /// A block scalar (`|` for multi-line strings, `>` for long ones), indented one step past
    /// its key or dash.
    fn block_scalar(&mut self, v: &str, block: Block) {
        let was_map_value = self.pending_space;
        self.space_if_pending();
        let base = if was_map_value {
            self.current_map_depth.unwrap_or(0)
        } else {
            self.after_dash_depth.unwrap_or(0)
        };
        self.indent(base);
        let parent_column = match (was_map_value, self.current_map_key_column) {
            (true, Some(col)) => col,
            _ => STEP * base,
        };
        let body_column = parent_column + STEP;
        let content = v.trim_end_matches('\n');
        let trailing_nl = v.len() - content.len();
        // An indentation indicator when the first line starts with spaces, which a
        // reader would otherwise take for indentation.
        let indicator = scalar::first_line_leading_spaces(content) > 0;
        match block {
            Block::Literal => {
                self.out.push('|');
                if indicator {
                    self.out.push('2');
                }
                match trailing_nl {
                    0 => self.out.push('-'),
                    1 if !content.is_empty() => {}
                    _ => self.out.push('+'),
                }
                self.newline();
                if content.is_empty() {
                    for _ in 0..trailing_nl {
                        self.newline();
                    }
                } else {
                    for line in content.split('\n') {
                        if !line.is_empty() {
                            push_spaces(&mut self.out, body_column);
                            self.out.push_str(line);
                        }
                        self.newline();
                    }
                    for _ in 1..trailing_nl {
                        self.newline();
                    }
                }
            }
            Block::Folded => {
                self.out.push('>');
                if indicator {
                    self.out.push('2');
                }
                match trailing_nl {
                    0 => self.out.push('-'),
                    1 => {}
                    _ => self.out.push('+'),
                }
                self.newline();
                scalar::push_folded_block(&mut self.out, v, body_column, FOLD_WIDTH);
                self.at_line_start = true;
            }
        }
    }

    /// `serialize_none` and `serialize_unit`.
    fn null(&mut self) {
        self.space_if_pending();
        self.last_value_was_block = false;
        self.indent(0);
        self.out.push_str("null");
        self.scalar_end();
    }

    /// `serialize_seq` in block style.
    fn seq(&mut self) -> SeqWriter<'_> {
        let was_inline_value = !self.at_line_start;
        if self.pending_space && self.last_value_was_block {
            self.pending_space = false;
            if !self.at_line_start {
                self.newline();
            }
            self.last_value_was_block = false;
        }
        // A sequence right after a dash starts on the dash's line: `- - 1`.
        let after_dash =
            !self.at_line_start && self.after_dash_depth.is_some() && !self.pending_space;
        let base = if after_dash {
            self.after_dash_depth.unwrap_or(0)
        } else if was_inline_value && self.current_map_depth.is_some() {
            self.current_map_depth.unwrap_or(0)
        } else {
            0
        };
        // Compact: a sequence under a key has its dashes at the key's column; one after a dash
        // or a variant's label at the root goes one step in.
        let depth = if after_dash || (was_inline_value && self.current_map_depth.is_none()) {
            base + 1
        } else {
            base
        };
        SeqWriter {
            w: self,
            depth,
            first: true,
        }
    }

    /// `serialize_map` in block style.
    fn map(&mut self, len: Option<usize>) -> MapWriter<'_> {
        let inline_first = self.pending_inline_map;
        let was_inline_value = self.pending_space;
        let mut forced_newline = false;
        if was_inline_value && self.last_value_was_block {
            self.pending_space = false;
            if !self.at_line_start {
                self.newline();
            }
            forced_newline = true;
            self.last_value_was_block = false;
        }
        if inline_first {
            self.pending_inline_map = false;
        } else if was_inline_value && matches!(len, Some(n) if n > 0) {
            // A mapping known not to be empty starts on the next line; an empty one (or one of
            // unknown length, until its first key) stays on the key's line for `key: {}`.
            self.pending_space = false;
            if !self.at_line_start {
                self.newline();
            }
        }
        let base = if inline_first {
            self.after_dash_depth.unwrap_or(0)
        } else if was_inline_value && self.current_map_depth.is_some() {
            self.current_map_depth.unwrap_or(0)
        } else {
            0
        };
        let depth = if inline_first || was_inline_value {
            base + 1
        } else {
            base
        };
        let inline_value_start =
            was_inline_value && len.is_none() && !inline_first && !forced_newline;
        MapWriter {
            w: self,
            depth,
            align_after_dash: inline_first,
            inline_value_start,
            entries: 0,
        }
    }

    /// The `Variant:` line of a tuple or struct variant, and the depth of its contents.
    fn variant_label(&mut self, variant: &'static str) -> Result<usize> {
        if self.pending_space {
            // As a mapping value: the label goes on the next line, under the key.
            self.pending_space = false;
            if !self.at_line_start {
                self.newline();
            }
            let base = self.current_map_depth.unwrap_or(0) + 1;
            self.indent(base);
            self.static_key(variant)?;
            self.out.push_str(":\n");
            self.at_line_start = true;
            self.pending_inline_map = false;
            return Ok(base + 1);
        }
        self.indent(0);
        self.static_key(variant)?;
        self.out.push_str(":\n");
        self.at_line_start = true;
        let mut depth = 1;
        if let Some(d) = self.after_dash_depth.take() {
            // After `- `: the contents are deeper than the label, two columns past the dash.
            depth = d + 2;
            self.pending_inline_map = false;
        }
        Ok(depth)
    }
}

/// serde-saphyr's `SeqSer` in block style.
struct SeqWriter<'a> {
    w: &'a mut Writer,
    depth: usize,
    first: bool,
}

impl SeqWriter<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result {
        let w = &mut *self.w;
        if self.first && w.pending_space {
            // A non-empty sequence as a mapping value starts on the next line.
            w.pending_space = false;
            if !w.at_line_start {
                w.newline();
            }
            w.pending_inline_map = false;
        }
        if !(self.first && (!w.at_line_start || w.pending_inline_map)) {
            w.indent(self.depth);
        }
        w.out.push_str("- ");
        w.at_line_start = false;
        w.after_dash_depth = Some(self.depth);
        w.pending_inline_map = true;
        w.last_value_was_block = false;
        v.serialize(&mut *w)?;
        self.first = false;
        Ok(())
    }

    fn finish(self) -> Result {
        let w = self.w;
        if self.first {
            if w.pending_space {
                w.out.push(' ');
                w.pending_space = false;
            } else {
                w.indent(self.depth);
            }
            w.out.push_str("[]");
            w.newline();
        } else {
            w.last_value_was_block = true;
            w.pending_inline_map = false;
            w.after_dash_depth = None;
        }
        Ok(())
    }
}

impl ser::SerializeSeq for SeqWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result {
        self.element(v)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> Result {
        self.element(v)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result {
        self.element(v)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> Result {
        self.element(v)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

/// serde-saphyr's `MapSer` in block style.
struct MapWriter<'a> {
    w: &'a mut Writer,
    depth: usize,
    /// The mapping was opened after `- `: its first key is on the dash's line, the others
    /// two columns past the dash.
    align_after_dash: bool,
    /// A mapping of unknown length as a value waits for its first key to leave the key's line.
    inline_value_start: bool,
    entries: usize,
}

impl MapWriter<'_> {
    /// What comes before a key: the line break of a mapping that was waiting on its key's
    /// line, the indentation.
    fn before_key(&mut self) {
        let w = &mut *self.w;
        if std::mem::take(&mut self.inline_value_start) {
            w.pending_space = false;
            if !w.at_line_start {
                w.newline();
            }
        } else if !w.at_line_start {
            w.space_if_pending();
        }
        w.after_dash_depth = None;
        w.pending_inline_map = false;
        w.last_value_was_block = false;
        // `write_simple_key`; with two-space steps the aligned column is the depth's.
        w.indent(self.depth);
    }

    /// After a key: its colon, the space left for a scalar value.
    fn after_key(&mut self) {
        self.w.out.push(':');
        self.w.pending_space = true;
        self.w.at_line_start = false;
    }

    fn key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result {
        self.before_key();
        self.w.key(key)?;
        self.after_key();
        Ok(())
    }

    fn field_key(&mut self, key: &'static str) -> Result {
        self.before_key();
        self.w.static_key(key)?;
        self.after_key();
        Ok(())
    }

    fn value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        let w = &mut *self.w;
        let saved_inline_map = w.pending_inline_map;
        let prev_map_depth = w.current_map_depth.replace(self.depth);
        let key_column = self.align_after_dash.then_some(STEP * self.depth);
        let prev_key_column = std::mem::replace(&mut w.current_map_key_column, key_column);
        value.serialize(&mut *w)?;
        w.current_map_depth = prev_map_depth;
        w.current_map_key_column = prev_key_column;
        w.pending_inline_map = saved_inline_map;
        self.entries += 1;
        Ok(())
    }

    fn finish(self) -> Result {
        let w = self.w;
        if self.entries == 0 {
            if w.pending_space {
                w.out.push(' ');
                w.pending_space = false;
            }
            w.indent(self.depth);
            w.out.push_str("{}");
            w.newline();
        } else {
            w.last_value_was_block = true;
        }
        Ok(())
    }
}

impl ser::SerializeMap for MapWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_key<K: ?Sized + Serialize>(&mut self, key: &K) -> Result {
        self.key(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.value(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

impl ser::SerializeStruct for MapWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.field_key(key)?;
        self.value(value)
    }
    fn end(self) -> Result {
        self.finish()
    }
}

/// serde-saphyr's `StructVariantSer`: the fields under a `Variant:` line.
struct VariantWriter<'a> {
    w: &'a mut Writer,
    depth: usize,
    fields_written: bool,
}

impl ser::SerializeStructVariant for VariantWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        let w = &mut *self.w;
        // Unlike a mapping's keys, these do not clear the dash and block-sibling flags.
        w.indent(self.depth);
        w.static_key(key)?;
        w.out.push(':');
        w.pending_space = true;
        w.at_line_start = false;
        let prev_map_depth = w.current_map_depth.replace(self.depth);
        let prev_key_column = w.current_map_key_column.take();
        value.serialize(&mut *w)?;
        w.current_map_depth = prev_map_depth;
        w.current_map_key_column = prev_key_column;
        self.fields_written = true;
        Ok(())
    }
    fn end(self) -> Result {
        if !self.fields_written {
            self.w.indent(self.depth);
            self.w.out.push_str("{}");
            self.w.newline();
        }
        Ok(())
    }
}

/// serde-saphyr recognises wrapper types (anchors, tags, comments, flow and string styles) by
/// these struct names; none of them is reproduced here.
fn is_saphyr_wrapper(name: &str) -> bool {
    name.starts_with("__yaml")
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Unhandled;
    type SerializeSeq = SeqWriter<'a>;
    type SerializeTuple = SeqWriter<'a>;
    type SerializeTupleStruct = SeqWriter<'a>;
    type SerializeTupleVariant = SeqWriter<'a>;
    type SerializeMap = MapWriter<'a>;
    type SerializeStruct = MapWriter<'a>;
    type SerializeStructVariant = VariantWriter<'a>;

    fn serialize_bool(self, v: bool) -> Result {
        self.scalar_start();
        self.out.push_str(if v { "true" } else { "false" });
        self.scalar_end();
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.scalar_start();
        push_i64(&mut self.out, v);
        self.scalar_end();
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.scalar_start();
        self.out.push_str(&v.to_string());
        self.scalar_end();
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.scalar_start();
        push_u64(&mut self.out, v);
        self.scalar_end();
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.scalar_start();
        self.out.push_str(&v.to_string());
        self.scalar_end();
        Ok(())
    }
    /// serde-saphyr formats floats with the `zmij` crate, which pbem does not depend on.
    fn serialize_f32(self, _v: f32) -> Result {
        Err(Unhandled)
    }
    fn serialize_f64(self, _v: f64) -> Result {
        Err(Unhandled)
    }
    fn serialize_char(self, v: char) -> Result {
        // serde-saphyr writes the pending space first, so a `char` value never takes a
        // mapping value's block-scalar indentation.
        self.space_if_pending();
        self.string(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        self.string(v);
        Ok(())
    }
    /// serde-saphyr writes bytes as a sequence of numbers or as base64 with a `!!binary` tag,
    /// depending on the position; pbem writes none.
    fn serialize_bytes(self, _v: &[u8]) -> Result {
        Err(Unhandled)
    }
    fn serialize_none(self) -> Result {
        self.null();
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.null();
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.null();
        Ok(())
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Result {
        self.space_if_pending();
        self.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result {
        if is_saphyr_wrapper(name) {
            return Err(Unhandled);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        if self.pending_space {
            // As a mapping value: `Variant:` on the next line, under the key.
            self.pending_space = false;
            if !self.at_line_start {
                self.newline();
            }
            let depth = self.current_map_depth.unwrap_or(0) + 1;
            self.indent(depth);
            self.static_key(variant)?;
            self.out.push(':');
            self.pending_space = true;
            self.at_line_start = false;
            self.pending_inline_map = false;
            let prev_map_depth = self.current_map_depth.replace(depth);
            let prev_key_column = self.current_map_key_column.take();
            value.serialize(&mut *self)?;
            self.current_map_depth = prev_map_depth;
            self.current_map_key_column = prev_key_column;
            return Ok(());
        }
        self.indent(0);
        self.static_key(variant)?;
        self.out.push(':');
        self.pending_space = true;
        self.at_line_start = false;
        self.pending_inline_map = false;
        match self.after_dash_depth.take() {
            Some(d) => {
                // `- Variant: value`: the value belongs to the label, two columns past the dash.
                let prev_map_depth = self.current_map_depth.replace(d + 1);
                let prev_key_column = self.current_map_key_column.replace(STEP * d + 2);
                value.serialize(&mut *self)?;
                self.current_map_depth = prev_map_depth;
                self.current_map_key_column = prev_key_column;
                Ok(())
            }
            None => value.serialize(self),
        }
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqWriter<'a>> {
        Ok(self.seq())
    }
    fn serialize_tuple(self, _len: usize) -> Result<SeqWriter<'a>> {
        Ok(self.seq())
    }
    fn serialize_tuple_struct(self, name: &'static str, _len: usize) -> Result<SeqWriter<'a>> {
        if is_saphyr_wrapper(name) {
            return Err(Unhandled);
        }
        Ok(self.seq())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<SeqWriter<'a>> {
        let depth = self.variant_label(variant)?;
        Ok(SeqWriter {
            w: self,
            depth,
            first: true,
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapWriter<'a>> {
        Ok(self.map(len))
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapWriter<'a>> {
        Ok(self.map(Some(len)))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<VariantWriter<'a>> {
        let depth = self.variant_label(variant)?;
        Ok(VariantWriter {
            w: self,
            depth,
            fields_written: false,
        })
    }
}

/// serde-saphyr's `KeyScalarSink`: a mapping key, which must be a scalar.
struct KeyWriter<'a>(&'a mut String);

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Unhandled;
    type SerializeSeq = Impossible<(), Unhandled>;
    type SerializeTuple = Impossible<(), Unhandled>;
    type SerializeTupleStruct = Impossible<(), Unhandled>;
    type SerializeTupleVariant = Impossible<(), Unhandled>;
    type SerializeMap = Impossible<(), Unhandled>;
    type SerializeStruct = Impossible<(), Unhandled>;
    type SerializeStructVariant = Impossible<(), Unhandled>;

    fn serialize_bool(self, v: bool) -> Result {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result {
        push_i64(self.0, v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result {
        push_u64(self.0, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.0.push_str(&v.to_string());
        Ok(())
    }
    fn serialize_f32(self, _v: f32) -> Result {
        Err(Unhandled)
    }
    fn serialize_f64(self, _v: f64) -> Result {
        Err(Unhandled)
    }
    fn serialize_char(self, v: char) -> Result {
        self.serialize_str(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_str(self, v: &str) -> Result {
        scalar::push_key(v, self.0);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result {
        Err(Unhandled)
    }
    fn serialize_none(self) -> Result {
        self.0.push_str("null");
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> Result {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.0.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Result {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result {
        if is_saphyr_wrapper(name) {
            return Err(Unhandled);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(Unhandled)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Unhandled)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(Unhandled)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Unhandled)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Unhandled)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Unhandled)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(Unhandled)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Unhandled)
    }
}
