//! The published test vectors of docs/formats.md: every byte pbem hashes or signs.
//!
//! The inputs below are the vector game of docs/formats.md ("Test vectors"); every file text is
//! made by pbem's own writer and signer and must appear verbatim in the page, and every hash is
//! held here as a literal and must appear in the page too. If a test here fails, either a format
//! changed (and every recorded game with it) or the page no longer says what pbem does. Never
//! "fix" a vector here without changing the format's name (`journal/N`, `order/N`, ...).

use ed25519_dalek::{Signature, VerifyingKey};
use pbem::engine::conclude::Manifest;
use pbem::engine::config::{CONFIG_FORMAT, GameConfig, Seat};
use pbem::engine::game::{Game, Secrets};
use pbem::engine::order::Receipt;
use pbem::engine::verify::{Options, verify};
use pbem::engine::views;
use pbem::protocol::dice::{DICE_ALGORITHM, Roll, replay_public, step_seed};
use pbem::protocol::envelope::{self, ORDER_NAMESPACE, RECEIPT_NAMESPACE};
use pbem::protocol::hash::{Hash32, Transcript, commitment, sha256};
use pbem::protocol::journal::{
    Conclusion, EarlierOrder, Genesis, HostOp, JOURNAL_FORMAT, NextStep, OrderEntry, Record,
    SeatKey, StepRecord, dice_entropy, host_seed, record_hash, sealed_commit,
};
use pbem::protocol::keys::{PublicKey, SecretKey};
use sha2::{Digest, Sha512};
use std::collections::BTreeMap;
use std::path::Path;

// ---- Inputs (docs/formats.md, "Inputs of the vectors") -------------------------------------

const GAME: &str = "vectors-game";
/// The ed25519 secret keys (seeds) of RFC 8032 section 7.1, tests 1, 2 and 3, and the public
/// keys the RFC gives for them.
const BLUE_SEED: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const BLUE_PUBLIC: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const RED_SEED: &str = "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb";
const RED_PUBLIC: &str = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
const HOST_SEED: &str = "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7";
const HOST_PUBLIC: &str = "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025";
/// Blue's key as OpenSSH writes it: the seed above with the comment `blue`.
const BLUE_PRIVATE_KEY_FILE: &str = "\
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACDXWpgBgrEKt9VL/tPJZAc6DuFy89qmIyWvAhpo9wdRGgAAAIgJGvLeCRry
3gAAAAtzc2gtZWQyNTUxOQAAACDXWpgBgrEKt9VL/tPJZAc6DuFy89qmIyWvAhpo9wdRGg
AAAECdYbGd7/1aYLqESvSS7CzEREnFaXsyaRlwO6wDHK5/YNdamAGCsQq31Uv+08lkBzoO
4XLz2qYjJa8CGmj3B1EaAAAABGJsdWUB
-----END OPENSSH PRIVATE KEY-----
";
const BLUE_KEY_LINE: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";
const RED_KEY_LINE: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID1AF8PoQ4lakrcKp00bfrycmCzPLsSWjMDNVfEq9GYM";
const HOST_KEY_LINE: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPxRzY5iGKGjjaR+0AIw8FgIFu0TujMDrF3rkRVIkIAl";

/// Stand-ins for the component data and the public views of the vector game: only their bytes
/// matter here.
const DATA_YAML: &str = "map:\n  hexes:\n  - C08\n  - C09\n";
const VIEW_AFTER_GENESIS: &str = "turn: 1\nC08: red\n";
const VIEW_AFTER_STEP_1: &str = "turn: 2\nC08: blue\n";

const TITLE: &str = "turn 1: attack";
const LABEL: &str = "combat/C08/r1";
const UPGRADE_REASON: &str = "rules 2: the component data leaves the state";

/// 32 bytes `first, first+1, ...`.
fn counting_from(first: u8) -> Hash32 {
    Hash32(std::array::from_fn(|i| first.wrapping_add(i as u8)))
}

/// The host's master seed (32 bytes 0x6d) and game key (bytes 0xe0..0xff), as in docs/dice.md.
fn master() -> Hash32 {
    Hash32([0x6d; 32])
}

fn game_key() -> Hash32 {
    counting_from(0xe0)
}

/// Blue's order entropy: bytes 0x20..0x3f, as in docs/dice.md.
fn entropy() -> Hash32 {
    counting_from(0x20)
}

fn h(hex: &str) -> Hash32 {
    hex.parse().expect("64 hex digits")
}

/// An ed25519 key from its 32-byte seed, read back through the OpenSSH file it makes.
fn key_file(seed: &str, comment: &str) -> String {
    let seed: [u8; 32] = hex::decode(seed).unwrap().try_into().unwrap();
    let pair = ssh_key::private::Ed25519Keypair::from_seed(&seed);
    ssh_key::PrivateKey::new(ssh_key::private::KeypairData::from(pair), comment)
        .unwrap()
        .to_openssh(ssh_key::LineEnding::LF)
        .unwrap()
        .to_string()
}

fn key(seed: &str, comment: &str) -> SecretKey {
    SecretKey::from_openssh_bytes(key_file(seed, comment).as_bytes(), Path::new(comment), None)
        .unwrap()
}

fn blue() -> SecretKey {
    key(BLUE_SEED, "blue")
}

fn host() -> SecretKey {
    key(HOST_SEED, "host")
}

// ---- The records -----------------------------------------------------------------------------

