//! `conformance serve`: the reference codec as a protocol-2 adapter on stdin and stdout
//! (`conformance/adapters/README.md`).
//!
//! It declares every encoding and operation the codec implements with every field
//! ([`Reference::declaration`]), streaming for decode and document, and batches; each
//! request is answered by the same function as the built-in `reference`
//! ([`reference::respond_to`]). It is the model adapter for an implementation in Rust (a
//! loop over lines, a declaration, one function from a request to a response) and the
//! compiled adapter of the throughput table.
//!
//! Robustness, as the protocol asks: every line gets exactly one answer line; a line that
//! is not JSON, not an object, or a request it cannot read (unknown encoding or op, bad
//! hex, a malformed code point, bad chunks) gets `{"id": …, "unsupported": true}` (the id
//! if it could be read, else null); a line longer than `--max-line-bytes` is read no
//! further than its end and answered the same way. It ends when stdin closes. Answers are
//! buffered and flushed after each line.

use super::handshake::{self, MAX_BATCH};
use super::reference::{self, Query, Reference, Response};
use crate::vectors::model::from_hex;
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;

/// The arguments of `conformance serve`.
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The `"batch"` it declares: the most requests in one batch request (1 to 65536).
    #[arg(long, value_name = "N", default_value_t = 4096,
          value_parser = clap::value_parser!(u32).range(1..=MAX_BATCH as i64))]
    pub batch: u32,

    /// The longest request line read, in bytes; a longer one is answered `unsupported`.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_line_bytes: usize,
}

/// What `conformance serve` does: answer stdin's lines on stdout until stdin closes.
pub fn serve(args: &ServeArgs) -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match serve_on(stdin, stdout, args) {
        Ok(()) => ExitCode::SUCCESS,
        // The runner closed the pipe: nothing more to answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            crate::errln!("conformance serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Answers every line of `input` with one line on `output`, flushed after each.
pub fn serve_on(
    mut input: impl BufRead,
    mut output: impl Write,
    args: &ServeArgs,
) -> io::Result<()> {
    let hello = hello(args.batch);
    let mut line = Vec::new();
    loop {
        line.clear();
        let cap = args.max_line_bytes as u64 + 1;
        if input.by_ref().take(cap).read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.last() != Some(&b'\n') && line.len() > args.max_line_bytes {
            // Skip the rest of the line, whatever its length.
            skip_line(&mut input)?;
            write(&mut output, &unsupported(&Value::Null))?;
        } else {
            answer_line(&line, &hello, &mut output)?;
        }
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// The hello answer (without its id): the reference's declaration, with batches.
fn hello(batch: u32) -> Map<String, Value> {
    let declaration = Reference::declaration();
    let mut hello = Map::new();
    hello.insert("protocol".into(), json!(handshake::PROTOCOL));
    hello.insert(
        "name".into(),
        json!(format!(
            "conformance serve {} (corrected-utf8 crate)",
            env!("CARGO_PKG_VERSION")
        )),
    );
    hello.insert("supports".into(), json!(declaration.supports));
    hello.insert("batch".into(), json!(batch));
    hello
}

/// Writes the answer to one line (without its newline).
fn answer_line(line: &[u8], hello: &Map<String, Value>, out: &mut impl Write) -> io::Result<()> {
    let Ok(request) = serde_json::from_slice::<Value>(line) else {
        return write(out, &unsupported(&Value::Null));
    };
    let id = request.get("id").unwrap_or(&Value::Null);
    match request.get("op").and_then(Value::as_str) {
        Some("hello") => {
            let mut answer = Map::new();
            answer.insert("id".into(), id.clone());
            answer.extend(hello.clone());
            write(out, &answer)
        }
        Some("batch") => match request.get("requests") {
            Some(Value::Array(requests)) => {
                // `{"id": ID, "responses": [RESP, …]}`, each response written as it is
                // computed.
                out.write_all(b"{\"id\":")?;
                write(out, id)?;
                out.write_all(b",\"responses\":[")?;
                for (i, request) in requests.iter().enumerate() {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    write(out, &respond(request))?;
                }
                out.write_all(b"]}")
            }
            _ => write(out, &unsupported(id)),
        },
        _ => write(out, &respond(&request)),
    }
}

fn write(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::from)
}

/// A response line's object: `{"id": …, FIELDS}` or `{"id": …, "unsupported": true}`.
#[derive(serde::Serialize)]
pub struct Reply<'a> {
    /// The request's id, or null.
    id: &'a Value,
    /// What the codec computed.
    #[serde(flatten)]
    fields: Option<Response>,
    /// `true` when it computed nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    unsupported: Option<bool>,
}

fn unsupported(id: &Value) -> Reply<'_> {
    Reply {
        id,
        fields: None,
        unsupported: Some(true),
    }
}

/// The response to one (non-batch) request: every field the codec gives, or
/// `unsupported`.
pub fn respond(request: &Value) -> Reply<'_> {
    let id = request.get("id").unwrap_or(&Value::Null);
    match fields(request) {
        Some(fields) => Reply {
            id,
            fields: Some(fields),
            unsupported: None,
        },
        None => unsupported(id),
    }
}

