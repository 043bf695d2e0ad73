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
    /// Play by email: the host's address and the observers (docs/mail.md).
    #[serde(default, skip_serializing_if = "MailConfig::is_empty")]
    pub mail: MailConfig,
    /// How long a step stays open and when to remind players whose orders are missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<DeadlineConfig>,
}

/// `mail:` in game.yaml. Public, like the rest of game.yaml: no credentials here (those belong
/// to the transport configuration of `pbem send`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// The host's address: the From of every mail pbem sends, and where players mail orders.
    /// `Name <address>` or a bare address.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from: String,
    /// Addresses that receive the public report after every processed step (and nothing else).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observers: Vec<String>,
}

impl MailConfig {
    pub fn is_empty(&self) -> bool {
        self.from.is_empty() && self.observers.is_empty()
    }
}

/// `deadline:` in game.yaml. Durations are written like `72h`, `3d`, `1h 30m` or `PT72H`;
/// a day is 24 hours (all times are UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeadlineConfig {
    /// How long each step stays open, from the moment it opens.
    pub step: Duration,
    /// Players whose orders are missing get one reminder this long before the deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_before: Option<Duration>,
}

/// A length of time, stored as the text the host wrote and checked when game.yaml is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duration(pub jiff::SignedDuration);

impl std::str::FromStr for Duration {
    type Err = String;
    fn from_str(s: &str) -> Result<Duration, String> {
        let bad = || {
            format!(
                "{s:?} is not a length of time; write e.g. 72h, 3d, 1h 30m or PT72H (a day is 24 hours)"
            )
        };
        let d = match s.trim().parse::<jiff::SignedDuration>() {
            Ok(d) => d,
            Err(_) => s
                .trim()
                .parse::<jiff::Span>()
                .map_err(|_| bad())?
                .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
                .map_err(|_| bad())?,
        };
        if d.is_negative() {
            return Err(format!("{s:?}: a length of time cannot be negative"));
        }
        Ok(Duration(d))
    }
}

impl std::fmt::Display for Duration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl Serialize for Duration {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
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
