//! `pbem publish DIR --git-repo REPO`: commit the public part of a game to a git repository with
//! the real `git` program, one commit per journal record not yet in the repository.
//!
//! Public means `game.yaml`, `data.yaml` (the component data genesis pins), `data/NNNNNN.yaml`
//! (data an upgrade replaced), `journal/NNNNNN.yaml` and `reports/NNNNNN.txt`; once the game is
//! concluded also `archive/` (the sealed archive the conclusion record pins). None of them holds
//! an email address: those are in `mail/addresses.yaml` (engine::config), and `publish` first
//! runs recovery, which moves any address an older game.yaml still has there. Nothing else is
//! ever added: files are staged by name, never with `git add -A`, so `host/`, `views/`,
//! `inbox/`, `outbox/`, `mail/` (and `archive/` before the conclusion) cannot enter the history.
//!
//! REPO may be the game directory itself (then a `.gitignore` excluding the private folders is
//! written and committed first) or any other directory (a clone or a fresh one, `git init`ed when
//! it has no `.git`), which then receives copies under the same names. Each commit's message
//! names the record: `pbem GAME record N: step S (title)`, `… record N: host operation …`.
//! Running it again with nothing new changes nothing.

use super::Error;
use super::dir;
use super::game::Game;
use crate::protocol::journal::{self, Record};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Folders that never enter a repository that is the game directory itself.
const PRIVATE_DIRS: [&str; 5] = ["host/", "views/", "inbox/", "outbox/", "mail/"];

/// What `publish` did.
#[derive(Debug, serde::Serialize)]
pub struct Published {
    pub repo: PathBuf,
    /// One line per commit made: the record number and the commit message's first line.
    pub commits: Vec<(u64, String)>,
}

fn git(repo: &Path, args: &[&str]) -> Result<String, Error> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| {
            Error::Fail(format!(
                "cannot run git ({e}); install git to publish to a repository"
            ))
        })?;
    if !out.status.success() {
        return Err(Error::Fail(format!(
            "git {} in {}: {}",
            args.join(" "),
            repo.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// The .gitignore of a game directory that is its own repository.
pub fn gitignore(concluded: bool) -> String {
    let mut s = String::from(
        "# Written by pbem publish: only game.yaml, journal/, reports/ (and archive/ once the\n\
         # game is concluded) are public. Never commit the folders below.\n",
    );
    for d in PRIVATE_DIRS {
        s.push_str(&format!("/{d}\n"));
    }
    if !concluded {
        s.push_str("/archive/\n");
    }
    s.push_str(".tmp*\n");
    s
}

fn message(game: &Game, rec: &Record) -> String {
    let what = if rec.genesis.is_some() {
        "genesis".to_string()
    } else if let Some(st) = &rec.step {
        format!("step {} ({})", st.number, st.title)
    } else if let Some(op) = &rec.host_op {
        format!("host operation: {}", super::hostop::describe(op))
    } else if rec.conclusion.is_some() {
        "conclusion (host secrets revealed, archive/ published)".to_string()
    } else {
        "record".to_string()
    };
    let next = match &rec.next {
        Some(n) => format!(
            "next: step {} ({}), waiting for {}",
            n.step,
            n.title,
            n.waiting_for.join(", ")
        ),
        None => "the game is over".to_string(),
    };
    format!(
        "pbem {} record {}: {what}\n\n{next}\n",
        game.config.id, rec.seq
    )
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Files under `dir` (relative names with `/`), recursively, sorted.
fn files_under(dir: &Path, prefix: &str) -> Result<Vec<String>, Error> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if name.starts_with(".tmp") {
            continue;
        }
        let rel = format!("{prefix}{name}");
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p, &format!("{rel}/"))?);
        } else if p.is_file() {
            out.push(rel);
        }
    }
    out.sort();
    Ok(out)
}

