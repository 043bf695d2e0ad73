//! One test per policy behaviour (docs/kummen.md "Policies"), named with its rule number, and
//! the checks of policy values with their field paths. States are built with the fixtures; where
//! dice could matter the units are chosen so that no roll changes the outcome asserted.

use super::combat::{
    CombatPhase, Flow, Group, Retreated, base_attack_plan, pair, retreat_hexes, targets,
};
use super::data::{PerSide, Side};
use super::fixtures::*;
use super::orders::{
    CombatOverride, Distribute, HexKind, Orders, Pairing, PolicyPatch, RetreatTo, RetreatWhen,
    RuleOr, Split, TargetRule,
};
use super::state::{Log, State};
use super::steps;
use super::tactics::{self, Facts};
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::Problem;
use crate::yaml;

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn prefer(v: &[&str]) -> RuleOr<TargetRule> {
    RuleOr::Prefer(ids(v))
}

/// The group holding `unit`.
fn group_of<'a>(groups: &'a [Group], unit: &str) -> &'a Group {
    groups
        .iter()
        .find(|g| g.m.iter().chain(&g.b).any(|u| u == unit))
        .unwrap_or_else(|| panic!("{unit} is in no group: {groups:?}"))
}

/// Runs `f` on a combat phase over `s` (phase player `pp`) and returns the public log.
fn with_phase(s: &mut State, pp: Side, f: impl FnOnce(&mut CombatPhase)) -> Vec<String> {
    let mut d = Dice::new(Hash32([1; 32]), Hash32([9; 32]));
    let mut log = Log::default();
    let mut ph = CombatPhase {
        state: s,
        dice: &mut d,
        log: &mut log,
        phase_player: pp,
        tag: "t1/p4".into(),
    };
    f(&mut ph);
    log.public
}

fn override_at(hex: &str) -> CombatOverride {
    CombatOverride {
        hex: h(hex),
        ps_partner: None,
        pairing: None,
        distribute: None,
        targets: None,
        base_targets: None,
        retreat: None,
        retreat_to: None,
        heli_cargo: None,
    }
}

// ---- D3: PS partner (9.8.2, 9.8.6) --------------------------------------------------------

#[test]
fn ps_partner_priority_list_takes_the_listed_kind_first_9_8_2() {
    let mut s = blank();
    let m = ids(&["M-KANYU", "M-H01", "M-SO01"]);
    let b = ids(&["B-BLUE"]);
    // Default (max expected VP): Kan-Yu 26 x 5 beats the heli 33 x 2 and the soldier 35 x 2.
    let g = pair(&s, h("J07"), &m, &b, &[], Side::Beeler);
    assert_eq!(group_of(&g, "B-BLUE").m[0], "M-KANYU");
    s.policies[Side::Beeler].ps_partner = RuleOr::Prefer(ids(&["heli", "soldier"]));
    let g = pair(&s, h("J07"), &m, &b, &[], Side::Beeler);
    assert_eq!(group_of(&g, "B-BLUE").m[0], "M-H01");
    s.policies[Side::Beeler].ps_partner = RuleOr::Prefer(ids(&["M-SO01"]));
    let g = pair(&s, h("J07"), &m, &b, &[], Side::Mercenary);
    assert_eq!(group_of(&g, "B-BLUE").m[0], "M-SO01");
}

#[test]
fn ps_partner_is_chosen_again_each_round_by_the_hex_override_9_8_6() {
    let mut s = blank();
    let m = ids(&["M-KANYU", "M-SO01"]);
    let b = ids(&["B-BLUE", "B-SO01"]);
    let prev = vec![
        Group {
            m: ids(&["M-KANYU"]),
            b: ids(&["B-BLUE"]),
        },
        Group {
            m: ids(&["M-SO01"]),
            b: ids(&["B-SO01"]),
        },
    ];
    s.policies[Side::Beeler].combat_overrides = vec![CombatOverride {
        ps_partner: Some(RuleOr::Prefer(ids(&["soldier"]))),
        ..override_at("J07")
    }];
    // In J07 the PS drops its old partner for the soldier; Kan-Yu is freed and re-paired.
    let g = pair(&s, h("J07"), &m, &b, &prev, Side::Mercenary);
    assert_eq!(group_of(&g, "B-BLUE").m, ids(&["M-SO01"]));
    assert_eq!(group_of(&g, "M-KANYU").b, ids(&["B-SO01"]));
    // Elsewhere the standing default holds.
    let g = pair(&s, h("K08"), &m, &b, &prev, Side::Mercenary);
    assert_eq!(group_of(&g, "B-BLUE").m, ids(&["M-KANYU"]));
}

// ---- D4: one-to-one pairing (9.8.1) --------------------------------------------------------

/// Mercenary AT and soldier against beeler AT and soldier, mercenary pairing.
fn two_by_two(rule: Pairing) -> Vec<Group> {
    let mut s = blank();
    s.policies[Side::Mercenary].pairing = rule;
    pair(
        &s,
        h("J07"),
        &ids(&["M-AT01", "M-SO01"]),
        &ids(&["B-AT01", "B-SO01"]),
        &[],
        Side::Mercenary,
    )
}

#[test]
fn pairing_net_value_maximises_the_value_swing_9_8_1() {
    // AT-AT (20 - 20) + soldier-soldier (6 - 12) = -6 beats AT-soldier (21 - 2) +
    // soldier-AT (2 - 42) = -21, in 36ths of half VP.
    let g = two_by_two(Pairing::NetValue);
    assert_eq!(group_of(&g, "M-AT01").b, ids(&["B-AT01"]));
    assert_eq!(group_of(&g, "M-SO01").b, ids(&["B-SO01"]));
}

