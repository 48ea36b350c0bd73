//! A disagreement between an implementation and the spec-literal code: what it is about
//! ([`Signature`], for minimizing), its class (to tell findings apart), and how it reads.

use super::{Probe, Target};
use crate::judge::{CaseResult, Status};
use crate::text::cut;
use crate::vectors::model::to_hex;
use serde_json::Value;

/// How much of a value a disagreement's description shows.
const SHOWN: usize = 300;

/// What a failing result is about, for minimizing: the first field that differed, the
/// shortfall, or the status (crash, timeout, protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signature {
    /// This field differed.
    Field(String),
    /// Less than declared.
    Undeclared,
    /// Crash, timeout or protocol error.
    Status(Status),
}

impl Signature {
    /// The signature of a failing result; `None` when it passed (or was skipped).
    pub fn of(r: &CaseResult) -> Option<Signature> {
        if !r.raw.is_failure() {
            return None;
        }
        Some(if let Some(m) = r.mismatches.first() {
            Signature::Field(m.field.clone())
        } else if r.undeclared.is_some() {
            Signature::Undeclared
        } else {
            Signature::Status(r.raw)
        })
    }

    /// Whether `r` still fails this way (for a field: that field still differs).
    pub fn matches(&self, r: &CaseResult) -> bool {
        match self {
            Signature::Field(f) => {
                r.raw == Status::Fail && r.mismatches.iter().any(|m| &m.field == f)
            }
            Signature::Undeclared => r.raw == Status::Fail && r.undeclared.is_some(),
            Signature::Status(s) => r.raw == *s,
        }
    }
}

/// One disagreement between the adapter and the spec-literal code.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The target.
    pub target: Target,
    /// The input.
    pub probe: Probe,
    /// The verdict.
    pub result: CaseResult,
}

impl Disagreement {
    /// Lines: the input, then per differing field the expected and the answered value
    /// (or the crash, timeout or protocol message).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} {}: {}",
            self.target.label(),
            self.probe.describe(),
            self.result.raw.as_str().to_uppercase()
        );
        for m in &self.result.mismatches {
            s.push_str(&format!(
                "\n    {}: expected {}\n    {}  got      {}{}",
                m.field,
                cut_short(&m.expected.to_string()),
                " ".repeat(m.field.len()),
                cut_short(&m.got.to_string()),
                m.note
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ));
        }
        if let Some(m) = &self.result.message {
            s.push_str(&format!("\n    {}", cut_short(m)));
        }
        s
    }

    /// What the disagreement is about, to tell findings apart: the encoding and operation,
    /// then the first differing field and what was expected and answered there, as kinds
    /// of value (`utf-8 encode bytes: error surrogate vs bytes`, so U+D800 to U+DFFF are
    /// one class), or the shortfall, or the status (`crash`, `timeout`, `protocol`).
    pub fn class(&self) -> String {
        let what = match self.result.mismatches.first() {
            Some(m) => {
                let (e, g) = first_difference(&m.expected, &m.got);
                format!("{}: {} vs {}", m.field, kind_of(e), kind_of(g))
            }
            None if self.result.undeclared.is_some() => "less than declared".into(),
            None => self.result.raw.as_str().to_string(),
        };
        format!("{} {}", self.target.label(), what)
    }

    /// The JSON of the `--json` reports.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "encoding": self.target.encoding,
            "op": self.target.op,
            "input": match &self.probe {
                Probe::Bytes(b) => to_hex(b),
                Probe::CodePoint(cp) => format!("U+{cp:04X}"),
            },
            "status": self.result.raw.as_str(),
            "mismatches": self.result.mismatches,
            "message": self.result.message,
        })
    }
}

/// Where two values first differ: the elements at the first differing index of two
/// lists (`None` past the end of one), else the values themselves.
fn first_difference<'a>(
    expected: &'a Value,
    got: &'a Value,
) -> (Option<&'a Value>, Option<&'a Value>) {
    match (expected, got) {
        (Value::Array(e), Value::Array(g)) => {
            let i = e.iter().zip(g).take_while(|(x, y)| x == y).count();
            (e.get(i), g.get(i))
        }
        _ => (Some(expected), Some(got)),
    }
}

/// The kind of a value of an answer, for [`Disagreement::class`]: an event's or an
/// error's kind, `code point` (or `U+FFFD`), `bytes`, a result word, `true`, `null`, ….
fn kind_of(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "nothing".into();
    };
    match v {
        Value::Object(o) => match (o.get("error"), o.get("kind")) {
            (Some(Value::String(k)), _) => format!("error {k}"),
            (Some(_), _) => "error".into(),
            (None, Some(Value::String(k))) => format!("finding {k}"),
            _ if o.contains_key("reserved") => "reserved".into(),
            _ if o.contains_key("codepoint") => "code point".into(),
            _ => "object".into(),
        },
        Value::Array(_) => "list".into(),
        Value::String(s) if s.eq_ignore_ascii_case("U+FFFD") => "U+FFFD".into(),
        Value::String(s) if s.starts_with("U+") || s.starts_with("u+") => "code point".into(),
        Value::String(s) if s.bytes().all(|b| b.is_ascii_hexdigit()) => "bytes".into(),
        Value::String(s) => cut_short(s),
        other => cut_short(&other.to_string()),
    }
}

/// `s` cut to [`SHOWN`] bytes.
pub(super) fn cut_short(s: &str) -> String {
    cut(s, SHOWN)
}
