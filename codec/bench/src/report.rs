//! What the `throughput` example prints: its JSON lines (records), the verdict of every
//! cell against the goal, and the Markdown tables of `codec/PERFORMANCE.md` and the
//! README, one block per CPU.
//!
//! Every JSON line is one object with a `"record"` field:
//!
//! * `"machine"`: the CPU (`model`, `family`, `model_number`, `cpus`, the `flags` that
//!   matter here), the instruction sets it runs (`isas`) and the one our dispatch picks
//!   (`detected`), and the run's `started`, `commit` and `load_before`. First.
//! * `"measurement"`: one implementation on one text (`input`, `size`, `operation`,
//!   `encoding`, `implementation`, `level`, `isa`, `detected`, `gbps`). A line without a
//!   `record` field is one too (runs recorded before these records existed).
//! * `"verdict"`: one cell, ours against simdutf at the matching level (`isa`, `size`,
//!   `input`, `operation`, `ours`, `simdutf`, `level`, `ratio`, `goal`, `met`: whether
//!   `ratio ≥ goal`).
//! * `"summary"`: how many cells met the goal (`cells`, `met`, `goal`) and `load_after`.
//!   Last.

use crate::yardstick as y;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::Path;

/// The goal of every cell: ours at least this many times simdutf's throughput.
pub const GOAL: f64 = 1.05;

/// Operations, in report order. `to-utf8` and `from-utf8`: the direct transcoders
/// (Corrected UTF-8 → UTF-8 and back).
pub const OPERATIONS: [&str; 5] = ["validate", "decode", "encode", "to-utf8", "from-utf8"];

/// The input classes, in report order (as `texts::CLASSES`).
pub use crate::texts::CLASSES;

/// One measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Bytes of text per buffer: 1 MiB or 64 KiB.
    pub size: usize,
    /// The text class.
    pub input: String,
    /// One of [`OPERATIONS`].
    pub operation: String,
    /// `fast`, `reference`, `simdutf`, `simdutf8` or `std`.
    pub implementation: String,
    /// What `implementation` ran: our instruction set, simdutf's or simdutf8's
    /// implementation, `scalar` for `std` and the reference.
    pub level: String,
    /// Our instruction set in this run (forced).
    pub isa: String,
    /// The instruction set our dispatch picks on this CPU.
    pub detected: String,
    /// Gigabytes of text per second.
    pub gbps: f64,
}

impl Row {
    /// The row's JSON line.
    pub fn json(&self) -> String {
        let encoding = match self.implementation.as_str() {
            "fast" | "reference" => "corrected-utf8",
            _ => "utf-8",
        };
        // Three decimals, as the recorded runs have them.
        let gbps = (self.gbps * 1000.0).round() / 1000.0;
        json!({
            "record": "measurement",
            "input": self.input,
            "size": self.size,
            "operation": self.operation,
            "encoding": encoding,
            "implementation": self.implementation,
            "level": self.level,
            "isa": self.isa,
            "detected": self.detected,
            "gbps": gbps,
        })
        .to_string()
    }

    /// The row of a JSON record, if it is a measurement.
    pub fn from_json(v: &Value) -> Option<Row> {
        if v.get("record").is_some_and(|r| r != "measurement") {
            return None;
        }
        let s = |k: &str| v.get(k)?.as_str().map(String::from);
        Some(Row {
            size: usize::try_from(v.get("size")?.as_u64()?).ok()?,
            input: s("input")?,
            operation: s("operation")?,
            implementation: s("implementation")?,
            level: s("level")?,
            isa: s("isa")?,
            detected: s("detected")?,
            gbps: v.get("gbps")?.as_f64()?,
        })
    }
}

/// The machine a run was on, and when.
#[derive(Clone, Debug, Default)]
pub struct Machine {
    /// The CPU's model name (`/proc/cpuinfo`'s `model name`).
    pub model: String,
    /// Its family and model numbers, where the OS says.
    pub family: Option<u64>,
    /// See `family`.
    pub model_number: Option<u64>,
    /// Logical CPUs.
    pub cpus: u64,
    /// The CPU flags that matter here.
    pub flags: Vec<String>,
    /// The instruction sets our fast paths run here, slowest first.
    pub isas: Vec<String>,
    /// The one our dispatch picks.
    pub detected: String,
    /// When the run started (UTC), or what is known of it.
    pub started: String,
    /// The commit measured.
    pub commit: String,
    /// The load average (1, 5, 15 min) before and after the run.
    pub load_before: String,
    /// See `load_before`.
    pub load_after: String,
    /// Whether it was a `--quick` run (a smoke test, not a measurement).
    pub quick: bool,
    /// How each cell was timed (empty for runs recorded before this field: the best of
    /// 15 repetitions of at least 20 ms).
    pub timing: String,
    /// What else is known of the run (for a recorded run: where its facts come from).
    pub note: String,
}

