//! Decoding events, the same shape for every encoding.

use crate::error::{DecodeError, ErrorKind};
use core::fmt;

/// One decoding event: a code point, an error span, or (Corrected UTF-8 only) a
/// reserved span.
///
/// `C` is the code point type: `u32` for Corrected UTF-8 and UTF-8; UTF-∞-8's unbounded
/// code points use a wider type.
///
/// A reserved span is not an error: `FE`/`FF` and what follows up to the next
/// recognized lead byte are "reserved for future use" (`docs/semantics.md` §2.4a), so
/// [`Event::error`] is `None` for one and [`Event::reserved`] gives it.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, Event, ErrorKind};
/// let events: Vec<Event> = corrected::events(b"\xC0\xAF\x80").collect();
/// assert_eq!(events[0], Event::CodePoint(0xCF));
/// assert_eq!(events[1].error().map(|e| e.kind), Some(ErrorKind::UnexpectedContinuation));
/// assert_eq!(events[1].to_string(), "invalid sequence of 1 byte at byte 2: unexpected-continuation");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event<C = u32> {
    /// A decoded code point.
    CodePoint(C),
    /// An error span.
    Error(DecodeError),
    /// Corrected UTF-8: a reserved span, well-formed but of no meaning yet.
    Reserved(ReservedSpan),
}

impl<C> Event<C> {
    /// The error span, if this is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Event;
    /// assert!(Event::<u32>::CodePoint(0x41).error().is_none());
    /// ```
    pub fn error(&self) -> Option<&DecodeError> {
        match self {
            Event::Error(e) => Some(e),
            Event::CodePoint(_) | Event::Reserved(_) => None,
        }
    }

    /// The reserved span, if this is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, Event, ReservedSpan};
    /// let events: Vec<Event> = corrected::events(b"\xFEA").collect();
    /// assert_eq!(events[0].reserved(), Some(&ReservedSpan { offset: 0, length: 1 }));
    /// assert!(events[0].error().is_none());
    /// assert!(events[1].reserved().is_none());
    /// ```
    pub fn reserved(&self) -> Option<&ReservedSpan> {
        match self {
            Event::Reserved(r) => Some(r),
            Event::CodePoint(_) | Event::Error(_) => None,
        }
    }

    /// Why a strict decode stops at this event: the error span or the reserved span;
    /// `None` for a code point.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, ReservedSpan, Stop};
    /// let stop = corrected::events(b"\xFF").next().unwrap().stop();
    /// assert_eq!(stop, Some(Stop::Reserved(ReservedSpan { offset: 0, length: 1 })));
    /// assert!(corrected::events(b"A").next().unwrap().stop().is_none());
    /// ```
    pub fn stop(&self) -> Option<Stop> {
        match self {
            Event::CodePoint(_) => None,
            Event::Error(e) => Some(Stop::Error(*e)),
            Event::Reserved(r) => Some(Stop::Reserved(*r)),
        }
    }
}

impl<C> Event<C> {
    /// The same event with its code point converted by `f` (to a wider type, say).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf8, BigCodePoint, Event};
    /// let mut events = utf8::events(b"A\xFF");
    /// let first = events.next().unwrap().map(BigCodePoint::from);
    /// assert_eq!(first, Event::CodePoint(BigCodePoint::from(0x41u32)));
    /// assert!(events.next().unwrap().map(BigCodePoint::from).error().is_some());
    /// ```
    pub fn map<D>(self, f: impl FnOnce(C) -> D) -> Event<D> {
        match self {
            Event::CodePoint(cp) => Event::CodePoint(f(cp)),
            Event::Error(e) => Event::Error(e),
            Event::Reserved(r) => Event::Reserved(r),
        }
    }
}

impl fmt::Display for Event<u32> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::CodePoint(cp) => write!(f, "U+{cp:04X}"),
            Event::Error(e) => e.fmt(f),
            Event::Reserved(r) => r.fmt(f),
        }
    }
}

