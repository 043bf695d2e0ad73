//! The fast reader: what it reads (checked against serde-saphyr through the visitor logs of
//! [`super::check`]), what it gives up on, and property tests that write generated values with
//! pbem's writer and read them back with both readers.

use super::check::{read_logged, saphyr_logged};
use super::{GiveUp, parse};
use crate::yaml::encode;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The fast reader reads `text` into `T` and hands the type what serde-saphyr hands it.
fn reads<T: DeserializeOwned>(text: &str) -> T {
    let Some((value, ours)) = read_logged::<T>(text) else {
        panic!("the fast reader gave up on {text:?}");
    };
    let theirs = saphyr_logged::<T>(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(ours, theirs, "{text:?}");
    value
}

/// The fast reader gives up on `text` for `T`.
fn gives_up<T: DeserializeOwned>(text: &str) {
    assert!(read_logged::<T>(text).is_none(), "read {text:?}");
}

/// The fast reader gives up on `text` whatever the type: the layout is outside its subset.
fn layout_gives_up(text: &str) {
    assert_eq!(parse(text).err(), Some(GiveUp), "parsed {text:?}");
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
struct Unit {
    name: String,
    at: Vec<u32>,
    hits: Option<u8>,
    side: Side,
    order: Option<Order>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, Copy, PartialOrd, Ord, Eq)]
#[serde(rename_all = "snake_case")]
enum Side {
    Red,
    Blue,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Order {
    Wait,
    Flip(String),
    Move { to: Vec<i64>, fast: bool },
    Pair(u8, String),
}

fn unit(name: &str, order: Option<Order>) -> Unit {
    Unit {
        name: name.into(),
        at: vec![3, 14],
        hits: None,
        side: Side::Blue,
        order,
    }
}

#[test]
fn reads_what_the_writer_writes() {
    let units = vec![
        unit("A", None),
        unit("true", Some(Order::Wait)),
        unit("12", Some(Order::Flip("0x1F".into()))),
        unit(
            "x: y",
            Some(Order::Move {
                to: vec![-1, 0, 7],
                fast: true,
            }),
        ),
        unit("multi\nline\n", Some(Order::Pair(3, "null".into()))),
        unit(
            "",
            Some(Order::Move {
                to: vec![],
                fast: false,
            }),
        ),
    ];
    let text = encode(&units).unwrap();
    assert_eq!(reads::<Vec<Unit>>(&text), units);
    let map: BTreeMap<Side, Vec<Unit>> = BTreeMap::from([(Side::Red, units.clone())]);
    assert_eq!(
        reads::<BTreeMap<Side, Vec<Unit>>>(&encode(&map).unwrap()),
        map
    );
    let by_number: BTreeMap<u32, Unit> = BTreeMap::from([(7, units[3].clone())]);
    let text = encode(&by_number).unwrap();
    assert_eq!(reads::<BTreeMap<u32, Unit>>(&text), by_number);
}

#[test]
fn untyped_values_read_as_serde_saphyr_reads_them() {
    let text = "a: 1\nb: -2\nc: true\nd: null\ne: x\nf: '-'\ng: \"12\"\nh: []\ni: {}\n";
    let v = reads::<serde_json::Value>(text);
    assert_eq!(v["a"], 1);
    assert_eq!(v["g"], "12");
}

#[test]
fn block_scalars_read_as_serde_saphyr_reads_them() {
    for s in [
        "a\nb\n",
        "a\nb",
        "a\n\nb\n\n\n",
        "  lead\nb\n",
        "\n\n",
        "\n",
        "\nx",
        &"word ".repeat(40),
        &format!("{}  {}", "w".repeat(79), "z".repeat(10)),
    ] {
        for text in [
            encode(&s).unwrap(),
            encode(&BTreeMap::from([("k", s)])).unwrap(),
            encode(&vec![s, s]).unwrap(),
            encode(&vec![BTreeMap::from([("k", s), ("l", s)])]).unwrap(),
            encode(&Order::Flip(s.into())).unwrap(),
            encode(&vec![Order::Flip(s.into())]).unwrap(),
        ] {
            // A block scalar at the root gives up (its indentation is not the writer's
            // business); the others are read.
            if text.starts_with(['|', '>']) {
                gives_up::<String>(&text);
                continue;
            }
            let _ = read_logged::<serde_json::Value>(&text);
            let _ = reads::<serde_json::Value>(&text);
        }
    }
}

#[test]
fn a_string_written_plain_that_reads_as_something_else_gives_up() {
    // In a text field serde-saphyr gives `12`, `true` and `null` as text or refuses them;
    // the writer quotes such strings, so the fast reader does not take them.
    for v in [
        "12", "true", "null", "-3", "yes", "~", "0x1F", "1.5", "012", "+1", "1_000",
    ] {
        gives_up::<BTreeMap<String, String>>(&format!("k: {v}\n"));
    }
    gives_up::<BTreeMap<String, u32>>("k: '12'\n");
    gives_up::<BTreeMap<String, u32>>("k: \"12\"\n");
    gives_up::<BTreeMap<String, bool>>("k: \"true\"\n");
    gives_up::<BTreeMap<String, f64>>("k: 1\n");
    gives_up::<BTreeMap<String, char>>("k: c\n");
    gives_up::<BTreeMap<String, u8>>("k: 300\n");
    gives_up::<BTreeMap<String, u32>>("k: -1\n");
}

#[test]
fn what_is_not_the_writers_layout_gives_up() {
    for text in [
        "",
        "k: v",
        "k:\tv\n",
        "k: v\r\n",
        "k: v # comment\n",
        "# comment\nk: v\n",
        "k: v\n\nl: w\n",
        "k: v\n  \n",
        "---\nk: v\n",
        "k: v\n...\n",
        "%YAML 1.2\n---\nk: v\n",
        "k: !!str v\n",
        "k: !t v\n",
        "k: &a v\nl: *a\n",
        "<<: {a: 1}\n",
        "k: [a, b]\n",
        "k: {a: 1}\n",
        "[a]\n",
        "? k\n: v\n",
        "k: v\nk: w\n",
        "k: v\n\"k\": w\n",
        "k:  v\n",
        "k:\n",
        "k:\nl: v\n",
        "- \n",
        "-\n  a\n",
        "k: a\n  b\n",
        "- a\n  b\n",
        "k:\n  - a\n  l: b\n",
        "k:\n   a: 1\n  b: 2\n",
        "k: \"a\n  b\"\n",
        "k: 'a\n  b'\n",
        "k: \"\\q\"\n",
        "k: \"\\uD800\"\n",
        "k: >\n  folded\n",
        "k: |\n    too deep\n",
        "k: |\n  a\n   \n",
        "k: \u{85}\n",
        "k: a\u{2028}b\n",
        "\u{feff}k: v\n",
        "k: v\u{1}\n",
        " k: v\n",
        "k: -\n",
        "k: .\n",
        "k: a: b\n",
        "k: yes\n",
    ] {
        layout_gives_up(text);
    }
}

#[test]
fn a_signature_at_the_end_is_skipped_and_other_comments_give_up() {
    let text = "k: v\nl:\n- 1\n# -----BEGIN SSH SIGNATURE-----\n# U1NI: x\n#\n";
    let v = reads::<BTreeMap<String, serde_json::Value>>(text);
    assert_eq!(v["k"], "v");
    let block = "k: |\n  a\n# sig\n";
    assert_eq!(reads::<BTreeMap<String, String>>(block)["k"], "a\n");
    layout_gives_up("# only a comment\n");
    layout_gives_up("# c\nk: v\n");
    layout_gives_up("k: v\n  # c\n");
    layout_gives_up("k: v\n# c\nl: w\n");
}

#[test]
fn deep_nesting_gives_up() {
    let mut text = String::new();
    for d in 0..60 {
        text.push_str(&" ".repeat(2 * d));
        text.push_str("k:\n");
    }
    text.push_str(&" ".repeat(120));
    text.push_str("k: v\n");
    layout_gives_up(&text);
    let seqs = format!("{}x\n", "- ".repeat(60));
    layout_gives_up(&seqs);
    let ok = format!("{}x\n", "- ".repeat(10));
    let _ = reads::<serde_json::Value>(&ok);
}

#[test]
fn unknown_and_missing_fields_give_up_and_serde_saphyr_reports_them() {
    gives_up::<Unit>("name: a\nat: []\nhits: null\nside: red\norder: null\nextra: 1\n");
    gives_up::<Unit>("name: a\n");
    let r = crate::yaml::parse::<Unit>("name: a\nnmae: b\n", "u.yaml").unwrap_err();
    assert!(r.message.contains("nmae"), "{r}");
    assert_eq!(r.line, Some(2));
}

#[test]
fn skipped_values_are_still_checked() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Loose {
        a: u32,
    }
    assert_eq!(reads::<Loose>("a: 1\nb:\n  c:\n  - x\n").a, 1);
    layout_gives_up("a: 1\nb: c: d\n");
}

/// Strings with the characters that decide quoting and block styles.
fn tricky_string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("a".to_string()),
        Just("word".to_string()),
        Just(" ".to_string()),
        Just("  ".to_string()),
        Just("\n".to_string()),
        Just(":".to_string()),
        Just(": ".to_string()),
        Just("#".to_string()),
        Just(" #".to_string()),
        Just("-".to_string()),
        Just("- ".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just("[]".to_string()),
        Just("{".to_string()),
        Just(",".to_string()),
        Just("&".to_string()),
        Just("*".to_string()),
        Just("!".to_string()),
        Just("|".to_string()),
        Just(">".to_string()),
        Just("?".to_string()),
        Just("%".to_string()),
        Just("@".to_string()),
        Just("---".to_string()),
        Just("...".to_string()),
        Just("12".to_string()),
        Just("0x1F".to_string()),
        Just("1.5".to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("~".to_string()),
        Just("yes".to_string()),
        Just("\t".to_string()),
        Just("\r".to_string()),
        Just("\u{85}".to_string()),
        Just("\u{2028}".to_string()),
        Just("\u{feff}".to_string()),
        Just("\u{1}".to_string()),
        Just("é".to_string()),
        Just("漢字".to_string()),
        Just("x".repeat(45)),
        Just("word ".repeat(12)),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(deny_unknown_fields)]
struct Record {
    text: String,
    texts: Vec<String>,
    maybe: Option<String>,
    n: i64,
    by_name: BTreeMap<String, u32>,
    by_number: BTreeMap<u64, String>,
    orders: Vec<Order>,
    nested: Vec<Vec<String>>,
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        Just(Order::Wait),
        tricky_string().prop_map(Order::Flip),
        (prop::collection::vec(any::<i64>(), 0..3), any::<bool>())
            .prop_map(|(to, fast)| Order::Move { to, fast }),
        (any::<u8>(), tricky_string()).prop_map(|(n, s)| Order::Pair(n, s)),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        tricky_string(),
        prop::collection::vec(tricky_string(), 0..3),
        prop::option::of(tricky_string()),
        any::<i64>(),
        prop::collection::btree_map(tricky_string(), any::<u32>(), 0..3),
        prop::collection::btree_map(any::<u64>(), tricky_string(), 0..3),
        prop::collection::vec(order(), 0..3),
        prop::collection::vec(prop::collection::vec(tricky_string(), 0..3), 0..3),
    )
        .prop_map(
            |(text, texts, maybe, n, by_name, by_number, orders, nested)| Record {
                text,
                texts,
                maybe,
                n,
                by_name,
                by_number,
                orders,
                nested,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A string written by pbem's writer at the root, as a value, as a key, in a sequence and
    /// in a mapping after a dash reads back as itself, as serde-saphyr reads it.
    #[test]
    fn any_string_written_reads_back(s in tricky_string()) {
        let docs = [
            encode(&BTreeMap::from([("k", s.as_str())])).unwrap(),
            encode(&BTreeMap::from([(s.as_str(), 1)])).unwrap(),
            encode(&vec![s.as_str(), s.as_str()]).unwrap(),
            encode(&vec![BTreeMap::from([("k", s.as_str()), ("l", s.as_str())])]).unwrap(),
        ];
        if let Some((v, ours)) = read_logged::<BTreeMap<String, String>>(&docs[0]) {
            prop_assert_eq!(&v["k"], &s);
            prop_assert_eq!(Ok(ours), saphyr_logged::<BTreeMap<String, String>>(&docs[0]));
        }
        if let Some((v, ours)) = read_logged::<BTreeMap<String, u32>>(&docs[1]) {
            prop_assert_eq!(v.get(&s), Some(&1));
            prop_assert_eq!(Ok(ours), saphyr_logged::<BTreeMap<String, u32>>(&docs[1]));
        }
        if let Some((v, ours)) = read_logged::<Vec<String>>(&docs[2]) {
            prop_assert_eq!(&v[1], &s);
            prop_assert_eq!(Ok(ours), saphyr_logged::<Vec<String>>(&docs[2]));
        }
        type Maps = Vec<BTreeMap<String, String>>;
        if let Some((v, ours)) = read_logged::<Maps>(&docs[3]) {
            prop_assert_eq!(&v[0]["l"], &s);
            prop_assert_eq!(Ok(ours), saphyr_logged::<Maps>(&docs[3]));
        }
        for d in &docs {
            if let Some((_, ours)) = read_logged::<serde_json::Value>(d) {
                prop_assert_eq!(Ok(ours), saphyr_logged::<serde_json::Value>(d));
            }
        }
    }

    /// Records of every shape the writer gives read back as themselves; typed and untyped,
    /// the fast reader hands the types what serde-saphyr hands them.
    #[test]
    fn any_record_written_reads_back(r in prop::collection::vec(record(), 1..3)) {
        let text = encode(&r).unwrap();
        if let Some((v, ours)) = read_logged::<Vec<Record>>(&text) {
            prop_assert_eq!(&v, &r);
            prop_assert_eq!(Ok(ours), saphyr_logged::<Vec<Record>>(&text));
        }
        if let Some((_, ours)) = read_logged::<serde_json::Value>(&text) {
            prop_assert_eq!(Ok(ours), saphyr_logged::<serde_json::Value>(&text));
        }
    }

    /// Arbitrary lines never panic the reader, and what it accepts serde-saphyr reads alike.
    #[test]
    fn any_text_is_read_alike_or_given_up(
        lines in prop::collection::vec((0usize..6, tricky_string()), 0..6)
    ) {
        let text: String = lines
            .iter()
            .map(|(indent, s)| format!("{}{}\n", " ".repeat(*indent), s))
            .collect();
        if let Some((_, ours)) = read_logged::<serde_json::Value>(&text) {
            prop_assert_eq!(Ok(ours), saphyr_logged::<serde_json::Value>(&text));
        }
    }
}

#[test]
fn plain_records_are_read_by_the_fast_reader() {
    // Records of ordinary text must not all give up: the fast path has to be taken.
    let r = Record {
        text: "Blue moves A to B08".into(),
        texts: vec!["x".into(), "a long line ".repeat(10)],
        maybe: Some("multi\nline".into()),
        n: -5,
        by_name: BTreeMap::from([("a b".into(), 1)]),
        by_number: BTreeMap::from([(58, "bonar".into())]),
        orders: vec![
            Order::Wait,
            Order::Move {
                to: vec![1],
                fast: true,
            },
        ],
        nested: vec![vec![], vec!["y".into()]],
    };
    let text = encode(&vec![r.clone()]).unwrap();
    assert_eq!(reads::<Vec<Record>>(&text), vec![r]);
}