impl Machine {
    /// What names the CPU: the model, family and model number (the block of
    /// `PERFORMANCE.md` a run writes into).
    pub fn key(&self) -> String {
        match (self.family, self.model_number) {
            (Some(f), Some(m)) => format!("{} (family {f}, model {m})", self.model),
            _ => self.model.clone(),
        }
    }

    /// The CPU in a sentence: key, CPUs and flags.
    pub fn label(&self) -> String {
        let avx512 = if self.flags.iter().any(|f| f == "avx2")
            && !self.flags.iter().any(|f| f == "avx512f")
        {
            ", no AVX-512"
        } else {
            ""
        };
        format!(
            "{}, {} CPUs; flags: {}{avx512}",
            self.key(),
            self.cpus,
            self.flags.join(" ")
        )
    }

    /// The machine record.
    pub fn json(&self) -> String {
        json!({
            "record": "machine",
            "model": self.model,
            "family": self.family,
            "model_number": self.model_number,
            "cpus": self.cpus,
            "flags": self.flags,
            "isas": self.isas,
            "detected": self.detected,
            "started": self.started,
            "commit": self.commit,
            "load_before": self.load_before,
            "quick": self.quick,
            "timing": self.timing,
            "note": self.note,
        })
        .to_string()
    }

    /// The machine of a machine record.
    pub fn from_json(v: &Value) -> Option<Machine> {
        if v.get("record")? != "machine" {
            return None;
        }
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let list = |k: &str| {
            v.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        Some(Machine {
            model: s("model"),
            family: v.get("family").and_then(Value::as_u64),
            model_number: v.get("model_number").and_then(Value::as_u64),
            cpus: v.get("cpus").and_then(Value::as_u64).unwrap_or(0),
            flags: list("flags"),
            isas: list("isas"),
            detected: s("detected"),
            started: s("started"),
            commit: s("commit"),
            load_before: s("load_before"),
            load_after: s("load_after"),
            quick: v.get("quick").and_then(Value::as_bool).unwrap_or(false),
            timing: s("timing"),
            note: s("note"),
        })
    }

    /// This machine, from `/proc/cpuinfo` (Linux; elsewhere the model is unknown).
    pub fn here(isas: Vec<String>, detected: String) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        Machine::from_cpuinfo(&cpuinfo, isas, detected)
    }

    /// The machine a `/proc/cpuinfo` text describes (its first processor's fields).
    pub fn from_cpuinfo(cpuinfo: &str, isas: Vec<String>, detected: String) -> Machine {
        let value = |key: &str| {
            cpuinfo
                .lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        };
        let flags = value("flags")
            .or_else(|| value("Features"))
            .unwrap_or_default();
        let wanted = [
            "sse4_2",
            "avx2",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            // Linux's spellings: VBMI without an underscore, VBMI2 with one.
            "avx512vbmi",
            "avx512_vbmi2",
            "avx512_vpopcntdq",
            "asimd",
            "sve",
            "sve2",
        ];
        Machine {
            model: value("model name").unwrap_or_else(|| "unknown CPU".into()),
            family: value("cpu family").and_then(|f| f.parse().ok()),
            model_number: value("model").and_then(|m| m.parse().ok()),
            cpus: cpuinfo
                .lines()
                .filter(|l| l.starts_with("processor"))
                .count() as u64,
            flags: wanted
                .into_iter()
                .filter(|w| flags.split_whitespace().any(|f| f == *w))
                .map(String::from)
                .collect(),
            isas,
            detected,
            ..Machine::default()
        }
    }
}

/// One cell: ours against simdutf at the matching level.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Our instruction set.
    pub isa: String,
    /// Bytes per buffer.
    pub size: usize,
    /// The text class.
    pub input: String,
    /// The operation.
    pub operation: String,
    /// Our GB/s.
    pub ours: f64,
    /// simdutf's GB/s.
    pub simdutf: f64,
    /// simdutf's implementation.
    pub level: String,
}

impl Verdict {
    /// Ours ÷ simdutf.
    pub fn ratio(&self) -> f64 {
        self.ours / self.simdutf
    }

