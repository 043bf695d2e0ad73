//! The fuzzers' findings stay fixed: every crasher, hang and slow input the cargo-fuzz targets
//! found (fuzz/regressions/<target>/) and their minimized corpora (fuzz/corpus/<target>/) run
//! here, on stable, through the same functions the targets call (`pbem::fuzzing`). Each input
//! must be handled without a panic and produce a bounded amount of messages. docs/fuzzing.md
//! says how the corpora were made and how to run the fuzzers.

mod common;
mod smtp;

use pbem::fuzzing;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// Every file of `fuzz/<kind>/<target>/`, sorted by name.
fn inputs(kind: &str, target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = fuzz_dir().join(kind).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

/// A fuzz target: its name in fuzz/, and the function it runs.
type Target = (&'static str, fn(&[u8]) -> usize);

const TARGETS: [Target; 5] = [
    ("envelope", fuzzing::envelope),
    ("order", fuzzing::order),
    ("order_body", fuzzing::order_body),
    ("mail", fuzzing::mail),
    ("journal", fuzzing::journal),
];

/// Messages may quote the input and say what is wrong with each part of it, but their size
/// stays proportional to it: no input makes pbem write quadratically much. The constant part
/// covers an accepted order, whose count is the views rendered after resolving it: for zeta
/// three seats each render four views (three sides and the public) of 6-7 kB, about 78 kB
/// for an empty packet, on top of kummen's and dougram's.
fn bound(input_len: usize) -> usize {
    64 * input_len + 128 * 1024
}

/// Runs the regressions and the corpus of `target` through `f`; the corpus must not be empty,
/// so that a moved directory cannot make this test pass on nothing.
fn replay(target: &str, f: fn(&[u8]) -> usize) {
    let corpus = inputs("corpus", target);
    assert!(
        !corpus.is_empty(),
        "fuzz/corpus/{target}/ holds the minimized corpus"
    );
    for (path, bytes) in inputs("regressions", target).into_iter().chain(corpus) {
        let out = f(&bytes);
        assert!(
            out <= bound(bytes.len()),
            "{}: {out} bytes of messages for {} bytes of input",
            path.display(),
            bytes.len()
        );
    }
}

/// A fuzz target added to fuzz/ without a replay here would keep its findings out of the
/// normal test suite.
#[test]
fn every_fuzz_target_is_replayed_here() {
    let mut in_fuzz: Vec<String> = std::fs::read_dir(fuzz_dir().join("fuzz_targets"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    in_fuzz.sort();
    let mut here: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    here.sort();
    assert_eq!(in_fuzz, here);
}

#[test]
fn signed_envelope_inputs_are_handled_within_bounds() {
    replay("envelope", fuzzing::envelope);
}

#[test]
fn order_documents_are_handled_within_bounds() {
    replay("order", fuzzing::order);
}

#[test]
fn order_bodies_are_handled_within_bounds() {
    replay("order_body", fuzzing::order_body);
}

#[test]
fn raw_mail_messages_are_handled_within_bounds() {
    replay("mail", fuzzing::mail);
}

#[test]
fn journal_records_are_handled_within_bounds() {
    replay("journal", fuzzing::journal);
}

/// mail-parser 0.11.9 panics on this 185-byte message ("Invalid part ID, could not find
/// multipart.", parsers/message.rs:485); the fuzzer found it. pbem catches the panic, and the
/// message counts as no mail at all, so ingest records it and never answers.
#[test]
fn a_message_that_makes_the_mail_parser_panic_is_read_as_no_message() {
    let bytes =
        std::fs::read(fuzz_dir().join("regressions/mail/crash-mail-parser-invalid-part-id.eml"))
            .unwrap();
    assert!(pbem::engine::mail::parse::parse(&bytes).is_none());
}

/// The order targets cover every registered system, at states past its first steps (not only
/// the opening position).
#[test]
fn every_registered_system_has_order_fixtures_beyond_its_first_steps() {
    let fixtures: Vec<&str> = fuzzing::order_fixtures()
        .iter()
        .map(|f| f.system().id())
        .collect();
    let registered: Vec<&str> = pbem::systems::all().iter().map(|s| s.id()).collect();
    assert_eq!(fixtures, registered);
    for fx in fuzzing::order_fixtures() {
        assert!(
            fx.states().iter().any(|(step, _)| *step > 2),
            "{}: {} states",
            fx.system().id(),
            fx.states().len()
        );
    }
}

/// Times every input of every target and prints the slowest: how the slow inputs in
/// docs/fuzzing.md were found. Meaningful in release:
/// `cargo test --release --test fuzz_regressions -- --ignored --nocapture slowest`.
#[test]
#[ignore = "a measurement, not a check; run by hand in release"]
fn slowest_inputs() {
    fuzzing::init();
    for (target, f) in TARGETS {
        let mut times: Vec<(std::time::Duration, PathBuf, usize)> = inputs("regressions", target)
            .into_iter()
            .chain(inputs("corpus", target))
            .map(|(path, bytes)| {
                let start = std::time::Instant::now();
                f(&bytes);
                (start.elapsed(), path, bytes.len())
            })
            .collect();
        times.sort();
        let total: std::time::Duration = times.iter().map(|t| t.0).sum();
        println!("{target}: {} inputs in {total:?}", times.len());
        for (t, path, len) in times.iter().rev().take(5) {
            println!("  {t:?} {len} bytes {}", path.display());
        }
    }
}

/// The seed corpora, written from real files: the demo games' scripted orders and their
/// templates at every fixture state, signed with the fuzzers' fixed keys; a kept demo game's
/// journal, orders and receipts; messages as tests/mail_*.rs writes them. Run once before
/// fuzzing (docs/fuzzing.md): `cargo test --test fuzz_regressions -- --ignored write_seed`.
#[test]
#[ignore = "writes seed files into fuzz/corpus/; run by hand before fuzzing"]
fn write_seed_corpora() {
    seeds::write_all(&fuzz_dir().join("corpus"));
}

mod seeds {
    use super::smtp::letters::{letter, qp_attachment_message};
    use pbem::fuzzing::{self, SEPARATOR, fixed_key, order_document};
    use pbem::protocol::envelope::{self, ORDER_NAMESPACE, RECEIPT_NAMESPACE};
    use std::path::Path;

    fn put(root: &Path, target: &str, name: &str, bytes: &[u8]) {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
    }

    fn joined(parts: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.push(SEPARATOR);
            }
            out.extend_from_slice(p);
        }
        out
    }

    fn crlf(bytes: &[u8]) -> Vec<u8> {
        String::from_utf8_lossy(bytes)
            .replace('\n', "\r\n")
            .into_bytes()
    }

    /// The `orders:` value of a template, dedented (the template starts with `orders:`).
    fn template_body(template: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for line in template.lines() {
            if !inside {
                if let Some(rest) = line.strip_prefix("orders:") {
                    inside = true;
                    let rest = rest.trim();
                    if !rest.is_empty() {
                        out.push_str(rest);
                        out.push('\n');
                    }
                }
                continue;
            }
            out.push_str(line.strip_prefix("  ").unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// (name, document) of every scripted order and every template at every fixture state.
    fn order_docs() -> Vec<(String, u8, String, String)> {
        let mut out = Vec::new();
        for fx in fuzzing::order_fixtures() {
            let id = fx.system().id();
            for (i, (step, state)) in fx.states().iter().enumerate() {
                for side in fx.system().sides() {
                    if let Some(body) = pbem::engine::demo::scripted(id, *step, &side) {
                        out.push((
                            format!("{id}-{i:02}-{side}-scripted"),
                            i as u8,
                            body.to_string(),
                            order_document(*step, &side, body),
                        ));
                    }
                    let t = fx.system().template(fx.data(), state, &side).unwrap();
                    let body = template_body(&t);
                    let head = order_document(*step, &side, "");
                    let head = head.strip_suffix("orders:\n  {}\n").unwrap();
                    out.push((
                        format!("{id}-{i:02}-{side}-template"),
                        i as u8,
                        body,
                        format!("{head}{t}"),
                    ));
                }
            }
        }
        out
    }

    pub fn write_all(root: &Path) {
        let key = fixed_key(1);
        let docs = order_docs();
        for (name, pick, body, doc) in &docs {
            put(root, "order", name, doc.as_bytes());
            let mut b = vec![*pick];
            b.extend_from_slice(body.as_bytes());
            put(root, "order_body", name, &b);
        }
        // Envelopes: a few documents signed every way pbem accepts, and broken armour.
        for (name, _, _, doc) in docs.iter().step_by(17).take(4) {
            let doc = doc.as_bytes();
            let signed = envelope::sign(doc, &key, ORDER_NAMESPACE).unwrap();
            put(root, "envelope", &format!("{name}-embedded"), &signed);
            put(root, "envelope", &format!("{name}-crlf"), &crlf(&signed));
            let sig = envelope::sign_detached(doc, &key, ORDER_NAMESPACE).unwrap();
            put(
                root,
                "envelope",
                &format!("{name}-detached"),
                &joined(&[doc, sig.as_bytes()]),
            );
            let receipt = envelope::sign(doc, &key, RECEIPT_NAMESPACE).unwrap();
            put(root, "envelope", &format!("{name}-receipt"), &receipt);
        }
        for (i, bad) in [
            &b"# -----BEGIN SSH SIGNATURE-----\n# AAAA\n# -----END SSH SIGNATURE-----\n"[..],
            b"-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n",
            b"\r\r\r# -----BEGIN SSH SIGNATURE-----\r# U1NIU0lH\r",
        ]
        .iter()
        .enumerate()
        {
            put(root, "envelope", &format!("broken-{i}"), bad);
        }

        // A kept demo game: its journal, its signed orders and receipts.
        let demo = tempfile::tempdir().unwrap();
        for system in pbem::engine::demo::systems_with_script() {
            let keep = demo.path().join(system);
            pbem::engine::demo::run(
                system,
                Some(&keep),
                pbem::engine::demo::default_seed(system),
                &mut std::io::sink(),
            )
            .unwrap();
            let game = keep.join("game");
            let mut records = Vec::new();
            for seq in 0.. {
                let p = game.join(format!("journal/{seq:06}.yaml"));
                match std::fs::read(&p) {
                    Ok(b) => records.push(b),
                    Err(_) => break,
                }
            }
            for (i, r) in records.iter().enumerate() {
                put(root, "journal", &format!("{system}-{i:02}"), r);
                if i > 0 {
                    put(
                        root,
                        "journal",
                        &format!("{system}-{:02}-{i:02}", i - 1),
                        &joined(&[&records[i - 1], r]),
                    );
                }
            }
            if records.len() >= 3 {
                put(
                    root,
                    "journal",
                    &format!("{system}-first-three"),
                    &joined(&[&records[0], &records[1], &records[2]]),
                );
            }
            let first_order = std::fs::read_dir(keep.join("orders"))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .min()
                .unwrap();
            let signed_order = std::fs::read(first_order).unwrap();
            put(
                root,
                "envelope",
                &format!("{system}-demo-order"),
                &signed_order,
            );
            if let Some(receipt) = std::fs::read_dir(game.join("host/receipts"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .min()
            {
                put(
                    root,
                    "envelope",
                    &format!("{system}-demo-receipt"),
                    &std::fs::read(receipt).unwrap(),
                );
            }
        }

        // Mail: an order of the mail fixture's first seat (kummen, step 1), sent every way.
        let seat = fixed_key(2);
        let doc = order_document(1, "mercenary", "{}");
        let signed = envelope::sign(doc.as_bytes(), &seat, ORDER_NAMESPACE).unwrap();
        let sig = envelope::sign_detached(doc.as_bytes(), &seat, ORDER_NAMESPACE).unwrap();
        let from = "mercenary@players.example.org";
        let to = "host@example.org";
        let tag = "[pbem fuzz] orders";
        let app = "application/yaml";
        let mails: Vec<(&str, Vec<u8>)> = vec![
            (
                "attached",
                letter(
                    from,
                    to,
                    tag,
                    "My orders.",
                    &[("signed.yaml", app, &signed)],
                    &[],
                ),
            ),
            (
                "pasted",
                letter(
                    from,
                    to,
                    tag,
                    &format!("Hello,\n\n{}\n-- \nAnn\n", String::from_utf8_lossy(&signed)),
                    &[],
                    &[],
                ),
            ),
            (
                "detached",
                letter(
                    from,
                    to,
                    tag,
                    "ssh-keygen pair",
                    &[
                        ("orders.yaml", app, doc.as_bytes()),
                        (
                            "orders.yaml.sig",
                            "application/octet-stream",
                            sig.as_bytes(),
                        ),
                    ],
                    &[],
                ),
            ),
            (
                "quoted-printable",
                qp_attachment_message(from, tag, "signed.yaml", &signed),
            ),
            (
                "unsigned",
                letter(
                    from,
                    to,
                    tag,
                    "oops",
                    &[("o.yaml", app, doc.as_bytes())],
                    &[],
                ),
            ),
            (
                "two-orders",
                letter(
                    from,
                    to,
                    tag,
                    "both",
                    &[
                        ("a.yaml", app, &signed),
                        ("b.yaml", app, doc.replace("{}", "[]").as_bytes()),
                    ],
                    &[],
                ),
            ),
            (
                "no-order",
                letter(from, to, tag, "when is the deadline?", &[], &[]),
            ),
            (
                "auto-reply",
                letter(
                    from,
                    to,
                    tag,
                    "away",
                    &[],
                    &[("Auto-Submitted", "auto-replied")],
                ),
            ),
            (
                "list",
                letter(
                    from,
                    to,
                    tag,
                    "list",
                    &[],
                    &[("List-Id", "<g.example.org>")],
                ),
            ),
            (
                "bounce",
                letter(
                    "MAILER-DAEMON@mx.example.org",
                    to,
                    "Undelivered Mail Returned to Sender",
                    "delivery failed",
                    &[],
                    &[("Return-Path", "<>")],
                ),
            ),
            (
                "broken-mime",
                format!(
                    "From: {from}\r\nTo: {to}\r\nSubject: {tag}\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"never-used\"\r\n\r\n\
--wrong-boundary\r\nContent-Type: application/yaml\r\nContent-Transfer-Encoding: base64\r\n\r\n\
cGJlbTog%%%broken\r\n"
                )
                .into_bytes(),
            ),
            (
                "forwarded",
                format!(
                    "From: {from}\r\nTo: {to}\r\nSubject: Fwd: {tag}\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"f\"\r\n\r\n--f\r\nContent-Type: text/html\r\n\r\n\
<p>see below</p>\r\n--f\r\nContent-Type: message/rfc822\r\n\r\n{}\r\n--f--\r\n",
                    String::from_utf8_lossy(&letter(
                        from,
                        to,
                        tag,
                        "inner",
                        &[("signed.yaml", app, &signed)],
                        &[]
                    ))
                )
                .into_bytes(),
            ),
        ];
        for (name, m) in mails {
            put(root, "mail", name, &m);
        }
    }
}
