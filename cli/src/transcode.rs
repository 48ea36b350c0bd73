//! `cutf8 transcode`: from one encoding to another, streaming in constant memory.
//!
//! Decisions (also in `cli/README.md`):
//! * Reading corrected-utf8, a leading magic number is dropped: it marks the file and is
//!   not part of the text (`docs/semantics.md` §2.6). Offsets in messages still count it.
//! * `--magic` writes the magic number first; it needs `--to corrected-utf8`, the only
//!   encoding that has one.
//! * A decoding error or a code point with no encoding in the target stops the run with
//!   exit 1 and the input byte offset, after writing the transcoding of everything before
//!   it; `--replace` writes U+FFFD instead (it has an encoding in every target).
//! * Reading utf-inf-8, memory holds at most one code of `--max-code-len` bytes (and the
//!   code point it decodes to); a longer code is a `limit-exceeded` decoding error.

use crate::args::TranscodeArgs;
use crate::codepoint::{no_encoding, CodePoint};
use crate::decode::{new_decoder, EventSink, PushTo};
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use corrected_utf8::{
    corrected::MAGIC, BigCodePoint, DecodeError, Decoder, Encoding, ErrorKind, Event, Located,
};
use std::io::Write;

pub(crate) fn run(args: &TranscodeArgs) -> Result<Status> {
    if args.magic && args.to != Encoding::CorrectedUtf8 {
        return Err(Failure::trouble(
            "--magic writes the corrected-utf8 magic number, so it needs --to corrected-utf8 \
             (reading corrected-utf8 always drops a leading one)",
        ));
    }
    let mut transcoder = Transcoder::new(args.from, args.to, args.replace, args.max_code_len)?;
    let mut input = Input::open(&args.file)?;
    let mut out = io::stdout();
    if args.magic {
        out.write_all(&MAGIC).out()?;
    }
    let result = pump(&mut input, &mut transcoder, |bytes| {
        out.write_all(bytes).out()
    });
    // On a data error, what came before it is written before the message.
    out.flush().out()?;
    result.map(|()| Status::Ok)
}

/// Reads `input` to its end through `transcoder`, handing each chunk's output to `emit`.
pub(crate) fn pump<F>(input: &mut Input, transcoder: &mut Transcoder, mut emit: F) -> Result<()>
where
    F: FnMut(&[u8]) -> Result<()>,
{
    let mut buf = vec![0; io::CHUNK];
    loop {
        let n = input.read(&mut buf)?;
        if n == 0 {
            break;
        }
        let problem = transcoder.push(&buf[..n]);
        emit(transcoder.output())?;
        problem.map_or(Ok(()), |p| Err(p.failure(input.name(), transcoder)))?;
    }
    let problem = transcoder.finish();
    emit(transcoder.output())?;
    problem.map_or(Ok(()), |p| Err(p.failure(input.name(), transcoder)))
}

/// Why transcoding stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// The input is not valid in its encoding.
    Decode(DecodeError),
    /// The code point at this input offset has no encoding in the target.
    Encode {
        offset: u64,
        codepoint: BigCodePoint,
        kind: ErrorKind,
    },
}

impl Problem {
    fn failure(self, name: &str, t: &Transcoder) -> Failure {
        let why = match self {
            Problem::Decode(e) => {
                let unit = if e.length == 1 { "byte" } else { "bytes" };
                format!(
                    "byte {}: not valid {}: {} ({} {unit})",
                    e.offset, t.from, e.kind, e.length
                )
            }
            Problem::Encode {
                offset,
                codepoint,
                kind,
            } => format!(
                "byte {offset}: {}",
                no_encoding(&codepoint, t.encoder.to, kind)
            ),
        };
        Failure::Invalid(format!("{name}: {why} (--replace writes U+FFFD instead)"))
    }
}

