//! The whole harness against an adapter: every short input (`conformance exhaustive
//! --adapter`, [`crate::exhaustive::adapter`]) and structure-aware differential fuzzing
//! (`conformance fuzz --adapter`, [`fuzz`]), each case judged exactly as `conformance run`
//! judges a vector.
//!
//! What is shared lives here: a [`Session`] (the adapter, started once with the hello as
//! its liveness probe, what it declared, and an optional deadline no case waits past),
//! the expected answer of any input built by the vector generator's own builders from the
//! spec-literal code ([`expected_case`]), the verdict (the runner's
//! [`judge`](crate::run::judge) plus its rule for answers short of the declaration), a
//! disagreement's [class](Disagreement::class), the vector file written for the
//! disagreements found ([`write_vectors`], atomically), with the one-line command that
//! reproduces them, and the range-checked parsers of the numeric options ([`seconds_in`],
//! [`count_in`]).

pub mod fuzz;

use crate::run::adapter::{Adapter, Limits};
use crate::run::handshake::{self, Declaration, Declared};
use crate::run::suite::{Case, Test};
use crate::run::{Answer, CaseResult, Implementation, Status, UsageError};
use crate::vectors::generate::{build, utf_inf8 as inf_build, VERSION};
use crate::vectors::model::{
    to_hex, to_pretty_json, DecodeTest, DocumentTest, EncodeTest, Note, TestGroup, VectorFile,
};
use crate::vectors::Encoding;
pub use crate::vectors::Op;
use conformance_literal::{corrected, utf8, utf_inf8};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long one case may take (the runner's default `--timeout`).
pub const CASE_TIMEOUT: Duration = Duration::from_secs(5);

/// The command lines' parser of an operation's name (`--op` of `fuzz` and `exhaustive`):
/// the possible values, with the help `--help` shows for each, parsed into the enum.
pub fn op_parser() -> impl clap::builder::TypedValueParser<Value = Op> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let help = |op: Op| match op {
        Op::Decode => "Bytes in, events out",
        Op::Encode => "A code point in, bytes or an error kind out",
        Op::Document => "A Corrected UTF-8 document in, findings out",
    };
    PossibleValuesParser::new(Op::ALL.map(|op| PossibleValue::new(op.name()).help(help(op))))
        .try_map(|s| s.parse::<Op>())
}

/// One input: bytes (decode, document) or a code point (encode; at most `u32::MAX` for
/// Corrected UTF-8 and UTF-8).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Probe {
    /// Bytes to decode or check as a document.
    Bytes(Vec<u8>),
    /// A code point to encode.
    CodePoint(u128),
}

impl Probe {
    /// `input 41c2` or `codepoint U+0041`.
    pub fn describe(&self) -> String {
        match self {
            Probe::Bytes(b) if b.is_empty() => "input (empty)".into(),
            Probe::Bytes(b) => format!("input {}", to_hex(b)),
            Probe::CodePoint(cp) => format!("codepoint U+{cp:04X}"),
        }
    }
}

/// An encoding and operation the adapter declared, with its declared fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// The fields it declared it sends for every case.
    pub fields: Vec<String>,
}

impl Target {
    /// `corrected-utf8 decode`.
    pub fn label(&self) -> String {
        format!("{} {}", self.encoding, self.op)
    }
}

/// Whether the spec-literal code answers this encoding and operation.
fn has_oracle(encoding: Encoding, op: Op) -> bool {
    op != Op::Document || encoding == Encoding::CorrectedUtf8
}

/// The case for `probe`, its expected answer computed by the spec-literal code through
/// the vector generator's builders (so a written vector expects what `generate` would).
pub fn expected_case(
    encoding: Encoding,
    op: Op,
    probe: &Probe,
    id: String,
    flags: &[&str],
) -> Case {
    let comment = String::new();
    // Corrected UTF-8 and UTF-8 take u32 code points; callers give no larger ones.
    let small = |cp: u128| u32::try_from(cp).unwrap_or(u32::MAX);
    let test = match (op, probe) {
        (Op::Document, Probe::Bytes(b)) => Test::Document(build::document_test(comment, flags, b)),
        (_, Probe::Bytes(b)) => Test::Decode(match encoding {
            Encoding::Utf8 => build::decode_test(utf8::decode, comment, flags, b),
            Encoding::UtfInf8 => inf_build::dec(comment, flags, b),
            Encoding::CorrectedUtf8 => build::decode_test(corrected::decode, comment, flags, b),
        }),
        (_, Probe::CodePoint(cp)) => Test::Encode(match encoding {
            Encoding::Utf8 => build::encode_test(utf8::encode, comment, flags, small(*cp)),
            Encoding::UtfInf8 => {
                inf_build::enc(comment, flags, &utf_inf8::CodePoint::from_u128(*cp))
            }
            Encoding::CorrectedUtf8 => {
                build::encode_test(corrected::encode, comment, flags, small(*cp))
            }
        }),
    };
    Case {
        id,
        file: 0,
        tc_id: 0,
        encoding,
        test: std::sync::Arc::new(test),
        chunking: None,
    }
}

