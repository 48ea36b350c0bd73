//! libFuzzer target `document`: see `conformance::checks::document`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::document(data));
