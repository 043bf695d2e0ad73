//! The component data (games/zeta/*.yaml): the sides, the names of things, the formats of the
//! six data files and their loading. The book prints no map, counter value, table or track
//! (digest §6), so every file is a stand-in (docs/zeta-plan.md §5) and says so. Each file is
//! read once, when a game is created (the engine hands over the texts: built in, or the user's
//! `pbem new --data DIR`), validated ([`super::validate`]) and written to the game's data.yaml.

use crate::kit::board::{Atlas, Location};
use crate::kit::hex::{Hex, HexGrid};
use crate::kit::seats::{self, Seat};
use crate::systems::{DataFile, DataSource, data_file};
use crate::yaml;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

pub const MAP: DataFile = data_file!("zeta", "map.yaml");
pub const BASES: DataFile = data_file!("zeta", "bases.yaml");
pub const COUNTERS: DataFile = data_file!("zeta", "counters.yaml");
pub const CHARACTERS: DataFile = data_file!("zeta", "characters.yaml");
pub const TRACK: DataFile = data_file!("zeta", "track.yaml");
pub const SCENARIOS: DataFile = data_file!("zeta", "scenarios.yaml");
/// The files a game starts from, in the order they are read (later files name things of the
/// earlier ones).
pub const FILES: &[DataFile] = &[MAP, BASES, COUNTERS, CHARACTERS, TRACK, SCENARIOS];

/// The three factions (1.2, 2.1), in seat order: the order of the step seed and of every
/// per-side listing (docs/zeta-plan.md Z-11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Titans,
    Aeug,
    NeoZeon,
}

impl Seat for Side {
    const ALL: &'static [Side] = &[Side::Titans, Side::Aeug, Side::NeoZeon];
    const NAMES: &'static [&'static str] = &["titans", "aeug", "neo_zeon"];
}

impl Side {
    /// The first letter of the side's unit ids (`t-hizack-3`, Z-8).
    pub fn letter(self) -> char {
        match self {
            Side::Titans => 't',
            Side::Aeug => 'a',
            Side::NeoZeon => 'n',
        }
    }
}

/// One value per side.
pub type PerSide<T> = seats::PerSide<Side, T>;

/// A counter on the map (`t-hizack-3`, `colony`): stable for its life (Z-8).
pub type UnitId = String;
/// A character, one id per version (`kamille_1`, `kamille_2`).
pub type CharId = String;
/// A base (`granada`, `side_3`).
pub type BaseId = String;
/// A unit type (`hizack`, `argama`).
pub type TypeId = String;

/// The two maps (2.3 and 13: space and ground).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapId {
    Space,
    Ground,
}

impl MapId {
    pub const ALL: [MapId; 2] = [MapId::Space, MapId::Ground];

    pub fn id(self) -> &'static str {
        match self {
            MapId::Space => "space",
            MapId::Ground => "ground",
        }
    }

    pub fn parse(s: &str) -> Option<MapId> {
        MapId::ALL.into_iter().find(|m| m.id() == s)
    }
}

/// A hex on one of the two maps, written `space:C05` (kit::board's `Location` text form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub map: MapId,
    pub at: Hex,
}

impl Loc {
    pub fn new(map: MapId, at: Hex) -> Loc {
        Loc { map, at }
    }

    /// Reads `space:C05` (the hex label itself is checked against a grid elsewhere).
    pub fn parse(s: &str) -> Result<Loc, String> {
        let (m, h) = s.split_once(':').ok_or_else(|| {
            format!("{s:?} is not a map hex; write it like space:C05 or ground:E06")
        })?;
        let map = MapId::parse(m)
            .ok_or_else(|| format!("{s:?}: no map {m:?}; the maps are space and ground"))?;
        Ok(Loc {
            map,
            at: Hex::parse(h).map_err(|e| format!("{s:?}: {e}"))?,
        })
    }

    pub fn label(&self) -> String {
        format!("{}:{}", self.map.id(), self.at.label())
    }

    /// The kit's form, for [`Atlas`] distances and neighbours.
    pub fn location(&self) -> Location<Hex> {
        Location {
            map: self.map.id().to_string(),
            at: self.at,
        }
    }
}

crate::kit::written_as_label!(Loc);

