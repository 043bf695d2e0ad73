//! `pbem ingest`: orders are found wherever a mail client puts them and filed exactly as
//! `submit` files them; every order message gets an answer; automatic mail never does; bad
//! input gets a clear rejection and never stops the others.

mod common;
mod smtp;

use common::*;
use pbem::engine::mail::parse::Mail;
use smtp::game::*;
use smtp::letters::{self, body, letter, qp_attachment_message};
use std::path::{Path, PathBuf};

const TAG: &str = "[pbem kummen-test] orders";

fn write(t: &Table, name: &str, bytes: &[u8]) -> PathBuf {
    let p = t.path(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The queued answer of an ingest outcome.
fn answer(t: &Table, outcome: &serde_json::Value) -> Mail {
    let key = outcome["reply"]
        .as_str()
        .unwrap_or_else(|| panic!("an answer is queued: {outcome}"));
    letters::read(&t.game.join("outbox").join(format!("{key}.eml")))
}

fn signed_bytes(t: &Table, side: &str) -> Vec<u8> {
    let f = t.signed(side, &format!("{side}-o"), &t.order(side, "orders: {}\n"));
    std::fs::read(f).unwrap()
}

fn mail_with_signed_order(t: &Table, from: &str, side: &str) -> Vec<u8> {
    letter(
        from,
        HOST_ADDRESS,
        TAG,
        "Here are my orders.",
        &[("signed.yaml", "application/yaml", &signed_bytes(t, side))],
        &[],
    )
}

/// The To address of every reply queued in the outbox, in key order.
fn recipients(t: &Table) -> Vec<String> {
    outbox(t)
        .into_iter()
        .filter(|(k, _)| k.contains(".reply."))
        .map(|(_, bytes)| {
            let m = pbem::engine::mail::parse::parse(&bytes).unwrap();
            let to: lettre::message::Mailbox = m.header("to").unwrap().parse().unwrap();
            to.email.to_string()
        })
        .collect()
}

/// Replies queued in the outbox (turn mails of record 0 excluded).
fn replies(t: &Table) -> Vec<String> {
    outbox(t)
        .into_keys()
        .filter(|k| k.contains(".reply."))
        .collect()
}

#[test]
fn an_order_attached_as_quoted_printable_text_with_crlf_line_endings_is_accepted() {
    let t = mail_table();
    let m = qp_attachment_message(
        &email("beeler"),
        TAG,
        "signed.yaml",
        &signed_bytes(&t, "beeler"),
    );
    assert!(
        String::from_utf8_lossy(&m).contains("=3D")
            || String::from_utf8_lossy(&m).contains("=\r\n")
    );
    let (code, v, err) = ingest_file(&t.game, &write(&t, "qp.eml", &m), T0);
    assert_eq!(
        (code, v["verdict"].as_str()),
        (0, Some("accepted")),
        "{v}{err}"
    );
    assert_eq!(t.status()["received"], serde_json::json!(["beeler"]));
}

#[test]
fn a_signed_order_pasted_into_the_body_is_accepted() {
    let t = mail_table();
    let signed = String::from_utf8(signed_bytes(&t, "mercenary")).unwrap();
    let m = letter(
        &email("mercenary"),
        HOST_ADDRESS,
        TAG,
        &format!("Hello,\n\n{signed}\n-- \nMary\n"),
        &[],
        &[],
    );
    let (code, v, err) = ingest_file(&t.game, &write(&t, "pasted.eml", &m), T0);
    assert_eq!(
        (code, v["verdict"].as_str()),
        (0, Some("accepted")),
        "{v}{err}"
    );
}

#[test]
fn a_receipt_echoes_the_accepted_orders_and_attaches_the_signed_receipt() {
    let t = mail_table();
    let (_, v, _) = ingest_file(
        &t.game,
        &write(
            &t,
            "m.eml",
            &mail_with_signed_order(&t, &email("beeler"), "beeler"),
        ),
        T0,
    );
    let a = answer(&t, &v);
    assert!(a.header("to").unwrap().contains(&email("beeler")));
    assert_eq!(a.header("in-reply-to"), a.header("references"));
    assert!(a.header("auto-submitted").unwrap().contains("auto-replied"));
    let text = body(&a);
    assert!(
        text.contains("is accepted") && text.contains("side: beeler"),
        "{text}"
    );
    let receipt = letters::attachment(&a, "receipt-step-1-beeler.yaml");
    let game = pbem::engine::game::Game::open(&t.game).unwrap();
    pbem::engine::order::open_receipt(&game, &receipt, "receipt").expect("signed by the host");
}

/// Item 6 of issue 10: a rejection can name what the order is about, so it goes to the seat
/// whose key signed the order, at its registered address, and never to the From of the mail
/// (this test used to expect the answer at bob@work).
#[test]
fn a_rejection_of_a_signed_order_goes_to_the_seats_address_and_names_the_field_and_what_is_accepted()
 {
    let t = mail_table();
    let doc = t.order("beeler", "orders: {}\n").replace(
        &format!("basis: {}", t.head()),
        &format!("basis: {}", "0".repeat(64)),
    );
    let f = t.signed("beeler", "stale", &doc);
    let m = letter(
        "Bob at work <bob@work.example.org>",
        HOST_ADDRESS,
        TAG,
        "",
        &[("stale.yaml", "application/yaml", &std::fs::read(f).unwrap())],
        &[],
    );
    let (code, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("rejected")), "{v}");
    let a = answer(&t, &v);
    let to = a.header("to").unwrap();
    assert!(
        to.contains(&email("beeler")) && !to.contains("bob@work"),
        "{to}"
    );
    let text = body(&a);
    assert!(
        text.contains("stale.yaml:"),
        "the player's own file name: {text}"
    );
    assert!(
        text.contains("field: basis") && text.contains("accepted:"),
        "{text}"
    );
    assert!(text.contains("nothing in the game changed"), "{text}");
    assert_eq!(t.status()["received"], serde_json::json!([]));
}

#[test]
fn a_forged_from_is_reported_and_the_receipt_goes_to_the_seats_own_address() {
    let t = mail_table();
    let m = mail_with_signed_order(&t, "mallory@evil.example.org", "beeler");
    let (code, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("accepted")), "{v}");
    assert!(
        v["detail"].as_str().unwrap().contains("sender mismatch"),
        "{v}"
    );
    let a = answer(&t, &v);
    let to = a.header("to").unwrap();
    assert!(
        to.contains(&email("beeler")) && !to.contains("evil"),
        "{to}"
    );
    assert!(
        body(&a).contains("mallory@evil.example.org"),
        "the seat is told"
    );
}

