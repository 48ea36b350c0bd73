//! Encoding a list of code points explained (`docs/semantics.md` §1, "Encoding a
//! string"): each code point's bytes, explained as [`decode`] explains
//! them, up to the first code point that has no encoding, which ends the encoding.

use crate::codepoint;
use crate::decode::{self, Segment, SegmentEvent};
use corrected_utf8::{corrected, utf8, utf_inf8, BigCodePoint, Encoding, ErrorKind};

/// One code point encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedCodePoint {
    /// The code point.
    pub codepoint: BigCodePoint,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its bytes decoded and explained, as one segment at their offset in the output.
    pub segment: Segment,
}

/// The first code point with no encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// Its index in the list, from 0.
    pub index: usize,
    /// The code point.
    pub codepoint: BigCodePoint,
    /// Why it has no encoding.
    pub kind: ErrorKind,
    /// `U+D800 has no utf-8 encoding: surrogate`.
    pub message: String,
}

/// A list of code points encoded, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The encoding.
    pub encoding: Encoding,
    /// The code points encoded, in order, up to the first that has no encoding.
    pub items: Vec<EncodedCodePoint>,
    /// The first code point that has no encoding, if one has none: the encoding fails
    /// there, and nothing after it is encoded.
    pub failure: Option<Unencodable>,
}

impl Encoded {
    /// The bytes of the code points encoded (all of them when there is no failure).
    pub fn bytes(&self) -> Vec<u8> {
        self.items
            .iter()
            .flat_map(|i| i.bytes.iter().copied())
            .collect()
    }

    /// `"valid"` when every code point has an encoding, else `"invalid"`, as the vectors
    /// write it.
    pub fn result(&self) -> &'static str {
        if self.failure.is_none() {
            "valid"
        } else {
            "invalid"
        }
    }
}

/// The bytes of one code point in `encoding`, or why it has none.
pub fn encode_one(cp: &BigCodePoint, encoding: Encoding) -> Result<Vec<u8>, ErrorKind> {
    let mut out = Vec::new();
    match encoding {
        Encoding::UtfInf8 => utf_inf8::encode_into(cp, &mut out).map_err(|e| e.kind)?,
        Encoding::CorrectedUtf8 => {
            // Beyond 32 bits is beyond the last code point.
            let cp = cp.to_u32().ok_or(ErrorKind::OutOfRange)?;
            let mut buf = [0; corrected::MAX_LEN];
            out.extend_from_slice(corrected::encode_into(cp, &mut buf).map_err(|e| e.kind)?);
        }
        Encoding::Utf8 => {
            let cp = cp.to_u32().ok_or(ErrorKind::OutOfRange)?;
            let mut buf = [0; utf8::MAX_LEN];
            out.extend_from_slice(utf8::encode_into(cp, &mut buf).map_err(|e| e.kind)?);
        }
    }
    Ok(out)
}