/// The runner's verdict on one answer ([`crate::run::judge`]), and, as `conformance run`
/// does, a failure when the answer has less than the adapter declared for the case's
/// encoding and operation (`unsupported`, or a declared field missing).
pub fn judge_declared(case: &Case, answer: Answer, fields: &[String]) -> CaseResult {
    crate::run::judge_declared(case, answer, Some(fields))
}

/// What a failing result is about, for minimizing: the first field that differed, the
/// shortfall, or the status (crash, timeout, protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signature {
    /// This field differed.
    Field(String),
    /// Less than declared.
    Undeclared,
    /// Crash, timeout or protocol error.
    Status(Status),
}

impl Signature {
    /// The signature of a failing result; `None` when it passed (or was skipped).
    pub fn of(r: &CaseResult) -> Option<Signature> {
        if !r.raw.is_failure() {
            return None;
        }
        Some(if let Some(m) = r.mismatches.first() {
            Signature::Field(m.field.clone())
        } else if r.undeclared.is_some() {
            Signature::Undeclared
        } else {
            Signature::Status(r.raw)
        })
    }

    /// Whether `r` still fails this way (for a field: that field still differs).
    pub fn matches(&self, r: &CaseResult) -> bool {
        match self {
            Signature::Field(f) => {
                r.raw == Status::Fail && r.mismatches.iter().any(|m| &m.field == f)
            }
            Signature::Undeclared => r.raw == Status::Fail && r.undeclared.is_some(),
            Signature::Status(s) => r.raw == *s,
        }
    }
}

/// One disagreement between the adapter and the spec-literal code.
#[derive(Clone, Debug)]
pub struct Disagreement {
    /// The target.
    pub target: Target,
    /// The input.
    pub probe: Probe,
    /// The verdict.
    pub result: CaseResult,
}

impl Disagreement {
    /// Lines: the input, then per differing field the expected and the answered value
    /// (or the crash, timeout or protocol message).
    pub fn describe(&self) -> String {
        let mut s = format!(
            "{} {}: {}",
            self.target.label(),
            self.probe.describe(),
            self.result.raw.as_str().to_uppercase()
        );
        for m in &self.result.mismatches {
            s.push_str(&format!(
                "\n    {}: expected {}\n    {}  got      {}{}",
                m.field,
                short(&m.expected.to_string()),
                " ".repeat(m.field.len()),
                short(&m.got.to_string()),
                m.note
                    .as_ref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            ));
        }
        if let Some(m) = &self.result.message {
            s.push_str(&format!("\n    {}", short(m)));
        }
        s
    }

    /// What the disagreement is about, to tell findings apart: the encoding and operation,
    /// then the first differing field and what was expected and answered there, as kinds
    /// of value (`utf-8 encode bytes: error surrogate vs bytes`, so U+D800 to U+DFFF are
    /// one class), or the shortfall, or the status (`crash`, `timeout`, `protocol`).
    pub fn class(&self) -> String {
        let what = match self.result.mismatches.first() {
            Some(m) => {
                let (e, g) = first_difference(&m.expected, &m.got);
                format!("{}: {} vs {}", m.field, kind_of(e), kind_of(g))
            }
            None if self.result.undeclared.is_some() => "less than declared".into(),
            None => self.result.raw.as_str().to_string(),
        };
        format!("{} {}", self.target.label(), what)
    }

