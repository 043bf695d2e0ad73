//! Plan §12/F3: the dice the book rolls at the start of a phase, before the drawn faction
//! moves, are rolled in the step that draws its card, so the faction writes its orders
//! knowing them: the colony landing (35.7, compulsory; target by the standing `colony:`
//! policy) and Titans' demolition by their standing `nuke:` policy (36.4-36.7; `pre.demolish`
//! in phase orders stays for a player who moves blind). Called by [`super::cards::draw`].
//! Neither leaks: the policies are read only when a card is drawn, which is public, and only
//! what they make happen is seen.

use super::colony;
use super::ctx::Ctx;
use super::data::{Side, ZetaData};
use super::nuke;
use super::policy::{ColonyPolicy, ColonyTarget, DemolishWhen, NukePolicy, PolicyPatch};
use super::state::{Card, CardKind};
use crate::systems::Problem;
use crate::yaml::FieldPath;

/// How far from the nuke base `base_threatened` looks (an MS moves 2 hexes, 13.2).
const THREAT_RANGE: u32 = 2;

/// Everything that happens when `card` is drawn for action phase `k`, before its phase's
/// orders: the drawn faction's colony landing, then Titans' demolition if their policy says.
pub fn resolve_at_draw(ctx: &mut Ctx<'_>, k: u8, card: Card) {
    colony::resolve_landing(ctx, k, card);
    if card.side == Side::Titans && card.kind == CardKind::Ground && demolish_now(ctx) {
        ctx.log.private(
            Side::Titans,
            "your standing `nuke:` policy fires as your Ground card is drawn (plan §12/F3)"
                .to_string(),
        );
        nuke::resolve_demolish(ctx, Side::Titans);
    }
}

/// Whether Titans' `nuke.demolish_when` holds now and the demolition is legal (36.4).
pub fn demolish_now(ctx: &Ctx<'_>) -> bool {
    let when = ctx.state.policies[Side::Titans].nuke.demolish_when;
    if when == DemolishWhen::Never
        || nuke::legal_demolish(ctx, Side::Titans, &FieldPath::root()).is_err()
    {
        return false;
    }
    let Some(hex) = ctx
        .state
        .nuke
        .base
        .as_deref()
        .and_then(|b| ctx.data.base_hex(b))
    else {
        return false;
    };
    // PP of the units within `range` of the base's hex, other factions' and Titans'.
    let pp_near = |range: u32, enemy: bool| -> u32 {
        ctx.state
            .units
            .values()
            .filter(|u| (u.side != Side::Titans) == enemy)
            .filter(|u| {
                u.place
                    .loc()
                    .and_then(|l| ctx.data.distance(l, hex))
                    .is_some_and(|d| d <= range)
            })
            .filter_map(|u| ctx.data.unit_type(&u.type_id))
            .map(|t| u32::from(t.pp))
            .sum()
    };
    match when {
        DemolishWhen::Never => false,
        DemolishWhen::EnemyPpInBaseMin(n) => pp_near(0, true) >= n,
        DemolishWhen::BaseThreatened => {
            let threat = pp_near(THREAT_RANGE, true);
            threat >= 1 && threat > 2 * pp_near(0, false)
        }
    }
}

/// Problems with a `nuke:` policy: Titans only (36.1), a threshold of at least 1.
pub fn legal_nuke_policy(side: Side, p: &NukePolicy, at: &FieldPath) -> Vec<Problem> {
    let mut out = Vec::new();
    if side != Side::Titans && *p != NukePolicy::default() {
        out.push(Problem::new(
            at.clone(),
            "36.1",
            format!("{side} has no nuke to demolish with"),
            "leave `nuke` out",
        ));
    }
    if p.demolish_when == DemolishWhen::EnemyPpInBaseMin(0) {
        out.push(Problem::new(
            at.at("demolish_when").at("enemy_pp_in_base_min"),
            "36.4",
            "a threshold of 0 PP would demolish with nobody there".to_string(),
            "1 or more",
        ));
    }
    out
}

