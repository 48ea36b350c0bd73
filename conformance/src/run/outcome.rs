//! What the runner returns: each implementation's answers and results, their counts,
//! and the report the output formats render.

use super::expected::ExpectedFailures;
use super::handshake::Declared;
use super::raw::RawResponse;
use super::suite::{Case, Suite};
use super::verdict::Mismatch;
use crate::exit::{EXIT_FAILED, EXIT_OK};
use crate::vectors::{Encoding, Op};
use std::ops::ControlFlow;
use std::time::Duration;

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
}

/// Something that answers cases: the built-in reference, or an adapter process.
pub trait Implementation: Send {
    /// The name in reports.
    fn name(&self) -> &str;
    /// A longer description (the command of an adapter).
    fn describe(&self) -> String;
    /// Answers one case.
    fn answer(&mut self, case: &Case) -> Answer;
    /// Answers several cases, one answer per case in order. The default asks one at a
    /// time; an adapter that declared batches sends them together.
    fn answer_all(&mut self, cases: &[&Case]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(cases.len());
        self.answer_each(cases, &mut |answer| {
            answers.push(answer);
            ControlFlow::Continue(())
        });
        answers
    }
    /// Answers several cases in order, handing each answer to `on_answer` as soon as it
    /// is known; once `on_answer` breaks, no further case is sent (the runner's
    /// `--give-up-after`). The default asks one at a time.
    fn answer_each(
        &mut self,
        cases: &[&Case],
        on_answer: &mut dyn FnMut(Answer) -> ControlFlow<()>,
    ) {
        for case in cases {
            if on_answer(self.answer(case)).is_break() {
                return;
            }
        }
    }
    /// What its handshake declared (known once it has started).
    fn declared(&self) -> Declared;
    /// The batches sent so far (none unless it declared `batch`).
    fn batches(&self) -> Batches {
        Batches::default()
    }
}

/// The batch requests sent to one implementation (`"batch": N` in its hello).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batches {
    /// Batch requests sent.
    pub sent: usize,
    /// The cases in them.
    pub cases: usize,
    /// Batches that failed as a whole (crash, timeout, a malformed batch answer) and were
    /// replayed one case per line, each case getting its own verdict.
    pub fell_back: usize,
    /// Why the first of them failed.
    pub first_failure: Option<String>,
}

/// The outcome of one case for one implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every field answered matched.
    Pass,
    /// Some field differed.
    Fail,
    /// The adapter exited or its pipes broke.
    Crash,
    /// No answer in time.
    Timeout,
    /// Not a JSON object, wrong or missing id, or a field of the wrong shape.
    Protocol,
    /// Unsupported, or nothing checkable.
    Skip,
    /// Listed in the expected failures, and did not pass.
    Xfail,
    /// Listed in the expected failures, and passed.
    Xpass,
    /// Never sent: the runner gave up on the implementation (`--give-up-after`) or the
    /// `--deadline` passed. Neither passed nor failed, but the gate fails
    /// ([`RunReport::gate`]).
    #[serde(rename = "not-run")]
    NotRun,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 9] = [
        Status::Pass,
        Status::Fail,
        Status::Crash,
        Status::Timeout,
        Status::Protocol,
        Status::Skip,
        Status::Xfail,
        Status::Xpass,
        Status::NotRun,
    ];

    /// The lowercase name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::Protocol => "protocol",
            Status::Skip => "skip",
            Status::Xfail => "xfail",
            Status::Xpass => "xpass",
            Status::NotRun => "not-run",
        }
    }

    /// Counts as failed in `N passed, M failed` (and makes the exit code 1).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Status::Fail | Status::Crash | Status::Timeout | Status::Protocol | Status::Xpass
        )
    }
}

/// One case's result for one implementation.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The final status (expected failures applied).
    pub status: Status,
    /// The status before expected failures were applied (never `Xfail`/`Xpass`).
    pub raw: Status,
    /// The response fields that were compared.
    pub checked: Vec<&'static str>,
    /// The fields that differed.
    pub mismatches: Vec<Mismatch>,
    /// Skip reason, crash detail, protocol message or timeout.
    pub message: Option<String>,
    /// The reason given in the expected-failures file, when listed.
    pub expected_failure: Option<String>,
    /// The fields the response had (every key but `id`, and `error-kind` when `error` is
    /// a kind; empty without a response).
    pub answered: Vec<String>,
    /// When it failed because it answered less than declared: `ENCODING OP: what`.
    pub undeclared: Option<String>,
    /// A chunked variant (`--splits`) not sent, because the implementation did not
    /// declare streaming for its encoding and operation: counted nowhere (not a skip),
    /// only in [`ImplResult::chunked`].
    pub not_applicable: bool,
}

