//! The combat steps rule by rule (18.4-27.4): one behaviour each, on the real setup state (38)
//! with the fixtures of `combat_tests` (the duel in open space, Titans' Green Noa stack).

use super::tests::{dice, duel, lines, loc, order, prepared, put, rolls, run, titans_move_to};
use super::*;
use crate::protocol::dice::Dice;
use crate::systems::zeta::state::State;
use crate::systems::zeta::steps;

/// Runs the combats slot of Titans' phase (the duel's card) with `combats` as the orders.
fn combats_slot(
    s: State,
    combats: Vec<CombatOrder>,
    d: &mut Dice,
) -> (PhaseCursor, Vec<String>, Vec<String>) {
    let card = Card {
        side: Side::Titans,
        kind: CardKind::Space,
        copy: 1,
    };
    let mut cursor = PhaseCursor {
        k: 1,
        card,
        slot: Slot::Combats,
        snapshot: Default::default(),
        combats_done: Vec::new(),
        combat_orders_done: 0,
    };
    let orders = PhaseOrders {
        combats,
        ..Default::default()
    };
    let mut ctx = Ctx::new(s, Some(d), Moment::Resolve);
    let out = steps::resolve_phase_slot(&mut ctx, &mut cursor, &orders);
    assert_eq!(out, steps::SlotOutcome::Continue);
    let (public, private) = ctx.log.into_lines();
    let titans = private.get("titans").cloned().unwrap_or_default();
    (cursor, public, titans)
}

/// The labels of every public roll, in the order rolled.
fn labels_of(d: &Dice) -> Vec<String> {
    d.transcript()
        .public
        .iter()
        .map(|r| r.label.clone())
        .collect()
}

/// The index of the first label containing `part`.
fn first(labels: &[String], part: &str) -> Option<usize> {
    labels.iter().position(|l| l.contains(part))
}

