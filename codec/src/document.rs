//! Corrected UTF-8 documents (files): the magic number, errors and warnings, each with a
//! byte offset and a line and column (`docs/semantics.md` §2.6).

use crate::corrected::fast;
use crate::corrected::StreamDecoder;
use crate::corrected::MAGIC;
use crate::error::ErrorKind;
use crate::event::{Event, Located};
#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;

/// What a finding is about.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{ErrorKind, FindingKind, Severity};
/// assert_eq!(FindingKind::Cr.as_str(), "cr");
/// assert_eq!(FindingKind::from_name("reserved"), Some(FindingKind::Reserved));
/// assert_eq!(FindingKind::Reserved.severity(), Severity::Warning);
/// assert_eq!(FindingKind::Decode(ErrorKind::Truncated).as_str(), "truncated");
/// assert_eq!(FindingKind::Nul.severity(), Severity::Error);
/// assert_eq!(FindingKind::from_name("tab"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// Error: U+0000 outside every complete magic number.
    Nul,
    /// Error: a decoding error span, under its own kind (a reserved span is no error:
    /// it is [`FindingKind::Reserved`]).
    Decode(ErrorKind),
    /// Warning: a reserved span (`FE`/`FF` and what follows up to the next recognized
    /// lead byte): well-formed, but of no meaning in this version.
    Reserved,
    /// Warning: a complete magic number after the start of the file (typically two
    /// files concatenated); its four code points are text.
    InnerMagic,
    /// Warning: the file does not start with the magic number.
    MissingMagic,
    /// Warning: U+000D.
    Cr,
    /// Warning: U+2028.
    LineSeparator,
    /// Warning: U+2029.
    ParagraphSeparator,
    /// Warning: U+0001..U+001F other than U+000A and U+000D.
    C0Control,
    /// Warning: non-empty text whose last event is not U+000A.
    MissingFinalNewline,
}

impl FindingKind {
    const NAMED: [FindingKind; 9] = [
        FindingKind::Nul,
        FindingKind::Reserved,
        FindingKind::InnerMagic,
        FindingKind::MissingMagic,
        FindingKind::Cr,
        FindingKind::LineSeparator,
        FindingKind::ParagraphSeparator,
        FindingKind::C0Control,
        FindingKind::MissingFinalNewline,
    ];

    /// The identifier used in vectors, reports and the adapter protocol.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::FindingKind;
    /// assert_eq!(FindingKind::MissingFinalNewline.as_str(), "missing-final-newline");
    /// assert_ne!(FindingKind::C0Control.as_str(), "control");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            FindingKind::Nul => "nul",
            FindingKind::Decode(kind) => kind.as_str(),
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

