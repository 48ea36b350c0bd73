//! The reference codec's walk (`conformance exhaustive` without `--adapter`): every code
//! point, every input of 1 to `--max-len` bytes, UTF-∞-8's long codes and Corrected UTF-8
//! documents, the implementation (a [`CodecFns`]) against the spec-literal code and std,
//! on every core (rayon), as a [`Walker`] of the resumable walk.
//!
//! Parts, selected by operation (`--op`; [`Config::ops`]): `encode`, the code points;
//! `decode`, the inputs and (with UTF-∞-8 among `--encoding`) the long forms
//! ([`super::long_forms`], at each of [`long_forms::REFERENCE_LIMITS`]); `document`, the
//! documents ([`super::documents`], bodies of up to `min(--max-len, 4)` bytes). The
//! default is [`DEFAULT_OPS`].
//!
//! Units: 256 blocks of 2^24 code points, then the input units ([`InputUnit`]), shortest
//! inputs first, then one unit per limit of the long forms, then the document units. A
//! unit that fails aborts the units after it; the lowest one's failure is the
//! counterexample. Once every unit of a part is done, the totals are checked too: the
//! count of encodable code points against [`codepoints::ENCODABLE`], and (UTF-8, inputs
//! of up to 4 bytes) the Table 3.1b class counts against `conformance audit`'s.

use super::checkpoint::{Fingerprint, Probed};
use super::codec_fns::{self, CodecFns};
use super::documents::{self, DocUnit, DocumentCheck};
use super::engine::{self, Busy, Outcome, UnitResult, Walker};
use super::failure::{Counters, Failure};
use super::long_forms::{self, LongForms};
use super::walk::{self, InputUnit};
use super::{codepoints, corrected, utf8, utf_inf8, Shard};
use crate::vectors::Op;
use conformance_literal::corrected::MAGIC;
use corrected_utf8::Encoding;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The parts of the default run: the code points and the inputs. The documents
/// (`--op document`) are asked for by name: at bodies of 4 bytes they cost more than the
/// rest together (conformance/EXHAUSTIVE.md).
pub const DEFAULT_OPS: [Op; 2] = [Op::Encode, Op::Decode];

/// The default `--encodings`: UTF-∞-8 costs about 5.5 times the other two together (its
/// reference decoder allocates), so it is asked for by name.
pub const DEFAULT_ENCODINGS: [Encoding; 2] = [Encoding::CorrectedUtf8, Encoding::Utf8];

/// The default `--max-len`.
pub const DEFAULT_MAX_LEN: usize = 4;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Inputs of 1 to `max_len` bytes (1 to [`walk::MAX_INPUT`]).
    pub max_len: usize,
    /// Which units.
    pub shard: Shard,
    /// The parts, by operation: `encode` the code points, `decode` the inputs and the
    /// long forms, `document` the documents; empty for [`DEFAULT_OPS`].
    pub ops: Vec<Op>,
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

impl Default for Config {
    fn default() -> Self {
        Config {
            max_len: DEFAULT_MAX_LEN,
            shard: Shard::ALL,
            ops: Vec::new(),
            threads: 0,
            code_points: (0, u32::MAX),
            resume: None,
            progress: false,
            encodings: DEFAULT_ENCODINGS.to_vec(),
            recheck_units: engine::RECHECK_UNITS,
        }
    }
}

impl Config {
    /// Whether the part of `op` runs.
    pub fn runs(&self, op: Op) -> bool {
        if self.ops.is_empty() {
            DEFAULT_OPS.contains(&op)
        } else {
            self.ops.contains(&op)
        }
    }

    /// Whether the long forms run: the inputs, with UTF-∞-8.
    pub fn runs_long_forms(&self) -> bool {
        self.runs(Op::Decode) && self.encodings.contains(&Encoding::UtfInf8)
    }

    /// Whether the documents run (Corrected UTF-8's).
    pub fn runs_documents(&self) -> bool {
        self.runs(Op::Document) && self.encodings.contains(&Encoding::CorrectedUtf8)
    }

    /// The longest document body: `--max-len`, at most [`documents::REFERENCE_MAX_BODY`].
    pub fn max_body(&self) -> usize {
        self.max_len.min(documents::REFERENCE_MAX_BODY)
    }
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

/// One unit of work.
#[derive(Clone, Copy, Debug)]
enum Work {
    CodePoints(u32),
    Inputs(InputUnit),
    /// The long forms at the limit of this index in [`long_forms::REFERENCE_LIMITS`].
    LongForms(usize),
    Documents(DocUnit),
}

impl Work {
    /// The operation whose part the unit is.
    fn op(&self) -> Op {
        match self {
            Work::CodePoints(_) => Op::Encode,
            Work::Inputs(_) | Work::LongForms(_) => Op::Decode,
            Work::Documents(_) => Op::Document,
        }
    }
}

/// The walk of one implementation.
struct ReferenceWalk<'a> {
    imp: &'a CodecFns,
    cfg: &'a Config,
    units: Vec<(Work, u64)>,
    checks: Vec<Box<dyn walk::UnitCheck + 'a>>,
    /// The long forms at each of [`long_forms::REFERENCE_LIMITS`] (empty when they do
    /// not run).
    long: Vec<LongForms>,
    pool: rayon::ThreadPool,
}

