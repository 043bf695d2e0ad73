//! The host's caches of parsed files (host/cache/, engine::cache). The journal summary, keyed
//! by the head record's hash: opening a game reads it instead of every record, a stale one is
//! brought forward or rebuilt, one keyed by another head is never used, and every command
//! answers the same with it as without it. The parsed copy of the journal (JSON lines,
//! appended to, read by what needs every record): reading it parses only the records added
//! since, and a cache that does not end with the journal's head record is never used. The JSON
//! twins of data.yaml and of the newest state: reading one gives exactly what parsing the YAML
//! gives, and a twin of other bytes is never used.

mod common;
use common::*;

fn cache(t: &Table) -> std::path::PathBuf {
    t.game.join("host/cache/journal.jsonl")
}

/// The cache's lines: its head line, then one `[record, hash]` per record.
fn lines(t: &Table) -> Vec<serde_json::Value> {
    std::fs::read_to_string(cache(t))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs a command that reads every record (the dice of every step), which brings the parsed
/// copy of the journal up to date: steps, orders and sweeps read only the journal summary.
fn read_every_record(t: &Table) {
    ok(&["dice", t.dir()]);
}

fn write_lines(t: &Table, lines: &[serde_json::Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(cache(t), text).unwrap();
}

#[test]
fn the_cache_follows_the_journal_as_steps_are_played() {
    let t = Table::kummen();
    t.play_step(&[]);
    t.play_step(&[]);
    read_every_record(&t);
    let lines = lines(&t);
    assert_eq!(lines[0]["game"].as_str(), Some("kummen-test"));
    assert_eq!(lines.len(), 1 + 3, "a line per record");
    assert_eq!(
        lines[3][1].as_str(),
        Some(t.head().as_str()),
        "the cache ends with the head"
    );
}

#[test]
fn a_new_record_is_appended_to_the_cache_not_written_again_with_the_others() {
    let t = Table::kummen();
    t.play_step(&[]);
    read_every_record(&t);
    // A mark in the first record's line that a rewrite from the journal would not keep.
    let mut marked = lines(&t);
    marked[1][0]["genesis"]["scenario"] = "marked".into();
    write_lines(&t, &marked);
    t.play_step(&[]);
    read_every_record(&t);
    let after = lines(&t);
    assert_eq!(after.len(), 1 + 3);
    assert_eq!(after[1][0]["genesis"]["scenario"].as_str(), Some("marked"));
    assert_eq!(after[3][1].as_str(), Some(t.head().as_str()));
}

#[test]
fn a_cache_that_does_not_end_with_the_head_record_is_not_used() {
    let t = Table::kummen();
    t.play_step(&[]);
    read_every_record(&t);
    let head = t.head();
    // A cache of another history: the last record's hash is not that of journal/000001.yaml.
    let mut cached = lines(&t);
    cached[2][0]["step"]["title"] = "forged".into();
    cached[2][1] = "00".repeat(32).into();
    write_lines(&t, &cached);
    // The report of record 1 when it is not the head reads every record.
    t.play_step(&[]);
    let report = ok(&["report", t.dir(), "--record", "1"]);
    assert!(!report.contains("forged"), "{report}");
    assert_ne!(t.head(), head);
    ok(&["verify", "--full", t.dir()]);
}

#[test]
fn a_damaged_cache_is_rebuilt_from_the_journal() {
    let t = Table::dougram();
    t.play_step(&[]);
    std::fs::write(cache(&t), b"{not json").unwrap();
    assert_eq!(t.step(), 2);
    read_every_record(&t);
    assert_eq!(lines(&t).len(), 1 + 2);
}

#[test]
fn a_line_cut_short_by_a_crash_is_not_used_and_the_cache_starts_again() {
    let t = Table::kummen();
    t.play_step(&[]);
    read_every_record(&t);
    let text = std::fs::read_to_string(cache(&t)).unwrap();
    // The last line without its end, as a crash in the middle of an append leaves it.
    std::fs::write(cache(&t), &text[..text.len() - 10]).unwrap();
    assert_eq!(t.step(), 2);
    t.play_step(&[]);
    read_every_record(&t);
    let lines = lines(&t);
    assert_eq!(lines.len(), 1 + 3);
    assert_eq!(lines[3][1].as_str(), Some(t.head().as_str()));
    ok(&["verify", "--full", t.dir()]);
}

/// Reads every state of a played game through its JSON twin and from its YAML, and compares
/// the two: the same JSON again (every field, hidden ones too) and the same view for every
/// reader.
fn twins_read_back_as_parsed(system: &str, sides: &[&str]) {
    let t = Table::new(system, sides);
    t.play_script(system, sides, 12);
    let sys = pbem::systems::by_id(system).unwrap();
    let data_yaml = std::fs::read_to_string(t.game.join("data.yaml")).unwrap();
    let parsed = sys.parse_data(&data_yaml).unwrap();
    let data_json = sys.data_json(&parsed).unwrap();
    let from_json = sys.parse_data_json(&data_json).unwrap();
    assert_eq!(sys.data_json(&from_json).unwrap(), data_json);
    let mut states: Vec<_> = std::fs::read_dir(t.game.join("host/state"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    states.sort();
    // (The dougram demo script ends its game after three steps: issue 12.)
    assert!(states.len() > 3, "{states:?}");
    let mut readers: Vec<pbem::systems::Reader> = sides
        .iter()
        .map(|s| pbem::systems::Reader::Side(s.to_string()))
        .collect();
    readers.push(pbem::systems::Reader::Public);
    for path in states {
        let text = std::fs::read_to_string(&path).unwrap();
        let from_yaml = sys.parse_data(&data_yaml).unwrap();
        let json = sys.state_json(&from_yaml, &text).unwrap();
        let primed = sys.parse_data(&data_yaml).unwrap();
        sys.prime_state(&primed, &text, &json).unwrap();
        assert_eq!(sys.state_json(&primed, &text).unwrap(), json, "{path:?}");
        for reader in &readers {
            assert_eq!(
                sys.view(&primed, &text, reader).unwrap(),
                sys.view(&from_yaml, &text, reader).unwrap(),
                "{path:?} {reader:?}"
            );
        }
    }
}

#[test]
fn a_kummen_state_read_through_its_twin_is_the_state_parsed_from_yaml() {
    twins_read_back_as_parsed("kummen", &["mercenary", "beeler"]);
}

#[test]
fn a_dougram_state_read_through_its_twin_is_the_state_parsed_from_yaml() {
    twins_read_back_as_parsed("dougram", &["lib", "fed"]);
}

/// The beeler's order template: it lists the units of the side to move (beeler, in B1) from
/// the state. Its fresh entropy line is left out, so two templates of one state compare equal.
fn beeler_template(t: &Table) -> String {
    ok(&["template", t.dir(), "--side", "beeler"])
        .lines()
        .filter(|l| !l.starts_with("entropy:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_state_twin_is_used_for_its_own_state_only() {
    let t = Table::kummen();
    t.play_step(&[]);
    let template = || beeler_template(&t);
    let before = template();
    assert!(before.contains("O06"), "{before}");
    // The twin with every unit in O06 moved to A01 in its JSON.
    let twin = t.game.join("host/cache/state.json");
    let text = std::fs::read_to_string(&twin).unwrap();
    let (_, json) = text.split_once('\n').unwrap();
    let forged = json.replace("\"hex\":\"O06\"", "\"hex\":\"A01\"");
    assert_ne!(forged, json, "the twin holds units in O06");
    // Keyed by other bytes (a state of another step, say): not used.
    std::fs::write(&twin, format!("pbem-cache/1 {}\n{forged}", "ab".repeat(32))).unwrap();
    assert_eq!(template(), before);
    // Keyed by the newest state's bytes: the host's own cache is read instead of the YAML.
    let state = std::fs::read(t.game.join(format!("host/state/{:06}.yaml", 1))).unwrap();
    let key = pbem::protocol::hash::sha256(&state).hex();
    std::fs::write(&twin, format!("pbem-cache/1 {key}\n{forged}")).unwrap();
    let used = template();
    assert!(
        used.contains("A01") && used.matches("O06").count() < before.matches("O06").count(),
        "{used}"
    );
}

fn summary_file(t: &Table) -> std::path::PathBuf {
    t.game.join("host/cache/journal-summary.json")
}

/// The stored journal summary: the hash it is keyed by, and its JSON.
fn summary(t: &Table) -> (String, serde_json::Value) {
    let text = std::fs::read_to_string(summary_file(t)).unwrap();
    let (key, json) = text.split_once('\n').unwrap();
    let key = key.strip_prefix("pbem-cache/1 ").unwrap().to_string();
    (key, serde_json::from_str(json).unwrap())
}

fn write_summary(t: &Table, key: &str, json: &serde_json::Value) {
    std::fs::write(summary_file(t), format!("pbem-cache/1 {key}\n{json}")).unwrap();
}

/// The summary `Game::open` uses, made again from every record of the journal.
fn summary_of_the_journal(t: &Table) -> pbem::engine::summary::Summary {
    let dir = pbem::engine::dir::GameDir::new(&t.game);
    let records = pbem::engine::game::read_journal(&dir, &t.id).unwrap();
    pbem::engine::summary::Summary::of(&t.id, &records)
}

#[test]
fn opening_a_game_stores_the_summary_of_its_journal_keyed_by_the_head() {
    let t = Table::kummen();
    t.play_step(&[]);
    ok(&["pause", t.dir(), "--reason", "holiday"]);
    t.play_step(&[]);
    let (key, json) = summary(&t);
    assert_eq!(key, t.head());
    assert_eq!(json["len"], 4);
    let mut stored: pbem::engine::summary::Summary = serde_json::from_value(json).unwrap();
    stored.listed = None;
    assert_eq!(stored, summary_of_the_journal(&t));
}

#[test]
fn a_summary_brought_forward_record_by_record_is_the_summary_of_the_whole_journal() {
    let t = Table::kummen();
    t.play_step(&[]);
    // Pauses and resumptions within a step, a rollback, more steps: each command brings the
    // stored summary forward by the record it wrote.
    for _ in 0..2 {
        ok(&["pause", t.dir(), "--reason", "r"]);
        ok(&["resume", t.dir(), "--reason", "r"]);
    }
    t.play_step(&[]);
    ok(&["host", "rollback", t.dir(), "--to", "1", "--reason", "r"]);
    ok(&["pause", t.dir(), "--reason", "r"]);
    let g = pbem::engine::game::Game::open(&t.game).unwrap();
    let mut opened = (*g.journal).clone();
    opened.listed = None;
    assert_eq!(opened, summary_of_the_journal(&t));
    assert_eq!(g.records_all().unwrap().len() as u64, opened.len);
}

#[test]
fn a_summary_a_crash_left_behind_the_journal_is_brought_forward() {
    let t = Table::kummen();
    t.play_step(&[]);
    let (old_key, old) = summary(&t);
    t.play_step(&[]);
    let head = t.head();
    // As if the command crashed after writing its record and before storing the summary.
    write_summary(&t, &old_key, &old);
    assert_eq!(t.step(), 3);
    assert_eq!(t.head(), head);
    let (key, json) = summary(&t);
    assert_eq!(key, head);
    assert_eq!(json["len"], 3);
    ok(&["verify", "--full", t.dir()]);
}

#[test]
fn a_damaged_summary_is_rebuilt_from_the_journal() {
    let t = Table::dougram();
    t.play_step(&[]);
    let status = ok(&["status", t.dir(), "--json"]);
    for text in ["", "{not json", "pbem-cache/1 zz\n{}"] {
        std::fs::write(summary_file(&t), text).unwrap();
        assert_eq!(ok(&["status", t.dir(), "--json"]), status, "{text:?}");
        assert_eq!(summary(&t).0, t.head());
    }
}

#[test]
fn a_summary_keyed_by_another_head_is_not_used() {
    let t = Table::kummen();
    t.play_step(&[]);
    let status = ok(&["status", t.dir(), "--json"]);
    let (_, mut forged) = summary(&t);
    forged["head"][0]["next"]["title"] = "forged".into();
    forged["outcome"] = "forged".into();
    // The summary of another history: its key is not the hash of journal/000001.yaml.
    let other = "00".repeat(32);
    forged["head"][1] = other.clone().into();
    write_summary(&t, &other, &forged);
    assert_eq!(ok(&["status", t.dir(), "--json"]), status);
    assert_eq!(summary(&t).0, t.head(), "rebuilt");
}

#[test]
fn a_summary_whose_head_is_not_its_key_is_not_used() {
    let t = Table::kummen();
    t.play_step(&[]);
    let status = ok(&["status", t.dir(), "--json"]);
    let (key, mut forged) = summary(&t);
    forged["outcome"] = "forged".into();
    // Keyed by the real head, but describing another head record.
    forged["head"][1] = "11".repeat(32).into();
    write_summary(&t, &key, &forged);
    assert_eq!(ok(&["status", t.dir(), "--json"]), status);
    assert!(!ok(&["status", t.dir()]).contains("forged"));
}

#[test]
fn every_command_answers_the_same_with_the_summary_as_without_it() {
    let t = Table::kummen();
    t.play_step(&[]);
    ok(&["pause", t.dir(), "--reason", "r"]);
    ok(&["resume", t.dir(), "--reason", "r"]);
    t.play_step(&[]);
    let commands: [&[&str]; 7] = [
        &["status", t.dir(), "--json"],
        &["report", t.dir()],
        &["report", t.dir(), "--record", "1"],
        &["dice", t.dir()],
        &["template", t.dir(), "--side", "mercenary"],
        &["template", t.dir(), "--side", "beeler"],
        &["process", t.dir()],
    ];
    // Each command's exit code and output (a template's fresh entropy left out).
    let answers = |without: bool| -> Vec<(i32, String, String)> {
        commands
            .iter()
            .map(|args| {
                if without {
                    for name in ["journal-summary.json", "journal.jsonl"] {
                        let _ = std::fs::remove_file(t.game.join("host/cache").join(name));
                    }
                }
                let (code, out, err) = run(args);
                let out: Vec<&str> = out.lines().filter(|l| !l.starts_with("entropy:")).collect();
                (code, out.join("\n"), err)
            })
            .collect()
    };
    let with = answers(false);
    assert!(summary_file(&t).exists());
    assert_eq!(answers(true), with);
}

#[test]
fn a_stray_file_added_after_the_summary_remembered_a_clean_journal_folder_is_refused() {
    let t = Table::kummen();
    t.play_step(&[]);
    // Once journal/ is a second old, the stored summary remembers it was listed clean.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    ok(&["status", t.dir()]);
    ok(&["status", t.dir()]);
    assert!(
        summary(&t).1["listed"].is_array(),
        "{:?}",
        summary(&t).1["listed"]
    );
    std::fs::write(t.game.join("journal/notes.txt"), "x").unwrap();
    let (code, out, err) = run(&["status", t.dir()]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("journal/notes.txt"), "{err}");
}

#[test]
fn a_twin_a_crash_cut_short_or_filled_with_zeros_is_not_used() {
    // Twins are renamed into place without a flush: after a crash the new name may hold the
    // file cut short, or its length with zeros where the bytes never reached the disk.
    let t = Table::kummen();
    t.play_step(&[]);
    let template = || beeler_template(&t);
    let before = template();
    let twin = t.game.join("host/cache/state.json");
    let text = std::fs::read_to_string(&twin).unwrap();
    let (key, json) = text.split_once('\n').unwrap();
    // The forged twin moves the units of O06: if it were read, the template would change.
    let forged = json.replace("\"hex\":\"O06\"", "\"hex\":\"A01\"");
    let cut = |n: usize| [format!("{key}\n").as_bytes(), &forged.as_bytes()[..n]].concat();
    let n = forged.len();
    for damaged in [cut(n - 1), cut(n / 2), [cut(n / 3), vec![0u8; 64]].concat()] {
        std::fs::write(&twin, &damaged).unwrap();
        assert_eq!(
            template(),
            before,
            "a twin of {} bytes was used",
            damaged.len()
        );
    }
    // The whole forged twin is used (so the damaged ones above were refused for their damage).
    std::fs::write(&twin, format!("{key}\n{forged}")).unwrap();
    assert_ne!(template(), before);
}

#[cfg(unix)]
#[test]
fn the_hosts_cache_files_are_readable_by_the_host_only() {
    use std::os::unix::fs::PermissionsExt;
    let t = Table::kummen();
    t.play_step(&[]);
    for name in ["state.json", "journal-summary.json", "data.json"] {
        let path = t.game.join("host/cache").join(name);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{name}: {mode:o}");
    }
}
