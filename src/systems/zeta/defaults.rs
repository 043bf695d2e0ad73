//! The orders a side is given when it missed a step's deadline (plan §1.7, digest §3.7;
//! `Rules::default_orders`). Each is carried out by the rules without a skipped item:
//!
//! - packet: nothing bought (the points lapse, 5.5), nothing deployed by order (waiting
//!   characters are placed by the rules), the cards one of each kind (10.2-10.3), policies and
//!   plans unchanged. Titans' turn-1 nuke base is left out on purpose: the rules draw it
//!   sealed (36.3, `nuke::resolve_nuke_base`), where naming it here would make it follow from
//!   the state, which anyone may rebuild;
//! - phase: no order at all: every acting unit "moves" 0 hexes (12.5), no combat, laser,
//!   speech, Axis attack, colony placement or demolition; what is compulsory still runs;
//! - ask, join: the faction's policy answer with `ask` read as `abstain` (18.9);
//! - ask, checkpoint: nothing, so the acting faction's stored orders run on;
//! - any other side, or the game's end: nothing.

use super::ask;
use super::data::Side;
use super::orders::{CardChoice, Orders};
use super::state::{AskWhy, CardKind, Stage, State};

/// The default orders of `side` at the current step.
pub fn default_orders(state: &State, side: Side) -> Orders {
    match &state.stage {
        Stage::Packet { .. } => Orders {
            cards: Some(CardChoice::Plain(vec![
                CardKind::Space,
                CardKind::Ground,
                CardKind::Atmosphere,
            ])),
            ..Orders::default()
        },
        Stage::Ask {
            who,
            why: AskWhy::Join { .. },
            ..
        } if *who == side => Orders {
            join: ask::default_join(state),
            ..Orders::default()
        },
        _ => Orders::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::seats::Seat;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::policy::JoinAnswer;
    use crate::systems::zeta::{choices::accepted, setup, steps};
    use std::collections::BTreeMap;

    fn start() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    fn all_defaults(st: &State) -> BTreeMap<String, Orders> {
        Side::ALL
            .iter()
            .map(|s| (s.name().to_string(), default_orders(st, *s)))
            .collect()
    }

    /// Plan §1.7: a whole turn of default orders from every side is accepted by `check` at
    /// every step (Titans' turn-1 packet leaves the nuke's base to the sealed draw) and
    /// resolves; the turn ends and the next packet opens.
    #[test]
    fn default_orders_are_accepted_and_play_a_turn() {
        let mut st = start();
        for n in 1..40u64 {
            for side in Side::ALL.iter().copied() {
                let o = default_orders(&st, side);
                let p = accepted(&st, side, &o);
                assert!(p.is_empty(), "{side} at {:?}: {p:?}", st.stage);
            }
            let mut dice = Dice::new(Hash32([n as u8; 32]), Hash32([2; 32])).at_step(n);
            st = steps::resolve(&st, &all_defaults(&st), &mut dice)
                .unwrap()
                .state;
            if st.turn == 2 {
                break;
            }
        }
        assert_eq!(st.stage, Stage::Packet { turn: 2 });
        // 36.3: the missed packet still hid the nuke, sealed.
        assert!(st.nuke.base.is_some());
    }

    /// Plan §1.7: the packet default is one card of each kind, nothing else.
    #[test]
    fn the_packet_default_is_one_card_of_each_kind() {
        let o = default_orders(&start(), Side::Aeug);
        assert_eq!(
            o.cards,
            Some(CardChoice::Plain(vec![
                CardKind::Space,
                CardKind::Ground,
                CardKind::Atmosphere
            ]))
        );
        assert!(o.armament.is_empty() && o.nuke_base.is_none());
    }

    /// Plan §1.7: a phase's default orders nothing (units stay; compulsory items run).
    #[test]
    fn the_phase_default_orders_nothing() {
        let mut st = start();
        st.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: crate::systems::zeta::state::Card {
                side: Side::Aeug,
                kind: CardKind::Space,
                copy: 1,
            },
        };
        assert_eq!(default_orders(&st, Side::Aeug), Orders::default());
    }

    /// Plan §1.7: a join ask's default is the policy's answer, `ask` read as `abstain`.
    #[test]
    fn a_join_default_reads_ask_as_abstain() {
        let mut st = start();
        st.stage = Stage::Ask {
            turn: 1,
            k: 1,
            who: Side::NeoZeon,
            why: AskWhy::Join {
                at: crate::systems::zeta::data::Loc::parse("space:C05").unwrap(),
            },
        };
        st.pending = Some(crate::systems::zeta::state::Pending {
            who: Side::NeoZeon,
            why: AskWhy::Join {
                at: crate::systems::zeta::data::Loc::parse("space:C05").unwrap(),
            },
            cursor: crate::systems::zeta::state::PhaseCursor {
                k: 1,
                card: crate::systems::zeta::state::Card {
                    side: Side::Titans,
                    kind: CardKind::Space,
                    copy: 1,
                },
                slot: crate::systems::zeta::state::Slot::Combats,
                snapshot: Default::default(),
                combats_done: Vec::new(),
                combat_orders_done: 0,
            },
            rest: Default::default(),
        });
        st.policies[Side::NeoZeon].join.default = JoinAnswer::Ask;
        assert_eq!(
            default_orders(&st, Side::NeoZeon).join,
            Some(JoinAnswer::Abstain)
        );
        st.policies[Side::NeoZeon].join.default = JoinAnswer::Defender;
        assert_eq!(
            default_orders(&st, Side::NeoZeon).join,
            Some(JoinAnswer::Defender)
        );
        assert_eq!(default_orders(&st, Side::Aeug), Orders::default());
    }
}
