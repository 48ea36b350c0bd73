//! AFL target `fast_validate`: see `conformance::checks::fast::fast_validate`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::fast::fast_validate(data));
}
