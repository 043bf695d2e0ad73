//! The writer against serde-saphyr: each test states the text expected and checks that
//! serde-saphyr writes the same; the property tests compare both writers on generated strings
//! and nested values.

use super::to_string;
use proptest::prelude::*;
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant};
use serde::ser::{SerializeTupleVariant, Serializer};
use std::collections::BTreeMap;

/// What both writers give for `value`; fails if they differ or if ours gives up.
fn both<T: Serialize>(value: &T) -> String {
    let theirs = serde_saphyr::to_string(value).expect("serde-saphyr writes it");
    let ours = to_string(value).expect("pbem's writer writes it");
    assert_eq!(
        ours, theirs,
        "pbem's writer (left) against serde-saphyr (right)"
    );
    ours
}

#[derive(Serialize)]
struct Unit {
    name: String,
    at: Vec<u32>,
    hits: Option<u8>,
}

fn unit(name: &str, at: Vec<u32>) -> Unit {
    Unit {
        name: name.into(),
        at,
        hits: None,
    }
}

#[test]
fn a_struct_is_a_block_mapping_with_sequences_at_its_key_column() {
    assert_eq!(
        both(&unit("A", vec![1, 2])),
        "name: A\nat:\n- 1\n- 2\nhits: null\n"
    );
}

#[test]
fn a_mapping_in_a_sequence_starts_on_the_dash_line() {
    let units = vec![unit("A", vec![3]), unit("B", vec![])];
    assert_eq!(
        both(&units),
        "- name: A\n  at:\n  - 3\n  hits: null\n- name: B\n  at: []\n  hits: null\n"
    );
}

#[test]
fn a_sequence_in_a_sequence_starts_on_the_dash_line() {
    assert_eq!(
        both(&vec![vec![1, 2], vec![], vec![3]]),
        "- - 1\n  - 2\n- []\n- - 3\n"
    );
}

#[test]
fn nested_mappings_indent_two_spaces_a_level() {
    let mut inner = BTreeMap::new();
    inner.insert("b", BTreeMap::from([("c", 1)]));
    let outer = BTreeMap::from([("a", inner)]);
    assert_eq!(both(&outer), "a:\n  b:\n    c: 1\n");
}

#[test]
fn empty_collections_are_braces_and_brackets_on_the_key_line() {
    #[derive(Serialize)]
    struct Empty {}
    #[derive(Serialize)]
    struct E {
        m: BTreeMap<String, u8>,
        s: Vec<u8>,
        st: Empty,
    }
    let e = E {
        m: BTreeMap::new(),
        s: vec![],
        st: Empty {},
    };
    assert_eq!(both(&e), "m: {}\ns: []\nst: {}\n");
    assert_eq!(both(&Vec::<u8>::new()), "[]\n");
    assert_eq!(both(&BTreeMap::<u8, u8>::new()), "{}\n");
}

#[test]
fn none_and_unit_are_null() {
    assert_eq!(both(&None::<u8>), "null\n");
    assert_eq!(both(&()), "null\n");
    assert_eq!(both(&vec![None, Some(1)]), "- null\n- 1\n");
}

#[test]
fn integers_of_every_width_are_decimal() {
    assert_eq!(
        both(&(i64::MIN, u64::MAX, -1i8, 0u16)),
        "- -9223372036854775808\n- 18446744073709551615\n- -1\n- 0\n"
    );
    assert_eq!(both(&i128::MIN), format!("{}\n", i128::MIN));
    assert_eq!(both(&u128::MAX), format!("{}\n", u128::MAX));
}

#[test]
fn booleans_and_chars_are_plain() {
    assert_eq!(both(&(true, false, 'x')), "- true\n- false\n- x\n");
    assert_eq!(both(&BTreeMap::from([('y', '#')])), "\"y\": '#'\n");
}

