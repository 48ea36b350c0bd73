//! AFL target `document`: see `conformance::checks::document`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::document(data));
}
