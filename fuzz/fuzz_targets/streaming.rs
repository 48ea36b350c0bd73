//! libFuzzer target `streaming`: see `conformance::checks::streaming`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::streaming(data));
