//! libFuzzer target `utf_inf8_differential_literal`: see `conformance_checks::utf_inf8_differential_literal`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::utf_inf8_differential_literal(data));
