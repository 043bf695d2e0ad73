//! `pbem ingest` of many order mails from a Maildir, run as a process, against a floor measured
//! in the same run.
//!
//! Run with `cargo bench --bench ingest`. For each system (kummen, then dougram) it makes, through
//! the pbem binary's own command line, a directory of games with play by email on (`pbem new
//! --mail-from … --email SIDE=…`, each seat with its own key and address), enough of them that
//! each of the 1,000 mails is a different seat's order for its game's open step. Each order is
//! what a player would send back: the skeleton attached to the turn mail in the game's outbox,
//! filled with the demo script's orders, signed (`engine::order::sign`, what `pbem sign` runs),
//! and mailed from the seat's address as a reply to that turn mail, half of them as an
//! attachment and half pasted into the text body. The mails arrive every game's first seat
//! before any second seat, so consecutive mails are for different games. `pbem ingest ROOT
//! --maildir M` then runs on fresh copies (setup excluded); every order must be filed and
//! answered with a receipt in its game's outbox.
//!
//! The floor is reading and hashing the message files of the same fresh copy, so a reader sees
//! how far ingest is from I/O-bound. Figures are printed (medians), never asserted.
//! `PBEM_BENCH_MAILS` (default 1000), `PBEM_BENCH_RUNS` (default 5) and `PBEM_BENCH_SYSTEMS`
//! (default `kummen,dougram`) change the run; `PBEM_BENCH_KEEP=DIR` keeps one prepared root and
//! Maildir per system there, for a profiler; `PBEM_BENCH_PBEM=/path/to/pbem` times another build
//! on the same mails beside this one (the games are made by this one).

mod common;

use common::{copy_dir, measuring};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use pbem::protocol::hash::sha256;
use pbem::protocol::keys::SecretKey;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const T0: &str = "2026-05-01T12:00:00Z";
/// When the mails are ingested: an hour after the step opened.
const T1: &str = "2026-05-01T13:00:00Z";
const HOST: &str = "Bench host <host@example.org>";

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    if !measuring() {
        return;
    }
    let mails = count("PBEM_BENCH_MAILS", 1_000);
    let runs = count("PBEM_BENCH_RUNS", 5);
    let systems = std::env::var("PBEM_BENCH_SYSTEMS").unwrap_or("kummen,dougram".into());
    let pbem = PathBuf::from(env!("CARGO_BIN_EXE_pbem"));
    let mut builds = vec![("this build".to_string(), pbem.clone())];
    if let Some(other) = std::env::var_os("PBEM_BENCH_PBEM") {
        builds.push((format!("{}", Path::new(&other).display()), other.into()));
    }
    let tmp = tempfile::tempdir().unwrap();
    for system in systems.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let dir = tmp.path().join(system);
        let start = Instant::now();
        let (root, maildir) = prepare(&pbem, system, mails, &dir);
        println!(
            "({system}: {mails} order mails for {} games prepared in {:.1} s)",
            games_for(system, mails),
            start.elapsed().as_secs_f64()
        );
        if let Some(keep) = std::env::var_os("PBEM_BENCH_KEEP") {
            copy_dir(&root, &Path::new(&keep).join(system).join("games"));
            copy_dir(&maildir, &Path::new(&keep).join(system).join("maildir"));
        }
        measure(&builds, system, &root, &maildir, mails, runs);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

fn games_for(system: &str, mails: usize) -> usize {
    mails.div_ceil(sides(system).len())
}

fn sides(system: &str) -> Vec<String> {
    pbem::systems::by_id(system).unwrap().sides().to_vec()
}