/// The hits a public roll line reports ("... rolls 1 3 against 3·1: 2 hits", "...: 1 hit").
fn hits_of(line: &str) -> u32 {
    line.rsplit(": ")
        .next()
        .and_then(|t| t.strip_suffix(" hits").or_else(|| t.strip_suffix(" hit")))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

// --- 18: declaring and ordering combats ------------------------------------------------------

#[test]
fn rule_18_4_a_second_combat_in_the_same_hex_is_skipped_and_its_side_told() {
    let o = order("space:E05", &[Side::Aeug]);
    let mut d = dice(1);
    let (cursor, public, titans) = combats_slot(duel(1, 1), vec![o.clone(), o], &mut d);
    let attacks = public
        .iter()
        .filter(|l| l.as_str() == "titans attacks aeug in space:E05 (18)")
        .count();
    assert_eq!(attacks, 1, "{public:?}");
    assert_eq!(cursor.combats_done, vec![loc("space:E05")]);
    assert_eq!(
        titans,
        vec!["combat in space:E05 skipped: one combat per hex per phase (18.4)"]
    );
}

#[test]
fn rule_18_4_a_combat_skipped_by_its_condition_leaves_the_hex_to_a_later_order() {
    // 18.4 counts combats, not orders: a guarded order whose condition fails fights nothing,
    // so the next order for the same hex (the usual "if ..., else" pair) still has its combat.
    let mut guarded = order("space:E05", &[Side::Aeug]);
    guarded.guard = Some(crate::systems::zeta::guard::Guard::PhaseMin(9));
    let plain = order("space:E05", &[Side::Aeug]);
    let mut d = dice(1);
    let (cursor, public, titans) = combats_slot(duel(1, 1), vec![guarded, plain], &mut d);
    let attacks = public
        .iter()
        .filter(|l| l.as_str() == "titans attacks aeug in space:E05 (18)")
        .count();
    assert_eq!(attacks, 1, "{public:?}");
    assert_eq!(cursor.combats_done, vec![loc("space:E05")]);
    assert_eq!(cursor.combat_orders_done, 2);
    assert_eq!(
        titans,
        vec!["combat in space:E05 skipped: its condition does not hold"]
    );
}

#[test]
fn rule_18_5_movers_meeting_the_enemy_fight_only_when_a_combat_is_declared() {
    let s = duel(1, 1);
    let mut d = dice(1);
    let (_, public, _) = combats_slot(s, Vec::new(), &mut d);
    assert!(public.is_empty(), "{public:?}");
    assert!(d.transcript().public.is_empty());
}

#[test]
fn rule_18_7_combats_are_resolved_hex_by_hex_in_the_acting_factions_order() {
    let mut s = duel(1, 1);
    titans_move_to(&mut s, "space:C05");
    let mut d = dice(2);
    let (cursor, public, _) = combats_slot(
        s,
        vec![
            order("space:E05", &[Side::Aeug]),
            order("space:C05", &[Side::Aeug]),
        ],
        &mut d,
    );
    let at = |l: &str| public.iter().position(|x| x == l).unwrap();
    assert!(
        at("titans attacks aeug in space:E05 (18)") < at("titans attacks aeug in space:C05 (18)")
    );
    assert_eq!(
        cursor.combats_done,
        vec![loc("space:E05"), loc("space:C05")]
    );
    // Every die of the first combat is rolled before any of the second.
    let labels = labels_of(&d);
    let last_e05 = labels.iter().rposition(|l| l.contains("c:space:E05/"));
    let first_c05 = first(&labels, "c:space:C05/");
    assert!(last_e05 < first_c05, "{labels:?}");
}

#[test]
fn rule_18_10_the_acting_faction_attacks_and_the_declared_faction_defends() {
    let mut s = duel(1, 1);
    s.policies[Side::NeoZeon].join.default = JoinAnswer::Abstain;
    let mut ctx = Ctx::new(s, None, Moment::Resolve);
    let (a, d) = camps(&mut ctx, Side::Titans, &order("space:E05", &[Side::Aeug])).unwrap();
    assert_eq!((a.principal, d.principal), (Side::Titans, Side::Aeug));
    assert_eq!(
        (a.sides(), d.sides()),
        (vec![Side::Titans], vec![Side::Aeug])
    );
    let (a, d) = camps(
        &mut ctx,
        Side::Titans,
        &order("space:E05", &[Side::NeoZeon, Side::Aeug]),
    )
    .unwrap();
    assert_eq!(a.principal, Side::Titans);
    assert_eq!(d.principal, Side::NeoZeon, "the first declared leads");
    assert_eq!(d.sides(), vec![Side::NeoZeon, Side::Aeug]);
}

// --- 19: the sequence -------------------------------------------------------------------------

/// The duel with both camps bombing and bombarding.
fn full_duel(t: usize, a: usize) -> (State, CombatOrder) {
    let mut s = duel(t, a);
    s.policies[Side::Aeug].bomb = Bomb::IfTarget;
    s.policies[Side::Aeug].bombard = Bombard::Always;
    let mut o = order("space:E05", &[Side::Aeug]);
    o.bomb = Wish::Yes;
    o.bombard = Wish::Yes;
    (s, o)
}

#[test]
fn rule_19_1_the_steps_come_air_aa_bombing_then_bombardment() {
    let mut seen = false;
    for seed in 1..=60u8 {
        let (s, o) = full_duel(2, 2);
        let mut d = dice(seed);
        run(s, &o, &mut d);
        let labels = labels_of(&d);
        let steps: Vec<Option<usize>> = ["/air/", "/aa/", "/bombing/", "/bombard/"]
            .iter()
            .map(|p| first(&labels, p))
            .collect();
        if steps.iter().any(Option::is_none) {
            continue;
        }
        seen = true;
        assert!(
            steps.windows(2).all(|w| w[0] < w[1]),
            "seed {seed}: {labels:?}"
        );
        // Each step ends before the next begins.
        let last_air = labels.iter().rposition(|l| l.contains("/air/"));
        assert!(last_air < steps[1], "seed {seed}: {labels:?}");
    }
    assert!(seen, "no seed fired all four steps");
}

#[test]
fn rule_19_2_each_step_places_its_hits_before_the_next_step_rolls() {
    let mut seen = false;
    for seed in 1..=120u8 {
        let (s, o) = full_duel(2, 2);
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        // R for a volley's roll, P for a placement; runs of the same letter collapse.
        let mut pattern = String::new();
        for l in &log {
            let c = if l.contains(" rolls ") {
                'R'
            } else if l.contains(" places ") {
                'P'
            } else {
                continue;
            };
            if !pattern.ends_with(c) {
                pattern.push(c);
            }
        }
        // Every step that rolled scored: each roll group has its placement.
        let steps = ["/air/", "/aa/", "/bombing/", "/bombard/"];
        let labels = labels_of(&d);
        if steps.iter().any(|p| first(&labels, p).is_none()) {
            continue;
        }
        let scored_every_step = log
            .iter()
            .filter(|l| l.contains(" rolls "))
            .map(|l| hits_of(l))
            .sum::<u32>()
            > 0
            && pattern == "RPRPRPRP";
        if !scored_every_step {
            continue;
        }
        seen = true;
    }
    assert!(seen, "no seed scored in all four steps");
}

#[test]
fn rule_19_3_the_combat_ends_after_its_steps_with_both_sides_still_there() {
    let s = duel(1, 1);
    let mut d = dice(4);
    let (st, _) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
    // A Hizack or a GM II can take at most 2 air hits from one die: neither is removed, and
    // nobody fires a second round.
    assert!(st.units.contains_key("t-hizack-90") && st.units.contains_key("a-gm2-90"));
    assert_eq!(rolls(&d, "/air/titans/t-hizack-90").len(), 1);
    assert_eq!(rolls(&d, "/air/aeug/a-gm2-90").len(), 1);
    assert_eq!(d.transcript().public.len(), 2);
}

// --- 20: preparation --------------------------------------------------------------------------

#[test]
fn rule_20_1_the_attacker_prepares_first_and_the_defender_sees_its_sortie() {
    let mut s = start_c05();
    s.policies[Side::Aeug].defence.sortie = Sortie::IfAirFavourable;
    // Titans keep every MS in: AEUG's air is then the stronger and it sorties all four.
    let mut o = order("space:C05", &[Side::Aeug]);
    o.prep = Some(PrepOrders {
        sortie: Some(Vec::new()),
        ..Default::default()
    });
    let (ctx, cs) = prepared(s, &o);
    assert!(cs.prep[0].sortie.is_empty());
    assert_eq!(cs.prep[1].sortie.len(), 4);
    let log = lines(ctx);
    let att = log.iter().position(|l| l.starts_with("attacker titans"));
    let def = log.iter().position(|l| l.starts_with("defender aeug"));
    assert!(att.is_some() && att < def, "{log:?}");
}

/// Titans' Green Noa stack moved onto AEUG's fleet in C05.
fn start_c05() -> State {
    let mut s = super::tests::start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:C05");
    s
}

#[test]
fn rule_20_7_any_number_of_characters_stay_in_an_own_military_base() {
    let mut s = super::tests::start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:J04");
    for c in ["henken", "hayato", "blex"] {
        s.chars.get_mut(c).unwrap().place = CharPlace::Solo(loc("space:J04"));
    }
    let (ctx, cs) = prepared(s, &order("space:J04", &[Side::Aeug]));
    for c in ["henken", "hayato", "blex"] {
        assert!(cs.prep[1].in_base.contains(c), "{c}");
        assert_eq!(ctx.state.chars[c].place, CharPlace::Solo(loc("space:J04")));
    }
}

#[test]
fn rule_20_7_any_number_of_characters_ride_one_ship() {
    let mut s = duel(0, 0);
    for c in ["henken", "hayato", "blex", "apolly"] {
        s.chars.get_mut(c).unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
    }
    let (ctx, cs) = prepared(s, &order("space:E05", &[Side::Aeug]));
    for c in ["henken", "hayato", "blex", "apolly"] {
        assert_eq!(
            ctx.state.chars[c].place,
            CharPlace::Aboard("a-salamis-kai-9".into()),
            "{c}"
        );
    }
    // One of them is the captain (20.8).
    assert_eq!(cs.prep[1].captains.len(), 1);
}

// --- 21: air combat ---------------------------------------------------------------------------

#[test]
fn rule_21_1_only_ms_fire_and_are_hit_in_air_combat() {
    for seed in 1..=12u8 {
        let s = duel(1, 1);
        let mut d = dice(seed);
        let (st, _) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
        let air = rolls(&d, "/air/");
        assert_eq!(air.len(), 2);
        assert!(
            air.iter()
                .all(|(l, _)| l.contains("hizack") || l.contains("gm2"))
        );
        assert_eq!(st.units["t-alexandria-9"].face, FaceUp::Front);
        assert_eq!(st.units["a-salamis-kai-9"].face, FaceUp::Front);
    }
}

#[test]
fn rule_21_2_air_combat_is_fought_whatever_the_wishes() {
    let s = duel(1, 1);
    let mut o = order("space:E05", &[Side::Aeug]);
    o.bomb = Wish::No;
    o.bombard = Wish::No;
    let mut d = dice(3);
    run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/air/titans/").len(), 1);
    assert_eq!(rolls(&d, "/air/aeug/").len(), 1);
}

#[test]
fn rule_21_3_every_sortied_ms_fires_in_air_combat() {
    let s = duel(3, 2);
    let mut d = dice(5);
    run(s, &order("space:E05", &[Side::Aeug]), &mut d);
    assert_eq!(rolls(&d, "/air/titans/").len(), 3);
    assert_eq!(rolls(&d, "/air/aeug/").len(), 2);
}

#[test]
fn rule_21_4_both_camps_fire_before_the_air_damage_is_applied() {
    let mut seen = false;
    for seed in 1..=30u8 {
        let s = duel(2, 2);
        let mut d = dice(seed);
        let (_, log) = run(s, &order("space:E05", &[Side::Aeug]), &mut d);
        let last_roll = log.iter().rposition(|l| l.contains(" rolls "));
        let first_place = log.iter().position(|l| l.contains(" places "));
        let Some(p) = first_place else { continue };
        seen = true;
        assert!(last_roll < Some(p), "seed {seed}: {log:?}");
        // Every MS rolled, whatever it was about to suffer.
        assert_eq!(rolls(&d, "/air/").len(), 4, "seed {seed}");
    }
    assert!(seen);
}

// --- 22: AA fire --------------------------------------------------------------------------------

/// Two Hizacks that bomb against AEUG ships that cannot bomb back (no MS): only AEUG fires AA.
fn bombers(t: usize) -> (State, CombatOrder) {
    let s = duel(t, 0);
    let mut o = order("space:E05", &[Side::Aeug]);
    o.bomb = Wish::Yes;
    (s, o)
}

#[test]
fn rule_22_2_every_fighting_ship_fires_aa() {
    let (mut s, o) = bombers(2);
    put(
        &mut s,
        "a-argama-9",
        Side::Aeug,
        "argama",
        "space:E05",
        false,
    );
    let mut d = dice(3);
    run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/aa/aeug/a-salamis-kai-9").len(), 1);
    assert_eq!(rolls(&d, "/aa/aeug/a-argama-9").len(), 1);
}

#[test]
fn rule_22_3_a_ship_rolls_its_faces_aa_guns_against_its_aa_values() {
    let (mut s, o) = bombers(2);
    // The Salamis Kai fires 2 guns face up, 1 on its back.
    s.units.get_mut("a-salamis-kai-9").unwrap().face = FaceUp::Back;
    let mut d = dice(3);
    let (_, log) = run(s, &o, &mut d);
    let aa = rolls(&d, "/aa/aeug/a-salamis-kai-9");
    assert_eq!(aa[0].1.len(), 1);
    let line = log
        .iter()
        .find(|l| l.starts_with("aeug a-salamis-kai-9 rolls"))
        .unwrap();
    assert!(line.contains("against 2·1"), "{line}");
    assert_eq!(hits_of(line), fire::dice_hits(&aa[0].1, &[2, 1]));
}

#[test]
fn rule_22_5_a_captain_adds_his_ship_attack_to_the_aa_guns() {
    let (mut s, o) = bombers(2);
    // Henken: ship attack 1.
    s.chars.get_mut("henken").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
    let mut d = dice(3);
    run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/aa/aeug/a-salamis-kai-9")[0].1.len(), 3);
}

#[test]
fn rule_22_7_the_camps_aa_hits_are_pooled_into_its_damage() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let (mut s, o) = bombers(2);
        put(
            &mut s,
            "a-argama-9",
            Side::Aeug,
            "argama",
            "space:E05",
            false,
        );
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        let total: u32 = log
            .iter()
            .filter(|l| l.starts_with("aeug a-") && l.contains(" rolls "))
            .map(|l| hits_of(l))
            .sum();
        if total == 0 {
            continue;
        }
        seen = true;
        // AEUG has no MS: its only placement is the AA step's.
        let placed = log.iter().find(|l| l.starts_with("aeug places")).unwrap();
        assert!(
            placed.contains(&format!(" of {}", fire::hits_text(total))),
            "seed {seed}: {placed}"
        );
    }
    assert!(seen);
}

