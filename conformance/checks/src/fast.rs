//! `fast_validate`, `fast_decode`, `fast_transcode`: the fast paths
//! (`corrected_utf8::corrected::fast`) against the reference, on every implementation this
//! CPU runs, at every misalignment.
//!
//! Layout of the raw input: one byte whose low 6 bits are the misalignment (0–63), then
//! the data. The data is copied into an allocation of exactly misalignment + its length
//! bytes and checked at that offset: its end is the allocation's end, so a vector read
//! past it is an out-of-bounds read that AddressSanitizer reports.

use super::fail::{ensure_eq, Ctx};
use corrected_utf8::corrected::fast::{self, InstructionSet, TranscodeError};
use corrected_utf8::{
    corrected, utf8, DecodeError, EncodeError, ErrorKind, Event, Located, ReservedSpan, Stop,
};
use std::fmt::{self, Debug};

/// The data of a raw input, at its misalignment in a buffer of its own, and the
/// buffer.
fn placed(bytes: &[u8]) -> (Box<[u8]>, usize) {
    let (shift, data) = match bytes.split_first() {
        Some((&first, rest)) => (usize::from(first & 63), rest),
        None => (0, bytes),
    };
    let mut buffer = vec![0u8; shift + data.len()].into_boxed_slice();
    buffer[shift..].copy_from_slice(data);
    (buffer, shift)
}

/// What a stop says through its accessors, then what its variant holds: the two must
/// agree, so that a comparison reaches the accessors and a wrong one fails.
type StopView = (u64, u64, Option<DecodeError>, Option<ReservedSpan>);

fn stop_views(stop: &Stop) -> [StopView; 2] {
    let by_accessors = (
        stop.offset(),
        stop.length(),
        stop.error().copied(),
        stop.reserved().copied(),
    );
    let held = match *stop {
        Stop::Error(e) => (e.offset, e.length, Some(e), None),
        Stop::Reserved(r) => (r.offset, r.length, None, Some(r)),
    };
    [by_accessors, held]
}

