//! AFL target `roundtrip`: see `conformance_checks::roundtrip`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::roundtrip(data));
}
