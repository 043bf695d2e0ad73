//! Board pictures (issue 13): `pbem map` draws every view of a real game (the kummen and the
//! dougram demo), each unit of the view once and nothing else as a unit, the same bytes every
//! time, and a PNG that decodes; the leak property of the pictures is in tests/kummen_leak.rs
//! and tests/dougram_leak.rs (the picture is part of what a reader is shown).

mod common;

use common::*;
use pbem::engine::game::Game;
use pbem::engine::picture;
use pbem::kit::picture::png;
use pbem::systems::Reader;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A demo game the pictures are checked on: its system, its sides and how its view lists the
/// units on the map.
struct Demo {
    system: &'static str,
    sides: [&'static str; 2],
    /// The title of the public board.
    public_title: &'static str,
    /// The units a view (as JSON) holds on the map, by the name the view gives them.
    units: fn(&serde_json::Value) -> Vec<String>,
}

/// kummen: `hexes: [{units: [{id | token}]}]`; a face-down unit is named by its token.
const KUMMEN: Demo = Demo {
    system: "kummen",
    sides: ["mercenary", "beeler"],
    public_title: "Kummen campaign: the public board",
    units: |v| {
        v["hexes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|h| h["units"].as_array().unwrap().iter())
            .map(|u| {
                u.get("token")
                    .or_else(|| u.get("id"))
                    .and_then(|n| n.as_str())
                    .unwrap()
                    .to_string()
            })
            .collect()
    },
};

/// dougram: `map: {HEX: {ID: unit}}` (every unit is face up).
const DOUGRAM: Demo = Demo {
    system: "dougram",
    sides: ["lib", "fed"],
    public_title: "Dougram: the public board",
    units: |v| {
        v["map"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|units| units.as_object().unwrap().keys().cloned())
            .collect()
    },
};

const DEMOS: [&Demo; 2] = [&KUMMEN, &DOUGRAM];

/// The demo game of `d`'s system (a scripted opening, then bots to the end), played once per
/// run of this file.
fn demo(d: &Demo) -> &'static Path {
    static KUMMEN_DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    static DOUGRAM_DIR: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let lock = if d.system == "kummen" {
        &KUMMEN_DIR
    } else {
        &DOUGRAM_DIR
    };
    &lock
        .get_or_init(|| {
            let tmp = tempfile::tempdir().unwrap();
            let keep = tmp.path().join("demo");
            ok(&["demo", d.system, "--keep", keep.to_str().unwrap()]);
            let game = keep.join("game");
            (tmp, game)
        })
        .1
}

fn readers(d: &Demo) -> Vec<Reader> {
    vec![
        Reader::Side(d.sides[0].into()),
        Reader::Side(d.sides[1].into()),
        Reader::Public,
    ]
}

/// The units a reader's view of record `seq` holds on the map, by the name the view gives them
/// (the token of a face-down unit, else the id), sorted.
fn units_in_view(d: &Demo, game: &Game, seq: u64, reader: &Reader) -> Vec<String> {
    let state = pbem::engine::dir::read_text(&game.dir.state(seq)).unwrap();
    let view = game
        .system
        .view(game.data().unwrap(), &state, reader)
        .unwrap();
    let v: serde_json::Value = pbem::yaml::parse(&view.yaml, "view").unwrap();
    let mut units = (d.units)(&v);
    units.sort();
    units
}

/// The `data-unit` of every element marked `class="unit"` in an SVG, sorted.
fn units_in_svg(svg: &str) -> Vec<String> {
    let mut units: Vec<String> = svg
        .split('<')
        .filter(|el| el.contains(" class=\"unit\""))
        .map(|el| {
            let (_, rest) = el.split_once(" data-unit=\"").expect("a unit names itself");
            rest.split('"').next().unwrap().replace("&amp;", "&")
        })
        .collect();
    units.sort();
    units
}

#[test]
fn every_unit_of_every_view_of_a_game_is_drawn_exactly_once_and_nothing_else_is_a_unit() {
    for d in DEMOS {
        let game = Game::open(demo(d)).unwrap();
        let mut crowded = 0;
        for seq in 0..=game.last_seq() {
            for reader in readers(d) {
                let svg = picture::board(&game, &reader, seq).unwrap();
                let want = units_in_view(d, &game, seq, &reader);
                assert_eq!(
                    units_in_svg(svg.as_str()),
                    want,
                    "{} record {seq}, {reader:?}",
                    d.system
                );
                crowded += svg.as_str().matches("data-stack=").count();
            }
        }
        assert!(
            crowded > 0,
            "the {} demo has crowded stacks: the list is tested",
            d.system
        );
    }
}

#[test]
fn a_picture_is_well_formed_xml_with_the_fixed_font_stack_and_no_float_noise() {
    for d in DEMOS {
        well_formed(d);
    }
}

fn well_formed(d: &Demo) {
    let game = Game::open(demo(d)).unwrap();
    let svg = picture::board(&game, &Reader::Side(d.sides[1].into()), 13).unwrap();
    let s = svg.as_str();
    assert!(
        s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{s}"
    );
    assert!(s.contains("font-family=\"DejaVu Sans, Verdana, sans-serif\""));
    assert_eq!(s.matches("<g").count(), s.matches("</g>").count());
    // Numbers are integers, tenths or fixed opacities like 0.45: nothing like
    // 0.30000000000000004 or 1e-7 that a formatted float could give.
    for number in s
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .filter(|w| w.contains('.') && w.chars().next().is_some_and(|c| c.is_ascii_digit()))
    {
        let decimals = number.split('.').nth(1).unwrap_or("");
        assert!(decimals.len() <= 2 && !number.contains('e'), "{number}");
    }
}

#[test]
fn this_records_moves_are_arrows_and_its_combats_are_marked() {
    for d in DEMOS {
        let game = Game::open(demo(d)).unwrap();
        let (mut moves, mut combats) = (0, 0);
        for seq in 1..=game.last_seq() {
            let svg = picture::board(&game, &Reader::Public, seq).unwrap();
            moves += svg.as_str().matches("data-move=").count();
            combats += svg.as_str().matches("data-combat=").count();
        }
        assert!(
            moves > 20 && combats > 5,
            "{}: {moves} moves, {combats} combats",
            d.system
        );
    }
}

#[test]
fn the_same_view_gives_the_same_bytes_twice() {
    for d in DEMOS {
        let game = Game::open(demo(d)).unwrap();
        for reader in readers(d) {
            let a = picture::board(&game, &reader, 10).unwrap();
            let b = picture::board(&Game::open(demo(d)).unwrap(), &reader, 10).unwrap();
            assert_eq!(a, b);
            assert_eq!(
                picture::encode(a, picture::Format::Png).unwrap(),
                picture::encode(b, picture::Format::Png).unwrap()
            );
        }
    }
}

#[test]
fn pbem_map_twice_writes_identical_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = demo(&KUMMEN).to_str().unwrap();
    for name in ["a.svg", "b.svg", "a.png", "b.png"] {
        let out = tmp.path().join(name);
        ok(&[
            "map",
            dir,
            "--side",
            "mercenary",
            "--record",
            "7",
            "-o",
            out.to_str().unwrap(),
        ]);
    }
    let read = |n: &str| std::fs::read(tmp.path().join(n)).unwrap();
    assert_eq!(read("a.svg"), read("b.svg"));
    assert_eq!(read("a.png"), read("b.png"));
    assert!(
        read("a.svg").starts_with(b"<svg "),
        "-o x.svg writes an SVG"
    );
    assert!(
        png::size_of(&read("a.png")).is_some(),
        "-o x.png writes a PNG"
    );
}