/// Times the floor and `pbem ingest` of each build on fresh copies of `root` and `maildir`,
/// interleaved run by run, so that a noisy disk weighs on all of them alike.
fn measure(
    builds: &[(String, PathBuf)],
    system: &str,
    root: &Path,
    maildir: &Path,
    mails: usize,
    runs: usize,
) {
    let mut floor = Vec::new();
    let mut ingest: Vec<(Vec<Duration>, Vec<Duration>)> = vec![Default::default(); builds.len()];
    // Every run's copy is kept until the last run: removing one (some 100,000 files) just
    // before the next run would slow the next run's file creations (ext4 looks past inodes
    // freed moments ago), a cost a host's ingest does not meet.
    let scratch = root.with_extension("runs");
    for run in 0..runs {
        for (b, (name, pbem)) in builds.iter().enumerate() {
            let copy = scratch.join(format!("{run}-{b}"));
            let (games, mail) = (copy.join("games"), copy.join("maildir"));
            copy_dir(root, &games);
            copy_dir(maildir, &mail);
            // A host's games and mail are on disk already: the copy is flushed before the
            // clock starts, so ingest's own flushes do not write it out.
            flush_disk(&games);
            if b == 0 {
                floor.push(read_and_hash(&mail));
            }
            let (start, cpu_before) = (Instant::now(), children_cpu());
            let out = Command::new(pbem)
                .args(["ingest", path(&games), "--maildir", path(&mail)])
                .args(["--now", T1, "--json"])
                .output()
                .unwrap();
            let took = start.elapsed();
            let cpu = children_cpu().zip(cpu_before).map(|(a, b)| a - b);
            ingest[b].0.push(took);
            ingest[b].1.extend(cpu);
            assert!(
                out.status.success(),
                "pbem ingest: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let filed = check_filed(&out.stdout, &games, &mail, mails);
            println!(
                "  run {} ({name}): ingest {:.2} s ({}), floor {:.1} ms, {filed} orders filed \
                 and answered",
                run + 1,
                took.as_secs_f64(),
                cpu.map_or("CPU time unknown".into(), |c| format!(
                    "{:.2} s of it on a CPU",
                    c.as_secs_f64()
                )),
                ms(floor[run])
            );
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    let f = median(floor);
    for ((name, _), (times, cpus)) in builds.iter().zip(ingest) {
        let i = median(times);
        let cpu = if cpus.is_empty() {
            String::new()
        } else {
            format!(" (CPU {:.2} s)", median(cpus).as_secs_f64())
        };
        println!(
            "ingest of {mails} {system} order mails from a Maildir ({name}): median {:.2} s{cpu}, \
             {:.2} ms per mail; floor (read and hash the message files) {:.1} ms, {:.3} ms per \
             mail; ratio {:.0}",
            i.as_secs_f64(),
            ms(i) / mails as f64,
            ms(f),
            ms(f) / mails as f64,
            i.as_secs_f64() / f.as_secs_f64()
        );
    }
}

/// Every order was accepted, its receipt is queued in its game's outbox, and every message
/// moved to cur/. Returns how many orders were filed.
fn check_filed(stdout: &[u8], games: &Path, mail: &Path, mails: usize) -> usize {
    let outcomes: Vec<serde_json::Value> = serde_json::from_slice(stdout).unwrap();
    let accepted = outcomes
        .iter()
        .filter(|o| o["verdict"] == "accepted" && o["reply"].is_string())
        .count();
    let strays: Vec<_> = outcomes
        .iter()
        .filter(|o| o["verdict"] != "accepted")
        .take(3)
        .collect();
    assert_eq!(accepted, mails, "not all accepted: {strays:?}");
    let receipts: usize = std::fs::read_dir(games)
        .unwrap()
        .flatten()
        .map(|g| {
            std::fs::read_dir(g.path().join("outbox"))
                .map(|d| {
                    d.flatten()
                        .filter(|e| e.file_name().to_string_lossy().contains(".reply."))
                        .count()
                })
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(receipts, mails, "a receipt in the outbox for every order");
    assert_eq!(std::fs::read_dir(mail.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(mail.join("cur")).unwrap().count(), mails);
    accepted
}

/// The floor: list `maildir/new`, read each message and hash it.
fn read_and_hash(maildir: &Path) -> Duration {
    let start = Instant::now();
    let mut names: Vec<PathBuf> = std::fs::read_dir(maildir.join("new"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    let mut all = Vec::with_capacity(names.len() * 32);
    for name in names {
        all.extend_from_slice(&sha256(&std::fs::read(name).unwrap()).0);
    }
    std::hint::black_box(sha256(&all));
    start.elapsed()
}

/// Makes `dir/games` (one game per group of seats) and `dir/maildir` with one order mail per
/// seat; returns both.
fn prepare(pbem: &Path, system: &str, mails: usize, dir: &Path) -> (PathBuf, PathBuf) {
    let (root, keys, maildir) = (dir.join("games"), dir.join("keys"), dir.join("maildir"));
    for d in [&root, &keys, &maildir.join("new"), &maildir.join("cur")] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::create_dir_all(maildir.join("tmp")).unwrap();
    let sides = sides(system);
    let games = games_for(system, mails);
    // Two threads: the machine is shared, and `pbem new` is a process each.
    let made = std::sync::atomic::AtomicUsize::new(0);
    let seats: Vec<Vec<Seat>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let (root, keys, sides, made) = (&root, &keys, &sides, &made);
                s.spawn(move || {
                    (w..games)
                        .step_by(2)
                        .map(|g| {
                            let seats = new_game(pbem, system, g, root, keys, sides);
                            let n = made.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                            if n % 100 == 0 {
                                println!("  ({n} of {games} {system} games made)");
                            }
                            (g, seats)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<(usize, Vec<Seat>)> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        all.sort_by_key(|(g, _)| *g);
        all.into_iter().map(|(_, s)| s).collect()
    });
    // Every game's first seat, then every game's second…: consecutive mails are for
    // different games, as when many players answer their turn mails over an evening.
    let mut n = 0;
    for side in 0..sides.len() {
        for game in &seats {
            if n == mails {
                break;
            }
            let message = reply(system, &game[side], n);
            // The usual Maildir name (TIME.MmicrosPpidQcount.HOST), in delivery order.
            let name = format!("{}.M{n}P4242Q{n}.bench", 1_777_640_400 + n);
            std::fs::write(maildir.join("new").join(name), message).unwrap();
            n += 1;
        }
    }
    (root, maildir)
}

/// What a player needs to answer: their key and address, and the turn mail they answer.
struct Seat {
    side: String,
    key: SecretKey,
    address: String,
    turn_mail: Vec<u8>,
}

/// `pbem new` of game number `g`, each seat with a fresh key and its own address.
fn new_game(
    pbem: &Path,
    system: &str,
    g: usize,
    root: &Path,
    keys: &Path,
    sides: &[String],
) -> Vec<Seat> {
    let dir = root.join(format!("g{g:05}"));
    let id = format!("{system}-bench-{g:05}");
    let mut args: Vec<String> = vec![
        "new".into(),
        path(&dir).into(),
        "--system".into(),
        system.into(),
        "--id".into(),
        id,
        "--mail-from".into(),
        HOST.into(),
        "--step-duration".into(),
        "72h".into(),
        "--now".into(),
        T0.into(),
    ];
    let mut seats = Vec::new();
    for side in sides {
        let key = SecretKey::generate(side).unwrap();
        let public = keys.join(format!("g{g:05}-{side}.pub"));
        std::fs::write(&public, key.public().openssh()).unwrap();
        let address = format!("{side}-{g:05}@players.example.org");
        args.extend([
            "--seat".into(),
            format!("{side}={}", public.display()),
            "--email".into(),
            format!("{side}=Player {g} <{address}>"),
        ]);
        seats.push((side.clone(), key, address));
    }
    let out = Command::new(pbem).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "pbem {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    seats
        .into_iter()
        .map(|(side, key, address)| {
            let turn_mail = turn_mail(&dir, &side);
            Seat {
                side,
                key,
                address,
                turn_mail,
            }
        })
        .collect()
}

/// The mail `pbem new` queued for `side`: the one carrying its order skeleton.
fn turn_mail(game: &Path, side: &str) -> Vec<u8> {
    let skeleton = format!("orders-step-1-{side}.yaml");
    std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read(e.path()).unwrap())
        .find(|bytes| {
            pbem::engine::mail::parse::parse(bytes)
                .is_some_and(|m| m.parts.iter().any(|p| p.name.as_deref() == Some(&skeleton)))
        })
        .unwrap_or_else(|| panic!("{}: no turn mail for {side}", game.display()))
}

/// The player's answer to their turn mail: the attached skeleton with the demo script's orders
/// filled in, signed, mailed from the seat's address; mail `n` even carries it as an
/// attachment, odd pasted into the body.
fn reply(system: &str, seat: &Seat, n: usize) -> Vec<u8> {
    let turn = pbem::engine::mail::parse::parse(&seat.turn_mail).unwrap();
    let skeleton_name = format!("orders-step-1-{}.yaml", seat.side);
    let skeleton = turn
        .parts
        .iter()
        .find(|p| p.name.as_deref() == Some(&skeleton_name))
        .map(|p| String::from_utf8(p.body.clone()).unwrap())
        .unwrap();
    let head = &skeleton[..skeleton.find("\norders:").unwrap() + 1];
    let body: String = pbem::engine::demo::scripted(system, 1, &seat.side)
        .unwrap_or("{}")
        .lines()
        .map(|l| format!("  {l}\n"))
        .collect();
    let document = format!("{head}orders:\n{body}");
    let signed = pbem::engine::order::sign(document.as_bytes(), &seat.key).unwrap();
    let from: Mailbox = format!("Player <{}>", seat.address).parse().unwrap();
    let mut message = lettre::Message::builder()
        .from(from)
        .to(HOST.parse().unwrap())
        .subject(format!("Re: {}", turn.subject))
        .message_id(Some(format!("<order-{n}@players.example.org>")))
        .date(T1.parse::<jiff::Timestamp>().unwrap().into());
    if let Some(id) = &turn.message_id {
        let id = format!("<{}>", id.trim_matches(['<', '>']));
        message = message.in_reply_to(id.clone()).references(id);
    }
    let text = |t: String| {
        SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .body(t)
    };
    let message = if n.is_multiple_of(2) {
        message
            .multipart(
                MultiPart::mixed()
                    .singlepart(text("My orders are attached.\n\n-- \nPlayer\n".into()))
                    .singlepart(
                        Attachment::new("signed.yaml".into())
                            .body(signed, ContentType::parse("application/yaml").unwrap()),
                    ),
            )
            .unwrap()
    } else {
        let pasted = String::from_utf8(signed).unwrap();
        message
            .singlepart(text(format!("Hello,\n\n{pasted}\n-- \nPlayer\n")))
            .unwrap()
    };
    message.formatted()
}

/// Writes every dirty page of `dir`'s filesystem to disk (Linux: syncfs; elsewhere `sync`).
fn flush_disk(dir: &Path) {
    #[cfg(target_os = "linux")]
    rustix::fs::syncfs(std::fs::File::open(dir).unwrap()).unwrap();
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        Command::new("sync").status().unwrap();
    }
}

/// User and system time of this process's waited-for children (Linux, 10 ms ticks): what
/// ingest spent on a CPU rather than waiting for the disk.
fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses; cutime and
    // cstime are fields 16 and 17, the 14th and 15th after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
