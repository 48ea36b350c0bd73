//! `conformance fuzz --adapter NAME=COMMAND`: structure-aware differential fuzzing of an
//! implementation against the spec-literal code.
//!
//! Inputs come from [`conformance_checks::generate`] (table edges, truncations, FE/FF
//! runs, magic numbers, big UTF-∞-8 codes, mixes) and from mutations of the committed fuzz
//! corpus ([`corpus`]), for every encoding and operation the adapter declared, in batches.
//! Each answer is judged as `conformance run` judges a vector, as it arrives
//! ([`crate::differential::Session`]). A disagreement on bytes is minimized against the
//! adapter ([`conformance_checks::minimize`]: the smallest input that still fails in the
//! same field, 1-minimal for single bytes and whole sequences).
//!
//! Disagreements are told apart by their [class](crate::differential::Disagreement::class),
//! one per root cause as far as an answer can tell: the encoding, the operation, the first
//! field that differs and how its first differing item differs. A class already found is
//! counted, not minimized again, and the smallest input of each is kept. A target
//! (encoding and operation) that has `--max-failures` classes is no longer fuzzed; the
//! others are.
//!
//! Time: no case is sent after `--seconds`; a case sent before then waits its whole
//! `--timeout` (so the command may end up to one `--timeout` later), and one unanswered
//! by then is a timeout, judged like any other. Cases sent in a batch that failed as a
//! whole after `--seconds`, too late to be sent again one by one, have no verdict: the
//! run is then INCOMPLETE (exit 1), never a pass. The disagreements are written as vector
//! files of the `vectors/` schema, with the one-line `conformance run` command that
//! replays them, after the verdict is printed.

pub mod corpus;

use crate::adapter;
use crate::adapter_spec::AdapterSpec;
use crate::differential::{write_all, Disagreement, FoundBy, Probe, Session, Signature, Target};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use crate::judge::CaseResult;
use crate::vectors::{Encoding, Op};
use conformance_checks::generate::Rng;
use corpus::{load_corpus, make_probe, Corpus};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

/// Cases per round trip (one batch when the adapter declares batches).
const BATCH: usize = 256;
/// The longest `--seconds` and `--progress`: 115 days.
pub const MAX_SECONDS: f64 = 1e7;
/// The most `--max-failures`.
pub const MAX_FAILURES: usize = 100_000;
/// The default `--max-failures`.
pub const DEFAULT_MAX_FAILURES: usize = 5;

/// What `conformance fuzz` runs: plain values (the command line's parser builds them).
#[derive(Clone, Debug)]
pub struct Config {
    /// The implementation.
    pub adapter: AdapterSpec,
    /// How it runs.
    pub adapter_config: adapter::Config,
    /// No case is sent after this long.
    pub seconds: Duration,
    /// The random seed (`None`: from the clock; printed either way).
    pub seed: Option<u64>,
    /// Per target: stop fuzzing it after this many classes of disagreement.
    pub max_failures: usize,
    /// Only these encodings (all declared when empty).
    pub encodings: Vec<Encoding>,
    /// Only these operations (all declared when empty).
    pub ops: Vec<Op>,
    /// The corpus to mutate (`None`: the one built into the binary).
    pub corpus: Option<PathBuf>,
    /// Where the vector files go.
    pub out: PathBuf,
    /// Between progress lines on stderr.
    pub progress: Duration,
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// `conformance fuzz`: fuzzes, prints the verdict, then writes the vector files.
pub fn run(cfg: &Config) -> ExitCode {
    let code = match fuzz(cfg) {
        Ok(code) => code,
        Err(e) => {
            crate::errln!("conformance fuzz: {e}");
            EXIT_USAGE
        }
    };
    ExitCode::from(crate::console::exit_code("conformance fuzz", code) as u8)
}

/// The findings so far: one disagreement per class, the smallest input found.
#[derive(Default)]
struct Findings {
    /// In the order their classes were found.
    found: Vec<Disagreement>,
    /// Every class seen, before and after minimizing (a class seen is not minimized again).
    seen: HashSet<String>,
    /// Disagreements whose class was already found.
    repeats: u64,
}

impl Findings {
    /// Adds a minimized disagreement: a new class, a smaller input of a known one, or a
    /// repeat; prints the first two.
    fn add(&mut self, d: Disagreement) {
        let class = d.class();
        self.seen.insert(class.clone());
        match self.found.iter().position(|f| f.class() == class) {
            None => {
                crate::out!("disagreement {}: {}\n", self.found.len() + 1, d.describe());
                self.found.push(d);
            }
            Some(i) => {
                self.repeats += 1;
                if size(&d.probe) < size(&self.found[i].probe) {
                    crate::out!(
                        "disagreement {} (a smaller input): {}\n",
                        i + 1,
                        d.describe()
                    );
                    self.found[i] = d;
                }
            }
        }
    }