    /// Whether the ratio reaches [`GOAL`] (as printed, to two decimals).
    pub fn met(&self) -> bool {
        (self.ratio() * 100.0).round() / 100.0 >= GOAL
    }

    /// The verdict record.
    pub fn json(&self) -> String {
        json!({
            "record": "verdict",
            "isa": self.isa,
            "size": self.size,
            "input": self.input,
            "operation": self.operation,
            "ours": self.ours,
            "simdutf": self.simdutf,
            "level": self.level,
            "ratio": (self.ratio() * 1000.0).round() / 1000.0,
            "goal": GOAL,
            "met": self.met(),
        })
        .to_string()
    }
}

/// The GB/s of `implementation` in one cell, if measured.
fn gbps(rows: &[Row], isa: &str, size: usize, input: &str, op: &str, imp: &str) -> Option<f64> {
    find(rows, isa, size, input, op, imp).map(|r| r.gbps)
}

fn find<'a>(
    rows: &'a [Row],
    isa: &str,
    size: usize,
    input: &str,
    op: &str,
    imp: &str,
) -> Option<&'a Row> {
    rows.iter().find(|r| {
        r.isa == isa
            && r.size == size
            && r.input == input
            && r.operation == op
            && r.implementation == imp
    })
}

/// Whether simdutf ran, in the run of `isa`, the implementation that matches it (or
/// there is none to match): only then is a ratio against it meaningful.
pub fn simdutf_matches(rows: &[Row], isa: &str) -> bool {
    rows.iter()
        .find(|r| r.isa == isa && r.implementation == "simdutf")
        .is_none_or(|r| y::simdutf_counterpart(isa).is_none_or(|c| c == r.level))
}

/// Our instruction sets in `rows`, in the order they first appear.
pub fn isas(rows: &[Row]) -> Vec<String> {
    let mut isas: Vec<String> = Vec::new();
    for r in rows {
        if !isas.contains(&r.isa) {
            isas.push(r.isa.clone());
        }
    }
    isas
}

/// The sizes in `rows`, largest first.
pub fn sizes(rows: &[Row]) -> Vec<usize> {
    let mut sizes: Vec<usize> = rows.iter().map(|r| r.size).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.dedup();
    sizes
}

