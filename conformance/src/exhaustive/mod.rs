//! `conformance exhaustive`: proof by enumeration instead of sampling.
//!
//! 1. **Code points** ([`codepoints`]): every value `0..=FFFFFFFF`. The implementation's
//!    Corrected UTF-8 encoder and the spec-literal one give the same bytes or the same
//!    error kind; decoding the bytes gives the code point back; encodings increase
//!    strictly with the code point. There are [`codepoints::ENCODABLE`] = 2 216 757 376
//!    encodable code points.
//! 2. **Inputs** ([`walk`], and [`checks`]: one per encoding, [`corrected`], [`utf8`],
//!    [`utf_inf8`]): every input of 1 to `--max-len` bytes (4 311 810 304 for
//!    4): the implementation's event lists (code points, error spans, offsets, lengths)
//!    equal the spec-literal ones for `corrected-utf8` and `utf-8`; UTF-8's first error
//!    equals `core::str::from_utf8`'s `valid_up_to`/`error_len`; and each input is put in
//!    its Table 3.1b audit class, whose counts must equal `conformance audit`'s.
//!    With `--encodings …,utf-inf-8` ([`Encoding`]), UTF-∞-8's events too ([`utf_inf8`]),
//!    under the default limit and under a limit of 3 bytes.
//!
//! Work is split into units (256 blocks of 2^24 code points; inputs by length and first
//! two bytes), run on every core (rayon). `--shard K/N` takes every N-th unit, `--resume
//! FILE` keeps a checkpoint of the units done (and their counts) and skips them when run
//! again, once the checkpoint passes the checks of [`checkpoint`] (its checksum, the
//! walk's parameters, the implementation's name, the version of `conformance`, a
//! fingerprint of the implementation's answers to fixed probes, and a few of its units
//! walked again). The implementation under test is a [`CodecFns`] (function pointers), so
//! a test can run the same machinery on a broken codec.
//!
//! [`adapter`] (`--adapter NAME=COMMAND`) walks the short inputs and code points through
//! any implementation behind an adapter instead, against the spec-literal code.

pub mod adapter;
pub mod checkpoint;
pub mod codec_fns;
pub mod codepoints;
pub mod corrected;
pub mod failure;
pub mod utf8;
pub mod utf_inf8;
pub mod walk;

pub use codec_fns::{CodecFns, LITERAL, REFERENCE};
pub use failure::{Counters, Failure};

use crate::exit::UsageError;
use crate::run::report::output::{self, Format, Inputs, Output};
use checkpoint::{Fingerprint, Probed};
use corrected_utf8::Encoding;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};
use walk::InputUnit;

/// Which part to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Only {
    /// (1) every code point.
    Codepoints,
    /// (2) every input.
    Inputs,
}

/// The default `--encodings`: UTF-∞-8 costs about 5.5 times the other two together (its
/// reference decoder allocates), so it is asked for by name.
pub const DEFAULT_ENCODINGS: [Encoding; 2] = [Encoding::CorrectedUtf8, Encoding::Utf8];

/// `--encodings`' parser: the codec's [`Encoding`] by its name, with what check (2) does
/// for each in the help.
fn encoding_parser() -> impl clap::builder::TypedValueParser<Value = Encoding> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let help = |e: Encoding| match e {
        Encoding::CorrectedUtf8 => "Corrected UTF-8",
        Encoding::Utf8 => "UTF-8, with `core::str::from_utf8` and the Table 3.1b audit classes",
        Encoding::UtfInf8 => "UTF-∞-8, under the default limit and under a limit of 3 bytes",
    };
    PossibleValuesParser::new(Encoding::ALL.map(|e| PossibleValue::new(e.name()).help(help(e))))
        .map(|name| Encoding::from_name(&name).expect("one of the possible values"))
}

/// The table of input checks run on `imp` over inputs of up to `max_len` bytes, for
/// `encodings`, in order. Builds their suffix tables (in parallel, on the current rayon pool).
pub fn checks<'a>(
    imp: &'a CodecFns,
    max_len: usize,
    encodings: &[Encoding],
) -> Vec<Box<dyn walk::UnitCheck + 'a>> {
    let mut checks: Vec<Box<dyn walk::UnitCheck + 'a>> = Vec::new();
    if encodings.contains(&Encoding::CorrectedUtf8) {
        checks.push(Box::new(corrected::CorrectedDecode::new(imp, max_len)));
    }
    if encodings.contains(&Encoding::Utf8) {
        checks.push(Box::new(utf8::Utf8Decode::new(imp, max_len)));
    }
    if encodings.contains(&Encoding::UtfInf8) {
        checks.push(Box::new(utf_inf8::InfDecode::new(imp, max_len)));
        checks.push(Box::new(utf_inf8::InfDecode::small_limit(imp, max_len)));
    }
    checks
}

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

