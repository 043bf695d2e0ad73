//! The contract between the engine and a rule set.
//!
//! A system implements [`Rules`] with its own typed state, orders and view. The engine only sees
//! [`System`], an object-safe wrapper that exchanges YAML text, so it can store states, replay
//! them and hash them without knowing any rule. See docs/architecture.md for how each of the five
//! games maps onto steps.

pub mod dougram;
pub mod kummen;
pub mod zeta;

use crate::kit::events::Log;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::yaml::{self, FieldPath, Rejection};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Who is reading a view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    /// A seat: sees what the rules let that side know.
    Side(String),
    /// Anyone: the turn report, observers, the public state hash.
    Public,
}

/// What the game waits for now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Orders are needed from these sides (seat order) to resolve the step named `title`.
    Waiting { title: String, sides: Vec<String> },
    /// The game is over.
    Finished(Outcome),
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side, or none for a draw.
    pub winner: Option<String>,
    pub summary: String,
    pub scores: BTreeMap<String, i64>,
    /// The rule that ended the game (e.g. "14.1.2"): `pbem simulate` counts endings by it.
    pub rule: String,
    /// The game turn it ended on (the book's turn, not the step number).
    pub turn: u32,
}

/// An order that breaks a rule, located by its field path in the order document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: FieldPath,
    /// Rule number, e.g. "5.3".
    pub rule: Option<String>,
    pub message: String,
    /// What would be accepted instead.
    pub accepted: String,
}

impl Problem {
    pub fn new(
        path: FieldPath,
        rule: &str,
        message: impl Into<String>,
        accepted: impl Into<String>,
    ) -> Problem {
        Problem {
            path,
            rule: if rule.is_empty() {
                None
            } else {
                Some(rule.to_string())
            },
            message: message.into(),
            accepted: accepted.into(),
        }
    }
}

/// What one resolved step produced.
#[derive(Debug, Clone)]
pub struct Resolution<S> {
    pub state: S,
    /// Events everyone may read (the report and the journal).
    pub public: Vec<String>,
    /// Events only one side may read (its view).
    pub private: BTreeMap<String, Vec<String>>,
}

impl<St> Resolution<St> {
    /// The new state, with the lines of the step's event log.
    pub fn new<S: Seat>(state: St, log: Log<S>) -> Resolution<St> {
        let (public, private) = log.into_lines();
        Resolution {
            state,
            public,
            private,
        }
    }
}

/// A data file a system reads when a game is created: its name (in `games/<system>/` and in a
/// `pbem new --data DIR`) and the built-in stand-in.
#[derive(Debug, Clone, Copy)]
pub struct DataFile {
    pub name: &'static str,
    pub builtin: &'static str,
}

/// The data file `games/<system>/<name>`, its text built into the binary.
macro_rules! data_file {
    ($system:literal, $name:literal) => {
        $crate::systems::DataFile {
            name: $name,
            builtin: include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/games/",
                $system,
                "/",
                $name
            )),
        }
    };
}
pub(crate) use data_file;

/// The texts of a new game's data files: the user's replacements, which the engine read from
/// `pbem new --data DIR` (engine::new), else the built-in stand-ins. Text only: a system
/// reads no file.
#[derive(Debug, Clone, Default)]
pub struct DataSource {
    /// File name -> (text, where it came from).
    overrides: BTreeMap<String, (String, String)>,
}

impl DataSource {
    /// Replaces data file `name` with `text`; `origin` names it in every error (its path).
    pub fn replace(&mut self, name: &str, text: String, origin: String) {
        self.overrides.insert(name.to_string(), (text, origin));
    }

    /// The built-in data with `file` replaced by `text`, named `mine/<name>` in errors.
    #[cfg(test)]
    pub fn with(file: &DataFile, text: String) -> DataSource {
        let mut ds = DataSource::default();
        ds.replace(file.name, text, format!("mine/{}", file.name));
        ds
    }

    /// The text of `file` and where it came from: the user's replacement if there is one, else
    /// the built-in stand-in.
    pub fn load(&self, system: &str, file: &DataFile) -> (&str, String) {
        match self.overrides.get(file.name) {
            Some((text, origin)) => (text, origin.clone()),
            None => (
                file.builtin,
                format!("games/{system}/{} (built in)", file.name),
            ),
        }
    }
}

