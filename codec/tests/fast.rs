//! The fast paths against the reference, on every implementation this machine runs:
//! every input of up to 3 bytes, sequences cut or broken at every position near the
//! vector block boundaries, random inputs at every misalignment, every code point.
//!
//! Speed is measured by the `corrected-utf8-bench` crate (`codec/bench/`: a criterion bench
//! and the `throughput` example), never here.

// The checks `fast.rs` and `fast_long.rs` share (not a test binary of its own).
#[path = "fast_checks/mod.rs"]
mod fast_checks;

use corrected_utf8::corrected::fast::{self, InstructionSet};
use corrected_utf8::{corrected, utf8, ReservedSpan, Stop};
use fast_checks::{check_all, check_stop, check_transcode_all, implementations};

/// A small deterministic generator (xorshift64*), so that failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn the_portable_implementation_is_always_there_and_detect_picks_the_best() {
    let imps = implementations();
    assert_eq!(imps[0], InstructionSet::Portable);
    let all: Vec<_> = InstructionSet::available().collect();
    assert_eq!(InstructionSet::detect(), *all.last().unwrap());
    // Forcing one this CPU cannot run falls back to the portable one, with the same
    // results.
    for imp in InstructionSet::ALL {
        for bytes in [&b"\xC0"[..], b"\xFF"] {
            assert_eq!(fast::validate_with(imp, bytes), corrected::validate(bytes));
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn every_input_of_up_to_3_bytes() {
    let imps = implementations();
    check_all(&imps, b"");
    for a in 0..=255u8 {
        check_all(&imps, &[a]);
        for b in 0..=255u8 {
            check_all(&imps, &[a, b]);
        }
    }
    // Three bytes: validation on all 16M, the decoders on the inputs that start with a
    // lead (the rest fail at once, through the same path).
    let mut bytes = [0u8; 3];
    for v in 0..1u32 << 24 {
        bytes.copy_from_slice(&v.to_be_bytes()[1..]);
        let expected = corrected::validate(&bytes);
        for &imp in &imps {
            assert_eq!(
                fast::validate_with(imp, &bytes),
                expected,
                "{}: {bytes:02X?}",
                imp.name()
            );
        }
        if v & 0xFF_0000 >= 0xC0_0000 && v & 0x7F == 0x3F {
            check_all(&imps, &bytes);
        }
    }
}

/// A valid sequence of each length (1 to 6 bytes).
const SEQUENCES: [&[u8]; 6] = [
    b"A",
    b"\xC3\xA9",
    b"\xE4\xB8\xAD",
    b"\xF0\x9F\xA6\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xFD\xBF\xBF\xBF\xBF\xBF",
];

/// Fillers: all ASCII, all 3-byte, mixed lengths.
fn filler(kind: usize, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 6);
    let mut i = 0;
    while out.len() < len {
        let seq = match kind {
            0 => SEQUENCES[0],
            1 => SEQUENCES[2],
            _ => SEQUENCES[i % 6],
        };
        if out.len() + seq.len() > len {
            out.resize(len, b'a');
        } else {
            out.extend_from_slice(seq);
        }
        i += 1;
    }
    out
}

/// Block boundaries of the 8-byte words, the 16-, 32- and 64-byte vectors, and the
/// 256-byte steps (which start at 64).
const BOUNDARIES: [usize; 11] = [8, 15, 16, 31, 32, 63, 64, 128, 256, 320, 576];

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn every_sequence_whole_cut_or_broken_near_every_block_boundary() {
    let imps = implementations();
    // What follows: nothing, one byte, a sequence, or enough text (ASCII or not) that
    // the vector loops run on past the boundary.
    let follows: Vec<Vec<u8>> = vec![
        vec![],
        b"z".to_vec(),
        b"\xC3\xA9".to_vec(),
        b"\x80".to_vec(),
        b"\xFE".to_vec(),
        filler(0, 69),
        filler(0, 600),
        filler(1, 600),
    ];
    for kind in 0..3 {
        for &boundary in &BOUNDARIES {
            for at in boundary.saturating_sub(7)..boundary + 7 {
                let prefix = filler(kind, at);
                for seq in SEQUENCES {
                    // Whole, cut after each byte (followed by ASCII, by another lead, by
                    // the end), and with an extra continuation byte.
                    for cut in 1..=seq.len() {
                        for follow in &follows {
                            let mut bytes = prefix.clone();
                            bytes.extend_from_slice(&seq[..cut]);
                            bytes.extend_from_slice(follow);
                            check_all(&imps, &bytes);
                        }
                    }
                }
                // A lone continuation and reserved runs of every length up to 70,
                // crossing blocks, ended by a continuation, a lead, or the end.
                for run in [1, 2, 5, 17, 33, 64, 70] {
                    for (first, fill) in
                        [(0x80u8, 0x80u8), (0xFE, 0xFE), (0xFF, 0x80), (0xFE, 0xBF)]
                    {
                        let mut bytes = prefix.clone();
                        bytes.push(first);
                        bytes.resize(at + run, fill);
                        check_all(&imps, &bytes);
                        bytes.extend_from_slice(b"\xE4\xB8\xAD tail");
                        check_all(&imps, &bytes);
                    }
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn an_error_after_long_runs_of_ascii_and_of_text() {
    let imps = implementations();
    for kind in 0..3 {
        for len in [255, 256, 257, 511, 512, 513, 1000, 1024, 4096] {
            let text = filler(kind, len);
            check_all(&imps, &text);
            for bad in [&b"\x80"[..], b"\xFF", b"\xE4\xB8", b"\xFD\xBF\xBF\xBF\xBF"] {
                let mut bytes = text.clone();
                bytes.extend_from_slice(bad);
                check_all(&imps, &bytes);
                bytes.extend_from_slice(&text);
                check_all(&imps, &bytes);
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn a_reserved_span_stops_every_entry_point_with_stop_reserved() {
    let imps = implementations();
    let mut seen = 0;
    // Text of each kind up to near each block boundary, then a reserved run (`FE`/`FF`
    // and continuations or more `FE`/`FF`), then what ends it: a lead, an error, the end.
    for kind in 0..3 {
        for &boundary in &BOUNDARIES {
            for at in [boundary.saturating_sub(3), boundary, boundary + 2] {
                let prefix = filler(kind, at);
                for run in [&b"\xFE"[..], b"\xFF\x80\xBF", b"\xFE\xFF\xFE", &[0xFF; 70]] {
                    for end in [&b""[..], b"A", b"\xC0", b"\xE4\xB8\xAD tail", b"\x80"] {
                        let bytes = [&prefix[..], run, end].concat();
                        // The span: the run, and a trailing stray continuation with it.
                        let length = run.len() + usize::from(end == b"\x80");
                        let span = ReservedSpan {
                            offset: at as u64,
                            length: length as u64,
                        };
                        check_all(&imps, &bytes);
                        assert_eq!(
                            check_stop(&bytes),
                            Some(Stop::Reserved(span)),
                            "{bytes:02X?}"
                        );
                        for &imp in &imps {
                            let stop = fast::validate_with(imp, &bytes).unwrap_err();
                            assert_eq!(stop.reserved(), Some(&span), "{}", imp.name());
                            let stop = fast::decode_to_vec_with(imp, &bytes).unwrap_err();
                            assert_eq!(stop, Stop::Reserved(span), "{}", imp.name());
                        }
                        seen += 1;
                    }
                }
            }
        }
    }
    assert_eq!(seen, 3 * BOUNDARIES.len() * 3 * 4 * 5);
}

/// Random inputs biased towards the interesting bytes: mostly valid sequences, some
/// cut, some stray continuation or reserved bytes.
fn random_input(rng: &mut Rng, len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 6);
    let error_rate = [0, 2, 50, 1000][rng.below(4) as usize];
    while out.len() < len {
        let r = rng.below(1000);
        if r < error_rate / 4 {
            out.push([0x80, 0xBF, 0xFE, 0xFF][rng.below(4) as usize]);
        } else if r < error_rate / 2 {
            let seq = SEQUENCES[1 + rng.below(5) as usize];
            out.extend_from_slice(&seq[..1 + rng.below(seq.len() as u64 - 1) as usize]);
        } else if r < error_rate {
            out.push(rng.next() as u8);
        } else {
            let n = [0, 0, 0, 1, 1, 2, 2, 3, 4, 5][rng.below(10) as usize];
            let seq = SEQUENCES[n];
            out.push(
                seq[0] & !((0xFFu16 >> (n + 2)) as u8) | (rng.next() as u8 & (0x7F >> (n + 1))),
            );
            for _ in 1..seq.len() {
                out.push(0x80 | (rng.next() as u8 & 0x3F));
            }
        }
    }
    out.truncate(len);
    out
}

#[test]
fn random_inputs_at_every_misalignment() {
    let imps = implementations();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut backing = vec![0u8; 1024 + 64];
    // Fewer under Miri, which checks every read and write of the safe and SSE2 paths.
    let rounds = if cfg!(miri) { 40 } else { 3000 };
    for round in 0..rounds {
        let len = match round % 3 {
            0 => rng.below(70) as usize,
            1 => rng.below(300) as usize,
            _ => rng.below(1024) as usize,
        };
        let input = random_input(&mut rng, len);
        let shift = round % 64;
        backing[shift..shift + len].copy_from_slice(&input);
        check_all(&imps, &backing[shift..shift + len]);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn every_single_byte_change_of_long_texts() {
    let imps = implementations();
    for kind in 0..3 {
        let text = filler(kind, 700);
        for at in 0..text.len() {
            for b in [0x41, 0x80, 0xBF, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC, 0xFE] {
                let mut bytes = text.clone();
                bytes[at] = b;
                check_all(&imps, &bytes);
            }
        }
    }
}

#[test]
fn random_bytes() {
    let imps = implementations();
    let mut rng = Rng(42);
    for _ in 0..if cfg!(miri) { 20 } else { 3000 } {
        let len = rng.below(200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        check_all(&imps, &bytes);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn a_too_short_output_panics_and_an_exact_one_does_not() {
    for imp in implementations() {
        let text = filler(2, 500);
        let n = fast::utf32_len(&text);
        let mut out = vec![0; n];
        assert_eq!(fast::decode_to_utf32_with(imp, &text, &mut out), Ok(n));
        let short = std::panic::catch_unwind(move || {
            let mut out = vec![0; n - 1];
            let _ = fast::decode_to_utf32_with(imp, &text, &mut out);
        });
        assert!(short.is_err(), "{}", imp.name());
        // An invalid input reports its error whatever the output's size, even one too
        // short for the valid text before the error.
        assert!(fast::decode_to_utf32_with(imp, b"\xFFabc", &mut []).is_err());
        for kind in 0..3 {
            for bad in [&b"\x80"[..], b"\xFE", b"\xE0\x80"] {
                let mut text = filler(kind, 300);
                text.extend_from_slice(bad);
                let want = corrected::decode(&text).map(|cps| cps.len());
                assert!(want.is_err());
                let n = fast::utf32_len(&text);
                for len in [0, 1, 15, 16, 17, 31, 32, 33, n / 2, n - 1, n] {
                    let mut out = vec![0; len];
                    let got = fast::decode_to_utf32_with(imp, &text, &mut out);
                    assert_eq!(
                        got,
                        want,
                        "{}: filler {kind}, {bad:02X?}, room {len}",
                        imp.name()
                    );
                }
            }
        }
    }
}

fn check_encode(imp: InstructionSet, cps: &[u32]) {
    let expected = corrected::encode(cps.iter().copied());
    let mut out = b"prefix".to_vec();
    let got = fast::encode_from_utf32_with(imp, cps, &mut out);
    match expected {
        Ok(bytes) => {
            assert_eq!(got, Ok(()), "{}: encode({cps:X?})", imp.name());
            assert_eq!(&out[6..], bytes, "{}: encode({cps:X?})", imp.name());
        }
        Err(e) => {
            assert_eq!(got, Err(e), "{}: encode({cps:X?})", imp.name());
            // What was before the failing code point is encoded.
            let before = cps.iter().position(|&c| c == e.codepoint).unwrap();
            let prefix = corrected::encode(cps[..before].iter().copied()).unwrap();
            assert_eq!(&out[6..], prefix, "{}: encode({cps:X?})", imp.name());
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn encoding_every_code_point_below_u_220000_and_around_every_boundary() {
    let imps = implementations();
    for &imp in &imps {
        // In groups of 16 consecutive values (one vector): groups with an error fail at
        // their first error, the others round-trip.
        let all: Vec<u32> = (0..0x22_0000).collect();
        for group in all.chunks(16 * 64) {
            check_encode(imp, group);
        }
        let valid: Vec<u32> = all
            .into_iter()
            .filter(|&c| corrected::encoded_len(c).is_ok())
            .collect();
        check_encode(imp, &valid);
        let mut out = Vec::new();
        fast::encode_from_utf32_with(imp, &valid, &mut out).unwrap();
        assert_eq!(fast::decode_to_vec_with(imp, &out), Ok(valid.clone()));
    }
    // Long runs of random encodable code points of every length, so that every vector
    // group holds several classes.
    let mut rng = Rng(11);
    for round in 0..300 {
        let len = rng.below(600) as usize;
        let max_len = 1 + round % 6;
        let cps: Vec<u32> = (0..len)
            .map(|_| loop {
                let cp = match rng.below(max_len as u64) {
                    0 => rng.below(0x80) as u32,
                    1 => 0xA0 + rng.below(0x800) as u32,
                    2 => 0x8A0 + rng.below(0x1_0000) as u32,
                    3 => 0x1_10A0 + rng.below(0x20_0000) as u32,
                    4 => 0x21_10A0 + rng.below(0x400_0000) as u32,
                    _ => 0x421_10A0 + rng.below(0x8000_0000) as u32,
                };
                if corrected::encoded_len(cp).is_ok() {
                    break cp;
                }
            })
            .collect();
        for &imp in &imps {
            check_encode(imp, &cps);
        }
    }
    let boundaries = [
        0u32,
        0x7F,
        0x80,
        0x9F,
        0xA0,
        0x89F,
        0x8A0,
        0xD7FF,
        0xD800,
        0xDFFF,
        0xE000,
        0x1_109F,
        0x1_10A0,
        0x10_FFFF,
        0x11_0000,
        0x21_109F,
        0x21_10A0,
        0x421_109F,
        0x421_10A0,
        0x8421_109F,
        0x8421_10A0,
        u32::MAX,
    ];
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let len = rng.below(40) as usize;
        let cps: Vec<u32> = (0..len)
            .map(|_| {
                let b = boundaries[rng.below(boundaries.len() as u64) as usize];
                match rng.below(4) {
                    0 => b,
                    1 => b.wrapping_add(rng.below(3) as u32).wrapping_sub(1),
                    2 => rng.below(0x80) as u32,
                    _ => rng.next() as u32 >> rng.below(32),
                }
            })
            .collect();
        for &imp in &imps {
            check_encode(imp, &cps);
        }
    }
}

/// A random code point whose encoding has `len` bytes (1 to 6), often one at the edge of
/// its row (where the offsets change).
fn codepoint_of_len(rng: &mut Rng, len: usize) -> u32 {
    let (first, last) = match len {
        1 => (0, 0x7F),
        2 => (0xA0, 0x89F),
        // Both rows of the 3-byte class, the surrogates excluded below.
        3 => (0x8A0, 0x1_109F),
        4 => (0x1_10A0, 0x21_109F),
        5 => (0x21_10A0, 0x421_109F),
        _ => (0x421_10A0, 0x8421_109F),
    };
    loop {
        let cp = match rng.below(4) {
            0 => first + rng.below(3) as u32,
            1 => last - rng.below(3) as u32,
            2 if len == 3 => [0xD7FF, 0xE000, 0xD7FE, 0xE001][rng.below(4) as usize],
            _ => first + rng.below(u64::from(last - first) + 1) as u32,
        };
        if corrected::encoded_len(cp).is_ok() {
            return cp;
        }
    }
}

/// Decodes the encoding of `cps` with every implementation, into a buffer of exactly
/// the right size, and encodes `cps` back; `what` says which test input it is.
fn check_round_trip(imps: &[InstructionSet], cps: &[u32], what: &dyn Fn() -> String) {
    let bytes = corrected::encode(cps.iter().copied()).unwrap();
    for &imp in imps {
        let mut out = vec![u32::MAX; cps.len()];
        let written = fast::decode_to_utf32_with(imp, &bytes, &mut out);
        if written != Ok(cps.len()) || out != cps {
            panic!("{}: decode {}: {bytes:02X?}", imp.name(), what());
        }
        let mut again = Vec::new();
        fast::encode_from_utf32_with(imp, cps, &mut again).unwrap();
        if again != bytes {
            panic!("{}: encode {}: {cps:X?}", imp.name(), what());
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn every_mix_of_sequence_lengths_at_every_position_of_a_vector_step() {
    let imps = implementations();
    let mut rng = Rng(3);
    // Every combination of 5 sequences of 1 to 4 bytes and of 4 of 1 to 6 bytes after
    // 0 to 16 code points of 1 or 2 bytes (so that the mix starts at every position of
    // a 16-byte window and of an 8-code-point block), and of 8 of 1 to 4 bytes after two
    // of those prefixes; followed by enough text that the vector loops run on past it.
    for (count, lengths) in [(5u32, 4usize), (4, 6), (8, 4)] {
        for combination in 0..lengths.pow(count) {
            let lens: Vec<usize> = (0..count)
                .map(|k| 1 + combination / lengths.pow(k) % lengths)
                .collect();
            let shifts = if count == 8 {
                vec![combination % 17, combination / 17 % 17]
            } else {
                (0..=16).collect()
            };
            for shift in shifts {
                let before = 1 + shift % 2;
                let mut cps: Vec<u32> = (0..shift)
                    .map(|_| codepoint_of_len(&mut rng, before))
                    .collect();
                cps.extend(lens.iter().map(|&len| codepoint_of_len(&mut rng, len)));
                let after = 1 + combination % 4;
                cps.extend((0..40).map(|_| codepoint_of_len(&mut rng, after)));
                check_round_trip(&imps, &cps, &|| format!("lengths {lens:?} after {shift}"));
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn runs_of_3_and_4_byte_sequences_with_ascii_bytes_at_random_places() {
    let imps = implementations();
    let mut rng = Rng(11);
    // Text like CJK with newlines (or emoji with spaces): no ASCII byte in a step, one
    // at any of its sequences, two or more; steps after steps of every kind, at every
    // alignment (the AVX2 decoder's run step and the one it takes after it).
    for len in [3, 4] {
        for one_in in [2, 5, 9, 40, 200] {
            for shift in 0..4 {
                let mut cps: Vec<u32> = (0..shift).map(|_| codepoint_of_len(&mut rng, 1)).collect();
                cps.extend((0..1500).map(|_| {
                    let ascii = rng.below(one_in) == 0;
                    codepoint_of_len(&mut rng, if ascii { 1 } else { len })
                }));
                check_round_trip(&imps, &cps, &|| {
                    format!("{len}-byte run, ASCII 1 in {one_in}, after {shift}")
                });
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn runs_of_one_length_with_a_long_sequence_or_another_length_anywhere() {
    let imps = implementations();
    let mut rng = Rng(5);
    // Runs of one length (the ASCII, 2-byte and 3-byte fast cases), one code point of
    // another length (5 and 6 bytes: between vector blocks) at every position, and every
    // tail length.
    for len in 1..=4 {
        for other in 1..=6 {
            for at in 0..100 {
                let mut cps: Vec<u32> = (0..100).map(|_| codepoint_of_len(&mut rng, len)).collect();
                cps[at] = codepoint_of_len(&mut rng, other);
                check_round_trip(&imps, &cps, &|| format!("{other} bytes at {at} of {len}"));
            }
        }
        for n in 0..=120 {
            let cps: Vec<u32> = (0..n).map(|_| codepoint_of_len(&mut rng, len)).collect();
            check_round_trip(&imps, &cps, &|| format!("{n} of {len} bytes"));
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "too slow under Miri; random_inputs_at_every_misalignment runs there"
)]
fn an_encoding_error_or_a_long_form_at_every_lane_after_every_prefix() {
    let imps = implementations();
    let mut rng = Rng(13);
    let unusual = [
        0x80,
        0x9F,
        0xD800,
        0xDFFF,
        0x8421_10A0,
        u32::MAX,
        0x21_10A0,
        0x8421_109F,
        0x1_0000,
        0x8A0,
    ];
    // 1 to 4 bytes, then 5: text of 3-byte code points below U+10000 with a newline one
    // in 12 (CJK), and 6: ASCII and 2-byte code points below U+800 (Latin), which the
    // AVX2 encoder takes 16 at a time in loops of their own (the 3-byte class reaches
    // U+1109F and the 2-byte one U+89F, and one such code point in 16 sends the step
    // elsewhere); long enough for several of their steps.
    for len in 1..=6 {
        for n in 0..=if len >= 5 { 72 } else { 40 } {
            let cps: Vec<u32> = (0..n)
                .map(|_| match len {
                    5 => cjk_codepoint(&mut rng),
                    6 => latin_codepoint(&mut rng),
                    _ => codepoint_of_len(&mut rng, len),
                })
                .collect();
            check_encode_all(&imps, &cps);
            for at in 0..n {
                for &cp in &unusual {
                    let mut cps = cps.clone();
                    cps[at] = cp;
                    check_encode_all(&imps, &cps);
                    // And a second one later, which an error before it hides.
                    if at + 3 < n {
                        cps[at + 3] = 0xD900;
                        check_encode_all(&imps, &cps);
                    }
                }
            }
        }
    }
}

/// A code point of CJK text: 3 bytes and below U+10000, often at the edge of a row or of
/// the surrogates, or a newline one in 12.
fn cjk_codepoint(rng: &mut Rng) -> u32 {
    match rng.below(12) {
        0 => 0x0A,
        1 => [0x8A0, 0xD7FF, 0xE000, 0xFFFF][rng.below(4) as usize],
        _ => 0x4E00 + rng.below(0x5200) as u32,
    }
}

/// A code point of Latin text: ASCII half the time, else 2 bytes and below U+800, often
/// at the edge of a row or of that range.
fn latin_codepoint(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0..=3 => 0x20 + rng.below(0x5F) as u32,
        4 => [0x7F, 0xA0, 0x7FF][rng.below(3) as usize],
        _ => 0xC0 + rng.below(0xC0) as u32,
    }
}

fn check_encode_all(imps: &[InstructionSet], cps: &[u32]) {
    for &imp in imps {
        check_encode(imp, cps);
    }
}

/// Long valid text in both encodings (every UTF-8 length, Corrected UTF-8 1 to 4 bytes)
/// with, at every position of the first 300 bytes, a code point without an encoding in
/// the other (above U+10FFFF; a C1 control) or a sequence that is not valid UTF-8
/// (overlong, surrogate, above U+10FFFF, a byte that never occurs), then more text:
/// the transcoders' vector paths must stop exactly there, with the reference's error.
#[test]
#[cfg_attr(miri, ignore = "too slow under Miri")]
fn transcoders_stop_at_every_problem_at_every_position() {
    let imps = implementations();
    let cps: Vec<u32> = "aé€😀 Größe 大小 \u{110A0}\u{10FFFF}\u{E000} naïve\n"
        .chars()
        .map(u32::from)
        .collect();
    let text: Vec<u32> = cps.iter().copied().cycle().take(400).collect();
    let corrected_text = corrected::encode(text.iter().copied()).unwrap();
    let utf8_text = utf8::encode(text.iter().copied()).unwrap();
    let corrected_bad: [&[u8]; 5] = [
        &corrected::encode([0x11_0000]).unwrap(),
        &corrected::encode([0x21_109F]).unwrap(),
        &corrected::encode([0x8421_109F]).unwrap(),
        b"\xF0\x80\x80",
        b"\xFE",
    ];
    let utf8_bad: [&[u8]; 9] = [
        b"\xC2\x80",
        b"\xC2\x9F",
        b"\xC0\xAF",
        b"\xE0\x80\xAF",
        b"\xED\xA0\x80",
        b"\xF0\x80\x80\xAF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xE4\xB8",
    ];
    for (text, bad) in [
        (&corrected_text, &corrected_bad[..]),
        (&utf8_text, &utf8_bad[..]),
    ] {
        for at in 0..300 {
            // Cut at a sequence boundary.
            let at = (at..).find(|&i| text[i] & 0xC0 != 0x80).unwrap();
            for b in bad {
                let bytes = [&text[..at], b, &text[at..]].concat();
                check_transcode_all(&imps, &bytes);
                check_transcode_all(&imps, &bytes[..at + b.len()]);
            }
        }
    }
}

/// Runs of one kind of text, each at the transcoders' vector layouts (Latin: 1- and
/// 2-byte sequences, converted in place; CJK: 8 three-byte sequences in 24 bytes; emoji:
/// 8 four-byte ones in 32; a mix of every length, gathered into lanes), in both
/// encodings, with at every position of its first and last 96 bytes a sequence that changes length
/// between the encodings, one that has no encoding in the other, or a byte that is not
/// valid; the transcoders must give the references' output and stop.
#[test]
#[cfg_attr(miri, ignore = "too slow under Miri")]
fn transcoder_runs_with_a_change_of_length_or_a_problem_at_every_position() {
    let imps = implementations();
    let mut rng = Rng(29);
    let mut pick = |ranges: &[(u32, u32)]| {
        let (lo, hi) = ranges[rng.below(ranges.len() as u64) as usize];
        lo + rng.below(u64::from(hi - lo) + 1) as u32
    };
    let ascii = (0x20, 0x7E);
    // The ends of each row and of each lead's range in both encodings. The first run
    // is converted in place from Corrected UTF-8 (leads up to DC: U+07DF; a carry from
    // continuation A0, U+00C0, on), the second not (lead DD).
    let runs: [&[(u32, u32)]; 6] = [
        &[
            ascii,
            (0xA0, 0xA0),
            (0xA0, 0x11F),
            (0xBF, 0xC0),
            (0x7A0, 0x7DF),
            (0xC0, 0x17F),
        ],
        &[ascii, (0x7E0, 0x7FF), (0xA0, 0x7FF)],
        &[
            (0x8A0, 0x8A0),
            (0x4E00, 0x9FFF),
            (0xD7FF, 0xD7FF),
            (0xE000, 0xFFFF),
            (0xE000, 0xE000),
            (0xFFFF, 0xFFFF),
        ],
        &[(0x110A0, 0x110A0), (0x1F300, 0x1F64F), (0x10FFFF, 0x10FFFF)],
        &[
            ascii,
            (0xA0, 0x7FF),
            (0x800, 0xD7FF),
            (0xE000, 0xFFFF),
            (0x1_0000, 0x10_FFFF),
        ],
        &[ascii, (0xC0, 0x17F), (0x4E00, 0x9FFF)],
    ];
    // Bytes that are not valid in either encoding or in UTF-8 only (overlong,
    // surrogate, above U+10FFFF: each lead's limits of Table 3-7).
    let inserted: [&[u8]; 13] = [
        b"\x80",
        b"\xFE",
        b"\xC3",
        b"\xE4\xB8",
        b"\xF0\x9F\x98",
        b"\xFF",
        b"\xC1\xBF",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xF0\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xF8\x88\x80\x80\x80",
    ];
    // Code points that change length (U+0800 to U+089F: 2 bytes in Corrected UTF-8, 3 in
    // UTF-8; U+10000 to U+1109F: 3 and 4) or have no encoding in the other.
    let codepoints = [
        0x800, 0x89F, 0x1_0000, 0x1_109F, 0x80, 0x9F, 0x11_0000, 0x1F_FFFF,
    ];
    for run in runs {
        let text: Vec<u32> = (0..160).map(|_| pick(run)).collect();
        let corrected_text = corrected::encode(text.iter().copied()).unwrap();
        let utf8_text = utf8::encode(text.iter().copied()).unwrap();
        for (text, encode) in [
            (&corrected_text, corrected::encode as fn(_) -> _),
            (&utf8_text, |cps| utf8::encode(cps)),
        ] {
            // The first 96 bytes, and the last 96 (where the vector loops end).
            for at in (0..96).chain(text.len() - 96..text.len()) {
                // At a sequence boundary.
                let Some(at) = (at..text.len()).find(|&i| text[i] & 0xC0 != 0x80) else {
                    continue;
                };
                let encoded: Vec<Vec<u8>> = codepoints
                    .iter()
                    .filter_map(|&cp| encode([cp].into_iter()).ok())
                    .collect();
                for b in inserted
                    .iter()
                    .copied()
                    .chain(encoded.iter().map(|e| &e[..]))
                {
                    let bytes = [&text[..at], b, &text[at..]].concat();
                    check_transcode_all(&imps, &bytes);
                    // And cut after it: the vector loops' last steps, and their tails.
                    check_transcode_all(&imps, &bytes[..at + b.len()]);
                }
            }
        }
    }
}

/// Every code point below U+110A0 that both encodings have, in order, after 0 to 3 ASCII
/// bytes and mixed with ASCII and Latin text, transcoded both ways: the in-place step
/// converts each byte by its neighbours, so every lead, carry and borrow (the surrogate
/// gap's edge at Corrected UTF-8 `EC BD A0`, U+E000) must meet the references', and it
/// must leave every sequence that changes length to the other steps (U+0800 to U+089F,
/// from `E0 A0 80` in UTF-8 and `DD A0` in Corrected UTF-8; U+10000 to U+1109F, from
/// `EE BD A0` in Corrected UTF-8).
#[test]
#[cfg_attr(miri, ignore = "too slow under Miri")]
fn every_code_point_below_u_110a0_transcoded_among_ascii_and_latin() {
    let imps = implementations();
    let both = |cp: &u32| !(0x80..0xA0).contains(cp) && !(0xD800..0xE000).contains(cp);
    let all: Vec<u32> = (0..0x1_10A0).filter(both).collect();
    let mut rng = Rng(31);
    for prefix in 0..4 {
        let mut text: Vec<u32> = vec![u32::from(b'a'); prefix];
        text.extend(&all);
        let mut mixed: Vec<u32> = vec![u32::from(b'a'); prefix];
        for &cp in &all {
            mixed.push(cp);
            match rng.below(8) {
                0 => mixed.push(u32::from(b' ')),
                1 => mixed.push(0xE9),
                _ => {}
            }
        }
        for cps in [&text, &mixed] {
            check_transcode_all(&imps, &corrected::encode(cps.iter().copied()).unwrap());
            check_transcode_all(&imps, &utf8::encode(cps.iter().copied()).unwrap());
        }
    }
    // Each row's edges at every place in a 64-byte block (the AVX-512 step converts the
    // sequence that a block cuts by its code point), among CJK text.
    let edges = [
        0xA0, 0xBF, 0xC0, 0x7DF, 0x7E0, 0x7FF, 0x800, 0x89F, 0x8A0, 0x8BF, 0x8C0, 0xD7FF, 0xE000,
        0xE03F, 0xE040, 0xFF5F, 0xFF60, 0xFFFF, 0x1_0000, 0x1_109F,
    ];
    for cp in edges {
        for at in 0..140 {
            let mut cps = vec![u32::from(b'a'); at];
            cps.push(cp);
            cps.extend((0..120).map(|k| 0x4E00 + k * 97));
            check_transcode_all(&imps, &corrected::encode(cps.iter().copied()).unwrap());
            check_transcode_all(&imps, &utf8::encode(cps.iter().copied()).unwrap());
        }
    }
    // And UTF-8's 2- and 3-byte forms that are not valid (overlong, surrogates) there.
    let cjk = utf8::encode((0..120).map(|k| 0x4E00 + k * 97)).unwrap();
    for bad in [
        &b"\xC1\xBF"[..],
        b"\xE0\x80\x80",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xED\xBF\xBF",
    ] {
        for at in 0..140 {
            check_transcode_all(&imps, &[&b"a".repeat(at)[..], bad, &cjk].concat());
        }
    }
}