/// The arguments of `conformance exhaustive`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Exit status: 0 every check passed; 1 a counterexample (printed \
in hex with both outputs; with --adapter, a disagreement, written as a vector file), or a \
checkpoint whose re-checked sample failed; 2 bad usage, a checkpoint that is unreadable or \
not believed, or a report, vector file or checkpoint that cannot be written (after the \
verdict is printed)."
)]
pub struct Args {
    /// Check every input of 1 to N bytes (4: 4.3e9 inputs; 5: 1.1e12, for sharded runs;
    /// at most 6, with --adapter 4) [default: 4; with --adapter 3].
    #[arg(long, value_name = "N",
          value_parser = crate::adapter_check::count_in(1..=walk::MAX_INPUT as u64))]
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
    /// Run only (1) the code points or (2) the inputs.
    #[arg(long, value_enum)]
    pub only: Option<Only>,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_name = "N", value_parser = crate::adapter_check::count_in(1..=MAX_THREADS))]
    pub threads: Option<usize>,
    /// Encodings whose inputs (2) checks, comma-separated [default: corrected-utf8,utf-8;
    /// utf-inf-8 adds about 13 core-minutes for inputs of up to 4 bytes]; with --adapter,
    /// the encodings checked [default: every one declared].
    #[arg(long, value_parser = encoding_parser(), value_delimiter = ',', value_name = "LIST")]
    pub encodings: Vec<Encoding>,
    /// Check an implementation instead of the reference codec: NAME=COMMAND, run once
    /// through `sh -c COMMAND`, speaking the line protocol of conformance/adapters/README.md
    /// (protocol 2: only what its hello declares is sent). See conformance/README.md,
    /// "Exhaustive checks of an adapter".
    #[arg(long, value_name = "NAME=COMMAND", value_parser = crate::adapter_spec::parse_adapter)]
    pub adapter: Option<(String, String)>,
    /// With --adapter: only these operations, comma-separated (default: every one declared).
    #[arg(
        long = "op",
        value_parser = crate::adapter_check::op_parser(),
        value_delimiter = ',',
        value_name = "LIST",
        requires = "adapter"
    )]
    pub ops: Vec<crate::adapter_check::Op>,
    /// With --adapter: encode every code point up to this one (hex, U+10FFFF), then the
    /// table edges above it [default: U+10FFFF].
    #[arg(long, value_name = "U+HEX", value_parser = adapter::parse_codepoint,
          requires = "adapter")]
    pub max_codepoint: Option<u32>,
    /// With --adapter: stop after this many disagreements (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = crate::adapter_check::count_in(1..=crate::adapter_check::fuzz::MAX_FAILURES))]
    pub max_failures: usize,
    /// With --adapter: where to write the disagreements as vector files,
    /// DIR/NAME-ENCODING-OP.json [default: target/conformance-exhaustive].
    #[arg(long, value_name = "DIR", requires = "adapter")]
    pub out: Option<PathBuf>,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Inputs of 1 to `max_len` bytes (1 to [`walk::MAX_INPUT`]).
    pub max_len: usize,
    /// Which units.
    pub shard: Shard,
    /// One part only.
    pub only: Option<Only>,
    /// Worker threads; 0 for every core.
    pub threads: usize,
    /// The code points checked (all of `0..=FFFFFFFF` normally; tests take fewer).
    pub code_points: (u32, u32),
    /// Checkpoint file.
    pub resume: Option<PathBuf>,
    /// Show progress on stderr.
    pub progress: bool,
    /// Encodings whose inputs are checked.
    pub encodings: Vec<Encoding>,
    /// Units a resumed checkpoint records as done that are walked again, at random,
    /// before it is believed.
    pub recheck_units: usize,
}

/// The most `--threads`.
const MAX_THREADS: u64 = 1024;

/// The default [`Config::recheck_units`].
pub const RECHECK_UNITS: usize = 4;

impl Default for Config {
    fn default() -> Self {
        Config {
            max_len: 4,
            shard: Shard::ALL,
            only: None,
            threads: 0,
            code_points: (0, u32::MAX),
            resume: None,
            progress: false,
            encodings: DEFAULT_ENCODINGS.to_vec(),
            recheck_units: RECHECK_UNITS,
        }
    }
}

