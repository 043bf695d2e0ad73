//! `pbem demo`: play a scripted game and verify it.

use crate::cli::args::Demo;
use crate::cli::output::stdout;
use crate::engine::{self, Error, exit};

pub fn run(a: Demo) -> Result<i32, Error> {
    let seed = a
        .seed
        .unwrap_or_else(|| engine::demo::default_seed(&a.system));
    engine::demo::run(&a.system, a.keep.as_deref(), seed, &mut stdout())?;
    Ok(exit::OK)
}
