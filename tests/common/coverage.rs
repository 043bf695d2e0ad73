//! Reading a system's rule coverage table (`## Rule coverage` in docs/<system>.md) and the
//! functions the crate defines, for the coverage tests.

use std::collections::BTreeSet;

/// Rows of the table under the heading "## Rule coverage": (rule, code cell, tests cell).
pub fn table(doc_path: &str) -> Vec<(String, String, String)> {
    let doc = std::fs::read_to_string(doc_path).expect("the system's doc exists");
    let section = doc
        .split("## Rule coverage")
        .nth(1)
        .expect("the doc has a '## Rule coverage' section");
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

/// The rules the table "Rules no simulated game reached" of the doc's `## Simulated play`
/// section lists (its first column, comma-separated rule numbers per row); panics unless each
/// is a row of the coverage table.
pub fn unreached_in_simulation(doc_path: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(doc_path).expect("the system's doc exists");
    let section = doc
        .split("## Simulated play")
        .nth(1)
        .expect("the doc has a '## Simulated play' section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let table = section
        .split("Rules no simulated game reached")
        .nth(1)
        .expect("the section lists the rules no simulated game reached");
    let listed: Vec<String> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter(|l| !l.starts_with("| Rule") && !l.starts_with("|---"))
        .flat_map(|l| {
            let first = l.trim_matches('|').split('|').next().unwrap_or("");
            first
                .split(',')
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    let rows: Vec<String> = self::table(doc_path).into_iter().map(|r| r.0).collect();
    for rule in &listed {
        assert!(
            rows.contains(rule),
            "{doc_path}: {rule} is listed as unreached but is not a row of the coverage table"
        );
    }
    listed
}

/// Every `fn name` in the crate's sources and tests.
pub fn defined_functions() -> BTreeSet<String> {
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

/// Every rule in `rules` (whitespace-separated) has a row in the table of `doc`.
pub fn assert_every_rule_has_a_row(doc: &str, rules: &str) {
    let rows: BTreeSet<String> = table(doc).into_iter().map(|(r, _, _)| r).collect();
    let missing: Vec<&str> = rules
        .split_whitespace()
        .filter(|r| !rows.contains(*r))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a row in {doc}: {missing:?}"
    );
}

/// Every row names code, and a test in backticks or `none: <why>`.
pub fn assert_every_row_names_code_and_a_test(doc: &str) {
    for (rule, code, tests) in table(doc) {
        assert!(!code.is_empty(), "rule {rule}: no code cell");
        let has_test = tests.contains('`');
        let says_why = tests.starts_with("none:");
        assert!(
            has_test || says_why,
            "rule {rule}: name a test in backticks, or write 'none: <why>'"
        );
    }
}

/// Every test the table names is a function in src/ or tests/.
pub fn assert_every_named_test_exists(doc: &str) {
    let fns = defined_functions();
    for (rule, _, tests) in table(doc) {
        for name in tests.split('`').skip(1).step_by(2) {
            assert!(
                fns.contains(name),
                "rule {rule}: the table names `{name}`, which is not a function in src/ or tests/"
            );
        }
    }
}
