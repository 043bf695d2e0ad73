//! Crash safety (DESIGN section 5): `pbem process` killed at every atomic write it makes leaves
//! the game wholly before or wholly after the step as a user sees it (status, journal, views,
//! report), and running it again completes the step with the same dice: every file ends up
//! byte-identical to an uninterrupted run. Uses the test hook of src/engine/dir.rs
//! (PBEM_FAULT_AFTER_WRITES, PBEM_FAULT_BEFORE_RENAME, PBEM_COUNT_WRITES, PBEM_FAULT_DELAY_MS).
//! Also: two `process` runs at once never resolve a step twice, and `pbem ingest` of a Maildir
//! killed at every write loses no order and, run again, ends as an uninterrupted run.

mod common;
mod smtp;
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const NOW: &str = "2026-01-01T00:00:00Z";

/// Every file of a game except the lock and temporary files a crash before a rename leaves.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot(dir)
        .into_iter()
        .filter(|(p, _)| !p.file_name().unwrap().to_string_lossy().starts_with(".tmp"))
        .collect()
}

/// What a user sees: status, the journal, each side's view and the newest report, all read
/// through pbem (which derives them from the journal, the commit point).
fn visible(dir: &Path) -> Vec<String> {
    let d = dir.to_str().unwrap();
    let mut out = vec![ok(&["status", d, "--json"])];
    let mut journal: Vec<_> = std::fs::read_dir(dir.join("journal"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with(".tmp"))
        .collect();
    journal.sort();
    for p in journal {
        out.push(format!(
            "{}\n{}",
            p.file_name().unwrap().to_string_lossy(),
            std::fs::read_to_string(&p).unwrap()
        ));
    }
    for side in ["mercenary", "beeler"] {
        out.push(ok(&["view", d, "--side", side, "--format", "yaml"]));
    }
    out.push(ok(&["report", d]));
    out
}

/// A kummen game with both orders of step 1 (setup, with sealed cup draws) in the inbox.
fn ready_game() -> Table {
    let t = Table::kummen();
    for side in ["mercenary", "beeler"] {
        let body = pbem::engine::demo::scripted("kummen", 1, side).unwrap_or_default();
        let block = if body.is_empty() {
            "orders: {}\n".to_string()
        } else {
            let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
            format!("orders:\n{indented}")
        };
        let f = t.signed(side, &format!("s1-{side}"), &t.order(side, &block));
        let (code, out, err) = t.submit(&f);
        assert_eq!(code, 0, "{out}{err}");
    }
    t
}

fn process_with(dir: &Path, env: &[(&str, String)]) -> std::process::Output {
    let mut cmd = pbem();
    cmd.args(["process", dir.to_str().unwrap(), "--now", NOW]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn process_killed_at_every_write_is_before_or_after_the_step_and_a_rerun_gives_the_same_bytes() {
    let t = ready_game();
    let base = t.path("base");
    copy_dir(&t.game, &base);
    let before_visible = visible(&base);

    // The uninterrupted run, counting its writes.
    let clean = t.path("clean");
    copy_dir(&base, &clean);
    let log = t.path("writes.log");
    let out = process_with(&clean, &[("PBEM_COUNT_WRITES", log.display().to_string())]);
    assert!(out.status.success(), "{out:?}");
    let writes = std::fs::read_to_string(&log).unwrap().lines().count() as u64;
    assert!(
        writes >= 8,
        "state, sealed, events, two orders, the record, report, views: {writes}"
    );
    let after_files = files(&clean);
    let after_visible = visible(&clean);
    assert_ne!(before_visible, after_visible);
    let record = std::fs::read(clean.join("journal/000001.yaml")).unwrap();

    let mut befores = 0;
    let mut afters = 0;
    for hook in ["PBEM_FAULT_AFTER_WRITES", "PBEM_FAULT_BEFORE_RENAME"] {
        for n in 1..=writes {
            let run = t.path(&format!("run-{hook}-{n}"));
            copy_dir(&base, &run);
            let out = process_with(&run, &[(hook, n.to_string())]);
            assert!(
                out.status.code().is_none(),
                "{hook}={n}: the process must die by abort, got {:?}",
                out.status
            );
            let seen = visible(&run);
            if seen == before_visible {
                befores += 1;
            } else if seen == after_visible {
                afters += 1;
            } else {
                let diff: Vec<_> = seen
                    .iter()
                    .zip(before_visible.iter())
                    .filter(|(a, b)| a != b)
                    .collect();
                panic!("{hook}={n}: the game is neither before nor after the step: {diff:#?}");
            }
            // Running again completes the step; nothing can tell the crash happened.
            let again = process_with(&run, &[]);
            let code = again.status.code();
            assert!(
                code == Some(0) || code == Some(3),
                "{hook}={n}: rerun {again:?}"
            );
            assert_eq!(
                std::fs::read(run.join("journal/000001.yaml")).unwrap(),
                record,
                "{hook}={n}: the record (dice included) is byte-identical"
            );
            let got = files(&run);
            for (p, bytes) in &after_files {
                assert_eq!(
                    got.get(p),
                    Some(bytes),
                    "{hook}={n}: {} differs from the uninterrupted run",
                    p.display()
                );
            }
            let extra: Vec<_> = got
                .keys()
                .filter(|p| !after_files.contains_key(*p))
                .collect();
            assert!(extra.is_empty(), "{hook}={n}: extra files {extra:?}");
            assert_eq!(visible(&run), after_visible);
            let d = run.to_str().unwrap();
            ok(&["verify", d]);
        }
    }
    assert!(
        befores > 0 && afters > 0,
        "{befores} before, {afters} after"
    );
}

#[test]
fn two_process_runs_at_once_resolve_the_step_once() {
    let t = ready_game();
    // Slow writes make the first run hold the lock long enough for the second to meet it.
    let slow = |dir: &Path| {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"));
        cmd.args(["process", dir.to_str().unwrap(), "--now", NOW])
            .env("PBEM_FAULT_DELAY_MS", "150")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        cmd.spawn().unwrap()
    };
    let a = slow(&t.game);
    // Wait until the first run has made a write (it holds the lock from before its first one).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !t.game.join("host/state/000001.yaml").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run never wrote"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let b = slow(&t.game);
    let a = a.wait_with_output().unwrap();
    let b = b.wait_with_output().unwrap();
    assert_eq!(a.status.code(), Some(0), "{a:?}");
    assert_eq!(b.status.code(), Some(1), "{b:?}");
    let err = String::from_utf8_lossy(&b.stderr);
    assert!(err.contains("another pbem process"), "{err}");
    assert!(t.game.join("journal/000001.yaml").exists());
    assert!(!t.game.join("journal/000002.yaml").exists());
    ok(&["verify", t.dir()]);

    // Racing without delay, many times: each pair adds exactly one record.
    let t = ready_game();
    let base = t.path("base");
    copy_dir(&t.game, &base);
    for i in 0..5 {
        let run = t.path(&format!("race-{i}"));
        copy_dir(&base, &run);
        let spawn = || {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("pbem"))
                .args(["process", run.to_str().unwrap(), "--now", NOW])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let (mut x, mut y) = (spawn(), spawn());
        let cx = x.wait().unwrap().code();
        let cy = y.wait().unwrap().code();
        let mut codes = [cx, cy];
        codes.sort();
        assert!(
            codes == [Some(0), Some(1)] || codes == [Some(0), Some(3)],
            "one resolves, the other is busy or finds the next step waiting: {codes:?}"
        );
        assert!(run.join("journal/000001.yaml").exists());
        assert!(!run.join("journal/000002.yaml").exists());
    }
}

fn run_with(args: &[String], env: &[(&str, String)]) -> std::process::Output {
    let mut cmd = pbem();
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Kills host operation `op` (arguments after the game directory) at each of its writes: the
/// game is before or after it; when before, running it again completes it; when after, the next
/// `process` (which finds the step waiting) finishes the derived files and game.yaml. Either way
/// every file ends byte-identical to an uninterrupted run.
fn host_op_crash_loop(t: &Table, base: &Path, op: &[&str]) {
    let args = |dir: &Path| -> Vec<String> {
        let mut a: Vec<String> = vec!["host".into(), op[0].into(), dir.display().to_string()];
        a.extend(op[1..].iter().map(|s| s.to_string()));
        a.extend(["--now".into(), NOW.into()]);
        a
    };
    let before_visible = visible(base);
    let clean = t.path(&format!("clean-{}", op[0]));
    copy_dir(base, &clean);
    let log = t.path(&format!("writes-{}.log", op[0]));
    let out = run_with(
        &args(&clean),
        &[("PBEM_COUNT_WRITES", log.display().to_string())],
    );
    assert!(out.status.success(), "{out:?}");
    let writes = std::fs::read_to_string(&log).unwrap().lines().count() as u64;
    let after_files = files(&clean);
    let after_visible = visible(&clean);
    let (mut befores, mut afters) = (0, 0);
    for hook in ["PBEM_FAULT_AFTER_WRITES", "PBEM_FAULT_BEFORE_RENAME"] {
        for n in 1..=writes {
            let run = t.path(&format!("run-{}-{hook}-{n}", op[0]));
            copy_dir(base, &run);
            let out = run_with(&args(&run), &[(hook, n.to_string())]);
            assert!(out.status.code().is_none(), "{hook}={n}: {out:?}");
            let seen = visible(&run);
            if seen == before_visible {
                befores += 1;
                let again = run_with(&args(&run), &[]);
                assert!(again.status.success(), "{hook}={n}: {again:?}");
            } else if seen == after_visible {
                afters += 1;
                let again = process_with(&run, &[]);
                assert_eq!(again.status.code(), Some(3), "{hook}={n}: {again:?}");
            } else {
                panic!("{} {hook}={n}: neither before nor after", op[0]);
            }
            let got = files(&run);
            for (p, bytes) in &after_files {
                assert_eq!(
                    got.get(p),
                    Some(bytes),
                    "{} {hook}={n}: {} differs from the uninterrupted run",
                    op[0],
                    p.display()
                );
            }
            let extra: Vec<_> = got
                .keys()
                .filter(|p| !after_files.contains_key(*p))
                .collect();
            assert!(extra.is_empty(), "{hook}={n}: extra files {extra:?}");
            ok(&["verify", run.to_str().unwrap()]);
        }
    }
    assert!(
        befores > 0 && afters > 0,
        "{befores} before, {afters} after"
    );
}

#[test]
fn host_operations_killed_at_every_write_are_before_or_after_and_complete() {
    let t = ready_game();
    ok(&["process", t.dir(), "--now", NOW]);
    let base = t.path("base");
    copy_dir(&t.game, &base);
    let new_key = t.path("keys/beeler-new");
    ok(&["keygen", "--out", new_key.to_str().unwrap()]);
    let pubkey = format!("{}.pub", new_key.display());
    host_op_crash_loop(
        &t,
        &base,
        &[
            "replace-key",
            "--side",
            "beeler",
            "--key",
            &pubkey,
            "--reason",
            "lost key",
        ],
    );
    host_op_crash_loop(
        &t,
        &base,
        &["rollback", "--to", "0", "--reason", "start again"],
    );
    // A hand-over writes the new player's address to mail/addresses.yaml before its record.
    let carol = t.path("keys/carol");
    ok(&["keygen", "--out", carol.to_str().unwrap()]);
    let carol_pub = format!("{}.pub", carol.display());
    host_op_crash_loop(
        &t,
        &base,
        &[
            "hand-over",
            "--side",
            "mercenary",
            "--key",
            &carol_pub,
            "--name",
            "Carol",
            "--email",
            "carol@example.org",
            "--reason",
            "new player",
        ],
    );
}

/// Runs `pbem ingest DIR/game --maildir DIR/Maildir`.
fn ingest_with(dir: &Path, env: &[(&str, String)]) -> std::process::Output {
    let args: Vec<String> = vec![
        "ingest".into(),
        dir.join("game").display().to_string(),
        "--maildir".into(),
        dir.join("Maildir").display().to_string(),
        "--now".into(),
        smtp::game::T0.into(),
        "--json".into(),
    ];
    run_with(&args, env)
}

/// The game's files and the Maildir's, by path under `dir`.
fn game_and_maildir(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    for part in ["game", "Maildir"] {
        for (p, bytes) in files(&dir.join(part)) {
            all.insert(Path::new(part).join(p), bytes);
        }
    }
    all
}

/// `ingest` of a Maildir killed at any of its writes and run again has filed every order,
/// queued every answer once, recorded every verdict and moved every message to cur/: every
/// file is byte-identical to an uninterrupted run's. The Maildir holds a seat's order, the
/// other seat's, and a newer version of the first, which replaces it (so the list of earlier
/// versions is written too: a message handled again after a crash must not list the replaced
/// version twice, and its receipt must still name it).
#[test]
fn ingest_killed_at_every_write_loses_no_order_and_a_rerun_gives_the_same_bytes() {
    use smtp::game::{HOST_ADDRESS, email, mail_table};
    let t = mail_table();
    let base = t.path("base");
    copy_dir(&t.game, &base.join("game"));
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(base.join("Maildir").join(d)).unwrap();
    }
    for (name, side) in [
        ("1.first", "mercenary"),
        ("2.other", "beeler"),
        ("3.newer", "mercenary"),
    ] {
        let signed = t.signed(side, name, &t.order(side, "orders: {}\n"));
        let message = smtp::letters::letter(
            &email(side),
            HOST_ADDRESS,
            "[pbem kummen-test] orders",
            "My orders.",
            &[(
                "signed.yaml",
                "application/yaml",
                &std::fs::read(signed).unwrap(),
            )],
            &[],
        );
        std::fs::write(base.join("Maildir/new").join(name), message).unwrap();
    }

    let clean = t.path("clean");
    copy_dir(&base, &clean);
    let log = t.path("ingest-writes.log");
    let out = ingest_with(&clean, &[("PBEM_COUNT_WRITES", log.display().to_string())]);
    assert!(out.status.success(), "{out:?}");
    let outcomes: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        outcomes.iter().all(|o| o["verdict"] == "accepted"),
        "{outcomes:#?}"
    );
    assert!(
        clean
            .join("game/inbox/000001-mercenary.replaced.yaml")
            .exists()
    );
    let writes = std::fs::read_to_string(&log).unwrap().lines().count() as u64;
    assert!(
        writes >= 16,
        "per message its copy, order, receipt, answer and verdict, and the list: {writes}"
    );
    let after = game_and_maildir(&clean);

    for hook in ["PBEM_FAULT_AFTER_WRITES", "PBEM_FAULT_BEFORE_RENAME"] {
        for n in 1..=writes {
            let run = t.path(&format!("ingest-{hook}-{n}"));
            copy_dir(&base, &run);
            let out = ingest_with(&run, &[(hook, n.to_string())]);
            assert!(out.status.code().is_none(), "{hook}={n}: {out:?}");
            let again = ingest_with(&run, &[]);
            assert!(again.status.success(), "{hook}={n}: {again:?}");
            let got = game_and_maildir(&run);
            for (p, bytes) in &after {
                assert!(
                    got.get(p) == Some(bytes),
                    "{hook}={n}: {} differs from the uninterrupted run:\n{}",
                    p.display(),
                    got.get(p)
                        .map(|b| String::from_utf8_lossy(b).to_string())
                        .unwrap_or("(missing)".into())
                );
            }
            let extra: Vec<_> = got.keys().filter(|p| !after.contains_key(*p)).collect();
            assert!(extra.is_empty(), "{hook}={n}: extra files {extra:?}");
        }
    }
}

#[test]
fn a_host_operation_after_a_crash_that_left_the_derived_files_of_a_step_undone_completes_them_first()
 {
    let t = ready_game();
    let base = t.path("base");
    copy_dir(&t.game, &base);
    let log = t.path("writes.log");
    let clean = t.path("clean");
    copy_dir(&base, &clean);
    let out = process_with(&clean, &[("PBEM_COUNT_WRITES", log.display().to_string())]);
    assert!(out.status.success(), "{out:?}");
    let writes = std::fs::read_to_string(&log).unwrap().lines().count() as u64;
    let mut after_record = 0;
    for n in 1..=writes {
        let run = t.path(&format!("run-{n}"));
        copy_dir(&base, &run);
        let out = process_with(&run, &[("PBEM_FAULT_AFTER_WRITES", n.to_string())]);
        assert!(out.status.code().is_none(), "{n}: {out:?}");
        if !run.join("journal/000001.yaml").exists() {
            continue;
        }
        after_record += 1;
        // The step's record is there, its report or views may not be; the next record is a
        // host operation's, not a step's.
        let d = run.to_str().unwrap();
        ok(&["pause", d, "--reason", "a crash to look at", "--now", NOW]);
        assert!(run.join("reports/000001.txt").exists(), "{n}");
        for side in ["mercenary", "beeler"] {
            assert!(
                run.join(format!("views/{side}/000001.yaml")).exists(),
                "{n} {side}"
            );
        }
        ok(&["verify", "--full", d]);
    }
    assert!(
        after_record >= 2,
        "crashes after the record: {after_record}"
    );
}
