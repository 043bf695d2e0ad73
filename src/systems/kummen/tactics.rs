//! How the standing policies (docs/kummen.md "Policies") become decisions during a combat phase
//! (9) and at the heli return (9.13): the value weights of the digest (3.5), unit kinds, target
//! rankings, pairing strategies, surplus placement, retreat conditions and heli cargo.
//!
//! Everything is deterministic and in integers: chances are in 36ths (9.9.3), values in half VP,
//! so "value x chance" is a whole number. Orders that could depend on hidden identities use the
//! public order (face-up units by id, then tokens by number).
//!
//! The legality of the combat policies is written here too, once: `legal_combat_policies` (the
//! keys `policies` and `combat_overrides` share), `legal_overrides` and their parts; the
//! `*_choices` functions list the values they accept. Everything that reads a policy during a
//! combat relies on it having passed these when it was set: `steps` merges a policy patch or
//! keeps an override only if it has no problem.

use super::combat::{Group, experience, p36};
use super::data::{Class, Role, Side};
use super::orders::{
    CombatOverride, Distribute, KINDS, Pairing, PolicyPatch, PsRule, RetreatTo, RetreatWhen,
    RuleOr, TargetRule,
};
use super::state::State;
use super::{combat, movement};
use crate::kit::hex::Hex;
use crate::kit::seats::{Seat, TwoSeats};
use crate::systems::Problem;
use crate::yaml::FieldPath;
use std::cmp::{Ordering, Reverse};
use std::collections::BTreeSet;

/// Whether `sel` (a unit id, or a kind of `orders::KINDS`) names unit `id`.
pub fn matches(state: &State, sel: &str, id: &str) -> bool {
    let role = state.role_of(id);
    match sel {
        "ps" => state.counters.is_ps(id),
        "at" => state.class_of(id) == Some(Class::At),
        "soldier" => state.class_of(id) == Some(Class::Soldier),
        "heli" => state.is_heli(id),
        "kanyu" => role == Some(Role::Kanyu),
        "kiriko" => role == Some(Role::Kiriko),
        "blue_at" => role == Some(Role::BlueAt),
        "strike_dog" => role == Some(Role::StrikeDog),
        "proto_one" => role == Some(Role::ProtoOne),
        _ => sel == id,
    }
}

/// For a kind, the side whose units it can name (`Some(None)`: either side); `None` when `sel`
/// is not a kind.
pub fn kind_side(sel: &str) -> Option<Option<Side>> {
    match sel {
        "at" | "soldier" => Some(None),
        "heli" | "kanyu" | "kiriko" => Some(Some(Side::Mercenary)),
        "ps" | "blue_at" | "strike_dog" | "proto_one" => Some(Some(Side::Beeler)),
        _ => None,
    }
}

/// The kinds the heli cargo policy may name (9.13.4, 5.11.5: ATs, Kan-Yu among them, and
/// soldiers; never Kiriko, A3). With them `names_ok` accepts exactly the mercenary ids that
/// `movement::carriable` accepts.
pub const CARGO_KINDS: [&str; 3] = ["at", "soldier", "kanyu"];

/// Kinds that can name an enemy of `side` in combat.
pub fn enemy_kinds(side: Side) -> Vec<&'static str> {
    KINDS
        .iter()
        .copied()
        .filter(|k| kind_side(k).is_some_and(|s| s.is_none_or(|s| s == side.other())))
        .collect()
}

/// Whether `sel`, an entry of a priority list, names units of `of` of the `kinds` allowed
/// there: one of those kinds (that can name units of `of`), or the id of a unit of `of` that is
/// of one of them (Kiriko only where `kiriko` is allowed).
pub fn names_ok(state: &State, sel: &str, of: Side, kinds: &[&str]) -> bool {
    match kind_side(sel) {
        Some(side) => kinds.contains(&sel) && side.is_none_or(|s| s == of),
        None => {
            state.side_of(sel) == Some(of)
                && kinds.iter().any(|k| matches(state, k, sel))
                && (kinds.contains(&"kiriko") || !matches(state, "kiriko", sel))
        }
    }
}

