//! `conformance run`: the vectors against the reference codec or any implementation that
//! speaks the line protocol, with terminal, JSON, JUnit and HTML reports.
//!
//! * [`suite`]: loading vector files into cases (a malformed file stops everything: exit 2);
//!   [`embedded`]: the vector files built into the binary, the default.
//! * [`handshake`]: protocol 2's hello, the declaration, `--require`: the gate's floor.
//! * [`reference`]: the built-in implementation `reference` (the codec crate).
//! * [`adapter`]: external implementations: process, protocol, timeouts, restarts.
//! * [`check`]: one response against its vector.
//! * [`expected`]: the known failures of `--expected-failures`.
//! * [`report`]: the terminal report and the `--json`, `--junit`, `--html` files.
//!
//! The library entry points are [`execute`] (run and return a [`RunReport`]) and [`main`]
//! (what the `run` subcommand does, returning the exit code).

pub mod adapter;
pub mod check;
pub mod embedded;
pub mod expected;
pub mod handshake;
pub mod reference;
pub mod report;
pub mod suite;

use check::{Mismatch, Verdict};
use expected::ExpectedFailures;
use handshake::{Declared, Requirement, Support};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use suite::{Case, LoadError, Suite};

/// Exit code: every checked case passed.
pub const EXIT_OK: i32 = 0;
/// Exit code: a case failed, crashed, timed out, broke the protocol, or passed unexpectedly;
/// or the gate's floor was not met (see [`RunReport::gate`]).
pub const EXIT_FAILED: i32 = 1;
/// Exit code: bad usage, an unreadable or malformed vector (or expected-failures) file, no
/// vectors at all, or a report file that cannot be written.
pub const EXIT_USAGE: i32 = 2;

/// The arguments of `conformance run`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 every checked case passed and the gate's floor was met; 1 a \
case failed, crashed, timed out, broke the protocol or passed unexpectedly, or an adapter \
answered less than it declared, declared nothing that the vectors test, or missed a \
--require; 2 bad usage, an unreadable or malformed vector file, no vectors at all (nothing \
run), or a report file that cannot be written. Killed by a signal: the shell's 128+N. \
See docs/gating.md and conformance/README.md."
)]
pub struct RunArgs {
    /// A vector file or folder (searched recursively for *.json, *.schema.json excluded);
    /// repeatable. Default: the vectors embedded in this binary at build time.
    #[arg(long = "vectors", value_name = "PATH")]
    pub vectors: Vec<PathBuf>,

    /// Only files of this encoding; repeatable.
    #[arg(long = "encoding", value_name = "E",
          value_parser = clap::builder::PossibleValuesParser::new(suite::ENCODINGS))]
    pub encodings: Vec<String>,

    /// An external implementation: NAME=COMMAND, run once through `sh -c COMMAND`,
    /// speaking the line protocol of conformance/adapters/README.md; repeatable. With
    /// adapters, the reference runs only if --reference is given too.
    #[arg(long = "adapter", value_name = "NAME=COMMAND", value_parser = parse_adapter)]
    pub adapters: Vec<(String, String)>,

    /// Also run the built-in reference codec when adapters are given.
    #[arg(long)]
    pub reference: bool,

    /// Seconds an adapter may take to answer one case before it is killed and restarted.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    pub timeout: Duration,

    /// Seconds an adapter may take to start and answer the hello (the handshake), after
    /// every start; the per-case --timeout starts after it.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_secs)]
    pub startup_timeout: Duration,

    /// The longest answer line an adapter may write, in bytes; a longer one is a protocol
    /// error (and is read no further).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE)]
    pub max_line_bytes: usize,

    /// ENCODING:OP[:FIELD,…]: every implementation must answer every case of ENCODING
    /// and OP with these fields (levels: events, lossy, strict, validity), and declare
    /// them when it speaks protocol 2; repeatable. Exit 1 otherwise.
    #[arg(long = "require", value_name = "ENCODING:OP[:FIELD,…]",
          value_parser = handshake::parse_requirement)]
    pub require: Vec<Requirement>,

    /// Let an adapter that declares nothing (protocol 1) pass without --require.
    #[arg(long)]
    pub allow_undeclared: bool,

    /// Stop sending cases to an adapter after this many crashes, timeouts or protocol
    /// errors in a row (the rest count as crashes); 0 never gives up.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub give_up_after: usize,

    /// JSON file of known failures: {"NAME": {"FILE#TCID": "reason", ...}, ...}.
    #[arg(long, value_name = "FILE")]
    pub expected_failures: Option<PathBuf>,

    /// Write the machine-readable report here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write a JUnit XML report here (a testsuite per implementation and file).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Write a self-contained HTML page here: the vectors x implementations matrix.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// The default of `--max-line-bytes`: 16 MiB, far above any vector's answer.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

