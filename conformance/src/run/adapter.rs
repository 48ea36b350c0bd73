//! External implementations over the line protocol (`conformance/adapters/README.md`).
//!
//! The adapter runs as `sh -c COMMAND` in a process group of its own. One thread writes
//! requests to its stdin, one reads its stdout line by line, one keeps the tail of its
//! stderr; the runner waits for each answer on a channel with the per-case timeout. A
//! process that exits, hangs, prints something that is not a JSON object or answers with
//! the wrong id is killed, with everything it started, and reaped, and started again for
//! the next case. Dropping an [`Adapter`] closes its stdin, waits a little, then kills
//! what is left.
//!
//! What it started is found three ways (the `group` module): its process group; its
//! process tree, taken while it runs; and, on Linux, every process below the runner (a
//! child subreaper, so orphans stay below it) whose environment carries this start's
//! token, `CONFORMANCE_ADAPTER=…` (so a grandchild that called `setsid`, or whose parent
//! ended, is found too). The adapter's `sh` dies with the runner (`PR_SET_PDEATHSIG`),
//! and SIGINT, SIGTERM and SIGHUP end every adapter before the runner ends.
//!
//! A crash is the adapter's own exit: while it waits for an answer, the runner watches
//! the process it started, so an adapter that dies while a child of it still holds its
//! stdout open is a CRASH at once (with its exit status), not a TIMEOUT.
//!
//! Each start begins with the handshake ([`super::handshake`]): the hello gets the
//! start-up allowance (`--startup-timeout`), and only then do cases get `--timeout`. An
//! adapter that is alive and has written nothing for [`FLUSH_HINT_AFTER`] during the
//! hello gets the flush hint on stderr at once (the allowance still decides). An answer
//! line longer than `--max-line-bytes` is a PROTOCOL error, read no further; a line is
//! kept as its text ([`RawResponse`]), never as a tree of JSON values.
//!
//! An adapter whose hello declares `"batch": N` gets its cases in batch requests (at most
//! N and [`Adapter::with_batch_size`] cases, input capped so that the answer fits
//! `--max-line-bytes`), four batches in flight so that the adapter computes, the reader
//! thread parses and the runner judges at the same time. A batch gets `--timeout` plus [`BATCH_CASE_ALLOWANCE`]
//! per case. A batch that fails as a whole (crash, timeout, not JSON, the wrong batch id,
//! the wrong number of responses, a response with the wrong id, a line too long) is
//! replayed one case per line after a restart, so that every case gets its own verdict
//! and a crash or hang is pinned to its case.
//!
//! With [`Adapter::with_deadline`] (`--deadline`), no wait goes past the deadline, and no
//! request is sent after it.

use super::handshake::{self, Declared};
use super::outcome::{Answer, Batches, Implementation};
use super::raw::{self, RawResponse};
use super::suite::{Case, Test};
use crate::vectors::model::to_hex;
use crate::vectors::{Encoding, Op};
use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::ops::ControlFlow;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long a closing adapter gets to exit after its stdin closes, before it is killed.
const GRACE: Duration = Duration::from_secs(2);
/// Lines of stderr kept for crash messages.
const STDERR_LINES: usize = 8;
/// Handshakes that time out in a row before the adapter is no longer started (each costs
/// a whole `--startup-timeout`).
const HELLO_TIMEOUTS: usize = 2;
/// How much of an offending stdout line a PROTOCOL message quotes.
const QUOTE: usize = 200;
/// The most cases in one batch request unless [`Adapter::with_batch_size`] says
/// otherwise (and the adapter's own `"batch"` is the ceiling): large enough that the
/// per-line costs vanish, small enough that a failed batch's replay stays short.
pub const DEFAULT_BATCH_SIZE: usize = 512;
/// What a batch gets on top of `--timeout`, per case in it.
pub const BATCH_CASE_ALLOWANCE: Duration = Duration::from_millis(10);
/// Batches in flight: three stages (the adapter answering, the reader thread parsing, the
/// runner judging) each need one to work on; with two, they took turns.
const PIPELINE: usize = 4;
/// A batch's answer may hold this many bytes per byte of input (an error event of 60
/// bytes and its `U+FFFD` for every input byte, and the other fields), and
/// [`ANSWER_PER_CASE`] per case: batches are cut so that this estimate stays within
/// `--max-line-bytes`.
const ANSWER_PER_INPUT_BYTE: usize = 128;
/// See [`ANSWER_PER_INPUT_BYTE`].
const ANSWER_PER_CASE: usize = 512;
/// An adapter alive and silent this long during the hello gets the flush hint at once.
pub const FLUSH_HINT_AFTER: Duration = Duration::from_secs(5);
/// How often a wait for an answer looks whether the adapter's process has ended.
const POLL: Duration = Duration::from_millis(50);
/// After the adapter's process ended, how long what it wrote before may take to be read.
const DRAIN: Duration = Duration::from_millis(200);
/// The hint for an adapter that never wrote a byte.
const FLUSH_HINT: &str =
    "nothing at all came on its stdout since it started: did it flush stdout after each line?";

/// What the threads around one adapter process report.
enum Msg {
    /// One line of stdout that is a JSON object, read by the reader thread (so that the
    /// runner's thread only judges).
    Object(RawResponse),
    /// One line of stdout that is not a JSON object, without its line ending.
    Other(Vec<u8>),
    /// A line longer than the cap (nothing more is read).
    TooLong(usize),
    /// Stdout closed (or failed to read).
    Eof,
    /// Writing a request to stdin failed (a broken pipe: the process is gone).
    WriteFailed(std::io::Error),
    /// The adapter's process ended (seen by the runner's wait, whoever still holds its
    /// stdout).
    Exited,
}

