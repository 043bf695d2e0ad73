//! Seats: a system's sides as a typed enum, and one value per side.
//!
//! A system names its sides with an enum that implements [`Seat`] (kummen: mercenary and
//! beeler; zeta: titans, aeug and neo_zeon). [`PerSide`] holds one value for every seat of such
//! an enum, whatever their number, and is written as a map keyed by side name in seat order
//! (`vp: {mercenary: 3, beeler: 5}`), the same bytes a two-field struct gave.

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A system's side enum: every side, its name, and the seat order (the order of the step
/// seed, of `pbem status` and of every per-side listing). A system gives two lists in the
/// same order; everything else follows from them.
pub trait Seat: Copy + Eq + Ord + fmt::Debug + Send + Sync + 'static {
    /// Every side, in seat order.
    const ALL: &'static [Self];
    /// The name of each side of [`Seat::ALL`], in files, orders and messages (`mercenary`).
    const NAMES: &'static [&'static str];
    /// Refuses, when the program is compiled, lists of different lengths.
    const PAIRED: () = assert!(
        Self::ALL.len() == Self::NAMES.len(),
        "Seat::ALL and Seat::NAMES must list the same sides"
    );

    /// The side's name, from [`Seat::NAMES`].
    fn name(self) -> &'static str {
        let () = Self::PAIRED;
        Self::NAMES[self.index()]
    }

    /// The side with this name.
    fn parse(name: &str) -> Option<Self> {
        let () = Self::PAIRED;
        let i = Self::NAMES.iter().position(|n| *n == name)?;
        Some(Self::ALL[i])
    }

    /// The side's place in seat order, from 0.
    fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|s| *s == self)
            .expect("Seat::ALL lists every side of the enum (a defect in the system otherwise)")
    }

    /// Every other side, in seat order.
    fn others(self) -> impl Iterator<Item = Self> {
        Self::ALL.iter().copied().filter(move |s| *s != self)
    }

    /// The side after this one in seat order, the first after the last: who goes next when
    /// the seats take turns.
    fn next(self) -> Self {
        Self::ALL[(self.index() + 1) % Self::ALL.len()]
    }

    /// The side names in seat order, for messages: `mercenary or beeler`, `titans, aeug or
    /// neo_zeon`.
    fn listing() -> String {
        match Self::NAMES.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// A system of exactly two seats, where every side has one opponent.
pub trait TwoSeats: Seat {
    /// Refuses, when the program is compiled, a system of another number of seats that asks
    /// for [`TwoSeats::other`].
    const TWO: () = assert!(Self::ALL.len() == 2, "TwoSeats needs exactly two seats");

    /// The opponent.
    fn other(self) -> Self {
        let () = Self::TWO;
        Self::ALL[1 - self.index()]
    }
}

/// One value for every side of `S`, in seat order.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PerSide<S, T> {
    /// `values[i]` belongs to `S::ALL[i]`; always one per seat.
    values: Vec<T>,
    seat: PhantomData<fn() -> S>,
}

impl<S: Seat, T> PerSide<S, T> {
    /// The value `f` gives each side, asked in seat order.
    pub fn from_fn(f: impl FnMut(S) -> T) -> PerSide<S, T> {
        PerSide {
            values: S::ALL.iter().copied().map(f).collect(),
            seat: PhantomData,
        }
    }

    pub fn get(&self, side: S) -> &T {
        &self.values[side.index()]
    }

    pub fn get_mut(&mut self, side: S) -> &mut T {
        &mut self.values[side.index()]
    }

    /// Every side with its value, in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (S, &T)> {
        S::ALL.iter().copied().zip(&self.values)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (S, &mut T)> {
        S::ALL.iter().copied().zip(&mut self.values)
    }

    /// The values of every side but `side`, in seat order.
    pub fn others(&self, side: S) -> impl Iterator<Item = (S, &T)> {
        self.iter().filter(move |(s, _)| *s != side)
    }

    /// A value per side made from this one's.
    pub fn map<U>(&self, mut f: impl FnMut(S, &T) -> U) -> PerSide<S, U> {
        PerSide {
            values: self.iter().map(|(s, v)| f(s, v)).collect(),
            seat: PhantomData,
        }
    }
}

