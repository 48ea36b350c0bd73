//! UTF-∞-8, literally from Bishop & Cook's draft (UTF-∞-8 draft §3.2–3.5; see
//! docs/sources.md) and `docs/semantics.md` §4.
//!
//! Code points are unbounded, so a [`CodePoint`] is its hex digits. The fixed-length forms
//! are [`FORMS`], §4.1's table row by row with each byte position's range and payload
//! bits; the long form (NUD ≥ 18, draft §3.5) is written out in [`judge_long`] from the
//! draft's paragraphs 3.5.1–3.5.7. The constants together are [`Tables`]: [`SPEC`], or
//! a copy with a planted change (a mutant table, `conformance/literal/tests/boundaries`).
//!
//! Decoding follows §4.2 word for word: for each growing prefix of a code, every form is
//! asked whether some well-formed code (shortest form, not a surrogate) starts with those
//! bytes ([`judge`]); the first byte for which none says yes ends the code, and the form
//! that said no says why. A form over a fixed number of payload bits answers by interval
//! arithmetic: the prefix's bits fix the value to `[bits then zeros, bits then ones]`,
//! which must meet `[first, last]` of the row outside the surrogates. The limit of §4.3 is
//! the length of the shortest well-formed completion. It is slow and allocates freely;
//! it shares no code with the reference codec. Decoding is [`decode`] (`decode.rs`),
//! encoding [`encode`] (`encode.rs`).

mod decode;
mod encode;
mod examples;
#[cfg(test)]
mod tests;

pub use encode::{encode_in_form, usv_storage};
pub use examples::DRAFT_EXAMPLES;

use super::Kind;
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// The code length limit the vectors use (`docs/semantics.md` §4.3).
pub const DEFAULT_LIMIT: usize = 65_536;

/// An unbounded code point: uppercase hex digits without leading zeros (`"0"` for zero).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodePoint {
    hex: String,
}

impl CodePoint {
    /// The code point with these hex digits (either case; leading zeros allowed), or
    /// `None` for an empty string or a non-hex character.
    pub fn from_hex(digits: &str) -> Option<CodePoint> {
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let trimmed = digits.trim_start_matches('0');
        let hex = if trimmed.is_empty() { "0" } else { trimmed };
        Some(CodePoint {
            hex: hex.to_ascii_uppercase(),
        })
    }

    /// The code point `v`.
    pub fn from_u128(v: u128) -> CodePoint {
        CodePoint {
            hex: format!("{v:X}"),
        }
    }

    /// The hex digits: uppercase, no leading zeros, `"0"` for zero.
    pub fn hex(&self) -> &str {
        &self.hex
    }

    /// NUD, the number of hex digits without leading zeros (0 for zero).
    pub fn nud(&self) -> usize {
        if self.hex == "0" {
            0
        } else {
            self.hex.len()
        }
    }

    /// The value, when it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        u128::from_str_radix(&self.hex, 16).ok()
    }
}

impl Ord for CodePoint {
    /// Numeric order: more digits is larger; equal lengths compare digit by digit.
    fn cmp(&self, other: &Self) -> Ordering {
        (self.hex.len(), &self.hex).cmp(&(other.hex.len(), &other.hex))
    }
}

impl PartialOrd for CodePoint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for CodePoint {
    /// `U+` and at least 4 digits, as in the vectors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U+{:0>4}", self.hex)
    }
}

impl FromStr for CodePoint {
    type Err = String;

    /// Reads `U+` and hex digits.
    fn from_str(s: &str) -> Result<CodePoint, String> {
        s.strip_prefix("U+")
            .and_then(CodePoint::from_hex)
            .ok_or_else(|| format!("not a code point: {s:?}"))
    }
}

/// One decoding event of UTF-∞-8: a code point or an error span (`docs/semantics.md` §1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A decoded code point.
    CodePoint(CodePoint),
    /// An error span: `length` bytes from byte `offset` of the input.
    Error {
        /// What is wrong.
        kind: Kind,
        /// Byte offset of the span's first byte in the input.
        offset: usize,
        /// Number of bytes in the span (at least 1).
        length: usize,
    },
}