/// One running adapter process.
struct Running {
    child: Child,
    /// Its process group, tree and token: what it started.
    family: group::Family,
    requests: Option<Sender<Vec<u8>>>,
    msgs: Receiver<Msg>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Whether any byte came on stdout since the start (a silent adapter's hint).
    spoke: Arc<AtomicBool>,
}

/// The limits an adapter runs under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Per case.
    pub timeout: Duration,
    /// For the handshake after each start.
    pub startup_timeout: Duration,
    /// The longest answer line, in bytes.
    pub max_line: usize,
}

/// An external implementation: a command speaking the line protocol.
pub struct Adapter {
    name: String,
    command: String,
    limits: Limits,
    running: Option<Running>,
    starts: usize,
    declared: Declared,
    /// Handshakes timed out in a row.
    hello_timeouts: usize,
    /// The most cases in one batch (1: never batch).
    batch_size: usize,
    /// The batches sent.
    batches: Batches,
    /// No wait past it, no request after it.
    deadline: Option<Instant>,
}

/// An answer line: a JSON object, or (`Err`) a line that is not one.
type Line = Result<RawResponse, Vec<u8>>;

/// A batch request sent and not yet answered.
struct InFlight {
    /// Its `id`: `batch-N`.
    id: String,
    /// Its cases: `cases[start..start + len]` of [`Adapter::answer_each`].
    start: usize,
    len: usize,
    /// Why it failed before its answer could come (its request could not be sent).
    failed: Option<String>,
}

impl Adapter {
    /// An adapter named `name` that runs `command` through `sh -c` when first needed.
    pub fn new(name: &str, command: &str, limits: Limits) -> Adapter {
        Adapter {
            name: name.to_string(),
            command: command.to_string(),
            limits,
            running: None,
            starts: 0,
            declared: Declared::Unknown,
            hello_timeouts: 0,
            batch_size: DEFAULT_BATCH_SIZE,
            batches: Batches::default(),
            deadline: None,
        }
    }

    /// At most `n` cases per batch request (default [`DEFAULT_BATCH_SIZE`]; the adapter's
    /// declared `"batch"` is the ceiling); 1 or 0: one case per line, batches or not.
    pub fn with_batch_size(mut self, n: usize) -> Adapter {
        self.batch_size = n.max(1);
        self
    }

