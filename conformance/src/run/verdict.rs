//! Checking one response against its vector: every field present is compared.

use super::suite::{Case, Test};
use crate::vectors::model::{DecodeTest, DocumentFinding, OutputEvent, TestResult};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// One field whose value differs from the vector's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mismatch {
    /// The response field (`output`, `lossy`, `result`, `valid`, `strict`, `bytes`,
    /// `error`, `findings`).
    pub field: String,
    /// What the vector says it should be.
    pub expected: Value,
    /// What the implementation answered.
    pub got: Value,
    /// Where the first difference is, for lists; for `valid` and `strict`, what is wrong
    /// about a reserved span.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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
pub fn fields_of(op: &str) -> &'static [&'static str] {
    match op {
        "decode" => &["output", "lossy", "result", "valid", "strict"],
        "encode" => &["bytes", "error"],
        _ => &["findings"],
    }
}

/// `obj.get(key)`, by a linear scan for the small objects of answers (a few keys each):
/// cheaper than hashing the key, which serde_json's order-keeping maps do on every lookup.
pub(crate) fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if obj.len() <= 16 {
        obj.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        obj.get(key)
    }
}

/// Compares `response` (an object whose `id` has already been matched) with `case`.
pub fn verdict(case: &Case, response: &Map<String, Value>) -> Verdict {
    if get(response, "unsupported") == Some(&Value::Bool(true)) {
        return Verdict::Skip {
            reason: "unsupported".into(),
        };
    }
    let mut checked = Vec::new();
    let mut mismatches = Vec::new();
    for &field in fields_of(case.op()) {
        let Some(got) = get(response, field) else {
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

fn mismatch(field: &str, expected: Value, got: &Value, note: Option<String>) -> Checked {
    Ok(Some(Mismatch {
        field: field.to_string(),
        expected,
        got: got.clone(),
        note,
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

fn same_event(a: &OutputEvent, b: &OutputEvent) -> bool {
    match (a, b) {
        (OutputEvent::CodePoint { codepoint: x }, OutputEvent::CodePoint { codepoint: y }) => {
            same_codepoint(x, y)
        }
        _ => a == b,
    }
}

/// The first index where two lists differ, as a note.
fn first_difference<T>(expected: &[T], got: &[T], same: impl Fn(&T, &T) -> bool) -> Option<String> {
    let n = expected
        .iter()
        .zip(got)
        .take_while(|(a, b)| same(a, b))
        .count();
    if n == expected.len() && n == got.len() {
        return None;
    }
    Some(if n == expected.len() {
        format!("{} extra item(s) from index {n}", got.len() - n)
    } else if n == got.len() {
        format!("{} item(s) missing from index {n}", expected.len() - n)
    } else {
        format!("first difference at index {n}")
    })
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

/// An answer's `output`, with a protocol message (never a Rust type's name) saying which
/// event is wrong and what shape was expected.
fn parse_events(got: &Value) -> Result<Vec<OutputEvent>, String> {
    const SHAPE: &str = r#"{"codepoint": "U+…"}, {"error": KIND, "offset": N, "length": N} or {"reserved": true, "offset": N, "length": N}"#;
    let list = got
        .as_array()
        .ok_or_else(|| format!("not a list of events ({SHAPE})"))?;
    list.iter()
        .enumerate()
        .map(|(i, e)| {
            let event = match e {
                Value::Object(o) => event_of(o).ok_or(()),
                // Whatever else serde's untagged reading takes (a list of the fields).
                _ => serde_json::from_value(e.clone()).map_err(drop),
            };
            match event {
                Ok(OutputEvent::Reserved {
                    reserved: false, ..
                })
                | Err(_) => {
                    let text = e.to_string();
                    let text = if text.chars().count() > 80 {
                        format!("{}…", text.chars().take(80).collect::<String>())
                    } else {
                        text
                    };
                    Err(format!("event {i} is {text}, expected {SHAPE}"))
                }
                Ok(event) => Ok(event),
            }
        })
        .collect()
}

/// An event object as [`OutputEvent`]'s untagged deserialization reads it (the first
/// shape whose fields are there, other keys ignored), without cloning it into serde: this
/// runs for every event of every answer.
fn event_of(o: &Map<String, Value>) -> Option<OutputEvent> {
    if let Some(Value::String(codepoint)) = get(o, "codepoint") {
        return Some(OutputEvent::CodePoint {
            codepoint: codepoint.clone(),
        });
    }
    let offset = get(o, "offset").and_then(Value::as_u64)?;
    let length = get(o, "length").and_then(Value::as_u64)?;
    match (get(o, "error"), get(o, "reserved")) {
        (Some(Value::String(error)), _) => Some(OutputEvent::Error {
            error: error.clone(),
            offset,
            length,
        }),
        (_, Some(&Value::Bool(reserved))) => Some(OutputEvent::Reserved {
            reserved,
            offset,
            length,
        }),
        _ => None,
    }
}

/// An answer's `lossy`: a list of strings.
fn parse_lossy(got: &Value) -> Result<Vec<&str>, String> {
    let fast = got.as_array().and_then(|list| {
        list.iter()
            .map(Value::as_str)
            .collect::<Option<Vec<&str>>>()
    });
    match fast {
        Some(list) => Ok(list),
        // serde says what is wrong.
        None => Err(match serde_json::from_value::<Vec<String>>(got.clone()) {
            Err(e) => format!("not a list of \"U+…\" strings: {e}"),
            Ok(_) => "not a list of \"U+…\" strings".to_string(),
        }),
    }
}

/// Compares one decode field. `result` is compared with the vector's `result`; `valid`
/// means "decodes to code points alone", so it is `true` exactly when the vector's
/// `result` is `valid` (a reserved input is not valid); `strict` is the first span of
/// either class.
fn check_decode(field: &str, test: &DecodeTest, got: &Value) -> Checked {
    let output = &test.output[..];
    match field {
        "output" => {
            let events = parse_events(got)?;
            match first_difference(output, &events, same_event) {
                None => Ok(None),
                note => mismatch(field, json!(output), got, note),
            }
        }
        "lossy" => {
            let got_list = parse_lossy(got)?;
            let expected = lossy_of(output);
            match first_difference(&expected, &got_list, |a, b| same_codepoint(a, b)) {
                None => Ok(None),
                note => mismatch(field, json!(expected), got, note),
            }
        }
        "result" => {
            let result = got
                .as_str()
                .filter(|r| ["valid", "reserved", "invalid"].contains(r))
                .ok_or(r#"not "valid", "reserved" or "invalid""#)?;
            let expected = result_str(test.result);
            if result == expected {
                Ok(None)
            } else {
                mismatch(field, json!(expected), got, None)
            }
        }
        "valid" => {
            let valid = got.as_bool().ok_or("not a boolean")?;
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
fn check_strict(expected: Option<Value>, got: &Value) -> Checked {
    let field = "strict";
    if got.is_null() {
        return match expected {
            None => Ok(None),
            Some(e) => mismatch(field, e, got, None),
        };
    }
    let obj = got.as_object().ok_or("neither null nor an object")?;
    let num = |k: &str| -> Result<u64, String> {
        obj.get(k)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("`{k}` missing or not a non-negative integer"))
    };
    let (offset, length) = (num("offset")?, num("length")?);
    let kind = match obj.get("error") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err("`error` is neither a string nor null".into()),
    };
    let reserved = match obj.get("reserved") {
        None => false,
        Some(Value::Bool(true)) => true,
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
        && kind.is_none_or(|k| e.get("error") == Some(&json!(k)));
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
    got: &Value,
) -> Checked {
    let expected_value = || match (expected_bytes, expected_error) {
        (Some(b), _) => json!({ "bytes": b }),
        (None, e) => json!({ "error": e }),
    };
    match field {
        "bytes" => {
            let hex = got.as_str().ok_or("not a hex string")?;
            match expected_bytes {
                Some(b) if b.eq_ignore_ascii_case(hex) => Ok(None),
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
            let kind = match got {
                Value::Null => None,
                Value::String(s) => Some(s.as_str()),
                _ => return Err("neither a kind string nor null".into()),
            };
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

fn check_findings(expected: &[DocumentFinding], got: &Value) -> Checked {
    let list = got.as_array().ok_or("not a list")?;
    let mut findings = Vec::with_capacity(list.len());
    for (i, f) in list.iter().enumerate() {
        let o = f
            .as_object()
            .ok_or_else(|| format!("finding {i} is not an object"))?;
        let s = |k: &str| {
            o.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("finding {i}: `{k}` missing or not a string"))
        };
        let n = |k: &str| {
            o.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| format!("finding {i}: `{k}` missing or not a non-negative integer"))
        };
        findings.push((
            s("kind")?,
            s("severity")?,
            n("offset")?,
            n("line")?,
            n("column")?,
        ));
    }
    let expected_tuples: Vec<_> = expected
        .iter()
        .map(|f| {
            let severity = serde_json::to_value(f.severity)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            (f.kind.clone(), severity, f.offset, f.line, f.column)
        })
        .collect();
    match first_difference(&expected_tuples, &findings, |a, b| a == b) {
        None => Ok(None),
        note => mismatch("findings", json!(expected), got, note),
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
            encoding: "corrected-utf8".into(),
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
    }
}
