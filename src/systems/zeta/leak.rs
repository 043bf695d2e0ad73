//! Zeta's hidden facts, changed on purpose, for the hidden-information tests (issue 14,
//! tests/zeta_leak.rs; plan §2): a state with one faction's secrets (or nobody's: the deck's
//! order and the seals' keys) replaced by other legal values must look the same to every
//! reader not entitled to them. The list of what a state holds in secret, and how each is
//! changed:
//!
//! - a faction's unchosen cards (its hand during a turn, 10.5) against its chosen cards still
//!   in the deck: its cards are shuffled between those places, each place keeping its count
//!   (between turns the hand holds all five, openly: nothing to change);
//! - the deck's order (nobody's, 10.4): shuffled, optionally below the top cards;
//! - the deck seal's key and the nuke salt's key (host only): other keys;
//! - Titans' nuke base (36.3) while hidden: another candidate nobody has excluded, with
//!   its secret loss following from whether that base is destroyed;
//! - standing policies (plan §4.5): other legal policies (join, defence, bomb, bombard,
//!   protect; colony target for Titans and Neo Zeon, 35.7; nuke demolition for Titans, 36.4);
//! - plans (plan §4.4): a plan added, or the last one dropped;
//! - a stopped phase's remaining orders (plan §1.3) and AEUG's declared speech in it (29.1.2).
//!
//! The packet's working sheet (`SideState::sheet`) is empty between steps, so no state a
//! reader sees holds it; the packet orders themselves are never in a state (the host keeps
//! them until all three are in; tests/zeta_leak.rs checks the CLI for that).

use super::data::Side;
use super::orders::PhaseOrders;
use super::policy::{
    Bomb, Bombard, ColonyTarget, DemolishWhen, House, JoinAnswer, Plan, PlanElse, PlanKey,
    Policies, Sortie,
};
use super::state::{Card, CardKind, Checkpoint, State};
use crate::kit::deck::Hand;
use crate::kit::seats::Seat;
use crate::protocol::hash::{Hash32, Transcript};

/// A picker: `pick(n)` in `0..n` (see `kit::leak::picker`).
pub type Pick<'a> = &'a mut dyn FnMut(usize) -> usize;

/// `state` with every fact `reader` may not know changed: each other faction's secrets and
/// nobody's (the deck's order, the seals' keys). `None` is the public.
pub fn permute_hidden(state: &State, reader: Option<Side>, pick: Pick<'_>) -> State {
    let mut out = state.clone();
    for side in Side::ALL.iter().copied() {
        if Some(side) != reader {
            secrets_of(&mut out, side, 0, pick);
        }
    }
    permute_deck(&mut out, 0, pick);
    if let Some(seal) = out.deck_seal.as_mut() {
        seal.sealed.key = other_key(&seal.sealed.key, pick);
    }
    out
}

/// `state` with `owner`'s secrets changed (cards, nuke, policies, plans, stopped orders).
pub fn permute_secrets_of(state: &State, owner: Side, pick: Pick<'_>) -> State {
    let mut out = state.clone();
    secrets_of(&mut out, owner, 0, pick);
    out
}

fn secrets_of(st: &mut State, owner: Side, keep_top: usize, pick: Pick<'_>) {
    permute_cards_of(st, owner, keep_top, pick);
    if owner == Side::Titans {
        permute_nuke(st, pick);
    }
    permute_policies_of(st, owner, pick);
    permute_plans_of(st, owner, pick);
    permute_pending_of(st, owner, pick);
}

/// 10.5: `owner`'s unchosen cards (hand) and its chosen cards in the deck below the top
/// `keep_top`, shuffled among those places; every place keeps its count, so each faction's
/// number of cards in the deck (public) stays. Between turns (empty deck) nothing changes.
pub fn permute_cards_of(st: &mut State, owner: Side, keep_top: usize, pick: Pick<'_>) {
    if st.deck.draw_pile.is_empty() {
        return;
    }
    let hand: Vec<Card> = st.sides[owner].hand.cards().to_vec();
    let slots: Vec<usize> = st
        .deck
        .draw_pile
        .iter()
        .enumerate()
        .skip(keep_top)
        .filter(|(_, c)| c.side == owner)
        .map(|(i, _)| i)
        .collect();
    let mut pool = hand.clone();
    pool.extend(
        slots
            .iter()
            .filter_map(|i| st.deck.draw_pile.get(*i).copied()),
    );
    shuffle(&mut pool, pick);
    let (new_hand, rest) = pool.split_at(hand.len().min(pool.len()));
    st.sides[owner].hand = Hand::new(new_hand.to_vec());
    for (i, c) in slots.iter().zip(rest) {
        if let Some(slot) = st.deck.draw_pile.get_mut(*i) {
            *slot = *c;
        }
    }
}

/// 10.4: the deck's order below its top `keep_top` cards (nobody knows it).
pub fn permute_deck(st: &mut State, keep_top: usize, pick: Pick<'_>) {
    if let Some(rest) = st.deck.draw_pile.get_mut(keep_top..) {
        shuffle(rest, pick);
    }
}

/// 36.3, A-78, A-79: the hidden nuke in another possible candidate (the salt's key changed
/// too); nothing once it is revealed or used.
pub fn permute_nuke(st: &mut State, pick: Pick<'_>) {
    let n = &st.nuke;
    if n.revealed || n.used || n.base.is_none() {
        return;
    }
    let possible: Vec<_> = st
        .data
        .nuke_candidates()
        .into_iter()
        .filter(|b| !n.excluded.contains(b))
        .collect();
    if let Some(base) = possible.get(pick(possible.len())) {
        // the loss is secret and follows from the base being destroyed.
        st.nuke.lost = st.bases.get(base).is_some_and(|b| b.destroyed);
        st.nuke.base = Some(base.clone());
    }
    if let Some(seal) = st.nuke.seal.as_mut() {
        seal.key = other_key(&seal.key, pick);
    }
}