    /// The JSON of the `--json` reports.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "encoding": self.target.encoding,
            "op": self.target.op,
            "input": match &self.probe {
                Probe::Bytes(b) => to_hex(b),
                Probe::CodePoint(cp) => format!("U+{cp:04X}"),
            },
            "status": self.result.raw.as_str(),
            "mismatches": self.result.mismatches,
            "message": self.result.message,
        })
    }
}

/// Where two values first differ: the elements at the first differing index of two
/// lists (`None` past the end of one), else the values themselves.
fn first_difference<'a>(
    expected: &'a Value,
    got: &'a Value,
) -> (Option<&'a Value>, Option<&'a Value>) {
    match (expected, got) {
        (Value::Array(e), Value::Array(g)) => {
            let i = e.iter().zip(g).take_while(|(x, y)| x == y).count();
            (e.get(i), g.get(i))
        }
        _ => (Some(expected), Some(got)),
    }
}

/// The kind of a value of an answer, for [`Disagreement::class`]: an event's or an
/// error's kind, `code point` (or `U+FFFD`), `bytes`, a result word, `true`, `null`, ….
fn kind_of(v: Option<&Value>) -> String {
    let Some(v) = v else {
        return "nothing".into();
    };
    match v {
        Value::Object(o) => match (o.get("error"), o.get("kind")) {
            (Some(Value::String(k)), _) => format!("error {k}"),
            (Some(_), _) => "error".into(),
            (None, Some(Value::String(k))) => format!("finding {k}"),
            _ if o.contains_key("reserved") => "reserved".into(),
            _ if o.contains_key("codepoint") => "code point".into(),
            _ => "object".into(),
        },
        Value::Array(_) => "list".into(),
        Value::String(s) if s.eq_ignore_ascii_case("U+FFFD") => "U+FFFD".into(),
        Value::String(s) if s.starts_with("U+") || s.starts_with("u+") => "code point".into(),
        Value::String(s) if s.bytes().all(|b| b.is_ascii_hexdigit()) => "bytes".into(),
        Value::String(s) => short(s),
        other => short(&other.to_string()),
    }
}

/// At most 300 characters of `s`.
fn short(s: &str) -> String {
    if s.chars().count() <= 300 {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(300).collect::<String>())
    }
}

/// The adapter, started, and what it declared that the spec-literal code can answer.
pub struct Session {
    adapter: Adapter,
    /// The adapter's name (`--adapter NAME=…`).
    pub name: String,
    /// Its command.
    pub command: String,
    /// Its answer to the hello.
    pub declaration: Declaration,
    /// What it declared (and the filters kept), in its declaration's order.
    pub targets: Vec<Target>,
    /// Cases sent and answered so far.
    pub sent: u64,
    /// Cases not sent, or whose wait was cut short, because the deadline came.
    pub cut: u64,
    next_id: u64,
    deadline: Option<Instant>,
}

impl Session {
    /// Starts the adapter and reads its declaration; keeps the declared encodings and
    /// operations with an oracle, and of those the ones in `encodings` and `ops` (all
    /// when empty). Nothing usable is a usage error.
    pub fn open(
        (name, command): &(String, String),
        encodings: &[Encoding],
        ops: &[Op],
    ) -> Result<Session, UsageError> {
        let limits = Limits {
            timeout: CASE_TIMEOUT,
            startup_timeout: Duration::from_secs(60),
            max_line: crate::run::DEFAULT_MAX_LINE,
        };
        crate::run::adapter::kill_adapters_on_signal();
        let mut adapter = Adapter::new(name, command, limits);
        // The hello is the liveness probe: no case goes out before it declares what it takes.
        let started = adapter.hello();
        let declaration = match (adapter.declared(), started) {
            (Declared::Protocol2(d), Ok(())) => d,
            (_, started) => {
                let why = match started {
                    Err(Answer::Crash(m) | Answer::Timeout(m) | Answer::Protocol(m)) => {
                        format!("it did not start: {m}")
                    }
                    _ => "it declared nothing (protocol 1)".into(),
                };
                return Err(UsageError(format!(
                    "adapter {name}: {why}. Only what an adapter declares is sent: answer the \
                     hello with `\"protocol\": 2` and a `supports` list \
                     (conformance/adapters/README.md, \"Protocol 2\")"
                )));
            }
        };
        let targets: Vec<Target> = declaration
            .supports
            .iter()
            .filter_map(|s| {
                let (encoding, op) = s.target?;
                (has_oracle(encoding, op)
                    && (encodings.is_empty() || encodings.contains(&encoding))
                    && (ops.is_empty() || ops.contains(&op)))
                .then(|| Target {
                    encoding,
                    op,
                    fields: s.fields.clone(),
                })
            })
            .collect();
        if targets.is_empty() {
            return Err(UsageError(format!(
                "adapter {name} declared nothing to check here (declared: {}; checked: decode \
                 and encode of corrected-utf8, utf-8, utf-inf-8 and document of \
                 corrected-utf8{})",
                handshake::describe_supports(&declaration.supports),
                if encodings.is_empty() && ops.is_empty() {
                    String::new()
                } else {
                    ", as narrowed by --encodings and --op".to_string()
                }
            )));
        }
        Ok(Session {
            adapter,
            name: name.clone(),
            command: command.clone(),
            declaration,
            targets,
            sent: 0,
            cut: 0,
            next_id: 0,
            deadline: None,
        })
    }

