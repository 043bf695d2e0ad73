//! An opaque cup (pool) of counters drawn at random with sealed dice.
//!
//! The cup keeps its contents in a list; a draw takes a sealed uniform index into it, so the
//! drawn item stays secret from everyone but the host until the sealed transcript is published.
//! Each draw has its own label (`<event>/<k>` for the k-th item of one event), never a running
//! count of draws made before.

use crate::protocol::dice::Dice;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Cup {
    pub items: Vec<String>,
}

impl Cup {
    pub fn new(items: Vec<String>) -> Cup {
        Cup { items }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn contains(&self, item: &str) -> bool {
        self.items.iter().any(|i| i == item)
    }

    /// Puts an item (back) into the cup.
    pub fn put(&mut self, item: impl Into<String>) {
        self.items.push(item.into());
    }

    /// Removes a named item, if present.
    pub fn take(&mut self, item: &str) -> bool {
        match self.items.iter().position(|i| i == item) {
            Some(p) => {
                self.items.remove(p);
                true
            }
            None => false,
        }
    }

    /// Draws one item with the sealed label `label`, or `None` from an empty cup.
    pub fn draw(&mut self, dice: &mut Dice, label: &str, note: &str) -> Option<String> {
        if self.items.is_empty() {
            return None;
        }
        let i = dice.sealed_index(label, self.items.len(), note);
        (i < self.items.len()).then(|| self.items.remove(i))
    }

    /// Draws up to `n` items for one event; the k-th draw (1-based) uses `<label>/<k>`.
    /// Fewer come out when the cup runs empty.
    pub fn draw_many(&mut self, dice: &mut Dice, label: &str, n: usize, note: &str) -> Vec<String> {
        let mut out = Vec::new();
        for k in 1..=n {
            match self.draw(dice, &format!("{label}/{k}"), note) {
                Some(item) => out.push(item),
                None => break,
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::hash::Hash32;

    fn cup() -> Cup {
        Cup::new((1..=10).map(|i| format!("U{i:02}")).collect())
    }

    #[test]
    fn draws_are_reproducible_and_remove_items() {
        let mut a = cup();
        let mut b = cup();
        let mut da = Dice::new(Hash32([3; 32]), Hash32([4; 32]));
        let mut db = Dice::new(Hash32([3; 32]), Hash32([4; 32]));
        let xa = a.draw_many(&mut da, "setup/cup", 4, "");
        let xb = b.draw_many(&mut db, "setup/cup", 4, "");
        assert_eq!(xa, xb);
        assert_eq!(a.len(), 6);
        for x in &xa {
            assert!(!a.contains(x));
        }
        let t = da.finish().unwrap();
        assert_eq!(t.sealed.len(), 4);
        assert!(t.public.is_empty(), "cup draws must never be public rolls");
    }

    #[test]
    fn drawing_past_empty_stops() {
        let mut c = Cup::new(vec!["X".into()]);
        let mut d = Dice::new(Hash32([1; 32]), Hash32([2; 32]));
        assert_eq!(c.draw_many(&mut d, "e", 3, ""), vec!["X".to_string()]);
        assert!(c.is_empty());
        assert!(d.finish().is_ok());
    }

    #[test]
    fn draws_depend_on_the_game_key() {
        let mut seen = std::collections::BTreeSet::new();
        for k in 0..8u8 {
            let mut c = cup();
            let mut d = Dice::new(Hash32([3; 32]), Hash32([k; 32]));
            seen.insert(c.draw_many(&mut d, "x", 3, ""));
        }
        assert!(seen.len() > 1);
    }

    #[test]
    fn put_and_take() {
        let mut c = Cup::default();
        c.put("A");
        c.put("B");
        assert!(c.take("A"));
        assert!(!c.take("A"));
        assert_eq!(c.items, vec!["B".to_string()]);
    }
}
