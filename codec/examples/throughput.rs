//! Throughput of the fast paths, the reference codec, `std` and simdutf8 on the
//! benchmark texts; the table in `codec/PERFORMANCE.md` comes from here.
//!
//! ```text
//! cargo run --release -p corrected-utf8 --example throughput -- --json
//! cargo run --release -p corrected-utf8 --example throughput            # a Markdown table
//! ```
//!
//! Options: `--json` (one JSON object per line), `--size 1m|64k` (default both),
//! `--quick` (fewer, shorter repetitions).
//!
//! `gbps` is gigabytes of text (UTF-8 or Corrected UTF-8 bytes, read or written) per
//! second: the best of 15 repetitions (of 20 ms or more), each running over 8 different buffers in
//! turn so that branch predictors cannot learn one. Corrected UTF-8 operations run on
//! the Corrected text, `std`/simdutf8 on the UTF-8 text of the same code points (for
//! `mixed`, a comparable UTF-8 text; see `benches/common/texts.rs`).

#[path = "../benches/common/texts.rs"]
mod texts;

use corrected_utf8::corrected;
use corrected_utf8::corrected::fast::{self, InstructionSet};
use std::hint::black_box;
use std::time::{Duration, Instant};
use texts::{Text, CLASSES};

const BUFFERS: u64 = 8;

struct Settings {
    repetitions: usize,
    min_time: Duration,
    /// `--only OPERATION`: measure just that operation (for profiling).
    only: Option<String>,
}

impl Settings {
    fn wants(&self, operation: &str) -> bool {
        self.only.as_deref().is_none_or(|o| o == operation)
    }
}

/// The best throughput, in GB/s, of `f` over all of `inputs` (`bytes` bytes in all).
fn measure<T>(settings: &Settings, inputs: &[T], bytes: usize, mut f: impl FnMut(&T)) -> f64 {
    for input in inputs {
        f(input);
    }
    let mut best = f64::INFINITY;
    for _ in 0..settings.repetitions {
        let start = Instant::now();
        let mut rounds = 0u32;
        while start.elapsed() < settings.min_time || rounds == 0 {
            for input in inputs {
                f(input);
            }
            rounds += 1;
        }
        best = best.min(start.elapsed().as_secs_f64() / f64::from(rounds));
    }
    bytes as f64 / best / 1e9
}

struct Row {
    size: usize,
    input: &'static str,
    operation: &'static str,
    encoding: &'static str,
    implementation: String,
    gbps: f64,
}

fn fast_name(imp: InstructionSet) -> String {
    format!("fast-{}", imp.name())
}

fn run_class(settings: &Settings, size: usize, class: &'static str, rows: &mut Vec<Row>) {
    let texts: Vec<Text> = (0..BUFFERS)
        .map(|seed| texts::make(class, size, seed))
        .collect();
    let corrected_bytes: usize = texts.iter().map(|t| t.corrected.len()).sum();
    let utf8_bytes: usize = texts.iter().map(|t| t.utf8.len()).sum();
    let mut row = |operation, encoding, implementation: String, gbps| {
        rows.push(Row {
            size,
            input: class,
            operation,
            encoding,
            implementation,
            gbps,
        })
    };
    let c = "corrected-utf8";
    let u = "utf-8";

    // Validate.
    if settings.wants("validate") {
        for imp in InstructionSet::available() {
            let gbps = measure(settings, &texts, corrected_bytes, |t| {
                black_box(fast::validate_with(imp, black_box(&t.corrected))).ok();
            });
            row("validate", c, fast_name(imp), gbps);
        }
        let gbps = measure(settings, &texts, corrected_bytes, |t| {
            black_box(corrected::validate(black_box(&t.corrected))).ok();
        });
        row("validate", c, "reference".into(), gbps);
        let gbps = measure(settings, &texts, utf8_bytes, |t| {
            black_box(std::str::from_utf8(black_box(&t.utf8))).ok();
        });
        row("validate", u, "std".into(), gbps);
        let gbps = measure(settings, &texts, utf8_bytes, |t| {
            black_box(simdutf8::basic::from_utf8(black_box(&t.utf8))).ok();
        });
        row("validate", u, "simdutf8".into(), gbps);
    }
    if class == "random" {
        return; // Nothing to decode or encode: it fails at the first bytes.
    }

    // Decode to UTF-32, into a buffer allocated once.
    let mut out = vec![0u32; size];
    if settings.wants("decode") {
        for imp in InstructionSet::available() {
            let gbps = measure(settings, &texts, corrected_bytes, |t| {
                black_box(fast::decode_to_utf32_with(
                    imp,
                    black_box(&t.corrected),
                    &mut out,
                ))
                .ok();
            });
            row("decode", c, fast_name(imp), gbps);
        }
        let gbps = measure(settings, &texts, corrected_bytes, |t| {
            black_box(corrected::decode(black_box(&t.corrected))).ok();
        });
        row("decode", c, "reference".into(), gbps);
        let gbps = measure(settings, &texts, utf8_bytes, |t| {
            black_box(texts::decode_utf8_std(black_box(&t.utf8), &mut out));
        });
        row("decode", u, "std-chars".into(), gbps);
    }
    if !settings.wants("encode") {
        return;
    }

    // Encode from UTF-32, into a buffer allocated once.
    let mut bytes = Vec::with_capacity(size + 64);
    for imp in InstructionSet::available() {
        let gbps = measure(settings, &texts, corrected_bytes, |t| {
            bytes.clear();
            black_box(fast::encode_from_utf32_with(
                imp,
                black_box(&t.codepoints),
                &mut bytes,
            ))
            .ok();
        });
        row("encode", c, fast_name(imp), gbps);
    }
    let gbps = measure(settings, &texts, corrected_bytes, |t| {
        black_box(corrected::encode(black_box(t.codepoints.iter().copied()))).ok();
    });
    row("encode", c, "reference".into(), gbps);
    let mut string = String::with_capacity(size + 64);
    let gbps = measure(settings, &texts, utf8_bytes, |t| {
        string.clear();
        texts::encode_utf8_loop(black_box(&t.utf8_codepoints), &mut string);
        black_box(&string);
    });
    row("encode", u, "encode_utf8-loop".into(), gbps);
}

