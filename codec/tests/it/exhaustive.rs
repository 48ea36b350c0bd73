//! Cheap exhaustive loops: every Unicode scalar through utf-8 vs std, every Corrected
//! code point below U+2110A0, and every input of up to 3 bytes through utf-8 vs std and
//! through the streaming decoders vs the one-shot ones.

use crate::common::*;
use corrected_utf8::{corrected, utf8, Encoding, Event, Validity};

#[test]
fn every_unicode_scalar_encodes_like_std() {
    let mut buf = [0; 4];
    let mut ours = [0; utf8::MAX_LEN];
    for value in 0..=0x10_FFFFu32 {
        match char::from_u32(value) {
            Some(c) => {
                let std = c.encode_utf8(&mut buf).as_bytes();
                assert_eq!(utf8::encode_into(value, &mut ours), Ok(std));
                assert_eq!(utf8::decode(std), Ok(vec![value]));
            }
            None => assert!(
                utf8::encode_into(value, &mut ours).is_err(),
                "U+{value:04X}"
            ),
        }
    }
}

#[test]
fn corrected_round_trips_below_u_2110a0() {
    let mut buf = [0; corrected::MAX_LEN];
    let mut previous: Vec<u8> = Vec::new();
    for value in 0..0x21_10A0u32 {
        match corrected::encode_into(value, &mut buf) {
            Ok(bytes) => {
                assert_eq!(corrected::decode(bytes), Ok(vec![value]), "U+{value:04X}");
                // Byte order of encodings is code point order.
                assert!(previous.as_slice() < bytes, "order at U+{value:04X}");
                previous = bytes.to_vec();
            }
            Err(_) => assert!((0x80..=0x9F).contains(&value) || (0xD800..=0xDFFF).contains(&value)),
        }
    }
}

/// Calls `f` with every input of 1 to `max` bytes.
fn for_all_inputs(max: usize, mut f: impl FnMut(&[u8])) {
    let mut buf = [0u8; 3];
    for len in 1..=max {
        for n in 0..1u32 << (8 * len) {
            for (i, b) in buf[..len].iter_mut().enumerate() {
                *b = (n >> (8 * i)) as u8;
            }
            f(&buf[..len]);
        }
    }
}

#[test]
fn every_input_up_to_3_bytes_agrees_with_std() {
    for_all_inputs(3, |input| {
        let std = core::str::from_utf8(input);
        let ours = utf8::validate(input);
        match (std, ours) {
            (Ok(_), Ok(())) => {}
            (Err(s), Err(o)) => {
                assert_eq!(o.offset, s.valid_up_to() as u64, "{input:02X?}");
                // std's `None` is a truncated sequence that reaches the end.
                let std_len = s.error_len().map_or(input.len() - s.valid_up_to(), |l| l);
                assert_eq!(o.length, std_len as u64, "{input:02X?}");
            }
            (s, o) => panic!("{input:02X?}: std {s:?}, ours {o:?}"),
        }
        // The events' first error, not just `validate`, agrees.
        let first = utf8::events(input).find_map(|e| e.error().copied());
        assert_eq!(first, ours.err(), "{input:02X?}");
        assert_eq!(
            utf8::decode_lossy_to_string(input),
            String::from_utf8_lossy(input),
            "{input:02X?}"
        );
    });
}

#[test]
fn every_input_up_to_3_bytes_streams_like_one_shot() {
    for_all_inputs(3, |input| {
        for encoding in [Encoding::CorrectedUtf8, Encoding::Utf8] {
            let expected = one_shot(encoding, input);
            check_coverage(&expected, input.len());
            assert_eq!(
                streamed(encoding, &[input]),
                expected,
                "{encoding} {input:02X?}"
            );
            let singles: Vec<&[u8]> = input.chunks(1).collect();
            assert_eq!(
                streamed(encoding, &singles),
                expected,
                "{encoding} {input:02X?}"
            );
        }
        // Validation stops at the first span of either class, for Corrected UTF-8 too.
        let first = corrected::events(input).find_map(|e: Event| e.stop());
        assert_eq!(corrected::validate(input).err(), first);
        let events: Vec<Event> = corrected::events(input).collect();
        let validity = if events.iter().any(|e| e.error().is_some()) {
            Validity::Invalid
        } else if events.iter().any(|e| e.reserved().is_some()) {
            Validity::Reserved
        } else {
            Validity::Valid
        };
        assert_eq!(corrected::validity(input), validity, "{input:02X?}");
    });
}
