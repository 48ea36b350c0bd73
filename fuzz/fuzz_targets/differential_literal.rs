//! libFuzzer target `differential_literal`: see `conformance::checks::differential_literal`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::differential_literal(data));
