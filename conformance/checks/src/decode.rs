//! `decode`: the one-shot decoders never panic, their events tile the input, and the
//! derived operations (lossy, strict, validate) agree with the events.

use super::codecs::{Codec, BOTH};
use super::fail::{display_len, ensure, ensure_eq, Ctx};
use corrected_utf8::corrected::fast::{self, InstructionSet};
use corrected_utf8::{corrected, utf8, Encoding, ErrorKind, Event, Stop, Validity};

/// Checks both encodings' one-shot decoding of `bytes`:
///
/// * the events cover the input exactly, in order, each at least one byte, and
///   [`Events::offset`](corrected_utf8::Events::offset) follows them;
/// * each code point's bytes are its one encoding, so decode and encode are inverse;
/// * each error span has a kind of its encoding and the shape SPEC gives that kind
///   (where it starts, how long it is, what byte may follow it); each reserved span is
///   Corrected UTF-8's and has the shape of SPEC §2.4a;
/// * lossy decode is the events with U+FFFD for each span (either class), strict decode
///   is the code points or the first span (a reserved one as `Stop::Reserved`), validate
///   is `Ok` or the same first span, and validity is `invalid` with an error span,
///   else `reserved` with a reserved span, else `valid`;
/// * Corrected UTF-8's fast decoders, as `fast::decode_to_vec` and
///   `fast::decode_to_utf32` pick them, give the strict decode (the same `Stop`, its
///   accessors included), and `fast::validate_with` gives its result with every
///   instruction set, those the CPU lacks (which fall back to the portable one)
///   included.
pub fn decode(bytes: &[u8]) {
    let ctx = Ctx::new("decode", bytes);
    for codec in BOTH {
        check(&ctx, codec, bytes);
    }
}

/// The fast decoders as the API picks them (`InstructionSet::detect()`) give the strict
/// decode. (The `fast_*` targets force every instruction set; this is the entry points
/// an application calls.)
fn fast_decoders_agree(ctx: &Ctx<'_>, bytes: &[u8], strict: &Result<Vec<u32>, Stop>) {
    let strict: Result<&[u32], Stop> = strict.as_deref().map_err(|&e| e);
    let decoded = fast::decode_to_vec(bytes);
    ensure_eq!(
        ctx,
        strict,
        decoded.as_deref().map_err(|&e| e),
        "fast::decode_to_vec vs strict decode"
    );
    if let (Err(want), Err(got)) = (strict, &decoded) {
        ensure_eq!(
            ctx,
            (want.offset(), want.length(), want.error(), want.reserved()),
            (got.offset(), got.length(), got.error(), got.reserved()),
            "fast::decode_to_vec's stop: offset, length, error, reserved"
        );
    }
    let mut out = vec![0; fast::utf32_len(bytes)];
    let written = fast::decode_to_utf32(bytes, &mut out);
    ensure_eq!(
        ctx,
        strict.map(<[u32]>::len),
        written,
        "fast::decode_to_utf32 vs strict decode"
    );
    if let (Ok(cps), Ok(n)) = (strict, written) {
        ensure_eq!(ctx, cps, &out[..n], "fast::decode_to_utf32's code points");
    }
    // Every instruction set by name, those this CPU lacks included: they fall back to
    // the portable one.
    let validate = strict.map(|_| ());
    for imp in InstructionSet::ALL {
        ensure_eq!(
            ctx,
            validate,
            fast::validate_with(imp, bytes),
            "fast::validate_with({}) vs strict decode",
            imp.name()
        );
    }
}

