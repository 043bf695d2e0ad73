//! The entry points of the cargo-fuzz targets in `fuzz/` (docs/fuzzing.md). Not an API: the
//! functions live in the library so that `tests/fuzz_regressions.rs` replays the fuzzers'
//! corpora and crashers through exactly the same code on stable, in the normal test suite.
//!
//! Every function takes untrusted bytes, must never panic, and returns how many bytes of
//! messages it produced, so a test can hold that to a bound. Fixtures (game states, an opened
//! game, keys) are built once per process ([`init`]): a fuzzer runs millions of inputs against
//! them. Everything that can be deterministic is (keys and dice from fixed seeds), so an input
//! behaves the same in every process; the fixture game made with `engine::new` has a random
//! host key, which changes hashes, never which code an input reaches.

use crate::engine::game::Game;
use crate::engine::mail::{address, classify, extract, ingest, parse};
use crate::engine::new::{NewGame, create};
use crate::engine::order::{self, Envelope, Header};
use crate::engine::verify;
use crate::protocol::dice::Dice;
use crate::protocol::envelope::{self, ORDER_NAMESPACE, RECEIPT_NAMESPACE, Signed};
use crate::protocol::hash::{Hash32, sha256};
use crate::protocol::journal::Record;
use crate::protocol::keys::SecretKey;
use crate::systems::{
    self, DataSource, GameData, OrderDoc, Phase, Reader, Rules, System, dougram, kummen, zeta,
};
use crate::yaml;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

/// The name rejections give the fuzzed file.
pub const FILE: &str = "fuzz.yaml";
/// Separates the parts of an input that holds several files (a document and its detached
/// signature; journal records): NUL never occurs in a YAML or armour file that pbem accepts.
pub const SEPARATOR: u8 = 0;
/// At most this many journal records are taken from one input.
pub const MAX_RECORDS: usize = 3;
/// Steps played per game to collect states for the order targets.
const MAX_STEPS: u64 = 40;
/// Games played per scenario, each with other dice: a game that ends early (a dougram victory
/// roll on turn 1) leaves later positions to the others.
const GAMES_PER_SCENARIO: u32 = 3;

/// A key from a fixed seed: the same in every process, so a corpus of signed files stays valid.
pub fn fixed_key(n: u8) -> SecretKey {
    use ssh_key::private::{Ed25519Keypair, KeypairData, PrivateKey};
    let keypair = Ed25519Keypair::from_seed(&[n; 32]);
    let key = PrivateKey::new(KeypairData::from(keypair), format!("fuzz key {n}"))
        .expect("an ed25519 key pair from a seed is always valid");
    let pem = key
        .to_openssh(ssh_key::LineEnding::LF)
        .expect("an unencrypted ed25519 key always encodes");
    SecretKey::from_openssh_bytes(pem.as_bytes(), Path::new("fixed key"), None)
        .expect("a key just encoded decodes")
}

// ---------------------------------------------------------------------------------------------
// Signed envelopes.

fn envelope_key() -> &'static SecretKey {
    static KEY: OnceLock<SecretKey> = OnceLock::new();
    KEY.get_or_init(|| fixed_key(1))
}

/// Every check a signed file goes through, against the fixed key and against its own signer.
fn check_signed(signed: &Signed, input_len: usize) -> usize {
    // A document is never longer than its file (CRLF -> LF only shortens it).
    assert!(signed.document.len() <= input_len);
    let _ = (
        signed.document_hash(),
        signed.is_detached(),
        signed.namespace(),
    );
    let key = envelope_key().public();
    let mut out = 0;
    for ns in [ORDER_NAMESPACE, RECEIPT_NAMESPACE] {
        if let Err(e) = envelope::verify(signed, &key, ns) {
            out += e.to_string().len();
        }
    }
    match envelope::signer(signed) {
        Ok(k) => {
            if let Err(e) = envelope::verify(signed, &k, signed.namespace()) {
                out += e.to_string().len();
            }
        }
        Err(e) => out += e.to_string().len(),
    }
    out
}