/// The order document every system shares: a header the engine checks, and `orders`, which
/// belongs to the system.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderDoc<O> {
    /// Format marker: `order/2` (`order/1`, without `version`, is read only to verify games
    /// recorded before it).
    pub pbem: String,
    pub game: String,
    pub step: u64,
    pub side: String,
    /// Journal head the player saw (hex).
    pub basis: String,
    /// 32 random bytes (hex) chosen by the player and kept secret until the game is concluded;
    /// a hash of them is mixed into the step seed.
    pub entropy: String,
    /// Which version of this side's orders for this step (a whole number; only a larger one
    /// replaces an order already received). A word is read too, so that a skeleton's `auto`
    /// gets a clear error rather than a type error; `order::check` refuses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<OrderVersion>,
    #[serde(default)]
    pub orders: O,
}

impl<O> OrderDoc<O> {
    /// The header alone, and the orders taken out of it.
    pub fn take_orders(self) -> (OrderDoc<serde::de::IgnoredAny>, O) {
        let OrderDoc {
            pbem,
            game,
            step,
            side,
            basis,
            entropy,
            version,
            orders,
        } = self;
        let header = OrderDoc {
            pbem,
            game,
            step,
            side,
            basis,
            entropy,
            version,
            orders: serde::de::IgnoredAny,
        };
        (header, orders)
    }
}

/// The `version:` of an order as written: a number, or a word (`auto`, which `pbem sign` fills).
/// A number must be written plainly (the plain-order check refuses `'12'` or `0x0c`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum OrderVersion {
    Number(u64),
    Word(String),
}

/// Any scalar is read (a negative or fractional number as a word), so that every wrong
/// version gets `order::check`'s message rather than serde's "no variant matched".
impl<'de> Deserialize<'de> for OrderVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = OrderVersion;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number, or `auto` before `pbem sign`")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<OrderVersion, E> {
                Ok(OrderVersion::Number(n))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<OrderVersion, E> {
                Ok(match u64::try_from(n) {
                    Ok(n) => OrderVersion::Number(n),
                    Err(_) => OrderVersion::Word(n.to_string()),
                })
            }
            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<OrderVersion, E> {
                Ok(OrderVersion::Word(x.to_string()))
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<OrderVersion, E> {
                Ok(OrderVersion::Word(b.to_string()))
            }
            fn visit_str<E: serde::de::Error>(self, w: &str) -> Result<OrderVersion, E> {
                Ok(OrderVersion::Word(w.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl OrderVersion {
    pub fn number(&self) -> Option<u64> {
        match self {
            OrderVersion::Number(n) => Some(*n),
            OrderVersion::Word(_) => None,
        }
    }
}

/// A game's component data (map, counters, cards…) as its system loaded it: read once per
/// process from the game's `data.yaml` and shared by every state ([`Rules::attach`]). Only the
/// system that made it can look inside.
///
/// It also keeps the last few states read with it, parsed: one step reads the same state many
/// times (its phase, each order's check, the views, the report), and a state read twice must
/// not cost two parses. A state is a pure function of its text and the data, so an entry is
/// found by comparing the text itself. Views are kept the same way: a step's public view gives
/// both the journal's `public_state` and the report's board.
#[derive(Clone)]
pub struct GameData {
    data: Arc<dyn Any + Send + Sync>,
    states: Arc<std::sync::Mutex<ParsedCache>>,
    views: Arc<std::sync::Mutex<ViewCache>>,
    orders: Arc<std::sync::Mutex<ParsedCache>>,
}

/// Parsed values (states, order bodies) by the text they were read from, newest first.
type ParsedCache = Vec<(Arc<str>, Arc<dyn Any + Send + Sync>)>;

/// The value parsed from `text` in `cache`, if it is there and of type `T`.
fn find_parsed<T: Send + Sync + 'static>(
    cache: &std::sync::Mutex<ParsedCache>,
    text: &str,
) -> Option<Arc<T>> {
    let cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    let (_, value) = cache.iter().find(|(t, _)| &**t == text)?;
    value.clone().downcast::<T>().ok()
}

/// Keeps `value` as parsed from `text`, newest first, at most `keep` of them.
fn keep_parsed<T: Send + Sync + 'static>(
    cache: &std::sync::Mutex<ParsedCache>,
    text: &str,
    value: Arc<T>,
    keep: usize,
) {
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache.retain(|(t, _)| &**t != text);
    cache.insert(0, (Arc::from(text), value));
    cache.truncate(keep);
}

/// Rendered views by the text of their state and their reader, newest first.
type ViewCache = Vec<(Arc<str>, Reader, RenderedView)>;

/// How many rendered views a game's data keeps: every reader of the newest state or two.
const CACHED_VIEWS: usize = 8;

/// How many parsed states a game's data keeps: the state before the step, the one after, and
/// a record or two back (a report's board).
const CACHED_STATES: usize = 4;

/// How many parsed order bodies a game's data keeps: those of one step (one per side).
const CACHED_ORDERS: usize = 4;

impl GameData {
    fn new<D: Send + Sync + 'static>(data: D) -> GameData {
        GameData {
            data: Arc::new(data),
            states: Default::default(),
            views: Default::default(),
            orders: Default::default(),
        }
    }

    /// The orders of the order document `doc`, parsed by [`System::order_header`].
    fn cached_orders<O: Send + Sync + 'static>(&self, doc: &str) -> Option<Arc<O>> {
        find_parsed(&self.orders, doc)
    }

    fn remember_orders<O: Send + Sync + 'static>(&self, doc: &str, orders: Arc<O>) {
        keep_parsed(&self.orders, doc, orders, CACHED_ORDERS);
    }

    fn of<R: Rules>(&self) -> Result<Arc<R::Data>, String> {
        self.data
            .clone()
            .downcast::<R::Data>()
            .map_err(|_| "the game's data belongs to another system (a defect in pbem)".into())
    }

    fn cached<S: Send + Sync + 'static>(&self, text: &str) -> Option<Arc<S>> {
        find_parsed(&self.states, text)
    }

    fn remember<S: Send + Sync + 'static>(&self, text: &str, state: Arc<S>) {
        keep_parsed(&self.states, text, state, CACHED_STATES);
    }

    fn cached_view(&self, state: &str, reader: &Reader) -> Option<RenderedView> {
        let cache = self.views.lock().unwrap_or_else(|e| e.into_inner());
        let (_, _, view) = cache
            .iter()
            .find(|(t, r, _)| r == reader && &**t == state)?;
        Some(view.clone())
    }

    fn remember_view(&self, state: &str, reader: &Reader, view: &RenderedView) {
        let mut cache = self.views.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(0, (Arc::from(state), reader.clone(), view.clone()));
        cache.truncate(CACHED_VIEWS);
    }
}