/// Where a unit, a mobile base or a lone character is: a hex, or one of the two boxes beside
/// the space map (30.2 the asteroid belt; 33.2 the Jupiter-fleet entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Hex(Loc),
    Belt,
    Jupiter,
}

impl Place {
    pub fn parse(s: &str) -> Result<Place, String> {
        match s {
            "belt" => Ok(Place::Belt),
            "jupiter" => Ok(Place::Jupiter),
            _ => Loc::parse(s)
                .map(Place::Hex)
                .map_err(|e| format!("{e}, belt or jupiter")),
        }
    }

    pub fn label(&self) -> String {
        match self {
            Place::Hex(l) => l.label(),
            Place::Belt => "belt".into(),
            Place::Jupiter => "jupiter".into(),
        }
    }

    pub fn loc(&self) -> Option<Loc> {
        match self {
            Place::Hex(l) => Some(*l),
            _ => None,
        }
    }

    /// The map a place belongs to: the two boxes lie beside the space map.
    pub fn map(&self) -> MapId {
        match self {
            Place::Hex(l) => l.map,
            Place::Belt | Place::Jupiter => MapId::Space,
        }
    }
}

crate::kit::written_as_label!(Place);

/// The three linked areas: drop point A leads to ground area A, and so on (14.3, 14.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Area {
    A,
    B,
    C,
}

impl Area {
    pub const ALL: [Area; 3] = [Area::A, Area::B, Area::C];

    pub fn letter(self) -> char {
        match self {
            Area::A => 'A',
            Area::B => 'B',
            Area::C => 'C',
        }
    }

    pub fn of_letter(c: char) -> Option<Area> {
        Area::ALL.into_iter().find(|a| a.letter() == c)
    }
}

/// One value per area, written `{a: .., b: .., c: ..}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerArea<T> {
    pub a: T,
    pub b: T,
    pub c: T,
}

impl<T: Copy> PerArea<T> {
    pub fn get(&self, area: Area) -> T {
        match area {
            Area::A => self.a,
            Area::B => self.b,
            Area::C => self.c,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (Area, T)> + '_ {
        Area::ALL.into_iter().map(|a| (a, self.get(a)))
    }
}

/// Ground terrain (13.9: MS only on land and coast; 15.5 no uncarried MS or character at sea).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Land,
    Coast,
    Ocean,
}

impl Terrain {
    /// The letter of the terrain rows of map.yaml.
    pub fn of_char(c: char) -> Option<Terrain> {
        match c {
            'L' => Some(Terrain::Land),
            'c' => Some(Terrain::Coast),
            '.' => Some(Terrain::Ocean),
            _ => None,
        }
    }

    /// Whether an MS may stand here (13.9).
    pub fn solid(self) -> bool {
        self != Terrain::Ocean
    }
}

/// The space map (14.3: Earth and its three drop points; 30.2 and 33.2: the boxes beside it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpaceMap {
    pub grid: HexGrid,
    /// Never entered.
    pub earth: Hex,
    /// The drop point of each area (14.3-14.4).
    pub drop_points: PerArea<Hex>,
    /// The hexes next to the asteroid-belt box (30.3).
    pub belt_adjacent: Vec<Hex>,
    /// The hexes next to the Jupiter-fleet box (33.3).
    pub jupiter_adjacent: Vec<Hex>,
}

impl SpaceMap {
    /// The area whose drop point `h` is.
    pub fn drop_area(&self, h: Hex) -> Option<Area> {
        self.drop_points
            .iter()
            .find(|(_, d)| *d == h)
            .map(|(a, _)| a)
    }
}

/// The ground map: wraps east-west (13.12); terrain and areas as one row of letters per map
/// row, west to east.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundMap {
    pub grid: HexGrid,
    /// Row 1 first; `L` land, `c` coast, `.` ocean.
    pub terrain: Vec<String>,
    /// Row 1 first; the area letter (A, B or C) of every hex (14.4).
    pub areas: Vec<String>,
}

/// The letter of hex `h` in one of the row pictures (`rows[row - 1]`, column `col`), if any.
fn cell_char(rows: &[String], h: Hex) -> Option<char> {
    let row = rows.get(usize::from(h.row).checked_sub(1)?)?;
    row.chars().nth(usize::from(h.col))
}

impl GroundMap {
    pub fn terrain(&self, h: Hex) -> Option<Terrain> {
        cell_char(&self.terrain, h).and_then(Terrain::of_char)
    }

