//! What a reader may know (plan §2.1, §3.5): the whole board is public; the secrets are
//! each faction's hand, the deck's order and kinds, Titans' nuke base, and plans, policies and
//! stopped orders. The text rendering reads the view alone. The full view and its text are
//! zeta commit 13; this one already keeps every secret out.

use super::data::{BaseId, CharId, PerSide, Place, Side, TypeId, UnitId};
use super::orders::{PhaseOrders, stage_name};
use super::policy::{Plan, Policies};
use super::state::{BaseState, Card, CardKind, CharPlace, ColonyState, FaceUp, OneShots, State};
use crate::kit::seats::Seat;
use crate::systems::Reader;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitView {
    pub side: Side,
    #[serde(rename = "type")]
    pub type_id: TypeId,
    pub place: Place,
    pub face: FaceUp,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carrier: Option<UnitId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CharView {
    pub side: Side,
    #[serde(rename = "where")]
    pub place: CharPlace,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideView {
    pub factory: BTreeMap<TypeId, u8>,
    pub stock: BTreeMap<TypeId, u8>,
    pub permitted: BTreeSet<TypeId>,
    pub vp: i32,
    /// Its cards still in the deck (3 minus those drawn: deducible by everyone).
    pub cards_in_deck: u8,
    pub drawn: Vec<CardKind>,
    pub missed: u32,
}

/// The nuke as a reader may know it (plan §2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NukeView {
    /// `hidden`, `revealed`, `used` or `lost`.
    pub status: String,
    /// The candidates it may still be in, as everyone can tell.
    pub possible: Vec<BaseId>,
}

/// Where one of the reader's own cards is this turn (plan §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardMark {
    /// Between turns: in the hand, to choose from (10.2).
    Hand,
    /// Chosen and still in the deck (10.4).
    Chosen,
    /// Chosen and drawn this turn (11.2).
    Drawn,
    /// Not chosen this turn: kept face down (10.5).
    Kept,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MyCard {
    pub kind: CardKind,
    pub mark: CardMark,
}

/// What only the reader's own side sees.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mine {
    /// Its cards not in the deck (10.5).
    pub hand: Vec<Card>,
    /// Its five cards with where each is this turn, in kind order (never in deck order:
    /// plan §2.3 trap 3).
    pub cards: Vec<MyCard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nuke_base: Option<BaseId>,
    pub policies: Policies,
    pub plans: Vec<Plan>,
    /// Its own orders of a stopped phase, still to be carried out (plan §2.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<PhaseOrders>,
}

/// A drawn card as everyone sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DrawnCard {
    pub side: Side,
    pub kind: CardKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub reader: String,
    pub turn: u8,
    pub stage: String,
    pub units: BTreeMap<UnitId, UnitView>,
    pub characters: BTreeMap<CharId, CharView>,
    pub bases: BTreeMap<BaseId, BaseState>,
    pub sides: PerSide<SideView>,
    /// The cards drawn this turn, by faction and kind only: which copy of a kind was drawn
    /// is left out, since the lowest copy is taken first (10.3) and a second copy drawn first
    /// would tell everyone that the faction chose both.
    pub drawn: Vec<DrawnCard>,
    pub nuke: NukeView,
    pub colony: ColonyState,
    pub once: OneShots,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mine: Option<Mine>,
    pub stand_in: bool,
}

