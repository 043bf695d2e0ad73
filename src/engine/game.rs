//! An open game: its configuration, its system, its journal and the host's files.

use super::Error;
use super::cache;
use super::config::GameConfig;
use super::dir::{self, GameDir};
use super::summary::{self, Summary};
use crate::protocol::hash::Hash32;
use crate::protocol::journal::{self, NextStep, Record};
use crate::systems::{self, GameData, System};
use crate::yaml;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The host's secrets (host/secrets.yaml): never published before the game is concluded.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    /// Seeds every step's host reveal (protocol::journal::host_seed).
    pub master: Hash32,
    /// Keys the sealed dice streams; committed in the genesis record.
    pub game_key: Hash32,
}

/// The host's caches of data.yaml and of the newest state (engine::cache).
const DATA_TWIN: &str = "data.json";
const STATE_TWIN: &str = "state.json";
/// The host's journal summary (engine::summary), keyed by the hash of the head record's file.
pub const SUMMARY_TWIN: &str = "journal-summary.json";

pub struct Game {
    pub dir: GameDir,
    pub config: GameConfig,
    pub system: Box<dyn System>,
    /// What the engine needs of the journal without its every record: the head, the open
    /// step's range, the seat and rules history (engine::summary). Shared: a command opens its
    /// game several times, and a summary is not read again while its head is the same.
    pub journal: Arc<Summary>,
    /// Every record with the hash of its file, in order, read on first use
    /// ([`Game::records_all`]); an auditor's are read at once.
    pub all_records: OnceLock<Arc<Vec<(Record, Hash32)>>>,
    /// The component data, read from data.yaml on first use ([`Game::data`]).
    pub data: OnceLock<GameData>,
    /// Whether the host's caches of parsed files may be used (engine::cache): not by an
    /// auditor, who reads every file itself.
    pub caches: bool,
}

impl Game {
    pub fn open(root: &std::path::Path) -> Result<Game, Error> {
        let dir = GameDir::new(root);
        let config_path = dir.config();
        if !config_path.exists() {
            return Err(Error::Fail(format!(
                "{}: no game here (game.yaml is missing); create one with `pbem new`",
                root.display()
            )));
        }
        let text = dir::read_text(&config_path)?;
        let config = parsed_config(&text, &config_path)?;
        let system = systems::by_id(&config.system)?;
        let journal = read_summary_cached(&dir, &config.id)?;
        // The journal is the authority on keys: a key replacement or hand-over counts from its
        // record, even before game.yaml is rewritten after it (engine::ops). Email addresses
        // come from the host's mail/addresses.yaml (engine::config).
        let config = super::ops::effective_config(&dir, config, &journal.seats)?;
        Ok(Game {
            dir,
            config,
            system,
            journal,
            all_records: OnceLock::new(),
            data: OnceLock::new(),
            caches: true,
        })
    }

