//! `conformance fuzz --adapter NAME=COMMAND`: structure-aware differential fuzzing of an
//! implementation against the spec-literal code.
//!
//! Inputs come from [`conformance_checks::generate`] (table edges, truncations, FE/FF
//! runs, magic numbers, big UTF-∞-8 codes, mixes) and from mutations of the committed fuzz
//! corpus (`corpus/<target>/`, each file read in its target's layout), for every encoding
//! and operation the adapter declared, in batches. Each answer is judged as `conformance
//! run` judges a vector. A disagreement on bytes is minimized by delta debugging against
//! the adapter ([`conformance_checks::minimize`]: the smallest input that still fails in
//! the same field); the disagreements are written as vector files of the `vectors/`
//! schema, with the one-line `conformance run` command that replays them.

use super::{default_out, write_all, Disagreement, FoundBy, Op, Probe, Session, Signature, Target};
use crate::exit::{UsageError, EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use conformance_checks::generate::{self, CorpusPayload, Rng};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

/// Cases per round trip (one batch when the adapter declares batches).
const BATCH: usize = 256;

/// The arguments of `conformance fuzz`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 no disagreement in the time given; 1 a disagreement \
(minimized, written as a vector file, with the command that reproduces it); 2 bad usage, an \
adapter that declares nothing checkable, or a file that cannot be written. See \
conformance/README.md, \"Fuzzing an adapter\"."
)]
pub struct Args {
    /// The implementation: NAME=COMMAND, run once through `sh -c COMMAND`, speaking the
    /// line protocol of conformance/adapters/README.md (protocol 2: only what its hello
    /// declares is sent).
    #[arg(long, value_name = "NAME=COMMAND", value_parser = crate::adapter_spec::parse_adapter)]
    pub adapter: (String, String),
    /// How long to fuzz.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub seconds: f64,
    /// The random seed (default: from the clock; printed either way, so that a run can
    /// be repeated).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Stop after this many distinct (minimized) disagreements.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_failures: usize,
    /// Only these encodings, comma-separated (default: every one declared).
    #[arg(long, value_delimiter = ',', value_name = "LIST",
          value_parser = clap::builder::PossibleValuesParser::new(crate::run::suite::ENCODINGS))]
    pub encodings: Vec<String>,
    /// Only these operations, comma-separated (default: every one declared).
    #[arg(long = "op", value_enum, value_delimiter = ',', value_name = "LIST")]
    pub ops: Vec<Op>,
    /// The fuzz corpus to mutate (default: corpus/ of this checkout; skipped when missing).
    #[arg(long, value_name = "DIR")]
    pub corpus: Option<PathBuf>,
    /// Where to write the vector files, one per encoding and operation with
    /// disagreements: DIR/NAME-ENCODING-OP.json (default: target/conformance-fuzz).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Seconds between progress lines on stderr.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub progress: f64,
}

/// The corpus files' payloads.
#[derive(Default)]
struct Corpus {
    bytes: Vec<Vec<u8>>,
    code_points: Vec<u32>,
}

/// Reads every file of `dir/<target>/` whose target layout is known.
fn load_corpus(dir: &Path) -> Corpus {
    let mut corpus = Corpus::default();
    let Ok(targets) = std::fs::read_dir(dir) else {
        return corpus;
    };
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
            let Ok(bytes) = std::fs::read(&f) else {
                continue;
            };
            match generate::corpus_payload(&name, &bytes) {
                Some(CorpusPayload::Bytes(b)) if !b.is_empty() => corpus.bytes.push(b),
                Some(CorpusPayload::CodePoints(c)) => corpus.code_points.extend(c),
                _ => {}
            }
        }
    }
    corpus
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
    let encoding = target.codec_encoding();
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

/// `conformance fuzz`: fuzzes, prints the report, writes the vector files.
pub fn run(args: &Args) -> ExitCode {
    let code = match fuzz(args) {
        Ok(code) => code,
        Err(e) => {
            crate::errln!("conformance fuzz: {e}");
            EXIT_USAGE
        }
    };
    ExitCode::from(code as u8)
}

fn fuzz(args: &Args) -> Result<i32, UsageError> {
    if !(args.seconds > 0.0 && args.seconds <= 1e7) || args.max_failures == 0 {
        return Err(UsageError(
            "--seconds must be more than 0 and --max-failures at least 1".into(),
        ));
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut session = Session::open(&args.adapter, &args.encodings, &args.ops)?;
    let corpus_dir = args
        .corpus
        .clone()
        .unwrap_or_else(crate::seed_corpus::default_dir);
    let corpus = load_corpus(&corpus_dir);
    let targets = session.targets.clone();
    crate::outln!(
        "conformance fuzz --adapter {}: seed {seed}, {} s, {}; corpus {}: {} inputs, {} code points",
        session.name,
        args.seconds,
        targets.iter().map(Target::label).collect::<Vec<_>>().join(", "),
        corpus_dir.display(),
        corpus.bytes.len(),
        corpus.code_points.len()
    );
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let deadline = Duration::from_secs_f64(args.seconds);
    let every = Duration::from_secs_f64(args.progress.max(0.1));
    let mut last_progress = start;
    let mut found: Vec<Disagreement> = Vec::new();
    let mut seen: HashSet<(usize, Probe)> = HashSet::new();
    let mut generated = 0u64;
    'fuzz: while start.elapsed() < deadline {
        let t = rng.index(targets.len());
        let target = &targets[t];
        let probes: Vec<Probe> = (0..BATCH)
            .map(|_| make_probe(&mut rng, target, &corpus))
            .collect();
        generated += probes.len() as u64;
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
            if let Probe::Bytes(bytes) = &d.probe {
                let small = session.minimize(target, bytes, &sig);
                if let Some(result) = session
                    .check(target, &[Probe::Bytes(small.clone())])
                    .pop()
                    .filter(|r| sig.matches(r))
                {
                    d = Disagreement {
                        probe: Probe::Bytes(small),
                        result,
                        ..d
                    };
                }
            }
            if seen.insert((t, d.probe.clone())) {
                crate::outln!("disagreement {}: {}", found.len() + 1, d.describe());
                found.push(d);
                if found.len() >= args.max_failures {
                    break 'fuzz;
                }
            }
            if start.elapsed() >= deadline {
                break 'fuzz;
            }
        }
        if last_progress.elapsed() >= every {
            last_progress = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            crate::errln!(
                "fuzz: {generated} inputs, {} cases sent, {:.0} cases/s, {} disagreement(s), \
                 {:.0} s left",
                session.sent,
                session.sent as f64 / secs.max(1e-9),
                found.len(),
                (args.seconds - secs).max(0.0)
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    crate::outln!(
        "{generated} inputs, {} cases sent (with minimizing) in {secs:.1} s: {:.0} cases/s; \
         seed {seed}",
        session.sent,
        session.sent as f64 / secs.max(1e-9)
    );
    if found.is_empty() {
        crate::outln!("PASS: no disagreement");
        return Ok(EXIT_OK);
    }
    let out = args.out.clone().unwrap_or_else(|| default_out("fuzz"));
    let how = format!("`conformance fuzz` (seed {seed}), minimized by delta debugging");
    write_all(&out, &session, &found, FoundBy::Fuzzing, &how)?;
    crate::outln!("FAIL: {} disagreement(s)", found.len());
    Ok(EXIT_FAILED)
}