/// Every entry a priority list naming units of `of` of `kinds` accepts: the kinds, then the
/// unit ids, by `names_ok`.
pub fn name_choices(state: &State, of: Side, kinds: &[&str]) -> Vec<String> {
    KINDS
        .iter()
        .map(|k| k.to_string())
        .chain(state.counters.units.keys().cloned())
        .filter(|sel| names_ok(state, sel, of, kinds))
        .collect()
}

/// What a priority list accepts, naming units of `of`.
fn accepted_names(state: &State, of: Side, kinds: &[&str]) -> String {
    let example = state
        .counters
        .units
        .keys()
        .find(|id| state.side_of(id) == Some(of) && !state.counters.is_ps(id))
        .cloned()
        .unwrap_or_default();
    format!(
        "a {} unit id (e.g. {example}) or one of {}",
        of.name(),
        kinds.join(", ")
    )
}

/// Problems with a priority list at `p` that must name units of `of` of the `kinds` allowed
/// there (`names_ok`), each citing `rule`.
pub fn legal_names(
    state: &State,
    p: &FieldPath,
    rule: &str,
    list: &[String],
    of: Side,
    kinds: &[&str],
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (k, sel) in list.iter().enumerate() {
        if !names_ok(state, sel, of, kinds) {
            out.push(Problem::new(
                p.at(k),
                rule,
                format!(
                    "{sel} does not name a {} unit that can be chosen here",
                    of.name()
                ),
                accepted_names(state, of, kinds),
            ));
        }
    }
    out
}

/// Problems with a keyword or a priority list of enemies of `side` at `p` (D3, D7, D8).
pub fn legal_rule_or<R>(
    state: &State,
    side: Side,
    p: &FieldPath,
    rule: &str,
    v: &RuleOr<R>,
) -> Vec<Problem> {
    match v {
        RuleOr::Rule(_) => Vec::new(),
        RuleOr::Prefer(list) => {
            let mut out = Vec::new();
            if list.is_empty() {
                out.push(Problem::new(
                    p.clone(),
                    rule,
                    "an empty priority list",
                    "a keyword, or a list of at least one unit id or kind",
                ));
            }
            out.extend(legal_names(
                state,
                p,
                rule,
                list,
                side.other(),
                &enemy_kinds(side),
            ));
            out
        }
    }
}

/// Every value a keyword-or-priority-list policy of `side` accepts with a list of one entry:
/// the keywords `rules`, then each enemy entry of `name_choices`.
pub fn rule_or_choices<R: Clone>(state: &State, side: Side, rules: &[R]) -> Vec<RuleOr<R>> {
    rules
        .iter()
        .cloned()
        .map(RuleOr::Rule)
        .chain(
            name_choices(state, side.other(), &enemy_kinds(side))
                .into_iter()
                .map(|n| RuleOr::Prefer(vec![n])),
        )
        .collect()
}

/// Problems with a retreat condition of `side` at `p` (D9, 9.11).
pub fn legal_retreat_when(
    state: &State,
    side: Side,
    p: &FieldPath,
    r: &RetreatWhen,
) -> Vec<Problem> {
    let mut out = Vec::new();
    match r {
        RetreatWhen::AfterRound(0) => out.push(Problem::new(
            p.at("after_round"),
            "9.11",
            "rounds count from 1",
            "1 or more",
        )),
        RetreatWhen::LostGe(0) => out.push(Problem::new(
            p.at("lost_ge"),
            "9.11",
            "lost_ge: 0 would always retreat",
            "1 or more",
        )),
        RetreatWhen::EnemyHas(list) => {
            let at = p.at("enemy_has");
            if list.is_empty() {
                out.push(Problem::new(
                    at.clone(),
                    "9.11",
                    "an empty list",
                    "at least one unit id or kind",
                ));
            }
            out.extend(legal_names(
                state,
                &at,
                "9.11",
                list,
                side.other(),
                &enemy_kinds(side),
            ));
        }
        RetreatWhen::Any(list) | RetreatWhen::All(list) => {
            let key = if matches!(r, RetreatWhen::Any(_)) {
                "any"
            } else {
                "all"
            };
            let at = p.at(key);
            if list.is_empty() {
                out.push(Problem::new(
                    at.clone(),
                    "9.11",
                    "an empty list",
                    "at least one condition",
                ));
            }
            for (k, c) in list.iter().enumerate() {
                if *c == RetreatWhen::Never {
                    out.push(Problem::new(
                        at.at(k),
                        "9.11",
                        "`never` cannot be combined with other conditions",
                        "`retreat: never` on its own, or other conditions",
                    ));
                }
                out.extend(legal_retreat_when(state, side, &at.at(k), c));
            }
        }
        _ => {}
    }
    out
}

