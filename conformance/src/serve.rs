//! `conformance serve`: the reference codec as a protocol-2 adapter on stdin and stdout
//! (`conformance/adapters/README.md`).
//!
//! It declares every encoding and operation the codec implements with every field
//! ([`Reference::declaration`]), streaming for decode and document, and batches; each
//! request is answered by the codec, written out as it produces it: the events (and
//! `lossy`, read from them), code points and findings of an answer go to stdout one by
//! one, never gathered first, so an answer costs no memory however long it is (a request
//! costs about 3 times its input: its line and its bytes). Its fields are those of the
//! built-in `reference` ([`reference::respond_to`]), which a test checks. It is the model adapter for an implementation in
//! Rust (a loop over lines, a declaration, one function from a request to a response)
//! and the compiled adapter of the throughput table.
//!
//! Robustness, as the protocol asks: every line gets exactly one answer line; a line that
//! is not JSON, not an object, or a request it cannot read (unknown encoding or op, bad
//! hex, a malformed code point, bad chunks) gets `{"id": …, "unsupported": true}` (the id
//! if it could be read, else null). What one request may cost is capped: a request
//! whose input (or chunks) is over `--max-input-bytes` gets `{"id": …, "unsupported":
//! true, "reason": "input over N bytes"}`, and a line longer than `--max-line-bytes` is
//! read no further than its end (kept no further than the cap) and answered the same way,
//! `"reason": "request line over N bytes"`, with its id when it has one. It ends when
//! stdin closes. Answers are buffered and flushed after each line.

use crate::protocol::answer::{object_members, walk_items};
use crate::protocol::hello as handshake;
use crate::reference::{self, Reference};
use crate::vectors::model::{from_hex, OutputEvent};
use corrected_utf8::{DocumentChecker, Encoding};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;

/// The default of `serve --max-input-bytes`: 1 MiB of input per request (an answer is at
/// most about 80 bytes per input byte, written as it is produced).
pub const DEFAULT_MAX_INPUT: usize = 1 << 20;

/// The default of `serve --max-line-bytes`: 64 MiB.
pub const DEFAULT_MAX_REQUEST_LINE: usize = 64 << 20;

/// What `conformance serve` answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The `"batch"` it declares: the most requests in one batch request (1 to 65536).
    pub batch: u32,
    /// The longest request line read, in bytes; a longer one is answered `unsupported`,
    /// with a reason.
    pub max_line_bytes: usize,
    /// The most input bytes one request may have (its `input`, or its chunks together);
    /// more is answered `unsupported`, with a reason.
    pub max_input_bytes: usize,
}

/// The default `serve --batch`.
pub const DEFAULT_BATCH: u32 = 4096;

/// The most `serve --max-input-bytes`: 256 MiB.
pub const MAX_INPUT_BYTES: usize = 256 << 20;

impl Default for Config {
    fn default() -> Config {
        Config {
            batch: DEFAULT_BATCH,
            max_line_bytes: DEFAULT_MAX_REQUEST_LINE,
            max_input_bytes: DEFAULT_MAX_INPUT,
        }
    }
}

/// What `conformance serve` does: answer stdin's lines on stdout until stdin closes.
pub fn serve(args: &Config) -> ExitCode {
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
pub fn serve_on(mut input: impl BufRead, mut output: impl Write, args: &Config) -> io::Result<()> {
    let hello = hello(args.batch);
    let mut line = Vec::new();
    loop {
        line.clear();
        // A long line's buffer is not kept for the short ones after it.
        if line.capacity() > 1 << 20 {
            line = Vec::new();
        }
        if crate::files::read_line_capped(
            &mut input,
            &mut line,
            args.max_line_bytes.saturating_add(1),
        )? == 0
        {
            return Ok(());
        }
        if line.last() != Some(&b'\n') && line.len() > args.max_line_bytes {
            // The rest of the line is read, never kept, for its id.
            let id = id_of_long_line(&line, &mut input)?;
            let reason = format!(
                "request line over {} bytes (--max-line-bytes)",
                args.max_line_bytes
            );
            write_unsupported(&mut output, id.as_deref().unwrap_or("null"), Some(&reason))?;
        } else {
            answer_line(&line, &hello, args, &mut output)?;
        }
        output.write_all(b"\n")?;
        output.flush()?;
    }
}

/// The rest of the line being read, up to and including its newline (which ends it), or
/// up to `limit` bytes in all once a limit is set (it then reads as if the line ended).
struct RestOfLine<'a, R> {
    input: &'a mut R,
    done: bool,
    /// Bytes handed on so far.
    read: Rc<Cell<usize>>,
    /// No byte past this many.
    limit: Rc<Cell<Option<usize>>>,
}

