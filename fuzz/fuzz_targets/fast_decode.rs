//! libFuzzer target `fast_decode`: see `conformance_checks::fast::fast_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::fast::fast_decode(data));
