//! The expected answers for any input: the spec-literal decoders of
//! `conformance-literal`, in this crate's types.

use crate::{CodePoint, Encoding, Event, Finding, FindingKind, Kind};
use conformance_literal as literal;

/// The magic number of a Corrected UTF-8 document (`docs/semantics.md` §2.6).
pub(crate) const MAGIC: [u8; 8] = literal::corrected::MAGIC;

/// An error span's kind: the literal decoders tag a reserved span with
/// `Kind::Reserved`, but never as an error span's kind.
fn kind(k: literal::Kind) -> Kind {
    Kind::from_name(k.as_str()).expect("every literal error kind is a kind")
}

fn event(e: literal::Event) -> Event {
    match e {
        literal::Event::CodePoint(cp) => Event::CodePoint(CodePoint::from(cp)),
        literal::Event::Error {
            kind: k,
            offset,
            length,
        } => Event::Error {
            kind: kind(k),
            offset,
            length,
        },
        literal::Event::Reserved { offset, length } => Event::Reserved { offset, length },
    }
}

/// The events of `input` (UTF-∞-8 with a code length limit of `limit` bytes).
pub(crate) fn events(encoding: Encoding, input: &[u8], limit: usize) -> Vec<Event> {
    match encoding {
        Encoding::CorrectedUtf8 => literal::corrected::decode(input)
            .into_iter()
            .map(event)
            .collect(),
        Encoding::Utf8 => literal::utf8::decode(input)
            .into_iter()
            .map(event)
            .collect(),
        Encoding::UtfInf8 => literal::utf_inf8::decode(input, limit)
            .into_iter()
            .map(|e| match e {
                literal::utf_inf8::Event::CodePoint(cp) => Event::CodePoint(
                    CodePoint::from_hex(cp.hex()).expect("literal code points are hex"),
                ),
                literal::utf_inf8::Event::Error {
                    kind: k,
                    offset,
                    length,
                } => Event::Error {
                    kind: kind(k),
                    offset,
                    length,
                },
            })
            .collect(),
    }
}

/// The encoding of `cp`, or its error kind; `None` outside the encoder's domain (a value
/// above 32 bits for Corrected UTF-8 and UTF-8, whose encoders take 32-bit values).
pub(crate) fn encode(encoding: Encoding, cp: &CodePoint) -> Option<Result<Vec<u8>, Kind>> {
    let result = match encoding {
        Encoding::CorrectedUtf8 => literal::corrected::encode(cp.to_u32()?),
        Encoding::Utf8 => literal::utf8::encode(cp.to_u32()?),
        Encoding::UtfInf8 => literal::utf_inf8::encode(
            &literal::utf_inf8::CodePoint::from_hex(&cp.hex()).expect("hex digits"),
        ),
    };
    Some(result.map_err(kind))
}

/// The findings of a Corrected UTF-8 document.
pub(crate) fn document(file: &[u8]) -> Vec<Finding> {
    literal::corrected::check_document(file)
        .into_iter()
        .map(|f| Finding {
            kind: FindingKind::from_name(f.kind.as_str()).expect("every literal finding kind"),
            offset: f.offset,
            line: f.line,
            column: f.column,
        })
        .collect()
}