impl Event {
    /// Whether this is an error span.
    pub fn is_error(&self) -> bool {
        matches!(self, Event::Error { .. })
    }
}

// ---------------------------------------------------------------------------------
// The forms.

/// One byte position of a form: the bytes allowed there, and how many low bits of the
/// byte carry the code point ("payload bits").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Inclusive range of the byte.
    pub range: (u8, u8),
    /// Low bits of the byte that hold code point bits, most significant first.
    pub bits: u32,
}

/// A continuation byte: `10xxxxxx`, 6 bits.
const CONT: Slot = Slot {
    range: (0x80, 0xBF),
    bits: 6,
};

/// A fixed-length form: one row of `docs/semantics.md` §4.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// The row's first code point, hex.
    pub first: &'static str,
    /// The row's last code point, hex.
    pub last: &'static str,
    /// The bytes, position by position.
    pub slots: &'static [Slot],
}

impl Form {
    /// The number of bytes of a code in this form.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a form has at least its lead byte (for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The number of payload bits (7, 11, 16, 21, 26, 31, 36, 71).
    pub fn payload_bits(&self) -> u32 {
        self.slots.iter().map(|s| s.bits).sum()
    }
}

const fn lead(lo: u8, hi: u8, bits: u32) -> Slot {
    Slot {
        range: (lo, hi),
        bits,
    }
}

/// `docs/semantics.md` §4.1, the rows with a fixed length: the original 1–6 byte UTF-8
/// (draft §3.2; an n-byte lead keeps its low 7 − n bits), `FE` + 6 (§3.3) and `FF`,
/// `80–9F` + 11 (§3.4).
#[rustfmt::skip]
pub const FORMS: [Form; 8] = [
    Form { first: "0",          last: "7F",                 slots: &[lead(0x00, 0x7F, 7)] },
    Form { first: "80",         last: "7FF",                slots: &[lead(0xC0, 0xDF, 5), CONT] },
    Form { first: "800",        last: "FFFF",               slots: &[lead(0xE0, 0xEF, 4), CONT, CONT] },
    Form { first: "10000",      last: "1FFFFF",             slots: &[lead(0xF0, 0xF7, 3), CONT, CONT, CONT] },
    Form { first: "200000",     last: "3FFFFFF",            slots: &[lead(0xF8, 0xFB, 2), CONT, CONT, CONT, CONT] },
    Form { first: "4000000",    last: "7FFFFFFF",           slots: &[lead(0xFC, 0xFD, 1), CONT, CONT, CONT, CONT, CONT] },
    Form { first: "80000000",   last: "FFFFFFFFF",          slots: &[lead(0xFE, 0xFE, 0), CONT, CONT, CONT, CONT, CONT, CONT] },
    Form { first: "1000000000", last: "7FFFFFFFFFFFFFFFFF", slots: &[lead(0xFF, 0xFF, 0), lead(0x80, 0x9F, 5), CONT, CONT, CONT, CONT, CONT, CONT, CONT, CONT, CONT, CONT, CONT] },
];

/// The surrogates, which no form may encode (`docs/semantics.md` §4.4).
pub const SURROGATES: (&str, &str) = ("D800", "DFFF");

/// Draft §3.5.1: the lead of the long form.
pub const LONG_LEAD: u8 = 0xFF;
/// Draft §3.5.2: "B4" ("before"), one fewer than the length digits.
pub const B4: u8 = 0xB4;
/// Draft §3.5.2: "Ax", one hex digit of NME each.
pub const LENGTH_DIGIT: (u8, u8) = (0xA0, 0xAF);
/// Draft §3.5.3: NME = NUD − 18.
pub const NUD_MIN: u128 = 18;

