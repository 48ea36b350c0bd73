//! AFL target `utf_inf8_roundtrip`: see `conformance_checks::utf_inf8_roundtrip`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::utf_inf8_roundtrip(data));
}
