//! Conformance adapters (protocol 2, with batches) for four Rust UTF-8 decoders, chosen
//! with `--decoder`:
//!
//! * `std`: `String::from_utf8_lossy` (lossy); `std::str::from_utf8`'s `Utf8Error`
//!   (`valid_up_to`, `error_len`) gives valid/strict; encode: `char::from_u32` +
//!   `char::encode_utf8`.
//! * `encoding_rs`: `UTF_8.decode_without_bom_handling` (lossy); a decoder without BOM
//!   handling and without replacement (`DecoderResult::Malformed(bad, good_after)`) gives
//!   valid/strict. Declares streaming: a chunked request is fed chunk by chunk to the
//!   same two kinds of `Decoder` (`decode_to_string`, `…_without_replacement`).
//! * `bstr`: `ByteSlice::to_str_lossy` (lossy); `ByteSlice::to_str`'s `bstr::Utf8Error`
//!   (`valid_up_to`, `error_len`) gives valid/strict.
//! * `simdutf`: `simdutf::validate_utf8` gives valid only (the library has no
//!   replacement mode, and its error position comes without a length).
//!
//! Each answers only what its API gives; everything else is `"unsupported": true`.
//! Protocol: conformance/adapters/README.md.

use std::io::{self, BufRead, BufWriter, Write};

use bstr::ByteSlice;
use serde_json::{json, Map, Value};

/// The most cases the adapter accepts in one batch request (declared in the hello).
const BATCH: usize = 4096;

#[derive(Clone, Copy)]
enum Decoder {
    Std,
    EncodingRs,
    Bstr,
    Simdutf,
}

impl Decoder {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "std" => Some(Self::Std),
            "encoding_rs" => Some(Self::EncodingRs),
            "bstr" => Some(Self::Bstr),
            "simdutf" => Some(Self::Simdutf),
            _ => None,
        }
    }

    fn hello(self) -> Value {
        let rustc = env!("MATRIX_RUSTC_VERSION");
        let (name, decode_fields, encode): (String, &[&str], bool) = match self {
            Self::Std => (
                format!("Rust std String::from_utf8_lossy / str::from_utf8 ({rustc})"),
                &["lossy", "result", "valid", "strict"],
                true,
            ),
            Self::EncodingRs => (
                "encoding_rs 0.8.44 UTF-8 decoder, without BOM handling".to_string(),
                &["lossy", "result", "valid", "strict"],
                false,
            ),
            Self::Bstr => (
                "bstr 1.14.0 to_str_lossy / to_str".to_string(),
                &["lossy", "result", "valid", "strict"],
                false,
            ),
            Self::Simdutf => (
                "simdutf 7.7.1 validate_utf8 (Rust crate simdutf 0.7.0)".to_string(),
                &["result", "valid"],
                false,
            ),
        };
        let mut decode = json!({"encoding": "utf-8", "op": "decode", "fields": decode_fields});
        if matches!(self, Self::EncodingRs) {
            // Its Decoder keeps a partial sequence between calls: chunked requests test it.
            decode["streaming"] = json!(true);
        }
        let mut supports = vec![decode];
        if encode {
            supports
                .push(json!({"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error"]}));
        }
        json!({"protocol": 2, "name": name, "supports": supports, "batch": BATCH})
    }

    /// The answer fields for one decode request.
    fn decode(self, data: &[u8]) -> Map<String, Value> {
        let mut m = Map::new();
        // (offset, length) of the first error, as the API reports it.
        let first_error: Option<(usize, usize)> = match self {
            Self::Std => {
                m.insert("lossy".into(), lossy(&String::from_utf8_lossy(data)));
                std::str::from_utf8(data).err().map(|e| {
                    let at = e.valid_up_to();
                    // `error_len() == None`: the input ends inside a sequence; the rest is it.
                    (at, e.error_len().unwrap_or(data.len() - at))
                })
            }
            Self::EncodingRs => {
                let (text, _) = encoding_rs::UTF_8.decode_without_bom_handling(data);
                m.insert("lossy".into(), lossy(&text));
                encoding_rs_first_error(data)
            }
            Self::Bstr => {
                m.insert("lossy".into(), lossy(&data.to_str_lossy()));
                data.to_str().err().map(|e| {
                    let at = e.valid_up_to();
                    (at, e.error_len().unwrap_or(data.len() - at))
                })
            }
            Self::Simdutf => {
                let valid = simdutf::validate_utf8(data);
                m.insert("valid".into(), json!(valid));
                m.insert(
                    "result".into(),
                    json!(if valid { "valid" } else { "invalid" }),
                );
                return m;
            }
        };
        let valid = first_error.is_none();
        m.insert("valid".into(), json!(valid));
        m.insert(
            "result".into(),
            json!(if valid { "valid" } else { "invalid" }),
        );
        m.insert(
            "strict".into(),
            match first_error {
                None => Value::Null,
                Some((offset, length)) => json!({"offset": offset, "length": length}),
            },
        );
        m
    }

    fn encode(self, cp: u64) -> Option<Map<String, Value>> {
        if !matches!(self, Self::Std) {
            return None;
        }
        let mut m = Map::new();
        // `char::from_u32` refuses surrogates and values above U+10FFFF without saying
        // which; a value wider than u32 cannot even be passed to it.
        match u32::try_from(cp).ok().and_then(char::from_u32) {
            Some(c) => {
                let mut buf = [0u8; 4];
                m.insert(
                    "bytes".into(),
                    json!(hex(c.encode_utf8(&mut buf).as_bytes())),
                );
            }
            None => {
                m.insert("error".into(), Value::Null);
            }
        }
        Some(m)
    }
}

