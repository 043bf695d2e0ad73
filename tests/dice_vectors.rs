//! The published test vectors of `pbem-dice-v1` (docs/dice.md, "Test vectors").
//!
//! Every expected value below is printed in docs/dice.md and in tools/dice_audit.py; if one of
//! these tests fails, the derivation changed and every recorded game would fail its audit.
//! Never "fix" a vector here without a new algorithm name.

use pbem::protocol::dice::{
    Dice, Stream, bot_entropy, bot_seed, public_stream_key, replay_public, replay_sealed,
    sealed_stream_key, step_seed,
};
use pbem::protocol::hash::{Hash32, Transcript, commitment, sha256};
use pbem::protocol::journal::{host_seed, sealed_commit};

// ---- Inputs (docs/dice.md, "Inputs of the vectors") ----------------------------------------

const GAME: &str = "vectors-game";
const STEP: u64 = 3;
const COMBAT: &str = "combat/C08/r2/U17";
const MORALE: &str = "morale/B-A01";

/// 32 bytes `first, first+1, ...`.
fn counting_from(first: u8) -> Hash32 {
    Hash32(core::array::from_fn(|i| first.wrapping_add(i as u8)))
}

/// The host reveal: bytes 0x00..0x1f.
fn host_reveal() -> Hash32 {
    counting_from(0x00)
}

/// The host's master seed: 32 bytes 0x6d.
fn master() -> Hash32 {
    Hash32([0x6d; 32])
}

/// The game key of sealed draws: bytes 0xe0..0xff.
fn game_key() -> Hash32 {
    counting_from(0xe0)
}

/// Seat order blue, red, green: blue sent entropy 0x20..0x3f, red sent no order, green sent
/// 32 bytes 0xa5.
fn seats() -> Vec<(String, Option<Hash32>)> {
    vec![
        ("blue".into(), Some(counting_from(0x20))),
        ("red".into(), None),
        ("green".into(), Some(Hash32([0xa5; 32]))),
    ]
}

fn seed() -> Hash32 {
    step_seed(GAME, STEP, &host_reveal(), &seats())
}

fn h(hex: &str) -> Hash32 {
    hex.parse().expect("64 hex digits")
}

/// One part of a transcript preimage: u32 big-endian length, then the bytes.
fn part(bytes: &[u8]) -> Vec<u8> {
    let mut v = u32::try_from(bytes.len()).unwrap().to_be_bytes().to_vec();
    v.extend_from_slice(bytes);
    v
}

// ---- Outputs (docs/dice.md, "Expected outputs") --------------------------------------------

const COMMITMENT: &str = "f1bf1bc3ea5a338db49551be796330cdc86984aa53c6480ee30fd846084a133a";
const HOST_SEED_3: &str = "7832c36c2ce71b9a3d5cb98ff2e961ac8f0cc00a30eede430aecbc5f8465ab7c";
/// The 185 bytes hashed into the step seed, one line per part (docs/dice.md).
const STEP_SEED_PREIMAGE: [&str; 10] = [
    "000000117062656d2d737465702d736565642d7631",
    "0000000c766563746f72732d67616d65",
    "000000080000000000000003",
    "00000020000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "00000004626c7565",
    "00000020202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
    "00000003726564",
    "00000000",
    "00000005677265656e",
    "00000020a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5",
];
const STEP_SEED: &str = "6a08c0459a789145c9f53b65d735128a7a84fdb9a4bcafd8f17c6cc95f150ff0";
/// The seed of a bot playing `red` in step 3 (docs/dice.md, "Bot orders"), and the entropy of
/// its order document.
const BOT_SEED_RED: &str = "e0c2240e8fecd812dae79f4f24e05b5733644f9da4326af78b60b52227585bd8";
const BOT_ENTROPY_RED: &str = "c731037eec08246ba7b87dc23fd5da9d957d9b788ea36ae284f70ee22b246da3";
const COMBAT_KEY: &str = "b2af3220428e476150e9b6c348ac1651765f36bcbd384275851f8f5c56cee523";
const MORALE_KEY: &str = "e000c0e339de9ad51c9b23c37e0fc2df9c4e57e59f06313f16fb22119452352e";
const COMBAT_WORDS: [u32; 12] = [
    0xc12d6060, 0xa89bf0fa, 0xe65aa6ea, 0xf3ca46d8, 0xf825758b, 0x03cd6215, 0xe2e8a5f7, 0xc256e9d8,
    0x39de2068, 0x97169fb5, 0x80f17e8d, 0x0a9e93f6,
];
const COMBAT_D6: [u32; 10] = [5, 1, 1, 3, 2, 4, 4, 1, 5, 4];
const MORALE_D6: [u32; 10] = [1, 3, 6, 5, 6, 1, 1, 2, 2, 4];
const GAME_KEY_COMMITMENT: &str =
    "d30ec2ff4f58898437b64c49a709896520dd23d70bb2cfa546436eda6c92471a";
