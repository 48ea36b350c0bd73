//! `conformance fuzz`'s options.

use super::options::{bounded_usize, encoding_parser, op_parser, secs_up_to, AdapterOptions};
use conformance::differential::default_out;
use conformance::fuzz::{Config, DEFAULT_MAX_FAILURES, MAX_FAILURES, MAX_SECONDS};
use conformance::vectors::{Encoding, Op};
use std::path::PathBuf;
use std::time::Duration;

/// The options of `conformance fuzz`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 cases were checked and none disagreed; 1 a disagreement \
(minimized, written as a vector file, with the command that reproduces it), no case \
answered in the time given, or a case sent and not judged (incomplete); 2 bad usage, an \
adapter that declares nothing checkable, or a file that cannot be written (after the \
verdict is printed). See conformance/README.md, \"Fuzzing an adapter\"."
)]
pub struct FuzzOptions {
    #[command(flatten)]
    pub adapter: AdapterOptions,
    /// How long cases are sent, minimizing included (more than 0, at most 1e7); the
    /// adapter's start-up and one case's --timeout may come on top (a case sent in time
    /// waits its whole --timeout).
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_seconds)]
    pub seconds: Duration,
    /// The random seed (default: from the clock; printed either way, so that a run can
    /// be repeated).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Per encoding and operation: stop fuzzing it after this many distinct classes of
    /// disagreement (1 to 100000); the others go on.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FAILURES,
          value_parser = bounded_usize::<1, MAX_FAILURES>)]
    pub max_failures: usize,
    /// Only these encodings; repeatable, or comma-separated (default: every one declared).
    #[arg(long = "encoding", alias = "encodings", value_delimiter = ',', value_name = "LIST",
          value_parser = encoding_parser())]
    pub encodings: Vec<Encoding>,
    /// Only these operations; repeatable, or comma-separated (default: every one declared).
    #[arg(long = "op", value_parser = op_parser(), value_delimiter = ',', value_name = "LIST")]
    pub ops: Vec<Op>,
    /// The fuzz corpus to mutate, `DIR/TARGET/FILE` (default: the corpus built into this
    /// binary, the repository's corpus/ when it was built).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Where to write the vector files, one per encoding and operation with
    /// disagreements: DIR/NAME-ENCODING-OP.json (default: target/conformance-fuzz).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Seconds between progress lines on stderr (0.1 to 1e7).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_progress)]
    pub progress: Duration,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    secs_up_to(s, MAX_SECONDS)
}

fn parse_progress(s: &str) -> Result<Duration, String> {
    let d = secs_up_to(s, MAX_SECONDS)?;
    if d < Duration::from_millis(100) {
        return Err(format!("must be from 0.1 to {MAX_SECONDS} seconds"));
    }
    Ok(d)
}

impl FuzzOptions {
    /// The run's configuration; no adapter, or more than one, is a usage error.
    pub fn config(self) -> Result<Config, String> {
        let Some(adapter) = self.adapter.at_most_one("fuzz")?.cloned() else {
            return Err(
                "conformance fuzz needs --adapter NAME=COMMAND (the implementation to fuzz)".into(),
            );
        };
        Ok(Config {
            adapter,
            adapter_config: self.adapter.config(),
            seconds: self.seconds,
            seed: self.seed,
            max_failures: self.max_failures,
            encodings: self.encodings,
            ops: self.ops,
            corpus: self.corpus,
            out: self.out.unwrap_or_else(|| default_out("fuzz")),
            progress: self.progress,
        })
    }
}