pub fn view(state: &State, reader: &Reader) -> View {
    let me = match reader {
        Reader::Side(s) => Side::parse(s),
        Reader::Public => None,
    };
    let units = state
        .units
        .iter()
        .map(|(id, u)| {
            let v = UnitView {
                side: u.side,
                type_id: u.type_id.clone(),
                place: u.place,
                face: u.face,
                carrier: u.carrier.clone(),
            };
            (id.clone(), v)
        })
        .collect();
    let characters = state
        .chars
        .iter()
        .map(|(id, c)| {
            let v = CharView {
                side: c.side,
                place: c.place.clone(),
            };
            (id.clone(), v)
        })
        .collect();
    let sides = state.sides.map(|side, s| {
        let in_deck = state
            .deck
            .draw_pile
            .iter()
            .filter(|c| c.side == side)
            .count();
        SideView {
            factory: s.factory.clone(),
            stock: s.stock.clone(),
            permitted: s.permitted.clone(),
            vp: s.vp,
            cards_in_deck: u8::try_from(in_deck).unwrap_or(u8::MAX),
            drawn: state
                .drawn
                .iter()
                .filter(|c| c.side == side)
                .map(|c| c.kind)
                .collect(),
            missed: s.missed,
        }
    });
    let n = &state.nuke;
    // a demolition lost with its base (destroyed otherwise) stays secret: only Titans
    // learn it; to everyone else the nuke is still hidden, or it would name the lost base.
    let status = if n.used {
        "used"
    } else if n.lost && me == Some(Side::Titans) {
        "lost"
    } else if n.revealed {
        "revealed"
    } else {
        "hidden"
    };
    let possible = if n.revealed || n.used {
        n.base.iter().cloned().collect()
    } else {
        state
            .data
            .nuke_candidates()
            .into_iter()
            .filter(|b| !n.excluded.contains(b))
            .collect()
    };
    let mine = me.map(|side| Mine {
        hand: state.sides[side].hand.cards().to_vec(),
        cards: my_cards(state, side),
        nuke_base: if side == Side::Titans {
            n.base.clone()
        } else {
            None
        },
        policies: state.policies[side].clone(),
        plans: state.plans[side].clone(),
        pending: state
            .pending
            .as_ref()
            .filter(|p| p.cursor.card.side == side)
            .map(|p| p.rest.clone()),
    });
    View {
        reader: me.map_or("public", |s| s.name()).to_string(),
        turn: state.turn,
        stage: stage_name(&state.stage),
        units,
        characters,
        bases: state.bases.clone(),
        sides,
        drawn: state
            .drawn
            .iter()
            .map(|c| DrawnCard {
                side: c.side,
                kind: c.kind,
            })
            .collect(),
        nuke: NukeView {
            status: status.into(),
            possible,
        },
        colony: state.colony.clone(),
        once: state.once.clone(),
        mine,
        stand_in: state.data.stand_in(),
    }
}

/// `side`'s five cards, marked: during a turn the hand holds the two kept ones, the deck the
/// chosen ones not drawn yet, `drawn` the drawn ones.
fn my_cards(state: &State, side: Side) -> Vec<MyCard> {
    let in_turn = !state.deck.draw_pile.is_empty() || !state.drawn.is_empty();
    let mut out: Vec<MyCard> = Vec::new();
    let mut mark = |cards: &mut dyn Iterator<Item = &Card>, mark: CardMark| {
        out.extend(
            cards
                .filter(|c| c.side == side)
                .map(|c| MyCard { kind: c.kind, mark }),
        );
    };
    let hand_mark = if in_turn {
        CardMark::Kept
    } else {
        CardMark::Hand
    };
    mark(&mut state.sides[side].hand.cards().iter(), hand_mark);
    mark(&mut state.deck.draw_pile.iter(), CardMark::Chosen);
    mark(&mut state.drawn.iter(), CardMark::Drawn);
    out.sort_by_key(|c| (c.kind, c.mark as u8));
    out
}

/// The view as text, from the view alone (so it can hold nothing the view does not): the
/// turn and stage, each faction's VP and cards, the bases, the units by hex and by box, the
/// characters, the nuke as far as the reader may know it, and the reader's own secrets.
pub fn render(v: &View) -> String {
    let mut out = format!("Zeta Gundam / Gundam ZZ, turn {}: {}\n", v.turn, v.stage);
    render_sides(v, &mut out);
    render_bases(v, &mut out);
    render_units(v, &mut out);
    render_characters(v, &mut out);
    out.push_str(&format!(
        "nuke: {} (possible: {})\n",
        v.nuke.status,
        or_none(&v.nuke.possible.join(", "))
    ));
    render_mine(v, &mut out);
    if v.stand_in {
        out.push_str("Stand-in map, counters, characters and track (games/zeta/).\n");
    }
    out
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "none" } else { s }
}

/// `type xN` lists of a type -> count map, in key order.
fn counts(m: &BTreeMap<TypeId, u8>) -> String {
    let parts: Vec<String> = m
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(t, n)| format!("{t} x{n}"))
        .collect();
    or_none(&parts.join(", ")).to_string()
}

