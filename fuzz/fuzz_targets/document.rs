//! libFuzzer target `document`: see `conformance_checks::document`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::document(data));
