//! `game.yaml`: the public configuration of a game, and `mail/addresses.yaml`: its email
//! addresses, which are not public.
//!
//! In memory a [`GameConfig`] holds both (each seat's `email`, and `mail` with the host's
//! address and the observers), so mail code reads `config.seat(side).email` and `config.mail`
//! wherever they are stored. On disk they are apart: `game.yaml` is published (`pbem publish`
//! commits it) and holds no email address; `mail/addresses.yaml` is host-only, never published
//! and never archived. Addresses are the host's to keep: a player gave theirs to the host, not to
//! everyone who reads the repository. An older game.yaml that still has addresses is read as
//! before, and the next write (any `process`, host operation or `publish`, through
//! `ops::recover`) moves them into mail/addresses.yaml.

use super::Error;
use super::dir::{self, GameDir};
use crate::protocol::keys::PublicKey;
use serde::{Deserialize, Serialize};

/// Format marker of game.yaml.
pub const CONFIG_FORMAT: &str = "game/1";

/// Format marker of mail/addresses.yaml.
pub const ADDRESSES_FORMAT: &str = "addresses/1";

/// `mail/addresses.yaml`: every email address of a game, host-only.
///
/// A seat's address belongs to a key: the address of a side is that of its newest key (in the
/// journal's key history: genesis, then `replace_key` and `hand_over` records) that has an entry.
/// So a key replacement keeps the player's address, and a hand-over to a new address writes an
/// entry for the new key *before* its journal record: a crash in between leaves an entry for a
/// key the journal never gave the side, which is never used and which recovery removes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Addresses {
    pub pbem: String,
    /// The host's address and the observers (same fields as `mail:` once was in game.yaml).
    #[serde(default, skip_serializing_if = "MailConfig::is_empty")]
    pub mail: MailConfig,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatAddress>,
}

/// One entry of `seats:` in mail/addresses.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatAddress {
    pub side: String,
    /// The public key (OpenSSH form) of the player the address belongs to.
    pub key: String,
    /// Empty: that player has no address (mail for the seat stops).
    #[serde(default)]
    pub email: String,
}

impl Default for Addresses {
    fn default() -> Addresses {
        Addresses {
            pbem: ADDRESSES_FORMAT.into(),
            mail: MailConfig::default(),
            seats: Vec::new(),
        }
    }
}

impl Addresses {
    /// Where the addresses of the game in `dir` are kept.
    pub fn path(dir: &GameDir) -> std::path::PathBuf {
        dir.root.join("mail").join("addresses.yaml")
    }

    /// The game's address file, or None when it has none (no address was ever given, or an
    /// older game whose addresses are still in game.yaml).
    pub fn read(dir: &GameDir) -> Result<Option<Addresses>, Error> {
        let path = Addresses::path(dir);
        if !path.exists() {
            return Ok(None);
        }
        let text = dir::read_text(&path)?;
        let a: Addresses = crate::yaml::parse(&text, &path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))?;
        if a.pbem != ADDRESSES_FORMAT {
            return Err(Error::Fail(format!(
                "{}: pbem: {:?}, expected {ADDRESSES_FORMAT:?}",
                path.display(),
                a.pbem
            )));
        }
        Ok(Some(a))
    }

    /// Writes the file, readable by the host only.
    pub fn write(&self, dir: &GameDir) -> Result<(), Error> {
        dir::write_private(&Addresses::path(dir), crate::yaml::encode(self)?.as_bytes())
    }

    /// The address of the holder of `key` in `side`, when the file has an entry for them.
    pub fn email_for(&self, side: &str, key: &str) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.side == side && s.key == key)
            .map(|s| s.email.as_str())
    }

    /// Sets the address of the holder of `key` in `side`.
    pub fn set(&mut self, side: &str, key: &str, email: &str) {
        match self
            .seats
            .iter_mut()
            .find(|s| s.side == side && s.key == key)
        {
            Some(s) => s.email = email.to_string(),
            None => self.seats.push(SeatAddress {
                side: side.to_string(),
                key: key.to_string(),
                email: email.to_string(),
            }),
        }
    }

    /// The addresses of a game being created (`pbem new`): each seat's, under its genesis key.
    pub fn of_new_game(config: &GameConfig) -> Addresses {
        let mut a = Addresses {
            mail: config.mail.clone(),
            ..Addresses::default()
        };
        for seat in config.seats.iter().filter(|s| !s.email.is_empty()) {
            a.set(&seat.side, &seat.key.openssh(), &seat.email);
        }
        a
    }

    pub fn is_empty(&self) -> bool {
        self.mail.is_empty() && self.seats.is_empty()
    }
}

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
    /// What `process` does with a side whose orders are missing when the deadline (plus grace)
    /// has passed (docs/hosting.md).
    #[serde(default, skip_serializing_if = "MissedOrders::is_default")]
    pub missed_orders: MissedOrders,
}

