//! What `pbem` accepts: the commands, their arguments and their help texts (clap). Each command
//! has one struct, named like it, that its handler in [`super::cmd`] takes. A command's help is
//! the doc comment on its variant, which wins over one on the struct: the structs have none, so
//! each help text is written once.

use super::output::Format;
use crate::engine;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

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
    pub(super) command: Command,
}

// Parsed once per run: the size of the largest variant (`new`) does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Make an ed25519 key pair in OpenSSH format (PATH mode 0600 and PATH.pub).
    Keygen(Keygen),
    /// Create a game directory: host key, genesis record, host commitment for step 1, views.
    New(New),
    /// Where the game stands: open step, who must still submit, what is in.
    Status(Status),
    /// Print an order skeleton for the open step with the legal choices as comments.
    Template(Template),
    /// Sign an order file with your key (fills in `entropy: auto` with fresh random bytes).
    Sign(Sign),
    /// Check a signed order and file it for the open step; prints the host-signed receipt.
    Submit(Submit),
    /// Resolve the open step when every order it needs is in, or when its deadline (plus
    /// grace) has passed and game.yaml's missed_orders policy allows it (exit 3 while
    /// waiting); with mail on, queues each side's view and the report in outbox/. With --all,
    /// sweeps every game under a directory (for cron; see docs/hosting.md).
    Process(Process),
    /// Stop the deadlines of a game (recorded in the journal with the reason).
    Pause(Pause),
    /// Let the deadlines of a paused game run again; the open step's deadline moves by the
    /// time the game was paused (recorded in the journal).
    Resume(Resume),
    /// Move the open step's deadline later (recorded in the journal; never earlier).
    Extend(Extend),
    /// Read incoming mail: one message from standard input (an MTA pipe, procmail, .forward),
    /// a file, or every new message of a Maildir (each moves to cur/ once handled). Orders are
    /// filed as `submit` files them and answered in outbox/ (a receipt, or what to fix);
    /// automatic mail (bounces, auto-replies, lists, spam) is recorded and never answered.
    /// Exit 1 when a message could not be handled (it is left for the next run).
    Ingest(Ingest),
    /// Deliver the outbox (after queueing any turn mail still missing). A message leaves
    /// outbox/ only once the server accepted it; a failure keeps it with its error in
    /// outbox/KEY.error for the next run (exit 1). Delivery is at least once; a repeat carries
    /// the same Message-ID. Credentials come from the config file or the environment only.
    Send(Send),
    /// Queue one reminder per side whose orders are missing once the reminder time has come
    /// (game.yaml deadline.step minus deadline.remind_before, from when the step opened).
    Remind(Remind),
    /// Print what one side may see.
    View(View),
    /// Draw the board as one side sees it (or the public board of the report) after the
    /// newest (or a given) journal record: an SVG, or a PNG (-o FILE.png or --format png).
    Map(Map),
    /// Print the public report of the newest (or a given) journal record.
    Report(Report),
    /// Audit the game: hash chain, commitments, seeds and dice; with host/ present also
    /// signatures, bindings, receipts and a replay of every step (exit 5 on any discrepancy).
    Verify(Verify),
    /// After the game is over: publish the sealed archive (secrets, states, orders, sealed
    /// draws) so anyone can run `verify --full`.
    Conclude(Conclude),
    /// Host operations between steps; each one is a public journal record with its reason.
    Host(Host),
    /// Commit the public part of the game (game.yaml, journal/, reports/; archive/ once
    /// concluded) to a git repository, one commit per new journal record. REPO may be the game
    /// directory itself (a .gitignore keeps host/, views/, inbox/, outbox/, mail/ out).
    Publish(Publish),
    /// List the public dice, or explain how one die was derived (--step and --label).
    Dice(Dice),
    /// Exact chance of an attack: `pbem odds kummen 9 4`, or with a game's units as one side
    /// sees them: `pbem odds --game DIR --side beeler B#7 M-AT03`.
    Odds(Odds),
    /// Play a scripted game of a system in a temporary directory and verify it.
    Demo(Demo),
    /// Play whole games bot against bot (no files) and report wins per side, game length, how
    /// games ended, errors and how many games reached each rule of the book. Exit 1 when any
    /// game had an error (a refused bot order, a failed step, a game that does not end).
    Simulate(Simulate),
}

#[derive(Args)]
pub struct Keygen {
    /// Where to write the private key; the public key goes to PATH.pub.
    #[arg(long)]
    pub out: PathBuf,
    /// Comment stored in the key (e.g. your name or email).
    #[arg(long, default_value = "pbem player")]
    pub comment: String,
    /// Encrypt the key with the passphrase in this file (or set PBEM_PASSPHRASE).
    #[arg(long)]
    pub passphrase_file: Option<PathBuf>,
}