/// Time spent in one check, summed over threads, and how many items it checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Busy {
    /// Thread-nanoseconds.
    pub nanos: u64,
    /// Code points or inputs.
    pub items: u64,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every counter, over the units done (this run and the checkpoint's).
    pub counts: Counters,
    /// The first counterexample (lowest unit: shortest input, then byte-wise smallest).
    pub failure: Option<Failure>,
    /// Units done / units this shard has.
    pub units: (usize, usize),
    /// Whether every unit of every part asked for was done, unsharded, so that the total
    /// counts could be checked.
    pub complete: bool,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// Wall time of earlier runs recorded in the checkpoint.
    pub elapsed_before: Duration,
    /// Per check.
    pub busy: BTreeMap<String, Busy>,
    /// Worker threads used.
    pub threads: usize,
    /// Units this run walked itself (the re-checked ones not counted).
    pub units_now: usize,
    /// The checkpoint resumed from, if any.
    pub resumed: Option<Resumed>,
    /// The checkpoint could not be saved at the end (the verdict stands; exit 2).
    pub checkpoint_error: Option<String>,
}

/// What a resumed run found in its checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The checkpoint file.
    pub file: PathBuf,
    /// Units of this shard and part it records as done.
    pub units: usize,
    /// The fixed probes whose answers matched the recorded fingerprint.
    pub probes: u64,
    /// Of its done units, how many were walked again.
    pub rechecked: usize,
    /// Whether they passed, so that its units were believed (when not, the failure is the
    /// run's and nothing else was walked).
    pub believed: bool,
}

/// One unit of work.
#[derive(Clone, Copy, Debug)]
enum Work {
    CodePoints(u32),
    Inputs(InputUnit),
}

#[derive(Clone, Copy, Debug)]
struct Unit {
    index: usize,
    work: Work,
    weight: u64,
}

/// Every unit, numbered: the 256 code point blocks, then the input units, shortest
/// inputs first.
fn all_units(max_len: usize) -> Vec<Unit> {
    let cps = (0..256u32).map(|b| (Work::CodePoints(b), codepoints::UNIT_SIZE));
    let ins = InputUnit::all(max_len)
        .into_iter()
        .map(|u| (Work::Inputs(u), u.inputs()));
    cps.chain(ins)
        .enumerate()
        .map(|(index, (work, weight))| Unit {
            index,
            work,
            weight,
        })
        .collect()
}

/// What the run has so far.
#[derive(Default)]
struct State {
    counts: Counters,
    done: Vec<bool>,
    failures: Vec<(usize, Failure)>,
    busy: BTreeMap<String, Busy>,
    last_checkpoint: Option<Instant>,
    elapsed_before: Duration,
}

fn merge(into: &mut Counters, from: Counters) {
    for (k, v) in from {
        *into.entry(k).or_default() += v;
    }
}

