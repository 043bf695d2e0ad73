//! The game directory (DESIGN section 5): where each file lives, atomic writes and the lock.

use super::Error;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Paths of one game directory. Names here are the contract shared by the CLI, docs and tests.
#[derive(Debug, Clone)]
pub struct GameDir {
    pub root: PathBuf,
    /// Where the host-only files are read from: `host/`, or `archive/` once a concluded game's
    /// sealed archive is what an auditor has.
    host_root: PathBuf,
}

impl GameDir {
    pub fn new(root: impl Into<PathBuf>) -> GameDir {
        let root = root.into();
        let host_root = root.join("host");
        GameDir { root, host_root }
    }

    /// The same game, reading host-only files from the published archive.
    pub fn from_archive(&self) -> GameDir {
        GameDir {
            root: self.root.clone(),
            host_root: self.archive(),
        }
    }

    /// The sealed archive `pbem conclude` publishes.
    pub fn archive(&self) -> PathBuf {
        self.root.join("archive")
    }
    pub fn config(&self) -> PathBuf {
        self.root.join("game.yaml")
    }
    /// The game's component data (public; its hash is in genesis).
    pub fn data(&self) -> PathBuf {
        self.root.join("data.yaml")
    }
    /// The component data a game had before an upgrade replaced it: public, named by the record
    /// that pinned it (genesis 000000, or an earlier upgrade), so a pbem of the older rules can
    /// replay the steps it resolved (docs/formats.md, "Component data").
    pub fn earlier_data(&self, pinned_by: u64) -> PathBuf {
        self.root.join("data").join(format!("{pinned_by:06}.yaml"))
    }
    pub fn journal(&self) -> PathBuf {
        self.root.join("journal")
    }
    pub fn record(&self, seq: u64) -> PathBuf {
        self.journal()
            .join(crate::protocol::journal::file_name(seq))
    }
    pub fn reports(&self) -> PathBuf {
        self.root.join("reports")
    }
    pub fn report(&self, seq: u64) -> PathBuf {
        self.reports().join(format!("{seq:06}.txt"))
    }
    pub fn views(&self, side: &str) -> PathBuf {
        self.root.join("views").join(side)
    }
    /// The view `side` was sent after journal record `seq`.
    pub fn view_of_record(&self, side: &str, seq: u64) -> PathBuf {
        self.views(side).join(format!("{seq:06}.yaml"))
    }
    pub fn inbox(&self) -> PathBuf {
        self.root.join("inbox")
    }
    /// An order waiting in the inbox for `step` from `side`.
    pub fn inbox_order(&self, step: u64, side: &str) -> PathBuf {
        self.inbox().join(format!("{step:06}-{side}.yaml"))
    }
    /// The detached SSHSIG beside an inbox order, when the player sent one.
    pub fn inbox_sig(&self, step: u64, side: &str) -> PathBuf {
        self.inbox().join(format!("{step:06}-{side}.yaml.sig"))
    }
    /// Hashes of earlier orders for the same step and side that a later one replaced.
    pub fn inbox_replaced(&self, step: u64, side: &str) -> PathBuf {
        self.inbox().join(format!("{step:06}-{side}.replaced.yaml"))
    }
    pub fn host(&self) -> PathBuf {
        self.host_root.clone()
    }
    pub fn host_key(&self) -> PathBuf {
        self.host().join("host_key")
    }
    pub fn secrets(&self) -> PathBuf {
        self.host().join("secrets.yaml")
    }
    pub fn state(&self, seq: u64) -> PathBuf {
        self.host().join("state").join(format!("{seq:06}.yaml"))
    }
    pub fn sealed(&self, seq: u64) -> PathBuf {
        self.host().join("sealed").join(format!("{seq:06}.yaml"))
    }
    /// An order used by record `seq`, kept host-side until the game ends (it may name secrets).
    pub fn used_order(&self, seq: u64, side: &str) -> PathBuf {
        self.host()
            .join("orders")
            .join(format!("{seq:06}-{side}.yaml"))
    }
    pub fn used_sig(&self, seq: u64, side: &str) -> PathBuf {
        self.host()
            .join("orders")
            .join(format!("{seq:06}-{side}.yaml.sig"))
    }
    pub fn receipts(&self) -> PathBuf {
        self.host().join("receipts")
    }
    pub fn outbox(&self) -> PathBuf {
        self.root.join("outbox")
    }
    pub fn lock_file(&self) -> PathBuf {
        self.host().join("lock")
    }

