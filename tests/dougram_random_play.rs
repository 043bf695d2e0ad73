//! Random play for dougram: many whole games of both scenarios with random but plausible
//! orders, built from the state as the phasing player sees it. Every step checks the orders
//! (keeping only the parts that pass `check`), resolves them and asserts what holds whatever
//! the players do: no error or panic, every die label used once, the system's invariants
//! (`dougram::invariants`: counters, chits and cards conserved, the Lib stack limit of 8.4.2 and
//! 6.10, Andy closed to Fed by 23.1), no latent chit value next to its token in public lines
//! (2.5), and a finished game reported as finished. The default run also shows that the shipped stand-in cards bring the mercenaries,
//! Mackerel, Cochma Spl, the Dougram and the Jagd Dougram onto the map.
//!
//! `DOUGRAM_RANDOM_GAMES` (games per scenario) and `DOUGRAM_RANDOM_SEED` widen or move the run.

use pbem::kit::seats::{Seat, TwoSeats};
use pbem::protocol::dice::Dice;
use pbem::protocol::hash::Hash32;
use pbem::systems::dougram::Dougram;
use pbem::systems::dougram::arming::Arm;
use pbem::systems::dougram::cardphase::CardPolicy;
use pbem::systems::dougram::cards::{Effect, Flag, PhaseName, StepName};
use pbem::systems::dougram::combat::{
    ApRequest, CaptureRequest, CombatPolicy, Declared, Displace, FightGroup, GroupChoice,
    MeleeRequest, Reaction,
};
use pbem::systems::dougram::data::{Class, HexId, HexRef, Side};
use pbem::systems::dougram::invariants;
use pbem::systems::dougram::movement::{
    Move, MovementPolicy, OverstackMode, OverstackPolicy, SeaOrder, TransportOrder,
};
use pbem::systems::dougram::orders::{Orders, Play};
use pbem::systems::dougram::replenish::{Convert, FortressOrder};
use pbem::systems::dougram::setup;
use pbem::systems::dougram::state::{ChitAt, State, UnitAt};
use pbem::systems::dougram::steps;
use pbem::systems::{DataSource, Phase, Problem, Rules};
use std::collections::{BTreeMap, BTreeSet};

/// Steps per game at most (two per turn).
const MAX_STEPS: u64 = 60;

/// SplitMix64: small, deterministic, good enough to pick orders.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    /// True with probability `p` percent.
    fn chance(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> Option<&'a T> {
        if v.is_empty() {
            None
        } else {
            Some(&v[self.below(v.len())])
        }
    }
    /// A random subset, in random order, of at most `max` elements.
    fn some<T: Clone>(&mut self, v: &[T], max: usize) -> Vec<T> {
        let mut pool: Vec<T> = v.to_vec();
        let n = self.below(max.min(pool.len()) + 1);
        let mut out = Vec::new();
        for _ in 0..n {
            let i = self.below(pool.len());
            out.push(pool.swap_remove(i));
        }
        out
    }
}

