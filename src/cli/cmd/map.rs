//! `pbem map`: the board as one side (or the public) sees it, as SVG or PNG.

use crate::cli::args::{Map, PictureFormat};
use crate::cli::output::write_or_print;
use crate::engine::picture::{self, Format};
use crate::engine::{self, Error, exit};
use std::io::IsTerminal;

pub fn run(a: Map) -> Result<i32, Error> {
    let format = match a.format {
        Some(PictureFormat::Svg) => Format::Svg,
        Some(PictureFormat::Png) => Format::Png,
        None if a
            .out
            .as_ref()
            .and_then(|p| p.extension())
            .is_some_and(|e| e.eq_ignore_ascii_case("png")) =>
        {
            Format::Png
        }
        None => Format::Svg,
    };
    if format == Format::Png && a.out.is_none() && std::io::stdout().is_terminal() {
        return Err(Error::Fail(
            "a PNG is binary and standard output is a terminal: write it to a file with \
             -o FILE.png (or pipe it)"
                .into(),
        ));
    }
    let game = engine::game::Game::open(&a.dir)?;
    let reader = picture::reader(&game, a.side.as_deref())?;
    let record = a.record.unwrap_or(game.last_seq());
    let svg = picture::board(&game, &reader, record)?;
    write_or_print(a.out.as_deref(), &picture::encode(svg, format)?)?;
    Ok(exit::OK)
}
