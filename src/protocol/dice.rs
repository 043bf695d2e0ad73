//! `pbem-dice-v1`: every random number of a step, derived from the step seed and a label.
//!
//! The derivation is specified in docs/dice.md so that an auditor can recompute any die without
//! this program: each labelled event gets its own ChaCha20 keystream (RFC 8439, nonce 0) whose
//! key is a hash of the step seed and the label; faces come from little-endian u32 words by
//! rejection sampling. Labels, not positions in a shared sequence, select the numbers, so the
//! order in which rules resolve events cannot change any die.

use super::hash::{Hash32, Transcript};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Name and version of the derivation; printed in every journal record that holds dice.
pub const DICE_ALGORITHM: &str = "pbem-dice-v1";

/// The seed of the bot that writes `side`'s orders for step `n` (docs/dice.md, "Bot orders"):
/// a function of the game id, the step, the side and the host reveal of the step. The reveal is
/// fixed by the commitment the record before the step published, before any order for the step
/// existed, so the host has nothing left to choose; and it stays secret until the step is
/// processed, so no player can foresee the bot's random choices.
pub fn bot_seed(game: &str, step: u64, host_reveal: &Hash32, side: &str) -> Hash32 {
    Transcript::new("pbem-bot-seed-v1")
        .str(game)
        .u64(step)
        .hash(host_reveal)
        .str(side)
        .finish()
}

/// The `entropy` of a bot's order document: derived from its seed, so the bot's part of the
/// step seed is fixed by committed inputs too.
pub fn bot_entropy(bot_seed: &Hash32) -> Hash32 {
    Transcript::new("pbem-bot-entropy-v1")
        .hash(bot_seed)
        .finish()
}

/// The seed of step `n`: game id, step, the host's revealed seed and, for every seat in seat
/// order, the side name and the entropy of its accepted order (an empty part when the side sent
/// none). Every input is public once the step is processed.
pub fn step_seed(
    game: &str,
    step: u64,
    host_reveal: &Hash32,
    seats: &[(String, Option<Hash32>)],
) -> Hash32 {
    let mut t = Transcript::new("pbem-step-seed-v1");
    t.str(game).u64(step).hash(host_reveal);
    for (side, entropy) in seats {
        t.str(side);
        match entropy {
            Some(e) => t.hash(e),
            None => t.part(&[]),
        };
    }
    t.finish()
}

/// Key of the public stream of one labelled event.
pub fn public_stream_key(step_seed: &Hash32, label: &str) -> Hash32 {
    Transcript::new("pbem-dice-v1/public")
        .hash(step_seed)
        .str(label)
        .finish()
}

/// Key of the sealed stream of one labelled event: it also mixes the host's game key, which is
/// committed at genesis and revealed only when the game is concluded.
pub fn sealed_stream_key(game_key: &Hash32, step_seed: &Hash32, label: &str) -> Hash32 {
    Transcript::new("pbem-dice-v1/sealed")
        .hash(game_key)
        .hash(step_seed)
        .str(label)
        .finish()
}

/// One keystream with the words it has handed out, so a draw can be explained afterwards.
pub struct Stream {
    rng: ChaCha20Rng,
    pub words: Vec<u32>,
}

impl Stream {
    pub fn new(key: &Hash32) -> Stream {
        Stream {
            rng: ChaCha20Rng::from_seed(key.0),
            words: Vec::new(),
        }
    }

    fn word(&mut self) -> u32 {
        let w = self.rng.next_u32();
        self.words.push(w);
        w
    }

    /// A uniform integer in `0..n` (n >= 1): words at or above the largest multiple of n that
    /// fits in 2^32 are rejected, so every value is exactly equally likely.
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let zone = (1u64 << 32) - ((1u64 << 32) % u64::from(n));
        loop {
            let w = self.word();
            if u64::from(w) < zone {
                return w % n;
            }
        }
    }

    /// `count` dice of `faces` faces each, 1-based.
    pub fn dice(&mut self, count: usize, faces: u32) -> Vec<u32> {
        (0..count).map(|_| self.below(faces) + 1).collect()
    }
}

/// A public die event as the journal records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    pub label: String,
    pub faces: u32,
    pub values: Vec<u32>,
    /// What the rules made of the values, for people (e.g. "2D=5 <= 6: destroyed").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub result: String,
}

