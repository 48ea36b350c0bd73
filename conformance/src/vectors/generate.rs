//! `conformance generate`: rewrites `vectors/` from the spec-literal code.
//!
//! Expected results come only from [`conformance_literal`]. Output is deterministic: the
//! cases are listed in code order, and each keeps the `tcId` it has in the committed
//! file, matched by (group comment, input or code point); a new case gets one more than
//! the file's highest `tcId`. `--check` writes nothing and fails when a committed file
//! differs from what would be written.

use super::model::{
    format_codepoint, to_hex, to_pretty_json, AnyVectorFile, DecodeTest, DocumentFinding,
    DocumentTest, EncodeTest, Note, OutputEvent, Schema, Severity, TestCase, TestGroup, TestResult,
    VectorFile,
};
use crate::audit::{self, Disagreement};
use conformance_literal::{corrected, table31b, utf8, Event, Kind};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::process::ExitCode;

mod utf_inf8;

/// The vector set's version (`vectors/README.md`, "Versioning").
pub const VERSION: &str = "1.1.0";

/// The generated files, relative to `vectors/`.
pub const FILES: [&str; 8] = [
    "corrected-utf8/decode.json",
    "corrected-utf8/encode.json",
    "corrected-utf8/document.json",
    "utf-8/decode.json",
    "utf-8/encode.json",
    "utf-8/table-3.1b.json",
    "utf-inf-8/decode.json",
    "utf-inf-8/encode.json",
];

const SEMANTICS: &str = "docs/semantics.md";

// ---------------------------------------------------------------------------------
// Flags and their notes.