/// Decodes chunks in one encoding and encodes them in another; holds at most one
/// chunk's output (and, reading utf-inf-8, one code).
pub(crate) struct Transcoder {
    from: Encoding,
    decoder: Decoder,
    /// Reading corrected-utf8: how many bytes at the start matched the magic number so
    /// far, until that is decided.
    magic: Option<usize>,
    /// Apart from the decoder, so that the decoder can call it back.
    encoder: Encoder,
}

struct Encoder {
    to: Encoding,
    replace: bool,
    out: Vec<u8>,
    problem: Option<Problem>,
}

impl Transcoder {
    /// `max_code_len` is the UTF-∞-8 decoder's limit; only `--from utf-inf-8` takes one.
    pub(crate) fn new(
        from: Encoding,
        to: Encoding,
        replace: bool,
        max_code_len: Option<u32>,
    ) -> Result<Transcoder> {
        Ok(Transcoder {
            from,
            decoder: new_decoder(from, max_code_len, "--from")?,
            magic: (from == Encoding::CorrectedUtf8).then_some(0),
            encoder: Encoder {
                to,
                replace,
                out: Vec::with_capacity(io::CHUNK),
                problem: None,
            },
        })
    }

    /// Transcodes the next chunk into [`output`](Self::output); stops at the first
    /// problem unless replacing.
    pub(crate) fn push(&mut self, mut chunk: &[u8]) -> Option<Problem> {
        self.encoder.out.clear();
        if let Some(matched) = self.magic {
            let take = chunk.len().min(MAGIC.len() - matched);
            if chunk[..take] == MAGIC[matched..matched + take] {
                chunk = &chunk[take..];
                if matched + take < MAGIC.len() {
                    self.magic = Some(matched + take);
                    return None;
                }
                self.magic = None;
                self.decoder = Encoding::CorrectedUtf8
                    .new_decoder()
                    .starting_at(MAGIC.len() as u64);
            } else {
                // Not the magic number: what matched so far is text.
                self.magic = None;
                self.decoder.push_to(&MAGIC[..matched], &mut self.encoder);
            }
        }
        self.decoder.push_to(chunk, &mut self.encoder);
        self.encoder.problem.clone()
    }

    /// Ends the input (a short prefix of the magic number is text, an unfinished
    /// sequence an error).
    pub(crate) fn finish(&mut self) -> Option<Problem> {
        self.encoder.out.clear();
        if let Some(matched) = self.magic.take() {
            self.decoder.push_to(&MAGIC[..matched], &mut self.encoder);
        }
        self.decoder.finish_to(&mut self.encoder);
        self.encoder.problem.clone()
    }

    /// The bytes the last `push` or `finish` produced.
    pub(crate) fn output(&self) -> &[u8] {
        &self.encoder.out
    }
}

