//! A leak-test harness for hidden information.
//!
//! The property every system must keep: two states that differ only in facts a reader may not
//! know give that reader byte-identical output (its view, the report, its private lines). A
//! test supplies a way to permute one reader's secrets in a state (its hidden identities, hand,
//! deck order...), the readers there are, and what each reader is shown, as text; the harness
//! permutes, compares every other reader's text, and names the first difference:
//! which reader, with which permutation seed, at which line, what it read before and after.
//!
//! It is plain functions over closures, so it works for any state type and any reader type
//! without knowing a rule; it is used from tests (`tests/*_leak.rs`) with proptest supplying
//! states and seeds.

use std::fmt;

/// A reader's text differed between two states that should look the same to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// The reader, as `{:?}` prints it.
    pub reader: String,
    /// The seed of the permutation that exposed it, if a permutation made the second state.
    pub seed: Option<u64>,
    /// 1-based line of the first difference.
    pub line: usize,
    /// That line before and after (`<end of text>` where one text is shorter).
    pub before: String,
    pub after: String,
}

impl fmt::Display for Leak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} sees a difference", self.reader)?;
        if let Some(seed) = self.seed {
            write!(f, " after permutation {seed}")?;
        }
        write!(
            f,
            " at line {}:\n  before: {}\n  after:  {}",
            self.line, self.before, self.after
        )
    }
}

impl std::error::Error for Leak {}

const END: &str = "<end of text>";

/// The first line (1-based) where two texts differ, with both lines; `None` if they are equal.
pub fn first_difference(before: &str, after: &str) -> Option<(usize, String, String)> {
    if before == after {
        return None;
    }
    let mut a = before.split('\n');
    let mut b = after.split('\n');
    let mut line = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => {
                return Some((
                    line,
                    x.unwrap_or(END).to_string(),
                    y.unwrap_or(END).to_string(),
                ));
            }
        }
    }
}

/// Checks that every reader in `readers` is shown the same text for `before` and `after`.
pub fn same_for<S, R: fmt::Debug>(
    before: &S,
    after: &S,
    readers: &[R],
    text: impl Fn(&S, &R) -> String,
) -> Result<(), Leak> {
    for r in readers {
        if let Some((line, b, a)) = first_difference(&text(before, r), &text(after, r)) {
            return Err(Leak {
                reader: format!("{r:?}"),
                seed: None,
                line,
                before: b,
                after: a,
            });
        }
    }
    Ok(())
}

/// For each seed, permutes `owner`'s secrets in `state` with `permute(state, seed)` and checks
/// that every reader other than `owner` is shown the same text as before.
pub fn secrets_of<S, R: fmt::Debug + PartialEq>(
    state: &S,
    owner: &R,
    readers: &[R],
    seeds: impl IntoIterator<Item = u64>,
    permute: impl Fn(&S, u64) -> S,
    text: impl Fn(&S, &R) -> String,
) -> Result<(), Leak> {
    let others: Vec<&R> = readers.iter().filter(|r| *r != owner).collect();
    for seed in seeds {
        let permuted = permute(state, seed);
        same_for(state, &permuted, &others, |s, r| text(s, r)).map_err(|mut e| {
            e.seed = Some(seed);
            e
        })?;
    }
    Ok(())
}

/// A uniform-enough index picker for permutations in tests: `pick(n)` is in `0..n` (0 for
/// n = 0), from a 64-bit linear congruential generator seeded with `seed`. Deterministic, and
/// never a die of the game.
pub fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut x = seed | 1;
    move |n| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % (n.max(1) as u64)) as usize
    }
}