    /// Opens a game whose journal may be damaged: the auditor reads the records itself.
    pub fn open_for_audit(root: &std::path::Path) -> Result<Game, Error> {
        let dir = GameDir::new(root);
        let config_path = dir.config();
        let text = dir::read_text(&config_path)?;
        let config: GameConfig = yaml::parse(&text, &config_path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))?;
        let system = systems::by_id(&config.system)?;
        let records = Arc::new(read_journal(&dir, &config.id).unwrap_or_default());
        let journal = Arc::new(Summary::of(&config.id, &records));
        Ok(Game {
            dir,
            config,
            system,
            journal,
            all_records: OnceLock::from(records),
            data: OnceLock::new(),
            caches: false,
        })
    }

    /// The same game with its files read from `dir` (an auditor's view of the published
    /// archive/): the configuration and journal as this one read them, nothing else shared.
    pub fn with_dir(&self, dir: GameDir) -> Result<Game, Error> {
        Ok(Game {
            dir,
            config: self.config.clone(),
            system: systems::by_id(&self.config.system)?,
            journal: self.journal.clone(),
            all_records: self.all_records.clone(),
            data: OnceLock::new(),
            caches: self.caches,
        })
    }

    /// Every record with the hash of its file, oldest first, up to the head this game was
    /// opened at: read (through the host's parsed copy, `host/cache/journal.jsonl`) on first
    /// use. Only what needs the history calls it (old views and reports, publishing, dice
    /// listings, the repair of a crashed run); steps, orders and sweeps use [`Game::journal`].
    pub fn records_all(&self) -> Result<&[(Record, Hash32)], Error> {
        let records = match self.all_records.get() {
            Some(records) => records,
            None => {
                let records = read_journal_cached(&self.dir, &self.config.id)?;
                self.all_records.get_or_init(|| records)
            }
        };
        // The records this game was opened at: a record written since (by this command) is
        // not part of this opening, which the summary describes.
        let len = self.journal.len as usize;
        match (records.get(..len), &self.journal.head) {
            (Some(rs), Some((_, head))) if rs.last().is_some_and(|(_, h)| h == head) => Ok(rs),
            (_, None) => Ok(&records[..0]),
            _ => Err(Error::Fail(format!(
                "{}: the journal changed while this command read it; run it again",
                self.dir.journal().display()
            ))),
        }
    }

    /// Record `seq` and the hash of its file: the head from the summary, another from every
    /// record ([`Game::records_all`]).
    pub fn record(&self, seq: u64) -> Result<&(Record, Hash32), Error> {
        if let Some(head) = self.journal.head.as_ref().filter(|(r, _)| r.seq == seq) {
            return Ok(head);
        }
        self.records_all()?
            .iter()
            .find(|(r, _)| r.seq == seq)
            .ok_or_else(|| Error::Fail(format!("there is no journal record {seq}")))
    }

    pub fn last(&self) -> &Record {
        &self
            .journal
            .head
            .as_ref()
            .expect("open() refuses an empty journal")
            .0
    }

    /// The format marker of `record`, the next record of this game: the newest format a record
    /// of the game needed so far or this one needs (journal/4 for a bot seat or a bot's orders,
    /// journal/5 for a sealed reveal), so the format never goes back; else journal/3, which
    /// every earlier reader of a game without these fields knows.
    pub fn journal_format(&self, record: &Record) -> &'static str {
        use crate::protocol::journal::{JOURNAL_FORMAT, JOURNAL_FORMAT_V4, JOURNAL_FORMAT_V5};
        let rank = |f: &str| match f {
            JOURNAL_FORMAT_V5 => 2,
            JOURNAL_FORMAT_V4 => 1,
            _ => 0,
        };
        match rank(&self.last().pbem).max(rank(record.format_needed())) {
            2 => JOURNAL_FORMAT_V5,
            1 => JOURNAL_FORMAT_V4,
            _ => JOURNAL_FORMAT,
        }
    }

    pub fn last_seq(&self) -> u64 {
        self.last().seq
    }

    /// Hash of the newest record: the basis every order for the open step must carry.
    pub fn head(&self) -> Hash32 {
        self.journal
            .head
            .as_ref()
            .expect("open() refuses an empty journal")
            .1
    }

    /// The journal heads an order for the open step may name as its basis (see [`step_bases`]).
    pub fn open_step_bases(&self) -> Vec<Hash32> {
        self.journal.open_step_bases()
    }

    /// The step now open, or None when the game is over.
    pub fn open_step(&self) -> Option<&NextStep> {
        self.journal
            .head
            .as_ref()
            .and_then(|(r, _)| r.next.as_ref())
    }

    /// The host's full state after the newest record. Where the host's cache holds it parsed
    /// (engine::cache), the system is given that copy, so reading it costs no YAML parse.
    pub fn state(&self) -> Result<String, Error> {
        let text = dir::read_text(&self.dir.state(self.last_seq()))?;
        if self.caches
            && let Ok(data) = self.data()
        {
            // A twin that is missing or does not read is only a cache miss: the YAML is
            // parsed, and the twin written for the next command.
            let primed = cache::read_twin(&self.dir, STATE_TWIN, &cache::key(&text))
                .is_some_and(|json| self.system.prime_state(data, &text, &json).is_ok());
            if !primed {
                self.cache_state(&text);
            }
        }
        Ok(text)
    }

    /// Keeps `state` (the newest state's text, parsed in this process) in the host's cache for
    /// the next command. A cache: failing to write it costs only speed.
    pub fn cache_state(&self, state: &str) {
        if let Ok(data) = self.data()
            && let Ok(json) = self.system.state_json(data, state)
        {
            let _ = cache::write_twin(&self.dir, STATE_TWIN, &cache::key(state), &json);
        }
    }

    pub fn secrets(&self) -> Result<Secrets, Error> {
        let path = self.dir.secrets();
        let text = dir::read_text(&path)?;
        yaml::parse(&text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))
    }

    /// The game's component data: data.yaml, checked against the hash the journal gives it
    /// (genesis, or the last upgrade), read once.
    pub fn data(&self) -> Result<&GameData, Error> {
        if let Some(d) = self.data.get() {
            return Ok(d);
        }
        let path = self.dir.data();
        let Some(want) = self.journal.data else {
            return Err(Error::Fail(format!(
                "this game's states hold their own component data ({} rules 1): run it with the pbem of its rules, or `pbem host upgrade` it",
                self.system.id()
            )));
        };
        let bytes = dir::read(&path)?;
        if crate::protocol::hash::sha256(&bytes) != want {
            return Err(Error::Fail(format!(
                "{}: differs from the component data the journal pins (SHA-256 {want}); restore it from the published game",
                path.display()
            )));
        }
        let key = (self.system.id(), want);
        if let Some(data) = parsed_data(&key) {
            return Ok(self.data.get_or_init(|| data));
        }
        let twin = self
            .caches
            .then(|| cache::read_twin(&self.dir, DATA_TWIN, &want))
            .flatten()
            .and_then(|json| self.system.parse_data_json(&json).ok());
        let data = match twin {
            Some(data) => data,
            None => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| Error::Fail(format!("{}: not UTF-8 text", path.display())))?;
                let data = self
                    .system
                    .parse_data(&text)
                    .map_err(|e| Error::Fail(format!("{}: {e}", path.display())))?;
                if self.caches
                    && let Ok(json) = self.system.data_json(&data)
                {
                    let _ = cache::write_twin(&self.dir, DATA_TWIN, &want, &json);
                }
                data
            }
        };
        remember_data(key, data.clone());
        Ok(self.data.get_or_init(|| data))
    }

    /// The rules version the game runs now and the pbem release it came with (genesis, or the
    /// last `pbem host upgrade`).
    pub fn rules(&self) -> (u32, String) {
        self.journal.rules.clone()
    }

    /// Refuses to check or resolve orders of a game that runs other rules than this pbem's: the
    /// result would differ from what the game's players agreed to and what `verify` replays.
    pub fn require_current_rules(&self) -> Result<(), Error> {
        let (game_rules, release) = self.rules();
        let ours = self.system.rules_version();
        if game_rules == ours {
            return Ok(());
        }
        let id = self.system.id();
        Err(Error::Fail(if game_rules < ours {
            format!(
                "this game runs {id} rules {game_rules} (pbem {release}); this pbem {} has {id} rules {ours}: \
                 the host moves the game to them with `pbem host upgrade {} --reason ...` (the players see it in the report), \
                 or keeps playing with pbem {release}",
                crate::PBEM_VERSION,
                self.dir.root.display()
            )
        } else {
            format!(
                "this game runs {id} rules {game_rules} (pbem {release}); this pbem {} only has {id} rules {ours}: use pbem {release} or later",
                crate::PBEM_VERSION
            )
        }))
    }

    pub fn is_host(&self) -> bool {
        self.dir.secrets().exists()
    }
}

