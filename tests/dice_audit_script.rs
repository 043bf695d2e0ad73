//! tools/dice_audit.py, the independent auditor of `pbem-dice-v1`, agrees with pbem.
//!
//! The script shares no code with pbem (its ChaCha20, sampler and YAML reader are its own), so
//! agreement here is evidence that docs/dice.md specifies what pbem does. These tests need
//! `python3`; without it they fail, they never skip.

use pbem::engine::config::{GameConfig, Seat};
use pbem::engine::dir::GameDir;
use pbem::engine::game::read_journal;
use pbem::protocol::dice::{
    DICE_ALGORITHM, Dice, Stream, public_stream_key, replay_public, replay_sealed,
    sealed_key_commit, sealed_stream_key, shuffle_ranges, step_seed,
};
use pbem::protocol::hash::{Hash32, commitment};
use pbem::protocol::journal::{
    EarlierOrder, Genesis, JOURNAL_FORMAT, JOURNAL_FORMAT_V5, NextStep, OrderEntry, Record,
    SeatKey, StepRecord, file_name, host_seed, record_hash, sealed_commit,
};
use pbem::protocol::keys::SecretKey;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

// ---- Running the script -----------------------------------------------------------------------

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/dice_audit.py")
}

/// Runs `python3 tools/dice_audit.py ARGS`; a missing python3 fails the test with a message.
fn run(args: &[&str]) -> Output {
    match Command::new("python3").arg(script()).args(args).output() {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "python3 was not found on PATH: these tests run tools/dice_audit.py, the independent \
             auditor of pbem-dice-v1, and fail without it; install Python 3 (standard library only)"
        ),
        Err(e) => panic!("could not run python3 {}: {e}", script().display()),
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("the script printed no JSON ({e}):\n{}", describe(out)))
}

/// Audits `dir` with `--json`, expecting exit status `code`.
fn audit(dir: &Path, extra: &[&str], code: i32) -> Value {
    let mut args = vec![dir.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(code), "{}", describe(&out));
    json(&out)
}

