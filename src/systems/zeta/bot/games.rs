//! Whole games of three bots through the real step resolution (steps::resolve with a Dice per
//! step), from the Gryps scenario (38): every bot order must pass `check`, no step may fail,
//! and the game must move on. The `#[ignore]`d test plays many games and prints the balance
//! figures of plan §8.3 (win rates, length, games over by turn 2).

use super::orders_for;
use crate::kit::seats::Seat;
use crate::protocol::dice::Dice;
use crate::protocol::hash::{Hash32, Transcript};
use crate::systems::DataSource;
use crate::systems::zeta::data::Side;
use crate::systems::zeta::orders::{Orders, check};
use crate::systems::zeta::setup;
use crate::systems::zeta::state::{Ending, Stage, State};
use crate::systems::zeta::steps;
use std::collections::BTreeMap;

/// The most steps a game may take: a packet and at most nine phases (and a few asks) per
/// turn, ten turns (37.3).
const STEP_CAP: u64 = 200;

/// A seed per game, step and purpose.
fn seed(game: u64, step: u64, what: &str) -> Hash32 {
    Transcript::new("zeta-bot-games")
        .u64(game)
        .u64(step)
        .str(what)
        .finish()
}

/// How one game went.
#[derive(Debug)]
pub struct Played {
    /// `None` when the step cap came first.
    pub ending: Option<Ending>,
    /// The turn the game was in when it stopped.
    pub turn: u8,
    pub vp: Vec<i32>,
}

/// The sides the step waits for.
fn waiting(st: &State) -> Vec<Side> {
    match &st.stage {
        Stage::Packet { .. } => Side::ALL.to_vec(),
        Stage::Phase { card, .. } => vec![card.side],
        Stage::Ask { who, .. } => vec![*who],
        Stage::Over(_) => Vec::new(),
    }
}

/// Plays game `game` with three bots; `Err` names the first refused order or failed step.
pub fn play(game: u64) -> Result<Played, String> {
    let mut st = setup::initial_state(setup::GRYPS, &DataSource::default())?;
    let key = seed(game, 0, "game key");
    for step in 1..=STEP_CAP {
        if let Stage::Over(e) = &st.stage {
            return Ok(Played {
                ending: Some(e.clone()),
                turn: st.turn,
                vp: Side::ALL.iter().map(|s| st.sides[*s].vp).collect(),
            });
        }
        let mut orders: BTreeMap<String, Orders> = BTreeMap::new();
        for side in waiting(&st) {
            let o = orders_for(&st, side, &seed(game, step, side.name()));
            let problems = check(&st, side.name(), &o);
            if !problems.is_empty() {
                let text = serde_json::to_string(&o).unwrap_or_default();
                return Err(format!(
                    "game {game} step {step} ({:?}): {side}'s bot order refused: {problems:?}\n{text}",
                    st.stage
                ));
            }
            orders.insert(side.name().to_string(), o);
        }
        let mut dice = Dice::new(seed(game, step, "dice"), key).at_step(step);
        let before = st.stage.clone();
        st = steps::resolve(&st, &orders, &mut dice)
            .map_err(|e| format!("game {game} step {step} ({before:?}): {e}"))?
            .state;
        if st.stage == before {
            return Err(format!("game {game} step {step}: the game did not move on"));
        }
    }
    Ok(Played {
        ending: None,
        turn: st.turn,
        vp: Side::ALL.iter().map(|s| st.sides[*s].vp).collect(),
    })
}

/// Two whole games (about 15 s each in a debug build: the suite's budget); the ignored
/// `balance` test plays as many as wanted with the same checks.
#[test]
fn bot_games_run_with_every_order_accepted() {
    for game in 0..2 {
        let p = match play(game) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        // The game moved past its first turn or ended by sudden death (37.2).
        assert!(
            p.turn > 1 || p.ending.is_some(),
            "game {game} stuck in turn {}: {p:?}",
            p.turn
        );
    }
}

#[test]
fn the_bot_is_the_same_for_the_same_seed() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    for side in Side::ALL {
        let a = orders_for(&st, *side, &Hash32([3; 32]));
        let b = orders_for(&st, *side, &Hash32([3; 32]));
        assert_eq!(a, b);
    }
}

#[test]
fn the_titans_turn_1_packet_hides_the_nuke_and_spends_its_points() {
    let st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
    let o = orders_for(&st, Side::Titans, &Hash32([9; 32]));
    assert!(o.nuke_base.is_some(), "{o:?}");
    assert!(!o.armament.is_empty(), "{o:?}");
    assert!(o.cards.is_some(), "{o:?}");
    assert_eq!(check(&st, "titans", &o), vec![]);
}

/// Balance figures (plan §8.3): `cargo test --lib zeta::bot::games::balance -- --ignored
/// --nocapture`; ZETA_GAMES sets the number of games (100 by default).
#[test]
#[ignore]
fn balance() {
    let n: u64 = std::env::var("ZETA_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut wins: BTreeMap<&str, f64> = BTreeMap::new();
    let mut sudden = 0;
    let mut early = 0;
    let mut capped = 0;
    let mut errors = Vec::new();
    let mut turns = 0u64;
    let mut by_turn: BTreeMap<u8, u32> = BTreeMap::new();
    let mut vp_sum = [0i64; 3];
    for game in 0..n {
        match play(game) {
            Ok(p) => {
                for (i, v) in p.vp.iter().enumerate() {
                    if let Some(s) = vp_sum.get_mut(i) {
                        *s += i64::from(*v);
                    }
                }
                match &p.ending {
                    Some(e) => {
                        let share = 1.0 / e.winners.len() as f64;
                        for w in &e.winners {
                            *wins.entry(w.name()).or_insert(0.0) += share;
                        }
                        if e.rule == "37.2" {
                            sudden += 1;
                        }
                        if e.turn <= 2 {
                            early += 1;
                        }
                        turns += u64::from(e.turn);
                        *by_turn.entry(e.turn).or_insert(0) += 1;
                    }
                    None => capped += 1,
                }
            }
            Err(e) => errors.push(e),
        }
    }
    let ended = n - capped - errors.len() as u64;
    println!(
        "games {n}: ended {ended}, capped {capped}, errors {}",
        errors.len()
    );
    for side in Side::ALL {
        let w = wins.get(side.name()).copied().unwrap_or(0.0);
        println!(
            "  {:9} wins {:5.1} ({:4.1} %)",
            side.name(),
            w,
            100.0 * w / ended.max(1) as f64
        );
    }
    println!(
        "  sudden death (37.2) {sudden}; over by turn 2: {early} ({:.1} %); mean length {:.2} turns",
        100.0 * early as f64 / ended.max(1) as f64,
        turns as f64 / ended.max(1) as f64
    );
    println!("  endings by turn: {by_turn:?}");
    println!(
        "  mean final VP titans/aeug/neo_zeon: {:?}",
        vp_sum.map(|v| v as f64 / n.max(1) as f64)
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
}
