//! `cutf8 transcode`: from one encoding to another, streaming in constant memory.
//!
//! Decisions (also in `cli/README.md`):
//! * Reading corrected-utf8, a leading magic number is dropped: it marks the file and is
//!   not part of the text (`docs/semantics.md` §2.6). Offsets in messages still count it.
//! * `--magic` writes the magic number first; it needs `--to corrected-utf8`, the only
//!   encoding that has one.
//! * A decoding error, a Corrected UTF-8 reserved span (not an error, but it has no code
//!   point to transcode) or a code point with no encoding in the target stops the run
//!   with exit 1 and the input byte offset, after writing the transcoding of everything
//!   before it; `--replace` writes U+FFFD instead (it has an encoding in every target),
//!   one per span as a lossy decode does.
//! * Reading utf-inf-8, memory holds at most one code of `--max-code-len` bytes (and the
//!   code point it decodes to); a longer code is a `limit-exceeded` decoding error.

use crate::args::TranscodeArgs;
use crate::codepoint::{no_encoding, CodePoint};
use crate::decode::{new_decoder, EventSink, PushTo};
use crate::io::{self, Failure, Input, Result, Status, WriteResult};
use crate::stretch::{self, corrected_valid, utf8_valid, Paths};
use corrected_utf8::corrected::fast::{self, TranscodeError};
use corrected_utf8::{
    corrected::MAGIC, BigCodePoint, DecodeError, Decoder, Encoding, ErrorKind, Event, Located,
    ReservedSpan,
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
    /// A Corrected UTF-8 reserved span: valid input, but no code point to write.
    Reserved(ReservedSpan),
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
            Problem::Reserved(r) => {
                let unit = if r.length == 1 { "byte" } else { "bytes" };
                format!(
                    "byte {}: a reserved sequence of {} {unit} cannot be transcoded: it has no code point",
                    r.offset, r.length
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
        stretch::alternate(self, chunk);
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

impl Paths for Transcoder {
    /// Transcodes in bulk, with the fast paths, the longest prefix of `chunk` that has
    /// no problem and whose every code point has an encoding in the target (exactly
    /// what the decoder and encoder would write for it). Nothing when the decoder is in
    /// the middle of a sequence or a reserved span, or the pair of encodings has no fast
    /// path (UTF-∞-8).
    fn bulk(&mut self, chunk: &[u8]) -> usize {
        let Some(offset) = stretch::idle_at(&self.decoder) else {
            return 0;
        };
        let out = &mut self.encoder.out;
        let mut done = 0;
        while done < chunk.len() {
            let window = &chunk[done..chunk.len().min(done + stretch::WINDOW)];
            let (valid, written) = match (self.from, self.encoder.to) {
                (Encoding::CorrectedUtf8, Encoding::Utf8) => {
                    transcoded(window, fast::transcode_to_utf8(window, out))
                }
                (Encoding::Utf8, Encoding::CorrectedUtf8) => {
                    transcoded(window, fast::utf8_to_corrected(window, out))
                }
                // Every code point has an encoding in its own encoding: the same bytes.
                (Encoding::CorrectedUtf8, Encoding::CorrectedUtf8) => {
                    let valid = corrected_valid(window);
                    out.extend_from_slice(valid);
                    (valid.len(), valid.len())
                }
                (Encoding::Utf8, Encoding::Utf8) => {
                    let valid = utf8_valid(window).as_bytes();
                    out.extend_from_slice(valid);
                    (valid.len(), valid.len())
                }
                _ => (0, 0),
            };
            done += written;
            if !stretch::next_window(written, valid, window.len()) {
                break;
            }
        }
        if done > 0 {
            self.decoder = self.from.new_decoder().starting_at(offset + done as u64);
        }
        done
    }

    fn careful(&mut self, chunk: &[u8]) {
        self.decoder.push_to(chunk, &mut self.encoder);
    }

    fn stopped(&self) -> bool {
        self.encoder.problem.is_some()
    }
}

/// What a direct transcoder did with `window`: how much of it is valid (as far as the
/// bulk step needs to know: all of it when the transcoder stopped at a code point without
/// an encoding) and how much it transcoded.
fn transcoded(window: &[u8], result: std::result::Result<(), TranscodeError>) -> (usize, usize) {
    match result {
        Ok(()) => (window.len(), window.len()),
        Err(e) => {
            let valid = e.stop().map_or(window.len(), |s| s.offset() as usize);
            (valid, e.valid_up_to())
        }
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
            // strict decode, but it is not a decoding error.
            Event::Reserved(r) => Problem::Reserved(r),
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

    /// The careful path alone: the codec's streaming decoder over the whole input in one
    /// push, the leading magic number dropped as `push` drops it.
    fn careful(
        from: Encoding,
        to: Encoding,
        replace: bool,
        input: &[u8],
    ) -> (Vec<u8>, Option<Problem>) {
        let mut t = Transcoder::new(from, to, replace, None).unwrap();
        let mut input = input;
        if from == Encoding::CorrectedUtf8 && input.starts_with(&MAGIC) {
            input = &input[MAGIC.len()..];
            t.decoder = from.new_decoder().starting_at(MAGIC.len() as u64);
        }
        t.decoder.push_to(input, &mut t.encoder);
        t.decoder.finish_to(&mut t.encoder);
        (t.encoder.out, t.encoder.problem)
    }

    /// The fast paths give what the careful path gives, output and problem, on the fuzz
    /// corpus and the vectors' inputs, at chunk sizes from 1 byte to more than a window.
    #[test]
    fn fast_and_careful_paths_agree_on_the_corpus_and_vectors() {
        let pairs = [
            (Encoding::CorrectedUtf8, Encoding::Utf8),
            (Encoding::Utf8, Encoding::CorrectedUtf8),
            (Encoding::CorrectedUtf8, Encoding::CorrectedUtf8),
            (Encoding::Utf8, Encoding::Utf8),
        ];
        for input in crate::stretch::tests::samples() {
            let sizes: &[usize] = if input.len() > 100_000 {
                &[7, 4095, 4097, io::CHUNK]
            } else {
                &[1, 2, 3, 5, 16, 64, 4095, 4097, io::CHUNK]
            };
            for (from, to) in pairs {
                for replace in [false, true] {
                    let want = careful(from, to, replace, &input);
                    for &size in sizes.iter().filter(|&&s| s == 1 || s < 2 * input.len()) {
                        let got = run(from, to, replace, &input, size);
                        assert!(
                            got == want,
                            "{from} to {to}, replace {replace}, chunk size {size}, input {:02x?}",
                            &input[..input.len().min(64)]
                        );
                    }
                }
            }
        }
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

    /// Long mixed text with a problem of each kind every so often, transcoded at chunk
    /// sizes around the fast path's windows, with and without `--replace`, against the
    /// codec's lossy decoders (the careful path's meaning, independently).
    #[test]
    fn bulk_and_careful_paths_agree_at_every_chunking() {
        let text: Vec<u32> = "Größe 大小 🦀 naïve\n".chars().map(u32::from).collect();
        let mut cps = Vec::new();
        for i in 0..400 {
            cps.extend(&text[..i % text.len()]);
            cps.push([0x41, 0x85, 0x10_FFFF, 0x11_0000, 0xFFFD][i % 5]);
        }
        let to_utf8 = |cps: &[u32]| -> Vec<u8> {
            cps.iter()
                .map(|&c| char::from_u32(c).unwrap_or('\u{FFFD}'))
                .collect::<String>()
                .into_bytes()
        };
        // Corrected UTF-8 in: U+0085 has no encoding there, so it is left out; errors and
        // reserved spans are spliced in.
        let kept: Vec<u32> = cps.iter().copied().filter(|&c| c != 0x85).collect();
        let mut corrected_in = Vec::new();
        for (i, &c) in kept.iter().enumerate() {
            corrected_in.extend(corrected::encode([c]).unwrap());
            if i % 97 == 0 {
                corrected_in.extend_from_slice([&b"\xFE\x80"[..], b"\x80", b"\xE0\x80"][i % 3]);
            }
        }
        let lossy = corrected::decode_lossy(&corrected_in);
        let want = to_utf8(&lossy);
        // UTF-8 in: U+0085 is there, above U+10FFFF is not.
        let scalar: Vec<u32> = cps.iter().copied().filter(|&c| c <= 0x10_FFFF).collect();
        let mut utf8_in = to_utf8(&scalar);
        utf8_in.splice(100..100, *b"\xFF\xC3");
        let replaced: Vec<u32> = corrected_utf8::utf8::decode_lossy(&utf8_in)
            .into_iter()
            .map(|c| if (0x80..0xA0).contains(&c) { 0xFFFD } else { c })
            .collect();
        let want_corrected = corrected::encode(replaced).unwrap();
        for size in [1, 5, 64, 4095, 4096, 4097, 20_000, 1 << 20] {
            let (out, p) = run(
                Encoding::CorrectedUtf8,
                Encoding::Utf8,
                true,
                &corrected_in,
                size,
            );
            assert_eq!((out == want, p), (true, None), "chunk size {size}");
            let (out, p) = run(
                Encoding::Utf8,
                Encoding::CorrectedUtf8,
                true,
                &utf8_in,
                size,
            );
            assert_eq!(
                (out == want_corrected, p),
                (true, None),
                "chunk size {size}"
            );
            // Without --replace: the first problem, and everything before it.
            let (out, p) = run(
                Encoding::CorrectedUtf8,
                Encoding::Utf8,
                false,
                &corrected_in,
                size,
            );
            let first = corrected::events(&corrected_in)
                .located()
                .position(|l| !matches!(l.event, Event::CodePoint(c) if c <= 0x10_FFFF));
            let first = first.unwrap();
            assert_eq!(out, to_utf8(&lossy[..first]), "chunk size {size}");
            assert!(p.is_some());
            let (out, p) = run(
                Encoding::Utf8,
                Encoding::CorrectedUtf8,
                false,
                &utf8_in,
                size,
            );
            let c1 = scalar.iter().position(|&c| c == 0x85).unwrap();
            assert_eq!(
                out,
                corrected::encode(scalar[..c1].iter().copied()).unwrap()
            );
            assert!(matches!(
                p,
                Some(Problem::Encode {
                    kind: ErrorKind::C1Control,
                    ..
                })
            ));
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
        // One U+FFFD per reserved span, however long, as a lossy decode.
        let input = b"a\xFE\x80\xFF\x80b\xFFc";
        let (out, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, true, input, 1);
        assert_eq!(
            (out.as_slice(), p),
            ("a\u{FFFD}b\u{FFFD}c".as_bytes(), None)
        );
    }

    #[test]
    fn a_reserved_span_stops_the_run_but_is_not_a_decoding_error() {
        for size in 1..=6 {
            let input = b"ok\xFE\x80\x80A";
            let (out, p) = run(Encoding::CorrectedUtf8, Encoding::Utf8, false, input, size);
            let want = ReservedSpan {
                offset: 2,
                length: 3,
            };
            assert_eq!(
                (out.as_slice(), p),
                (&b"ok"[..], Some(Problem::Reserved(want)))
            );
        }
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
        // The span's extent is the codec's (one span over the over-long code): the run
        // stops at its start whatever it is.
        let Some(Problem::Decode(e)) = t.push(&code) else {
            panic!("a 14-byte code passes a 13-byte limit");
        };
        assert_eq!((e.kind, e.offset), (ErrorKind::LimitExceeded, 0));
        assert!((2..=code.len() as u64).contains(&e.length), "{e}");
        assert!(t.output().is_empty());
        let mut t = Transcoder::new(Encoding::UtfInf8, Encoding::UtfInf8, false, Some(14)).unwrap();
        assert_eq!(t.push(&code), None);
        assert_eq!(t.output(), code);
        assert!(Transcoder::new(Encoding::Utf8, Encoding::UtfInf8, false, Some(14)).is_err());
    }
}
