//! The `findings` of an answer against a document test.

use super::mismatch::{list_mismatch, Checked};
use crate::protocol::answer::{object_members, walk_list};
use crate::vectors::model::DocumentFinding;

pub(super) fn check_findings(expected: &[DocumentFinding], got: &str) -> Checked {
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
