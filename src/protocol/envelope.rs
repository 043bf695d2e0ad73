//! Signed documents: orders (namespace `pbem`) and host receipts (namespace `pbem-receipt`).
//!
//! Signatures are SSHSIG, the format `ssh-keygen -Y sign` writes, so a player can sign with
//! OpenSSH alone. Two forms are accepted:
//!
//! - **embedded** (what `pbem sign` writes): the document, then the signature armour with every
//!   line prefixed by `# `, so the file is still valid YAML. The signature covers the document
//!   bytes with line endings normalised to LF;
//! - **detached**: the document plus the `FILE.sig` written by
//!   `ssh-keygen -Y sign -n pbem -f KEY FILE`, which covers the exact bytes the player had. As mail
//!   may change line endings, the LF form, the CRLF form and the bytes as received are all tried.
//!
//! In both forms [`Signed::document`] holds the normalised bytes: that is what the engine parses
//! and hashes.

use crate::protocol::hash::{Hash32, sha256};
use crate::protocol::keys::{PublicKey, SecretKey};
use ssh_key::{Algorithm, HashAlg, LineEnding, SshSig};

/// The largest signed file (order or receipt, its signature included) and the largest detached
/// `.sig` file pbem opens: 1 MiB. A real order is a few KB, so no honest one comes near it;
/// larger inputs are refused before anything is parsed, which bounds the work (and the copy
/// archived) of any order. docs/architecture.md states it under "Orders".
pub const MAX_ORDER_BYTES: usize = 1 << 20;

pub const ORDER_NAMESPACE: &str = "pbem";
pub const RECEIPT_NAMESPACE: &str = "pbem-receipt";

const BEGIN: &str = "-----BEGIN SSH SIGNATURE-----";
const END: &str = "-----END SSH SIGNATURE-----";
/// The line that starts the armour of an embedded signature.
pub const EMBEDDED_BEGIN: &str = "# -----BEGIN SSH SIGNATURE-----";
/// Line width of the base64 body in the PEM that ssh-keygen writes.
const PEM_WIDTH: usize = 70;
const SSHSIG_MAGIC: &[u8] = b"SSHSIG";

/// Why a document could not be signed, opened or verified.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EnvelopeError {
    #[error(
        "the file is not signed: it has no line \"{EMBEDDED_BEGIN}\". Sign it with \
         `pbem sign FILE --key KEY`, or with `ssh-keygen -Y sign -n pbem -f KEY FILE` and send the \
         FILE.sig it writes along with FILE"
    )]
    Unsigned,
    #[error(
        "the signature file holds no SSH signature: it has no line \"{BEGIN}\". Expected the \
         FILE.sig written by `ssh-keygen -Y sign -n pbem -f KEY FILE`"
    )]
    NotSignatureFile,
    #[error("malformed signature armour: {0}")]
    MalformedArmour(String),
    #[error(
        "there is text after the signature (line {line}), which the signature does not cover; \
         remove it, or sign the whole document again"
    )]
    TextAfterSignature { line: usize },
    #[error(
        "the document already carries an embedded signature (a line \"{EMBEDDED_BEGIN}\"); \
         remove the old signature block before signing again"
    )]
    AlreadySigned,
    #[error(
        "the signature is for namespace \"{found}\", but \"{expected}\" is needed: sign with \
         `-n {expected}`, e.g. `ssh-keygen -Y sign -n {expected} -f KEY FILE`"
    )]
    WrongNamespace { found: String, expected: String },
    #[error(
        "signed by another key: the signature is by {found}, but the expected key is {expected}"
    )]
    WrongKey { found: String, expected: String },
    #[error(
        "the signature is made with a {algorithm} key, but pbem accepts only ed25519 keys \
         (ssh-ed25519); make one with `ssh-keygen -t ed25519` or `pbem keygen`"
    )]
    UnsupportedKey { algorithm: String },
    #[error(
        "the document was changed after signing: the signature by {signer} does not match its \
         bytes (only line endings may change, and the signature block must be intact); sign it \
         again"
    )]
    Changed { signer: String },
    #[error("cannot sign: {0}")]
    Signing(String),
    #[error(
        "the {what}{} is larger than the limit of {MAX_ORDER_BYTES} bytes (1 MiB) for an \
         order; a real order is a few KB: send only the order `pbem template` gives, filled in",
        size_text(.size)
    )]
    TooLarge {
        /// "file" or "signature file".
        what: &'static str,
        /// The size, or `None` when the file was read only up to just past the limit.
        size: Option<usize>,
    },
}

