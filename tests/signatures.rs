//! Signed documents and OpenSSH keys, checked against the real `ssh-keygen`.
//!
//! Players may sign with `pbem` or with plain OpenSSH (`ssh-keygen -Y sign -n pbem`), and may use
//! keys made by either. These tests hold pbem to OpenSSH's behaviour both ways.

use pbem::protocol::envelope::{
    self, EnvelopeError, ORDER_NAMESPACE, RECEIPT_NAMESPACE, Signed, open_detached, open_embedded,
    sign, signer, verify,
};
use pbem::protocol::hash::sha256;
use pbem::protocol::keys::{KeyError, PublicKey, SecretKey};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use tempfile::TempDir;

const ORDER: &[u8] = b"game: g1\nstep: 3\nside: red\norders:\n  - move: {unit: U17, to: C08}\n";

/// Runs ssh-keygen in `dir` with `stdin`, returning its output whatever the exit status.
fn ssh_keygen_output(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new("ssh-keygen")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssh-keygen must be installed to run these tests");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .expect("write to ssh-keygen");
    child.wait_with_output().expect("wait for ssh-keygen")
}

/// Runs ssh-keygen in `dir` and insists that it succeeds; returns its stdout.
fn ssh_keygen(dir: &Path, args: &[&str]) -> String {
    let out = ssh_keygen_output(dir, args, b"");
    assert!(
        out.status.success(),
        "ssh-keygen {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh ed25519 key made by `ssh-keygen` (passphrase `pw`, or none when empty) at `dir/name`.
fn ssh_keygen_key(dir: &Path, name: &str, pw: &str) -> PathBuf {
    ssh_keygen(
        dir,
        &[
            "-q",
            "-t",
            "ed25519",
            "-N",
            pw,
            "-C",
            "player@example.org",
            "-f",
            name,
        ],
    );
    dir.join(name)
}

/// `ssh-keygen -Y sign -n NAMESPACE -f KEY FILE`; returns the contents of FILE.sig.
fn ssh_keygen_sign(dir: &Path, key: &Path, namespace: &str, doc: &[u8]) -> Vec<u8> {
    let file = dir.join("doc-to-sign");
    let sig = dir.join("doc-to-sign.sig");
    let _ = fs::remove_file(&sig);
    fs::write(&file, doc).unwrap();
    let key = key.to_str().unwrap();
    ssh_keygen(
        dir,
        &["-Y", "sign", "-n", namespace, "-f", key, "doc-to-sign"],
    );
    fs::read(sig).unwrap()
}

/// `ssh-keygen -Y verify` of `doc` against the armoured `sig` and the signer `key`.
fn ssh_keygen_verifies(
    dir: &Path,
    key: &PublicKey,
    namespace: &str,
    doc: &[u8],
    sig: &[u8],
) -> bool {
    fs::write(
        dir.join("allowed_signers"),
        format!("x {}\n", key.openssh()),
    )
    .unwrap();
    fs::write(dir.join("f.sig"), sig).unwrap();
    let out = ssh_keygen_output(
        dir,
        &[
            "-Y",
            "verify",
            "-f",
            "allowed_signers",
            "-I",
            "x",
            "-n",
            namespace,
            "-s",
            "f.sig",
        ],
        doc,
    );
    out.status.success()
}

/// The armour of an embedded signature with its "# " prefixes removed: a detached .sig.
fn armour_of(signed_file: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(signed_file.to_vec()).unwrap();
    let start = text.find("# -----BEGIN SSH SIGNATURE-----").unwrap();
    text[start..]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("# ").unwrap()))
        .collect::<String>()
        .into_bytes()
}

fn crlf(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8(bytes.to_vec())
        .unwrap()
        .replace('\n', "\r\n")
        .into_bytes()
}

fn new_key() -> SecretKey {
    SecretKey::generate("test").unwrap()
}

fn open_and_verify(file: &[u8], key: &PublicKey) -> Result<Signed, EnvelopeError> {
    let signed = open_embedded(file)?;
    verify(&signed, key, ORDER_NAMESPACE)?;
    Ok(signed)
}

// ---- pbem's own signatures ----------------------------------------------------------------

#[test]
fn our_signed_file_verifies_and_yields_the_document() {
    let key = new_key();
    let file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    let signed = open_and_verify(&file, &key.public()).unwrap();
    assert_eq!(signed.document, ORDER);
    assert_eq!(signed.document_hash(), sha256(ORDER));
}

