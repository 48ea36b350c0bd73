//! Criterion benchmarks: validation, decoding to UTF-32 and encoding from it, for the
//! fast paths and the reference codec on Corrected UTF-8, and for `std` and simdutf8 on
//! the UTF-8 text of the same code points (`benches/common/texts.rs`).
//!
//! ```text
//! cargo bench -p corrected-utf8 --bench throughput                 # everything
//! cargo bench -p corrected-utf8 --bench throughput -- validate/cjk # a filter
//! ```
//!
//! Every benchmark turns over 8 different buffers of its class, one per iteration, so
//! that branch predictors cannot learn one input. `examples/throughput.rs` prints the
//! same measurements as one table (or JSON lines) in a fraction of the time.

#[path = "common/texts.rs"]
mod texts;

use corrected_utf8::corrected;
use corrected_utf8::corrected::fast;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;
use texts::{Text, CLASSES};

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
    for (size, size_name) in SIZES {
        for class in CLASSES {
            let texts: Vec<Text> = (0..BUFFERS)
                .map(|seed| texts::make(class, size, seed))
                .collect();
            let corrected_bytes = Throughput::Bytes(texts[0].corrected.len() as u64);
            let utf8_bytes = Throughput::Bytes(texts[0].utf8.len() as u64);
            let id = |name: &str| BenchmarkId::new(name, size_name);

            let mut group = c.benchmark_group(format!("validate/{class}"));
            group.throughput(corrected_bytes.clone());
            let mut next = rotate(&texts);
            group.bench_function(id("fast"), |b| {
                b.iter(|| black_box(fast::validate(black_box(&next().corrected))).is_ok())
            });
            group.bench_function(id("reference"), |b| {
                b.iter(|| black_box(corrected::validate(black_box(&next().corrected))).is_ok())
            });
            group.throughput(utf8_bytes.clone());
            group.bench_function(id("std"), |b| {
                b.iter(|| black_box(std::str::from_utf8(black_box(&next().utf8))).is_ok())
            });
            group.bench_function(id("simdutf8"), |b| {
                b.iter(|| black_box(simdutf8::basic::from_utf8(black_box(&next().utf8))).is_ok())
            });
            group.finish();
            if class == "random" {
                continue; // It fails at the first bytes: nothing to decode or encode.
            }

            let mut group = c.benchmark_group(format!("decode/{class}"));
            let mut out = vec![0u32; size];
            group.throughput(corrected_bytes.clone());
            group.bench_function(id("fast"), |b| {
                b.iter(|| {
                    black_box(fast::decode_to_utf32(
                        black_box(&next().corrected),
                        &mut out,
                    ))
                    .is_ok()
                })
            });
            group.bench_function(id("reference"), |b| {
                b.iter(|| black_box(corrected::decode(black_box(&next().corrected))).is_ok())
            });
            group.throughput(utf8_bytes.clone());
            group.bench_function(id("std-chars"), |b| {
                b.iter(|| black_box(texts::decode_utf8_std(black_box(&next().utf8), &mut out)))
            });
            group.finish();

            let mut group = c.benchmark_group(format!("encode/{class}"));
            let mut bytes = Vec::with_capacity(size + 64);
            group.throughput(corrected_bytes.clone());
            group.bench_function(id("fast"), |b| {
                b.iter(|| {
                    bytes.clear();
                    black_box(fast::encode_from_utf32(
                        black_box(&next().codepoints),
                        &mut bytes,
                    ))
                    .is_ok()
                })
            });
            group.bench_function(id("reference"), |b| {
                b.iter(|| {
                    black_box(corrected::encode(black_box(
                        next().codepoints.iter().copied(),
                    )))
                    .is_ok()
                })
            });
            group.throughput(utf8_bytes.clone());
            let mut string = String::with_capacity(size + 64);
            group.bench_function(id("encode_utf8-loop"), |b| {
                b.iter(|| {
                    string.clear();
                    texts::encode_utf8_loop(black_box(&next().utf8_codepoints), &mut string);
                    black_box(string.len())
                })
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    // Short runs: 100 benchmarks on a shared 2-core machine.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = throughput
}
criterion_main!(benches);
