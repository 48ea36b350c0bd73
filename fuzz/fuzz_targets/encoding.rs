//! libFuzzer target `encoding`: see `conformance_checks::encoding`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::encoding(data));