    /// Takes the game's exclusive lock, waiting up to [`GAME_LOCK_WAIT`] for another command
    /// to finish with the game; released when the returned file is dropped.
    pub fn lock(&self) -> Result<File, Error> {
        let deadline = std::time::Instant::now() + GAME_LOCK_WAIT;
        let mut pause = std::time::Duration::from_millis(2);
        loop {
            match exclusive_lock(
                &self.lock_file(),
                "another pbem process is working on this game; try again when it is done",
            ) {
                // Only "busy" is a Fail here; an I/O error is returned at once.
                Err(Error::Fail(_)) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(100));
                }
                taken => return taken,
            }
        }
    }
}

/// How long a command waits for the game's lock before it says the game is busy. Commands on
/// one game are short (a step is milliseconds), so a submit that arrives while the sweep is
/// processing its game usually waits instead of failing. It also covers a lock held for a moment
/// by a forked child: a process that starts a program (git, a test's CLI run) copies every open file,
/// the lock's too, into the child until the child's exec closes it, so a lock just released by
/// its owner can look taken for that moment.
pub const GAME_LOCK_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// Takes an exclusive lock on `path` (created if missing) without waiting; `busy` says who
/// holds it when it is taken. Released when the returned file is dropped.
pub fn exclusive_lock(path: &Path, busy: &str) -> Result<File, Error> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(Error::Fail(format!("{}: {busy}", path.display())))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(Error::io(path, e)),
    }
}

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one, even
/// across a crash: a temporary file in the same directory, fsync, rename, fsync the directory.
/// Inside [`batched`], the two fsyncs are left to the end of the batch.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = folder_of(path);
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    into_place(tmp, path, |tmp| tmp.as_file().sync_all())
}

/// Renames `tmp` (a temporary file in `path`'s folder, written whole) to `path` and makes
/// both durable, `flush` flushing the file's own bytes; inside [`batched`], both flushes are
/// left to the end of the batch.
fn into_place<F>(
    tmp: tempfile::NamedTempFile<F>,
    path: &Path,
    flush: impl FnOnce(&tempfile::NamedTempFile<F>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let dir = folder_of(path);
    let deferred = BATCH.with_borrow_mut(|b| match b {
        Some(paths) => {
            paths.push(path.to_path_buf());
            true
        }
        None => false,
    });
    if !deferred {
        flush(&tmp).map_err(|e| Error::io(path, e))?;
    }
    #[cfg(feature = "fault-injection")]
    let n = fault::count_write();
    #[cfg(feature = "fault-injection")]
    fault::maybe_abort(fault::Point::BeforeRename, n);
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    if !deferred {
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| Error::io(dir, e))?;
    }
    #[cfg(feature = "fault-injection")]
    fault::maybe_abort(fault::Point::AfterRename, n);
    Ok(())
}

/// Gives `path` the contents of `source` (a file just written in the same folder, never
/// rewritten in place) atomically, as [`write_atomic`] would with its bytes, but as a second
/// name of the same file: no second copy is written, and the file `path` named before keeps
/// its other name, so the filesystem neither allocates a file nor frees one (on ext4 both cost
/// more than the bytes). Where hard links are refused, the bytes are written.
pub fn link_atomic(source: &Path, path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = folder_of(path);
    let Ok(tmp) = tempfile::Builder::new().make_in(dir, |name| fs::hard_link(source, name)) else {
        return write_atomic(path, bytes);
    };
    // The source's bytes are flushed with it (by its own write or its batch).
    into_place(tmp, path, |_| Ok(()))
}

