//! `conformance run`: the vectors against the reference codec or any implementation that
//! speaks the line protocol, with terminal, JSON, JUnit and HTML reports.
//!
//! * [`suite`]: loading vector files into cases (a malformed file stops everything: exit 2).
//! * [`reference`](mod@reference): the built-in implementation `reference` (the codec crate).
//! * [`adapter`]: external implementations: process, protocol, timeouts, restarts.
//! * [`outcome`]: what the runner returns: answers, statuses, counts, the report.
//! * [`verdict`]: one response against its vector.
//! * [`expected`]: the known failures of `--expected-failures`.
//! * [`report`]: the terminal report and the `--json`, `--junit`, `--html` files.
//!
//! The library entry points are [`execute`] (run and return a [`RunReport`]) and [`run()`]
//! (what the `run` subcommand does, returning the exit code).

pub mod adapter;
pub mod expected;
pub mod outcome;
pub mod reference;
pub mod report;
pub mod suite;
pub mod verdict;

use expected::ExpectedFailures;
pub use outcome::{
    Answer, CaseResult, Counts, Coverage, ImplResult, Implementation, Level, RunReport, Status,
    UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use suite::{Case, Suite};
use verdict::Verdict;

/// The arguments of `conformance run`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 every checked case passed; 1 a case failed, crashed, \
timed out, broke the protocol or passed unexpectedly; 2 bad usage or an unreadable or \
malformed vector file (nothing run). See conformance/README.md."
)]
pub struct RunArgs {
    /// A vector file or folder (searched recursively for *.json, *.schema.json excluded);
    /// repeatable. Default: the project's vectors/.
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
    let default_root = crate::vectors::default_dir();
    let sources = if args.vectors.is_empty() {
        vec![default_root.clone()]
    } else {
        args.vectors.clone()
    };
    let suite = suite::load(&sources, &args.encodings, &default_root)?;

    let mut implementations: Vec<Box<dyn Implementation>> = Vec::new();
    if args.adapters.is_empty() || args.reference {
        implementations.push(Box::new(reference::Reference));
    }
    if !args.adapters.is_empty() {
        adapter::kill_adapters_on_signal();
    }
    for (name, command) in &args.adapters {
        implementations.push(Box::new(adapter::Adapter::new(name, command, args.timeout)));
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
    Ok(RunReport {
        implementations: results,
        unmatched_expected,
        expected_failures,
        timeout: args.timeout,
        suite,
    })
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
            },
            None => judge(case, imp.answer(case)),
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
    drop(imp); // ends an adapter's process before the report is written
    ImplResult {
        name,
        describe,
        results,
        elapsed: start.elapsed(),
        gave_up_at: gave_up_at.filter(|&i| i < suite.cases.len()),
    }
}

/// Turns an answer into a result (expected failures not applied yet).
pub fn judge(case: &Case, answer: Answer) -> CaseResult {
    let (raw, checked, mismatches, message) = match answer {
        Answer::Response(obj) => match verdict::verdict(case, &obj) {
            Verdict::Pass { checked } => (Status::Pass, checked, vec![], None),
            Verdict::Fail {
                checked,
                mismatches,
            } => (Status::Fail, checked, mismatches, None),
            Verdict::Skip { reason } => (Status::Skip, vec![], vec![], Some(reason)),
            Verdict::Protocol { message } => (Status::Protocol, vec![], vec![], Some(message)),
        },
        Answer::Crash(m) => (Status::Crash, vec![], vec![], Some(m)),
        Answer::Timeout(t) => (
            Status::Timeout,
            vec![],
            vec![],
            Some(format!("no answer within {} s; killed", t.as_secs_f64())),
        ),
        Answer::Protocol(m) => (Status::Protocol, vec![], vec![], Some(m)),
    };
    CaseResult {
        status: raw,
        raw,
        checked,
        mismatches,
        message,
        expected_failure: None,
    }
}

/// What `conformance run` does: run, print the terminal report, write the report files;
/// returns the exit code.
pub fn run(args: &RunArgs) -> ExitCode {
    ExitCode::from(run_code(args) as u8)
}

/// [`run()`]'s exit code as a number ([`EXIT_OK`], [`EXIT_FAILED`], [`EXIT_USAGE`]).
fn run_code(args: &RunArgs) -> i32 {
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
