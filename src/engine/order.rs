//! Order files: skeletons, signing, and `submit` (check everything, file it, sign a receipt).

use super::Error;
use super::dir::{self};
use super::game::Game;
use crate::protocol::envelope::{self, ORDER_NAMESPACE, RECEIPT_NAMESPACE, Signed};
use crate::protocol::hash::Hash32;
use crate::protocol::keys::SecretKey;
use crate::systems::OrderDoc;
use crate::yaml::{self, FieldPath, Rejection};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Format marker of order documents.
pub const ORDER_FORMAT: &str = "order/1";
/// Format marker of receipts.
pub const RECEIPT_FORMAT: &str = "receipt/1";
/// Written in skeletons in place of entropy; `pbem sign` replaces it with fresh random bytes.
pub const ENTROPY_PLACEHOLDER: &str = "auto";

/// An order skeleton for `side` at the open step.
pub fn template(game: &Game, side: &str, entropy: Option<Hash32>) -> Result<String, Error> {
    let step = game.open_step().ok_or_else(|| {
        Error::Fail("the game is over: there is no step to write orders for".into())
    })?;
    if game.config.seat(side).is_none() {
        return Err(Error::Fail(format!(
            "no side {side:?}; sides: {}",
            game.config.side_names().join(", ")
        )));
    }
    let state = game.state()?;
    let body = game.system.template(&state, side)?;
    let waits = step.waiting_for.iter().any(|s| s == side);
    let entropy = entropy
        .map(|e| e.hex())
        .unwrap_or_else(|| ENTROPY_PLACEHOLDER.to_string());
    let mut out = String::new();
    out.push_str(&format!(
        "# Orders of {side} for step {} of game {}: {}\n",
        step.step, game.config.id, step.title
    ));
    if !waits {
        out.push_str(&format!(
            "# NOTE: this step waits only for {}; {side} has nothing to send now.\n",
            step.waiting_for.join(", ")
        ));
    }
    out.push_str(
        "# Fill in the orders, then sign: pbem sign THIS_FILE --key YOUR_KEY -o signed.yaml\n",
    );
    out.push_str(
        "# (or: ssh-keygen -Y sign -n pbem -f ~/.ssh/id_ed25519 THIS_FILE, and send both files)\n",
    );
    out.push_str(&format!("pbem: {ORDER_FORMAT}\n"));
    out.push_str(&format!("game: {}\n", game.config.id));
    out.push_str(&format!("step: {}\n", step.step));
    out.push_str(&format!("side: {side}\n"));
    out.push_str(&format!("basis: {}\n", game.head()));
    out.push_str("# 32 random bytes of yours; `auto` is replaced by pbem sign (or paste `openssl rand -hex 32`)\n");
    out.push_str(&format!("entropy: {entropy}\n"));
    out.push_str(&body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// Replaces an `entropy: auto` line with fresh random bytes, then signs the document.
pub fn sign(document: &[u8], key: &SecretKey) -> Result<Vec<u8>, Error> {
    let text = String::from_utf8(envelope::normalize_line_endings(document))
        .map_err(|_| Error::Fail("the order file is not UTF-8 text".into()))?;
    let mut filled = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == format!("entropy: {ENTROPY_PLACEHOLDER}")
            || bare == "entropy:"
            || bare == "entropy: ''"
        {
            let fresh = Hash32::random().map_err(|e| Error::Fail(e.to_string()))?;
            filled.push_str(&format!("entropy: {fresh}\n"));
        } else {
            filled.push_str(line);
        }
    }
    envelope::sign(filled.as_bytes(), key, ORDER_NAMESPACE).map_err(|e| Error::Fail(e.to_string()))
}

/// What a receipt says; the host signs it so a player can prove the order was accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    pub pbem: String,
    pub game: String,
    pub step: u64,
    pub side: String,
    /// SHA-256 of the normalised order document.
    pub order: Hash32,
    pub entropy: Hash32,
    pub basis: Hash32,
}

/// The outcome of a successful submit.
pub struct Accepted {
    pub side: String,
    pub step: u64,
    pub hash: Hash32,
    pub replaced: Option<Hash32>,
    /// The signed receipt file.
    pub receipt: Vec<u8>,
}

