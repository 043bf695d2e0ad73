//! Reading a Maildir: every message in `new/`, oldest name first, read with a size limit; a
//! handled message moves to `cur/` with the Seen flag. Only one `pbem ingest` works on a
//! Maildir at a time (a lock file in it).

use super::super::Error;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A message read from a file or stream, whole or (above the limit) only its beginning.
#[derive(Debug, Clone)]
pub struct Raw {
    pub bytes: Vec<u8>,
    /// The message's full size in bytes.
    pub size: u64,
}

impl Raw {
    pub fn truncated(&self) -> bool {
        self.size > self.bytes.len() as u64
    }
}

/// How much of an oversized message is kept: enough for its headers, to answer it.
const HEAD_BYTES: usize = 64 * 1024;

/// Reads a stream with at most `max` bytes kept in memory, once: above the limit only the
/// first 64 KiB are kept and the rest is counted and dropped (a pipe from an MTA is still read
/// to its end, so the MTA sees a successful delivery).
pub fn read_limited(mut r: impl Read, max: u64) -> std::io::Result<Raw> {
    let mut bytes = Vec::new();
    (&mut r)
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 <= max {
        let size = bytes.len() as u64;
        return Ok(Raw { bytes, size });
    }
    bytes.truncate(HEAD_BYTES.min(bytes.len()));
    bytes.shrink_to_fit();
    let rest = std::io::copy(&mut r, &mut std::io::sink())?;
    Ok(Raw {
        bytes,
        size: max.saturating_add(1).saturating_add(rest),
    })
}

/// Reads one message file; a file above `max` bytes is not read beyond its head.
pub fn read_file(path: &Path, max: u64) -> Result<Raw, Error> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let size = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if size > max {
        let mut bytes = Vec::new();
        file.take(HEAD_BYTES as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, e))?;
        return Ok(Raw { bytes, size });
    }
    read_limited(file, max).map_err(|e| Error::io(path, e))
}

/// The messages waiting in `maildir/new`, in delivery order: names compared with their digit
/// runs as numbers, because the usual `SECONDS.MMICROSPPIDQCOUNT.HOST` names do not pad their
/// numbers (`M98` comes before `M120`, `Q9` before `Q10`).
pub fn new_messages(maildir: &Path) -> Result<Vec<PathBuf>, Error> {
    let new = maildir.join("new");
    let entries = std::fs::read_dir(&new).map_err(|e| {
        Error::Fail(format!(
            "{}: not a Maildir (it needs new/, cur/ and tmp/): {e}",
            maildir.display()
        ))
    })?;
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .collect();
    out.sort_by_cached_key(|p| natural_key(&p.file_name().unwrap_or_default().to_string_lossy()));
    Ok(out)
}

/// A sort key that orders digit runs by value, then the rest by text.
fn natural_key(name: &str) -> Vec<(u8, u128, String)> {
    let mut out = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 {
            let (run, tail) = rest.split_at(digits);
            // Over-long runs fall back to text order, still deterministic.
            match run.parse::<u128>() {
                Ok(n) => out.push((0, n, run.to_string())),
                Err(_) => out.push((1, 0, run.to_string())),
            }
            rest = tail;
        } else {
            let text = rest.len() - rest.trim_start_matches(|c: char| !c.is_ascii_digit()).len();
            let (run, tail) = rest.split_at(text);
            out.push((1, 0, run.to_string()));
            rest = tail;
        }
    }
    out
}

/// Moves a handled message from new/ to cur/, marked as seen.
pub fn mark_seen(maildir: &Path, message: &Path) -> Result<(), Error> {
    let name = message
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let base = name.split(":2,").next().unwrap_or(&name);
    let cur = maildir.join("cur");
    std::fs::create_dir_all(&cur).map_err(|e| Error::io(&cur, e))?;
    let target = cur.join(format!("{base}:2,S"));
    std::fs::rename(message, &target).map_err(|e| Error::io(message, e))
}

/// The Maildir's ingest lock, held while a batch runs.
pub fn lock(maildir: &Path) -> Result<File, Error> {
    crate::engine::dir::exclusive_lock(
        &maildir.join(".pbem-ingest.lock"),
        "another pbem ingest is reading this Maildir",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_above_the_limit_keeps_only_its_head_and_counts_the_rest() {
        let data = vec![b'x'; 300_000];
        let raw = read_limited(&data[..], 100_000).unwrap();
        assert_eq!(raw.size, 300_000);
        assert_eq!(raw.bytes.len(), HEAD_BYTES);
        assert!(raw.truncated());
        let small = read_limited(&data[..10], 100_000).unwrap();
        assert!(!small.truncated());
    }

    #[test]
    fn maildir_names_sort_in_delivery_order_with_unpadded_numbers() {
        let mut names = vec![
            "1795354896.M932032P18695Q2.vm",
            "1795354896.M98P18695Q10.vm",
            "1795354896.M98P18695Q9.vm",
            "1795354895.M999999P1Q1.vm",
        ];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            vec![
                "1795354895.M999999P1Q1.vm",
                "1795354896.M98P18695Q9.vm",
                "1795354896.M98P18695Q10.vm",
                "1795354896.M932032P18695Q2.vm",
            ]
        );
    }
}