impl<S: Seat, T> IntoIterator for PerSide<S, T> {
    type Item = (S, T);
    type IntoIter =
        std::iter::Zip<std::iter::Copied<std::slice::Iter<'static, S>>, std::vec::IntoIter<T>>;
    fn into_iter(self) -> Self::IntoIter {
        S::ALL.iter().copied().zip(self.values)
    }
}

impl<S: Seat, T: Default> Default for PerSide<S, T> {
    fn default() -> Self {
        PerSide::from_fn(|_| T::default())
    }
}

impl<S: Seat, T> Index<S> for PerSide<S, T> {
    type Output = T;
    fn index(&self, side: S) -> &T {
        self.get(side)
    }
}

impl<S: Seat, T> IndexMut<S> for PerSide<S, T> {
    fn index_mut(&mut self, side: S) -> &mut T {
        self.get_mut(side)
    }
}

impl<S: Seat, T: fmt::Debug> fmt::Debug for PerSide<S, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(s, v)| (s.name(), v)))
            .finish()
    }
}

impl<S: Seat, T: Serialize> Serialize for PerSide<S, T> {
    fn serialize<Z: Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
        let mut map = z.serialize_map(Some(self.values.len()))?;
        for (side, value) in self.iter() {
            map.serialize_entry(side.name(), value)?;
        }
        map.end()
    }
}

/// Every side exactly once, by name; the errors are those of a struct with one field per side
/// (`unknown field`, `missing field`, `duplicate field`), so a file reads the same as before.
impl<'de, S: Seat, T: Deserialize<'de>> Deserialize<'de> for PerSide<S, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Sides<S, T>(PhantomData<fn() -> (S, T)>);

        impl<'de, S: Seat, T: Deserialize<'de>> Visitor<'de> for Sides<S, T> {
            type Value = PerSide<S, T>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a map with one entry for each of {}", S::listing())
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut values: Vec<Option<T>> = S::ALL.iter().map(|_| None).collect();
                while let Some(key) = map.next_key::<String>()? {
                    let Some(side) = S::parse(&key) else {
                        return Err(de::Error::unknown_field(&key, S::NAMES));
                    };
                    let slot = &mut values[side.index()];
                    if slot.is_some() {
                        return Err(de::Error::duplicate_field(side.name()));
                    }
                    *slot = Some(map.next_value()?);
                }
                let mut out = Vec::with_capacity(values.len());
                for (side, value) in S::ALL.iter().zip(values) {
                    out.push(value.ok_or_else(|| de::Error::missing_field(side.name()))?);
                }
                Ok(PerSide {
                    values: out,
                    seat: PhantomData,
                })
            }
        }

        d.deserialize_map(Sides(PhantomData))
    }
}

/// Checks, for a system's tests, that its side enum is written in files by the names of
/// [`Seat::NAMES`] (its serde names are declared apart from them).
#[cfg(test)]
pub fn check_serde_names<S: Seat + Serialize + serde::de::DeserializeOwned>() {
    for (side, name) in S::ALL.iter().zip(S::NAMES) {
        assert_eq!(crate::yaml::to_string(side).trim(), *name);
        assert_eq!(crate::yaml::parse::<S>(name, "side").ok(), Some(*side));
    }
}

/// Side enums for the kit's tests: a zeta-like game of three seats and a duel.
#[cfg(test)]
pub(crate) mod examples {
    use super::{Seat, TwoSeats};

    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Faction {
        Titans,
        Aeug,
        NeoZeon,
    }

    impl Seat for Faction {
        const ALL: &'static [Faction] = &[Faction::Titans, Faction::Aeug, Faction::NeoZeon];
        const NAMES: &'static [&'static str] = &["titans", "aeug", "neo_zeon"];
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Duel {
        Red,
        Blue,
    }

    impl Seat for Duel {
        const ALL: &'static [Duel] = &[Duel::Red, Duel::Blue];
        const NAMES: &'static [&'static str] = &["red", "blue"];
    }

    impl TwoSeats for Duel {}
}

#[cfg(test)]
mod tests {
    use super::examples::{Duel, Faction};
    use super::*;
    use crate::yaml;

