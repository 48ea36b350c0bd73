//! AFL target `decode`: see `conformance::checks::decode`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::decode(data));
}
