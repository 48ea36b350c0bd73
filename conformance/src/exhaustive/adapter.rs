//! `conformance exhaustive --adapter NAME=COMMAND`: every short input through an
//! implementation, against the spec-literal code.
//!
//! For each encoding and operation the adapter declared (and `--encodings`/`--op` keep):
//!
//! * decode and document: every input of 1 to `--max-len` bytes (default 3: 16 843 008
//!   inputs per operation);
//! * encode: every code point from U+0000 to `--max-codepoint` (default U+10FFFF), then
//!   the table edges above it ([`conformance_checks::generate::edge_codepoints`]: each
//!   row's first and last value, one step inside and outside, the gaps, the end of the
//!   code space and of `u32`, for UTF-∞-8 the forms' ends and the first long forms).
//!   Walking all 2^32 values through a pipe takes hours even at 100 000 cases/s; the
//!   edges are where an encoder's rows go wrong.
//!
//! Each case is judged as `conformance run` judges a vector ([`crate::adapter_check`]).
//! The work is cut into units (per target: inputs by length and all but their last two
//! bytes, 65 536 at most; code points by blocks of 65 536; the edges), numbered in that
//! order; `--shard K/N` takes every N-th unit and `--resume FILE` records the units done,
//! as in the reference's exhaustive run. The run stops after `--max-failures`
//! disagreements, prints them (hex input, expected, got) and writes them as vector files.

use super::{ranges, Args, Shard};
use crate::adapter_check::{
    default_out, write_all, Disagreement, FoundBy, Op, Probe, Session, Target,
};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use conformance_checks::generate::edge_codepoints;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The default `--max-len` with `--adapter`.
pub const DEFAULT_MAX_LEN: usize = 3;
/// The longest `--max-len` with `--adapter` (4: 4.3e9 inputs per operation).
pub const MAX_LEN: usize = 4;
/// The default `--max-codepoint`.
pub const DEFAULT_MAX_CODEPOINT: u32 = 0x10_FFFF;
/// Cases per round trip (one batch when the adapter declares batches).
const BATCH: u64 = 1024;
/// Inputs or code points per unit, at most.
const UNIT: u64 = 1 << 16;

/// Which inputs a unit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Span {
    /// Inputs of `len` bytes starting with the `len - 2` bytes of `prefix` (big-endian;
    /// none for `len` ≤ 2), then every value of the last one or two bytes.
    Bytes { len: usize, prefix: u64 },
    /// Code points `first..first + count`.
    CodePoints { first: u64 },
    /// The target's edge code points above `--max-codepoint`.
    Edges,
}

#[derive(Clone, Copy, Debug)]
struct Unit {
    target: usize,
    span: Span,
    size: u64,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// NAME and COMMAND.
    pub adapter: (String, String),
    /// Inputs of 1 to this many bytes.
    pub max_len: usize,
    /// Encode: every code point up to this one, then the edges.
    pub max_codepoint: u32,
    /// Which units.
    pub shard: Shard,
    /// Checkpoint file.
    pub resume: Option<PathBuf>,
    /// Only these encodings (all declared when empty).
    pub encodings: Vec<String>,
    /// Only these operations (all declared when empty).
    pub ops: Vec<Op>,
    /// Stop after this many disagreements.
    pub max_failures: usize,
    /// Where the vector files go.
    pub out: PathBuf,
}

/// The edge code points of `target` above `max`.
fn edges(target: &Target, max: u32) -> Vec<u128> {
    let mut e = edge_codepoints(target.codec_encoding());
    e.retain(|&v| v > u128::from(max));
    e
}

fn all_units(targets: &[Target], cfg: &Config) -> Vec<Unit> {
    let mut units = Vec::new();
    for (t, target) in targets.iter().enumerate() {
        match target.op {
            Op::Decode | Op::Document => {
                for len in 1..=cfg.max_len {
                    let tail = len.min(2) as u32;
                    let prefixes = 1u64 << (8 * (len - tail as usize));
                    for prefix in 0..prefixes {
                        units.push(Unit {
                            target: t,
                            span: Span::Bytes { len, prefix },
                            size: 1 << (8 * tail),
                        });
                    }
                }
            }
            Op::Encode => {
                let count = u64::from(cfg.max_codepoint) + 1;
                for first in (0..count).step_by(UNIT as usize) {
                    units.push(Unit {
                        target: t,
                        span: Span::CodePoints { first },
                        size: UNIT.min(count - first),
                    });
                }
                units.push(Unit {
                    target: t,
                    span: Span::Edges,
                    size: edges(target, cfg.max_codepoint).len() as u64,
                });
            }
        }
    }
    units
}

