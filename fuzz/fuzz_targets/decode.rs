//! libFuzzer target `decode`: see `conformance_checks::decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::decode(data));
