//! libFuzzer target `utf_inf8_streaming`: see `conformance_checks::utf_inf8_streaming`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::utf_inf8_streaming(data));
