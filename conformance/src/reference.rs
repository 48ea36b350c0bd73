//! The built-in implementation `reference`: the project's codec (`corrected-utf8`),
//! answering every request with every field it can compute, as an adapter would.
//!
//! Each field comes from its own codec function (`events` for `output`, `decode_lossy`
//! for `lossy`, `validate` for `valid`, `decode` for `strict`, `encode_into` and `encode`
//! for `bytes` and `error`, `check_document`), so a run checks each of them against the vectors; `result` is
//! read from the events (`event_json`, `result_of`).

use crate::case::{Case, Test};
use crate::protocol::{Answer, Declaration, Declared, Implementation, Support};
// The vectors' names of the encodings, beside the codec's `Encoding`.
use crate::vectors::model::{
    format_codepoint, from_hex, parse_codepoint, to_hex, OutputEvent, TestResult,
};
use crate::vectors::{codec_encoding, Encoding as Names, Op};
use corrected_utf8::corrected::fast::{self, InstructionSet};
use corrected_utf8::{
    check_document, corrected, utf8, utf_inf8, BigCodePoint, DocumentChecker, EncodeError,
    Encoding, Event, Finding, Located, Stop,
};
use serde_json::{json, Map, Value};

/// The built-in implementation `reference`: the codec crate, answering every field.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

/// A function from bytes to a list of JSON values, each handed on as it is made.
type Fields = fn(&[u8], &mut dyn FnMut(Value));

