//! The hidden-information property for zeta (issue 14, plan §2): two states that differ only
//! in what a reader may not know (the other factions' unchosen cards, plans, policies, stopped
//! orders and Titans' nuke base; the deck's order and the seals' keys, which nobody knows)
//! give that reader byte-identical view YAML, text and board picture, also after a whole step
//! resolved on both with the same dice and orders. The states are those three bots reach
//! through the real step resolution (as src/systems/zeta/bot/games.rs plays them);
//! `pbem::systems::zeta::leak` lists the hidden facts and how each is changed.

mod common;

use pbem::kit::leak::{self, picker};
use pbem::kit::seats::Seat;
use pbem::protocol::dice::Dice;
use pbem::protocol::hash::{Hash32, Transcript};
use pbem::systems::zeta::Zeta;
use pbem::systems::zeta::bot::orders_for;
use pbem::systems::zeta::data::Place;
use pbem::systems::zeta::data::Side;
use pbem::systems::zeta::leak::{
    permute_cards_of, permute_deck, permute_hidden, permute_nuke, permute_plans_of,
    permute_secrets_of,
};
use pbem::systems::zeta::orders::Orders;
use pbem::systems::zeta::setup;
use pbem::systems::zeta::state::{AskWhy, Pending, PhaseCursor, PhaseSnapshot, Slot, Stage, State};
use pbem::systems::zeta::steps;
use pbem::systems::{DataSource, Reader, Rules};
use pbem::yaml;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Bot games played for the states, and the steps kept of each.
const GAMES: u64 = 2;
const STEPS: u64 = 12;

fn seed(game: u64, step: u64, what: &str) -> Hash32 {
    Transcript::new("zeta-leak-test")
        .u64(game)
        .u64(step)
        .str(what)
        .finish()
}

fn dice(game: u64, step: u64) -> Dice {
    Dice::new(seed(game, step, "dice"), seed(game, 0, "game key")).at_step(step)
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

/// The bots' orders for the open step of game `game`.
fn bot_orders(st: &State, game: u64, step: u64) -> BTreeMap<String, Orders> {
    waiting(st)
        .into_iter()
        .map(|side| {
            let o = orders_for(st, side, &seed(game, step, side.name()));
            (side.name().to_string(), o)
        })
        .collect()
}

/// A state the bots reached, with the game and the number of the step it waits for.
#[derive(Clone)]
struct Reached {
    game: u64,
    step: u64,
    state: State,
}

/// Every state of `GAMES` bot games up to `STEPS` steps (played once for all tests).
fn reached() -> &'static [Reached] {
    static ALL: OnceLock<Vec<Reached>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for game in 0..GAMES {
            let mut st = setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap();
            for step in 1..=STEPS {
                if matches!(st.stage, Stage::Over(_)) {
                    break;
                }
                out.push(Reached {
                    game,
                    step,
                    state: st.clone(),
                });
                let orders = bot_orders(&st, game, step);
                st = steps::resolve(&st, &orders, &mut dice(game, step))
                    .unwrap()
                    .state;
            }
        }
        out
    })
}

fn readers() -> Vec<(Reader, Option<Side>)> {
    let mut out = vec![(Reader::Public, None)];
    for side in Side::ALL.iter().copied() {
        out.push((Reader::Side(side.name().to_string()), Some(side)));
    }
    out
}

/// What a reader is shown: its view as YAML, the text rendered from it, and the board
/// picture's SVG drawn with `events` (the lines the reader may read).
fn seen_with(s: &State, r: &Reader, events: &[String]) -> String {
    let v = Zeta.view(s, r);
    let picture = Zeta
        .picture(&v, events, &Zeta.data_of(s))
        .expect("zeta draws its board");
    format!(
        "{}--- text\n{}--- picture\n{}",
        yaml::encode(&v).unwrap(),
        Zeta.render(&v),
        picture.as_str()
    )
}

