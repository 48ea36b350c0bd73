//! `streaming`: any chunking gives the one-shot events, reported as early as SPEC §2.5
//! says, with bounded pending state.

use super::codecs::{Codec, BOTH};
use super::fail::{ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use corrected_utf8::{BigCodePoint, Decoder, Event, Events, Located, MAX_PENDING};

/// Checks the streaming decoders of both encodings on `bytes` (layout: [`ChunkedInput`]):
///
/// * pushed in the input's chunks (empty ones included), then finished, they give the
///   one-shot events, in order, with offsets into the whole stream;
/// * the same in 1-byte chunks with an empty chunk between each, counting from a start
///   offset above 2³²;
/// * after `finish()` the decoder takes a new stream, continuing its offsets;
/// * after every chunk: `offset()` is the bytes pushed, `pending_len() ≤ MAX_PENDING`,
///   and everything before the pending bytes has been reported — the only thing allowed
///   to be open with nothing pending is a `reserved` span (SPEC §2.5).
pub fn streaming(bytes: &[u8]) {
    let ctx = Ctx::new("streaming", bytes);
    let input = ChunkedInput::from_bytes(bytes);
    for codec in BOTH {
        // The input's chunking, then the data again as a second stream after finish().
        let mut run = Run::new(&ctx, codec, input.data, 0);
        for chunk in input.chunks() {
            run.push(chunk);
        }
        run.finish();
        let mut run = run.restart();
        run.push(input.data);
        run.finish();

        // 1-byte chunks between empty ones, far into a long stream.
        let mut run = Run::new(&ctx, codec, input.data, (1 << 32) + 3);
        for byte in input.data.chunks(1) {
            run.push(&[]);
            run.push(byte);
        }
        run.push(&[]);
        run.finish();
    }
}

/// A stream being checked against the one-shot events of `data`.
struct Run<'a> {
    ctx: &'a Ctx<'a>,
    codec: &'a Codec,
    data: &'a [u8],
    decoder: Decoder,
    /// The one-shot events not yet matched by a streamed one: the first of them
    /// (`next`, decoded once rather than at every check), then the rest.
    next: Option<Located>,
    rest: Events<'a>,
    /// Offset of the stream's first byte.
    base: u64,
    /// Bytes of `data` pushed so far.
    pushed: u64,
    /// End (relative to `base`) of the last event reported.
    reported_end: u64,
}

impl<'a> Run<'a> {
    fn new(ctx: &'a Ctx<'a>, codec: &'a Codec, data: &'a [u8], base: u64) -> Self {
        let decoder = codec.encoding.new_decoder().starting_at(base);
        let mut rest = (codec.events)(data);
        Run {
            ctx,
            codec,
            data,
            decoder,
            next: rest.next_located(),
            rest,
            base,
            pushed: 0,
            reported_end: 0,
        }
    }

    /// The same decoder, for a second stream of the same data right after this one.
    fn restart(self) -> Self {
        let base = self.base + self.data.len() as u64;
        let mut next = Run::new(self.ctx, self.codec, self.data, base);
        next.decoder = self.decoder;
        next
    }

    fn push(&mut self, chunk: &[u8]) {
        let (ctx, name) = (self.ctx, self.codec.name());
        let base = self.base;
        let (next, rest) = (&mut self.next, &mut self.rest);
        let reported_end = &mut self.reported_end;
        self.decoder.push(chunk, |got| {
            let got = got.map(small);
            Self::matches(ctx, name, base, (next, rest), reported_end, got);
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
            let open = self.next;
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
        let base = self.base;
        let (next, rest) = (&mut self.next, &mut self.rest);
        let reported_end = &mut self.reported_end;
        self.decoder.finish(|got| {
            let got = got.map(small);
            Self::matches(ctx, name, base, (next, rest), reported_end, got);
        });
        ensure_eq!(
            ctx,
            None,
            self.next,
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
            let got = got.map(small);
            ctx.fail(
                |w| w(format_args!("{name}: a second finish() reports nothing")),
                &"nothing",
                &got,
            )
        });
    }

    fn matches(
        ctx: &Ctx<'_>,
        name: &str,
        base: u64,
        (next, rest): (&mut Option<Located>, &mut Events<'_>),
        reported_end: &mut u64,
        got: Located,
    ) {
        let want = next.map(|l| shift(l, base));
        ensure_eq!(
            ctx,
            want,
            Some(got),
            "{name}: streamed event vs one-shot (stream starts at {base})"
        );
        *next = rest.next_located();
        *reported_end = got.offset + got.length - base;
    }
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

/// A code point of the `u32` encodings, from the handle's decoder.
fn small(cp: BigCodePoint) -> u32 {
    cp.to_u32()
        .expect("corrected-utf8 and utf-8 code points fit 32 bits")
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
