//! The column beside the map: the tracks (turn, stage, points), the units of crowded stacks
//! listed by cell label, and the legend. A [`Panel`] is filled top to bottom; each block
//! moves its cursor down.

use super::pieces::{self, Counter};
use super::style::{self, FRAME, Ink, QUIET_TEXT};
use super::svg::{Doc, El, Pt};
use super::text;

/// One entry of the legend.
#[derive(Debug, Clone)]
pub enum Swatch {
    /// A filled cell (terrain, a place).
    Fill(Ink),
    /// A line of these colours (outer, inner) and width, as a river chain.
    Chain(&'static str, &'static str, i32),
    /// A counter as drawn on the map (its `key` is not a unit: the legend's counters carry
    /// no `data-unit`).
    Counter(Counter),
    /// A controller mark with its letter.
    Control(Ink, String),
    /// A move arrow of the side in this seat position.
    Arrow(usize),
    /// The combat marker.
    Combat,
}

/// A column of blocks at `x`, `width` pixels wide, filled from `top` down.
pub struct Panel {
    pub x: i32,
    pub width: i32,
    /// Where the next block starts.
    pub y: i32,
}

const LINE: i32 = 15;

impl Panel {
    pub fn new(x: i32, top: i32, width: i32) -> Panel {
        Panel { x, width, y: top }
    }

    /// A bold heading and a rule under it.
    pub fn heading(&mut self, doc: &mut Doc, s: &str) {
        self.y += 4;
        doc.text(
            El::new("text")
                .num("x", self.x)
                .num("y", self.y + 13)
                .num("font-size", 13)
                .attr("font-weight", "bold")
                .attr("fill", "#111111"),
            s,
        );
        self.y += 17;
        doc.add(
            El::new("line")
                .num("x1", self.x)
                .num("y1", self.y)
                .num("x2", self.x + self.width)
                .num("y2", self.y)
                .attr("stroke", FRAME.stroke)
                .num("stroke-width", 1),
        );
        self.y += 4;
    }

    /// Lines of text at `size`, wrapped to the panel's width.
    pub fn para(&mut self, doc: &mut Doc, s: &str, size: i32, bold: bool) {
        let words: Vec<String> = s.split(' ').map(String::from).collect();
        for l in text::wrap(&words, size, bold, self.width) {
            let mut el = El::new("text")
                .num("x", self.x)
                .num("y", self.y + size)
                .num("font-size", size)
                .attr("fill", "#111111");
            if bold {
                el = el.attr("font-weight", "bold");
            }
            doc.text(el, &l);
            self.y += size + 4;
        }
    }

    /// `label` in quiet text and `value` in bold after it, on one line.
    pub fn pair(&mut self, doc: &mut Doc, label: &str, value: &str) {
        doc.text(
            El::new("text")
                .num("x", self.x)
                .num("y", self.y + 12)
                .num("font-size", 12)
                .attr("fill", QUIET_TEXT),
            label,
        );
        let lw = text::width(label, 12, false) + 6;
        doc.text(
            El::new("text")
                .num("x", self.x + lw)
                .num("y", self.y + 12)
                .num("font-size", 12)
                .attr("font-weight", "bold")
                .attr("fill", "#111111"),
            &text::fit(value, 12, true, self.width - lw),
        );
        self.y += LINE + 2;
    }

    /// A track of numbered boxes `first..=last` with `current` dark (`data-track` = label).
    pub fn track(&mut self, doc: &mut Doc, label: &str, first: u32, last: u32, current: u32) {
        doc.text(
            El::new("text")
                .num("x", self.x)
                .num("y", self.y + 12)
                .num("font-size", 12)
                .attr("fill", QUIET_TEXT),
            label,
        );
        self.y += LINE;
        let n = i32::try_from(last.saturating_sub(first) + 1).unwrap_or(1);
        let cell = (self.width / n.max(1)).clamp(14, 26);
        let mut x = self.x;
        doc.open(El::new("g").attr("data-track", label));
        for v in first..=last {
            if x + cell > self.x + self.width {
                x = self.x;
                self.y += cell + 2;
            }
            let on = v == current;
            doc.add(
                El::new("rect")
                    .at(Pt::new(x, self.y))
                    .num("width", cell - 2)
                    .num("height", cell - 2)
                    .attr("fill", if on { "#222222" } else { "#ffffff" })
                    .attr("stroke", "#555555")
                    .num("stroke-width", if on { 2 } else { 1 }),
            );
            doc.text(
                El::new("text")
                    .num("x", x + (cell - 2) / 2)
                    .num("y", self.y + cell / 2 + 3)
                    .num("font-size", 10)
                    .attr("font-weight", if on { "bold" } else { "normal" })
                    .attr("text-anchor", "middle")
                    .attr("fill", if on { "#ffffff" } else { "#333333" }),
                &v.to_string(),
            );
            x += cell;
        }
        doc.close();
        self.y += cell + 4;
    }

