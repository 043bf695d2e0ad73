//! `pbem new` from nothing to an open step 1: [`super::new::create`] writes the game; then the
//! time step 1 opened is recorded and its mail queued ([`mail::turn::after_record`]), and the
//! views are written again to show the deadline that time gives.

use super::game::Game;
use super::new::{self, NewGame};
use super::{Error, mail, views};
use jiff::Timestamp;

/// Creates the game `req` describes and opens its first step at `now`.
pub fn start(req: NewGame, now: Timestamp) -> Result<Game, Error> {
    let game = new::create(req)?;
    mail::turn::after_record(&game, now)?;
    views::refresh(&game)?;
    Ok(game)
}
