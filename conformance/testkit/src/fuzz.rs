//! The fuzz properties: one input from a fuzzer, a deterministic seeded loop of
//! structure-aware inputs, and replay of given inputs.

use crate::check::{self, hex};
use crate::report::{Report, Site};
use crate::{oracle, CodePoint, Encoding, Event, Implementation};
pub(crate) use conformance_checks::generate::{self, Rng};
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

/// A structure-aware input for `encoding`, from the generator the runner's
/// `conformance fuzz --adapter` uses (table edges, truncations, `FE`/`FF` runs, big
/// UTF-∞-8 codes, mutations); for Corrected UTF-8 every fourth input is a document
/// (the magic number at the start and inside).
pub(crate) fn generate(rng: &mut Rng, encoding: Encoding) -> Vec<u8> {
    if encoding == Encoding::CorrectedUtf8 && rng.chance(1, 4) {
        generate::document(rng)
    } else {
        generate::decode_input(rng, encoding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_deterministic_and_reaches_documents() {
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200)
                .map(|_| generate(&mut rng, Encoding::CorrectedUtf8))
                .collect::<Vec<_>>()
        };
        let inputs = run(7);
        assert_eq!(inputs, run(7));
        assert_ne!(inputs, run(8));
        assert!(inputs.iter().any(|i| i.starts_with(&oracle::MAGIC)));
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