const DECK_KEY: &str = "5b54c160a242966f0474d95d95934736415a99a3db2828a48a5c33bf4c4ca943";
const DECK_WORDS: [u32; 9] = [
    0x33936a35, 0x8a32c310, 0xa38ecbd2, 0xf9abe7b9, 0x8df92025, 0x7611d548, 0x358994a0, 0x751b56ed,
    0xafac4b8a,
];
const CUP_KEY: &str = "22224066bc2d3becca10e8bc47e9c2d68b5e9df930aefc5c9250fa654ce1149d";
const SHUFFLE_RANGES: [u32; 9] = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const SHUFFLE_DRAWS: [u32; 9] = [7, 6, 2, 6, 3, 0, 0, 2, 0];
const SHUFFLED: [u32; 10] = [1, 5, 9, 4, 0, 3, 8, 2, 6, 7];
const SEALED_YAML: &str = "\
- label: deck/chits
  range:
  - 10
  - 9
  - 8
  - 7
  - 6
  - 5
  - 4
  - 3
  - 2
  values:
  - 7
  - 6
  - 2
  - 6
  - 3
  - 0
  - 0
  - 2
  - 0
  note: chits
- label: cup/german/1
  range:
  - 17
  values:
  - 6
";
const EMPTY_SEALED_COMMIT: &str =
    "864a380a8f240136fe685889336834d323b73f81de39b83e11fec1784eb6d134";
const SEALED_COMMIT: &str = "74472b1db3873238e98afd9ccf0e33a8e77a5c3c5fca3a74c0ab57f7a2484224";
const DICE_ENTROPY_BLUE: &str = "3d77e8e03b36e3889ea8a61fc8d2cf0374acade90897a8c1fef6513c3660b891";

// ---- Encoding -------------------------------------------------------------------------------

#[test]
fn a_transcript_is_sha256_of_the_domain_and_each_part_behind_a_u32_big_endian_length() {
    let preimage = [part(b"example"), part(b"ab"), part(&3u64.to_be_bytes())].concat();
    assert_eq!(
        hex::encode(&preimage),
        "000000076578616d706c65000000026162000000080000000000000003"
    );
    assert_eq!(
        Transcript::new("example").str("ab").u64(3).finish(),
        sha256(&preimage)
    );
}

#[test]
fn an_empty_part_is_just_a_zero_length() {
    let preimage = [part(b"example"), part(b"")].concat();
    assert_eq!(hex::encode(&preimage), "000000076578616d706c6500000000");
    assert_eq!(
        Transcript::new("example").part(&[]).finish(),
        sha256(&preimage)
    );
}

// ---- Order commitments: the public part of an order's entropy -------------------------------

#[test]
fn the_dice_entropy_of_blues_entropy_20_to_3f() {
    let blue = Hash32(std::array::from_fn(|i| 0x20 + i as u8));
    assert_eq!(
        pbem::protocol::journal::dice_entropy(&blue),
        h(DICE_ENTROPY_BLUE)
    );
}