/// encoding_rs's streaming decoder fed `chunks` one by one: the lossy text (with
/// replacement) and the first error (without), as for a whole input.
fn encoding_rs_streaming(chunks: &[Vec<u8>]) -> Map<String, Value> {
    let mut lossy_decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let mut text = String::new();
    let mut strict_decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let mut scratch = String::new();
    let mut consumed = 0;
    let mut first_error = None;
    // No chunk at all is the empty input: one last call with nothing.
    let empty = [Vec::new()];
    let chunks = if chunks.is_empty() {
        &empty[..]
    } else {
        chunks
    };
    for (i, chunk) in chunks.iter().enumerate() {
        let last = i + 1 == chunks.len();
        let mut pos = 0;
        loop {
            text.reserve(
                lossy_decoder
                    .max_utf8_buffer_length(chunk.len() - pos)
                    .unwrap_or(4096),
            );
            let (result, read, _) = lossy_decoder.decode_to_string(&chunk[pos..], &mut text, last);
            pos += read;
            if result == encoding_rs::CoderResult::InputEmpty {
                break;
            }
        }
        let mut pos = 0;
        while first_error.is_none() {
            scratch.clear();
            scratch.reserve(
                strict_decoder
                    .max_utf8_buffer_length_without_replacement(chunk.len() - pos)
                    .unwrap_or(4096),
            );
            let (result, read) = strict_decoder.decode_to_string_without_replacement(
                &chunk[pos..],
                &mut scratch,
                last,
            );
            pos += read;
            consumed += read;
            match result {
                encoding_rs::DecoderResult::InputEmpty => break,
                // The bad bytes end `good_after` bytes before what was consumed so far
                // (they may have started in an earlier chunk).
                encoding_rs::DecoderResult::Malformed(bad, good_after) => {
                    let (bad, good_after) = (usize::from(bad), usize::from(good_after));
                    first_error = Some((consumed - good_after - bad, bad));
                }
                encoding_rs::DecoderResult::OutputFull => {}
            }
        }
    }
    let mut m = Map::new();
    m.insert("lossy".into(), lossy(&text));
    let valid = first_error.is_none();
    m.insert("valid".into(), json!(valid));
    m.insert(
        "result".into(),
        json!(if valid { "valid" } else { "invalid" }),
    );
    m.insert(
        "strict".into(),
        first_error.map_or(
            Value::Null,
            |(offset, length)| json!({"offset": offset, "length": length}),
        ),
    );
    m
}

