//! The stand-in data (games/dougram/*.yaml): formats, loading and validation. Every file is
//! read once, when a game is created (the engine gives the texts: built in, or the user's
//! `pbem new --data DIR`), and written to the game's data.yaml, so a game replays from its
//! states and that file alone.

use super::cards::{CardsFile, Known};
use crate::kit::seats::{self, Seat, TwoSeats};
use crate::systems::Problem;
use crate::systems::{DataFile, DataSource, data_file};
use crate::yaml::{self, FieldPath};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

pub const MAP: DataFile = data_file!("dougram", "map.yaml");
pub const COUNTERS: DataFile = data_file!("dougram", "counters.yaml");
pub const CARDS: DataFile = data_file!("dougram", "cards.yaml");
/// The files a game starts from, in the order they are read.
pub const FILES: &[DataFile] = &[MAP, COUNTERS, CARDS];

/// The two seats, in seat order: Lib moves first in every turn (4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Lib,
    Fed,
}

impl Seat for Side {
    const ALL: &'static [Side] = &[Side::Lib, Side::Fed];
    const NAMES: &'static [&'static str] = &["lib", "fed"];
}

impl TwoSeats for Side {}

/// One value per side.
pub type PerSide<T> = seats::PerSide<Side, T>;

/// A hex in an order: its number (`57`) or a place id (`bonar`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HexRef {
    Hex(HexId),
    Place(String),
}

impl fmt::Display for HexRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexRef::Hex(h) => write!(f, "{h}"),
            HexRef::Place(p) => write!(f, "{p}"),
        }
    }
}

impl HexRef {
    /// The land hex this names on `state`'s map; `None` for an unknown place, a hex off the
    /// map, or a sea hex.
    pub fn resolve(&self, map: &Map) -> Option<HexId> {
        let h = match self {
            HexRef::Hex(h) => *h,
            HexRef::Place(p) => match map.place(p) {
                Some(pl) => pl.hex,
                None => p.trim().parse::<HexId>().ok()?,
            },
        };
        map.is_land(h).then_some(h)
    }
}

/// Resolves `r` or explains why not, as a problem at `path` citing `rule`.
pub fn hex_problem(map: &Map, r: &HexRef, path: FieldPath, rule: &str) -> Result<HexId, Problem> {
    r.resolve(map).ok_or_else(|| {
        Problem::new(
            path,
            rule,
            format!("{r} is not a land hex on the map"),
            "a land hex number (10 * column + row) or a place id from map.yaml",
        )
    })
}

/// A hexside's terrain (9.3, 9.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hexside {
    Open,
    /// +1 MP to cross (9.3).
    Mountain,
    /// Never crossed (9.6).
    Impassable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    pub cols: u32,
    pub rows: u32,
}

/// Hex ids are 10 * column + row (the book's setup2 names hexes 53, 57 and 62).
pub type HexId = u32;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ja: String,
    pub en: String,
    pub hex: HexId,
    pub city: bool,
    #[serde(default)]
    pub vp: u32,
    pub chit_limit: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    #[serde(default)]
    pub stand_in: bool,
    pub grid: Grid,
    pub sea: Vec<HexId>,
    #[serde(default)]
    pub cold: Vec<HexId>,
    #[serde(default)]
    pub desert: Vec<HexId>,
    #[serde(default)]
    pub mountain_hexsides: Vec<[HexId; 2]>,
    #[serde(default)]
    pub impassable_hexsides: Vec<[HexId; 2]>,
    pub land_chit_limit: u32,
    #[serde(default)]
    pub chit_limits: BTreeMap<HexId, u32>,
    pub places: Vec<Place>,
}

/// The places the rules name (1.3 of the digest; 7.6, 10.3-10.5, 11.6-11.7, 23, 24, 28).
pub const NAMED_PLACES: [&str; 11] = [
    "spa",
    "bonar",
    "lambel",
    "cardinal",
    "sandrea",
    "garland",
    "doga",
    "grante",
    "estor",
    "north_pole_port",
    "andy",
];

