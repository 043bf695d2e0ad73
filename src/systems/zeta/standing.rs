//! Judging, listing and merging the standing policies of plan §4.5 (the parts `join`,
//! `defence`, `bomb`, `bombard`, `allocate`, `share`, `recarry`, `orphans` and `protect`):
//! `legal_parts` refuses what can never apply, `policy_choices` lists the values a side may
//! send by asking it, `merge_checked` stores a patch in the step that receives it. Every part
//! has its documented default (policy.rs); what reads a policy later reads it as valid.
//!
//! A policy is judged without the board: it stands for the rest of the game, so a unit it
//! names may not exist yet (a unit produced later) or any more. Only what is wrong whatever
//! the board is refused.

use super::ctx::Ctx;
use super::data::Side;
use super::policy::{
    Allocate, Bomb, Bombard, Defence, House, JoinAnswer, JoinPolicy, PolicyPatch, Recarry, Share,
    Sortie,
};
use crate::kit::seats::Seat;
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// The keywords of a priority list of `allocate` (plan §4.5).
const PRIORITY_WORDS: [&str; 3] = ["flipped_first", "ships_first", "base_first"];

/// Problems with the plan §4.5 parts of a patch, under `at` (the path of `policies`).
pub fn legal_parts(side: Side, patch: &PolicyPatch, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(j) = &patch.join {
        out.extend(legal_join(side, j, &at.at("join")));
    }
    if let Some(Bomb::IfMsAtLeast(0)) = &patch.bomb {
        out.push(Problem::new(
            at.at("bomb").at("if_ms_at_least"),
            "22.1",
            "if_ms_at_least: 0 holds in every combat with a target",
            "a number of MS from 1, or if_target",
        ));
    }
    if let Some(Allocate::Priority(list)) = &patch.allocate {
        for (i, e) in list.iter().enumerate() {
            if let Err(why) = priority_entry(e) {
                out.push(Problem::new(
                    at.at("allocate").at("priority").at(i),
                    "25.3",
                    why,
                    "a unit id, type:<unit type>, flipped_first, ships_first or base_first",
                ));
            }
        }
    }
    if let Some(Share::Protect(list)) = &patch.share {
        for (i, id) in list.iter().enumerate() {
            if !own_unit_id(side, id) {
                out.push(Problem::new(
                    at.at("share").at("protect").at(i),
                    "26.1",
                    format!("{id:?} is not an id of a {side} unit: a share is placed on own units"),
                    own_unit_hint(side),
                ));
            }
        }
    }
    if let Some(Recarry::List(list)) = &patch.recarry {
        for (i, id) in list.iter().enumerate() {
            if !own_unit_id(side, id) || id == "colony" {
                out.push(Problem::new(
                    at.at("recarry").at("list").at(i),
                    "25.11",
                    format!("{id:?} is not an id of a {side} ship: only own ships pick up MS"),
                    own_unit_hint(side),
                ));
            }
        }
    }
    if let Some(list) = &patch.protect {
        for (i, id) in list.iter().enumerate() {
            // A character id has no dash; a unit id starts with its owner's letter.
            let ok = if id.contains('-') {
                own_unit_id(side, id)
            } else {
                ident(id)
            };
            if !ok {
                out.push(Problem::new(
                    at.at("protect").at(i),
                    "25.3",
                    format!("{id:?} is neither a {side} unit id nor a character id"),
                    format!("{} or a character id (kamille_1)", own_unit_hint(side)),
                ));
            }
        }
    }
    out
}

/// 18.9: a join rule speaks of a combat between two other factions; one naming `side` as the
/// attacker or the declared faction, or one faction as both, never applies.
pub fn legal_join(side: Side, j: &JoinPolicy, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, r) in j.rules.iter().enumerate() {
        let here = at.at("rules").at(i);
        for (field, who) in [("acting", r.acting), ("declared", r.declared)] {
            if who == Some(side) {
                out.push(Problem::new(
                    here.at(field),
                    "18.9",
                    format!(
                        "{side} is asked to join only combats between the two other factions, so a rule with {field}: {side} never applies"
                    ),
                    format!("one of the other factions: {}", others(side)),
                ));
            }
        }
        if r.acting.is_some() && r.acting == r.declared {
            out.push(Problem::new(
                here.at("declared"),
                "18.8",
                "a faction never declares a combat against itself",
                "the faction attacked, other than `acting`",
            ));
        }
    }
    out
}

/// Whether `e` may stand in a priority list of `allocate` (25.3).
fn priority_entry(e: &str) -> Result<(), String> {
    if PRIORITY_WORDS.contains(&e) {
        return Ok(());
    }
    if let Some(t) = e.strip_prefix("type:") {
        return if ident(t) {
            Ok(())
        } else {
            Err(format!("{e:?}: no unit type is written {t:?}"))
        };
    }
    if e == "colony" || any_unit_id(e) {
        return Ok(());
    }
    Err(format!("{e:?} is neither a unit id nor a keyword"))
}