/// A rule set with typed state, orders and views.
pub trait Rules: Send + Sync + 'static {
    /// The seats, in seat order; this order is used for the step seed and for display.
    type Side: Seat;
    type State: Serialize + DeserializeOwned + Clone + Send + Sync;
    /// The component data every state of a game shares: stored once in the game directory
    /// (`data.yaml`, pinned by genesis), never in a state; the state's copy is skipped when it
    /// is written and put back by [`Rules::attach`] when it is read.
    type Data: Serialize + DeserializeOwned + Send + Sync + 'static;
    type Orders: Serialize + DeserializeOwned + Default + Clone + Send + Sync + 'static;
    type View: Serialize;

    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    /// The version of these rules. Raise it with every change that makes a recorded step replay
    /// differently (a rule fix, a reworded event, a changed state or view format): `verify`
    /// replays only the steps resolved by the version it has, and a running game moves to a new
    /// version only by the host's journaled `pbem host upgrade` (docs/architecture.md).
    fn rules_version(&self) -> u32;
    /// The state of a game that ran rules version `from`, as these rules read it (`pbem host
    /// upgrade`). The default reads the state as it is, which suits a change that keeps the
    /// state's format; a system that changes it converts here.
    fn upgrade_state(
        &self,
        from: u32,
        state: &str,
        data: Option<Arc<Self::Data>>,
    ) -> Result<Self::State, String> {
        let _ = from;
        let data = data.ok_or("the game has no data.yaml to carry over")?;
        let mut st: Self::State = load_state(state)?;
        self.attach(&mut st, data);
        Ok(st)
    }
    /// The component data a state was made with.
    fn data_of(&self, state: &Self::State) -> Arc<Self::Data>;
    /// Gives a state read from its file the component data of its game.
    fn attach(&self, state: &mut Self::State, data: Arc<Self::Data>);
    /// (name, description); the first is the default scenario.
    fn scenarios(&self) -> Vec<(String, String)>;
    /// The data files a game of these rules starts from (`pbem new --data DIR` may replace
    /// each by a file of the same name).
    fn data_files(&self) -> &'static [DataFile];
    /// The state before step 1, with the component data of `data` (built in, or the user's
    /// replacements) attached. Randomness at setup happens when step 1 is resolved, so that it
    /// is seeded by the players' entropy too.
    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<Self::State, String>;
    fn phase(&self, state: &Self::State) -> Phase;
    /// Everything wrong with a side's orders for the current step, judged against the state at
    /// the start of the step.
    fn check(&self, state: &Self::State, side: &str, orders: &Self::Orders) -> Vec<Problem>;
    /// Orders for a side that sent none (missed deadline, or a side with nothing to decide).
    fn default_orders(&self, state: &Self::State, side: &str) -> Self::Orders;
    /// Resolves the current step. `orders` has an entry for every side `phase` waits for.
    fn resolve(
        &self,
        state: &Self::State,
        orders: &BTreeMap<String, Self::Orders>,
        dice: &mut Dice,
    ) -> Result<Resolution<Self::State>, String>;
    /// What `reader` may know of the state, and nothing more.
    fn view(&self, state: &Self::State, reader: &Reader) -> Self::View;
    /// The view as text for people; rendered from the view alone, so it cannot know more.
    fn render(&self, view: &Self::View) -> String;
    /// The board as `view` shows it, as an SVG picture (`pbem map`, turn mail), or `None` for
    /// a system that has no picture yet. Drawn from the view, its `events` (the lines the
    /// view's `events:` lists: the record's public events and the reader's own) and the game's
    /// public component data (the map's geometry) alone, never from the state, so a picture
    /// cannot show more than its view. Every unit of the view is one element with
    /// `class="unit"` and `data-unit` (kit::picture).
    fn picture(
        &self,
        view: &Self::View,
        events: &[String],
        data: &Self::Data,
    ) -> Option<crate::kit::picture::Svg> {
        let _ = (view, events, data);
        None
    }
    /// The `orders:` block of an order skeleton for `side`, with the legal choices as comments.
    fn template(&self, state: &Self::State, side: &str) -> String;
    /// A bot's orders for `side` at the current step, from what `side` may know of `state` and
    /// `seed` alone (the step's bot seed, derived from committed inputs: docs/dice.md, "Bot
    /// orders"). Two properties every system's tests check: `check` accepts them, and they do
    /// not change when another side's hidden facts are permuted (so the bot reads nothing its
    /// side may not see). Built from the system's legal choices (kit::bot).
    fn bot(&self, state: &Self::State, side: &str, seed: &Hash32) -> Self::Orders;
    /// What must hold after every step whatever the players ordered, as one line per broken
    /// invariant (counters conserved, a token per face-down unit, ...): the bookkeeping, not the
    /// book's rules. `pbem simulate` checks it after each step and counts a broken one as an
    /// error. A system without such checks reports nothing.
    fn invariants(&self, _before: &Self::State, _after: &Self::State) -> Vec<String> {
        Vec::new()
    }
    /// Every legal choice of `side` now, each as orders holding that one item (the system's
    /// legality lists, as its template shows them). The `random` bot picks among them; a system
    /// without such lists returns none, and the random bot then picks among its bot's items.
    fn choice_items(&self, _state: &Self::State, _side: &str) -> Vec<Self::Orders> {
        Vec::new()
    }
    /// The system's documentation (docs/<system>.md), whose `## Rule coverage` table lists the
    /// book's leaf rules ([`crate::kit::reach::leaf_rules`]).
    fn coverage_doc(&self) -> &'static str;
    /// Exact chances a player may ask for (`pbem odds`), from what `reader` may know; `state` is
    /// absent when the question names plain numbers rather than a game's units.
    fn odds(
        &self,
        state: Option<&Self::State>,
        reader: &Reader,
        args: &[String],
    ) -> Result<String, String> {
        let _ = (state, reader, args);
        Err(format!("{} has no odds calculator yet", self.id()))
    }
}

