//! The decline step (28.2, 28.3, 28.5) on the real setup (38): what the check counts.

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::deploy::fixture::{state, unit};
use crate::systems::zeta::state::State;

/// Side 1 (a political base) Titans' at level 2, its hex emptied, with `units` (id, side,
/// type) there.
fn side_1_with(units: &[(&str, Side, &str)]) -> (State, Loc) {
    let mut st = state();
    let hex = st.data.base_hex("side_1").unwrap();
    st.units.retain(|_, u| u.place != Place::Hex(hex));
    let b = st.bases.get_mut("side_1").unwrap();
    b.governor = Some(Side::Titans);
    b.level = 2;
    for (id, side, t) in units {
        unit(&mut st, id, *side, t, &hex.label());
    }
    (st, hex)
}

/// The public lines of the decline after a combat in `hex`.
fn decline_lines(st: State, hex: Loc) -> (Vec<String>, Dice) {
    let mut d = Dice::new(Hash32([7; 32]), Hash32([0x5a; 32]));
    let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
    decline(&mut c, hex, "x");
    let lines = c.log.into_lines().0;
    (lines, d)
}

fn government_counted(lines: &[String]) -> Option<u32> {
    let l = lines.iter().find(|l| l.contains("against government "))?;
    l.split("against government ")
        .nth(1)?
        .split(',')
        .next()?
        .parse()
        .ok()
}

#[test]
fn rule_28_3_every_ship_and_ms_in_the_hex_counts_whoever_it_belongs_to() {
    // Argama 2 (AEUG), Hizack 1 (Titans, the governor's own), GM II 1 carried by the Argama.
    let (mut st, hex) = side_1_with(&[
        ("a-argama-9", Side::Aeug, "argama"),
        ("t-hizack-9", Side::Titans, "hizack"),
        ("a-gm2-9", Side::Aeug, "gm2"),
    ]);
    st.units.get_mut("a-gm2-9").unwrap().carrier = Some("a-argama-9".into());
    let (lines, _) = decline_lines(st, hex);
    assert_eq!(government_counted(&lines), Some(4), "{lines:?}");
}

#[test]
fn rule_28_5_characters_add_nothing_to_the_decline() {
    let (mut st, hex) = side_1_with(&[("a-argama-9", Side::Aeug, "argama")]);
    // Blex has government 2 of his own: ignored here.
    st.chars.get_mut("blex").unwrap().place = CharPlace::Aboard("a-argama-9".into());
    st.chars.get_mut("jamitov").unwrap().place = CharPlace::Solo(hex);
    let (lines, _) = decline_lines(st, hex);
    assert_eq!(government_counted(&lines), Some(2), "{lines:?}");
}

#[test]
fn rule_28_2_the_decline_is_judged_for_the_combats_hex_alone() {
    let (mut st, hex) = side_1_with(&[("a-argama-9", Side::Aeug, "argama")]);
    // Another political base governed elsewhere, and units next door: neither counts.
    let other = st.data.base_hex("side_2").unwrap();
    let b = st.bases.get_mut("side_2").unwrap();
    b.governor = Some(Side::Titans);
    b.level = 2;
    unit(&mut st, "a-argama-8", Side::Aeug, "argama", &other.label());
    let (lines, d) = decline_lines(st, hex);
    assert_eq!(government_counted(&lines), Some(2), "{lines:?}");
    let rolled: Vec<String> = d
        .transcript()
        .public
        .iter()
        .map(|r| r.label.clone())
        .collect();
    assert_eq!(rolled, vec!["x/decline/side_1".to_string()]);
}
