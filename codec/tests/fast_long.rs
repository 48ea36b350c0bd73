//! The fast paths against the reference on texts longer than the stretches the AVX2
//! decoder and transcoders validate and convert at a time (16 KiB): a problem at every
//! position around the first two stretch ends, where a stretch that did not end at a
//! sequence boundary, or a conversion that did not go on from where the last one
//! stopped, would show. (The fuzz targets' inputs are 1 KiB at most.)

// The checks `fast.rs` and `fast_long.rs` share (not a test binary of its own).
#[path = "fast_checks/mod.rs"]
mod fast_checks;

use corrected_utf8::corrected;
use fast_checks::{check_all, implementations};

/// 40 KB of text of one kind: ASCII, Latin, CJK, emoji, or every length of 1 to 4
/// bytes (the Corrected UTF-8 of code points that UTF-8 has too, so that the twin the
/// checks transcode from is the same text).
fn long_text(kind: usize) -> Vec<u8> {
    let sample: &str = [
        "plain ASCII text\n",
        "Größe naïve été ",
        "大小中文字\n",
        "🦀😀🎉 ",
        "aé€😀\n",
    ][kind];
    let cps: Vec<u32> = sample.chars().map(u32::from).cycle().take(16_000).collect();
    let mut bytes = corrected::encode(cps).unwrap();
    bytes.truncate(40_000);
    // Whole sequences only: drop a sequence the cut left incomplete.
    while corrected::validate(&bytes).is_err() {
        bytes.pop();
    }
    bytes
}

#[test]
#[cfg_attr(miri, ignore = "too slow under Miri")]
fn a_problem_at_every_position_around_the_stretch_ends() {
    let imps = implementations();
    // A stray continuation byte; a lead whose sequence is cut; a code point above
    // U+10FFFF (valid Corrected UTF-8, no UTF-8); a reserved byte.
    let problems: [&[u8]; 4] = [b"\x80", b"\xE4\xB8", b"\xF8\x88\x80\x80\x80", b"\xFE"];
    for kind in 0..5 {
        let text = long_text(kind);
        check_all(&imps, &text);
        for end in [16_384, 32_768] {
            for at in (end - 80..end + 16).step_by(3) {
                for problem in problems {
                    // Inserted at the sequence boundary at or after `at`.
                    let at = (at..text.len())
                        .find(|&i| (text[i] as i8) >= -64)
                        .unwrap_or(text.len());
                    let mut bytes = text.clone();
                    bytes.splice(at..at, problem.iter().copied());
                    check_all(&imps, &bytes);
                }
            }
        }
    }
}

/// Texts of 256 KiB and more, from which the AVX2 decoder asks for the next stretch's
/// lines while it decodes one (a hint that must change nothing): each kind whole, and
/// with a problem near its end, where the prefetches point past the input.
#[test]
#[cfg_attr(miri, ignore = "too slow under Miri")]
fn texts_from_256_kib_on() {
    let imps = implementations();
    for kind in 0..5 {
        let one = long_text(kind);
        let text = one.repeat((256 << 10) / one.len() + 1);
        check_all(&imps, &text);
        let mut bytes = text.clone();
        let at = (bytes.len() - 100..bytes.len())
            .find(|&i| (bytes[i] as i8) >= -64)
            .unwrap();
        bytes.insert(at, 0x80);
        check_all(&imps, &bytes);
    }
}