/// A Corrected UTF-8 reserved span: `FE` or `FF` and every following byte up to, not
/// including, the next recognized lead byte (`docs/semantics.md` §2.4a). Not an error:
/// the bytes are "reserved for future use", well-formed but of no meaning in this
/// version.
///
/// # Examples
///
/// ```
/// use corrected_utf8::ReservedSpan;
/// let span = ReservedSpan { offset: 2, length: 3 };
/// assert_eq!(span.to_string(), "reserved sequence of 3 bytes at byte 2");
/// assert_ne!(ReservedSpan { offset: 0, length: 1 }.to_string(), "reserved sequence of 1 bytes at byte 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReservedSpan {
    /// Byte offset of the span's first byte (`FE` or `FF`).
    pub offset: u64,
    /// Number of bytes in the span; always at least 1.
    pub length: u64,
}

impl fmt::Display for ReservedSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.length == 1 { "byte" } else { "bytes" };
        write!(
            f,
            "reserved sequence of {} {unit} at byte {}",
            self.length, self.offset
        )
    }
}

/// Where and why a strict decode or a validation of Corrected UTF-8 stops: at the first
/// span of either class, an error span or a reserved span (which is no error, so it is
/// not a [`DecodeError`]). UTF-8 and UTF-∞-8 have no reserved spans: they stop with a
/// [`DecodeError`] alone.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, DecodeError, ErrorKind, ReservedSpan, Stop};
/// assert_eq!(corrected::validate(b"A\xFE\x80"), Err(Stop::Reserved(ReservedSpan { offset: 1, length: 2 })));
/// let stop = corrected::validate(b"A\x80").unwrap_err();
/// assert_eq!(stop, Stop::Error(DecodeError { kind: ErrorKind::UnexpectedContinuation, offset: 1, length: 1 }));
/// assert_eq!((stop.offset(), stop.length()), (1, 1));
/// assert!(stop.reserved().is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// An error span.
    Error(DecodeError),
    /// A Corrected UTF-8 reserved span.
    Reserved(ReservedSpan),
}

impl Stop {
    /// Byte offset of the span's first byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected;
    /// assert_eq!(corrected::validate(b"ab\xFF").unwrap_err().offset(), 2);
    /// assert_ne!(corrected::validate(b"ab\xE0").unwrap_err().offset(), 0);
    /// ```
    pub const fn offset(&self) -> u64 {
        match self {
            Stop::Error(e) => e.offset,
            Stop::Reserved(r) => r.offset,
        }
    }

    /// Number of bytes in the span; always at least 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected;
    /// assert_eq!(corrected::validate(b"\xFF\x80\x80").unwrap_err().length(), 3);
    /// assert_eq!(corrected::validate(b"\xE0\x80").unwrap_err().length(), 2);
    /// ```
    pub const fn length(&self) -> u64 {
        match self {
            Stop::Error(e) => e.length,
            Stop::Reserved(r) => r.length,
        }
    }

    /// The error span, if the stop is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, ErrorKind};
    /// assert_eq!(corrected::validate(b"\x80").unwrap_err().error().map(|e| e.kind), Some(ErrorKind::UnexpectedContinuation));
    /// assert!(corrected::validate(b"\xFE").unwrap_err().error().is_none());
    /// ```
    pub const fn error(&self) -> Option<&DecodeError> {
        match self {
            Stop::Error(e) => Some(e),
            Stop::Reserved(_) => None,
        }
    }

    /// The reserved span, if the stop is one.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, ReservedSpan};
    /// assert_eq!(corrected::validate(b"\xFE").unwrap_err().reserved(), Some(&ReservedSpan { offset: 0, length: 1 }));
    /// assert!(corrected::validate(b"\x80").unwrap_err().reserved().is_none());
    /// ```
    pub const fn reserved(&self) -> Option<&ReservedSpan> {
        match self {
            Stop::Reserved(r) => Some(r),
            Stop::Error(_) => None,
        }
    }
}

impl fmt::Display for Stop {
    /// The span's own message: `invalid sequence of …: kind` or `reserved sequence
    /// of …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Error(e) => e.fmt(f),
            Stop::Reserved(r) => r.fmt(f),
        }
    }
}

impl core::error::Error for Stop {}

impl From<DecodeError> for Stop {
    /// An error span is a stop.
    fn from(error: DecodeError) -> Self {
        Stop::Error(error)
    }
}

