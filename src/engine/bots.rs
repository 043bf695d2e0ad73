//! Bots by name: who writes a side's orders when no person does. Hosted bot seats (`pbem new
//! --seat SIDE=bot[:NAME]`), `missed_orders: bot` and `pbem simulate --bot SIDE=NAME` all come
//! here, so a simulated game and a hosted one play the very same bot.
//!
//! Every bot is a deterministic function of the state, the side and a seed: the side's orders
//! are read from what the side may see (`System::bot_orders` is built on the side's legal
//! choices and reads nothing hidden from it, which the systems' leak tests check), and the seed
//! of a hosted game is derived from committed inputs (docs/dice.md, "Bot orders"). So `verify`
//! recomputes a journaled bot order and compares it byte for byte.

use super::Error;
use super::demo::order_text;
use crate::kit::bot::BotRng;
use crate::protocol::dice::bot_entropy;
use crate::protocol::hash::{Hash32, Transcript};
use crate::systems::{GameData, System};
use crate::yaml;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The bot of a bot seat given as `--seat SIDE=bot`, and of `missed_orders: bot`.
pub const DEFAULT: &str = "default";

/// Every bot, with what it does (`pbem simulate --help` and errors list them).
pub const NAMES: &[(&str, &str)] = &[
    (
        DEFAULT,
        "the system's own bot: sensible play from the side's view (takes bases, fights at good odds)",
    ),
    (
        "random",
        "a random player: a random choice of legal items, each kept only if the orders still pass check",
    ),
];

/// The bot names, for messages: `default, random`.
pub fn names() -> String {
    NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// `name` if it is a bot's name; otherwise an error that lists the names.
pub fn require(name: &str) -> Result<&'static str, String> {
    NAMES
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == name)
        .ok_or_else(|| format!("no bot named {name:?}; the bots are: {}", names()))
}

/// The `orders:` block (YAML) bot `name` writes for `side` in `state`, given its seed.
pub fn orders(
    system: &dyn System,
    data: &GameData,
    state: &str,
    side: &str,
    name: &str,
    seed: &Hash32,
) -> Result<String, String> {
    match require(name)? {
        "random" => random_orders(system, data, state, side, seed),
        _ => system.bot_orders(data, state, side, seed),
    }
}

/// A complete order document of a bot: the usual header (version 1) with the entropy derived
/// from the bot's seed, so the document, its hash and its part of the step seed are all fixed
/// by the seed; then the bot's orders, checked as `submit` checks a player's (`file` names the
/// document in a refusal).
#[allow(clippy::too_many_arguments)]
pub fn document(
    system: &dyn System,
    data: &GameData,
    state: &str,
    game_id: &str,
    step: u64,
    side: &str,
    basis: &Hash32,
    name: &str,
    seed: &Hash32,
) -> Result<String, Error> {
    let body = orders(system, data, state, side, name, seed)
        .map_err(|e| Error::Fail(format!("the {name} bot of {side}: {e}")))?;
    let doc = order_text(game_id, step, side, basis, &bot_entropy(seed), &body);
    let file = format!("the {name} bot's orders for {side}, step {step}");
    system
        .check_order(data, state, side, &doc, &file)
        .map_err(|rejections| {
            let why: Vec<String> = rejections.iter().map(|r| r.to_string()).collect();
            Error::Fail(format!(
                "the {name} bot of {side} wrote orders that check refuses (a defect in the bot): {}",
                why.join("; ")
            ))
        })?;
    Ok(doc)
}

/// How many of the system bot's orders (each under its own seed) the random player draws its
/// items from when the system lists no choices.
const RANDOM_POOL: u64 = 2;

/// How many items the random player tries at most in one step: each try is a `check` of the
/// whole orders, and a side may have thousands of legal items (every destination of every
/// unit), so the cost of a step stays bounded.
const RANDOM_TRIES: usize = 32;

