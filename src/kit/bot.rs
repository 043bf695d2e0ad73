//! What every system's bot is built from: a seeded random source and a greedy composer that
//! only ever keeps an order the rules' `check` accepts.
//!
//! A bot picks among the legal items its side's choices list (the same lists the template
//! shows), in an order its heuristic gives, adding each item to the orders it has so far and
//! keeping it only if `check` still accepts the whole. So a bot's orders are legal by
//! construction, judged by the one legality the players face.

use crate::protocol::hash::{Hash32, Transcript};

/// A deterministic random source for a bot's choices (SplitMix64 over a seed hash). Not for
/// anything secret: a bot's seed is derived from committed inputs so anyone can recompute its
/// orders (docs/dice.md, "Bot orders").
#[derive(Debug, Clone)]
pub struct BotRng(u64);

impl BotRng {
    /// The source for `side`'s bot given the step's bot seed.
    pub fn new(seed: &Hash32, side: &str) -> BotRng {
        let h = Transcript::new("pbem-bot-rng-v1")
            .hash(seed)
            .str(side)
            .finish();
        let mut first = [0u8; 8];
        first.copy_from_slice(&h.0[..8]);
        BotRng(u64::from_le_bytes(first))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A small random tie-breaker added to heuristic scores, so equal moves vary by seed.
    pub fn jitter(&mut self, spread: i64) -> i64 {
        if spread <= 0 {
            0
        } else {
            self.below(spread as u64) as i64
        }
    }
}

/// The best `per_key` items of each key (a unit, a moving group), by score, in key order then
/// best first: a bot weighs a few destinations per unit, so composing costs a bounded number
/// of checks whatever the unit's reach.
pub fn best_per_key<I>(mut items: Vec<(String, i64, I)>, per_key: usize) -> Vec<(i64, I)> {
    items.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut taken: std::collections::BTreeMap<String, usize> = Default::default();
    let mut out = Vec::new();
    for (key, score, item) in items {
        let n = taken.entry(key).or_insert(0);
        if *n < per_key {
            *n += 1;
            out.push((score, item));
        }
    }
    out
}

/// Greedy composition: `candidates` (each an item with its score) are tried best score first
/// (ties in the given order); `add` puts an item into the orders and `accepted` judges the
/// result. An item whose addition is refused is left out, and the orders stay as they were.
/// At most `limit` items are kept.
pub fn compose<O: Clone, I>(
    mut orders: O,
    mut candidates: Vec<(i64, I)>,
    limit: usize,
    add: impl Fn(&mut O, &I),
    accepted: impl Fn(&O) -> bool,
) -> O {
    // Stable: equal scores keep the order the caller shuffled them into.
    candidates.sort_by_key(|c| std::cmp::Reverse(c.0));
    let mut kept = 0;
    for (_, item) in &candidates {
        if kept >= limit {
            break;
        }
        let mut trial = orders.clone();
        add(&mut trial, item);
        if accepted(&trial) {
            orders = trial;
            kept += 1;
        }
    }
    orders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_side_give_the_same_numbers() {
        let seed = Hash32([7; 32]);
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = BotRng::new(&seed, "lib");
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..5)
            .map({
                let mut r = BotRng::new(&seed, "lib");
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(BotRng::new(&seed, "fed").next_u64(), a[0]);
    }

    #[test]
    fn compose_keeps_the_best_items_the_judge_accepts_and_skips_the_rest() {
        // The judge accepts sums up to 10; items 8, 5, 2 by score order 3, 2, 1.
        let orders = compose(
            Vec::<u32>::new(),
            vec![(2, 5), (3, 8), (1, 2)],
            10,
            |o, i| o.push(*i),
            |o| o.iter().sum::<u32>() <= 10,
        );
        assert_eq!(orders, [8, 2]);
    }

    #[test]
    fn best_per_key_keeps_the_best_few_of_each_key_in_key_order() {
        let items = vec![
            ("b".to_string(), 1, 'w'),
            ("a".to_string(), 5, 'x'),
            ("a".to_string(), 9, 'y'),
            ("a".to_string(), 7, 'z'),
        ];
        assert_eq!(best_per_key(items, 2), [(9, 'y'), (7, 'z'), (1, 'w')]);
    }

    #[test]
    fn compose_stops_at_its_limit() {
        let orders = compose(
            Vec::<u32>::new(),
            vec![(1, 1), (1, 2), (1, 3)],
            2,
            |o, i| o.push(*i),
            |_| true,
        );
        assert_eq!(orders, [1, 2]);
    }
}
