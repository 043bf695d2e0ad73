//! `pbem demo`: play a scripted game and verify it.

use crate::cli::args::Demo;
use crate::cli::output::stdout;
use crate::engine::{self, Error, exit};

pub fn run(a: Demo) -> Result<i32, Error> {
    engine::demo::run(&a.system, a.keep.as_deref(), &mut stdout())?;
    Ok(exit::OK)
}