#[test]
fn our_signed_file_is_the_document_followed_by_commented_armour() {
    let key = new_key();
    let file = String::from_utf8(sign(ORDER, &key, ORDER_NAMESPACE).unwrap()).unwrap();
    let rest = file
        .strip_prefix(std::str::from_utf8(ORDER).unwrap())
        .unwrap();
    assert!(
        rest.starts_with("# -----BEGIN SSH SIGNATURE-----\n# U1NIU0lH"),
        "{rest}"
    );
    assert!(rest.ends_with("# -----END SSH SIGNATURE-----\n"), "{rest}");
    assert!(rest.lines().all(|l| l.starts_with("# ")), "{rest}");
}

#[test]
fn ssh_keygen_verifies_the_armour_of_our_signed_file() {
    let dir = TempDir::new().unwrap();
    let key = new_key();
    let file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    assert!(ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "pbem",
        ORDER,
        &armour_of(&file)
    ));
}

#[test]
fn ssh_keygen_rejects_our_signature_over_another_document() {
    // The oracle is not vacuous: ssh-keygen refuses what it should.
    let dir = TempDir::new().unwrap();
    let key = new_key();
    let sig = envelope::sign_detached(ORDER, &key, ORDER_NAMESPACE).unwrap();
    let other = b"game: g1\nstep: 4\n";
    assert!(!ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "pbem",
        other,
        sig.as_bytes()
    ));
    assert!(!ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "git",
        ORDER,
        sig.as_bytes()
    ));
}

#[test]
fn ssh_keygen_verifies_our_detached_signature() {
    let dir = TempDir::new().unwrap();
    let key = new_key();
    let sig = envelope::sign_detached(ORDER, &key, ORDER_NAMESPACE).unwrap();
    assert!(ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "pbem",
        ORDER,
        sig.as_bytes()
    ));
}

#[test]
fn signer_is_the_key_inside_the_signature() {
    let key = new_key();
    let signed = open_embedded(&sign(ORDER, &key, ORDER_NAMESPACE).unwrap()).unwrap();
    assert_eq!(signer(&signed).unwrap(), key.public());
}

#[test]
fn unsigned_file_is_refused_with_how_to_sign_it() {
    let err = open_embedded(ORDER).unwrap_err();
    assert_eq!(err, EnvelopeError::Unsigned);
    let msg = err.to_string();
    assert!(msg.contains("not signed"), "{msg}");
    assert!(msg.contains("pbem sign FILE --key KEY"), "{msg}");
    assert!(
        msg.contains("ssh-keygen -Y sign -n pbem -f KEY FILE"),
        "{msg}"
    );
    assert!(msg.contains("FILE.sig"), "{msg}");
}

#[test]
fn cut_off_armour_is_reported_as_malformed() {
    let key = new_key();
    let file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    let cut = &file[..file.len() - 40];
    let msg = open_embedded(cut).unwrap_err().to_string();
    assert!(msg.contains("malformed signature armour"), "{msg}");
}

// ---- signatures and keys made by ssh-keygen ---------------------------------------------------

#[test]
fn ssh_keygen_detached_signature_verifies() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "id_ed25519", "");
    let sig = ssh_keygen_sign(dir.path(), &key, "pbem", ORDER);
    let public = PublicKey::read(&dir.path().join("id_ed25519.pub")).unwrap();
    let signed = open_detached(ORDER, &sig).unwrap();
    assert!(signed.is_detached());
    verify(&signed, &public, ORDER_NAMESPACE).unwrap();
    assert_eq!(signed.document, ORDER);
}

#[test]
fn ssh_keygen_private_key_loads_and_matches_its_pub_file() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "id_ed25519", "");
    let loaded = SecretKey::load(&key, None).unwrap();
    let public = PublicKey::read(&dir.path().join("id_ed25519.pub")).unwrap();
    assert_eq!(loaded.public(), public);
    assert_eq!(loaded.comment(), "player@example.org");
}

#[test]
fn ssh_keygen_accepts_a_signature_made_with_its_key_loaded_by_pbem() {
    let dir = TempDir::new().unwrap();
    let key = SecretKey::load(&ssh_keygen_key(dir.path(), "k", ""), None).unwrap();
    let file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    assert!(ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "pbem",
        ORDER,
        &armour_of(&file)
    ));
}

