//! `pbem report`: the public report of a journal record.

use crate::cli::args::Report;
use crate::cli::output::print;
use crate::engine::{self, Error, exit};

pub fn run(a: Report) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    let record = a.record.unwrap_or(game.last_seq());
    print(&engine::views::report_text(&game, record)?)?;
    Ok(exit::OK)
}
