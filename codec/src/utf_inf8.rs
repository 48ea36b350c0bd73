//! UTF-∞-8 (`utf-inf-8`): the original 1–6 byte UTF-8 extended through `FE` and `FF` to
//! unbounded code points (Bishop & Cook's draft; `docs/semantics.md` §4).
//!
//! | code points | bytes |
//! |---|---|
//! | below U+80000000 | the original 1–6 byte UTF-8 |
//! | below 2^36 | `FE` + 6 continuation bytes |
//! | below 2^71 | `FF`, `80–9F` (5 bits), 11 continuation bytes |
//! | 18 or more hex digits (NUD) | `FF`, length storage (NME = NUD − 18: `A0–AF` if < 16, else `B4`×(k−1) then k digit bytes `A0–AF`), then ((NUD + 2) / 3) × 2 storage bytes, 3 hex digits per 2 bytes |
//!
//! Only the shortest form is well-formed. Error spans are maximal subparts: a sequence
//! fails at the first byte after which no well-formed completion exists, the span is
//! the bytes before it, and its kind says why: `overlong` (the value would fit a shorter
//! form, or the length has a leading zero digit), `surrogate`, `invalid-length` (a byte
//! that fits no length form, or stored digits that do not fit the stored length) or
//! `truncated` (a non-continuation byte or the end came first).
//!
//! A decoder has a limit on a code's length in bytes ([`DEFAULT_MAX_CODE_LEN`]). At the
//! first byte after which every well-formed completion would be longer (unless that
//! byte is a well-formedness error, which wins), the whole code becomes **one**
//! `limit-exceeded` span: it goes on over every following byte that still continues a
//! well-formed code (the limit aside), up to the code's declared end inclusive, or ends
//! just before the first byte that cannot continue it (decoded afresh), or at the end
//! of the input. The code is skipped then, in constant memory: no digits are kept and
//! the counts saturate. So a hostile length field never makes it allocate: the memory
//! a code in progress holds is at most 1.5 bytes per byte received, and at most the
//! limit.
//!
//! ```
//! use corrected_utf8::{utf_inf8, ErrorKind};
//! // 5 `B4`s promise a length of 6 digits: far over the 64 KiB limit. One span of 6,
//! // then `A`.
//! let events: Vec<_> = utf_inf8::events(b"\xFF\xB4\xB4\xB4\xB4\xB4A").located().collect();
//! assert_eq!(events[0].event.error().map(|e| (e.kind, e.length)), Some((ErrorKind::LimitExceeded, 6)));
//! assert_eq!((events[1].offset, events.len()), (6, 2));
//! ```

use crate::big::BigCodePoint;
use crate::error::{DecodeError, ErrorKind};
use crate::event::{Event, Located, Validity};
use alloc::collections::VecDeque;
use alloc::vec::Vec;

mod encode;
mod stream;

pub use encode::{encode, encode_into};
pub use stream::StreamDecoder;

/// The default limit on one code's length, in bytes (64 KiB: a code point of about
/// 98 000 hex digits).
pub const DEFAULT_MAX_CODE_LEN: u32 = 64 * 1024;

/// A form of fixed length: codes of `len` bytes encode exactly the code points
/// `first..=last` (a smaller value in that form is overlong).
///
/// # Examples
///
/// ```
/// use corrected_utf8::utf_inf8::FIXED_FORMS;
/// let fe = &FIXED_FORMS[6]; // `FE` and 6 continuation bytes
/// assert_eq!((fe.len, fe.first, fe.last), (7, 0x8000_0000, 0xF_FFFF_FFFF));
/// assert_ne!(FIXED_FORMS[7].len, 8); // then `FF 80–9F`: 13 bytes
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedForm {
    /// Code length in bytes.
    pub len: u8,
    /// The smallest code point of the form.
    pub first: u128,
    /// The largest code point of the form.
    pub last: u128,
}