#[test]
fn pairing_best_odds_lets_the_strongest_take_the_easiest_enemy_9_8_1() {
    let g = two_by_two(Pairing::BestOdds);
    assert_eq!(group_of(&g, "M-AT01").b, ids(&["B-SO01"]));
    assert_eq!(group_of(&g, "M-SO01").b, ids(&["B-AT01"]));
}

#[test]
fn pairing_weakest_first_gives_the_weak_units_the_easy_enemies_9_8_1() {
    let g = two_by_two(Pairing::WeakestFirst);
    assert_eq!(group_of(&g, "M-SO01").b, ids(&["B-SO01"]));
    assert_eq!(group_of(&g, "M-AT01").b, ids(&["B-AT01"]));
}

#[test]
fn pairing_is_done_by_the_phase_player_9_8_1() {
    // With the beeler side pairing by best odds, its AT takes the mercenary soldier.
    let mut s = blank();
    s.policies[Side::Mercenary].pairing = Pairing::NetValue;
    s.policies[Side::Beeler].pairing = Pairing::BestOdds;
    let g = pair(
        &s,
        h("J07"),
        &ids(&["M-AT01", "M-SO01"]),
        &ids(&["B-AT01", "B-SO01"]),
        &[],
        Side::Beeler,
    );
    assert_eq!(group_of(&g, "B-AT01").m, ids(&["M-SO01"]));
}

#[test]
fn net_value_pairs_large_stacks_greedily_and_still_pairs_everyone_9_8_1() {
    let s = blank();
    let m: Vec<String> = (1..=12).map(|k| format!("M-AT{k:02}")).collect();
    let b: Vec<String> = (1..=13).map(|k| format!("B-SO{k:02}")).collect();
    let one = tactics::one_to_one(&s, Pairing::NetValue, &m, &b);
    assert_eq!(one.pairs.len(), 12);
    assert!(one.left_mine.is_empty());
    assert_eq!(one.left_theirs.len(), 1);
}

