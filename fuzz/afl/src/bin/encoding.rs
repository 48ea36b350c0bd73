//! AFL target `encoding`: see `conformance_checks::encoding`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::encoding(data));
}
