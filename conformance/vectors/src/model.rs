//! The serde model of a vector file, for writing and for reading (the format of the
//! files this crate embeds, [`crate::VERSION`]).
//!
//! A file is a [`VectorFile`] whose tests are [`DecodeTest`], [`EncodeTest`] or
//! [`DocumentTest`], as its `schema` field says; [`AnyVectorFile::from_json`] reads any of
//! them. Field names and order are those of `vectors/schema/*.schema.json` and
//! `vectors/README.md`. Code points stay strings (`"U+00A0"`) because UTF-∞-8's are
//! unbounded; [`parse_codepoint`] reads the ones that fit in a `u64`, and
//! [`codepoint_digits`] checks any of them.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which shape of test a file holds: a file's `schema` names the operation its tests
/// are for, so it is the same enum as [`crate::Op`] (`"decode"`, `"encode"` or
/// `"document"`; [`DecodeTest`], [`EncodeTest`] or [`DocumentTest`]).
pub use crate::vocabulary::Op as Schema;

/// A test's expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestResult {
    /// Decode: code points only. Encode: the code point encodes. Document: no `error`
    /// finding (warnings allowed).
    Valid,
    /// Decode only (Corrected UTF-8): no error span, at least one reserved span.
    Reserved,
    /// Decode: at least one error span. Encode: the code point has no encoding.
    /// Document: at least one `error` finding.
    Invalid,
}

impl TestResult {
    /// `"valid"`, `"reserved"` or `"invalid"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TestResult::Valid => "valid",
            TestResult::Reserved => "reserved",
            TestResult::Invalid => "invalid",
        }
    }

    /// The result a decode's `output` implies (`docs/semantics.md` §1).
    pub fn of_output(output: &[OutputEvent]) -> TestResult {
        if output
            .iter()
            .any(|e| matches!(e, OutputEvent::Error { .. }))
        {
            TestResult::Invalid
        } else if output
            .iter()
            .any(|e| matches!(e, OutputEvent::Reserved { .. }))
        {
            TestResult::Reserved
        } else {
            TestResult::Valid
        }
    }
}

/// The explanation of one flag, in a file's `notes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// What the flag marks and why it is tested.
    pub description: String,
    /// Where to read more (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<String>>,
}

/// A group of tests sharing a comment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestGroup<T> {
    /// What the group covers.
    pub comment: String,
    /// The tests, in file order.
    pub tests: Vec<T>,
}

/// One vector file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VectorFile<T> {
    /// The shape of the tests.
    pub schema: Schema,
    /// `"corrected-utf8"`, `"utf-8"` or `"utf-inf-8"`.
    pub encoding: String,
    /// Semantic version of the vector set (`vectors/README.md`, "Versioning").
    pub version: String,
    /// How many tests the file holds, over all groups.
    pub number_of_tests: usize,
    /// Lines of text: what the file is and how it is made.
    pub header: Vec<String>,
    /// Every flag used in the file, explained.
    pub notes: BTreeMap<String, Note>,
    /// The tests, in groups.
    pub test_groups: Vec<TestGroup<T>>,
}

impl<T> VectorFile<T> {
    /// Every test, in file order.
    pub fn tests(&self) -> impl Iterator<Item = &T> {
        self.test_groups.iter().flat_map(|g| g.tests.iter())
    }
}

/// What every test has, whatever its shape.
pub trait TestCase {
    /// The test's id, unique in its file.
    fn tc_id(&self) -> u64;
    /// The test's comment.
    fn comment(&self) -> &str;
    /// The test's flags.
    fn flags(&self) -> &[String];
    /// The expected verdict.
    fn result(&self) -> TestResult;
}

/// One event of a decode test's `output`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OutputEvent {
    /// `{"codepoint": "U+00A0"}`.
    CodePoint {
        /// `"U+"` and at least 4 uppercase hex digits.
        codepoint: String,
    },
    /// `{"error": KIND, "offset": N, "length": N}`.
    Error {
        /// The error kind (`docs/semantics.md` §5).
        error: String,
        /// Byte offset of the span in the input.
        offset: u64,
        /// Length of the span in bytes (at least 1).
        length: u64,
    },
    /// `{"reserved": true, "offset": N, "length": N}`: a Corrected UTF-8 reserved span,
    /// not an error (`docs/semantics.md` §2.4a).
    Reserved {
        /// Always `true` (the lint and the schema reject `false`).
        reserved: bool,
        /// Byte offset of the span in the input.
        offset: u64,
        /// Length of the span in bytes (at least 1).
        length: u64,
    },
}

