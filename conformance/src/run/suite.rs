//! Loading vector files into [`Case`]s, with one located message for any file that cannot
//! be read or does not follow the schema (exit code 2, nothing run).

use crate::files::{human_size, read_capped, read_text_capped, InputErrorKind, MAX_VECTOR_FILE};
use crate::vectors::model::{
    from_hex, to_hex, DecodeFile, DecodeTest, DocumentFile, DocumentTest, EncodeFile,
    EncodeStringFile, EncodeStringTest, EncodeTest, OutputEvent, Schema, TestCase, TestResult,
    VectorFile,
};
use corrected_utf8_vectors::{Encoding, Op};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
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

    /// The request line's object (without the trailing newline); a chunked variant's
    /// carries `chunks` (hex) besides the whole `input`.
    pub fn request(&self) -> Value {
        let mut request = self.request_whole();
        if let Some(chunks) = self.chunks() {
            let hex: Vec<String> = chunks.iter().map(|c| to_hex(c)).collect();
            request["chunks"] = json!(hex);
        }
        request
    }

    fn request_whole(&self) -> Value {
        match &*self.test {
            Test::Decode(t) => {
                json!({"id": self.id, "encoding": self.encoding, "op": "decode", "input": t.input})
            }
            Test::Document(t) => {
                json!({"id": self.id, "encoding": self.encoding, "op": "document", "input": t.input})
            }
            Test::Encode(t) => {
                json!({"id": self.id, "encoding": self.encoding, "op": "encode", "codepoint": t.codepoint})
            }
            Test::EncodeString(t) => {
                json!({"id": self.id, "encoding": self.encoding, "op": "encode", "codepoints": t.codepoints})
            }
        }
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
    /// Its `schema`: the operation of its tests.
    pub schema: Op,
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

/// A vector file that cannot be used, with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file (or folder) concerned.
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: usize,
    /// 1-based column, when known.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

impl std::error::Error for LoadError {}

/// Where a vector file's text comes from.
#[derive(Clone, Debug)]
enum Origin {
    /// A file on disk.
    Path(PathBuf),
    /// A file embedded in the binary ([`corrected_utf8_vectors::EMBEDDED`]).
    Embedded(&'static str),
}

/// Loads every vector file under `sources` (files and folders), keeping only the files
/// whose encoding is in `encodings` (all when empty). `default_root` is the project's
/// `vectors/`: a file inside it is named relative to it, so that ids are the same
/// however the file was selected. Two different files that would get the same name (and
/// so the same case ids) are an error naming both, never one silently dropped.
pub fn load(
    sources: &[PathBuf],
    encodings: &[Encoding],
    default_root: &Path,
) -> Result<Suite, LoadError> {
    let default_root = default_root.canonicalize().ok();
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for source in sources {
        let meta = std::fs::metadata(source).map_err(|e| LoadError {
            path: source.clone(),
            line: 0,
            column: 0,
            message: format!("cannot read: {e}"),
        })?;
        let canon = source.canonicalize().unwrap_or_else(|_| source.clone());
        if meta.is_dir() {
            let (mut files, mut errors) = (Vec::new(), Vec::new());
            corrected_utf8_vectors::discover::json_files(source, &mut files, &mut errors);
            // Only the first folder that cannot be read is reported (the walk goes on
            // past it for the build script, which skips such folders).
            if let Some((path, e)) = errors.into_iter().next() {
                return Err(LoadError {
                    path,
                    line: 0,
                    column: 0,
                    message: format!("cannot read folder: {e}"),
                });
            }
            for file in files {
                let rel = rel_name(&file, &canon, default_root.as_deref(), true);
                found.push((rel, file));
            }
        } else {
            let rel = rel_name(source, &canon, default_root.as_deref(), false);
            found.push((rel, source.clone()));
        }
    }
    // A file reached twice (alone and in its folder) is one file, named where first met.
    let mut seen = HashSet::new();
    found.retain(|(_, path)| seen.insert(path.canonicalize().unwrap_or_else(|_| path.clone())));
    found.sort();
    let mut unique: Vec<(String, PathBuf)> = Vec::with_capacity(found.len());
    for (rel, path) in found {
        if let Some((prev_rel, prev)) = unique.last() {
            if *prev_rel == rel {
                if same_file(prev, &path) {
                    continue; // the same file reached twice (a file and its folder)
                }
                return Err(LoadError {
                    path: path.clone(),
                    line: 0,
                    column: 0,
                    message: format!(
                        "this file and {} would both be named {rel:?}, so their case ids \
                         would clash: give their common parent folder with --vectors, or \
                         rename one",
                        prev.display()
                    ),
                });
            }
        }
        unique.push((rel, path));
    }
    let origins = unique
        .into_iter()
        .map(|(rel, path)| (rel, Origin::Path(path)))
        .collect();
    build(origins, encodings)
}

/// Loads the vector files embedded in the binary, keeping only the files whose encoding
/// is in `encodings` (all when empty).
pub fn load_embedded(encodings: &[Encoding]) -> Result<Suite, LoadError> {
    let origins = corrected_utf8_vectors::EMBEDDED
        .iter()
        .map(|f| (f.path.to_string(), Origin::Embedded(f.text)))
        .collect();
    let mut suite = build(origins, encodings)?;
    suite.embedded = true;
    Ok(suite)
}

/// Whether two paths are the same file, or files with the same bytes.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) if x == y => true,
        _ => matches!(
            (read_capped(a, MAX_VECTOR_FILE), read_capped(b, MAX_VECTOR_FILE)),
            (Ok(x), Ok(y)) if x == y
        ),
    }
}