/// The game.yaml this process read last, parsed: a command opens its game several times.
static PARSED_CONFIG: std::sync::Mutex<Option<(String, GameConfig)>> = std::sync::Mutex::new(None);

fn parsed_config(text: &str, path: &std::path::Path) -> Result<GameConfig, Error> {
    let mut last = PARSED_CONFIG.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((t, config)) = last.as_ref()
        && t == text
    {
        return Ok(config.clone());
    }
    let config: GameConfig =
        yaml::parse(text, &path.display().to_string()).map_err(|r| Error::Fail(r.to_string()))?;
    *last = Some((text.to_string(), config.clone()));
    Ok(config)
}

/// Journal records already parsed in this process, by the SHA-256 of their bytes: a command
/// opens its game several times, and a record's bytes give the same record every time.
static PARSED_RECORDS: std::sync::Mutex<Option<std::collections::HashMap<Hash32, Record>>> =
    std::sync::Mutex::new(None);

/// Records kept parsed; past it the cache starts again (a sweep moves on to other games).
const PARSED_RECORDS_KEPT: usize = 4096;

/// A record parsed earlier in this process from bytes hashing to `hash`.
pub fn parsed_record(hash: &Hash32) -> Option<Record> {
    let cache = PARSED_RECORDS.lock().unwrap_or_else(|e| e.into_inner());
    cache.as_ref()?.get(hash).cloned()
}

