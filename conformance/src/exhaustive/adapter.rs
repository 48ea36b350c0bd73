//! `conformance exhaustive --adapter NAME=COMMAND`: every short input through an
//! implementation, against the spec-literal code, as a [`Walker`] of the resumable walk
//! ([`super::engine`]).
//!
//! For each encoding and operation the adapter declared (and `--encoding`/`--op` keep),
//! in the order of `adapter_units` (`src/exhaustive/adapter_units.rs`):
//!
//! * decode: every input of 1 to `--max-len` bytes (default 3: 16 843 008 inputs), each
//!   length's from the lead `FE`, then `FF`, then `00` on; for UTF-∞-8, first its long
//!   codes at the adapter's declared limit or 65 536 ([`super::long_forms`]);
//! * document: the magic number followed by every body of 0 to `--max-len` bytes, a
//!   magic number inserted at each position of every body of 0 to `--max-len` − 1 bytes
//!   (after a leading magic number and without one), then every input of 1 to
//!   `--max-len` bytes (default 3: 16 843 009 + 328 449 + 16 843 008 documents);
//! * encode: every code point from U+0000 to `--max-codepoint` (default U+10FFFF), then
//!   the table edges above it ([`conformance_checks::generate::edge_codepoints`]: each
//!   row's first and last value, one step inside and outside, the gaps, the end of the
//!   code space and of `u32`, for UTF-∞-8 the forms' ends and the first long forms).
//!   Walking all 2^32 values through a pipe takes hours even at 100 000 cases/s; the
//!   edges are where an encoder's rows go wrong.
//!
//! Each case is judged as `conformance run` judges a vector, as its answer arrives
//! ([`crate::differential::Session`]). The work is cut into units (per target: inputs by
//! length and all but their last two bytes, 65 536 at most; code points by blocks of
//! 65 536; the edges; the long forms by 1 024). The run stops after `--max-failures` disagreements, prints the
//! verdict (each disagreement with its hex input, expected and answered values), then
//! writes the disagreements as vector files.
//!
//! A checkpoint binds to the implementation by its name, its command, its hello answer,
//! the SHA-256 of every file its command names (the script, the binary: `command_files`)
//! and its answers to fixed probes; what it cannot see is a file the command does not
//! name (a library the script loads), which the recheck of done units may catch.

use super::adapter_units::{self, Plan};
use super::checkpoint::{Fingerprint, Probed};
use super::command_files::command_files;
use super::engine::{self, Outcome, UnitResult, Walker};
use super::long_forms::MAX_EDGE_LIMIT;
use super::probes::{fingerprint_inputs, FINGERPRINT_CODEPOINTS};
use super::Shard;
use crate::adapter;
use crate::adapter_spec::AdapterSpec;
use crate::differential::{Disagreement, Probe, Session, Target};
use crate::exit::UsageError;
use crate::protocol::Answer;
use crate::vectors::{Encoding, Op};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// The default `--max-len` with `--adapter`.
pub const DEFAULT_MAX_LEN: usize = 3;
/// The longest `--max-len` with `--adapter` (4: 4.3e9 inputs per operation).
pub const MAX_LEN: usize = 4;
/// The default `--max-codepoint`.
pub const DEFAULT_MAX_CODEPOINT: u32 = 0x10_FFFF;
/// The layout of the walk's units (their order and what each holds): a checkpoint made
/// with another is refused. 2: `FE`/`FF` first, the long forms and the documents.
const UNIT_LAYOUT: u64 = 2;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The implementation.
    pub adapter: AdapterSpec,
    /// How it runs.
    pub adapter_config: adapter::Config,
    /// Inputs of 1 to this many bytes.
    pub max_len: usize,
    /// Encode: every code point up to this one, then the edges.
    pub max_codepoint: u32,
    /// Which units.
    pub shard: Shard,
    /// Checkpoint file.
    pub resume: Option<PathBuf>,
    /// Only these encodings (all declared when empty).
    pub encodings: Vec<Encoding>,
    /// Only these operations (all declared when empty).
    pub ops: Vec<Op>,
    /// Stop after this many disagreements.
    pub max_failures: usize,
    /// Where the vector files go.
    pub out: PathBuf,
    /// Units a resumed checkpoint records as done that are walked again.
    pub recheck_units: usize,
}

