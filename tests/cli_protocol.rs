//! The protocol through the CLI: keys, game creation, signed orders, receipts, processing, and
//! the refusal of every kind of bad input without changing the game (DESIGN section 2).

mod common;
use common::*;
use std::process::Command as Proc;

#[test]
fn keygen_writes_a_private_key_only_its_owner_can_read_and_a_pub_line() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("k");
    ok(&["keygen", "--out", key.to_str().unwrap()]);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let public = std::fs::read_to_string(tmp.path().join("k.pub")).unwrap();
    assert!(public.starts_with("ssh-ed25519 "), "{public}");
    // The real ssh-keygen reads our private key and derives the same public key.
    let derived = Proc::new("ssh-keygen")
        .args(["-y", "-f"])
        .arg(&key)
        .output()
        .unwrap();
    assert!(derived.status.success());
    let derived = String::from_utf8_lossy(&derived.stdout);
    assert_eq!(
        derived.split_whitespace().nth(1),
        public.split_whitespace().nth(1)
    );
}

#[test]
fn keygen_creates_a_missing_key_folder_private_to_its_owner() {
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join(".pbem/alice");
    ok(&["keygen", "--out", key.to_str().unwrap()]);
    assert!(key.exists() && tmp.path().join(".pbem/alice.pub").exists());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(tmp.path().join(".pbem"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}

#[test]
fn new_creates_the_game_directory_of_design_section_5() {
    let t = Table::kummen();
    for path in [
        "game.yaml",
        "journal/000000.yaml",
        "reports/000000.txt",
        "views/mercenary/view.yaml",
        "views/mercenary/view.txt",
        "views/beeler/view.yaml",
        "host/host_key",
        "host/secrets.yaml",
        "host/state/000000.yaml",
    ] {
        assert!(t.game.join(path).exists(), "missing {path}");
    }
    assert!(t.game.join("inbox").is_dir() && t.game.join("outbox").is_dir());
    let genesis = std::fs::read_to_string(t.game.join("journal/000000.yaml")).unwrap();
    assert!(
        genesis.contains("host_commit:") && genesis.contains("game_key_commit:"),
        "{genesis}"
    );
}

#[test]
fn status_json_names_the_step_and_every_side_still_to_submit() {
    let t = Table::kummen();
    let st = t.status();
    assert_eq!(st["step"], 1);
    assert_eq!(
        st["waiting_for"],
        serde_json::json!(["mercenary", "beeler"])
    );
    assert_eq!(st["head"].as_str().unwrap().len(), 64);
}

#[test]
fn template_binds_game_step_side_and_basis_and_carries_fresh_entropy() {
    let t = Table::kummen();
    let a = ok(&["template", t.dir(), "--side", "beeler"]);
    let b = ok(&["template", t.dir(), "--side", "beeler"]);
    assert!(
        a.contains("game: kummen-test\nstep: 1\nside: beeler\n"),
        "{a}"
    );
    assert!(a.contains(&format!("basis: {}", t.head())));
    let entropy = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("entropy: "))
            .unwrap()
            .to_string()
    };
    assert_eq!(entropy(&a).len(), "entropy: ".len() + 64);
    assert_ne!(entropy(&a), entropy(&b));
}

