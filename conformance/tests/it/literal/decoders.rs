//! The spec-literal decoders against the reference codec on every input of 1 to 3
//! bytes, both encodings: the whole event lists, offsets and lengths included, must be
//! equal. (The fuzz target `differential_literal` does the same on longer inputs.) And
//! the codec's string encoders against every string encode vector, which the literal
//! string encoder computed.

use conformance_literal::{self as literal, Event as LitEvent};
use corrected_utf8::{corrected, utf8, Encoding, Event, Events, Stop};
use std::thread;

type Literal = fn(&[u8]) -> Vec<(usize, usize, LitEvent)>;
type Reference = for<'a> fn(&'a [u8]) -> Events<'a>;

/// The first input (in order) where the two disagree, with both event lists.
fn first_disagreement(len: usize, literal: Literal, reference: Reference) -> Option<String> {
    let total = 1u32 << (8 * len);
    let workers = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8) as u32;
    let results: Vec<Option<(u32, String)>> = thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                s.spawn(move || {
                    let (from, to) = (total / workers * w, if w + 1 == workers { total } else { total / workers * (w + 1) });
                    (from..to).find_map(|v| {
                        let bytes = &v.to_be_bytes()[4 - len..];
                        let lit = literal(bytes);
                        let mut reference_events = reference(bytes).located();
                        let same = lit.iter().all(|&(offset, length, event)| {
                            reference_events.next().is_some_and(|r| {
                                r.offset == offset as u64 && r.length == length as u64 && same_event(r.event, event)
                            })
                        }) && reference_events.next().is_none();
                        (!same).then(|| {
                            let reference: Vec<_> = reference(bytes).located().collect();
                            (v, format!("input {bytes:02x?}\n  literal:   {lit:?}\n  reference: {reference:?}"))
                        })
                    })
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    results
        .into_iter()
        .flatten()
        .min_by_key(|(v, _)| *v)
        .map(|(_, m)| m)
}

fn same_event(reference: Event, literal: LitEvent) -> bool {
    match (reference, literal) {
        (Event::CodePoint(a), LitEvent::CodePoint(b)) => a == b,
        (
            Event::Error(e),
            LitEvent::Error {
                kind,
                offset,
                length,
            },
        ) => {
            e.kind.as_str() == kind.as_str()
                && e.offset == offset as u64
                && e.length == length as u64
        }
        (Event::Reserved(r), LitEvent::Reserved { offset, length }) => {
            r.offset == offset as u64 && r.length == length as u64
        }
        _ => false,
    }
}

fn check_all(literal: Literal, reference: Reference, name: &str) {
    for len in 1..=3 {
        if let Some(message) = first_disagreement(len, literal, reference) {
            panic!("{name}: literal and reference disagree on {len}-byte inputs; the first:\n  {message}");
        }
    }
}

#[test]
fn corrected_utf8_every_input_up_to_3_bytes() {
    check_all(
        literal::corrected::decode_located,
        corrected::events,
        "corrected-utf8",
    );
}

#[test]
fn utf8_every_input_up_to_3_bytes() {
    check_all(literal::utf8::decode_located, utf8::events, "utf-8");
}

/// Where the spec-literal decoder says a strict decode stops: its first event that is
/// not a code point, as the codec's `Stop` (a reserved span is
/// `Stop::Reserved`, never an error kind).
fn literal_stop(events: &[(usize, usize, LitEvent)]) -> Option<(&'static str, u64, u64)> {
    events
        .iter()
        .find_map(|&(offset, length, event)| match event {
            LitEvent::CodePoint(_) => None,
            LitEvent::Error { kind, .. } => Some((kind.as_str(), offset as u64, length as u64)),
            LitEvent::Reserved { .. } => Some(("reserved span", offset as u64, length as u64)),
        })
}

fn codec_stop(stop: &Stop) -> (&'static str, u64, u64) {
    match stop {
        Stop::Error(e) => (e.kind.as_str(), e.offset, e.length),
        Stop::Reserved(r) => ("reserved span", r.offset, r.length),
    }
}

#[test]
fn corrected_utf8_strict_stops_are_the_literal_first_span() {
    // Every input of up to 2 bytes, and every 3-byte input after a lead of each class.
    let mut inputs: Vec<Vec<u8>> = (0..=0xFFFFu32)
        .flat_map(|v| [vec![v as u8], v.to_be_bytes()[2..].to_vec()])
        .collect();
    for lead in [0x41, 0x80, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE, 0xFF] {
        inputs.extend((0..=0xFFFFu32).map(|v| [&[lead][..], &v.to_be_bytes()[2..]].concat()));
    }
    for input in &inputs {
        let expected = literal_stop(&literal::corrected::decode_located(input));
        let validated = corrected::validate(input).err();
        let decoded = corrected::decode(input).err();
        let handle = Encoding::CorrectedUtf8.decode(input).err();
        let first = corrected::events(input).find_map(|e| e.stop());
        for (name, got) in [
            ("validate", validated),
            ("decode", decoded),
            ("Encoding::decode", handle),
            ("Event::stop", first),
        ] {
            assert_eq!(
                got.as_ref().map(codec_stop),
                expected,
                "{name} {input:02X?}"
            );
        }
    }
}

/// The codec's string encoders against every `encode-string` vector of Corrected UTF-8
/// and UTF-8 (whose expected answers the spec-literal `encode_string` computed):
/// `corrected::encode` and `utf8::encode` over the list, and Corrected UTF-8's fast
/// `encode_from_utf32` on every instruction set this CPU runs, which must also leave the
/// encoding of the code points before a failure in its output. The codec's error names
/// the failing code point; its first occurrence in the list is the index (an earlier
/// occurrence would have failed first).
#[test]
fn string_encoders_pass_every_encode_string_vector() {
    use corrected_utf8::corrected::fast::{self, InstructionSet};
    use corrected_utf8::EncodeError;
    use corrected_utf8_vectors::model::{from_hex, parse_codepoint, AnyVectorFile};

    type Answer = Result<Vec<u8>, (usize, String)>;
    let answer = |cps: &[u32], r: Result<Vec<u8>, EncodeError>| -> Answer {
        r.map_err(|e| {
            let index = cps
                .iter()
                .position(|&c| c == e.codepoint)
                .unwrap_or(usize::MAX);
            (index, e.kind.as_str().to_string())
        })
    };
    let mut checked = 0;
    let mut bad = Vec::new();
    for path in [
        "corrected-utf8/encode-string.json",
        "utf-8/encode-string.json",
    ] {
        let text = corrected_utf8_vectors::get(path).expect("embedded");
        let Ok(AnyVectorFile::EncodeString(file)) = AnyVectorFile::from_json(text) else {
            panic!("{path}: not an encode-string file");
        };
        for t in file.tests() {
            let cps: Vec<u32> = t
                .codepoints
                .iter()
                .map(|c| u32::try_from(parse_codepoint(c).expect("U+")).expect("32 bits"))
                .collect();
            let want: Answer = match (&t.bytes, &t.error, t.index) {
                (Some(b), _, _) => Ok(from_hex(b).expect("hex")),
                (None, Some(e), Some(i)) => Err((i as usize, e.clone())),
                _ => panic!("{path}#{}: malformed", t.tc_id),
            };
            let mut answers: Vec<(String, Answer)> = Vec::new();
            if path.starts_with("utf-8") {
                answers.push((
                    "utf8::encode".into(),
                    answer(&cps, utf8::encode(cps.iter().copied())),
                ));
            } else {
                answers.push((
                    "corrected::encode".into(),
                    answer(&cps, corrected::encode(cps.iter().copied())),
                ));
                for set in InstructionSet::available() {
                    let mut out = Vec::new();
                    let r = fast::encode_from_utf32_with(set, &cps, &mut out);
                    let got = answer(&cps, r.map(|()| out.clone()));
                    // Before a failure, `out` holds the code points before it, encoded.
                    if let Err((i, _)) = got {
                        let before = corrected::encode(cps[..i.min(cps.len())].iter().copied());
                        if before.as_ref().ok() != Some(&out) {
                            bad.push(format!(
                                "{path}#{}: fast {} left {} bytes before the failure",
                                t.tc_id,
                                set.name(),
                                out.len()
                            ));
                        }
                    }
                    answers.push((format!("fast::encode_from_utf32 ({})", set.name()), got));
                }
            }
            for (who, got) in answers {
                checked += 1;
                if got != want {
                    bad.push(format!(
                        "{path}#{}: {who} {got:02x?}, vector {want:02x?}",
                        t.tc_id
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked >= 200, "{checked}");
}
