//! `pbem new` from nothing to an open step 1: [`super::new::create`] writes the game; then the
//! time step 1 opened is recorded and its mail queued ([`mail::turn::after_record`]), and the
//! views are written again to show the deadline that time gives.

use super::game::Game;
use super::new::{self, NewGame};
use super::{Error, mail, views};
use jiff::Timestamp;

/// Creates the game `req` describes and opens its first step at `now`.
pub fn start(req: NewGame, now: Timestamp) -> Result<Game, Error> {
    start_with(req, new::Extras::default(), now)
}

/// [`start`] with bot seats or given secrets ([`new::Extras`]).
pub fn start_with(req: NewGame, extras: new::Extras, now: Timestamp) -> Result<Game, Error> {
    let game = new::create_with(req, extras)?;
    mail::turn::after_record(&game, now)?;
    views::refresh(&game)?;
    Ok(game)
}