    /// The units of one crowded cell: `cell` (its label and place name) in bold, then each
    /// unit as a chip of its counter's ink and its `text`, wrapped. Each entry is the unit's
    /// one `data-unit` element in the picture.
    pub fn units(&mut self, doc: &mut Doc, cell: &str, entries: &[(Counter, String)]) {
        doc.text(
            El::new("text")
                .num("x", self.x)
                .num("y", self.y + 12)
                .num("font-size", 12)
                .attr("font-weight", "bold")
                .attr("fill", "#111111"),
            cell,
        );
        self.y += LINE + 1;
        let mut x = self.x + 8;
        for (c, label) in entries {
            let w = 12 + text::width(label, 11, false) + 10;
            if x + w > self.x + self.width && x > self.x + 8 {
                x = self.x + 8;
                self.y += LINE;
            }
            doc.open(El::new("g").attr("class", "unit").attr("data-unit", &c.key));
            c.ink().paint(
                doc,
                El::new("rect")
                    .at(Pt::new(x, self.y + 2))
                    .num("width", 10)
                    .num("height", 10)
                    .num("rx", 2),
            );
            doc.text(
                El::new("text")
                    .num("x", x + 13)
                    .num("y", self.y + 11)
                    .num("font-size", 11)
                    .attr("fill", "#111111"),
                label,
            );
            doc.close();
            x += w;
        }
        self.y += LINE + 4;
    }

    /// The legend: a swatch and its meaning per line, two columns when the panel is wide.
    pub fn legend(&mut self, doc: &mut Doc, items: &[(Swatch, String)]) {
        let columns = if self.width >= 320 { 2 } else { 1 };
        let col_w = self.width / columns;
        let row_h = 30;
        doc.open(El::new("g").attr("class", "legend"));
        for (i, (swatch, label)) in items.iter().enumerate() {
            let i = i32::try_from(i).unwrap_or(0);
            let x = self.x + (i % columns) * col_w;
            let y = self.y + (i / columns) * row_h;
            draw_swatch(doc, swatch, Pt::new(x, y));
            let lines = text::wrap(
                &label.split(' ').map(String::from).collect::<Vec<_>>(),
                11,
                false,
                col_w - 36,
            );
            let first_y = if lines.len() > 1 { y + 10 } else { y + 16 };
            for (k, l) in lines.iter().take(2).enumerate() {
                doc.text(
                    El::new("text")
                        .num("x", x + 34)
                        .num("y", first_y + i32::try_from(k).unwrap_or(0) * 12)
                        .num("font-size", 11)
                        .attr("fill", "#111111"),
                    l,
                );
            }
        }
        doc.close();
        let n = i32::try_from(items.len()).unwrap_or(0);
        self.y += ((n + columns - 1) / columns) * row_h + 4;
    }
}

/// A swatch in a 28 x 24 box at `at`.
fn draw_swatch(doc: &mut Doc, swatch: &Swatch, at: Pt) {
    match swatch {
        Swatch::Fill(ink) => ink.paint(
            doc,
            El::new("rect")
                .at(at.add(2, 2))
                .num("width", 24)
                .num("height", 20),
        ),
        Swatch::Chain(outer, inner, width) => {
            for (colour, w) in [(*outer, *width), (*inner, *width / 2)] {
                doc.add(
                    El::new("line")
                        .num("x1", at.x + 2)
                        .num("y1", at.y + 12)
                        .num("x2", at.x + 26)
                        .num("y2", at.y + 12)
                        .attr("stroke", colour)
                        .num("stroke-width", w)
                        .attr("stroke-linecap", "round"),
                );
            }
        }
        // Drawn like a map counter but not marked as a unit: the legend is not in the view.
        Swatch::Counter(c) => c.draw_sample(doc, at.add(2, 0), 24),
        Swatch::Control(ink, letter) => pieces::control_mark(doc, at.add(14, 12), 10, ink, letter),
        Swatch::Arrow(side) => pieces::arrow(doc, &[at.add(0, 12), at.add(28, 12)], *side, 0, ""),
        Swatch::Combat => {
            pieces::combat_outline(
                doc,
                &[at.add(1, 1), at.add(27, 1), at.add(27, 23), at.add(1, 23)],
            );
            pieces::combat(doc, at.add(8, 12), 8, "");
        }
    }
}

/// Ink of the side in seat position `side`, face up or down (for legend counters).
pub fn side_ink(side: usize, down: bool) -> Ink {
    let s = style::side(side);
    if down { s.back } else { s.front }
}