    /// The kind named by an identifier (a document rule or a decoding error kind).
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{ErrorKind, FindingKind};
    /// assert_eq!(FindingKind::from_name("nul"), Some(FindingKind::Nul));
    /// assert_eq!(FindingKind::from_name("truncated"), Some(FindingKind::Decode(ErrorKind::Truncated)));
    /// assert_eq!(FindingKind::from_name("NUL"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<FindingKind> {
        FindingKind::NAMED
            .into_iter()
            .find(|k| k.as_str() == name)
            .or_else(|| ErrorKind::from_name(name).map(FindingKind::Decode))
    }

    /// Errors break a MUST; warnings a SHOULD.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{ErrorKind, FindingKind, Severity};
    /// assert_eq!(FindingKind::Decode(ErrorKind::Truncated).severity(), Severity::Error);
    /// assert_eq!(FindingKind::MissingMagic.severity(), Severity::Warning);
    /// ```
    pub const fn severity(self) -> Severity {
        match self {
            FindingKind::Nul | FindingKind::Decode(_) => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The document breaks a MUST or MUST NOT.
    Error,
    /// The document breaks a SHOULD or SHOULD NOT.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::Severity;
    /// assert_eq!(Severity::Error.as_str(), "error");
    /// assert_ne!(Severity::Warning.as_str(), "warn");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: its kind and where it is.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{check_document, FindingKind};
/// let findings = check_document(b"\x00\n");
/// assert_eq!(findings[1].to_string(), "1:1: error: nul (byte 0)");
/// assert!(check_document(&[&corrected_utf8::corrected::MAGIC[..], b"ok\n"].concat()).is_empty());
/// // A reserved span's extent: `FE` and the two bytes up to `A`.
/// let reserved = check_document(b"\xFE\x80\x80A\n")[1];
/// assert_eq!((reserved.kind, reserved.offset, reserved.length), (FindingKind::Reserved, 0, 3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Finding {
    /// What it is.
    pub kind: FindingKind,
    /// Byte offset in the whole file (the magic number counts).
    pub offset: u64,
    /// Bytes the finding covers from `offset`: the error span or reserved span, the
    /// code point's sequence, or the 8 bytes of an inner magic number; 0 for
    /// `missing-magic` and `missing-final-newline`, which are about what is absent.
    pub length: u64,
    /// 1-based line; lines start after the magic number and after each U+000A.
    pub line: u64,
    /// 1-based column: one more than the events (code points and error spans) before it
    /// on its line.
    pub column: u64,
}

impl Finding {
    /// The kind's severity.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{check_document, Severity};
    /// let findings = check_document(b"a\r\n");
    /// assert_eq!(findings[0].severity(), Severity::Warning); // missing-magic
    /// assert_eq!(findings[1].severity(), Severity::Warning); // cr
    /// ```
    pub const fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {} (byte {})",
            self.line,
            self.column,
            self.severity(),
            self.kind,
            self.offset
        )
    }
}

/// Whether the start of the file has been matched against the magic number yet.
#[derive(Clone, Copy, Debug)]
enum Magic {
    /// The first `n` bytes match the magic number's first `n` bytes (n < 8).
    Matching(u8),
    /// Decided: the file starts with the magic number or it does not.
    Decided,
}

/// Checks a Corrected UTF-8 document as a stream, in constant memory.
///
/// Push chunks with [`push`](DocumentChecker::push), then call
/// [`finish`](DocumentChecker::finish); findings arrive through the callback in offset
/// order, the same for any chunking. The checker holds back at most the first 8 bytes
/// (until it knows whether they are the magic number), whatever the [`StreamDecoder`]
/// holds back, and up to 3 code points (7 bytes) that begin a magic number after the
/// start (until it knows whether the magic number is complete): memory is constant.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{DocumentChecker, FindingKind};
/// let mut checker = DocumentChecker::new();
/// let mut kinds = Vec::new();
/// checker.push(&corrected_utf8::corrected::MAGIC[..5], |f| kinds.push(f.kind));
/// checker.push(&corrected_utf8::corrected::MAGIC[5..], |f| kinds.push(f.kind));
/// checker.push(b"tab\there", |f| kinds.push(f.kind));
/// checker.finish(|f| kinds.push(f.kind));
/// assert_eq!(kinds, [FindingKind::C0Control, FindingKind::MissingFinalNewline]);
/// ```
#[derive(Clone, Debug)]
pub struct DocumentChecker {
    magic: Magic,
    decoder: StreamDecoder,
    text: Text,
}

impl Default for DocumentChecker {
    fn default() -> Self {
        DocumentChecker::new()
    }
}

impl DocumentChecker {
    /// A checker at the start of a file.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{DocumentChecker, FindingKind};
    /// let mut checker = DocumentChecker::new();
    /// let mut kinds = Vec::new();
    /// checker.finish(|f| kinds.push(f.kind));
    /// assert_eq!(kinds, [FindingKind::MissingMagic]); // an empty file has no magic number
    /// ```
    pub fn new() -> Self {
        DocumentChecker {
            magic: Magic::Matching(0),
            decoder: StreamDecoder::new(),
            text: Text::new(),
        }
    }