/// The constants the functions of this module walk: [`SPEC`], the draft's and
/// `docs/semantics.md` §4's, or a copy with a planted change (a *mutant table*: a test
/// moves one split by one and checks that the vectors see it). Every function of this
/// module but the byte builders [`encode_in_form`] and [`usv_storage`] is [`SPEC`]'s
/// method of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The fixed-length forms, [`FORMS`].
    pub forms: [Form; 8],
    /// The continuation bytes, `80–BF`: a code goes on only with one of these.
    pub continuation: (u8, u8),
    /// The surrogates, [`SURROGATES`].
    pub surrogates: (&'static str, &'static str),
    /// The long form's lead, [`LONG_LEAD`].
    pub long_lead: u8,
    /// [`B4`].
    pub b4: u8,
    /// The length digits, [`LENGTH_DIGIT`].
    pub length_digit: (u8, u8),
    /// [`NUD_MIN`].
    pub nud_min: u128,
}

/// The constants as the draft and `docs/semantics.md` §4 give them.
pub const SPEC: Tables = Tables {
    forms: FORMS,
    continuation: CONT.range,
    surrogates: SURROGATES,
    long_lead: LONG_LEAD,
    b4: B4,
    length_digit: LENGTH_DIGIT,
    nud_min: NUD_MIN,
};

/// A hex string of the tables as a number.
fn hex_value(hex: &str) -> u128 {
    u128::from_str_radix(hex, 16).expect("table values fit in u128")
}

/// The answer of one form, or of all of them, about a prefix of a code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Some well-formed code starts with these bytes; the shortest is this many bytes
    /// (saturating: `u128::MAX` stands for "more than can be counted").
    Open {
        /// Length in bytes of the shortest well-formed completion.
        shortest: u128,
    },
    /// These bytes are a whole well-formed code.
    Complete(CodePoint),
    /// No well-formed code starts with these bytes, for this reason.
    Closed(Kind),
    /// The form does not describe these bytes at all (a byte outside its position's
    /// range): another form must answer.
    NotThisForm,
}

/// What a fixed-length form says about `prefix` (its lead byte first; every later byte
/// a continuation byte): [`Tables::judge_fixed`] of [`SPEC`].
pub fn judge_fixed(form: &Form, prefix: &[u8]) -> Judgement {
    SPEC.judge_fixed(form, prefix)
}

/// What the long form (NUD ≥ 18, draft §3.5) says about `prefix`:
/// [`Tables::judge_long`] of [`SPEC`].
pub fn judge_long(prefix: &[u8]) -> Judgement {
    SPEC.judge_long(prefix)
}

/// What all forms together say about `prefix` (§4.2): [`Tables::judge`] of [`SPEC`].
pub fn judge(prefix: &[u8]) -> Judgement {
    SPEC.judge(prefix)
}

/// Decodes `input` into `(offset, length, event)` triples, with a limit of `limit` bytes
/// on one code (`docs/semantics.md` §4.2, §4.3).
pub fn decode_located(input: &[u8], limit: usize) -> Vec<(usize, usize, Event)> {
    SPEC.decode_located(input, limit)
}

/// Decodes `input` into events with a limit of `limit` bytes on one code.
pub fn decode(input: &[u8], limit: usize) -> Vec<Event> {
    SPEC.decode(input, limit)
}

/// Draft §3.5.4–3.5.5: the length-storage bytes for `nme`: one `Ax` if NME < 16, else
/// its k hex digits as `Ax` after k − 1 `B4`.
pub fn length_storage(nme: u128) -> Vec<u8> {
    SPEC.length_storage(nme)
}

/// A long-form code (draft §3.5) for the hex `digits` exactly as given (at least 18; a
/// leading zero digit makes it overlong): `FF`, the length storage of
/// NME = `digits.len()` − 18, the USV-storage bytes.
pub fn long_form_bytes(digits: &[u8]) -> Vec<u8> {
    SPEC.long_form_bytes(digits)
}

/// Encodes one code point (`docs/semantics.md` §4.1); only surrogates fail.
pub fn encode(cp: &CodePoint) -> Result<Vec<u8>, Kind> {
    SPEC.encode(cp)
}

/// Encodes a string of code points (`docs/semantics.md` §1, "Encoding a string"): their
/// encodings one after the other, or the index of the first that has none and why.
pub fn encode_string(cps: &[CodePoint]) -> Result<Vec<u8>, (usize, Kind)> {
    SPEC.encode_string(cps)
}
