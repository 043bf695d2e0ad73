//! The `pbem` command line: `args` says what it accepts, `cmd` has one handler per command,
//! `output` prints. No rule of the game lives here: handlers parse and print, the engine
//! decides.

mod args;
mod cmd;
mod output;

pub use args::Cli;
use args::Command;
use clap::Parser;

use crate::engine::{Error, exit};

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            };
            let _ = e.print();
            return code;
        }
    };
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pbem: {e}");
            e.exit_code()
        }
    }
}

fn run(command: Command) -> Result<i32, Error> {
    match command {
        Command::Keygen(a) => cmd::keygen::run(a),
        Command::New(a) => cmd::new::run(a),
        Command::Status(a) => cmd::status::run(a),
        Command::Template(a) => cmd::template::run(a),
        Command::Sign(a) => cmd::sign::run(a),
        Command::Submit(a) => cmd::submit::run(a),
        Command::Process(a) => cmd::process::run(a),
        Command::Pause(a) => cmd::schedule::pause(a),
        Command::Resume(a) => cmd::schedule::resume(a),
        Command::Extend(a) => cmd::schedule::extend(a),
        Command::Ingest(a) => cmd::ingest::run(a),
        Command::Send(a) => cmd::send::run(a),
        Command::Remind(a) => cmd::remind::run(a),
        Command::View(a) => cmd::view::run(a),
        Command::Map(a) => cmd::map::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Conclude(a) => cmd::conclude::run(a),
        Command::Host(a) => cmd::host::run(a.op),
        Command::Publish(a) => cmd::publish::run(a),
        Command::Dice(a) => cmd::dice::run(a),
        Command::Odds(a) => cmd::odds::run(a),
        Command::Demo(a) => cmd::demo::run(a),
        Command::Simulate(a) => cmd::simulate::run(a),
    }
}
