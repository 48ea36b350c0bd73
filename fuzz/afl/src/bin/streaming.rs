//! AFL target `streaming`: see `conformance::checks::streaming`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::streaming(data));
}