/// A view rendered both ways.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedView {
    pub yaml: String,
    pub text: String,
}

/// The object-safe face of a system; every state crosses it as canonical YAML text.
pub trait System: Send + Sync {
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    /// A state of rules version `from` carried over to these rules ([`Rules::upgrade_state`]),
    /// with the game's data (`data`: that of data.yaml, None for a game whose states held their
    /// data). Returns the new state and data as stored.
    fn upgrade_state(
        &self,
        from: u32,
        state: &str,
        data: Option<&GameData>,
    ) -> Result<(String, String), String>;
    fn sides(&self) -> Vec<String>;
    fn scenarios(&self) -> Vec<(String, String)>;
    /// The names of the data files a new game reads ([`Rules::data_files`]).
    fn data_files(&self) -> Vec<&'static str>;
    /// The state before step 1 and the game's component data, both as stored (state, data).
    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<(String, String), String>;
    /// Reads a game's data.yaml.
    fn parse_data(&self, data: &str) -> Result<GameData, String>;
    /// The parsed data as JSON: the host's cache of data.yaml (engine::cache), which
    /// [`System::parse_data_json`] reads back into the same data several times faster than YAML.
    fn data_json(&self, data: &GameData) -> Result<String, String>;
    fn parse_data_json(&self, json: &str) -> Result<GameData, String>;
    /// The state whose stored text is `state`, as JSON (the host's cache of its newest state).
    fn state_json(&self, data: &GameData, state: &str) -> Result<String, String>;
    /// Reads `json` (what [`System::state_json`] gave for the text `state`) as the parsed state
    /// of that text, so the next read of `state` costs no YAML parse. The caller vouches that
    /// the JSON was made from this text (engine::cache keys it by the text's hash).
    fn prime_state(&self, data: &GameData, state: &str, json: &str) -> Result<(), String>;
    fn phase(&self, data: &GameData, state: &str) -> Result<Phase, String>;
    /// Parses and checks an order document; `file` names it in every rejection.
    fn check_order(
        &self,
        data: &GameData,
        state: &str,
        side: &str,
        doc: &str,
        file: &str,
    ) -> Result<(), Vec<Rejection>>;
    fn default_orders(&self, data: &GameData, state: &str, side: &str) -> Result<String, String>;
    /// `orders` maps each side to its order document text.
    fn resolve(
        &self,
        data: &GameData,
        state: &str,
        orders: &BTreeMap<String, String>,
        dice: &mut Dice,
    ) -> Result<Resolution<String>, String>;
    fn view(&self, data: &GameData, state: &str, reader: &Reader) -> Result<RenderedView, String>;
    /// The YAML of [`System::view`] alone, for a verifier comparing view files: the text is not
    /// rendered (nor kept), unless the view is already kept with both.
    fn view_yaml(&self, data: &GameData, state: &str, reader: &Reader) -> Result<String, String>;
    /// The picture of `reader`'s view of `state` ([`Rules::picture`]), with the view's
    /// `events`; `None` when the system has no picture yet.
    fn picture(
        &self,
        data: &GameData,
        state: &str,
        reader: &Reader,
        events: &[String],
    ) -> Result<Option<crate::kit::picture::Svg>, String>;
    fn template(&self, data: &GameData, state: &str, side: &str) -> Result<String, String>;
    /// The header of the order document `doc`; where the whole document reads as this
    /// system's orders, they are kept parsed for [`System::resolve`] of the same text, so a
    /// step replayed by `verify` parses each order once. A document whose orders do not read
    /// gives its header all the same (or the header's own error), as a header-only parse
    /// would: `check_order` reports the orders' problems. (The error is `yaml::parse`'s.)
    #[allow(clippy::result_large_err)]
    fn order_header(
        &self,
        data: &GameData,
        doc: &str,
        file: &str,
    ) -> Result<OrderDoc<serde::de::IgnoredAny>, Rejection>;
    /// A bot's orders for `side` ([`Rules::bot`]), as the YAML of an `orders:` block.
    fn bot_orders(
        &self,
        data: &GameData,
        state: &str,
        side: &str,
        seed: &Hash32,
    ) -> Result<String, String>;
    /// The leaf rules of the book with behaviour, in table order ([`Rules::coverage_doc`]).
    fn leaf_rules(&self) -> Vec<String>;
    /// Every legal choice of `side`, each as the YAML of an `orders:` block holding that one
    /// item ([`Rules::choice_items`]).
    fn choice_items(&self, data: &GameData, state: &str, side: &str)
    -> Result<Vec<String>, String>;
    /// The invariants a step from `before` to `after` breaks ([`Rules::invariants`]).
    fn invariants(&self, data: &GameData, before: &str, after: &str)
    -> Result<Vec<String>, String>;
    fn odds(
        &self,
        game: Option<(&GameData, &str)>,
        reader: &Reader,
        args: &[String],
    ) -> Result<String, String>;
}