/// A list's `bytes` (Ok, hex), or the `index` and `error` kind of its first code point
/// without an encoding.
pub(crate) type StringAnswer = Result<String, (u64, &'static str)>;

/// The codec's functions for one encoding, each giving its protocol field's JSON value
/// (the lists item by item, so that `conformance serve` writes them as they come).
pub(crate) struct Codec {
    /// `output`: every event.
    pub(crate) output: fn(&[u8], &mut dyn FnMut(OutputEvent)),
    /// `lossy`: code points and U+FFFD, as `U+…` strings.
    pub(crate) lossy: fn(&[u8], &mut dyn FnMut(String)),
    /// `valid`.
    pub(crate) valid: fn(&[u8]) -> bool,
    /// `strict`: null or the first span, error or reserved.
    pub(crate) strict: fn(&[u8]) -> Value,
    /// `bytes` (Ok, hex) or `error` (Err, a kind) for a `U+…` code point; `None` when the
    /// code point is outside what the encoder takes.
    pub(crate) encode: fn(&str) -> Option<Result<String, &'static str>>,
    /// `bytes` (Ok, hex) or `error` and `index` for a list of `U+…` code points, from the
    /// codec's string encoder; `None` as for [`Codec::encode`].
    pub(crate) encode_string: fn(&[String]) -> Option<StringAnswer>,
    /// `findings`, when the encoding has a document checker.
    pub(crate) document: Option<Fields>,
    /// `lossy` read from the events as they come (`conformance serve`: no list of code
    /// points in memory; the built-in reference uses `decode_lossy`, [`Codec::lossy`]).
    pub(crate) lossy_streamed: fn(&[u8], &mut dyn FnMut(String)),
    /// `strict` from `validate` (`conformance serve`: no list of code points in memory;
    /// the built-in reference uses `decode`, [`Codec::strict`]).
    pub(crate) strict_validated: fn(&[u8]) -> Value,
}

/// The codec for an encoding, or `None` when the reference does not implement it (yet).
pub(crate) fn codec(encoding: Encoding) -> Option<Codec> {
    match encoding {
        Encoding::CorrectedUtf8 => Some(Codec {
            output: |b, each| output(corrected::events(b).located(), each),
            lossy: |b, each| codepoints(corrected::decode_lossy(b), each),
            valid: |b| corrected::validate(b).is_ok(),
            strict: |b| strict(corrected::decode(b).map(drop)),
            encode: |cp| {
                encode_u32(cp, |c| {
                    same_answer(
                        corrected::encode_into(c, &mut [0; corrected::MAX_LEN]).map(to_hex),
                        corrected::encode([c]).map(|b| to_hex(&b)),
                    )
                })
            },
            encode_string: |cps| encode_string_u32(cps, |c| corrected::encode(c.iter().copied())),
            document: Some(|b, each| check_document(b).iter().for_each(|f| each(finding(f)))),
            lossy_streamed: |b, each| {
                for cp in corrected::events(b).lossy() {
                    each(format_codepoint(cp.into()));
                }
            },
            strict_validated: |b| strict(corrected::validate(b)),
        }),
        Encoding::Utf8 => Some(Codec {
            output: |b, each| output(utf8::events(b).located(), each),
            lossy: |b, each| codepoints(utf8::decode_lossy(b), each),
            valid: |b| utf8::validate(b).is_ok(),
            strict: |b| strict(utf8::decode(b).map(drop)),
            encode: |cp| {
                encode_u32(cp, |c| {
                    same_answer(
                        utf8::encode_into(c, &mut [0; utf8::MAX_LEN]).map(to_hex),
                        utf8::encode([c]).map(|b| to_hex(&b)),
                    )
                })
            },
            encode_string: |cps| encode_string_u32(cps, |c| utf8::encode(c.iter().copied())),
            document: None,
            lossy_streamed: |b, each| {
                for cp in utf8::events(b).lossy() {
                    each(format_codepoint(cp.into()));
                }
            },
            strict_validated: |b| strict(utf8::validate(b)),
        }),
        Encoding::UtfInf8 => Some(Codec {
            output: |b, each| {
                let mut events = utf_inf8::events(b);
                while let Some(l) = events.next_located() {
                    each(event_json(&l.event, ToString::to_string));
                }
            },
            lossy: |b, each| {
                for cp in utf_inf8::decode_lossy(b) {
                    each(cp.to_string());
                }
            },
            valid: |b| utf_inf8::validate(b).is_ok(),
            strict: |b| strict(utf_inf8::decode(b).map(drop)),
            encode: |cp| {
                let cp: BigCodePoint = cp.parse().ok()?;
                Some(
                    utf_inf8::encode([&cp])
                        .map(|bytes| to_hex(&bytes))
                        .map_err(|e| e.kind.as_str()),
                )
            },
            encode_string: |cps| {
                let cps: Vec<BigCodePoint> =
                    cps.iter().map(|c| c.parse().ok()).collect::<Option<_>>()?;
                Some(utf_inf8::encode(&cps).map(|b| to_hex(&b)).map_err(|e| {
                    let failed = BigCodePoint::from(e.codepoint);
                    (first_index(&cps, &failed), e.kind.as_str())
                }))
            },
            document: None,
            lossy_streamed: |b, each| {
                let mut events = utf_inf8::events(b);
                while let Some(l) = events.next_located() {
                    each(match l.event {
                        Event::CodePoint(cp) => cp.to_string(),
                        Event::Error(_) | Event::Reserved(_) => "U+FFFD".into(),
                    });
                }
            },
            strict_validated: |b| strict(utf_inf8::validate(b)),
        }),
    }
}

/// One event as the protocol has it: `{"codepoint": …}`, `{"error": KIND, "offset",
/// "length"}` or, for a reserved span, `{"reserved": true, "offset", "length"}` (never an
/// error: SPEC §2.4a).
pub(crate) fn event_json<C>(event: &Event<C>, codepoint: impl Fn(&C) -> String) -> OutputEvent {
    match event {
        Event::CodePoint(cp) => OutputEvent::CodePoint {
            codepoint: codepoint(cp),
        },
        Event::Error(e) => OutputEvent::Error {
            error: e.kind.as_str().to_string(),
            offset: e.offset,
            length: e.length,
        },
        Event::Reserved(r) => OutputEvent::Reserved {
            reserved: true,
            offset: r.offset,
            length: r.length,
        },
    }
}

/// `result` from the protocol events: `invalid` with an error span, else `reserved` with a
/// reserved span, else `valid`.
fn result_of(output: &[OutputEvent]) -> &'static str {
    if output
        .iter()
        .any(|e| matches!(e, OutputEvent::Error { .. }))
    {
        "invalid"
    } else if output
        .iter()
        .any(|e| matches!(e, OutputEvent::Reserved { .. }))
    {
        "reserved"
    } else {
        "valid"
    }
}

