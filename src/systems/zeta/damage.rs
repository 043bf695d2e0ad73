//! Damage (25-26): hits become quanta of loss, chosen by the scorer's allocation
//! policy. Stub until zeta commit 9: the types and the signature of [`allocate`] are fixed.

use super::data::{BaseId, UnitId};
use super::policy::Allocate;
use serde::{Deserialize, Serialize};

/// One legal unit of loss.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantum {
    /// A front-face unit flips (its defense in hits, 25.4).
    Flip(UnitId),
    /// A flipped unit is removed (its back defense).
    Kill(UnitId),
    /// A front-face unit is removed at once (front + back defense).
    KillFresh(UnitId),
    /// A military base loses `levels` levels (the sum of those levels' defenses, 25.8, A-52).
    BaseDown(BaseId, u8),
}

/// What a camp's hits do, in order.
pub type Allocation = Vec<Quantum>;

/// Something hits may land on, with the hits each quantum costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub quantum: Quantum,
    pub cost: u32,
    /// What the scorer gains by it (PP removed x 2 + PP flipped, plan §4.5).
    pub value: u32,
}

/// Chooses the quanta `hits` buy among `targets` (25.3-25.5). Stub (zeta commit 9):
/// allocates nothing.
pub fn allocate(policy: &Allocate, hits: u32, targets: &[Target]) -> Allocation {
    let _ = (policy, hits, targets);
    Vec::new()
}
