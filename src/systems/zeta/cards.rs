//! The action cards (10-11): the choice of three (with guarded alternatives judged on the
//! deployed board, plan §4.1 and §12/F4), the sealed shuffle of the nine (plan §2.2), the draw
//! of each card, and at the turn's end the cards' return and the deck's audit (the reveal of
//! the sealed shuffle, plan §12 "Open 3").

use super::ctx::{Choice, Ctx};
use super::data::{PerSide, Side};
use super::guard;
use super::labels;
use super::orders::{CardChoice, CardEcho};
use super::state::{Card, CardKind, DeckSeal, Stage};
use crate::kit::reach::fire;
use crate::kit::seats::Seat;
use crate::protocol::dice::shuffle_ranges;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The five sets of three a faction may choose from its Space 1-2, Ground 1-2 and
/// Atmosphere (10.2), in the order a template lists them.
pub const SETS: [[CardKind; 3]; 5] = {
    use CardKind::{Atmosphere as A, Ground as G, Space as S};
    [[S, S, G], [S, S, A], [S, G, G], [S, G, A], [G, G, A]]
};

/// What a faction takes when it chose nothing or nothing that holds (plan §1.7).
pub const DEFAULT_SET: [CardKind; 3] = [CardKind::Space, CardKind::Ground, CardKind::Atmosphere];

/// How many cards of `kind` a faction owns (10.2).
fn owned(kind: CardKind) -> usize {
    match kind {
        CardKind::Atmosphere => 1,
        CardKind::Space | CardKind::Ground => 2,
    }
}

/// Whether three kinds can be taken from one hand (10.2-10.3): exactly three, no kind more
/// often than the hand holds it.
fn legal_set(kinds: &[CardKind], at: &FieldPath) -> Result<(), Problem> {
    let listing = "one of [space, space, ground], [space, space, atmosphere], [space, ground, \
                   ground], [space, ground, atmosphere], [ground, ground, atmosphere]";
    if kinds.len() != 3 {
        return Err(Problem::new(
            at.clone(),
            "10.3",
            format!(
                "{} cards chosen: every faction chooses exactly three",
                kinds.len()
            ),
            listing,
        ));
    }
    for kind in CardKind::ALL {
        let n = kinds.iter().filter(|k| **k == kind).count();
        if n > owned(kind) {
            return Err(Problem::new(
                at.clone(),
                "10.2",
                format!(
                    "{n} {} cards chosen: a faction holds only {}",
                    kind.name(),
                    owned(kind)
                ),
                listing,
            ));
        }
    }
    Ok(())
}

/// Whether a card choice (plain or guarded) is legal (10.2-10.3, plan §4.1): each set one a
/// hand can give, each guard well formed, and a last alternative without a guard, so some
/// alternative always applies.
pub fn legal_card_choice(
    ctx: &Ctx<'_>,
    side: Side,
    item: &CardChoice,
    at: &FieldPath,
) -> Result<(), Problem> {
    match item {
        CardChoice::Plain(kinds) => legal_set(kinds, at),
        CardChoice::Guarded(alts) => {
            let Some(last) = alts.last() else {
                return Err(Problem::new(
                    at.clone(),
                    "10.3",
                    "no alternative: every faction chooses three cards",
                    "a list of three kinds, or alternatives `{if: <guard>, choose: [..]}`",
                ));
            };
            for (i, alt) in alts.iter().enumerate() {
                let here = at.at(i);
                legal_set(&alt.choose, &here.at("choose"))?;
                if let Some(g) = &alt.guard {
                    guard::legal_guard(ctx, side, g, &here.at("if"))?;
                } else if i + 1 < alts.len() {
                    return Err(Problem::new(
                        here.clone(),
                        "",
                        "an alternative without `if` always applies, so the ones after it \
                         never would",
                        "the alternative without `if` last",
                    ));
                }
            }
            if last.guard.is_some() {
                return Err(Problem::new(
                    at.at(alts.len() - 1).at("if"),
                    "10.3",
                    "the last alternative has a guard: if no guard held, no cards would be \
                     chosen",
                    "a last alternative with `choose` only",
                ));
            }
            Ok(())
        }
    }
}

