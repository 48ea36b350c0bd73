//! UTF-∞-8, literally from Bishop & Cook's draft (UTF-∞-8 draft §3.2–3.5; see
//! docs/sources.md) and `docs/semantics.md` §4.
//!
//! Code points are unbounded, so a [`CodePoint`] is its hex digits. The fixed-length forms
//! are [`FORMS`], §4.1's table row by row with each byte position's range and payload
//! bits; the long form (NUD ≥ 18, draft §3.5) is written out in [`judge_long`] from the
//! draft's paragraphs 3.5.1–3.5.7.
//!
//! Decoding follows §4.2 word for word: for each growing prefix of a code, every form is
//! asked whether some well-formed code (shortest form, not a surrogate) starts with those
//! bytes ([`judge`]); the first byte for which none says yes ends the code, and the form
//! that said no says why. A form over a fixed number of payload bits answers by interval
//! arithmetic: the prefix's bits fix the value to `[bits then zeros, bits then ones]`,
//! which must meet `[first, last]` of the row outside the surrogates. The limit of §4.3 is
//! the length of the shortest well-formed completion. It is slow and allocates freely;
//! it shares no code with the reference codec.

use super::{in_range, Kind};
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
/// a continuation byte).
pub fn judge_fixed(form: &Form, prefix: &[u8]) -> Judgement {
    if prefix.len() > form.len() || prefix.is_empty() {
        return Judgement::NotThisForm;
    }
    if !form
        .slots
        .iter()
        .zip(prefix)
        .all(|(s, &b)| in_range(b, s.range))
    {
        return Judgement::NotThisForm;
    }
    // The bits the prefix fixes, then the interval of values its completions can take.
    let mut known: u128 = 0;
    let mut known_bits = 0;
    for (s, &b) in form.slots.iter().zip(prefix) {
        known = (known << s.bits) | (u128::from(b) & ((1u128 << s.bits) - 1));
        known_bits += s.bits;
    }
    let unknown = form.payload_bits() - known_bits;
    let min = known << unknown;
    let max = min | ((1u128 << unknown) - 1);
    let (first, last) = (hex_value(form.first), hex_value(form.last));
    let (lo, hi) = (min.max(first), max.min(last));
    if lo > hi {
        // Every row's `last` is all ones of its payload bits, so only `max < first` can
        // happen: every completion fits a shorter form.
        return Judgement::Closed(Kind::Overlong);
    }
    let (s_lo, s_hi) = (hex_value(SURROGATES.0), hex_value(SURROGATES.1));
    if s_lo <= lo && hi <= s_hi {
        return Judgement::Closed(Kind::Surrogate);
    }
    if prefix.len() == form.len() {
        Judgement::Complete(CodePoint::from_u128(min))
    } else {
        Judgement::Open {
            shortest: form.len() as u128,
        }
    }
}

/// NME from its hex digits (saturating).
fn nme_value(digits: &[u8]) -> u128 {
    digits.iter().fold(0u128, |v, &d| {
        v.checked_mul(16)
            .and_then(|v| v.checked_add(u128::from(d)))
            .unwrap_or(u128::MAX)
    })
}

/// Length in bytes of a long-form code whose NME is `nme`, stored in `length_bytes`
/// length-storage bytes (saturating).
fn long_code_len(nme: u128, length_bytes: usize) -> u128 {
    let nud = nme.saturating_add(NUD_MIN);
    // Draft §3.5.7: ((NUD + 2) / 3) * 2 USV-storage bytes.
    let storage = (nud.saturating_add(2) / 3).saturating_mul(2);
    storage.saturating_add(1 + length_bytes as u128)
}

/// The first code point of the long form with `nud` digits: "NUD ≥ 18 and above the
/// previous row" (§4.1) — `8000…` for NUD 18 (the 13-byte form holds up to `7FFF…`),
/// else `1000…`. Only its first digit matters: the rest are zeros.
fn long_first_digit(nud: u128) -> u8 {
    let last13 = FORMS[7].last;
    if nud == last13.len() as u128 {
        u8::from_str_radix(&last13[..1], 16).unwrap_or(0) + 1
    } else {
        1
    }
}