#[test]
fn the_dice_entropy_hashes_the_domain_pbem_order_entropy_v1_and_the_entropy() {
    let blue = Hash32(std::array::from_fn(|i| 0x20 + i as u8));
    let preimage = [part(b"pbem-order-entropy-v1"), part(&blue.0)].concat();
    assert_eq!(
        pbem::protocol::journal::dice_entropy(&blue),
        sha256(&preimage)
    );
}

// ---- Host commitment and host seed ------------------------------------------------------------

#[test]
fn the_host_commitment_of_the_reveal_00_to_1f() {
    assert_eq!(commitment(&host_reveal()), h(COMMITMENT));
}

#[test]
fn the_host_commitment_hashes_the_domain_pbem_commit_v1_and_the_secret() {
    let preimage = [part(b"pbem-commit-v1"), part(&host_reveal().0)].concat();
    assert_eq!(commitment(&host_reveal()), sha256(&preimage));
}

#[test]
fn the_host_seed_of_step_3_from_a_master_seed_of_0x6d_bytes() {
    assert_eq!(host_seed(&master(), STEP), h(HOST_SEED_3));
}

#[test]
fn the_host_seed_hashes_the_domain_pbem_host_seed_v1_the_master_and_the_step_as_u64() {
    let preimage = [
        part(b"pbem-host-seed-v1"),
        part(&master().0),
        part(&STEP.to_be_bytes()),
    ]
    .concat();
    assert_eq!(host_seed(&master(), STEP), sha256(&preimage));
}

// ---- Bot orders -------------------------------------------------------------------------------

#[test]
fn the_bot_seed_of_red_in_step_3_of_the_vector_game() {
    assert_eq!(bot_seed(GAME, STEP, &host_reveal(), "red"), h(BOT_SEED_RED));
}

#[test]
fn the_bot_seed_hashes_the_domain_pbem_bot_seed_v1_game_step_host_reveal_and_side() {
    let preimage = [
        part(b"pbem-bot-seed-v1"),
        part(GAME.as_bytes()),
        part(&STEP.to_be_bytes()),
        part(&host_reveal().0),
        part(b"red"),
    ]
    .concat();
    assert_eq!(
        bot_seed(GAME, STEP, &host_reveal(), "red"),
        sha256(&preimage)
    );
}

#[test]
fn the_bot_entropy_hashes_the_domain_pbem_bot_entropy_v1_and_the_bot_seed() {
    let seed = h(BOT_SEED_RED);
    assert_eq!(bot_entropy(&seed), h(BOT_ENTROPY_RED));
    let preimage = [part(b"pbem-bot-entropy-v1"), part(&seed.0)].concat();
    assert_eq!(bot_entropy(&seed), sha256(&preimage));
}

// ---- Step seed --------------------------------------------------------------------------------

#[test]
fn the_step_seed_of_the_vector_game() {
    assert_eq!(seed(), h(STEP_SEED));
}

#[test]
fn the_step_seed_hashes_game_step_reveal_then_side_and_entropy_per_seat_with_an_empty_part_for_no_order()
 {
    let preimage = [
        part(b"pbem-step-seed-v1"),
        part(GAME.as_bytes()),
        part(&STEP.to_be_bytes()),
        part(&host_reveal().0),
        part(b"blue"),
        part(&counting_from(0x20).0),
        part(b"red"),
        part(b""),
        part(b"green"),
        part(&[0xa5; 32]),
    ]
    .concat();
    assert_eq!(hex::encode(&preimage), STEP_SEED_PREIMAGE.concat());
    assert_eq!(seed(), sha256(&preimage));
}

#[test]
fn the_step_seed_depends_on_the_seat_order() {
    let mut reordered = seats();
    reordered.swap(0, 2);
    assert_ne!(step_seed(GAME, STEP, &host_reveal(), &reordered), seed());
}

