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
    /// A document disagreement whose input the adapter's decoder (of the same encoding)
    /// also gets wrong: its root cause is taken to be the decoder, and all such are one
    /// class, so that a decode bug, which touches documents in as many ways as a document
    /// has findings, fills one slot of the document target and not all of them.
    pub decoder_disagrees: bool,
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
        if self.decoder_disagrees {
            s.push_str(&format!(
                "\n    (the adapter's {} decode disagrees on this input too: one class for \
                 every document disagreement the decoder explains)",
                self.target.encoding
            ));
        }
        s
    }

    /// What the disagreement is about, as near its root cause as an answer can tell, to
    /// tell findings apart: the encoding and operation, the first field that differs, and
    /// how its first differing item differs. Items of the same kind that differ in some
    /// attributes are one class whatever their kind (`corrected-utf8 document findings:
    /// finding's line differs`, for every kind of finding a line count off by one
    /// touches); items of different kinds are named by both
    /// (`utf-8 encode bytes: error surrogate vs bytes`, so U+D800 to U+DFFF are one class).
    /// Else the shortfall, or the status (`crash`, `timeout`, `protocol`). A document
    /// disagreement the decoder explains ([`Disagreement::decoder_disagrees`]) is the one
    /// class `corrected-utf8 document: the decoder disagrees on the input too`.
    pub fn class(&self) -> String {
        if self.decoder_disagrees {
            return format!(
                "{}: the decoder disagrees on the input too",
                self.target.label()
            );
        }
        Self::class_of(&self.target, &self.result)
    }

    /// The [`class`](Self::class) of a disagreement of `target` with this `result`, the
    /// decoder not asked.
    pub fn class_of(target: &Target, result: &CaseResult) -> String {
        let what = match result.mismatches.first() {
            Some(m) => format!("{}: {}", m.field, how_they_differ(&m.expected, &m.got)),
            None if result.undeclared.is_some() => "less than declared".into(),
            None => result.raw.as_str().to_string(),
        };
        format!("{} {}", target.label(), what)
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

/// How an answer's value differs from the expected one, for [`Disagreement::class`]: one
/// item more or one item fewer in an otherwise equal list is `extra KIND` or `missing KIND`
/// (wherever it is: one root cause, such as a finding reported that should not be, is one
/// class whatever comes before it); else how the first differing items differ
/// ([`difference`]).
fn how_they_differ(expected: &Value, got: &Value) -> String {
    if let (Value::Array(e), Value::Array(g)) = (expected, got) {
        let i = e.iter().zip(g).take_while(|(x, y)| x == y).count();
        if g.len() == e.len() + 1 && g[i + 1..] == e[i..] {
            return format!("extra {}", kind_of(g.get(i)));
        }
        if e.len() == g.len() + 1 && e[i + 1..] == g[i..] {
            return format!("missing {}", kind_of(e.get(i)));
        }
    }
    let (e, g) = first_difference(expected, got);
    difference(e, g)
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

/// How two items differ, for [`Disagreement::class`]: `TYPE's A, B differ` for two
/// objects of one kind (only their attributes differ), `KIND differs` for two other values
/// of one kind, else `KIND vs KIND`.
fn difference(e: Option<&Value>, g: Option<&Value>) -> String {
    let (ke, kg) = (kind_of(e), kind_of(g));
    match (e, g) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if ke == kg => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            let differ: Vec<&str> = keys
                .into_iter()
                .filter(|k| a.get(*k) != b.get(*k))
                .map(String::as_str)
                .collect();
            let verb = if differ.len() == 1 {
                "differs"
            } else {
                "differ"
            };
            format!("{}'s {} {verb}", item_type(a), differ.join(", "))
        }
        _ if ke == kg => format!("{ke} differs"),
        _ => format!("{ke} vs {kg}"),
    }
}

/// What an object of an answer is, without its kind: `finding`, `error`, `reserved`,
/// `code point`.
fn item_type(o: &serde_json::Map<String, Value>) -> &'static str {
    if o.contains_key("kind") {
        "finding"
    } else if o.contains_key("error") {
        "error"
    } else if o.contains_key("reserved") {
        "reserved"
    } else if o.contains_key("codepoint") {
        "code point"
    } else {
        "object"
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_item_too_many_or_too_few_is_named_by_that_item() {
        let f = |kind: &str, offset: u64| json!({"kind": kind, "severity": "error", "offset": offset, "line": 1, "column": 1});
        // A `nul` reported that should not be: at the end or in the middle, one class.
        let expected = json!([f("missing-magic", 0), f("c0-control", 9)]);
        let at_end = json!([f("missing-magic", 0), f("c0-control", 9), f("nul", 14)]);
        let between = json!([f("missing-magic", 0), f("nul", 7), f("c0-control", 9)]);
        assert_eq!(how_they_differ(&expected, &at_end), "extra finding nul");
        assert_eq!(how_they_differ(&expected, &between), "extra finding nul");
        assert_eq!(how_they_differ(&at_end, &expected), "missing finding nul");
        // Two items more, or one more and another changed: the first difference.
        let two = json!([
            f("missing-magic", 0),
            f("nul", 7),
            f("nul", 8),
            f("c0-control", 9)
        ]);
        assert_eq!(
            how_they_differ(&expected, &two),
            "finding c0-control vs finding nul"
        );
        let changed = json!([f("missing-magic", 0), f("nul", 7), f("c0-control", 10)]);
        assert_eq!(
            how_they_differ(&expected, &changed),
            "finding c0-control vs finding nul"
        );
    }

    #[test]
    fn one_root_cause_is_one_class() {
        // A line count off by one: the same class whatever the finding's kind.
        let line = |kind: &str, got: u64| {
            difference(
                Some(
                    &json!({"kind": kind, "severity": "warning", "offset": 9, "line": 1, "column": 2}),
                ),
                Some(
                    &json!({"kind": kind, "severity": "warning", "offset": 9, "line": got, "column": 2}),
                ),
            )
        };
        assert_eq!(line("cr", 2), "finding's line differs");
        assert_eq!(line("cr", 2), line("c0-control", 2));
        // Another kind of finding in its place: another class, named by both kinds.
        let kinds = difference(
            Some(
                &json!({"kind": "inner-magic", "severity": "warning", "offset": 8, "line": 2, "column": 1}),
            ),
            Some(
                &json!({"kind": "nul", "severity": "error", "offset": 14, "line": 2, "column": 3}),
            ),
        );
        assert_eq!(kinds, "finding inner-magic vs finding nul");
        // An error span's length, whatever its kind.
        assert_eq!(
            difference(
                Some(&json!({"error": "truncated", "offset": 0, "length": 2})),
                Some(&json!({"error": "truncated", "offset": 0, "length": 1})),
            ),
            "error's length differs"
        );
        assert_eq!(
            difference(Some(&json!("U+00A0")), Some(&json!("U+00A1"))),
            "code point differs"
        );
        assert_eq!(
            difference(Some(&json!("eda080")), Some(&json!({"error": "surrogate"}))),
            "bytes vs error surrogate"
        );
        assert_eq!(
            difference(Some(&json!("U+0041")), None),
            "code point vs nothing"
        );
    }
}