fn size_text(size: &Option<usize>) -> String {
    size.map(|n| format!(" ({n} bytes)")).unwrap_or_default()
}

/// Refuses `bytes` when it is over [`MAX_ORDER_BYTES`]. `complete` says whether `bytes` is the
/// whole input or only its first `MAX_ORDER_BYTES + 1` bytes (the reader stopped there).
pub fn check_size(bytes: &[u8], what: &'static str, complete: bool) -> Result<(), EnvelopeError> {
    if bytes.len() <= MAX_ORDER_BYTES {
        return Ok(());
    }
    Err(EnvelopeError::TooLarge {
        what,
        size: complete.then_some(bytes.len()),
    })
}

/// A document and the SSHSIG signature that claims to cover it; not yet verified.
#[derive(Clone, Debug)]
pub struct Signed {
    /// The document with line endings normalised to LF.
    pub document: Vec<u8>,
    pub signature: SshSig,
    form: Form,
}

#[derive(Clone, Debug)]
enum Form {
    /// Signature over `document` exactly.
    Embedded,
    /// Signature over the player's bytes: `document`, its CRLF form, or `raw` (the bytes as
    /// received, kept only when they differ from both).
    Detached { raw: Option<Vec<u8>> },
}

impl Signed {
    /// SHA-256 of the normalised document.
    pub fn document_hash(&self) -> Hash32 {
        sha256(&self.document)
    }

    /// Whether the signature came in a separate `.sig` file.
    pub fn is_detached(&self) -> bool {
        matches!(self.form, Form::Detached { .. })
    }

    /// The namespace the signature was made for.
    pub fn namespace(&self) -> &str {
        self.signature.namespace()
    }
}

/// CRLF -> LF and lone CR -> LF.
pub fn normalize_line_endings(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut iter = bytes.iter().copied().peekable();
    while let Some(b) = iter.next() {
        if b == b'\r' {
            out.push(b'\n');
            if iter.peek() == Some(&b'\n') {
                iter.next();
            }
        } else {
            out.push(b);
        }
    }
    out
}

