//! The coverage table of docs/dougram.md stays true: every numbered rule of the Dougram rulebook
//! (every leaf of its numbering, 1.1 to 28.2.3; the book numbers two rules 3.3, cited as 3.3a
//! for control with card 29 and 3.3b for the timing whose leaves are 3.3.1-3.3.3) has a row,
//! and every test the table names exists.

mod common;
use common::coverage::*;

const DOC: &str = "docs/dougram.md";

/// The leaf rule numbers of the rulebook (seeds/001), in book order.
const RULES: &str = "1.1 1.2 1.3 2.1 2.2 2.3 2.4 2.5 2.6 2.7 2.8 2.9 2.10 2.11 2.12 2.13 2.14 \
2.15 3.1 3.2 3.3a 3.3.1 3.3.2 3.3.3 3.4 4.1 4.2 5.1 5.2 5.3 5.4 5.5.1 5.5.2 5.5.3 5.6 5.7 6.1 \
6.2 6.3.1 6.3.2 6.3.3 6.4 6.5 6.6 6.7 6.8 6.9 6.10 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 7.9 7.10 \
7.11 8.1 8.2 8.3 8.4.1 8.4.2 8.4.3 8.5 8.6 9.1 9.2 9.3 9.4 9.5 9.6 10.1 10.2 10.3 10.4 10.5 \
10.6 10.7 10.8 11.1 11.2 11.3 11.4 11.5 11.6 11.7 11.8 11.9 12.1 12.2 12.3 12.4 12.5 12.6 12.7 \
12.8 12.9 12.10 13.1 13.2 13.3 13.4 13.5 14.1 14.2 14.3 14.4 14.5 15.1 15.2 15.3 15.4 15.5 \
15.6 16.1 16.2 16.3 16.4 16.5 17.1 17.2 17.3 17.4 17.5 17.6 17.7 17.8 18.1 18.2 18.3 18.4 18.5 \
19.1 19.2 19.3 19.4 19.5 19.6 19.7 19.8 20.1 20.2 20.3.1 20.3.2 21.1 21.2 21.3.1 21.3.2 22.1 \
22.2 22.3 22.4 22.5 22.6 22.7 22.8 22.9 22.10 23.1 24.1 24.2 24.3 24.4 25.1 26.1 27.1 28.1.1 \
28.1.2.1 28.1.2.2 28.1.3 28.2.1 28.2.2.1 28.2.2.2 28.2.2.3 28.2.3";

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