fn genesis() -> Record {
    Record {
        pbem: "journal/3".into(),
        game: GAME.into(),
        seq: 0,
        prev: None,
        genesis: Some(Genesis {
            system: "kummen".into(),
            scenario: "campaign".into(),
            dice: DICE_ALGORITHM.into(),
            seats: vec![
                SeatKey {
                    side: "blue".into(),
                    key: BLUE_KEY_LINE.into(),
                    bot: None,
                },
                SeatKey {
                    side: "red".into(),
                    key: RED_KEY_LINE.into(),
                    bot: None,
                },
            ],
            host_key: HOST_KEY_LINE.into(),
            game_key_commit: commitment(&game_key()),
            pbem_version: Some("0.3.0".into()),
            rules: Some(2),
            data: Some(sha256(DATA_YAML.as_bytes())),
        }),
        step: None,
        conclusion: None,
        host_op: None,
        public_state: sha256(VIEW_AFTER_GENESIS.as_bytes()),
        next: Some(NextStep {
            step: 1,
            title: TITLE.into(),
            waiting_for: vec!["blue".into(), "red".into()],
            host_commit: commitment(&host_seed(&master(), 1)),
        }),
    }
}

fn text(record: &Record) -> String {
    pbem::yaml::encode(record).unwrap()
}

/// An order document of blue for step 1 with this version and `orders:` line.
fn order(version: u64, target: &str) -> String {
    format!(
        "pbem: order/2\ngame: {GAME}\nstep: 1\nside: blue\nbasis: {GENESIS_HASH}\nentropy: {}\nversion: {version}\norders:\n  attack: {target}\n",
        entropy()
    )
}

/// Blue's first version, replaced by [`order_v2`] before the step was resolved.
fn order_v1() -> String {
    order(1, "C09")
}

fn order_v2() -> String {
    order(2, "C08")
}

/// Version 2 as `pbem sign` writes it: the document, then the armour behind `# `.
fn signed_order() -> Vec<u8> {
    envelope::sign(order_v2().as_bytes(), &blue(), ORDER_NAMESPACE).unwrap()
}

fn step_record() -> Record {
    let reveal = host_seed(&master(), 1);
    let seats = [
        ("blue".to_string(), Some(dice_entropy(&entropy()))),
        ("red".to_string(), None),
    ];
    let seed = step_seed(GAME, 1, &reveal, &seats);
    Record {
        pbem: "journal/3".into(),
        game: GAME.into(),
        seq: 1,
        prev: Some(h(GENESIS_HASH)),
        genesis: None,
        step: Some(StepRecord {
            number: 1,
            title: TITLE.into(),
            rules: Some(2),
            orders: vec![OrderEntry {
                side: "blue".into(),
                version: Some(2),
                hash: sha256(order_v2().as_bytes()),
                dice_entropy: Some(dice_entropy(&entropy())),
                entropy: None,
                earlier: vec![EarlierOrder {
                    version: 1,
                    hash: sha256(order_v1().as_bytes()),
                }],
                replaced: vec![],
                bot: None,
            }],
            host_reveal: reveal,
            seed,
            dice_algorithm: DICE_ALGORITHM.into(),
            dice: vec![Roll {
                label: LABEL.into(),
                faces: 6,
                values: replay_public(&seed, LABEL, 2, 6).0,
                result: "2D=7: C08 taken".into(),
            }],
            sealed_commit: sealed_commit(&game_key(), 1, "[]\n"),
            events: vec!["blue takes C08".into()],
            outcome: Some("blue wins".into()),
            defaults: vec!["red".into()],
            key_commits: vec![],
            reveals: vec![],
        }),
        conclusion: None,
        host_op: None,
        public_state: sha256(VIEW_AFTER_STEP_1.as_bytes()),
        next: None,
    }
}

fn receipt() -> Receipt {
    Receipt {
        pbem: "receipt/2".into(),
        game: GAME.into(),
        step: 1,
        side: "blue".into(),
        order: h(ORDER_V2_HASH),
        version: Some(2),
        entropy: entropy(),
        basis: h(GENESIS_HASH),
    }
}

fn signed_receipt() -> Vec<u8> {
    let doc = pbem::yaml::encode(&receipt()).unwrap();
    envelope::sign(doc.as_bytes(), &host(), RECEIPT_NAMESPACE).unwrap()
}

fn secrets_yaml() -> String {
    pbem::yaml::encode(&Secrets {
        master: master(),
        game_key: game_key(),
    })
    .unwrap()
}

const RECEIPT_FILE: &str = "receipts/000001-blue-ab5dee452c7b1168.yaml";

/// The archived files of the vector game (paths relative to host/), with their bytes.
fn archived() -> BTreeMap<String, Vec<u8>> {
    BTreeMap::from([
        ("orders/000001-blue.yaml".to_string(), signed_order()),
        (RECEIPT_FILE.to_string(), signed_receipt()),
        ("sealed/000001.yaml".to_string(), b"[]\n".to_vec()),
        ("secrets.yaml".to_string(), secrets_yaml().into_bytes()),
    ])
}

fn manifest_yaml() -> String {
    let files = archived()
        .into_iter()
        .map(|(name, bytes)| (name, sha256(&bytes)))
        .collect();
    pbem::yaml::encode(&Manifest {
        game: GAME.into(),
        files,
    })
    .unwrap()
}

