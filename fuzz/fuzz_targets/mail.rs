//! Fuzz target: a raw incoming message: parse, classify, extract, open and check each order found.
//! The code lives in `pbem::fuzzing::mail`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
    },
    |data: &[u8]| {
        pbem::fuzzing::mail(data);
    }
);
