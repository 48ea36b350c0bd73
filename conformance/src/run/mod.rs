//! `conformance run`: the vectors against the reference codec or any implementation that
//! speaks the line protocol, with terminal, JSON, JUnit and HTML reports.
//!
//! * [`suite`]: loading vector files into cases (a malformed file stops everything: exit 2);
//!   the vector files built into the binary (the default) and the rule for which files
//!   under a folder are vector files are the crate [`corrected_utf8_vectors`].
//! * [`handshake`]: protocol 2's hello, the declaration, `--require`: the gate's floor.
//! * [`reference`](mod@reference): the built-in implementation `reference` (the codec crate).
//! * [`adapter`]: external implementations: process, protocol, timeouts, restarts.
//! * [`outcome`]: what the runner returns: answers, statuses, counts, the report;
//!   [`raw`]: an answer as the JSON text it came as, read a field and an item at a time.
//! * [`verdict`]: one response against its vector; `judge`: an answer into a result
//!   ([`judge()`], [`judge_declared`]) and one implementation's tally over a suite;
//!   `gate`: the gate's floor (what fails a run though no case failed).
//! * [`expected`]: the known failures of `--expected-failures`.
//! * [`report`]: the terminal report and the `--json`, `--junit`, `--html` files.
//! * [`serve`]: `conformance serve`, the reference codec as an adapter (batches,
//!   streaming).
//!
//! The library entry points are [`execute`] (run and return a [`RunReport`]) and [`run()`]
//! (what the `run` subcommand does, returning the exit code).

pub mod adapter;
pub mod expected;
mod gate;
pub mod handshake;
mod judge;
pub mod outcome;
pub mod raw;
pub mod reference;
pub mod report;
pub mod serve;
pub mod suite;
pub mod verdict;

pub use crate::adapter_spec::parse_adapter;
pub use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::vectors::{encoding_parser, Encoding};
use expected::ExpectedFailures;
use handshake::Requirement;
pub use judge::{judge, judge_declared};
use judge::{run_cases, Deadline};
pub use outcome::{
    Answer, Batches, CaseResult, Counts, Coverage, ImplResult, Implementation, Level, RunReport,
    Status,
};
use report::output::Format;
use report::Listed;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use suite::Suite;

/// The arguments of `conformance run`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 every checked case passed, at least one case of every \
declared encoding and operation was checked, every case was run and the gate's floor was \
met; 1 a case failed, crashed, timed out, broke the protocol or passed unexpectedly, a \
case was not run (--give-up-after, --deadline), or an adapter answered less than it \
declared, declared nothing that the vectors test, had nothing checked, or missed a \
--require; 2 bad usage, an unreadable or malformed vector file, no vectors at all, a closed \
stdout or stderr, or a refused report path (an input, inside a --vectors folder, two \
reports on one path): nothing run; or, after the verdict is printed, a report file or \
stdout that cannot be written. Killed by a signal: the shell's 128+N. See docs/gating.md \
and conformance/README.md."
)]
pub struct RunArgs {
    /// A vector file or folder (searched recursively for *.json, *.schema.json excluded);
    /// repeatable. Default: the vectors embedded in this binary at build time.
    #[arg(long = "vectors", value_name = "PATH")]
    pub vectors: Vec<PathBuf>,

