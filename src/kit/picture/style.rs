//! Colours and patterns. Every distinction a picture makes must survive a grey printer and a
//! reader who does not tell hues apart, so no two things that must be told apart differ by hue
//! alone: sides differ in lightness (light / dark / middle) and in their outline (solid,
//! dashed, double), face-down backs carry a pattern (hatching, dots, crosses), terrain differs
//! in lightness and texture, and every controller mark also carries the side's letter.

use super::svg::{Doc, El};

/// How a shape is painted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ink {
    pub fill: &'static str,
    pub stroke: &'static str,
    /// Colour of text drawn on the fill.
    pub text: &'static str,
    /// Stroke width in tenths of a pixel.
    pub width: i32,
    /// A stroke-dasharray, or none for a solid outline.
    pub dash: Option<&'static str>,
    /// A texture laid over the fill.
    pub pattern: Option<Pattern>,
}

impl Ink {
    pub const fn plain(fill: &'static str, stroke: &'static str, text: &'static str) -> Ink {
        Ink {
            fill,
            stroke,
            text,
            width: 10,
            dash: None,
            pattern: None,
        }
    }

    /// `el` painted with this ink's fill and outline (its pattern is a second shape: see
    /// [`Ink::paint`]).
    pub fn on(&self, el: El) -> El {
        let el = el
            .attr("fill", self.fill)
            .attr("stroke", self.stroke)
            .dec("stroke-width", self.width);
        match self.dash {
            Some(d) => el.attr("stroke-dasharray", d),
            None => el,
        }
    }

    /// Draws `shape` (an element without paint) filled and outlined, with the pattern laid
    /// over it when the ink has one.
    pub fn paint(&self, doc: &mut Doc, shape: El) {
        match self.pattern {
            None => doc.add(self.on(shape)),
            Some(p) => {
                doc.add(self.on(shape.clone()));
                doc.add(
                    shape
                        .attr("fill", &format!("url(#{})", p.id()))
                        .attr("stroke", "none"),
                );
            }
        }
    }
}

/// Textures, defined once per document by [`defs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Diagonal lines, light on dark or dark on light: the first side's backs.
    Hatch,
    /// Dots: the second side's backs.
    Dots,
    /// Crosses: a third side's backs.
    Cross,
    /// Small tree marks: forest.
    Trees,
    /// Short arcs: highland, rough ground.
    Contours,
    /// Horizontal waves: water.
    Waves,
}

impl Pattern {
    pub const ALL: [Pattern; 6] = [
        Pattern::Hatch,
        Pattern::Dots,
        Pattern::Cross,
        Pattern::Trees,
        Pattern::Contours,
        Pattern::Waves,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Pattern::Hatch => "p-hatch",
            Pattern::Dots => "p-dots",
            Pattern::Cross => "p-cross",
            Pattern::Trees => "p-trees",
            Pattern::Contours => "p-contours",
            Pattern::Waves => "p-waves",
        }
    }
}

/// The look of one side: counters face up (`front`), face down (`back`), its controller
/// mark (`mark`, a letter), and its move arrows (`arrow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideInk {
    pub front: Ink,
    pub back: Ink,
    pub arrow: Ink,
}

/// The inks of the side in seat position `index` (0, 1, 2, 3; later seats reuse the last).
/// Light, dark, middle and light-with-double-outline: apart in grey as well as in colour.
pub fn side(index: usize) -> SideInk {
    match index {
        0 => SideInk {
            front: Ink {
                width: 15,
                ..Ink::plain("#f4e2ae", "#4a3c10", "#1e1806")
            },
            back: Ink {
                width: 15,
                pattern: Some(Pattern::Hatch),
                ..Ink::plain("#c7a446", "#4a3c10", "#1e1806")
            },
            arrow: Ink {
                width: 40,
                ..Ink::plain("none", "#6b4f00", "#6b4f00")
            },
        },
        1 => SideInk {
            front: Ink {
                width: 15,
                ..Ink::plain("#34507e", "#0b1630", "#ffffff")
            },
            back: Ink {
                width: 15,
                pattern: Some(Pattern::Dots),
                ..Ink::plain("#172440", "#000000", "#ffffff")
            },
            arrow: Ink {
                width: 40,
                dash: Some("10 5"),
                ..Ink::plain("none", "#0b1f55", "#0b1f55")
            },
        },
        2 => SideInk {
            front: Ink {
                width: 15,
                dash: Some("4 2"),
                ..Ink::plain("#9cc59a", "#173d15", "#0b1f0a")
            },
            back: Ink {
                width: 15,
                dash: Some("4 2"),
                pattern: Some(Pattern::Cross),
                ..Ink::plain("#5e8d5b", "#0b1f0a", "#ffffff")
            },
            arrow: Ink {
                width: 40,
                dash: Some("3 4"),
                ..Ink::plain("none", "#1d5a1a", "#1d5a1a")
            },
        },
        _ => SideInk {
            front: Ink {
                width: 30,
                ..Ink::plain("#f1c2c2", "#5a1010", "#2a0505")
            },
            back: Ink {
                width: 30,
                pattern: Some(Pattern::Hatch),
                ..Ink::plain("#b96a6a", "#2a0505", "#ffffff")
            },
            arrow: Ink {
                width: 40,
                dash: Some("14 4 3 4"),
                ..Ink::plain("none", "#7a1010", "#7a1010")
            },
        },
    }
}

/// A place no side controls.
pub const NEUTRAL: Ink = Ink {
    width: 15,
    dash: Some("3 2"),
    ..Ink::plain("#ffffff", "#333333", "#111111")
};

