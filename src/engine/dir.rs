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

    /// Takes the game's exclusive lock; released when the returned file is dropped.
    pub fn lock(&self) -> Result<File, Error> {
        let path = self.lock_file();
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::Fail(format!(
                "{}: another pbem process is working on this game; try again when it is done",
                path.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io(&path, e)),
        }
    }
}

/// Writes `bytes` to `path` so that readers see either the old file or the whole new one, even
/// across a crash: a temporary file in the same directory, fsync, rename, fsync the directory.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    // A bare file name has the empty path as its parent: that is the current directory.
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| Error::io(dir, e))?;
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