fn dice(seed: u64, step: u64) -> Dice {
    let mut a = [0u8; 32];
    a[..8].copy_from_slice(&seed.to_le_bytes());
    a[8..16].copy_from_slice(&step.to_le_bytes());
    Dice::new(Hash32(a), Hash32([0x77; 32]))
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

// ---------------------------------------------------------------------------------------
// What the player sees
// ---------------------------------------------------------------------------------------

fn units_of(s: &State, side: Side) -> BTreeMap<HexId, Vec<String>> {
    let mut out: BTreeMap<HexId, Vec<String>> = BTreeMap::new();
    for (id, u) in &s.units {
        if let UnitAt::Hex(h) = u.at
            && u.side == side
        {
            out.entry(h).or_default().push(id.clone());
        }
    }
    out
}

thread_local! {
    /// Class of every counter by id, for the state the orders are built from (computed once
    /// per state: `State::unit_type` rebuilds the counter table on every call).
    static CLASSES: std::cell::RefCell<BTreeMap<String, Class>> =
        const { std::cell::RefCell::new(BTreeMap::new()) };
}

fn compute_classes(s: &State) {
    let defs = s.data.counters.counter_defs();
    let mut out = BTreeMap::new();
    for (id, u) in &s.units {
        let Some(d) = defs.get(id) else { continue };
        let kind = if d.front.side == u.side {
            Some(&d.front.kind)
        } else {
            d.back.as_ref().map(|b| &b.kind)
        };
        if let Some(t) = kind.and_then(|k| s.data.counters.types.get(k)) {
            out.insert(id.clone(), t.class);
        }
    }
    CLASSES.with(|c| *c.borrow_mut() = out);
}

fn class_of(_s: &State, id: &str) -> Option<Class> {
    CLASSES.with(|c| c.borrow().get(id).copied())
}

thread_local! {
    /// Cards the players of this thread never play: in the long games, the two that end the
    /// game at once (20.2).
    static AVOID: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn hand(s: &State, side: Side) -> Vec<u32> {
    AVOID.with(|a| {
        let a = a.borrow();
        s.cards
            .get(side)
            .hand
            .cards()
            .iter()
            .copied()
            .filter(|c| !a.contains(c))
            .collect()
    })
}

/// Hand cards whose timing names `phase` (or any phase).
fn hand_for(s: &State, side: Side, phase: PhaseName) -> Vec<u32> {
    hand(s, side)
        .into_iter()
        .filter(|n| {
            s.card(*n)
                .is_some_and(|c| c.when.phase == phase || c.when.phase == PhaseName::Any)
        })
        .collect()
}

fn cities(s: &State) -> Vec<String> {
    s.data
        .map
        .places
        .iter()
        .filter(|p| p.city)
        .map(|p| p.id.clone())
        .collect()
}

fn hex_ref(s: &State, h: HexId, r: &mut Rng) -> HexRef {
    match s.data.map.place_at(h) {
        Some(p) if r.chance(50) => HexRef::Place(p.id.clone()),
        _ => HexRef::Hex(h),
    }
}

fn types_of(s: &State) -> Vec<String> {
    s.data.counters.types.keys().cloned().collect()
}

// ---------------------------------------------------------------------------------------
// Random order parts. Each part is tried on its own and kept only if `check` accepts it.
// ---------------------------------------------------------------------------------------

type Part = Box<dyn Fn(&mut Orders)>;
/// A part with the order section it belongs to, for the tally.
type Tagged = (&'static str, Part);

fn tag(name: &'static str, parts: Vec<Part>) -> Vec<Tagged> {
    parts.into_iter().map(|p| (name, p)).collect()
}

fn random_policies(s: &State, side: Side, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    if r.chance(30) {
        let h = hand(s, side);
        let mine: Vec<u32> = s
            .data
            .cards
            .cards
            .iter()
            .filter(|c| c.owner == side)
            .map(|c| c.no)
            .collect();
        let p = CardPolicy {
            keep: r.some(&h, 3),
            keep_none: r.chance(20),
            stock_wishlist: r.some(&mine, 3),
            swap_out: r.some(&mine, 2),
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.policies.card = Some(p.clone())
        }));
    }
    if r.chance(30) {
        let hs = hand(s, side);
        let mut reactions = Vec::new();
        for _ in 0..r.below(3) {
            let Some(&no) = r.pick(&hs) else { break };
            let at = *r
                .pick(&[
                    StepName::W1,
                    StepName::W2,
                    StepName::Capture,
                    StepName::Cba,
                    StepName::Ap,
                    StepName::Melee,
                ])
                .unwrap();
            reactions.push(Reaction {
                at,
                play: no,
                if_own_units_at_least: r.chance(30).then(|| r.below(4) as u32),
                if_enemy_units_at_most: r.chance(30).then(|| r.below(6) as u32),
                ..Reaction::default()
            });
        }
        let types = types_of(s);
        let p = CombatPolicy {
            capture: (side == Side::Lib && r.chance(60)).then(|| match r.below(3) {
                0 => CaptureRequest::Always,
                1 => CaptureRequest::Never,
                _ => CaptureRequest::IfTargetAtMost(r.below(12) as i32),
            }),
            reactions,
            ap_attack: if r.chance(50) {
                ApRequest::Always
            } else {
                ApRequest::Never
            },
            melee: match r.below(3) {
                0 => MeleeRequest::Expected,
                1 => MeleeRequest::Always,
                _ => MeleeRequest::Never,
            },
            allocation: r.some(&types, 3),
            fight_group: match r.below(3) {
                0 => GroupChoice::Auto,
                1 => GroupChoice::Regulars,
                _ => GroupChoice::Mercenaries,
            },
            fortress_displace: (side == Side::Fed && r.chance(50)).then(|| {
                if r.chance(50) {
                    Displace::MostFed
                } else {
                    Displace::Never
                }
            }),
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.policies.combat = Some(p.clone())
        }));
    }
    if side == Side::Lib && r.chance(20) {
        let types = types_of(s);
        let p = MovementPolicy {
            overstack: OverstackPolicy {
                shed_first: r.some(&types, 2),
                mode: if r.chance(50) {
                    OverstackMode::MoveThenEliminate
                } else {
                    OverstackMode::Eliminate
                },
            },
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.policies.movement = Some(p.clone())
        }));
    }
    if side == Side::Fed && r.chance(10) {
        let types = types_of(s);
        let p = r.some(&types, 3);
        parts.push(Box::new(move |o: &mut Orders| {
            o.policies.sixth_army = Some(p.clone())
        }));
    }
    parts
}

