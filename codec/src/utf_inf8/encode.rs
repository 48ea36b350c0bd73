//! UTF-∞-8 encoding: the shortest form of every code point but the surrogates.

use super::min_of_len;
use crate::big::BigCodePoint;
use crate::error::{EncodeError, ErrorKind};
use alloc::vec::Vec;

/// Appends the encoding of `codepoint` to `out`. Fails only for surrogates.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint, ErrorKind};
/// let mut out = Vec::new();
/// utf_inf8::encode_into(&"U+1000000000".parse().unwrap(), &mut out).unwrap();
/// assert_eq!(out, b"\xFF\x80\x80\x80\x80\x80\x81\x80\x80\x80\x80\x80\x80");
/// let err = utf_inf8::encode_into(&BigCodePoint::from(0xD800u32), &mut out).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::Surrogate);
/// ```
pub fn encode_into(codepoint: &BigCodePoint, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match codepoint.to_u128() {
        Some(v @ 0xD800..=0xDFFF) => Err(EncodeError {
            kind: ErrorKind::Surrogate,
            codepoint: v as u32,
        }),
        Some(v) if v < 0x80 => {
            out.push(v as u8);
            Ok(())
        }
        Some(v) if v < 1 << 36 => {
            let len = (2..=7).find(|&n| v < min_of_len(n + 1) || n == 7).unwrap();
            let lead = (0xFF00u16 >> len) as u8 | (v >> (6 * (len - 1))) as u8;
            out.push(lead);
            push_continuations(v, len as usize - 1, out);
            Ok(())
        }
        Some(v) if v < 1 << 71 => {
            out.extend_from_slice(&[0xFF, 0x80 | (v >> 66) as u8]);
            push_continuations(v, 11, out);
            Ok(())
        }
        _ => {
            let digits = codepoint.digits();
            let nme = digits.len() as u64 - 18;
            out.push(0xFF);
            if nme < 16 {
                out.push(0xA0 | nme as u8);
            } else {
                let length_digits = (64 - nme.leading_zeros()).div_ceil(4);
                out.extend(core::iter::repeat_n(0xB4, length_digits as usize - 1));
                out.extend(
                    (0..length_digits)
                        .rev()
                        .map(|i| 0xA0 | ((nme >> (4 * i)) & 0xF) as u8),
                );
            }
            let pad = (3 - digits.len() % 3) % 3;
            let padded: Vec<u8> = core::iter::repeat_n(0, pad)
                .chain(digits.iter().copied())
                .collect();
            for d in padded.chunks(3) {
                out.push(0x80 | (d[0] << 2) | (d[1] >> 2));
                out.push(0x80 | ((d[1] & 3) << 4) | d[2]);
            }
            Ok(())
        }
    }
}

/// `count` continuation bytes carrying the low `6 × count` bits of `value`.
fn push_continuations(value: u128, count: usize, out: &mut Vec<u8>) {
    out.extend(
        (0..count)
            .rev()
            .map(|i| 0x80 | ((value >> (6 * i)) & 0x3F) as u8),
    );
}

/// Encodes code points into a new `Vec`; fails at the first surrogate.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{utf_inf8, BigCodePoint};
/// let cps = [BigCodePoint::from(0x41u32), "U+7FFFFFFF".parse().unwrap()];
/// assert_eq!(utf_inf8::encode(&cps), Ok(b"A\xFD\xBF\xBF\xBF\xBF\xBF".to_vec()));
/// assert!(utf_inf8::encode(&[BigCodePoint::from(0xDFFFu32)]).is_err());
/// ```
pub fn encode<'a, I: IntoIterator<Item = &'a BigCodePoint>>(
    codepoints: I,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for cp in codepoints {
        encode_into(cp, &mut out)?;
    }
    Ok(out)
}