fn conclusion_record() -> Record {
    Record {
        pbem: "journal/3".into(),
        game: GAME.into(),
        seq: 2,
        prev: Some(h(STEP_HASH)),
        genesis: None,
        step: None,
        conclusion: Some(Conclusion {
            master: master(),
            game_key: game_key(),
            archive: sha256(manifest_yaml().as_bytes()),
        }),
        host_op: None,
        public_state: sha256(VIEW_AFTER_STEP_1.as_bytes()),
        next: None,
    }
}

fn upgrade() -> HostOp {
    HostOp::Upgrade {
        from: 1,
        to: 2,
        pbem_version: "0.3.0".into(),
        reason: UPGRADE_REASON.into(),
        data: sha256(DATA_YAML.as_bytes()),
    }
}

// ---- Outputs (docs/formats.md, "Test vectors") ------------------------------------------------

const DATA_HASH: &str = "893c7f89454674c4a27de4d0e29cd3fca64514a2e5f2a7618e1ce8690cf7cb91";
const VIEW_AFTER_GENESIS_HASH: &str =
    "2f45c2944191db72ec3c3f8ae59d3694ef2670331b78a37654a9954127a4619e";
const VIEW_AFTER_STEP_1_HASH: &str =
    "fc2a0b56c5f4eaf6462910b7ebd89fe64c37c47bc4964e9be953de7c6319b8a5";
const GAME_KEY_COMMIT: &str = "d30ec2ff4f58898437b64c49a709896520dd23d70bb2cfa546436eda6c92471a";
const HOST_COMMIT_1: &str = "3a760ad8e29af3910d9fb92fd97aa085eaed7f6aecd87c1b41074f189d2e6515";
const HOST_REVEAL_1: &str = "1aacc41850044fae061fb92381bbc090c6e2a82277a92d1fc3b0dadef16da1bb";
const GENESIS_HASH: &str = "f21b5d1206180a140a445ddd7abb54e43df9986db9a2af8e6cfafcbe2c2ae1ad";
const ORDER_V1_HASH: &str = "cf98037f61aca8c7dbd2d432e5586fc465c9e746a80543f3a6b5850a54598de0";
const ORDER_V2_HASH: &str = "ab5dee452c7b1168f3ffbbcfcb5635515832ed81884be62aad4ec9d63bf5e972";
const DICE_ENTROPY: &str = "3d77e8e03b36e3889ea8a61fc8d2cf0374acade90897a8c1fef6513c3660b891";
const STEP_SEED: &str = "967bca509734ca50c1bc7640f7dd3e433e45218158777a6f389e1a14e9408a4e";
const STEP_DICE: [u32; 2] = [5, 2];
const SEALED_COMMIT_1: &str = "1659cb133839213079de696df203cc4e170996f76045ed2098a87e8c04294f27";
const STEP_HASH: &str = "26bf0ebb2010882a990a0ae90eff90eac4d34f6ea4b7e7947aa223cce528d53f";
const ORDER_SHA512: &str = "2ee525d359875a8cc91b38fab34ef8ce3fb1ef360803c553cb1d4f98a930225e\
                            11525dbb96be6d65722252d3d06883b3ee71158cc08e8adfa8cc99067afe6de2";
const ORDER_SIGNATURE: &str = "f592f1c9f4b8095db287f914c5b98ea40b12a4e5251f94d874efd47c0fc9ef78\
                               263b8ad8fdf715ae71995910e05509d63a4f51de1cbabd70bd643167d8521b0c";
/// The detached signature of version 2 (what `ssh-keygen -Y sign -n pbem` writes to FILE.sig).
const ORDER_SIG_FILE: &str = "\
-----BEGIN SSH SIGNATURE-----
U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg11qYAYKxCrfVS/7TyWQHOg7hcv
PapiMlrwIaaPcHURoAAAAEcGJlbQAAAAAAAAAGc2hhNTEyAAAAUwAAAAtzc2gtZWQyNTUx
OQAAAED1kvHJ9LgJXbKH+RTFuY6kCxKk5SUflNh079R8D8nveCY7itj99xWucZlZEOBVCd
Y6T1HeHLq9cL1kMWfYUhsM
-----END SSH SIGNATURE-----
";
/// The detached signature of version 2 with CRLF line endings (signed on a Windows machine).
const ORDER_CRLF_SIG_FILE: &str = "\
-----BEGIN SSH SIGNATURE-----
U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg11qYAYKxCrfVS/7TyWQHOg7hcv
PapiMlrwIaaPcHURoAAAAEcGJlbQAAAAAAAAAGc2hhNTEyAAAAUwAAAAtzc2gtZWQyNTUx
OQAAAECqrjKPe7Xoyv7xpGDbfq7GHqZMBoj9oakSt14ryW93MB2cZPO6VuzVmUSy4FuA+u
laZuhjMv2dUDZSE9Kp2y0J
-----END SSH SIGNATURE-----
";
const SIGNED_ORDER_HASH: &str = "a43b2d451090f2643462c8621cfbe86758b3388a7d21e5c71d9777bdc34c6a19";
const RECEIPT_HASH: &str = "787291ddd62d11dc8cd1fbe221aa4f69dfc5935c62b2f4a1e65c10618366143d";
const EMPTY_SEALED_HASH: &str = "37517e5f3dc66819f61f5a7bb8ace1921282415f10551d2defa5c3eb0985b570";
const SECRETS_HASH: &str = "a8bf83e3e68f0df29abd6f4ca6e7d3d1cec5bfeefe4c270d44973943122f7027";
const MANIFEST_HASH: &str = "515880718ad04fd9fcb3106904eb117fe61eacf5af94fbbcccee2a8f1800eca0";
const CONCLUSION_HASH: &str = "a951fcb18a5f4662a08f716c92280c05583f035cd7cad7e47adf560db93ec265";