    /// Checks the next chunk of the file.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{DocumentChecker, FindingKind};
    /// let mut checker = DocumentChecker::new();
    /// let mut found = Vec::new();
    /// checker.push(b"a\n\xE2\x80", |f| found.push((f.kind, f.line, f.column)));
    /// checker.push(b"\xA8\n", |f| found.push((f.kind, f.line, f.column)));
    /// assert_eq!(found, [(FindingKind::MissingMagic, 1, 1)]);
    /// checker.finish(|_| unreachable!());
    /// ```
    pub fn push<F: FnMut(Finding)>(&mut self, chunk: &[u8], mut sink: F) {
        let mut rest = chunk;
        if let Magic::Matching(matched) = self.magic {
            let matched = matched as usize;
            let take = rest.len().min(MAGIC.len() - matched);
            if rest[..take] == MAGIC[matched..matched + take] {
                rest = &rest[take..];
                if matched + take < MAGIC.len() {
                    self.magic = Magic::Matching((matched + take) as u8);
                    return;
                }
                // The whole magic number: the text starts after it.
                self.magic = Magic::Decided;
                self.decoder = StreamDecoder::new().starting_at(MAGIC.len() as u64);
            } else {
                // No magic number: the bytes held back so far are text.
                self.no_magic(matched, &mut sink);
            }
        }
        let (decoder, text) = (&mut self.decoder, &mut self.text);
        decoder.push(rest, |event| text.event(event, &mut sink));
    }

    /// Checks the next chunk exactly as [`push`](DocumentChecker::push) does (the same
    /// findings in the same order, for any chunking, mixed with `push` or not), many
    /// times faster on text with little to report: a stretch of whole sequences with
    /// nothing to report is validated with [`fast`] and counted in bulk (lines are its
    /// U+000A bytes, columns its bytes that are not continuation bytes), and only the
    /// bytes from something to report on go through the per-code-point path.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{check_document, corrected, DocumentChecker, FindingKind};
    /// let text = corrected::encode("Größe\n大小 🦀\r\n".chars().map(u32::from)).unwrap();
    /// let file = [&corrected::MAGIC[..], &text].concat();
    /// let mut found = Vec::new();
    /// let mut checker = DocumentChecker::new();
    /// for chunk in file.chunks(5) {
    ///     checker.push_fast(chunk, |f| found.push(f));
    /// }
    /// checker.finish(|f| found.push(f));
    /// assert_eq!(found, check_document(&file));
    /// assert_eq!((found[0].kind, found[0].line, found[0].column), (FindingKind::Cr, 2, 5));
    /// ```
    pub fn push_fast<F: FnMut(Finding)>(&mut self, chunk: &[u8], mut sink: F) {
        let mut rest = chunk;
        let mut step = CAREFUL_MIN;
        while !rest.is_empty() {
            let quiet = self.skip_quiet(rest);
            rest = &rest[quiet..];
            // Careful steps grow while there is something to report every few bytes (a
            // hostile file is checked at the per-code-point path's speed, without a
            // scan per finding) and start small again after a quiet stretch.
            step = if quiet >= QUIET_MIN {
                CAREFUL_MIN
            } else {
                (2 * step).min(CAREFUL_MAX)
            };
            let careful = rest.len().min(step);
            self.push(&rest[..careful], &mut sink);
            rest = &rest[careful..];
        }
    }

    /// Moves past the longest prefix of `bytes` made of whole valid sequences with
    /// nothing to report, counting it in bulk; returns its length. Nothing when the
    /// checker is not between two code points with nothing held back (the magic number
    /// still undecided, a sequence or a reserved span in progress, a magic number's
    /// start held).
    fn skip_quiet(&mut self, bytes: &[u8]) -> usize {
        let offset = self.decoder.offset();
        let idle = StreamDecoder::new().starting_at(offset);
        if !matches!(self.magic, Magic::Decided) || self.text.held > 0 || self.decoder != idle {
            return 0;
        }
        let quiet = &bytes[..fast::quiet_len(bytes)];
        // Everything before the first error or reserved span is valid and it starts a
        // sequence (a sequence cut short by the end of `quiet` is such a span).
        let quiet = match fast::validate(quiet) {
            Ok(()) => quiet,
            Err(stop) => &quiet[..stop.offset() as usize],
        };
        if !quiet.is_empty() {
            self.text.advance(quiet);
            self.decoder = idle.starting_at(offset + quiet.len() as u64);
        }
        quiet.len()
    }

