//! AFL target `differential_literal`: see `conformance_checks::differential_literal`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::differential_literal(data));
}
