//! The spec-literal UTF-∞-8 code (`conformance_literal::utf_inf8`) against the reference
//! codec (`corrected_utf8::utf_inf8`): whole event lists, with offsets and lengths, on
//! every input of 1 to 3 bytes, on every 4-byte input after `FF A0`, `FF A1`, `FF A2`
//! and `FF B4` (the three paddings and the two-digit length), under small limits, and
//! on every vector in `vectors/utf-inf-8/`; encoding on every vector code point, and the
//! codec's string encoder on every `encode-string.json` vector.
//!
//! A disagreement is reported with the shortest input that shows it; which side is
//! right is then decided from `docs/semantics.md` §4, not from either implementation.

use conformance::vectors::default_dir;
use conformance::vectors::model::{from_hex, AnyVectorFile};
use conformance_literal::hex;
use conformance_literal::utf_inf8::{self as lit, CodePoint};
use corrected_utf8::{utf_inf8 as reference, BigCodePoint, Event};

/// An event as `(offset, length, "U+…" or kind)`, comparable across the two.
type Flat = (u64, u64, String);

fn literal_events(bytes: &[u8], limit: usize) -> Vec<Flat> {
    lit::decode_located(bytes, limit)
        .into_iter()
        .map(|(offset, length, e)| {
            let what = match e {
                lit::Event::CodePoint(cp) => cp.to_string(),
                lit::Event::Error { kind, .. } => kind.as_str().to_string(),
            };
            (offset as u64, length as u64, what)
        })
        .collect()
}

fn reference_events(bytes: &[u8], limit: Option<u32>) -> Vec<Flat> {
    let mut events = match limit {
        Some(l) => reference::events_with_limit(bytes, l),
        None => reference::events(bytes),
    };
    let mut out = Vec::new();
    while let Some(located) = events.next_located() {
        let what = match located.event {
            Event::CodePoint(cp) => cp.to_string(),
            Event::Error(e) => e.kind.as_str().to_string(),
            Event::Reserved(r) => r.to_string(),
        };
        out.push((located.offset, located.length, what));
    }
    out
}

