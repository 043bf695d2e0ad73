//! PNG from a picture's SVG, rendered by resvg with the fonts embedded in this binary
//! (assets/fonts: DejaVu Sans and DejaVu Sans Bold) and never the system's, so the text of a
//! picture renders the same wherever pbem runs.

use super::svg::Svg;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

static REGULAR: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

/// The font database of every render: the two embedded faces, loaded once per process. Every
/// generic family (sans-serif, serif, ...) names DejaVu Sans, so a font stack that falls
/// through still finds it.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        db.set_serif_family("DejaVu Sans");
        db.set_monospace_family("DejaVu Sans");
        db.set_cursive_family("DejaVu Sans");
        db.set_fantasy_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// The PNG image of `svg`, at its own size (one SVG pixel, one image pixel).
pub fn render(svg: &Svg) -> Result<Vec<u8>, String> {
    encode(&rasterize(&parse(svg)?, svg)?)
}

/// The SVG read by usvg with the embedded fonts (text becomes outlines here).
pub fn parse(svg: &Svg) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg.as_str(), &options)
        .map_err(|e| format!("the picture's SVG does not read: {e} (a defect in pbem)"))
}

/// The pixels of `tree`, the size of `svg`.
pub fn rasterize(tree: &usvg::Tree, svg: &Svg) -> Result<tiny_skia::Pixmap, String> {
    let mut pixmap = tiny_skia::Pixmap::new(svg.width(), svg.height()).ok_or_else(|| {
        format!(
            "a picture of {} x {} pixels cannot be rendered",
            svg.width(),
            svg.height()
        )
    })?;
    resvg::render(tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// How the pixels are compressed: the deflate setting and the row filters.
#[derive(Clone, Copy, Debug)]
pub struct Encoding {
    pub deflate: ::png::DeflateCompression,
    pub filter: ::png::Filter,
}

/// The encoding of pbem's PNGs: deflate level 1 with every row filtered by its left neighbour
/// encodes a board in under half the time of level 2 with filters chosen per row, for a file
/// about 11 % larger; fdeflate would be twice as fast again but twice the size
/// (docs/performance.md, "Board pictures").
pub const ENCODING: Encoding = Encoding {
    deflate: ::png::DeflateCompression::Level(1),
    filter: ::png::Filter::Sub,
};

/// The pixels as PNG bytes: 8-bit RGB (the ground is opaque white, so no alpha), compressed
/// as `encoding` says.
pub fn encode_with(pixmap: &tiny_skia::Pixmap, encoding: Encoding) -> Result<Vec<u8>, String> {
    let mut rgb = Vec::with_capacity(pixmap.data().len() / 4 * 3);
    for px in pixmap.data().chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    let mut out = Vec::new();
    let mut enc = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(::png::ColorType::Rgb);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_deflate_compression(encoding.deflate);
    enc.set_filter(encoding.filter);
    let fail = |e: ::png::EncodingError| format!("cannot encode the picture as PNG: {e}");
    let mut w = enc.write_header().map_err(fail)?;
    w.write_image_data(&rgb).map_err(fail)?;
    w.finish().map_err(fail)?;
    Ok(out)
}

/// The pixels as PNG bytes ([`encode_with`] pbem's [`ENCODING`]).
pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    encode_with(pixmap, ENCODING)
}

/// The width and height a PNG's header gives, if `bytes` start like a PNG.
pub fn size_of(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&bytes[16..20]), be(&bytes[20..24])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::picture::svg::{Doc, El};

    #[test]
    fn a_picture_renders_to_a_png_of_its_size_with_text() {
        let mut doc = Doc::new(120, 40, "t");
        doc.text(
            El::new("text")
                .num("x", 4)
                .num("y", 30)
                .num("font-size", 24),
            "B08 9-4",
        );
        let svg = doc.finish();
        let png = render(&svg).unwrap();
        assert_eq!(size_of(&png), Some((120, 40)));
        assert_eq!(
            render(&svg).unwrap(),
            png,
            "the same picture, the same bytes"
        );
    }

    #[test]
    fn text_is_drawn_with_the_embedded_font() {
        // Two documents differing only in their text: if no font were found, both would render
        // as a blank ground and give the same bytes.
        let doc = |s: &str| {
            let mut d = Doc::new(60, 30, "t");
            d.text(
                El::new("text")
                    .num("x", 2)
                    .num("y", 22)
                    .num("font-size", 20),
                s,
            );
            render(&d.finish()).unwrap()
        };
        assert_ne!(doc("A"), doc("B"));
    }

    #[test]
    fn bytes_that_are_not_a_png_have_no_size() {
        assert_eq!(size_of(b"GIF89a...................."), None);
        assert_eq!(size_of(b""), None);
    }
}
