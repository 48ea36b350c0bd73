//! Streaming decoders: push chunks of any size, get events with absolute offsets, in
//! constant memory.
//!
//! The streaming decoder is a byte-at-a-time state machine, written separately from the
//! slice decoders behind [`corrected::events`](crate::corrected::events) and
//! [`utf8::events`](crate::utf8::events); tests and fuzz targets check that the two agree
//! at every chunking.

use crate::corrected;
use crate::error::{Encoding, ErrorKind, Event, Located};
use crate::utf8;

/// A multi-byte sequence in progress. Only its value so far is kept, never its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Partial {
    start: u64,
    lead: u8,
    /// Bytes seen so far, lead included.
    have: u8,
    /// Bytes the sequence needs in all.
    len: u8,
    value: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ground,
    Partial(Partial),
    /// Corrected UTF-8: inside a reserved span that started at this offset.
    Reserved(u64),
}

/// A streaming decoder for Corrected UTF-8 or UTF-8.
///
/// Feed it chunks with [`push`](StreamDecoder::push) and end the input with
/// [`finish`](StreamDecoder::finish); it calls back with each [`Located`] event, offsets
/// counted from the start of the stream. Any chunking of the same bytes gives the same
/// events as a one-shot decode.
///
/// Memory is constant. A sequence in progress keeps only its start offset and value
/// (it stands for at most [`MAX_PENDING`] bytes); a Corrected UTF-8 reserved span keeps
/// only its start offset. **When events are reported:** a code point as soon as its last
/// byte arrives; an error span when the byte that ends it arrives (the first byte that
/// cannot extend it), or at `finish()`. So a reserved span of gigabytes is one event,
/// reported when the next recognized lead byte arrives or at `finish()`, and costs
/// nothing while it grows.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{DecodeError, ErrorKind, Event, StreamDecoder};
/// let mut decoder = StreamDecoder::corrected();
/// let mut events = Vec::new();
/// decoder.push(b"\xC0", |e| events.push(e.event));
/// assert!(events.is_empty()); // waiting for the continuation byte
/// decoder.push(b"\xAF\xFE", |e| events.push(e.event));
/// decoder.push(b"\xFE\x80", |e| events.push(e.event));
/// decoder.finish(|e| events.push(e.event));
/// assert_eq!(events, [
///     Event::CodePoint(0xCF),
///     Event::Error(DecodeError { kind: ErrorKind::Reserved, offset: 2, length: 3 }),
/// ]);
/// ```
#[derive(Clone, Debug)]
pub struct StreamDecoder {
    encoding: Encoding,
    state: State,
    /// Offset of the next byte.
    offset: u64,
}

/// The most bytes a [`StreamDecoder`] holds back while a sequence is in progress:
/// a 6-byte Corrected UTF-8 sequence missing its last byte.
pub const MAX_PENDING: usize = corrected::MAX_LEN - 1;

impl StreamDecoder {
    /// A decoder for Corrected UTF-8.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::corrected();
    /// let mut n = 0;
    /// decoder.push(b"\x80\x80", |e| { assert!(e.event.error().is_some()); n += 1 });
    /// assert_eq!(n, 2);
    /// ```
    pub fn corrected() -> Self {
        StreamDecoder::with_encoding(Encoding::CorrectedUtf8)
    }

    /// A decoder for UTF-8.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{Event, StreamDecoder};
    /// let mut decoder = StreamDecoder::utf8();
    /// let mut events = Vec::new();
    /// decoder.push(b"\xE2\x82", |e| events.push(e.event));
    /// decoder.push(b"\xAC", |e| events.push(e.event));
    /// decoder.push(b"\xE2", |e| events.push(e.event));
    /// decoder.finish(|e| events.push(e.event));
    /// assert_eq!(events[0], Event::CodePoint(0x20AC));
    /// assert!(events[1].error().is_some());
    /// ```
    pub fn utf8() -> Self {
        StreamDecoder::with_encoding(Encoding::Utf8)
    }

    /// A decoder for `encoding`, or `None` for one it does not decode (UTF-∞-8 has
    /// unbounded code points and a decoder of its own).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{Encoding, StreamDecoder};
    /// assert!(StreamDecoder::new(Encoding::Utf8).is_some());
    /// assert!(StreamDecoder::new(Encoding::UtfInf8).is_none());
    /// ```
    pub fn new(encoding: Encoding) -> Option<Self> {
        match encoding {
            Encoding::CorrectedUtf8 | Encoding::Utf8 => {
                Some(StreamDecoder::with_encoding(encoding))
            }
            Encoding::UtfInf8 => None,
        }
    }

    fn with_encoding(encoding: Encoding) -> Self {
        StreamDecoder {
            encoding,
            state: State::Ground,
            offset: 0,
        }
    }

    /// Counts offsets from `offset` instead of 0 (for a stream that starts mid-file).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::corrected().starting_at(8);
    /// decoder.push(b"\x80", |e| assert_eq!(e.offset, 8));
    /// assert_eq!(decoder.offset(), 9);
    /// ```
    pub fn starting_at(mut self, offset: u64) -> Self {
        self.offset = offset;
        self
    }

