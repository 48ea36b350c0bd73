//! Corrected UTF-8, literally from the source's table.
//!
//! The code points come from [`TABLE`], a cell-by-cell copy of the table in Corrected
//! UTF-8, *Putting it all together* (docs/sources.md): a complete sequence is looked up by its byte range, and its code point is its
//! RFC 2044 raw value plus that row's offset. Byte roles are [`ROLES`], from
//! `docs/semantics.md` §2.1; decoding errors follow §2.4 and documents §2.6.

use super::{in_range, Event, Kind};

/// One row of the table of Corrected UTF-8, *Putting it all together*.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// First byte sequence of the row ("Byte Sequence Range", left end).
    pub first: &'static [u8],
    /// Last byte sequence of the row ("Byte Sequence Range", right end).
    pub last: &'static [u8],
    /// Added to the raw RFC 2044 value ("Offset", decimal in the source).
    pub offset: u32,
    /// First code point of the row ("Codepoint Range", left end).
    pub first_cp: u32,
    /// Last code point of the row ("Codepoint Range", right end).
    pub last_cp: u32,
}

/// Corrected UTF-8, *Putting it all together*: every row, cell by cell (offsets in decimal as
/// printed there, code points in hex as printed there).
#[rustfmt::skip]
pub const TABLE: [Row; 7] = [
    //    Byte Sequence Range                                                   Offset                  Codepoint Range
    Row { first: &[0x00],                               last: &[0x7F],                               offset: 0,          first_cp: 0x0000_0000, last_cp: 0x0000_007F },
    Row { first: &[0xC0, 0x80],                         last: &[0xDF, 0xBF],                         offset: 160,        first_cp: 0x0000_00A0, last_cp: 0x0000_089F },
    Row { first: &[0xE0, 0x80, 0x80],                   last: &[0xEC, 0xBD, 0x9F],                   offset: 2_208,      first_cp: 0x0000_08A0, last_cp: 0x0000_D7FF },
    Row { first: &[0xEC, 0xBD, 0xA0],                   last: &[0xEF, 0xBF, 0xBF],                   offset: 4_256,      first_cp: 0x0000_E000, last_cp: 0x0001_109F },
    Row { first: &[0xF0, 0x80, 0x80, 0x80],             last: &[0xF7, 0xBF, 0xBF, 0xBF],             offset: 69_792,     first_cp: 0x0001_10A0, last_cp: 0x0021_109F },
    Row { first: &[0xF8, 0x80, 0x80, 0x80, 0x80],       last: &[0xFB, 0xBF, 0xBF, 0xBF, 0xBF],       offset: 2_166_944,  first_cp: 0x0021_10A0, last_cp: 0x0421_109F },
    Row { first: &[0xFC, 0x80, 0x80, 0x80, 0x80, 0x80], last: &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], offset: 69_275_808, first_cp: 0x0421_10A0, last_cp: 0x8421_109F },
];

/// What a byte does where a sequence may start (`docs/semantics.md` §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Starts a sequence of this many bytes (1 for ASCII).
    Lead(usize),
    /// `80–BF`.
    Continuation,
    /// `FE`, `FF`: reserved for future use.
    Reserved,
}

/// `docs/semantics.md` §2.1, row by row.
#[rustfmt::skip]
pub const ROLES: [((u8, u8), Role); 8] = [
    ((0x00, 0x7F), Role::Lead(1)),
    ((0x80, 0xBF), Role::Continuation),
    ((0xC0, 0xDF), Role::Lead(2)),
    ((0xE0, 0xEF), Role::Lead(3)),
    ((0xF0, 0xF7), Role::Lead(4)),
    ((0xF8, 0xFB), Role::Lead(5)),
    ((0xFC, 0xFD), Role::Lead(6)),
    ((0xFE, 0xFF), Role::Reserved),
];

/// The code points an encoder refuses, and why (`docs/semantics.md` §2.3): exactly the
/// gaps between and after [`TABLE`]'s code point ranges.
#[rustfmt::skip]
pub const ENCODE_ERRORS: [(u32, u32, Kind); 3] = [
    (0x0000_0080, 0x0000_009F, Kind::C1Control),
    (0x0000_D800, 0x0000_DFFF, Kind::Surrogate),
    (0x8421_10A0, 0xFFFF_FFFF, Kind::OutOfRange),
];

