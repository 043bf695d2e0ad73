//! Fang of the Sun Dougram, the Deloyer war of independence: two players, `lib` (Liberation
//! Army) and `fed` (Federation Army).
//!
//! STATUS: FOUNDATION, NOT YET PLAYABLE. This module is declared but not registered in
//! [`crate::systems::all`], so no game can be started with it. docs/dougram.md lists what is
//! done and what remains, rule by rule.
//!
//! The rulebook (Japanese) is the authority; comments cite its rule numbers. The map, the
//! counters, the chits and most cards are stand-ins (games/dougram/). Done so far:
//! * [`data`]: loading and validation of the three data files;
//! * [`cards`]: the card-effect vocabulary (cards as data) and its validation;
//! * [`state`]: the full state, with control (3.2, 3.3a) and Lib VP (20.3);
//! * [`setup`]: both setups (28.1, 28.2) with sealed chit draws and deck shuffles;
//! * [`cardphase`]: the card phase (5) and its standing policies;
//! * [`view`]: per-reader views (digest 2.3).

pub mod arming;
pub mod cardphase;
pub mod cards;
pub mod combat;
pub mod control;
pub mod ctx;
pub mod damage;
pub mod data;
pub mod latency;
pub mod movement;
pub mod play;
pub mod policy;
pub mod replenish;
pub mod security;
pub mod setup;
pub mod state;
pub mod victory;
pub mod view;

#[cfg(test)]
mod fixtures;
