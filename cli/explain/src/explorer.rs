//! The explorer's questions and answers: a request in a line of text, the explanation as
//! JSON. The WebAssembly build of the explorer is this function behind three exports;
//! the page only renders what it returns.
//!
//! A request is `ENCODING OP SYNTAX`, a line feed, then the input:
//!
//! * `ENCODING`: `corrected-utf8`, `utf-8` or `utf-inf-8`;
//! * `OP`: `decode` (bytes to events), `encode` (a list of code points to bytes) or
//!   `document` (a Corrected UTF-8 document check);
//! * `SYNTAX`: `hex` (bytes as [`hex::parse`] reads them; for `encode`, code points as
//!   [`codepoint::parse`] reads them, separated by spaces or commas) or `text` (the
//!   input's own UTF-8 bytes; for `encode`, its code points).
//!
//! The answer is a JSON object: `{"error": MESSAGE}` for a request or input that cannot
//! be explained, else the explanation (its fields: `docs/explorer.md`), whose `vector`
//! field is the result in the vectors' own fields (`output` and `result` for a decode;
//! `bytes`, or `index` and `error`, and `result` for an encode; `findings` and `result`
//! for a document), so that a page can compare it with a vector as it stands.
//!
//! Bounds: the input is at most [`MAX_INPUT_TEXT`] bytes of text, [`MAX_INPUT_BYTES`]
//! bytes to decode or check, [`MAX_CODE_POINTS`] code points to encode; the byte-by-byte
//! detail covers the first [`DETAIL_BYTES`] bytes (or code points), and the lists of a
//! summary the first [`SHOWN_EVENTS`] events, with counts of the rest. The `vector`
//! field is always complete.

use crate::codepoint;
use crate::decode::{self, Decoding, Segment, SegmentEvent};
use crate::document::{self, Document};
use crate::encode::{self, Encoded};
use crate::hex;
use corrected_utf8::{BigCodePoint, Encoding, Finding, Severity};
use serde::Serialize;

/// The longest input text, in bytes of UTF-8: 512 KiB.
pub const MAX_INPUT_TEXT: usize = 512 * 1024;
/// The most bytes a request decodes or checks: 128 KiB (the longest vector input is
/// 65 539 bytes).
pub const MAX_INPUT_BYTES: usize = 128 * 1024;
/// The most code points a request encodes.
pub const MAX_CODE_POINTS: usize = 32 * 1024;
/// The bytes (of a decode or a document) or code points (of an encode) explained one by
/// one; the rest are in the summary and the `vector` field only.
pub const DETAIL_BYTES: usize = 4096;
/// The events listed in a summary or a lossy output before a count of the rest.
pub const SHOWN_EVENTS: usize = 2048;

/// What to do with the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Bytes to events.
    Decode,
    /// A list of code points to bytes.
    Encode,
    /// A Corrected UTF-8 document check.
    Document,
}

impl Op {
    /// `decode`, `encode`, `document`: the name in requests and links.
    pub const fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Encode => "encode",
            Op::Document => "document",
        }
    }

    fn from_name(name: &str) -> Option<Op> {
        [Op::Decode, Op::Encode, Op::Document]
            .into_iter()
            .find(|op| op.name() == name)
    }
}

/// How the input is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Bytes in hex, or code points (`U+00CF`, `CF`, …) for `encode`.
    Hex,
    /// The input's own UTF-8 bytes, or its code points for `encode`.
    Text,
}

/// A request, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// The encoding.
    pub encoding: Encoding,
    /// What to do.
    pub op: Op,
    /// How the input is written.
    pub syntax: Syntax,
    /// The input as written.
    pub input: &'a str,
}

