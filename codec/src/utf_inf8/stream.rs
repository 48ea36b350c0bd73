//! The streaming UTF-∞-8 decoder: the one-shot decoder's [`Machine`] fed chunk by chunk.

use super::{Machine, DEFAULT_MAX_CODE_LEN};
use crate::big::BigCodePoint;
use crate::event::Located;

/// A streaming UTF-∞-8 decoder: chunks of any size in, the same events as a one-shot
/// decode out, with offsets from the start of the stream.
///
/// A code in progress holds at most 1.5 bytes of memory per byte received and never
/// more than its limit allows; a code over the limit is one `limit-exceeded` span,
/// skipped in constant memory. Events are reported when the byte that completes or ends
/// them arrives, or at [`finish`](StreamDecoder::finish).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint, Event};
/// let mut decoder = utf_inf8::StreamDecoder::new();
/// let mut events = Vec::new();
/// decoder.push(b"\xFE\x82\x80", |e| events.push(e.event));
/// assert!(events.is_empty());
/// decoder.push(b"\x80\x80\x80\x80\xFE", |e| events.push(e.event));
/// decoder.finish(|e| events.push(e.event));
/// assert_eq!(events[0], Event::CodePoint(BigCodePoint::from(0x8000_0000u32)));
/// assert!(events[1].error().is_some()); // FE alone is truncated
/// ```
#[derive(Clone, Debug)]
pub struct StreamDecoder {
    machine: Machine,
    offset: u64,
}

impl Default for StreamDecoder {
    fn default() -> Self {
        StreamDecoder::new()
    }
}

impl StreamDecoder {
    /// A decoder with the default code length limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::new();
    /// decoder.push(b"\x80", |e| assert!(e.event.error().is_some()));
    /// decoder.push(b"A", |e| assert!(e.event.error().is_none()));
    /// ```
    pub fn new() -> Self {
        StreamDecoder::with_limit(DEFAULT_MAX_CODE_LEN)
    }

    /// A decoder that reports codes longer than `max_code_len` bytes as
    /// `limit-exceeded` (a limit below 1 counts as 1).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8::StreamDecoder, ErrorKind};
    /// let mut decoder = StreamDecoder::with_limit(1000);
    /// let mut kinds = Vec::new();
    /// // Three `B4`s promise a 4-digit length: at least 4096 + 18 digits, over 1000 bytes.
    /// decoder.push(b"\xFF\xB4\xB4\xB4", |e| kinds.push(e.event.error().map(|e| (e.kind, e.length))));
    /// assert_eq!(decoder.pending_len(), 0); // skipped, not held
    /// // `A` cannot continue the code: it ends the one span, and decodes afresh.
    /// decoder.push(b"A", |e| kinds.push(e.event.error().map(|e| (e.kind, e.length))));
    /// assert_eq!(kinds, [Some((ErrorKind::LimitExceeded, 4)), None]);
    /// ```
    pub fn with_limit(max_code_len: u32) -> Self {
        StreamDecoder {
            machine: Machine::new(max_code_len),
            offset: 0,
        }
    }

    /// Counts offsets from `offset` instead of 0 (for a stream that starts mid-file).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::new().starting_at(8);
    /// decoder.push(b"\x80", |e| assert_eq!(e.offset, 8));
    /// decoder.push(b"a", |e| assert!(e.event.error().is_none()));
    /// assert_eq!(decoder.offset(), 10);
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
    /// use corrected_utf8::utf_inf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::new();
    /// decoder.push(b"\xFF\xA0", |_| {});
    /// assert_eq!(decoder.offset(), 2);
    /// assert_ne!(decoder.offset(), 0);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Bytes of the code in progress whose digits are held (never more than the limit);
    /// 0 while a code over the limit is being skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8::StreamDecoder;
    /// let mut decoder = StreamDecoder::new();
    /// decoder.push(b"\xFF\xA0\xA0", |_| {});
    /// assert_eq!(decoder.pending_len(), 3);
    /// decoder.finish(|_| {});
    /// assert_eq!(decoder.pending_len(), 0);
    /// ```
    pub fn pending_len(&self) -> u64 {
        self.machine.pending()
    }

    /// Decodes the next chunk, calling `sink` with every event it completes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8::StreamDecoder, BigCodePoint, Event};
    /// let mut decoder = StreamDecoder::new();
    /// let mut out = Vec::new();
    /// decoder.push(b"\xF4\x90", |e| out.push(e.event));
    /// decoder.push(b"\x80\x80", |e| out.push(e.event));
    /// assert_eq!(out, [Event::CodePoint(BigCodePoint::from(0x11_0000u32))]);
    /// ```
    pub fn push<F: FnMut(Located<BigCodePoint>)>(&mut self, chunk: &[u8], mut sink: F) {
        for &byte in chunk {
            self.machine.feed(byte, self.offset, &mut sink);
            self.offset += 1;
        }
    }

    /// Ends the input, reporting a code still open as `truncated` (or, over the limit,
    /// as its `limit-exceeded` span).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8::StreamDecoder, ErrorKind};
    /// let mut decoder = StreamDecoder::new();
    /// decoder.push(b"\xFF\x80", |_| unreachable!());
    /// let mut kind = None;
    /// decoder.finish(|e| kind = e.event.error().map(|e| e.kind));
    /// assert_eq!(kind, Some(ErrorKind::Truncated));
    /// ```
    pub fn finish<F: FnMut(Located<BigCodePoint>)>(&mut self, mut sink: F) {
        self.machine.finish(&mut sink);
    }
}