fn load_state<S: DeserializeOwned>(state: &str) -> Result<S, String> {
    yaml::parse::<S>(state, "host state").map_err(|r| format!("stored state is unreadable: {r}"))
}

/// A stored state with its game's data attached: parsed once, then shared ([`GameData`]).
fn read_state<R: Rules>(rules: &R, data: &GameData, state: &str) -> Result<Arc<R::State>, String> {
    if let Some(st) = data.cached::<R::State>(state) {
        return Ok(st);
    }
    let mut st: R::State = load_state(state)?;
    rules.attach(&mut st, data.of::<R>()?);
    let st = Arc::new(st);
    data.remember(state, st.clone());
    Ok(st)
}

impl<R: Rules> System for R {
    fn id(&self) -> &'static str {
        Rules::id(self)
    }
    fn title(&self) -> &'static str {
        Rules::title(self)
    }
    fn rules_version(&self) -> u32 {
        Rules::rules_version(self)
    }
    fn upgrade_state(
        &self,
        from: u32,
        state: &str,
        data: Option<&GameData>,
    ) -> Result<(String, String), String> {
        let data = data.map(|d| d.of::<R>()).transpose()?;
        let st = Rules::upgrade_state(self, from, state, data)?;
        Ok((
            yaml::encode(&st)?,
            yaml::encode(&*Rules::data_of(self, &st))?,
        ))
    }
    fn sides(&self) -> Vec<String> {
        R::Side::NAMES.iter().map(|s| s.to_string()).collect()
    }
    fn scenarios(&self) -> Vec<(String, String)> {
        Rules::scenarios(self)
    }
    fn data_files(&self) -> Vec<&'static str> {
        Rules::data_files(self).iter().map(|f| f.name).collect()
    }
    fn initial_state(&self, scenario: &str, data: &DataSource) -> Result<(String, String), String> {
        let st = Rules::initial_state(self, scenario, data)?;
        Ok((
            yaml::encode(&st)?,
            yaml::encode(&*Rules::data_of(self, &st))?,
        ))
    }
    fn parse_data(&self, data: &str) -> Result<GameData, String> {
        let d: R::Data = yaml::parse(data, "data.yaml").map_err(|r| r.to_string())?;
        Ok(GameData::new(d))
    }
    fn data_json(&self, data: &GameData) -> Result<String, String> {
        serde_json::to_string(&*data.of::<R>()?).map_err(|e| e.to_string())
    }
    fn parse_data_json(&self, json: &str) -> Result<GameData, String> {
        let d: R::Data = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Ok(GameData::new(d))
    }
    fn state_json(&self, data: &GameData, state: &str) -> Result<String, String> {
        serde_json::to_string(&*read_state(self, data, state)?).map_err(|e| e.to_string())
    }
    fn prime_state(&self, data: &GameData, state: &str, json: &str) -> Result<(), String> {
        if data.cached::<R::State>(state).is_some() {
            return Ok(());
        }
        let mut st: R::State = serde_json::from_str(json).map_err(|e| e.to_string())?;
        self.attach(&mut st, data.of::<R>()?);
        data.remember(state, Arc::new(st));
        Ok(())
    }
    fn phase(&self, data: &GameData, state: &str) -> Result<Phase, String> {
        Ok(Rules::phase(self, &*read_state(self, data, state)?))
    }
    fn check_order(
        &self,
        data: &GameData,
        state: &str,
        side: &str,
        doc: &str,
        file: &str,
    ) -> Result<(), Vec<Rejection>> {
        let parsed: OrderDoc<R::Orders> = yaml::parse_order(doc, file)?;
        let state = read_state(self, data, state).map_err(|e| vec![Rejection::new(file, e)])?;
        check_parsed(self, &state, side, &parsed.orders, doc, file)
    }
    fn default_orders(&self, data: &GameData, state: &str, side: &str) -> Result<String, String> {
        let state = read_state(self, data, state)?;
        yaml::encode(&Rules::default_orders(self, &state, side))
    }
    fn resolve(
        &self,
        data: &GameData,
        state: &str,
        orders: &BTreeMap<String, String>,
        dice: &mut Dice,
    ) -> Result<Resolution<String>, String> {
        let st = read_state(self, data, state)?;
        let mut typed = BTreeMap::new();
        for (side, doc) in orders {
            let parsed = match data.cached_orders::<R::Orders>(doc) {
                Some(o) => (*o).clone(),
                None => {
                    yaml::parse::<OrderDoc<R::Orders>>(doc, &format!("{side}'s order"))
                        .map_err(|r| r.to_string())?
                        .orders
                }
            };
            typed.insert(side.clone(), parsed);
        }
        let res = Rules::resolve(self, &st, &typed, dice)?;
        let text = yaml::encode(&res.state)?;
        // The new state is read next (its phase, views, report): it is already parsed.
        data.remember(&text, Arc::new(res.state));
        Ok(Resolution {
            state: text,
            public: res.public,
            private: res.private,
        })
    }
    fn view(&self, data: &GameData, state: &str, reader: &Reader) -> Result<RenderedView, String> {
        if let Some(rendered) = data.cached_view(state, reader) {
            return Ok(rendered);
        }
        let st = read_state(self, data, state)?;
        let view = Rules::view(self, &st, reader);
        let rendered = RenderedView {
            yaml: yaml::encode(&view)?,
            text: Rules::render(self, &view),
        };
        data.remember_view(state, reader, &rendered);
        Ok(rendered)
    }
    fn view_yaml(&self, data: &GameData, state: &str, reader: &Reader) -> Result<String, String> {
        if let Some(rendered) = data.cached_view(state, reader) {
            return Ok(rendered.yaml);
        }
        let st = read_state(self, data, state)?;
        yaml::encode(&Rules::view(self, &st, reader))
    }
    fn picture(
        &self,
        data: &GameData,
        state: &str,
        reader: &Reader,
        events: &[String],
    ) -> Result<Option<crate::kit::picture::Svg>, String> {
        let st = read_state(self, data, state)?;
        let view = Rules::view(self, &st, reader);
        // The state goes no further than its view: the picture sees the view, the events and
        // the public component data.
        drop(st);
        Ok(Rules::picture(self, &view, events, &*data.of::<R>()?))
    }
    fn template(&self, data: &GameData, state: &str, side: &str) -> Result<String, String> {
        Ok(Rules::template(
            self,
            &*read_state(self, data, state)?,
            side,
        ))
    }
    fn order_header(
        &self,
        data: &GameData,
        doc: &str,
        file: &str,
    ) -> Result<OrderDoc<serde::de::IgnoredAny>, Rejection> {
        match yaml::parse::<OrderDoc<R::Orders>>(doc, file) {
            Ok(parsed) => {
                let (header, orders) = parsed.take_orders();
                data.remember_orders(doc, Arc::new(orders));
                Ok(header)
            }
            Err(_) => yaml::parse(doc, file),
        }
    }
    fn bot_orders(
        &self,
        data: &GameData,
        state: &str,
        side: &str,
        seed: &Hash32,
    ) -> Result<String, String> {
        let state = read_state(self, data, state)?;
        yaml::encode(&Rules::bot(self, &state, side, seed))
    }
    fn leaf_rules(&self) -> Vec<String> {
        crate::kit::reach::leaf_rules(Rules::coverage_doc(self))
    }
    fn choice_items(
        &self,
        data: &GameData,
        state: &str,
        side: &str,
    ) -> Result<Vec<String>, String> {
        let state = read_state(self, data, state)?;
        Rules::choice_items(self, &state, side)
            .iter()
            .map(yaml::encode)
            .collect()
    }
    fn invariants(
        &self,
        data: &GameData,
        before: &str,
        after: &str,
    ) -> Result<Vec<String>, String> {
        let before = read_state(self, data, before)?;
        let after = read_state(self, data, after)?;
        Ok(Rules::invariants(self, &before, &after))
    }
    fn odds(
        &self,
        game: Option<(&GameData, &str)>,
        reader: &Reader,
        args: &[String],
    ) -> Result<String, String> {
        let st: Option<Arc<R::State>> = game
            .map(|(data, state)| read_state(self, data, state))
            .transpose()?;
        Rules::odds(self, st.as_deref(), reader, args)
    }
}

