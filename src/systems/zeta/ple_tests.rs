//! Tests of the Ple chains (29.4-29.5), on the real setup (38) with the map emptied.

use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::carry::fixture::{put, state};
use crate::systems::zeta::ctx::Moment;
use crate::systems::zeta::state::State;

fn set(st: &mut State, char: &str, place: CharPlace) {
    st.chars.get_mut(char).unwrap().place = place;
}

fn resolve(st: State, f: impl FnOnce(&mut Ctx<'_>)) -> (State, Vec<String>) {
    let mut d = Dice::new(Hash32([5; 32]), Hash32([6; 32])).at_step(3);
    let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
    f(&mut c);
    let (lines, _) = c.log.into_lines();
    (c.state, lines)
}

/// The chains under way: Neo Zeon's Ple has died.
fn after_ple() -> State {
    let mut st = state();
    st.once.ple_transfer = Some(Transfer::Waiting);
    st.once.ple_two = Some(Transfer::Waiting);
    set(&mut st, "ple_nz", CharPlace::OutOfGame);
    st
}

#[test]
fn a_d_on_neo_zeons_ples_survival_check_sets_off_29_4_1() {
    let mut st = state();
    put(
        &mut st,
        "n-black-qubeley-1",
        Side::NeoZeon,
        "black_qubeley",
        "space:C05",
    );
    set(
        &mut st,
        "ple_nz",
        CharPlace::Aboard("n-black-qubeley-1".into()),
    );
    // Ple's table is `- - L M H D`: a 6 is D.
    let label = "t1/p1/test/ple";
    let seed = (0..=255u8)
        .find(|s| {
            Dice::new(Hash32([*s; 32]), Hash32([6; 32]))
                .at_step(3)
                .d6(label)
                == 6
        })
        .unwrap();
    let mut d = Dice::new(Hash32([seed; 32]), Hash32([6; 32])).at_step(3);
    let mut c = Ctx::new(st, Some(&mut d), Moment::Resolve);
    crate::systems::zeta::survival::survival(&mut c, "ple_nz", 0, label);
    assert_eq!(c.state.chars["ple_nz"].place, CharPlace::OutOfGame);
    assert!(!c.state.units.contains_key("n-black-qubeley-1"));
    assert_eq!(c.state.once.ple_transfer, Some(Transfer::Waiting));
    let (lines, _) = c.log.into_lines();
    assert!(lines.iter().any(|l| l.contains("(29.4.1)")), "{lines:?}");
}

#[test]
fn neo_zeons_black_qubeley_leaves_the_game_from_any_box_and_is_no_longer_augmented_29_4_1() {
    let mut st = state();
    let nz = &mut st.sides[Side::NeoZeon];
    nz.stock.insert("black_qubeley".into(), 1);
    nz.permitted.insert("black_qubeley".into());
    let (st, _) = resolve(st, ple_removed);
    let nz = &st.sides[Side::NeoZeon];
    assert!(!nz.stock.contains_key("black_qubeley"));
    assert_eq!(nz.out_of_game.get("black_qubeley"), Some(&1));
    assert!(!nz.permitted.contains("black_qubeley"));
}

#[test]
fn aeug_receives_ple_in_a_black_qubeley_in_judaus_hex_29_4_2() {
    let mut st = after_ple();
    put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
    set(&mut st, "judau", CharPlace::Aboard("a-argama-1".into()));
    st.sides[Side::Aeug].stock.insert("black_qubeley".into(), 1);
    let (st, lines) = resolve(st, transfers);
    let (id, u) = st
        .units
        .iter()
        .find(|(_, u)| u.side == Side::Aeug && u.type_id == "black_qubeley")
        .unwrap();
    assert_eq!(u.place, Place::parse("space:C05").unwrap());
    // In space it rides Judau's ship (15.4).
    assert_eq!(u.carrier.as_deref(), Some("a-argama-1"));
    assert_eq!(st.chars["ple_aeug"].place, CharPlace::Aboard(id.clone()));
    assert_eq!(st.once.ple_transfer, Some(Transfer::Done));
    assert!(!st.sides[Side::Aeug].stock.contains_key("black_qubeley"));
    assert!(lines.iter().any(|l| l.contains("(29.4.2)")), "{lines:?}");
}

#[test]
fn a_wounded_judau_postpones_the_transfer_29_4_3() {
    let mut st = after_ple();
    set(&mut st, "judau", CharPlace::Wounded(Wound::M));
    let (st, lines) = resolve(st, transfers);
    assert_eq!(st.once.ple_transfer, Some(Transfer::Waiting));
    assert!(
        lines.iter().any(|l| l.contains("wait for him (29.4.3)")),
        "{lines:?}"
    );
}

#[test]
fn a_dead_judau_means_never_29_4_3() {
    let mut st = after_ple();
    set(&mut st, "judau", CharPlace::Dead);
    let (st, lines) = resolve(st, transfers);
    assert_eq!(st.once.ple_transfer, Some(Transfer::Never));
    assert!(
        lines.iter().any(|l| l.contains("never receives")),
        "{lines:?}"
    );
}

#[test]
fn neo_zeon_receives_ple_two_in_a_red_qubeley_in_glemys_hex_29_5_1() {
    let mut st = after_ple();
    put(
        &mut st,
        "n-dom-tropen-1",
        Side::NeoZeon,
        "dom_tropen",
        "ground:I06",
    );
    set(&mut st, "glemy", CharPlace::Aboard("n-dom-tropen-1".into()));
    st.sides[Side::NeoZeon]
        .stock
        .insert("red_qubeley".into(), 1);
    let (st, lines) = resolve(st, transfers);
    let (id, u) = st
        .units
        .iter()
        .find(|(_, u)| u.type_id == "red_qubeley")
        .unwrap();
    assert_eq!(
        (u.side, u.place),
        (Side::NeoZeon, Place::parse("ground:I06").unwrap())
    );
    assert_eq!(st.chars["ple_two"].place, CharPlace::Aboard(id.clone()));
    assert_eq!(st.once.ple_two, Some(Transfer::Done));
    assert!(lines.iter().any(|l| l.contains("(29.5.1)")), "{lines:?}");
}

#[test]
fn a_wounded_glemy_means_the_normal_deployment_29_5_2() {
    let mut st = after_ple();
    set(&mut st, "glemy", CharPlace::Wounded(Wound::L));
    st.sides[Side::NeoZeon]
        .stock
        .insert("red_qubeley".into(), 1);
    let (st, lines) = resolve(st, transfers);
    assert!(matches!(
        st.chars["ple_two"].place,
        CharPlace::ToDeploy { .. }
    ));
    let awaiting = &st.sides[Side::NeoZeon].sheet.awaiting;
    assert_eq!(
        awaiting.values().cloned().collect::<Vec<_>>(),
        vec!["red_qubeley".to_string()]
    );
    assert_eq!(st.once.ple_two, Some(Transfer::Done));
    assert!(lines.iter().any(|l| l.contains("(29.5.2)")), "{lines:?}");
}

#[test]
fn the_character_phase_makes_the_transfers_a_59() {
    let mut st = after_ple();
    st.turn = 8;
    put(&mut st, "a-argama-1", Side::Aeug, "argama", "space:C05");
    set(&mut st, "judau", CharPlace::Aboard("a-argama-1".into()));
    st.sides[Side::Aeug].stock.insert("black_qubeley".into(), 1);
    let (st, _) = resolve(st, character_phase);
    assert_eq!(st.once.ple_transfer, Some(Transfer::Done));
}

#[test]
fn aeugs_black_qubeley_leaves_the_game_when_removed_29_4_4() {
    let mut st = state();
    put(
        &mut st,
        "a-black-qubeley-1",
        Side::Aeug,
        "black_qubeley",
        "space:C05",
    );
    let (st, _) = resolve(st, |c| {
        let mut losses = crate::systems::zeta::damage::Losses::default();
        crate::systems::zeta::damage::remove_unit(c, "a-black-qubeley-1", &mut losses);
    });
    let aeug = &st.sides[Side::Aeug];
    assert_eq!(aeug.out_of_game.get("black_qubeley"), Some(&1));
    assert!(!aeug.factory.contains_key("black_qubeley"));
    assert!(leaves_the_game(Side::Aeug, "black_qubeley"));
    assert!(!leaves_the_game(Side::NeoZeon, "black_qubeley"));
}

/// The turn-1 packet of the real setup with a Red Qubeley Mk-II waiting for Neo Zeon's
/// deployment, as 29.5.2 leaves it.
fn packet_with_a_waiting_red_qubeley() -> State {
    let mut st = crate::systems::zeta::setup::initial_state(
        crate::systems::zeta::setup::GRYPS,
        &crate::systems::DataSource::default(),
    )
    .unwrap();
    st.sides[Side::NeoZeon]
        .sheet
        .awaiting
        .insert("n-red-qubeley-1".into(), "red_qubeley".into());
    st
}

#[test]
fn the_red_qubeley_of_29_5_2_may_be_left_undeployed_a_8_binds_only_this_packets_production() {
    let st = packet_with_a_waiting_red_qubeley();
    let empty = crate::systems::zeta::orders::Orders::default();
    assert_eq!(
        crate::systems::zeta::orders::check(&st, "neo_zeon", &empty),
        vec![]
    );
}

#[test]
fn the_red_qubeley_of_29_5_2_is_deployed_under_its_type_name_29_5_2() {
    let st = packet_with_a_waiting_red_qubeley();
    let mut ctx = Ctx::new(st.clone(), None, Moment::Check);
    crate::systems::zeta::arming::simulate_armament(
        &mut ctx,
        Side::NeoZeon,
        &[],
        &crate::yaml::FieldPath::root(),
    );
    let choices = crate::systems::zeta::deploy::deploy_unit_choices(&ctx, Side::NeoZeon);
    let choice = choices
        .iter()
        .find(|c| c.item.label == "red_qubeley")
        .expect("the waiting Red Qubeley is a deployment choice");
    let orders = crate::systems::zeta::orders::Orders {
        deployment: crate::systems::zeta::orders::Deployment {
            units: vec![choice.item.clone()],
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        crate::systems::zeta::orders::check(&st, "neo_zeon", &orders),
        vec![]
    );
}