/// `what`, then the systems registered in this pbem ([`crate::systems::all`]) with their titles:
/// the help names what this build can play, never a list written by hand.
fn systems_help(what: &str) -> String {
    let systems: Vec<String> = crate::systems::all()
        .iter()
        .map(|s| format!("{}: {}", s.id(), s.title()))
        .collect();
    format!("{what}, one of: {}", systems.join("; "))
}

#[derive(Args)]
pub struct New {
    /// The game directory to create (must not exist, or be empty).
    pub dir: PathBuf,
    /// Rule set (the help lists the systems this pbem has, from the registry).
    #[arg(long, help = systems_help("Rule set"))]
    pub system: String,
    /// Scenario of the system (default: its first).
    #[arg(long)]
    pub scenario: Option<String>,
    /// A seat: SIDE=PATH to the player's public key (.pub, OpenSSH ed25519), or SIDE=bot to
    /// have the host's bot play the side (SIDE=bot:NAME for another bot: default, random; a key
    /// file named bot is ./bot). Once per side.
    #[arg(long = "seat", value_name = "SIDE=KEY.pub|bot", required = true)]
    pub seats: Vec<String>,
    /// A player's display name: SIDE=NAME.
    #[arg(long = "name", value_name = "SIDE=NAME")]
    pub names: Vec<String>,
    /// A player's email address: SIDE=ADDRESS.
    #[arg(long = "email", value_name = "SIDE=ADDRESS")]
    pub emails: Vec<String>,
    /// Game id (default: SYSTEM-<8 random hex digits>).
    #[arg(long)]
    pub id: Option<String>,
    /// Directory of data files replacing the built-in stand-ins (same names and format).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The host's mail address (From of every mail, where players send orders); turns
    /// play by email on. `Name <address>` or a bare address.
    #[arg(long, value_name = "ADDRESS")]
    pub mail_from: Option<String>,
    /// An observer's address: gets the public report after every step. Repeatable.
    #[arg(long = "observer", value_name = "ADDRESS")]
    pub observers: Vec<String>,
    /// How long each step stays open, e.g. 72h or 3d (a day is 24 hours).
    #[arg(long, value_name = "DURATION")]
    pub step_duration: Option<String>,
    /// The deadline falls on this time of day (e.g. 20:00), the first after
    /// --step-duration (if given) has passed; in --deadline-tz (default UTC).
    #[arg(long, value_name = "HH:MM")]
    pub deadline_at: Option<String>,
    /// The IANA time zone of --deadline-at, e.g. Europe/Oslo.
    #[arg(long, value_name = "ZONE", requires = "deadline_at")]
    pub deadline_tz: Option<String>,
    /// Orders still count this long after the deadline, e.g. 2h.
    #[arg(long, value_name = "DURATION")]
    pub grace: Option<String>,
    /// Remind players with missing orders this long before the deadline, e.g. 24h.
    #[arg(long, value_name = "DURATION")]
    pub remind_before: Option<String>,
    /// When step 1 opens, RFC 3339 (default: now). For tests and replays.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args)]
pub struct Status {
    pub dir: PathBuf,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
    /// The time to measure the deadline against, RFC 3339 (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args)]
pub struct Template {
    pub dir: PathBuf,
    #[arg(long)]
    pub side: String,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct Sign {
    pub file: PathBuf,
    /// Your private key (OpenSSH ed25519, e.g. ~/.ssh/id_ed25519).
    #[arg(long)]
    pub key: PathBuf,
    /// Write the signed file here instead of standard output.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// File holding the key's passphrase (or set PBEM_PASSPHRASE).
    #[arg(long)]
    pub passphrase_file: Option<PathBuf>,
}

#[derive(Args)]
pub struct Submit {
    pub dir: PathBuf,
    /// The order: one signed file, or a plain file with its ssh-keygen signature FILE.sig.
    pub file: PathBuf,
    /// Detached signature (default: FILE.sig when it exists).
    #[arg(long)]
    pub sig: Option<PathBuf>,
    /// Also write the receipt to this file.
    #[arg(long)]
    pub receipt: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Process {
    /// The game directory (or use --all ROOT).
    #[arg(required_unless_present = "all")]
    pub dir: Option<PathBuf>,
    /// Sweep every game directory under ROOT: process those that are due, one line per
    /// game. Exit 1 if any game failed, else 3 if any was busy or held, else 0.
    #[arg(long, value_name = "ROOT", conflicts_with_all = ["dir", "force_defaults"])]
    pub all: Option<PathBuf>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
    /// The current time, RFC 3339 (default: now): decides whether deadlines have passed,
    /// is when the next step opens, and the Date of its mails.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Once the deadline has passed, give every side whose orders are missing the system's
    /// default orders, whatever missed_orders says (the journal records it). In a game
    /// without deadlines, at once.
    #[arg(long)]
    pub force_defaults: bool,
    /// With --all: also process games whose deadline passed more than --max-late ago
    /// (after an outage); without it they are reported as held.
    #[arg(long, requires = "all")]
    pub catch_up: bool,
    /// With --all: the outage guard, how long after deadline + grace a sweep still
    /// processes without --catch-up.
    #[arg(long, value_name = "DURATION", requires = "all",
          default_value = engine::sweep::DEFAULT_MAX_LATE)]
    pub max_late: String,
}

#[derive(Args)]
pub struct Pause {
    /// The game directory.
    pub dir: PathBuf,
    /// Why; published in the journal and the report.
    #[arg(long)]
    pub reason: String,
    /// The current time, RFC 3339 (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Resume {
    /// The game directory.
    pub dir: PathBuf,
    /// Why; published in the journal and the report.
    #[arg(long)]
    pub reason: String,
    /// The current time, RFC 3339 (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Extend {
    /// The game directory.
    pub dir: PathBuf,
    /// The new deadline: RFC 3339 (2026-05-04T20:00:00+02:00) or a time in a named zone
    /// (2026-05-04T20:00[Europe/Oslo]).
    #[arg(
        long,
        value_name = "TIME",
        required_unless_present = "by",
        conflicts_with = "by"
    )]
    pub until: Option<String>,
    /// Add this to the current deadline, e.g. 24h or 2d.
    #[arg(long, value_name = "DURATION")]
    pub by: Option<String>,
    /// Why; published in the journal and the report.
    #[arg(long)]
    pub reason: String,
    /// The current time, RFC 3339 (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Ingest {
    /// A game directory, or a directory of games (found by the subject tag [pbem ID] or
    /// the order's own game id).
    pub dir: PathBuf,
    /// Read every message in this Maildir's new/.
    #[arg(long, conflicts_with = "file")]
    pub maildir: Option<PathBuf>,
    /// Read one message from this file (default: standard input).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Refuse messages above this many bytes without reading them whole.
    #[arg(long, value_name = "BYTES", default_value_t = engine::mail::DEFAULT_MAX_MESSAGE_BYTES)]
    pub max_size: u64,
    /// The current time, RFC 3339 (default: now): the Date of the answers.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Send {
    /// A game directory, or a directory of games.
    pub dir: PathBuf,
    /// Transport configuration (YAML with one of smtp:, sendmail:, directory:; see
    /// docs/mail.md). Default: the file named by $PBEM_MAIL_CONFIG.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Deliver into this directory instead (DIR/KEY.eml per message).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["config", "sendmail"])]
    pub to_dir: Option<PathBuf>,
    /// Deliver through this sendmail-compatible program instead.
    #[arg(long, value_name = "PROGRAM", conflicts_with = "config")]
    pub sendmail: Option<PathBuf>,
    /// The current time, RFC 3339 (default: now): the Date of mail queued by this run.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Remind {
    /// A game directory, or a directory of games.
    pub dir: PathBuf,
    /// The current time, RFC 3339 (default: now).
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    /// Machine-readable output (JSON).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct View {
    pub dir: PathBuf,
    #[arg(long)]
    pub side: String,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
}

