//! `pbem template`: an order skeleton for one side.

use crate::cli::args::Template;
use crate::cli::output::write_or_print;
use crate::engine::{self, Error, exit};

pub fn run(a: Template) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    let text = engine::order::fresh_template(&game, &a.side)?;
    write_or_print(a.out.as_deref(), text.as_bytes())?;
    Ok(exit::OK)
}