/// The magic number that may open a file (Corrected UTF-8, *Putting it all
/// together*).
pub const MAGIC: [u8; 8] = [0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A];

/// The tables the functions of this module walk: [`SPEC`], the source's, or a copy with
/// a planted change (a *mutant table*: a test moves one split by one and checks that the
/// vectors see it, `conformance/literal/tests/boundaries`). Every function below is
/// [`SPEC`]'s method of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The rows of [`TABLE`].
    pub table: [Row; 7],
    /// The byte roles of [`ROLES`].
    pub roles: [((u8, u8), Role); 8],
    /// The refused code points of [`ENCODE_ERRORS`].
    pub encode_errors: [(u32, u32, Kind); 3],
}

/// The tables as the source gives them.
pub const SPEC: Tables = Tables {
    table: TABLE,
    roles: ROLES,
    encode_errors: ENCODE_ERRORS,
};

impl Tables {
    /// The role of byte `b`.
    pub fn role(&self, b: u8) -> Role {
        self.roles
            .iter()
            .find(|(r, _)| in_range(b, *r))
            .map_or(Role::Reserved, |(_, role)| *role)
    }

    /// Whether `b` is a recognized lead byte (`00–7F` or `C0–FD`), which ends a reserved
    /// span.
    pub fn is_recognized_lead(&self, b: u8) -> bool {
        matches!(self.role(b), Role::Lead(_))
    }

    /// The row whose byte range holds the complete sequence `seq` (compared byte-wise,
    /// as the table is ordered), if any.
    pub fn row_of_sequence(&self, seq: &[u8]) -> Option<&Row> {
        self.table
            .iter()
            .find(|r| r.first.len() == seq.len() && r.first <= seq && seq <= r.last)
    }

    /// The code point of a complete sequence: raw value plus its row's offset.
    pub fn value_of_sequence(&self, seq: &[u8]) -> Option<u32> {
        let row = self.row_of_sequence(seq)?;
        let cp = raw_value(seq) + u64::from(row.offset);
        u32::try_from(cp).ok()
    }

    /// Decodes `input` into events (`docs/semantics.md` §2.4).
    pub fn decode(&self, input: &[u8]) -> Vec<Event> {
        self.decode_located(input)
            .into_iter()
            .map(|(_, _, e)| e)
            .collect()
    }

    /// Decodes `input` into `(offset, length, event)` triples: where each event's bytes
    /// are.
    pub fn decode_located(&self, input: &[u8]) -> Vec<(usize, usize, Event)> {
        super::walk(input, |rest| self.step(rest))
    }

    /// One decoding step at the start of `rest` (`docs/semantics.md` §2.4): how many
    /// bytes the event takes, and the code point or the error kind ([`Kind::Reserved`]
    /// for a reserved span, which [`decode_located`] turns into [`Event::Reserved`]).
    /// Never allocates, so that the exhaustive check can call it billions of times;
    /// [`decode_located`] is a loop over it. An empty `rest` gives `(1, Err(Truncated))`,
    /// like [`super::utf8::step`].
    pub fn step(&self, rest: &[u8]) -> (usize, Result<u32, Kind>) {
        let Some(&b) = rest.first() else {
            return (1, Err(Kind::Truncated));
        };
        match self.role(b) {
            Role::Continuation => (1, Err(Kind::UnexpectedContinuation)),
            Role::Reserved => {
                // FE/FF swallow everything up to the next recognized lead byte.
                let mut j = 1;
                while rest.get(j).is_some_and(|&c| !self.is_recognized_lead(c)) {
                    j += 1;
                }
                (j, Err(Kind::Reserved))
            }
            Role::Lead(n) => {
                let mut j = 1;
                while j < n
                    && rest
                        .get(j)
                        .is_some_and(|&c| self.role(c) == Role::Continuation)
                {
                    j += 1;
                }
                let value = if j == n {
                    self.value_of_sequence(&rest[..j])
                } else {
                    None
                };
                // Fewer than n − 1 continuation bytes. (A complete sequence always has a
                // row: the rows of each length cover its whole byte range.)
                (j, value.ok_or(Kind::Truncated))
            }
        }
    }

