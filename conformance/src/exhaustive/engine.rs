//! The resumable walk, once for both walks of `conformance exhaustive`: the reference
//! codec's ([`super::reference`]) and an adapter's ([`super::adapter`]).
//!
//! A walk is a [`Walker`]: units of work, numbered, each with its weight (its cases);
//! what identifies the walk and the implementation; a fingerprint of the implementation's
//! answers to fixed probes; and a way to walk a list of units, handing each result back as
//! it is done. Everything else is here, the same for both:
//!
//! * `--shard K/N` takes every N-th unit.
//! * `--resume FILE`: one checkpoint format ([`CHECKPOINT_FORMAT`]), written every 10 s
//!   and at the end, and one place that decides whether a checkpoint is believed
//!   (`believe`): its checksum (read by [`checkpoint::read`]), its identity (the walk's
//!   parameters and the implementation), the fingerprint of the implementation's answers
//!   now, and [`RECHECK_UNITS`] of the units it records as done, walked again whole. A
//!   checkpoint whose recheck fails is not believed: the recheck's findings are the run's
//!   verdict, nothing else is walked, and the file is left as it was.
//! * One [`Outcome`], one progress line, one report shape ([`render_units`],
//!   [`verdict_line`], [`json_fields`]).

use super::checkpoint::{self, Probed};
use super::failure::Counters;
use super::Shard;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The checkpoint format both walks write and read.
pub const CHECKPOINT_FORMAT: &str = "conformance-exhaustive-checkpoint/3";

/// Units a checkpoint records as done that are walked again, whole and at random, before
/// it is believed (all of them when there are fewer).
pub const RECHECK_UNITS: usize = 4;

/// How often the checkpoint is written, and a progress line printed.
const EVERY: Duration = Duration::from_secs(10);

/// Time spent in one check, summed over threads, and how many items it checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Busy {
    /// Thread-nanoseconds.
    pub nanos: u64,
    /// Code points or inputs.
    pub items: u64,
}

/// What walking one unit gave.
#[derive(Debug)]
pub struct UnitResult<F> {
    /// Its counters (merged into the walk's when the unit is done).
    pub counts: Counters,
    /// Time per check.
    pub busy: Vec<(&'static str, Busy)>,
    /// What failed in it; a unit with a finding is not done (a resumed run walks it
    /// again).
    pub findings: Vec<F>,
}

impl<F> Default for UnitResult<F> {
    fn default() -> Self {
        UnitResult {
            counts: Counters::new(),
            busy: Vec::new(),
            findings: Vec::new(),
        }
    }
}

/// A walk over numbered units.
pub trait Walker {
    /// What a failing unit reports.
    type Finding: Send;
    /// The weight (cases) of every unit of the whole walk, in walk order: unit `i` is
    /// `weights()[i]`.
    fn weights(&self) -> Vec<u64>;
    /// Whether unit `i` is part of this run (`--only`); all by default.
    fn wanted(&self, _unit: usize) -> bool {
        true
    }
    /// What must be the same to resume: the walk's parameters and what identifies the
    /// implementation, as a JSON object compared key by key.
    fn identity(&self) -> Value;
    /// The fingerprint of the implementation's answers to fixed probes.
    fn fingerprint(&mut self) -> Probed;
    /// Walks `units` (in any order, on any threads), handing each unit's result to `done`
    /// as soon as it is known, one call at a time; once `done` breaks, no further unit
    /// is started, but for the units below a failed one that a walk on many threads still
    /// walks so that its lowest failure is the one found.
    fn walk(
        &mut self,
        units: &[usize],
        done: &mut (dyn FnMut(usize, UnitResult<Self::Finding>) -> ControlFlow<()> + Send),
    );
}

/// How to run a walk.
#[derive(Clone, Debug)]
pub struct Run {
    /// Which units.
    pub shard: Shard,
    /// The checkpoint file.
    pub resume: Option<PathBuf>,
    /// Stop once this many findings are known.
    pub max_findings: usize,
    /// Units walked again before a checkpoint is believed.
    pub recheck_units: usize,
    /// Progress on stderr (a bar on a terminal, else a line every 10 s), with this name.
    pub progress: Option<&'static str>,
}

/// What a resumed run found in its checkpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The checkpoint file.
    pub file: PathBuf,
    /// Units of this shard and part it records as done.
    pub units: usize,
    /// The cases in them.
    pub cases: u64,
    /// The fixed probes whose answers matched the recorded fingerprint.
    pub probes: u64,
    /// Of its done units, how many were walked again.
    pub rechecked: usize,
    /// Whether they passed, so that its units were believed (when not, their findings are
    /// the run's and nothing else was walked).
    pub believed: bool,
}