/// Every flag but the numbered `Table3.1b-rowN` ones: name, description, links.
#[rustfmt::skip]
const FLAGS: &[(&str, &str, &[&str])] = &[
    ("TableRowFirst", "The first code point of a row of the encoding's table (Corrected UTF-8: seed 000 \"Putting it all together\"; UTF-8: Unicode Table 3-7), and its byte sequence.", &[SEMANTICS]),
    ("TableRowLast", "The last code point of a row of the encoding's table, and its byte sequence.", &[SEMANTICS]),
    ("Boundary", "A code point on one side of a boundary: a row change, a gap that cannot be encoded, or the end of the code space.", &[SEMANTICS]),
    ("RowBoundary", "Table 3-7: one byte of a row's lowest or highest sequence set to the first or last byte of its range, or to the byte just outside it.", &[SEMANTICS]),
    ("C1Control", "U+0080..U+009F: Corrected UTF-8 does not encode the C1 controls (encode error c1-control).", &[SEMANTICS]),
    ("Surrogate", "U+D800..U+DFFF: not encodable (encode error surrogate); in UTF-8 and UTF-∞-8, ED A0..BF is a surrogate error span (the lead alone).", &[SEMANTICS]),
    ("SurrogatePair", "UTF-8: a high and a low surrogate, each encoded on its own (CESU-8 style); both are errors.", &[SEMANTICS]),
    ("OutOfRange", "Above the encoding's last code point (Corrected UTF-8: U+8421109F; UTF-8: U+10FFFF), or a UTF-8 sequence that would decode there (F4 90..BF, F5..FD).", &[SEMANTICS]),
    ("BeyondUnicode", "A code point above U+10FFFF, which Corrected UTF-8 (4-, 5- and 6-byte sequences) and UTF-∞-8 encode.", &[SEMANTICS]),
    ("Noncharacter", "A noncharacter (U+FDD0..U+FDEF, U+nFFFE, U+nFFFF): valid in every encoding here.", &[SEMANTICS]),
    ("Sample", "An ordinary character, encoded.", &[]),
    ("SeedExample", "An example given in a seed text (000: C0 AF is U+00CF; 004: the decoder examples).", &[SEMANTICS]),
    ("UnicodeTable3-8", "The example of Unicode Table 3-8 (\"Use of U+FFFD in UTF-8 Conversion\"): one U+FFFD per maximal subpart.", &["https://www.unicode.org/versions/latest/ch03.pdf"]),
    ("Empty", "The empty input.", &[]),
    ("Mixed", "Several characters and errors in one input: offsets and resynchronisation.", &[SEMANTICS]),
    ("LeadByte", "A lead byte (C0..FF) followed by 0 or more continuation bytes and then a terminator (ThenEnd, ThenAscii, ThenLead, ThenFE).", &[SEMANTICS]),
    ("CompleteSequence", "The lead byte has all its continuation bytes: one code point.", &[SEMANTICS]),
    ("Truncated", "A lead byte with fewer continuation bytes than it needs (error truncated: the lead and the continuation bytes present).", &[SEMANTICS]),
    ("ThenEnd", "The sequence under test is followed by the end of the input.", &[]),
    ("ThenAscii", "The sequence under test is followed by ASCII 41.", &[]),
    ("ThenLead", "The sequence under test is followed by C3 A9, a complete 2-byte sequence in every encoding here: decoding resumes there.", &[]),
    ("ThenFE", "The sequence under test is followed by FE (Corrected UTF-8: a reserved span; UTF-8: invalid-byte).", &[]),
    ("UnexpectedContinuation", "A continuation byte (80..BF) where a sequence must start: one error span per byte.", &[SEMANTICS]),
    ("ContinuationRun", "Several stray continuation bytes in a row: still one span per byte.", &[SEMANTICS]),
    ("Reserved", "Corrected UTF-8: FE or FF starts a reserved span that runs up to, not including, the next recognized lead byte (00..7F, C0..FD).", &[SEMANTICS]),
    ("ReservedLongRun", "Corrected UTF-8: a reserved span of about 1000 bytes, one event however long.", &[SEMANTICS]),
    ("MagicNumber", "The magic number EF B7 9D ED B2 AE 00 0A (U+10E7D U+ED4E U+0000 U+000A). In a decode it is ordinary text; in a document only at the very start is it not text.", &[SEMANTICS]),
    ("MagicPrefix", "A file made of a proper prefix of the magic number: it has no magic number, and its bytes are text.", &[SEMANTICS]),
    ("Overlong", "UTF-8: a non-shortest form (C0, C1; E0 80..9F; F0 80..8F): the lead alone is the error span.", &[SEMANTICS]),
    ("MaximalOverlong", "UTF-8: the highest overlong form of each length (Markus Kuhn's UTF-8 stress test, 4.2).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("OverlongSolidus", "UTF-8: U+002F '/' in an overlong form (Kuhn 4.1).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("OverlongNul", "UTF-8: U+0000 in an overlong form (Kuhn 4.3).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("LonelyStartByte", "UTF-8: a lead byte followed by a space (Kuhn 3.2).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("MissingContinuation", "UTF-8: a sequence with its last continuation byte missing, alone or concatenated (Kuhn 3.3, 3.4).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("FiveSixByteForm", "UTF-8: a 5- or 6-byte form of the original UTF-8 (F8..FD): each byte is an error span.", &[SEMANTICS]),
    ("InvalidByte", "UTF-8: FE or FF, never valid (error invalid-byte).", &[SEMANTICS]),
    ("KuhnBoundary", "UTF-8: first or last sequence of a length, or another boundary condition (Kuhn 2.1-2.3).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("Table3.1b-disagrees", "Table 3.1b as transcribed and Table 3-7 give different verdicts for this input (result follows Table 3-7). See vectors/README.md, \"Table 3.1b errata\".", &["vectors/README.md"]),
    ("Table3.1b-flags-well-formed", "Table 3.1b calls this input ill-formed, but it is well-formed per Table 3-7.", &["vectors/README.md"]),
    ("Table3.1b-misses-ill-formed", "No row of Table 3.1b matches, but the input is ill-formed per Table 3-7.", &["vectors/README.md"]),
    ("MissingMagic", "Document: the file does not start with the magic number (warning missing-magic at offset 0, line 1, column 1).", &[SEMANTICS]),
    ("Nul", "Document: U+0000 in the text (error nul).", &[SEMANTICS]),
    ("DecodeError", "Document: a decoding error span, reported under its own kind (error).", &[SEMANTICS]),
    ("Cr", "Document: U+000D (warning cr); it does not end a line.", &[SEMANTICS]),
    ("LineSeparator", "Document: U+2028 (warning line-separator); it does not end a line.", &[SEMANTICS]),
    ("ParagraphSeparator", "Document: U+2029 (warning paragraph-separator).", &[SEMANTICS]),
    ("C0Control", "Document: U+0001..U+001F other than U+000A and U+000D (warning c0-control), TAB included.", &[SEMANTICS]),
    ("NotAFinding", "Document: characters that raise no finding (U+000A, U+007F DEL, others).", &[SEMANTICS]),
    ("MissingFinalNewline", "Document: non-empty text whose last event is not U+000A, an error span included (warning at the end of the input).", &[SEMANTICS]),
    ("Position", "Document: line and column counting (lines from after the magic number, only U+000A ends a line, one column per code point or error span).", &[SEMANTICS]),
];

/// The note for `flag`, or `None` for an unknown flag.
fn note_for(flag: &str) -> Option<Note> {
    if let Some(n) = flag.strip_prefix("Table3.1b-row") {
        let number: u8 = n.parse().ok()?;
        let row = table31b::TABLE_3_1B.iter().find(|r| r.number == number)?;
        return Some(Note {
            description: format!(
                "Row {number} of Table 3.1b as transcribed in seed 001 ({}) matches a contiguous run of the input.",
                row31b_text(row)
            ),
            links: Some(vec!["vectors/README.md".to_string()]),
        });
    }
    let (_, description, links) = FLAGS
        .iter()
        .chain(utf_inf8::FLAGS)
        .find(|(name, _, _)| *name == flag)?;
    Some(Note {
        description: description.to_string(),
        links: (!links.is_empty()).then(|| links.iter().map(|l| l.to_string()).collect()),
    })
}

/// A Table 3.1b row as printed: `F0 | 00-9F, C0-FF`.
fn row31b_text(row: &table31b::Row) -> String {
    let cells: Vec<String> = row
        .cells
        .iter()
        .map(|c| match c {
            table31b::Cell::Any => "XX".to_string(),
            table31b::Cell::Ranges(rs) => rs
                .iter()
                .map(|&(lo, hi)| {
                    if lo == hi {
                        format!("{lo:02X}")
                    } else {
                        format!("{lo:02X}-{hi:02X}")
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect();
    cells.join(" | ")
}

// ---------------------------------------------------------------------------------
// Building tests.

/// Bytes as in comments: `C0 AF`, shortened when long.
fn spaced(bytes: &[u8]) -> String {
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

fn cp_text(cp: u32) -> String {
    format_codepoint(u64::from(cp))
}

fn strings(flags: &[&str]) -> Vec<String> {
    let mut seen = HashSet::new();
    flags
        .iter()
        .filter(|f| seen.insert(**f))
        .map(|f| f.to_string())
        .collect()
}

type Decoder = fn(&[u8]) -> Vec<Event>;

fn output_of(events: &[Event]) -> Vec<OutputEvent> {
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
        })
        .collect()
}

fn decode_test(decoder: Decoder, comment: String, flags: &[&str], input: &[u8]) -> DecodeTest {
    let events = decoder(input);
    let result = if events.iter().any(Event::is_error) {
        TestResult::Invalid
    } else {
        TestResult::Valid
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

fn encode_test(
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

fn document_test(comment: String, flags: &[&str], file: &[u8]) -> DocumentTest {
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
struct Groups<T> {
    groups: Vec<TestGroup<T>>,
}

impl<T> Groups<T> {
    fn new() -> Self {
        Groups { groups: Vec::new() }
    }

    fn group(&mut self, comment: impl Into<String>) {
        self.groups.push(TestGroup {
            comment: comment.into(),
            tests: Vec::new(),
        });
    }

    fn push(&mut self, test: T) {
        if let Some(g) = self.groups.last_mut() {
            g.tests.push(test);
        }
    }
}

/// Identity of a test inside its group, for keeping tcIds.
trait Keyed: TestCase + Serialize {
    fn key(&self) -> &str;
    fn set_tc_id(&mut self, id: u64);
    fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>>
    where
        Self: Sized;
}

impl Keyed for DecodeTest {
    fn key(&self) -> &str {
        &self.input
    }
    fn set_tc_id(&mut self, id: u64) {
        self.tc_id = id;
    }
    fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>> {
        match file {
            AnyVectorFile::Decode(f) => Some(f),
            _ => None,
        }
    }
}

impl Keyed for EncodeTest {
    fn key(&self) -> &str {
        &self.codepoint
    }
    fn set_tc_id(&mut self, id: u64) {
        self.tc_id = id;
    }
    fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>> {
        match file {
            AnyVectorFile::Encode(f) => Some(f),
            _ => None,
        }
    }
}

impl Keyed for DocumentTest {
    fn key(&self) -> &str {
        &self.input
    }
    fn set_tc_id(&mut self, id: u64) {
        self.tc_id = id;
    }
    fn from_any(file: AnyVectorFile) -> Option<VectorFile<Self>> {
        match file {
            AnyVectorFile::Document(f) => Some(f),
            _ => None,
        }
    }
}

/// The header line that records the highest tcId ever assigned in a file, so that the
/// id of a removed case is never given to a new one.
const HIGH_WATER: &str = "Highest tcId ever assigned in this file (never reused): ";

/// Turns groups into a file's JSON: drops repeated keys within a group, keeps committed
/// tcIds, numbers new cases, and explains every flag used.
fn finish<T: Keyed>(
    schema: Schema,
    encoding: &str,
    mut header: Vec<String>,
    groups: Groups<T>,
    existing: Option<String>,
) -> Result<String, String> {
    let mut ids: HashMap<(String, String), u64> = HashMap::new();
    let mut next = 1;
    if let Some(text) = existing {
        let file = AnyVectorFile::from_json(&text)
            .ok()
            .and_then(T::from_any)
            .ok_or_else(|| {
                format!(
                    "the committed {encoding} {} file does not parse as one; fix or delete it",
                    schema.as_str()
                )
            })?;
        for g in &file.test_groups {
            for t in &g.tests {
                ids.insert((g.comment.clone(), t.key().to_string()), t.tc_id());
                next = next.max(t.tc_id() + 1);
            }
        }
        let recorded = file.header.iter().find_map(|l| {
            l.strip_prefix(HIGH_WATER)?
                .trim_end_matches('.')
                .parse::<u64>()
                .ok()
        });
        if let Some(high) = recorded {
            next = next.max(high + 1);
        }
    }
    let mut test_groups = Vec::new();
    let mut flags_used = BTreeSet::new();
    let mut count = 0;
    for mut group in groups.groups {
        let mut seen = HashSet::new();
        group.tests.retain(|t| seen.insert(t.key().to_string()));
        for t in &mut group.tests {
            let key = (group.comment.clone(), t.key().to_string());
            let id = *ids.entry(key).or_insert_with(|| {
                next += 1;
                next - 1
            });
            t.set_tc_id(id);
            flags_used.extend(t.flags().iter().cloned());
        }
        count += group.tests.len();
        if !group.tests.is_empty() {
            test_groups.push(group);
        }
    }
    header.push(format!("{HIGH_WATER}{}.", next - 1));
    let mut notes = BTreeMap::new();
    for flag in flags_used {
        let note = note_for(&flag).ok_or_else(|| format!("flag {flag} has no note"))?;
        notes.insert(flag, note);
    }
    let file = VectorFile {
        schema,
        encoding: encoding.to_string(),
        version: VERSION.to_string(),
        number_of_tests: count,
        header,
        notes,
        test_groups,
    };
    to_pretty_json(&file)
}

fn header(what: &str) -> Vec<String> {
    vec![
        what.to_string(),
        "Semantics: docs/semantics.md. Fields, flags, versioning and how to import: vectors/README.md.".to_string(),
        "Generated by `cargo run -p conformance -- generate` from the spec-literal code in conformance/src/literal/, written from the seed tables as data and sharing no code with the reference codec. Do not edit by hand; `generate --check` fails when this file is stale.".to_string(),
    ]
}

// ---------------------------------------------------------------------------------
// Shared input families.

/// Continuation bytes used after a lead in the lead-byte families (varied on purpose).
const CONTS: [u8; 6] = [0xBF, 0x80, 0xA5, 0x9A, 0xB3, 0x8C];

/// What follows the sequence under test: comment text, bytes, flag.
const TERMINATORS: [(&str, &[u8], &str); 4] = [
    ("end of input", &[], "ThenEnd"),
    ("41", &[0x41], "ThenAscii"),
    ("C3 A9", &[0xC3, 0xA9], "ThenLead"),
    ("FE", &[0xFE], "ThenFE"),
];

/// A group comment and its (input, comment) cases.
type CaseGroup = (String, Vec<(Vec<u8>, String)>);

/// The inputs of `table-3.1b.json`: (group comment, [(input, comment)]).
fn table31b_cases() -> Vec<CaseGroup> {
    let mut out = Vec::new();
    for row in &table31b::TABLE_3_1B {
        // First and last byte of each printed range; XX: 00, FF and the continuation
        // range's ends, the only bytes where a later cell can matter.
        let choices: Vec<Vec<u8>> = row
            .cells
            .iter()
            .map(|c| match c {
                table31b::Cell::Any => vec![0x00, 0x80, 0xBF, 0xFF],
                table31b::Cell::Ranges(rs) => {
                    let mut v: Vec<u8> = rs.iter().flat_map(|&(lo, hi)| [lo, hi]).collect();
                    v.dedup();
                    v
                }
            })
            .collect();
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
        for choice in &choices {
            inputs = inputs
                .into_iter()
                .flat_map(|prefix| {
                    choice.iter().map(move |&b| {
                        let mut p = prefix.clone();
                        p.push(b);
                        p
                    })
                })
                .collect();
        }
        let mut cases = Vec::new();
        for input in inputs {
            cases.push((
                input.clone(),
                format!("row {}: {}", row.number, spaced(&input)),
            ));
            // The run matches anywhere, so also try it as the start of a sequence that
            // continuation bytes complete to its lead's RFC 2044 length (this is where
            // F0 90..9F shows up; in Corrected UTF-8 these are all code points).
            let want = match input.first() {
                Some(&b) => match corrected::role(b) {
                    corrected::Role::Lead(n) => n,
                    _ => 0,
                },
                None => 0,
            };
            if want > input.len() && input[1..].iter().all(|&b| (0x80..=0xBF).contains(&b)) {
                let mut completed = input.clone();
                completed.resize(want, 0x80);
                cases.push((
                    completed.clone(),
                    format!(
                        "row {}: {}, completed with continuation bytes: {}",
                        row.number,
                        spaced(&input),
                        spaced(&completed)
                    ),
                ));
            }
        }
        out.push((
            format!(
                "Table 3.1b row {}: {} (first and last byte of each range)",
                row.number,
                row31b_text(row)
            ),
            cases,
        ));
    }
    let report = audit::audit_by_classes(audit::MAX_LEN);
    let cases = report
        .classes
        .iter()
        .map(|c| (c.example.clone(), c.disagreement.describe()))
        .collect();
    out.push((
        "Table 3.1b against Table 3-7: the example of each disagreement class found by `conformance audit`".to_string(),
        cases,
    ));
    out
}

/// Whether `b` lies in the inclusive range `r`.
fn in37(r: (u8, u8), b: u8) -> bool {
    r.0 <= b && b <= r.1
}

/// The Table 3.1b flags of an input: matching rows, and disagreement with Table 3-7.
fn table31b_flags(input: &[u8]) -> Vec<String> {
    let rows: BTreeSet<u8> = table31b::matches(input).iter().map(|m| m.row).collect();
    let mut flags: Vec<String> = rows.iter().map(|r| format!("Table3.1b-row{r}")).collect();
    match audit::classify(input) {
        Some(Disagreement::FlagsWellFormed(_)) => {
            flags.push("Table3.1b-disagrees".into());
            flags.push("Table3.1b-flags-well-formed".into());
        }
        Some(Disagreement::MissesIllFormed { .. }) => {
            flags.push("Table3.1b-disagrees".into());
            flags.push("Table3.1b-misses-ill-formed".into());
        }
        None => {}
    }
    flags
}

// ---------------------------------------------------------------------------------
// corrected-utf8

fn corrected_decode() -> Groups<DecodeTest> {
    let dec = |comment: String, flags: &[&str], input: &[u8]| {
        decode_test(corrected::decode, comment, flags, input)
    };
    let mut g = Groups::new();

    g.group("Putting it all together: the first and last sequence of every row");
    for (i, row) in corrected::TABLE.iter().enumerate() {
        for (which, seq, cp, flag) in [
            ("first", row.first, row.first_cp, "TableRowFirst"),
            ("last", row.last, row.last_cp, "TableRowLast"),
        ] {
            g.push(dec(
                format!(
                    "row {} (offset {}): {which} sequence {} is {}",
                    i + 1,
                    row.offset,
                    spaced(seq),
                    cp_text(cp)
                ),
                &[flag],
                seq,
            ));
        }
    }

    g.group("Seed examples and sample characters");
    g.push(dec(
        "seed 000: C0 AF, once an overlong '/', is U+00CF".into(),
        &["SeedExample"],
        &[0xC0, 0xAF],
    ));
    for cp in [
        0x41,
        0xE9,
        0x20AC,
        0xFEFF,
        0xFFFD,
        0xFFFE,
        0x1F600,
        0x10FFFF,
        0x110000,
        0x7FFF_FFFF,
    ] {
        if let Ok(bytes) = corrected::encode(cp) {
            let mut flags = vec!["Sample"];
            if cp == 0xFFFE {
                flags.push("Noncharacter");
            }
            if cp > 0x10FFFF {
                flags.push("BeyondUnicode");
            }
            g.push(dec(format!("{} encoded", cp_text(cp)), &flags, &bytes));
        }
    }

    g.group("Empty input");
    g.push(dec("no bytes, no events".into(), &["Empty"], &[]));

    g.group("Every lead byte C0..FF, followed by 0..n-1 continuation bytes, then end of input, ASCII, another lead or FE");
    for lead in 0xC0..=0xFFu8 {
        let (n, what) = match corrected::role(lead) {
            corrected::Role::Lead(n) => (n, format!("{n}-byte lead")),
            _ => (7, "reserved byte".to_string()),
        };
        for k in 0..n {
            let mut seq = vec![lead];
            seq.extend(&CONTS[..k]);
            for (tname, tbytes, tflag) in TERMINATORS {
                let mut input = seq.clone();
                input.extend(tbytes);
                let state = if lead >= 0xFE {
                    "Reserved"
                } else if k + 1 == n {
                    "CompleteSequence"
                } else {
                    "Truncated"
                };
                g.push(dec(
                    format!(
                        "{lead:02X} ({what}) + {k} continuation byte{}, then {tname}",
                        if k == 1 { "" } else { "s" }
                    ),
                    &["LeadByte", state, tflag],
                    &input,
                ));
            }
        }
    }

    g.group("Stray continuation bytes");
    for b in [0x80, 0x81, 0x9F, 0xA0, 0xBE, 0xBF] {
        g.push(dec(
            format!("{b:02X} alone"),
            &["UnexpectedContinuation"],
            &[b],
        ));
    }
    let all: Vec<u8> = (0x80..=0xBF).collect();
    for (comment, input) in [
        ("80 BF", vec![0x80, 0xBF]),
        ("80 BF 80", vec![0x80, 0xBF, 0x80]),
        (
            "seven continuation bytes",
            vec![0x80, 0xBF, 0x80, 0xBF, 0x80, 0xBF, 0x80],
        ),
        ("all 64 continuation bytes", all),
        ("between ASCII: 41 80 42", vec![0x41, 0x80, 0x42]),
        (
            "after a complete 2-byte sequence: C3 A9 80",
            vec![0xC3, 0xA9, 0x80],
        ),
        (
            "after a complete 6-byte sequence",
            vec![0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x80, 0x80],
        ),
        (
            "interleaved with ASCII: 80 41 BF 42",
            vec![0x80, 0x41, 0xBF, 0x42],
        ),
    ] {
        let flags: &[&str] = if input
            .iter()
            .filter(|&&b| (0x80..=0xBF).contains(&b))
            .count()
            > 1
        {
            &["UnexpectedContinuation", "ContinuationRun"]
        } else {
            &["UnexpectedContinuation"]
        };
        g.push(dec(comment.into(), flags, &input));
    }

    g.group("Reserved FE/FF runs");
    let mut long = vec![0xFE];
    // FE, FF and every continuation byte, cycled: one span of 1000 bytes, then A.
    let cycle: Vec<u8> = [0xFE, 0xFF].into_iter().chain(0x80..=0xBF).collect();
    long.extend(cycle.iter().cycle().take(999));
    let mut long_end = long.clone();
    long.push(0x41);
    long_end.truncate(1000);
    for (comment, input, extra) in [
        ("FE alone", vec![0xFE], None),
        ("FF alone", vec![0xFF], None),
        ("at the end: 41 FE", vec![0x41, 0xFE], None),
        ("at the end: 41 FF", vec![0x41, 0xFF], None),
        ("FE FE: one span", vec![0xFE, 0xFE], None),
        ("FF FE FF FE: one span", vec![0xFF, 0xFE, 0xFF, 0xFE], None),
        (
            "FE FE 80 41: one span of 3, then A (docs/semantics.md §2.4)",
            vec![0xFE, 0xFE, 0x80, 0x41],
            None,
        ),
        (
            "FF + continuations + ASCII",
            vec![0xFF, 0x80, 0x80, 0x41],
            None,
        ),
        (
            "FF + continuation + C0 80: ended by a 2-byte lead",
            vec![0xFF, 0x80, 0xC0, 0x80],
            None,
        ),
        (
            "FF + continuation + C0 alone: ended by a lead that is then truncated",
            vec![0xFF, 0x80, 0xC0],
            None,
        ),
        (
            "FF + continuation + FD and five continuations: ended by a 6-byte lead",
            vec![0xFF, 0xBF, 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF],
            None,
        ),
        ("FE 00: ended by NUL", vec![0xFE, 0x00], None),
        ("FE 7F: ended by DEL", vec![0xFE, 0x7F], None),
        ("FF 0A: ended by LF", vec![0xFF, 0x0A], None),
        (
            "FE + 6 continuation bytes (a UTF-inf-8 7-byte code), then A",
            vec![0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x41],
            None,
        ),
        (
            "FF + 12 continuation bytes (a UTF-inf-8 13-byte code)",
            vec![
                0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
            ],
            None,
        ),
        (
            "a truncated lead, then FE: C3 FE",
            vec![0xC3, 0xFE],
            Some("Truncated"),
        ),
        (
            "a truncated 3-byte lead, then FE 80 and A",
            vec![0xE0, 0x80, 0xFE, 0x80, 0x41],
            Some("Truncated"),
        ),
        (
            "a stray continuation, then FF",
            vec![0x80, 0xFF],
            Some("UnexpectedContinuation"),
        ),
        (
            "a long run: FE and 999 bytes of FE, FF and continuations, then A",
            long,
            Some("ReservedLongRun"),
        ),
        (
            "a long run of 1000 bytes at the end of input",
            long_end,
            Some("ReservedLongRun"),
        ),
    ] {
        let mut flags = vec!["Reserved"];
        flags.extend(extra);
        g.push(dec(comment.into(), &flags, &input));
    }

    g.group("The magic number, as ordinary text to a decoder");
    let magic = corrected::MAGIC.to_vec();
    let mut after_text = b"A\n".to_vec();
    after_text.extend(&magic);
    let mut twice = magic.clone();
    twice.extend(&magic);
    for (comment, input) in [
        (
            "the magic number: U+10E7D U+ED4E U+0000 U+000A",
            magic.clone(),
        ),
        ("after text: 41 0A + magic", after_text),
        ("twice", twice),
        ("its first 7 bytes", magic[..7].to_vec()),
        (
            "its first 2 bytes: a truncated 3-byte sequence",
            magic[..2].to_vec(),
        ),
    ] {
        g.push(dec(comment.into(), &["MagicNumber"], &input));
    }

    g.group("Mixed text");
    let mut mixed = Vec::new();
    for cp in [0x48, 0xE9, 0x20AC, 0x1F600, 0x2110A0, 0x42110A0, 0x0A] {
        mixed.extend(corrected::encode(cp).unwrap_or_default());
    }
    g.push(dec(
        "one character of each length 1-6 bytes, then LF".into(),
        &["Mixed"],
        &mixed,
    ));
    g.push(dec(
        "errors between characters: 41 80 C3 42 FE 80 43 E0 80".into(),
        &["Mixed", "UnexpectedContinuation", "Truncated", "Reserved"],
        &[0x41, 0x80, 0xC3, 0x42, 0xFE, 0x80, 0x43, 0xE0, 0x80],
    ));

    g.group("Table 3.1b inputs (vectors/utf-8/table-3.1b.json) decoded as Corrected UTF-8");
    for (group, cases) in table31b_cases() {
        for (input, comment) in cases {
            let flags: Vec<String> = table31b::matches(&input)
                .iter()
                .map(|m| m.row)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|r| format!("Table3.1b-row{r}"))
                .collect();
            let mut flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            if flags.is_empty() {
                // The audit's examples where no row matches.
                flags.push("Table3.1b-misses-ill-formed");
            }
            let comment = if group.starts_with("Table 3.1b against") {
                format!("audit example: {comment}")
            } else {
                comment
            };
            g.push(dec(comment, &flags, &input));
        }
    }

    g.group(utf_inf8::CROSS_GROUP);
    for input in utf_inf8::cross_inputs() {
        g.push(dec(
            utf_inf8::cross_comment(&input),
            &["CrossEncoding"],
            &input,
        ));
    }
    g
}

fn corrected_encode() -> Groups<EncodeTest> {
    let enc = |comment: String, flags: &[&str], cp: u32| {
        encode_test(corrected::encode, comment, flags, cp)
    };
    let mut g = Groups::new();

    g.group("Putting it all together: the first and last code point of every row");
    for (i, row) in corrected::TABLE.iter().enumerate() {
        g.push(enc(
            format!("row {}: first code point, {}", i + 1, spaced(row.first)),
            &["TableRowFirst"],
            row.first_cp,
        ));
        g.push(enc(
            format!("row {}: last code point, {}", i + 1, spaced(row.last)),
            &["TableRowLast"],
            row.last_cp,
        ));
    }

    g.group("Both sides of every boundary, up to U+FFFFFFFF");
    #[rustfmt::skip]
    let cases: &[(u32, &str, &[&str])] = &[
        (0x7F, "last 1-byte code point, before the C1 gap", &["Boundary"]),
        (0x80, "first C1 control", &["Boundary", "C1Control"]),
        (0x85, "NEL, a C1 control", &["C1Control"]),
        (0x9F, "last C1 control", &["Boundary", "C1Control"]),
        (0xA0, "first 2-byte code point, after the C1 gap", &["Boundary"]),
        (0x89F, "last 2-byte code point", &["Boundary"]),
        (0x8A0, "first 3-byte code point", &["Boundary"]),
        (0xD7FF, "last code point before the surrogates", &["Boundary"]),
        (0xD800, "first surrogate", &["Boundary", "Surrogate"]),
        (0xDBFF, "last high surrogate", &["Surrogate"]),
        (0xDC00, "first low surrogate", &["Surrogate"]),
        (0xDFFF, "last surrogate", &["Boundary", "Surrogate"]),
        (0xE000, "first code point after the surrogates (offset changes)", &["Boundary"]),
        (0xFFFF, "last BMP code point", &["Boundary", "Noncharacter"]),
        (0x10000, "first supplementary code point", &["Boundary"]),
        (0x10FFFF, "last Unicode code point", &["Boundary", "Noncharacter"]),
        (0x110000, "first code point above Unicode", &["Boundary", "BeyondUnicode"]),
        (0x1109F, "last 3-byte code point", &["Boundary"]),
        (0x110A0, "first 4-byte code point", &["Boundary"]),
        (0x21109F, "last 4-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x2110A0, "first 5-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x421109F, "last 5-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x42110A0, "first 6-byte code point", &["Boundary", "BeyondUnicode"]),
        (0x7FFF_FFFF, "the original UTF-8's last code point", &["Boundary", "BeyondUnicode"]),
        (0x8000_0000, "2^31", &["Boundary", "BeyondUnicode"]),
        (0x8421_109F, "last encodable code point", &["Boundary", "BeyondUnicode"]),
        (0x8421_10A0, "first code point past the end", &["Boundary", "OutOfRange"]),
        (0x8421_10A1, "past the end", &["OutOfRange"]),
        (0xFFFF_FFFE, "past the end", &["OutOfRange"]),
        (0xFFFF_FFFF, "largest 32-bit value", &["Boundary", "OutOfRange"]),
    ];
    for &(cp, comment, flags) in cases {
        g.push(enc(comment.into(), flags, cp));
    }

    g.group("Seed examples and sample characters");
    g.push(enc(
        "seed 000: U+00CF is C0 AF".into(),
        &["SeedExample"],
        0xCF,
    ));
    for (cp, comment) in [
        (0x0000, "NUL"),
        (0x000A, "LF"),
        (0x0041, "A"),
        (0x00E9, "é"),
        (0x2028, "LINE SEPARATOR"),
        (0x2029, "PARAGRAPH SEPARATOR"),
        (0x20AC, "€"),
        (0xFEFF, "BOM"),
        (0xFFFD, "REPLACEMENT CHARACTER"),
        (0x1F600, "an emoji"),
    ] {
        g.push(enc(comment.into(), &["Sample"], cp));
    }
    for (cp, comment) in [
        (0x10E7D, "magic number, first code point"),
        (0xED4E, "magic number, second code point"),
    ] {
        g.push(enc(comment.into(), &["MagicNumber"], cp));
    }
    for (cp, comment) in [
        (0xFDD0, "first of U+FDD0..U+FDEF"),
        (0xFDEF, "last of U+FDD0..U+FDEF"),
        (0xFFFE, "U+FFFE"),
        (0x1FFFF, "U+1FFFF"),
    ] {
        g.push(enc(
            format!("noncharacter {comment}"),
            &["Noncharacter"],
            cp,
        ));
    }
    g
}

fn corrected_document() -> Groups<DocumentTest> {
    let doc = |comment: &str, flags: &[&str], file: &[u8]| {
        document_test(comment.to_string(), flags, file)
    };
    let m = |text: &[u8]| -> Vec<u8> {
        let mut v = corrected::MAGIC.to_vec();
        v.extend(text);
        v
    };
    let enc = |cps: &[u32]| corrected::encode_all(cps).unwrap_or_default();
    let ls = enc(&[0x2028]);
    let ps = enc(&[0x2029]);
    let cat = |parts: &[&[u8]]| parts.concat();
    let magic = corrected::MAGIC;
    let mut g = Groups::new();

    g.group("The magic number");
    doc_push(
        &mut g,
        doc(
            "empty file: only missing-magic",
            &["Empty", "MissingMagic"],
            &[],
        ),
    );
    doc_push(
        &mut g,
        doc(
            "the magic number alone: no findings",
            &["MagicNumber"],
            &magic,
        ),
    );
    doc_push(&mut g, doc("magic + A LF", &["MagicNumber"], &m(b"A\n")));
    doc_push(&mut g, doc("magic + LF", &["MagicNumber"], &m(b"\n")));
    doc_push(
        &mut g,
        doc("A LF without the magic number", &["MissingMagic"], b"A\n"),
    );
    for k in 1..magic.len() {
        doc_push(
            &mut g,
            doc(
                &format!("a file of the magic number's first {k} byte{}: no magic number, the bytes are text", if k == 1 { "" } else { "s" }),
                &["MagicPrefix", "MissingMagic"],
                &magic[..k],
            ),
        );
    }
    doc_push(
        &mut g,
        doc(
            "the magic number twice: the second is text, its 00 a nul",
            &["MagicNumber", "Nul"],
            &m(&magic),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "the magic number after text: text, its 00 a nul",
            &["MagicNumber", "MissingMagic", "Nul"],
            &cat(&[b"A\n", &magic]),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "the magic number missing its LF, then text",
            &["MagicPrefix", "MissingMagic", "Nul"],
            &cat(&[&magic[..7], b"A\n"]),
        ),
    );

    g.group("Errors: nul and decoding errors");
    doc_push(&mut g, doc("NUL", &["Nul"], &m(b"\0\n")));
    doc_push(&mut g, doc("NUL between letters", &["Nul"], &m(b"A\0B\n")));
    doc_push(
        &mut g,
        doc(
            "stray continuation byte",
            &["DecodeError", "UnexpectedContinuation"],
            &m(b"A\x80B\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "truncated sequence before LF",
            &["DecodeError", "Truncated"],
            &m(b"A\xC3\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "truncated 3-byte sequence before ASCII",
            &["DecodeError", "Truncated"],
            &m(b"\xE0\x80A\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "reserved span ended by LF",
            &["DecodeError", "Reserved"],
            &m(b"\xFE\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "reserved span swallowing continuation bytes",
            &["DecodeError", "Reserved"],
            &m(b"A\xFF\x80\x80B\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "every error kind on one line",
            &[
                "DecodeError",
                "Nul",
                "UnexpectedContinuation",
                "Truncated",
                "Reserved",
            ],
            &m(b"\0\x80\xC3A\xFE\x80\n"),
        ),
    );

    g.group("Warnings: characters that SHOULD NOT appear");
    doc_push(&mut g, doc("CR LF", &["Cr"], &m(b"A\r\n")));
    doc_push(
        &mut g,
        doc(
            "LINE SEPARATOR",
            &["LineSeparator"],
            &m(&cat(&[b"A", &ls, b"B\n"])),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "PARAGRAPH SEPARATOR",
            &["ParagraphSeparator"],
            &m(&cat(&[b"A", &ps, b"B\n"])),
        ),
    );
    for (b, name) in [
        (0x01u8, "U+0001"),
        (0x09, "TAB (U+0009) is a c0-control, as the seed says"),
        (0x0B, "VT"),
        (0x0C, "FF (form feed)"),
        (0x1B, "ESC"),
        (0x1F, "U+001F"),
    ] {
        doc_push(
            &mut g,
            doc(name, &["C0Control"], &m(&[b'A', b, b'B', b'\n'])),
        );
    }
    doc_push(
        &mut g,
        doc(
            "DEL (U+007F) is not a finding",
            &["NotAFinding"],
            &m(b"A\x7FB\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "U+00A0, U+FFFD, U+10FFFF and U+8421109F are not findings",
            &["NotAFinding"],
            &m(&cat(&[&enc(&[0xA0, 0xFFFD, 0x10FFFF, 0x8421_109F]), b"\n"])),
        ),
    );

    g.group("The final newline");
    doc_push(
        &mut g,
        doc(
            "text without a final LF",
            &["MissingFinalNewline"],
            &m(b"A"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "text ending in CR",
            &["MissingFinalNewline", "Cr"],
            &m(b"A\r"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "text ending in an error span",
            &["MissingFinalNewline", "DecodeError", "Truncated"],
            &m(b"A\n\xC3"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "text ending in a reserved span",
            &["MissingFinalNewline", "DecodeError", "Reserved"],
            &m(b"A\xFE\x80"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "text ending in a 4-byte character",
            &["MissingFinalNewline"],
            &m(&enc(&[0x41, 0x1F600])),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "no magic number, a single byte",
            &["MissingFinalNewline", "MissingMagic"],
            b"A",
        ),
    );
    doc_push(
        &mut g,
        doc("no magic number, a single LF", &["MissingMagic"], b"\n"),
    );
    doc_push(
        &mut g,
        doc("text ending in two LFs", &["NotAFinding"], &m(b"A\n\n")),
    );

    g.group("Positions: offsets, lines and columns");
    doc_push(
        &mut g,
        doc(
            "lines count from after the magic number",
            &["Position", "C0Control"],
            &m(b"A\nB\tC\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "without the magic number, lines count from byte 0",
            &["Position", "MissingMagic", "C0Control"],
            b"\n\n\t",
        ),
    );
    doc_push(
        &mut g,
        doc(
            "a finding at offset 0 comes after missing-magic",
            &["Position", "MissingMagic", "C0Control"],
            b"\t\n",
        ),
    );
    doc_push(
        &mut g,
        doc(
            "CR does not end a line",
            &["Position", "Cr", "C0Control"],
            &m(b"A\rB\t\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "LINE SEPARATOR does not end a line",
            &["Position", "LineSeparator", "C0Control"],
            &m(&cat(&[&ls, b"\t\n"])),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "a multi-byte character is one column",
            &["Position", "C0Control"],
            &m(&cat(&[&enc(&[0xE9, 0x20AC, 0x1F600, 0x42110A0]), b"\t\n"])),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "an error span is one column",
            &[
                "Position",
                "DecodeError",
                "UnexpectedContinuation",
                "Truncated",
                "C0Control",
            ],
            &m(b"A\x80\xE0\x80B\x01\n"),
        ),
    );
    let mut long = m(b"A");
    long.push(0xFE);
    long.extend(std::iter::repeat_n(0x80, 99));
    long.extend(b"\t\n");
    doc_push(
        &mut g,
        doc(
            "a reserved span of 100 bytes is one column",
            &["Position", "DecodeError", "Reserved", "C0Control"],
            &long,
        ),
    );
    doc_push(
        &mut g,
        doc(
            "findings on line 3, offsets in the whole file",
            &["Position", "Nul", "Cr", "C0Control"],
            &m(b"ab\n\ncd\0\r\x1B\n"),
        ),
    );
    doc_push(
        &mut g,
        doc(
            "missing-final-newline on the last line, after the last event",
            &["Position", "MissingFinalNewline"],
            &m(b"A\nBC"),
        ),
    );
    g
}

fn doc_push(g: &mut Groups<DocumentTest>, t: DocumentTest) {
    g.push(t);
}

// ---------------------------------------------------------------------------------
// utf-8

fn utf8_decode() -> Groups<DecodeTest> {
    let dec = |comment: String, flags: &[&str], input: &[u8]| {
        decode_test(utf8::decode, comment, flags, input)
    };
    let mut g = Groups::new();

    g.group("Table 3-7: the first and last code point of every row");
    for row in &utf8::TABLE_3_7 {
        for (which, cp, flag) in [
            ("first", row.first_cp, "TableRowFirst"),
            ("last", row.last_cp, "TableRowLast"),
        ] {
            let bytes = utf8::encode(cp).unwrap_or_default();
            g.push(dec(
                format!(
                    "row {}..{}: {which}, {}",
                    cp_text(row.first_cp),
                    cp_text(row.last_cp),
                    spaced(&bytes)
                ),
                &[flag],
                &bytes,
            ));
        }
    }

    g.group("Table 3-7: each byte of a row's lowest and highest sequence at the ends of its range and just outside");
    for row in &utf8::TABLE_3_7 {
        for high in [false, true] {
            let base: Vec<u8> = row
                .bytes
                .iter()
                .map(|r| if high { r.1 } else { r.0 })
                .collect();
            for (j, &(lo, hi)) in row.bytes.iter().enumerate() {
                for (v, what) in [
                    (lo.checked_sub(1), "just below"),
                    (Some(lo), "first of"),
                    (Some(hi), "last of"),
                    (hi.checked_add(1), "just above"),
                ] {
                    let Some(v) = v else { continue };
                    let mut input = base.clone();
                    input[j] = v;
                    g.push(dec(
                        format!(
                            "row {}..{}: byte {} = {v:02X}, {what} {:02X}..{:02X}: {}",
                            cp_text(row.first_cp),
                            cp_text(row.last_cp),
                            j + 1,
                            lo,
                            hi,
                            spaced(&input)
                        ),
                        &["RowBoundary"],
                        &input,
                    ));
                }
            }
        }
    }

    g.group("Seed 004 examples");
    for (input, comment) in [
        (&[0x41][..], "41 is U+0041"),
        (&[0xED, 0x9F, 0x80], "ED 9F 80 is U+D7C0"),
        (&[0xF4, 0x80, 0x80, 0x8F], "F4 80 80 8F is U+10000F"),
        (&[0xED, 0xBF, 0x80], "ED BF 80: surrogate"),
        (&[0xC1, 0x81], "C1 81: overlong"),
        (&[0x41, 0x42, 0x80], "41 42 80: invalid code unit"),
        (&[0xF2, 0x80, 0x9F, 0xA2], "F2 80 9F A2 is U+807E2"),
    ] {
        g.push(dec(comment.into(), &["SeedExample"], input));
    }

    g.group("Unicode Table 3-8: U+FFFD for maximal subparts");
    g.push(dec(
        "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64".into(),
        &[
            "UnicodeTable3-8",
            "MissingContinuation",
            "UnexpectedContinuation",
        ],
        &[
            0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64,
        ],
    ));

    g.group("Empty input");
    g.push(dec("no bytes, no events".into(), &["Empty"], &[]));

    g.group("Kuhn 2: boundary conditions");
    #[rustfmt::skip]
    let kuhn2: &[(&[u8], &str, &[&str])] = &[
        (&[0x00], "first 1-byte sequence", &["KuhnBoundary"]),
        (&[0xC2, 0x80], "first 2-byte sequence", &["KuhnBoundary"]),
        (&[0xE0, 0xA0, 0x80], "first 3-byte sequence", &["KuhnBoundary"]),
        (&[0xF0, 0x90, 0x80, 0x80], "first 4-byte sequence", &["KuhnBoundary"]),
        (&[0xF8, 0x88, 0x80, 0x80, 0x80], "first 5-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80], "first 6-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0x7F], "last 1-byte sequence", &["KuhnBoundary"]),
        (&[0xDF, 0xBF], "last 2-byte sequence", &["KuhnBoundary"]),
        (&[0xEF, 0xBF, 0xBF], "last 3-byte sequence", &["KuhnBoundary", "Noncharacter"]),
        (&[0xF7, 0xBF, 0xBF, 0xBF], "last 4-byte sequence of the original UTF-8", &["KuhnBoundary", "OutOfRange"]),
        (&[0xFB, 0xBF, 0xBF, 0xBF, 0xBF], "last 5-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "last 6-byte sequence of the original UTF-8", &["KuhnBoundary", "FiveSixByteForm"]),
        (&[0xED, 0x9F, 0xBF], "U+D7FF", &["KuhnBoundary"]),
        (&[0xEE, 0x80, 0x80], "U+E000", &["KuhnBoundary"]),
        (&[0xEF, 0xBF, 0xBD], "U+FFFD", &["KuhnBoundary"]),
        (&[0xF4, 0x8F, 0xBF, 0xBF], "U+10FFFF", &["KuhnBoundary", "Noncharacter"]),
        (&[0xF4, 0x90, 0x80, 0x80], "U+110000", &["KuhnBoundary", "OutOfRange"]),
    ];
    for &(input, comment, flags) in kuhn2 {
        g.push(dec(comment.into(), flags, input));
    }

    g.group("Kuhn 3.1: unexpected continuation bytes");
    for b in [0x80, 0xBF] {
        g.push(dec(
            format!("{b:02X} alone"),
            &["UnexpectedContinuation"],
            &[b],
        ));
    }
    for k in 2..=7 {
        let input: Vec<u8> = (0..k)
            .map(|i| if i % 2 == 0 { 0x80 } else { 0xBF })
            .collect();
        g.push(dec(
            format!("{k} continuation bytes"),
            &["UnexpectedContinuation", "ContinuationRun"],
            &input,
        ));
    }
    let all: Vec<u8> = (0x80..=0xBF).collect();
    g.push(dec(
        "all 64 continuation bytes".into(),
        &["UnexpectedContinuation", "ContinuationRun"],
        &all,
    ));

    g.group("Kuhn 3.2: lonely start bytes, each followed by a space");
    for lead in 0xC0..=0xFDu8 {
        let mut flags = vec!["LonelyStartByte"];
        if lead <= 0xC1 {
            flags.push("Overlong");
        } else if lead >= 0xF8 {
            flags.push("FiveSixByteForm");
        } else if lead >= 0xF5 {
            flags.push("OutOfRange");
        }
        g.push(dec(format!("{lead:02X} 20"), &flags, &[lead, 0x20]));
    }

    g.group("Kuhn 3.3 and 3.4: sequences with the last continuation byte missing");
    #[rustfmt::skip]
    let missing: [&[u8]; 10] = [
        &[0xC0], &[0xE0, 0x80], &[0xF0, 0x80, 0x80], &[0xF8, 0x80, 0x80, 0x80], &[0xFC, 0x80, 0x80, 0x80, 0x80],
        &[0xDF], &[0xEF, 0xBF], &[0xF7, 0xBF, 0xBF], &[0xFB, 0xBF, 0xBF, 0xBF], &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF],
    ];
    for input in missing {
        g.push(dec(spaced(input), &["MissingContinuation"], input));
    }
    g.push(dec(
        "all ten concatenated".into(),
        &["MissingContinuation"],
        &missing.concat(),
    ));

    g.group("Kuhn 3.5: impossible bytes");
    for (input, comment) in [
        (&[0xFE][..], "FE"),
        (&[0xFF], "FF"),
        (&[0xFE, 0xFE, 0xFF, 0xFF], "FE FE FF FF"),
    ] {
        g.push(dec(comment.into(), &["InvalidByte"], input));
    }

    g.group("Kuhn 4: overlong sequences");
    #[rustfmt::skip]
    let overlong: &[(&[u8], &str)] = &[
        (&[0xC0, 0xAF], "OverlongSolidus"), (&[0xE0, 0x80, 0xAF], "OverlongSolidus"), (&[0xF0, 0x80, 0x80, 0xAF], "OverlongSolidus"),
        (&[0xF8, 0x80, 0x80, 0x80, 0xAF], "OverlongSolidus"), (&[0xFC, 0x80, 0x80, 0x80, 0x80, 0xAF], "OverlongSolidus"),
        (&[0xC1, 0xBF], "MaximalOverlong"), (&[0xE0, 0x9F, 0xBF], "MaximalOverlong"), (&[0xF0, 0x8F, 0xBF, 0xBF], "MaximalOverlong"),
        (&[0xF8, 0x87, 0xBF, 0xBF, 0xBF], "MaximalOverlong"), (&[0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF], "MaximalOverlong"),
        (&[0xC0, 0x80], "OverlongNul"), (&[0xE0, 0x80, 0x80], "OverlongNul"), (&[0xF0, 0x80, 0x80, 0x80], "OverlongNul"),
        (&[0xF8, 0x80, 0x80, 0x80, 0x80], "OverlongNul"), (&[0xFC, 0x80, 0x80, 0x80, 0x80, 0x80], "OverlongNul"),
    ];
    for &(input, flag) in overlong {
        let extra = if input.len() > 4 {
            "FiveSixByteForm"
        } else {
            "Overlong"
        };
        g.push(dec(spaced(input), &[flag, extra], input));
    }

    g.group("Kuhn 5.1 and 5.2: surrogates, single and paired");
    let singles: [[u8; 3]; 7] = [
        [0xED, 0xA0, 0x80],
        [0xED, 0xAD, 0xBF],
        [0xED, 0xAE, 0x80],
        [0xED, 0xAF, 0xBF],
        [0xED, 0xB0, 0x80],
        [0xED, 0xBE, 0x80],
        [0xED, 0xBF, 0xBF],
    ];
    for s in &singles {
        g.push(dec(spaced(s), &["Surrogate"], s));
    }
    for hi in &singles[..4] {
        for lo in [&singles[4], &singles[6]] {
            let input = [&hi[..], &lo[..]].concat();
            g.push(dec(spaced(&input), &["Surrogate", "SurrogatePair"], &input));
        }
    }

    g.group("Kuhn 5.3: noncharacters are valid");
    let nonchars = (0xFDD0..=0xFDEFu32)
        .chain((0..=0x10u32).flat_map(|p| [p << 16 | 0xFFFE, p << 16 | 0xFFFF]));
    for cp in nonchars {
        let bytes = utf8::encode(cp).unwrap_or_default();
        g.push(dec(
            format!("{} noncharacter", cp_text(cp)),
            &["Noncharacter"],
            &bytes,
        ));
    }

    g.group("Every lead byte C0..FF, followed by 0..n-1 continuation bytes, then end of input, ASCII, another lead or FE");
    for lead in 0xC0..=0xFFu8 {
        let row = utf8::TABLE_3_7.iter().find(|r| in37(r.bytes[0], lead));
        let n = row.map_or(if lead <= 0xC1 { 2 } else { 4 }, |r| r.bytes.len());
        for k in 0..n {
            // Continuation bytes valid for the lead's row: alternate ends of each range.
            let seq: Vec<u8> = std::iter::once(lead)
                .chain((1..=k).map(|j| match row {
                    Some(r) => {
                        if j % 2 == 1 {
                            r.bytes[j].0
                        } else {
                            r.bytes[j].1
                        }
                    }
                    None => 0x80,
                }))
                .collect();
            let state = match (row, lead) {
                (Some(_), _) if k + 1 == n => "CompleteSequence",
                (Some(_), _) => "Truncated",
                (None, 0xC0..=0xC1) => "Overlong",
                (None, 0xFE..=0xFF) => "InvalidByte",
                (None, 0xF8..=0xFD) => "FiveSixByteForm",
                (None, _) => "OutOfRange",
            };
            for (tname, tbytes, tflag) in TERMINATORS {
                let input = [&seq[..], tbytes].concat();
                g.push(dec(
                    format!(
                        "{} + {k} continuation byte{}, then {tname}",
                        format_args!("{lead:02X}"),
                        if k == 1 { "" } else { "s" }
                    ),
                    &["LeadByte", state, tflag],
                    &input,
                ));
            }
        }
    }

    g.group("The Corrected UTF-8 magic number read as UTF-8");
    g.push(dec(
        "EF B7 9D is U+FDDD (a noncharacter), then ED B2 AE is a surrogate (seed 000)".into(),
        &["MagicNumber", "Surrogate", "Noncharacter"],
        &corrected::MAGIC,
    ));

    g.group("Mixed text");
    let mut mixed = Vec::new();
    for cp in [0x48, 0xE9, 0x20AC, 0x1F600, 0x0A] {
        mixed.extend(utf8::encode(cp).unwrap_or_default());
    }
    g.push(dec(
        "one character of each length, then LF".into(),
        &["Mixed"],
        &mixed,
    ));
    g.push(dec(
        "errors between characters: 41 80 C3 42 FE 43 E0 80 F4 90 C0".into(),
        &[
            "Mixed",
            "UnexpectedContinuation",
            "Truncated",
            "InvalidByte",
            "OutOfRange",
            "Overlong",
        ],
        &[
            0x41, 0x80, 0xC3, 0x42, 0xFE, 0x43, 0xE0, 0x80, 0xF4, 0x90, 0xC0,
        ],
    ));

    g.group(utf_inf8::CROSS_GROUP);
    for input in utf_inf8::cross_inputs() {
        g.push(dec(
            utf_inf8::cross_comment(&input),
            &["CrossEncoding"],
            &input,
        ));
    }
    g
}

fn utf8_encode() -> Groups<EncodeTest> {
    let enc =
        |comment: String, flags: &[&str], cp: u32| encode_test(utf8::encode, comment, flags, cp);
    let mut g = Groups::new();
    g.group("Table 3-7: the first and last code point of every row");
    for row in &utf8::TABLE_3_7 {
        g.push(enc(
            format!(
                "first of row {}..{}",
                cp_text(row.first_cp),
                cp_text(row.last_cp)
            ),
            &["TableRowFirst"],
            row.first_cp,
        ));
        g.push(enc(
            format!(
                "last of row {}..{}",
                cp_text(row.first_cp),
                cp_text(row.last_cp)
            ),
            &["TableRowLast"],
            row.last_cp,
        ));
    }
    g.group("Surrogates and the end of the code space");
    #[rustfmt::skip]
    let cases: &[(u32, &str, &[&str])] = &[
        (0xD7FF, "last code point before the surrogates", &["Boundary"]),
        (0xD800, "first surrogate", &["Boundary", "Surrogate"]),
        (0xDBFF, "last high surrogate", &["Surrogate"]),
        (0xDC00, "first low surrogate", &["Surrogate"]),
        (0xDFFF, "last surrogate", &["Boundary", "Surrogate"]),
        (0xE000, "first code point after the surrogates", &["Boundary"]),
        (0x10FFFF, "last code point", &["Boundary", "Noncharacter"]),
        (0x110000, "first code point past the end", &["Boundary", "OutOfRange"]),
        (0x1FFFFF, "largest 21-bit value", &["OutOfRange"]),
        (0x7FFF_FFFF, "the original UTF-8's last code point", &["OutOfRange"]),
        (0x8421_109F, "Corrected UTF-8's last code point", &["OutOfRange"]),
        (0xFFFF_FFFF, "largest 32-bit value", &["OutOfRange"]),
    ];
    for &(cp, comment, flags) in cases {
        g.push(enc(comment.into(), flags, cp));
    }
    g.group("Seed examples and sample characters");
    for (cp, comment) in [
        (0x41, "seed 004: U+0041"),
        (0xD7C0, "seed 004: U+D7C0"),
        (0x10000F, "seed 004: U+10000F"),
        (0x807E2, "seed 004: U+807E2"),
    ] {
        g.push(enc(comment.into(), &["SeedExample"], cp));
    }
    for (cp, comment) in [
        (0x0000, "NUL"),
        (0x00E9, "é"),
        (0x20AC, "€"),
        (0xFEFF, "BOM"),
        (0xFFFD, "REPLACEMENT CHARACTER"),
        (0x1F600, "an emoji"),
    ] {
        g.push(enc(comment.into(), &["Sample"], cp));
    }
    for (cp, comment) in [(0xFDD0, "U+FDD0"), (0xFFFE, "U+FFFE"), (0x1FFFF, "U+1FFFF")] {
        g.push(enc(
            format!("noncharacter {comment}"),
            &["Noncharacter"],
            cp,
        ));
    }
    g
}

fn utf8_table31b() -> Groups<DecodeTest> {
    let mut g = Groups::new();
    for (group, cases) in table31b_cases() {
        g.group(group);
        for (input, comment) in cases {
            let flags = table31b_flags(&input);
            let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
            g.push(decode_test(utf8::decode, comment, &flags, &input));
        }
    }
    g
}

// ---------------------------------------------------------------------------------
// The command.

/// Every generated file as (path relative to `vectors/`, content). `existing` gives a
/// committed file's text by relative path, for keeping tcIds.
pub fn generate_files(
    existing: impl Fn(&str) -> Option<String>,
) -> Result<Vec<(&'static str, String)>, String> {
    let [cd, ce, cdoc, ud, ue, ut, id, ie] = FILES;
    Ok(vec![
        (cd, finish(Schema::Decode, "corrected-utf8", header("Corrected UTF-8 decode vectors: bytes in, the complete list of events (code points and error spans) out."), corrected_decode(), existing(cd))?),
        (ce, finish(Schema::Encode, "corrected-utf8", header("Corrected UTF-8 encode vectors: one code point in, its bytes or an error kind out."), corrected_encode(), existing(ce))?),
        (cdoc, finish(Schema::Document, "corrected-utf8", header("Corrected UTF-8 document vectors: a whole file in, the document checker's findings out (docs/semantics.md §2.6)."), corrected_document(), existing(cdoc))?),
        (ud, finish(Schema::Decode, "utf-8", header("UTF-8 decode vectors (Unicode Table 3-7, maximal subparts, error kinds of docs/semantics.md §3): bytes in, events out."), utf8_decode(), existing(ud))?),
        (ue, finish(Schema::Encode, "utf-8", header("UTF-8 encode vectors: one code point in, its bytes or an error kind out."), utf8_encode(), existing(ue))?),
        (ut, finish(Schema::Decode, "utf-8", header("Table 3.1b (seed 001, as transcribed) inputs, decoded per Table 3-7: flags give the rows that match and whether the row disagrees with Table 3-7."), utf8_table31b(), existing(ut))?),
        (id, finish(Schema::Decode, "utf-inf-8", header("UTF-∞-8 decode vectors (seed 003 and docs/semantics.md §4; shortest form only, maximal subparts, default code length limit 65 536 bytes): bytes in, the complete list of events out."), utf_inf8::decode_groups(), existing(id))?),
        (ie, finish(Schema::Encode, "utf-inf-8", header("UTF-∞-8 encode vectors: one code point (unbounded) in, its bytes or an error kind out."), utf_inf8::encode_groups(), existing(ie))?),
    ])
}

/// `conformance generate [--check]` on `dir`.
pub fn run(dir: &Path, check: bool) -> ExitCode {
    let files = match generate_files(|rel| std::fs::read_to_string(dir.join(rel)).ok()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("conformance generate: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut stale = 0;
    for (rel, content) in &files {
        let path = dir.join(rel);
        let old = std::fs::read_to_string(&path).ok();
        if old.as_deref() == Some(content.as_str()) {
            continue;
        }
        if check {
            let why = if old.is_some() {
                "differs from"
            } else {
                "is missing, unlike"
            };
            eprintln!(
                "conformance generate --check: {} {why} what generate writes",
                path.display()
            );
            stale += 1;
            continue;
        }
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, content));
        if let Err(e) = written {
            eprintln!("conformance generate: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    if stale > 0 {
        eprintln!(
            "{stale} file(s) stale: run `cargo run -p conformance -- generate` and commit vectors/"
        );
        ExitCode::FAILURE
    } else {
        if check {
            println!("vectors/ is up to date ({} files)", files.len());
        }
        ExitCode::SUCCESS
    }
}
