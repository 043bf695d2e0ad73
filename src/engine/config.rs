//! `game.yaml`: the public configuration of a game.

use crate::protocol::keys::PublicKey;
use serde::{Deserialize, Serialize};

/// Format marker of game.yaml.
pub const CONFIG_FORMAT: &str = "game/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    pub pbem: String,
    /// Unique id; every order names it, so an order for one game can never be used in another.
    pub id: String,
    pub system: String,
    pub scenario: String,
    /// Seats in the system's seat order.
    pub seats: Vec<Seat>,
    /// The host's public key: it signs receipts.
    pub host_key: PublicKey,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub side: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub key: PublicKey,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
}

impl GameConfig {
    pub fn seat(&self, side: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.side == side)
    }

    pub fn side_names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.side.clone()).collect()
    }
}
