//! libFuzzer target `roundtrip`: see `conformance::checks::roundtrip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::roundtrip(data));