fn render_sides(v: &View, out: &mut String) {
    for (side, s) in v.sides.iter() {
        out.push_str(&format!(
            "{side}: {} VP, {} cards in the deck, missed {}\n",
            s.vp, s.cards_in_deck, s.missed
        ));
        out.push_str(&format!("  factory: {}\n", counts(&s.factory)));
        out.push_str(&format!("  stock: {}\n", counts(&s.stock)));
    }
    if !v.drawn.is_empty() {
        let drawn: Vec<String> = v
            .drawn
            .iter()
            .map(|c| format!("{} {}", c.side, c.kind.name()))
            .collect();
        out.push_str(&format!("cards drawn this turn: {}\n", drawn.join(", ")));
    }
}

fn render_bases(v: &View, out: &mut String) {
    out.push_str("bases:\n");
    for (id, b) in &v.bases {
        let gov = b.governor.map_or("neutral".to_string(), |s| s.to_string());
        let mut line = format!("  {id}: {gov}, level {}", b.level);
        if let Some(p) = &b.place {
            line.push_str(&format!(", at {}", p.label()));
        }
        if b.destroyed {
            line.push_str(", destroyed");
        }
        out.push_str(&line);
        out.push('\n');
    }
}

/// Units grouped by where they are (hexes in order, then the boxes), carried ones after
/// their carrier's id.
fn render_units(v: &View, out: &mut String) {
    let mut by_place: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (id, u) in &v.units {
        let mut s = format!("{id} ({} {}", u.side, u.type_id);
        if u.face == FaceUp::Back {
            s.push_str(", back");
        }
        if let Some(c) = &u.carrier {
            s.push_str(&format!(", on {c}"));
        }
        s.push(')');
        by_place.entry(u.place.label()).or_default().push(s);
    }
    out.push_str("units:\n");
    for (place, units) in &by_place {
        out.push_str(&format!("  {place}: {}\n", units.join(", ")));
    }
}

fn char_where(p: &CharPlace) -> String {
    match p {
        CharPlace::Track => "on the track".into(),
        CharPlace::ToDeploy { .. } => "to deploy".into(),
        CharPlace::Aboard(u) => format!("aboard {u}"),
        CharPlace::Solo(l) => format!("alone in {}", l.label()),
        CharPlace::Wounded(_) => "wounded".into(),
        CharPlace::Dead => "dead".into(),
        CharPlace::Replaced => "replaced".into(),
        CharPlace::OutOfGame => "out of the game".into(),
    }
}

fn render_characters(v: &View, out: &mut String) {
    out.push_str("characters:\n");
    for (id, c) in &v.characters {
        out.push_str(&format!("  {id} ({}): {}\n", c.side, char_where(&c.place)));
    }
}

fn render_mine(v: &View, out: &mut String) {
    let Some(m) = &v.mine else {
        return;
    };
    let cards: Vec<String> = m
        .cards
        .iter()
        .map(|c| {
            let mark = match c.mark {
                CardMark::Hand => "in hand",
                CardMark::Chosen => "chosen, in the deck",
                CardMark::Drawn => "drawn",
                CardMark::Kept => "kept",
            };
            format!("{} ({mark})", c.kind.name())
        })
        .collect();
    out.push_str(&format!("your cards: {}\n", cards.join(", ")));
    if let Some(b) = &m.nuke_base {
        out.push_str(&format!("your nuke is in: {b}\n"));
    }
    out.push_str(&format!("your plans: {}\n", m.plans.len()));
    if m.pending.is_some() {
        out.push_str("you have orders of a stopped phase still to carry out\n");
    }
}

#[cfg(test)]
mod nuke_tests {
    use super::*;
    use crate::systems::DataSource;
    use crate::systems::zeta::setup;

    /// when the nuke's base is destroyed otherwise, the demolition is lost in secret:
    /// Titans read "lost", everyone else still "hidden" with the same candidates as before.
    #[test]
    fn a_lost_nuke_shows_as_lost_to_titans_only() {
        let mut st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        st.nuke.base = st.data.nuke_candidates().first().cloned();
        let before = view(&st, &Reader::Public).nuke;
        st.nuke.lost = true;
        for reader in [
            Reader::Public,
            Reader::Side("aeug".into()),
            Reader::Side("neo_zeon".into()),
        ] {
            assert_eq!(view(&st, &reader).nuke, before, "{reader:?}");
        }
        assert_eq!(
            view(&st, &Reader::Side("titans".into())).nuke.status,
            "lost"
        );
    }
}

