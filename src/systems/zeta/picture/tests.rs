use super::*;
use crate::protocol::dice::Dice;
use crate::protocol::hash::Hash32;
use crate::systems::zeta::state::State;
use crate::systems::zeta::{setup, steps, view};
use crate::systems::{DataSource, Reader};

const READERS: [&str; 4] = ["public", "titans", "aeug", "neo_zeon"];

fn reader(name: &str) -> Reader {
    if name == "public" {
        Reader::Public
    } else {
        Reader::Side(name.into())
    }
}

fn initial() -> State {
    setup::initial_state(setup::GRYPS, &DataSource::default()).unwrap()
}

/// The state after the turn-1 packet (the deck shuffled, cards drawn) and its events.
fn mid_turn() -> (State, Vec<String>) {
    let st = initial();
    let mut dice = Dice::new(Hash32([4; 32]), Hash32([5; 32])).at_step(1);
    let r = steps::resolve(&st, &Default::default(), &mut dice).unwrap();
    (r.state, r.public)
}

fn draw(st: &State, who: &str, events: &[String]) -> String {
    let v = view::view(st, &reader(who));
    picture(&v, events, &st.data.arc()).into_string()
}

/// Plan §9: every unit and every character of the view is exactly one `data-unit` element
/// (a counter on the map or an entry of the panel's lists), whoever reads.
#[test]
fn each_unit_and_character_is_one_data_unit_element() {
    let (mid, events) = mid_turn();
    for (st, ev) in [(initial(), Vec::new()), (mid, events)] {
        for who in READERS {
            let svg = draw(&st, who, &ev);
            let v = view::view(&st, &reader(who));
            let keys: Vec<&String> = v.units.keys().chain(v.characters.keys()).collect();
            for k in &keys {
                let n = svg.matches(&format!("data-unit=\"{k}\"")).count();
                assert_eq!(n, 1, "{who}: {k} drawn {n} times");
            }
            assert_eq!(svg.matches("data-unit=").count(), keys.len(), "{who}");
        }
    }
}

/// 36.3: only Titans' picture names the nuke's base.
#[test]
fn the_nuke_line_is_in_titans_picture_only() {
    let mut st = initial();
    let base = st.data.nuke_candidates().into_iter().next().unwrap();
    st.nuke.base = Some(base);
    for who in READERS {
        let svg = draw(&st, who, &[]);
        assert_eq!(svg.contains("your nuke:"), who == "titans", "{who}");
    }
}

/// 10.5: a faction's cards show in its own picture alone.
#[test]
fn a_hand_shows_in_its_owners_picture_only() {
    let (st, events) = mid_turn();
    for who in READERS {
        let svg = draw(&st, who, &events);
        assert_eq!(svg.contains("Your cards:"), who != "public", "{who}");
    }
    let v = view::view(&st, &reader("aeug"));
    let kept = v
        .mine
        .as_ref()
        .unwrap()
        .cards
        .iter()
        .filter(|c| c.mark == crate::systems::zeta::view::CardMark::Kept)
        .count();
    assert_eq!(draw(&st, "aeug", &events).matches("(kept)").count(), kept);
}

#[test]
fn the_same_view_gives_the_same_bytes() {
    let (st, events) = mid_turn();
    for who in READERS {
        assert_eq!(draw(&st, who, &events), draw(&st, who, &events), "{who}");
    }
}

/// The SVG reads as an image (the PNG renderer parses it).
#[test]
fn the_picture_renders() {
    let st = initial();
    let v = view::view(&st, &Reader::Public);
    let svg = picture(&v, &[], &st.data.arc());
    crate::kit::picture::png::parse(&svg).unwrap();
}