/// Beeler's order signed with the mercenary's key, mailed from beeler's address: the key is a
/// seat's, so that seat (the mercenary) is told exactly what is wrong, at its own address; the
/// From (beeler's, perhaps forged by the mercenary) gets nothing. Before issue 10 the answer
/// went to the From.
#[test]
fn an_order_signed_with_another_seats_key_is_answered_at_that_seats_address_only() {
    let t = mail_table();
    let doc = t.order("beeler", "orders: {}\n");
    let f = t.signed("mercenary", "wrongkey", &doc); // beeler's order, mercenary's key
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "",
        &[(
            "orders.yaml",
            "application/yaml",
            &std::fs::read(f).unwrap(),
        )],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!(v["verdict"], "rejected", "{v}");
    let a = answer(&t, &v);
    assert_eq!(recipients(&t), vec![email("mercenary")]);
    assert!(body(&a).contains("signature check failed for side beeler"));
}

#[test]
fn a_broken_mime_structure_gets_a_clear_rejection() {
    let t = mail_table();
    let m = format!(
        "From: {}\r\nTo: {HOST_ADDRESS}\r\nSubject: {TAG}\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"never-used\"\r\n\r\n\
--wrong-boundary\r\nContent-Type: application/yaml\r\nContent-Transfer-Encoding: base64\r\n\r\n\
cGJlbTog%%%broken\r\n",
        email("beeler")
    );
    let (code, v, _) = ingest_file(&t.game, &write(&t, "broken.eml", m.as_bytes()), T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("rejected")), "{v}");
    assert!(
        body(&answer(&t, &v)).contains("MIME structure is broken"),
        "{v}"
    );
}

/// A message of about 50 MB: one huge base64 attachment.
fn huge_message(t: &Table) -> PathBuf {
    let p = t.path("huge.eml");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    use std::io::Write;
    write!(
        f,
        "From: {}\r\nTo: {HOST_ADDRESS}\r\nSubject: {TAG}\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: application/octet-stream\r\n\
Content-Disposition: attachment; filename=\"map.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n",
        email("beeler")
    )
    .unwrap();
    let line = format!("{}\r\n", "QUFB".repeat(19));
    for _ in 0..(50 * 1024 * 1024 / line.len()) {
        f.write_all(line.as_bytes()).unwrap();
    }
    f.write_all(b"--b--\r\n").unwrap();
    f.flush().unwrap();
    p
}