/// Problems with a `colony:` policy: not AEUG (35.1); with the data at hand, each listed
/// base a target `side` could land on: a Moon base, or for Neo Zeon also a ground base (35.2).
/// Without the data (policy.rs's `legal_policies` has none) only the side is judged; a listed
/// base that is never a target is passed over when the colony lands.
pub fn legal_colony_policy(
    data: Option<&ZetaData>,
    side: Side,
    p: &ColonyPolicy,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if side == Side::Aeug && *p != ColonyPolicy::default() {
        out.push(Problem::new(
            at.clone(),
            "35.1",
            "AEUG drops no colony".to_string(),
            "leave `colony` out",
        ));
        return out;
    }
    let (Some(data), ColonyTarget::Bases(list)) = (data, &p.target) else {
        return out;
    };
    for (i, b) in list.iter().enumerate() {
        let here = at.at("target").at(i);
        let Some(def) = data.base(b) else {
            out.push(Problem::new(
                here,
                "35.7",
                format!("no base {b:?}"),
                "a base id",
            ));
            continue;
        };
        let ground = data
            .base_hex(b)
            .is_some_and(|l| l.map == super::data::MapId::Ground);
        let fits = def.moon || (side == Side::NeoZeon && ground);
        if !fits {
            let what = if side == Side::NeoZeon {
                "a Moon or ground base"
            } else {
                "a Moon base"
            };
            out.push(Problem::new(
                here,
                "35.2",
                format!("{side}'s colony cannot fall on {b}: it must be {what}"),
                what,
            ));
        }
    }
    out
}