#[derive(Serialize)]
enum Order {
    Hold,
    Move(Vec<String>),
    Fire { at: String, dice: Vec<u8> },
    Pair(u8, String),
    Wrapped(Box<Order>),
}

#[test]
fn unit_variants_are_their_names() {
    assert_eq!(both(&Order::Hold), "Hold\n");
    assert_eq!(both(&BTreeMap::from([("o", Order::Hold)])), "o: Hold\n");
}

#[test]
fn newtype_variants_are_one_key_mappings() {
    assert_eq!(
        both(&Order::Move(vec!["B08".into(), "C08".into()])),
        "Move:\n  - B08\n  - C08\n"
    );
    assert_eq!(
        both(&BTreeMap::from([("o", Order::Move(vec!["B08".into()]))])),
        "o:\n  Move:\n  - B08\n"
    );
    assert_eq!(
        both(&vec![Order::Move(vec!["B08".into()])]),
        "- Move:\n  - B08\n"
    );
    assert_eq!(
        both(&vec![Order::Wrapped(Box::new(Order::Hold))]),
        "- Wrapped: Hold\n"
    );
}

#[test]
fn struct_variants_put_their_fields_under_the_variant_name() {
    let fire = || Order::Fire {
        at: "C05".into(),
        dice: vec![3, 4],
    };
    assert_eq!(both(&fire()), "Fire:\n  at: C05\n  dice:\n  - 3\n  - 4\n");
    assert_eq!(
        both(&vec![fire()]),
        "- Fire:\n    at: C05\n    dice:\n    - 3\n    - 4\n"
    );
    assert_eq!(
        both(&BTreeMap::from([("o", fire())])),
        "o:\n  Fire:\n    at: C05\n    dice:\n    - 3\n    - 4\n"
    );
}

#[test]
fn tuple_variants_are_sequences_under_the_variant_name() {
    assert_eq!(both(&Order::Pair(1, "x".into())), "Pair:\n  - 1\n  - x\n");
    assert_eq!(
        both(&vec![Order::Pair(1, "x".into())]),
        "- Pair:\n    - 1\n    - x\n"
    );
}

#[test]
fn an_empty_collection_after_a_block_sibling_in_a_struct_variant_leaves_its_key_line() {
    // serde-saphyr's fields of a struct variant do not reset its "last value was a block"
    // flag, so an empty collection after a non-empty one goes on a line of its own.
    #[derive(Serialize)]
    enum V {
        S { a: Vec<u8>, b: Vec<u8> },
        M { a: Vec<u8>, c: BTreeMap<u8, u8> },
    }
    let s = V::S {
        a: vec![1],
        b: vec![],
    };
    assert_eq!(both(&s), "S:\n  a:\n  - 1\n  b:\n  []\n");
    let m = V::M {
        a: vec![1],
        c: BTreeMap::new(),
    };
    assert_eq!(both(&m), "M:\n  a:\n  - 1\n  c:\n    {}\n");
}

#[test]
fn internally_tagged_enums_and_flattened_maps() {
    #[derive(Serialize)]
    #[serde(tag = "op", rename_all = "snake_case")]
    enum Op {
        Pause { by: String },
        Resume,
    }
    #[derive(Serialize)]
    struct Rec {
        seq: u32,
        #[serde(flatten)]
        rest: BTreeMap<String, u8>,
        ops: Vec<Op>,
    }
    let r = Rec {
        seq: 3,
        rest: BTreeMap::from([("x".into(), 1)]),
        ops: vec![Op::Pause { by: "host".into() }, Op::Resume],
    };
    assert_eq!(
        both(&r),
        "seq: 3\nx: 1\nops:\n- op: pause\n  by: host\n- op: resume\n"
    );
    let empty = BTreeMap::from([(
        "f",
        Rec {
            seq: 1,
            rest: BTreeMap::new(),
            ops: vec![],
        },
    )]);
    assert_eq!(both(&empty), "f:\n  seq: 1\n  ops: []\n");
}

