//! libFuzzer target `utf_inf8_streaming`: see `conformance::checks::utf_inf8_streaming`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::utf_inf8_streaming(data));