fn output(events: impl Iterator<Item = Located>, each: &mut dyn FnMut(OutputEvent)) {
    for l in events {
        each(event_json(&l.event, |&cp| format_codepoint(cp.into())));
    }
}

fn codepoints(cps: Vec<u32>, each: &mut dyn FnMut(String)) {
    for cp in cps {
        each(format_codepoint(cp.into()));
    }
}

/// A list made by one of [`Codec`]'s item-by-item functions.
fn collect<T>(f: impl FnOnce(&mut dyn FnMut(T))) -> Vec<T> {
    let mut out = Vec::new();
    f(&mut |item| out.push(item));
    out
}

/// `strict`: where a strict decode stops, an error span or a reserved span (the fast
/// paths' `DecodeError`s convert to the same `Stop`).
pub(crate) fn strict<E: Into<Stop>>(result: Result<(), E>) -> Value {
    match result.map_err(Into::into) {
        Ok(()) => Value::Null,
        Err(Stop::Reserved(r)) => {
            json!({"offset": r.offset, "length": r.length, "reserved": true})
        }
        Err(Stop::Error(e)) => {
            json!({"offset": e.offset, "length": e.length, "error": e.kind.as_str()})
        }
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

/// A list's encoding by one of the codec's 32-bit string encoders: `None` when a code
/// point is outside what it takes (as [`encode_u32`]).
fn encode_string_u32(
    cps: &[String],
    encode: impl Fn(&[u32]) -> Result<Vec<u8>, EncodeError>,
) -> Option<StringAnswer> {
    let cps: Vec<u32> = cps
        .iter()
        .map(|c| u32::try_from(parse_codepoint(c)?).ok())
        .collect::<Option<_>>()?;
    Some(
        encode(&cps)
            .map(|b| to_hex(&b))
            .map_err(|e| (first_index(&cps, &e.codepoint), e.kind.as_str())),
    )
}

/// The index of the first code point without an encoding, from the codec's error, which
/// names the code point: its first occurrence (an earlier one would have failed first).
fn first_index<T: PartialEq>(cps: &[T], failed: &T) -> u64 {
    cps.iter().position(|c| c == failed).unwrap_or(cps.len()) as u64
}

/// One code point's encoding by both of the codec's encoders, `encode_into` and the
/// allocating `encode`: their common answer, or, when they differ, a `bytes` value that
/// names both (no vector has it, so the run shows the difference).
fn same_answer(
    into: Result<String, EncodeError>,
    allocating: Result<String, EncodeError>,
) -> Result<String, EncodeError> {
    match (into, allocating) {
        (Ok(a), Ok(b)) if a == b => Ok(a),
        (Err(a), Err(b)) if a == b => Err(a),
        (a, b) => Ok(format!("encode_into: {a:?}, encode: {b:?}")),
    }
}

pub(crate) fn finding(f: &Finding) -> Value {
    json!({"kind": f.kind.as_str(), "severity": f.severity().as_str(),
           "offset": f.offset, "line": f.line, "column": f.column})
}

/// What one request asks, parsed: the part of the protocol the codec answers, shared by
/// [`Reference::respond`] (a vector's case) and `conformance serve` (a request line).
#[derive(Clone, Copy, Debug)]
pub enum Query<'a> {
    /// `decode`: the input, and the chunks of a chunked request (fed to the streaming
    /// decoder).
    Decode {
        /// The bytes.
        input: &'a [u8],
        /// The chunks, when the request has `chunks`.
        chunks: Option<&'a [Vec<u8>]>,
    },
    /// `encode`: the code point, `U+…`.
    Encode {
        /// As the request has it.
        codepoint: &'a str,
    },
    /// `encode` with `codepoints`: a list of `U+…`.
    EncodeString {
        /// As the request has them.
        codepoints: &'a [String],
    },
    /// `document`: the input, and the chunks of a chunked request.
    Document {
        /// The bytes.
        input: &'a [u8],
        /// The chunks, when the request has `chunks`.
        chunks: Option<&'a [Vec<u8>]>,
    },
}

/// The response fields the codec computes for one query, in the protocol's order and
/// shapes: [`Reference::respond`] turns them into a JSON object, `conformance serve`
/// writes them as they are (no JSON value built per event).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Response {
    /// `result`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'static str>,
    /// `output`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Vec<OutputEvent>>,
    /// `lossy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lossy: Option<Vec<String>>,
    /// `valid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid: Option<bool>,
    /// `strict`: null or the first span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<Value>,
    /// `bytes` (encode, hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<String>,
    /// `error` (encode, the kind).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    /// `index` (string encode: the first code point without an encoding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// `findings` (document).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<Vec<Value>>,
}

