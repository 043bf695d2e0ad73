//! Journal records: the public, append-only, hash-chained history of a game.
//!
//! Record `seq` lives in `journal/NNNNNN.yaml`; its hash is SHA-256 of the file's bytes and the
//! next record names it in `prev`. The hash of the newest record is the journal head that views
//! print and orders sign as their basis, so a host showing two players different histories is
//! caught by the players themselves. A record holds no secret.

use super::dice::{Roll, SealedKeyCommit, SealedReveal};
use super::hash::{Hash32, Transcript, sha256};
use serde::{Deserialize, Serialize};

/// Format marker of the records this version of pbem writes.
///
/// `journal/2` (since issue 10): an order entry publishes `dice_entropy`, a one-way hash of the
/// order's secret entropy, instead of the entropy itself, so that the order hash beside it is a
/// hiding commitment; and it carries the order's `version` and the `earlier` versions received.
/// `journal/1` records (entropy in the clear, `replaced` hashes) stay readable and verifiable.
///
/// `journal/3` (issue 11): genesis names the pbem release and the system's rules version that
/// created the game, every step record the rules version that resolved it, and a host `upgrade`
/// operation moves a running game to another rules version. Records of the earlier formats were
/// all resolved by rules version 1 ([`FIRST_RULES`]).
pub const JOURNAL_FORMAT: &str = "journal/3";
/// `journal/4` (issue 12): a seat may be played by the host's bot (`bot` in a genesis seat) and
/// an order entry may be a bot's orders (`bot` in the entry: written by the host from the
/// side's view and the step's bot seed, signed by the host key; docs/dice.md, "Bot orders").
/// A record is written in this format only when it holds one of these fields, so every record
/// without a bot stays `journal/3` and readable by the pbem releases and tools that know it.
pub const JOURNAL_FORMAT_V4: &str = "journal/4";
/// `journal/5` (issue 14): a step record may commit to the stream keys of some of its sealed
/// draws (`key_commits`) and reveal sealed draws of earlier steps with their keys (`reveals`;
/// docs/dice.md, "Sealed reveals"), e.g. a turn's shuffled deck once the turn has drawn it
/// through. Holds everything `journal/4` may hold; written only from the first record that
/// commits or reveals on.
pub const JOURNAL_FORMAT_V5: &str = "journal/5";
/// The second format (order versions, hidden entropy), still read and verified.
pub const JOURNAL_FORMAT_V2: &str = "journal/2";
/// The first format, still read and verified.
pub const JOURNAL_FORMAT_V1: &str = "journal/1";

/// The rules version of every game and step recorded before rules were versioned (journal/1
/// and journal/2), and the pbem release that last resolved them.
pub const FIRST_RULES: u32 = 1;
pub const FIRST_RULES_RELEASE: &str = "0.1.0";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub pbem: String,
    pub game: String,
    pub seq: u64,
    /// Hash of the previous record's file; absent only on the genesis record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<Hash32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genesis: Option<Genesis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<StepRecord>,
    /// The last record of a concluded game: the host's secrets, now public.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conclusion: Option<Conclusion>,
    /// Something the host did between steps (a key replaced, a pause, a rollback…): recorded so
    /// that no host action is silent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_op: Option<HostOp>,
    /// Hash of the public view of the state after this record.
    pub public_state: Hash32,
    /// The step that is open after this record and the host's commitment to its seed; absent
    /// once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<NextStep>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Genesis {
    pub system: String,
    pub scenario: String,
    pub dice: String,
    /// Seats in seat order with their public keys (OpenSSH form).
    pub seats: Vec<SeatKey>,
    pub host_key: String,
    /// Commitment to the host's game key, which seeds sealed draws (revealed at conclusion).
    pub game_key_commit: Hash32,
    /// journal/3: the pbem release that created the game (`pbem --version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pbem_version: Option<String>,
    /// journal/3: the system's rules version the game starts with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<u32>,
    /// SHA-256 of the game's `data.yaml`, the component data every state is read with (map,
    /// counters, cards); absent for games whose states held their data (rules 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Hash32>,
}