#[test]
fn strings_a_reader_would_take_for_another_type_are_double_quoted() {
    for s in [
        "",
        "~",
        "null",
        "NULL",
        "true",
        "False",
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "n",
        "1",
        "-2",
        "+3",
        "0x1F",
        "0o17",
        "0b101",
        "1e5",
        "1_000",
        "1.5",
        ".5",
        ".inf",
        "-.Inf",
        ".nan",
        "nan",
        "inf",
        "1:30",
        "2026-11-24",
        "2026-11-24T07:30:00Z",
        "<<",
        "=",
    ] {
        assert_eq!(both(&s), format!("\"{s}\"\n"), "{s:?}");
    }
}

#[test]
fn ordinary_strings_are_plain() {
    for s in [
        "C05",
        "titans",
        "a b",
        "-a",
        "?q",
        "a:b",
        "a#b",
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
        "72h",
        "é",
    ] {
        assert_eq!(both(&s), format!("{s}\n"), "{s:?}");
    }
}

#[test]
fn a_dot_a_hash_and_a_dash_alone_are_single_quoted() {
    assert_eq!(both(&vec![".", "#", "-"]), "- '.'\n- '#'\n- '-'\n");
}

#[test]
fn strings_with_indicators_or_edge_spaces_are_double_quoted() {
    for (s, written) in [
        (" a", "\" a\""),
        ("a ", "\"a \""),
        ("- a", "\"- a\""),
        ("a: b", "\"a: b\""),
        ("a:", "\"a:\""),
        ("a #b", "\"a #b\""),
        ("*a", "\"*a\""),
        ("'a'", "\"'a'\""),
        ("\"a\"", "\"\\\"a\\\"\""),
        ("--- a", "\"--- a\""),
        ("...", "\"...\""),
    ] {
        assert_eq!(both(&s), format!("{written}\n"), "{s:?}");
    }
}

#[test]
fn control_characters_are_escaped_in_double_quotes() {
    assert_eq!(both(&"a\tb"), "\"a\\tb\"\n");
    assert_eq!(both(&"a\rb"), "\"a\\rb\"\n");
    assert_eq!(
        both(&"\u{1}\u{7f}\u{85}\u{2028}\u{feff}"),
        "\"\\x01\\x7F\\N\\L\\uFEFF\"\n"
    );
}

#[test]
fn quoted_strings_escape_only_backslashes_quotes_and_controls() {
    assert_eq!(
        both(&"turn 7: a \\ \"b\" \u{e9}\u{1F600}\u{2029}c"),
        "\"turn 7: a \\\\ \\\"b\\\" \u{e9}\u{1F600}\\Pc\"\n"
    );
}

#[test]
fn multi_line_strings_are_literal_block_scalars_with_their_chomping() {
    assert_eq!(both(&"a\nb"), "|-\n  a\n  b\n");
    assert_eq!(both(&"a\nb\n"), "|\n  a\n  b\n");
    assert_eq!(both(&"a\n\nb\n\n"), "|+\n  a\n\n  b\n\n");
    assert_eq!(both(&"\n"), "|+\n\n");
    assert_eq!(both(&"  a\nb"), "|2-\n    a\n  b\n");
    assert_eq!(both(&BTreeMap::from([("k", "a\nb")])), "k: |-\n  a\n  b\n");
    assert_eq!(
        both(&vec![BTreeMap::from([("k", "a\nb")])]),
        "- k: |-\n    a\n    b\n"
    );
    assert_eq!(both(&vec!["a\nb"]), "- |-\n  a\n  b\n");
    // A line break with characters a block scalar cannot hold stays double-quoted.
    assert_eq!(both(&"a\r\nb"), "\"a\\r\\nb\"\n");
}

#[test]
fn long_single_line_strings_are_folded() {
    let long = "word ".repeat(20) + "end";
    let text = both(&BTreeMap::from([("k", long.as_str())]));
    assert!(text.starts_with("k: >-\n  word"), "{text}");
    // A long string that could not be plain is quoted instead.
    let quoted = format!("{long}: x");
    assert!(both(&quoted).starts_with('"'));
}

