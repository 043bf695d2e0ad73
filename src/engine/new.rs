//! `pbem new`: create a game directory with its host key, secrets, genesis record and views.

use super::config::{CONFIG_FORMAT, DeadlineConfig, GameConfig, MailConfig, Seat};
use super::dir::{self, GameDir};
use super::game::{Game, Secrets};
use super::{Error, views};
use crate::protocol::dice::DICE_ALGORITHM;
use crate::protocol::hash::{Hash32, commitment, sha256};
use crate::protocol::journal::{self, Genesis, JOURNAL_FORMAT, NextStep, Record, SeatKey};
use crate::protocol::keys::{PublicKey, SecretKey};
use crate::systems::{self, DataSource, Phase, Reader, System};
use crate::yaml;
use std::path::{Path, PathBuf};

pub struct NewGame {
    pub dir: PathBuf,
    pub system: String,
    pub scenario: Option<String>,
    /// (side, public key)
    pub seats: Vec<(String, PublicKey)>,
    pub names: Vec<(String, String)>,
    pub emails: Vec<(String, String)>,
    pub id: Option<String>,
    pub data: Option<PathBuf>,
    /// The host's address and the observers, for play by email.
    pub mail: MailConfig,
    pub deadline: Option<DeadlineConfig>,
}

/// What a game may have beside a [`NewGame`]: seats played by the host's bots, and (for
/// `pbem simulate --keep`, whose games are reproducible from its seed) the host's secrets.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// (side, bot name): the side is played by that bot (`--seat SIDE=bot[:NAME]`).
    pub bots: Vec<(String, String)>,
    /// The master seed and game key to use instead of fresh random ones.
    pub secrets: Option<Secrets>,
}

/// Creates the game in a temporary sibling directory and renames it into place, so a crash
/// never leaves a half-made game behind.
pub fn create(req: NewGame) -> Result<Game, Error> {
    create_with(req, Extras::default())
}

