//! The serde model of a vector file, for writing and for reading (the format of the
//! files this crate embeds, [`crate::VERSION`]).
//!
//! A file is a [`VectorFile`] whose tests are [`DecodeTest`], [`EncodeTest`],
//! [`EncodeStringTest`] or [`DocumentTest`], as its `schema` field says; [`AnyVectorFile::from_json`] reads any of
//! them. Field names and order are those of `vectors/schema/*.schema.json` and
//! `vectors/README.md`. Code points stay strings (`"U+00A0"`) because UTF-∞-8's are
//! unbounded; [`parse_codepoint`] reads the ones that fit in a `u64`, and
//! [`codepoint_digits`] checks any of them.

use crate::vocabulary::{NameKind, UnknownName};
use crate::Op;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Which shape of test a file holds, as its `schema` field says: `"decode"`,
/// `"encode"`, `"encode-string"` or `"document"` ([`DecodeTest`], [`EncodeTest`],
/// [`EncodeStringTest`], [`DocumentTest`]).
///
/// A file's schema is not always the protocol operation of its tests: the tests of an
/// `encode-string` file are `encode` requests carrying a list of code points
/// ([`Schema::op`]). (Before vectors 2.5.0 this was [`crate::Op`] under another name.)
///
/// ```
/// use corrected_utf8_vectors::{model::Schema, Op};
/// assert_eq!("encode-string".parse::<Schema>(), Ok(Schema::EncodeString));
/// assert_eq!(Schema::EncodeString.op(), Op::Encode);
/// assert_eq!(Schema::Decode.name(), "decode");
/// ```
// The variants are in the order of their names, as `Op`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Schema {
    /// `decode`: bytes in, events out ([`DecodeTest`]).
    Decode,
    /// `document`: a whole Corrected UTF-8 file in, findings out ([`DocumentTest`]).
    Document,
    /// `encode`: one code point in, bytes or an error kind out ([`EncodeTest`]).
    Encode,
    /// `encode-string`: a list of code points in, bytes or the first failure's index and
    /// error kind out ([`EncodeStringTest`]; since vectors 2.5.0).
    EncodeString,
}

impl Schema {
    /// Every schema.
    pub const ALL: [Schema; 4] = [
        Schema::Decode,
        Schema::Encode,
        Schema::EncodeString,
        Schema::Document,
    ];

    /// Every schema's name, in the order of [`Schema::ALL`].
    pub const NAMES: [&'static str; 4] = ["decode", "encode", "encode-string", "document"];

    /// `"decode"`, `"encode"`, `"encode-string"` or `"document"`.
    pub const fn name(self) -> &'static str {
        match self {
            Schema::Decode => "decode",
            Schema::Encode => "encode",
            Schema::EncodeString => "encode-string",
            Schema::Document => "document",
        }
    }

    /// The same as [`Schema::name`].
    pub const fn as_str(self) -> &'static str {
        self.name()
    }

    /// The schema with this name, or `None`.
    pub fn from_name(name: &str) -> Option<Schema> {
        Schema::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The protocol operation of the file's tests: `encode` for `encode` and
    /// `encode-string` (an `encode` request with `codepoints`), else the schema's own
    /// name.
    pub const fn op(self) -> Op {
        match self {
            Schema::Decode => Op::Decode,
            Schema::Encode | Schema::EncodeString => Op::Encode,
            Schema::Document => Op::Document,
        }
    }
}

/// The schema of a file of `op` tests with one code point each: `encode` for
/// [`Op::Encode`] (code that built a [`VectorFile`] from an [`Op`] before 2.5.0 writes
/// `schema: op.into()`).
impl From<Op> for Schema {
    fn from(op: Op) -> Schema {
        match op {
            Op::Decode => Schema::Decode,
            Op::Encode => Schema::Encode,
            Op::Document => Schema::Document,
        }
    }
}

impl fmt::Display for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Schema {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Schema, UnknownName> {
        Schema::from_name(name).ok_or_else(|| UnknownName {
            kind: NameKind::Schema,
            name: name.to_string(),
        })
    }
}

/// A test's expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TestResult {
    /// Decode: code points only. Encode: the code point encodes (encode-string: every
    /// one of them). Document: no `error` finding (warnings allowed).
    Valid,
    /// Decode only (Corrected UTF-8): no error span, at least one reserved span.
    Reserved,
    /// Decode: at least one error span. Encode: the code point has no encoding
    /// (encode-string: one of them has none). Document: at least one `error` finding.
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

/// A string encode test (`"schema": "encode-string"`, since vectors 2.5.0): a list of
/// code points in, the concatenation of their encodings out, or the index of the first
/// that has none and its error kind (SPEC §1, "Encoding a string").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EncodeStringTest {
    /// Unique in the file; never renumbered or reused.
    pub tc_id: u64,
    /// What this case is.
    pub comment: String,
    /// Flags, each explained in the file's `notes`.
    pub flags: Vec<String>,
    /// The code points, each `"U+"` and at least 4 uppercase hex digits (may be empty).
    pub codepoints: Vec<String>,
    /// The encoding of the whole list, lowercase hex, when `result` is `valid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    /// The error kind of the first code point that has no encoding, when `result` is
    /// `invalid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The 0-based index in `codepoints` of that code point, when `result` is `invalid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// `valid` when every code point encodes.
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
impl_test_case!(DecodeTest, EncodeTest, EncodeStringTest, DocumentTest);

