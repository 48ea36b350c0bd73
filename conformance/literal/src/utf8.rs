//! Standard UTF-8, literally from Unicode Table 3-7.
//!
//! [`TABLE_3_7`] is "Table 3-7. Well-Formed UTF-8 Byte Sequences" (Unicode 15.0
//! chapter 3, as quoted in *All you need to know about UTF-8 decoding*; docs/sources.md),
//! row by row. A code point is decoded where the input matches a whole row; anywhere
//! else the error span is the maximal subpart (the longest prefix of some row, or one
//! byte), and its kind comes from [`KINDS`] (`docs/semantics.md` §3).

use super::{in_range, Event, Kind};

/// One row of Table 3-7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// First code point of the row.
    pub first_cp: u32,
    /// Last code point of the row.
    pub last_cp: u32,
    /// Inclusive byte range of each byte of the sequence, first byte first.
    pub bytes: &'static [(u8, u8)],
}

/// Unicode Table 3-7, "Well-Formed UTF-8 Byte Sequences", as printed.
#[rustfmt::skip]
pub const TABLE_3_7: [Row; 9] = [
    //    Code Points                                 First Byte    Second Byte   Third Byte    Fourth Byte
    Row { first_cp: 0x0000,   last_cp: 0x007F,   bytes: &[(0x00, 0x7F)] },
    Row { first_cp: 0x0080,   last_cp: 0x07FF,   bytes: &[(0xC2, 0xDF), (0x80, 0xBF)] },
    Row { first_cp: 0x0800,   last_cp: 0x0FFF,   bytes: &[(0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF)] },
    Row { first_cp: 0x1000,   last_cp: 0xCFFF,   bytes: &[(0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first_cp: 0xD000,   last_cp: 0xD7FF,   bytes: &[(0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF)] },
    Row { first_cp: 0xE000,   last_cp: 0xFFFF,   bytes: &[(0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first_cp: 0x10000,  last_cp: 0x3FFFF,  bytes: &[(0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first_cp: 0x40000,  last_cp: 0xFFFFF,  bytes: &[(0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)] },
    Row { first_cp: 0x100000, last_cp: 0x10FFFF, bytes: &[(0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)] },
];

/// One row of the error-kind table: a span starting with a byte in `first` (and, where
/// `second` is given, followed by a byte in it) has this `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindRule {
    /// Range of the span's first byte.
    pub first: (u8, u8),
    /// Range of the byte after it, if the rule looks at it.
    pub second: Option<(u8, u8)>,
    /// The kind.
    pub kind: Kind,
}

/// The kind of an error span, by its first byte and (where given) the byte after it:
/// `docs/semantics.md` §3, row by row. A span matching no row is `truncated`.
#[rustfmt::skip]
pub const KINDS: [KindRule; 8] = [
    KindRule { first: (0x80, 0xBF), second: None,               kind: Kind::UnexpectedContinuation },
    KindRule { first: (0xC0, 0xC1), second: None,               kind: Kind::Overlong },
    KindRule { first: (0xE0, 0xE0), second: Some((0x80, 0x9F)), kind: Kind::Overlong },
    KindRule { first: (0xF0, 0xF0), second: Some((0x80, 0x8F)), kind: Kind::Overlong },
    KindRule { first: (0xED, 0xED), second: Some((0xA0, 0xBF)), kind: Kind::Surrogate },
    KindRule { first: (0xF4, 0xF4), second: Some((0x90, 0xBF)), kind: Kind::OutOfRange },
    KindRule { first: (0xF5, 0xFD), second: None,               kind: Kind::OutOfRange },
    KindRule { first: (0xFE, 0xFF), second: None,               kind: Kind::InvalidByte },
];

/// The code points an encoder refuses (`docs/semantics.md` §3).
#[rustfmt::skip]
pub const ENCODE_ERRORS: [(u32, u32, Kind); 2] = [
    (0x0000_D800, 0x0000_DFFF, Kind::Surrogate),
    (0x0011_0000, 0xFFFF_FFFF, Kind::OutOfRange),
];

/// The tables the functions of this module walk: [`SPEC`], the source's, or a copy with
/// a planted change (a *mutant table*, `conformance/literal/tests/boundaries`). Every
/// function below is [`SPEC`]'s method of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The rows of [`TABLE_3_7`].
    pub table_3_7: [Row; 9],
    /// The error kinds of [`KINDS`].
    pub kinds: [KindRule; 8],
    /// The refused code points of [`ENCODE_ERRORS`].
    pub encode_errors: [(u32, u32, Kind); 2],
}

/// The tables as the sources give them.
pub const SPEC: Tables = Tables {
    table_3_7: TABLE_3_7,
    kinds: KINDS,
    encode_errors: ENCODE_ERRORS,
};

/// How many leading bytes of `input` lie in the row's ranges, position by position.
fn matching_prefix(row: &Row, input: &[u8]) -> usize {
    row.bytes
        .iter()
        .zip(input)
        .take_while(|(r, &b)| in_range(b, **r))
        .count()
}

/// The Table 3-6 bit distribution of a well-formed sequence: the lead's payload (all of
/// an ASCII byte, else the bits below its length marker), then 6 bits per continuation.
pub fn value_of_sequence(seq: &[u8]) -> u32 {
    let Some((&lead, rest)) = seq.split_first() else {
        return 0;
    };
    let mask = match seq.len() {
        1 => 0x7F,
        2 => 0x1F,
        3 => 0x0F,
        _ => 0x07,
    };
    rest.iter().fold(u32::from(lead & mask), |v, &c| {
        (v << 6) | u32::from(c & 0x3F)
    })
}

impl Tables {
    /// The Table 3-7 row that the start of `input` matches completely, if any.
    pub fn row_at(&self, input: &[u8]) -> Option<&Row> {
        self.table_3_7
            .iter()
            .find(|r| input.len() >= r.bytes.len() && matching_prefix(r, input) == r.bytes.len())
    }

    /// The kind of an error span starting at `input[0]`.
    pub fn kind_of_span(&self, input: &[u8]) -> Kind {
        let (Some(&b0), b1) = (input.first(), input.get(1)) else {
            return Kind::Truncated;
        };
        self.kinds
            .iter()
            .find(|rule| {
                in_range(b0, rule.first)
                    && match rule.second {
                        None => true,
                        Some(r) => b1.is_some_and(|&b| in_range(b, r)),
                    }
            })
            .map_or(Kind::Truncated, |rule| rule.kind)
    }

    /// One decoding step at the start of `rest` (non-empty): how many bytes it takes, and
    /// the code point or the error kind.
    pub fn step(&self, rest: &[u8]) -> (usize, Result<u32, Kind>) {
        if let Some(row) = self.row_at(rest) {
            let n = row.bytes.len();
            return (n, Ok(value_of_sequence(&rest[..n])));
        }
        // Maximal subpart: the longest prefix of some well-formed sequence, at least 1
        // byte.
        let length = self
            .table_3_7
            .iter()
            .map(|r| matching_prefix(r, rest))
            .max()
            .unwrap_or(0)
            .max(1);
        (length, Err(self.kind_of_span(rest)))
    }

    /// Decodes `input` into `(offset, length, event)` triples.
    pub fn decode_located(&self, input: &[u8]) -> Vec<(usize, usize, Event)> {
        super::walk(input, |rest| self.step(rest))
    }

    /// Decodes `input` into events (`docs/semantics.md` §1, §3).
    pub fn decode(&self, input: &[u8]) -> Vec<Event> {
        self.decode_located(input)
            .into_iter()
            .map(|(_, _, e)| e)
            .collect()
    }

    /// The first error span of `input` as `(offset, length, kind)`, if any.
    pub fn first_error(&self, input: &[u8]) -> Option<(usize, usize, Kind)> {
        let mut i = 0;
        while i < input.len() {
            match self.step(&input[i..]) {
                (length, Err(kind)) => return Some((i, length, kind)),
                (length, Ok(_)) => i += length,
            }
        }
        None
    }

    /// Encodes one code point with the Table 3-6 bit distribution, in the row of Table
    /// 3-7 that holds it.
    pub fn encode(&self, cp: u32) -> Result<Vec<u8>, Kind> {
        let Some(row) = self
            .table_3_7
            .iter()
            .find(|r| r.first_cp <= cp && cp <= r.last_cp)
        else {
            let kind = self
                .encode_errors
                .iter()
                .find(|(lo, hi, _)| *lo <= cp && cp <= *hi)
                .map_or(Kind::OutOfRange, |(_, _, k)| *k);
            return Err(kind);
        };
        let n = row.bytes.len();
        if n == 1 {
            return Ok(vec![cp as u8]);
        }
        let marker = !(0xFFu8 >> n);
        let mut bytes = vec![marker | (cp >> (6 * (n - 1))) as u8];
        for k in (0..n - 1).rev() {
            bytes.push(0x80 | ((cp >> (6 * k)) & 0x3F) as u8);
        }
        Ok(bytes)
    }

    /// Encodes a string of code points (`docs/semantics.md` §1, "Encoding a string"): the
    /// concatenation of their encodings, or the index in `cps` of the first one that has
    /// none and why; nothing after it is encoded.
    pub fn encode_string(&self, cps: &[u32]) -> Result<Vec<u8>, (usize, Kind)> {
        let mut out = Vec::new();
        for (index, &cp) in cps.iter().enumerate() {
            out.extend(self.encode(cp).map_err(|k| (index, k))?);
        }
        Ok(out)
    }
}

/// The Table 3-7 row that the start of `input` matches completely, if any.
pub fn row_at(input: &[u8]) -> Option<&'static Row> {
    TABLE_3_7
        .iter()
        .find(|r| input.len() >= r.bytes.len() && matching_prefix(r, input) == r.bytes.len())
}

/// The kind of an error span starting at `input[0]`.
pub fn kind_of_span(input: &[u8]) -> Kind {
    SPEC.kind_of_span(input)
}

/// One decoding step at the start of `rest` (non-empty): how many bytes it takes, and
/// the code point or the error kind.
pub fn step(rest: &[u8]) -> (usize, Result<u32, Kind>) {
    SPEC.step(rest)
}

/// Decodes `input` into `(offset, length, event)` triples.
pub fn decode_located(input: &[u8]) -> Vec<(usize, usize, Event)> {
    SPEC.decode_located(input)
}

/// Decodes `input` into events (`docs/semantics.md` §1, §3).
pub fn decode(input: &[u8]) -> Vec<Event> {
    SPEC.decode(input)
}

/// The first error span of `input` as `(offset, length, kind)`, if any.
pub fn first_error(input: &[u8]) -> Option<(usize, usize, Kind)> {
    SPEC.first_error(input)
}

/// Whether `input` is well-formed UTF-8 (no error span).
pub fn is_well_formed(input: &[u8]) -> bool {
    first_error(input).is_none()
}

/// Encodes one code point with the Table 3-6 bit distribution, in the row of Table 3-7
/// that holds it.
pub fn encode(cp: u32) -> Result<Vec<u8>, Kind> {
    SPEC.encode(cp)
}

/// Encodes a string of code points, or gives the first failing one and why.
pub fn encode_all(cps: &[u32]) -> Result<Vec<u8>, (u32, Kind)> {
    SPEC.encode_string(cps).map_err(|(i, k)| (cps[i], k))
}

/// Encodes a string of code points (`docs/semantics.md` §1, "Encoding a string"): their
/// encodings one after the other, or the index of the first that has none and why.
pub fn encode_string(cps: &[u32]) -> Result<Vec<u8>, (usize, Kind)> {
    SPEC.encode_string(cps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// std's validator is an independent implementation of the same maximal subparts.
    fn std_events(mut input: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        let mut base = 0;
        loop {
            match std::str::from_utf8(input) {
                Ok(s) => {
                    out.extend(s.chars().map(|c| Event::CodePoint(c as u32)));
                    return out;
                }
                Err(e) => {
                    let good = e.valid_up_to();
                    let s = std::str::from_utf8(&input[..good]).unwrap();
                    out.extend(s.chars().map(|c| Event::CodePoint(c as u32)));
                    let length = e.error_len().unwrap_or(input.len() - good);
                    out.push(Event::Error {
                        kind: kind_of_span(&input[good..]),
                        offset: base + good,
                        length,
                    });
                    base += good + length;
                    input = &input[good + length..];
                }
            }
        }
    }

    #[test]
    fn agrees_with_std_up_to_three_bytes() {
        for len in 1..=3usize {
            for v in 0..(1u32 << (8 * len)) {
                let bytes: Vec<u8> = (0..len).rev().map(|k| (v >> (8 * k)) as u8).collect();
                assert_eq!(decode(&bytes), std_events(&bytes), "{bytes:02x?}");
                assert_eq!(is_well_formed(&bytes), std::str::from_utf8(&bytes).is_ok());
            }
        }
    }

    #[test]
    fn encode_agrees_with_std() {
        for cp in 0..=0x11_0000u32 {
            let want = char::from_u32(cp).map(|c| c.to_string().into_bytes());
            assert_eq!(encode(cp).ok(), want, "{cp:X}");
        }
        assert_eq!(encode(0xD800), Err(Kind::Surrogate));
        assert_eq!(encode(0xFFFF_FFFF), Err(Kind::OutOfRange));
    }

    #[test]
    fn decoder_demo_examples() {
        use Event::CodePoint as C;
        assert_eq!(decode(&[0x41]), [C(0x41)]);
        assert_eq!(decode(&[0xED, 0x9F, 0x80]), [C(0xD7C0)]);
        assert_eq!(decode(&[0xF4, 0x80, 0x80, 0x8F]), [C(0x10000F)]);
        assert_eq!(decode(&[0xF2, 0x80, 0x9F, 0xA2]), [C(0x807E2)]);
        let e = decode(&[0xED, 0xBF, 0x80]);
        assert!(matches!(
            e[0],
            Event::Error {
                kind: Kind::Surrogate,
                length: 1,
                ..
            }
        ));
    }

    #[test]
    fn strings_encode_to_the_concatenation_or_the_first_failure() {
        assert_eq!(encode_string(&[]), Ok(vec![]));
        assert_eq!(encode_string(&[0x41, 0xE9]), Ok(b"A\xC3\xA9".to_vec()));
        let cps = [0x41, 0x11_0000, 0xDFFF];
        assert_eq!(encode_string(&cps), Err((1, Kind::OutOfRange)));
        assert_eq!(encode_string(&cps[2..]), Err((0, Kind::Surrogate)));
        // A mutant table whose surrogate range starts one late encodes U+D800.
        let mut mutant = SPEC;
        mutant.table_3_7[4].last_cp = 0xD800;
        assert_eq!(mutant.encode_string(&[0xD800]), Ok(vec![0xED, 0xA0, 0x80]));
    }
}
