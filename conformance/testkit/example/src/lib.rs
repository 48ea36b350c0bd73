//! A toy UTF-8 decoder, to show the conformance testkit at work: `tests/conformance.rs`
//! implements `conformance_testkit::Implementation` for it and runs every check.
//!
//! It has a deliberate bug, [`Toy::SURROGATE_BUG`]: it accepts encoded surrogates
//! (`ED A0 80` as U+D800), which Unicode Table 3-7 forbids (after `ED` the second byte
//! is `80`–`9F`). The tests show each check catching it, and the same toy with the bug
//! switched off passing them all.
#![deny(missing_docs)]

/// One piece of the toy's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A decoded value.
    Scalar(u32),
    /// A maximal subpart of an ill-formed sequence (the toy names no kinds).
    Invalid {
        /// Byte offset of its first byte.
        offset: usize,
        /// Number of bytes.
        length: usize,
    },
}

/// The toy decoder.
#[derive(Clone, Copy, Debug)]
pub struct Toy {
    /// Whether it accepts encoded surrogates (the deliberate bug).
    pub surrogate_bug: bool,
}

impl Toy {
    /// The toy as it ships: with the bug.
    pub const SURROGATE_BUG: Toy = Toy {
        surrogate_bug: true,
    };
    /// The toy with the bug fixed.
    pub const HONEST: Toy = Toy {
        surrogate_bug: false,
    };

    /// Decodes `input` per Table 3-7: the scalar values, and each maximal subpart of an
    /// ill-formed sequence as one [`Piece::Invalid`].
    pub fn decode(&self, input: &[u8]) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < input.len() {
            let lead = input[i];
            // Sequence length, and the range of the second byte (Table 3-7).
            let (len, second) = match lead {
                0x00..=0x7F => (1, (0, 0)),
                0xC2..=0xDF => (2, (0x80, 0xBF)),
                0xE0 => (3, (0xA0, 0xBF)),
                0xED if !self.surrogate_bug => (3, (0x80, 0x9F)),
                0xE1..=0xEF => (3, (0x80, 0xBF)),
                0xF0 => (4, (0x90, 0xBF)),
                0xF1..=0xF3 => (4, (0x80, 0xBF)),
                0xF4 => (4, (0x80, 0x8F)),
                _ => (0, (0, 0)),
            };
            let mut n = 1;
            while n < len {
                let (lo, hi) = if n == 1 { second } else { (0x80, 0xBF) };
                match input.get(i + n) {
                    Some(&b) if (lo..=hi).contains(&b) => n += 1,
                    _ => break,
                }
            }
            if n == len {
                let mask = [0x7F, 0x1F, 0x0F, 0x07][len - 1];
                let value = input[i + 1..i + len]
                    .iter()
                    .fold(u32::from(lead & mask), |v, &b| {
                        (v << 6) | u32::from(b & 0x3F)
                    });
                out.push(Piece::Scalar(value));
            } else {
                out.push(Piece::Invalid {
                    offset: i,
                    length: n,
                });
            }
            i += n;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toy_decodes_and_splits_errors_into_maximal_subparts() {
        assert_eq!(
            Toy::HONEST.decode(b"A\xE2\x82\xAC\xF0\x9F"),
            [
                Piece::Scalar(0x41),
                Piece::Scalar(0x20AC),
                Piece::Invalid {
                    offset: 4,
                    length: 2
                }
            ]
        );
        assert_eq!(
            Toy::SURROGATE_BUG.decode(b"\xED\xA0\x80"),
            [Piece::Scalar(0xD800)]
        );
    }
}
