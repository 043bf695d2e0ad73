//! YAML in and out, and the rejection messages that point into a player's file.
//!
//! Parsing goes through serde-saphyr, which refuses duplicate keys (a signed order must mean one
//! thing) and reports line and column. Semantic checks report a field path such as
//! `orders.actions[2].move.path[3]`; [`located`] turns such paths back into lines and columns
//! in one walk over the parser's events, so every rejection can name where in the file it
//! applies, and a document with many problems costs one walk, not one per problem. Orders are
//! parsed with [`parse_order`], which also refuses what is not plain YAML (see [`plain`]).

mod plain;
mod read;
mod walk;
mod write;

pub use walk::locate_all;

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

/// At most this many problems are listed for one refused input; the rest are counted in one
/// last line. The first few are what a player fixes first, and listing every problem of a
/// hostile document would make the rejection as large as the document.
pub const MAX_REPORTED: usize = 50;

/// One step of a field path: a mapping key or a sequence index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
    /// Non-zero when this entry stands for that many further problems that are not listed
    /// (see [`MAX_REPORTED`]).
    pub omitted: usize,
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
            omitted: 0,
        }
    }

    /// The last line of a capped list: `... and N more problems`.
    pub fn more(file: impl Into<String>, n: usize) -> Rejection {
        let mut r = Rejection::new(
            file,
            format!("... and {n} more problem{}", if n == 1 { "" } else { "s" }),
        );
        r.omitted = n;
        r
    }

    pub fn rule(mut self, rule: impl Into<String>) -> Rejection {
        self.rule = Some(rule.into());
        self
    }

    pub fn accepted(mut self, accepted: impl Into<String>) -> Rejection {
        self.accepted = Some(accepted.into());
        self
    }

    /// Names the field and, when the source text has it, its line and column. This walks the
    /// text once: for many rejections of one document use [`located`], which walks it once for
    /// all of them.
    pub fn at_field(self, source: &str, path: &FieldPath) -> Rejection {
        let found = locate(source, path);
        self.placed(path, found)
    }

    fn placed(mut self, path: &FieldPath, found: Option<(usize, usize)>) -> Rejection {
        if !path.0.is_empty() {
            self.field = Some(path.to_string());
        }
        if let Some((line, col)) = found {
            self.line = Some(line);
            self.column = Some(col);
        }
        self
    }
}

/// Rejections placed at their fields of `source`: the first [`MAX_REPORTED`] are located, all
/// in one walk over the text, and the rest are only counted, in a last `... and N more
/// problems` entry.
pub fn located(
    source: &str,
    items: impl IntoIterator<Item = (Rejection, FieldPath)>,
) -> Vec<Rejection> {
    let mut items = items.into_iter();
    let listed: Vec<(Rejection, FieldPath)> = items.by_ref().take(MAX_REPORTED).collect();
    let more = items.count();
    let paths: Vec<&[Seg]> = listed.iter().map(|(_, p)| p.0.as_slice()).collect();
    let places = locate_all(source, &paths);
    let file = listed.first().map(|(r, _)| r.file.clone());
    let mut out: Vec<Rejection> = listed
        .into_iter()
        .zip(places)
        .map(|((r, path), found)| r.placed(&path, found))
        .collect();
    if let (Some(file), true) = (file, more > 0) {
        out.push(Rejection::more(file, more));
    }
    out
}

/// At most [`MAX_REPORTED`] rejections, then one entry counting the rest (entries that already
/// count omitted problems add theirs).
pub fn capped(rejections: Vec<Rejection>) -> Vec<Rejection> {
    let (total, _) = count(&rejections);
    let mut out: Vec<Rejection> = Vec::new();
    let mut file = None;
    for r in rejections {
        if file.is_none() {
            file = Some(r.file.clone());
        }
        if r.omitted == 0 && out.len() < MAX_REPORTED {
            out.push(r);
        }
    }
    let more = total - out.len();
    if let (Some(file), true) = (file, more > 0) {
        out.push(Rejection::more(file, more));
    }
    out
}

