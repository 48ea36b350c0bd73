//! `conformance fuzz --adapter NAME=COMMAND`: structure-aware differential fuzzing of an
//! implementation against the spec-literal code.
//!
//! Inputs come from [`conformance_checks::generate`] (table edges, truncations, FE/FF
//! runs, magic numbers, big UTF-∞-8 codes, mixes) and from mutations of the committed fuzz
//! corpus (`corpus/<target>/`, each file read in its target's layout; built into the binary,
//! [`crate::seed_corpus::EMBEDDED`], or `--corpus DIR`), for every encoding
//! and operation the adapter declared, in batches. Each answer is judged as `conformance
//! run` judges a vector. A disagreement on bytes is minimized against the adapter
//! ([`conformance_checks::minimize`]: the smallest input that still fails in the same
//! field, 1-minimal for single bytes and whole sequences). Disagreements are told apart by
//! their [class](super::Disagreement::class): a class already found is counted, not
//! minimized again, and the smallest input of each is kept. A target (encoding and
//! operation) that has `--max-failures` classes is no longer fuzzed; the others are.
//! `--seconds` bounds the whole command, minimizing included: at the deadline the
//! smallest input found so far is reported. The disagreements are written as vector
//! files of the `vectors/` schema, with the one-line `conformance run` command that
//! replays them, after the verdict is printed.

use super::{
    count_in, default_out, seconds_in, write_all, Disagreement, FoundBy, Op, Probe, Session,
    Signature, Target, CASE_TIMEOUT,
};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use conformance_checks::generate::{self, CorpusPayload, Rng};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

/// Cases per round trip (one batch when the adapter declares batches).
const BATCH: usize = 256;
/// The longest `--seconds` and `--progress`: 115 days.
const MAX_SECONDS: f64 = 1e7;
/// The most `--max-failures`.
pub const MAX_FAILURES: u64 = 100_000;
/// The largest corpus file read (the fuzz targets' inputs are far smaller).
const MAX_CORPUS_FILE: u64 = 1 << 20;

/// The arguments of `conformance fuzz`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 cases were checked and none disagreed; 1 a disagreement \
(minimized, written as a vector file, with the command that reproduces it), or no case \
answered in the time given; 2 bad usage, an adapter that declares nothing checkable, or a file \
that cannot be written (after the verdict is printed). See conformance/README.md, \"Fuzzing \
an adapter\"."
)]
pub struct Args {
    /// The implementation: NAME=COMMAND, run once through `sh -c COMMAND`, speaking the
    /// line protocol of conformance/adapters/README.md (protocol 2: only what its hello
    /// declares is sent).
    #[arg(long, value_name = "NAME=COMMAND", value_parser = crate::adapter_spec::parse_adapter)]
    pub adapter: (String, String),
    /// How long the whole command may take, minimizing included (more than 0, at most
    /// 1e7); the adapter's start-up and one case's timeout (5 s) may come on top.
    #[arg(long, value_name = "SECS", default_value_t = 60.0,
          value_parser = seconds_in(f64::MIN_POSITIVE, MAX_SECONDS))]
    pub seconds: f64,
    /// The random seed (default: from the clock; printed either way, so that a run can
    /// be repeated).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Per encoding and operation: stop fuzzing it after this many distinct classes of
    /// disagreement (1 to 100000); the others go on.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = count_in(1..=MAX_FAILURES))]
    pub max_failures: usize,
    /// Only these encodings, comma-separated (default: every one declared).
    #[arg(long, value_delimiter = ',', value_name = "LIST",
          value_parser = crate::vectors::encoding_parser())]
    pub encodings: Vec<crate::vectors::Encoding>,
    /// Only these operations, comma-separated (default: every one declared).
    #[arg(long = "op", value_parser = super::op_parser(), value_delimiter = ',', value_name = "LIST")]
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
    #[arg(long, value_name = "SECS", default_value_t = 10.0,
          value_parser = seconds_in(0.1, MAX_SECONDS))]
    pub progress: f64,
}

/// The corpus files' payloads.
#[derive(Default)]
struct Corpus {
    bytes: Vec<Vec<u8>>,
    code_points: Vec<u32>,
}

