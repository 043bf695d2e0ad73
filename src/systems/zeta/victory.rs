//! Victory (37): VP at the end of each turn (37.1), sudden death (37.2), the end after the
//! last turn (37.3) with a tie shared.

use super::ctx::Ctx;
use super::data::{PerSide, Side};
use super::state::Ending;
use crate::kit::reach::fire;
use crate::kit::seats::Seat;

/// The last turn of the game (37.3).
pub const LAST_TURN: u8 = 10;

/// The margin of a sudden-death victory over the other two together (37.2).
pub const SUDDEN_DEATH_MARGIN: i32 = 10;

/// 37.1-37.3 at the end of `turn`: records each faction's VP and gives the ending, if the game
/// ends.
pub fn end_of_turn(ctx: &mut Ctx<'_>, turn: u8) -> Option<Ending> {
    // 37.1: the VP of the bases each faction governs, at their current levels (A-86: neutral
    // and destroyed bases none).
    fire("37.1");
    let vp = ctx.state.base_vp();
    for (side, v) in vp.iter() {
        ctx.state.sides[side].vp = *v;
    }
    ctx.state.vp_history.push(vp.clone());
    let listing = vp
        .iter()
        .map(|(s, v)| format!("{s} {v}"))
        .collect::<Vec<_>>()
        .join(", ");
    ctx.log
        .public(format!("turn {turn} ends: VP {listing} (37.1)"));
    let ending = judge(&vp, turn);
    if let Some(e) = &ending {
        fire(if e.rule == "37.2" { "37.2" } else { "37.3" });
        let names = e
            .winners
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(" and ");
        let how = match (e.rule.as_str(), e.winners.len()) {
            ("37.2", _) => format!(
                "{names} wins by sudden death: {SUDDEN_DEATH_MARGIN} VP or more above the other \
                 two together (37.2)"
            ),
            (_, 1) => format!("{names} wins with the most VP after turn {turn} (37.3)"),
            _ => format!(
                "{names} share the victory, tied for the most VP after turn {turn} (37.3, A-85)"
            ),
        };
        ctx.log.public(how);
    }
    ending
}

/// The ending these VP give at the end of `turn`, if any.
pub fn judge(vp: &PerSide<i32>, turn: u8) -> Option<Ending> {
    let total: i32 = vp.iter().map(|(_, v)| *v).sum();
    // 37.2: own VP at least the other two's sum plus the margin (at most one faction can).
    if let Some(side) = Side::ALL
        .iter()
        .copied()
        .find(|s| vp[*s] >= total - vp[*s] + SUDDEN_DEATH_MARGIN)
    {
        return Some(Ending {
            winners: vec![side],
            rule: "37.2".into(),
            turn,
        });
    }
    if turn < LAST_TURN {
        return None;
    }
    // 37.3: the most VP; a tie is shared.
    let best = vp.iter().map(|(_, v)| *v).max()?;
    Some(Ending {
        winners: Side::ALL
            .iter()
            .copied()
            .filter(|s| vp[*s] == best)
            .collect(),
        rule: "37.3".into(),
        turn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vp(t: i32, a: i32, n: i32) -> PerSide<i32> {
        PerSide::from_fn(|s| match s {
            Side::Titans => t,
            Side::Aeug => a,
            Side::NeoZeon => n,
        })
    }

    #[test]
    fn ten_above_the_other_two_together_is_a_sudden_death_37_2() {
        let e = judge(&vp(30, 12, 8), 3).unwrap();
        assert_eq!(
            (e.winners, e.rule.as_str(), e.turn),
            (vec![Side::Titans], "37.2", 3)
        );
        assert_eq!(judge(&vp(29, 12, 8), 3), None);
        let e = judge(&vp(2, 20, 8), 1).unwrap();
        assert_eq!(e.winners, vec![Side::Aeug]);
    }

    #[test]
    fn after_turn_ten_the_most_vp_wins_37_3() {
        assert_eq!(judge(&vp(21, 18, 8), 9), None);
        let e = judge(&vp(21, 18, 8), 10).unwrap();
        assert_eq!((e.winners, e.rule.as_str()), (vec![Side::Titans], "37.3"));
    }

    #[test]
    fn a_tie_after_turn_ten_is_shared_a_85() {
        let e = judge(&vp(15, 15, 8), 10).unwrap();
        assert_eq!(e.winners, vec![Side::Titans, Side::Aeug]);
    }
}

#[cfg(test)]
#[path = "victory_rules_tests.rs"]
mod rules_tests;
