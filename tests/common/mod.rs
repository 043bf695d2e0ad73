//! Drives the real `pbem` binary in temporary directories, as a host and two players would.
#![allow(dead_code)]

pub mod coverage;

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Table {
    pub tmp: tempfile::TempDir,
    pub game: PathBuf,
    /// The game id: `<system>-test`.
    pub id: String,
    /// The last order version written by [`Table::order`]: every order gets a larger one, so a
    /// later order always replaces an earlier one, however fast the test signs.
    pub versions: std::cell::Cell<u64>,
}

pub fn pbem() -> Command {
    Command::cargo_bin("pbem").expect("the pbem binary is built")
}

/// Runs pbem with `args`; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = pbem().args(args).output().expect("pbem runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Writes `doc` to `plain`, signs it with the key file `key` by `pbem sign` into `signed`, and
/// returns `signed`.
pub fn sign_as(key: &Path, plain: &Path, signed: &Path, doc: &str) -> PathBuf {
    std::fs::write(plain, doc).unwrap();
    ok(&[
        "sign",
        plain.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    signed.to_path_buf()
}

pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "pbem {args:?} failed:\n{out}\n{err}");
    out
}

/// `pbem new` of a kummen game with id `kummen-test` and these public keys.
pub fn new_kummen(game: &Path, mercenary_pub: &Path, beeler_pub: &Path) {
    ok(&[
        "new",
        game.to_str().unwrap(),
        "--system",
        "kummen",
        "--id",
        "kummen-test",
        "--seat",
        &format!("mercenary={}", mercenary_pub.display()),
        "--seat",
        &format!("beeler={}", beeler_pub.display()),
    ]);
}

impl Table {
    /// A fresh kummen game with keys for both sides in `keys/`.
    pub fn kummen() -> Table {
        Table::new("kummen", &["mercenary", "beeler"])
    }

    /// A fresh dougram game (setup1) with keys for both sides in `keys/`.
    pub fn dougram() -> Table {
        Table::new("dougram", &["lib", "fed"])
    }

    /// A fresh game of `system` with id `<system>-test` and a key per side in `keys/`.
    pub fn new(system: &str, sides: &[&str]) -> Table {
        let tmp = tempfile::tempdir().unwrap();
        let keys = tmp.path().join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        for side in sides {
            ok(&[
                "keygen",
                "--out",
                keys.join(side).to_str().unwrap(),
                "--comment",
                side,
            ]);
        }
        let game = tmp.path().join("game");
        let id = format!("{system}-test");
        let mut args: Vec<String> = vec![
            "new".into(),
            game.to_str().unwrap().into(),
            "--system".into(),
            system.into(),
            "--id".into(),
            id.clone(),
        ];
        for side in sides {
            args.push("--seat".into());
            args.push(format!(
                "{side}={}",
                keys.join(format!("{side}.pub")).display()
            ));
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&refs);
        Table {
            tmp,
            game,
            id,
            versions: std::cell::Cell::new(0),
        }
    }

    pub fn dir(&self) -> &str {
        self.game.to_str().unwrap()
    }

    pub fn key(&self, side: &str) -> PathBuf {
        self.tmp.path().join("keys").join(side)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.tmp.path().join(name)
    }

    pub fn status(&self) -> serde_json::Value {
        serde_json::from_str(&ok(&["status", self.dir(), "--json"])).unwrap()
    }

    pub fn step(&self) -> u64 {
        self.status()["step"].as_u64().unwrap()
    }

    pub fn head(&self) -> String {
        self.status()["head"].as_str().unwrap().to_string()
    }

    /// An unsigned order document for the open step with the given `orders:` block, and a
    /// version larger than any this table wrote before.
    pub fn order(&self, side: &str, orders_block: &str) -> String {
        self.versions.set(self.versions.get() + 1);
        format!(
            "pbem: order/2\ngame: {}\nstep: {}\nside: {side}\nbasis: {}\nentropy: auto\nversion: {}\n{orders_block}",
            self.id,
            self.step(),
            self.head(),
            self.versions.get()
        )
    }

    /// Writes `doc` to a file, signs it with `side`'s key and returns the signed file.
    pub fn signed(&self, side: &str, name: &str, doc: &str) -> PathBuf {
        sign_as(
            &self.key(side),
            &self.path(&format!("{name}.plain.yaml")),
            &self.path(&format!("{name}.yaml")),
            doc,
        )
    }

