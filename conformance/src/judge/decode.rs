//! The decode fields of an answer against a decode test: `output` and `spans` (read one
//! event at a time, each exactly one shape), `lossy`, `result`, `valid`, `strict`.

use super::mismatch::{check_list, mismatch, quote, Checked};
use crate::protocol::answer::object_members;
use crate::vectors::model::{DecodeTest, OutputEvent, TestResult};
use serde_json::{json, Value};

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

/// Compares one decode field. `result` is compared with the vector's `result`; `valid`
/// means "decodes to code points alone", so it is `true` exactly when the vector's
/// `result` is `valid` (a reserved input is not valid); `strict` is the first span of
/// either class; `spans` is `output` with the error kinds optional.
pub(super) fn check_decode(field: &str, test: &DecodeTest, got: &str) -> Checked {
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
