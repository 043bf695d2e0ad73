//! The engine: game directory, steps, processing, views and audit. It knows no rule: every
//! rule question goes through [`crate::systems::System`].

pub mod bots;
pub mod cache;
pub mod conclude;
pub mod config;
pub mod demo;
pub mod dice_info;
pub mod dir;
pub mod game;
pub mod git;
pub mod hostop;
pub mod keyfiles;
pub mod mail;
pub mod new;
pub mod odds;
pub mod ops;
pub mod order;
pub mod par;
pub mod picture;
pub mod process;
pub mod schedule;
pub mod simulate;
pub mod start;
pub mod status;
pub mod step;
pub mod summary;
pub mod sweep;
pub mod verify;
pub mod views;

use crate::yaml::Rejection;
use std::fmt;
use std::path::Path;

/// Exit codes, documented in `pbem --help` and docs/cli.md.
pub mod exit {
    pub const OK: i32 = 0;
    pub const FAILURE: i32 = 1;
    pub const USAGE: i32 = 2;
    pub const WAITING: i32 = 3;
    pub const REJECTED: i32 = 4;
    pub const VERIFY_FAILED: i32 = 5;
}

/// Everything that can stop a command, sorted by what the caller should do about it.
#[derive(Debug)]
pub enum Error {
    /// The input (an order, a key, a file) was refused; nothing in the game changed.
    Rejected(Vec<Rejection>),
    /// The step cannot be resolved yet.
    Waiting(String),
    /// `verify` found discrepancies; each names the record and field.
    Verify(Vec<String>),
    /// Anything else: I/O, a damaged game directory, a bad command line value.
    Fail(String),
}

impl Error {
    pub fn io(path: &Path, e: std::io::Error) -> Error {
        Error::Fail(format!("{}: {e}", path.display()))
    }

    pub fn reject(r: Rejection) -> Error {
        Error::Rejected(vec![r])
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Rejected(_) => exit::REJECTED,
            Error::Waiting(_) => exit::WAITING,
            Error::Verify(_) => exit::VERIFY_FAILED,
            Error::Fail(_) => exit::FAILURE,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rejected(rs) => {
                // Capped here too, whoever built the list: the first yaml::MAX_REPORTED
                // problems and a count of the rest.
                let (all, _) = crate::yaml::count(rs);
                let plural = if all == 1 { "" } else { "s" };
                let listed: Vec<&Rejection> = rs
                    .iter()
                    .filter(|r| r.omitted == 0)
                    .take(crate::yaml::MAX_REPORTED)
                    .collect();
                if listed.len() < all {
                    writeln!(
                        f,
                        "rejected: {all} problem{plural} (the first {} are listed)",
                        listed.len()
                    )?;
                } else {
                    writeln!(f, "rejected: {all} problem{plural}")?;
                }
                for r in &listed {
                    writeln!(f, "{r}")?;
                }
                if listed.len() < all {
                    let more = Rejection::more("", all - listed.len());
                    writeln!(f, "{more}")?;
                }
                write!(f, "nothing was changed in the game")
            }
            Error::Waiting(m) => write!(f, "{m}"),
            Error::Verify(fs) => {
                writeln!(
                    f,
                    "verification FAILED: {} discrepanc{}",
                    fs.len(),
                    if fs.len() == 1 { "y" } else { "ies" }
                )?;
                for x in fs {
                    writeln!(f, "  {x}")?;
                }
                Ok(())
            }
            Error::Fail(m) => write!(f, "{m}"),
        }
    }
}

impl From<String> for Error {
    fn from(s: String) -> Error {
        Error::Fail(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_rejections_displays_the_first_50_and_counts_the_rest() {
        let rs: Vec<Rejection> = (0..70)
            .map(|i| Rejection::new("o.yaml", format!("problem {i}")))
            .collect();
        let text = Error::Rejected(rs).to_string();
        assert!(text.starts_with("rejected: 70 problems (the first 50 are listed)\n"));
        assert!(text.contains("o.yaml: problem 49\n"), "{text}");
        assert!(!text.contains("problem 50"), "{text}");
        assert!(text.ends_with("\n... and 20 more problems\nnothing was changed in the game"));
    }

    #[test]
    fn a_capped_list_displays_its_total() {
        let rs = crate::yaml::capped(
            (0..120)
                .map(|i| Rejection::new("o.yaml", format!("problem {i}")))
                .collect(),
        );
        let text = Error::Rejected(rs).to_string();
        assert!(text.starts_with("rejected: 120 problems (the first 50 are listed)\n"));
        assert_eq!(text.matches("more problems").count(), 1, "{text}");
        assert!(text.contains("\n... and 70 more problems\n"), "{text}");
    }
}
