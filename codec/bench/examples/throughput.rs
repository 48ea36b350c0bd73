//! Throughput of the fast paths side by side with simdutf, simdutf8 and `std` on the
//! benchmark texts, one table per instruction set, and the verdict of every cell against
//! the goal (ours ≥ 1.05× simdutf at the matching level); `codec/PERFORMANCE.md`'s
//! tables come from here.
//!
//! ```text
//! cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput                # Markdown
//! cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput -- --isa all --json > run.jsonl
//! cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput -- --write codec/PERFORMANCE.md --write README.md
//! cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput -- --from run.jsonl --write codec/PERFORMANCE.md
//! ```
//!
//! Options: `--isa NAME|all` (one instruction set, in this process; `all`, the default:
//! every one this CPU runs, one child process each), `--json` (JSON lines: the machine
//! record with the CPU's model, family and the instruction sets it runs, one measurement
//! per line, a verdict per cell, a summary; see `report.rs`), `--write FILE` (replace the
//! generated parts of FILE, this CPU's block of tables and the summary, between their
//! markers; may be given several times, one run for all), `--from FILE` (no measuring:
//! the tables of a recorded `--json` run, which names its machine), `--size 1m|64k`
//! (default both), `--only OPERATION`, `--reference` (the careful codec too), `--quick`
//! (few, short repetitions: a smoke test that every row is produced, not a measurement).
//!
//! For each instruction set this CPU runs, slowest first, the example runs itself once
//! (`--isa NAME`) with our fast paths forced to it and simdutf forced to its matching
//! implementation (avx512 → icelake, avx2 → haswell, sse2 → westmere, portable →
//! fallback; `SIMDUTF_FORCE_IMPLEMENTATION`, which simdutf reads once per process, if
//! not already set). Within that run, every class is measured for ours and every
//! yardstick in turn, so each table is one side-by-side run. simdutf8 and `std` run
//! what they pick themselves (they cannot be forced at run time).
//!
//! `gbps` is gigabytes of text (Corrected UTF-8 bytes for ours, UTF-8 bytes for the
//! others, read or written) per second: the fastest of the passes over 8 different
//! buffers in turn (so that the branch predictor cannot learn one; at 64 KiB it can
//! learn all 8 for a kernel with few branches per byte: see codec/PERFORMANCE.md) timed
//! in 300 ms, and at least 15. Before timing, every implementation's result is checked
//! on every buffer.

use corrected_utf8::corrected;
use corrected_utf8::corrected::fast::{self, InstructionSet};
use corrected_utf8_bench::report::{self, Machine, Row, OPERATIONS};
use corrected_utf8_bench::texts::{self, Text, CLASSES};
use corrected_utf8_bench::yardstick as y;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant, SystemTime};

const BUFFERS: u64 = 8;
/// How [`measure`] times a cell, as the tables say it.
const TIMING: &str =
    "the fastest pass over the 8 buffers of the passes timed in 300 ms (at least 15)";
/// The command that regenerates `codec/PERFORMANCE.md`'s tables of this machine and the
/// README's summary (from the repository root).
const REGENERATE: &str = "cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput -- --write codec/PERFORMANCE.md --write README.md";

struct Options {
    json: bool,
    quick: bool,
    reference: bool,
    sizes: Vec<usize>,
    /// `--only OPERATION`: measure just that operation (for profiling).
    only: Option<String>,
    /// `--isa NAME`: this process measures that instruction set only; `None` (or `all`):
    /// every one this CPU runs, in child processes.
    isa: Option<String>,
    /// `--from FILE`: the rows of a recorded run instead of measuring.
    from: Option<PathBuf>,
    write: Vec<PathBuf>,
}

impl Options {
    fn wants(&self, operation: &str) -> bool {
        self.only.as_deref().is_none_or(|o| o == operation)
    }

    /// The fewest timed passes of one measurement.
    fn passes(&self) -> usize {
        if self.quick {
            2
        } else {
            15
        }
    }