impl Corpus {
    /// A file of `target`'s corpus, when `conformance fuzz` reads that target's layout.
    fn add(&mut self, target: &str, bytes: &[u8]) {
        match generate::corpus_payload(target, bytes) {
            Some(CorpusPayload::Bytes(b)) if !b.is_empty() => self.bytes.push(b),
            Some(CorpusPayload::CodePoints(c)) => self.code_points.extend(c),
            _ => {}
        }
    }

    /// The corpus built into the binary.
    fn embedded() -> Corpus {
        let mut corpus = Corpus::default();
        for (target, bytes) in crate::seed_corpus::EMBEDDED {
            corpus.add(target, bytes);
        }
        corpus
    }
}

/// Reads every file of `dir/<target>/` whose target layout is known; `dir` itself must be
/// a readable folder (a `--corpus` that names nothing is a usage error, not a run
/// without a corpus).
fn load_corpus(dir: &Path) -> Result<Corpus, UsageError> {
    let mut corpus = Corpus::default();
    let targets = std::fs::read_dir(dir)
        .map_err(|e| UsageError(format!("conformance fuzz: --corpus {}: {e}", dir.display())))?;
    let mut targets: Vec<PathBuf> = targets.filter_map(|e| Some(e.ok()?.path())).collect();
    targets.sort();
    for t in targets {
        let name = t.file_name().map(|n| n.to_string_lossy().into_owned());
        let (Some(name), Ok(files)) = (name, std::fs::read_dir(&t)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = files.filter_map(|e| Some(e.ok()?.path())).collect();
        // Sorted, so that a seed means the same inputs on every machine.
        files.sort();
        for f in files {
            // Regular files only, capped: a FIFO or a device in the corpus cannot hang
            // or flood the run; what is left out is said.
            match crate::files::read_capped(&f, MAX_CORPUS_FILE) {
                Ok(bytes) => corpus.add(&name, &bytes),
                Err(e) => crate::errln!("conformance fuzz: corpus file skipped: {e}"),
            }
        }
    }
    Ok(corpus)
}

/// A window of at most 256 bytes of a corpus file, mutated.
fn from_corpus(rng: &mut Rng, corpus: &Corpus) -> Vec<u8> {
    let file = rng.pick(&corpus.bytes);
    let len = file.len().min(256);
    let start = rng.index(file.len() - len + 1);
    let mut bytes = file[start..start + len].to_vec();
    generate::mutate(rng, &mut bytes);
    bytes
}

/// One input for `target`.
fn make_probe(rng: &mut Rng, target: &Target, corpus: &Corpus) -> Probe {
    let encoding = target.encoding;
    match target.op {
        Op::Encode if !corpus.code_points.is_empty() && rng.chance(1, 5) => {
            Probe::CodePoint(u128::from(*rng.pick(&corpus.code_points)))
        }
        Op::Encode => Probe::CodePoint(generate::codepoint(rng, encoding)),
        Op::Decode if !corpus.bytes.is_empty() && rng.chance(2, 5) => {
            Probe::Bytes(from_corpus(rng, corpus))
        }
        Op::Decode => Probe::Bytes(generate::decode_input(rng, encoding)),
        Op::Document if !corpus.bytes.is_empty() && rng.chance(1, 4) => {
            let mut doc = Vec::new();
            if rng.chance(1, 2) {
                doc.extend(generate::MAGIC);
            }
            doc.extend(from_corpus(rng, corpus));
            Probe::Bytes(doc)
        }
        Op::Document => Probe::Bytes(generate::document(rng)),
    }
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// `conformance fuzz`: fuzzes, prints the verdict, then writes the vector files.
pub fn run(args: &Args) -> ExitCode {
    let code = match fuzz(args) {
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

/// Bytes: their length; a code point: 0 (never replaced by another).
fn size(p: &Probe) -> usize {
    match p {
        Probe::Bytes(b) => b.len(),
        Probe::CodePoint(_) => 0,
    }
}

fn fuzz(args: &Args) -> Result<i32, UsageError> {
    let start = Instant::now();
    let seed = args.seed.unwrap_or_else(clock_seed);
    // The corpus first: a bad --corpus is told before the adapter starts.
    let (corpus, corpus_name) = match &args.corpus {
        Some(dir) => (load_corpus(dir)?, dir.display().to_string()),
        None => (Corpus::embedded(), "(built in)".to_string()),
    };
    let mut session = Session::open(&args.adapter, &args.encodings, &args.ops)?;
    let deadline = start + Duration::from_secs_f64(args.seconds);
    session.set_deadline(deadline);
    let targets = session.targets.clone();
    crate::out!(
        "conformance fuzz --adapter {}: seed {seed}, {} s, {}; corpus {}: {} inputs, {} code \
         points\n",
        session.name,
        args.seconds,
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
    let every = Duration::from_secs_f64(args.progress);
    let mut last_progress = start;
    let mut findings = Findings::default();
    let mut generated = 0u64;
    // Inputs generated per target, for the summary.
    let mut per_target = vec![0u64; targets.len()];
    // The targets still fuzzed: those with fewer than --max-failures classes.
    let mut active: Vec<usize> = (0..targets.len()).collect();
    while Instant::now() < deadline && !active.is_empty() {
        let t = active[rng.index(active.len())];
        let target = &targets[t];
        let probes: Vec<Probe> = (0..BATCH)
            .map(|_| make_probe(&mut rng, target, &corpus))
            .collect();
        generated += probes.len() as u64;
        per_target[t] += probes.len() as u64;
        let results = session.check(target, &probes);
        for (probe, result) in probes.into_iter().zip(results) {
            let Some(sig) = Signature::of(&result) else {
                continue;
            };
            let mut d = Disagreement {
                target: target.clone(),
                probe,
                result,
            };
            // A class already found is counted, not minimized again.
            if !findings.seen.insert(d.class()) {
                findings.repeats += 1;
                continue;
            }
            if let Probe::Bytes(bytes) = &d.probe {
                if let Some((small, result)) = session.minimize(target, bytes, &sig) {
                    d = Disagreement {
                        probe: Probe::Bytes(small),
                        result,
                        ..d
                    };
                }
            }
            findings.add(d);
            if findings.of(target) >= args.max_failures {
                active.retain(|&a| a != t);
                break;
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        if last_progress.elapsed() >= every {
            last_progress = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            crate::errln!(
                "fuzz: {generated} inputs, {} cases sent, {:.0} cases/s, {} class(es) of \
                 disagreement, {:.0} s left",
                session.sent,
                session.sent as f64 / secs.max(1e-9),
                findings.found.len(),
                (args.seconds - secs).max(0.0)
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    crate::out!(
        "{generated} inputs, {} cases sent (with minimizing) in {secs:.1} s: {:.0} cases/s; \
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
    if session.cut > 0 {
        crate::out!(
            "time was up: {} case(s) not sent or not answered within --seconds (no verdict; a \
             minimized input is the smallest found by then)\n",
            session.cut
        );
    }
    if active.is_empty() {
        crate::out!(
            "stopped: every encoding and operation has --max-failures ({}) classes\n",
            args.max_failures
        );
    }
    let found = &findings.found;
    if found.is_empty() {
        if session.sent == 0 {
            crate::out!(
                "NOT CHECKED: no case was answered within --seconds (the adapter's timeout per \
                 case is {} s)\n",
                CASE_TIMEOUT.as_secs()
            );
            return Ok(EXIT_FAILED);
        }
        crate::out!("PASS: no disagreement\n");
        return Ok(EXIT_OK);
    }
    // The verdict first: a file that cannot be written loses nothing that was found.
    crate::out!(
        "FAIL: {} class(es) of disagreement{}\n",
        found.len(),
        if findings.repeats > 0 {
            format!(" ({} more input(s) of the same classes)", findings.repeats)
        } else {
            String::new()
        }
    );
    let dir = args.out.clone().unwrap_or_else(|| default_out("fuzz"));
    let how = format!("`conformance fuzz` (seed {seed}), minimized by delta debugging");
    let (_, errors) = write_all(&dir, &session, found, FoundBy::Fuzzing, &how);
    if errors.is_empty() {
        return Ok(EXIT_FAILED);
    }
    for e in &errors {
        crate::errln!("conformance fuzz: {e}");
    }
    Ok(EXIT_USAGE)
}
