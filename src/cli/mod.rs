//! The `pbem` command line: parses arguments and calls the engine. No logic lives here.

use crate::engine::{self, Error, exit};
use crate::protocol::envelope;
use crate::protocol::keys::{self, PublicKey, SecretKey};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

mod mail;
mod schedule;

const EXIT_CODES: &str = "Exit codes: 0 done; 1 failure (I/O, damaged game); 2 usage error; \
3 waiting for orders; 4 input rejected (nothing changed); 5 verification failed.";

#[derive(Parser)]
#[command(
    name = "pbem",
    version,
    about = "Turn processor for play-by-email and play-by-git wargames: signed orders, \
             commit-reveal dice anyone can recompute, per-player hidden views.",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of the largest variant (`new`) does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Make an ed25519 key pair in OpenSSH format (PATH mode 0600 and PATH.pub).
    Keygen {
        /// Where to write the private key; the public key goes to PATH.pub.
        #[arg(long)]
        out: PathBuf,
        /// Comment stored in the key (e.g. your name or email).
        #[arg(long, default_value = "pbem player")]
        comment: String,
        /// Encrypt the key with the passphrase in this file (or set PBEM_PASSPHRASE).
        #[arg(long)]
        passphrase_file: Option<PathBuf>,
    },
    /// Create a game directory: host key, genesis record, host commitment for step 1, views.
    New {
        /// The game directory to create (must not exist, or be empty).
        dir: PathBuf,
        /// Rule set: kummen (the others are coming).
        #[arg(long)]
        system: String,
        /// Scenario of the system (default: its first).
        #[arg(long)]
        scenario: Option<String>,
        /// A seat: SIDE=PATH to the player's public key (.pub, OpenSSH ed25519). Once per side.
        #[arg(long = "seat", value_name = "SIDE=KEY.pub", required = true)]
        seats: Vec<String>,
        /// A player's display name: SIDE=NAME.
        #[arg(long = "name", value_name = "SIDE=NAME")]
        names: Vec<String>,
        /// A player's email address: SIDE=ADDRESS.
        #[arg(long = "email", value_name = "SIDE=ADDRESS")]
        emails: Vec<String>,
        /// Game id (default: SYSTEM-<8 random hex digits>).
        #[arg(long)]
        id: Option<String>,
        /// Directory of data files replacing the built-in stand-ins (same names and format).
        #[arg(long)]
        data: Option<PathBuf>,
        /// The host's mail address (From of every mail, where players send orders); turns
        /// play by email on. `Name <address>` or a bare address.
        #[arg(long, value_name = "ADDRESS")]
        mail_from: Option<String>,
        /// An observer's address: gets the public report after every step. Repeatable.
        #[arg(long = "observer", value_name = "ADDRESS")]
        observers: Vec<String>,
        /// How long each step stays open, e.g. 72h or 3d (a day is 24 hours).
        #[arg(long, value_name = "DURATION")]
        step_duration: Option<String>,
        /// The deadline falls on this time of day (e.g. 20:00), the first after
        /// --step-duration (if given) has passed; in --deadline-tz (default UTC).
        #[arg(long, value_name = "HH:MM")]
        deadline_at: Option<String>,
        /// The IANA time zone of --deadline-at, e.g. Europe/Oslo.
        #[arg(long, value_name = "ZONE", requires = "deadline_at")]
        deadline_tz: Option<String>,
        /// Orders still count this long after the deadline, e.g. 2h.
        #[arg(long, value_name = "DURATION")]
        grace: Option<String>,
        /// Remind players with missing orders this long before the deadline, e.g. 24h.
        #[arg(long, value_name = "DURATION")]
        remind_before: Option<String>,
        /// When step 1 opens, RFC 3339 (default: now). For tests and replays.
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
    /// Where the game stands: open step, who must still submit, what is in.
    Status {
        dir: PathBuf,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// The time to measure the deadline against, RFC 3339 (default: now).
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
    /// Print an order skeleton for the open step with the legal choices as comments.
    Template {
        dir: PathBuf,
        #[arg(long)]
        side: String,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        out: Option<PathBuf>,
    },
    /// Sign an order file with your key (fills in `entropy: auto` with fresh random bytes).
    Sign {
        file: PathBuf,
        /// Your private key (OpenSSH ed25519, e.g. ~/.ssh/id_ed25519).
        #[arg(long)]
        key: PathBuf,
        /// Write the signed file here instead of standard output.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// File holding the key's passphrase (or set PBEM_PASSPHRASE).
        #[arg(long)]
        passphrase_file: Option<PathBuf>,
    },
    /// Check a signed order and file it for the open step; prints the host-signed receipt.
    Submit {
        dir: PathBuf,
        /// The order: one signed file, or a plain file with its ssh-keygen signature FILE.sig.
        file: PathBuf,
        /// Detached signature (default: FILE.sig when it exists).
        #[arg(long)]
        sig: Option<PathBuf>,
        /// Also write the receipt to this file.
        #[arg(long)]
        receipt: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Resolve the open step when every order it needs is in, or when its deadline (plus
    /// grace) has passed and game.yaml's missed_orders policy allows it (exit 3 while
    /// waiting); with mail on, queues each side's view and the report in outbox/. With --all,
    /// sweeps every game under a directory (for cron; see docs/hosting.md).
    Process {
        /// The game directory (or use --all ROOT).
        #[arg(required_unless_present = "all")]
        dir: Option<PathBuf>,
        /// Sweep every game directory under ROOT: process those that are due, one line per
        /// game. Exit 1 if any game failed, else 3 if any was busy or held, else 0.
        #[arg(long, value_name = "ROOT", conflicts_with_all = ["dir", "force_defaults"])]
        all: Option<PathBuf>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
        /// The current time, RFC 3339 (default: now): decides whether deadlines have passed,
        /// is when the next step opens, and the Date of its mails.
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Once the deadline has passed, give every side whose orders are missing the system's
        /// default orders, whatever missed_orders says (the journal records it). In a game
        /// without deadlines, at once.
        #[arg(long)]
        force_defaults: bool,
        /// With --all: also process games whose deadline passed more than --max-late ago
        /// (after an outage); without it they are reported as held.
        #[arg(long, requires = "all")]
        catch_up: bool,
        /// With --all: the outage guard, how long after deadline + grace a sweep still
        /// processes without --catch-up.
        #[arg(long, value_name = "DURATION", requires = "all",
              default_value = engine::sweep::DEFAULT_MAX_LATE)]
        max_late: String,
    },
    /// Stop the deadlines of a game (recorded in the journal with the reason).
    Pause {
        /// The game directory.
        dir: PathBuf,
        /// Why; published in the journal and the report.
        #[arg(long)]
        reason: String,
        /// The current time, RFC 3339 (default: now).
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Let the deadlines of a paused game run again; the open step's deadline moves by the
    /// time the game was paused (recorded in the journal).
    Resume {
        /// The game directory.
        dir: PathBuf,
        /// Why; published in the journal and the report.
        #[arg(long)]
        reason: String,
        /// The current time, RFC 3339 (default: now).
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Move the open step's deadline later (recorded in the journal; never earlier).
    Extend {
        /// The game directory.
        dir: PathBuf,
        /// The new deadline: RFC 3339 (2026-05-04T20:00:00+02:00) or a time in a named zone
        /// (2026-05-04T20:00[Europe/Oslo]).
        #[arg(
            long,
            value_name = "TIME",
            required_unless_present = "by",
            conflicts_with = "by"
        )]
        until: Option<String>,
        /// Add this to the current deadline, e.g. 24h or 2d.
        #[arg(long, value_name = "DURATION")]
        by: Option<String>,
        /// Why; published in the journal and the report.
        #[arg(long)]
        reason: String,
        /// The current time, RFC 3339 (default: now).
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Read incoming mail: one message from standard input (an MTA pipe, procmail, .forward),
    /// a file, or every new message of a Maildir (each moves to cur/ once handled). Orders are
    /// filed as `submit` files them and answered in outbox/ (a receipt, or what to fix);
    /// automatic mail (bounces, auto-replies, lists, spam) is recorded and never answered.
    /// Exit 1 when a message could not be handled (it is left for the next run).
    Ingest {
        /// A game directory, or a directory of games (found by the subject tag [pbem ID] or
        /// the order's own game id).
        dir: PathBuf,
        /// Read every message in this Maildir's new/.
        #[arg(long, conflicts_with = "file")]
        maildir: Option<PathBuf>,
        /// Read one message from this file (default: standard input).
        #[arg(long)]
        file: Option<PathBuf>,
        /// Refuse messages above this many bytes without reading them whole.
        #[arg(long, value_name = "BYTES", default_value_t = engine::mail::DEFAULT_MAX_MESSAGE_BYTES)]
        max_size: u64,
        /// The current time, RFC 3339 (default: now): the Date of the answers.
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Deliver the outbox (after queueing any turn mail still missing). A message leaves
    /// outbox/ only once the server accepted it; a failure keeps it with its error in
    /// outbox/KEY.error for the next run (exit 1). Delivery is at least once; a repeat carries
    /// the same Message-ID. Credentials come from the config file or the environment only.
    Send {
        /// A game directory, or a directory of games.
        dir: PathBuf,
        /// Transport configuration (YAML with one of smtp:, sendmail:, directory:; see
        /// docs/mail.md). Default: the file named by $PBEM_MAIL_CONFIG.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Deliver into this directory instead (DIR/KEY.eml per message).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "sendmail"])]
        to_dir: Option<PathBuf>,
        /// Deliver through this sendmail-compatible program instead.
        #[arg(long, value_name = "PROGRAM", conflicts_with = "config")]
        sendmail: Option<PathBuf>,
        /// The current time, RFC 3339 (default: now): the Date of mail queued by this run.
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Queue one reminder per side whose orders are missing once the reminder time has come
    /// (game.yaml deadline.step minus deadline.remind_before, from when the step opened).
    Remind {
        /// A game directory, or a directory of games.
        dir: PathBuf,
        /// The current time, RFC 3339 (default: now).
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
        /// Machine-readable output (JSON).
        #[arg(long)]
        json: bool,
    },
    /// Print what one side may see.
    View {
        dir: PathBuf,
        #[arg(long)]
        side: String,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Print the public report of the newest (or a given) journal record.
    Report {
        dir: PathBuf,
        /// Journal record number (default: the newest).
        #[arg(long)]
        record: Option<u64>,
    },
    /// Audit the game: hash chain, commitments, seeds and dice; with host/ present also
    /// signatures, bindings, receipts and a replay of every step (exit 5 on any discrepancy).
    Verify {
        dir: PathBuf,
        /// Only what anyone can check from the journal and game.yaml.
        #[arg(long)]
        public_only: bool,
        /// Your own order files and receipts, to check they are in the journal (player level).
        #[arg(long = "player", value_name = "FILE")]
        player: Vec<PathBuf>,
        /// Require the full replay from genesis (host/, or the archive/ of a concluded game).
        #[arg(long, conflicts_with = "public_only")]
        full: bool,
        #[arg(long)]
        json: bool,
    },
    /// After the game is over: publish the sealed archive (secrets, states, orders, sealed
    /// draws) so anyone can run `verify --full`.
    Conclude { dir: PathBuf },
    /// Host operations between steps; each one is a public journal record with its reason.
    Host {
        #[command(subcommand)]
        op: HostCommand,
    },
    /// Commit the public part of the game (game.yaml, journal/, reports/; archive/ once
    /// concluded) to a git repository, one commit per new journal record. REPO may be the game
    /// directory itself (a .gitignore keeps host/, views/, inbox/, outbox/, mail/ out).
    Publish {
        dir: PathBuf,
        /// The repository (created with `git init` when it has no .git).
        #[arg(long, value_name = "REPO")]
        git_repo: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List the public dice, or explain how one die was derived (--step and --label).
    Dice {
        dir: PathBuf,
        #[arg(long)]
        step: Option<u64>,
        /// Explain this die: seed parts, stream key, words drawn, faces.
        #[arg(long, requires = "step")]
        label: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Exact chance of an attack: `pbem odds kummen 9 4`, or with a game's units as one side
    /// sees them: `pbem odds --game DIR --side beeler B#7 M-AT03`.
    Odds {
        /// The question: kummen takes ATTACK DEFENSE (numbers), or ATTACKER TARGET (unit ids or
        /// your own tokens) with --game; dougram takes `roll V`, `check T`, `federal N`, or with
        /// --game `combat HEX` and `federal`. Without --game the first word is the system.
        #[arg(num_args = 1..=3, required = true)]
        words: Vec<String>,
        /// A game directory whose units the question names.
        #[arg(long, requires = "side")]
        game: Option<PathBuf>,
        /// The side asking: only what it may see is used.
        #[arg(long, requires = "game")]
        side: Option<String>,
    },
    /// Play a scripted game of a system in a temporary directory and verify it.
    Demo {
        /// The system to play.
        #[arg(default_value = "kummen")]
        system: String,
        /// Keep the game in this directory instead of a temporary one.
        #[arg(long)]
        keep: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum HostCommand {
    /// Replace a side's public key (a lost key). Orders from then on must be signed with the
    /// new key; earlier orders keep verifying with the old one.
    ReplaceKey {
        dir: PathBuf,
        #[arg(long)]
        side: String,
        /// The new public key (.pub, OpenSSH ed25519).
        #[arg(long, value_name = "NEW.pub")]
        key: PathBuf,
        /// Why (published in the journal and the report).
        #[arg(long)]
        reason: String,
        /// The current time, RFC 3339 (default: now): the Date of the mails it queues.
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
    /// Hand a side over to a new player with a new key (and name and email).
    HandOver {
        dir: PathBuf,
        #[arg(long)]
        side: String,
        #[arg(long, value_name = "NEW.pub")]
        key: PathBuf,
        /// The new player's name (default: the seat's).
        #[arg(long)]
        name: Option<String>,
        /// The new player's address (default: the seat's).
        #[arg(long)]
        email: Option<String>,
        #[arg(long)]
        reason: String,
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
    /// Return the game to the state after journal record RECORD; the step then open gets a
    /// new step number (orders for abandoned steps are void). Later records stay published.
    Rollback {
        dir: PathBuf,
        #[arg(long, value_name = "RECORD")]
        to: u64,
        #[arg(long)]
        reason: String,
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Yaml,
}

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

/// Standard output that stops quietly when the reader goes away (`pbem report | head`): the
/// rest of the output is dropped, which is what a pipeline's reader asked for.
struct Stdout {
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

fn stdout() -> Stdout {
    Stdout { closed: false }
}

fn print(s: &str) -> Result<(), Error> {
    let mut out = stdout();
    out.write_all(s.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Error::Fail(format!("stdout: {e}")))
}

fn json<T: serde::Serialize>(v: &T) -> Result<(), Error> {
    print(&(serde_json::to_string_pretty(v).map_err(|e| Error::Fail(e.to_string()))? + "\n"))
}

fn pair(arg: &str, flag: &str) -> Result<(String, String), Error> {
    arg.split_once('=')
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| Error::Fail(format!("{flag} {arg:?}: expected SIDE=VALUE")))
}

fn write_or_print(out: Option<&Path>, bytes: &[u8]) -> Result<(), Error> {
    match out {
        Some(p) => engine::dir::write_atomic(p, bytes),
        None => {
            let mut o = stdout();
            o.write_all(bytes)
                .and_then(|_| o.flush())
                .map_err(|e| Error::Fail(format!("stdout: {e}")))
        }
    }
}

/// A new folder for keys, readable by its owner only (like ~/.ssh).
fn create_private_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

fn key_error(e: keys::KeyError) -> Error {
    Error::Fail(e.to_string())
}

fn run(cmd: Command) -> Result<i32, Error> {
    match cmd {
        Command::Keygen {
            out,
            comment,
            passphrase_file,
        } => {
            let pass = engine::keyfiles::passphrase_from_env_or_file(passphrase_file.as_deref())
                .map_err(key_error)?;
            let key = SecretKey::generate(&comment).map_err(key_error)?;
            if let Some(parent) = out
                .parent()
                .filter(|p| !p.as_os_str().is_empty() && !p.exists())
            {
                create_private_dir(parent)?;
            }
            key.write(&out, pass.as_deref()).map_err(key_error)?;
            print(&format!(
                "wrote {} and {}.pub\n{}\n",
                out.display(),
                out.display(),
                key.public().fingerprint()
            ))?;
        }
        Command::New {
            dir,
            system,
            scenario,
            seats,
            names,
            emails,
            id,
            data,
            mail_from,
            observers,
            step_duration,
            deadline_at,
            deadline_tz,
            grace,
            remind_before,
            now,
        } => {
            let now = engine::mail::clock::now_or(now.as_deref())?;
            let duration = |flag: &str, v: Option<String>| -> Result<_, Error> {
                v.map(|t| {
                    t.parse::<engine::config::Duration>()
                        .map_err(|e| Error::Fail(format!("{flag}: {e}")))
                })
                .transpose()
            };
            let step = duration("--step-duration", step_duration)?;
            let at = deadline_at
                .map(|t| {
                    t.parse::<engine::config::TimeOfDay>()
                        .map_err(|e| Error::Fail(format!("--deadline-at: {e}")))
                })
                .transpose()?;
            let tz = deadline_tz
                .map(|t| {
                    t.parse::<engine::config::Zone>()
                        .map_err(|e| Error::Fail(format!("--deadline-tz: {e}")))
                })
                .transpose()?;
            let grace = duration("--grace", grace)?;
            let remind_before = duration("--remind-before", remind_before)?;
            let deadline = if step.is_some() || at.is_some() {
                Some(engine::config::DeadlineConfig {
                    step,
                    at,
                    tz,
                    grace,
                    remind_before,
                })
            } else if grace.is_some() || remind_before.is_some() {
                return Err(Error::Fail(
                    "--grace and --remind-before need a deadline: give --step-duration and/or --deadline-at".into(),
                ));
            } else {
                None
            };
            let mut keyed = Vec::new();
            for s in &seats {
                let (side, path) = pair(s, "--seat")?;
                let key = PublicKey::read(Path::new(&path)).map_err(key_error)?;
                keyed.push((side, key));
            }
            let names = names
                .iter()
                .map(|n| pair(n, "--name"))
                .collect::<Result<_, _>>()?;
            let emails = emails
                .iter()
                .map(|n| pair(n, "--email"))
                .collect::<Result<_, _>>()?;
            let game = engine::new::create(engine::new::NewGame {
                dir: dir.clone(),
                system,
                scenario,
                seats: keyed,
                names,
                emails,
                id,
                data,
                mail: engine::config::MailConfig {
                    from: mail_from.unwrap_or_default(),
                    observers,
                },
                deadline,
            })?;
            engine::mail::turn::after_record(&game, now)?;
            // The opening time is recorded now: the text views show the deadline it gives.
            engine::views::refresh(&game)?;
            let st = engine::status::status(&game)?;
            print(&format!(
                "created game {} in {}\n{}",
                game.config.id,
                dir.display(),
                st.text()
            ))?;
        }
        Command::Status {
            dir,
            json: as_json,
            now,
        } => {
            let game = engine::game::Game::open(&dir)?;
            let now = engine::mail::clock::now_or(now.as_deref())?;
            let st = engine::status::status(&game)?.at(now);
            if as_json {
                json(&st)?
            } else {
                print(&st.text())?
            }
        }
        Command::Template { dir, side, out } => {
            let game = engine::game::Game::open(&dir)?;
            let entropy =
                crate::protocol::hash::Hash32::random().map_err(|e| Error::Fail(e.to_string()))?;
            let text = engine::order::template(&game, &side, Some(entropy))?;
            write_or_print(out.as_deref(), text.as_bytes())?;
        }
        Command::Sign {
            file,
            key,
            out,
            passphrase_file,
        } => {
            let pass = engine::keyfiles::passphrase_from_env_or_file(passphrase_file.as_deref())
                .map_err(key_error)?;
            let key = SecretKey::load(&key, pass.as_deref()).map_err(key_error)?;
            // An order over the limit would be refused by the host: refuse to sign it, without
            // reading more than just past the limit. The signature adds a few hundred bytes, so
            // the signed form is checked too.
            let too_large =
                |e: envelope::EnvelopeError| Error::Fail(format!("{}: {e}", file.display()));
            let bytes = envelope::read_capped(&file).map_err(|e| Error::io(&file, e))?;
            envelope::check_size(&bytes, "file", false).map_err(too_large)?;
            let signed = engine::order::sign(&bytes, &key)?;
            envelope::check_size(&signed, "signed file", true).map_err(too_large)?;
            write_or_print(out.as_deref(), &signed)?;
        }
        Command::Submit {
            dir,
            file,
            sig,
            receipt,
            json: as_json,
        } => {
            let game = engine::game::Game::open(&dir)?;
            let default_sig = PathBuf::from(format!("{}.sig", file.display()));
            let sig = sig.or_else(|| default_sig.exists().then_some(default_sig));
            let acc = engine::order::submit(&game, &file, sig.as_deref())?;
            if let Some(p) = receipt {
                engine::dir::write_atomic(&p, &acc.receipt)?;
            }
            if as_json {
                json(&serde_json::json!({
                    "side": acc.side, "step": acc.step, "order": acc.hash.hex(),
                    "replaced": acc.replaced.map(|h| h.hex()),
                    "receipt": String::from_utf8_lossy(&acc.receipt),
                }))?;
            } else {
                let mut s = format!(
                    "accepted: order {} of {} for step {}\n",
                    acc.hash, acc.side, acc.step
                );
                if let Some(r) = acc.replaced {
                    s.push_str(&format!("it replaces the earlier order {r}\n"));
                }
                s.push_str("receipt (keep it: it proves the host accepted this order):\n");
                s.push_str(&String::from_utf8_lossy(&acc.receipt));
                print(&s)?;
            }
        }
        Command::Process {
            dir,
            all,
            json: as_json,
            now,
            force_defaults,
            catch_up,
            max_late,
        } => {
            let now = engine::mail::clock::now_or(now.as_deref())?;
            let dir = match (all, dir) {
                (Some(root), _) => {
                    return schedule::process_all(&root, now, catch_up, &max_late, as_json);
                }
                (None, Some(d)) => d,
                (None, None) => {
                    return Err(Error::Fail("give a game directory or --all ROOT".into()));
                }
            };
            let outcome = engine::process::process_with(
                &dir,
                now,
                engine::process::Options { force_defaults },
            );
            match outcome {
                Ok(Some(p)) => {
                    if as_json {
                        json(&serde_json::json!({
                            "processed": true, "record": p.seq, "step": p.step, "title": p.title,
                            "head": p.head.hex(),
                            "next_step": p.next.as_ref().map(|n| n.step),
                            "waiting_for": p.next.as_ref().map(|n| n.waiting_for.clone()).unwrap_or_default(),
                            "outcome": p.outcome,
                        }))?;
                    } else {
                        let mut s = format!(
                            "processed step {} ({}); journal head {}\n",
                            p.step, p.title, p.head
                        );
                        match (&p.next, &p.outcome) {
                            (Some(n), _) => s.push_str(&format!(
                                "next: step {} ({}), waiting for {}\n",
                                n.step,
                                n.title,
                                n.waiting_for.join(", ")
                            )),
                            (None, Some(o)) => s.push_str(&format!("the game is over: {o}\n")),
                            (None, None) => s.push_str("the game is over\n"),
                        }
                        print(&s)?;
                    }
                }
                Ok(None) => {
                    if as_json {
                        json(&serde_json::json!({"processed": false, "finished": true}))?
                    } else {
                        print("the game is over; nothing to process\n")?
                    }
                }
                Err(Error::Waiting(m)) if as_json => {
                    json(&serde_json::json!({"processed": false, "waiting": m}))?;
                    return Ok(exit::WAITING);
                }
                Err(e) => return Err(e),
            }
        }
        Command::View { dir, side, format } => {
            let game = engine::game::Game::open(&dir)?;
            if game.config.seat(&side).is_none() {
                return Err(Error::Fail(format!(
                    "no side {side:?}; sides: {}",
                    game.config.side_names().join(", ")
                )));
            }
            let (yaml, text) = engine::views::side_view(&game, &side)?;
            print(match format {
                Format::Text => &text,
                Format::Yaml => &yaml,
            })?;
        }
        Command::Report { dir, record } => {
            let game = engine::game::Game::open(&dir)?;
            print(&engine::views::report_text(
                &game,
                record.unwrap_or(game.last_seq()),
            )?)?;
        }
        Command::Odds { words, game, side } => {
            let answer = match (game, side) {
                (Some(dir), Some(side)) => {
                    let game = engine::game::Game::open(&dir)?;
                    if game.config.seat(&side).is_none() {
                        return Err(Error::Fail(format!(
                            "no side {side:?}; sides: {}",
                            game.config.side_names().join(", ")
                        )));
                    }
                    let state = game.state()?;
                    game.system
                        .odds(Some(&state), &crate::systems::Reader::Side(side), &words)
                }
                _ => {
                    let (system, rest) = words
                        .split_first()
                        .ok_or_else(|| Error::Fail("give a system and two values".into()))?;
                    crate::systems::by_id(system)?.odds(None, &crate::systems::Reader::Public, rest)
                }
            };
            print(&answer.map_err(Error::Fail)?)?;
        }
        Command::Host { op } => {
            let done = match op {
                HostCommand::ReplaceKey {
                    dir,
                    side,
                    key,
                    reason,
                    now,
                } => {
                    let now = engine::mail::clock::now_or(now.as_deref())?;
                    let key = PublicKey::read(&key).map_err(key_error)?;
                    engine::ops::replace_key(&dir, &side, &key, &reason, now)?
                }
                HostCommand::HandOver {
                    dir,
                    side,
                    key,
                    name,
                    email,
                    reason,
                    now,
                } => {
                    let now = engine::mail::clock::now_or(now.as_deref())?;
                    let key = PublicKey::read(&key).map_err(key_error)?;
                    engine::ops::hand_over(
                        &dir,
                        &side,
                        &key,
                        name.as_deref(),
                        email.as_deref(),
                        &reason,
                        now,
                    )?
                }
                HostCommand::Rollback {
                    dir,
                    to,
                    reason,
                    now,
                } => {
                    let now = engine::mail::clock::now_or(now.as_deref())?;
                    engine::ops::rollback(&dir, to, &reason, now)?
                }
            };
            let mut s = format!(
                "record {}: {}\njournal head {}\n",
                done.seq, done.description, done.head
            );
            if !done.withdrawn.is_empty() {
                s.push_str(&format!(
                    "withdrawn from the inbox (their players must send them again): {}\n",
                    done.withdrawn.join(", ")
                ));
            }
            match &done.next {
                Some(n) => s.push_str(&format!(
                    "open: step {} ({}), waiting for {}\n",
                    n.step,
                    n.title,
                    n.waiting_for.join(", ")
                )),
                None => s.push_str("the game is over\n"),
            }
            print(&s)?;
        }
        Command::Publish {
            dir,
            git_repo,
            json: as_json,
        } => {
            let p = engine::git::publish(&dir, &git_repo)?;
            if as_json {
                json(&p)?
            } else if p.commits.is_empty() {
                print(&format!("{}: up to date\n", p.repo.display()))?
            } else {
                let mut s = String::new();
                for (_, msg) in &p.commits {
                    s.push_str(&format!("committed: {msg}\n"));
                }
                print(&s)?
            }
        }
        Command::Conclude { dir } => {
            let c = engine::conclude::conclude(&dir)?;
            if c.already {
                print(&format!(
                    "already concluded (record {}, journal head {})\n",
                    c.seq, c.head
                ))?;
            } else {
                print(&format!(
                    "concluded: record {} reveals the host secrets; archive/ holds {} files; journal head {}\n",
                    c.seq, c.files, c.head
                ))?;
            }
        }
        Command::Verify {
            dir,
            public_only,
            player,
            full,
            json: as_json,
        } => {
            let opts = engine::verify::Options {
                player_files: player,
                public_only,
                full,
            };
            match engine::verify::verify(&dir, &opts) {
                Ok(t) => {
                    if as_json {
                        json(&serde_json::json!({"ok": true, "summary": t.summary()}))?
                    } else {
                        print(&format!("verified: {}\n", t.summary()))?
                    }
                }
                Err(Error::Verify(f)) if as_json => {
                    json(&serde_json::json!({"ok": false, "findings": f}))?;
                    return Ok(exit::VERIFY_FAILED);
                }
                Err(e) => return Err(e),
            }
        }
        Command::Dice {
            dir,
            step,
            label,
            json: as_json,
        } => {
            let game = engine::game::Game::open(&dir)?;
            match (step, label) {
                (Some(step), Some(label)) => {
                    print(&engine::dice_info::explain(&game, step, &label)?)?
                }
                (step, _) => {
                    let lines = engine::dice_info::list(&game, step);
                    if as_json {
                        json(&lines)?
                    } else {
                        let mut s = String::new();
                        for d in lines {
                            let result = if d.result.is_empty() {
                                String::new()
                            } else {
                                format!("  {}", d.result)
                            };
                            s.push_str(&format!(
                                "step {} {}: {}d{} {:?}{result}\n",
                                d.step,
                                d.label,
                                d.values.len(),
                                d.faces,
                                d.values
                            ));
                        }
                        print(&s)?;
                    }
                }
            }
        }
        Command::Ingest {
            dir,
            maildir,
            file,
            max_size,
            now,
            json: as_json,
        } => return mail::ingest(&dir, maildir, file, max_size, now, as_json),
        Command::Send {
            dir,
            config,
            to_dir,
            sendmail,
            now,
            json: as_json,
        } => return mail::send(&dir, config, to_dir, sendmail, now, as_json),
        Command::Remind {
            dir,
            now,
            json: as_json,
        } => return mail::remind(&dir, now, as_json),
        Command::Pause {
            dir,
            reason,
            now,
            json: as_json,
        } => return schedule::pause(&dir, &reason, now, as_json),
        Command::Resume {
            dir,
            reason,
            now,
            json: as_json,
        } => return schedule::resume(&dir, &reason, now, as_json),
        Command::Extend {
            dir,
            until,
            by,
            reason,
            now,
            json: as_json,
        } => return schedule::extend(&dir, until, by, &reason, now, as_json),
        Command::Demo { system, keep } => {
            engine::demo::run(&system, keep.as_deref(), &mut stdout())?;
        }
    }
    Ok(exit::OK)
}
