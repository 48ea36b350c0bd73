//! The comparisons every check shares: one input's decode answers against the expected
//! events (whole and in chunks), one encode, one document.

use crate::report::{Op, Report, Site};
use crate::{CodePoint, Event, Finding, Implementation, Kind, Stop, Validity};
use std::fmt::Write as _;

/// Bytes as lowercase hex separated by spaces, a [`Failure`](crate::Failure)'s input form.
pub(crate) fn hex(bytes: &[u8]) -> String {
    conformance_literal::hex(bytes, " ")
}

/// The lossy decode the events imply: one U+FFFD per span, error or reserved.
pub(crate) fn lossy(events: &[Event]) -> Vec<CodePoint> {
    events
        .iter()
        .map(|e| match e {
            Event::CodePoint(cp) => cp.clone(),
            Event::Error { .. } | Event::Reserved { .. } => CodePoint::REPLACEMENT,
        })
        .collect()
}

/// The strict decode the events imply: the code points, or the first span.
pub(crate) fn strict(events: &[Event]) -> Result<Vec<CodePoint>, Stop> {
    events
        .iter()
        .map(|e| match e {
            Event::CodePoint(cp) => Ok(cp.clone()),
            &Event::Error {
                kind,
                offset,
                length,
            } => Err(Stop::Error {
                kind: Some(kind),
                offset,
                length,
            }),
            &Event::Reserved { offset, length } => Err(Stop::Reserved { offset, length }),
        })
        .collect()
}

/// A stop matches the expected one; one without a kind matches any error span at the same
/// place.
fn same_stop(got: &Stop, expected: &Stop) -> bool {
    match (got, expected) {
        (
            Stop::Error {
                kind: None,
                offset,
                length,
            },
            Stop::Error {
                offset: o,
                length: l,
                ..
            },
        ) => offset == o && length == l,
        _ => got == expected,
    }
}

fn show_strict(r: &Result<Vec<CodePoint>, Stop>) -> String {
    match r {
        Ok(cps) => format!("Ok({cps:?})"),
        Err(stop) => format!("Err({stop})"),
    }
}

fn debug<T: std::fmt::Debug>(t: &T) -> String {
    format!("{t:?}")
}

/// The ways an input is cut for the streaming hooks: every split into two chunks (a
/// sample of 32 for inputs over 256 bytes, where every split would cost the square of
/// the length), then one byte per chunk with an empty chunk at each end.
fn chunkings(len: usize) -> impl Iterator<Item = Option<usize>> {
    let step = if len > 256 { len / 32 } else { 1 };
    (1..len).step_by(step.max(1)).map(Some).chain([None])
}

fn chunks(input: &[u8], cut: Option<usize>) -> Vec<&[u8]> {
    match cut {
        Some(at) => vec![&input[..at], &input[at..]],
        None => std::iter::once(&input[..0])
            .chain(input.chunks(1))
            .chain(std::iter::once(&input[..0]))
            .collect(),
    }
}

fn chunking_name(case: String, cut: Option<usize>) -> String {
    let mut s = case;
    match cut {
        Some(at) => {
            let _ = write!(s, ", split at {at}");
        }
        None => s.push_str(", byte by byte"),
    }
    s
}

/// Compares every decode-side answer of `imp` for `input` with `expected`.
pub(crate) fn decode_ops<I: Implementation + ?Sized>(
    imp: &I,
    input: &[u8],
    expected: &[Event],
    site: &Site<'_>,
    report: &mut Report,
) {
    let expected = expected.to_vec();
    report.answer(
        Op::Decode,
        site,
        imp.decode(input),
        &expected,
        |a, b| a == b,
        debug,
    );
    report.answer(
        Op::DecodeLossy,
        site,
        imp.decode_lossy(input),
        &lossy(&expected),
        |a, b| a == b,
        debug,
    );
    report.answer(
        Op::DecodeStrict,
        site,
        imp.decode_strict(input),
        &strict(&expected),
        |a, b| match (a, b) {
            (Err(a), Err(b)) => same_stop(a, b),
            _ => a == b,
        },
        show_strict,
    );
    let validity = Validity::of(&expected);
    report.answer(
        Op::Validity,
        site,
        imp.validity(input),
        &validity,
        |a, b| a == b,
        |v| v.as_str().to_owned(),
    );
    report.answer(
        Op::IsValid,
        site,
        imp.is_valid(input),
        &(validity == Validity::Valid),
        |a, b| a == b,
        debug,
    );
    for cut in chunkings(input.len()) {
        let got = imp.decode_chunks(&chunks(input, cut));
        let case = || chunking_name(site.case(), cut);
        let chunk_site = Site {
            case: &case,
            input: site.input,
        };
        report.answer(
            Op::DecodeChunks,
            &chunk_site,
            got,
            &expected,
            |a, b| a == b,
            debug,
        );
    }
}

