//! Checking one response against its vector: every field present is compared.
//!
//! A response is read from its JSON text ([`RawResponse`]) as it is compared: a list one
//! item at a time, each item against the expected one, so an answer costs no JSON value
//! of itself. A field that differs is kept as a bounded excerpt ([`Mismatch`]: the whole
//! value when it is short, else the items around the first difference, each cut to
//! [`ITEM_BYTES`]), with the whole answer field's length and SHA-256: however large and
//! however many the wrong answers, what the report keeps of each is a few KiB
//! ([`MAX_EXCERPT`]).

use crate::case::{Case, Test};
use crate::protocol::answer::{object_members, walk_list, ListWalk, RawResponse, AROUND};
use crate::text::cut;
use crate::vectors::model::{to_hex, DecodeTest, DocumentFinding, OutputEvent, TestResult};
use crate::vectors::Op;
use serde::Serialize;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// A field's value (expected or answered) shorter than this many bytes of JSON text is
/// shown whole in a [`Mismatch`]; a longer one as the items around the first difference
/// (a list) or as its text cut to this length.
pub const WHOLE_BYTES: usize = 1024;

/// One list item of a [`Mismatch`]'s excerpt longer than this many bytes of JSON text is
/// shown as its text, cut to this length.
pub const ITEM_BYTES: usize = 160;

/// The most bytes one [`Mismatch`] takes as compact JSON, whatever the answer (pinned by
/// a test and by `docs/gating.md`'s "Limits" table).
pub const MAX_EXCERPT: usize = 8192;

/// One field whose value differs from the vector's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    /// The response field (`output`, `spans`, `lossy`, `result`, `valid`, `strict`,
    /// `bytes`, `error`, `findings`).
    pub field: String,
    /// What the vector says it should be: whole when short, else the items around the
    /// first difference (the note says which).
    pub expected: Value,
    /// What the implementation answered, as short an excerpt as `expected`: whole when
    /// short, else the items around the first difference, or its text cut.
    pub got: Value,
    /// Where the first difference is, for lists (and which items are shown when the lists
    /// are long); for `valid` and `strict`, what is wrong about a reserved span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The length in bytes of the answered field's JSON text, whole.
    #[serde(rename = "gotLength")]
    pub got_length: usize,
    /// The SHA-256 of the answered field's JSON text, whole (lowercase hex).
    #[serde(rename = "gotSha256")]
    pub got_sha256: String,
}

/// The verdict on one well-formed response.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every field present matched; `checked` lists them.
    Pass {
        /// The fields compared.
        checked: Vec<&'static str>,
    },
    /// Some field differed.
    Fail {
        /// The fields compared.
        checked: Vec<&'static str>,
        /// The ones that differed.
        mismatches: Vec<Mismatch>,
    },
    /// Nothing to check: `"unsupported": true`, or no field of this operation.
    Skip {
        /// Why.
        reason: String,
    },
    /// A field is present with a value of the wrong shape.
    Protocol {
        /// What is wrong.
        message: String,
    },
}

/// The fields of each operation, in the order they are checked.
pub fn fields_of(op: Op) -> &'static [&'static str] {
    match op {
        Op::Decode => &["output", "spans", "lossy", "result", "valid", "strict"],
        Op::Encode => &["bytes", "error"],
        Op::Document => &["findings"],
    }
}

/// Compares `response` (an object whose `id` has already been matched) with `case`.
pub fn verdict(case: &Case, response: &Map<String, Value>) -> Verdict {
    verdict_of(case, &RawResponse::from(response.clone()))
}

/// Compares a response, as the JSON text it came as, with `case` (as [`verdict`]).
pub fn verdict_of(case: &Case, response: &RawResponse) -> Verdict {
    if response.unsupported() {
        return Verdict::Skip {
            reason: "unsupported".into(),
        };
    }
    let mut checked = Vec::new();
    let mut mismatches = Vec::new();
    for &field in fields_of(case.op()) {
        let Some(got) = response.get(field) else {
            continue;
        };
        let result = match &*case.test {
            Test::Decode(t) => check_decode(field, t, got),
            Test::Encode(t) => check_encode(field, t.bytes.as_deref(), t.error.as_deref(), got),
            Test::Document(t) => check_findings(&t.findings, got),
        };
        match result {
            Ok(None) => {}
            Ok(Some(m)) => mismatches.push(m),
            Err(message) => {
                return Verdict::Protocol {
                    message: format!("field `{field}`: {message}"),
                }
            }
        }
        checked.push(field);
    }
    if checked.is_empty() {
        Verdict::Skip {
            reason: format!(
                "no checkable field (expected any of {})",
                fields_of(case.op()).join(", ")
            ),
        }
    } else if mismatches.is_empty() {
        Verdict::Pass { checked }
    } else {
        Verdict::Fail {
            checked,
            mismatches,
        }
    }
}