/// [`create`], with bot seats or given secrets.
pub fn create_with(req: NewGame, extras: Extras) -> Result<Game, Error> {
    let system = systems::by_id(&req.system)?;
    let sides = system.sides();
    let rand = |what: &str| Hash32::random().map_err(|e| Error::Fail(format!("{what}: {e}")));
    let id = match &req.id {
        Some(id) => validate_id(id)?,
        None => format!("{}-{}", system.id(), &rand("game id")?.hex()[..8]),
    };
    let host = SecretKey::generate(&format!("pbem host of {id}"))
        .map_err(|e| Error::Fail(e.to_string()))?;
    for (side, name) in &extras.bots {
        super::bots::require(name)
            .map_err(|e| Error::Fail(format!("--seat {side}=bot:{name}: {e}")))?;
    }
    let bot_seats: Vec<(String, PublicKey)> = extras
        .bots
        .iter()
        .map(|(side, _)| (side.clone(), host.public()))
        .collect();
    let all_seats: Vec<(String, PublicKey)> = req.seats.iter().cloned().chain(bot_seats).collect();
    for (side, _) in &all_seats {
        if !sides.contains(side) {
            return Err(Error::Fail(format!(
                "--seat {side}=…: {} has no side {side:?}; its sides are: {}",
                system.id(),
                sides.join(", ")
            )));
        }
    }
    let mut seats = Vec::new();
    for side in &sides {
        let keys: Vec<&PublicKey> = all_seats
            .iter()
            .filter(|(s, _)| s == side)
            .map(|(_, k)| k)
            .collect();
        let key = match keys.as_slice() {
            [k] => (*k).clone(),
            [] => {
                return Err(Error::Fail(format!(
                    "no key for side {side:?}: add --seat {side}=PATH/TO/KEY.pub (sides of {}: {})",
                    system.id(),
                    sides.join(", ")
                )));
            }
            _ => {
                return Err(Error::Fail(format!(
                    "side {side:?} is given more than one --seat"
                )));
            }
        };
        let lookup = |list: &Vec<(String, String)>| {
            list.iter()
                .find(|(s, _)| s == side)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let bot = extras
            .bots
            .iter()
            .find(|(s, _)| s == side)
            .map(|(_, n)| n.clone());
        if bot.is_some() && !lookup(&req.emails).is_empty() {
            return Err(Error::Fail(format!(
                "--email {side}=…: side {side:?} is played by the host's bot, which reads no mail"
            )));
        }
        seats.push(Seat {
            side: side.clone(),
            name: lookup(&req.names),
            key,
            bot,
            email: lookup(&req.emails),
            tz: None,
        });
    }
    let scenarios = system.scenarios();
    let scenario = match &req.scenario {
        Some(s) if scenarios.iter().any(|(n, _)| n == s) => s.clone(),
        Some(s) => {
            let names: Vec<&str> = scenarios.iter().map(|(n, _)| n.as_str()).collect();
            return Err(Error::Fail(format!(
                "{} has no scenario {s:?}; scenarios: {}",
                system.id(),
                names.join(", ")
            )));
        }
        None => scenarios
            .first()
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| "standard".into()),
    };
    if req.dir.exists()
        && std::fs::read_dir(&req.dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(Error::Fail(format!(
            "{}: already exists and is not empty; pick a new directory",
            req.dir.display()
        )));
    }

    let parent = req
        .dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(".pbem-new-")
        .tempdir_in(parent)
        .map_err(|e| Error::io(parent, e))?;
    let gd = GameDir::new(staging.path());

    std::fs::create_dir_all(gd.host()).map_err(|e| Error::io(&gd.host(), e))?;
    host.write(&gd.host_key(), None)
        .map_err(|e| Error::Fail(e.to_string()))?;
    let secrets = match extras.secrets {
        Some(s) => s,
        None => Secrets {
            master: rand("host seed")?,
            game_key: rand("game key")?,
        },
    };
    dir::write_private(&gd.secrets(), yaml::encode(&secrets)?.as_bytes())?;

    let data = match &req.data {
        Some(dir) => read_data(system.as_ref(), dir)?,
        None => DataSource::default(),
    };
    let (state, data_yaml) = system.initial_state(&scenario, &data)?;
    // The component data is public and pinned by genesis; states hold only what changes.
    dir::write_atomic(&gd.data(), data_yaml.as_bytes())?;
    let data = system.parse_data(&data_yaml)?;
    dir::write_private(&gd.state(0), state.as_bytes())?;
    let public = system.view(&data, &state, &Reader::Public)?;
    let next = match system.phase(&data, &state)? {
        Phase::Waiting { title, sides } => NextStep {
            step: 1,
            title,
            waiting_for: sides,
            host_commit: commitment(&journal::host_seed(&secrets.master, 1)),
        },
        Phase::Finished(_) => {
            return Err(Error::Fail("the scenario is over before it starts".into()));
        }
    };
    let config = GameConfig {
        pbem: CONFIG_FORMAT.into(),
        id: id.clone(),
        system: system.id().into(),
        scenario: scenario.clone(),
        seats: seats.clone(),
        host_key: host.public(),
        mail: req.mail.clone(),
        deadline: req.deadline.clone(),
        missed_orders: Default::default(),
    };
    super::mail::address::check_config(&config).map_err(Error::Fail)?;
    if let Some(d) = &config.deadline {
        d.check().map_err(Error::Fail)?;
    }
    let genesis = Record {
        pbem: JOURNAL_FORMAT.into(),
        game: id.clone(),
        seq: 0,
        prev: None,
        genesis: Some(Genesis {
            system: system.id().into(),
            scenario,
            dice: DICE_ALGORITHM.into(),
            seats: seats
                .iter()
                .map(|s| SeatKey {
                    side: s.side.clone(),
                    key: s.key.openssh(),
                    bot: s.bot.clone(),
                })
                .collect(),
            host_key: host.public().openssh(),
            game_key_commit: commitment(&secrets.game_key),
            pbem_version: Some(crate::PBEM_VERSION.into()),
            rules: Some(system.rules_version()),
            data: Some(sha256(data_yaml.as_bytes())),
        }),
        step: None,
        conclusion: None,
        host_op: None,
        public_state: sha256(public.yaml.as_bytes()),
        next: Some(next),
    };
    let genesis = Record {
        pbem: genesis.format_needed().into(),
        ..genesis
    };
    dir::write_atomic(&gd.record(0), yaml::encode(&genesis)?.as_bytes())?;
    for sub in [gd.inbox(), gd.outbox()] {
        std::fs::create_dir_all(&sub).map_err(|e| Error::io(&sub, e))?;
    }
    // game.yaml is public; the addresses go to the host's mail/addresses.yaml (engine::config).
    let addresses = super::config::Addresses::of_new_game(&config);
    if !addresses.is_empty() {
        addresses.write(&gd)?;
    }
    dir::write_atomic(&gd.config(), yaml::encode(&config.public())?.as_bytes())?;

    let staged = staging.keep();
    if req.dir.exists() {
        std::fs::remove_dir(&req.dir).map_err(|e| Error::io(&req.dir, e))?;
    }
    std::fs::rename(&staged, &req.dir).map_err(|e| Error::io(&req.dir, e))?;
    let game = Game::open(&req.dir)?;
    views::refresh(&game)?;
    Ok(game)
}

