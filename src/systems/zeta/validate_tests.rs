//! The shipped data loads and meets plan §5.9; a bad file is refused, naming file, field and
//! what is accepted, one check at a time.

use super::data::{self, BASES, CHARACTERS, COUNTERS, Loc, MAP, SCENARIOS, TRACK};
use super::validate::load;
use crate::kit::seats::Seat;
use crate::systems::DataFile;
use crate::systems::DataSource;

fn with(file: &DataFile, from: &str, to: &str) -> Result<data::ZetaData, String> {
    assert!(
        file.builtin.contains(from),
        "pattern {from:?} not found in {}",
        file.name
    );
    let text = file.builtin.replacen(from, to, 1);
    load(&DataSource::with(file, text))
}

/// Refused, with every `want` in the message (file, field path, rule, what is accepted).
fn refused(file: &DataFile, from: &str, to: &str, want: &[&str]) {
    let err = match with(file, from, to) {
        Ok(_) => panic!("{}: {from:?} -> {to:?} was accepted", file.name),
        Err(e) => e,
    };
    assert!(err.contains(file.name), "the error names the file: {err}");
    for w in want {
        assert!(err.contains(w), "{:?} not in: {err}", w);
    }
}

#[test]
fn the_shipped_stand_in_data_loads_and_validates() {
    let d = load(&DataSource::default()).unwrap();
    assert!(d.stand_in(), "every file says it is a stand-in");
    assert_eq!(d.bases.bases.len(), 24);
    assert_eq!(d.track.turns.len(), 10);
    assert_eq!(d.characters.characters.len(), 28);
    assert!(d.map.ground.grid.wrap && !d.map.space.grid.wrap);
    assert_eq!(
        d.nuke_candidates().into_iter().collect::<Vec<_>>(),
        ["hawaii", "jaburo", "odessa", "torrington"]
    );
}

/// Plan §12/F2 and F8: the review's stand-in values, as shipped.
#[test]
fn the_stand_in_carries_the_reviews_values_f2_f8() {
    use data::{Aptitude, Class, Side, Survival};
    let d = load(&DataSource::default()).unwrap();
    let vp = |b: &str| -> Vec<u8> {
        d.base(b)
            .map(|x| x.levels.iter().map(|l| l.vp).collect())
            .unwrap_or_default()
    };
    assert_eq!(vp("axis"), [4, 6, 8]);
    assert_eq!(vp("jaburo"), [2, 3, 5]);
    assert_eq!(vp("gryps_2"), [0, 1, 2]);
    // Government values: tier-1 MS (one PP, the weakest air values) 1, other MS 0; ships 1,
    // Argama, Gwadan and Jupitris 2.
    for (id, t) in &d.counters.types {
        let want = match t.class {
            Class::Ms if t.pp == 1 && t.front.air.first() == Some(&3) => 1,
            Class::Ms => 0,
            Class::Ship if ["argama", "gwadan", "jupitris"].contains(&id.as_str()) => 2,
            Class::Ship => 1,
            Class::Colony => 0,
        };
        assert_eq!(t.gov, want, "{id}");
    }
    assert_eq!(
        d.unit_type("endra").and_then(|t| t.aptitude),
        Some(Aptitude::SG)
    );
    let arrives = |c: &str| {
        d.track
            .turns
            .iter()
            .find(|t| t.arrivals.iter().any(|a| a.char == c))
            .map(|t| t.turn)
    };
    assert_eq!(arrives("judau"), Some(5));
    assert_eq!(arrives("glemy"), Some(5));
    assert_eq!(arrives("ple_nz"), Some(6));
    let permitted = |side: Side, ty: &str| {
        d.track
            .turns
            .iter()
            .find(|t| {
                t.reinforcements
                    .get(&side)
                    .is_some_and(|v| v.iter().any(|x| x == ty))
            })
            .map(|t| t.turn)
    };
    assert_eq!(permitted(Side::NeoZeon, "black_qubeley"), Some(6));
    assert_eq!(permitted(Side::NeoZeon, "mp_qubeley"), Some(7));
    use Survival::*;
    assert_eq!(
        d.character("ple_nz").map(|c| c.survival.clone()),
        Some(vec![Ok, L, M, H, D, D])
    );
}