// ---- Helpers ----------------------------------------------------------------------------------

fn doc() -> &'static str {
    include_str!("../docs/formats.md")
}

/// The page shows `text` whole, as one fenced block of this language.
fn assert_block(lang: &str, text: &str) {
    let block = format!("```{lang}\n{text}```\n");
    assert!(
        doc().contains(&block),
        "docs/formats.md has no block\n{block}"
    );
}

/// An SSH `string`: u32 big-endian length, then the bytes.
fn ssh_string(bytes: &[u8]) -> Vec<u8> {
    let mut v = u32::try_from(bytes.len()).unwrap().to_be_bytes().to_vec();
    v.extend_from_slice(bytes);
    v
}

/// Standard base64 (RFC 4648) with padding, decoded by hand so that the SSHSIG layout below is
/// read without the library pbem signs with.
fn base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        bits = bits << 6 | v;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}

/// The base64 body of an armoured SSH signature (lines between BEGIN and END).
fn armour_body(armour: &str) -> Vec<u8> {
    let body: String = armour.lines().filter(|l| !l.starts_with("-----")).collect();
    base64(&body)
}

/// Reads one SSH `string` from the front of `bytes`.
fn take_string<'a>(bytes: &mut &'a [u8]) -> &'a [u8] {
    let len = u32::from_be_bytes(bytes[..4].try_into().unwrap()) as usize;
    let s = &bytes[4..4 + len];
    *bytes = &bytes[4 + len..];
    s
}

/// What SSHSIG's ed25519 signature signs (OpenSSH PROTOCOL.sshsig), built by hand.
fn sshsig_signed_data(namespace: &str, hash_alg: &str, digest: &[u8]) -> Vec<u8> {
    [
        b"SSHSIG".to_vec(),
        ssh_string(namespace.as_bytes()),
        ssh_string(b""),
        ssh_string(hash_alg.as_bytes()),
        ssh_string(digest),
    ]
    .concat()
}

// ---- Keys -------------------------------------------------------------------------------------

#[test]
fn the_vector_keys_are_the_ed25519_keys_of_rfc_8032_tests_1_to_3() {
    assert_eq!(hex::encode(blue().public().ed25519_bytes()), BLUE_PUBLIC);
    assert_eq!(
        hex::encode(key(RED_SEED, "red").public().ed25519_bytes()),
        RED_PUBLIC
    );
    assert_eq!(hex::encode(host().public().ed25519_bytes()), HOST_PUBLIC);
}

#[test]
fn a_public_key_line_is_ssh_ed25519_and_the_base64_of_the_algorithm_and_key_as_ssh_strings() {
    for (line, public, seed) in [
        (BLUE_KEY_LINE, BLUE_PUBLIC, BLUE_SEED),
        (RED_KEY_LINE, RED_PUBLIC, RED_SEED),
        (HOST_KEY_LINE, HOST_PUBLIC, HOST_SEED),
    ] {
        let blob = [
            ssh_string(b"ssh-ed25519"),
            ssh_string(&hex::decode(public).unwrap()),
        ]
        .concat();
        assert_eq!(base64(line.strip_prefix("ssh-ed25519 ").unwrap()), blob);
        assert_eq!(key(seed, "").public().openssh(), line);
        assert_eq!(PublicKey::parse(line).unwrap(), key(seed, "").public());
    }
}

#[test]
fn blues_openssh_private_key_file_is_the_rfc_8032_seed_with_the_comment_blue() {
    assert_eq!(key_file(BLUE_SEED, "blue"), BLUE_PRIVATE_KEY_FILE);
    assert_block("", BLUE_PRIVATE_KEY_FILE);
}

// ---- Component data and public state ---------------------------------------------------------

#[test]
fn genesis_data_is_the_sha256_of_the_bytes_of_data_yaml() {
    assert_eq!(sha256(DATA_YAML.as_bytes()), h(DATA_HASH));
    assert_eq!(genesis().genesis.unwrap().data, Some(h(DATA_HASH)));
    assert_block("yaml", DATA_YAML);
}

#[test]
fn public_state_is_the_sha256_of_the_public_view_yaml_of_the_state_after_the_record() {
    assert_eq!(
        sha256(VIEW_AFTER_GENESIS.as_bytes()),
        h(VIEW_AFTER_GENESIS_HASH)
    );
    assert_eq!(
        sha256(VIEW_AFTER_STEP_1.as_bytes()),
        h(VIEW_AFTER_STEP_1_HASH)
    );
    assert_eq!(genesis().public_state, h(VIEW_AFTER_GENESIS_HASH));
    assert_eq!(step_record().public_state, h(VIEW_AFTER_STEP_1_HASH));
    assert_block("yaml", VIEW_AFTER_GENESIS);
    assert_block("yaml", VIEW_AFTER_STEP_1);
}

// ---- Journal records --------------------------------------------------------------------------

#[test]
fn the_genesis_record_file_is_published_byte_for_byte() {
    assert_block("yaml", &text(&genesis()));
}

