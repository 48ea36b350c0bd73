//! The structured walk of UTF-∞-8's long codes (`docs/semantics.md` §4): the codes of 7
//! bytes and more, which no walk of short inputs reaches, built from the spec-literal
//! code's own builders ([`conformance_literal::utf_inf8`]) and cut short at every byte.
//!
//! **The codes** (each a whole code, well-formed or not):
//!
//! * the `FE` form (7 bytes) and the `FF 80–9F` form (13 bytes): the values 0 and 1, the
//!   form's first value and the two below it (overlong: they fit a shorter form), the
//!   one above it, its last value and the one below it, and for each payload digit (the
//!   6 bits of a continuation byte, 5 after `FF`) the value with only that digit at 1 or
//!   at its maximum, and the last value with that digit at 0 or 1 ([`boundary_values`]);
//! * the long forms of 1 to [`LENGTH_DIGITS`] length digits (`FF A0`…`FF AF`, `FF B4 A1
//!   A0`…, `FF B4 B4 A1 A0 A0`…: NUD 18 to 4 113, codes of 14 to 2 748 bytes): for the
//!   first, second, third and last NME of each length (so every padding of the digits
//!   to a multiple of 3), the first code point of that NUD, the last, the first digit
//!   followed by `F`s, the largest overlong one below (first digit one less: a leading
//!   zero, or a 7 for NUD 18, which fits the 13-byte form), and each padding digit set
//!   to 1 and to 8 (`invalid-length`); and lengths written wrong (a leading zero digit,
//!   a byte that is no digit);
//! * at the limit L the walk is judged at, the codes of exactly L bytes and of the
//!   nearest lengths below and above that some form has (its first and last value),
//!   for L up to [`MAX_EDGE_LIMIT`] (the default limit, 65 536, included: codes of
//!   65 534, 65 536 and 65 538 bytes).
//!
//! **The cuts**: every code is cut short after each of its bytes, alone and followed by
//! `41` (a byte that continues nothing), and whole, alone, followed by `41` and followed
//! by one more continuation byte. Codes of more than [`CUT_EVERY_BYTE`] bytes are cut
//! after each of their first [`HEAD_CUTS`] bytes (the lead, the length and the first
//! storage bytes, where every decision is taken), one byte either side of the limit, and
//! before their last byte. An ill-formed code is cut up to [`AFTER_CLOSE`] bytes past the
//! byte that closes it (what follows is one stray continuation byte each: longer cuts
//! only repeat that), so that a correct decoder gives at most 10 events for any input.
//!
//! The reference's walk judges every input at each of [`REFERENCE_LIMITS`] (1 to 16 and
//! the default), the limit edge made for each; an adapter's at its declared limit, or
//! the default.

use super::codec_fns::{fill_literal_inf, CodecFns, EvBuf, KindCode, Value};
use super::failure::{Counters, Failure};
use conformance_literal::utf_inf8::{
    self as lit, Form, Judgement, B4, DEFAULT_LIMIT, FORMS, LENGTH_DIGIT, LONG_LEAD, NUD_MIN,
};
use conformance_literal::{hex, Kind};
use std::collections::BTreeSet;

/// Long forms with 1 to this many length digits are walked (NUD 18 to 4 113).
pub const LENGTH_DIGITS: u32 = 3;

/// Codes of up to this many bytes are cut after every byte.
pub const CUT_EVERY_BYTE: usize = 256;

/// A longer code is cut after each of its first this many bytes.
pub const HEAD_CUTS: usize = 24;

/// An ill-formed code is cut up to this many bytes past the byte that closes it.
pub const AFTER_CLOSE: usize = 6;

/// Codes at the limit's edge are made for limits up to this many bytes (1 MiB); a larger
/// declared limit is walked without them (the walk says so).
pub const MAX_EDGE_LIMIT: u64 = 1 << 20;

/// The limits the reference's walk judges every input at: 1 to 16, and the default.
pub const REFERENCE_LIMITS: [u32; 17] = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    DEFAULT_LIMIT as u32,
];

/// A byte that continues no code: what a cut code is followed by.
const ASCII: u8 = 0x41;

/// A continuation byte: what a whole code is followed by once.
const CONTINUATION: u8 = 0x80;