    /// How long one measurement goes on timing passes (at least [`Self::passes`]).
    fn budget(&self) -> Duration {
        Duration::from_millis(if self.quick { 10 } else { 300 })
    }

    fn parse() -> Result<Options, String> {
        let mut options = Options {
            json: false,
            quick: false,
            reference: false,
            sizes: vec![1 << 20, 64 << 10],
            only: None,
            isa: None,
            from: None,
            write: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--json" => options.json = true,
                "--quick" => options.quick = true,
                "--reference" => options.reference = true,
                "--size" => {
                    options.sizes = match value()?.as_str() {
                        "1m" => vec![1 << 20],
                        "64k" => vec![64 << 10],
                        s => return Err(format!("--size takes 1m or 64k, not {s}")),
                    }
                }
                "--only" => {
                    let op = value()?;
                    if !OPERATIONS.contains(&op.as_str()) {
                        return Err(format!(
                            "--only takes validate, decode, encode, to-utf8 or from-utf8, not {op}"
                        ));
                    }
                    options.only = Some(op);
                }
                "--isa" => {
                    let isa = value()?;
                    options.isa = (isa != "all").then_some(isa);
                }
                "--from" => options.from = Some(value()?.into()),
                "--write" => options.write.push(value()?.into()),
                _ => return Err(format!("unknown argument {arg}")),
            }
        }
        if options.from.is_some() && options.isa.is_some() {
            return Err("--from renders a recorded run: it takes no --isa".into());
        }
        Ok(options)
    }
}

/// The best throughput, in GB/s, of `f` over all of `inputs` (`bytes` bytes in all): the
/// fastest of many timed passes over all the inputs, for at least [`Options::budget`]
/// and [`Options::passes`] of them. On a shared machine a short pass often runs
/// undisturbed while a long window almost never does, so the fastest pass is what the
/// code costs; passes shorter than 20 µs are timed in groups (the clock's own cost).
fn measure<T>(options: &Options, inputs: &[T], bytes: usize, mut f: impl FnMut(&T)) -> f64 {
    let mut pass = || {
        for input in inputs {
            f(input);
        }
    };
    let start = Instant::now();
    pass();
    let once = start.elapsed().as_secs_f64();
    let group = (20e-6 / once.max(1e-9)).ceil().clamp(1.0, 1e6) as u32;
    let (mut best, mut passes) = (f64::INFINITY, 0);
    let begun = Instant::now();
    while passes < options.passes() || begun.elapsed() < options.budget() {
        let start = Instant::now();
        for _ in 0..group {
            pass();
        }
        best = best.min(start.elapsed().as_secs_f64() / f64::from(group));
        passes += 1;
    }
    bytes as f64 / best / 1e9
}

