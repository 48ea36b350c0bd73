//! The toy decoder under the conformance testkit: the honest toy passes every check, and
//! each check catches the toy with its bug (encoded surrogates accepted).

use conformance_testkit::{self as testkit, CodePoint, Encoding, Implementation, Op, Stop};
use testkit_example::{Piece, Toy};

/// The testkit's view of the toy. The toy names no error kinds, so it gives no full
/// events: a lossy decode, a strict decode (where it stops, without a kind) and a yes/no
/// validation, which is what the checks compare.
struct Checked(Toy);

impl Implementation for Checked {
    fn encoding(&self) -> Encoding {
        Encoding::Utf8
    }

    fn decode_lossy(&self, input: &[u8]) -> Option<Vec<CodePoint>> {
        let lossy = self.0.decode(input).into_iter().map(|piece| match piece {
            Piece::Scalar(v) => CodePoint::from(v),
            Piece::Invalid { .. } => CodePoint::REPLACEMENT,
        });
        Some(lossy.collect())
    }

    fn decode_strict(&self, input: &[u8]) -> Option<Result<Vec<CodePoint>, Stop>> {
        let strict = self.0.decode(input).into_iter().map(|piece| match piece {
            Piece::Scalar(v) => Ok(CodePoint::from(v)),
            Piece::Invalid { offset, length } => Err(Stop::Error {
                kind: None,
                offset,
                length,
            }),
        });
        Some(strict.collect())
    }

    fn is_valid(&self, input: &[u8]) -> Option<bool> {
        let pieces = self.0.decode(input);
        Some(pieces.iter().all(|p| matches!(p, Piece::Scalar(_))))
    }
}

const HONEST: Checked = Checked(Toy::HONEST);
const BUGGY: Checked = Checked(Toy::SURROGATE_BUG);

#[test]
fn the_honest_toy_passes_every_check() {
    let report = testkit::check_vectors(&HONEST);
    report.assert_passed();
    assert_eq!(
        report.ops_checked(),
        [Op::DecodeLossy, Op::DecodeStrict, Op::IsValid]
    );
    testkit::assert_exhaustive(&HONEST, 2);
    testkit::assert_fuzz(&HONEST, 15, 5_000);
    testkit::assert_inputs(&HONEST, [&b"\xED\x9F\xBF"[..], b"\xED\xA0\x80", b""]);
    testkit::fuzz_one(&HONEST, b"\xED\xA0\x80");
}

#[test]
#[ignore = "16.8 million inputs: about 15 s; run with --ignored"]
fn the_honest_toy_passes_the_exhaustive_walk_to_three_bytes() {
    testkit::assert_exhaustive(&HONEST, 3);
}

#[test]
fn the_vectors_catch_the_bug() {
    let report = testkit::check_vectors(&BUGGY);
    assert!(!report.passed());
    // Every failure is on an encoded surrogate, `ED A0`–`BF` …
    assert!(
        report
            .failures
            .iter()
            .all(|f| f.input.contains("ed a") || f.input.contains("ed b")),
        "{report}"
    );
    // … and the vector of U+D800 is among the first.
    assert!(report.fails_on("ed a0 80"), "{report}");
    let failure = report
        .failures
        .iter()
        .find(|f| f.input == "ed a0 80")
        .unwrap();
    assert_eq!(failure.case, "utf-8/decode.json#71");
}

#[test]
fn the_exhaustive_walk_catches_the_bug_with_two_bytes() {
    let report = testkit::check_exhaustive(&BUGGY, 2);
    assert!(!report.passed());
    // `ED A0`: a surrogate's lead, then a lone continuation byte; the toy says one cut
    // sequence of 2 bytes.
    let first = &report.failures[0];
    assert_eq!(first.input, "ed a0");
    assert_eq!(first.op, Op::DecodeLossy);
    assert_eq!(first.expected, "[U+FFFD, U+FFFD]");
    assert_eq!(first.got, "[U+FFFD]");
    // Every failing input starts with `ED A0`–`BF`: 32 inputs, 2 operations each.
    assert_eq!(report.failed, 32 * 2, "{report}");
}

#[test]
fn the_fuzz_loop_and_the_fuzz_property_catch_the_bug() {
    let report = testkit::check_fuzz(&BUGGY, 15, 5_000);
    assert!(!report.passed());
    assert!(report.failures[0].input.contains("ed a") || report.failures[0].input.contains("ed b"));
    assert!(
        report.failures[0].case.starts_with("seed 15 case "),
        "{report}"
    );

    let panic = std::panic::catch_unwind(|| testkit::fuzz_one(&BUGGY, b"\xED\xA0\x80"))
        .expect_err("fuzz_one panics on a disagreement");
    let message = panic.downcast_ref::<String>().expect("a formatted message");
    assert!(
        message
            .contains("[ed a0 80] decode_lossy: expected [U+FFFD, U+FFFD, U+FFFD], got [U+D800]"),
        "{message}"
    );

    // A replay of the one input finds it too.
    assert!(!testkit::check_inputs(&BUGGY, [b"\xED\xA0\x80"]).passed());
}
