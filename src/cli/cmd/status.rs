//! `pbem status`: where the game stands.

use crate::cli::args::Status;
use crate::cli::output::{json, print};
use crate::engine::{self, Error, exit};

pub fn run(a: Status) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    let now = engine::mail::clock::now_or(a.now.as_deref())?;
    let st = engine::status::status(&game)?.at(now);
    if a.json {
        json(&st)?
    } else {
        print(&st.text())?
    }
    Ok(exit::OK)
}