    /// Ends the file: reports what is still open, then `missing-final-newline`.
    ///
    /// # Examples
    ///
    /// ```
    /// use corrected_utf8::{DocumentChecker, FindingKind};
    /// let mut checker = DocumentChecker::new();
    /// let mut found = Vec::new();
    /// checker.push(b"ab\xF0", |f| found.push(f.kind));
    /// checker.finish(|f| found.push(f.kind));
    /// assert_eq!(found[1..], [FindingKind::Decode(corrected_utf8::ErrorKind::Truncated),
    ///                         FindingKind::MissingFinalNewline]);
    /// ```
    pub fn finish<F: FnMut(Finding)>(&mut self, mut sink: F) {
        if let Magic::Matching(matched) = self.magic {
            // Fewer than 8 bytes, all a prefix of the magic number: still no magic.
            self.no_magic(matched as usize, &mut sink);
        }
        let end = self.decoder.offset();
        let (decoder, text) = (&mut self.decoder, &mut self.text);
        decoder.finish(|event| text.event(event, &mut sink));
        // An incomplete magic number at the end is ordinary text.
        text.release(&mut sink);
        if text.ended_with_newline == Some(false) {
            sink(Finding {
                kind: FindingKind::MissingFinalNewline,
                offset: end,
                length: 0,
                line: text.line,
                column: text.column,
            });
        }
        *self = DocumentChecker::new();
    }

    /// The file does not start with the magic number: report it and decode the `held`
    /// bytes that matched its start as text.
    fn no_magic<F: FnMut(Finding)>(&mut self, held: usize, sink: &mut F) {
        self.magic = Magic::Decided;
        sink(Finding {
            kind: FindingKind::MissingMagic,
            offset: 0,
            length: 0,
            line: 1,
            column: 1,
        });
        let (decoder, text) = (&mut self.decoder, &mut self.text);
        decoder.push(&MAGIC[..held], |event| text.event(event, sink));
    }
}

/// The first careful step of [`DocumentChecker::push_fast`] after a quiet stretch: a
/// few code points, enough for a finding and a CR LF.
const CAREFUL_MIN: usize = 16;

/// The longest careful step, reached by doubling the step after each quiet stretch
/// shorter than [`QUIET_MIN`].
const CAREFUL_MAX: usize = 4096;

/// A quiet stretch at least this long resets the careful step to [`CAREFUL_MIN`].
const QUIET_MIN: usize = 32;

/// The magic number's code points. Four consecutive code point events equal to these are
/// exactly its bytes, since every code point has one encoding.
const MAGIC_CODE_POINTS: [u32; 4] = [0x10E7D, 0xED4E, 0x0000, 0x000A];

/// Where each of [`MAGIC_CODE_POINTS`] starts in the magic number's bytes.
const MAGIC_OFFSETS: [u64; 4] = [0, 3, 6, 7];

/// The text's rules over the decoder's events: positions, the per-character findings,
/// and magic numbers after the start.
#[derive(Clone, Debug)]
struct Text {
    line: u64,
    column: u64,
    /// The last event of the text, if any: `Some(true)` when it was U+000A.
    ended_with_newline: Option<bool>,
    /// How many events (at most 3) that begin a magic number are held back, until the
    /// next event decides whether the magic number is complete.
    held: u8,
    /// Offset of the first held event.
    held_offset: u64,
}

impl Text {
    const fn new() -> Self {
        Text {
            line: 1,
            column: 1,
            ended_with_newline: None,
            held: 0,
            held_offset: 0,
        }
    }

