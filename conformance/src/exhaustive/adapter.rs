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
//! as in the reference's exhaustive run. A checkpoint is believed only after the checks of
//! [`super::checkpoint`]: its checksum, the walk's parameters, the adapter's name, command
//! and hello answer, a fingerprint of its answers to fixed probes asked again, and a
//! random sample of the inputs it records as done, checked again. The run stops after
//! `--max-failures` disagreements, prints the verdict (each disagreement with its hex
//! input, expected and answered values), then writes the disagreements as vector files.

use super::checkpoint::{self, Fingerprint, Probed};
use super::{Args, Shard};
use crate::adapter_check::{
    default_out, write_all, Disagreement, FoundBy, Op, Probe, Session, Target,
};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::run::report::output::Output;
use crate::run::Answer;
use conformance_checks::generate::{edge_codepoints, Rng};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;
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
    pub encodings: Vec<crate::vectors::Encoding>,
    /// Only these operations (all declared when empty).
    pub ops: Vec<Op>,
    /// Stop after this many disagreements.
    pub max_failures: usize,
    /// Where the vector files go.
    pub out: PathBuf,
}

/// The edge code points of `target` above `max`.
fn edges(target: &Target, max: u32) -> Vec<u128> {
    let mut e = edge_codepoints(target.encoding);
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

/// What a resumed run found in its checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The checkpoint file.
    pub file: PathBuf,
    /// Units of this shard it records as done.
    pub units: usize,
    /// The cases in them.
    pub cases: u64,
    /// The fixed probes asked again, whose answers matched the recorded fingerprint.
    pub probes: u64,
    /// Cases of its done units checked again (a random sample, or all of them when
    /// fewer).
    pub sampled: u64,
    /// Whether the sample passed, so that its units were believed (when not, the sample's
    /// disagreements are the run's and nothing else was walked).
    pub believed: bool,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The targets checked.
    pub targets: Vec<Target>,
    /// Units done (this run and a believed checkpoint's) / units of this shard.
    pub units: (usize, usize),
    /// Every unit of every target was done, unsharded (in this run, or in a checkpoint
    /// that passed every check).
    pub complete: bool,
    /// Cases checked (this run and a believed checkpoint's).
    pub cases: u64,
    /// Cases checked in this run (the walk; the probes and the sample not counted).
    pub cases_now: u64,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// The disagreements found, in walk order.
    pub found: Vec<Disagreement>,
    /// Vector files written (by [`run`], after the verdict).
    pub written: Vec<PathBuf>,
    /// The checkpoint resumed from, if any.
    pub resumed: Option<Resumed>,
    /// How many times the adapter was started (1 when it never had to be restarted).
    pub starts: usize,
    /// The checkpoint could not be saved at the end (the verdict stands; exit 2).
    pub checkpoint_error: Option<String>,
}

const CHECKPOINT_FORMAT: &str = "conformance-exhaustive-adapter-checkpoint/2";

/// The cases of done units checked again at resume (all of them when there are fewer).
pub const SAMPLE: u64 = 1024;

/// What a checkpoint of `exhaustive --adapter` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Checkpoint {
    format: String,
    /// What must be the same to resume: the walk and the implementation
    /// ([`identity`]).
    identity: Value,
    /// The fingerprint of the answers to [`fingerprint_probes`].
    probes: Probed,
    /// The units done, as inclusive index ranges.
    done: Vec<[u64; 2]>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    checksum: String,
}

/// The walk's parameters and what identifies the implementation.
fn identity(cfg: &Config, session: &Session) -> Value {
    json!({
        "adapter": cfg.adapter.0,
        "command": cfg.adapter.1,
        "hello": session.declaration,
        "maxLen": cfg.max_len,
        "maxCodepoint": format!("U+{:04X}", cfg.max_codepoint),
        "shard": cfg.shard.to_string(),
        "targets": session.targets.iter().map(Target::label).collect::<Vec<_>>(),
    })
}

