//! Who stands behind an incoming message: the seat whose key made a valid order signature, or
//! nobody. This is decided before anything of the message is used in an answer, because an
//! answer quotes what it refuses and the From and Reply-To of a mail are whatever its sender
//! wrote. Only a seat's own signature earns a detailed answer, and that answer goes to the
//! seat's registered address (docs/mail.md, "Who gets what answer").
//!
//! The seat is found by the key inside the signature, not by the `side:` the document names:
//! a player whose YAML has a typo still has a valid signature and deserves the exact error at
//! their own address. The `side:` only picks among seats that share one key (a hot-seat game).

use super::extract::Candidate;
use super::parse::Mail;
use crate::engine::config::GameConfig;
use crate::engine::order::Header;
use crate::protocol::envelope::{self, EnvelopeError, ORDER_NAMESPACE};

/// Why a message earns no detailed answer. Each reason has a fixed text
/// ([`Unverified::text`]) that holds nothing of the message, so it can be told to anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unverified {
    /// The message is above the size limit and was not read.
    TooLarge { limit: u64 },
    /// The MIME structure or a transfer encoding is damaged and no order was found.
    Damaged,
    /// A detached signature came without the file it signs.
    LoneSignature,
    /// Nothing that looks like an order.
    NoOrder,
    /// An order file above the order size limit (`envelope::MAX_ORDER_BYTES`); not read.
    OrderTooLarge,
    /// An order without any signature.
    Unsigned,
    /// The signature armour is damaged, or is not an SSH signature.
    BadSignature,
    /// Signed, but not validly by the key of a seat of this game.
    NotASeat,
    /// Several orders that are not all signed by one seat.
    SeveralSeats,
}

impl Unverified {
    /// The reason in words that depend on nothing the sender wrote.
    pub fn text(self) -> String {
        match self {
            Unverified::TooLarge { limit } => format!(
                "The message is above this host's limit of {limit} bytes, so it was\n\
                 not read: attach only the signed order file (and its .sig)."
            ),
            Unverified::Damaged => "The MIME structure is broken or a transfer encoding is\n\
                                    damaged, so no order could be read from the message."
                .into(),
            Unverified::LoneSignature => "It holds an SSH signature (.sig) without the order\n\
                                          file it signs: attach both."
                .into(),
            Unverified::NoOrder => "No signed pbem order was found in it.".into(),
            Unverified::OrderTooLarge => format!(
                "Its order file is above the limit of {} bytes (1 MiB) for an\n\
                 order, so it was not read; a real order is a few KB.",
                envelope::MAX_ORDER_BYTES
            ),
            Unverified::Unsigned => "The order in it is not signed: the file is not signed\n\
                                     and no .sig came with it."
                .into(),
            Unverified::BadSignature => "The signature block of its order is damaged or is\n\
                                         not an SSH signature."
                .into(),
            Unverified::NotASeat => "Its order is not validly signed by the key of a seat of\n\
                                     this game (another key, another namespace than pbem,\n\
                                     or a document changed after signing)."
                .into(),
            Unverified::SeveralSeats => "It holds several orders that are not all signed by\n\
                                         one seat: send one order per message."
                .into(),
        }
    }
}

/// The side whose seat key validly signed `c` (namespace `pbem`).
pub fn seat_of(config: &GameConfig, c: &Candidate) -> Result<String, Unverified> {
    let signed = match &c.sig {
        Some(sig) => envelope::open_detached(&c.doc, sig),
        None => envelope::open_embedded(&c.doc),
    }
    .map_err(|e| match e {
        EnvelopeError::Unsigned => Unverified::Unsigned,
        EnvelopeError::TooLarge { .. } => Unverified::OrderTooLarge,
        _ => Unverified::BadSignature,
    })?;
    let signer = envelope::signer(&signed).map_err(|_| Unverified::NotASeat)?;
    let seats: Vec<_> = config.seats.iter().filter(|s| s.key == signer).collect();
    let seat = match seats.as_slice() {
        [] => return Err(Unverified::NotASeat),
        [one] => *one,
        // Seats that share a key: the one the document names, when its header can be read.
        several => {
            let named = std::str::from_utf8(&signed.document)
                .ok()
                .and_then(|text| crate::yaml::parse::<Header>(text, "order").ok())
                .map(|h| h.side);
            several
                .iter()
                .find(|s| Some(&s.side) == named.as_ref())
                .copied()
                .unwrap_or(several[0])
        }
    };
    envelope::verify(&signed, &seat.key, ORDER_NAMESPACE).map_err(|_| Unverified::NotASeat)?;
    Ok(seat.side.clone())
}

/// The one seat behind every order of a message, or why there is none. `lone_signature`: a
/// `.sig` came without its file; `truncated`: the size limit the message is above.
pub fn seat_of_message(
    config: &GameConfig,
    mail: &Mail,
    orders: &[Candidate],
    lone_signature: bool,
    truncated: Option<u64>,
) -> Result<String, Unverified> {
    if let Some(limit) = truncated {
        return Err(Unverified::TooLarge { limit });
    }
    let Some(first) = orders.first() else {
        return Err(if !mail.problems.is_empty() {
            Unverified::Damaged
        } else if lone_signature {
            Unverified::LoneSignature
        } else {
            Unverified::NoOrder
        });
    };
    let side = seat_of(config, first)?;
    for c in &orders[1..] {
        if seat_of(config, c)? != side {
            return Err(Unverified::SeveralSeats);
        }
    }
    Ok(side)
}

/// The seat whose registered address is the message's Reply-To, else its From: the only place
/// a fixed answer may go. Both headers can be forged, so this is no proof of anything; it only
/// keeps the host from mailing anyone but the game's own players.
pub fn seat_at_sender(config: &GameConfig, mail: &Mail) -> Option<String> {
    [mail.reply_to.as_ref(), mail.from.as_ref()]
        .into_iter()
        .flatten()
        .find_map(|a| {
            config.seats.iter().find_map(|s| {
                let registered = super::address::mailbox(&s.email, "seat").ok()?;
                super::address::same(&registered.email, a).then(|| s.side.clone())
            })
        })
}