impl Roll {
    /// Dice notation of the roll, e.g. `2d6`.
    pub fn notation(&self) -> String {
        format!("{}d{}", self.values.len(), self.faces)
    }
}

/// A sealed draw: a uniform index in `0..range` per value. Kept host-side until the game ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedDraw {
    pub label: String,
    pub range: Vec<u32>,
    pub values: Vec<u32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A sealed draw of an earlier step made public with its stream key (docs/dice.md, "Sealed
/// reveals"): e.g. a deck shuffled at the start of a turn, revealed once the turn has drawn it
/// through, so anyone can check the drawn order then instead of at the end of the game. The key
/// opens this one stream only (every label of every step has its own key, a hash that also
/// mixes the secret game key); that it is the key the game key gives is checked when the game
/// key is published (`conclude`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedReveal {
    /// The number of the step that made the sealed draw.
    pub step: u64,
    pub label: String,
    /// The sealed stream key of `label` in that step ([`sealed_stream_key`]).
    pub key: Hash32,
    /// The draw's ranges and values, as the sealed transcript of that step holds them; the
    /// values are those the key gives ([`reveal_values`]).
    pub range: Vec<u32>,
    pub values: Vec<u32>,
}

/// The public commitment to the stream key of sealed label `label` of one step, published in
/// that step's record when the rules mean to reveal the draw later ([`Dice::commit_sealed_key`]):
/// `H("pbem-sealed-key-commit-v1"; label; key)`. It fixes the draw before anything is drawn
/// from it, so the reveal can be checked against it as soon as it is published; a hash of a
/// 256-bit key lets nobody test guesses of the draw.
pub fn sealed_key_commit(label: &str, key: &Hash32) -> Hash32 {
    Transcript::new("pbem-sealed-key-commit-v1")
        .str(label)
        .hash(key)
        .finish()
}

/// The key of a sealed draw that a later step will reveal, as the rules keep it in the host's
/// state until then ([`Dice::commit_sealed_key`], [`Dice::reveal_sealed`]): which step drew it,
/// under which label, and the stream key. As secret as the draw itself: never in a view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedKey {
    pub step: u64,
    pub label: String,
    pub key: Hash32,
}

/// A step's commitment to the key of one of its sealed draws (journal/5, `step.key_commits`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedKeyCommit {
    pub label: String,
    pub commit: Hash32,
}

/// The values a sealed stream with this key gives for these ranges: one uniform draw in
/// `0..range[k]` per entry, in order, on the one stream (as [`Dice::sealed_index`] and
/// [`Dice::sealed_shuffle`] draw them).
pub fn reveal_values(key: &Hash32, range: &[u32]) -> Vec<u32> {
    let mut s = Stream::new(key);
    range.iter().map(|&n| s.below(n)).collect()
}

/// The ranges of a sealed shuffle of `len` items: `len`, `len - 1`, ..., 2 (Fisher-Yates from
/// the top; a list of 0 or 1 items draws nothing).
pub fn shuffle_ranges(len: usize) -> Vec<u32> {
    (1..len)
        .rev()
        .map(|i| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect()
}

/// Everything random that happened in one step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceTranscript {
    pub public: Vec<Roll>,
    pub sealed: Vec<SealedDraw>,
    /// Commitments to the keys of this step's sealed draws that a later step will reveal
    /// (journal/5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub key_commits: Vec<SealedKeyCommit>,
    /// Sealed draws of earlier steps this step made public (journal/5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reveals: Vec<SealedReveal>,
}

/// The dice a system uses while it resolves one step.
///
/// Each label may be used once per step (public and sealed labels share one namespace); a
/// second use is a defect in the rules code, reported by [`Dice::finish`] rather than by a panic.
pub struct Dice {
    /// The number of the step being resolved (a sealed key names it, for its reveal).
    step: u64,
    step_seed: Hash32,
    game_key: Hash32,
    transcript: DiceTranscript,
    labels: BTreeSet<String>,
    faults: Vec<String>,
}

impl Dice {
    pub fn new(step_seed: Hash32, game_key: Hash32) -> Dice {
        Dice {
            step: 0,
            step_seed,
            game_key,
            transcript: DiceTranscript::default(),
            labels: BTreeSet::new(),
            faults: Vec::new(),
        }
    }

