//! The units of a state, kept with an index of the map by hex.
//!
//! The rules ask "who is in this hex" for every hex of every path and combat; a scan of every
//! unit per question made that the largest cost of a resolve. The index is kept inside the
//! map of units and never stored: every change of a unit goes through [`Units::get_mut`] (a
//! guard that re-files the unit when it is dropped), [`Units::insert`] or [`Units::remove`],
//! and reading a state builds it from the units. The state file holds the units only, written
//! and read exactly as the plain map was.

use super::state::{Place, Unit};
use crate::kit::hex::Hex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::ops::{Deref, DerefMut};

#[derive(Debug, Clone, Default)]
pub struct Units {
    all: BTreeMap<String, Unit>,
    /// The ids of the units on the map, by hex, each list in id order (as a scan of `all`
    /// gives them); a hex with no unit has no entry, so the keys are the occupied hexes.
    by_hex: BTreeMap<Hex, Vec<String>>,
}

/// Where the index files a unit: its hex when it is on the map.
fn filed_at(u: &Unit) -> Option<Hex> {
    match u.place {
        Place::Map => u.hex,
        _ => None,
    }
}

impl Units {
    /// The ids of the units on the map in `hex`, in id order.
    pub fn in_hex(&self, hex: Hex) -> &[String] {
        let ids = self.by_hex.get(&hex).map_or(&[][..], Vec::as_slice);
        #[cfg(debug_assertions)]
        self.check_hex(hex, ids);
        ids
    }

    /// The hexes holding at least one unit, in hex order.
    pub fn occupied(&self) -> impl Iterator<Item = Hex> + '_ {
        #[cfg(debug_assertions)]
        self.check_all();
        self.by_hex.keys().copied()
    }

    /// The units on the map, by hex (hex order, ids in id order within a hex).
    pub fn by_hex(&self) -> impl Iterator<Item = (Hex, &[String])> + '_ {
        #[cfg(debug_assertions)]
        self.check_all();
        self.by_hex.iter().map(|(h, ids)| (*h, ids.as_slice()))
    }

    /// A unit to change; the index follows the change when the guard is dropped.
    pub fn get_mut<'a>(&'a mut self, id: &'a str) -> Option<UnitMut<'a>> {
        let unit = self.all.get_mut(id)?;
        let was = filed_at(unit);
        Some(UnitMut {
            unit,
            by_hex: &mut self.by_hex,
            id,
            was,
        })
    }

    /// Every unit, to change as one (the index is rebuilt after `f`).
    pub fn update_all(&mut self, f: impl FnMut(&mut Unit)) {
        self.all.values_mut().for_each(f);
        self.by_hex = index(&self.all);
    }

    pub fn insert(&mut self, id: String, unit: Unit) -> Option<Unit> {
        let now = filed_at(&unit);
        let old = self.all.insert(id.clone(), unit);
        if let Some(h) = old.as_ref().and_then(filed_at) {
            unfile(&mut self.by_hex, &id, h);
        }
        if let Some(h) = now {
            file(&mut self.by_hex, id, h);
        }
        old
    }

    pub fn remove(&mut self, id: &str) -> Option<Unit> {
        let old = self.all.remove(id)?;
        if let Some(h) = filed_at(&old) {
            unfile(&mut self.by_hex, id, h);
        }
        Some(old)
    }

    pub fn clear(&mut self) {
        self.all.clear();
        self.by_hex.clear();
    }

    /// Whether the index is what a scan of every unit gives (the invariants check it after
    /// every simulated step, so random play tests it in release builds too).
    pub fn index_is_fresh(&self) -> bool {
        index(&self.all) == self.by_hex
    }

    /// Debug builds: the index's list for `hex` is what a scan of every unit gives.
    #[cfg(debug_assertions)]
    fn check_hex(&self, hex: Hex, ids: &[String]) {
        let scan: Vec<&String> = self
            .all
            .iter()
            .filter(|(_, u)| filed_at(u) == Some(hex))
            .map(|(id, _)| id)
            .collect();
        assert!(
            scan.iter().copied().eq(ids.iter()),
            "kummen unit index out of date in {hex}: {ids:?}, a scan finds {scan:?}"
        );
    }

    /// Debug builds: the whole index is what a scan of every unit gives.
    #[cfg(debug_assertions)]
    fn check_all(&self) {
        assert!(self.index_is_fresh(), "kummen unit index out of date");
    }
}

/// The index of `all` from scratch; `all` is walked in id order, so each list is in id order.
fn index(all: &BTreeMap<String, Unit>) -> BTreeMap<Hex, Vec<String>> {
    let mut by_hex: BTreeMap<Hex, Vec<String>> = BTreeMap::new();
    for (id, u) in all {
        if let Some(h) = filed_at(u) {
            by_hex.entry(h).or_default().push(id.clone());
        }
    }
    by_hex
}

