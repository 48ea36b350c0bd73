//! AFL target `differential_literal`: see `conformance::checks::differential_literal`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::differential_literal(data));
}
