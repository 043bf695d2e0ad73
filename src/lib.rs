//! pbem: a turn processor for play-by-email and play-by-git wargames.
//!
//! Layers, from the bottom: [`protocol`] (hashes, keys, signed envelopes, dice, journal records;
//! knows no game), [`kit`] (board vocabulary shared by the systems), [`systems`] (one folder per
//! rule set behind one trait), [`engine`] (game directory, steps, views, audit; knows no rule)
//! and [`cli`].

pub mod cli;
pub mod engine;
#[doc(hidden)]
pub mod fuzzing;
pub mod kit;
pub mod protocol;
pub mod systems;
pub mod yaml;

/// This release of pbem, as recorded in the genesis of the games it creates.
pub const PBEM_VERSION: &str = env!("CARGO_PKG_VERSION");
