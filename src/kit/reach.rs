//! Rule reach: which rules of the book the resolver applied, counted where they apply.
//!
//! A rule's code calls [`fire`] with its number when it takes effect (a retreat is made, a card
//! is played, a victory condition ends the game). Outside a [`recording`] this costs one
//! thread-local check and records nothing, so real steps pay nothing for it. `pbem simulate`
//! records each game and reports, for every leaf rule of the system's coverage table, in how
//! many games it fired ([`leaf_rules`] reads the table).

use std::cell::RefCell;
use std::collections::BTreeSet;

thread_local! {
    static FIRED: RefCell<Option<BTreeSet<&'static str>>> = const { RefCell::new(None) };
}

/// Notes that rule `rule` (e.g. "9.11.8") was applied, if a recording is running.
pub fn fire(rule: &'static str) {
    FIRED.with_borrow_mut(|f| {
        if let Some(set) = f {
            set.insert(rule);
        }
    });
}

/// Whether a [`recording`] is running on this thread: code that works out only which rules
/// to [`fire`] (and changes nothing) can skip that work when none is.
pub fn is_recording() -> bool {
    FIRED.with_borrow(|f| f.is_some())
}

/// Runs `f`, returning what it gave and every rule fired meanwhile on this thread. Recordings
/// do not nest: an inner one takes over and the outer one restarts empty after it.
pub fn recording<T>(f: impl FnOnce() -> T) -> (T, BTreeSet<&'static str>) {
    FIRED.with_borrow_mut(|s| *s = Some(BTreeSet::new()));
    let out = f();
    let fired = FIRED.with_borrow_mut(|s| s.take()).unwrap_or_default();
    (out, fired)
}

/// The leaf rules of a coverage table in Markdown (the `## Rule coverage` section of
/// docs/<system>.md): the first cell of each row whose first cell is a rule number (digits and
/// dots), in table order. Rows whose test cell starts with `none:` have no behaviour (an
/// introduction, a definition) and are left out: nothing can fire them.
pub fn leaf_rules(doc: &str) -> Vec<String> {
    let Some(start) = doc.find("## Rule coverage") else {
        return Vec::new();
    };
    let section = &doc[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |i| i + 3);
    section[..end]
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // "| rule | code | tests |" splits into ["", rule, code, tests, ""].
            let rule = *cells.get(1)?;
            let tests = *cells.get(3)?;
            let numbered = !rule.is_empty()
                && rule.chars().all(|c| c.is_ascii_digit() || c == '.')
                && rule.starts_with(|c: char| c.is_ascii_digit());
            (numbered && !tests.starts_with("none:")).then(|| rule.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_outside_a_recording_records_nothing() {
        fire("1.1");
        let ((), fired) = recording(|| {});
        assert!(fired.is_empty());
    }

    #[test]
    fn a_recording_holds_each_rule_fired_once() {
        let ((), fired) = recording(|| {
            fire("9.11.8");
            fire("4.3.2");
            fire("9.11.8");
        });
        assert_eq!(fired.into_iter().collect::<Vec<_>>(), ["4.3.2", "9.11.8"]);
    }

    #[test]
    fn leaf_rules_are_the_numbered_rows_with_behaviour_of_the_coverage_section() {
        let doc = "# x\n| 1.1 | a | b |\n## Rule coverage\n\n| Rule | Code | Tests |\n|---|---|---|\n\
                   | 1.1 | mod.rs | none: an introduction |\n| 2.1.1 | a.rs | `t_2_1_1` |\n\
                   | A3 | b.rs | `t` |\n| 2.2 | c.rs | `t_2_2` |\n## Next\n| 3.1 | d | `t` |\n";
        assert_eq!(leaf_rules(doc), ["2.1.1", "2.2"]);
    }
}