/// encoding_rs's strict mode: `Malformed(bad, good_after)` after `read` bytes means the
/// malformed sequence is the `bad` bytes ending `good_after` bytes before `read`.
fn encoding_rs_first_error(data: &[u8]) -> Option<(usize, usize)> {
    let mut decoder = encoding_rs::UTF_8.new_decoder_without_bom_handling();
    let mut out = String::new();
    let mut read = 0;
    loop {
        let want = decoder
            .max_utf8_buffer_length_without_replacement(data.len() - read)
            .unwrap_or(4096);
        out.clear();
        out.reserve(want);
        let (result, n) =
            decoder.decode_to_string_without_replacement(&data[read..], &mut out, true);
        read += n;
        match result {
            encoding_rs::DecoderResult::InputEmpty => return None,
            encoding_rs::DecoderResult::Malformed(bad, good_after) => {
                let (bad, good_after) = (usize::from(bad), usize::from(good_after));
                return Some((read - good_after - bad, bad));
            }
            // Only if the capacity above was not enough: go on with the rest.
            encoding_rs::DecoderResult::OutputFull => {}
        }
    }
}

fn lossy(text: &str) -> Value {
    Value::Array(
        text.chars()
            .map(|c| json!(format!("U+{:04X}", u32::from(c))))
            .collect(),
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|p| u8::from_str_radix(p, 16).ok())
        })
        .collect()
}

/// `U+` and hex digits; `None` for anything else or a value wider than 64 bits.
fn codepoint(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("U+")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return Some(u64::MAX);
    }
    u64::from_str_radix(
        if significant.is_empty() {
            "0"
        } else {
            significant
        },
        16,
    )
    .ok()
}

/// One request object (not a batch) to its answer.
fn respond(decoder: Decoder, request: &Value) -> Value {
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let mut answer = Map::new();
    answer.insert("id".into(), id);
    let fields = match (
        request.get("encoding").and_then(Value::as_str),
        request.get("op").and_then(Value::as_str),
    ) {
        (_, Some("hello")) => match decoder.hello() {
            Value::Object(h) => Some(h),
            _ => None,
        },
        (Some("utf-8"), Some("decode")) => match request.get("chunks") {
            None => request
                .get("input")
                .and_then(Value::as_str)
                .and_then(unhex)
                .map(|data| decoder.decode(&data)),
            // A chunked request (`--splits`): only the decoder that declares streaming.
            Some(chunks) => chunks
                .as_array()
                .filter(|_| matches!(decoder, Decoder::EncodingRs))
                .and_then(|list| {
                    list.iter()
                        .map(|c| c.as_str().and_then(unhex))
                        .collect::<Option<Vec<_>>>()
                })
                .map(|chunks| encoding_rs_streaming(&chunks)),
        },
        (Some("utf-8"), Some("encode")) => request
            .get("codepoint")
            .and_then(Value::as_str)
            .and_then(codepoint)
            .and_then(|cp| decoder.encode(cp)),
        _ => None,
    };
    match fields {
        Some(fields) => answer.extend(fields),
        None => {
            answer.insert("unsupported".into(), json!(true));
        }
    }
    Value::Object(answer)
}