fn findings(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

fn u32s(v: &Value) -> Vec<u32> {
    v.as_array()
        .expect("a list of numbers")
        .iter()
        .map(|x| u32::try_from(x.as_u64().unwrap()).unwrap())
        .collect()
}

// ---- A game directory made with the library ---------------------------------------------------

const GAME: &str = "audit-fixture-0001";
const SIDES: [&str; 3] = ["blue", "red", "green"];

/// The rolls of the fixture: labels chosen to need quoting, folding and non-ASCII in YAML.
const ROLLS: [(&str, usize, u32); 5] = [
    ("combat/C08/r2/U17", 2, 6),
    ("morale/Überläufer", 1, 6),
    ("spot: #3 \"night\"", 3, 10),
    (
        "artillery/a label long enough that the YAML writer folds it over several lines of text/r1",
        4,
        6,
    ),
    ("123", 1, 20),
];

struct Fixture {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    game_key: Hash32,
    /// (step, seed) of every processed step.
    seeds: Vec<(u64, Hash32)>,
}

impl Fixture {
    fn record_path(&self, seq: u64) -> PathBuf {
        self.dir.join("journal").join(file_name(seq))
    }

    /// Replaces `from` by `to` in record `seq` (exactly one occurrence).
    fn edit_record(&self, seq: u64, from: &str, to: &str) {
        let path = self.record_path(seq);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from:?} in\n{text}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn entropy(step: u64, side: usize) -> Hash32 {
    Hash32([(step as u8) << 4 | side as u8; 32])
}

/// A game of two processed steps: in step 1 red sends no order; step 2 reveals step 1's chit
/// deck with its stream key (journal/5) and ends the game.
fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    let gd = GameDir::new(&dir);
    let master = Hash32([0x31; 32]);
    let game_key = Hash32([0x32; 32]);
    let key = SecretKey::generate("fixture").unwrap().public();
    let config = GameConfig {
        pbem: "game/1".into(),
        id: GAME.into(),
        system: "kummen".into(),
        scenario: "standard".into(),
        seats: SIDES
            .iter()
            .map(|s| Seat {
                side: s.to_string(),
                name: format!("Player {s}: \"{s}\""),
                key: key.clone(),
                bot: None,
                email: String::new(),
                tz: None,
            })
            .collect(),
        host_key: key.clone(),
        mail: Default::default(),
        deadline: None,
        missed_orders: Default::default(),
    };
    write(&gd.config(), &pbem::yaml::to_string(&config));

    let genesis = Record {
        pbem: JOURNAL_FORMAT.into(),
        game: GAME.into(),
        seq: 0,
        prev: None,
        genesis: Some(Genesis {
            system: "kummen".into(),
            scenario: "standard".into(),
            dice: DICE_ALGORITHM.into(),
            seats: SIDES
                .iter()
                .map(|s| SeatKey {
                    side: s.to_string(),
                    key: key.openssh(),
                    bot: None,
                })
                .collect(),
            host_key: key.openssh(),
            game_key_commit: commitment(&game_key),
            pbem_version: None,
            rules: None,
            data: None,
        }),
        step: None,
        conclusion: None,
        host_op: None,
        public_state: Hash32([0x40; 32]),
        next: Some(NextStep {
            step: 1,
            title: "Turn 1: movement".into(),
            waiting_for: vec!["blue".into(), "green".into()],
            host_commit: commitment(&host_seed(&master, 1)),
        }),
    };
    let mut texts = vec![pbem::yaml::to_string(&genesis)];
    let mut seeds = Vec::new();
    for step in 1..=2u64 {
        let senders: Vec<usize> = if step == 1 { vec![0, 2] } else { vec![0, 1, 2] };
        let orders: Vec<OrderEntry> = senders
            .iter()
            .map(|&i| OrderEntry {
                side: SIDES[i].into(),
                version: Some(20261123220000 + i as u64),
                hash: Hash32([0x50 + i as u8; 32]),
                // The auditor only mixes the public part into the seed.
                dice_entropy: Some(entropy(step, i)),
                entropy: None,
                earlier: if i == 0 {
                    vec![EarlierOrder {
                        version: 1,
                        hash: Hash32([0x60; 32]),
                    }]
                } else {
                    vec![]
                },
                replaced: vec![],
                bot: None,
            })
            .collect();
        let seats: Vec<(String, Option<Hash32>)> = SIDES
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.to_string(),
                    senders.contains(&i).then(|| entropy(step, i)),
                )
            })
            .collect();
        let reveal = host_seed(&master, step);
        let seed = step_seed(GAME, step, &reveal, &seats);
        seeds.push((step, seed));
        let mut dice = Dice::new(seed, game_key).at_step(step);
        if step == 2 {
            let kept = pbem::protocol::dice::SealedKey {
                step: 1,
                label: "deck/chits".into(),
                key: sealed_stream_key(&game_key, &seeds[0].1, "deck/chits"),
            };
            dice.reveal_sealed(&kept, shuffle_ranges(12));
        }
        for (label, count, faces) in ROLLS {
            let label = format!("{label}/s{step}");
            dice.roll(&label, count, faces);
            dice.set_result(&label, "a result: with \"quotes\"");
        }
        let mut deck: Vec<u32> = (0..12).collect();
        dice.sealed_shuffle("deck/chits", &mut deck, "the chit deck");
        if step == 1 {
            dice.commit_sealed_key("deck/chits");
        }
        dice.sealed_index("cup/german/1", 17, "");
        let transcript = dice.finish().expect("no defect");
        let sealed_yaml = pbem::yaml::to_string(&transcript.sealed);
        write(&gd.sealed(step), &sealed_yaml);
        let last = step == 2;
        let record = Record {
            pbem: if transcript.reveals.is_empty() && transcript.key_commits.is_empty() {
                JOURNAL_FORMAT
            } else {
                JOURNAL_FORMAT_V5
            }
            .into(),
            game: GAME.into(),
            seq: step,
            prev: Some(record_hash(texts.last().unwrap().as_bytes())),
            genesis: None,
            step: Some(StepRecord {
                number: step,
                rules: Some(1),
                title: format!("Turn {step}: movement\nand combat"),
                orders,
                host_reveal: reveal,
                seed,
                dice_algorithm: DICE_ALGORITHM.into(),
                dice: transcript.public,
                sealed_commit: sealed_commit(&game_key, step, &sealed_yaml),
                events: vec!["- blue moves".into(), "two\nlines".into(), "x".repeat(120)],
                outcome: last.then(|| "blue wins: 12 VP".into()),
                defaults: vec![],
                key_commits: transcript.key_commits.clone(),
                reveals: transcript.reveals.clone(),
            }),
            conclusion: None,
            host_op: None,
            public_state: Hash32([0x40 + step as u8; 32]),
            next: (!last).then(|| NextStep {
                step: step + 1,
                title: "Turn 2".into(),
                waiting_for: SIDES.iter().map(|s| s.to_string()).collect(),
                host_commit: commitment(&host_seed(&master, step + 1)),
            }),
        };
        texts.push(pbem::yaml::to_string(&record));
    }
    for (seq, text) in texts.iter().enumerate() {
        write(&gd.record(seq as u64), text);
    }
    read_journal(&gd, GAME).expect("pbem reads its own fixture");
    Fixture {
        _tmp: tmp,
        dir,
        game_key,
        seeds,
    }
}