/// Keeps `record`, whose file's bytes hash to `hash`, parsed for this process: a command that
/// writes a record and opens the game again does not parse what it just wrote.
pub fn remember_record(hash: Hash32, record: &Record) {
    let mut cache = PARSED_RECORDS.lock().unwrap_or_else(|e| e.into_inner());
    let map = cache.get_or_insert_with(Default::default);
    if map.len() >= PARSED_RECORDS_KEPT {
        map.clear();
    }
    map.insert(hash, record.clone());
}

/// Component data already parsed in this process, by system and SHA-256 of data.yaml: a
/// process opens its game several times, and `process --all` opens many games that share
/// their system's built-in data. Parsed data (and the states parsed with it) is shared.
type DataKey = (&'static str, Hash32);
static PARSED_DATA: std::sync::Mutex<Vec<(DataKey, GameData)>> = std::sync::Mutex::new(Vec::new());

/// How many different data files a process keeps parsed (a few systems, a few custom maps).
const PARSED_DATA_KEPT: usize = 8;

fn parsed_data(key: &DataKey) -> Option<GameData> {
    let cache = PARSED_DATA.lock().unwrap_or_else(|e| e.into_inner());
    cache.iter().find(|(k, _)| k == key).map(|(_, d)| d.clone())
}

fn remember_data(key: DataKey, data: GameData) {
    let mut cache = PARSED_DATA.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|(k, _)| *k != key);
    cache.insert(0, (key, data));
    cache.truncate(PARSED_DATA_KEPT);
}

/// The journal heads an order for the step open after record `upto` may name as its basis: the
/// record that opened the step and every later one that left it open (a pause, an extension, a
/// key replacement). Those records change no part of the game an order could depend on, so an
/// order written before them stays valid; a record that opens a new step (a processed step, a
/// rollback) starts a new range.
pub fn step_bases(records: &[(Record, Hash32)], upto: usize) -> Vec<Hash32> {
    let open = |i: usize| {
        records
            .get(i)
            .and_then(|(r, _)| r.next.as_ref())
            .map(|n| n.step)
    };
    let Some(step) = open(upto) else {
        return Vec::new();
    };
    let mut first = upto;
    while first > 0 && open(first - 1) == Some(step) {
        first -= 1;
    }
    records[first..=upto].iter().map(|(_, h)| *h).collect()
}

/// Names in `journal/` that are not records of the chain, each with why, in name order.
///
/// The chain is `000000.yaml`, `000001.yaml`, … up to the first missing number. Anything else in
/// the folder is a stray: a record-named file after a gap (the chain never reaches it, yet an
/// auditor listing the folder would see it), any other name, or a folder. One kind of file is
/// not a stray: a name starting with `.tmp` is the temporary file of an atomic write
/// ([`dir::write_atomic`]) that a crash interrupted before its rename; it was never a record,
/// nothing reads it, and the next write of that record replaces it.
pub fn journal_strays(dir: &GameDir) -> Result<Vec<(String, String)>, Error> {
    let folder = dir.journal();
    let entries = std::fs::read_dir(&folder).map_err(|e| Error::io(&folder, e))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&folder, e))?;
        // The entry's type comes with the listing (no stat per record); a symbolic link is
        // followed, as reading it would.
        let file = match entry.file_type() {
            Ok(t) if t.is_symlink() => entry.path().is_file(),
            Ok(t) => t.is_file(),
            Err(_) => entry.path().is_file(),
        };
        names.push((entry.file_name().to_string_lossy().to_string(), file));
    }
    names.sort();
    let seq_of = |name: &str| {
        let digits = name.strip_suffix(".yaml")?;
        // Only the name pbem writes for a number (journal::file_name, `{:06}`): digits only,
        // six of them, or more with no leading zero.
        let canonical = digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.len() == 6 || digits.len() > 6 && !digits.starts_with('0'));
        canonical.then(|| digits.parse::<u64>().ok()).flatten()
    };
    let present: std::collections::BTreeSet<u64> = names
        .iter()
        .filter(|(_, file)| *file)
        .filter_map(|(n, _)| seq_of(n))
        .collect();
    let chain = (0..).find(|s| !present.contains(s)).unwrap_or(0);
    let mut strays = Vec::new();
    for (name, file) in names {
        if name.starts_with(".tmp") {
            continue;
        }
        let why = match seq_of(&name) {
            Some(seq) if seq < chain && file => continue,
            Some(_) if !file => "a folder where a record belongs".to_string(),
            Some(_) => format!(
                "not part of the chain: record {} is missing, so the journal ends at {}",
                journal::file_name(chain),
                match chain {
                    0 => "nothing (no genesis record)".to_string(),
                    n => journal::file_name(n - 1),
                }
            ),
            None => "not a journal record: records are named NNNNNN.yaml (six digits, the record number) and nothing else belongs in journal/".to_string(),
        };
        strays.push((name, why));
    }
    Ok(strays)
}