/// A signed order opened from its file(s).
pub struct Envelope {
    pub signed: Signed,
    /// The normalised document as text.
    pub text: String,
    pub file: String,
    /// The file's bytes as received, and the detached signature's when there was one.
    pub raw: Vec<u8>,
    pub raw_sig: Option<Vec<u8>>,
}

/// Opens an order: one signed file, or a document plus its detached `.sig`.
/// Files over `envelope::MAX_ORDER_BYTES` are refused after reading just past the limit.
pub fn open(file: &Path, sig: Option<&Path>) -> Result<Envelope, Error> {
    let name = file.display().to_string();
    let read = |path: &Path, what: &'static str| {
        let refuse = |msg: String| Error::reject(Rejection::new(path.display().to_string(), msg));
        let bytes = envelope::read_capped(path).map_err(|e| refuse(format!("cannot read: {e}")))?;
        envelope::check_size(&bytes, what, false).map_err(|e| refuse(e.to_string()))?;
        Ok::<_, Error>(bytes)
    };
    let bytes = read(file, "file")?;
    let (signed, sig_bytes) = match sig {
        Some(sig_path) => {
            let sb = read(sig_path, "signature file")?;
            (envelope::open_detached(&bytes, &sb), Some(sb))
        }
        None => (envelope::open_embedded(&bytes), None),
    };
    let signed = signed.map_err(|e| Error::reject(Rejection::new(&name, e.to_string())))?;
    let text = String::from_utf8(signed.document.clone()).map_err(|_| {
        Error::reject(
            Rejection::new(&name, "the order is not UTF-8 text").accepted("a UTF-8 YAML file"),
        )
    })?;
    Ok(Envelope {
        signed,
        text,
        file: name,
        raw: bytes,
        raw_sig: sig_bytes,
    })
}

/// The header fields every order carries; the system parses `orders` itself.
pub type Header = OrderDoc<serde::de::IgnoredAny>;

/// Checks an opened order against the game: format, signature, binding, then the rules.
/// Returns the parsed header. `bases` are the journal heads the order may name (the open step's,
/// see `game::step_bases`); the newest is the one views print.
pub fn check(
    game: &Game,
    env: &Envelope,
    expect_step: u64,
    bases: &[Hash32],
    state: &str,
) -> Result<Header, Error> {
    let file = &env.file;
    let header: Header = yaml::parse(&env.text, file).map_err(Error::reject)?;
    let at = |field: &str, msg: String, accepted: String| {
        Error::reject(
            Rejection::new(file, msg)
                .accepted(accepted)
                .at_field(&env.text, &FieldPath::root().at(field)),
        )
    };
    if header.pbem != ORDER_FORMAT {
        return Err(at(
            "pbem",
            format!("unknown order format {:?}", header.pbem),
            ORDER_FORMAT.into(),
        ));
    }
    if header.game != game.config.id {
        return Err(at(
            "game",
            format!("this order is for game {:?}, not this game", header.game),
            game.config.id.clone(),
        ));
    }
    let Some(seat) = game.config.seat(&header.side) else {
        return Err(at(
            "side",
            format!("no side {:?} in this game", header.side),
            game.config.side_names().join(" or "),
        ));
    };
    envelope::verify(&env.signed, &seat.key, ORDER_NAMESPACE).map_err(|e| {
        Error::reject(Rejection::new(
            file,
            format!("signature check failed for side {}: {e}", header.side),
        ))
    })?;
    if header.step != expect_step {
        return Err(at(
            "step",
            format!(
                "this order is for step {}, but the open step is {expect_step}",
                header.step
            ),
            expect_step.to_string(),
        ));
    }
    let newest = bases.last().copied().unwrap_or_default();
    if !bases.iter().any(|b| header.basis == b.hex()) {
        return Err(at(
            "basis",
            "stale or wrong basis: this order was written before the open step began, or for another history".into(),
            format!("{newest} (the head printed in your latest view)"),
        ));
    }
    if header.entropy.parse::<Hash32>().is_err() {
        return Err(at(
            "entropy",
            format!("entropy {:?} is not 32 random bytes in hex", header.entropy),
            "64 hex digits, e.g. the output of `openssl rand -hex 32`, or `auto` before `pbem sign`".into(),
        ));
    }
    game.system
        .check_order(state, &header.side, &env.text, file)
        .map_err(Error::Rejected)?;
    Ok(header)
}