/// The single retreat conditions `side` may set (combinations with `any` and `all` aside):
/// the keywords, `after_round: 1`, `lost_ge: 1` and `enemy_has` with each enemy entry.
pub fn retreat_choices(state: &State, side: Side) -> Vec<RetreatWhen> {
    RetreatWhen::KEYWORDS
        .iter()
        .cloned()
        .chain([RetreatWhen::AfterRound(1), RetreatWhen::LostGe(1)])
        .chain(
            name_choices(state, side.other(), &enemy_kinds(side))
                .into_iter()
                .map(|n| RetreatWhen::EnemyHas(vec![n])),
        )
        .collect()
}

/// The combat policies, by reference, of a policy patch or a per-hex override: the keys both
/// may hold that can be wrong (`pairing` and `distribute` are keywords, always right).
#[derive(Default)]
pub struct CombatPolicies<'a> {
    pub ps_partner: Option<&'a RuleOr<PsRule>>,
    pub targets: Option<&'a RuleOr<TargetRule>>,
    pub base_targets: Option<&'a RuleOr<TargetRule>>,
    pub retreat: Option<&'a RetreatWhen>,
    pub retreat_to: Option<&'a RetreatTo>,
    pub heli_cargo: Option<&'a Vec<String>>,
}

impl<'a> From<&'a PolicyPatch> for CombatPolicies<'a> {
    fn from(p: &'a PolicyPatch) -> Self {
        CombatPolicies {
            ps_partner: p.ps_partner.as_ref(),
            targets: p.targets.as_ref(),
            base_targets: p.base_targets.as_ref(),
            retreat: p.retreat.as_ref(),
            retreat_to: p.retreat_to.as_ref(),
            heli_cargo: p.heli_cargo.as_ref(),
        }
    }
}

impl<'a> From<&'a CombatOverride> for CombatPolicies<'a> {
    fn from(o: &'a CombatOverride) -> Self {
        CombatPolicies {
            ps_partner: o.ps_partner.as_ref(),
            targets: o.targets.as_ref(),
            base_targets: o.base_targets.as_ref(),
            retreat: o.retreat.as_ref(),
            retreat_to: o.retreat_to.as_ref(),
            heli_cargo: o.heli_cargo.as_ref(),
        }
    }
}

