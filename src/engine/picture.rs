//! Board pictures of a game (`pbem map`, turn mail): the system's picture of a reader's view
//! at a journal record, as SVG or PNG. The picture is drawn from the same view, events and
//! public component data as the text view ([`super::views`]), so it shows no more.

use super::Error;
use super::dir;
use super::game::Game;
use super::views;
use crate::kit::picture::{Svg, png};
use crate::systems::Reader;

/// What a picture is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The file extension (`svg`, `png`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// Who the picture is for: a side of the game (checked against its seats), or the public.
pub fn reader(game: &Game, side: Option<&str>) -> Result<Reader, Error> {
    match side {
        Some(s) => {
            game.config.require_seat(s)?;
            Ok(Reader::Side(s.to_string()))
        }
        None => Ok(Reader::Public),
    }
}

/// The picture of `reader`'s view right after record `seq` (an error names a record the
/// journal does not have, or a system with no picture yet).
pub fn board(game: &Game, reader: &Reader, seq: u64) -> Result<Svg, Error> {
    optional(game, reader, seq)?.ok_or_else(|| {
        Error::Fail(format!(
            "{} has no board picture yet (pbem view shows the board as text)",
            game.system.id()
        ))
    })
}

/// The picture as the bytes of `format`.
pub fn encode(svg: Svg, format: Format) -> Result<Vec<u8>, Error> {
    match format {
        Format::Svg => Ok(svg.into_string().into_bytes()),
        Format::Png => png::render(&svg).map_err(Error::Fail),
    }
}

/// [`board`], or `None` when the system has no picture yet (turn mail then goes without).
pub fn optional(game: &Game, reader: &Reader, seq: u64) -> Result<Option<Svg>, Error> {
    game.record(seq)?;
    let state = dir::read_text(&game.dir.state(seq))?;
    let events = views::view_events(game, seq, reader)?;
    Ok(game.system.picture(game.data()?, &state, reader, &events)?)
}
