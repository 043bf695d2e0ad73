//! Every legal item of a side's part of the current step, gathered from the `*_choices`
//! functions next to each `legal_*` (plan §4.6; dougram's `steps::choices`): the template
//! renders them, a bot picks among them (`Choices::orders`, `Rules::choice_items`), so none
//! keeps a copy of a rule.

use super::ask;
use super::combat::CombatOrder;
use super::ctx::{Choice, Ctx, Moment};
use super::data::{BaseId, Loc, Side, UnitId};
use super::orders::{
    ArmItem, AtmoOrder, AxisOrder, CardChoice, DeployChar, DeployUnit, LaserTarget, Orders,
    PhaseOrders, Pre, SpeechOrder, UnitOrder,
};
use super::policy::{JoinAnswer, PolicyPatch};
use super::state::{AskWhy, CardKind, Checkpoint, Stage, State};
use super::steps::checkpoint_slot;
use super::{
    action, arming, atmosphere, axis, cards, colony, combat, deploy, gryps, movement, nuke, orders,
    specials, standing,
};
use crate::kit::seats::Seat;
use crate::yaml::FieldPath;

/// The legal items of one side now, by part (empty parts where the step asks nothing of
/// the side).
#[derive(Debug, Clone, Default)]
pub struct Choices {
    // The packet (plan §4.1).
    pub nuke_base: Vec<Choice<BaseId>>,
    pub armament: Vec<Choice<ArmItem>>,
    /// Productions legal once the same type is augmented earlier in the list (5.3); not
    /// legal alone, so not among [`Choices::orders`].
    pub produce_after_augment: Vec<Choice<ArmItem>>,
    pub deploy_units: Vec<Choice<DeployUnit>>,
    pub deploy_chars: Vec<Choice<DeployChar>>,
    pub cards: Vec<Choice<Vec<CardKind>>>,
    // A phase (plan §4.2), or a checkpoint's `continue` (then `resume` is set).
    pub colony: Vec<Choice<Pre>>,
    /// 36.4: whether `pre: {demolish: true}` is legal now (Titans only).
    pub demolish: bool,
    pub actions: Vec<Choice<UnitOrder>>,
    pub moves: Vec<Choice<UnitOrder>>,
    pub atmospheric: Vec<Choice<AtmoOrder>>,
    pub lvr_repair: Vec<Choice<UnitId>>,
    /// 35.6: where the side's colony may move this phase.
    pub colony_moves: Vec<Choice<Loc>>,
    pub axis: Vec<Choice<AxisOrder>>,
    pub combats: Vec<Choice<CombatOrder>>,
    pub laser: Vec<Choice<LaserTarget>>,
    pub speech: Vec<Choice<BaseId>>,
    pub checkpoints: Vec<Checkpoint>,
    /// The phase items above are for a checkpoint's `continue` (plan §4.3).
    pub resume: bool,
    // An 18.9 ask (plan §4.3).
    pub join: Vec<Choice<JoinAnswer>>,
    /// Any step (plan §4.5).
    pub policies: Vec<PolicyPatch>,
}

/// The legal items of `side`'s part of the current step.
pub fn choices(state: &State, side: Side) -> Choices {
    let mut c = Choices {
        policies: standing::policy_choices(side),
        ..Choices::default()
    };
    match &state.stage {
        Stage::Packet { .. } => {
            let ctx = Ctx::new(state.clone(), None, Moment::Check);
            c.nuke_base = nuke::nuke_choices(&ctx, side);
            c.armament = arming::armament_choices(&ctx, side);
            c.produce_after_augment = arming::produce_after_augment_choices(&ctx, side);
            c.deploy_units = deploy::deploy_unit_choices(&ctx, side);
            c.deploy_chars = deploy::char_place_choices(&ctx, side);
            c.cards = cards::card_choices(&ctx, side);
        }
        Stage::Phase { card, .. } if card.side == side => {
            let ctx = Ctx::new(state.clone(), None, Moment::Check);
            phase(&ctx, side, &mut c, Checkpoint::None);
        }
        Stage::Ask { who, why, turn, k } if *who == side => match why {
            AskWhy::Join { .. } => c.join = ask::join_choices(state, side),
            AskWhy::Checkpoint(cp) => {
                // The phase's lists from the checkpoint's slot on, judged as the phase step
                // would judge them at this point.
                let Some(p) = &state.pending else {
                    return c;
                };
                let mut st = state.clone();
                st.stage = Stage::Phase {
                    turn: *turn,
                    k: *k,
                    card: p.cursor.card,
                };
                let ctx = Ctx::new(st, None, Moment::Check);
                phase(&ctx, side, &mut c, *cp);
                c.resume = true;
            }
        },
        _ => {}
    }
    c
}

