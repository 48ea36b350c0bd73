//! Checking one response against its vector: every field present is compared.
//!
//! A response is read from its JSON text ([`RawResponse`]) as it is compared: a list one
//! item at a time, each item against the expected one, so an answer costs no JSON value
//! of itself. A field that differs is kept as a bounded excerpt ([`Mismatch`]: the whole
//! value when it is short, else the items around the first difference, each cut to
//! [`ITEM_BYTES`]), with the whole answer field's length and SHA-256: however large and
//! however many the wrong answers, what the report keeps of each is a few KiB
//! ([`MAX_EXCERPT`]).

use super::decode::check_decode;
use super::document::check_findings;
use super::encode::{check_encode, check_index, missing_index};
pub use super::mismatch::{Mismatch, ITEM_BYTES, MAX_EXCERPT, WHOLE_BYTES};
use crate::case::{Case, Test};
use crate::protocol::answer::RawResponse;
use crate::vectors::Op;
use serde_json::{Map, Value};

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

/// The fields of a string encode case (`encode` with `codepoints`), in the order they
/// are checked: `bytes`, or `error` and `index` (0-based, the first code point without an
/// encoding).
pub const STRING_FIELDS: &[&str] = &["bytes", "error", "index"];

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
    let fields = match &*case.test {
        Test::EncodeString(_) => STRING_FIELDS,
        _ => fields_of(case.op()),
    };
    for &field in fields {
        let Some(got) = response.get(field) else {
            // A string's failure names its index: an `error` without one falls short.
            if let (Test::EncodeString(t), "index") = (&*case.test, field) {
                if response.get("error").is_some() && t.index.is_some() {
                    mismatches.push(missing_index(t.index));
                    checked.push(field);
                }
            }
            continue;
        };
        let result = match &*case.test {
            Test::Decode(t) => check_decode(field, t, got),
            Test::Encode(t) => check_encode(field, t.bytes.as_deref(), t.error.as_deref(), got),
            Test::EncodeString(t) if field == "index" => check_index(t.index, got),
            Test::EncodeString(t) => {
                check_encode(field, t.bytes.as_deref(), t.error.as_deref(), got)
            }
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

#[cfg(test)]
mod tests {
    use super::super::mismatch::sha256;
    use super::*;
    use crate::protocol::answer::AROUND;
    use crate::vectors::model::{DecodeTest, TestResult};
    use serde_json::json;

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

    fn string_case(bytes: Option<&str>, error: Option<(&str, u64)>) -> Case {
        use crate::vectors::model::EncodeStringTest;
        Case {
            id: "corrected-utf8/encode-string.json#1".into(),
            file: 0,
            tc_id: 1,
            encoding: crate::vectors::Encoding::CorrectedUtf8,
            chunking: None,
            test: std::sync::Arc::new(Test::EncodeString(EncodeStringTest {
                tc_id: 1,
                comment: String::new(),
                flags: vec![],
                codepoints: vec!["U+0041".into(), "U+0080".into(), "U+D800".into()],
                bytes: bytes.map(str::to_string),
                error: error.map(|e| e.0.to_string()),
                index: error.map(|e| e.1),
                result: if bytes.is_some() {
                    TestResult::Valid
                } else {
                    TestResult::Invalid
                },
            })),
        }
    }

    /// A string encode answer: `bytes`, or `error` with the failing code point's `index`,
    /// which must be there and right.
    #[test]
    fn string_encode_fields() {
        let failing = string_case(None, Some(("c1-control", 1)));
        let pass = |v: Value| matches!(verdict(&failing, &obj(v)), Verdict::Pass { .. });
        assert!(pass(json!({"id": "x", "error": "c1-control", "index": 1})));
        assert!(pass(json!({"id": "x", "error": null, "index": 1})));
        assert!(!pass(json!({"id": "x", "error": "c1-control", "index": 2})));
        assert!(!pass(json!({"id": "x", "error": "surrogate", "index": 1})));
        assert!(!pass(json!({"id": "x", "error": "c1-control"})));
        assert!(!pass(json!({"id": "x", "bytes": "41"})));
        assert!(matches!(
            verdict(
                &failing,
                &obj(json!({"id": "x", "error": "c1-control", "index": -1}))
            ),
            Verdict::Protocol { .. }
        ));
        let encodes = string_case(Some("41c280"), None);
        let pass = |v: Value| matches!(verdict(&encodes, &obj(v)), Verdict::Pass { .. });
        assert!(pass(json!({"id": "x", "bytes": "41C280"})));
        assert!(!pass(json!({"id": "x", "bytes": "41c2"})));
        assert!(!pass(json!({"id": "x", "bytes": "41c280", "index": 0})));
    }
}