#[test]
fn a_record_hash_is_the_sha256_of_its_file_bytes() {
    let bytes = text(&genesis()).into_bytes();
    assert_eq!(record_hash(&bytes), sha256(&bytes));
    assert_eq!(record_hash(&bytes), h(GENESIS_HASH));
}

#[test]
fn the_genesis_commits_to_the_game_key_and_to_the_host_reveal_of_step_1() {
    let g = genesis();
    assert_eq!(g.genesis.unwrap().game_key_commit, h(GAME_KEY_COMMIT));
    assert_eq!(host_seed(&master(), 1), h(HOST_REVEAL_1));
    assert_eq!(commitment(&h(HOST_REVEAL_1)), h(HOST_COMMIT_1));
    assert_eq!(g.next.unwrap().host_commit, h(HOST_COMMIT_1));
}

#[test]
fn the_step_record_file_is_published_byte_for_byte() {
    assert_block("yaml", &text(&step_record()));
}

#[test]
fn the_step_record_names_the_genesis_hash_in_prev_and_hashes_to_its_own() {
    let step = step_record();
    assert_eq!(step.prev, Some(record_hash(text(&genesis()).as_bytes())));
    assert_eq!(record_hash(text(&step).as_bytes()), h(STEP_HASH));
}

#[test]
fn the_step_seed_mixes_blues_dice_entropy_and_an_empty_part_for_red_who_was_given_defaults() {
    assert_eq!(dice_entropy(&entropy()), h(DICE_ENTROPY));
    let preimage = Transcript::new("pbem-step-seed-v1")
        .str(GAME)
        .u64(1)
        .hash(&h(HOST_REVEAL_1))
        .str("blue")
        .hash(&h(DICE_ENTROPY))
        .str("red")
        .part(&[])
        .finish();
    let st = step_record().step.unwrap();
    assert_eq!(st.seed, preimage);
    assert_eq!(st.seed, h(STEP_SEED));
    assert_eq!(st.defaults, ["red"]);
}

#[test]
fn the_public_roll_of_the_step_is_two_d6_of_its_label() {
    let st = step_record().step.unwrap();
    assert_eq!(st.dice[0].values, STEP_DICE);
    assert_eq!(replay_public(&h(STEP_SEED), LABEL, 2, 6).0, STEP_DICE);
}

#[test]
fn the_sealed_commit_of_step_1_without_sealed_draws() {
    assert_eq!(sealed_commit(&game_key(), 1, "[]\n"), h(SEALED_COMMIT_1));
    assert_eq!(
        step_record().step.unwrap().sealed_commit,
        h(SEALED_COMMIT_1)
    );
}

#[test]
fn the_step_record_lists_the_order_used_and_the_earlier_version_it_replaced() {
    let st = step_record().step.unwrap();
    let o = &st.orders[0];
    assert_eq!((o.version, o.hash), (Some(2), h(ORDER_V2_HASH)));
    assert_eq!(o.dice_entropy, Some(h(DICE_ENTROPY)));
    assert_eq!(o.earlier[0].version, 1);
    assert_eq!(o.earlier[0].hash, h(ORDER_V1_HASH));
}

#[test]
fn the_conclusion_record_file_is_published_byte_for_byte_and_chains_to_the_step() {
    let c = conclusion_record();
    assert_block("yaml", &text(&c));
    assert_eq!(c.prev, Some(record_hash(text(&step_record()).as_bytes())));
    assert_eq!(record_hash(text(&c).as_bytes()), h(CONCLUSION_HASH));
}

#[test]
fn the_conclusion_reveals_the_secrets_that_open_every_commitment() {
    let c = conclusion_record().conclusion.unwrap();
    assert_eq!(commitment(&c.game_key), h(GAME_KEY_COMMIT));
    assert_eq!(host_seed(&c.master, 1), h(HOST_REVEAL_1));
    assert_eq!(sealed_commit(&c.game_key, 1, "[]\n"), h(SEALED_COMMIT_1));
}

#[test]
fn the_records_are_written_in_the_current_journal_format() {
    // The vectors are journal/3; when pbem moves to a new format, add vectors for it.
    assert_eq!(JOURNAL_FORMAT, "journal/3");
    for r in [genesis(), step_record(), conclusion_record()] {
        assert_eq!(r.pbem, JOURNAL_FORMAT);
    }
}

#[test]
fn an_upgrade_operation_is_written_as_published() {
    assert_block("yaml", &pbem::yaml::encode(&upgrade()).unwrap());
}

// ---- Order documents --------------------------------------------------------------------------

#[test]
fn the_order_documents_are_published_byte_for_byte() {
    assert_block("yaml", &order_v1());
    assert_block("yaml", &order_v2());
}

#[test]
fn an_order_hash_is_the_sha256_of_the_document() {
    assert_eq!(sha256(order_v1().as_bytes()), h(ORDER_V1_HASH));
    assert_eq!(sha256(order_v2().as_bytes()), h(ORDER_V2_HASH));
}

#[test]
fn the_document_of_an_embedded_signature_is_everything_before_the_armour_line() {
    let signed = signed_order();
    let opened = envelope::open_embedded(&signed).unwrap();
    assert_eq!(opened.document, order_v2().as_bytes());
    assert_eq!(opened.document_hash(), h(ORDER_V2_HASH));
}

