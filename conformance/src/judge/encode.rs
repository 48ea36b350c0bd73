//! The encode fields of an answer against an encode test: `bytes` and `error`; and a
//! string encode's `index`, the first code point without an encoding.

use super::mismatch::{mismatch, sha256, Checked, Mismatch};
use serde_json::json;

pub(super) fn check_encode(
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

/// A string encode answer's `index` against the vector's (`None`: the list encodes).
pub(super) fn check_index(expected: Option<u64>, got: &str) -> Checked {
    let index = serde_json::from_str::<u64>(got).map_err(|_| "not a non-negative integer")?;
    match expected {
        Some(e) if e == index => Ok(None),
        Some(e) => mismatch("index", json!(e), got, None),
        None => mismatch(
            "index",
            json!(null),
            got,
            Some("every code point of the list encodes".into()),
        ),
    }
}

/// The mismatch of a string encode failure answered without its `index`.
pub(super) fn missing_index(expected: Option<u64>) -> Mismatch {
    Mismatch {
        field: "index".into(),
        expected: json!(expected),
        got: serde_json::Value::Null,
        note: Some("an `error` without the failing code point's `index`".into()),
        got_length: 0,
        got_sha256: sha256(""),
    }
}
