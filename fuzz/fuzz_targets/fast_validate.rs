//! libFuzzer target `fast_validate`: see `conformance_checks::fast::fast_validate`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::fast::fast_validate(data));
