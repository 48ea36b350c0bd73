//! Protocol 2's handshake: what an implementation declares it supports, and the gate's
//! floor built on it (`conformance/adapters/README.md`, "Protocol 2").
//!
//! The runner's first line to an adapter is [`hello_request`]. A protocol-2 adapter
//! answers with a [`Declaration`]: per encoding and operation, the response fields it will
//! send for *every* case. Any other JSON object (a protocol-1 adapter's
//! `{"id": …, "unsupported": true}`) means "protocol 1": nothing declared.

use super::raw::RawResponse;
use super::verdict::get;
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
///
/// The names stay as the adapter wrote them (a report echoes them, and a later protocol
/// may add names this runner does not know); [`Support::target`] is them parsed, once,
/// when the hello is read.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Support {
    /// `corrected-utf8`, `utf-8`, `utf-inf-8`, or one this runner does not know (ignored).
    pub encoding: String,
    /// `decode`, `encode`, `document`, or one this runner does not know (ignored).
    pub op: String,
    /// The encoding and operation, when this runner knows both names.
    #[serde(skip)]
    pub target: Option<(Encoding, Op)>,
    /// Response fields, plus the encode pseudo-fields `error` (every answer has `bytes`
    /// or `error`), `error-kind` (a failure's `error` is a kind, never null) and
    /// `codepoints` (string requests, `"codepoints": [...]`, are taken).
    pub fields: Vec<String>,
    /// `"streaming": true`: it also takes chunked requests (`"chunks"`) of this encoding
    /// and operation, fed to a streaming decoder (`conformance run --splits`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub streaming: bool,
}

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
            .find(|s| s.target == Some((encoding, op)))
            .map(|s| s.fields.as_slice())
    }

    /// Whether it declared `"streaming": true` for an encoding and operation.
    pub fn streaming(&self, encoding: Encoding, op: Op) -> bool {
        self.supports
            .iter()
            .any(|s| s.target == Some((encoding, op)) && s.streaming)
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
pub fn parse_hello(obj: &Map<String, Value>) -> Result<Declared, String> {
    if obj.get("protocol").and_then(Value::as_u64) != Some(PROTOCOL) {
        return Ok(Declared::Protocol1);
    }
    let name = obj.get("name").and_then(Value::as_str).map(str::to_string);
    let list = match obj.get("supports") {
        Some(Value::Array(list)) => list,
        _ => return Err("the hello answer has no `supports` list".into()),
    };
    let mut supports = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let bad = || {
            format!(
                "`supports` item {i} is not {{\"encoding\": \"…\", \"op\": \"…\", \"fields\": [\"…\", …]}}"
            )
        };
        let o = s.as_object().ok_or_else(bad)?;
        let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        let (Some(encoding), Some(op)) = (text("encoding"), text("op")) else {
            return Err(bad());
        };
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
        let known_op = Op::from_name(&op);
        if let Some(known) = known_op.map(known_fields) {
            if let Some(unknown) = fields.iter().find(|f| !known.contains(&f.as_str())) {
                return Err(format!(
                    "`supports` item {i} ({encoding} {op}) declares the field {unknown:?}, \
                     which {op} has not: its fields are {}",
                    known.join(", ")
                ));
            }
        }
        // Anything but `true` (absent, false, another type) is no streaming.
        let streaming = o.get("streaming") == Some(&Value::Bool(true));
        let target = Encoding::from_name(&encoding).zip(known_op);
        supports.push(Support {
            encoding,
            op,
            target,
            fields,
            streaming,
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

/// One `--require [NAME=]ENCODING:OP[:FIELD,…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The implementation it applies to (`NAME=`); `None`: every implementation.
    pub implementation: Option<String>,
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// The fields every case must have (none: any answer).
    pub fields: Vec<String>,
}

impl Requirement {
    /// Whether it applies to the implementation `name`.
    pub fn applies_to(&self, name: &str) -> bool {
        self.implementation.as_deref().is_none_or(|n| n == name)
    }
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(name) = &self.implementation {
            write!(f, "{name}=")?;
        }
        write!(f, "{}:{}", self.encoding, self.op)?;
        if !self.fields.is_empty() {
            write!(f, ":{}", self.fields.join(","))?;
        }
        Ok(())
    }
}

/// Parses `[NAME=]ENCODING:OP[:FIELD,…]`; the levels `events`, `lossy`, `strict`,
/// `validity` stand for the decode fields `output`, `lossy`, `strict`, `valid`. With
/// `NAME=`, it applies to the implementation `NAME` alone (`--adapter NAME=…`, or
/// `reference`).
pub fn parse_requirement(s: &str) -> Result<Requirement, String> {
    // An encoding has no `=`: one before the first `:` ends a name.
    let (implementation, s) = match s.split_once('=') {
        Some((name, rest)) if !name.contains(':') => {
            crate::adapter_spec::parse_adapter(&format!("{name}=x"))
                .map_err(|e| format!("in {name}=…: {e}"))?;
            (Some(name.to_string()), rest)
        }
        _ => (None, s),
    };
    let mut parts = s.splitn(3, ':');
    let encoding: Encoding = parts
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e: corrected_utf8_vectors::vocabulary::UnknownName| e.to_string())?;
    let op = parts.next().unwrap_or_default();
    let op = Op::from_name(op)
        .ok_or_else(|| format!("unknown operation {op:?} (expected decode, encode or document)"))?;
    let fields = parts
        .next()
        .map(|f| {
            f.split(',')
                .filter(|f| !f.is_empty())
                .map(|f| {
                    match (op, f) {
                        (Op::Decode, "events") => "output",
                        (Op::Decode, "validity") => "valid",
                        (_, f) => f,
                    }
                    .to_string()
                })
                .collect::<Vec<String>>()
        })
        .unwrap_or_default();
    let known = known_fields(op);
    if let Some(unknown) = fields.iter().find(|f| !known.contains(&f.as_str())) {
        return Err(format!(
            "unknown field {unknown:?} of {op} (expected {}{})",
            known.join(", "),
            if op == Op::Decode {
                ", or the levels events, validity"
            } else {
                ""
            }
        ));
    }
    Ok(Requirement {
        implementation,
        encoding,
        op,
        fields,
    })
}

/// `utf-8 decode (lossy, valid), …`.
pub fn describe_supports(supports: &[Support]) -> String {
    if supports.is_empty() {
        return "nothing".into();
    }
    supports
        .iter()
        .map(|s| format!("{} {} ({})", s.encoding, s.op, s.fields.join(", ")))
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
        // An operation it does not know is ignored, fields and all.
        // Names it does not know are kept as written, and match no case.
        let other = obj(json!({"id": "hello", "protocol": 2, "supports": [
            {"encoding": "utf-8", "op": "transcode", "fields": ["x"]},
            {"encoding": "utf-16", "op": "decode", "fields": ["output"]},
            {"encoding": "corrected-utf8", "op": "document", "fields": ["findings"],
             "streaming": true}]}));
        let d = parse_hello(&other).unwrap();
        let d = d.declaration().unwrap();
        let targets: Vec<_> = d.supports.iter().map(|s| s.target).collect();
        assert_eq!(
            targets,
            [None, None, Some((Encoding::CorrectedUtf8, Op::Document))]
        );
        assert_eq!(
            (d.supports[0].op.as_str(), d.supports[1].encoding.as_str()),
            ("transcode", "utf-16")
        );
        assert_eq!(d.fields(Encoding::Utf8, Op::Decode), None);
        assert!(d.streaming(Encoding::CorrectedUtf8, Op::Document));
        assert!(!d.streaming(Encoding::CorrectedUtf8, Op::Decode));
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

    #[test]
    fn requirements() {
        let r = parse_requirement("utf-8:decode:events,strict").unwrap();
        assert_eq!(r.fields, ["output", "strict"]);
        assert_eq!(r.implementation, None);
        assert_eq!(r.to_string(), "utf-8:decode:output,strict");
        assert_eq!(
            (r.encoding, r.op),
            (Encoding::Utf8, Op::Decode),
            "parsed once, into the names"
        );
        // The wording of both errors is the runner's (clap prints it after the value).
        assert_eq!(
            parse_requirement("utf8:decode").unwrap_err(),
            r#"unknown encoding "utf8" (expected one of corrected-utf8, utf-8, utf-inf-8)"#
        );
        assert_eq!(
            parse_requirement("utf-inf-8:transcode").unwrap_err(),
            r#"unknown operation "transcode" (expected decode, encode or document)"#
        );
        assert!(parse_requirement("utf-8").is_err());
        assert!(parse_requirement("utf-8:decode:bogus").is_err());
        assert!(parse_requirement("utf-8:encode:lossy").is_err());
        let r = parse_requirement("ruby-1.x=utf-8:decode:spans").unwrap();
        assert_eq!(r.implementation.as_deref(), Some("ruby-1.x"));
        assert_eq!(r.fields, ["spans"]);
        assert_eq!(r.to_string(), "ruby-1.x=utf-8:decode:spans");
        assert!(r.applies_to("ruby-1.x") && !r.applies_to("php"));
        assert!(parse_requirement("a b=utf-8:decode").is_err());
    }
}