/// Reads a stored state for `upgrade_state`. With `split`, the state is one of rules that kept
/// the component data in the state (every system's rules 1): the fields `keys` are taken out
/// of it as the data, the fields `renamed` (old name, new name) are given their new names, and
/// the rest is read as the new rules' state.
pub fn split_state<D: DeserializeOwned, S: DeserializeOwned>(
    state: &str,
    split: bool,
    keys: &[&str],
    renamed: &[(&str, &str)],
) -> Result<(Option<D>, S), String> {
    if !split {
        return Ok((None, load_state(state)?));
    }
    let mut fields: serde_json::Map<String, serde_json::Value> =
        yaml::parse(state, "host state").map_err(|r| r.to_string())?;
    let mut data = serde_json::Map::new();
    for key in keys {
        let value = fields.remove(*key).ok_or_else(|| {
            format!("the stored state has no {key:?}: not a state of those rules")
        })?;
        data.insert(key.to_string(), value);
    }
    for (old, new) in renamed {
        if let Some(value) = fields.remove(*old) {
            fields.insert(new.to_string(), value);
        }
    }
    let data = serde_json::from_value(serde_json::Value::Object(data))
        .map_err(|e| format!("the stored state's data: {e}"))?;
    let rest = serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|e| format!("the stored state: {e}"))?;
    Ok((Some(data), rest))
}