/// A unit's counts or first failure, and the time each check took.
type UnitResult = (Result<Counters, Box<Failure>>, Vec<(&'static str, Busy)>);

/// Runs one unit.
fn run_unit(
    imp: &CodecFns,
    checks: &[Box<dyn walk::UnitCheck + '_>],
    cfg: &Config,
    unit: &Unit,
) -> UnitResult {
    let mut busy = Vec::new();
    match unit.work {
        Work::CodePoints(block) => {
            let t = Instant::now();
            let r = codepoints::check_unit(imp, block, cfg.code_points);
            let items = r
                .as_ref()
                .map_or(0, |c| c.get("codepoints.values").copied().unwrap_or(0));
            busy.push((
                "codepoints",
                Busy {
                    nanos: t.elapsed().as_nanos() as u64,
                    items,
                },
            ));
            (r, busy)
        }
        Work::Inputs(iu) => {
            let mut counts = Counters::new();
            for check in checks {
                let t = Instant::now();
                match check.check_unit(&iu) {
                    Ok(c) => merge(&mut counts, c),
                    Err(f) => return (Err(f), busy),
                }
                busy.push((
                    check.name(),
                    Busy {
                        nanos: t.elapsed().as_nanos() as u64,
                        items: iu.inputs(),
                    },
                ));
            }
            (Ok(counts), busy)
        }
    }
}

/// Runs the exhaustive check of `imp`.
pub fn execute(imp: &CodecFns, cfg: &Config) -> Result<Outcome, String> {
    if !(1..=walk::MAX_INPUT).contains(&cfg.max_len) {
        return Err(format!("--max-len must be 1 to {}", walk::MAX_INPUT));
    }
    let start = Instant::now();
    let units = all_units(cfg.max_len);
    let wanted = |u: &Unit| {
        !matches!(
            (u.work, cfg.only),
            (Work::CodePoints(_), Some(Only::Inputs)) | (Work::Inputs(_), Some(Only::Codepoints))
        )
    };
    let mut state = State {
        done: vec![false; units.len()],
        ..State::default()
    };
    // With --resume: the fingerprint of the implementation, then the checkpoint's claims
    // checked (a sample of its units is walked again below, once the checks are built).
    let probed = cfg.resume.as_ref().map(|_| fingerprint(imp));
    let mut loaded = None;
    if let (Some(path), Some(probes)) = (&cfg.resume, &probed) {
        if load_checkpoint(path, cfg, imp, probes, &mut state)? {
            loaded = Some(path.clone());
        }
    }
    let mine: Vec<Unit> = units
        .iter()
        .filter(|u| wanted(u) && cfg.shard.takes(u.index))
        .copied()
        .collect();
    let todo: Vec<Unit> = mine
        .iter()
        .filter(|u| !state.done[u.index])
        .copied()
        .collect();
    let total_weight: u64 = todo.iter().map(|u| u.weight).sum();

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let threads = pool.current_num_threads();
    let input_len = if cfg.only == Some(Only::Codepoints) {
        0
    } else {
        cfg.max_len
    };
    let checks = pool.install(|| checks(imp, input_len, &cfg.encodings));
    let mut resumed = None;
    if let (Some(file), Some(probes)) = (loaded, &probed) {
        let done: Vec<Unit> = mine
            .iter()
            .filter(|u| state.done[u.index])
            .copied()
            .collect();
        let picked = sample_units(&done, cfg.recheck_units);
        let failures: Vec<(usize, Failure)> = pool.install(|| {
            picked
                .par_iter()
                .filter_map(|u| {
                    run_unit(imp, &checks, cfg, u)
                        .0
                        .err()
                        .map(|f| (u.index, *f))
                })
                .collect()
        });
        let r = Resumed {
            file,
            units: done.len(),
            probes: probes.answers,
            rechecked: picked.len(),
            believed: failures.is_empty(),
        };
        if let Some((_, f)) = failures.into_iter().min_by_key(|(i, _)| *i) {
            // Not believed: the failure is the verdict; nothing else is walked and the
            // checkpoint is left as it was.
            return Ok(Outcome {
                counts: Counters::new(),
                failure: Some(f),
                units: (0, mine.len()),
                complete: false,
                elapsed: start.elapsed(),
                elapsed_before: state.elapsed_before,
                busy: BTreeMap::new(),
                threads,
                units_now: 0,
                resumed: Some(r),
                checkpoint_error: None,
            });
        }
        resumed = Some(r);
    }
    let probes = probed.unwrap_or_else(|| Fingerprint::default().finish());
    let abort = AtomicUsize::new(usize::MAX);
    let done_weight = AtomicU64::new(0);
    let state = Mutex::new(state);
    let bar = (cfg.progress && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(total_weight);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {percent}% {human_pos}/{human_len} {rate} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} M/s", state.per_sec() / 1e6);
                },
            )
            .progress_chars("=> "),
        );
        bar
    });
    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        if cfg.progress && bar.is_none() {
            // Not a terminal (CI): a plain line every 10 s.
            let done_weight = &done_weight;
            s.spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) =
                    stop_rx.recv_timeout(Duration::from_secs(10))
                {
                    let done = done_weight.load(Ordering::Relaxed);
                    crate::errln!("{}", progress_line(done, total_weight, start));
                }
            });
        }
        pool.install(|| {
            todo.par_iter().for_each(|unit| {
                if unit.index > abort.load(Ordering::Relaxed) {
                    return;
                }
                let (result, busy) = run_unit(imp, &checks, cfg, unit);
                let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                for (name, b) in busy {
                    let e = st.busy.entry(name.to_string()).or_default();
                    e.nanos += b.nanos;
                    e.items += b.items;
                }
                match result {
                    Ok(counts) => {
                        merge(&mut st.counts, counts);
                        st.done[unit.index] = true;
                    }
                    Err(f) => {
                        abort.fetch_min(unit.index, Ordering::Relaxed);
                        st.failures.push((unit.index, *f));
                    }
                }
                done_weight.fetch_add(unit.weight, Ordering::Relaxed);
                if let Some(bar) = &bar {
                    bar.inc(unit.weight);
                }
                if let Some(path) = &cfg.resume {
                    let due = st
                        .last_checkpoint
                        .is_none_or(|t| t.elapsed() >= Duration::from_secs(10));
                    if due {
                        st.last_checkpoint = Some(Instant::now());
                        // A checkpoint that cannot be written only costs a resume.
                        if let Err(e) =
                            save_checkpoint(path, cfg, imp, &probes, &st, start.elapsed())
                        {
                            crate::errln!("conformance exhaustive: checkpoint: {e}");
                        }
                    }
                }
            });
        });
        drop(stop_tx);
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut st = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let checkpoint_error = match &cfg.resume {
        Some(path) => save_checkpoint(path, cfg, imp, &probes, &st, start.elapsed()).err(),
        None => None,
    };
    let units_now = todo.iter().filter(|u| st.done[u.index]).count();
    st.failures.sort_by_key(|(i, _)| *i);
    let mut failure = st.failures.into_iter().next().map(|(_, f)| f);
    let units_done = mine.iter().filter(|u| st.done[u.index]).count();
    let all_done =
        |pred: &dyn Fn(&Unit) -> bool| units.iter().filter(|u| pred(u)).all(|u| st.done[u.index]);
    let cps_complete = cfg.only != Some(Only::Inputs)
        && cfg.code_points == (0, u32::MAX)
        && all_done(&|u| matches!(u.work, Work::CodePoints(_)));
    let inputs_complete =
        cfg.only != Some(Only::Codepoints) && all_done(&|u| matches!(u.work, Work::Inputs(_)));
    if failure.is_none() && cps_complete {
        let got = st.counts.get("codepoints.encodable").copied().unwrap_or(0);
        if got != codepoints::ENCODABLE {
            failure = Some(Failure {
                check: "count of encodable code points",
                input: "0..=FFFFFFFF".into(),
                got_from: imp.name,
                got: got.to_string(),
                want_from: "docs/semantics.md",
                want: codepoints::ENCODABLE.to_string(),
            });
        }
    }
    if failure.is_none()
        && inputs_complete
        && cfg.encodings.contains(&Encoding::Utf8)
        && cfg.max_len <= crate::audit::MAX_LEN
    {
        failure = audit_cross_check(&st.counts, cfg.max_len);
    }
    Ok(Outcome {
        counts: st.counts,
        failure,
        units: (units_done, mine.len()),
        complete: (cps_complete || cfg.only == Some(Only::Inputs))
            && (inputs_complete || cfg.only == Some(Only::Codepoints)),
        elapsed: start.elapsed(),
        elapsed_before: st.elapsed_before,
        busy: st.busy,
        threads,
        units_now,
        resumed,
        checkpoint_error,
    })
}