    pub fn area(&self, h: Hex) -> Option<Area> {
        cell_char(&self.areas, h).and_then(Area::of_letter)
    }
}

/// map.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default)]
    pub stand_in: bool,
    pub space: SpaceMap,
    pub ground: GroundMap,
    /// The hex of every base that does not move (Axis and Gryps 2 move: 30.3, 31.4).
    pub bases: BTreeMap<BaseId, Loc>,
}

/// 2.5: military bases fight and are fought; political ones are governed only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaseKind {
    Military,
    Political,
}

/// A base's values at one level (2.8); attack and defense only for military bases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelValues {
    pub vp: u8,
    pub armament: u8,
    pub deploy: u8,
    #[serde(default)]
    pub attack: u8,
    #[serde(default)]
    pub defense: u8,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// One base card (2.5-2.8) and what the special rules say of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseDef {
    pub name: String,
    pub map: MapId,
    pub kind: BaseKind,
    /// Levels 1, 2 and 3 (level 0 is neutral and worth nothing, 2.6, A-86).
    pub levels: Vec<LevelValues>,
    /// On the Moon (30.4.7, 35.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub moon: bool,
    /// A colony may be placed here (35.5.1: Sides 1, 2, 4, 5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub colony_source: bool,
    /// One of the four bases Titans may hide the nuke in (36.2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nuke_candidate: bool,
    /// Nobody governs it (34.2: Side 6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ungovernable: bool,
    /// PP of repairs a faction gets free there per phase (34.4: Side 6).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub free_repair_pp: u8,
    /// Moves once its level is at least this (30.3: Axis 1; 31.4: Gryps 2 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_min_level: Option<u8>,
    /// Fires the colony laser (31.5: Gryps 2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub laser: bool,
    /// Armament points added while it is in the belt box (30.2: Axis).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub belt_bonus: u8,
    /// AEUG and Titans may not enter it while it is neutral, until Neo Zeon has governed it
    /// once (32.1.2, 32.1.6: Side 3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub closed_until_nz: bool,
}

impl BaseDef {
    /// The values at `level` (1-3); `None` at level 0 (neutral) or beyond.
    pub fn at_level(&self, level: u8) -> Option<&LevelValues> {
        self.levels.get(usize::from(level).checked_sub(1)?)
    }
}

/// bases.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasesFile {
    #[serde(default)]
    pub stand_in: bool,
    pub bases: BTreeMap<BaseId, BaseDef>,
}

/// 2.2-2.3: MS, ships; the colony is a counter of its own (35).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    Ms,
    Ship,
    Colony,
}

/// 2.4: which maps a unit may act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aptitude {
    S,
    G,
    SG,
}

impl Aptitude {
    pub fn allows(self, map: MapId) -> bool {
        matches!(
            (self, map),
            (Aptitude::SG, _) | (Aptitude::S, MapId::Space) | (Aptitude::G, MapId::Ground)
        )
    }
}

/// A ship's AA or bombard line: the two values its dice are compared with, and how many dice
/// (22.3, 24.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guns {
    pub values: Vec<u8>,
    pub guns: u8,
}

/// One face of a counter (16.1, 25.4: front, and the damaged back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Face {
    /// MS: air-combat values (21.5), one hit per value a die does not exceed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub air: Vec<u8>,
    /// MS: bombing values (23.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bombing: Vec<u8>,
    /// Ships: AA (22.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aa: Option<Guns>,
    /// Ships: bombardment (24.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bombard: Option<Guns>,
    pub defense: u8,
}

/// A unit type (2.2-2.4, 6.2, 15.3, 17.6, 20.6, 29).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub name: String,
    /// The counter's top line.
    pub short: String,
    pub class: Class,
    /// Absent for the colony, which neither moves by aptitude nor fights (35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aptitude: Option<Aptitude>,
    /// Production points (6.2); 0 for the colony, which is never produced.
    #[serde(default)]
    pub pp: u8,
    /// Government value (17.6, 28.3).
    #[serde(default)]
    pub gov: u8,
    /// Needs an NT pilot to sortie (20.6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nt_only: bool,
    /// Sorties without a pilot and takes only NT pilots (29.6: the mass-production Qubeley).
    #[serde(default, skip_serializing_if = "is_false")]
    pub pilotless: bool,
    /// MS a ship may carry (15.3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carry: u8,
    /// Repairs MS and ships that move with it (29.2: La Vie en Rose).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dock: bool,
    /// May receive one MS at deployment wherever it is (29.2.6, 29.3.1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub deploy_slot: bool,
    pub front: Face,
    pub back: Face,
}

