//! The implementation under test, as a table of function pointers, and the event form
//! that it and the spec-literal code are compared in.
//!
//! The exhaustive check never names the reference codec directly: it runs whatever
//! [`CodecFns`] it is given, so a test can hand it a deliberately broken codec and
//! see the counterexample named ([`REFERENCE`] is the real one).

use conformance_literal::{self as literal, Kind};
use corrected_utf8::{
    corrected, utf8, utf_inf8, BigCodePoint, DocumentChecker, ErrorKind, Event, Events, Located,
};
use std::fmt;
use std::sync::OnceLock;

/// How many events an [`EvBuf`] holds: the walked inputs are at most 8 bytes and every
/// event covers at least one byte, and the long-form walk's inputs are cut so that a
/// correct decoder gives at most 10 events ([`super::long_forms`]), so a correct decoder
/// never needs more.
pub const CAP: usize = 16;

/// Longest encoding a [`CodecFns`] may write (more than Corrected UTF-8's 6, so
/// that a broken encoder that writes too much is seen rather than cut off).
pub const ENCODE_CAP: usize = 8;

/// An error kind as a small number, so that events compare without strings: a literal
/// [`Kind`]'s index in [`Kind::ALL`], or [`OTHER_KINDS`] plus the index in
/// [`ErrorKind::ALL`] for a kind the spec-literal code does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindCode(pub u8);

/// Where the codes of [`ErrorKind`]s without a literal [`Kind`] start.
pub const OTHER_KINDS: u8 = 100;

/// [`KindCode::reference`] of each [`ErrorKind`], by its discriminant.
static REFERENCE_CODES: OnceLock<[KindCode; ErrorKind::ALL.len()]> = OnceLock::new();

impl KindCode {
    /// The code of a spec-literal kind.
    pub fn literal(kind: Kind) -> KindCode {
        // `Kind` is declared in the order of `Kind::ALL` (tested).
        KindCode(kind as u8)
    }

    /// The code of a reference codec kind: that of the literal kind of the same name.
    #[inline]
    pub fn reference(kind: ErrorKind) -> KindCode {
        // A table lookup: a `match` compiles to a jump table whose mispredictions cost
        // more than the rest of the conversion.
        let codes = REFERENCE_CODES.get_or_init(|| {
            let mut codes = [KindCode(u8::MAX); ErrorKind::ALL.len()];
            for k in ErrorKind::ALL {
                if let Some(slot) = codes.get_mut(k as usize) {
                    *slot = Self::by_name(k);
                }
            }
            codes
        });
        codes
            .get(kind as usize)
            .copied()
            .unwrap_or_else(|| Self::by_name(kind))
    }

    /// The code of the literal kind named like `kind`, matched by name so that a kind
    /// added to both sides needs no edit here.
    fn by_name(kind: ErrorKind) -> KindCode {
        match Kind::from_name(kind.as_str()) {
            Some(k) => KindCode::literal(k),
            None => KindCode(OTHER_KINDS + kind as u8),
        }
    }

    /// The kind's name (`docs/semantics.md` §5).
    pub fn name(self) -> &'static str {
        let i = usize::from(self.0);
        match Kind::ALL.get(i) {
            Some(k) => k.as_str(),
            None => ErrorKind::ALL
                .iter()
                .find(|&&k| k as usize == i.wrapping_sub(usize::from(OTHER_KINDS)))
                .map_or("?", |k| k.as_str()),
        }
    }

    /// The spec-literal kind, if it is one.
    pub fn to_literal(self) -> Option<Kind> {
        Kind::ALL.get(usize::from(self.0)).copied()
    }
}

/// What an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A code point.
    CodePoint(u32),
    /// An error span of this kind.
    Error(KindCode),
    /// A Corrected UTF-8 reserved span (not an error).
    Reserved,
}

/// A decoding event and the bytes it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ev {
    /// Byte offset of its first byte.
    pub offset: u32,
    /// How many bytes it covers.
    pub length: u32,
    /// The code point or error kind.
    pub value: Value,
}