#[cfg(test)]
mod card_tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::{setup, steps};

    /// The state after the turn-1 packet: the deck shuffled, a phase step open.
    fn mid_turn() -> State {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        let mut dice = Dice::new(Hash32([4; 32]), Hash32([5; 32])).at_step(1);
        steps::resolve(&st, &Default::default(), &mut dice)
            .unwrap()
            .state
    }

    /// 10.3, 11.2: the lowest copy of a kind leaves the hand first, so a drawn card's copy
    /// number would tell whether its faction chose a second card of that kind. No other
    /// reader is shown it.
    #[test]
    fn a_drawn_card_is_shown_without_its_copy_number() {
        let mut st = mid_turn();
        st.drawn = vec![Card {
            side: Side::Titans,
            kind: CardKind::Space,
            copy: 2,
        }];
        for reader in [Reader::Public, Reader::Side("aeug".into())] {
            let v = view(&st, &reader);
            assert_eq!(
                v.drawn,
                vec![DrawnCard {
                    side: Side::Titans,
                    kind: CardKind::Space
                }]
            );
            let yaml = crate::yaml::encode(&v).unwrap();
            let drawn = yaml.split("\ndrawn:").nth(1).unwrap_or_default();
            let drawn = drawn.split("\nnuke:").next().unwrap_or_default();
            assert!(!drawn.contains("copy"), "{drawn}");
        }
    }

    /// Plan §2.1, §2.3 traps 3 and 7: every reader sees each faction's count of cards in the
    /// deck and the drawn cards; only the owner sees its own cards marked, never in deck
    /// order; no view holds the deck's key or order.
    #[test]
    fn the_hand_marks_show_to_their_owner_only_and_the_key_to_nobody() {
        let st = mid_turn();
        let public = view(&st, &Reader::Public);
        assert!(public.mine.is_none());
        let in_deck: u8 = public.sides.iter().map(|(_, s)| s.cards_in_deck).sum();
        assert_eq!(usize::from(in_deck) + public.drawn.len(), 9);
        let aeug = view(&st, &Reader::Side("aeug".into()));
        let mine = aeug.mine.as_ref().unwrap();
        assert_eq!(mine.cards.len(), 5);
        assert_eq!(
            mine.cards
                .iter()
                .filter(|c| c.mark == CardMark::Kept)
                .count(),
            2
        );
        let key = st.deck_seal.as_ref().unwrap().sealed.key.to_string();
        for v in [&public, &aeug] {
            let text = crate::yaml::to_string(v);
            assert!(!text.contains(&key), "the deck's key in a view");
            assert!(!render(v).contains(&key));
        }
        assert!(render(&aeug).contains("your cards: "));
        assert!(!render(&public).contains("your cards"));
    }
}

/// Plan §2.3: a seat's view and its text are the same whatever the other seats' secrets are.
#[cfg(test)]
mod leak_tests {
    use super::*;
    use crate::kit::deck::Hand;
    use crate::kit::leak::first_difference;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::policy::{PlanElse, PlanKey};
    use crate::systems::zeta::{setup, steps};

    fn mid_turn() -> State {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        let mut dice = Dice::new(Hash32([4; 32]), Hash32([5; 32])).at_step(1);
        steps::resolve(&st, &Default::default(), &mut dice)
            .unwrap()
            .state
    }

    /// Rotates `side`'s unchosen cards (hand) with its chosen ones still in the deck, in
    /// place: which of its cards it kept is its secret (10.5), the counts stay.
    fn rotate_hand_and_deck(st: &mut State, side: Side) {
        let hand: Vec<Card> = st.sides[side].hand.cards().to_vec();
        let slots: Vec<usize> = (0..st.deck.draw_pile.len())
            .filter(|i| st.deck.draw_pile.get(*i).is_some_and(|c| c.side == side))
            .collect();
        let mut pool: Vec<Card> = hand.clone();
        pool.extend(
            slots
                .iter()
                .filter_map(|i| st.deck.draw_pile.get(*i).copied()),
        );
        if pool.is_empty() {
            return;
        }
        pool.rotate_left(1);
        let (new_hand, rest) = pool.split_at(hand.len());
        st.sides[side].hand = Hand::new(new_hand.to_vec());
        for (i, c) in slots.iter().zip(rest) {
            if let Some(slot) = st.deck.draw_pile.get_mut(*i) {
                *slot = *c;
            }
        }
    }

