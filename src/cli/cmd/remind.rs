//! `pbem remind`: queue reminders for missing orders in a game, or every game under a directory.

use crate::cli::args::Remind;
use crate::cli::output::{json, print};
use crate::engine::mail::{clock, remind};
use crate::engine::{Error, exit};

pub fn run(a: Remind) -> Result<i32, Error> {
    let now = clock::now_or(a.now.as_deref())?;
    let all = remind::remind_all(&a.dir, now)?;
    for p in &all.problems {
        eprintln!("pbem: FAILED {p}");
    }
    if a.json {
        json(&all.reminded)?;
    } else {
        let mut s = String::new();
        for r in &all.reminded {
            if let Some(n) = &r.note {
                s.push_str(&format!("{}: {n}\n", r.game));
            }
            for x in &r.reminders {
                s.push_str(&format!(
                    "{}: step {} {}: {}\n",
                    r.game, x.step, x.side, x.outcome
                ));
            }
        }
        print(&s)?;
    }
    Ok(if all.problems.is_empty() {
        exit::OK
    } else {
        exit::FAILURE
    })
}