/// One input line to one answer line: a request, a batch, or something unreadable.
fn handle_line(decoder: Decoder, line: &[u8]) -> Value {
    let request: Value = match serde_json::from_slice(line) {
        Ok(v @ Value::Object(_)) => v,
        _ => return json!({"id": null, "unsupported": true}),
    };
    if request.get("op").and_then(Value::as_str) == Some("batch") {
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        return match request.get("requests").and_then(Value::as_array) {
            Some(requests) => {
                let responses: Vec<Value> = requests
                    .iter()
                    .map(|r| match r {
                        Value::Object(_) => respond(decoder, r),
                        _ => json!({"id": null, "unsupported": true}),
                    })
                    .collect();
                json!({"id": id, "responses": responses})
            }
            None => json!({"id": id, "unsupported": true}),
        };
    }
    respond(decoder, &request)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let decoder = match args
        .iter()
        .position(|a| a == "--decoder")
        .and_then(|i| args.get(i + 1))
    {
        Some(name) => Decoder::parse(name),
        None => None,
    };
    let Some(decoder) = decoder else {
        eprintln!("usage: matrix-rust --decoder std|encoding_rs|bstr|simdutf");
        std::process::exit(2);
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let answer = handle_line(decoder, &line);
        let written = serde_json::to_writer(&mut out, &answer)
            .map_err(io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        if written.is_err() {
            // The runner closed the pipe: nothing left to answer.
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_answers_each_request_in_order() {
        let line = br#"{"id":"batch-1","op":"batch","requests":[
            {"id":"a","encoding":"utf-8","op":"decode","input":"41c3"},
            {"id":"b","encoding":"utf-8","op":"encode","codepoint":"U+D800"},
            {"id":"c","encoding":"corrected-utf8","op":"decode","input":""},
            7]}"#;
        let answer = handle_line(Decoder::Std, line);
        assert_eq!(answer["id"], "batch-1");
        let r = answer["responses"].as_array().unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(r[0]["id"], "a");
        assert_eq!(r[0]["lossy"], json!(["U+0041", "U+FFFD"]));
        assert_eq!(r[0]["strict"], json!({"offset": 1, "length": 1}));
        assert_eq!(r[1], json!({"id": "b", "error": null}));
        assert_eq!(r[2], json!({"id": "c", "unsupported": true}));
        assert_eq!(r[3], json!({"id": null, "unsupported": true}));
    }

    #[test]
    fn malformed_lines_get_unsupported() {
        for line in [
            &b""[..],
            b"\n",
            b"{",
            b"[1]",
            b"\xff\xfe",
            b"{\"id\":3,\"op\":\"batch\"}",
        ] {
            let answer = handle_line(Decoder::Bstr, line);
            assert_eq!(answer["unsupported"], true, "{line:?}");
        }
        let bad_hex = handle_line(
            Decoder::Std,
            br#"{"id":"x","encoding":"utf-8","op":"decode","input":"4"}"#,
        );
        assert_eq!(bad_hex, json!({"id": "x", "unsupported": true}));
    }

    #[test]
    fn encoding_rs_strict_positions() {
        assert_eq!(encoding_rs_first_error(b"ab\xe2\x82"), Some((2, 2)));
        assert_eq!(encoding_rs_first_error(b"a\xc0\xafb"), Some((1, 1)));
        assert_eq!(encoding_rs_first_error(b"a\xe2\x82\xac"), None);
    }

    #[test]
    fn encoding_rs_streaming_matches_whole_input() {
        let inputs: [&[u8]; 5] = [
            b"a\xe2\x82\xacb",
            b"\xf0\x9f\x98",
            b"\xed\xa0\x80\xc3",
            b"\xc0\xaf\xe2\x82",
            b"",
        ];
        for input in inputs {
            let whole = Decoder::EncodingRs.decode(input);
            for split in 0..=input.len() {
                let chunks = vec![input[..split].to_vec(), input[split..].to_vec()];
                assert_eq!(
                    encoding_rs_streaming(&chunks),
                    whole,
                    "{input:?} split at {split}"
                );
            }
            let bytes: Vec<Vec<u8>> = input.iter().map(|b| vec![*b]).collect();
            assert_eq!(
                encoding_rs_streaming(&bytes),
                whole,
                "{input:?} byte by byte"
            );
        }
    }

    #[test]
    fn hello_declares_batch() {
        for d in [
            Decoder::Std,
            Decoder::EncodingRs,
            Decoder::Bstr,
            Decoder::Simdutf,
        ] {
            assert_eq!(d.hello()["batch"], 4096);
        }
    }
}