/// Problems with the combat policies `c` sent by `side`, whose keys sit under `base`: D3
/// (9.8.2, beeler only), D7 (9.8.4), D8 (9.12.3), D9 (9.11), D10 (9.11.9) and D11 (9.13.4,
/// mercenary only).
pub fn legal_combat_policies(
    state: &State,
    side: Side,
    base: &FieldPath,
    c: &CombatPolicies,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(v) = c.ps_partner {
        if side != Side::Beeler {
            out.push(Problem::new(
                base.at("ps_partner"),
                "9.8.2",
                "only the beeler side has PS (2.2.2)",
                "leave ps_partner out",
            ));
        } else {
            out.extend(legal_rule_or(
                state,
                side,
                &base.at("ps_partner"),
                "9.8.2",
                v,
            ));
        }
    }
    if let Some(v) = c.targets {
        out.extend(legal_rule_or(state, side, &base.at("targets"), "9.8.4", v));
    }
    if let Some(v) = c.base_targets {
        out.extend(legal_rule_or(
            state,
            side,
            &base.at("base_targets"),
            "9.12.3",
            v,
        ));
    }
    if let Some(v) = c.retreat {
        out.extend(legal_retreat_when(state, side, &base.at("retreat"), v));
    }
    if let Some(v) = c.retreat_to {
        out.extend(combat::legal_retreat_to(
            state,
            side,
            &base.at("retreat_to"),
            v,
        ));
    }
    if let Some(v) = c.heli_cargo {
        if side != Side::Mercenary {
            out.push(Problem::new(
                base.at("heli_cargo"),
                "9.13.4",
                "only the mercenary side has helis",
                "leave heli_cargo out",
            ));
        } else {
            out.extend(legal_names(
                state,
                &base.at("heli_cargo"),
                "9.13.4",
                v,
                Side::Mercenary,
                &CARGO_KINDS,
            ));
        }
    }
    out
}

/// The entries the heli cargo list (D11) of `side` accepts: none for the beeler side.
pub fn heli_cargo_choices(state: &State, side: Side) -> Vec<String> {
    if side == Side::Mercenary {
        name_choices(state, Side::Mercenary, &CARGO_KINDS)
    } else {
        Vec::new()
    }
}

/// Problems with the per-hex combat overrides `list` sent by `side` (9.2: a hex on the map,
/// each hex once; each override's policies by `legal_combat_policies`).
pub fn legal_overrides(state: &State, side: Side, list: &[CombatOverride]) -> Vec<Problem> {
    let mut out = Vec::new();
    let root = FieldPath::root().at("orders").at("combat_overrides");
    let mut overridden = BTreeSet::new();
    for (i, o) in list.iter().enumerate() {
        let p = root.at(i);
        if !state.map.grid.contains(o.hex) {
            out.push(Problem::new(
                p.at("hex"),
                "9.2",
                format!("{} is off the map", o.hex),
                "a hex on the map",
            ));
        } else if !overridden.insert(o.hex) {
            out.push(Problem::new(
                p.at("hex"),
                "9.2",
                format!("{} has two overrides", o.hex),
                "each hex once",
            ));
        }
        out.extend(legal_combat_policies(state, side, &p, &o.into()));
    }
    out
}

/// The hexes a combat override may name: every hex of the map (a combat can happen anywhere).
pub fn override_hex_choices(state: &State) -> Vec<Hex> {
    state.map.grid.all()
}

/// Position of the first entry of a priority list naming `id` (the list's length if none).
fn bucket(state: &State, list: &[String], id: &str) -> usize {
    list.iter()
        .position(|s| matches(state, s, id))
        .unwrap_or(list.len())
}

/// Half VP a side puts on destroying `target` (digest 3.5, configurable there): a PS 5 VP
/// (10.2), a beeler AT 1, a beeler soldier 0.5; a mercenary unit its experience VP when the
/// shooter earns experience (10.1: its defense, a heli 2), otherwise 1.
pub fn value2(state: &State, experience_shot: bool, target: &str) -> i64 {
    match state.side_of(target) {
        Some(Side::Beeler) if state.counters.is_ps(target) => 10,
        Some(Side::Beeler) if state.class_of(target) == Some(Class::At) => 2,
        Some(Side::Beeler) => 1,
        Some(Side::Mercenary) if experience_shot => 2 * i64::from(experience(state, target)),
        Some(Side::Mercenary) => 2,
        None => 0,
    }
}

/// Whoever shoots: a unit, or a base attack (9.12).
#[derive(Debug, Clone, Copy)]
pub struct Shooter {
    pub attack: u32,
    /// A kill pays PS experience (10.1: Blue AT and Strike Dog).
    pub experience: bool,
}

impl Shooter {
    pub fn unit(state: &State, id: &str) -> Shooter {
        Shooter {
            attack: state.values(id).attack,
            experience: matches!(state.role_of(id), Some(Role::BlueAt | Role::StrikeDog)),
        }
    }

