//! `pbem send`: delivers the outbox by SMTP (lettre with rustls: STARTTLS, implicit TLS, or
//! plain for a local relay), by a sendmail-compatible program, or into a directory.
//!
//! Delivery guarantee: **at least once**. A message leaves `outbox/` only after the server (or
//! the sendmail program, or the directory's fsync) accepted it; a failure keeps it, with the
//! error and the attempt count in `outbox/KEY.error`, for the next run. A crash between the
//! server's acceptance and the removal sends the message again on the next run; it then carries
//! the same Message-ID, by which mail clients and many servers drop the duplicate.
//!
//! Credentials never come from the command line: the SMTP password is read from the file named
//! by `password_file` in the transport configuration, or from `PBEM_SMTP_PASSWORD`.

use super::super::Error;
use super::super::dir;
use super::super::game::Game;
use super::outbox::{self, Pending};
use super::turn;
use jiff::Timestamp;
use lettre::Transport as _;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Address, SendmailTransport, SmtpTransport};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Environment variable holding the SMTP password when the configuration names no file.
pub const PASSWORD_ENV: &str = "PBEM_SMTP_PASSWORD";
/// Environment variable naming the transport configuration file when `--config` is absent.
pub const CONFIG_ENV: &str = "PBEM_MAIL_CONFIG";

/// The transport configuration file of `pbem send --config FILE` (YAML): exactly one of
/// `smtp`, `sendmail` or `directory`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TransportConfig {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smtp: Option<SmtpConfig>,
    /// A sendmail-compatible program (sendmail, msmtp, …), called as `PROGRAM -i -f FROM -- TO…`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sendmail: Option<PathBuf>,
    /// Write each message as DIR/KEY.eml (for a pickup directory, or to look before sending).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub directory: Option<PathBuf>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpConfig {
    pub host: String,
    /// Default: 587 for starttls, 465 for tls, 25 for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    #[serde(default)]
    pub security: Security,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// File holding the password (first line); without it, PBEM_SMTP_PASSWORD is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_file: Option<PathBuf>,
    /// An extra CA certificate (PEM) to trust, for a server with a private CA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_file: Option<PathBuf>,
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

fn default_timeout() -> u64 {
    30
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain connection upgraded with STARTTLS, which is required (port 587).
    #[default]
    Starttls,
    /// TLS from the first byte (SMTPS, port 465).
    Tls,
    /// No encryption: only for a relay on this machine; credentials are never sent.
    None,
}

/// A ready transport.
pub enum Transport {
    Smtp(Box<SmtpTransport>),
    Sendmail(SendmailTransport),
    Directory(PathBuf),
}

impl TransportConfig {
    pub fn load(path: &Path) -> Result<TransportConfig, Error> {
        let text = dir::read_text(path)?;
        crate::yaml::parse(&text, &path.display().to_string())
            .map_err(|r| Error::Fail(r.to_string()))
    }

    pub fn build(&self, file: &str) -> Result<Transport, Error> {
        match (&self.smtp, &self.sendmail, &self.directory) {
            (Some(s), None, None) => smtp(s, file).map(|t| Transport::Smtp(Box::new(t))),
            (None, Some(p), None) => Ok(Transport::Sendmail(SendmailTransport::new_with_command(
                p.as_os_str(),
            ))),
            (None, None, Some(d)) => Ok(Transport::Directory(d.clone())),
            _ => Err(Error::Fail(format!(
                "{file}: give exactly one of smtp:, sendmail: or directory:"
            ))),
        }
    }
}

fn smtp(c: &SmtpConfig, file: &str) -> Result<SmtpTransport, Error> {
    let fail = |field: &str, e: String| Error::Fail(format!("{file}: smtp.{field}: {e}"));
    let tls = || -> Result<TlsParameters, Error> {
        let mut b = TlsParameters::builder(c.host.clone());
        if let Some(ca) = &c.ca_file {
            let pem = dir::read(ca)?;
            let cert = Certificate::from_pem(&pem).map_err(|e| fail("ca_file", e.to_string()))?;
            b = b.add_root_certificate(cert);
        }
        b.build_rustls()
            .map_err(|e| fail("security", e.to_string()))
    };
    let (tls, port) = match c.security {
        Security::Starttls => (Tls::Required(tls()?), 587),
        Security::Tls => (Tls::Wrapper(tls()?), 465),
        Security::None => (Tls::None, 25),
    };
    let mut b = SmtpTransport::builder_dangerous(c.host.clone())
        .port(c.port.unwrap_or(port))
        .tls(tls)
        .timeout(Some(std::time::Duration::from_secs(c.timeout_seconds)));
    if let Some(user) = &c.username {
        if c.security == Security::None {
            return Err(fail(
                "username",
                "credentials are never sent without TLS: use security: starttls or tls".into(),
            ));
        }
        let password = match &c.password_file {
            Some(p) => dir::read_text(p)?.lines().next().unwrap_or("").to_string(),
            None => std::env::var(PASSWORD_ENV).map_err(|_| {
                fail(
                    "password_file",
                    format!("no password: name a password_file, or set {PASSWORD_ENV}"),
                )
            })?,
        };
        b = b.credentials(Credentials::new(user.clone(), password));
    }
    Ok(b.build())
}