/// The signed-envelope target: the input as one signed file, and, split at the first NUL, as a
/// document with its detached `.sig` (without a NUL: the whole input as a `.sig` of nothing).
pub fn envelope(data: &[u8]) -> usize {
    let mut out = 0;
    let stripped = envelope::strip_embedded_signature(data);
    assert!(stripped.len() <= data.len());
    match envelope::open_embedded(data) {
        Ok(s) => out += check_signed(&s, data.len()),
        Err(e) => out += e.to_string().len(),
    }
    let (doc, sig) = match data.iter().position(|&b| b == SEPARATOR) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b""[..], data),
    };
    match envelope::open_detached(doc, sig) {
        Ok(s) => out += check_signed(&s, doc.len()),
        Err(e) => out += e.to_string().len(),
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Order documents.

/// A registered system with the states orders are checked against: the state before each
/// step of a few games of each scenario, played with the demo script (or default orders after
/// it). The states are parsed once, so an input costs its own parse and check, not the host
/// state's parse (which `System::check_order` repeats on every call).
pub trait OrderFixture: Send + Sync {
    fn system(&self) -> &dyn System;
    /// (open step, state as the host stores it), in the order played.
    fn states(&self) -> &[(u64, String)];
    /// The component data every state of the fixture is read with (the built-in data).
    fn data(&self) -> &GameData;
    /// Checks order document `doc` of `side` at state `index` as `System::check_order` does;
    /// when the rules accept it and the step waits for `side`, resolves the step with it (the
    /// other sides send default orders) as `pbem process` would, because an accepted order the
    /// step then cannot resolve would stop the game. Returns the bytes of messages produced.
    fn check(&self, index: usize, side: &str, doc: &str) -> usize;
}

struct Typed<R: Rules> {
    rules: R,
    texts: Vec<(u64, String)>,
    states: Vec<R::State>,
    data: GameData,
}

impl<R: Rules> OrderFixture for Typed<R>
where
    R::State: Send + Sync,
{
    fn system(&self) -> &dyn System {
        &self.rules
    }

    fn states(&self) -> &[(u64, String)] {
        &self.texts
    }

    fn data(&self) -> &GameData {
        &self.data
    }

    fn check(&self, index: usize, side: &str, doc: &str) -> usize {
        let (step, state) = (self.texts[index].0, &self.states[index]);
        let parsed: OrderDoc<R::Orders> = match yaml::parse(doc, FILE) {
            Ok(p) => p,
            Err(r) => return r.to_string().len(),
        };
        if let Err(rs) = systems::check_parsed(&self.rules, state, side, &parsed.orders, doc, FILE)
        {
            return rejection_bytes(&rs);
        }
        let Phase::Waiting { sides, .. } = Rules::phase(&self.rules, state) else {
            return 0;
        };
        if !sides.iter().any(|s| s == side) {
            return 0;
        }
        let mut orders = BTreeMap::new();
        let mut mine = Some(parsed.orders);
        for s in &sides {
            let o = if s == side { mine.take() } else { None };
            let o = o.unwrap_or_else(|| Rules::default_orders(&self.rules, state, s));
            orders.insert(s.clone(), o);
        }
        let id = Rules::id(&self.rules);
        let mut dice = Dice::new(sha256(doc.as_bytes()), sha256(b"fuzz game key"));
        let res = Rules::resolve(&self.rules, state, &orders, &mut dice).unwrap_or_else(|e| {
            panic!("{id} step {step}: an order the check accepted cannot be resolved: {e}")
        });
        if let Err(faults) = dice.finish() {
            panic!(
                "{id} step {step}: defect in the rules code: {}",
                faults.join("; ")
            );
        }
        // What `pbem process` does with the new state: store it, show it to everyone.
        yaml::encode(&res.state).expect("a resolved state encodes");
        let _ = Rules::phase(&self.rules, &res.state);
        let mut out = res.public.iter().map(String::len).sum::<usize>();
        for reader in sides
            .iter()
            .map(|s| Reader::Side(s.clone()))
            .chain([Reader::Public])
        {
            let view = Rules::view(&self.rules, &res.state, &reader);
            out += Rules::render(&self.rules, &view).len();
        }
        out
    }
}

/// A complete order document for a game of this fixture: the header, then `body` as the value
/// of `orders:` (indented under it).
pub fn order_document(step: u64, side: &str, body: &str) -> String {
    let mut doc = format!(
        "pbem: order/2\ngame: fuzz\nstep: {step}\nside: {side}\nbasis: {}\nentropy: {}\nversion: 1\norders:\n",
        Hash32::default(),
        sha256(side.as_bytes()),
    );
    for line in body.lines() {
        doc.push_str("  ");
        doc.push_str(line);
        doc.push('\n');
    }
    if body.trim().is_empty() {
        doc.push_str("  {}\n");
    }
    doc
}

/// The orders `side` sends at a state while collecting fixtures: the demo script's when they
/// pass the check, else the system's default orders.
fn fixture_orders(
    sys: &dyn System,
    data: &GameData,
    state: &str,
    step: u64,
    side: &str,
) -> Option<String> {
    if let Some(body) = crate::engine::demo::scripted(sys.id(), step, side) {
        let doc = order_document(step, side, body);
        if sys.check_order(data, state, side, &doc, FILE).is_ok() {
            return Some(doc);
        }
    }
    let body = sys.default_orders(data, state, side).ok()?;
    Some(order_document(step, side, &body))
}

fn play(sys: &dyn System, scenario: &str, game: u32, out: &mut Vec<(u64, String)>) {
    let Ok((mut state, data)) = sys.initial_state(scenario, &DataSource::default()) else {
        return;
    };
    let Ok(data) = sys.parse_data(&data) else {
        return;
    };
    for step in 1..=MAX_STEPS {
        // The opening position is the same in every game of a scenario: keep it once.
        if !out.iter().any(|(_, s)| *s == state) {
            out.push((step, state.clone()));
        }
        let Ok(Phase::Waiting { sides, .. }) = sys.phase(&data, &state) else {
            return;
        };
        let mut orders = BTreeMap::new();
        for side in &sides {
            match fixture_orders(sys, &data, &state, step, side) {
                Some(doc) => orders.insert(side.clone(), doc),
                None => return,
            };
        }
        let seed = sha256(format!("fuzz {} {scenario} {game} {step}", sys.id()).as_bytes());
        let mut dice = Dice::new(seed, sha256(b"fuzz game key"));
        match sys.resolve(&data, &state, &orders, &mut dice) {
            Ok(r) => state = r.state,
            Err(_) => return,
        }
    }
}

fn typed<R: Rules>(rules: R) -> Box<dyn OrderFixture>
where
    R::State: Send + Sync,
{
    let mut texts = Vec::new();
    for (scenario, _) in System::scenarios(&rules) {
        for game in 0..GAMES_PER_SCENARIO {
            play(&rules, &scenario, game, &mut texts);
        }
    }
    assert!(
        !texts.is_empty(),
        "{} has an initial state",
        Rules::id(&rules)
    );
    // Every scenario of a system is played with the built-in data.
    let (scenario, _) = &System::scenarios(&rules)[0];
    let first = Rules::initial_state(&rules, scenario, &DataSource::default())
        .expect("the built-in data makes a game");
    let data = rules.data_of(&first);
    let states = texts
        .iter()
        .map(|(_, t)| {
            let mut st: R::State =
                yaml::parse(t, "fixture state").expect("a state the system wrote parses");
            rules.attach(&mut st, data.clone());
            st
        })
        .collect();
    let data_yaml = yaml::encode(&*data).expect("the built-in data encodes");
    let data = System::parse_data(&rules, &data_yaml).expect("the built-in data reads back");
    Box::new(Typed {
        rules,
        texts,
        states,
        data,
    })
}

/// A fixture for every registered system (tests/fuzz_regressions.rs checks that none is
/// missing); built once per process.
pub fn order_fixtures() -> &'static [Box<dyn OrderFixture>] {
    static FIXTURES: OnceLock<Vec<Box<dyn OrderFixture>>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        vec![
            typed(kummen::Kummen),
            typed(dougram::Dougram),
            typed(zeta::Zeta),
        ]
    })
}