    pub fn base(attack: u32) -> Shooter {
        Shooter {
            attack,
            experience: false,
        }
    }

    /// P(destroying `target`) in 36ths (9.9.3).
    pub fn chance(self, state: &State, target: &str) -> i64 {
        i64::from(p36(
            i64::from(self.attack) - i64::from(state.values(target).defense)
        ))
    }

    /// Value x chance, in 36ths of half VP.
    pub fn worth(self, state: &State, target: &str) -> i64 {
        value2(state, self.experience, target) * self.chance(state, target)
    }
}

fn cmp_by(state: &State, rule: TargetRule, s: Shooter, a: &str, b: &str) -> Ordering {
    let (va, vb) = (state.values(a), state.values(b));
    match rule {
        TargetRule::BestValue => s
            .worth(state, b)
            .cmp(&s.worth(state, a))
            .then(va.defense.cmp(&vb.defense)),
        TargetRule::BestOdds => s.chance(state, b).cmp(&s.chance(state, a)),
        TargetRule::Weakest => va.attack.cmp(&vb.attack).then(va.defense.cmp(&vb.defense)),
        TargetRule::Strongest => vb
            .attack
            .cmp(&va.attack)
            .then(s.chance(state, b).cmp(&s.chance(state, a))),
    }
    .then_with(|| a.cmp(b))
}

/// `enemies` ordered best first for shooter `s` (D7, D8). A priority list ranks the units named
/// by its first entry first, and so on; ties and the rest go by `best_value`.
pub fn rank(
    state: &State,
    rule: &RuleOr<TargetRule>,
    s: Shooter,
    enemies: &[String],
) -> Vec<String> {
    let (list, r): (&[String], TargetRule) = match rule {
        RuleOr::Rule(r) => (&[], *r),
        RuleOr::Prefer(l) => (l, TargetRule::BestValue),
    };
    let mut v = enemies.to_vec();
    v.sort_by(|a, b| {
        bucket(state, list, a)
            .cmp(&bucket(state, list, b))
            .then_with(|| cmp_by(state, r, s, a, b))
    });
    v
}

/// D3 (9.8.2, 9.8.6): the partner that PS `ps` takes among the `free` enemy units, by the beeler
/// policy in force in `hex`: the units named first by a priority list, then the best
/// P(hit) x experience VP; ties go to the lower defense, then the lower id.
pub fn ps_partner(state: &State, hex: Hex, ps: &str, free: &[String]) -> Option<String> {
    let rule = state.policies[Side::Beeler].at(hex).ps_partner;
    let list: &[String] = match &rule {
        RuleOr::Prefer(l) => l,
        RuleOr::Rule(PsRule::MaxExpectedVp) => &[],
    };
    let s = Shooter::unit(state, ps);
    let xp = |x: &str| s.chance(state, x) * i64::from(experience(state, x));
    free.iter()
        .min_by(|x, y| {
            bucket(state, list, x)
                .cmp(&bucket(state, list, y))
                .then_with(|| xp(y).cmp(&xp(x)))
                .then_with(|| state.values(x).defense.cmp(&state.values(y).defense))
                .then_with(|| x.cmp(y))
        })
        .cloned()
}

/// Strongest attack first, then id.
pub fn by_strength(state: &State, ids: &mut [String]) {
    ids.sort_by(|a, b| {
        state
            .values(b)
            .attack
            .cmp(&state.values(a).attack)
            .then_with(|| a.cmp(b))
    });
}

/// The phase player's gain from pairing its unit `u` with the enemy `e`: what `u` expects to
/// win minus what `e` expects to win (D4 `net_value`).
pub fn swing(state: &State, u: &str, e: &str) -> i64 {
    Shooter::unit(state, u).worth(state, e) - Shooter::unit(state, e).worth(state, u)
}

/// Above this many units on the smaller side `net_value` pairs greedily instead of exactly.
pub const EXACT_PAIRING_MAX: usize = 10;

