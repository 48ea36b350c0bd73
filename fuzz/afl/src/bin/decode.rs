//! AFL target `decode`: see `conformance_checks::decode`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::decode(data));
}