/// Up to `n` of `units`, at random (all of them when there are fewer).
fn sample_units(units: &[Unit], n: usize) -> Vec<Unit> {
    if units.len() <= n {
        return units.to_vec();
    }
    let mut rng = conformance_checks::generate::Rng::new(checkpoint::sample_seed());
    let mut pool = units.to_vec();
    // A partial Fisher-Yates shuffle: the first `n` are the sample.
    for i in 0..n {
        let j = i + rng.index(pool.len() - i);
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

/// The fingerprint of an implementation's answers to fixed probes (those of
/// `exhaustive --adapter`'s checkpoints): every encode of the code points up to
/// `U+FFFFFFFF`, every decode of the inputs, under each decoder.
fn fingerprint(imp: &CodecFns) -> Probed {
    let mut print = Fingerprint::default();
    let mut buf = [0u8; codec_fns::ENCODE_CAP];
    for &cp in &adapter::FINGERPRINT_CODEPOINTS {
        let Ok(cp) = u32::try_from(cp) else {
            continue;
        };
        let got = match (imp.corrected_encode)(cp, &mut buf) {
            Ok(n) => conformance_literal::hex(&buf[..n.min(buf.len())], ""),
            Err(k) => format!("{k:?}"),
        };
        print.add(&format!("encode U+{cp:04X} {got}"));
    }
    let mut evs = codec_fns::EvBuf::default();
    for input in adapter::fingerprint_inputs() {
        let decoders: [(&str, &Decode); 4] = [
            ("corrected-utf8", &|b, e| (imp.corrected_decode)(b, e)),
            ("utf-8", &|b, e| (imp.utf8_decode)(b, e)),
            ("utf-inf-8", &|b, e| {
                (imp.utf_inf8_decode)(b, corrected_utf8::utf_inf8::DEFAULT_MAX_CODE_LEN, e)
            }),
            ("utf-inf-8-limit-3", &|b, e| {
                (imp.utf_inf8_decode)(b, utf_inf8::SMALL_LIMIT, e)
            }),
        ];
        for (name, decode) in decoders {
            decode(&input, &mut evs);
            let got = codec_fns::render_events(evs.as_slice(), evs.overflowed());
            print.add(&format!(
                "{name} {} {got}",
                conformance_literal::hex(&input, "")
            ));
        }
    }
    print.finish()
}

/// A decoder of the fingerprint, as a closure over the implementation's functions.
type Decode<'a> = dyn Fn(&[u8], &mut codec_fns::EvBuf) + 'a;

/// The Table 3.1b counts of the run against `conformance audit`'s by byte classes.
fn audit_cross_check(counts: &Counters, max_len: usize) -> Option<Failure> {
    let report = crate::audit::audit_by_classes(max_len);
    let mut want: Counters = Counters::new();
    want.insert("table-3.1b.agree".into(), report.agree);
    for class in &report.classes {
        for (n, &c) in class.counts.iter().enumerate() {
            if c > 0 {
                want.insert(utf8::class_key(&class.disagreement, n), c);
            }
        }
    }
    let got: Counters = counts
        .iter()
        .filter(|(k, _)| k.starts_with("table-3.1b."))
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    if got == want {
        return None;
    }
    let diff: Vec<String> = want
        .keys()
        .chain(got.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|k| got.get(*k) != want.get(*k))
        .map(|k| {
            format!(
                "{k}: {} vs {}",
                got.get(k).copied().unwrap_or(0),
                want.get(k).copied().unwrap_or(0)
            )
        })
        .collect();
    Some(Failure {
        check: "table-3.1b class counts vs conformance audit",
        input: format!("every input of 1 to {max_len} bytes"),
        got_from: "exhaustive",
        got: diff.join("; "),
        want_from: "conformance audit",
        want: "the same counts".into(),
    })
}

/// How far a run is: seconds elapsed, items per second, the ETA as text and the percent
/// done (shared by the progress lines of the reference's run and of `--adapter`).
pub(crate) struct Pace {
    secs: f64,
    rate: f64,
    eta: String,
    percent: f64,
}

impl Pace {
    pub(crate) fn of(done: u64, total: u64, start: Instant) -> Pace {
        let secs = start.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let eta = if rate > 0.0 {
            format!("{:.0}s", total.saturating_sub(done) as f64 / rate)
        } else {
            "?".into()
        };
        let percent = 100.0 * done as f64 / total.max(1) as f64;
        Pace {
            secs,
            rate,
            eta,
            percent,
        }
    }
}

fn progress_line(done: u64, total: u64, start: Instant) -> String {
    let Pace {
        secs,
        rate,
        eta,
        percent,
    } = Pace::of(done, total, start);
    format!(
        "exhaustive: {done}/{total} ({percent:.1}%), {:.1} M/s, elapsed {secs:.0}s, ETA {eta}",
        rate / 1e6,
    )
}

const CHECKPOINT_FORMAT: &str = "conformance-exhaustive-checkpoint/2";

fn only_text(only: Option<Only>) -> &'static str {
    match only {
        None => "all",
        Some(Only::Codepoints) => "codepoints",
        Some(Only::Inputs) => "inputs",
    }
}

/// What a checkpoint of the reference's run holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Checkpoint {
    format: String,
    /// What must be the same to resume ([`identity`]).
    identity: Value,
    /// The fingerprint of the implementation's answers to fixed probes.
    probes: Probed,
    /// The units done, as inclusive index ranges.
    done: Vec<[u64; 2]>,
    /// Their counts, merged.
    counts: Counters,
    busy: BTreeMap<String, BusyRecord>,
    elapsed_seconds: f64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    checksum: String,
}