/// What follows a code's first bytes in an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// Nothing: the input ends.
    End,
    /// [`ASCII`].
    Ascii,
    /// [`CONTINUATION`].
    Continuation,
}

/// One input: the first `len` bytes of code `code`, then its ending.
#[derive(Clone, Copy, Debug)]
struct Input {
    code: u32,
    len: u32,
    ending: Ending,
}

/// The inputs of the walk at one limit.
#[derive(Clone, Debug)]
pub struct LongForms {
    limit: u64,
    codes: Vec<Vec<u8>>,
    inputs: Vec<Input>,
}

impl LongForms {
    /// Every input of the walk at `limit` (bytes, at least 1).
    pub fn at_limit(limit: u64) -> LongForms {
        let mut codes: Vec<Vec<u8>> = structural_codes();
        if limit <= MAX_EDGE_LIMIT {
            codes.extend(edge_codes(limit));
        }
        let mut seen = BTreeSet::new();
        codes.retain(|c| seen.insert(c.clone()));
        let mut inputs = Vec::new();
        for (i, code) in codes.iter().enumerate() {
            let n = code.len();
            for len in cuts(code, limit) {
                let endings: &[Ending] = if len == n {
                    &[Ending::End, Ending::Ascii, Ending::Continuation]
                } else {
                    &[Ending::End, Ending::Ascii]
                };
                for &ending in endings {
                    inputs.push(Input {
                        code: i as u32,
                        len: len as u32,
                        ending,
                    });
                }
            }
        }
        LongForms {
            limit,
            codes,
            inputs,
        }
    }

    /// Whether the limit's edge is part of the walk ([`MAX_EDGE_LIMIT`]).
    pub fn has_edge(&self) -> bool {
        self.limit <= MAX_EDGE_LIMIT
    }

    /// How many inputs.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether there are none (never: the structural codes are always there).
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The length in bytes of input `i`.
    pub fn input_len(&self, i: usize) -> usize {
        let x = self.inputs[i];
        x.len as usize + usize::from(x.ending != Ending::End)
    }

    /// Input `i`.
    pub fn input(&self, i: usize) -> Vec<u8> {
        let x = self.inputs[i];
        let mut bytes = self.codes[x.code as usize][..x.len as usize].to_vec();
        match x.ending {
            Ending::End => {}
            Ending::Ascii => bytes.push(ASCII),
            Ending::Continuation => bytes.push(CONTINUATION),
        }
        bytes
    }

    /// The codes the inputs are cut from.
    pub fn codes(&self) -> &[Vec<u8>] {
        &self.codes
    }
}

/// Checks every input of `forms` through `imp`'s UTF-∞-8 decoder at `limit`, against the
/// spec-literal decoder ([`lit::decode_located`]) at the same limit: every event, the
/// digits of every code point however large.
pub fn check(imp: &CodecFns, forms: &LongForms, limit: u32) -> Result<Counters, Box<Failure>> {
    let (mut got, mut want) = (EvBuf::default(), EvBuf::default());
    let (mut well_formed, mut errors) = (0u64, [0u64; Kind::ALL.len()]);
    for i in 0..forms.len() {
        let x = forms.input(i);
        (imp.utf_inf8_decode)(&x, limit, &mut got);
        fill_literal_inf(lit::decode_located(&x, limit as usize), &mut want);
        if !got.same_as(&want) {
            return Err(Box::new(Failure {
                check: "utf-inf-8 decode, long forms",
                input: format!("{} at limit {limit}", describe(&x)),
                got_from: imp.name,
                got: got.render(),
                want_from: if want.overflowed() {
                    "spec-literal (more events than the walk holds: the walk's inputs are wrong)"
                } else {
                    "spec-literal"
                },
                want: want.render(),
            }));
        }
        let mut ok = true;
        for e in want.as_slice() {
            if let Value::Error(KindCode(k)) = e.value {
                ok = false;
                if let Some(c) = errors.get_mut(usize::from(k)) {
                    *c += 1;
                }
            }
        }
        well_formed += u64::from(ok);
    }
    let mut counts = Counters::new();
    counts.insert("utf-inf-8-long-forms.inputs".into(), forms.len() as u64);
    counts.insert("utf-inf-8-long-forms.limits".into(), 1);
    counts.insert("utf-inf-8-long-forms.well-formed".into(), well_formed);
    for (k, &c) in Kind::ALL.iter().zip(&errors) {
        if c > 0 {
            counts.insert(
                format!("utf-inf-8-long-forms.error-spans.{}", k.as_str()),
                c,
            );
        }
    }
    Ok(counts)
}