/// The fixture state whose open step is `step`, else the first one.
fn index_for_step(fx: &dyn OrderFixture, step: Option<u64>) -> usize {
    step.and_then(|n| fx.states().iter().position(|(s, _)| *s == n))
        .unwrap_or(0)
}

fn rejection_bytes(rs: &[yaml::Rejection]) -> usize {
    assert!(!rs.is_empty(), "a refused order names at least one problem");
    rs.iter().map(|r| r.to_string().len()).sum()
}

/// The order target: the input as a whole order document, parsed for its header and checked
/// by every system for every side, at the fixture state of the step its header names.
pub fn order(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let step = match yaml::parse::<Header>(text, FILE) {
        Ok(h) => Some(h.step),
        Err(r) => return r.to_string().len() + checks_at(text, None),
    };
    checks_at(text, step)
}

fn checks_at(text: &str, step: Option<u64>) -> usize {
    let mut out = 0;
    for fx in order_fixtures() {
        let index = index_for_step(fx.as_ref(), step);
        for side in fx.system().sides() {
            out += fx.check(index, &side, text);
        }
    }
    out
}

/// The order-body target: the first byte picks a fixture state (of each system), the rest is
/// the `orders:` block under a valid header, so the fuzzer spends its time in the systems'
/// order parsers and checks rather than in the header.
pub fn order_body(data: &[u8]) -> usize {
    let Some((&pick, body)) = data.split_first() else {
        return 0;
    };
    let Ok(body) = std::str::from_utf8(body) else {
        return 0;
    };
    let mut out = 0;
    for fx in order_fixtures() {
        let index = pick as usize % fx.states().len();
        let step = fx.states()[index].0;
        for side in fx.system().sides() {
            out += fx.check(index, &side, &order_document(step, &side, body));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Mail.

/// A scratch directory, in memory (/dev/shm) where there is one: the journal target writes a
/// few files per input.
fn scratch(prefix: &str) -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let builder = || tempfile::Builder::new().prefix(prefix).tempdir();
    if shm.is_dir() {
        tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(shm)
            .or_else(|_| builder())
    } else {
        builder()
    }
    .expect("a temporary directory")
}

/// A fresh kummen game whose seats hold `fixed_key(2)` and `fixed_key(3)`, opened; its
/// directory is gone when this returns (the targets need only what `Game` holds in memory).
fn fixture_game() -> (Game, String, Vec<u8>) {
    let tmp = scratch("pbem-fuzz-game-");
    let root = tmp.path().join("game");
    let sys = systems::by_id("kummen").expect("kummen is registered");
    let seats = sys
        .sides()
        .into_iter()
        .enumerate()
        .map(|(i, s)| (s, fixed_key(2 + i as u8).public()))
        .collect();
    let game = create(NewGame {
        dir: root.clone(),
        system: "kummen".into(),
        scenario: None,
        seats,
        names: Vec::new(),
        emails: Vec::new(),
        id: Some("fuzz".into()),
        data: None,
        mail: Default::default(),
        deadline: None,
    })
    .expect("a fixture game is created");
    let state = game.state().expect("the fixture has a state");
    let config = std::fs::read(root.join("game.yaml")).expect("game.yaml is there");
    (game, state, config)
}

struct MailFixture {
    game: Game,
    state: String,
}

fn mail_fixture() -> &'static MailFixture {
    static FIXTURE: OnceLock<MailFixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let (game, state, _) = fixture_game();
        MailFixture { game, state }
    })
}

