//! `cutf8 decode`: the events of a file, as text lines or as the vectors' JSON.

use crate::args::DecodeArgs;
use crate::codepoint::CodePoint;
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use crate::stretch::{self, Paths};
use corrected_utf8::{corrected::fast, utf_inf8, Decoder, Encoding, Event, Located};
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
    let decoder = new_decoder(args.encoding, args.max_code_len, "--encoding")?;
    let sink = Sink::new(io::stdout(), args.json);
    let mut decoding = Decoding::new(decoder, args.encoding, sink);
    let mut input = Input::open(&args.file)?;
    if args.json {
        decoding.sink.out.write_all(b"[").out()?;
    }
    let mut buf = vec![0; io::CHUNK];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        stretch::alternate(&mut decoding, &buf[..n]);
        decoding.sink.check()?;
    }
    let Decoding {
        mut decoder,
        mut sink,
        ..
    } = decoding;
    decoder.finish_to(&mut sink);
    sink.flush_lines();
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

/// A decoder and where its events go.
struct Decoding<W: Write> {
    decoder: Decoder,
    encoding: Encoding,
    /// The code points of one window of the fast path.
    codepoints: Vec<u32>,
    sink: Sink<W>,
}

impl<W: Write> Decoding<W> {
    fn new(decoder: Decoder, encoding: Encoding, sink: Sink<W>) -> Decoding<W> {
        Decoding {
            decoder,
            encoding,
            codepoints: vec![0; stretch::WINDOW],
            sink,
        }
    }
}

impl<W: Write> Paths for Decoding<W> {
    /// The code points of the longest prefix of `chunk` that is whole valid sequences,
    /// decoded by the fast path; nothing when the decoder is in the middle of a sequence
    /// or a reserved span, or for UTF-∞-8.
    fn bulk(&mut self, chunk: &[u8]) -> usize {
        let Some(offset) = stretch::idle_at(&self.decoder) else {
            return 0;
        };
        let mut done = 0;
        while done < chunk.len() {
            let window = &chunk[done..chunk.len().min(done + stretch::WINDOW)];
            let at = offset + done as u64;
            let valid = match self.encoding {
                Encoding::CorrectedUtf8 => {
                    let valid = stretch::corrected_valid(window);
                    let n = fast::decode_to_utf32(valid, &mut self.codepoints)
                        .expect("a valid prefix decodes");
                    // Each code point's sequence starts at a byte that is not a
                    // continuation byte, and ends where the next one starts.
                    let mut starts = (0..valid.len())
                        .filter(|&i| valid[i] & 0xC0 != 0x80)
                        .chain([valid.len()]);
                    let mut start = starts.next().unwrap_or(0);
                    for (&cp, end) in self.codepoints[..n].iter().zip(starts) {
                        self.sink.code_point(cp, at + start as u64, end - start);
                        start = end;
                    }
                    valid
                }
                Encoding::Utf8 => {
                    let text = stretch::utf8_valid(window);
                    for (start, c) in text.char_indices() {
                        self.sink
                            .code_point(u32::from(c), at + start as u64, c.len_utf8());
                    }
                    text.as_bytes()
                }
                Encoding::UtfInf8 => &[],
            };
            done += valid.len();
            if !stretch::next_window(valid.len(), valid.len(), window.len()) {
                break;
            }
        }
        if done > 0 {
            self.decoder = self
                .encoding
                .new_decoder()
                .starting_at(offset + done as u64);
        }
        done
    }

    fn careful(&mut self, chunk: &[u8]) {
        self.decoder.push_to(chunk, &mut self.sink);
    }