impl Ev {
    /// The event of a reference codec [`Located`].
    pub fn from_located(l: &Located) -> Ev {
        let value = match l.event {
            Event::CodePoint(cp) => Value::CodePoint(cp),
            Event::Error(e) => Value::Error(KindCode::reference(e.kind)),
            Event::Reserved(_) => Value::Reserved,
        };
        // Offsets and lengths of inputs of at most a few bytes; saturate rather than wrap
        // if a broken decoder reports something huge.
        Ev {
            offset: u32::try_from(l.offset).unwrap_or(u32::MAX),
            length: u32::try_from(l.length).unwrap_or(u32::MAX),
            value,
        }
    }

    /// The event of one spec-literal step at `offset`.
    pub fn from_step(offset: usize, length: usize, value: Result<u32, Kind>) -> Ev {
        Ev {
            offset: offset as u32,
            length: length as u32,
            value: match value {
                Ok(cp) => Value::CodePoint(cp),
                // The literal's step tags a reserved span with this kind.
                Err(Kind::Reserved) => Value::Reserved,
                Err(k) => Value::Error(KindCode::literal(k)),
            },
        }
    }

    /// Whether it is an error span (a reserved span is not).
    pub fn is_error(&self) -> bool {
        matches!(self.value, Value::Error(_))
    }
}

impl fmt::Display for Ev {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Value::CodePoint(cp) => write!(f, "U+{cp:04X}")?,
            Value::Error(k) => f.write_str(k.name())?,
            Value::Reserved => f.write_str("reserved")?,
        }
        write!(f, " @{}+{}", self.offset, self.length)
    }
}

/// The events of one decode, in a fixed buffer (no allocation in the hot loop).
///
/// A UTF-∞-8 code point above `u32::MAX` is a saturated [`Ev`] (its value `u32::MAX`)
/// with its hex digits kept beside the events ([`EvBuf::big`]), so that two event lists
/// with different large code points still differ.
#[derive(Clone, Debug)]
pub struct EvBuf {
    evs: [Ev; CAP],
    len: usize,
    overflow: bool,
    /// The hex digits (uppercase, no leading zeros) of each code point above `u32::MAX`,
    /// by the index of its event.
    big: Vec<(usize, String)>,
}

impl Default for EvBuf {
    fn default() -> Self {
        EvBuf {
            evs: [Ev {
                offset: 0,
                length: 0,
                value: Value::CodePoint(0),
            }; CAP],
            len: 0,
            overflow: false,
            big: Vec::new(),
        }
    }
}

impl EvBuf {
    /// Empties the buffer.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflow = false;
        self.big.clear();
    }

    /// Appends an event; false (and [`overflowed`](Self::overflowed)) once full.
    #[inline]
    pub fn push(&mut self, e: Ev) -> bool {
        match self.evs.get_mut(self.len) {
            Some(slot) => {
                *slot = e;
                self.len += 1;
                true
            }
            None => {
                self.overflow = true;
                false
            }
        }
    }

    /// The events held.
    #[inline]
    pub fn as_slice(&self) -> &[Ev] {
        &self.evs[..self.len]
    }

    /// Whether more than [`CAP`] events were pushed (a broken decoder).
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// Clears the buffer and fills it from reference codec events.
    #[inline]
    pub fn fill(&mut self, mut events: Events<'_>) {
        self.clear();
        while let Some(l) = events.next_located() {
            if !self.push(Ev::from_located(&l)) {
                break;
            }
        }
    }
}

impl EvBuf {
    /// Clears the buffer and fills it from reference UTF-∞-8 events.
    #[inline]
    pub fn fill_inf(&mut self, mut events: utf_inf8::Events<'_>) {
        self.clear();
        while let Some(l) = events.next_located() {
            if !self.push_inf(&l, 0) {
                break;
            }
        }
    }

    /// Appends a reference UTF-∞-8 event, its offset moved on by `shift`: a code point
    /// above `u32::MAX` saturates, and its hex digits are kept ([`EvBuf::big`]); false
    /// (and [`overflowed`](Self::overflowed)) once full.
    #[inline]
    pub fn push_inf(&mut self, l: &Located<BigCodePoint>, shift: u64) -> bool {
        let value = match &l.event {
            Event::CodePoint(cp) => Value::CodePoint(cp.to_u32().unwrap_or_else(|| {
                self.big.push((self.len, format!("{cp:X}")));
                u32::MAX
            })),
            Event::Error(e) => Value::Error(KindCode::reference(e.kind)),
            Event::Reserved(_) => Value::Reserved,
        };
        self.push(Ev {
            offset: u32::try_from(l.offset.saturating_add(shift)).unwrap_or(u32::MAX),
            length: u32::try_from(l.length).unwrap_or(u32::MAX),
            value,
        })
    }