// ---- The script's own checks and the published vectors ----------------------------------------

#[test]
fn the_script_passes_its_rfc8439_and_published_vector_self_test() {
    let out = run(&["--self-test"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "ok   RFC 8439 2.3.2 block (key 00..1f, nonce 000000090000004a00000000, counter 1)"
        ),
        "{text}"
    );
    assert!(text.ends_with("all checks passed\n"), "{text}");
}

#[test]
fn the_script_computes_every_published_vector_as_pbem_does() {
    let v = json(&run(&["--vectors"]));
    let counting = |first: u8| Hash32(core::array::from_fn(|i| first + i as u8));
    let reveal = counting(0x00);
    let game_key = counting(0xe0);
    let seats = vec![
        ("blue".to_string(), Some(counting(0x20))),
        ("red".to_string(), None),
        ("green".to_string(), Some(Hash32([0xa5; 32]))),
    ];
    let seed = step_seed("vectors-game", 3, &reveal, &seats);
    assert_eq!(v["commitment"], commitment(&reveal).hex());
    assert_eq!(v["host_seed"], host_seed(&Hash32([0x6d; 32]), 3).hex());
    assert_eq!(v["step_seed"], seed.hex());
    for label in ["combat/C08/r2/U17", "morale/B-A01"] {
        assert_eq!(
            v["public_keys"][label],
            public_stream_key(&seed, label).hex()
        );
        assert_eq!(u32s(&v["d6"][label]), replay_public(&seed, label, 10, 6).0);
    }
    let (_, words) = replay_public(&seed, "combat/C08/r2/U17", 12, 1);
    assert_eq!(u32s(&v["words"]), words);
    for (key, n) in [("below_3x2p30", 3u32 << 30), ("below_3x2p29", 3 << 29)] {
        let mut s = Stream::new(&public_stream_key(&seed, "combat/C08/r2/U17"));
        let values: Vec<u32> = (0..4).map(|_| s.below(n)).collect();
        assert_eq!(u32s(&v[key]), values, "{key}");
    }
    assert_eq!(v["game_key_commitment"], commitment(&game_key).hex());
    assert_eq!(
        v["sealed_key"],
        sealed_stream_key(&game_key, &seed, "deck/chits").hex()
    );
    assert_eq!(
        v["sealed_key_commit"],
        sealed_key_commit(
            "deck/chits",
            &sealed_stream_key(&game_key, &seed, "deck/chits")
        )
        .hex()
    );
    assert_eq!(
        v["cup_key"],
        sealed_stream_key(&game_key, &seed, "cup/german/1").hex()
    );
    let mut deck_stream = Stream::new(&sealed_stream_key(&game_key, &seed, "deck/chits"));
    (2..=10u32).rev().for_each(|n| {
        deck_stream.below(n);
    });
    assert_eq!(u32s(&v["deck_words"]), deck_stream.words);
    let ranges: Vec<u32> = (2..=10).rev().collect();
    assert_eq!(
        u32s(&v["shuffle_draws"]),
        replay_sealed(&game_key, &seed, "deck/chits", &ranges)
    );
    let mut dice = Dice::new(seed, game_key);
    let mut deck: Vec<u32> = (0..10).collect();
    dice.sealed_shuffle("deck/chits", &mut deck, "chits");
    dice.sealed_index("cup/german/1", 17, "");
    assert_eq!(u32s(&v["shuffle"]), deck);
    let sealed_yaml = pbem::yaml::to_string(&dice.finish().expect("no defect").sealed);
    assert_eq!(
        v["sealed_commit"],
        sealed_commit(&game_key, 3, &sealed_yaml).hex()
    );
    assert_eq!(
        v["empty_sealed_commit"],
        sealed_commit(&game_key, 3, "[]\n").hex()
    );
    assert_eq!(
        v["sealed_index"],
        replay_sealed(&game_key, &seed, "cup/german/1", &[17])[0]
    );
}

// ---- Auditing a game directory ----------------------------------------------------------------

