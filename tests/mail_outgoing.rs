//! Mail that pbem sends: each side its own view, board picture and the report, observers the
//! report and the public board,
//! reminders once per side and step, deterministic bytes, no header from game data, nothing
//! hidden from a side in any mail to it, and delivery by a sendmail program.

mod common;
mod smtp;

use common::*;
use pbem::systems::kummen::data::Side;
use pbem::systems::kummen::state::{State, hidden_slots, permute_hidden};
use proptest::prelude::*;
use smtp::game::*;
use smtp::letters::body;
use std::collections::BTreeMap;

fn mail_of(bytes: &[u8]) -> pbem::engine::mail::parse::Mail {
    pbem::engine::mail::parse::parse(bytes).expect("a message")
}

fn attachment_names(bytes: &[u8]) -> Vec<String> {
    mail_of(bytes)
        .parts
        .iter()
        .filter_map(|p| p.name.clone())
        .collect()
}

#[test]
fn each_side_gets_its_own_view_the_report_and_a_skeleton_and_observers_the_report_and_public_board()
{
    let t = mail_table();
    play_step_at(&t, &at(1));
    let q = outbox(&t);
    let beeler = &q["kummen-test.000001.view.beeler"];
    let names = attachment_names(beeler);
    assert!(
        names.contains(&"view-000001-beeler.yaml".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"report-000001.txt".to_string()),
        "{names:?}"
    );
    assert!(!names.iter().any(|n| n.contains("mercenary")), "{names:?}");
    let m = mail_of(beeler);
    assert!(m.header("to").unwrap().contains("Bob Beeler"));
    assert!(
        m.subject.starts_with("[pbem kummen-test] record 1"),
        "{}",
        m.subject
    );
    let observer: Vec<_> = q
        .iter()
        .filter(|(k, _)| k.contains(".000001.report."))
        .collect();
    assert_eq!(observer.len(), 1);
    let o = mail_of(observer[0].1);
    assert!(o.header("to").unwrap().contains(OBSERVER));
    assert_eq!(
        attachment_names(observer[0].1),
        ["board-000001-public.png", "board-000001-public.svg"]
    );
    assert!(body(&o).starts_with("pbem report: game kummen-test"));
}