/// The legal sets of three kinds (10.2-10.3), as `legal_card_choice` judges them.
pub fn card_choices(ctx: &Ctx<'_>, side: Side) -> Vec<Choice<Vec<CardKind>>> {
    let at = FieldPath::root().at("orders").at("cards");
    SETS.iter()
        .filter(|set| legal_card_choice(ctx, side, &CardChoice::Plain(set.to_vec()), &at).is_ok())
        .map(|set| Choice {
            item: set.to_vec(),
            note: String::new(),
        })
        .collect()
}

/// The kinds `side` takes this turn: the first alternative whose guard holds on the board as
/// deployment left it (plan §4.1, §12/F4), or the default when nothing applies (plan §1.7).
/// Its side is told which, privately.
pub fn chosen_kinds(ctx: &mut Ctx<'_>, side: Side, choice: Option<&CardChoice>) -> Vec<CardKind> {
    let at = FieldPath::root().at("orders").at("cards");
    let picked = match choice {
        None => None,
        Some(c) if legal_card_choice(ctx, side, c, &at).is_err() => None,
        Some(CardChoice::Plain(kinds)) => Some((kinds.clone(), None)),
        Some(CardChoice::Guarded(alts)) => alts
            .iter()
            .enumerate()
            .find(|(_, a)| {
                a.guard
                    .as_ref()
                    .is_none_or(|g| guard::holds(ctx, side, g) == Some(true))
            })
            .map(|(i, a)| (a.choose.clone(), Some(i + 1))),
    };
    let mut kinds = match picked {
        Some((kinds, alt)) => {
            let which = alt.map_or(String::new(), |i| format!(" (alternative {i})"));
            ctx.log.private(
                side,
                format!("your cards this turn: {}{which} (10.2)", names(&kinds)),
            );
            kinds
        }
        None => {
            let kinds = DEFAULT_SET.to_vec();
            ctx.log.private(
                side,
                format!(
                    "no card choice to take: your cards this turn are {} (10.3)",
                    names(&kinds)
                ),
            );
            kinds
        }
    };
    kinds.sort();
    kinds
}

/// Takes the cards of `kinds` out of `side`'s hand, the lowest copy of a kind first (copies
/// of a kind are alike, so this fixes the cards from the kinds alone, which the turn's end
/// makes public). Kinds the hand lacks are left out (never happens with a legal set).
pub fn take_from_hand(ctx: &mut Ctx<'_>, side: Side, kinds: &[CardKind]) -> Vec<Card> {
    let mut out = Vec::new();
    for kind in kinds {
        let hand = &mut ctx.state.sides[side].hand;
        let card = hand.cards().iter().find(|c| c.kind == *kind).copied();
        if let Some(card) = card
            && hand.take(&card)
        {
            out.push(card);
        }
    }
    out
}

/// Puts the chosen cards into the deck and shuffles it sealed under `t<T>/deck` (10.4), and
/// commits to the shuffle's key in this step's record, keeping the key in the state for the
/// reveal at the turn's end (plan §12 "Open 3").
pub fn shuffle_deck(ctx: &mut Ctx<'_>, chosen: &[Card]) {
    fire("10.4");
    let turn = ctx.state.turn;
    let label = labels::deck(turn);
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    ctx.state.deck.shuffle_in(
        chosen.to_vec(),
        dice,
        &label,
        &format!("turn {turn}: the nine action cards"),
    );
    let sealed = dice.commit_sealed_key(&label);
    ctx.state.deck_seal = Some(DeckSeal {
        sealed,
        size: u32::try_from(ctx.state.deck.draw_pile.len()).unwrap_or(u32::MAX),
    });
    let counts = Side::ALL
        .iter()
        .map(|s| {
            let n = chosen.iter().filter(|c| c.side == *s).count();
            format!("{s} {n}")
        })
        .collect::<Vec<_>>()
        .join(", ");
    ctx.log.public(format!(
        "turn {turn}: the action deck is shuffled, {} cards ({counts}) (10.4)",
        chosen.len()
    ));
}