/// The result of a walk.
#[derive(Debug)]
pub struct Outcome<F> {
    /// Units done (this run and a believed checkpoint's) / units of this shard and part.
    pub units: (usize, usize),
    /// Units this run walked itself (the rechecked ones not counted).
    pub units_now: usize,
    /// Cases in the units done.
    pub cases: u64,
    /// Cases this run walked itself.
    pub cases_now: u64,
    /// Every unit of the walk is done (no shard, every part, nothing left).
    pub complete: bool,
    /// The findings, lowest unit first.
    pub findings: Vec<F>,
    /// Every counter, over the units done.
    pub counts: Counters,
    /// Per check.
    pub busy: BTreeMap<String, Busy>,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// Wall time of earlier runs recorded in the checkpoint.
    pub elapsed_before: Duration,
    /// The checkpoint resumed from, if any.
    pub resumed: Option<Resumed>,
    /// The checkpoint could not be saved at the end (the verdict stands; exit 2).
    pub checkpoint_error: Option<String>,
    /// Which units are done (every unit of the walk, not only this shard's).
    pub done: Vec<bool>,
}

/// What a checkpoint holds, the same for both walks.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Checkpoint {
    format: String,
    /// What must be the same to resume ([`Walker::identity`]).
    identity: Value,
    /// The fingerprint of the implementation's answers to fixed probes.
    probes: Probed,
    /// The units done, as inclusive index ranges.
    done: Vec<[u64; 2]>,
    /// Their counters, merged.
    counts: Counters,
    busy: BTreeMap<String, Busy>,
    elapsed_seconds: f64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    checksum: String,
}

/// What the walk has so far.
struct State<F> {
    done: Vec<bool>,
    counts: Counters,
    busy: BTreeMap<String, Busy>,
    findings: Vec<(usize, F)>,
    elapsed_before: Duration,
}

fn merge(into: &mut Counters, from: Counters) {
    for (k, v) in from {
        *into.entry(k).or_default() += v;
    }
}