fn find(
    rows: &[Row],
    size: usize,
    input: &str,
    operation: &str,
    implementation: &str,
) -> Option<f64> {
    rows.iter()
        .find(|r| {
            r.size == size
                && r.input == input
                && r.operation == operation
                && r.implementation == implementation
        })
        .map(|r| r.gbps)
}

fn size_name(size: usize) -> String {
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

/// The Markdown table: per size and class, GB/s and the ratios of the goals.
fn print_table(rows: &[Row], sizes: &[usize]) {
    let best = fast_name(InstructionSet::detect());
    println!("Fast path: `{best}` (detected). GB/s of text; ratios are ours ÷ baseline.\n");
    for &size in sizes {
        println!("#### {}\n", size_name(size));
        println!("| input | validate fast | simdutf8 (UTF-8) | ratio | std (UTF-8) | reference | decode fast | std chars() | reference | encode fast | encode_utf8 loop | ratio | reference |");
        println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        for class in CLASSES {
            let g = |op, imp: &str| find(rows, size, class, op, imp);
            let (vf, vs) = (g("validate", &best), g("validate", "simdutf8"));
            let (ef, el) = (g("encode", &best), g("encode", "encode_utf8-loop"));
            println!(
                "| {class} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(vf),
                cell(vs),
                ratio(vf, vs),
                cell(g("validate", "std")),
                cell(g("validate", "reference")),
                cell(g("decode", &best)),
                cell(g("decode", "std-chars")),
                cell(g("decode", "reference")),
                cell(ef),
                cell(el),
                ratio(ef, el),
                cell(g("encode", "reference")),
            );
        }
        println!();
        let mut imps: Vec<String> = InstructionSet::available().map(fast_name).collect();
        imps.dedup();
        println!("| input | operation | {} |", imps.join(" | "));
        println!("|---|---|{}", "--:|".repeat(imps.len()));
        for class in CLASSES {
            for op in ["validate", "decode", "encode"] {
                if find(rows, size, class, op, "reference").is_none() {
                    continue;
                }
                let cells: Vec<String> = imps
                    .iter()
                    .map(|i| cell(find(rows, size, class, op, i)))
                    .collect();
                println!("| {class} | {op} | {} |", cells.join(" | "));
            }
        }
        println!();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let quick = args.iter().any(|a| a == "--quick");
    let sizes: Vec<usize> = match args
        .iter()
        .position(|a| a == "--size")
        .and_then(|i| args.get(i + 1))
    {
        Some(s) if s == "1m" => vec![1 << 20],
        Some(s) if s == "64k" => vec![64 << 10],
        Some(s) => {
            eprintln!("--size takes 1m or 64k, not {s}");
            std::process::exit(2);
        }
        None => vec![1 << 20, 64 << 10],
    };
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let settings = if quick {
        Settings {
            repetitions: 2,
            min_time: Duration::from_millis(10),
            only,
        }
    } else {
        // Many short repetitions: on a shared machine the best of them is the one
        // least disturbed by other work.
        Settings {
            repetitions: 15,
            min_time: Duration::from_millis(20),
            only,
        }
    };
    let mut rows = Vec::new();
    for &size in &sizes {
        for class in CLASSES {
            let first = rows.len();
            run_class(&settings, size, class, &mut rows);
            if json {
                for r in &rows[first..] {
                    println!(
                        "{{\"input\":\"{}\",\"size\":{},\"operation\":\"{}\",\"encoding\":\"{}\",\"implementation\":\"{}\",\"gbps\":{:.3}}}",
                        r.input, r.size, r.operation, r.encoding, r.implementation, r.gbps
                    );
                }
            }
        }
    }
    if !json {
        print_table(&rows, &sizes);
    }
}
