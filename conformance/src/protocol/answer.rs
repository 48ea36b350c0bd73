//! What an implementation answered ([`Answer`]), and a response as the JSON text it sent,
//! read without building a JSON value of it ([`RawResponse`]).
//!
//! A [`RawResponse`] keeps the answer line (shared by every response of a batch line) and,
//! for each top-level key the runner reads ([`KEYS`]), where its value's text is. Every
//! other key is skipped unread, however large. The verdict then reads each field it
//! checks from that text, a list one item at a time ([`walk_list`]), so that the memory an
//! answer costs is its line and a few bytes per key, not a tree of JSON values (which
//! costs some 45 times the line for a list of small objects).

use crate::text::cut;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

/// What an implementation answered to one case, before checking.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A JSON object whose `id` is the request's, as the text it came as (a response
    /// built in memory converts with `.into()`).
    Response(RawResponse),
    /// The process ended or its pipes broke; the detail says how.
    Crash(String),
    /// No answer within the timeout; the process was killed. The message says so.
    Timeout(String),
    /// A line that is not a JSON object, or the wrong or no `id`.
    Protocol(String),
    /// Not sent: the deadline had passed. No verdict.
    NotSent(String),
    /// Sent in a batch that failed as a whole after the deadline, so not sent again one
    /// by one: its answer is lost, and there is no verdict.
    Lost(String),
}

impl Answer {
    /// The message of an answer that is not a response (a response's is empty).
    pub fn message(&self) -> &str {
        match self {
            Answer::Response(_) => "",
            Answer::Crash(m)
            | Answer::Timeout(m)
            | Answer::Protocol(m)
            | Answer::NotSent(m)
            | Answer::Lost(m) => m,
        }
    }

    /// Whether it is a verdict's material: a response, a crash, a timeout or a protocol
    /// error (not a case unsent or lost).
    pub fn is_answer(&self) -> bool {
        !matches!(self, Answer::NotSent(_) | Answer::Lost(_))
    }
}

/// The keys of a response object that the runner reads: the response fields of every
/// operation, `id`, `unsupported`, and a batch answer's `responses`.
pub const KEYS: [&str; 13] = [
    "id",
    "unsupported",
    "responses",
    "output",
    "spans",
    "lossy",
    "result",
    "valid",
    "strict",
    "bytes",
    "error",
    "index",
    "findings",
];

/// One response object, as its JSON text.
#[derive(Clone)]
pub struct RawResponse {
    /// The line it came on (a batch line holds many responses).
    text: Arc<String>,
    /// Where the object is in `text`.
    span: Range<usize>,
    /// The keys of [`KEYS`] it has, each with where its value is in `text`, in order.
    members: Members,
}

/// Keys of [`KEYS`], each with where its value is in a text.
type Members = Vec<(&'static str, Range<usize>)>;

impl fmt::Debug for RawResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawResponse({})", cut(self.text(), 200))
    }
}

impl RawResponse {
    /// Reads a line that should hold one JSON object; `Err` gives the line back when it
    /// is not one (not JSON, or another JSON value).
    pub fn parse(mut text: String) -> Result<RawResponse, String> {
        let members = match members(&text) {
            Ok(Some(members)) => members,
            _ => return Err(text),
        };
        // `read_until` may have left it twice as large as the line.
        text.shrink_to_fit();
        let span = 0..text.len();
        Ok(RawResponse {
            text: Arc::new(text),
            span,
            members,
        })
    }

    /// The object's JSON text.
    pub fn text(&self) -> &str {
        &self.text[self.span.clone()]
    }

    /// The JSON text of `key`'s value, if the object has it (the last one, when a key
    /// appears twice, as a JSON object read into a map keeps it). `key` must be one of
    /// [`KEYS`].
    pub fn get(&self, key: &str) -> Option<&str> {
        self.members
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, r)| &self.text[r.clone()])
    }

    /// The keys of [`KEYS`] it has, each once, in order.
    pub fn keys(&self) -> Vec<&'static str> {
        let mut keys: Vec<&'static str> = Vec::new();
        for (k, _) in &self.members {
            if !keys.contains(k) {
                keys.push(k);
            }
        }
        keys
    }

    /// Whether it has `"unsupported": true`.
    pub fn unsupported(&self) -> bool {
        self.get("unsupported")
            .is_some_and(|raw| matches!(serde_json::from_str::<bool>(raw), Ok(true)))
    }

    /// Its `id` when it is a string.
    pub fn id_str(&self) -> Option<String> {
        self.get("id")
            .and_then(|raw| serde_json::from_str::<String>(raw).ok())
    }

    /// The whole object as a JSON map, for small objects only (the hello's answer): `None`
    /// when its text is longer than `max` bytes.
    pub fn to_map(&self, max: usize) -> Option<Map<String, Value>> {
        if self.text().len() > max {
            return None;
        }
        serde_json::from_str(self.text()).ok()
    }

    /// A batch answer's `responses`: `None` when there is no such list; else each item,
    /// a response when it is a JSON object, else its text (to quote).
    pub fn responses(&self) -> Option<Vec<Result<RawResponse, String>>> {
        let raw = self.get("responses")?;
        let base = offset_in(&self.text, raw);
        let mut items = Vec::new();
        let walked = walk_items(raw, |_, item| {
            let start = base + offset_in(raw, item);
            items.push(match members(item) {
                Ok(Some(members)) => Ok(RawResponse {
                    text: Arc::clone(&self.text),
                    span: start..start + item.len(),
                    members: members
                        .into_iter()
                        .map(|(k, r)| (k, r.start + start..r.end + start))
                        .collect(),
                }),
                _ => Err(cut(item, 200)),
            });
            Ok(())
        });
        walked.ok().map(|_| items)
    }
}