    fn stopped(&self) -> bool {
        // A write error stops the writing; the caller reports it after the chunk.
        self.sink.failed.is_some()
    }
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

/// Bytes of formatted events gathered before they go to standard output.
const LINES: usize = 8192;

/// The longest line of a 32-bit code point: a 20-digit offset, `: U+`, 8 hex digits and
/// a newline; or `,\n  {"codepoint":"U+`, 8 hex digits and `"}`.
const LINE_MAX: usize = 48;

/// Writes events as they come; the decoder's callback cannot fail, so the first write
/// error is kept and the rest of the chunk skipped.
///
/// `decode` writes a line per code point, about 8 bytes of output per byte of input,
/// and formatting them with `format!` was most of its time: the lines of code points are
/// formatted by hand into fixed-size slots of a buffer of lines, which goes to the
/// output whole.
struct Sink<W: Write> {
    out: W,
    /// The formatted lines not yet written: `lines[..len]`, with room for one more.
    lines: Vec<u8>,
    len: usize,
    json: bool,
    first: bool,
    invalid: bool,
    failed: Option<std::io::Error>,
}

impl<W: Write> EventSink for Sink<W> {
    fn event<C: CodePoint>(&mut self, located: Located<C>) {
        if self.failed.is_some() {
            return;
        }
        // Only an error span makes the input invalid (exit 1): a reserved span is well-formed
        // input this version gives no meaning, shown as its own event, and the decode of it
        // succeeded.
        self.invalid |= located.event.error().is_some();
        let mut line = Vec::new();
        if self.json {
            line.extend_from_slice(if self.first { b"\n  " } else { b",\n  " });
            json_event(&mut line, located.event);
        } else {
            text_line(&mut line, located);
        }
        self.first = false;
        // Rare (an error, a reserved span, a UTF-∞-8 code point) and of any length.
        self.flush_lines();
        if let Err(e) = self.out.write_all(&line) {
            self.failed = Some(e);
        }
    }
}

impl<W: Write> Sink<W> {
    fn new(out: W, json: bool) -> Sink<W> {
        Sink {
            out,
            lines: vec![0; LINES + LINE_MAX],
            len: 0,
            json,
            first: true,
            invalid: false,
            failed: None,
        }
    }

    /// The event of a 32-bit code point, as [`EventSink::event`] writes it.
    #[inline]
    fn code_point(&mut self, cp: u32, offset: u64, length: usize) {
        if self.failed.is_some() || self.first {
            // The first event of a JSON array has no comma before it.
            let event = Event::CodePoint(cp);
            let length = length as u64;
            return self.event(Located {
                offset,
                length,
                event,
            });
        }
        let slot: &mut [u8; LINE_MAX] = (&mut self.lines[self.len..self.len + LINE_MAX])
            .try_into()
            .expect("room for a line");
        self.len += if self.json {
            const START: &[u8; 18] = b",\n  {\"codepoint\":\"";
            slot[..18].copy_from_slice(START);
            let end = 18 + u_plus(&mut slot[18..28], cp);
            slot[end..end + 2].copy_from_slice(b"\"}");
            end + 2
        } else {
            let digits = decimal(&mut slot[..20], offset);
            slot[digits..digits + 2].copy_from_slice(b": ");
            let end = digits + 2 + u_plus(&mut slot[digits + 2..digits + 12], cp);
            slot[end] = b'\n';
            end + 1
        };
        if self.len > LINES {
            self.flush_lines();
        }
    }

    /// Hands the gathered lines to the output.
    fn flush_lines(&mut self) {
        if let Err(e) = self.out.write_all(&self.lines[..self.len]) {
            self.failed.get_or_insert(e);
        }
        self.len = 0;
    }

