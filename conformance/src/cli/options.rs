//! What the subcommands share: the parsers of numbers, seconds and names (each range
//! checked before anything runs, so that no `Duration` can overflow or panic), and the
//! options every command that starts an adapter takes with the same meaning
//! ([`AdapterOptions`]).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use conformance::adapter::{self, BATCH_SIZE_MAX, MAX_LINE_RANGE, MAX_TIMEOUT_SECS};
use conformance::adapter_spec::AdapterSpec;
use conformance::vectors::{Encoding, Op};
use std::time::Duration;

/// `--adapter`, `--timeout`, `--startup-timeout`, `--max-line-bytes`, `--batch-size`: how
/// `run`, `exhaustive --adapter` and `fuzz` start and talk to an adapter.
#[derive(clap::Args, Clone, Debug)]
pub struct AdapterOptions {
    /// An implementation: NAME=COMMAND, run through `sh -c COMMAND`, speaking the line
    /// protocol of conformance/adapters/README.md. `run`: repeatable (with adapters, the
    /// reference runs only if --reference is given too); `exhaustive` and `fuzz`: one,
    /// and only what its hello declares is sent.
    #[arg(long = "adapter", value_name = "NAME=COMMAND", value_parser = parse_adapter)]
    pub adapters: Vec<AdapterSpec>,

    /// Seconds an adapter may take to answer one case before it is killed and restarted
    /// (more than 0, at most 86400).
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    pub timeout: Duration,

    /// Seconds an adapter may take to start and answer the hello (the handshake), after
    /// every start; the per-case --timeout starts after it.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_secs)]
    pub startup_timeout: Duration,

    /// The longest answer line an adapter may write, in bytes (1024 to 1073741824); a
    /// longer one is a protocol error (and is read no further).
    #[arg(long, value_name = "BYTES", default_value_t = adapter::DEFAULT_MAX_LINE,
          value_parser = parse_max_line)]
    pub max_line_bytes: usize,

    /// The most cases in one batch request to an adapter whose hello declares "batch"
    /// (its own number is the ceiling); 1: one case per line (at most 65536).
    #[arg(long, value_name = "N", default_value_t = adapter::DEFAULT_BATCH_SIZE,
          value_parser = bounded_usize::<1, BATCH_SIZE_MAX>)]
    pub batch_size: usize,
}

impl AdapterOptions {
    /// How the adapters run.
    pub fn config(&self) -> adapter::Config {
        adapter::Config {
            timeout: self.timeout,
            startup_timeout: self.startup_timeout,
            max_line: self.max_line_bytes,
            batch_size: self.batch_size,
        }
    }

    /// The one adapter of `exhaustive` and `fuzz`, if any; two or more are a usage error.
    pub fn at_most_one(&self, command: &str) -> Result<Option<&AdapterSpec>, String> {
        match self.adapters.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(one)),
            [first, second, ..] => Err(format!(
                "conformance {command} checks one adapter at a time: --adapter {} and --adapter \
                 {} given",
                first.name, second.name
            )),
        }
    }
}

/// `NAME=COMMAND`.
pub fn parse_adapter(s: &str) -> Result<AdapterSpec, String> {
    s.parse()
}

/// Seconds, more than 0 and at most a day.
pub fn parse_secs(s: &str) -> Result<Duration, String> {
    secs_up_to(s, MAX_TIMEOUT_SECS)
}

/// A number of seconds, more than 0 and at most `max`.
pub fn secs_up_to(s: &str, max: f64) -> Result<Duration, String> {
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {s:?}"))?;
    if !(secs > 0.0 && secs <= max) {
        return Err(format!("must be more than 0 and at most {max}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A whole number from `MIN` to `MAX` (checked before it is used anywhere).
pub fn bounded_usize<const MIN: usize, const MAX: usize>(s: &str) -> Result<usize, String> {
    match s.parse::<u64>() {
        Ok(n) if (MIN as u64..=MAX as u64).contains(&n) => Ok(n as usize),
        Ok(_) | Err(_) => Err(format!("not a whole number from {MIN} to {MAX}: {s:?}")),
    }
}

/// `--max-line-bytes`: within [`MAX_LINE_RANGE`].
pub fn parse_max_line(s: &str) -> Result<usize, String> {
    bounded_usize::<{ *MAX_LINE_RANGE.start() }, { *MAX_LINE_RANGE.end() }>(s)
}

/// An encoding's name (`--encoding`): the possible values `--help` lists are
/// [`Encoding::NAMES`], each parsed into the enum.
pub fn encoding_parser() -> impl TypedValueParser<Value = Encoding> {
    PossibleValuesParser::new(Encoding::NAMES).try_map(|s| s.parse::<Encoding>())
}

/// An operation's name (`--op`): the possible values, with the help `--help` shows for
/// each, parsed into the enum.
pub fn op_parser() -> impl TypedValueParser<Value = Op> {
    let help = |op: Op| match op {
        Op::Decode => "Bytes in, events out",
        Op::Encode => "A code point in, bytes or an error kind out",
        Op::Document => "A Corrected UTF-8 document in, findings out",
    };
    PossibleValuesParser::new(Op::ALL.map(|op| PossibleValue::new(op.name()).help(help(op))))
        .try_map(|s| s.parse::<Op>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_bounded_before_they_become_durations() {
        assert_eq!(parse_secs("2.5"), Ok(Duration::from_millis(2500)));
        for bad in ["0", "-1", "nan", "inf", "1e300", "86400.5", "x", ""] {
            assert!(parse_secs(bad).is_err(), "{bad}");
        }
        assert!(parse_secs("86400").is_ok());
    }

    #[test]
    fn counts_are_bounded() {
        assert_eq!(bounded_usize::<1, 10>("10"), Ok(10));
        assert!(bounded_usize::<1, 10>("0").is_err());
        assert!(bounded_usize::<1, 10>("11").is_err());
        assert!(bounded_usize::<1, 10>("-1").is_err());
        assert!(parse_max_line("1023").is_err());
        assert_eq!(parse_max_line("1024"), Ok(1024));
    }
}
