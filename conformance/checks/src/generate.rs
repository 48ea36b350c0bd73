//! Structure-aware inputs for differential testing: byte strings and code points that
//! sit on the edges of the encodings' tables, seeded so that a run can be repeated.
//!
//! A fuzzer that flips random bits rarely builds a complete 6-byte sequence, the last
//! sequence of a table row or a truncated UTF-∞-8 long form; these generators build them
//! on purpose and then mix them:
//!
//! * every boundary of the Corrected UTF-8 table (each row's first and last sequence,
//!   and the code points one step inside and outside), of Unicode Table 3-7 (with each
//!   byte at and just outside its range) and of the UTF-∞-8 forms;
//! * random complete sequences of a random row, and the same cut short (truncations);
//! * `FE`/`FF` runs mixed with continuation bytes, stray continuation bytes, lone lead
//!   bytes, ASCII;
//! * the Corrected UTF-8 magic number and its prefixes, at the start of a document and
//!   inside it, and the characters the document checker reports (`00`, `0D`, U+2028, …);
//! * big UTF-∞-8 codes: long forms of tens to hundreds of hex digits, their length
//!   storage, overlong and truncated variants;
//! * byte-level mutations (flip, insert, delete, duplicate, splice) of any of those, or
//!   of a fuzz corpus file ([`corpus_payload`] reads each target's layout).
//!
//! Randomness is a [`Rng`] (SplitMix64): no dependency, the same seed gives the same
//! inputs on every platform.

use crate::input::{ChunkedInput, CodePoints};
use conformance_literal::utf_inf8::{self, FORMS};
use conformance_literal::{corrected, utf8};
use corrected_utf8_vectors::Encoding;

/// A small seeded pseudo-random generator (SplitMix64): fast, and the same sequence for
/// the same seed everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index into a slice of `len` items (`len` > 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        match (hi - lo).checked_add(1) {
            Some(n) => lo + self.below(n),
            None => self.next_u64(),
        }
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
}

/// The Corrected UTF-8 magic number (`docs/semantics.md` §2.6).
pub const MAGIC: [u8; 8] = corrected::MAGIC;

