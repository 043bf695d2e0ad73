//! 37.1: the VP count at each turn's end, on the real setup (38).

use super::*;
use crate::systems::zeta::ctx::Moment;
use crate::systems::zeta::deploy::fixture::state;

#[test]
fn rule_37_1_each_turn_ends_with_the_vp_of_the_bases_each_faction_governs() {
    let mut st = state();
    // The setup's bases (stand-in values): Titans 21, AEUG 18, Neo Zeon 8.
    let mut ctx = Ctx::new(st.clone(), None, Moment::Resolve);
    assert_eq!(end_of_turn(&mut ctx, 1), None);
    let vp = |c: &Ctx<'_>| -> Vec<i32> { Side::ALL.iter().map(|s| c.state.sides[*s].vp).collect() };
    assert_eq!(vp(&ctx), vec![21, 18, 8]);
    assert_eq!(ctx.state.vp_history.len(), 1);
    // Granada (AEUG, level 3: 6 VP) turns neutral: it counts for nobody.
    let g = st.bases.get_mut("granada").unwrap();
    g.governor = None;
    g.level = 0;
    let mut ctx = Ctx::new(st, None, Moment::Resolve);
    assert_eq!(end_of_turn(&mut ctx, 2), None);
    assert_eq!(vp(&ctx), vec![21, 12, 8]);
    let lines = ctx.log.into_lines().0;
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("turn 2 ends: VP ") && l.ends_with("(37.1)")),
        "{lines:?}"
    );
}
