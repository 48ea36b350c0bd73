//! Standard UTF-8's spec table and byte classes: a leaf module, so that the stream
//! decoder can use them without depending on the rest of `utf8`.

use crate::error::ErrorKind;

/// The longest sequence, in bytes.
pub const MAX_LEN: usize = 4;

/// One row of [`TABLE`]: the code points `first..=last`, and for each byte of their
/// encoding the range it lies in.
///
/// # Examples
///
/// ```
/// use corrected_utf8::utf8::TABLE;
/// let row = &TABLE[2]; // U+0800..U+0FFF
/// assert_eq!((row.first, row.last, row.len()), (0x800, 0xFFF, 3));
/// assert_eq!(row.bytes[1], (0xA0, 0xBF)); // E0 80 is overlong
/// assert!(TABLE.iter().all(|r| r.last <= 0x10_FFFF));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row's first code point.
    pub first: u32,
    /// The row's last code point.
    pub last: u32,
    /// The inclusive range of each byte of the sequence, first byte first.
    pub bytes: &'static [(u8, u8)],
}

impl Row {
    /// The sequence length in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8::TABLE;
    /// assert_eq!(TABLE[0].len(), 1);
    /// assert_ne!(TABLE[8].len(), 3);
    /// ```
    #[allow(clippy::len_without_is_empty)] // a row is never empty
    pub const fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The row that holds `codepoint`, or `None` for a surrogate or a value above
    /// U+10FFFF.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::utf8::{Row, TABLE};
    /// assert_eq!(Row::of(0xE000), Some(&TABLE[5]));
    /// assert_eq!(Row::of(0xD800), None);
    /// ```
    pub fn of(codepoint: u32) -> Option<&'static Row> {
        TABLE
            .iter()
            .find(|r| (r.first..=r.last).contains(&codepoint))
    }
}

/// The Unicode Standard, Table 3-7 "Well-Formed UTF-8 Byte Sequences" (Section 3.9,
/// Unicode Encoding Forms): every well-formed sequence, by code point range, with the
/// range of each byte.
#[rustfmt::skip]
pub const TABLE: [Row; 9] = [
    Row { first: 0x0000,    last: 0x007F,    bytes: &[(0x00, 0x7F)] },
    Row { first: 0x0080,    last: 0x07FF,    bytes: &[(0xC2, 0xDF), (0x80, 0xBF)] },
    Row { first: 0x0800,    last: 0x0FFF,    bytes: &[(0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x1000,    last: 0xCFFF,    bytes: &[(0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0xD000,    last: 0xD7FF,    bytes: &[(0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF)] },
    Row { first: 0xE000,    last: 0xFFFF,    bytes: &[(0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x1_0000,  last: 0x3_FFFF,  bytes: &[(0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x4_0000,  last: 0xF_FFFF,  bytes: &[(0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first: 0x10_0000, last: 0x10_FFFF, bytes: &[(0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)] },
];

/// What a byte at the start of a sequence begins.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// A sequence of `len` bytes whose second byte must lie in `lo..=hi`; `narrow` is the
    /// kind when a continuation byte outside that range follows (`E0`, `ED`, `F0`, `F4`).
    Seq {
        len: u8,
        lo: u8,
        hi: u8,
        narrow: ErrorKind,
    },
    /// A byte that starts no well-formed sequence: a span of its own.
    Never(ErrorKind),
}

const fn seq(len: u8, lo: u8, hi: u8, narrow: ErrorKind) -> Lead {
    Lead::Seq {
        len,
        lo,
        hi,
        narrow,
    }
}

/// Unicode Table 3-7, "Well-Formed UTF-8 Byte Sequences", by first byte: the sequence
/// length and the range of the second byte. The kinds of the bytes that begin nothing
/// are `docs/semantics.md` §3's.
#[rustfmt::skip]
pub(crate) const fn lead(byte: u8) -> Lead {
    use ErrorKind::*;
    match byte {
        0x00..=0x7F => seq(1, 0, 0, Truncated),
        0x80..=0xBF => Lead::Never(UnexpectedContinuation),
        0xC0..=0xC1 => Lead::Never(Overlong),
        0xC2..=0xDF => seq(2, 0x80, 0xBF, Truncated),
        0xE0        => seq(3, 0xA0, 0xBF, Overlong),
        0xE1..=0xEC => seq(3, 0x80, 0xBF, Truncated),
        0xED        => seq(3, 0x80, 0x9F, Surrogate),
        0xEE..=0xEF => seq(3, 0x80, 0xBF, Truncated),
        0xF0        => seq(4, 0x90, 0xBF, Overlong),
        0xF1..=0xF3 => seq(4, 0x80, 0xBF, Truncated),
        0xF4        => seq(4, 0x80, 0x8F, OutOfRange),
        0xF5..=0xFD => Lead::Never(OutOfRange),
        0xFE..=0xFF => Lead::Never(InvalidByte),
    }
}

#[inline]
pub(crate) const fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}