/// Code points at the edges of `encoding`'s table: each row's first and last value, one
/// below and one above; the gaps' ends; the ends of `u32` (and, for UTF-∞-8, of each
/// fixed form and the first long forms). Within `u32` but for UTF-∞-8; sorted, no
/// repeats.
pub fn edge_codepoints(encoding: Encoding) -> Vec<u128> {
    let mut edges: Vec<u128> = Vec::new();
    let mut around = |v: u128| {
        edges.extend([v.saturating_sub(1), v, v.saturating_add(1)]);
    };
    for e in CodePoints::EDGES {
        around(u128::from(e));
    }
    match encoding {
        Encoding::CorrectedUtf8 => {
            for row in corrected::TABLE {
                around(u128::from(row.first_cp));
                around(u128::from(row.last_cp));
            }
        }
        Encoding::Utf8 => {
            for row in utf8::TABLE_3_7 {
                around(u128::from(row.first_cp));
                around(u128::from(row.last_cp));
            }
        }
        Encoding::UtfInf8 => {
            for form in FORMS {
                for hex in [form.first, form.last] {
                    if let Ok(v) = u128::from_str_radix(hex, 16) {
                        around(v);
                    }
                }
            }
            // NUD 18 (the first long form), 19 and 32 digits.
            for nud in [18u32, 19, 32] {
                around(1u128 << (4 * (nud - 1)));
            }
            around(u128::MAX);
        }
    }
    if encoding != Encoding::UtfInf8 {
        edges.retain(|&v| v <= u128::from(u32::MAX));
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// The bytes of `cp` in `encoding`, or `None` when it has none.
pub fn encode(encoding: Encoding, cp: u128) -> Option<Vec<u8>> {
    match encoding {
        Encoding::CorrectedUtf8 => corrected::encode(u32::try_from(cp).ok()?).ok(),
        Encoding::Utf8 => utf8::encode(u32::try_from(cp).ok()?).ok(),
        Encoding::UtfInf8 => utf_inf8::encode(&utf_inf8::CodePoint::from_u128(cp)).ok(),
    }
}

/// The sequences on the edges of `encoding`'s table: the encodings of
/// [`edge_codepoints`], and (Corrected UTF-8, Table 3-7) each row's first and last byte
/// sequence with one byte moved to the edge of its range or just outside it.
pub fn edge_sequences(encoding: Encoding) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = edge_codepoints(encoding)
        .into_iter()
        .filter_map(|cp| encode(encoding, cp))
        .collect();
    match encoding {
        Encoding::CorrectedUtf8 => {
            for row in corrected::TABLE {
                out.push(row.first.to_vec());
                out.push(row.last.to_vec());
            }
        }
        Encoding::Utf8 => {
            for row in utf8::TABLE_3_7 {
                let lo: Vec<u8> = row.bytes.iter().map(|r| r.0).collect();
                let hi: Vec<u8> = row.bytes.iter().map(|r| r.1).collect();
                for (i, &(a, b)) in row.bytes.iter().enumerate() {
                    for v in [a.wrapping_sub(1), a, b, b.wrapping_add(1)] {
                        for base in [&lo, &hi] {
                            let mut s = base.clone();
                            s[i] = v;
                            out.push(s);
                        }
                    }
                }
            }
        }
        Encoding::UtfInf8 => {
            for form in FORMS {
                // The form's lowest bytes: an overlong code of zero.
                out.push(form.slots.iter().map(|s| s.range.0).collect());
            }
        }
    }
    out
}

/// A random code point for an encode test of `encoding`: mostly near an edge, else
/// anywhere in a row, else any `u32` (any 128-bit value for UTF-∞-8).
pub fn codepoint(rng: &mut Rng, encoding: Encoding) -> u128 {
    let edges = edge_codepoints(encoding);
    match rng.below(4) {
        0 | 1 => {
            let e = *rng.pick(&edges);
            let delta = rng.range(0, 32) as i128 - 16;
            let v = (e as i128).saturating_add(delta).max(0) as u128;
            match encoding {
                Encoding::UtfInf8 => v,
                _ => v.min(u128::from(u32::MAX)),
            }
        }
        2 => row_codepoint(rng, encoding),
        _ => match encoding {
            Encoding::UtfInf8 => {
                let bits = rng.range(1, 128) as u32;
                let v = u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
                v >> (128 - bits)
            }
            _ => u128::from(rng.next_u64() as u32),
        },
    }
}

/// A code point anywhere in a random row of `encoding`'s table.
fn row_codepoint(rng: &mut Rng, encoding: Encoding) -> u128 {
    let (lo, hi) = match encoding {
        Encoding::CorrectedUtf8 => {
            let row = rng.pick(&corrected::TABLE);
            (u64::from(row.first_cp), u64::from(row.last_cp))
        }
        Encoding::Utf8 => {
            let row = rng.pick(&utf8::TABLE_3_7);
            (u64::from(row.first_cp), u64::from(row.last_cp))
        }
        Encoding::UtfInf8 => {
            let form = rng.pick(&FORMS);
            let p = |h: &str| u64::from_str_radix(h, 16).unwrap_or(u64::MAX);
            (p(form.first), p(form.last))
        }
    };
    u128::from(rng.range(lo, hi))
}

/// One piece of an input: a structure of `encoding`, or of another encoding (mixes).
fn piece(rng: &mut Rng, encoding: Encoding, out: &mut Vec<u8>) {
    match rng.below(16) {
        // A table edge.
        0..=2 => out.extend(rng.pick(&edge_sequences(encoding))),
        // A complete sequence of a random row.
        3..=4 => {
            let cp = row_codepoint(rng, encoding);
            out.extend(encode(encoding, cp).unwrap_or_default());
        }
        // A truncated sequence: a complete one cut after its lead byte or later.
        5..=6 => {
            let cp = if rng.chance(1, 2) {
                row_codepoint(rng, encoding)
            } else {
                *rng.pick(&edge_codepoints(encoding))
            };
            let seq = encode(encoding, cp).unwrap_or_default();
            if seq.len() > 1 {
                let keep = rng.range(1, seq.len() as u64 - 1) as usize;
                out.extend(&seq[..keep]);
            } else {
                out.extend(seq);
            }
        }
        // FE/FF runs, with continuation bytes inside.
        7 => {
            for _ in 0..rng.range(1, 6) {
                out.push(if rng.chance(2, 3) {
                    *rng.pick(&[0xFE, 0xFF])
                } else {
                    rng.range(0x80, 0xBF) as u8
                });
            }
        }
        // Stray continuation bytes, lone lead bytes.
        8 => {
            for _ in 0..rng.range(1, 3) {
                out.push(rng.range(0x80, 0xBF) as u8);
            }
        }
        9 => out.push(rng.range(0xC0, 0xFF) as u8),
        // ASCII, and the characters documents report.
        10 => out.push(*rng.pick(b"A z0\n\t\r\0\x7f")),
        11 => out.extend(
            encode(
                encoding,
                *rng.pick(&[0x2028, 0x2029, 0x0D, 0x00, 0x0A, 0x1F]),
            )
            .unwrap_or_default(),
        ),
        // The magic number, whole or a prefix.
        12 => {
            let n = if rng.chance(1, 2) {
                MAGIC.len()
            } else {
                rng.range(1, MAGIC.len() as u64 - 1) as usize
            };
            out.extend(&MAGIC[..n]);
        }
        // A big UTF-∞-8 code, or a random byte.
        13 => out.extend(big_code(rng)),
        14 => out.push(rng.byte()),
        // A piece of another encoding's structure (mixes).
        _ => {
            let other = *rng.pick(&Encoding::ALL);
            if other != encoding {
                piece(rng, other, out);
            } else {
                out.extend(rng.pick(&edge_sequences(encoding)));
            }
        }
    }
}

/// A UTF-∞-8 long-form code of 18 to 300 hex digits, sometimes overlong (a leading
/// zero digit), with a wrong length digit, or cut short.
pub fn big_code(rng: &mut Rng) -> Vec<u8> {
    let most = if rng.chance(1, 4) { 300 } else { 40 };
    let nud = rng.range(18, most) as usize;
    let mut digits: Vec<u8> = (0..nud).map(|_| rng.below(16) as u8).collect();
    if digits[0] == 0 && rng.chance(3, 4) {
        digits[0] = rng.range(1, 15) as u8;
    }
    let mut code = utf_inf8::long_form_bytes(&digits);
    match rng.below(6) {
        0 => {
            let keep = rng.range(1, code.len() as u64 - 1) as usize;
            code.truncate(keep);
        }
        1 => {
            // A length digit or the first storage byte off by one.
            let i = rng.range(1, 3.min(code.len() as u64 - 1)) as usize;
            code[i] = code[i].wrapping_add(if rng.chance(1, 2) { 1 } else { 0xFF });
        }
        _ => {}
    }
    code
}

/// A decode input for `encoding`: 1 to 8 pieces, sometimes mutated afterwards.
pub fn decode_input(rng: &mut Rng, encoding: Encoding) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.range(1, 8) {
        piece(rng, encoding, &mut out);
    }
    if rng.chance(1, 4) {
        mutate(rng, &mut out);
    }
    out
}