fn random_arming(s: &State, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    // Cards that give arming points (6.3.2).
    let cards = hand_for(s, Side::Lib, PhaseName::Arming);
    if !cards.is_empty() && r.chance(50) {
        let pick = r.some(&cards, 2);
        parts.push(Box::new(move |o: &mut Orders| {
            o.arming.play.extend(pick.iter().copied())
        }));
    }
    // Repairs (21.3).
    let damaged: Vec<String> = s
        .units
        .iter()
        .filter(|(_, u)| u.side == Side::Lib && u.damaged && matches!(u.at, UnitAt::Hex(_)))
        .map(|(id, _)| id.clone())
        .collect();
    if !damaged.is_empty() && r.chance(50) {
        let pick = r.some(&damaged, 2);
        parts.push(Box::new(move |o: &mut Orders| {
            o.arming.repair.extend(pick.iter().cloned())
        }));
    }
    // Latent chits by hex, with tokens (Lib sees its own tokens).
    let mut latent: BTreeMap<HexId, Vec<u32>> = BTreeMap::new();
    for c in s.chits.values() {
        if let (ChitAt::Hex(h), Some(t)) = (&c.at, c.token) {
            latent.entry(*h).or_default().push(t);
        }
    }
    let hexes: Vec<HexId> = latent.keys().copied().collect();
    let lib_types: Vec<String> = types_of(s)
        .into_iter()
        .filter(|t| pbem::systems::dougram::arming::has_lib_face(s, t))
        .collect();
    for k in 0..r.below(4) {
        let Some(&h) = r.pick(&hexes) else { break };
        let chits = r.some(&latent[&h], 3);
        let mut create = Vec::new();
        for _ in 0..1 + r.below(2) {
            let t = if r.chance(60) {
                "soldier".to_string()
            } else if r.chance(50) {
                "crab_gunner".to_string()
            } else {
                r.pick(&lib_types).cloned().unwrap_or_default()
            };
            create.push(t);
        }
        let labels: Vec<String> = if r.chance(40) {
            (0..create.len()).map(|j| format!("A{k}x{j}")).collect()
        } else {
            Vec::new()
        };
        let arm = Arm {
            hex: Some(hex_ref(s, h, r)),
            chits,
            create,
            labels,
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.arming.arm.push(arm.clone())
        }));
    }
    parts
}

fn random_replenishment(s: &State, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let cards = hand_for(s, Side::Fed, PhaseName::Replenishment);
    if !cards.is_empty() && r.chance(50) {
        let pick = r.some(&cards, 2);
        parts.push(Box::new(move |o: &mut Orders| {
            o.replenishment.play.extend(pick.iter().copied())
        }));
    }
    let in_box: Vec<String> = s
        .units
        .iter()
        .filter(|(_, u)| u.at == UnitAt::ReplenishmentBox && u.side == Side::Fed)
        .map(|(id, _)| id.clone())
        .collect();
    let soldiers: Vec<String> = in_box
        .iter()
        .filter(|id| class_of(s, id) == Some(Class::Soldier))
        .cloned()
        .collect();
    let cbas: Vec<String> = in_box
        .iter()
        .filter(|id| class_of(s, id) == Some(Class::Cba))
        .cloned()
        .collect();
    if r.chance(70) && !soldiers.is_empty() {
        let pick = r.some(&soldiers, 4);
        let label = r.chance(30);
        parts.push(Box::new(move |o: &mut Orders| {
            for (i, id) in pick.iter().enumerate() {
                o.replenishment.soldiers.push(id.clone());
                if label {
                    o.replenishment.labels.insert(id.clone(), format!("RS{i}"));
                }
            }
        }));
    }
    if r.chance(70) && !cbas.is_empty() {
        let pick = r.some(&cbas, 3);
        parts.push(Box::new(move |o: &mut Orders| {
            o.replenishment.cbas.extend(pick.iter().cloned())
        }));
    }
    if r.chance(20) && !cbas.is_empty() {
        let unit = r.pick(&cbas).cloned().unwrap();
        let to = r.pick(&types_of(s)).cloned().unwrap();
        parts.push(Box::new(move |o: &mut Orders| {
            o.replenishment.convert = Some(Convert {
                unit: unit.clone(),
                to: to.clone(),
            })
        }));
    }
    if r.chance(15) {
        let on_map: Vec<String> = s
            .units
            .iter()
            .filter(|(id, u)| {
                u.side == Side::Fed
                    && matches!(u.at, UnitAt::Hex(_))
                    && class_of(s, id) == Some(Class::Cba)
            })
            .map(|(id, _)| id.clone())
            .collect();
        if let Some(id) = r.pick(&on_map).cloned() {
            parts.push(Box::new(move |o: &mut Orders| {
                o.replenishment.to_box = Some(id.clone())
            }));
        }
    }
    if r.chance(10) {
        let fed = units_of(s, Side::Fed);
        let hexes: Vec<HexId> = fed.keys().copied().collect();
        let f = if r.chance(30) {
            FortressOrder {
                place: None,
                remove: true,
            }
        } else {
            FortressOrder {
                place: r.pick(&hexes).map(|h| HexRef::Hex(*h)),
                remove: false,
            }
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.replenishment.fortress = Some(f.clone())
        }));
    }
    parts
}

