//! What a step's events say moved, fought and struck, for the picture's overlays. Only the
//! lines the view's events hold are read (the record's public lines and the reader's own), so
//! an overlay shows nothing the reader's text does not.
//!
//! The lines read (as the rules write them):
//! - `SIDE: UNIT moves space:C05 -> space:D05 -> space:D06 (2 MP, carrying ..)` (13)
//! - `SIDE: WHO descends|launches space:E04 -> ground:E03, carrying ..` (14)
//! - `SIDE's Axis moves from belt to space:N04 with ..` (30.3)
//! - `SIDE attacks a and b in space:C05 (18)`
//! - `laser on TARGET: rolls 4, ..` (31), `SIDE's Axis attacks BASE: ..` (30.4),
//!   `Titans demolish BASE (level 2) (36.4)`

use super::super::data::{Place, Side};
use crate::kit::seats::Seat;
use std::collections::BTreeSet;

/// A move drawn as an arrow through its places.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub side: Side,
    pub path: Vec<Place>,
    pub what: String,
}

/// A crossing between the maps (14): drawn as a stub at its start and a marker where it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossing {
    pub side: Side,
    pub from: Place,
    pub to: Place,
    pub down: bool,
    pub what: String,
}

/// A strike on a named target (a base or a unit): laser, Axis attack, demolition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strike {
    pub target: String,
    pub label: String,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Activity {
    /// One per distinct side and path, in event order (several units on one path share it).
    pub moves: Vec<Move>,
    pub crossings: Vec<Crossing>,
    pub combats: BTreeSet<Place>,
    pub strikes: Vec<Strike>,
}

/// The places of `a -> b -> c`.
fn path_of(s: &str) -> Option<Vec<Place>> {
    let p: Result<Vec<Place>, String> = s.split(" -> ").map(|w| Place::parse(w.trim())).collect();
    p.ok().filter(|p| p.len() >= 2)
}

/// `s` without a trailing `(..)` citation or detail.
fn strip_paren(s: &str) -> &str {
    match s.rsplit_once(" (") {
        Some((body, tail)) if tail.ends_with(')') => body,
        _ => s,
    }
}

impl Activity {
    fn add_move(&mut self, side: Side, path: Vec<Place>, what: &str) {
        match self
            .moves
            .iter_mut()
            .find(|m| m.side == side && m.path == path)
        {
            Some(m) => {
                m.what.push_str(", ");
                m.what.push_str(what);
            }
            None => self.moves.push(Move {
                side,
                path,
                what: what.to_string(),
            }),
        }
    }
}

pub fn activity(events: &[String]) -> Activity {
    let mut act = Activity::default();
    for e in events {
        let e = e.strip_prefix("(only you) ").unwrap_or(e);
        read_line(&mut act, e);
    }
    act
}

