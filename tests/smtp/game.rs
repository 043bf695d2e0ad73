//! A kummen game with play by email turned on, driven through the real `pbem` binary with
//! explicit times, so every mail is reproducible.

use crate::common::{Table, ok, pbem, run};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const T0: &str = "2026-05-01T12:00:00Z";
pub const HOST: &str = "Kummen host <host@example.org>";
pub const HOST_ADDRESS: &str = "host@example.org";
pub const OBSERVER: &str = "ref@example.org";

pub fn email(side: &str) -> String {
    format!("{side}@players.example.org")
}

/// A kummen game `kummen-test` with mail: both seats have addresses, one observer, steps of
/// 72 hours with a reminder 24 hours before the deadline; step 1 opened at T0.
pub fn mail_table() -> Table {
    let tmp = tempfile::tempdir().unwrap();
    for side in ["mercenary", "beeler"] {
        let key = tmp.path().join("keys").join(side);
        ok(&["keygen", "--out", key.to_str().unwrap(), "--comment", side]);
    }
    let t = Table {
        game: tmp.path().join("game"),
        tmp,
        id: "kummen-test".into(),
        versions: Default::default(),
    };
    let game = t.game.clone();
    let (m, b) = (t.path("keys/mercenary.pub"), t.path("keys/beeler.pub"));
    ok(&[
        "new",
        game.to_str().unwrap(),
        "--system",
        "kummen",
        "--id",
        "kummen-test",
        "--seat",
        &format!("mercenary={}", m.display()),
        "--seat",
        &format!("beeler={}", b.display()),
        "--email",
        &format!("mercenary=Mary Merc <{}>", email("mercenary")),
        "--email",
        &format!("beeler={}", email("beeler")),
        "--name",
        "beeler=Bob Beeler",
        "--mail-from",
        HOST,
        "--observer",
        OBSERVER,
        "--step-duration",
        "72h",
        "--remind-before",
        "24h",
        "--now",
        T0,
    ]);
    t
}

/// The time `hours` after T0, RFC 3339.
pub fn at(hours: i64) -> String {
    let t: jiff::Timestamp = T0.parse().unwrap();
    t.checked_add(jiff::SignedDuration::from_hours(hours))
        .unwrap()
        .to_string()
}

/// An order of `side` for the open step with entropy filled in (ready for ssh-keygen).
pub fn order_with_entropy(t: &Table, side: &str, block: &str) -> String {
    t.order(side, block)
        .replace("entropy: auto", &format!("entropy: {}", "5a".repeat(32)))
}

/// Signs and submits `orders: {}` for every waiting side (through the CLI), then processes the
/// step at `now`.
pub fn play_step_at(t: &Table, now: &str) {
    for side in t.status()["waiting_for"].as_array().unwrap().clone() {
        let side = side.as_str().unwrap();
        let f = t.signed(
            side,
            &format!("s{}-{side}", t.step()),
            &t.order(side, "orders: {}\n"),
        );
        let (code, out, err) = t.submit(&f);
        assert_eq!(code, 0, "submit: {out}{err}");
    }
    ok(&["process", t.dir(), "--now", now]);
}

/// Every file in `dir` (not recursive) by name.
pub fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().is_file())
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().to_string(),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The queued messages (outbox/*.eml) by key.
pub fn outbox(t: &Table) -> BTreeMap<String, Vec<u8>> {
    files(&t.game.join("outbox"))
        .into_iter()
        .filter_map(|(n, b)| Some((n.strip_suffix(".eml")?.to_string(), b)))
        .collect()
}

/// `pbem send GAME --to-dir DIR --now NOW`; returns DIR.
pub fn send_to_dir(t: &Table, name: &str, now: &str) -> PathBuf {
    let dir = t.path(name);
    ok(&[
        "send",
        t.dir(),
        "--to-dir",
        dir.to_str().unwrap(),
        "--now",
        now,
    ]);
    dir
}

/// `pbem ingest GAME_OR_ROOT --file FILE --now NOW --json`: (exit code, the outcome, stderr).
pub fn ingest_file(root: &Path, file: &Path, now: &str) -> (i32, serde_json::Value, String) {
    let (code, out, err) = run(&[
        "ingest",
        root.to_str().unwrap(),
        "--file",
        file.to_str().unwrap(),
        "--now",
        now,
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (code, v[0].clone(), err)
}

/// `pbem ingest` of `bytes` through standard input.
pub fn ingest_stdin(root: &Path, bytes: &[u8], now: &str) -> (i32, serde_json::Value) {
    let out = pbem()
        .args(["ingest", root.to_str().unwrap(), "--now", now, "--json"])
        .write_stdin(bytes.to_vec())
        .output()
        .unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), v[0].clone())
}
