//! Fuzz target: the orders: block under a valid header (first byte picks the fixture state).
//! The code lives in `pbem::fuzzing::order_body`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
    },
    |data: &[u8]| {
        pbem::fuzzing::order_body(data);
    }
);