/// A decode test: bytes in, the complete event list out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecodeTest {
    /// Unique in the file; never renumbered or reused.
    pub tc_id: u64,
    /// What this case is.
    pub comment: String,
    /// Flags, each explained in the file's `notes`.
    pub flags: Vec<String>,
    /// The input bytes, lowercase hex without separators (may be empty).
    pub input: String,
    /// Every event, in order: code points and spans cover the input exactly.
    pub output: Vec<OutputEvent>,
    /// `valid` for code points only, `reserved` when the only spans are reserved spans,
    /// `invalid` when there is an error span.
    pub result: TestResult,
}

/// An encode test: one code point in, bytes or an error kind out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EncodeTest {
    /// Unique in the file; never renumbered or reused.
    pub tc_id: u64,
    /// What this case is.
    pub comment: String,
    /// Flags, each explained in the file's `notes`.
    pub flags: Vec<String>,
    /// The code point: `"U+"` and at least 4 uppercase hex digits.
    pub codepoint: String,
    /// The encoding, lowercase hex, when `result` is `valid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    /// The error kind, when `result` is `invalid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `valid` when the code point encodes.
    pub result: TestResult,
}

/// How bad a document finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A MUST / MUST NOT is broken.
    Error,
    /// A SHOULD / SHOULD NOT is broken.
    Warning,
}

/// One finding of a document test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentFinding {
    /// The finding's kind (`docs/semantics.md` §2.6, §5).
    pub kind: String,
    /// `error` or `warning`.
    pub severity: Severity,
    /// Byte offset in the whole file (magic number included).
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

/// A document test: a whole file in, its findings out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocumentTest {
    /// Unique in the file; never renumbered or reused.
    pub tc_id: u64,
    /// What this case is.
    pub comment: String,
    /// Flags, each explained in the file's `notes`.
    pub flags: Vec<String>,
    /// The whole file, lowercase hex (may be empty).
    pub input: String,
    /// Every finding, in offset order (`missing-magic` first).
    pub findings: Vec<DocumentFinding>,
    /// `valid` when no finding has severity `error` (never `reserved`: reserved spans
    /// and inner magic numbers are warnings).
    pub result: TestResult,
}

macro_rules! impl_test_case {
    ($($t:ty),*) => {$(
        impl TestCase for $t {
            fn tc_id(&self) -> u64 { self.tc_id }
            fn comment(&self) -> &str { &self.comment }
            fn flags(&self) -> &[String] { &self.flags }
            fn result(&self) -> TestResult { self.result }
        }
    )*};
}
impl_test_case!(DecodeTest, EncodeTest, DocumentTest);

/// A decode vector file.
pub type DecodeFile = VectorFile<DecodeTest>;
/// An encode vector file.
pub type EncodeFile = VectorFile<EncodeTest>;
/// A document vector file.
pub type DocumentFile = VectorFile<DocumentTest>;

/// A vector file of any shape, as its `schema` field says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyVectorFile {
    /// `"schema": "decode"`.
    Decode(DecodeFile),
    /// `"schema": "encode"`.
    Encode(EncodeFile),
    /// `"schema": "document"`.
    Document(DocumentFile),
}

impl AnyVectorFile {
    /// Parses a vector file, choosing the test shape from its `schema` field.
    pub fn from_json(text: &str) -> Result<AnyVectorFile, String> {
        #[derive(Deserialize)]
        struct Peek {
            schema: Schema,
        }
        let peek: Peek = serde_json::from_str(text).map_err(|e| e.to_string())?;
        fn parse<T: DeserializeOwned>(text: &str) -> Result<T, String> {
            serde_json::from_str(text).map_err(|e| e.to_string())
        }
        Ok(match peek.schema {
            Schema::Decode => AnyVectorFile::Decode(parse(text)?),
            Schema::Encode => AnyVectorFile::Encode(parse(text)?),
            Schema::Document => AnyVectorFile::Document(parse(text)?),
        })
    }

    /// The file's `schema`.
    pub fn schema(&self) -> Schema {
        match self {
            AnyVectorFile::Decode(_) => Schema::Decode,
            AnyVectorFile::Encode(_) => Schema::Encode,
            AnyVectorFile::Document(_) => Schema::Document,
        }
    }

    /// The file's `encoding`.
    pub fn encoding(&self) -> &str {
        match self {
            AnyVectorFile::Decode(f) => &f.encoding,
            AnyVectorFile::Encode(f) => &f.encoding,
            AnyVectorFile::Document(f) => &f.encoding,
        }
    }
}

