//! AFL target `fast_validate`: see `conformance_checks::fast::fast_validate`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::fast::fast_validate(data));
}
