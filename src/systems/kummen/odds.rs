//! Exact chances a player may ask for: an attack succeeds when 2D6 <= attack - defense (9.9.3).
//! The answer is a count of the 36 equally likely throws, so it is exact, and it is computed
//! only from what the asking side may know.

use super::combat::p36;
use super::data::Side;
use super::state::{Place, State};
use crate::kit::seats::Seat;
use crate::systems::Reader;

/// `args`: either two numbers `ATTACK DEFENSE`, or two units `ATTACKER TARGET` (ids, or the
/// asking side's own tokens) of the game in `state`.
pub fn odds(state: Option<&State>, reader: &Reader, args: &[String]) -> Result<String, String> {
    let [a, b] = args else {
        return Err(
            "give two values: ATTACK DEFENSE (e.g. 9 4), or ATTACKER TARGET unit ids with --game"
                .into(),
        );
    };
    if let (Ok(attack), Ok(defense)) = (a.parse::<i64>(), b.parse::<i64>()) {
        return Ok(describe(
            &format!("attack {attack} against defense {defense}"),
            attack,
            defense,
        ));
    }
    let state =
        state.ok_or("unit names need a game: add --game DIR --side SIDE (or give two numbers)")?;
    let attacker = visible(state, reader, a)?;
    let target = visible(state, reader, b)?;
    let (va, vt) = (state.values(&attacker), state.values(&target));
    let what = format!(
        "{attacker} ({}-{}) attacking {target} ({}-{})",
        va.attack, va.defense, vt.attack, vt.defense
    );
    Ok(describe(&what, i64::from(va.attack), i64::from(vt.defense)))
}

/// A unit whose values `reader` may know: its own units, and the other side's face-up or
/// off-map (stock) units. A face-down enemy keeps its values hidden (2.2.3).
fn visible(state: &State, reader: &Reader, name: &str) -> Result<String, String> {
    let side = match reader {
        Reader::Side(s) => Side::parse(s),
        Reader::Public => None,
    };
    let hidden =
        || format!("{name}: its values are hidden from you (face-down or in a cup, 2.2.3)");
    let other_token = Side::ALL.iter().any(|s| {
        Some(*s) != side && state.find_own(*s, name).is_some() && !state.units.contains_key(name)
    });
    if other_token {
        return Err(hidden());
    }
    let id = side
        .and_then(|s| state.find_own(s, name))
        .or_else(|| state.units.contains_key(name).then(|| name.to_string()))
        .ok_or_else(|| {
            format!("no unit {name:?} (use an id such as M-AT03, or a token such as B#7)")
        })?;
    let unit = state.unit(&id).ok_or_else(|| format!("no unit {name:?}"))?;
    let own = side.is_some() && state.side_of(&id) == side;
    let public = (unit.place == Place::Map && unit.face_up) || unit.place == Place::Stock;
    if own || public {
        Ok(id)
    } else {
        Err(format!(
            "{name}: its values are hidden from you (face-down or in a cup, 2.2.3)"
        ))
    }
}

fn describe(what: &str, attack: i64, defense: i64) -> String {
    let hit = attack - defense;
    let k = p36(hit);
    let g = gcd(k, 36).max(1);
    // In lowest terms; a whole number (never or always) is printed as one, not as 0/1 or 1/1.
    let fraction = if 36 / g == 1 {
        (k / g).to_string()
    } else {
        format!("{}/{}", k / g, 36 / g)
    };
    let percent_x100 = (u64::from(k) * 10_000 + 18) / 36;
    format!(
        "{what}: hit number {hit}; 2D6 <= {hit} in {k} of 36 throws = {fraction} = {}.{:02}% (9.9.3)\n",
        percent_x100 / 100,
        percent_x100 % 100
    )
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(a: &str, b: &str) -> String {
        odds(None, &Reader::Public, &[a.to_string(), b.to_string()]).unwrap()
    }

    #[test]
    fn chances_are_exact_fractions_of_36_9_9_3() {
        assert!(
            ask("9", "4").contains("hit number 5; 2D6 <= 5 in 10 of 36 throws = 5/18 = 27.78%")
        );
        assert!(ask("12", "6").contains("in 15 of 36 throws = 5/12 = 41.67%"));
    }

    #[test]
    fn never_and_always_are_printed_as_0_and_1_not_as_fractions_9_9_3() {
        let never = ask("7", "6");
        assert!(
            never.contains("in 0 of 36 throws = 0 = 0.00%") && !never.contains("0/1"),
            "{never}"
        );
        let always = ask("20", "2");
        assert!(
            always.contains("in 36 of 36 throws = 1 = 100.00%") && !always.contains("1/1"),
            "{always}"
        );
    }

    #[test]
    fn a_face_down_enemy_keeps_its_values_hidden_2_2_3() {
        let mut s = super::super::fixtures::blank();
        super::super::fixtures::put(&mut s, "B-AT01", "K07", false);
        super::super::fixtures::put(&mut s, "M-AT01", "K07", true);
        let merc = Reader::Side("mercenary".into());
        let err = odds(Some(&s), &merc, &["M-AT01".into(), "B-AT01".into()]).unwrap_err();
        assert!(err.contains("hidden"), "{err}");
        let by_token = odds(Some(&s), &merc, &["M-AT01".into(), "B#1".into()]).unwrap_err();
        assert!(
            by_token.contains("hidden") && !by_token.contains("B-AT01"),
            "{by_token}"
        );
        let beeler = Reader::Side("beeler".into());
        let ok = odds(Some(&s), &beeler, &["B#1".into(), "M-AT01".into()]).unwrap();
        assert!(
            ok.contains("B-AT01 (9-4) attacking M-AT01 (9-4): hit number 5"),
            "{ok}"
        );
    }
}