    /// No wait goes past `deadline`, and no request is sent after it (`--deadline`): a
    /// wait it cuts short is a timeout saying so.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Adapter {
        self.deadline = deadline;
        self
    }

    /// How many times the process was started (1 when it never had to be restarted).
    pub fn starts(&self) -> usize {
        self.starts
    }

    /// Starts the process if it is not running and shakes hands with it, sending no case:
    /// the liveness probe of `exhaustive --adapter` and `fuzz` (only what the hello
    /// declares is sent after it).
    pub fn hello(&mut self) -> Result<(), Answer> {
        self.start()
    }

    /// The per-case `--timeout` from now on (`fuzz` shortens it as its deadline nears).
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.limits.timeout = timeout;
    }

    /// [`Adapter::with_deadline`] on an adapter already made (`fuzz --seconds`): no wait,
    /// not even a restart's hello, goes past it.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Starts the process if it is not running, and shakes hands with it.
    fn start(&mut self) -> Result<(), Answer> {
        if self.running.is_some() {
            return Ok(());
        }
        if self.hello_timeouts >= HELLO_TIMEOUTS {
            return Err(Answer::Crash(format!(
                "not started again: its last {HELLO_TIMEOUTS} starts never answered the hello \
                 within --startup-timeout ({} s)",
                self.limits.startup_timeout.as_secs_f64()
            )));
        }
        self.before_deadline()?;
        self.spawn()
            .map_err(|e| Answer::Crash(format!("cannot start `sh -c {}`: {e}", self.command)))?;
        let limit = self.limits.startup_timeout;
        let hello = handshake::hello_request();
        let response = match self.exchange(&hello, handshake::HELLO_ID, limit) {
            Ok(response) => response,
            Err(Answer::Timeout(m)) => {
                self.hello_timeouts += 1;
                return Err(Answer::Timeout(format!(
                    "no answer to the hello (the first line, the handshake) within \
                     --startup-timeout; {m}"
                )));
            }
            Err(Answer::Crash(m)) => {
                return Err(Answer::Crash(format!("at start-up (the hello): {m}")))
            }
            Err(Answer::Protocol(m)) => {
                return Err(Answer::Protocol(format!("answer to the hello: {m}")))
            }
            Err(other) => return Err(other),
        };
        self.hello_timeouts = 0;
        let parsed = match response.to_map(handshake::MAX_HELLO) {
            Some(obj) => handshake::parse_hello(&obj),
            None => Err(format!(
                "{} bytes, more than the {} a hello's answer may have",
                response.text().len(),
                handshake::MAX_HELLO
            )),
        };
        match parsed {
            Ok(declared) => {
                // The first start's declaration holds for the whole run.
                if self.declared == Declared::Unknown {
                    self.declared = declared;
                }
                Ok(())
            }
            Err(m) => {
                self.stop(true);
                Err(Answer::Protocol(format!("answer to the hello: {m}")))
            }
        }
    }

    /// `Err` (a timeout that says so) once the deadline has passed.
    fn before_deadline(&self) -> Result<(), Answer> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Answer::Timeout(
                "not sent: the --deadline passed".to_string(),
            )),
            _ => Ok(()),
        }
    }

    fn spawn(&mut self) -> std::io::Result<()> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let token = group::prepare(&mut command);
        let mut child = command.spawn()?;
        self.starts += 1;
        let family = group::Family::new(child.id() as i32, token);
        let (msg_tx, msgs) = mpsc::channel();
        let (requests, req_rx) = mpsc::channel::<Vec<u8>>();

        let mut stdin = child.stdin.take().expect("piped stdin");
        let tx = msg_tx.clone();
        spawn(&self.name, "stdin", move || {
            for line in req_rx {
                if let Err(e) = stdin.write_all(&line).and_then(|()| stdin.flush()) {
                    let _ = tx.send(Msg::WriteFailed(e));
                    return;
                }
            }
            // The runner is done: dropping stdin closes it, and the adapter ends.
        });

        let stdout = child.stdout.take().expect("piped stdout");
        let spoke = Arc::new(AtomicBool::new(false));
        let spoke_w = Arc::clone(&spoke);
        let max_line = self.limits.max_line;
        spawn(&self.name, "stdout", move || {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            // At most the cap and a newline: an endless line costs no more.
            let cap = (max_line as u64).saturating_add(1);
            loop {
                // A line of its own for each answer: it moves to the runner as the
                // answer's text, never copied.
                let mut line = Vec::new();
                match reader.by_ref().take(cap).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = msg_tx.send(Msg::Eof);
                        return;
                    }
                    Ok(_) => {
                        spoke_w.store(true, Ordering::SeqCst);
                        let ended = line.last() == Some(&b'\n');
                        if !ended && line.len() > max_line {
                            let _ = msg_tx.send(Msg::TooLong(max_line));
                            return;
                        }
                        while line.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                            line.pop();
                        }
                        let msg = match String::from_utf8(line) {
                            Ok(text) => match RawResponse::parse(text) {
                                Ok(response) => Msg::Object(response),
                                Err(text) => Msg::Other(text.into_bytes()),
                            },
                            Err(e) => Msg::Other(e.into_bytes()),
                        };
                        if msg_tx.send(msg).is_err() {
                            return;
                        }
                    }
                }
            }
        });

        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        spawn(&self.name, "stderr", move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut line = Vec::new();
            loop {
                line.clear();
                // Lines of any length, kept short.
                match reader.by_ref().take(64 * 1024).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                        if tail.len() == STDERR_LINES {
                            tail.pop_front();
                        }
                        tail.push_back(truncate(&text, QUOTE));
                    }
                }
            }
        });

        self.running = Some(Running {
            child,
            family,
            requests: Some(requests),
            msgs,
            stderr,
            spoke,
        });
        Ok(())
    }

    /// Ends the process and everything it started, and reaps them; returns how the
    /// process ended and its last stderr lines. `kill`: at once; else it gets [`GRACE`]
    /// to exit after its stdin closes.
    fn stop(&mut self, kill: bool) -> Option<(ExitStatus, String)> {
        let mut running = self.running.take()?;
        running.requests = None; // closes stdin once the writer thread sees it
        let exited = if kill {
            None
        } else {
            wait_for(&mut running.child, GRACE)
        };
        // Its process group, its tree (while it is alive to be walked) and every process
        // carrying its token: killed, then reaped once the adapter itself is.
        let left = running.family.kill();
        let status = exited.or_else(|| {
            let _ = running.child.kill();
            running.child.wait().ok()
        });
        running.family.reap(&left);
        // Let the stderr thread catch the last lines of a process that just died.
        thread::sleep(Duration::from_millis(20));
        let stderr = running
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default();
        status.map(|s| (s, stderr))
    }

    fn crash(&mut self, what: &str) -> Answer {
        let detail = match self.stop(false) {
            Some((status, stderr)) => {
                let how = describe_status(status);
                if stderr.is_empty() {
                    format!("{what}; the adapter {how}")
                } else {
                    format!("{what}; the adapter {how}; stderr: {stderr}")
                }
            }
            None => what.to_string(),
        };
        Answer::Crash(detail)
    }
}

fn spawn(name: &str, what: &str, f: impl FnOnce() + Send + 'static) {
    // A thread that cannot be started leaves its channel closed, which reads as a crash.
    let _ = thread::Builder::new()
        .name(format!("{name}-{what}"))
        .spawn(f);
}

fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if start.elapsed() < limit => thread::sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

fn describe_status(status: ExitStatus) -> String {
    match (status.code(), group::signal(status)) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("was killed by signal {sig}"),
        _ => "ended".to_string(),
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}… ({} chars)", s.chars().count())
    }
}