/// Writes the PNG of the initial setup for each reader into `$ZETA_PICTURE_DIR` (to look
/// at them: `ZETA_PICTURE_DIR=/tmp cargo test --lib zeta::picture -- --ignored`).
#[test]
#[ignore]
fn write_pngs() {
    let Ok(dir) = std::env::var("ZETA_PICTURE_DIR") else {
        return;
    };
    let (mid, events) = mid_turn();
    for who in READERS {
        for (st, ev, tag) in [
            (initial(), Vec::new(), "setup"),
            (mid.clone(), events.clone(), "turn1"),
        ] {
            let v = view::view(&st, &reader(who));
            let svg = picture(&v, &ev, &st.data.arc());
            let png = crate::kit::picture::png::render(&svg).unwrap();
            std::fs::write(format!("{dir}/zpic-{tag}-{who}.png"), png).unwrap();
        }
    }
    let (st, ev) = busy();
    let v = view::view(&st, &Reader::Public);
    let svg = picture(&v, &ev, &st.data.arc());
    let png = crate::kit::picture::png::render(&svg).unwrap();
    std::fs::write(format!("{dir}/zpic-events-public.png"), png).unwrap();
    // A part at full size, to read the counters.
    use crate::kit::picture::png;
    let pixels = png::rasterize(&png::parse(&svg).unwrap(), &svg).unwrap();
    for (name, x, y) in [("space", 0, 100), ("panel", 1000, 0), ("ground", 0, 900)] {
        let rect = resvg::tiny_skia::IntRect::from_xywh(x, y, 700, 620).unwrap();
        let part = pixels.clone_rect(rect).unwrap();
        std::fs::write(
            format!("{dir}/zpic-part-{name}.png"),
            png::encode(&part).unwrap(),
        )
        .unwrap();
    }
}

/// The setup with a damaged unit and a made-up step's events of every kind the overlays read.
fn busy() -> (State, Vec<String>) {
    let mut st = initial();
    if let Some(u) = st.units.get_mut("t-hizack-1") {
        u.face = crate::systems::zeta::state::FaceUp::Back;
    }
    let ev = [
        "aeug: a-nemo-1 moves space:J04 -> space:I05 -> space:H05 (2 MP)",
        "titans: t-hizack-1 descends space:E04 -> ground:E03",
        "aeug: a-gm2-1 launches ground:C02 -> space:D05",
        "neo_zeon's Axis moves from belt to space:N04",
        "titans attacks aeug in space:J04 (18)",
        "laser on von_braun: rolls 3, unharmed",
        "Titans demolish odessa (level 2) (36.4)",
    ];
    (st, ev.iter().map(|s| s.to_string()).collect())
}

/// Overlays add no unit: the count holds with every kind of event drawn.
#[test]
fn overlays_draw_no_unit() {
    let (st, ev) = busy();
    let svg = draw(&st, "public", &ev);
    let v = view::view(&st, &Reader::Public);
    assert_eq!(
        svg.matches("data-unit=").count(),
        v.units.len() + v.characters.len()
    );
    assert!(svg.contains("data-combat=\"J04\""), "the combat is marked");
    assert!(
        svg.contains("↓ from drop A"),
        "the descent's arrival is marked"
    );
    assert!(svg.contains("laser: unharmed") && svg.contains("nuke: demolished"));
}

/// 16.1: a damaged unit drawn on the map shows its back's values and a "D" badge.
#[test]
fn a_damaged_unit_on_the_map_gets_a_d_badge_and_its_back_values() {
    let mut st = initial();
    let v = view::view(&st, &Reader::Public);
    let mut per_place: BTreeMap<Place, usize> = BTreeMap::new();
    for u in v.units.values() {
        *per_place.entry(u.place).or_default() += 1;
    }
    let (id, u) = v
        .units
        .iter()
        .find(|(_, u)| per_place.get(&u.place).is_some_and(|n| *n == 1))
        .unwrap();
    assert!(!draw(&st, "public", &[]).contains(">D</text>"));
    let back = {
        let mut b = u.clone();
        b.face = FaceUp::Back;
        values(&b, &st.data.arc())
    };
    st.units.get_mut(id).unwrap().face = FaceUp::Back;
    let svg = draw(&st, "public", &[]);
    assert_eq!(svg.matches(">D</text>").count(), 1);
    assert!(svg.contains(&format!(">{back}</text>")), "{back}");
}