/// [`Busy`] in a checkpoint.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BusyRecord {
    nanos: u64,
    items: u64,
}

/// The walk's parameters and what identifies the implementation: its name and the
/// version of `conformance` it is built into.
fn identity(cfg: &Config, imp: &CodecFns) -> Value {
    json!({
        "implementation": imp.name,
        "conformanceVersion": env!("CARGO_PKG_VERSION"),
        "maxLen": cfg.max_len,
        "shard": cfg.shard.to_string(),
        "only": only_text(cfg.only),
        "codePoints": [cfg.code_points.0, cfg.code_points.1],
        "encodings": encodings_text(&cfg.encodings),
    })
}

/// The encodings as `corrected-utf8,utf-8`, in a fixed order.
fn encodings_text(encodings: &[Encoding]) -> String {
    let mut e = encodings.to_vec();
    e.sort();
    e.dedup();
    let names: Vec<&str> = e.iter().map(|e| e.name()).collect();
    names.join(",")
}

fn busy_json(busy: &BTreeMap<String, Busy>) -> Value {
    busy.iter()
        .map(|(k, b)| (k.clone(), json!({"nanos": b.nanos, "items": b.items})))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

fn save_checkpoint(
    path: &Path,
    cfg: &Config,
    imp: &CodecFns,
    probes: &Probed,
    st: &State,
    elapsed: Duration,
) -> Result<(), String> {
    checkpoint::write(
        path,
        &Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            identity: identity(cfg, imp),
            probes: probes.clone(),
            done: checkpoint::ranges(&st.done),
            counts: st.counts.clone(),
            busy: st
                .busy
                .iter()
                .map(|(k, b)| {
                    (
                        k.clone(),
                        BusyRecord {
                            nanos: b.nanos,
                            items: b.items,
                        },
                    )
                })
                .collect(),
            elapsed_seconds: (st.elapsed_before + elapsed).as_secs_f64(),
            checksum: String::new(),
        },
    )
}