impl Response {
    /// As a JSON object (the fields present, in order).
    pub fn into_map(self) -> Map<String, Value> {
        let mut out = Map::new();
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(value) = value {
                out.insert(key.into(), value);
            }
        };
        put("result", self.result.map(|r| json!(r)));
        put("output", self.output.map(|o| json!(o)));
        put("lossy", self.lossy.map(|l| json!(l)));
        put("valid", self.valid.map(|v| json!(v)));
        put("strict", self.strict);
        put("bytes", self.bytes.map(|b| json!(b)));
        put("error", self.error.map(|e| json!(e)));
        put("index", self.index.map(|i| json!(i)));
        put("findings", self.findings.map(|f| json!(f)));
        out
    }
}

/// The response fields (every one the codec computes) for a query of an encoding, or
/// `None` when the reference does not support it (the answer is then `unsupported`).
pub fn respond_to(encoding: Encoding, query: Query<'_>) -> Option<Response> {
    let codec = codec(encoding)?;
    let mut out = Response::default();
    match query {
        Query::Decode {
            chunks: Some(chunks),
            ..
        } => {
            let mut decoder = encoding.new_decoder();
            let mut output = Vec::new();
            let mut sink = |l: Located<BigCodePoint>| {
                output.push(event_json(&l.event, ToString::to_string));
            };
            for chunk in chunks {
                decoder.push(chunk, &mut sink);
            }
            decoder.finish(&mut sink);
            out.result = Some(result_of(&output));
            out.output = Some(output);
        }
        Query::Decode {
            input,
            chunks: None,
        } => {
            let output = collect(|each| (codec.output)(input, each));
            out.result = Some(result_of(&output));
            out.output = Some(output);
            out.lossy = Some(collect(|each| (codec.lossy)(input, each)));
            out.valid = Some((codec.valid)(input));
            out.strict = Some((codec.strict)(input));
        }
        Query::Encode { codepoint } => match (codec.encode)(codepoint)? {
            Ok(hex) => out.bytes = Some(hex),
            Err(kind) => out.error = Some(kind),
        },
        Query::EncodeString { codepoints } => match (codec.encode_string)(codepoints)? {
            Ok(hex) => out.bytes = Some(hex),
            Err((index, kind)) => {
                out.error = Some(kind);
                out.index = Some(index);
            }
        },
        Query::Document {
            chunks: Some(chunks),
            ..
        } => {
            codec.document?;
            let mut checker = DocumentChecker::new();
            let mut findings = Vec::new();
            for chunk in chunks {
                checker.push(chunk, |f| findings.push(finding(&f)));
            }
            checker.finish(|f| findings.push(finding(&f)));
            out.findings = Some(findings);
        }
        Query::Document {
            input,
            chunks: None,
        } => {
            let document = codec.document?;
            out.findings = Some(collect(|each| document(input, each)));
        }
    }
    Some(out)
}

