//! Structured fuzz inputs: what the raw bytes of a target mean, and back.
//!
//! Each format is a plain byte layout (so that a corpus file can be written from a test
//! vector by [`to_bytes`](ChunkedInput::to_bytes)) and an [`Arbitrary`] implementation
//! reading that layout (so that any byte string is a valid input).

use arbitrary::{Arbitrary, Result, Unstructured};

/// Bytes and a way to cut them into chunks: the input of the `streaming` and
/// `document` targets.
///
/// Layout: one byte `n` (its low 5 bits count the chunk sizes that follow), `n` chunk
/// sizes (each byte mod 8; 0 is an empty chunk), then the data. The data is pushed in
/// chunks of those sizes in turn, and whatever is left in one last chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkedInput<'a> {
    /// Chunk sizes, each 0..=7.
    pub sizes: &'a [u8],
    /// The stream's bytes.
    pub data: &'a [u8],
}

impl<'a> ChunkedInput<'a> {
    /// Largest chunk size a size byte can ask for.
    pub const MAX_CHUNK: usize = 7;

    /// Reads the layout from any bytes (a short input is a shorter list of sizes).
    pub fn from_bytes(bytes: &'a [u8]) -> Self {
        let Some((&n, rest)) = bytes.split_first() else {
            return ChunkedInput {
                sizes: &[],
                data: &[],
            };
        };
        let n = usize::from(n & 0x1F).min(rest.len());
        let (sizes, data) = rest.split_at(n);
        ChunkedInput { sizes, data }
    }

    /// The layout of `data` pushed in the given chunk sizes (each taken mod 8, at most
    /// 31 of them) and then the rest at once.
    pub fn to_bytes(sizes: &[u8], data: &[u8]) -> Vec<u8> {
        let sizes = &sizes[..sizes.len().min(31)];
        let mut out = Vec::with_capacity(1 + sizes.len() + data.len());
        out.push(sizes.len() as u8);
        out.extend(sizes.iter().map(|s| s % 8));
        out.extend_from_slice(data);
        out
    }

    /// The chunks, in order: one per size (an empty one for size 0, a short one at the
    /// end of the data), then the rest of the data if any.
    pub fn chunks(&self) -> Chunks<'a> {
        Chunks {
            sizes: self.sizes.iter(),
            rest: self.data,
        }
    }
}

/// Iterator over the chunks of a [`ChunkedInput`].
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    sizes: std::slice::Iter<'a, u8>,
    rest: &'a [u8],
}

impl<'a> Iterator for Chunks<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let n = match self.sizes.next() {
            Some(&s) => (usize::from(s) % (ChunkedInput::MAX_CHUNK + 1)).min(self.rest.len()),
            None if self.rest.is_empty() => return None,
            None => self.rest.len(),
        };
        let (chunk, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(chunk)
    }
}

impl<'a> Arbitrary<'a> for ChunkedInput<'a> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let n = usize::from(u8::arbitrary(u)? & 0x1F);
        let sizes = u.bytes(n.min(u.len()))?;
        let len = u.arbitrary_len::<u8>()?;
        let data = u.bytes(len)?;
        Ok(ChunkedInput { sizes, data })
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
        let bytes = u.take_rest();
        Ok(ChunkedInput::from_bytes(bytes))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, None)
    }
}

/// Code points for the `roundtrip` target, biased towards the edges of the encodings'
/// tables.
///
/// Layout: records of 5 bytes `[s, b0, b1, b2, b3]` (a shorter tail is ignored). An
/// even `s` gives the little-endian `u32` `b0..b3`; an odd `s` gives
/// [`CodePoints::EDGES`]`[(s >> 1) % len]` plus the signed 16-bit `b0 b1` (wrapping).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodePoints(pub Vec<u32>);

impl CodePoints {
    /// Both encodings' boundaries (SPEC §2.2, §2.3 and Table 3-7): first and last values
    /// of each row and gap, and the ends of `u32`.
    #[rustfmt::skip]
    pub const EDGES: [u32; 26] = [
        0x0000_0000, 0x0000_007F, 0x0000_0080, 0x0000_009F, 0x0000_00A0, 0x0000_07FF,
        0x0000_0800, 0x0000_089F, 0x0000_08A0, 0x0000_D7FF, 0x0000_D800, 0x0000_DFFF,
        0x0000_E000, 0x0000_FFFF, 0x0001_0000, 0x0001_109F, 0x0001_10A0, 0x0010_FFFF,
        0x0011_0000, 0x0021_109F, 0x0021_10A0, 0x0421_109F, 0x0421_10A0, 0x8421_109F,
        0x8421_10A0, 0xFFFF_FFFF,
    ];

    /// Reads the layout from any bytes.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        CodePoints(
            bytes
                .chunks_exact(5)
                .map(|r| {
                    if r[0] & 1 == 0 {
                        u32::from_le_bytes([r[1], r[2], r[3], r[4]])
                    } else {
                        let edge = Self::EDGES[usize::from(r[0] >> 1) % Self::EDGES.len()];
                        let delta = i16::from_le_bytes([r[1], r[2]]);
                        edge.wrapping_add_signed(i32::from(delta))
                    }
                })
                .collect(),
        )
    }

    /// The layout of exactly these code points.
    pub fn to_bytes(cps: &[u32]) -> Vec<u8> {
        cps.iter()
            .flat_map(|cp| {
                let [a, b, c, d] = cp.to_le_bytes();
                [0, a, b, c, d]
            })
            .collect()
    }
}

impl<'a> Arbitrary<'a> for CodePoints {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let n = u.arbitrary_len::<[u8; 5]>()?;
        Ok(CodePoints::from_bytes(u.bytes(n * 5)?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
        Ok(CodePoints::from_bytes(u.take_rest()))
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (0, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_round_trips_and_covers_the_data() {
        let bytes = ChunkedInput::to_bytes(&[1, 0, 3, 9], b"abcdefgh");
        let input = ChunkedInput::from_bytes(&bytes);
        assert_eq!(input.sizes, &[1, 0, 3, 1]);
        assert_eq!(input.data, b"abcdefgh");
        let chunks: Vec<&[u8]> = input.chunks().collect();
        assert_eq!(chunks, [&b"a"[..], b"", b"bcd", b"e", b"fgh"]);
        // Sizes past the end give empty chunks; nothing is left for a last one.
        let bytes = ChunkedInput::to_bytes(&[7, 7], b"abc");
        let chunks: Vec<&[u8]> = ChunkedInput::from_bytes(&bytes).chunks().collect();
        assert_eq!(chunks, [&b"abc"[..], b""]);
        assert_eq!(ChunkedInput::from_bytes(&[]).chunks().count(), 0);
        // A count larger than the input: every byte is a size.
        let input = ChunkedInput::from_bytes(&[0x1F, 1, 2]);
        assert_eq!((input.sizes, input.data), (&[1u8, 2][..], &[][..]));
    }

    #[test]
    fn code_points_round_trip_and_reach_the_edges() {
        let cps = [0, 0x7F, 0x8421_109F, u32::MAX];
        assert_eq!(CodePoints::from_bytes(&CodePoints::to_bytes(&cps)).0, cps);
        // s = 2 * 9 + 1: EDGES[9] = U+D7FF, plus 1.
        assert_eq!(CodePoints::from_bytes(&[19, 1, 0, 0, 0]).0, [0xD800]);
        assert_eq!(
            CodePoints::from_bytes(&[1, 0xFF, 0xFF, 0, 0, 9]).0,
            [u32::MAX]
        );
    }
}