/// Up to `n` of `units`, at random (all of them when there are fewer).
pub fn sample_units(units: &[usize], n: usize) -> Vec<usize> {
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

/// Reads the checkpoint at `file` and decides whether it is believed for this walk: its
/// checksum and format ([`checkpoint::read`]), its identity against the walker's, its
/// fingerprint against `probes` (the walker's answers now) — any of them wrong is an
/// error (exit 2: another walk, another implementation, an edited file) — then
/// [`Run::recheck_units`] of its done units of this run walked again. `Ok(None)`: there is
/// no checkpoint yet.
fn believe<W: Walker>(
    walker: &mut W,
    file: &Path,
    probes: &Probed,
    mine: &[usize],
    run: &Run,
    st: &mut State<W::Finding>,
) -> Result<Option<Resumed>, String> {
    let Some(c) = checkpoint::read::<Checkpoint>(file, CHECKPOINT_FORMAT)? else {
        return Ok(None);
    };
    let differences = checkpoint::differences(&c.identity, &walker.identity());
    if !differences.is_empty() {
        return Err(format!(
            "{}: made by another walk or implementation ({}); delete it or use another file",
            file.display(),
            differences.join("; ")
        ));
    }
    if c.probes != *probes {
        return Err(format!(
            "{}: the implementation's answers to the {} fixed probes differ from the ones the \
             checkpoint recorded: another implementation (or version) made it; the checkpoint \
             is not believed (delete it to start over)",
            file.display(),
            probes.answers
        ));
    }
    checkpoint::mark_done(file, &c.done, &mut st.done)?;
    let weights = walker.weights();
    let done: Vec<usize> = mine.iter().copied().filter(|&i| st.done[i]).collect();
    let picked = sample_units(&done, run.recheck_units);
    let mut failed = Vec::new();
    walker.walk(&picked, &mut |unit, r: UnitResult<W::Finding>| {
        failed.extend(r.findings.into_iter().map(|f| (unit, f)));
        ControlFlow::Continue(())
    });
    let resumed = Resumed {
        file: file.to_path_buf(),
        units: done.len(),
        cases: done.iter().map(|&i| weights[i]).sum(),
        probes: probes.answers,
        rechecked: picked.len(),
        believed: failed.is_empty(),
    };
    if failed.is_empty() {
        st.counts = c.counts;
        st.busy = c.busy;
        st.elapsed_before = if c.elapsed_seconds.is_finite() && c.elapsed_seconds >= 0.0 {
            Duration::try_from_secs_f64(c.elapsed_seconds).unwrap_or(Duration::ZERO)
        } else {
            Duration::ZERO
        };
    } else {
        st.done.fill(false);
        failed.sort_by_key(|(unit, _)| *unit);
        st.findings = failed;
    }
    Ok(Some(resumed))
}

fn save<F>(
    file: &Path,
    identity: &Value,
    probes: &Probed,
    st: &State<F>,
    now: Duration,
) -> Result<(), String> {
    checkpoint::write(
        file,
        &Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            identity: identity.clone(),
            probes: probes.clone(),
            done: checkpoint::ranges(&st.done),
            counts: st.counts.clone(),
            busy: st.busy.clone(),
            elapsed_seconds: (st.elapsed_before + now).as_secs_f64(),
            checksum: String::new(),
        },
    )
}