fn random_path(s: &State, from: HexId, r: &mut Rng) -> Vec<HexId> {
    let mut path = Vec::new();
    let mut at = from;
    for _ in 0..1 + r.below(2) {
        let n: Vec<HexId> = s
            .data
            .map
            .neighbours(at)
            .into_iter()
            .filter(|h| r.chance(97) || s.data.map.is_land(*h))
            .collect();
        let Some(&next) = r.pick(&n) else { break };
        path.push(next);
        at = next;
    }
    path
}

fn random_movement(s: &State, side: Side, labels: &[String], r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let stacks = units_of(s, side);
    let hexes: Vec<HexId> = stacks.keys().copied().collect();
    for _ in 0..r.below(6) {
        let Some(&h) = r.pick(&hexes) else { break };
        let units = r.some(&stacks[&h], 4);
        if units.is_empty() {
            continue;
        }
        let path = random_path(s, h, r);
        let m = Move {
            units,
            path,
            ..Move::default()
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.movement.moves.push(m.clone())
        }));
    }
    // New units named by their labels.
    if !labels.is_empty() && r.chance(40) {
        let l = r.pick(labels).cloned().unwrap();
        let start = *r.pick(&hexes).unwrap_or(&11);
        let path = random_path(s, start, r);
        parts.push(Box::new(move |o: &mut Orders| {
            o.movement.moves.push(Move {
                units: vec![l.clone()],
                path: path.clone(),
                ..Move::default()
            })
        }));
    }
    // Sea moves with a card of the hand (10).
    for no in hand(s, side) {
        let Some(card) = s.card(no) else { continue };
        let routes: Vec<[String; 2]> = card
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::SeaMove(m) => Some(m.routes.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        if routes.is_empty() || !r.chance(50) {
            continue;
        }
        let [a, b] = r.pick(&routes).cloned().unwrap();
        let (from, to) = if r.chance(50) { (a, b) } else { (b, a) };
        let fh = s.data.map.hex_of(&from);
        let units = stacks.get(&fh).map(|v| r.some(v, 4)).unwrap_or_default();
        if units.is_empty() {
            continue;
        }
        let sea = SeaOrder {
            card: Some(no),
            from: Some(HexRef::Place(from)),
            to: Some(if r.chance(50) {
                HexRef::Place(to)
            } else {
                HexRef::Hex(s.data.map.hex_of(&to))
            }),
        };
        parts.push(Box::new(move |o: &mut Orders| {
            o.movement.moves.push(Move {
                units: units.clone(),
                sea: Some(sea.clone()),
                ..Move::default()
            })
        }));
    }
    // Transport between cities (11).
    if r.chance(40) {
        let cs = cities(s);
        let from = r.pick(&cs).cloned().unwrap();
        let to = r.pick(&cs).cloned().unwrap();
        let fh = s.data.map.hex_of(&from);
        if let Some(v) = stacks.get(&fh) {
            let units = r.some(v, 5);
            if !units.is_empty() {
                let t = TransportOrder {
                    from: Some(HexRef::Place(from)),
                    to: Some(HexRef::Place(to)),
                };
                parts.push(Box::new(move |o: &mut Orders| {
                    o.movement.moves.push(Move {
                        units: units.clone(),
                        transport: Some(t.clone()),
                        ..Move::default()
                    })
                }));
            }
        }
    }
    parts
}