/// The fixed-length forms of UTF-∞-8 (Bishop & Cook's draft; `docs/semantics.md` §4):
/// 1 to 6 bytes as the original UTF-8, `FE` with 6 continuation bytes, and `FF 80–9F`
/// with 11. Longer code points take the length-storage form.
#[rustfmt::skip]
pub const FIXED_FORMS: [FixedForm; 8] = [
    FixedForm { len: 1,  first: 0x0,         last: 0x7F },
    FixedForm { len: 2,  first: 0x80,        last: 0x7FF },
    FixedForm { len: 3,  first: 0x800,       last: 0xFFFF },
    FixedForm { len: 4,  first: 0x1_0000,    last: 0x1F_FFFF },
    FixedForm { len: 5,  first: 0x20_0000,   last: 0x3FF_FFFF },
    FixedForm { len: 6,  first: 0x400_0000,  last: 0x7FFF_FFFF },
    FixedForm { len: 7,  first: 0x8000_0000, last: (1 << 36) - 1 },
    FixedForm { len: 13, first: 1 << 36,     last: (1 << 71) - 1 },
];

/// The smallest code point of the fixed-length form of `len` bytes (2–7 or 13); shorter
/// values are overlong.
const fn min_of_len(len: u8) -> u128 {
    let mut i = 1;
    while i < FIXED_FORMS.len() - 1 && FIXED_FORMS[i].len != len {
        i += 1;
    }
    FIXED_FORMS[i].first
}

/// What the bytes of a code in progress have established.
#[derive(Clone, Debug)]
enum Part {
    /// A form of fixed length (2–7 bytes, or 13): its value so far.
    Fixed { len: u8, value: u128 },
    /// `FF` alone.
    AfterFf,
    /// `FF` and `b4` bytes `B4`, then `digits` length digits whose value is `nme`
    /// (saturating: a value that large is over any limit) and whose value modulo 3 is
    /// `rem`, exactly (the padding of the storage depends on it, however long the
    /// length: 16 is 1 modulo 3, so it is the sum of the digits modulo 3).
    Length {
        b4: u64,
        digits: u64,
        nme: u64,
        rem: u8,
    },
    /// The storage bytes: `total` of them make a code of `code_len` bytes; the first
    /// `pad` hex digits are padding and must be 0, and the first significant digit
    /// must be at least `min_first`.
    Storage {
        code_len: u64,
        total: u64,
        pad: u8,
        min_first: u8,
        /// Storage bytes so far.
        seen: u64,
        /// Digits so far, padding included; none are kept once the code is over the
        /// limit (it is only skipped then).
        nibbles: Vec<u8>,
        /// Whether to keep the digits.
        keep: bool,
        /// The low 2 bits of the second digit of a pair, between its two bytes.
        half: u8,
    },
}

impl Part {
    /// Keeps no more digits: the code is over the limit and is only skipped to its end,
    /// in constant memory.
    fn skip(&mut self) {
        if let Part::Storage { nibbles, keep, .. } = self {
            *nibbles = Vec::new();
            *keep = false;
        }
    }
}

#[derive(Clone, Debug)]
struct Seq {
    start: u64,
    /// Bytes so far (saturating: no input is longer than `u64::MAX` bytes).
    have: u64,
    part: Part,
    /// Over the limit: the code is one `limit-exceeded` span, skipped to its end.
    over: bool,
}

/// The outcome of adding one continuation byte to a code in progress.
enum Verdict {
    /// The code goes on; its part now holds the byte.
    Continue,
    Done(BigCodePoint),
    /// The last byte of a code whose digits were not kept.
    Ended,
    Reject(ErrorKind),
}

