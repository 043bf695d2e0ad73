//! The hidden-information property for kummen (DESIGN 3): two states that differ only in what a
//! side may not know give that side (and the public) byte-identical views, and resolving the
//! same step on them gives identical public events.

use pbem::kit::leak;
use pbem::kit::seats::Seat;
use pbem::protocol::dice::Dice;
use pbem::protocol::hash::Hash32;
use pbem::systems::kummen::data::Side;
use pbem::systems::kummen::state::{Place, permute_hidden};
use pbem::systems::kummen::{Kummen, Orders, State};
use pbem::systems::{DataSource, Reader, Rules};
use pbem::yaml;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn dice(seed: u64, step: u64) -> Dice {
    let mut a = [0u8; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    a[8..16].copy_from_slice(&step.to_le_bytes());
    Dice::new(Hash32(a), Hash32([0xa5; 32]))
}

fn orders(text: &str) -> Orders {
    yaml::parse(text, "test orders").unwrap()
}

fn resolve(state: &State, sent: &[(Side, Orders)], seed: u64, n: u64) -> (State, Vec<String>) {
    let mut map = BTreeMap::new();
    for (side, o) in sent {
        let p = Kummen.check(state, side.name(), o);
        assert!(p.is_empty(), "{p:?}");
        map.insert(side.name().to_string(), o.clone());
    }
    let mut d = dice(seed, n);
    let r = Kummen.resolve(state, &map, &mut d).unwrap();
    assert!(d.finish().is_ok());
    (r.state, r.public)
}

/// Setup with a mercenary heli trigger on I07 (where the B1 orders below move a token).
fn after_setup(seed: u64) -> State {
    let s = Kummen
        .initial_state("campaign", &DataSource::default())
        .unwrap();
    let m = orders("policies: {heli_triggers: [{when_beeler_in: [I07], helis: 1}]}\n");
    resolve(
        &s,
        &[(Side::Mercenary, m), (Side::Beeler, Orders::default())],
        seed,
        1,
    )
    .0
}

/// A state after `depth` steps (0: after setup; 1: after B1; 2: after M1) with moves that keep
/// units hidden.
fn game(seed: u64, depth: u8) -> State {
    let mut s = after_setup(seed);
    if depth >= 1 {
        let b = orders(
            "actions:\n  - move: {unit: 'B#17', path: [J07, I07]}\n  - move: {unit: 'B#15', path: [I10, H10]}\n",
        );
        s = resolve(&s, &[(Side::Beeler, b)], seed, 2).0;
    }
    if depth >= 2 {
        let m = orders("actions:\n  - move: {unit: 'M#9', path: [F07]}\n");
        s = resolve(&s, &[(Side::Mercenary, m)], seed, 3).0;
    }
    s
}

fn hidden_count(s: &State, side: Side) -> usize {
    s.units
        .iter()
        .filter(|(id, u)| {
            s.side_of(id) == Some(side) && u.place == Place::Map && !u.face_up && !s.is_heli(id)
        })
        .count()
        + s.cups.get(side).len()
}

/// What a reader is shown of a state: its view as YAML, the rendered text, and the board
/// picture's SVG (drawn without events: the public events are compared on their own below, and
/// a picture is a function of its view, events and the public data).
fn seen(s: &State, reader: &Reader) -> String {
    let v = Kummen.view(s, reader);
    let data = Kummen.data_of(s);
    let picture = Kummen
        .picture(&v, &[], &data)
        .expect("kummen draws its board");
    format!(
        "{}--- render\n{}--- picture\n{}",
        yaml::to_string(&v),
        Kummen.render(&v),
        picture.as_str()
    )
}

/// Every reader of a kummen game.
fn readers() -> Vec<Reader> {
    let mut r: Vec<Reader> = Side::ALL
        .iter()
        .map(|s| Reader::Side(s.name().into()))
        .collect();
    r.push(Reader::Public);
    r
}

/// `side`'s hidden identities permuted with the permutation `seed` picks.
fn permuted(side: Side) -> impl Fn(&State, u64) -> State {
    move |s, seed| {
        let perm = leak::permutation(seed, hidden_count(s, side));
        permute_hidden(s, side, &perm).expect("a permutation of the hidden slots")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn opponent_and_public_views_ignore_hidden_identities(
        seed in any::<u64>(),
        depth in 0u8..3,
        perm in any::<u64>(),
    ) {
        let s = game(seed, depth);
        for &side in Side::ALL {
            let owner = Reader::Side(side.name().into());
            leak::secrets_of(&s, &owner, &readers(), [perm], permuted(side), seen)?;
        }
    }

    #[test]
    fn resolving_a_step_on_permuted_identities_gives_the_same_public_record(
        seed in any::<u64>(),
        perm in any::<u64>(),
    ) {
        // Beeler's B1 on two worlds that differ only in beeler's hidden identities; the orders
        // name ids, mapped so that the same tokens move.
        let s = after_setup(seed);
        let p = permuted(Side::Beeler)(&s, perm);
        let b1 = |st: &State| {
            let id = |t: &str| st.find_own(Side::Beeler, t).unwrap();
            orders(&format!(
                "actions:\n  - move: {{unit: {}, path: [J07, I07]}}\n  - move: {{unit: {}, path: [I10, H10]}}\n",
                id("B#17"),
                id("B#15")
            ))
        };
        let (sa, ea) = resolve(&s, &[(Side::Beeler, b1(&s))], seed, 2);
        let (sb, eb) = resolve(&p, &[(Side::Beeler, b1(&p))], seed, 2);
        prop_assert_eq!(&ea, &eb);
        leak::same_for(&sa, &sb, &[Reader::Side("mercenary".into()), Reader::Public], seen)?;
        // Roles swapped: mercenary's M1 on worlds that differ in mercenary's hidden identities.
        let pa = permuted(Side::Mercenary)(&sa, perm);
        let m1 = |st: &State| {
            let id = st.find_own(Side::Mercenary, "M#9").unwrap();
            orders(&format!("actions:\n  - move: {{unit: {id}, path: [F07]}}\n"))
        };
        let (ta, fa) = resolve(&sa, &[(Side::Mercenary, m1(&sa))], seed, 3);
        let (tb, fb) = resolve(&pa, &[(Side::Mercenary, m1(&pa))], seed, 3);
        prop_assert_eq!(&fa, &fb);
        leak::same_for(&ta, &tb, &[Reader::Side("beeler".into()), Reader::Public], seen)?;
    }
}

/// 4.5.4: once drawn, the general-offensive turn is the mercenary's secret until the game ends.
#[test]
fn the_drawn_offensive_turn_is_seen_by_the_mercenary_only_4_5_4() {
    let mut s = after_setup(3);
    s.turn = 7;
    s.offensive_turn = Some(8);
    let merc = Reader::Side("mercenary".into());
    let moved = |st: &State, turn: u64| {
        let mut t = st.clone();
        t.offensive_turn = Some(turn as u32);
        t
    };
    leak::secrets_of(&s, &merc, &readers(), 9..=11, moved, seen).unwrap();
    assert_ne!(
        seen(&s, &merc),
        seen(&moved(&s, 11), &merc),
        "the mercenary sees its marker"
    );
}