/// The largest data file `pbem new --data DIR` reads: 1 MiB, a hundred times the largest
/// stand-in (dougram's cards.yaml, 13 KB). Anything larger is refused before it is parsed.
pub const MAX_DATA_FILE_BYTES: usize = 1 << 20;

/// The data files of `dir` that replace `system`'s built-in ones: each file the system names
/// that `dir` holds (other files are not looked at).
fn read_data(system: &dyn System, dir: &Path) -> Result<DataSource, Error> {
    use std::io::Read;
    let mut data = DataSource::default();
    for name in system.data_files() {
        let path = dir.join(name);
        if !path.exists() {
            continue;
        }
        let cannot = |e: &dyn std::fmt::Display| {
            Error::Fail(format!("{}: cannot read: {e}", path.display()))
        };
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|f| {
                f.take(MAX_DATA_FILE_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|e| cannot(&e))?;
        if bytes.len() > MAX_DATA_FILE_BYTES {
            return Err(Error::Fail(format!(
                "{}: larger than {MAX_DATA_FILE_BYTES} bytes, the limit of a data file",
                path.display()
            )));
        }
        let text =
            String::from_utf8(bytes).map_err(|_| cannot(&"stream did not contain valid UTF-8"))?;
        data.replace(name, text, path.display().to_string());
    }
    Ok(data)
}

/// Game ids go into file contents, mail subjects and hashes: keep them to a safe alphabet.
fn validate_id(id: &str) -> Result<String, Error> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    if ok {
        Ok(id.to_string())
    } else {
        Err(Error::Fail(format!(
            "--id {id:?}: use 1 to 64 characters from A-Z, a-z, 0-9, '-', '_' and '.'"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kummen() -> Box<dyn System> {
        systems::by_id("kummen").unwrap()
    }

    #[test]
    fn a_data_file_in_the_directory_replaces_the_built_in_one_of_that_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("map.yaml"), "not: a map\n").unwrap();
        std::fs::write(dir.path().join("notes.yaml"), "ignored").unwrap();
        let data = read_data(kummen().as_ref(), dir.path()).unwrap();
        let err = kummen().initial_state("campaign", &data).unwrap_err();
        let path = dir.path().join("map.yaml").display().to_string();
        assert!(err.contains(&path), "{err}");
    }

    #[test]
    fn a_data_file_over_the_limit_is_refused_naming_file_and_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("counters.yaml");
        std::fs::write(&path, vec![b'#'; MAX_DATA_FILE_BYTES + 1]).unwrap();
        let Err(Error::Fail(err)) = read_data(kummen().as_ref(), dir.path()) else {
            panic!("a data file over the limit was read");
        };
        assert_eq!(
            err,
            format!(
                "{}: larger than 1048576 bytes, the limit of a data file",
                path.display()
            )
        );
        std::fs::write(&path, vec![b'#'; MAX_DATA_FILE_BYTES]).unwrap();
        assert!(read_data(kummen().as_ref(), dir.path()).is_ok());
    }

    #[test]
    fn a_data_file_that_is_not_utf8_cannot_be_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("map.yaml");
        std::fs::write(&path, [0xff, 0xfe, b'\n']).unwrap();
        let Err(Error::Fail(err)) = read_data(kummen().as_ref(), dir.path()) else {
            panic!("a file that is not UTF-8 was read");
        };
        assert_eq!(
            err,
            format!(
                "{}: cannot read: stream did not contain valid UTF-8",
                path.display()
            )
        );
    }
}