impl ReferenceWalk<'_> {
    fn run_unit(&self, work: Work) -> UnitResult<Failure> {
        let mut r = UnitResult::default();
        match work {
            Work::CodePoints(block) => {
                let t = Instant::now();
                match codepoints::check_unit(self.imp, block, self.cfg.code_points) {
                    Ok(c) => {
                        let items = c.get("codepoints.values").copied().unwrap_or(0);
                        r.busy.push(("codepoints", busy(t, items)));
                        r.counts = c;
                    }
                    Err(f) => r.findings.push(*f),
                }
            }
            Work::Inputs(iu) => {
                for check in &self.checks {
                    let t = Instant::now();
                    match check.check_unit(&iu) {
                        Ok(c) => {
                            for (k, v) in c {
                                *r.counts.entry(k).or_default() += v;
                            }
                        }
                        Err(f) => {
                            r.findings.push(*f);
                            return r;
                        }
                    }
                    r.busy.push((check.name(), busy(t, iu.inputs())));
                }
            }
            Work::LongForms(i) => {
                let t = Instant::now();
                let limit = long_forms::REFERENCE_LIMITS[i];
                match long_forms::check(self.imp, &self.long[i], limit) {
                    Ok(c) => {
                        r.busy
                            .push(("utf-inf-8-long-forms", busy(t, self.long[i].len() as u64)));
                        r.counts = c;
                    }
                    Err(f) => r.findings.push(*f),
                }
            }
            Work::Documents(du) => {
                let t = Instant::now();
                match DocumentCheck::new(self.imp).check_unit(&du) {
                    Ok(c) => {
                        r.busy
                            .push(("corrected-utf8-document", busy(t, du.documents())));
                        r.counts = c;
                    }
                    Err(f) => r.findings.push(*f),
                }
            }
        }
        r
    }
}

fn busy(t: Instant, items: u64) -> Busy {
    Busy {
        nanos: t.elapsed().as_nanos() as u64,
        items,
    }
}

impl Walker for ReferenceWalk<'_> {
    type Finding = Failure;

    fn weights(&self) -> Vec<u64> {
        self.units.iter().map(|&(_, w)| w).collect()
    }

    fn wanted(&self, unit: usize) -> bool {
        let work = &self.units[unit].0;
        match work {
            Work::LongForms(_) => self.cfg.runs_long_forms(),
            Work::Documents(_) => self.cfg.runs_documents(),
            _ => self.cfg.runs(work.op()),
        }
    }

    fn identity(&self) -> Value {
        let cfg = self.cfg;
        json!({
            "walk": "reference",
            "implementation": self.imp.name,
            "conformanceVersion": env!("CARGO_PKG_VERSION"),
            "maxLen": cfg.max_len,
            "shard": cfg.shard.to_string(),
            "only": only_text(cfg),
            "codePoints": [cfg.code_points.0, cfg.code_points.1],
            "encodings": encodings_text(&cfg.encodings),
        })
    }

    fn fingerprint(&mut self) -> Probed {
        fingerprint_of(self.imp)
    }

    fn walk(
        &mut self,
        units: &[usize],
        done: &mut (dyn FnMut(usize, UnitResult<Failure>) -> ControlFlow<()> + Send),
    ) {
        // A failed unit aborts the units after it, never the ones before: the reported
        // counterexample is the lowest unit's. Only a failure moves the bound: a unit
        // below it that passes after the walk has its finding (`done` breaks then) must
        // not stop the units between it and the failure, one of which may fail lower.
        let abort = AtomicUsize::new(usize::MAX);
        let done = Mutex::new(done);
        let this = &*self;
        this.pool.install(|| {
            units.par_iter().for_each(|&i| {
                if i > abort.load(Ordering::Relaxed) {
                    return;
                }
                let r = this.run_unit(this.units[i].0);
                let failed = !r.findings.is_empty();
                let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                // Whatever `done` says, the units below a failure are walked.
                let _ = done(i, r);
                if failed {
                    abort.fetch_min(i, Ordering::Relaxed);
                }
            });
        });
    }
}