/// Inputs whose answers fingerprint a decoder or document checker: every row's edges,
/// errors of each kind, reserved bytes, the magic number.
const FINGERPRINT_INPUTS: [&str; 40] = [
    "00",
    "41",
    "7f",
    "80",
    "bf",
    "c0",
    "c1",
    "c2",
    "df",
    "e0",
    "ed",
    "ef",
    "f0",
    "f4",
    "f5",
    "f8",
    "fc",
    "fe",
    "ff",
    "c080",
    "c280",
    "c2a0",
    "dfbf",
    "e080",
    "e0a080",
    "ed9fbf",
    "eda080",
    "edb080",
    "efbfbf",
    "f0908080",
    "f48fbfbf",
    "f4908080",
    "f8888080",
    "fefe",
    "ff80",
    "41c0",
    "e08041",
    "f58fbfbfdf94",
    "dcbcf0ef0000de",
    "efbbbf41",
];

/// Code points whose answers fingerprint an encoder: each row's ends, the gaps, the ends
/// of the code space and of `u32` (and past it, for UTF-∞-8).
pub(super) const FINGERPRINT_CODEPOINTS: [u128; 20] = [
    0x0,
    0x41,
    0x7F,
    0x80,
    0x9F,
    0xA0,
    0x7FF,
    0x800,
    0x89F,
    0xD7FF,
    0xD800,
    0xDFFF,
    0xE000,
    0xFFFF,
    0x1_0000,
    0x10_FFFF,
    0x11_0000,
    0x7FFF_FFFF,
    0xFFFF_FFFF,
    1 << 40,
];

/// [`FINGERPRINT_INPUTS`] as bytes.
pub(super) fn fingerprint_inputs() -> Vec<Vec<u8>> {
    FINGERPRINT_INPUTS
        .iter()
        .map(|h| {
            (0..h.len())
                .step_by(2)
                .filter_map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
                .collect()
        })
        .collect()
}

