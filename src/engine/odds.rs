//! `pbem odds`: the exact chances a player may ask for, answered by the system's rules from
//! plain numbers or from what one side of a game may see.

use super::Error;
use super::game::Game;
use crate::systems::{self, Reader};
use std::path::Path;

/// A question about the units of the game in `dir`, as `side` sees them.
pub fn in_game(dir: &Path, side: &str, words: &[String]) -> Result<String, Error> {
    let game = Game::open(dir)?;
    game.config.require_seat(side)?;
    let state = game.state()?;
    game.system
        .odds(
            Some((game.data()?, state.as_str())),
            &Reader::Side(side.to_string()),
            words,
        )
        .map_err(Error::Fail)
}

/// A question without a game: the first word names the system, the rest are its values.
pub fn of_system(words: &[String]) -> Result<String, Error> {
    let (system, rest) = words
        .split_first()
        .ok_or_else(|| Error::Fail("give a system and two values".into()))?;
    systems::by_id(system)?
        .odds(None, &Reader::Public, rest)
        .map_err(Error::Fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_question_without_a_game_is_answered_by_the_system_it_names() {
        let answer = of_system(&words(&["kummen", "9", "4"])).unwrap();
        assert!(answer.contains("10 of 36 throws = 5/18"), "{answer}");
    }

    #[test]
    fn a_question_without_a_game_needs_a_system() {
        let msg = of_system(&[]).unwrap_err().to_string();
        assert_eq!(msg, "give a system and two values");
    }

    #[test]
    fn an_unknown_system_is_refused_by_name() {
        let msg = of_system(&words(&["chess", "1", "2"]))
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("unknown system \"chess\""), "{msg}");
    }
}