type Checked = Result<Option<Mismatch>, String>;

/// The SHA-256 of `text`, lowercase hex.
fn sha256(text: &str) -> String {
    to_hex(&Sha256::digest(text.as_bytes()))
}

/// A JSON text as a value to show: parsed when at most `max` bytes, else the text cut.
fn excerpt(text: &str, max: usize) -> Value {
    if text.len() <= max {
        if let Ok(v) = serde_json::from_str(text) {
            return v;
        }
    }
    Value::String(cut(text, max))
}

/// A value from the vector, as [`excerpt`] shows an answered one.
fn excerpt_of(value: &impl Serialize, max: usize) -> Value {
    excerpt(&serde_json::to_string(value).unwrap_or_default(), max)
}

/// A JSON text quoted in a protocol message: compact when it is short enough to read,
/// cut to `max` bytes.
fn quote(text: &str, max: usize) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(v) if text.len() <= 4096 => cut(&v.to_string(), max),
        _ => cut(text, max),
    }
}

/// A scalar field (or a list compared as a whole) that differs: `got` is the answered
/// field's JSON text.
fn mismatch(field: &str, expected: Value, got: &str, note: Option<String>) -> Checked {
    Ok(Some(Mismatch {
        field: field.to_string(),
        expected: excerpt_of(&expected, WHOLE_BYTES),
        got: excerpt(got, WHOLE_BYTES),
        note,
        got_length: got.len(),
        got_sha256: sha256(got),
    }))
}

/// A list field that differs (`walk.first` is set): whole lists when both are short,
/// else the items around the first difference.
fn list_mismatch<T: Serialize>(
    field: &str,
    expected: &[T],
    walk: &ListWalk<'_>,
    got: &str,
) -> Checked {
    let Some(n) = walk.first else {
        return Ok(None);
    };
    let (expected_len, got_len) = (expected.len(), walk.len);
    let mut note = if n == expected_len {
        format!("{} extra item(s) from index {n}", got_len - n)
    } else if n == got_len {
        format!("{} item(s) missing from index {n}", expected_len - n)
    } else {
        format!("first difference at index {n}")
    };
    let expected_short =
        expected_len <= 64 && serde_json::to_string(expected).is_ok_and(|t| t.len() <= WHOLE_BYTES);
    let (expected, shown) = if expected_short && got.len() <= WHOLE_BYTES {
        (json!(expected), excerpt(got, WHOLE_BYTES))
    } else {
        let from = walk.from.min(expected_len);
        let to = (n + AROUND + 1).min(expected_len).max(from);
        let expected: Vec<Value> = expected[from..to]
            .iter()
            .map(|e| excerpt_of(e, ITEM_BYTES))
            .collect();
        let shown: Vec<Value> = walk.shown.iter().map(|t| excerpt(t, ITEM_BYTES)).collect();
        note.push_str(&format!(
            "; shown from index {}: {} of the {got_len} item(s) answered, {} of the \
             {expected_len} expected",
            walk.from,
            shown.len(),
            expected.len()
        ));
        (Value::Array(expected), Value::Array(shown))
    };
    Ok(Some(Mismatch {
        field: field.to_string(),
        expected,
        got: shown,
        note: Some(note),
        got_length: got.len(),
        got_sha256: sha256(got),
    }))
}

