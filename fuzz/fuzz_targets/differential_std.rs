//! libFuzzer target `differential_std`: see `conformance::checks::differential_std`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::differential_std(data));