fn random_combat(s: &State, side: Side, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    // Hexes that hold both sides now; movement may change that, so a few neighbours too.
    let mine = units_of(s, side);
    let theirs = units_of(s, side.other());
    let mut hexes: Vec<HexId> = mine
        .keys()
        .filter(|h| theirs.contains_key(h))
        .copied()
        .collect();
    for h in mine.keys() {
        for n in s.data.map.neighbours(*h) {
            if theirs.contains_key(&n) && r.chance(10) {
                hexes.push(n);
            }
        }
    }
    let combat_cards = hand_for(s, side, PhaseName::Combat);
    let types = types_of(s);
    for _ in 0..r.below(4) {
        let Some(&h) = r.pick(&hexes) else { break };
        let mut d = Declared {
            hex: match s.data.map.place_at(h) {
                Some(p) if r.chance(50) => p.id.clone(),
                _ => h.to_string(),
            },
            ..Declared::default()
        };
        if r.chance(15) {
            d.fight_group = Some(if r.chance(50) {
                FightGroup::Regulars
            } else {
                FightGroup::Mercenaries
            });
        }
        for no in r.some(&combat_cards, 2) {
            match s.card(no).and_then(|c| c.when.step) {
                Some(StepName::W1) => d.w1.push(no),
                Some(StepName::W2) => d.w2.push(no),
                Some(StepName::Capture) => d.capture.push(no),
                Some(StepName::Cba) => d.cba.push(no),
                Some(StepName::Ap) => d.ap.push(no),
                Some(StepName::Melee) => d.melee.push(no),
                None => match r.below(6) {
                    0 => d.w1.push(no),
                    1 => d.w2.push(no),
                    2 => d.capture.push(no),
                    3 => d.cba.push(no),
                    4 => d.ap.push(no),
                    _ => d.melee.push(no),
                },
            }
        }
        if r.chance(40) {
            d.ap_attack = Some(r.chance(50));
        }
        if r.chance(40) {
            d.melee_attack = Some(r.chance(50));
        }
        if r.chance(20) {
            d.allocation = Some(r.some(&types, 3));
        }
        parts.push(Box::new(move |o: &mut Orders| {
            o.combat.combats.push(d.clone())
        }));
    }
    parts
}

fn random_latency(s: &State, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let lib = units_of(s, Side::Lib);
    let hexes: Vec<HexId> = lib.keys().copied().collect();
    for _ in 0..r.below(4) {
        let Some(&h) = r.pick(&hexes) else { break };
        let key = hex_ref(s, h, r);
        if r.chance(40) {
            parts.push(Box::new(move |o: &mut Orders| {
                o.latency.skip.push(key.clone())
            }));
        } else {
            let n = r.below(4) as i64 - i64::from(r.chance(5));
            parts.push(Box::new(move |o: &mut Orders| {
                o.latency.counts.insert(key.clone(), n);
            }));
        }
    }
    parts
}

fn random_security(s: &State, labels: &[String], r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let cards = hand_for(s, Side::Fed, PhaseName::Security);
    if !cards.is_empty() && r.chance(60) {
        let pick = r.some(&cards, 2);
        parts.push(Box::new(move |o: &mut Orders| {
            o.security.cards.extend(pick.iter().copied())
        }));
    }
    if r.chance(30) {
        let fed = units_of(s, Side::Fed);
        let hexes: Vec<HexId> = fed.keys().copied().collect();
        if let Some(&h) = r.pick(&hexes) {
            let mut soldiers: Vec<String> = fed[&h]
                .iter()
                .filter(|id| class_of(s, id) == Some(Class::Soldier))
                .cloned()
                .collect();
            if r.chance(20) {
                soldiers.extend(labels.iter().cloned());
            }
            let mut groups = Vec::new();
            for _ in 0..1 + r.below(2) {
                let g = r.some(&soldiers, 3);
                if !g.is_empty() {
                    groups.push(g);
                }
            }
            let key = hex_ref(s, h, r);
            parts.push(Box::new(move |o: &mut Orders| {
                o.security.groups.insert(key.clone(), groups.clone());
            }));
        }
    }
    parts
}

fn random_plays(s: &State, side: Side, r: &mut Rng) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let phases = pbem::systems::dougram::orders::phases(side);
    let mine: Vec<u32> = s
        .data
        .cards
        .cards
        .iter()
        .filter(|c| c.owner == side)
        .map(|c| c.no)
        .collect();
    let mut pool = hand(s, side);
    if r.chance(30) {
        let avoid = AVOID.with(|a| a.borrow().clone());
        pool.extend(r.some(&mine, 2).into_iter().filter(|c| !avoid.contains(c)));
    }
    for no in r.some(&pool, 3) {
        let phase = r.chance(60).then(|| *r.pick(&phases).unwrap());
        let optional = r.chance(70);
        parts.push(Box::new(move |o: &mut Orders| {
            o.play.push(Play {
                card: no,
                phase,
                optional,
            })
        }));
    }
    parts
}