/// A permutation of `0..n` from `seed` (Fisher-Yates with [`picker`]).
pub fn permutation(seed: u64, n: usize) -> Vec<usize> {
    let mut pick = picker(seed);
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, pick(i + 1));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A toy game: each side holds cards; a side sees its own cards and the others' counts.
    type Toy = BTreeMap<&'static str, Vec<u32>>;

    #[derive(Debug, PartialEq)]
    enum Reader {
        Side(&'static str),
        Public,
    }

    fn toy() -> Toy {
        [("a", vec![1, 2, 3]), ("b", vec![4, 5]), ("c", vec![6])]
            .into_iter()
            .collect()
    }

    fn readers() -> Vec<Reader> {
        vec![
            Reader::Side("a"),
            Reader::Side("b"),
            Reader::Side("c"),
            Reader::Public,
        ]
    }

    fn fair(s: &Toy, r: &Reader) -> String {
        s.iter()
            .map(|(side, cards)| match r {
                Reader::Side(me) if me == side => format!("{side}: {cards:?}\n"),
                _ => format!("{side}: {} cards\n", cards.len()),
            })
            .collect()
    }

    /// Replaces `owner`'s cards with a permutation of every card value it could hold.
    fn shuffle(owner: &'static str) -> impl Fn(&Toy, u64) -> Toy {
        move |s, seed| {
            let mut t = s.clone();
            let cards = t.get_mut(owner).unwrap();
            let p = permutation(seed, cards.len());
            let old = cards.clone();
            for (i, &j) in p.iter().enumerate() {
                cards[i] = old[j] + 10 * (seed % 3) as u32;
            }
            t
        }
    }

    #[test]
    fn a_fair_view_passes_for_every_owner() {
        for owner in ["a", "b", "c"] {
            let r = secrets_of(
                &toy(),
                &Reader::Side(owner),
                &readers(),
                0..20,
                shuffle(owner),
                fair,
            );
            assert_eq!(r, Ok(()));
        }
    }

    #[test]
    fn a_view_that_shows_another_sides_cards_names_the_reader_and_the_line() {
        // Side c is shown a's cards by mistake.
        let leaky = |s: &Toy, r: &Reader| {
            let mut t = fair(s, r);
            if *r == Reader::Side("c") {
                t.push_str(&format!("peek: {:?}\n", s["a"]));
            }
            t
        };
        let e = secrets_of(
            &toy(),
            &Reader::Side("a"),
            &readers(),
            1..20,
            shuffle("a"),
            leaky,
        )
        .unwrap_err();
        assert_eq!(e.reader, "Side(\"c\")");
        assert_eq!(e.line, 4);
        assert_eq!(e.before, "peek: [1, 2, 3]");
        assert!(e.after.starts_with("peek: ["), "{e}");
        assert_eq!(e.seed, Some(1));
        assert!(
            e.to_string()
                .starts_with("Side(\"c\") sees a difference after permutation 1 at line 4:")
        );
    }

    #[test]
    fn the_owner_itself_is_not_checked() {
        // The owner's own view lists its cards, which the permutation changes.
        let r = secrets_of(
            &toy(),
            &Reader::Side("b"),
            &readers(),
            0..5,
            shuffle("b"),
            fair,
        );
        assert!(r.is_ok());
        let all = same_for(&toy(), &shuffle("b")(&toy(), 1), &readers(), fair);
        assert_eq!(all.unwrap_err().reader, "Side(\"b\")");
    }

    #[test]
    fn a_shorter_text_differs_at_its_end() {
        assert_eq!(
            first_difference("x\ny\n", "x\ny\nz\n"),
            Some((3, String::new(), "z".to_string()))
        );
        assert_eq!(
            first_difference("x", "x\n"),
            Some((2, END.to_string(), String::new()))
        );
        assert_eq!(first_difference("same", "same"), None);
    }

    #[test]
    fn permutations_are_permutations_and_depend_on_the_seed() {
        let seen: std::collections::BTreeSet<Vec<usize>> =
            (0..16).map(|s| permutation(s, 6)).collect();
        assert!(seen.len() > 1);
        for p in &seen {
            let mut q = p.clone();
            q.sort();
            assert_eq!(q, (0..6).collect::<Vec<_>>());
        }
        assert!(permutation(3, 0).is_empty());
        assert_eq!(picker(5)(0), 0);
    }
}
