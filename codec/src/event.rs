//! Decoding events, the same shape for every encoding.

use crate::error::{DecodeError, ErrorKind};
use core::fmt;

/// One decoding event: a code point, or an error span.
///
/// `C` is the code point type: `u32` for Corrected UTF-8 and UTF-8; UTF-∞-8's unbounded
/// code points use a wider type.
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
            Event::CodePoint(_) => None,
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
        }
    }
}

impl fmt::Display for Event<u32> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::CodePoint(cp) => write!(f, "U+{cp:04X}"),
            Event::Error(e) => e.fmt(f),
        }
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