    /// The same dice, for step number `step` of the game (what [`Dice::commit_sealed_key`]
    /// records); `new` leaves it 0, which only tests and tools that reveal nothing use.
    pub fn at_step(mut self, step: u64) -> Dice {
        self.step = step;
        self
    }

    /// The number of the step being resolved (0 unless [`Dice::at_step`] set it).
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Whether `label` was already used in this step (a rule that may repeat an event in one
    /// step picks a label not yet used, so every label names one event).
    pub fn is_claimed(&self, label: &str) -> bool {
        self.labels.contains(label)
    }

    fn claim(&mut self, label: &str) {
        if !self.labels.insert(label.to_string()) {
            self.faults
                .push(format!("dice label {label:?} used twice in one step"));
        }
    }

    /// Rolls `count` public dice with `faces` faces for the event `label`.
    pub fn roll(&mut self, label: &str, count: usize, faces: u32) -> Vec<u32> {
        self.claim(label);
        if faces == 0 {
            self.faults.push(format!(
                "dice label {label:?}: a die needs at least one face"
            ));
        }
        let values = Stream::new(&public_stream_key(&self.step_seed, label)).dice(count, faces);
        self.transcript.public.push(Roll {
            label: label.to_string(),
            faces,
            values: values.clone(),
            result: String::new(),
        });
        values
    }

    /// One six-sided die.
    pub fn d6(&mut self, label: &str) -> u32 {
        self.roll(label, 1, 6)[0]
    }

    /// The sum of two six-sided dice (2D).
    pub fn two_d6(&mut self, label: &str) -> u32 {
        self.roll(label, 2, 6).iter().sum()
    }

    /// Writes what the rules made of the most recent public roll with this label.
    pub fn set_result(&mut self, label: &str, result: impl Into<String>) {
        if let Some(r) = self
            .transcript
            .public
            .iter_mut()
            .rev()
            .find(|r| r.label == label)
        {
            r.result = result.into();
        }
    }

    /// A sealed uniform index in `0..range` (e.g. which counter comes out of a cup).
    pub fn sealed_index(&mut self, label: &str, range: usize, note: impl Into<String>) -> usize {
        self.claim(label);
        let range32 = match u32::try_from(range) {
            Ok(0) | Err(_) => {
                self.faults.push(format!(
                    "sealed label {label:?}: cannot draw from a range of {range}"
                ));
                1
            }
            Ok(n) => n,
        };
        let mut s = Stream::new(&sealed_stream_key(&self.game_key, &self.step_seed, label));
        let v = s.below(range32);
        self.transcript.sealed.push(SealedDraw {
            label: label.to_string(),
            range: vec![range32],
            values: vec![v],
            note: note.into(),
        });
        v as usize
    }

    /// A sealed Fisher-Yates shuffle: for i from len-1 down to 1, swap i with a uniform j <= i.
    pub fn sealed_shuffle<T>(&mut self, label: &str, items: &mut [T], note: impl Into<String>) {
        self.claim(label);
        let mut s = Stream::new(&sealed_stream_key(&self.game_key, &self.step_seed, label));
        if u32::try_from(items.len()).is_err() {
            self.faults
                .push(format!("sealed label {label:?}: too many items to shuffle"));
            return;
        }
        let range = shuffle_ranges(items.len());
        let mut values = Vec::with_capacity(range.len());
        for (i, &n) in (1..items.len()).rev().zip(&range) {
            let j = s.below(n);
            values.push(j);
            items.swap(i, j as usize);
        }
        self.transcript.sealed.push(SealedDraw {
            label: label.to_string(),
            range,
            values,
            note: note.into(),
        });
    }

    /// Publishes a commitment to the key of this step's sealed stream `label` and gives the
    /// key, with this step's number, for rules that will reveal the draw in a later step
    /// ([`Dice::reveal_sealed`]). The key is as secret as the draw itself: the rules keep it in
    /// the host's state, never in a view, until the reveal.
    pub fn commit_sealed_key(&mut self, label: &str) -> SealedKey {
        let key = sealed_stream_key(&self.game_key, &self.step_seed, label);
        if self.transcript.key_commits.iter().any(|c| c.label == label) {
            self.faults.push(format!(
                "key of sealed label {label:?} committed twice in one step"
            ));
        } else {
            self.transcript.key_commits.push(SealedKeyCommit {
                label: label.to_string(),
                commit: sealed_key_commit(label, &key),
            });
        }
        SealedKey {
            step: self.step,
            label: label.to_string(),
            key,
        }
    }

    /// Makes public the sealed draw of an earlier step whose key the rules kept
    /// ([`Dice::commit_sealed_key`]) and whose ranges they know (e.g. [`shuffle_ranges`] of the
    /// deck's length). The values are recomputed from the key, so the reveal is the draw.
    pub fn reveal_sealed(&mut self, sealed: &SealedKey, range: Vec<u32>) {
        let (step, label, key) = (sealed.step, sealed.label.as_str(), sealed.key);
        if range.contains(&0) {
            self.faults.push(format!(
                "reveal of sealed label {label:?} (step {step}): a range of 0"
            ));
            return;
        }
        if self
            .transcript
            .reveals
            .iter()
            .any(|r| r.step == step && r.label == label)
        {
            self.faults.push(format!(
                "sealed label {label:?} of step {step} revealed twice in one step"
            ));
            return;
        }
        let values = reveal_values(&key, &range);
        self.transcript.reveals.push(SealedReveal {
            step,
            label: label.to_string(),
            key,
            range,
            values,
        });
    }

    /// The transcript, or the defects found while rolling.
    pub fn finish(self) -> Result<DiceTranscript, Vec<String>> {
        if self.faults.is_empty() {
            Ok(self.transcript)
        } else {
            Err(self.faults)
        }
    }

    pub fn transcript(&self) -> &DiceTranscript {
        &self.transcript
    }
}

/// Recomputes a public roll from its label; `verify` compares this with the journal.
pub fn replay_public(
    step_seed: &Hash32,
    label: &str,
    count: usize,
    faces: u32,
) -> (Vec<u32>, Vec<u32>) {
    let mut s = Stream::new(&public_stream_key(step_seed, label));
    let values = s.dice(count, faces);
    (values, s.words)
}

/// Recomputes a sealed draw (indices in the given ranges) once the game key is public.
pub fn replay_sealed(
    game_key: &Hash32,
    step_seed: &Hash32,
    label: &str,
    ranges: &[u32],
) -> Vec<u32> {
    let mut s = Stream::new(&sealed_stream_key(game_key, step_seed, label));
    ranges.iter().map(|&n| s.below(n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Hash32 {
        Hash32([7u8; 32])
    }

    #[test]
    fn same_label_same_dice_whatever_the_order_of_events() {
        let mut a = Dice::new(seed(), Hash32::default());
        let x1 = a.roll("combat/C08/r1/M-A03", 2, 6);
        let y1 = a.roll("combat/D07/r1/B-A01", 2, 6);
        let mut b = Dice::new(seed(), Hash32::default());
        let y2 = b.roll("combat/D07/r1/B-A01", 2, 6);
        let x2 = b.roll("combat/C08/r1/M-A03", 2, 6);
        assert_eq!((x1, y1), (x2, y2));
    }

    #[test]
    fn a_revealed_shuffle_gives_the_values_the_sealed_shuffle_drew() {
        let game_key = Hash32([9u8; 32]);
        let mut d = Dice::new(seed(), game_key);
        let mut deck: Vec<u32> = (0..9).collect();
        d.sealed_shuffle("deck/actions/t1", &mut deck, "");
        let mut d = d.at_step(3);
        let sealed = d.commit_sealed_key("deck/actions/t1");
        assert_eq!(sealed.step, 3);
        assert_eq!(
            d.transcript().key_commits[0].commit,
            sealed_key_commit("deck/actions/t1", &sealed.key)
        );
        let drawn = d.transcript().sealed[0].clone();
        let mut later = Dice::new(Hash32([8u8; 32]), game_key).at_step(4);
        later.reveal_sealed(&sealed, shuffle_ranges(9));
        let t = later.finish().unwrap();
        assert_eq!(t.reveals.len(), 1);
        assert_eq!(t.reveals[0].range, drawn.range);
        assert_eq!(t.reveals[0].values, drawn.values);
        assert_eq!(t.reveals[0].step, 3);
        assert_eq!(
            t.reveals[0].key,
            sealed_stream_key(&game_key, &seed(), "deck/actions/t1")
        );
    }

    #[test]
    fn a_revealed_key_opens_only_its_own_label() {
        let mut d = Dice::new(seed(), Hash32([9u8; 32]));
        let t1 = d.commit_sealed_key("deck/actions/t1").key;
        assert_ne!(t1, d.commit_sealed_key("deck/actions/t2").key);
        assert_ne!(t1, public_stream_key(&seed(), "deck/actions/t1"));
    }

    #[test]
    fn committing_one_key_twice_is_a_defect() {
        let mut d = Dice::new(seed(), Hash32::default());
        d.commit_sealed_key("deck");
        d.commit_sealed_key("deck");
        assert_eq!(d.finish().unwrap_err().len(), 1);
    }

    #[test]
    fn shuffle_ranges_count_down_from_the_length_to_two() {
        assert_eq!(shuffle_ranges(4), vec![4, 3, 2]);
        assert!(shuffle_ranges(1).is_empty());
        assert!(shuffle_ranges(0).is_empty());
    }

    #[test]
    fn revealing_one_draw_twice_or_a_zero_range_is_a_defect() {
        let mut d = Dice::new(seed(), Hash32::default());
        let kept = |label: &str| SealedKey {
            step: 1,
            label: label.into(),
            key: Hash32([1u8; 32]),
        };
        d.reveal_sealed(&kept("x"), vec![3]);
        d.reveal_sealed(&kept("x"), vec![3]);
        d.reveal_sealed(&kept("y"), vec![0]);
        assert_eq!(d.finish().unwrap_err().len(), 2);
    }

    #[test]
    fn a_transcript_without_reveals_is_written_as_before() {
        let t = DiceTranscript::default();
        assert!(!crate::yaml::to_string(&t).contains("reveals"));
    }

    #[test]
    fn a_label_used_twice_is_reported_as_a_defect() {
        let mut d = Dice::new(seed(), Hash32::default());
        d.d6("x");
        d.d6("x");
        assert_eq!(d.finish().unwrap_err().len(), 1);
    }

    #[test]
    fn an_empty_range_is_reported_as_a_defect() {
        let mut d = Dice::new(seed(), Hash32::default());
        d.roll("zero", 1, 0);
        d.sealed_index("empty cup", 0, "");
        assert_eq!(d.finish().unwrap_err().len(), 2);
    }

    #[test]
    fn faces_stay_in_range_and_all_appear() {
        let mut s = Stream::new(&seed());
        let v = s.dice(600, 6);
        assert!(v.iter().all(|&f| (1..=6).contains(&f)));
        for face in 1..=6 {
            assert!(v.contains(&face));
        }
    }

    #[test]
    fn rejection_skips_words_in_the_biased_zone() {
        // With n = 3 * 2^30 the zone is 3 * 2^30, so a quarter of all words are rejected:
        // over many draws some rejection must occur and every value must stay below n.
        let mut s = Stream::new(&seed());
        let n = 3u32 << 30;
        let draws: Vec<u32> = (0..64).map(|_| s.below(n)).collect();
        assert!(draws.iter().all(|&v| v < n));
        assert!(s.words.len() > 64, "expected at least one rejected word");
    }

    #[test]
    fn sealed_stream_depends_on_the_game_key() {
        let a = replay_sealed(&Hash32([1; 32]), &seed(), "cup", &[1000, 1000, 1000]);
        let b = replay_sealed(&Hash32([2; 32]), &seed(), "cup", &[1000, 1000, 1000]);
        assert_ne!(a, b);
    }

    #[test]
    fn shuffle_is_reproducible_from_its_transcript() {
        let mut d = Dice::new(seed(), Hash32([9; 32]));
        let mut items: Vec<u32> = (0..10).collect();
        d.sealed_shuffle("deck", &mut items, "");
        let t = d.finish().unwrap();
        let ranges = &t.sealed[0].range;
        assert_eq!(
            replay_sealed(&Hash32([9; 32]), &seed(), "deck", ranges),
            t.sealed[0].values
        );
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }
}