/// The Zeon remnants and the Jupiter fleet (32.1.4, 32.2, 33.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Formations {
    pub zeon_republic: Vec<TypeId>,
    pub zeon_africa: Vec<TypeId>,
    pub jupiter_fleet: JupiterFleet,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JupiterFleet {
    pub units: Vec<TypeId>,
    pub chars: Vec<CharId>,
}

/// counters.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    #[serde(default)]
    pub stand_in: bool,
    pub types: BTreeMap<TypeId, UnitType>,
    /// The counter mix of each faction (7.4, A-3): how many counters of each type it owns.
    pub pools: PerSide<BTreeMap<TypeId, u8>>,
    /// Counters no faction owns (35.3: the one colony).
    #[serde(default)]
    pub shared: BTreeMap<TypeId, u8>,
    pub formations: Formations,
}

/// A survival-table entry (27.3): unharmed, grow (①→②), wounded L/M/H, dead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Survival {
    #[serde(rename = "ok")]
    Ok,
    G,
    L,
    M,
    H,
    D,
}

/// A wounded-box recovery result (4.4.1-4.4.4): recovered, no effect, worse, dead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Recovery {
    R,
    N,
    W,
    D,
}

/// A character (2.x, 20.5-20.8, 26, 27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharDef {
    pub name: String,
    pub side: Side,
    #[serde(default)]
    pub ms_attack: u8,
    #[serde(default)]
    pub ms_defense: u8,
    #[serde(default)]
    pub ship_attack: u8,
    #[serde(default)]
    pub ship_defense: u8,
    #[serde(default)]
    pub ms_command: u8,
    #[serde(default)]
    pub ship_command: u8,
    /// Newtype (20.6, A-88).
    #[serde(default, skip_serializing_if = "is_false")]
    pub nt: bool,
    /// Government value.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gov: u8,
    /// d6 = 1 to 6 (27.3).
    pub survival: Vec<Survival>,
    /// The ② this ① becomes (4.3, 27.3.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grows_to: Option<CharId>,
}

/// The wounded boxes' recovery tables, d6 = 1 to 6 (4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WoundTables {
    #[serde(rename = "L")]
    pub l: Vec<Recovery>,
    #[serde(rename = "M")]
    pub m: Vec<Recovery>,
    #[serde(rename = "H")]
    pub h: Vec<Recovery>,
}

/// characters.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharactersFile {
    #[serde(default)]
    pub stand_in: bool,
    pub characters: BTreeMap<CharId, CharDef>,
    pub wounds: WoundTables,
}

/// Where an arriving character may be placed (9.5): a space hex, a ground hex, with another
/// character (`[X]`), or anywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArrivalCode {
    Space,
    Ground,
    With(CharId),
    Any,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    pub char: CharId,
    pub code: ArrivalCode,
}

/// What the track starts on a turn besides arrivals (33.1, 31.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackEvent {
    JupiterFleet,
    #[serde(rename = "gryps_2")]
    Gryps2,
}

/// One turn of the track (X7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnEntry {
    pub turn: u8,
    /// 4.2.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrivals: Vec<Arrival>,
    /// 4.3: the ① characters that become their ② this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub growth: Vec<CharId>,
    /// 5.2: types each faction may augment from this turn on.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reinforcements: BTreeMap<Side, Vec<TypeId>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<TrackEvent>,
}

/// track.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackFile {
    #[serde(default)]
    pub stand_in: bool,
    pub turns: Vec<TurnEntry>,
}

/// Units of one side placed together at setup (38): a base, a hex or the belt box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartStack {
    pub side: Side,
    pub at: Place,
    /// Type -> how many.
    #[serde(default)]
    pub units: BTreeMap<TypeId, u8>,
    /// Characters placed here, aboard the stack's ship of most capacity (setup.rs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chars: Vec<CharId>,
}

