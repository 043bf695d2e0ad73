//! The command-line help names the systems this pbem has, from the registry (issue 12).

mod common;
use common::*;

#[test]
fn new_and_demo_help_list_every_registered_system() {
    for cmd in ["new", "demo"] {
        let out = ok(&[cmd, "--help"]);
        assert!(!out.contains("coming"), "{out}");
        // The help is wrapped to the terminal: a system's "id: title" may break after the id.
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        for system in pbem::systems::all() {
            assert!(flat.contains(&format!("{}: ", system.id())), "{cmd}: {out}");
        }
    }
}

#[test]
fn demo_needs_a_system_named_there_is_no_default() {
    let (code, _, err) = run(&["demo"]);
    assert_ne!(code, 0);
    assert!(err.contains("<SYSTEM>"), "{err}");
}
