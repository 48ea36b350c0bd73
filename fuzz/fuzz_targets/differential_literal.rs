//! libFuzzer target `differential_literal`: see `conformance_checks::differential_literal`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::differential_literal(data));
