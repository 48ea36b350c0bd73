//! `cutf8 decode`: the events of a file, as text lines or as the vectors' JSON.

use crate::args::DecodeArgs;
use crate::codepoint::CodePoint;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use corrected_utf8::{utf_inf8, Decoder, Encoding, Event, Located};
use serde::Serialize;
use std::io::Write;

/// One event in the vectors' `output` form.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonEvent {
    CodePoint {
        codepoint: String,
    },
    Error {
        error: &'static str,
        offset: u64,
        length: u64,
    },
    /// Always `reserved: true`: the field marks the class.
    Reserved {
        reserved: bool,
        offset: u64,
        length: u64,
    },
}

pub(crate) fn run(args: &DecodeArgs) -> Result<Status> {
    let mut decoder = new_decoder(args.encoding, args.max_code_len, "--encoding")?;
    let mut input = Input::open(&args.file)?;
    let mut sink = Sink {
        out: io::stdout(),
        json: args.json,
        first: true,
        invalid: false,
        failed: None,
    };
    if args.json {
        sink.out.write_all(b"[").out()?;
    }
    let mut buf = vec![0; io::CHUNK];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        decoder.push_to(&buf[..n], &mut sink);
        sink.check()?;
    }
    decoder.finish_to(&mut sink);
    sink.check()?;
    let mut out = sink.out;
    if args.json {
        out.write_all(if sink.first { b"]\n" } else { b"\n]\n" })
            .out()?;
    }
    out.flush().out()?;
    Ok(if sink.invalid {
        Status::Invalid
    } else {
        Status::Ok
    })
}

/// Receives a decoder's events, whichever width its code points have.
pub(crate) trait EventSink {
    fn event<C: CodePoint>(&mut self, located: Located<C>);
}

/// A streaming decoder for `encoding`; `max_code_len` is UTF-∞-8's limit, and an error
/// for the others (`flag` names the option that chose the encoding, for the message).
pub(crate) fn new_decoder(
    encoding: Encoding,
    max_code_len: Option<u32>,
    flag: &str,
) -> Result<Decoder> {
    match (encoding, max_code_len) {
        (Encoding::UtfInf8, Some(limit)) => {
            Ok(Decoder::UtfInf8(utf_inf8::StreamDecoder::with_limit(limit)))
        }
        (_, None) => Ok(encoding.new_decoder()),
        (_, Some(_)) => Err(Failure::trouble(format_args!(
            "--max-code-len limits utf-inf-8 codes, so it needs {flag} utf-inf-8"
        ))),
    }
}

/// Feeds a decoder's events to an [`EventSink`] with each encoding's own code point
/// type, so that the 32-bit encodings never build a `BigCodePoint`.
pub(crate) trait PushTo {
    fn push_to(&mut self, chunk: &[u8], sink: &mut impl EventSink);
    fn finish_to(&mut self, sink: &mut impl EventSink);
}

impl PushTo for Decoder {
    fn push_to(&mut self, chunk: &[u8], sink: &mut impl EventSink) {
        match self {
            Decoder::CorrectedUtf8(d) => d.push(chunk, |e| sink.event(e)),
            Decoder::Utf8(d) => d.push(chunk, |e| sink.event(e)),
            Decoder::UtfInf8(d) => d.push(chunk, |e| sink.event(e)),
        }
    }

    fn finish_to(&mut self, sink: &mut impl EventSink) {
        match self {
            Decoder::CorrectedUtf8(d) => d.finish(|e| sink.event(e)),
            Decoder::Utf8(d) => d.finish(|e| sink.event(e)),
            Decoder::UtfInf8(d) => d.finish(|e| sink.event(e)),
        }
    }
}

/// Writes events as they come; the decoder's callback cannot fail, so the first write
/// error is kept and the rest of the chunk skipped.
struct Sink {
    out: io::Out,
    json: bool,
    first: bool,
    invalid: bool,
    failed: Option<std::io::Error>,
}

