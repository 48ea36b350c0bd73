//! The encodings as values: one handle per encoding, with the operations all three share.

#[cfg(feature = "alloc")]
use crate::{corrected, utf8, utf_inf8, BigCodePoint, Located, Stop, Validity};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

/// The three encodings the project covers: a handle to hold, with the operations all
/// three share (like `encoding_rs`'s `&'static Encoding`).
///
/// With `alloc`, [`decode`](Encoding::decode), [`decode_lossy`](Encoding::decode_lossy),
/// [`events_located`](Encoding::events_located) and
/// [`new_decoder`](Encoding::new_decoder) work for every encoding over the widest code
/// point type, [`BigCodePoint`]; the modules ([`corrected`](crate::corrected),
/// [`utf8`](crate::utf8), [`utf_inf8`](crate::utf_inf8)) have the same operations with
/// each encoding's own code point type (`u32` for the first two).
///
/// # Examples
///
/// ```
/// use corrected_utf8::Encoding;
/// assert_eq!(Encoding::from_name("utf-8"), Some(Encoding::Utf8));
/// assert_eq!(Encoding::CorrectedUtf8.name(), "corrected-utf8");
/// assert_eq!(Encoding::from_name("utf8"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// `corrected-utf8`
    CorrectedUtf8,
    /// `utf-8`
    Utf8,
    /// `utf-inf-8`
    UtfInf8,
}

impl Encoding {
    /// Every encoding.
    pub const ALL: [Encoding; 3] = [Encoding::CorrectedUtf8, Encoding::Utf8, Encoding::UtfInf8];

