//! AFL target `utf_inf8_streaming`: see `conformance_checks::utf_inf8_streaming`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::utf_inf8_streaming(data));
}
