//! The JSON vectors: the files embedded in the crate `corrected-utf8-vectors`, read with
//! its serde model into this crate's types.

use crate::check::{self, hex};
use crate::report::{Failure, Op, Report, Site};
use crate::{oracle, CodePoint, Encoding, Event, Finding, FindingKind, Implementation, Kind};
use corrected_utf8_vectors::model::{
    from_hex, AnyVectorFile, DecodeTest, DocumentTest, EncodeStringTest, EncodeTest, OutputEvent,
};
use std::sync::OnceLock;

/// The flags of the vectors that assume the default UTF-∞-8 code length limit
/// (`vectors/README.md`): skipped for an implementation with another limit.
const LIMIT_FLAGS: [&str; 4] = ["LimitExceeded", "LimitSpan", "AtLimit", "LargeInput"];

/// The vectors' UTF-∞-8 code length limit.
pub(crate) const DEFAULT_LIMIT: usize = conformance_literal::utf_inf8::DEFAULT_LIMIT;

/// One vector, read into this crate's types.
pub(crate) struct Vector {
    /// `utf-8/decode.json#17`.
    pub(crate) id: String,
    pub(crate) flags: Vec<String>,
    pub(crate) case: Case,
}

pub(crate) enum Case {
    Decode {
        input: Vec<u8>,
        output: Vec<Event>,
    },
    Encode {
        codepoint: CodePoint,
        expected: Result<Vec<u8>, Kind>,
    },
    EncodeString {
        codepoints: Vec<CodePoint>,
        expected: Result<Vec<u8>, (usize, Kind)>,
    },
    Document {
        input: Vec<u8>,
        findings: Vec<Finding>,
    },
}

fn event(raw: &OutputEvent) -> Option<Event> {
    Some(match raw {
        OutputEvent::CodePoint { codepoint } => Event::CodePoint(CodePoint::parse(codepoint)?),
        OutputEvent::Error {
            error,
            offset,
            length,
        } => Event::Error {
            kind: Kind::from_name(error)?,
            offset: usize::try_from(*offset).ok()?,
            length: usize::try_from(*length).ok()?,
        },
        OutputEvent::Reserved {
            reserved: true,
            offset,
            length,
        } => Event::Reserved {
            offset: usize::try_from(*offset).ok()?,
            length: usize::try_from(*length).ok()?,
        },
        OutputEvent::Reserved {
            reserved: false, ..
        } => return None,
    })
}

fn decode(test: &DecodeTest) -> Option<Case> {
    Some(Case::Decode {
        input: from_hex(&test.input).ok()?,
        output: test.output.iter().map(event).collect::<Option<_>>()?,
    })
}

fn encode(test: &EncodeTest) -> Option<Case> {
    Some(Case::Encode {
        codepoint: CodePoint::parse(&test.codepoint)?,
        expected: match (&test.bytes, &test.error) {
            (Some(bytes), None) => Ok(from_hex(bytes).ok()?),
            (None, Some(kind)) => Err(Kind::from_name(kind)?),
            _ => return None,
        },
    })
}

fn encode_string(test: &EncodeStringTest) -> Option<Case> {
    Some(Case::EncodeString {
        codepoints: test
            .codepoints
            .iter()
            .map(|c| CodePoint::parse(c))
            .collect::<Option<_>>()?,
        expected: match (&test.bytes, &test.error, test.index) {
            (Some(bytes), None, None) => Ok(from_hex(bytes).ok()?),
            (None, Some(kind), Some(index)) => {
                Err((usize::try_from(index).ok()?, Kind::from_name(kind)?))
            }
            _ => return None,
        },
    })
}

fn document(test: &DocumentTest) -> Option<Case> {
    Some(Case::Document {
        input: from_hex(&test.input).ok()?,
        findings: test
            .findings
            .iter()
            .map(|f| {
                Some(Finding {
                    kind: FindingKind::from_name(&f.kind)?,
                    offset: usize::try_from(f.offset).ok()?,
                    line: usize::try_from(f.line).ok()?,
                    column: usize::try_from(f.column).ok()?,
                })
            })
            .collect::<Option<_>>()?,
    })
}

/// Every embedded vector, per encoding, read once.
fn all() -> &'static [(Encoding, Vector)] {
    static ALL: OnceLock<Vec<(Encoding, Vector)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for file in corrected_utf8_vectors::EMBEDDED {
            let name = file.path;
            // The files are generated and checked in CI: a file this crate cannot read
            // is a bug of the crates, not of the implementation under test.
            let parsed = file
                .parse()
                .unwrap_or_else(|e| panic!("embedded vector file {name}: {e}"));
            let encoding = Encoding::from_name(parsed.encoding())
                .unwrap_or_else(|| panic!("{name}: unknown encoding {:?}", parsed.encoding()));
            let mut push = |tc_id: u64, flags: &[String], case: Option<Case>| {
                let id = format!("{name}#{tc_id}");
                let case = case.unwrap_or_else(|| panic!("embedded vector {id} is malformed"));
                let flags = flags.to_vec();
                all.push((encoding, Vector { id, flags, case }));
            };
            match &parsed {
                AnyVectorFile::Decode(f) => {
                    f.tests().for_each(|t| push(t.tc_id, &t.flags, decode(t)));
                }
                AnyVectorFile::Encode(f) => {
                    f.tests().for_each(|t| push(t.tc_id, &t.flags, encode(t)));
                }
                AnyVectorFile::EncodeString(f) => {
                    f.tests()
                        .for_each(|t| push(t.tc_id, &t.flags, encode_string(t)));
                }
                AnyVectorFile::Document(f) => {
                    f.tests().for_each(|t| push(t.tc_id, &t.flags, document(t)));
                }
                // A shape of a later vectors version this crate cannot read: a bug of
                // the crates (the testkit and the vectors are released together).
                other => panic!("{name}: no reader for schema {}", other.schema()),
            }
        }
        all
    })
}