/// Hex and square outlines.
pub const GRID_LINE: &str = "#8a8a80";
/// Hex labels and other quiet text.
pub const QUIET_TEXT: &str = "#55554d";
/// Panel frames.
pub const FRAME: Ink = Ink::plain("#fbfaf6", "#6a6a60", "#111111");
/// Combat markers: a light starburst with a heavy outline (its shape tells it apart in grey).
pub const COMBAT: Ink = Ink {
    width: 20,
    ..Ink::plain("#ff6a3d", "#2a0000", "#000000")
};

/// Writes the patterns of [`Pattern::ALL`] and the arrowheads of every side ink (`arrowhead-0`
/// .. `arrowhead-3`) into `doc`'s <defs>.
pub fn defs(doc: &mut Doc) {
    doc.open(El::new("defs"));
    for p in Pattern::ALL {
        let (size, body): (i32, &[El]) = match p {
            Pattern::Hatch => (
                8,
                &[El::new("path")
                    .attr("d", "M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4")
                    .attr("stroke", "#000000")
                    .attr("stroke-opacity", "0.45")
                    .dec("stroke-width", 15)],
            ),
            Pattern::Dots => (
                6,
                &[El::new("circle")
                    .num("cx", 3)
                    .num("cy", 3)
                    .dec("r", 12)
                    .attr("fill", "#ffffff")
                    .attr("fill-opacity", "0.55")],
            ),
            Pattern::Cross => (
                8,
                &[El::new("path")
                    .attr("d", "M2,4 h4 M4,2 v4")
                    .attr("stroke", "#ffffff")
                    .attr("stroke-opacity", "0.6")
                    .dec("stroke-width", 12)],
            ),
            // Sparse marks: a dense texture costs time to render and bytes in the PNG.
            Pattern::Trees => (
                20,
                &[El::new("path")
                    .attr("d", "M4,10 l3,-6 l3,6 z M14,19 l3,-6 l3,6 z")
                    .attr("fill", "#2f5d2a")
                    .attr("fill-opacity", "0.4")],
            ),
            Pattern::Contours => (
                16,
                &[El::new("path")
                    .attr("d", "M1,9 q4,-6 8,0 M9,15 q3,-5 6,0")
                    .attr("fill", "none")
                    .attr("stroke", "#6b4a1e")
                    .attr("stroke-opacity", "0.6")
                    .dec("stroke-width", 12)],
            ),
            Pattern::Waves => (
                12,
                &[El::new("path")
                    .attr("d", "M0,6 q3,-3 6,0 t6,0")
                    .attr("fill", "none")
                    .attr("stroke", "#ffffff")
                    .attr("stroke-opacity", "0.7")
                    .dec("stroke-width", 12)],
            ),
        };
        doc.open(
            El::new("pattern")
                .attr("id", p.id())
                .attr("patternUnits", "userSpaceOnUse")
                .num("width", size)
                .num("height", size),
        );
        for el in body {
            doc.add(el.clone());
        }
        doc.close();
    }
    for i in 0..4 {
        let ink = side(i).arrow;
        doc.open(
            El::new("marker")
                .attr("id", &format!("arrowhead-{i}"))
                .attr("viewBox", "0 0 10 10")
                .num("refX", 7)
                .num("refY", 5)
                .num("markerWidth", 4)
                .num("markerHeight", 4)
                .attr("markerUnits", "strokeWidth")
                .attr("orient", "auto"),
        );
        doc.add(
            El::new("path")
                .attr("d", "M0,0 L10,5 L0,10 z")
                .attr("fill", ink.stroke),
        );
        doc.close();
    }
    doc.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grey a colour prints as (Rec. 601 luma, 0-255).
    fn luma(colour: &str) -> i32 {
        let hex = colour.trim_start_matches('#');
        let c = |i: usize| i32::from_str_radix(&hex[i..i + 2], 16).unwrap();
        (299 * c(0) + 587 * c(2) + 114 * c(4)) / 1000
    }

    #[test]
    fn the_first_three_sides_print_as_different_greys_and_the_fourth_has_its_own_outline() {
        let fronts: Vec<i32> = (0..3).map(|i| luma(side(i).front.fill)).collect();
        for a in 0..3 {
            for b in a + 1..3 {
                assert!(
                    (fronts[a] - fronts[b]).abs() >= 40,
                    "sides {a} and {b}: {fronts:?}"
                );
            }
        }
        let widths: Vec<i32> = (0..4).map(|i| side(i).front.width).collect();
        assert!(widths[..3].iter().all(|w| *w != widths[3]), "{widths:?}");
    }

    #[test]
    fn a_back_prints_apart_from_its_front_and_carries_a_pattern() {
        for i in 0..4 {
            let s = side(i);
            assert!(
                (luma(s.front.fill) - luma(s.back.fill)).abs() >= 40,
                "side {i}"
            );
            assert!(
                s.back.pattern.is_some() && s.front.pattern.is_none(),
                "side {i}"
            );
        }
    }

    #[test]
    fn move_arrows_of_different_sides_differ_in_their_dashes() {
        let dashes: Vec<Option<&str>> = (0..4).map(|i| side(i).arrow.dash).collect();
        for a in 0..4 {
            for b in a + 1..4 {
                assert_ne!(dashes[a], dashes[b], "sides {a} and {b}");
            }
        }
    }

    #[test]
    fn the_neutral_controller_is_white_with_a_dashed_outline() {
        assert_eq!(luma(NEUTRAL.fill), 255);
        assert!(NEUTRAL.dash.is_some());
    }
}
