//! AFL target `document`: see `conformance_checks::document`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::document(data));
}