// ---- Public streams ---------------------------------------------------------------------------

#[test]
fn the_public_stream_keys_of_two_labels() {
    assert_eq!(public_stream_key(&seed(), COMBAT), h(COMBAT_KEY));
    assert_eq!(public_stream_key(&seed(), MORALE), h(MORALE_KEY));
}

#[test]
fn the_public_stream_key_hashes_the_domain_pbem_dice_v1_public_the_step_seed_and_the_label() {
    let preimage = [
        part(b"pbem-dice-v1/public"),
        part(&seed().0),
        part(COMBAT.as_bytes()),
    ]
    .concat();
    assert_eq!(public_stream_key(&seed(), COMBAT), sha256(&preimage));
}

#[test]
fn the_stream_is_rfc8439_chacha20_with_a_zero_nonce_and_the_block_counter_from_0() {
    // RFC 8439 appendix A.1, test vectors 1 (counter 0) and 2 (counter 1): zero key, zero nonce.
    let rfc = "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
               da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586\
               9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed\
               29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f";
    let mut s = Stream::new(&Hash32([0; 32]));
    (0..32).for_each(|_| {
        s.below(1);
    });
    let bytes: Vec<u8> = s.words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(hex::encode(bytes), rfc);
    assert_eq!(
        s.words[..4],
        [0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653]
    );
}

#[test]
fn the_first_twelve_keystream_words_of_the_combat_label() {
    let mut s = Stream::new(&h(COMBAT_KEY));
    (0..12).for_each(|_| {
        s.below(1);
    });
    assert_eq!(s.words, COMBAT_WORDS);
}

// ---- Sampler ----------------------------------------------------------------------------------

#[test]
fn ten_d6_of_each_label() {
    assert_eq!(replay_public(&seed(), COMBAT, 10, 6).0, COMBAT_D6);
    assert_eq!(replay_public(&seed(), MORALE, 10, 6).0, MORALE_D6);
}

#[test]
fn a_d6_face_is_the_word_mod_6_plus_1_when_no_word_is_rejected() {
    // For n = 6 the zone is 2^32 - 4, so only words 0xfffffffc..=0xffffffff are rejected.
    let faces: Vec<u32> = COMBAT_WORDS[..10].iter().map(|w| w % 6 + 1).collect();
    assert_eq!(faces, COMBAT_D6);
}

#[test]
fn below_3_times_2_pow_30_rejects_every_word_at_or_above_0xc0000000() {
    // zone = 2^32 - (2^32 mod 3*2^30) = 3*2^30 = 0xc0000000. Of the first ten words of the
    // combat stream, six are rejected (0xc12d6060, 0xe65aa6ea, 0xf3ca46d8, 0xf825758b,
    // 0xe2e8a5f7, 0xc256e9d8); the other four are the values.
    let mut s = Stream::new(&h(COMBAT_KEY));
    let values: Vec<u32> = (0..4).map(|_| s.below(3 << 30)).collect();
    assert_eq!(values, [2828792058, 63791637, 970858600, 2534842293]);
    assert_eq!(s.words, COMBAT_WORDS[..10]);
}

#[test]
fn below_3_times_2_pow_29_rejects_the_same_words_and_reduces_the_others_mod_n() {
    // zone = 2^32 - (2^32 mod 3*2^29) = 2^32 - 2^30 = 0xc0000000 again; an accepted word at or
    // above n = 0x60000000 gives word - n.
    let mut s = Stream::new(&h(COMBAT_KEY));
    let values: Vec<u32> = (0..4).map(|_| s.below(3 << 29)).collect();
    assert_eq!(values, [1218179322, 63791637, 970858600, 924229557]);
    assert_eq!(s.words, COMBAT_WORDS[..10]);
}

#[test]
fn a_roll_is_drawn_from_the_stream_of_its_label_whatever_was_rolled_before() {
    let mut d = Dice::new(seed(), game_key());
    assert_eq!(d.roll(MORALE, 10, 6), MORALE_D6);
    assert_eq!(d.roll(COMBAT, 10, 6), COMBAT_D6);
}