#[test]
fn the_script_recomputes_the_seed_of_every_step_as_pbem_does() {
    let f = fixture();
    let report = audit(&f.dir, &[], 0);
    let steps = report["steps"].as_array().unwrap();
    let got: Vec<(u64, String)> = steps
        .iter()
        .map(|s| {
            (
                s["step"].as_u64().unwrap(),
                s["seed"].as_str().unwrap().into(),
            )
        })
        .collect();
    let want: Vec<(u64, String)> = f.seeds.iter().map(|(n, s)| (*n, s.hex())).collect();
    assert_eq!(got, want);
}

#[test]
fn the_script_recomputes_every_public_die_as_pbem_does() {
    let f = fixture();
    let report = audit(&f.dir, &[], 0);
    for (step, (n, seed)) in report["steps"].as_array().unwrap().iter().zip(&f.seeds) {
        let dice = step["dice"].as_array().unwrap();
        assert_eq!(dice.len(), ROLLS.len());
        for (die, (label, count, faces)) in dice.iter().zip(ROLLS) {
            let label = format!("{label}/s{n}");
            assert_eq!(
                die["label"],
                label.as_str(),
                "the YAML reader kept the label"
            );
            assert_eq!(
                u32s(&die["values"]),
                replay_public(seed, &label, count, faces).0
            );
        }
    }
}

#[test]
fn the_script_reports_a_clean_game_as_passing_in_plain_text() {
    let f = fixture();
    let out = run(&[f.dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "game {GAME}: 3 records, 2 steps, {} public dice\n",
            2 * ROLLS.len()
        )),
        "{text}"
    );
    assert!(text.ends_with("all checks passed\n"), "{text}");
}

#[test]
fn the_script_checks_sealed_draws_and_commitments_with_the_game_key() {
    let f = fixture();
    let report = audit(&f.dir, &["--game-key", &f.game_key.hex()], 0);
    for (step, (_, seed)) in report["steps"].as_array().unwrap().iter().zip(&f.seeds) {
        let deck = &step["sealed"][0];
        assert_eq!(deck["label"], "deck/chits");
        let ranges = u32s(&deck["range"]);
        assert_eq!(
            u32s(&deck["values"]),
            replay_sealed(&f.game_key, seed, "deck/chits", &ranges)
        );
    }
}

#[test]
fn the_script_checks_a_revealed_deck_against_its_key_without_the_game_key() {
    let f = fixture();
    let report = audit(&f.dir, &[], 0);
    let reveal = &report["steps"][1]["reveals"][0];
    assert_eq!(reveal["label"], "deck/chits");
    assert_eq!(reveal["step"], 1);
    assert_eq!(
        u32s(&reveal["values"]),
        replay_sealed(
            &f.game_key,
            &f.seeds[0].1,
            "deck/chits",
            &shuffle_ranges(12)
        )
    );
}

#[test]
fn the_script_checks_a_revealed_deck_against_the_sealed_transcript_with_the_game_key() {
    let f = fixture();
    let report = audit(&f.dir, &["--game-key", &f.game_key.hex()], 0);
    assert_eq!(
        report["steps"][1]["reveals"][0]["values"],
        report["steps"][0]["sealed"][0]["values"]
    );
}