/// Non-city hexes setup2 names, with the chits it puts there (28.2.3).
pub const NAMED_HEXES: [(HexId, u32); 3] = [(53, 2), (57, 2), (62, 1)];

impl Map {
    pub fn valid_id(&self, h: HexId) -> bool {
        let (c, r) = (h / 10, h % 10);
        (1..=self.grid.cols).contains(&c) && (1..=self.grid.rows).contains(&r)
    }

    pub fn is_land(&self, h: HexId) -> bool {
        self.valid_id(h) && !self.sea.contains(&h)
    }

    /// Cube coordinates of the odd-q layout (digest 7.3).
    fn cube(h: HexId) -> (i64, i64, i64) {
        let col0 = (h / 10) as i64 - 1;
        let row0 = (h % 10) as i64 - 1;
        let x = col0;
        let z = row0 - (col0 - (col0 & 1)) / 2;
        (x, -x - z, z)
    }

    /// The hexes next to `h` on the map, in id order.
    pub fn neighbours(&self, h: HexId) -> Vec<HexId> {
        let mut out = Vec::new();
        for c in 1..=self.grid.cols {
            for r in 1..=self.grid.rows {
                let n = 10 * c + r;
                if Map::distance(h, n) == 1 {
                    out.push(n);
                }
            }
        }
        out
    }

    /// What lies between two adjacent hexes (9.3, 9.6); sea hexes are never entered (9.6).
    pub fn hexside(&self, a: HexId, b: HexId) -> Hexside {
        let has = |list: &[[HexId; 2]]| list.iter().any(|s| *s == [a, b] || *s == [b, a]);
        if has(&self.impassable_hexsides) {
            Hexside::Impassable
        } else if has(&self.mountain_hexsides) {
            Hexside::Mountain
        } else {
            Hexside::Open
        }
    }

    /// Hex distance (11.4 counts hexes; default A17).
    pub fn distance(a: HexId, b: HexId) -> u32 {
        let (ax, ay, az) = Map::cube(a);
        let (bx, by, bz) = Map::cube(b);
        (ax - bx).abs().max((ay - by).abs()).max((az - bz).abs()) as u32
    }

    pub fn place(&self, id: &str) -> Option<&Place> {
        self.places.iter().find(|p| p.id == id)
    }

    pub fn place_at(&self, h: HexId) -> Option<&Place> {
        self.places.iter().find(|p| p.hex == h)
    }

    /// The hex of a place the rules name; validation guarantees it exists.
    pub fn hex_of(&self, id: &str) -> HexId {
        self.place(id).map(|p| p.hex).unwrap_or(0)
    }

    /// Latent chits a hex may hold (18.4).
    pub fn chit_limit(&self, h: HexId) -> u32 {
        if !self.is_land(h) {
            return 0;
        }
        if let Some(p) = self.place_at(h) {
            return p.chit_limit;
        }
        self.chit_limits
            .get(&h)
            .copied()
            .unwrap_or(self.land_chit_limit)
    }