#[test]
fn the_embedded_form_is_the_document_then_each_armour_line_behind_hash_space() {
    let armour: String = ORDER_SIG_FILE.lines().map(|l| format!("# {l}\n")).collect();
    let signed = String::from_utf8(signed_order()).unwrap();
    assert_eq!(signed, format!("{}{armour}", order_v2()));
    assert_block("yaml", &signed);
    assert_eq!(sha256(signed.as_bytes()), h(SIGNED_ORDER_HASH));
}

#[test]
fn the_embedded_signature_verifies_with_blues_key_in_namespace_pbem_only() {
    let opened = envelope::open_embedded(&signed_order()).unwrap();
    envelope::verify(&opened, &blue().public(), ORDER_NAMESPACE).unwrap();
    assert!(envelope::verify(&opened, &blue().public(), RECEIPT_NAMESPACE).is_err());
    assert!(envelope::verify(&opened, &host().public(), ORDER_NAMESPACE).is_err());
}

#[test]
fn the_detached_signature_of_the_document_is_what_ssh_keygen_writes() {
    // ed25519 is deterministic: `ssh-keygen -Y sign -n pbem -f blue order.yaml` with the key
    // file above writes exactly these bytes to order.yaml.sig.
    let sig = envelope::sign_detached(order_v2().as_bytes(), &blue(), ORDER_NAMESPACE).unwrap();
    assert_eq!(sig, ORDER_SIG_FILE);
    assert_block("", ORDER_SIG_FILE);
    let opened = envelope::open_detached(order_v2().as_bytes(), sig.as_bytes()).unwrap();
    envelope::verify(&opened, &blue().public(), ORDER_NAMESPACE).unwrap();
}

#[test]
fn the_sshsig_blob_holds_magic_version_key_namespace_reserved_hash_algorithm_and_signature() {
    let blob = armour_body(ORDER_SIG_FILE);
    assert_eq!(&blob[..6], b"SSHSIG");
    assert_eq!(&blob[6..10], &1u32.to_be_bytes());
    let mut rest = &blob[10..];
    let mut key = take_string(&mut rest);
    assert_eq!(take_string(&mut key), b"ssh-ed25519");
    assert_eq!(hex::encode(take_string(&mut key)), BLUE_PUBLIC);
    assert_eq!(take_string(&mut rest), b"pbem");
    assert_eq!(take_string(&mut rest), b"");
    assert_eq!(take_string(&mut rest), b"sha512");
    let mut sig = take_string(&mut rest);
    assert!(rest.is_empty());
    assert_eq!(take_string(&mut sig), b"ssh-ed25519");
    assert_eq!(hex::encode(take_string(&mut sig)), ORDER_SIGNATURE);
}

#[test]
fn the_signature_is_ed25519_over_the_sshsig_preimage_of_the_sha512_of_the_document() {
    let digest = Sha512::digest(order_v2().as_bytes());
    assert_eq!(hex::encode(digest), ORDER_SHA512);
    let data = sshsig_signed_data("pbem", "sha512", &digest);
    let key =
        VerifyingKey::from_bytes(&hex::decode(BLUE_PUBLIC).unwrap().try_into().unwrap()).unwrap();
    let sig = Signature::from_bytes(&hex::decode(ORDER_SIGNATURE).unwrap().try_into().unwrap());
    key.verify_strict(&data, &sig).unwrap();
    assert!(key.verify_strict(&data[1..], &sig).is_err());
}

#[test]
fn a_detached_signature_of_the_crlf_file_verifies_and_the_order_hash_is_still_of_the_lf_document() {
    let crlf = order_v2().replace('\n', "\r\n");
    let sig = envelope::sign_detached(crlf.as_bytes(), &blue(), ORDER_NAMESPACE).unwrap();
    assert_eq!(sig, ORDER_CRLF_SIG_FILE);
    assert_block("", ORDER_CRLF_SIG_FILE);
    let opened = envelope::open_detached(crlf.as_bytes(), sig.as_bytes()).unwrap();
    envelope::verify(&opened, &blue().public(), ORDER_NAMESPACE).unwrap();
    assert_eq!(opened.document, order_v2().as_bytes());
    assert_eq!(opened.document_hash(), h(ORDER_V2_HASH));
}

#[test]
fn line_endings_are_normalised_crlf_and_lone_cr_to_lf() {
    assert_eq!(
        envelope::normalize_line_endings(b"a\r\nb\rc\n\r\r\n"),
        b"a\nb\nc\n\n\n"
    );
}

// ---- Receipts ---------------------------------------------------------------------------------

#[test]
fn the_receipt_is_published_byte_for_byte() {
    let r = signed_receipt();
    assert_block("yaml", &String::from_utf8(r.clone()).unwrap());
    assert_eq!(sha256(&r), h(RECEIPT_HASH));
}

#[test]
fn the_receipt_is_signed_by_the_host_in_namespace_pbem_receipt_only() {
    let opened = envelope::open_embedded(&signed_receipt()).unwrap();
    envelope::verify(&opened, &host().public(), RECEIPT_NAMESPACE).unwrap();
    assert!(envelope::verify(&opened, &host().public(), ORDER_NAMESPACE).is_err());
    let parsed: Receipt =
        pbem::yaml::parse(std::str::from_utf8(&opened.document).unwrap(), "receipt").unwrap();
    assert_eq!(parsed, receipt());
}

