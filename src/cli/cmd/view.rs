//! `pbem view`: what one side may see.

use crate::cli::args::View;
use crate::cli::output::print;
use crate::engine::{self, Error, exit};

pub fn run(a: View) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    game.config.require_seat(&a.side)?;
    let (yaml, text) = engine::views::side_view(&game, &a.side)?;
    print(a.format.pick(&text, &yaml))?;
    Ok(exit::OK)
}