#[test]
fn the_script_catches_a_revealed_value_its_key_does_not_give() {
    let f = fixture();
    let drawn = replay_sealed(
        &f.game_key,
        &f.seeds[0].1,
        "deck/chits",
        &shuffle_ranges(12),
    );
    // The first value of the reveal (range 12) is the line after the last range entry, 2.
    let from = format!("  - 2\n    values:\n    - {}\n", drawn[0]);
    let to = format!("  - 2\n    values:\n    - {}\n", (drawn[0] + 1) % 12);
    f.edit_record(2, &from, &to);
    let report = audit(&f.dir, &[], 1);
    assert!(
        findings(&report).iter().any(|m| m.starts_with(
            "journal/000002.yaml: step.reveals[0] (deck/chits of step 1): journal says"
        )),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_revealed_key_that_is_not_the_game_keys() {
    let f = fixture();
    // Another key with the values it gives: consistent in public, caught with the game key.
    let key = sealed_stream_key(&f.game_key, &f.seeds[0].1, "deck/chits");
    let other = Hash32([0x99; 32]);
    let ranges = shuffle_ranges(12);
    let values = |k: &Hash32| {
        let mut s = Stream::new(k);
        ranges
            .iter()
            .map(|&n| s.below(n).to_string())
            .collect::<Vec<_>>()
    };
    let block = |k: &Hash32| format!("values:\n    - {}\n", values(k).join("\n    - "));
    f.edit_record(2, &key.hex(), &other.hex());
    f.edit_record(2, &block(&key), &block(&other));
    let public = findings(&audit(&f.dir, &[], 1));
    assert_eq!(
        public,
        [
            "journal/000002.yaml: step.reveals[0] (deck/chits): the key does not open the commitment of step 1"
        ]
    );
    let report = audit(&f.dir, &["--game-key", &f.game_key.hex()], 1);
    let found = findings(&report);
    assert!(
        found
            .iter()
            .any(|m| m.contains("the key is not the game key's sealed stream key")),
        "{report:#}"
    );
    assert!(
        found.iter().any(|m| m.contains("holds no such draw")),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_changed_die() {
    let f = fixture();
    let (values, _) = replay_public(&f.seeds[0].1, "123/s1", 1, 20);
    let die = |v: u32| format!("label: 123/s1\n    faces: 20\n    values:\n    - {v}\n");
    f.edit_record(1, &die(values[0]), &die(values[0] % 20 + 1));
    let report = audit(&f.dir, &[], 1);
    assert!(
        findings(&report)
            .iter()
            .any(|m| m.starts_with("journal/000001.yaml: step.dice[4] (123/s1): journal says")),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_changed_entropy() {
    let f = fixture();
    let green = entropy(1, 2).hex();
    f.edit_record(1, &green, &entropy(1, 3).hex());
    let report = audit(&f.dir, &[], 1);
    assert!(
        findings(&report)
            .iter()
            .any(|m| m.starts_with("journal/000001.yaml: step.seed: says")),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_reveal_that_does_not_match_the_earlier_commitment() {
    let f = fixture();
    let reveal = host_seed(&Hash32([0x31; 32]), 2).hex();
    f.edit_record(2, &reveal, &Hash32([0x77; 32]).hex());
    let report = audit(&f.dir, &[], 1);
    assert!(
        findings(&report).iter().any(|m| m
            .starts_with("journal/000002.yaml: step.host_reveal: does not match the commitment")),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_record_changed_after_the_next_one_named_its_hash() {
    let f = fixture();
    f.edit_record(1, "- blue moves", "- blue waits");
    let report = audit(&f.dir, &[], 1);
    assert_eq!(
        findings(&report).len(),
        1,
        "only the chain is broken: {report:#}"
    );
    assert!(
        findings(&report)[0].starts_with("journal/000002.yaml: prev: says"),
        "{report:#}"
    );
}

#[test]
fn the_script_catches_a_sealed_file_that_does_not_match_its_commitment() {
    let f = fixture();
    let path = f.dir.join("host/sealed/000002.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("the chit deck", "the chit deck!")).unwrap();
    let report = audit(&f.dir, &["--game-key", &f.game_key.hex()], 1);
    assert_eq!(
        findings(&report),
        ["journal/000002.yaml: step.sealed_commit: does not match host/sealed/000002.yaml"]
    );
}

#[test]
fn the_script_refuses_yaml_outside_the_subset_pbem_writes_instead_of_guessing() {
    let f = fixture();
    f.edit_record(1, "  number: 1\n", "  number: &n 1\n");
    let out = run(&[f.dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("000001.yaml:") && err.contains("unsupported YAML feature '&'"),
        "{err}"
    );
}

/// The independent auditor agrees with pbem on a real game played through the engine, then
/// concluded: every seed, die, host reveal and sealed draw (from the published archive).
#[test]
fn auditor_passes_a_real_concluded_demo_game() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("demo");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["demo", "kummen", "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let game = keep.join("game");
    std::fs::remove_dir_all(game.join("host")).unwrap();
    let out = std::process::Command::new("python3")
        .arg("tools/dice_audit.py")
        .arg(&game)
        .arg("--json")
        .output()
        .expect("python3 runs (scripts/test.sh installs it)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["concluded"], true, "{text}");
    let sealed_steps = report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["sealed"].is_array())
        .count();
    assert!(
        sealed_steps > 0,
        "the sealed transcripts were checked: {text}"
    );
}

#[test]
fn the_script_passes_a_concluded_game_whose_seats_are_bots() {
    // A journal/4 game: every seat a host bot, each bot order an entry with `bot:` and the
    // entropy derived from the step's host reveal (docs/dice.md "Bot orders").
    let tmp = tempfile::tempdir().unwrap();
    let kept = tmp.path().join("kept");
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["simulate", "kummen", "--games", "1", "--keep"])
        .arg(&kept)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let game = kept.join("game-0");
    let first = std::fs::read_to_string(game.join("journal/000001.yaml")).unwrap();
    assert!(first.starts_with("pbem: journal/4\n"), "{first}");
    let report = audit(&game, &[], 0);
    assert_eq!(findings(&report), Vec::<String>::new());
}