    /// A stored kummen state of this game (host/state/...), with the game's data.yaml attached
    /// as the engine reads it.
    pub fn kummen_state(&self, path: &Path) -> pbem::systems::kummen::State {
        use pbem::systems::Rules;
        let mut state: pbem::systems::kummen::State =
            serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let data =
            serde_saphyr::from_str(&std::fs::read_to_string(self.game.join("data.yaml")).unwrap())
                .unwrap();
        pbem::systems::kummen::Kummen.attach(&mut state, std::sync::Arc::new(data));
        state
    }

    pub fn submit(&self, file: &Path) -> (i32, String, String) {
        run(&["submit", self.dir(), file.to_str().unwrap()])
    }

    /// Signs and submits `orders: {}` (or the given block) for every side the step waits for,
    /// then processes the step.
    pub fn play_step(&self, blocks: &[(&str, &str)]) -> String {
        let st = self.status();
        for side in st["waiting_for"].as_array().unwrap() {
            let side = side.as_str().unwrap();
            let block = blocks
                .iter()
                .find(|(s, _)| *s == side)
                .map(|(_, b)| *b)
                .unwrap_or("orders: {}\n");
            let f = self.signed(
                side,
                &format!("s{}-{side}", self.step()),
                &self.order(side, block),
            );
            let (code, out, err) = self.submit(&f);
            assert_eq!(code, 0, "submit failed:\n{out}\n{err}");
        }
        ok(&["process", self.dir()])
    }
}

impl Table {
    /// Plays every step with the orders of `system`'s demo script (orders/<system>/), and empty
    /// orders after it, until the game is over or `limit` steps were played. Returns the number
    /// of steps played.
    pub fn play_script(&self, system: &str, sides: &[&str], limit: u64) -> u64 {
        let mut steps = 0;
        while !self.status()["finished"].as_bool().unwrap() && steps < limit {
            let step = self.step();
            let blocks: Vec<(String, String)> = sides
                .iter()
                .filter_map(|side| {
                    pbem::engine::demo::scripted(system, step, side).map(|body| {
                        let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
                        (side.to_string(), format!("orders:\n{indented}"))
                    })
                })
                .collect();
            let refs: Vec<(&str, &str)> = blocks
                .iter()
                .map(|(s, b)| (s.as_str(), b.as_str()))
                .collect();
            self.play_step(&refs);
            steps += 1;
        }
        steps
    }
}

/// Every file under `dir` with its bytes: to prove a rejected input changed nothing. The lock
/// and the host's caches of parsed files (engine::cache, `host/cache/`) are left out: which
/// file a cache holds depends on the commands run (any command may fill it), and a cache that
/// is stale is never used.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p == dir.join("host/cache") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n != "lock") {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

/// A kummen game in progress recorded by pbem 0.2.0, whose kummen rules 1 kept the map and
/// counters in every state (tests/fixtures/rules1-kummen: `pbem demo kummen` cut after record
/// 4, with the players' keys).
pub fn rules1_kummen() -> Table {
    fixture_table("rules1-kummen", "kummen-demo", 0)
}

/// A copy of the game kept in tests/fixtures/`name` (its `game/` and `keys/`), as a table
/// whose next order version is above `versions` (the versions the fixture's orders used).
pub fn fixture_table(name: &str, id: &str, versions: u64) -> Table {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name),
        tmp.path(),
    );
    std::fs::create_dir_all(tmp.path().join("game/inbox")).unwrap();
    Table {
        game: tmp.path().join("game"),
        tmp,
        id: id.into(),
        versions: std::cell::Cell::new(versions),
    }
}

pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A kummen game in progress recorded under kummen rules 2 (pbem 0.3.0), before issue 12's rule
/// fixes (tests/fixtures/rules2-kummen: the demo script's first four steps, played one by one
/// with the pbem of that release, with the players' keys).
pub fn rules2_kummen() -> Table {
    fixture_table("rules2-kummen", "kummen-demo", 10)
}

/// A copy of tests/fixtures/journal1-dougram: a concluded dougram game recorded before issue 10
/// (journal/1, order/1, receipt/1, rules 1), with its archive.
pub fn journal1_dougram() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/journal1-dougram"),
        &game,
    );
    (tmp, game)
}
