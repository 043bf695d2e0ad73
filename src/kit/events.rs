//! The event log of one resolution: lines everyone may read (the report and the journal) and
//! lines only one side may read (its view), in the order the rules wrote them.

use super::seats::{PerSide, Seat};
use std::collections::BTreeMap;

/// What happened in one step, as the rules tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log<S: Seat> {
    pub public: Vec<String>,
    pub private: PerSide<S, Vec<String>>,
}

impl<S: Seat> Default for Log<S> {
    fn default() -> Self {
        Log {
            public: Vec::new(),
            private: PerSide::default(),
        }
    }
}

impl<S: Seat> Log<S> {
    /// A line for everyone.
    pub fn public(&mut self, line: impl Into<String>) {
        self.public.push(line.into());
    }

    /// A line only `side` may read.
    pub fn private(&mut self, side: S, line: impl Into<String>) {
        self.private[side].push(line.into());
    }

    /// The public lines, and each side's private lines keyed by side name; a side with none is
    /// left out (what a step's resolution carries).
    pub fn into_lines(self) -> (Vec<String>, BTreeMap<String, Vec<String>>) {
        let private = self
            .private
            .into_iter()
            .filter(|(_, lines)| !lines.is_empty())
            .map(|(side, lines)| (side.name().to_string(), lines))
            .collect();
        (self.public, private)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::seats::examples::Faction;

    #[test]
    fn lines_keep_the_order_they_were_written_in() {
        let mut log = Log::default();
        log.public("first");
        log.private(Faction::Aeug, "a1");
        log.public("second");
        log.private(Faction::Aeug, "a2");
        assert_eq!(log.public, ["first", "second"]);
        assert_eq!(log.private[Faction::Aeug], ["a1", "a2"]);
    }

    #[test]
    fn a_side_without_private_lines_is_left_out_of_the_resolution() {
        let mut log = Log::default();
        log.public("everyone");
        log.private(Faction::NeoZeon, "only neo zeon");
        let (public, private) = log.into_lines();
        assert_eq!(public, ["everyone"]);
        assert_eq!(
            private,
            BTreeMap::from([("neo_zeon".to_string(), vec!["only neo zeon".to_string()])])
        );
        assert!(!private.contains_key("titans") && !private.contains_key("aeug"));
    }
}
