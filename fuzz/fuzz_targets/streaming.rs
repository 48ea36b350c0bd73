//! libFuzzer target `streaming`: see `conformance_checks::streaming`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::streaming(data));