/// What the long form (NUD ≥ 18, draft §3.5) says about `prefix`.
pub fn judge_long(prefix: &[u8]) -> Judgement {
    let Some((&lead, rest)) = prefix.split_first() else {
        return Judgement::NotThisForm;
    };
    if lead != LONG_LEAD {
        return Judgement::NotThisForm;
    }
    // §3.5.2: zero or more B4, then one or more Ax.
    let b4s = rest.iter().take_while(|&&b| b == B4).count();
    let after = &rest[b4s..];
    let Some(&first_digit) = after.first() else {
        // NME has at least b4s + 1 digits, the first nonzero: at least 16^b4s.
        let nme = if b4s == 0 {
            0
        } else {
            16u128.checked_pow(b4s as u32).unwrap_or(u128::MAX)
        };
        return Judgement::Open {
            shortest: long_code_len(nme, 2 * b4s + 1),
        };
    };
    if b4s == 0 && in_range(first_digit, FORMS[7].slots[1].range) {
        // FF 80–9F is the 13-byte form's.
        return Judgement::NotThisForm;
    }
    if !in_range(first_digit, LENGTH_DIGIT) {
        // After FF a byte other than 80–AF or B4; after B4s one other than B4 or Ax.
        return Judgement::Closed(Kind::InvalidLength);
    }
    if b4s > 0 && first_digit == LENGTH_DIGIT.0 {
        // §3.5.4/3.5.5: as many Ax as necessary, so no leading zero digit (this is
        // also what a B4 more than needed looks like).
        return Judgement::Closed(Kind::Overlong);
    }
    // §3.5.5: "The number of B4 bytes is one less than the number of Ax bytes."
    let want = b4s + 1;
    let mut digits = Vec::new();
    for &b in after.iter().take(want) {
        if !in_range(b, LENGTH_DIGIT) {
            return Judgement::Closed(Kind::InvalidLength);
        }
        digits.push(b - LENGTH_DIGIT.0);
    }
    let length_bytes = b4s + want;
    if digits.len() < want {
        // The smallest NME with these leading digits: the rest zero.
        let mut least = digits.clone();
        least.resize(want, 0);
        return Judgement::Open {
            shortest: long_code_len(nme_value(&least), length_bytes),
        };
    }
    let nme = nme_value(&digits);
    let total = long_code_len(nme, length_bytes);
    let nud = nme.saturating_add(NUD_MIN);
    if total == u128::MAX || nud == u128::MAX {
        return Judgement::Open { shortest: total };
    }
    // §3.5.6–3.5.7: the NUD digits padded on the left with zeros to a multiple of 3; 3
    // digits per 2 storage bytes of 6 bits each.
    let storage = &after[want..];
    let pad = ((3 - nud % 3) % 3) as usize;
    let bit = |k: usize| -> Option<u8> {
        let b = storage.get(k / 6)?;
        Some((b >> (5 - k % 6)) & 1)
    };
    // Padding digits: their known bits must be zero (the digits must fit the length).
    for k in 0..4 * pad {
        if bit(k) == Some(1) {
            return Judgement::Closed(Kind::InvalidLength);
        }
    }
    // First significant digit: even with its unknown bits set it must reach the form's
    // first code point's first digit (else the value fits a shorter code).
    let best = (0..4).fold(0u8, |d, j| (d << 1) | bit(4 * pad + j).unwrap_or(1));
    if best < long_first_digit(nud) {
        return Judgement::Closed(Kind::Overlong);
    }
    let storage_len = total - 1 - length_bytes as u128;
    if (storage.len() as u128) < storage_len {
        return Judgement::Open { shortest: total };
    }
    let digits: String = (0..storage.len() * 6 / 4)
        .skip(pad)
        .map(|i| {
            let d = (0..4).fold(0u32, |d, j| {
                (d << 1) | u32::from(bit(4 * i + j).unwrap_or(0))
            });
            char::from_digit(d, 16).unwrap_or('0')
        })
        .collect();
    match CodePoint::from_hex(&digits) {
        Some(cp) => Judgement::Complete(cp),
        None => Judgement::Closed(Kind::InvalidLength),
    }
}