/// Counts of statuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub [usize; 9]);

impl Counts {
    /// Adds one result.
    pub fn add(&mut self, s: Status) {
        self.0[s as usize] += 1;
    }
    /// How many had status `s`.
    pub fn get(&self, s: Status) -> usize {
        self.0[s as usize]
    }
    /// Passed cases.
    pub fn passed(&self) -> usize {
        self.get(Status::Pass)
    }
    /// Failed, crashed, timed-out, protocol-error and unexpectedly passing cases.
    pub fn failed(&self) -> usize {
        Status::ALL
            .iter()
            .filter(|s| s.is_failure())
            .map(|&s| self.get(s))
            .sum()
    }
    /// Skipped cases and expected failures.
    pub fn skipped(&self) -> usize {
        self.get(Status::Skip) + self.get(Status::Xfail)
    }
    /// Cases never sent (given up on, or after the `--deadline`).
    pub fn not_run(&self) -> usize {
        self.get(Status::NotRun)
    }
    /// Adds other counts.
    pub fn merge(&mut self, other: &Counts) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
}

/// How much of the decode output an implementation gives, over the decode cases of one
/// encoding it answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Only validity (`result`, `valid` and/or `strict`) on some case.
    Validity,
    /// At least `lossy` on every case.
    Lossy,
    /// Every span's offset and length, not always its kind (`spans`), on every case.
    Spans,
    /// The full event list (`output`) on every case.
    Events,
}

/// The level reached by one implementation on one encoding's decode cases, or what it
/// answered on another operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// The encoding.
    pub encoding: Encoding,
    /// The operation.
    pub op: Op,
    /// Cases answered (not skipped, crashed, …).
    pub answered: usize,
    /// Cases of this encoding and operation in the run.
    pub total: usize,
    /// Decode: the level reached on every answered case.
    pub level: Option<Level>,
    /// Decode: the first error's position (`strict` or `output`) on every answered case.
    pub strict: bool,
    /// The fields answered on at least one case.
    pub fields: Vec<&'static str>,
}

impl Coverage {
    /// A short description: `full events`, `lossy + strict`, `validity`, or the fields.
    pub fn describe(&self) -> String {
        match self.level {
            Some(Level::Events) => "full events".into(),
            Some(Level::Spans) => "spans".into(),
            Some(Level::Lossy) if self.strict => "lossy + strict".into(),
            Some(Level::Lossy) => "lossy".into(),
            Some(Level::Validity) if self.strict => "validity + strict".into(),
            Some(Level::Validity) => "validity".into(),
            None if self.answered == 0 => "not answered".into(),
            None => self.fields.join(" + "),
        }
    }
}

/// Everything one implementation did.
#[derive(Clone, Debug)]
pub struct ImplResult {
    /// Its name.
    pub name: String,
    /// Its description (an adapter's command).
    pub describe: String,
    /// One result per case of [`RunReport::suite`], in the same order.
    pub results: Vec<CaseResult>,
    /// Wall time.
    pub elapsed: Duration,
    /// When it gave up after too many crashes in a row: the index of the first case not
    /// sent.
    pub gave_up_at: Option<usize>,
    /// What its handshake declared.
    pub declared: Declared,
    /// The batches it was sent.
    pub batches: Batches,
}

impl ImplResult {
    /// Counts over all cases, or over one file's.
    pub fn counts(&self, suite: &Suite, file: Option<usize>) -> Counts {
        let mut c = Counts::default();
        for (case, r) in suite.cases.iter().zip(&self.results) {
            if !r.not_applicable && file.is_none_or(|f| f == case.file) {
                c.add(r.status);
            }
        }
        c
    }