#[test]
fn every_strategy_keeps_groups_balanced_9_8_3_a6() {
    let m_pool = [
        "M-AT01", "M-SO01", "M-KANYU", "M-AT02", "M-H01", "M-SO02", "M-AT03",
    ];
    let b_pool = [
        "B-SO01", "B-BLUE", "B-AT01", "B-SO02", "B-AT02", "B-SO03", "B-AT03",
    ];
    for pairing in [Pairing::NetValue, Pairing::BestOdds, Pairing::WeakestFirst] {
        for dist in [Distribute::Focus, Distribute::Even] {
            let mut s = blank();
            for &side in Side::ALL {
                s.policies.get_mut(side).pairing = pairing;
                s.policies.get_mut(side).distribute = dist;
            }
            for nm in 1..=7 {
                for nb in 1..=7 {
                    let m = ids(&m_pool[..nm]);
                    let b = ids(&b_pool[..nb]);
                    for &pp in Side::ALL {
                        let g = pair(&s, h("J07"), &m, &b, &[], pp);
                        let what = format!("{pairing:?} {dist:?} {nm}v{nb} {pp:?}: {g:?}");
                        assert_eq!(g.len(), nm.min(nb), "{what}");
                        let mut all: Vec<&String> =
                            g.iter().flat_map(|g| g.m.iter().chain(&g.b)).collect();
                        all.sort();
                        all.dedup();
                        assert_eq!(all.len(), nm + nb, "every unit once: {what}");
                        for &side in Side::ALL {
                            let c: Vec<usize> = g.iter().map(|g| g.side(side).len()).collect();
                            let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
                            assert!(*lo >= 1 && hi - lo <= 1, "{what}");
                        }
                        // A later round after losses is rebalanced too (9.8.5).
                        let m2: Vec<String> = m.iter().skip(1).cloned().collect();
                        if !m2.is_empty() {
                            let g2 = pair(&s, h("J07"), &m2, &b, &g, pp);
                            for &side in Side::ALL {
                                let c: Vec<usize> = g2.iter().map(|g| g.side(side).len()).collect();
                                let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
                                assert!(hi - lo <= 1, "round 2 {what}: {g2:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}

// ---- D5, D6: surplus and rebalance (9.8.3, 9.8.5) ------------------------------------------

fn groups_at_vs_so() -> Vec<Group> {
    vec![
        Group {
            m: ids(&["M-AT01"]),
            b: ids(&["B-AT01"]),
        },
        Group {
            m: ids(&["M-AT02"]),
            b: ids(&["B-SO01"]),
        },
    ]
}

#[test]
fn distribute_focus_sends_a_surplus_unit_where_it_scores_most_9_8_3() {
    let s = blank();
    // M-SO01 against the beeler AT: 1 x 1 x 2 = 2; against the soldier: 6 x 1 = 6.
    let mut g = groups_at_vs_so();
    tactics::place_surplus(
        &s,
        Distribute::Focus,
        Side::Mercenary,
        &mut g,
        &ids(&["M-SO01"]),
    );
    assert_eq!(g[1].m, ids(&["M-AT02", "M-SO01"]));
    let mut g = groups_at_vs_so();
    tactics::place_surplus(
        &s,
        Distribute::Even,
        Side::Mercenary,
        &mut g,
        &ids(&["M-SO01"]),
    );
    assert_eq!(g[0].m, ids(&["M-AT01", "M-SO01"]));
}

#[test]
fn surplus_units_are_placed_by_their_owner_not_the_phase_player_9_8_3_a8() {
    let mut s = blank();
    s.policies[Side::Mercenary].pairing = Pairing::BestOdds;
    s.policies[Side::Mercenary].distribute = Distribute::Even;
    s.policies[Side::Beeler].distribute = Distribute::Focus;
    // The mercenary side pairs M-AT01 with B-SO01 (21/36) and M-SO01 with B-AT01; the beeler
    // surplus B-AT02 is placed by the beeler policy (focus), not the mercenary one (even).
    let g = pair(
        &s,
        h("J07"),
        &ids(&["M-AT01", "M-SO01"]),
        &ids(&["B-SO01", "B-AT01", "B-AT02"]),
        &[],
        Side::Mercenary,
    );
    // B-AT02 (9) against M-SO01 (def 2): 2 x 21 = 42; against M-AT01 (def 4): 2 x 10 = 20.
    assert!(
        group_of(&g, "B-AT02").m.contains(&"M-SO01".to_string()),
        "{g:?}"
    );
}

#[test]
fn rebalance_moves_excess_units_by_the_owners_policy_9_8_5() {
    let s = blank();
    let start = || {
        vec![
            Group {
                m: ids(&["M-SO01"]),
                b: ids(&["B-SO03"]),
            },
            Group {
                m: ids(&["M-AT02"]),
                b: ids(&["B-AT02", "B-SO01", "B-SO02"]),
            },
        ]
    };
    // `even` moves the last unit of the fullest group.
    let mut g = start();
    tactics::rebalance(&s, Distribute::Even, Side::Beeler, &mut g);
    assert_eq!(g[0].b, ids(&["B-SO03", "B-SO02"]));
    // `focus` moves the AT, which gains most against the soldier (42 - 20 = 22 vs 12 - 2 = 10).
    let mut g = start();
    tactics::rebalance(&s, Distribute::Focus, Side::Beeler, &mut g);
    assert_eq!(g[0].b, ids(&["B-SO03", "B-AT02"]));
    assert_eq!(g[1].b.len(), 2);
}

// ---- D7: targets (9.8.4) -------------------------------------------------------------------

fn target_of(rule: RuleOr<TargetRule>, shooter: &str, enemies: &[&str]) -> String {
    let mut s = blank();
    s.policies[Side::Mercenary].targets = rule;
    let g = vec![Group {
        m: ids(&[shooter]),
        b: ids(enemies),
    }];
    targets(&s, h("J07"), &g)[shooter].clone()
}

#[test]
fn targets_best_value_weighs_value_and_odds_9_8_4() {
    // Kan-Yu (11) vs AT: 2 x 21 = 42; vs soldier: 1 x 30 = 30.
    let t = target_of(
        RuleOr::Rule(TargetRule::BestValue),
        "M-KANYU",
        &["B-AT01", "B-SO01"],
    );
    assert_eq!(t, "B-AT01");
}

#[test]
fn targets_best_odds_takes_the_likeliest_kill_9_8_4() {
    let t = target_of(
        RuleOr::Rule(TargetRule::BestOdds),
        "M-KANYU",
        &["B-AT01", "B-SO01"],
    );
    assert_eq!(t, "B-SO01");
}

#[test]
fn targets_weakest_and_strongest_go_by_attack_9_8_4() {
    let e = ["B-AT01", "B-SO01", "B-BLUE"];
    assert_eq!(
        target_of(RuleOr::Rule(TargetRule::Weakest), "M-AT01", &e),
        "B-SO01"
    );
    assert_eq!(
        target_of(RuleOr::Rule(TargetRule::Strongest), "M-AT01", &e),
        "B-BLUE"
    );
}

#[test]
fn targets_priority_list_names_ids_and_kinds_9_8_4() {
    let e = ["B-AT01", "B-SO01", "B-BLUE"];
    assert_eq!(target_of(prefer(&["ps"]), "M-AT01", &e), "B-BLUE");
    // Two ATs match `at`: best value between them (B-AT01 20, Blue AT 10).
    assert_eq!(target_of(prefer(&["at"]), "M-AT01", &e), "B-AT01");
    // Nothing listed is there: best value.
    assert_eq!(target_of(prefer(&["B-AT09"]), "M-AT01", &e), "B-SO01");
}

#[test]
fn each_side_uses_its_own_target_policy_a7() {
    let mut s = blank();
    s.policies[Side::Beeler].targets = RuleOr::Rule(TargetRule::Strongest);
    s.policies[Side::Mercenary].targets = RuleOr::Rule(TargetRule::Weakest);
    let g = vec![Group {
        m: ids(&["M-SO01", "M-KANYU"]),
        b: ids(&["B-AT01", "B-SO01"]),
    }];
    let t = targets(&s, h("J07"), &g);
    assert_eq!(t["B-AT01"], "M-KANYU");
    assert_eq!(t["M-KANYU"], "B-SO01");
}

// ---- D8: base attacks (9.12.3, A10) --------------------------------------------------------

#[test]
fn base_attacks_are_spread_and_extras_follow_base_targets_9_12_3_a10() {
    let mut s = blank();
    // EX-9 (G10), mercenary, 7 x 3, against a beeler AT and soldier.
    put(&mut s, "B-AT01", "G10", true);
    put(&mut s, "B-SO01", "G10", true);
    // best_value: soldier 1 x 10 = 10 beats AT 2 x 3 = 6, so the soldier gets the extra attack.
    let plan = base_attack_plan(&s, h("G10"), Side::Mercenary, 7, 3);
    assert_eq!(plan, ids(&["B-SO01", "B-AT01", "B-SO01"]));
    s.policies[Side::Mercenary].base_targets = prefer(&["at"]);
    let plan = base_attack_plan(&s, h("G10"), Side::Mercenary, 7, 3);
    assert_eq!(plan, ids(&["B-AT01", "B-SO01", "B-AT01"]));
}

#[test]
fn fewer_base_attacks_than_enemies_hit_distinct_chosen_units_9_12_3_a10() {
    let mut s = blank();
    for u in ["B-AT01", "B-AT02", "B-SO01", "B-SO02"] {
        put(&mut s, u, "G10", true);
    }
    s.policies[Side::Mercenary].combat_overrides = vec![CombatOverride {
        base_targets: Some(RuleOr::Rule(TargetRule::Strongest)),
        ..override_at("G10")
    }];
    let plan = base_attack_plan(&s, h("G10"), Side::Mercenary, 7, 3);
    assert_eq!(plan, ids(&["B-AT01", "B-AT02", "B-SO01"]));
}

// ---- D9: retreat or continue (9.11) --------------------------------------------------------

fn wants(
    s: &State,
    rule: &RetreatWhen,
    round: u32,
    lost: u32,
    own: &[&str],
    enemy: &[&str],
) -> bool {
    let (own, enemy) = (ids(own), ids(enemy));
    tactics::wants_retreat(
        s,
        rule,
        &Facts {
            round,
            lost,
            own: &own,
            enemy: &enemy,
        },
    )
}

#[test]
fn retreat_default_outmatched_needs_fewer_units_and_fewer_expected_kills_9_11() {
    let s = blank();
    let r = RetreatWhen::default();
    assert_eq!(r, RetreatWhen::Outmatched);
    // A beeler AT against three soldiers expects 21/36 kills, they expect 3/36: it stays.
    assert!(!wants(
        &s,
        &r,
        1,
        0,
        &["B-AT01"],
        &["M-SO01", "M-SO02", "M-SO03"]
    ));
    // Against three ATs: 10/36 against 30/36: it goes.
    assert!(wants(
        &s,
        &r,
        1,
        0,
        &["B-AT01"],
        &["M-AT01", "M-AT02", "M-AT03"]
    ));
    // Never when not outnumbered.
    assert!(!wants(&s, &r, 1, 0, &["B-SO01"], &["M-AT01"]));
}

#[test]
fn retreat_outnumbered_and_two_to_one_count_face_up_units_9_11() {
    let s = blank();
    let (one, two, three) = (
        ["B-AT01"],
        ["M-SO01", "M-SO02"],
        ["M-SO01", "M-SO02", "M-SO03"],
    );
    assert!(wants(&s, &RetreatWhen::Outnumbered, 1, 0, &one, &two));
    assert!(!wants(&s, &RetreatWhen::Outnumbered, 1, 0, &two, &two));
    assert!(wants(&s, &RetreatWhen::TwoToOne, 1, 0, &one, &two));
    assert!(!wants(&s, &RetreatWhen::TwoToOne, 1, 0, &two, &three));
    assert!(!wants(&s, &RetreatWhen::Never, 9, 9, &one, &three));
}

#[test]
fn retreat_after_round_n_9_11() {
    let s = blank();
    let r = RetreatWhen::AfterRound(3);
    assert!(!wants(&s, &r, 2, 0, &["B-AT01"], &["M-AT01"]));
    assert!(wants(&s, &r, 3, 0, &["B-AT01"], &["M-AT01"]));
}

#[test]
fn retreat_when_lost_at_least_n_9_11() {
    let s = blank();
    let r = RetreatWhen::LostGe(2);
    assert!(!wants(&s, &r, 1, 1, &["B-AT01"], &["M-AT01"]));
    assert!(wants(&s, &r, 1, 2, &["B-AT01"], &["M-AT01"]));
}

#[test]
fn retreat_when_the_enemy_has_a_ps_or_kanyu_9_11() {
    let s = blank();
    let r = RetreatWhen::EnemyHas(ids(&["ps"]));
    assert!(wants(&s, &r, 1, 0, &["M-AT01"], &["B-SO01", "B-BLUE"]));
    assert!(!wants(&s, &r, 1, 0, &["M-AT01"], &["B-SO01"]));
    let r = RetreatWhen::EnemyHas(ids(&["kanyu", "M-H01"]));
    assert!(wants(&s, &r, 1, 0, &["B-AT01"], &["M-KANYU"]));
    assert!(wants(&s, &r, 1, 0, &["B-AT01"], &["M-H01"]));
    assert!(!wants(&s, &r, 1, 0, &["B-AT01"], &["M-H02"]));
}

#[test]
fn retreat_conditions_combine_with_any_and_all_9_11() {
    let s = blank();
    let any = RetreatWhen::Any(vec![RetreatWhen::AfterRound(4), RetreatWhen::LostGe(1)]);
    assert!(wants(&s, &any, 1, 1, &["B-AT01"], &["M-AT01"]));
    assert!(wants(&s, &any, 4, 0, &["B-AT01"], &["M-AT01"]));
    assert!(!wants(&s, &any, 3, 0, &["B-AT01"], &["M-AT01"]));
    let all = RetreatWhen::All(vec![RetreatWhen::Outnumbered, RetreatWhen::AfterRound(2)]);
    assert!(!wants(&s, &all, 1, 0, &["B-AT01"], &["M-AT01", "M-AT02"]));
    assert!(wants(&s, &all, 2, 0, &["B-AT01"], &["M-AT01", "M-AT02"]));
}

#[test]
fn the_phase_player_decides_first_and_the_other_cannot_retreat_then_9_11_1_9_11_2() {
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "M-AT01", "J07", true);
    s.policies[Side::Beeler].retreat = RetreatWhen::AfterRound(1);
    s.policies[Side::Mercenary].retreat = RetreatWhen::AfterRound(1);
    let mut ended = false;
    let log = with_phase(&mut s, Side::Mercenary, |ph| {
        ended = matches!(ph.decide(h("J07"), "t", 1, &PerSide::default()), Flow::End);
    });
    assert!(ended);
    assert_eq!(s.hex_of("B-AT01"), Some(h("J07")), "{log:?}");
    assert_ne!(s.hex_of("M-AT01"), Some(h("J07")));
}

#[test]
fn a_hex_override_decides_retreat_in_its_hex_only_9_11() {
    for (hex, retreats) in [("J07", true), ("J05", false)] {
        let mut s = blank();
        put(&mut s, "B-AT01", hex, true);
        put(&mut s, "M-SO01", hex, true);
        s.policies[Side::Beeler].combat_overrides = vec![CombatOverride {
            retreat: Some(RetreatWhen::LostGe(1)),
            ..override_at("J07")
        }];
        let mut lost = PerSide::default();
        lost[Side::Beeler] = 1;
        let mut ended = false;
        with_phase(&mut s, Side::Beeler, |ph| {
            ended = matches!(ph.decide(h(hex), "t", 1, &lost), Flow::End);
        });
        assert_eq!(ended, retreats, "{hex}");
        assert_eq!(s.hex_of("B-AT01") != Some(h(hex)), retreats, "{hex}");
    }
}

// ---- D10: retreat destination (9.11.9-9.11.11) ---------------------------------------------

#[test]
fn retreat_to_tries_the_listed_hexes_first_9_11_9() {
    let mut s = blank();
    // From J07 the beeler may go to J06, K07 (EX-6, own base) and K08; K07 is the default.
    assert_eq!(retreat_hexes(&s, Side::Beeler, h("J07"))[0], h("K07"));
    s.policies[Side::Beeler].retreat_to.hexes = vec![h("K08"), h("J06")];
    assert_eq!(
        retreat_hexes(&s, Side::Beeler, h("J07")),
        vec![h("K08"), h("J06"), h("K07")]
    );
    // A listed hex that is not legal is skipped (9.11.5-1).
    put(&mut s, "M-AT01", "K08", true);
    assert_eq!(retreat_hexes(&s, Side::Beeler, h("J07"))[0], h("J06"));
}

#[test]
fn retreat_prefer_ranks_hex_kinds_in_the_players_order_9_11_10() {
    let mut s = blank();
    put(&mut s, "B-SO01", "K08", false); // own units in K08
    put(&mut s, "M-SO01", "J06", false); // only a face-down enemy in J06 (9.11.6)
    assert_eq!(
        retreat_hexes(&s, Side::Beeler, h("J07")),
        vec![h("K07"), h("K08"), h("J06")]
    );
    s.policies[Side::Beeler].retreat_to.prefer =
        vec![HexKind::OnlyFacedownEnemy, HexKind::OwnUnits];
    // Kinds left out (own base) come after the listed ones.
    assert_eq!(
        retreat_hexes(&s, Side::Beeler, h("J07")),
        vec![h("J06"), h("K08"), h("K07")]
    );
}

#[test]
fn retreat_split_spread_uses_every_legal_hex_and_keeps_faces_9_11_9() {
    for (split, hexes) in [(Split::Together, 1), (Split::Spread, 3)] {
        let mut s = blank();
        put(&mut s, "B-AT01", "J07", true);
        put(&mut s, "B-SO01", "J07", true);
        put(&mut s, "B-SO02", "J07", false);
        put(&mut s, "M-AT01", "J07", true);
        s.policies[Side::Beeler].retreat_to = RetreatTo {
            split,
            ..RetreatTo::default()
        };
        let mut ok = Retreated::No;
        with_phase(&mut s, Side::Beeler, |ph| {
            ok = ph.retreat(h("J07"), Side::Beeler, "t")
        });
        assert_eq!(ok, Retreated::All);
        let mut at: Vec<_> = ["B-AT01", "B-SO01", "B-SO02"]
            .iter()
            .map(|u| s.hex_of(u).unwrap())
            .collect();
        assert!(
            at.iter()
                .all(|x| [h("J06"), h("K07"), h("K08")].contains(x))
        );
        // In the public order: face-up B-AT01 to the best hex (EX-6).
        assert_eq!(at[0], h("K07"));
        at.sort();
        at.dedup();
        assert_eq!(at.len(), hexes, "{split:?}");
        assert!(
            !s.unit("B-SO02").unwrap().face_up,
            "9.5: it stays face-down"
        );
    }
}

// ---- D11: heli cargo on return (9.13.4) ----------------------------------------------------

fn heli_return(cargo: &[&str]) -> State {
    let mut s = blank();
    put(&mut s, "M-H01", "F07", true);
    put(&mut s, "M-H02", "F07", true);
    put(&mut s, "M-SO01", "F07", true);
    put(&mut s, "M-AT01", "F07", false);
    put(&mut s, "M-KIRIKO", "F07", true);
    s.policies[Side::Mercenary].heli_cargo = ids(cargo);
    let mut d = Dice::new(Hash32([1; 32]), Hash32([9; 32]));
    let mut log = Log::default();
    CombatPhase {
        state: &mut s,
        dice: &mut d,
        log: &mut log,
        phase_player: Side::Beeler,
        tag: "t1/p4".into(),
    }
    .run();
    s
}

#[test]
fn returning_helis_carry_nothing_by_default_9_13_4() {
    let s = heli_return(&[]);
    assert_eq!(s.hex_of("M-H01"), Some(h("B08")));
    assert_eq!(s.hex_of("M-SO01"), Some(h("F07")));
}

#[test]
fn returning_helis_carry_cargo_by_priority_and_flip_it_face_up_9_13_4_5_11_5() {
    let s = heli_return(&["at", "soldier"]);
    // M-H01 takes the AT (face-down, so it flips), M-H02 the soldier.
    assert_eq!(s.hex_of("M-AT01"), Some(h("B08")));
    assert!(s.unit("M-AT01").unwrap().face_up);
    assert_eq!(s.hex_of("M-SO01"), Some(h("B08")));
    // Kiriko is an AT but is never carried (A3).
    assert_eq!(s.hex_of("M-KIRIKO"), Some(h("F07")));
    let s = heli_return(&["M-SO01"]);
    assert_eq!(s.hex_of("M-SO01"), Some(h("B08")));
    assert_eq!(s.hex_of("M-AT01"), Some(h("F07")));
}

// ---- per-hex overrides: lifetime -----------------------------------------------------------

#[test]
fn combat_overrides_last_for_the_next_combat_phase_only() {
    use super::Kummen;
    use crate::systems::Rules;
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    s.step = super::state::Step::B1;
    let o: Orders = yaml::parse(
        "combat_overrides:\n  - {hex: J07, retreat: never, targets: [kanyu]}\n",
        "o",
    )
    .unwrap();
    assert!(Kummen.check(&s, "beeler", &o).is_empty());
    let mut orders = std::collections::BTreeMap::new();
    orders.insert("beeler".to_string(), o);
    let mut d = Dice::new(Hash32([2; 32]), Hash32([9; 32]));
    let r = Kummen.resolve(&s, &orders, &mut d).unwrap();
    assert!(r.state.policies[Side::Beeler].combat_overrides.is_empty());
    // The mercenary side's M1 overrides wait for phase 8 (step B2).
    let mut s = r.state;
    assert_eq!(s.step, super::state::Step::M1);
    let o: Orders =
        yaml::parse("combat_overrides:\n  - {hex: J07, retreat: never}\n", "o").unwrap();
    let mut orders = std::collections::BTreeMap::new();
    orders.insert("mercenary".to_string(), o);
    let r = Kummen.resolve(&s, &orders, &mut d).unwrap();
    assert_eq!(r.state.policies[Side::Mercenary].combat_overrides.len(), 1);
    s = r.state;
    let r = Kummen.resolve(&s, &Default::default(), &mut d).unwrap();
    assert!(
        r.state.policies[Side::Mercenary]
            .combat_overrides
            .is_empty()
    );
}

// ---- check(): bad values name their field, rule and what is accepted -----------------------

fn problems(side: &str, text: &str) -> Vec<Problem> {
    let o: Orders = yaml::parse(text, "o").unwrap_or_else(|e| panic!("{e}"));
    steps::check(&blank(), side, &o)
}

fn only(side: &str, text: &str) -> Problem {
    let p = problems(side, text);
    assert_eq!(p.len(), 1, "{p:?}");
    p[0].clone()
}

#[test]
fn check_accepts_every_policy_value_of_the_template() {
    let text = "policies:\n  ps_partner: [kanyu, heli, M-AT03]\n  pairing: weakest_first\n  \
                distribute: even\n  targets: [kiriko, M-AT01]\n  base_targets: strongest\n  \
                retreat: {any: [outmatched, {after_round: 3}, {lost_ge: 2}, {enemy_has: [kanyu]}]}\n  \
                retreat_to: {hexes: [K07], prefer: [own_units], split: spread}\n\
                combat_overrides:\n  - {hex: K07, retreat: never, targets: [M-KANYU]}\n";
    assert_eq!(problems("beeler", text), vec![]);
    let text = "policies:\n  targets: [ps, blue_at, B-SO01]\n  heli_cargo: [kanyu, at, M-SO02]\n\
                combat_overrides:\n  - {hex: B08, heli_cargo: [soldier]}\n";
    assert_eq!(problems("mercenary", text), vec![]);
}

#[test]
fn check_refuses_a_target_that_is_not_an_enemy_9_8_4() {
    let p = only("beeler", "policies:\n  targets: [M-KANYU, blue_at]\n");
    assert_eq!(p.path.to_string(), "orders.policies.targets[1]");
    assert_eq!(p.rule.as_deref(), Some("9.8.4"));
    assert!(p.accepted.contains("mercenary unit id"), "{}", p.accepted);
    let p = only("mercenary", "policies:\n  base_targets: []\n");
    assert_eq!(p.path.to_string(), "orders.policies.base_targets");
    assert_eq!(p.rule.as_deref(), Some("9.12.3"));
}

#[test]
fn check_refuses_ps_partner_from_the_mercenary_side_9_8_2() {
    let p = only("mercenary", "policies:\n  ps_partner: max_expected_vp\n");
    assert_eq!(p.path.to_string(), "orders.policies.ps_partner");
    assert_eq!(p.rule.as_deref(), Some("9.8.2"));
    let p = only("beeler", "policies:\n  ps_partner: [heli, B-SO01]\n");
    assert_eq!(p.path.to_string(), "orders.policies.ps_partner[1]");
}

#[test]
fn check_refuses_bad_retreat_conditions_9_11() {
    let p = only(
        "beeler",
        "policies:\n  retreat: {any: [outnumbered, {after_round: 0}]}\n",
    );
    assert_eq!(
        p.path.to_string(),
        "orders.policies.retreat.any[1].after_round"
    );
    assert_eq!(p.rule.as_deref(), Some("9.11"));
    assert_eq!(p.accepted, "1 or more");
    let p = only("mercenary", "policies:\n  retreat: {enemy_has: [kanyu]}\n");
    assert_eq!(p.path.to_string(), "orders.policies.retreat.enemy_has[0]");
    let p = only(
        "beeler",
        "policies:\n  retreat: {all: [never, outnumbered]}\n",
    );
    assert_eq!(p.path.to_string(), "orders.policies.retreat.all[0]");
    let p = only("beeler", "policies:\n  retreat: {lost_ge: 0}\n");
    assert_eq!(p.path.to_string(), "orders.policies.retreat.lost_ge");
}

#[test]
fn check_refuses_bad_retreat_hexes_9_11_9() {
    let p = only("beeler", "policies:\n  retreat_to: {hexes: [K07, Z99]}\n");
    assert_eq!(p.path.to_string(), "orders.policies.retreat_to.hexes[1]");
    assert_eq!(p.rule.as_deref(), Some("9.11.9"));
    let p = only(
        "beeler",
        "policies:\n  retreat_to: {prefer: [empty, own_base, empty]}\n",
    );
    assert_eq!(p.path.to_string(), "orders.policies.retreat_to.prefer[2]");
}

#[test]
fn check_refuses_bad_heli_cargo_9_13_4() {
    let p = only("beeler", "policies:\n  heli_cargo: [at]\n");
    assert_eq!(p.path.to_string(), "orders.policies.heli_cargo");
    assert_eq!(p.rule.as_deref(), Some("9.13.4"));
    let p = problems(
        "mercenary",
        "policies:\n  heli_cargo: [M-KIRIKO, heli, M-H01, B-AT01]\n",
    );
    let paths: Vec<String> = p.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(
        paths,
        [0, 1, 2, 3].map(|k| format!("orders.policies.heli_cargo[{k}]"))
    );
}

#[test]
fn check_refuses_bad_combat_overrides_9_2() {
    let p = problems(
        "beeler",
        "combat_overrides:\n  - {hex: Z99, retreat: never}\n  - {hex: K07}\n  - {hex: K07, targets: [B-AT01]}\n",
    );
    let paths: Vec<String> = p.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(
        paths,
        [
            "orders.combat_overrides[0].hex",
            "orders.combat_overrides[2].hex",
            "orders.combat_overrides[2].targets[0]",
        ]
    );
    assert_eq!(p[0].rule.as_deref(), Some("9.2"));
    let p = only(
        "beeler",
        "combat_overrides:\n  - {hex: K07, heli_cargo: [at]}\n",
    );
    assert_eq!(p.path.to_string(), "orders.combat_overrides[0].heli_cargo");
}

#[test]
fn a_refused_policy_is_not_applied_and_its_side_is_told() {
    let mut s = blank();
    s.step = super::state::Step::B1;
    let o: Orders = yaml::parse(
        "policies: {retreat: {after_round: 0}, pairing: best_odds}\n",
        "o",
    )
    .unwrap();
    let mut orders = std::collections::BTreeMap::new();
    orders.insert("beeler".to_string(), o);
    let mut d = Dice::new(Hash32([2; 32]), Hash32([9; 32]));
    let r = super::steps::resolve(&s, &orders, &mut d).unwrap();
    assert_eq!(r.state.policies[Side::Beeler].pairing, Pairing::NetValue);
    assert!(r.private["beeler"][0].contains("orders.policies.retreat.after_round"));
}

#[test]
fn survey_stop_after_stops_rolling_a29() {
    let mut s = blank();
    s.place_face_down(&ids(&["B-SO01", "B-SO02", "B-SO03"]), h("K07"));
    for u in ["M-SO01", "M-SO02", "M-SO03"] {
        put(&mut s, u, "K07", true);
    }
    let o: Orders = yaml::parse("survey:\n  - {hex: K07, stop_after: 1}\n", "o").unwrap();
    let (plans, p) = super::survey::plan(&s, &o.survey);
    assert!(p.is_empty());
    // Soldiers succeed on 1-5: whatever the dice, at most one beeler unit flips.
    for seed in 0..10u8 {
        let mut s2 = s.clone();
        let mut d = Dice::new(Hash32([seed; 32]), Hash32([9; 32]));
        let mut log = Log::default();
        super::survey::run(&mut s2, &plans, &mut d, &mut log);
        let up = ["B-SO01", "B-SO02", "B-SO03"]
            .iter()
            .filter(|u| s2.unit(u).unwrap().face_up)
            .count();
        assert!(up <= 1, "seed {seed}: {:?}", log.public);
    }
    let o: Orders = yaml::parse("survey:\n  - {hex: K07, stop_after: 0}\n", "o").unwrap();
    let (_, p) = super::survey::plan(&s, &o.survey);
    assert_eq!(p[0].path.to_string(), "orders.survey[0].stop_after");
}

#[test]
fn policy_patch_parses_into_every_field() {
    let p: PolicyPatch = yaml::parse(
        "pairing: net_value\ndistribute: focus\ntargets: best_value\nbase_targets: best_value\nretreat: outmatched\n",
        "o",
    )
    .unwrap();
    assert_eq!(p.pairing, Some(Pairing::NetValue));
}

// ---- issue 12: freer policies (7.2, 9.11.9, 4.3.2) -------------------------------------------

#[test]
fn retreat_groups_send_the_units_they_name_to_their_own_hexes_9_11_9() {
    let mut s = blank();
    put(&mut s, "B-AT01", "J07", true);
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-SO02", "J07", false);
    put(&mut s, "M-AT01", "J07", true);
    // The ATs go to the best hex (EX-6, K07); the soldiers, either face, to J06.
    s.policies[Side::Beeler].retreat_to =
        yaml::parse("groups: [{units: [soldier], hexes: [J06]}]\n", "retreat_to").unwrap();
    let mut ok = Retreated::No;
    with_phase(&mut s, Side::Beeler, |ph| {
        ok = ph.retreat(h("J07"), Side::Beeler, "t")
    });
    assert_eq!(ok, Retreated::All);
    assert_eq!(s.hex_of("B-AT01"), Some(h("K07")));
    assert_eq!(s.hex_of("B-SO01"), Some(h("J06")));
    assert_eq!(s.hex_of("B-SO02"), Some(h("J06")));
    assert!(!s.unit("B-SO02").unwrap().face_up, "faces are kept (9.5)");
}

#[test]
fn a_unit_goes_with_the_first_retreat_group_naming_it_9_11_9() {
    let mut s = blank();
    put(&mut s, "B-SO01", "J07", true);
    put(&mut s, "B-SO02", "J07", true);
    put(&mut s, "M-AT01", "J07", true);
    s.policies[Side::Beeler].retreat_to = yaml::parse(
        "groups: [{units: [B-SO02], hexes: [K08]}, {units: [soldier], hexes: [J06]}]\n",
        "retreat_to",
    )
    .unwrap();
    with_phase(&mut s, Side::Beeler, |ph| {
        ph.retreat(h("J07"), Side::Beeler, "t");
    });
    assert_eq!(s.hex_of("B-SO02"), Some(h("K08")));
    assert_eq!(s.hex_of("B-SO01"), Some(h("J06")));
}

#[test]
fn check_refuses_a_retreat_group_naming_no_unit_of_the_side_9_11_9() {
    let p = only(
        "beeler",
        "policies:\n  retreat_to: {groups: [{units: [M-AT01]}]}\n",
    );
    assert_eq!(
        p.path.to_string(),
        "orders.policies.retreat_to.groups[0].units[0]"
    );
    assert_eq!(p.rule.as_deref(), Some("9.11.9"));
    assert!(p.accepted.contains("beeler unit id"), "{}", p.accepted);
    let p = only(
        "beeler",
        "policies:\n  retreat_to: {groups: [{units: []}]}\n",
    );
    assert_eq!(
        p.path.to_string(),
        "orders.policies.retreat_to.groups[0].units"
    );
}

#[test]
fn check_refuses_draw_until_from_the_mercenary_side_and_names_outside_the_cup_4_3_2() {
    let p = only("mercenary", "policies:\n  draw_until: {units: 2}\n");
    assert_eq!(p.path.to_string(), "orders.policies.draw_until");
    assert_eq!(p.rule.as_deref(), Some("4.3.2"));
    let p = only(
        "beeler",
        "policies:\n  draw_until: {drawn: [at, blue_at]}\n",
    );
    assert_eq!(p.path.to_string(), "orders.policies.draw_until.drawn[1]");
    assert!(p.accepted.contains("at, soldier"), "{}", p.accepted);
    assert_eq!(
        problems(
            "beeler",
            "policies:\n  draw_until: {units: 3, drawn: [B-AT02]}\n"
        ),
        vec![]
    );
}

#[test]
fn check_refuses_a_heli_trigger_path_that_is_not_a_flight_from_ex10_5_11_7_2() {
    // B08 is EX-10; C08 is next to it, E07 is not.
    let p = only(
        "mercenary",
        "policies:\n  heli_triggers: [{to: E07, path: [C08, E07]}]\n",
    );
    assert_eq!(
        p.path.to_string(),
        "orders.policies.heli_triggers[0].path[1]"
    );
    assert_eq!(p.rule.as_deref(), Some("5.11"));
    let p = only(
        "mercenary",
        "policies:\n  heli_triggers: [{to: E07, path: [C08, D08]}]\n",
    );
    assert_eq!(
        p.path.to_string(),
        "orders.policies.heli_triggers[0].path[1]"
    );
    assert!(
        p.message.contains("not in the trigger's destination E07"),
        "{}",
        p.message
    );
    let p = only("mercenary", "policies:\n  heli_triggers: [{helis: 2}]\n");
    assert_eq!(
        p.path.to_string(),
        "orders.policies.heli_triggers[0].when_beeler_in"
    );
    let p = only("mercenary", "policies:\n  heli_triggers: [{to: B08}]\n");
    assert_eq!(p.rule.as_deref(), Some("7.2.2"));
}

#[test]
fn check_accepts_the_issue_12_policy_examples_of_the_docs_4_3_2_7_2_9_11_9() {
    let beeler = "policies: {draw_until: {drawn: [at]}, retreat_to: {groups: [{units: [soldier], prefer: [empty]}]}}\n";
    assert_eq!(problems("beeler", beeler), vec![]);
    let mercenary =
        "policies: {heli_triggers: [{when_no_mercenary_in: [G10], to: G10, cargo: [M-AT02]}]}\n";
    assert_eq!(problems("mercenary", mercenary), vec![]);
}