impl<R: BufRead> Read for RestOfLine<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = match self.limit.get() {
            Some(limit) => limit.saturating_sub(self.read.get()),
            None => usize::MAX,
        };
        if self.done || buf.is_empty() || left == 0 {
            return Ok(0);
        }
        let len = buf.len().min(left);
        let buf = &mut buf[..len];
        let available = self.input.fill_buf()?;
        if available.is_empty() {
            self.done = true;
            return Ok(0);
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let n = newline.unwrap_or(available.len()).min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        if newline == Some(n) {
            self.input.consume(n + 1);
            self.done = true;
        } else {
            self.input.consume(n);
        }
        self.read.set(self.read.get() + n);
        Ok(n)
    }
}

/// The id of a line too long to keep: `prefix` (what was read of it) and the rest of the
/// line, read as a JSON object up to its `id` member (the rest is skipped unread, never
/// kept), wherever it is in the line. The id's JSON text, or `None` when it has none
/// before the line ends, or when its text is longer than [`LONG_LINE_ID`] (a line over
/// the cap keeps no more than that of its id, and a cut id would be another id).
fn id_of_long_line(prefix: &[u8], input: &mut impl BufRead) -> io::Result<Option<String>> {
    let (read, limit) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(None)));
    let mut rest = RestOfLine {
        input,
        done: false,
        read: Rc::clone(&read),
        limit: Rc::clone(&limit),
    };
    let mut id = None;
    {
        let reader = io::BufReader::new(prefix.chain(&mut rest));
        let mut de = serde_json::Deserializer::from_reader(reader);
        // Once the `id` key is read, its value may take LONG_LINE_ID more bytes (and
        // what the reader buffered ahead): a longer one ends the read, and no id is kept.
        let on_id = || limit.set(Some(read.get() + LONG_LINE_ID + ID_READ_AHEAD));
        // Stops with an error once the id is found: only `id` matters.
        let _ = de.deserialize_map(IdFinder {
            id: &mut id,
            on_id: &on_id,
        });
    }
    if !rest.done {
        skip_line(rest.input)?;
    }
    Ok(id)
}

/// What the reader of a long line may have buffered past the `id` key when it is read.
const ID_READ_AHEAD: usize = 1 << 16;

/// The longest id echoed for a line over the cap: 64 KiB of JSON text. (The runner's ids
/// are `FILE#TCID`, tens of bytes; a line under the cap echoes its id whatever its length.)
pub const LONG_LINE_ID: usize = 1 << 16;

/// Finds the `id` member of an object read from a stream, skipping the others unread.
struct IdFinder<'a> {
    id: &'a mut Option<String>,
    /// Called when the `id` key is read, before its value.
    on_id: &'a dyn Fn(),
}

