//! Streaming decoders: push chunks of any size, get events with absolute offsets, in
//! constant memory.
//!
//! The streaming decoder is a byte-at-a-time state machine, written separately from the
//! slice decoders behind [`corrected::events`](crate::corrected::events) and
//! [`utf8::events`](crate::utf8::events); tests and fuzz targets check that the two agree
//! at every chunking.
//!
//! This module knows no encoding: [`Machine`] is generic over a [`Table`], which each
//! encoding's module implements from its own spec table (`corrected.rs`, `utf8.rs`), and
//! those modules define their public `StreamDecoder` with [`stream_decoder!`]. So the
//! dependencies point one way: tables and this machine at the bottom, the encodings
//! above.

use crate::error::ErrorKind;
use crate::event::{Event, Located};

/// What a byte at a sequence start begins, for a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// A sequence of `len` bytes (2 or more) whose lead carries the value bits `bits`.
    Seq { len: u8, bits: u32 },
    /// A one-byte error span of this kind.
    Error(ErrorKind),
    /// Corrected UTF-8: a reserved span.
    Reserved,
}

/// An encoding's byte classes, as the byte-at-a-time [`Machine`] needs them. Bytes
/// below `80` are code points in every encoding and never reach the table.
pub(crate) trait Table {
    /// What the byte `lead` (`80–FF`) begins at a sequence start.
    fn start(lead: u8) -> Start;
    /// The range of the byte after `lead` (UTF-8 narrows it after `E0`, `ED`, `F0`,
    /// `F4`); every later byte of a sequence is `80–BF`.
    fn second_byte_range(lead: u8) -> (u8, u8);
    /// The kind of the error span of a sequence that started with `lead`, has `have`
    /// bytes and cannot take `byte`.
    fn stopped(lead: u8, have: u8, byte: u8) -> ErrorKind;
    /// The code point of a complete sequence of `len` bytes with value bits `value`.
    fn codepoint(len: u8, value: u32) -> u32;
    /// Whether `byte` ends a reserved span (only asked inside one).
    fn ends_reserved(byte: u8) -> bool;
}

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

/// The byte-at-a-time machine behind [`corrected::StreamDecoder`](crate::corrected::StreamDecoder) and
/// [`utf8::StreamDecoder`](crate::utf8::StreamDecoder), over the byte classes of `T`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Machine<T> {
    state: State,
    /// Offset of the next byte.
    offset: u64,
    table: core::marker::PhantomData<T>,
}

impl<T: Table> Machine<T> {
    pub(crate) const fn new() -> Self {
        Machine {
            state: State::Ground,
            offset: 0,
            table: core::marker::PhantomData,
        }
    }

    pub(crate) fn starting_at(mut self, offset: u64) -> Self {
        self.offset = offset;
        self
    }

    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    pub(crate) fn pending_len(&self) -> u64 {
        match self.state {
            State::Partial(p) => p.have as u64,
            State::Ground | State::Reserved(_) => 0,
        }
    }

    pub(crate) fn push<F: FnMut(Located)>(&mut self, chunk: &[u8], mut sink: F) {
        for &byte in chunk {
            self.feed(byte, &mut sink);
            self.offset += 1;
        }
    }

    pub(crate) fn finish<F: FnMut(Located)>(&mut self, mut sink: F) {
        match core::mem::replace(&mut self.state, State::Ground) {
            State::Ground => {}
            State::Partial(p) => sink(Located::error(ErrorKind::Truncated, p.start, p.have as u64)),
            State::Reserved(start) => sink(Located::reserved(start, self.offset - start)),
        }
    }