impl From<Map<String, Value>> for RawResponse {
    /// A response built in memory (the built-in reference's, a test's), as the text an
    /// adapter would have sent.
    fn from(map: Map<String, Value>) -> RawResponse {
        let text = Value::Object(map).to_string();
        RawResponse::parse(text).expect("a JSON object's text is a JSON object")
    }
}

/// Where `inner` (a slice of `outer`) starts in `outer`.
fn offset_in(outer: &str, inner: &str) -> usize {
    inner.as_ptr() as usize - outer.as_ptr() as usize
}

/// The keys of [`KEYS`] in a JSON object's text, with where their values are: `Ok(None)`
/// when the text is JSON but not an object.
fn members(text: &str) -> Result<Option<Members>, serde_json::Error> {
    let mut found = Vec::new();
    let is_object = object_members(text, &KEYS, |key, value| {
        found.push((
            key,
            offset_in(text, value)..offset_in(text, value) + value.len(),
        ));
    })?;
    Ok(is_object.then_some(found))
}

/// Calls `each` with every member of the JSON object `text` whose key is in `wanted`, and
/// that member's value text, in order; skips the others unread. `Ok(false)` when `text` is
/// JSON but not an object.
pub fn object_members<'t>(
    text: &'t str,
    wanted: &[&'static str],
    each: impl FnMut(&'static str, &'t str),
) -> Result<bool, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let is_object = de.deserialize_any(ObjectVisitor { wanted, each })?;
    de.end()?;
    Ok(is_object)
}

struct ObjectVisitor<'w, F> {
    wanted: &'w [&'static str],
    each: F,
}

impl<'t, F: FnMut(&'static str, &'t str)> Visitor<'t> for ObjectVisitor<'_, F> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'t>>(mut self, mut map: A) -> Result<bool, A::Error> {
        while let Some(key) = map.next_key_seed(KeySeed(self.wanted))? {
            match key {
                Some(key) => {
                    let value: &'t RawValue = map.next_value()?;
                    (self.each)(key, value.get());
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(true)
    }

    fn visit_seq<A: SeqAccess<'t>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// A key, as the entry of the wanted list it equals (no allocation for any key).
struct KeySeed<'w>(&'w [&'static str]);

impl<'t> DeserializeSeed<'t> for KeySeed<'_> {
    type Value = Option<&'static str>;

    fn deserialize<D: Deserializer<'t>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'t> Visitor<'t> for KeySeed<'_> {
    type Value = Option<&'static str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().find(|k| **k == key).copied())
    }
}

/// Calls `each` with the index and the text of every item of the JSON list `text`, in
/// order, stopping at the first `Err` it returns (given back as `Err(Some(_))`); `Err(None)`
/// when `text` is not a list.
pub fn walk_items<'t>(
    text: &'t str,
    each: impl FnMut(usize, &'t str) -> Result<(), String>,
) -> Result<usize, Option<String>> {
    let mut stopped = None;
    let mut de = serde_json::Deserializer::from_str(text);
    let walked = de.deserialize_seq(ItemsVisitor {
        each,
        stopped: &mut stopped,
    });
    match (walked, stopped) {
        (_, Some(message)) => Err(Some(message)),
        (Ok(n), None) => Ok(n),
        (Err(_), None) => Err(None),
    }
}

struct ItemsVisitor<'s, F> {
    each: F,
    stopped: &'s mut Option<String>,
}

impl<'t, F: FnMut(usize, &'t str) -> Result<(), String>> Visitor<'t> for ItemsVisitor<'_, F> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'t>>(mut self, mut seq: A) -> Result<usize, A::Error> {
        let mut i = 0;
        while let Some(item) = seq.next_element::<&'t RawValue>()? {
            if let Err(message) = (self.each)(i, item.get()) {
                *self.stopped = Some(message);
                return Err(de::Error::custom("stopped"));
            }
            i += 1;
        }
        Ok(i)
    }
}

/// What comparing an answered list with the expected one item by item found: how many
/// items it had, the first index where it differs (or where one list ends before the
/// other), and the items around that index, to show.
#[derive(Debug, Default)]
pub struct ListWalk<'t> {
    /// Items answered.
    pub len: usize,
    /// The first index that differs, if any.
    pub first: Option<usize>,
    /// The items kept to show: from index [`Self::from`], at most [`AROUND`] before the
    /// first difference, that one and at most [`AROUND`] after it.
    pub shown: Vec<&'t str>,
    /// The index of `shown[0]`.
    pub from: usize,
}