/// `U+` code points compare by value, so `U+00a0` and `U+00A0` are the same; anything
/// that is not a code point string compares as written.
fn same_codepoint(a: &str, b: &str) -> bool {
    // The digits without leading zeros (no allocation: this runs for every code point).
    fn norm(s: &str) -> Option<&str> {
        let d = s.strip_prefix("U+").or_else(|| s.strip_prefix("u+"))?;
        if d.is_empty() || !d.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        Some(d.trim_start_matches('0'))
    }
    match (norm(a), norm(b)) {
        (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
        _ => a == b,
    }
}

/// An event as answered: like [`OutputEvent`], with the error kind optional (`spans`).
#[derive(Debug, PartialEq)]
enum Event {
    CodePoint(String),
    Error {
        kind: Option<String>,
        offset: u64,
        length: u64,
    },
    Reserved {
        offset: u64,
        length: u64,
    },
}

/// Whether an answered event is the expected one: code points by value, spans by class,
/// offset and length, and by kind when the answer gives one.
fn same_event(expected: &OutputEvent, got: &Event) -> bool {
    match (expected, got) {
        (OutputEvent::CodePoint { codepoint: x }, Event::CodePoint(y)) => same_codepoint(x, y),
        (
            OutputEvent::Error {
                error,
                offset,
                length,
            },
            Event::Error {
                kind,
                offset: o,
                length: l,
            },
        ) => offset == o && length == l && kind.as_ref().is_none_or(|k| k == error),
        (
            OutputEvent::Reserved {
                reserved: true,
                offset,
                length,
            },
            Event::Reserved {
                offset: o,
                length: l,
            },
        ) => offset == o && length == l,
        _ => false,
    }
}

const EVENT_SHAPE: &str = r#"{"codepoint": "U+…"}, {"error": KIND, "offset": N, "length": N} or {"reserved": true, "offset": N, "length": N}"#;
const SPAN_SHAPE: &str = r#"{"codepoint": "U+…"}, {"error": KIND or null, "offset": N, "length": N} or {"reserved": true, "offset": N, "length": N}"#;

/// Reads event `i` of an `output` (or, `spans`, a `spans`) list: the first shape whose
/// fields are there, other keys ignored, as the vectors' own events are read; a protocol
/// message (never a Rust type's name) saying which event is wrong and what shape was
/// expected.
fn read_event(i: usize, item: &str, spans: bool) -> Result<Event, String> {
    let bad = || {
        format!(
            "event {i} is {}, expected {}",
            quote(item, 80),
            if spans { SPAN_SHAPE } else { EVENT_SHAPE }
        )
    };
    let (mut codepoint, mut error, mut offset, mut length, mut reserved) =
        (None, None, None, None, None);
    let keys = ["codepoint", "error", "offset", "length", "reserved"];
    let is_object = object_members(item, &keys, |k, v| match k {
        "codepoint" => codepoint = Some(v),
        "error" => error = Some(v),
        "offset" => offset = Some(v),
        "length" => length = Some(v),
        _ => reserved = Some(v),
    })
    .map_err(|_| bad())?;
    if !is_object {
        // Whatever else serde's reading of the vectors' events takes (a list of the
        // fields); a long item is not one.
        if item.len() > 4096 {
            return Err(bad());
        }
        return match serde_json::from_str::<OutputEvent>(item) {
            Ok(OutputEvent::CodePoint { codepoint }) => Ok(Event::CodePoint(codepoint)),
            Ok(OutputEvent::Error {
                error,
                offset,
                length,
            }) => Ok(Event::Error {
                kind: Some(error),
                offset,
                length,
            }),
            Ok(OutputEvent::Reserved {
                reserved: true,
                offset,
                length,
            }) => Ok(Event::Reserved { offset, length }),
            _ => Err(bad()),
        };
    }
    // Exactly one shape: a code point has no span fields, a span has no code point, an
    // error span no `reserved` (not even `false`), a reserved span no `error`. An event
    // that mixes them is a protocol error, never read as one of them.
    if let Some(cp) = codepoint {
        if error.is_some() || offset.is_some() || length.is_some() || reserved.is_some() {
            return Err(format!(
                "{}: a code point event with span fields (`error`, `offset`, `length` or \
                 `reserved`)",
                bad()
            ));
        }
        return match serde_json::from_str::<String>(cp) {
            Ok(cp) => Ok(Event::CodePoint(cp)),
            Err(_) => Err(bad()),
        };
    }
    let number = |v: Option<&str>| v.and_then(|v| serde_json::from_str::<u64>(v).ok());
    let (Some(offset), Some(length)) = (number(offset), number(length)) else {
        return Err(bad());
    };
    let error = error.map(|e| serde_json::from_str::<Option<String>>(e).ok());
    let reserved = reserved.map(serde_json::from_str::<bool>);
    match (error, reserved) {
        (Some(_), Some(_)) => Err(format!(
            "{}: an event with both `error` and `reserved` (an error span has no \
             `reserved` key, not even `false`)",
            bad()
        )),
        (Some(Some(Some(kind))), None) => Ok(Event::Error {
            kind: Some(kind),
            offset,
            length,
        }),
        (Some(Some(None)), None) if spans => Ok(Event::Error {
            kind: None,
            offset,
            length,
        }),
        (None, Some(Ok(true))) => Ok(Event::Reserved { offset, length }),
        _ => Err(bad()),
    }
}

fn lossy_of(output: &[OutputEvent]) -> Vec<&str> {
    output
        .iter()
        .map(|e| match e {
            OutputEvent::CodePoint { codepoint } => codepoint.as_str(),
            // One U+FFFD per span, error or reserved.
            OutputEvent::Error { .. } | OutputEvent::Reserved { .. } => "U+FFFD",
        })
        .collect()
}

/// The first span of either class, as `strict` shows it: `{"offset", "length", "error":
/// KIND}` or `{"offset", "length", "reserved": true}`.
fn first_span(output: &[OutputEvent]) -> Option<Value> {
    output.iter().find_map(|e| match e {
        OutputEvent::Error {
            error,
            offset,
            length,
        } => Some(json!({"offset": offset, "length": length, "error": error})),
        OutputEvent::Reserved { offset, length, .. } => {
            Some(json!({"offset": offset, "length": length, "reserved": true}))
        }
        OutputEvent::CodePoint { .. } => None,
    })
}

/// `"valid"`, `"reserved"` or `"invalid"`.
fn result_str(result: TestResult) -> &'static str {
    match result {
        TestResult::Valid => "valid",
        TestResult::Reserved => "reserved",
        TestResult::Invalid => "invalid",
    }
}

