//! One handler per command (the deadline verbs share one file, as do the host operations).
//! A handler takes its arguments from [`super::args`], calls the engine, which decides
//! everything about the game, prints through [`super::output`], and returns the exit code.

pub mod conclude;
pub mod demo;
pub mod dice;
pub mod host;
pub mod ingest;
pub mod keygen;
pub mod map;
pub mod new;
pub mod odds;
pub mod process;
pub mod publish;
pub mod remind;
pub mod report;
pub mod schedule;
pub mod send;
pub mod sign;
pub mod simulate;
pub mod status;
pub mod submit;
pub mod template;
pub mod verify;
pub mod view;
