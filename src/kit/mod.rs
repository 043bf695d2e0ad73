//! Board vocabulary shared by every system: hex grids with labelled hexes, cups, decks.

pub mod cup;
pub mod hex;
pub mod shared;