/// Pairs and leftovers of a one-to-one pairing.
pub struct OneToOne {
    /// (phase player's unit, enemy unit).
    pub pairs: Vec<(String, String)>,
    pub left_mine: Vec<String>,
    pub left_theirs: Vec<String>,
}

/// D4 (9.8.1): the phase player pairs its free units `mine` one to one with the enemy's free
/// units `theirs` until one side has none left.
pub fn one_to_one(state: &State, rule: Pairing, mine: &[String], theirs: &[String]) -> OneToOne {
    let mut mine = mine.to_vec();
    let mut theirs = theirs.to_vec();
    mine.sort();
    theirs.sort();
    let pairs = match rule {
        Pairing::BestOdds | Pairing::WeakestFirst => {
            if rule == Pairing::BestOdds {
                by_strength(state, &mut mine);
            } else {
                mine.sort_by(|a, b| {
                    state
                        .values(a)
                        .attack
                        .cmp(&state.values(b).attack)
                        .then_with(|| a.cmp(b))
                });
            }
            let mut free = theirs.clone();
            let mut pairs = Vec::new();
            for u in &mine {
                let s = Shooter::unit(state, u);
                let best = free
                    .iter()
                    .enumerate()
                    .min_by(|(_, x), (_, y)| {
                        s.chance(state, y)
                            .cmp(&s.chance(state, x))
                            .then_with(|| x.cmp(y))
                    })
                    .map(|(i, _)| i);
                if let Some(i) = best {
                    pairs.push((u.clone(), free.remove(i)));
                }
            }
            pairs
        }
        Pairing::NetValue => net_value(state, &mine, &theirs),
    };
    let used: BTreeSet<&String> = pairs.iter().flat_map(|(a, b)| [a, b]).collect();
    let left =
        |v: &[String]| -> Vec<String> { v.iter().filter(|u| !used.contains(u)).cloned().collect() };
    OneToOne {
        left_mine: left(&mine),
        left_theirs: left(&theirs),
        pairs,
    }
}

/// The one-to-one pairing with the largest total swing: exact (dynamic programming over the
/// smaller side) up to `EXACT_PAIRING_MAX` units, else greedy by the largest swing. Ties keep the
/// first pairing found in id order.
fn net_value(state: &State, mine: &[String], theirs: &[String]) -> Vec<(String, String)> {
    let mine_small = mine.len() <= theirs.len();
    let (small, large) = if mine_small {
        (mine, theirs)
    } else {
        (theirs, mine)
    };
    // Every pair's swing, once: the search below looks each up many times (up to
    // 2^EXACT_PAIRING_MAX times), and a swing reads four units' values.
    let (ns, nl) = (small.len(), large.len());
    let swings: Vec<i64> = (0..nl)
        .flat_map(|l| {
            (0..ns).map(move |s| {
                if mine_small {
                    swing(state, &small[s], &large[l])
                } else {
                    swing(state, &large[l], &small[s])
                }
            })
        })
        .collect();
    let score = |l: usize, s: usize| -> i64 { swings[l * ns + s] };
    let as_pair = |l: usize, s: usize| -> (String, String) {
        if mine_small {
            (small[s].clone(), large[l].clone())
        } else {
            (large[l].clone(), small[s].clone())
        }
    };
    if ns == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    if ns > EXACT_PAIRING_MAX {
        let mut ls: Vec<usize> = (0..nl).collect();
        let mut ss: Vec<usize> = (0..ns).collect();
        while !ss.is_empty() {
            let mut best: Option<(i64, usize, usize)> = None;
            for (li, &l) in ls.iter().enumerate() {
                for (si, &s) in ss.iter().enumerate() {
                    let v = score(l, s);
                    if best.is_none_or(|(b, _, _)| v > b) {
                        best = Some((v, li, si));
                    }
                }
            }
            let Some((_, li, si)) = best else { break };
            out.push(as_pair(ls.remove(li), ss.remove(si)));
        }
    } else {
        let masks = 1usize << ns;
        let full = masks - 1;
        let idx = |i: usize, m: usize| i * masks + m;
        let mut dp = vec![i64::MIN; (nl + 1) * masks];
        let mut choice = vec![0usize; (nl + 1) * masks];
        dp[0] = 0;
        for i in 0..nl {
            for m in 0..masks {
                let v = dp[idx(i, m)];
                if v == i64::MIN {
                    continue;
                }
                if v > dp[idx(i + 1, m)] {
                    dp[idx(i + 1, m)] = v;
                    choice[idx(i + 1, m)] = 0;
                }
                for s in 0..ns {
                    if m & (1 << s) != 0 {
                        continue;
                    }
                    let to = idx(i + 1, m | (1 << s));
                    let w = v + score(i, s);
                    if w > dp[to] {
                        dp[to] = w;
                        choice[to] = s + 1;
                    }
                }
            }
        }
        let mut m = full;
        for i in (1..=nl).rev() {
            let c = choice[idx(i, m)];
            if c > 0 {
                out.push(as_pair(i - 1, c - 1));
                m ^= 1 << (c - 1);
            }
        }
        out.reverse();
    }
    out.sort();
    out
}

