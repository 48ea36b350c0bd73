//! AFL target `utf_inf8_roundtrip`: see `conformance::checks::utf_inf8_roundtrip`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::utf_inf8_roundtrip(data));
}