/// LF -> CRLF, for bytes already normalised.
fn to_crlf(normalised: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(normalised.len() + normalised.len() / 16);
    for &b in normalised {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// The single-file signed form: the normalised document (ending with a newline), then the SSHSIG
/// armour with every line prefixed by `# `. Signs with SHA-512, as ssh-keygen does.
pub fn sign(document: &[u8], key: &SecretKey, namespace: &str) -> Result<Vec<u8>, EnvelopeError> {
    let mut doc = normalize_line_endings(document);
    if doc.last() != Some(&b'\n') {
        doc.push(b'\n');
    }
    if find_embedded_begin(&doc).is_some() {
        return Err(EnvelopeError::AlreadySigned);
    }
    let pem = sign_to_pem(&doc, key, namespace)?;
    let mut out = doc;
    for line in pem.lines() {
        out.extend_from_slice(b"# ");
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    Ok(out)
}

/// A detached signature over the exact bytes of `document`: the armoured text that
/// `ssh-keygen -Y sign` would write to `FILE.sig`.
pub fn sign_detached(
    document: &[u8],
    key: &SecretKey,
    namespace: &str,
) -> Result<String, EnvelopeError> {
    sign_to_pem(document, key, namespace)
}

fn sign_to_pem(msg: &[u8], key: &SecretKey, namespace: &str) -> Result<String, EnvelopeError> {
    let sig = key
        .ssh_key()
        .sign(namespace, HashAlg::Sha512, msg)
        .map_err(|e| EnvelopeError::Signing(e.to_string()))?;
    sig.to_pem(LineEnding::LF)
        .map_err(|e| EnvelopeError::Signing(e.to_string()))
}

/// The document part of a file that may carry an embedded signature: the normalised bytes
/// before the signature armour, or the whole normalised file when it has none. For signing a
/// file again after editing it.
pub fn strip_embedded_signature(file: &[u8]) -> Vec<u8> {
    let mut norm = normalize_line_endings(file);
    if let Some(start) = find_embedded_begin(&norm) {
        norm.truncate(start);
    }
    norm
}

/// Splits a single signed file at the line `# -----BEGIN SSH SIGNATURE-----` (after line-ending
/// normalisation, so a CRLF-mangled file still opens).
pub fn open_embedded(file: &[u8]) -> Result<Signed, EnvelopeError> {
    check_size(file, "file", true)?;
    let norm = normalize_line_endings(file);
    let start = find_embedded_begin(&norm).ok_or(EnvelopeError::Unsigned)?;
    let first_line = 1 + norm[..start].iter().filter(|&&b| b == b'\n').count();
    let mut lines = Vec::new();
    for (i, line) in norm[start..].split(|&b| b == b'\n').enumerate() {
        let number = first_line + i;
        let text = std::str::from_utf8(line)
            .map_err(|_| EnvelopeError::MalformedArmour(format!("line {number} is not text")))?;
        lines.push(match text.trim_start().strip_prefix('#') {
            Some(rest) => ArmourLine {
                number,
                text: rest.trim(),
                bare: false,
            },
            None => ArmourLine {
                number,
                text: text.trim(),
                bare: !text.trim().is_empty(),
            },
        });
    }
    let signature = parse_armour(&lines, true)?;
    Ok(Signed {
        document: norm[..start].to_vec(),
        signature,
        form: Form::Embedded,
    })
}

/// A document plus a detached `ssh-keygen -Y sign` `.sig` file (armoured, possibly CRLF).
pub fn open_detached(document: &[u8], sig: &[u8]) -> Result<Signed, EnvelopeError> {
    check_size(document, "file", true)?;
    check_size(sig, "signature file", true)?;
    let norm_sig = normalize_line_endings(sig);
    let text = String::from_utf8_lossy(&norm_sig);
    let lines: Vec<ArmourLine> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| ArmourLine {
            number: i + 1,
            text: l.trim(),
            bare: false,
        })
        .collect();
    if !lines.iter().any(|l| l.text == BEGIN) {
        return Err(EnvelopeError::NotSignatureFile);
    }
    let signature = parse_armour(&lines, false)?;
    let normalised = normalize_line_endings(document);
    let raw = (document != normalised.as_slice() && document != to_crlf(&normalised).as_slice())
        .then(|| document.to_vec());
    Ok(Signed {
        document: normalised,
        signature,
        form: Form::Detached { raw },
    })
}

/// Byte offset of the embedded armour's first line, if any.
fn find_embedded_begin(norm: &[u8]) -> Option<usize> {
    let mut offset = 0;
    for line in norm.split(|&b| b == b'\n') {
        if is_embedded_begin(line) {
            return Some(offset);
        }
        offset += line.len() + 1;
    }
    None
}

/// `# -----BEGIN SSH SIGNATURE-----`, tolerating spacing around the `#` and trailing blanks.
fn is_embedded_begin(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    text.trim()
        .strip_prefix('#')
        .is_some_and(|rest| rest.trim() == BEGIN)
}

/// One line of signature armour, trimmed, with any `#` prefix removed.
struct ArmourLine<'a> {
    number: usize,
    text: &'a str,
    /// An embedded armour line that lacks its `#` prefix.
    bare: bool,
}

/// Decodes armour lines. The first line equal to BEGIN starts it, the next END ends it; lines
/// before BEGIN are ignored. With `embedded`, every armour line must carry its `#` prefix and
/// nothing but blank lines may follow END (an embedded signature ends its file).
fn parse_armour(lines: &[ArmourLine], embedded: bool) -> Result<SshSig, EnvelopeError> {
    let malformed = |s: String| EnvelopeError::MalformedArmour(s);
    let begin = lines
        .iter()
        .position(|l| l.text == BEGIN)
        .ok_or_else(|| malformed(format!("no \"{BEGIN}\" line")))?;
    let mut body = String::new();
    let mut end = None;
    for (idx, line) in lines.iter().enumerate().skip(begin + 1) {
        let (number, text) = (line.number, line.text);
        if text == END && !line.bare {
            end = Some(idx);
            break;
        }
        if line.bare {
            return Err(malformed(format!(
                "line {number} lies inside the signature block but does not start with \"# \""
            )));
        }
        if text.starts_with("-----") {
            return Err(malformed(format!(
                "line {number}: expected base64 or \"{END}\", found \"{text}\""
            )));
        }
        if let Some(c) = text
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')))
        {
            return Err(malformed(format!(
                "line {number}: character {c:?} is not base64"
            )));
        }
        body.push_str(text);
    }
    let end =
        end.ok_or_else(|| malformed(format!("no \"{END}\" line (the signature is cut off)")))?;
    if embedded && let Some(line) = lines[end + 1..].iter().find(|l| !l.text.is_empty()) {
        return Err(EnvelopeError::TextAfterSignature { line: line.number });
    }
    if body.is_empty() {
        return Err(malformed("the armour is empty".to_string()));
    }

    // Re-wrap canonically, so re-flowed or trailing-blank lines do not matter.
    let mut pem = String::with_capacity(body.len() + body.len() / PEM_WIDTH + 64);
    pem.push_str(BEGIN);
    pem.push('\n');
    for chunk in body.as_bytes().chunks(PEM_WIDTH) {
        // `body` is ASCII (checked above), so every chunk is valid UTF-8.
        pem.push_str(&String::from_utf8_lossy(chunk));
        pem.push('\n');
    }
    pem.push_str(END);
    pem.push('\n');
    SshSig::from_pem(pem.as_bytes())
        .map_err(|e| malformed(format!("not a valid SSH signature: {e}")))
}

/// The key inside the signature.
pub fn signer(signed: &Signed) -> Result<PublicKey, EnvelopeError> {
    let key_data = signed.signature.public_key();
    PublicKey::from_ssh_key_data(key_data, "signature").map_err(|_| EnvelopeError::UnsupportedKey {
        algorithm: key_data.algorithm().as_str().to_string(),
    })
}

/// Checks the namespace, that the signature's key is `key`, and the signature itself over the
/// document (for a detached signature: the LF form, then the CRLF form, then the bytes as
/// received; for an embedded one: the normalised bytes only).
pub fn verify(signed: &Signed, key: &PublicKey, namespace: &str) -> Result<(), EnvelopeError> {
    let sig = &signed.signature;
    let found_key = signer(signed)?;
    if sig.namespace() != namespace {
        return Err(EnvelopeError::WrongNamespace {
            found: sig.namespace().to_string(),
            expected: namespace.to_string(),
        });
    }
    if &found_key != key {
        return Err(EnvelopeError::WrongKey {
            found: found_key.fingerprint(),
            expected: key.fingerprint(),
        });
    }
    let changed = || EnvelopeError::Changed {
        signer: key.fingerprint(),
    };
    let ok = match &signed.form {
        Form::Embedded => signature_matches(sig, key, &signed.document),
        Form::Detached { raw } => {
            signature_matches(sig, key, &signed.document)
                || signature_matches(sig, key, &to_crlf(&signed.document))
                || raw
                    .as_deref()
                    .is_some_and(|raw| signature_matches(sig, key, raw))
        }
    };
    if ok { Ok(()) } else { Err(changed()) }
}

/// The SSHSIG check proper, with ed25519 strict verification (rejects non-canonical signatures
/// and small-order keys, which ssh-key's own check accepts).
fn signature_matches(sig: &SshSig, key: &PublicKey, msg: &[u8]) -> bool {
    if sig.algorithm() != Algorithm::Ed25519 {
        return false;
    }
    let Ok(sig_bytes) = <[u8; 64]>::try_from(sig.signature_bytes()) else {
        return false;
    };
    let Ok(vk) = ed25519_dalek::VerifyingKey::from_bytes(&key.ed25519_bytes()) else {
        return false;
    };
    let Some(data) = signed_data(sig, msg) else {
        return false;
    };
    vk.verify_strict(&data, &ed25519_dalek::Signature::from_bytes(&sig_bytes))
        .is_ok()
}

/// The blob an SSHSIG signature signs (PROTOCOL.sshsig): magic, namespace, reserved, hash
/// algorithm and H(message), the last four as SSH strings.
fn signed_data(sig: &SshSig, msg: &[u8]) -> Option<Vec<u8>> {
    let hash_alg = sig.hash_alg();
    let digest = hash_alg.digest(msg);
    let mut out = SSHSIG_MAGIC.to_vec();
    for part in [
        sig.namespace().as_bytes(),
        sig.reserved(),
        hash_alg.as_str().as_bytes(),
        &digest,
    ] {
        let len = u32::try_from(part.len()).ok()?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(part);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_endings_are_normalised() {
        assert_eq!(normalize_line_endings(b"a\r\nb\rc\n\r\n"), b"a\nb\nc\n\n");
        assert_eq!(normalize_line_endings(b"\r\r\n"), b"\n\n");
        assert_eq!(normalize_line_endings(b""), b"");
    }

    #[test]
    fn crlf_form_doubles_back() {
        assert_eq!(to_crlf(b"a\nb\n"), b"a\r\nb\r\n");
        assert_eq!(normalize_line_endings(&to_crlf(b"x\ny")), b"x\ny");
    }

    #[test]
    fn embedded_begin_tolerates_spacing() {
        assert!(is_embedded_begin(b"# -----BEGIN SSH SIGNATURE-----"));
        assert!(is_embedded_begin(b"#-----BEGIN SSH SIGNATURE-----  "));
        assert!(!is_embedded_begin(b"-----BEGIN SSH SIGNATURE-----"));
        assert!(!is_embedded_begin(b"# -----BEGIN SSH SIGNATURE----- x"));
    }

    #[test]
    fn signed_data_matches_ssh_key_library() {
        let key = SecretKey::generate("").unwrap();
        let sig = key.ssh_key().sign("pbem", HashAlg::Sha512, b"doc").unwrap();
        assert_eq!(
            signed_data(&sig, b"doc").unwrap(),
            SshSig::signed_data("pbem", HashAlg::Sha512, b"doc").unwrap()
        );
        let public = key.public();
        assert!(signature_matches(&sig, &public, b"doc"));
        assert!(!signature_matches(&sig, &public, b"dog"));
    }

    #[test]
    fn sign_appends_final_newline_and_commented_armour() {
        let key = SecretKey::generate("").unwrap();
        let out = sign(b"a: 1", &key, ORDER_NAMESPACE).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(
            text.starts_with("a: 1\n# -----BEGIN SSH SIGNATURE-----\n"),
            "{text}"
        );
        assert!(text.ends_with("# -----END SSH SIGNATURE-----\n"), "{text}");
        assert!(text.lines().skip(1).all(|l| l.starts_with("# ")), "{text}");
        let signed = open_embedded(&out).unwrap();
        assert_eq!(signed.document, b"a: 1\n");
        verify(&signed, &key.public(), ORDER_NAMESPACE).unwrap();
    }

    #[test]
    fn signing_a_signed_document_is_refused() {
        let key = SecretKey::generate("").unwrap();
        let out = sign(b"a: 1\n", &key, ORDER_NAMESPACE).unwrap();
        assert_eq!(
            sign(&out, &key, ORDER_NAMESPACE).unwrap_err(),
            EnvelopeError::AlreadySigned
        );
        assert_eq!(strip_embedded_signature(&out), b"a: 1\n");
    }

    #[test]
    fn text_after_the_armour_is_refused() {
        let key = SecretKey::generate("").unwrap();
        let mut out = sign(b"a: 1\n", &key, ORDER_NAMESPACE).unwrap();
        out.extend_from_slice(b"\nb: 2\n");
        assert!(matches!(
            open_embedded(&out),
            Err(EnvelopeError::TextAfterSignature { .. })
        ));
    }

    #[test]
    fn rewrapped_armour_still_opens() {
        let key = SecretKey::generate("").unwrap();
        let pem = sign_detached(b"doc\n", &key, ORDER_NAMESPACE).unwrap();
        let mut lines: Vec<&str> = pem.lines().collect();
        let body: String = lines[1..lines.len() - 1].concat();
        let rewrapped: Vec<String> = body
            .as_bytes()
            .chunks(50)
            .map(|c| format!("{}  ", String::from_utf8_lossy(c)))
            .collect();
        let last = lines.pop().unwrap();
        let mut text = format!("{}\n", lines[0]);
        for l in &rewrapped {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str(last);
        let signed = open_detached(b"doc\n", text.as_bytes()).unwrap();
        verify(&signed, &key.public(), ORDER_NAMESPACE).unwrap();
    }

    #[test]
    fn garbage_never_panics() {
        let inputs: [&[u8]; 7] = [
            b"",
            b"# -----BEGIN SSH SIGNATURE-----\n",
            b"# -----BEGIN SSH SIGNATURE-----\n# -----END SSH SIGNATURE-----\n",
            b"# -----BEGIN SSH SIGNATURE-----\n# AAAA\n# -----END SSH SIGNATURE-----\n",
            b"# -----BEGIN SSH SIGNATURE-----\n# \xff\xfe\n# -----END SSH SIGNATURE-----\n",
            b"# -----BEGIN SSH SIGNATURE-----\n# U1NIU0lH!\n# -----END SSH SIGNATURE-----\n",
            b"\r\r\r# -----BEGIN SSH SIGNATURE-----\r# U1NIU0lH\r",
        ];
        for input in inputs {
            assert!(open_embedded(input).is_err());
            assert!(open_detached(b"x", input).is_err());
        }
    }
}