impl<'a> Request<'a> {
    /// Parses `ENCODING OP SYNTAX`, a line feed, and the input.
    pub fn parse(text: &'a str) -> Result<Request<'a>, String> {
        let (head, input) = text.split_once('\n').unwrap_or((text, ""));
        let words: Vec<&str> = head.split(' ').collect();
        let [encoding, op, syntax] = words[..] else {
            return Err(format!(
                "a request starts with 'ENCODING OP SYNTAX', not '{}'",
                head.chars().take(80).collect::<String>()
            ));
        };
        let encoding = Encoding::from_name(encoding).ok_or_else(|| {
            format!("unknown encoding '{encoding}': corrected-utf8, utf-8 or utf-inf-8")
        })?;
        let op = Op::from_name(op)
            .ok_or_else(|| format!("unknown operation '{op}': decode, encode or document"))?;
        let syntax = match syntax {
            "hex" => Syntax::Hex,
            "text" => Syntax::Text,
            other => return Err(format!("unknown input syntax '{other}': hex or text")),
        };
        if op == Op::Document && encoding != Encoding::CorrectedUtf8 {
            return Err(format!(
                "the document check is for corrected-utf8 documents, not {encoding}"
            ));
        }
        Ok(Request {
            encoding,
            op,
            syntax,
            input,
        })
    }
}

/// Answers a request with the explanation as JSON, or `{"error": MESSAGE}`.
///
/// # Examples
///
/// ```
/// let json = cutf8_explain::explorer::respond("corrected-utf8 decode hex\nec bd a0");
/// let answer: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(answer["state"], "ecbda0");
/// assert_eq!(answer["vector"]["output"][0]["codepoint"], "U+E000");
/// assert_eq!(answer["segments"][0]["row"]["offset"], 4256);
///
/// let json = cutf8_explain::explorer::respond("utf-8 decode hex\nC0A");
/// assert!(json.contains("odd number of hex digits"));
/// ```
pub fn respond(request: &str) -> String {
    let answer = Request::parse(request).and_then(|r| answer(&r));
    match answer {
        Ok(json) => json,
        Err(message) => to_json(&ErrorAnswer { error: &message }),
    }
}

fn answer(request: &Request) -> Result<String, String> {
    if request.input.len() > MAX_INPUT_TEXT {
        return Err(format!(
            "the input is {} of text; the explorer takes at most {} (use cutf8 for more)",
            size(request.input.len()),
            size(MAX_INPUT_TEXT)
        ));
    }
    match request.op {
        Op::Decode | Op::Document => {
            let bytes = match request.syntax {
                Syntax::Hex => hex::parse(request.input)?,
                Syntax::Text => request.input.as_bytes().to_vec(),
            };
            if bytes.len() > MAX_INPUT_BYTES {
                return Err(format!(
                    "the input is {}; the explorer explains at most {} (use cutf8 for more)",
                    size(bytes.len()),
                    size(MAX_INPUT_BYTES)
                ));
            }
            if request.op == Op::Decode {
                let decoding = Decoding::new(&bytes, request.encoding, None);
                Ok(to_json(&DecodeAnswer::new(&bytes, &decoding)))
            } else {
                let document = document::explain(&bytes);
                Ok(to_json(&DocumentAnswer::new(&bytes, &document)))
            }
        }
        Op::Encode => {
            let codepoints = codepoints(request)?;
            let encoded = encode::explain(&codepoints, request.encoding);
            Ok(to_json(&EncodeAnswer::new(&codepoints, &encoded)))
        }
    }
}

/// `1 MiB`, `512 KiB`, `300 bytes`.
fn size(n: usize) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{} bytes", decode::group_digits(n as u64)),
    }
}

/// The code points of an encode request, at most [`MAX_CODE_POINTS`].
fn codepoints(request: &Request) -> Result<Vec<BigCodePoint>, String> {
    let too_many = || {
        format!(
            "more than {} code points; the explorer encodes at most that many",
            decode::group_digits(MAX_CODE_POINTS as u64)
        )
    };
    let mut out = Vec::new();
    match request.syntax {
        Syntax::Text => {
            for c in request.input.chars() {
                if out.len() == MAX_CODE_POINTS {
                    return Err(too_many());
                }
                out.push(BigCodePoint::from(u32::from(c)));
            }
        }
        Syntax::Hex => {
            let words = request
                .input
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty());
            for (i, word) in words.enumerate() {
                if out.len() == MAX_CODE_POINTS {
                    return Err(too_many());
                }
                let cp = codepoint::parse(word).map_err(|why| {
                    let shown: String = word.chars().take(40).collect();
                    let more = if shown.len() < word.len() { "…" } else { "" };
                    format!(
                        "code point {}: '{shown}{more}' is not a code point: {why}",
                        i + 1
                    )
                })?;
                out.push(cp);
            }
        }
    }
    Ok(out)
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the answers serialize")
}

#[derive(Serialize)]
struct ErrorAnswer<'a> {
    error: &'a str,
}

/// One byte of the input: `{"offset", "hex", "bits", "role"}`.
#[derive(Serialize)]
struct ByteView {
    offset: usize,
    hex: String,
    bits: String,
    role: &'static str,
}