/// A length-class start: `FF` and length storage give NUD (NUD − 18 is `nme`,
/// saturating, and `rem` modulo 3, exactly); the storage part follows.
fn storage(header_len: u64, nme: u64, rem: u8) -> Part {
    let nud = nme.saturating_add(18);
    let total = (nud.saturating_add(2) / 3).saturating_mul(2);
    Part::Storage {
        code_len: header_len.saturating_add(total),
        total,
        // NUD is NUD − 18 modulo 3; from `rem`, since `nme` saturates past 2^64 − 1.
        pad: ((3 - rem % 3) % 3),
        // 18 digits below 8 × 16^17 = 2^71 fit the `FF 80–9F` form: not shortest.
        min_first: if nud == 18 { 8 } else { 1 },
        seen: 0,
        nibbles: Vec::new(),
        keep: true,
        half: 0,
    }
}

/// Adds continuation byte `byte` to `part`, in place; `have` is the number of bytes
/// before it. In place, because a code can be 64 KiB of digits, one byte at a time.
fn step(part: &mut Part, have: u64, byte: u8) -> Verdict {
    let payload = byte & 0x3F;
    match part {
        Part::Fixed { len, value } => {
            *value = (*value << 6) | payload as u128;
            fixed(*len, have + 1, *value)
        }
        Part::AfterFf => match byte {
            0x80..=0x9F => {
                let value = (byte & 0x1F) as u128;
                *part = Part::Fixed { len: 13, value };
                fixed(13, 2, value)
            }
            0xA0..=0xAF => {
                let digit = byte & 0x0F;
                *part = storage(2, digit as u64, digit % 3);
                Verdict::Continue
            }
            0xB4 => {
                *part = Part::Length {
                    b4: 1,
                    digits: 0,
                    nme: 0,
                    rem: 0,
                };
                Verdict::Continue
            }
            _ => Verdict::Reject(ErrorKind::InvalidLength),
        },
        Part::Length {
            b4,
            digits,
            nme,
            rem,
        } => match byte {
            0xB4 if *digits == 0 => {
                *b4 = b4.saturating_add(1);
                Verdict::Continue
            }
            // A leading zero digit: the length fits in fewer digits.
            0xA0 if *digits == 0 => Verdict::Reject(ErrorKind::Overlong),
            0xA0..=0xAF => {
                *nme = nme.saturating_mul(16).saturating_add((byte & 0x0F) as u64);
                *rem = (*rem + (byte & 0x0F)) % 3;
                if *digits == *b4 {
                    *part = storage(have.saturating_add(1), *nme, *rem);
                } else {
                    *digits += 1;
                }
                Verdict::Continue
            }
            _ => Verdict::Reject(ErrorKind::InvalidLength),
        },
        Part::Storage {
            total,
            pad,
            min_first,
            seen,
            nibbles,
            keep,
            half,
            ..
        } => {
            let index = *seen;
            if index % 2 == 0 {
                // First byte of a pair: a whole digit and the high 2 bits of the next.
                let (n0, n1_high) = (payload >> 2, payload & 3);
                match *pad {
                    0 if index == 0 && n0 < *min_first => {
                        return Verdict::Reject(ErrorKind::Overlong)
                    }
                    1 if index == 0 && n0 != 0 => return Verdict::Reject(ErrorKind::InvalidLength),
                    2 if index == 0 && payload != 0 => {
                        return Verdict::Reject(ErrorKind::InvalidLength)
                    }
                    _ => {}
                }
                if *keep {
                    nibbles.push(n0);
                }
                *half = n1_high;
            } else {
                let (n1, n2) = ((*half << 2) | (payload >> 4), payload & 0x0F);
                match *pad {
                    1 if index == 1 && n1 == 0 => return Verdict::Reject(ErrorKind::Overlong),
                    2 if index == 1 && n1 != 0 => return Verdict::Reject(ErrorKind::InvalidLength),
                    2 if index == 1 && n2 == 0 => return Verdict::Reject(ErrorKind::Overlong),
                    _ => {}
                }
                if *keep {
                    nibbles.push(n1);
                    nibbles.push(n2);
                }
            }
            if index + 1 == *total && !*keep {
                Verdict::Ended
            } else if index + 1 == *total {
                let cp = BigCodePoint::from_digits(&nibbles[*pad as usize..]).expect("nibbles");
                Verdict::Done(cp)
            } else {
                *seen += 1;
                Verdict::Continue
            }
        }
    }
}

