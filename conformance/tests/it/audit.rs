//! `conformance audit`: the exhaustive report on Table 3-7 and on Table 3.1b amended
//! (`--amended`) are snapshots; the byte-class method agrees with checking every input
//! one by one; and Table 3.1b amended flags exactly the strings that are not factors of
//! well-formed UTF-8, so it disagrees with Table 3-7 only where no table of contexts can
//! agree.

use conformance::audit::amended::is_factor_of_well_formed;
use conformance::audit::{
    audit_brute_force, audit_by_classes, audit_table_brute_force, audit_table_by_classes,
    byte_classes, is_ill_formed_in, render, Cut, Disagreement, Method, Table,
};
use conformance_literal::Kind;

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
/// Run with `cargo test -p conformance --test it audit -- --ignored`.
#[test]
#[ignore]
fn byte_classes_agree_with_brute_force_up_to_four_bytes() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut by_classes = audit_by_classes(4);
    let brute = audit_brute_force(4, threads);
    by_classes.method = Method::BruteForce;
    assert_eq!(by_classes, brute);
}

// --- Table 3.1b amended (`conformance audit --amended`). ---

#[test]
fn amended_report_snapshot_and_counts() {
    let report = audit_table_by_classes(Table::Amended, 4);
    assert_eq!(
        report.inputs,
        256 + 256u64.pow(2) + 256u64.pow(3) + 256u64.pow(4)
    );
    assert_eq!(report.agree, 3_754_530_573);
    let classes: Vec<(Disagreement, [u64; 5], u64)> = report
        .classes
        .iter()
        .map(|c| (c.disagreement.clone(), c.counts, c.factors))
        .collect();
    assert_eq!(
        classes,
        vec![
            (
                Disagreement::MissesIllFormed {
                    kind: Kind::UnexpectedContinuation,
                    cut: None
                },
                [0, 64, 15_552, 2_662_400, 393_977_856],
                396_655_872
            ),
            (
                Disagreement::MissesIllFormed {
                    kind: Kind::Truncated,
                    cut: Some(Cut::EndOfInput)
                },
                [0, 51, 7_744, 1_105_536, 159_510_528],
                160_623_859
            ),
        ]
    );
    insta::assert_snapshot!(render(&report));
}

#[test]
fn amended_byte_classes_agree_with_brute_force_up_to_three_bytes() {
    let mut by_classes = audit_table_by_classes(Table::Amended, 3);
    let brute = audit_table_brute_force(Table::Amended, 3, 2);
    assert_eq!(brute.method, Method::BruteForce);
    by_classes.method = Method::BruteForce;
    assert_eq!(by_classes, brute);
}

/// The claim itself, one length beyond the audit: on every input of 1 to 5 bytes (by
/// byte classes, which [`is_factor_of_well_formed`] cannot tell apart either) the amended
/// table flags exactly what is not a factor of well-formed UTF-8.
#[test]
fn amended_flags_exactly_the_non_factors_up_to_five_bytes() {
    let classes = byte_classes();
    for n in 1..=5 {
        let mut idx = vec![0usize; n];
        loop {
            let input: Vec<u8> = idx.iter().map(|&i| classes[i].0).collect();
            assert_eq!(
                is_ill_formed_in(Table::Amended, &input),
                !is_factor_of_well_formed(&input),
                "{input:02X?}"
            );
            let Some(p) = (0..n).rev().find(|&p| idx[p] + 1 < classes.len()) else {
                break;
            };
            idx[p] += 1;
            for i in &mut idx[p + 1..] {
                *i = 0;
            }
        }
    }
}