    fn event<F: FnMut(Finding)>(&mut self, located: Located, sink: &mut F) {
        let continues = |n: u8| located.event == Event::CodePoint(MAGIC_CODE_POINTS[n as usize]);
        if self.held > 0 && !continues(self.held) {
            self.release(sink);
        }
        if !continues(self.held) {
            return self.character(located, false, sink);
        }
        if self.held == 0 {
            self.held_offset = located.offset;
        }
        self.held += 1;
        if self.held as usize == MAGIC_CODE_POINTS.len() {
            // A complete magic number after the start: text, but its `00` is no `nul`.
            self.held = 0;
            sink(Finding {
                kind: FindingKind::InnerMagic,
                offset: self.held_offset,
                length: MAGIC.len() as u64,
                line: self.line,
                column: self.column,
            });
            for i in 0..MAGIC_CODE_POINTS.len() {
                self.character(self.magic_code_point(i), true, sink);
            }
        }
    }

    /// The held events did not make a whole magic number: they are ordinary text.
    fn release<F: FnMut(Finding)>(&mut self, sink: &mut F) {
        let held = core::mem::take(&mut self.held) as usize;
        for i in 0..held {
            self.character(self.magic_code_point(i), false, sink);
        }
    }

    /// The `i`-th code point of a magic number that starts at the held offset.
    fn magic_code_point(&self, i: usize) -> Located {
        let end = MAGIC_OFFSETS
            .get(i + 1)
            .copied()
            .unwrap_or(MAGIC.len() as u64);
        Located {
            offset: self.held_offset + MAGIC_OFFSETS[i],
            length: end - MAGIC_OFFSETS[i],
            event: Event::CodePoint(MAGIC_CODE_POINTS[i]),
        }
    }

    /// Moves past `bytes` as [`character`](Text::character) would, one code point at a
    /// time: they are whole valid sequences with nothing to report, and nothing is held.
    fn advance(&mut self, bytes: &[u8]) {
        let newlines = fast::count_newlines(bytes);
        let line = if newlines == 0 {
            bytes
        } else {
            self.line += newlines as u64;
            self.column = 1;
            // The bytes after the last U+000A (`rsplit` always yields one piece).
            bytes.rsplit(|&b| b == b'\n').next().unwrap_or(bytes)
        };
        self.column += fast::utf32_len(line) as u64;
        self.ended_with_newline = Some(bytes.last() == Some(&b'\n'));
    }

    /// One event of the text; `in_magic` when it is part of a complete magic number.
    fn character<F: FnMut(Finding)>(&mut self, located: Located, in_magic: bool, sink: &mut F) {
        let event = located.event;
        let kind = match event {
            Event::Error(e) => Some(FindingKind::Decode(e.kind)),
            Event::Reserved(_) => Some(FindingKind::Reserved),
            Event::CodePoint(cp) => match cp {
                0x00 if in_magic => None,
                0x00 => Some(FindingKind::Nul),
                0x0D => Some(FindingKind::Cr),
                0x0A => None,
                0x01..=0x1F => Some(FindingKind::C0Control),
                0x2028 => Some(FindingKind::LineSeparator),
                0x2029 => Some(FindingKind::ParagraphSeparator),
                _ => None,
            },
        };
        if let Some(kind) = kind {
            sink(Finding {
                kind,
                offset: located.offset,
                length: located.length,
                line: self.line,
                column: self.column,
            });
        }
        let newline = event == Event::CodePoint(0x0A);
        self.ended_with_newline = Some(newline);
        if newline {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
    }
}

/// Checks a whole Corrected UTF-8 document: every finding, in offset order.
///
/// # Examples
///
/// ```
/// use corrected_utf8::{check_document, corrected::MAGIC, FindingKind};
/// let mut file = MAGIC.to_vec();
/// file.extend_from_slice(b"line 1\nline\x002\n");
/// let findings = check_document(&file);
/// assert_eq!(findings.len(), 1);
/// assert_eq!((findings[0].kind, findings[0].offset, findings[0].line, findings[0].column),
///            (FindingKind::Nul, 19, 2, 5));
/// assert!(check_document(&[&MAGIC[..], b"fine\n"].concat()).is_empty());
/// ```
#[cfg(feature = "alloc")]
pub fn check_document(bytes: &[u8]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut checker = DocumentChecker::new();
    checker.push(bytes, |f| findings.push(f));
    checker.finish(|f| findings.push(f));
    findings
}
