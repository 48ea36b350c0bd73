//! A case: one test with its expected answer, ready to be sent to an implementation and
//! judged ([`Case`]); the cases of a run with the files they came from ([`Suite`]).
//!
//! Every tool makes cases: `conformance run` from vector files ([`crate::run::suite`]),
//! `exhaustive --adapter` and `fuzz` from inputs made at run time with their expected
//! answers from the spec-literal code ([`crate::differential::oracle`]). The protocol
//! sends them ([`crate::protocol::request`]) and the judge checks the answers against
//! them ([`crate::judge`]).

use crate::vectors::model::{
    from_hex, to_hex, DecodeTest, DocumentTest, EncodeStringTest, EncodeTest, OutputEvent, Schema,
    TestCase, TestResult,
};
use corrected_utf8_vectors::{Encoding, Op};
use std::path::PathBuf;
use std::sync::Arc;

/// One test of one vector file, ready to be sent to an implementation.
#[derive(Clone, Debug)]
pub struct Case {
    /// `"<file>#<tcId>"`: the request id and the key in an expected-failures file.
    pub id: String,
    /// Index of the file in [`Suite::files`].
    pub file: usize,
    /// The test's `tcId`.
    pub tc_id: u64,
    /// The file's `encoding`.
    pub encoding: Encoding,
    /// The test itself, as the vector file has it; shared, not copied, by the chunked
    /// variants of `--splits` (a 64 KiB input has 2,049 of them).
    pub test: Arc<Test>,
    /// A chunked variant (`--splits`): the same input fed in these chunks.
    pub chunking: Option<Chunking>,
}

/// Inputs up to this length are split at every point by `--splits`.
pub const ALL_SPLITS_UP_TO: usize = 4096;

/// Longer inputs are split at every point within this many bytes of either end.
pub const EDGE: usize = 1024;

/// `--ascii-prefixes` puts 1 to this many bytes of ASCII in front of each decode case:
/// every position modulo 64, the widest block of the codec's fast paths (AVX-512), so
/// that a block boundary falls inside each sequence and error span of the vector.
pub const ASCII_PREFIX_MAX: usize = 64;

/// What `--ascii-prefixes` puts in front: the first K bytes of this ASCII text. Its bytes
/// differ in every bit but the top one (letters, digits, punctuation, tab, NUL, DEL), and
/// the byte just before the vector is a different one for each K: a fast path that
/// tells a byte's class from some of its bits must get each of them right.
pub const ASCII_PREFIX: &[u8; ASCII_PREFIX_MAX] =
    b"Corrected UTF-8: 0123456789 {|}~ @[\\]^_ `!\"#$%&'()*+,-./;<=>?\t\x00\x7f";

/// A decode test with the first `k` bytes of [`ASCII_PREFIX`] in front
/// (`--ascii-prefixes`): the input after them, the output after their `k` code points with
/// every span `k` bytes later, the same result. An ASCII byte is a whole code point in
/// every encoding here, so nothing after it can depend on it (SPEC §2).
pub fn ascii_prefixed(test: &DecodeTest, k: usize) -> DecodeTest {
    let prefix = &ASCII_PREFIX[..k];
    let mut output: Vec<OutputEvent> = prefix
        .iter()
        .map(|&b| OutputEvent::CodePoint {
            codepoint: format!("U+{b:04X}"),
        })
        .collect();
    let shift = k as u64;
    output.extend(test.output.iter().map(|event| match event {
        OutputEvent::CodePoint { .. } => event.clone(),
        OutputEvent::Error {
            error,
            offset,
            length,
        } => OutputEvent::Error {
            error: error.clone(),
            offset: offset + shift,
            length: *length,
        },
        OutputEvent::Reserved {
            reserved,
            offset,
            length,
        } => OutputEvent::Reserved {
            reserved: *reserved,
            offset: offset + shift,
            length: *length,
        },
    }));
    DecodeTest {
        input: to_hex(prefix) + &test.input,
        output,
        ..test.clone()
    }
}

/// How a chunked variant of a decode or document case cuts its input (`--splits`); the
/// expected answer is the vector's own, whatever the chunking (SPEC §2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunking {
    /// Two chunks, the first this many bytes long (1..len-1): id suffix `@split=N`.
    Split(usize),
    /// One chunk per byte: id suffix `@bytes`.
    Bytes,
}

impl Chunking {
    /// The id suffix, `@split=N` or `@bytes`.
    pub fn suffix(self) -> String {
        match self {
            Chunking::Split(n) => format!("@split={n}"),
            Chunking::Bytes => "@bytes".into(),
        }
    }