impl<'de> Visitor<'de> for IdFinder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(is_id) = map.next_key_seed(IsId)? {
            if is_id {
                (self.on_id)();
                *self.id = map.next_value_seed(IdText)?;
                return Err(de::Error::custom("found"));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// Whether a key is `id`.
struct IsId;

impl<'de> DeserializeSeed<'de> for IsId {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for IsId {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E>(self, key: &str) -> Result<bool, E> {
        Ok(key == "id")
    }
}

/// An id's JSON text: a string, number, boolean or null (`None` for a list or object).
struct IdText;

impl<'de> DeserializeSeed<'de> for IdText {
    type Value = Option<String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for IdText {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an id")
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Some(Value::from(s).to_string()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Some(n.to_string()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(Some(n.to_string()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<Self::Value, E> {
        Ok(Some(json!(n).to_string()))
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Some(b.to_string()))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
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

/// The members of a request (or a batch request) that serve reads: each value's JSON text.
#[derive(Default)]
struct Request<'t> {
    id: Option<&'t str>,
    op: Option<&'t str>,
    requests: Option<&'t str>,
    encoding: Option<&'t str>,
    input: Option<&'t str>,
    codepoint: Option<&'t str>,
    codepoints: Option<&'t str>,
    chunks: Option<&'t str>,
}

impl<'t> Request<'t> {
    /// The request in `text`, or `None` when it is not a JSON object.
    fn read(text: &'t str) -> Option<Request<'t>> {
        let mut r = Request::default();
        let keys = [
            "id",
            "op",
            "requests",
            "encoding",
            "input",
            "codepoint",
            "codepoints",
            "chunks",
        ];
        let is_object = object_members(text, &keys, |k, v| {
            let slot = match k {
                "id" => &mut r.id,
                "op" => &mut r.op,
                "requests" => &mut r.requests,
                "encoding" => &mut r.encoding,
                "input" => &mut r.input,
                "codepoint" => &mut r.codepoint,
                "codepoints" => &mut r.codepoints,
                _ => &mut r.chunks,
            };
            *slot = Some(v);
        })
        .ok()?;
        is_object.then_some(r)
    }

    /// Its id's JSON text (`null` without one).
    fn id(&self) -> &'t str {
        self.id.unwrap_or("null")
    }
}

/// A JSON string member's value, if it is a string.
fn string(raw: Option<&str>) -> Option<Cow<'_, str>> {
    let raw = raw?;
    match serde_json::from_str::<&str>(raw) {
        Ok(s) => Some(Cow::Borrowed(s)),
        Err(_) => serde_json::from_str::<String>(raw).ok().map(Cow::Owned),
    }
}

/// Writes the answer to one line (without its newline).
fn answer_line(
    line: &[u8],
    hello: &Map<String, Value>,
    args: &Config,
    out: &mut impl Write,
) -> io::Result<()> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let Some(request) = std::str::from_utf8(line).ok().and_then(Request::read) else {
        return write_unsupported(out, "null", None);
    };
    let id = request.id();
    match string(request.op).as_deref() {
        Some("hello") => {
            out.write_all(b"{\"id\":")?;
            out.write_all(id.as_bytes())?;
            let rest = Value::Object(hello.clone()).to_string();
            out.write_all(b",")?;
            out.write_all(&rest.as_bytes()[1..])
        }
        Some("batch") => match request.requests {
            Some(list) if list.starts_with('[') => {
                // `{"id": ID, "responses": [RESP, …]}`, each response written as it is
                // computed.
                out.write_all(b"{\"id\":")?;
                out.write_all(id.as_bytes())?;
                out.write_all(b",\"responses\":[")?;
                let mut failed = None;
                let _ = walk_items(list, |i, item| {
                    let written = (|| {
                        if i > 0 {
                            out.write_all(b",")?;
                        }
                        match Request::read(item) {
                            Some(r) => respond_to(&r, args, out),
                            None => write_unsupported(out, "null", None),
                        }
                    })();
                    written.map_err(|e| {
                        failed = Some(e);
                        String::new()
                    })
                });
                if let Some(e) = failed {
                    return Err(e);
                }
                out.write_all(b"]}")
            }
            _ => write_unsupported(out, id, None),
        },
        _ => respond_to(&request, args, out),
    }
}

/// `{"id": ID, "unsupported": true}`, with `"reason": REASON` when given.
fn write_unsupported(out: &mut impl Write, id: &str, reason: Option<&str>) -> io::Result<()> {
    out.write_all(b"{\"id\":")?;
    out.write_all(id.as_bytes())?;
    out.write_all(b",\"unsupported\":true")?;
    if let Some(reason) = reason {
        out.write_all(b",\"reason\":")?;
        write(out, &reason)?;
    }
    out.write_all(b"}")
}

/// What one request asks, read and checked before anything of its answer is written.
/// Chunks stay the JSON text of their list (checked whole, then decoded one at a time as
/// they are fed): a line of millions of empty chunks costs its own bytes, not a buffer per
/// chunk.
enum Job<'t> {
    Decode {
        encoding: Encoding,
        input: Vec<u8>,
        chunks: Option<&'t str>,
    },
    Document {
        input: Vec<u8>,
        chunks: Option<&'t str>,
    },
    /// The encoding (hex) or the failure's kind.
    Encode(Result<String, &'static str>),
    /// A list's encoding (hex), or the first failing code point's index and kind.
    EncodeString(reference::StringAnswer),
}

/// The job of a request, or why it is answered `unsupported` (`Err(Some(reason))` for a
/// request over the cap).
fn job<'t>(r: &Request<'t>, max_input: usize) -> Result<Job<'t>, Option<String>> {
    let name = string(r.encoding).ok_or(None)?;
    let encoding = Encoding::from_name(&name).ok_or(None)?;
    let codec = reference::codec(encoding).ok_or(None)?;
    let over = || Some(format!("input over {max_input} bytes"));
    let input = match string(r.input) {
        Some(hex) if hex.len() / 2 > max_input => return Err(over()),
        Some(hex) => Some(from_hex(&hex).map_err(|_| None)?),
        None => None,
    };
    let chunks = match r.chunks {
        None | Some("null") => None,
        Some(list) => {
            // Checked whole before anything is answered: every chunk hex, the total
            // within the cap. Nothing is kept.
            let mut total = 0usize;
            let walked = walk_items(list, |_, item| {
                let hex = string(Some(item)).ok_or_else(String::new)?;
                total = total.saturating_add(hex.len() / 2);
                if total > max_input {
                    return Err("over".into());
                }
                if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(String::new());
                }
                Ok(())
            });
            match walked {
                Ok(_) => Some(list),
                Err(Some(m)) if m == "over" => return Err(over()),
                Err(_) => return Err(None),
            }
        }
    };
    match string(r.op).as_deref() {
        Some("decode") => Ok(Job::Decode {
            encoding,
            input: input.ok_or(None)?,
            chunks,
        }),
        Some("document") => {
            codec.document.ok_or(None)?;
            Ok(Job::Document {
                input: input.ok_or(None)?,
                chunks,
            })
        }
        Some("encode") if r.codepoints.is_some() => {
            // A list of `U+…` strings (the line cap bounds it); a code point the encoder
            // does not take is `unsupported`.
            let list: Vec<String> =
                serde_json::from_str(r.codepoints.unwrap_or_default()).map_err(|_| None)?;
            Ok(Job::EncodeString((codec.encode_string)(&list).ok_or(None)?))
        }
        Some("encode") => {
            let codepoint = string(r.codepoint).ok_or(None)?;
            // A code point the encoder does not take is `unsupported`.
            Ok(Job::Encode((codec.encode)(&codepoint).ok_or(None)?))
        }
        _ => Err(None),
    }
}

/// Writes the response to one request: `{"id": …, FIELDS}`, each list written item by
/// item as the codec produces it, or `unsupported`.
fn respond_to(r: &Request<'_>, args: &Config, out: &mut impl Write) -> io::Result<()> {
    let id = r.id();
    let job = match job(r, args.max_input_bytes) {
        Ok(job) => job,
        Err(reason) => return write_unsupported(out, id, reason.as_deref()),
    };
    out.write_all(b"{\"id\":")?;
    out.write_all(id.as_bytes())?;
    match job {
        Job::Decode {
            encoding,
            input,
            chunks,
        } => {
            let codec = reference::codec(encoding).expect("checked by job()");
            let mut list = List::new(out, "output")?;
            let (mut error, mut reserved) = (false, false);
            let mut event = |e: OutputEvent| {
                error |= matches!(e, OutputEvent::Error { .. });
                reserved |= matches!(e, OutputEvent::Reserved { .. });
                list.item(&e);
            };
            match &chunks {
                // Fed to the streaming decoder chunk by chunk: `output` and `result`.
                Some(chunks) => {
                    let mut decoder = encoding.new_decoder();
                    let mut sink = |l: corrected_utf8::Located<corrected_utf8::BigCodePoint>| {
                        event(reference::event_json(&l.event, ToString::to_string))
                    };
                    each_chunk(chunks, |chunk| decoder.push(chunk, &mut sink));
                    decoder.finish(&mut sink);
                }
                None => (codec.output)(&input, &mut event),
            }
            list.end()?;
            let result = if error {
                "invalid"
            } else if reserved {
                "reserved"
            } else {
                "valid"
            };
            write!(out, ",\"result\":\"{result}\"")?;
            if chunks.is_none() {
                let mut list = List::new(out, "lossy")?;
                (codec.lossy_streamed)(&input, &mut |cp| list.item(&cp));
                list.end()?;
                write!(out, ",\"valid\":{}", (codec.valid)(&input))?;
                out.write_all(b",\"strict\":")?;
                write(out, &(codec.strict_validated)(&input))?;
            }
        }
        Job::Document { input, chunks } => {
            let mut list = List::new(out, "findings")?;
            let mut checker = DocumentChecker::new();
            match chunks {
                Some(chunks) => each_chunk(chunks, |chunk| {
                    checker.push(chunk, |f| list.item(&reference::finding(&f)))
                }),
                None => checker.push(&input, |f| list.item(&reference::finding(&f))),
            }
            checker.finish(|f| list.item(&reference::finding(&f)));
            list.end()?;
        }
        Job::Encode(Ok(hex)) => {
            out.write_all(b",\"bytes\":")?;
            write(out, &hex)?;
        }
        Job::Encode(Err(kind)) => {
            out.write_all(b",\"error\":")?;
            write(out, &kind)?;
        }
        Job::EncodeString(Ok(hex)) => {
            out.write_all(b",\"bytes\":")?;
            write(out, &hex)?;
        }
        Job::EncodeString(Err((index, kind))) => {
            out.write_all(b",\"error\":")?;
            write(out, &kind)?;
            write!(out, ",\"index\":{index}")?;
        }
    }
    out.write_all(b"}")
}

/// Calls `feed` with each chunk of a `chunks` list already checked by [`job`], decoded
/// into one buffer used again for every chunk.
fn each_chunk(list: &str, mut feed: impl FnMut(&[u8])) {
    let mut buf = Vec::new();
    let _ = walk_items(list, |_, item| {
        buf.clear();
        if let Some(hex) = string(Some(item)) {
            for pair in hex.as_bytes().chunks_exact(2) {
                let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                buf.push(digit(pair[0]) << 4 | digit(pair[1]));
            }
        }
        feed(&buf);
        Ok(())
    });
}

/// A list member being written, `,"KEY":[ITEM,…]`, one item at a time (the first write
/// error is kept and returned by [`List::end`]).
struct List<'w, W: Write> {
    out: &'w mut W,
    first: bool,
    failed: Option<io::Error>,
}

impl<'w, W: Write> List<'w, W> {
    fn new(out: &'w mut W, key: &str) -> io::Result<List<'w, W>> {
        write!(out, ",\"{key}\":[")?;
        Ok(List {
            out,
            first: true,
            failed: None,
        })
    }

    fn item(&mut self, item: &impl serde::Serialize) {
        if self.failed.is_some() {
            return;
        }
        let written = if self.first {
            Ok(())
        } else {
            self.out.write_all(b",")
        }
        .and_then(|()| write(self.out, item));
        self.first = false;
        if let Err(e) = written {
            self.failed = Some(e);
        }
    }

    fn end(self) -> io::Result<()> {
        match self.failed {
            Some(e) => Err(e),
            None => self.out.write_all(b"]"),
        }
    }
}

fn write(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &[u8], max_line_bytes: usize) -> Vec<Value> {
        session_capped(input, max_line_bytes, DEFAULT_MAX_INPUT)
    }

    fn session_capped(input: &[u8], max_line_bytes: usize, max_input_bytes: usize) -> Vec<Value> {
        let mut out = Vec::new();
        let args = Config {
            batch: 8,
            max_line_bytes,
            max_input_bytes,
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
        let reason = "request line over 64 bytes (--max-line-bytes)";
        assert_eq!(
            answers[0],
            json!({"id": "x", "unsupported": true, "reason": reason})
        );
        assert_eq!(answers[1]["valid"], true);
        // The id after the long input is found too, reading the rest of the line without
        // keeping it; a line without one gets null.
        let late = format!(
            "{{\"encoding\":\"utf-8\",\"op\":\"decode\",\"input\":\"{}\",\"id\":7}}\n\
             {{\"input\":\"{}\"}}\n{{\"id\":\"y\",\"encoding\":\"utf-8\",\"op\":\"decode\",\"input\":\"41\"}}",
            "41".repeat(5000),
            "41".repeat(5000)
        );
        let answers = session(late.as_bytes(), 64);
        assert_eq!(answers.len(), 3);
        assert_eq!(answers[0]["id"], 7);
        assert_eq!(answers[0]["reason"], reason);
        assert_eq!(answers[1]["id"], Value::Null);
        assert_eq!(answers[2]["id"], "y");
    }

    #[test]
    fn a_request_over_the_input_cap_is_unsupported_with_its_id() {
        let input = concat!(
            r#"{"id":"a","encoding":"utf-8","op":"decode","input":"4142434445"}"#,
            "\n",
            r#"{"id":"b","encoding":"utf-8","op":"decode","input":"41","chunks":["41","42","43","44","45"]}"#,
            "\n",
            r#"{"id":"c","encoding":"utf-8","op":"decode","input":"41424344"}"#,
            "\n",
            r#"{"id":"d","op":"batch","requests":[{"id":"d1","encoding":"corrected-utf8","op":"document","input":"4142434445"}]}"#,
        );
        let answers = session_capped(input.as_bytes(), 1 << 20, 4);
        let over = json!({"unsupported": true, "reason": "input over 4 bytes"});
        for (i, id) in [(0, "a"), (1, "b")] {
            assert_eq!(answers[i]["id"], id);
            assert_eq!(answers[i]["reason"], over["reason"], "{i}");
        }
        assert_eq!(answers[2]["valid"], true);
        assert_eq!(answers[3]["responses"][0]["id"], "d1");
        assert_eq!(answers[3]["responses"][0]["reason"], over["reason"]);
    }

    #[test]
    fn answers_are_what_the_reference_answers() {
        // Written item by item, the answer is the reference's, field for field.
        let suite = crate::run::suite::load_embedded(&[]).unwrap();
        let mut input = String::new();
        for case in suite.cases.iter().step_by(3) {
            input.push_str(&String::from_utf8(crate::protocol::request::line(case)).unwrap());
            input.push('\n');
        }
        let answers = session(input.as_bytes(), 1 << 20);
        for (case, answer) in suite.cases.iter().step_by(3).zip(&answers) {
            let expected = Value::Object(Reference::respond(case));
            assert_eq!(answer, &expected, "{}", case.id);
        }
    }
}
