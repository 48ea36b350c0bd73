//! AFL target `utf_inf8_streaming`: see `conformance::checks::utf_inf8_streaming`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::utf_inf8_streaming(data));
}
