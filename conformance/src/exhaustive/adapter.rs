//! `conformance exhaustive --adapter NAME=COMMAND`: every short input through an
//! implementation, against the spec-literal code, as a [`Walker`] of the resumable walk
//! ([`super::engine`]).
//!
//! For each encoding and operation the adapter declared (and `--encoding`/`--op` keep):
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
//! Each case is judged as `conformance run` judges a vector, as its answer arrives
//! ([`crate::differential::Session`]). The work is cut into units (per target: inputs by
//! length and all but their last two bytes, 65 536 at most; code points by blocks of
//! 65 536; the edges). The run stops after `--max-failures` disagreements, prints the
//! verdict (each disagreement with its hex input, expected and answered values), then
//! writes the disagreements as vector files.
//!
//! A checkpoint binds to the implementation by its name, its command, its hello answer,
//! the SHA-256 of every file its command names (the script, the binary: [`command_files`])
//! and its answers to fixed probes; what it cannot see is a file the command does not
//! name (a library the script loads), which the recheck of done units may catch.

use super::checkpoint::{Fingerprint, Probed};
use super::engine::{self, Outcome, UnitResult, Walker};
use super::probes::{fingerprint_inputs, FINGERPRINT_CODEPOINTS};
use super::Shard;
use crate::adapter;
use crate::adapter_spec::AdapterSpec;
use crate::differential::{Disagreement, Probe, Session, Target};
use crate::exit::UsageError;
use crate::protocol::Answer;
use crate::vectors::{Encoding, Op};
use conformance_checks::generate::edge_codepoints;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

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
/// The largest file of the command hashed whole for a checkpoint's identity; a larger one
/// is named with its size and modification time.
const MAX_HASHED_FILE: u64 = 1 << 30;

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

/// The words of a command that name an existing regular file (relative to the current
/// folder, or, for the first word without a `/`, found on `PATH`), each with the SHA-256
/// of its content: what a checkpoint of an adapter binds to besides the command's text.
/// Words are split as `sh` would split plain words (quotes removed); a file larger than
/// 1 GiB is named by its size and modification time instead.
pub fn command_files(command: &str) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for (i, word) in shell_words(command).into_iter().enumerate() {
        let path = PathBuf::from(&word);
        let found = if path.is_file() {
            Some(path)
        } else if i == 0 && !word.contains('/') {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(&word))
                    .find(|p| p.is_file())
            })
        } else {
            None
        };
        if let Some(path) = found {
            files.insert(word, file_digest(&path));
        }
    }
    files
}

/// `sha256:HEX` of a regular file, or why it could not be read.
fn file_digest(path: &Path) -> String {
    let describe = |e: std::io::Error| format!("unreadable: {}", e.kind());
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return describe(e),
    };
    if meta.len() > MAX_HASHED_FILE {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        return format!("size {} modified {mtime}", meta.len());
    }
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return describe(e),
    };
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return describe(e),
        }
    }
    let hex: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// The words of a command line as `sh` splits plain words: whitespace separates, single
/// and double quotes group (a backslash escapes the next character outside single
/// quotes). Expansions are left as they are (such a word names no file).
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The walk of one adapter.
struct AdapterWalk<'a> {
    session: &'a mut Session,
    cfg: &'a Config,
    targets: Vec<Target>,
    units: Vec<Unit>,
    /// Disagreements found so far (the walk stops at `--max-failures`).
    found: usize,
}

impl Walker for AdapterWalk<'_> {
    type Finding = Disagreement;

    fn weights(&self) -> Vec<u64> {
        self.units.iter().map(|u| u.size).collect()
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
            let unit = self.units[i];
            let target = self.targets[unit.target].clone();
            let mut r = UnitResult::default();
            let mut pos = 0;
            while pos < unit.size && self.found < self.cfg.max_failures {
                let end = (pos + BATCH).min(unit.size);
                let batch = probes(&unit, &target, self.cfg, pos, end);
                pos = end;
                let (found, max) = (&mut self.found, self.cfg.max_failures);
                let findings = &mut r.findings;
                self.session.check_each(&target, &batch, |k, result| {
                    if result.raw.is_failure() {
                        findings.push(Disagreement {
                            target: target.clone(),
                            probe: batch[k].clone(),
                            result,
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
    let units = all_units(&targets, cfg);
    let todo: u64 = units.iter().map(|u| u.size).sum();
    crate::errln!(
        "exhaustive --adapter {}: {} ({} units, {todo} cases in all)",
        session.name,
        targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        units.len()
    );
    let mut walker = AdapterWalk {
        session: &mut session,
        cfg,
        targets: targets.clone(),
        units,
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

/// The text report.
pub fn render(cfg: &Config, out: &AdapterOutcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "conformance exhaustive --adapter {}: {}; inputs of 1 to {} bytes, code points to \
         U+{:04X} and the table edges; shard {}",
        cfg.adapter.name,
        out.targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        cfg.max_len,
        cfg.max_codepoint,
        cfg.shard
    );
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

    fn cfg(max_len: usize, max_codepoint: u32) -> Config {
        Config {
            adapter: "x=x".parse().unwrap(),
            adapter_config: adapter::Config::default(),
            max_len,
            max_codepoint,
            shard: Shard::ALL,
            resume: None,
            encodings: vec![],
            ops: vec![],
            max_failures: 1,
            out: PathBuf::new(),
            recheck_units: engine::RECHECK_UNITS,
        }
    }

    fn target(op: Op) -> Target {
        Target {
            encoding: Encoding::CorrectedUtf8,
            op,
            fields: vec![],
            limit: None,
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
    fn a_command_is_split_into_words_as_sh_splits_them() {
        assert_eq!(shell_words("python3 a.py"), ["python3", "a.py"]);
        assert_eq!(
            shell_words(r#"sh -c 'exec ./x' "a b" c\ d"#),
            ["sh", "-c", "exec ./x", "a b", "c d"]
        );
        assert_eq!(shell_words("  "), Vec::<String>::new());
        assert_eq!(shell_words("''"), [""]);
    }

    #[test]
    fn the_files_a_command_names_are_hashed() {
        let dir = std::env::temp_dir().join(format!("conformance-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = dir.join("a.py");
        std::fs::write(&script, "print(1)\n").unwrap();
        let command = format!("sh {} --flag", script.display());
        let files = command_files(&command);
        let key = script.display().to_string();
        assert!(files[&key].starts_with("sha256:"), "{files:?}");
        // `sh` is found on PATH; `--flag` names nothing.
        assert!(
            files.contains_key("sh") && !files.contains_key("--flag"),
            "{files:?}"
        );
        let before = files[&key].clone();
        std::fs::write(&script, "print(2)\n").unwrap();
        assert_ne!(command_files(&command)[&key], before);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