/// Every cell of `rows` with a matching simdutf measurement (not `random`, whose
/// ratios say only how early each side stops), in report order.
pub fn verdicts(rows: &[Row]) -> Vec<Verdict> {
    let mut out = Vec::new();
    for isa in isas(rows) {
        if !simdutf_matches(rows, &isa) {
            continue;
        }
        for size in sizes(rows) {
            for input in CLASSES.into_iter().filter(|&c| c != "random") {
                for op in OPERATIONS {
                    let ours = gbps(rows, &isa, size, input, op, "fast");
                    let theirs = find(rows, &isa, size, input, op, "simdutf");
                    if let (Some(ours), Some(theirs)) = (ours, theirs) {
                        out.push(Verdict {
                            isa: isa.clone(),
                            size,
                            input: input.into(),
                            operation: op.into(),
                            ours,
                            simdutf: theirs.gbps,
                            level: theirs.level.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The summary record of `verdicts`.
pub fn summary_json(verdicts: &[Verdict], load_after: &str) -> String {
    json!({
        "record": "summary",
        "cells": verdicts.len(),
        "met": verdicts.iter().filter(|v| v.met()).count(),
        "goal": GOAL,
        "load_after": load_after,
    })
    .to_string()
}

/// Reads a run's JSON lines: its machine (if it has a machine record; the load after
/// the run from its summary record) and its measurements.
pub fn read_run(path: &Path) -> Result<(Option<Machine>, Vec<Row>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut machine, mut rows) = (None::<Machine>, Vec::new());
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        if let Some(m) = Machine::from_json(&v) {
            machine = Some(m);
        } else if let Some(r) = Row::from_json(&v) {
            rows.push(r);
        } else if v.get("record").is_some_and(|r| r == "summary") {
            if let (Some(m), Some(after)) = (&mut machine, v.get("load_after")) {
                m.load_after = after.as_str().unwrap_or("").into();
            }
        }
    }
    Ok((machine, rows))
}

/// `1 MiB` or `64 KiB`.
pub fn size_name(size: usize) -> String {
    if size.is_multiple_of(1 << 20) {
        format!("{} MiB", size >> 20)
    } else {
        format!("{} KiB", size >> 10)
    }
}

fn cell(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.2}"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}×", a / b),
        _ => "–".into(),
    }
}

/// How a run's heading says when it was: what the machine record knows.
fn when(machine: &Machine) -> String {
    let mut parts = Vec::new();
    if !machine.started.is_empty() {
        parts.push(machine.started.clone());
    }
    if !machine.commit.is_empty() {
        parts.push(machine.commit.clone());
    }
    if !machine.load_before.is_empty() {
        parts.push(format!(
            "load average {} (1, 5, 15 min) before the run, {} after",
            machine.load_before,
            if machine.load_after.is_empty() {
                "–"
            } else {
                &machine.load_after
            }
        ));
    }
    parts.push(if machine.quick {
        "`--quick`: a smoke test, not a measurement".into()
    } else if machine.timing.is_empty() {
        "best of 15 repetitions of at least 20 ms over 8 buffers".into()
    } else {
        machine.timing.clone()
    });
    if !machine.note.is_empty() {
        parts.push(machine.note.clone());
    }
    parts.join("; ")
}

/// The Markdown of a run: the machine, then per instruction set and size, GB/s, ratios
/// and each cell's verdict, then the cells under the goal.
pub fn markdown(rows: &[Row], machine: &Machine) -> String {
    let mut md = String::new();
    let w = &mut md;
    let detected = machine.detected.as_str();
    let _ = writeln!(w, "Measured on {}.", machine.label());
    let _ = writeln!(w, "{}.", when(machine));
    let _ = writeln!(
        w,
        "Our dispatch picks `{detected}` here. GB/s of text (Corrected UTF-8 bytes for ours, \
         UTF-8 bytes of the same code points for the others); ratios are ours ÷ yardstick, \
         above 1 when ours is faster; the goal column says whether ours reaches {GOAL:.2}× \
         simdutf at the matching level. simdutf: `validate_utf8`, `convert_utf8_to_utf32` \
         and `convert_utf32_to_utf8` (validating; output buffers sized for the worst case), \
         and the two in turn for the transcoders. `std`: `str::from_utf8`, `from_utf8` + \
         `chars()`, and a `char::encode_utf8` loop (`String::push`). simdutf8 validates \
         only. `random` fails in the first bytes: its ratios say how early each stops, \
         nothing more."
    );
    let reference = rows.iter().any(|r| r.implementation == "reference");
    for isa in isas(rows) {
        let mut heading = format!(
            "\n### `{isa}`{}: ours `fast-{isa}`",
            if isa == detected { " (detected)" } else { "" }
        );
        for imp in ["simdutf", "simdutf8"] {
            if let Some(r) = rows
                .iter()
                .find(|r| r.isa == isa && r.implementation == imp)
            {
                let _ = write!(heading, ", {imp} `{}`", r.level);
            }
        }
        let _ = writeln!(w, "{heading}");
        let matched = simdutf_matches(rows, &isa);
        if !matched {
            let _ = writeln!(
                w,
                "\nsimdutf did not run the implementation that matches `{isa}` \
                 (`{}` set by hand?): no ratio against it is printed.",
                y::SIMDUTF_FORCE
            );
        }
        for size in sizes(rows) {
            let _ = writeln!(w, "\n{}, `{isa}`:\n", size_name(size));
            let mut header = String::from(
                "| input | operation | ours | simdutf | simdutf8 | std | ÷ simdutf | goal | ÷ simdutf8 | ÷ std |",
            );
            let mut rule = String::from("|---|---|--:|--:|--:|--:|--:|:-:|--:|--:|");
            if reference {
                header.push_str(" reference |");
                rule.push_str("--:|");
            }
            let _ = writeln!(w, "{header}\n{rule}");
            for class in CLASSES {
                for op in OPERATIONS {
                    let g = |imp: &str| gbps(rows, &isa, size, class, op, imp);
                    let ours = g("fast");
                    if ours.is_none() {
                        continue;
                    }
                    let (s, s8, st) = (g("simdutf"), g("simdutf8"), g("std"));
                    let s_ratio = if matched { s } else { None };
                    let goal = match (ours, s_ratio) {
                        _ if class == "random" => "",
                        (Some(o), Some(t)) if (o / t * 100.0).round() / 100.0 >= GOAL => "yes",
                        (Some(_), Some(_)) => "**no**",
                        _ => "",
                    };
                    let _ = write!(
                        w,
                        "| {class} | {op} | {} | {} | {} | {} | {} | {goal} | {} | {} |",
                        cell(ours),
                        cell(s),
                        cell(s8),
                        cell(st),
                        ratio(ours, s_ratio),
                        ratio(ours, s8),
                        ratio(ours, st)
                    );
                    if reference {
                        let _ = write!(w, " {} |", cell(g("reference")));
                    }
                    let _ = writeln!(w);
                }
            }
        }
    }
    let verdicts = verdicts(rows);
    let under: Vec<&Verdict> = verdicts.iter().filter(|v| !v.met()).collect();
    let _ = writeln!(
        w,
        "\n{} of {} cells reach {GOAL:.2}× simdutf at the matching level{}",
        verdicts.len() - under.len(),
        verdicts.len(),
        if under.is_empty() { "." } else { "; under it:" }
    );
    if !under.is_empty() {
        let _ = writeln!(w);
    }
    for v in under {
        let _ = writeln!(
            w,
            "* `{}` {} {} {}: {:.2}× ({:.2} vs {:.2} GB/s, simdutf `{}`)",
            v.isa,
            size_name(v.size),
            v.input,
            v.operation,
            v.ratio(),
            v.ours,
            v.simdutf,
            v.level
        );
    }
    md
}

/// The README's summary: the detected instruction set (or the first measured) at the
/// first size, against simdutf, simdutf8 and `std`.
pub fn summary(rows: &[Row], machine: &Machine) -> String {
    let detected = machine.detected.as_str();
    let isa = if rows.iter().any(|r| r.isa == detected) {
        detected
    } else {
        rows.first().map_or(detected, |r| r.isa.as_str())
    };
    let size = sizes(rows).first().copied().unwrap_or(1 << 20);
    let g = |class: &str, op: &str, imp: &str| find(rows, isa, size, class, op, imp);
    let level = |imp| g("ascii", "validate", imp).map_or("–", |r| r.level.as_str());
    let mark = if isa == detected { " (detected)" } else { "" };
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(
        w,
        "Ours `fast-{isa}`{mark} against simdutf `{}` and simdutf8 `{}`, {}, GB/s of text \
         and ratios ours ÷ yardstick, on {}; {}:\n",
        level("simdutf"),
        level("simdutf8"),
        size_name(size),
        machine.label(),
        when(machine),
    );
    let _ = writeln!(
        w,
        "| input | validate | ÷ simdutf | ÷ simdutf8 | decode → UTF-32 | ÷ simdutf | ÷ `from_utf8` + `chars()` | encode | ÷ simdutf | ÷ `encode_utf8` loop | → UTF-8 | ÷ simdutf via UTF-32 |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
    );
    let matched = simdutf_matches(rows, isa);
    for class in CLASSES.into_iter().filter(|&c| c != "random") {
        let _ = write!(w, "| {class} |");
        for (op, others) in [
            ("validate", &["simdutf", "simdutf8"][..]),
            ("decode", &["simdutf", "std"][..]),
            ("encode", &["simdutf", "std"][..]),
            ("to-utf8", &["simdutf"][..]),
        ] {
            let ours = g(class, op, "fast").map(|r| r.gbps);
            let _ = write!(w, " {} |", cell(ours));
            for &other in others {
                let theirs = g(class, op, other).map(|r| r.gbps);
                let theirs = theirs.filter(|_| matched || other != "simdutf");
                let _ = write!(w, " {} |", ratio(ours, theirs));
            }
        }
        let _ = writeln!(w);
    }
    md
}

/// The markers of a CPU's block of tables in `codec/PERFORMANCE.md`.
pub fn table_markers(key: &str) -> [String; 2] {
    [
        format!("<!-- generated by the throughput example for {key}: begin -->"),
        format!("<!-- generated by the throughput example for {key}: end -->"),
    ]
}

/// The markers of the README's summary (the machine that writes it).
pub const SUMMARY_MARKERS: [&str; 2] = [
    "<!-- generated by the throughput example (summary): begin -->",
    "<!-- generated by the throughput example (summary): end -->",
];

/// A generated part of a file: its markers, its text, and the command that regenerates
/// it.
pub type Block<'a> = ([String; 2], &'a str, String);

/// Replaces what lies between each pair of `blocks`' markers found in `path` with its
/// text, after a line with the command that regenerates it; an error if `path` has
/// none of them.
pub fn write_into(path: &Path, blocks: &[Block<'_>]) -> Result<(), String> {
    let mut text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut found = false;
    for ([begin, end], generated, regenerate) in blocks {
        let (Some(b), Some(e)) = (text.find(begin.as_str()), text.find(end.as_str())) else {
            continue;
        };
        found = true;
        let body = format!("\n<!-- regenerate: {regenerate} -->\n\n{generated}\n");
        text = format!("{}{body}{}", &text[..b + begin.len()], &text[e..]);
    }
    if !found {
        let names: Vec<&str> = blocks.iter().map(|(m, _, _)| m[0].as_str()).collect();
        return Err(format!(
            "{}: none of {}: add the markers of this machine's block",
            path.display(),
            names.join(", ")
        ));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(isa: &str, input: &str, op: &str, imp: &str, level: &str, gbps: f64) -> Row {
        Row {
            size: 1 << 20,
            input: input.into(),
            operation: op.into(),
            implementation: imp.into(),
            level: level.into(),
            isa: isa.into(),
            detected: "avx2".into(),
            gbps,
        }
    }

    #[test]
    fn the_machine_names_the_flags_as_linux_spells_them() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\
            model\t\t: 17\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse4_2 avx2 bmi2 avx512f \
            avx512bw avx512vl avx512vbmi avx512_vbmi2 avx512_vpopcntdq\n\nprocessor\t: 1\n";
        let m = Machine::from_cpuinfo(cpuinfo, vec![], String::new());
        assert_eq!(
            (m.model.as_str(), m.family, m.model_number, m.cpus),
            ("AMD EPYC", Some(25), Some(17), 2)
        );
        assert_eq!(
            m.flags,
            [
                "sse4_2",
                "avx2",
                "bmi2",
                "avx512f",
                "avx512bw",
                "avx512vl",
                "avx512vbmi",
                "avx512_vbmi2",
                "avx512_vpopcntdq"
            ]
        );
    }

    #[test]
    fn rows_and_machines_read_back_what_they_print() {
        let r = row("avx2", "cjk", "decode", "fast", "avx2", 2.5);
        let v: Value = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(Row::from_json(&v), Some(r));
        // A line of a run recorded before the records: a measurement.
        let old = r#"{"input":"ascii","size":65536,"operation":"validate","encoding":"utf-8","implementation":"simdutf","level":"haswell","isa":"avx2","detected":"avx512","gbps":36.3}"#;
        let v: Value = serde_json::from_str(old).unwrap();
        assert_eq!(Row::from_json(&v).unwrap().gbps, 36.3);
        let m = Machine {
            model: "AMD EPYC".into(),
            family: Some(25),
            model_number: Some(17),
            cpus: 2,
            flags: vec!["avx2".into()],
            isas: vec!["portable".into(), "avx2".into()],
            detected: "avx2".into(),
            ..Machine::default()
        };
        let v: Value = serde_json::from_str(&m.json()).unwrap();
        assert!(Row::from_json(&v).is_none());
        let back = Machine::from_json(&v).unwrap();
        assert_eq!(back.key(), "AMD EPYC (family 25, model 17)");
        assert_eq!(back.isas, m.isas);
        assert!(back.label().ends_with("no AVX-512"));
    }

    #[test]
    fn a_verdict_per_matched_cell_met_at_the_goal_as_printed() {
        let rows = [
            row("avx2", "cjk", "decode", "fast", "avx2", 1.046),
            row("avx2", "cjk", "decode", "simdutf", "haswell", 1.0),
            row("avx2", "cjk", "encode", "fast", "avx2", 1.044),
            row("avx2", "cjk", "encode", "simdutf", "haswell", 1.0),
            row("avx2", "random", "validate", "fast", "avx2", 9.0),
            row("avx2", "random", "validate", "simdutf", "haswell", 1.0),
            // simdutf at a level that does not match: no verdict.
            row("sse2", "cjk", "decode", "fast", "sse2", 1.0),
            row("sse2", "cjk", "decode", "simdutf", "icelake", 1.0),
        ];
        let v = verdicts(&rows);
        let got: Vec<(&str, bool)> = v.iter().map(|v| (v.operation.as_str(), v.met())).collect();
        if y::simdutf_counterpart("avx2") == Some("haswell") {
            assert_eq!(got, [("decode", true), ("encode", false)]);
            let s: Value = serde_json::from_str(&summary_json(&v, "1 1 1")).unwrap();
            assert_eq!((s["cells"].as_u64(), s["met"].as_u64()), (Some(2), Some(1)));
        }
        assert!(v.iter().all(|v| v.isa == "avx2"));
    }
}