impl EventSink for Sink {
    fn event<C: CodePoint>(&mut self, located: Located<C>) {
        if self.failed.is_some() {
            return;
        }
        // Only an error span makes the input invalid (exit 1): a reserved span is well-formed
        // input this version gives no meaning, shown as its own event, and the decode of it
        // succeeded.
        self.invalid |= located.event.error().is_some();
        let out = &mut self.out;
        let written = if self.json {
            let sep: &[u8] = if self.first { b"\n  " } else { b",\n  " };
            out.write_all(sep).and_then(|()| {
                serde_json::to_writer(&mut *out, &json(located.event)).map_err(Into::into)
            })
        } else {
            line(out, located)
        };
        self.first = false;
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }
}

impl Sink {
    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

fn json<C: CodePoint>(event: Event<C>) -> JsonEvent {
    match event {
        Event::CodePoint(cp) => JsonEvent::CodePoint {
            codepoint: {
                let mut text = String::new();
                cp.push_u_plus(&mut text);
                text
            },
        },
        Event::Error(e) => JsonEvent::Error {
            error: e.kind.as_str(),
            offset: e.offset,
            length: e.length,
        },
        Event::Reserved(r) => JsonEvent::Reserved {
            reserved: true,
            offset: r.offset,
            length: r.length,
        },
    }
}

/// `3: U+00CF`, `5: error: truncated (2 bytes)` or `7: reserved (3 bytes)`: the byte
/// offset, then the event.
fn line<C: CodePoint>(out: &mut io::Out, located: Located<C>) -> std::io::Result<()> {
    match located.event {
        Event::CodePoint(cp) => {
            let mut text = format!("{}: ", located.offset);
            cp.push_u_plus(&mut text);
            text.push('\n');
            out.write_all(text.as_bytes())
        }
        Event::Error(e) => {
            let unit = if e.length == 1 { "byte" } else { "bytes" };
            writeln!(out, "{}: error: {} ({} {unit})", e.offset, e.kind, e.length)
        }
        Event::Reserved(r) => {
            let unit = if r.length == 1 { "byte" } else { "bytes" };
            writeln!(out, "{}: reserved ({} {unit})", r.offset, r.length)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::{BigCodePoint, DecodeError, ErrorKind, ReservedSpan};

    #[test]
    fn json_matches_the_vectors_output_form() {
        let cp = serde_json::to_string(&json(Event::CodePoint(0xA0))).unwrap();
        assert_eq!(cp, r#"{"codepoint":"U+00A0"}"#);
        let big = serde_json::to_string(&json(Event::CodePoint(0x8421_109F))).unwrap();
        assert_eq!(big, r#"{"codepoint":"U+8421109F"}"#);
        let err = Event::<u32>::Error(DecodeError {
            kind: ErrorKind::UnexpectedContinuation,
            offset: 7,
            length: 1,
        });
        assert_eq!(
            serde_json::to_string(&json(err)).unwrap(),
            r#"{"error":"unexpected-continuation","offset":7,"length":1}"#
        );
        let reserved = Event::<u32>::Reserved(ReservedSpan {
            offset: 3,
            length: 2,
        });
        assert_eq!(
            serde_json::to_string(&json(reserved)).unwrap(),
            r#"{"reserved":true,"offset":3,"length":2}"#
        );
    }

    #[test]
    fn big_code_points_print_like_small_ones() {
        for (text, want) in [
            ("U+A0", r#"{"codepoint":"U+00A0"}"#),
            ("U+0", r#"{"codepoint":"U+0000"}"#),
            (
                "U+800000000000000000",
                r#"{"codepoint":"U+800000000000000000"}"#,
            ),
        ] {
            let cp: BigCodePoint = text.parse().unwrap();
            assert_eq!(
                serde_json::to_string(&json(Event::CodePoint(cp))).unwrap(),
                want
            );
        }
    }

    #[test]
    fn max_code_len_needs_utf_inf_8() {
        assert!(new_decoder(Encoding::UtfInf8, Some(13), "--encoding").is_ok());
        assert!(new_decoder(Encoding::Utf8, None, "--encoding").is_ok());
        let Err(Failure::Trouble(message)) = new_decoder(Encoding::Utf8, Some(13), "--from") else {
            panic!("--max-code-len with utf-8 is accepted");
        };
        assert!(message.ends_with("needs --from utf-inf-8"), "{message}");
    }
}