    /// The identifier used in vectors, the CLI and the adapter protocol.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// assert_eq!(Encoding::UtfInf8.name(), "utf-inf-8");
    /// assert_ne!(Encoding::Utf8.name(), "utf8");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::CorrectedUtf8 => "corrected-utf8",
            Encoding::Utf8 => "utf-8",
            Encoding::UtfInf8 => "utf-inf-8",
        }
    }

    /// The encoding named by an identifier, or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// assert_eq!(Encoding::from_name("utf-inf-8"), Some(Encoding::UtfInf8));
    /// assert_eq!(Encoding::from_name(""), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Validates `bytes`: `Ok` when they decode to code points alone, or else the first
    /// span (an error span, or a Corrected UTF-8 reserved span).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{Encoding, ErrorKind};
    /// assert!(Encoding::CorrectedUtf8.validate(b"\xC0\xAF").is_ok());
    /// let stop = Encoding::Utf8.validate(b"\xC0\xAF").unwrap_err();
    /// assert_eq!(stop.error().map(|e| e.kind), Some(ErrorKind::Overlong));
    /// assert!(Encoding::CorrectedUtf8.validate(b"\xFF").unwrap_err().reserved().is_some());
    /// ```
    #[cfg(feature = "alloc")]
    pub fn validate(self, bytes: &[u8]) -> Result<(), Stop> {
        match self {
            Encoding::CorrectedUtf8 => corrected::validate(bytes),
            Encoding::Utf8 => Ok(utf8::validate(bytes)?),
            Encoding::UtfInf8 => Ok(utf_inf8::validate(bytes)?),
        }
    }

    /// Whether `bytes` are valid (code points only), reserved (no error span, at least
    /// one reserved span: Corrected UTF-8 only) or invalid (at least one error span).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{Encoding, Validity};
    /// assert_eq!(Encoding::CorrectedUtf8.validity(b"\xC0\xAF"), Validity::Valid);
    /// assert_eq!(Encoding::CorrectedUtf8.validity(b"\xFF"), Validity::Reserved);
    /// assert_eq!(Encoding::Utf8.validity(b"\xFF"), Validity::Invalid);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn validity(self, bytes: &[u8]) -> Validity {
        match self {
            Encoding::CorrectedUtf8 => corrected::validity(bytes),
            Encoding::Utf8 => utf8::validity(bytes),
            Encoding::UtfInf8 => utf_inf8::validity(bytes),
        }
    }

    /// Every event of `bytes` with its byte range, in order, as they are decoded (no
    /// buffer of the whole input's events).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{BigCodePoint, Encoding, Event};
    /// let mut events = Encoding::UtfInf8.events_located(b"\xF4\x90\x80\x80\x80");
    /// assert_eq!(events.next().unwrap().event, Event::CodePoint(BigCodePoint::from(0x11_0000u32)));
    /// assert!(events.next().unwrap().event.error().is_some());
    /// assert!(events.next().is_none());
    /// ```
    #[cfg(feature = "alloc")]
    pub fn events_located(self, bytes: &[u8]) -> EventsLocated<'_> {
        EventsLocated(match self {
            Encoding::CorrectedUtf8 => Inner::Bounded(corrected::events(bytes)),
            Encoding::Utf8 => Inner::Bounded(utf8::events(bytes)),
            Encoding::UtfInf8 => Inner::Unbounded(utf_inf8::events(bytes)),
        })
    }

    /// Strict decode: every code point, or the first error span or reserved span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{BigCodePoint, Encoding, ErrorKind};
    /// assert_eq!(Encoding::CorrectedUtf8.decode(b"\xC0\x80"), Ok(vec![BigCodePoint::from(0xA0u32)]));
    /// let stop = Encoding::Utf8.decode(b"\xED\xA0\x80").unwrap_err();
    /// assert_eq!(stop.error().map(|e| e.kind), Some(ErrorKind::Surrogate));
    /// ```
    #[cfg(feature = "alloc")]
    pub fn decode(self, bytes: &[u8]) -> Result<Vec<BigCodePoint>, Stop> {
        match self {
            Encoding::CorrectedUtf8 => big(corrected::decode(bytes)?),
            Encoding::Utf8 => big(utf8::decode(bytes)?),
            Encoding::UtfInf8 => Ok(utf_inf8::decode(bytes)?),
        }
    }

    /// Lossy decode: every code point, with one U+FFFD in place of each error span and
    /// each reserved span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{BigCodePoint, Encoding};
    /// let fffd = BigCodePoint::from(0xFFFDu32);
    /// assert_eq!(Encoding::Utf8.decode_lossy(b"\xFFA"), vec![fffd, BigCodePoint::from(0x41u32)]);
    /// assert_eq!(Encoding::UtfInf8.decode_lossy(b"A"), vec![BigCodePoint::from(0x41u32)]);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn decode_lossy(self, bytes: &[u8]) -> Vec<BigCodePoint> {
        match self {
            Encoding::CorrectedUtf8 => corrected::decode_lossy(bytes)
                .into_iter()
                .map(BigCodePoint::from)
                .collect(),
            Encoding::Utf8 => utf8::decode_lossy(bytes)
                .into_iter()
                .map(BigCodePoint::from)
                .collect(),
            Encoding::UtfInf8 => utf_inf8::decode_lossy(bytes),
        }
    }

    /// A streaming decoder for this encoding (UTF-∞-8's with its default code length
    /// limit), counting offsets from 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{BigCodePoint, Encoding, Event};
    /// let mut decoder = Encoding::CorrectedUtf8.new_decoder();
    /// let mut events = Vec::new();
    /// decoder.push(b"\xC0", |e| events.push(e.event));
    /// decoder.push(b"\xAF\xFF", |e| events.push(e.event));
    /// decoder.finish(|e| events.push(e.event));
    /// assert_eq!(events[0], Event::CodePoint(BigCodePoint::from(0xCFu32)));
    /// assert!(events[1].reserved().is_some()); // `FF`: reserved, not an error
    /// ```
    #[cfg(feature = "alloc")]
    pub fn new_decoder(self) -> Decoder {
        match self {
            Encoding::CorrectedUtf8 => Decoder::CorrectedUtf8(corrected::StreamDecoder::new()),
            Encoding::Utf8 => Decoder::Utf8(utf8::StreamDecoder::new()),
            Encoding::UtfInf8 => Decoder::UtfInf8(utf_inf8::StreamDecoder::new()),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The iterator of [`Encoding::events_located`]: every event with its byte range, over
/// [`BigCodePoint`]s, for any of the three encodings.
///
/// # Examples
///
/// ```
/// use corrected_utf8::Encoding;
/// let spans: Vec<_> = Encoding::CorrectedUtf8.events_located(b"A\xFE\x80").map(|l| (l.offset, l.length)).collect();
/// assert_eq!(spans, [(0, 1), (1, 2)]);
/// assert!(Encoding::Utf8.events_located(b"\xFE").all(|l| l.event.error().is_some()));
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct EventsLocated<'a>(Inner<'a>);

#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
enum Inner<'a> {
    /// Corrected UTF-8 or UTF-8.
    Bounded(crate::Events<'a>),
    Unbounded(utf_inf8::Events<'a>),
}

#[cfg(feature = "alloc")]
impl Iterator for EventsLocated<'_> {
    type Item = Located<BigCodePoint>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Inner::Bounded(events) => events.next_located().map(|l| l.map(BigCodePoint::from)),
            Inner::Unbounded(events) => events.next_located(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            Inner::Bounded(events) => events.size_hint(),
            Inner::Unbounded(events) => events.size_hint(),
        }
    }
}

#[cfg(feature = "alloc")]
impl core::iter::FusedIterator for EventsLocated<'_> {}

#[cfg(feature = "alloc")]
fn big(codepoints: Vec<u32>) -> Result<Vec<BigCodePoint>, Stop> {
    Ok(codepoints.into_iter().map(BigCodePoint::from).collect())
}

/// A streaming decoder of any of the three encodings, made by
/// [`Encoding::new_decoder`]: each encoding's own decoder, and the operations they share
/// over [`BigCodePoint`]s. Match on it for an encoding's own code point type.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, Decoder, Encoding};
/// let mut decoder = Decoder::UtfInf8(utf_inf8::StreamDecoder::with_limit(13));
/// assert_eq!(decoder.encoding(), Encoding::UtfInf8);
/// let mut errors = 0;
/// decoder.push(b"\xFF\xA0", |e| errors += e.event.error().is_some() as u32);
/// assert_eq!(errors, 0); // 14 bytes at least: over the limit, skipped to its end
/// decoder.finish(|e| errors += e.event.error().is_some() as u32);
/// assert_eq!(errors, 1); // one limit-exceeded span
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub enum Decoder {
    /// Corrected UTF-8.
    CorrectedUtf8(corrected::StreamDecoder),
    /// UTF-8.
    Utf8(utf8::StreamDecoder),
    /// UTF-∞-8.
    UtfInf8(utf_inf8::StreamDecoder),
}

