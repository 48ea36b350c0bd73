//! The process client: an implementation behind a command, speaking the line protocol
//! (`conformance/adapters/README.md`). Every tool that starts an adapter (`run`,
//! `exhaustive --adapter`, `fuzz`) starts it here, with the same [`Config`].
//!
//! The adapter runs as `sh -c COMMAND` in a process group of its own (a job object on
//! Windows: `os/`). One thread writes
//! requests to its stdin, one reads its stdout line by line, one keeps the tail of its
//! stderr; the runner waits for each answer on a channel with the per-case timeout. A
//! process that exits, hangs, prints something that is not a JSON object or answers with
//! the wrong id is killed, with everything it started, and reaped, and started again for
//! the next case. Dropping an [`Adapter`] closes its stdin, waits a little, then kills
//! what is left.
//!
//! What it started is found three ways on Unix (`os/unix.rs`): its process group; its
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
//! Each start begins with the handshake ([`crate::protocol::hello`]): the hello gets the
//! start-up allowance (`--startup-timeout`), and only then do cases get `--timeout`. An
//! adapter that is alive and has written nothing for [`FLUSH_HINT_AFTER`] during the
//! hello gets the flush hint on stderr at once (the allowance still decides). An answer
//! line longer than `--max-line-bytes` is a PROTOCOL error, read no further; a line is
//! kept as its text ([`RawResponse`]), never as a tree of JSON values.
//!
//! An adapter whose hello declares `"batch": N` gets its cases in batch requests (at most
//! N and [`Config::batch_size`] cases, input capped so that the answer fits
//! `--max-line-bytes`), four batches in flight so that the adapter computes, the reader
//! thread parses and the runner judges at the same time. A batch gets `--timeout` plus [`BATCH_CASE_ALLOWANCE`]
//! per case. A batch that fails as a whole (crash, timeout, not JSON, the wrong batch id,
//! the wrong number of responses, a response with the wrong id, a line too long) is
//! replayed one case per line after a restart, so that every case gets its own verdict
//! and a crash or hang is pinned to its case.
//!
//! With [`Adapter::set_deadline`] (`run --deadline`, `fuzz --seconds`), no request is sent
//! after the deadline, and with `run --deadline` no wait goes past it either.
//!
//! Memory: an answer line is read up to `--max-line-bytes` and no further, and the reader
//! thread hands lines on through a channel of a few lines (`LINES_AHEAD`), so however fast an
//! adapter writes, and whatever it writes unasked, what waits to be judged is a few lines.

use crate::case::Case;
use crate::protocol::answer::RawResponse;
use crate::protocol::hello::{self as handshake, Declared};
use crate::protocol::request;
use crate::protocol::{Answer, Batches, Implementation};
use crate::text::cut;
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::ops::ControlFlow;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

mod stderr;
use stderr::StderrTail;

/// How long a closing adapter gets to exit after its stdin closes, before it is killed.
const GRACE: Duration = Duration::from_secs(2);
/// Handshakes that time out in a row before the adapter is no longer started (each costs
/// a whole `--startup-timeout`).
const HELLO_TIMEOUTS: usize = 2;
/// How much of an offending stdout line a PROTOCOL message quotes.
const QUOTE: usize = 200;
/// The most cases in one batch request unless [`Config::batch_size`] says
/// otherwise (and the adapter's own `"batch"` is the ceiling): large enough that the
/// per-line costs vanish, small enough that a failed batch's replay stays short.
pub const DEFAULT_BATCH_SIZE: usize = 512;
/// What a batch gets on top of `--timeout`, per case in it.
pub const BATCH_CASE_ALLOWANCE: Duration = Duration::from_millis(10);
/// Answer lines read ahead of the one being judged (the reader thread then waits).
const LINES_AHEAD: usize = PIPELINE;
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
    family: os::Family,
    requests: Option<Sender<Vec<u8>>>,
    msgs: Receiver<Msg>,
    stderr: StderrTail,
    /// Whether any byte came on stdout since the start (a silent adapter's hint).
    spoke: Arc<AtomicBool>,
}

/// How an adapter runs: the same settings, with the same meaning, for every tool that
/// starts one (`--timeout`, `--startup-timeout`, `--max-line-bytes`, `--batch-size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// How long one case may take to be answered (a batch: this plus
    /// [`BATCH_CASE_ALLOWANCE`] per case in it).
    pub timeout: Duration,
    /// How long a start may take, up to the answer to the hello.
    pub startup_timeout: Duration,
    /// The longest answer line, in bytes ([`MAX_LINE_RANGE`]).
    pub max_line: usize,
    /// The most cases in one batch request (the adapter's declared `"batch"` is the
    /// ceiling); 1: one case per line.
    pub batch_size: usize,
}

