//! Loading the six data files and judging them against what the rules need (docs/zeta-plan.md
//! §5.9, digest §6.3). All six are read first, then each is judged knowing the others, and the
//! first file with problems is refused with every problem located by file, line and field, each
//! saying what would be accepted.

use super::data::{
    self, Aptitude, Area, BaseKind, BasesFile, CHARACTERS, COUNTERS, CharactersFile, Class,
    CountersFile, Face, Guns, Loc, MAP, MapFile, MapId, Place, SCENARIOS, ScenariosFile, Side,
    Survival, TRACK, TrackEvent, TrackFile, ZetaData,
};
use crate::kit::hex::Hex;
use crate::kit::seats::Seat;
use crate::systems::{DataFile, DataSource};
use crate::yaml::{self, FieldPath};
use std::collections::{BTreeMap, BTreeSet};

type Errs = Vec<(FieldPath, String)>;

/// Every base the rules name, with its map (38, 29-36; plan §3.1).
pub const NAMED_BASES: [(&str, MapId); 24] = [
    ("granada", MapId::Space),
    ("von_braun", MapId::Space),
    ("side_1", MapId::Space),
    ("side_2", MapId::Space),
    ("side_3", MapId::Space),
    ("side_4", MapId::Space),
    ("side_5", MapId::Space),
    ("side_6", MapId::Space),
    ("green_noa", MapId::Space),
    ("gryps_2", MapId::Space),
    ("axis", MapId::Space),
    ("luna_ii", MapId::Space),
    ("konpei", MapId::Space),
    ("zedan", MapId::Space),
    ("jaburo", MapId::Ground),
    ("hickory", MapId::Ground),
    ("cape_kennedy", MapId::Ground),
    ("dublin", MapId::Ground),
    ("odessa", MapId::Ground),
    ("kilimanjaro", MapId::Ground),
    ("new_hong_kong", MapId::Ground),
    ("new_guinea", MapId::Ground),
    ("torrington", MapId::Ground),
    ("hawaii", MapId::Ground),
];

/// The bases the nuke may be hidden in: exactly these four (36.2).
pub const NUKE_CANDIDATES: [&str; 4] = ["hawaii", "jaburo", "odessa", "torrington"];

/// The hex AEUG's 1st Fleet starts in, which the book names (38).
pub const FLEET_HEX: &str = "C05";

/// Plan §12/F9: the fewest hexes between Green Noa and the Fleet's hex.
pub const MIN_GREEN_NOA_TO_FLEET: u32 = 3;

/// Unit types the rules name (15.3, 29.2-29.6, 33.2, 35, 38).
pub const NAMED_TYPES: [&str; 12] = [
    "gm2",
    "hizack",
    "nemo",
    "argama",
    "lvr",
    "jupitris",
    "messala",
    "qubeley",
    "black_qubeley",
    "red_qubeley",
    "mp_qubeley",
    "colony",
];

/// Characters the rules name (29.1, 29.4-29.5, 32.1.3, 33.2, 38).
pub const NAMED_CHARS: [&str; 8] = [
    "quattro", "char", "judau", "ple_aeug", "haman", "mineva", "glemy", "ple_nz",
];

/// Characters that must be newtypes (29.4-29.6 pilot the NT-only Qubeleys).
pub const NT_CHARS: [&str; 4] = ["haman", "ple_aeug", "ple_nz", "ple_two"];

/// Characters the track must bring in (29.4.2, 29.4.3, 29.5.1).
pub const TRACK_CHARS: [&str; 3] = ["judau", "glemy", "ple_nz"];

/// Reads the six data files and judges them.
pub fn load(data: &DataSource) -> Result<ZetaData, String> {
    let d = data::read(data)?;
    let judged: [(&DataFile, Errs); 6] = [
        (&MAP, map(&d.map, &d)),
        (&data::BASES, bases(&d.bases, &d)),
        (&COUNTERS, counters(&d.counters, &d)),
        (&CHARACTERS, characters(&d.characters, &d)),
        (&TRACK, track(&d.track, &d)),
        (&SCENARIOS, scenarios(&d.scenarios, &d)),
    ];
    for (file, errs) in judged {
        let (text, origin) = data.load("zeta", file);
        yaml::data_problems(errs, text, &origin)?;
    }
    Ok(d)
}

fn root() -> FieldPath {
    FieldPath::root()
}