/// Every unit, numbered: the 256 code point blocks, then the input units, shortest
/// inputs first, then the long forms (one unit per limit), then the documents; each with
/// its weight (the long forms' is 0 when they do not run: their inputs are only made
/// then).
fn all_units(cfg: &Config, long: &[LongForms]) -> Vec<(Work, u64)> {
    let cps = (0..256u32).map(|b| (Work::CodePoints(b), codepoints::UNIT_SIZE));
    let ins = InputUnit::all(cfg.max_len)
        .into_iter()
        .map(|u| (Work::Inputs(u), u.inputs()));
    let longs = (0..long_forms::REFERENCE_LIMITS.len()).map(|i| {
        (
            Work::LongForms(i),
            long.get(i).map_or(0, |l| l.len() as u64),
        )
    });
    let docs = DocUnit::all(cfg.max_body())
        .into_iter()
        .map(|u| (Work::Documents(u), u.documents()));
    cps.chain(ins).chain(longs).chain(docs).collect()
}

/// The result of a run of the reference walk.
#[derive(Debug)]
pub struct ReferenceOutcome {
    /// The walk's outcome (its findings: the counterexamples of the failed units, lowest
    /// first).
    pub walk: Outcome<Failure>,
    /// The counterexample: the lowest unit's, or the totals' check.
    pub failure: Option<Failure>,
    /// Every part asked for was done whole (unsharded, every code point): the totals
    /// were checked.
    pub complete: bool,
    /// Worker threads used.
    pub threads: usize,
}

/// Runs the exhaustive check of `imp`.
pub fn execute(imp: &CodecFns, cfg: &Config) -> Result<ReferenceOutcome, String> {
    if !(1..=walk::MAX_INPUT).contains(&cfg.max_len) {
        return Err(format!("--max-len must be 1 to {}", walk::MAX_INPUT));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| format!("thread pool: {e}"))?;
    let threads = pool.current_num_threads();
    if !cfg.runs(Op::Encode) && !cfg.runs(Op::Decode) && !cfg.runs_documents() {
        return Err("nothing to walk: --op document needs corrected-utf8 among --encoding".into());
    }
    let input_len = if cfg.runs(Op::Decode) { cfg.max_len } else { 0 };
    let checks = pool.install(|| checks(imp, input_len, &cfg.encodings));
    let long: Vec<LongForms> = if cfg.runs_long_forms() {
        long_forms::REFERENCE_LIMITS
            .iter()
            .map(|&l| LongForms::at_limit(u64::from(l)))
            .collect()
    } else {
        Vec::new()
    };
    let mut walker = ReferenceWalk {
        imp,
        cfg,
        units: all_units(cfg, &long),
        checks,
        long,
        pool,
    };
    let run = engine::Run {
        shard: cfg.shard,
        resume: cfg.resume.clone(),
        max_findings: 1,
        recheck_units: cfg.recheck_units,
        progress: cfg.progress.then_some("exhaustive"),
    };
    let out = engine::execute(&mut walker, &run)?;
    let all_done = |pred: &dyn Fn(&Work) -> bool| {
        walker
            .units
            .iter()
            .enumerate()
            .filter(|(_, (w, _))| pred(w))
            .all(|(i, _)| out.done[i])
    };
    let cps_complete = cfg.runs(Op::Encode)
        && cfg.code_points == (0, u32::MAX)
        && all_done(&|w| matches!(w, Work::CodePoints(_)));
    let inputs_complete = cfg.runs(Op::Decode)
        && all_done(&|w| matches!(w, Work::Inputs(_)))
        && (!cfg.runs_long_forms() || all_done(&|w| matches!(w, Work::LongForms(_))));
    let documents_complete = cfg.runs_documents() && all_done(&|w| matches!(w, Work::Documents(_)));
    let mut failure = out.findings.first().cloned();
    if failure.is_none() && cps_complete {
        let got = out.counts.get("codepoints.encodable").copied().unwrap_or(0);
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
        failure = audit_cross_check(&out.counts, cfg.max_len);
    }
    Ok(ReferenceOutcome {
        complete: (cps_complete || !cfg.runs(Op::Encode))
            && (inputs_complete || !cfg.runs(Op::Decode))
            && (documents_complete || !cfg.runs_documents()),
        failure,
        threads,
        walk: out,
    })
}