// ---- Sealed draws -----------------------------------------------------------------------------

#[test]
fn the_game_key_commitment_of_the_key_e0_to_ff() {
    assert_eq!(commitment(&game_key()), h(GAME_KEY_COMMITMENT));
}

#[test]
fn the_sealed_stream_key_of_deck_chits() {
    assert_eq!(
        sealed_stream_key(&game_key(), &seed(), "deck/chits"),
        h(DECK_KEY)
    );
}

#[test]
fn the_sealed_stream_key_hashes_the_domain_the_game_key_the_step_seed_and_the_label() {
    let preimage = [
        part(b"pbem-dice-v1/sealed"),
        part(&game_key().0),
        part(&seed().0),
        part(b"deck/chits"),
    ]
    .concat();
    assert_eq!(
        sealed_stream_key(&game_key(), &seed(), "deck/chits"),
        sha256(&preimage)
    );
}

#[test]
fn a_sealed_shuffle_of_0_to_9() {
    let mut d = Dice::new(seed(), game_key());
    let mut items: Vec<u32> = (0..10).collect();
    d.sealed_shuffle("deck/chits", &mut items, "chits");
    assert_eq!(items, SHUFFLED);
    let sealed = &d.transcript().sealed[0];
    assert_eq!(sealed.range, SHUFFLE_RANGES);
    assert_eq!(sealed.values, SHUFFLE_DRAWS);
}

#[test]
fn a_shuffle_swaps_each_i_from_the_top_with_j_drawn_below_i_plus_1_from_one_stream() {
    assert_eq!(
        replay_sealed(&game_key(), &seed(), "deck/chits", &SHUFFLE_RANGES),
        SHUFFLE_DRAWS
    );
    let mut items: Vec<u32> = (0..10).collect();
    for (i, j) in (1..10).rev().zip(SHUFFLE_DRAWS) {
        items.swap(i, j as usize);
    }
    assert_eq!(items, SHUFFLED);
}

#[test]
fn a_shuffle_of_ten_draws_nine_words_from_the_deck_chits_stream_when_none_is_rejected() {
    let mut s = Stream::new(&h(DECK_KEY));
    let draws: Vec<u32> = SHUFFLE_RANGES.iter().map(|&n| s.below(n)).collect();
    assert_eq!(s.words, DECK_WORDS);
    let by_hand: Vec<u32> = DECK_WORDS
        .iter()
        .zip(SHUFFLE_RANGES)
        .map(|(w, n)| w % n)
        .collect();
    assert_eq!(draws, by_hand);
}

#[test]
fn the_sealed_stream_key_of_cup_german_1() {
    assert_eq!(
        sealed_stream_key(&game_key(), &seed(), "cup/german/1"),
        h(CUP_KEY)
    );
}

#[test]
fn a_sealed_index_of_cup_german_1_in_0_to_16() {
    let mut d = Dice::new(seed(), game_key());
    assert_eq!(d.sealed_index("cup/german/1", 17, ""), 6);
    let mut s = Stream::new(&h(CUP_KEY));
    assert_eq!(s.below(17), 6);
    assert_eq!(s.words, [0x3bde1e01], "0x3bde1e01 mod 17 = 6");
}

#[test]
fn the_sealed_transcript_of_the_step_is_written_as_the_published_yaml() {
    let mut d = Dice::new(seed(), game_key());
    let mut items: Vec<u32> = (0..10).collect();
    d.sealed_shuffle("deck/chits", &mut items, "chits");
    d.sealed_index("cup/german/1", 17, "");
    let sealed = d.finish().expect("no defect").sealed;
    assert_eq!(pbem::yaml::to_string(&sealed), SEALED_YAML);
}