/// Checks that a fast path's `got` is the reference strict decoder's `want`: the same
/// `Ok` or the same [`Stop`] (an error span as `Stop::Error`, a reserved span as
/// `Stop::Reserved`), that its accessors (`offset`, `length`, `error`, `reserved`)
/// say what it holds, and that `Stop::from` what it holds gives it back.
fn ensure_same_stop<T: PartialEq + Debug>(
    ctx: &Ctx<'_>,
    want: &Result<T, Stop>,
    got: &Result<T, Stop>,
    what: impl FnOnce(&mut dyn FnMut(fmt::Arguments<'_>)),
) {
    if want != got {
        ctx.fail(what, want, got);
    }
    if let Err(got) = got {
        let [said, held] = stop_views(got);
        if said != held {
            let what = |w: &mut dyn FnMut(fmt::Arguments<'_>)| {
                what(&mut |a| w(format_args!("{a}: offset(), length(), error(), reserved()")))
            };
            ctx.fail(what, &held, &said);
        }
        // And `Stop::from` what it holds gives it back.
        let rebuilt = match *got {
            Stop::Error(e) => Stop::from(e),
            Stop::Reserved(r) => Stop::from(r),
        };
        if rebuilt != *got {
            let what = |w: &mut dyn FnMut(fmt::Arguments<'_>)| {
                what(&mut |a| w(format_args!("{a}: Stop::from of what it holds")))
            };
            ctx.fail(what, got, &rebuilt);
        }
    }
}

/// Checks that `fast::validate` and `fast::validate_with` each implementation give the
/// reference's result: `Ok`, or the same first stop ([`Stop::Error`] with its kind,
/// offset and length, or [`Stop::Reserved`] with its offset and length), through each
/// of `Stop`'s accessors too.
pub fn fast_validate(bytes: &[u8]) {
    let ctx = Ctx::new("fast_validate", bytes);
    let (buffer, shift) = placed(bytes);
    let data = &buffer[shift..];
    // The strict reference, the first stop of the events, not `corrected::validate`
    // (which the fast path's explanation calls).
    let expected = corrected::events(data).strict().map(drop);
    ensure_same_stop(&ctx, &expected, &fast::validate(data), |w| {
        w(format_args!("fast::validate (detected implementation)"))
    });
    for imp in InstructionSet::available() {
        ensure_same_stop(&ctx, &expected, &fast::validate_with(imp, data), |w| {
            w(format_args!(
                "fast::validate_with({}) at misalignment {shift}",
                imp.name()
            ))
        });
    }
}

/// What the encoders append to in [`fast_decode`].
const PREFIX: &[u8] = b"before";

/// Checks, for each implementation, that
///
/// * `decode_to_vec` and `decode_to_utf32` (into a buffer of exactly
///   [`fast::utf32_len`] code points) give the reference's code points or first stop
///   (the same [`Stop`], through its accessors too), and an invalid input the same
///   stop into half that room;
/// * a valid input encodes back to itself with `encode_from_utf32`, and so does the
///   lossy decode of any input (its errors become U+FFFD), so that long valid text of
///   every kind reaches the encoders' vector paths, not only their error exits;
/// * the data read as little-endian `u32`s (any values) encodes like
///   `corrected::encode`: the same bytes, or the same error with the code points
///   before it encoded, appended to what the output held.
pub fn fast_decode(bytes: &[u8]) {
    let ctx = Ctx::new("fast_decode", bytes);
    let (buffer, shift) = placed(bytes);
    let data = &buffer[shift..];
    let expected = corrected::events(data).strict();
    let values: Vec<u32> = data
        .chunks(4)
        .map(|c| {
            let mut word = [0u8; 4];
            word[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(word)
        })
        .collect();
    let expected_encode = corrected::encode(values.iter().copied());
    let lossy = corrected::decode_lossy(data);
    let lossy_encoded = corrected::encode(lossy.iter().copied());
    for imp in InstructionSet::available() {
        let name = imp.name();
        let mut again = PREFIX.to_vec();
        let got = fast::encode_from_utf32_with(imp, &lossy, &mut again);
        ensure_eq!(
            ctx,
            lossy_encoded.as_ref().map(|_| ()).map_err(|e| *e),
            got,
            "fast::encode_from_utf32_with({name}) of the lossy decode"
        );
        if let Ok(want) = &lossy_encoded {
            ensure_eq!(
                ctx,
                &want[..],
                &again[PREFIX.len()..],
                "fast::encode_from_utf32_with({name}) of the lossy decode: bytes"
            );
        }
        ensure_same_stop(&ctx, &expected, &fast::decode_to_vec_with(imp, data), |w| {
            w(format_args!(
                "fast::decode_to_vec_with({name}) at misalignment {shift}"
            ))
        });
        let mut out = vec![u32::MAX; fast::utf32_len(data)];
        let written = fast::decode_to_utf32_with(imp, data, &mut out);
        match &expected {
            Ok(cps) => {
                ensure_eq!(
                    ctx,
                    Ok(cps.len()),
                    written,
                    "fast::decode_to_utf32_with({name}): count"
                );
                ensure_eq!(
                    ctx,
                    cps,
                    &out,
                    "fast::decode_to_utf32_with({name}): code points"
                );
                let mut again = Vec::new();
                ensure_eq!(
                    ctx,
                    Ok(()),
                    fast::encode_from_utf32_with(imp, cps, &mut again),
                    "fast::encode_from_utf32_with({name}) of decoded code points"
                );
                ensure_eq!(
                    ctx,
                    data,
                    &again[..],
                    "fast::encode_from_utf32_with({name}) round trip"
                );
            }
            Err(e) => {
                ensure_same_stop(&ctx, &Err(*e), &written, |w| {
                    w(format_args!("fast::decode_to_utf32_with({name})"))
                });
                // An invalid input reports its stop whatever room `out` has.
                let mut half = vec![u32::MAX; out.len() / 2];
                let written = fast::decode_to_utf32_with(imp, data, &mut half);
                ensure_same_stop(&ctx, &Err(*e), &written, |w| {
                    w(format_args!(
                        "fast::decode_to_utf32_with({name}) into half the room"
                    ))
                });
            }
        }
        // Appended after bytes already there, which must stay.
        let mut encoded = PREFIX.to_vec();
        let got = fast::encode_from_utf32_with(imp, &values, &mut encoded);
        ensure_eq!(
            ctx,
            PREFIX,
            &encoded[..PREFIX.len()],
            "fast::encode_from_utf32_with({name}) kept what `out` held"
        );
        let encoded = &encoded[PREFIX.len()..];
        match &expected_encode {
            Ok(want) => {
                ensure_eq!(
                    ctx,
                    Ok(()),
                    got,
                    "fast::encode_from_utf32_with({name}) of the data as u32"
                );
                ensure_eq!(
                    ctx,
                    &want[..],
                    encoded,
                    "fast::encode_from_utf32_with({name}) bytes"
                );
            }
            Err(e) => {
                ensure_eq!(
                    ctx,
                    Err(*e),
                    got,
                    "fast::encode_from_utf32_with({name}) error"
                );
                let before = values.iter().position(|&v| v == e.codepoint).unwrap_or(0);
                let prefix =
                    corrected::encode(values[..before].iter().copied()).unwrap_or_default();
                ensure_eq!(
                    ctx,
                    &prefix[..],
                    encoded,
                    "fast::encode_from_utf32_with({name}): output before the error"
                );
            }
        }
    }
}

/// What a transcoder must give for `data`, worked out with the references: decode all of
/// it (`events`), then encode every code point (`encode`). The error span wins over a code
/// point without an encoding before it (decoding comes first); the output is the encoding
/// of the code points before the first problem in input order.
fn expected_transcode(
    events: impl Iterator<Item = Located>,
    encode: fn(u32) -> Result<Vec<u8>, EncodeError>,
) -> (Vec<u8>, Result<(), TranscodeError>) {
    let mut out = Vec::new();
    let mut unencodable: Option<TranscodeError> = None;
    for located in events {
        match located.event {
            Event::CodePoint(cp) => {
                if unencodable.is_some() {
                    continue;
                }
                match encode(cp) {
                    Ok(bytes) => out.extend_from_slice(&bytes),
                    Err(error) => {
                        unencodable = Some(TranscodeError::Encode {
                            error,
                            offset: located.offset,
                            length: located.length,
                        })
                    }
                }
            }
            // An error span, or a reserved span, which a strict decode stops at too.
            Event::Error(_) | Event::Reserved(_) => {
                let Some(stop) = located.event.stop() else {
                    continue;
                };
                let valid_up_to = unencodable.map_or(located.offset as usize, |u| u.valid_up_to());
                return (out, Err(TranscodeError::Decode { stop, valid_up_to }));
            }
        }
    }
    (out, unencodable.map_or(Ok(()), Err))
}

/// What a [`TranscodeError`] says through its accessors and `Display`, then what its
/// variant holds (a span's message is its [`Stop`]'s, never an error kind's).
type TranscodeView = (
    Option<Stop>,
    Option<EncodeError>,
    Option<ErrorKind>,
    (u64, u64, usize),
    Option<u32>,
    String,
);

fn transcode_views(e: &TranscodeError) -> [TranscodeView; 2] {
    let by_accessors = (
        e.stop(),
        e.encode_error(),
        e.kind(),
        (e.offset(), e.length(), e.valid_up_to()),
        e.codepoint(),
        e.to_string(),
    );
    let held = match *e {
        TranscodeError::Decode { stop, valid_up_to } => {
            let [_, (offset, length, error, _)] = stop_views(&stop);
            let kind = error.map(|d| d.kind);
            let place = (offset, length, valid_up_to);
            (Some(stop), None, kind, place, None, stop.to_string())
        }
        TranscodeError::Encode {
            error,
            offset,
            length,
        } => {
            let EncodeError { kind, codepoint } = error;
            let message = format!(
                "U+{codepoint:04X} at byte {offset} ({length} bytes) has no encoding: {kind}"
            );
            let place = (offset, length, offset as usize);
            (
                None,
                Some(error),
                Some(kind),
                place,
                Some(codepoint),
                message,
            )
        }
    };
    [by_accessors, held]
}

/// Checks that a transcoder's `got` is `want`, and that its accessors and `Display` say
/// what it holds.
fn ensure_same_transcode(
    ctx: &Ctx<'_>,
    want: &Result<(), TranscodeError>,
    got: &Result<(), TranscodeError>,
    what: impl FnOnce(&mut dyn FnMut(fmt::Arguments<'_>)),
) {
    if want != got {
        ctx.fail(what, want, got);
    }
    if let Err(got) = got {
        let [said, held] = transcode_views(got);
        if said != held {
            let what = |w: &mut dyn FnMut(fmt::Arguments<'_>)| {
                what(&mut |a| w(format_args!("{a}: accessors and Display")))
            };
            ctx.fail(what, &held, &said);
        }
    }
}

/// Checks, for each implementation, that `transcode_to_utf8` (Corrected UTF-8 → UTF-8)
/// and `utf8_to_corrected` (UTF-8 → Corrected UTF-8) on the data give what decoding with
/// the reference and encoding with the other encoding's reference encoder give: the same
/// `Ok` or the same error (the same variant: `Decode` with the same `Stop`, a reserved
/// span as `Stop::Reserved`, or `Encode`), and the same through every accessor
/// (`stop`, `encode_error`, `kind`, `offset`, `length`, `valid_up_to`, `codepoint`) and
/// `Display`, with the transcoding of everything before `valid_up_to` appended after
/// what the output held; and so do the entry points that pick the instruction set.
/// The data is tried as it is, and (so that valid text reaches the vector paths, not only
/// their error exits) as the other encoding's transcoding of its lossy decode.
pub fn fast_transcode(bytes: &[u8]) {
    let ctx = Ctx::new("fast_transcode", bytes);
    let (buffer, shift) = placed(bytes);
    let data = &buffer[shift..];
    // In allocations of their exact length, so that a read past the end is out of bounds.
    let lossy_utf8 = utf8::encode(
        corrected::decode_lossy(data)
            .into_iter()
            .filter(|&c| c <= 0x10_FFFF),
    )
    .unwrap_or_default()
    .into_boxed_slice();
    let lossy_corrected = corrected::encode(
        utf8::decode_lossy(data)
            .into_iter()
            .filter(|&c| !(0x80..0xA0).contains(&c)),
    )
    .unwrap_or_default()
    .into_boxed_slice();
    let corrected_inputs = [data, &lossy_corrected[..]];
    let utf8_inputs = [data, &lossy_utf8[..]];
    let to_utf8 = |cp: u32| utf8::encode([cp]);
    let to_corrected = |cp: u32| corrected::encode([cp]);
    for imp in InstructionSet::available() {
        let name = imp.name();
        for input in corrected_inputs {
            let (want, result) = expected_transcode(corrected::events(input).located(), to_utf8);
            let mut got = PREFIX.to_vec();
            ensure_same_transcode(
                &ctx,
                &result,
                &fast::transcode_to_utf8_with(imp, input, &mut got),
                |w| {
                    w(format_args!(
                        "fast::transcode_to_utf8_with({name}) of {} bytes at misalignment {shift}",
                        input.len()
                    ))
                },
            );
            ensure_eq!(
                ctx,
                [PREFIX, &want[..]].concat(),
                got,
                "fast::transcode_to_utf8_with({name}) output of {} bytes",
                input.len()
            );
        }
        for input in utf8_inputs {
            let (want, result) = expected_transcode(utf8::events(input).located(), to_corrected);
            let mut got = PREFIX.to_vec();
            ensure_same_transcode(
                &ctx,
                &result,
                &fast::utf8_to_corrected_with(imp, input, &mut got),
                |w| {
                    w(format_args!(
                        "fast::utf8_to_corrected_with({name}) of {} bytes at misalignment {shift}",
                        input.len()
                    ))
                },
            );
            ensure_eq!(
                ctx,
                [PREFIX, &want[..]].concat(),
                got,
                "fast::utf8_to_corrected_with({name}) output of {} bytes",
                input.len()
            );
        }
    }
    // The entry points an application calls, which pick the instruction set.
    for input in corrected_inputs {
        let (want, result) = expected_transcode(corrected::events(input).located(), to_utf8);
        let mut got = Vec::new();
        let transcoded = fast::transcode_to_utf8(input, &mut got);
        let what =
            |w: &mut dyn FnMut(fmt::Arguments<'_>)| w(format_args!("fast::transcode_to_utf8"));
        ensure_same_transcode(&ctx, &result, &transcoded, what);
        ensure_eq!(ctx, want, got, "fast::transcode_to_utf8 output");
    }
    for input in utf8_inputs {
        let (want, result) = expected_transcode(utf8::events(input).located(), to_corrected);
        let mut got = Vec::new();
        let transcoded = fast::utf8_to_corrected(input, &mut got);
        let what =
            |w: &mut dyn FnMut(fmt::Arguments<'_>)| w(format_args!("fast::utf8_to_corrected"));
        ensure_same_transcode(&ctx, &result, &transcoded, what);
        ensure_eq!(ctx, want, got, "fast::utf8_to_corrected output");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_and_invalid_inputs_at_every_misalignment_pass() {
        let text = corrected::encode("Größe 大小 🦀 ok".chars().map(u32::from)).unwrap();
        for shift in 0..64u8 {
            for data in [&text[..], b"\xFD\xBF\xBF\xBF\xBF", b"ab\xFE\xFE\x80c", b""] {
                let mut input = vec![shift];
                input.extend_from_slice(data);
                fast_validate(&input);
                fast_decode(&input);
                fast_transcode(&input);
            }
        }
        fast_validate(b"");
        fast_decode(b"");
        fast_transcode(b"");
    }

    #[test]
    fn the_layout_places_the_data_at_its_misalignment() {
        let (buffer, shift) = placed(b"\x43abc");
        assert_eq!((shift, &buffer[shift..]), (3, &b"abc"[..]));
        assert_eq!(buffer.len(), 6);
    }
}
