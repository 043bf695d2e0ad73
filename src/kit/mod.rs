//! What every system is built from: seats (typed sides, one value per side), hex grids with
//! labelled hexes, cups, and component data shared by the states of a game.

pub mod board;
pub mod cup;
pub mod deck;
pub mod events;
pub mod hex;
pub mod leak;
pub mod policies;
pub mod seats;
pub mod shared;
