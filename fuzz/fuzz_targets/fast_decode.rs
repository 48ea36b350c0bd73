//! libFuzzer target `fast_decode`: see `conformance::checks::fast::fast_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance::checks::fast::fast_decode(data));
