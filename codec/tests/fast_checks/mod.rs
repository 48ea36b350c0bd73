//! The checks of the fast paths against the reference that `tests/fast.rs` and
//! `tests/fast_long.rs` share (two binaries: Miri runs `fast` alone): every entry point of every instruction set this machine runs,
//! on one input.

use corrected_utf8::corrected::fast::{self, InstructionSet, TranscodeError};
use corrected_utf8::{corrected, utf8, EncodeError, Event, Located, Stop};

pub fn implementations() -> Vec<InstructionSet> {
    // Under Miri (`.ci/run`'s Miri step) the portable path only, to keep the step to a
    // few minutes; the SIMD paths are the differential fuzz targets' (under ASan).
    let all: Vec<_> = InstructionSet::available()
        .filter(|&i| !cfg!(miri) || i == InstructionSet::Portable)
        .collect();
    eprintln!("implementations on this machine: {all:?}");
    all
}

/// Fails with the input in hex unless every fast operation of `imp` agrees with the
/// reference on `bytes`.
pub fn check(imp: InstructionSet, bytes: &[u8]) {
    let expected = corrected::decode(bytes);
    let validated = fast::validate_with(imp, bytes);
    let expected_validate: Result<(), Stop> = expected.as_ref().map(|_| ()).map_err(|e| *e);
    if validated != expected_validate {
        panic!(
            "{}: validate({:02X?}) = {validated:?}, reference {expected_validate:?}",
            imp.name(),
            bytes
        );
    }
    let decoded = fast::decode_to_vec_with(imp, bytes);
    assert_eq!(
        decoded,
        expected,
        "{}: decode_to_vec({bytes:02X?})",
        imp.name()
    );
    // Into a buffer of exactly the right size, so a write past the code points panics.
    let mut out = vec![u32::MAX; fast::utf32_len(bytes)];
    let written = fast::decode_to_utf32_with(imp, bytes, &mut out);
    match &expected {
        Ok(cps) => {
            assert_eq!(
                written,
                Ok(cps.len()),
                "{}: decode_to_utf32({bytes:02X?})",
                imp.name()
            );
            assert_eq!(&out, cps, "{}: decode_to_utf32({bytes:02X?})", imp.name());
        }
        Err(e) => {
            let name = imp.name();
            assert_eq!(written, Err(*e), "{name}: decode_to_utf32({bytes:02X?})");
        }
    }
}

pub fn check_all(imps: &[InstructionSet], bytes: &[u8]) {
    for &imp in imps {
        check(imp, bytes);
    }
    check_transcode_all(imps, bytes);
    check_stop(bytes);
}

/// The entry points an application calls (the detected instruction set) against the
/// strict reference, the events' first stop: `Stop::Reserved` for a reserved span,
/// `Stop::Error` for an error span, with its offset and length; and the transcoder's
/// `TranscodeError::Decode` with the same stop. Returns the reference's stop.
pub fn check_stop(bytes: &[u8]) -> Option<Stop> {
    let reference = corrected::events(bytes).strict();
    let first = corrected::events(bytes).find_map(|e| e.stop());
    assert_eq!(reference.as_ref().err(), first.as_ref(), "{bytes:02X?}");
    let want = reference.as_ref().map(|_| ()).map_err(|&s| s);
    assert_eq!(fast::validate(bytes), want, "validate({bytes:02X?})");
    assert_eq!(
        fast::decode_to_vec(bytes),
        reference,
        "decode_to_vec({bytes:02X?})"
    );
    let mut out = vec![0; fast::utf32_len(bytes)];
    let written = fast::decode_to_utf32(bytes, &mut out).map(|n| out[..n].to_vec());
    assert_eq!(written, reference, "decode_to_utf32({bytes:02X?})");
    let transcoded = fast::transcode_to_utf8(bytes, &mut Vec::new());
    let stop = transcoded.err().and_then(|e| e.stop());
    assert_eq!(stop, first, "transcode_to_utf8({bytes:02X?})");
    if let Some(stop) = first {
        // What each accessor says agrees with the variant.
        assert_eq!(stop.reserved().is_some(), matches!(stop, Stop::Reserved(_)));
        assert_eq!(stop.error().is_some(), matches!(stop, Stop::Error(_)));
        let e = transcoded.unwrap_err();
        assert_eq!((e.offset(), e.length()), (stop.offset(), stop.length()));
        assert_eq!(e.kind(), stop.error().map(|d| d.kind));
        assert_eq!((e.codepoint(), e.encode_error()), (None, None));
        assert_eq!(e.to_string(), stop.to_string());
    }
    first
}

/// What a transcoder must give for the located `events` of an input: decode all of it,
/// then `encode` every code point; an error span wins over a code point without an
/// encoding before it, and the output is the encoding of what precedes the first problem.
pub fn expected_transcode(
    events: impl Iterator<Item = Located>,
    encode: fn(u32) -> Result<Vec<u8>, EncodeError>,
) -> (Vec<u8>, Result<(), TranscodeError>) {
    let mut out = Vec::new();
    let mut unencodable: Option<TranscodeError> = None;
    for located in events {
        match located.event {
            Event::CodePoint(cp) if unencodable.is_none() => match encode(cp) {
                Ok(bytes) => out.extend_from_slice(&bytes),
                Err(error) => {
                    unencodable = Some(TranscodeError::Encode {
                        error,
                        offset: located.offset,
                        length: located.length,
                    })
                }
            },
            Event::CodePoint(_) => {}
            Event::Error(_) | Event::Reserved(_) => {
                let stop = located.event.stop().expect("a span");
                let valid_up_to = unencodable.map_or(located.offset as usize, |u| u.valid_up_to());
                return (out, Err(TranscodeError::Decode { stop, valid_up_to }));
            }
        }
    }
    (out, unencodable.map_or(Ok(()), Err))
}

/// Both transcoders of every instruction set against the references: Corrected UTF-8 →
/// UTF-8 on `bytes`, UTF-8 → Corrected UTF-8 on `bytes` and on the UTF-8 of its lossy
/// decode (so that long valid UTF-8 reaches the vector paths too), each appended after
/// bytes already in the output.
pub fn check_transcode_all(imps: &[InstructionSet], bytes: &[u8]) {
    let twin = utf8::encode(
        corrected::decode_lossy(bytes)
            .into_iter()
            .filter(|&c| c <= 0x10_FFFF),
    )
    .unwrap();
    let to_utf8 = |cp: u32| utf8::encode([cp]);
    let to_corrected = |cp: u32| corrected::encode([cp]);
    let (want, result) = expected_transcode(corrected::events(bytes).located(), to_utf8);
    let from_utf8: Vec<_> = [bytes, &twin[..]]
        .into_iter()
        .map(|input| {
            (
                input,
                expected_transcode(utf8::events(input).located(), to_corrected),
            )
        })
        .collect();
    for &imp in imps {
        let mut out = b"prefix".to_vec();
        let got = fast::transcode_to_utf8_with(imp, bytes, &mut out);
        assert_eq!(
            (got, &out[6..]),
            (result, &want[..]),
            "{}: transcode_to_utf8({bytes:02X?})",
            imp.name()
        );
        for (input, (want, result)) in &from_utf8 {
            let mut out = b"prefix".to_vec();
            let got = fast::utf8_to_corrected_with(imp, input, &mut out);
            assert_eq!(
                (got, &out[6..]),
                (*result, &want[..]),
                "{}: utf8_to_corrected({input:02X?})",
                imp.name()
            );
        }
    }
}