    /// Only files of this encoding; repeatable.
    #[arg(long = "encoding", value_name = "E",
          value_parser = encoding_parser())]
    pub encodings: Vec<Encoding>,

    /// An external implementation: NAME=COMMAND, run once through `sh -c COMMAND`,
    /// speaking the line protocol of conformance/adapters/README.md; repeatable. With
    /// adapters, the reference runs only if --reference is given too.
    #[arg(long = "adapter", value_name = "NAME=COMMAND", value_parser = parse_adapter)]
    pub adapters: Vec<(String, String)>,

    /// Also run the built-in reference codec when adapters are given.
    #[arg(long)]
    pub reference: bool,

    /// Seconds an adapter may take to answer one case before it is killed and restarted
    /// (more than 0, at most 86400).
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    pub timeout: Duration,

    /// Seconds an adapter may take to start and answer the hello (the handshake), after
    /// every start; the per-case --timeout starts after it.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_secs)]
    pub startup_timeout: Duration,

    /// Seconds the whole run may take: cases not answered by then are "not run", the
    /// gate fails and the reports are written (more than 0, at most 2592000, 30 days).
    /// Default: no deadline (the worst case is every case's --timeout, docs/gating.md).
    #[arg(long, value_name = "SECS", value_parser = parse_deadline)]
    pub deadline: Option<Duration>,

    /// The longest answer line an adapter may write, in bytes (1024 to 1073741824); a
    /// longer one is a protocol error (and is read no further).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE,
          value_parser = parse_max_line)]
    pub max_line_bytes: usize,

    /// [NAME=]ENCODING:OP[:FIELD,…]: every implementation (with NAME=, the one named
    /// NAME) must answer every case of ENCODING and OP with these fields (levels: events,
    /// lossy, strict, validity), and declare them when it speaks protocol 2; repeatable.
    /// Exit 1 otherwise.
    #[arg(long = "require", value_name = "[NAME=]ENCODING:OP[:FIELD,…]",
          value_parser = handshake::parse_requirement)]
    pub require: Vec<Requirement>,

    /// Let an adapter that declares nothing (protocol 1) pass without --require.
    #[arg(long)]
    pub allow_undeclared: bool,

    /// Stop sending cases to an adapter after this many crashes, timeouts or protocol
    /// errors in a row (the rest are "not run", and the gate fails); 0 never gives up
    /// (at most 1000000).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = bounded_usize::<0, 1_000_000>)]
    pub give_up_after: usize,

    /// Also check every decode and document case fed in chunks, through the
    /// implementation's streaming decoder: split at every point (two chunks) and byte by
    /// byte, ids FILE#TCID@split=N and FILE#TCID@bytes, expecting the vector's own answer.
    /// Sent to the reference and to adapters declaring "streaming": true (others: not
    /// applicable, counted apart).
    #[arg(long)]
    pub splits: bool,

    /// Also check every decode case with the first 1 to 64 bytes of a fixed ASCII text in
    /// front, ids FILE#TCID@ascii=K, expecting the vector's answer K bytes later (their K
    /// code points first): a block boundary then falls inside every sequence and error
    /// span, where a decoder that works a block at a time goes wrong. Sent to every
    /// implementation.
    #[arg(long)]
    pub ascii_prefixes: bool,

    /// JSON file of known failures: {"NAME": {"FILE#TCID": "reason", ...}, ...};
    /// repeatable (merged; the same NAME and case in two files is an error).
    #[arg(long, value_name = "FILE")]
    pub expected_failures: Vec<PathBuf>,

    /// The most cases in one batch request to an adapter whose hello declares "batch"
    /// (its own number is the ceiling); 1: one case per line (at most 65536).
    #[arg(long, value_name = "N", default_value_t = adapter::DEFAULT_BATCH_SIZE,
          value_parser = bounded_usize::<1, { handshake::MAX_BATCH }>)]
    pub batch_size: usize,

    /// Measure instead of report: run the cases through each implementation in turn,
    /// again and again for SECS seconds after a first pass that starts it, and print
    /// its round-trip rate (cases/s, judging included). No report; exit 0 unless
    /// nothing could be loaded. See conformance/adapters/README.md, "Throughput".
    #[arg(long, value_name = "SECS", value_parser = parse_secs, hide = true)]
    pub bench: Option<Duration>,

    /// Write the machine-readable report here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Write a JUnit XML report here (a testsuite per implementation and file).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Write a self-contained HTML page here: the vectors x implementations matrix.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// List every case in the --json, --junit and --html reports. By default they list
    /// failures (and expected failures) one by one and passes and skips as counts.
    #[arg(long)]
    pub report_all: bool,
}

/// The default of `--max-line-bytes`: 16 MiB, far above any vector's answer.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// The range of `--max-line-bytes` (and `serve --max-line-bytes`): at least a hello's
/// answer, at most 1 GiB (an answer in flight costs about its line).
pub const MAX_LINE_RANGE: std::ops::RangeInclusive<usize> = 1024..=1 << 30;