/// What all forms together say about `prefix` (§4.2): complete or still open if any form
/// says so; else the reason of the form that describes these bytes; a lead byte no form
/// has is a continuation byte where a code must start.
pub fn judge(prefix: &[u8]) -> Judgement {
    let answers: Vec<Judgement> = FORMS
        .iter()
        .map(|f| judge_fixed(f, prefix))
        .chain([judge_long(prefix)])
        .collect();
    if let Some(done) = answers.iter().find(|a| matches!(a, Judgement::Complete(_))) {
        return done.clone();
    }
    let shortest = answers
        .iter()
        .filter_map(|a| match a {
            Judgement::Open { shortest } => Some(*shortest),
            _ => None,
        })
        .min();
    if let Some(shortest) = shortest {
        return Judgement::Open { shortest };
    }
    answers
        .into_iter()
        .find(|a| matches!(a, Judgement::Closed(_)))
        .unwrap_or(Judgement::Closed(Kind::UnexpectedContinuation))
}

fn is_continuation(b: u8) -> bool {
    in_range(b, CONT.range)
}

/// Decodes `input` into `(offset, length, event)` triples, with a limit of `limit` bytes
/// on one code (`docs/semantics.md` §4.2, §4.3).
pub fn decode_located(input: &[u8], limit: usize) -> Vec<(usize, usize, Event)> {
    let mut events = Vec::new();
    let error = |kind, offset, length| {
        (
            offset,
            length,
            Event::Error {
                kind,
                offset,
                length,
            },
        )
    };
    let over = |n: u128| n > limit as u128;
    let mut start = 0;
    while start < input.len() {
        let mut end = start; // the byte being judged
        let next = loop {
            let prefix = &input[start..=end];
            let len = prefix.len();
            match judge(prefix) {
                // The span is the bytes before the failing byte, at least the lead.
                Judgement::Closed(kind) => break error(kind, start, (len - 1).max(1)),
                Judgement::Complete(_) if over(len as u128) => {
                    break error(Kind::LimitExceeded, start, len)
                }
                Judgement::Complete(cp) => break (start, len, Event::CodePoint(cp)),
                Judgement::Open { shortest } if over(shortest) => {
                    break error(Kind::LimitExceeded, start, limit_span(&input[start..], len))
                }
                Judgement::Open { .. } | Judgement::NotThisForm => {}
            }
            end += 1;
            if !input.get(end).copied().is_some_and(is_continuation) {
                break error(Kind::Truncated, start, len);
            }
        };
        start += next.1;
        events.push(next);
    }
    events
}

/// The length of the one `limit-exceeded` span of the code at the start of `code`, whose
/// first `len` bytes went over the limit (`docs/semantics.md` §4.3): it takes every
/// following byte that still continues a well-formed code, ignoring the limit, up to the
/// code's declared end (inclusive); it stops before the first byte that cannot continue
/// it, or at the end of the input.
fn limit_span(code: &[u8], mut len: usize) -> usize {
    // `FF B4 … B4` continues with another B4 however many there are: no need to judge
    // (which would cost the run's length each time).
    let mut b4_run = code.first() == Some(&LONG_LEAD) && code[1..len].iter().all(|&b| b == B4);
    while let Some(&b) = code.get(len).filter(|&&b| is_continuation(b)) {
        if b4_run && b == B4 {
            len += 1;
            continue;
        }
        b4_run = false;
        match judge(&code[..=len]) {
            Judgement::Complete(_) => return len + 1,
            Judgement::Open { shortest } if long_header_judged(&code[..=len]) => {
                // The length and the first storage pair are judged: every continuation
                // byte continues the code now, so count up to its declared end.
                let declared = usize::try_from(shortest).unwrap_or(usize::MAX);
                let rest = code[len + 1..]
                    .iter()
                    .take(declared - (len + 1))
                    .take_while(|&&c| is_continuation(c))
                    .count();
                return len + 1 + rest;
            }
            Judgement::Open { .. } => len += 1,
            Judgement::Closed(_) | Judgement::NotThisForm => return len,
        }
    }
    len
}

/// Whether `prefix` is a long-form code whose length storage is complete and which has
/// at least 2 USV-storage bytes: the padding digits and the first significant digit lie
/// in those 2 bytes (draft §3.5.6–3.5.7), so [`judge_long`] judges nothing after them
/// but the code's length.
fn long_header_judged(prefix: &[u8]) -> bool {
    let Some((&LONG_LEAD, rest)) = prefix.split_first() else {
        return false;
    };
    let b4s = rest.iter().take_while(|&&b| b == B4).count();
    let digits = rest[b4s..]
        .iter()
        .take_while(|&&b| in_range(b, LENGTH_DIGIT))
        .count();
    // The length storage is b4s B4 and b4s + 1 digits (a storage byte may be A0–AF too).
    digits > b4s && rest.len() >= 2 * b4s + 1 + 2
}

