//! AFL target `fast_decode`: see `conformance_checks::fast::fast_decode`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::fast::fast_decode(data));
}
