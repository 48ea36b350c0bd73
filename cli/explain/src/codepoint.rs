//! Code points of any size as people write them, and as messages show them.

use corrected_utf8::{BigCodePoint, Encoding, ErrorKind};

/// `U+00CF`, `u+cf`, `0xCF` or `CF`: a code point of any size.
///
/// # Examples
///
/// ```
/// use corrected_utf8::BigCodePoint;
/// use cutf8_explain::codepoint::parse;
/// assert_eq!(parse("u+cf"), Ok(BigCodePoint::from(0xCFu32)));
/// assert!(parse("U+").is_err());
/// ```
pub fn parse(s: &str) -> Result<BigCodePoint, &'static str> {
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
///
/// # Examples
///
/// ```
/// use corrected_utf8::BigCodePoint;
/// assert_eq!(cutf8_explain::codepoint::show(&BigCodePoint::from(0x85u32)), "U+0085");
/// ```
pub fn show(cp: &BigCodePoint) -> String {
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
///
/// # Examples
///
/// ```
/// use corrected_utf8::{BigCodePoint, Encoding, ErrorKind};
/// use cutf8_explain::codepoint::no_encoding;
/// let cp = BigCodePoint::from(0xD800u32);
/// assert_eq!(
///     no_encoding(&cp, Encoding::Utf8, ErrorKind::Surrogate),
///     "U+D800 has no utf-8 encoding: surrogate"
/// );
/// ```
pub fn no_encoding(cp: &BigCodePoint, encoding: Encoding, kind: ErrorKind) -> String {
    format!("{} has no {encoding} encoding: {kind}", show(cp))
}

/// Serializes a code point as the vectors write it: `U+` and at least 4 uppercase hex
/// digits, in full.
pub(crate) fn serialize<S: serde::Serializer>(cp: &BigCodePoint, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(cp)
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