    #[test]
    fn a_side_is_found_by_its_name_and_nothing_else() {
        for side in Faction::ALL {
            assert_eq!(Faction::parse(side.name()), Some(*side));
        }
        assert_eq!(Faction::parse("Titans"), None);
        assert_eq!(Faction::parse(""), None);
    }

    #[test]
    fn the_other_sides_of_three_seats_are_the_two_others_in_seat_order() {
        let others: Vec<Faction> = Faction::Aeug.others().collect();
        assert_eq!(others, [Faction::Titans, Faction::NeoZeon]);
        let values = PerSide::from_fn(|s: Faction| s.index() * 10);
        let rest: Vec<(Faction, usize)> = values
            .others(Faction::Titans)
            .map(|(s, v)| (s, *v))
            .collect();
        assert_eq!(rest, [(Faction::Aeug, 10), (Faction::NeoZeon, 20)]);
    }

    #[test]
    fn the_next_seat_follows_seat_order_and_wraps_around() {
        assert_eq!(Faction::Titans.next(), Faction::Aeug);
        assert_eq!(Faction::NeoZeon.next(), Faction::Titans);
    }

    #[test]
    fn each_of_two_seats_has_the_other_as_opponent() {
        assert_eq!(Duel::Red.other(), Duel::Blue);
        assert_eq!(Duel::Blue.other(), Duel::Red);
    }

    #[test]
    fn listing_names_the_sides_in_seat_order() {
        assert_eq!(Faction::listing(), "titans, aeug or neo_zeon");
        assert_eq!(Duel::listing(), "red or blue");
    }

    #[test]
    fn values_are_reached_by_side_and_listed_in_seat_order() {
        let mut vp: PerSide<Faction, i64> = PerSide::default();
        vp[Faction::NeoZeon] += 3;
        *vp.get_mut(Faction::Titans) = 1;
        assert_eq!(*vp.get(Faction::NeoZeon), 3);
        let listed: Vec<(Faction, i64)> = vp.iter().map(|(s, v)| (s, *v)).collect();
        assert_eq!(
            listed,
            [
                (Faction::Titans, 1),
                (Faction::Aeug, 0),
                (Faction::NeoZeon, 3)
            ]
        );
        let doubled = vp.map(|_, v| v * 2);
        assert_eq!(doubled[Faction::NeoZeon], 6);
        assert_eq!(
            vp.into_iter().map(|(s, _)| s).collect::<Vec<_>>(),
            Faction::ALL
        );
    }

    #[test]
    fn yaml_is_a_map_keyed_by_side_name_in_seat_order() {
        let vp = PerSide::from_fn(|s: Faction| s.index() as i64 + 1);
        assert_eq!(yaml::to_string(&vp), "titans: 1\naeug: 2\nneo_zeon: 3\n");
        let back: PerSide<Faction, i64> =
            yaml::parse("neo_zeon: 3\ntitans: 1\naeug: 2\n", "t").unwrap();
        assert_eq!(back, vp);
    }

    #[test]
    fn yaml_without_a_side_is_refused_naming_it() {
        let e = yaml::parse::<PerSide<Faction, i64>>("titans: 1\nneo_zeon: 3\n", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `aeug`"), "{e}");
    }

    #[test]
    fn yaml_with_an_unknown_side_is_refused_listing_the_sides() {
        let e = yaml::parse::<PerSide<Duel, i64>>("red: 1\nblue: 2\ngreen: 3\n", "t")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `green`"), "{e}");
        assert!(e.contains("red, blue"), "{e}");
    }

    #[test]
    fn json_value_round_trips_through_the_same_map() {
        let cards = PerSide::from_fn(|s: Duel| vec![s.name().to_string()]);
        let v = serde_json::to_value(&cards).unwrap();
        assert_eq!(v, serde_json::json!({"red": ["red"], "blue": ["blue"]}));
        let back: PerSide<Duel, Vec<String>> = serde_json::from_value(v).unwrap();
        assert_eq!(back, cards);
        let e = serde_json::from_value::<PerSide<Duel, i64>>(serde_json::json!({"red": 1}))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `blue`"), "{e}");
    }
}
