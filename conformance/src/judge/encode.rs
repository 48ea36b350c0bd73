//! The encode fields of an answer against an encode test: `bytes` and `error`.

use super::mismatch::{mismatch, Checked};
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