/// The text of an input file: a regular file of at most `cap` bytes of UTF-8 (a FIFO,
/// `/dev/zero` or a folder is refused before a byte is read), or an error naming the
/// file, what it is, and the cap.
pub(crate) fn read_input(path: &Path, cap: u64, what: &str) -> Result<String, LoadError> {
    read_text_capped(path, cap).map_err(|e| LoadError {
        path: path.to_path_buf(),
        line: 0,
        column: 0,
        message: match e.kind {
            InputErrorKind::NotARegularFile(kind) => {
                format!("is {kind}, not a regular file (refused: it may never end)")
            }
            InputErrorKind::TooLarge(cap) => format!(
                "larger than {cap} bytes ({}), the most {what} may hold",
                human_size(cap)
            ),
            InputErrorKind::Io(e) => format!("cannot read: {e}"),
        },
    })
}

fn build(found: Vec<(String, Origin)>, encodings: &[Encoding]) -> Result<Suite, LoadError> {
    let mut suite = Suite::default();
    let mut manifest = corrected_utf8_vectors::manifest::Manifest::default();
    for (rel, origin) in found {
        let (path, text) = match origin {
            Origin::Path(path) => {
                let text = read_input(&path, MAX_VECTOR_FILE, "a vector file")?;
                (path, text)
            }
            Origin::Embedded(text) => {
                (PathBuf::from(format!("(embedded)/{rel}")), text.to_string())
            }
        };
        let (parsed, encoding) = parse_file(&text).map_err(|(line, column, message)| {
            if is_report(&text) {
                // Left in a vectors folder by an older runner, which allowed that.
                return LoadError {
                    path: path.clone(),
                    line: 0,
                    column: 0,
                    message: "a `conformance run --json` report (it has `reportVersion`), not \
                              a vector file: move it out of the --vectors folder"
                        .into(),
                };
            }
            LoadError {
                path: path.clone(),
                line,
                column,
                message,
            }
        })?;
        manifest.add(&rel, text.as_bytes());
        if !encodings.is_empty() && !encodings.contains(&encoding) {
            continue;
        }
        let file = suite.files.len();
        let before = suite.cases.len();
        let (schema, version) = match parsed {
            Parsed::Decode(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::Decode);
                (Op::Decode, f.version)
            }
            Parsed::Encode(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::Encode);
                (Op::Encode, f.version)
            }
            Parsed::EncodeString(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::EncodeString);
                (Op::Encode, f.version)
            }
            Parsed::Document(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::Document);
                (Op::Document, f.version)
            }
        };
        suite.files.push(SuiteFile {
            rel,
            path,
            schema,
            encoding,
            version,
            cases: suite.cases.len() - before,
        });
    }
    suite.manifest_sha256 = manifest.sha256();
    Ok(suite)
}

fn add_cases<T: Clone + TestCase>(
    suite: &mut Suite,
    f: &VectorFile<T>,
    encoding: Encoding,
    file: usize,
    rel: &str,
    wrap: fn(T) -> Test,
) {
    for t in f.tests() {
        suite.cases.push(Case {
            id: format!("{rel}#{}", t.tc_id()),
            file,
            tc_id: t.tc_id(),
            encoding,
            test: Arc::new(wrap(t.clone())),
            chunking: None,
        });
    }
}