/// Runs a walk: its units of this shard and part, less those of a believed checkpoint.
pub fn execute<W: Walker>(walker: &mut W, run: &Run) -> Result<Outcome<W::Finding>, String> {
    let start = Instant::now();
    let weights = walker.weights();
    let n = weights.len();
    let mine: Vec<usize> = (0..n)
        .filter(|&i| walker.wanted(i) && run.shard.takes(i))
        .collect();
    let mut st = State {
        done: vec![false; n],
        counts: Counters::new(),
        busy: BTreeMap::new(),
        findings: Vec::new(),
        elapsed_before: Duration::ZERO,
    };
    let probes = run.resume.as_ref().map(|_| walker.fingerprint());
    let mut resumed = None;
    if let (Some(file), Some(probes)) = (&run.resume, &probes) {
        resumed = believe(walker, file, probes, &mine, run, &mut st)?;
        if resumed.as_ref().is_some_and(|r| !r.believed) {
            // Not believed: the recheck's findings are the verdict; nothing else is
            // walked, and the checkpoint is left as it was.
            return Ok(Outcome {
                units: (0, mine.len()),
                units_now: 0,
                cases: 0,
                cases_now: 0,
                complete: false,
                findings: st.findings.into_iter().map(|(_, f)| f).collect(),
                counts: Counters::new(),
                busy: BTreeMap::new(),
                elapsed: start.elapsed(),
                elapsed_before: st.elapsed_before,
                resumed,
                checkpoint_error: None,
                done: st.done,
            });
        }
    }
    let identity = walker.identity();
    let todo: Vec<usize> = mine.iter().copied().filter(|&i| !st.done[i]).collect();
    let total: u64 = todo.iter().map(|&i| weights[i]).sum();
    let bar = progress_bar(run.progress, total);
    let (mut last_save, mut last_line) = (start, start);
    let mut walked = 0u64;
    let mut units_now = 0;
    walker.walk(&todo, &mut |unit, r: UnitResult<W::Finding>| {
        for (name, b) in r.busy {
            let e = st.busy.entry(name.to_string()).or_default();
            e.nanos += b.nanos;
            e.items += b.items;
        }
        walked += weights[unit];
        if r.findings.is_empty() {
            merge(&mut st.counts, r.counts);
            st.done[unit] = true;
            units_now += 1;
        } else {
            st.findings
                .extend(r.findings.into_iter().map(|f| (unit, f)));
        }
        match &bar {
            Some(bar) => bar.inc(weights[unit]),
            None if run.progress.is_some() && last_line.elapsed() >= EVERY => {
                last_line = Instant::now();
                let name = run.progress.unwrap_or("exhaustive");
                crate::errln!(
                    "{}",
                    progress_line(name, walked, total, st.findings.len(), start)
                );
            }
            None => {}
        }
        if let (Some(file), Some(probes)) = (&run.resume, &probes) {
            if last_save.elapsed() >= EVERY {
                last_save = Instant::now();
                // A checkpoint that cannot be written here only costs a resume; the last
                // one's failure is reported.
                if let Err(e) = save(file, &identity, probes, &st, start.elapsed()) {
                    crate::errln!("conformance exhaustive: checkpoint: {e}");
                }
            }
        }
        if st.findings.len() >= run.max_findings {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let checkpoint_error = match (&run.resume, &probes) {
        (Some(file), Some(probes)) => save(file, &identity, probes, &st, start.elapsed()).err(),
        _ => None,
    };
    st.findings.sort_by_key(|(unit, _)| *unit);
    let done_mine: Vec<usize> = mine.iter().copied().filter(|&i| st.done[i]).collect();
    let cases_now = todo
        .iter()
        .filter(|&&i| st.done[i])
        .map(|&i| weights[i])
        .sum();
    Ok(Outcome {
        units: (done_mine.len(), mine.len()),
        units_now,
        cases: done_mine.iter().map(|&i| weights[i]).sum(),
        cases_now,
        complete: st
            .done
            .iter()
            .enumerate()
            .all(|(i, &d)| d || !walker.wanted(i)),
        findings: st.findings.into_iter().map(|(_, f)| f).collect(),
        counts: st.counts,
        busy: st.busy,
        elapsed: start.elapsed(),
        elapsed_before: st.elapsed_before,
        resumed,
        checkpoint_error,
        done: st.done,
    })
}

fn progress_bar(progress: Option<&'static str>, total: u64) -> Option<ProgressBar> {
    (progress.is_some() && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {percent}% {human_pos}/{human_len} {rate} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0}/s", state.per_sec());
                },
            )
            .progress_chars("=> "),
        );
        bar
    })
}

/// The progress line, the same for both walks: `NAME: done/total (P%), R cases/s, F
/// finding(s), elapsed S s, ETA E`.
fn progress_line(name: &str, done: u64, total: u64, findings: usize, start: Instant) -> String {
    let secs = start.elapsed().as_secs_f64();
    let rate = done as f64 / secs.max(1e-9);
    let eta = if rate > 0.0 {
        format!("{:.0}s", total.saturating_sub(done) as f64 / rate)
    } else {
        "?".into()
    };
    let percent = 100.0 * done as f64 / total.max(1) as f64;
    format!(
        "{name}: {done}/{total} ({percent:.1}%), {rate:.0} cases/s, {findings} finding(s), \
         elapsed {secs:.0}s, ETA {eta}"
    )
}