#[test]
fn a_50_mb_message_is_refused_above_the_size_limit_and_only_its_head_is_kept() {
    let t = mail_table();
    let huge = huge_message(&t);
    let (code, v, _) = ingest_file(&t.game, &huge, T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("rejected")), "{v}");
    assert!(v["size"].as_u64().unwrap() > 50_000_000);
    assert!(body(&answer(&t, &v)).contains("above this host's limit of 10485760 bytes"));
    let kept: Vec<u64> = files(&t.game.join("mail/in"))
        .iter()
        .filter(|(n, _)| n.ends_with(".eml"))
        .map(|(_, b)| b.len() as u64)
        .collect();
    assert_eq!(kept, vec![64 * 1024], "only the head is recorded");
}

#[test]
fn a_50_mb_message_on_standard_input_is_read_to_its_end_and_refused() {
    let t = mail_table();
    let bytes = std::fs::read(huge_message(&t)).unwrap();
    let (code, v) = ingest_stdin(&t.game, &bytes, T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("rejected")), "{v}");
    assert_eq!(v["size"].as_u64(), Some(bytes.len() as u64));
}

#[test]
fn automatic_messages_are_recorded_and_never_answered() {
    let t = mail_table();
    let order = signed_bytes(&t, "beeler");
    let cases: [(&str, &[(&str, &str)]); 7] = [
        ("auto-reply", &[("Auto-Submitted", "auto-replied")]),
        ("vacation", &[("Precedence", "bulk")]),
        ("junk", &[("Precedence", "junk")]),
        ("list", &[("List-Id", "<wargames.lists.example.org>")]),
        ("bounce", &[("Return-Path", "<>")]),
        ("spam", &[("X-Spam-Flag", "YES")]),
        ("auto-reply2", &[("X-Autoreply", "yes")]),
    ];
    for (name, headers) in cases {
        let m = letter(
            &email("beeler"),
            HOST_ADDRESS,
            TAG,
            "I am away.",
            &[("signed.yaml", "application/yaml", &order)],
            headers,
        );
        let (code, v, _) = ingest_file(&t.game, &write(&t, name, &m), T0);
        assert_eq!(
            (code, v["verdict"].as_str()),
            (0, Some("ignored")),
            "{name}: {v}"
        );
        assert!(v["reply"].is_null(), "{name}");
    }
    let m = letter(
        "MAILER-DAEMON@mx.example.org",
        HOST_ADDRESS,
        "Undelivered Mail Returned to Sender",
        "delivery failed",
        &[],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "daemon", &m), T0);
    assert_eq!(v["verdict"], "ignored", "{v}");
    assert!(replies(&t).is_empty(), "no answer to anything automatic");
    assert_eq!(
        t.status()["received"],
        serde_json::json!([]),
        "and no order filed"
    );
    let records = files(&t.game.join("mail/in"));
    assert_eq!(
        records.len(),
        2 * 8,
        "each recorded: the message and its verdict"
    );
}

#[test]
fn mail_from_the_hosts_own_address_is_never_answered() {
    let t = mail_table();
    let m = letter(HOST_ADDRESS, HOST_ADDRESS, TAG, "loop?", &[], &[]);
    let (_, v, _) = ingest_file(&t.game, &write(&t, "self.eml", &m), T0);
    assert_eq!(v["verdict"], "ignored", "{v}");
    assert!(replies(&t).is_empty());
}

#[test]
fn a_message_with_neither_tag_nor_order_is_ignored() {
    let t = mail_table();
    let m = letter(
        "someone@example.org",
        HOST_ADDRESS,
        "Cheap watches",
        "Buy now",
        &[],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "spam.eml", &m), T0);
    assert_eq!(v["verdict"], "ignored", "{v}");
    assert!(replies(&t).is_empty());
}

#[test]
fn a_tagged_message_without_an_order_gets_instructions() {
    let t = mail_table();
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "When is the deadline?",
        &[],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "q.eml", &m), T0);
    assert_eq!(v["verdict"], "rejected", "{v}");
    assert!(body(&answer(&t, &v)).contains("ssh-keygen -Y sign -n pbem"));
}

#[test]
fn two_different_orders_in_one_message_are_refused() {
    let t = mail_table();
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "",
        &[
            ("a.yaml", "application/yaml", &signed_bytes(&t, "beeler")),
            ("b.yaml", "application/yaml", &signed_bytes(&t, "mercenary")),
        ],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "two.eml", &m), T0);
    assert_eq!(v["verdict"], "rejected", "{v}");
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .contains("one order per message")
    );
    assert_eq!(t.status()["received"], serde_json::json!([]));
}

