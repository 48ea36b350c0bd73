//! `document`: the document checker against SPEC §2.6 applied to the decoder's events,
//! one-shot and in any chunking.

use super::fail::{display_len, ensure, ensure_eq, Ctx};
use super::input::ChunkedInput;
use corrected_utf8::{
    check_document, corrected, DocumentChecker, Event, Finding, FindingKind, Severity,
};

/// Checks the document checker on a file (layout: [`ChunkedInput`]; the data is the
/// file, the sizes cut it into chunks):
///
/// * `check_document` gives exactly the findings of SPEC §2.6 worked out here from
///   `corrected::events` of the text: the magic number, magic numbers after the start
///   (`inner-magic`, their `00` no `nul`), `nul`, decoding errors, reserved spans
///   (warnings), `cr`, separators, C0 controls, the final newline, with offsets, lines
///   and columns;
/// * findings are in offset order, `missing-magic` first, no two others at one offset,
///   and each kind has its severity;
/// * a [`DocumentChecker`] fed the input's chunks, or 1-byte chunks between empty ones,
///   gives the same findings, and so does the same checker reused after `finish()`;
/// * so does [`DocumentChecker::push_fast`] (bulk over quiet stretches), fed the input's
///   chunks, the whole file, chunks of 65 bytes and of one size from 1 to 80 picked by
///   the file, alternating with `push` when that size is odd.
pub fn document(bytes: &[u8]) {
    let ctx = Ctx::new("document", bytes);
    let input = ChunkedInput::from_bytes(bytes);
    let file = input.data;

    let findings = check_document(file);
    let expected = spec_findings(file);
    ensure_eq!(
        ctx,
        expected,
        findings,
        "check_document vs SPEC §2.6 over corrected::events"
    );

    let mut shown = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let severity = match f.kind {
            FindingKind::Nul | FindingKind::Decode(_) => Severity::Error,
            _ => Severity::Warning,
        };
        ensure_eq!(ctx, severity, f.severity(), "severity of {}", f.kind);
        ensure_eq!(
            ctx,
            Some(f.kind),
            FindingKind::from_name(f.kind.as_str()),
            "FindingKind::from_name(as_str())"
        );
        // Displaying is checked once per kind and input: it costs more than the rest.
        if !shown.contains(&f.kind) {
            shown.push(f.kind);
            ensure!(
                ctx,
                display_len(f) > 0 && !f.severity().as_str().is_empty(),
                f,
                "a finding displays"
            );
        }
        if f.kind == FindingKind::MissingMagic {
            ensure_eq!(ctx, 0, i, "missing-magic comes first");
        } else if i > 0 && findings[i - 1].kind != FindingKind::MissingMagic {
            ensure!(
                ctx,
                findings[i - 1].offset < f.offset,
                (findings[i - 1], f),
                "findings in strictly increasing offset order"
            );
        }
    }

    // `default()` is `new()`: both are the API.
    let mut checker = DocumentChecker::default();
    for pass in 0..2 {
        // The second pass reuses the checker: finish() leaves it ready for a new file.
        let mut got = findings.iter();
        let mut sink = |f: Finding| {
            ensure_eq!(
                ctx,
                got.next(),
                Some(&f),
                "chunked DocumentChecker (pass {pass}) vs check_document"
            );
        };
        for chunk in input.chunks() {
            checker.push(chunk, &mut sink);
        }
        checker.finish(&mut sink);
        ensure_eq!(
            ctx,
            None,
            got.next(),
            "chunked DocumentChecker (pass {pass}): findings missing"
        );
    }

    fast_agrees(
        &ctx,
        &input,
        &findings,
        SIZES.into_iter().chain([picked_size(file)]),
    );

    let mut got = findings.iter();
    let mut sink = |f: Finding| {
        ensure_eq!(
            ctx,
            got.next(),
            Some(&f),
            "DocumentChecker in 1-byte chunks vs check_document"
        );
    };
    let mut checker = DocumentChecker::new();
    for byte in file.chunks(1) {
        checker.push(&[], &mut sink);
        checker.push(byte, &mut sink);
    }
    checker.finish(&mut sink);
    ensure_eq!(
        ctx,
        None,
        got.next(),
        "DocumentChecker in 1-byte chunks: findings missing"
    );
}

/// The chunk size [`DocumentChecker::push_fast`] is always fed each file in, beside the
/// input's own chunks, the whole file and one size picked by the file ([`picked_size`]):
/// one past the quiet scan's 64-byte block. (Byte by byte, `push_fast`'s set-up for
/// every byte made this target 3 times slower; the picked size is 1 for one file in 80.)
const SIZES: [usize; 1] = [65];

/// The largest chunk size [`picked_size`] picks: past the fast path's 64-byte blocks and
/// the 6 bytes a sequence can take.
const PICKED_UP_TO: usize = 80;

/// A chunk size from 1 to [`PICKED_UP_TO`] that depends on every byte of `file`, so that
/// mutating a file moves its chunk boundaries: over a campaign every size meets every
/// kind of file, at a fixed cost per input (every size for every input made the target
/// 10 times slower). The unit tests below feed documents in every size.
fn picked_size(file: &[u8]) -> usize {
    let sum = file.iter().fold(file.len(), |s, &b| {
        s.wrapping_mul(31).wrapping_add(usize::from(b))
    });
    1 + sum % PICKED_UP_TO
}