fn read_line(act: &mut Activity, e: &str) {
    // `SIDE: ...`
    if let Some((head, body)) = e.split_once(": ")
        && let Some(side) = Side::parse(head)
    {
        if let Some((who, rest)) = body.split_once(" moves ")
            && let Some(path) = path_of(strip_paren(rest))
        {
            act.add_move(side, path, who);
            return;
        }
        for (verb, down) in [(" descends ", true), (" launches ", false)] {
            if let Some((who, rest)) = body.split_once(verb) {
                let rest = rest.split(", carrying").next().unwrap_or(rest);
                if let Some((a, b)) = rest.split_once(" -> ")
                    && let (Ok(from), Ok(to)) = (Place::parse(a.trim()), Place::parse(b.trim()))
                {
                    act.crossings.push(Crossing {
                        side,
                        from,
                        to,
                        down,
                        what: who.to_string(),
                    });
                }
                return;
            }
        }
        return;
    }
    // `SIDE's Axis moves from A to B[ with ..]` / `SIDE's Axis attacks BASE: ..`
    if let Some((head, rest)) = e.split_once("'s Axis ")
        && let Some(side) = Side::parse(head)
    {
        if let Some(way) = rest.strip_prefix("moves from ")
            && let Some((a, b)) = way.split_once(" to ")
        {
            let b = b.split(" with ").next().unwrap_or(b);
            if let (Ok(a), Ok(b)) = (Place::parse(a.trim()), Place::parse(b.trim())) {
                act.add_move(side, vec![a, b], "axis");
            }
        } else if let Some(t) = rest.strip_prefix("attacks ")
            && let Some((target, result)) = t.split_once(": ")
        {
            let hit = result.split(';').next().unwrap_or("");
            let hit = hit.rsplit(", ").next().unwrap_or(hit);
            act.strikes.push(Strike {
                target: target.to_string(),
                label: format!("Axis attack: {hit}"),
            });
        }
        return;
    }
    // `SIDE attacks X and Y in space:C05 (18)`
    if let Some((head, rest)) = e.split_once(" attacks ")
        && Side::parse(head).is_some()
        && let Some((_, at)) = strip_paren(rest).rsplit_once(" in ")
        && let Ok(p) = Place::parse(at.trim())
    {
        act.combats.insert(p);
        return;
    }
    // `laser on TARGET: rolls 4, removed`
    if let Some(rest) = e.strip_prefix("laser on ")
        && let Some((target, result)) = rest.split_once(": ")
    {
        let what = result.rsplit(", ").next().unwrap_or(result);
        act.strikes.push(Strike {
            target: target.to_string(),
            label: format!("laser: {what}"),
        });
        return;
    }
    // `Titans demolish BASE (level 2) (36.4)`
    if let Some(rest) = e.strip_prefix("Titans demolish ") {
        let base = rest.split(' ').next().unwrap_or(rest);
        act.strikes.push(Strike {
            target: base.to_string(),
            label: "nuke: demolished".to_string(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Activity {
        activity(&lines.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn p(s: &str) -> Place {
        Place::parse(s).unwrap()
    }

    #[test]
    fn moves_on_one_path_share_an_arrow_and_carry_their_units_names() {
        let act = read(&[
            "aeug: a-argama-1 moves space:C05 -> space:D05 -> space:D06 (2 MP, carrying a-gm2-1)",
            "aeug: a-nemo-1 moves space:C05 -> space:D05 -> space:D06 (2 MP)",
            "(only you) titans: t-hizack-1 moves ground:E03 -> ground:E04 (1 MP)",
        ]);
        assert_eq!(act.moves.len(), 2);
        assert_eq!(act.moves[0].side, Side::Aeug);
        assert_eq!(
            act.moves[0].path,
            vec![p("space:C05"), p("space:D05"), p("space:D06")]
        );
        assert_eq!(act.moves[0].what, "a-argama-1, a-nemo-1");
        assert_eq!(act.moves[1].side, Side::Titans);
    }

    #[test]
    fn crossings_axis_moves_combats_and_strikes_are_read() {
        let act = read(&[
            "titans: t-hizack-2 descends space:E04 -> ground:E03, carrying jerid_1",
            "aeug: a-gm2-1 launches ground:E06 -> space:F05",
            "neo_zeon's Axis moves from belt to space:N04 with n-gaza-c-1 (30.3.6-30.3.7)",
            "neo_zeon's Axis attacks granada: rolls 5, hit; Axis rolls 2, unharmed",
            "titans attacks aeug and neo_zeon in space:J04 (18)",
            "laser on von_braun: rolls 3, unharmed",
            "Titans demolish odessa (level 2) (36.4)",
        ]);
        assert_eq!(act.crossings.len(), 2);
        assert!(act.crossings[0].down && !act.crossings[1].down);
        assert_eq!(act.crossings[0].to, p("ground:E03"));
        assert_eq!(
            act.moves,
            vec![Move {
                side: Side::NeoZeon,
                path: vec![Place::Belt, p("space:N04")],
                what: "axis".into()
            }]
        );
        assert_eq!(act.combats, BTreeSet::from([p("space:J04")]));
        let strikes: Vec<(&str, &str)> = act
            .strikes
            .iter()
            .map(|s| (s.target.as_str(), s.label.as_str()))
            .collect();
        assert_eq!(
            strikes,
            [
                ("granada", "Axis attack: hit"),
                ("von_braun", "laser: unharmed"),
                ("odessa", "nuke: demolished")
            ]
        );
    }

    #[test]
    fn other_lines_draw_nothing() {
        let act = read(&[
            "turn 1 ends: VP titans 21, aeug 18, neo_zeon 8 (37.1)",
            "titans watches the combat in space:J04 (18.9)",
            "a-gm2-1 not moved: no path",
            "aeug: a-gm2-1 moves nowhere",
        ]);
        assert_eq!(act, Activity::default());
    }
}