    /// No case is sent after `at`, and none waits past it for longer than
    /// [`CASE_TIMEOUT`]: near it, each case's timeout is what is left, and a case cut
    /// short that way has no verdict (it is counted in [`Session::cut`], not judged).
    pub fn set_deadline(&mut self, at: Instant) {
        self.deadline = Some(at);
        self.adapter.set_deadline(Some(at));
    }

    /// How many times the adapter was started (1 when it never had to be restarted).
    pub fn starts(&self) -> usize {
        self.adapter.starts()
    }

    /// Sends the probes of one target (all at once: batches when the adapter declared
    /// them) and returns the cases and the adapter's answers, in order; fewer answers than
    /// probes when the deadline came ([`Session::set_deadline`]).
    pub fn ask(&mut self, target: &Target, probes: &[Probe]) -> (Vec<Case>, Vec<Answer>) {
        let cases: Vec<Case> = probes
            .iter()
            .map(|p| {
                self.next_id += 1;
                let id = format!("{}#{}", target.op.as_str(), self.next_id);
                expected_case(target.encoding, target.op, p, id, &[])
            })
            .collect();
        let mut timeout = CASE_TIMEOUT;
        if let Some(at) = self.deadline {
            let left = at.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.cut += cases.len() as u64;
                return (cases, Vec::new());
            }
            timeout = left.min(CASE_TIMEOUT).max(Duration::from_millis(1));
        }
        self.adapter.set_timeout(timeout);
        let deadline = self.deadline;
        let refs: Vec<&Case> = cases.iter().collect();
        let mut answers = Vec::with_capacity(cases.len());
        self.adapter.answer_each(&refs, &mut |answer| {
            // A wait cut short for the deadline (or a case not sent because it passed)
            // says nothing of the case.
            let past = deadline.is_some_and(|at| Instant::now() >= at);
            if (timeout < CASE_TIMEOUT || past) && matches!(answer, Answer::Timeout(_)) {
                return ControlFlow::Break(());
            }
            answers.push(answer);
            match deadline {
                Some(at) if Instant::now() >= at => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        });
        self.sent += answers.len() as u64;
        self.cut += (cases.len() - answers.len()) as u64;
        (cases, answers)
    }

    /// Sends the probes of one target (all at once: batches when the adapter declared
    /// them) and judges every answer; fewer results than probes when the deadline came.
    pub fn check(&mut self, target: &Target, probes: &[Probe]) -> Vec<CaseResult> {
        let (cases, answers) = self.ask(target, probes);
        cases
            .iter()
            .zip(answers)
            .map(|(case, answer)| judge_declared(case, answer, &target.fields))
            .collect()
    }

    /// Minimizes a failing byte input against the adapter
    /// ([`conformance_checks::minimize::minimize`]): the smallest input, made of its bytes
    /// in order, that still fails with the same [`Signature`], and its result. `None` when
    /// nothing smaller was found (the deadline came first, or nothing can go).
    pub fn minimize(
        &mut self,
        target: &Target,
        input: &[u8],
        sig: &Signature,
    ) -> Option<(Vec<u8>, CaseResult)> {
        // The results of the candidates that still failed: the last one kept is one of them.
        let mut failing: HashMap<Vec<u8>, CaseResult> = HashMap::new();
        let small = conformance_checks::minimize::minimize(input, |candidates| {
            let probes: Vec<Probe> = candidates.iter().cloned().map(Probe::Bytes).collect();
            let results = self.check(target, &probes);
            results
                .into_iter()
                .zip(candidates)
                .map(|(r, c)| {
                    let fails = sig.matches(&r);
                    if fails {
                        failing.insert(c.clone(), r);
                    }
                    fails
                })
                .collect()
        });
        let result = failing.remove(&small)?;
        Some((small, result))
    }
}