/// (problems in all, problems listed): an entry that counts omitted problems stands for them.
pub fn count(rejections: &[Rejection]) -> (usize, usize) {
    rejections
        .iter()
        .fold((0, 0), |(all, listed), r| match r.omitted {
            0 => (all + 1, listed + 1),
            n => (all + n, listed),
        })
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.omitted > 0 {
            return write!(f, "{}", self.message);
        }
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

/// The serde-saphyr options of every parse. Comments are not emitted (nothing reads them):
/// with comment events on, the parser keeps at most 32 comments in a row while it looks ahead,
/// and refused a dougram skeleton with a long block of choices written as comments. Comments are
/// still scanned and checked; the parser's other limits (depth, number of values, key length)
/// stay, and orders are capped in size (`MAX_ORDER_BYTES`), so the work stays bounded.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        emit_comments: false,
        with_snippet: false,
    }
}

/// Parses a YAML document into `T`, refusing duplicate keys and (where `T` says so) unknown
/// fields, with the file name, line and column of the first problem. For pbem's own files and
/// the game data; orders go through [`parse_order`].
// A rejection is built once per refused input, never on a hot path; its size does not matter.
#[allow(clippy::result_large_err)]
///
/// pbem's own files are read by its own reader ([`read`]) where it can; where it gives up
/// (any text outside the subset pbem writes, any error), serde-saphyr reads the text, so the
/// value and every error are serde-saphyr's. Debug builds read every text the fast reader
/// accepts with serde-saphyr too and panic on a difference.
pub fn parse<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Rejection> {
    if let Some(value) = read::from_str::<T>(text) {
        return Ok(value);
    }
    serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| refused(&e, file))
}

/// Parses an order document into `T` like [`parse`], and refuses every form that is not plain
/// YAML (docs/architecture.md, "Plain YAML"): tags, anchors, aliases, merge keys, directives,
/// and numbers, booleans or nulls not written in their one plain spelling (`'1'`, `0x1`, `+1`,
/// `01`, `yes`, `True`, `~` where the type reads a number, a boolean or a null). Each problem
/// carries its line, column and field; at most [`MAX_REPORTED`] are listed.
///
/// An order pbem's bots or templates wrote is read by the fast reader ([`read`]) when it can:
/// what it accepts holds no form this check refuses (no tags, anchors, aliases, merge keys,
/// directives or second document; numbers, booleans and nulls only in their one plain
/// spelling, and read as such only where the type asks for them), so the answer is the same
/// `Ok`. Every refused order, and every text the fast reader gives up on, takes the full path
/// below, with its lines and columns. Debug builds run that path on every order the fast
/// reader accepts too and panic unless it accepts it.
pub fn parse_order<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Vec<Rejection>> {
    if let Some(value) = read::from_str::<T>(text) {
        #[cfg(debug_assertions)]
        if let Err(rs) = parse_order_checked::<T>(text, file) {
            panic!("pbem's YAML reader accepted an order the plain check refuses: {rs:?}\n{text}");
        }
        return Ok(value);
    }
    parse_order_checked(text, file)
}

/// [`parse_order`] through serde-saphyr and the plain check.
fn parse_order_checked<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, Vec<Rejection>> {
    let rec = plain::Recorder::default();
    let parsed = serde_saphyr::with_deserializer_from_str_with_options(text, options(), |de| {
        T::deserialize(plain::Track::new(de, &rec))
    });
    // When serde refused the text, a form that is not plain is often why (`!!str 1` where a
    // number is wanted, an alias to nothing): those are named first.
    let typed = match &parsed {
        Ok(_) => rec.into_typed(),
        Err(_) => Vec::new(),
    };
    match (parsed, plain::check(text, &typed)) {
        (_, Ok(found)) if !found.listed.is_empty() => Err(unplain(found, file)),
        (Err(e), _) => Err(vec![refused(&e, file)]),
        (Ok(v), Ok(_)) => Ok(v),
        // serde read the text but the walk did not: only a `%` directive does that.
        (Ok(_), Err(w)) => {
            let mut r = Rejection::new(file, w.message);
            (r.line, r.column) = (Some(w.line), Some(w.column));
            if w.directive {
                r.message = "a `%` directive is not accepted in an order".into();
                r.accepted = Some("the order without `%YAML` or `%TAG` lines".into());
            }
            Err(vec![r])
        }
    }
}

fn unplain(found: plain::Found, file: &str) -> Vec<Rejection> {
    let mut out: Vec<Rejection> = found
        .listed
        .into_iter()
        .map(|u| {
            let mut r = Rejection::new(file, u.message).accepted(u.accepted);
            if u.line > 0 {
                (r.line, r.column) = (Some(u.line), Some(u.column));
            }
            if !u.path.is_empty() {
                r.field = Some(FieldPath(u.path).to_string());
            }
            r
        })
        .collect();
    if found.more > 0 {
        out.push(Rejection::more(file, found.more));
    }
    out
}

