//! Exact chances a player may ask for (`pbem odds`), as counts of equally likely throws: a die
//! against a value (14.3, 15.4, 16.3: a hit on a roll at most the value, worth the die's face),
//! a check against a number (13.3 capture, 19.6 security), the 20.3.2 roll, and, with a game,
//! the expected hits of each side in a contested hex. Units are public, so every side may ask
//! about every hex; card modifiers played during a combat are not known in advance and are left
//! out.

use super::damage;
use super::data::{Class, HexId, HexRef, Side};
use super::state::{State, UnitAt};
use super::victory;
use crate::systems::Reader;

const USAGE: &str = "ask: roll VALUE | check TARGET | federal LIB_UNITS, or with --game: \
combat HEX | federal";

/// Expected hits of one die against `v`, in twelfths: the faces 1..=v each score their face,
/// so the sum is v(v+1)/2 sixths.
fn twelfths(v: u32) -> u32 {
    let v = v.min(6);
    v * (v + 1)
}

/// Throws of 3d6 (out of 216) whose total plus `bonus` reaches `need`.
fn three_d6_at_least(need: u32, bonus: u32) -> u32 {
    let mut n = 0;
    for x in 1..=6 {
        for y in 1..=6 {
            for z in 1..=6 {
                if x + y + z + bonus >= need {
                    n += 1;
                }
            }
        }
    }
    n
}

fn pct(num: u32, den: u32) -> String {
    format!("{:.2}%", f64::from(num) * 100.0 / f64::from(den))
}

fn number(word: &str, what: &str) -> Result<u32, String> {
    word.parse()
        .map_err(|_| format!("{what} must be a whole number, not {word:?}; {USAGE}"))
}

pub fn odds(state: Option<&State>, reader: &Reader, args: &[String]) -> Result<String, String> {
    let _ = reader; // everything these answers use is public (units, open cards)
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match (words.as_slice(), state) {
        (["roll", v], _) => {
            let v = number(v, "VALUE")?;
            let hits = v.min(6);
            if hits == 0 {
                // No face hits: say so rather than print an empty fraction.
                return Ok(format!(
                    "one die against {v}: no face hits, so such a unit rolls no die; expected hits 0 (14.3, 15.4, 16.3)\n"
                ));
            }
            Ok(format!(
                "one die against {v}: a hit on {hits} of 6 faces = {}, worth the face; expected hits {}/12 = {:.2} (14.3-14.4, 15.4-15.5, 16.3-16.4)\n",
                pct(hits, 6),
                twelfths(v),
                f64::from(twelfths(v)) / 12.0
            ))
        }
        (["check", t], _) => {
            let t = number(t, "TARGET")?;
            let ok = t.min(6);
            Ok(format!(
                "a check against {t} succeeds on {ok} of 6 faces = {} (13.3 capture, 19.6 security)\n",
                pct(ok, 6)
            ))
        }
        (["federal", units], _) => {
            let need = number(units, "LIB_UNITS")?;
            let plain = three_d6_at_least(need, 0);
            let plus = three_d6_at_least(need, victory::NO_DOUGRAM_BONUS);
            Ok(format!(
                "20.3.2 with {need} Lib units on the map: Fed wins on {plain} of 216 throws = {} with a Dougram on the map, {plus} of 216 = {} without (+{})\n",
                pct(plain, 216),
                pct(plus, 216),
                victory::NO_DOUGRAM_BONUS
            ))
        }
        (["federal"], Some(s)) => {
            let (n, d) = victory::fed_check_chance(s);
            let vp = s.lib_vp();
            let note = if s.flag(&super::cards::Flag::LibGovernment) {
                "card 29 is open, so 20.3.1 decides instead"
            } else if vp > 0 {
                "Lib holds VP now, so no roll is made (20.3.2)"
            } else {
                "Lib holds 0 VP now, so the roll is made at the victory check"
            };
            Ok(format!(
                "20.3.2 now: {} Lib units on the map{}: Fed wins on {n} of {d} throws = {} ({note})\n",
                victory::lib_units_on_map(s),
                if victory::dougram_on_map(s) {
                    ""
                } else {
                    ", no Dougram (+3)"
                },
                pct(n, d)
            ))
        }
        (["combat", hex], Some(s)) => combat(s, hex),
        (["combat", _] | ["federal"], None) => Err(format!(
            "that question needs a game: add --game DIR --side SIDE; {USAGE}"
        )),
        _ => Err(USAGE.to_string()),
    }
}