/// The problems of the parts of a policy patch this module owns (`colony`, `nuke`), added by
/// policy.rs's `legal_policies` (without the data).
pub fn legal_policy_parts(
    data: Option<&ZetaData>,
    side: Side,
    patch: &PolicyPatch,
    at: &FieldPath,
) -> Vec<Problem> {
    let mut out = Vec::new();
    if let Some(c) = &patch.colony {
        out.extend(legal_colony_policy(data, side, c, &at.at("colony")));
    }
    if let Some(n) = &patch.nuke {
        out.extend(legal_nuke_policy(side, n, &at.at("nuke")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dice::Dice;
    use crate::protocol::hash::Hash32;
    use crate::systems::zeta::carry::fixture::{put, state};
    use crate::systems::zeta::ctx::Moment;
    use crate::systems::zeta::state::{Stage, State};

    fn titans_ground() -> Card {
        Card {
            side: Side::Titans,
            kind: CardKind::Ground,
            copy: 1,
        }
    }

    /// Titans' nuke in Jaburo (E06), which they govern at level 2, their Ground card drawn.
    fn nuked(when: DemolishWhen) -> State {
        let mut st = state();
        st.nuke.base = Some("jaburo".into());
        let b = st.bases.get_mut("jaburo").unwrap();
        b.governor = Some(Side::Titans);
        b.level = 2;
        st.policies[Side::Titans].nuke = NukePolicy {
            demolish_when: when,
        };
        st.stage = Stage::Phase {
            turn: 1,
            k: 1,
            card: titans_ground(),
        };
        st
    }

    fn at_draw(st: State) -> (State, Vec<String>) {
        let mut d = Dice::new(Hash32([9; 32]), Hash32([1; 32])).at_step(2);
        let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
        resolve_at_draw(&mut ctx, 1, titans_ground());
        let Ctx { state, log, .. } = ctx;
        (state, log.public)
    }

    #[test]
    fn by_default_titans_never_demolish_at_the_draw_f3() {
        let mut st = nuked(DemolishWhen::Never);
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "ground:E06");
        let (st, public) = at_draw(st);
        assert!(!st.nuke.used);
        assert!(public.is_empty(), "{public:?}");
    }

    #[test]
    fn enough_enemy_pp_in_the_base_demolishes_it_at_the_draw_36_4_f3() {
        let mut st = nuked(DemolishWhen::EnemyPpInBaseMin(2));
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "ground:E06");
        put(&mut st, "a-nemo-2", Side::Aeug, "nemo", "ground:E06");
        let (st, public) = at_draw(st);
        assert!(st.nuke.used);
        assert!(st.bases.get("jaburo").unwrap().destroyed);
        assert!(
            public.iter().any(|l| l.contains("Titans demolish jaburo")),
            "{public:?}"
        );
    }

    #[test]
    fn too_few_enemy_pp_keep_the_base_f3() {
        let mut st = nuked(DemolishWhen::EnemyPpInBaseMin(5));
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "ground:E06");
        let (st, _) = at_draw(st);
        assert!(!st.nuke.used);
    }

    #[test]
    fn a_threat_over_twice_the_garrison_demolishes_f3() {
        let mut st = nuked(DemolishWhen::BaseThreatened);
        // Enemies two hexes off, Titans' garrison of one MS.
        put(&mut st, "t-hizack-1", Side::Titans, "hizack", "ground:E06");
        for i in 1..=3 {
            put(
                &mut st,
                &format!("a-nemo-{i}"),
                Side::Aeug,
                "nemo",
                "ground:E04",
            );
        }
        let ctx = Ctx::new(st.clone(), None, Moment::Resolve);
        let data = ctx.data.clone();
        let d = data.distance(
            crate::systems::zeta::data::Loc::parse("ground:E04").unwrap(),
            crate::systems::zeta::data::Loc::parse("ground:E06").unwrap(),
        );
        assert_eq!(d, Some(2));
        assert!(demolish_now(&ctx));
        put(&mut st, "t-hizack-2", Side::Titans, "hizack", "ground:E06");
        let ctx = Ctx::new(st, None, Moment::Resolve);
        assert!(!demolish_now(&ctx));
    }

    #[test]
    fn the_policy_does_not_fire_when_the_base_is_not_titans_36_4() {
        let mut st = nuked(DemolishWhen::EnemyPpInBaseMin(1));
        put(&mut st, "a-nemo-1", Side::Aeug, "nemo", "ground:E06");
        st.bases.get_mut("jaburo").unwrap().governor = None;
        let (st, _) = at_draw(st);
        assert!(!st.nuke.used);
    }

    #[test]
    fn only_titans_have_a_nuke_policy_36_1() {
        let p = NukePolicy {
            demolish_when: DemolishWhen::BaseThreatened,
        };
        let out = legal_nuke_policy(Side::Aeug, &p, &FieldPath::root().at("nuke"));
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule.as_deref(), Some("36.1"));
        assert!(out[0].message.contains("no nuke"), "{}", out[0].message);
    }

    #[test]
    fn a_zero_threshold_is_refused_36_4() {
        let p = NukePolicy {
            demolish_when: DemolishWhen::EnemyPpInBaseMin(0),
        };
        let out = legal_nuke_policy(Side::Titans, &p, &FieldPath::root().at("nuke"));
        assert_eq!(out.len(), 1);
        assert!(
            out[0].message.contains("threshold of 0"),
            "{}",
            out[0].message
        );
    }

    #[test]
    fn aeug_has_no_colony_policy_35_1() {
        let st = state();
        let p = ColonyPolicy {
            target: ColonyTarget::Bases(vec!["granada".into()]),
        };
        let out = legal_colony_policy(Some(&st.data), Side::Aeug, &p, &FieldPath::root());
        assert_eq!(out[0].rule.as_deref(), Some("35.1"));
        assert!(out[0].message.contains("AEUG drops no colony"));
    }

    #[test]
    fn titans_aim_only_at_moon_bases_35_2() {
        let st = state();
        let p = ColonyPolicy {
            target: ColonyTarget::Bases(vec!["granada".into(), "jaburo".into()]),
        };
        let out = legal_colony_policy(Some(&st.data), Side::Titans, &p, &FieldPath::root());
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule.as_deref(), Some("35.2"));
        assert!(
            out[0].message.contains("cannot fall on jaburo"),
            "{}",
            out[0].message
        );
        assert!(
            legal_colony_policy(Some(&st.data), Side::NeoZeon, &p, &FieldPath::root()).is_empty()
        );
    }

    #[test]
    fn an_unknown_base_in_the_colony_policy_is_refused_35_7() {
        let st = state();
        let p = ColonyPolicy {
            target: ColonyTarget::Bases(vec!["atlantis".into()]),
        };
        let out = legal_colony_policy(Some(&st.data), Side::NeoZeon, &p, &FieldPath::root());
        assert!(
            out[0].message.contains("no base \"atlantis\""),
            "{}",
            out[0].message
        );
    }

    #[test]
    fn the_policies_parse_as_the_plan_writes_them_f3() {
        let p: PolicyPatch = crate::yaml::parse(
            "colony: {target: [dublin, granada]}\nnuke: {demolish_when: {enemy_pp_in_base_min: 4}}\n",
            "p.yaml",
        )
        .unwrap();
        assert_eq!(
            p.colony.unwrap().target,
            ColonyTarget::Bases(vec!["dublin".into(), "granada".into()])
        );
        assert_eq!(
            p.nuke.unwrap().demolish_when,
            DemolishWhen::EnemyPpInBaseMin(4)
        );
        let q: PolicyPatch = crate::yaml::parse(
            "colony: {target: highest_vp_enemy}\nnuke: {demolish_when: base_threatened}\n",
            "p.yaml",
        )
        .unwrap();
        assert_eq!(q.colony.unwrap(), ColonyPolicy::default());
        assert_eq!(q.nuke.unwrap().demolish_when, DemolishWhen::BaseThreatened);
    }

    #[test]
    fn the_colony_lands_in_the_step_that_draws_the_card_f3() {
        let mut st = state();
        put(
            &mut st,
            colony::COLONY,
            Side::NeoZeon,
            colony::COLONY,
            "space:J04",
        );
        st.colony.in_use_by = Some(Side::NeoZeon);
        let mut d = Dice::new(Hash32([9; 32]), Hash32([1; 32])).at_step(2);
        let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
        let card = Card {
            side: Side::NeoZeon,
            kind: CardKind::Space,
            copy: 1,
        };
        resolve_at_draw(&mut ctx, 3, card);
        assert!(!ctx.state.units.contains_key(colony::COLONY));
        drop(ctx);
        let t = d.finish().unwrap();
        assert!(t.public.iter().any(|r| r.label == "t1/p3/colony/landing"));
    }

    #[test]
    fn legal_policies_judges_the_colony_and_nuke_parts_36_1() {
        let p: PolicyPatch =
            crate::yaml::parse("nuke: {demolish_when: base_threatened}\n", "p.yaml").unwrap();
        let at = FieldPath::root().at("policies");
        let out = crate::systems::zeta::policy::legal_policies(Side::NeoZeon, &p, &at);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].rule.as_deref(), Some("36.1"));
        assert!(crate::systems::zeta::policy::legal_policies(Side::Titans, &p, &at).is_empty());
    }

    #[test]
    fn drawing_the_card_opens_the_phase_and_rolls_the_landing_f3() {
        let mut st = state();
        put(
            &mut st,
            colony::COLONY,
            Side::NeoZeon,
            colony::COLONY,
            "space:J04",
        );
        st.colony.in_use_by = Some(Side::NeoZeon);
        let card = Card {
            side: Side::NeoZeon,
            kind: CardKind::Space,
            copy: 1,
        };
        st.deck = crate::kit::deck::Deck::new(vec![card]);
        st.stage = Stage::Packet { turn: 1 };
        let mut d = Dice::new(Hash32([9; 32]), Hash32([1; 32])).at_step(2);
        let mut ctx = Ctx::new(st, Some(&mut d), Moment::Resolve);
        assert_eq!(super::super::cards::draw(&mut ctx, 1), Some(card));
        assert_eq!(
            ctx.state.stage,
            Stage::Phase {
                turn: 1,
                k: 1,
                card
            }
        );
        assert!(!ctx.state.units.contains_key(colony::COLONY));
        drop(ctx);
        let t = d.finish().unwrap();
        assert!(t.public.iter().any(|r| r.label == "t1/p1/colony/landing"));
    }
}