/// Compares `imp`'s encoding of `cp` with `expected` (`Err(None)` from the
/// implementation matches any error).
pub(crate) fn encode<I: Implementation + ?Sized>(
    imp: &I,
    cp: &CodePoint,
    expected: Result<Vec<u8>, Kind>,
    case: &dyn Fn() -> String,
    report: &mut Report,
) {
    let input = cp.to_string();
    let site = Site {
        case,
        input: &input,
    };
    report.answer(
        Op::Encode,
        &site,
        imp.encode(cp),
        &expected.map_err(Some),
        |got, want| match (got, want) {
            (Err(None), Err(_)) => true,
            _ => got == want,
        },
        |r| match r {
            Ok(bytes) => format!("bytes {}", hex(bytes)),
            Err(Some(kind)) => format!("error {kind}"),
            Err(None) => "an error (no kind)".to_owned(),
        },
    );
}

/// Compares `imp`'s encoding of a list of code points, one [`Implementation::encode`]
/// call after another until the first failure, with an `encode-string` vector (SPEC §1,
/// "Encoding a string": the concatenation, or the first failing code point's index and
/// kind). The trait has no string encoder of its own yet: this checks the code points of
/// the string vectors (runs across block sizes, errors at every place) through the
/// implementation's encoder of one code point.
pub(crate) fn encode_string<I: Implementation + ?Sized>(
    imp: &I,
    cps: &[CodePoint],
    expected: Result<Vec<u8>, (usize, Kind)>,
    case: &dyn Fn() -> String,
    report: &mut Report,
) {
    let input = format!("{} code points", cps.len());
    let site = Site {
        case,
        input: &input,
    };
    // The empty list makes no call: it encodes to no bytes if the implementation
    // encodes at all (asked of U+0041), else it is unanswered like every other list.
    let encodes = cps
        .first()
        .map_or_else(|| imp.encode(&CodePoint::from(0x41u32)).is_some(), |_| true);
    // The bytes so far, or the first failure's index and kind (if the implementation
    // names one).
    type Answer = Result<Vec<u8>, (usize, Option<Kind>)>;
    let mut got: Option<Answer> = encodes.then(|| Ok(Vec::new()));
    for (index, cp) in cps.iter().enumerate() {
        match imp.encode(cp) {
            None => {
                got = None;
                break;
            }
            Some(Ok(bytes)) => {
                if let Some(Ok(out)) = &mut got {
                    out.extend(bytes);
                }
            }
            Some(Err(kind)) => {
                got = Some(Err((index, kind)));
                break;
            }
        }
    }
    report.answer(
        Op::Encode,
        &site,
        got,
        &expected.map_err(|(i, k)| (i, Some(k))),
        |got, want| match (got, want) {
            (Err((i, None)), Err((j, _))) => i == j,
            _ => got == want,
        },
        |r| match r {
            Ok(bytes) => format!("bytes {}", hex(bytes)),
            Err((i, Some(kind))) => format!("error {kind} at index {i}"),
            Err((i, None)) => format!("an error (no kind) at index {i}"),
        },
    );
}

/// Compares `imp`'s document findings for `file` (whole and in chunks) with `expected`.
pub(crate) fn document<I: Implementation + ?Sized>(
    imp: &I,
    file: &[u8],
    expected: &[Finding],
    site: &Site<'_>,
    report: &mut Report,
) {
    let expected = expected.to_vec();
    report.answer(
        Op::CheckDocument,
        site,
        imp.check_document(file),
        &expected,
        |a, b| a == b,
        debug,
    );
    for cut in chunkings(file.len()) {
        let got = imp.check_document_chunks(&chunks(file, cut));
        let case = || chunking_name(site.case(), cut);
        let chunk_site = Site {
            case: &case,
            input: site.input,
        };
        report.answer(
            Op::CheckDocumentChunks,
            &chunk_site,
            got,
            &expected,
            |a, b| a == b,
            debug,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunkings_cover_every_split_of_a_short_input_then_bytes() {
        let cuts: Vec<_> = chunkings(3).collect();
        assert_eq!(cuts, [Some(1), Some(2), None]);
        assert_eq!(chunks(b"abc", None), [&b""[..], b"a", b"b", b"c", b""]);
        assert_eq!(chunks(b"abc", Some(1)), [&b"a"[..], b"bc"]);
        assert_eq!(chunkings(0).collect::<Vec<_>>(), [None]);
        assert_eq!(chunkings(1000).count(), 1000 / 31 + 1 + 1);
    }

    #[test]
    fn a_stop_without_kind_matches_an_error_at_the_same_place_only() {
        let want = Stop::Error {
            kind: Some(Kind::Surrogate),
            offset: 1,
            length: 1,
        };
        let anon = |offset| Stop::Error {
            kind: None,
            offset,
            length: 1,
        };
        assert!(same_stop(&anon(1), &want));
        assert!(!same_stop(&anon(2), &want));
        let reserved = Stop::Reserved {
            offset: 1,
            length: 1,
        };
        assert!(!same_stop(&anon(1), &reserved));
    }
}