// --- 23: bombing ---------------------------------------------------------------------------------

#[test]
fn rule_23_1_only_the_ms_that_survived_aa_bomb() {
    let (s, o) = bombers(2);
    let (mut ctx, cs) = prepared(s, &o);
    assert_eq!(bomb_guns(&ctx, &cs, 0).len(), 2);
    ctx.state.units.remove("t-hizack-90");
    let guns: Vec<String> = bomb_guns(&ctx, &cs, 0).into_iter().map(|g| g.who).collect();
    assert_eq!(guns, vec!["t-hizack-91".to_string()]);
}

#[test]
fn rule_23_2_when_both_camps_bomb_each_bombing_is_resolved() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let (mut s, o) = full_duel(2, 2);
        s.policies[Side::Aeug].bombard = Bombard::Never;
        let mut d = dice(seed);
        run(s, &o, &mut d);
        if rolls(&d, "/bombing/titans/").is_empty() || rolls(&d, "/bombing/aeug/").is_empty() {
            continue;
        }
        seen = true;
        // Both camps fired AA at the other's bombers first.
        assert!(!rolls(&d, "/aa/titans/").is_empty() && !rolls(&d, "/aa/aeug/").is_empty());
    }
    assert!(seen);
}

#[test]
fn rule_23_3_bombing_targets_the_enemys_ships_and_its_military_base_as_a_ship() {
    let s = start_j04();
    let (ctx, cs) = prepared(s, &order("space:J04", &[Side::Aeug]));
    let t = ship_targets(&ctx, &cs, 1, false);
    assert!(
        t.iter()
            .any(|t| t.quantum == Quantum::Flip("a-salamis-kai-1".into()))
    );
    assert!(
        t.iter()
            .any(|t| matches!(&t.quantum, Quantum::BaseDown(b, 1) if b == "granada"))
    );
    // No MS among them.
    assert!(t.iter().all(|t| t.kind != damage::TargetKind::Ms));
}

