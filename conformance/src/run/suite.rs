//! Loading vector files into a [`Suite`] of [`Case`]s, with one located message for any
//! file that cannot be read or does not follow the schema (exit code 2, nothing run).

use crate::case::{Case, Suite, SuiteFile, Test};
use crate::exit::UsageError;
use crate::files::{human_size, read_capped, read_text_capped, InputErrorKind, MAX_VECTOR_FILE};
use crate::vectors::model::{
    from_hex, DecodeFile, DocumentFile, EncodeFile, EncodeStringFile, Schema, TestCase, VectorFile,
};
use corrected_utf8_vectors::Encoding;
use serde::Deserialize;
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

impl From<LoadError> for UsageError {
    fn from(e: LoadError) -> Self {
        UsageError(e.to_string())
    }
}

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
            // A folder or entry that cannot be read, or whose kind cannot be known (a
            // dangling link, a path too long): the run stops, naming the first; a file
            // left out in silence would make a gate test less than it says.
            if let Some((path, e)) = errors.into_iter().next() {
                return Err(LoadError {
                    path,
                    line: 0,
                    column: 0,
                    message: format!(
                        "cannot read: {e} (under a --vectors folder, nothing is left out \
                         unread)"
                    ),
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
                (Schema::Decode, f.version)
            }
            Parsed::Encode(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::Encode);
                (Schema::Encode, f.version)
            }
            Parsed::EncodeString(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::EncodeString);
                (Schema::EncodeString, f.version)
            }
            Parsed::Document(f) => {
                add_cases(&mut suite, &f, encoding, file, &rel, Test::Document);
                (Schema::Document, f.version)
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
    EncodeString(EncodeStringFile),
    Decode(DecodeFile),
    Encode(EncodeFile),
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
    use crate::case::ASCII_PREFIX_MAX;

    #[test]
    fn locates_serde_errors() {
        let (line, column, message) = parse_file("{\n  \"schema\": \"decode\",\n  oops\n}")
            .err()
            .unwrap();
        assert_eq!((line, column), (3, 3));
        assert!(message.starts_with("key must be a string"), "{message}");
    }

    #[test]
    fn ascii_prefixes_follow_each_whole_decode_case() {
        let mut suite = load_embedded(&[Encoding::Utf8]).unwrap();
        let decodes = suite
            .cases
            .iter()
            .filter(|c| c.op() == crate::vectors::Op::Decode)
            .count();
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
