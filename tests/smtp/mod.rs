//! Test support for play by email: a real SMTP server on 127.0.0.1 (server.py, aiosmtpd), a
//! kummen game with mail turned on, and helpers to write and read messages.
#![allow(dead_code)]

pub mod game;
pub mod letters;
pub mod server;
