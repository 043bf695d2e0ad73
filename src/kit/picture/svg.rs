//! A small deterministic SVG writer: elements with escaped attribute values and text, and
//! every number an integer (pixels) or a fixed-decimal tenth ([`Dec`]). No float is ever
//! formatted, so the same picture is the same bytes on every machine.

use std::fmt::{self, Write as _};

/// A point in pixels; y grows downwards, as in SVG.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pt {
    pub x: i32,
    pub y: i32,
}

impl Pt {
    pub const fn new(x: i32, y: i32) -> Pt {
        Pt { x, y }
    }

    /// This point moved by (dx, dy).
    pub const fn add(self, dx: i32, dy: i32) -> Pt {
        Pt {
            x: self.x + dx,
            y: self.y + dy,
        }
    }
}

/// A number in tenths, printed with one fixed decimal when it has one: `Dec(15)` is `1.5`,
/// `Dec(20)` is `2`, `Dec(-5)` is `-0.5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec(pub i32);

impl fmt::Display for Dec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let v = self.0.unsigned_abs();
        if v.is_multiple_of(10) {
            write!(f, "{sign}{}", v / 10)
        } else {
            write!(f, "{sign}{}.{}", v / 10, v % 10)
        }
    }
}

/// A finished picture: the SVG document and its size in pixels (the PNG's size).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Svg {
    width: u32,
    height: u32,
    text: String,
}

impl Svg {
    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    pub fn as_str(&self) -> &str {
        &self.text
    }
    pub fn into_string(self) -> String {
        self.text
    }
}

/// `s` with the five XML special characters escaped, and control characters (which XML 1.0
/// forbids) dropped, so any text from a view makes a well-formed document.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// One element: its tag and attributes, in the order they were given.
#[derive(Debug, Clone)]
pub struct El {
    tag: &'static str,
    attrs: String,
}

impl El {
    pub fn new(tag: &'static str) -> El {
        El {
            tag,
            attrs: String::new(),
        }
    }

    /// A text attribute (escaped).
    pub fn attr(mut self, name: &'static str, value: &str) -> El {
        let _ = write!(self.attrs, " {name}=\"{}\"", escape(value));
        self
    }

    /// An integer attribute.
    pub fn num(mut self, name: &'static str, value: i32) -> El {
        let _ = write!(self.attrs, " {name}=\"{value}\"");
        self
    }

    /// A fixed-decimal attribute, in tenths.
    pub fn dec(mut self, name: &'static str, tenths: i32) -> El {
        let _ = write!(self.attrs, " {name}=\"{}\"", Dec(tenths));
        self
    }

    /// `x` and `y` of a point.
    pub fn at(self, p: Pt) -> El {
        self.num("x", p.x).num("y", p.y)
    }

    /// A `points` list (polygon, polyline).
    pub fn points(mut self, pts: &[Pt]) -> El {
        self.attrs.push_str(" points=\"");
        for (i, p) in pts.iter().enumerate() {
            if i > 0 {
                self.attrs.push(' ');
            }
            let _ = write!(self.attrs, "{},{}", p.x, p.y);
        }
        self.attrs.push('"');
        self
    }
}

/// An SVG document being written. Its size may grow while it is drawn ([`Doc::grow`]): the
/// header is written by [`Doc::finish`].
pub struct Doc {
    title: String,
    out: String,
    open: Vec<&'static str>,
    width: u32,
    height: u32,
}

/// The font stack every picture names: the embedded DejaVu Sans renders the PNG
/// ([`super::png`]); a browser without it falls back to fonts of about the same width.
pub const FONT_STACK: &str = "DejaVu Sans, Verdana, sans-serif";

impl Doc {
    /// A document `width` x `height` pixels on a white ground, with `title` as its <title>.
    pub fn new(width: u32, height: u32, title: &str) -> Doc {
        Doc {
            title: title.to_string(),
            out: String::with_capacity(64 * 1024),
            open: vec!["svg"],
            width,
            height,
        }
    }