/// The report's `units done` line, the same for both walks.
pub fn render_units<F>(out: &Outcome<F>) -> String {
    let resumed = match &out.resumed {
        Some(r) if r.believed => format!(
            ", {} ({} case(s)) from the checkpoint {} (believed after its checksum, the walk's \
             parameters, the implementation's identity, {} fixed probes and {} of its units \
             walked again)",
            r.units,
            r.cases,
            r.file.display(),
            r.probes,
            r.rechecked
        ),
        Some(r) => format!(
            "; the checkpoint {} NOT BELIEVED: of {} of its units walked again, some fail \
             (the implementation changed, or the file was edited); nothing else was walked \
             and the file was left as it was: delete it to walk again",
            r.file.display(),
            r.rechecked
        ),
        None => String::new(),
    };
    format!(
        "units done: {}/{} ({} walked in this run{resumed}); cases: {} ({} in this run, {:.1} \
         s{})",
        out.units.0,
        out.units.1,
        out.units_now,
        out.cases,
        out.cases_now,
        out.elapsed.as_secs_f64(),
        if out.elapsed_before > Duration::ZERO {
            format!(
                ", plus {:.1} s before the checkpoint",
                out.elapsed_before.as_secs_f64()
            )
        } else {
            String::new()
        }
    )
}

/// The closing `PASS …` line of a walk without findings; `complete`: everything the walk
/// is about was checked (the walker may know more than [`Outcome::complete`]).
pub fn verdict_line<F>(out: &Outcome<F>, complete: bool) -> String {
    match (&out.resumed, complete) {
        (Some(r), true) if r.units > 0 => format!(
            "PASS (complete: {} unit(s) walked in this run, {} from the checkpoint)",
            out.units_now, r.units
        ),
        (_, true) => "PASS (complete)".to_string(),
        (_, false) => "PASS (partial: this shard or part only)".to_string(),
    }
}

