//! The fuzz properties: one input from a fuzzer, a deterministic seeded loop of
//! structure-aware inputs, and replay of given inputs.

use crate::check::{self, hex};
use crate::report::{Report, Site};
use crate::{oracle, CodePoint, Encoding, Event, Implementation};
use conformance_literal as literal;

/// How many distinct decoded code points of one input are also encoded.
const ENCODE_PER_INPUT: usize = 8;

/// Checks everything `imp` answers about `data`, recording into `report`:
///
/// * the decode answers for `data` (whole, and in chunks for the streaming hook);
/// * the encoding of the first [`ENCODE_PER_INPUT`] distinct code points the input
///   decodes to, and of one value made from the data's first bytes (any size of value,
///   for UTF-∞-8);
/// * Corrected UTF-8: the document findings of `data`, and of `data` after the magic
///   number.
pub(crate) fn one<I: Implementation + ?Sized>(
    imp: &I,
    data: &[u8],
    case: &dyn Fn() -> String,
    report: &mut Report,
) {
    let encoding = imp.encoding();
    report.cases += 1;
    let expected = oracle::events(encoding, data, imp.code_length_limit());
    let shown = hex(data);
    let site = Site {
        case,
        input: &shown,
    };
    check::decode_ops(imp, data, &expected, &site, report);

    let mut encoded: Vec<&CodePoint> = Vec::new();
    for e in &expected {
        if let Event::CodePoint(cp) = e {
            if encoded.len() == ENCODE_PER_INPUT {
                break;
            }
            if !encoded.contains(&cp) {
                encoded.push(cp);
            }
        }
    }
    let from_data = value_from(encoding, data);
    for cp in encoded.into_iter().chain(from_data.as_ref()) {
        if let Some(expected) = oracle::encode(encoding, cp) {
            check::encode(imp, cp, expected, case, report);
        }
    }

    if encoding == Encoding::CorrectedUtf8 {
        check::document(imp, data, &oracle::document(data), &site, report);
        let file = [&oracle::MAGIC[..], data].concat();
        let shown = hex(&file);
        let site = Site {
            case,
            input: &shown,
        };
        check::document(imp, &file, &oracle::document(&file), &site, report);
    }
}

/// A code point made from the data's first bytes: a 32-bit value shifted right by the
/// first byte (so that small values are as likely as large ones), or for UTF-∞-8 with an
/// odd first byte the hex digits of up to 40 bytes (big code points).
fn value_from(encoding: Encoding, data: &[u8]) -> Option<CodePoint> {
    let (&first, rest) = data.split_first()?;
    if encoding == Encoding::UtfInf8 && first % 2 == 1 {
        return CodePoint::from_hex(&literal::hex(&rest[..rest.len().min(40)], ""));
    }
    let mut word = [0; 4];
    for (w, b) in word.iter_mut().zip(rest) {
        *w = *b;
    }
    Some(CodePoint::from(u32::from_be_bytes(word) >> (first % 32)))
}

/// SplitMix64: small, fast and the same everywhere, so a seed names a run.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn byte(&mut self, lo: u8, hi: u8) -> u8 {
        lo + self.below(usize::from(hi - lo) + 1) as u8
    }
}

// Replaced by conformance_checks::generate once available.
/// A structure-aware input: a few pieces, each ASCII, a continuation byte, a lead byte,
/// an `FE`/`FF` run, the document magic number or a prefix of it, the encoding of a code
/// point at a table edge (sometimes cut short), or a UTF-∞-8 long-form header.
pub(crate) fn generate(rng: &mut Rng, encoding: Encoding) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..rng.below(10) {
        match rng.below(9) {
            0 => out.push(rng.byte(0x00, 0x7F)),
            1 => out.push(rng.byte(0x80, 0xBF)),
            2 => out.push(rng.byte(0xC0, 0xFD)),
            3 => out.extend(std::iter::repeat_n(rng.byte(0xFE, 0xFF), 1 + rng.below(4))),
            4 => out.extend_from_slice(&oracle::MAGIC[..1 + rng.below(oracle::MAGIC.len())]),
            5 => {
                // FF, B4s, length digits and storage bytes, well-formed or not.
                out.push(0xFF);
                out.extend(std::iter::repeat_n(0xB4, rng.below(3)));
                for _ in 0..rng.below(6) {
                    out.push(rng.byte(0x80, 0xBF));
                }
            }
            _ => {
                let bytes = encoded_edge(rng, encoding);
                let keep = match rng.below(4) {
                    0 => rng.below(bytes.len().max(1)),
                    _ => bytes.len(),
                };
                out.extend_from_slice(&bytes[..keep]);
            }
        }
    }
    out
}

