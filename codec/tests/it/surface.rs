//! The same surface per encoding: `utf8::validity`, UTF-∞-8's `Events`
//! (`offset`, `validity`, `lossy`, `strict`, `size_hint`, fused) and
//! `Encoding::events_located`, each checked against an independent equivalent: `std`
//! for UTF-8, the one-shot functions and the other encodings' `Events` otherwise.

use corrected_utf8::{corrected, utf8, utf_inf8, BigCodePoint, Encoding, Event, Validity};

/// Every input of up to 2 bytes, and 3- to 14-byte inputs built from bytes that matter
/// to some encoding (leads, the edges of the continuation ranges, `FE`/`FF`, ASCII).
fn inputs() -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = vec![vec![]];
    all.extend((0..=255u8).map(|b| vec![b]));
    for a in 0..=255u8 {
        all.extend((0..=255u8).map(|b| vec![a, b]));
    }
    let interesting = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB4, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0,
        0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF,
    ];
    // A fixed linear congruential walk: reproducible, no dependency.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20_000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let len = 3 + (state >> 60) as usize % 12;
        let input = (0..len)
            .map(|i| interesting[(state >> (i * 4 % 56)) as usize % interesting.len()])
            .collect();
        all.push(input);
    }
    all
}

#[test]
fn utf8_validity_is_std_from_utf8() {
    for input in inputs() {
        let expected = match core::str::from_utf8(&input) {
            Ok(_) => Validity::Valid,
            Err(_) => Validity::Invalid,
        };
        assert_eq!(utf8::validity(&input), expected, "{input:02X?}");
        assert_eq!(Encoding::Utf8.validity(&input), expected, "{input:02X?}");
    }
}

#[test]
fn utf_inf8_events_offset_is_where_the_next_event_starts() {
    for input in inputs() {
        let mut events = utf_inf8::events(&input);
        let mut slice = corrected::events(&input);
        loop {
            let before = events.offset();
            match events.next_located() {
                Some(located) => assert_eq!(before, located.offset, "{input:02X?}"),
                None => {
                    // Done: the input's length, as the other encodings' `Events` say.
                    while slice.next().is_some() {}
                    assert_eq!(before, input.len() as u64, "{input:02X?}");
                    assert_eq!(before, slice.offset(), "{input:02X?}");
                    assert_eq!(events.offset(), before, "{input:02X?}");
                    break;
                }
            }
        }
        // Fused: done stays done.
        assert!(events.next().is_none() && events.next_located().is_none());
    }
}

#[test]
fn utf_inf8_events_operations_agree_with_the_one_shot_functions() {
    for input in inputs() {
        let events = utf_inf8::events(&input);
        let all: Vec<_> = events.clone().collect();
        let (low, high) = events.size_hint();
        assert!(
            low <= all.len() && all.len() <= high.unwrap(),
            "{input:02X?}"
        );
        // Spelled out from the events, not through the functions that now share the
        // methods' code.
        let first_error = all.iter().find_map(|e| e.error().copied());
        let strict = match first_error {
            Some(error) => Err(error),
            None => Ok(all
                .iter()
                .filter_map(|e| match e {
                    Event::CodePoint(cp) => Some(cp.clone()),
                    _ => None,
                })
                .collect()),
        };
        let fffd = BigCodePoint::from(0xFFFDu32);
        let lossy: Vec<_> = all
            .iter()
            .map(|e| match e {
                Event::CodePoint(cp) => cp.clone(),
                _ => fffd.clone(),
            })
            .collect();
        assert_eq!(events.clone().strict(), strict, "{input:02X?}");
        assert_eq!(utf_inf8::decode(&input), strict, "{input:02X?}");
        assert_eq!(
            events.clone().lossy().collect::<Vec<_>>(),
            lossy,
            "{input:02X?}"
        );
        assert_eq!(utf_inf8::decode_lossy(&input), lossy, "{input:02X?}");
        let validity = events.validity();
        assert_eq!(validity, Validity::of(all.iter().cloned()), "{input:02X?}");
        assert_eq!(
            validity == Validity::Valid,
            utf_inf8::validate(&input).is_ok()
        );
        assert_eq!(utf_inf8::validity(&input), validity);
        assert_eq!(Encoding::UtfInf8.validity(&input), validity);
    }
}

#[test]
fn size_hints_bound_every_remaining_count() {
    for input in inputs().iter().filter(|i| i.len() >= 3) {
        let mut inf = utf_inf8::events(input);
        let mut bounded = utf8::events(input);
        loop {
            for (hint, rest) in [
                (inf.size_hint(), inf.clone().count()),
                (bounded.size_hint(), bounded.clone().count()),
            ] {
                assert!(hint.0 <= rest && rest <= hint.1.unwrap(), "{input:02X?}");
            }
            if inf.next().is_none() & bounded.next().is_none() {
                break;
            }
        }
    }
}

#[test]
fn events_located_is_each_encodings_own_located_events() {
    for input in inputs() {
        let big = |events: Vec<corrected_utf8::Located>| -> Vec<_> {
            events
                .into_iter()
                .map(|l| l.map(BigCodePoint::from))
                .collect()
        };
        let expected = [
            big(corrected::events(&input).located().collect()),
            big(utf8::events(&input).located().collect()),
            utf_inf8::events(&input).located().collect(),
        ];
        for (encoding, expected) in Encoding::ALL.into_iter().zip(expected) {
            let located = encoding.events_located(&input);
            let (low, high) = located.size_hint();
            let got: Vec<_> = located.collect();
            assert!(low <= got.len() && got.len() <= high.unwrap());
            assert_eq!(got, expected, "{encoding} {input:02X?}");
        }
    }
}

#[test]
fn pending_lengths_are_u64_bounded_by_max_pending() {
    // One offset type: every pending length compares with `MAX_PENDING` and with
    // offsets without a cast.
    let mut decoder = Encoding::CorrectedUtf8.new_decoder();
    decoder.push(b"\xFC\x84\x80\x80\x80", |_| unreachable!());
    let pending: u64 = decoder.pending_len();
    assert_eq!(pending, corrected_utf8::MAX_PENDING);
    assert_eq!(decoder.offset() - pending, 0);
    let mut events = Vec::new();
    decoder.finish(|l| events.push(l.event));
    assert!(matches!(events[..], [Event::Error(_)]));
}
