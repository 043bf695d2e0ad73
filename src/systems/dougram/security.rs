//! The security phase (19): with an enabler (19.3), Fed soldiers search the hexes they hold for
//! latent chits. Soldiers of a hex form groups (19.8); each group rolls one public die and
//! succeeds on a roll no higher than its size (19.6); each success sends one latent chit of
//! that hex, picked at random on the sealed stream, back to the cup (19.7, A31).
//!
//! Orders (`orders.security`): `cards` to play now; `groups` an optional explicit split per hex
//! (hex number or place id -> lists of soldier ids). Hexes without explicit groups use the
//! default split: groups of 6 first, the rest as one group, never more groups than chits.

use super::cards::{After, Card, Effect, Flag, PhaseName};
use super::ctx::{Ctx, reason};
use super::data::{HexId, Side};
use super::data::{HexRef, hex_problem};
use super::latency::chits_in;
use super::play;
use super::state::{ChitAt, State, UnitAt};
use super::steps::Choices;
use crate::kit::reach;
use crate::systems::Problem;
use crate::yaml::FieldPath;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The one unit type that may make security checks (19.4-19.5: not the Garcia Squad, no CBA).
pub const CHECK_TYPE: &str = "soldier";
/// A group of this size always succeeds (19.6 with one d6).
pub const SURE_GROUP: usize = 6;

/// The phasing side's security orders for one step (`orders.security` in an order file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecurityOrders {
    /// Enabling cards played now (19.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<u32>,
    /// Explicit split per hex (19.8): each soldier in at most one group (A30).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub groups: BTreeMap<HexRef, Vec<Vec<String>>>,
}

/// Whether playing `card` makes security checks possible this phase (19.3): a
/// `security_checks` effect, or a card that stays open with the `security_enabled` flag.
pub fn enables(card: &Card) -> bool {
    card.effects.contains(&Effect::SecurityChecks)
        || (card.after == After::Open && card.while_open.contains(&Flag::SecurityEnabled))
}

/// The type counter `id` shows when it is a Fed unit, if it has a Fed face.
fn fed_face(state: &State, id: &str) -> Option<String> {
    let def = state.data.counters.counter_def(id)?;
    if def.front.side == Side::Fed {
        return Some(def.front.kind);
    }
    def.back.filter(|b| b.side == Side::Fed).map(|b| b.kind)
}

/// Fed units in hex `h` that may make security checks (19.4-19.5), in id order.
pub fn eligible(state: &State, h: HexId) -> Vec<String> {
    state
        .units_in(h, Side::Fed)
        .into_iter()
        .filter(|id| state.unit_type(id) == Some(CHECK_TYPE))
        .map(str::to_string)
        .collect()
}

/// The default split (digest 4.6): groups of 6 (each sure to succeed) in id order, the rest as
/// one group, and no more groups than `chits`.
pub fn default_split(soldiers: &[String], chits: usize) -> Vec<Vec<String>> {
    soldiers
        .chunks(SURE_GROUP)
        .take(chits)
        .map(|c| c.to_vec())
        .collect()
}

/// Hexes with latent chits and Fed units able to check, in id order.
pub fn eligible_hexes(state: &State) -> Vec<HexId> {
    super::latency::chit_hexes(state)
        .into_iter()
        .filter(|h| !eligible(state, *h).is_empty())
        .collect()
}

/// Whether Fed may play card `no` as an enabler now (19.3): [`play::may_play`] in the
/// security phase, and the card enables checks.
pub fn legal_enabler(state: &State, side: Side, no: u32, at: &FieldPath) -> Result<(), Problem> {
    match play::may_play(state, side, no, PhaseName::Security, None) {
        Err(r) => Err(r.at(at.clone())),
        Ok(card) if !enables(card) => Err(Problem::new(
            at.clone(),
            "19.3",
            format!("card {no} does not enable security checks"),
            "a card with the security_checks effect (36, 37) or card 50",
        )),
        Ok(_) => Ok(()),
    }
}

/// The cards of Fed's hand [`legal_enabler`] accepts now, in hand order.
pub fn enabler_choices(state: &State) -> Vec<u32> {
    state.cards[Side::Fed]
        .hand
        .cards()
        .iter()
        .copied()
        .filter(|no| legal_enabler(state, Side::Fed, *no, &FieldPath::root()).is_ok())
        .collect()
}

