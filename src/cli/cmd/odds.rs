//! `pbem odds`: the exact chance of an attack, in the abstract or as one side of a game sees it.

use crate::cli::args::Odds;
use crate::cli::output::print;
use crate::engine::{Error, exit, odds};

pub fn run(a: Odds) -> Result<i32, Error> {
    let answer = match (a.game, a.side) {
        (Some(dir), Some(side)) => odds::in_game(&dir, &side, &a.words)?,
        _ => odds::of_system(&a.words)?,
    };
    print(&answer)?;
    Ok(exit::OK)
}
