//! Code points of every size: parsed from the command line, encoded into any encoding,
//! shown in messages.
//!
//! Corrected UTF-8 and UTF-8 decode to `u32`, UTF-∞-8 to the codec's unbounded
//! [`BigCodePoint`]; [`CodePoint`] lets the commands handle both without converting
//! every `u32` (which would allocate per character).

use corrected_utf8::{corrected, utf8, utf_inf8, BigCodePoint, Encoding, ErrorKind};
use std::fmt;

/// A decoded code point, of either width.
pub(crate) trait CodePoint: fmt::UpperHex {
    /// Appends the encoding of this code point in `to`, or says why it has none.
    fn encode(&self, to: Encoding, out: &mut Vec<u8>) -> Result<(), ErrorKind>;
    /// The value as an unbounded code point, for messages.
    fn to_big(&self) -> BigCodePoint;
    /// Appends `U+` and at least 4 uppercase hex digits, in full however long.
    fn push_u_plus(&self, out: &mut Vec<u8>);
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

impl CodePoint for u32 {
    fn encode(&self, to: Encoding, out: &mut Vec<u8>) -> Result<(), ErrorKind> {
        let cp = *self;
        match to {
            Encoding::CorrectedUtf8 => {
                let mut buf = [0; corrected::MAX_LEN];
                out.extend_from_slice(corrected::encode_into(cp, &mut buf).map_err(|e| e.kind)?);
            }
            Encoding::Utf8 => {
                let mut buf = [0; utf8::MAX_LEN];
                out.extend_from_slice(utf8::encode_into(cp, &mut buf).map_err(|e| e.kind)?);
            }
            Encoding::UtfInf8 => {
                utf_inf8::encode_into(&BigCodePoint::from(cp), out).map_err(|e| e.kind)?;
            }
        }
        Ok(())
    }

    fn to_big(&self) -> BigCodePoint {
        BigCodePoint::from(*self)
    }

    // By hand rather than with `format!`: `decode` writes one per code point, and
    // formatting was most of its time.
    #[inline]
    fn push_u_plus(&self, out: &mut Vec<u8>) {
        let digits = (8 - self.leading_zeros() as usize / 4).max(4);
        let mut text = *b"U+00000000";
        for (i, d) in text[2..2 + digits].iter_mut().rev().enumerate() {
            *d = HEX[(*self >> (4 * i)) as usize & 0xF];
        }
        out.extend_from_slice(&text[..2 + digits]);
    }
}

impl CodePoint for BigCodePoint {
    fn encode(&self, to: Encoding, out: &mut Vec<u8>) -> Result<(), ErrorKind> {
        match to {
            Encoding::UtfInf8 => utf_inf8::encode_into(self, out).map_err(|e| e.kind),
            // Beyond 32 bits is beyond both encodings' last code point.
            _ => self.to_u32().ok_or(ErrorKind::OutOfRange)?.encode(to, out),
        }
    }

    fn to_big(&self) -> BigCodePoint {
        self.clone()
    }

    // `Display` writes a digit at a time; a code near the length limit has ~98 000.
    fn push_u_plus(&self, out: &mut Vec<u8>) {
        let digits = self.digits();
        out.reserve(2 + digits.len().max(4));
        out.extend_from_slice(b"U+");
        out.extend(std::iter::repeat_n(
            b'0',
            4usize.saturating_sub(digits.len()),
        ));
        out.extend(digits.iter().map(|&d| HEX[usize::from(d & 0xF)]));
    }
}

// Parsed and shown as the explanation library does, so `encode`'s messages and the
// explorer's say the same.
pub(crate) use cutf8_explain::codepoint::{no_encoding, parse};

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigCodePoint {
        s.parse().unwrap()
    }

    #[test]
    fn both_widths_encode_into_every_encoding() {
        type Case = (u32, Encoding, Result<&'static [u8], ErrorKind>);
        let cases: [Case; 7] = [
            (0xCF, Encoding::CorrectedUtf8, Ok(b"\xC0\xAF")),
            (0xCF, Encoding::Utf8, Ok(b"\xC3\x8F")),
            (0xCF, Encoding::UtfInf8, Ok(b"\xC3\x8F")),
            (0x85, Encoding::CorrectedUtf8, Err(ErrorKind::C1Control)),
            (0x11_0000, Encoding::Utf8, Err(ErrorKind::OutOfRange)),
            (
                0x8000_0000,
                Encoding::UtfInf8,
                Ok(b"\xFE\x82\x80\x80\x80\x80\x80"),
            ),
            (0xD800, Encoding::UtfInf8, Err(ErrorKind::Surrogate)),
        ];
        for (cp, to, want) in cases {
            let mut small = Vec::new();
            let got = cp.encode(to, &mut small).map(|()| small.as_slice());
            assert_eq!(got, want, "U+{cp:04X} {to}");
            let mut wide = Vec::new();
            let got = cp.to_big().encode(to, &mut wide).map(|()| wide.as_slice());
            assert_eq!(got, want, "big U+{cp:04X} {to}");
        }
        let mut out = Vec::new();
        let beyond = big("U+100000000");
        assert_eq!(
            beyond.encode(Encoding::CorrectedUtf8, &mut out),
            Err(ErrorKind::OutOfRange)
        );
        beyond.encode(Encoding::UtfInf8, &mut out).unwrap();
        assert_eq!(out, b"\xFE\x84\x80\x80\x80\x80\x80");
    }

    #[test]
    fn u_plus_is_the_same_for_both_widths() {
        for v in [
            0u32,
            0xA,
            0xA0,
            0xFFF,
            0xFFFF,
            0x1_0000,
            0x10_FFFF,
            0x1000_0000,
            u32::MAX,
        ] {
            let (mut small, mut wide) = (Vec::new(), Vec::new());
            v.push_u_plus(&mut small);
            BigCodePoint::from(v).push_u_plus(&mut wide);
            assert_eq!(small, wide);
            assert_eq!(small, format!("U+{v:04X}").into_bytes());
        }
        let mut out = Vec::new();
        big("u+abcdef0123456789abcdef").push_u_plus(&mut out);
        assert_eq!(out, b"U+ABCDEF0123456789ABCDEF");
    }
}