/// Decodes `input` into events with a limit of `limit` bytes on one code.
pub fn decode(input: &[u8], limit: usize) -> Vec<Event> {
    decode_located(input, limit)
        .into_iter()
        .map(|(_, _, e)| e)
        .collect()
}

/// The hex digits of `v` (at least one).
fn hex_digits(v: u128) -> Vec<u8> {
    format!("{v:X}")
        .chars()
        .map(|c| c.to_digit(16).unwrap_or(0) as u8)
        .collect()
}

/// The bytes of `value` in a fixed-length `form`, whether or not it is that value's
/// shortest form (the vectors build overlong codes with it): the payload bits, most
/// significant first, each slot taking the next `bits` of them.
pub fn encode_in_form(form: &Form, value: u128) -> Vec<u8> {
    let mut left = form.payload_bits();
    form.slots
        .iter()
        .map(|s| {
            left -= s.bits;
            s.range.0 | ((value >> left) & ((1u128 << s.bits) - 1)) as u8
        })
        .collect()
}

/// Draft §3.5.4–3.5.5: the length-storage bytes for `nme`: one `Ax` if NME < 16, else
/// its k hex digits as `Ax` after k − 1 `B4`.
pub fn length_storage(nme: u128) -> Vec<u8> {
    let digits = hex_digits(nme);
    let mut bytes = vec![B4; digits.len() - 1];
    bytes.extend(digits.iter().map(|d| LENGTH_DIGIT.0 + d));
    bytes
}

/// Draft §3.5.6–3.5.7: the USV-storage bytes for the hex `digits` (values 0–15, as
/// given, leading zeros kept): padded on the left with zero digits to a multiple of 3,
/// then each `d0 d1 d2` as `80 | d0<<2 | d1>>2`, `80 | (d1&3)<<4 | d2`.
pub fn usv_storage(digits: &[u8]) -> Vec<u8> {
    let mut padded = vec![0; (3 - digits.len() % 3) % 3];
    padded.extend(digits);
    padded
        .chunks(3)
        .flat_map(|d| [0x80 | d[0] << 2 | d[1] >> 2, 0x80 | (d[1] & 3) << 4 | d[2]])
        .collect()
}

/// A long-form code (draft §3.5) for the hex `digits` exactly as given (at least 18; a
/// leading zero digit makes it overlong): `FF`, the length storage of
/// NME = `digits.len()` − 18, the USV-storage bytes.
pub fn long_form_bytes(digits: &[u8]) -> Vec<u8> {
    let nme = (digits.len() as u128).saturating_sub(NUD_MIN);
    let mut bytes = vec![LONG_LEAD];
    bytes.extend(length_storage(nme));
    bytes.extend(usv_storage(digits));
    bytes
}

/// Encodes one code point (`docs/semantics.md` §4.1); only surrogates fail.
pub fn encode(cp: &CodePoint) -> Result<Vec<u8>, Kind> {
    let surrogates = (
        CodePoint::from_hex(SURROGATES.0),
        CodePoint::from_hex(SURROGATES.1),
    );
    if let (Some(lo), Some(hi)) = surrogates {
        if lo <= *cp && *cp <= hi {
            return Err(Kind::Surrogate);
        }
    }
    let in_form = |f: &&Form| {
        let (first, last) = (CodePoint::from_hex(f.first), CodePoint::from_hex(f.last));
        first.is_some_and(|v| v <= *cp) && last.is_some_and(|v| *cp <= v)
    };
    if let Some(form) = FORMS.iter().find(in_form) {
        return Ok(encode_in_form(form, cp.to_u128().unwrap_or(0)));
    }
    // Above every fixed form: NUD ≥ 18 and no leading zero.
    let digits: Vec<u8> = cp
        .hex()
        .chars()
        .map(|c| c.to_digit(16).unwrap_or(0) as u8)
        .collect();
    Ok(long_form_bytes(&digits))
}