/// The fingerprint of an implementation's answers to fixed probes (those of
/// `exhaustive --adapter`'s checkpoints): every encode of the code points up to
/// `U+FFFFFFFF`, every decode of the inputs, under each decoder.
fn fingerprint_of(imp: &CodecFns) -> Probed {
    let mut print = Fingerprint::default();
    let mut buf = [0u8; codec_fns::ENCODE_CAP];
    for &cp in &super::probes::FINGERPRINT_CODEPOINTS {
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
    for input in super::probes::fingerprint_inputs() {
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
        // The document checker, on the input and on it after the magic number.
        let mut findings = Vec::new();
        for doc in [input.clone(), [&MAGIC[..], &input].concat()] {
            (imp.corrected_document)(&doc, &mut findings);
            print.add(&format!(
                "document {} {}",
                conformance_literal::hex(&doc, ""),
                codec_fns::render_findings(&findings)
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

/// The parts run, as the report's and the checkpoint's `only`: `all` for the default
/// ([`DEFAULT_OPS`]), else `codepoints`, `inputs` and `documents`, comma-separated in
/// walk order.
fn only_text(cfg: &Config) -> String {
    if cfg.ops.is_empty() {
        return "all".into();
    }
    let names: Vec<&str> = [
        (Op::Encode, "codepoints"),
        (Op::Decode, "inputs"),
        (Op::Document, "documents"),
    ]
    .iter()
    .filter(|(op, _)| cfg.ops.contains(op))
    .map(|&(_, name)| name)
    .collect();
    names.join(",")
}

/// What the run walks, for the report's first line.
fn parts_text(cfg: &Config) -> String {
    let mut parts = Vec::new();
    if cfg.runs(Op::Encode) {
        parts.push("code points".to_string());
    }
    if cfg.runs(Op::Decode) {
        parts.push(format!(
            "inputs of 1 to {} bytes ({})",
            cfg.max_len,
            encodings_text(&cfg.encodings)
        ));
    }
    if cfg.runs_long_forms() {
        parts.push("UTF-∞-8 long forms at limits 1 to 16 and 65536".into());
    }
    if cfg.runs_documents() {
        parts.push(format!(
            "documents (bodies of 0 to {} bytes)",
            cfg.max_body()
        ));
    }
    parts.join(", ")
}

/// The encodings as `corrected-utf8,utf-8`, in a fixed order.
fn encodings_text(encodings: &[Encoding]) -> String {
    let mut e = encodings.to_vec();
    e.sort();
    e.dedup();
    let names: Vec<&str> = e.iter().map(|e| e.name()).collect();
    names.join(",")
}

/// The text report.
pub fn render(cfg: &Config, out: &ReferenceOutcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "conformance exhaustive: {}; shard {}, {} threads",
        parts_text(cfg),
        cfg.shard,
        out.threads
    );
    let _ = writeln!(s, "{}", engine::render_units(&out.walk));
    for (k, v) in &out.walk.counts {
        let _ = writeln!(s, "  {k}: {v}");
    }
    if let Some(&n) = out.walk.counts.get("codepoints.encodable") {
        let _ = writeln!(
            s,
            "encodable code points: {n}{}",
            if out.complete || !cfg.runs(Op::Decode) {
                format!(" (expected {})", codepoints::ENCODABLE)
            } else {
                String::new()
            }
        );
    }
    for (name, b) in &out.walk.busy {
        if b.items > 0 {
            let _ = writeln!(
                s,
                "time per item per thread, {name}: {:.2} ns",
                b.nanos as f64 / b.items as f64
            );
        }
    }
    match &out.failure {
        Some(f) => {
            let _ = writeln!(s, "FAIL\n{f}");
        }
        None => {
            let _ = writeln!(s, "{}", engine::verdict_line(&out.walk, out.complete));
        }
    }
    s
}

/// The JSON report (`conformance/schema/exhaustive.schema.json`, docs/report.md).
pub fn to_json(cfg: &Config, out: &ReferenceOutcome) -> Value {
    let mut fields = engine::json_fields(&out.walk, out.failure.is_none());
    fields.insert("complete".into(), json!(out.complete));
    let mut report = serde_json::Map::new();
    report.insert("report".into(), json!("conformance-exhaustive"));
    report.insert("reportVersion".into(), json!(super::REPORT_VERSION));
    report.insert("maxLen".into(), json!(cfg.max_len));
    report.insert("shard".into(), json!(cfg.shard.to_string()));
    report.insert("only".into(), json!(only_text(cfg)));
    report.insert("encodings".into(), json!(encodings_text(&cfg.encodings)));
    report.insert("threads".into(), json!(out.threads));
    report.extend(fields);
    report.insert(
        "counterexample".into(),
        json!(out.failure.as_ref().map(|f| json!({
            "check": f.check,
            "input": f.input,
            "gotFrom": f.got_from,
            "got": f.got,
            "wantFrom": f.want_from,
            "want": f.want,
        }))),
    );
    Value::Object(report)
}
