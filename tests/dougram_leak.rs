//! The hidden-information property for the dougram foundation (DESIGN 3, digest 2.3): two
//! states that differ only in what a side may not know (the other side's hand, deck and
//! face-down discards; its own deck order; chit values it may not see) give that side and the
//! public byte-identical views and board pictures, also after a card phase run on both with the
//! same dice.

use pbem::kit::leak::{self, picker};
use pbem::kit::seats::{Seat, TwoSeats};
use pbem::protocol::dice::Dice;
use pbem::protocol::hash::Hash32;
use pbem::systems::DataSource;
use pbem::systems::Reader;
use pbem::systems::Rules;
use pbem::systems::dougram::Dougram;
use pbem::systems::dougram::cardphase::card_phase;
use pbem::systems::dougram::data::Side;
use pbem::systems::dougram::setup;
use pbem::systems::dougram::state::{ChitAt, State, permute_hidden};
use pbem::systems::dougram::steps::resolve;
use pbem::systems::dougram::view::{chit_visible, view};
use pbem::yaml;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn dice(seed: u64, step: u64) -> Dice {
    let mut a = [0u8; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    a[8..16].copy_from_slice(&step.to_le_bytes());
    Dice::new(Hash32(a), Hash32([0x3c; 32]))
}

/// A game after the deal and, for `phases` > 0, that many card phases (turn 2 onward).
fn game(scenario: &str, seed: u64, phases: u8) -> State {
    let mut s = setup::initial_state(scenario, &DataSource::default()).unwrap();
    let mut d = dice(seed, 1);
    setup::deal(&mut s, &mut d).unwrap();
    for i in 0..phases {
        s.turn = 2 + u32::from(i) / 2;
        let side = if i % 2 == 0 { Side::Lib } else { Side::Fed };
        let mut d = dice(seed, 2 + u64::from(i));
        card_phase(&mut s, side, &mut d, &format!("p{i}"));
        s.pending_discard = Default::default();
    }
    s
}

/// What a reader is shown of a state: its view as YAML and the board picture's SVG (drawn
/// without events: a picture is a function of its view, events and the public data, and the
/// events are the resolver's, compared with the views after a step below).
fn seen(s: &State, r: &Reader) -> String {
    let v = view(s, r);
    let picture = Dougram
        .picture(&v, &[], &Dougram.data_of(s))
        .expect("dougram draws its board");
    format!(
        "{}--- picture\n{}",
        yaml::encode(&v).unwrap(),
        picture.as_str()
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_sides_view_ignores_what_it_may_not_know(
        seed in any::<u64>(),
        perm in any::<u64>(),
        setup2 in any::<bool>(),
        phases in 0u8..4,
        fed_reads in any::<bool>(),
    ) {
        let scenario = if setup2 { "setup2" } else { "setup1" };
        let reader = if fed_reads { Side::Fed } else { Side::Lib };
        let a = game(scenario, seed, phases);
        let b = permute_hidden(&a, reader, &mut picker(perm));
        let mut readers = vec![Reader::Side(reader.name().to_string())];
        if reader == Side::Fed {
            // Fed knows less than nobody else about Lib's chits; the public knows even less.
            readers.push(Reader::Public);
        }
        leak::same_for(&a, &b, &readers, seen)?;
    }

    #[test]
    fn the_opponents_card_phase_reveals_only_counts(
        seed in any::<u64>(),
        perm in any::<u64>(),
        fed_reads in any::<bool>(),
    ) {
        // With no keep ranking the number kept (0) does not depend on the hidden hand, so
        // the opponent's view after the phase depends only on what it already knew.
        let reader = if fed_reads { Side::Fed } else { Side::Lib };
        let mut a = game("setup1", seed, 0);
        a.turn = 2;
        let mut b = permute_hidden(&a, reader, &mut picker(perm));
        let phasing = reader.other();
        let ra = card_phase(&mut a, phasing, &mut dice(seed, 9), "t2");
        let rb = card_phase(&mut b, phasing, &mut dice(seed, 9), "t2");
        prop_assert_eq!(ra.public, rb.public);
        leak::same_for(&a, &b, &[Reader::Side(reader.name().to_string())], seen)?;
    }
}

/// `state` with `owner`'s secrets permuted: its hand, deck and face-down discards among
/// themselves, and the values of the chits `owner` may see and the other side may not (never
/// cup chits: those are nobody's secret).
fn permute_secrets_of(state: &State, owner: Side, pick: &mut dyn FnMut(usize) -> usize) -> State {
    let mut out = state.clone();
    let z = out.cards.get_mut(owner);
    z.deck.permute_hidden(&mut z.hand, pick);
    let secret: Vec<String> = state
        .chits
        .iter()
        .filter(|(_, c)| {
            c.at != ChitAt::Cup
                && chit_visible(state, c, owner)
                && !chit_visible(state, c, owner.other())
        })
        .map(|(id, _)| id.clone())
        .collect();
    let mut values: Vec<u32> = secret.iter().map(|id| state.chits[id].value).collect();
    for i in (1..values.len()).rev() {
        values.swap(i, pick(i + 1));
    }
    for (id, v) in secret.iter().zip(values) {
        out.chits.get_mut(id).unwrap().value = v;
    }
    out
}

/// The game after the setup step and `steps` more steps with empty orders.
fn played(scenario: &str, seed: u64, steps: u64) -> State {
    let mut s = setup::initial_state(scenario, &DataSource::default()).unwrap();
    for n in 0..=steps {
        if s.finished.is_some() {
            break; // 20.3.2 can end a game on its first turn
        }
        s = resolve(&s, &BTreeMap::new(), &mut dice(seed, 100 + n))
            .unwrap()
            .state;
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A whole player-turn of the opponent (every phase with standing policies, then the
    /// reader's own card phase) tells the reader nothing that depends on the opponent's
    /// secrets: the reader's view, the public lines and the reader's private lines are the same.
    #[test]
    fn the_opponents_whole_step_reveals_none_of_its_secrets(
        seed in any::<u64>(),
        perm in any::<u64>(),
        setup2 in any::<bool>(),
        steps in 0u64..5,
    ) {
        let scenario = if setup2 { "setup2" } else { "setup1" };
        let a = played(scenario, seed, steps);
        prop_assume!(a.finished.is_none());
        let owner = a.phasing().unwrap();
        let reader = owner.other();
        let b = permute_secrets_of(&a, owner, &mut picker(perm));
        let ra = resolve(&a, &BTreeMap::new(), &mut dice(seed, 999)).unwrap();
        let rb = resolve(&b, &BTreeMap::new(), &mut dice(seed, 999)).unwrap();
        prop_assert_eq!(&ra.public, &rb.public);
        prop_assert_eq!(ra.private.get(reader.name()), rb.private.get(reader.name()));
        if ra.state.finished.is_none() {
            // At the end everything is shown on purpose (digest 9), so views may differ then.
            let r = Reader::Side(reader.name().to_string());
            leak::same_for(&ra.state, &rb.state, &[r], seen)?;
        }
    }
}

#[test]
fn permuting_really_changes_hidden_facts() {
    let a = game("setup2", 5, 2);
    let b = permute_hidden(&a, Side::Fed, &mut picker(99));
    assert_ne!(a.cards[Side::Lib], b.cards[Side::Lib]);
    assert_ne!(a.chits, b.chits);
    assert_ne!(
        seen(&a, &Reader::Side("lib".into())),
        seen(&b, &Reader::Side("lib".into()))
    );
}

#[test]
fn permuting_secrets_really_changes_the_owners_cards_and_chits() {
    let a = (7..)
        .map(|seed| played("setup1", seed, 2))
        .find(|s| s.finished.is_none())
        .unwrap();
    let owner = a.phasing().unwrap();
    let b = permute_secrets_of(&a, owner, &mut picker(3));
    assert_ne!(a.cards.get(owner), b.cards.get(owner));
    assert!(
        (0..8).any(|k| permute_secrets_of(&a, Side::Lib, &mut picker(k)).chits != a.chits),
        "latent values are Lib's secrets"
    );
}
