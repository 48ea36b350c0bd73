//! libFuzzer target `utf_inf8_roundtrip`: see `conformance_checks::utf_inf8_roundtrip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::utf_inf8_roundtrip(data));