    /// Encodes one code point (`docs/semantics.md` §2.2, §2.3).
    pub fn encode(&self, cp: u32) -> Result<Vec<u8>, Kind> {
        let mut buf = [0; 6];
        let n = self.encode_into(cp, &mut buf)?;
        Ok(buf[..n].to_vec())
    }

    /// Encodes one code point into `buf` without allocating (for the exhaustive check):
    /// the number of bytes written, or why it has no encoding. [`encode`] is this,
    /// copied.
    pub fn encode_into(&self, cp: u32, buf: &mut [u8; 6]) -> Result<usize, Kind> {
        let Some(row) = self
            .table
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
        let raw = cp.wrapping_sub(row.offset);
        let n = row.first.len();
        if n == 1 {
            buf[0] = raw as u8;
            return Ok(1);
        }
        // The RFC 2044 bit distribution: n high one bits then a zero in the lead,
        // 10xxxxxx after.
        let marker = !(0xFFu8 >> n);
        buf[0] = marker | (raw >> (6 * (n - 1))) as u8;
        for k in 0..n - 1 {
            buf[n - 1 - k] = 0x80 | ((raw >> (6 * k)) & 0x3F) as u8;
        }
        Ok(n)
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

    /// Checks a whole file as a Corrected UTF-8 document (`docs/semantics.md` §2.6).
    pub fn check_document(&self, file: &[u8]) -> Vec<Finding> {
        document(file, |text| self.decode_located(text))
    }
}

/// The role of byte `b`.
pub fn role(b: u8) -> Role {
    SPEC.role(b)
}

/// Whether `b` is a recognized lead byte (`00–7F` or `C0–FD`), which ends a reserved span.
pub fn is_recognized_lead(b: u8) -> bool {
    SPEC.is_recognized_lead(b)
}

/// The bits a complete sequence carries, as in RFC 2044: the low `7 − n` bits of an
/// n-byte lead (all 7 bits of ASCII), then 6 bits per continuation byte.
pub fn raw_value(seq: &[u8]) -> u64 {
    let n = seq.len();
    let Some((&lead, rest)) = seq.split_first() else {
        return 0;
    };
    let lead_bits = if n == 1 { 7 } else { 7usize.saturating_sub(n) };
    let mut raw = u64::from(lead) & ((1u64 << lead_bits) - 1);
    for &c in rest {
        raw = (raw << 6) | u64::from(c & 0x3F);
    }
    raw
}

/// The row whose byte range holds the complete sequence `seq` (compared byte-wise, as
/// the table is ordered), if any.
pub fn row_of_sequence(seq: &[u8]) -> Option<&'static Row> {
    TABLE
        .iter()
        .find(|r| r.first.len() == seq.len() && r.first <= seq && seq <= r.last)
}

/// The code point of a complete sequence: raw value plus its row's offset.
pub fn value_of_sequence(seq: &[u8]) -> Option<u32> {
    SPEC.value_of_sequence(seq)
}

/// Decodes `input` into events (`docs/semantics.md` §2.4).
pub fn decode(input: &[u8]) -> Vec<Event> {
    SPEC.decode(input)
}

/// Decodes `input` into `(offset, length, event)` triples: where each event's bytes are.
pub fn decode_located(input: &[u8]) -> Vec<(usize, usize, Event)> {
    SPEC.decode_located(input)
}

/// One decoding step at the start of `rest`: [`Tables::step`] of [`SPEC`].
pub fn step(rest: &[u8]) -> (usize, Result<u32, Kind>) {
    SPEC.step(rest)
}

/// Encodes one code point (`docs/semantics.md` §2.2, §2.3).
pub fn encode(cp: u32) -> Result<Vec<u8>, Kind> {
    SPEC.encode(cp)
}

