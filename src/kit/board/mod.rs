//! Boards: what the grids of a game have in common ([`Grid`]: labels, neighbours, distance),
//! several named maps in one game ([`Atlas`], [`Location`]), square grids ([`square`]) and
//! continuous table coordinates in integer units ([`table`]). Hex grids live in
//! [`crate::kit::hex`]; they implement [`Grid`] here.

pub mod square;
pub mod table;

use crate::kit::hex::{Hex, HexGrid};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A map made of labelled cells.
pub trait Grid {
    type Cell: Copy + Ord + fmt::Debug;

    /// Parses a label and checks that the cell is on this map; the error says what a label on
    /// this map looks like.
    fn cell(&self, label: &str) -> Result<Self::Cell, String>;
    /// The cell's label, which [`Grid::cell`] parses back.
    fn label(&self, cell: Self::Cell) -> String;
    fn contains(&self, cell: Self::Cell) -> bool;
    /// The on-map cells one step away, in a fixed order.
    fn neighbours(&self, cell: Self::Cell) -> Vec<Self::Cell>;
    /// Steps between two cells on this map, with the map's own adjacency.
    fn distance(&self, a: Self::Cell, b: Self::Cell) -> u32;
}

impl Grid for HexGrid {
    type Cell = Hex;

    fn cell(&self, label: &str) -> Result<Hex, String> {
        self.hex(label)
    }

    fn label(&self, cell: Hex) -> String {
        cell.label()
    }

    fn contains(&self, cell: Hex) -> bool {
        HexGrid::contains(self, cell)
    }

    fn neighbours(&self, cell: Hex) -> Vec<Hex> {
        HexGrid::neighbours(self, cell)
            .into_iter()
            .map(|(_, h)| h)
            .collect()
    }

    fn distance(&self, a: Hex, b: Hex) -> u32 {
        HexGrid::distance(self, a, b)
    }
}

/// A place on one of a game's maps, e.g. `{map: ground, at: C05}`; `space:C05` as text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location<C> {
    pub map: String,
    pub at: C,
}

/// Several named maps of one kind in one game (zeta: a space map and ground maps), in map-id
/// order. Written as a YAML map from map id to grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Atlas<G> {
    pub maps: BTreeMap<String, G>,
}

impl<G> Default for Atlas<G> {
    fn default() -> Self {
        Atlas {
            maps: BTreeMap::new(),
        }
    }
}

impl<G: Grid> Atlas<G> {
    pub fn new(maps: impl IntoIterator<Item = (String, G)>) -> Atlas<G> {
        Atlas {
            maps: maps.into_iter().collect(),
        }
    }

    /// The map with this id, or an error listing the ids there are.
    pub fn map(&self, id: &str) -> Result<&G, String> {
        self.maps.get(id).ok_or_else(|| {
            let ids: Vec<&str> = self.maps.keys().map(String::as_str).collect();
            format!("no map {id:?} (maps: {})", ids.join(", "))
        })
    }

    /// The location of the cell `label` on map `map`, checked.
    pub fn locate(&self, map: &str, label: &str) -> Result<Location<G::Cell>, String> {
        let at = self
            .map(map)?
            .cell(label)
            .map_err(|e| format!("{map}: {e}"))?;
        Ok(Location {
            map: map.to_string(),
            at,
        })
    }

    /// Parses `map:label`, e.g. `space:C05`.
    pub fn parse(&self, text: &str) -> Result<Location<G::Cell>, String> {
        let (map, label) = text.split_once(':').ok_or_else(|| {
            format!("location {text:?} must be a map id and a cell, like space:C05")
        })?;
        self.locate(map, label)
    }

    /// `map:label`, which [`Atlas::parse`] reads back; `None` for a map this atlas lacks.
    pub fn label(&self, loc: &Location<G::Cell>) -> Option<String> {
        let g = self.maps.get(&loc.map)?;
        Some(format!("{}:{}", loc.map, g.label(loc.at)))
    }

    /// Whether the location names a map of this atlas and a cell on it.
    pub fn contains(&self, loc: &Location<G::Cell>) -> bool {
        self.maps.get(&loc.map).is_some_and(|g| g.contains(loc.at))
    }

