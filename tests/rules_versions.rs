//! Rules versions (issue 11 item 1): a game records the rules that resolved each step, a host
//! moves a running game to new rules only by a journaled `pbem host upgrade`, and `verify`
//! replays what this pbem's rules resolved and says which steps need another pbem.

mod common;
use common::*;

fn record(t: &Table, seq: u64) -> serde_json::Value {
    let path = t.game.join(format!("journal/{seq:06}.yaml"));
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn this_rules(system: &str) -> u64 {
    pbem::systems::by_id(system).unwrap().rules_version() as u64
}

#[test]
fn genesis_records_the_pbem_release_and_the_rules_version_the_game_starts_with() {
    let t = Table::kummen();
    let genesis = record(&t, 0);
    assert_eq!(genesis["pbem"].as_str(), Some("journal/3"));
    assert_eq!(
        genesis["genesis"]["pbem_version"].as_str(),
        Some(pbem::PBEM_VERSION)
    );
    assert_eq!(
        genesis["genesis"]["rules"].as_u64(),
        Some(this_rules("kummen"))
    );
}

#[test]
fn every_step_record_names_the_rules_version_that_resolved_it() {
    let t = Table::dougram();
    t.play_step(&[]);
    assert_eq!(
        record(&t, 1)["step"]["rules"].as_u64(),
        Some(this_rules("dougram"))
    );
}

#[test]
fn upgrading_a_game_that_already_runs_this_pbems_rules_is_refused() {
    let t = Table::kummen();
    let (code, _, err) = run(&["host", "upgrade", t.dir(), "--reason", "new release"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("already runs kummen rules"), "{err}");
    assert!(!t.game.join("journal/000001.yaml").exists());
}

#[test]
fn verify_finds_a_step_record_claiming_other_rules_than_the_game_ran() {
    let t = Table::kummen();
    t.play_step(&[]);
    let path = t.game.join("journal/000001.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let rules = format!("  rules: {}\n", this_rules("kummen"));
    assert!(text.contains(&rules), "{text}");
    std::fs::write(&path, text.replace(&rules, "  rules: 7\n")).unwrap();
    let (code, out, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{out}{err}");
    assert!(
        err.contains("journal/000001.yaml: step.rules: 7, but the game ran rules"),
        "{err}"
    );
}

#[test]
fn a_game_of_older_rules_is_not_processed_until_the_host_upgrades_it() {
    let t = rules1_kummen();
    let (code, _, err) = run(&["process", t.dir()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("this game runs kummen rules 1 (pbem 0.2.0)")
            && err.contains("pbem host upgrade"),
        "{err}"
    );
}

#[test]
fn verify_full_of_a_game_of_older_rules_passes_and_names_every_step_it_cannot_replay() {
    let t = rules1_kummen();
    let out = ok(&["verify", "--full", t.dir()]);
    for seq in 1..=4 {
        assert!(
            out.contains(&format!(
                "not replayed: journal/{seq:06}.yaml was resolved by kummen rules 1; this pbem {} has kummen rules {}: replay it with pbem 0.2.0",
                pbem::PBEM_VERSION,
                this_rules("kummen")
            )),
            "{out}"
        );
    }
    assert!(out.contains("0 steps replayed from host"), "{out}");
}

#[test]
fn after_an_upgrade_the_game_plays_on_and_verify_replays_the_steps_of_the_new_rules() {
    let t = rules1_kummen();
    let out = ok(&["host", "upgrade", t.dir(), "--reason", "new release"]);
    let to = this_rules("kummen");
    assert!(
        out.contains(&format!("from rules 1 to rules {to}")),
        "{out}"
    );
    // Players see it in the report; the record pins the data the states are now read with.
    let report = std::fs::read_to_string(t.game.join("reports/000005.txt")).unwrap();
    assert!(
        report.contains(&format!("host moved the game from rules 1 to rules {to}")),
        "{report}"
    );
    let upgrade = record(&t, 5);
    assert_eq!(upgrade["host_op"]["op"].as_str(), Some("upgrade"));
    let data = std::fs::read(t.game.join("data.yaml")).unwrap();
    assert_eq!(
        upgrade["host_op"]["data"].as_str(),
        Some(pbem::protocol::hash::sha256(&data).hex().as_str())
    );
    t.play_step(&[]);
    assert_eq!(record(&t, 6)["step"]["rules"].as_u64(), Some(to));
    let out = ok(&["verify", "--full", t.dir()]);
    assert!(out.contains("1 steps replayed from host"), "{out}");
    assert!(
        out.contains("not replayed: journal/000004.yaml was resolved by kummen rules 1"),
        "{out}"
    );
    assert!(!out.contains("journal/000006.yaml"), "{out}");
}

#[test]
fn an_upgrade_withdraws_the_orders_checked_under_the_old_rules() {
    let t = rules1_kummen();
    // An order sent before the upgrade: this pbem cannot check it against rules 1, so it is
    // placed in the inbox as the old host would have filed it.
    let order = t.signed("beeler", "before", &t.order("beeler", "orders: {}\n"));
    std::fs::copy(&order, t.game.join("inbox/000005-beeler.yaml")).unwrap();
    let out = ok(&["host", "upgrade", t.dir(), "--reason", "new release"]);
    assert!(out.contains("withdrawn from the inbox"), "{out}");
    assert!(!t.game.join("inbox/000005-beeler.yaml").exists());
}

#[test]
fn state_files_hold_only_what_changes_and_the_data_is_pinned_by_genesis() {
    let has_map = |text: &str| text.lines().any(|l| l == "map:");
    for t in [Table::kummen(), Table::dougram()] {
        let state = std::fs::read_to_string(t.game.join("host/state/000000.yaml")).unwrap();
        assert!(!has_map(&state), "{state}");
        let data = std::fs::read(t.game.join("data.yaml")).unwrap();
        assert!(has_map(&String::from_utf8_lossy(&data)));
        assert_eq!(
            record(&t, 0)["genesis"]["data"].as_str(),
            Some(pbem::protocol::hash::sha256(&data).hex().as_str())
        );
    }
}

#[test]
fn a_changed_data_file_fails_verify_and_stops_the_host() {
    let t = Table::kummen();
    let path = t.game.join("data.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("attack: 9", "attack: 19", 1)).unwrap();
    let (code, _, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("data.yaml: its SHA-256 differs"), "{err}");
    let (code, _, err) = run(&["template", t.dir(), "--side", "beeler"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("differs from the component data the journal pins"),
        "{err}"
    );
}

#[test]
fn a_kept_earlier_data_file_with_the_pinned_bytes_passes_verify() {
    let t = Table::kummen();
    std::fs::create_dir_all(t.game.join("data")).unwrap();
    std::fs::copy(t.game.join("data.yaml"), t.game.join("data/000000.yaml")).unwrap();
    ok(&["verify", "--public-only", t.dir()]);
}

#[test]
fn a_kept_earlier_data_file_that_differs_from_its_pin_fails_verify() {
    let t = Table::kummen();
    std::fs::create_dir_all(t.game.join("data")).unwrap();
    let text = std::fs::read_to_string(t.game.join("data.yaml")).unwrap();
    std::fs::write(
        t.game.join("data/000000.yaml"),
        text.replacen("attack: 9", "attack: 19", 1),
    )
    .unwrap();
    let (code, _, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains("data/000000.yaml: its SHA-256 differs"),
        "{err}"
    );
}

#[test]
fn a_data_file_no_record_pinned_fails_verify() {
    let t = Table::kummen();
    std::fs::create_dir_all(t.game.join("data")).unwrap();
    std::fs::copy(t.game.join("data.yaml"), t.game.join("data/000003.yaml")).unwrap();
    let (code, _, err) = run(&["verify", "--public-only", t.dir()]);
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains("data/000003.yaml: not component data the journal pins"),
        "{err}"
    );
}

#[test]
fn an_upgrade_from_rules_1_keeps_no_earlier_data_because_its_states_held_it() {
    let t = rules1_kummen();
    ok(&["host", "upgrade", t.dir(), "--reason", "new release"]);
    assert!(!t.game.join("data").exists());
    let out = ok(&["verify", "--full", t.dir()]);
    assert!(!out.contains("data/"), "{out}");
}

// ---- kummen rules 2 -> 3 (issue 12): the audited rule fixes and the new policies ---------------

#[test]
fn verify_full_of_a_rules_2_kummen_game_names_every_step_this_pbem_cannot_replay() {
    let t = rules2_kummen();
    let out = ok(&["verify", "--full", t.dir()]);
    for seq in 1..=4 {
        assert!(
            out.contains(&format!(
                "not replayed: journal/{seq:06}.yaml was resolved by kummen rules 2"
            )),
            "{out}"
        );
    }
    assert!(out.contains("0 steps replayed from host"), "{out}");
}

#[test]
fn a_rules_2_kummen_game_upgraded_keeps_its_policies_and_plays_on_under_rules_3() {
    let t = rules2_kummen();
    let before = std::fs::read_to_string(t.game.join("host/state/000004.yaml")).unwrap();
    assert!(before.contains("rp_target: 4"), "{before}");
    let out = ok(&[
        "host",
        "upgrade",
        t.dir(),
        "--reason",
        "issue 12 rule fixes",
    ]);
    assert!(out.contains("from rules 2 to rules 3"), "{out}");
    // The game's data stays what it was: rules 2 already kept it in data.yaml.
    let upgrade = record(&t, 5);
    let data = std::fs::read(t.game.join("data.yaml")).unwrap();
    assert_eq!(
        upgrade["host_op"]["data"].as_str(),
        Some(pbem::protocol::hash::sha256(&data).hex().as_str())
    );
    // The standing policies carried over: the beeler rp_target of setup is still there, and
    // the new policies take their defaults.
    let state = t.kummen_state(&t.game.join("host/state/000005.yaml"));
    let beeler = &state.policies[pbem::systems::kummen::data::Side::Beeler];
    assert_eq!(beeler.rp_target, 4);
    assert!(beeler.draw_until.is_never());
    assert!(beeler.retreat_to.groups.is_empty());
    // Played on under rules 3, with a policy only rules 3 has.
    t.play_step(&[(
        "beeler",
        "orders:\n  policies:\n    draw_until: {units: 2}\n",
    )]);
    assert_eq!(record(&t, 6)["step"]["rules"].as_u64(), Some(3));
    let out = ok(&["verify", "--full", t.dir()]);
    assert!(out.contains("1 steps replayed from host"), "{out}");
    for seq in 1..=4 {
        assert!(
            out.contains(&format!(
                "not replayed: journal/{seq:06}.yaml was resolved by kummen rules 2"
            )),
            "{out}"
        );
    }
    assert!(!out.contains("journal/000006.yaml"), "{out}");
}

#[test]
fn an_upgrade_keeps_the_data_genesis_pinned_as_data_000000_and_verify_names_it_for_older_steps() {
    let t = rules2_kummen();
    let genesis_data = std::fs::read(t.game.join("data.yaml")).unwrap();
    ok(&[
        "host",
        "upgrade",
        t.dir(),
        "--reason",
        "issue 12 rule fixes",
    ]);
    assert_eq!(
        std::fs::read(t.game.join("data/000000.yaml")).unwrap(),
        genesis_data
    );
    let out = ok(&["verify", "--full", t.dir()]);
    let note = format!(
        "journal/000004.yaml was resolved by kummen rules 2; this pbem {} has kummen rules {}: replay it with pbem 0.3.0 and data/000000.yaml as its data.yaml",
        env!("CARGO_PKG_VERSION"),
        this_rules("kummen")
    );
    assert!(out.contains(&note), "{out}");
}