/// A lower-case id (`hizack`, `kamille_1`).
fn ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The shape of a unit id (Z-8): an owner's letter, a dash, the type and number in
/// lower-case words joined by dashes (`t-gm2-4`).
fn any_unit_id(s: &str) -> bool {
    Side::ALL.iter().any(|side| own_unit_id(*side, s)) && s != "colony"
}

/// An id a unit of `side` may have: its own letter prefix (Z-8), or the colony in its use
/// (35.3).
fn own_unit_id(side: Side, s: &str) -> bool {
    if s == "colony" {
        return true;
    }
    let prefix = format!("{}-", side.letter());
    s.strip_prefix(&prefix).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    })
}

fn own_unit_hint(side: Side) -> String {
    format!("ids of {side} units ({}-...)", side.letter())
}

fn others(side: Side) -> String {
    Side::ALL
        .iter()
        .filter(|s| **s != side)
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The policy patches `side` may send in any step, one part and one value each (plan §4.5),
/// each kept only where [`super::policy::legal_policies`] accepts it. Lists of ids
/// (`allocate` priorities, `share`/`recarry`/`protect`) are open-ended and left to the player;
/// their defaults are listed.
pub fn policy_choices(side: Side) -> Vec<PolicyPatch> {
    let mut out: Vec<PolicyPatch> = Vec::new();
    for a in [
        JoinAnswer::Abstain,
        JoinAnswer::Attacker,
        JoinAnswer::Defender,
        JoinAnswer::Ask,
    ] {
        out.push(PolicyPatch {
            join: Some(JoinPolicy {
                default: a,
                rules: Vec::new(),
            }),
            ..PolicyPatch::default()
        });
    }
    for sortie in [Sortie::AllEligible, Sortie::None, Sortie::IfAirFavourable] {
        for house in [House::None, House::Damaged, House::Ships, House::All] {
            out.push(PolicyPatch {
                defence: Some(Defence {
                    sortie,
                    house,
                    ..Defence::default()
                }),
                ..PolicyPatch::default()
            });
        }
    }
    for b in [
        Bomb::Never,
        Bomb::IfTarget,
        Bomb::IfMsAtLeast(1),
        Bomb::IfMsAtLeast(2),
        Bomb::IfMsAtLeast(3),
    ] {
        out.push(PolicyPatch {
            bomb: Some(b),
            ..PolicyPatch::default()
        });
    }
    for b in [Bombard::Always, Bombard::Never, Bombard::IfStronger] {
        out.push(PolicyPatch {
            bombard: Some(b),
            ..PolicyPatch::default()
        });
    }
    out.push(PolicyPatch {
        allocate: Some(Allocate::MaxValue),
        ..PolicyPatch::default()
    });
    out.push(PolicyPatch {
        share: Some(Share::MinLoss),
        ..PolicyPatch::default()
    });
    out.push(PolicyPatch {
        recarry: Some(Recarry::LargestCapacityFirst),
        ..PolicyPatch::default()
    });
    // 35 and 36: the colony's and the nuke's standing instructions, at their defaults (the
    // filter below keeps each only for the sides it is legal for).
    out.push(PolicyPatch {
        colony: Some(super::policy::ColonyPolicy::default()),
        ..PolicyPatch::default()
    });
    out.push(PolicyPatch {
        nuke: Some(super::policy::NukePolicy::default()),
        ..PolicyPatch::default()
    });
    out.retain(|p| super::policy::legal_policies(side, p, &FieldPath::root()).is_empty());
    out
}

/// Stores `side`'s patch in the step that receives it (kit::policies: each part named
/// replaces the stored one). `check` has refused every problem of the patch; one that slips
/// through (a default order, a plan) is not stored, and its side is told.
pub fn merge_checked(ctx: &mut Ctx<'_>, side: Side, patch: &PolicyPatch) {
    if crate::kit::policies::is_empty(patch) {
        return;
    }
    let problems = super::policy::legal_policies(side, patch, &FieldPath::root().at("policies"));
    if let Some(p) = problems.first() {
        ctx.log.private(
            side,
            format!("your policies were not changed: {}", super::ctx::reason(p)),
        );
        return;
    }
    if let Err(e) = crate::kit::policies::merge(&mut ctx.state.policies[side], patch) {
        ctx.log
            .private(side, format!("your policies were not changed: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::zeta::policy::{JoinRule, legal_policies};

    fn patch(text: &str) -> PolicyPatch {
        crate::yaml::parse(text, "p.yaml").unwrap()
    }

    /// 35, 36: the colony and nuke policies are listed with their defaults where legal.
    #[test]
    fn the_colony_and_nuke_policies_are_listed_at_their_defaults() {
        let all: Vec<PolicyPatch> = Side::ALL.iter().flat_map(|s| policy_choices(*s)).collect();
        assert!(all.iter().any(|p| p.colony.is_some()));
        assert!(all.iter().any(|p| p.nuke.is_some()));
    }

    fn messages(side: Side, text: &str) -> Vec<String> {
        legal_policies(side, &patch(text), &FieldPath::root().at("policies"))
            .into_iter()
            .map(|p| p.message)
            .collect()
    }

    /// Plan §4.5: every part with a value of its own is accepted.
    #[test]
    fn every_documented_policy_value_is_accepted() {
        for text in [
            "join: {default: ask, rules: [{acting: titans, declared: neo_zeon, answer: defender}]}",
            "defence: {sortie: if_air_favourable, house: damaged}",
            "bomb: {if_ms_at_least: 2}",
            "bombard: never",
            "allocate: {priority: [t-hizack-1, \"type:gm2\", flipped_first, ships_first, base_first, colony]}",
            "share: {protect: [a-argama-1]}",
            "recarry: {list: [a-argama-1]}",
            "orphans: nearest",
            "protect: [a-gundam-mk2-1, kamille_1]",
        ] {
            assert_eq!(messages(Side::Aeug, text), Vec::<String>::new(), "{text}");
        }
    }

    /// 18.9: a join rule naming the asked faction itself never applies.
    #[test]
    fn a_join_rule_about_the_asked_faction_itself_is_refused_18_9() {
        let m = messages(
            Side::Aeug,
            "join: {rules: [{acting: aeug, answer: defender}]}",
        );
        assert_eq!(m.len(), 1, "{m:?}");
        assert!(
            m[0].contains("rule with acting: aeug never applies"),
            "{}",
            m[0]
        );
        let m = messages(
            Side::Aeug,
            "join: {rules: [{declared: aeug, answer: attacker}]}",
        );
        assert!(m[0].contains("declared: aeug"), "{m:?}");
    }

    /// 18.8: nobody attacks itself.
    #[test]
    fn a_join_rule_with_one_faction_on_both_sides_is_refused_18_8() {
        let j = JoinPolicy {
            default: JoinAnswer::Abstain,
            rules: vec![JoinRule {
                acting: Some(Side::Titans),
                declared: Some(Side::Titans),
                at: None,
                answer: JoinAnswer::Attacker,
            }],
        };
        let p = legal_join(Side::Aeug, &j, &FieldPath::root());
        assert_eq!(p.len(), 1);
        assert!(p[0].message.contains("against itself"), "{}", p[0].message);
    }

    /// 25.3: a priority list holds unit ids, `type:` entries and the three keywords.
    #[test]
    fn an_unknown_priority_entry_is_refused_25_3() {
        let m = messages(Side::Titans, "allocate: {priority: [biggest]}");
        assert_eq!(
            m,
            vec!["\"biggest\" is neither a unit id nor a keyword".to_string()]
        );
        let m = messages(Side::Titans, "allocate: {priority: [\"type:\"]}");
        assert!(m[0].contains("no unit type"), "{m:?}");
    }

    /// 26.1, 25.11: shares and pick-ups concern the side's own units only.
    #[test]
    fn another_sides_unit_in_share_or_recarry_is_refused_26_1_25_11() {
        let m = messages(Side::Titans, "share: {protect: [a-argama-1]}");
        assert!(m[0].contains("not an id of a titans unit"), "{m:?}");
        let m = messages(Side::Titans, "recarry: {list: [n-gwadan-1]}");
        assert!(m[0].contains("not an id of a titans ship"), "{m:?}");
        let m = messages(Side::Titans, "protect: [a-argama-1, \"Bad Id\"]");
        assert_eq!(m.len(), 2, "{m:?}");
    }

    /// 22.1: `if_ms_at_least: 0` is refused (it would hold always).
    #[test]
    fn bombing_with_at_least_zero_ms_is_refused_22_1() {
        let m = messages(Side::Titans, "bomb: {if_ms_at_least: 0}");
        assert!(m[0].contains("if_ms_at_least: 0"), "{m:?}");
    }

    /// Plan §4.5: the listed choices are accepted and include every default.
    #[test]
    fn every_policy_choice_is_legal_and_the_defaults_are_among_them() {
        for side in Side::ALL.iter().copied() {
            let c = policy_choices(side);
            assert!(c.len() > 20);
            for p in &c {
                assert!(legal_policies(side, p, &FieldPath::root()).is_empty());
            }
            let d = super::super::policy::Policies::default();
            assert!(c.iter().any(|p| p.join.as_ref() == Some(&d.join)));
            assert!(c.iter().any(|p| p.defence.as_ref() == Some(&d.defence)));
            assert!(c.iter().any(|p| p.bomb.as_ref() == Some(&d.bomb)));
            assert!(c.iter().any(|p| p.bombard == Some(d.bombard)));
        }
    }
}
