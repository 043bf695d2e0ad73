//! The protocol: everything that makes the host accountable, and nothing about any game.

pub mod dice;
pub mod envelope;
pub mod hash;
pub mod journal;
pub mod keys;
