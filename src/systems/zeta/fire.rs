//! Fire (21-24): dice against a face's values, whole volleys of one camp, and the bombardment
//! occurrence check (24.1-24.2.5, A-49). The functions that score dice are pure, so the rules'
//! numbers are tested on given dice; [`volley`] is the only one that rolls.

use super::ctx::Ctx;
use super::data::Side;
use crate::kit::seats::Seat;

/// The values a military base fires AA with (22.6: like a ship's "2.1").
pub const BASE_AA: [u8; 2] = [2, 1];
/// The values a military base bombards with (24.7: like a ship's "3.1").
pub const BASE_BOMBARD: [u8; 2] = [3, 1];

/// Hits one die scores against `values`: one for every value the die does not exceed (21.5,
/// 22.4, 23.4). With two values this is also 24.5's rule: at or under both, 2 hits; under
/// one, 1.
pub fn die_hits(die: u32, values: &[u8]) -> u32 {
    let n = values.iter().filter(|v| die <= u32::from(**v)).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Hits of several dice against the same values.
pub fn dice_hits(dice: &[u32], values: &[u8]) -> u32 {
    dice.iter()
        .map(|d| die_hits(*d, values))
        .fold(0u32, u32::saturating_add)
}

/// Six times the hits one die is expected to score against `values` (integers only: the
/// policies compare these, 24.1 `if_stronger`, 20.3 `if_air_favourable`).
pub fn expected6(values: &[u8]) -> u32 {
    values.iter().map(|v| u32::from((*v).min(6))).sum()
}

/// One firer of a volley: a unit or a base, its owner, how many dice, against which values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gun {
    /// A unit id or a base id (for the label and the report).
    pub who: String,
    pub side: Side,
    pub dice: u32,
    pub values: Vec<u8>,
}

impl Gun {
    /// Six times the hits this gun is expected to score.
    pub fn expected6(&self) -> u32 {
        self.dice.saturating_mul(expected6(&self.values))
    }
}

/// "1 hit", "2 hits": what a volley scored, as the report and the dice say it.
pub fn hits_text(hits: u32) -> String {
    if hits == 1 {
        "1 hit".into()
    } else {
        format!("{hits} hits")
    }
}

/// Rolls every gun under `<prefix>/<gun side>/<gun>` and returns the camp's pooled hits
/// (21.7, 22.7, 23.6, 24.9). Each gun's roll is one public line. Without dice (a `check`
/// simulation) nothing is rolled and nothing scores.
pub fn volley(ctx: &mut Ctx<'_>, prefix: &str, guns: &[Gun]) -> u32 {
    let mut total = 0u32;
    for g in guns {
        if g.dice == 0 {
            continue;
        }
        let label = super::labels::under(prefix, &[g.side.name(), &g.who]);
        let Some(dice) = ctx.dice.as_deref_mut() else {
            return 0;
        };
        let rolled = dice.roll(&label, usize::try_from(g.dice).unwrap_or(0), 6);
        let hits = dice_hits(&rolled, &g.values);
        dice.set_result(&label, hits_text(hits));
        let shown: Vec<String> = rolled.iter().map(|d| d.to_string()).collect();
        let values: Vec<String> = g.values.iter().map(|v| v.to_string()).collect();
        ctx.log.public(format!(
            "{} {} rolls {} against {}: {}",
            g.side,
            g.who,
            shown.join(" "),
            values.join("·"),
            hits_text(hits)
        ));
        total = total.saturating_add(hits);
    }
    total
}

/// What the bombardment step does (24.1-24.2.5, A-49), per camp (0 attacker, 1 defender).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bombardment {
    pub happens: bool,
    /// 24.2.4: this camp wanted it, the other wished to avoid it, the check made it happen:
    /// the camp's own military base does not fire (it may still be targeted).
    pub base_silent: [bool; 2],
    /// 24.2.5: this camp avoided it in its own military base's hex and the other wanted it:
    /// only the base fires for it and only the base may be targeted.
    pub base_only: [bool; 2],
}

/// Whether the occurrence check is needed: exactly one camp wants the bombardment (24.2).
pub fn needs_check(wish: [bool; 2]) -> bool {
    wish[0] != wish[1]
}

/// The bombardment step's shape from the two wishes, the check's winner (`None` for a tie or
/// no check) and which camps own a military base in the hex. A camp with a base is judged
/// apart (A-49: each base separately).
pub fn bombardment(wish: [bool; 2], winner: Option<usize>, has_base: [bool; 2]) -> Bombardment {
    let mut out = Bombardment::default();
    match wish {
        // 24.1: both want it: it happens in full; neither: nothing.
        [true, true] => out.happens = true,
        [false, false] => {}
        _ => {
            let wanter = if wish[0] { 0 } else { 1 };
            let avoider = 1 - wanter;
            if winner == Some(wanter) {
                // 24.2.2: the camp that wanted it won the check.
                out.happens = true;
                // 24.2.4: forced on an enemy that wished to avoid it: the winner's own base
                // stays silent.
                out.base_silent[wanter] = has_base[wanter];
            } else if has_base[avoider] {
                // 24.2.3 tie or the avoider won, but 24.2.5: avoiding in one's own base hex
                // still leaves the base to fight alone.
                out.happens = true;
                out.base_only[avoider] = true;
            }
        }
    }
    out
}

