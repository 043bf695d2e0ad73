//! Deadlines, missed orders, pause/resume/extend and `process --all`, through the CLI with
//! `--now` so every time is fixed.

mod common;

use common::*;
use std::path::{Path, PathBuf};

const T0: &str = "2026-05-01T10:00:00Z";

/// T0 plus `hours` (and `minutes`), RFC 3339.
fn at(hours: i64, minutes: i64) -> String {
    let t: jiff::Timestamp = T0.parse().unwrap();
    t.checked_add(jiff::SignedDuration::from_mins(hours * 60 + minutes))
        .unwrap()
        .to_string()
}

struct Host {
    tmp: tempfile::TempDir,
}

impl Host {
    fn new() -> Host {
        let tmp = tempfile::tempdir().unwrap();
        let keys = tmp.path().join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        for side in ["mercenary", "beeler"] {
            ok(&[
                "keygen",
                "--out",
                keys.join(side).to_str().unwrap(),
                "--comment",
                side,
            ]);
        }
        Host { tmp }
    }

    fn key(&self, side: &str) -> PathBuf {
        self.tmp.path().join("keys").join(side)
    }

    /// `pbem new` at T0 with a 72h step duration; `extra` is appended to game.yaml.
    fn game(&self, rel: &str, extra_deadline: &str, extra: &str) -> PathBuf {
        let dir = self.tmp.path().join(rel);
        ok(&[
            "new",
            dir.to_str().unwrap(),
            "--system",
            "kummen",
            "--id",
            "kummen-test",
            "--seat",
            &format!("mercenary={}.pub", self.key("mercenary").display()),
            "--seat",
            &format!("beeler={}.pub", self.key("beeler").display()),
            "--step-duration",
            "72h",
            "--now",
            T0,
        ]);
        let cfg = dir.join("game.yaml");
        let mut text = std::fs::read_to_string(&cfg).unwrap();
        assert!(text.contains("deadline:\n  step: 72h\n"), "{text}");
        text = text.replace(
            "deadline:\n  step: 72h\n",
            &format!("deadline:\n  step: 72h\n{extra_deadline}"),
        );
        text.push_str(extra);
        std::fs::write(&cfg, text).unwrap();
        dir
    }

    /// Signs and submits `orders: {}` for `side` at the open step of `dir`.
    fn submit(&self, dir: &Path, side: &str) {
        let st = status(dir);
        let doc = format!(
            "pbem: order/2\ngame: kummen-test\nstep: {}\nside: {side}\nbasis: {}\nentropy: auto\norders: {{}}\n",
            st["step"],
            st["head"].as_str().unwrap()
        );
        let name = format!(
            "{}-{}-{side}",
            dir.file_name().unwrap().to_string_lossy(),
            st["step"]
        );
        let signed = sign_as(
            &self.key(side),
            &self.tmp.path().join(format!("{name}.plain.yaml")),
            &self.tmp.path().join(format!("{name}.yaml")),
            &doc,
        );
        ok(&["submit", dir.to_str().unwrap(), signed.to_str().unwrap()]);
    }
}

fn status(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(&["status", dir.to_str().unwrap(), "--json"])).unwrap()
}

fn deadline(dir: &Path) -> String {
    status(dir)["schedule"]["deadline"]
        .as_str()
        .unwrap_or("none")
        .to_string()
}

fn process(dir: &Path, now: &str, more: &[&str]) -> (i32, String, String) {
    let mut args = vec!["process", dir.to_str().unwrap(), "--now", now];
    args.extend_from_slice(more);
    run(&args)
}

fn record(dir: &Path, seq: u64) -> String {
    std::fs::read_to_string(dir.join("journal").join(format!("{seq:06}.yaml"))).unwrap()
}