/// TEST HOOK, compiled only with the cargo feature `fault-injection`, which the test suite
/// enables (`scripts/test.sh`) and no other build does: a host's `pbem` never reads these
/// variables, so nothing in its environment can make it abort or stall mid-write. Fault
/// injection for the crash-safety tests (tests/hosting_durability.rs), read once per process
/// from the environment:
///
/// - `PBEM_FAULT_AFTER_WRITES=N` aborts the process (`std::process::abort`, no destructors, no
///   flushing: as close to a power cut as a test can get) right after the Nth atomic write of
///   this process is renamed into place and its directory synced;
/// - `PBEM_FAULT_BEFORE_RENAME=N` aborts after the Nth write's temporary file is written and
///   synced, before the rename (the target keeps its old content; a stray temporary file stays);
/// - `PBEM_COUNT_WRITES=FILE` appends one line per atomic write (its number) to FILE, so a
///   test can count the writes of a run before looping over them;
/// - `PBEM_FAULT_DELAY_MS=MS` sleeps that long after every atomic write, so a test can make two
///   processes overlap.
///
/// Unset, the hook costs one relaxed atomic increment per write.
#[cfg(feature = "fault-injection")]
pub mod fault {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Point {
        BeforeRename,
        AfterRename,
    }

    static WRITES: AtomicU64 = AtomicU64::new(0);

    struct Plan {
        after: Option<u64>,
        before: Option<u64>,
        log: Option<std::path::PathBuf>,
        delay_ms: Option<u64>,
    }

    fn plan() -> &'static Plan {
        static PLAN: OnceLock<Plan> = OnceLock::new();
        PLAN.get_or_init(|| {
            let num = |k: &str| std::env::var(k).ok().and_then(|v| v.trim().parse().ok());
            Plan {
                after: num("PBEM_FAULT_AFTER_WRITES"),
                before: num("PBEM_FAULT_BEFORE_RENAME"),
                log: std::env::var_os("PBEM_COUNT_WRITES").map(Into::into),
                delay_ms: num("PBEM_FAULT_DELAY_MS"),
            }
        })
    }

    /// Counts one atomic write of this process; returns its number (from 1).
    pub(super) fn count_write() -> u64 {
        WRITES.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// The number of atomic writes this process has made.
    pub fn writes() -> u64 {
        WRITES.load(Ordering::Relaxed)
    }

    pub(super) fn maybe_abort(point: Point, n: u64) {
        let p = plan();
        if point == Point::AfterRename
            && let Some(log) = &p.log
        {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
            {
                let _ = writeln!(f, "{n}");
            }
        }
        if point == Point::AfterRename
            && let Some(ms) = p.delay_ms
        {
            std::thread::sleep(std::time::Duration::from_millis(ms));
        }
        let limit = match point {
            Point::BeforeRename => p.before,
            Point::AfterRename => p.after,
        };
        if limit == Some(n) {
            std::process::abort();
        }
    }
}

thread_local! {
    /// The files written in the [`batched`] call running on this thread, if any.
    static BATCH: std::cell::RefCell<Option<Vec<PathBuf>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with its atomic writes batched: each file is still written whole under a
/// temporary name and renamed into place, but the disk is flushed once for all of them when
/// `f` returns Ok ([`sync`]) instead of twice per file. So everything `f` wrote is durable
/// when `batched` returns Ok, and a crash before that may lose any of it: only files that are
/// safe to lose together go in one batch (a step's files before its journal record, which is
/// written after the batch; the derived files after it, which `recover` rewrites). A batch
/// inside a batch joins it.
pub fn batched<T>(f: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    let outer = BATCH.with_borrow_mut(|b| {
        let outer = b.is_some();
        if !outer {
            *b = Some(Vec::new());
        }
        outer
    });
    if outer {
        return f();
    }
    let result = f();
    let paths = BATCH.with_borrow_mut(|b| b.take().unwrap_or_default());
    if result.is_ok() {
        sync(&paths)?;
    }
    result
}

/// Makes files already renamed into place durable, with their names. On Linux one `syncfs`
/// of their filesystem (a game directory is one filesystem) does it in one flush; elsewhere
/// each file and each folder holding one is fsynced.
fn sync(paths: &[PathBuf]) -> Result<(), Error> {
    let Some(first) = paths.first() else {
        return Ok(());
    };
    #[cfg(target_os = "linux")]
    {
        let _ = first;
        let dir = folder_of(first);
        let handle = File::open(dir).map_err(|e| Error::io(dir, e))?;
        rustix::fs::syncfs(&handle).map_err(|e| Error::io(dir, e.into()))?;
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = first;
        let mut folders = std::collections::BTreeSet::new();
        for path in paths {
            File::open(path)
                .and_then(|f| f.sync_all())
                .map_err(|e| Error::io(path, e))?;
            folders.insert(folder_of(path).to_path_buf());
        }
        for dir in folders {
            File::open(&dir)
                .and_then(|d| d.sync_all())
                .map_err(|e| Error::io(&dir, e))?;
        }
    }
    Ok(())
}

/// The folder a file is in: a bare file name has the empty path as its parent, which is the
/// current directory.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes a file whole (temporary file, rename) without flushing it to disk: for caches,
/// which a crash may leave old but never half written.
pub fn write_unflushed(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = folder_of(path);
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Like [`write_atomic`], for files only the host may read (mode 0600 on Unix).
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_atomic(path, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::io(path, e))?;
    }
    Ok(())
}