/// A base's governor and level at setup (38); neutral bases are listed with no governor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartBase {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<Side>,
    pub level: u8,
    /// Where a base that moves starts (Axis: the belt box, 30.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Place>,
}

/// A scenario: rule 38 placed on the stand-in map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub description: String,
    pub bases: BTreeMap<BaseId, StartBase>,
    pub stacks: Vec<StartStack>,
}

/// The readings of the digest's ambiguities that a game may switch (digest §7 config keys;
/// docs/zeta-plan.md §7). Each field accepts only the reading the rules implement; its
/// alternative is named in the comment and refused by validation until it is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// NZ's setup units start at Axis (`axis`; `factory` is not implemented).
    #[serde(default = "axis")]
    pub nz_units_start: String,
    /// `per_faction` counter pools.
    #[serde(default = "per_faction")]
    pub counter_pools: String,
    /// the card choice is `merged` into the packet (guarded alternatives).
    #[serde(default = "merged")]
    pub card_phase_round: String,
    /// half-points per refit swap.
    #[serde(default = "one")]
    pub refit_cost_halfpts: u8,
    /// MS embark at the start and leave at the end of the ship's move (`start_end`).
    #[serde(default = "start_end")]
    pub carry_mode: String,
    /// a survivor with nowhere to be goes to the `nearest` own-unit hex.
    #[serde(default = "nearest")]
    pub orphan: String,
    /// a survival roll of 7 reads the 6 entry (`clamp`).
    #[serde(default = "clamp")]
    pub survival_overflow: String,
    /// Side 6 repairs ignore enemy units.
    #[serde(default = "yes")]
    pub side6_ignores_enemies: bool,
    /// defenders and joiners take part with all their units.
    #[serde(default = "yes")]
    pub defender_all_units: bool,
    /// the `principal` of a camp allocates its hits.
    #[serde(default = "principal")]
    pub camp_allocation: String,
    /// AA and bombing are simultaneous.
    #[serde(default = "yes")]
    pub aa_bombing_simultaneous: bool,
    /// who rides a mobile base (`govern_recover`).
    #[serde(default = "govern_recover")]
    pub mobile_base_riders: String,
    /// the Axis attack comes `before_recover`.
    #[serde(default = "before_recover")]
    pub axis_attack_slot: String,
    /// Axis against the Moon: `plus_one_level` on every row.
    #[serde(default = "plus_one_level")]
    pub axis_moon_shift: String,
    /// Side 6 is a sanctuary from the laser and Axis.
    #[serde(default = "yes")]
    pub side6_sanctuary: bool,
    /// Zeon Africa may fight in its placement phase.
    #[serde(default = "yes")]
    pub africa_can_fight: bool,
    /// a tie after turn 10 is `shared`.
    #[serde(default = "shared")]
    pub tiebreak: String,
}

fn word(w: &str) -> String {
    w.to_string()
}
fn axis() -> String {
    word("axis")
}
fn per_faction() -> String {
    word("per_faction")
}
fn merged() -> String {
    word("merged")
}
fn one() -> u8 {
    1
}
fn start_end() -> String {
    word("start_end")
}
fn nearest() -> String {
    word("nearest")
}
fn clamp() -> String {
    word("clamp")
}
fn yes() -> bool {
    true
}
fn principal() -> String {
    word("principal")
}
fn govern_recover() -> String {
    word("govern_recover")
}
fn before_recover() -> String {
    word("before_recover")
}
fn plus_one_level() -> String {
    word("plus_one_level")
}
fn shared() -> String {
    word("shared")
}

impl Default for Options {
    fn default() -> Options {
        Options {
            nz_units_start: axis(),
            counter_pools: per_faction(),
            card_phase_round: merged(),
            refit_cost_halfpts: one(),
            carry_mode: start_end(),
            orphan: nearest(),
            survival_overflow: clamp(),
            side6_ignores_enemies: true,
            defender_all_units: true,
            camp_allocation: principal(),
            aa_bombing_simultaneous: true,
            mobile_base_riders: govern_recover(),
            axis_attack_slot: before_recover(),
            axis_moon_shift: plus_one_level(),
            side6_sanctuary: true,
            africa_can_fight: true,
            tiebreak: shared(),
        }
    }
}