#[test]
fn every_data_file_says_it_is_a_stand_in_in_its_header() {
    for f in data::FILES {
        let head: String = f.builtin.lines().take(3).collect();
        assert!(head.contains("STAND-IN DATA"), "{}", f.name);
    }
}

#[test]
fn the_stand_in_maps_have_the_plans_geometry_5_1_5_2() {
    let d = load(&DataSource::default()).unwrap();
    let l = |s: &str| Loc::parse(s).unwrap();
    let dist = |a: &str, b: &str| d.distance(l(a), l(b)).unwrap();
    let at = |b: &str| d.base_hex(b).unwrap().label();
    // Plan §12/F9: Green Noa 3 hexes from the Fleet, 3-4 from drop C, Side 2 within 3.
    assert_eq!(dist("space:C05", &at("green_noa")), 3);
    assert!((3..=4).contains(&dist(&at("green_noa"), "space:D05")));
    assert!(dist(&at("green_noa"), &at("side_2")) <= 3);
    assert_eq!(dist("space:C05", "space:D05"), 1, "1 hex from drop C");
    assert_eq!(dist("space:N03", &at("zedan")), 1);
    assert_eq!(dist("space:N05", &at("side_3")), 2);
    assert_eq!(dist(&at("side_2"), "space:E04"), 2, "Side 2 to drop A");
    assert_eq!(dist(&at("luna_ii"), &at("side_1")), 2);
    // Plan §5.1's key distances and §5.10's reach.
    assert_eq!(dist(&at("green_noa"), &at("granada")), 7);
    assert_eq!(
        dist("space:N05", &at("granada")),
        4,
        "Axis reaches Granada on its 5th move"
    );
    assert_eq!(dist(&at("side_5"), &at("granada")), 3);
    assert_eq!(dist(&at("side_4"), &at("von_braun")), 3);
    assert_eq!(dist(&at("konpei"), "space:F05"), 2, "Konpei to drop B");
    assert_eq!(dist(&at("side_6"), &at("zedan")), 2);
    assert_eq!(dist(&at("side_6"), &at("granada")), 3);
    assert_eq!(
        dist("space:C05", &at("side_2")),
        4,
        "Quattro 4 hexes from Side 2 (29.1)"
    );
    // 13.12: Hawaii (P04) is an island whose neighbours include column A.
    let hawaii = d.base_hex("hawaii").unwrap();
    let n = d.neighbours(hawaii);
    assert_eq!(n.len(), 6);
    assert!(n.iter().any(|x| x.at.col == 0), "across the seam: {n:?}");
    for x in n {
        assert_eq!(
            d.map.ground.terrain(x.at),
            Some(data::Terrain::Ocean),
            "{x}"
        );
    }
    assert_eq!(dist("ground:A04", "ground:P04"), 1);
    // 14.4: every ground hex in one area, linked to one drop point.
    for h in d.map.ground.grid.all() {
        assert!(d.map.ground.area(h).is_some() && d.map.ground.terrain(h).is_some());
    }
}

#[test]
fn an_unknown_field_is_refused_in_every_file() {
    refused(
        &MAP,
        "  earth: E05",
        "  earth: E05\n  moon: J05",
        &["moon", "expected one of"],
    );
    refused(
        &BASES,
        "    moon: true",
        "    moon: true\n    crater: 3",
        &["crater"],
    );
    refused(
        &COUNTERS,
        "    short: GM2",
        "    short: GM2\n    speed: 3",
        &["speed"],
    );
    refused(
        &CHARACTERS,
        "    name: Haman Karn",
        "    name: Haman Karn\n    rank: 1",
        &["rank"],
    );
    refused(
        &TRACK,
        "  - turn: 9",
        "  - turn: 9\n    weather: rain",
        &["weather"],
    );
    refused(&SCENARIOS, "options: {}", "options: {fog: true}", &["fog"]);
}