/// Reads journal/000000.yaml, 000001.yaml, … until the first missing number. Any other file in
/// journal/ (see [`journal_strays`]) is an error: the journal is exactly its chain.
/// The files are read in order and parsed on several threads (`verify` reads every record).
pub fn read_journal(dir: &GameDir, game_id: &str) -> Result<Vec<(Record, Hash32)>, Error> {
    let mut files = Vec::new();
    for seq in 0u64.. {
        let path = dir.record(seq);
        if !path.exists() {
            break;
        }
        files.push((seq, dir::read(&path)?));
    }
    let parsed = super::par::map(&files, |(seq, bytes)| {
        parse_record(dir, game_id, *seq, bytes)
    });
    let mut records = Vec::with_capacity(files.len());
    for (record, (seq, _)) in parsed.into_iter().zip(&files) {
        match record {
            Some(record) => records.push(record?),
            None => {
                return Err(Error::Fail(format!(
                    "{}: internal error (panic) while reading it",
                    dir.record(*seq).display()
                )));
            }
        }
    }
    if records.is_empty() {
        return Err(no_genesis(dir));
    }
    check_strays(dir)?;
    Ok(records)
}

/// What the host keeps of its journal, parsed (`host/cache/journal.jsonl`): reading every record
/// ([`Game::records_all`]; opening a game reads the journal summary instead) then parses JSON
/// instead of YAML and reads no record file but the head. Only the host's own
/// commands use it, for the host's own files; `verify` reads every record
/// (`Game::open_for_audit`). It is checked against the journal head: a cache whose last record
/// is not the file of that number is not used.
///
/// The file is JSON lines, so a new record is appended, not the whole journal written again:
/// a first line `{"game": ID}`, then one line `[record, hash]` per record, in order. A line cut
/// short by a crash ends what is read of it (the rest is read from the journal) and makes the
/// next write start the file again.
#[derive(Serialize, Deserialize)]
struct JournalCacheHead {
    game: String,
}

fn journal_cache(dir: &GameDir) -> std::path::PathBuf {
    cache::path(dir, "journal.jsonl")
}

/// The records of the cache file, and whether every line of it was read.
fn read_journal_cache(dir: &GameDir, game_id: &str) -> (Vec<(Record, Hash32)>, bool) {
    let Ok(text) = std::fs::read_to_string(journal_cache(dir)) else {
        return (Vec::new(), false);
    };
    let mut lines = text.split_inclusive('\n');
    let head = lines
        .next()
        .and_then(|l| serde_json::from_str::<JournalCacheHead>(l).ok());
    if head.is_none_or(|h| h.game != game_id) {
        return (Vec::new(), false);
    }
    let mut records = Vec::new();
    for line in lines {
        match serde_json::from_str::<(Record, Hash32)>(line) {
            Ok(r) if line.ends_with('\n') && r.0.seq == records.len() as u64 => records.push(r),
            _ => return (records, false),
        }
    }
    (records, true)
}

/// Brings the cache file to `records`, of which it holds the first `held` in full: appends the
/// others, or starts the file again when it holds none. A cache: never flushed; after a crash
/// it is either current or found stale and rebuilt.
fn write_journal_cache(dir: &GameDir, game_id: &str, records: &[(Record, Hash32)], held: usize) {
    let path = journal_cache(dir);
    let mut text = String::new();
    if held == 0 {
        let Ok(head) = serde_json::to_string(&JournalCacheHead {
            game: game_id.to_string(),
        }) else {
            return;
        };
        text.push_str(&head);
        text.push('\n');
    }
    for r in &records[held..] {
        let Ok(line) = serde_json::to_string(r) else {
            return;
        };
        text.push_str(&line);
        text.push('\n');
    }
    let folder = path.parent().expect("a cache file has a folder");
    if std::fs::create_dir_all(folder).is_err() {
        return;
    }
    if held == 0 {
        let _ = dir::write_unflushed(&path, text.as_bytes());
    } else if let Ok(mut file) = std::fs::OpenOptions::new().append(true).open(&path) {
        use std::io::Write;
        let _ = file.write_all(text.as_bytes());
    }
}