/// The fixed probes of a target whose answers fingerprint the implementation.
fn fingerprint_probes(target: &Target) -> Vec<Probe> {
    match target.op {
        Op::Decode | Op::Document => fingerprint_inputs().into_iter().map(Probe::Bytes).collect(),
        Op::Encode => FINGERPRINT_CODEPOINTS
            .iter()
            .filter(|&&cp| {
                target.encoding == crate::vectors::Encoding::UtfInf8 || cp <= u128::from(u32::MAX)
            })
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

/// A field's JSON text, canonical when it is short enough to read as a JSON value (every
/// right answer to a fixed probe is); a longer one is kept as its text, so that an adapter
/// answering a probe with a line near the cap costs that line, not a tree of it.
fn canonical_text(raw: &str) -> String {
    const MAX: usize = 64 * 1024;
    if raw.len() <= MAX {
        if let Ok(v) = serde_json::from_str::<Value>(raw) {
            return canonical(&v).to_string();
        }
    }
    format!("raw {raw}")
}

/// The fingerprint of the adapter's answers to every target's fixed probes: for a
/// response, the fields it declared (and encode's `bytes` and `error`), canonical; for
/// anything else, the status alone (its message holds times and process ids).
fn fingerprint(session: &mut Session) -> Probed {
    let mut print = Fingerprint::default();
    for target in session.targets.clone() {
        let (_, answers) = session.ask(&target, &fingerprint_probes(&target));
        for answer in answers {
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
            };
            print.add(&format!("{} {text}", target.label()));
        }
    }
    print.finish()
}

/// Checks a checkpoint read from `file` against this run: the same walk and
/// implementation, and the same answers to the fixed probes. The fingerprint of this
/// run's answers is `now`.
fn check_identity(
    file: &std::path::Path,
    c: &Checkpoint,
    identity: &Value,
    now: &Probed,
) -> Result<(), String> {
    let differences = checkpoint::differences(&c.identity, identity);
    if !differences.is_empty() {
        return Err(format!(
            "{}: made by another walk or implementation ({}); delete it or use another file",
            file.display(),
            differences.join("; ")
        ));
    }
    if c.probes != *now {
        return Err(format!(
            "{}: this adapter's answers to the {} fixed probes differ from the ones the \
             checkpoint recorded: another implementation (or version) behind the same command; \
             the checkpoint is not believed (delete it to start over)",
            file.display(),
            now.answers
        ));
    }
    Ok(())
}

/// Checks again up to [`SAMPLE`] random cases of the done units of `mine` (all of them
/// when there are fewer); returns how many, and the disagreements.
fn recheck_sample(
    session: &mut Session,
    units: &[Unit],
    mine: &[usize],
    done: &[bool],
    cfg: &Config,
) -> (u64, Vec<Disagreement>) {
    let done_units: Vec<usize> = mine.iter().copied().filter(|&i| done[i]).collect();
    let total: u64 = done_units.iter().map(|&i| units[i].size).sum();
    let targets = session.targets.clone();
    // Per target: (unit, index) pairs to ask.
    let mut picks: Vec<Vec<(usize, u64)>> = vec![Vec::new(); targets.len()];
    if total <= SAMPLE {
        for &i in &done_units {
            for k in 0..units[i].size {
                picks[units[i].target].push((i, k));
            }
        }
    } else {
        let mut rng = Rng::new(checkpoint::sample_seed());
        // Cumulative case counts, to draw a case uniformly.
        let mut ends = Vec::with_capacity(done_units.len());
        let mut sum = 0u64;
        for &i in &done_units {
            sum += units[i].size;
            ends.push(sum);
        }
        for _ in 0..SAMPLE {
            let r = rng.next_u64() % total;
            let at = ends.partition_point(|&e| e <= r);
            let i = done_units[at];
            let before = if at == 0 { 0 } else { ends[at - 1] };
            picks[units[i].target].push((i, r - before));
        }
    }
    let mut asked = 0;
    let mut found = Vec::new();
    for (t, picked) in picks.iter().enumerate() {
        let target = &targets[t];
        for chunk in picked.chunks(BATCH as usize) {
            let batch: Vec<Probe> = chunk
                .iter()
                .flat_map(|&(i, k)| probes(&units[i], target, cfg, k, k + 1))
                .collect();
            let results = session.check(target, &batch);
            asked += results.len() as u64;
            for (probe, result) in batch.into_iter().zip(results) {
                if result.raw.is_failure() && found.len() < cfg.max_failures {
                    found.push(Disagreement {
                        target: target.clone(),
                        probe,
                        result,
                    });
                }
            }
        }
    }
    (asked, found)
}

/// Runs the walk; returns its outcome and the session (for the vector files).
pub fn walk(cfg: &Config) -> Result<(Outcome, Session), UsageError> {
    if !(1..=MAX_LEN).contains(&cfg.max_len) {
        return Err(UsageError(format!(
            "--max-len must be 1 to {MAX_LEN} with --adapter"
        )));
    }
    if cfg.max_failures == 0 {
        return Err(UsageError("--max-failures must be at least 1".into()));
    }
    let start = Instant::now();
    let mut session = Session::open(&cfg.adapter, &cfg.encodings, &cfg.ops)?;
    let targets = session.targets.clone();
    let units = all_units(&targets, cfg);
    let mine: Vec<usize> = (0..units.len()).filter(|&i| cfg.shard.takes(i)).collect();
    let mut done = vec![false; units.len()];
    let identity = identity(cfg, &session);
    // With --resume: the fingerprint of this adapter, then the checkpoint's claims checked.
    let probed = cfg.resume.as_ref().map(|_| fingerprint(&mut session));
    let mut resumed = None;
    if let (Some(file), Some(now)) = (&cfg.resume, &probed) {
        if let Some(c) =
            checkpoint::read::<Checkpoint>(file, CHECKPOINT_FORMAT).map_err(UsageError)?
        {
            check_identity(file, &c, &identity, now).map_err(UsageError)?;
            checkpoint::mark_done(file, &c.done, &mut done).map_err(UsageError)?;
            let (sampled, found) = recheck_sample(&mut session, &units, &mine, &done, cfg);
            let from = mine.iter().filter(|&&i| done[i]);
            let r = Resumed {
                file: file.clone(),
                units: from.clone().count(),
                cases: from.map(|&i| units[i].size).sum(),
                probes: now.answers,
                sampled,
                believed: found.is_empty(),
            };
            if !found.is_empty() {
                // Not believed: the sample's disagreements are the verdict; the
                // checkpoint is left as it was, nothing else is walked.
                let outcome = Outcome {
                    targets,
                    units: (0, mine.len()),
                    complete: false,
                    cases: 0,
                    cases_now: 0,
                    elapsed: start.elapsed(),
                    found,
                    written: vec![],
                    resumed: Some(r),
                    starts: session.starts(),
                    checkpoint_error: None,
                };
                return Ok((outcome, session));
            }
            resumed = Some(r);
        }
    }
    let save = |done: &[bool]| -> Result<(), String> {
        match (&cfg.resume, &probed) {
            (Some(file), Some(probes)) => checkpoint::write(
                file,
                &Checkpoint {
                    format: CHECKPOINT_FORMAT.into(),
                    identity: identity.clone(),
                    probes: probes.clone(),
                    done: checkpoint::ranges(done),
                    checksum: String::new(),
                },
            ),
            _ => Ok(()),
        }
    };
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
    let (mut last_progress, mut last_checkpoint) = (Instant::now(), Instant::now());
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
            now += results.len() as u64;
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
        if cfg.resume.is_some() && last_checkpoint.elapsed() >= Duration::from_secs(10) {
            last_checkpoint = Instant::now();
            // A checkpoint that cannot be written here only costs a resume; the last
            // one's failure is reported.
            if let Err(e) = save(&done) {
                crate::errln!("conformance exhaustive: checkpoint: {e}");
            }
        }
    }
    let checkpoint_error = save(&done).err();
    let outcome = Outcome {
        units: (mine.iter().filter(|&&i| done[i]).count(), mine.len()),
        complete: done.iter().all(|&d| d),
        targets,
        cases: resumed.as_ref().map_or(0, |r| r.cases) + now,
        cases_now: now,
        elapsed: start.elapsed(),
        found,
        written: vec![],
        resumed,
        starts: session.starts(),
        checkpoint_error,
    };
    Ok((outcome, session))
}

