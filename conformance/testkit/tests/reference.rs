//! The harness against the reference codec (crate `corrected-utf8`), all three
//! encodings with every operation: a correct implementation passes every check, and a
//! deliberately broken adapter of it fails them.

use conformance_testkit as testkit;
use conformance_testkit::{
    CodePoint, Encoding, Event, Finding, FindingKind, Implementation, Kind, Op, Stop, Validity,
};
use corrected_utf8 as codec;
use corrected_utf8::BigCodePoint;

/// A break to put into the adapter, to show the checks catch it.
#[derive(Clone, Copy, PartialEq)]
enum Break {
    None,
    /// The streaming hook never calls `finish`: a sequence cut by the end is lost.
    NoFinish,
    /// `decode` reports a `truncated` span one byte longer (the byte after it swallowed).
    LongTruncated,
}

struct Reference {
    encoding: codec::Encoding,
    bug: Break,
}

fn reference(encoding: codec::Encoding) -> Reference {
    Reference {
        encoding,
        bug: Break::None,
    }
}

fn code_point(cp: &BigCodePoint) -> CodePoint {
    CodePoint::from_hex(&format!("{cp:X}")).expect("hex digits")
}

fn kind(k: codec::ErrorKind) -> Kind {
    Kind::from_name(k.as_str()).expect("an error kind")
}

fn event(located: codec::Located<BigCodePoint>) -> Event {
    let offset = usize::try_from(located.offset).expect("small inputs");
    let length = usize::try_from(located.length).expect("small inputs");
    match located.event {
        codec::Event::CodePoint(cp) => Event::CodePoint(code_point(&cp)),
        codec::Event::Error(e) => Event::Error {
            kind: kind(e.kind),
            offset,
            length,
        },
        codec::Event::Reserved(_) => Event::Reserved { offset, length },
    }
}

fn finding(f: codec::Finding) -> Finding {
    Finding {
        kind: FindingKind::from_name(f.kind.as_str()).expect("a finding kind"),
        offset: usize::try_from(f.offset).expect("small inputs"),
        line: usize::try_from(f.line).expect("small inputs"),
        column: usize::try_from(f.column).expect("small inputs"),
    }
}

impl Implementation for Reference {
    fn encoding(&self) -> Encoding {
        Encoding::from_name(self.encoding.name()).expect("the same three encodings")
    }

    fn name(&self) -> String {
        "reference codec".to_owned()
    }

    fn decode(&self, input: &[u8]) -> Option<Vec<Event>> {
        let mut events: Vec<Event> = self.encoding.events_located(input).map(event).collect();
        if self.bug == Break::LongTruncated {
            for e in &mut events {
                if let Event::Error {
                    kind: Kind::Truncated,
                    length,
                    offset,
                } = e
                {
                    if *offset + *length < input.len() {
                        *length += 1;
                    }
                }
            }
        }
        Some(events)
    }

    fn decode_chunks(&self, chunks: &[&[u8]]) -> Option<Vec<Event>> {
        let mut decoder = self.encoding.new_decoder();
        let mut events = Vec::new();
        for chunk in chunks {
            decoder.push(chunk, |e| events.push(event(e)));
        }
        if self.bug != Break::NoFinish {
            decoder.finish(|e| events.push(event(e)));
        }
        Some(events)
    }

    fn decode_lossy(&self, input: &[u8]) -> Option<Vec<CodePoint>> {
        Some(
            self.encoding
                .decode_lossy(input)
                .iter()
                .map(code_point)
                .collect(),
        )
    }

    fn decode_strict(&self, input: &[u8]) -> Option<Result<Vec<CodePoint>, Stop>> {
        Some(match self.encoding.decode(input) {
            Ok(cps) => Ok(cps.iter().map(code_point).collect()),
            Err(stop) => {
                let offset = usize::try_from(stop.offset()).expect("small inputs");
                let length = usize::try_from(stop.length()).expect("small inputs");
                Err(match stop {
                    codec::Stop::Reserved(_) => Stop::Reserved { offset, length },
                    codec::Stop::Error(e) => Stop::Error {
                        kind: Some(kind(e.kind)),
                        offset,
                        length,
                    },
                })
            }
        })
    }