impl Default for RunArgs {
    /// The defaults of the command line: embedded vectors, the reference, no reports.
    fn default() -> Self {
        RunArgs {
            vectors: vec![],
            encodings: vec![],
            adapters: vec![],
            reference: false,
            timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(60),
            max_line_bytes: DEFAULT_MAX_LINE,
            require: vec![],
            allow_undeclared: false,
            give_up_after: 10,
            expected_failures: None,
            json: None,
            junit: None,
            html: None,
        }
    }
}

fn parse_adapter(s: &str) -> Result<(String, String), String> {
    let (name, command) = s
        .split_once('=')
        .ok_or_else(|| "expected NAME=COMMAND".to_string())?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(format!(
            "bad name {name:?}: use letters, digits, '-', '_' and '.'"
        ));
    }
    if command.trim().is_empty() {
        return Err("empty COMMAND".into());
    }
    Ok((name.to_string(), command.to_string()))
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err("must be more than 0 and at most 86400".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// What an implementation answered to one case, before checking.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A JSON object whose `id` is the request's.
    Response(Map<String, Value>),
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
    /// What its handshake declared (known once it has started).
    fn declared(&self) -> Declared;
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
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 8] = [
        Status::Pass,
        Status::Fail,
        Status::Crash,
        Status::Timeout,
        Status::Protocol,
        Status::Skip,
        Status::Xfail,
        Status::Xpass,
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
}

/// Counts of statuses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts(pub [usize; 8]);

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
    /// Only validity (`valid` and/or `strict`) on some case.
    Validity,
    /// At least `lossy` on every case.
    Lossy,
    /// The full event list (`output`) on every case.
    Events,
}

/// The level reached by one implementation on one encoding's decode cases, or what it
/// answered on another operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// The encoding.
    pub encoding: String,
    /// The operation.
    pub op: String,
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
}

impl ImplResult {
    /// Counts over all cases, or over one file's.
    pub fn counts(&self, suite: &Suite, file: Option<usize>) -> Counts {
        let mut c = Counts::default();
        for (case, r) in suite.cases.iter().zip(&self.results) {
            if file.is_none_or(|f| f == case.file) {
                c.add(r.status);
            }
        }
        c
    }