/// A host operation. Each one is its own journal record between steps; the open step after it
/// is given in the record's `next` (unchanged, or as the operation says).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum HostOp {
    /// A side's public key is replaced (a lost key); orders from then on verify against `key`.
    ReplaceKey {
        side: String,
        key: String,
        reason: String,
    },
    /// A side is handed to a new player with a new key. The new player's email address is not
    /// here: the journal is public, addresses are the host's (mail/addresses.yaml, keyed by this
    /// `key`). Records written before that carry `email`; it is still read from them.
    HandOver {
        side: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        email: Option<String>,
        key: String,
        reason: String,
    },
    /// Deadlines stop running until a `Resume`. `at`: when (RFC 3339, UTC).
    Pause {
        reason: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        at: String,
    },
    /// Deadlines run again; the open step's deadline moves by the time the game was paused.
    /// `at`: when (RFC 3339, UTC).
    Resume {
        reason: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        at: String,
    },
    /// The open step's deadline moves to `deadline` (RFC 3339, UTC).
    Extend {
        step: u64,
        deadline: String,
        reason: String,
    },
    /// The game returns to the state after record `to_record`. The step that then opens gets a
    /// NEW step number (steps are never reused: an order signed for the old number stays
    /// invalid), with a fresh host commitment in `next`.
    Rollback { to_record: u64, reason: String },
    /// journal/3: the game's rules change from version `from` to `to`, those of pbem release
    /// `pbem_version`; steps from here on are resolved by them (the state is carried over as
    /// the new rules read it).
    Upgrade {
        from: u32,
        to: u32,
        pbem_version: String,
        reason: String,
        /// SHA-256 of the game's `data.yaml` from here on.
        data: Hash32,
    },
}

/// What `pbem conclude` reveals: with these, anyone can check every commitment the host made and
/// replay the sealed draws; `archive` pins the published archive's manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conclusion {
    /// The master seed every host reveal was derived from.
    pub master: Hash32,
    /// The key of the sealed dice streams, committed in the genesis record.
    pub game_key: Hash32,
    /// SHA-256 of `archive/manifest.yaml`.
    pub archive: Hash32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatKey {
    pub side: String,
    pub key: String,
    /// journal/4: the seat is played by the host's bot of this name (`key` is then the host
    /// key, which signs the bot's orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextStep {
    pub step: u64,
    pub title: String,
    pub waiting_for: Vec<String>,
    pub host_commit: Hash32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRecord {
    pub number: u64,
    pub title: String,
    /// journal/3: the rules version that resolved this step (absent before: [`FIRST_RULES`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<u32>,
    /// Every order used, in seat order.
    pub orders: Vec<OrderEntry>,
    pub host_reveal: Hash32,
    pub seed: Hash32,
    pub dice_algorithm: String,
    pub dice: Vec<Roll>,
    /// Keyed hash of the sealed transcript of this step (docs/dice.md, "Sealed draws").
    pub sealed_commit: Hash32,
    pub events: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Sides the step waited for that missed the deadline: each was given the system's default
    /// orders, made by the host and unsigned. Such a side has no entry in `orders`, and its part
    /// of the step seed is the empty value, as for a side that sends nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<String>,
    /// journal/5: commitments to the keys of this step's sealed draws that a later step will
    /// reveal (docs/dice.md, "Sealed reveals").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_commits: Vec<SealedKeyCommit>,
    /// journal/5: sealed draws of earlier steps this step made public, with their stream keys
    /// (docs/dice.md, "Sealed reveals").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveals: Vec<SealedReveal>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderEntry {
    pub side: String,
    /// The order's own version number (`version:` in the document); journal/2 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// SHA-256 of the normalised signed document. From journal/2 on this is a hiding commitment:
    /// the document holds 32 secret random bytes (`entropy`) published only in the archive of a
    /// concluded game, so the hash cannot be matched against guessed orders.
    pub hash: Hash32,
    /// journal/2: `H("pbem-order-entropy-v1"; entropy)`, the order's part of the step seed
    /// ([`dice_entropy`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice_entropy: Option<Hash32>,
    /// journal/1 only: the order's entropy itself (which made the hash guessable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<Hash32>,
    /// journal/2: every earlier version of this side's order for this step that the host
    /// received, oldest first. A player's receipt for a version missing here, or newer than
    /// `version`, proves the host dropped it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<EarlierOrder>,
    /// journal/1 only: hashes of the earlier orders this one replaced, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<Hash32>,
    /// journal/4: these orders were written by the host's bot of this name (a bot seat, or a
    /// side that missed the deadline under `missed_orders: bot`), signed by the host key. Anyone
    /// with the state can recompute them (docs/dice.md, "Bot orders").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// An earlier version of an order, replaced by a newer one before the step was resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EarlierOrder {
    pub version: u64,
    pub hash: Hash32,
}

impl Record {
    /// The format a record with these contents is written in: [`JOURNAL_FORMAT_V5`] when it
    /// reveals a sealed draw, [`JOURNAL_FORMAT_V4`] when it names a bot (the only fields those
    /// formats add), else [`JOURNAL_FORMAT`].
    pub fn format_needed(&self) -> &'static str {
        if self.holds_sealed_keys() {
            JOURNAL_FORMAT_V5
        } else if self.names_bot() {
            JOURNAL_FORMAT_V4
        } else {
            JOURNAL_FORMAT
        }
    }

    /// The record names a bot: a genesis seat played by a bot, or a bot's orders (journal/4).
    pub fn names_bot(&self) -> bool {
        self.genesis
            .as_ref()
            .is_some_and(|g| g.seats.iter().any(|s| s.bot.is_some()))
            || self
                .step
                .as_ref()
                .is_some_and(|s| s.orders.iter().any(|o| o.bot.is_some()))
    }

    /// The record commits to or reveals sealed stream keys (journal/5).
    pub fn holds_sealed_keys(&self) -> bool {
        self.step
            .as_ref()
            .is_some_and(|s| !s.reveals.is_empty() || !s.key_commits.is_empty())
    }
}

