//! Component data a state holds without storing it: a game's map, counters and cards are read
//! once from its `data.yaml` and shared by every state of the game (issue 11: a state file
//! holds only what changes).

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// A state's handle on its game's component data. Skipped when the state is written
/// (`#[serde(skip)]`) and attached when it is read (`systems::Rules::attach`), so a state is
/// never seen without it: the engine reads states only through the system layer, which
/// attaches before anything else looks at them.
#[derive(Debug)]
pub struct Shared<T>(Option<Arc<T>>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Some(Arc::new(value)))
    }

    /// The data itself, to store it or attach it to another state.
    pub fn arc(&self) -> Arc<T> {
        Arc::clone(self.0.as_ref().expect(DETACHED))
    }
}

const DETACHED: &str = "a state was used before its component data was attached (a defect in pbem: states are read through systems::read_state)";

impl<T> From<Arc<T>> for Shared<T> {
    fn from(data: Arc<T>) -> Shared<T> {
        Shared(Some(data))
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Shared(None)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0.as_deref().expect(DETACHED)
    }
}

/// Copy on write: a state that changes its data (a test fixture giving a unit other numbers)
/// gets its own copy; every other state of the game keeps the shared one.
impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(self.0.as_mut().expect(DETACHED))
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (None, None) => true,
            _ => false,
        }
    }
}

impl<T: Eq> Eq for Shared<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_on_equal_data_are_equal_whether_or_not_they_share_it() {
        let a = Shared::new(vec![1, 2]);
        assert_eq!(a, a.clone());
        assert_eq!(a, Shared::new(vec![1, 2]));
        assert_ne!(a, Shared::new(vec![3]));
        assert_ne!(a, Shared::default());
    }

    #[test]
    fn changing_the_data_through_one_handle_leaves_the_others_alone() {
        let a = Shared::new(vec![1, 2]);
        let mut b = a.clone();
        b.push(3);
        assert_eq!(*a, vec![1, 2]);
        assert_eq!(*b, vec![1, 2, 3]);
    }

    #[test]
    fn a_clone_shares_the_data_rather_than_copying_it() {
        let a = Shared::new(vec![1, 2]);
        assert!(Arc::ptr_eq(&a.arc(), &a.clone().arc()));
    }
}