/// When a group member is judged.
pub enum Moment<'a> {
    /// By `check`, on the state the orders were written for: units still move and fight
    /// before the phase, so a member is refused only if it can never be a Fed soldier;
    /// `labels` name units that earlier orders of the file create, judged in the phase.
    Check(&'a BTreeSet<String>),
    /// In the phase, on the state as it is: the labels of this step's new units.
    Live(&'a BTreeMap<String, String>),
}

/// Whether the unit named `name` may check in hex `h` as a member of a group (19.4, 19.5,
/// 19.8, A30): each soldier in at most one group (`used`: the members so far, by name at check
/// time and by counter in the phase, where a label and a counter id may name one unit). In the
/// phase it returns the counter.
pub fn legal_member(
    state: &State,
    name: &str,
    h: HexId,
    moment: &Moment,
    used: &mut BTreeMap<String, FieldPath>,
    at: &FieldPath,
) -> Result<Option<String>, Problem> {
    match moment {
        Moment::Check(labels) => {
            if let Some(first) = used.get(name) {
                return Err(Problem::new(
                    at.clone(),
                    "19.8",
                    format!("{name} is already in the group at {first}"),
                    "each soldier in at most one group (19.8; docs/dougram.md, Decisions)",
                ));
            }
            used.insert(name.to_string(), at.clone());
            if labels.contains(name) {
                return Ok(None);
            }
            match fed_face(state, name) {
                None if !state.units.contains_key(name) => Err(Problem::new(
                    at.clone(),
                    "19.4",
                    format!("there is no unit {name}"),
                    "a Fed soldier's counter id, or a label created earlier in these orders",
                )),
                None => Err(Problem::new(
                    at.clone(),
                    "19.4",
                    format!("{name} is never a Fed unit"),
                    "a Fed soldier's counter id",
                )),
                Some(t) if t != CHECK_TYPE => Err(Problem::new(
                    at.clone(),
                    "19.5",
                    format!("{name} is a {t}; only soldiers make security checks"),
                    "Fed soldiers (no Garcia Squad, no CBA)",
                )),
                Some(_) => Ok(None),
            }
        }
        Moment::Live(labels) => {
            let problem = |rule: &str, msg: String| {
                Problem::new(at.clone(), rule, msg, format!("a Fed soldier in hex {h}"))
            };
            let id = labels
                .get(name)
                .cloned()
                .or_else(|| state.units.contains_key(name).then(|| name.to_string()));
            let Some(id) = id else {
                return Err(problem("19.4", format!("there is no unit {name}")));
            };
            let here = state
                .units
                .get(&id)
                .is_some_and(|u| u.side == Side::Fed && u.at == UnitAt::Hex(h));
            if !here {
                Err(problem(
                    "19.4",
                    format!("{name} is not a Fed unit in hex {h}"),
                ))
            } else if state.unit_type(&id) != Some(CHECK_TYPE) {
                Err(problem(
                    "19.5",
                    format!("{name} is not a soldier able to check"),
                ))
            } else if used.insert(id.clone(), at.clone()).is_some() {
                Err(problem("19.8", format!("{name} is already in a group")))
            } else {
                Ok(Some(id))
            }
        }
    }
}

/// Per hex where checks are possible now (19.4), the Fed soldiers [`legal_member`] accepts
/// there in the phase as it would be now, in id order.
pub fn member_choices(state: &State) -> BTreeMap<HexId, Vec<String>> {
    let none = BTreeMap::new();
    eligible_hexes(state)
        .into_iter()
        .map(|h| {
            let ok: Vec<String> = eligible(state, h)
                .into_iter()
                .filter(|id| {
                    let mut used = BTreeMap::new();
                    let at = FieldPath::root();
                    legal_member(state, id, h, &Moment::Live(&none), &mut used, &at).is_ok()
                })
                .collect();
            (h, ok)
        })
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

/// Problems with `orders`, located under `at`, judged on the state at the start of the step.
/// Names that are not counter ids are problems; see [`check_with_labels`].
pub fn check(state: &State, side: Side, orders: &SecurityOrders, at: &FieldPath) -> Vec<Problem> {
    check_with_labels(state, side, orders, at, &BTreeSet::new())
}

/// [`check`], accepting also the unit labels that earlier orders of the same file create
/// (replenishment); those are judged at resolve time. Each item is judged by its legal_*
/// function.
pub fn check_with_labels(
    state: &State,
    side: Side,
    orders: &SecurityOrders,
    at: &FieldPath,
    labels: &BTreeSet<String>,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Fed {
        if *orders != SecurityOrders::default() {
            out.push(Problem::new(
                at.clone(),
                "19.1",
                "only Fed has a security phase",
                "no `security` orders in a Lib file",
            ));
        }
        return out;
    }
    let mut seen_cards = BTreeSet::new();
    for (i, no) in orders.cards.iter().enumerate() {
        let p = at.at("cards").at(i);
        if !seen_cards.insert(*no) {
            out.push(Problem::new(
                p,
                "2.10",
                format!("card {no} is listed twice"),
                "each card once",
            ));
            continue;
        }
        if let Err(e) = legal_enabler(state, side, *no, &p) {
            out.push(e);
        }
    }
    let mut hexes: BTreeMap<HexId, String> = BTreeMap::new();
    let mut used: BTreeMap<String, FieldPath> = BTreeMap::new();
    let moment = Moment::Check(labels);
    for (r, groups) in &orders.groups {
        let hp = at.at("groups").at(r.to_string().as_str());
        let hex = match hex_problem(&state.data.map, r, hp.clone(), "19.4") {
            Err(e) => {
                out.push(e);
                None
            }
            Ok(h) => {
                if let Some(first) = hexes.get(&h) {
                    out.push(Problem::new(
                        hp.clone(),
                        "19.8",
                        format!("hex {h} is already split under {first}"),
                        "each hex once",
                    ));
                } else {
                    hexes.insert(h, r.to_string());
                }
                Some(h)
            }
        };
        for (j, g) in groups.iter().enumerate() {
            let gp = hp.at(j);
            if g.is_empty() {
                out.push(Problem::new(
                    gp.clone(),
                    "19.6",
                    "a group needs at least one soldier",
                    "a list of Fed soldier ids",
                ));
            }
            for (k, name) in g.iter().enumerate() {
                // At check time the hex plays no part: units move before the phase.
                let h = hex.unwrap_or_default();
                if let Err(e) = legal_member(state, name, h, &moment, &mut used, &gp.at(k)) {
                    out.push(e);
                }
            }
        }
    }
    out
}

/// Runs the phase for the phasing `side` (Fed).
pub fn resolve(
    state: &mut State,
    side: Side,
    orders: &SecurityOrders,
    ctx: &mut Ctx,
) -> Result<(), String> {
    if side != Side::Fed {
        return Err("the security phase is Fed's (19.1)".into());
    }
    reach::fire("19.1");
    // 19.3: the enablers.
    let mut enablers: Vec<String> = Vec::new();
    let mut played = BTreeSet::new();
    for no in &orders.cards {
        // `check` refuses a card listed twice (2.10); the phase plays it once.
        if !played.insert(*no) {
            continue;
        }
        // Refusals are Fed's own news: they name a card still in its hand (2.10).
        match legal_enabler(state, side, *no, &FieldPath::root()) {
            Err(p) => ctx.log.private(
                side,
                format!("your security card {no} is not played: {}", reason(&p)),
            ),
            Ok(()) => {
                play::play(state, side, *no, ctx)?;
                enablers.push(format!("card {no}"));
            }
        }
    }
    if enablers.is_empty() {
        let open: Vec<String> = state
            .open
            .iter()
            .filter(|n| {
                state
                    .card(**n)
                    .is_some_and(|c| c.while_open.contains(&Flag::SecurityEnabled))
            })
            .map(|n| format!("open card {n}"))
            .collect();
        enablers.extend(open);
    }
    if enablers.is_empty() {
        ctx.log
            .public("fed makes no security check: no card enables it (19.3)");
        return Ok(());
    }
    reach::fire("19.3");
    ctx.log.public(format!(
        "security checks are enabled in every eligible hex by {} (19.3: one enabling card suffices; docs/dougram.md, Decisions)",
        enablers.join(", ")
    ));
    if enablers.len() > 1 {
        ctx.log
            .private(side, "one enabler suffices; your others add nothing (19.3)");
    }
    // From here on a line about an order that did not happen goes to Fed only: the opponent
    // sees the checks rolled, never the groups or hexes that were dropped.
    let skip = |ctx: &mut Ctx, why: String| ctx.log.private(side, format!("your {why}"));
    // 19.8: explicit groups, judged on the live state.
    let mut explicit: BTreeMap<HexId, Vec<Vec<String>>> = BTreeMap::new();
    let mut used: BTreeMap<String, FieldPath> = BTreeMap::new();
    for (r, groups) in &orders.groups {
        let Some(h) = r.resolve(&state.data.map) else {
            skip(
                ctx,
                format!("security groups for {r} are skipped: it is not a land hex (19.4)"),
            );
            continue;
        };
        if explicit.contains_key(&h) {
            skip(
                ctx,
                format!("security groups for {r} are skipped: hex {h} is split twice (19.8)"),
            );
            continue;
        }
        let mut out = Vec::new();
        for g in groups {
            let mut members = Vec::new();
            for name in g {
                let at = FieldPath::root();
                match legal_member(state, name, h, &Moment::Live(&ctx.labels), &mut used, &at) {
                    Ok(id) => members.extend(id),
                    Err(p) => skip(
                        ctx,
                        format!(
                            "security group in hex {h} leaves out {name}: {}",
                            reason(&p)
                        ),
                    ),
                }
            }
            if members.is_empty() {
                skip(
                    ctx,
                    format!(
                        "security group in hex {h} has no soldier left and does not roll (19.6)"
                    ),
                );
            } else {
                out.push(members);
            }
        }
        explicit.insert(h, out);
    }
    // 19.4: every hex with latent chits and eligible soldiers, plus the hexes named.
    let mut hexes: BTreeSet<HexId> = eligible_hexes(state).into_iter().collect();
    hexes.extend(explicit.keys().copied());
    let mut checks = 0;
    for h in hexes {
        let chits = chits_in(state, h);
        let groups = match explicit.remove(&h) {
            Some(g) => g,
            None => default_split(&eligible(state, h), chits),
        };
        if groups.is_empty() {
            continue;
        }
        if chits == 0 {
            skip(
                ctx,
                format!("security groups in hex {h} do not roll: it holds no latent chit (19.7)"),
            );
            continue;
        }
        for (i, g) in groups.iter().enumerate() {
            if chits_in(state, h) == 0 {
                skip(
                    ctx,
                    format!(
                        "other security group(s) in hex {h} do not roll: no latent chit is left (19.7)"
                    ),
                );
                break;
            }
            checks += 1;
            // 19.2 (Fed's own checks), 19.4 and 19.5 (eligible soldiers), 19.8 (one roll a
            // group) apply to this group.
            for r in ["19.2", "19.4", "19.5", "19.6", "19.8"] {
                reach::fire(r);
            }
            let label = format!("t{}/fed/security/{h}/g{}", state.turn, i + 1);
            let roll = ctx.dice.d6(&label) as usize;
            let ok = roll <= g.len();
            let verdict = if ok { "success" } else { "failure" };
            let result = if ok {
                format!("{roll} <= {}: success (19.6)", g.len())
            } else {
                format!("{roll} > {}: failure (19.6)", g.len())
            };
            ctx.dice.set_result(&label, result);
            ctx.log.public(format!(
                "security check in hex {h} by {} soldier(s) ({}): rolled {roll}, {verdict} (19.6)",
                g.len(),
                g.join(", ")
            ));
            if ok {
                reach::fire("19.7");
                remove_one(state, h, &format!("{label}/pick"), ctx);
            }
        }
    }
    if checks == 0 {
        // Neutral: whether no hex qualified or Fed's groups were dropped stays Fed's.
        ctx.log
            .public("fed makes no security check this phase (19.4-19.8)");
    }
    Ok(())
}

/// 19.7, A31: one latent chit of hex `h`, picked on the sealed stream among the chits in
/// token order, goes back to the cup. Fed learns only its token; Lib is told its value.
fn remove_one(state: &mut State, h: HexId, label: &str, ctx: &mut Ctx) {
    let mut there: Vec<(u32, String)> = state
        .chits
        .iter()
        .filter(|(_, c)| c.at == ChitAt::Hex(h))
        .map(|(id, c)| (c.token.unwrap_or(0), id.clone()))
        .collect();
    there.sort();
    if there.is_empty() {
        return;
    }
    let k = ctx.dice.sealed_index(
        label,
        there.len(),
        format!("which latent chit leaves hex {h} (19.7)"),
    );
    let Some((token, id)) = there.get(k).cloned() else {
        return;
    };
    let value = state.chits.get(&id).map(|c| c.value).unwrap_or(0);
    state.return_chit(&id);
    ctx.log.public(format!(
        "one chit (token {token}) leaves hex {h} and goes back to the cup (19.7, 2.7)"
    ));
    ctx.log.private(
        Side::Lib,
        format!("the chit token {token} removed from hex {h} was worth {value} (19.7)"),
    );
}

/// Commented YAML lines for the order skeleton (the legal choices now).
pub fn template(state: &State, side: Side, c: &Choices) -> String {
    if side != Side::Fed {
        return String::new();
    }
    let mut out = String::from(
        "# security (19): checks need an enabler: a card played now or an open card (19.3).\n",
    );
    let open: Vec<String> = state
        .open
        .iter()
        .filter(|n| {
            state
                .card(**n)
                .is_some_and(|c| c.while_open.contains(&Flag::SecurityEnabled))
        })
        .map(|n| n.to_string())
        .collect();
    let hand: Vec<String> = c.security_cards.iter().map(|n| n.to_string()).collect();
    out.push_str(&format!(
        "#   open enablers: {}\n#   enabling cards in hand: {}\n",
        if open.is_empty() {
            "none".into()
        } else {
            open.join(", ")
        },
        if hand.is_empty() {
            "none".into()
        } else {
            hand.join(", ")
        },
    ));
    out.push_str(
        "# Hexes with latent chits and Fed soldiers able to check (19.4-19.5; units may still move):\n",
    );
    let hexes = &c.security_members;
    if hexes.is_empty() {
        out.push_str("#   none now\n");
    }
    for (h, e) in hexes {
        out.push_str(&format!(
            "#   hex {h}: {} soldier(s) ({}), {} latent chit(s)\n",
            e.len(),
            e.join(", "),
            chits_in(state, *h)
        ));
    }
    out.push_str(
        "# Default split: groups of 6, then the rest as one group, no more groups than chits (19.8).\n\
         # security: {cards: [], groups: {hex: [[id, id], [id]]}}\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::DiceTranscript;
    use crate::systems::dougram::ctx::Log;
    use crate::systems::dougram::fixtures::{dealt, dice, give, lift};
    use crate::systems::dougram::state::{Step, Unit, permute_hidden};

    fn put(s: &mut State, prefix: &str, n: usize, h: HexId, side: Side) -> Vec<String> {
        // From the stock first, then from other hexes.
        let mut ids: Vec<(bool, String)> = s
            .units
            .iter()
            .filter(|(id, u)| u.at != UnitAt::Hex(h) && id.starts_with(prefix))
            .map(|(id, u)| (u.at != UnitAt::Stock, id.clone()))
            .collect();
        ids.sort();
        let ids: Vec<String> = ids.into_iter().map(|(_, id)| id).take(n).collect();
        assert_eq!(ids.len(), n, "not enough {prefix} counters");
        for id in &ids {
            s.units.insert(
                id.clone(),
                Unit {
                    at: UnitAt::Hex(h),
                    side,
                    damaged: false,
                },
            );
        }
        ids
    }

    /// Fed's turn, no latent chit but `chits` in hex 57 (emptied of units), card 36 in Fed's hand.
    fn arranged(chits: usize) -> State {
        let mut s = dealt("setup1", 21);
        s.step = Step::Fed;
        for u in s.units.values_mut() {
            if u.at == UnitAt::Hex(57) {
                u.at = UnitAt::Stock;
            }
        }
        let there: Vec<String> = s
            .chits
            .iter()
            .filter(|(_, c)| matches!(c.at, ChitAt::Hex(_)))
            .map(|(id, _)| id.clone())
            .collect();
        for id in there {
            s.return_chit(&id);
        }
        s.data.map.chit_limits.insert(57, 9);
        let mut d = dice(22);
        s.draw_chits(&mut d, "pre", chits, ChitAt::Hex(57));
        give(&mut s, Side::Fed, 36);
        s
    }

    fn run(s: &mut State, o: &SecurityOrders, seed: u64) -> (Log, DiceTranscript) {
        let mut d = dice(seed);
        let mut ctx = Ctx::new(&mut d);
        resolve(s, Side::Fed, o, &mut ctx).unwrap();
        let log = ctx.log;
        (log, d.finish().unwrap())
    }

    fn play36() -> SecurityOrders {
        SecurityOrders {
            cards: vec![36],
            ..SecurityOrders::default()
        }
    }

    #[test]
    fn no_enabler_no_check_19_3() {
        let mut s = arranged(2);
        put(&mut s, "SO", 6, 57, Side::Fed);
        let (log, tr) = run(&mut s, &SecurityOrders::default(), 1);
        assert_eq!(chits_in(&s, 57), 2);
        assert!(tr.public.is_empty());
        assert!(log.public.iter().any(|l| l.contains("19.3")));
    }

    #[test]
    fn a_played_card_enables_checks_and_six_soldiers_always_succeed_19_3_19_6() {
        let mut s = arranged(2);
        put(&mut s, "SO", 12, 57, Side::Fed);
        let (log, tr) = run(&mut s, &play36(), 2);
        // Default split: [6, 6], both certain.
        assert_eq!(chits_in(&s, 57), 0);
        assert_eq!(tr.public.len(), 2);
        assert_eq!(tr.public[0].label, "t1/fed/security/57/g1");
        assert!(!s.cards[Side::Fed].hand.contains(&36));
        assert!(
            s.cards[Side::Fed]
                .deck
                .discard
                .iter()
                .any(|d| d.card == 36 && d.face_up)
        );
        assert_eq!(
            log.public
                .iter()
                .filter(|l| l.contains("leaves hex 57"))
                .count(),
            2
        );
    }

    #[test]
    fn an_open_security_enabled_card_enables_checks_19_3_a29() {
        let mut s = arranged(1);
        lift(&mut s, 50);
        s.open.insert(50);
        put(&mut s, "SO", 6, 57, Side::Fed);
        let (log, _) = run(&mut s, &SecurityOrders::default(), 3);
        assert_eq!(chits_in(&s, 57), 0);
        assert!(log.public.iter().any(|l| l.contains("open card 50")));
    }

    #[test]
    fn success_is_a_roll_no_higher_than_the_group_size_19_6() {
        // Search seeds for a roll of 1 (success) and of 6 (failure) with a one-soldier group.
        let mut hit = false;
        let mut miss = false;
        for seed in 0..60 {
            let mut s = arranged(1);
            put(&mut s, "SO", 1, 57, Side::Fed);
            let (_, tr) = run(&mut s, &play36(), seed);
            let roll = tr.public[0].values[0];
            assert_eq!(chits_in(&s, 57) == 0, roll <= 1, "seed {seed} roll {roll}");
            hit |= roll <= 1;
            miss |= roll > 1;
        }
        assert!(hit && miss);
    }

    #[test]
    fn garcia_squad_and_cbas_cannot_check_but_6th_army_soldiers_can_19_5() {
        let mut s = arranged(1);
        put(&mut s, "GA", 2, 57, Side::Fed);
        put(&mut s, "CG", 4, 57, Side::Fed);
        let (_, tr) = run(&mut s, &play36(), 4);
        assert!(tr.public.is_empty());
        assert_eq!(chits_in(&s, 57), 1);
        let mut s = arranged(1);
        put(&mut s, "S6S", 6, 57, Side::Fed);
        run(&mut s, &play36(), 4);
        assert_eq!(chits_in(&s, 57), 0);
    }

    #[test]
    fn default_split_is_sixes_then_the_rest_never_more_groups_than_chits_19_8() {
        let ids: Vec<String> = (1..=14).map(|i| format!("SO{i:02}")).collect();
        let g = default_split(&ids, 5);
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), vec![6, 6, 2]);
        assert_eq!(default_split(&ids, 2).len(), 2);
        assert_eq!(
            default_split(&ids[..5], 3)
                .iter()
                .map(Vec::len)
                .collect::<Vec<_>>(),
            vec![5]
        );
        let g = default_split(&ids[..7], 1);
        assert_eq!(g.iter().map(Vec::len).collect::<Vec<_>>(), vec![6]);
    }

    #[test]
    fn explicit_groups_roll_once_each_19_8() {
        let mut s = arranged(3);
        let so = put(&mut s, "SO", 5, 57, Side::Fed);
        let o = SecurityOrders {
            cards: vec![36],
            groups: BTreeMap::from([(HexRef::Hex(57), vec![so[..3].to_vec(), so[3..].to_vec()])]),
        };
        let (log, tr) = run(&mut s, &o, 5);
        assert_eq!(tr.public.len(), 2);
        assert!(log.public.iter().any(|l| l.contains("by 3 soldier(s)")));
        assert!(log.public.iter().any(|l| l.contains("by 2 soldier(s)")));
        let wins = tr
            .public
            .iter()
            .zip([3, 2])
            .filter(|(r, n)| r.values[0] <= *n)
            .count();
        assert_eq!(chits_in(&s, 57), 3 - wins);
    }

    #[test]
    fn a_soldier_named_twice_or_gone_is_left_out_at_resolve_a30() {
        let mut s = arranged(2);
        let so = put(&mut s, "SO", 6, 57, Side::Fed);
        s.units.get_mut(&so[5]).unwrap().at = UnitAt::Stock;
        let o = SecurityOrders {
            cards: vec![36],
            groups: BTreeMap::from([(
                HexRef::Hex(57),
                vec![so[..5].to_vec(), vec![so[0].clone(), so[5].clone()]],
            )]),
        };
        let (log, tr) = run(&mut s, &o, 6);
        assert_eq!(tr.public.len(), 1);
        assert!(log.private[Side::Fed].iter().any(|l| l.contains("19.8")));
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains(&format!("{} is not a Fed unit in hex 57", so[5])))
        );
    }

    #[test]
    fn the_removed_chit_is_picked_sealed_and_its_value_told_to_lib_only_19_7_a31() {
        let mut s = arranged(3);
        put(&mut s, "SO", 6, 57, Side::Fed);
        let before: BTreeMap<String, u32> = s
            .chits
            .iter()
            .filter(|(_, c)| c.at == ChitAt::Hex(57))
            .map(|(id, c)| (id.clone(), c.value))
            .collect();
        let (log, tr) = run(&mut s, &play36(), 7);
        assert_eq!(chits_in(&s, 57), 2);
        assert_eq!(tr.sealed.len(), 1);
        assert_eq!(tr.sealed[0].label, "t1/fed/security/57/g1/pick");
        assert_eq!(tr.sealed[0].range, vec![3]);
        let gone: Vec<&String> = before
            .keys()
            .filter(|id| s.chits[*id].at == ChitAt::Cup)
            .collect();
        assert_eq!(gone.len(), 1);
        assert_eq!(s.chits[gone[0]].token, None);
        let v = before[gone[0]];
        assert!(
            log.private[Side::Lib]
                .iter()
                .any(|l| l.ends_with(&format!("was worth {v} (19.7)")))
        );
        assert!(log.private[Side::Fed].is_empty());
        assert!(log.public.iter().all(|l| !l.contains("worth")));
    }

    #[test]
    fn the_public_story_does_not_depend_on_hidden_values_19_7() {
        for seed in 0..8 {
            let mut s = arranged(3);
            put(&mut s, "SO", 9, 57, Side::Fed);
            let mut k = seed as usize;
            let mut pick = |n: usize| {
                k = (k * 7 + 3) % 1_000_003;
                k % n
            };
            let mut t = permute_hidden(&s, Side::Fed, &mut pick);
            let (a, ta) = run(&mut s, &play36(), seed);
            let (b, tb) = run(&mut t, &play36(), seed);
            assert_eq!(a.public, b.public);
            assert_eq!(ta.public, tb.public);
        }
    }

    #[test]
    fn groups_stop_rolling_when_the_hex_is_empty_19_7() {
        let mut s = arranged(1);
        let so = put(&mut s, "SO", 12, 57, Side::Fed);
        let o = SecurityOrders {
            cards: vec![36],
            groups: BTreeMap::from([(HexRef::Hex(57), vec![so[..6].to_vec(), so[6..].to_vec()])]),
        };
        let (log, tr) = run(&mut s, &o, 8);
        assert_eq!(tr.public.len(), 1);
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("do not roll"))
        );
    }

    #[test]
    fn check_rejects_wrong_cards_and_units_with_paths_19_3_19_5_a30() {
        let mut s = arranged(1);
        let hand_other = *s.cards[Side::Fed]
            .hand
            .cards()
            .iter()
            .find(|c| **c != 36 && !enables(s.card(**c).unwrap()))
            .unwrap();
        for c in s.data.cards.cards.iter_mut() {
            if c.no == hand_other {
                c.when.phase = PhaseName::Any;
                c.when.turn = crate::systems::dougram::cards::TurnOf::Any;
            }
        }
        let lib_only = s
            .units
            .keys()
            .find(|id| id.starts_with("DG"))
            .unwrap()
            .clone();
        s.units.get_mut("SO01").unwrap().side = Side::Fed;
        let at = FieldPath::root().at("orders").at("security");
        let o = SecurityOrders {
            cards: vec![36, hand_other, 9999, 36],
            groups: BTreeMap::from([
                (
                    HexRef::Hex(57),
                    vec![
                        vec!["SO01".into(), "GA01".into(), "CG01".into()],
                        vec!["SO01".into(), "nobody".into(), lib_only.clone()],
                        vec![],
                    ],
                ),
                (HexRef::Hex(11), vec![]),
            ]),
        };
        let p = check(&s, Side::Fed, &o, &at);
        let got: Vec<(String, Option<String>)> = p
            .iter()
            .map(|x| (x.path.to_string(), x.rule.clone()))
            .collect();
        let want = |path: &str, rule: &str| (path.to_string(), Some(rule.to_string()));
        for w in [
            want("orders.security.cards[1]", "19.3"),
            want("orders.security.cards[2]", "2.10"),
            want("orders.security.cards[3]", "2.10"),
            want("orders.security.groups.57[0][1]", "19.5"),
            want("orders.security.groups.57[0][2]", "19.5"),
            want("orders.security.groups.57[1][0]", "19.8"),
            want("orders.security.groups.57[1][1]", "19.4"),
            want("orders.security.groups.57[1][2]", "19.4"),
            want("orders.security.groups.57[2]", "19.6"),
            want("orders.security.groups.11", "19.4"),
        ] {
            assert!(got.contains(&w), "{w:?} not in {got:?}");
        }
        assert_eq!(p.len(), 10, "{got:?}");
        // A label from earlier orders is judged at resolve time.
        let o = SecurityOrders {
            groups: BTreeMap::from([(HexRef::Hex(57), vec![vec!["newbie".into()]])]),
            ..SecurityOrders::default()
        };
        assert_eq!(check(&s, Side::Fed, &o, &at).len(), 1);
        let labels = BTreeSet::from(["newbie".to_string()]);
        assert!(check_with_labels(&s, Side::Fed, &o, &at, &labels).is_empty());
        assert_eq!(
            check(&s, Side::Lib, &o, &at)[0].rule.as_deref(),
            Some("19.1")
        );
    }

    #[test]
    fn a_card_that_became_unplayable_is_skipped_at_resolve_19_3() {
        let mut s = arranged(1);
        put(&mut s, "SO", 6, 57, Side::Fed);
        s.cards[Side::Fed].hand.take(&36);
        let (log, tr) = run(&mut s, &play36(), 9);
        assert!(tr.public.is_empty());
        assert!(
            log.private[Side::Fed]
                .iter()
                .any(|l| l.contains("card 36 is not played"))
        );
        assert_eq!(chits_in(&s, 57), 1);
    }

    #[test]
    fn a_dropped_security_order_is_told_to_fed_only() {
        let mut s = arranged(1);
        let here = put(&mut s, "SO", 6, 57, Side::Fed);
        let spa = put(&mut s, "SO", 2, 58, Side::Fed); // no latent chit in Spa
        let dud = s.cards[Side::Fed]
            .hand
            .cards()
            .iter()
            .copied()
            .find(|n| s.card(*n).is_some_and(|c| !enables(c)))
            .unwrap();
        let libs = s.cards[Side::Lib].hand.cards()[0];
        let mut first = here[..3].to_vec();
        first.push("nobody".into());
        let o = SecurityOrders {
            cards: vec![36, dud, libs],
            groups: BTreeMap::from([
                (HexRef::Hex(57), vec![first, here[3..].to_vec()]),
                (HexRef::Hex(11), vec![vec![here[0].clone()]]),
                (HexRef::Hex(58), vec![spa.clone()]),
                (HexRef::Place("spa".into()), vec![spa.clone()]),
            ]),
        };
        let (log, _) = run(&mut s, &o, 6);
        for want in [
            format!("your security card {dud} is not played"),
            format!("your security card {libs} is not played"),
            "your security groups for 11 are skipped".to_string(),
            "is split twice".to_string(),
            "your security group in hex 57 leaves out nobody".to_string(),
            "your security groups in hex 58 do not roll".to_string(),
        ] {
            assert!(
                log.private[Side::Fed].iter().any(|l| l.contains(&want)),
                "{want}: {log:?}"
            );
        }
        let mut secret = vec![
            "not played".to_string(),
            format!("card {dud}"),
            format!("card {libs}"),
            "nobody".to_string(),
            "skipped".to_string(),
            "left out".to_string(),
            "do not roll".to_string(),
            "hex 58".to_string(),
            "Spa".to_string(),
        ];
        secret.extend(spa);
        for needle in &secret {
            assert!(
                log.public.iter().all(|l| !l.contains(needle.as_str())),
                "{needle}: {log:?}"
            );
        }
        assert!(
            log.private[Side::Lib].iter().all(|l| l.contains("worth")),
            "{log:?}"
        );
    }

    #[test]
    fn orders_parse_and_template_lists_hexes_and_cards_19() {
        let o: SecurityOrders = crate::yaml::parse(
            "{cards: [36], groups: {57: [[SO01, SO02], [SO03]], spa: [[SO04]]}}",
            "t",
        )
        .unwrap();
        assert_eq!(o.cards, vec![36]);
        assert_eq!(o.groups[&HexRef::Hex(57)].len(), 2);
        assert!(o.groups.contains_key(&HexRef::Place("spa".into())));
        let mut s = arranged(2);
        put(&mut s, "SO", 3, 57, Side::Fed);
        let t = template(
            &s,
            Side::Fed,
            &crate::systems::dougram::steps::choices(&s, Side::Fed),
        );
        assert!(t.lines().all(|l| l.starts_with('#')), "{t}");
        assert!(
            t.lines()
                .any(|l| l.contains("enabling cards in hand:") && l.contains("36")),
            "{t}"
        );
        assert!(t.contains("hex 57: 3 soldier(s)"), "{t}");
        assert!(t.contains("2 latent chit(s)"), "{t}");
        assert!(
            template(
                &s,
                Side::Lib,
                &crate::systems::dougram::steps::choices(&s, Side::Lib)
            )
            .is_empty()
        );
    }
}