    fn validity(&self, input: &[u8]) -> Option<Validity> {
        Some(match self.encoding.validity(input) {
            codec::Validity::Valid => Validity::Valid,
            codec::Validity::Reserved => Validity::Reserved,
            codec::Validity::Invalid => Validity::Invalid,
        })
    }

    fn is_valid(&self, input: &[u8]) -> Option<bool> {
        Some(self.encoding.validate(input).is_ok())
    }

    fn encode(&self, code_point: &CodePoint) -> Option<Result<Vec<u8>, Option<Kind>>> {
        let encoded = match self.encoding {
            codec::Encoding::CorrectedUtf8 => codec::corrected::encode([code_point.to_u32()?]),
            codec::Encoding::Utf8 => codec::utf8::encode([code_point.to_u32()?]),
            codec::Encoding::UtfInf8 => {
                let big: BigCodePoint = code_point.hex().parse().expect("hex digits");
                codec::utf_inf8::encode([&big])
            }
        };
        Some(encoded.map_err(|e| Some(kind(e.kind))))
    }

    fn check_document(&self, file: &[u8]) -> Option<Vec<Finding>> {
        (self.encoding == codec::Encoding::CorrectedUtf8).then(|| {
            codec::check_document(file)
                .into_iter()
                .map(finding)
                .collect()
        })
    }

    fn check_document_chunks(&self, chunks: &[&[u8]]) -> Option<Vec<Finding>> {
        if self.encoding != codec::Encoding::CorrectedUtf8 {
            return None;
        }
        let mut checker = codec::DocumentChecker::new();
        let mut findings = Vec::new();
        for chunk in chunks {
            checker.push(chunk, |f| findings.push(finding(f)));
        }
        checker.finish(|f| findings.push(finding(f)));
        Some(findings)
    }
}

#[test]
fn the_reference_codec_passes_every_vector_of_every_encoding_with_every_operation() {
    for encoding in codec::Encoding::ALL {
        let report = testkit::check_vectors(&reference(encoding));
        report.assert_passed();
        let mut expected = vec![
            Op::Decode,
            Op::DecodeChunks,
            Op::DecodeLossy,
            Op::DecodeStrict,
            Op::Validity,
            Op::IsValid,
            Op::Encode,
        ];
        if encoding == codec::Encoding::CorrectedUtf8 {
            expected.extend([Op::CheckDocument, Op::CheckDocumentChunks]);
        }
        assert_eq!(report.ops_checked(), expected, "{report}");
        assert!(report.cases > 900, "{report}");
    }
}

#[test]
fn vectors_with_a_flag_asked_for_are_skipped() {
    let all = testkit::check_vectors(&reference(codec::Encoding::UtfInf8));
    let fewer =
        testkit::check_vectors_skipping(&reference(codec::Encoding::UtfInf8), &["LargeInput"]);
    assert_eq!(all.skipped, 0);
    assert!(fewer.skipped > 0 && fewer.passed(), "{fewer}");
    assert_eq!(fewer.cases + fewer.skipped, all.cases);
}

#[test]
fn the_reference_codec_passes_the_exhaustive_walk_to_two_bytes() {
    for encoding in codec::Encoding::ALL {
        let report = testkit::check_exhaustive(&reference(encoding), 2);
        report.assert_passed();
        assert_eq!(report.cases, 256 + 65_536);
    }
}

#[test]
#[ignore = "16.8 million inputs per encoding: minutes; run with --ignored"]
fn the_reference_codec_passes_the_exhaustive_walk_to_three_bytes() {
    for encoding in codec::Encoding::ALL {
        testkit::assert_exhaustive(&reference(encoding), 3);
    }
}