/// The rules' check of orders already parsed from `doc`, as rejections located in `doc`: what
/// [`System::check_order`] does once the document and the state are read. Public so that the
/// fuzzers (crate::fuzzing) can check against a state they parsed once, not once per input.
pub fn check_parsed<R: Rules>(
    rules: &R,
    state: &R::State,
    side: &str,
    orders: &R::Orders,
    doc: &str,
    file: &str,
) -> Result<(), Vec<Rejection>> {
    let problems = Rules::check(rules, state, side, orders);
    if problems.is_empty() {
        return Ok(());
    }
    // Located in one walk over the document, the first few only (yaml::MAX_REPORTED).
    Err(yaml::located(
        doc,
        problems.into_iter().map(|p| {
            let mut r = Rejection::new(file, p.message).accepted(p.accepted);
            r.rule = p.rule;
            (r, p.path)
        }),
    ))
}

/// Every system this binary knows, by id.
pub fn all() -> Vec<Box<dyn System>> {
    vec![
        Box::new(kummen::Kummen),
        Box::new(dougram::Dougram),
        Box::new(zeta::Zeta),
    ]
}

/// The system with this id, or a message listing the known ones.
pub fn by_id(id: &str) -> Result<Box<dyn System>, String> {
    let systems = all();
    let known: Vec<&'static str> = systems.iter().map(|s| s.id()).collect();
    systems
        .into_iter()
        .find(|s| s.id() == id)
        .ok_or_else(|| format!("unknown system {id:?}; known systems: {}", known.join(", ")))
}

