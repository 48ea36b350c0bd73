//! Unbounded code points for UTF-∞-8.
//!
//! UTF-∞-8 packs a code point's hexadecimal digits ("udigits") directly, three digits to
//! two bytes, so the natural representation is the digit string itself: no arithmetic is
//! ever needed, only digits in and out.

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

/// A code point of any size: an unsigned integer kept as its hexadecimal digits.
///
/// Ordered numerically. Displays as `U+` and at least four uppercase hex digits.
///
/// # Examples
///
/// ```
/// use corrected_utf8::BigCodePoint;
/// let big: BigCodePoint = "U+800000000000000000".parse().unwrap();
/// assert_eq!(big.hex_digits(), 18);
/// assert_eq!(big.to_string(), "U+800000000000000000");
/// assert!(BigCodePoint::from(0x41u32) < big);
/// assert!("U+12G4".parse::<BigCodePoint>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct BigCodePoint {
    /// Hex digit values 0..=15, most significant first, no leading zeros (zero is empty).
    digits: Vec<u8>,
}

impl BigCodePoint {
    /// The code point with these hex digit values (0..=15 each), most significant first;
    /// leading zeros are dropped. `None` if a value is above 15.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::BigCodePoint;
    /// assert_eq!(BigCodePoint::from_digits(&[0, 4, 1]), Some(BigCodePoint::from(0x41u32)));
    /// assert_eq!(BigCodePoint::from_digits(&[16]), None);
    /// ```
    pub fn from_digits(digits: &[u8]) -> Option<BigCodePoint> {
        if digits.iter().any(|&d| d > 15) {
            return None;
        }
        let first = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
        Some(BigCodePoint {
            digits: digits[first..].to_vec(),
        })
    }

    /// The hex digit values, most significant first, without leading zeros (empty for 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::BigCodePoint;
    /// assert_eq!(BigCodePoint::from(0xABCu32).digits(), &[10, 11, 12]);
    /// assert!(BigCodePoint::from(0u32).digits().is_empty());
    /// ```
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The number of significant hex digits (0 for zero).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::BigCodePoint;
    /// assert_eq!(BigCodePoint::from(0x10FFFFu32).hex_digits(), 6);
    /// assert_eq!(BigCodePoint::from(0u32).hex_digits(), 0);
    /// ```
    pub fn hex_digits(&self) -> usize {
        self.digits.len()
    }

    /// The value if it fits in 128 bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::BigCodePoint;
    /// assert_eq!(BigCodePoint::from(u128::MAX).to_u128(), Some(u128::MAX));
    /// let huge: BigCodePoint = "U+100000000000000000000000000000000".parse().unwrap();
    /// assert_eq!(huge.to_u128(), None);
    /// ```
    pub fn to_u128(&self) -> Option<u128> {
        if self.digits.len() > 32 {
            return None;
        }
        Some(self.digits.iter().fold(0, |v, &d| (v << 4) | d as u128))
    }

    /// The value if it fits in 32 bits.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::BigCodePoint;
    /// assert_eq!(BigCodePoint::from(0x41u32).to_u32(), Some(0x41));
    /// assert_eq!(BigCodePoint::from(1u64 << 32).to_u32(), None);
    /// ```
    pub fn to_u32(&self) -> Option<u32> {
        self.to_u128().and_then(|v| u32::try_from(v).ok())
    }
}

impl From<u128> for BigCodePoint {
    fn from(value: u128) -> Self {
        let digits: Vec<u8> = (0..32)
            .rev()
            .map(|i| ((value >> (4 * i)) & 0xF) as u8)
            .collect();
        BigCodePoint::from_digits(&digits).expect("nibbles are at most 15")
    }
}

impl From<u64> for BigCodePoint {
    fn from(value: u64) -> Self {
        BigCodePoint::from(value as u128)
    }
}

impl From<u32> for BigCodePoint {
    fn from(value: u32) -> Self {
        BigCodePoint::from(value as u128)
    }
}

/// Why a string is not a code point: it is empty or has a non-hex character.
///
/// # Examples
///
/// ```
/// use corrected_utf8::BigCodePoint;
/// let err = "U+".parse::<BigCodePoint>().unwrap_err();
/// assert_eq!(err.to_string(), "invalid code point \"U+\": expected U+ and hex digits");
/// assert!("u+1f600".parse::<BigCodePoint>().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCodePointError {
    text: alloc::string::String,
}

impl fmt::Display for ParseCodePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid code point {:?}: expected U+ and hex digits",
            self.text
        )
    }
}

impl core::error::Error for ParseCodePointError {}

impl core::str::FromStr for BigCodePoint {
    type Err = ParseCodePointError;

    /// Parses `U+` (or `u+`, or nothing) followed by one or more hex digits.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hex = text
            .strip_prefix("U+")
            .or_else(|| text.strip_prefix("u+"))
            .unwrap_or(text);
        let digits: Option<Vec<u8>> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect();
        match digits {
            Some(digits) if !digits.is_empty() => {
                Ok(BigCodePoint::from_digits(&digits).expect("hex digits are at most 15"))
            }
            _ => Err(ParseCodePointError { text: text.into() }),
        }
    }
}

impl Ord for BigCodePoint {
    fn cmp(&self, other: &Self) -> Ordering {
        // No leading zeros: more digits is larger; equal length compares digit-wise.
        self.digits
            .len()
            .cmp(&other.digits.len())
            .then_with(|| self.digits.cmp(&other.digits))
    }
}

impl PartialOrd for BigCodePoint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::UpperHex for BigCodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = f.width().unwrap_or(1).max(1);
        for _ in self.digits.len()..width {
            f.write_str("0")?;
        }
        // A chunk at a time: a code point can have many thousands of digits, and one
        // `write!` per digit made formatting them the cost of a UTF-∞-8 decode.
        let mut buf = [0u8; 64];
        for chunk in self.digits.chunks(buf.len()) {
            for (b, &d) in buf.iter_mut().zip(chunk) {
                *b = b"0123456789ABCDEF"[d as usize];
            }
            let text = core::str::from_utf8(&buf[..chunk.len()]).map_err(|_| fmt::Error)?;
            f.write_str(text)?;
        }
        Ok(())
    }
}

impl fmt::Display for BigCodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U+{self:04X}")
    }
}

impl fmt::Debug for BigCodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn display_pads_to_four_digits() {
        assert_eq!(BigCodePoint::from(0u32).to_string(), "U+0000");
        assert_eq!(BigCodePoint::from(0xA0u32).to_string(), "U+00A0");
        assert_eq!(BigCodePoint::from(0x10FFFFu32).to_string(), "U+10FFFF");
    }

    #[test]
    fn order_is_numeric() {
        let values = [
            0u128,
            1,
            0xF,
            0x10,
            0xFFFF,
            0x1_0000,
            u64::MAX as u128,
            u128::MAX,
        ];
        for w in values.windows(2) {
            assert!(BigCodePoint::from(w[0]) < BigCodePoint::from(w[1]));
        }
    }
}