#[test]
fn the_receipt_file_is_named_for_the_step_the_side_and_16_hex_digits_of_the_order_hash() {
    assert_eq!(
        RECEIPT_FILE,
        format!("receipts/000001-blue-{}.yaml", &ORDER_V2_HASH[..16])
    );
}

// ---- Archive ----------------------------------------------------------------------------------

#[test]
fn the_manifest_lists_each_archived_file_with_its_sha256_and_is_published_byte_for_byte() {
    let files = archived();
    assert_eq!(
        sha256(&files["orders/000001-blue.yaml"]),
        h(SIGNED_ORDER_HASH)
    );
    assert_eq!(sha256(&files[RECEIPT_FILE]), h(RECEIPT_HASH));
    assert_eq!(sha256(&files["sealed/000001.yaml"]), h(EMPTY_SEALED_HASH));
    assert_eq!(sha256(&files["secrets.yaml"]), h(SECRETS_HASH));
    assert_block("yaml", &secrets_yaml());
    assert_block("yaml", &manifest_yaml());
}

#[test]
fn conclusion_archive_is_the_sha256_of_the_manifest() {
    assert_eq!(sha256(manifest_yaml().as_bytes()), h(MANIFEST_HASH));
    assert_eq!(
        conclusion_record().conclusion.unwrap().archive,
        h(MANIFEST_HASH)
    );
}

// ---- The page -------------------------------------------------------------------------------

/// The page lists `fields`, one per line, each line starting with the hex of the field and a
/// space (then its description), the fields make up `whole`, and the page gives its length.
fn assert_hex_lines(fields: &[Vec<u8>], whole: &[u8]) {
    assert_eq!(fields.concat(), whole);
    let count = format!("these {} bytes", whole.len());
    assert!(
        doc().contains(&count),
        "docs/formats.md does not say {count}"
    );
    for f in fields {
        let line = format!("\n{} ", hex::encode(f));
        assert!(doc().contains(&line), "docs/formats.md has no line{line}");
    }
}

#[test]
fn the_sshsig_body_is_printed_field_by_field() {
    let key = [
        ssh_string(b"ssh-ed25519"),
        ssh_string(&hex::decode(BLUE_PUBLIC).unwrap()),
    ];
    let sig = [
        ssh_string(b"ssh-ed25519"),
        ssh_string(&hex::decode(ORDER_SIGNATURE).unwrap()),
    ];
    let fields = [
        [b"SSHSIG".to_vec(), 1u32.to_be_bytes().to_vec()].concat(),
        (key.concat().len() as u32).to_be_bytes().to_vec(),
        key[0].clone(),
        key[1].clone(),
        ssh_string(b"pbem"),
        ssh_string(b""),
        ssh_string(b"sha512"),
        (sig.concat().len() as u32).to_be_bytes().to_vec(),
        sig[0].clone(),
        sig[1].clone(),
    ];
    assert_hex_lines(&fields, &armour_body(ORDER_SIG_FILE));
}

#[test]
fn the_signed_data_is_printed_field_by_field() {
    let digest = hex::decode(ORDER_SHA512).unwrap();
    let fields = [
        b"SSHSIG".to_vec(),
        ssh_string(b"pbem"),
        ssh_string(b""),
        ssh_string(b"sha512"),
        ssh_string(&digest),
    ];
    assert_hex_lines(&fields, &sshsig_signed_data("pbem", "sha512", &digest));
}

/// Every 32-byte value (64 hex digits) the page prints as a literal of this file.
const HASHES: &[&str] = &[
    BLUE_SEED,
    BLUE_PUBLIC,
    RED_SEED,
    RED_PUBLIC,
    HOST_SEED,
    HOST_PUBLIC,
    DATA_HASH,
    VIEW_AFTER_GENESIS_HASH,
    VIEW_AFTER_STEP_1_HASH,
    GAME_KEY_COMMIT,
    HOST_REVEAL_1,
    HOST_COMMIT_1,
    GENESIS_HASH,
    ORDER_V1_HASH,
    ORDER_V2_HASH,
    DICE_ENTROPY,
    STEP_SEED,
    SEALED_COMMIT_1,
    STEP_HASH,
    SIGNED_ORDER_HASH,
    RECEIPT_HASH,
    EMPTY_SEALED_HASH,
    SECRETS_HASH,
    MANIFEST_HASH,
    CONCLUSION_HASH,
];

#[test]
fn every_value_asserted_here_is_printed_in_docs_formats_md() {
    let others = [
        BLUE_KEY_LINE.to_string(),
        RED_KEY_LINE.to_string(),
        HOST_KEY_LINE.to_string(),
        RECEIPT_FILE.to_string(),
        format!("{STEP_DICE:?}"),
        format!("`{}`", entropy().hex()),
        game_key().hex(),
    ];
    let missing: Vec<&str> = HASHES
        .iter()
        .copied()
        .chain(others.iter().map(String::as_str))
        .filter(|v| !doc().contains(*v))
        .collect();
    assert!(missing.is_empty(), "not in docs/formats.md: {missing:#?}");
}

#[test]
fn every_32_byte_value_in_the_page_is_one_asserted_here() {
    // A typo in any hash of the page, wherever it stands, is caught: every run of exactly 64
    // hex digits must be a value this file asserts.
    let known: Vec<String> = HASHES
        .iter()
        .map(|h| h.to_string())
        .chain([entropy().hex(), game_key().hex(), master().hex()])
        .collect();
    let unknown: Vec<&str> = doc()
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|run| run.len() == 64 && !known.iter().any(|k| k == run))
        .collect();
    assert!(unknown.is_empty(), "not vectors of this file: {unknown:#?}");
}