#[test]
fn an_unsigned_order_file_is_rejected_with_how_to_sign_it() {
    let t = mail_table();
    let doc = t.order("beeler", "orders: {}\n");
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "",
        &[("orders.yaml", "application/yaml", doc.as_bytes())],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "unsigned.eml", &m), T0);
    assert_eq!(v["verdict"], "rejected", "{v}");
    let text = body(&answer(&t, &v));
    assert!(text.contains("the file is not signed"), "{text}");
    assert!(text.contains("pbem sign ORDERS --key KEY"), "{text}");
}

// Who gets what answer (issue 10, items 5 and 6): only a seat's signature earns a detailed
// answer, at that seat's registered address; anything else gets a fixed text, once a day, and
// only at a seat's registered address.

const ATTACKER: &str = "ATTACKER-TEXT-";

/// An unsigned order whose `game:` is 5 MB of the attacker's text (before issue 10 the
/// rejection quoted it in full, to the Reply-To).
fn five_mb_order(t: &Table) -> String {
    order_with_game_of(t, 5 * 1024 * 1024)
}

/// An order whose `game:` is `bytes` of the attacker's text.
fn order_with_game_of(t: &Table, bytes: usize) -> String {
    format!(
        "pbem: order/2\ngame: {}\nstep: 1\nside: beeler\nbasis: {}\nentropy: auto\norders: {{}}\n",
        ATTACKER.repeat(bytes / ATTACKER.len()),
        t.head()
    )
}

/// A message carrying `doc`, with the attacker's text in every other place it could be echoed.
fn attacker_mail(from: &str, reply_to: Option<&str>, doc: &[u8]) -> Vec<u8> {
    let headers: Vec<(&str, &str)> = reply_to.map(|r| ("Reply-To", r)).into_iter().collect();
    letter(
        from,
        HOST_ADDRESS,
        &format!("{TAG} {ATTACKER}subject"),
        &format!("{ATTACKER}body"),
        &[("ATTACKER-TEXT-name.yaml", "application/yaml", doc)],
        &headers,
    )
}

#[test]
fn an_unsigned_order_with_5_mb_of_text_from_a_stranger_is_recorded_and_never_answered() {
    let t = mail_table();
    let m = attacker_mail(
        "victim@elsewhere.example.org",
        Some("other-victim@elsewhere.example.org"),
        five_mb_order(&t).as_bytes(),
    );
    let (code, v, err) = ingest_file(&t.game, &write(&t, "big.eml", &m), T0);
    assert_eq!(
        (code, v["verdict"].as_str()),
        (0, Some("rejected")),
        "{v}{err}"
    );
    assert!(v["reply"].is_null(), "{}", v["detail"]);
    assert!(replies(&t).is_empty(), "no mail to a stranger");
    let record = v.to_string();
    assert!(
        record.len() < 4096 && record.matches(ATTACKER).count() <= 2,
        "the record keeps at most the (bounded) subject and file name, never the order: {}",
        &record[..record.len().min(600)]
    );
}

#[test]
fn an_unsigned_order_with_5_mb_of_text_from_a_seats_address_gets_only_the_short_fixed_answer() {
    let t = mail_table();
    let m = attacker_mail(&email("beeler"), None, five_mb_order(&t).as_bytes());
    let (_, v, _) = ingest_file(&t.game, &write(&t, "big.eml", &m), T0);
    assert_eq!(v["verdict"], "rejected", "{v}");
    let key = v["reply"].as_str().expect("a fixed answer");
    let raw = &outbox(&t)[key];
    assert!(raw.len() <= 4096, "{} bytes", raw.len());
    let text = String::from_utf8_lossy(raw);
    assert!(!text.contains(ATTACKER), "{text}");
    let a = answer(&t, &v);
    assert_eq!(recipients(&t), vec![email("beeler")]);
    assert_eq!(a.subject, "[pbem kummen-test] not accepted");
    assert_eq!(
        a.header("in-reply-to"),
        None,
        "not even the Message-ID is repeated"
    );
    // 5 MB is above the order size limit: refused unread, and said so in fixed words.
    assert!(
        body(&a).contains("above the limit of 1048576 bytes"),
        "{}",
        body(&a)
    );
}