impl EventSink for Encoder {
    fn event<C: CodePoint>(&mut self, located: Located<C>) {
        if self.problem.is_some() {
            return;
        }
        let problem = match located.event {
            Event::CodePoint(cp) => {
                let before = self.out.len();
                match cp.encode(self.to, &mut self.out) {
                    Ok(()) => return,
                    Err(kind) => {
                        self.out.truncate(before);
                        Problem::Encode {
                            offset: located.offset,
                            codepoint: cp.to_big(),
                            kind,
                        }
                    }
                }
            }
            Event::Error(e) => Problem::Decode(e),
            // Transcoding needs code points: a reserved span stops it as it stops a
            // strict decode.
            Event::Reserved(r) => Problem::Decode(r.into()),
        };
        if self.replace {
            0xFFFD_u32
                .encode(self.to, &mut self.out)
                .expect("U+FFFD encodes in every target");
        } else {
            self.problem = Some(problem);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::{corrected, utf_inf8};

    /// Transcodes `input` in chunks of `size`; the output and the problem.
    fn run(
        from: Encoding,
        to: Encoding,
        replace: bool,
        input: &[u8],
        size: usize,
    ) -> (Vec<u8>, Option<Problem>) {
        let mut t = Transcoder::new(from, to, replace, None).unwrap();
        let mut out = Vec::new();
        for chunk in input.chunks(size.max(1)) {
            let p = t.push(chunk);
            out.extend_from_slice(t.output());
            if p.is_some() {
                return (out, p);
            }
        }
        let p = t.finish();
        out.extend_from_slice(t.output());
        (out, p)
    }

    #[test]
    fn round_trips_at_every_chunking() {
        let text = "a\u{CF}\u{20AC}\u{10FFFF}\u{E000}\n";
        let corrected = corrected::encode(text.chars().map(|c| c as u32)).unwrap();
        for size in 1..=text.len() {
            let (c, p) = run(
                Encoding::Utf8,
                Encoding::CorrectedUtf8,
                false,
                text.as_bytes(),
                size,
            );
            assert_eq!((&c, p), (&corrected, None), "chunk size {size}");
            let (u, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, false, &c, size);
            assert_eq!(
                (u.as_slice(), p),
                (text.as_bytes(), None),
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn leading_magic_is_dropped_at_every_chunking_and_only_there() {
        let mut input = MAGIC.to_vec();
        input.extend_from_slice(b"ok\n");
        input.extend_from_slice(&MAGIC[..6]);
        for size in 1..=input.len() {
            let (out, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, false, &input, size);
            // Later, the first six bytes are text: U+10E7D U+ED4E.
            let want = "ok\n\u{10E7D}\u{ED4E}";
            assert_eq!(out, want.as_bytes(), "chunk size {size}");
            assert_eq!(p, None);
        }
        // A proper prefix of the magic number is text.
        let (out, p) = run(
            Encoding::CorrectedUtf8,
            Encoding::CorrectedUtf8,
            false,
            &MAGIC[..3],
            1,
        );
        assert_eq!((out.as_slice(), p), (&MAGIC[..3], None));
        // Reading UTF-8, nothing is dropped.
        let (out, _) = run(Encoding::Utf8, Encoding::Utf8, false, b"\xEF\xB7\x9D", 1);
        assert_eq!(out, b"\xEF\xB7\x9D");
    }

    #[test]
    fn problems_carry_input_offsets_and_stop_the_output_there() {
        let (out, p) = run(
            Encoding::Utf8,
            Encoding::CorrectedUtf8,
            false,
            "ab\u{85}cd".as_bytes(),
            2,
        );
        assert_eq!(out, b"ab");
        assert_eq!(
            p,
            Some(Problem::Encode {
                offset: 2,
                codepoint: BigCodePoint::from(0x85u32),
                kind: ErrorKind::C1Control
            })
        );
        let mut input = MAGIC.to_vec();
        input.extend_from_slice(b"x\xF4\x90\x80\x80y");
        let (out, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, false, &input, 3);
        assert_eq!(out, b"x");
        assert_eq!(corrected::decode(b"\xF4\x90\x80\x80"), Ok(vec![0x12_10A0]));
        let kind = ErrorKind::OutOfRange;
        assert_eq!(
            p,
            Some(Problem::Encode {
                offset: 9, // the magic number counts
                codepoint: BigCodePoint::from(0x12_10A0u32),
                kind
            })
        );
        let (out, p) = run(
            Encoding::Utf8,
            Encoding::CorrectedUtf8,
            false,
            b"ok\xE2\x82",
            64,
        );
        assert_eq!(out, b"ok");
        assert_eq!(
            p,
            Some(Problem::Decode(DecodeError {
                kind: ErrorKind::Truncated,
                offset: 2,
                length: 2
            }))
        );
    }

    #[test]
    fn replace_writes_fffd_for_every_problem() {
        let (out, p) = run(
            Encoding::Utf8,
            Encoding::CorrectedUtf8,
            true,
            b"a\xC2\x85b\xFFc\xE2",
            1,
        );
        let fffd = corrected::encode([0xFFFD]).unwrap();
        let want = [&b"a"[..], &fffd, b"b", &fffd, b"c", &fffd].concat();
        assert_eq!((out, p), (want, None));
        let big = corrected::encode([0x11_0000]).unwrap();
        let (out, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, true, &big, 1);
        assert_eq!((out.as_slice(), p), ("\u{FFFD}".as_bytes(), None));
    }

    #[test]
    fn utf_inf_8_both_ways() {
        let text = "a\u{CF}\u{20AC}\u{10FFFF}\n";
        let cps: Vec<BigCodePoint> = text.chars().map(|c| BigCodePoint::from(c as u32)).collect();
        let inf = utf_inf8::encode(&cps).unwrap();
        // Below U+110000, UTF-∞-8 is UTF-8 byte for byte.
        assert_eq!(inf, text.as_bytes());
        let corrected = corrected::encode(text.chars().map(|c| c as u32)).unwrap();
        for size in 1..=inf.len() {
            for (from, to, input, want) in [
                (Encoding::UtfInf8, Encoding::CorrectedUtf8, &inf, &corrected),
                (Encoding::CorrectedUtf8, Encoding::UtfInf8, &corrected, &inf),
                (Encoding::UtfInf8, Encoding::UtfInf8, &inf, &inf),
            ] {
                let (out, p) = run(from, to, false, input, size);
                assert_eq!((&out, p), (want, None), "{from} to {to}, chunk size {size}");
            }
        }
    }

    #[test]
    fn big_code_points_stop_or_are_replaced() {
        let big: BigCodePoint = "U+800000000000000000".parse().unwrap();
        let mut input = b"ok".to_vec();
        utf_inf8::encode_into(&big, &mut input).unwrap();
        input.extend_from_slice(b"!");
        for to in [Encoding::Utf8, Encoding::CorrectedUtf8] {
            let (out, p) = run(Encoding::UtfInf8, to, false, &input, 5);
            assert_eq!(out, b"ok");
            let want = Problem::Encode {
                offset: 2,
                codepoint: big.clone(),
                kind: ErrorKind::OutOfRange,
            };
            assert_eq!(p, Some(want), "{to}");
            let (out, p) = run(Encoding::UtfInf8, to, true, &input, 5);
            let fffd = corrected::encode([0xFFFD]).unwrap();
            let fffd = if to == Encoding::Utf8 {
                "\u{FFFD}".as_bytes()
            } else {
                &fffd
            };
            assert_eq!((out, p), ([&b"ok"[..], fffd, b"!"].concat(), None));
        }
        // Corrected UTF-8 reaches U+8421109F, UTF-∞-8 needs FE there.
        let top = corrected::encode([0x8421_109F]).unwrap();
        let (out, p) = run(Encoding::CorrectedUtf8, Encoding::UtfInf8, false, &top, 1);
        assert_eq!((out[0], out.len(), p), (0xFE, 7, None));
        assert_eq!(
            utf_inf8::decode(&out),
            Ok(vec![BigCodePoint::from(0x8421_109Fu32)])
        );
    }

    #[test]
    fn the_code_length_limit_is_a_decoding_error() {
        let code = utf_inf8::encode(&["U+800000000000000000".parse().unwrap()]).unwrap();
        let mut t = Transcoder::new(Encoding::UtfInf8, Encoding::UtfInf8, false, Some(13)).unwrap();
        let p = t.push(&code);
        assert_eq!(
            p,
            Some(Problem::Decode(DecodeError {
                kind: ErrorKind::LimitExceeded,
                offset: 0,
                // One span: the whole code, to its declared end.
                length: 14
            }))
        );
        let mut t = Transcoder::new(Encoding::UtfInf8, Encoding::UtfInf8, false, Some(14)).unwrap();
        assert_eq!(t.push(&code), None);
        assert_eq!(t.output(), code);
        assert!(Transcoder::new(Encoding::Utf8, Encoding::UtfInf8, false, Some(14)).is_err());
    }
}