    /// The hex digits of the code points above `u32::MAX`, by event index.
    pub fn big(&self) -> &[(usize, String)] {
        &self.big
    }

    /// The same events (with the same large code points), neither overflowed.
    pub fn same_as(&self, other: &EvBuf) -> bool {
        !self.overflow
            && !other.overflow
            && self.as_slice() == other.as_slice()
            && self.big == other.big
    }

    /// [`render_events`] with each large code point's own digits (cut to 40 digits).
    pub fn render(&self) -> String {
        let parts: Vec<String> = self
            .as_slice()
            .iter()
            .enumerate()
            .map(|(i, e)| match self.big.iter().find(|(at, _)| *at == i) {
                Some((_, hex)) if hex.len() > 40 => format!(
                    "U+{}…({} digits) @{}+{}",
                    &hex[..40],
                    hex.len(),
                    e.offset,
                    e.length
                ),
                Some((_, hex)) => format!("U+{hex} @{}+{}", e.offset, e.length),
                None => e.to_string(),
            })
            .collect();
        format!(
            "[{}{}]",
            parts.join(", "),
            if self.overflow { ", …" } else { "" }
        )
    }
}

/// Renders events as `[U+00A0 @0+2, truncated @2+1]` (and `…` after an overflow).
pub fn render_events(evs: &[Ev], overflow: bool) -> String {
    let parts: Vec<String> = evs.iter().map(Ev::to_string).collect();
    format!(
        "[{}{}]",
        parts.join(", "),
        if overflow { ", …" } else { "" }
    )
}

/// A document finding's kind as a small number, so that findings compare without
/// strings: a document rule's index in [`DOCUMENT_KINDS`], or [`DECODE_KINDS`] plus the
/// [`KindCode`] of a decode error kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FindingCode(pub u8);

/// The document rules' finding kinds (`docs/semantics.md` §2.6), by [`FindingCode`].
pub const DOCUMENT_KINDS: [&str; 9] = [
    "nul",
    "reserved",
    "inner-magic",
    "missing-magic",
    "cr",
    "line-separator",
    "paragraph-separator",
    "c0-control",
    "missing-final-newline",
];

/// Where the [`FindingCode`]s of decode error kinds start.
pub const DECODE_KINDS: u8 = 16;

impl FindingCode {
    /// The kind's name (`docs/semantics.md` §5).
    pub fn name(self) -> &'static str {
        match self.0.checked_sub(DECODE_KINDS) {
            Some(k) => KindCode(k).name(),
            None => DOCUMENT_KINDS
                .get(usize::from(self.0))
                .copied()
                .unwrap_or("?"),
        }
    }

    /// Whether it is an error finding (`nul` or a decode error; the others are warnings).
    pub fn is_error(self) -> bool {
        self.0 == 0 || self.0 >= DECODE_KINDS
    }

    /// The code of a reference codec finding's kind.
    pub fn reference(kind: corrected_utf8::FindingKind) -> FindingCode {
        use corrected_utf8::FindingKind as F;
        FindingCode(match kind {
            F::Nul => 0,
            F::Reserved => 1,
            F::InnerMagic => 2,
            F::MissingMagic => 3,
            F::Cr => 4,
            F::LineSeparator => 5,
            F::ParagraphSeparator => 6,
            F::C0Control => 7,
            F::MissingFinalNewline => 8,
            F::Decode(e) => DECODE_KINDS + KindCode::reference(e).0,
        })
    }

    /// The code of a spec-literal finding's kind.
    pub fn literal(kind: literal::corrected::FindingKind) -> FindingCode {
        use literal::corrected::FindingKind as F;
        FindingCode(match kind {
            F::Nul => 0,
            F::Reserved => 1,
            F::InnerMagic => 2,
            F::MissingMagic => 3,
            F::Cr => 4,
            F::LineSeparator => 5,
            F::ParagraphSeparator => 6,
            F::C0Control => 7,
            F::MissingFinalNewline => 8,
            F::Decode(k) => DECODE_KINDS + KindCode::literal(k).0,
        })
    }
}