// ---------------------------------------------------------------------------------------
// Checking
// ---------------------------------------------------------------------------------------

fn assert_problem_shape(p: &Problem, ctx: &str) {
    assert!(
        p.rule.as_deref().is_some_and(|r| !r.is_empty()) || !p.message.is_empty(),
        "{ctx}: a problem with neither rule nor message: {p:?}"
    );
    let path = p.path.to_string();
    assert!(
        path.starts_with("orders") || path.starts_with("side"),
        "{ctx}: a problem outside orders: {path:?} ({p:?})"
    );
}

/// The section of the order file a problem is in (`movement`, `play`...), or "" for the root.
fn section(p: &Problem) -> String {
    let path = p.path.to_string();
    let rest = path.strip_prefix("orders.").unwrap_or("");
    rest.split(['.', '[']).next().unwrap_or("").to_string()
}

/// Checks `o`, asserting the shape of every problem.
fn checked(s: &State, side: Side, o: &Orders, ctx: &str) -> Vec<Problem> {
    let problems = Dougram.check(s, side.name(), o);
    for p in &problems {
        assert_problem_shape(p, ctx);
    }
    problems
}

/// The orders made of `parts` that pass `check`: all of them when they pass together, else
/// the sections without problems, then the parts of the others added one by one, each kept
/// only if the orders so far still pass.
fn build(s: &State, side: Side, parts: Vec<Tagged>, ctx: &str, tally: &mut Tally) -> Orders {
    let mut all = Orders::default();
    for (_, part) in &parts {
        part(&mut all);
    }
    let problems = checked(s, side, &all, ctx);
    if problems.is_empty() {
        for (name, _) in &parts {
            tally.parts.entry(name).or_default().0 += 1;
        }
        return all;
    }
    let bad: BTreeSet<String> = problems.iter().map(section).collect();
    let mut o = Orders::default();
    let mut rest = Vec::new();
    if !bad.contains("") {
        let mut base = Orders::default();
        let mut kept = Vec::new();
        for (name, part) in parts {
            if bad.contains(name) {
                rest.push((name, part));
            } else {
                part(&mut base);
                kept.push((name, part));
            }
        }
        if checked(s, side, &base, ctx).is_empty() {
            for (name, _) in &kept {
                tally.parts.entry(name).or_default().0 += 1;
            }
            o = base;
        } else {
            rest.extend(kept);
        }
    } else {
        rest = parts;
    }
    for (name, part) in rest {
        let mut trial = o.clone();
        part(&mut trial);
        let e = tally.parts.entry(name).or_default();
        if checked(s, side, &trial, ctx).is_empty() {
            e.0 += 1;
            o = trial;
        } else {
            e.1 += 1;
        }
    }
    let problems = Dougram.check(s, side.name(), &o);
    assert!(problems.is_empty(), "{ctx}: kept orders fail: {problems:?}");
    o
}

fn orders_for(s: &State, side: Side, r: &mut Rng, ctx: &str, tally: &mut Tally) -> Orders {
    compute_classes(s);
    let mut parts = tag("policies", random_policies(s, side, r));
    if s.phasing() == Some(side) {
        if *s.pending_discard.get(side) && r.chance(60) {
            let h = hand(s, side);
            let c = r.pick(&h).copied();
            parts.push((
                "discard_to_six",
                Box::new(move |o: &mut Orders| o.discard_to_six = c),
            ));
        }
        parts.extend(tag("play", random_plays(s, side, r)));
        let mut labels = Vec::new();
        match side {
            Side::Lib => {
                parts.extend(tag("arming", random_arming(s, r)));
                // Labels the arming parts may give (whether or not they are kept).
                labels.extend((0..4).flat_map(|k| (0..2).map(move |j| format!("A{k}x{j}"))));
            }
            Side::Fed => {
                parts.extend(tag("replenishment", random_replenishment(s, r)));
                labels.extend((0..4).map(|i| format!("RS{i}")));
            }
        }
        parts.extend(tag("movement", random_movement(s, side, &labels, r)));
        parts.extend(tag("combat", random_combat(s, side, r)));
        match side {
            Side::Lib => parts.extend(tag("latency", random_latency(s, r))),
            Side::Fed => parts.extend(tag("security", random_security(s, &labels, r))),
        }
    } else if r.chance(5) {
        // A foreign order: always refused for the side not phasing (4.1).
        parts.push((
            "foreign",
            Box::new(|o: &mut Orders| o.discard_to_six = Some(1)),
        ));
    }
    build(s, side, parts, ctx, tally)
}

