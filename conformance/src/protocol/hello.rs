//! Protocol 2's handshake: what an implementation declares it supports, and the gate's
//! floor built on it (`conformance/adapters/README.md`, "Protocol 2").
//!
//! The runner's first line to an adapter is [`hello_request`]. A protocol-2 adapter
//! answers with a [`Declaration`]: per encoding and operation, the response fields it will
//! send for *every* case. Any other JSON object (a protocol-1 adapter's
//! `{"id": …, "unsupported": true}`) means "protocol 1": nothing declared.

use super::answer::RawResponse;
use corrected_utf8_vectors::{Encoding, Op};
use serde_json::{json, Map, Value};

/// The id of the hello request and of its answer.
pub const HELLO_ID: &str = "hello";

/// The protocol version this runner speaks.
pub const PROTOCOL: u64 = 2;

/// The hello line's object.
pub fn hello_request() -> Value {
    json!({"id": HELLO_ID, "op": "hello", "protocol": PROTOCOL})
}

/// The largest `"batch"` a hello answer may declare.
pub const MAX_BATCH: usize = 65_536;

/// The longest answer to the hello, in bytes (it is read as a JSON value).
pub const MAX_HELLO: usize = 1 << 20;

/// The fields an implementation may declare (and `--require`) for each operation: the
/// response fields, and encode's pseudo-fields `error-kind` ([`Support::fields`]).
pub fn known_fields(op: Op) -> &'static [&'static str] {
    match op {
        Op::Decode => &["output", "spans", "lossy", "result", "valid", "strict"],
        Op::Encode => &["bytes", "error", "error-kind", "codepoints"],
        Op::Document => &["findings"],
    }
}

/// One declared encoding and operation with the fields sent for every case of it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Support {
    /// The encoding (its name in the vocabulary: anything else is refused).
    pub encoding: Encoding,
    /// The operation (its name in the vocabulary: anything else is refused).
    pub op: Op,
    /// Response fields, plus the encode pseudo-fields `error` (every answer has `bytes`
    /// or `error`), `error-kind` (a failure's `error` is a kind, never null) and
    /// `codepoints` (string requests, `"codepoints": [...]`, are taken).
    pub fields: Vec<String>,
    /// `"streaming": true`: it also takes chunked requests (`"chunks"`) of this encoding
    /// and operation, fed to a streaming decoder (`conformance run --splits`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub streaming: bool,
    /// `"limit": N` on `utf-inf-8 decode`: the implementation's code length limit in bytes
    /// ([`LIMIT_RANGE`]), at which its answers are judged (expected results from the
    /// spec-literal decoder at that limit); absent: the vectors' 65 536.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// The code length limits a `utf-inf-8 decode` entry may declare: 1 byte to 4 GiB.
pub const LIMIT_RANGE: std::ops::RangeInclusive<u64> = 1..=1 << 32;

/// A protocol-2 adapter's answer to the hello.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Declaration {
    /// The `name` it gave (free text).
    pub name: Option<String>,
    /// What it supports.
    pub supports: Vec<Support>,
    /// `"batch": N`: it takes batch requests of at most N cases (1..=[`MAX_BATCH`]);
    /// `None` (absent, or anything else): one request per line only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<usize>,
}

impl Declaration {
    /// The declared fields of an encoding and operation, if declared.
    pub fn fields(&self, encoding: Encoding, op: Op) -> Option<&[String]> {
        self.supports
            .iter()
            .find(|s| (s.encoding, s.op) == (encoding, op))
            .map(|s| s.fields.as_slice())
    }

    /// The code length limit it declared for UTF-∞-8 decoding, if any.
    pub fn limit(&self) -> Option<u64> {
        self.supports
            .iter()
            .find(|s| (s.encoding, s.op) == (Encoding::UtfInf8, Op::Decode))
            .and_then(|s| s.limit)
    }

    /// Whether it declared `"streaming": true` for an encoding and operation.
    pub fn streaming(&self, encoding: Encoding, op: Op) -> bool {
        self.supports
            .iter()
            .any(|s| (s.encoding, s.op) == (encoding, op) && s.streaming)
    }
}

/// What is known of an implementation's handshake after a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Declared {
    /// Never started (every case was skipped or not sent), or no answer to the hello.
    #[default]
    Unknown,
    /// Answered the hello without `"protocol": 2`: nothing declared.
    Protocol1,
    /// Declared what it supports.
    Protocol2(Declaration),
}

