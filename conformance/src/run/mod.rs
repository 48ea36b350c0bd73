//! `conformance run`: the vectors against the reference codec or any implementation that
//! speaks the line protocol, with the gate.
//!
//! * [`suite`]: loading vector files into a [`Suite`] (a malformed file stops everything:
//!   exit 2); the vector files built into the binary (the default) and the rule for which
//!   files under a folder are vector files are the crate [`corrected_utf8_vectors`].
//! * `tally`: every case through one implementation, each answer judged as it comes
//!   ([`crate::judge`]), with `--give-up-after` and `--deadline`.
//! * [`gate`]: the gate's floor (what fails a run though no case failed) and `--require`.
//! * [`expected`]: the known failures of `--expected-failures`.
//!
//! The implementations ([`crate::reference`], [`crate::adapter`]), the protocol, the judge
//! and the reports ([`crate::report`]) are the core every tool shares.
//!
//! The library entry points are [`execute`] (run and return a [`RunReport`]) and [`run()`]
//! (what the `run` subcommand does, returning the exit code), both taking a [`Config`].

pub mod expected;
pub mod gate;
pub mod suite;
mod tally;

use crate::adapter::{self, Adapter};
use crate::adapter_spec::AdapterSpec;
use crate::case::Suite;
pub use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::protocol::Implementation;
use crate::report::model::{ImplResult, RunReport};
use crate::report::output::{self, Format};
use crate::report::{self, Listed};
use crate::vectors::Encoding;
use expected::ExpectedFailures;
pub use gate::Requirement;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tally::{run_cases, Deadline};

/// What `conformance run` runs: plain values (the command line's parser builds them).
#[derive(Clone, Debug)]
pub struct Config {
    /// Vector files or folders; empty: the vectors embedded in this binary.
    pub vectors: Vec<PathBuf>,
    /// Only files of these encodings (all when empty).
    pub encodings: Vec<Encoding>,
    /// External implementations, in order.
    pub adapters: Vec<AdapterSpec>,
    /// How adapters run.
    pub adapter: adapter::Config,
    /// Also run the built-in reference when adapters are given.
    pub reference: bool,
    /// How long the whole run may take: cases not answered by then are not run.
    pub deadline: Option<Duration>,
    /// The gate's floor: `--require`.
    pub require: Vec<Requirement>,
    /// Let an adapter that declares nothing (protocol 1) pass without `--require`.
    pub allow_undeclared: bool,
    /// Stop sending cases to an adapter after this many crashes, timeouts or protocol
    /// errors in a row; 0 never gives up.
    pub give_up_after: usize,
    /// Every decode and document case also fed in chunks (`--splits`).
    pub splits: bool,
    /// Every decode case also with 1 to 64 bytes of ASCII in front (`--ascii-prefixes`).
    pub ascii_prefixes: bool,
    /// Expected-failures files.
    pub expected_failures: Vec<PathBuf>,
    /// Measure instead of report (`--bench`).
    pub bench: Option<Duration>,
    /// Report files.
    pub json: Option<PathBuf>,
    /// JUnit XML report.
    pub junit: Option<PathBuf>,
    /// HTML report.
    pub html: Option<PathBuf>,
    /// The explorer the HTML report links to (`--explorer-url`; default
    /// [`report::html::DEFAULT_EXPLORER`]).
    pub explorer_url: Option<String>,
    /// List every case in the report files, not only failures.
    pub report_all: bool,
}

/// The longest `--deadline`: 30 days.
pub const MAX_DEADLINE_SECS: f64 = 30.0 * 86_400.0;

/// The default `--give-up-after`.
pub const DEFAULT_GIVE_UP_AFTER: usize = 10;

impl Default for Config {
    /// The defaults of the command line: embedded vectors, the reference, no reports.
    fn default() -> Self {
        Config {
            vectors: vec![],
            encodings: vec![],
            adapters: vec![],
            adapter: adapter::Config::default(),
            reference: false,
            deadline: None,
            require: vec![],
            allow_undeclared: false,
            give_up_after: DEFAULT_GIVE_UP_AFTER,
            splits: false,
            ascii_prefixes: false,
            expected_failures: vec![],
            bench: None,
            json: None,
            junit: None,
            html: None,
            explorer_url: None,
            report_all: false,
        }
    }
}

/// Loads the vectors and the expected failures, runs every implementation (each in a
/// thread of its own), and returns the results. Writes nothing.
pub fn execute(args: &Config) -> Result<RunReport, UsageError> {
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
        expected_failures_files: expected_failures.paths,
        timeout: args.adapter.timeout,
        suite,
        gate,
    })
}

/// The implementations of a run.
type Implementations = Vec<Box<dyn Implementation>>;

/// The suite, the expected failures and the implementations of a run (none started).
fn prepare(
    args: &Config,
    deadline: Option<Deadline>,
) -> Result<(Suite, ExpectedFailures, Implementations), UsageError> {
    let mut names = BTreeSet::new();
    for AdapterSpec { name, .. } in &args.adapters {
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
        implementations.push(Box::new(crate::reference::Reference));
    }
    if !args.adapters.is_empty() {
        adapter::kill_adapters_on_signal();
    }
    for spec in &args.adapters {
        let mut adapter = Adapter::new(&spec.name, &spec.command, args.adapter);
        adapter.set_deadline(deadline.map(|d| d.at), true);
        implementations.push(Box::new(adapter));
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
               // A run interrupted by a signal ends by it, with no verdict printed.
    adapter::end_if_signalled();
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
pub fn run(args: &Config) -> ExitCode {
    ExitCode::from(run_code(args) as u8)
}

/// `--bench SECS`: each implementation's round-trip rate over the selected cases.
fn bench(args: &Config, secs: Duration) -> i32 {
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
            Some(n) if args.adapter.batch_size > 1 && imp.batches().sent > 0 => {
                format!("batches of up to {}", n.min(args.adapter.batch_size))
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

fn run_code(args: &Config) -> i32 {
    if let Some(secs) = args.bench {
        return bench(args, secs);
    }
    // The report paths are checked before anything runs (none is touched).
    let outputs = match output::plan(
        &[
            (Format::Json, args.json.as_ref()),
            (Format::Junit, args.junit.as_ref()),
            (Format::Html, args.html.as_ref()),
        ],
        &output::Inputs {
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
            Format::Html => {
                let explorer = args.explorer_url.as_deref();
                report::html::write(
                    &report,
                    listed,
                    explorer.unwrap_or(report::html::DEFAULT_EXPLORER),
                    w,
                )
            }
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