#[test]
fn fingerprint_is_what_ssh_keygen_prints() {
    let dir = TempDir::new().unwrap();
    ssh_keygen_key(dir.path(), "k", "");
    let listed = ssh_keygen(dir.path(), &["-l", "-f", "k.pub"]);
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let theirs = listed.split_whitespace().nth(1).unwrap();
    assert_eq!(public.fingerprint(), theirs);
}

#[test]
fn passphrase_protected_ssh_keygen_key_loads_with_its_passphrase() {
    let dir = TempDir::new().unwrap();
    let path = ssh_keygen_key(dir.path(), "k", "hunter2");
    let key = SecretKey::load(&path, Some("hunter2")).unwrap();
    assert_eq!(
        key.public(),
        PublicKey::read(&dir.path().join("k.pub")).unwrap()
    );
}

#[test]
fn passphrase_protected_key_without_passphrase_says_how_to_give_one() {
    let dir = TempDir::new().unwrap();
    let path = ssh_keygen_key(dir.path(), "k", "hunter2");
    let err = SecretKey::load(&path, None).unwrap_err();
    assert!(matches!(err, KeyError::PassphraseNeeded { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains(path.to_str().unwrap()), "{msg}");
    assert!(msg.contains("encrypted with a passphrase"), "{msg}");
    assert!(msg.contains("PBEM_PASSPHRASE"), "{msg}");
    assert!(msg.contains("--passphrase-file"), "{msg}");
}

#[test]
fn wrong_passphrase_is_reported_as_wrong_passphrase() {
    let dir = TempDir::new().unwrap();
    let path = ssh_keygen_key(dir.path(), "k", "hunter2");
    let err = SecretKey::load(&path, Some("hunter3")).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, KeyError::WrongPassphrase { .. }), "{err:?}");
    assert!(
        msg.contains("wrong passphrase") && msg.contains(path.to_str().unwrap()),
        "{msg}"
    );
}

#[test]
fn ssh_keygen_verifies_a_signature_by_a_passphrase_protected_key() {
    let dir = TempDir::new().unwrap();
    let path = ssh_keygen_key(dir.path(), "k", "hunter2");
    let key = SecretKey::load(&path, Some("hunter2")).unwrap();
    let sig = envelope::sign_detached(ORDER, &key, ORDER_NAMESPACE).unwrap();
    assert!(ssh_keygen_verifies(
        dir.path(),
        &key.public(),
        "pbem",
        ORDER,
        sig.as_bytes()
    ));
}

#[test]
fn non_ed25519_private_keys_are_refused_naming_the_algorithm() {
    let dir = TempDir::new().unwrap();
    ssh_keygen(dir.path(), &["-q", "-t", "ecdsa", "-N", "", "-f", "ec"]);
    ssh_keygen(
        dir.path(),
        &["-q", "-t", "rsa", "-b", "1024", "-N", "pw", "-f", "rsa"],
    );
    for (name, algorithm) in [("ec", "ecdsa-sha2-nistp256"), ("rsa", "ssh-rsa")] {
        let path = dir.path().join(name);
        let err = SecretKey::load(&path, None).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, KeyError::NotEd25519 { .. }), "{err:?}");
        assert!(msg.contains(path.to_str().unwrap()), "{msg}");
        assert!(
            msg.contains(algorithm) && msg.contains("only ed25519"),
            "{msg}"
        );
        assert!(msg.contains("ssh-keygen -t ed25519"), "{msg}");
    }
}

#[test]
fn non_ed25519_public_key_file_is_refused_naming_the_algorithm() {
    let dir = TempDir::new().unwrap();
    ssh_keygen(dir.path(), &["-q", "-t", "ecdsa", "-N", "", "-f", "ec"]);
    let path = dir.path().join("ec.pub");
    let msg = PublicKey::read(&path).unwrap_err().to_string();
    assert!(msg.contains(path.to_str().unwrap()), "{msg}");
    assert!(
        msg.contains("ecdsa-sha2-nistp256") && msg.contains("only ed25519"),
        "{msg}"
    );
}

// ---- keys written by pbem -------------------------------------------------------------------

