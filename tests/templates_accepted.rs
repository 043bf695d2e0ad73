//! Every skeleton pbem hands a player is an order pbem accepts as it is (issue 10, item 7): a
//! player who signs the template unedited sends standing orders, never a parse error. Checked
//! for every registered system over whole games, at every step, for every side the step waits
//! for, in both forms a player gets: `pbem template` (fresh entropy filled in) and the skeleton
//! attached to the turn mail (`entropy: auto`, which `pbem sign` fills in).

mod common;
use common::*;
use pbem::engine::demo;
use pbem::engine::game::Game;
use pbem::engine::new::{NewGame, create};
use pbem::engine::{order, process};
use pbem::protocol::hash::Hash32;
use pbem::protocol::keys::SecretKey;
use std::path::{Path, PathBuf};

/// A game of `system` with a fresh key per side.
struct Hosted {
    tmp: tempfile::TempDir,
    dir: PathBuf,
    keys: Vec<(String, SecretKey)>,
}

impl Hosted {
    fn new(system: &str) -> Hosted {
        let tmp = tempfile::tempdir().unwrap();
        let sides = pbem::systems::by_id(system).unwrap().sides();
        let keys: Vec<(String, SecretKey)> = sides
            .iter()
            .map(|s| (s.clone(), SecretKey::generate(s).unwrap()))
            .collect();
        let dir = tmp.path().join("game");
        create(NewGame {
            dir: dir.clone(),
            system: system.into(),
            scenario: None,
            seats: keys.iter().map(|(s, k)| (s.clone(), k.public())).collect(),
            names: Vec::new(),
            emails: Vec::new(),
            id: Some(format!("{system}-templates")),
            data: None,
            mail: Default::default(),
            deadline: None,
        })
        .unwrap();
        Hosted { tmp, dir, keys }
    }

    fn key(&self, side: &str) -> &SecretKey {
        &self.keys.iter().find(|(s, _)| s == side).unwrap().1
    }

    /// Signs `doc` as `side` and submits it to the game in `dir`.
    fn submit(&self, dir: &Path, side: &str, doc: &str, name: &str) -> Result<(), String> {
        let signed = order::sign(doc.as_bytes(), self.key(side)).map_err(|e| e.to_string())?;
        let file = self.tmp.path().join(name);
        std::fs::write(&file, signed).unwrap();
        order::submit(&Game::open(dir).unwrap(), &file, None)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// Plays the open step with the demo script's orders, and past its end with the bots' (as
    /// `pbem demo` does), so the game goes on to its end.
    fn play_step(&self, system: &str) {
        let game = Game::open(&self.dir).unwrap();
        let step = game.open_step().unwrap().clone();
        let seed = Hash32([step.step as u8; 32]);
        for side in &step.waiting_for {
            let body = match demo::scripted(system, step.step, side) {
                Some(text) => text.to_string(),
                None => game
                    .system
                    .bot_orders(game.data().unwrap(), &game.state().unwrap(), side, &seed)
                    .unwrap(),
            };
            let doc = demo::order_document(&game, side, &body).unwrap();
            let name = format!("script-{}-{side}.yaml", step.step);
            self.submit(&self.dir, side, &doc, &name)
                .unwrap_or_else(|e| panic!("{system} step {}: {side}'s script: {e}", step.step));
        }
        process::process(&self.dir).unwrap().unwrap();
    }
}

/// A copy of the game directory, where a submission leaves the real game untouched.
/// At most this many steps of a game are played: zeta's ten turns take a packet, up to nine
/// action phases and a few asks each (the two-seat games end well before).
const STEP_LIMIT: u64 = 200;

#[test]
fn every_template_of_every_system_is_accepted_unedited_at_every_step() {
    for system in pbem::systems::all() {
        let id = system.id();
        let h = Hosted::new(id);
        let mut checked = 0;
        loop {
            let game = Game::open(&h.dir).unwrap();
            let Some(step) = game.open_step().cloned() else {
                break;
            };
            assert!(step.step <= STEP_LIMIT, "{id}: the game did not end");
            for side in &step.waiting_for {
                let fresh = Hash32::random().unwrap();
                let forms = [
                    ("pbem template", order::template(&game, side, Some(fresh))),
                    ("mailed skeleton", order::template(&game, side, None)),
                ];
                for (form, doc) in forms {
                    let doc = doc.unwrap();
                    let copy = h.tmp.path().join(format!("copy-{}-{side}", step.step));
                    copy_dir(&h.dir, &copy);
                    let name = format!("template-{}-{side}.yaml", step.step);
                    if let Err(e) = h.submit(&copy, side, &doc, &name) {
                        panic!(
                            "{id} step {}: {side}'s {form} is refused:\n{e}\n{doc}",
                            step.step
                        );
                    }
                    std::fs::remove_dir_all(&copy).unwrap();
                    checked += 1;
                }
            }
            h.play_step(id);
        }
        assert!(checked >= 4, "{id}: only {checked} templates checked");
    }
}

/// The reproduction, through the CLI: the dougram Lib skeleton of the first player-turn
/// (over 70 comment lines in a row) signed unedited and submitted.
#[test]
fn a_dougram_skeleton_with_a_long_comment_block_signs_and_submits_through_the_cli() {
    let t = Table::dougram();
    t.play_step(&[]);
    assert_eq!(t.status()["waiting_for"][0], "lib");
    let template = t.path("t.yaml");
    let signed = t.path("s.yaml");
    ok(&[
        "template",
        t.dir(),
        "--side",
        "lib",
        "-o",
        template.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&template).unwrap();
    let longest_comment_run = text
        .lines()
        .fold((0, 0), |(run, best), l| {
            let run = if l.trim_start().starts_with('#') {
                run + 1
            } else {
                0
            };
            (run, best.max(run))
        })
        .1;
    assert!(longest_comment_run > 32, "{longest_comment_run}:\n{text}");
    ok(&[
        "sign",
        template.to_str().unwrap(),
        "--key",
        t.key("lib").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    let (code, out, err) = t.submit(&signed);
    assert_eq!(code, 0, "{out}\n{err}");
}