/// The verdict on a fixed-length form of `len` bytes with `have` bytes of value `value`
/// (`Continue`: the part is `Part::Fixed { len, value }`).
fn fixed(len: u8, have: u64, value: u128) -> Verdict {
    let rest_bits = (len as u64 - have) * 6;
    let lowest = value << rest_bits;
    let highest = lowest | ((1u128 << rest_bits) - 1);
    if highest < min_of_len(len) {
        Verdict::Reject(ErrorKind::Overlong)
    } else if len == 3 && lowest >= 0xD800 && highest <= 0xDFFF {
        Verdict::Reject(ErrorKind::Surrogate)
    } else if have == len as u64 {
        Verdict::Done(BigCodePoint::from(value))
    } else {
        Verdict::Continue
    }
}

/// The length of the shortest well-formed code that completes `part`.
fn shortest_completion(part: &Part) -> u64 {
    match part {
        Part::Fixed { len, .. } => *len as u64,
        Part::AfterFf => 13,
        Part::Length {
            b4, digits, nme, ..
        } => {
            // No more `B4`: b4 + 1 digits, the missing ones 0 (or a leading 1).
            let missing = b4 + 1 - digits;
            let least = if *digits == 0 {
                16u64.saturating_pow(*b4 as u32)
            } else {
                nme.saturating_mul(16u64.saturating_pow(missing as u32))
            };
            // (Only the length is read: any remainder will do.)
            match storage(1 + b4 + b4 + 1, least, 0) {
                Part::Storage { code_len, .. } => code_len,
                _ => unreachable!(),
            }
        }
        Part::Storage { code_len, .. } => *code_len,
    }
}

/// The byte-at-a-time decoding machine behind both [`Events`] and [`StreamDecoder`].
#[derive(Clone, Debug)]
struct Machine {
    limit: u64,
    seq: Option<Seq>,
}

type Sink<'s> = &'s mut dyn FnMut(Located<BigCodePoint>);

impl Machine {
    fn new(limit: u32) -> Self {
        Machine {
            limit: limit.max(1) as u64,
            seq: None,
        }
    }

    fn feed(&mut self, byte: u8, offset: u64, sink: Sink<'_>) {
        let Some(seq) = &mut self.seq else {
            return self.start(byte, offset, sink);
        };
        let ended = |kind: ErrorKind| {
            if seq.over {
                ErrorKind::LimitExceeded
            } else {
                kind
            }
        };
        if byte & 0xC0 != 0x80 {
            sink(Located::error(
                ended(ErrorKind::Truncated),
                seq.start,
                seq.have,
            ));
            self.seq = None;
            return self.start(byte, offset, sink);
        }
        let have = seq.have.saturating_add(1);
        match step(&mut seq.part, seq.have, byte) {
            // Over the limit, a byte that cannot continue the code ends the span before
            // it, and is decoded afresh.
            Verdict::Reject(kind) => {
                sink(Located::error(ended(kind), seq.start, seq.have));
                self.seq = None;
                self.start(byte, offset, sink);
            }
            Verdict::Done(cp) if !seq.over => {
                sink(Located {
                    offset: seq.start,
                    length: have,
                    event: Event::CodePoint(cp),
                });
                self.seq = None;
            }
            // A code over the limit (`Ended`: only such a code's digits are not kept).
            Verdict::Done(_) | Verdict::Ended => {
                sink(Located::error(ErrorKind::LimitExceeded, seq.start, have));
                self.seq = None;
            }
            Verdict::Continue => {
                seq.have = have;
                // Once over, a part that begins afresh (the storage after a length)
                // keeps no digits either.
                if seq.over || shortest_completion(&seq.part) > self.limit {
                    seq.over = true;
                    seq.part.skip();
                }
            }
        }
    }

