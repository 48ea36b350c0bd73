//! Deterministic benchmark texts (no downloads), shared by `benches/throughput.rs` and
//! `examples/throughput.rs`.
//!
//! Each class is one kind of text in two encodings: Corrected UTF-8 (its code points
//! through `corrected::encode`) and UTF-8 (the same code points; for `mixed`, whose
//! 5- and 6-byte sequences are above U+10FFFF and have no UTF-8, a comparable text
//! with every UTF-8 length equally often). `random` is random bytes in both.

use corrected_utf8::corrected;

/// The input classes, in report order.
pub const CLASSES: [&str; 6] = ["ascii", "latin", "cjk", "emoji", "mixed", "random"];

/// One text in both encodings.
pub struct Text {
    /// Code points of the Corrected UTF-8 text (empty for `random`).
    pub codepoints: Vec<u32>,
    /// The Corrected UTF-8 bytes.
    pub corrected: Vec<u8>,
    /// Code points of the UTF-8 text (the same as `codepoints` except for `mixed`).
    pub utf8_codepoints: Vec<u32>,
    /// The UTF-8 bytes (valid except for `random`).
    pub utf8: Vec<u8>,
    /// The Corrected UTF-8 encoding of `utf8_codepoints`, what the transcoders convert
    /// to and from `utf8` (the same as `corrected` except for `mixed`, whose 5- and
    /// 6-byte sequences have no UTF-8).
    pub transcodable: Vec<u8>,
}

/// xorshift64*: the same text on every machine and run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * u64::from(n)) >> 32) as u32
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }
}

const WORDS: [&str; 24] = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "which",
    "from",
    "encoding",
    "character",
];

fn ascii_char(rng: &mut Rng, line: &mut u32) -> u32 {
    // Words, spaces, punctuation and a newline about every 70 characters.
    *line += 1;
    if *line > 70 && rng.below(8) == 0 {
        *line = 0;
        return u32::from(b'\n');
    }
    match rng.below(6) {
        0 => u32::from(b' '),
        1 => u32::from(b".,;:!?'\"()-0123456789"[rng.below(21) as usize]),
        _ => u32::from(b'a') + rng.below(26),
    }
}

/// The next code point of `class` (a Corrected UTF-8 text).
fn next_codepoint(class: &str, rng: &mut Rng, line: &mut u32) -> u32 {
    match class {
        "ascii" => {
            let w = WORDS[rng.below(WORDS.len() as u32) as usize];
            // Mostly words; this keeps ASCII text realistic without a word buffer.
            if rng.below(3) == 0 {
                u32::from(w.as_bytes()[rng.below(w.len() as u32) as usize])
            } else {
                ascii_char(rng, line)
            }
        }
        // 80% ASCII, 20% accented Latin letters (U+00C0–U+017F, 2 bytes in both).
        "latin" => {
            if rng.below(5) == 0 {
                rng.range(0xC0, 0x17F)
            } else {
                ascii_char(rng, line)
            }
        }
        // Ideographs with CJK punctuation and a newline now and then (3 bytes in both).
        "cjk" => match rng.below(40) {
            0 => u32::from(b'\n'),
            1 | 2 => [0x3001, 0x3002][rng.below(2) as usize],
            _ => rng.range(0x4E00, 0x9FFF),
        },
        // Emoji (4 bytes in both) with a space now and then.
        "emoji" => match rng.below(10) {
            0 => u32::from(b' '),
            _ => match rng.below(2) {
                0 => rng.range(0x1F300, 0x1F64F),
                _ => rng.range(0x1F900, 0x1F9FF),
            },
        },
        // Every Corrected UTF-8 length, 1 to 6 bytes, equally often.
        "mixed" => match rng.below(6) {
            0 => rng.range(0x20, 0x7E),
            1 => rng.range(0xA0, 0x89F),
            2 => rng.range(0x8A0, 0xD7FF),
            3 => rng.range(0x1_10A0, 0x21_109F),
            4 => rng.range(0x21_10A0, 0x421_109F),
            _ => rng.range(0x421_10A0, 0x8421_109F),
        },
        _ => unreachable!("class {class}"),
    }
}

/// For `mixed`: a UTF-8 text with every UTF-8 length, 1 to 4 bytes, equally often.
fn next_utf8_mixed(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => rng.range(0x20, 0x7E),
        1 => rng.range(0xA0, 0x7FF),
        2 => rng.range(0x800, 0xD7FF),
        _ => rng.range(0x1_0000, 0x10_FFFF),
    }
}

/// Code points from `next` until their encoding (of `len(cp)` bytes each) reaches
/// `size` bytes; the last ones are ASCII to hit `size` exactly.
fn fill(size: usize, len: impl Fn(u32) -> usize, mut next: impl FnMut() -> u32) -> Vec<u32> {
    let mut cps = Vec::new();
    let mut bytes = 0;
    while bytes < size {
        let cp = next();
        let n = len(cp);
        let cp = if bytes + n > size {
            u32::from(b' ')
        } else {
            cp
        };
        bytes += len(cp);
        cps.push(cp);
    }
    cps
}

/// A text of `class`, `size` bytes in each encoding, the `seed`-th of its kind.
pub fn make(class: &str, size: usize, seed: u64) -> Text {
    let mut rng =
        Rng(0x9E37_79B9_7F4A_7C15 ^ (seed.wrapping_add(1)).wrapping_mul(0xD1B5_4A32_D192_ED03));
    if class == "random" {
        let bytes: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
        return Text {
            codepoints: Vec::new(),
            corrected: bytes.clone(),
            utf8_codepoints: Vec::new(),
            utf8: bytes.clone(),
            transcodable: bytes,
        };
    }
    let corrected_len = |cp: u32| corrected::encoded_len(cp).expect("encodable");
    let utf8_len = |cp: u32| char::from_u32(cp).expect("scalar").len_utf8();
    let mut line = 0;
    let codepoints = fill(size, corrected_len, || {
        next_codepoint(class, &mut rng, &mut line)
    });
    let corrected = corrected::encode(codepoints.iter().copied()).expect("encodable");
    let utf8_codepoints = if class == "mixed" {
        fill(size, utf8_len, || next_utf8_mixed(&mut rng))
    } else {
        codepoints.clone()
    };
    let utf8: String = utf8_codepoints
        .iter()
        .map(|&c| char::from_u32(c).unwrap())
        .collect();
    debug_assert_eq!(corrected.len(), size);
    let transcodable = if class == "mixed" {
        corrected::encode(utf8_codepoints.iter().copied()).expect("no C1 control")
    } else {
        corrected.clone()
    };
    Text {
        transcodable,
        codepoints,
        corrected,
        utf8_codepoints,
        utf8: utf8.into_bytes(),
    }
}