/// Lowercase hex without separators, as in `input` and `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        hex.push(char::from(DIGITS[usize::from(b >> 4)]));
        hex.push(char::from(DIGITS[usize::from(b & 0xF)]));
    }
    hex
}

/// Reads `input`/`bytes` hex: an even number of lowercase hex digits.
pub fn from_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits: {hex:?}"));
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    // One pass: `--splits` reads a 64 KiB input again for each of its 2,000 variants.
    let mut bytes = Vec::with_capacity(hex.len() / 2);
    for pair in hex.as_bytes().chunks_exact(2) {
        match (digit(pair[0]), digit(pair[1])) {
            (Some(high), Some(low)) => bytes.push(high << 4 | low),
            _ => {
                let c = hex.chars().find(|c| !matches!(c, '0'..='9' | 'a'..='f'));
                return Err(format!("not a lowercase hex digit: {:?}", c.unwrap_or('?')));
            }
        }
    }
    Ok(bytes)
}

/// `"U+"` and the value in uppercase hex, at least 4 digits.
pub fn format_codepoint(cp: u64) -> String {
    format!("U+{cp:04X}")
}

/// The value of a `"U+…"` code point string, when it is well formed (no lowercase, at
/// least 4 digits, no superfluous leading zero beyond 4 digits) and fits in a `u64`.
pub fn parse_codepoint(s: &str) -> Option<u64> {
    u64::from_str_radix(codepoint_digits(s)?, 16).ok()
}

/// The hex digits of a well-formed `"U+…"` code point string of any length (UTF-∞-8's
/// are unbounded): the same rules as [`parse_codepoint`], without the `u64` bound.
pub fn codepoint_digits(s: &str) -> Option<&str> {
    let digits = s.strip_prefix("U+")?;
    if digits.len() < 4
        || !digits.chars().all(|c| matches!(c, '0'..='9' | 'A'..='F'))
        || (digits.len() > 4 && digits.starts_with('0'))
    {
        return None;
    }
    Some(digits)
}

/// `"U+"` and the hex digits `hex` (any case, any length, leading zeros allowed) in the
/// vectors' form: uppercase, leading zeros dropped, at least 4 digits.
pub fn format_codepoint_hex(hex: &str) -> String {
    let trimmed = hex.trim_start_matches('0').to_ascii_uppercase();
    format!("U+{trimmed:0>4}")
}

/// Pretty JSON as the vector files are written: 2-space indent and a final newline.
pub fn to_pretty_json<T: Serialize>(value: &T) -> Result<String, String> {
    let mut s = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codepoints_and_hex() {
        assert_eq!(format_codepoint(0xA0), "U+00A0");
        assert_eq!(format_codepoint(0x8421_109F), "U+8421109F");
        assert_eq!(parse_codepoint("U+00A0"), Some(0xA0));
        assert_eq!(parse_codepoint("U+00a0"), None);
        assert_eq!(parse_codepoint("U+A0"), None);
        assert_eq!(parse_codepoint("U+010000"), None);
        let big = format!("U+{}", "F".repeat(40));
        assert_eq!(parse_codepoint(&big), None);
        assert_eq!(codepoint_digits(&big), Some(&big[2..]));
        assert_eq!(codepoint_digits("U+0A0"), None);
        assert_eq!(codepoint_digits("U+0fff"), None);
        assert_eq!(format_codepoint_hex("a0"), "U+00A0");
        assert_eq!(format_codepoint_hex("000"), "U+0000");
        assert_eq!(format_codepoint_hex(&big[2..]), big);
        assert_eq!(from_hex("c0af"), Ok(vec![0xC0, 0xAF]));
        assert!(from_hex("C0AF").is_err());
        assert_eq!(to_hex(&[0xC0, 0xAF]), "c0af");
        let every: Vec<u8> = (0..=255).collect();
        assert_eq!(from_hex(&to_hex(&every)), Ok(every));
        assert_eq!(to_hex(&[]), "");
    }

    #[test]
    fn events_round_trip() {
        let json = r#"[{"codepoint":"U+00A0"},{"error":"truncated","offset":2,"length":1},{"reserved":true,"offset":3,"length":2}]"#;
        let events: Vec<OutputEvent> = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_string(&events).unwrap(), json);
        assert_eq!(TestResult::of_output(&events), TestResult::Invalid);
        assert_eq!(TestResult::of_output(&events[2..]), TestResult::Reserved);
        assert_eq!(TestResult::of_output(&events[..1]), TestResult::Valid);
    }
}