#[test]
fn the_sealed_commitment_of_the_published_yaml() {
    assert_eq!(
        sealed_commit(&game_key(), STEP, SEALED_YAML),
        h(SEALED_COMMIT)
    );
}

#[test]
fn the_sealed_commitment_hashes_the_domain_the_game_key_the_step_and_the_yaml_bytes() {
    let preimage = [
        part(b"pbem-sealed-v1"),
        part(&game_key().0),
        part(&STEP.to_be_bytes()),
        part(SEALED_YAML.as_bytes()),
    ]
    .concat();
    assert_eq!(
        sealed_commit(&game_key(), STEP, SEALED_YAML),
        sha256(&preimage)
    );
}

#[test]
fn a_step_without_sealed_draws_commits_to_the_yaml_text_of_an_empty_list() {
    let d = Dice::new(seed(), game_key());
    let sealed = d.finish().expect("no defect").sealed;
    assert_eq!(pbem::yaml::to_string(&sealed), "[]\n");
    assert_eq!(
        sealed_commit(&game_key(), STEP, "[]\n"),
        h(EMPTY_SEALED_COMMIT)
    );
}

// ---- The documentation ------------------------------------------------------------------------

#[test]
fn every_vector_asserted_here_is_printed_in_docs_dice_md() {
    let doc = include_str!("../docs/dice.md");
    let mut printed: Vec<String> = [
        COMMITMENT,
        HOST_SEED_3,
        STEP_SEED,
        COMBAT_KEY,
        MORALE_KEY,
        GAME_KEY_COMMITMENT,
        DECK_KEY,
        CUP_KEY,
        SEALED_COMMIT,
        EMPTY_SEALED_COMMIT,
        SEALED_YAML,
        BOT_SEED_RED,
        BOT_ENTROPY_RED,
    ]
    .map(String::from)
    .to_vec();
    printed.extend(STEP_SEED_PREIMAGE.map(|line| format!("\n{line} ")));
    printed.extend(COMBAT_WORDS.iter().enumerate().map(|(k, &w)| {
        let below = |n: u32| {
            let zone = (1u64 << 32) - (1u64 << 32) % u64::from(n);
            if u64::from(w) < zone {
                (w % n).to_string()
            } else {
                "rejected".to_string()
            }
        };
        format!(
            "| {k} | `{w:#010x}` | {w} | {} | {} | {} |",
            w % 6 + 1,
            below(3 << 30),
            below(3 << 29)
        )
    }));
    let mut deck: Vec<u32> = (0..10).collect();
    for ((w, n), j) in DECK_WORDS.iter().zip(SHUFFLE_RANGES).zip(SHUFFLE_DRAWS) {
        let zone = (1u64 << 32) - (1u64 << 32) % u64::from(n);
        deck.swap(n as usize - 1, j as usize);
        printed.push(format!(
            "| {} | {n} | `{w:#010x}` = {w} | {zone} | {j} | `{deck:?}` |",
            n - 1
        ));
    }
    printed.extend(
        [
            &COMBAT_D6[..],
            &MORALE_D6,
            &SHUFFLED,
            &SHUFFLE_RANGES,
            &SHUFFLE_DRAWS,
            &[2828792058, 63791637, 970858600, 2534842293],
            &[1218179322, 63791637, 970858600, 924229557],
        ]
        .map(|list| format!("{list:?}").replace("\n", "")),
    );
    printed.push(format!("`{}`", hex::encode(host_reveal().0)));
    printed.push(format!("`{}`", hex::encode(counting_from(0x20).0)));
    printed.push(format!("`{}`", hex::encode(game_key().0)));
    // Values may wrap across lines in the prose: compare with whitespace runs made one space.
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let doc_flat = flat(doc);
    let missing: Vec<&String> = printed
        .iter()
        .filter(|v| !doc.contains(v.as_str()) && !doc_flat.contains(&flat(v)))
        .collect();
    assert!(missing.is_empty(), "not in docs/dice.md: {missing:#?}");
}
