//! AFL target `streaming`: see `conformance_checks::streaming`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::streaming(data));
}
