//! `cutf8 decode`: the events of a file, as text lines or as the vectors' JSON.

use crate::args::DecodeArgs;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use corrected_utf8::{Encoding, Event, Located, StreamDecoder};
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
}

pub(crate) fn run(args: &DecodeArgs) -> Result<Status> {
    let mut decoder = stream_decoder(args.encoding)?;
    let mut input = Input::open(&args.file)?;
    let mut out = io::stdout();
    let mut sink = Sink {
        json: args.json,
        first: true,
        invalid: false,
        failed: None,
    };
    if args.json {
        out.write_all(b"[").out()?;
    }
    let mut buf = vec![0; io::CHUNK];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        decoder.push(&buf[..n], |e| sink.event(&mut out, e));
        sink.check()?;
    }
    decoder.finish(|e| sink.event(&mut out, e));
    sink.check()?;
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

/// A streaming decoder, or exit 2 for an encoding the codec cannot stream yet.
pub(crate) fn stream_decoder(encoding: Encoding) -> Result<StreamDecoder> {
    StreamDecoder::new(encoding)
        .ok_or_else(|| Failure::trouble(format_args!("{encoding} is not supported yet")))
}

/// Writes events as they come; the decoder's callback cannot fail, so the first write
/// error is kept and the rest of the chunk skipped.
struct Sink {
    json: bool,
    first: bool,
    invalid: bool,
    failed: Option<std::io::Error>,
}

impl Sink {
    fn event(&mut self, out: &mut io::Out, located: Located) {
        if self.failed.is_some() {
            return;
        }
        self.invalid |= located.event.error().is_some();
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

    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

fn json(event: Event) -> JsonEvent {
    match event {
        Event::CodePoint(cp) => JsonEvent::CodePoint {
            codepoint: format!("U+{cp:04X}"),
        },
        Event::Error(e) => JsonEvent::Error {
            error: e.kind.as_str(),
            offset: e.offset,
            length: e.length,
        },
    }
}

/// `3: U+00CF` or `5: error: truncated (2 bytes)`: the byte offset, then the event.
fn line(out: &mut io::Out, located: Located) -> std::io::Result<()> {
    match located.event {
        Event::CodePoint(cp) => writeln!(out, "{}: U+{cp:04X}", located.offset),
        Event::Error(e) => {
            let unit = if e.length == 1 { "byte" } else { "bytes" };
            writeln!(out, "{}: error: {} ({} {unit})", e.offset, e.kind, e.length)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::{DecodeError, ErrorKind};

    #[test]
    fn json_matches_the_vectors_output_form() {
        let cp = serde_json::to_string(&json(Event::CodePoint(0xA0))).unwrap();
        assert_eq!(cp, r#"{"codepoint":"U+00A0"}"#);
        let big = serde_json::to_string(&json(Event::CodePoint(0x8421_109F))).unwrap();
        assert_eq!(big, r#"{"codepoint":"U+8421109F"}"#);
        let err = Event::Error(DecodeError {
            kind: ErrorKind::UnexpectedContinuation,
            offset: 7,
            length: 1,
        });
        assert_eq!(
            serde_json::to_string(&json(err)).unwrap(),
            r#"{"error":"unexpected-continuation","offset":7,"length":1}"#
        );
    }
}