/// The fixed probes of a target whose answers fingerprint the implementation.
fn fingerprint_probes(target: &Target) -> Vec<Probe> {
    match target.op {
        Op::Decode | Op::Document => fingerprint_inputs().into_iter().map(Probe::Bytes).collect(),
        Op::Encode => FINGERPRINT_CODEPOINTS
            .iter()
            .filter(|&&cp| target.encoding == Encoding::UtfInf8 || cp <= u128::from(u32::MAX))
            .map(|&cp| Probe::CodePoint(cp))
            .collect(),
    }
}

/// JSON with the keys of every object sorted: the same answer hashes the same whatever
/// order the adapter wrote its keys in.
fn canonical(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&o[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// A field's text for the fingerprint: canonical when it is short enough to read as a
/// JSON value (every right answer to a fixed probe is); a longer one as its SHA-256, so
/// that an adapter answering a probe with a line near the cap costs nothing more.
fn canonical_text(raw: &str) -> String {
    const MAX: usize = 64 * 1024;
    if raw.len() <= MAX {
        if let Ok(v) = serde_json::from_str::<Value>(raw) {
            return canonical(&v).to_string();
        }
    }
    let digest = Sha256::digest(raw.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("raw {} bytes sha256 {hex}", raw.len())
}

/// The walk of one adapter.
struct AdapterWalk<'a> {
    session: &'a mut Session,
    cfg: &'a Config,
    targets: Vec<Target>,
    plan: Plan,
    /// Disagreements found so far (the walk stops at `--max-failures`).
    found: usize,
}

impl Walker for AdapterWalk<'_> {
    type Finding = Disagreement;

    fn weights(&self) -> Vec<u64> {
        self.plan.units.iter().map(|u| u.size).collect()
    }

    fn identity(&self) -> Value {
        let cfg = self.cfg;
        json!({
            "walk": "adapter",
            "adapter": cfg.adapter.name,
            "command": cfg.adapter.command,
            "files": command_files(&cfg.adapter.command),
            "hello": self.session.declaration,
            "maxLen": cfg.max_len,
            "maxCodepoint": format!("U+{:04X}", cfg.max_codepoint),
            "shard": cfg.shard.to_string(),
            "targets": self.targets.iter().map(Target::label).collect::<Vec<_>>(),
            "unitLayout": UNIT_LAYOUT,
        })
    }

    /// For a response, the fields it declared (and encode's `bytes` and `error`),
    /// canonical; for anything else, the status alone (its message holds times and
    /// process ids).
    fn fingerprint(&mut self) -> Probed {
        let mut print = Fingerprint::default();
        for target in self.targets.clone() {
            let probes = fingerprint_probes(&target);
            self.session.answer_each(&target, &probes, |_, _, answer| {
                let text = match answer {
                    Answer::Response(obj) => {
                        let mut keys = obj.keys();
                        keys.retain(|k| {
                            target.fields.iter().any(|f| f == k)
                                || (target.op == Op::Encode && (*k == "bytes" || *k == "error"))
                        });
                        keys.sort_unstable();
                        let mut text = String::new();
                        for key in keys {
                            let raw = obj.get(key).unwrap_or_default();
                            let _ = write!(text, "{key}:{};", canonical_text(raw));
                        }
                        text
                    }
                    Answer::Crash(_) => "crash".into(),
                    Answer::Timeout(_) => "timeout".into(),
                    Answer::Protocol(_) => "protocol".into(),
                    // No deadline here: every probe is sent and answered.
                    Answer::NotSent(_) | Answer::Lost(_) => "unanswered".into(),
                };
                print.add(&format!("{} {text}", target.label()));
                ControlFlow::Continue(())
            });
        }
        print.finish()
    }

    fn walk(
        &mut self,
        units: &[usize],
        done: &mut (dyn FnMut(usize, UnitResult<Disagreement>) -> ControlFlow<()> + Send),
    ) {
        for &i in units {
            let unit = self.plan.units[i];
            let target = self.targets[unit.target].clone();
            let mut r = UnitResult::default();
            let mut pos = 0;
            while pos < unit.size && self.found < self.cfg.max_failures {
                let end = self.plan.batch_end(&unit, pos);
                let batch = self
                    .plan
                    .probes(&unit, &target, self.cfg.max_codepoint, pos, end);
                pos = end;
                let (found, max) = (&mut self.found, self.cfg.max_failures);
                let findings = &mut r.findings;
                self.session.check_each(&target, &batch, |k, result| {
                    if result.raw.is_failure() {
                        findings.push(Disagreement {
                            target: target.clone(),
                            probe: batch[k].clone(),
                            result,
                            decoder_disagrees: false,
                        });
                        *found += 1;
                        if *found >= max {
                            return ControlFlow::Break(());
                        }
                    }
                    ControlFlow::Continue(())
                });
            }
            r.counts.insert(format!("{}.cases", target.label()), pos);
            if done(i, r).is_break() {
                return;
            }
        }
    }
}

/// The result of an adapter's walk.
#[derive(Debug)]
pub struct AdapterOutcome {
    /// The targets checked.
    pub targets: Vec<Target>,
    /// The walk's outcome (its findings: the disagreements, in walk order).
    pub walk: Outcome<Disagreement>,
    /// How many times the adapter was started (1 when it never had to be restarted).
    pub starts: usize,
    /// Vector files written (by [`super::run_adapter`], after the verdict).
    pub written: Vec<PathBuf>,
}

/// Runs the walk; returns its outcome and the session (for the vector files).
pub fn walk(cfg: &Config) -> Result<(AdapterOutcome, Session), UsageError> {
    if !(1..=MAX_LEN).contains(&cfg.max_len) {
        return Err(UsageError(format!(
            "--max-len must be 1 to {MAX_LEN} with --adapter"
        )));
    }
    if cfg.max_failures == 0 {
        return Err(UsageError("--max-failures must be at least 1".into()));
    }
    let mut session = Session::open(&cfg.adapter, cfg.adapter_config, &cfg.encodings, &cfg.ops)?;
    let targets = session.targets.clone();
    let plan = adapter_units::plan(&targets, cfg.max_len, cfg.max_codepoint);
    let todo: u64 = plan.units.iter().map(|u| u.size).sum();
    crate::errln!(
        "exhaustive --adapter {}: {} ({} units, {todo} cases in all)",
        session.name,
        targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        plan.units.len()
    );
    for note in notes(&targets) {
        crate::errln!("exhaustive --adapter {}: {note}", session.name);
    }
    let mut walker = AdapterWalk {
        session: &mut session,
        cfg,
        targets: targets.clone(),
        plan,
        found: 0,
    };
    let run = engine::Run {
        shard: cfg.shard,
        resume: cfg.resume.clone(),
        max_findings: cfg.max_failures,
        recheck_units: cfg.recheck_units,
        progress: Some("exhaustive --adapter"),
    };
    let out = engine::execute(&mut walker, &run).map_err(UsageError)?;
    let outcome = AdapterOutcome {
        targets,
        walk: out,
        starts: session.starts(),
        written: vec![],
    };
    Ok((outcome, session))
}

/// What the walk of the targets does not hold that a reader might expect: a declared
/// UTF-∞-8 limit above [`MAX_EDGE_LIMIT`] has no codes at its edge.
fn notes(targets: &[Target]) -> Vec<String> {
    targets
        .iter()
        .filter_map(|t| t.limit.filter(|&l| l > MAX_EDGE_LIMIT).map(|l| (t, l)))
        .map(|(t, l)| {
            format!(
                "{}: the declared limit {l} is judged on every input, but the long forms \
                 hold no codes at its edge (made for limits up to {MAX_EDGE_LIMIT} bytes)",
                t.label()
            )
        })
        .collect()
}

/// What the walk holds, for the report's first line and the vector files' notes.
pub fn describe_walk(cfg: &Config, targets: &[Target]) -> String {
    let mut parts = vec![format!("inputs of 1 to {} bytes", cfg.max_len)];
    if targets.iter().any(|t| t.op == Op::Encode) {
        parts.push(format!(
            "code points to U+{:04X} and the table edges",
            cfg.max_codepoint
        ));
    }
    if targets.iter().any(|t| t.op == Op::Document) {
        parts.push(format!(
            "documents of the magic number and bodies of 0 to {} bytes, an inner magic \
             number in bodies of 0 to {}",
            cfg.max_len,
            cfg.max_len - 1
        ));
    }
    for t in targets {
        if t.op == Op::Decode && t.encoding == Encoding::UtfInf8 {
            parts.push(format!(
                "UTF-∞-8 long forms at the limit {}",
                t.limit
                    .map_or("65536 (the default)".to_string(), |l| format!(
                        "{l} (declared)"
                    ))
            ));
        }
    }
    parts.join(", ")
}

/// The text report.
pub fn render(cfg: &Config, out: &AdapterOutcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "conformance exhaustive --adapter {}: {}; {}; shard {}",
        cfg.adapter.name,
        out.targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        describe_walk(cfg, &out.targets),
        cfg.shard
    );
    for note in notes(&out.targets) {
        let _ = writeln!(s, "note: {note}");
    }
    let _ = writeln!(
        s,
        "{}; the adapter started {} time(s)",
        engine::render_units(&out.walk),
        out.starts
    );
    let found = &out.walk.findings;
    for (i, d) in found.iter().enumerate() {
        let _ = writeln!(s, "disagreement {}: {}", i + 1, d.describe());
    }
    if found.is_empty() {
        let _ = writeln!(s, "{}", engine::verdict_line(&out.walk, out.walk.complete));
    } else {
        let _ = writeln!(
            s,
            "FAIL: {} disagreement(s){}",
            found.len(),
            if found.len() >= cfg.max_failures {
                " (stopped at --max-failures)"
            } else {
                ""
            }
        );
    }
    s
}

