//! Encoding UTF-∞-8 (`docs/semantics.md` §4.1): the fixed forms' bit layout and the long
//! form's length and USV storage (UTF-∞-8 draft §3.5), and strings of code points (§1).

use super::{CodePoint, Form, Tables};
use crate::Kind;

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

impl Tables {
    /// Draft §3.5.4–3.5.5: the length-storage bytes for `nme`: one `Ax` if NME < 16, else
    /// its k hex digits as `Ax` after k − 1 `B4`.
    pub fn length_storage(&self, nme: u128) -> Vec<u8> {
        let digits = hex_digits(nme);
        let mut bytes = vec![self.b4; digits.len() - 1];
        bytes.extend(digits.iter().map(|d| self.length_digit.0 + d));
        bytes
    }

    /// A long-form code (draft §3.5) for the hex `digits` exactly as given (at least 18; a
    /// leading zero digit makes it overlong): `FF`, the length storage of
    /// NME = `digits.len()` − 18, the USV-storage bytes.
    pub fn long_form_bytes(&self, digits: &[u8]) -> Vec<u8> {
        let nme = (digits.len() as u128).saturating_sub(self.nud_min);
        let mut bytes = vec![self.long_lead];
        bytes.extend(self.length_storage(nme));
        bytes.extend(usv_storage(digits));
        bytes
    }

    /// Encodes one code point (`docs/semantics.md` §4.1); only surrogates fail.
    pub fn encode(&self, cp: &CodePoint) -> Result<Vec<u8>, Kind> {
        let surrogates = (
            CodePoint::from_hex(self.surrogates.0),
            CodePoint::from_hex(self.surrogates.1),
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
        if let Some(form) = self.forms.iter().find(in_form) {
            return Ok(encode_in_form(form, cp.to_u128().unwrap_or(0)));
        }
        // Above every fixed form: NUD ≥ 18 and no leading zero.
        let digits: Vec<u8> = cp
            .hex()
            .chars()
            .map(|c| c.to_digit(16).unwrap_or(0) as u8)
            .collect();
        Ok(self.long_form_bytes(&digits))
    }

    /// Encodes a string of code points (`docs/semantics.md` §1, "Encoding a string"): the
    /// concatenation of their encodings, or the index in `cps` of the first one that has
    /// none and why; nothing after it is encoded.
    pub fn encode_string(&self, cps: &[CodePoint]) -> Result<Vec<u8>, (usize, Kind)> {
        let mut out = Vec::new();
        for (index, cp) in cps.iter().enumerate() {
            out.extend(self.encode(cp).map_err(|k| (index, k))?);
        }
        Ok(out)
    }
}