/// Items shown on either side of a list's first difference.
pub const AROUND: usize = 3;

/// Walks the JSON list `text` item by item: `same(i, item)` reads item `i` (an `Err` stops
/// the walk: a protocol message) and says whether it equals the expected item `i` (it is
/// asked for every item, so that every item is read, also past the expected ones).
/// `Err(None)`: `text` is not a list.
pub fn walk_list<'t>(
    text: &'t str,
    expected_len: usize,
    mut same: impl FnMut(usize, &'t str) -> Result<bool, String>,
) -> Result<ListWalk<'t>, Option<String>> {
    let mut before: VecDeque<&'t str> = VecDeque::with_capacity(AROUND);
    let mut walk = ListWalk::default();
    let len = walk_items(text, |i, item| {
        let equal = same(i, item)? && i < expected_len;
        match walk.first {
            None if equal => {
                if before.len() == AROUND {
                    before.pop_front();
                }
                before.push_back(item);
            }
            None => {
                walk.first = Some(i);
                walk.from = i - before.len();
                walk.shown.extend(before.drain(..));
                walk.shown.push(item);
            }
            Some(first) if i <= first + AROUND => walk.shown.push(item),
            Some(_) => {}
        }
        Ok(())
    })?;
    walk.len = len;
    if walk.first.is_none() && len != expected_len {
        // Shorter than expected: it differs where it ends.
        walk.first = Some(len);
        walk.from = len - before.len();
        walk.shown.extend(before.drain(..));
    }
    Ok(walk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_are_found_and_others_skipped() {
        let text = r#"{"id": "a", "pad": [1, {"x": [2]}], "valid": true, "output": [ {"codepoint": "U+0041"} ], "id": "b"}"#;
        let r = RawResponse::parse(text.to_string()).unwrap();
        assert_eq!(r.get("valid"), Some("true"));
        assert_eq!(r.get("output"), Some(r#"[ {"codepoint": "U+0041"} ]"#));
        assert_eq!(
            r.get("id"),
            Some(r#""b""#),
            "the last one, as a map keeps it"
        );
        assert_eq!(r.get("pad"), None);
        assert_eq!(r.keys(), ["id", "valid", "output"]);
        for not_an_object in ["[1]", "3", "\"x\"", "null", "true"] {
            assert_eq!(
                RawResponse::parse(not_an_object.into()).unwrap_err(),
                not_an_object
            );
        }
        for not_json in ["", "{", "{\"a\":}", "{} x", "nope"] {
            assert!(RawResponse::parse(not_json.into()).is_err(), "{not_json}");
        }
    }

    #[test]
    fn batch_responses_share_the_line() {
        let text =
            r#"{"id":"b","responses":[{"id":"1","valid":true}, 7, {"id":"2","lossy":["U+0041"]}]}"#;
        let r = RawResponse::parse(text.to_string()).unwrap();
        let items = r.responses().unwrap();
        assert_eq!(items.len(), 3);
        let first = items[0].as_ref().unwrap();
        assert_eq!(first.text(), r#"{"id":"1","valid":true}"#);
        assert_eq!(first.get("valid"), Some("true"));
        assert_eq!(items[1].as_ref().unwrap_err(), "7");
        assert_eq!(
            items[2].as_ref().unwrap().get("lossy"),
            Some(r#"["U+0041"]"#)
        );
        let map = RawResponse::from(json!({"id": "x"}).as_object().unwrap().clone());
        assert!(map.responses().is_none());
    }

    #[test]
    fn lists_are_walked_with_the_items_around_the_first_difference() {
        let text = "[0,1,2,3,4,5,9,7,8,9,10,11,12]";
        let walk = walk_list(text, 13, |i, item| Ok(item == i.to_string())).unwrap();
        assert_eq!(walk.len, 13);
        assert_eq!(walk.first, Some(6));
        assert_eq!(walk.from, 3);
        assert_eq!(walk.shown, ["3", "4", "5", "9", "7", "8", "9"]);
        // Shorter: differs where it ends.
        let walk = walk_list("[0,1,2,3,4]", 9, |i, item| Ok(item == i.to_string())).unwrap();
        assert_eq!((walk.first, walk.from), (Some(5), 2));
        assert_eq!(walk.shown, ["2", "3", "4"]);
        // Longer.
        let walk = walk_list("[0,1,2]", 2, |i, item| Ok(item == i.to_string())).unwrap();
        assert_eq!((walk.first, walk.from), (Some(2), 0));
        // Equal.
        let walk = walk_list("[0,1]", 2, |i, item| Ok(item == i.to_string())).unwrap();
        assert_eq!(walk.first, None);
        // Every item is read, also after the first difference.
        let read = walk_list("[0,9,2,\"x\"]", 4, |i, item| {
            if item.starts_with('"') {
                Err(format!("item {i} is bad"))
            } else {
                Ok(item == i.to_string())
            }
        });
        assert_eq!(read.unwrap_err(), Some("item 3 is bad".to_string()));
        assert_eq!(walk_list("{}", 0, |_, _| Ok(true)).unwrap_err(), None);
    }
}
