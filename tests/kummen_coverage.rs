//! The coverage table of docs/kummen.md stays true: every numbered rule of the Kummen rulebook
//! (every leaf of its numbering, 1.1 to 15.7) has a row, and every test the table names exists.

mod common;
use common::coverage::*;

const DOC: &str = "docs/kummen.md";

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

#[test]
fn every_rule_of_the_book_has_a_row() {
    assert_every_rule_has_a_row(DOC, RULES);
}

#[test]
fn every_row_names_code_and_a_test_or_says_why_not() {
    assert_every_row_names_code_and_a_test(DOC);
}

#[test]
fn every_test_the_table_names_exists() {
    assert_every_named_test_exists(DOC);
}