/// An input in hex, its middle left out when it is long.
pub fn describe(x: &[u8]) -> String {
    if x.len() <= 64 {
        return hex(x, " ");
    }
    format!(
        "{} … {} ({} bytes)",
        hex(&x[..32], " "),
        hex(&x[x.len() - 8..], " "),
        x.len()
    )
}

/// Where a code is cut: see the module's documentation.
fn cuts(code: &[u8], limit: u64) -> BTreeSet<usize> {
    let n = code.len();
    if let Some(close) = closing_byte(code) {
        return (1..=n.min(close + 1 + AFTER_CLOSE)).collect();
    }
    if n <= CUT_EVERY_BYTE {
        return (1..=n).collect();
    }
    let mut at: BTreeSet<usize> = (1..=HEAD_CUTS).collect();
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    for k in [
        limit.saturating_sub(1),
        limit,
        limit.saturating_add(1),
        n - 1,
        n,
    ] {
        if (1..=n).contains(&k) {
            at.insert(k);
        }
    }
    at
}

/// The index of the byte at which no well-formed code starts with `code`'s bytes any
/// more (the spec-literal `judge`), if there is one.
fn closing_byte(code: &[u8]) -> Option<usize> {
    (1..=code.len().min(HEAD_CUTS.max(16)))
        .find(|&k| matches!(lit::judge(&code[..k]), Judgement::Closed(_)))
        .map(|k| k - 1)
}

fn hex_value(hex: &str) -> u128 {
    u128::from_str_radix(hex, 16).unwrap_or(0)
}

/// The boundary values of a fixed-length form (module documentation).
pub fn boundary_values(form: &Form) -> BTreeSet<u128> {
    let (first, last) = (hex_value(form.first), hex_value(form.last));
    let mut values: BTreeSet<u128> = [
        0,
        1,
        first.saturating_sub(2),
        first.saturating_sub(1),
        first,
        first + 1,
        last - 1,
        last,
    ]
    .into();
    let mut shift = 0;
    for slot in form.slots.iter().rev().filter(|s| s.bits > 0) {
        let mask = ((1u128 << slot.bits) - 1) << shift;
        values.insert(1 << shift);
        values.insert(mask);
        values.insert(last & !mask);
        values.insert((last & !mask) | (1 << shift));
        shift += slot.bits;
    }
    values.retain(|&v| v <= last);
    values
}

/// The codes that do not depend on the limit.
fn structural_codes() -> Vec<Vec<u8>> {
    let mut codes = Vec::new();
    // FE (7 bytes) and FF 80–9F (13 bytes): the last two fixed forms.
    for form in &FORMS[6..] {
        codes.extend(
            boundary_values(form)
                .into_iter()
                .map(|v| lit::encode_in_form(form, v)),
        );
    }
    for k in 1..=LENGTH_DIGITS {
        let first = if k == 1 { 0 } else { 16u128.pow(k - 1) };
        let last = 16u128.pow(k) - 1;
        for nme in [first, first + 1, first + 2, last] {
            codes.extend(long_codes(nme));
        }
    }
    // Lengths written wrong: a leading zero digit (also what one B4 too many looks like),
    // a byte that is no length digit after FF, after B4 and among the digits.
    let fill = |head: &[u8]| {
        let mut c = head.to_vec();
        c.resize(head.len() + 12, CONTINUATION);
        c
    };
    codes.extend(
        [
            &[LONG_LEAD, B4, LENGTH_DIGIT.0, 0xA1][..],
            &[LONG_LEAD, B4, B4, LENGTH_DIGIT.0, 0xA1, 0xA0],
            &[LONG_LEAD, 0xB0],
            &[LONG_LEAD, 0xBF],
            &[LONG_LEAD, B4, 0xB0],
            &[LONG_LEAD, B4, 0xA1, 0xB0],
            &[LONG_LEAD, B4, 0xA1, 0x80],
        ]
        .map(fill),
    );
    codes
}