/// Loads the checkpoint at `path` into `st` once it passes the checks of [`checkpoint`]
/// (all but the sample, which [`execute`] walks); `false` when there is none yet.
fn load_checkpoint(
    path: &Path,
    cfg: &Config,
    imp: &CodecFns,
    probes: &Probed,
    st: &mut State,
) -> Result<bool, String> {
    let Some(c) = checkpoint::read::<Checkpoint>(path, CHECKPOINT_FORMAT)? else {
        return Ok(false);
    };
    let differences = checkpoint::differences(&c.identity, &identity(cfg, imp));
    if !differences.is_empty() {
        return Err(format!(
            "{}: made by another walk or implementation ({}); delete it or use another file",
            path.display(),
            differences.join("; ")
        ));
    }
    if c.probes != *probes {
        return Err(format!(
            "{}: the implementation's answers to the {} fixed probes differ from the ones the \
             checkpoint recorded: another build of {} made it; the checkpoint is not believed \
             (delete it to start over)",
            path.display(),
            probes.answers,
            imp.name
        ));
    }
    checkpoint::mark_done(path, &c.done, &mut st.done)?;
    st.counts = c.counts;
    st.busy = c
        .busy
        .into_iter()
        .map(|(k, b)| {
            (
                k,
                Busy {
                    nanos: b.nanos,
                    items: b.items,
                },
            )
        })
        .collect();
    st.elapsed_before = if c.elapsed_seconds.is_finite() && c.elapsed_seconds >= 0.0 {
        Duration::try_from_secs_f64(c.elapsed_seconds).unwrap_or(Duration::ZERO)
    } else {
        Duration::ZERO
    };
    Ok(true)
}

/// The text report.
pub fn render(cfg: &Config, out: &Outcome) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "conformance exhaustive: {}, inputs of 1 to {} bytes ({}), shard {}, {} threads",
        match cfg.only {
            None => "code points and inputs",
            Some(Only::Codepoints) => "code points only",
            Some(Only::Inputs) => "inputs only",
        },
        cfg.max_len,
        encodings_text(&cfg.encodings),
        cfg.shard,
        out.threads
    );
    let _ = writeln!(
        s,
        "units done: {}/{} ({} walked in this run{})",
        out.units.0,
        out.units.1,
        out.units_now,
        match &out.resumed {
            Some(r) if r.believed => format!(
                ", {} from the checkpoint {} (believed after its checksum, the walk's \
                 parameters, the implementation's name and version, {} fixed probes and {} \
                 of its units walked again)",
                r.units,
                r.file.display(),
                r.probes,
                r.rechecked
            ),
            Some(r) => format!(
                "; the checkpoint {} NOT BELIEVED: of {} of its units walked again, one \
                 fails; nothing else was walked and the file was left as it was",
                r.file.display(),
                r.rechecked
            ),
            None => String::new(),
        }
    );
    for (k, v) in &out.counts {
        let _ = writeln!(s, "  {k}: {v}");
    }
    if let Some(&n) = out.counts.get("codepoints.encodable") {
        let _ = writeln!(
            s,
            "encodable code points: {n}{}",
            if out.complete || cfg.only == Some(Only::Codepoints) {
                format!(" (expected {})", codepoints::ENCODABLE)
            } else {
                String::new()
            }
        );
    }
    for (name, b) in &out.busy {
        if b.items > 0 {
            let _ = writeln!(
                s,
                "time per item per thread, {name}: {:.2} ns",
                b.nanos as f64 / b.items as f64
            );
        }
    }
    let _ = writeln!(
        s,
        "elapsed: {:.1} s{}",
        out.elapsed.as_secs_f64(),
        if out.elapsed_before > Duration::ZERO {
            format!(
                " (plus {:.1} s before the checkpoint)",
                out.elapsed_before.as_secs_f64()
            )
        } else {
            String::new()
        }
    );
    match &out.failure {
        Some(f) => {
            let _ = writeln!(s, "FAIL\n{f}");
        }
        None if out.complete => match &out.resumed {
            Some(r) if r.units > 0 => {
                let _ = writeln!(
                    s,
                    "PASS (complete: {} unit(s) walked in this run, {} from the checkpoint)",
                    out.units_now, r.units
                );
            }
            _ => {
                let _ = writeln!(s, "PASS (complete)");
            }
        },
        None => {
            let _ = writeln!(s, "PASS (partial: this shard or part only)");
        }
    }
    s
}

