//! Orders are versioned and their public commitment hides them (issue 10, items 1-3; docs/dice.md
//! "Order commitments"): only a newer version replaces an order, an old version sent again is
//! refused, receipts of replaced versions verify, and the journal publishes a hash of the
//! order's entropy, never the entropy that would let an opponent confirm a guessed order.

mod common;
use common::*;
use pbem::protocol::hash::Hash32;
use pbem::protocol::journal::{Record, dice_entropy};
use std::path::{Path, PathBuf};

/// An order of `side` for the open step with a fixed version (so tests can order versions).
fn versioned(t: &Table, side: &str, name: &str, version: u64, block: &str) -> PathBuf {
    let doc = t.order(side, block);
    let written = format!("version: {}\n", t.versions.get());
    let doc = doc.replace(&written, &format!("version: {version}\n"));
    t.signed(side, name, &doc)
}

/// Submits `file` and saves the receipt it prints as `NAME.receipt.yaml`.
fn submit_keeping_receipt(t: &Table, file: &Path) -> PathBuf {
    let receipt = file.with_extension("receipt.yaml");
    let (code, out, err) = run(&[
        "submit",
        t.dir(),
        file.to_str().unwrap(),
        "--receipt",
        receipt.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "submit failed:\n{out}{err}");
    receipt
}

fn record(t: &Table, seq: u64) -> Record {
    let text = std::fs::read_to_string(t.game.join(format!("journal/{seq:06}.yaml"))).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

fn entropy_of(signed: &Path) -> Hash32 {
    let text = std::fs::read_to_string(signed).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("entropy: "))
        .expect("a signed order has its entropy filled in");
    line.parse().unwrap()
}

/// Every file anyone may see while the game runs: the journal, the reports and game.yaml.
fn public_text(t: &Table) -> String {
    let mut all = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    for folder in ["journal", "reports"] {
        for entry in std::fs::read_dir(t.game.join(folder)).unwrap() {
            all.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
    }
    all
}

#[test]
fn the_journal_publishes_a_hash_of_the_order_entropy_never_the_entropy_itself() {
    let t = Table::kummen();
    let merc = versioned(&t, "mercenary", "m", 1, "orders: {}\n");
    let beeler = versioned(&t, "beeler", "b", 1, "orders: {}\n");
    t.submit(&merc);
    t.submit(&beeler);
    ok(&["process", t.dir()]);
    let public = public_text(&t);
    let step = record(&t, 1).step.unwrap();
    for (side, file) in [("mercenary", &merc), ("beeler", &beeler)] {
        let secret = entropy_of(file);
        assert!(
            !public.contains(&secret.hex()),
            "the entropy of {side} is published, so its order hash can be matched against guesses"
        );
        let entry = step.orders.iter().find(|o| o.side == side).unwrap();
        assert_eq!(entry.dice_entropy, Some(dice_entropy(&secret)), "{side}");
        assert_eq!(entry.entropy, None, "{side}");
    }
}

#[test]
fn the_public_audit_recomputes_the_step_seed_from_the_dice_entropy() {
    let t = Table::kummen();
    t.play_step(&[]);
    t.play_step(&[]);
    let out = ok(&["verify", "--public-only", t.dir()]);
    assert!(out.contains("3 records"), "{out}");
    let (code, out, err) = std::process::Command::new("python3")
        .args(["tools/dice_audit.py", t.dir()])
        .output()
        .map(|o| {
            (
                o.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&o.stdout).to_string(),
                String::from_utf8_lossy(&o.stderr).to_string(),
            )
        })
        .unwrap();
    assert_eq!(code, 0, "the independent auditor agrees:\n{out}{err}");
}

#[test]
fn a_newer_version_replaces_the_order_and_the_journal_lists_the_earlier_one() {
    let t = Table::kummen();
    let v1 = versioned(&t, "beeler", "v1", 7, "orders: {}\n");
    let v2 = versioned(&t, "beeler", "v2", 9, "orders: {}\n");
    t.submit(&v1);
    let (code, out, err) = t.submit(&v2);
    assert_eq!(code, 0, "{out}{err}");
    t.submit(&versioned(&t, "mercenary", "m", 1, "orders: {}\n"));
    ok(&["process", t.dir()]);
    let step = record(&t, 1).step.unwrap();
    let beeler = step.orders.iter().find(|o| o.side == "beeler").unwrap();
    assert_eq!(beeler.version, Some(9));
    assert_eq!(beeler.earlier.len(), 1);
    assert_eq!(beeler.earlier[0].version, 7);
    assert_eq!(beeler.dice_entropy, Some(dice_entropy(&entropy_of(&v2))));
}

#[test]
fn an_older_version_sent_again_is_refused_and_changes_nothing() {
    let t = Table::kummen();
    let v1 = versioned(&t, "beeler", "v1", 1, "orders: {}\n");
    let v2 = versioned(&t, "beeler", "v2", 2, "orders: {}\n");
    t.submit(&v1);
    t.submit(&v2);
    let before = snapshot(&t.game);
    let (code, _, err) = t.submit(&v1);
    assert_eq!(code, 4, "a replayed version 1 must be refused:\n{err}");
    assert!(err.contains("field: version"), "{err}");
    assert!(err.contains("not newer than version 2"), "{err}");
    assert!(err.contains("accepted: version 3 or more"), "{err}");
    assert_eq!(snapshot(&t.game), before, "nothing changed");
}

#[test]
fn the_same_version_with_other_content_is_refused() {
    let t = Table::kummen();
    t.submit(&versioned(&t, "beeler", "a", 5, "orders: {}\n"));
    let other = versioned(
        &t,
        "beeler",
        "b",
        5,
        "orders:\n  policies: {retreat: never}\n",
    );
    let before = snapshot(&t.game);
    let (code, _, err) = t.submit(&other);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("version 5"), "{err}");
    assert_eq!(snapshot(&t.game), before);
}