/// NUD for an NME (saturating).
fn nud_of(nme: u128) -> u128 {
    nme.saturating_add(NUD_MIN)
}

/// The least first digit of a code point of `nud` digits in the long form: above the
/// 13-byte form's `7FFF…` for NUD 18, else 1.
fn least_first_digit(nud: u128) -> u8 {
    if nud == NUD_MIN {
        8
    } else {
        1
    }
}

/// The long codes of one NME (module documentation).
fn long_codes(nme: u128) -> Vec<Vec<u8>> {
    let nud = nud_of(nme) as usize;
    let least = least_first_digit(nud as u128);
    let mut first = vec![0u8; nud];
    first[0] = least;
    let mut first_then_f = vec![15u8; nud];
    first_then_f[0] = least;
    let mut below = vec![15u8; nud];
    below[0] = least - 1;
    let mut codes: Vec<Vec<u8>> = [first.clone(), vec![15; nud], first_then_f, below]
        .iter()
        .map(|d| lit::long_form_bytes(d))
        .collect();
    let pad = (3 - nud % 3) % 3;
    for j in 0..pad {
        for digit in [1, 8] {
            let mut padded = vec![0u8; pad];
            padded.extend(&first);
            padded[j] = digit;
            let mut code = vec![LONG_LEAD];
            code.extend(lit::length_storage(nme));
            code.extend(lit::usv_storage(&padded));
            codes.push(code);
        }
    }
    codes
}

/// The length in bytes of the long-form codes of `nud` digits whose NME has `k` hex
/// digits: `FF`, k − 1 `B4`, k digits, ((NUD + 2) / 3) × 2 storage bytes.
fn long_len(nud: u128, k: u32) -> u128 {
    2 * u128::from(k) + nud.div_ceil(3) * 2
}

/// The hex digits of a number (at least 1).
fn digit_count(v: u128) -> u32 {
    (128 - v.leading_zeros()).div_ceil(4).max(1)
}

/// The least NUD of a long-form code of exactly `len` bytes, if some code has that length.
fn long_nud_of_len(len: u128) -> Option<u128> {
    (1..=8u32).find_map(|k| {
        let storage = len.checked_sub(2 * u128::from(k))?;
        if storage == 0 || storage % 2 == 1 {
            return None;
        }
        let pairs = storage / 2;
        (pairs * 3 - 2..=pairs * 3).find(|&nud| {
            nud >= NUD_MIN && digit_count(nud - NUD_MIN) == k && long_len(nud, k) == len
        })
    })
}

/// Whether some code (of any form) is exactly `len` bytes long.
fn has_len(len: u128) -> bool {
    FORMS.iter().any(|f| f.len() as u128 == len) || long_nud_of_len(len).is_some()
}

/// The first and last well-formed codes of exactly `len` bytes.
fn codes_of_len(len: u128) -> Vec<Vec<u8>> {
    if let Some(form) = FORMS.iter().find(|f| f.len() as u128 == len) {
        return [form.first, form.last]
            .iter()
            .filter_map(|h| lit::CodePoint::from_hex(h))
            .filter_map(|cp| lit::encode(&cp).ok())
            .collect();
    }
    let Some(nud) = long_nud_of_len(len) else {
        return Vec::new();
    };
    let nud = nud as usize;
    let mut first = vec![0u8; nud];
    first[0] = least_first_digit(nud as u128);
    vec![
        lit::long_form_bytes(&first),
        lit::long_form_bytes(&vec![15; nud]),
    ]
}