impl Implementation for Adapter {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        self.command.clone()
    }

    fn answer(&mut self, case: &Case) -> Answer {
        if let Err(answer) = self.start() {
            return answer;
        }
        if let Err(answer) = self.before_deadline() {
            return answer;
        }
        let timeout = self.limits.timeout;
        match self.exchange(&case.request(), &case.id, timeout) {
            Ok(response) => Answer::Response(response),
            Err(answer) => answer,
        }
    }

    fn answer_each(
        &mut self,
        cases: &[&Case],
        on_answer: &mut dyn FnMut(Answer) -> ControlFlow<()>,
    ) {
        // `cases[next..]` are not sent yet; `in_flight` are sent, oldest first.
        let mut next = 0;
        let mut in_flight: VecDeque<InFlight> = VecDeque::new();
        loop {
            if in_flight.is_empty() {
                let Some(&case) = cases.get(next) else {
                    return;
                };
                // Started (the declaration known) and more than one case to batch: fill
                // the pipeline below; else this case goes alone, on a line of its own.
                if let Err(answer) = self.start() {
                    next += 1;
                    if on_answer(answer).is_break() {
                        return;
                    }
                    continue;
                }
                if self.batch_len(&cases[next..]) <= 1 || self.before_deadline().is_err() {
                    next += 1;
                    if on_answer(self.answer(case)).is_break() {
                        return;
                    }
                    continue;
                }
            }
            while in_flight.len() < PIPELINE && self.running.is_some() {
                let len = self.batch_len(&cases[next..]);
                if len <= 1 || self.before_deadline().is_err() {
                    break;
                }
                let batch = &cases[next..next + len];
                self.batches.sent += 1;
                self.batches.cases += len;
                let id = format!("batch-{}", self.batches.sent);
                let failed = self.send(batch_line(&id, batch)).err().map(|a| reason(&a));
                let stop = failed.is_some();
                in_flight.push_back(InFlight {
                    id,
                    start: next,
                    len,
                    failed,
                });
                next += len;
                if stop {
                    break;
                }
            }
            let Some(oldest) = in_flight.pop_front() else {
                continue;
            };
            let batch = &cases[oldest.start..oldest.start + oldest.len];
            let answers = match oldest.failed {
                Some(why) => Err(why),
                None => self.batch_answers(&oldest.id, batch),
            };
            match answers {
                Ok(answers) => {
                    for answer in answers {
                        if on_answer(answer).is_break() {
                            if !in_flight.is_empty() {
                                // Their answers are not wanted: no stale line may be read
                                // as the answer to a later request.
                                self.stop(true);
                            }
                            return;
                        }
                    }
                }
                Err(why) => {
                    self.batches.fell_back += 1;
                    if self.batches.first_failure.is_none() {
                        self.batches.first_failure = Some(format!("{}: {why}", oldest.id));
                    }
                    // A fresh process for the replay; the batches after this one are
                    // sent again after it.
                    self.stop(true);
                    in_flight.clear();
                    next = oldest.start + oldest.len;
                    for &case in batch {
                        if on_answer(self.answer(case)).is_break() {
                            return;
                        }
                    }
                }
            }
        }
    }

    fn declared(&self) -> Declared {
        self.declared.clone()
    }

    fn batches(&self) -> Batches {
        self.batches.clone()
    }
}

/// A batch request line: `{"id": ID, "op": "batch", "requests": [REQ, …]}`.
fn batch_line(id: &str, cases: &[&Case]) -> Vec<u8> {
    let mut line = Vec::with_capacity(128 * cases.len());
    line.extend_from_slice(br#"{"id":""#);
    line.extend_from_slice(id.as_bytes());
    line.extend_from_slice(br#"","op":"batch","requests":["#);
    for (i, case) in cases.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        // Writing to a Vec cannot fail, and these fields are strings.
        let _ = serde_json::to_writer(&mut line, &Request::of(case));
    }
    line.extend_from_slice(b"]}");
    line
}

/// A case's request, borrowed: what [`Case::request`] builds, written without building a
/// JSON value first (a batch holds hundreds).
#[derive(serde::Serialize)]
struct Request<'a> {
    id: &'a str,
    encoding: Encoding,
    op: Op,
    #[serde(skip_serializing_if = "Option::is_none")]
    input: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    codepoint: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    codepoints: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chunks: Option<Vec<String>>,
}