/// [`read_journal`] through the host's cache, which it brings up to date; the journal read
/// last in this process is kept, so opening the same game again reads no cache file either.
fn read_journal_cached(dir: &GameDir, game_id: &str) -> Result<Arc<Vec<(Record, Hash32)>>, Error> {
    // A copy whose last record is not the file of that number is not used.
    let current = |records: &Vec<(Record, Hash32)>| match records.last() {
        Some((rec, hash)) => {
            dir::read(&dir.record(rec.seq)).is_ok_and(|bytes| journal::record_hash(&bytes) == *hash)
        }
        None => false,
    };
    let in_memory = LAST_JOURNAL
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .filter(|j| j.root == dir.root && j.game == game_id)
        .map(|j| (j.records.clone(), j.held));
    // `held`: how many records the cache file is known to hold in full.
    let (cached, held) = match in_memory.filter(|(r, _)| current(r)) {
        Some(known) => known,
        None => {
            let (records, whole) = read_journal_cache(dir, game_id);
            if current(&records) {
                let held = if whole { records.len() } else { 0 };
                (Arc::new(records), held)
            } else {
                (Arc::new(Vec::new()), 0)
            }
        }
    };
    let known = cached.len();
    let records = if dir.record(known as u64).exists() || known == 0 {
        let prefix = Arc::try_unwrap(cached).unwrap_or_else(|shared| (*shared).clone());
        Arc::new(read_journal_from(dir, game_id, prefix)?)
    } else {
        check_strays(dir)?;
        cached
    };
    let mut held = held;
    if records.len() != held && dir.host().is_dir() {
        write_journal_cache(dir, game_id, &records, held);
        held = records.len();
    }
    *LAST_JOURNAL.lock().unwrap_or_else(|e| e.into_inner()) = Some(LastJournal {
        root: dir.root.clone(),
        game: game_id.to_string(),
        records: records.clone(),
        held,
    });
    Ok(records)
}

/// The journal this process read last, and how much of it the cache file holds.
struct LastJournal {
    root: std::path::PathBuf,
    game: String,
    records: Arc<Vec<(Record, Hash32)>>,
    held: usize,
}
static LAST_JOURNAL: std::sync::Mutex<Option<LastJournal>> = std::sync::Mutex::new(None);

/// [`read_journal`] given the records already known, oldest first (a prefix of the journal).
fn read_journal_from(
    dir: &GameDir,
    game_id: &str,
    mut records: Vec<(Record, Hash32)>,
) -> Result<Vec<(Record, Hash32)>, Error> {
    for seq in records.len() as u64.. {
        let Some(record) = read_record(dir, game_id, seq)? else {
            break;
        };
        records.push(record);
    }
    if records.is_empty() {
        return Err(no_genesis(dir));
    }
    check_strays(dir)?;
    Ok(records)
}

fn no_genesis(dir: &GameDir) -> Error {
    Error::Fail(format!(
        "{}: the journal has no genesis record",
        dir.journal().display()
    ))
}

/// Record `seq` of the journal and the hash of its file, None when there is no such file.
fn read_record(dir: &GameDir, game_id: &str, seq: u64) -> Result<Option<(Record, Hash32)>, Error> {
    let path = dir.record(seq);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = dir::read(&path)?;
    parse_record(dir, game_id, seq, &bytes).map(Some)
}

/// Record `seq` from the bytes of its file, and their hash.
fn parse_record(
    dir: &GameDir,
    game_id: &str,
    seq: u64,
    bytes: &[u8],
) -> Result<(Record, Hash32), Error> {
    let path = dir.record(seq);
    let hash = journal::record_hash(bytes);
    let record = match parsed_record(&hash) {
        Some(record) => record,
        None => {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| Error::Fail(format!("{}: not UTF-8 text", path.display())))?;
            let record: Record = yaml::parse(text, &path.display().to_string())
                .map_err(|r| Error::Fail(r.to_string()))?;
            remember_record(hash, &record);
            record
        }
    };
    if record.seq != seq || record.game != game_id {
        return Err(Error::Fail(format!(
            "{}: record claims seq {} of game {:?}; expected seq {seq} of {game_id:?}",
            path.display(),
            record.seq,
            record.game
        )));
    }
    Ok((record, hash))
}

