//! The built-in implementation `reference`: the project's codec (`corrected-utf8`),
//! answering every request with every field it can compute, as an adapter would.
//!
//! Each field comes from its own codec function (the [`Encoding`] handle's
//! `events_located` for `output`, `decode_lossy` for `lossy`, `validate` for `valid`,
//! `decode` for `strict`; each encoding's `encode_into`/`encode`; `check_document`), so a
//! run checks each of them against the vectors.

use super::outcome::{Answer, Implementation};
use super::suite::{Case, Test};
use crate::vectors::model::{from_hex, parse_codepoint, to_hex};
use corrected_utf8::{
    check_document, corrected, utf8, utf_inf8, BigCodePoint, DecodeError, EncodeError, Encoding,
    Event, Finding, Located,
};
use serde_json::{json, Map, Value};

/// The built-in implementation `reference`: the codec crate, answering every field.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

/// A function from bytes to a list of JSON values.
type Fields = fn(&[u8]) -> Vec<Value>;

/// The codec for one encoding: the encoding's handle answers the decode fields; each
/// encoding's own encoder, and the document checker where there is one, the rest.
struct Codec {
    encoding: Encoding,
    /// `bytes` (Ok, hex) or `error` (Err, a kind) for a `U+…` code point; `None` when the
    /// code point is outside what the encoder takes.
    encode: fn(&str) -> Option<Result<String, &'static str>>,
    /// `findings`, when the encoding has a document checker.
    document: Option<Fields>,
}

/// The codec for an encoding, or `None` when the reference does not implement it (yet).
fn codec(encoding: Encoding) -> Option<Codec> {
    let (encode, document): (fn(&str) -> _, Option<Fields>) = match encoding {
        Encoding::CorrectedUtf8 => (
            |cp| {
                encode_u32(cp, |c| {
                    corrected::encode_into(c, &mut [0; corrected::MAX_LEN]).map(to_hex)
                })
            },
            Some(|b| check_document(b).iter().map(finding).collect()),
        ),
        Encoding::Utf8 => (
            |cp| {
                encode_u32(cp, |c| {
                    utf8::encode_into(c, &mut [0; utf8::MAX_LEN]).map(to_hex)
                })
            },
            None,
        ),
        Encoding::UtfInf8 => (
            |cp| {
                let cp: BigCodePoint = cp.parse().ok()?;
                Some(
                    utf_inf8::encode([&cp])
                        .map(|bytes| to_hex(&bytes))
                        .map_err(|e| e.kind.as_str()),
                )
            },
            None,
        ),
    };
    Some(Codec {
        encoding,
        encode,
        document,
    })
}

fn span(e: &DecodeError) -> Value {
    json!({"error": e.kind.as_str(), "offset": e.offset, "length": e.length})
}

fn output(events: Vec<Located<BigCodePoint>>) -> Vec<Value> {
    events
        .iter()
        .map(|l| match &l.event {
            Event::CodePoint(cp) => json!({"codepoint": cp.to_string()}),
            Event::Error(e) => span(e),
            Event::Reserved(r) => {
                json!({"reserved": true, "offset": r.offset, "length": r.length})
            }
        })
        .collect()
}

fn strict(result: Result<(), DecodeError>) -> Value {
    match result {
        Ok(()) => Value::Null,
        Err(e) => span(&e),
    }
}

/// The codec's encoders take any 32-bit value; wider ones are outside their domain, and
/// the reference says `unsupported` rather than guessing.
fn encode_u32(
    cp: &str,
    encode: impl Fn(u32) -> Result<String, EncodeError>,
) -> Option<Result<String, &'static str>> {
    let cp = u32::try_from(parse_codepoint(cp)?).ok()?;
    Some(encode(cp).map_err(|e| e.kind.as_str()))
}

fn finding(f: &Finding) -> Value {
    json!({"kind": f.kind.as_str(), "severity": f.severity().as_str(),
           "offset": f.offset, "line": f.line, "column": f.column})
}

impl Reference {
    /// The response object for one request, as the adapter protocol has it.
    pub fn respond(case: &Case) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("id".into(), json!(case.id));
        let codec = Encoding::from_name(&case.encoding).and_then(codec);
        match codec.and_then(|c| Self::fields(&c, case)) {
            Some(fields) => out.extend(fields),
            None => {
                out.insert("unsupported".into(), json!(true));
            }
        }
        out
    }

    fn fields(codec: &Codec, case: &Case) -> Option<Map<String, Value>> {
        let mut out = Map::new();
        match &case.test {
            Test::Decode(t) => {
                let bytes = from_hex(&t.input).ok()?;
                let encoding = codec.encoding;
                let lossy: Vec<String> = encoding
                    .decode_lossy(&bytes)
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                out.insert(
                    "output".into(),
                    json!(output(encoding.events_located(&bytes))),
                );
                out.insert("lossy".into(), json!(lossy));
                out.insert("valid".into(), json!(encoding.validate(&bytes).is_ok()));
                out.insert("strict".into(), strict(encoding.decode(&bytes).map(drop)));
            }
            Test::Encode(t) => match (codec.encode)(&t.codepoint)? {
                Ok(hex) => {
                    out.insert("bytes".into(), json!(hex));
                }
                Err(kind) => {
                    out.insert("error".into(), json!(kind));
                }
            },
            Test::Document(t) => {
                let bytes = from_hex(&t.input).ok()?;
                out.insert("findings".into(), json!((codec.document?)(&bytes)));
            }
        }
        Some(out)
    }
}

impl Implementation for Reference {
    fn name(&self) -> &str {
        "reference"
    }

    fn describe(&self) -> String {
        "built-in reference codec (corrected-utf8 crate)".into()
    }

    fn answer(&mut self, case: &Case) -> Answer {
        Answer::Response(Self::respond(case))
    }
}
