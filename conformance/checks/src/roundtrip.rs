//! `roundtrip`: encoding follows SPEC's tables exactly, decoding inverts it, and byte
//! order is code point order.

use super::codecs::{Codec, BOTH};
use super::fail::{display_len, ensure, ensure_eq, Ctx};
use super::input::CodePoints;
use corrected_utf8::{corrected, utf8, EncodeError, Encoding, ErrorKind, Event, Located};

/// SPEC §2.2: the code points of each Corrected UTF-8 sequence length.
const CORRECTED_ROWS: [(u32, u32, usize); 7] = [
    (0x0000_0000, 0x0000_007F, 1),
    (0x0000_00A0, 0x0000_089F, 2),
    (0x0000_08A0, 0x0000_D7FF, 3),
    (0x0000_E000, 0x0001_109F, 3),
    (0x0001_10A0, 0x0021_109F, 4),
    (0x0021_10A0, 0x0421_109F, 5),
    (0x0421_10A0, 0x8421_109F, 6),
];

/// Unicode Table 3-7: the code points of each UTF-8 sequence length.
const UTF8_ROWS: [(u32, u32, usize); 5] = [
    (0x0000, 0x007F, 1),
    (0x0080, 0x07FF, 2),
    (0x0800, 0xD7FF, 3),
    (0xE000, 0xFFFF, 3),
    (0x1_0000, 0x10_FFFF, 4),
];

/// What SPEC says encoding `cp` gives: the length of its encoding, or the error kind
/// (§2.3 for Corrected UTF-8, §3 for UTF-8).
fn spec_encoded_len(encoding: Encoding, cp: u32) -> Result<usize, ErrorKind> {
    let rows: &[(u32, u32, usize)] = match encoding {
        Encoding::CorrectedUtf8 => &CORRECTED_ROWS,
        _ => &UTF8_ROWS,
    };
    if let Some(&(_, _, len)) = rows.iter().find(|(lo, hi, _)| (*lo..=*hi).contains(&cp)) {
        return Ok(len);
    }
    Err(match cp {
        0x80..=0x9F if encoding == Encoding::CorrectedUtf8 => ErrorKind::C1Control,
        0xD800..=0xDFFF => ErrorKind::Surrogate,
        _ => ErrorKind::OutOfRange,
    })
}

/// The next encodable code point after `cp`, if any.
fn spec_successor(encoding: Encoding, cp: u32) -> Option<u32> {
    let mut next = cp.checked_add(1)?;
    // At most two gaps to jump (C1 controls, surrogates); each is one range.
    for _ in 0..2 {
        match spec_encoded_len(encoding, next) {
            Ok(_) => return Some(next),
            Err(ErrorKind::OutOfRange) => return None,
            Err(_) => {
                let rows: &[(u32, u32, usize)] = match encoding {
                    Encoding::CorrectedUtf8 => &CORRECTED_ROWS,
                    _ => &UTF8_ROWS,
                };
                next = rows.iter().map(|r| r.0).find(|&lo| lo > next)?;
            }
        }
    }
    Some(next)
}

/// Checks code points read from `bytes` (layout: [`CodePoints`]) in both encodings:
///
/// * `encoded_len` and `encode_into` succeed exactly for the code points SPEC's tables
///   list, with the table's length, and fail with SPEC's kind otherwise;
/// * decoding an encoding gives back exactly that code point, as one event;
/// * for each code point and the next encodable one, and for each pair of neighbours in
///   the list, the encodings compare byte-wise as the code points do;
/// * `encode` of the list is the concatenation, or fails at the first bad code point,
///   and `decode` of an encoded list gives the list back;
/// * the exported tables agree: a code point is in a row of `corrected::TABLE` (by
///   `first_codepoint()..=last_codepoint()`) or of `utf8::TABLE` (`Row::of`) exactly
///   when it encodes, that row has its encoding's length, `corrected::row_of_sequence`
///   finds it from the raw value, and each byte of a UTF-8 encoding is in the row's
///   range for it;
/// * Corrected UTF-8's fast encoder, as `fast::encode_from_utf32` picks it, gives the
///   same bytes, or the same first error after the encodings before it.
pub fn roundtrip(bytes: &[u8]) {
    let ctx = Ctx::new("roundtrip", bytes);
    let CodePoints(cps) = CodePoints::from_bytes(bytes);
    for codec in BOTH {
        check(&ctx, codec, &cps);
    }
}