// ---------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------

/// No public line names a latent chit's token together with its value.
fn assert_no_leak(before: &State, after: &State, public: &[String], ctx: &str) {
    let mut latent: Vec<(u32, u32)> = Vec::new();
    for s in [before, after] {
        for c in s.chits.values() {
            if let (ChitAt::Hex(_), Some(t)) = (&c.at, c.token) {
                latent.push((t, c.value));
            }
        }
    }
    for line in public {
        for (t, v) in &latent {
            let named = contains_number_after(line, "token ", *t)
                || contains_number_after(line, "chit ", *t)
                || contains_number_after(line, "chits ", *t);
            let valued = contains_number_after(line, "worth ", *v)
                || contains_number_after(line, "value ", *v);
            let pair = line.contains(&format!("{t}={v}"));
            assert!(
                !(pair || (named && valued)),
                "{ctx}: public line leaks latent chit token {t} worth {v}: {line}"
            );
        }
    }
}

/// Whether `line` has `prefix` followed by exactly the number `n`.
fn contains_number_after(line: &str, prefix: &str, n: u32) -> bool {
    let want = n.to_string();
    line.match_indices(prefix).any(|(i, _)| {
        let rest = &line[i + prefix.len()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        digits == want
    })
}

// ---------------------------------------------------------------------------------------
// The games
// ---------------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    games: u64,
    finished: u64,
    steps: u64,
    /// Order section -> (parts kept, parts refused by check).
    parts: BTreeMap<&'static str, (u64, u64)>,
    /// Public lines of the 6.10 fix, to see that the stack limit is exercised.
    overstacks: u64,
    /// Unit type -> games in which a unit of it stood on the map.
    on_map: BTreeMap<String, u64>,
}

/// The types the shipped stand-in data must bring onto the map in ordinary play (issue 12):
/// the mercenaries (2.9: 8.6, 12.5, 13.4, 25.1, 27.1), Mackerel and Cochma Spl (17.6), and the
/// Dougram family Lib arms by cards (6.8, 21, 20.3.2).
const MUST_REACH_THE_MAP: [&str; 7] = [
    "garcia_squad",
    "tequila_gunner",
    "desert_gunner",
    "mackerel",
    "cochma_spl",
    "dougram",
    "jagd_dougram",
];

/// `s` with Estor held by Lib: its Fed units go to the stock and two stock Lib soldiers come
/// in, so that Lib starts with 1 VP and the 20.3.2 roll does not end most games on turn 1.
fn lib_holds_estor(s: &mut State) {
    let estor = s.data.map.hex_of("estor");
    for u in s.units.values_mut() {
        if u.at == UnitAt::Hex(estor) && u.side == Side::Fed {
            u.at = UnitAt::Stock;
        }
    }
    let taken = BTreeSet::new();
    for _ in 0..2 {
        let id = pbem::systems::dougram::arming::stock_counter(s, Side::Lib, "soldier", &taken)
            .expect("a stock Lib soldier");
        let u = s.units.get_mut(&id).unwrap();
        u.at = UnitAt::Hex(estor);
        u.side = Side::Lib;
    }
    s.recompute_control();
    assert!(s.lib_vp() >= 1);
}