/// The name of a file for ids: relative to the project's `vectors/` when inside it, else
/// relative to the folder given (or just the file name for a file given).
fn rel_name(file: &Path, given: &Path, default_root: Option<&Path>, given_is_dir: bool) -> String {
    let canon = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let rel = default_root
        .and_then(|root| canon.strip_prefix(root).ok())
        .or_else(|| {
            if given_is_dir {
                canon.strip_prefix(given).ok()
            } else {
                None
            }
        })
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(canon.file_name().unwrap_or_default()));
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

enum Parsed {
    Decode(DecodeFile),
    Encode(EncodeFile),
    EncodeString(EncodeStringFile),
    Document(DocumentFile),
}

impl Parsed {
    fn encoding(&self) -> &str {
        match self {
            Parsed::Decode(f) => &f.encoding,
            Parsed::Encode(f) => &f.encoding,
            Parsed::EncodeString(f) => &f.encoding,
            Parsed::Document(f) => &f.encoding,
        }
    }
}

/// Whether `text` is a JSON report of `conformance run` (an object with `reportVersion`).
fn is_report(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Peek {
        #[serde(rename = "reportVersion")]
        _version: serde::de::IgnoredAny,
    }
    serde_json::from_str::<Peek>(text).is_ok()
}

type Located = (usize, usize, String);

fn serde_error(e: serde_json::Error) -> Located {
    // serde_json's message ends with " at line L column C"; the position is given apart.
    let text = e.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    (e.line().max(1), e.column().max(1), message)
}

/// Parses a vector file with the serde model of [`crate::vectors::model`], then checks
/// what the types cannot say: a known encoding (returned, parsed here once), the test
/// count, unique `tcId`s, hex inputs and `U+` code points.
fn parse_file(text: &str) -> Result<(Parsed, Encoding), Located> {
    #[derive(Deserialize)]
    struct Peek {
        schema: Schema,
    }
    let peek: Peek = serde_json::from_str(text).map_err(serde_error)?;
    let parsed = match peek.schema {
        Schema::Decode => Parsed::Decode(serde_json::from_str(text).map_err(serde_error)?),
        Schema::Encode => Parsed::Encode(serde_json::from_str(text).map_err(serde_error)?),
        Schema::EncodeString => {
            Parsed::EncodeString(serde_json::from_str(text).map_err(serde_error)?)
        }
        Schema::Document => Parsed::Document(serde_json::from_str(text).map_err(serde_error)?),
        other => {
            return Err(at(
                text,
                "\"schema\"",
                0,
                format!("schema {other} is not one this runner reads"),
            ))
        }
    };
    // The model keeps `encoding` a string, so that an unknown one gets this located
    // message (`unknown encoding "utf8" (expected one of …)`), not serde's.
    let encoding = parsed
        .encoding()
        .parse::<Encoding>()
        .map_err(|e| at(text, "\"encoding\"", 0, e.to_string()))?;
    match &parsed {
        Parsed::Decode(f) => check_tests(text, f, |t| check_hex(&t.input))?,
        Parsed::Encode(f) => check_tests(text, f, |t| check_codepoint(&t.codepoint))?,
        Parsed::EncodeString(f) => check_tests(text, f, |t| {
            t.codepoints.iter().try_for_each(|c| check_codepoint(c))
        })?,
        Parsed::Document(f) => check_tests(text, f, |t| check_hex(&t.input))?,
    }
    Ok((parsed, encoding))
}

fn check_tests<T: TestCase>(
    text: &str,
    f: &VectorFile<T>,
    check: impl Fn(&T) -> Result<(), String>,
) -> Result<(), Located> {
    let mut seen = HashSet::new();
    let mut count = 0;
    for (i, t) in f.tests().enumerate() {
        count += 1;
        if !seen.insert(t.tc_id()) {
            return Err(at(
                text,
                "\"tcId\"",
                i,
                format!("tcId {} appears twice", t.tc_id()),
            ));
        }
        check(t).map_err(|m| at(text, "\"tcId\"", i, format!("tcId {}: {m}", t.tc_id())))?;
    }
    if count != f.number_of_tests {
        return Err(at(
            text,
            "\"numberOfTests\"",
            0,
            format!(
                "numberOfTests is {} but the file holds {count} tests",
                f.number_of_tests
            ),
        ));
    }
    Ok(())
}

