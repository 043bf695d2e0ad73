//! Order files: skeletons, signing, and `submit` (check everything, file it, sign a receipt).

use super::Error;
use super::dir::{self};
use super::game::Game;
use crate::protocol::envelope::{self, ORDER_NAMESPACE, RECEIPT_NAMESPACE, Signed};
use crate::protocol::hash::Hash32;
use crate::protocol::journal::EarlierOrder;
use crate::protocol::keys::SecretKey;
use crate::systems::{OrderDoc, OrderVersion};
use crate::yaml::{self, FieldPath, Rejection};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Format marker of order documents. `order/2` added the required `version`; `order/1`
/// documents are read only when verifying steps recorded before it (journal/1).
pub const ORDER_FORMAT: &str = "order/2";
pub const ORDER_FORMAT_V1: &str = "order/1";
/// Format marker of receipts (`receipt/2` states the order's version).
pub const RECEIPT_FORMAT: &str = "receipt/2";
/// Written in skeletons in place of entropy and version; `pbem sign` replaces it with fresh
/// random bytes and the signing time.
pub const ENTROPY_PLACEHOLDER: &str = "auto";
/// Longest text of a player's file quoted back in a message before its signature is checked
/// (or in any message at all): quoting more would let anyone make pbem repeat their text.
const QUOTE_MAX: usize = 40;

/// The skeleton `pbem template` prints: [`template`] with fresh random entropy in place of
/// `auto`, drawn on the machine that runs the command.
pub fn fresh_template(game: &Game, side: &str) -> Result<String, Error> {
    let entropy = Hash32::random().map_err(|e| Error::Fail(e.to_string()))?;
    template(game, side, Some(entropy))
}