    fn check(&mut self) -> Result<()> {
        self.failed
            .take()
            .map_or(Ok(()), |e| Err(io::write_failed(e)))
    }
}

/// Writes `n` in decimal at the start of `out`; returns the number of digits.
#[inline]
fn decimal(out: &mut [u8], mut n: u64) -> usize {
    const PAIRS: [u8; 200] = {
        let mut pairs = [0; 200];
        let mut i = 0;
        while i < 100 {
            pairs[2 * i] = b'0' + (i / 10) as u8;
            pairs[2 * i + 1] = b'0' + (i % 10) as u8;
            i += 1;
        }
        pairs
    };
    let digits = n.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut i = digits;
    while n >= 100 {
        let pair = (n % 100) as usize;
        n /= 100;
        i -= 2;
        out[i..i + 2].copy_from_slice(&PAIRS[2 * pair..2 * pair + 2]);
    }
    if n >= 10 {
        out[..2].copy_from_slice(&PAIRS[2 * n as usize..2 * n as usize + 2]);
    } else {
        out[0] = b'0' + n as u8;
    }
    digits
}

/// Writes `U+` and at least 4 uppercase hex digits of `cp` at the start of `out` (10
/// bytes); returns the length written.
#[inline]
fn u_plus(out: &mut [u8], cp: u32) -> usize {
    let digits = (8 - cp.leading_zeros() as usize / 4).max(4);
    out[..2].copy_from_slice(b"U+");
    for (i, d) in out[2..2 + digits].iter_mut().rev().enumerate() {
        *d = b"0123456789ABCDEF"[(cp >> (4 * i)) as usize & 0xF];
    }
    2 + digits
}

fn json<C: CodePoint>(event: Event<C>) -> JsonEvent {
    match event {
        Event::CodePoint(cp) => JsonEvent::CodePoint {
            codepoint: {
                let mut text = Vec::new();
                cp.push_u_plus(&mut text);
                String::from_utf8(text).expect("U+ and hex digits")
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

/// Appends `event` in the vectors' `output` form; a code point by hand, as
/// `serde_json` writes it (the others are rare).
fn json_event<C: CodePoint>(line: &mut Vec<u8>, event: Event<C>) {
    match event {
        Event::CodePoint(cp) => {
            line.extend_from_slice(br#"{"codepoint":""#);
            cp.push_u_plus(line);
            line.extend_from_slice(br#""}"#);
        }
        event => serde_json::to_writer(line, &json(event)).expect("writing to memory"),
    }
}

/// `3: U+00CF`, `5: error: truncated (2 bytes)` or `7: reserved (3 bytes)`: the byte
/// offset, then the event, then a newline.
fn text_line<C: CodePoint>(line: &mut Vec<u8>, located: Located<C>) {
    push_decimal(line, located.offset);
    line.extend_from_slice(b": ");
    match located.event {
        Event::CodePoint(cp) => cp.push_u_plus(line),
        Event::Error(e) => {
            let unit = if e.length == 1 { "byte" } else { "bytes" };
            let text = format!("error: {} ({} {unit})", e.kind, e.length);
            line.extend_from_slice(text.as_bytes());
        }
        Event::Reserved(r) => {
            let unit = if r.length == 1 { "byte" } else { "bytes" };
            let text = format!("reserved ({} {unit})", r.length);
            line.extend_from_slice(text.as_bytes());
        }
    }
    line.push(b'\n');
}

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::{BigCodePoint, DecodeError, ErrorKind, ReservedSpan};

    /// `decode`'s output at chunks of `size`, fast paths and all.
    fn fast(encoding: Encoding, json: bool, input: &[u8], size: usize) -> Vec<u8> {
        let sink = Sink::new(Vec::new(), json);
        let mut d = Decoding::new(encoding.new_decoder(), encoding, sink);
        for chunk in input.chunks(size) {
            stretch::alternate(&mut d, chunk);
        }
        d.decoder.finish_to(&mut d.sink);
        d.sink.flush_lines();
        d.sink.out
    }

    /// The careful path alone: the codec's streaming decoder over the whole input in
    /// one push, each event formatted by the general path.
    fn careful(encoding: Encoding, json: bool, input: &[u8]) -> Vec<u8> {
        let mut sink = Sink::new(Vec::new(), json);
        let mut decoder = encoding.new_decoder();
        decoder.push_to(input, &mut sink);
        decoder.finish_to(&mut sink);
        sink.flush_lines();
        sink.out
    }

    /// The fast path's events and their hand-made formatting are the careful path's, on
    /// the fuzz corpus and the vectors' inputs, at chunk sizes from 1 byte to more than
    /// a window.
    #[test]
    fn fast_and_careful_paths_agree_on_the_corpus_and_vectors() {
        for input in stretch::tests::samples() {
            let sizes: &[usize] = if input.len() > 100_000 {
                &[7, 4097, io::CHUNK]
            } else {
                &[1, 3, 16, 4095, 4097, io::CHUNK]
            };
            for encoding in [Encoding::CorrectedUtf8, Encoding::Utf8] {
                for json in [false, true] {
                    let want = careful(encoding, json, &input);
                    for &size in sizes.iter().filter(|&&s| s == 1 || s < 2 * input.len()) {
                        assert!(
                            fast(encoding, json, &input, size) == want,
                            "{encoding}, json {json}, chunk size {size}, input {:02x?}",
                            &input[..input.len().min(64)]
                        );
                    }
                }
            }
        }
    }

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