#[test]
fn output_to_a_bare_file_name_lands_in_the_current_directory() {
    let t = Table::kummen();
    let out = common::pbem()
        .current_dir(t.tmp.path())
        .args(["template", t.dir(), "--side", "beeler", "-o", "t.yaml"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(t.path("t.yaml").exists());
}

#[test]
fn submit_prints_a_receipt_signed_by_the_host_that_verify_accepts() {
    let t = Table::kummen();
    let f = t.signed("beeler", "o", &t.order("beeler", "orders: {}\n"));
    let (code, out, _) = t.submit(&f);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("-----BEGIN SSH SIGNATURE-----"), "{out}");
    let receipt = t.path("receipt.yaml");
    ok(&[
        "submit",
        t.dir(),
        f.to_str().unwrap(),
        "--receipt",
        receipt.to_str().unwrap(),
    ]);
    ok(&[
        "verify",
        t.dir(),
        "--player",
        receipt.to_str().unwrap(),
        "--player",
        f.to_str().unwrap(),
    ]);
}

#[test]
fn process_exits_3_and_names_the_missing_sides_while_waiting() {
    let t = Table::kummen();
    let f = t.signed("beeler", "o", &t.order("beeler", "orders: {}\n"));
    assert_eq!(t.submit(&f).0, 0);
    let (code, _, err) = run(&["process", t.dir()]);
    assert_eq!(code, 3);
    assert!(err.contains("mercenary"), "{err}");
    assert_eq!(t.status()["waiting_for"], serde_json::json!(["mercenary"]));
    assert_eq!(t.status()["received"], serde_json::json!(["beeler"]));
}

#[test]
fn process_resolves_the_step_and_running_it_again_changes_nothing() {
    let t = Table::kummen();
    t.play_step(&[]);
    assert_eq!(t.step(), 2);
    assert!(t.game.join("journal/000001.yaml").exists());
    let before = snapshot(&t.game);
    let (code, _, _) = run(&["process", t.dir()]);
    assert_eq!(code, 3, "the next step waits for orders");
    assert_eq!(snapshot(&t.game), before);
}

#[test]
fn a_later_order_replaces_the_earlier_one_and_the_journal_records_it() {
    let t = Table::kummen();
    let first = t.signed("beeler", "first", &t.order("beeler", "orders: {}\n"));
    let second = t.signed("beeler", "second", &t.order("beeler", "orders: {}\n"));
    assert_eq!(t.submit(&first).0, 0);
    let (code, out, _) = t.submit(&second);
    assert_eq!(code, 0);
    assert!(out.contains("replaces the earlier order"), "{out}");
    let m = t.signed("mercenary", "m", &t.order("mercenary", "orders: {}\n"));
    assert_eq!(t.submit(&m).0, 0);
    ok(&["process", t.dir()]);
    let record = std::fs::read_to_string(t.game.join("journal/000001.yaml")).unwrap();
    assert!(record.contains("earlier:"), "{record}");
    // Both of beeler's files check out against the journal: one used, one replaced.
    ok(&[
        "verify",
        t.dir(),
        "--player",
        first.to_str().unwrap(),
        "--player",
        second.to_str().unwrap(),
    ]);
}

/// Submits `file`, expects exit 4 with every `needles` in the message, and no change at all.
fn assert_rejected(t: &Table, file: &std::path::Path, needles: &[&str]) {
    let before = snapshot(&t.game);
    let (code, out, err) = t.submit(file);
    assert_eq!(code, 4, "expected a rejection:\n{out}\n{err}");
    for n in needles {
        assert!(err.contains(n), "missing {n:?} in:\n{err}");
    }
    assert_eq!(
        snapshot(&t.game),
        before,
        "a rejected order changed the game directory"
    );
}

#[test]
fn an_order_changed_after_signing_is_rejected() {
    let t = Table::kummen();
    let f = t.signed("beeler", "o", &t.order("beeler", "orders: {}\n"));
    let text = std::fs::read_to_string(&f)
        .unwrap()
        .replacen("side: beeler", "side: beelex", 1);
    std::fs::write(&f, text.replacen("side: beelex", "side: beeler ", 1)).unwrap();
    assert_rejected(&t, &f, &["o.yaml", "signature"]);
}

#[test]
fn an_order_signed_with_another_sides_key_is_rejected_naming_both_keys() {
    let t = Table::kummen();
    let f = t.signed("mercenary", "o", &t.order("beeler", "orders: {}\n"));
    assert_rejected(&t, &f, &["o.yaml", "beeler", "SHA256:"]);
}

#[test]
fn an_order_for_another_game_is_rejected_at_its_line() {
    let t = Table::kummen();
    let doc = t
        .order("beeler", "orders: {}\n")
        .replace("game: kummen-test", "game: other-game");
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(
        &t,
        &f,
        &["o.yaml:2:7", "other-game", "accepted: kummen-test"],
    );
}

#[test]
fn an_order_for_another_step_is_rejected() {
    let t = Table::kummen();
    let doc = t
        .order("beeler", "orders: {}\n")
        .replace("step: 1", "step: 7");
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(&t, &f, &["o.yaml:3", "step 7", "accepted: 1"]);
}

#[test]
fn an_order_with_a_stale_basis_is_rejected() {
    let t = Table::kummen();
    let stale = t.order("beeler", "orders: {}\n");
    t.play_step(&[]);
    let doc = stale.replace("step: 1", &format!("step: {}", t.step()));
    let waiting = t.status()["waiting_for"][0].as_str().unwrap().to_string();
    let f = t.signed(
        &waiting,
        "o",
        &doc.replace("side: beeler", &format!("side: {waiting}")),
    );
    assert_rejected(&t, &f, &["o.yaml:5", "basis", &t.head()]);
}

#[test]
fn an_order_from_a_side_the_step_does_not_wait_for_is_rejected() {
    let t = Table::kummen();
    t.play_step(&[]);
    let st = t.status();
    let waiting = st["waiting_for"][0].as_str().unwrap();
    let other = if waiting == "beeler" {
        "mercenary"
    } else {
        "beeler"
    };
    let f = t.signed(other, "o", &t.order(other, "orders: {}\n"));
    assert_rejected(&t, &f, &["waits only for"]);
}

#[test]
fn an_unknown_field_is_rejected_at_its_line() {
    let t = Table::kummen();
    let doc = t.order("beeler", "orders: {}\nordres: {}\n");
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(&t, &f, &["o.yaml:9", "ordres"]);
}

#[test]
fn a_duplicate_key_is_rejected_at_its_line() {
    let t = Table::kummen();
    let doc = t.order("beeler", "orders: {}\n").replacen(
        "side: beeler\n",
        "side: beeler\nside: beeler\n",
        1,
    );
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(&t, &f, &["o.yaml:5", "duplicate"]);
}

#[test]
fn malformed_yaml_is_rejected_with_its_position() {
    let t = Table::kummen();
    let doc = t.order("beeler", "orders: {unclosed: [1, 2}\n");
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(&t, &f, &["o.yaml:8"]);
}

#[test]
fn an_unsigned_order_is_rejected_with_how_to_sign_it() {
    let t = Table::kummen();
    let f = t.path("plain.yaml");
    std::fs::write(&f, t.order("beeler", "orders: {}\n")).unwrap();
    assert_rejected(&t, &f, &["plain.yaml", "pbem sign"]);
}

#[test]
fn an_order_whose_line_endings_became_crlf_in_transit_still_verifies() {
    let t = Table::kummen();
    let f = t.signed("beeler", "o", &t.order("beeler", "orders: {}\n"));
    let crlf = std::fs::read_to_string(&f).unwrap().replace('\n', "\r\n");
    std::fs::write(&f, crlf).unwrap();
    let (code, out, err) = t.submit(&f);
    assert_eq!(code, 0, "{out}{err}");
}

fn ssh_keygen(args: &[&str]) {
    let out = Proc::new("ssh-keygen")
        .args(args)
        .output()
        .expect("ssh-keygen is installed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "ssh-keygen {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A game whose beeler seat uses a key made by the real ssh-keygen.
fn game_with_ssh_keygen_key(passphrase: &str) -> (Table, std::path::PathBuf) {
    let t = Table::kummen();
    let key = t.path("id_ed25519");
    ssh_keygen(&[
        "-q",
        "-t",
        "ed25519",
        "-N",
        passphrase,
        "-C",
        "bob",
        "-f",
        key.to_str().unwrap(),
    ]);
    let game = t.path("game2");
    let beeler_pub = t.path("id_ed25519.pub");
    new_kummen(&game, &t.path("keys/mercenary.pub"), &beeler_pub);
    let moved = Table {
        tmp: t.tmp,
        game,
        id: t.id,
        versions: Default::default(),
    };
    (moved, key)
}

/// An order for beeler signed by the real ssh-keygen in `namespace`, as orders.yaml + .sig.
fn detached_order(t: &Table, key: &std::path::Path, namespace: &str) -> std::path::PathBuf {
    let doc = t
        .order("beeler", "orders: {}\n")
        .replace("entropy: auto", &format!("entropy: {}", "ab".repeat(32)));
    let f = t.path("orders.yaml");
    std::fs::write(&f, doc).unwrap();
    ssh_keygen(&[
        "-Y",
        "sign",
        "-n",
        namespace,
        "-f",
        key.to_str().unwrap(),
        f.to_str().unwrap(),
    ]);
    assert!(t.path("orders.yaml.sig").exists());
    f
}

#[test]
fn a_detached_signature_made_by_ssh_keygen_is_accepted() {
    let (t, key) = game_with_ssh_keygen_key("");
    let f = detached_order(&t, &key, "pbem");
    let (code, out, err) = t.submit(&f);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_detached_signature_in_another_namespace_is_rejected() {
    let (t, key) = game_with_ssh_keygen_key("");
    let f = detached_order(&t, &key, "git");
    assert_rejected(&t, &f, &["namespace"]);
}

#[test]
fn pbem_sign_uses_a_passphrase_protected_ssh_keygen_key() {
    let (t, key) = game_with_ssh_keygen_key("hunter2");
    let plain = t.path("o.plain.yaml");
    std::fs::write(&plain, t.order("beeler", "orders: {}\n")).unwrap();
    let signed = t.path("o.yaml");
    let (code, _, err) = run(&[
        "sign",
        plain.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "an encrypted key without a passphrase must fail");
    assert!(err.contains("passphrase"), "{err}");
    let pass = t.path("pass.txt");
    std::fs::write(&pass, "hunter2\n").unwrap();
    ok(&[
        "sign",
        plain.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "--passphrase-file",
        pass.to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    let (code, out, err) = t.submit(&signed);
    assert_eq!(code, 0, "{out}{err}");
}

/// Submits `file`, expects exit 4 and no change at all, and returns the message.
fn rejection(t: &Table, file: &std::path::Path) -> String {
    let before = snapshot(&t.game);
    let (code, out, err) = t.submit(file);
    assert_eq!(code, 4, "expected a rejection:\n{out}\n{err}");
    assert_eq!(
        snapshot(&t.game),
        before,
        "a rejected order changed the game"
    );
    err
}

#[test]
fn an_order_with_20000_bad_lines_lists_the_first_50_problems_and_counts_the_rest() {
    let t = Table::kummen();
    t.play_step(&[]);
    let actions: String = (0..20_000)
        .map(|i| format!("    - flip_up: NOPE{i}\n"))
        .collect();
    let doc = t.order("beeler", &format!("orders:\n  actions:\n{actions}"));
    let f = t.signed("beeler", "o", &doc);
    let err = rejection(&t, &f);
    assert!(err.contains("rejected: 20000 problems"), "{err}");
    let listed: Vec<&str> = err.lines().filter(|l| l.contains("o.yaml:")).collect();
    assert_eq!(listed.len(), 50, "{err}");
    assert!(
        listed[0].contains("o.yaml:10:16") && listed[0].contains("NOPE0"),
        "{err}"
    );
    assert!(listed[49].contains("NOPE49"), "{err}");
    assert!(err.contains("\n... and 19950 more problems\n"), "{err}");
}

/// A validly signed order of `beeler` padded with a comment to exactly `size` bytes (after a
/// value: `pbem sign` drops whole-line comments).
fn signed_order_of_size(t: &Table, size: usize) -> std::path::PathBuf {
    let key = pbem::protocol::keys::SecretKey::load(&t.key("beeler"), None).unwrap();
    let doc = t.order("beeler", "");
    let padded = |n: usize| format!("{doc}orders: {{}} # {}\n", "x".repeat(n));
    let probe = pbem::engine::order::sign(padded(0).as_bytes(), &key).unwrap();
    let signed = pbem::engine::order::sign(padded(size - probe.len()).as_bytes(), &key).unwrap();
    assert_eq!(signed.len(), size);
    let f = t.path("o.yaml");
    std::fs::write(&f, signed).unwrap();
    f
}

#[test]
fn an_order_over_1_mib_is_refused_naming_the_limit() {
    let t = Table::kummen();
    let limit = pbem::protocol::envelope::MAX_ORDER_BYTES;
    assert_eq!(limit, 1 << 20);
    let err = rejection(&t, &signed_order_of_size(&t, limit + 1));
    assert!(err.contains("o.yaml"), "{err}");
    assert!(err.contains("limit of 1048576 bytes (1 MiB)"), "{err}");
}

#[test]
fn an_order_of_exactly_1_mib_is_not_refused_for_its_size() {
    let t = Table::kummen();
    let f = signed_order_of_size(&t, pbem::protocol::envelope::MAX_ORDER_BYTES);
    let (code, out, err) = t.submit(&f);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn pbem_sign_refuses_an_order_over_the_limit() {
    let t = Table::kummen();
    let plain = t.path("big.plain.yaml");
    let doc = t.order("beeler", "orders: {}\n");
    let pad = pbem::protocol::envelope::MAX_ORDER_BYTES + 1 - doc.len() - 3;
    std::fs::write(&plain, format!("{doc}# {}\n", "x".repeat(pad))).unwrap();
    let signed = t.path("big.yaml");
    let (code, _, err) = run(&[
        "sign",
        plain.to_str().unwrap(),
        "--key",
        t.key("beeler").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("big.plain.yaml") && err.contains("1048576 bytes"),
        "{err}"
    );
    assert!(!signed.exists());
}

#[test]
fn a_quoted_number_in_a_signed_order_is_refused_as_not_plain() {
    let t = Table::kummen();
    let doc = t
        .order("beeler", "orders: {}\n")
        .replace("step: 1", "step: '1'");
    let f = t.signed("beeler", "o", &doc);
    assert_rejected(
        &t,
        &f,
        &["o.yaml:3:7", "'1'", "accepted: a decimal integer"],
    );
}