/// The rejection for a document serde-saphyr refused, with advice when a parser limit was
/// reached: no order pbem writes comes near one, so the player is told to trim the document.
fn refused(e: &serde_saphyr::Error, file: &str) -> Rejection {
    let mut r = Rejection::new(file, first_line(&e.to_string()));
    if let Some(loc) = e.location() {
        r.line = Some(loc.line() as usize);
        r.column = Some(loc.column() as usize);
    }
    if r.message.contains("unknown field") {
        r.accepted = Some("only the fields listed in the template (`pbem template`)".into());
    } else if r.message.contains("duplicate") {
        r.accepted = Some("each key once per mapping".into());
    } else if matches!(e, serde_saphyr::Error::Budget { .. })
        || r.message.contains("recursion limit")
    {
        r.accepted = Some(
            "a document within the parser's limits (at most 64 levels of nesting, 250000 \
             values): an order as `pbem template` writes it is far below them; remove the \
             extra values or nesting"
                .into(),
        );
    }
    r
}

/// The message of a serde-saphyr error without its location, which the rejection carries
/// separately: the first line only (no source snippet), without an `error: ` or
/// `line L column C: ` prefix or an ` at line L, column C` suffix.
fn first_line(s: &str) -> String {
    let mut line = s.lines().next().unwrap_or("").trim();
    line = line.strip_prefix("error: ").unwrap_or(line);
    if line.starts_with("line ")
        && let Some(i) = line.find(": ")
    {
        line = &line[i + 2..];
    }
    if let Some(i) = line.rfind(" at line ")
        && line[i..].contains(", column ")
    {
        line = &line[..i];
    }
    line.to_string()
}