/// The default `--timeout`: 5 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default `--startup-timeout`: 60 s (a JVM, .NET or `go run` starting).
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(60);
/// The default `--max-line-bytes`: 16 MiB, far above any vector's answer.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;
/// The range of `--max-line-bytes` (and `serve --max-line-bytes`): at least a hello's
/// answer, at most 1 GiB (an answer in flight costs about its line).
pub const MAX_LINE_RANGE: std::ops::RangeInclusive<usize> = 1024..=1 << 30;
/// The most `--batch-size`: the most a hello may declare.
pub const BATCH_SIZE_MAX: usize = handshake::MAX_BATCH;
/// The longest `--timeout` and `--startup-timeout`: a day.
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;

impl Default for Config {
    fn default() -> Config {
        Config {
            timeout: DEFAULT_TIMEOUT,
            startup_timeout: DEFAULT_STARTUP_TIMEOUT,
            max_line: DEFAULT_MAX_LINE,
            batch_size: DEFAULT_BATCH_SIZE,
        }
    }
}

/// When an adapter stops: no request is sent after `at`, and, when `cut_waits`, no wait
/// goes past it either (a wait cut short is a timeout saying so).
#[derive(Clone, Copy, Debug)]
struct Deadline {
    at: Instant,
    cut_waits: bool,
}

/// An external implementation: a command speaking the line protocol.
pub struct Adapter {
    name: String,
    command: String,
    config: Config,
    running: Option<Running>,
    starts: usize,
    declared: Declared,
    /// Handshakes timed out in a row.
    hello_timeouts: usize,
    /// The batches sent.
    batches: Batches,
    /// No request after it (and maybe no wait past it).
    deadline: Option<Deadline>,
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
    pub fn new(name: &str, command: &str, config: Config) -> Adapter {
        Adapter {
            name: name.to_string(),
            command: command.to_string(),
            config: Config {
                batch_size: config.batch_size.max(1),
                ..config
            },
            running: None,
            starts: 0,
            declared: Declared::Unknown,
            hello_timeouts: 0,
            batches: Batches::default(),
            deadline: None,
        }
    }

    /// No request is sent after `at` (a case not sent is [`Answer::NotSent`]; the cases
    /// of a batch that fails as a whole after it are [`Answer::Lost`], not sent again).
    /// With `cut_waits` (`run --deadline`), no wait goes past it either, not even a
    /// restart's hello: a wait it cuts short is a timeout saying so. Without
    /// (`fuzz --seconds`), a case sent before it waits its whole `--timeout`.
    pub fn set_deadline(&mut self, at: Option<Instant>, cut_waits: bool) {
        self.deadline = at.map(|at| Deadline { at, cut_waits });
    }

    /// Whether the deadline has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d.at)
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