impl<'a> Request<'a> {
    fn of(case: &'a Case) -> Request<'a> {
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

/// What is wrong with a line that is not a JSON object (read without keeping any of it).
fn not_an_object(bytes: &[u8]) -> String {
    let text = truncate(
        &String::from_utf8_lossy(&bytes[..bytes.len().min(4 * QUOTE)]),
        QUOTE,
    );
    match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
        Ok(_) => format!("not a JSON object: {text}"),
        Err(e) => format!("not JSON ({e}): {text:?}"),
    }
}

/// The message of a failed answer, as a batch's failure reason.
fn reason(answer: &Answer) -> String {
    match answer {
        Answer::Crash(m) | Answer::Timeout(m) | Answer::Protocol(m) => m.clone(),
        Answer::Response(_) => "answered".into(),
    }
}

impl Adapter {
    /// How many of `cases` (from the first) go in the next batch: at most the declared
    /// `batch` and [`Self::with_batch_size`], and no more input than an answer within
    /// `--max-line-bytes` can cover; 1 (a line of its own) when no batch was declared.
    fn batch_len(&self, cases: &[&Case]) -> usize {
        let Some(declared) = self.declared.declaration().and_then(|d| d.batch) else {
            return cases.len().min(1);
        };
        let budget = self.limits.max_line;
        let mut size = 0usize;
        let mut len = 0;
        for case in cases.iter().take(declared.min(self.batch_size)) {
            let input = case.input_hex().map_or(0, |h| h.len() / 2);
            size = size.saturating_add(
                input
                    .saturating_mul(ANSWER_PER_INPUT_BYTE)
                    .saturating_add(ANSWER_PER_CASE),
            );
            if len > 0 && size > budget {
                break;
            }
            len += 1;
        }
        len
    }

    /// Waits for a batch's answer and checks it as a whole: the batch's id, one response
    /// per request, each with its request's id. `Err` says why it failed (the process
    /// is then stopped).
    fn batch_answers(&mut self, id: &str, cases: &[&Case]) -> Result<Vec<Answer>, String> {
        let allowance =
            BATCH_CASE_ALLOWANCE.saturating_mul(u32::try_from(cases.len()).unwrap_or(u32::MAX));
        let timeout = self.limits.timeout.saturating_add(allowance);
        let answer = self.receive(timeout, false).map_err(|a| reason(&a))?;
        answer
            .map_err(|bytes| not_an_object(&bytes))
            .and_then(|response| check_batch(&response, id, cases))
            .inspect_err(|_| {
                self.stop(true);
            })
    }

    /// Sends one line (the newline is added).
    fn send(&mut self, mut line: Vec<u8>) -> Result<(), Answer> {
        line.push(b'\n');
        let Some(running) = self.running.as_mut() else {
            return Err(Answer::Crash("the adapter is not running".into()));
        };
        if running
            .requests
            .as_ref()
            .is_some_and(|r| r.send(line).is_err())
        {
            return Err(self.crash("the request could not be sent"));
        }
        Ok(())
    }

    /// Sends one request line and reads its answer: a JSON object with the id `id` (the
    /// hello's answer may also have a null id, as protocol 1's robustness rule gives).
    fn exchange(
        &mut self,
        request: &Value,
        id: &str,
        timeout: Duration,
    ) -> Result<RawResponse, Answer> {
        self.send(request.to_string().into_bytes())?;
        let hello = id == handshake::HELLO_ID;
        let response = match self.receive(timeout, hello)? {
            Ok(response) => response,
            Err(bytes) => {
                self.stop(true);
                return Err(Answer::Protocol(not_an_object(&bytes)));
            }
        };
        match response.get("id") {
            Some(got) if response.id_str().as_deref() == Some(id) || hello && got == "null" => {
                Ok(response)
            }
            Some(other) => {
                let other = raw::cut(other, QUOTE);
                self.stop(true);
                Err(Answer::Protocol(format!(
                    "answered id {other} to request {id:?} (answers must come in order, \
                     one line per request)",
                )))
            }
            None => {
                self.stop(true);
                Err(Answer::Protocol(format!(
                    "no `id` in {}",
                    raw::cut(response.text(), QUOTE)
                )))
            }
        }
    }

    /// Waits for the next answer line: a JSON object, or `Err` with a line that is not
    /// one; or the crash, timeout or protocol error (a line too long) that stopped the
    /// process. The adapter's own exit is a crash at once, whoever still holds its stdout;
    /// `hello`: the wait for the hello's answer, which prints the flush hint after
    /// [`FLUSH_HINT_AFTER`] of silence.
    fn receive(&mut self, timeout: Duration, hello: bool) -> Result<Line, Answer> {
        let start = Instant::now();
        let end = match self.deadline {
            Some(d) => (start + timeout).min(d),
            None => start + timeout,
        };
        let mut hinted = false;
        let msg = loop {
            let Some(running) = self.running.as_mut() else {
                return Err(Answer::Crash("the adapter is not running".into()));
            };
            let now = Instant::now();
            if now >= end {
                break Err(RecvTimeoutError::Timeout);
            }
            match running.msgs.recv_timeout((end - now).min(POLL)) {
                Err(RecvTimeoutError::Timeout) => {}
                other => break other,
            }
            if let Ok(Some(_)) = running.child.try_wait() {
                // It ended: what it wrote before is still read, then it is a crash.
                break Ok(running.msgs.recv_timeout(DRAIN).unwrap_or(Msg::Exited));
            }
            let spoke = running.spoke.load(Ordering::SeqCst);
            if hello && !hinted && !spoke && start.elapsed() >= FLUSH_HINT_AFTER {
                hinted = true;
                crate::errln!(
                    "conformance run: [{}] has run {} s and {FLUSH_HINT} (still waiting for \
                     its hello, up to --startup-timeout, {} s)",
                    self.name,
                    FLUSH_HINT_AFTER.as_secs(),
                    timeout.as_secs_f64()
                );
            }
        };
        let spoke = self
            .running
            .as_ref()
            .is_some_and(|r| r.spoke.load(Ordering::SeqCst));
        match msg {
            Ok(Msg::Object(response)) => Ok(Ok(response)),
            Ok(Msg::Other(bytes)) => Ok(Err(bytes)),
            Ok(Msg::TooLong(max)) => {
                self.stop(true);
                Err(Answer::Protocol(format!(
                    "an answer line longer than {max} bytes (--max-line-bytes): is every \
                     answer one line ending in a newline?"
                )))
            }
            Ok(Msg::Eof) => Err(self.crash("stdout closed")),
            Ok(Msg::Exited) => Err(self.crash("it ended without answering")),
            Ok(Msg::WriteFailed(e)) => {
                Err(self.crash(&format!("writing the request failed ({e})")))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.crash("the adapter's pipes closed")),
            Err(RecvTimeoutError::Timeout) => {
                self.stop(true);
                let mut m = if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    format!(
                        "no answer before the --deadline ({} s into this wait); killed",
                        start.elapsed().as_secs_f64().round()
                    )
                } else {
                    format!("no answer within {} s; killed", timeout.as_secs_f64())
                };
                if !spoke {
                    m.push_str(&format!(" ({FLUSH_HINT})"));
                }
                Err(Answer::Timeout(m))
            }
        }
    }
}

/// Checks a batch answer line as a whole: the batch's `id`, a `responses` list of one
/// response per case, each an object with its case's id. `Err` says what is wrong.
fn check_batch(response: &RawResponse, id: &str, cases: &[&Case]) -> Result<Vec<Answer>, String> {
    let quote = || raw::cut(response.text(), QUOTE);
    match response.get("id") {
        Some(_) if response.id_str().as_deref() == Some(id) => {}
        Some(other) => {
            return Err(format!(
                "answered id {} to batch {id:?}",
                raw::cut(other, QUOTE)
            ))
        }
        None => return Err(format!("no `id` in the batch answer {}", quote())),
    }
    let Some(responses) = response.responses() else {
        return Err(format!("no `responses` list in {}", quote()));
    };
    if responses.len() != cases.len() {
        return Err(format!(
            "{} responses to {} requests",
            responses.len(),
            cases.len()
        ));
    }
    responses
        .into_iter()
        .zip(cases)
        .enumerate()
        .map(|(i, (response, case))| match response {
            Ok(r) if r.id_str().as_deref() == Some(case.id.as_str()) => Ok(Answer::Response(r)),
            Ok(r) => Err(format!(
                "response {i} has id {} for request {:?}",
                raw::cut(r.get("id").unwrap_or("null"), QUOTE),
                case.id
            )),
            Err(text) => Err(format!("response {i} is not a JSON object: {text}")),
        })
        .collect()
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.stop(false);
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP end every running adapter and what it started before
/// the runner ends (adapters run in groups of their own, so the terminal's Ctrl-C does not
/// reach them). Does nothing where there are no process groups.
pub fn kill_adapters_on_signal() {
    group::kill_adapters_on_signal();
}

// --- What an adapter started (Unix): its process group, its process tree and (Linux) the
// processes carrying its token; every adapter when the runner itself is interrupted.
// Elsewhere only the adapter's `sh` is killed. ---

/// An adapter's processes: its group, its tree, its token.
#[cfg(unix)]
mod group {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Command, ExitStatus};
    use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
    use std::sync::OnceLock;
    use std::thread;
    use std::time::{Duration, Instant};

    /// The environment variable that marks every process an adapter starts (it inherits
    /// it): `RUNNER_PID.START`.
    pub(super) const TOKEN_VAR: &str = "CONFORMANCE_ADAPTER";

    /// Adapter starts so far (each gets a token of its own).
    static STARTS: AtomicU64 = AtomicU64::new(0);

    /// Puts the adapter's `sh` in a process group of its own, gives it (and, through its
    /// environment, everything it starts) a token of its own, and on Linux makes it die
    /// with the runner (`PR_SET_PDEATHSIG`); returns the token.
    pub(super) fn prepare(command: &mut Command) -> String {
        become_subreaper();
        let token = format!(
            "{}.{}",
            std::process::id(),
            STARTS.fetch_add(1, Ordering::SeqCst) + 1
        );
        command.env(TOKEN_VAR, &token).process_group(0);
        #[cfg(target_os = "linux")]
        {
            let runner = std::process::id() as libc::pid_t;
            // SAFETY: the closure runs in the child between fork and exec. It calls only
            // prctl(2) and getppid(2), which are async-signal-safe, and allocates nothing
            // (the error is built from a raw OS error code).
            unsafe {
                command.pre_exec(move || {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    // The runner ended before the line above: nothing would end this one.
                    if libc::getppid() != runner {
                        return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                    }
                    Ok(())
                });
            }
        }
        token
    }

    /// The signal that ended a process, if one did.
    pub(super) fn signal(status: ExitStatus) -> Option<i32> {
        status.signal()
    }

    /// One adapter start: its `sh` (the leader of its process group) and its token.
    pub(super) struct Family {
        pid: i32,
        token: String,
    }

    impl Family {
        /// A started adapter, registered for the signal handler.
        pub(super) fn new(pid: i32, token: String) -> Family {
            register(pid);
            Family { pid, token }
        }

        /// Sends SIGKILL to its process group, to its process tree (walked while its `sh`
        /// lives) and to every process below the runner whose environment carries its
        /// token, until none is left alive (at most a second); returns the processes to
        /// reap once the `sh` itself is reaped ([`Family::reap`]).
        pub(super) fn kill(&self) -> Vec<i32> {
            kill_group(self.pid);
            let left = linux::kill_family(&format!("{TOKEN_VAR}={}", self.token), false);
            kill_group(self.pid);
            left.into_iter().filter(|&p| p != self.pid).collect()
        }

        /// Reaps what [`Family::kill`] killed: the group's members and `left` (each once it
        /// is the runner's child, at most a second in all), then forgets the group.
        pub(super) fn reap(&self, left: &[i32]) {
            reap_group(self.pid);
            linux::reap(left);
            unregister(self.pid);
        }
    }

    /// The registry of running adapters' process groups, for the signal handler: chunks
    /// of slots (0 = free), a new chunk added when all are taken, none ever freed, so
    /// that the handler reads it without a lock and no adapter is left out.
    struct Chunk {
        slots: [AtomicI32; 64],
        next: OnceLock<Box<Chunk>>,
    }

    impl Chunk {
        const fn new() -> Chunk {
            Chunk {
                slots: [const { AtomicI32::new(0) }; 64],
                next: OnceLock::new(),
            }
        }

        /// This chunk and every one after it.
        fn all(&self) -> impl Iterator<Item = &Chunk> {
            std::iter::successors(Some(self), |c| c.next.get().map(|b| &**b))
        }
    }

    static GROUPS: Chunk = Chunk::new();

    fn register(pgid: i32) {
        let mut chunk = &GROUPS;
        loop {
            for slot in &chunk.slots {
                if slot
                    .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    return;
                }
            }
            chunk = chunk.next.get_or_init(|| Box::new(Chunk::new()));
        }
    }