/// Items `from..to` of a unit.
fn probes(unit: &Unit, target: &Target, cfg: &Config, from: u64, to: u64) -> Vec<Probe> {
    match unit.span {
        Span::Bytes { len, prefix } => {
            let tail = len.min(2);
            let head = prefix.to_be_bytes();
            let head = &head[8 - (len - tail)..];
            (from..to)
                .map(|i| {
                    let mut b = head.to_vec();
                    b.extend_from_slice(&(i as u16).to_be_bytes()[2 - tail..]);
                    Probe::Bytes(b)
                })
                .collect()
        }
        Span::CodePoints { first } => (from..to)
            .map(|i| Probe::CodePoint(u128::from(first + i)))
            .collect(),
        Span::Edges => edges(target, cfg.max_codepoint)[from as usize..to as usize]
            .iter()
            .map(|&cp| Probe::CodePoint(cp))
            .collect(),
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The targets checked.
    pub targets: Vec<Target>,
    /// Units done (this run and the checkpoint's) / units of this shard.
    pub units: (usize, usize),
    /// Every unit of every target was done, unsharded.
    pub complete: bool,
    /// Cases checked (this run and the checkpoint's).
    pub cases: u64,
    /// Cases checked in this run.
    pub cases_now: u64,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// The disagreements found, in walk order.
    pub found: Vec<Disagreement>,
    /// Vector files written.
    pub written: Vec<PathBuf>,
}

const CHECKPOINT_FORMAT: &str = "conformance-exhaustive-adapter-checkpoint/1";

fn params(cfg: &Config, targets: &[Target]) -> Value {
    json!({
        "format": CHECKPOINT_FORMAT,
        "adapter": cfg.adapter.0,
        "command": cfg.adapter.1,
        "max_len": cfg.max_len,
        "max_codepoint": format!("U+{:04X}", cfg.max_codepoint),
        "shard": cfg.shard.to_string(),
        "targets": targets.iter().map(Target::label).collect::<Vec<_>>(),
    })
}

fn save(path: &Path, p: &Value, done: &[bool], cases: u64) -> Result<(), String> {
    let mut v = p.clone();
    v["done"] = json!(ranges(done));
    v["cases"] = json!(cases);
    let text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
    // Write then rename, so that a run killed mid-write leaves the last checkpoint whole.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text + "\n").map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Marks the checkpoint's units done; returns its case count.
fn load(path: &Path, p: &Value, done: &mut [bool]) -> Result<u64, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let bad = |what: &str| format!("{}: {what}", path.display());
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    for (key, want) in p.as_object().into_iter().flatten() {
        if v.get(key) != Some(want) {
            return Err(bad(&format!(
                "its {key} is {}, this run's is {want}",
                v.get(key).unwrap_or(&Value::Null)
            )));
        }
    }
    for r in v["done"].as_array().ok_or_else(|| bad("no done list"))? {
        let (Some(a), Some(b)) = (r[0].as_u64(), r[1].as_u64()) else {
            return Err(bad("malformed done range"));
        };
        for i in a..=b {
            *done
                .get_mut(i as usize)
                .ok_or_else(|| bad("unit index out of range"))? = true;
        }
    }
    Ok(v["cases"].as_u64().unwrap_or(0))
}

/// Runs the walk.
pub fn execute(cfg: &Config) -> Result<Outcome, UsageError> {
    if !(1..=MAX_LEN).contains(&cfg.max_len) {
        return Err(UsageError(format!(
            "--max-len must be 1 to {MAX_LEN} with --adapter"
        )));
    }
    if cfg.max_failures == 0 {
        return Err(UsageError("--max-failures must be at least 1".into()));
    }
    let mut session = Session::open(&cfg.adapter, &cfg.encodings, &cfg.ops)?;
    let targets = session.targets.clone();
    let units = all_units(&targets, cfg);
    let p = params(cfg, &targets);
    let mut done = vec![false; units.len()];
    let mut cases = match &cfg.resume {
        Some(path) => load(path, &p, &mut done).map_err(UsageError)?,
        None => 0,
    };
    let mine: Vec<usize> = (0..units.len()).filter(|&i| cfg.shard.takes(i)).collect();
    let todo: Vec<usize> = mine.iter().copied().filter(|&i| !done[i]).collect();
    let total: u64 = todo.iter().map(|&i| units[i].size).sum();
    crate::errln!(
        "exhaustive --adapter {}: {} ({} units, {total} cases to go)",
        session.name,
        targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        todo.len()
    );
    let start = Instant::now();
    let (mut last_progress, mut last_checkpoint) = (start, start);
    let mut now = 0u64;
    let mut found: Vec<Disagreement> = Vec::new();
    'walk: for &i in &todo {
        let unit = &units[i];
        let target = &targets[unit.target];
        let mut clean = true;
        let mut pos = 0;
        while pos < unit.size {
            let end = (pos + BATCH).min(unit.size);
            let batch = probes(unit, target, cfg, pos, end);
            let results = session.check(target, &batch);
            now += end - pos;
            pos = end;
            for (probe, result) in batch.into_iter().zip(results) {
                if result.raw.is_failure() {
                    clean = false;
                    found.push(Disagreement {
                        target: target.clone(),
                        probe,
                        result,
                    });
                    if found.len() >= cfg.max_failures {
                        break 'walk;
                    }
                }
            }
            if last_progress.elapsed() >= Duration::from_secs(10) {
                last_progress = Instant::now();
                crate::errln!("{}", progress_line(now, total, found.len(), start));
            }
        }
        // A unit with a disagreement is not done: a resumed run shows it again.
        done[i] = clean;
        if let Some(path) = &cfg.resume {
            if last_checkpoint.elapsed() >= Duration::from_secs(10) {
                last_checkpoint = Instant::now();
                if let Err(e) = save(path, &p, &done, cases + now) {
                    crate::errln!("conformance exhaustive: checkpoint: {e}");
                }
            }
        }
    }
    cases += now;
    if let Some(path) = &cfg.resume {
        save(path, &p, &done, cases).map_err(UsageError)?;
    }
    let written = if found.is_empty() {
        vec![]
    } else {
        let how = format!(
            "`conformance exhaustive --adapter` (inputs of 1 to {} bytes, code points to \
             U+{:04X} and the table edges)",
            cfg.max_len, cfg.max_codepoint
        );
        write_all(&cfg.out, &session, &found, FoundBy::Exhaustive, &how)?
    };
    Ok(Outcome {
        units: (mine.iter().filter(|&&i| done[i]).count(), mine.len()),
        complete: done.iter().all(|&d| d),
        targets,
        cases,
        cases_now: now,
        elapsed: start.elapsed(),
        found,
        written,
    })
}