#[test]
fn our_encrypted_key_is_readable_by_ssh_keygen_and_private() {
    let dir = TempDir::new().unwrap();
    let key = new_key();
    let path = dir.path().join("pbem_key");
    key.write(&path, Some("pw")).unwrap();
    let derived = ssh_keygen(dir.path(), &["-y", "-P", "pw", "-f", "pbem_key"]);
    assert_eq!(PublicKey::parse(&derived).unwrap(), key.public());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}

#[test]
fn our_encrypted_key_needs_its_passphrase_in_ssh_keygen_too() {
    let dir = TempDir::new().unwrap();
    new_key().write(&dir.path().join("k"), Some("pw")).unwrap();
    let out = ssh_keygen_output(dir.path(), &["-y", "-P", "wrong", "-f", "k"], b"");
    assert!(!out.status.success());
}

#[test]
fn our_pub_file_is_one_openssh_line_with_the_comment() {
    let dir = TempDir::new().unwrap();
    let key = SecretKey::generate("red@example.org").unwrap();
    key.write(&dir.path().join("k"), None).unwrap();
    let line = fs::read_to_string(dir.path().join("k.pub")).unwrap();
    assert_eq!(
        line,
        format!("{} red@example.org\n", key.public().openssh())
    );
    assert_eq!(
        ssh_keygen(dir.path(), &["-y", "-f", "k"])
            .split_whitespace()
            .nth(1),
        line.split_whitespace().nth(1)
    );
}

#[test]
fn ssh_keygen_signs_with_our_unencrypted_key_and_we_verify() {
    let dir = TempDir::new().unwrap();
    let key = new_key();
    let path = dir.path().join("k");
    key.write(&path, None).unwrap();
    let sig = ssh_keygen_sign(dir.path(), &path, "pbem", ORDER);
    verify(
        &open_detached(ORDER, &sig).unwrap(),
        &key.public(),
        ORDER_NAMESPACE,
    )
    .unwrap();
}

#[test]
fn writing_a_key_refuses_to_overwrite_and_names_the_file() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("k");
    new_key().write(&path, None).unwrap();
    let before = fs::read(&path).unwrap();
    let msg = new_key().write(&path, None).unwrap_err().to_string();
    assert!(
        msg.contains("refusing to overwrite") && msg.contains(path.to_str().unwrap()),
        "{msg}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn writing_a_key_refuses_when_only_the_pub_file_exists() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("k");
    fs::write(dir.path().join("k.pub"), "keep me").unwrap();
    let msg = new_key().write(&path, None).unwrap_err().to_string();
    assert!(msg.contains("k.pub"), "{msg}");
    assert!(!path.exists());
}

// ---- line endings -----------------------------------------------------------------------------

#[test]
fn signed_file_converted_to_crlf_still_verifies() {
    let key = new_key();
    let file = crlf(&sign(ORDER, &key, ORDER_NAMESPACE).unwrap());
    let signed = open_and_verify(&file, &key.public()).unwrap();
    assert_eq!(signed.document, ORDER);
    assert_eq!(signed.document_hash(), sha256(ORDER));
}

#[test]
fn signed_crlf_document_is_stored_and_hashed_with_lf() {
    let key = new_key();
    let file = sign(&crlf(ORDER), &key, ORDER_NAMESPACE).unwrap();
    let signed = open_and_verify(&file, &key.public()).unwrap();
    assert_eq!(signed.document, ORDER);
    let again = open_and_verify(&crlf(&file), &key.public()).unwrap();
    assert_eq!(again.document_hash(), signed.document_hash());
}

#[test]
fn detached_signature_over_crlf_document_verifies() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "k", "");
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let sig = ssh_keygen_sign(dir.path(), &key, "pbem", &crlf(ORDER));
    // As received from a Windows player, and after a mail client turned it into LF.
    for doc in [crlf(ORDER), ORDER.to_vec()] {
        let signed = open_detached(&doc, &sig).unwrap();
        verify(&signed, &public, ORDER_NAMESPACE).unwrap();
        assert_eq!(signed.document, ORDER);
    }
}

#[test]
fn detached_signature_verifies_when_mail_turned_document_and_sig_into_crlf() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "k", "");
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let sig = ssh_keygen_sign(dir.path(), &key, "pbem", ORDER);
    let signed = open_detached(&crlf(ORDER), &crlf(&sig)).unwrap();
    verify(&signed, &public, ORDER_NAMESPACE).unwrap();
}