    /// What it answered, per encoding and operation (in order of first appearance).
    pub fn coverage(&self, suite: &Suite) -> Vec<Coverage> {
        let mut out: Vec<Coverage> = Vec::new();
        for (case, r) in suite.cases.iter().zip(&self.results) {
            let i = match out
                .iter()
                .position(|c| c.encoding == case.encoding && c.op == case.op())
            {
                Some(i) => i,
                None => {
                    out.push(Coverage {
                        encoding: case.encoding.clone(),
                        op: case.op().into(),
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
            if case.op() == "decode" {
                let has = |f: &str| r.checked.contains(&f);
                let level = if has("output") {
                    Level::Events
                } else if has("lossy") {
                    Level::Lossy
                } else {
                    Level::Validity
                };
                c.level = Some(c.level.map_or(level, |l| l.min(level)));
                c.strict &= has("output") || has("strict");
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

    /// [`EXIT_OK`] or [`EXIT_FAILED`].
    pub fn exit_code(&self) -> i32 {
        if self.totals().failed() == 0 && self.gate.is_empty() {
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
        if !self.gate.is_empty() {
            s.push_str(&format!("; gate not met ({})", self.gate.len()));
        }
        s
    }
}

/// A usage error or an unusable input file: exit code 2, nothing run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<LoadError> for UsageError {
    fn from(e: LoadError) -> Self {
        UsageError(e.to_string())
    }
}

/// Loads the vectors and the expected failures, runs every implementation (each in a
/// thread of its own), and returns the results. Writes nothing.
pub fn execute(args: &RunArgs) -> Result<RunReport, UsageError> {
    let mut names = BTreeSet::new();
    for (name, _) in &args.adapters {
        if name == "reference" {
            return Err(UsageError(
                "the adapter name `reference` is taken by the built-in codec (use --reference)"
                    .into(),
            ));
        }
        if !names.insert(name.as_str()) {
            return Err(UsageError(format!("two adapters are named {name:?}")));
        }
    }
    let expected_failures = match &args.expected_failures {
        Some(path) => ExpectedFailures::load(path)?,
        None => ExpectedFailures::default(),
    };
    let suite = if args.vectors.is_empty() {
        suite::load_embedded(&args.encodings)?
    } else {
        suite::load(
            &args.vectors,
            &args.encodings,
            &crate::vectors::default_dir(),
        )?
    };
    if suite.cases.is_empty() {
        return Err(UsageError(
            if suite.files.is_empty() && args.encodings.is_empty() {
                "no vector file found: nothing to gate on (give --vectors a file or a folder \
             holding *.json vector files)"
                    .into()
            } else {
                "no vector case selected: nothing to gate on (check --vectors and --encoding)"
                    .into()
            },
        ));
    }

    let mut implementations: Vec<Box<dyn Implementation>> = Vec::new();
    if args.adapters.is_empty() || args.reference {
        implementations.push(Box::new(reference::Reference));
    }
    if !args.adapters.is_empty() {
        adapter::kill_adapters_on_signal();
    }
    for (name, command) in &args.adapters {
        let limits = adapter::Limits {
            timeout: args.timeout,
            startup_timeout: args.startup_timeout,
            max_line: args.max_line_bytes,
        };
        implementations.push(Box::new(adapter::Adapter::new(name, command, limits)));
    }

    let results: Vec<ImplResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = implementations
            .into_iter()
            .map(|imp| {
                let suite = &suite;
                let xf = &expected_failures;
                let give_up = args.give_up_after;
                scope.spawn(move || run_one(imp, suite, xf, give_up))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an implementation's thread panicked"))
            .collect()
    });

    let ran: Vec<&str> = results.iter().map(|r| r.name.as_str()).collect();
    let ids: BTreeSet<&str> = suite.cases.iter().map(|c| c.id.as_str()).collect();
    let unmatched_expected = expected_failures.unmatched(&ran, &ids);
    let gate = gate(&suite, &results, args);
    Ok(RunReport {
        implementations: results,
        unmatched_expected,
        expected_failures,
        timeout: args.timeout,
        suite,
        gate,
    })
}

/// The gate's floor: what makes a run fail though no case did.
fn gate(suite: &Suite, results: &[ImplResult], args: &RunArgs) -> Vec<String> {
    let mut problems = Vec::new();
    let tested: BTreeSet<(&str, &str)> = suite
        .cases
        .iter()
        .map(|c| (c.encoding.as_str(), c.op()))
        .collect();
    for imp in results {
        let name = &imp.name;
        match &imp.declared {
            Declared::Protocol2(d) => {
                if !d
                    .supports
                    .iter()
                    .any(|s| tested.contains(&(s.encoding.as_str(), s.op.as_str())))
                {
                    problems.push(format!(
                        "[{name}] declared nothing that these vectors test (declared: {}; \
                         tested: {})",
                        describe_supports(&d.supports),
                        tested
                            .iter()
                            .map(|(e, o)| format!("{e} {o}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                // Cases that answered less than declared, per encoding, op and shortfall.
                let mut short: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
                for (case, r) in suite.cases.iter().zip(&imp.results) {
                    if let (Some(what), true) = (&r.undeclared, r.status.is_failure()) {
                        short.entry(what).or_insert((0, &case.id)).0 += 1;
                    }
                }
                for (what, (n, first)) in short {
                    problems.push(format!(
                        "[{name}] answered less than it declared: {what} on {n} case(s) \
                         (first: {first})"
                    ));
                }
            }
            Declared::Protocol1 | Declared::Unknown
                if args.require.is_empty() && !args.allow_undeclared =>
            {
                let how = if imp.declared == Declared::Protocol1 {
                    "declared nothing (protocol 1)"
                } else {
                    "never completed the handshake, so declared nothing"
                };
                problems.push(format!(
                    "[{name}] {how}: skipped cases could hide a regression. Add a handshake \
                     (protocol 2, conformance/adapters/README.md) or pass --require \
                     ENCODING:OP[:FIELD,…] (or --allow-undeclared)"
                ));
            }
            _ => {}
        }
        for req in &args.require {
            let cases: Vec<(&Case, &CaseResult)> = suite
                .cases
                .iter()
                .zip(&imp.results)
                .filter(|(c, _)| c.encoding == req.encoding && c.op() == req.op)
                .collect();
            if cases.is_empty() {
                continue; // said once below, not per implementation
            }
            if let Some(d) = imp.declared.declaration() {
                let declared = d.fields(&req.encoding, &req.op);
                let missing: Vec<&String> = req
                    .fields
                    .iter()
                    .filter(|f| declared.is_none_or(|d| !d.contains(f)))
                    .collect();
                if declared.is_none() {
                    problems.push(format!("[{name}] --require {req}: not declared"));
                } else if !missing.is_empty() {
                    problems.push(format!(
                        "[{name}] --require {req}: declared without {}",
                        missing
                            .iter()
                            .map(|f| f.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            let short: Vec<&Case> = cases
                .iter()
                .filter(|(_, r)| {
                    !matches!(r.raw, Status::Pass | Status::Fail)
                        || req
                            .fields
                            .iter()
                            .any(|f| !handshake::has_answered(&req.op, f, &r.answered))
                })
                .map(|(c, _)| *c)
                .collect();
            if let Some(first) = short.first() {
                problems.push(format!(
                    "[{name}] --require {req}: {} of {} case(s) not answered{} (first: {})",
                    short.len(),
                    cases.len(),
                    if req.fields.is_empty() {
                        String::new()
                    } else {
                        format!(" with {}", req.fields.join(", "))
                    },
                    first.id
                ));
            }
        }
    }
    for req in &args.require {
        if !tested.contains(&(req.encoding.as_str(), req.op.as_str())) {
            problems.push(format!(
                "--require {req}: no vector of this run tests {} {}",
                req.encoding, req.op
            ));
        }
    }
    problems
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

/// Runs every case through one implementation.
fn run_one(
    mut imp: Box<dyn Implementation>,
    suite: &Suite,
    xf: &ExpectedFailures,
    give_up_after: usize,
) -> ImplResult {
    let start = Instant::now();
    let name = imp.name().to_string();
    let mut results = Vec::with_capacity(suite.cases.len());
    let mut in_a_row = 0;
    let mut gave_up_at = None;
    let mut last_progress = Instant::now();
    for (i, case) in suite.cases.iter().enumerate() {
        let mut r = match gave_up_at {
            Some(_) => CaseResult {
                status: Status::Crash,
                raw: Status::Crash,
                checked: vec![],
                mismatches: vec![],
                message: Some(format!(
                    "not sent: gave up on the adapter after {give_up_after} crashes, timeouts \
                     or protocol errors in a row"
                )),
                expected_failure: None,
                answered: vec![],
                undeclared: None,
            },
            None => {
                let answer = imp.answer(case);
                let declared = imp.declared();
                let fields = declared
                    .declaration()
                    .and_then(|d| d.fields(&case.encoding, case.op()));
                let shortfall = match (&answer, fields) {
                    (Answer::Response(obj), Some(fields)) => {
                        if obj.get("unsupported") == Some(&serde_json::Value::Bool(true)) {
                            Some("answered `unsupported`".to_string())
                        } else {
                            let missing = handshake::missing_fields(case.op(), fields, obj);
                            (!missing.is_empty())
                                .then(|| format!("no `{}` in the answer", missing.join("`, `")))
                        }
                    }
                    _ => None,
                };
                let mut r = judge(case, answer);
                if let Some(what) = shortfall {
                    r.message = Some(format!(
                        "{what}, but the handshake declared {} {} with {}",
                        case.encoding,
                        case.op(),
                        fields.unwrap_or_default().join(", ")
                    ));
                    r.undeclared = Some(format!("{} {}: {what}", case.encoding, case.op()));
                    r.status = Status::Fail;
                    r.raw = Status::Fail;
                }
                r
            }
        };
        if matches!(r.raw, Status::Crash | Status::Timeout | Status::Protocol) {
            in_a_row += 1;
            if gave_up_at.is_none() && give_up_after > 0 && in_a_row >= give_up_after {
                gave_up_at = Some(i + 1);
            }
        } else {
            in_a_row = 0;
        }
        if let Some(reason) = xf.reason(&name, &case.id) {
            r.expected_failure = Some(reason.to_string());
            r.status = match r.raw {
                Status::Pass => Status::Xpass,
                Status::Skip => Status::Skip,
                _ => Status::Xfail,
            };
        }
        results.push(r);
        if last_progress.elapsed() > Duration::from_secs(10) {
            last_progress = Instant::now();
            eprintln!(
                "conformance run: {name}: {}/{} cases",
                i + 1,
                suite.cases.len()
            );
        }
    }
    let describe = imp.describe();
    let declared = imp.declared();
    drop(imp); // ends an adapter's process before the report is written
    ImplResult {
        name,
        describe,
        results,
        elapsed: start.elapsed(),
        gave_up_at: gave_up_at.filter(|&i| i < suite.cases.len()),
        declared,
    }
}

/// Turns an answer into a result (expected failures not applied yet).
pub fn judge(case: &Case, answer: Answer) -> CaseResult {
    let answered = match &answer {
        Answer::Response(obj) => {
            let mut keys: Vec<String> = obj.keys().filter(|k| *k != "id").cloned().collect();
            if obj.get("error").is_some_and(serde_json::Value::is_string) {
                keys.push("error-kind".into());
            }
            keys
        }
        _ => vec![],
    };
    let (raw, checked, mismatches, message) = match answer {
        Answer::Response(obj) => match check::check(case, &obj) {
            Verdict::Pass { checked } => (Status::Pass, checked, vec![], None),
            Verdict::Fail {
                checked,
                mismatches,
            } => (Status::Fail, checked, mismatches, None),
            Verdict::Skip { reason } => (Status::Skip, vec![], vec![], Some(reason)),
            Verdict::Protocol { message } => (Status::Protocol, vec![], vec![], Some(message)),
        },
        Answer::Crash(m) => (Status::Crash, vec![], vec![], Some(m)),
        Answer::Timeout(m) => (Status::Timeout, vec![], vec![], Some(m)),
        Answer::Protocol(m) => (Status::Protocol, vec![], vec![], Some(m)),
    };
    CaseResult {
        status: raw,
        raw,
        checked,
        mismatches,
        message,
        expected_failure: None,
        answered,
        undeclared: None,
    }
}

/// What `conformance run` does: run, print the terminal report, write the report files;
/// returns the exit code.
pub fn main(args: &RunArgs) -> i32 {
    // A report that cannot be written is found before the run, not after it.
    for (kind, path) in [
        ("json", &args.json),
        ("junit", &args.junit),
        ("html", &args.html),
    ] {
        if let Some(path) = path {
            if let Err(e) = std::fs::write(path, "") {
                eprintln!(
                    "conformance run: cannot write the {kind} report {}: {e}",
                    path.display()
                );
                return EXIT_USAGE;
            }
        }
    }
    let report = match execute(args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("conformance run: {e}");
            return EXIT_USAGE;
        }
    };
    let mut files: BTreeMap<&str, (&PathBuf, String)> = BTreeMap::new();
    if let Some(p) = &args.json {
        files.insert("json", (p, report::json::render(&report)));
    }
    if let Some(p) = &args.junit {
        files.insert("junit", (p, report::junit::render(&report)));
    }
    if let Some(p) = &args.html {
        files.insert("html", (p, report::html::render(&report)));
    }
    let mut written = Vec::new();
    for (kind, (path, text)) in &files {
        if let Err(e) = std::fs::write(path, text) {
            eprintln!(
                "conformance run: cannot write the {kind} report {}: {e}",
                path.display()
            );
            return EXIT_USAGE;
        }
        written.push(format!("{kind}: {}", path.display()));
    }
    let text = report::terminal::render(&report, &written);
    print!("{text}");
    report.exit_code()
}