impl OrderEntry {
    /// The order's part of the step seed: `dice_entropy` (journal/2) or `entropy` (journal/1).
    pub fn seed_part(&self) -> Option<Hash32> {
        self.dice_entropy.or(self.entropy)
    }

    /// Was an order with this hash received and replaced by this one?
    pub fn replaced_hash(&self, hash: &Hash32) -> Option<Option<u64>> {
        if let Some(e) = self.earlier.iter().find(|e| &e.hash == hash) {
            return Some(Some(e.version));
        }
        self.replaced.contains(hash).then_some(None)
    }
}

/// The public part of an order's entropy: what the step seed mixes in and the journal shows.
/// The entropy itself stays secret until the game is concluded, which keeps the order hash a
/// hiding commitment (docs/dice.md, "Order commitments").
pub fn dice_entropy(entropy: &Hash32) -> Hash32 {
    Transcript::new("pbem-order-entropy-v1")
        .hash(entropy)
        .finish()
}

/// The rules a game runs after `records` (a journal from genesis on), and the pbem release they
/// come from: those of genesis, changed by every `upgrade` host operation since. Games recorded
/// before rules were versioned run [`FIRST_RULES`].
pub fn rules_after<'a>(records: impl IntoIterator<Item = &'a Record>) -> (u32, String) {
    rules_after_each(records)
        .pop()
        .unwrap_or_else(|| (FIRST_RULES, FIRST_RULES_RELEASE.to_string()))
}

/// [`rules_after`] each record of a journal, in one pass.
pub fn rules_after_each<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<(u32, String)> {
    let mut rules = (FIRST_RULES, FIRST_RULES_RELEASE.to_string());
    let mut out = Vec::new();
    for rec in records {
        if let Some(g) = &rec.genesis {
            rules = (
                g.rules.unwrap_or(FIRST_RULES),
                g.pbem_version
                    .clone()
                    .unwrap_or_else(|| FIRST_RULES_RELEASE.to_string()),
            );
        }
        if let Some(HostOp::Upgrade {
            to, pbem_version, ..
        }) = &rec.host_op
        {
            rules = (*to, pbem_version.clone());
        }
        out.push(rules.clone());
    }
    out
}

/// The hash `data.yaml` must have after `records`: genesis's, replaced by every upgrade's.
pub fn data_after<'a>(records: impl IntoIterator<Item = &'a Record>) -> Option<Hash32> {
    data_pins(records).last().map(|&(_, data)| data)
}

/// Every pin of component data among `records`, in order: the record's `seq` and the SHA-256 it
/// pins (genesis.data, an upgrade's host_op.data). A rules-1 genesis pins nothing, and an
/// upgrade from it pins the data it creates.
pub fn data_pins<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<(u64, Hash32)> {
    let mut pins = Vec::new();
    for rec in records {
        if let Some(data) = rec.genesis.as_ref().and_then(|g| g.data) {
            pins.push((rec.seq, data));
        }
        if let Some(HostOp::Upgrade { data, .. }) = &rec.host_op {
            pins.push((rec.seq, *data));
        }
    }
    pins
}

impl StepRecord {
    /// The rules version that resolved this step.
    pub fn rules_version(&self) -> u32 {
        self.rules.unwrap_or(FIRST_RULES)
    }
}

/// The seed the host reveals for step `n`, derived from its secret master seed so that a crashed
/// run recomputes the same value.
pub fn host_seed(master: &Hash32, step: u64) -> Hash32 {
    Transcript::new("pbem-host-seed-v1")
        .hash(master)
        .u64(step)
        .finish()
}

/// Binding, hiding commitment to the sealed transcript of a step: keyed by the secret game key.
pub fn sealed_commit(game_key: &Hash32, step: u64, sealed_yaml: &str) -> Hash32 {
    Transcript::new("pbem-sealed-v1")
        .hash(game_key)
        .u64(step)
        .str(sealed_yaml)
        .finish()
}

/// The hash a record is known by (and the journal head, for the newest one).
pub fn record_hash(file_bytes: &[u8]) -> Hash32 {
    sha256(file_bytes)
}

/// File name of record `seq` inside `journal/`.
pub fn file_name(seq: u64) -> String {
    format!("{seq:06}.yaml")
}
