//! The time to draw a board picture (issue 13: under 50 ms per picture in release): the SVG of
//! a view (reading the record's state and events, the view, the drawing) and the PNG rendered
//! from it, for every record of the kummen and the dougram demo games and each reader (both
//! sides and the public), in one process.
//!
//! Run with `cargo bench --bench pictures`. Figures are printed, never asserted
//! (docs/performance.md).

mod common;

use common::measuring;
use pbem::engine::game::Game;
use pbem::engine::picture;
use pbem::kit::picture::png;
use pbem::systems::Reader;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    if !measuring() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dougram = demo(tmp.path(), "dougram");
    measure(&dougram, "dougram");
    let kummen = demo(tmp.path(), "kummen");
    let pixels = measure(&kummen, "kummen");
    // The encodings against time and size, on kummen's last picture.
    use ::png::{DeflateCompression as D, Filter as F};
    let encodings = [
        ("level 1, adaptive", D::Level(1), F::Adaptive),
        ("level 2, adaptive", D::Level(2), F::Adaptive),
        ("level 1, sub", D::Level(1), F::Sub),
        ("level 1, up", D::Level(1), F::Up),
        ("level 1, paeth", D::Level(1), F::Paeth),
        ("level 6, adaptive", D::Level(6), F::Adaptive),
        ("level 2, up", D::Level(2), F::Up),
        ("level 2, sub", D::Level(2), F::Sub),
        ("fdeflate, adaptive", D::FdeflateUltraFast, F::Adaptive),
        ("fdeflate, up", D::FdeflateUltraFast, F::Up),
        ("fdeflate, sub", D::FdeflateUltraFast, F::Sub),
        ("fdeflate, paeth", D::FdeflateUltraFast, F::Paeth),
    ];
    for (name, deflate, filter) in encodings {
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let encoding = png::Encoding { deflate, filter };
            size = png::encode_with(&pixels, encoding).unwrap().len();
            times.push(t.elapsed());
        }
        report(&format!("  encode, {name}"), &mut times, size);
    }
}

/// The demo game of `system`, played into `tmp`.
fn demo(tmp: &std::path::Path, system: &str) -> Game {
    let keep = tmp.join(system);
    let status = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["demo", system, "--keep", keep.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "pbem demo {system}");
    Game::open(&keep.join("game")).unwrap()
}

/// Draws every record of `game` for each reader and prints the times; returns the pixels of
/// the last picture, for the deflate table.
fn measure(game: &Game, system: &str) -> resvg::tiny_skia::Pixmap {
    let mut readers: Vec<Reader> = game
        .config
        .side_names()
        .into_iter()
        .map(Reader::Side)
        .collect();
    readers.push(Reader::Public);
    let (mut svg_times, mut png_times) = (Vec::new(), Vec::new());
    let (mut svg_bytes, mut png_bytes) = (0usize, 0usize);
    let mut stages: [Vec<Duration>; 3] = Default::default();
    for seq in 0..=game.last_seq() {
        for reader in &readers {
            let t = Instant::now();
            let svg = picture::board(game, reader, seq).unwrap();
            svg_times.push(t.elapsed());
            svg_bytes += svg.as_str().len();
            let t = Instant::now();
            let tree = png::parse(&svg).unwrap();
            let parsed = t.elapsed();
            let pixels = png::rasterize(&tree, &svg).unwrap();
            let drawn = t.elapsed();
            let bytes = png::encode(&pixels).unwrap();
            let all = t.elapsed();
            png_times.push(all);
            stages[0].push(parsed);
            stages[1].push(drawn - parsed);
            stages[2].push(all - drawn);
            png_bytes += bytes.len();
        }
    }
    let n = svg_times.len();
    println!(
        "{n} pictures ({system} demo: {} records x {} readers)",
        game.last_seq() + 1,
        readers.len()
    );
    report("SVG (state, view, drawing)", &mut svg_times, svg_bytes / n);
    report("PNG (resvg, from the SVG)", &mut png_times, png_bytes / n);
    let [parse, raster, encode] = &mut stages;
    report("  of which: usvg parse+text", parse, 0);
    report("  of which: rasterize", raster, 0);
    report("  of which: PNG encode", encode, 0);
    let svg = picture::board(game, &readers[0], game.last_seq()).unwrap();
    png::rasterize(&png::parse(&svg).unwrap(), &svg).unwrap()
}

fn report(what: &str, times: &mut [Duration], mean_bytes: usize) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what:<28} median {:>7.2} ms   90% {:>7.2} ms   max {:>7.2} ms   mean size {} KB",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        ms(times[times.len() - 1]),
        mean_bytes / 1024
    );
}