fn check(ctx: &Ctx<'_>, codec: &Codec, bytes: &[u8]) {
    let name = codec.name();
    let len = bytes.len() as u64;
    let lossy = (codec.decode_lossy)(bytes);
    let strict = (codec.decode)(bytes);
    let validate = (codec.validate)(bytes);
    let mut lossy_left = lossy.iter();
    let mut strict_left = strict.as_ref().ok().map(|v| v.iter());
    let mut first_stop: Option<Stop> = None;
    let mut validity = Validity::Valid;
    let mut buf = [0; corrected::MAX_LEN];
    // The error kinds whose display has been checked.
    let mut shown = 0u64;

    let mut events = (codec.events)(bytes);
    let mut pos = 0u64;
    while let Some(located) = events.next_located() {
        ensure_eq!(
            ctx,
            pos,
            located.offset,
            "{name}: event offset (events must tile the input)"
        );
        ensure!(
            ctx,
            located.length >= 1,
            located,
            "{name}: event length ≥ 1"
        );
        let end = pos + located.length;
        ensure!(ctx, end <= len, located, "{name}: event within the input");
        ensure_eq!(
            ctx,
            end,
            events.offset(),
            "{name}: Events::offset() after an event"
        );
        let span = &bytes[pos as usize..end as usize];
        let next = bytes.get(end as usize).copied();
        match located.event {
            Event::CodePoint(cp) => {
                ensure_eq!(
                    ctx,
                    Ok(span),
                    codec.encode_one(cp, &mut buf),
                    "{name}: a decoded code point's bytes must be its encoding (U+{cp:04X})"
                );
                ensure_eq!(
                    ctx,
                    Some(&cp),
                    lossy_left.next(),
                    "{name}: lossy decode at byte {pos}"
                );
                if let Some(left) = strict_left.as_mut() {
                    ensure_eq!(
                        ctx,
                        Some(&cp),
                        left.next(),
                        "{name}: strict decode at byte {pos}"
                    );
                }
            }
            Event::Error(e) => {
                ensure_eq!(
                    ctx,
                    (located.offset, located.length),
                    (e.offset, e.length),
                    "{name}: an error's span equals its event's"
                );
                ensure!(
                    ctx,
                    codec.decode_kinds.contains(&e.kind),
                    e,
                    "{name}: kind {} is one this encoding's decoder may report",
                    e.kind
                );
                let shape_ok = match codec.encoding {
                    Encoding::CorrectedUtf8 => corrected_span_ok(e.kind, span, next),
                    _ => utf8_span_ok(e.kind, span, next),
                };
                ensure!(
                    ctx,
                    shape_ok,
                    (e, super::fail::hex(span), next),
                    "{name}: the span has the shape SPEC gives a `{}` span (span bytes, next byte)",
                    e.kind
                );
                ensure_eq!(
                    ctx,
                    Some(&0xFFFD),
                    lossy_left.next(),
                    "{name}: lossy decode at byte {pos}"
                );
                ensure_eq!(
                    ctx,
                    Some(e.kind),
                    ErrorKind::from_name(e.kind.as_str()),
                    "{name}: ErrorKind::from_name(as_str())"
                );
                // Displaying is checked once per kind and input: it costs more than
                // the rest of the checks together.
                if shown & 1 << (e.kind as u32 % 64) == 0 {
                    shown |= 1 << (e.kind as u32 % 64);
                    ensure!(
                        ctx,
                        display_len(&e) > 0 && display_len(&located.event) > 0,
                        e,
                        "{name}: an error span displays"
                    );
                }
                first_stop.get_or_insert(Stop::Error(e));
                validity = Validity::Invalid;
            }
            Event::Reserved(r) => {
                ensure_eq!(
                    ctx,
                    (located.offset, located.length),
                    (r.offset, r.length),
                    "{name}: a reserved span equals its event's"
                );
                ensure!(
                    ctx,
                    codec.encoding == Encoding::CorrectedUtf8 && reserved_span_ok(span, next),
                    (r, super::fail::hex(span), next),
                    "{name}: a reserved span is Corrected UTF-8's, with the shape of SPEC \
                     §2.4a (span bytes, next byte)"
                );
                ensure_eq!(
                    ctx,
                    Some(&0xFFFD),
                    lossy_left.next(),
                    "{name}: lossy decode at byte {pos}"
                );
                if first_stop.is_none() {
                    ensure!(
                        ctx,
                        display_len(&located.event) > 0,
                        r,
                        "{name}: a reserved span displays"
                    );
                }
                first_stop.get_or_insert(Stop::Reserved(r));
                if validity == Validity::Valid {
                    validity = Validity::Reserved;
                }
            }
        }
        pos = end;
    }
    ensure_eq!(ctx, len, pos, "{name}: events must cover the whole input");
    ensure_eq!(ctx, None, events.next(), "{name}: events after the end");
    ensure_eq!(
        ctx,
        bytes.len() as u64,
        events.offset(),
        "{name}: Events::offset() at the end"
    );
    ensure_eq!(
        ctx,
        None,
        lossy_left.next(),
        "{name}: lossy decode has extra code points"
    );
    match first_stop {
        Some(e) => {
            ensure_eq!(
                ctx,
                Err(e),
                strict,
                "{name}: strict decode = the first span"
            );
            // A reserved span stops it as kind `reserved`, which displays too.
            ensure!(
                ctx,
                display_len(&e) > 0,
                e,
                "{name}: the first span displays"
            );
        }
        None => {
            ensure!(
                ctx,
                strict.is_ok(),
                strict,
                "{name}: strict decode of valid input"
            );
            let extra = strict_left.and_then(|mut left| left.next().copied());
            ensure_eq!(
                ctx,
                None,
                extra,
                "{name}: strict decode has extra code points"
            );
        }
    }
    ensure_eq!(
        ctx,
        first_stop.map_or(Ok(()), Err),
        validate,
        "{name}: validate = the first span"
    );
    if codec.encoding == Encoding::CorrectedUtf8 {
        fast_decoders_agree(ctx, bytes, &strict);
    }
    ensure_eq!(
        ctx,
        validity,
        (codec.validity)(bytes),
        "{name}: validity = the worst event class"
    );
}

