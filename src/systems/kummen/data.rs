//! The stand-in map and counters (games/kummen/*.yaml): their format, loading and validation.
//!
//! Both are read once, when a game is created (the engine gives their texts: built in, or the
//! user's `pbem new --data DIR`), and written to the game's data.yaml, so a game replays from
//! its states and that file even if the data files change later.

use crate::kit::hex::{Hex, HexGrid};
use crate::kit::seats::{self, Seat, TwoSeats};
use crate::systems::{DataFile, DataSource, data_file};
use crate::yaml::{self, FieldPath};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub const MAP: DataFile = data_file!("kummen", "map.yaml");
pub const COUNTERS: DataFile = data_file!("kummen", "counters.yaml");
/// The files a game starts from, in the order they are read.
pub const FILES: &[DataFile] = &[MAP, COUNTERS];

/// The two seats, in seat order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Mercenary,
    Beeler,
}

impl Seat for Side {
    const ALL: &'static [Side] = &[Side::Mercenary, Side::Beeler];
    const NAMES: &'static [&'static str] = &["mercenary", "beeler"];
}

impl TwoSeats for Side {}

impl Side {
    /// Prefix of this side's opaque tokens (`M#3`, `B#17`).
    pub fn token_prefix(self) -> &'static str {
        match self {
            Side::Mercenary => "M",
            Side::Beeler => "B",
        }
    }
}

/// One value per side.
pub type PerSide<T> = seats::PerSide<Side, T>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Clear,
    Forest,
    River,
    Highland,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    Mercenary,
    Beeler,
    Neutral,
}