    fn feed<F: FnMut(Located)>(&mut self, byte: u8, sink: &mut F) {
        let offset = self.offset;
        match self.state {
            State::Ground => self.start(byte, sink),
            State::Reserved(start) => {
                if T::ends_reserved(byte) {
                    self.state = State::Ground;
                    sink(Located::reserved(start, offset - start));
                    self.start(byte, sink);
                }
            }
            State::Partial(mut p) => {
                let (lo, hi) = if p.have == 1 {
                    T::second_byte_range(p.lead)
                } else {
                    (0x80, 0xBF)
                };
                if (lo..=hi).contains(&byte) {
                    p.value = (p.value << 6) | (byte & 0x3F) as u32;
                    p.have += 1;
                    if p.have == p.len {
                        self.state = State::Ground;
                        sink(Located {
                            offset: p.start,
                            length: p.len as u64,
                            event: Event::CodePoint(T::codepoint(p.len, p.value)),
                        });
                    } else {
                        self.state = State::Partial(p);
                    }
                } else {
                    let kind = T::stopped(p.lead, p.have, byte);
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
        if byte < 0x80 {
            return sink(Located {
                offset,
                length: 1,
                event: Event::CodePoint(byte as u32),
            });
        }
        match T::start(byte) {
            Start::Seq { len, bits } => {
                self.state = State::Partial(Partial {
                    start: offset,
                    lead: byte,
                    have: 1,
                    len,
                    value: bits,
                })
            }
            Start::Error(kind) => sink(Located::error(kind, offset, 1)),
            Start::Reserved => self.state = State::Reserved(offset),
        }
    }
}

/// Defines the public `StreamDecoder` of a module (`corrected` or `utf8`): the same
/// type shape, names and docs for both, over one [`Machine`].
macro_rules! stream_decoder {
    ($module:literal, $table:ty, $name:literal) => {
        #[doc = concat!("A streaming ", $name, " decoder: push chunks of any size, get")]
        /// events with absolute offsets, in constant memory.
        ///
        /// Feed it chunks with [`push`](Self::push) and end the input with
        /// [`finish`](Self::finish); it calls back with each [`Located`](crate::Located)
        /// event, offsets counted from the start of the stream. Any chunking of the same
        /// bytes gives the same events as a one-shot decode.
        ///
        /// Memory is constant. A sequence in progress keeps only its start offset and
        /// value (it stands for at most [`MAX_PENDING`](crate::MAX_PENDING) bytes); a
        /// Corrected UTF-8 reserved span keeps only its start offset. **When events are
        /// reported:** a code point as soon as its last byte arrives; an error span when
        /// the byte that ends it arrives (the first byte that cannot extend it), or at
        /// `finish()`. So a reserved span of gigabytes is one event, reported when the
        /// next recognized lead byte arrives or at `finish()`, and costs nothing while it
        /// grows.
        ///
        /// # Examples
        ///
        /// ```
        #[doc = concat!("use corrected_utf8::{", $module, ", Event};")]
        #[doc = concat!("let mut decoder = ", $module, "::StreamDecoder::new();")]
        /// let mut events = Vec::new();
        /// decoder.push(b"A\xE2", |e| events.push(e.event));
        /// assert_eq!(events, [Event::CodePoint(0x41)]); // waiting for the rest
        /// decoder.push(b"\x82\xAC\x80", |e| events.push(e.event));
        /// decoder.finish(|e| events.push(e.event));
        /// assert!(events[1].error().is_none());
        /// assert!(events[2].error().is_some()); // a stray continuation byte
        /// ```
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct StreamDecoder(crate::stream::Machine<$table>);

        impl Default for StreamDecoder {
            fn default() -> Self {
                StreamDecoder::new()
            }
        }

        impl StreamDecoder {
            #[doc = concat!("A ", $name, " decoder, counting offsets from 0.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::", $module, "::StreamDecoder;")]
            /// let mut decoder = StreamDecoder::new();
            /// let mut n = 0;
            /// decoder.push(b"\x80\x80", |e| { assert!(e.event.error().is_some()); n += 1 });
            /// assert_eq!(n, 2);
            /// decoder.push(b"ok", |e| assert!(e.event.error().is_none()));
            /// ```
            pub const fn new() -> Self {
                StreamDecoder(crate::stream::Machine::new())
            }

            /// Counts offsets from `offset` instead of 0 (for a stream that starts
            /// mid-file).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::", $module, "::StreamDecoder;")]
            /// let mut decoder = StreamDecoder::new().starting_at(8);
            /// decoder.push(b"\x80", |e| assert_eq!(e.offset, 8));
            /// decoder.push(b"a", |e| assert!(e.event.error().is_none()));
            /// assert_eq!(decoder.offset(), 10);
            /// ```
            pub fn starting_at(self, offset: u64) -> Self {
                StreamDecoder(self.0.starting_at(offset))
            }

            /// Offset of the next byte to be pushed.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::", $module, "::StreamDecoder;")]
            /// let mut decoder = StreamDecoder::new();
            /// decoder.push(b"a\xFF", |_| {});
            /// assert_eq!(decoder.offset(), 2);
            /// decoder.push(b"", |_| {});
            /// assert_eq!(decoder.offset(), 2);
            /// ```
            pub fn offset(&self) -> u64 {
                self.0.offset()
            }

            /// How many bytes of an unfinished multi-byte sequence the decoder stands
            /// for now; never more than [`MAX_PENDING`](crate::MAX_PENDING). A
            /// Corrected UTF-8 reserved span in progress counts 0: it is never
            /// buffered.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::", $module, "::StreamDecoder;")]
            /// let mut decoder = StreamDecoder::new();
            /// decoder.push(b"\xF0\x90\x80", |_| {});
            /// assert_eq!(decoder.pending_len(), 3);
            /// decoder.push(b"\x80\x80", |_| {}); // completed, then a stray byte
            /// assert_eq!(decoder.pending_len(), 0);
            /// ```
            pub fn pending_len(&self) -> u64 {
                self.0.pending_len()
            }

            /// Decodes the next chunk (of any size, empty included), calling `sink`
            /// with every event it completes.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::", $module, "::StreamDecoder;")]
            /// let mut decoder = StreamDecoder::new();
            /// let mut offsets = Vec::new();
            /// decoder.push(b"a", |e| offsets.push(e.offset));
            /// decoder.push(b"\xE1\x80b", |e| offsets.push(e.offset));
            /// assert_eq!(offsets, [0, 1, 3]); // `a`, the truncated span, `b`
            /// ```
            pub fn push<F: FnMut(crate::Located)>(&mut self, chunk: &[u8], sink: F) {
                self.0.push(chunk, sink)
            }

            /// Ends the input, reporting a sequence or reserved span still open. The
            /// decoder is then ready for a new stream, continuing its offsets.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use corrected_utf8::{", $module, "::StreamDecoder, ErrorKind};")]
            /// let mut decoder = StreamDecoder::new();
            /// decoder.push(b"\xF1\x80", |_| unreachable!());
            /// let mut last = None;
            /// decoder.finish(|e| last = e.event.error().copied());
            /// assert_eq!(last.map(|e| (e.kind, e.length)), Some((ErrorKind::Truncated, 2)));
            /// decoder.finish(|_| unreachable!()); // nothing left open
            /// ```
            pub fn finish<F: FnMut(crate::Located)>(&mut self, sink: F) {
                self.0.finish(sink)
            }
        }
    };
}
pub(crate) use stream_decoder;