/// SPEC §2.4a: a reserved span is `FE` or `FF` and every byte up to, not including, the
/// next recognized lead byte.
fn reserved_span_ok(span: &[u8], next: Option<u8>) -> bool {
    let recognized = |b: u8| b < 0x80 || (0xC0..=0xFD).contains(&b);
    span[0] >= 0xFE && !span[1..].iter().any(|&b| recognized(b)) && next.is_none_or(recognized)
}

/// SPEC §2.4: the bytes of a Corrected UTF-8 error span of `kind`, and the byte after it.
fn corrected_span_ok(kind: ErrorKind, span: &[u8], next: Option<u8>) -> bool {
    let is_cont = |b: u8| b & 0xC0 == 0x80;
    match kind {
        ErrorKind::UnexpectedContinuation => span.len() == 1 && is_cont(span[0]),
        ErrorKind::Truncated => {
            let need = match span[0] {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                0xF8..=0xFB => 5,
                0xFC..=0xFD => 6,
                _ => return false,
            };
            // Fewer continuation bytes than needed, and no continuation byte after them.
            span.len() < need && span[1..].iter().all(|&b| is_cont(b)) && !next.is_some_and(is_cont)
        }
        _ => false,
    }
}

/// SPEC §3: the bytes of a UTF-8 error span of `kind`, and the byte after it.
fn utf8_span_ok(kind: ErrorKind, span: &[u8], next: Option<u8>) -> bool {
    let lead = span[0];
    let one = span.len() == 1;
    let next_in = |lo: u8, hi: u8| next.is_some_and(|b| (lo..=hi).contains(&b));
    match kind {
        ErrorKind::UnexpectedContinuation => one && (0x80..=0xBF).contains(&lead),
        ErrorKind::Overlong => {
            one && (matches!(lead, 0xC0 | 0xC1)
                || (lead == 0xE0 && next_in(0x80, 0x9F))
                || (lead == 0xF0 && next_in(0x80, 0x8F)))
        }
        ErrorKind::Surrogate => one && lead == 0xED && next_in(0xA0, 0xBF),
        ErrorKind::OutOfRange => {
            one && ((lead == 0xF4 && next_in(0x90, 0xBF)) || (0xF5..=0xFD).contains(&lead))
        }
        ErrorKind::InvalidByte => one && lead >= 0xFE,
        // A proper prefix of a well-formed sequence that the next byte does not extend.
        ErrorKind::Truncated => {
            let need = match lead {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => return false,
            };
            if span.len() >= need || !is_prefix_of_well_formed(span) {
                return false;
            }
            // E0, ED, F0, F4 before a continuation byte outside their range: that span
            // has the narrow kind (overlong, surrogate, out-of-range), not this one.
            if one
                && matches!(lead, 0xE0 | 0xED | 0xF0 | 0xF4)
                && next.is_some_and(|b| b & 0xC0 == 0x80)
            {
                return false;
            }
            match next {
                None => true,
                Some(b) => {
                    let mut longer = [0u8; utf8::MAX_LEN];
                    longer[..span.len()].copy_from_slice(span);
                    longer[span.len()] = b;
                    !is_prefix_of_well_formed(&longer[..=span.len()])
                }
            }
        }
        _ => false,
    }
}

/// Whether `seq` (at most 4 bytes) is the start of some well-formed UTF-8 sequence:
/// std tells an incomplete sequence (`error_len() == None`) from an invalid one.
fn is_prefix_of_well_formed(seq: &[u8]) -> bool {
    match std::str::from_utf8(seq) {
        Ok(s) => s.chars().count() == 1,
        Err(e) => e.valid_up_to() == 0 && e.error_len().is_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_source_examples() {
        for input in [
            &b""[..],
            b"\xC0\xAF\xFE\xFE\x80A",
            b"\xED\xA0\x80\xF4\x90\xE0\x80\xF0\x80\xC1\xE2\x82",
            &corrected::MAGIC,
            b"\xFD\xBF\xBF\xBF\xBF\xBF\xFD",
        ] {
            decode(input);
        }
    }

    #[test]
    fn span_shapes() {
        assert!(reserved_span_ok(b"\xFE\x80\xFF", Some(b'A')));
        assert!(!reserved_span_ok(b"\xFE", Some(0x80)));
        assert!(!corrected_span_ok(ErrorKind::InvalidByte, b"\xFE", None));
        assert!(corrected_span_ok(ErrorKind::Truncated, b"\xFC\x80", None));
        assert!(!corrected_span_ok(
            ErrorKind::Truncated,
            b"\xC0",
            Some(0x80)
        ));
        assert!(utf8_span_ok(ErrorKind::Truncated, b"\xE2\x82", Some(b'A')));
        assert!(!utf8_span_ok(ErrorKind::Truncated, b"\xE0", Some(0x80)));
        assert!(utf8_span_ok(ErrorKind::Overlong, b"\xE0", Some(0x80)));
    }
}
