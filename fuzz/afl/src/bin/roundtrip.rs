//! AFL target `roundtrip`: see `conformance::checks::roundtrip`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::roundtrip(data));
}
