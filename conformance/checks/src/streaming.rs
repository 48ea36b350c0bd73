//! `streaming`: any chunking gives the one-shot events, reported as early as SPEC §2.5
//! says, with bounded pending state.

use super::codecs::{Codec, StreamDecoder, BOTH};
use super::fail::{ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use corrected_utf8::{Event, Located, MAX_PENDING};

/// Checks the streaming decoders of both encodings on `bytes` (layout: [`ChunkedInput`]):
///
/// * pushed in the input's chunks (empty ones included), then finished, they give the
///   one-shot events, in order, with offsets into the whole stream;
/// * after `finish()` the decoder takes a new stream, continuing its offsets;
/// * the same in 1-byte chunks with an empty chunk between each, counting from a start
///   offset above 2³²;
/// * after every chunk: `offset()` is the bytes pushed, `pending_len() ≤ MAX_PENDING`,
///   and everything before the pending bytes has been reported — the only thing allowed
///   to be open with nothing pending is a `reserved` span (SPEC §2.5); an empty chunk
///   changes neither.
///
/// These are the encodings' own decoders, with `u32` code points, compared without
/// allocating (the `Decoder` handle is the `encoding` target's).
pub fn streaming(bytes: &[u8]) {
    let ctx = Ctx::new("streaming", bytes);
    let input = ChunkedInput::from_bytes(bytes);
    let mut expected = Vec::new();
    for codec in BOTH {
        // The one-shot events, decoded once for every pass.
        expected.clear();
        expected.extend((codec.events)(input.data).located());

        // The input's chunking, then the data again as a second stream after finish().
        let mut run = Run::new(&ctx, codec, &expected, codec.stream_decoder(0), 0);
        for chunk in input.chunks() {
            run.push(chunk);
        }
        run.finish();
        let mut run = run.restart(input.data.len() as u64);
        run.push(input.data);
        run.finish();

        // 1-byte chunks between empty ones, far into a long stream.
        let base = (1 << 32) + 3;
        let mut run = Run::new(&ctx, codec, &expected, codec.stream_decoder(base), base);
        for byte in input.data.chunks(1) {
            run.push(&[]);
            run.push(byte);
        }
        run.push(&[]);
        run.finish();
    }
}

/// A stream being checked against the one-shot events of its data.
struct Run<'a> {
    ctx: &'a Ctx<'a>,
    codec: &'a Codec,
    /// The one-shot events of the data, offsets from 0.
    expected: &'a [Located],
    decoder: StreamDecoder,
    /// How many of `expected` the stream has reported.
    matched: usize,
    /// Offset of the stream's first byte.
    base: u64,
    /// Bytes of the data pushed so far.
    pushed: u64,
    /// End (relative to `base`) of the last event reported.
    reported_end: u64,
}

impl<'a> Run<'a> {
    fn new(
        ctx: &'a Ctx<'a>,
        codec: &'a Codec,
        expected: &'a [Located],
        decoder: StreamDecoder,
        base: u64,
    ) -> Self {
        Run {
            ctx,
            codec,
            expected,
            decoder,
            matched: 0,
            base,
            pushed: 0,
            reported_end: 0,
        }
    }

    /// The same decoder, for a second stream of the same data (`len` bytes) right after
    /// this one.
    fn restart(self, len: u64) -> Self {
        let base = self.base + len;
        Run::new(self.ctx, self.codec, self.expected, self.decoder, base)
    }

    /// The next one-shot event, at its offset in the stream.
    fn next_expected(&self) -> Option<Located> {
        self.expected
            .get(self.matched)
            .map(|&l| shift(l, self.base))
    }