fn play_game(scenario: &str, long: bool, seed: u64, tally: &mut Tally) {
    let mut r = Rng(seed ^ 0xd0_06_7a_u64);
    let mut first = setup::initial_state(scenario, &DataSource::default()).unwrap();
    let mut avoid = Vec::new();
    if long {
        lib_holds_estor(&mut first);
        avoid = first
            .data
            .cards
            .cards
            .iter()
            .filter(|c| {
                c.while_open
                    .iter()
                    .any(|f| matches!(f, Flag::LacockAssassinated | Flag::PeaceTalks))
            })
            .map(|c| c.no)
            .collect();
    }
    AVOID.with(|a| *a.borrow_mut() = avoid);
    let mut s = first.clone();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for step in 0..MAX_STEPS {
        let ctx = format!(
            "{scenario} seed {seed} step {step} ({:?} turn {})",
            s.step, s.turn
        );
        if let Phase::Finished(_) = Dougram.phase(&s) {
            break;
        }
        let mut orders = BTreeMap::new();
        for &side in Side::ALL {
            let o = orders_for(&s, side, &mut r, &ctx, tally);
            if o != Orders::default() || r.chance(50) {
                orders.insert(side.name().to_string(), o);
            }
        }
        let mut d = dice(seed, step);
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            steps::resolve(&s, &orders, &mut d)
        }));
        let res = match res {
            Ok(Ok(res)) => res,
            Ok(Err(e)) => panic!("{ctx}: resolve failed: {e}\norders: {orders:#?}"),
            Err(_) => panic!("{ctx}: resolve panicked\norders: {orders:#?}"),
        };
        if let Err(e) = d.finish() {
            panic!("{ctx}: dice: {e:?}\norders: {orders:#?}");
        }
        let next = res.state;
        let broken = invariants::broken(&s, &next);
        assert!(broken.is_empty(), "{ctx}: invariants broken: {broken:?}");
        tally.overstacks += res
            .public
            .iter()
            .filter(|l| l.contains("over the limit of 4"))
            .count() as u64;
        assert_no_leak(&s, &next, &res.public, &ctx);
        for side in res.private.keys() {
            assert!(
                Side::parse(side).is_some(),
                "{ctx}: private lines for {side}"
            );
        }
        tally.steps += 1;
        for (id, u) in &next.units {
            if matches!(u.at, UnitAt::Hex(_))
                && let Some(t) = next.unit_type(id)
            {
                seen.insert(t.to_string());
            }
        }
        s = next;
        if s.finished.is_some() {
            assert!(
                matches!(Dougram.phase(&s), Phase::Finished(_)),
                "{ctx}: finished but phase is not Finished"
            );
            // Nothing more is accepted.
            assert!(!Dougram.check(&s, "lib", &Orders::default()).is_empty());
            assert!(steps::resolve(&s, &BTreeMap::new(), &mut dice(seed, 999)).is_err());
            tally.finished += 1;
            break;
        } else {
            assert!(
                matches!(Dougram.phase(&s), Phase::Waiting { .. }),
                "{ctx}: not finished but phase is Finished"
            );
        }
    }
    tally.games += 1;
    for t in seen {
        *tally.on_map.entry(t).or_default() += 1;
    }
}

/// `games` games as the scenario starts, then as many with Lib holding Estor (longer games).
fn run(scenario: &str) {
    let games = env_u64("DOUGRAM_RANDOM_GAMES", 8);
    let base = env_u64("DOUGRAM_RANDOM_SEED", 0x5eed);
    let mut tally = Tally::default();
    for g in 0..2 * games {
        let seed = base.wrapping_mul(1000).wrapping_add(g);
        play_game(scenario, g >= games, seed, &mut tally);
    }
    eprintln!(
        "{scenario}: {} games, {} steps, {} finished; parts kept/refused: {:?}",
        tally.games, tally.steps, tally.finished, tally.parts
    );
    eprintln!("{scenario}: Lib over-stacks fixed: {}", tally.overstacks);
    eprintln!(
        "{scenario}: games with each type on the map: {:?}",
        tally.on_map
    );
    // The shipped data brings every type onto the map in ordinary play (issue 12). Checked on
    // the default run, whose games are fixed; a moved or narrowed run only reports.
    if std::env::var_os("DOUGRAM_RANDOM_SEED").is_none() && games >= 8 {
        for t in MUST_REACH_THE_MAP {
            assert!(
                tally.on_map.get(t).is_some_and(|n| *n > 0),
                "{scenario}: no {t} reached the map in {} games: {:?}",
                tally.games,
                tally.on_map
            );
        }
    }
    assert!(
        tally.steps > games,
        "{scenario}: games too short to test anything"
    );
}

#[test]
fn random_games_of_setup1_keep_the_invariants() {
    run("setup1");
}

#[test]
fn random_games_of_setup2_keep_the_invariants() {
    run("setup2");
}

#[test]
fn the_leak_detector_sees_the_private_latency_line() {
    let s0 = setup::initial_state("setup2", &DataSource::default()).unwrap();
    let s = steps::resolve(&s0, &BTreeMap::new(), &mut dice(1, 0))
        .unwrap()
        .state;
    let (t, v) = s
        .chits
        .values()
        .find_map(|c| match (&c.at, c.token) {
            (ChitAt::Hex(_), Some(t)) => Some((t, c.value)),
            _ => None,
        })
        .expect("setup2 places latent chits (28.2.3)");
    let leaks = |line: String| {
        std::panic::catch_unwind(|| assert_no_leak(&s, &s, &[line], "probe")).is_err()
    };
    assert!(leaks(format!(
        "latent chit token {t} in hex 57 is worth {v} (18.5, 2.5)"
    )));
    assert!(leaks(format!(
        "arming 1: chits {t}={v} give {v} latent point(s)"
    )));
    assert!(!leaks(format!("one chit (token {t}) leaves hex 57")));
}