fn seen(s: &State, r: &Reader) -> String {
    seen_with(s, r, &[])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Plan §2.3: every fact a reader may not know, changed, leaves its view, text and
    /// picture byte-identical.
    #[test]
    fn a_readers_view_text_and_picture_ignore_what_it_may_not_know(
        at in any::<prop::sample::Index>(),
        who in 0usize..4,
        perm in any::<u64>(),
    ) {
        let r = at.get(reached());
        let (reader, me) = readers().swap_remove(who);
        let b = permute_hidden(&r.state, me, &mut picker(perm));
        leak::same_for(&r.state, &b, &[reader], seen)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// What the CLI hands a seat besides its view (plan §4.6, §8): its order template
    /// (`pbem template`) and the host bot's orders for it (written "from the side's view",
    /// docs/dice.md "Bot orders") depend on nothing the seat may not know.
    #[test]
    fn a_seats_template_and_bot_orders_ignore_what_it_may_not_know(
        at in any::<prop::sample::Index>(),
        who in 0usize..3,
        perm in any::<u64>(),
    ) {
        let r = at.get(reached());
        let side = Side::ALL.get(who).copied().unwrap();
        let b = permute_hidden(&r.state, Some(side), &mut picker(perm));
        let text = |s: &State, _: &Side| {
            let bot = Zeta.bot(s, side.name(), &seed(r.game, r.step, "bot"));
            format!(
                "{}--- bot\n{}",
                Zeta.template(s, side.name()),
                serde_json::to_string_pretty(&bot).unwrap()
            )
        };
        leak::same_for(&r.state, &b, &[side], text)?;
    }
}

/// The reached phase states stopped at an 18.9 join ask (plan §1.3): the acting faction's
/// remaining orders (its bot's orders for the phase) kept in `pending`, AEUG's speech declared
/// in its own phases (29.1.2). The bots never stop a phase, so these are built by hand.
fn asked() -> &'static [State] {
    static ALL: OnceLock<Vec<State>> = OnceLock::new();
    ALL.get_or_init(asked_states)
}