    /// The chunks of `bytes`.
    pub fn chunks(self, bytes: &[u8]) -> Vec<&[u8]> {
        match self {
            Chunking::Split(n) => vec![&bytes[..n], &bytes[n..]],
            Chunking::Bytes => bytes.chunks(1).collect(),
        }
    }

    /// Every chunking of an input of `len` bytes: each split point, then byte by byte
    /// (none under 2 bytes, where every chunking is the whole input; two bytes byte by
    /// byte is the split at 1, so only once). Over [`ALL_SPLITS_UP_TO`] bytes, the split
    /// points are those within [`EDGE`] bytes of either end: every point of a 64 KiB
    /// input would decode it 64 Ki times (minutes), and its middle repeats one pattern.
    pub fn all(len: usize) -> Vec<Chunking> {
        let mut all: Vec<Chunking> = (1..len)
            .filter(|&n| len <= ALL_SPLITS_UP_TO || n <= EDGE || len - n <= EDGE)
            .map(Chunking::Split)
            .collect();
        if len > 2 {
            all.push(Chunking::Bytes);
        }
        all
    }
}

/// A test of any shape.
#[derive(Clone, Debug)]
pub enum Test {
    /// A decode test.
    Decode(DecodeTest),
    /// An encode test.
    Encode(EncodeTest),
    /// A string encode test (an `encode` request with `codepoints`; sent only to an
    /// implementation that declares that field).
    EncodeString(EncodeStringTest),
    /// A document test.
    Document(DocumentTest),
}

impl Case {
    /// The operation: that of the test's file (its `schema`).
    pub fn op(&self) -> Op {
        match *self.test {
            Test::Decode(_) => Op::Decode,
            Test::Encode(_) | Test::EncodeString(_) => Op::Encode,
            Test::Document(_) => Op::Document,
        }
    }

    /// The test's comment.
    pub fn comment(&self) -> &str {
        self.common().comment()
    }

    /// The test's flags.
    pub fn flags(&self) -> &[String] {
        self.common().flags()
    }

    /// The expected verdict.
    pub fn result(&self) -> TestResult {
        self.common().result()
    }

    fn common(&self) -> &dyn TestCase {
        match &*self.test {
            Test::Decode(t) => t,
            Test::Encode(t) => t,
            Test::EncodeString(t) => t,
            Test::Document(t) => t,
        }
    }

    /// What goes in: the input hex (decode, document) or the code point (encode).
    pub fn input_text(&self) -> String {
        let input = match &*self.test {
            Test::Decode(t) => format!("input {}", display_hex(&t.input)),
            Test::Document(t) => format!("input {}", display_hex(&t.input)),
            Test::Encode(t) => format!("codepoint {}", t.codepoint),
            Test::EncodeString(t) => format!("codepoints {}", codepoints_text(&t.codepoints)),
        };
        match self.chunking {
            Some(Chunking::Split(n)) => format!("{input} in two chunks, split after {n} byte(s)"),
            Some(Chunking::Bytes) => format!("{input} byte by byte"),
            None => input,
        }
    }

    /// The input's hex (decode, document).
    pub fn input_hex(&self) -> Option<&str> {
        match &*self.test {
            Test::Decode(t) => Some(&t.input),
            Test::Document(t) => Some(&t.input),
            Test::Encode(_) | Test::EncodeString(_) => None,
        }
    }

    /// The chunks of a chunked variant, as bytes.
    pub fn chunks(&self) -> Option<Vec<Vec<u8>>> {
        let bytes = from_hex(self.input_hex()?).ok()?;
        let chunks = self.chunking?.chunks(&bytes);
        Some(chunks.into_iter().map(<[u8]>::to_vec).collect())
    }
}

/// A list of code points for messages: `[U+0041 U+D800]`, the first 8 and the count
/// when longer.
pub fn codepoints_text(codepoints: &[String]) -> String {
    if codepoints.len() <= 8 {
        format!("[{}]", codepoints.join(" "))
    } else {
        format!(
            "[{} … ({} code points)]",
            codepoints[..8].join(" "),
            codepoints.len()
        )
    }
}

fn display_hex(hex: &str) -> String {
    if hex.is_empty() {
        "(empty)".to_string()
    } else {
        hex.to_string()
    }
}

/// One loaded vector file.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// The path relative to its vectors root, with `/` separators (the id's prefix).
    pub rel: String,
    /// Where it was read from.
    pub path: PathBuf,
    /// Its `schema` (the operation of its tests is `schema.op()`).
    pub schema: Schema,
    /// Its `encoding`.
    pub encoding: Encoding,
    /// Its `version`.
    pub version: String,
    /// How many of its tests were selected (after `--encoding`).
    pub cases: usize,
}

