//! `pbem publish`: commit the public part of a game to git.

use crate::cli::args::Publish;
use crate::cli::output::{json, print};
use crate::engine::{self, Error, exit};

pub fn run(a: Publish) -> Result<i32, Error> {
    let p = engine::git::publish(&a.dir, &a.git_repo)?;
    if a.json {
        json(&p)?
    } else if p.commits.is_empty() {
        print(&format!("{}: up to date\n", p.repo.display()))?
    } else {
        let mut s = String::new();
        for (_, msg) in &p.commits {
            s.push_str(&format!("committed: {msg}\n"));
        }
        print(&s)?
    }
    Ok(exit::OK)
}