fn progress_line(done: u64, total: u64, found: usize, start: Instant) -> String {
    let super::Pace {
        secs,
        rate,
        eta,
        percent,
    } = super::Pace::of(done, total, start);
    format!(
        "exhaustive --adapter: {done}/{total} ({percent:.1}%), {rate:.0} cases/s, {found} \
         disagreement(s), elapsed {secs:.0}s, ETA {eta}",
    )
}

/// The text report.
pub fn render(cfg: &Config, out: &Outcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "conformance exhaustive --adapter {}: {}; inputs of 1 to {} bytes, code points to \
         U+{:04X} and the table edges; shard {}",
        cfg.adapter.0,
        out.targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        cfg.max_len,
        cfg.max_codepoint,
        cfg.shard
    );
    let secs = out.elapsed.as_secs_f64();
    let _ = writeln!(
        s,
        "units done: {}/{}; cases: {} ({} in this run, {secs:.1} s, {:.0} cases/s)",
        out.units.0,
        out.units.1,
        out.cases,
        out.cases_now,
        out.cases_now as f64 / secs.max(1e-9)
    );
    for (i, d) in out.found.iter().enumerate() {
        let _ = writeln!(s, "disagreement {}: {}", i + 1, d.describe());
    }
    if out.found.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            if out.complete {
                "PASS (complete)"
            } else {
                "PASS (partial: this shard only)"
            }
        );
    } else {
        let _ = writeln!(
            s,
            "FAIL: {} disagreement(s){}",
            out.found.len(),
            if out.found.len() >= cfg.max_failures {
                " (stopped at --max-failures)"
            } else {
                ""
            }
        );
    }
    s
}