fn asked_states() -> Vec<State> {
    let mut out = Vec::new();
    for r in reached() {
        let Stage::Phase { turn, k, card } = r.state.stage.clone() else {
            continue;
        };
        let Some(at) = r.state.units.values().find_map(|u| match u.place {
            Place::Hex(loc) if u.side == card.side => Some(loc),
            _ => None,
        }) else {
            continue;
        };
        let who = Side::ALL.iter().copied().find(|s| *s != card.side).unwrap();
        let rest = bot_orders(&r.state, r.game, r.step)
            .get(card.side.name())
            .map(Orders::phase_orders)
            .unwrap_or_default();
        let mut st = r.state.clone();
        st.stage = Stage::Ask {
            turn,
            k,
            who,
            why: AskWhy::Join { at },
        };
        st.pending = Some(Pending {
            who,
            why: AskWhy::Join { at },
            cursor: PhaseCursor {
                k,
                card,
                slot: Slot::Combats,
                snapshot: PhaseSnapshot::default(),
                combats_done: Vec::new(),
                combat_orders_done: 0,
            },
            rest,
        });
        st.speech_phase = card.side == Side::Aeug;
        out.push(st);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// A stopped phase's remaining orders (and AEUG's declared speech) are the acting
    /// faction's: the asked faction, the third and the public read the same.
    #[test]
    fn a_stopped_phases_orders_stay_with_the_acting_faction(
        at in any::<prop::sample::Index>(),
        who in 0usize..4,
        perm in any::<u64>(),
    ) {
        let a = at.get(asked());
        let (reader, me) = readers().swap_remove(who);
        let b = permute_hidden(a, me, &mut picker(perm));
        leak::same_for(a, &b, &[reader], seen)?;
    }
}

#[test]
fn the_asked_states_hold_stopped_orders_that_the_permutation_changes() {
    let all = asked();
    assert!(all.len() > 10);
    for a in all {
        let acting = a.pending.as_ref().unwrap().cursor.card.side;
        let b = permute_secrets_of(a, acting, &mut picker(1));
        assert_ne!(a.pending, b.pending);
        let rd = Reader::Side(acting.name().to_string());
        assert_ne!(
            seen(a, &rd),
            seen(&b, &rd),
            "the acting faction sees its own orders"
        );
    }
}

/// A step resolved on `state` with the bots' orders of game `game` and its dice: the new
/// state, the public lines, the private lines.
fn resolve(st: &State, orders: &BTreeMap<String, Orders>, game: u64, step: u64) -> Resolved {
    let r = steps::resolve(st, orders, &mut dice(game, step)).unwrap();
    Resolved {
        state: r.state,
        public: r.public,
        private: r.private,
    }
}

struct Resolved {
    state: State,
    public: Vec<String>,
    private: BTreeMap<String, Vec<String>>,
}

impl Resolved {
    /// The lines `reader` may read: the public ones, then its own.
    fn events(&self, reader: &Reader) -> Vec<String> {
        let mut out = self.public.clone();
        if let Reader::Side(s) = reader
            && let Some(p) = self.private.get(s)
        {
            out.extend(p.iter().cloned());
        }
        out
    }
}

/// The facts hidden from `me` that the step from `a` (resolved as `ra`) does not make
/// public, changed: the other factions' cards below those the step drew, the deck's order
/// there, Titans' nuke base (but for Titans), and the plans of the factions that drew no card
/// in the step (a drawn card runs its faction's plan openly; policies are read by combats
/// and colony drops, so they stay). `None` when the step makes the rest public: it ends the
/// turn (the cards come back, the deck's key is revealed) or the game.
fn permute_unrevealed(a: &State, ra: &State, me: Option<Side>, perm: u64) -> Option<State> {
    if ra.turn != a.turn || matches!(ra.stage, Stage::Over(_) | Stage::Packet { .. }) {
        return None;
    }
    let drawn_before = if matches!(a.stage, Stage::Packet { .. }) {
        0
    } else {
        a.drawn.len()
    };
    let new: Vec<_> = ra.drawn.iter().skip(drawn_before).collect();
    let drew: BTreeSet<Side> = new.iter().map(|c| c.side).collect();
    let keep_top = new.len();
    let mut b = a.clone();
    let mut pick = picker(perm);
    for side in Side::ALL.iter().copied() {
        if Some(side) == me {
            continue;
        }
        permute_cards_of(&mut b, side, keep_top, &mut pick);
        if side == Side::Titans {
            permute_nuke(&mut b, &mut pick);
        }
        if !drew.contains(&side) && !waiting(a).contains(&side) {
            permute_plans_of(&mut b, side, &mut pick);
        }
    }
    permute_deck(&mut b, keep_top, &mut pick);
    Some(b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A whole step on both states (same dice, same orders) gives the reader the same lines,
    /// and the same view, text and picture after it, unless the step reveals the nuke (36.4,
    /// 36.8: then its base is public on purpose).
    #[test]
    fn a_whole_step_reveals_nothing_the_reader_may_not_know(
        at in any::<prop::sample::Index>(),
        who in 0usize..4,
        perm in any::<u64>(),
    ) {
        let r = at.get(reached());
        let (reader, me) = readers().swap_remove(who);
        let orders = bot_orders(&r.state, r.game, r.step);
        let ra = resolve(&r.state, &orders, r.game, r.step);
        let Some(b) = permute_unrevealed(&r.state, &ra.state, me, perm) else {
            return Ok(());
        };
        let rb = resolve(&b, &orders, r.game, r.step);
        let revealed = |s: &State| s.nuke.revealed || s.nuke.used;
        prop_assume!(!revealed(&ra.state) && !revealed(&rb.state));
        let ea = ra.events(&reader);
        let eb = rb.events(&reader);
        prop_assert_eq!(
            leak::first_difference(&ea.join("\n"), &eb.join("\n")),
            None,
            "{:?}'s events at game {} step {}",
            reader,
            r.game,
            r.step
        );
        leak::same_for(&ra.state, &rb.state, &[reader], |s, rd| seen_with(s, rd, &ea))?;
    }
}

/// 36.3, plan §12/F10: Titans' turn-1 packet hiding the nuke in another candidate changes
/// nothing another reader reads after the packet step but the commitment's hash (which hides
/// the base): the same events otherwise, the same view, text and picture.
#[test]
fn the_nuke_base_of_the_packet_shows_only_as_its_commitment() {
    let mut compared = 0;
    for r in reached()
        .iter()
        .filter(|r| r.state.stage == Stage::Packet { turn: 1 })
    {
        let orders = bot_orders(&r.state, r.game, r.step);
        let chosen = orders["titans"].nuke_base.clone().unwrap();
        for other in r.state.data.nuke_candidates() {
            if other == chosen {
                continue;
            }
            let mut changed = orders.clone();
            changed.get_mut("titans").unwrap().nuke_base = Some(other.clone());
            let ra = resolve(&r.state, &orders, r.game, r.step);
            let rb = resolve(&r.state, &changed, r.game, r.step);
            assert_eq!(rb.state.nuke.base, Some(other.clone()));
            assert_ne!(ra.public, rb.public, "the commitments differ");
            for (reader, me) in readers() {
                if me == Some(Side::Titans) {
                    continue;
                }
                let hide = |e: Vec<String>| -> Vec<String> {
                    e.into_iter()
                        .filter(|l| !l.contains("commitment H(pbem-zeta-nuke-v1"))
                        .collect()
                };
                let (ea, eb) = (hide(ra.events(&reader)), hide(rb.events(&reader)));
                assert_eq!(
                    leak::first_difference(&ea.join("\n"), &eb.join("\n")),
                    None,
                    "{reader:?}'s events, nuke in {chosen} or {other}"
                );
                let seen_a = seen_with(&ra.state, &reader, &ea);
                let seen_b = seen_with(&rb.state, &reader, &eb);
                assert_eq!(
                    leak::first_difference(&seen_a, &seen_b),
                    None,
                    "{reader:?}, nuke in {chosen} or {other}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 6, "{compared}");
}

/// 10.2-10.5: a faction's sealed card choice, changed in the packet, changes nothing the
/// others read after the packet step as long as the cards drawn in it are the same (the draw
/// is what makes a card public; the kinds kept stay secret).
#[test]
fn a_card_choice_shows_only_through_the_cards_drawn() {
    use pbem::systems::zeta::orders::CardChoice;
    use pbem::systems::zeta::state::CardKind::{Atmosphere as A, Ground as G, Space as S};
    let choices = [[S, S, G], [S, S, A], [S, G, G], [S, G, A], [G, G, A]];
    let mut compared = 0;
    for r in reached()
        .iter()
        .filter(|r| matches!(r.state.stage, Stage::Packet { .. }))
    {
        let orders = bot_orders(&r.state, r.game, r.step);
        let ra = resolve(&r.state, &orders, r.game, r.step);
        for side in Side::ALL.iter().copied() {
            for kinds in &choices {
                let mut changed = orders.clone();
                let o = changed.get_mut(side.name()).unwrap();
                if o.cards == Some(CardChoice::Plain(kinds.to_vec())) {
                    continue;
                }
                o.cards = Some(CardChoice::Plain(kinds.to_vec()));
                let rb = resolve(&r.state, &changed, r.game, r.step);
                if ra.state.drawn != rb.state.drawn || ra.state.stage != rb.state.stage {
                    continue;
                }
                for (reader, me) in readers() {
                    if me == Some(side) {
                        continue;
                    }
                    let (ea, eb) = (ra.events(&reader), rb.events(&reader));
                    assert_eq!(
                        leak::first_difference(&ea.join("\n"), &eb.join("\n")),
                        None,
                        "{reader:?}'s events, {side} choosing {kinds:?}"
                    );
                    assert_eq!(
                        leak::first_difference(
                            &seen_with(&ra.state, &reader, &ea),
                            &seen_with(&rb.state, &reader, &eb)
                        ),
                        None,
                        "{reader:?}, {side} choosing {kinds:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 6, "only {compared} comparisons");
}

/// The permutation changes hidden facts (so the properties above cannot pass by changing
/// nothing): over the states reached, every kind of secret is changed somewhere, and the
/// owner's own view tells the difference.
#[test]
fn permuting_really_changes_hidden_facts() {
    let mut cards = false;
    let mut deck = false;
    let mut nuke = false;
    let mut policies = false;
    let mut plans = false;
    let mut owner_sees = false;
    for r in reached() {
        let a = &r.state;
        let b = permute_hidden(a, None, &mut picker(r.step));
        assert_ne!(a, &b, "game {} step {}: nothing changed", r.game, r.step);
        cards |= Side::ALL
            .iter()
            .any(|s| a.sides[*s].hand != b.sides[*s].hand);
        deck |= a.deck.draw_pile != b.deck.draw_pile;
        nuke |= a.nuke.base != b.nuke.base;
        policies |= Side::ALL.iter().all(|s| a.policies[*s] != b.policies[*s]);
        plans |= Side::ALL.iter().all(|s| a.plans[*s] != b.plans[*s]);
        for side in Side::ALL.iter().copied() {
            let own = permute_secrets_of(a, side, &mut picker(r.step));
            let rd = Reader::Side(side.name().to_string());
            owner_sees |= seen(a, &rd) != seen(&own, &rd);
        }
    }
    assert!(cards, "unchosen cards changed");
    assert!(deck, "the deck's order changed");
    assert!(nuke, "the nuke's base changed");
    assert!(policies, "policies changed");
    assert!(plans, "plans changed");
    assert!(owner_sees, "an owner sees its own secrets change");
}

/// The step property is not vacuous either: some reached states give a permuted state the
/// step does not reveal, with another faction's cards or the nuke's base changed.
#[test]
fn the_step_property_compares_states_that_differ() {
    let mut compared = 0;
    for r in reached() {
        let orders = bot_orders(&r.state, r.game, r.step);
        let ra = resolve(&r.state, &orders, r.game, r.step);
        for perm in 0..3 {
            if let Some(b) = permute_unrevealed(&r.state, &ra.state, Some(Side::Aeug), perm)
                && (b.sides[Side::Titans].hand != r.state.sides[Side::Titans].hand
                    || b.nuke.base != r.state.nuke.base)
            {
                compared += 1;
            }
        }
    }
    assert!(compared >= 3, "only {compared} permuted states compared");
}

/// The CLI keeps a sealed packet sealed (plan §2, §4.1): two hosted games that differ only in
/// Titans' packet (another nuke base, 36.3, and another card choice, 10.2) give AEUG and Neo
/// Zeon byte-identical `pbem status`, `pbem view`, `pbem report` and files under `views/` and
/// `reports/` while the packet waits for the other seats (docs/architecture.md: orders stay
/// host-side in `inbox/` until the step is processed). After it, the journal names each order
/// only by a hiding hash, and the state tests above cover the step's events and views.
mod cli {
    use super::common::*;
    use pbem::engine::game::{Game, Secrets};
    use pbem::engine::new::{Extras, NewGame, create_with};
    use pbem::protocol::hash::{Hash32, Transcript};
    use pbem::protocol::keys::PublicKey;
    use std::collections::BTreeMap;
    use std::path::{Path, PathBuf};

    const SIDES: [&str; 3] = ["titans", "aeug", "neo_zeon"];

    fn derived(what: &str) -> Hash32 {
        Transcript::new("zeta-leak-cli").str(what).finish()
    }

    /// One hosted game of the seats' keys in `keys`, with fixed host secrets.
    fn hosted(root: &Path, keys: &Path) -> PathBuf {
        let seats = SIDES
            .iter()
            .map(|side| {
                let public = std::fs::read_to_string(keys.join(format!("{side}.pub"))).unwrap();
                (side.to_string(), PublicKey::parse(public.trim()).unwrap())
            })
            .collect();
        let game = root.join("game");
        create_with(
            NewGame {
                dir: game.clone(),
                system: "zeta".into(),
                scenario: None,
                seats,
                names: Vec::new(),
                emails: Vec::new(),
                id: Some("zeta-leak".into()),
                data: None,
                mail: Default::default(),
                deadline: None,
            },
            Extras {
                bots: Vec::new(),
                secrets: Some(Secrets {
                    master: derived("master"),
                    game_key: derived("game key"),
                }),
            },
        )
        .unwrap();
        game
    }

    /// Signs `body` as `side`'s order for the open step (fixed entropy) and submits it.
    fn send(game: &Path, keys: &Path, side: &str, body: &str) {
        let g = Game::open(game).unwrap();
        let step = g.open_step().unwrap().step;
        let doc = pbem::engine::demo::order_text(
            &g.config.id,
            step,
            side,
            &g.head(),
            &derived(&format!("entropy {step} {side}")),
            body,
        );
        let plain = game.with_file_name(format!("{step}-{side}.plain.yaml"));
        let signed = game.with_file_name(format!("{step}-{side}.yaml"));
        std::fs::write(&plain, doc).unwrap();
        let key = keys.join(side);
        ok(&[
            "sign",
            plain.to_str().unwrap(),
            "--key",
            key.to_str().unwrap(),
            "-o",
            signed.to_str().unwrap(),
        ]);
        let (code, out, err) = run(&["submit", game.to_str().unwrap(), signed.to_str().unwrap()]);
        assert_eq!(code, 0, "{side}:\n{out}\n{err}");
    }

    /// What `side` may read of the game: status (text and JSON), its view, the report, and
    /// every file under `views/<side>/`, `views/public` and `reports/`.
    fn readable(game: &Path, side: &str) -> BTreeMap<String, String> {
        let dir = game.to_str().unwrap();
        let mut out = BTreeMap::new();
        out.insert("status".into(), ok(&["status", dir]));
        out.insert("status --json".into(), ok(&["status", dir, "--json"]));
        out.insert("view".into(), ok(&["view", dir, "--side", side]));
        out.insert("report".into(), ok(&["report", dir]));
        for (path, bytes) in snapshot(game) {
            let p = path.to_string_lossy().to_string();
            let mine = p.starts_with(&format!("views/{side}/"));
            let public = p.starts_with("reports/") || p.starts_with("views/public");
            if mine || public {
                out.insert(p, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        out
    }

    fn packet(nuke: &str, cards: &str) -> String {
        format!(
            "nuke_base: {nuke}\narmament:\n  - augment: {{type: hizack, count: 2}}\ncards: {cards}\n"
        )
    }

    fn assert_same(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>, who: &str) {
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{who}: the files differ"
        );
        for (k, x) in a {
            let y = &b[k];
            assert_eq!(
                pbem::kit::leak::first_difference(x, y),
                None,
                "{who} reads a difference in {k}"
            );
        }
    }

    #[test]
    fn a_sealed_packet_changes_nothing_the_other_seats_read() {
        let tmp = tempfile::tempdir().unwrap();
        let keys = tmp.path().join("keys");
        for side in SIDES {
            ok(&[
                "keygen",
                "--out",
                keys.join(side).to_str().unwrap(),
                "--comment",
                side,
            ]);
        }
        // One game, copied: the two differ in nothing before the packets (not even the
        // genesis record's time).
        let a = tmp.path().join("a");
        std::fs::create_dir_all(&a).unwrap();
        let games = [hosted(&a, &keys), tmp.path().join("b").join("game")];
        copy_dir(&games[0], &games[1]);
        for side in ["aeug", "neo_zeon"] {
            assert_same(&readable(&games[0], side), &readable(&games[1], side), side);
        }
        let secrets = [
            packet("odessa", "[space, space, ground]"),
            packet("jaburo", "[space, ground, atmosphere]"),
        ];
        for (game, body) in games.iter().zip(&secrets) {
            send(game, &keys, "titans", body);
            send(game, &keys, "aeug", "{}");
        }
        for side in ["aeug", "neo_zeon"] {
            assert_same(&readable(&games[0], side), &readable(&games[1], side), side);
        }
        // Of the whole game directory, only host-side files differ (docs/architecture.md:
        // `host/` and `inbox/` are never published).
        let public = |g: &Path| {
            let mut all = snapshot(g);
            all.retain(|p, _| !p.starts_with("host") && !p.starts_with("inbox"));
            all
        };
        assert!(
            public(&games[0]) == public(&games[1]),
            "a public file differs"
        );
        assert!(
            readable(&games[0], "aeug")
                .keys()
                .any(|k| k.starts_with("views/aeug/")),
            "a seat's view files are compared"
        );
        // Not vacuous: the host's inbox holds two different packets.
        let inbox = |g: &Path| std::fs::read(g.join("inbox/000001-titans.yaml")).unwrap();
        assert_ne!(inbox(&games[0]), inbox(&games[1]));
    }
}
