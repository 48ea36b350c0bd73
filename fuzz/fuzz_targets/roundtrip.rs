//! libFuzzer target `roundtrip`: see `conformance_checks::roundtrip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::roundtrip(data));