#[test]
fn keys_follow_the_stricter_key_rules() {
    let m = BTreeMap::from([
        ("a,b", 1),
        ("a:b", 2),
        ("[x]", 3),
        ("-", 4),
        ("1", 5),
        ("plain", 6),
    ]);
    assert_eq!(
        both(&m),
        "\"-\": 4\n\"1\": 5\n\"[x]\": 3\n\"a,b\": 1\n\"a:b\": 2\nplain: 6\n"
    );
    assert_eq!(both(&BTreeMap::from([(7u8, "x")])), "7: x\n");
}

#[test]
fn what_the_writer_does_not_reproduce_is_left_to_serde_saphyr() {
    assert_eq!(to_string(&1.5f64), None);
    assert_eq!(to_string(&vec![0.5f32]), None);
    assert_eq!(to_string(&BTreeMap::from([(vec![1], 2)])), None);
    let long_key = "k".repeat(1025);
    assert_eq!(to_string(&BTreeMap::from([(long_key.as_str(), 1)])), None);
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(b"ab")
        }
    }
    assert_eq!(to_string(&Bytes), None);
    struct Failing;
    impl Serialize for Failing {
        fn serialize<S: Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    assert_eq!(to_string(&Failing), None);
    assert!(crate::yaml::encode(&Failing).unwrap_err().contains("no"));
}

#[test]
fn encode_gives_serde_saphyrs_text_where_the_writer_gives_up() {
    let v = BTreeMap::from([("f", 0.25f64)]);
    assert_eq!(
        crate::yaml::encode(&v).unwrap(),
        serde_saphyr::to_string(&v).unwrap()
    );
}

// ---- Property tests ----

/// Characters that change how a string is written: indicators, spaces, line breaks,
/// controls, digits and the letters of numbers and booleans, non-ASCII and escapes.
const TRICKY: &[char] = &[
    'a', 'b', 'e', 'E', 'n', 'o', 'x', 'y', 'Y', 'N', 'O', 'f', 'i', 'l', 'u', 't', 'r', 's', 'T',
    'Z', '0', '1', '5', '9', ' ', ' ', '\t', '\n', '\n', '\r', ':', '#', '-', '-', '?', '.', '_',
    '+', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '~', '<', '=',
    '\\', '/', '\0', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', 'é', '\u{2028}', '\u{2029}',
    '\u{3000}', '\u{feff}', '\u{fffe}', '\u{ffff}', '字', '😀',
];

/// Whole strings known to matter.
const SPECIAL: &[&str] = &[
    "",
    "~",
    "null",
    "Null",
    "true",
    "yes",
    "no",
    "y",
    "n",
    "on",
    "off",
    "<<",
    "=",
    ".",
    "#",
    "-",
    "?",
    "---",
    "...",
    "--- x",
    "1",
    "-1",
    "1.0",
    "1e3",
    "0x1f",
    "0o7",
    "0b1",
    "1:30",
    "1_0",
    ".inf",
    "-.INF",
    ".NaN",
    "nan",
    "inf",
    "2026-11-24",
    "2026-11-24 07:30:00",
    "2026-11-24T07:30:00.5+01:00",
    "a: b",
    "a:",
    "a #b",
    " a",
    "a ",
    "\n",
    "\n\n",
    "a\n",
    " a\nb",
    "a\n ",
    "\t",
];

fn tricky_string() -> impl Strategy<Value = String> {
    let chars = prop::collection::vec(prop::sample::select(TRICKY), 0..12)
        .prop_map(|cs| cs.into_iter().collect::<String>());
    let special = prop::sample::select(SPECIAL).prop_map(String::from);
    // Long strings with spaces, for folding at 80 characters.
    let long = prop::collection::vec(
        prop::sample::select(&["ab", "cd ", " ", "  ", "é ", "x\t", "\n", ":", "#"][..]),
        30..70,
    )
    .prop_map(|parts| parts.concat());
    let printable = "[ -~]{0,16}";
    prop_oneof![4 => chars, 2 => special, 1 => long, 2 => printable]
}