#[cfg(feature = "alloc")]
impl Decoder {
    /// The encoding it decodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// assert_eq!(Encoding::Utf8.new_decoder().encoding(), Encoding::Utf8);
    /// assert_ne!(Encoding::Utf8.new_decoder().encoding(), Encoding::CorrectedUtf8);
    /// ```
    pub fn encoding(&self) -> Encoding {
        match self {
            Decoder::CorrectedUtf8(_) => Encoding::CorrectedUtf8,
            Decoder::Utf8(_) => Encoding::Utf8,
            Decoder::UtfInf8(_) => Encoding::UtfInf8,
        }
    }

    /// Counts offsets from `offset` instead of 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// let mut decoder = Encoding::UtfInf8.new_decoder().starting_at(5);
    /// decoder.push(b"\x80", |e| assert_eq!(e.offset, 5));
    /// decoder.push(b"a", |e| assert!(e.event.error().is_none()));
    /// ```
    pub fn starting_at(self, offset: u64) -> Self {
        match self {
            Decoder::CorrectedUtf8(d) => Decoder::CorrectedUtf8(d.starting_at(offset)),
            Decoder::Utf8(d) => Decoder::Utf8(d.starting_at(offset)),
            Decoder::UtfInf8(d) => Decoder::UtfInf8(d.starting_at(offset)),
        }
    }

    /// Offset of the next byte to be pushed.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// let mut decoder = Encoding::Utf8.new_decoder();
    /// decoder.push(b"a\xFF", |_| {});
    /// assert_eq!(decoder.offset(), 2);
    /// assert_ne!(decoder.offset(), 0);
    /// ```
    pub fn offset(&self) -> u64 {
        match self {
            Decoder::CorrectedUtf8(d) => d.offset(),
            Decoder::Utf8(d) => d.offset(),
            Decoder::UtfInf8(d) => d.offset(),
        }
    }

    /// Bytes of the sequence or code in progress (for UTF-8 and Corrected UTF-8, at most
    /// [`MAX_PENDING`](crate::MAX_PENDING)).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Encoding;
    /// let mut decoder = Encoding::CorrectedUtf8.new_decoder();
    /// decoder.push(b"\xE0\x80", |_| {});
    /// assert_eq!(decoder.pending_len(), 2);
    /// decoder.finish(|_| {});
    /// assert_eq!(decoder.pending_len(), 0);
    /// ```
    pub fn pending_len(&self) -> u64 {
        match self {
            Decoder::CorrectedUtf8(d) => d.pending_len(),
            Decoder::Utf8(d) => d.pending_len(),
            Decoder::UtfInf8(d) => d.pending_len(),
        }
    }

    /// Decodes the next chunk, calling `sink` with every event it completes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{BigCodePoint, Encoding, Event};
    /// let mut decoder = Encoding::Utf8.new_decoder();
    /// let mut out = Vec::new();
    /// decoder.push(b"\xE2\x82", |e| out.push(e.event));
    /// decoder.push(b"\xAC\xC0", |e| out.push(e.event));
    /// assert_eq!(out[0], Event::CodePoint(BigCodePoint::from(0x20ACu32)));
    /// assert!(out[1].error().is_some()); // `C0` is always overlong in UTF-8
    /// ```
    pub fn push<F: FnMut(Located<BigCodePoint>)>(&mut self, chunk: &[u8], mut sink: F) {
        match self {
            Decoder::CorrectedUtf8(d) => d.push(chunk, |l| sink(l.map(BigCodePoint::from))),
            Decoder::Utf8(d) => d.push(chunk, |l| sink(l.map(BigCodePoint::from))),
            Decoder::UtfInf8(d) => d.push(chunk, sink),
        }
    }

    /// Ends the input, reporting what is still open. The decoder is then ready for a new
    /// stream, continuing its offsets.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{Encoding, ErrorKind};
    /// let mut decoder = Encoding::UtfInf8.new_decoder();
    /// decoder.push(b"\xFF\x80", |_| unreachable!());
    /// let mut kind = None;
    /// decoder.finish(|e| kind = e.event.error().map(|e| e.kind));
    /// assert_eq!(kind, Some(ErrorKind::Truncated));
    /// ```
    pub fn finish<F: FnMut(Located<BigCodePoint>)>(&mut self, mut sink: F) {
        match self {
            Decoder::CorrectedUtf8(d) => d.finish(|l| sink(l.map(BigCodePoint::from))),
            Decoder::Utf8(d) => d.finish(|l| sink(l.map(BigCodePoint::from))),
            Decoder::UtfInf8(d) => d.finish(sink),
        }
    }
}
