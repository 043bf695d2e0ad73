//! No input panics (README, "Bad input"): arbitrary bytes and mangled signed orders are either
//! opened and checked, or refused with an error; the process never aborts.

mod common;
use common::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_the_envelope_or_the_header_parser(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = pbem::protocol::envelope::open_embedded(&bytes);
        let _ = pbem::protocol::envelope::open_detached(&bytes, &bytes);
        let text = String::from_utf8_lossy(&bytes);
        let _ = pbem::yaml::parse::<pbem::engine::order::Header>(&text, "fuzz.yaml");
    }

    #[test]
    fn yaml_shaped_noise_never_panics_the_header_parser(
        keys in proptest::collection::vec("[a-z]{1,8}", 0..8),
        values in proptest::collection::vec("[-a-z0-9{}\\[\\]:, '\"&*!|>]{0,12}", 0..8),
    ) {
        let doc: String = keys.iter().zip(values.iter()).map(|(k, v)| format!("{k}: {v}\n")).collect();
        let _ = pbem::yaml::parse::<pbem::engine::order::Header>(&doc, "fuzz.yaml");
    }

    #[test]
    fn yaml_shaped_noise_never_panics_the_plain_order_parser(
        keys in proptest::collection::vec("[a-z<]{1,8}", 0..8),
        values in proptest::collection::vec("[-a-z0-9{}\\[\\]:, '\"&*!|>%~+.#\n]{0,16}", 0..8),
    ) {
        type DougramOrder = pbem::systems::OrderDoc<pbem::systems::dougram::orders::Orders>;
        type KummenOrder = pbem::systems::OrderDoc<pbem::systems::kummen::orders::Orders>;
        let doc: String = keys.iter().zip(values.iter()).map(|(k, v)| format!("{k}: {v}\n")).collect();
        for text in [doc.clone(), format!("orders:\n  {}", doc.replace('\n', "\n  "))] {
            if let Err(rs) = pbem::yaml::parse_order::<DougramOrder>(&text, "fuzz.yaml") {
                prop_assert!(!rs.is_empty() && rs.len() <= pbem::yaml::MAX_REPORTED + 1);
            }
            let _ = pbem::yaml::parse_order::<KummenOrder>(&text, "fuzz.yaml");
            let _ = pbem::yaml::parse_order::<pbem::engine::order::Header>(&text, "fuzz.yaml");
        }
    }
}

#[test]
fn garbage_files_are_rejected_through_the_cli_with_exit_4() {
    let t = Table::kummen();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty.yaml", Vec::new()),
        ("binary.yaml", (0u8..=255).collect()),
        (
            "armour-only.yaml",
            b"# -----BEGIN SSH SIGNATURE-----\n# AAAA\n# -----END SSH SIGNATURE-----\n".to_vec(),
        ),
        ("deep.yaml", "[".repeat(100_000).into_bytes()),
    ];
    for (name, bytes) in cases {
        let f = t.path(name);
        std::fs::write(&f, bytes).unwrap();
        let (code, out, err) = t.submit(&f);
        assert_eq!(code, 4, "{name}: {out}{err}");
        assert!(
            err.contains(name),
            "{name}: the message names the file: {err}"
        );
    }
}
