//! Play by email end to end against a real SMTP server on 127.0.0.1 (aiosmtpd with STARTTLS,
//! implicit TLS and AUTH): `pbem send` delivers, players' mail arrives in a Maildir, `pbem
//! ingest` reads it, and what arrives still verifies after the round trip.

mod common;
mod smtp;

use common::*;
use lettre::Transport;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use pbem::engine::game::Game;
use pbem::engine::mail::parse::Mail;
use smtp::game::*;
use smtp::letters::{self, attachment, body, letter};
use smtp::server::{self, Server};
use std::path::Path;

/// A player's mail client sending `bytes` to the host through the server (SMTPS with AUTH).
fn player_sends(s: &Server, from: &str, bytes: &[u8]) {
    let ca = Certificate::from_pem(&std::fs::read(&s.ca).unwrap()).unwrap();
    let tls = TlsParameters::builder("localhost".into())
        .add_root_certificate(ca)
        .build_rustls()
        .unwrap();
    let client = lettre::SmtpTransport::builder_dangerous("localhost")
        .port(s.smtps)
        .tls(Tls::Wrapper(tls))
        .credentials(Credentials::new(
            server::USER.into(),
            server::PASSWORD.into(),
        ))
        .build();
    let env = Envelope::new(
        Some(from.parse().unwrap()),
        vec![HOST_ADDRESS.parse().unwrap()],
    )
    .unwrap();
    client
        .send_raw(&env, bytes)
        .expect("the server accepts the player's mail");
}

/// `pbem send` through the server; returns the JSON answer.
fn send(t: &Table, config: &Path, now: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = run(&[
        "send",
        t.dir(),
        "--config",
        config.to_str().unwrap(),
        "--now",
        now,
        "--json",
    ]);
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}")),
    )
}

/// Delivered messages addressed to `to`.
fn delivered_to(s: &Server, to: &str) -> Vec<Mail> {
    s.new_messages()
        .iter()
        .chain(
            std::fs::read_dir(s.maildir.join("cur"))
                .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
                .unwrap_or_default()
                .iter(),
        )
        .map(|p| letters::read(p))
        .filter(|m| m.header("to").is_some_and(|v| v.contains(to)))
        .collect()
}

fn ingest_maildir(t: &Table, s: &Server, now: &str) -> Vec<serde_json::Value> {
    let out = ok(&[
        "ingest",
        t.dir(),
        "--maildir",
        s.maildir.to_str().unwrap(),
        "--now",
        now,
        "--json",
    ]);
    serde_json::from_str::<Vec<serde_json::Value>>(&out).unwrap()
}

#[test]
fn turn_mails_sent_by_starttls_with_auth_arrive_with_their_attachments_intact() {
    let t = mail_table();
    let s = Server::start();
    let (code, answer) = send(&t, &s.transport_config("starttls", server::PASSWORD), T0);
    assert_eq!(code, 0, "{answer}");
    assert_eq!(
        answer["deliveries"].as_array().unwrap().len(),
        3,
        "{answer}"
    );
    assert!(outbox(&t).is_empty(), "delivered mail leaves the outbox");
    assert_eq!(s.wait_for(3).len(), 3);

    let beeler = delivered_to(&s, &email("beeler"));
    assert_eq!(beeler.len(), 1);
    let m = &beeler[0];
    assert!(
        m.subject.starts_with("[pbem kummen-test] "),
        "{}",
        m.subject
    );
    assert_eq!(
        attachment(m, "view-000000-beeler.yaml"),
        std::fs::read(t.game.join("views/beeler/000000.yaml")).unwrap()
    );
    assert_eq!(
        attachment(m, "report-000000.txt"),
        std::fs::read(t.game.join("reports/000000.txt")).unwrap()
    );
    assert!(
        String::from_utf8(attachment(m, "orders-step-1-beeler.yaml"))
            .unwrap()
            .contains("side: beeler")
    );
    // The board picture, a binary attachment, arrives byte for byte as `pbem map` draws it.
    let png = t.path("board.png");
    let png_arg = png.to_str().unwrap();
    ok(&[
        "map",
        t.dir(),
        "--side",
        "beeler",
        "--record",
        "0",
        "-o",
        png_arg,
    ]);
    assert_eq!(
        attachment(m, "board-000000-beeler.png"),
        std::fs::read(&png).unwrap()
    );
    let view_text = std::fs::read_to_string(t.game.join("views/beeler/view.txt")).unwrap();
    assert!(body(m).replace("\r\n", "\n").starts_with(&view_text));

    let observer = delivered_to(&s, OBSERVER);
    assert_eq!(observer.len(), 1);
    let names: Vec<Option<&str>> = observer[0]
        .parts
        .iter()
        .map(|p| p.name.as_deref())
        .collect();
    assert_eq!(
        names,
        [
            None,
            Some("board-000000-public.png"),
            Some("board-000000-public.svg")
        ],
        "the observer gets the report and the public board"
    );
    assert_eq!(
        body(&observer[0]).replace("\r\n", "\n").trim_end(),
        std::fs::read_to_string(t.game.join("reports/000000.txt"))
            .unwrap()
            .trim_end()
    );
}

#[test]
fn implicit_tls_delivers_too() {
    let t = mail_table();
    let s = Server::start();
    let (code, answer) = send(&t, &s.transport_config("tls", server::PASSWORD), T0);
    assert_eq!(code, 0, "{answer}");
    assert_eq!(s.wait_for(3).len(), 3);
}