#[test]
fn the_reference_codec_passes_the_fuzz_loop_and_the_committed_corpus() {
    for encoding in codec::Encoding::ALL {
        testkit::assert_fuzz(&reference(encoding), 20_261_123, 3_000);
    }
    // The repository's fuzz corpus of the decode target, replayed.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/decode");
    let inputs: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("the committed corpus")
        .map(|e| std::fs::read(e.expect("an entry").path()).expect("a corpus file"))
        .collect();
    assert!(!inputs.is_empty());
    testkit::assert_inputs(&reference(codec::Encoding::CorrectedUtf8), &inputs);
}

#[test]
fn a_streaming_hook_that_never_finishes_fails_every_check_on_a_cut_sequence() {
    let broken = Reference {
        encoding: codec::Encoding::Utf8,
        bug: Break::NoFinish,
    };
    let vectors = testkit::check_vectors(&broken);
    assert!(!vectors.passed());
    assert!(
        vectors.failures.iter().all(|f| f.op == Op::DecodeChunks),
        "{vectors}"
    );

    let exhaustive = testkit::check_exhaustive(&broken, 1);
    assert!(!exhaustive.passed());
    // `C2` alone: a truncated span at the end, reported only by `finish`.
    assert!(exhaustive.fails_on("c2"), "{exhaustive}");

    let fuzz = testkit::check_fuzz(&broken, 1, 500);
    assert!(!fuzz.passed(), "{fuzz}");
    let panic = std::panic::catch_unwind(|| testkit::fuzz_one(&broken, b"\xE2\x82"));
    assert!(panic.is_err());
}

#[test]
fn a_truncated_span_that_swallows_the_next_byte_fails_every_check() {
    for encoding in codec::Encoding::ALL {
        let broken = Reference {
            encoding,
            bug: Break::LongTruncated,
        };
        let vectors = testkit::check_vectors(&broken);
        assert!(!vectors.passed());
        assert!(
            vectors.failures.iter().all(|f| f.op == Op::Decode),
            "{vectors}"
        );
        let exhaustive = testkit::check_exhaustive(&broken, 2);
        // The first one: a 2-byte lead, then `00`.
        let first = &exhaustive.failures[0];
        assert!(first.input.ends_with(" 00"), "{exhaustive}");
        assert!(
            first.expected.starts_with("[truncated@0+1,"),
            "{exhaustive}"
        );
        assert!(!testkit::check_fuzz(&broken, 2, 500).passed());
        assert!(!testkit::check_inputs(&broken, [b"\xC2A"]).passed());
    }
}

/// An implementation that gives nothing, and one whose validator gives up on `FF`.
struct Nothing(bool);

impl Implementation for Nothing {
    fn encoding(&self) -> Encoding {
        Encoding::Utf8
    }

    fn is_valid(&self, input: &[u8]) -> Option<bool> {
        // With `true`: answers, except for inputs with FF (a regression to "unsupported").
        (self.0 && !input.contains(&0xFF)).then(|| std::str::from_utf8(input).is_ok())
    }
}

#[test]
fn nothing_checkable_fails_and_so_does_an_operation_answered_only_sometimes() {
    for report in [
        testkit::check_vectors(&Nothing(false)),
        testkit::check_exhaustive(&Nothing(false), 1),
        testkit::check_fuzz(&Nothing(false), 3, 10),
    ] {
        assert!(!report.passed());
        assert_eq!(report.comparisons, 0);
        assert!(report.to_string().contains("nothing checkable"), "{report}");
    }
    let panic = std::panic::catch_unwind(|| testkit::fuzz_one(&Nothing(false), b"a"));
    assert!(panic.is_err());

    let sometimes = testkit::check_exhaustive(&Nothing(true), 1);
    assert!(!sometimes.passed());
    assert_eq!(sometimes.failed, 1, "{sometimes}");
    assert_eq!(sometimes.failures[0].input, "ff");
    assert_eq!(sometimes.failures[0].op, Op::IsValid);
}