/// An answered list compared item by item with `expected`: `same(i, item)` reads item `i`
/// (or says what is wrong with it) and compares it with `expected[i]`.
fn check_list<T: Serialize>(
    field: &str,
    expected: &[T],
    got: &str,
    not_a_list: &str,
    same: impl FnMut(usize, &str) -> Result<bool, String>,
) -> Checked {
    match walk_list(got, expected.len(), same) {
        Ok(walk) => list_mismatch(field, expected, &walk, got),
        Err(Some(message)) => Err(message),
        Err(None) => Err(not_a_list.to_string()),
    }
}

/// Compares one decode field. `result` is compared with the vector's `result`; `valid`
/// means "decodes to code points alone", so it is `true` exactly when the vector's
/// `result` is `valid` (a reserved input is not valid); `strict` is the first span of
/// either class; `spans` is `output` with the error kinds optional.
fn check_decode(field: &str, test: &DecodeTest, got: &str) -> Checked {
    let output = &test.output[..];
    match field {
        "output" | "spans" => {
            let spans = field == "spans";
            let shape = if spans { SPAN_SHAPE } else { EVENT_SHAPE };
            check_list(
                field,
                output,
                got,
                &format!("not a list of events ({shape})"),
                |i, item| {
                    let event = read_event(i, item, spans)?;
                    Ok(output.get(i).is_some_and(|e| same_event(e, &event)))
                },
            )
        }
        "lossy" => {
            let expected = lossy_of(output);
            check_list(
                field,
                &expected,
                got,
                "not a list of \"U+…\" strings",
                |i, item| {
                    let text: std::borrow::Cow<str> = match serde_json::from_str::<&str>(item) {
                        Ok(s) => s.into(),
                        Err(_) => serde_json::from_str::<String>(item)
                            .map_err(|_| {
                                format!(
                                    "not a list of \"U+…\" strings: item {i} is {}",
                                    quote(item, 80)
                                )
                            })?
                            .into(),
                    };
                    Ok(expected.get(i).is_some_and(|e| same_codepoint(e, &text)))
                },
            )
        }
        "result" => {
            let result = serde_json::from_str::<String>(got)
                .ok()
                .filter(|r| ["valid", "reserved", "invalid"].contains(&r.as_str()))
                .ok_or(r#"not "valid", "reserved" or "invalid""#)?;
            let expected = result_str(test.result);
            if result == expected {
                Ok(None)
            } else {
                mismatch(field, json!(expected), got, None)
            }
        }
        "valid" => {
            let valid = serde_json::from_str::<bool>(got).map_err(|_| "not a boolean")?;
            let expected = test.result == TestResult::Valid;
            if valid == expected {
                Ok(None)
            } else {
                let note = (test.result == TestResult::Reserved)
                    .then(|| "a reserved input does not decode to code points alone".into());
                mismatch(field, json!(expected), got, note)
            }
        }
        "strict" => check_strict(first_span(output), got),
        _ => Ok(None),
    }
}

/// `strict` against the first span: `null` when there is none; else an object with its
/// `offset` and `length`, and either `"reserved": true` (a reserved span) or an optional
/// `error` kind (an error span: without a kind it still claims an error span).
fn check_strict(expected: Option<Value>, got: &str) -> Checked {
    let field = "strict";
    if serde_json::from_str::<()>(got).is_ok() {
        return match expected {
            None => Ok(None),
            Some(e) => mismatch(field, e, got, None),
        };
    }
    let (mut offset, mut length, mut error, mut reserved) = (None, None, None, None);
    let is_object = object_members(
        got,
        &["offset", "length", "error", "reserved"],
        |k, v| match k {
            "offset" => offset = Some(v),
            "length" => length = Some(v),
            "error" => error = Some(v),
            _ => reserved = Some(v),
        },
    )
    .unwrap_or(false);
    if !is_object {
        return Err("neither null nor an object".into());
    }
    let num = |k: &str, v: Option<&str>| -> Result<u64, String> {
        v.and_then(|v| serde_json::from_str::<u64>(v).ok())
            .ok_or_else(|| format!("`{k}` missing or not a non-negative integer"))
    };
    let (offset, length) = (num("offset", offset)?, num("length", length)?);
    let kind = match error.map(serde_json::from_str::<Option<String>>) {
        None | Some(Ok(None)) => None,
        Some(Ok(Some(s))) => Some(s),
        Some(Err(_)) => return Err("`error` is neither a string nor null".into()),
    };
    let reserved = match reserved.map(serde_json::from_str::<bool>) {
        None => false,
        Some(Ok(true)) => true,
        Some(_) => return Err("`reserved` is not `true` (leave it out for an error span)".into()),
    };
    if reserved && kind.is_some() {
        return Err("both `reserved` and an `error` kind: a span is one or the other".into());
    }
    let Some(mut expected) = expected else {
        return mismatch(field, Value::Null, got, None);
    };
    let e = expected.as_object_mut().expect("first_span gives objects");
    let e_reserved = e.contains_key("reserved");
    let same = e.get("offset") == Some(&json!(offset))
        && e.get("length") == Some(&json!(length))
        && reserved == e_reserved
        && kind
            .as_ref()
            .is_none_or(|k| e.get("error") == Some(&json!(k)));
    if same {
        return Ok(None);
    }
    // Show the kind only when the implementation gives one.
    if kind.is_none() && !reserved {
        e.remove("error");
    }
    let note = match (e_reserved, reserved) {
        (true, false) => Some("a reserved span, not an error span".to_string()),
        (false, true) => Some("an error span, not a reserved span".to_string()),
        _ => None,
    };
    mismatch(field, expected, got, note)
}

fn check_encode(
    field: &str,
    expected_bytes: Option<&str>,
    expected_error: Option<&str>,
    got: &str,
) -> Checked {
    let expected_value = || match (expected_bytes, expected_error) {
        (Some(b), _) => json!({ "bytes": b }),
        (None, e) => json!({ "error": e }),
    };
    match field {
        "bytes" => {
            let hex = serde_json::from_str::<String>(got).map_err(|_| "not a hex string")?;
            match expected_bytes {
                Some(b) if b.eq_ignore_ascii_case(&hex) => Ok(None),
                Some(b) => mismatch(field, json!(b), got, None),
                None => mismatch(
                    field,
                    expected_value(),
                    got,
                    Some("the code point has no encoding".into()),
                ),
            }
        }
        "error" => {
            let kind = serde_json::from_str::<Option<String>>(got)
                .map_err(|_| "neither a kind string nor null")?;
            match (expected_error, kind) {
                (Some(_), None) => Ok(None),
                (Some(e), Some(k)) if e == k => Ok(None),
                (Some(e), Some(_)) => mismatch(field, json!(e), got, None),
                (None, _) => mismatch(
                    field,
                    expected_value(),
                    got,
                    Some("the code point encodes".into()),
                ),
            }
        }
        _ => Ok(None),
    }
}

fn check_findings(expected: &[DocumentFinding], got: &str) -> Checked {
    let expected_tuples: Vec<(&str, &str, u64, u64, u64)> = expected
        .iter()
        .map(|f| {
            let severity = match f.severity {
                crate::vectors::model::Severity::Error => "error",
                crate::vectors::model::Severity::Warning => "warning",
            };
            (f.kind.as_str(), severity, f.offset, f.line, f.column)
        })
        .collect();
    let keys = ["kind", "severity", "offset", "line", "column"];
    let walk = walk_list(got, expected.len(), |i, item| {
        let mut values: [Option<&str>; 5] = [None; 5];
        let is_object = object_members(item, &keys, |k, v| {
            if let Some(at) = keys.iter().position(|x| *x == k) {
                values[at] = Some(v);
            }
        })
        .unwrap_or(false);
        if !is_object {
            return Err(format!("finding {i} is not an object"));
        }
        let s = |at: usize| {
            values[at]
                .and_then(|v| serde_json::from_str::<String>(v).ok())
                .ok_or_else(|| format!("finding {i}: `{}` missing or not a string", keys[at]))
        };
        let n = |at: usize| {
            values[at]
                .and_then(|v| serde_json::from_str::<u64>(v).ok())
                .ok_or_else(|| {
                    format!(
                        "finding {i}: `{}` missing or not a non-negative integer",
                        keys[at]
                    )
                })
        };
        let got = (s(0)?, s(1)?, n(2)?, n(3)?, n(4)?);
        Ok(expected_tuples.get(i).is_some_and(|e| {
            e.0 == got.0 && e.1 == got.1 && e.2 == got.2 && e.3 == got.3 && e.4 == got.4
        }))
    });
    match walk {
        Ok(walk) => list_mismatch("findings", expected, &walk, got),
        Err(Some(message)) => Err(message),
        Err(None) => Err("not a list".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::model::{DecodeTest, TestResult};

    fn decode_case(output: Value, result: TestResult) -> Case {
        Case {
            id: "x.json#1".into(),
            file: 0,
            tc_id: 1,
            encoding: crate::vectors::Encoding::CorrectedUtf8,
            chunking: None,
            test: std::sync::Arc::new(Test::Decode(DecodeTest {
                tc_id: 1,
                comment: String::new(),
                flags: vec![],
                input: "41fe".into(),
                output: serde_json::from_value(output).unwrap(),
                result,
            })),
        }
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn decode_fields() {
        let case = decode_case(
            json!([
                {"codepoint": "U+0041"}, {"error": "truncated", "offset": 1, "length": 1}
            ]),
            TestResult::Invalid,
        );
        let ok = obj(
            json!({"id": "x.json#1", "lossy": ["U+0041", "U+FFFD"], "valid": false,
            "result": "invalid", "strict": {"offset": 1, "length": 1}}),
        );
        assert_eq!(
            verdict(&case, &ok),
            Verdict::Pass {
                checked: vec!["lossy", "result", "valid", "strict"]
            }
        );
        let bad = obj(
            json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1, "error": "overlong"}}),
        );
        assert!(matches!(verdict(&case, &bad), Verdict::Fail { .. }));
        let reserved =
            obj(json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1, "reserved": true}}));
        assert!(matches!(verdict(&case, &reserved), Verdict::Fail { .. }));
        let wrong_shape = obj(json!({"id": "x.json#1", "valid": "no"}));
        assert!(matches!(
            verdict(&case, &wrong_shape),
            Verdict::Protocol { .. }
        ));
        let nothing = obj(json!({"id": "x.json#1"}));
        assert!(matches!(verdict(&case, &nothing), Verdict::Skip { .. }));
        let short = obj(json!({"id": "x.json#1", "output": [{"codepoint": "U+41"}]}));
        match verdict(&case, &short) {
            Verdict::Fail { mismatches, .. } => {
                assert_eq!(
                    mismatches[0].note.as_deref(),
                    Some("1 item(s) missing from index 1")
                )
            }
            v => panic!("{v:?}"),
        }
    }

    #[test]
    fn spans_are_judged_on_offsets_and_lengths() {
        let case = decode_case(
            json!([
                {"codepoint": "U+0041"}, {"error": "truncated", "offset": 1, "length": 1}
            ]),
            TestResult::Invalid,
        );
        let judged = |spans: Value| verdict(&case, &obj(json!({"id": "x.json#1", "spans": spans})));
        for ok in [
            json!([{"codepoint": "U+41"}, {"error": null, "offset": 1, "length": 1}]),
            json!([{"codepoint": "U+0041"}, {"error": "truncated", "offset": 1, "length": 1}]),
        ] {
            assert_eq!(
                judged(ok.clone()),
                Verdict::Pass {
                    checked: vec!["spans"]
                },
                "{ok}"
            );
        }
        for bad in [
            json!([{"codepoint": "U+0041"}, {"error": null, "offset": 1, "length": 2}]),
            json!([{"codepoint": "U+0041"}, {"error": null, "offset": 0, "length": 1}]),
            json!([{"codepoint": "U+0041"}, {"error": "overlong", "offset": 1, "length": 1}]),
            json!([{"codepoint": "U+0041"}, {"reserved": true, "offset": 1, "length": 1}]),
            json!([{"codepoint": "U+0042"}, {"error": null, "offset": 1, "length": 1}]),
            json!([{"codepoint": "U+0041"}]),
        ] {
            assert!(matches!(judged(bad.clone()), Verdict::Fail { .. }), "{bad}");
        }
        // `output` keeps its kinds: a null one is a protocol error there.
        let null_kind = obj(json!({"id": "x.json#1",
            "output": [{"codepoint": "U+0041"}, {"error": null, "offset": 1, "length": 1}]}));
        assert!(matches!(
            verdict(&case, &null_kind),
            Verdict::Protocol { .. }
        ));
        assert!(matches!(
            judged(json!([{"error": 3, "offset": 1, "length": 1}])),
            Verdict::Protocol { .. }
        ));
        // A reserved span stays a reserved span (error: null claims an error span).
        let reserved = decode_case(
            json!([{"reserved": true, "offset": 0, "length": 2}]),
            TestResult::Reserved,
        );
        let spans = |v: Value| verdict(&reserved, &obj(json!({"id": "x.json#1", "spans": v})));
        assert!(matches!(
            spans(json!([{"reserved": true, "offset": 0, "length": 2}])),
            Verdict::Pass { .. }
        ));
        assert!(matches!(
            spans(json!([{"error": null, "offset": 0, "length": 2}])),
            Verdict::Fail { .. }
        ));
    }

    #[test]
    fn a_wrong_answer_is_kept_as_a_bounded_excerpt() {
        let case = decode_case(
            json!([
                {"codepoint": "U+0041"}, {"error": "truncated", "offset": 1, "length": 1}
            ]),
            TestResult::Invalid,
        );
        let many = |n: usize, item: Value| Value::Array(vec![item; n]);
        let quoted = "\"".repeat(100_000);
        let huge = [
            ("output", many(100_000, json!({"codepoint": "U+0041"}))),
            ("output", many(20, json!({"codepoint": quoted}))),
            (
                "spans",
                many(100_000, json!({"error": null, "offset": 1, "length": 1})),
            ),
            ("lossy", many(100_000, json!("U+0041"))),
            ("lossy", many(3, json!(quoted))),
            ("strict", json!({"offset": 1, "length": 2, "pad": quoted})),
            ("result", json!("valid")),
        ];
        for (field, value) in huge {
            let text = value.to_string();
            let answer = obj(json!({"id": "x.json#1", field: value}));
            let Verdict::Fail { mismatches, .. } = verdict(&case, &answer) else {
                panic!("{field}: not a failure");
            };
            let m = &mismatches[0];
            let kept = serde_json::to_string(m).unwrap().len();
            assert!(kept <= MAX_EXCERPT, "{field}: {kept} bytes kept");
            assert_eq!(m.got_length, text.len(), "{field}");
            assert_eq!(m.got_sha256, sha256(&text), "{field}");
        }
        // The items around the first difference, and a note that says which.
        let mut events = vec![json!({"codepoint": "U+0041"}); 10];
        events[7] = json!({"codepoint": "U+0042"});
        let answer = obj(json!({"id": "x.json#1", "output": events}));
        let long = decode_case(
            json!(vec![json!({"codepoint": "U+0041"}); 9_000]),
            TestResult::Valid,
        );
        let Verdict::Fail { mismatches, .. } = verdict(&long, &answer) else {
            panic!("not a failure");
        };
        let m = &mismatches[0];
        // Index 4 to the end: 3 before the difference, it, and the 2 after it.
        assert_eq!(m.got.as_array().unwrap().len(), 6);
        assert_eq!(m.got[AROUND], json!({"codepoint": "U+0042"}));
        let note = m.note.as_deref().unwrap();
        assert!(
            note.starts_with("first difference at index 7; shown from index 4: 6 of the 10"),
            "{note}"
        );
        // Short lists stay whole, as they always were.
        let short = obj(json!({"id": "x.json#1", "output": [{"codepoint": "U+41"}]}));
        let Verdict::Fail { mismatches, .. } = verdict(&case, &short) else {
            panic!("not a failure");
        };
        assert_eq!(mismatches[0].got, json!([{"codepoint": "U+41"}]));
        assert_eq!(mismatches[0].expected.as_array().unwrap().len(), 2);
    }

    #[test]
    fn reserved_spans() {
        let case = decode_case(
            json!([{"codepoint": "U+0041"}, {"reserved": true, "offset": 1, "length": 1}]),
            TestResult::Reserved,
        );
        let ok = obj(json!({"id": "x.json#1",
            "output": [{"codepoint": "U+0041"}, {"reserved": true, "offset": 1, "length": 1}],
            "lossy": ["U+0041", "U+FFFD"], "result": "reserved", "valid": false,
            "strict": {"offset": 1, "length": 1, "reserved": true}}));
        assert!(matches!(verdict(&case, &ok), Verdict::Pass { .. }));
        let fails = |answer: Value, field: &str| match verdict(&case, &obj(answer)) {
            Verdict::Fail { mismatches, .. } => assert_eq!(mismatches[0].field, field),
            v => panic!("{field}: {v:?}"),
        };
        fails(
            json!({"id": "x.json#1", "output": [{"codepoint": "U+0041"},
                {"error": "reserved", "offset": 1, "length": 1}]}),
            "output",
        );
        fails(json!({"id": "x.json#1", "result": "invalid"}), "result");
        fails(json!({"id": "x.json#1", "result": "valid"}), "result");
        fails(json!({"id": "x.json#1", "valid": true}), "valid");
        fails(
            json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1}}),
            "strict",
        );
        fails(
            json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1, "error": "reserved"}}),
            "strict",
        );
        fails(json!({"id": "x.json#1", "strict": null}), "strict");
        let protocol = |answer: Value| {
            assert!(
                matches!(
                    verdict(&case, &obj(answer.clone())),
                    Verdict::Protocol { .. }
                ),
                "{answer}"
            )
        };
        protocol(json!({"id": "x.json#1", "result": "ok"}));
        protocol(
            json!({"id": "x.json#1", "output": [{"reserved": false, "offset": 1, "length": 1}]}),
        );
        protocol(
            json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1, "reserved": false}}),
        );
        protocol(
            json!({"id": "x.json#1", "strict": {"offset": 1, "length": 1, "reserved": true, "error": "x"}}),
        );
        // An event is one shape, never a mix read as one of them.
        for mixed in [
            json!({"codepoint": "U+0041", "error": "truncated"}),
            json!({"codepoint": "U+0041", "offset": 0, "length": 1}),
            json!({"codepoint": "U+0041", "reserved": true}),
            json!({"error": "truncated", "offset": 1, "length": 1, "reserved": false}),
            json!({"error": "truncated", "offset": 1, "length": 1, "reserved": true}),
        ] {
            let answer =
                json!({"id": "x.json#1", "output": [{"codepoint": "U+0041"}, mixed.clone()]});
            match verdict(&case, &obj(answer)) {
                Verdict::Protocol { message } => {
                    assert!(message.contains("event 1"), "{message}");
                }
                v => panic!("{mixed}: {v:?}"),
            }
        }
    }
}
