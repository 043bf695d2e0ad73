//! Fuzz target: a raw incoming message: parse, classify, extract, open and check each order found.
//! The code lives in `pbem::fuzzing::mail`, which tests/fuzz_regressions.rs replays on stable.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        // Fixtures are built before the first input, so libFuzzer does not time it.
        pbem::fuzzing::init();
        // pbem runs mail-parser behind catch_unwind (engine::mail::parse): a panic inside it
        // is a handled input (the message counts as "not a mail message"), not a crash of
        // pbem. libFuzzer's hook would abort on it before pbem could catch it, so panics in
        // mail-parser unwind to pbem; every other panic still aborts, as does one in
        // mail-parser that pbem failed to catch (libfuzzer-sys aborts on any unwind).
        let aborting = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.location().is_some_and(|l| l.file().contains("/mail-parser-")) {
                return;
            }
            aborting(info);
        }));
    },
    |data: &[u8]| {
        pbem::fuzzing::mail(data);
    }
);
