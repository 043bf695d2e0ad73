//! Fuzz target: up to three journal records split at NUL: parse, public verify, Game::open.
//! The code lives in `pbem::fuzzing::journal`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
    },
    |data: &[u8]| {
        pbem::fuzzing::journal(data);
    }
);