#[test]
fn detached_signature_over_mixed_line_endings_verifies_as_received() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "k", "");
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let doc = b"game: g1\r\nstep: 3\nside: red\r";
    let sig = ssh_keygen_sign(dir.path(), &key, "pbem", doc);
    let signed = open_detached(doc, &sig).unwrap();
    verify(&signed, &public, ORDER_NAMESPACE).unwrap();
    assert_eq!(signed.document, b"game: g1\nstep: 3\nside: red\n");
}

// ---- refusals ---------------------------------------------------------------------------------

#[test]
fn one_flipped_byte_in_a_signed_file_is_reported_as_changed_after_signing() {
    let key = new_key();
    let mut file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    file[20] ^= 0x01;
    let err = open_and_verify(&file, &key.public()).unwrap_err();
    assert!(matches!(err, EnvelopeError::Changed { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("changed after signing"), "{msg}");
    assert!(msg.contains(&key.public().fingerprint()), "{msg}");
}

#[test]
fn one_flipped_byte_in_a_detached_document_is_reported_as_changed_after_signing() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "k", "");
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let sig = ssh_keygen_sign(dir.path(), &key, "pbem", ORDER);
    let mut doc = ORDER.to_vec();
    doc[7] ^= 0x20;
    let err = verify(
        &open_detached(&doc, &sig).unwrap(),
        &public,
        ORDER_NAMESPACE,
    )
    .unwrap_err();
    assert!(err.to_string().contains("changed after signing"), "{err}");
}

#[test]
fn every_single_flipped_byte_of_the_document_is_caught() {
    let key = new_key();
    let public = key.public();
    let file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    for i in 0..ORDER.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = file.clone();
            bad[i] ^= bit;
            assert!(
                open_and_verify(&bad, &public).is_err(),
                "byte {i} bit {bit:#x}"
            );
        }
    }
}

#[test]
fn wrong_namespace_is_refused_naming_it_and_the_needed_flag() {
    let dir = TempDir::new().unwrap();
    let key = ssh_keygen_key(dir.path(), "k", "");
    let public = PublicKey::read(&dir.path().join("k.pub")).unwrap();
    let sig = ssh_keygen_sign(dir.path(), &key, "git", ORDER);
    let err = verify(
        &open_detached(ORDER, &sig).unwrap(),
        &public,
        ORDER_NAMESPACE,
    )
    .unwrap_err();
    assert_eq!(
        err,
        EnvelopeError::WrongNamespace {
            found: "git".into(),
            expected: "pbem".into()
        }
    );
    let msg = err.to_string();
    assert!(msg.contains("\"git\"") && msg.contains("-n pbem"), "{msg}");
}

#[test]
fn receipt_signature_does_not_pass_as_an_order() {
    let key = new_key();
    let file = sign(ORDER, &key, RECEIPT_NAMESPACE).unwrap();
    let signed = open_embedded(&file).unwrap();
    verify(&signed, &key.public(), RECEIPT_NAMESPACE).unwrap();
    let err = verify(&signed, &key.public(), ORDER_NAMESPACE).unwrap_err();
    assert!(
        matches!(err, EnvelopeError::WrongNamespace { .. }),
        "{err:?}"
    );
}

#[test]
fn signature_by_another_key_names_both_fingerprints() {
    let signer_key = new_key();
    let expected = new_key().public();
    let file = sign(ORDER, &signer_key, ORDER_NAMESPACE).unwrap();
    let err = open_and_verify(&file, &expected).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("another key"), "{msg}");
    assert!(msg.contains(&signer_key.public().fingerprint()), "{msg}");
    assert!(msg.contains(&expected.fingerprint()), "{msg}");
}

#[test]
fn text_appended_after_the_signature_is_refused() {
    let key = new_key();
    let mut file = sign(ORDER, &key, ORDER_NAMESPACE).unwrap();
    file.extend_from_slice(b"extra: unsigned\n");
    let msg = open_embedded(&file).unwrap_err().to_string();
    assert!(msg.contains("text after the signature"), "{msg}");
}

#[test]
fn detached_sig_that_is_not_a_signature_is_refused() {
    let msg = open_detached(ORDER, b"hello\n").unwrap_err().to_string();
    assert!(
        msg.contains("no SSH signature") && msg.contains("ssh-keygen -Y sign -n pbem"),
        "{msg}"
    );
}
