//! `differential_literal`: the reference codec against the spec-literal code of
//! [`conformance_literal`], which shares nothing with it.

use super::codecs::{Codec, BOTH};
use super::fail::{ensure_eq, Ctx};
use conformance_literal::{self as literal, Event as LitEvent, Kind as LitKind};
use corrected_utf8::{check_document, corrected, Encoding, Event, Finding};

/// Checks `bytes` three ways, reference against spec-literal:
///
/// * decoding, both encodings: the whole lists of `(offset, length, event)` are equal
///   (code points, error spans with their kinds, reserved spans);
/// * encoding, both encodings: each little-endian `u32` read from the first 32 bytes
///   encodes to the same bytes, or fails with the same kind;
/// * documents: `check_document` gives the same findings.
pub fn differential_literal(bytes: &[u8]) {
    let ctx = Ctx::new("differential_literal", bytes);
    for codec in BOTH {
        decode(&ctx, codec, bytes);
    }
    for word in bytes.chunks_exact(4).take(8) {
        let cp = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        for codec in BOTH {
            encode(&ctx, codec, cp);
        }
    }
    let lit: Vec<(&str, &str, u64, u64, u64)> = literal::corrected::check_document(bytes)
        .iter()
        .map(|f| {
            (
                f.kind.as_str(),
                f.kind.severity().as_str(),
                f.offset as u64,
                f.line as u64,
                f.column as u64,
            )
        })
        .collect();
    let reference: Vec<(&str, &str, u64, u64, u64)> = check_document(bytes)
        .iter()
        .map(|f: &Finding| {
            (
                f.kind.as_str(),
                f.severity().as_str(),
                f.offset,
                f.line,
                f.column,
            )
        })
        .collect();
    ensure_eq!(
        ctx,
        lit,
        reference,
        "check_document: literal vs reference (kind, severity, offset, line, column)"
    );
}

fn decode(ctx: &Ctx<'_>, codec: &Codec, bytes: &[u8]) {
    let lit = match codec.encoding {
        Encoding::CorrectedUtf8 => literal::corrected::decode_located(bytes),
        _ => literal::utf8::decode_located(bytes),
    };
    let mut reference = (codec.events)(bytes).located();
    let same = lit.iter().all(|&(offset, length, event)| {
        reference.next().is_some_and(|r| {
            r.offset == offset as u64
                && r.length == length as u64
                && to_literal(r.event) == Some(event)
        })
    }) && reference.next().is_none();
    if !same {
        let reference: Vec<_> = (codec.events)(bytes)
            .located()
            .map(|r| (r.offset as usize, r.length as usize, to_literal(r.event)))
            .collect();
        let lit: Vec<_> = lit.into_iter().map(|(o, l, e)| (o, l, Some(e))).collect();
        ctx.fail(
            |w| {
                w(format_args!(
                    "{}: decode, literal vs reference (offset, length, event)",
                    codec.name()
                ))
            },
            &lit,
            &reference,
        );
    }
}

fn encode(ctx: &Ctx<'_>, codec: &Codec, cp: u32) {
    let lit = match codec.encoding {
        Encoding::CorrectedUtf8 => literal::corrected::encode(cp),
        _ => literal::utf8::encode(cp),
    };
    let mut buf = [0; corrected::MAX_LEN];
    let reference = codec
        .encode_one(cp, &mut buf)
        .map_err(|e| LitKind::from_name(e.kind.as_str()));
    ensure_eq!(
        ctx,
        lit.as_deref().map_err(|&k| Some(k)),
        reference,
        "{}: encode(U+{cp:04X}), literal vs reference",
        codec.name()
    );
}

/// The literal module's event for a reference event (its kind matched by name; `None`
/// for a kind the literal module does not know).
fn to_literal(event: Event) -> Option<LitEvent> {
    Some(match event {
        Event::CodePoint(cp) => LitEvent::CodePoint(cp),
        Event::Error(e) => LitEvent::Error {
            kind: LitKind::from_name(e.kind.as_str())?,
            offset: e.offset as usize,
            length: e.length as usize,
        },
        Event::Reserved(r) => LitEvent::Reserved {
            offset: r.offset as usize,
            length: r.length as usize,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_mixed_input() {
        differential_literal(
            b"\xC0\xAF\xFE\xFE\x80A\xED\xA0\x80\xF4\x90\xE0\x80\xF0\x80\xC1\xE2\x82",
        );
        differential_literal(&corrected::MAGIC);
        differential_literal(b"");
    }
}
