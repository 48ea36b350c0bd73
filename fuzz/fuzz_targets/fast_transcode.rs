//! libFuzzer target `fast_transcode`: see `conformance_checks::fast::fast_transcode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| conformance_checks::fast::fast_transcode(data));