fn fields(request: &Value) -> Option<Response> {
    let text = |key: &str| request.get(key).and_then(Value::as_str);
    let encoding = text("encoding")?;
    let input = match text("input") {
        Some(hex) => Some(from_hex(hex).ok()?),
        None => None,
    };
    let chunks = match request.get("chunks") {
        None | Some(Value::Null) => None,
        Some(Value::Array(list)) => Some(
            list.iter()
                .map(|c| from_hex(c.as_str()?).ok())
                .collect::<Option<Vec<Vec<u8>>>>()?,
        ),
        Some(_) => return None,
    };
    let query = match text("op")? {
        "decode" => Query::Decode {
            input: input.as_deref()?,
            chunks: chunks.as_deref(),
        },
        "document" => Query::Document {
            input: input.as_deref()?,
            chunks: chunks.as_deref(),
        },
        "encode" => Query::Encode {
            codepoint: text("codepoint")?,
        },
        _ => return None,
    };
    reference::respond_to(encoding, query)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &[u8], max_line_bytes: usize) -> Vec<Value> {
        let mut out = Vec::new();
        let args = ServeArgs {
            batch: 8,
            max_line_bytes,
        };
        serve_on(input, &mut out, &args).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn every_line_gets_one_answer() {
        let input = concat!(
            r#"{"id":"hello","op":"hello","protocol":2}"#,
            "\n",
            r#"{"id":"a","encoding":"utf-8","op":"decode","input":"41c0"}"#,
            "\n",
            r#"{"id":"b","encoding":"corrected-utf8","op":"encode","codepoint":"U+0080"}"#,
            "\n",
            "not json\n",
            "\n",
            "[1,2]\n",
            r#"{"id":7,"encoding":"utf-8","op":"decode","input":"4"}"#,
            "\n",
            r#"{"id":"c","encoding":"utf-16","op":"decode","input":""}"#,
            "\n",
            r#"{"id":"d","encoding":"utf-8","op":"encode","codepoint":"41"}"#,
            "\n",
            r#"{"id":"e","encoding":"utf-8","op":"decode","input":"e282ac","chunks":["e2","82","ac"]}"#,
            "\n",
            r#"{"id":"f","encoding":"utf-8","op":"decode","input":"41","chunks":"41"}"#,
            "\n",
            r#"{"id":"g","op":"batch","requests":[{"id":"g1","encoding":"utf-8","op":"decode","input":"ff"},7,{"id":"g3","encoding":"corrected-utf8","op":"document","input":"41"}]}"#,
            "\n",
            r#"{"id":"h","op":"batch","requests":{}}"#,
            "\n",
            r#"{"id":"i","encoding":"utf-8","op":"decode","input":"41"}"#,
        );
        let answers = session(input.as_bytes(), 1 << 20);
        assert_eq!(answers.len(), 14, "{answers:?}");
        assert_eq!(answers[0]["protocol"], 2);
        assert_eq!(answers[0]["batch"], 8);
        assert!(answers[0]["supports"].as_array().unwrap().len() >= 7);
        assert_eq!(answers[1]["id"], "a");
        assert_eq!(answers[1]["result"], "invalid");
        assert_eq!(answers[1]["lossy"], json!(["U+0041", "U+FFFD"]));
        assert_eq!(answers[2]["error"], "c1-control");
        for (i, id) in [
            (3, Value::Null),
            (4, Value::Null),
            (5, Value::Null),
            (6, json!(7)),
        ] {
            assert_eq!(answers[i], json!({"id": id, "unsupported": true}), "{i}");
        }
        for (i, id) in [(7, "c"), (8, "d"), (10, "f"), (12, "h")] {
            assert_eq!(answers[i], json!({"id": id, "unsupported": true}), "{i}");
        }
        assert_eq!(answers[9]["output"], json!([{"codepoint": "U+20AC"}]));
        assert!(answers[9].get("lossy").is_none(), "a streaming answer");
        let batch = &answers[11];
        assert_eq!(batch["id"], "g");
        let responses = batch["responses"].as_array().unwrap();
        assert_eq!(responses.len(), 3);
        assert_eq!(responses[0]["valid"], false);
        assert_eq!(responses[1], json!({"id": null, "unsupported": true}));
        assert_eq!(responses[2]["findings"][0]["kind"], "missing-magic");
        // The last line has no newline: still answered.
        assert_eq!(answers[13]["valid"], true);
    }

    #[test]
    fn a_line_too_long_is_unsupported_and_the_next_one_answered() {
        let long = format!(
            r#"{{"id":"x","encoding":"utf-8","op":"decode","input":"{}"}}"#,
            "41".repeat(100)
        );
        let input = format!(
            "{long}\n{{\"id\":\"y\",\"encoding\":\"utf-8\",\"op\":\"decode\",\"input\":\"41\"}}\n"
        );
        let answers = session(input.as_bytes(), 64);
        assert_eq!(answers.len(), 2);
        assert_eq!(answers[0], json!({"id": null, "unsupported": true}));
        assert_eq!(answers[1]["valid"], true);
    }
}