/// The best value x chance of unit `u` against any of `enemies` (0 if none).
fn best_worth(state: &State, u: &str, enemies: &[String]) -> i64 {
    let s = Shooter::unit(state, u);
    enemies.iter().map(|e| s.worth(state, e)).max().unwrap_or(0)
}

/// D5, D6 (9.8.3, 9.8.5; defaults A6, A8): `side`'s surplus `units` join the groups, strongest
/// first, each one a group with the fewest units of `side` (so counts never differ by 2 or
/// more): with `even` the first such group, with `focus` the one where its best value x chance
/// is largest (ties: the first).
pub fn place_surplus(
    state: &State,
    rule: Distribute,
    side: Side,
    groups: &mut [Group],
    units: &[String],
) {
    let mut units = units.to_vec();
    by_strength(state, &mut units);
    for u in units {
        let Some(min) = groups.iter().map(|g| g.side(side).len()).min() else {
            return;
        };
        let cands = (0..groups.len()).filter(|&i| groups[i].side(side).len() == min);
        let pick = match rule {
            Distribute::Even => cands.min(),
            Distribute::Focus => cands.max_by_key(|&i| {
                (
                    best_worth(state, &u, groups[i].side(side.other())),
                    Reverse(i),
                )
            }),
        };
        if let Some(i) = pick {
            groups[i].side_mut(side).push(u);
        }
    }
}

/// 9.8.5 (D6, default A6): while two groups differ by 2 or more in `side`'s count, the owner
/// moves one unit (never a PS, 9.8.6) from a fullest group to an emptiest one: with `even` the
/// last unit of the first fullest group to the first emptiest group; with `focus` the move that
/// gains the most value x chance (ties: the first).
pub fn rebalance(state: &State, rule: Distribute, side: Side, groups: &mut [Group]) {
    for _ in 0..64 {
        let counts: Vec<usize> = groups.iter().map(|g| g.side(side).len()).collect();
        let (Some(&max), Some(&min)) = (counts.iter().max(), counts.iter().min()) else {
            return;
        };
        if max < min + 2 {
            return;
        }
        let mut moves: Vec<(usize, usize, usize)> = Vec::new();
        for hi in (0..groups.len()).filter(|&i| counts[i] == max) {
            for (pos, u) in groups[hi].side(side).iter().enumerate().rev() {
                if state.counters.is_ps(u) {
                    continue;
                }
                for lo in (0..groups.len()).filter(|&i| counts[i] == min) {
                    moves.push((hi, pos, lo));
                }
            }
        }
        let pick = match rule {
            Distribute::Even => moves.first().copied(),
            Distribute::Focus => moves
                .iter()
                .enumerate()
                .max_by_key(|(k, (hi, pos, lo))| {
                    let u = &groups[*hi].side(side)[*pos];
                    let gain = best_worth(state, u, groups[*lo].side(side.other()))
                        - best_worth(state, u, groups[*hi].side(side.other()));
                    (gain, Reverse(*k))
                })
                .map(|(_, m)| *m),
        };
        let Some((hi, pos, lo)) = pick else { return };
        let u = groups[hi].side_mut(side).remove(pos);
        groups[lo].side_mut(side).push(u);
    }
}

