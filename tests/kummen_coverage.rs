//! The coverage table of docs/kummen.md stays true: every numbered rule of the Kummen rulebook
//! (every leaf of its numbering, 1.1 to 15.7) has a row, and every test the table names exists.

use std::collections::BTreeSet;

/// The leaf rule numbers of the rulebook (seeds/000: rules 1 to 15), in book order.
const RULES: &str = "1.1 1.2 1.3 2.1.1 2.1.2 2.1.3 2.1.4 2.2.1 2.2.2 2.2.3 2.2.4 2.2.5 2.2.6 2.2.7 \
2.2.8 2.2.9 2.2.10 2.2.11 2.2.12 2.3.1 2.3.2 2.3.3 3.1 4.1 4.2 4.3.1 4.3.2 4.3.3 4.3.4 4.3.5 \
4.4.1 4.4.2 4.4.3 4.4.4 4.5.1 4.5.2 4.5.3 4.5.4 5.1 5.2 5.3 5.4 5.5 5.6 5.7 5.8 5.9.1 5.9.2 \
5.9.3 5.10.1 5.10.2 5.11.1 5.11.2 5.11.3 5.11.4 5.11.5 6.1 6.2 6.3 7.1 7.2.1 7.2.2 7.2.3 7.2.4 \
7.3.1 7.3.2 7.3.3 7.3.4 7.3.5 7.3.6 8.1 8.2 8.3 8.4 8.5 9.1 9.2 9.3 9.4 9.5 9.6 9.7 9.8.1 9.8.2 \
9.8.3 9.8.4 9.8.5 9.8.6 9.9.1 9.9.2 9.9.3 9.9.4 9.10.1 9.10.2 9.10.3 9.10.4 9.11.1 9.11.2 \
9.11.3 9.11.4 9.11.5 9.11.6 9.11.7 9.11.8 9.11.9 9.11.10 9.11.11 9.11.12 9.12.1 9.12.2 9.12.3 \
9.12.4 9.13.1 9.13.2 9.13.3 9.13.4 10.1 10.2 10.3 10.4 11.1 11.2 11.3 11.4 12.1 12.2 12.3 12.4 \
12.5 12.6 12.7 12.8 12.9 12.10 12.11 12.12 13.1 13.2 13.3 14.1.1 14.1.2 14.2.1 14.2.2 14.2.3 \
14.2.4 14.2.5 15.1 15.2 15.3 15.4 15.5 15.6 15.7";

/// Rows of the table under the heading "## Rule coverage": (rule, code cell, tests cell).
fn table() -> Vec<(String, String, String)> {
    let doc = std::fs::read_to_string("docs/kummen.md").expect("docs/kummen.md exists");
    let section = doc
        .split("## Rule coverage")
        .nth(1)
        .expect("docs/kummen.md has a '## Rule coverage' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("| Rule") && !l.starts_with("|---"))
        .map(|l| {
            let cells: Vec<String> = l
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect();
            (
                cells[0].clone(),
                cells.get(1).cloned().unwrap_or_default(),
                cells.get(2).cloned().unwrap_or_default(),
            )
        })
        .collect()
}

/// Every `fn name` in the crate's sources and tests.
fn defined_functions() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![
        std::path::PathBuf::from("src"),
        std::path::PathBuf::from("tests"),
    ];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                for part in text.split("fn ").skip(1) {
                    let name: String = part
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn every_rule_of_the_book_has_a_row() {
    let rows: BTreeSet<String> = table().into_iter().map(|(r, _, _)| r).collect();
    let missing: Vec<&str> = RULES
        .split_whitespace()
        .filter(|r| !rows.contains(*r))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a row in docs/kummen.md: {missing:?}"
    );
}

#[test]
fn every_row_names_code_and_a_test_or_says_why_not() {
    for (rule, code, tests) in table() {
        assert!(!code.is_empty(), "rule {rule}: no code cell");
        let has_test = tests.contains('`');
        let says_why = tests.starts_with("none:");
        assert!(
            has_test || says_why,
            "rule {rule}: name a test in backticks, or write 'none: <why>'"
        );
    }
}

#[test]
fn every_test_the_table_names_exists() {
    let fns = defined_functions();
    for (rule, _, tests) in table() {
        for name in tests.split('`').skip(1).step_by(2) {
            assert!(
                fns.contains(name),
                "rule {rule}: the table names `{name}`, which is not a function in src/ or tests/"
            );
        }
    }
}
