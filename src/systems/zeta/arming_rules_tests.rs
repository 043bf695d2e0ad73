//! Armament rules (5.5, 6.2, 7.1, 7.2, 8.1, 8.5, 8.6, 30.2) on the real setup (38), Titans
//! with no base (10P to spend) and a small sheet.

use super::*;
use crate::systems::zeta::axis::AXIS;
use crate::systems::zeta::deploy::fixture::{ctx, state};
use crate::systems::zeta::orders::{Augment, Produce, Refit};
use crate::systems::zeta::state::State;

/// No base governed by anyone (each faction's income is the flat 10P); Titans' factory box
/// holds two Hizacks and an Alexandria, their stock three Hizacks, two GM IIs and an
/// Alexandria, all permitted.
fn sheet() -> State {
    let mut st = state();
    for b in st.bases.values_mut() {
        b.governor = None;
    }
    let s = &mut st.sides[Side::Titans];
    s.factory = [("hizack".to_string(), 2u8), ("alexandria".to_string(), 1u8)]
        .into_iter()
        .collect();
    s.stock = [
        ("hizack".to_string(), 3u8),
        ("gm2".to_string(), 2u8),
        ("alexandria".to_string(), 1u8),
    ]
    .into_iter()
    .collect();
    s.permitted = ["hizack", "gm2", "alexandria"]
        .into_iter()
        .map(String::from)
        .collect();
    st
}

/// Titans' armament with `items`: the state after and the public and Titans' private lines.
fn arm(st: State, items: &[ArmItem]) -> (State, Vec<String>, Vec<String>) {
    let mut c = ctx(st);
    resolve_armament(&mut c, Side::Titans, items);
    let Ctx { state, log, .. } = c;
    let (public, private) = log.into_lines();
    let titans = private.get("titans").cloned().unwrap_or_default();
    (state, public, titans)
}

fn augment(t: &str, count: u8) -> ArmItem {
    ArmItem::Augment(Augment {
        type_id: t.into(),
        count,
    })
}

fn refit(out: &str, into: &str) -> ArmItem {
    ArmItem::Refit(Refit {
        out: out.into(),
        into: into.into(),
    })
}

fn total(m: &BTreeMap<TypeId, u8>) -> u32 {
    m.values().map(|n| u32::from(*n)).sum()
}

#[test]
fn rule_5_5_unspent_points_lapse_and_are_not_carried_over() {
    let (st, public, _) = arm(sheet(), &[augment("hizack", 1)]);
    assert!(
        public.contains(&"titans's unspent 8P lapse (5.5)".to_string()),
        "{public:?}"
    );
    assert_eq!(st.sides[Side::Titans].sheet.points_left, None);
    // The next armament starts from the income alone.
    let (_, public, _) = arm(st, &[]);
    assert_eq!(
        public.first().map(String::as_str),
        Some("titans has 10P of armament (5.4)")
    );
}

#[test]
fn rule_6_2_producing_a_unit_costs_its_pp() {
    let produce = |t: &str| {
        ArmItem::Produce(Produce {
            type_id: t.into(),
            count: 1,
            label: None,
        })
    };
    let (_, public, _) = arm(sheet(), &[produce("alexandria"), produce("hizack")]);
    // Alexandria PP 2, Hizack PP 1: 3P of 10P.
    assert!(
        public
            .iter()
            .any(|l| l.starts_with("titans produces 1 alexandria (2P, 6.2)"))
    );
    assert!(
        public
            .iter()
            .any(|l| l.starts_with("titans produces 1 hizack (1P, 6.2)"))
    );
    assert!(public.contains(&"titans's unspent 7P lapse (5.5)".to_string()));
}

#[test]
fn rule_7_1_augmenting_moves_counters_from_stock_into_the_factory_box() {
    let (st, _, _) = arm(sheet(), &[augment("hizack", 2)]);
    let s = &st.sides[Side::Titans];
    assert_eq!(s.factory.get("hizack"), Some(&4));
    assert_eq!(s.stock.get("hizack"), Some(&1));
}

#[test]
fn rule_7_2_each_augmented_counter_costs_2p() {
    let (_, public, _) = arm(sheet(), &[augment("hizack", 3)]);
    assert!(
        public.contains(&"titans augments 3 hizack (6P, 7.2)".to_string()),
        "{public:?}"
    );
    assert!(public.contains(&"titans's unspent 4P lapse (5.5)".to_string()));
}

#[test]
fn rule_8_1_a_refit_exchanges_a_factory_counter_for_a_stock_counter() {
    let before = sheet();
    let (f, s) = (
        total(&before.sides[Side::Titans].factory),
        total(&before.sides[Side::Titans].stock),
    );
    let (st, _, _) = arm(before, &[refit("hizack", "gm2")]);
    let side = &st.sides[Side::Titans];
    assert_eq!((total(&side.factory), total(&side.stock)), (f, s));
    assert_eq!(side.factory.get("gm2"), Some(&1));
    assert_eq!(side.stock.get("gm2"), Some(&1));
}

#[test]
fn rule_8_5_an_ms_may_be_refitted_into_a_ship_and_back() {
    let (st, public, titans) = arm(
        sheet(),
        &[refit("hizack", "alexandria"), refit("alexandria", "hizack")],
    );
    assert!(titans.is_empty(), "{titans:?}");
    assert!(public.contains(&"titans refits hizack into alexandria (0.5P, 8.2)".to_string()));
    assert!(public.contains(&"titans refits alexandria into hizack (0.5P, 8.2)".to_string()));
    assert_eq!(st.sides[Side::Titans].factory.get("alexandria"), Some(&1));
}

#[test]
fn rule_8_6_any_number_of_refits_in_a_turn() {
    let items = [
        refit("hizack", "gm2"),
        refit("hizack", "gm2"),
        refit("gm2", "hizack"),
        refit("gm2", "hizack"),
        refit("hizack", "gm2"),
    ];
    let (_, public, titans) = arm(sheet(), &items);
    assert!(titans.is_empty(), "{titans:?}");
    assert_eq!(public.iter().filter(|l| l.contains(" refits ")).count(), 5);
    assert!(public.contains(&"titans's unspent 7.5P lapse (5.5)".to_string()));
}

#[test]
fn rule_30_2_axis_in_the_belt_gives_its_governor_6p_more() {
    let mut st = sheet();
    let b = st.bases.get_mut(AXIS).unwrap();
    b.governor = Some(Side::NeoZeon);
    b.level = 1;
    b.place = Some(Place::Belt);
    let in_belt = income(&ctx(st.clone()), Side::NeoZeon);
    st.bases.get_mut(AXIS).unwrap().place = Some(Place::Hex(
        crate::systems::zeta::data::Loc::parse("space:K05").unwrap(),
    ));
    let on_map = income(&ctx(st), Side::NeoZeon);
    // Half-points: 10P + Axis level 1's 1P on the map, and 6P more in the belt.
    assert_eq!((on_map, in_belt), (22, 34));
}