    /// Makes the document at least `width` x `height` pixels.
    pub fn grow(&mut self, width: u32, height: u32) {
        self.width = self.width.max(width);
        self.height = self.height.max(height);
    }

    fn indent(&mut self) {
        for _ in 1..self.open.len() {
            self.out.push(' ');
        }
    }

    /// An empty element: `<tag attrs/>`.
    pub fn add(&mut self, el: El) {
        self.indent();
        let _ = writeln!(self.out, "<{}{}/>", el.tag, el.attrs);
    }

    /// Opens `el`; its children follow until [`Doc::close`].
    pub fn open(&mut self, el: El) {
        self.indent();
        let _ = writeln!(self.out, "<{}{}>", el.tag, el.attrs);
        self.open.push(el.tag);
    }

    /// Closes the element opened last (never the document itself: [`Doc::finish`] does).
    pub fn close(&mut self) {
        if self.open.len() > 1
            && let Some(tag) = self.open.pop()
        {
            self.indent();
            let _ = writeln!(self.out, "</{tag}>");
        }
    }

    /// An element holding `content` as text (escaped).
    pub fn text(&mut self, el: El, content: &str) {
        self.indent();
        let _ = writeln!(
            self.out,
            "<{}{}>{}</{}>",
            el.tag,
            el.attrs,
            escape(content),
            el.tag
        );
    }

    /// Closes every open element and gives the document.
    pub fn finish(mut self) -> Svg {
        while self.open.len() > 1 {
            self.close();
        }
        let (width, height) = (self.width, self.height);
        let mut text = String::with_capacity(self.out.len() + 512);
        let _ = write!(
            text,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"{}\">\n<title>{}</title>\n",
            escape(FONT_STACK),
            escape(&self.title)
        );
        let _ = writeln!(
            text,
            "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
        );
        text.push_str(&self.out);
        text.push_str("</svg>\n");
        Svg {
            width,
            height,
            text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenths_print_with_one_fixed_decimal_or_none() {
        let shown: Vec<String> = [0, 5, 15, 20, -5, -25, 1234]
            .iter()
            .map(|&t| Dec(t).to_string())
            .collect();
        assert_eq!(shown, ["0", "0.5", "1.5", "2", "-0.5", "-2.5", "123.4"]);
    }

    #[test]
    fn text_and_attributes_are_escaped_and_control_characters_dropped() {
        let mut d = Doc::new(10, 10, "a<b");
        d.text(
            El::new("text").attr("data-unit", "x\"y&z"),
            "B#1 <&> 'q'\u{7}",
        );
        let s = d.finish().into_string();
        assert!(s.contains("<title>a&lt;b</title>"), "{s}");
        assert!(s.contains("data-unit=\"x&quot;y&amp;z\""), "{s}");
        assert!(s.contains(">B#1 &lt;&amp;&gt; &apos;q&apos;</text>"), "{s}");
    }

    #[test]
    fn finish_closes_what_is_open_in_order() {
        let mut d = Doc::new(10, 10, "t");
        d.open(El::new("g"));
        d.open(El::new("g").attr("id", "inner"));
        d.add(El::new("circle").num("r", 2));
        d.close();
        d.close();
        d.close();
        let s = d.finish().into_string();
        assert_eq!(s.matches("<g").count(), s.matches("</g>").count(), "{s}");
        assert!(s.ends_with("</g>\n</svg>\n"), "{s}");
    }

    #[test]
    fn a_document_grows_to_what_was_drawn_and_never_shrinks() {
        let mut d = Doc::new(100, 50, "t");
        d.grow(80, 120);
        let svg = d.finish();
        assert_eq!((svg.width(), svg.height()), (100, 120));
        assert!(
            svg.as_str().starts_with(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"120\""
            )
        );
    }

    #[test]
    fn points_are_listed_as_integer_pairs() {
        let mut d = Doc::new(10, 10, "t");
        d.add(El::new("polyline").points(&[Pt::new(1, 2), Pt::new(-3, 4)]));
        assert!(d.finish().as_str().contains("points=\"1,2 -3,4\""));
    }
}