fn file(by_hex: &mut BTreeMap<Hex, Vec<String>>, id: String, hex: Hex) {
    let ids = by_hex.entry(hex).or_default();
    if let Err(at) = ids.binary_search(&id) {
        ids.insert(at, id);
    }
}

fn unfile(by_hex: &mut BTreeMap<Hex, Vec<String>>, id: &str, hex: Hex) {
    if let Some(ids) = by_hex.get_mut(&hex) {
        if let Ok(at) = ids.binary_search_by(|x| x.as_str().cmp(id)) {
            ids.remove(at);
        }
        if ids.is_empty() {
            by_hex.remove(&hex);
        }
    }
}

/// Reading is the plain map's (`get`, `iter`, `keys`, `contains_key`...): only changes need
/// the index, and they have their own methods above.
impl Deref for Units {
    type Target = BTreeMap<String, Unit>;
    fn deref(&self) -> &Self::Target {
        &self.all
    }
}

impl<'a> IntoIterator for &'a Units {
    type Item = (&'a String, &'a Unit);
    type IntoIter = std::collections::btree_map::Iter<'a, String, Unit>;
    fn into_iter(self) -> Self::IntoIter {
        self.all.iter()
    }
}

impl From<BTreeMap<String, Unit>> for Units {
    fn from(all: BTreeMap<String, Unit>) -> Units {
        let by_hex = index(&all);
        Units { all, by_hex }
    }
}

/// The index is a function of the units: two maps of the same units are equal.
impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        self.all == other.all
    }
}

impl Eq for Units {}

impl Serialize for Units {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.all.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        BTreeMap::deserialize(d).map(Units::from)
    }
}

/// A unit being changed: dropping it files the unit again if its hex on the map changed.
pub struct UnitMut<'a> {
    unit: &'a mut Unit,
    by_hex: &'a mut BTreeMap<Hex, Vec<String>>,
    id: &'a str,
    was: Option<Hex>,
}

impl Deref for UnitMut<'_> {
    type Target = Unit;
    fn deref(&self) -> &Unit {
        self.unit
    }
}

impl DerefMut for UnitMut<'_> {
    fn deref_mut(&mut self) -> &mut Unit {
        self.unit
    }
}

impl Drop for UnitMut<'_> {
    fn drop(&mut self) {
        let now = filed_at(self.unit);
        if now != self.was {
            if let Some(h) = self.was {
                unfile(self.by_hex, self.id, h);
            }
            if let Some(h) = now {
                file(self.by_hex, self.id.to_string(), h);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(place: Place, hex: Option<&str>) -> Unit {
        Unit {
            place,
            hex: hex.map(|h| Hex::parse(h).unwrap()),
            face_up: true,
            token: None,
            moved: false,
        }
    }

    fn h(s: &str) -> Hex {
        Hex::parse(s).unwrap()
    }

    #[test]
    fn the_index_follows_every_kind_of_change() {
        let mut u = Units::default();
        u.insert("b".into(), unit(Place::Map, Some("C03")));
        u.insert("a".into(), unit(Place::Map, Some("C03")));
        u.insert("c".into(), unit(Place::Cup, None));
        assert_eq!(u.in_hex(h("C03")), ["a", "b"]);
        u.get_mut("a").unwrap().hex = Some(h("D04"));
        assert_eq!(u.in_hex(h("C03")), ["b"]);
        assert_eq!(u.in_hex(h("D04")), ["a"]);
        u.get_mut("b").unwrap().place = Place::Stock;
        assert!(u.in_hex(h("C03")).is_empty());
        assert_eq!(u.occupied().collect::<Vec<_>>(), [h("D04")]);
        {
            let mut c = u.get_mut("c").unwrap();
            c.place = Place::Map;
            c.hex = Some(h("D04"));
        }
        assert_eq!(u.in_hex(h("D04")), ["a", "c"]);
        u.insert("a".into(), unit(Place::Removed, None));
        assert_eq!(u.in_hex(h("D04")), ["c"]);
        u.remove("c");
        assert_eq!(u.occupied().count(), 0);
        u.update_all(|x| {
            x.place = Place::Map;
            x.hex = Some(h("A01"));
        });
        assert_eq!(u.in_hex(h("A01")), ["a", "b"]);
    }

    #[test]
    fn a_state_file_reads_and_writes_as_the_plain_map() {
        let mut plain = BTreeMap::new();
        plain.insert("x".to_string(), unit(Place::Map, Some("B02")));
        plain.insert("y".to_string(), unit(Place::Stock, None));
        let text = crate::yaml::to_string(&plain);
        let units: Units = crate::yaml::parse(&text, "units").unwrap();
        assert_eq!(crate::yaml::to_string(&units), text);
        assert_eq!(units.in_hex(h("B02")), ["x"]);
    }
}