/// The longest `--deadline`: 30 days.
pub const MAX_DEADLINE_SECS: f64 = 30.0 * 86_400.0;

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
            deadline: None,
            max_line_bytes: DEFAULT_MAX_LINE,
            require: vec![],
            allow_undeclared: false,
            give_up_after: 10,
            splits: false,
            ascii_prefixes: false,
            expected_failures: vec![],
            batch_size: adapter::DEFAULT_BATCH_SIZE,
            bench: None,
            json: None,
            junit: None,
            html: None,
            report_all: false,
        }
    }
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    secs_up_to(s, 86_400.0)
}

fn parse_deadline(s: &str) -> Result<Duration, String> {
    secs_up_to(s, MAX_DEADLINE_SECS)
}

/// A number of seconds, more than 0 and at most `max`.
fn secs_up_to(s: &str, max: f64) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    if !(secs > 0.0 && secs <= max) {
        return Err(format!("must be more than 0 and at most {max}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A whole number from `MIN` to `MAX` (checked before it is used anywhere).
pub(crate) fn bounded_usize<const MIN: usize, const MAX: usize>(s: &str) -> Result<usize, String> {
    match s.parse::<u64>() {
        Ok(n) if (MIN as u64..=MAX as u64).contains(&n) => Ok(n as usize),
        Ok(_) | Err(_) => Err(format!("not a whole number from {MIN} to {MAX}: {s:?}")),
    }
}

/// `--max-line-bytes`: within [`MAX_LINE_RANGE`].
pub(crate) fn parse_max_line(s: &str) -> Result<usize, String> {
    bounded_usize::<{ *MAX_LINE_RANGE.start() }, { *MAX_LINE_RANGE.end() }>(s)
}

/// Loads the vectors and the expected failures, runs every implementation (each in a
/// thread of its own), and returns the results. Writes nothing.
pub fn execute(args: &RunArgs) -> Result<RunReport, UsageError> {
    let deadline = args.deadline.map(|secs| Deadline {
        at: Instant::now() + secs,
        secs,
    });
    let (suite, expected_failures, implementations) = prepare(args, deadline)?;
    let results: Vec<ImplResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = implementations
            .into_iter()
            .map(|imp| {
                let suite = &suite;
                let xf = &expected_failures;
                let give_up = args.give_up_after;
                scope.spawn(move || run_one(imp, suite, xf, give_up, deadline))
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
    let gate = gate::gate(&suite, &results, args);
    Ok(RunReport {
        implementations: results,
        unmatched_expected,
        expected_failures,
        timeout: args.timeout,
        suite,
        gate,
    })
}

/// The implementations of a run.
type Implementations = Vec<Box<dyn Implementation>>;

/// The suite, the expected failures and the implementations of a run (none started).
fn prepare(
    args: &RunArgs,
    deadline: Option<Deadline>,
) -> Result<(Suite, ExpectedFailures, Implementations), UsageError> {
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
    let with_reference = args.adapters.is_empty() || args.reference;
    for req in &args.require {
        if let Some(name) = &req.implementation {
            if !(names.contains(name.as_str()) || with_reference && name == "reference") {
                return Err(UsageError(format!(
                    "--require {req}: no implementation of this run is named {name:?} (names: {})",
                    with_reference
                        .then_some("reference")
                        .into_iter()
                        .chain(names.iter().copied())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
    }
    let expected_failures = ExpectedFailures::load_all(&args.expected_failures)?;
    let mut suite = if args.vectors.is_empty() {
        suite::load_embedded(&args.encodings)?
    } else {
        suite::load(
            &args.vectors,
            &args.encodings,
            &crate::vectors::default_dir(),
        )?
    };
    if args.splits {
        suite.add_splits();
    }
    if args.ascii_prefixes {
        suite.add_ascii_prefixes();
    }
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
    if with_reference {
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
        implementations.push(Box::new(
            adapter::Adapter::new(name, command, limits)
                .with_batch_size(args.batch_size)
                .with_deadline(deadline.map(|d| d.at)),
        ));
    }

    Ok((suite, expected_failures, implementations))
}

/// Runs every case through one implementation, then ends it.
fn run_one(
    mut imp: Box<dyn Implementation>,
    suite: &Suite,
    xf: &ExpectedFailures,
    give_up_after: usize,
    deadline: Option<Deadline>,
) -> ImplResult {
    let start = Instant::now();
    let tally = run_cases(imp.as_mut(), suite, xf, give_up_after, deadline);
    let describe = imp.describe();
    let declared = imp.declared();
    let batches = imp.batches();
    drop(imp); // ends an adapter's process before the report is written
    ImplResult {
        name: tally.name,
        describe,
        results: tally.results,
        elapsed: start.elapsed(),
        gave_up_at: tally.gave_up_at.filter(|&i| i < suite.cases.len()),
        declared,
        batches,
    }
}

/// What `conformance run` does: run, print the terminal report, write the report files.
pub fn run(args: &RunArgs) -> ExitCode {
    ExitCode::from(run_code(args) as u8)
}

/// `--bench SECS`: each implementation's round-trip rate over the selected cases.
fn bench(args: &RunArgs, secs: Duration) -> i32 {
    let (suite, xf, implementations) = match prepare(args, None) {
        Ok(p) => p,
        Err(e) => {
            crate::errln!("conformance run: {e}");
            return EXIT_USAGE;
        }
    };
    for mut imp in implementations {
        // The first pass starts the adapter and shakes hands: outside the timing.
        let first = run_cases(imp.as_mut(), &suite, &xf, args.give_up_after, None);
        let failed = first
            .results
            .iter()
            .filter(|r| r.status.is_failure())
            .count();
        let start = Instant::now();
        let mut cases = 0;
        while start.elapsed() < secs {
            run_cases(imp.as_mut(), &suite, &xf, args.give_up_after, None);
            cases += suite.cases.len();
        }
        let elapsed = start.elapsed().as_secs_f64();
        let declared = imp.declared();
        let how = match declared.declaration().and_then(|d| d.batch) {
            Some(n) if args.batch_size > 1 && imp.batches().sent > 0 => {
                format!("batches of up to {}", n.min(args.batch_size))
            }
            _ => "one case per line".to_string(),
        };
        crate::outln!(
            "{}: {:.0} cases/s ({cases} cases in {elapsed:.2} s, {how}; {failed} of {} \
             failed in the first pass)",
            imp.name(),
            cases as f64 / elapsed,
            suite.cases.len()
        );
    }
    EXIT_OK
}

fn run_code(args: &RunArgs) -> i32 {
    if let Some(secs) = args.bench {
        return bench(args, secs);
    }
    // The report paths are checked before anything runs (none is touched).
    let outputs = match report::output::plan(
        &[
            (Format::Json, args.json.as_ref()),
            (Format::Junit, args.junit.as_ref()),
            (Format::Html, args.html.as_ref()),
        ],
        &report::output::Inputs {
            vectors: &args.vectors,
            expected_failures: &args.expected_failures,
        },
    ) {
        Ok(o) => o,
        Err(e) => {
            crate::errln!("conformance run: {e}");
            return EXIT_USAGE;
        }
    };
    let report = match execute(args) {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("conformance run: {e}");
            return EXIT_USAGE;
        }
    };
    // The verdict first, whatever happens to the files.
    crate::out!("{}", report::terminal::render(&report, &[]));
    let listed = if args.report_all {
        Listed::All
    } else {
        Listed::Failures
    };
    let mut code = report.exit_code();
    for output in &outputs {
        let written = output.write(|w| match output.format {
            Format::Json => report::json::write(&report, listed, w),
            Format::Junit => report::junit::write(&report, listed, w),
            Format::Html => report::html::write(&report, listed, w),
        });
        match written {
            Ok(()) => crate::errln!(
                "conformance run: {} report written: {}",
                output.format.as_str(),
                output.path.display()
            ),
            Err(e) => {
                crate::errln!(
                    "conformance run: cannot write the {} report {}: {e} (exit 2)",
                    output.format.as_str(),
                    output.path.display()
                );
                code = EXIT_USAGE;
            }
        }
    }
    crate::console::exit_code("conformance run", code)
}