impl Reference {
    /// The response object for one request, as the adapter protocol has it.
    pub fn respond(case: &Case) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("id".into(), json!(case.id));
        match Self::fields(case) {
            Some(fields) => out.extend(fields.into_map()),
            None => {
                out.insert("unsupported".into(), json!(true));
            }
        }
        out
    }

    /// The case's query, answered; a chunked variant by the codec's streaming decoders
    /// (the decoder of [`Encoding::new_decoder`], [`DocumentChecker`]), fed chunk by
    /// chunk: `output` and `result` (decode), `findings` (document).
    fn fields(case: &Case) -> Option<Response> {
        let input = match case.input_hex() {
            Some(hex) => from_hex(hex).ok()?,
            None => vec![],
        };
        // The case's own `chunks()` would read the hex again.
        let chunks: Option<Vec<Vec<u8>>> = case
            .chunking
            .map(|c| c.chunks(&input).into_iter().map(<[u8]>::to_vec).collect());
        let chunks = chunks.as_deref();
        let query = match &*case.test {
            Test::Decode(_) => Query::Decode {
                input: &input,
                chunks,
            },
            Test::Document(_) => Query::Document {
                input: &input,
                chunks,
            },
            Test::Encode(t) => Query::Encode {
                codepoint: &t.codepoint,
            },
            Test::EncodeString(t) => Query::EncodeString {
                codepoints: &t.codepoints,
            },
        };
        respond_to(codec_encoding(case.encoding), query)
    }
}

