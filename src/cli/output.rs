//! Everything `pbem` prints on standard output goes through here: text, pretty JSON, or bytes to
//! a file given with `-o`.

use crate::engine::{self, Error};
use clap::ValueEnum;
use std::io::Write;
use std::path::Path;

/// Standard output that stops quietly when the reader goes away (`pbem report | head`): the
/// rest of the output is dropped, which is what a pipeline's reader asked for.
pub struct Stdout {
    closed: bool,
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.closed {
            match std::io::stdout().lock().write_all(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.closed = true,
                other => other?,
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match std::io::stdout().lock().flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

pub fn stdout() -> Stdout {
    Stdout { closed: false }
}

pub fn print(s: &str) -> Result<(), Error> {
    print_bytes(s.as_bytes())
}

fn print_bytes(bytes: &[u8]) -> Result<(), Error> {
    let mut out = stdout();
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|e| Error::Fail(format!("stdout: {e}")))
}

/// `v` as pretty JSON and a newline (`--json`).
pub fn json<T: serde::Serialize>(v: &T) -> Result<(), Error> {
    print(&(serde_json::to_string_pretty(v).map_err(|e| Error::Fail(e.to_string()))? + "\n"))
}

/// `bytes` into the file `out` (replaced atomically) when one was given, else on standard output.
pub fn write_or_print(out: Option<&Path>, bytes: &[u8]) -> Result<(), Error> {
    match out {
        Some(p) => engine::dir::write_atomic(p, bytes),
        None => print_bytes(bytes),
    }
}

/// The form of a view (`pbem view --format`).
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Yaml,
}

impl Format {
    /// The one of the two forms this format names.
    pub fn pick<'a>(self, text: &'a str, yaml: &'a str) -> &'a str {
        match self {
            Format::Text => text,
            Format::Yaml => yaml,
        }
    }
}
