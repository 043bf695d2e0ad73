//! Board pictures: every view drawn as an SVG (and a PNG rendered from it), from the view and
//! the game's public component data only, so a picture cannot show more than its view.
//!
//! - [`svg`]: the writer ([`Doc`], [`El`]) and the finished [`Svg`]; integers and fixed
//!   decimals only, text escaped: the same view gives the same bytes everywhere.
//! - [`hexes`], [`squares`]: backgrounds drawn from the map geometry: flat-topped hex grids
//!   (lettered [`crate::kit::hex::HexGrid`], or numbered odd-q), square grids and open tables.
//! - [`pieces`]: counters (face up: values; face down: the side's back and the opaque token),
//!   stacks (at most [`pieces::MAX_IN_CELL`] counters in a cell, else piles with counts and the
//!   units in the side list), places with controllers, move arrows, combat markers.
//! - [`panel`]: the column beside the map: tracks, crowded stacks listed by cell, legend.
//! - [`page`]: the frame every picture shares: title line, cells of units, name plates,
//!   combats, and the panel's closing legend and stand-in note.
//! - [`style`]: inks that stay apart in grey (lightness, patterns, outlines, letters).
//! - [`png`]: the PNG, rendered by resvg with the embedded DejaVu fonts.
//!
//! A system draws its picture in `Rules::picture` (src/systems/mod.rs); every unit of its view
//! is one element with `class="unit"` and `data-unit` (a counter on the map, or an entry of the
//! side list), which the tests count against the view.

pub mod hexes;
pub mod page;
pub mod panel;
pub mod pieces;
pub mod png;
pub mod squares;
pub mod style;
pub mod svg;
pub mod text;

pub use svg::{Doc, El, Pt, Svg};
