//! The two setups (28.1 campaign, 28.2 short start). [`initial_state`] places the counters
//! (public, deterministic); [`deal`] does everything random when step 1 is resolved, so the
//! players' entropy seeds it: the sealed cup draw of every setup chit and the sealed shuffle of
//! both decks with the first hands of 6 (28.1.2.2, 28.2.2.3).

use super::cardphase::DRAW;
use super::cards::{Setup1, Setup2};
use super::data::{self, HexId, PerSide, Side};
use super::state::{Chit, ChitAt, State, Step, Unit, UnitAt, Zones};
use crate::kit::deck::Hand;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::systems::DataSource;
use std::collections::{BTreeMap, BTreeSet};

pub const SETUP1: &str = "setup1";
pub const SETUP2: &str = "setup2";

/// Boxes the rules name, with their owners (24.2, 28.2.3).
pub const BOX_OWNERS: [(&str, Side); 7] = [
    ("state_administration", Side::Fed),
    ("weapons_development", Side::Fed),
    ("sixth_army", Side::Fed),
    ("saltsev", Side::Lib),
    ("donan", Side::Lib),
    ("deloyan_people", Side::Lib),
    ("destan", Side::Lib),
];

/// Where a setup line puts things: a named place, or a hex by number.
#[derive(Debug, Clone, Copy)]
pub enum Spot {
    Place(&'static str),
    Hex(HexId),
}

/// One line of a setup table: Fed units, Lib units, latent chits.
pub struct Line {
    pub at: Spot,
    pub fed: &'static [(&'static str, u32)],
    pub lib: &'static [(&'static str, u32)],
    pub chits: u32,
}

const fn l(
    at: Spot,
    fed: &'static [(&'static str, u32)],
    lib: &'static [(&'static str, u32)],
    chits: u32,
) -> Line {
    Line {
        at,
        fed,
        lib,
        chits,
    }
}

use Spot::{Hex, Place};

