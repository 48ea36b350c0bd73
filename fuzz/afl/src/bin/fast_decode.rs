//! AFL target `fast_decode`: see `conformance::checks::fast::fast_decode`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::fast::fast_decode(data));
}