/// A decode explained: the bytes one by one, the segments, the summary, the result.
#[derive(Serialize)]
struct DecodeAnswer<'a> {
    op: &'static str,
    encoding: &'static str,
    /// The input as the link writes it: lowercase hex.
    state: String,
    length: usize,
    bytes: Vec<ByteView>,
    segments: &'a [Segment],
    /// Bytes explained one by one (`bytes`, and the segments that start among them).
    detailed: usize,
    /// The events' short forms (`U+0041`, `[truncated]`), at most [`SHOWN_EVENTS`].
    summary: Vec<&'a str>,
    events: usize,
    verdict: String,
    /// The lossy decode, at most [`SHOWN_EVENTS`] code points.
    lossy: Vec<String>,
    /// Where a strict decode stops: the first span (its vector event).
    strict: Option<VectorEvent<'a>>,
    errors: usize,
    reserved: usize,
    result: &'static str,
    vector: DecodeVector<'a>,
}

/// An event as the vectors write it.
#[derive(Serialize)]
#[serde(untagged)]
enum VectorEvent<'a> {
    CodePoint {
        #[serde(serialize_with = "crate::codepoint::serialize")]
        codepoint: &'a BigCodePoint,
    },
    Error {
        error: &'static str,
        offset: usize,
        length: usize,
    },
    Reserved {
        reserved: bool,
        offset: usize,
        length: usize,
    },
}

impl<'a> VectorEvent<'a> {
    fn of(segment: &'a Segment) -> VectorEvent<'a> {
        let (offset, length) = (segment.offset, segment.length);
        match &segment.event {
            SegmentEvent::CodePoint { codepoint } => VectorEvent::CodePoint { codepoint },
            SegmentEvent::Error { error } => VectorEvent::Error {
                error: error.as_str(),
                offset,
                length,
            },
            SegmentEvent::Reserved => VectorEvent::Reserved {
                reserved: true,
                offset,
                length,
            },
        }
    }
}

#[derive(Serialize)]
struct DecodeVector<'a> {
    output: Vec<VectorEvent<'a>>,
    result: &'static str,
}

impl<'a> DecodeAnswer<'a> {
    fn new(bytes: &[u8], decoding: &'a Decoding) -> DecodeAnswer<'a> {
        let detailed = bytes.len().min(DETAIL_BYTES);
        let shown_segments = decoding
            .segments
            .iter()
            .take_while(|s| s.offset < detailed)
            .count();
        let count = |f: fn(&Segment) -> bool| decoding.segments.iter().filter(|s| f(s)).count();
        DecodeAnswer {
            op: "decode",
            encoding: decoding.encoding.name(),
            state: hex::compact(bytes),
            length: bytes.len(),
            bytes: bytes[..detailed]
                .iter()
                .enumerate()
                .map(|(offset, &b)| ByteView {
                    offset,
                    hex: format!("{b:02X}"),
                    bits: decode::byte_bits(b),
                    role: decode::byte_role(decoding.encoding, b),
                })
                .collect(),
            segments: &decoding.segments[..shown_segments],
            detailed,
            summary: decoding
                .segments
                .iter()
                .take(SHOWN_EVENTS)
                .map(|s| s.short.as_str())
                .collect(),
            events: decoding.segments.len(),
            verdict: decoding.verdict(),
            lossy: decoding
                .lossy()
                .take(SHOWN_EVENTS)
                .map(|cp| codepoint::show(&cp))
                .collect(),
            strict: decoding.strict_stop().map(VectorEvent::of),
            errors: count(Segment::is_error),
            reserved: count(Segment::is_reserved),
            result: decoding.result(),
            vector: DecodeVector {
                output: decoding.segments.iter().map(VectorEvent::of).collect(),
                result: decoding.result(),
            },
        }
    }
}

#[derive(Serialize)]
struct EncodeAnswer<'a> {
    op: &'static str,
    encoding: &'static str,
    /// The code points as the link writes them: lowercase hex, separated by commas.
    state: String,
    codepoints: usize,
    items: Vec<EncodedView<'a>>,
    failure: Option<FailureView<'a>>,
    /// The bytes written (all of them when there is no failure), uppercase hex pairs.
    hex: String,
    length: usize,
    result: &'static str,
    vector: EncodeVector<'a>,
}