/// Checks that every implementation gives the expected result on `t`, so that no row
/// times a call that fails early.
fn check(isa: InstructionSet, class: &str, t: &Text) {
    let ours = fast::validate_with(isa, &t.corrected);
    if class == "random" {
        assert!(
            ours.is_err() && !y::simdutf_validate(&t.utf8),
            "random: valid"
        );
        return;
    }
    assert_eq!(ours, Ok(()), "{class}: fast validate");
    assert!(y::simdutf_validate(&t.utf8), "{class}: simdutf validate");
    assert!(
        simdutf8::basic::from_utf8(&t.utf8).is_ok(),
        "{class}: simdutf8"
    );
    let mut out = vec![0u32; t.corrected.len().max(t.utf8.len())];
    let n = fast::decode_to_utf32_with(isa, &t.corrected, &mut out);
    assert_eq!(n, Ok(t.codepoints.len()), "{class}: fast decode");
    assert!(
        out[..t.codepoints.len()] == t.codepoints,
        "{class}: fast decode"
    );
    let n = y::simdutf_decode(&t.utf8, &mut out);
    assert!(out[..n] == t.utf8_codepoints, "{class}: simdutf decode");
    let n = y::std_decode(&t.utf8, &mut out);
    assert!(out[..n] == t.utf8_codepoints, "{class}: std decode");
    let mut bytes = Vec::new();
    fast::encode_from_utf32_with(isa, &t.codepoints, &mut bytes).expect("fast encode");
    assert!(bytes == t.corrected, "{class}: fast encode");
    bytes.clear();
    y::simdutf_encode(&t.utf8_codepoints, &mut bytes);
    assert!(bytes == t.utf8, "{class}: simdutf encode");
    let mut string = String::new();
    y::std_encode(&t.utf8_codepoints, &mut string);
    assert!(string.as_bytes() == t.utf8, "{class}: std encode");
    bytes.clear();
    fast::transcode_to_utf8_with(isa, &t.transcodable, &mut bytes).expect("fast to UTF-8");
    assert!(bytes == t.utf8, "{class}: fast transcode to UTF-8");
    bytes.clear();
    fast::utf8_to_corrected_with(isa, &t.utf8, &mut bytes).expect("fast from UTF-8");
    assert!(
        bytes == t.transcodable,
        "{class}: fast transcode from UTF-8"
    );
    bytes.clear();
    y::simdutf_round_trip(&t.utf8, &mut out, &mut bytes);
    assert!(bytes == t.utf8, "{class}: simdutf UTF-8 → UTF-32 → UTF-8");
    bytes.clear();
    via_utf32_to_utf8(isa, &t.transcodable, &mut out, &mut string);
    assert!(string.as_bytes() == t.utf8, "{class}: decode + encode_utf8");
    bytes.clear();
    via_utf32_from_utf8(isa, &t.utf8, &mut out, &mut bytes);
    assert!(bytes == t.transcodable, "{class}: chars() + fast encode");
}

/// Corrected UTF-8 → UTF-8 through UTF-32: our fast decoder, then a `char::encode_utf8`
/// loop.
fn via_utf32_to_utf8(isa: InstructionSet, bytes: &[u8], buffer: &mut [u32], out: &mut String) {
    out.clear();
    if let Ok(n) = fast::decode_to_utf32_with(isa, bytes, buffer) {
        y::std_encode(&buffer[..n], out);
    }
}

/// UTF-8 → Corrected UTF-8 through UTF-32: `from_utf8` + `chars()`, then our fast encoder.
fn via_utf32_from_utf8(isa: InstructionSet, bytes: &[u8], buffer: &mut [u32], out: &mut Vec<u8>) {
    out.clear();
    let n = y::std_decode(bytes, buffer);
    fast::encode_from_utf32_with(isa, &buffer[..n], out).ok();
}

