//! Characters: the character phase (4: arrivals, growth, recovery rolls) and the survival
//! check (27). Stub until zeta commits 4 (the phase) and 9 (survival).

use super::ctx::Ctx;
use super::data::Survival;

/// 4.2-4.4 for every faction, at the end of the step that ends the previous turn. Stub (zeta
/// commit 4): does nothing.
pub fn character_phase(ctx: &mut Ctx<'_>) {
    let _ = ctx;
}

/// One survival check of `char` (27.3) with `modifier` added to the die (31.5.9: +1), rolled
/// under `label`; returns the table's result after applying it. Stub (zeta commit 9): rolls
/// nothing, changes nothing, returns `None`.
pub fn survival(ctx: &mut Ctx<'_>, char: &str, modifier: u8, label: &str) -> Option<Survival> {
    let _ = (ctx, char, modifier, label);
    None
}