#[test]
fn the_turn_mail_carries_the_sides_board_as_the_png_and_svg_pbem_map_draws() {
    let t = mail_table();
    play_step_at(&t, &at(1));
    let m = mail_of(&outbox(&t)["kummen-test.000001.view.beeler"]);
    let part = |name: &str| {
        m.parts
            .iter()
            .find(|p| p.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no attachment {name}"))
    };
    let png = part("board-000001-beeler.png");
    assert_eq!(png.content_type, "image/png");
    let (w, h) = pbem::kit::picture::png::size_of(&png.body).expect("a PNG");
    assert!(w >= 1000 && h >= 600, "{w} x {h}");
    let svg = part("board-000001-beeler.svg");
    assert_eq!(svg.content_type, "image/svg+xml");
    let drawn = ok(&["map", t.dir(), "--side", "beeler", "--record", "1"]);
    assert_eq!(String::from_utf8(svg.body.clone()).unwrap(), drawn);
    let png_file = t.path("board.png");
    ok(&[
        "map",
        t.dir(),
        "--side",
        "beeler",
        "--record",
        "1",
        "-o",
        png_file.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&png_file).unwrap(), png.body);
}

#[test]
fn without_a_host_address_no_mail_is_queued() {
    let t = Table::kummen();
    t.play_step(&[]);
    assert!(outbox(&t).is_empty());
}

#[test]
fn queueing_again_later_gives_the_same_bytes() {
    let t = mail_table();
    play_step_at(&t, &at(1));
    let first: BTreeMap<_, _> = outbox(&t)
        .into_iter()
        .filter(|(k, _)| k.contains(".000001."))
        .collect();
    assert_eq!(first.len(), 3);
    for k in first.keys() {
        std::fs::remove_file(t.game.join("outbox").join(format!("{k}.eml"))).unwrap();
    }
    // `send` queues what is missing; Date and Message-ID come from the game, not the clock.
    let dir = send_to_dir(&t, "out", &at(30));
    for (k, bytes) in &first {
        assert_eq!(
            &std::fs::read(dir.join(format!("{k}.eml"))).unwrap(),
            bytes,
            "{k}"
        );
    }
}

#[test]
fn a_message_is_never_queued_twice() {
    let t = mail_table();
    send_to_dir(&t, "out", T0);
    assert_eq!(files(&t.game.join("mail/sent")).len(), 3);
    let again = send_to_dir(&t, "out2", &at(1));
    assert!(
        files(&again).is_empty(),
        "already delivered: nothing queued again"
    );
}

#[test]
fn a_processed_step_records_when_the_next_step_opened_and_mails_its_deadline() {
    let t = mail_table();
    play_step_at(&t, &at(5));
    let clock = std::fs::read_to_string(t.game.join("host/clock/000002.yaml")).unwrap();
    assert!(clock.contains("2026-05-01T17:00:00Z"), "{clock}");
    let q = outbox(&t);
    let waiting = t.status()["waiting_for"][0].as_str().unwrap().to_string();
    let m = mail_of(&q[&format!("kummen-test.000001.view.{waiting}")]);
    assert_eq!(m.header("date"), Some("Fri, 01 May 2026 17:00:00 +0000"));
    assert!(
        body(&m).contains("by 2026-05-04T17:00:00Z (UTC)"),
        "{}",
        body(&m)
    );
}

#[test]
fn reminders_are_queued_once_per_missing_side_when_due() {
    let t = mail_table();
    let f = t.signed("beeler", "b", &t.order("beeler", "orders: {}\n"));
    assert_eq!(t.submit(&f).0, 0);
    let remind = |now: &str| -> serde_json::Value {
        serde_json::from_str(&ok(&["remind", t.dir(), "--now", now, "--json"])).unwrap()
    };
    let early = remind(&at(47));
    assert_eq!(early[0]["reminders"], serde_json::json!([]), "{early}");
    assert!(
        early[0]["note"]
            .as_str()
            .unwrap()
            .contains("not due before 2026-05-03T12:00:00Z")
    );
    let due = remind(&at(48));
    let outcomes: Vec<(&str, &str)> = due[0]["reminders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["side"].as_str().unwrap(), r["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(outcomes, [("mercenary", "queued")], "beeler's order is in");
    let again = remind(&at(60));
    assert_eq!(again[0]["reminders"][0]["outcome"], "already queued");
    let m = mail_of(&outbox(&t)["kummen-test.step000001.remind.mercenary"]);
    assert!(m.header("to").unwrap().contains(&email("mercenary")));
    assert!(body(&m).contains("by 2026-05-04T12:00:00Z (UTC)"));
    assert!(
        attachment_names(&outbox(&t)["kummen-test.step000001.remind.mercenary"])
            .contains(&"orders-step-1-mercenary.yaml".to_string())
    );
}

#[test]
fn a_line_break_in_a_players_name_creates_no_header() {
    let t = mail_table();
    let config = std::fs::read_to_string(t.game.join("game.yaml")).unwrap();
    let hostile = config.replace(
        "name: Bob Beeler",
        "name: \"Bob\\r\\nBcc: evil@example.org\\r\\nSubject: owned\"",
    );
    assert_ne!(config, hostile);
    std::fs::write(t.game.join("game.yaml"), hostile).unwrap();
    play_step_at(&t, &at(1));
    let raw = &outbox(&t)["kummen-test.000001.view.beeler"];
    let text = String::from_utf8_lossy(raw);
    for line in text.lines() {
        let l = line.to_ascii_lowercase();
        assert!(
            !l.starts_with("bcc:") && !l.starts_with("subject: owned"),
            "{line}"
        );
    }
    let m = mail_of(raw);
    assert_eq!(m.headers.iter().filter(|(n, _)| n == "subject").count(), 1);
    assert!(m.header("to").unwrap().contains(&email("beeler")));
}

#[test]
fn an_address_with_a_line_break_is_refused_naming_the_field() {
    let t = mail_table();
    let config = std::fs::read_to_string(t.game.join("mail/addresses.yaml")).unwrap();
    std::fs::write(
        t.game.join("mail/addresses.yaml"),
        config.replace(
            &format!("- {OBSERVER}"),
            "- \"ref@example.org\\r\\nBcc: evil@example.org\"",
        ),
    )
    .unwrap();
    let (code, out, err) = run(&[
        "send",
        t.dir(),
        "--to-dir",
        t.path("o").to_str().unwrap(),
        "--now",
        T0,
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("mail.observers[0]") && err.contains("line break"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "new",
        t.path("g2").to_str().unwrap(),
        "--system",
        "kummen",
        "--seat",
        &format!("mercenary={}", t.path("keys/mercenary.pub").display()),
        "--seat",
        &format!("beeler={}", t.path("keys/beeler.pub").display()),
        "--mail-from",
        "host@example.org\nBcc: evil@example.org",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("mail.from"), "{err}");
}

#[test]
fn a_hostile_subject_from_a_player_reaches_no_header_of_the_answer() {
    let t = mail_table();
    let m = smtp::letters::letter(
        &email("beeler"),
        HOST_ADDRESS,
        "[pbem kummen-test] x\r\nBcc: evil@example.org",
        "no order here",
        &[],
        &[],
    );
    let f = t.path("hostile.eml");
    std::fs::write(&f, m).unwrap();
    let (_, v, _) = ingest_file(&t.game, &f, T0);
    let raw = &outbox(&t)[v["reply"].as_str().unwrap()];
    assert!(
        !String::from_utf8_lossy(raw)
            .lines()
            .any(|l| l.to_ascii_lowercase().starts_with("bcc:"))
    );
}

/// Issue 10, item 5: whatever path composes a message, the outbox lets at most 4 KiB go to an
/// address that is neither a seat's nor an observer's.
#[test]
fn the_outbox_refuses_more_than_4_kib_to_an_address_of_no_seat_or_observer() {
    use pbem::engine::mail::compose::{Auto, Draft};
    use pbem::engine::mail::outbox::{MAX_TO_UNREGISTERED, queue};
    let t = mail_table();
    let game = pbem::engine::game::Game::open(&t.game).unwrap();
    let draft = |n: usize, to: &str, len: usize| Draft {
        key: format!("kummen-test.test.{n}"),
        from: HOST.parse().unwrap(),
        to: vec![to.parse().unwrap()],
        subject: "test".into(),
        game: "kummen-test".into(),
        date: T0.parse().unwrap(),
        in_reply_to: None,
        auto: Auto::Replied,
        body: "y".repeat(len),
        attachments: Vec::new(),
    };
    let err = queue(
        &game.dir,
        &game.config,
        &draft(1, "stranger@elsewhere.example.org", 5000),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains(&MAX_TO_UNREGISTERED.to_string()), "{err}");
    assert!(!outbox(&t).contains_key("kummen-test.test.1"));
    for (n, to, len) in [
        (2, "stranger@elsewhere.example.org", 1000),
        (3, "Bob <BEELER@players.example.org>", 100_000),
        (4, OBSERVER, 100_000),
    ] {
        queue(&game.dir, &game.config, &draft(n, to, len)).unwrap_or_else(|e| panic!("{to}: {e}"));
    }
}

/// A fake sendmail that records its arguments and the message, or fails.
fn fake_sendmail(t: &Table, fail: bool) -> std::path::PathBuf {
    let p = t.path(if fail { "sendmail-fail" } else { "sendmail" });
    let log = t.path("sendmail.log");
    let script = if fail {
        "#!/bin/sh\ncat >/dev/null\necho 'relay refused' >&2\nexit 1\n".to_string()
    } else {
        format!("#!/bin/sh\necho \"$@\" >> {0}\ncat >> {0}\n", log.display())
    };
    std::fs::write(&p, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    p
}

#[test]
fn a_sendmail_program_gets_the_envelope_and_a_failure_keeps_the_message() {
    let t = mail_table();
    let bad = fake_sendmail(&t, true);
    let (code, out, _) = run(&[
        "send",
        t.dir(),
        "--sendmail",
        bad.to_str().unwrap(),
        "--now",
        T0,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("KEPT"), "{out}");
    assert_eq!(outbox(&t).len(), 3);
    let good = fake_sendmail(&t, false);
    ok(&[
        "send",
        t.dir(),
        "--sendmail",
        good.to_str().unwrap(),
        "--now",
        T0,
    ]);
    assert!(outbox(&t).is_empty());
    let log = std::fs::read_to_string(t.path("sendmail.log")).unwrap();
    assert!(
        log.contains(&format!("-i -f {HOST_ADDRESS} -- {}", email("beeler"))),
        "{log}"
    );
    assert_eq!(log.matches("Message-ID: <kummen-test.000000.").count(), 3);
}

#[test]
fn send_without_any_transport_says_how_to_give_one() {
    let t = mail_table();
    let out = pbem()
        .args(["send", t.dir()])
        .env_remove("PBEM_MAIL_CONFIG")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--config FILE"));
}

/// Every mail a reader outside `hider` gets for record 1 and step 2: delivered turn mails and
/// queued reminders addressed to `outsider` or the observer.
fn outsider_mails(t: &Table, outsider: &str, run_name: &str) -> BTreeMap<String, Vec<u8>> {
    let dir = send_to_dir(t, run_name, &at(9));
    ok(&["remind", t.dir(), "--now", &at(60)]);
    let mut all = files(&dir);
    all.extend(files(&t.game.join("outbox")));
    all.into_iter()
        .filter(|(k, _)| k.contains(".000001.") || k.contains(".remind."))
        .filter(|(_, b)| {
            let to = mail_of(b).header("to").unwrap_or("").to_string();
            to.contains(&email(outsider)) || to.contains(OBSERVER)
        })
        .collect()
}

/// The delivered mails of record 1 in `dir` addressed to `side`.
fn mails_to(dir: &std::path::Path, side: &str) -> BTreeMap<String, Vec<u8>> {
    files(dir)
        .into_iter()
        .filter(|(k, b)| {
            k.contains(".000001.") && mail_of(b).header("to").unwrap_or("").contains(&email(side))
        })
        .collect()
}

fn permute_stored_state(t: &Table, side: Side, keys: &[u64]) {
    let path = t.game.join("host/state/000001.yaml");
    let state: State = t.kummen_state(&path);
    let n = hidden_slots(&state, side).len();
    let mut perm: Vec<usize> = (0..n).collect();
    perm.sort_by_key(|&i| (keys[i % keys.len()], i));
    let permuted = permute_hidden(&state, side, &perm).expect("a permutation of the hidden slots");
    // The hidden identities really move (otherwise the test would prove nothing).
    assert_ne!(state, permuted);
    std::fs::write(&path, serde_saphyr::to_string(&permuted).unwrap()).unwrap();
}

fn forget_mail(t: &Table) {
    let _ = std::fs::remove_dir_all(t.game.join("mail/in"));
    let _ = std::fs::remove_dir_all(t.game.join("mail/sent"));
    for (k, _) in files(&t.game.join("outbox")) {
        std::fs::remove_file(t.game.join("outbox").join(k)).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, ..ProptestConfig::default() })]

    #[test]
    fn another_sides_hidden_identities_change_no_byte_of_any_mail_to_the_outsider(
        keys in proptest::collection::vec(any::<u64>(), 64),
        beeler_hides in any::<bool>(),
    ) {
        let t = mail_table();
        play_step_at(&t, &at(1));
        let (side, outsider) = if beeler_hides { (Side::Beeler, "mercenary") } else { (Side::Mercenary, "beeler") };
        let hider = if beeler_hides { "beeler" } else { "mercenary" };
        let before = outsider_mails(&t, outsider, "a");
        let hider_before = mails_to(&t.path("a"), hider);
        prop_assert!(before.keys().any(|k| k.contains(".view.")), "{:?}", before.keys());
        forget_mail(&t);
        permute_stored_state(&t, side, &keys);
        let after = outsider_mails(&t, outsider, "b");
        prop_assert_eq!(after, before);
        // The mails really were derived again from the changed state: the hider's own differ.
        prop_assert_ne!(mails_to(&t.path("b"), hider), hider_before);
    }
}
