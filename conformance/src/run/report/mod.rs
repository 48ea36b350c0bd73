//! The reports of a [`RunReport`](super::outcome::RunReport): the terminal text, and the files of
//! `--json`, `--junit` and `--html`.

pub mod html;
pub mod json;
pub mod junit;
pub mod terminal;

use super::outcome::CaseResult;
use super::suite::Case;
use serde_json::Value;

/// Values longer than this are cut in the terminal, JUnit and HTML reports (the JSON
/// report keeps them whole).
pub const MAX_VALUE: usize = 400;

/// Compact JSON, cut to `max` characters.
pub fn compact(value: &Value, max: usize) -> String {
    cut(&value.to_string(), max)
}

/// `s` cut to `max` characters, saying how long it was.
pub fn cut(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head}… ({n} chars)")
    }
}

/// The lines that explain a result that is not a plain pass: what was sent, expected and
/// got. Each line starts without indentation.
pub fn detail_lines(case: &Case, r: &CaseResult) -> Vec<String> {
    let mut lines = vec![
        format!("comment: {}", case.comment()),
        cut(&case.input_text(), MAX_VALUE),
    ];
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
}