/// The random player, built from nothing but `System`'s own API, so every system has it: the
/// items it may send are the system's legal choices (`System::choice_items`, what its template
/// lists), or, for a system that lists none, the single entries (a list element, a single value)
/// of the orders its bot writes under a few seeds (docs/hosting.md, "Bots"). It takes them in a
/// uniformly random order, passes over each with probability 1/2, tries at most
/// [`RANDOM_TRIES`], and keeps an item when `check` accepts the orders with it; so its orders
/// are legal by construction and any small subset of the items can come out.
fn random_orders(
    system: &dyn System,
    data: &GameData,
    state: &str,
    side: &str,
    seed: &Hash32,
) -> Result<String, String> {
    let mut seen = BTreeSet::new();
    let mut items: Vec<(Vec<String>, Value)> = Vec::new();
    let mut bodies = system.choice_items(data, state, side)?;
    if bodies.is_empty() {
        for k in 0..RANDOM_POOL {
            let pool_seed = Transcript::new("pbem-random-bot-pool-v1")
                .hash(seed)
                .u64(k)
                .finish();
            bodies.push(system.bot_orders(data, state, side, &pool_seed)?);
        }
    }
    for body in bodies {
        let value: Value = yaml::parse(&body, "bot orders").map_err(|r| r.to_string())?;
        let mut found = Vec::new();
        split(&value, &mut Vec::new(), &mut found);
        for item in found {
            if seen.insert(serde_json::to_string(&item).map_err(|e| e.to_string())?) {
                items.push(item);
            }
        }
    }
    let mut rng = BotRng::new(seed, &format!("random/{side}"));
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let zero = Hash32([0; 32]);
    let accepted = |orders: &Value| -> Result<bool, String> {
        let doc = order_text("random", 0, side, &zero, &zero, &yaml::encode(orders)?);
        Ok(system
            .check_order(data, state, side, &doc, "random bot")
            .is_ok())
    };
    let mut orders = Value::Object(Map::new());
    let mut tries = 0;
    for (path, item) in items {
        if tries == RANDOM_TRIES {
            break;
        }
        if !rng.chance(50) {
            continue;
        }
        tries += 1;
        let mut trial = orders.clone();
        insert(&mut trial, &path, item);
        if accepted(&trial)? {
            orders = trial;
        }
    }
    yaml::encode(&orders)
}

/// The single entries of an orders value, each with the path of mapping keys that leads to it:
/// every element of a list (as a list of one) and every value that is not a mapping or a list.
fn split(value: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                path.push(key.clone());
                split(v, path, out);
                path.pop();
            }
        }
        Value::Array(list) => {
            for v in list {
                out.push((path.clone(), Value::Array(vec![v.clone()])));
            }
        }
        Value::Null => {}
        v => out.push((path.clone(), v.clone())),
    }
}

/// Puts an entry of [`split`] into `into`: a list element after those there, a single value
/// where there is none yet.
fn insert(into: &mut Value, path: &[String], item: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = into;
    for key in parents {
        let Value::Object(map) = at else { return };
        at = map
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let Value::Object(map) = at else { return };
    match (map.get_mut(last), item) {
        (Some(Value::Array(list)), Value::Array(more)) => list.extend(more),
        (Some(_), _) => {}
        (None, item) => {
            map.insert(last.clone(), item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_bot_name_is_refused_listing_the_names() {
        assert_eq!(
            require("clever").unwrap_err(),
            "no bot named \"clever\"; the bots are: default, random"
        );
        assert_eq!(require("random"), Ok("random"));
    }

    #[test]
    fn split_entries_put_back_together_give_the_orders_again() {
        let orders: Value = serde_json::json!({
            "actions": [{"mv": "a"}, {"mv": "b"}],
            "latency": {"counts": {"H01": 2}, "skip": []},
            "discard": 12,
        });
        let mut items = Vec::new();
        split(&orders, &mut Vec::new(), &mut items);
        assert_eq!(items.len(), 4);
        let mut back = Value::Object(Map::new());
        for (path, item) in items {
            insert(&mut back, &path, item);
        }
        let mut expected = orders.clone();
        expected["latency"].as_object_mut().unwrap().remove("skip");
        assert_eq!(back, expected);
    }
}