// ---- The vector game as a game directory -------------------------------------------------------

/// The vector game written out as its public files and published archive: game.yaml, data.yaml,
/// the three records, a report per record (the part an auditor can check without the states),
/// and archive/.
fn vector_game() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let write = |rel: &str, bytes: &[u8]| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    };
    let seat = |side: &str, line: &str| Seat {
        side: side.into(),
        name: String::new(),
        key: PublicKey::parse(line).unwrap(),
        bot: None,
        email: String::new(),
        tz: None,
    };
    let config = GameConfig {
        pbem: CONFIG_FORMAT.into(),
        id: GAME.into(),
        system: "kummen".into(),
        scenario: "campaign".into(),
        seats: vec![seat("blue", BLUE_KEY_LINE), seat("red", RED_KEY_LINE)],
        host_key: PublicKey::parse(HOST_KEY_LINE).unwrap(),
        mail: Default::default(),
        deadline: None,
        missed_orders: Default::default(),
    };
    write("game.yaml", pbem::yaml::encode(&config).unwrap().as_bytes());
    write("data.yaml", DATA_YAML.as_bytes());
    for r in [genesis(), step_record(), conclusion_record()] {
        write(&format!("journal/{:06}.yaml", r.seq), text(&r).as_bytes());
    }
    for (name, bytes) in archived() {
        write(&format!("archive/{name}"), &bytes);
    }
    write("archive/manifest.yaml", manifest_yaml().as_bytes());
    let game = Game::open_for_audit(root).unwrap();
    let records = game.records_all().unwrap();
    for (r, _) in records {
        let head = views::report_head_of(&game, records, r.seq).unwrap();
        write(&format!("reports/{:06}.txt", r.seq), head.as_bytes());
    }
    write("player/order.yaml", &signed_order());
    write("player/receipt.yaml", &signed_receipt());
    tmp
}

#[test]
fn the_vector_game_passes_pbem_verify_with_blues_order_and_receipt_as_player_evidence() {
    let tmp = vector_game();
    let tally = verify(
        tmp.path(),
        &Options {
            player_files: vec![
                tmp.path().join("player/order.yaml"),
                tmp.path().join("player/receipt.yaml"),
            ],
            public_only: true,
            full: false,
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((tally.records, tally.dice, tally.player_files), (3, 1, 2));
}

#[test]
fn the_vector_game_passes_tools_dice_audit_py_with_the_game_key() {
    let tmp = vector_game();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/dice_audit.py");
    let out = match std::process::Command::new("python3")
        .arg(&script)
        .arg(tmp.path())
        .args(["--game-key", &game_key().hex()])
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run python3 {} (these tests need Python 3; they never skip): {e}",
            script.display()
        ),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("all checks passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---- What pbem really writes has the fields of the vectors ------------------------------------

/// The mapping keys of a YAML file as pbem writes it (block style) as paths such as
/// `step.orders.earlier.hash` (list indices left out), in order of first appearance: the shape
/// of a record without its values.
fn shape(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        let body = line.trim_start_matches([' ', '-']);
        let indent = line.len() - body.len();
        let Some((key, rest)) = body.split_once(':') else {
            continue;
        };
        let is_key = !key.is_empty()
            && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            && (rest.is_empty() || rest.starts_with(' '));
        if !is_key {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        stack.push((indent, key.to_string()));
        let path: Vec<&str> = stack.iter().map(|(_, k)| k.as_str()).collect();
        let path = path.join(".");
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

#[test]
fn a_concluded_demo_game_writes_records_of_the_layout_and_fields_of_the_vectors() {
    let tmp = tempfile::tempdir().unwrap();
    let keep = tmp.path().join("demo");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["demo", "kummen", "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let journal = keep.join("game/journal");
    let count = std::fs::read_dir(&journal).unwrap().count();
    let texts: Vec<String> = (0..count)
        .map(|seq| std::fs::read_to_string(journal.join(format!("{seq:06}.yaml"))).unwrap())
        .collect();
    // Every record is exactly what the writer of the vectors makes of its fields.
    for (seq, t) in texts.iter().enumerate() {
        let record: Record = pbem::yaml::parse(t, &format!("record {seq}")).unwrap();
        assert_eq!(
            &text(&record),
            t,
            "record {seq} does not re-encode to its bytes"
        );
    }
    assert_eq!(shape(&texts[0]), shape(&text(&genesis())));
    assert_eq!(shape(&texts[count - 1]), shape(&text(&conclusion_record())));
    // The vector step record has every optional field (earlier, outcome, defaults) but, ending
    // the game, no `next`; the demo's step records have some of these fields, in this order.
    let mut step_fields = shape(&text(&step_record()));
    step_fields.extend(
        shape(&text(&genesis()))
            .into_iter()
            .filter(|k| k.starts_with("next")),
    );
    for (seq, t) in texts.iter().enumerate().take(count - 1).skip(1) {
        let real = shape(t);
        let positions: Vec<Option<usize>> = real
            .iter()
            .map(|k| step_fields.iter().position(|v| v == k))
            .collect();
        assert!(
            positions.iter().all(Option::is_some) && positions.is_sorted(),
            "record {seq}: fields {real:?} are not among {step_fields:?} in that order"
        );
    }
}