/// `missed_orders:` in game.yaml.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissedOrders {
    /// The side gets the system's default orders (recorded in the journal as `defaults`).
    #[default]
    Default,
    /// Never process on the deadline: the step waits for every order.
    Wait,
    /// At the deadline, wait for the host to decide (`pbem process --force-defaults`).
    Host,
    /// The side's orders are written by the host's default bot from its view (recorded in the
    /// journal as a bot order entry; docs/dice.md, "Bot orders").
    Bot,
}

impl MissedOrders {
    pub fn is_default(&self) -> bool {
        *self == MissedOrders::Default
    }
    pub fn name(&self) -> &'static str {
        match self {
            MissedOrders::Default => "default",
            MissedOrders::Wait => "wait",
            MissedOrders::Host => "host",
            MissedOrders::Bot => "bot",
        }
    }
}

/// `mail:` of mail/addresses.yaml (older games: of game.yaml). No credentials here (those
/// belong to the transport configuration of `pbem send`).
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
/// a day is 24 hours. Every computed deadline is stored and compared in UTC.
///
/// A step's deadline is either `step` after it opened, or (with `at`) the first time the
/// clocks of zone `tz` show `at` once `step` (default 0) has passed since it opened, e.g.
/// `{step: 48h, at: "20:00", tz: Europe/Oslo}`: "20:00 Oslo time, at least two days after".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeadlineConfig {
    /// How long each step stays open, from the moment it opens (the minimum, with `at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Duration>,
    /// A time of day (`20:00`, `23:59:59`) the deadline falls on, in zone `tz`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<TimeOfDay>,
    /// The IANA time zone of `at` (default UTC), e.g. `Europe/Oslo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tz: Option<Zone>,
    /// Orders are still taken this long after the deadline before `process` uses the
    /// missed-order policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace: Option<Duration>,
    /// Players whose orders are missing get one reminder this long before the deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_before: Option<Duration>,
}

impl DeadlineConfig {
    /// The deadline of a new game from the parts `pbem new` was given: none without a step
    /// length or a time of day, and then neither grace nor a reminder, which are counted from a
    /// deadline.
    pub fn from_parts(
        step: Option<Duration>,
        at: Option<TimeOfDay>,
        tz: Option<Zone>,
        grace: Option<Duration>,
        remind_before: Option<Duration>,
    ) -> Result<Option<DeadlineConfig>, String> {
        if step.is_some() || at.is_some() {
            return Ok(Some(DeadlineConfig {
                step,
                at,
                tz,
                grace,
                remind_before,
            }));
        }
        if grace.is_some() || remind_before.is_some() {
            return Err(
                "--grace and --remind-before need a deadline: give --step-duration \
                 and/or --deadline-at"
                    .into(),
            );
        }
        Ok(None)
    }

    /// Checks that the section says when a deadline falls.
    pub fn check(&self) -> Result<(), String> {
        if self.step.is_none() && self.at.is_none() {
            return Err("deadline: give step (a length of time) and/or at (a time of day)".into());
        }
        if self.tz.is_some() && self.at.is_none() {
            return Err("deadline.tz: only used with deadline.at".into());
        }
        Ok(())
    }

    /// The deadline of a step that opened at `opened`, in UTC.
    pub fn deadline(&self, opened: jiff::Timestamp) -> Option<jiff::Timestamp> {
        if self.check().is_err() {
            return None;
        }
        let min = match self.step {
            Some(d) => opened.checked_add(d.0).ok()?,
            None => opened,
        };
        let Some(at) = self.at else {
            return Some(min);
        };
        let tz = self
            .tz
            .as_ref()
            .map(|z| z.0.clone())
            .unwrap_or(jiff::tz::TimeZone::UTC);
        let local = min.to_zoned(tz.clone());
        let mut day = local.date();
        for _ in 0..3 {
            let candidate = day.to_datetime(at.0).to_zoned(tz.clone()).ok()?;
            if candidate.timestamp() >= min {
                return Some(candidate.timestamp());
            }
            day = day.tomorrow().ok()?;
        }
        None
    }

    pub fn grace(&self) -> jiff::SignedDuration {
        self.grace
            .map(|g| g.0)
            .unwrap_or(jiff::SignedDuration::ZERO)
    }
}

/// A time of day, written `HH:MM` or `HH:MM:SS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeOfDay(pub jiff::civil::Time);

impl std::str::FromStr for TimeOfDay {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeOfDay, String> {
        s.trim()
            .parse::<jiff::civil::Time>()
            .map(TimeOfDay)
            .map_err(|_| format!("{s:?} is not a time of day; write e.g. 20:00 or 23:59:59"))
    }
}

impl std::fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.strftime("%H:%M:%S"))
    }
}

/// An IANA time zone (`Europe/Oslo`, `America/New_York`, `UTC`), checked against the time
/// zone database when game.yaml is read.
#[derive(Debug, Clone, PartialEq)]
pub struct Zone(pub jiff::tz::TimeZone);

impl Eq for Zone {}