/// Draws the card of action phase `k` and shows it to everyone (11.2, 11.3).
pub fn draw(ctx: &mut Ctx<'_>, k: u8) -> Option<Card> {
    let card = ctx.state.deck.take_top()?;
    fire("11.2");
    ctx.state.drawn.push(card);
    ctx.log.public(format!(
        "turn {}, action phase {k}: {} draws its {} card (11.2)",
        ctx.state.turn,
        card.side,
        card.kind.name()
    ));
    // Plan §12/F3: the phase opens with its card, and what the book rolls at its start (the
    // colony landing 35.7, a demolition by standing policy 36.4) is rolled now, before the
    // drawn faction writes its orders.
    let turn = match ctx.state.stage {
        Stage::Packet { turn } | Stage::Phase { turn, .. } => turn,
        _ => ctx.state.turn,
    };
    ctx.state.stage = Stage::Phase { turn, k, card };
    super::phase_start::resolve_at_draw(ctx, k, card);
    Some(card)
}

/// Which of its cards of this kind a drawn card is for its faction this turn: 1 or 2
/// (a plan's `nth`, Z-5).
pub fn nth_of_kind(drawn: &[Card], card: Card) -> u8 {
    let n = drawn
        .iter()
        .filter(|c| c.side == card.side && c.kind == card.kind)
        .count();
    u8::try_from(n).unwrap_or(u8::MAX)
}

/// Returns the drawn cards to their hands (11.5) and writes the deck's audit: the cards in
/// the order drawn, the deck they were shuffled from, each faction's chosen kinds, and the
/// reveal of the sealed shuffle, so anyone can check that the order drawn is the shuffle
/// committed in the packet step (plan §12 "Open 3"). A turn that ended in the step that
/// shuffled cannot reveal in that step (a reveal names an earlier step): it is revealed at
/// the start of the next one ([`reveal_due`]).
pub fn end_of_turn(ctx: &mut Ctx<'_>, turn: u8) {
    fire("11.4");
    fire("11.5");
    let drawn = std::mem::take(&mut ctx.state.drawn);
    let order = drawn.iter().map(card_name).collect::<Vec<_>>().join(", ");
    ctx.log.public(format!(
        "turn {turn}: the cards in the order drawn: {order}"
    ));
    let mut sorted = drawn.clone();
    sorted.sort();
    ctx.log.public(format!(
        "turn {turn}: the deck before its shuffle (sorted): {}",
        sorted.iter().map(card_name).collect::<Vec<_>>().join(", ")
    ));
    let mut chosen = PerSide::<Vec<CardKind>>::default();
    for c in &drawn {
        chosen[c.side].push(c.kind);
    }
    for (side, kinds) in chosen.iter() {
        let mut kinds = kinds.clone();
        kinds.sort();
        ctx.log.public(format!(
            "turn {turn}: {side} chose {} (10.2)",
            names(&kinds)
        ));
    }
    for c in drawn {
        ctx.state.sides[c.side].hand.put(c);
    }
    // Cards left in the deck (none when all nine were drawn) go home as well.
    for c in std::mem::take(&mut ctx.state.deck.draw_pile) {
        ctx.state.sides[c.side].hand.put(c);
    }
    reveal_due(ctx);
}