#[test]
fn a_signed_order_mailed_by_a_stranger_is_rejected_at_the_seats_address_only() {
    let t = mail_table();
    let f = t.signed(
        "beeler",
        "rp12",
        &t.order("beeler", "orders:\n  policies: {rp_target: 12}\n"),
    );
    let m = attacker_mail(
        "victim@elsewhere.example.org",
        Some("other-victim@elsewhere.example.org"),
        &std::fs::read(f).unwrap(),
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!(
        (v["verdict"].as_str(), v["side"].as_str()),
        (Some("rejected"), Some("beeler")),
        "{v}"
    );
    assert_eq!(
        recipients(&t),
        vec![email("beeler")],
        "nothing to the strangers"
    );
    let text = body(&answer(&t, &v));
    assert!(text.contains("rule: 4.3.5"), "{text}");
    assert!(!text.contains("victim"), "{text}");
}

/// A key of no seat signs beeler's order; the mail comes from beeler's own address.
#[test]
fn an_order_signed_by_a_key_of_no_seat_gets_only_the_fixed_answer_even_from_the_seats_address() {
    let t = mail_table();
    ok(&["keygen", "--out", t.path("keys/forger").to_str().unwrap()]);
    let forged = |side: &str, name: &str| {
        let f = t.signed("forger", name, &t.order(side, "orders: {}\n"));
        letter(
            &email(side),
            HOST_ADDRESS,
            TAG,
            "",
            &[(
                &format!("{name}.yaml"),
                "application/yaml",
                &std::fs::read(f).unwrap(),
            )],
            &[],
        )
    };
    let (_, v, _) = ingest_file(
        &t.game,
        &write(&t, "b.eml", &forged("beeler", "forged-b")),
        T0,
    );
    assert_eq!(v["verdict"], "rejected", "{v}");
    let key = v["reply"].as_str().expect("a fixed answer");
    assert!(outbox(&t)[key].len() <= 4096);
    let text = body(&answer(&t, &v));
    for echo in ["forged-b", "signature check failed", "SHA256:", "beeler"] {
        assert!(!text.contains(echo), "{echo:?} in {text}");
    }
    assert!(
        text.contains("not validly signed by the key of a seat"),
        "{text}"
    );
    // Fixed: another forged order, from another seat's address, gets the very same text.
    let (_, w, _) = ingest_file(
        &t.game,
        &write(&t, "m.eml", &forged("mercenary", "other")),
        T0,
    );
    assert_eq!(body(&answer(&t, &w)), text);
}

#[test]
fn fixed_answers_go_to_an_address_at_most_once_a_utc_day() {
    let t = mail_table();
    let question = |side: &str, n: u32, now: &str| {
        let m = letter(
            &email(side),
            HOST_ADDRESS,
            TAG,
            &format!("question {n}"),
            &[],
            &[],
        );
        let (_, v, _) = ingest_file(&t.game, &write(&t, &format!("q{n}.eml"), &m), now);
        assert_eq!(v["verdict"], "rejected", "{v}");
        v
    };
    assert!(question("beeler", 1, T0)["reply"].is_string());
    let again = question("beeler", 2, &at(11)); // 23:00 UTC, the same day
    assert!(again["reply"].is_null(), "{again}");
    assert!(
        again["detail"]
            .as_str()
            .unwrap()
            .contains("already had its fixed answer of the day"),
        "{again}"
    );
    assert!(
        question("mercenary", 3, &at(11))["reply"].is_string(),
        "another address"
    );
    assert!(
        question("beeler", 4, &at(13))["reply"].is_string(),
        "the next day"
    );
    assert_eq!(
        files(&t.game.join("mail/fixed-answers/2026-05-01")).len(),
        2,
        "the day's answers are recorded under mail/"
    );
}

#[test]
fn a_seats_own_rejection_is_cut_to_a_bounded_size_with_a_note() {
    let t = mail_table();
    // Just under the 1 MiB order limit, so it is read and refused for its contents.
    let f = t.signed("beeler", "huge", &order_with_game_of(&t, 900 * 1024));
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "",
        &[("huge.yaml", "application/yaml", &std::fs::read(f).unwrap())],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "huge.eml", &m), T0);
    assert_eq!(
        (v["verdict"].as_str(), v["side"].as_str()),
        (Some("rejected"), Some("beeler")),
        "{v}"
    );
    let key = v["reply"].as_str().expect("a rejection");
    let size = outbox(&t)[key].len();
    assert!(size < 64 * 1024, "{size} bytes");
    let text = body(&answer(&t, &v));
    assert!(
        text.len() < 8 * 1024,
        "the 5 MB value is quoted in at most a few characters: {} bytes",
        text.len()
    );
    assert!(
        text.contains("field: game") && text.contains("accepted: kummen-test"),
        "what to fix survives the cut: {text}"
    );
    assert!(
        v["detail"].as_str().unwrap().len() < 5000,
        "the record is bounded too"
    );
}