/// The codes at the edge of `limit`: of exactly `limit` bytes, and of the nearest lengths
/// below and above it that some form has.
fn edge_codes(limit: u64) -> Vec<Vec<u8>> {
    let limit = u128::from(limit);
    let below = (1..limit).rev().find(|&n| has_len(n));
    let above = (limit + 1..).find(|&n| has_len(n));
    [below, Some(limit).filter(|&n| has_len(n)), above]
        .into_iter()
        .flatten()
        .flat_map(codes_of_len)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use conformance_literal::utf_inf8::{decode_located, Event};
    use conformance_literal::Kind;

    #[test]
    fn code_lengths_are_found_for_each_length() {
        assert_eq!(long_nud_of_len(14), Some(18));
        assert_eq!(long_nud_of_len(16), Some(19));
        assert_eq!(long_nud_of_len(15), None);
        // 26 bytes: one digit holds NUD 33 at most (24 bytes), two need NUD 34 (28).
        assert_eq!(long_nud_of_len(26), None);
        assert_eq!(long_nud_of_len(28), Some(34));
        assert!(has_len(13) && has_len(7) && !has_len(8));
        // The default limit's edge: a code of exactly 65 536 bytes exists (5 length
        // digits), and its neighbours are 2 bytes away.
        let nud = long_nud_of_len(65_536).unwrap();
        assert_eq!(long_len(nud, 5), 65_536);
        let codes = edge_codes(65_536);
        let lens: BTreeSet<usize> = codes.iter().map(Vec::len).collect();
        assert_eq!(lens, [65_534, 65_536, 65_538].into());
        for code in &codes {
            let events = decode_located(code, usize::MAX);
            assert!(
                matches!(events[..], [(0, n, Event::CodePoint(_))] if n == code.len()),
                "{}",
                code.len()
            );
        }
        let lens: Vec<usize> = edge_codes(16).iter().map(Vec::len).collect();
        assert_eq!(lens, [14, 14, 16, 16, 18, 18]);
        let lens: Vec<usize> = edge_codes(1).iter().map(Vec::len).collect();
        assert_eq!(lens, [1, 1, 2, 2]);
        let lens: Vec<usize> = edge_codes(10).iter().map(Vec::len).collect();
        assert_eq!(lens, [7, 7, 13, 13]);
        // Above 1 MiB no edge is made: the structural codes alone.
        let big = LongForms::at_limit(MAX_EDGE_LIMIT + 1);
        assert!(!big.has_edge() && LongForms::at_limit(MAX_EDGE_LIMIT).has_edge());
        assert_eq!(big.codes().len(), structural_codes().len());
    }

    #[test]
    fn the_codes_are_what_they_claim() {
        // The 13-byte form's first value is 2^36 (decided by its 7th byte), and the
        // largest value below it is overlong as soon as that byte is read: span 6.
        let form = &FORMS[7];
        let values = boundary_values(form);
        assert!(values.contains(&(1 << 36)) && values.contains(&((1 << 36) - 1)));
        let overlong = lit::encode_in_form(form, (1 << 36) - 1);
        let events = decode_located(&overlong, DEFAULT_LIMIT);
        assert!(
            matches!(
                events[0],
                (
                    0,
                    6,
                    Event::Error {
                        kind: Kind::Overlong,
                        ..
                    }
                )
            ),
            "{events:?}"
        );
        assert_eq!(closing_byte(&overlong), Some(6));
        // Every length class walked has a well-formed first and last code, an overlong
        // one, and (where the digits are padded) one with a padding digit set.
        let codes = structural_codes();
        let kinds: BTreeSet<String> = codes
            .iter()
            .map(|c| match &decode_located(c, usize::MAX)[0].2 {
                Event::CodePoint(_) => "code point".to_string(),
                Event::Error { kind, .. } => kind.as_str().to_string(),
            })
            .collect();
        for kind in ["code point", "overlong", "invalid-length"] {
            assert!(kinds.contains(kind), "{kind}: {kinds:?}");
        }
        let longest = codes.iter().map(Vec::len).max().unwrap();
        assert_eq!(longest, 2_748, "NME FFF: NUD 4 113");
    }

    /// A correct decoder gives at most 10 events on every input, at every limit, so
    /// the walk's event buffer never overflows on a right answer.
    #[test]
    fn every_input_fits_the_event_buffer() {
        for limit in [1u32, 4, 13, 16, DEFAULT_LIMIT as u32] {
            let forms = LongForms::at_limit(u64::from(limit));
            assert!(forms.len() > 1000, "{}", forms.len());
            for i in 0..forms.len() {
                let x = forms.input(i);
                assert_eq!(x.len(), forms.input_len(i));
                if x.len() > 4096 {
                    continue; // the default limit's edge: well-formed codes, 1 or 2 events
                }
                let n = decode_located(&x, limit as usize).len();
                assert!(n <= 10, "{n} events at limit {limit}: {x:02X?}");
            }
        }
    }
}