    fn unregister(pgid: i32) {
        for chunk in GROUPS.all() {
            for slot in &chunk.slots {
                let _ = slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
            }
        }
    }

    /// The process groups registered now.
    fn registered() -> impl Iterator<Item = i32> {
        GROUPS
            .all()
            .flat_map(|c| c.slots.iter())
            .map(|s| s.load(Ordering::SeqCst))
            .filter(|&g| g != 0)
    }

    fn kill_group(pgid: i32) {
        if pgid > 0 {
            // SAFETY: kill(2) with a negative pid signals a process group; no memory involved.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }

    /// Makes the runner the reaper of its orphaned descendants (Linux), so that the children of
    /// an adapter's `sh` (reparented when `sh` dies) stay below the runner, where they are
    /// found and reaped, rather than going to an init process that may not reap (as in
    /// some containers).
    fn become_subreaper() {
        #[cfg(target_os = "linux")]
        {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| {
                // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) only sets a flag on this process.
                unsafe {
                    libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
                }
            });
        }
    }

    /// Reaps every child of the runner left in process group `pgid` (all of them were just
    /// sent SIGKILL), waiting at most a second.
    fn reap_group(pgid: i32) {
        let start = Instant::now();
        loop {
            let mut status = 0;
            // SAFETY: waitpid(2) on a process group of our own children; `status` is a local.
            let r = unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) };
            if r > 0 {
                continue; // reaped one; look for more
            }
            if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return; // ECHILD: none left
            }
            if start.elapsed() > Duration::from_secs(1) {
                return;
            }
            // r == 0: a member has not died yet.
            kill_group(pgid);
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The write end of the pipe that wakes the signal watcher (-1: none).
    static WAKE: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(sig: libc::c_int) {
        for pgid in registered() {
            kill_group(pgid);
        }
        let byte = sig as u8;
        let fd = WAKE.load(Ordering::SeqCst);
        // SAFETY: write(2) of one byte from a local to a pipe; async-signal-safe.
        if fd >= 0 && unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) } == 1 {
            return; // the watcher ends what is left, then the runner
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe; restoring the default action
        // and raising again ends the runner the way the signal would have.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// Makes SIGINT, SIGTERM and SIGHUP kill every running adapter's process group at once
    /// (adapters run in groups of their own, so the terminal's Ctrl-C does not reach them),
    /// then, from a thread that waits for it (Linux), every process carrying one of this
    /// runner's tokens, before the runner ends by the same signal.
    pub(super) fn kill_adapters_on_signal() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            if let Ok((mut reader, writer)) = std::io::pipe() {
                use std::io::Read;
                use std::os::fd::AsRawFd;
                let fd = writer.as_raw_fd();
                let watcher = thread::Builder::new()
                    .name("adapters-on-signal".into())
                    .spawn(move || {
                        let _writer = writer; // kept open for the handler
                        let mut byte = [0u8];
                        loop {
                            match reader.read(&mut byte) {
                                Ok(1) => break,
                                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                                _ => return,
                            }
                        }
                        let prefix = format!("{TOKEN_VAR}={}.", std::process::id());
                        linux::kill_family(&prefix, true);
                        let sig = libc::c_int::from(byte[0]);
                        // SAFETY: signal(2) and raise(3) with a signal number the handler
                        // received; the default action ends the runner by that signal.
                        unsafe {
                            libc::signal(sig, libc::SIG_DFL);
                            libc::raise(sig);
                        }
                    });
                if watcher.is_ok() {
                    WAKE.store(fd, Ordering::SeqCst);
                }
            }
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: installs a handler that only calls async-signal-safe functions.
                unsafe {
                    libc::signal(sig, handler);
                }
            }
        });
    }

    /// Finding an adapter's processes in `/proc`.
    #[cfg(target_os = "linux")]
    mod linux {
        use std::collections::{BTreeSet, HashMap};
        use std::thread;
        use std::time::{Duration, Instant};

        /// A process: its id, its parent's, and whether it has ended (a zombie).
        struct Process {
            pid: i32,
            ppid: i32,
            ended: bool,
        }

        fn processes() -> Vec<Process> {
            let Ok(dir) = std::fs::read_dir("/proc") else {
                return vec![];
            };
            dir.filter_map(|entry| {
                let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // `PID (COMM) STATE PPID …`: COMM may hold anything, so read after its
                // last `)`.
                let mut rest = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
                let state = rest.next()?;
                let ppid = rest.next()?.parse().ok()?;
                Some(Process {
                    pid,
                    ppid,
                    ended: matches!(state, "Z" | "X"),
                })
            })
            .collect()
        }

        /// Whether process `pid`'s environment has the entry `entry` (`prefix`: an entry
        /// starting with it).
        fn carries(pid: i32, entry: &str, prefix: bool) -> bool {
            let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
                return false;
            };
            env.split(|&b| b == 0).any(|e| {
                if prefix {
                    e.starts_with(entry.as_bytes())
                } else {
                    e == entry.as_bytes()
                }
            })
        }

        /// The processes below the runner that carry `entry` in their environment, and
        /// everything below them (whatever their environment): `(pid, ended)`.
        fn family(entry: &str, prefix: bool) -> Vec<(i32, bool)> {
            let all = processes();
            let mut children: HashMap<i32, Vec<usize>> = HashMap::new();
            for (i, p) in all.iter().enumerate() {
                children.entry(p.ppid).or_default().push(i);
            }
            let below = |roots: Vec<usize>| {
                let mut out = Vec::new();
                let mut queue = roots;
                while let Some(i) = queue.pop() {
                    out.push(i);
                    if let Some(c) = children.get(&all[i].pid) {
                        queue.extend(c.iter().copied());
                    }
                }
                out
            };
            let runner = std::process::id() as i32;
            let roots: Vec<usize> = below(children.get(&runner).cloned().unwrap_or_default())
                .into_iter()
                .filter(|&i| !all[i].ended && carries(all[i].pid, entry, prefix))
                .collect();
            let mut out: Vec<(i32, bool)> = below(roots)
                .into_iter()
                .map(|i| (all[i].pid, all[i].ended))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        }

        /// Sends SIGKILL to [`family`] until none of it is alive (at most a second);
        /// returns every process it found.
        pub(super) fn kill_family(entry: &str, prefix: bool) -> Vec<i32> {
            let start = Instant::now();
            let mut seen = BTreeSet::new();
            loop {
                let mut alive = 0;
                for (pid, ended) in family(entry, prefix) {
                    seen.insert(pid);
                    if !ended {
                        alive += 1;
                        // SAFETY: kill(2) of a process found below the runner; no memory
                        // involved.
                        unsafe {
                            libc::kill(pid, libc::SIGKILL);
                        }
                    }
                }
                if alive == 0 || start.elapsed() > Duration::from_secs(1) {
                    return seen.into_iter().collect();
                }
                thread::sleep(Duration::from_millis(5));
            }
        }

        /// Reaps `pids` (each once it has become the runner's child, as the orphans of a
        /// subreaper do), for at most a second.
        pub(super) fn reap(pids: &[i32]) {
            let start = Instant::now();
            let mut left = pids.to_vec();
            while !left.is_empty() && start.elapsed() < Duration::from_secs(1) {
                left.retain(|&pid| {
                    let mut status = 0;
                    // SAFETY: waitpid(2) on one process; `status` is a local.
                    let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
                    // 0: ours and not ended yet; -1 (ECHILD): not ours yet, or gone.
                    r == 0 || (r < 0 && std::path::Path::new(&format!("/proc/{pid}")).exists())
                });
                if !left.is_empty() {
                    thread::sleep(Duration::from_millis(5));
                }
            }
        }
    }

    /// Without `/proc`: the process group alone.
    #[cfg(not(target_os = "linux"))]
    mod linux {
        pub(super) fn kill_family(_entry: &str, _prefix: bool) -> Vec<i32> {
            vec![]
        }
        pub(super) fn reap(_pids: &[i32]) {}
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_registry_keeps_every_group() {
            // Far more than one chunk; values no real group has.
            let groups: Vec<i32> = (0..300).map(|i| -1_000_000 - i).collect();
            for &g in &groups {
                register(g);
            }
            let now: Vec<i32> = registered().collect();
            for g in &groups {
                assert!(now.contains(g), "{g} dropped");
            }
            for &g in &groups {
                unregister(g);
            }
            assert!(registered().all(|g| !groups.contains(&g)));
        }
    }
}

