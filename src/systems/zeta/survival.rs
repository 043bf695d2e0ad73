//! Survival checks (27) and where a survivor goes when its unit is gone (27.5, A-27, A-54).
//! Combat calls them after each step (27.4); other rules (15.7, 31.5.9, 35.7.3, 36.5) call
//! [`survival`] with their own label and modifier.

use super::ctx::Ctx;
use super::data::{Class, Loc, Place, Survival};
use super::state::{CharPlace, Wound};

/// One survival check of `char` (27.3) with `modifier` added to the die (31.5.9: +1; a total
/// over 6 reads the 6 entry, A-29), rolled under `label`. Applies the result at once (27.3.1-
/// 27.3.5) and returns it; `None` when nothing is rolled (a `check` simulation, or a character
/// that is not in play).
pub fn survival(ctx: &mut Ctx<'_>, char: &str, modifier: u8, label: &str) -> Option<Survival> {
    let def = ctx.data.character(char)?.clone();
    let side = ctx.state.chars.get(char)?.side;
    let dice = ctx.dice.as_deref_mut()?;
    let die = dice.d6(label);
    let index = die.saturating_add(u32::from(modifier)).clamp(1, 6);
    let result = *def.survival.get(usize::try_from(index - 1).ok()?)?;
    dice.set_result(label, format!("{result:?}"));
    let plus = if modifier > 0 {
        format!(" + {modifier}")
    } else {
        String::new()
    };
    let what = match result {
        Survival::Ok => {
            crate::kit::reach::fire("27.3");
            "unharmed".to_string()
        }
        Survival::G => grow(ctx, char),
        Survival::L => wound(ctx, char, Wound::L, "27.3.2"),
        Survival::M => wound(ctx, char, Wound::M, "27.3.3"),
        Survival::H => wound(ctx, char, Wound::H, "27.3.4"),
        Survival::D => {
            crate::kit::reach::fire("27.3.5");
            if let Some(c) = ctx.state.chars.get_mut(char) {
                c.place = CharPlace::Dead;
            }
            // 29.4.1: Neo Zeon's Ple's death sets off the Ple chains.
            if char == "ple_nz" {
                super::character::ple_removed(ctx);
            }
            "dies (27.3.5)".to_string()
        }
    };
    ctx.log.public(format!(
        "{side} {} survival check: {die}{plus}: {what}",
        def.name
    ));
    Some(result)
}

fn wound(ctx: &mut Ctx<'_>, char: &str, w: Wound, rule: &'static str) -> String {
    crate::kit::reach::fire(rule);
    if let Some(c) = ctx.state.chars.get_mut(char) {
        c.place = CharPlace::Wounded(w);
    }
    format!("wounded, to box {w:?} ({rule})")
}

/// 27.3.1: (1) is swapped for (2) at once, in (1)'s place. Without a (2), or with (2) already
/// in play or dead, nothing happens.
fn grow(ctx: &mut Ctx<'_>, char: &str) -> String {
    let Some(next) = ctx.data.character(char).and_then(|d| d.grows_to.clone()) else {
        return "no growth for this character (A-28)".into();
    };
    let ready = matches!(
        ctx.state.chars.get(&next).map(|c| &c.place),
        Some(CharPlace::Track) | Some(CharPlace::ToDeploy { .. }) | None
    );
    let Some(here) = ctx.state.chars.get(char).map(|c| (c.side, c.place.clone())) else {
        return "not in play".into();
    };
    if !ready {
        return format!("{next} is already in play: no growth (A-31)");
    }
    crate::kit::reach::fire("27.3.1");
    ctx.state.chars.insert(
        next.clone(),
        super::state::Character {
            side: here.0,
            place: here.1,
        },
    );
    if let Some(c) = ctx.state.chars.get_mut(char) {
        c.place = CharPlace::Replaced;
    }
    format!("grows into {next} (27.3.1)")
}

/// Whether a character still in play needs a new place: it was aboard a unit that is gone.
pub fn stranded(ctx: &Ctx<'_>, char: &str) -> bool {
    match ctx.state.chars.get(char).map(|c| &c.place) {
        Some(CharPlace::Aboard(u)) => !ctx.state.units.contains_key(u),
        _ => false,
    }
}

