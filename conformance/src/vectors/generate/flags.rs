//! The flag table: every flag's name, description and links, and the note a file
//! carries for each flag it uses.

use crate::vectors::model::Note;
use conformance_literal::table31b;

/// The link for flags explained in the semantics document.
pub(super) const SEMANTICS: &str = "docs/semantics.md";

/// Every flag but the numbered `Table3.1b-rowN` ones: name, description, links.
#[rustfmt::skip]
pub(super) const FLAGS: &[(&str, &str, &[&str])] = &[
    ("TableRowFirst", "The first code point of a row of the encoding's table (Corrected UTF-8, \"Putting it all together\"; UTF-8: Unicode Table 3-7), and its byte sequence.", &[SEMANTICS]),
    ("TableRowLast", "The last code point of a row of the encoding's table, and its byte sequence.", &[SEMANTICS]),
    ("Boundary", "A code point on one side of a boundary: a row change, a gap that cannot be encoded, or the end of the code space.", &[SEMANTICS]),
    ("RowBoundary", "Table 3-7: one byte of a row's lowest or highest sequence set to the first or last byte of its range, or to the byte just outside it.", &[SEMANTICS]),
    ("C1Control", "U+0080..U+009F: Corrected UTF-8 does not encode the C1 controls (encode error c1-control).", &[SEMANTICS]),
    ("Surrogate", "U+D800..U+DFFF: not encodable (encode error surrogate); in UTF-8 and UTF-∞-8, ED A0..BF is a surrogate error span (the lead alone).", &[SEMANTICS]),
    ("SurrogatePair", "UTF-8: a high and a low surrogate, each encoded on its own (CESU-8 style); both are errors.", &[SEMANTICS]),
    ("OutOfRange", "Above the encoding's last code point (Corrected UTF-8: U+8421109F; UTF-8: U+10FFFF), or a UTF-8 sequence that would decode there (F4 90..BF, F5..FD).", &[SEMANTICS]),
    ("BeyondUnicode", "A code point above U+10FFFF, which Corrected UTF-8 (4-, 5- and 6-byte sequences) and UTF-∞-8 encode.", &[SEMANTICS]),
    ("Noncharacter", "A noncharacter (U+FDD0..U+FDEF, U+nFFFE, U+nFFFF): valid in every encoding here.", &[SEMANTICS]),
    ("Sample", "An ordinary character, encoded.", &[]),
    ("SeedExample", "An example given in a source text (Corrected UTF-8: C0 AF is U+00CF; All you need to know about UTF-8 decoding: the decoder examples).", &[SEMANTICS]),
    ("SourceExampleMaximalSubparts", "An ill-formed example of All you need to know about UTF-8 decoding: its decoder reports the whole bad sequence as one error \"near byte N\"; these vectors use maximal subparts instead (Unicode's recommended practice, as Rust std does), so the spans differ from the source's wording, quoted in the comment (docs/semantics.md §3).", &[SEMANTICS]),
    ("UnicodeTable3-8", "The example of Unicode Table 3-8 (\"Use of U+FFFD in UTF-8 Conversion\"): one U+FFFD per maximal subpart.", &["https://www.unicode.org/versions/latest/ch03.pdf"]),
    ("Empty", "The empty input.", &[]),
    ("Mixed", "Several characters and errors in one input: offsets and resynchronisation.", &[SEMANTICS]),
    ("LeadByte", "A lead byte (C0..FF) followed by 0 or more continuation bytes and then a terminator (ThenEnd, ThenAscii, ThenLead, ThenFE).", &[SEMANTICS]),
    ("CompleteSequence", "The lead byte has all its continuation bytes: one code point.", &[SEMANTICS]),
    ("Truncated", "A lead byte with fewer continuation bytes than it needs (error truncated: the lead and the continuation bytes present).", &[SEMANTICS]),
    ("PayloadBits", "Continuation bytes whose 6 payload bits are all clear (80) or all set (BF), after a lead of each length or FE/FF: a fast path that reads a byte's class from shifted bits must not mistake a neighbour's payload for it (found by mutation testing, docs/mutation.md).", &[SEMANTICS]),
    ("AsciiBlock", "An error next to a whole block (32 or 64 bytes) of ASCII: a sequence cut short just before the block, or stray continuation bytes in one 8-byte word of a block that is otherwise ASCII or 00. A fast path that passes over all-ASCII blocks must not pass over these (found by mutation testing, docs/mutation.md).", &[SEMANTICS]),
    ("ThenEnd", "The sequence under test is followed by the end of the input.", &[]),
    ("ThenAscii", "The sequence under test is followed by ASCII 41.", &[]),
    ("ThenLead", "The sequence under test is followed by C3 A9, a complete 2-byte sequence in every encoding here: decoding resumes there.", &[]),
    ("ThenFE", "The sequence under test is followed by FE (Corrected UTF-8: a reserved span; UTF-8: invalid-byte).", &[]),
    ("UnexpectedContinuation", "A continuation byte (80..BF) where a sequence must start: one error span per byte.", &[SEMANTICS]),
    ("ContinuationRun", "Several stray continuation bytes in a row: still one span per byte.", &[SEMANTICS]),
    ("Reserved", "Corrected UTF-8: FE or FF starts a reserved span that runs up to, not including, the next recognized lead byte (00..7F, C0..FD). A reserved span is not an error: it is its own event {\"reserved\": true, \"offset\", \"length\"}, and in a document a reserved warning (docs/semantics.md §2.4a).", &[SEMANTICS]),
    ("ReservedOnly", "Corrected UTF-8: the input's only non-code-point events are reserved spans, so its result is reserved, neither valid nor invalid (docs/semantics.md §1).", &[SEMANTICS]),
    ("ReservedAndError", "Corrected UTF-8: the input has a reserved span and an error span: the result is invalid, and the reserved span is still a reserved event, not an error (docs/semantics.md §1).", &[SEMANTICS]),
    ("FutureEightByteForm", "Corrected UTF-8: the source sketches a future 8-byte form, FF then 110xxxxx. The MUST rule cuts a reserved span before the next recognized lead byte, and C0..DF is one: so FF is a reserved span of 1 and the C0..DF byte starts a 2-byte sequence (docs/semantics.md §2.4a).", &[SEMANTICS]),
    ("ReservedLongRun", "Corrected UTF-8: a reserved span of about 1000 bytes, one event however long.", &[SEMANTICS]),
    ("MagicNumber", "The magic number EF B7 9D ED B2 AE 00 0A (U+10E7D U+ED4E U+0000 U+000A). In a decode it is ordinary text; in a document only at the very start is it not text.", &[SEMANTICS]),
    ("InnerMagic", "Document: a complete magic number after the start (typically two files concatenated) is text: four code points, its 0A ends a line, its 00 is not nul; warning inner-magic at its first byte's offset, line and column (docs/semantics.md §2.6).", &[SEMANTICS]),
    ("MagicNul", "Document: the 00 of an incomplete magic number (cut, or split by an error) is nul, like a lone 00 (docs/semantics.md §2.6).", &[SEMANTICS]),
    ("MagicPrefix", "A file made of a proper prefix of the magic number: it has no magic number, and its bytes are text.", &[SEMANTICS]),
    ("Overlong", "UTF-8: a non-shortest form (C0, C1; E0 80..9F; F0 80..8F): the lead alone is the error span.", &[SEMANTICS]),
    ("MaximalOverlong", "UTF-8: the highest overlong form of each length (Markus Kuhn's UTF-8 stress test, 4.2).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("OverlongSolidus", "UTF-8: U+002F '/' in an overlong form (Kuhn 4.1).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("OverlongNul", "UTF-8: U+0000 in an overlong form (Kuhn 4.3).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("LonelyStartByte", "UTF-8: a lead byte followed by a space (Kuhn 3.2).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("MissingContinuation", "UTF-8: a sequence with its last continuation byte missing, alone or concatenated (Kuhn 3.3, 3.4).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("FiveSixByteForm", "UTF-8: a 5- or 6-byte form of the original UTF-8 (F8..FD): each byte is an error span.", &[SEMANTICS]),
    ("InvalidByte", "UTF-8: FE or FF, never valid (error invalid-byte).", &[SEMANTICS]),
    ("KuhnBoundary", "UTF-8: first or last sequence of a length, or another boundary condition (Kuhn 2.1-2.3).", &["https://www.cl.cam.ac.uk/~mgk25/ucs/examples/UTF-8-test.txt"]),
    ("Table3.1b-disagrees", "Table 3.1b as transcribed and Table 3-7 give different verdicts for this input (result follows Table 3-7). See vectors/README.md, \"Table 3.1b errata\".", &["vectors/README.md"]),
    ("Table3.1b-flags-well-formed", "Table 3.1b calls this input ill-formed, but it is well-formed per Table 3-7.", &["vectors/README.md"]),
    ("Table3.1b-misses-ill-formed", "No row of Table 3.1b matches, but the input is ill-formed per Table 3-7.", &["vectors/README.md"]),
    ("MissingMagic", "Document: the file does not start with the magic number (warning missing-magic at offset 0, line 1, column 1).", &[SEMANTICS]),
    ("Nul", "Document: U+0000 in the text (error nul).", &[SEMANTICS]),
    ("DecodeError", "Document: a decoding error span, reported under its own kind (error).", &[SEMANTICS]),
    ("Cr", "Document: U+000D (warning cr); it does not end a line.", &[SEMANTICS]),
    ("LineSeparator", "Document: U+2028 (warning line-separator); it does not end a line.", &[SEMANTICS]),
    ("ParagraphSeparator", "Document: U+2029 (warning paragraph-separator).", &[SEMANTICS]),
    ("C0Control", "Document: U+0001..U+001F other than U+000A and U+000D (warning c0-control), TAB included.", &[SEMANTICS]),
    ("NotAFinding", "Document: characters that raise no finding (U+000A, U+007F DEL, others).", &[SEMANTICS]),
    ("MissingFinalNewline", "Document: non-empty text whose last event is not U+000A, an error span included (warning at the end of the input).", &[SEMANTICS]),
    ("Bom", "A byte order mark: the bytes of U+FEFF (EF BB BF in UTF-8 and UTF-∞-8, EE B9 9F in Corrected UTF-8) at the start, in the middle, twice, or cut short. None of the three encodings has a BOM: these vectors decode it as the code point U+FEFF wherever it stands, never stripped or reported (in a document it is text, with no finding), and a cut-short one (EF BB, EF) is an ordinary truncated sequence. In Corrected UTF-8, EF BB BF is U+10F9F, not U+FEFF. An importer whose API strips a leading BOM must turn that off: a WHATWG TextDecoder needs ignoreBOM: true (without it, the cases with U+FEFF at the start fail); Python's utf-8 codec keeps it (utf-8-sig would not) (docs/semantics.md §1).", &[SEMANTICS]),
    ("Position", "Document: line and column counting (lines from after the magic number, only U+000A ends a line, one column per code point or error span).", &[SEMANTICS]),
];

/// The note for `flag`, or `None` for an unknown flag.
pub(super) fn note_for(flag: &str) -> Option<Note> {
    if let Some(n) = flag.strip_prefix("Table3.1b-row") {
        let number: u8 = n.parse().ok()?;
        let row = table31b::TABLE_3_1B.iter().find(|r| r.number == number)?;
        return Some(Note {
            description: format!(
                "Row {number} of Davis 2000 Table 3.1b as transcribed ({}) matches a contiguous run of the input.",
                row31b_text(row)
            ),
            links: Some(vec!["vectors/README.md".to_string()]),
        });
    }
    let (_, description, links) = FLAGS
        .iter()
        .chain(UTF_INF8_FLAGS)
        .find(|(name, _, _)| *name == flag)?;
    Some(Note {
        description: description.to_string(),
        links: (!links.is_empty()).then(|| links.iter().map(|l| l.to_string()).collect()),
    })
}

/// A Table 3.1b row as printed: `F0 | 00-9F, C0-FF`.
pub(super) fn row31b_text(row: &table31b::Row) -> String {
    let cells: Vec<String> = row
        .cells
        .iter()
        .map(|c| match c {
            table31b::Cell::Any => "XX".to_string(),
            table31b::Cell::Ranges(rs) => rs
                .iter()
                .map(|&(lo, hi)| {
                    if lo == hi {
                        format!("{lo:02X}")
                    } else {
                        format!("{lo:02X}-{hi:02X}")
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect();
    cells.join(" | ")
}

/// The flags of the UTF-∞-8 files and of the cross-encoding cases: name, description,
/// links.
#[rustfmt::skip]
pub(super) const UTF_INF8_FLAGS: &[(&str, &str, &[&str])] = &[
    ("DraftExample", "One of the 17 examples of the UTF-∞-8 draft (§4, Bishop & Cook 2009), byte for byte as printed there.", &[SEMANTICS]),
    ("DraftByteCount", "The draft's remark for this example says \"thirty-four bytes\", but the bytes it prints, and its rules (§3.5.5-3.5.7), give 38: FF B4 A2 A1 and 34 USV-storage bytes. The vectors follow the rules (docs/semantics.md §4.4).", &[SEMANTICS]),
    ("DraftElided", "The draft elides part of this example (\"one hundred A's omitted\", \"sixty-six AA's omitted\"); here it is written out: U+ and 102 A's is FF B4 A5 A4 and 68 AA, 72 bytes.", &[SEMANTICS]),
    ("LengthClassFirst", "The first (lowest) code point whose UTF-∞-8 code has this many bytes.", &[SEMANTICS]),
    ("LengthClassLast", "The last (highest) code point whose UTF-∞-8 code has this many bytes.", &[SEMANTICS]),
    ("LongForm", "NUD ≥ 18: FF, length storage (NME = NUD - 18), then ((NUD + 2) / 3) × 2 USV-storage bytes (draft §3.5).", &[SEMANTICS]),
    ("LengthB4", "A long-form code whose length storage has B4 bytes (NME ≥ 16: k ≥ 2 digits after k - 1 B4).", &[SEMANTICS]),
    ("ManyDigits", "A code point of hundreds or thousands of hex digits.", &[SEMANTICS]),
    ("OverlongForm", "UTF-∞-8: a value in a longer form than its shortest; error overlong over the bytes before the one that makes it certain, then decoding resumes at that byte (docs/semantics.md §4.2).", &[SEMANTICS]),
    ("OverlongZero", "UTF-∞-8: U+0000 in a longer form.", &[SEMANTICS]),
    ("LargestOverlong", "UTF-∞-8: the last code point of the next shorter form (or of the next smaller NUD), written in this form: the largest overlong value.", &[SEMANTICS]),
    ("LengthLeadingZero", "UTF-∞-8: a length stored with a leading zero digit (A0 right after the B4s); this is also how a B4 more than needed shows (error overlong over FF and the B4s).", &[SEMANTICS]),
    ("ExtraB4", "UTF-∞-8: one B4 more than the length needs.", &[SEMANTICS]),
    ("InvalidLength", "UTF-∞-8: error invalid-length: after FF a byte other than 80..AF or B4; after B4s a byte other than B4 or A0..AF; a missing length digit; or USV-storage padding digits that are not zero (the digits do not fit the stored length).", &[SEMANTICS]),
    ("NonzeroPadding", "UTF-∞-8: the USV storage's padding digits (NUD not a multiple of 3) are not zero: invalid-length (docs/semantics.md §4.4).", &[SEMANTICS]),
    ("MalformedLength", "UTF-∞-8: length storage that breaks draft §3.5.2-3.5.5.", &[SEMANTICS]),
    ("ByteSweep", "After a fixed prefix, each continuation byte 80..BF in turn, then the end of input.", &[SEMANTICS]),
    ("TruncatedFixedForm", "UTF-∞-8: a 2- to 13-byte code cut short.", &[SEMANTICS]),
    ("TruncatedLength", "UTF-∞-8: a long-form code cut before or inside its length storage.", &[SEMANTICS]),
    ("TruncatedStorage", "UTF-∞-8: a long-form code cut after its length storage, before or inside its USV storage.", &[SEMANTICS]),
    ("LimitExceeded", "UTF-∞-8: under the default code length limit of 65 536 bytes, every well-formed completion of the bytes so far is longer: error limit-exceeded from the code's first byte, as one span over the whole over-long code (docs/semantics.md §4.3).", &[SEMANTICS]),
    ("LimitSpan", "UTF-∞-8: the one limit-exceeded span runs on over every byte that still continues a well-formed code (ignoring the limit): to the code's declared end (inclusive), or to just before the first byte that cannot continue it (decoded afresh), or to the end of the input (docs/semantics.md §4.3).", &[SEMANTICS]),
    ("AtLimit", "UTF-∞-8: a code of exactly 65 536 bytes, the default limit, or its start: not limit-exceeded.", &[SEMANTICS]),
    ("LargeInput", "A 64 KiB input.", &[]),
    ("LimitDependent", "UTF-∞-8: no span is limit-exceeded under the default limit of 65 536 bytes, but some is under a smaller limit of 1024 bytes or more: a truncated code whose shortest completion is longer than that limit, or a long code that it cuts. A decoder whose limit is another one of at least 1024 bytes skips these cases as it skips the LimitExceeded, LimitSpan, AtLimit and LargeInput ones; below 1024 bytes more cases depend on the limit: compare them with the spec-literal decoder at that limit (vectors/README.md, \"Limit\")", &[SEMANTICS, "vectors/README.md"]),
    ("RowEdgesRun", "String encode: the first and last code points of the encoding's rows (length classes) side by side in one list, so that sequences of different lengths follow each other.", &[SEMANTICS]),
    ("ErrorAtStart", "String encode: the first code point of the list has no encoding: index 0, no bytes.", &[SEMANTICS]),
    ("ErrorInMiddle", "String encode: a code point without an encoding between encodable ones: the result is its index and kind; nothing after it counts (docs/semantics.md §1, \"Encoding a string\").", &[SEMANTICS]),
    ("ErrorAtEnd", "String encode: the last code point of the list has no encoding: the result is still an error, at that index (not the bytes of the code points before it).", &[SEMANTICS]),
    ("FirstErrorWins", "String encode: several code points without an encoding: the result names the first one's index and kind.", &[SEMANTICS]),
    ("BlockRun", "String encode: a run long enough to cross the fast paths' block sizes (16, 32, 64 and 256 bytes or code points, and beyond), or an error where a block ends: an encoder that works a block at a time must get the block boundary and the error's index right.", &[SEMANTICS]),
    ("CutShortOverlong", "UTF-∞-8: a 13-byte code (FF 80..9F) whose first 35 payload bits, known at its 7th byte, are zero, cut short: overlong over its first 6 bytes as soon as the 7th arrives, then each continuation byte alone; not truncated (a decoder that decides only once the code is complete gets this wrong). And the contrast, whose 35th bit is set: truncated.", &[SEMANTICS]),
    ("WideLength", "UTF-∞-8: a long-form code whose length field is 16, 17 or 33 hex digits (NME just under 2^64, over 2^64, over 2^128): over any limit, one limit-exceeded span; its padding digits (0, 1 or 2, from NUD modulo 3, which saturating arithmetic loses) and its first significant digit still end the span before the first storage byte that breaks them (docs/semantics.md §4.3).", &[SEMANTICS]),
    ("SplitEdge", "A value on one side of a split of the encoding's table (a row's or a refused range's bound, a length step, a byte range's end, an error kind's range), tested once more: with this group every side of every split has at least two vectors in the file, under different flags, so that skipping one flag does not lose it (vectors/README.md, \"Every boundary twice\").", &[SEMANTICS, "vectors/README.md"]),
    ("Resynchronisation", "A well-formed character right after an error span: the span ends where the maximal subpart ends, and decoding resumes at the next byte. A decoder that skips as many bytes as the lead byte announces, or that folds what follows a stray continuation byte into its error, swallows the character.", &[SEMANTICS]),
    ("CrossEncoding", "The same bytes decoded as Corrected UTF-8, UTF-8 and UTF-∞-8; the comment gives all three readings (code points, or error kind[span length], ×n for a run) and each encoding's decode file has the case.", &[SEMANTICS]),
];