/// `push_fast` gives `findings` for `file` in `sizes` of chunks (and the input's own
/// chunks, and the whole file at once); when the first chunk's size is odd, every other
/// chunk goes through `push`, since the two may be mixed.
fn fast_agrees(
    ctx: &Ctx,
    input: &ChunkedInput,
    findings: &[Finding],
    sizes: impl IntoIterator<Item = usize>,
) {
    let file = input.data;
    // One buffer for every chunking's findings.
    let mut got = Vec::with_capacity(findings.len());
    let mut agrees = |chunks: &mut dyn Iterator<Item = &[u8]>| {
        got.clear();
        let mut checker = DocumentChecker::new();
        let (mut size, mut count) = (0, 0);
        for (i, chunk) in chunks.enumerate() {
            if i == 0 {
                size = chunk.len();
            }
            count = i + 1;
            if size % 2 == 1 && i % 2 == 1 {
                checker.push(chunk, |f| got.push(f));
            } else {
                checker.push_fast(chunk, |f| got.push(f));
            }
        }
        checker.finish(|f| got.push(f));
        ensure_eq!(
            ctx,
            findings,
            &got[..],
            "DocumentChecker::push_fast (first chunk {size} bytes, {count} chunks) vs check_document"
        );
    };
    agrees(&mut input.chunks());
    agrees(&mut std::iter::once(file));
    for size in sizes {
        if size <= file.len() {
            agrees(&mut file.chunks(size));
        }
    }
}

/// SPEC §2.6, over the one-shot events of the text.
pub(crate) fn spec_findings(file: &[u8]) -> Vec<Finding> {
    let mut out = Vec::new();
    let at = |kind, offset, length, line, column| Finding {
        kind,
        offset,
        length,
        line,
        column,
    };
    // Only all 8 bytes at the very start are a magic number; a proper prefix is text.
    let base = if file.starts_with(&corrected::MAGIC) {
        corrected::MAGIC.len()
    } else {
        out.push(at(FindingKind::MissingMagic, 0, 0, 1, 1));
        0
    };
    let (mut line, mut column) = (1, 1);
    let mut last = None;
    let events: Vec<_> = corrected::events(&file[base..]).located().collect();
    // Complete magic numbers in the text: four consecutive code points. Their code points
    // are distinct, so two occurrences never overlap.
    const MAGIC_CPS: [u32; 4] = [0x10E7D, 0xED4E, 0x0000, 0x000A];
    let magic_at = |i: usize| {
        events.len() >= i + 4
            && (0..4).all(|k| events[i + k].event == Event::CodePoint(MAGIC_CPS[k]))
    };
    let mut in_magic = 0;
    for (i, &located) in events.iter().enumerate() {
        if in_magic == 0 && magic_at(i) {
            in_magic = 4;
            out.push(at(
                FindingKind::InnerMagic,
                base as u64 + located.offset,
                corrected::MAGIC.len() as u64,
                line,
                column,
            ));
        }
        let exempt = in_magic > 0;
        in_magic = usize::saturating_sub(in_magic, 1);
        let kind = match located.event {
            Event::Error(e) => Some(FindingKind::Decode(e.kind)),
            Event::Reserved(_) => Some(FindingKind::Reserved),
            Event::CodePoint(0x00) if exempt => None,
            Event::CodePoint(0x00) => Some(FindingKind::Nul),
            Event::CodePoint(0x0A) => None,
            Event::CodePoint(0x0D) => Some(FindingKind::Cr),
            Event::CodePoint(0x01..=0x1F) => Some(FindingKind::C0Control),
            Event::CodePoint(0x2028) => Some(FindingKind::LineSeparator),
            Event::CodePoint(0x2029) => Some(FindingKind::ParagraphSeparator),
            Event::CodePoint(_) => None,
        };
        if let Some(kind) = kind {
            let offset = base as u64 + located.offset;
            out.push(at(kind, offset, located.length, line, column));
        }
        // A line ends after each U+000A; every event, spans included, is one column.
        if located.event == Event::CodePoint(0x0A) {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
        last = Some(located.event);
    }
    if last.is_some_and(|e| e != Event::CodePoint(0x0A)) {
        out.push(at(
            FindingKind::MissingFinalNewline,
            file.len() as u64,
            0,
            line,
            column,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_documents() {
        let mut file = corrected::MAGIC.to_vec();
        file.extend_from_slice(b"a\r\n\tb\x00\xE2\x80\xA8\xFE\n\xEF\xB7");
        file.extend_from_slice(&corrected::MAGIC);
        file.extend_from_slice(&corrected::MAGIC[..7]);
        document(&ChunkedInput::to_bytes(&[3, 2, 1, 0, 7], &file));
        document(&ChunkedInput::to_bytes(&[], &corrected::MAGIC[..5]));
        document(&[]);
        assert_eq!(spec_findings(&corrected::MAGIC), []);
    }

    #[test]
    fn push_fast_agrees_in_every_chunk_size() {
        let ctx = Ctx::new("document", b"");
        let mut loud = corrected::MAGIC.to_vec();
        for _ in 0..3 {
            loud.extend_from_slice(b"quiet text, quiet text, quiet text, quiet text!\r\n");
            loud.extend_from_slice(b"\x01\xE1\x9E\x89\xFE\x80\xEF\xB7\x9D\xC0\n");
            loud.extend_from_slice(&corrected::MAGIC);
        }
        let quiet: Vec<u8> = b"abc\n".iter().copied().cycle().take(300).collect();
        for file in [&loud[..], &quiet, &loud[3..], b"\xEF\xB7"] {
            let input = ChunkedInput::from_bytes(&[]);
            let input = ChunkedInput {
                data: file,
                ..input
            };
            let findings = check_document(file);
            assert_eq!(findings, spec_findings(file));
            fast_agrees(&ctx, &input, &findings, 1..=file.len());
        }
        assert!((1..=PICKED_UP_TO).contains(&picked_size(b"")));
        assert_ne!(picked_size(b"ab"), picked_size(b"ba"));
    }
}
