//! AFL target `differential_std`: see `conformance_checks::differential_std`.

fn main() {
    afl::fuzz!(|data: &[u8]| conformance_checks::differential_std(data));
}