/// Who wins the occurrence check from the two totals (24.2.2-24.2.3): the higher, none on a
/// tie.
pub fn check_winner(totals: [u32; 2]) -> Option<usize> {
    match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn air_values_4_2_score_two_one_or_none_21_5() {
        // The book's example: 1-2 both, 3-4 one, 5-6 none.
        let v = [4, 2];
        let got: Vec<u32> = (1..=6).map(|d| die_hits(d, &v)).collect();
        assert_eq!(got, vec![2, 2, 1, 1, 0, 0]);
    }

    #[test]
    fn three_air_values_score_up_to_three_21_5() {
        let v = [4, 2, 1];
        let got: Vec<u32> = (1..=6).map(|d| die_hits(d, &v)).collect();
        assert_eq!(got, vec![3, 2, 1, 1, 0, 0]);
    }

    #[test]
    fn aa_values_2_1_score_as_the_book_says_22_4() {
        let got: Vec<u32> = (1..=6).map(|d| die_hits(d, &BASE_AA)).collect();
        assert_eq!(got, vec![2, 1, 0, 0, 0, 0]);
    }

    #[test]
    fn bombard_values_3_1_score_as_the_book_says_24_5() {
        let got: Vec<u32> = (1..=6).map(|d| die_hits(d, &BASE_BOMBARD)).collect();
        assert_eq!(got, vec![2, 1, 1, 0, 0, 0]);
    }

    #[test]
    fn a_volley_pools_every_die_21_7() {
        // A pilot with MS attack 2 rolls three dice (21.6): 1, 3, 6 against 4·2 = 2 + 1 + 0.
        assert_eq!(dice_hits(&[1, 3, 6], &[4, 2]), 3);
        assert_eq!(expected6(&[4, 2]), 6);
    }

    #[test]
    fn bombardment_both_want_is_full_and_neither_is_none_24_1() {
        let full = bombardment([true, true], None, [true, false]);
        assert!(full.happens && full.base_silent == [false; 2] && full.base_only == [false; 2]);
        assert!(!bombardment([false, false], None, [true, true]).happens);
        assert!(!needs_check([true, true]) && needs_check([true, false]));
    }

    // A-49's four rows with the base owner B as camp 1 (the defender) and E as camp 0.
    #[test]
    fn a49_row1_both_want_full_bombardment_with_the_base() {
        let b = bombardment([true, true], None, [false, true]);
        assert_eq!(
            b,
            Bombardment {
                happens: true,
                ..Default::default()
            }
        );
    }

    #[test]
    fn a49_row2_neither_wants_no_bombardment() {
        assert_eq!(
            bombardment([false, false], None, [false, true]),
            Bombardment::default()
        );
    }

    #[test]
    fn a49_row3_owner_wants_enemy_avoids_owner_wins_base_silent_24_2_4() {
        // B wants, E avoids, B wins: it happens, but B's base does not fire.
        let b = bombardment([false, true], Some(1), [false, true]);
        assert!(b.happens);
        assert_eq!(b.base_silent, [false, true]);
        assert_eq!(b.base_only, [false, false]);
        // E wins or a tie: none.
        assert!(!bombardment([false, true], Some(0), [false, true]).happens);
        assert!(!bombardment([false, true], None, [false, true]).happens);
    }

    #[test]
    fn a49_row4_owner_avoids_enemy_wants_24_2_5() {
        // E wins: full bombardment, B's base fires too.
        let full = bombardment([true, false], Some(0), [false, true]);
        assert_eq!(
            full,
            Bombardment {
                happens: true,
                ..Default::default()
            }
        );
        // B wins or a tie: the base alone fights for B.
        for w in [Some(1), None] {
            let b = bombardment([true, false], w, [false, true]);
            assert!(b.happens);
            assert_eq!(b.base_only, [false, true]);
            assert_eq!(b.base_silent, [false, false]);
        }
    }

    #[test]
    fn without_a_base_the_check_winner_decides_24_2_2() {
        assert!(bombardment([true, false], Some(0), [false, false]).happens);
        assert!(!bombardment([true, false], Some(1), [false, false]).happens);
        assert!(!bombardment([true, false], None, [false, false]).happens);
        assert_eq!(check_winner([7, 5]), Some(0));
        assert_eq!(check_winner([4, 5]), Some(1));
        assert_eq!(check_winner([5, 5]), None);
    }
}
