//! Requests: a case as the line sent for it, and many cases as one batch line
//! (`conformance/adapters/README.md`, "Request" and "Batches").
//!
//! One serializer for every tool and both forms, written without building a JSON value
//! first (a batch holds hundreds of requests).

use crate::case::{Case, Test};
use crate::vectors::model::to_hex;
use crate::vectors::{Encoding, Op};
use serde::Serialize;

/// A case's request, borrowed from the case.
#[derive(Serialize)]
pub struct Request<'a> {
    /// The case's id (`FILE#TCID`, with a chunking's suffix).
    pub id: &'a str,
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// Decode and document: the input in lowercase hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<&'a str>,
    /// Encode: the code point, `U+` and uppercase hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codepoint: Option<&'a str>,
    /// String encode: the code points, each `U+` and uppercase hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codepoints: Option<&'a [String]>,
    /// A chunked variant (`--splits`): the input's chunks, in hex, besides the whole
    /// `input`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunks: Option<Vec<String>>,
}

impl<'a> Request<'a> {
    /// The request for `case`.
    pub fn of(case: &'a Case) -> Request<'a> {
        Request {
            id: &case.id,
            encoding: case.encoding,
            op: case.op(),
            input: case.input_hex(),
            codepoint: match &*case.test {
                Test::Encode(t) => Some(&t.codepoint),
                _ => None,
            },
            codepoints: match &*case.test {
                Test::EncodeString(t) => Some(&t.codepoints),
                _ => None,
            },
            chunks: case
                .chunks()
                .map(|chunks| chunks.iter().map(|c| to_hex(c)).collect()),
        }
    }
}

/// The request line of `case` (without its newline).
pub fn line(case: &Case) -> Vec<u8> {
    // Writing to a Vec cannot fail, and every field is a string or a list of strings.
    serde_json::to_vec(&Request::of(case)).unwrap_or_default()
}

/// A batch request line: `{"id": ID, "op": "batch", "requests": [REQ, …]}` (without its
/// newline), each `REQ` exactly the case's own request line.
pub fn batch_line(id: &str, cases: &[&Case]) -> Vec<u8> {
    let mut line = Vec::with_capacity(128 * cases.len());
    line.extend_from_slice(br#"{"id":"#);
    let _ = serde_json::to_writer(&mut line, id);
    line.extend_from_slice(br#","op":"batch","requests":["#);
    for (i, case) in cases.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        let _ = serde_json::to_writer(&mut line, &Request::of(case));
    }
    line.extend_from_slice(b"]}");
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn batch_requests_are_the_line_requests() {
        let mut suite = crate::run::suite::load_embedded(&[]).unwrap();
        suite.add_splits();
        let cases: Vec<&Case> = suite.cases.iter().step_by(7).take(3000).collect();
        assert!(cases.iter().any(|c| c.chunking.is_some()));
        assert!(cases.iter().any(|c| c.op() == Op::Encode));
        let batch: Value = serde_json::from_slice(&batch_line("batch-1", &cases)).unwrap();
        assert_eq!(batch["id"], "batch-1");
        assert_eq!(batch["op"], "batch");
        let requests = batch["requests"].as_array().unwrap();
        assert_eq!(requests.len(), cases.len());
        for (request, case) in requests.iter().zip(&cases) {
            // Key order too.
            assert_eq!(request.to_string().as_bytes(), line(case), "{}", case.id);
        }
    }

    #[test]
    fn requests_have_the_documented_shape() {
        let suite = crate::run::suite::load_embedded(&[]).unwrap();
        let decode = suite.cases.iter().find(|c| c.op() == Op::Decode).unwrap();
        let text = String::from_utf8(line(decode)).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"id":"{}","encoding":"{}","op":"decode","input":"{}"}}"#,
                decode.id,
                decode.encoding,
                decode.input_hex().unwrap()
            )
        );
        let (encode, t) = suite
            .cases
            .iter()
            .find_map(|c| match &*c.test {
                Test::Encode(t) => Some((c, t)),
                _ => None,
            })
            .unwrap();
        let text = String::from_utf8(line(encode)).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"id":"{}","encoding":"{}","op":"encode","codepoint":"{}"}}"#,
                encode.id, encode.encoding, t.codepoint
            )
        );
        let (string, t) = suite
            .cases
            .iter()
            .find_map(|c| match &*c.test {
                Test::EncodeString(t) if t.codepoints.len() > 1 => Some((c, t)),
                _ => None,
            })
            .unwrap();
        let text = String::from_utf8(line(string)).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"id":"{}","encoding":"{}","op":"encode","codepoints":{}}}"#,
                string.id,
                string.encoding,
                serde_json::to_string(&t.codepoints).unwrap()
            )
        );
    }
}
