//! AFL target `utf_inf8_differential_literal`: see `conformance_checks::utf_inf8_differential_literal`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::utf_inf8_differential_literal(data));
}