/// The lists of a phase whose slots before the checkpoint `from` are passed (`None`: the
/// whole phase).
fn phase(ctx: &Ctx<'_>, side: Side, c: &mut Choices, from: Checkpoint) {
    let to_come = |cp: Checkpoint| checkpoint_slot(from) <= checkpoint_slot(cp);
    if from == Checkpoint::None {
        c.colony = colony::colony_choices(ctx, side);
        c.demolish =
            side == Side::Titans && nuke::legal_demolish(ctx, side, &FieldPath::root()).is_ok();
    }
    if to_come(Checkpoint::AfterPre) {
        c.actions = action::action_choices(ctx, side);
        c.moves = movement::move_choices(ctx, side);
        c.atmospheric = atmosphere::atmospheric_choices(ctx, side);
        c.lvr_repair = specials::lvr_repair_choices(ctx, side);
        c.colony_moves = colony::colony_move_choices(ctx, side);
        c.axis = axis::axis_choices(ctx, side);
    }
    if to_come(Checkpoint::BeforeCombat) {
        c.combats = combat::combat_choices(ctx, side);
    }
    c.laser = gryps::laser_choices(ctx, side);
    c.speech = specials::speech_choices(ctx, side);
    c.checkpoints = [
        Checkpoint::AfterPre,
        Checkpoint::BeforeCombat,
        Checkpoint::BeforeLaser,
    ]
    .into_iter()
    .filter(|cp| checkpoint_slot(from) < checkpoint_slot(*cp))
    .collect();
}

impl Choices {
    /// Each legal item as orders holding that one item (`Rules::choice_items`), each of
    /// which `check` accepts alone.
    pub fn orders(&self) -> Vec<Orders> {
        let mut out = Vec::new();
        for b in &self.nuke_base {
            out.push(Orders {
                nuke_base: Some(b.item.clone()),
                ..Orders::default()
            });
        }
        for a in &self.armament {
            out.push(Orders {
                armament: vec![a.item.clone()],
                ..Orders::default()
            });
        }
        for d in &self.deploy_chars {
            let mut o = Orders::default();
            o.deployment.characters.push(d.item.clone());
            out.push(o);
        }
        for k in &self.cards {
            out.push(Orders {
                cards: Some(CardChoice::Plain(k.item.clone())),
                ..Orders::default()
            });
        }
        let mut bodies: Vec<PhaseOrders> = Vec::new();
        let one = |f: &dyn Fn(&mut PhaseOrders)| {
            let mut b = PhaseOrders::default();
            f(&mut b);
            b
        };
        for p in &self.colony {
            bodies.push(one(&|b| b.pre = p.item.clone()));
        }
        if self.demolish {
            bodies.push(one(&|b| b.pre.demolish = true));
        }
        for u in self.actions.iter().chain(&self.moves) {
            bodies.push(one(&|b| b.units = vec![u.item.clone()]));
        }
        for a in &self.atmospheric {
            bodies.push(one(&|b| b.atmospheric = vec![a.item.clone()]));
        }
        for m in &self.colony_moves {
            bodies.push(one(&|b| b.colony_move = Some(m.item)));
        }
        for a in &self.axis {
            bodies.push(one(&|b| b.axis = Some(a.item.clone())));
        }
        for x in &self.combats {
            bodies.push(one(&|b| b.combats = vec![x.item.clone()]));
        }
        for l in &self.laser {
            bodies.push(one(&|b| b.laser = vec![l.item.clone()]));
        }
        for s in &self.speech {
            bodies.push(one(&|b| {
                b.speech = Some(SpeechOrder::from(s.item.as_str()))
            }));
        }
        for cp in &self.checkpoints {
            bodies.push(one(&|b| b.checkpoint = *cp));
        }
        for b in bodies {
            out.push(if self.resume {
                Orders {
                    resume: Some(b),
                    ..Orders::default()
                }
            } else {
                phase_orders(b)
            });
        }
        for j in &self.join {
            out.push(Orders {
                join: Some(j.item),
                ..Orders::default()
            });
        }
        for p in &self.policies {
            out.push(Orders {
                policies: p.clone(),
                ..Orders::default()
            });
        }
        out
    }
}

/// A phase body as the top-level parts of a phase step's orders.
pub fn phase_orders(b: PhaseOrders) -> Orders {
    Orders {
        pre: b.pre,
        units: b.units,
        board: b.board,
        atmospheric: b.atmospheric,
        colony_move: b.colony_move,
        lvr_repair: b.lvr_repair,
        axis: b.axis,
        gryps: b.gryps,
        africa_hex: b.africa_hex,
        combats: b.combats,
        laser: b.laser,
        speech: b.speech,
        checkpoint: b.checkpoint,
        ..Orders::default()
    }
}