#[test]
fn every_record_renders_to_a_png_of_the_pictures_size_for_both_sides_and_the_public() {
    for d in DEMOS {
        let game = Game::open(demo(d)).unwrap();
        for seq in 0..=game.last_seq() {
            for reader in readers(d) {
                let svg = picture::board(&game, &reader, seq).unwrap();
                let (w, h) = (svg.width(), svg.height());
                assert!(
                    (1200..=1700).contains(&w),
                    "{} record {seq}: {w} pixels wide",
                    d.system
                );
                let bytes = picture::encode(svg, picture::Format::Png).unwrap();
                assert_eq!(
                    png::size_of(&bytes),
                    Some((w, h)),
                    "{} record {seq} {reader:?}",
                    d.system
                );
            }
        }
    }
}

#[test]
fn map_without_a_record_draws_the_newest_and_public_draws_the_reports_board() {
    for d in DEMOS {
        let dir = demo(d).to_str().unwrap();
        let game = Game::open(demo(d)).unwrap();
        let newest = ok(&["map", dir, "--public"]);
        let at_last = ok(&[
            "map",
            dir,
            "--public",
            "--record",
            &game.last_seq().to_string(),
        ]);
        assert_eq!(newest, at_last);
        assert!(newest.contains(d.public_title), "{newest}");
    }
}