/// The outcome of delivering one message.
#[derive(Debug, Clone, Serialize)]
pub struct Delivery {
    pub game: String,
    pub message: String,
    pub to: Vec<String>,
    /// None when delivered.
    pub error: Option<String>,
    pub attempts: u64,
}

/// What `pbem send` did over a directory of games.
pub struct SentAll {
    pub deliveries: Vec<Delivery>,
    /// `GAME-DIR: why` of each game whose outbox could not be sent at all.
    pub problems: Vec<String>,
}

impl SentAll {
    /// Messages kept for the next run, and games that failed.
    pub fn failures(&self) -> usize {
        self.deliveries.iter().filter(|d| d.error.is_some()).count() + self.problems.len()
    }
}

/// [`send`] for the game in `root`, or every game under it ([`super::games_under`]): one game
/// that cannot be sent from does not keep the others' mail back.
pub fn send_all(root: &Path, t: &Transport, now: Timestamp) -> Result<SentAll, Error> {
    let mut all = SentAll {
        deliveries: Vec::new(),
        problems: Vec::new(),
    };
    for game in super::games_under(root)? {
        match send(&game, t, now) {
            Ok(d) => all.deliveries.extend(d),
            Err(e) => all.problems.push(format!("{}: {e}", game.display())),
        }
    }
    Ok(all)
}

/// Delivers every queued message of the game in `root` (after queueing any turn mail still
/// missing). One failed message does not stop the others.
pub fn send(root: &Path, t: &Transport, now: Timestamp) -> Result<Vec<Delivery>, Error> {
    let game = Game::open(root)?;
    let _lock = send_lock(&game)?;
    turn::after_record(&game, now)?;
    let mut out = Vec::new();
    for p in outbox::pending(&game.dir)? {
        let bytes = dir::read(&p.path)?;
        let envelope = envelope_of(&bytes);
        let to = envelope
            .as_ref()
            .map(|e| e.to().iter().map(|a| a.to_string()).collect())
            .unwrap_or_default();
        let result = envelope.and_then(|env| deliver(t, &env, &bytes, &p));
        let (error, attempts) = match result {
            Ok(()) => {
                outbox::mark_sent(&game.dir, &p, &bytes)?;
                (None, 1)
            }
            Err(e) => {
                let f = outbox::mark_failed(&game.dir, &p, &e)?;
                (Some(e), f.attempts)
            }
        };
        out.push(Delivery {
            game: game.config.id.clone(),
            message: p.key,
            to,
            error,
            attempts,
        });
    }
    Ok(out)
}

/// Only one `send` per game at a time (so no message goes out twice from two runs).
fn send_lock(game: &Game) -> Result<File, Error> {
    let path = super::mail_dir(&game.dir).join("send.lock");
    std::fs::create_dir_all(super::mail_dir(&game.dir))
        .map_err(|e| Error::io(&super::mail_dir(&game.dir), e))?;
    crate::engine::dir::exclusive_lock(&path, "another pbem send is delivering this game's mail")
}

fn deliver(t: &Transport, env: &Envelope, bytes: &[u8], p: &Pending) -> Result<(), String> {
    match t {
        Transport::Smtp(s) => s
            .send_raw(env, bytes)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Transport::Sendmail(s) => s.send_raw(env, bytes).map_err(|e| e.to_string()),
        Transport::Directory(d) => {
            dir::write_atomic(&d.join(format!("{}.eml", p.key)), bytes).map_err(|e| e.to_string())
        }
    }
}

/// Sender and recipients of a queued message, from its own From and To headers.
fn envelope_of(bytes: &[u8]) -> Result<Envelope, String> {
    let msg = mail_parser::MessageParser::default()
        .parse_headers(bytes)
        .ok_or("the queued message has no headers")?;
    let addr = |a: Option<&str>| -> Result<Address, String> {
        a.ok_or("missing address")?
            .parse::<Address>()
            .map_err(|e| e.to_string())
    };
    let from = addr(msg.from().and_then(|f| f.first()).and_then(|a| a.address()))
        .map_err(|e| format!("From: {e}"))?;
    let to = msg
        .to()
        .map(|t| {
            t.iter()
                .map(|a| addr(a.address()))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()
        .map_err(|e| format!("To: {e}"))?
        .unwrap_or_default();
    Envelope::new(Some(from), to).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_transport_configuration_parses() {
        let c: TransportConfig = crate::yaml::parse(
            "smtp: {host: smtp.example.org, port: 587, security: starttls, username: pbem@example.org,\n       password_file: /home/pbem/.config/pbem/smtp-password}\n",
            "mail.yaml",
        )
        .unwrap();
        let s = c.smtp.unwrap();
        assert_eq!((s.port, s.security), (Some(587), Security::Starttls));
    }

    #[test]
    fn more_than_one_transport_is_refused() {
        let c = TransportConfig {
            sendmail: Some("/usr/sbin/sendmail".into()),
            directory: Some("/tmp".into()),
            ..Default::default()
        };
        let err = c.build("mail.yaml").err().unwrap().to_string();
        assert!(err.contains("exactly one"), "{err}");
    }

    #[test]
    fn credentials_are_never_configured_without_tls() {
        let c: TransportConfig = crate::yaml::parse(
            "smtp:\n  host: localhost\n  security: none\n  username: u\n",
            "mail.yaml",
        )
        .unwrap();
        let err = c.build("mail.yaml").err().unwrap().to_string();
        assert!(err.contains("never sent without TLS"), "{err}");
    }
}