/// Runs every vector of `imp`'s encoding, skipping those with any of `skip_flags`.
pub(crate) fn check<I: Implementation + ?Sized>(imp: &I, skip_flags: &[&str]) -> Report {
    let encoding = imp.encoding();
    let mut report = Report::new("vectors".to_owned(), crate::describe(imp));
    let other_limit = encoding == Encoding::UtfInf8 && imp.code_length_limit() != DEFAULT_LIMIT;
    let mut any = false;
    for (_, vector) in all().iter().filter(|(e, _)| *e == encoding) {
        any = true;
        let skip = |flag: &String| {
            skip_flags.contains(&flag.as_str())
                || (other_limit && LIMIT_FLAGS.contains(&flag.as_str()))
        };
        if vector.flags.iter().any(skip) {
            report.skipped += 1;
            continue;
        }
        report.cases += 1;
        let name = || vector.id.clone();
        match &vector.case {
            Case::Decode { input, output } => {
                let shown = hex(input);
                let site = Site {
                    case: &name,
                    input: &shown,
                };
                // Under another limit, codes the vectors' limit lets through may be over
                // it, and not every such case carries one of the limit flags (a code cut
                // short whose shortest completion is 43 714 bytes is `truncated` under
                // the default, `limit-exceeded` under 4 096): the spec-literal decoder
                // at the implementation's limit says what to expect.
                let at_limit;
                let expected = if other_limit {
                    at_limit = oracle::events(encoding, input, imp.code_length_limit());
                    &at_limit
                } else {
                    output
                };
                check::decode_ops(imp, input, expected, &site, &mut report);
            }
            Case::Encode {
                codepoint,
                expected,
            } => check::encode(imp, codepoint, expected.clone(), &name, &mut report),
            Case::EncodeString {
                codepoints,
                expected,
            } => check::encode_string(imp, codepoints, expected.clone(), &name, &mut report),
            Case::Document { input, findings } => {
                let shown = hex(input);
                let site = Site {
                    case: &name,
                    input: &shown,
                };
                check::document(imp, input, findings, &site, &mut report);
            }
        }
    }
    if !any {
        report.fail(Failure {
            case: format!("vectors of {encoding}"),
            input: String::new(),
            op: Op::Decode,
            expected: "vector files of this encoding".to_owned(),
            got: format!(
                "none among the {} files of corrected-utf8-vectors {}",
                corrected_utf8_vectors::EMBEDDED.len(),
                corrected_utf8_vectors::VERSION
            ),
        });
    }
    report.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_vector_is_read_with_every_encoding_and_the_big_code_points() {
        // Reading panics on a malformed vector.
        let encodings: Vec<Encoding> = all().iter().map(|(e, _)| *e).collect();
        for e in [Encoding::CorrectedUtf8, Encoding::Utf8, Encoding::UtfInf8] {
            assert!(encodings.contains(&e), "no vector of {e}");
        }
        let total: usize = corrected_utf8_vectors::EMBEDDED
            .iter()
            .map(|f| f.parse().unwrap().number_of_tests())
            .sum();
        assert_eq!(all().len(), total);
        // The UTF-∞-8 code points of thousands of digits are kept.
        let big = all()
            .iter()
            .filter_map(|(_, v)| match &v.case {
                Case::Encode { codepoint, .. } => Some(codepoint.hex().len()),
                _ => None,
            })
            .max();
        assert!(big > Some(1000), "{big:?}");
    }

    #[test]
    fn events_are_read_into_this_crates_types() {
        let cp = |c: &str| OutputEvent::CodePoint {
            codepoint: c.into(),
        };
        assert_eq!(
            event(&cp("U+00A0")),
            Some(Event::CodePoint(CodePoint::from(0xA0u32)))
        );
        assert_eq!(event(&cp("00A0")), None);
        let error = OutputEvent::Error {
            error: "truncated".into(),
            offset: 3,
            length: 2,
        };
        assert_eq!(
            event(&error),
            Some(Event::Error {
                kind: Kind::Truncated,
                offset: 3,
                length: 2
            })
        );
        let unknown = OutputEvent::Error {
            error: "nonsense".into(),
            offset: 3,
            length: 2,
        };
        assert_eq!(event(&unknown), None);
        let reserved = |r| OutputEvent::Reserved {
            reserved: r,
            offset: 1,
            length: 4,
        };
        assert_eq!(
            event(&reserved(true)),
            Some(Event::Reserved {
                offset: 1,
                length: 4
            })
        );
        assert_eq!(event(&reserved(false)), None);
    }
}
