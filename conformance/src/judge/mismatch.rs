//! A field that differs, kept bounded ([`Mismatch`]: an excerpt, the whole field's length
//! and SHA-256), and the comparisons every operation's fields share: scalars, and lists
//! walked item by item.

use crate::protocol::answer::{walk_list, ListWalk, AROUND};
use crate::text::cut;
use crate::vectors::model::to_hex;
use serde::Serialize;
use serde_json::{json, Value};
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

pub(crate) type Checked = Result<Option<Mismatch>, String>;

/// The SHA-256 of `text`, lowercase hex.
pub(crate) fn sha256(text: &str) -> String {
    to_hex(&Sha256::digest(text.as_bytes()))
}

/// A JSON text as a value to show: parsed when at most `max` bytes, else the text cut.
pub(crate) fn excerpt(text: &str, max: usize) -> Value {
    if text.len() <= max {
        if let Ok(v) = serde_json::from_str(text) {
            return v;
        }
    }
    Value::String(cut(text, max))
}

/// A value from the vector, as [`excerpt`] shows an answered one.
pub(crate) fn excerpt_of(value: &impl Serialize, max: usize) -> Value {
    excerpt(&serde_json::to_string(value).unwrap_or_default(), max)
}

/// A JSON text quoted in a protocol message: compact when it is short enough to read,
/// cut to `max` bytes.
pub(crate) fn quote(text: &str, max: usize) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(v) if text.len() <= 4096 => cut(&v.to_string(), max),
        _ => cut(text, max),
    }
}

/// A scalar field (or a list compared as a whole) that differs: `got` is the answered
/// field's JSON text.
pub(crate) fn mismatch(field: &str, expected: Value, got: &str, note: Option<String>) -> Checked {
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
pub(crate) fn list_mismatch<T: Serialize>(
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

/// An answered list compared item by item with `expected`: `same(i, item)` reads item `i`
/// (or says what is wrong with it) and compares it with `expected[i]`.
pub(crate) fn check_list<T: Serialize>(
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