pub fn publish(root: &Path, repo: &Path) -> Result<Published, Error> {
    let game = Game::open(root)?;
    let _lock = game.dir.lock()?;
    // What is committed must be what the journal gives: recovery first writes any report a crash
    // left missing and moves email addresses an older game.yaml still holds to the host's
    // mail/addresses.yaml, so no address is ever committed.
    super::ops::recover(&Game::open(root)?)?;
    let game = Game::open(root)?;
    std::fs::create_dir_all(repo).map_err(|e| Error::io(repo, e))?;
    let in_place = same_dir(root, repo);
    if !repo.join(".git").exists() {
        git(repo, &["init", "--quiet"])?;
    }
    // Commit as the repository's configured user, or as pbem when there is none.
    let identity: Vec<String> = if git(repo, &["config", "user.email"]).is_ok() {
        Vec::new()
    } else {
        vec![
            "-c".into(),
            "user.name=pbem".into(),
            "-c".into(),
            "user.email=pbem@localhost".into(),
        ]
    };
    let tracked: std::collections::BTreeSet<String> = git(repo, &["ls-files", "-z"])?
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let concluded = game.last().conclusion.is_some();
    let mut commits = Vec::new();
    let mut commit = |files: &[String], msg: &str, seq: u64| -> Result<(), Error> {
        for f in files {
            if !in_place {
                let bytes = dir::read(&game.dir.root.join(f))?;
                dir::write_atomic(&repo.join(f), &bytes)?;
            }
        }
        let mut add: Vec<&str> = vec!["add", "--"];
        add.extend(files.iter().map(String::as_str));
        git(repo, &add)?;
        // Nothing staged (the same bytes were already committed): no empty commit.
        let staged = git(repo, &["diff", "--cached", "--name-only"])?;
        if staged.trim().is_empty() {
            return Ok(());
        }
        let mut args: Vec<&str> = identity.iter().map(String::as_str).collect();
        args.extend(["commit", "--quiet", "--no-verify", "-m", msg]);
        git(repo, &args)?;
        commits.push((seq, msg.lines().next().unwrap_or_default().to_string()));
        Ok(())
    };
    if in_place {
        let want = gitignore(concluded);
        if dir::read_text(&repo.join(".gitignore")).ok().as_deref() != Some(want.as_str()) {
            dir::write_atomic(&repo.join(".gitignore"), want.as_bytes())?;
            commit(
                &[".gitignore".to_string()],
                &format!(
                    "pbem {}: .gitignore keeps host/, views/, inbox/, outbox/, mail/{} out",
                    game.config.id,
                    if concluded { "" } else { " and archive/" }
                ),
                game.last_seq(),
            )?;
        }
    }
    let last = game.last_seq();
    // Reports of records already committed that a crash kept out of their record's commit.
    let records = game.records_all()?;
    let late: Vec<String> = records
        .iter()
        .filter(|(rec, _)| tracked.contains(&format!("journal/{}", journal::file_name(rec.seq))))
        .map(|(rec, _)| format!("reports/{:06}.txt", rec.seq))
        .filter(|r| !tracked.contains(r) && game.dir.root.join(r).exists())
        .collect();
    if !late.is_empty() {
        commit(
            &late,
            &format!(
                "pbem {}: reports missing from earlier commits",
                game.config.id
            ),
            last,
        )?;
    }
    for (rec, _) in records {
        let jname = format!("journal/{}", journal::file_name(rec.seq));
        if tracked.contains(&jname) {
            continue;
        }
        let mut files = vec![jname];
        let report = format!("reports/{:06}.txt", rec.seq);
        if game.dir.root.join(&report).exists() {
            files.push(report);
        }
        if rec.seq == last || !tracked.contains("game.yaml") {
            files.push("game.yaml".to_string());
        }
        // The component data the journal pins (genesis, an upgrade): public, like the journal.
        let pins_data =
            rec.genesis.is_some() || matches!(rec.host_op, Some(journal::HostOp::Upgrade { .. }));
        if (pins_data || rec.seq == last) && game.dir.data().exists() {
            files.push("data.yaml".to_string());
        }
        // An upgrade keeps the data it replaced as data/NNNNNN.yaml (ops::keep_earlier_data).
        if matches!(rec.host_op, Some(journal::HostOp::Upgrade { .. }))
            && let Some(&(pinned_by, _)) =
                journal::data_pins(records[..rec.seq as usize].iter().map(|(r, _)| r)).last()
            && game.dir.earlier_data(pinned_by).exists()
        {
            files.push(format!("data/{}", journal::file_name(pinned_by)));
        }
        if rec.conclusion.is_some() {
            files.extend(files_under(&game.dir.archive(), "archive/")?);
        }
        commit(&files, &message(&game, rec), rec.seq)?;
    }
    // game.yaml may change without a record of its own being new (never in normal play, but a
    // host editing mail settings): keep the repository's copy current.
    commit(
        &["game.yaml".to_string()],
        &format!("pbem {}: game.yaml", game.config.id),
        last,
    )?;
    Ok(Published {
        repo: repo.to_path_buf(),
        commits,
    })
}