/// Measures one class at one size: ours on `isa` and every yardstick, interleaved.
fn run_class(
    options: &Options,
    isa: InstructionSet,
    simdutf: &str,
    size: usize,
    class: &str,
    rows: &mut Vec<Row>,
) {
    let texts: Vec<Text> = (0..BUFFERS)
        .map(|seed| texts::make(class, size, seed))
        .collect();
    for t in &texts {
        check(isa, class, t);
    }
    let corrected_bytes: usize = texts.iter().map(|t| t.corrected.len()).sum();
    let utf8_bytes: usize = texts.iter().map(|t| t.utf8.len()).sum();
    let detected = InstructionSet::detect().name();
    let mut row = |operation: &str, implementation: &str, level: &str, gbps| {
        rows.push(Row {
            size,
            input: class.into(),
            operation: operation.into(),
            implementation: implementation.into(),
            level: level.into(),
            isa: isa.name().into(),
            detected: detected.into(),
            gbps,
        })
    };
    let (c, u) = (corrected_bytes, utf8_bytes);

    if options.wants("validate") {
        let gbps = measure(options, &texts, c, |t| {
            black_box(fast::validate_with(isa, black_box(&t.corrected))).ok();
        });
        row("validate", "fast", isa.name(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            black_box(y::simdutf_validate(black_box(&t.utf8)));
        });
        row("validate", "simdutf", simdutf, gbps);
        let gbps = measure(options, &texts, u, |t| {
            black_box(simdutf8::basic::from_utf8(black_box(&t.utf8))).ok();
        });
        row("validate", "simdutf8", y::simdutf8_pick(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            black_box(std::str::from_utf8(black_box(&t.utf8))).ok();
        });
        row("validate", "std", "scalar", gbps);
        if options.reference {
            let gbps = measure(options, &texts, c, |t| {
                black_box(corrected::validate(black_box(&t.corrected))).ok();
            });
            row("validate", "reference", "scalar", gbps);
        }
    }
    if class == "random" {
        return; // Nothing to decode or encode: it fails at the first bytes.
    }

    // Decode to UTF-32, into a buffer allocated once.
    let longest = texts.iter().map(|t| t.utf8.len()).max().unwrap_or(0);
    let mut out = vec![0u32; size.max(longest)];
    if options.wants("decode") {
        let gbps = measure(options, &texts, c, |t| {
            black_box(fast::decode_to_utf32_with(
                isa,
                black_box(&t.corrected),
                &mut out,
            ))
            .ok();
        });
        row("decode", "fast", isa.name(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            black_box(y::simdutf_decode(black_box(&t.utf8), &mut out));
        });
        row("decode", "simdutf", simdutf, gbps);
        let gbps = measure(options, &texts, u, |t| {
            black_box(y::std_decode(black_box(&t.utf8), &mut out));
        });
        row("decode", "std", "scalar", gbps);
        if options.reference {
            let gbps = measure(options, &texts, c, |t| {
                black_box(corrected::decode(black_box(&t.corrected))).ok();
            });
            row("decode", "reference", "scalar", gbps);
        }
    }

    // Encode from UTF-32, into buffers allocated once and cleared (not freed).
    if options.wants("encode") {
        let mut bytes = Vec::with_capacity(4 * size);
        let gbps = measure(options, &texts, c, |t| {
            bytes.clear();
            black_box(fast::encode_from_utf32_with(
                isa,
                black_box(&t.codepoints),
                &mut bytes,
            ))
            .ok();
        });
        row("encode", "fast", isa.name(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            bytes.clear();
            black_box(y::simdutf_encode(black_box(&t.utf8_codepoints), &mut bytes));
        });
        row("encode", "simdutf", simdutf, gbps);
        let mut string = String::with_capacity(4 * size);
        let gbps = measure(options, &texts, u, |t| {
            string.clear();
            y::std_encode(black_box(&t.utf8_codepoints), &mut string);
            black_box(&string);
        });
        row("encode", "std", "scalar", gbps);
        if options.reference {
            let gbps = measure(options, &texts, c, |t| {
                black_box(corrected::encode(black_box(t.codepoints.iter().copied()))).ok();
            });
            row("encode", "reference", "scalar", gbps);
        }
    }

    // The transcoders, against simdutf's UTF-8 → UTF-32 → UTF-8 on the UTF-8 twin and
    // against going through a UTF-32 buffer with the fastest pieces Rust has (the `std`
    // column: our decoder then `char::encode_utf8`; `chars()` then our encoder). GB/s of
    // the input read.
    let t_bytes: usize = texts.iter().map(|t| t.transcodable.len()).sum();
    let mut bytes = Vec::with_capacity(4 * size);
    let mut string = String::with_capacity(4 * size);
    if options.wants("to-utf8") {
        let gbps = measure(options, &texts, t_bytes, |t| {
            bytes.clear();
            black_box(fast::transcode_to_utf8_with(
                isa,
                black_box(&t.transcodable),
                &mut bytes,
            ))
            .ok();
        });
        row("to-utf8", "fast", isa.name(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            bytes.clear();
            y::simdutf_round_trip(black_box(&t.utf8), &mut out, &mut bytes);
            black_box(&bytes);
        });
        row("to-utf8", "simdutf", simdutf, gbps);
        let gbps = measure(options, &texts, t_bytes, |t| {
            via_utf32_to_utf8(isa, black_box(&t.transcodable), &mut out, &mut string);
            black_box(&string);
        });
        row("to-utf8", "std", "scalar", gbps);
    }
    if options.wants("from-utf8") {
        let gbps = measure(options, &texts, u, |t| {
            bytes.clear();
            black_box(fast::utf8_to_corrected_with(
                isa,
                black_box(&t.utf8),
                &mut bytes,
            ))
            .ok();
        });
        row("from-utf8", "fast", isa.name(), gbps);
        let gbps = measure(options, &texts, u, |t| {
            bytes.clear();
            y::simdutf_round_trip(black_box(&t.utf8), &mut out, &mut bytes);
            black_box(&bytes);
        });
        row("from-utf8", "simdutf", simdutf, gbps);
        let gbps = measure(options, &texts, u, |t| {
            via_utf32_from_utf8(isa, black_box(&t.utf8), &mut out, &mut bytes);
            black_box(&bytes);
        });
        row("from-utf8", "std", "scalar", gbps);
    }
}

