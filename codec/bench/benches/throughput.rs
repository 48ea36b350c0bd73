//! Criterion benchmarks: validation, decoding to UTF-32 and encoding from it, for the
//! fast paths (forced to each instruction set this CPU runs) and the reference codec on
//! Corrected UTF-8, and for simdutf, simdutf8 and `std` on the UTF-8 text of the same
//! code points (`src/texts.rs`).
//!
//! ```text
//! cargo bench --manifest-path codec/bench/Cargo.toml --bench throughput                 # everything
//! cargo bench --manifest-path codec/bench/Cargo.toml --bench throughput -- validate/cjk # a filter
//! ```
//!
//! Benchmark names carry the instruction set: `fast-avx2`, `simdutf-haswell`,
//! `simdutf8-avx2`, `std`, `reference`; the first lines printed say which one our
//! dispatch detects. Every benchmark turns over 8 different buffers of its class, one
//! per iteration, so that the branch predictor cannot learn one input (at 64 KiB it can
//! learn all 8 for a kernel with few branches per byte: see codec/PERFORMANCE.md). The
//! `throughput` example prints the same measurements as tables (or JSON lines), one
//! side-by-side run per instruction set, in a fraction of the time.

use corrected_utf8::corrected;
use corrected_utf8::corrected::fast::{self, InstructionSet};
use corrected_utf8_bench::texts::{self, Text, CLASSES};
use corrected_utf8_bench::yardstick as y;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

const BUFFERS: u64 = 8;
const SIZES: [(usize, &str); 2] = [(1 << 20, "1MiB"), (64 << 10, "64KiB")];

/// Runs `f` on the next of `inputs` at each iteration.
fn rotate<'a, T>(inputs: &'a [T]) -> impl FnMut() -> &'a T {
    let mut next = 0;
    move || {
        let input = &inputs[next];
        next = (next + 1) % inputs.len();
        input
    }
}

fn throughput(c: &mut Criterion) {
    // Before the first simdutf call, so that its label is what runs.
    let simdutf = format!("simdutf-{}", y::pin_simdutf());
    let simdutf8 = format!("simdutf8-{}", y::simdutf8_pick());
    let isas: Vec<InstructionSet> = InstructionSet::available().collect();
    eprintln!(
        "fast paths: {} available, {} detected; {simdutf}; {simdutf8}",
        isas.iter().map(|i| i.name()).collect::<Vec<_>>().join(", "),
        InstructionSet::detect().name()
    );
    let fast_id = |isa: InstructionSet| format!("fast-{}", isa.name());
    for (size, size_name) in SIZES {
        for class in CLASSES {
            let texts: Vec<Text> = (0..BUFFERS)
                .map(|seed| texts::make(class, size, seed))
                .collect();
            let corrected_bytes = Throughput::Bytes(texts[0].corrected.len() as u64);
            let utf8_bytes = Throughput::Bytes(texts[0].utf8.len() as u64);
            let id = |name: &str| BenchmarkId::new(name, size_name);
            let mut next = rotate(&texts);

            let mut group = c.benchmark_group(format!("validate/{class}"));
            group.throughput(corrected_bytes.clone());
            for &isa in &isas {
                group.bench_function(id(&fast_id(isa)), |b| {
                    b.iter(|| {
                        black_box(fast::validate_with(isa, black_box(&next().corrected))).is_ok()
                    })
                });
            }
            group.bench_function(id("reference"), |b| {
                b.iter(|| black_box(corrected::validate(black_box(&next().corrected))).is_ok())
            });
            group.throughput(utf8_bytes.clone());
            group.bench_function(id(&simdutf), |b| {
                b.iter(|| black_box(y::simdutf_validate(black_box(&next().utf8))))
            });
            group.bench_function(id(&simdutf8), |b| {
                b.iter(|| black_box(simdutf8::basic::from_utf8(black_box(&next().utf8))).is_ok())
            });
            group.bench_function(id("std"), |b| {
                b.iter(|| black_box(std::str::from_utf8(black_box(&next().utf8))).is_ok())
            });
            group.finish();
            if class == "random" {
                continue; // It fails at the first bytes: nothing to decode or encode.
            }

            let mut group = c.benchmark_group(format!("decode/{class}"));
            let longest = texts.iter().map(|t| t.utf8.len()).max().unwrap_or(0);
            let mut out = vec![0u32; size.max(longest)];
            group.throughput(corrected_bytes.clone());
            for &isa in &isas {
                group.bench_function(id(&fast_id(isa)), |b| {
                    b.iter(|| {
                        black_box(fast::decode_to_utf32_with(
                            isa,
                            black_box(&next().corrected),
                            &mut out,
                        ))
                        .is_ok()
                    })
                });
            }
            group.bench_function(id("reference"), |b| {
                b.iter(|| black_box(corrected::decode(black_box(&next().corrected))).is_ok())
            });
            group.throughput(utf8_bytes.clone());
            group.bench_function(id(&simdutf), |b| {
                b.iter(|| black_box(y::simdutf_decode(black_box(&next().utf8), &mut out)))
            });
            group.bench_function(id("std"), |b| {
                b.iter(|| black_box(y::std_decode(black_box(&next().utf8), &mut out)))
            });
            group.finish();

            let mut group = c.benchmark_group(format!("encode/{class}"));
            let mut bytes = Vec::with_capacity(4 * size);
            group.throughput(corrected_bytes.clone());
            for &isa in &isas {
                group.bench_function(id(&fast_id(isa)), |b| {
                    b.iter(|| {
                        bytes.clear();
                        black_box(fast::encode_from_utf32_with(
                            isa,
                            black_box(&next().codepoints),
                            &mut bytes,
                        ))
                        .is_ok()
                    })
                });
            }
            group.bench_function(id("reference"), |b| {
                b.iter(|| {
                    black_box(corrected::encode(black_box(
                        next().codepoints.iter().copied(),
                    )))
                    .is_ok()
                })
            });
            group.throughput(utf8_bytes.clone());
            group.bench_function(id(&simdutf), |b| {
                b.iter(|| {
                    bytes.clear();
                    black_box(y::simdutf_encode(
                        black_box(&next().utf8_codepoints),
                        &mut bytes,
                    ))
                })
            });
            let mut string = String::with_capacity(4 * size);
            group.bench_function(id("std"), |b| {
                b.iter(|| {
                    string.clear();
                    y::std_encode(black_box(&next().utf8_codepoints), &mut string);
                    black_box(string.len())
                })
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    // Short runs: some 200 benchmarks on a shared 2-core machine.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = throughput
}
criterion_main!(benches);