/// Titans' Green Noa stack moved into Granada's hex (AEUG's military base, level 3).
fn start_j04() -> State {
    let mut s = super::tests::start(Side::Titans, CardKind::Space);
    titans_move_to(&mut s, "space:J04");
    s
}

#[test]
fn rule_23_4_a_bomber_rolls_one_die_against_its_bombing_values() {
    let mut seen = false;
    for seed in 1..=20u8 {
        let (s, o) = bombers(1);
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        let b = rolls(&d, "/bombing/titans/t-hizack-90");
        let Some((_, v)) = b.first() else { continue };
        seen = true;
        assert_eq!(v.len(), 1);
        let line = log
            .iter()
            .rev()
            .find(|l| l.starts_with("titans t-hizack-90 rolls"))
            .unwrap();
        // A Hizack bombs at 2·1 face up, 1·1 on its back.
        assert!(
            line.contains("against 2·1") || line.contains("against 1·1"),
            "{line}"
        );
        let values: &[u8] = if line.contains("against 2·1") {
            &[2, 1]
        } else {
            &[1, 1]
        };
        assert_eq!(hits_of(line), fire::dice_hits(v, values));
    }
    assert!(seen);
}

#[test]
fn rule_23_5_a_pilot_adds_his_ms_attack_to_the_bombing_dice() {
    let (mut s, o) = bombers(1);
    // Jerid (1): MS attack 1, MS defense 1: the AA cannot remove his Hizack (6 hits).
    s.chars.get_mut("jerid_1").unwrap().place = CharPlace::Aboard("t-alexandria-9".into());
    let mut d = dice(2);
    run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/bombing/titans/t-hizack-90")[0].1.len(), 2);
}

