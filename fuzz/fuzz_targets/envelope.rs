//! Fuzz target: the signed-envelope parser: one signed file, or a document and its detached .sig split at NUL.
//! The code lives in `pbem::fuzzing::envelope`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
    },
    |data: &[u8]| {
        pbem::fuzzing::envelope(data);
    }
);