impl Declared {
    /// The declaration, under protocol 2.
    pub fn declaration(&self) -> Option<&Declaration> {
        match self {
            Declared::Protocol2(d) => Some(d),
            _ => None,
        }
    }
}

/// Reads the answer to the hello (an object whose `id` is [`HELLO_ID`] or null).
///
/// Strictly: a declaration is a floor, and one the runner misreads is no floor. Every
/// `supports` item names an encoding and an operation of the vocabulary, exactly as
/// written there (`UTF-8` is not `utf-8`), with fields that operation has; an encoding
/// and operation declared twice is an error naming both items (which one would hold?).
pub fn parse_hello(obj: &Map<String, Value>) -> Result<Declared, String> {
    if obj.get("protocol").and_then(Value::as_u64) != Some(PROTOCOL) {
        return Ok(Declared::Protocol1);
    }
    let name = obj.get("name").and_then(Value::as_str).map(str::to_string);
    let list = match obj.get("supports") {
        Some(Value::Array(list)) => list,
        _ => return Err("the hello answer has no `supports` list".into()),
    };
    let mut supports: Vec<Support> = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let bad = || {
            format!(
                "`supports` item {i} is not {{\"encoding\": \"…\", \"op\": \"…\", \"fields\": [\"…\", …]}}"
            )
        };
        let o = s.as_object().ok_or_else(bad)?;
        let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        let (Some(encoding_name), Some(op_name)) = (text("encoding"), text("op")) else {
            return Err(bad());
        };
        let encoding = Encoding::from_name(&encoding_name).ok_or_else(|| {
            format!(
                "`supports` item {i} declares the encoding {encoding_name:?}, which is not one \
                 of {} (names are exact: lowercase, with hyphens)",
                Encoding::NAMES.join(", ")
            )
        })?;
        let op = Op::from_name(&op_name).ok_or_else(|| {
            format!(
                "`supports` item {i} declares the operation {op_name:?}, which is not one of {}",
                Op::NAMES.join(", ")
            )
        })?;
        let fields = match o.get("fields") {
            Some(Value::Array(f)) => f
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(bad)?,
            _ => return Err(bad()),
        };
        if fields.is_empty() {
            return Err(format!(
                "`supports` item {i} ({encoding} {op}) declares no field"
            ));
        }
        // A field the runner does not know would never be compared: a declaration it
        // cannot hold the answers to is no floor, so it is refused.
        let known = known_fields(op);
        if let Some(unknown) = fields.iter().find(|f| !known.contains(&f.as_str())) {
            return Err(format!(
                "`supports` item {i} ({encoding} {op}) declares the field {unknown:?}, which \
                 {op} has not: its fields are {}",
                known.join(", ")
            ));
        }
        if let Some(first) = supports
            .iter()
            .position(|s| (s.encoding, s.op) == (encoding, op))
        {
            return Err(format!(
                "`supports` items {first} and {i} both declare {encoding} {op} (with {} and \
                 with {}): declare each encoding and operation once, with all its fields",
                supports[first].fields.join(", "),
                fields.join(", ")
            ));
        }
        // Anything but `true` (absent, false, another type) is no streaming.
        let streaming = o.get("streaming") == Some(&Value::Bool(true));
        let limit = match o.get("limit") {
            None => None,
            Some(_) if (encoding, op) != (Encoding::UtfInf8, Op::Decode) => {
                return Err(format!(
                    "`supports` item {i} ({encoding} {op}) declares a `limit`, which only \
                     utf-inf-8 decode has (the code length limit)"
                ))
            }
            Some(v) => match v.as_u64().filter(|n| LIMIT_RANGE.contains(n)) {
                Some(n) => Some(n),
                None => {
                    return Err(format!(
                        "`supports` item {i} ({encoding} {op}) declares the limit {}, which is \
                         not a whole number of bytes from {} to {}",
                        crate::text::cut(&v.to_string(), 40),
                        LIMIT_RANGE.start(),
                        LIMIT_RANGE.end()
                    ))
                }
            },
        };
        supports.push(Support {
            encoding,
            op,
            fields,
            streaming,
            limit,
        });
    }
    // Anything but an integer in 1..=MAX_BATCH is no batch (line mode), not an error: the
    // key is an optional speed-up, and an adapter that gets it wrong still works.
    let batch = obj
        .get("batch")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=MAX_BATCH).contains(n));
    Ok(Declared::Protocol2(Declaration {
        name,
        supports,
        batch,
    }))
}