    fn validate(&self) -> Vec<(FieldPath, String)> {
        let mut errs = Vec::new();
        let root = FieldPath::root();
        if self.grid.cols == 0 || self.grid.rows == 0 || self.grid.cols > 9 || self.grid.rows > 9 {
            errs.push((
                root.at("grid"),
                "cols and rows must be 1-9 (hex id = 10 * column + row)".into(),
            ));
            return errs;
        }
        for (name, list) in [
            ("sea", &self.sea),
            ("cold", &self.cold),
            ("desert", &self.desert),
        ] {
            for (i, h) in list.iter().enumerate() {
                if !self.valid_id(*h) {
                    errs.push((root.at(name).at(i), format!("hex {h} is off the map")));
                } else if name != "sea" && !self.is_land(*h) {
                    errs.push((root.at(name).at(i), format!("hex {h} is sea")));
                }
            }
        }
        for (name, list) in [
            ("mountain_hexsides", &self.mountain_hexsides),
            ("impassable_hexsides", &self.impassable_hexsides),
        ] {
            for (i, [a, b]) in list.iter().enumerate() {
                if !self.valid_id(*a) || !self.valid_id(*b) {
                    errs.push((root.at(name).at(i), format!("{a}|{b} is off the map")));
                } else if Map::distance(*a, *b) != 1 {
                    errs.push((
                        root.at(name).at(i),
                        format!("hexes {a} and {b} are not adjacent"),
                    ));
                }
            }
        }
        for h in self.chit_limits.keys() {
            if !self.is_land(*h) {
                errs.push((
                    root.at("chit_limits").at(h.to_string().as_str()),
                    format!("hex {h} is not a land hex"),
                ));
            }
        }
        let mut ids = BTreeSet::new();
        let mut hexes = BTreeSet::new();
        for (i, p) in self.places.iter().enumerate() {
            let pp = root.at("places").at(i);
            if !ids.insert(p.id.clone()) {
                errs.push((pp.at("id"), format!("place {:?} appears twice", p.id)));
            }
            if !self.is_land(p.hex) {
                errs.push((
                    pp.at("hex"),
                    format!("hex {} is not a land hex on the map", p.hex),
                ));
            }
            if !hexes.insert(p.hex) {
                errs.push((pp.at("hex"), format!("two places in hex {}", p.hex)));
            }
            if p.city && p.vp == 0 {
                errs.push((pp.at("vp"), "a city needs VP (6.3.1, 20.3)".into()));
            }
        }
        for name in NAMED_PLACES {
            if self.place(name).is_none() {
                errs.push((
                    root.at("places"),
                    format!("the rules need a place with id {name:?}"),
                ));
            }
        }
        for (h, need) in NAMED_HEXES {
            if !self.is_land(h) || self.place_at(h).is_some() {
                errs.push((
                    root.at("sea"),
                    format!("setup2 needs hex {h} to be a land hex that is no place (28.2.3)"),
                ));
            } else if self.chit_limit(h) < need {
                errs.push((
                    root.at("chit_limits"),
                    format!("setup2 puts {need} chits in hex {h}; its limit is lower (18.4)"),
                ));
            }
        }
        errs
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Soldier,
    Cba,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Values {
    pub aa: u32,
    pub ap: u32,
    pub def: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub class: Class,
    pub aa: u32,
    pub ap: u32,
    pub def: u32,
    /// The back of a two-step unit (21).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damaged: Option<Values>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mercenary: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    Desert,
    Cold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mod2 {
    pub aa: u32,
    pub ap: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainMod {
    pub types: Vec<String>,
    pub terrain: TerrainKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<Mod2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<Mod2>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    pub side: Side,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterLine {
    pub prefix: String,
    pub count: u32,
    pub front: Face,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Face>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sixth_army: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxDef {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ja: String,
    pub owner: Side,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    #[serde(default)]
    pub stand_in: bool,
    pub types: BTreeMap<String, UnitType>,
    #[serde(default)]
    pub terrain_mods: Vec<TerrainMod>,
    pub counters: Vec<CounterLine>,
    /// Value -> how many chits carry it (2.4).
    pub chits: BTreeMap<u32, u32>,
    pub boxes: Vec<BoxDef>,
}

/// One physical counter (2.2: the back of most counters is an enemy unit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterDef {
    pub front: Face,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Face>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sixth_army: bool,
}

/// Types the rules name (2.9, 6.8, 7.3, 17.6-17.8, 21, 22, 25, 26, 28).
pub const NAMED_TYPES: [&str; 18] = [
    "soldier",
    "garcia_squad",
    "crab_gunner",
    "round_facer",
    "nikolaev",
    "bushman",
    "blockhead_b",
    "hasty",
    "mackerel",
    "cochma_spl",
    "big_foot",
    "blizzard_gunner",
    "tequila_gunner",
    "desert_gunner",
    "dougram",
    "dougram_tb",
    "jagd_dougram",
    "fortress",
];

/// The most counters one line of counters.yaml prints: far more than any sheet, and few
/// enough that a mistyped count cannot make `pbem new` build millions.
const MAX_LINE_COUNT: u32 = 999;

impl CountersFile {
    /// The counter with id `id` (prefix + two-digit number), found without building the table.
    pub fn counter_def(&self, id: &str) -> Option<CounterDef> {
        self.counter_line(id).map(|l| CounterDef {
            front: l.front.clone(),
            back: l.back.clone(),
            sixth_army: l.sixth_army,
        })
    }

    /// The line of the counter sheet that prints counter `id` (`<prefix><n:02>`, n from 1 to
    /// the line's count), found without building any string: rules ask it for every unit they
    /// look at.
    pub fn counter_line(&self, id: &str) -> Option<&CounterLine> {
        self.counters.iter().find(|l| {
            let Some(digits) = id.strip_prefix(l.prefix.as_str()) else {
                return false;
            };
            // Exactly as `{:02}` prints a number: two digits, or more with no leading zero.
            let printed = digits.bytes().all(|b| b.is_ascii_digit())
                && (digits.len() == 2 || (digits.len() > 2 && !digits.starts_with('0')));
            printed
                && digits
                    .parse::<u32>()
                    .is_ok_and(|n| (1..=l.count).contains(&n))
        })
    }

    pub fn counter_defs(&self) -> BTreeMap<String, CounterDef> {
        let mut out = BTreeMap::new();
        for l in &self.counters {
            for n in 1..=l.count {
                out.insert(
                    format!("{}{:02}", l.prefix, n),
                    CounterDef {
                        front: l.front.clone(),
                        back: l.back.clone(),
                        sixth_army: l.sixth_army,
                    },
                );
            }
        }
        out
    }

    fn validate(&self) -> Vec<(FieldPath, String)> {
        let mut errs = Vec::new();
        let root = FieldPath::root();
        for (name, t) in &self.types {
            let p = root.at("types").at(name.as_str());
            for (f, v) in [("aa", t.aa), ("ap", t.ap), ("def", t.def)] {
                if !(1..=6).contains(&v) {
                    errs.push((p.at(f), format!("{v} is not 1-6 (a hit needs d6 <= value)")));
                }
            }
        }
        for name in NAMED_TYPES {
            if !self.types.contains_key(name) {
                errs.push((root.at("types"), format!("the rules need a type {name:?}")));
            }
        }
        for name in ["dougram", "dougram_tb", "jagd_dougram"] {
            if self.types.get(name).is_some_and(|t| t.damaged.is_none()) {
                errs.push((
                    root.at("types").at(name),
                    "the Dougram family has two steps: give `damaged` values (21)".into(),
                ));
            }
        }
        for (i, m) in self.terrain_mods.iter().enumerate() {
            for (j, t) in m.types.iter().enumerate() {
                if !self.types.contains_key(t) {
                    errs.push((
                        root.at("terrain_mods").at(i).at("types").at(j),
                        format!("unknown type {t:?}"),
                    ));
                }
            }
            if m.set.is_some() == m.add.is_some() {
                errs.push((
                    root.at("terrain_mods").at(i),
                    "give exactly one of set and add".into(),
                ));
            }
        }
        let mut prefixes = BTreeSet::new();
        for (i, l) in self.counters.iter().enumerate() {
            let p = root.at("counters").at(i);
            if !prefixes.insert(l.prefix.clone()) || l.prefix.is_empty() {
                errs.push((
                    p.at("prefix"),
                    format!("prefix {:?} is empty or repeated", l.prefix),
                ));
            }
            if !(1..=MAX_LINE_COUNT).contains(&l.count) {
                errs.push((
                    p.at("count"),
                    format!("{}: a line prints 1 to {MAX_LINE_COUNT} counters", l.count),
                ));
            }
            for (f, face) in [("front", Some(&l.front)), ("back", l.back.as_ref())] {
                if let Some(face) = face
                    && !self.types.contains_key(&face.kind)
                {
                    errs.push((p.at(f).at("type"), format!("unknown type {:?}", face.kind)));
                }
            }
            if let Some(b) = &l.back
                && b.side == l.front.side
            {
                errs.push((
                    p.at("back").at("side"),
                    "a counter's back is an enemy unit (2.2); two-step units use `damaged`".into(),
                ));
            }
        }
        // 2.9: exactly these mercenaries.
        // Summed as u64: a line's count may be out of range here (refused above).
        let count_of = |ty: &str| -> u64 {
            self.counters
                .iter()
                .filter(|l| l.front.kind == ty && l.front.side == Side::Fed)
                .map(|l| u64::from(l.count))
                .sum()
        };
        for (ty, n) in [
            ("garcia_squad", 2),
            ("tequila_gunner", 2),
            ("desert_gunner", 1),
        ] {
            if count_of(ty) != n {
                errs.push((
                    root.at("counters"),
                    format!("the mercenaries are exactly {n} {ty} (2.9)"),
                ));
            }
        }
        let sixth: u64 = self
            .counters
            .iter()
            .filter(|l| l.sixth_army)
            .map(|l| u64::from(l.count))
            .sum();
        if sixth != 12 {
            errs.push((
                root.at("counters"),
                format!("the 6th Army has 12 counters (24.3), not {sixth}"),
            ));
        }
        for v in self.chits.keys() {
            if !(1..=5).contains(v) {
                errs.push((
                    root.at("chits").at(v.to_string().as_str()),
                    "chit values are 1-5 (2.4)".into(),
                ));
            }
        }
        let total: u32 = self.chits.values().sum();
        if total < 40 {
            errs.push((
                root.at("chits"),
                format!("{total} chits; setup2 alone takes 36 out of the cup (28.2.3)"),
            ));
        }
        let mut ids = BTreeSet::new();
        for (i, b) in self.boxes.iter().enumerate() {
            if !ids.insert(b.id.clone()) {
                errs.push((root.at("boxes").at(i).at("id"), "repeated box id".into()));
            }
        }
        for (b, owner) in super::setup::BOX_OWNERS {
            if !self.boxes.iter().any(|x| x.id == b && x.owner == owner) {
                errs.push((
                    root.at("boxes"),
                    format!(
                        "the rules need box {b:?} owned by {} (24.2, 28.2.3)",
                        owner.name()
                    ),
                ));
            }
        }
        errs
    }
}

/// All data of one game, as validated and copied into the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    pub map: Map,
    pub counters: CountersFile,
    pub cards: CardsFile,
}

/// Loads and validates map.yaml, counters.yaml and cards.yaml.
pub fn load(data: &DataSource) -> Result<Data, String> {
    let (m_text, m_origin) = data.load("dougram", &MAP);
    let map: Map = yaml::parse(m_text, &m_origin).map_err(|r| r.to_string())?;
    yaml::data_problems(map.validate(), m_text, &m_origin)?;
    let (c_text, c_origin) = data.load("dougram", &COUNTERS);
    let counters: CountersFile = yaml::parse(c_text, &c_origin).map_err(|r| r.to_string())?;
    yaml::data_problems(counters.validate(), c_text, &c_origin)?;
    let (k_text, k_origin) = data.load("dougram", &CARDS);
    let cards: CardsFile = yaml::parse(k_text, &k_origin).map_err(|r| r.to_string())?;
    let places: BTreeSet<String> = map.places.iter().map(|p| p.id.clone()).collect();
    let cities: BTreeSet<String> = map
        .places
        .iter()
        .filter(|p| p.city)
        .map(|p| p.id.clone())
        .collect();
    let unit_types: BTreeSet<String> = counters.types.keys().cloned().collect();
    let cba_types: BTreeSet<String> = counters
        .types
        .iter()
        .filter(|(_, t)| t.class == Class::Cba)
        .map(|(n, _)| n.clone())
        .collect();
    let boxes: BTreeSet<String> = counters.boxes.iter().map(|b| b.id.clone()).collect();
    let known = Known {
        places: &places,
        cities: &cities,
        unit_types: &unit_types,
        cba_types: &cba_types,
        boxes: &boxes,
    };
    yaml::data_problems(cards.validate(&known), k_text, &k_origin)?;
    Ok(Data {
        map,
        counters,
        cards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_counter_is_found_on_its_sheet_line_and_nothing_else_is() {
        let d = load(&DataSource::default()).unwrap();
        let defs = d.counters.counter_defs();
        for (id, def) in &defs {
            assert_eq!(d.counters.counter_def(id).as_ref(), Some(def), "{id}");
        }
        let line = &d.counters.counters[0];
        let p = &line.prefix;
        let beyond = line.count + 1;
        for id in [
            format!("{p}1"),
            format!("{p}001"),
            format!("{p}00"),
            format!("{p}+1"),
            format!("{p}{beyond:02}"),
            format!("{p}01x"),
            String::new(),
        ] {
            assert!(d.counters.counter_line(&id).is_none(), "{id:?}");
        }
    }

    fn with_override(file: &DataFile, text: &str) -> Result<Data, String> {
        load(&DataSource::with(file, text.to_string()))
    }

    fn replaced(text: &str, from: &str, to: &str) -> String {
        assert!(text.contains(from), "pattern {from:?} not found");
        text.replacen(from, to, 1)
    }

    #[test]
    fn sides_are_written_by_their_seat_names_lib_first_4_1() {
        crate::kit::seats::check_serde_names::<Side>();
        assert_eq!(Side::ALL, [Side::Lib, Side::Fed]);
    }

    #[test]
    fn every_lib_arm_card_names_a_type_some_counter_has_a_lib_face_of_6_8_6_9() {
        let d = load(&DataSource::default()).unwrap();
        let defs = d.counters.counter_defs();
        let lib_faces: BTreeSet<&str> = defs
            .values()
            .flat_map(|c| [Some(&c.front), c.back.as_ref()])
            .flatten()
            .filter(|f| f.side == Side::Lib)
            .map(|f| f.kind.as_str())
            .collect();
        let mut armed = BTreeSet::new();
        for c in &d.cards.cards {
            for f in &c.while_open {
                if let super::super::cards::Flag::LibArm(t) = f {
                    assert!(
                        lib_faces.contains(t.as_str()),
                        "card {} arms {t}, which no counter has on a Lib face",
                        c.no
                    );
                    armed.insert(t.as_str());
                }
            }
        }
        for t in ["dougram", "jagd_dougram"] {
            assert!(armed.contains(t), "a card lets Lib arm the {t} (21)");
        }
    }

    #[test]
    fn built_in_stand_in_data_loads() {
        let d = load(&DataSource::default()).unwrap();
        assert!(d.map.stand_in && d.counters.stand_in && d.cards.stand_in);
        assert_eq!(d.counters.counter_defs().len(), 113);
        let total: u32 = d.counters.chits.values().sum();
        let points: u32 = d.counters.chits.iter().map(|(v, n)| v * n).sum();
        assert_eq!(points * 2, total * 5, "mean 2.5 (2.4)");
    }

    #[test]
    fn stand_in_map_meets_the_distance_constraints_11_6_11_7() {
        let d = load(&DataSource::default()).unwrap();
        let m = &d.map;
        let h = |n: &str| m.hex_of(n);
        assert_eq!(Map::distance(h("north_pole_port"), h("sandrea")), 4);
        assert!(Map::distance(h("bonar"), h("grante")) >= 4);
        assert!(Map::distance(h("spa"), h("grante")) >= 4);
        assert_eq!(m.chit_limit(53), 2);
        assert_eq!(m.chit_limit(62), 1);
        assert_eq!(m.chit_limit(11), 0);
    }

    #[test]
    fn every_card_the_rules_name_is_present_10_3_to_10_5_and_20_2() {
        let d = load(&DataSource::default()).unwrap();
        let by = d.cards.by_no();
        for no in [2, 20, 29, 32, 34, 36, 37, 50, 61, 64, 68, 76, 77] {
            assert!(!by[&no].stand_in, "card {no}");
        }
        assert!(by.values().filter(|c| c.stand_in).count() >= 20);
    }

    #[test]
    fn a_bad_map_names_file_and_field() {
        let bad = replaced(MAP.builtin, "hex: 73,", "hex: 23,");
        let err = with_override(&MAP, &bad).unwrap_err();
        assert!(err.contains("map.yaml"), "{err}");
        assert!(err.contains("places[1].hex"), "{err}");
    }

    #[test]
    fn a_bad_counter_file_names_file_and_field_2_9() {
        let bad = replaced(
            COUNTERS.builtin,
            "{prefix: GA, count: 2,",
            "{prefix: GA, count: 3,",
        );
        let err = with_override(&COUNTERS, &bad).unwrap_err();
        assert!(
            err.contains("counters.yaml") && err.contains("2.9"),
            "{err}"
        );
    }

    #[test]
    fn a_bad_card_file_names_file_and_field_10_3() {
        let bad = replaced(
            CARDS.builtin,
            "[grante, bonar], [grante, spa]",
            "[grante, bonar], [grante, atlantis]",
        );
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains("cards.yaml"), "{err}");
        assert!(
            err.contains("cards[1].effects[0].sea_move.routes[1][1]"),
            "{err}"
        );
        let bad = replaced(
            CARDS.builtin,
            "while_open: [lib_government]",
            "while_open: []",
        );
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains("card 29"), "{err}");
        let bad = replaced(
            CARDS.builtin,
            "setup2: open, when: {turn: own, phase: any}, after: open",
            "setup2: open, when: {turn: own, phase: any}, after: discard",
        );
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains("starts open"), "{err}");
    }

    #[test]
    fn a_card_condition_naming_an_unknown_card_or_city_is_rejected_2_10() {
        let bad = replaced(CARDS.builtin, "{card_open: 29}", "{card_open: 9999}");
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains(".requires[0]"), "{err}");
        assert!(err.contains("there is no card 9999"), "{err}");
        let bad = replaced(
            CARDS.builtin,
            "{own_controls: doga}",
            "{own_controls: atlantis}",
        );
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains("not a city"), "{err}");
        let bad = replaced(CARDS.builtin, "{turn_at_least: 5}", "{turn_at_most: 5}");
        assert!(
            with_override(&CARDS, &bad).is_err(),
            "unknown condition kind"
        );
    }

    #[test]
    fn a_counter_line_printing_more_than_999_counters_is_refused_with_its_field() {
        let line = COUNTERS
            .builtin
            .lines()
            .find(|l| l.contains("count: "))
            .unwrap();
        let at = line.find("count: ").unwrap() + "count: ".len();
        let digits = line[at..].chars().take_while(char::is_ascii_digit).count();
        let huge = format!("{}4000000000{}", &line[..at], &line[at + digits..]);
        let err = with_override(&COUNTERS, &replaced(COUNTERS.builtin, line, &huge)).unwrap_err();
        assert!(err.contains(".count"), "{err}");
        assert!(err.contains("a line prints 1 to 999 counters"), "{err}");
    }

    #[test]
    fn a_deck_of_the_wrong_size_is_rejected_28_1_2() {
        let bad = replaced(
            CARDS.builtin,
            "owner: lib, setup1: deck, setup2: deck",
            "owner: lib, setup1: stock, setup2: deck",
        );
        let err = with_override(&CARDS, &bad).unwrap_err();
        assert!(err.contains("28.1.2.1"), "{err}");
    }
}
