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

/// `U+00CF`, `u+cf`, `0xCF` or `CF`: a code point of any size.
pub(crate) fn parse(s: &str) -> Result<BigCodePoint, &'static str> {
    let digits = ["U+", "u+", "0x", "0X"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
        .unwrap_or(s);
    if digits.is_empty() {
        return Err("no hex digits");
    }
    let values: Option<Vec<u8>> = digits
        .chars()
        .map(|c| c.to_digit(16).map(|d| d as u8))
        .collect();
    let values = values.ok_or("expected hex digits, as in U+00CF")?;
    Ok(BigCodePoint::from_digits(&values).expect("hex digit values are at most 15"))
}

/// Code points longer than this many hex digits are abbreviated in messages.
const SHOWN_DIGITS: usize = 32;

/// `U+0085`, or for a code point too long to read at a glance (UTF-∞-8's reach ~100 000
/// digits) `U+AAAAAAAAAAAA…AAAA (51 digits)`: one line stays one line.
pub(crate) fn show(cp: &BigCodePoint) -> String {
    let n = cp.hex_digits();
    if n <= SHOWN_DIGITS {
        return cp.to_string();
    }
    let hex = |digits: &[u8]| -> String { digits.iter().map(|d| format!("{d:X}")).collect() };
    let digits = cp.digits();
    format!(
        "U+{}…{} ({n} digits)",
        hex(&digits[..12]),
        hex(&digits[n - 4..])
    )
}

/// `U+0085 has no corrected-utf8 encoding: c1-control`.
pub(crate) fn no_encoding(cp: &BigCodePoint, encoding: Encoding, kind: ErrorKind) -> String {
    format!("{} has no {encoding} encoding: {kind}", show(cp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigCodePoint {
        s.parse().unwrap()
    }

    #[test]
    fn spellings() {
        for s in ["U+00CF", "u+cf", "0xCF", "0XcF", "CF", "000CF"] {
            assert_eq!(parse(s), Ok(BigCodePoint::from(0xCFu32)), "{s}");
        }
        assert_eq!(parse("U+8421109F"), Ok(big("U+8421109F")));
        let huge = format!("U+{}", "F".repeat(100));
        assert_eq!(parse(&huge).unwrap().hex_digits(), 100);
        assert_eq!(parse("U+0"), Ok(BigCodePoint::from(0u32)));
        assert_eq!(parse("U+"), Err("no hex digits"));
        assert!(parse("U+-1").is_err());
        assert!(parse("+1").is_err());
        assert!(parse("Ï").is_err());
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

    #[test]
    fn long_code_points_are_abbreviated() {
        assert_eq!(show(&BigCodePoint::from(0x85u32)), "U+0085");
        let max = format!("U+{}", "F".repeat(32));
        assert_eq!(show(&big(&max)), max);
        let a51 = big(&format!("U+{}", "A".repeat(51)));
        assert_eq!(show(&a51), "U+AAAAAAAAAAAA…AAAA (51 digits)");
        assert_eq!(
            no_encoding(&a51, Encoding::Utf8, ErrorKind::OutOfRange),
            "U+AAAAAAAAAAAA…AAAA (51 digits) has no utf-8 encoding: out-of-range"
        );
    }
}