/// The answers of the codec's fast paths (`corrected::fast`, run with `instruction_set`)
/// to a Corrected UTF-8 case, each a response to judge on its own; empty for another
/// encoding, or a chunked variant of a decode case (the fast paths take whole inputs).
///
/// A decode case gets `valid` and `strict` from `fast::validate_with`, and `strict` (with
/// `output` when the input is valid) from `fast::decode_to_vec_with`; a valid input is
/// also decoded 16 times over, which must give its code points 16 times, so that the
/// vector loops see whole blocks. An encode case gets `bytes` or `error` for the code
/// point alone and for 16 copies of it (`bytes` 16 times over; the same `error`); a
/// string encode case `bytes`, or `error` and `index`, for its list into an empty buffer
/// and appended to a buffer already holding bytes.
/// A decode case also gets the direct transcoders' answers: `output` read back from what
/// `fast::transcode_to_utf8_with` wrote (or `strict` from its error span, `valid` when it
/// stops at a code point above U+10FFFF), and `output` for `fast::utf8_to_corrected_with`
/// of that UTF-8, which must write the input again.
/// A document case gets `findings` from `DocumentChecker::push_fast` (with the detected
/// instruction set only: it has no other), its chunked variants (`--splits`) too, one
/// `push_fast` per chunk: what the checker skips in bulk depends on what the chunk
/// before left pending.
/// For the instruction set that [`InstructionSet::detect`] picks, the answers come
/// through the entry points an application calls instead (`fast::validate`,
/// `fast::decode_to_utf32` for the input and `fast::decode_to_vec` for its copies,
/// `fast::encode_from_utf32`), so that their dispatch is judged too.
/// This is how the vectors-only test set of mutation testing (`docs/mutation.md`) sees
/// the fast paths, which the built-in `reference` does not use.
// Test support, not API: only `tests/reference_vectors.rs` calls it (an integration
// test, so `#[cfg(test)]` cannot hide it).
#[doc(hidden)]
pub fn respond_fast(case: &Case, instruction_set: InstructionSet) -> Vec<Map<String, Value>> {
    const COPIES: usize = 16;
    let mut responses = Vec::new();
    if case.encoding != Names::CorrectedUtf8
        || (case.chunking.is_some() && case.op() != Op::Document)
    {
        return responses;
    }
    let auto = instruction_set == InstructionSet::detect();
    let validate = |bytes: &[u8]| match auto {
        true => fast::validate(bytes),
        false => fast::validate_with(instruction_set, bytes),
    };
    let decode = |bytes: &[u8]| match auto {
        true => {
            let mut out = vec![0; fast::utf32_len(bytes)];
            fast::decode_to_utf32(bytes, &mut out).map(|written| {
                out.truncate(written);
                out
            })
        }
        false => fast::decode_to_vec_with(instruction_set, bytes),
    };
    let decode_copies = |bytes: &[u8]| match auto {
        true => fast::decode_to_vec(bytes),
        false => fast::decode_to_vec_with(instruction_set, bytes),
    };
    let encode = |codepoints: &[u32], out: &mut Vec<u8>| match auto {
        true => fast::encode_from_utf32(codepoints, out),
        false => fast::encode_from_utf32_with(instruction_set, codepoints, out),
    };
    let to_utf8 = |bytes: &[u8], out: &mut Vec<u8>| match auto {
        true => fast::transcode_to_utf8(bytes, out),
        false => fast::transcode_to_utf8_with(instruction_set, bytes, out),
    };
    let from_utf8 = |bytes: &[u8], out: &mut Vec<u8>| match auto {
        true => fast::utf8_to_corrected(bytes, out),
        false => fast::utf8_to_corrected_with(instruction_set, bytes, out),
    };
    let respond = |fields: Vec<(&str, Value)>| {
        let mut out = Map::new();
        out.insert("id".into(), json!(case.id));
        out.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
        out
    };
    match &*case.test {
        Test::Decode(t) => {
            let Ok(input) = from_hex(&t.input) else {
                return responses;
            };
            let validated = validate(&input);
            responses.push(respond(vec![
                ("valid", json!(validated.is_ok())),
                ("strict", strict(validated)),
            ]));
            let decoded = decode(&input);
            let mut fields = vec![("strict", strict(decoded.as_ref().map(drop).map_err(|e| *e)))];
            if let Ok(cps) = decoded {
                fields.push(("output", codepoint_events(&cps)));
                // 16 copies must give the code points 16 times: answered as the input's
                // `output` when they do, as everything they gave when they do not.
                let copies = match decode_copies(&input.repeat(COPIES)) {
                    Ok(all) if all == cps.repeat(COPIES) => cps,
                    Ok(all) => all,
                    Err(e) => return vec![respond(vec![("strict", strict(Err(e)))])],
                };
                responses.push(respond(vec![("output", codepoint_events(&copies))]));
            }
            responses.push(respond(fields));
            // A valid input is the one encoding of its code points (SPEC §1), so the fast
            // encoder, given the vector's code points, must write exactly the input, once
            // and 16 times over. Answered as `output`: the vector's when it does, what the
            // careful decoder reads back from what it wrote when it does not, a note when
            // it fails. With ASCII in front, the encoder's blocks mix lengths, which the
            // encode vectors' single code points never do.
            let expected: Option<Vec<u32>> = t
                .output
                .iter()
                .map(|event| match event {
                    OutputEvent::CodePoint { codepoint } => {
                        parse_codepoint(codepoint).and_then(|cp| u32::try_from(cp).ok())
                    }
                    _ => None,
                })
                .collect();
            if let Some(cps) = expected.filter(|_| t.result == TestResult::Valid) {
                for copies in [1, COPIES] {
                    let mut written = Vec::new();
                    let answer = match encode(&cps.repeat(copies), &mut written) {
                        Ok(()) if written == input.repeat(copies) => json!(t.output),
                        Ok(()) => json!(collect(|each| output(
                            corrected::events(&written).located(),
                            each
                        ))),
                        Err(e) => json!(format!("the fast encoder failed: {e}")),
                    };
                    responses.push(respond(vec![("output", answer)]));
                }
            }
            // The direct transcoder to UTF-8: the vector's code points (read back from
            // the UTF-8 written) or its first span as a strict answer; a code point above
            // U+10FFFF, which UTF-8 cannot hold, says only that the input is valid. Back
            // from that UTF-8, `utf8_to_corrected` must write the input itself, answered
            // as `output` the way the encoder's is.
            let mut utf8_text = Vec::new();
            match to_utf8(&input, &mut utf8_text) {
                Ok(()) => {
                    let answer = match utf8::decode(&utf8_text) {
                        Ok(cps) => codepoint_events(&cps),
                        Err(e) => json!(format!("the transcoder wrote bad UTF-8: {e}")),
                    };
                    responses.push(respond(vec![("output", answer)]));
                    let mut back = Vec::new();
                    let answer = match from_utf8(&utf8_text, &mut back) {
                        Ok(()) if back == input => json!(t.output),
                        Ok(()) => json!(collect(|each| output(
                            corrected::events(&back).located(),
                            each
                        ))),
                        Err(e) => json!(format!("the transcoder from UTF-8 failed: {e}")),
                    };
                    responses.push(respond(vec![("output", answer)]));
                }
                Err(e) => responses.push(respond(vec![match e.stop() {
                    Some(stop) => ("strict", strict(Err(stop))),
                    None => ("valid", json!(true)),
                }])),
            }
        }
        Test::Encode(t) => {
            let Some(cp) = parse_codepoint(&t.codepoint).and_then(|cp| u32::try_from(cp).ok())
            else {
                return responses;
            };
            let mut one = Vec::new();
            let answer = match encode(&[cp], &mut one) {
                Ok(()) => ("bytes", json!(to_hex(&one))),
                Err(e) => ("error", encode_error(e, &one)),
            };
            responses.push(respond(vec![answer]));
            // 16 copies: the bytes 16 times, answered as the code point's when they are,
            // as everything written when not; the same error, with nothing written.
            let mut all = Vec::new();
            let answer = match encode(&[cp; COPIES], &mut all) {
                Ok(()) if all == one.repeat(COPIES) => ("bytes", json!(to_hex(&one))),
                Ok(()) => ("bytes", json!(to_hex(&all))),
                Err(e) => ("error", encode_error(e, &all)),
            };
            responses.push(respond(vec![answer]));
        }
        // A list: encoded into an empty buffer, and appended to one that already holds
        // bytes (which must stay); on a failure the buffer must hold exactly the code
        // points before it, encoded (`fast::encode_from_utf32`'s contract).
        Test::EncodeString(t) => {
            let Some(cps) = t
                .codepoints
                .iter()
                .map(|c| parse_codepoint(c).and_then(|cp| u32::try_from(cp).ok()))
                .collect::<Option<Vec<u32>>>()
            else {
                return responses;
            };
            const PREFIX: &[u8] = b"written before";
            for prefix in [&[][..], PREFIX] {
                let mut out = prefix.to_vec();
                let result = encode(&cps, &mut out);
                let written = out.strip_prefix(prefix).map(<[u8]>::to_vec);
                let answer = match (result, written) {
                    (_, None) => vec![("bytes", json!("the bytes before it were overwritten"))],
                    (Ok(()), Some(bytes)) => vec![("bytes", json!(to_hex(&bytes)))],
                    (Err(e), Some(bytes)) => {
                        let index = first_index(&cps, &e.codepoint);
                        let before = corrected::encode(cps[..index as usize].iter().copied());
                        let kind = if before.as_deref() == Ok(&bytes[..]) {
                            json!(e.kind.as_str())
                        } else {
                            json!(format!(
                                "{} with {} bytes written instead of the code points before it",
                                e.kind.as_str(),
                                bytes.len()
                            ))
                        };
                        vec![("error", kind), ("index", json!(index))]
                    }
                };
                responses.push(respond(answer));
            }
        }
        // The document checker's fast path (`push_fast`: fast validation, counting
        // newlines and skipping quiet bytes a block at a time), once: it runs on the
        // detected instruction set only.
        Test::Document(t) if auto => {
            let Ok(input) = from_hex(&t.input) else {
                return responses;
            };
            let chunks = match case.chunking {
                Some(chunking) => chunking.chunks(&input),
                None => vec![&input[..]],
            };
            let mut checker = DocumentChecker::new();
            let mut findings = Vec::new();
            for chunk in chunks {
                checker.push_fast(chunk, |f| findings.push(finding(&f)));
            }
            checker.finish(|f| findings.push(finding(&f)));
            responses.push(respond(vec![("findings", json!(findings))]));
        }
        Test::Document(_) => {}
    }
    responses
}

