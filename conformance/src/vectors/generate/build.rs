//! Test constructors shared by the vector families, and the input families several
//! files use.

use crate::vectors::model::{
    format_codepoint, to_hex, DecodeTest, DocumentFinding, DocumentTest, EncodeTest, OutputEvent,
    Severity, TestGroup, TestResult,
};
use conformance_literal::{corrected, Event, Kind, Validity};
use std::collections::HashSet;

/// Bytes as in comments: `C0 AF`, shortened when long.
pub(super) fn spaced(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "(empty)".to_string();
    }
    let show = |b: &[u8]| b.iter().map(|b| format!("{b:02X}")).collect::<Vec<_>>();
    if bytes.len() <= 24 {
        show(bytes).join(" ")
    } else {
        format!(
            "{} … {} ({} bytes)",
            show(&bytes[..8]).join(" "),
            show(&bytes[bytes.len() - 4..]).join(" "),
            bytes.len()
        )
    }
}

pub(super) fn cp_text(cp: u32) -> String {
    format_codepoint(u64::from(cp))
}

pub(super) fn strings(flags: &[&str]) -> Vec<String> {
    let mut seen = HashSet::new();
    flags
        .iter()
        .filter(|f| seen.insert(**f))
        .map(|f| f.to_string())
        .collect()
}

pub(crate) type Decoder = fn(&[u8]) -> Vec<Event>;

pub(super) fn output_of(events: &[Event]) -> Vec<OutputEvent> {
    events
        .iter()
        .map(|e| match *e {
            Event::CodePoint(cp) => OutputEvent::CodePoint {
                codepoint: cp_text(cp),
            },
            Event::Error {
                kind,
                offset,
                length,
            } => OutputEvent::Error {
                error: kind.as_str().to_string(),
                offset: offset as u64,
                length: length as u64,
            },
            Event::Reserved { offset, length } => OutputEvent::Reserved {
                reserved: true,
                offset: offset as u64,
                length: length as u64,
            },
        })
        .collect()
}

pub(crate) fn decode_test(
    decoder: Decoder,
    comment: String,
    flags: &[&str],
    input: &[u8],
) -> DecodeTest {
    let events = decoder(input);
    let result = match Validity::of(&events) {
        Validity::Valid => TestResult::Valid,
        Validity::Reserved => TestResult::Reserved,
        Validity::Invalid => TestResult::Invalid,
    };
    DecodeTest {
        tc_id: 0,
        comment,
        flags: strings(flags),
        input: to_hex(input),
        output: output_of(&events),
        result,
    }
}

pub(crate) fn encode_test(
    encoder: fn(u32) -> Result<Vec<u8>, Kind>,
    comment: String,
    flags: &[&str],
    cp: u32,
) -> EncodeTest {
    let (bytes, error, result) = match encoder(cp) {
        Ok(b) => (Some(to_hex(&b)), None, TestResult::Valid),
        Err(k) => (None, Some(k.as_str().to_string()), TestResult::Invalid),
    };
    EncodeTest {
        tc_id: 0,
        comment,
        flags: strings(flags),
        codepoint: cp_text(cp),
        bytes,
        error,
        result,
    }
}

pub(crate) fn document_test(comment: String, flags: &[&str], file: &[u8]) -> DocumentTest {
    let findings: Vec<DocumentFinding> = corrected::check_document(file)
        .into_iter()
        .map(|f| DocumentFinding {
            kind: f.kind.as_str().to_string(),
            severity: match f.severity() {
                corrected::Severity::Error => Severity::Error,
                corrected::Severity::Warning => Severity::Warning,
            },
            offset: f.offset as u64,
            line: f.line as u64,
            column: f.column as u64,
        })
        .collect();
    let result = if findings.iter().any(|f| f.severity == Severity::Error) {
        TestResult::Invalid
    } else {
        TestResult::Valid
    };
    DocumentTest {
        tc_id: 0,
        comment,
        flags: strings(flags),
        input: to_hex(file),
        findings,
        result,
    }
}

/// Groups under construction.
pub(super) struct Groups<T> {
    pub(super) groups: Vec<TestGroup<T>>,
}

impl<T> Groups<T> {
    pub(super) fn new() -> Self {
        Groups { groups: Vec::new() }
    }

    pub(super) fn group(&mut self, comment: impl Into<String>) {
        self.groups.push(TestGroup {
            comment: comment.into(),
            tests: Vec::new(),
        });
    }

    pub(super) fn push(&mut self, test: T) {
        if let Some(g) = self.groups.last_mut() {
            g.tests.push(test);
        }
    }
}

/// Continuation bytes used after a lead in the lead-byte families (varied on purpose).
pub(super) const CONTS: [u8; 6] = [0xBF, 0x80, 0xA5, 0x9A, 0xB3, 0x8C];

/// What follows the sequence under test: comment text, bytes, flag.
pub(super) const TERMINATORS: [(&str, &[u8], &str); 4] = [
    ("end of input", &[], "ThenEnd"),
    ("41", &[0x41], "ThenAscii"),
    ("C3 A9", &[0xC3, 0xA9], "ThenLead"),
    ("FE", &[0xFE], "ThenFE"),
];

/// The byte order mark cases of a decode file (flag `Bom`): `bom`, the encoding's bytes
/// of U+FEFF, alone, at the start of a text, in the middle, twice, and cut short to each
/// shorter prefix (alone and before `41`). SPEC §1: none of the encodings has a BOM, so
/// U+FEFF decodes as a code point wherever it stands and a cut-short one is an ordinary
/// truncated sequence; the expected events come from the decoder all the same.
pub(super) fn bom_inputs(bom: &[u8]) -> Vec<(String, Vec<u8>)> {
    let b = spaced(bom);
    let mut cases = vec![
        (
            format!("{b}: U+FEFF alone, decoded as U+FEFF (never stripped)"),
            bom.to_vec(),
        ),
        (
            format!("{b} 41 42: U+FEFF at the start of the input, then AB: three code points, U+FEFF kept"),
            [bom, b"AB"].concat(),
        ),
        (
            format!("41 {b} 42: U+FEFF in the middle, a code point like any other"),
            [b"A", bom, b"B"].concat(),
        ),
        (
            format!("{b} {b} 41: U+FEFF twice at the start: both kept"),
            [bom, bom, b"A"].concat(),
        ),
    ];
    for k in (1..bom.len()).rev() {
        let cut = &bom[..k];
        cases.push((
            format!(
                "{}: a BOM cut short after {k} byte(s): an ordinary truncated sequence",
                spaced(cut)
            ),
            cut.to_vec(),
        ));
        cases.push((
            format!(
                "{} 41: a BOM cut short after {k} byte(s), then A: truncated, then U+0041",
                spaced(cut)
            ),
            [cut, b"A"].concat(),
        ));
    }
    cases
}
