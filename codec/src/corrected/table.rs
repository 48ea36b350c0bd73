//! Corrected UTF-8's spec table and byte classes: a leaf module, so that the stream
//! decoder can use them without depending on the rest of `corrected`.

/// The longest sequence, in bytes.
pub const MAX_LEN: usize = 6;

/// The last encodable code point.
pub const MAX_CODEPOINT: u32 = 0x8421_109F;

/// One row of the "Putting it all together" table: sequences of `len` bytes whose raw
/// value lies in `raw_first..=raw_last` encode `raw + offset`.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::TABLE;
/// let two = &TABLE[1];
/// assert_eq!((two.len, two.offset), (2, 160));
/// assert_eq!((two.first_codepoint(), two.last_codepoint()), (0xA0, 0x89F));
/// assert_ne!(TABLE[2].offset, TABLE[3].offset); // the 3-byte class is split
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Sequence length in bytes.
    pub len: u8,
    /// The smallest raw value of the row.
    pub raw_first: u32,
    /// The largest raw value of the row.
    pub raw_last: u32,
    /// Added to the raw value to give the code point.
    pub offset: u32,
}

impl Row {
    /// The first code point the row encodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::TABLE;
    /// assert_eq!(TABLE[3].first_codepoint(), 0xE000);
    /// assert_ne!(TABLE[3].first_codepoint(), 0xD800);
    /// ```
    pub const fn first_codepoint(&self) -> u32 {
        self.raw_first + self.offset
    }

    /// The last code point the row encodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::corrected::TABLE;
    /// assert_eq!(TABLE[6].last_codepoint(), 0x8421_109F);
    /// assert_ne!(TABLE[2].last_codepoint(), 0xFFFF);
    /// ```
    pub const fn last_codepoint(&self) -> u32 {
        self.raw_last + self.offset
    }
}

/// The "Putting it all together" table of *Corrected UTF-8* (2022): the sequence
/// classes, their offsets and, through `raw + offset`, the code point ranges. The 3-byte
/// class is split at raw `CF60`, where the surrogates are skipped.
#[rustfmt::skip]
pub const TABLE: [Row; 7] = [
    Row { len: 1, raw_first: 0x00,      raw_last: 0x7F,        offset: 0 },
    Row { len: 2, raw_first: 0x00,      raw_last: 0x7FF,       offset: 160 },
    Row { len: 3, raw_first: 0x0000,    raw_last: 0xCF5F,      offset: 2_208 },
    Row { len: 3, raw_first: 0xCF60,    raw_last: 0xFFFF,      offset: 4_256 },
    Row { len: 4, raw_first: 0x00,      raw_last: 0x1F_FFFF,   offset: 69_792 },
    Row { len: 5, raw_first: 0x00,      raw_last: 0x3FF_FFFF,  offset: 2_166_944 },
    Row { len: 6, raw_first: 0x00,      raw_last: 0x7FFF_FFFF, offset: 69_275_808 },
];

/// The row of a complete sequence of `len` bytes (1 to 6) with raw value `raw`, or
/// `None` when no row has that length and raw value.
///
/// # Examples
///
/// ```
/// use corrected_utf8::corrected::{row_of_sequence, TABLE};
/// assert_eq!(row_of_sequence(3, 0xCF60), Some(&TABLE[3]));
/// assert_eq!(row_of_sequence(2, 0x800), None); // 11 bits hold at most 7FF
/// ```
pub fn row_of_sequence(len: u8, raw: u32) -> Option<&'static Row> {
    TABLE
        .iter()
        .find(|r| r.len == len && (r.raw_first..=r.raw_last).contains(&raw))
}

/// The role of a byte at the start of a sequence.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lead {
    /// A lead of a sequence of this many bytes (1 for ASCII).
    Len(u8),
    /// `80–BF`.
    Continuation,
    /// `FE`, `FF`.
    Reserved,
}

/// Classifies a byte as a sequence start (`docs/semantics.md` §2.1).
#[inline]
pub(crate) const fn lead(byte: u8) -> Lead {
    match byte {
        0x00..=0x7F => Lead::Len(1),
        0x80..=0xBF => Lead::Continuation,
        0xC0..=0xDF => Lead::Len(2),
        0xE0..=0xEF => Lead::Len(3),
        0xF0..=0xF7 => Lead::Len(4),
        0xF8..=0xFB => Lead::Len(5),
        0xFC..=0xFD => Lead::Len(6),
        0xFE..=0xFF => Lead::Reserved,
    }
}

/// `00–7F` or `C0–FD`: a byte where a reserved span ends.
#[inline]
pub(crate) const fn is_recognized_lead(byte: u8) -> bool {
    matches!(lead(byte), Lead::Len(_))
}

/// The value bits of an n-byte lead (n ≥ 2): `110xxxxx` keeps 5 bits, `1111110x` keeps 1.
#[inline]
pub(crate) const fn lead_bits(byte: u8, len: u8) -> u32 {
    (byte & (0x7F >> len)) as u32
}

/// The code point of a complete sequence of `len` bytes with raw value `raw`.
#[inline]
pub(crate) const fn codepoint_of(len: u8, raw: u32) -> u32 {
    let offset = match len {
        1 => 0,
        2 => TABLE[1].offset,
        3 if raw < TABLE[3].raw_first => TABLE[2].offset,
        3 => TABLE[3].offset,
        4 => TABLE[4].offset,
        5 => TABLE[5].offset,
        _ => TABLE[6].offset,
    };
    raw + offset
}
