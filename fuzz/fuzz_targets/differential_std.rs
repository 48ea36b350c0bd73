//! libFuzzer target `differential_std`: see `conformance_checks::differential_std`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::differential_std(data));