pub fn read(path: &Path) -> Result<Vec<u8>, Error> {
    fs::read(path).map_err(|e| Error::io(path, e))
}

pub fn read_text(path: &Path) -> Result<String, Error> {
    let bytes = read(path)?;
    String::from_utf8(bytes).map_err(|_| Error::Fail(format!("{}: not UTF-8 text", path.display())))
}

#[cfg(test)]
mod lock_tests {
    use super::*;
    use std::time::Duration;

    fn game_dir() -> (tempfile::TempDir, GameDir) {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("host")).unwrap();
        let dir = GameDir::new(tmp.path());
        (tmp, dir)
    }

    #[test]
    fn the_game_lock_waits_for_a_holder_that_lets_go_within_the_wait() {
        let (_tmp, dir) = game_dir();
        let held = dir.lock().unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(GAME_LOCK_WAIT / 5);
            drop(held);
        });
        assert!(dir.lock().is_ok());
        release.join().unwrap();
    }

    #[test]
    fn the_game_lock_says_busy_when_the_holder_keeps_it_past_the_wait() {
        let (_tmp, dir) = game_dir();
        let _held = dir.lock().unwrap();
        let started = std::time::Instant::now();
        let err = dir.lock().unwrap_err().to_string();
        assert!(
            err.contains("another pbem process is working on this game"),
            "{err}"
        );
        assert!(started.elapsed() >= GAME_LOCK_WAIT - Duration::from_millis(1));
    }
}

#[cfg(test)]
mod write_tests {
    use super::*;

    #[test]
    fn a_linked_name_gets_the_new_file_and_the_old_file_keeps_its_other_name() {
        let tmp = tempfile::tempdir().unwrap();
        let (one, two, latest) = (
            tmp.path().join("000001.yaml"),
            tmp.path().join("000002.yaml"),
            tmp.path().join("view.yaml"),
        );
        write_atomic(&one, b"first").unwrap();
        link_atomic(&one, &latest, b"first").unwrap();
        write_atomic(&two, b"second").unwrap();
        link_atomic(&two, &latest, b"second").unwrap();
        assert_eq!(fs::read(&latest).unwrap(), b"second");
        assert_eq!(fs::read(&one).unwrap(), b"first");
        // Rewriting the newest name atomically leaves the record's own file alone.
        write_atomic(&latest, b"edited").unwrap();
        assert_eq!(fs::read(&two).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(names.len(), 3, "no temporary file is left");
    }

    #[test]
    fn a_link_that_cannot_be_made_writes_the_bytes() {
        let tmp = tempfile::tempdir().unwrap();
        let latest = tmp.path().join("view.yaml");
        link_atomic(&tmp.path().join("missing.yaml"), &latest, b"bytes").unwrap();
        assert_eq!(fs::read(&latest).unwrap(), b"bytes");
    }
}
