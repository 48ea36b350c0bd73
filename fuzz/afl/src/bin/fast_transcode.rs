//! AFL target `fast_transcode`: see `conformance_checks::fast::fast_transcode`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::fast::fast_transcode(data));
}