/// A decode vector file.
pub type DecodeFile = VectorFile<DecodeTest>;
/// An encode vector file.
pub type EncodeFile = VectorFile<EncodeTest>;
/// A string encode vector file.
pub type EncodeStringFile = VectorFile<EncodeStringTest>;
/// A document vector file.
pub type DocumentFile = VectorFile<DocumentTest>;

/// A vector file of any shape, as its `schema` field says. Since vectors 2.5.0 it may be
/// an `encode-string` file, and a later minor version may add shapes: match it with a
/// wildcard arm.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyVectorFile {
    /// `"schema": "decode"`.
    Decode(DecodeFile),
    /// `"schema": "encode"`.
    Encode(EncodeFile),
    /// `"schema": "encode-string"`.
    EncodeString(EncodeStringFile),
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
            Schema::EncodeString => AnyVectorFile::EncodeString(parse(text)?),
            Schema::Document => AnyVectorFile::Document(parse(text)?),
        })
    }

    /// The file's `schema`.
    pub fn schema(&self) -> Schema {
        match self {
            AnyVectorFile::Decode(_) => Schema::Decode,
            AnyVectorFile::Encode(_) => Schema::Encode,
            AnyVectorFile::EncodeString(_) => Schema::EncodeString,
            AnyVectorFile::Document(_) => Schema::Document,
        }
    }

    /// The file's `encoding`.
    pub fn encoding(&self) -> &str {
        match self {
            AnyVectorFile::Decode(f) => &f.encoding,
            AnyVectorFile::Encode(f) => &f.encoding,
            AnyVectorFile::EncodeString(f) => &f.encoding,
            AnyVectorFile::Document(f) => &f.encoding,
        }
    }

    /// The file's `version`.
    pub fn version(&self) -> &str {
        match self {
            AnyVectorFile::Decode(f) => &f.version,
            AnyVectorFile::Encode(f) => &f.version,
            AnyVectorFile::EncodeString(f) => &f.version,
            AnyVectorFile::Document(f) => &f.version,
        }
    }

    /// The file's `numberOfTests`.
    pub fn number_of_tests(&self) -> usize {
        match self {
            AnyVectorFile::Decode(f) => f.number_of_tests,
            AnyVectorFile::Encode(f) => f.number_of_tests,
            AnyVectorFile::EncodeString(f) => f.number_of_tests,
            AnyVectorFile::Document(f) => f.number_of_tests,
        }
    }

    /// How many tests the file holds, counted over its groups.
    pub fn count_tests(&self) -> usize {
        match self {
            AnyVectorFile::Decode(f) => f.tests().count(),
            AnyVectorFile::Encode(f) => f.tests().count(),
            AnyVectorFile::EncodeString(f) => f.tests().count(),
            AnyVectorFile::Document(f) => f.tests().count(),
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

    #[test]
    fn schemas_round_trip_and_name_their_operation() {
        for (s, name) in Schema::ALL.into_iter().zip(Schema::NAMES) {
            assert_eq!(s.name(), name);
            assert_eq!(s.to_string(), name);
            assert_eq!(name.parse::<Schema>(), Ok(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{name}\""));
            assert_eq!(
                serde_json::from_str::<Schema>(&format!("\"{name}\"")).unwrap(),
                s
            );
        }
        assert_eq!(Schema::EncodeString.op(), Op::Encode);
        assert_eq!(Schema::Document.op(), Op::Document);
        let err = "encode_string".parse::<Schema>().unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"unknown schema "encode_string" (expected one of decode, encode, encode-string, document)"#
        );
        let (mut by_enum, mut by_name) = (Schema::ALL, Schema::ALL);
        by_enum.sort_unstable();
        by_name.sort_unstable_by_key(|s| s.name());
        assert_eq!(by_enum, by_name);
    }

    #[test]
    fn an_encode_string_file_reads_back() {
        let json = r#"{"schema": "encode-string", "encoding": "utf-8", "version": "2.5.0",
            "numberOfTests": 2, "header": [], "notes": {}, "testGroups": [{"comment": "",
            "tests": [{"tcId": 1, "comment": "", "flags": [], "codepoints": [],
                       "bytes": "", "result": "valid"},
                      {"tcId": 2, "comment": "", "flags": [], "codepoints": ["U+0041", "U+D800"],
                       "error": "surrogate", "index": 1, "result": "invalid"}]}]}"#;
        let file = AnyVectorFile::from_json(json).unwrap();
        assert_eq!(file.schema(), Schema::EncodeString);
        assert_eq!((file.number_of_tests(), file.count_tests()), (2, 2));
        let AnyVectorFile::EncodeString(f) = file else {
            panic!("an encode-string file")
        };
        let t = f.tests().nth(1).unwrap();
        assert_eq!((t.index, t.error.as_deref()), (Some(1), Some("surrogate")));
        assert!(AnyVectorFile::from_json(&json.replace("\"index\"", "\"offset\"")).is_err());
    }
}