fn check(ctx: &Ctx<'_>, codec: &Codec, cps: &[u32]) {
    let name = codec.name();
    let mut buf = [0; corrected::MAX_LEN];
    let mut prev: Option<(u32, [u8; corrected::MAX_LEN], usize)> = None;
    let mut concat = Vec::new();
    let mut first_error = None;
    // How many bytes of `concat` the code points before the first error make.
    let mut before_error = None;
    for &cp in cps {
        let expected = spec_encoded_len(codec.encoding, cp).map_err(|kind| EncodeError {
            kind,
            codepoint: cp,
        });
        ensure_eq!(
            ctx,
            expected,
            (codec.encoded_len)(cp),
            "{name}: encoded_len(U+{cp:04X})"
        );
        let encoded = codec.encode_one(cp, &mut buf);
        ensure_eq!(
            ctx,
            expected,
            encoded.map(<[u8]>::len),
            "{name}: encode_into(U+{cp:04X}): length or error"
        );
        table_agrees(ctx, codec.encoding, cp, encoded.ok());
        let Ok(enc) = encoded else {
            let err = expected.unwrap_err();
            ensure!(
                ctx,
                display_len(&err) > 0,
                err,
                "{name}: an encode error displays"
            );
            before_error.get_or_insert(concat.len());
            first_error.get_or_insert(err);
            prev = None;
            continue;
        };
        let enc_len = enc.len();
        let enc_buf = buf;
        let enc = &enc_buf[..enc_len];
        concat.extend_from_slice(enc);

        let mut events = (codec.events)(enc);
        let one = Located {
            offset: 0,
            length: enc_len as u64,
            event: Event::CodePoint(cp),
        };
        ensure_eq!(
            ctx,
            Some(one),
            events.next_located(),
            "{name}: decode(encode(U+{cp:04X}))"
        );
        ensure_eq!(
            ctx,
            None,
            events.next_located(),
            "{name}: decode(encode(U+{cp:04X})) is one event"
        );
        ensure_eq!(
            ctx,
            Ok(()),
            (codec.validate)(enc),
            "{name}: validate(encode(U+{cp:04X}))"
        );

        if let Some(next) = spec_successor(codec.encoding, cp) {
            let mut next_buf = [0; corrected::MAX_LEN];
            let next_enc = codec.encode_one(next, &mut next_buf);
            ensure!(
                ctx,
                next_enc.is_ok_and(|n| n > enc),
                (super::fail::hex(enc), next_enc.map(super::fail::hex)),
                "{name}: encode(U+{next:04X}) sorts after encode(U+{cp:04X})"
            );
        }
        if let Some((p, p_buf, p_len)) = prev {
            let p_enc = &p_buf[..p_len];
            ensure_eq!(
                ctx,
                p.cmp(&cp),
                p_enc.cmp(enc),
                "{name}: byte order of encode(U+{p:04X}) {} and encode(U+{cp:04X}) {}",
                super::fail::hex(p_enc),
                super::fail::hex(enc)
            );
        }
        prev = Some((cp, enc_buf, enc_len));
    }

    let whole = (codec.encode)(cps);
    match first_error {
        Some(e) => ensure_eq!(
            ctx,
            Err(e),
            whole,
            "{name}: encode(list) fails at the first bad one"
        ),
        None => ensure_eq!(
            ctx,
            Ok(&concat),
            whole.as_ref(),
            "{name}: encode(list) = concatenation"
        ),
    }
    if codec.encoding == Encoding::CorrectedUtf8 {
        // The fast encoder as the API picks it (the `fast_decode` target forces each).
        let mut fast_out = Vec::new();
        let fast = corrected::fast::encode_from_utf32(cps, &mut fast_out);
        ensure_eq!(
            ctx,
            first_error.map_or(Ok(()), Err),
            fast,
            "{name}: fast::encode_from_utf32(list): Ok or the first bad one"
        );
        ensure_eq!(
            ctx,
            &concat[..before_error.unwrap_or(concat.len())],
            &fast_out[..],
            "{name}: fast::encode_from_utf32(list) wrote the encodings up to the first bad one"
        );
    }
    let good: Vec<u32> = cps
        .iter()
        .copied()
        .filter(|&cp| spec_encoded_len(codec.encoding, cp).is_ok())
        .collect();
    ensure_eq!(
        ctx,
        Ok(good),
        (codec.decode)(&concat),
        "{name}: decode(encode(list))"
    );
}

/// The exported table row of `cp` matches its encoding (`None`: it has none).
fn table_agrees(ctx: &Ctx<'_>, encoding: Encoding, cp: u32, encoded: Option<&[u8]>) {
    let name = encoding.name();
    match encoding {
        Encoding::CorrectedUtf8 => {
            let row = corrected::TABLE
                .iter()
                .find(|r| (r.first_codepoint()..=r.last_codepoint()).contains(&cp));
            ensure_eq!(
                ctx,
                encoded.map(<[u8]>::len),
                row.map(|r| usize::from(r.len)),
                "{name}: the TABLE row of U+{cp:04X}: its length"
            );
            if let Some(row) = row {
                ensure_eq!(
                    ctx,
                    Some(row),
                    corrected::row_of_sequence(row.len, cp - row.offset),
                    "{name}: row_of_sequence of U+{cp:04X}'s raw value"
                );
            }
        }
        _ => {
            let row = utf8::Row::of(cp);
            ensure_eq!(
                ctx,
                encoded.map(<[u8]>::len),
                row.map(utf8::Row::len),
                "{name}: Row::of(U+{cp:04X}): its length"
            );
            if let (Some(row), Some(bytes)) = (row, encoded) {
                ensure!(
                    ctx,
                    bytes
                        .iter()
                        .zip(row.bytes)
                        .all(|(b, (lo, hi))| (lo..=hi).contains(&b)),
                    (super::fail::hex(bytes), row),
                    "{name}: each byte of encode(U+{cp:04X}) in its Table 3-7 range"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_skip_the_gaps() {
        let c = Encoding::CorrectedUtf8;
        assert_eq!(spec_successor(c, 0x7F), Some(0xA0));
        assert_eq!(spec_successor(c, 0xD7FF), Some(0xE000));
        assert_eq!(spec_successor(c, 0x8421_109F), None);
        assert_eq!(spec_successor(Encoding::Utf8, 0x7F), Some(0x80));
        assert_eq!(spec_successor(Encoding::Utf8, 0x10_FFFF), None);
        assert_eq!(spec_encoded_len(c, 0x85), Err(ErrorKind::C1Control));
        assert_eq!(spec_encoded_len(Encoding::Utf8, 0x85), Ok(2));
    }

    #[test]
    fn accepts_the_edges() {
        roundtrip(&CodePoints::to_bytes(&CodePoints::EDGES));
        roundtrip(&CodePoints::to_bytes(&[0x41, 0x41, 0xA0, 0x9F, 0x10FFFF]));
    }
}