    /// Chunked variants (`--splits`): how many were sent, and how many were not
    /// applicable (no streaming declared).
    pub fn chunked(&self, suite: &Suite) -> (usize, usize) {
        let (mut ran, mut not_applicable) = (0, 0);
        for (case, r) in suite.cases.iter().zip(&self.results) {
            if case.chunking.is_some() {
                if r.not_applicable {
                    not_applicable += 1;
                } else {
                    ran += 1;
                }
            }
        }
        (ran, not_applicable)
    }

    /// What it answered, per encoding and operation (in order of first appearance).
    pub fn coverage(&self, suite: &Suite) -> Vec<Coverage> {
        let mut out: Vec<Coverage> = Vec::new();
        // Chunked variants answer fewer fields (what a streaming decoder gives): the
        // levels are those of the whole-input cases. Cases not sent (not applicable) are
        // no part of what was answered.
        for (case, r) in suite.cases.iter().zip(&self.results) {
            if case.chunking.is_some() || r.not_applicable {
                continue;
            }
            let i = match out
                .iter()
                .position(|c| c.encoding == case.encoding && c.op == case.op())
            {
                Some(i) => i,
                None => {
                    out.push(Coverage {
                        encoding: case.encoding,
                        op: case.op(),
                        answered: 0,
                        total: 0,
                        level: None,
                        strict: true,
                        fields: vec![],
                    });
                    out.len() - 1
                }
            };
            let c = &mut out[i];
            c.total += 1;
            if r.checked.is_empty() {
                continue;
            }
            c.answered += 1;
            for f in &r.checked {
                if !c.fields.contains(f) {
                    c.fields.push(f);
                }
            }
            if case.op() == Op::Decode {
                let has = |f: &str| r.checked.contains(&f);
                let level = if has("output") {
                    Level::Events
                } else if has("spans") {
                    Level::Spans
                } else if has("lossy") {
                    Level::Lossy
                } else {
                    Level::Validity
                };
                c.level = Some(c.level.map_or(level, |l| l.min(level)));
                c.strict &= has("output") || has("spans") || has("strict");
            }
        }
        for c in &mut out {
            if c.level.is_none() {
                c.strict = false;
            }
        }
        out
    }
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The cases.
    pub suite: Suite,
    /// The implementations, in command-line order.
    pub implementations: Vec<ImplResult>,
    /// The expected failures applied.
    pub expected_failures: ExpectedFailures,
    /// Expected-failure entries that matched no case of this run.
    pub unmatched_expected: Vec<(String, String)>,
    /// The per-case timeout.
    pub timeout: Duration,
    /// Why the gate's floor was not met (empty: met): an implementation answered less
    /// than it declared, declared nothing, or missed a `--require`.
    pub gate: Vec<String>,
}

impl RunReport {
    /// Counts over every implementation.
    pub fn totals(&self) -> Counts {
        let mut t = Counts::default();
        for i in &self.implementations {
            t.merge(&i.counts(&self.suite, None));
        }
        t
    }

    /// The outcomes a table shows: all but `not-run` when no case was left unrun (so that
    /// a run that ran everything keeps the columns it always had).
    pub fn columns(&self) -> Vec<Status> {
        let any_not_run = self.totals().not_run() > 0;
        Status::ALL
            .into_iter()
            .filter(|&s| s != Status::NotRun || any_not_run)
            .collect()
    }

    /// [`EXIT_OK`] or [`EXIT_FAILED`]: OK only when nothing failed, nothing was left
    /// unrun and the gate's floor was met (which includes: every implementation had a
    /// case checked of every encoding and operation it declared that the vectors test).
    pub fn exit_code(&self) -> i32 {
        let t = self.totals();
        if t.failed() == 0 && t.not_run() == 0 && self.gate.is_empty() {
            EXIT_OK
        } else {
            EXIT_FAILED
        }
    }

    /// The closing line: `N passed, M failed` and `, K skipped` when some were.
    pub fn summary_line(&self) -> String {
        let t = self.totals();
        let mut s = format!("{} passed, {} failed", t.passed(), t.failed());
        if t.skipped() > 0 {
            s.push_str(&format!(", {} skipped", t.skipped()));
        }
        if t.not_run() > 0 {
            s.push_str(&format!(", {} not run", t.not_run()));
        }
        if !self.gate.is_empty() {
            s.push_str(&format!("; gate not met ({})", self.gate.len()));
        }
        s
    }
}