/// Builds every fixture, so that a fuzzer's first input is not charged with it (libFuzzer
/// would count that as a hang).
pub fn init() {
    order_fixtures();
    mail_fixture();
    journal_config();
}

/// The mail target: a raw message through everything `pbem ingest` does before it files an
/// order: parse, classify, find the orders, their game, open each envelope and check it
/// against a fixture game.
pub fn mail(data: &[u8]) -> usize {
    let Some(m) = parse::parse(data) else {
        return 0;
    };
    let mut out = m.problems.iter().map(String::len).sum::<usize>();
    out += classify::automatic(&m).map_or(0, |s| s.len());
    let _ = (
        ingest::tag_in(&m.subject),
        m.reply_address(),
        m.header("to"),
    );
    let subject = address::header_text(&m.subject, 200);
    assert!(subject.chars().count() <= 200);
    let found = extract::find(&m.parts);
    // Each order found is a part (or a pair of parts) of the message.
    assert!(found.orders.len() <= m.parts.len());
    out += found.problems.iter().map(String::len).sum::<usize>();
    for c in &found.orders {
        let _ = extract::game_id(&c.doc);
        out += check_candidate(c);
    }
    out
}

fn check_candidate(c: &extract::Candidate) -> usize {
    let signed = match &c.sig {
        Some(sig) => envelope::open_detached(&c.doc, sig),
        None => envelope::open_embedded(&c.doc),
    };
    let signed = match signed {
        Ok(s) => s,
        Err(e) => return e.to_string().len(),
    };
    let Ok(text) = String::from_utf8(signed.document.clone()) else {
        return 0;
    };
    let fx = mail_fixture();
    let env = Envelope {
        signed,
        text,
        file: c.file_name.clone(),
        raw: c.doc.clone(),
        raw_sig: c.sig.clone(),
    };
    let Some(step) = fx.game.open_step() else {
        return 0;
    };
    match order::check(
        &fx.game,
        &env,
        step.step,
        &fx.game.open_step_bases(),
        &fx.state,
    ) {
        Ok(_) => 0,
        Err(e) => e.to_string().len(),
    }
}