    /// Neighbours on the same map (moving between maps is a rule, not geometry).
    pub fn neighbours(&self, loc: &Location<G::Cell>) -> Vec<Location<G::Cell>> {
        match self.maps.get(&loc.map) {
            Some(g) if g.contains(loc.at) => g
                .neighbours(loc.at)
                .into_iter()
                .map(|at| Location {
                    map: loc.map.clone(),
                    at,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Distance between two locations on the same map; `None` across maps or off the atlas.
    pub fn distance(&self, a: &Location<G::Cell>, b: &Location<G::Cell>) -> Option<u32> {
        if a.map != b.map || !self.contains(a) || !self.contains(b) {
            return None;
        }
        let g = self.maps.get(&a.map)?;
        Some(g.distance(a.at, b.at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::hex::{LettersFrom, Shifted};

    fn hexes(columns: u8, rows: u8) -> HexGrid {
        HexGrid {
            columns,
            rows,
            letters_from: LettersFrom::West,
            shifted: Shifted::Even,
            wrap: false,
        }
    }

    fn atlas() -> Atlas<HexGrid> {
        Atlas::new([
            ("space".to_string(), hexes(10, 10)),
            ("ground".to_string(), hexes(20, 8)),
        ])
    }

    #[test]
    fn a_location_names_its_map_and_cell_and_reads_back() {
        let a = atlas();
        let l = a.parse("space:C05").unwrap();
        assert_eq!(l.map, "space");
        assert_eq!(l.at, Hex::parse("C05").unwrap());
        assert_eq!(a.label(&l).unwrap(), "space:C05");
        assert_eq!(crate::yaml::to_string(&l), "map: space\nat: C05\n");
    }

    #[test]
    fn bad_locations_say_what_is_accepted() {
        let a = atlas();
        assert!(a.parse("C05").unwrap_err().contains("like space:C05"));
        assert!(
            a.parse("moon:C05")
                .unwrap_err()
                .contains("maps: ground, space")
        );
        let off = a.parse("space:M01").unwrap_err();
        assert!(off.starts_with("space: hex M01 is off the map"), "{off}");
        assert!(a.parse("ground:M01").is_ok(), "the ground map is wider");
    }

    #[test]
    fn distance_is_per_map_and_undefined_across_maps() {
        let a = atlas();
        let s1 = a.parse("space:C05").unwrap();
        let s2 = a.parse("space:C07").unwrap();
        let g = a.parse("ground:C07").unwrap();
        assert_eq!(a.distance(&s1, &s2), Some(2));
        assert_eq!(a.distance(&s1, &g), None);
    }

    #[test]
    fn neighbours_stay_on_their_map() {
        let a = atlas();
        let l = a.parse("ground:A01").unwrap();
        let n = a.neighbours(&l);
        assert!(!n.is_empty());
        assert!(n.iter().all(|x| x.map == "ground" && a.contains(x)));
        let nowhere = Location {
            map: "moon".to_string(),
            at: l.at,
        };
        assert!(a.neighbours(&nowhere).is_empty());
    }

    #[test]
    fn an_atlas_is_a_yaml_map_of_grids_in_id_order() {
        let text = crate::yaml::to_string(&atlas());
        assert!(text.starts_with("ground:\n"), "{text}");
        let back: Atlas<HexGrid> = crate::yaml::parse(&text, "maps").unwrap();
        assert_eq!(back, atlas());
    }

    #[test]
    fn hex_grids_implement_the_grid_trait_with_their_own_rules() {
        fn far<G: Grid>(g: &G, a: &str, b: &str) -> u32 {
            g.distance(g.cell(a).unwrap(), g.cell(b).unwrap())
        }
        let g = hexes(10, 10);
        assert_eq!(far(&g, "A01", "A05"), 4);
        let c = g.cell("E05").unwrap();
        assert_eq!(Grid::neighbours(&g, c).len(), 6);
        assert_eq!(Grid::label(&g, c), "E05");
    }
}