/// Encodes `codepoints` in `encoding`, explaining each code point's bytes, up to the
/// first code point that has no encoding.
pub fn explain(codepoints: &[BigCodePoint], encoding: Encoding) -> Encoded {
    let mut items = Vec::new();
    let mut offset = 0;
    for (index, cp) in codepoints.iter().enumerate() {
        let bytes = match encode_one(cp, encoding) {
            Ok(bytes) => bytes,
            Err(kind) => {
                return Encoded {
                    encoding,
                    items,
                    failure: Some(Unencodable {
                        index,
                        codepoint: cp.clone(),
                        kind,
                        message: codepoint::no_encoding(cp, encoding, kind),
                    }),
                }
            }
        };
        // A UTF-∞-8 code may be longer than the decoder's default limit: its own
        // length is the limit here.
        let limit = u32::try_from(bytes.len())
            .unwrap_or(u32::MAX)
            .max(decode::DEFAULT_MAX_CODE_LEN);
        let mut segments = decode::explain(&bytes, encoding, Some(limit));
        // The encoder and the decoder agree: one code point, the same one.
        debug_assert!(
            segments.len() == 1
                && segments[0].event
                    == SegmentEvent::CodePoint {
                        codepoint: cp.clone()
                    },
            "{cp} encodes to bytes that do not decode to it in {encoding}"
        );
        let mut segment = segments.remove(0);
        segment.offset = offset;
        offset += bytes.len();
        items.push(EncodedCodePoint {
            codepoint: cp.clone(),
            bytes,
            segment,
        });
    }
    Encoded {
        encoding,
        items,
        failure: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cps(list: &[&str]) -> Vec<BigCodePoint> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn a_list_encodes_to_the_concatenation() {
        let e = explain(
            &cps(&["U+E000", "U+0041", "U+00CF"]),
            Encoding::CorrectedUtf8,
        );
        assert_eq!(e.failure, None);
        assert_eq!(e.bytes(), b"\xEC\xBD\xA0A\xC0\xAF");
        assert_eq!(e.result(), "valid");
        let offsets: Vec<usize> = e.items.iter().map(|i| i.segment.offset).collect();
        assert_eq!(offsets, [0, 3, 4]);
        assert_eq!(e.items[0].segment.lines[0], "U+E000 = raw 0xCF60 + 4 256");
        assert_eq!(explain(&[], Encoding::Utf8).bytes(), b"");
    }

    #[test]
    fn the_first_unencodable_code_point_ends_it() {
        let e = explain(&cps(&["U+41", "U+D800", "U+110000"]), Encoding::Utf8);
        assert_eq!(e.items.len(), 1);
        let failure = e.failure.unwrap();
        assert_eq!((failure.index, failure.kind), (1, ErrorKind::Surrogate));
        assert_eq!(failure.message, "U+D800 has no utf-8 encoding: surrogate");
        let e = explain(&cps(&["U+85"]), Encoding::CorrectedUtf8);
        assert_eq!(e.result(), "invalid");
        assert_eq!(e.failure.unwrap().kind, ErrorKind::C1Control);
    }

    #[test]
    fn every_encoding_s_limits() {
        let big = |s: &str| s.parse::<BigCodePoint>().unwrap();
        type Case = (&'static str, Encoding, Result<&'static [u8], ErrorKind>);
        let cases: [Case; 8] = [
            ("U+CF", Encoding::CorrectedUtf8, Ok(b"\xC0\xAF")),
            (
                "U+8421109F",
                Encoding::CorrectedUtf8,
                Ok(b"\xFD\xBF\xBF\xBF\xBF\xBF"),
            ),
            (
                "U+842110A0",
                Encoding::CorrectedUtf8,
                Err(ErrorKind::OutOfRange),
            ),
            (
                "U+100000000",
                Encoding::CorrectedUtf8,
                Err(ErrorKind::OutOfRange),
            ),
            ("U+DFFF", Encoding::CorrectedUtf8, Err(ErrorKind::Surrogate)),
            ("U+110000", Encoding::Utf8, Err(ErrorKind::OutOfRange)),
            ("U+D800", Encoding::UtfInf8, Err(ErrorKind::Surrogate)),
            (
                "U+80000000",
                Encoding::UtfInf8,
                Ok(b"\xFE\x82\x80\x80\x80\x80\x80"),
            ),
        ];
        for (cp, encoding, want) in cases {
            let got = encode_one(&big(cp), encoding);
            assert_eq!(got.as_deref().map_err(|e| *e), want, "{cp} {encoding}");
        }
    }

    /// A UTF-∞-8 code longer than the decoder's default limit is explained whole.
    #[test]
    fn a_code_over_the_default_limit_is_explained() {
        let cp = BigCodePoint::from_digits(&vec![7; 100_000]).unwrap();
        let e = explain(std::slice::from_ref(&cp), Encoding::UtfInf8);
        assert!(e.items[0].bytes.len() > decode::DEFAULT_MAX_CODE_LEN as usize);
        assert_eq!(e.items[0].segment.short, codepoint::show(&cp));
    }
}