/// The answer of the codec's one handle per encoding ([`Encoding`]: `events_located`,
/// `decode_lossy`, `validate`, `validity`, `decode`) to a whole-input decode case; `None`
/// for anything else. The built-in `reference` answers through each encoding's own
/// module, so this is how the vectors-only test set of mutation testing
/// (`docs/mutation.md`) sees the handle, which an application may call instead.
// Test support, not API: only `tests/reference_vectors.rs` calls it (an integration
// test, so `#[cfg(test)]` cannot hide it).
#[doc(hidden)]
pub fn respond_handle(case: &Case) -> Option<Map<String, Value>> {
    let Test::Decode(t) = &*case.test else {
        return None;
    };
    let encoding = codec_encoding(case.encoding);
    if case.chunking.is_some() {
        return None;
    }
    let input = from_hex(&t.input).ok()?;
    let output: Vec<OutputEvent> = encoding
        .events_located(&input)
        .map(|l| event_json(&l.event, ToString::to_string))
        .collect();
    // `decode`'s code points, when it succeeds, must be the events' (all code points):
    // answered as `output` when they are not.
    let decoded = encoding.decode(&input);
    let output = match &decoded {
        Ok(cps)
            if cps.len() != output.len()
                || cps.iter().zip(&output).any(|(cp, e)| {
                    !matches!(e, OutputEvent::CodePoint { codepoint } if *codepoint == cp.to_string())
                }) =>
        {
            cps.iter()
                .map(|cp| OutputEvent::CodePoint {
                    codepoint: cp.to_string(),
                })
                .collect()
        }
        _ => output,
    };
    let lossy: Vec<String> = encoding
        .decode_lossy(&input)
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut out = Map::new();
    out.insert("id".into(), json!(case.id));
    out.insert("output".into(), json!(output));
    out.insert("result".into(), json!(encoding.validity(&input).as_str()));
    out.insert("lossy".into(), json!(lossy));
    out.insert("valid".into(), json!(encoding.validate(&input).is_ok()));
    out.insert("strict".into(), strict(decoded.map(drop)));
    Some(out)
}