#[test]
fn the_same_order_sent_twice_is_accepted_again_with_the_same_receipt() {
    let t = Table::kummen();
    let v = versioned(&t, "beeler", "v", 3, "orders: {}\n");
    let first = std::fs::read(submit_keeping_receipt(&t, &v)).unwrap();
    let again = std::fs::read(submit_keeping_receipt(&t, &v)).unwrap();
    assert_eq!(first, again);
}

#[test]
fn an_order_without_a_version_is_refused_naming_the_field() {
    let t = Table::kummen();
    // Signed without `pbem sign` (which would add a version line): the envelope alone.
    let doc = t
        .order("beeler", "orders: {}\n")
        .replace("version: 1\n", "")
        .replace("entropy: auto", &format!("entropy: {}", "ab".repeat(32)));
    let key = pbem::protocol::keys::SecretKey::load(&t.key("beeler"), None).unwrap();
    let signed = pbem::protocol::envelope::sign(
        doc.as_bytes(),
        &key,
        pbem::protocol::envelope::ORDER_NAMESPACE,
    )
    .unwrap();
    let file = t.path("noversion.yaml");
    std::fs::write(&file, signed).unwrap();
    let (code, _, err) = t.submit(&file);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("no `version:` line"), "{err}");
}

#[test]
fn pbem_sign_fills_version_auto_with_the_signing_time() {
    let t = Table::kummen();
    let skeleton = t.path("skeleton.yaml");
    ok(&[
        "template",
        t.dir(),
        "--side",
        "beeler",
        "-o",
        skeleton.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read_to_string(&skeleton)
            .unwrap()
            .contains("\nversion: auto\n")
    );
    let signed = t.path("skeleton.signed.yaml");
    ok(&[
        "sign",
        skeleton.to_str().unwrap(),
        "--key",
        t.key("beeler").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&signed).unwrap();
    let version = text
        .lines()
        .find_map(|l| l.strip_prefix("version: "))
        .unwrap();
    assert_eq!(version.len(), 14, "YYYYMMDDhhmmss: {version}");
    assert!(version.starts_with("20"), "{version}");
    let (code, out, err) = t.submit(&signed);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn receipts_of_the_used_and_the_replaced_versions_both_verify() {
    let t = Table::kummen();
    let r1 = submit_keeping_receipt(&t, &versioned(&t, "beeler", "v1", 1, "orders: {}\n"));
    let r2 = submit_keeping_receipt(&t, &versioned(&t, "beeler", "v2", 2, "orders: {}\n"));
    t.submit(&versioned(&t, "mercenary", "m", 1, "orders: {}\n"));
    ok(&["process", t.dir()]);
    let (code, out, err) = run(&[
        "verify",
        t.dir(),
        "--player",
        r1.to_str().unwrap(),
        "--player",
        r2.to_str().unwrap(),
    ]);
    assert_eq!(
        code, 0,
        "an honest game with a replaced order verifies:\n{out}{err}"
    );
}

#[test]
fn a_receipt_for_a_version_the_host_dropped_convicts_the_host() {
    let t = Table::kummen();
    let v1 = versioned(&t, "beeler", "v1", 1, "orders: {}\n");
    t.submit(&v1);
    let r2 = submit_keeping_receipt(&t, &versioned(&t, "beeler", "v2", 2, "orders: {}\n"));
    // A dishonest host puts version 1 back in the inbox and forgets version 2 was ever there.
    let inbox = t.game.join("inbox");
    for entry in std::fs::read_dir(&inbox).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.contains("beeler") {
            if name.ends_with("beeler.yaml") {
                std::fs::copy(&v1, &path).unwrap();
            } else {
                std::fs::remove_file(&path).unwrap();
            }
        }
    }
    t.submit(&versioned(&t, "mercenary", "m", 1, "orders: {}\n"));
    ok(&["process", t.dir()]);
    let (code, _, err) = run(&["verify", t.dir(), "--player", r2.to_str().unwrap()]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("never used or replaced"), "{err}");
}

#[test]
fn a_version_written_as_text_is_refused_naming_the_field() {
    let t = Table::kummen();
    for (name, written) in [("quoted", "'12'"), ("hex", "0x0c"), ("negative", "-3")] {
        let doc = t.order("beeler", "orders: {}\n");
        let doc = doc.replace(
            &format!("version: {}\n", t.versions.get()),
            &format!("version: {written}\n"),
        );
        let f = t.signed("beeler", name, &doc);
        let (code, _, err) = t.submit(&f);
        assert_eq!(code, 4, "{written}: {err}");
        assert!(err.contains("field: version"), "{written}: {err}");
    }
}