fn check_hex(hex: &str) -> Result<(), String> {
    from_hex(hex)
        .map(|_| ())
        .map_err(|e| format!("bad input: {e}"))
}

fn check_codepoint(cp: &str) -> Result<(), String> {
    match cp.strip_prefix("U+") {
        Some(d) if d.len() >= 4 && d.chars().all(|c| matches!(c, '0'..='9' | 'A'..='F')) => Ok(()),
        _ => Err(format!(
            "bad codepoint {cp:?} (expected U+ and 4 or more uppercase hex digits)"
        )),
    }
}

/// The line and column of the `nth` occurrence of `needle` in `text` (or of the start).
fn at(text: &str, needle: &str, nth: usize, message: String) -> Located {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_serde_errors() {
        let (line, column, message) = parse_file("{\n  \"schema\": \"decode\",\n  oops\n}")
            .err()
            .unwrap();
        assert_eq!((line, column), (3, 3));
        assert!(message.starts_with("key must be a string"), "{message}");
    }

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
    fn ascii_prefixes_follow_each_whole_decode_case() {
        let mut suite = load_embedded(&[Encoding::Utf8]).unwrap();
        let decodes = suite.cases.iter().filter(|c| c.op() == Op::Decode).count();
        let before = suite.cases.len();
        suite.add_splits();
        let chunked = suite.cases.len() - before;
        suite.add_ascii_prefixes();
        assert_eq!(
            suite.cases.len(),
            before + chunked + decodes * ASCII_PREFIX_MAX
        );
        let first = suite
            .cases
            .iter()
            .position(|c| c.id.ends_with("@ascii=1"))
            .unwrap();
        let base = &suite.cases[first - 1];
        assert_eq!(suite.cases[first].id, format!("{}@ascii=1", base.id));
        assert!(suite.cases[first + ASCII_PREFIX_MAX - 1]
            .id
            .ends_with("@ascii=64"));
        assert!(suite
            .cases
            .iter()
            .all(|c| !c.id.contains("@ascii=") || c.chunking.is_none()));
    }

    #[test]
    fn the_manifest_hash_names_every_file_loaded_wherever_from() {
        let all = load_embedded(&[]).unwrap();
        assert_eq!(
            all.manifest_sha256,
            corrected_utf8_vectors::manifest_sha256()
        );
        // `--encoding` picks cases, not the vector set the run names.
        let some = load_embedded(&[Encoding::Utf8]).unwrap();
        assert_eq!(some.manifest_sha256, all.manifest_sha256);
        let dir = crate::vectors::default_dir();
        let on_disk = load(std::slice::from_ref(&dir), &[], &dir).unwrap();
        assert_eq!(on_disk.manifest_sha256, all.manifest_sha256);
        // Another set of files (here: one of them), another hash.
        let one = load(&[dir.join("utf-8/encode.json")], &[], &dir).unwrap();
        let text = std::fs::read(dir.join("utf-8/encode.json")).unwrap();
        let alone = corrected_utf8_vectors::manifest::sha256([("utf-8/encode.json", &text[..])]);
        assert_eq!(one.manifest_sha256, alone);
        assert_ne!(one.manifest_sha256, all.manifest_sha256);
    }

    #[test]
    fn the_readme_shows_the_ascii_prefix_in_hex() {
        let readme = include_str!("../../../vectors/README.md");
        let hex = to_hex(ASCII_PREFIX);
        let shown = format!("{}\n{}", &hex[..64], &hex[64..]);
        assert!(readme.contains(&shown), "vectors/README.md lacks\n{shown}");
    }

    #[test]
    fn locates_duplicates() {
        let text = r#"{"schema": "encode", "encoding": "utf-8", "version": "1", "numberOfTests": 2,
 "header": [], "notes": {}, "testGroups": [{"comment": "", "tests": [
  {"tcId": 1, "comment": "", "flags": [], "codepoint": "U+0041", "bytes": "41", "result": "valid"},
  {"tcId": 1, "comment": "", "flags": [], "codepoint": "U+0042", "bytes": "42", "result": "valid"}]}]}"#;
        let (line, column, message) = parse_file(text).err().unwrap();
        assert_eq!((line, column), (4, 4));
        assert_eq!(message, "tcId 1 appears twice");
    }
}
