//! `conformance run`'s options.

use super::options::{bounded_usize, encoding_parser, parse_secs, secs_up_to, AdapterOptions};
use conformance::run::{gate, Config, MAX_DEADLINE_SECS};
use conformance::vectors::Encoding;
use std::path::PathBuf;
use std::time::Duration;

/// The options of `conformance run`.
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
pub struct RunOptions {
    /// A vector file or folder (searched recursively for *.json, *.schema.json excluded);
    /// repeatable. Default: the vectors embedded in this binary at build time.
    #[arg(long = "vectors", value_name = "PATH")]
    pub vectors: Vec<PathBuf>,

    /// Only files of this encoding; repeatable, or comma-separated.
    #[arg(long = "encoding", alias = "encodings", value_name = "E",
          value_delimiter = ',', value_parser = encoding_parser())]
    pub encodings: Vec<Encoding>,

    #[command(flatten)]
    pub adapter: AdapterOptions,

    /// Also run the built-in reference codec when adapters are given.
    #[arg(long)]
    pub reference: bool,

    /// Seconds the whole run may take: cases not answered by then are "not run", the
    /// gate fails and the reports are written (more than 0, at most 2592000, 30 days).
    /// Default: no deadline (the worst case is every case's --timeout, docs/gating.md).
    #[arg(long, value_name = "SECS", value_parser = parse_deadline)]
    pub deadline: Option<Duration>,

    /// [NAME=]ENCODING:OP[:FIELD,…]: every implementation (with NAME=, the one named
    /// NAME) must answer every case of ENCODING and OP with these fields (levels: events,
    /// lossy, strict, validity), and declare them when it speaks protocol 2; repeatable.
    /// Exit 1 otherwise.
    #[arg(long = "require", value_name = "[NAME=]ENCODING:OP[:FIELD,…]",
          value_parser = gate::parse_requirement)]
    pub require: Vec<gate::Requirement>,

    /// Let an adapter that declares nothing (protocol 1) pass without --require.
    #[arg(long)]
    pub allow_undeclared: bool,

    /// Stop sending cases to an adapter after this many crashes, timeouts or protocol
    /// errors in a row (the rest are "not run", and the gate fails); 0 never gives up
    /// (at most 1000000).
    #[arg(long, value_name = "N", default_value_t = conformance::run::DEFAULT_GIVE_UP_AFTER,
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

    /// The explorer the --html report links each listed case to (its vector, its input
    /// explained): the URL of its index.html. Default: this release's explorer unpacked
    /// beside the report, corrected-utf8-explorer-VERSION/index.html (docs/explorer.md).
    #[arg(long, value_name = "URL", requires = "html")]
    pub explorer_url: Option<String>,

    /// List every case in the --json, --junit and --html reports. By default they list
    /// failures (and expected failures) one by one and passes and skips as counts.
    #[arg(long)]
    pub report_all: bool,
}

fn parse_deadline(s: &str) -> Result<Duration, String> {
    secs_up_to(s, MAX_DEADLINE_SECS)
}

impl RunOptions {
    /// The run's configuration.
    pub fn config(self) -> Config {
        Config {
            vectors: self.vectors,
            encodings: self.encodings,
            adapter: self.adapter.config(),
            adapters: self.adapter.adapters,
            reference: self.reference,
            deadline: self.deadline,
            require: self.require,
            allow_undeclared: self.allow_undeclared,
            give_up_after: self.give_up_after,
            splits: self.splits,
            ascii_prefixes: self.ascii_prefixes,
            expected_failures: self.expected_failures,
            bench: self.bench,
            json: self.json,
            junit: self.junit,
            html: self.html,
            explorer_url: self.explorer_url,
            report_all: self.report_all,
        }
    }
}