#[test]
fn a_receipt_echoes_at_most_32_kib_of_the_order() {
    let t = mail_table();
    // A comment after a value: `pbem sign` keeps it (it drops only whole-line comments).
    let block = format!("orders: {{}} # {}\n", "x".repeat(100_000));
    let f = t.signed("beeler", "long", &t.order("beeler", &block));
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        TAG,
        "",
        &[("long.yaml", "application/yaml", &std::fs::read(f).unwrap())],
        &[],
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "long.eml", &m), T0);
    assert_eq!(v["verdict"], "accepted", "{v}");
    let text = body(&answer(&t, &v));
    assert!(text.len() < 40 * 1024, "{} bytes", text.len());
    assert!(
        text.contains("[cut here: the order is"),
        "{}",
        &text[text.len() - 300..]
    );
}

/// A hot-seat game where both seats have one key: the side the signed order names is the seat
/// that gets the answer.
#[test]
fn when_seats_share_a_key_the_side_the_order_names_gets_the_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let keys = tmp.path().join("keys");
    ok(&["keygen", "--out", keys.join("beeler").to_str().unwrap()]);
    for ext in ["", ".pub"] {
        std::fs::copy(
            keys.join(format!("beeler{ext}")),
            keys.join(format!("mercenary{ext}")),
        )
        .unwrap();
    }
    let t = Table {
        game: tmp.path().join("game"),
        tmp,
        id: "kummen-test".into(),
        versions: Default::default(),
    };
    let shared = keys.join("beeler.pub");
    ok(&[
        "new",
        t.dir(),
        "--system",
        "kummen",
        "--id",
        "kummen-test",
        "--seat",
        &format!("mercenary={}", shared.display()),
        "--seat",
        &format!("beeler={}", shared.display()),
        "--email",
        &format!("mercenary={}", email("mercenary")),
        "--email",
        &format!("beeler={}", email("beeler")),
        "--mail-from",
        HOST,
        "--now",
        T0,
    ]);
    let f = t.signed(
        "beeler",
        "rp12",
        &t.order("beeler", "orders:\n  policies: {rp_target: 12}\n"),
    );
    let m = attacker_mail(
        "victim@elsewhere.example.org",
        None,
        &std::fs::read(f).unwrap(),
    );
    let (_, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!(v["side"], "beeler", "{v}");
    assert_eq!(recipients(&t), vec![email("beeler")]);
}

