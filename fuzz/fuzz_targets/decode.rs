//! libFuzzer target `decode`: see `conformance::checks::decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::decode(data));
