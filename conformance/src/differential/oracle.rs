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
