//! `conformance exhaustive`'s options.

use super::options::{bounded_usize, encoding_parser, op_parser, AdapterOptions};
use conformance::differential::default_out;
use conformance::exhaustive::walk::MAX_INPUT;
use conformance::exhaustive::{adapter, engine, reference, Shard};
use conformance::fuzz::MAX_FAILURES;
use conformance::vectors::{codec_encoding, Encoding, Op};
use std::path::PathBuf;

/// Which part to run (`--only`, the older spelling of `--op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// (1) every code point: `--op encode`.
    Codepoints,
    /// (2) every input: `--op decode`.
    Inputs,
    /// (3) the documents: `--op document`.
    Documents,
}

impl Only {
    /// The operation of the part.
    fn op(self) -> Op {
        match self {
            Only::Codepoints => Op::Encode,
            Only::Inputs => Op::Decode,
            Only::Documents => Op::Document,
        }
    }
}

/// The most `--threads`.
const MAX_THREADS: usize = 1024;

/// The options of `conformance exhaustive`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 every check passed; 1 a counterexample (printed \
in hex with both outputs; with --adapter, a disagreement, written as a vector file), or a \
checkpoint whose re-checked units failed; 2 bad usage, a checkpoint that is unreadable or \
not believed, or a report, vector file or checkpoint that cannot be written (after the \
verdict is printed)."
)]
pub struct ExhaustiveOptions {
    /// Check every input of 1 to N bytes (4: 4.3e9 inputs; 5: 1.1e12, for sharded runs;
    /// at most 6, with --adapter 4) [default: 4; with --adapter 3]; documents: the magic
    /// number and bodies of 0 to N bytes (at most 4 without --adapter).
    #[arg(long, value_name = "N", value_parser = bounded_usize::<1, MAX_INPUT>)]
    pub max_len: Option<usize>,
    /// Run only every N-th work unit, starting with the K-th (1-based), e.g. 3/16.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Checkpoint file: written every 10 s and at the end; units it lists as done (with
    /// their counts) are skipped once it is believed (conformance/README.md, "What a
    /// checkpoint proves"). Created if missing.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Also write the final report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Run only (1) the code points, (2) the inputs or (3) the documents: the older
    /// spelling of --op encode, decode or document (not with --adapter or --op).
    #[arg(long, value_enum, conflicts_with_all = ["adapters", "ops"])]
    pub only: Option<Only>,
    /// Worker threads, 1 to 1024 (default: every core; not with --adapter).
    #[arg(long, value_name = "N", value_parser = bounded_usize::<1, MAX_THREADS>,
          conflicts_with = "adapters")]
    pub threads: Option<usize>,
    /// Encodings checked; repeatable, or comma-separated [default: corrected-utf8,utf-8;
    /// utf-inf-8 adds about 13 core-minutes for inputs of up to 4 bytes; with --adapter,
    /// every one declared].
    #[arg(long = "encoding", alias = "encodings", value_parser = encoding_parser(),
          value_delimiter = ',', value_name = "LIST")]
    pub encodings: Vec<Encoding>,
    #[command(flatten)]
    pub adapter: AdapterOptions,
    /// Only these operations; repeatable, or comma-separated. The reference's parts:
    /// encode (every code point), decode (every input; with utf-inf-8, its long forms
    /// too), document (the magic number with every short body, an inner magic number at
    /// each position) [default: encode,decode; with --adapter, every one declared].
    #[arg(long = "op", value_parser = op_parser(), value_delimiter = ',', value_name = "LIST")]
    pub ops: Vec<Op>,
    /// With --adapter: encode every code point up to this one (hex, U+10FFFF), then the
    /// table edges above it [default: U+10FFFF].
    #[arg(long, value_name = "U+HEX", value_parser = parse_codepoint, requires = "adapters")]
    pub max_codepoint: Option<u32>,
    /// With --adapter: stop after this many disagreements (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = bounded_usize::<1, MAX_FAILURES>)]
    pub max_failures: usize,
    /// With --adapter: where to write the disagreements as vector files,
    /// DIR/NAME-ENCODING-OP.json [default: target/conformance-exhaustive].
    #[arg(long, value_name = "DIR", requires = "adapters")]
    pub out: Option<PathBuf>,
}

/// Parses `--max-codepoint`: `U+10FFFF`, `0x10FFFF` or `10FFFF` (hex).
pub fn parse_codepoint(s: &str) -> Result<u32, String> {
    let digits = s
        .strip_prefix("U+")
        .or_else(|| s.strip_prefix("u+"))
        .or_else(|| s.strip_prefix("0x"))
        .unwrap_or(s);
    u32::from_str_radix(digits, 16)
        .map_err(|_| format!("not a code point up to U+FFFFFFFF in hex: {s:?}"))
}

/// Which walk, with its configuration.
pub enum Walk {
    /// The reference codec's.
    Reference(reference::Config),
    /// An adapter's.
    Adapter(adapter::Config),
}

impl ExhaustiveOptions {
    /// The walk's configuration; two adapters are a usage error.
    pub fn config(&self) -> Result<Walk, String> {
        let shard = self.shard.unwrap_or(Shard::ALL);
        Ok(match self.adapter.at_most_one("exhaustive")? {
            Some(spec) => Walk::Adapter(adapter::Config {
                adapter: spec.clone(),
                adapter_config: self.adapter.config(),
                max_len: self.max_len.unwrap_or(adapter::DEFAULT_MAX_LEN),
                max_codepoint: self.max_codepoint.unwrap_or(adapter::DEFAULT_MAX_CODEPOINT),
                shard,
                resume: self.resume.clone(),
                encodings: self.encodings.clone(),
                ops: self.ops.clone(),
                max_failures: self.max_failures,
                out: self
                    .out
                    .clone()
                    .unwrap_or_else(|| default_out("exhaustive")),
                recheck_units: engine::RECHECK_UNITS,
            }),
            None => Walk::Reference(reference::Config {
                max_len: self.max_len.unwrap_or(reference::DEFAULT_MAX_LEN),
                shard,
                ops: match self.only {
                    Some(only) => vec![only.op()],
                    None => self.ops.clone(),
                },
                threads: self.threads.unwrap_or(0),
                code_points: (0, u32::MAX),
                resume: self.resume.clone(),
                progress: true,
                encodings: if self.encodings.is_empty() {
                    reference::DEFAULT_ENCODINGS.to_vec()
                } else {
                    self.encodings.iter().map(|&e| codec_encoding(e)).collect()
                },
                recheck_units: engine::RECHECK_UNITS,
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_code_points() {
        assert_eq!(parse_codepoint("U+10FFFF"), Ok(0x10FFFF));
        assert_eq!(parse_codepoint("0xff"), Ok(0xFF));
        assert!(parse_codepoint("U+1FFFFFFFF").is_err());
    }
}
