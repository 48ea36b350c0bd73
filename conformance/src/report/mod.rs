//! The reports of a [`RunReport`](super::outcome::RunReport): the terminal text, and the files of
//! `--json`, `--junit` and `--html`; [`output`]: where the files go and how they are
//! written.
//!
//! The files list failures one by one and passes and skips as counts ([`Listed`]), so
//! that a run of hundreds of thousands of cases writes a report of kilobytes; each listed
//! case carries its input (hex, cut at [`MAX_INPUT_BYTES`]) or code point and its flags,
//! so that it can be read without the vector files. `--report-all` lists every case.

pub mod html;
pub mod json;
pub mod junit;
pub mod model;
pub mod output;
pub mod terminal;

use crate::case::{Case, Chunking, Test};
use crate::judge::{CaseResult, Status};
pub use crate::text::cut;
use serde_json::Value;
use std::borrow::Cow;

/// Values longer than this are cut in the terminal, JUnit and HTML reports (the JSON
/// report keeps them whole).
pub const MAX_VALUE: usize = 400;

/// A listed case's input is cut after this many bytes in the JSON report (its length is
/// given whole), and a code point after as many characters.
pub const MAX_INPUT_BYTES: usize = 2048;

/// Which cases the report files list one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Listed {
    /// Failures, crashes, timeouts, protocol errors, unexpected passes and expected
    /// failures; passes and skips only as counts (the default).
    #[default]
    Failures,
    /// Every case (`--report-all`).
    All,
}

impl Listed {
    /// Whether result `r` is listed one by one.
    pub fn includes(self, r: &CaseResult) -> bool {
        self == Listed::All || r.status.is_failure() || r.status == Status::Xfail
    }

    /// `"failures"` or `"all"`, as the JSON report names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Listed::Failures => "failures",
            Listed::All => "all",
        }
    }
}

/// Compact JSON, cut to `max` bytes.
pub fn compact(value: &Value, max: usize) -> String {
    cut(&value.to_string(), max)
}

/// `s` with every character that `escape` picks written as `\u{XXXX}` text (uppercase
/// hex), so that it can be read, and shown, safely.
fn escape_chars(s: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(&escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if escape(c) {
            out.push_str(&format!("\\u{{{:X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` for a terminal: every control character (C0, DEL, C1: ESC among them, which
/// would let a vector comment or an adapter's answer drive the terminal) as
/// `\u{1B}` text; line feeds too unless `keep_newlines`.
pub fn terminal_safe(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    escape_chars(s, |c| c.is_control() && !(keep_newlines && c == '\n'))
}

/// `s` as XML 1.0 text: the characters XML 1.0 forbids (C0 controls but tab, line feed
/// and carriage return; U+FFFE, U+FFFF) and the other control characters (DEL, C1,
/// which readers strip or choke on) as `\u{XXXX}` text. (A character reference such as
/// `&#xFFFE;` is not allowed either.)
pub fn xml_safe(s: &str) -> Cow<'_, str> {
    escape_chars(s, |c| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{FFFE}' | '\u{FFFF}')
    })
}

/// The input of a case as the terminal, JUnit and HTML reports show it: `input HEX` cut
/// to [`MAX_VALUE`] hex digits with the length in bytes, or `codepoint U+…`, and how a
/// chunked variant cuts it.
pub fn input_line(case: &Case) -> String {
    let input = match &*case.test {
        Test::Decode(t) => hex_line(&t.input),
        Test::Document(t) => hex_line(&t.input),
        Test::Encode(t) => format!("codepoint {}", cut(&t.codepoint, MAX_VALUE)),
        Test::EncodeString(t) => format!(
            "codepoints {}",
            cut(&crate::case::codepoints_text(&t.codepoints), MAX_VALUE)
        ),
    };
    match case.chunking {
        Some(Chunking::Split(n)) => {
            format!("{input} in two chunks, split after {n} byte(s)")
        }
        Some(Chunking::Bytes) => format!("{input} byte by byte"),
        None => input,
    }
}

fn hex_line(hex: &str) -> String {
    let bytes = hex.len() / 2;
    if hex.is_empty() {
        "input (empty)".to_string()
    } else if hex.len() <= MAX_VALUE {
        format!("input {hex}")
    } else {
        format!("input {}… ({bytes} bytes)", &hex[..MAX_VALUE])
    }
}

/// The lines that explain a result that is not a plain pass: what was sent, expected and
/// got. Each line starts without indentation and holds no control character (a line
/// feed in a comment or message is written `\u{A}`).
pub fn detail_lines(case: &Case, r: &CaseResult) -> Vec<String> {
    let mut lines = vec![format!("comment: {}", case.comment()), input_line(case)];
    if !case.flags().is_empty() {
        lines.push(format!("flags: {}", case.flags().join(", ")));
    }
    for m in &r.mismatches {
        lines.push(format!(
            "{}: expected {}",
            m.field,
            compact(&m.expected, MAX_VALUE)
        ));
        let note = m
            .note
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        lines.push(format!(
            "{}  got      {}{note}",
            " ".repeat(m.field.chars().count()),
            compact(&m.got, MAX_VALUE)
        ));
    }
    if let Some(m) = &r.message {
        lines.push(format!("{}: {}", r.raw.as_str(), cut(m, MAX_VALUE)));
    }
    if let Some(reason) = &r.expected_failure {
        lines.push(format!("expected failure: {reason}"));
    }
    lines
        .into_iter()
        .map(|l| terminal_safe(&l, false).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_text() {
        assert_eq!(terminal_safe("a\u{1b}[31mb", true), "a\\u{1B}[31mb");
        assert_eq!(
            terminal_safe("a\nb\u{9b}\u{7f}", true),
            "a\nb\\u{9B}\\u{7F}"
        );
        assert_eq!(terminal_safe("a\nb", false), "a\\u{A}b");
        assert!(matches!(
            terminal_safe("plain ü €", false),
            Cow::Borrowed(_)
        ));
        assert_eq!(
            xml_safe("\u{FFFE}\u{FFFF}\t\n\r\u{1}\u{FFFD}"),
            "\\u{FFFE}\\u{FFFF}\t\n\r\\u{1}\u{FFFD}"
        );
    }
}