/// A Corrected UTF-8 document: usually the magic number first, then pieces (the magic
/// number again inside some of them), often a final newline.
pub fn document(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    if rng.chance(3, 4) {
        out.extend(MAGIC);
    } else if rng.chance(1, 2) {
        out.extend(&MAGIC[..rng.range(1, MAGIC.len() as u64 - 1) as usize]);
    }
    for _ in 0..rng.range(0, 8) {
        if rng.chance(1, 8) {
            out.extend(MAGIC);
        } else {
            piece(rng, Encoding::CorrectedUtf8, &mut out);
        }
    }
    if rng.chance(1, 2) {
        out.push(b'\n');
    }
    if rng.chance(1, 8) {
        mutate(rng, &mut out);
    }
    out
}

/// One to three byte-level mutations of `bytes`: flip a bit, set a byte to an
/// interesting value, insert, delete or duplicate a run, or cut the end.
pub fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    const INTERESTING: [u8; 14] = [
        0x00, 0x0A, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xEF, 0xF0, 0xFE, 0xFF,
    ];
    for _ in 0..rng.range(1, 3) {
        let len = bytes.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.index(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.index(len);
                bytes[i] = *rng.pick(&INTERESTING);
            }
            2 => {
                let i = rng.index(len + 1);
                bytes.insert(i, *rng.pick(&INTERESTING));
            }
            3 if len > 0 => {
                let i = rng.index(len);
                let n = rng.range(1, (len - i).min(4) as u64) as usize;
                bytes.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = rng.index(len);
                let n = rng.range(1, (len - i).min(8) as u64) as usize;
                let run: Vec<u8> = bytes[i..i + n].to_vec();
                let at = rng.index(len + 1);
                bytes.splice(at..at, run);
            }
            5 if len > 1 => bytes.truncate(rng.index(len)),
            _ => bytes.push(rng.byte()),
        }
    }
}