/// What the D9 conditions look at after a round (9.11).
pub struct Facts<'a> {
    /// The round just fought, from 1.
    pub round: u32,
    /// Units of this side destroyed in this combat so far, base attack included.
    pub lost: u32,
    /// Face-up units of this side and of the enemy in the hex (acted helis excluded, A5).
    pub own: &'a [String],
    pub enemy: &'a [String],
}

/// Expected kills in 36ths if every one of `shooters` attacked its best target among `targets`.
pub fn expected_kills(state: &State, shooters: &[String], targets: &[String]) -> i64 {
    shooters
        .iter()
        .map(|u| {
            let s = Shooter::unit(state, u);
            targets
                .iter()
                .map(|t| s.chance(state, t))
                .max()
                .unwrap_or(0)
        })
        .sum()
}

/// D9 (9.11): whether the condition asks this side to retreat now.
pub fn wants_retreat(state: &State, rule: &RetreatWhen, f: &Facts) -> bool {
    let (own, enemy) = (f.own.len(), f.enemy.len());
    match rule {
        RetreatWhen::Never => false,
        RetreatWhen::Outnumbered => own < enemy,
        RetreatWhen::TwoToOne => enemy >= 2 * own.max(1),
        RetreatWhen::Outmatched => {
            own < enemy
                && expected_kills(state, f.own, f.enemy) < expected_kills(state, f.enemy, f.own)
        }
        RetreatWhen::AfterRound(n) => f.round >= *n,
        RetreatWhen::LostGe(n) => f.lost >= *n,
        RetreatWhen::EnemyHas(list) => f
            .enemy
            .iter()
            .any(|e| list.iter().any(|s| matches(state, s, e))),
        RetreatWhen::Any(v) => v.iter().any(|c| wants_retreat(state, c, f)),
        RetreatWhen::All(v) => v.iter().all(|c| wants_retreat(state, c, f)),
    }
}

/// Units of `side` in `hex` in the public order: face-up by id, then face-down by token number.
pub fn public_order(state: &State, ids: &[String]) -> Vec<String> {
    let mut v: Vec<(bool, u32, String)> = ids
        .iter()
        .map(|id| {
            let u = state.unit(id);
            let down = u.is_some_and(|u| !u.face_up && !state.is_heli(id));
            let token = u.and_then(|u| u.token).unwrap_or(0);
            (down, if down { token } else { 0 }, id.clone())
        })
        .collect();
    v.sort_by(|a, b| {
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then_with(|| if a.0 { Ordering::Equal } else { a.2.cmp(&b.2) })
    });
    v.into_iter().map(|(_, _, id)| id).collect()
}

/// D11 (9.13.4, 5.11.5): what a heli returning from `hex` carries home, by the mercenary policy
/// in force there: for each entry of the list in turn, the first matching AT or soldier in the
/// hex (not Kiriko, A3) not already `taken`, in the public order. Nothing when the list is
/// empty.
pub fn return_cargo(state: &State, hex: Hex, taken: &BTreeSet<String>) -> Option<String> {
    let list = state.policies[Side::Mercenary].at(hex).heli_cargo;
    if list.is_empty() {
        return None;
    }
    let cands: Vec<String> = state
        .side_units_in(hex, Side::Mercenary)
        .into_iter()
        .filter(|c| movement::carriable(state, c) && !taken.contains(c))
        .collect();
    let cands = public_order(state, &cands);
    list.iter()
        .find_map(|sel| cands.iter().find(|c| matches(state, sel, c)))
        .cloned()
}