/// The JSON report (`conformance/schema/exhaustive.schema.json`, docs/report.md).
pub fn to_json(cfg: &Config, out: &Outcome) -> Value {
    json!({
        "report": "conformance-exhaustive",
        "reportVersion": adapter::REPORT_VERSION,
        "maxLen": cfg.max_len,
        "shard": cfg.shard.to_string(),
        "only": only_text(cfg.only),
        "encodings": encodings_text(&cfg.encodings),
        "threads": out.threads,
        "unitsDone": out.units.0,
        "units": out.units.1,
        "unitsThisRun": out.units_now,
        "complete": out.complete,
        "passed": out.failure.is_none(),
        "checkpoint": out.resumed.as_ref().map(|r| json!({
            "file": r.file.display().to_string(),
            "believed": r.believed,
            "units": r.units,
            "probes": r.probes,
            "rechecked": r.rechecked,
        })),
        "elapsedSeconds": out.elapsed.as_secs_f64(),
        "elapsedBeforeSeconds": out.elapsed_before.as_secs_f64(),
        "counts": out.counts,
        "busy": busy_json(&out.busy),
        "counterexample": out.failure.as_ref().map(|f| json!({
            "check": f.check,
            "input": f.input,
            "gotFrom": f.got_from,
            "got": f.got,
            "wantFrom": f.want_from,
            "want": f.want,
        })),
    })
}

/// Checks `--json` before anything runs, as `conformance run` checks its reports
/// ([`crate::run::report::output::plan`]: not a folder, its folder writable, not an
/// input, a device or FIFO written as a stream), and refuses the checkpoint's own path
/// (the report would replace it).
pub(crate) fn plan_json(args: &Args) -> Result<Option<Output>, UsageError> {
    let Some(path) = &args.json else {
        return Ok(None);
    };
    let resume: Vec<PathBuf> = args.resume.iter().cloned().collect();
    if let Some(checkpoint) = &args.resume {
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
    Ok(output::plan(&[(Format::Json, Some(path))], &inputs)?.pop())
}

/// Writes a JSON report as planned ([`plan_json`]): atomically, or into a stream.
pub(crate) fn write_json(output: &Output, report: &Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).unwrap_or_default() + "\n";
    output
        .write(|w| w.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", output.path.display()))
}

/// `conformance exhaustive`: checks `--json`'s path, runs the reference codec, prints the
/// verdict, then writes `--json` (atomically; a report that cannot be written is named,
/// exit 2).
pub fn run(args: &Args) -> ExitCode {
    let json = match plan_json(args) {
        Ok(json) => json,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(adapter) = &args.adapter {
        return adapter::run(args, adapter, json.as_ref());
    }
    let cfg = Config {
        max_len: args.max_len.unwrap_or(4),
        shard: args.shard.unwrap_or(Shard::ALL),
        only: args.only,
        threads: args.threads.unwrap_or(0),
        code_points: (0, u32::MAX),
        resume: args.resume.clone(),
        progress: true,
        encodings: if args.encodings.is_empty() {
            DEFAULT_ENCODINGS.to_vec()
        } else {
            args.encodings.clone()
        },
        recheck_units: RECHECK_UNITS,
    };
    let out = match execute(&REFERENCE, &cfg) {
        Ok(out) => out,
        Err(e) => {
            crate::errln!("conformance exhaustive: {e}");
            return ExitCode::from(2);
        }
    };
    // The verdict first: nothing after it can lose it.
    crate::out!("{}", render(&cfg, &out));
    let mut errors: Vec<String> = out.checkpoint_error.iter().cloned().collect();
    if let Some(json) = &json {
        errors.extend(write_json(json, &to_json(&cfg, &out)).err());
    }
    for e in &errors {
        crate::errln!("conformance exhaustive: {e}");
    }
    ExitCode::from(if !errors.is_empty() {
        2
    } else if out.failure.is_some() {
        1
    } else {
        0
    })
}