#[test]
fn rule_23_6_the_camps_bombing_hits_are_pooled_into_its_damage() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let (s, o) = bombers(2);
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        let total: u32 = log
            .iter()
            .filter(|l| l.starts_with("titans t-hizack") && l.contains(" rolls "))
            .map(|l| hits_of(l))
            .sum();
        if total == 0 {
            continue;
        }
        seen = true;
        // Titans fire only in the bombing step (no AEUG MS in the air, no bombardment).
        let placed = log.iter().find(|l| l.starts_with("titans places")).unwrap();
        assert!(
            placed.contains(&format!(" of {}", fire::hits_text(total))),
            "seed {seed}: {placed}"
        );
    }
    assert!(seen);
}

// --- 24: bombardment -----------------------------------------------------------------------------

/// The duel without MS, Titans wanting the bombardment and AEUG (by policy) `aeug`.
fn gunners(aeug: Bombard) -> (State, CombatOrder) {
    let mut s = duel(0, 0);
    s.policies[Side::Aeug].bombard = aeug;
    let mut o = order("space:E05", &[Side::Aeug]);
    o.bombard = Wish::Yes;
    (s, o)
}

/// `side`'s check line: (die, bonus).
fn check_line(log: &[String], side: Side) -> Option<(u32, u32)> {
    let l = log
        .iter()
        .find(|l| l.starts_with(&format!("{side} bombardment check: ")))?;
    let rest = l.split(": ").nth(1)?;
    let mut it = rest.split(' ');
    let die = it.next()?.parse().ok()?;
    it.next();
    let bonus = it.next()?.parse().ok()?;
    Some((die, bonus))
}