impl Control {
    pub fn of(side: Side) -> Control {
        match side {
            Side::Mercenary => Control::Mercenary,
            Side::Beeler => Control::Beeler,
        }
    }
    pub fn side(self) -> Option<Side> {
        match self {
            Control::Mercenary => Some(Side::Mercenary),
            Control::Beeler => Some(Side::Beeler),
            Control::Neutral => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseAttack {
    pub attack: u32,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Base {
    pub name: String,
    pub hex: Hex,
    pub bp: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_attack: Option<BaseAttack>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<Side>,
    pub control: Control,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nuba: bool,
}

/// The map as the file gives it (and as the state keeps it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    #[serde(default)]
    pub stand_in: bool,
    pub grid: HexGrid,
    pub default_terrain: Terrain,
    #[serde(default)]
    pub forest: Vec<Hex>,
    #[serde(default)]
    pub highland: Vec<Hex>,
    #[serde(default)]
    pub rivers: Vec<Vec<Hex>>,
    pub bases: Vec<Base>,
    pub supply_hexes: Vec<Hex>,
}

// Base names the rules refer to (2.1.4, 4.4.2, 15.1, 15.2).
pub const EX10: &str = "EX-10";
pub const ZAKUI: &str = "Zakui";
pub const EX9: &str = "EX-9";
pub const EX7: &str = "EX-7";
pub const EX6: &str = "EX-6";
pub const ZOMM: &str = "Zomm Village";
pub const RAMO: &str = "Ramo Temple";
pub const PALACE: &str = "Kanjelman Palace";

impl Map {
    pub fn terrain(&self, h: Hex) -> Terrain {
        if self.rivers.iter().any(|r| r.contains(&h)) {
            Terrain::River
        } else if self.forest.contains(&h) {
            Terrain::Forest
        } else if self.highland.contains(&h) {
            Terrain::Highland
        } else {
            self.default_terrain
        }
    }

    /// Whether a step from `a` to `b` follows a river chain (5.6, default A2).
    pub fn along_river(&self, a: Hex, b: Hex) -> bool {
        self.rivers.iter().any(|r| {
            r.windows(2)
                .any(|w| (w[0] == a && w[1] == b) || (w[0] == b && w[1] == a))
        })
    }

    pub fn base_at(&self, h: Hex) -> Option<&Base> {
        self.bases.iter().find(|b| b.hex == h)
    }

    pub fn base_named(&self, name: &str) -> Option<&Base> {
        self.bases.iter().find(|b| b.name == name)
    }

    /// The hex of a base the rules name; validation guarantees it exists.
    pub fn hex_of(&self, name: &str) -> Hex {
        self.base_named(name)
            .map(|b| b.hex)
            .unwrap_or(Hex { col: 0, row: 1 })
    }

    /// A side's home base hex (2.1.4).
    pub fn home(&self, side: Side) -> Hex {
        self.bases
            .iter()
            .find(|b| b.home == Some(side))
            .map(|b| b.hex)
            .unwrap_or(Hex { col: 0, row: 1 })
    }

    pub fn is_nuba(&self, h: Hex) -> bool {
        self.base_at(h).is_some_and(|b| b.nuba)
    }

    /// Semantic checks; each error names the field path.
    fn validate(&self) -> Vec<(FieldPath, String)> {
        let mut errs = Vec::new();
        let root = FieldPath::root();
        if let Err(e) = self.grid.validate() {
            errs.push((root.at("grid"), e));
            return errs;
        }
        let on_map = |h: Hex| self.grid.contains(h);
        for (name, list) in [("forest", &self.forest), ("highland", &self.highland)] {
            for (i, h) in list.iter().enumerate() {
                if !on_map(*h) {
                    errs.push((root.at(name).at(i), format!("hex {h} is off the map")));
                }
            }
        }
        for (ri, river) in self.rivers.iter().enumerate() {
            for (i, h) in river.iter().enumerate() {
                let p = root.at("rivers").at(ri).at(i);
                if !on_map(*h) {
                    errs.push((p, format!("hex {h} is off the map")));
                } else if i > 0 && !self.grid.adjacent(river[i - 1], *h) {
                    errs.push((
                        p,
                        format!("river hexes {} and {h} are not adjacent", river[i - 1]),
                    ));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for (i, b) in self.bases.iter().enumerate() {
            let p = root.at("bases").at(i);
            if !on_map(b.hex) {
                errs.push((p.at("hex"), format!("hex {} is off the map", b.hex)));
            }
            if !seen.insert(b.hex) {
                errs.push((p.at("hex"), format!("two bases in hex {}", b.hex)));
            }
            if let Some(ba) = b.base_attack
                && ba.count == 0
            {
                errs.push((p.at("base_attack").at("count"), "must be at least 1".into()));
            }
        }
        for name in [EX10, ZAKUI, EX9, EX7, EX6, ZOMM, RAMO, PALACE] {
            if self.base_named(name).is_none() {
                errs.push((
                    root.at("bases"),
                    format!("the rules need a base named {name:?} (2.1.4, 15)"),
                ));
            }
        }
        for &side in Side::ALL {
            let n = self.bases.iter().filter(|b| b.home == Some(side)).count();
            if n != 1 {
                errs.push((
                    root.at("bases"),
                    format!("exactly one base must be the {} home (2.1.4)", side.name()),
                ));
            }
        }
        if self
            .base_named(EX10)
            .is_some_and(|b| b.home != Some(Side::Mercenary))
        {
            errs.push((
                root.at("bases"),
                "EX-10 must be the mercenary home (2.1.4)".into(),
            ));
        }
        if self
            .base_named(PALACE)
            .is_some_and(|b| b.home != Some(Side::Beeler))
        {
            errs.push((
                root.at("bases"),
                "the palace must be the beeler home (2.1.4)".into(),
            ));
        }
        if self.supply_hexes.len() != 2 {
            errs.push((
                root.at("supply_hexes"),
                "exactly two river hexes lie on the supply line (2.3.2)".into(),
            ));
        }
        for (i, h) in self.supply_hexes.iter().enumerate() {
            if !on_map(*h) {
                errs.push((
                    root.at("supply_hexes").at(i),
                    format!("hex {h} is off the map"),
                ));
            } else if self.base_at(*h).is_some() {
                errs.push((
                    root.at("supply_hexes").at(i),
                    format!("{h} is a base; the supply hexes are not bases (2.3.2)"),
                ));
            }
        }
        errs
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    At,
    Soldier,
    Heli,
}

/// Named units with special rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Kanyu,
    Kiriko,
    BlueAt,
    StrikeDog,
    ProtoOne,
}

impl Role {
    /// Blue AT, Strike Dog and Proto One are the PS (2.2.2).
    pub fn is_ps(self) -> bool {
        matches!(self, Role::BlueAt | Role::StrikeDog | Role::ProtoOne)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Values {
    pub attack: u32,
    pub defense: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub side: Side,
    pub class: Class,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    pub attack: u32,
    pub defense: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boosted: Option<Values>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixLine {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub prefix: Option<String>,
    #[serde(default)]
    pub count: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReinforcementTable {
    pub cup: Vec<u32>,
    pub heli: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    #[serde(default)]
    pub stand_in: bool,
    pub types: BTreeMap<String, UnitType>,
    pub units: Vec<MixLine>,
    pub merc_reinforcement: ReinforcementTable,
    pub offensive_markers: Vec<u32>,
}

/// The component data of a kummen game, as its data.yaml holds it: the map and the counters.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Components {
    pub map: std::sync::Arc<Map>,
    pub counters: std::sync::Arc<Counters>,
}

/// The counters as the game keeps them: types, and every unit id with its type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    pub types: BTreeMap<String, UnitType>,
    /// Unit id -> type name.
    pub units: BTreeMap<String, String>,
    pub merc_reinforcement: ReinforcementTable,
    pub offensive_markers: Vec<u32>,
    /// Each unit's side, class and role, and the unit of each role: what the rules ask of a
    /// unit most (several times per unit a hex path or a combat looks at), found by one hash
    /// instead of two searches by name. Built on first use from `units` and `types`, whose
    /// ids, sides, classes and roles never change once a game's data is read (tests change a
    /// type's values only).
    #[serde(skip)]
    index: Index,
}

/// [`Counters`]' index: derived, so it plays no part in comparing or writing counters.
#[derive(Debug, Clone, Default)]
struct Index(std::sync::OnceLock<Built>);

#[derive(Debug, Clone)]
struct Built {
    // std's map: its keyed hash keeps lookups linear whatever ids a game's data holds.
    units: std::collections::HashMap<String, Kind>,
    /// The first unit (in id order) of each role.
    roles: Vec<(Role, String)>,
}

#[derive(Debug, Clone, Copy)]
struct Kind {
    side: Side,
    class: Class,
    role: Option<Role>,
}

impl PartialEq for Index {
    fn eq(&self, _: &Index) -> bool {
        true
    }
}
impl Eq for Index {}

/// The most units one line of counters.yaml makes (`prefix` and `count`): far more than any
/// counter sheet, and few enough that a mistyped count cannot make `pbem new` build millions.
const MAX_LINE_COUNT: u32 = 999;

impl CountersFile {
    fn compile(&self) -> (Counters, Vec<(FieldPath, String)>) {
        let mut errs = Vec::new();
        let root = FieldPath::root();
        let mut units = BTreeMap::new();
        for (name, t) in &self.types {
            if t.class == Class::Heli && t.side != Side::Mercenary {
                errs.push((
                    root.at("types").at(name.as_str()).at("side"),
                    "only the mercenary side has helis (2.2.1)".into(),
                ));
            }
            if let Some(role) = t.role {
                let want = match role {
                    Role::Kanyu | Role::Kiriko => Side::Mercenary,
                    _ => Side::Beeler,
                };
                if t.side != want || t.class != Class::At {
                    errs.push((
                        root.at("types").at(name.as_str()).at("role"),
                        format!("{role:?} must be a {} AT (2.2.2)", want.name()),
                    ));
                }
            }
        }
        for (i, line) in self.units.iter().enumerate() {
            let p = root.at("units").at(i);
            if !self.types.contains_key(&line.kind) {
                errs.push((
                    p.at("type"),
                    format!(
                        "unknown unit type {:?}; known: {}",
                        line.kind,
                        self.types.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
                continue;
            }
            let ids: Vec<String> = match (&line.id, &line.prefix, line.count) {
                (Some(id), None, None) => vec![id.clone()],
                (None, Some(_), Some(n)) if !(1..=MAX_LINE_COUNT).contains(&n) => {
                    errs.push((
                        p.at("count"),
                        format!("{n} units: a line makes 1 to {MAX_LINE_COUNT}"),
                    ));
                    continue;
                }
                (None, Some(prefix), Some(n)) => {
                    (1..=n).map(|k| format!("{prefix}{k:02}")).collect()
                }
                _ => {
                    errs.push((p, "give either `id`, or `prefix` and `count`".into()));
                    continue;
                }
            };
            for id in ids {
                if id.is_empty()
                    || !id
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    errs.push((
                        p.clone(),
                        format!("unit id {id:?} may hold only letters, digits, - and _"),
                    ));
                } else if units.insert(id.clone(), line.kind.clone()).is_some() {
                    errs.push((p.clone(), format!("unit id {id} is defined twice")));
                }
            }
        }
        let counters = Counters {
            types: self.types.clone(),
            units,
            merc_reinforcement: self.merc_reinforcement.clone(),
            offensive_markers: self.offensive_markers.clone(),
            index: Index::default(),
        };
        for role in [
            Role::Kanyu,
            Role::Kiriko,
            Role::BlueAt,
            Role::StrikeDog,
            Role::ProtoOne,
        ] {
            let n = counters
                .units
                .keys()
                .filter(|id| counters.role(id) == Some(role))
                .count();
            if n != 1 {
                errs.push((
                    root.at("units"),
                    format!("there must be exactly one {role:?} unit, not {n} (2.2.2)"),
                ));
            }
        }
        // 15.1, 15.2: the setup draws 13 mercenary and 22 beeler units and places 2 helis.
        let plain = |side: Side| {
            counters
                .units
                .keys()
                .filter(|id| {
                    counters.side(id) == Some(side)
                        && counters.role(id).is_none()
                        && counters.class(id) != Some(Class::Heli)
                })
                .count()
        };
        if plain(Side::Mercenary) < 13 {
            errs.push((
                root.at("units"),
                "the mercenary cup needs at least 13 ATs and soldiers for setup (15.1)".into(),
            ));
        }
        if plain(Side::Beeler) < 22 {
            errs.push((
                root.at("units"),
                "the beeler cup needs at least 22 ATs and soldiers for setup (15.2)".into(),
            ));
        }
        let helis = counters
            .units
            .keys()
            .filter(|id| counters.class(id) == Some(Class::Heli))
            .count();
        if helis < 2 {
            errs.push((
                root.at("units"),
                "at least 2 helis are placed at setup (15.1)".into(),
            ));
        }
        for (name, col) in [
            ("cup", &self.merc_reinforcement.cup),
            ("heli", &self.merc_reinforcement.heli),
        ] {
            if col.len() != 6 {
                errs.push((
                    root.at("merc_reinforcement").at(name),
                    "one entry per die face 1-6 (4.4.3)".into(),
                ));
            }
        }
        if self.offensive_markers.len() != 7 {
            errs.push((
                root.at("offensive_markers"),
                "there are 7 general-offensive markers (4.5.2)".into(),
            ));
        }
        for (i, v) in self.offensive_markers.iter().enumerate() {
            if !(8..=11).contains(v) {
                errs.push((
                    root.at("offensive_markers").at(i),
                    format!("{v} is not a turn from 8 to 11 (14.1.2)"),
                ));
            }
        }
        (counters, errs)
    }
}

impl Counters {
    fn index(&self) -> &Built {
        self.index.0.get_or_init(|| {
            let mut roles: Vec<(Role, String)> = Vec::new();
            let mut units = std::collections::HashMap::with_capacity(self.units.len());
            for id in self.units.keys() {
                let Some(t) = self.unit_type(id) else {
                    continue;
                };
                if let Some(role) = t.role
                    && !roles.iter().any(|(r, _)| *r == role)
                {
                    roles.push((role, id.clone()));
                }
                let kind = Kind {
                    side: t.side,
                    class: t.class,
                    role: t.role,
                };
                units.insert(id.clone(), kind);
            }
            Built { units, roles }
        })
    }
    fn kind(&self, id: &str) -> Option<Kind> {
        self.index().units.get(id).copied()
    }
    pub fn unit_type(&self, id: &str) -> Option<&UnitType> {
        self.units.get(id).and_then(|t| self.types.get(t))
    }
    pub fn side(&self, id: &str) -> Option<Side> {
        self.kind(id).map(|k| k.side)
    }
    pub fn class(&self, id: &str) -> Option<Class> {
        self.kind(id).map(|k| k.class)
    }
    pub fn role(&self, id: &str) -> Option<Role> {
        self.kind(id).and_then(|k| k.role)
    }
    pub fn is_ps(&self, id: &str) -> bool {
        self.role(id).is_some_and(Role::is_ps)
    }
    /// The unit with this role, if the mix has one.
    pub fn with_role(&self, role: Role) -> Option<String> {
        let roles = &self.index().roles;
        roles
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, id)| id.clone())
    }
}

/// Loads and validates map.yaml and counters.yaml (built in, or the user's replacements).
pub fn load(data: &DataSource) -> Result<(Map, Counters), String> {
    let (map_text, map_origin) = data.load("kummen", &MAP);
    let map: Map = yaml::parse(map_text, &map_origin).map_err(|r| r.to_string())?;
    yaml::data_problems(map.validate(), map_text, &map_origin)?;
    let (c_text, c_origin) = data.load("kummen", &COUNTERS);
    let file: CountersFile = yaml::parse(c_text, &c_origin).map_err(|r| r.to_string())?;
    let (counters, errs) = file.compile();
    yaml::data_problems(errs, c_text, &c_origin)?;
    Ok((map, counters))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        Hex::parse(s).unwrap()
    }

    #[test]
    fn sides_are_written_by_their_seat_names_in_seat_order() {
        crate::kit::seats::check_serde_names::<Side>();
        assert_eq!(Side::ALL, [Side::Mercenary, Side::Beeler]);
    }

    #[test]
    fn built_in_stand_in_data_loads() {
        let (map, counters) = load(&DataSource::default()).unwrap();
        assert!(map.stand_in);
        assert_eq!(map.home(Side::Mercenary), h("B08"));
        assert_eq!(map.home(Side::Beeler), h("O06"));
        assert_eq!(counters.units.len(), 2 + 18 + 10 + 6 + 3 + 14 + 22);
        assert_eq!(counters.role("M-KANYU"), Some(Role::Kanyu));
    }

    #[test]
    fn supply_hexes_are_river_along_the_chain_2_3_2() {
        let (map, _) = load(&DataSource::default()).unwrap();
        assert_eq!(map.terrain(h("C08")), Terrain::River);
        assert!(map.along_river(h("C08"), h("D07")));
        assert!(map.along_river(h("B08"), h("C08")));
        assert!(!map.along_river(h("C08"), h("E07")));
        assert_eq!(map.terrain(h("A01")), Terrain::Forest);
        assert_eq!(map.terrain(h("H08")), Terrain::Highland);
        assert_eq!(map.terrain(h("J07")), Terrain::Clear);
    }

    #[test]
    fn bad_map_is_rejected_with_file_field_and_line() {
        let bad = MAP.builtin.replace("hex: G10", "hex: Z10");
        let err = load(&DataSource::with(&MAP, bad)).unwrap_err();
        assert!(err.contains("mine/map.yaml"), "{err}");
        assert!(err.contains("Z10"), "{err}");

        let bad = MAP
            .builtin
            .replace("{name: EX-9, hex: G10", "{name: EX-9, hex: Q10");
        let err = load(&DataSource::with(&MAP, bad)).unwrap_err();
        assert!(err.contains("bases[2].hex"), "{err}");
        assert!(err.contains("off the map"), "{err}");
    }

    #[test]
    fn bad_counters_are_rejected_with_the_field() {
        let bad = COUNTERS
            .builtin
            .replace("[8, 9, 9, 10, 10, 10, 11]", "[8, 9, 9, 10, 10, 10, 12]");
        let err = load(&DataSource::with(&COUNTERS, bad)).unwrap_err();
        assert!(err.contains("mine/counters.yaml"), "{err}");
        assert!(err.contains("offensive_markers[6]"), "{err}");
    }

    #[test]
    fn a_counter_line_making_more_than_999_units_is_refused_before_any_is_made() {
        let line = COUNTERS
            .builtin
            .lines()
            .find(|l| l.contains("count:"))
            .unwrap();
        let count = line.split("count:").nth(1).unwrap();
        let count = count
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap();
        let huge = line.replacen(&format!("count: {count}"), "count: 4000000000", 1);
        let bad = COUNTERS.builtin.replacen(line, &huge, 1);
        let err = load(&DataSource::with(&COUNTERS, bad)).unwrap_err();
        assert!(err.contains(".count"), "{err}");
        assert!(err.contains("a line makes 1 to 999"), "{err}");
    }

    #[test]
    fn the_index_answers_what_the_unit_lines_say() {
        let (_, counters) = load(&DataSource::default()).unwrap();
        for (id, kind) in &counters.units {
            let t = &counters.types[kind];
            assert_eq!(counters.side(id), Some(t.side), "{id}");
            assert_eq!(counters.class(id), Some(t.class), "{id}");
            assert_eq!(counters.role(id), t.role, "{id}");
        }
        assert_eq!(counters.side("NOT-A-UNIT"), None);
        assert_eq!(counters.with_role(Role::Kanyu).as_deref(), Some("M-KANYU"));
    }
}