/// How a disagreement was found: the flag of its vector, and the note explaining it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// `conformance fuzz --adapter`.
    Fuzzing,
    /// `conformance exhaustive --adapter`.
    Exhaustive,
}

impl FoundBy {
    /// The flag.
    pub fn flag(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => "FoundByFuzzing",
            FoundBy::Exhaustive => "FoundByExhaustive",
        }
    }

    fn note(self) -> &'static str {
        match self {
            FoundBy::Fuzzing => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance fuzz --adapter` (structure-aware differential fuzzing) \
                 and minimized by delta debugging against that implementation; the expected \
                 result is the spec-literal code's (conformance/README.md, \"Fuzzing an \
                 adapter\")."
            }
            FoundBy::Exhaustive => {
                "An input on which an implementation disagreed with the spec-literal code, \
                 found by `conformance exhaustive --adapter` (every input up to --max-len \
                 bytes, every code point up to --max-codepoint and the table edges); the \
                 expected result is the spec-literal code's (conformance/README.md, \
                 \"Exhaustive checks of an adapter\")."
            }
        }
    }
}

/// `<dir>/<name>-<encoding>-<op>.json`.
pub fn vector_path(dir: &Path, name: &str, target: &Target) -> PathBuf {
    dir.join(format!("{name}-{}-{}.json", target.encoding, target.op))
}

fn vector_file<T: Serialize + Clone>(
    schema: Op,
    encoding: Encoding,
    header: Vec<String>,
    found_by: FoundBy,
    comment: String,
    tests: Vec<T>,
) -> Result<String, String> {
    let mut notes = BTreeMap::new();
    notes.insert(
        found_by.flag().to_string(),
        Note {
            description: found_by.note().to_string(),
            links: Some(vec!["conformance/README.md".to_string()]),
        },
    );
    to_pretty_json(&VectorFile {
        schema: schema.into(),
        encoding: encoding.name().to_string(),
        version: VERSION.to_string(),
        number_of_tests: tests.len(),
        header,
        notes,
        test_groups: vec![TestGroup { comment, tests }],
    })
}

/// Writes the disagreements of one target as a vector file in the schema of `vectors/`
/// (tcIds from 1, each test flagged [`FoundBy::flag`], expected results from the
/// spec-literal code), creating `dir`; returns its path.
pub fn write_vectors(
    dir: &Path,
    session: &Session,
    target: &Target,
    found: &[&Disagreement],
    found_by: FoundBy,
    how: &str,
) -> Result<PathBuf, String> {
    let flag = [found_by.flag()];
    let header = vec![
        format!(
            "Disagreements between the implementation `{}` ({}) and the spec-literal code, \
             found by {how}.",
            session.name, session.command
        ),
        "Expected results: the spec-literal code in conformance/literal/src/, as \
         `conformance generate` computes them. Semantics: docs/semantics.md; fields and \
         flags: vectors/README.md."
            .to_string(),
    ];
    let group = format!(
        "{} disagreement(s) of {} on {}",
        found.len(),
        session.name,
        target.label()
    );
    let describe = |d: &Disagreement| {
        let fields: Vec<&str> = d
            .result
            .mismatches
            .iter()
            .map(|m| m.field.as_str())
            .collect();
        let what = if fields.is_empty() {
            d.result.message.clone().unwrap_or_default()
        } else {
            format!("`{}` differed", fields.join("`, `"))
        };
        short(&format!("{}: {what}", session.name))
    };
    let cases: Vec<(u64, String, Test)> = found
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let case = expected_case(target.encoding, target.op, &d.probe, String::new(), &flag);
            (
                i as u64 + 1,
                describe(d),
                std::sync::Arc::unwrap_or_clone(case.test),
            )
        })
        .collect();
    let (enc, by) = (target.encoding, found_by);
    let text = match target.op {
        Op::Decode => {
            let tests: Vec<DecodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Decode(t) => Some(DecodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Decode, enc, header, by, group, tests)?
        }
        Op::Document => {
            let tests: Vec<DocumentTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Document(t) => Some(DocumentTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Document, enc, header, by, group, tests)?
        }
        Op::Encode => {
            let tests: Vec<EncodeTest> = cases
                .into_iter()
                .filter_map(|(tc_id, comment, t)| match t {
                    Test::Encode(t) => Some(EncodeTest {
                        tc_id,
                        comment,
                        ..t
                    }),
                    _ => None,
                })
                .collect();
            vector_file(Op::Encode, enc, header, by, group, tests)?
        }
    };
    let path = vector_path(dir, &session.name, target);
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(cannot)?;
    // Whole or absent: a full disk leaves no half vector file to be loaded next time.
    crate::files::write_atomic(&path, text.as_bytes()).map_err(cannot)?;
    Ok(path)
}

/// `s` quoted for `sh` when it needs it.
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The one-line command that replays a written vector file against the adapter.
pub fn reproduce_command(path: &Path, session: &Session) -> String {
    format!(
        "conformance run --vectors {} --adapter {}",
        shell_quote(&path.display().to_string()),
        shell_quote(&format!("{}={}", session.name, session.command))
    )
}

/// Writes one vector file per target that has disagreements and prints each path with
/// its reproduction command. A file that cannot be written is named in the errors
/// returned; the others are written all the same.
pub fn write_all(
    dir: &Path,
    session: &Session,
    found: &[Disagreement],
    found_by: FoundBy,
    how: &str,
) -> (Vec<PathBuf>, Vec<String>) {
    let (mut paths, mut errors) = (Vec::new(), Vec::new());
    for target in &session.targets {
        let mine: Vec<&Disagreement> = found.iter().filter(|d| d.target == *target).collect();
        if mine.is_empty() {
            continue;
        }
        match write_vectors(dir, session, target, &mine, found_by, how) {
            Ok(path) => {
                crate::out!(
                    "wrote {} ({} case(s))\nreproduce: {}\n",
                    path.display(),
                    mine.len(),
                    reproduce_command(&path, session)
                );
                paths.push(path);
            }
            Err(e) => errors.push(e),
        }
    }
    (paths, errors)
}

/// A parser of seconds for an option: a finite number from `min` to `max` (so that no
/// `Duration` built from it can overflow or panic).
pub fn seconds_in(min: f64, max: f64) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |s: &str| {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("not a number of seconds: {s:?}"))?;
        if v.is_finite() && v >= min && v <= max {
            Ok(v)
        } else {
            Err(format!("must be from {min} to {max} seconds"))
        }
    }
}

/// A parser of a count for an option: a whole number in `range`.
pub fn count_in(
    range: std::ops::RangeInclusive<u64>,
) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(range)
}

/// The default `--out`: `target/conformance-<what>/` under the current directory.
pub fn default_out(what: &str) -> PathBuf {
    PathBuf::from("target").join(format!("conformance-{what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quotes_for_sh() {
        assert_eq!(shell_quote("a/b.json"), "a/b.json");
        assert_eq!(shell_quote("py=python3 x.py"), "'py=python3 x.py'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn judged_as_the_runner_judges() {
        let case = expected_case(
            Encoding::CorrectedUtf8,
            Op::Decode,
            &Probe::Bytes(vec![0xC0, 0x80]),
            "x".into(),
            &[],
        );
        let fields = vec!["lossy".to_string(), "valid".to_string()];
        let answer = |v: serde_json::Value| Answer::Response(v.as_object().unwrap().clone().into());
        let ok = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A0"], "valid": true})),
            &fields,
        );
        assert_eq!(ok.raw, Status::Pass);
        // A lossy-only answer is checked on lossy alone, and fails there.
        let bad = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A1"], "valid": true})),
            &fields,
        );
        assert_eq!(Signature::of(&bad), Some(Signature::Field("lossy".into())));
        // Less than declared fails, as in `conformance run`.
        let short = judge_declared(
            &case,
            answer(json!({"id": "x", "lossy": ["U+00A0"]})),
            &fields,
        );
        assert_eq!(Signature::of(&short), Some(Signature::Undeclared));
        let unsupported = judge_declared(
            &case,
            answer(json!({"id": "x", "unsupported": true})),
            &fields,
        );
        assert_eq!(unsupported.raw, Status::Fail);
    }
}