#[test]
fn map_checks_5_9() {
    refused(
        &MAP,
        "letters_from: west, shifted: even, wrap: true}",
        "letters_from: west, shifted: even}",
        &["ground.grid.wrap", "13.12"],
    );
    refused(
        &MAP,
        "{columns: 16, rows: 8, letters_from: west, shifted: even, wrap: true}",
        "{columns: 15, rows: 8, letters_from: west, shifted: even, wrap: true}",
        &["ground.grid", "even number of columns"],
    );
    refused(
        &MAP,
        "  green_noa: space:C02",
        "  green_noa: space:C05",
        &["bases.green_noa", "C05", "38"],
    );
    // Plan §12/F9: 2 hexes from the Fleet (the old B03) lets Titans strike on their first card.
    refused(
        &MAP,
        "  green_noa: space:C02",
        "  green_noa: space:B03",
        &["bases.green_noa", "2 hexes from C05", "at least 3", "F9"],
    );
    refused(
        &MAP,
        "drop_points: {a: E04,",
        "drop_points: {a: E03,",
        &["space.drop_points.a", "not next to Earth", "14.3"],
    );
    refused(
        &MAP,
        "drop_points: {a: E04, b: F05,",
        "drop_points: {a: E04, b: E04,",
        &["space.drop_points.b", "two areas"],
    );
    refused(
        &MAP,
        "belt_adjacent: [N03,",
        "belt_adjacent: [M03,",
        &["space.belt_adjacent[0]", "edge hex", "30.3"],
    );
    refused(
        &MAP,
        "jupiter_adjacent: [G01, H01]",
        "jupiter_adjacent: []",
        &["space.jupiter_adjacent", "33.3"],
    );
    refused(
        &MAP,
        "    - \"..LLLc.cLLLLLc..\"",
        "    - \"..LLLc.cLLLLLc.\"",
        &["ground.terrain[0]", "16 columns"],
    );
    refused(
        &MAP,
        "    - \"..LLLc.cLLLLLc..\"",
        "    - \"..LLLc.cLLLLLcX.\"",
        &["ground.terrain[0]", "land"],
    );
    refused(
        &MAP,
        "    - \"AAAAAABBBBBCCCCC\"\n",
        "",
        &["ground.areas", "7 rows"],
    );
    refused(
        &MAP,
        "  hawaii: ground:P04",
        "  hawaii: ground:P05",
        &["bases.hawaii", "ocean", "13.9"],
    );
    refused(
        &MAP,
        "  hawaii: ground:P04",
        "  hawaii: ground:P04\n  atlantis: ground:A01",
        &["bases.atlantis", "bases.yaml"],
    );
}

