//! Starts `tests/smtp/server.py` (aiosmtpd) with a fresh test CA and a leaf certificate for
//! localhost / 127.0.0.1 (rustls refuses a self-signed CA as the server certificate). The
//! server stops when this value is dropped (kill), when its standard input closes, or after
//! five minutes. If it cannot start, the test fails: it is never skipped.

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub const USER: &str = "gm";
pub const PASSWORD: &str = "s3cret-for-tests";
const LIFETIME_SECONDS: &str = "300";

pub struct Server {
    child: Child,
    _stdin: Option<ChildStdin>,
    pub starttls: u16,
    pub smtps: u16,
    pub maildir: PathBuf,
    pub ca: PathBuf,
    pub dir: tempfile::TempDir,
}

/// The Python with aiosmtpd: $PBEM_TEST_PYTHON, the venv scripts/test.sh makes, or python3.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("PBEM_TEST_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/smtp-venv/bin/python");
    if venv.exists() {
        return venv;
    }
    PathBuf::from("python3")
}

/// Writes ca.pem, leaf.pem and leaf.key into `dir`.
fn certificates(dir: &Path) {
    let ca_key = KeyPair::generate().expect("CA key");
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "pbem test CA");
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
    let issuer = Issuer::new(ca, &ca_key);
    let leaf_key = KeyPair::generate().expect("leaf key");
    let mut leaf = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .expect("leaf params");
    leaf.is_ca = IsCa::ExplicitNoCa;
    leaf.distinguished_name
        .push(DnType::CommonName, "localhost");
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let leaf_cert = leaf
        .signed_by(&leaf_key, &issuer)
        .expect("leaf certificate");
    std::fs::write(dir.join("ca.pem"), ca_cert.pem()).unwrap();
    std::fs::write(dir.join("leaf.pem"), leaf_cert.pem()).unwrap();
    std::fs::write(dir.join("leaf.key"), leaf_key.serialize_pem()).unwrap();
}

impl Server {
    pub fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        certificates(dir.path());
        let maildir = dir.path().join("Maildir");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp/server.py");
        let stderr = std::fs::File::create(dir.path().join("server.log")).unwrap();
        let python = python();
        let mut child = Command::new(&python)
            .arg(&script)
            .arg(&maildir)
            .arg(dir.path().join("leaf.pem"))
            .arg(dir.path().join("leaf.key"))
            .args([USER, PASSWORD, LIFETIME_SECONDS])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot run {} for the test SMTP server: {e}; run ./scripts/test.sh, which installs aiosmtpd",
                    python.display()
                )
            });
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
        let port = |name: &str| -> Option<u16> {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{name}=")))
                .and_then(|p| p.parse().ok())
        };
        let stdin = child.stdin.take();
        match (line.starts_with("ready"), port("starttls"), port("smtps")) {
            (true, Some(starttls), Some(smtps)) => Server {
                child,
                _stdin: stdin,
                starttls,
                smtps,
                maildir,
                ca: dir.path().join("ca.pem"),
                dir,
            },
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                let log =
                    std::fs::read_to_string(dir.path().join("server.log")).unwrap_or_default();
                panic!(
                    "the test SMTP server did not start (with {}); run ./scripts/test.sh, which \
                     installs aiosmtpd. Its output:\n{line}\n{log}",
                    python.display()
                );
            }
        }
    }

    /// A `pbem send --config` file for this server. `security` is starttls or tls.
    pub fn transport_config(&self, security: &str, password: &str) -> PathBuf {
        let pw = self
            .dir
            .path()
            .join(format!("password-{security}-{}", password.len()));
        std::fs::write(&pw, format!("{password}\n")).unwrap();
        let port = if security == "tls" {
            self.smtps
        } else {
            self.starttls
        };
        let path = self
            .dir
            .path()
            .join(format!("mail-{security}-{}.yaml", password.len()));
        std::fs::write(
            &path,
            format!(
                "smtp:\n  host: localhost\n  port: {port}\n  security: {security}\n  username: {USER}\n  password_file: {}\n  ca_file: {}\n  timeout_seconds: 10\n",
                pw.display(),
                self.ca.display()
            ),
        )
        .unwrap();
        path
    }

    /// The messages in the Maildir's new/, by name.
    pub fn new_messages(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.maildir.join("new"))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Waits (at most 10 s) until new/ holds at least `n` messages.
    pub fn wait_for(&self, n: usize) -> Vec<PathBuf> {
        let start = Instant::now();
        loop {
            let v = self.new_messages();
            if v.len() >= n || start.elapsed() > Duration::from_secs(10) {
                return v;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