// ---------------------------------------------------------------------------------------------
// Journal.

/// game.yaml of the fixture game, written beside the fuzzed journal.
fn journal_config() -> &'static [u8] {
    static CONFIG: OnceLock<Vec<u8>> = OnceLock::new();
    CONFIG.get_or_init(|| fixture_game().2)
}

/// The journal target: the input split at NUL bytes into up to three records, each parsed as a
/// journal record, then written as the journal of a fixture game that `verify` audits (the
/// public checks) and `Game::open` reads.
pub fn journal(data: &[u8]) -> usize {
    let records: Vec<&[u8]> = data.split(|&b| b == SEPARATOR).take(MAX_RECORDS).collect();
    let mut out = 0;
    for r in &records {
        let text = String::from_utf8_lossy(r);
        if let Err(e) = yaml::parse::<Record>(&text, FILE) {
            out += e.to_string().len();
        }
    }
    // A directory per input (in memory, a few files): nothing of one input can leak into the
    // next, and nothing is left behind. Without host/ only the public audit runs; a replay per
    // input would be far too slow.
    let tmp = scratch("pbem-fuzz-journal-");
    let root = tmp.path();
    std::fs::write(root.join("game.yaml"), journal_config()).expect("game.yaml is written");
    let dir = root.join("journal");
    std::fs::create_dir(&dir).expect("journal/ is made");
    for (seq, bytes) in records.iter().enumerate() {
        let path = dir.join(crate::protocol::journal::file_name(seq as u64));
        std::fs::write(&path, bytes).expect("a record is written to the scratch game");
    }
    let opts = verify::Options {
        player_files: Vec::new(),
        public_only: true,
        full: false,
    };
    match verify::verify(root, &opts) {
        Ok(t) => out += t.summary().len(),
        Err(e) => out += e.to_string().len(),
    }
    match Game::open(root) {
        Ok(g) => {
            let _ = (g.open_step(), g.open_step_bases(), g.head());
            out += crate::engine::ops::seat_findings(&g, g.records_all().unwrap_or_default())
                .iter()
                .map(String::len)
                .sum::<usize>();
            let _ = crate::engine::schedule::paused_since(g.records_all().unwrap_or_default());
        }
        Err(e) => out += e.to_string().len(),
    }
    out
}
