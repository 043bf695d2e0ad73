//! `pbem publish DIR --git-repo REPO` with the real git program: a commit per journal record,
//! naming it; host/, views/ (and the other private folders) never enter the repository, neither
//! in its files nor anywhere in its history; both a separate repository and the game directory
//! itself work.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn have_git() -> bool {
    Command::new("git").arg("--version").output().is_ok()
}

fn play(t: &Table) {
    let step = t.step();
    let blocks: Vec<(String, String)> = ["mercenary", "beeler"]
        .iter()
        .map(|side| {
            let block = match pbem::engine::demo::scripted("kummen", step, side) {
                Some(body) => {
                    let indented: String = body.lines().map(|l| format!("  {l}\n")).collect();
                    format!("orders:\n{indented}")
                }
                None => "orders: {}\n".to_string(),
            };
            (side.to_string(), block)
        })
        .collect();
    let refs: Vec<(&str, &str)> = blocks
        .iter()
        .map(|(s, b)| (s.as_str(), b.as_str()))
        .collect();
    t.play_step(&refs);
}

/// Nothing private in the tracked files or in any commit of the history.
fn assert_public_only(repo: &Path) {
    let private = [
        "host/", "views/", "inbox/", "outbox/", "mail/", "archive/", ".tmp",
    ];
    let files = git(repo, &["ls-files"]);
    let history = git(repo, &["log", "--all", "--name-only", "--format="]);
    for text in [&files, &history] {
        for line in text.lines().filter(|l| !l.is_empty()) {
            assert!(
                !private
                    .iter()
                    .any(|p| line.starts_with(p) || line.contains("/.tmp")),
                "{line} must never be committed"
            );
            assert!(
                line == "game.yaml"
                    || line == "data.yaml"
                    || line == ".gitignore"
                    || line.starts_with("journal/")
                    || line.starts_with("reports/"),
                "unexpected file {line}"
            );
        }
    }
}

#[test]
fn publish_to_a_separate_repository_commits_each_record() {
    if !have_git() {
        eprintln!("git is not installed; skipping");
        return;
    }
    let t = Table::kummen();
    let repo = t.path("public");
    let out = ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
    assert!(out.contains("record 0: genesis"), "{out}");
    for _ in 0..3 {
        play(&t);
        let out = ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
        let seq = t.status()["record"].as_u64().unwrap();
        assert!(
            out.contains(&format!("record {seq}: step")),
            "a commit naming the record: {out}"
        );
        let log = git(&repo, &["log", "-1", "--format=%s"]);
        assert!(
            log.starts_with(&format!("pbem kummen-test record {seq}: step")),
            "{log}"
        );
        // Byte-identical copies of the public files.
        for f in [
            format!("journal/{seq:06}.yaml"),
            format!("reports/{seq:06}.txt"),
            "game.yaml".into(),
            "data.yaml".into(),
        ] {
            assert_eq!(
                std::fs::read(repo.join(&f)).unwrap(),
                std::fs::read(t.game.join(&f)).unwrap(),
                "{f}"
            );
        }
    }
    // Nothing new: nothing committed.
    let commits = git(&repo, &["rev-list", "--count", "HEAD"]);
    let out = ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
    assert!(out.contains("up to date"), "{out}");
    assert_eq!(git(&repo, &["rev-list", "--count", "HEAD"]), commits);
    assert_eq!(commits.trim(), "4", "genesis and three steps");
    assert_public_only(&repo);
    // Anyone with the repository can verify the public level.
    ok(&["verify", "--public-only", repo.to_str().unwrap()]);
}

#[test]
fn publish_in_the_game_directory_keeps_private_folders_out_of_history() {
    if !have_git() {
        eprintln!("git is not installed; skipping");
        return;
    }
    let t = Table::kummen();
    let out = ok(&["publish", t.dir(), "--git-repo", t.dir()]);
    assert!(out.contains(".gitignore"), "{out}");
    let ignore = std::fs::read_to_string(t.game.join(".gitignore")).unwrap();
    for d in [
        "/host/",
        "/views/",
        "/inbox/",
        "/outbox/",
        "/mail/",
        "/archive/",
    ] {
        assert!(ignore.contains(d), "{ignore}");
    }
    // Even a careless `git add -A` by the host leaves the private folders out.
    play(&t);
    // An order waiting in the inbox while publishing.
    let side = t.status()["waiting_for"][0].as_str().unwrap().to_string();
    let f = t.signed(&side, "waiting", &t.order(&side, "orders: {}\n"));
    let _ = t.submit(&f);
    let out = ok(&["publish", t.dir(), "--git-repo", t.dir()]);
    assert!(out.contains("record 1: step 1"), "{out}");
    git(&t.game, &["add", "-A"]);
    let staged = git(&t.game, &["diff", "--cached", "--name-only"]);
    assert!(staged.trim().is_empty(), "nothing else to add: {staged}");
    assert_public_only(&t.game);
    let status = git(&t.game, &["status", "--porcelain"]);
    assert!(status.trim().is_empty(), "a clean working tree: {status}");
}

#[test]
fn after_the_conclusion_the_archive_is_published_and_host_still_is_not() {
    if !have_git() {
        eprintln!("git is not installed; skipping");
        return;
    }
    let t = Table::kummen();
    let repo = t.path("public");
    ok(&["publish", t.dir(), "--git-repo", t.dir()]);
    ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
    let mut steps = 0;
    while !t.status()["finished"].as_bool().unwrap() {
        play(&t);
        steps += 1;
        assert!(steps < 200);
        if steps % 10 == 0 {
            ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
        }
    }
    ok(&["conclude", t.dir()]);
    for r in [repo.as_path(), t.game.as_path()] {
        let out = ok(&["publish", t.dir(), "--git-repo", r.to_str().unwrap()]);
        assert!(out.contains(": conclusion"), "{out}");
        let files = git(r, &["ls-files"]);
        assert!(files.contains("archive/manifest.yaml"), "{files}");
        assert!(files.contains("archive/secrets.yaml"), "{files}");
        let history = git(r, &["log", "--all", "--name-only", "--format="]);
        for line in history.lines().chain(files.lines()) {
            assert!(
                !["host/", "views/", "inbox/", "outbox/", "mail/"]
                    .iter()
                    .any(|p| line.starts_with(p))
                    && !line.contains("host_key"),
                "{line} must never be committed"
            );
        }
        // One commit per record (plus the .gitignore commits of the in-place repository).
        let records = t.status()["record"].as_u64().unwrap() + 1;
        let subjects = git(r, &["log", "--format=%s"]);
        let per_record = subjects
            .lines()
            .filter(|s| s.starts_with("pbem kummen-test record "))
            .count() as u64;
        assert_eq!(per_record, records, "{subjects}");
    }
    let ignore = std::fs::read_to_string(t.game.join(".gitignore")).unwrap();
    assert!(!ignore.contains("/archive/"), "{ignore}");
    // Anyone with the public repository alone can replay the whole game.
    ok(&["verify", "--full", repo.to_str().unwrap()]);
}
