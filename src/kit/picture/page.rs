//! The frame every board picture shares: a title line over the map, the map's cells of units
//! (counters, or piles and a list for a crowded cell), place names and combats drawn the same
//! way on every grid, and the panel's closing legend and stand-in note. A system draws its own
//! terrain, places and panel rows between [`Page::begin`] and [`Page::finish`].

use super::panel::{Panel, Swatch};
use super::pieces::{self, Counter};
use super::style;
use super::svg::{Doc, El, Pt, Svg};
use super::text;

/// Margin around the picture, in pixels.
pub const MARGIN: i32 = 16;
/// Height of the title line above the map.
pub const TITLE: i32 = 40;
/// Gap between the map and the panel.
const GAP: i32 = 20;

/// A picture being drawn: its document, the map's top-left corner and the panel's column.
pub struct Page {
    pub doc: Doc,
    /// Where the map's layout starts (below the title).
    pub map_origin: Pt,
    pub panel_x: i32,
    width: i32,
}

impl Page {
    /// The origin a map layout should use: the map is drawn from here.
    pub fn map_origin() -> Pt {
        Pt::new(MARGIN, MARGIN + TITLE)
    }

    /// A picture of a map of `map_size` pixels (drawn at [`Page::map_origin`]) with a panel
    /// `panel_width` wide on its right; `title` in bold, `subtitle` (where the game stands)
    /// after it.
    pub fn begin(title: &str, subtitle: &str, map_size: (i32, i32), panel_width: i32) -> Page {
        let (map_w, map_h) = map_size;
        let panel_x = MARGIN + map_w + GAP;
        let width = panel_x + panel_width + MARGIN;
        let mut doc = Doc::new(
            u32::try_from(width).unwrap_or(0),
            u32::try_from(MARGIN + TITLE + map_h + MARGIN).unwrap_or(0),
            title,
        );
        style::defs(&mut doc);
        doc.text(
            El::new("text")
                .num("x", MARGIN)
                .num("y", MARGIN + 20)
                .num("font-size", 20)
                .attr("font-weight", "bold")
                .attr("fill", "#111111"),
            title,
        );
        doc.text(
            El::new("text")
                .num("x", MARGIN + text::width(title, 20, true) + 24)
                .num("y", MARGIN + 20)
                .num("font-size", 14)
                .attr("fill", "#333333"),
            subtitle,
        );
        Page {
            doc,
            map_origin: Page::map_origin(),
            panel_x,
            width,
        }
    }

    /// The panel beside the map, from the title line down.
    pub fn panel(&self, width: i32) -> Panel {
        Panel::new(self.panel_x, MARGIN + TITLE, width)
    }

    /// Draws each cell's units: its counters at the cell's point, or, when more than
    /// [`pieces::MAX_IN_CELL`] share it, one pile per side; a crowded cell's units come back
    /// as `(its title, each counter with its list text)` for [`Panel::units`], so every unit is
    /// drawn exactly once.
    pub fn units(&mut self, cells: Vec<Cell>, size: i32) -> Vec<(String, Vec<(Counter, String)>)> {
        let mut crowded = Vec::new();
        self.doc.open(El::new("g").attr("class", "units"));
        for cell in cells {
            let counters: Vec<Counter> = cell.units.iter().map(|(c, _)| c.clone()).collect();
            if !pieces::stack(&mut self.doc, cell.at, size, &cell.label, &counters) {
                crowded.push((
                    format!("{} ({} units)", cell.title, cell.units.len()),
                    cell.units,
                ));
            }
        }
        self.doc.close();
        crowded
    }

    /// Place names on white plates at each point; a name wider than `fits` pixels in bold
    /// is set smaller and lighter, so its plate stays clear of the neighbours' counters.
    pub fn names(&mut self, names: &[(Pt, String)], fits: i32) {
        self.doc.open(El::new("g").attr("class", "names"));
        for (at, name) in names {
            let bold = text::width(name, 10, true) <= fits;
            let size = if bold { 10 } else { 9 };
            pieces::plate(&mut self.doc, *at, name, size, bold);
        }
        self.doc.close();
    }

    /// This step's combats: each cell outlined heavily (its `corners`) with a burst at
    /// `burst`, over the counters.
    pub fn combats<C: AsRef<[Pt]>>(&mut self, combats: &[(C, Pt, String)]) {
        self.doc.open(El::new("g").attr("class", "combats"));
        for (corners, burst, label) in combats {
            pieces::combat_outline(&mut self.doc, corners.as_ref());
            pieces::combat(&mut self.doc, *burst, 11, label);
        }
        self.doc.close();
    }

    /// Ends the panel with the legend and, for stand-in components, `stand_in_note`; the
    /// picture grows to the panel's end.
    pub fn finish(
        mut self,
        mut panel: Panel,
        legend: &[(Swatch, String)],
        stand_in_note: Option<&str>,
    ) -> Svg {
        panel.heading(&mut self.doc, "Legend");
        panel.legend(&mut self.doc, legend);
        if let Some(note) = stand_in_note {
            panel.para(&mut self.doc, note, 10, false);
        }
        self.doc.grow(
            u32::try_from(self.width).unwrap_or(0),
            u32::try_from(panel.y + MARGIN).unwrap_or(0),
        );
        self.doc.finish()
    }
}

/// The units of one map cell, for [`Page::units`].
pub struct Cell {
    /// Where its counters are centred.
    pub at: Pt,
    /// The cell's label (hex number or letters), drawn on its piles.
    pub label: String,
    /// How the panel's list heads it (label and place name).
    pub title: String,
    /// Each unit's counter and its text in the list.
    pub units: Vec<(Counter, String)>,
}

/// Whose board a picture of `reader`'s view is.
pub fn whose(reader: &str) -> String {
    if reader == "public" {
        "the public board".to_string()
    } else {
        format!("the board as {reader} sees it")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_reader_gets_the_public_board_and_a_side_its_own() {
        assert_eq!(whose("public"), "the public board");
        assert_eq!(whose("lib"), "the board as lib sees it");
    }

    #[test]
    fn the_picture_grows_to_the_panels_end() {
        let page = Page::begin("T", "now", (100, 50), 200);
        let mut panel = page.panel(200);
        for _ in 0..40 {
            panel.para(&mut Doc::new(1, 1, "scratch"), "a line", 11, false);
        }
        let bottom = panel.y + MARGIN;
        let svg = page.finish(panel, &[], Some("stand-in"));
        assert!(svg.height() >= u32::try_from(bottom).unwrap());
        assert_eq!(
            svg.width(),
            u32::try_from(MARGIN + 100 + GAP + 200 + MARGIN).unwrap()
        );
    }
}