    /// A code begins; once its shortest completion is over the limit, it goes on as one
    /// `limit-exceeded` span, keeping no digits.
    fn begin(&mut self, start: u64, part: Part) {
        let mut seq = Seq {
            start,
            have: 1,
            part,
            over: false,
        };
        if shortest_completion(&seq.part) > self.limit {
            seq.over = true;
            seq.part.skip();
        }
        self.seq = Some(seq);
    }

    fn start(&mut self, byte: u8, offset: u64, sink: Sink<'_>) {
        let fixed_len = match byte {
            0x00..=0x7F => {
                return sink(Located {
                    offset,
                    length: 1,
                    event: Event::CodePoint(BigCodePoint::from(byte as u32)),
                })
            }
            0x80..=0xBF => {
                return sink(Located::error(ErrorKind::UnexpectedContinuation, offset, 1))
            }
            0xFF => return self.begin(offset, Part::AfterFf),
            _ => byte.leading_ones() as u8,
        };
        let bits = (byte & (0x7F >> fixed_len)) as u128;
        match fixed(fixed_len, 1, bits) {
            Verdict::Continue => self.begin(
                offset,
                Part::Fixed {
                    len: fixed_len,
                    value: bits,
                },
            ),
            // `C0`, `C1`: every completion is overlong; the lead alone is the span.
            Verdict::Reject(kind) => sink(Located::error(kind, offset, 1)),
            Verdict::Done(_) | Verdict::Ended => unreachable!("a lead is never a whole code"),
        }
    }

    fn finish(&mut self, sink: Sink<'_>) {
        if let Some(seq) = self.seq.take() {
            let kind = if seq.over {
                ErrorKind::LimitExceeded
            } else {
                ErrorKind::Truncated
            };
            sink(Located::error(kind, seq.start, seq.have));
        }
    }

    /// Bytes of a code in progress whose digits are held; a code over the limit is
    /// skipped, holding none.
    fn pending(&self) -> u64 {
        self.seq.as_ref().filter(|s| !s.over).map_or(0, |s| s.have)
    }
}

/// Iterator over the UTF-∞-8 decoding [`Event`]s of a byte slice.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint, Event};
/// let mut events = utf_inf8::events(b"\xFE\x82\x80\x80\x80\x80\x80\xFF");
/// assert_eq!(events.next(), Some(Event::CodePoint(BigCodePoint::from(0x8000_0000u32))));
/// assert!(events.next().unwrap().error().is_some());
/// assert_eq!(events.next(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Events<'a> {
    bytes: &'a [u8],
    pos: usize,
    machine: Machine,
    ready: VecDeque<Located<BigCodePoint>>,
    finished: bool,
}

impl Events<'_> {
    /// The next event with its byte range.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8;
    /// let mut events = utf_inf8::events(b"\xF4\x90\x80\x80");
    /// let first = events.next_located().unwrap();
    /// assert_eq!((first.offset, first.length), (0, 4)); // U+110000
    /// assert!(events.next_located().is_none());
    /// ```
    pub fn next_located(&mut self) -> Option<Located<BigCodePoint>> {
        while self.ready.is_empty() && !self.finished {
            let ready = &mut self.ready;
            match self.bytes.get(self.pos) {
                Some(&byte) => {
                    self.machine
                        .feed(byte, self.pos as u64, &mut |e| ready.push_back(e));
                    self.pos += 1;
                }
                None => {
                    self.machine.finish(&mut |e| ready.push_back(e));
                    self.finished = true;
                }
            }
        }
        self.ready.pop_front()
    }
}