#[test]
fn rule_24_2_1_the_check_adds_the_two_best_ship_commands_aboard() {
    let (mut s, o) = gunners(Bombard::Never);
    // Bask 2, Jamaican 2, Jamitov 1, Jerid 0: 4, whoever captains.
    for c in ["bask", "jamaican", "jamitov", "jerid_1"] {
        s.chars.get_mut(c).unwrap().place = CharPlace::Aboard("t-alexandria-9".into());
    }
    let mut d = dice(1);
    let (_, log) = run(s, &o, &mut d);
    assert_eq!(
        check_line(&log, Side::Titans).map(|c| c.1),
        Some(4),
        "{log:?}"
    );
    // Nobody aboard AEUG's ship: the die alone.
    assert_eq!(
        check_line(&log, Side::Aeug).map(|c| c.1),
        Some(0),
        "{log:?}"
    );
}

#[test]
fn rule_24_2_3_a_tied_check_means_no_bombardment() {
    let mut seen = [false; 2];
    for seed in 1..=40u8 {
        let (s, o) = gunners(Bombard::Never);
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        let (t, a) = (check_line(&log, Side::Titans), check_line(&log, Side::Aeug));
        let (Some((t, _)), Some((a, _))) = (t, a) else {
            panic!("seed {seed}: no check: {log:?}")
        };
        let fired = !rolls(&d, "/bombard/").is_empty();
        if t == a {
            seen[0] = true;
            assert!(!fired, "seed {seed}: a tie bombarded");
            assert!(log.iter().any(|l| l == "no bombardment (24.1-24.2)"));
        } else if t > a {
            seen[1] = true;
            assert!(fired, "seed {seed}: Titans won the check");
        }
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn rule_24_3_the_ships_that_survived_and_the_own_military_base_bombard() {
    let s = start_j04();
    let (mut ctx, cs) = prepared(s, &order("space:J04", &[Side::Aeug]));
    let who = |ctx: &Ctx<'_>| -> Vec<String> {
        let mut g: Vec<String> = ship_guns(ctx, &cs, 1, false)
            .into_iter()
            .map(|g| g.who)
            .collect();
        g.extend(base_guns(ctx, &cs, 1, false).into_iter().map(|g| g.who));
        g
    };
    assert!(who(&ctx).contains(&"a-salamis-kai-1".to_string()));
    ctx.state.units.remove("a-salamis-kai-1");
    let after = who(&ctx);
    assert!(!after.contains(&"a-salamis-kai-1".to_string()));
    assert!(after.contains(&"granada".to_string()));
}

#[test]
fn rule_24_4_a_ship_rolls_its_faces_bombard_guns() {
    let (mut s, o) = gunners(Bombard::Always);
    // The Alexandria fires 3 guns face up, 2 on its back; the Salamis Kai 2.
    s.units.get_mut("t-alexandria-9").unwrap().face = FaceUp::Back;
    let mut d = dice(2);
    let (_, log) = run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/bombard/titans/t-alexandria-9")[0].1.len(), 2);
    assert_eq!(rolls(&d, "/bombard/aeug/a-salamis-kai-9")[0].1.len(), 2);
    let line = log
        .iter()
        .find(|l| l.starts_with("titans t-alexandria-9 rolls"))
        .unwrap();
    assert!(line.contains("against 3·1"), "{line}");
}

#[test]
fn rule_24_6_a_captain_adds_his_ship_attack_to_the_bombard_guns() {
    let (mut s, o) = gunners(Bombard::Always);
    s.chars.get_mut("bask").unwrap().place = CharPlace::Aboard("t-alexandria-9".into());
    let mut d = dice(2);
    run(s, &o, &mut d);
    assert_eq!(rolls(&d, "/bombard/titans/t-alexandria-9")[0].1.len(), 4);
}

#[test]
fn rule_24_8_the_enemys_military_base_is_bombarded_as_a_ship() {
    let mut seen = false;
    for seed in 1..=60u8 {
        let mut s = start_j04();
        // Only Granada itself is left to AEUG; nobody bombs.
        s.units
            .retain(|_, u| !(u.side == Side::Aeug && u.place == Place::Hex(loc("space:J04"))));
        for side in Side::ALL.iter().copied() {
            s.policies[side].bomb = Bomb::Never;
        }
        s.policies[Side::Aeug].bombard = Bombard::Always;
        let mut o = order("space:J04", &[Side::Aeug]);
        o.bombard = Wish::Yes;
        let mut d = dice(seed);
        let (st, log) = run(s, &o, &mut d);
        let Some(placed) = log.iter().find(|l| l.starts_with("titans places")) else {
            continue;
        };
        if !placed.contains("granada -") {
            continue;
        }
        seen = true;
        assert!(st.bases["granada"].level < 3, "seed {seed}: {placed}");
    }
    assert!(seen);
}

#[test]
fn rule_24_9_the_camps_bombard_hits_are_pooled_into_its_damage() {
    let mut seen = false;
    for seed in 1..=40u8 {
        let (s, o) = gunners(Bombard::Always);
        let mut d = dice(seed);
        let (_, log) = run(s, &o, &mut d);
        let total: u32 = log
            .iter()
            .filter(|l| l.starts_with("titans t-") && l.contains(" rolls "))
            .map(|l| hits_of(l))
            .sum();
        if total == 0 {
            continue;
        }
        seen = true;
        let placed = log.iter().find(|l| l.starts_with("titans places")).unwrap();
        assert!(
            placed.contains(&format!(" of {}", fire::hits_text(total))),
            "seed {seed}: {placed}"
        );
    }
    assert!(seen);
}

// --- 25-27: damage, command, survival ----------------------------------------------------------

#[test]
fn rule_25_1_a_steps_hits_are_placed_on_that_steps_targets() {
    let (mut ctx, cs) = prepared(duel(1, 1), &order("space:E05", &[Side::Aeug]));
    let targets = [ms_targets(&ctx, &cs, 0), ms_targets(&ctx, &cs, 1)];
    // Titans score 2 air hits: the GM II flips (defense 2); the ships are no air targets.
    damage_step(&mut ctx, &cs, FireStep::Air, [2, 0], targets, "t1/p1/x");
    assert_eq!(ctx.state.units["a-gm2-90"].face, FaceUp::Back);
    assert_eq!(ctx.state.units["a-salamis-kai-9"].face, FaceUp::Front);
    assert_eq!(ctx.state.units["t-hizack-90"].face, FaceUp::Front);
    assert!(
        lines(ctx)
            .iter()
            .any(|l| l == "titans places 2 of 2 hits: flip a-gm2-90")
    );
}

#[test]
fn rule_25_2_an_ms_removed_in_air_combat_does_not_bomb() {
    let mut seen = false;
    for seed in 1..=60u8 {
        let mut s = duel(1, 1);
        // Flipped, the Hizack goes with 2 hits; one die at 3·1 scores 2 on a 1.
        s.units.get_mut("t-hizack-90").unwrap().face = FaceUp::Back;
        let mut o = order("space:E05", &[Side::Aeug]);
        o.bomb = Wish::Yes;
        let mut d = dice(seed);
        let (st, _) = run(s, &o, &mut d);
        // The GM II's die: a 1 scores 2 and removes the flipped Hizack in the air step.
        if rolls(&d, "/air/aeug/a-gm2-90")[0].1 != vec![1] {
            continue;
        }
        seen = true;
        assert!(!st.units.contains_key("t-hizack-90"), "seed {seed}");
        assert!(rolls(&d, "/bombing/").is_empty(), "seed {seed}");
        assert!(rolls(&d, "/aa/").is_empty(), "seed {seed}");
    }
    assert!(seen);
}

#[test]
fn rule_25_7_a_captains_ship_defense_adds_to_both_faces() {
    let mut s = duel(0, 0);
    // Henken: ship defense 1; the Salamis Kai: defense 3 on each face.
    s.chars.get_mut("henken").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
    let (ctx, cs) = prepared(s, &order("space:E05", &[Side::Aeug]));
    let t = ship_targets(&ctx, &cs, 1, false);
    let cost = |q: Quantum| t.iter().find(|t| t.quantum == q).map(|t| t.cost);
    assert_eq!(cost(Quantum::Flip("a-salamis-kai-9".into())), Some(4));
    assert_eq!(cost(Quantum::KillFresh("a-salamis-kai-9".into())), Some(8));
}

#[test]
fn rule_26_2_the_ship_share_is_the_two_best_ship_commands_aboard_captain_or_not() {
    let mut s = duel(0, 0);
    // Hayato 2 and Henken 2 (one of them captains), Blex 1.
    for c in ["henken", "hayato", "blex"] {
        s.chars.get_mut(c).unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
    }
    let (ctx, cs) = prepared(s, &order("space:E05", &[Side::Aeug]));
    assert_eq!(cs.prep[1].captains.len(), 1);
    for step in [FireStep::Bombing, FireStep::Bombard] {
        assert_eq!(
            command_shares(&ctx, &cs, 1, step),
            vec![(Some(Side::Aeug), 4)]
        );
    }
    // Ship command does not count in air combat or AA.
    assert!(command_shares(&ctx, &cs, 1, FireStep::Air).is_empty());
}

#[test]
fn rule_26_4_both_placements_are_chosen_before_any_damage() {
    let mut s = duel(1, 2);
    // Quattro (MS command 2) flies the first GM II; AEUG's share of 2 flips the other.
    s.chars.get_mut("quattro").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
    let (mut ctx, cs) = prepared(s, &order("space:E05", &[Side::Aeug]));
    let targets = ms_targets(&ctx, &cs, 1);
    let alloc = allocation_for(&mut ctx, &cs, 1, FireStep::Air, 6, &targets);
    assert!(
        alloc.contains(&Quantum::Flip("a-gm2-91".into())),
        "{alloc:?}"
    );
    assert!(alloc.len() >= 2, "the scorer placed the rest: {alloc:?}");
    // Nothing is damaged yet.
    assert!(ctx.state.units.values().all(|u| u.face == FaceUp::Front));
    let log = lines(ctx);
    let share = log
        .iter()
        .position(|l| l.starts_with("aeug places 2 of the hits by command (26)"));
    let rest = log.iter().position(|l| l.starts_with("titans places"));
    assert!(share.is_some() && share < rest, "{log:?}");
}

#[test]
fn rule_27_4_survival_is_rolled_in_the_step_before_the_next_one() {
    let mut seen = false;
    for seed in 1..=120u8 {
        let mut s = duel(3, 1);
        // Apolly flies the flipped GM II: 3 hits remove it.
        s.units.get_mut("a-gm2-90").unwrap().face = FaceUp::Back;
        s.chars.get_mut("apolly").unwrap().place = CharPlace::Aboard("a-salamis-kai-9".into());
        s.policies[Side::Aeug].bombard = Bombard::Always;
        let mut o = order("space:E05", &[Side::Aeug]);
        o.bombard = Wish::Yes;
        let mut d = dice(seed);
        let (st, _) = run(s, &o, &mut d);
        if st.units.contains_key("a-gm2-90") {
            continue;
        }
        let labels = labels_of(&d);
        // Removed in the air step (not later, by 25.11, when its ship goes).
        let survival = first(&labels, "/air/survival/apolly");
        if survival.is_none() {
            continue;
        }
        seen = true;
        assert!(
            survival < first(&labels, "/bombard/"),
            "seed {seed}: {labels:?}"
        );
    }
    assert!(seen);
}

// --- 29.6.1: the mass-production Qubeley -------------------------------------------------------

#[test]
fn rule_29_6_1_a_mass_production_qubeley_sorties_without_a_pilot() {
    let mut s = duel(0, 1);
    put(
        &mut s,
        "t-mp-qubeley-9",
        Side::Titans,
        "mp_qubeley",
        "space:E05",
        true,
    );
    s.units.get_mut("t-mp-qubeley-9").unwrap().carrier = Some("t-alexandria-9".into());
    let (_, cs) = prepared(s, &order("space:E05", &[Side::Aeug]));
    assert!(cs.prep[0].sortie.contains("t-mp-qubeley-9"));
    assert!(cs.prep[0].pilots.is_empty());
}