    fn of(&self, target: &Target) -> usize {
        self.found.iter().filter(|d| d.target == *target).count()
    }
}

/// The decode target of `target`'s encoding when `target` is a document target: the one
/// that can tell whether a document disagreement is the decoder's.
fn decoder_of<'a>(targets: &'a [Target], target: &Target) -> Option<&'a Target> {
    if target.op != Op::Document {
        return None;
    }
    targets
        .iter()
        .find(|t| t.op == Op::Decode && t.encoding == target.encoding)
}

/// Bytes: their length; a code point: 0 (never replaced by another).
fn size(p: &Probe) -> usize {
    match p {
        Probe::Bytes(b) => b.len(),
        Probe::CodePoint(_) => 0,
    }
}

fn fuzz(cfg: &Config) -> Result<i32, UsageError> {
    let seed = cfg.seed.unwrap_or_else(clock_seed);
    // The corpus first: a bad --corpus is told before the adapter starts.
    let (corpus, corpus_name) = match &cfg.corpus {
        Some(dir) => (load_corpus(dir)?, dir.display().to_string()),
        None => (Corpus::embedded(), "(built in)".to_string()),
    };
    let mut session = Session::open(&cfg.adapter, cfg.adapter_config, &cfg.encodings, &cfg.ops)?;
    // The time given is for sending cases: it starts once the adapter has answered its
    // hello (a slow start-up takes nothing from it).
    let start = Instant::now();
    session.set_deadline(start + cfg.seconds);
    let targets = session.targets.clone();
    crate::out!(
        "conformance fuzz --adapter {}: seed {seed}, {} s, {}; corpus {}: {} inputs, {} code \
         points\n",
        session.name,
        cfg.seconds.as_secs_f64(),
        targets
            .iter()
            .map(Target::label)
            .collect::<Vec<_>>()
            .join(", "),
        corpus_name,
        corpus.bytes.len(),
        corpus.code_points.len()
    );
    let mut rng = Rng::new(seed);
    let mut last_progress = start;
    let mut findings = Findings::default();
    let mut generated = 0u64;
    // Inputs generated per target, for the summary.
    let mut per_target = vec![0u64; targets.len()];
    // The targets still fuzzed: those with fewer than --max-failures classes.
    let mut active: Vec<usize> = (0..targets.len()).collect();
    while !session.past_deadline() && !active.is_empty() {
        let t = active[rng.index(active.len())];
        let target = &targets[t];
        let probes: Vec<Probe> = (0..BATCH)
            .map(|_| make_probe(&mut rng, target, &corpus))
            .collect();
        generated += probes.len() as u64;
        per_target[t] += probes.len() as u64;
        // The round's failures, judged as they came (each a bounded result); minimized
        // after the round, when the adapter is free again.
        let mut failing = Vec::new();
        session.check_each(target, &probes, |i, result| {
            if let Some(sig) = Signature::of(&result) {
                failing.push((i, sig, result));
            }
            ControlFlow::Continue(())
        });
        // A document input the decoder gets wrong too is put down to the decoder.
        let decoder_disagrees = match decoder_of(&targets, target) {
            Some(decoder) if !failing.is_empty() => {
                let inputs: Vec<Probe> = failing.iter().map(|f| probes[f.0].clone()).collect();
                let mut wrong = vec![false; inputs.len()];
                session.check_each(decoder, &inputs, |k, result| {
                    wrong[k] = Signature::of(&result).is_some();
                    ControlFlow::Continue(())
                });
                wrong
            }
            _ => vec![false; failing.len()],
        };
        for ((i, sig, result), decoder_disagrees) in failing.into_iter().zip(decoder_disagrees) {
            let mut d = Disagreement {
                target: target.clone(),
                probe: probes[i].clone(),
                result,
                decoder_disagrees,
            };
            // A class already found is counted, not minimized again.
            if !findings.seen.insert(d.class()) {
                findings.repeats += 1;
                continue;
            }
            // One the decoder explains is left as found: the decode target minimizes the
            // decoder's own disagreements.
            if let (Probe::Bytes(bytes), false) = (&d.probe, d.decoder_disagrees) {
                // Smaller inputs that fail another way (another bug) are not this finding.
                let class = d.class();
                let still_fails =
                    |r: &CaseResult| sig.matches(r) && Disagreement::class_of(target, r) == class;
                if let Some((small, result)) = session.minimize(target, bytes, still_fails) {
                    d = Disagreement {
                        probe: Probe::Bytes(small),
                        result,
                        ..d
                    };
                }
            }
            findings.add(d);
            if findings.of(target) >= cfg.max_failures {
                active.retain(|&a| a != t);
                break;
            }
        }
        if last_progress.elapsed() >= cfg.progress {
            last_progress = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            crate::errln!(
                "fuzz: {generated} inputs, {} cases judged, {:.0} cases/s, {} class(es) of \
                 disagreement, {:.0} s left",
                session.sent,
                session.sent as f64 / secs.max(1e-9),
                findings.found.len(),
                (cfg.seconds.as_secs_f64() - secs).max(0.0)
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    crate::out!(
        "{generated} inputs, {} cases judged (with minimizing) in {secs:.1} s: {:.0} cases/s; \
         seed {seed}; the adapter started {} time(s)\ninputs per target: {}\n",
        session.sent,
        session.sent as f64 / secs.max(1e-9),
        session.starts(),
        targets
            .iter()
            .zip(&per_target)
            .map(|(t, n)| format!("{} {n}", t.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let unjudged = session.unjudged;
    if unjudged.not_sent > 0 {
        crate::out!(
            "time was up: {} case(s) not sent (after --seconds; not part of the run)\n",
            unjudged.not_sent
        );
    }
    if active.is_empty() {
        crate::out!(
            "stopped: every encoding and operation has --max-failures ({}) classes\n",
            cfg.max_failures
        );
    }
    let found = &findings.found;
    if found.is_empty() {
        if unjudged.lost > 0 {
            crate::out!(
                "INCOMPLETE: {} case(s) sent and not judged (sent in batches that failed as a \
                 whole after --seconds, too late to send them again one by one); no \
                 disagreement among the {} judged\n",
                unjudged.lost,
                session.sent
            );
            return Ok(EXIT_FAILED);
        }
        if session.sent == 0 {
            crate::out!(
                "NOT CHECKED: no case was answered within --seconds (the adapter's timeout per \
                 case is {} s)\n",
                cfg.adapter_config.timeout.as_secs_f64()
            );
            return Ok(EXIT_FAILED);
        }
        crate::out!("PASS: no disagreement\n");
        return Ok(EXIT_OK);
    }
    // The verdict first: a file that cannot be written loses nothing that was found.
    crate::out!(
        "FAIL: {} class(es) of disagreement{}{}\n",
        found.len(),
        if findings.repeats > 0 {
            format!(" ({} more input(s) of the same classes)", findings.repeats)
        } else {
            String::new()
        },
        if unjudged.lost > 0 {
            format!(
                "; {} case(s) sent and not judged (a batch failed after --seconds)",
                unjudged.lost
            )
        } else {
            String::new()
        }
    );
    let how = format!("`conformance fuzz` (seed {seed}), minimized by delta debugging");
    let (_, errors) = write_all(&cfg.out, &session, found, FoundBy::Fuzzing, &how);
    if errors.is_empty() {
        return Ok(EXIT_FAILED);
    }
    for e in &errors {
        crate::errln!("conformance fuzz: {e}");
    }
    Ok(EXIT_USAGE)
}