/// Before issue 10 the receipt of a seat without an address went to whoever sent the mail,
/// and it echoes the orders. The sender is not verified (anyone can mail a copy of a signed
/// order), so now it is filed and nothing is mailed, as for views and reminders.
#[test]
fn a_signed_order_of_a_seat_without_an_address_is_filed_and_mailed_to_no_one() {
    let t = mail_table();
    let config = t.game.join("mail/addresses.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    let without = text.replace(&format!("  email: {}\n", email("beeler")), "");
    assert_ne!(text, without);
    std::fs::write(&config, without).unwrap();
    let m = mail_with_signed_order(&t, "someone@elsewhere.example.org", "beeler");
    let (_, v, _) = ingest_file(&t.game, &write(&t, "m.eml", &m), T0);
    assert_eq!(v["verdict"], "accepted", "{v}");
    assert!(v["reply"].is_null(), "{v}");
    assert!(
        v["detail"]
            .as_str()
            .unwrap()
            .contains("side beeler has no address"),
        "{v}"
    );
    assert!(replies(&t).is_empty());
}

#[test]
fn the_same_message_delivered_twice_is_handled_once() {
    let t = mail_table();
    let f = write(
        &t,
        "m.eml",
        &mail_with_signed_order(&t, &email("beeler"), "beeler"),
    );
    let (_, first, _) = ingest_file(&t.game, &f, T0);
    assert_eq!(first["verdict"], "accepted");
    let before = outbox(&t);
    let (code, again, _) = ingest_file(&t.game, &f, &at(1));
    assert_eq!(
        (code, again["verdict"].as_str()),
        (0, Some("duplicate")),
        "{again}"
    );
    assert_eq!(outbox(&t), before, "no second answer");
}

#[test]
fn an_order_for_a_finished_game_is_rejected() {
    let t = mail_table();
    let demo = t.path("demo");
    ok(&["demo", "kummen", "--keep", demo.to_str().unwrap()]);
    let game = demo.join("game");
    // Rejections go to the seat's registered address, so beeler needs one.
    let mut config = std::fs::read_to_string(game.join("game.yaml"))
        .unwrap()
        .replace(
            "- side: beeler\n",
            &format!("- side: beeler\n  email: {}\n", email("beeler")),
        );
    config.push_str(&format!("mail:\n  from: {HOST_ADDRESS}\n"));
    std::fs::write(game.join("game.yaml"), config).unwrap();
    let doc = "pbem: order/2\ngame: kummen-demo\nstep: 99\nside: beeler\nbasis: x\nentropy: auto\norders: {}\n";
    std::fs::write(t.path("late.plain"), doc).unwrap();
    let signed = t.path("late.yaml");
    ok(&[
        "sign",
        t.path("late.plain").to_str().unwrap(),
        "--key",
        demo.join("keys/beeler").to_str().unwrap(),
        "-o",
        signed.to_str().unwrap(),
    ]);
    let m = letter(
        &email("beeler"),
        HOST_ADDRESS,
        "[pbem kummen-demo] orders",
        "",
        &[(
            "late.yaml",
            "application/yaml",
            &std::fs::read(&signed).unwrap(),
        )],
        &[],
    );
    let (code, v, _) = ingest_file(&game, &write(&t, "late.eml", &m), T0);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("rejected")), "{v}");
    let key = v["reply"].as_str().unwrap();
    let a = letters::read(&game.join("outbox").join(format!("{key}.eml")));
    assert!(body(&a).contains("the game is over"), "{}", body(&a));
}

#[test]
fn under_a_root_of_many_games_an_order_finds_its_own_game() {
    let t = mail_table();
    let root = t.path("games");
    std::fs::create_dir_all(&root).unwrap();
    let moved = root.join("k1");
    std::fs::rename(&t.game, &moved).unwrap();
    let t = Table {
        tmp: t.tmp,
        game: moved,
        id: t.id,
        versions: Default::default(),
    };
    let m = mail_with_signed_order(&t, &email("beeler"), "beeler");
    let (code, v, _) = ingest_file(&root, &write(&t, "m.eml", &m), T0);
    assert_eq!(
        (code, v["verdict"].as_str(), v["game"].as_str()),
        (0, Some("accepted"), Some("kummen-test")),
        "{v}"
    );
    let stray = letter(
        &email("beeler"),
        HOST_ADDRESS,
        "[pbem no-such-game] orders",
        "",
        &[],
        &[],
    );
    let (_, v, _) = ingest_file(&root, &write(&t, "stray.eml", &stray), T0);
    assert_eq!(v["verdict"], "ignored", "{v}");
    assert_eq!(
        files(&root.join("unmatched-mail")).len(),
        2,
        "recorded at the root"
    );
}

fn maildir(t: &Table) -> PathBuf {
    let m = t.path("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(m.join(d)).unwrap();
    }
    m
}

fn deliver(m: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(m.join("new").join(name), bytes).unwrap();
}

fn ingest_maildir(t: &Table, m: &Path) -> (i32, Vec<serde_json::Value>) {
    let (code, out, err) = run(&[
        "ingest",
        t.dir(),
        "--maildir",
        m.to_str().unwrap(),
        "--now",
        T0,
        "--json",
    ]);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}")),
    )
}

#[test]
fn one_bad_message_never_stops_a_maildir_batch() {
    let t = mail_table();
    let m = maildir(&t);
    deliver(
        &m,
        "1.broken",
        b"From: x@example.org\r\nContent-Type: multipart/mixed; boundary=q\r\n\r\n\x00\xff garbage",
    );
    deliver(&m, "2.huge", &std::fs::read(huge_message(&t)).unwrap());
    deliver(&m, "3.empty", b"");
    deliver(
        &m,
        "4.bounce",
        &letter(
            "MAILER-DAEMON@x.example.org",
            HOST_ADDRESS,
            "failure",
            "",
            &[],
            &[],
        ),
    );
    deliver(
        &m,
        "5.order",
        &mail_with_signed_order(&t, &email("beeler"), "beeler"),
    );
    let (code, results) = ingest_maildir(&t, &m);
    assert_eq!(code, 0, "{results:#?}");
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["ignored", "rejected", "ignored", "ignored", "accepted"]
    );
    assert_eq!(std::fs::read_dir(m.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(m.join("cur")).unwrap().count(), 5);
    assert!(m.join("cur/5.order:2,S").exists());
}