/// How many rows a run of one instruction set gives: the smoke test's yardstick.
fn expected_rows(options: &Options) -> usize {
    let per_op = |op: &str, n: usize| {
        if options.wants(op) {
            n + usize::from(options.reference)
        } else {
            0
        }
    };
    // The transcoders have no reference row.
    let text = per_op("validate", 4)
        + per_op("decode", 3)
        + per_op("encode", 3)
        + per_op("to-utf8", 3)
        + per_op("from-utf8", 3)
        - usize::from(options.reference)
            * (usize::from(options.wants("to-utf8")) + usize::from(options.wants("from-utf8")));
    let random = per_op("validate", 4);
    options.sizes.len() * ((CLASSES.len() - 1) * text + random)
}

/// This machine, with the run's start.
fn this_machine() -> Machine {
    let mut m = Machine::here(
        InstructionSet::available()
            .map(|i| i.name().to_string())
            .collect(),
        InstructionSet::detect().name().into(),
    );
    m.started = now();
    m.commit = commit();
    m.load_before = load_average();
    m
}

/// `--isa NAME`: measures that instruction set in this process, printing each class's
/// rows as JSON lines as they come when `print`.
fn run_isa(options: &Options, name: &str, print: bool) -> Result<Vec<Row>, String> {
    let isa = InstructionSet::available()
        .find(|i| i.name() == name)
        .ok_or_else(|| format!("instruction set {name} is not available on this CPU"))?;
    // simdutf at the level that matches `isa` (unless the caller pinned one: then the
    // tables print no ratio against a level that does not match).
    if std::env::var_os(y::SIMDUTF_FORCE).is_none() {
        if let Some(c) = y::simdutf_counterpart(isa.name()) {
            std::env::set_var(y::SIMDUTF_FORCE, c);
        }
    }
    let simdutf = y::pin_simdutf();
    let mut rows = Vec::new();
    for &size in &options.sizes {
        for class in CLASSES {
            let first = rows.len();
            run_class(options, isa, &simdutf, size, class, &mut rows);
            if print {
                let mut stdout = std::io::stdout().lock();
                for r in &rows[first..] {
                    writeln!(stdout, "{}", r.json()).map_err(|e| e.to_string())?;
                }
                stdout.flush().map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(rows)
}

/// Runs this example once per available instruction set (`--isa NAME --json`), each
/// with simdutf forced to its counterpart, and collects their measurements (printing
/// them as they come when `print`).
fn run_all(options: &Options, print: bool) -> Result<Vec<Row>, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for isa in InstructionSet::available() {
        let mut child = Command::new(&exe);
        child.args(["--isa", isa.name(), "--json"]);
        if let [size] = options.sizes[..] {
            child.args(["--size", if size == 1 << 20 { "1m" } else { "64k" }]);
        }
        if let Some(op) = &options.only {
            child.args(["--only", op]);
        }
        if options.quick {
            child.arg("--quick");
        }
        if options.reference {
            child.arg("--reference");
        }
        if std::env::var_os(y::SIMDUTF_FORCE).is_none() {
            if let Some(c) = y::simdutf_counterpart(isa.name()) {
                child.env(y::SIMDUTF_FORCE, c);
            }
        }
        eprintln!("measuring fast-{} ...", isa.name());
        let mut process = child
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        let stdout = process.stdout.take().expect("piped");
        let mut got = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| e.to_string())?;
            let value: serde_json::Value =
                serde_json::from_str(&line).map_err(|e| format!("{e}: {line}"))?;
            // The child's machine, verdict and summary records are the parent's to print.
            let Some(row) = Row::from_json(&value) else {
                continue;
            };
            if print {
                println!("{line}");
            }
            rows.push(row);
            got += 1;
        }
        let status = process.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("the run of {} failed: {status}", isa.name()));
        }
        if got != expected_rows(options) {
            return Err(format!(
                "the run of {} gave {got} rows, not {}",
                isa.name(),
                expected_rows(options)
            ));
        }
    }
    Ok(rows)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn command_output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn load_average() -> String {
    read("/proc/loadavg")
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The UTC date and time, `YYYY-MM-DD HH:MM`.
fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's days-to-civil algorithm.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

fn commit() -> String {
    let Some(hash) = command_output("git", &["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown commit".into();
    };
    let dirty = command_output("git", &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty());
    if dirty {
        format!("commit {hash} with uncommitted changes")
    } else {
        format!("commit {hash}")
    }
}

fn main() -> ExitCode {
    let result = Options::parse().and_then(|options| {
        let machine_key = |m: &Machine| report::table_markers(&m.key());
        // Before measuring: a file without markers is an error that should not wait.
        for path in &options.write {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            if options.from.is_none()
                && !text.contains(&machine_key(&this_machine())[0])
                && !text.contains(report::SUMMARY_MARKERS[0])
            {
                return Err(format!(
                    "{}: no `{}` nor `{}`",
                    path.display(),
                    machine_key(&this_machine())[0],
                    report::SUMMARY_MARKERS[0]
                ));
            }
        }
        let print = options.json && options.write.is_empty();
        let (mut machine, rows, from) = match &options.from {
            Some(path) => {
                let (machine, rows) = report::read_run(path)?;
                let machine = machine
                    .ok_or_else(|| format!("{}: no machine record", path.display()))?;
                if print {
                    println!("{}", machine.json());
                    for r in &rows {
                        println!("{}", r.json());
                    }
                }
                (machine, rows, format!(" --from {}", path.display()))
            }
            None => {
                let mut machine = this_machine();
                machine.quick = options.quick;
                machine.timing = TIMING.into();
                if print {
                    println!("{}", machine.json());
                }
                let rows = match &options.isa {
                    Some(isa) => run_isa(&options, isa, print)?,
                    None => run_all(&options, print)?,
                };
                (machine, rows, String::new())
            }
        };
        if options.from.is_none() {
            machine.load_after = load_average();
        }
        let verdicts = report::verdicts(&rows);
        if print {
            for v in &verdicts {
                println!("{}", v.json());
            }
            println!("{}", report::summary_json(&verdicts, &machine.load_after));
        }
        if print {
            return Ok(());
        }
        let tables = report::markdown(&rows, &machine);
        if options.write.is_empty() {
            print!("{tables}");
        }
        let summary = report::summary(&rows, &machine);
        // Each block says how to write it again: measuring (the tables of this CPU and the
        // README's summary, one run) or from the recorded run.
        let regenerate = |file: &str| {
            if from.is_empty() {
                REGENERATE.to_string()
            } else {
                format!("cargo run --release --manifest-path codec/bench/Cargo.toml --example throughput --{from} --write {file}")
            }
        };
        for path in &options.write {
            let blocks = [
                (machine_key(&machine), tables.as_str(), regenerate("codec/PERFORMANCE.md")),
                (
                    report::SUMMARY_MARKERS.map(String::from),
                    summary.as_str(),
                    regenerate("README.md"),
                ),
            ];
            report::write_into(path, &blocks)?;
            eprintln!("wrote {}", path.display());
        }
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("throughput: {e}");
            ExitCode::FAILURE
        }
    }
}