#[test]
fn a_side_the_game_lacks_or_a_record_it_lacks_is_refused_with_what_there_is() {
    let dir = demo(&KUMMEN).to_str().unwrap();
    let (code, _, err) = run(&["map", dir, "--side", "neutral"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no side \"neutral\"; sides: mercenary, beeler"),
        "{err}"
    );
    let (code, _, err) = run(&["map", dir, "--side", "beeler", "--record", "999"]);
    assert_eq!(code, 1);
    assert!(err.contains("there is no journal record 999"), "{err}");
    let (code, _, err) = run(&["map", dir, "--side", "beeler", "--public"]);
    assert_eq!(code, 2, "a side and --public: a usage error: {err}");
    let (code, _, _) = run(&["map", dir]);
    assert_eq!(code, 2, "neither a side nor --public");
}

#[cfg(target_os = "linux")]
#[test]
fn a_png_is_not_printed_to_a_terminal() {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let dir = demo(&KUMMEN);
    // A pseudo-terminal as the command's standard output: the command sees a terminal.
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let terminal = std::fs::OpenOptions::new()
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    // Whatever reaches the terminal is read, so a command that wrongly prints there cannot
    // block on a full terminal buffer (the read ends when the last writer closes it).
    let mut screen = std::fs::File::from(master);
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let _ = std::io::Read::read_to_end(&mut screen, &mut seen);
        seen.len()
    });
    // `pbem map DIR --side beeler --format png`, its standard output `stdout`.
    let png_to = |stdout: std::process::Stdio| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["map", dir.to_str().unwrap(), "--side", "beeler"])
            .args(["--format", "png"])
            .stdout(stdout)
            .output()
            .unwrap()
    };
    let out = png_to(terminal.into());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        reader.join().unwrap(),
        0,
        "nothing was written to the terminal"
    );
    assert!(
        err.contains("standard output is a terminal: write it to a file with -o FILE.png"),
        "{err}"
    );
    // The same command into a pipe prints the PNG.
    let piped = png_to(std::process::Stdio::piped());
    assert_eq!(piped.status.code(), Some(0));
    assert!(png::size_of(&piped.stdout).is_some(), "a PNG on the pipe");
}

#[test]
fn kummens_supply_line_is_named_on_the_map_and_in_the_panel_2_3_2_4_4_2() {
    let game = Game::open(demo(&KUMMEN)).unwrap();
    let svg = picture::board(&game, &Reader::Public, game.last_seq()).unwrap();
    let svg = svg.as_str();
    // The stand-in map's two supply river hexes, each with a plate, and the whole line.
    assert_eq!(svg.matches(">supply</text>").count(), 2, "{svg}");
    assert!(svg.contains("Supply line (4.4.2):"), "{svg}");
    assert!(svg.contains("EX-10, C08, D07, Zakui"), "{svg}");
}
