//! A Corrected UTF-8 document check explained (`docs/semantics.md` §2.6): the codec's
//! findings, each with what its rule says, and the decoding of the whole file.

use crate::decode::Decoding;
use corrected_utf8::corrected::MAGIC;
use corrected_utf8::{check_document, Encoding, Finding, FindingKind, Severity};

/// A document checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Whether the file starts with the magic number (which is not part of the text).
    pub magic: bool,
    /// The codec's findings, in offset order (`missing-magic` first).
    pub findings: Vec<Finding>,
    /// The whole file decoded as Corrected UTF-8 (the magic number's four code points
    /// included, at the start).
    pub decoding: Decoding,
}

impl Document {
    /// `"valid"` when no finding is an error (warnings do not make a document invalid),
    /// else `"invalid"`, as the vectors write it.
    pub fn result(&self) -> &'static str {
        if self
            .findings
            .iter()
            .any(|f| f.severity() == Severity::Error)
        {
            "invalid"
        } else {
            "valid"
        }
    }
}

/// Checks `bytes` as a whole Corrected UTF-8 document.
pub fn explain(bytes: &[u8]) -> Document {
    Document {
        magic: bytes.starts_with(&MAGIC),
        findings: check_document(bytes),
        decoding: Decoding::new(bytes, Encoding::CorrectedUtf8, None),
    }
}

/// What the rule behind a finding of `kind` says, in a few words.
///
/// # Examples
///
/// ```
/// use corrected_utf8::FindingKind;
/// use cutf8_explain::document::rule;
/// assert_eq!(rule(FindingKind::Cr), "U+000D (carriage return): lines end with U+000A only");
/// ```
pub fn rule(kind: FindingKind) -> &'static str {
    match kind {
        FindingKind::Nul => "U+0000 outside a complete magic number (MUST NOT)",
        FindingKind::Decode(_) => "a decoding error span (MUST NOT)",
        FindingKind::Reserved => {
            "a reserved span: well-formed, but of no meaning in this version (not an error)"
        }
        FindingKind::InnerMagic => {
            "a complete magic number after the start, typically two files concatenated: its code points are text"
        }
        FindingKind::MissingMagic => {
            "the file does not start with the magic number EF B7 9D ED B2 AE 00 0A (SHOULD)"
        }
        FindingKind::Cr => "U+000D (carriage return): lines end with U+000A only",
        FindingKind::LineSeparator => "U+2028 (line separator) SHOULD NOT be used",
        FindingKind::ParagraphSeparator => "U+2029 (paragraph separator) SHOULD NOT be used",
        FindingKind::C0Control => "a C0 control other than U+000A and U+000D (TAB included)",
        FindingKind::MissingFinalNewline => "the text does not end with U+000A (SHOULD)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use corrected_utf8::ErrorKind;

    #[test]
    fn findings_are_the_codec_s_with_their_rule() {
        let doc = explain(b"\xEF\xB7\x9D\xED\xB2\xAE\x00\x0AA\x00\r\n\xC3");
        assert!(doc.magic);
        let kinds: Vec<&str> = doc.findings.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["nul", "cr", "truncated", "missing-final-newline"]);
        assert_eq!(doc.result(), "invalid");
        assert_eq!(doc.findings[0].offset, 9);
        assert_eq!((doc.findings[0].line, doc.findings[0].column), (1, 2));
        assert!(rule(FindingKind::Decode(ErrorKind::Truncated)).contains("decoding error"));
        // The decoding covers the whole file, the magic number included.
        assert_eq!(doc.decoding.segments[0].short, "U+10E7D");

        let doc = explain(b"A\xFE\n");
        assert!(!doc.magic);
        let kinds: Vec<&str> = doc.findings.iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["missing-magic", "reserved"]);
        assert_eq!(doc.result(), "valid");
    }
}