#[test]
fn base_checks_5_9() {
    refused(
        &BASES,
        "    name: Granada\n    map: space",
        "    name: Granada\n    map: ground",
        &["bases.granada.map", "space map"],
    );
    refused(
        &BASES,
        "    closed_until_nz: true",
        "",
        &["bases.side_3", "32.1.2"],
    );
    refused(
        &BASES,
        "    ungovernable: true",
        "",
        &["bases.side_6", "34.2"],
    );
    refused(
        &BASES,
        "    mobile_min_level: 1",
        "    mobile_min_level: 2",
        &["bases.axis", "30.3"],
    );
    refused(&BASES, "    laser: true", "", &["bases.gryps_2", "31.5"]);
    refused(
        &BASES,
        "    name: Von Braun City\n    map: space\n    kind: political\n    levels:\n      - {vp: 1, armament: 1, deploy: 0}\n      - {vp: 2, armament: 1, deploy: 1}\n      - {vp: 3, armament: 2, deploy: 1}\n    moon: true",
        "    name: Von Braun City\n    map: space\n    kind: political\n    levels:\n      - {vp: 1, armament: 1, deploy: 0}\n      - {vp: 2, armament: 1, deploy: 1}\n      - {vp: 3, armament: 2, deploy: 1}",
        &["bases.von_braun", "Moon"],
    );
    refused(
        &BASES,
        "    colony_source: true",
        "",
        &["bases.side_1", "35.5.1"],
    );
    refused(
        &BASES,
        "    nuke_candidate: true",
        "",
        &["bases.jaburo.nuke_candidate", "36.2"],
    );
    refused(
        &BASES,
        "      - {vp: 6, armament: 3, deploy: 3, attack: 3, defense: 5}\n",
        "",
        &["bases.granada.levels", "2 levels"],
    );
    refused(
        &BASES,
        "{vp: 2, armament: 1, deploy: 1, attack: 1, defense: 3}",
        "{vp: 2, armament: 1, deploy: 1}",
        &["bases.granada.levels[0]", "military"],
    );
    refused(&BASES, "  konpei:", "  konpeito:", &["konpei"]);
}

#[test]
fn counter_checks_5_9() {
    refused(
        &COUNTERS,
        "    short: GM2\n    class: ms\n    aptitude: SG",
        "    short: GM2\n    class: ms\n    aptitude: S",
        &["types.gm2", "SG"],
    );
    refused(
        &COUNTERS,
        "    short: ARG\n    class: ship\n    aptitude: SG\n    pp: 2\n    gov: 2\n    carry: 4",
        "    short: ARG\n    class: ship\n    aptitude: SG\n    pp: 2\n    gov: 2\n    carry: 3",
        &["types.argama", "carry: 4"],
    );
    refused(
        &COUNTERS,
        "    short: JPT\n    class: ship\n    aptitude: S\n    pp: 2\n    gov: 2\n    carry: 4",
        "    short: JPT\n    class: ship\n    aptitude: S\n    pp: 2\n    gov: 2\n    carry: 1",
        &["types.jupitris", "29.3.1"],
    );
    refused(&COUNTERS, "    dock: true", "", &["types.lvr", "29.2"]);
    refused(
        &COUNTERS,
        "    short: QBL\n    class: ms\n    aptitude: S\n    pp: 2\n    gov: 0\n    nt_only: true",
        "    short: QBL\n    class: ms\n    aptitude: S\n    pp: 2\n    gov: 0",
        &["types.qubeley", "20.6"],
    );
    refused(
        &COUNTERS,
        "    pilotless: true",
        "",
        &["types.mp_qubeley", "29.6"],
    );
    refused(
        &COUNTERS,
        "    short: GM2\n    class: ms\n    aptitude: SG\n    pp: 1",
        "    short: GM2\n    class: ms\n    aptitude: SG\n    pp: 3",
        &["types.gm2.pp", "6.2"],
    );
    refused(
        &COUNTERS,
        "front: {air: [3, 1], bombing: [2, 1], defense: 2}",
        "front: {air: [1, 3], bombing: [2, 1], defense: 2}",
        &["types.", "front.air", "21.5"],
    );
    refused(
        &COUNTERS,
        "front: {air: [3, 1], bombing: [2, 1], defense: 2}",
        "front: {air: [3, 1, 1, 1], bombing: [2, 1], defense: 2}",
        &["front.air", "2 or 3 values"],
    );
    refused(
        &COUNTERS,
        "{aa: {values: [2, 1], guns: 2}, bombard: {values: [3, 1], guns: 2}, defense: 3}",
        "{aa: {values: [2], guns: 2}, bombard: {values: [3, 1], guns: 2}, defense: 3}",
        &["front.aa", "22.3"],
    );
    refused(
        &COUNTERS,
        "front: {air: [3, 1], bombing: [2, 1], defense: 2}",
        "front: {air: [3, 1], bombing: [2, 1], defense: 0}",
        &["front.defense", "25.4"],
    );
    refused(
        &COUNTERS,
        "    back: {air: [2, 1], bombing: [1, 1], defense: 2}\n",
        "",
        &["back"],
    );
    refused(
        &COUNTERS,
        "    hizack: 10",
        "    hizack: 10\n    zaku9: 1",
        &["pools.titans.zaku9", "unknown unit type"],
    );
    refused(
        &COUNTERS,
        "  colony: 1",
        "  colony: 2",
        &["shared.colony", "35.3"],
    );
    refused(
        &COUNTERS,
        "    chars: [scirocco_1]",
        "    chars: [quattro]",
        &["formations.jupiter_fleet.chars[0]", "33.2"],
    );
    refused(
        &COUNTERS,
        "  zeon_africa: [dom_tropen,",
        "  zeon_africa: [gaza_c,",
        &["formations.zeon_africa[0]", "ground map"],
    );
}

