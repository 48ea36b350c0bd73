//! `conformance audit`: the exhaustive report is a snapshot, and the byte-class method
//! agrees with checking every input one by one.

use conformance::audit::{audit_brute_force, audit_by_classes, byte_classes, render, Method};

#[test]
fn audit_report_snapshot() {
    // By byte classes this covers all 4 311 810 304 inputs of 1 to 4 bytes in well under
    // a second.
    let report = audit_by_classes(4);
    assert_eq!(
        report.inputs,
        256 + 256u64.pow(2) + 256u64.pow(3) + 256u64.pow(4)
    );
    insta::assert_snapshot!(render(&report));
}

#[test]
fn byte_classes_partition_all_bytes() {
    let classes = byte_classes();
    assert_eq!(classes.first().map(|c| c.0), Some(0x00));
    assert_eq!(classes.last().map(|c| c.1), Some(0xFF));
    for w in classes.windows(2) {
        assert_eq!(u16::from(w[0].1) + 1, u16::from(w[1].0));
    }
}

#[test]
fn byte_classes_agree_with_brute_force_up_to_three_bytes() {
    let mut by_classes = audit_by_classes(3);
    let brute = audit_brute_force(3, 2);
    assert_eq!(brute.method, Method::BruteForce);
    by_classes.method = Method::BruteForce;
    assert_eq!(by_classes, brute);
}

/// The full cross-check: every one of the 4.3e9 inputs (several minutes on 2 cores).
/// Run with `cargo test -p conformance --test audit -- --ignored`.
#[test]
#[ignore]
fn byte_classes_agree_with_brute_force_up_to_four_bytes() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut by_classes = audit_by_classes(4);
    let brute = audit_brute_force(4, threads);
    by_classes.method = Method::BruteForce;
    assert_eq!(by_classes, brute);
}