/// Code points as an `output` list.
fn codepoint_events(cps: &[u32]) -> Value {
    let events: Vec<OutputEvent> = cps
        .iter()
        .map(|&cp| OutputEvent::CodePoint {
            codepoint: format_codepoint(cp.into()),
        })
        .collect();
    json!(events)
}

/// `error` for a failed fast encode: the kind, or, when bytes were written before the
/// first code point failed, a value that is no kind and says so.
fn encode_error(e: EncodeError, written: &[u8]) -> Value {
    if written.is_empty() {
        json!(e.kind.as_str())
    } else {
        json!(format!(
            "{} after {} bytes were written",
            e.kind.as_str(),
            written.len()
        ))
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
        // A codec panic is that case's CRASH, as an adapter's death would be, not the end
        // of the whole run before any report is written.
        match std::panic::catch_unwind(|| Self::respond(case)) {
            Ok(response) => Answer::Response(response.into()),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|m| m.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                Answer::Crash(format!("the reference codec panicked: {message}"))
            }
        }
    }

    fn declared(&self) -> Declared {
        Declared::Protocol2(Self::declaration())
    }
}

impl Reference {
    /// What the reference answers, as a protocol-2 adapter would declare it: every
    /// decode field and encode's kinds for each encoding the codec implements, and the
    /// document findings where it has a document checker.
    pub fn declaration() -> Declaration {
        let mut supports = Vec::new();
        for name in Names::ALL {
            let Some(codec) = codec(codec_encoding(name)) else {
                continue;
            };
            let support = |op: Op, fields: &[&str]| Support {
                encoding: name,
                op,
                fields: fields.iter().map(|f| f.to_string()).collect(),
                streaming: op != Op::Encode,
                limit: None,
            };
            supports.push(support(
                Op::Decode,
                &["output", "lossy", "result", "valid", "strict"],
            ));
            supports.push(support(
                Op::Encode,
                &["bytes", "error", "error-kind", "codepoints"],
            ));
            if codec.document.is_some() {
                supports.push(support(Op::Document, &["findings"]));
            }
        }
        Declaration {
            name: Some("corrected-utf8 crate".into()),
            supports,
            batch: None,
        }
    }
}