impl<'a> Events<'a> {
    /// Byte offset of the next event (the input's length once done), as
    /// [`crate::Events::offset`] gives it for the other encodings.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8;
    /// let mut events = utf_inf8::events(b"A\xFE\x82\x80\x80\x80\x80\x80\xFF");
    /// events.next();
    /// assert_eq!(events.offset(), 1);
    /// events.next(); // U+80000000, 7 bytes
    /// assert_eq!(events.offset(), 8);
    /// events.next(); // a truncated `FF`
    /// assert_eq!(events.offset(), 9);
    /// assert_ne!(events.offset(), 8);
    /// ```
    pub fn offset(&self) -> u64 {
        match (self.ready.front(), &self.machine.seq) {
            (Some(next), _) => next.offset,
            (None, Some(seq)) => seq.start,
            (None, None) => self.pos as u64,
        }
    }

    /// This iterator, yielding [`Located`] events.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8;
    /// let spans: Vec<_> = utf_inf8::events(b"\xF4\x90\x80\x80\xFF").located().map(|l| (l.offset, l.length)).collect();
    /// assert_eq!(spans, [(0, 4), (4, 1)]); // U+110000, then a truncated `FF`
    /// ```
    pub fn located(self) -> impl Iterator<Item = Located<BigCodePoint>> + 'a {
        let mut events = self;
        core::iter::from_fn(move || events.next_located())
    }

    /// The validity of the remaining input: valid or invalid (UTF-∞-8 has no reserved
    /// spans).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8, Validity};
    /// assert_eq!(utf_inf8::events(b"\xFE\x82\x80\x80\x80\x80\x80").validity(), Validity::Valid);
    /// assert_eq!(utf_inf8::events(b"\xFE\x82").validity(), Validity::Invalid);
    /// ```
    pub fn validity(self) -> Validity {
        Validity::of(self)
    }

    /// The code points, with one U+FFFD for each error span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8, BigCodePoint};
    /// let lossy: Vec<BigCodePoint> = utf_inf8::events(b"a\xFFb").lossy().collect();
    /// assert_eq!(lossy, [0x61u32, 0xFFFD, 0x62].map(BigCodePoint::from));
    /// assert_ne!(utf_inf8::events(b"\xC0\x80").lossy().count(), 1); // overlong: 2 spans
    /// ```
    pub fn lossy(self) -> impl Iterator<Item = BigCodePoint> + 'a {
        self.map(|e| match e {
            Event::CodePoint(cp) => cp,
            Event::Error(_) | Event::Reserved(_) => BigCodePoint::from(0xFFFDu32),
        })
    }

    /// Every remaining code point, or the first error span.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{utf_inf8, BigCodePoint, ErrorKind};
    /// assert_eq!(utf_inf8::events(b"AB").strict(), Ok(vec![BigCodePoint::from(0x41u32), BigCodePoint::from(0x42u32)]));
    /// assert_eq!(utf_inf8::events(b"A\xED\xA0\x80").strict().unwrap_err().kind, ErrorKind::Surrogate);
    /// ```
    pub fn strict(self) -> Result<Vec<BigCodePoint>, DecodeError> {
        self.map(|e| match e {
            Event::CodePoint(cp) => Ok(cp),
            Event::Error(err) => Err(err),
            // The machine never makes one.
            Event::Reserved(_) => unreachable!("UTF-∞-8 has no reserved spans"),
        })
        .collect()
    }
}

impl Iterator for Events<'_> {
    type Item = Event<BigCodePoint>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_located().map(|l| l.event)
    }

    /// At least one event while anything is left, at most one per byte left (a code in
    /// progress counts as one).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf_inf8;
    /// let mut events = utf_inf8::events(b"a\xE2\x82\xAC");
    /// assert_eq!(events.size_hint(), (1, Some(4)));
    /// events.next();
    /// events.next();
    /// assert_eq!(events.size_hint(), (0, Some(0)));
    /// ```
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.bytes.len() - self.pos;
        let open = usize::from(self.machine.seq.is_some());
        let most = self.ready.len().saturating_add(open).saturating_add(left);
        (most.min(1), Some(most))
    }
}