/// The JSON report.
pub fn to_json(cfg: &Config, out: &Outcome) -> Value {
    let secs = out.elapsed.as_secs_f64();
    json!({
        "adapter": cfg.adapter.0,
        "command": cfg.adapter.1,
        "targets": out.targets.iter().map(Target::label).collect::<Vec<_>>(),
        "max_len": cfg.max_len,
        "max_codepoint": format!("U+{:04X}", cfg.max_codepoint),
        "shard": cfg.shard.to_string(),
        "units_done": out.units.0,
        "units": out.units.1,
        "complete": out.complete,
        "passed": out.found.is_empty(),
        "cases": out.cases,
        "elapsed_seconds": secs,
        "cases_per_second": out.cases_now as f64 / secs.max(1e-9),
        "disagreements": out.found.iter().map(Disagreement::to_json).collect::<Vec<_>>(),
        "vector_files": out.written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    })
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

/// `conformance exhaustive --adapter`.
pub fn run(args: &Args, adapter: &(String, String)) -> ExitCode {
    if args.only.is_some() || args.threads.is_some() {
        crate::errln!("conformance exhaustive: --only and --threads do not apply with --adapter");
        return ExitCode::from(EXIT_USAGE as u8);
    }
    let cfg = Config {
        adapter: adapter.clone(),
        max_len: args.max_len.unwrap_or(DEFAULT_MAX_LEN),
        max_codepoint: args.max_codepoint.unwrap_or(DEFAULT_MAX_CODEPOINT),
        shard: args.shard.unwrap_or(Shard::ALL),
        resume: args.resume.clone(),
        encodings: args
            .encodings
            .iter()
            .map(|e| e.name().to_string())
            .collect(),
        ops: args.ops.clone(),
        max_failures: args.max_failures,
        out: args
            .out
            .clone()
            .unwrap_or_else(|| default_out("exhaustive")),
    };
    let out = match execute(&cfg) {
        Ok(out) => out,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    crate::out!("{}", render(&cfg, &out));
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&to_json(&cfg, &out)).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text + "\n") {
            crate::errln!("conformance exhaustive: {}: {e}", path.display());
            return ExitCode::from(EXIT_USAGE as u8);
        }
    }
    ExitCode::from(if out.found.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    } as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(max_len: usize, max_codepoint: u32) -> Config {
        Config {
            adapter: ("x".into(), "x".into()),
            max_len,
            max_codepoint,
            shard: Shard::ALL,
            resume: None,
            encodings: vec![],
            ops: vec![],
            max_failures: 1,
            out: PathBuf::new(),
        }
    }

    fn target(op: Op) -> Target {
        Target {
            encoding: "corrected-utf8".into(),
            op,
            fields: vec![],
        }
    }

    #[test]
    fn units_cover_every_input_once() {
        let cfg = cfg(2, 0x1_0000);
        let targets = [target(Op::Decode), target(Op::Encode)];
        let units = all_units(&targets, &cfg);
        let mut inputs = std::collections::HashSet::new();
        let mut cps = Vec::new();
        for u in &units {
            for p in probes(u, &targets[u.target], &cfg, 0, u.size) {
                match p {
                    Probe::Bytes(b) => assert!(inputs.insert(b)),
                    Probe::CodePoint(c) => cps.push(c),
                }
            }
        }
        assert_eq!(inputs.len(), 256 + 65_536);
        assert!(inputs.contains(&vec![0xFF, 0x00]) && inputs.contains(&vec![0x7F]));
        assert!(cps[..=0x1_0000]
            .iter()
            .enumerate()
            .all(|(i, &c)| c == i as u128));
        assert!(cps.contains(&0x8421_10A0) && !cps[0x1_0001..].contains(&0xA0));
        // Decode: one unit per length; encode: 2 blocks and the edges.
        assert_eq!(units.len(), 2 + 3);
        // Three bytes: one unit per first byte, each every value of the last two.
        let cfg = self::cfg(3, 0);
        let units = all_units(&targets[..1], &cfg);
        assert_eq!(units.len(), 2 + 256);
        let last = &units[257];
        let p = probes(last, &targets[0], &cfg, 65_535, 65_536);
        assert_eq!(p, [Probe::Bytes(vec![0xFF, 0xFF, 0xFF])]);
    }

    #[test]
    fn parses_code_points() {
        assert_eq!(parse_codepoint("U+10FFFF"), Ok(0x10FFFF));
        assert_eq!(parse_codepoint("0xff"), Ok(0xFF));
        assert!(parse_codepoint("U+1FFFFFFFF").is_err());
    }
}