/// Reveals a turn's sealed shuffle whose turn is over (the deck is empty and no phase of its
/// turn is open) from a step later than the one that shuffled. Called at the turn's end, and
/// at the start of a packet step for a turn that ended in the step that shuffled.
pub fn reveal_due(ctx: &mut Ctx<'_>) {
    let Some(seal) = ctx.state.deck_seal.clone() else {
        return;
    };
    let in_turn = matches!(ctx.state.stage, Stage::Phase { .. } | Stage::Ask { .. })
        && !ctx.state.deck.draw_pile.is_empty();
    let Some(dice) = ctx.dice.as_deref_mut() else {
        return;
    };
    // The engine gives the step being resolved; a reveal names an earlier one.
    if seal.sealed.step >= dice.step() || in_turn {
        return;
    }
    let size = usize::try_from(seal.size).unwrap_or(0);
    dice.reveal_sealed(&seal.sealed, shuffle_ranges(size));
    ctx.log.public(format!(
        "the shuffle {} of step {} is revealed with its key: check it against the cards drawn \
         (docs/dice.md, sealed reveals)",
        seal.sealed.label, seal.sealed.step
    ));
    ctx.state.deck_seal = None;
}

/// Whether the drawn card a phase's orders echo is the card drawn (11.2).
pub fn legal_card_echo(
    ctx: &Ctx<'_>,
    side: Side,
    echo: &CardEcho,
    at: &FieldPath,
) -> Result<(), Problem> {
    let Stage::Phase { card, .. } = ctx.state.stage else {
        return Err(Problem::new(
            at.clone(),
            "11.2",
            "no card is drawn now",
            "no `card` outside an action phase step",
        ));
    };
    if echo.side != card.side || echo.kind != card.kind || side != card.side {
        return Err(Problem::new(
            at.clone(),
            "11.2",
            format!(
                "the card drawn is {}'s {} card, not {}'s {} card",
                card.side,
                card.kind.name(),
                echo.side,
                echo.kind.name()
            ),
            format!("{{side: {}, kind: {}}}", card.side, card.kind.name()),
        ));
    }
    Ok(())
}