impl core::iter::FusedIterator for Events<'_> {}

/// The decoding events of `bytes`, with the default code length limit.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint, DecodeError, ErrorKind, Event};
/// let events: Vec<_> = utf_inf8::events(b"\xED\xA0\x80").collect();
/// assert_eq!(events[0], Event::Error(DecodeError { kind: ErrorKind::Surrogate, offset: 0, length: 1 }));
/// assert_eq!(utf_inf8::events(b"A").next(), Some(Event::CodePoint(BigCodePoint::from(0x41u32))));
/// ```
pub fn events(bytes: &[u8]) -> Events<'_> {
    events_with_limit(bytes, DEFAULT_MAX_CODE_LEN)
}

/// The decoding events of `bytes`, with a limit on one code's length in bytes.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, ErrorKind};
/// // A 14-byte code under a 13-byte limit: over the limit once `FF A0` is read, and
/// // one span to the code's declared end.
/// let bytes = b"\xFF\xA0\xA0\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80";
/// let first = utf_inf8::events_with_limit(bytes, 13).next().unwrap();
/// assert_eq!(first.error().map(|e| (e.kind, e.length)), Some((ErrorKind::LimitExceeded, 14)));
/// assert!(utf_inf8::events_with_limit(bytes, 14).next().unwrap().error().is_none());
/// ```
pub fn events_with_limit(bytes: &[u8], max_code_len: u32) -> Events<'_> {
    Events {
        bytes,
        pos: 0,
        machine: Machine::new(max_code_len),
        ready: VecDeque::new(),
        finished: false,
    }
}

/// Strict decode: every code point, or the first error span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint, ErrorKind};
/// assert_eq!(utf_inf8::decode(b"\xFD\xBF\xBF\xBF\xBF\xBF"), Ok(vec![BigCodePoint::from(0x7FFF_FFFFu32)]));
/// assert_eq!(utf_inf8::decode(b"\xC0\xAF").unwrap_err().kind, ErrorKind::Overlong);
/// ```
pub fn decode(bytes: &[u8]) -> Result<Vec<BigCodePoint>, DecodeError> {
    events(bytes).strict()
}

/// Lossy decode: every code point, with one U+FFFD in place of each error span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint};
/// let fffd = BigCodePoint::from(0xFFFDu32);
/// assert_eq!(utf_inf8::decode_lossy(b"\xFF\xB0A"), vec![fffd.clone(), fffd, BigCodePoint::from(0x41u32)]);
/// assert_eq!(utf_inf8::decode_lossy(b"A"), vec![BigCodePoint::from(0x41u32)]);
/// ```
pub fn decode_lossy(bytes: &[u8]) -> Vec<BigCodePoint> {
    events(bytes).lossy().collect()
}

/// Validates `bytes`: `Ok` or the first error span.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, ErrorKind};
/// assert!(utf_inf8::validate(b"\xF7\xBF\xBF\xBF").is_ok());
/// assert_eq!(utf_inf8::validate(b"\xFF\xB4\xA0").unwrap_err().kind, ErrorKind::Overlong);
/// ```
pub fn validate(bytes: &[u8]) -> Result<(), DecodeError> {
    events(bytes)
        .find_map(|e| e.error().copied())
        .map_or(Ok(()), Err)
}

/// Whether `bytes` are valid (code points only) or invalid (at least one error span);
/// UTF-∞-8 has no reserved spans.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, Validity};
/// assert_eq!(utf_inf8::validity(b"\xF7\xBF\xBF\xBF"), Validity::Valid);
/// assert_eq!(utf_inf8::validity(b"\xFF\xB4\xA0"), Validity::Invalid);
/// ```
pub fn validity(bytes: &[u8]) -> Validity {
    events(bytes).validity()
}