/// One finding of a document checker as the walk compares them (`docs/semantics.md`
/// §2.6): its kind, its byte offset in the whole file, its line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DocFinding {
    /// `nul`, `inner-magic`, `missing-magic`, a decode error kind, …
    pub kind: FindingCode,
    /// Byte offset in the whole file (the magic number counts).
    pub offset: u64,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

impl DocFinding {
    /// The finding of the reference codec's checker.
    #[inline]
    pub fn from_codec(f: &corrected_utf8::Finding) -> DocFinding {
        DocFinding {
            kind: FindingCode::reference(f.kind),
            offset: f.offset,
            line: f.line,
            column: f.column,
        }
    }

    /// The finding of the spec-literal checker.
    pub fn from_literal(f: &literal::corrected::Finding) -> DocFinding {
        DocFinding {
            kind: FindingCode::literal(f.kind),
            offset: f.offset as u64,
            line: f.line as u64,
            column: f.column as u64,
        }
    }
}

impl fmt::Display for DocFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} @{} {}:{}",
            self.kind.name(),
            self.offset,
            self.line,
            self.column
        )
    }
}

/// Renders findings as `[missing-magic @0 1:1, nul @0 1:1]`.
pub fn render_findings(findings: &[DocFinding]) -> String {
    let parts: Vec<String> = findings.iter().map(DocFinding::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// A Corrected UTF-8 and UTF-8 codec under test.
#[derive(Clone, Copy)]
pub struct CodecFns {
    /// For messages.
    pub name: &'static str,
    /// Encodes one code point as Corrected UTF-8 into the buffer: the number of bytes
    /// written, or the error kind.
    pub corrected_encode: fn(u32, &mut [u8; ENCODE_CAP]) -> Result<usize, KindCode>,
    /// Decodes Corrected UTF-8 into events.
    pub corrected_decode: fn(&[u8], &mut EvBuf),
    /// Decodes UTF-8 into events.
    pub utf8_decode: fn(&[u8], &mut EvBuf),
    /// Decodes UTF-∞-8 into events, with a limit in bytes on one code.
    pub utf_inf8_decode: fn(&[u8], u32, &mut EvBuf),
    /// Checks a Corrected UTF-8 document (a whole file): its findings, in order, into the
    /// vector (cleared first).
    pub corrected_document: fn(&[u8], &mut Vec<DocFinding>),
}

/// The reference codec (`corrected-utf8`).
pub const REFERENCE: CodecFns = CodecFns {
    name: "reference",
    corrected_encode: |cp, buf| {
        let mut b = [0; corrected::MAX_LEN];
        match corrected::encode_into(cp, &mut b) {
            Ok(bytes) => {
                let n = bytes.len();
                // A fixed-size copy: no call to memmove for a few bytes.
                buf[..corrected::MAX_LEN].copy_from_slice(&b);
                Ok(n)
            }
            Err(e) => Err(KindCode::reference(e.kind)),
        }
    },
    corrected_decode: |bytes, out| out.fill(corrected::events(bytes)),
    utf8_decode: |bytes, out| out.fill(utf8::events(bytes)),
    utf_inf8_decode: |bytes, limit, out| out.fill_inf(utf_inf8::events_with_limit(bytes, limit)),
    // `check_document` without its vector: the same checker, pushed once and finished.
    corrected_document: |bytes, out| {
        out.clear();
        let mut checker = DocumentChecker::new();
        checker.push(bytes, |f| out.push(DocFinding::from_codec(&f)));
        checker.finish(|f| out.push(DocFinding::from_codec(&f)));
    },
};

/// The spec-literal code itself, as an implementation: the exhaustive check run on it
/// compares the literal code with itself through the check's shortcuts (memoised steps,
/// induction over suffixes), so it tests those shortcuts. Slow: it allocates.
pub const LITERAL: CodecFns = CodecFns {
    name: "spec-literal",
    corrected_encode: |cp, buf| {
        let mut b = [0; 6];
        let n = literal::corrected::encode_into(cp, &mut b).map_err(KindCode::literal)?;
        buf[..n].copy_from_slice(&b[..n]);
        Ok(n)
    },
    corrected_decode: |bytes, out| {
        fill_literal(literal::corrected::decode_located(bytes), out);
    },
    utf8_decode: |bytes, out| fill_literal(literal::utf8::decode_located(bytes), out),
    utf_inf8_decode: |bytes, limit, out| {
        fill_literal_inf(
            literal::utf_inf8::decode_located(bytes, limit as usize),
            out,
        );
    },
    corrected_document: |bytes, out| {
        out.clear();
        out.extend(
            literal::corrected::check_document(bytes)
                .iter()
                .map(DocFinding::from_literal),
        );
    },
};

/// Fills `out` from a spec-literal UTF-∞-8 `decode_located` result (code points above
/// `u32::MAX` saturate, as in [`EvBuf::push_inf`], their digits kept in
/// [`EvBuf::big`]).
pub fn fill_literal_inf(events: Vec<(usize, usize, literal::utf_inf8::Event)>, out: &mut EvBuf) {
    out.clear();
    for (offset, length, e) in events {
        let value = match e {
            literal::utf_inf8::Event::CodePoint(cp) => {
                match cp.to_u128().and_then(|v| u32::try_from(v).ok()) {
                    Some(v) => Ok(v),
                    None => {
                        out.big.push((out.len, cp.hex().to_string()));
                        Ok(u32::MAX)
                    }
                }
            }
            literal::utf_inf8::Event::Error { kind, .. } => Err(kind),
        };
        let mut e = Ev::from_step(offset, length, value);
        // Offsets and lengths of long inputs: saturate, never wrap.
        e.offset = u32::try_from(offset).unwrap_or(u32::MAX);
        e.length = u32::try_from(length).unwrap_or(u32::MAX);
        if !out.push(e) {
            break;
        }
    }
}

/// Fills `out` from a spec-literal `decode_located` result.
pub fn fill_literal(events: Vec<(usize, usize, literal::Event)>, out: &mut EvBuf) {
    out.clear();
    for (offset, length, e) in events {
        let value = match e {
            literal::Event::CodePoint(cp) => Ok(cp),
            literal::Event::Error { kind, .. } => Err(kind),
            // The walk's events tag a reserved span as `step` does.
            literal::Event::Reserved { .. } => Err(literal::Kind::Reserved),
        };
        if !out.push(Ev::from_step(offset, length, value)) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_codes_match_names() {
        use corrected_utf8::FindingKind as F;
        for k in [
            F::Nul,
            F::Reserved,
            F::InnerMagic,
            F::MissingMagic,
            F::Cr,
            F::LineSeparator,
        ]
        .into_iter()
        .chain([F::ParagraphSeparator, F::C0Control, F::MissingFinalNewline])
        .chain(ErrorKind::ALL.map(F::Decode))
        {
            let code = FindingCode::reference(k);
            assert_eq!(code.name(), k.as_str());
            assert_eq!(
                code.is_error(),
                k.severity() == corrected_utf8::Severity::Error
            );
        }
        use literal::corrected::FindingKind as L;
        for k in [
            L::Nul,
            L::Reserved,
            L::InnerMagic,
            L::MissingMagic,
            L::Cr,
            L::LineSeparator,
        ]
        .into_iter()
        .chain([L::ParagraphSeparator, L::C0Control, L::MissingFinalNewline])
        .chain(Kind::ALL.map(L::Decode))
        {
            assert_eq!(FindingCode::literal(k).name(), k.as_str());
        }
    }

    #[test]
    fn kind_codes_match_names() {
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(KindCode::literal(k), KindCode(i as u8));
            assert_eq!(KindCode::literal(k).name(), k.as_str());
        }
        for k in ErrorKind::ALL {
            let code = KindCode::reference(k);
            assert_eq!(code.name(), k.as_str());
            assert_eq!(
                code.to_literal(),
                Kind::from_name(k.as_str()),
                "{}",
                k.as_str()
            );
        }
    }
}