#[test]
fn character_checks_5_9() {
    refused(
        &CHARACTERS,
        "    survival: [ok, ok, ok, L, M, H]\n  char:",
        "    survival: [ok, ok, L, M, H]\n  char:",
        &["characters.quattro.survival", "5 entries", "27.3"],
    );
    refused(
        &CHARACTERS,
        "    survival: [ok, ok, ok, L, M, H]\n  char:",
        "    survival: [G, ok, ok, L, M, H]\n  char:",
        &["characters.quattro.survival", "27.3.1"],
    );
    refused(
        &CHARACTERS,
        "    grows_to: kamille_2",
        "    grows_to: kamille_3",
        &["characters.kamille_1.grows_to", "kamille_3"],
    );
    refused(
        &CHARACTERS,
        "    survival: [G, ok, L, L, M, D]\n    grows_to: emma_2",
        "    survival: [ok, ok, L, L, M, D]\n    grows_to: emma_2\n  emma_0:\n    name: Emma (0)\n    side: aeug\n    survival: [ok, ok, L, L, M, D]\n    grows_to: emma_1",
        &["characters.emma_0.grows_to", "4.3"],
    );
    refused(
        &CHARACTERS,
        "  haman:\n    name: Haman Karn\n    side: neo_zeon\n    ms_attack: 3\n    ms_defense: 2\n    ship_attack: 1\n    ship_defense: 1\n    ms_command: 2\n    ship_command: 2\n    nt: true",
        "  haman:\n    name: Haman Karn\n    side: neo_zeon\n    ms_attack: 3\n    ms_defense: 2\n    ship_attack: 1\n    ship_defense: 1\n    ms_command: 2\n    ship_command: 2",
        &["characters.haman.nt", "29.4"],
    );
    refused(
        &CHARACTERS,
        "  L: [R, R, R, R, N, W]",
        "  L: [R, R, R, R, N]",
        &["wounds.L", "4.4"],
    );
}

#[test]
fn track_checks_5_9() {
    refused(&TRACK, "  - turn: 10\n", "", &["turns", "9 turns", "37.3"]);
    refused(
        &TRACK,
        "    events: [jupiter_fleet]",
        "",
        &["turns", "33.1"],
    );
    refused(
        &TRACK,
        "    events: [gryps_2]",
        "    events: [gryps_2, jupiter_fleet]",
        &["turns[4].events", "turn 2"],
    );
    refused(
        &TRACK,
        "      - {char: glemy, code: {with: haman}}\n",
        "",
        &["glemy", "29.4"],
    );
    refused(
        &TRACK,
        "    growth: [kamille_1, emma_1, jerid_1]",
        "    growth: [kamille_2, emma_1, jerid_1]",
        &["turns[2].growth[0]", "4.3"],
    );
    refused(
        &TRACK,
        "{titans: [marasai], aeug: [hyaku_shiki]}",
        "{titans: [marasai], aeug: [the_o]}",
        &["turns[1].reinforcements.aeug[0]", "5.2"],
    );
    refused(
        &TRACK,
        "{char: judau, code: space}",
        "{char: judau, code: {with: kamille_9}}",
        &["turns[4].arrivals[0].code", "kamille_9"],
    );
}