/// Every selected case of every selected file, in file then test order.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// The files, sorted by [`SuiteFile::rel`].
    pub files: Vec<SuiteFile>,
    /// The cases.
    pub cases: Vec<Case>,
    /// Whether the files are the ones embedded in the binary (no `--vectors`).
    pub embedded: bool,
    /// The manifest hash of every vector file loaded, before `--encoding` picked some
    /// (`corrected_utf8_vectors::manifest`, `docs/gating.md` §5): the `manifestSha256`
    /// of the release whose vectors these are, whatever folder they were read from.
    pub manifest_sha256: String,
}

impl Suite {
    /// Adds after each decode and document case its chunked variants (`--splits`): every
    /// split point, then byte by byte.
    pub fn add_splits(&mut self) {
        let mut cases = Vec::with_capacity(self.cases.len());
        for case in std::mem::take(&mut self.cases) {
            let len = case.input_hex().map_or(0, |h| h.len() / 2);
            let variants: Vec<Case> = Chunking::all(len)
                .into_iter()
                .map(|c| Case {
                    id: format!("{}{}", case.id, c.suffix()),
                    chunking: Some(c),
                    ..case.clone()
                })
                .collect();
            cases.push(case);
            cases.extend(variants);
        }
        self.cases = cases;
    }

    /// Adds after each decode case (not a chunked variant) its variants with 1 to
    /// [`ASCII_PREFIX_MAX`] bytes of ASCII in front ([`ascii_prefixed`]), ids
    /// `FILE#TCID@ascii=K`: what encoding_rs does with every test, for decoders that
    /// work a block at a time. Document cases are left alone: the magic number is only
    /// one at offset 0 (SPEC §2.6).
    pub fn add_ascii_prefixes(&mut self) {
        let mut cases = Vec::with_capacity(self.cases.len());
        for case in std::mem::take(&mut self.cases) {
            let variants: Vec<Case> = match (&*case.test, case.chunking) {
                (Test::Decode(test), None) => (1..=ASCII_PREFIX_MAX)
                    .map(|k| Case {
                        id: format!("{}@ascii={k}", case.id),
                        test: Arc::new(Test::Decode(ascii_prefixed(test, k))),
                        ..case.clone()
                    })
                    .collect(),
                _ => Vec::new(),
            };
            cases.push(case);
            cases.extend(variants);
        }
        self.cases = cases;
    }

    /// The distinct `version`s of the files, sorted.
    pub fn versions(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.files.iter().map(|f| f.version.as_str()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_prefix_shifts_every_span() {
        let reserved = |offset| OutputEvent::Reserved {
            reserved: true,
            offset,
            length: 3,
        };
        let error = |offset| OutputEvent::Error {
            error: "truncated".into(),
            offset,
            length: 1,
        };
        let cp = |codepoint: &str| OutputEvent::CodePoint {
            codepoint: codepoint.into(),
        };
        let test = DecodeTest {
            tc_id: 7,
            comment: String::new(),
            flags: vec!["Reserved".into()],
            input: "c3a0fefe80e0".into(),
            output: vec![cp("U+0120"), reserved(2), error(5)],
            result: TestResult::Invalid,
        };
        let two = ascii_prefixed(&test, 2);
        assert_eq!(two.input, "436fc3a0fefe80e0");
        let want = [
            cp("U+0043"),
            cp("U+006F"),
            cp("U+0120"),
            reserved(4),
            error(7),
        ];
        assert_eq!(two.output, want);
        let all = ascii_prefixed(&test, ASCII_PREFIX_MAX);
        assert!(all.input.starts_with("436f7272") && all.input.ends_with("09007fc3a0fefe80e0"));
        assert_eq!(all.output[ASCII_PREFIX_MAX - 1], cp("U+007F"));
        assert_eq!(all.output[ASCII_PREFIX_MAX + 1], reserved(66));
        assert_eq!(
            (two.tc_id, two.result, &two.flags),
            (7, TestResult::Invalid, &test.flags)
        );
    }

    #[test]
    fn the_readme_shows_the_ascii_prefix_in_hex() {
        let readme = include_str!("../../vectors/README.md");
        let hex = to_hex(ASCII_PREFIX);
        let shown = format!("{}\n{}", &hex[..64], &hex[64..]);
        assert!(readme.contains(&shown), "vectors/README.md lacks\n{shown}");
    }
}