const NAMES: &[&str] = &["A", "Move", "yes", "x y", "1", "-"];

/// A value of every shape serde gives a serializer, with tricky strings in it.
#[derive(Debug, Clone)]
enum Node {
    Str(String),
    Int(i64),
    Bool(bool),
    Null,
    Seq(Vec<Node>),
    /// A map, of known length or not (as `#[serde(flatten)]` writes it).
    Map(Vec<(String, Node)>, bool),
    Struct(Vec<(usize, Node)>),
    Unit(usize),
    Newtype(usize, Box<Node>),
    Tuple(usize, Vec<Node>),
    Variant(usize, Vec<(usize, Node)>),
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Str(v) => s.serialize_str(v),
            Node::Int(v) => s.serialize_i64(*v),
            Node::Bool(v) => s.serialize_bool(*v),
            Node::Null => s.serialize_none(),
            Node::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Node::Map(entries, known) => {
                let mut map = s.serialize_map(known.then_some(entries.len()))?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Node::Struct(fields) => {
                let mut st = s.serialize_struct("S", fields.len())?;
                for (k, v) in fields {
                    st.serialize_field(NAMES[*k], v)?;
                }
                st.end()
            }
            Node::Unit(n) => s.serialize_unit_variant("E", 0, NAMES[*n]),
            Node::Newtype(n, v) => s.serialize_newtype_variant("E", 0, NAMES[*n], v),
            Node::Tuple(n, items) => {
                let mut t = s.serialize_tuple_variant("E", 0, NAMES[*n], items.len())?;
                for i in items {
                    t.serialize_field(i)?;
                }
                t.end()
            }
            Node::Variant(n, fields) => {
                let mut v = s.serialize_struct_variant("E", 0, NAMES[*n], fields.len())?;
                for (k, f) in fields {
                    v.serialize_field(NAMES[*k], f)?;
                }
                v.end()
            }
        }
    }
}

fn node() -> impl Strategy<Value = Node> {
    let name = 0..NAMES.len();
    let leaf = prop_oneof![
        4 => tricky_string().prop_map(Node::Str),
        1 => any::<i64>().prop_map(Node::Int),
        1 => any::<bool>().prop_map(Node::Bool),
        1 => Just(Node::Null),
        1 => name.clone().prop_map(Node::Unit),
    ];
    leaf.prop_recursive(4, 40, 5, move |inner| {
        let name = 0..NAMES.len();
        let fields = prop::collection::vec((name.clone(), inner.clone()), 0..4);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Node::Seq),
            (
                prop::collection::vec((tricky_string(), inner.clone()), 0..4),
                any::<bool>()
            )
                .prop_map(|(e, known)| Node::Map(e, known)),
            fields.clone().prop_map(Node::Struct),
            (name.clone(), inner.clone()).prop_map(|(n, v)| Node::Newtype(n, Box::new(v))),
            (name.clone(), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(n, v)| Node::Tuple(n, v)),
            (name, fields).prop_map(|(n, f)| Node::Variant(n, f)),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_string_is_written_as_serde_saphyr_writes_it(s in tricky_string()) {
        // At the root, as a value, as a key, in a sequence, in a mapping opened after a dash.
        both(&s);
        both(&BTreeMap::from([("k", s.as_str())]));
        both(&BTreeMap::from([(s.as_str(), 1)]));
        both(&vec![s.as_str(), s.as_str()]);
        both(&vec![BTreeMap::from([("k", s.as_str()), ("l", s.as_str())])]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn any_nested_value_is_written_as_serde_saphyr_writes_it(n in node()) {
        both(&n);
    }
}