fn missed(dir: &Path, side: &str) -> u64 {
    status(dir)["missed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["side"] == side)
        .unwrap()["count"]
        .as_u64()
        .unwrap()
}

#[test]
fn a_duration_deadline_with_grace_resolves_with_default_orders_that_verify() {
    let h = Host::new();
    let g = h.game("g", "  grace: 2h\n", "");
    assert_eq!(deadline(&g), at(72, 0));
    assert_eq!(status(&g)["schedule"]["grace"], "2h");
    h.submit(&g, "mercenary");
    // Before the deadline, and inside the grace period: waiting (exit 3), nothing changes.
    let (code, _, err) = process(&g, &at(71, 0), &[]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = process(&g, &at(73, 59), &[]);
    assert_eq!(code, 3, "{err}");
    assert!(!g.join("journal/000001.yaml").exists());
    // Grace over: beeler gets the system's default orders.
    let (code, out, err) = process(&g, &at(74, 0), &[]);
    assert_eq!(code, 0, "{out}{err}");
    let rec = record(&g, 1);
    assert!(rec.contains("defaults:\n  - beeler\n"), "{rec}");
    assert!(!rec.contains("side: beeler"), "{rec}");
    assert_eq!(missed(&g, "beeler"), 1);
    assert_eq!(missed(&g, "mercenary"), 0);
    let text = ok(&["status", g.to_str().unwrap()]);
    assert!(text.contains("beeler 1"), "{text}");
    let report = ok(&["report", g.to_str().unwrap(), "--record", "1"]);
    assert!(
        report.contains("beeler missed the deadline: DEFAULT ORDERS"),
        "{report}"
    );
    // The next step's deadline counts from when it opened (the processing time).
    assert_eq!(deadline(&g), at(74 + 72, 0));
    // Public and full verification accept the defaulted step (seed with the empty part,
    // replay with the rebuilt default orders).
    ok(&["verify", g.to_str().unwrap(), "--public-only"]);
    ok(&["verify", g.to_str().unwrap()]);
}

#[test]
fn a_step_resolves_early_when_every_order_is_in() {
    let h = Host::new();
    let g = h.game("g", "", "");
    h.submit(&g, "mercenary");
    h.submit(&g, "beeler");
    let (code, out, err) = process(&g, &at(1, 0), &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!record(&g, 1).contains("defaults"));
    assert_eq!(deadline(&g), at(73, 0));
}

#[test]
fn a_calendar_deadline_in_a_zone_is_stored_in_utc_and_shown_in_the_players_zone() {
    let h = Host::new();
    // At least 24h after opening (2026-05-02 12:00 in Oslo, CEST), then the next 20:00 there.
    let g = h.game("g", "  at: '20:00'\n  tz: Europe/Oslo\n", "");
    let cfg = g.join("game.yaml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    let text = text.replace("step: 72h\n", "step: 24h\n");
    let marker = "- side: beeler\n";
    assert!(text.contains(marker), "{text}");
    let text = text.replace(marker, "- side: beeler\n  tz: America/New_York\n");
    std::fs::write(&cfg, text).unwrap();
    assert_eq!(deadline(&g), "2026-05-02T18:00:00Z");
    let view = ok(&["view", g.to_str().unwrap(), "--side", "beeler"]);
    assert!(
        view.contains("deadline 2026-05-02 14:00 EDT America/New_York (2026-05-02T18:00:00Z)"),
        "{view}"
    );
    let view = ok(&["view", g.to_str().unwrap(), "--side", "mercenary"]);
    assert!(
        view.contains("deadline 2026-05-02T18:00:00Z (UTC)"),
        "{view}"
    );
    // A bad zone is refused with the field named.
    let bad = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("Europe/Oslo", "Mars/Olympus");
    std::fs::write(&cfg, bad).unwrap();
    let (code, _, err) = run(&["status", g.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("Mars/Olympus"), "{err}");
}

#[test]
fn missed_orders_wait_never_processes_on_the_deadline() {
    let h = Host::new();
    let g = h.game("g", "", "missed_orders: wait\n");
    h.submit(&g, "mercenary");
    let (code, _, err) = process(&g, &at(500, 0), &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("wait"), "{err}");
    assert!(!g.join("journal/000001.yaml").exists());
    // The host may still decide: --force-defaults.
    let (code, out, err) = process(&g, &at(500, 0), &["--force-defaults"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(record(&g, 1).contains("defaults:\n  - beeler\n"));
}

#[test]
fn missed_orders_host_refuses_until_the_host_forces_defaults() {
    let h = Host::new();
    let g = h.game("g", "", "missed_orders: host\n");
    assert_eq!(status(&g)["missed_orders"], "host");
    h.submit(&g, "mercenary");
    // Forcing before the deadline is refused too.
    let (code, _, err) = process(&g, &at(10, 0), &["--force-defaults"]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = process(&g, &at(80, 0), &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--force-defaults"), "{err}");
    assert!(!g.join("journal/000001.yaml").exists());
    let (code, out, err) = process(&g, &at(80, 0), &["--force-defaults"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(record(&g, 1).contains("defaults:\n  - beeler\n"));
    ok(&["verify", g.to_str().unwrap()]);
}

#[test]
fn pause_resume_and_extend_are_journaled_and_move_the_deadline() {
    let h = Host::new();
    let g = h.game("g", "", "");
    let d = g.to_str().unwrap();
    ok(&[
        "pause",
        d,
        "--reason",
        "host on holiday",
        "--now",
        &at(10, 0),
    ]);
    let rec = record(&g, 1);
    assert!(rec.contains("op: pause"), "{rec}");
    assert!(rec.contains("reason: host on holiday"), "{rec}");
    assert!(rec.contains(&format!("at: \"{}\"", at(10, 0))), "{rec}");
    assert!(status(&g)["schedule"]["paused_since"].is_string());
    // Paused: no deadline processing, however late.
    let (code, _, err) = process(&g, &at(400, 0), &[]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("paused"), "{err}");
    let (code, _, _) = run(&["pause", d, "--reason", "again", "--now", &at(11, 0)]);
    assert_eq!(code, 1, "pausing a paused game is refused");
    ok(&["resume", d, "--reason", "back", "--now", &at(20, 0)]);
    assert!(record(&g, 2).contains("op: resume"));
    // Ten hours paused: the deadline moves from T0+72h to T0+82h.
    assert_eq!(deadline(&g), at(82, 0));
    ok(&[
        "extend",
        d,
        "--by",
        "24h",
        "--reason",
        "a player asked",
        "--now",
        &at(30, 0),
    ]);
    let rec = record(&g, 3);
    assert!(rec.contains("op: extend"), "{rec}");
    assert!(
        rec.contains(&format!("deadline: \"{}\"", at(106, 0))),
        "{rec}"
    );
    assert_eq!(deadline(&g), at(106, 0));
    assert_eq!(status(&g)["schedule"]["extended"], true);
    // An extension never shortens the deadline.
    let (code, _, err) = run(&[
        "extend",
        d,
        "--until",
        &at(90, 0),
        "--reason",
        "oops",
        "--now",
        &at(31, 0),
    ]);
    assert_eq!(code, 1, "{err}");
    // A time in a named zone: 2026-05-06 12:00 in Oslo (CEST) is 10:00 UTC = T0+120h.
    ok(&[
        "extend",
        d,
        "--until",
        "2026-05-06T12:00[Europe/Oslo]",
        "--reason",
        "more",
        "--now",
        &at(32, 0),
    ]);
    assert_eq!(deadline(&g), at(120, 0));
    h.submit(&g, "mercenary");
    let (code, _, err) = process(&g, &at(119, 0), &[]);
    assert_eq!(code, 3, "{err}");
    let (code, out, err) = process(&g, &at(120, 1), &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(record(&g, 5).contains("defaults:\n  - beeler\n"));
    let report = ok(&["report", d, "--record", "1"]);
    assert!(report.contains("record 1"), "{report}");
    ok(&["verify", d]);
}

fn sweep(root: &Path, now: &str, more: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec![
        "process",
        "--all",
        root.to_str().unwrap(),
        "--now",
        now,
        "--json",
    ];
    args.extend_from_slice(more);
    let (code, out, err) = run(&args);
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v, err)
}

fn outcome_of(v: &serde_json::Value, name: &str) -> String {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["dir"].as_str().unwrap().ends_with(name))
        .unwrap_or_else(|| panic!("no {name} in {v}"))["outcome"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn process_all_sweeps_due_idle_broken_and_locked_games() {
    let h = Host::new();
    let root = h.tmp.path().join("games");
    let due = h.game("games/a-due", "", "");
    h.submit(&due, "mercenary");
    h.submit(&due, "beeler");
    h.game("games/b-idle", "", "");
    let locked = h.game("games/c-locked", "", "");
    h.submit(&locked, "mercenary");
    h.submit(&locked, "beeler");
    let broken = h.game("games/nested/d-broken", "", "");
    std::fs::write(broken.join("game.yaml"), "pbem: game/1\nnot: [a game\n").unwrap();

    let lock = std::fs::File::options()
        .write(true)
        .open(locked.join("host/lock"))
        .or_else(|_| {
            std::fs::File::options()
                .create(true)
                .truncate(false)
                .write(true)
                .open(locked.join("host/lock"))
        })
        .unwrap();
    lock.try_lock().unwrap();

    let (code, v, err) = sweep(&root, &at(1, 0), &[]);
    assert_eq!(outcome_of(&v, "a-due"), "processed", "{v}");
    assert_eq!(outcome_of(&v, "b-idle"), "idle", "{v}");
    assert_eq!(outcome_of(&v, "c-locked"), "busy", "{v}");
    assert_eq!(outcome_of(&v, "d-broken"), "failed", "{v}");
    assert_eq!(code, 1, "a failed game makes the exit code 1: {v}{err}");
    assert_eq!(v["exit"], 1);
    assert!(due.join("journal/000001.yaml").exists());
    assert!(!locked.join("journal/000001.yaml").exists());

    // Without the broken game: busy is the worst (3).
    std::fs::remove_dir_all(&broken).unwrap();
    let (code, v, _) = sweep(&root, &at(1, 0), &[]);
    assert_eq!(code, 3, "{v}");
    drop(lock);
    let (code, v, _) = sweep(&root, &at(1, 0), &[]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(outcome_of(&v, "c-locked"), "processed", "{v}");
    assert_eq!(outcome_of(&v, "a-due"), "idle", "{v}");

    // Text output: one line per game.
    let (code, out, _) = run(&[
        "process",
        "--all",
        root.to_str().unwrap(),
        "--now",
        &at(2, 0),
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 3, "{out}");
    ok(&["verify", due.to_str().unwrap()]);
}

#[test]
fn the_outage_guard_holds_long_overdue_games_until_catch_up() {
    let h = Host::new();
    let root = h.tmp.path().join("games");
    let g = h.game("games/late", "  grace: 1h\n", "");
    let host = h.game("games/hosted", "", "missed_orders: host\n");
    h.submit(&g, "mercenary");
    // Deadline + grace is T0+73h. A sweep 5h later processes (within the default 6h).
    // 10h later it is held as a possible outage.
    let (code, v, _) = sweep(&root, &at(83, 0), &[]);
    assert_eq!(outcome_of(&v, "late"), "held", "{v}");
    assert_eq!(outcome_of(&v, "hosted"), "held", "{v}");
    assert_eq!(code, 3, "{v}");
    assert!(!g.join("journal/000001.yaml").exists());
    // A wider guard lets it through, as does --catch-up.
    let (code, v, _) = sweep(&root, &at(83, 0), &["--catch-up"]);
    assert_eq!(outcome_of(&v, "late"), "processed", "{v}");
    assert_eq!(code, 3, "the host-policy game is still held: {v}");
    assert!(record(&g, 1).contains("defaults:\n  - beeler\n"));
    // Host policy: only an explicit decision processes it.
    let (code, _, err) = process(&host, &at(83, 0), &["--force-defaults"]);
    assert_eq!(code, 0, "{err}");

    // Within the guard: processed without --catch-up.
    let g2 = h.game("games/late2", "", "");
    h.submit(&g2, "mercenary");
    let (_, v, _) = sweep(&root, &at(77, 0), &[]);
    assert_eq!(outcome_of(&v, "late2"), "processed", "{v}");
    let g3 = h.game("games/late3", "", "");
    h.submit(&g3, "mercenary");
    let (_, v, _) = sweep(&root, &at(90, 0), &["--max-late", "24h"]);
    assert_eq!(outcome_of(&v, "late3"), "processed", "{v}");
}

#[test]
fn new_takes_a_calendar_deadline_and_grace_on_the_command_line() {
    let h = Host::new();
    let dir = h.tmp.path().join("g");
    ok(&[
        "new",
        dir.to_str().unwrap(),
        "--system",
        "kummen",
        "--id",
        "kummen-test",
        "--seat",
        &format!("mercenary={}.pub", h.key("mercenary").display()),
        "--seat",
        &format!("beeler={}.pub", h.key("beeler").display()),
        "--step-duration",
        "24h",
        "--deadline-at",
        "20:00",
        "--deadline-tz",
        "Europe/Oslo",
        "--grace",
        "1h",
        "--now",
        T0,
    ]);
    let cfg = std::fs::read_to_string(dir.join("game.yaml")).unwrap();
    assert!(cfg.contains("tz: Europe/Oslo"), "{cfg}");
    assert_eq!(deadline(&dir), "2026-05-02T18:00:00Z");
    assert_eq!(status(&dir)["schedule"]["grace"], "1h");
    let view = std::fs::read_to_string(dir.join("views/beeler/view.txt")).unwrap();
    assert!(
        view.contains("deadline 2026-05-02T18:00:00Z (UTC) (grace 1h)"),
        "{view}"
    );
    let (code, _, err) = run(&[
        "new",
        h.tmp.path().join("g2").to_str().unwrap(),
        "--system",
        "kummen",
        "--seat",
        &format!("mercenary={}.pub", h.key("mercenary").display()),
        "--seat",
        &format!("beeler={}.pub", h.key("beeler").display()),
        "--deadline-at",
        "20:00",
        "--deadline-tz",
        "Mars/Olympus",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("--deadline-tz"), "{err}");
}

#[test]
fn verify_refuses_a_resume_of_a_game_that_was_never_paused() {
    let h = Host::new();
    let g = h.game("g", "", "");
    let d = g.to_str().unwrap();
    ok(&["pause", d, "--reason", "r", "--now", &at(1, 0)]);
    ok(&["verify", d, "--public-only"]);
    // Rewrite the pause as a resume (and keep the chain consistent: it is the newest record).
    let path = g.join("journal/000001.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("op: pause"));
    std::fs::write(&path, text.replace("op: pause", "op: resume")).unwrap();
    let (code, out, err) = run(&["verify", d, "--public-only"]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(err.contains("resumes a game that is not paused"), "{err}");
}

#[test]
fn status_says_how_long_until_the_step_is_due_and_when_it_is_overdue() {
    let host = Host::new();
    let dir = host.game("due", "  grace: 2h\n", "");
    let d = dir.to_str().unwrap();
    let before: serde_json::Value =
        serde_json::from_str(&ok(&["status", d, "--json", "--now", &at(70, 0)])).unwrap();
    assert_eq!(before["overdue"], false);
    assert_eq!(before["due_in"], "4h", "72h + 2h grace - 70h");
    let text = ok(&["status", d, "--now", &at(80, 30)]);
    assert!(text.contains("overdue by 6h 30m"), "{text}");
    let after: serde_json::Value =
        serde_json::from_str(&ok(&["status", d, "--json", "--now", &at(80, 30)])).unwrap();
    assert_eq!(after["overdue"], true);
}

/// Pause, resume and extend leave the step open and its players' keys unchanged, so an order
/// already in the inbox stays valid (its basis is a record of the open step, game::step_bases)
/// and is used; only replace-key, hand-over and rollback withdraw inbox orders
/// (docs/architecture.md, "Host operations").
#[test]
fn an_order_in_the_inbox_stays_through_pause_resume_and_extend_and_is_used() {
    let h = Host::new();
    let g = h.game("g", "", "");
    let d = g.to_str().unwrap();
    assert_eq!(status(&g)["waiting_for"].as_array().unwrap().len(), 2);
    h.submit(&g, "mercenary");
    let inbox = g.join("inbox/000001-mercenary.yaml");
    let waiting = std::fs::read(&inbox).unwrap();
    ok(&["pause", d, "--reason", "holiday", "--now", &at(1, 0)]);
    ok(&["resume", d, "--reason", "back", "--now", &at(2, 0)]);
    ok(&[
        "extend",
        d,
        "--by",
        "24h",
        "--reason",
        "asked",
        "--now",
        &at(3, 0),
    ]);
    assert_eq!(std::fs::read(&inbox).unwrap(), waiting, "still waiting");
    assert!(!g.join("host/withdrawn").exists(), "nothing withdrawn");
    for seq in 1..=3 {
        assert!(
            !record(&g, seq).contains("withdrawn"),
            "{}",
            record(&g, seq)
        );
    }
    let received = status(&g)["received"].clone();
    assert_eq!(received, serde_json::json!(["mercenary"]), "{received}");
    h.submit(&g, "beeler");
    let (code, out, err) = process(&g, &at(4, 0), &[]);
    assert_eq!(code, 0, "{out}{err}");
    let used = record(&g, 4);
    assert!(
        used.contains("side: mercenary") && !used.contains("defaults:"),
        "{used}"
    );
    assert!(
        std::fs::read(g.join("host/orders/000004-mercenary.yaml")).unwrap() == waiting,
        "the order sent before the pause is the one used"
    );
    ok(&["verify", d]);
}