/// The JSON report's keys that both walks share (`docs/report.md`).
pub fn json_fields<F>(out: &Outcome<F>, passed: bool) -> Map<String, Value> {
    let fields = json!({
        "unitsDone": out.units.0,
        "units": out.units.1,
        "unitsThisRun": out.units_now,
        "cases": out.cases,
        "casesThisRun": out.cases_now,
        "complete": out.complete,
        "passed": passed,
        "checkpoint": out.resumed.as_ref().map(|r| json!({
            "file": r.file.display().to_string(),
            "believed": r.believed,
            "units": r.units,
            "cases": r.cases,
            "probes": r.probes,
            "rechecked": r.rechecked,
        })),
        "elapsedSeconds": out.elapsed.as_secs_f64(),
        "elapsedBeforeSeconds": out.elapsed_before.as_secs_f64(),
        "casesPerSecond": out.cases_now as f64 / out.elapsed.as_secs_f64().max(1e-9),
        "counts": out.counts,
        "busy": out.busy,
    });
    match fields {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walk of 10 units of 3 cases; unit 7 fails when `broken`.
    struct Toy {
        broken: bool,
        walked: Vec<usize>,
    }

    impl Walker for Toy {
        type Finding = usize;
        fn weights(&self) -> Vec<u64> {
            vec![3; 10]
        }
        fn identity(&self) -> Value {
            json!({"toy": 1})
        }
        fn fingerprint(&mut self) -> Probed {
            let mut f = checkpoint::Fingerprint::default();
            f.add(if self.broken { "broken" } else { "right" });
            f.finish()
        }
        fn walk(
            &mut self,
            units: &[usize],
            done: &mut (dyn FnMut(usize, UnitResult<usize>) -> ControlFlow<()> + Send),
        ) {
            for &u in units {
                self.walked.push(u);
                let mut r = UnitResult::default();
                r.counts.insert("toy.cases".into(), 3);
                if self.broken && u == 7 {
                    r.findings.push(u);
                }
                if done(u, r).is_break() {
                    return;
                }
            }
        }
    }

    fn run(resume: Option<PathBuf>, shard: Shard) -> Run {
        Run {
            shard,
            resume,
            max_findings: 1,
            recheck_units: RECHECK_UNITS,
            progress: None,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("conformance-engine-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("ck.json")
    }

    #[test]
    fn a_walk_counts_what_it_did_and_stops_at_the_finding() {
        let mut toy = Toy {
            broken: false,
            walked: vec![],
        };
        let out = execute(&mut toy, &run(None, Shard::ALL)).unwrap();
        assert!(out.complete && out.findings.is_empty());
        assert_eq!(
            (out.units, out.cases, out.counts["toy.cases"]),
            ((10, 10), 30, 30)
        );
        let mut toy = Toy {
            broken: true,
            walked: vec![],
        };
        let out = execute(&mut toy, &run(None, Shard::ALL)).unwrap();
        assert_eq!(out.findings, [7]);
        assert_eq!(
            toy.walked,
            (0..=7).collect::<Vec<_>>(),
            "stops at --max-failures"
        );
        assert!(!out.complete);
    }

    #[test]
    fn a_checkpoint_is_resumed_only_when_believed() {
        let file = scratch("resume");
        // Shard 1/2 then 2/2 into one checkpoint: the second resumes the first's units.
        let mut toy = Toy {
            broken: false,
            walked: vec![],
        };
        let first = execute(&mut toy, &run(Some(file.clone()), Shard { k: 1, n: 2 })).unwrap();
        assert_eq!(first.units, (5, 5));
        assert!(!first.complete);
        // The same walk again: everything is done, 4 units rechecked, nothing walked.
        let mut toy = Toy {
            broken: false,
            walked: vec![],
        };
        let again = execute(&mut toy, &run(Some(file.clone()), Shard { k: 1, n: 2 })).unwrap();
        let r = again.resumed.clone().unwrap();
        assert!(r.believed && r.rechecked == RECHECK_UNITS && r.units == 5);
        assert_eq!(toy.walked.len(), RECHECK_UNITS);
        assert_eq!((again.units_now, again.counts["toy.cases"]), (0, 15));
        // Another implementation (its fingerprint differs): refused.
        let mut broken = Toy {
            broken: true,
            walked: vec![],
        };
        let e = execute(&mut broken, &run(Some(file.clone()), Shard { k: 1, n: 2 })).unwrap_err();
        assert!(e.contains("fixed probes differ"), "{e}");
        // A checkpoint edited by hand: refused by its checksum.
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text.replace("[\n      0,", "[\n      1,")).unwrap();
        let e = execute(&mut toy, &run(Some(file.clone()), Shard { k: 1, n: 2 })).unwrap_err();
        assert!(e.contains("checksum"), "{e}");
    }

    #[test]
    fn a_checkpoint_whose_recheck_fails_is_not_believed() {
        let file = scratch("recheck");
        let mut toy = Toy {
            broken: false,
            walked: vec![],
        };
        execute(&mut toy, &run(Some(file.clone()), Shard::ALL)).unwrap();
        let before = std::fs::read(&file).unwrap();
        // Same fingerprint, but unit 7 now fails: with every unit rechecked, it shows.
        struct Liar(Toy);
        impl Walker for Liar {
            type Finding = usize;
            fn weights(&self) -> Vec<u64> {
                self.0.weights()
            }
            fn identity(&self) -> Value {
                self.0.identity()
            }
            fn fingerprint(&mut self) -> Probed {
                Toy {
                    broken: false,
                    walked: vec![],
                }
                .fingerprint()
            }
            fn walk(
                &mut self,
                units: &[usize],
                done: &mut (dyn FnMut(usize, UnitResult<usize>) -> ControlFlow<()> + Send),
            ) {
                self.0.walk(units, done)
            }
        }
        let mut liar = Liar(Toy {
            broken: true,
            walked: vec![],
        });
        let mut r = run(Some(file.clone()), Shard::ALL);
        r.recheck_units = 10;
        let out = execute(&mut liar, &r).unwrap();
        assert!(!out.resumed.unwrap().believed);
        assert_eq!(out.findings, [7]);
        assert_eq!(out.units_now, 0);
        assert_eq!(std::fs::read(&file).unwrap(), before, "left as it was");
    }
}
