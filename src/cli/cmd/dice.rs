//! `pbem dice`: list a game's public dice, or explain how one die was derived.

use crate::cli::args::Dice;
use crate::cli::output::{json, print};
use crate::engine::{self, Error, exit};

pub fn run(a: Dice) -> Result<i32, Error> {
    let game = engine::game::Game::open(&a.dir)?;
    if let (Some(step), Some(label)) = (a.step, &a.label) {
        print(&engine::dice_info::explain(&game, step, label)?)?;
        return Ok(exit::OK);
    }
    let lines = engine::dice_info::list(&game, a.step)?;
    if a.json {
        json(&lines)?;
        return Ok(exit::OK);
    }
    let mut s = String::new();
    for d in lines {
        let result = if d.result.is_empty() {
            String::new()
        } else {
            format!("  {}", d.result)
        };
        s.push_str(&format!(
            "step {} {}: {}d{} {:?}{result}\n",
            d.step,
            d.label,
            d.values.len(),
            d.faces,
            d.values
        ));
    }
    print(&s)?;
    Ok(exit::OK)
}
