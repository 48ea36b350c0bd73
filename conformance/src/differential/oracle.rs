//! The expected answer to any input, from the spec-literal code, through the vector
//! generator's own builders: a vector written from a disagreement expects exactly what
//! `conformance generate` would.

use super::Probe;
use crate::case::{Case, Test};
use crate::vectors::generate::{build, utf_inf8 as inf_build};
use crate::vectors::{Encoding, Op};
use conformance_literal::{corrected, utf8, utf_inf8};

/// Whether the spec-literal code answers this encoding and operation.
pub fn has_oracle(encoding: Encoding, op: Op) -> bool {
    op != Op::Document || encoding == Encoding::CorrectedUtf8
}

/// The case for `probe`, its expected answer computed by the spec-literal code through
/// the vector generator's builders (so a written vector expects what `generate` would).
pub fn expected_case(
    encoding: Encoding,
    op: Op,
    probe: &Probe,
    id: String,
    flags: &[&str],
) -> Case {
    let comment = String::new();
    // Corrected UTF-8 and UTF-8 take u32 code points; callers give no larger ones.
    let small = |cp: u128| u32::try_from(cp).unwrap_or(u32::MAX);
    let test = match (op, probe) {
        (Op::Document, Probe::Bytes(b)) => Test::Document(build::document_test(comment, flags, b)),
        (_, Probe::Bytes(b)) => Test::Decode(match encoding {
            Encoding::Utf8 => build::decode_test(utf8::decode, comment, flags, b),
            Encoding::UtfInf8 => inf_build::dec(comment, flags, b),
            Encoding::CorrectedUtf8 => build::decode_test(corrected::decode, comment, flags, b),
        }),
        (_, Probe::CodePoint(cp)) => Test::Encode(match encoding {
            Encoding::Utf8 => build::encode_test(utf8::encode, comment, flags, small(*cp)),
            Encoding::UtfInf8 => {
                inf_build::enc(comment, flags, &utf_inf8::CodePoint::from_u128(*cp))
            }
            Encoding::CorrectedUtf8 => {
                build::encode_test(corrected::encode, comment, flags, small(*cp))
            }
        }),
    };
    Case {
        id,
        file: 0,
        tc_id: 0,
        encoding,
        test: std::sync::Arc::new(test),
        chunking: None,
    }
}

/// The case judged at an implementation's declared code length limit (`"limit": N` on
/// `utf-inf-8 decode`): for a UTF-∞-8 decode case, the same input with its expected
/// answer from the spec-literal decoder at `limit` bytes; `None` for any other case, or
/// when `limit` is the vectors' own (65 536), where the case stands as it is.
pub fn at_limit(case: &Case, limit: Option<u64>) -> Option<Case> {
    let limit = usize::try_from(limit?).ok()?;
    if case.encoding != Encoding::UtfInf8 || limit == utf_inf8::DEFAULT_LIMIT {
        return None;
    }
    let Test::Decode(t) = &*case.test else {
        return None;
    };
    let input = crate::vectors::model::from_hex(&t.input).ok()?;
    let flags: Vec<&str> = t.flags.iter().map(String::as_str).collect();
    let mut at = inf_build::dec_at(t.comment.clone(), &flags, &input, limit);
    at.tc_id = t.tc_id;
    Some(Case {
        test: std::sync::Arc::new(Test::Decode(at)),
        ..case.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::model::OutputEvent;

    #[test]
    fn a_declared_limit_changes_the_expected_answer_of_utf_inf8_decode_only() {
        // FE + 6 continuation bytes: a 7-byte code, well-formed under 65 536, over a limit
        // of 4.
        let input = vec![0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80];
        let case = expected_case(
            Encoding::UtfInf8,
            Op::Decode,
            &Probe::Bytes(input),
            "x".into(),
            &[],
        );
        assert!(at_limit(&case, None).is_none());
        assert!(at_limit(&case, Some(65_536)).is_none());
        let Test::Decode(default) = &*case.test else {
            unreachable!()
        };
        assert!(matches!(default.output[0], OutputEvent::CodePoint { .. }));
        let small = at_limit(&case, Some(4)).unwrap();
        let Test::Decode(t) = &*small.test else {
            unreachable!()
        };
        assert!(
            matches!(&t.output[0], OutputEvent::Error { error, .. } if error == "limit-exceeded"),
            "{:?}",
            t.output
        );
        let utf8 = expected_case(
            Encoding::Utf8,
            Op::Decode,
            &Probe::Bytes(vec![0x41]),
            "y".into(),
            &[],
        );
        assert!(at_limit(&utf8, Some(4)).is_none());
    }
}