#[test]
fn a_refused_password_keeps_the_messages_with_the_error_until_a_later_run_delivers_them() {
    let t = mail_table();
    let s = Server::start();
    let (code, answer) = send(&t, &s.transport_config("starttls", "wrong"), T0);
    assert_eq!(code, 1, "a failed delivery is a failure: {answer}");
    assert_eq!(outbox(&t).len(), 3, "nothing leaves the outbox unaccepted");
    let error = std::fs::read_to_string(t.game.join("outbox/kummen-test.000000.view.beeler.error"))
        .unwrap();
    assert!(error.contains("535"), "{error}");
    assert!(s.new_messages().is_empty());

    let (code, answer) = send(
        &t,
        &s.transport_config("starttls", server::PASSWORD),
        &at(1),
    );
    assert_eq!(code, 0, "{answer}");
    assert!(outbox(&t).is_empty());
    assert!(
        files(&t.game.join("outbox")).is_empty(),
        "the error record goes too"
    );
    assert_eq!(s.wait_for(3).len(), 3, "each message exactly once");
}

#[test]
fn two_steps_are_played_by_mail_only_and_every_attachment_verifies_after_the_round_trip() {
    let t = mail_table();
    let s = Server::start();
    let config = s.transport_config("starttls", server::PASSWORD);
    assert_eq!(send(&t, &config, T0).0, 0);

    // Step 1: the mercenary signs with pbem (one signed file); the beeler uses plain
    // ssh-keygen (orders.yaml + orders.yaml.sig), sent as text so its line endings travel as CRLF.
    let merc = t.signed("mercenary", "merc1", &t.order("mercenary", "orders: {}\n"));
    player_sends(
        &s,
        &email("mercenary"),
        &letter(
            &email("mercenary"),
            HOST_ADDRESS,
            "Re: [pbem kummen-test] step 1",
            "My orders.",
            &[(
                "signed.yaml",
                "application/yaml",
                &std::fs::read(&merc).unwrap(),
            )],
            &[],
        ),
    );
    let doc = t.path("orders.yaml");
    std::fs::write(&doc, order_with_entropy(&t, "beeler", "orders: {}\n")).unwrap();
    let out = std::process::Command::new("ssh-keygen")
        .args(["-Y", "sign", "-n", "pbem", "-f"])
        .arg(t.key("beeler"))
        .arg(&doc)
        .output()
        .expect("ssh-keygen is installed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    player_sends(
        &s,
        &email("beeler"),
        &letter(
            &email("beeler"),
            HOST_ADDRESS,
            "[pbem kummen-test] orders",
            "",
            &[
                (
                    "orders.yaml",
                    "text/plain; charset=utf-8",
                    &std::fs::read(&doc).unwrap(),
                ),
                (
                    "orders.yaml.sig",
                    "text/plain",
                    &std::fs::read(t.path("orders.yaml.sig")).unwrap(),
                ),
            ],
            &[],
        ),
    );
    let verdicts = ingest_maildir(&t, &s, &at(1));
    let accepted: Vec<&str> = verdicts
        .iter()
        .filter(|v| v["verdict"] == "accepted")
        .map(|v| v["side"].as_str().unwrap())
        .collect();
    assert_eq!(accepted, vec!["mercenary", "beeler"], "{verdicts:#?}");
    // The host's own mails in the same Maildir (auto-generated) are recorded, never answered.
    assert!(
        verdicts
            .iter()
            .filter(|v| v["verdict"] != "accepted")
            .all(|v| v["verdict"] == "ignored" && v["reply"].is_null()),
        "{verdicts:#?}"
    );
    assert!(
        s.new_messages().is_empty(),
        "every handled message moves to cur/"
    );

    ok(&["process", t.dir(), "--now", &at(2)]);
    assert_eq!(send(&t, &config, &at(2)).0, 0);

    let game = Game::open(&t.game).unwrap();
    for side in ["mercenary", "beeler"] {
        let mails = delivered_to(&s, &email(side));
        let receipt = mails
            .iter()
            .find(|m| m.subject.contains("receipt"))
            .unwrap_or_else(|| panic!("a receipt for {side}"));
        let name = format!("receipt-step-1-{side}.yaml");
        let r = pbem::engine::order::open_receipt(&game, &attachment(receipt, &name), &name)
            .expect("the receipt still verifies after the round trip");
        assert_eq!((r.step, r.side.as_str()), (1, side));
        assert!(body(receipt).contains("side: ") && body(receipt).contains("entropy:"));
        let view = mails
            .iter()
            .find(|m| m.subject.contains("record 1"))
            .unwrap_or_else(|| panic!("the view of record 1 for {side}"));
        assert_eq!(
            attachment(view, &format!("view-000001-{side}.yaml")),
            std::fs::read(t.game.join(format!("views/{side}/000001.yaml"))).unwrap()
        );
    }

    // Step 2 by mail as well, from the basis printed in the mailed view.
    for side in t.status()["waiting_for"].as_array().unwrap().clone() {
        let side = side.as_str().unwrap();
        let f = t.signed(side, &format!("s2-{side}"), &t.order(side, "orders: {}\n"));
        player_sends(
            &s,
            &email(side),
            &letter(
                &email(side),
                HOST_ADDRESS,
                "[pbem kummen-test] step 2",
                "",
                &[(
                    "signed.yaml",
                    "application/yaml",
                    &std::fs::read(&f).unwrap(),
                )],
                &[],
            ),
        );
    }
    ingest_maildir(&t, &s, &at(3));
    assert_eq!(t.status()["waiting_for"], serde_json::json!([]));
    ok(&["process", t.dir(), "--now", &at(4)]);
    assert_eq!(t.status()["record"], 2);
    ok(&["verify", t.dir()]);
}
