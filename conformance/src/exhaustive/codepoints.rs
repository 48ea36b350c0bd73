//! Check (1): every value `0..=FFFFFFFF` as a Corrected UTF-8 code point.
//!
//! For each value, the implementation's encoder and the spec-literal one
//! ([`literal::corrected::encode_into`]) give the same bytes or the same error kind; the
//! implementation's decoder turns those bytes back into exactly that code point; and
//! each encoding is byte-wise greater than the one of the previous encodable value.

use super::codec_fns::{render_events, CodecFns, Ev, EvBuf, KindCode, Value, ENCODE_CAP};
use super::failure::{Counters, Failure};
use conformance_literal::{self as literal, hex, Kind};

/// Values per work unit (`2^24`), so `0..=FFFFFFFF` is 256 units.
pub const UNIT_SIZE: u64 = 1 << 24;

/// Encodable Corrected UTF-8 code points: all of `0..=8421109F` but the 32 C1 controls
/// and the 2048 surrogates.
pub const ENCODABLE: u64 = 0x8421_10A0 - 32 - 2048;

/// An encoding as a number that orders like the bytes: the bytes from the top (at most 6
/// of them here), the length in the low byte so that a proper prefix sorts first.
fn order_key(bytes: &[u8]) -> u64 {
    let mut key = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(7) {
        key |= u64::from(b) << (56 - 8 * i);
    }
    key | bytes.len() as u64
}

/// Whether the first `n` (at most 6) bytes of the two buffers are equal: one masked
/// word compare instead of a call to memcmp.
#[inline]
fn same_bytes(a: &[u8; ENCODE_CAP], b: &[u8; 6], n: usize) -> bool {
    let mut b8 = [0u8; 8];
    b8[..6].copy_from_slice(b);
    let mask = u64::MAX.checked_shl(64 - 8 * n as u32).unwrap_or(0);
    (u64::from_be_bytes(*a) ^ u64::from_be_bytes(b8)) & mask == 0
}

/// The spec-literal encoding of the last encodable value below `cp`, if any. The gaps
/// are at most 2048 values wide, so this scans little.
fn previous_encoding(cp: u32) -> Option<Vec<u8>> {
    (0..cp)
        .rev()
        .find_map(|v| literal::corrected::encode(v).ok())
}

fn kind_text(k: KindCode) -> String {
    format!("error {}", k.name())
}

/// Checks the values `first..=last`; counts what it saw.
pub fn check_range(imp: &CodecFns, first: u32, last: u32) -> Result<Counters, Box<Failure>> {
    let mut encodable_by_len = [0u64; ENCODE_CAP + 1];
    let mut errors = [0u64; Kind::ALL.len()];
    let mut values = 0u64;
    let mut prev_key: Option<u64> = None;
    let mut evs = EvBuf::default();
    let fail = |check: &'static str, cp: u32, got: String, want: String| {
        Box::new(Failure {
            check,
            input: format!("U+{cp:04X}"),
            got_from: imp.name,
            got,
            want_from: "spec-literal",
            want,
        })
    };
    for cp in first..=last {
        values += 1;
        let mut rb = [0u8; ENCODE_CAP];
        let mut lb = [0u8; 6];
        let got = (imp.corrected_encode)(cp, &mut rb);
        let want = literal::corrected::encode_into(cp, &mut lb);
        match (got, want) {
            (Ok(rn), Ok(ln)) if rn == ln && same_bytes(&rb, &lb, ln) => {
                let bytes = &lb[..ln];
                (imp.corrected_decode)(bytes, &mut evs);
                let expected = Ev {
                    offset: 0,
                    length: ln as u32,
                    value: Value::CodePoint(cp),
                };
                let back = evs.as_slice();
                if evs.overflowed() || back.len() != 1 || back[0] != expected {
                    return Err(fail(
                        "corrected-utf8 decode(encode(cp))",
                        cp,
                        format!(
                            "{} decodes to {}",
                            hex(bytes, " "),
                            render_events(evs.as_slice(), evs.overflowed())
                        ),
                        format!("[{expected}]"),
                    ));
                }
                let key = order_key(bytes);
                let prev = match prev_key {
                    Some(k) => Some((k, None)),
                    // The first encodable value of the range: compare with the last one
                    // before it, so that ranges checked apart still chain up.
                    None => previous_encoding(cp).map(|b| (order_key(&b), Some(b))),
                };
                if let Some((pk, prev_bytes)) = prev {
                    if pk >= key {
                        let before = prev_bytes.map_or_else(
                            || "the previous encodable value's encoding".to_string(),
                            |b| hex(&b, " "),
                        );
                        return Err(fail(
                            "corrected-utf8 encodings increase with the code point",
                            cp,
                            format!("{} is not above {before}", hex(bytes, " ")),
                            "an encoding above the previous one".to_string(),
                        ));
                    }
                }
                prev_key = Some(key);
                encodable_by_len[ln] += 1;
            }
            (Err(rk), Err(lk)) if rk == KindCode::literal(lk) => {
                errors[lk as usize] += 1;
            }
            (got, want) => {
                let got = match got {
                    Ok(n) => rb
                        .get(..n)
                        .map_or_else(|| format!("{n} bytes"), |b| hex(b, " ")),
                    Err(k) => kind_text(k),
                };
                let want = match want {
                    Ok(n) => hex(&lb[..n], " "),
                    Err(k) => kind_text(KindCode::literal(k)),
                };
                return Err(fail("corrected-utf8 encode", cp, got, want));
            }
        }
    }
    let mut counts = Counters::new();
    counts.insert("codepoints.values".into(), values);
    counts.insert(
        "codepoints.encodable".into(),
        encodable_by_len.iter().sum::<u64>(),
    );
    for (n, &c) in encodable_by_len.iter().enumerate() {
        if c > 0 {
            counts.insert(format!("codepoints.encodable.{n}-byte"), c);
        }
    }
    for (k, &c) in Kind::ALL.iter().zip(&errors) {
        if c > 0 {
            counts.insert(format!("codepoints.error.{}", k.as_str()), c);
        }
    }
    Ok(counts)
}

/// Checks work unit `unit` (values `unit · 2^24 ..`), within `range`.
pub fn check_unit(imp: &CodecFns, unit: u32, range: (u32, u32)) -> Result<Counters, Box<Failure>> {
    let start = u64::from(unit) * UNIT_SIZE;
    let end = start + UNIT_SIZE - 1;
    let first = start.max(u64::from(range.0));
    let last = end.min(u64::from(range.1));
    if first > last {
        return Ok(Counters::new());
    }
    check_range(imp, first as u32, last as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_key_orders_like_bytes() {
        let seqs: [&[u8]; 6] = [
            &[0x00],
            &[0x7F],
            &[0xC0],
            &[0xC0, 0x00],
            &[0xC0, 0x80],
            &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF],
        ];
        for w in seqs.windows(2) {
            assert!(order_key(w[0]) < order_key(w[1]), "{:?}", w);
        }
    }

    #[test]
    fn encodable_count() {
        assert_eq!(ENCODABLE, 2_216_757_376);
    }
}
