//! `pbem conclude`: publish the sealed archive of a finished game.

use crate::cli::args::Conclude;
use crate::cli::output::print;
use crate::engine::{self, Error, exit};

pub fn run(a: Conclude) -> Result<i32, Error> {
    let c = engine::conclude::conclude(&a.dir)?;
    if c.already {
        print(&format!(
            "already concluded (record {}, journal head {})\n",
            c.seq, c.head
        ))?;
    } else {
        print(&format!(
            "concluded: record {} reveals the host secrets; archive/ holds {} files; journal head {}\n",
            c.seq, c.files, c.head
        ))?;
    }
    Ok(exit::OK)
}