/// `pbem submit`: checks an order and files it in the inbox, replacing an earlier one of the
/// same side for the same step, and returns a receipt signed by the host.
pub fn submit(game: &Game, file: &Path, sig: Option<&Path>) -> Result<Accepted, Error> {
    let _lock = game.dir.lock()?;
    // Re-read after taking the lock: another process may have processed a step meanwhile.
    let game = &Game::open(&game.dir.root)?;
    let env = open(file, sig)?;
    let Some(step) = game.open_step() else {
        return Err(Error::reject(Rejection::new(
            &env.file,
            "the game is over; no orders are accepted",
        )));
    };
    let state = game.state()?;
    let header = check(game, &env, step.step, &game.open_step_bases(), &state)?;
    if !step.waiting_for.contains(&header.side) {
        return Err(Error::reject(
            Rejection::new(
                &env.file,
                format!(
                    "step {} ({}) waits only for {}",
                    step.step,
                    step.title,
                    step.waiting_for.join(", ")
                ),
            )
            .accepted("an order from a side the step waits for"),
        ));
    }
    let hash = env.signed.document_hash();
    let entropy: Hash32 = header
        .entropy
        .parse()
        .map_err(|e: crate::protocol::hash::BadHex| Error::Fail(e.to_string()))?;
    let inbox = game.dir.inbox_order(step.step, &header.side);
    let mut replaced = None;
    if inbox.exists() {
        let old_sig = game.dir.inbox_sig(step.step, &header.side);
        let old = open(&inbox, old_sig.exists().then_some(old_sig.as_path()))?;
        let old_hash = old.signed.document_hash();
        if old_hash == hash {
            // The same order twice (a resent mail): nothing changes, the receipt is re-issued.
        } else {
            let list_path = game.dir.inbox_replaced(step.step, &header.side);
            let mut list: Vec<Hash32> = if list_path.exists() {
                yaml::parse(
                    &dir::read_text(&list_path)?,
                    &list_path.display().to_string(),
                )
                .map_err(|r| Error::Fail(r.to_string()))?
            } else {
                Vec::new()
            };
            list.push(old_hash);
            dir::write_atomic(&list_path, yaml::encode(&list)?.as_bytes())?;
            replaced = Some(old_hash);
        }
    }
    let sig_path = game.dir.inbox_sig(step.step, &header.side);
    match &env.raw_sig {
        Some(s) => {
            dir::write_atomic(&inbox, &env.raw)?;
            dir::write_atomic(&sig_path, s)?;
        }
        None => {
            if sig_path.exists() {
                std::fs::remove_file(&sig_path).map_err(|e| Error::io(&sig_path, e))?;
            }
            dir::write_atomic(&inbox, &env.raw)?;
        }
    }
    let receipt = Receipt {
        pbem: RECEIPT_FORMAT.into(),
        game: game.config.id.clone(),
        step: step.step,
        side: header.side.clone(),
        order: hash,
        entropy,
        basis: game.head(),
    };
    let host =
        SecretKey::load(&game.dir.host_key(), None).map_err(|e| Error::Fail(e.to_string()))?;
    let signed = envelope::sign(yaml::encode(&receipt)?.as_bytes(), &host, RECEIPT_NAMESPACE)
        .map_err(|e| Error::Fail(e.to_string()))?;
    let receipt_path = game.dir.receipts().join(format!(
        "{:06}-{}-{}.yaml",
        step.step,
        header.side,
        &hash.hex()[..16]
    ));
    dir::write_atomic(&receipt_path, &signed)?;
    Ok(Accepted {
        side: header.side,
        step: step.step,
        hash,
        replaced,
        receipt: signed,
    })
}

/// Checks a receipt file against the game's host key; returns what it certifies.
pub fn open_receipt(game: &Game, bytes: &[u8], file: &str) -> Result<Receipt, String> {
    let signed = envelope::open_embedded(bytes).map_err(|e| format!("{file}: {e}"))?;
    envelope::verify(&signed, &game.config.host_key, RECEIPT_NAMESPACE)
        .map_err(|e| format!("{file}: receipt signature is not the host's: {e}"))?;
    let text =
        String::from_utf8(signed.document.clone()).map_err(|_| format!("{file}: not UTF-8"))?;
    yaml::parse::<Receipt>(&text, file).map_err(|r| r.to_string())
}