/// `side`'s choices as orders (`Rules::choice_items`).
pub fn choice_items(state: &State, side: &str) -> Vec<Orders> {
    match Side::parse(side) {
        Some(s) => choices(state, s).orders(),
        None => Vec::new(),
    }
}

/// What `check` refuses in `o` from `side` now, one line per problem (none: accepted).
pub fn accepted(state: &State, side: Side, o: &Orders) -> Vec<String> {
    orders::check(state, side.name(), o)
        .into_iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::{setup, steps};

    fn start() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    /// The states of the first steps of a game played with default orders.
    fn states() -> Vec<State> {
        let mut out = vec![start()];
        for n in 1..6u64 {
            let Some(last) = out.last() else { break };
            if matches!(last.stage, Stage::Over(_)) {
                break;
            }
            let mut dice = Dice::new(Hash32([n as u8; 32]), Hash32([1; 32])).at_step(n);
            let o = Side::ALL
                .iter()
                .map(|s| {
                    (
                        s.name().to_string(),
                        super::super::defaults::default_orders(last, *s),
                    )
                })
                .collect();
            let Ok(r) = steps::resolve(last, &o, &mut dice) else {
                break;
            };
            out.push(r.state);
        }
        out
    }

    /// 35.6: the colony's moves are listed to its user in its phase, and `check` takes each.
    #[test]
    fn the_colonys_moves_are_listed_and_accepted_35_6() {
        use crate::systems::zeta::carry::fixture::{phase, put};
        let mut st = start();
        phase(&mut st, Side::NeoZeon, CardKind::Space);
        put(&mut st, "colony", Side::NeoZeon, "colony", "space:F02");
        st.colony.in_use_by = Some(Side::NeoZeon);
        st.colony.used.insert(Side::NeoZeon);
        let c = choices(&st, Side::NeoZeon);
        assert!(!c.colony_moves.is_empty());
        let moves: Vec<Orders> = c
            .orders()
            .into_iter()
            .filter(|o| o.colony_move.is_some())
            .collect();
        assert_eq!(moves.len(), c.colony_moves.len());
        for o in &moves {
            assert!(accepted(&st, Side::NeoZeon, o).is_empty(), "{o:?}");
        }
        assert!(choices(&st, Side::Aeug).colony_moves.is_empty());
    }

    /// Plan §4.6, docs/adding-a-system.md: every choice item of every side, alone, is
    /// accepted by `check` (legality written once). Deployments need a produced unit first,
    /// so their units are left out of `orders()`; characters are in.
    #[test]
    fn every_choice_item_is_accepted_by_check() {
        for st in states() {
            for side in Side::ALL.iter().copied() {
                let items = choices(&st, side).orders();
                assert!(!items.is_empty(), "{side}: no choices at {:?}", st.stage);
                for o in items {
                    // 36.3: a Titans turn-1 item other than the base needs the base too.
                    let mut o = o;
                    if side == Side::Titans
                        && st.stage == (Stage::Packet { turn: 1 })
                        && o.nuke_base.is_none()
                    {
                        o.nuke_base = Some("jaburo".into());
                    }
                    let p = accepted(&st, side, &o);
                    assert!(p.is_empty(), "{side} at {:?}: {o:?}: {p:?}", st.stage);
                }
            }
        }
    }

    /// The packet lists the nuke's base to Titans on turn 1 only, and the card sets to all.
    #[test]
    fn the_packet_lists_the_nuke_to_titans_only_and_cards_to_all() {
        let st = start();
        assert_eq!(choices(&st, Side::Titans).nuke_base.len(), 4);
        assert!(choices(&st, Side::Aeug).nuke_base.is_empty());
        for side in Side::ALL.iter().copied() {
            assert!(!choices(&st, side).cards.is_empty());
        }
    }

    /// A phase lists items to the acting faction only; the others may change policies.
    #[test]
    fn a_phase_lists_items_to_the_acting_faction_only() {
        let st = states()
            .into_iter()
            .find(|s| matches!(s.stage, Stage::Phase { .. }))
            .unwrap();
        let Stage::Phase { card, .. } = st.stage else {
            unreachable!()
        };
        for side in Side::ALL.iter().copied() {
            let c = choices(&st, side);
            assert_eq!(!c.checkpoints.is_empty(), side == card.side, "{side}");
            if side != card.side {
                assert!(c.actions.is_empty() && c.combats.is_empty());
                assert_eq!(c.orders().len(), c.policies.len());
            }
        }
    }
}