    /// Starts the process if it is not running, and shakes hands with it.
    fn start(&mut self) -> Result<(), Answer> {
        if self.running.is_some() {
            return Ok(());
        }
        if self.hello_timeouts >= HELLO_TIMEOUTS {
            return Err(Answer::Crash(format!(
                "not started again: its last {HELLO_TIMEOUTS} starts never answered the hello \
                 within --startup-timeout ({} s)",
                self.config.startup_timeout.as_secs_f64()
            )));
        }
        self.before_deadline()?;
        self.spawn()
            .map_err(|e| Answer::Crash(format!("cannot start `sh -c {}`: {e}", self.command)))?;
        let limit = self.config.startup_timeout;
        let hello = handshake::hello_request().to_string().into_bytes();
        let response = match self.exchange(hello, handshake::HELLO_ID, limit) {
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

    /// `Err` ([`Answer::NotSent`]) once the deadline has passed.
    fn before_deadline(&self) -> Result<(), Answer> {
        if self.past_deadline() {
            return Err(Answer::NotSent("not sent: the deadline passed".to_string()));
        }
        Ok(())
    }

    fn spawn(&mut self) -> std::io::Result<()> {
        // After SIGINT, SIGTERM or SIGHUP no adapter starts again: the runner is ending.
        end_if_signalled();
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let token = os::prepare(&mut command);
        let mut child = command.spawn()?;
        self.starts += 1;
        let family = os::Family::new(&child, token);
        // Bounded: an adapter that writes faster than answers are judged, or writes lines
        // it was not asked for, waits; it cannot fill the runner's memory.
        let (msg_tx, msgs) = mpsc::sync_channel(LINES_AHEAD);
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
        let max_line = self.config.max_line;
        spawn(&self.name, "stdout", move || {
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            // At most the cap and a newline: an endless line costs no more.
            let cap = max_line.saturating_add(1);
            loop {
                // A line of its own for each answer: it moves to the runner as the
                // answer's text, never copied.
                let mut line = Vec::new();
                match crate::files::read_line_capped(&mut reader, &mut line, cap) {
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

        let stderr = StderrTail::start(&self.name, child.stderr.take().expect("piped stderr"));

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
        // Everything that held its stderr is dead: its last lines once the pipe ends.
        let stderr = running.stderr.last_lines(GRACE);
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
    match (status.code(), os::signal(status)) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("was killed by signal {sig}"),
        _ => "ended".to_string(),
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
        let timeout = self.config.timeout;
        match self.exchange(request::line(case), &case.id, timeout) {
            Ok(response) => Answer::Response(response),
            Err(answer) => answer,
        }
    }

    fn answer_each(
        &mut self,
        cases: &[&Case],
        on_answer: &mut dyn FnMut(Answer) -> ControlFlow<()>,
    ) {
        // `cases[next..]` are not sent yet; `in_flight` are sent, oldest first;
        // `cases[..written]` were all sent once. An answer for one of those that comes
        // back unsent (the deadline passed before a batch's replay, or before the batches
        // after a failed one were sent again) is lost, not unsent: it was sent.
        let mut next = 0;
        let mut written = 0;
        let mut emitted = 0;
        let mut on_answer = |answer: Answer, written: usize| {
            let answer = match answer {
                Answer::NotSent(m) if emitted < written => Answer::Lost(format!(
                    "sent in a batch whose answer was not read (a batch failed as a whole), \
                     and {m}"
                )),
                answer => answer,
            };
            emitted += 1;
            on_answer(answer)
        };
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
                    if on_answer(answer, written).is_break() {
                        return;
                    }
                    continue;
                }
                if self.batch_len(&cases[next..]) <= 1 || self.before_deadline().is_err() {
                    next += 1;
                    if on_answer(self.answer(case), written).is_break() {
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
                let failed = self
                    .send(request::batch_line(&id, batch))
                    .err()
                    .map(|a| reason(&a));
                let stop = failed.is_some();
                in_flight.push_back(InFlight {
                    id,
                    start: next,
                    len,
                    failed,
                });
                next += len;
                written = written.max(next);
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
                        if on_answer(answer, written).is_break() {
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
                        if on_answer(self.answer(case), written).is_break() {
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

/// What is wrong with a line that is not a JSON object (read without keeping any of it).
fn not_an_object(bytes: &[u8]) -> String {
    let text = cut(
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
        Answer::Response(_) => "answered".into(),
        other => other.message().to_string(),
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
        let budget = self.config.max_line;
        let mut size = 0usize;
        let mut len = 0;
        for case in cases.iter().take(declared.min(self.config.batch_size)) {
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
        let timeout = self.config.timeout.saturating_add(allowance);
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
        request: Vec<u8>,
        id: &str,
        timeout: Duration,
    ) -> Result<RawResponse, Answer> {
        self.send(request)?;
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
                let other = cut(other, QUOTE);
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
                    cut(response.text(), QUOTE)
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
            Some(d) if d.cut_waits => (start + timeout).min(d.at),
            _ => start + timeout,
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
                let mut m = if self.deadline.is_some_and(|d| d.cut_waits) && self.past_deadline() {
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
    let quote = || cut(response.text(), QUOTE);
    match response.get("id") {
        Some(_) if response.id_str().as_deref() == Some(id) => {}
        Some(other) => return Err(format!("answered id {} to batch {id:?}", cut(other, QUOTE))),
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
                cut(r.get("id").unwrap_or("null"), QUOTE),
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
    os::kill_adapters_on_signal();
}

/// Once SIGINT, SIGTERM or SIGHUP has come (after [`kill_adapters_on_signal`]): ends what
/// the adapters left and the runner by that signal, and never returns. The killed adapters
/// look like crashes; without this the run could print a verdict and exit 1 first. Returns
/// at once when no signal came.
pub fn end_if_signalled() {
    os::end_if_signalled();
}

// What an adapter started: a process group and its tree on Unix, a job object on Windows,
// the `sh` process alone elsewhere. One interface (`prepare`, `Family`, `signal`,
// `kill_adapters_on_signal`), one file per platform.
#[cfg_attr(unix, path = "os/unix.rs")]
#[cfg_attr(windows, path = "os/windows.rs")]
#[cfg_attr(not(any(unix, windows)), path = "os/other.rs")]
mod os;