/// 28.1.3.
pub const TABLE1: [Line; 10] = [
    l(
        Place("spa"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[("soldier", 2)],
        1,
    ),
    l(
        Place("bonar"),
        &[("soldier", 3), ("crab_gunner", 2)],
        &[("soldier", 3)],
        2,
    ),
    l(
        Place("lambel"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[("soldier", 1)],
        1,
    ),
    l(
        Place("cardinal"),
        &[("soldier", 3), ("round_facer", 2), ("nikolaev", 1)],
        &[("soldier", 3), ("crab_gunner", 1)],
        3,
    ),
    l(
        Place("sandrea"),
        &[("soldier", 2), ("round_facer", 2)],
        &[("soldier", 3), ("crab_gunner", 1)],
        1,
    ),
    l(
        Place("garland"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[],
        1,
    ),
    l(
        Place("doga"),
        &[("soldier", 3), ("crab_gunner", 2)],
        &[("soldier", 3)],
        2,
    ),
    l(
        Place("grante"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[],
        1,
    ),
    l(
        Place("estor"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[],
        1,
    ),
    l(
        Place("north_pole_port"),
        &[("soldier", 1), ("round_facer", 2)],
        &[],
        0,
    ),
];

/// 28.1.3: the 6th Army box chit.
pub const BOXES1: [(&str, u32); 1] = [("sixth_army", 1)];

/// 28.2.3.
pub const TABLE2: [Line; 13] = [
    l(
        Place("spa"),
        &[("soldier", 2), ("crab_gunner", 2)],
        &[("soldier", 2)],
        2,
    ),
    l(
        Place("bonar"),
        &[("soldier", 4), ("round_facer", 2)],
        &[("soldier", 2)],
        1,
    ),
    l(Hex(62), &[], &[], 1),
    l(Hex(53), &[], &[], 2),
    l(
        Place("lambel"),
        &[("soldier", 1), ("bushman", 2)],
        &[("soldier", 2)],
        1,
    ),
    l(
        Place("cardinal"),
        &[("soldier", 5), ("round_facer", 2), ("nikolaev", 1)],
        &[],
        1,
    ),
    l(
        Place("sandrea"),
        &[("soldier", 1), ("round_facer", 1)],
        &[],
        1,
    ),
    l(
        Place("garland"),
        &[("soldier", 1), ("crab_gunner", 1)],
        &[],
        1,
    ),
    l(
        Place("doga"),
        &[
            ("soldier", 5),
            ("crab_gunner", 1),
            ("round_facer", 2),
            ("blockhead_b", 2),
        ],
        &[("dougram_tb", 1), ("crab_gunner", 1), ("soldier", 2)],
        3,
    ),
    l(Place("andy"), &[], &[("soldier", 3)], 1),
    l(
        Place("grante"),
        &[("soldier", 2), ("crab_gunner", 1)],
        &[("soldier", 2)],
        1,
    ),
    l(Hex(57), &[], &[("soldier", 2)], 2),
    l(
        Place("estor"),
        &[("soldier", 1), ("crab_gunner", 1)],
        &[],
        1,
    ),
];

/// 28.2.3: play-sheet chits.
pub const BOXES2: [(&str, u32); 7] = [
    ("state_administration", 3),
    ("weapons_development", 2),
    ("sixth_army", 1),
    ("saltsev", 3),
    ("donan", 2),
    ("deloyan_people", 6),
    ("destan", 1),
];

/// A setup table and its play-sheet chits.
type Tables = (&'static [Line], &'static [(&'static str, u32)]);

fn tables(scenario: &str) -> Result<Tables, String> {
    match scenario {
        SETUP1 => Ok((&TABLE1, &BOXES1)),
        SETUP2 => Ok((&TABLE2, &BOXES2)),
        _ => Err(format!(
            "unknown scenario {scenario:?}; known: {SETUP1}, {SETUP2}"
        )),
    }
}

/// The state before step 1: counters placed, chits in the cup, cards in their zones
/// (decks unshuffled and no hands yet; [`deal`] does that).
pub fn initial_state(scenario: &str, source: &DataSource) -> Result<State, String> {
    let (table, _) = tables(scenario)?;
    let data = data::load(source)?;
    let defs = data.counters.counter_defs();
    let mut units: BTreeMap<String, Unit> = defs
        .iter()
        .map(|(id, d)| {
            (
                id.clone(),
                Unit {
                    at: UnitAt::Stock,
                    side: d.front.side,
                    damaged: false,
                },
            )
        })
        .collect();
    for line in table {
        let hex = match line.at {
            Spot::Place(p) => data.map.hex_of(p),
            Spot::Hex(h) => h,
        };
        for (side, list) in [(Side::Fed, line.fed), (Side::Lib, line.lib)] {
            for (kind, n) in list {
                for _ in 0..*n {
                    // The first stock counter (id order) with a face of this side and type,
                    // never a 6th Army counter (24.3: those enter only by 24.2 and 7.11).
                    let id = defs
                        .iter()
                        .filter(|(id, d)| !d.sixth_army && units[*id].at == UnitAt::Stock)
                        .find_map(|(id, d)| {
                            let front = d.front.side == side && d.front.kind == *kind;
                            let back = d
                                .back
                                .as_ref()
                                .is_some_and(|b| b.side == side && b.kind == *kind);
                            (front || back).then(|| id.clone())
                        })
                        .ok_or_else(|| {
                            format!(
                                "counters.yaml has too few {} {kind} counters for {scenario} (28)",
                                side.name()
                            )
                        })?;
                    units.insert(
                        id,
                        Unit {
                            at: UnitAt::Hex(hex),
                            side,
                            damaged: false,
                        },
                    );
                }
            }
        }
    }
    let mut chits = BTreeMap::new();
    let mut n = 0;
    for (value, count) in &data.counters.chits {
        for _ in 0..*count {
            n += 1;
            chits.insert(
                format!("K{n:03}"),
                Chit {
                    value: *value,
                    at: ChitAt::Cup,
                    token: None,
                },
            );
        }
    }
    let mut cards = PerSide::<Zones>::default();
    let (mut stock, mut open, mut removed) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for c in &data.cards.cards {
        let deck = match scenario {
            SETUP1 => c.setup1 == Setup1::Deck,
            _ => match c.setup2 {
                Setup2::Deck => true,
                Setup2::Open => {
                    open.insert(c.no);
                    continue;
                }
                Setup2::Removed => {
                    removed.insert(c.no);
                    continue;
                }
                Setup2::Stock => false,
            },
        };
        if deck {
            cards.get_mut(c.owner).deck.draw_pile.push(c.no);
        } else {
            stock.insert(c.no);
        }
    }
    let mut s = State {
        scenario: scenario.to_string(),
        data: crate::kit::shared::Shared::new(data),
        turn: 1,
        step: Step::Setup,
        units,
        chits,
        next_token: 0,
        cards,
        stock,
        open,
        removed,
        control: BTreeMap::new(),
        policies: PerSide::default(),
        pending_discard: PerSide::default(),
        finished: None,
    };
    s.recompute_control();
    Ok(s)
}

/// The random part of the setup, at the resolution of step 1: the setup chits come out of the
/// cup by one sealed shuffle (28.1.3, 28.2.3); each deck is shuffled sealed and deals 6.
pub fn deal(state: &mut State, dice: &mut Dice) -> Result<Vec<String>, String> {
    let (table, boxes) = tables(&state.scenario)?;
    let mut cup = state.cup();
    dice.sealed_shuffle("setup/cup", &mut cup, "setup chits (28)");
    let mut next = cup.into_iter();
    let mut public = Vec::new();
    for line in table {
        let hex = match line.at {
            Spot::Place(p) => state.data.map.hex_of(p),
            Spot::Hex(h) => h,
        };
        for _ in 0..line.chits {
            let id = next.next().ok_or("the cup ran out during setup")?;
            state.place_chit(&id, ChitAt::Hex(hex));
        }
    }
    for (b, n) in boxes {
        for _ in 0..*n {
            let id = next.next().ok_or("the cup ran out during setup")?;
            state.place_chit(&id, ChitAt::Box(b.to_string()));
        }
    }
    for &side in Side::ALL {
        let z = state.cards.get_mut(side);
        z.deck.shuffle(
            dice,
            &format!("setup/deck/{}", side.name()),
            &format!("{} deck (28.x.2.2)", side.name()),
        );
        z.hand = Hand::new(z.deck.take(DRAW));
        public.push(format!(
            "{} shuffles its deck of 18 and draws 6 (28.1.2.2, 28.2.2.3)",
            side.name()
        ));
    }
    public.push(format!(
        "{} latent chits and {} sheet chits come out of the cup",
        state
            .chits
            .values()
            .filter(|c| matches!(c.at, ChitAt::Hex(_)))
            .count(),
        state
            .chits
            .values()
            .filter(|c| matches!(c.at, ChitAt::Box(_)))
            .count()
    ));
    // The deal completes the scenario's setup (28.x.1-28.x.3: the placements and decks
    // `initial_state` made, the chits and hands dealt now).
    let rules: &[&'static str] = if state.scenario == SETUP1 {
        &["28.1.1", "28.1.2.1", "28.1.2.2", "28.1.3"]
    } else {
        &["28.2.1", "28.2.2.1", "28.2.2.2", "28.2.2.3", "28.2.3"]
    };
    for r in rules {
        crate::kit::reach::fire(r);
    }
    state.step = Step::Lib;
    state.recompute_control();
    Ok(public)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::data::Class;
    use crate::systems::dougram::fixtures::{dealt, dice};

    fn count(s: &State, side: Side, kind: &str) -> usize {
        s.units
            .iter()
            .filter(|(id, u)| {
                u.side == side && matches!(u.at, UnitAt::Hex(_)) && s.unit_type(id) == Some(kind)
            })
            .count()
    }

    #[test]
    fn setup1_places_38_fed_and_17_lib_units_28_1_3() {
        let s = initial_state(SETUP1, &DataSource::default()).unwrap();
        assert_eq!(count(&s, Side::Fed, "soldier"), 22);
        assert_eq!(count(&s, Side::Fed, "crab_gunner"), 9);
        assert_eq!(count(&s, Side::Fed, "round_facer"), 6);
        assert_eq!(count(&s, Side::Fed, "nikolaev"), 1);
        assert_eq!(count(&s, Side::Lib, "soldier"), 15);
        assert_eq!(count(&s, Side::Lib, "crab_gunner"), 2);
        let cardinal = s.data.map.hex_of("cardinal");
        assert_eq!(s.count_class(cardinal, Side::Lib, Class::Soldier), 3);
        // Fed controls every city at the start (3.2), so Lib has 0 VP.
        assert!(s.control.values().all(|c| *c == Side::Fed));
        assert_eq!(s.lib_vp(), 0);
    }

    #[test]
    fn setup2_places_40_fed_and_17_lib_units_and_lib_holds_andy_28_2_3() {
        let s = initial_state(SETUP2, &DataSource::default()).unwrap();
        let fed: usize = s
            .units
            .values()
            .filter(|u| u.side == Side::Fed && matches!(u.at, UnitAt::Hex(_)))
            .count();
        let lib: usize = s
            .units
            .values()
            .filter(|u| u.side == Side::Lib && matches!(u.at, UnitAt::Hex(_)))
            .count();
        assert_eq!((fed, lib), (40, 17));
        assert_eq!(count(&s, Side::Lib, "dougram_tb"), 1);
        assert_eq!(count(&s, Side::Fed, "bushman"), 2);
        assert_eq!(s.control["andy"], Side::Lib, "3 vs 0 (3.2, default A50)");
        assert_eq!(
            s.control["north_pole_port"],
            Side::Fed,
            "empty city (default A2)"
        );
        assert_eq!(s.lib_vp(), 1);
    }

    #[test]
    fn setup1_deals_six_from_18_card_decks_and_13_latent_chits_28_1() {
        let s = dealt(SETUP1, 11);
        for &side in Side::ALL {
            let z = s.cards.get(side);
            assert_eq!((z.hand.len(), z.deck.draw_pile.len()), (6, 12));
        }
        let latent = s
            .chits
            .values()
            .filter(|c| matches!(c.at, ChitAt::Hex(_)))
            .count();
        assert_eq!(latent, 13);
        let sixth = s
            .chits
            .values()
            .filter(|c| c.at == ChitAt::Box("sixth_army".into()))
            .count();
        assert_eq!(sixth, 1);
        assert_eq!(s.cup().len(), 60 - 14);
        assert_eq!(s.step, Step::Lib);
    }

    #[test]
    fn setup2_takes_36_chits_and_opens_and_removes_marked_cards_28_2() {
        let s = dealt(SETUP2, 12);
        assert_eq!(s.cup().len(), 60 - 36);
        assert_eq!(
            s.chits.values().filter(|c| c.at == ChitAt::Hex(53)).count(),
            2
        );
        assert!(!s.open.is_empty() && !s.removed.is_empty());
        for &side in Side::ALL {
            assert_eq!(
                s.cards.get(side).hand.len() + s.cards.get(side).deck.draw_pile.len(),
                18
            );
        }
    }

    #[test]
    fn the_deal_is_sealed_and_fixed_by_the_dice_28_1_2_2() {
        let a = dealt(SETUP1, 21);
        let b = dealt(SETUP1, 21);
        let c = dealt(SETUP1, 22);
        assert_eq!(a, b);
        assert_ne!(a.cards, c.cards);
        let mut s = initial_state(SETUP1, &DataSource::default()).unwrap();
        let mut d = dice(21);
        deal(&mut s, &mut d).unwrap();
        let t = d.finish().unwrap();
        assert!(t.public.is_empty());
        let labels: Vec<&str> = t.sealed.iter().map(|x| x.label.as_str()).collect();
        assert_eq!(labels, ["setup/cup", "setup/deck/lib", "setup/deck/fed"]);
    }

    #[test]
    fn tokens_follow_placement_order_not_values_2_5() {
        let s = dealt(SETUP1, 31);
        let mut tokens: Vec<u32> = s.chits.values().filter_map(|c| c.token).collect();
        tokens.sort();
        assert_eq!(tokens, (1..=14).collect::<Vec<_>>());
    }

    #[test]
    fn an_unknown_scenario_is_refused() {
        assert!(initial_state("setup3", &DataSource::default()).is_err());
    }
}