/// map.yaml: the grids, Earth and its drop points, the boxes, terrain and areas, base hexes.
fn map(m: &MapFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    let sp = root().at("space");
    let gr = root().at("ground");
    for (p, g) in [(&sp, &m.space.grid), (&gr, &m.ground.grid)] {
        if let Err(msg) = g.validate() {
            e.push((p.at("grid"), msg));
            return e;
        }
    }
    if !m.ground.grid.wrap {
        e.push((
            gr.at("grid").at("wrap"),
            "the ground map goes round the Earth: write `wrap: true` (13.12)".into(),
        ));
    }
    let s = &m.space;
    let on_space = |h: Hex| s.grid.contains(h);
    match Hex::parse(FLEET_HEX) {
        Ok(c05) if !on_space(c05) => e.push((
            sp.at("grid"),
            format!("AEUG's 1st Fleet starts in space hex {FLEET_HEX} (38): the map must hold it"),
        )),
        Ok(c05) => {
            if let Some((b, _)) = m
                .bases
                .iter()
                .find(|(_, l)| **l == Loc::new(MapId::Space, c05))
            {
                e.push((
                    root().at("bases").at(b.as_str()),
                    format!("space hex {FLEET_HEX} is open space where AEUG's 1st Fleet starts (38); put {b} elsewhere"),
                ));
            }
            // Plan §12/F9: from Green Noa a Titans ship (3 MP, 13.2) must not reach the Fleet on
            // the first card: entering its hex costs one more (13.5), so 3 hexes cost 4 MP.
            if let Some(gn) = m.bases.get("green_noa")
                && gn.map == MapId::Space
                && s.grid.distance(c05, gn.at) < MIN_GREEN_NOA_TO_FLEET
            {
                e.push((
                    root().at("bases").at("green_noa"),
                    format!("Green Noa is {} hexes from {FLEET_HEX}, where AEUG's 1st Fleet starts: at least {MIN_GREEN_NOA_TO_FLEET}, so that Titans cannot reach the Fleet on their first card (13.2, 13.5; plan §12/F9)", s.grid.distance(c05, gn.at)),
                ));
            }
        }
        Err(msg) => e.push((sp.at("grid"), msg)),
    }
    if !on_space(s.earth) {
        e.push((sp.at("earth"), format!("{} is off the space map", s.earth)));
    }
    let mut seen = BTreeSet::new();
    for (area, h) in s.drop_points.iter() {
        let p = sp
            .at("drop_points")
            .at(area.letter().to_ascii_lowercase().to_string().as_str());
        if !s.grid.adjacent(s.earth, h) {
            e.push((
                p,
                format!("drop point {h} is not next to Earth ({}): the drop points ring the Earth (14.3)", s.earth),
            ));
        } else if !seen.insert(h) {
            e.push((
                p,
                format!("{h} is the drop point of two areas: each area has its own (14.3-14.4)"),
            ));
        }
    }
    let edge = |h: Hex, g: &crate::kit::hex::HexGrid| {
        h.col == 0 || h.col + 1 == g.columns || h.row == 1 || h.row == g.rows
    };
    for (name, list, rule) in [
        ("belt_adjacent", &s.belt_adjacent, "30.3"),
        ("jupiter_adjacent", &s.jupiter_adjacent, "33.3"),
    ] {
        if list.is_empty() {
            e.push((
                sp.at(name),
                format!("the box must be next to at least one edge hex of the space map ({rule})"),
            ));
        }
        for (i, h) in list.iter().enumerate() {
            if !on_space(*h) || !edge(*h, &s.grid) {
                e.push((
                    sp.at(name).at(i),
                    format!("{h} is not an edge hex of the space map; a box beside the map touches only edge hexes ({rule})"),
                ));
            }
        }
    }
    let g = &m.ground;
    for (name, rows, what) in [
        ("terrain", &g.terrain, "L (land), c (coast) or . (ocean)"),
        ("areas", &g.areas, "A, B or C"),
    ] {
        if rows.len() != usize::from(g.grid.rows) {
            e.push((
                gr.at(name),
                format!(
                    "{} rows; the ground map has {} (one row of letters per map row)",
                    rows.len(),
                    g.grid.rows
                ),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let ok_letter = |c: char| match name {
                "terrain" => data::Terrain::of_char(c).is_some(),
                _ => Area::of_letter(c).is_some(),
            };
            if row.chars().count() != usize::from(g.grid.columns) {
                e.push((
                    gr.at(name).at(i),
                    format!(
                        "{} letters; the ground map has {} columns, one letter each",
                        row.chars().count(),
                        g.grid.columns
                    ),
                ));
            } else if let Some(c) = row.chars().find(|c| !ok_letter(*c)) {
                e.push((
                    gr.at(name).at(i),
                    format!("{c:?} is not a letter of this picture: write {what}"),
                ));
            }
        }
    }
    for area in Area::ALL {
        if !g.grid.all().iter().any(|h| g.area(*h) == Some(area)) {
            e.push((
                gr.at("areas"),
                format!(
                    "area {} has no hex: every drop point leads to an area (14.4)",
                    area.letter()
                ),
            ));
        }
    }
    for (b, loc) in &m.bases {
        let p = root().at("bases").at(b.as_str());
        if !d.on_map(*loc) {
            e.push((p, format!("{loc} is off its map")));
            continue;
        }
        if loc.map == MapId::Space && loc.at == s.earth {
            e.push((
                p,
                "a base cannot stand on Earth, which nobody enters (A-19)".into(),
            ));
        } else if loc.map == MapId::Ground && g.terrain(loc.at).is_some_and(|t| !t.solid()) {
            e.push((
                p,
                format!("{loc} is ocean; a ground base stands on land or coast, where its MS can stand (13.9)"),
            ));
        }
        if !d.bases.bases.contains_key(b) {
            e.push((
                root().at("bases").at(b.as_str()),
                format!("no base {b:?} in bases.yaml"),
            ));
        }
    }
    if let Some(k) = m.bases.get("kilimanjaro") {
        let solid = |l: Loc| g.terrain(l.at).is_some_and(|t| t.solid());
        if !solid(*k) && !d.neighbours(*k).into_iter().any(solid) {
            e.push((
                root().at("bases").at("kilimanjaro"),
                "Zeon Africa appears at Kilimanjaro or next to it: one of them must be land or coast (32.2.3)".into(),
            ));
        }
    }
    e
}

/// bases.yaml: every base the rules name, on its map, with the kind and flags they need.
fn bases(b: &BasesFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    let at = |id: &str| root().at("bases").at(id);
    for (id, map) in NAMED_BASES.iter() {
        match b.bases.get(*id) {
            None => e.push((root().at("bases"), format!("the rules need a base {id:?}"))),
            Some(def) if def.map != *map => e.push((
                at(id).at("map"),
                format!("{id} is on the {} map in the rules", map.id()),
            )),
            Some(_) => {}
        }
    }
    for (id, def) in &b.bases {
        let p = at(id);
        if def.levels.len() != 3 {
            e.push((
                p.at("levels"),
                format!(
                    "{} levels; a base card has levels 1, 2 and 3 (2.6, 2.8)",
                    def.levels.len()
                ),
            ));
        }
        for (i, l) in def.levels.iter().enumerate() {
            let military = def.kind == BaseKind::Military;
            if military && (l.attack == 0 || !(1..=6).contains(&l.defense)) {
                e.push((
                    p.at("levels").at(i),
                    "a military base needs attack 1 or more and defense 1-6 at every level (22.6, 24.7, 25.8)".into(),
                ));
            } else if !military && (l.attack != 0 || l.defense != 0) {
                e.push((
                    p.at("levels").at(i),
                    "a political base neither fights nor is fought: leave out attack and defense (2.5)".into(),
                ));
            }
        }
        let mobile = def.mobile_min_level.is_some();
        match (d.map.bases.get(id), mobile) {
            (Some(_), true) => e.push((
                p.at("mobile_min_level"),
                format!("{id} moves, so map.yaml must not fix its hex (30.3, 31.4)"),
            )),
            (None, false) => e.push((p.clone(), format!("map.yaml gives no hex for {id}"))),
            (Some(loc), false) if loc.map != def.map => e.push((
                p.at("map"),
                format!("map.yaml puts {id} on the {} map", loc.map.id()),
            )),
            _ => {}
        }
        if def.moon && def.map != MapId::Space {
            e.push((p.at("moon"), "the Moon is on the space map".into()));
        }
        let candidate = NUKE_CANDIDATES.contains(&id.as_str());
        if def.nuke_candidate != candidate {
            e.push((
                p.at("nuke_candidate"),
                format!(
                    "the nuke candidates are exactly {} (36.2)",
                    NUKE_CANDIDATES.join(", ")
                ),
            ));
        }
    }
    let need = |e: &mut Errs, id: &str, ok: bool, what: &str| {
        if b.bases.contains_key(id) && !ok {
            e.push((at(id), what.to_string()));
        }
    };
    let get = |id: &str| b.bases.get(id);
    for id in ["granada", "von_braun"] {
        need(
            &mut e,
            id,
            get(id).is_some_and(|x| x.moon),
            &format!("{id} is on the Moon: `moon: true` (30.4.7, 35.2)"),
        );
    }
    let side3 = get("side_3");
    need(
        &mut e,
        "side_3",
        side3.is_some_and(|x| x.kind == BaseKind::Military && x.closed_until_nz),
        "Side 3 is a military base closed to AEUG and Titans until Neo Zeon has governed it: `kind: military`, `closed_until_nz: true` (32.1.1-32.1.2, 32.1.6)",
    );
    need(
        &mut e,
        "side_6",
        get("side_6").is_some_and(|x| {
            x.kind == BaseKind::Political && x.ungovernable && x.free_repair_pp > 0
        }),
        "Side 6 is political, never governed, and repairs for free: `kind: political`, `ungovernable: true`, `free_repair_pp` above 0 (34.2, 34.4)",
    );
    need(
        &mut e,
        "axis",
        get("axis").is_some_and(|x| {
            x.kind == BaseKind::Military && x.mobile_min_level == Some(1) && x.belt_bonus > 0
        }),
        "Axis is a military base that moves from level 1 and earns a belt bonus: `kind: military`, `mobile_min_level: 1`, `belt_bonus` above 0 (30.2-30.3)",
    );
    need(
        &mut e,
        "gryps_2",
        get("gryps_2").is_some_and(|x| {
            x.kind == BaseKind::Military && x.mobile_min_level == Some(2) && x.laser
        }),
        "Gryps 2 is a military base that moves from level 2 and fires the laser: `kind: military`, `mobile_min_level: 2`, `laser: true` (31.4-31.5)",
    );
    for id in ["side_1", "side_2", "side_4", "side_5"] {
        need(
            &mut e,
            id,
            get(id).is_some_and(|x| x.kind == BaseKind::Political && x.colony_source),
            &format!(
                "{id} is a political base a colony may come from: `kind: political`, `colony_source: true` (35.5.1)"
            ),
        );
    }
    for (id, def) in &b.bases {
        let named = ["side_1", "side_2", "side_4", "side_5"].contains(&id.as_str());
        if def.colony_source && !named {
            e.push((
                at(id).at("colony_source"),
                "only Sides 1, 2, 4 and 5 give colonies (35.5.1)".into(),
            ));
        }
    }
    e
}

fn face_problems(e: &mut Errs, p: &FieldPath, class: Class, f: &Face) {
    let list_ok = |v: &[u8], lo: usize, hi: usize| {
        (lo..=hi).contains(&v.len())
            && v.iter().all(|x| (1..=6).contains(x))
            && v.windows(2).all(|w| w[0] >= w[1])
    };
    let guns_ok = |g: &Guns| list_ok(&g.values, 2, 2) && g.guns <= 6;
    match class {
        Class::Ms => {
            for (name, v) in [("air", &f.air), ("bombing", &f.bombing)] {
                if !list_ok(v, 2, 3) {
                    e.push((p.at(name), "an MS value list has 2 or 3 values, each 1-6, none above the one before (21.5, 23.4)".into()));
                }
            }
            if f.aa.is_some() || f.bombard.is_some() {
                e.push((
                    p.clone(),
                    "an MS has no `aa` or `bombard` (22, 24 are ships' fire)".into(),
                ));
            }
        }
        Class::Ship => {
            for (name, g) in [("aa", &f.aa), ("bombard", &f.bombard)] {
                if !g.as_ref().is_some_and(guns_ok) {
                    e.push((p.at(name), "a ship's line has two values, each 1-6, the second not above the first, and 0-6 guns (22.3, 24.4)".into()));
                }
            }
            if !f.air.is_empty() || !f.bombing.is_empty() {
                e.push((
                    p.clone(),
                    "a ship has no `air` or `bombing` (21, 23 are MS fire)".into(),
                ));
            }
        }
        Class::Colony => {}
    }
    if !(1..=9).contains(&f.defense) {
        e.push((
            p.at("defense"),
            format!("defense {} is not 1-9 (25.4)", f.defense),
        ));
    }
}

/// counters.yaml: unit types, the counter mix, the formations.
fn counters(c: &CountersFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    let tp = |id: &str| root().at("types").at(id);
    for (id, t) in &c.types {
        let p = tp(id);
        let unit = t.class != Class::Colony;
        if unit && !(1..=2).contains(&t.pp) {
            e.push((
                p.at("pp"),
                format!("{} PP; a unit costs 1 or 2 (6.2)", t.pp),
            ));
        }
        if unit && t.aptitude.is_none() {
            e.push((
                p.clone(),
                "give the unit's `aptitude`: S, G or SG (2.4)".into(),
            ));
        }
        if t.class != Class::Ship && (t.carry > 0 || t.dock || t.deploy_slot) {
            e.push((
                p.at("carry"),
                "only ships carry, dock or take units at deployment (15.1, 29.2, 29.3)".into(),
            ));
        }
        if t.class != Class::Ms && (t.nt_only || t.pilotless) {
            e.push((
                p.at("nt_only"),
                "only MS need NT pilots (20.6, 29.6)".into(),
            ));
        }
        face_problems(&mut e, &p.at("front"), t.class, &t.front);
        face_problems(&mut e, &p.at("back"), t.class, &t.back);
    }
    for id in NAMED_TYPES {
        if !c.types.contains_key(id) {
            e.push((
                root().at("types"),
                format!("the rules need a unit type {id:?}"),
            ));
        }
    }
    let has = |id: &str, ok: &dyn Fn(&data::UnitType) -> bool| c.types.get(id).is_none_or(ok);
    let mut need = |id: &str, ok: &dyn Fn(&data::UnitType) -> bool, what: &str| {
        if !has(id, ok) {
            e.push((tp(id), what.to_string()));
        }
    };
    for id in ["gm2", "hizack", "nemo"] {
        need(
            id,
            &|t| t.class == Class::Ms && t.aptitude == Some(Aptitude::SG),
            &format!(
                "{id} is an MS that fights in space and on the ground: `class: ms`, `aptitude: SG` (38: it starts on both maps)"
            ),
        );
    }
    need(
        "argama",
        &|t| t.carry >= 4,
        "the Argama carries the 1st Fleet's four MS: `carry: 4` or more (38, 15.3)",
    );
    need(
        "jupitris",
        &|t| t.carry >= 2 && t.deploy_slot,
        "the Jupitris carries the Messala and takes one MS at deployment: `carry: 2` or more, `deploy_slot: true` (33.2, 29.3.1)",
    );
    need(
        "lvr",
        &|t| t.carry >= 1 && t.dock && t.deploy_slot,
        "La Vie en Rose docks, carries and takes one MS at deployment: `carry: 1` or more, `dock: true`, `deploy_slot: true` (29.2)",
    );
    for id in ["qubeley", "black_qubeley", "red_qubeley", "mp_qubeley"] {
        need(
            id,
            &|t| t.class == Class::Ms && t.nt_only,
            &format!("{id} needs a newtype pilot: `nt_only: true` (20.6)"),
        );
    }
    need(
        "mp_qubeley",
        &|t| t.pilotless,
        "the mass-production Qubeley sorties without a pilot: `pilotless: true` (29.6)",
    );
    need(
        "colony",
        &|t| t.class == Class::Colony,
        "the colony is `class: colony` (35)",
    );
    let known = |e: &mut Errs, p: FieldPath, id: &str| {
        if !c.types.contains_key(id) {
            e.push((p, format!("unknown unit type {id:?}")));
            false
        } else {
            true
        }
    };
    for (side, pool) in c.pools.iter() {
        for (id, n) in pool {
            let p = root().at("pools").at(side.name()).at(id.as_str());
            if known(&mut e, p.clone(), id) {
                if c.types.get(id).is_some_and(|t| t.class == Class::Colony) {
                    e.push((
                        p,
                        "the colony belongs to no faction: put it under `shared` (35.3)".into(),
                    ));
                } else if *n == 0 {
                    e.push((p, "leave out a type a faction has no counter of".into()));
                }
            }
        }
    }
    for (id, n) in &c.shared {
        let p = root().at("shared").at(id.as_str());
        if known(&mut e, p.clone(), id)
            && (c.types.get(id).is_some_and(|t| t.class != Class::Colony) || *n != 1)
        {
            e.push((
                p,
                "`shared` holds the one colony counter: `colony: 1` (35.3)".into(),
            ));
        }
    }
    if !c.shared.contains_key("colony") {
        e.push((
            root().at("shared"),
            "the one colony counter goes here: `colony: 1` (35.3)".into(),
        ));
    }
    let f = &c.formations;
    let fp = root().at("formations");
    for (name, list, side, map) in [
        (
            "zeon_republic",
            &f.zeon_republic,
            Side::NeoZeon,
            MapId::Space,
        ),
        ("zeon_africa", &f.zeon_africa, Side::NeoZeon, MapId::Ground),
        (
            "jupiter_fleet",
            &f.jupiter_fleet.units,
            Side::Titans,
            MapId::Space,
        ),
    ] {
        let p = if name == "jupiter_fleet" {
            fp.at(name).at("units")
        } else {
            fp.at(name)
        };
        if list.is_empty() {
            e.push((
                p.clone(),
                "a formation has at least one unit (32.1.4, 32.2, 33.2)".into(),
            ));
        }
        let mut count: BTreeMap<&str, u8> = BTreeMap::new();
        for (i, id) in list.iter().enumerate() {
            if !known(&mut e, p.at(i), id) {
                continue;
            }
            *count.entry(id).or_default() += 1;
            if c.types
                .get(id)
                .and_then(|t| t.aptitude)
                .is_some_and(|a| !a.allows(map))
            {
                e.push((
                    p.at(i),
                    format!(
                        "{id} cannot act on the {} map, where this formation appears",
                        map.id()
                    ),
                ));
            }
        }
        for (id, n) in count {
            let have = c.pools[side].get(id).copied().unwrap_or(0);
            if have < n {
                e.push((
                    p.clone(),
                    format!("{n} {id} here, but {side}'s counter mix has {have} (7.4)"),
                ));
            }
        }
    }
    for (i, ch) in f.jupiter_fleet.chars.iter().enumerate() {
        let p = fp.at("jupiter_fleet").at("chars").at(i);
        match d.character(ch) {
            None => e.push((p, format!("no character {ch:?} in characters.yaml"))),
            Some(def) if def.side != Side::Titans => {
                e.push((p, format!("{ch} is not a Titans character (33.2)")))
            }
            Some(_) => {}
        }
    }
    e
}

/// characters.yaml: values, survival tables, growth links, wound tables.
fn characters(c: &CharactersFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    let cp = |id: &str| root().at("characters").at(id);
    let growth: BTreeSet<&str> = d
        .track
        .turns
        .iter()
        .flat_map(|t| t.growth.iter().map(String::as_str))
        .collect();
    let seconds: BTreeSet<&str> = c
        .characters
        .values()
        .filter_map(|x| x.grows_to.as_deref())
        .collect();
    for (id, ch) in &c.characters {
        let p = cp(id);
        if ch.survival.len() != 6 {
            e.push((
                p.at("survival"),
                format!(
                    "{} entries; a survival table has one per d6 face (27.3)",
                    ch.survival.len()
                ),
            ));
        }
        let has_g = ch.survival.contains(&Survival::G);
        if has_g && ch.grows_to.is_none() {
            e.push((
                p.at("survival"),
                "G (grow) is only for a (1) character, which names its (2) in `grows_to` (27.3.1)"
                    .into(),
            ));
        }
        if let Some(to) = &ch.grows_to {
            match c.characters.get(to) {
                None => e.push((p.at("grows_to"), format!("no character {to:?}"))),
                Some(two) if two.side != ch.side || two.grows_to.is_some() => e.push((
                    p.at("grows_to"),
                    format!("{to} must be a (2) of the same side that grows no further (4.3)"),
                )),
                Some(_) => {}
            }
            if !has_g && !growth.contains(id.as_str()) {
                e.push((
                    p.at("grows_to"),
                    "a (1) grows on the turn track or by a G survival result: give it one (4.3, 27.3.1)".into(),
                ));
            }
        }
        if seconds.contains(id.as_str()) && ch.survival.contains(&Survival::G) {
            e.push((
                p.at("survival"),
                "a (2) grows no further: no G (27.3.1)".into(),
            ));
        }
        for (f, v) in [
            ("ms_attack", ch.ms_attack),
            ("ms_defense", ch.ms_defense),
            ("ship_attack", ch.ship_attack),
            ("ship_defense", ch.ship_defense),
            ("ms_command", ch.ms_command),
            ("ship_command", ch.ship_command),
            ("gov", ch.gov),
        ] {
            if v > 6 {
                e.push((
                    p.at(f),
                    format!(
                        "{v} is more than 6: values count dice or add to a d6 (21.6, 26, 17.6)"
                    ),
                ));
            }
        }
    }
    for id in NAMED_CHARS {
        if !c.characters.contains_key(id) {
            e.push((
                root().at("characters"),
                format!("the rules need a character {id:?}"),
            ));
        }
    }
    for id in NT_CHARS {
        if c.characters.get(id).is_some_and(|x| !x.nt) {
            e.push((
                cp(id).at("nt"),
                format!("{id} is a newtype: `nt: true` (29.4-29.6)"),
            ));
        }
    }
    for (name, table) in [("L", &c.wounds.l), ("M", &c.wounds.m), ("H", &c.wounds.h)] {
        if table.len() != 6 {
            e.push((
                root().at("wounds").at(name),
                format!("{} entries; one per d6 face (4.4)", table.len()),
            ));
        }
    }
    e
}

/// track.yaml: ten turns; the fleet on turn 2 and Gryps 2 on turn 5; who arrives and grows.
fn track(t: &TrackFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    let tp = |i: usize| root().at("turns").at(i);
    if t.turns.len() != 10 {
        e.push((
            root().at("turns"),
            format!("{} turns; the game has ten (37.3)", t.turns.len()),
        ));
    }
    let mut arrived = BTreeSet::new();
    for (i, turn) in t.turns.iter().enumerate() {
        let p = tp(i);
        if usize::from(turn.turn) != i + 1 {
            e.push((
                p.at("turn"),
                format!(
                    "entry {} must be turn {} (turns 1-10 in order)",
                    i + 1,
                    i + 1
                ),
            ));
        }
        for ev in &turn.events {
            let (want, rule) = match ev {
                TrackEvent::JupiterFleet => (2, "33.1"),
                TrackEvent::Gryps2 => (5, "31.1"),
            };
            if turn.turn != want {
                e.push((
                    p.at("events"),
                    format!("{ev:?} comes on turn {want} ({rule})"),
                ));
            }
        }
        for (j, a) in turn.arrivals.iter().enumerate() {
            let ap = p.at("arrivals").at(j);
            if d.character(&a.char).is_none() {
                e.push((
                    ap.at("char"),
                    format!("no character {:?} in characters.yaml", a.char),
                ));
            } else if !arrived.insert(a.char.clone()) {
                e.push((ap.at("char"), format!("{} arrives twice", a.char)));
            }
            if let data::ArrivalCode::With(w) = &a.code
                && d.character(w).is_none()
            {
                e.push((
                    ap.at("code"),
                    format!("no character {w:?} in characters.yaml"),
                ));
            }
        }
        for (j, g) in turn.growth.iter().enumerate() {
            if d.character(g).is_none_or(|c| c.grows_to.is_none()) {
                e.push((
                    p.at("growth").at(j),
                    format!("{g} is not a (1) character with a `grows_to` (4.3)"),
                ));
            }
        }
        for (side, types) in &turn.reinforcements {
            for (j, ty) in types.iter().enumerate() {
                let have = d.counters.pools[*side].get(ty).copied().unwrap_or(0);
                if have == 0 {
                    e.push((
                        p.at("reinforcements").at(side.name()).at(j),
                        format!("{side} has no {ty} counter in counters.yaml's pools (5.2, 7.4)"),
                    ));
                }
            }
        }
    }
    for want in [
        (TrackEvent::JupiterFleet, "33.1"),
        (TrackEvent::Gryps2, "31.1"),
    ] {
        if !t.turns.iter().any(|x| x.events.contains(&want.0)) {
            e.push((
                root().at("turns"),
                format!("the track must hold {:?} ({})", want.0, want.1),
            ));
        }
    }
    for id in TRACK_CHARS {
        if !arrived.contains(id) {
            e.push((
                root().at("turns"),
                format!("{id} must arrive on the track (29.4-29.5)"),
            ));
        }
    }
    e
}

/// scenarios.yaml: rule 38 placed on the map; the counter mix covers it; no sudden death at
/// the start; the options at the readings the rules implement.
fn scenarios(s: &ScenariosFile, d: &ZetaData) -> Errs {
    let mut e = Errs::new();
    if !s.scenarios.contains_key(super::setup::GRYPS) {
        e.push((
            root().at("scenarios"),
            format!("the rules need the scenario {:?} (38)", super::setup::GRYPS),
        ));
    }
    for (name, sc) in &s.scenarios {
        let sp = root().at("scenarios").at(name.as_str());
        let mut vp = crate::kit::seats::PerSide::<Side, i32>::default();
        for (id, b) in &sc.bases {
            let p = sp.at("bases").at(id.as_str());
            let Some(def) = d.base(id) else {
                e.push((p, format!("no base {id:?} in bases.yaml")));
                continue;
            };
            if b.level > 3 || (b.level == 0) != b.governor.is_none() {
                e.push((p.clone(), "a governed base is at level 1-3, a neutral one at level 0 with no governor (2.6)".into()));
            }
            if def.ungovernable && b.governor.is_some() {
                e.push((p.at("governor"), format!("{id} is never governed (34.2)")));
            }
            if b.at.is_some() && def.mobile_min_level.is_none() {
                e.push((
                    p.at("at"),
                    format!("{id} stays in its map.yaml hex: only a base that moves takes `at`"),
                ));
            }
            if b.at.is_none() && def.mobile_min_level.is_some() && !def.laser {
                e.push((
                    p.clone(),
                    format!("{id} moves: give the place it starts in with `at` (30.1)"),
                ));
            }
            if def.laser && b.at.is_some() {
                e.push((
                    p.at("at"),
                    "Gryps 2 appears on turn 5, not at setup (31.1)".into(),
                ));
            }
            if let Some(at) = b.at
                && let Err(m) = place_ok(d, at)
            {
                e.push((p.at("at"), m));
            }
            if let (Some(gov), Some(v)) = (b.governor, def.at_level(b.level)) {
                vp[gov] += i32::from(v.vp);
            }
        }
        let total: i32 = vp.iter().map(|(_, v)| *v).sum();
        for (side, v) in vp.iter() {
            if *v >= total - *v + 10 {
                e.push((
                    sp.at("bases"),
                    format!("{side} starts with {v} VP, a sudden-death win before play (37.2)"),
                ));
            }
        }
        let mut used: crate::kit::seats::PerSide<Side, BTreeMap<&str, u32>> = Default::default();
        let mut placed_chars = BTreeSet::new();
        for (i, st) in sc.stacks.iter().enumerate() {
            let p = sp.at("stacks").at(i);
            if let Err(m) = place_ok(d, st.at) {
                e.push((p.at("at"), m));
            }
            let map = st.at.map();
            let (mut ms, mut carry) = (0u32, 0u32);
            for (ty, n) in &st.units {
                let Some(t) = d.unit_type(ty) else {
                    e.push((
                        p.at("units").at(ty.as_str()),
                        format!("unknown unit type {ty:?}"),
                    ));
                    continue;
                };
                *used[st.side].entry(ty.as_str()).or_default() += u32::from(*n);
                match t.class {
                    Class::Ms => ms += u32::from(*n),
                    Class::Ship => {
                        carry += u32::from(*n) * u32::from(t.carry);
                        if t.aptitude.is_some_and(|a| !a.allows(map)) {
                            e.push((
                                p.at("units").at(ty.as_str()),
                                format!("a ship of {ty} cannot be on the {} map (2.4)", map.id()),
                            ));
                        }
                    }
                    Class::Colony => e.push((
                        p.at("units").at(ty.as_str()),
                        "the colony is never set up (35.3)".into(),
                    )),
                }
            }
            // 15.4-15.6: uncarried MS stand alone only at a base of their own side (or the belt
            // box, where Axis is) and, on the ground, on land or coast.
            let own_base = match st.at {
                Place::Hex(l) => d.bases_at(l).iter().any(|b| {
                    sc.bases
                        .get(*b)
                        .is_some_and(|x| x.governor == Some(st.side))
                }),
                Place::Belt | Place::Jupiter => true,
            };
            if ms > carry && !own_base && map == MapId::Space {
                e.push((p.at("units"), format!("{ms} MS but room for {carry} aboard ships; MS in space outside an own base ride ships (15.4, 15.3)")));
            }
            if let Place::Hex(l) = st.at
                && l.map == MapId::Ground
                && ms > carry
                && d.map.ground.terrain(l.at).is_some_and(|t| !t.solid())
            {
                e.push((
                    p.at("at"),
                    "MS cannot stand in the ocean (13.9, 15.5)".into(),
                ));
            }
            for (j, ch) in st.chars.iter().enumerate() {
                let cp = p.at("chars").at(j);
                match d.character(ch) {
                    None => e.push((cp, format!("no character {ch:?} in characters.yaml"))),
                    Some(c) if c.side != st.side => {
                        e.push((cp, format!("{ch} is not a {} character", st.side)))
                    }
                    Some(_) if !placed_chars.insert(ch.clone()) => {
                        e.push((cp, format!("{ch} is placed twice")))
                    }
                    Some(_) if st.units.is_empty() => e.push((
                        cp,
                        "a character rides a unit (13.10): this stack has none".into(),
                    )),
                    Some(_) => {}
                }
            }
        }
        for (side, counts) in used.iter() {
            for (ty, n) in counts {
                let have = u32::from(d.counters.pools[side].get(*ty).copied().unwrap_or(0));
                if *n > have {
                    e.push((
                        sp.at("stacks"),
                        format!("{side} sets up {n} {ty} but its counter mix has {have} (7.4)"),
                    ));
                }
            }
        }
    }
    let o = &s.options;
    let op = root().at("options");
    for (key, got, want, rule) in [
        ("nz_units_start", o.nz_units_start.as_str(), "axis", "A-1"),
        (
            "counter_pools",
            o.counter_pools.as_str(),
            "per_faction",
            "A-3",
        ),
        (
            "card_phase_round",
            o.card_phase_round.as_str(),
            "merged",
            "A-6",
        ),
        ("carry_mode", o.carry_mode.as_str(), "start_end", "A-14"),
        ("orphan", o.orphan.as_str(), "nearest", "A-27"),
        (
            "survival_overflow",
            o.survival_overflow.as_str(),
            "clamp",
            "A-29",
        ),
        (
            "camp_allocation",
            o.camp_allocation.as_str(),
            "principal",
            "A-42",
        ),
        (
            "mobile_base_riders",
            o.mobile_base_riders.as_str(),
            "govern_recover",
            "A-60",
        ),
        (
            "axis_attack_slot",
            o.axis_attack_slot.as_str(),
            "before_recover",
            "A-64",
        ),
        (
            "axis_moon_shift",
            o.axis_moon_shift.as_str(),
            "plus_one_level",
            "A-65",
        ),
        ("tiebreak", o.tiebreak.as_str(), "shared", "A-85"),
    ] {
        if got != want {
            e.push((
                op.at(key),
                format!("{got:?}: only `{want}` is implemented ({rule})"),
            ));
        }
    }
    for (key, got, rule) in [
        ("side6_ignores_enemies", o.side6_ignores_enemies, "A-32"),
        ("defender_all_units", o.defender_all_units, "A-38"),
        ("aa_bombing_simultaneous", o.aa_bombing_simultaneous, "A-47"),
        ("side6_sanctuary", o.side6_sanctuary, "A-70"),
        ("africa_can_fight", o.africa_can_fight, "A-81"),
    ] {
        if !got {
            e.push((
                op.at(key),
                format!("false: only `true` is implemented ({rule})"),
            ));
        }
    }
    if o.refit_cost_halfpts != 1 {
        e.push((
            op.at("refit_cost_halfpts"),
            "only 1 (0.5P a swap) is implemented (8.3, A-10)".into(),
        ));
    }
    e
}

/// Whether a setup place is on the map and open (not Earth).
fn place_ok(d: &ZetaData, at: Place) -> Result<(), String> {
    match at {
        Place::Hex(l) if !d.on_map(l) => Err(format!("{l} is off its map")),
        Place::Hex(l) if l.map == MapId::Space && l.at == d.map.space.earth => {
            Err("nothing stands on Earth (A-19)".into())
        }
        _ => Ok(()),
    }
}
