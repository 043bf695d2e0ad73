//! Email addresses are the host's, not public: game.yaml and the journal hold none (they are in
//! the host-only mail/addresses.yaml), so `pbem publish` never commits one, not even after a
//! hand-over; mail still reaches every seat and observer; a game.yaml written before this still
//! loads, and the next write moves its addresses out (docs/architecture.md, "Publishing to
//! git"; src/engine/config.rs).

mod common;
mod smtp;

use common::*;
use smtp::game::*;
use std::path::Path;

const CAROL: &str = "carol@newplayer.example.org";

fn git(repo: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .expect("git runs (install git: these tests never skip)");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// Every address the mail table's game has, and Carol's.
fn addresses() -> Vec<String> {
    vec![
        email("mercenary"),
        email("beeler"),
        HOST_ADDRESS.to_string(),
        OBSERVER.to_string(),
        CAROL.to_string(),
    ]
}

fn assert_no_address_in(what: &str, text: &str) {
    for a in addresses() {
        assert!(!text.contains(&a), "{a} appears in {what}:\n{text}");
    }
}

/// The To of the queued mail whose key starts with `key`.
fn to_of(t: &Table, key: &str) -> String {
    let q = outbox(t);
    let raw = q
        .iter()
        .find(|(k, _)| k.starts_with(key))
        .map(|(_, raw)| raw)
        .unwrap_or_else(|| panic!("no mail {key}: {:?}", q.keys()));
    pbem::engine::mail::parse::parse(raw)
        .unwrap()
        .header("to")
        .unwrap()
        .to_string()
}

fn hand_over_to_carol(t: &Table) {
    let k = t.path("keys/carol");
    ok(&["keygen", "--out", k.to_str().unwrap(), "--comment", "carol"]);
    ok(&[
        "host",
        "hand-over",
        t.dir(),
        "--side",
        "mercenary",
        "--key",
        &format!("{}.pub", k.display()),
        "--name",
        "Carol",
        "--email",
        CAROL,
        "--reason",
        "Mary left the game",
        "--now",
        &at(2),
    ]);
}

#[test]
fn new_keeps_every_address_out_of_game_yaml_and_mail_still_reaches_them() {
    let t = mail_table();
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert_no_address_in("game.yaml", &config);
    assert!(config.contains("name: Bob Beeler"), "names stay public");
    let kept = std::fs::read_to_string(t.game.join("mail/addresses.yaml")).unwrap();
    for a in [email("mercenary"), email("beeler"), OBSERVER.into()] {
        assert!(kept.contains(&a), "{a} in mail/addresses.yaml:\n{kept}");
    }
    play_step_at(&t, &at(1));
    assert!(to_of(&t, "kummen-test.000001.view.mercenary").contains(&email("mercenary")));
    assert!(to_of(&t, "kummen-test.000001.view.beeler").contains(&email("beeler")));
    assert!(to_of(&t, "kummen-test.000001.report.").contains(OBSERVER));
    ok(&["verify", t.dir()]);
}

#[test]
fn a_hand_over_journals_no_address_and_mail_goes_to_the_new_player() {
    let t = mail_table();
    play_step_at(&t, &at(1));
    hand_over_to_carol(&t);
    let record = std::fs::read_to_string(t.game.join("journal/000002.yaml")).unwrap();
    assert!(record.contains("op: hand_over") && record.contains("name: Carol"));
    assert_no_address_in("the hand-over record", &record);
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert_no_address_in("game.yaml", &config);
    let to = to_of(&t, "kummen-test.000002.view.mercenary");
    assert!(to.contains(CAROL) && to.contains("Carol"), "{to}");
    // A key replacement afterwards is the same player: Carol keeps her address.
    let k = t.path("keys/carol2");
    ok(&["keygen", "--out", k.to_str().unwrap()]);
    ok(&[
        "host",
        "replace-key",
        t.dir(),
        "--side",
        "mercenary",
        "--key",
        &format!("{}.pub", k.display()),
        "--reason",
        "lost laptop",
        "--now",
        &at(3),
    ]);
    assert!(to_of(&t, "kummen-test.000003.view.mercenary").contains(CAROL));
    ok(&["verify", t.dir()]);
}

#[test]
fn publish_never_commits_an_address_even_after_a_hand_over() {
    let t = mail_table();
    let repo = t.path("public");
    play_step_at(&t, &at(1));
    ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
    hand_over_to_carol(&t);
    play_step_at(&t, &at(4));
    for r in [repo.as_path(), t.game.as_path()] {
        ok(&["publish", t.dir(), "--git-repo", r.to_str().unwrap()]);
        let history = git(r, &["log", "--all", "-p"]);
        assert!(
            history.contains("op: hand_over"),
            "the hand-over is published"
        );
        assert_no_address_in("the published history", &history);
    }
    ok(&["verify", "--public-only", repo.to_str().unwrap()]);
}

/// Writes the addresses back into game.yaml as pbem wrote them before they moved out, and
/// removes mail/addresses.yaml: a game made by an older pbem.
fn make_it_an_older_game(t: &Table) {
    let path = t.game.join("game.yaml");
    let config = std::fs::read_to_string(&path).unwrap();
    let mut old = String::new();
    let mut side = String::new();
    for line in config.lines() {
        old.push_str(line);
        old.push('\n');
        if let Some(s) = line.strip_prefix("- side: ") {
            side = s.to_string();
        }
        if line.starts_with("  key: ") {
            old.push_str(&format!("  email: {}\n", email(&side)));
        }
    }
    old.push_str(&format!(
        "mail:\n  from: {HOST}\n  observers:\n  - {OBSERVER}\n"
    ));
    std::fs::write(&path, old).unwrap();
    std::fs::remove_file(t.game.join("mail/addresses.yaml")).unwrap();
}

#[test]
fn an_older_game_yaml_with_addresses_still_loads_and_the_next_write_moves_them_out() {
    let t = mail_table();
    make_it_an_older_game(&t);
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert!(config.contains(&email("beeler")), "{config}");
    ok(&["status", t.dir()]);
    ok(&["verify", t.dir()]);
    // The next write (here: process) moves the addresses out; mail still reaches everyone.
    play_step_at(&t, &at(1));
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    assert_no_address_in("game.yaml", &config);
    let kept = std::fs::read_to_string(t.game.join("mail/addresses.yaml")).unwrap();
    assert!(
        kept.contains(&email("beeler")) && kept.contains(OBSERVER) && kept.contains(HOST_ADDRESS),
        "{kept}"
    );
    assert!(to_of(&t, "kummen-test.000001.view.beeler").contains(&email("beeler")));
    assert!(to_of(&t, "kummen-test.000001.report.").contains(OBSERVER));
    ok(&["verify", t.dir()]);
}

#[test]
fn publish_of_an_older_game_moves_the_addresses_out_before_committing() {
    let t = mail_table();
    make_it_an_older_game(&t);
    let repo = t.path("public");
    ok(&["publish", t.dir(), "--git-repo", repo.to_str().unwrap()]);
    assert_no_address_in(
        "the published history",
        &git(&repo, &["log", "--all", "-p"]),
    );
    assert!(
        std::fs::read_to_string(t.game.join("mail/addresses.yaml"))
            .unwrap()
            .contains(&email("mercenary"))
    );
}