/// Without process groups: only the adapter's `sh` process is killed.
#[cfg(not(unix))]
mod group {
    use std::process::{Command, ExitStatus};

    pub(super) fn prepare(_command: &mut Command) -> String {
        String::new()
    }

    pub(super) struct Family;

    impl Family {
        pub(super) fn new(_pid: i32, _token: String) -> Family {
            Family
        }
        pub(super) fn kill(&self) -> Vec<i32> {
            vec![]
        }
        pub(super) fn reap(&self, _left: &[i32]) {}
    }

    pub(super) fn signal(_status: ExitStatus) -> Option<i32> {
        None
    }

    pub(super) fn kill_adapters_on_signal() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_requests_are_the_line_requests() {
        let mut suite = crate::run::suite::load_embedded(&[]).unwrap();
        suite.add_splits();
        let cases: Vec<&Case> = suite.cases.iter().step_by(7).take(3000).collect();
        assert!(cases.iter().any(|c| c.chunking.is_some()));
        assert!(cases.iter().any(|c| c.op() == crate::vectors::Op::Encode));
        let line = batch_line("batch-1", &cases);
        let batch: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(batch["id"], "batch-1");
        assert_eq!(batch["op"], "batch");
        let requests = batch["requests"].as_array().unwrap();
        assert_eq!(requests.len(), cases.len());
        for (request, case) in requests.iter().zip(&cases) {
            assert_eq!(request, &case.request(), "{}", case.id);
            // Key order too.
            assert_eq!(request.to_string(), case.request().to_string());
        }
    }
}
