//! What a run returns: each implementation's results, their counts, and the gate: the
//! report the output formats render.

use crate::case::{Suite, Test};
use crate::exit::{EXIT_FAILED, EXIT_OK};
use crate::judge::{CaseResult, Status};
use crate::protocol::{Batches, Declared};
use crate::vectors::{Encoding, Op};
use std::path::PathBuf;
use std::time::Duration;

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

    /// String encode cases: how many were sent, and how many were not applicable (no
    /// `codepoints` declared for the encoding's encode).
    pub fn strings(&self, suite: &Suite) -> (usize, usize) {
        let (mut ran, mut not_applicable) = (0, 0);
        for (case, r) in suite.cases.iter().zip(&self.results) {
            if matches!(*case.test, Test::EncodeString(_)) {
                if r.not_applicable {
                    not_applicable += 1;
                } else {
                    ran += 1;
                }
            }
        }
        (ran, not_applicable)
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
    /// The expected-failures files applied (`--expected-failures`), in the order given.
    pub expected_failures_files: Vec<PathBuf>,
    /// Expected-failure entries that matched no case of this run.
    pub unmatched_expected: Vec<(String, String)>,
    /// The per-case timeout.
    pub timeout: Duration,
    /// Why the gate's floor was not met (empty: met): an implementation answered less
    /// than it declared, declared nothing, or missed a `--require`.
    pub gate: Vec<String>,
}

impl RunReport {
    /// The expected-failures files, comma-separated.
    pub fn describe_expected_failures_files(&self) -> String {
        self.expected_failures_files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

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