#[cfg(test)]
mod order_header_tests {
    use super::*;

    const HEADER: &str =
        "pbem: order/2\ngame: g\nstep: 2\nside: beeler\nbasis: 00\nentropy: 11\nversion: 1\n";

    fn kummen_data() -> GameData {
        let (_, data) =
            System::initial_state(&kummen::Kummen, "campaign", &DataSource::default()).unwrap();
        System::parse_data(&kummen::Kummen, &data).unwrap()
    }

    #[test]
    fn an_order_header_keeps_the_orders_parsed_for_the_resolve_of_the_same_text() {
        let data = kummen_data();
        let doc = format!("{HEADER}orders:\n  policies: {{rp_target: 4}}\n");
        let h = System::order_header(&kummen::Kummen, &data, &doc, "o.yaml").unwrap();
        assert_eq!((h.side.as_str(), h.step), ("beeler", 2));
        let kept = data.cached_orders::<kummen::Orders>(&doc).unwrap();
        assert_eq!(kept.policies.rp_target, Some(4));
    }

    #[test]
    fn an_order_whose_orders_do_not_read_still_gives_its_header_and_keeps_nothing() {
        let data = kummen_data();
        let doc = format!("{HEADER}orders:\n  no_such_field: 1\n");
        let h = System::order_header(&kummen::Kummen, &data, &doc, "o.yaml").unwrap();
        assert_eq!(h.game, "g");
        assert!(data.cached_orders::<kummen::Orders>(&doc).is_none());
    }
}
