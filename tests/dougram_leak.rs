//! The hidden-information property for the dougram foundation (DESIGN 3, digest 2.3): two
//! states that differ only in what a side may not know (the other side's hand, deck and
//! face-down discards; its own deck order; chit values it may not see) give that side and the
//! public byte-identical views, also after a card phase run on both with the same dice.

use pbem::protocol::dice::Dice;
use pbem::protocol::hash::Hash32;
use pbem::systems::DataSource;
use pbem::systems::Reader;
use pbem::systems::dougram::cardphase::card_phase;
use pbem::systems::dougram::data::Side;
use pbem::systems::dougram::setup;
use pbem::systems::dougram::state::{State, permute_hidden};
use pbem::systems::dougram::view::view;
use pbem::yaml;
use proptest::prelude::*;

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

fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    let mut x = seed | 1;
    move |n| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    }
}

fn seen(s: &State, r: &Reader) -> String {
    yaml::encode(&view(s, r)).unwrap()
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
        let b = permute_hidden(&a, reader, &mut lcg(perm));
        let r = Reader::Side(reader.name().to_string());
        prop_assert_eq!(seen(&a, &r), seen(&b, &r));
        if reader == Side::Fed {
            // Fed knows less than nobody else about Lib's chits; the public knows even less.
            prop_assert_eq!(seen(&a, &Reader::Public), seen(&b, &Reader::Public));
        }
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
        let mut b = permute_hidden(&a, reader, &mut lcg(perm));
        let phasing = reader.other();
        let ra = card_phase(&mut a, phasing, &mut dice(seed, 9), "t2");
        let rb = card_phase(&mut b, phasing, &mut dice(seed, 9), "t2");
        prop_assert_eq!(ra.public, rb.public);
        let r = Reader::Side(reader.name().to_string());
        prop_assert_eq!(seen(&a, &r), seen(&b, &r));
    }
}

#[test]
fn permuting_really_changes_hidden_facts() {
    let a = game("setup2", 5, 2);
    let b = permute_hidden(&a, Side::Fed, &mut lcg(99));
    assert_ne!(a.cards.lib, b.cards.lib);
    assert_ne!(a.chits, b.chits);
    assert_ne!(
        seen(&a, &Reader::Side("lib".into())),
        seen(&b, &Reader::Side("lib".into()))
    );
}