/// Runs the walk ([`walk`]) without writing vector files.
pub fn execute(cfg: &Config) -> Result<Outcome, UsageError> {
    walk(cfg).map(|(outcome, _)| outcome)
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

/// What the checkpoint contributed, for the report.
fn resumed_text(r: &Resumed) -> String {
    if r.believed {
        format!(
            "{} from the checkpoint {} ({} unit(s); believed after its checksum, the walk's \
             parameters, the adapter's hello, {} fixed probes and {} of its cases checked \
             again)",
            r.cases,
            r.file.display(),
            r.units,
            r.probes,
            r.sampled
        )
    } else {
        format!(
            "the checkpoint {} NOT BELIEVED: of {} of its cases checked again, some disagree \
             (the implementation changed, or the file was edited); nothing else was walked \
             and the file was left as it was: delete it to walk again",
            r.file.display(),
            r.sampled
        )
    }
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
        "units done: {}/{}; cases: {} ({} in this run, {secs:.1} s, {:.0} cases/s{}); the \
         adapter started {} time(s)",
        out.units.0,
        out.units.1,
        out.cases,
        out.cases_now,
        out.cases_now as f64 / secs.max(1e-9),
        out.resumed
            .as_ref()
            .map(|r| format!("; {}", resumed_text(r)))
            .unwrap_or_default(),
        out.starts
    );
    for (i, d) in out.found.iter().enumerate() {
        let _ = writeln!(s, "disagreement {}: {}", i + 1, d.describe());
    }
    if out.found.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            match (&out.resumed, out.complete) {
                (Some(r), true) if r.units > 0 => format!(
                    "PASS (complete: {} case(s) checked in this run, {} from the checkpoint)",
                    out.cases_now, r.cases
                ),
                (_, true) => "PASS (complete)".to_string(),
                (_, false) => "PASS (partial: this shard only)".to_string(),
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

/// The version of the JSON reports of `exhaustive` (`reportVersion`; docs/report.md).
pub const REPORT_VERSION: u64 = 2;

/// The JSON report (`conformance/schema/exhaustive.schema.json`).
pub fn to_json(cfg: &Config, out: &Outcome) -> Value {
    let secs = out.elapsed.as_secs_f64();
    json!({
        "report": "conformance-exhaustive-adapter",
        "reportVersion": REPORT_VERSION,
        "adapter": cfg.adapter.0,
        "command": cfg.adapter.1,
        "targets": out.targets.iter().map(Target::label).collect::<Vec<_>>(),
        "maxLen": cfg.max_len,
        "maxCodepoint": format!("U+{:04X}", cfg.max_codepoint),
        "shard": cfg.shard.to_string(),
        "unitsDone": out.units.0,
        "units": out.units.1,
        "complete": out.complete,
        "passed": out.found.is_empty(),
        "cases": out.cases,
        "casesThisRun": out.cases_now,
        "checkpoint": out.resumed.as_ref().map(|r| json!({
            "file": r.file.display().to_string(),
            "believed": r.believed,
            "units": r.units,
            "cases": r.cases,
            "probes": r.probes,
            "sampled": r.sampled,
        })),
        "adapterStarts": out.starts,
        "elapsedSeconds": secs,
        "casesPerSecond": out.cases_now as f64 / secs.max(1e-9),
        "disagreements": out.found.iter().map(Disagreement::to_json).collect::<Vec<_>>(),
        "vectorFiles": out.written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
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

/// `conformance exhaustive --adapter`: walks, prints the verdict, then writes the vector
/// files and `--json` (planned by `plan_json`; each atomically; one that cannot
/// be written is named, exit 2).
pub fn run(args: &Args, adapter: &(String, String), json: Option<&Output>) -> ExitCode {
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
            .map(|&e| crate::vectors::vector_encoding(e))
            .collect(),
        ops: args.ops.clone(),
        max_failures: args.max_failures,
        out: args
            .out
            .clone()
            .unwrap_or_else(|| default_out("exhaustive")),
    };
    let (mut outcome, session) = match walk(&cfg) {
        Ok(r) => r,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    // The verdict first: nothing after it can lose it.
    crate::out!("{}", render(&cfg, &outcome));
    let mut errors: Vec<String> = outcome.checkpoint_error.iter().cloned().collect();
    if !outcome.found.is_empty() {
        let how = format!(
            "`conformance exhaustive --adapter` (inputs of 1 to {} bytes, code points to \
             U+{:04X} and the table edges)",
            cfg.max_len, cfg.max_codepoint
        );
        let (written, failed) = write_all(
            &cfg.out,
            &session,
            &outcome.found,
            FoundBy::Exhaustive,
            &how,
        );
        outcome.written = written;
        errors.extend(failed);
    }
    drop(session);
    if let Some(json) = json {
        errors.extend(super::write_json(json, &to_json(&cfg, &outcome)).err());
    }
    for e in &errors {
        crate::errln!("conformance exhaustive: {e}");
    }
    ExitCode::from(if !errors.is_empty() {
        EXIT_USAGE
    } else if outcome.found.is_empty() {
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
            encoding: crate::vectors::Encoding::CorrectedUtf8,
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