impl Zone {
    pub fn name(&self) -> &str {
        self.0.iana_name().unwrap_or("UTC")
    }
}

impl std::str::FromStr for Zone {
    type Err = String;
    fn from_str(s: &str) -> Result<Zone, String> {
        let tz = jiff::tz::TimeZone::get(s.trim()).map_err(|e| {
            format!("{s:?} is not a time zone name (IANA, e.g. Europe/Oslo or UTC): {e}")
        })?;
        if tz.iana_name().is_none() {
            return Err(format!(
                "{s:?}: give the zone by its IANA name, e.g. Europe/Oslo"
            ));
        }
        Ok(Zone(tz))
    }
}

macro_rules! text_serde {
    ($t:ty, $show:expr) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let show: fn(&$t) -> String = $show;
                s.serialize_str(&show(self))
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let text = String::deserialize(d)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

text_serde!(TimeOfDay, |t| t.to_string());
text_serde!(Zone, |z| z.name().to_string());

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
    /// The player's key; for a bot seat, the host key (which signs the bot's orders).
    pub key: PublicKey,
    /// The seat is played by the host's bot of this name (`pbem new --seat SIDE=bot`): its
    /// orders are written at process time from its view, and nobody may submit orders for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// In memory: the seat's address from mail/addresses.yaml (see the module doc). Never
    /// written to game.yaml; read from an older game.yaml that still has it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// The player's time zone (IANA name): deadlines in this side's views and mail are also
    /// shown in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tz: Option<Zone>,
}

impl GameConfig {
    /// game.yaml as it is written: everything but the email addresses, which go to
    /// mail/addresses.yaml ([`Addresses`]).
    pub fn public(&self) -> GameConfig {
        let mut c = self.clone();
        c.mail = MailConfig::default();
        for seat in &mut c.seats {
            seat.email.clear();
        }
        c
    }

    /// Does this (on-disk) game.yaml still hold an email address (an older game, or a host's
    /// edit) that the next write must move to mail/addresses.yaml?
    pub fn holds_addresses(&self) -> bool {
        !self.mail.is_empty() || self.seats.iter().any(|s| !s.email.is_empty())
    }

    pub fn seat(&self, side: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.side == side)
    }

    /// The seat of `side`, or an error naming the sides there are.
    pub fn require_seat(&self, side: &str) -> Result<&Seat, Error> {
        self.seat(side).ok_or_else(|| {
            Error::Fail(format!(
                "no side {side:?}; sides: {}",
                self.side_names().join(", ")
            ))
        })
    }

    pub fn side_names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.side.clone()).collect()
    }

    /// The bot that plays `side`, if its seat is a bot seat.
    pub fn bot_of(&self, side: &str) -> Option<&str> {
        self.seat(side).and_then(|s| s.bot.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::keys::SecretKey;

    fn hours(h: &str) -> Option<Duration> {
        Some(h.parse().unwrap())
    }

    #[test]
    fn a_new_game_given_no_step_length_or_time_of_day_has_no_deadline() {
        assert_eq!(
            DeadlineConfig::from_parts(None, None, None, None, None),
            Ok(None)
        );
    }

    #[test]
    fn a_new_game_given_a_step_length_has_a_deadline_with_its_grace_and_reminder() {
        let d = DeadlineConfig::from_parts(hours("72h"), None, None, hours("2h"), hours("24h"))
            .unwrap()
            .unwrap();
        assert_eq!(d.step, hours("72h"));
        assert_eq!(d.grace, hours("2h"));
        assert_eq!(d.remind_before, hours("24h"));
    }

    #[test]
    fn grace_or_a_reminder_without_a_deadline_is_refused_saying_what_to_add() {
        for (grace, remind) in [(hours("2h"), None), (None, hours("24h"))] {
            let msg = DeadlineConfig::from_parts(None, None, None, grace, remind).unwrap_err();
            assert_eq!(
                msg,
                "--grace and --remind-before need a deadline: give --step-duration and/or \
                 --deadline-at"
            );
        }
    }

    #[test]
    fn an_unknown_side_is_refused_naming_the_sides_of_the_game() {
        let key = SecretKey::generate("").unwrap().public();
        let seat = |side: &str| Seat {
            side: side.into(),
            name: String::new(),
            key: key.clone(),
            bot: None,
            email: String::new(),
            tz: None,
        };
        let config = GameConfig {
            pbem: CONFIG_FORMAT.into(),
            id: "g".into(),
            system: "kummen".into(),
            scenario: "s".into(),
            seats: vec![seat("mercenary"), seat("beeler")],
            host_key: key.clone(),
            mail: MailConfig::default(),
            deadline: None,
            missed_orders: MissedOrders::Default,
        };
        assert_eq!(config.require_seat("beeler").unwrap().side, "beeler");
        assert_eq!(
            config.require_seat("fed").unwrap_err().to_string(),
            "no side \"fed\"; sides: mercenary, beeler"
        );
    }
}
