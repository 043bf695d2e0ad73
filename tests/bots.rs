//! The bots' two properties (issue 12), over whole games the bots play against each other:
//! every order a bot writes is accepted by `check` (a bot never sends a refused order), and a
//! bot reads nothing its side may not see: its orders do not change when the facts its side may
//! not know are permuted (the leak tests' permutations).

use pbem::kit::leak;
use pbem::kit::seats::{Seat, TwoSeats};
use pbem::protocol::dice::Dice;
use pbem::protocol::hash::Hash32;
use pbem::systems::{DataSource, Phase, Rules};
use pbem::yaml;
use std::collections::BTreeMap;

fn hash(seed: u64, step: u64, what: u8) -> Hash32 {
    let mut a = [what; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    a[8..16].copy_from_slice(&step.to_le_bytes());
    Hash32(a)
}

/// Permutations tried per bot decision.
const PERMUTATIONS: u64 = 2;

/// Plays one game of `rules` bot against bot from `initial`; at every decision, checks the
/// bot's orders against `check` and against the bot's orders on `permuted(state, side, k)`.
fn play<R: Rules>(
    rules: &R,
    initial: R::State,
    seed: u64,
    permuted: impl Fn(&R::State, R::Side, u64) -> R::State,
) -> (u64, u64) {
    let mut state = initial;
    // Decisions where the bot sent more than `{}`: the properties would hold vacuously for a
    // bot that never orders anything.
    let mut ordered = 0;
    for n in 1..=400u64 {
        let sides = match rules.phase(&state) {
            Phase::Finished(_) => return (n, ordered),
            Phase::Waiting { sides, .. } => sides,
        };
        let bot_seed = hash(seed, n, 0xb0);
        let mut orders = BTreeMap::new();
        for name in &sides {
            let side = R::Side::parse(name).unwrap();
            let o = rules.bot(&state, name, &bot_seed);
            let problems = rules.check(&state, name, &o);
            assert!(
                problems.is_empty(),
                "game {seed} step {n}: {name}'s bot order is refused: {problems:?}\n{}",
                yaml::to_string(&o)
            );
            let written = yaml::to_string(&o);
            if written.trim() != "{}" {
                ordered += 1;
            }
            // The legal choices the `random` bot picks among (Rules::choice_items) must not
            // depend on hidden facts either.
            let choices = yaml::to_string(&rules.choice_items(&state, name));
            for k in 0..PERMUTATIONS {
                let other = permuted(&state, side, seed ^ (n << 8) ^ k);
                let again = yaml::to_string(&rules.bot(&other, name, &bot_seed));
                if let Some((line, before, after)) = leak::first_difference(&written, &again) {
                    panic!(
                        "game {seed} step {n}: {name}'s bot orders change with facts it may not see (permutation {k}), line {line}:\n  before: {before}\n  after:  {after}"
                    );
                }
                let again = yaml::to_string(&rules.choice_items(&other, name));
                if let Some((line, before, after)) = leak::first_difference(&choices, &again) {
                    panic!(
                        "game {seed} step {n}: {name}'s legal choices change with facts it may not see (permutation {k}), line {line}:\n  before: {before}\n  after:  {after}"
                    );
                }
            }
            orders.insert(name.clone(), o);
        }
        let mut dice = Dice::new(hash(seed, n, 0xd1), hash(seed, 0, 0x6b));
        state = rules.resolve(&state, &orders, &mut dice).unwrap().state;
    }
    panic!("game {seed} did not end in 400 steps");
}

mod kummen {
    use super::*;
    use pbem::systems::kummen::Kummen;
    use pbem::systems::kummen::data::Side;
    use pbem::systems::kummen::state::{State, hidden_slots, permute_hidden};

    /// The other side's hidden identities permuted.
    fn permuted(state: &State, side: Side, seed: u64) -> State {
        let other = side.other();
        let perm = leak::permutation(seed, hidden_slots(state, other).len());
        permute_hidden(state, other, &perm).expect("a permutation of the hidden slots")
    }

    #[test]
    fn kummen_bots_send_only_accepted_orders_and_read_nothing_hidden() {
        for seed in 1..=2 {
            let s = Kummen
                .initial_state("campaign", &DataSource::default())
                .unwrap();
            let (steps, ordered) = play(&Kummen, s, seed, permuted);
            assert!(steps > 2, "game {seed} ended at step {steps}");
            assert!(
                ordered * 3 >= steps,
                "game {seed}: orders in {ordered} of {steps} steps"
            );
        }
    }
}

mod dougram {
    use super::*;
    use pbem::systems::dougram::Dougram;
    use pbem::systems::dougram::data::Side;
    use pbem::systems::dougram::state::{State, permute_hidden};

    /// What `side` may not know permuted: the other side's cards, its own deck order, the chits
    /// it may not see.
    fn permuted(state: &State, side: Side, seed: u64) -> State {
        permute_hidden(state, side, &mut leak::picker(seed))
    }

    #[test]
    fn dougram_bots_send_only_accepted_orders_and_read_nothing_hidden() {
        for (seed, scenario) in [(1, "setup1"), (2, "setup2")] {
            let s = Dougram
                .initial_state(scenario, &DataSource::default())
                .unwrap();
            let (steps, ordered) = play(&Dougram, s, seed, permuted);
            assert!(steps > 1, "game {seed} ended at step {steps}");
            assert!(
                ordered * 3 >= steps,
                "game {seed}: orders in {ordered} of {steps} steps"
            );
        }
    }
}
