//! Fuzz target: an order document: header parse, then every system's check for every side (and resolve when accepted).
//! The code lives in `pbem::fuzzing::order`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
    },
    |data: &[u8]| {
        pbem::fuzzing::order(data);
    }
);