    fn push(&mut self, chunk: &[u8]) {
        let (ctx, name) = (self.ctx, self.codec.name());
        if chunk.is_empty() {
            // Nothing to decode: nothing reported, offset and pending bytes unchanged
            // (the rest of the checks below would only repeat the last chunk's).
            let before = (self.decoder.offset(), self.decoder.pending_len());
            self.decoder.push(chunk, |got| {
                ctx.fail(
                    |w| w(format_args!("{name}: an empty chunk reports nothing")),
                    &"nothing",
                    &got,
                )
            });
            let after = (self.decoder.offset(), self.decoder.pending_len());
            ensure_eq!(
                ctx,
                before,
                after,
                "{name}: (offset(), pending_len()) after an empty chunk"
            );
            return;
        }
        let (expected, base) = (self.expected, self.base);
        let (matched, reported_end) = (&mut self.matched, &mut self.reported_end);
        self.decoder.push(chunk, |got| {
            matches(ctx, name, base, expected, matched, reported_end, got)
        });
        self.pushed += chunk.len() as u64;
        ensure_eq!(
            ctx,
            self.base + self.pushed,
            self.decoder.offset(),
            "{name}: offset() after pushing {} bytes from {}",
            self.pushed,
            self.base
        );
        let pending = self.decoder.pending_len();
        ensure!(
            ctx,
            pending <= MAX_PENDING,
            pending,
            "{name}: pending_len() ≤ MAX_PENDING"
        );
        let unreported = self.pushed - self.reported_end;
        if pending > 0 || unreported > 0 {
            // Something is open: the one-shot event starting where the reports stop.
            let open = self.next_expected();
            let reserved = open.is_some_and(|l| l.event.reserved().is_some());
            let ok = if pending > 0 {
                pending == unreported && open.is_some_and(|l| l.length >= unreported)
            } else {
                reserved && open.is_some_and(|l| l.length >= unreported)
            };
            ensure!(
                ctx,
                ok,
                (pending, unreported, open),
                "{name}: after {} bytes, only the pending bytes (or a reserved span) are \
                 unreported: (pending_len, bytes since the last event, next one-shot event)",
                self.pushed
            );
        }
    }

    fn finish(&mut self) {
        let (ctx, name) = (self.ctx, self.codec.name());
        let (expected, base) = (self.expected, self.base);
        let (matched, reported_end) = (&mut self.matched, &mut self.reported_end);
        self.decoder
            .finish(|got| matches(ctx, name, base, expected, matched, reported_end, got));
        ensure_eq!(
            ctx,
            None,
            self.next_expected(),
            "{name}: events missing after finish()"
        );
        ensure_eq!(
            ctx,
            0,
            self.decoder.pending_len(),
            "{name}: pending_len() after finish()"
        );
        // A second finish() has nothing left to report.
        self.decoder.finish(|got| {
            ctx.fail(
                |w| w(format_args!("{name}: a second finish() reports nothing")),
                &"nothing",
                &got,
            )
        });
    }
}

/// Checks a streamed event against the next one-shot one.
fn matches(
    ctx: &Ctx<'_>,
    name: &str,
    base: u64,
    expected: &[Located],
    matched: &mut usize,
    reported_end: &mut u64,
    got: Located,
) {
    let want = expected.get(*matched).map(|&l| shift(l, base));
    ensure_eq!(
        ctx,
        want,
        Some(got),
        "{name}: streamed event vs one-shot (stream starts at {base})"
    );
    *matched += 1;
    *reported_end = got.offset + got.length - base;
}

/// `located` with its offsets moved `by` bytes later.
fn shift(mut located: Located, by: u64) -> Located {
    located.offset += by;
    match &mut located.event {
        Event::Error(e) => e.offset += by,
        Event::Reserved(r) => r.offset += by,
        Event::CodePoint(_) => {}
    }
    located
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_split_sequences_and_reserved_spans() {
        let data = b"a\xC0\xAF\xFE\xFE\x80A\xFC\x80\x80\x80\x80\x80\xE2\x82\xAC\xF0\x90";
        streaming(&ChunkedInput::to_bytes(&[1, 0, 2, 1, 3, 5], data));
        streaming(&ChunkedInput::to_bytes(&[], data));
        streaming(&[]);
    }
}