impl From<ReservedSpan> for Stop {
    /// A reserved span is a stop.
    fn from(span: ReservedSpan) -> Self {
        Stop::Reserved(span)
    }
}

impl Stop {
    /// The same stop `by` bytes further on: the stop of a decode of `bytes[by..]`,
    /// placed in `bytes`.
    pub(crate) const fn shifted(self, by: u64) -> Stop {
        match self {
            Stop::Error(e) => Stop::Error(DecodeError {
                offset: e.offset + by,
                ..e
            }),
            Stop::Reserved(r) => Stop::Reserved(ReservedSpan {
                offset: r.offset + by,
                length: r.length,
            }),
        }
    }
}

/// How an input decodes as a whole (`docs/semantics.md` §1).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, Validity};
/// assert_eq!(corrected::validity(b"ok"), Validity::Valid);
/// assert_eq!(Validity::Reserved.as_str(), "reserved");
/// assert_ne!(Validity::Invalid.as_str(), "error");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Validity {
    /// Code points only.
    Valid,
    /// No error span and at least one reserved span: well-formed, but this version
    /// cannot say what it means.
    Reserved,
    /// At least one error span.
    Invalid,
}

impl Validity {
    /// `"valid"`, `"reserved"` or `"invalid"`, as in the vectors and the adapter
    /// protocol.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Validity;
    /// assert_eq!(Validity::Valid.as_str(), "valid");
    /// assert_eq!(Validity::Invalid.as_str(), "invalid");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Validity::Valid => "valid",
            Validity::Reserved => "reserved",
            Validity::Invalid => "invalid",
        }
    }

    /// The validity of a sequence of events: the worst outcome among them.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, utf8, Validity};
    /// assert_eq!(Validity::of(corrected::events(b"\xFE\x80")), Validity::Reserved);
    /// assert_eq!(Validity::of(utf8::events(b"\xFE\x80")), Validity::Invalid);
    /// ```
    pub fn of<C, I: IntoIterator<Item = Event<C>>>(events: I) -> Validity {
        let mut validity = Validity::Valid;
        for event in events {
            match event {
                Event::CodePoint(_) => {}
                Event::Reserved(_) => validity = Validity::Reserved,
                Event::Error(_) => return Validity::Invalid,
            }
        }
        validity
    }
}

impl fmt::Display for Validity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An event with the bytes it came from: `length` bytes starting at `offset`.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{corrected, Event, Located};
/// let mut it = corrected::events(b"A\xC0\x80").located();
/// assert_eq!(it.next(), Some(Located { offset: 0, length: 1, event: Event::CodePoint(0x41) }));
/// assert_eq!(it.next(), Some(Located { offset: 1, length: 2, event: Event::CodePoint(0xA0) }));
/// assert_eq!(it.next(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Located<C = u32> {
    /// Byte offset of the first byte.
    pub offset: u64,
    /// Number of bytes.
    pub length: u64,
    /// The event.
    pub event: Event<C>,
}

impl<C> Located<C> {
    /// The same located event with its code point converted by `f`.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, BigCodePoint, Event};
    /// let mut located = corrected::events(b"\xC0\xAF\x80").located();
    /// let first = located.next().unwrap().map(BigCodePoint::from);
    /// assert_eq!((first.offset, first.length), (0, 2));
    /// assert_eq!(first.event, Event::CodePoint(BigCodePoint::from(0xCFu32)));
    /// assert!(located.next().unwrap().map(BigCodePoint::from).event.error().is_some());
    /// ```
    pub fn map<D>(self, f: impl FnOnce(C) -> D) -> Located<D> {
        Located {
            offset: self.offset,
            length: self.length,
            event: self.event.map(f),
        }
    }

    /// A reserved span as a located event.
    pub(crate) fn reserved(offset: u64, length: u64) -> Self {
        Located {
            offset,
            length,
            event: Event::Reserved(ReservedSpan { offset, length }),
        }
    }

    /// An error span as a located event.
    pub(crate) fn error(kind: ErrorKind, offset: u64, length: u64) -> Self {
        Located {
            offset,
            length,
            event: Event::Error(DecodeError {
                kind,
                offset,
                length,
            }),
        }
    }
}