fn names(kinds: &[CardKind]) -> String {
    kinds
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn card_name(c: &Card) -> String {
    format!("{} {} {}", c.side, c.kind.name(), c.copy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::DataSource;
    use crate::systems::zeta::ctx::Moment;
    use crate::systems::zeta::data::{Loc, Place};
    use crate::systems::zeta::orders::Orders;
    use crate::systems::zeta::setup;
    use crate::systems::zeta::state::{State, Unit};

    fn ctx() -> Ctx<'static> {
        let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
        Ctx::new(st, None, Moment::Check)
    }

    fn choice(text: &str) -> CardChoice {
        crate::yaml::parse_order::<Orders>(&format!("cards: {text}\n"), "o.yaml")
            .unwrap()
            .cards
            .unwrap()
    }

    fn refusal(text: &str) -> Problem {
        let at = FieldPath::root().at("orders").at("cards");
        legal_card_choice(&ctx(), Side::Aeug, &choice(text), &at).unwrap_err()
    }

    #[test]
    fn the_five_sets_of_three_are_the_choices_10_2() {
        let c = card_choices(&ctx(), Side::Titans);
        assert_eq!(c.len(), 5);
        assert!(c.iter().all(|c| c.item.len() == 3));
    }

    #[test]
    fn two_or_four_cards_are_refused_10_3() {
        let p = refusal("[space, ground]");
        assert_eq!(p.rule.as_deref(), Some("10.3"));
        assert!(p.message.contains("2 cards chosen"), "{}", p.message);
        let p = refusal("[space, ground, ground, atmosphere]");
        assert!(p.message.contains("4 cards chosen"), "{}", p.message);
    }

    #[test]
    fn more_cards_of_a_kind_than_a_hand_holds_are_refused_10_2() {
        let p = refusal("[space, space, space]");
        assert_eq!(p.rule.as_deref(), Some("10.2"));
        assert!(p.message.contains("3 space cards chosen"), "{}", p.message);
        let p = refusal("[space, atmosphere, atmosphere]");
        assert!(p.message.contains("2 atmosphere cards"), "{}", p.message);
    }

    #[test]
    fn a_guarded_choice_needs_a_last_alternative_without_a_guard() {
        let p = refusal("[{if: {turn: 2}, choose: [space, ground, atmosphere]}]");
        assert!(
            p.message.contains("last alternative has a guard"),
            "{}",
            p.message
        );
        let p =
            refusal("[{choose: [space, ground, atmosphere]}, {choose: [space, space, ground]}]");
        assert!(p.message.contains("never would"), "{}", p.message);
        let p = refusal(
            "[{if: {phase_min: 0}, choose: [space, ground, atmosphere]}, {choose: [space, space, ground]}]",
        );
        assert!(p.message.contains("no action phase 0"), "{}", p.message);
    }

    /// Plan §4.1, §12/F4: the first alternative whose guard holds on the board is taken.
    #[test]
    fn a_guarded_choice_takes_the_first_alternative_that_holds() {
        let c = choice(
            "[{if: {units_on: {side: neo_zeon, map: ground, min: 1}}, choose: [ground, ground, atmosphere]}, {choose: [space, space, atmosphere]}]",
        );
        let mut x = ctx();
        let kinds = chosen_kinds(&mut x, Side::Aeug, Some(&c));
        assert_eq!(
            kinds,
            [CardKind::Space, CardKind::Space, CardKind::Atmosphere]
        );
        // A Neo Zeon unit on the ground map makes the first alternative hold.
        let mut st: State = x.state.clone();
        st.units.insert(
            "n-gaza-c-99".into(),
            Unit {
                side: Side::NeoZeon,
                type_id: "gaza_c".into(),
                place: Place::Hex(Loc::parse("ground:J05").unwrap()),
                face: Default::default(),
                carrier: None,
                action: None,
                atmo_moved: false,
                placed_this_phase: false,
            },
        );
        let mut x = Ctx::new(st, None, Moment::Resolve);
        let kinds = chosen_kinds(&mut x, Side::Aeug, Some(&c));
        assert_eq!(
            kinds,
            [CardKind::Ground, CardKind::Ground, CardKind::Atmosphere]
        );
        let (_, private) = x.log.into_lines();
        assert!(private["aeug"][0].contains("alternative 1"), "{private:?}");
    }

    #[test]
    fn taking_from_the_hand_takes_the_lowest_copy_first() {
        let mut x = ctx();
        let got = take_from_hand(&mut x, Side::Titans, &[CardKind::Space, CardKind::Ground]);
        assert_eq!(
            got.iter().map(|c| (c.kind, c.copy)).collect::<Vec<_>>(),
            [(CardKind::Space, 1), (CardKind::Ground, 1)]
        );
        assert_eq!(x.state.sides[Side::Titans].hand.len(), 3);
    }

    #[test]
    fn a_card_echo_that_is_not_the_drawn_card_is_refused_11_2() {
        let mut x = ctx();
        let drawn = Card {
            side: Side::Aeug,
            kind: CardKind::Space,
            copy: 1,
        };
        x.state.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: drawn,
        };
        let at = FieldPath::root().at("orders").at("card");
        let echo = CardEcho {
            side: Side::Aeug,
            kind: CardKind::Ground,
        };
        let p = legal_card_echo(&x, Side::Aeug, &echo, &at).unwrap_err();
        assert!(p.message.contains("aeug's space card"), "{}", p.message);
        let echo = CardEcho {
            side: Side::Aeug,
            kind: CardKind::Space,
        };
        assert!(legal_card_echo(&x, Side::Aeug, &echo, &at).is_ok());
    }

    #[test]
    fn nth_counts_the_factions_drawn_cards_of_the_kind() {
        let c = |side, kind, copy| Card { side, kind, copy };
        let drawn = [
            c(Side::Aeug, CardKind::Space, 2),
            c(Side::Titans, CardKind::Space, 1),
            c(Side::Aeug, CardKind::Space, 1),
        ];
        assert_eq!(nth_of_kind(&drawn, drawn[2]), 2);
        assert_eq!(nth_of_kind(&drawn, drawn[1]), 1);
    }
}

#[cfg(test)]
#[path = "cards_rules_tests.rs"]
mod rules_tests;