    /// Offset of the next byte to be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::utf8();
    /// decoder.push(b"abc", |_| {});
    /// assert_eq!(decoder.offset(), 3);
    /// decoder.push(b"", |_| {});
    /// assert_eq!(decoder.offset(), 3);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// How many bytes of an unfinished multi-byte sequence the decoder stands for now;
    /// never more than [`MAX_PENDING`]. A reserved span in progress counts 0: it is
    /// never buffered.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::corrected();
    /// decoder.push(b"\xFC\x80\x80", |_| {});
    /// assert_eq!(decoder.pending_len(), 3);
    /// decoder.push(b"\xFE\x80\x80\x80\x80\x80\x80", |_| {});
    /// assert_eq!(decoder.pending_len(), 0);
    /// ```
    pub fn pending_len(&self) -> usize {
        match self.state {
            State::Partial(p) => p.have as usize,
            State::Ground | State::Reserved(_) => 0,
        }
    }

    /// Decodes the next chunk (of any size, empty included), calling `sink` with every
    /// event it completes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::corrected();
    /// let mut offsets = Vec::new();
    /// decoder.push(b"a", |e| offsets.push(e.offset));
    /// decoder.push(b"\xE0\x80b", |e| offsets.push(e.offset));
    /// assert_eq!(offsets, [0, 1, 3]); // `a`, the truncated span, `b`
    /// ```
    pub fn push<F: FnMut(Located)>(&mut self, chunk: &[u8], mut sink: F) {
        for &byte in chunk {
            self.feed(byte, &mut sink);
            self.offset += 1;
        }
    }

    /// Ends the input, reporting a sequence or reserved span still open. The decoder is
    /// then ready for a new stream, continuing its offsets.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{ErrorKind, StreamDecoder};
    /// let mut decoder = StreamDecoder::corrected();
    /// decoder.push(b"\xF0\x80", |_| unreachable!());
    /// let mut last = None;
    /// decoder.finish(|e| last = e.event.error().copied());
    /// assert_eq!(last.map(|e| (e.kind, e.length)), Some((ErrorKind::Truncated, 2)));
    /// decoder.finish(|_| unreachable!()); // nothing left open
    /// ```
    pub fn finish<F: FnMut(Located)>(&mut self, mut sink: F) {
        match core::mem::replace(&mut self.state, State::Ground) {
            State::Ground => {}
            State::Partial(p) => sink(Located::error(ErrorKind::Truncated, p.start, p.have as u64)),
            State::Reserved(start) => sink(Located::error(
                ErrorKind::Reserved,
                start,
                self.offset - start,
            )),
        }
    }

    fn feed<F: FnMut(Located)>(&mut self, byte: u8, sink: &mut F) {
        let offset = self.offset;
        match self.state {
            State::Ground => self.start(byte, sink),
            State::Reserved(start) => {
                if corrected::is_recognized_lead(byte) {
                    self.state = State::Ground;
                    sink(Located::error(ErrorKind::Reserved, start, offset - start));
                    self.start(byte, sink);
                }
            }
            State::Partial(mut p) => {
                let (lo, hi) = if p.have == 1 {
                    self.second_byte_range(p.lead)
                } else {
                    (0x80, 0xBF)
                };
                if (lo..=hi).contains(&byte) {
                    p.value = (p.value << 6) | (byte & 0x3F) as u32;
                    p.have += 1;
                    if p.have == p.len {
                        self.state = State::Ground;
                        let cp = match self.encoding {
                            Encoding::CorrectedUtf8 => corrected::codepoint_of(p.len, p.value),
                            _ => p.value,
                        };
                        sink(Located {
                            offset: p.start,
                            length: p.len as u64,
                            event: Event::CodePoint(cp),
                        });
                    } else {
                        self.state = State::Partial(p);
                    }
                } else {
                    let kind = match utf8::lead(p.lead) {
                        // UTF-8's E0/ED/F0/F4 followed by a continuation outside its
                        // range: the lead alone is the span. (In Corrected UTF-8 every
                        // continuation byte is in range, so this never applies.)
                        utf8::Lead::Seq { narrow, .. }
                            if self.encoding == Encoding::Utf8
                                && p.have == 1
                                && utf8::is_continuation(byte) =>
                        {
                            narrow
                        }
                        _ => ErrorKind::Truncated,
                    };
                    self.state = State::Ground;
                    sink(Located::error(kind, p.start, p.have as u64));
                    self.start(byte, sink);
                }
            }
        }
    }

    /// Handles `byte` at a sequence start.
    fn start<F: FnMut(Located)>(&mut self, byte: u8, sink: &mut F) {
        let offset = self.offset;
        let partial = |len: u8, bits: u32| {
            State::Partial(Partial {
                start: offset,
                lead: byte,
                have: 1,
                len,
                value: bits,
            })
        };
        if byte < 0x80 {
            return sink(Located {
                offset,
                length: 1,
                event: Event::CodePoint(byte as u32),
            });
        }
        match self.encoding {
            Encoding::CorrectedUtf8 => match corrected::lead(byte) {
                corrected::Lead::Len(len) => {
                    self.state = partial(len, corrected::lead_bits(byte, len));
                }
                corrected::Lead::Continuation => {
                    sink(Located::error(ErrorKind::UnexpectedContinuation, offset, 1))
                }
                corrected::Lead::Reserved => self.state = State::Reserved(offset),
            },
            _ => match utf8::lead(byte) {
                utf8::Lead::Seq { len, .. } => {
                    self.state = partial(len, (byte & (0x7F >> len)) as u32);
                }
                utf8::Lead::Never(kind) => sink(Located::error(kind, offset, 1)),
            },
        }
    }

    fn second_byte_range(&self, lead: u8) -> (u8, u8) {
        match (self.encoding, utf8::lead(lead)) {
            (Encoding::Utf8, utf8::Lead::Seq { lo, hi, .. }) => (lo, hi),
            _ => (0x80, 0xBF),
        }
    }
}