/// A survivor whose unit is gone (27.5, A-27, A-54): aboard an own ship in `at` (lowest id),
/// else an own MS there it may pilot with nobody aboard, else the same in the nearest hex with
/// own units (same map first, then distance, then hex label). With no own unit anywhere it
/// stays alone in `at` and the end-of-phase existence check (15.7) judges it.
pub fn rehome(ctx: &mut Ctx<'_>, char: &str, at: Loc) {
    let Some(side) = ctx.state.chars.get(char).map(|c| c.side) else {
        return;
    };
    let can_pilot = ctx
        .data
        .character(char)
        .is_some_and(|d| d.ms_attack > 0 || d.ms_defense > 0);
    let seat_in = |ctx: &Ctx<'_>, loc: Loc| -> Option<String> {
        let own = |class: Class| {
            ctx.state.units.iter().filter(move |(_, u)| {
                u.side == side
                    && u.place == Place::Hex(loc)
                    && ctx
                        .data
                        .unit_type(&u.type_id)
                        .is_some_and(|t| t.class == class)
            })
        };
        if let Some((id, _)) = own(Class::Ship).next() {
            return Some(id.clone());
        }
        if !can_pilot {
            return None;
        }
        own(Class::Ms)
            .find(|(id, _)| {
                !ctx.state
                    .chars
                    .values()
                    .any(|c| matches!(&c.place, CharPlace::Aboard(u) if u == *id))
            })
            .map(|(id, _)| id.clone())
    };
    let mut hexes: Vec<Loc> = ctx
        .state
        .units
        .values()
        .filter(|u| u.side == side)
        .filter_map(|u| u.place.loc())
        .collect();
    hexes.sort_by_key(|l| {
        (
            l.map != at.map,
            ctx.data.distance(at, *l).unwrap_or(u32::MAX),
            l.label(),
        )
    });
    hexes.dedup();
    for loc in hexes {
        if let Some(unit) = seat_in(ctx, loc) {
            crate::kit::reach::fire("27.5");
            if let Some(c) = ctx.state.chars.get_mut(char) {
                c.place = CharPlace::Aboard(unit.clone());
            }
            let moved = if loc == at {
                String::new()
            } else {
                format!(" in {}", loc.label())
            };
            ctx.log
                .public(format!("{side} {char} boards {unit}{moved} (A-27)"));
            return;
        }
    }
    if let Some(c) = ctx.state.chars.get_mut(char) {
        c.place = CharPlace::Solo(at);
    }
    ctx.log.public(format!(
        "{side} {char} is left alone in {} (A-27)",
        at.label()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::DataSource;
    use crate::systems::zeta::ctx::Moment;
    use crate::systems::zeta::data::Side;
    use crate::systems::zeta::setup;
    use crate::systems::zeta::state::State;

    fn start() -> State {
        setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
    }

    fn dice() -> Dice {
        Dice::new(Hash32([4; 32]), Hash32([5; 32]))
    }

    /// A label whose die shows `face` with [`dice`]'s seed.
    fn label_showing(face: u32) -> String {
        let mut probe = dice();
        (0..200)
            .map(|i| format!("t1/p1/test/{i}"))
            .find(|l| probe.d6(l) == face)
            .unwrap()
    }

    fn roll(s: State, char: &str, modifier: u8, label: &str) -> (State, Option<Survival>) {
        let mut d = dice();
        let mut ctx = Ctx::new(s, Some(&mut d), Moment::Resolve);
        let r = survival(&mut ctx, char, modifier, label);
        (ctx.state, r)
    }

    #[test]
    fn a_total_over_six_reads_the_last_entry_a29_and_d_kills_27_3_5() {
        // Emma (1): [G, ok, L, L, M, D]; any die + 5 reads D.
        let (s, r) = roll(start(), "emma_1", 5, "t1/p1/x");
        assert_eq!(r, Some(Survival::D));
        assert_eq!(s.chars["emma_1"].place, CharPlace::Dead);
    }

    #[test]
    fn h_sends_the_character_to_box_h_27_3_4() {
        // Kamille (1): [G, G, ok, L, M, H].
        let (s, r) = roll(start(), "kamille_1", 5, "t1/p1/x");
        assert_eq!(r, Some(Survival::H));
        assert_eq!(s.chars["kamille_1"].place, CharPlace::Wounded(Wound::H));
    }

    #[test]
    fn l_and_m_wound_27_3_2_27_3_3() {
        let (s, r) = roll(start(), "kamille_1", 0, &label_showing(4));
        assert_eq!(r, Some(Survival::L));
        assert_eq!(s.chars["kamille_1"].place, CharPlace::Wounded(Wound::L));
        let (s, r) = roll(start(), "kamille_1", 0, &label_showing(5));
        assert_eq!(r, Some(Survival::M));
        assert_eq!(s.chars["kamille_1"].place, CharPlace::Wounded(Wound::M));
    }

    #[test]
    fn g_swaps_one_for_two_in_place_27_3_1() {
        let before = start();
        let place = before.chars["kamille_1"].place.clone();
        let (s, r) = roll(before, "kamille_1", 0, &label_showing(1));
        assert_eq!(r, Some(Survival::G));
        assert_eq!(s.chars["kamille_1"].place, CharPlace::Replaced);
        assert_eq!(s.chars["kamille_2"].place, place);
        assert_eq!(s.chars["kamille_2"].side, Side::Aeug);
    }

    #[test]
    fn unharmed_changes_nothing_27_3() {
        let before = start();
        let (s, r) = roll(before.clone(), "kamille_1", 0, &label_showing(3));
        assert_eq!(r, Some(Survival::Ok));
        assert_eq!(s.chars, before.chars);
    }

    #[test]
    fn nothing_is_rolled_without_dice() {
        let mut ctx = Ctx::new(start(), None, Moment::Check);
        assert_eq!(survival(&mut ctx, "kamille_1", 0, "x"), None);
    }

    #[test]
    fn a_survivor_boards_an_own_ship_in_the_hex_first_a27() {
        let mut s = start();
        // Kamille's carrier is gone; the Argama is in the same hex.
        s.chars.get_mut("kamille_1").unwrap().place = CharPlace::Aboard("a-gone-1".into());
        let at = Loc::parse("space:C05").unwrap();
        let mut ctx = Ctx::new(s, None, Moment::Resolve);
        assert!(stranded(&ctx, "kamille_1"));
        rehome(&mut ctx, "kamille_1", at);
        assert_eq!(
            ctx.state.chars["kamille_1"].place,
            CharPlace::Aboard("a-argama-1".into())
        );
    }

    #[test]
    fn a_survivor_with_nobody_left_goes_to_the_nearest_own_hex_27_5() {
        let mut s = start();
        s.chars.get_mut("jerid_1").unwrap().place = CharPlace::Aboard("t-gone-1".into());
        // Nothing of Titans at C05: the nearest own hex is Green Noa (C02) on the space map.
        let at = Loc::parse("space:C05").unwrap();
        let mut ctx = Ctx::new(s, None, Moment::Resolve);
        rehome(&mut ctx, "jerid_1", at);
        assert_eq!(
            ctx.state.chars["jerid_1"].place,
            CharPlace::Aboard("t-alexandria-1".into())
        );
    }
}