/// An order skeleton for `side` at the open step.
pub fn template(game: &Game, side: &str, entropy: Option<Hash32>) -> Result<String, Error> {
    let step = game.open_step().ok_or_else(|| {
        Error::Fail("the game is over: there is no step to write orders for".into())
    })?;
    game.config.require_seat(side)?;
    let state = game.state()?;
    let body = game.system.template(game.data()?, &state, side)?;
    let waits = step.waiting_for.iter().any(|s| s == side);
    let entropy = entropy
        .map(|e| e.hex())
        .unwrap_or_else(|| ENTROPY_PLACEHOLDER.to_string());
    let mut out = String::new();
    out.push_str(&format!(
        "# Orders of {side} for step {} of game {}: {}\n",
        step.step, game.config.id, step.title
    ));
    if let Some(bot) = game.config.bot_of(side) {
        out.push_str(&format!(
            "# NOTE: {side} is played by the host's {bot} bot, which writes its orders when the step\n\
             # is processed; orders sent for {side} are refused. This skeleton only shows its choices.\n"
        ));
    } else if !waits {
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
    out.push_str("# 32 random bytes of yours, kept secret until the game ends; `auto` is replaced by\n# pbem sign (or paste `openssl rand -hex 32`)\n");
    out.push_str(&format!("entropy: {entropy}\n"));
    out.push_str("# A whole number; each new version of your orders for this step needs a larger one.\n# `auto` is replaced by pbem sign with the signing time (UTC, YYYYMMDDhhmmss).\n");
    out.push_str(&format!("version: {ENTROPY_PLACEHOLDER}\n"));
    out.push_str(&body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

/// Replaces an `entropy: auto` line with fresh random bytes and a `version: auto` line with the
/// signing time, drops whole-line comments, then signs the document. A document with an
/// `entropy:` line but no `version:` line gets one after the entropy, so hand-written orders need
/// not know about versions. The comments a skeleton carries list the side's hand, hidden units
/// and chit values: they help while writing, but a signed order is kept, receipted, mailed and
/// published at the end of the game, so it should carry what the player ordered and no more.
pub fn sign(document: &[u8], key: &SecretKey) -> Result<Vec<u8>, Error> {
    let filled = drop_comment_lines(&fill_placeholders(document, jiff::Timestamp::now())?);
    envelope::sign(filled.as_bytes(), key, ORDER_NAMESPACE).map_err(|e| Error::Fail(e.to_string()))
}

/// `pbem sign`: the order in `file`, signed as [`sign`] does. An order over the limit would be
/// refused by the host, so it is refused here, without reading more than just past the limit;
/// the signature adds a few hundred bytes, so the signed form is checked too.
pub fn sign_file(file: &Path, key: &SecretKey) -> Result<Vec<u8>, Error> {
    let too_large = |e: envelope::EnvelopeError| Error::Fail(format!("{}: {e}", file.display()));
    let bytes = read_capped(file).map_err(|e| Error::io(file, e))?;
    envelope::check_size(&bytes, "file", false).map_err(too_large)?;
    let signed = sign(&bytes, key)?;
    envelope::check_size(&signed, "signed file", true).map_err(too_large)?;
    Ok(signed)
}

/// Reads a file an order may come from, but never more than [`envelope::MAX_ORDER_BYTES`] + 1
/// bytes: enough to tell that it is too large without reading a 50 MB file whole. Pass the
/// result to [`envelope::check_size`] with `complete: false`.
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(envelope::MAX_ORDER_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Removes lines that hold only a comment. A document with a block scalar (`|` or `>`), where
/// a line starting with `#` may be text, is left whole.
fn drop_comment_lines(text: &str) -> String {
    let block_scalar = text.lines().any(|l| {
        let l = l.split(" #").next().unwrap_or("").trim_end();
        ["|", "|-", "|+", ">", ">-", ">+"]
            .iter()
            .any(|h| l.ends_with(&format!(" {h}")) || l.ends_with(&format!(":{h}")))
    });
    if block_scalar {
        return text.to_string();
    }
    text.split_inclusive('\n')
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect()
}

/// The version `pbem sign` writes: the signing time as a number that grows with time, readable
/// as a date (20261123221500 = 2026-11-23 22:15:00 UTC).
pub fn version_from_time(now: jiff::Timestamp) -> u64 {
    let t = now.to_zoned(jiff::tz::TimeZone::UTC);
    let date = t.year() as u64 * 10_000 + t.month() as u64 * 100 + t.day() as u64;
    let time = t.hour() as u64 * 10_000 + t.minute() as u64 * 100 + t.second() as u64;
    date * 1_000_000 + time
}

fn fill_placeholders(document: &[u8], now: jiff::Timestamp) -> Result<String, Error> {
    let text = String::from_utf8(envelope::normalize_line_endings(document))
        .map_err(|_| Error::Fail("the order file is not UTF-8 text".into()))?;
    let top_level = |line: &str, key: &str| {
        line.strip_prefix(key)
            .is_some_and(|rest| rest.starts_with(':'))
    };
    let has_version = text.lines().any(|l| top_level(l, "version"));
    let version = version_from_time(now);
    let mut filled = String::with_capacity(text.len() + 32);
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == format!("entropy: {ENTROPY_PLACEHOLDER}")
            || bare == "entropy:"
            || bare == "entropy: ''"
        {
            let fresh = Hash32::random().map_err(|e| Error::Fail(e.to_string()))?;
            filled.push_str(&format!("entropy: {fresh}\n"));
        } else if bare == format!("version: {ENTROPY_PLACEHOLDER}") || bare == "version:" {
            filled.push_str(&format!("version: {version}\n"));
        } else {
            filled.push_str(line);
            if !line.ends_with('\n') {
                filled.push('\n');
            }
        }
        if !has_version && top_level(bare, "entropy") {
            filled.push_str(&format!("version: {version}\n"));
        }
    }
    Ok(filled)
}

/// `s` as it may be quoted back to whoever sent it: at most [`QUOTE_MAX`] characters.
pub fn quote(s: &str) -> String {
    if s.chars().count() <= QUOTE_MAX {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(QUOTE_MAX).collect();
        format!("{head:?}… ({} characters)", s.chars().count())
    }
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
    /// The order's version (receipt/2 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    pub entropy: Hash32,
    pub basis: Hash32,
}

/// The outcome of a successful submit.
pub struct Accepted {
    pub side: String,
    pub step: u64,
    pub version: u64,
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

/// `FILE.sig` when it exists: the detached signature `ssh-keygen -Y sign` writes beside an
/// order file, used when no other signature file is named.
pub fn detached_sig_beside(file: &Path) -> Option<PathBuf> {
    let sig = PathBuf::from(format!("{}.sig", file.display()));
    sig.exists().then_some(sig)
}

/// Opens an order: one signed file, or a document plus its detached `.sig`.
/// Files over `envelope::MAX_ORDER_BYTES` are refused after reading just past the limit.
pub fn open(file: &Path, sig: Option<&Path>) -> Result<Envelope, Error> {
    let read = |path: &Path| {
        read_capped(path).map_err(|e| {
            Error::reject(Rejection::new(
                path.display().to_string(),
                format!("cannot read: {e}"),
            ))
        })
    };
    let bytes = read(file)?;
    let name = file.display().to_string();
    // Before the signature is read: a file over the limit is refused as that.
    check_order_size(&name, &bytes, "file")?;
    let sig = match sig {
        Some(path) => {
            let bytes = read(path)?;
            Some((path.display().to_string(), bytes))
        }
        None => None,
    };
    open_bytes(name, bytes, sig)
}

/// Opens an order received as bytes rather than as a file (`pbem ingest`: a mail's attachment
/// or body), checked as [`open`] checks a file; `name` is what rejections call it, and the
/// detached signature comes with its own name.
pub fn open_bytes(
    name: String,
    bytes: Vec<u8>,
    sig: Option<(String, Vec<u8>)>,
) -> Result<Envelope, Error> {
    check_order_size(&name, &bytes, "file")?;
    let (signed, sig_bytes) = match sig {
        Some((sig_name, sb)) => {
            check_order_size(&sig_name, &sb, "signature file")?;
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

/// Refuses an order or signature over `envelope::MAX_ORDER_BYTES`, said as for a file read
/// only just past the limit.
fn check_order_size(name: &str, bytes: &[u8], what: &'static str) -> Result<(), Error> {
    envelope::check_size(bytes, what, false)
        .map_err(|e| Error::reject(Rejection::new(name, e.to_string())))
}

/// The header fields every order carries; the system parses `orders` itself.
pub type Header = OrderDoc<serde::de::IgnoredAny>;

/// An order that passed [`check`]: its header, and the version and entropy parsed.
pub struct Checked {
    pub header: Header,
    pub version: u64,
    pub entropy: Hash32,
}

/// Checks an opened order against the game: signature first (nothing of an unsigned document is
/// quoted back at length), then format, binding and the rules. `bases` are the journal heads the
/// order may name (the open step's, see `game::step_bases`); the newest is the one views print.
pub fn check(
    game: &Game,
    env: &Envelope,
    expect_step: u64,
    bases: &[Hash32],
    state: &str,
) -> Result<Checked, Error> {
    let file = &env.file;
    let header: Header = yaml::parse(&env.text, file).map_err(Error::reject)?;
    let at = |field: &str, msg: String, accepted: String| {
        Error::reject(
            Rejection::new(file, msg)
                .accepted(accepted)
                .at_field(&env.text, &FieldPath::root().at(field)),
        )
    };
    let Some(seat) = game.config.seat(&header.side) else {
        return Err(at(
            "side",
            format!("no side {} in this game", quote(&header.side)),
            game.config.side_names().join(" or "),
        ));
    };
    if let Some(bot) = &seat.bot {
        return Err(at(
            "side",
            format!(
                "side {} is played by the host's {bot} bot (game.yaml): its orders are written \
                 when the step is processed, and nobody's orders are accepted for it",
                header.side
            ),
            game.config
                .seats
                .iter()
                .filter(|s| s.bot.is_none())
                .map(|s| s.side.clone())
                .collect::<Vec<_>>()
                .join(" or "),
        ));
    }
    envelope::verify(&env.signed, &seat.key, ORDER_NAMESPACE).map_err(|e| {
        Error::reject(Rejection::new(
            file,
            format!("signature check failed for side {}: {e}", header.side),
        ))
    })?;
    if header.pbem != ORDER_FORMAT {
        let hint = if header.pbem == ORDER_FORMAT_V1 {
            "; order/1 has no version: make a new skeleton with `pbem template`"
        } else {
            ""
        };
        return Err(at(
            "pbem",
            format!("unknown order format {}{hint}", quote(&header.pbem)),
            ORDER_FORMAT.into(),
        ));
    }
    if header.game != game.config.id {
        return Err(at(
            "game",
            format!(
                "this order is for game {}, not this game",
                quote(&header.game)
            ),
            game.config.id.clone(),
        ));
    }
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
    let Ok(entropy) = header.entropy.parse::<Hash32>() else {
        return Err(at(
            "entropy",
            format!("entropy {} is not 32 random bytes in hex", quote(&header.entropy)),
            "64 hex digits, e.g. the output of `openssl rand -hex 32`, or `auto` before `pbem sign`".into(),
        ));
    };
    let version = parse_version(header.version.as_ref()).map_err(|msg| {
        at(
            "version",
            msg,
            "a whole number from 1 up, larger than any version of your orders for this step sent before; `auto` before `pbem sign`".into(),
        )
    })?;
    game.require_current_rules()?;
    game.system
        .check_order(game.data()?, state, &header.side, &env.text, file)
        .map_err(Error::Rejected)?;
    Ok(Checked {
        header,
        version,
        entropy,
    })
}

fn parse_version(v: Option<&OrderVersion>) -> Result<u64, String> {
    match v {
        None => Err("the order has no `version:` line".into()),
        Some(OrderVersion::Number(n)) if *n >= 1 => Ok(*n),
        Some(OrderVersion::Number(_)) => Err("version 0: versions count from 1".into()),
        Some(OrderVersion::Word(w)) if w == ENTROPY_PLACEHOLDER => Err(
            "`version: auto` must be filled in: sign with `pbem sign`, or write a number".into(),
        ),
        Some(OrderVersion::Word(w)) => Err(format!(
            "version {} is not a whole number from 1 up",
            quote(w)
        )),
    }
}

/// The earlier versions of a side's order for a step, kept beside the inbox until the step is
/// resolved (then journaled as `earlier`).
pub fn earlier_versions(game: &Game, step: u64, side: &str) -> Result<Vec<EarlierOrder>, Error> {
    let path = game.dir.inbox_replaced(step, side);
    if !path.exists() {
        return Ok(Vec::new());
    }
    yaml::parse(&dir::read_text(&path)?, &path.display().to_string())
        .map_err(|r| Error::Fail(r.to_string()))
}

/// `pbem submit`: checks an order and files it in the inbox, replacing an earlier one of the
/// same side for the same step only when its version is larger, and returns a receipt signed by
/// the host. Sending the same order again re-issues its receipt; an older or equal version with
/// other content is refused, so nobody (the host included) can bring back a version the player
/// replaced.
pub fn submit(game: &Game, file: &Path, sig: Option<&Path>) -> Result<Accepted, Error> {
    submit_opened(game, || open(file, sig))
}

/// [`submit`] of an order received as bytes ([`open_bytes`]): the same checks, the same inbox,
/// the same receipt, without writing the order to a file first.
pub fn submit_bytes(
    game: &Game,
    name: String,
    bytes: Vec<u8>,
    sig: Option<(String, Vec<u8>)>,
) -> Result<Accepted, Error> {
    submit_opened(game, || open_bytes(name, bytes, sig))
}

fn submit_opened(
    game: &Game,
    open_order: impl FnOnce() -> Result<Envelope, Error>,
) -> Result<Accepted, Error> {
    let _lock = game.dir.lock()?;
    // Re-read after taking the lock: another process may have processed a step meanwhile.
    let game = &Game::open(&game.dir.root)?;
    let env = open_order()?;
    let Some(step) = game.open_step() else {
        return Err(Error::reject(Rejection::new(
            &env.file,
            "the game is over; no orders are accepted",
        )));
    };
    let state = game.state()?;
    let checked = check(game, &env, step.step, &game.open_step_bases(), &state)?;
    let side = checked.header.side.clone();
    if !step.waiting_for.contains(&side) {
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
    let inbox = game.dir.inbox_order(step.step, &side);
    let mut replaced = None;
    if inbox.exists() {
        let old_sig = game.dir.inbox_sig(step.step, &side);
        let old = open(&inbox, old_sig.exists().then_some(old_sig.as_path()))?;
        let old_hash = old.signed.document_hash();
        let old_version = yaml::parse::<Header>(&old.text, &old.file)
            .ok()
            .and_then(|h| parse_version(h.version.as_ref()).ok())
            .unwrap_or(0);
        if old_hash == hash {
            // The same order twice (a resent mail, or a mail handled again after a crash):
            // nothing changes, and the receipt is re-issued as it was first issued, naming the
            // version this order replaced (the last one listed), if any.
            replaced = earlier_versions(game, step.step, &side)?
                .last()
                .map(|e| e.hash);
        } else if checked.version <= old_version {
            return Err(Error::reject(
                Rejection::new(
                    &env.file,
                    format!(
                        "version {} of the orders of {side} for step {} is not newer than version {old_version}, already received; an order only replaces one with a smaller version",
                        checked.version, step.step
                    ),
                )
                .at_field(&env.text, &FieldPath::root().at("version"))
                .accepted(format!(
                    "version {} or more (`pbem sign` fills `version: auto` with the signing time)",
                    old_version + 1
                )),
            ));
        } else {
            let mut list = earlier_versions(game, step.step, &side)?;
            // A crash between writing the list and the newer order leaves the old order listed
            // already; sent again, it is listed once.
            if !list.iter().any(|e| e.hash == old_hash) {
                list.push(EarlierOrder {
                    version: old_version,
                    hash: old_hash,
                });
            }
            let list_path = game.dir.inbox_replaced(step.step, &side);
            dir::write_atomic(&list_path, yaml::encode(&list)?.as_bytes())?;
            // The journal names every earlier version a player holds a receipt for, so the
            // list must be on disk before the newer order replaces the old one, even when the
            // caller defers its flushes (`dir::batched`, as `ingest` does): after a crash the
            // old order and the list, or the new order, never the new order without the list.
            flushed(&list_path)?;
            replaced = Some(old_hash);
        }
    }
    let sig_path = game.dir.inbox_sig(step.step, &side);
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
        side: side.clone(),
        order: hash,
        version: Some(checked.version),
        entropy: checked.entropy,
        basis: game.head(),
    };
    let host =
        SecretKey::load(&game.dir.host_key(), None).map_err(|e| Error::Fail(e.to_string()))?;
    let signed = envelope::sign(yaml::encode(&receipt)?.as_bytes(), &host, RECEIPT_NAMESPACE)
        .map_err(|e| Error::Fail(e.to_string()))?;
    let receipt_path = game.dir.receipts().join(format!(
        "{:06}-{}-{}.yaml",
        step.step,
        side,
        &hash.hex()[..16]
    ));
    dir::write_atomic(&receipt_path, &signed)?;
    Ok(Accepted {
        side,
        step: step.step,
        version: checked.version,
        hash,
        replaced,
        receipt: signed,
    })
}

/// Makes a file already renamed into place durable now, with its name: the file, then its
/// folder.
fn flushed(path: &Path) -> Result<(), Error> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| Error::io(path, e))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::File::open(folder)
        .and_then(|d| d.sync_all())
        .map_err(|e| Error::io(folder, e))
}

/// Checks a receipt file against the game's host key; returns what it certifies.
pub fn open_receipt(game: &Game, bytes: &[u8], file: &str) -> Result<Receipt, String> {
    let signed = envelope::open_embedded(bytes).map_err(|e| format!("{file}: {e}"))?;
    envelope::verify(&signed, &game.config.host_key, RECEIPT_NAMESPACE)
        .map_err(|e| format!("{file}: receipt signature is not the host's: {e}"))?;
    let text =
        String::from_utf8(signed.document.clone()).map_err(|_| format!("{file}: not UTF-8"))?;
    let receipt = yaml::parse::<Receipt>(&text, file).map_err(|r| r.to_string())?;
    // receipt/1 (before order versions) has no version; receipt/2 has one.
    let shaped = match receipt.pbem.as_str() {
        RECEIPT_FORMAT => receipt.version.is_some(),
        "receipt/1" => receipt.version.is_none(),
        _ => false,
    };
    if !shaped {
        return Err(format!(
            "{file}: pbem: {:?} with{} a version is not a receipt this pbem knows ({RECEIPT_FORMAT}, with a version, or receipt/1, without)",
            receipt.pbem,
            if receipt.version.is_some() { "" } else { "out" }
        ));
    }
    Ok(receipt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> jiff::Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn the_signing_time_is_a_version_that_reads_as_a_utc_date() {
        assert_eq!(
            version_from_time(at("2026-11-23T22:15:07Z")),
            20261123221507
        );
        assert!(
            version_from_time(at("2026-11-23T22:15:08Z"))
                > version_from_time(at("2026-11-23T22:15:07Z"))
        );
    }

    #[test]
    fn sign_fills_version_auto_and_keeps_a_written_version() {
        let now = at("2026-01-02T03:04:05Z");
        let filled = fill_placeholders(b"entropy: auto\nversion: auto\norders: {}\n", now).unwrap();
        assert!(filled.contains("\nversion: 20260102030405\n"), "{filled}");
        assert!(!filled.contains("auto"), "{filled}");
        let kept = fill_placeholders(b"entropy: auto\nversion: 7\n", now).unwrap();
        assert!(kept.ends_with("\nversion: 7\n"), "{kept}");
    }

    #[test]
    fn sign_adds_a_version_after_the_entropy_of_a_document_without_one() {
        let filled = fill_placeholders(
            b"step: 1\nentropy: auto\norders: {}\n",
            at("2026-01-02T03:04:05Z"),
        )
        .unwrap();
        let lines: Vec<&str> = filled.lines().collect();
        assert!(
            lines[1].starts_with("entropy: ") && lines[1].len() == 9 + 64,
            "{filled}"
        );
        assert_eq!(lines[2], "version: 20260102030405");
        assert_eq!(lines[3], "orders: {}");
    }

    #[test]
    fn signing_drops_comment_lines_but_not_text_in_block_scalars() {
        assert_eq!(
            drop_comment_lines("# hand: 20, 108\nstep: 1 # kept\norders:\n  # chits 3=3\n  x: 1\n"),
            "step: 1 # kept\norders:\n  x: 1\n"
        );
        let block = "note: |\n  # not a comment\n";
        assert_eq!(drop_comment_lines(block), block);
    }

    #[test]
    fn versions_are_whole_numbers_from_one() {
        let read = |text: &str| {
            let v: OrderVersion = crate::yaml::parse(text, "v").unwrap();
            parse_version(Some(&v))
        };
        assert_eq!(read("12"), Ok(12));
        for bad in ["0", "-1", "1.5", "auto", "''", "soon"] {
            assert!(read(bad).is_err(), "{bad}");
        }
        assert!(parse_version(None).is_err());
    }

    #[test]
    fn quoted_text_is_cut_to_forty_characters() {
        assert_eq!(quote("short"), "\"short\"");
        let long = quote(&"x".repeat(5_000_000));
        assert!(long.len() < 80, "{long}");
        assert!(long.ends_with("(5000000 characters)"), "{long}");
    }

    #[test]
    fn the_detached_signature_beside_an_order_is_used_only_when_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let order = dir.path().join("orders.yaml");
        assert_eq!(detached_sig_beside(&order), None);
        std::fs::write(dir.path().join("orders.yaml.sig"), "sig").unwrap();
        assert_eq!(
            detached_sig_beside(&order),
            Some(dir.path().join("orders.yaml.sig"))
        );
    }

    #[test]
    fn sign_file_refuses_a_file_over_the_limit_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.yaml");
        std::fs::write(&file, vec![b'#'; envelope::MAX_ORDER_BYTES + 1]).unwrap();
        let key = SecretKey::generate("").unwrap();
        let msg = sign_file(&file, &key).unwrap_err().to_string();
        assert!(msg.starts_with(&format!("{}: ", file.display())), "{msg}");
        assert!(msg.contains("the file is larger than the limit"), "{msg}");
    }
}