/// Compares every input `inputs` yields (shortest first), and fails with the first few
/// disagreements.
fn compare_all(what: &str, limit: Option<u32>, inputs: impl Iterator<Item = Vec<u8>>) {
    let lit_limit = limit.map_or(lit::DEFAULT_LIMIT, |l| l as usize);
    let mut bad = Vec::new();
    let mut count = 0u64;
    let mut n = 0u64;
    for input in inputs {
        n += 1;
        let (l, r) = (
            literal_events(&input, lit_limit),
            reference_events(&input, limit),
        );
        if l != r {
            count += 1;
            if bad.len() < 8 {
                bad.push(format!(
                    "  {}\n    literal:   {l:?}\n    reference: {r:?}",
                    hex(&input, " ")
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: {count} of {n} inputs disagree (limit {lit_limit}); first ones:\n{}",
        bad.join("\n")
    );
}

/// Every input of `len` bytes that starts with `prefix`.
fn all_with_prefix(prefix: &[u8], len: usize) -> impl Iterator<Item = Vec<u8>> + '_ {
    let free = len - prefix.len();
    (0..1u64 << (8 * free)).map(move |v| {
        let mut input = prefix.to_vec();
        input.extend((0..free).rev().map(|k| (v >> (8 * k)) as u8));
        input
    })
}

#[test]
fn default_limits_agree() {
    assert_eq!(
        lit::DEFAULT_LIMIT as u64,
        u64::from(reference::DEFAULT_MAX_CODE_LEN)
    );
}

#[test]
fn every_input_of_one_to_three_bytes() {
    let inputs = (1..=3).flat_map(|len| all_with_prefix(&[], len));
    compare_all("1..=3 bytes", None, inputs);
}

#[test]
fn every_four_byte_long_form_start() {
    for prefix in [[0xFF, 0xA0], [0xFF, 0xA1], [0xFF, 0xA2], [0xFF, 0xB4]] {
        compare_all(
            &format!("{} + 2 bytes", hex(&prefix, " ")),
            None,
            all_with_prefix(&prefix, 4),
        );
    }
}

/// Limits from 1 up. A limit of 0 is left out: read literally, §4.3 makes every code,
/// ASCII included, `limit-exceeded` under it (the literal module does so), while the
/// reference decodes ASCII whatever the limit; §4.3 does not say whether 0 is a limit.
#[test]
fn small_limits() {
    for limit in 1..=15u32 {
        let inputs = (1..=2).flat_map(|len| all_with_prefix(&[], len));
        compare_all("1..=2 bytes", Some(limit), inputs);
    }
    // Long codes around short limits: the draft's 14- and 28-byte examples.
    for (_, bytes, _) in lit::DRAFT_EXAMPLES {
        for limit in 1..=bytes.len() as u32 + 1 {
            compare_all(
                &format!("draft example {}", hex(bytes, " ")),
                Some(limit),
                std::iter::once(bytes.to_vec()),
            );
        }
    }
}

#[test]
fn every_vector() {
    let dir = default_dir().join("utf-inf-8");
    let mut files = 0;
    for name in ["decode.json", "encode.json", "encode-string.json"] {
        let text = std::fs::read_to_string(dir.join(name)).expect("vector file");
        files += 1;
        match AnyVectorFile::from_json(&text).expect("parses") {
            AnyVectorFile::Decode(f) => {
                let inputs = f.tests().map(|t| from_hex(&t.input).expect("hex"));
                compare_all("decode.json", None, inputs);
            }
            AnyVectorFile::Encode(f) => {
                let mut bad = Vec::new();
                for t in f.tests() {
                    let mine: CodePoint = t.codepoint.parse().expect("literal parses");
                    let theirs: BigCodePoint = t.codepoint.parse().expect("codec parses");
                    let l = lit::encode(&mine).map_err(|k| k.as_str().to_string());
                    let r = reference::encode([&theirs]).map_err(|e| e.kind.as_str().to_string());
                    if l != r {
                        bad.push(format!(
                            "  {}: literal {l:02X?}, reference {r:02X?}",
                            t.codepoint
                        ));
                    }
                }
                assert!(bad.is_empty(), "encode.json:\n{}", bad.join("\n"));
            }
            AnyVectorFile::EncodeString(f) => {
                // The codec's string encoder (`utf_inf8::encode` over a list) against the
                // vector: the bytes, or the first failure's index (the codec names the
                // code point; its first occurrence is the first failure's index, since an
                // earlier occurrence would have failed first) and kind.
                let mut bad = Vec::new();
                for t in f.tests() {
                    let theirs: Vec<BigCodePoint> = t
                        .codepoints
                        .iter()
                        .map(|c| c.parse().expect("codec parses"))
                        .collect();
                    let got = match reference::encode(&theirs) {
                        Ok(bytes) => Ok(hex(&bytes, "")),
                        Err(e) => {
                            let failed = BigCodePoint::from(e.codepoint);
                            let index = theirs.iter().position(|c| *c == failed);
                            Err((index.map(|i| i as u64), e.kind.as_str().to_string()))
                        }
                    };
                    let want = match (&t.bytes, &t.error) {
                        (Some(b), _) => Ok(b.clone()),
                        (None, e) => Err((t.index, e.clone().unwrap_or_default())),
                    };
                    if got != want {
                        bad.push(format!(
                            "  tcId {}: reference {got:?}, vector {want:?}",
                            t.tc_id
                        ));
                    }
                }
                assert!(bad.is_empty(), "encode-string.json:\n{}", bad.join("\n"));
                assert!(f.tests().count() >= 100);
            }
            _ => panic!("{name}: no document vectors for utf-inf-8"),
        }
    }
    assert_eq!(files, 3);
}
