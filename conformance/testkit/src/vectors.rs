//! The JSON vectors, embedded at build time (`build.rs`) and read with serde.

use crate::check::{self, hex};
use crate::report::{Failure, Op, Report, Site};
use crate::{oracle, CodePoint, Encoding, Event, Finding, FindingKind, Implementation, Kind};
use serde::Deserialize;
use std::sync::OnceLock;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_vectors.rs"));
}

/// The flags of the vectors that assume the default UTF-∞-8 code length limit
/// (`vectors/README.md`): skipped for an implementation with another limit.
const LIMIT_FLAGS: [&str; 4] = ["LimitExceeded", "LimitSpan", "AtLimit", "LargeInput"];

/// The vectors' UTF-∞-8 code length limit.
pub(crate) const DEFAULT_LIMIT: usize = conformance_literal::utf_inf8::DEFAULT_LIMIT;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct File {
    schema: String,
    encoding: String,
    test_groups: Vec<Group>,
}

#[derive(Deserialize)]
struct Group {
    tests: Vec<Test>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Test {
    tc_id: u64,
    flags: Vec<String>,
    input: Option<String>,
    output: Option<Vec<RawEvent>>,
    codepoint: Option<String>,
    bytes: Option<String>,
    error: Option<String>,
    findings: Option<Vec<RawFinding>>,
}

#[derive(Deserialize)]
struct RawEvent {
    codepoint: Option<String>,
    error: Option<String>,
    reserved: Option<bool>,
    offset: Option<usize>,
    length: Option<usize>,
}

#[derive(Deserialize)]
struct RawFinding {
    kind: String,
    offset: usize,
    line: usize,
    column: usize,
}

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
    Document {
        input: Vec<u8>,
        findings: Vec<Finding>,
    },
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn event(raw: RawEvent) -> Option<Event> {
    match raw {
        RawEvent {
            codepoint: Some(cp),
            ..
        } => CodePoint::parse(&cp).map(Event::CodePoint),
        RawEvent {
            error: Some(kind),
            offset: Some(offset),
            length: Some(length),
            ..
        } => Some(Event::Error {
            kind: Kind::from_name(&kind)?,
            offset,
            length,
        }),
        RawEvent {
            reserved: Some(true),
            offset: Some(offset),
            length: Some(length),
            ..
        } => Some(Event::Reserved { offset, length }),
        _ => None,
    }
}

fn case(schema: &str, test: Test) -> Option<Case> {
    Some(match schema {
        "decode" => Case::Decode {
            input: unhex(test.input.as_deref()?)?,
            output: test.output?.into_iter().map(event).collect::<Option<_>>()?,
        },
        "encode" => Case::Encode {
            codepoint: CodePoint::parse(test.codepoint.as_deref()?)?,
            expected: match (test.bytes, test.error) {
                (Some(bytes), None) => Ok(unhex(&bytes)?),
                (None, Some(kind)) => Err(Kind::from_name(&kind)?),
                _ => return None,
            },
        },
        "document" => Case::Document {
            input: unhex(test.input.as_deref()?)?,
            findings: test
                .findings?
                .into_iter()
                .map(|f| {
                    Some(Finding {
                        kind: FindingKind::from_name(&f.kind)?,
                        offset: f.offset,
                        line: f.line,
                        column: f.column,
                    })
                })
                .collect::<Option<_>>()?,
        },
        _ => return None,
    })
}

/// Every embedded vector, per encoding, read once.
fn all() -> &'static [(Encoding, Vector)] {
    static ALL: OnceLock<Vec<(Encoding, Vector)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for (name, text) in embedded::FILES {
            // The files are generated and checked in CI: a file this crate cannot read
            // is a bug of the crate, not of the implementation under test.
            let file: File = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("embedded vector file {name}: {e}"));
            let encoding = Encoding::from_name(&file.encoding)
                .unwrap_or_else(|| panic!("{name}: unknown encoding {:?}", file.encoding));
            for test in file.test_groups.into_iter().flat_map(|g| g.tests) {
                let id = format!("{name}#{}", test.tc_id);
                let flags = test.flags.clone();
                let case = case(&file.schema, test)
                    .unwrap_or_else(|| panic!("embedded vector {id} is malformed"));
                all.push((encoding, Vector { id, flags, case }));
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
            expected: "vector files embedded at build time".to_owned(),
            got: "none (the crate was built without its vectors/ folder)".to_owned(),
        });
    }
    report.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_file_is_read_and_every_encoding_has_all_three_schemas_it_should() {
        let files: Vec<&str> = embedded::FILES.iter().map(|(name, _)| *name).collect();
        for expected in [
            "corrected-utf8/decode.json",
            "corrected-utf8/encode.json",
            "corrected-utf8/document.json",
            "utf-8/decode.json",
            "utf-8/encode.json",
            "utf-8/table-3.1b.json",
            "utf-inf-8/decode.json",
            "utf-inf-8/encode.json",
        ] {
            assert!(
                files.contains(&expected),
                "{expected} not embedded: {files:?}"
            );
        }
        assert!(!files.iter().any(|f| f.ends_with(".schema.json")));
        // Reading panics on a malformed vector; the big UTF-∞-8 code points are kept.
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
    fn unhex_reads_pairs_only() {
        assert_eq!(unhex("c080"), Some(vec![0xC0, 0x80]));
        assert_eq!(unhex(""), Some(vec![]));
        assert_eq!(unhex("c08"), None);
        assert_eq!(unhex("zz"), None);
    }
}