#[derive(Serialize)]
struct EncodedView<'a> {
    index: usize,
    #[serde(serialize_with = "crate::codepoint::serialize")]
    codepoint: &'a BigCodePoint,
    hex: String,
    segment: &'a Segment,
}

#[derive(Serialize)]
struct FailureView<'a> {
    index: usize,
    #[serde(serialize_with = "crate::codepoint::serialize")]
    codepoint: &'a BigCodePoint,
    error: &'static str,
    message: &'a str,
}

/// The result of encoding a list, as the vectors write it: `bytes`, or the first
/// unencodable code point's `index` and `error`.
#[derive(Serialize)]
#[serde(untagged)]
enum EncodeVector<'a> {
    Valid {
        bytes: String,
        result: &'a str,
    },
    Invalid {
        index: usize,
        error: &'static str,
        result: &'a str,
    },
}

impl<'a> EncodeAnswer<'a> {
    fn new(codepoints: &[BigCodePoint], encoded: &'a Encoded) -> EncodeAnswer<'a> {
        let bytes = encoded.bytes();
        let state: Vec<String> = codepoints
            .iter()
            .map(|cp| format!("{cp:X}").to_lowercase())
            .collect();
        let result = encoded.result();
        EncodeAnswer {
            op: "encode",
            encoding: encoded.encoding.name(),
            state: state.join(","),
            codepoints: codepoints.len(),
            items: encoded
                .items
                .iter()
                .take(DETAIL_BYTES)
                .enumerate()
                .map(|(index, item)| EncodedView {
                    index,
                    codepoint: &item.codepoint,
                    hex: hex::format(&item.bytes),
                    segment: &item.segment,
                })
                .collect(),
            failure: encoded.failure.as_ref().map(|f| FailureView {
                index: f.index,
                codepoint: &f.codepoint,
                error: f.kind.as_str(),
                message: &f.message,
            }),
            hex: hex::format(&bytes),
            length: bytes.len(),
            result,
            vector: match &encoded.failure {
                None => EncodeVector::Valid {
                    bytes: hex::compact(&bytes),
                    result,
                },
                Some(f) => EncodeVector::Invalid {
                    index: f.index,
                    error: f.kind.as_str(),
                    result,
                },
            },
        }
    }
}

#[derive(Serialize)]
struct DocumentAnswer<'a> {
    op: &'static str,
    encoding: &'static str,
    state: String,
    length: usize,
    magic: bool,
    findings: Vec<FindingView>,
    errors: usize,
    warnings: usize,
    decoding: DecodeAnswer<'a>,
    result: &'static str,
    vector: DocumentVector,
}

#[derive(Serialize)]
struct FindingView {
    kind: &'static str,
    severity: &'static str,
    offset: u64,
    length: u64,
    line: u64,
    column: u64,
    rule: &'static str,
}

/// A finding as the vectors write it.
#[derive(Serialize)]
struct VectorFinding {
    kind: &'static str,
    severity: &'static str,
    offset: u64,
    line: u64,
    column: u64,
}

#[derive(Serialize)]
struct DocumentVector {
    findings: Vec<VectorFinding>,
    result: &'static str,
}

fn severity(f: &Finding) -> &'static str {
    match f.severity() {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

impl<'a> DocumentAnswer<'a> {
    fn new(bytes: &[u8], document: &'a Document) -> DocumentAnswer<'a> {
        let errors = document
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .count();
        DocumentAnswer {
            op: "document",
            encoding: Encoding::CorrectedUtf8.name(),
            state: hex::compact(bytes),
            length: bytes.len(),
            magic: document.magic,
            findings: document
                .findings
                .iter()
                .take(SHOWN_EVENTS)
                .map(|f| FindingView {
                    kind: f.kind.as_str(),
                    severity: severity(f),
                    offset: f.offset,
                    length: f.length,
                    line: f.line,
                    column: f.column,
                    rule: document::rule(f.kind),
                })
                .collect(),
            errors,
            warnings: document.findings.len() - errors,
            decoding: DecodeAnswer::new(bytes, &document.decoding),
            result: document.result(),
            vector: DocumentVector {
                findings: document
                    .findings
                    .iter()
                    .map(|f| VectorFinding {
                        kind: f.kind.as_str(),
                        severity: severity(f),
                        offset: f.offset,
                        line: f.line,
                        column: f.column,
                    })
                    .collect(),
                result: document.result(),
            },
        }
    }
}

#[cfg(test)]
mod tests;