/// The encoding of a code point at a table edge; for a value the encoder refuses
/// (a surrogate, say), and now and then for any value, its bytes in one of UTF-∞-8's
/// fixed forms that holds it (the original UTF-8 forms, so encoded surrogates and
/// overlong forms come up in every encoding).
fn encoded_edge(rng: &mut Rng, encoding: Encoding) -> Vec<u8> {
    let cp = edge(rng, encoding);
    match oracle::encode(encoding, &cp) {
        Some(Ok(bytes)) if rng.below(4) != 0 => bytes,
        _ => {
            let value = u128::from_str_radix(&cp.hex(), 16).unwrap_or(0);
            let holds = |f: &&literal::utf_inf8::Form| {
                u128::from_str_radix(f.last, 16).is_ok_and(|last| value <= last)
            };
            let forms = &literal::utf_inf8::FORMS;
            let first = forms.iter().position(|f| holds(&f)).unwrap_or(0);
            let form = &forms[first + rng.below(forms.len() - first).min(1)];
            literal::utf_inf8::encode_in_form(form, value)
        }
    }
}

/// A code point at or next to an edge of a table row (Corrected UTF-8's table, UTF-∞-8's
/// forms, which include UTF-8's), the surrogates or the C1 controls; for UTF-∞-8 now and
/// then a long-form value of 18 to 60 digits.
fn edge(rng: &mut Rng, encoding: Encoding) -> CodePoint {
    if encoding == Encoding::UtfInf8 && rng.below(8) == 0 {
        let digits: String = (0..18 + rng.below(43))
            .map(|i| {
                let d = rng.below(16);
                // No leading zero: the digit count is the length class.
                char::from_digit(if i == 0 { d.max(1) } else { d } as u32, 16).unwrap_or('1')
            })
            .collect();
        return CodePoint::from_hex(&digits).unwrap_or(CodePoint::from(0u32));
    }
    let corrected = literal::corrected::TABLE
        .iter()
        .flat_map(|r| [u128::from(r.first_cp), u128::from(r.last_cp)]);
    let forms = literal::utf_inf8::FORMS.iter().flat_map(|f| {
        [f.first, f.last]
            .into_iter()
            .filter_map(|h| u128::from_str_radix(h, 16).ok())
    });
    let others = [0x80, 0x9F, 0xD800, 0xDFFF, 0x10_FFFF, 0xFFFF_FFFF];
    let edges: Vec<u128> = corrected.chain(forms).chain(others).collect();
    let at = edges[rng.below(edges.len())];
    let value = match rng.below(3) {
        0 => at.saturating_sub(1),
        1 => at,
        _ => at + 1,
    };
    CodePoint::from_hex(&format!("{value:X}")).unwrap_or(CodePoint::from(0u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_deterministic_and_reaches_every_piece() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..500)
                .map(|_| generate(&mut rng, Encoding::CorrectedUtf8))
                .collect::<Vec<_>>()
        };
        let inputs = run(7);
        assert_eq!(inputs, run(7));
        assert_ne!(inputs, run(8));
        let all: Vec<u8> = inputs.concat();
        assert!(inputs.iter().any(|i| i.starts_with(&oracle::MAGIC)));
        assert!(all.windows(2).any(|w| w == [0xFF, 0xB4]));
        assert!(all.contains(&0xFE) && all.iter().any(|&b| (0x80..0xC0).contains(&b)));
        assert!(inputs.iter().any(|i| i.is_empty()));
        // Encoded surrogates and overlong forms, which no encoder of the oracle makes.
        let mut rng = Rng::new(1);
        let utf8: Vec<u8> = (0..500)
            .flat_map(|_| generate(&mut rng, Encoding::Utf8))
            .collect();
        assert!(utf8
            .windows(2)
            .any(|w| w[0] == 0xED && w[1] >= 0xA0 && w[1] < 0xC0));
        assert!(utf8
            .windows(2)
            .any(|w| w == [0xE0, 0x81] || w == [0xC1, 0xBF]));
    }

    #[test]
    fn a_value_from_the_data_may_be_big_for_utf_inf_8_only() {
        let data = [1u8; 30];
        assert_eq!(
            value_from(Encoding::UtfInf8, &data).unwrap().hex().len(),
            57
        );
        assert!(value_from(Encoding::Utf8, &data)
            .unwrap()
            .to_u32()
            .is_some());
        assert_eq!(value_from(Encoding::Utf8, &[]), None);
    }
}