/// The declared fields missing from a response (encode's `error` and `error-kind` read
/// as described on [`Support::fields`]).
pub fn missing_fields(op: Op, declared: &[String], response: &Map<String, Value>) -> Vec<String> {
    declared
        .iter()
        .filter(|f| !has_field(op, f, response))
        .cloned()
        .collect()
}

/// The declared fields missing from a response, read as its text (as [`missing_fields`]).
pub fn missing_in(op: Op, declared: &[String], response: &RawResponse) -> Vec<String> {
    let answered = answered_fields(response);
    declared
        .iter()
        .filter(|f| !has_answered(op, f, &answered))
        .cloned()
        .collect()
}

/// The fields a response has: its keys of [`super::raw::KEYS`] but `id` and `responses`,
/// and `error-kind` when its `error` is a kind (a string).
pub fn answered_fields(response: &RawResponse) -> Vec<String> {
    let mut keys: Vec<String> = response
        .keys()
        .into_iter()
        .filter(|k| !matches!(*k, "id" | "responses"))
        .map(str::to_string)
        .collect();
    if response.get("error").is_some_and(|e| e.starts_with('"')) {
        keys.push("error-kind".into());
    }
    keys
}

/// `obj.get(key)`, by a linear scan for the small objects of answers (a few keys each):
/// cheaper than hashing the key, which serde_json's order-keeping maps do on every lookup.
fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if obj.len() <= 16 {
        obj.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        obj.get(key)
    }
}

/// Whether a response has the (declared or required) field `field` of operation `op`.
pub fn has_field(op: Op, field: &str, response: &Map<String, Value>) -> bool {
    let has = |key: &str| get(response, key).is_some();
    match (op, field) {
        (Op::Encode, "bytes" | "error") => has("bytes") || has("error"),
        (Op::Encode, "error-kind") => match get(response, "error") {
            Some(e) => e.is_string(),
            None => has("bytes"),
        },
        // Not a response field: it declares that string requests are taken.
        (Op::Encode, "codepoints") => true,
        _ => has(field),
    }
}

/// Like [`has_field`], over the keys a response had (`error-kind` among them when its
/// `error` was a kind).
pub fn has_answered(op: Op, field: &str, answered: &[String]) -> bool {
    let has = |k: &str| answered.iter().any(|a| a == k);
    match (op, field) {
        (Op::Encode, "bytes" | "error") => has("bytes") || has("error"),
        (Op::Encode, "error-kind") => has("bytes") || has("error-kind"),
        (Op::Encode, "codepoints") => true,
        _ => has(field),
    }
}

