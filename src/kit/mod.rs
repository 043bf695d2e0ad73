//! What every system is built from: seats (typed sides, one value per side), hex grids with
//! labelled hexes, cups, and component data shared by the states of a game.

pub mod board;
pub mod bot;
pub mod cup;
pub mod deck;
pub mod events;
pub mod hex;
pub mod leak;
pub mod picture;
pub mod policies;
pub mod reach;
pub mod seats;
pub mod shared;

/// `Display`, `Serialize` and `Deserialize` of a cell type by its label (`Hex`, `Square`): it
/// is written as the label a player types and read back with the type's `parse`, so a file
/// and an order name a cell the same way.
macro_rules! written_as_label {
    ($t:ident) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.label())
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.label())
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = String::deserialize(d)?;
                $t::parse(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use written_as_label;