/// The 17 examples of the draft's §4, as printed: code point (hex), bytes, and the
/// draft's remark. The 51-digit example prints 38 bytes although its remark says
/// "thirty-four bytes" (`docs/semantics.md` §4.4); the 102-digit one is written out
/// from the draft's "(one hundred A's omitted)" and "(sixty-six AA's omitted)".
#[rustfmt::skip]
pub const DRAFT_EXAMPLES: [(&str, &[u8], &str); 17] = [
    ("41", &[0x41], "the one-byte ASCII code for the letter 'A'"),
    ("10FFFF", &[0xF4, 0x8F, 0xBF, 0xBF], "four bytes; the last code that is compatible with UTF-16"),
    ("110000", &[0xF4, 0x90, 0x80, 0x80], "four bytes; the first code that is incompatible with UTF-16"),
    ("7FFFFFFF", &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "six bytes; the last original UTF-8 code"),
    ("80000000", &[0xFE, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80], "the first seven-byte code"),
    ("FFFFFFFFF", &[0xFE, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "the last seven-byte code"),
    ("1000000000", &[0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], "the first thirteen-byte code"),
    ("7FFFFFFFFFFFFFFF", &[0xFF, 0x80, 0x87, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "thirteen bytes; the last code point in UCS-E"),
    ("8000000000000000", &[0xFF, 0x80, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], "thirteen bytes; the first code point beyond UCS-E"),
    ("7FFFFFFFFFFFFFFFFF", &[0xFF, 0x9F, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "the last thirteen-byte code"),
    ("800000000000000000", &[0xFF, 0xA0, 0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], "fourteen bytes; the first A0 means NME = zero, NUD = eighteen; the second A0 is a USV-storage byte"),
    ("FFFFFFFFFFFFFFFFFF", &[0xFF, 0xA0, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], "the last fourteen-byte code"),
    ("1000000000000000000", &[0xFF, 0xA1, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], "the first sixteen-byte code; there are no fifteen-byte codes; NME = 1, NUD = nineteen"),
    ("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
     &[0xFF, 0xAF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF],
     "the last twenty-four-byte code; NME = fifteen, NUD = thirty-three; the last code with only a single length-storage Ax byte and without any length-storage B4 bytes"),
    ("1000000000000000000000000000000000",
     &[0xFF, 0xB4, 0xA1, 0xA0, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
       0x80, 0x80, 0x80, 0x80, 0x80, 0x80],
     "the first twenty-eight-byte code; NME = sixteen, NUD = thirty-four; the first code with a B4 and two Ax bytes for length-storage"),
    ("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
     &[0xFF, 0xB4, 0xA2, 0xA1, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
       0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA],
     "thirty-four bytes [sic: 38 bytes as printed, 34 of them USV-storage]; NME = 21 hexadecimal = thirty-three; NUD = fifty-one"),
    ("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
     &[0xFF, 0xB4, 0xA5, 0xA4,
       0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
       0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
       0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
       0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA],
     "seventy-two bytes; NME = 54 hexadecimal = eighty-four; NUD = one hundred and two"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(hex: &str) -> CodePoint {
        CodePoint::from_hex(hex).unwrap()
    }

    fn dec(input: &[u8]) -> Vec<Event> {
        decode(input, DEFAULT_LIMIT)
    }

    fn err(kind: Kind, offset: usize, length: usize) -> Event {
        Event::Error {
            kind,
            offset,
            length,
        }
    }

    #[test]
    fn draft_examples_both_ways() {
        for (hex, bytes, _) in DRAFT_EXAMPLES {
            assert_eq!(encode(&cp(hex)).as_deref(), Ok(bytes), "encode U+{hex}");
            assert_eq!(
                dec(bytes),
                [Event::CodePoint(cp(hex))],
                "decode {bytes:02X?}"
            );
        }
        assert_eq!(DRAFT_EXAMPLES[15].0.len(), 51);
        assert_eq!(DRAFT_EXAMPLES[15].1.len(), 38);
        assert_eq!(DRAFT_EXAMPLES[16].0.len(), 102);
        assert_eq!(DRAFT_EXAMPLES[16].1.len(), 72);
    }

    #[test]
    fn semantics_examples() {
        use Kind::*;
        assert_eq!(
            dec(&[0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
            [err(Overlong, 0, 6), err(UnexpectedContinuation, 6, 1)]
        );
        assert_eq!(
            dec(&[0xFF, 0xB0]),
            [err(InvalidLength, 0, 1), err(UnexpectedContinuation, 1, 1)]
        );
        assert_eq!(
            dec(&[0xFF, 0xB4, 0xA0]),
            [err(Overlong, 0, 2), err(UnexpectedContinuation, 2, 1)]
        );
        assert_eq!(
            dec(&[0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xB4, 0x41]),
            [err(LimitExceeded, 0, 6), Event::CodePoint(cp("41"))]
        );
        // One limit-exceeded span: the hostile length field to its end, …
        let mut hostile = vec![0xFF];
        hostile.extend([0xB4; 70_000]);
        assert_eq!(dec(&hostile), [err(LimitExceeded, 0, 70_001)]);
        // … the 6 digits after 5 B4 too, and the code's declared end (inclusive).
        let mut long = vec![0xFF, 0xB4, 0xB4, 0xB4, 0xB4, 0xB4];
        long.extend([0xA1, 0xA0, 0xA0, 0xA0, 0xA0, 0xA0, 0x80, 0x84, 0x41]);
        assert_eq!(
            dec(&long),
            [err(LimitExceeded, 0, 14), Event::CodePoint(cp("41"))]
        );
        assert_eq!(dec(&[0xFF, 0xB4, 0xB4, 0xB4, 0xB4]), [err(Truncated, 0, 5)]);
        assert_eq!(dec(&[0xC0, 0x80])[0], err(Overlong, 0, 1));
        assert_eq!(dec(&[0xED, 0xA0, 0x80])[0], err(Surrogate, 0, 1));
        assert_eq!(dec(&[0xED, 0x9F, 0xBF]), [Event::CodePoint(cp("D7FF"))]);
        assert_eq!(dec(&[0xF8, 0x87, 0xBF])[0], err(Overlong, 0, 1));
        assert_eq!(dec(&[0xFE, 0x81])[0], err(Overlong, 0, 1));
        assert_eq!(
            dec(&[0xFF, 0x41]),
            [err(Truncated, 0, 1), Event::CodePoint(cp("41"))]
        );
        assert_eq!(encode(&cp("D800")), Err(Surrogate));
        assert_eq!(encode(&cp("DFFF")), Err(Surrogate));
    }

    #[test]
    fn limit_from_the_codec_docs() {
        let bytes = [
            0xFF, 0xA0, 0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        ];
        // One span to the code's declared end (docs/semantics.md §4.3).
        assert_eq!(decode(&bytes, 13), [err(Kind::LimitExceeded, 0, 14)]);
        let mut cut = bytes.to_vec();
        cut.truncate(5);
        cut.push(0x41);
        assert_eq!(
            decode(&cut, 13),
            [err(Kind::LimitExceeded, 0, 5), Event::CodePoint(cp("41"))]
        );
        let mut longer = bytes.to_vec();
        longer.push(0x80);
        assert_eq!(
            decode(&longer, 13),
            [
                err(Kind::LimitExceeded, 0, 14),
                err(Kind::UnexpectedContinuation, 14, 1)
            ]
        );
        assert_eq!(
            decode(&bytes, 14),
            [Event::CodePoint(cp("800000000000000000"))]
        );
    }

    #[test]
    fn round_trips_and_order() {
        let mut cps: Vec<CodePoint> = Vec::new();
        for nud in 1..=120usize {
            for lead in ["1", "7", "8", "F"] {
                cps.push(cp(&format!("{lead}{}", "0".repeat(nud - 1))));
                cps.push(cp(&format!("{lead}{}", "F".repeat(nud - 1))));
            }
        }
        cps.sort();
        cps.dedup();
        let mut last: Option<Vec<u8>> = None;
        for c in &cps {
            let Ok(bytes) = encode(c) else { continue };
            assert_eq!(dec(&bytes), [Event::CodePoint(c.clone())], "{c}");
            // Encodings sort byte-wise in code point order.
            if let Some(prev) = &last {
                assert!(*prev < bytes, "{c}");
            }
            last = Some(bytes);
        }
    }

    #[test]
    fn code_points_print_and_parse() {
        assert_eq!(cp("41").to_string(), "U+0041");
        assert_eq!(cp("0041").to_string(), "U+0041");
        assert_eq!(cp("0").to_string(), "U+0000");
        assert_eq!("U+1F600".parse::<CodePoint>().unwrap(), cp("1f600"));
        assert!("1F600".parse::<CodePoint>().is_err());
        assert!(cp("FFFF") < cp("10000"));
    }
}