#[derive(Args)]
pub struct Map {
    pub dir: PathBuf,
    /// The side whose view is drawn.
    #[arg(long, required_unless_present = "public", conflicts_with = "public")]
    pub side: Option<String>,
    /// The public board (what the report shows) instead of a side's view.
    #[arg(long)]
    pub public: bool,
    /// Journal record number (default: the newest).
    #[arg(long)]
    pub record: Option<u64>,
    /// svg or png (default: png when -o names a .png file, else svg).
    #[arg(long, value_enum)]
    pub format: Option<PictureFormat>,
    /// Write to this file instead of standard output (a PNG is never written to a terminal).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
}

/// The form of a picture (`pbem map --format`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum PictureFormat {
    Svg,
    Png,
}

#[derive(Args)]
pub struct Report {
    pub dir: PathBuf,
    /// Journal record number (default: the newest).
    #[arg(long)]
    pub record: Option<u64>,
}

#[derive(Args)]
pub struct Verify {
    pub dir: PathBuf,
    /// Only what anyone can check from the journal and game.yaml.
    #[arg(long)]
    pub public_only: bool,
    /// Your own order files and receipts, to check they are in the journal (player level).
    #[arg(long = "player", value_name = "FILE")]
    pub player: Vec<PathBuf>,
    /// Require the full replay from genesis (host/, or the archive/ of a concluded game).
    #[arg(long, conflicts_with = "public_only")]
    pub full: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Conclude {
    pub dir: PathBuf,
}

#[derive(Args)]
pub struct Host {
    #[command(subcommand)]
    pub op: HostCommand,
}

#[derive(Args)]
pub struct Publish {
    pub dir: PathBuf,
    /// The repository (created with `git init` when it has no .git).
    #[arg(long, value_name = "REPO")]
    pub git_repo: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Dice {
    pub dir: PathBuf,
    #[arg(long)]
    pub step: Option<u64>,
    /// Explain this die: seed parts, stream key, words drawn, faces.
    #[arg(long, requires = "step")]
    pub label: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct Odds {
    /// The question: kummen takes ATTACK DEFENSE (numbers), or ATTACKER TARGET (unit ids or
    /// your own tokens) with --game; dougram takes `roll V`, `check T`, `federal N`, or with
    /// --game `combat HEX` and `federal`. Without --game the first word is the system.
    #[arg(num_args = 1..=3, required = true)]
    pub words: Vec<String>,
    /// A game directory whose units the question names.
    #[arg(long, requires = "side")]
    pub game: Option<PathBuf>,
    /// The side asking: only what it may see is used.
    #[arg(long, requires = "game")]
    pub side: Option<String>,
}

#[derive(Args)]
pub struct Demo {
    /// The system to play (the help lists the systems this pbem has, from the registry).
    #[arg(help = systems_help("The system to play"))]
    pub system: String,
    /// Keep the game in this directory instead of a temporary one.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Play the game of this seed (the host's secrets and the orders' entropy derive from it;
    /// default: a seed picked per system to show its parts).
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args)]
pub struct Simulate {
    /// The system to play (the help lists the systems this pbem has, from the registry).
    #[arg(help = systems_help("The system to play"))]
    pub system: String,
    /// The scenario (default: the system's first).
    #[arg(long)]
    pub scenario: Option<String>,
    /// How many games.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Seeds the dice and the bots: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object (games, wins, turns, endings, errors, rule_reach...).
    #[arg(long)]
    pub json: bool,
    /// The bot that plays SIDE (default: `default`). Repeatable.
    #[arg(long = "bot", value_name = "SIDE=NAME", help = bots_help())]
    pub bots: Vec<String>,
    /// Write each game as a real game directory DIR/game-N (every seat a bot seat, processed
    /// and concluded as a hosted game), which `pbem verify --full DIR/game-N` audits. Slower.
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
}

/// `--bot`'s help: the bots there are, with what each does.
fn bots_help() -> String {
    let mut s =
        "The bot that plays SIDE, SIDE=NAME (default: default); repeatable. Bots:".to_string();
    for (name, what) in crate::engine::bots::NAMES {
        s.push_str(&format!(" {name}: {what};"));
    }
    s.pop();
    s
}

#[derive(Subcommand)]
pub enum HostCommand {
    /// Replace a side's public key (a lost key). Orders from then on must be signed with the
    /// new key; earlier orders keep verifying with the old one.
    ReplaceKey(ReplaceKey),
    /// Hand a side over to a new player with a new key (and name and email).
    HandOver(HandOver),
    /// Return the game to the state after journal record RECORD; the step then open gets a
    /// new step number (orders for abandoned steps are void). Later records stay published.
    Rollback(Rollback),
    /// Move the game to this pbem's rules version (after upgrading pbem); the players see it
    /// in the report. Orders waiting in the inbox are withdrawn, to be checked and sent again.
    Upgrade(Upgrade),
}

#[derive(Args)]
pub struct ReplaceKey {
    pub dir: PathBuf,
    #[arg(long)]
    pub side: String,
    /// The new public key (.pub, OpenSSH ed25519).
    #[arg(long, value_name = "NEW.pub")]
    pub key: PathBuf,
    /// Why (published in the journal and the report).
    #[arg(long)]
    pub reason: String,
    /// The current time, RFC 3339 (default: now): the Date of the mails it queues.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args)]
pub struct HandOver {
    pub dir: PathBuf,
    #[arg(long)]
    pub side: String,
    #[arg(long, value_name = "NEW.pub")]
    pub key: PathBuf,
    /// The new player's name (default: the seat's).
    #[arg(long)]
    pub name: Option<String>,
    /// The new player's address (default: the seat's).
    #[arg(long)]
    pub email: Option<String>,
    #[arg(long)]
    pub reason: String,
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args)]
pub struct Rollback {
    pub dir: PathBuf,
    #[arg(long, value_name = "RECORD")]
    pub to: u64,
    #[arg(long)]
    pub reason: String,
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}

#[derive(Args)]
pub struct Upgrade {
    pub dir: PathBuf,
    #[arg(long)]
    pub reason: String,
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
}
