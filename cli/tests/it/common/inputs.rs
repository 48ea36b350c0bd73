//! Inputs the command tests feed: the UTF-∞-8 draft's examples, and one error of each
//! kind.

/// The UTF-∞-8 draft's examples (UTF-∞-8 draft §4) but the longest, as the codec's tests
/// have them.
#[rustfmt::skip]
pub const DRAFT_EXAMPLES: [(&str, &str); 16] = [
    ("U+0041", "41"),
    ("U+10FFFF", "F4 8F BF BF"),
    ("U+110000", "F4 90 80 80"),
    ("U+7FFFFFFF", "FD BF BF BF BF BF"),
    ("U+80000000", "FE 82 80 80 80 80 80"),
    ("U+FFFFFFFFF", "FE BF BF BF BF BF BF"),
    ("U+1000000000", "FF 80 80 80 80 80 81 80 80 80 80 80 80"),
    ("U+7FFFFFFFFFFFFFFF", "FF 80 87 BF BF BF BF BF BF BF BF BF BF"),
    ("U+8000000000000000", "FF 80 88 80 80 80 80 80 80 80 80 80 80"),
    ("U+7FFFFFFFFFFFFFFFFF", "FF 9F BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+800000000000000000", "FF A0 A0 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+FFFFFFFFFFFFFFFFFF", "FF A0 BF BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+1000000000000000000", "FF A1 80 81 80 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF AF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF BF"),
    ("U+1000000000000000000000000000000000", "FF B4 A1 A0 80 81 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80"),
    ("U+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF B4 A2 A1 AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA AA"),
];

/// Bytes written as spaced hex pairs.
pub fn unhex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|pair| u8::from_str_radix(pair, 16).unwrap())
        .collect()
}

/// Every draft example's bytes, one after another.
pub fn drafts() -> Vec<u8> {
    DRAFT_EXAMPLES.iter().flat_map(|(_, b)| unhex(b)).collect()
}

/// UTF-∞-8 with one error of each kind, in the order of `docs/semantics.md` §4.2.
pub const INF_ERRORS: &[u8] = b"\x80A\xFF\xA0\xA0\x80\n\xC0\xAF\xE0\x9F\xBF\xED\xA0\x80\xFF\xB4\xA0\xFF\xA0\x9F\xFF\xB0\xFF\xA1\x81\xFF\xB4\xB4\xB4\xB4\xB4\xFF";