/// The journal summary of the game in `dir` (engine::summary), through the host's stored copy:
/// the one this process read last, else `host/cache/journal-summary.json`, if its head is the
/// journal's record of that number; brought forward by the records written after it (parsed
/// once: a record this process wrote is not parsed again), or made again from every record
/// when there is no usable copy. A changed summary is stored for the next command.
fn read_summary_cached(dir: &GameDir, game_id: &str) -> Result<Arc<Summary>, Error> {
    // A summary is of this journal when its head is the file of that number: the head's hash
    // commits to every record before it (each names its predecessor's hash).
    let current = |s: &Summary| {
        s.pbem == summary::FORMAT
            && s.game == game_id
            && match &s.head {
                Some((rec, hash)) => {
                    rec.seq + 1 == s.len
                        && dir::read(&dir.record(rec.seq))
                            .is_ok_and(|bytes| journal::record_hash(&bytes) == *hash)
                }
                None => false,
            }
    };
    let in_memory = LAST_SUMMARY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .filter(|(root, _)| *root == dir.root)
        .map(|(_, s)| s.clone());
    let stored = in_memory.filter(|s| current(s)).or_else(|| {
        let stored = cache::read_keyed(dir, SUMMARY_TWIN)?;
        let s: Summary = serde_json::from_str(stored.json()).ok()?;
        // Never trusted beyond its key: the head it describes must be the one it is keyed by.
        let keyed = s.head.as_ref().is_some_and(|(_, hash)| *hash == stored.key);
        (keyed && current(&s)).then(|| Arc::new(s))
    });
    let from_store = stored.is_some();
    let mut summary = stored.unwrap_or_else(|| Arc::new(Summary::new(game_id)));
    let before = summary.len;
    while let Some((record, hash)) = read_record(dir, game_id, summary.len)? {
        Arc::make_mut(&mut summary).push(record, hash);
    }
    let Some((_, head)) = summary.head.clone() else {
        return Err(no_genesis(dir));
    };
    // journal/ holds nothing but its chain (`journal_strays`). Listing it costs a little per
    // record, so a stored summary remembers the folder's modification time when it was last
    // listed clean; while that is unchanged no name was added, removed or renamed there. A
    // time under a second old is not remembered: a change within the same tick of the
    // filesystem's clock could leave it unchanged. It is read before the listing, so a change
    // during the listing shows next time.
    let mtime = journal_mtime(dir);
    let unchanged = summary.len == before && mtime.is_some() && summary.listed == mtime;
    let mut listed_changed = false;
    if !unchanged {
        check_strays(dir)?;
        let settled = mtime.filter(|(secs, _)| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            now > secs.saturating_add(1)
        });
        if summary.listed != settled {
            Arc::make_mut(&mut summary).listed = settled;
            listed_changed = true;
        }
    }
    if (summary.len != before || listed_changed || !from_store)
        && let Ok(json) = serde_json::to_string(&*summary)
    {
        // A cache: failing to write it costs only speed.
        let _ = cache::write_twin(dir, SUMMARY_TWIN, &head, &json);
    }
    *LAST_SUMMARY.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((dir.root.clone(), summary.clone()));
    Ok(summary)
}

/// The modification time of `journal/` (seconds, nanoseconds since 1970), where it reads.
fn journal_mtime(dir: &GameDir) -> Option<(i64, i32)> {
    let modified = std::fs::metadata(dir.journal()).ok()?.modified().ok()?;
    let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
    Some((since.as_secs() as i64, since.subsec_nanos() as i32))
}

/// The journal summary this process read last, and the game directory it is of.
type LastSummary = (std::path::PathBuf, Arc<Summary>);
static LAST_SUMMARY: std::sync::Mutex<Option<LastSummary>> = std::sync::Mutex::new(None);

/// Refuses a journal folder with anything but its chain in it ([`journal_strays`]).
fn check_strays(dir: &GameDir) -> Result<(), Error> {
    let strays = journal_strays(dir)?;
    if !strays.is_empty() {
        let list: Vec<String> = strays
            .iter()
            .map(|(name, why)| format!("journal/{name}: {why}"))
            .collect();
        return Err(Error::Fail(format!(
            "{}; move it out of journal/ (pbem verify lists every such file)",
            list.join("; ")
        )));
    }
    Ok(())
}