    /// Everything `reader` may not know, changed: the other seats' hands, plans, policies and
    /// stopped orders, the deck's order, the seal's key, and (but for Titans) the nuke's base
    /// among the candidates still possible.
    fn permute_secrets(st: &State, reader: Option<Side>) -> State {
        let mut st = st.clone();
        for side in [Side::Titans, Side::Aeug, Side::NeoZeon] {
            if Some(side) == reader {
                continue;
            }
            rotate_hand_and_deck(&mut st, side);
            st.plans[side].push(Plan {
                key: PlanKey {
                    card: CardKind::Space,
                    nth: 1,
                },
                guard: None,
                then: PhaseOrders::default(),
                otherwise: PlanElse::Pass,
            });
            st.policies[side].protect = vec!["a-secret-unit".into()];
        }
        st.deck.draw_pile.reverse();
        if let Some(seal) = st.deck_seal.as_mut() {
            seal.sealed.key = Hash32([9; 32]);
        }
        if reader != Some(Side::Titans) {
            let possible = view(&st, &Reader::Public).nuke.possible;
            let other = possible.iter().find(|b| Some(*b) != st.nuke.base.as_ref());
            st.nuke.base = other.cloned();
        }
        st
    }

    fn seen(st: &State, reader: &Reader) -> (String, String) {
        let v = view(st, reader);
        (crate::yaml::to_string(&v), render(&v))
    }

    /// Plan §2.3 traps: hands, unchosen cards, deck order, the seal's key, the nuke's base,
    /// plans and policies of others leave each seat's view and text byte-identical.
    #[test]
    fn other_seats_secrets_do_not_change_a_seats_view_or_text() {
        for st in [
            setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap(),
            mid_turn(),
        ] {
            for (reader, me) in [
                (Reader::Public, None),
                (Reader::Side("titans".into()), Some(Side::Titans)),
                (Reader::Side("aeug".into()), Some(Side::Aeug)),
                (Reader::Side("neo_zeon".into()), Some(Side::NeoZeon)),
            ] {
                let other = permute_secrets(&st, me);
                assert_ne!(other, st, "the permutation changed nothing");
                let (yaml_a, text_a) = seen(&st, &reader);
                let (yaml_b, text_b) = seen(&other, &reader);
                assert_eq!(first_difference(&yaml_a, &yaml_b), None, "{reader:?} view");
                assert_eq!(first_difference(&text_a, &text_b), None, "{reader:?} text");
            }
        }
    }

    /// 36.3: only Titans read the nuke's base; the others read "hidden" and the candidates.
    #[test]
    fn only_titans_see_the_nuke_base() {
        let mut st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        // The base is chosen in the turn-1 packet (36.3): put it in one candidate here.
        let base = st.data.nuke_candidates().into_iter().next().unwrap();
        st.nuke.base = Some(base.clone());
        let titans = view(&st, &Reader::Side("titans".into()));
        assert_eq!(titans.mine.unwrap().nuke_base, Some(base.clone()));
        let aeug = view(&st, &Reader::Side("aeug".into()));
        assert_eq!(aeug.mine.as_ref().unwrap().nuke_base, None);
        assert_eq!(aeug.nuke.status, "hidden");
        assert!(aeug.nuke.possible.len() > 1);
        assert!(render(&aeug).contains("nuke: hidden"));
        assert!(!render(&aeug).contains("your nuke"));
    }

    /// The text names the turn, each base's governor and level, and units by place.
    #[test]
    fn the_text_lists_bases_units_and_characters() {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        let text = render(&view(&st, &Reader::Public));
        assert!(text.contains("turn 1"), "{text}");
        assert!(text.contains("bases:\n"), "{text}");
        assert!(text.contains(", level "), "{text}");
        assert!(text.contains("units:\n"), "{text}");
        assert!(text.contains("characters:\n"), "{text}");
        let (id, u) = st.units.iter().next().unwrap();
        assert!(text.contains(&format!("{id} ({}", u.side)), "{text}");
    }
}