/// scenarios.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenariosFile {
    #[serde(default)]
    pub stand_in: bool,
    pub scenarios: BTreeMap<String, Scenario>,
    #[serde(default)]
    pub options: Options,
}

/// All component data of one game (`Rules::Data`), as loaded and validated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZetaData {
    pub map: MapFile,
    pub bases: BasesFile,
    pub counters: CountersFile,
    pub characters: CharactersFile,
    pub track: TrackFile,
    pub scenarios: ScenariosFile,
}

impl ZetaData {
    /// Both grids as a kit atlas (`space`, `ground`), for distances and neighbours.
    pub fn atlas(&self) -> Atlas<HexGrid> {
        Atlas::new([
            ("space".to_string(), self.map.space.grid.clone()),
            ("ground".to_string(), self.map.ground.grid.clone()),
        ])
    }

    pub fn grid(&self, map: MapId) -> &HexGrid {
        match map {
            MapId::Space => &self.map.space.grid,
            MapId::Ground => &self.map.ground.grid,
        }
    }

    /// Whether `loc` is a hex of its map.
    pub fn on_map(&self, loc: Loc) -> bool {
        self.grid(loc.map).contains(loc.at)
    }

    /// Hex steps between two hexes of one map (the ground map the shorter way round, 13.12).
    pub fn distance(&self, a: Loc, b: Loc) -> Option<u32> {
        (a.map == b.map && self.on_map(a) && self.on_map(b))
            .then(|| self.grid(a.map).distance(a.at, b.at))
    }

    /// The hexes next to `loc` on its map.
    pub fn neighbours(&self, loc: Loc) -> Vec<Loc> {
        if !self.on_map(loc) {
            return Vec::new();
        }
        self.grid(loc.map)
            .neighbours(loc.at)
            .into_iter()
            .map(|(_, h)| Loc::new(loc.map, h))
            .collect()
    }

    pub fn base(&self, id: &str) -> Option<&BaseDef> {
        self.bases.bases.get(id)
    }

    pub fn unit_type(&self, id: &str) -> Option<&UnitType> {
        self.counters.types.get(id)
    }

    pub fn character(&self, id: &str) -> Option<&CharDef> {
        self.characters.characters.get(id)
    }

    /// The fixed hex of a base (none for Axis and Gryps 2, which move).
    pub fn base_hex(&self, id: &str) -> Option<Loc> {
        self.map.bases.get(id).copied()
    }

    /// The bases whose fixed hex is `loc` (17.5: a hex may hold several).
    pub fn bases_at(&self, loc: Loc) -> Vec<&str> {
        self.map
            .bases
            .iter()
            .filter(|(_, l)| **l == loc)
            .map(|(b, _)| b.as_str())
            .collect()
    }

    /// The track entry of `turn`.
    pub fn turn(&self, turn: u8) -> Option<&TurnEntry> {
        self.track.turns.iter().find(|t| t.turn == turn)
    }

    /// The nuke candidates (36.2), in id order.
    pub fn nuke_candidates(&self) -> BTreeSet<BaseId> {
        self.bases
            .bases
            .iter()
            .filter(|(_, b)| b.nuke_candidate)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Whether every file is a stand-in.
    pub fn stand_in(&self) -> bool {
        self.map.stand_in
            && self.bases.stand_in
            && self.counters.stand_in
            && self.characters.stand_in
            && self.track.stand_in
            && self.scenarios.stand_in
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads one data file into `T`, naming the file (and line) in the error.
fn parse<T: serde::de::DeserializeOwned>(data: &DataSource, file: &DataFile) -> Result<T, String> {
    let (text, origin) = data.load("zeta", file);
    yaml::parse(text, &origin).map_err(|r| r.to_string())
}

/// Reads the six files without judging their contents ([`super::validate::load`] judges them).
pub fn read(data: &DataSource) -> Result<ZetaData, String> {
    let map: MapFile = parse(data, &MAP)?;
    let bases: BasesFile = parse(data, &BASES)?;
    let counters: CountersFile = parse(data, &COUNTERS)?;
    let characters: CharactersFile = parse(data, &CHARACTERS)?;
    let track: TrackFile = parse(data, &TRACK)?;
    let scenarios: ScenariosFile = parse(data, &SCENARIOS)?;
    Ok(ZetaData {
        map,
        bases,
        counters,
        characters,
        track,
        scenarios,
    })
}