/// The JSON report (`conformance/schema/exhaustive.schema.json`).
pub fn to_json(cfg: &Config, out: &AdapterOutcome) -> Value {
    let mut report = serde_json::Map::new();
    report.insert("report".into(), json!("conformance-exhaustive-adapter"));
    report.insert("reportVersion".into(), json!(super::REPORT_VERSION));
    report.insert("adapter".into(), json!(cfg.adapter.name));
    report.insert("command".into(), json!(cfg.adapter.command));
    report.insert(
        "targets".into(),
        json!(out.targets.iter().map(Target::label).collect::<Vec<_>>()),
    );
    report.insert("maxLen".into(), json!(cfg.max_len));
    report.insert(
        "maxCodepoint".into(),
        json!(format!("U+{:04X}", cfg.max_codepoint)),
    );
    report.insert("shard".into(), json!(cfg.shard.to_string()));
    report.extend(engine::json_fields(&out.walk, out.walk.findings.is_empty()));
    report.insert("adapterStarts".into(), json!(out.starts));
    report.insert(
        "disagreements".into(),
        json!(out
            .walk
            .findings
            .iter()
            .map(Disagreement::to_json)
            .collect::<Vec<_>>()),
    );
    report.insert(
        "vectorFiles".into(),
        json!(out
            .written
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()),
    );
    Value::Object(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_limit_without_an_edge_is_said() {
        let target = |limit| Target {
            encoding: Encoding::UtfInf8,
            op: Op::Decode,
            fields: vec![],
            limit,
        };
        assert!(notes(&[target(None), target(Some(MAX_EDGE_LIMIT))]).is_empty());
        let said = notes(&[target(Some(1 << 32))]);
        assert_eq!(said.len(), 1);
        assert!(
            said[0].contains("the declared limit 4294967296"),
            "{said:?}"
        );
    }
}