/// Encodes one code point into `buf` without allocating (for the exhaustive check):
/// the number of bytes written, or why it has no encoding. [`encode`] is this, copied.
pub fn encode_into(cp: u32, buf: &mut [u8; 6]) -> Result<usize, Kind> {
    SPEC.encode_into(cp, buf)
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

/// What a document finding is about (`docs/semantics.md` §2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// `nul`: U+0000 in the text.
    Nul,
    /// A decoding error span, under its own kind.
    Decode(Kind),
    /// `reserved`: a reserved span (a warning, not an error: §2.4a).
    Reserved,
    /// `inner-magic`: a complete magic number after the start (it is text).
    InnerMagic,
    /// `missing-magic`: the file does not start with the magic number.
    MissingMagic,
    /// `cr`: U+000D.
    Cr,
    /// `line-separator`: U+2028.
    LineSeparator,
    /// `paragraph-separator`: U+2029.
    ParagraphSeparator,
    /// `c0-control`: U+0001..U+001F other than U+000A and U+000D.
    C0Control,
    /// `missing-final-newline`: non-empty text whose last event is not U+000A.
    MissingFinalNewline,
}

impl FindingKind {
    /// The exact string used in vectors and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Nul => "nul",
            FindingKind::Decode(k) => k.as_str(),
            FindingKind::Reserved => "reserved",
            FindingKind::InnerMagic => "inner-magic",
            FindingKind::MissingMagic => "missing-magic",
            FindingKind::Cr => "cr",
            FindingKind::LineSeparator => "line-separator",
            FindingKind::ParagraphSeparator => "paragraph-separator",
            FindingKind::C0Control => "c0-control",
            FindingKind::MissingFinalNewline => "missing-final-newline",
        }
    }

    /// MUST / MUST NOT rules are errors, SHOULD / SHOULD NOT rules warnings.
    pub fn severity(self) -> Severity {
        match self {
            FindingKind::Nul | FindingKind::Decode(_) => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// `error`: a MUST / MUST NOT is broken.
    Error,
    /// `warning`: a SHOULD / SHOULD NOT is broken.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One finding of the document checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// What it is about.
    pub kind: FindingKind,
    /// Byte offset in the whole file (magic number included).
    pub offset: usize,
    /// 1-based line, counted from the first byte after a leading magic number.
    pub line: usize,
    /// 1-based column: one more than the events before it on its line.
    pub column: usize,
}

impl Finding {
    /// The finding's severity.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

/// The finding a code point raises in a document's text, if any.
fn code_point_finding(cp: u32) -> Option<FindingKind> {
    match cp {
        0x0000 => Some(FindingKind::Nul),
        0x000A => None,
        0x000D => Some(FindingKind::Cr),
        0x0001..=0x001F => Some(FindingKind::C0Control),
        0x2028 => Some(FindingKind::LineSeparator),
        0x2029 => Some(FindingKind::ParagraphSeparator),
        _ => None,
    }
}

/// The magic number's code points (U+10E7D U+ED4E U+0000 U+000A).
pub const MAGIC_CODE_POINTS: [u32; 4] = [0x10E7D, 0xED4E, 0x0000, 0x000A];

/// Checks a whole file as a Corrected UTF-8 document (`docs/semantics.md` §2.6).
pub fn check_document(file: &[u8]) -> Vec<Finding> {
    SPEC.check_document(file)
}

/// The document checker over a decoder of the text after a leading magic number.
fn document(
    file: &[u8],
    decode_located: impl Fn(&[u8]) -> Vec<(usize, usize, Event)>,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    // Only the complete 8 bytes at the very start count; a proper prefix is text.
    let base = if file.starts_with(&MAGIC) {
        MAGIC.len()
    } else {
        findings.push(Finding {
            kind: FindingKind::MissingMagic,
            offset: 0,
            line: 1,
            column: 1,
        });
        0
    };
    let text = &file[base..];
    let events = decode_located(text);
    // Where a complete magic number starts in the text: four consecutive code points.
    let inner_magic: Vec<bool> = (0..events.len())
        .map(|i| {
            events.get(i..i + 4).is_some_and(|w| {
                w.iter()
                    .zip(MAGIC_CODE_POINTS)
                    .all(|((_, _, e), cp)| *e == Event::CodePoint(cp))
            })
        })
        .collect();
    let (mut line, mut column) = (1, 1);
    for (i, (offset, _, event)) in events.iter().enumerate() {
        let mut kinds = Vec::new();
        if inner_magic[i] {
            kinds.push(FindingKind::InnerMagic);
        }
        // The 00 of a complete magic number, anywhere, is not `nul`.
        let in_magic = i >= 2 && inner_magic[i - 2];
        kinds.extend(match *event {
            Event::CodePoint(0) if in_magic => None,
            Event::CodePoint(cp) => code_point_finding(cp),
            Event::Error { kind, .. } => Some(FindingKind::Decode(kind)),
            Event::Reserved { .. } => Some(FindingKind::Reserved),
        });
        for kind in kinds {
            findings.push(Finding {
                kind,
                offset: base + offset,
                line,
                column,
            });
        }
        if *event == Event::CodePoint(0x0A) {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    if events
        .last()
        .is_some_and(|(_, _, e)| *e != Event::CodePoint(0x0A))
    {
        findings.push(Finding {
            kind: FindingKind::MissingFinalNewline,
            offset: file.len(),
            line,
            column,
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_consistent() {
        for row in &TABLE {
            assert_eq!(value_of_sequence(row.first), Some(row.first_cp), "{row:?}");
            assert_eq!(value_of_sequence(row.last), Some(row.last_cp), "{row:?}");
            assert_eq!(encode(row.first_cp).as_deref(), Ok(row.first));
            assert_eq!(encode(row.last_cp).as_deref(), Ok(row.last));
        }
        // Rows of one length tile that length's byte range without gaps.
        for w in TABLE.windows(2) {
            assert!(w[0].last_cp < w[1].first_cp);
        }
    }

    #[test]
    fn source_examples() {
        assert_eq!(decode(&[0xC0, 0xAF]), vec![Event::CodePoint(0xCF)]);
        let magic: Vec<_> = decode(&MAGIC).into_iter().collect();
        assert_eq!(
            magic,
            [0x10E7D, 0xED4E, 0, 0x0A].map(Event::CodePoint).to_vec()
        );
        assert_eq!(
            decode(&[0xFE, 0xFE, 0x80, 0x41]),
            vec![
                Event::Reserved {
                    offset: 0,
                    length: 3
                },
                Event::CodePoint(0x41)
            ]
        );
    }

    #[test]
    fn round_trip_up_to_three_bytes() {
        let mut n = 0;
        for len in 1..=3usize {
            let total = 1u32 << (8 * len);
            for v in 0..total {
                let bytes: Vec<u8> = (0..len).rev().map(|k| (v >> (8 * k)) as u8).collect();
                let events = decode(&bytes);
                let covered: usize = events
                    .iter()
                    .map(|e| match e {
                        Event::CodePoint(cp) => encode(*cp).map(|b| b.len()).unwrap_or(0),
                        Event::Error { length, .. } | Event::Reserved { length, .. } => *length,
                    })
                    .sum();
                assert_eq!(covered, len, "{bytes:02x?}");
                if let [Event::CodePoint(cp)] = events[..] {
                    assert_eq!(encode(cp).unwrap(), bytes);
                    n += 1;
                }
            }
        }
        // Every complete sequence of up to 3 bytes is valid.
        assert_eq!(n, 128 + 32 * 64 + 16 * 64 * 64);
    }

    #[test]
    fn step_is_one_event_of_decode() {
        assert_eq!(step(&[0xC0, 0xAF, 0x41]), (2, Ok(0xCF)));
        assert_eq!(step(&[0xFE, 0xFE, 0x80, 0x41]), (3, Err(Kind::Reserved)));
        assert_eq!(step(&[0xF0, 0x80, 0x41]), (2, Err(Kind::Truncated)));
        assert_eq!(step(&[0x80]), (1, Err(Kind::UnexpectedContinuation)));
        assert_eq!(step(&[]), (1, Err(Kind::Truncated)));
        let mut buf = [0; 6];
        assert_eq!(encode_into(0x8421_109F, &mut buf), Ok(6));
        assert_eq!(buf, [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]);
    }

    #[test]
    fn documents_magic_numbers_and_reserved_spans() {
        let kinds = |file: &[u8]| -> Vec<(&str, usize, usize, usize)> {
            check_document(file)
                .iter()
                .map(|f| (f.kind.as_str(), f.offset, f.line, f.column))
                .collect()
        };
        let twice = [MAGIC, MAGIC].concat();
        assert_eq!(kinds(&twice), [("inner-magic", 8, 1, 1)]);
        let after = [b"AB".as_slice(), &MAGIC].concat();
        assert_eq!(
            kinds(&after),
            [("missing-magic", 0, 1, 1), ("inner-magic", 2, 1, 3)]
        );
        // An incomplete magic number's 00 is nul.
        let cut = [&MAGIC[..7], b"A\n"].concat();
        assert_eq!(kinds(&cut), [("missing-magic", 0, 1, 1), ("nul", 6, 1, 3)]);
        let reserved = [MAGIC.as_slice(), b"A\xFE\x80\0\n"].concat();
        assert_eq!(kinds(&reserved), [("reserved", 9, 1, 2), ("nul", 11, 1, 3)]);
        assert!(check_document(&reserved)
            .iter()
            .any(|f| f.severity() == Severity::Error));
    }

    #[test]
    fn encode_is_a_bijection_in_order() {
        let mut prev: Option<Vec<u8>> = None;
        for cp in (0..0x12_0000u32).chain(0x8420_0000..=0x8421_109F) {
            if let Ok(b) = encode(cp) {
                assert_eq!(decode(&b), vec![Event::CodePoint(cp)]);
                if let Some(p) = &prev {
                    assert!(*p < b, "{cp:X}");
                }
                prev = Some(b);
            }
        }
        assert_eq!(encode(0x8421_10A0), Err(Kind::OutOfRange));
        assert_eq!(encode(0x9F), Err(Kind::C1Control));
        assert_eq!(encode(0xDC00), Err(Kind::Surrogate));
    }

    #[test]
    fn strings_encode_to_the_concatenation_or_the_first_failure() {
        assert_eq!(encode_string(&[]), Ok(vec![]));
        assert_eq!(encode_string(&MAGIC_CODE_POINTS), Ok(MAGIC.to_vec()));
        // The first code point without an encoding wins, whatever follows it.
        let cps = [0x41, 0xD800, 0x80, 0x8421_10A0];
        assert_eq!(encode_string(&cps), Err((1, Kind::Surrogate)));
        assert_eq!(encode_string(&cps[2..]), Err((0, Kind::C1Control)));
        assert_eq!(encode_all(&cps), Err((0xD800, Kind::Surrogate)));
    }

    /// A copy of the tables with one split moved is another encoding: the row-3/row-4
    /// split `raw < CF60` written `raw <= CF60` decodes `EC BD A0` with row 3's offset.
    #[test]
    fn a_mutant_table_moves_its_split() {
        let mut mutant = SPEC;
        mutant.table[2].last = &[0xEC, 0xBD, 0xA0];
        mutant.table[2].last_cp = 0xD800;
        mutant.table[3].first = &[0xEC, 0xBD, 0xA1];
        mutant.table[3].first_cp = 0xE001;
        assert_eq!(decode(&[0xEC, 0xBD, 0xA0]), [Event::CodePoint(0xE000)]);
        assert_eq!(
            mutant.decode(&[0xEC, 0xBD, 0xA0]),
            [Event::CodePoint(0xD800)]
        );
        assert_eq!(mutant.encode(0xD800), Ok(vec![0xEC, 0xBD, 0xA0]));
        // U+E000 is in no row then, nor in a refused range: the encoder's last resort.
        assert_eq!(mutant.encode(0xE000), Err(Kind::OutOfRange));
        assert_eq!(SPEC.encode(0xE000), encode(0xE000));
    }
}