/// The problems a component data file (map, counters, cards) was validated with, located in
/// `text` in one walk (the first [`MAX_REPORTED`] of them) and joined into one message.
pub fn data_problems(
    errs: Vec<(FieldPath, String)>,
    text: &str,
    origin: &str,
) -> Result<(), String> {
    if errs.is_empty() {
        return Ok(());
    }
    let located = located(
        text,
        errs.into_iter()
            .map(|(path, msg)| (Rejection::new(origin, msg), path)),
    );
    Err(located
        .iter()
        .map(Rejection::to_string)
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Serialises `T` as YAML for storage or hashing. Our types hold only maps with ordered keys,
/// so equal values always give equal bytes. A failure is an error, never a placeholder text.
///
/// The bytes are serde-saphyr's (games written before are hashed and signed as it wrote them),
/// written by pbem's own writer ([`write`]), which costs a fraction of serde-saphyr's; what that
/// writer does not reproduce is written by serde-saphyr. Debug builds write every document both
/// ways and panic on any difference, which makes every test a check of the writer.
pub fn encode<T: Serialize>(value: &T) -> Result<String, String> {
    let ours = write::to_string(value);
    #[cfg(debug_assertions)]
    if let Some(text) = &ours {
        let theirs = serde_saphyr::to_string(value).unwrap_or_else(|e| format!("error: {e}"));
        assert!(
            &theirs == text,
            "pbem's YAML writer differs from serde-saphyr\n--- pbem:\n{text}--- serde-saphyr:\n{theirs}"
        );
    }
    match ours {
        Some(text) => Ok(text),
        None => serde_saphyr::to_string(value).map_err(|e| format!("cannot write YAML: {e}")),
    }
}

/// Serialises `T` as YAML for display only (templates, messages): a failure shows as a comment.
pub fn to_string<T: Serialize>(value: &T) -> String {
    encode(value).unwrap_or_else(|e| format!("# {e}\n"))
}

/// Finds the line and column (both 1-based) of the value at `path`; `None` if the path does not
/// occur in the text (for example a field that was left out and took its default).
pub fn locate(text: &str, path: &FieldPath) -> Option<(usize, usize)> {
    locate_all(text, &[path.0.as_slice()])[0]
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
    fn messages_lose_the_location_they_repeat() {
        for m in [
            "invalid u64 at line 6, column 7",
            "error: line 6 column 7: invalid u64",
            "line 6 column 7: invalid u64\n  --> snippet",
        ] {
            assert_eq!(first_line(m), "invalid u64", "{m}");
        }
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

    #[test]
    fn many_rejections_are_located_and_capped_with_a_count() {
        let text: String = (0..120).map(|i| format!("k{i}: {i}\n")).collect();
        let items = (0..120).map(|i| {
            (
                Rejection::new("o.yaml", format!("bad {i}")),
                p(vec![format!("k{i}").as_str().into()]),
            )
        });
        let rs = located(&text, items);
        assert_eq!(rs.len(), MAX_REPORTED + 1);
        assert_eq!((rs[0].line, rs[0].column), (Some(1), Some(5)));
        assert_eq!(
            (rs[49].line, rs[49].field.as_deref()),
            (Some(50), Some("k49"))
        );
        assert_eq!(rs[50].to_string(), "... and 70 more problems");
        assert_eq!(count(&rs), (120, 50));
    }

    #[test]
    fn capping_keeps_the_first_and_adds_up_the_rest() {
        let mut rs: Vec<Rejection> = (0..60)
            .map(|i| Rejection::new("f", format!("{i}")))
            .collect();
        rs.push(Rejection::more("f", 5));
        let capped = capped(rs);
        assert_eq!(capped.len(), MAX_REPORTED + 1);
        assert_eq!(capped[49].message, "49");
        assert_eq!(capped[50].omitted, 15);
        assert_eq!(count(&capped), (65, 50));
    }

    #[test]
    fn long_runs_of_comment_lines_parse() {
        // A dougram skeleton has over 70 comment lines in a row; the parser used to give up
        // after 32 ("too many buffered comments while looking ahead").
        let comments: String = (0..5000).map(|i| format!("  # choice {i}\n")).collect();
        let text = format!("game:\n{comments}  g\n");
        assert_eq!(parse::<Small>(&text, "o").unwrap().game, "g");
        assert_eq!(parse_order::<Small>(&text, "o").unwrap().game, "g");
    }

    #[test]
    fn going_past_a_parser_limit_says_what_to_do() {
        let text = format!("game: {}g{}\n", "[".repeat(300), "]".repeat(300));
        let r = parse::<serde_json::Value>(&text, "o").unwrap_err();
        let accepted = r.accepted.clone().unwrap_or_default();
        assert!(
            accepted.contains("remove the extra values or nesting"),
            "{r:?}"
        );
    }

    /// A type with every kind of scalar an order has: numbers, booleans, options, text, enum
    /// variants, an untagged number-or-name and such names as map keys.
    #[derive(Deserialize, Debug, PartialEq, Default)]
    #[serde(deny_unknown_fields, default)]
    struct Order {
        n: u64,
        neg: i64,
        flag: bool,
        maybe: Option<u32>,
        name: String,
        items: Vec<Item>,
        counts: std::collections::BTreeMap<Ref, u32>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "snake_case", deny_unknown_fields)]
    enum Item {
        Move { to: u32 },
        Flip(String),
        Wait,
    }

    #[derive(Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord)]
    #[serde(untagged)]
    enum Ref {
        Num(u32),
        Name(String),
    }

    fn refused(text: &str) -> Vec<Rejection> {
        match parse_order::<Order>(text, "o.yaml") {
            Ok(o) => panic!("accepted {text:?} as {o:?}"),
            Err(rs) => rs,
        }
    }

    /// The one rejection of `text`, which must be at `line`:`column`, naming `field`.
    fn refused_at(text: &str, line: usize, column: usize, field: &str) -> Rejection {
        let rs = refused(text);
        assert_eq!(rs.len(), 1, "{text:?}: {rs:?}");
        let r = rs.into_iter().next().unwrap();
        assert_eq!(
            (r.line, r.column, r.field.as_deref()),
            (Some(line), Some(column), Some(field)),
            "{text:?}: {r}"
        );
        assert!(r.accepted.is_some(), "{r}");
        r
    }

    #[test]
    fn plain_orders_are_read_as_written() {
        let text = "n: 12\nneg: -3\nflag: false\nmaybe: null\nname: '007'\n\
                    items: [{move: {to: 5}}, {flip: x}, wait]\ncounts: {58: 1, bonar: 0}\n";
        let o = parse_order::<Order>(text, "o").unwrap();
        assert_eq!((o.n, o.neg, o.flag, o.maybe), (12, -3, false, None));
        assert_eq!(o.name, "007");
        assert_eq!(
            o.items,
            [Item::Move { to: 5 }, Item::Flip("x".into()), Item::Wait]
        );
        assert_eq!(o.counts[&Ref::Num(58)], 1);
        assert_eq!(o.counts[&Ref::Name("bonar".into())], 0);
        assert_eq!(parse_order::<Order>("maybe:\n", "o").unwrap().maybe, None);
    }

    #[test]
    fn text_fields_take_any_spelling() {
        // Only the type decides what is a number: in a text field `0x1F` and `yes` are text.
        for (text, name) in [
            ("name: 0x1F", "0x1F"),
            ("name: yes", "yes"),
            ("name: '1'", "1"),
        ] {
            assert_eq!(parse_order::<Order>(text, "o").unwrap().name, name);
        }
    }

    #[test]
    fn a_quoted_number_is_refused() {
        let r = refused_at("flag: true\nn: '12'\n", 2, 4, "n");
        assert!(r.message.contains("'12'"), "{r}");
        refused_at("n: \"12\"\n", 1, 4, "n");
    }

    #[test]
    fn numbers_in_other_bases_or_spellings_are_refused() {
        for spelling in ["0x1", "0o7", "0b1", "+1", "1_000"] {
            let r = refused_at(&format!("n: {spelling}\n"), 1, 4, "n");
            assert!(r.message.contains(spelling), "{r}");
        }
        refused_at("neg: -0\n", 1, 6, "neg");
    }

    #[test]
    fn a_leading_zero_is_refused() {
        let rs = refused("n: 012\n");
        assert_eq!(rs[0].line, Some(1), "{rs:?}");
    }

    #[test]
    fn booleans_are_only_true_or_false() {
        for spelling in ["yes", "on", "True", "TRUE", "'true'"] {
            refused_at(&format!("flag: {spelling}\n"), 1, 7, "flag");
        }
    }

    #[test]
    fn null_is_only_null_or_nothing() {
        for spelling in ["~", "Null", "NULL"] {
            refused_at(&format!("maybe: {spelling}\n"), 1, 8, "maybe");
        }
    }

    #[test]
    fn numbers_inside_variants_and_untagged_values_are_checked() {
        refused_at("items:\n  - move: {to: '5'}\n", 2, 16, "items[0].move.to");
        refused_at("counts: {bonar: 0x1}\n", 1, 17, "counts.bonar");
    }

    #[test]
    fn a_number_key_must_be_plain_too() {
        let r = refused_at("counts: {0x3A: 1}\n", 1, 10, "counts");
        assert!(r.message.contains("key `0x3A`"), "{r}");
    }

    #[test]
    fn tags_are_refused() {
        let r = refused_at("name: !foo x\n", 1, 12, "name");
        assert!(r.message.contains("`!foo`"), "{r}");
        refused_at("n: !!int 1\n", 1, 10, "n");
        refused_at("items: !!seq []\n", 1, 14, "items");
    }

    #[test]
    fn anchors_and_aliases_are_refused() {
        let rs = refused("name: &a x\nitems: [{flip: *a}]\n");
        let what: Vec<_> = rs.iter().map(|r| (r.line, r.field.clone())).collect();
        assert_eq!(
            what,
            [
                (Some(1), Some("name".to_string())),
                (Some(2), Some("items[0].flip".to_string()))
            ],
            "{rs:?}"
        );
        assert!(rs[0].message.contains("anchor") && rs[1].message.contains("alias"));
    }

    #[test]
    fn merge_keys_are_refused() {
        let r = refused_at("counts:\n  <<: {a: 1}\n", 2, 3, "counts");
        assert!(r.message.contains("merge key"), "{r}");
    }

    #[test]
    fn directives_are_refused() {
        let rs = refused("%YAML 1.2\n---\nn: 1\n");
        assert_eq!((rs.len(), rs[0].line), (1, Some(1)), "{rs:?}");
        assert!(rs[0].message.contains("directive"), "{}", rs[0]);
    }

    #[test]
    fn a_second_document_is_refused() {
        let rs = refused("n: 1\n---\nn: 2\n");
        assert_eq!(rs.len(), 1, "{rs:?}");
    }

    #[test]
    fn many_forms_that_are_not_plain_are_capped() {
        let text = format!("items:\n{}", "  - move: {to: '1'}\n".repeat(120));
        let rs = refused(&text);
        assert_eq!(rs.len(), MAX_REPORTED + 1);
        assert_eq!(rs[50].to_string(), "... and 70 more problems");
    }
}
