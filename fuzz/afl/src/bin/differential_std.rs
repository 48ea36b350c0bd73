//! AFL target `differential_std`: see `conformance::checks::differential_std`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance::checks::differential_std(data));
}