#[test]
fn scenario_checks_5_9() {
    refused(
        &SCENARIOS,
        "units: {gaza_c: 8, qubeley: 1, gwadan: 1}",
        "units: {gaza_c: 11, qubeley: 1, gwadan: 1}",
        &["scenarios.gryps.stacks", "7.4"],
    );
    refused(
        &SCENARIOS,
        "      granada: {governor: aeug, level: 3}",
        "      granada: {governor: aeug, level: 3}\n      gryps_2: {governor: titans, level: 3}\n      jaburo_2: {level: 0}",
        &["scenarios.gryps.bases.jaburo_2"],
    );
    refused(
        &SCENARIOS,
        "      side_3: {level: 0}",
        "      side_3: {level: 2}",
        &["scenarios.gryps.bases.side_3", "2.6"],
    );
    refused(
        &SCENARIOS,
        "      side_6: {level: 0}",
        "      side_6: {governor: aeug, level: 1}",
        &["scenarios.gryps.bases.side_6.governor", "34.2"],
    );
    refused(
        &SCENARIOS,
        "      hawaii: {governor: titans, level: 1}",
        "      hawaii: {governor: titans, level: 1}\n      dummy: {level: 0}",
        &["dummy"],
    );
    refused(
        &SCENARIOS,
        "units: {argama: 1, mk2: 1, rick_dias: 3}",
        "units: {argama: 1, mk2: 1, rick_dias: 4}",
        &["scenarios.gryps.stacks[0].units", "15.4"],
    );
    refused(
        &SCENARIOS,
        "chars: [hayato]",
        "chars: [haman]",
        &["scenarios.gryps.stacks[2].chars[0]", "aeug"],
    );
    refused(
        &SCENARIOS,
        "options: {}",
        "options: {tiebreak: most_bases}",
        &["options.tiebreak", "`shared`", "A-85"],
    );
    refused(
        &SCENARIOS,
        "options: {}",
        "options: {side6_sanctuary: false}",
        &["options.side6_sanctuary", "A-70"],
    );
    refused(&SCENARIOS, "  gryps:", "  zeta:", &["scenarios", "gryps"]);
}

#[test]
fn a_sudden_death_at_the_start_is_refused_37_2() {
    let to = "      side_1: {governor: titans, level: 3}\n      side_2: {governor: titans, level: 3}\n      side_4: {governor: titans, level: 3}\n      side_5: {governor: titans, level: 3}";
    let from = "      side_1: {governor: aeug, level: 1}\n      side_2: {governor: aeug, level: 1}\n      side_4: {governor: aeug, level: 1}\n      side_5: {governor: aeug, level: 1}";
    refused(
        &SCENARIOS,
        from,
        to,
        &["scenarios.gryps.bases", "titans starts with", "37.2"],
    );
}

#[test]
fn sides_are_written_by_their_seat_names_in_seat_order_z_11() {
    crate::kit::seats::check_serde_names::<data::Side>();
    assert_eq!(data::Side::NAMES, ["titans", "aeug", "neo_zeon"]);
}

#[test]
fn the_data_round_trips_through_data_yaml_and_json() {
    // `pbem new` writes the data once to data.yaml; the host caches it as JSON.
    let d = load(&DataSource::default()).unwrap();
    let text = crate::yaml::to_string(&d);
    assert_eq!(
        crate::yaml::parse::<data::ZetaData>(&text, "data.yaml").unwrap(),
        d
    );
    let json = serde_json::to_string(&d).unwrap();
    assert_eq!(serde_json::from_str::<data::ZetaData>(&json).unwrap(), d);
}