/// `utf-8 decode (lossy, valid), …`.
pub fn describe_supports(supports: &[Support]) -> String {
    if supports.is_empty() {
        return "nothing".into();
    }
    supports
        .iter()
        .map(|s| {
            let limit = s.limit.map(|n| format!("; limit {n}")).unwrap_or_default();
            format!("{} {} ({}{limit})", s.encoding, s.op, s.fields.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn hello_answers() {
        let p1 = obj(json!({"id": "hello", "unsupported": true}));
        assert_eq!(parse_hello(&p1), Ok(Declared::Protocol1));
        let p2 = obj(
            json!({"id": "hello", "protocol": 2, "name": "x", "streaming": true,
            "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["lossy"]}]}),
        );
        let d = parse_hello(&p2).unwrap();
        assert_eq!(
            d.declaration().unwrap().fields(Encoding::Utf8, Op::Decode),
            Some(&["lossy".to_string()][..])
        );
        assert_eq!(d.declaration().unwrap().batch, None);
        for (batch, got) in [
            (json!(4096), Some(4096)),
            (json!(1), Some(1)),
            (json!(65536), Some(65536)),
            (json!(0), None),
            (json!(65537), None),
            (json!(-3), None),
            (json!(2.5), None),
            (json!("8"), None),
        ] {
            let mut b = p2.clone();
            b.insert("batch".into(), batch.clone());
            let d = parse_hello(&b).unwrap();
            assert_eq!(d.declaration().unwrap().batch, got, "{batch}");
        }
        let bad = obj(json!({"id": "hello", "protocol": 2, "supports": [{"op": "decode"}]}));
        assert!(parse_hello(&bad).is_err());
        // A field the runner never compares is refused, naming it and the known ones.
        for (op, field) in [
            (Op::Decode, "events"),
            (Op::Decode, "id"),
            (Op::Encode, "lossy"),
        ] {
            let known = known_fields(op)[0];
            let unknown = obj(json!({"id": "hello", "protocol": 2, "supports": [
                {"encoding": "utf-8", "op": op, "fields": [known, field]}]}));
            let err = parse_hello(&unknown).unwrap_err();
            assert!(err.contains(&format!("{field:?}")), "{err}");
            assert!(err.contains(known_fields(op).join(", ").as_str()), "{err}");
        }
        // Names outside the vocabulary are refused, naming the known ones: an adapter
        // that writes `UTF-8` would otherwise be sent nothing while its header said
        // "declared: UTF-8 decode".
        let refused = |supports: Value| {
            parse_hello(&obj(
                json!({"id": "hello", "protocol": 2, "supports": supports}),
            ))
            .unwrap_err()
        };
        let e = refused(json!([{"encoding": "UTF-8", "op": "decode", "fields": ["lossy"]}]));
        assert!(
            e.contains("\"UTF-8\"") && e.contains("corrected-utf8, utf-8, utf-inf-8"),
            "{e}"
        );
        let e = refused(json!([{"encoding": "utf-8", "op": "transcode", "fields": ["x"]}]));
        assert!(
            e.contains("\"transcode\"") && e.contains("decode, encode, document"),
            "{e}"
        );
        // The same encoding and operation twice: which declaration would hold?
        let e = refused(json!([
            {"encoding": "utf-8", "op": "decode", "fields": ["lossy"]},
            {"encoding": "utf-8", "op": "encode", "fields": ["bytes"]},
            {"encoding": "utf-8", "op": "decode", "fields": ["valid"]}]));
        assert!(
            e.contains("items 0 and 2 both declare utf-8 decode")
                && e.contains("lossy")
                && e.contains("valid"),
            "{e}"
        );
        let ok = obj(json!({"id": "hello", "protocol": 2, "supports": [
            {"encoding": "utf-8", "op": "decode", "fields": ["output"]},
            {"encoding": "corrected-utf8", "op": "document", "fields": ["findings"],
             "streaming": true}]}));
        let d = parse_hello(&ok).unwrap();
        let d = d.declaration().unwrap();
        assert_eq!(d.fields(Encoding::Utf8, Op::Encode), None);
        assert!(d.streaming(Encoding::CorrectedUtf8, Op::Document));
        assert!(!d.streaming(Encoding::Utf8, Op::Decode));
        // A code length limit: on utf-inf-8 decode only, 1 to 2^32 bytes.
        let with_limit = |entry: Value| {
            parse_hello(&obj(
                json!({"id": "hello", "protocol": 2, "supports": [entry]}),
            ))
        };
        let limited = with_limit(
            json!({"encoding": "utf-inf-8", "op": "decode", "fields": ["output"], "limit": 16}),
        )
        .unwrap();
        assert_eq!(limited.declaration().unwrap().limit(), Some(16));
        for limit in [json!(1), json!(4294967296u64)] {
            let entry = json!({"encoding": "utf-inf-8", "op": "decode", "fields": ["output"], "limit": limit});
            assert!(with_limit(entry).is_ok(), "{limit}");
        }
        for limit in [
            json!(0),
            json!(4294967297u64),
            json!(-1),
            json!(1.5),
            json!("16"),
        ] {
            let entry = json!({"encoding": "utf-inf-8", "op": "decode", "fields": ["output"], "limit": limit});
            let e = with_limit(entry).unwrap_err();
            assert!(e.contains("from 1 to 4294967296"), "{limit}: {e}");
        }
        let e = with_limit(
            json!({"encoding": "utf-8", "op": "decode", "fields": ["output"], "limit": 16}),
        )
        .unwrap_err();
        assert!(e.contains("only utf-inf-8 decode"), "{e}");
        // Serialized by name, as the adapter wrote them.
        assert_eq!(
            serde_json::to_value(&d.supports[0]).unwrap(),
            json!({"encoding": "utf-8", "op": "decode", "fields": ["output"]})
        );
    }

    #[test]
    fn encode_pseudo_fields() {
        let f =
            |v: Value| missing_fields(Op::Encode, &["bytes".into(), "error-kind".into()], &obj(v));
        assert!(f(json!({"bytes": "41"})).is_empty());
        assert!(f(json!({"error": "surrogate"})).is_empty());
        assert_eq!(f(json!({"error": null})), ["error-kind"]);
        assert_eq!(f(json!({})), ["bytes", "error-kind"]);
    }
}