/// Expected hits of each side in each step of a combat in `hex` as the units stand.
fn combat(s: &State, word: &str) -> Result<String, String> {
    let hex: HexId = HexRef::Place(word.to_string())
        .resolve(&s.data.map)
        .ok_or_else(|| format!("{word:?} is not a land hex or place on the map"))?;
    let units = |side: Side| -> Vec<String> {
        s.units
            .iter()
            .filter(|(_, u)| u.at == UnitAt::Hex(hex) && u.side == side)
            .map(|(id, _)| id.clone())
            .collect()
    };
    let (lib, fed) = (units(Side::Lib), units(Side::Fed));
    if lib.is_empty() || fed.is_empty() {
        return Ok(format!(
            "hex {hex} does not hold units of both sides: no combat there (12.3)\n"
        ));
    }
    let mut out = vec![format!("combat at hex {hex}, before cards (12-16):")];
    let (mercs, regs): (Vec<String>, Vec<String>) =
        fed.iter().cloned().partition(|id| s.is_mercenary(id));
    let groups: Vec<(&str, Vec<String>)> = if mercs.is_empty() || regs.is_empty() {
        vec![("fed", fed.clone())]
    } else {
        // 12.5: only one Fed group fights; show both.
        vec![("fed regulars", regs), ("fed mercenaries", mercs)]
    };
    for (name, fed) in &groups {
        out.push(format!(
            "  lib {} vs {name} {}",
            lib.join(" "),
            fed.join(" ")
        ));
        let sum = |ids: &[String], class: Class, pick: fn(&super::data::Values) -> u32| -> u32 {
            ids.iter()
                .filter(|id| s.class_of(id) == Some(class))
                .filter_map(|id| damage::in_hex(s, id, hex))
                .map(|v| twelfths(pick(&v)))
                .sum()
        };
        let line = |step: &str, l: u32, f: u32| {
            format!(
                "    {step}: lib {:.2}, {name} {:.2} expected hits",
                f64::from(l) / 12.0,
                f64::from(f) / 12.0
            )
        };
        let has_cba = |ids: &[String]| ids.iter().any(|id| s.class_of(id) == Some(Class::Cba));
        if has_cba(&lib) && has_cba(fed) {
            out.push(line(
                "CBA step (14, AA)",
                sum(&lib, Class::Cba, |v| v.aa),
                sum(fed, Class::Cba, |v| v.aa),
            ));
        } else {
            out.push("    CBA step (14): skipped, a side has no CBA (14.1)".into());
        }
        // 15.3: CBAs shoot soldiers on AP, soldiers shoot CBAs on AA; a shooter with no unit
        // of the class it shoots at has no target and does not roll (combat.rs `ap_step`).
        let has_soldier =
            |ids: &[String]| ids.iter().any(|id| s.class_of(id) == Some(Class::Soldier));
        let ap_hits = |own: &[String], enemy: &[String]| -> u32 {
            let mut t = 0;
            if has_soldier(enemy) {
                t += sum(own, Class::Cba, |v| v.ap);
            }
            if has_cba(enemy) {
                t += sum(own, Class::Soldier, |v| v.aa);
            }
            t
        };
        out.push(line(
            "AP step if asked (15: CBAs on AP at soldiers, soldiers on AA at CBAs)",
            ap_hits(&lib, fed),
            ap_hits(fed, &lib),
        ));
        out.push(line(
            "melee if asked (16, soldiers on AP)",
            sum(&lib, Class::Soldier, |v| v.ap),
            sum(fed, Class::Soldier, |v| v.ap),
        ));
        // 13: Fed soldiers, +3 more per Garcia Squad (A25).
        if lib.len() <= 3 && !s.flag(&super::cards::Flag::LibGovernment) {
            let soldiers = fed
                .iter()
                .filter(|id| s.class_of(id) == Some(Class::Soldier))
                .count() as u32;
            let garcia = fed
                .iter()
                .filter(|id| s.unit_type(id) == Some("garcia_squad"))
                .count() as u32;
            let t = soldiers + 3 * garcia;
            out.push(format!(
                "    capture check in a Fed combat phase, if Lib asks (13): target {t}, Fed fights on {} of 6 = {}",
                t.min(6),
                pct(t.min(6), 6)
            ));
        }
    }
    Ok(out.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::dougram::fixtures::{dealt, put_from_stock};

    fn ask(state: Option<&State>, words: &[&str]) -> Result<String, String> {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        odds(state, &Reader::Public, &args)
    }

    #[test]
    fn a_die_against_4_hits_on_4_faces_and_scores_10_twelfths_14_3_14_4() {
        let a = ask(None, &["roll", "4"]).unwrap();
        assert!(a.contains("4 of 6 faces = 66.67%"), "{a}");
        assert!(a.contains("expected hits 20/12"), "{a}"); // (1+2+3+4)/6 = 20/12
        assert!(ask(None, &["roll", "9"]).unwrap().contains("6 of 6"));
    }

    #[test]
    fn a_die_against_0_is_no_roll_and_expects_0_hits_14_3() {
        let a = ask(None, &["roll", "0"]).unwrap();
        assert!(a.contains("rolls no die; expected hits 0 "), "{a}");
        assert!(!a.contains("0/"), "no empty fraction: {a}");
    }

    #[test]
    fn a_check_succeeds_on_at_most_six_faces_13_3_19_6() {
        assert!(
            ask(None, &["check", "2"])
                .unwrap()
                .contains("2 of 6 faces = 33.33%")
        );
        assert!(
            ask(None, &["check", "8"])
                .unwrap()
                .contains("6 of 6 faces = 100.00%")
        );
    }

    #[test]
    fn the_federal_roll_counts_216_throws_with_and_without_the_bonus_20_3_2() {
        let a = ask(None, &["federal", "17"]).unwrap();
        // 3d6 >= 17: 4 throws; 3d6 + 3 >= 17, i.e. 3d6 >= 14: 35 throws.
        assert!(a.contains("4 of 216"), "{a}");
        assert!(a.contains("35 of 216"), "{a}");
    }

    #[test]
    fn a_game_question_needs_a_game_and_a_bad_word_gets_the_usage() {
        assert!(
            ask(None, &["combat", "spa"])
                .unwrap_err()
                .contains("--game")
        );
        assert!(
            ask(None, &["roll", "x"])
                .unwrap_err()
                .contains("whole number")
        );
        assert!(ask(None, &["what"]).unwrap_err().contains("roll VALUE"));
    }

    #[test]
    fn combat_odds_list_each_step_and_the_capture_target_12_13_14() {
        let mut s = dealt("setup1", 3);
        let spa = s.data.map.hex_of("spa");
        let a = ask(Some(&s), &["combat", "spa"]).unwrap();
        assert!(a.contains("CBA step (14): skipped"), "{a}");
        assert!(a.contains("melee if asked"), "{a}");
        // Setup1 Spa: 2 Fed soldiers, 2 Lib units: target 2.
        assert!(a.contains("target 2, Fed fights on 2 of 6"), "{a}");
        put_from_stock(&mut s, "GA", 1, spa, Side::Fed);
        let a = ask(Some(&s), &["combat", "58"]).unwrap();
        assert!(
            a.contains("fed regulars") && a.contains("fed mercenaries"),
            "{a}"
        );
        assert!(a.contains("target 4"), "Garcia counts 1 + 3 (A25): {a}");
        let none = ask(Some(&s), &["combat", "14"]).unwrap();
        assert!(none.contains("no combat there"), "{none}");
    }

    #[test]
    fn ap_step_odds_count_only_shooters_with_a_target_15_3() {
        let mut s = dealt("setup1", 3);
        for u in s.units.values_mut() {
            u.at = UnitAt::Stock;
        }
        let doga = s.data.map.hex_of("doga");
        // Lib: one soldier and one CBA; Fed: one soldier and no CBA. Lib's soldier has no
        // CBA to shoot at, so only Lib's CBA rolls (AP) and only Fed's soldier (AA, at the CBA).
        put_from_stock(&mut s, "SO", 1, doga, Side::Lib);
        put_from_stock(&mut s, "CG", 1, doga, Side::Lib);
        put_from_stock(&mut s, "SO", 1, doga, Side::Fed);
        let t = |ty: &str| {
            let v = &s.data.counters.types[ty];
            (v.aa, v.ap)
        };
        let (_, cg_ap) = t("crab_gunner");
        let (so_aa, _) = t("soldier");
        let a = ask(Some(&s), &["combat", "doga"]).unwrap();
        let want = format!(
            "AP step if asked (15: CBAs on AP at soldiers, soldiers on AA at CBAs): lib {:.2}, fed {:.2}",
            f64::from(twelfths(cg_ap)) / 12.0,
            f64::from(twelfths(so_aa)) / 12.0
        );
        assert!(a.contains(&want), "{want}\n{a}");
    }

    #[test]
    fn the_federal_question_reads_the_game_20_3_2() {
        let s = dealt("setup1", 4);
        let a = ask(Some(&s), &["federal"]).unwrap();
        let (n, _) = victory::fed_check_chance(&s);
        assert!(a.contains(&format!("Fed wins on {n} of 216")), "{a}");
        assert!(a.contains("Lib holds 0 VP now"), "{a}");
    }
}
