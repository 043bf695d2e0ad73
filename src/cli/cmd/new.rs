//! `pbem new`: create a game directory and open its first step.

use crate::cli::args::New;
use crate::cli::output::print;
use crate::engine::config::{DeadlineConfig, Duration, MailConfig, TimeOfDay, Zone};
use crate::engine::new::{Extras, NewGame};
use crate::engine::{self, Error, exit};
use crate::protocol::keys::PublicKey;
use std::path::Path;
use std::str::FromStr;

pub fn run(a: New) -> Result<i32, Error> {
    let now = engine::mail::clock::now_or(a.now.as_deref())?;
    let deadline = DeadlineConfig::from_parts(
        flag("--step-duration", a.step_duration)?,
        flag::<TimeOfDay>("--deadline-at", a.deadline_at)?,
        flag::<Zone>("--deadline-tz", a.deadline_tz)?,
        flag::<Duration>("--grace", a.grace)?,
        flag::<Duration>("--remind-before", a.remind_before)?,
    )?;
    let mut seats = Vec::new();
    let mut bots = Vec::new();
    for s in &a.seats {
        let (side, path) = pair(s, "--seat")?;
        match path.strip_prefix("bot") {
            Some("") => bots.push((side, engine::bots::DEFAULT.to_string())),
            Some(name) if name.starts_with(':') => {
                let name = engine::bots::require(&name[1..])
                    .map_err(|e| Error::Fail(format!("--seat {s}: {e}")))?;
                bots.push((side, name.to_string()));
            }
            _ => seats.push((side, PublicKey::read(Path::new(&path))?)),
        }
    }
    let names = a
        .names
        .iter()
        .map(|n| pair(n, "--name"))
        .collect::<Result<_, _>>()?;
    let emails = a
        .emails
        .iter()
        .map(|n| pair(n, "--email"))
        .collect::<Result<_, _>>()?;
    let game = engine::start::start_with(
        NewGame {
            dir: a.dir.clone(),
            system: a.system,
            scenario: a.scenario,
            seats,
            names,
            emails,
            id: a.id,
            data: a.data,
            mail: MailConfig {
                from: a.mail_from.unwrap_or_default(),
                observers: a.observers,
            },
            deadline,
        },
        Extras {
            bots,
            secrets: None,
        },
        now,
    )?;
    let st = engine::status::status(&game)?;
    print(&format!(
        "created game {} in {}\n{}",
        game.config.id,
        a.dir.display(),
        st.text()
    ))?;
    Ok(exit::OK)
}

/// The value of an optional flag, parsed; a bad one is named by its flag.
fn flag<T: FromStr<Err = String>>(name: &str, value: Option<String>) -> Result<Option<T>, Error> {
    value
        .map(|v| v.parse().map_err(|e| Error::Fail(format!("{name}: {e}"))))
        .transpose()
}

/// `SIDE=VALUE` of a repeatable flag.
fn pair(arg: &str, flag: &str) -> Result<(String, String), Error> {
    arg.split_once('=')
        .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| Error::Fail(format!("{flag} {arg:?}: expected SIDE=VALUE")))
}
