//! The one-shot event iterator shared by the encodings.

use crate::error::{DecodeError, ErrorKind};
#[cfg(feature = "alloc")]
use crate::event::Stop;
use crate::event::{Event, Located, ReservedSpan, Validity};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::iter::FusedIterator;

/// What one sequence at the start of a slice decodes to (its offset is added by
/// [`Events`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    CodePoint(u32),
    Error(ErrorKind),
    /// Corrected UTF-8: a reserved span.
    Reserved,
}

/// Decodes the sequence at the start of a non-empty slice: the step and its length
/// (at least 1, at most the slice's length).
pub(crate) type StepFn = fn(&[u8]) -> (Step, usize);

/// Iterator over the decoding [`Event`]s of a byte slice, made by
/// [`corrected::events`](crate::corrected::events) or [`utf8::events`](crate::utf8::events).
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf8, Event};
/// let mut events = utf8::events(b"a\xC0");
/// assert_eq!(events.next(), Some(Event::CodePoint(0x61)));
/// assert_eq!(events.offset(), 1);
/// assert!(events.next().unwrap().error().is_some());
/// assert_eq!(events.next(), None);
/// ```
#[derive(Clone)]
pub struct Events<'a> {
    bytes: &'a [u8],
    pos: usize,
    step: StepFn,
}

impl<'a> Events<'a> {
    pub(crate) fn new(bytes: &'a [u8], step: StepFn) -> Self {
        Events {
            bytes,
            pos: 0,
            step,
        }
    }

    /// Skips to `pos`, which must be a sequence boundary the caller has checked (the
    /// end of a run of ASCII, say).
    pub(crate) fn skip_to(&mut self, pos: usize) {
        debug_assert!(pos >= self.pos && pos <= self.bytes.len());
        self.pos = pos;
    }

    /// Byte offset of the next event (the input's length once done).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected;
    /// let mut events = corrected::events(b"\xC0\x80\x80");
    /// events.next();
    /// assert_eq!(events.offset(), 2);
    /// events.next();
    /// assert_eq!(events.offset(), 3);
    /// ```
    pub fn offset(&self) -> u64 {
        self.pos as u64
    }

    /// The next event with its byte range.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, Event};
    /// let mut events = corrected::events(b"\xFE\x80");
    /// let first = events.next_located().unwrap();
    /// assert_eq!((first.offset, first.length), (0, 2));
    /// assert!(events.next_located().is_none());
    /// ```
    pub fn next_located(&mut self) -> Option<Located> {
        let rest = self.bytes.get(self.pos..).filter(|r| !r.is_empty())?;
        let (step, len) = (self.step)(rest);
        debug_assert!(len >= 1 && len <= rest.len());
        let offset = self.pos as u64;
        self.pos += len;
        let event = match step {
            Step::CodePoint(cp) => Event::CodePoint(cp),
            Step::Error(kind) => Event::Error(DecodeError {
                kind,
                offset,
                length: len as u64,
            }),
            Step::Reserved => Event::Reserved(ReservedSpan {
                offset,
                length: len as u64,
            }),
        };
        Some(Located {
            offset,
            length: len as u64,
            event,
        })
    }

    /// This iterator, yielding [`Located`] events.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8;
    /// let spans: Vec<_> = utf8::events(b"\xE2\x82\xAC\xFF").located().map(|l| (l.offset, l.length)).collect();
    /// assert_eq!(spans, [(0, 3), (3, 1)]);
    /// ```
    pub fn located(self) -> impl Iterator<Item = Located> + 'a {
        let mut events = self;
        core::iter::from_fn(move || events.next_located())
    }

    /// The validity of the remaining input: valid, reserved or invalid.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, Validity};
    /// assert_eq!(corrected::events(b"\xFFA").validity(), Validity::Reserved);
    /// assert_eq!(corrected::events(b"\xFF\x80\xC0").validity(), Validity::Invalid);
    /// ```
    pub fn validity(self) -> Validity {
        Validity::of(self)
    }

    /// The code points, with one U+FFFD for each error span and each reserved span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8;
    /// let lossy: String = utf8::events(b"a\xF0\x90b").lossy().filter_map(char::from_u32).collect();
    /// assert_eq!(lossy, "a\u{FFFD}b");
    /// ```
    pub fn lossy(self) -> impl Iterator<Item = u32> + 'a {
        self.map(|e| match e {
            Event::CodePoint(cp) => cp,
            Event::Error(_) | Event::Reserved(_) => 0xFFFD,
        })
    }

    /// Every remaining code point, or the first error span or reserved span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{corrected, ReservedSpan, Stop};
    /// assert_eq!(corrected::events(b"AB").strict(), Ok(vec![0x41, 0x42]));
    /// assert_eq!(corrected::events(b"A\xFF").strict(), Err(Stop::Reserved(ReservedSpan { offset: 1, length: 1 })));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn strict(self) -> Result<Vec<u32>, Stop> {
        self.map(|e| match e {
            Event::CodePoint(cp) => Ok(cp),
            Event::Error(err) => Err(Stop::Error(err)),
            Event::Reserved(span) => Err(Stop::Reserved(span)),
        })
        .collect()
    }
}

impl Iterator for Events<'_> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        self.next_located().map(|l| l.event)
    }

    /// At least one event while bytes are left, at most one per byte left.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8;
    /// let mut events = utf8::events(b"a\xE2\x82\xAC");
    /// assert_eq!(events.size_hint(), (1, Some(4)));
    /// events.next();
    /// assert_eq!(events.size_hint(), (1, Some(3)));
    /// events.next();
    /// assert_eq!(events.size_hint(), (0, Some(0)));
    /// ```
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bytes.len() - self.pos;
        (left.min(1), Some(left))
    }
}

impl FusedIterator for Events<'_> {}

impl core::fmt::Debug for Events<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Events")
            .field("offset", &self.pos)
            .field("remaining", &(self.bytes.len() - self.pos))
            .finish()
    }
}