#[test]
fn a_report_names_the_case_the_input_the_operation_and_both_answers() {
    let broken = Reference {
        encoding: codec::Encoding::Utf8,
        bug: Break::LongTruncated,
    };
    let report = testkit::check_inputs(&broken, [b"\xC2A"]);
    let failure = &report.failures[0];
    assert_eq!(failure.case, "input 0");
    assert_eq!(failure.input, "c2 41");
    assert_eq!(failure.op, Op::Decode);
    assert_eq!(failure.expected, "[truncated@0+1, U+0041]");
    assert_eq!(failure.got, "[truncated@0+2, U+0041]");
    let text = report.to_string();
    assert!(
        text.contains(
            "input 0 [c2 41] decode: expected [truncated@0+1, U+0041], got [truncated@0+2, U+0041]"
        ),
        "{text}"
    );
}

/// The reference UTF-∞-8 decoder with another code length limit.
struct Limited(u32);

impl Implementation for Limited {
    fn encoding(&self) -> Encoding {
        Encoding::UtfInf8
    }

    fn code_length_limit(&self) -> usize {
        self.0 as usize
    }

    fn decode(&self, input: &[u8]) -> Option<Vec<Event>> {
        Some(
            codec::utf_inf8::events_with_limit(input, self.0)
                .located()
                .map(event)
                .collect(),
        )
    }
}

#[test]
fn another_code_length_limit_skips_the_limit_vectors_and_is_the_oracles_limit() {
    // The vectors flagged for the default limit are skipped; the others are decoded by
    // the oracle at the implementation's limit (at 4 096, three cases of the limit group
    // without a limit flag change: `FF B4 B4 B4 B4` is over it).
    for limit in [4096, 12] {
        let vectors = testkit::check_vectors(&Limited(limit));
        vectors.assert_passed();
        assert!(vectors.skipped > 0, "{vectors}");
    }
    // 12, below every long form (`FF` alone is over it).
    testkit::assert_exhaustive(&Limited(12), 2);
    testkit::assert_fuzz(&Limited(12), 12, 2_000);
    // Under the default limit the same decoder disagrees on `FF` alone.
    struct Default;
    impl Implementation for Default {
        fn encoding(&self) -> Encoding {
            Encoding::UtfInf8
        }
        fn decode(&self, input: &[u8]) -> Option<Vec<Event>> {
            Limited(12).decode(input)
        }
    }
    let report = testkit::check_exhaustive(&Default, 1);
    assert_eq!(report.failures[0].input, "ff", "{report}");
    assert_eq!(report.failures[0].got, "[limit-exceeded@0+1]");
}

/// UTF-8 whose encoder is one off on U+07FF, the last of Table 3-7's second row
/// (`DF BE` for `DF BF`).
struct OffOn7ff;

impl Implementation for OffOn7ff {
    fn encoding(&self) -> Encoding {
        Encoding::Utf8
    }

    fn encode(&self, code_point: &CodePoint) -> Option<Result<Vec<u8>, Option<Kind>>> {
        let cp = code_point.to_u32()?;
        if cp == 0x7FF {
            return Some(Ok(vec![0xDF, 0xBE]));
        }
        Some(codec::utf8::encode([cp]).map_err(|_| None))
    }
}

#[test]
fn the_string_vectors_are_checked_through_the_encoder() {
    let report = testkit::check_vectors(&OffOn7ff);
    assert!(!report.passed());
    // The valid lists holding U+07FF fail by their bytes (encode.json by one case).
    let strings: Vec<&str> = report
        .failures
        .iter()
        .map(|f| f.case.as_str())
        .filter(|c| c.starts_with("utf-8/encode-string.json#"))
        .collect();
    assert!(strings.len() >= 5, "{report}");
    let fine = OnlyFailed;
    testkit::assert_vectors(&fine);
}

/// The reference's UTF-8 encoder saying only "it failed" for the code points without an
/// encoding, which the vectors accept (the index of a string's first failure still
/// counts).
struct OnlyFailed;

impl Implementation for OnlyFailed {
    fn encoding(&self) -> Encoding {
        Encoding::Utf8
    }

    fn encode(&self, code_point: &CodePoint) -> Option<Result<Vec<u8>, Option<Kind>>> {
        let cp = code_point.to_u32()?;
        Some(codec::utf8::encode([cp]).map_err(|_| None))
    }
}