#[test]
fn a_message_that_cannot_be_handled_now_stays_in_new_and_the_others_go_on() {
    let t = mail_table();
    let m = maildir(&t);
    deliver(
        &m,
        "1.order",
        &mail_with_signed_order(&t, &email("beeler"), "beeler"),
    );
    deliver(
        &m,
        "2.bounce",
        &letter(
            "MAILER-DAEMON@x.example.org",
            HOST_ADDRESS,
            "failure",
            "",
            &[],
            &[],
        ),
    );
    // Another command holds the game's lock, so the order cannot be filed right now.
    let lock = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(t.game.join("host/lock"))
        .unwrap();
    lock.lock().unwrap();
    let (code, results) = ingest_maildir(&t, &m);
    assert_eq!(code, 1, "{results:#?}");
    assert!(
        results[0]["error"]
            .as_str()
            .unwrap()
            .contains("another pbem process")
    );
    assert_eq!(results[1]["verdict"], "ignored");
    assert!(m.join("new/1.order").exists(), "left for the next run");
    drop(lock);
    let (code, results) = ingest_maildir(&t, &m);
    assert_eq!(code, 0);
    assert_eq!(results[0]["verdict"], "accepted", "{results:#?}");
}

/// Messages of one Maildir run share their flushes, in batches of at most one message per
/// game: a seat's second version, in the same run, still finds the first filed and replaces
/// it, and the step's list of earlier versions names the first.
#[test]
fn two_versions_of_a_seats_order_in_one_maildir_run_are_filed_in_turn_and_the_newer_replaces_the_older()
 {
    let t = mail_table();
    let m = maildir(&t);
    deliver(
        &m,
        "1.first",
        &mail_with_signed_order(&t, &email("beeler"), "beeler"),
    );
    deliver(
        &m,
        "2.newer",
        &mail_with_signed_order(&t, &email("beeler"), "beeler"),
    );
    let (code, results) = ingest_maildir(&t, &m);
    assert_eq!(code, 0, "{results:#?}");
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["accepted", "accepted"], "{results:#?}");
    let first = results[0]["order"].as_str().unwrap();
    let earlier =
        std::fs::read_to_string(t.game.join("inbox/000001-beeler.replaced.yaml")).unwrap();
    assert!(earlier.contains(first), "{earlier}");
    assert!(
        body(&answer(&t, &results[1])).contains(&format!("replaces your earlier order {first}")),
        "the second receipt names the order it replaced"
    );
}

#[test]
fn the_same_message_twice_in_one_maildir_run_is_handled_once_and_then_found_a_duplicate() {
    let t = mail_table();
    let m = maildir(&t);
    let message = mail_with_signed_order(&t, &email("beeler"), "beeler");
    deliver(&m, "1.order", &message);
    deliver(&m, "2.again", &message);
    let (code, results) = ingest_maildir(&t, &m);
    assert_eq!(code, 0, "{results:#?}");
    assert_eq!(results[0]["verdict"], "accepted", "{results:#?}");
    assert_eq!(results[1]["verdict"], "duplicate", "{results:#?}");
    assert_eq!(replies(&t).len(), 1, "answered once");
    assert_eq!(std::fs::read_dir(m.join("cur")).unwrap().count(), 2);
}

mod no_panic {
    use pbem::engine::mail::{classify, extract, parse};
    use proptest::prelude::*;

    fn read(bytes: &[u8]) {
        if let Some(m) = parse::parse(bytes) {
            let _ = classify::automatic(&m);
            let found = extract::find(&m.parts);
            for c in &found.orders {
                let _ = extract::game_id(&c.doc);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn any_bytes_are_read_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            read(&bytes);
        }

        #[test]
        fn any_mime_body_is_read_without_a_panic(
            body in "[ -~\r\n]{0,600}",
            boundary in "[a-z=_-]{1,8}",
        ) {
            let m = format!(
                "From: a@example.org\r\nSubject: [pbem g] x\r\nContent-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\nContent-Disposition: attachment; filename=o.yaml.sig\r\nContent-Transfer-Encoding: base64\r\n\r\n{body}\r\n--{boundary}\r\nContent-Type: text/plain\r\n\r\n# -----BEGIN SSH SIGNATURE-----\r\n{body}"
            );
            read(m.as_bytes());
        }
    }
}