/// Plan §4.5: other legal standing policies for `owner` (the colony part only for Titans and
/// Neo Zeon, 35.1; the nuke part only for Titans, 36.1).
pub fn permute_policies_of(st: &mut State, owner: Side, pick: Pick<'_>) {
    let old = st.policies[owner].clone();
    let mut p = Policies::default();
    let answers = [
        JoinAnswer::Abstain,
        JoinAnswer::Attacker,
        JoinAnswer::Defender,
        JoinAnswer::Ask,
    ];
    p.join.default = answers
        .get(pick(answers.len()))
        .copied()
        .unwrap_or_default();
    let sorties = [Sortie::AllEligible, Sortie::None, Sortie::IfAirFavourable];
    p.defence.sortie = sorties
        .get(pick(sorties.len()))
        .copied()
        .unwrap_or_default();
    let houses = [House::None, House::Damaged, House::Ships, House::All];
    p.defence.house = houses.get(pick(houses.len())).copied().unwrap_or_default();
    p.bomb = match pick(3) {
        0 => Bomb::Never,
        1 => Bomb::IfTarget,
        _ => Bomb::IfMsAtLeast(u32::try_from(pick(4)).unwrap_or(0) + 1),
    };
    let bombards = [Bombard::Always, Bombard::Never, Bombard::IfStronger];
    p.bombard = bombards
        .get(pick(bombards.len()))
        .copied()
        .unwrap_or_default();
    p.protect = st
        .units
        .iter()
        .filter(|(_, u)| u.side == owner)
        .filter(|_| pick(3) == 0)
        .map(|(id, _)| id.clone())
        .collect();
    if matches!(owner, Side::Titans | Side::NeoZeon) && pick(2) == 0 {
        let mut bases: Vec<_> = st.bases.keys().cloned().collect();
        shuffle(&mut bases, pick);
        bases.truncate(2);
        p.colony.target = ColonyTarget::Bases(bases);
    }
    if owner == Side::Titans {
        p.nuke.demolish_when = match pick(3) {
            0 => DemolishWhen::Never,
            1 => DemolishWhen::BaseThreatened,
            _ => DemolishWhen::EnemyPpInBaseMin(u32::try_from(pick(6)).unwrap_or(0) + 1),
        };
    }
    if p == old {
        // Never the same: answer every join the other way.
        p.join.default = if old.join.default == JoinAnswer::Attacker {
            JoinAnswer::Defender
        } else {
            JoinAnswer::Attacker
        };
    }
    st.policies[owner] = p;
}

/// Plan §4.4: `owner`'s plans with one plan more (for a card kind it holds no plan for) or,
/// when it has one for every key, its last one dropped.
pub fn permute_plans_of(st: &mut State, owner: Side, pick: Pick<'_>) {
    let plans = &mut st.plans[owner];
    let keys = [
        (CardKind::Space, 1),
        (CardKind::Space, 2),
        (CardKind::Ground, 1),
        (CardKind::Ground, 2),
        (CardKind::Atmosphere, 1),
    ];
    let free: Vec<PlanKey> = keys
        .iter()
        .map(|(card, nth)| PlanKey {
            card: *card,
            nth: *nth,
        })
        .filter(|k| !plans.iter().any(|p| p.key == *k))
        .collect();
    match free.get(pick(free.len())) {
        Some(key) => plans.push(Plan {
            key: *key,
            guard: None,
            then: PhaseOrders::default(),
            otherwise: if pick(2) == 0 {
                PlanElse::Pass
            } else {
                PlanElse::Ask
            },
        }),
        None => {
            plans.pop();
        }
    }
}

/// Plan §1.3: the orders `owner` still has to carry out in a stopped phase (its last unit
/// order dropped, or another checkpoint), and 29.1.2: AEUG's speech declared in it.
pub fn permute_pending_of(st: &mut State, owner: Side, pick: Pick<'_>) {
    let Some(p) = st.pending.as_mut() else {
        return;
    };
    if p.cursor.card.side != owner {
        return;
    }
    if p.rest.units.pop().is_none() {
        let all = [
            Checkpoint::None,
            Checkpoint::AfterPre,
            Checkpoint::BeforeCombat,
            Checkpoint::BeforeLaser,
        ];
        let others: Vec<Checkpoint> = all
            .into_iter()
            .filter(|c| *c != p.rest.checkpoint)
            .collect();
        if let Some(c) = others.get(pick(others.len())) {
            p.rest.checkpoint = *c;
        }
    }
    if owner == Side::Aeug {
        st.speech_phase = !st.speech_phase;
    }
}

/// Another key, derived from the old one and the picker (never equal in practice).
fn other_key(old: &Hash32, pick: Pick<'_>) -> Hash32 {
    Transcript::new("zeta-leak-test")
        .hash(old)
        .u64(u64::try_from(pick(1 << 30)).unwrap_or(0))
        .finish()
}

/// Fisher-Yates with the picker.
fn shuffle<T>(v: &mut [T], pick: Pick<'_>) {
    for i in (1..v.len()).rev() {
        v.swap(i, pick(i + 1).min(i));
    }
}
