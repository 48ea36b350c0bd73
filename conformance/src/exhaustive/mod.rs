//! `conformance exhaustive`: proof by enumeration instead of sampling.
//!
//! Two walks over one resumable engine ([`engine`]: units, shards, one checkpoint format
//! and one rule for believing a checkpoint, one outcome, progress and report shape):
//!
//! * [`reference`](mod@reference): the reference codec (or any [`CodecFns`]) against the spec-literal
//!   code and std, on every core:
//!   1. **Code points** ([`codepoints`]): every value `0..=FFFFFFFF`. The implementation's
//!      Corrected UTF-8 encoder and the spec-literal one give the same bytes or the same
//!      error kind; decoding the bytes gives the code point back; encodings increase
//!      strictly with the code point. There are [`codepoints::ENCODABLE`] = 2 216 757 376
//!      encodable code points.
//!   2. **Inputs** ([`walk`], and one check per encoding, [`corrected`], [`utf8`],
//!      [`utf_inf8`]): every input of 1 to `--max-len` bytes (4 311 810 304 for 4): the
//!      implementation's event lists (code points, error spans, offsets, lengths) equal
//!      the spec-literal ones; UTF-8's first error equals `core::str::from_utf8`'s
//!      `valid_up_to`/`error_len`; and each input is put in its Table 3.1b audit class,
//!      whose counts must equal `conformance audit`'s. With `--encoding …,utf-inf-8`,
//!      UTF-∞-8's events too, under the default limit and under a limit of 3 bytes.
//! * [`adapter`] (`--adapter NAME=COMMAND`): the short inputs and code points through any
//!   implementation behind an adapter, against the spec-literal code.

pub mod adapter;
mod adapter_units;
pub mod checkpoint;
pub mod codec_fns;
pub mod codepoints;
mod command_files;
pub mod corrected;
pub mod documents;
pub mod engine;
pub mod failure;
pub mod long_forms;
pub mod probes;
pub mod reference;
pub mod utf8;
pub mod utf_inf8;
pub mod walk;

pub use codec_fns::{CodecFns, LITERAL, REFERENCE};
pub use failure::{Counters, Failure};

use crate::differential::{write_all, FoundBy};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::report::output::{self, Format, Inputs, Output};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The version of the JSON reports of `exhaustive` (`reportVersion`; docs/report.md).
pub const REPORT_VERSION: u64 = 3;

/// Shard `k` (1-based) of `n`: the units whose index is `k − 1` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1 to `n`.
    pub k: usize,
    /// How many shards.
    pub n: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    fn takes(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 3/16")?;
        let k: usize = k.trim().parse().map_err(|_| "K is not a number")?;
        let n: usize = n.trim().parse().map_err(|_| "N is not a number")?;
        if n == 0 || k == 0 || k > n {
            return Err("need 1 <= K <= N".into());
        }
        Ok(Shard { k, n })
    }
}

/// Checks `--json` before anything runs, as `conformance run` checks its reports
/// ([`output::plan`]: not a folder, its folder writable, not an input, a device or FIFO
/// written as a stream), and refuses the checkpoint's own path (the report would replace
/// it).
pub fn plan_json(json: Option<&Path>, resume: Option<&Path>) -> Result<Option<Output>, UsageError> {
    let Some(path) = json else {
        return Ok(None);
    };
    let resume: Vec<PathBuf> = resume.iter().map(|p| p.to_path_buf()).collect();
    if let Some(checkpoint) = resume.first() {
        let place = |p: &Path| {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new(".")).canonicalize().ok();
            (dir, p.file_name().map(|n| n.to_os_string()))
        };
        if place(path) == place(checkpoint) {
            return Err(UsageError(format!(
                "cannot write the json report {}: it is the --resume checkpoint (refused: the \
                 report would replace it)",
                path.display()
            )));
        }
    }
    let inputs = Inputs {
        vectors: &[],
        expected_failures: &resume,
    };
    let path = path.to_path_buf();
    Ok(output::plan(&[(Format::Json, Some(&path))], &inputs)?.pop())
}

/// Writes a JSON report as planned ([`plan_json`]): atomically, or into a stream.
pub fn write_json(output: &Output, report: &Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).unwrap_or_default() + "\n";
    output
        .write(|w| w.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", output.path.display()))
}

/// The exit code after the verdict: 2 when a file could not be written (each named on
/// stderr), else 1 on a failure, else 0.
fn exit_after(errors: &[String], failed: bool) -> ExitCode {
    for e in errors {
        crate::errln!("conformance exhaustive: {e}");
    }
    ExitCode::from(if !errors.is_empty() {
        EXIT_USAGE
    } else if failed {
        EXIT_FAILED
    } else {
        EXIT_OK
    } as u8)
}

/// `conformance exhaustive` (the reference): runs, prints the verdict, then writes `json`
/// (planned by [`plan_json`]; atomically; a report that cannot be written is named, exit
/// 2).
pub fn run_reference(cfg: &reference::Config, json: Option<&Output>) -> ExitCode {
    let out = match reference::execute(&REFERENCE, cfg) {
        Ok(out) => out,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    // The verdict first: nothing after it can lose it.
    crate::out!("{}", reference::render(cfg, &out));
    let mut errors: Vec<String> = out.walk.checkpoint_error.iter().cloned().collect();
    if let Some(json) = json {
        errors.extend(write_json(json, &reference::to_json(cfg, &out)).err());
    }
    exit_after(&errors, out.failure.is_some())
}

/// `conformance exhaustive --adapter`: walks, prints the verdict, then writes the vector
/// files and `json` (each atomically; one that cannot be written is named, exit 2).
pub fn run_adapter(cfg: &adapter::Config, json: Option<&Output>) -> ExitCode {
    let (mut outcome, session) = match adapter::walk(cfg) {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    // The verdict first: nothing after it can lose it.
    crate::out!("{}", adapter::render(cfg, &outcome));
    let mut errors: Vec<String> = outcome.walk.checkpoint_error.iter().cloned().collect();
    if !outcome.walk.findings.is_empty() {
        let how = format!(
            "`conformance exhaustive --adapter` ({})",
            adapter::describe_walk(cfg, &outcome.targets)
        );
        let (written, failed) = write_all(
            &cfg.out,
            &session,
            &outcome.walk.findings,
            FoundBy::Exhaustive,
            &how,
        );
        outcome.written = written;
        errors.extend(failed);
    }
    drop(session);
    if let Some(json) = json {
        errors.extend(write_json(json, &adapter::to_json(cfg, &outcome)).err());
    }
    exit_after(&errors, !outcome.walk.findings.is_empty())
}
