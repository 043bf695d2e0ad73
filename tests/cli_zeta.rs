//! zeta through the CLI, as a host and three players would run it: three keys, a whole game
//! with signed orders from rule 38's setup to a book victory (37.2 or 37.3), concluded,
//! replayed in full from its archive and audited by tools/dice_audit.py.
//!
//! The game is the one `pbem demo zeta --seed SEED` plays (same game id, host secrets, entropy
//! and bot seeds, all derived from the seed as engine::demo derives them; the demo script's
//! packet on step 1, the bots after it), so its length is known and a seed was picked for a
//! short one: here every order goes through `pbem sign` and `pbem submit` and every step
//! through `pbem process`.

mod common;
use common::*;
use pbem::engine::game::{Game, Secrets};
use pbem::engine::new::{Extras, NewGame, create_with};
use pbem::protocol::hash::{Hash32, Transcript};
use pbem::protocol::keys::PublicKey;
use std::path::{Path, PathBuf};

/// The demo seed whose game this is (zeta's default demo seed): Titans win by sudden death
/// (37.2) at the end of turn 4, in 36 steps, with the bots and stand-in data of 2026-11-25. Any
/// seed's game ends (37.3 after turn 10 at the latest), only slower.
const SEED: u64 = 7;
const SIDES: [&str; 3] = ["titans", "aeug", "neo_zeon"];
/// More steps than any zeta game takes (ten turns of a packet, nine phases and a few asks).
const STEP_LIMIT: u64 = 160;

/// A value derived from the seed, as engine::demo derives it.
fn derived(what: &str) -> Hash32 {
    Transcript::new("pbem-demo-v1").u64(SEED).str(what).finish()
}

struct Hosted {
    tmp: tempfile::TempDir,
    game: PathBuf,
}

impl Hosted {
    /// Three keys made by `pbem keygen`, and the game of the demo's id and secrets.
    fn new() -> Hosted {
        let tmp = tempfile::tempdir().unwrap();
        let mut seats = Vec::new();
        for side in SIDES {
            let key = tmp.path().join("keys").join(side);
            ok(&["keygen", "--out", key.to_str().unwrap(), "--comment", side]);
            let public = std::fs::read_to_string(key.with_extension("pub")).unwrap();
            seats.push((side.to_string(), PublicKey::parse(public.trim()).unwrap()));
        }
        let game = tmp.path().join("game");
        create_with(
            NewGame {
                dir: game.clone(),
                system: "zeta".into(),
                scenario: None,
                seats,
                names: Vec::new(),
                emails: Vec::new(),
                id: Some("zeta-demo".into()),
                data: None,
                mail: Default::default(),
                deadline: None,
            },
            Extras {
                bots: Vec::new(),
                secrets: Some(Secrets {
                    master: derived("master"),
                    game_key: derived("game key"),
                }),
            },
        )
        .unwrap();
        Hosted { tmp, game }
    }

    fn dir(&self) -> &str {
        self.game.to_str().unwrap()
    }

    fn key(&self, side: &str) -> PathBuf {
        self.tmp.path().join("keys").join(side)
    }

    fn status(&self) -> serde_json::Value {
        serde_json::from_str(&ok(&["status", self.dir(), "--json"])).unwrap()
    }

    /// Writes `body` as `side`'s order for the open step, signs it with `pbem sign` and
    /// submits it with `pbem submit`.
    fn send(&self, game: &Game, step: u64, side: &str, body: &str) {
        let entropy = derived(&format!("entropy {step} {side}"));
        let doc = pbem::engine::demo::order_text(
            &game.config.id,
            step,
            side,
            &game.head(),
            &entropy,
            body,
        );
        let plain = self.tmp.path().join(format!("{step}-{side}.plain.yaml"));
        let signed = self.tmp.path().join(format!("{step}-{side}.yaml"));
        std::fs::write(&plain, doc).unwrap();
        ok(&[
            "sign",
            plain.to_str().unwrap(),
            "--key",
            self.key(side).to_str().unwrap(),
            "-o",
            signed.to_str().unwrap(),
        ]);
        let (code, out, err) = run(&["submit", self.dir(), signed.to_str().unwrap()]);
        assert_eq!(code, 0, "step {step}, {side}:\n{out}\n{err}");
    }

    /// Plays every step to the end: the demo script where it has orders, else each side's bot
    /// (seeded as the demo seeds it). Returns the steps played.
    fn play_to_the_end(&self) -> u64 {
        let mut played = 0;
        loop {
            let game = Game::open(&self.game).unwrap();
            let Some(step) = game.open_step().cloned() else {
                break;
            };
            assert!(step.step <= STEP_LIMIT, "the game did not end");
            let bot_seed = derived(&format!("bots {}", step.step));
            for side in &step.waiting_for {
                let body = match pbem::engine::demo::scripted("zeta", step.step, side) {
                    Some(text) => text.to_string(),
                    None => game
                        .system
                        .bot_orders(
                            game.data().unwrap(),
                            &game.state().unwrap(),
                            side,
                            &bot_seed,
                        )
                        .unwrap(),
                };
                self.send(&game, step.step, side, &body);
            }
            ok(&["process", self.dir()]);
            played += 1;
        }
        played
    }
}

fn audit(game: &Path) -> serde_json::Value {
    let out = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/dice_audit.py"))
        .arg(game)
        .arg("--json")
        .output()
        .expect("python3 runs (scripts/test.sh installs it)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).unwrap()
}

#[test]
fn three_players_play_a_whole_game_to_a_rule_37_victory_that_verifies_and_audits() {
    let h = Hosted::new();
    let first = h.status();
    assert_eq!(
        first["waiting_for"],
        serde_json::json!(SIDES),
        "the packet waits for all three seats"
    );
    // Each seat has its own view, and status counts each seat's missed deadlines.
    for side in SIDES {
        let view = ok(&["view", h.dir(), "--side", side]);
        assert!(view.contains("<- your orders are needed"), "{side}: {view}");
    }
    let status = ok(&["status", h.dir()]);
    assert!(status.contains("titans 0, aeug 0, neo_zeon 0"), "{status}");

    let steps = h.play_to_the_end();
    assert!(steps > 10, "several turns: {steps} steps");
    let end = h.status();
    assert_eq!(end["finished"], true, "{end}");
    let outcome = end["outcome"].as_str().unwrap().to_string();
    assert!(
        outcome.contains("(37.2)") || outcome.contains("(37.3)"),
        "a book victory: {outcome}"
    );
    let report = ok(&["report", h.dir()]);
    assert!(report.contains("the game is over"), "{report}");

    ok(&["conclude", h.dir()]);
    assert!(!h.game.join("archive/host_key").exists());
    // An auditor has the public files and the archive, not the host's directory.
    std::fs::remove_dir_all(h.game.join("host")).unwrap();
    let out = ok(&["verify", "--full", h.dir()]);
    assert!(out.contains("replayed from archive"), "{out}");

    let report = audit(&h.game);
    assert_eq!(report["concluded"], true, "{report}");
    assert_eq!(report["findings"], serde_json::json!([]), "{report}");
    let steps_audited = report["steps"].as_array().unwrap();
    assert!(
        steps_audited.iter().any(|s| s["sealed"].is_array()),
        "the sealed draws (the action deck, the nuke's salt) were checked: {report}"
    );
}