/// What a fuzz corpus file holds, read in its target's layout (`corpus/<target>/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusPayload {
    /// Bytes to decode (or check as a document).
    Bytes(Vec<u8>),
    /// Code points to encode.
    CodePoints(Vec<u32>),
}

/// The payload of a corpus file of fuzz target `target`: the raw bytes (`decode`,
/// `differential_*`), the data after the misalignment byte (`fast_*`) or the limit byte
/// (`utf_inf8_differential_literal`), the data of a chunked layout (`streaming`,
/// `document`, `utf_inf8_streaming`), the code points of `roundtrip`; `None` for a
/// target whose layout is not read here.
pub fn corpus_payload(target: &str, bytes: &[u8]) -> Option<CorpusPayload> {
    let rest = bytes.get(1..).unwrap_or_default();
    let data = match target {
        "decode" | "differential_literal" | "differential_std" => bytes.to_vec(),
        "fast_validate" | "fast_decode" | "fast_transcode" | "utf_inf8_differential_literal" => {
            rest.to_vec()
        }
        "streaming" | "document" => ChunkedInput::from_bytes(bytes).data.to_vec(),
        "utf_inf8_streaming" => ChunkedInput::from_bytes(rest).data.to_vec(),
        "roundtrip" => return Some(CorpusPayload::CodePoints(CodePoints::from_bytes(bytes).0)),
        _ => return None,
    };
    Some(CorpusPayload::Bytes(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50)
                .map(|i| match i % 3 {
                    0 => decode_input(&mut rng, Encoding::CorrectedUtf8),
                    1 => document(&mut rng),
                    _ => codepoint(&mut rng, Encoding::UtfInf8)
                        .to_be_bytes()
                        .to_vec(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn inputs_reach_every_row_and_the_structures() {
        let mut rng = Rng::new(1);
        let inputs: Vec<Vec<u8>> = (0..3000)
            .map(|_| decode_input(&mut rng, Encoding::CorrectedUtf8))
            .collect();
        // Every row's first and last sequence appears somewhere.
        for row in corrected::TABLE {
            for seq in [row.first, row.last] {
                assert!(
                    inputs
                        .iter()
                        .any(|i| i.windows(seq.len()).any(|w| w == seq)),
                    "{seq:02X?}"
                );
            }
        }
        let has = |p: &dyn Fn(&[u8]) -> bool| inputs.iter().any(|i| p(i));
        assert!(has(&|i| i.windows(2).any(|w| w == [0xFE, 0xFF])));
        assert!(has(&|i| i.windows(8).any(|w| w == MAGIC)));
        // A truncated 3-byte sequence followed by ASCII.
        assert!(has(&|i| i.windows(3).any(|w| (0xE0..=0xEF)
            .contains(&w[0])
            && w[1] >= 0x80
            && w[1] < 0xC0
            && w[2] < 0x80)));
        let docs: Vec<Vec<u8>> = (0..200).map(|_| document(&mut rng)).collect();
        assert!(docs.iter().any(|d| d.starts_with(&MAGIC)));
        assert!(docs.iter().any(|d| d[1..].windows(8).any(|w| w == MAGIC)));
    }

    #[test]
    fn edges_cover_the_tables() {
        let e = edge_codepoints(Encoding::CorrectedUtf8);
        for v in [
            0x9F,
            0xA0,
            0xD7FF,
            0xE000,
            0x8421_109F,
            0x8421_10A0,
            0xFFFF_FFFF,
        ] {
            assert!(e.contains(&v), "{v:X}");
        }
        assert!(edge_codepoints(Encoding::UtfInf8).contains(&(1u128 << 68)));
        assert!(edge_sequences(Encoding::Utf8).contains(&vec![0xE0, 0x9F, 0xBF]));
    }

    #[test]
    fn corpus_layouts() {
        assert_eq!(
            corpus_payload("streaming", &ChunkedInput::to_bytes(&[1, 2], b"abc")),
            Some(CorpusPayload::Bytes(b"abc".to_vec()))
        );
        assert_eq!(
            corpus_payload("fast_decode", &[3, 0x41]),
            Some(CorpusPayload::Bytes(vec![0x41]))
        );
        assert_eq!(
            corpus_payload("roundtrip", &CodePoints::to_bytes(&[0x41])),
            Some(CorpusPayload::CodePoints(vec![0x41]))
        );
        assert_eq!(corpus_payload("utf_inf8_roundtrip", &[1]), None);
    }
}
