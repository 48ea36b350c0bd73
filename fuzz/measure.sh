#!/usr/bin/env bash
# Measures each libFuzzer target's speed and the coverage it reaches, starting from a
# copy of corpus/<target>/, one process (one core) per run.
#
#   fuzz/measure.sh [target...]
#
# Environment: MEASURE_SECONDS (per run, default 60), MEASURE_CONFIGS (default "asan";
# any of those below), FUZZ_TOOLCHAIN (default nightly). The configurations:
#
#   asan        -s address, trace-compares on: what nightly.sh, CI and ClusterFuzzLite run
#   asan-notc   -s address, --no-trace-compares
#   none        -s none, trace-compares on
#
# Every run uses the target's max_len (fuzz/options/<target>.options), fuzz/fuzz.dict and
# seed 1; ASAN_OPTIONS and the uninstrumented libFuzzer come from fuzz/common.sh.
#
# Prints a markdown table. "exec/s" is libFuzzer's own (executions over wall-clock time,
# the first pass over the corpus included); "per CPU-s" divides the executions by the
# CPU time the process got, the fairer number on a machine shared with other work; the
# load average is the 1-minute one when the run started. cov/ft are libFuzzer's covered
# edges and features at the end (they differ between builds: ASan adds edges).
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${MEASURE_SECONDS:-60}
read -r -a configs <<<"${MEASURE_CONFIGS:-asan}"
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ensure_cargo_fuzz
rows=()
for c in "${configs[@]}"; do
    case "$c" in
    asan) build=(-s address) ;;
    asan-notc) build=(-s address --no-trace-compares) ;;
    none) build=(-s none) ;;
    *) echo "unknown configuration $c" >&2; exit 2 ;;
    esac
    # cargo keeps each configuration's artifacts apart (RUSTFLAGS are in their
    # hashes), so switching back and forth only re-links.
    fuzz build "${build[@]}" >"$work/build-$c.log" 2>&1 || { cat "$work/build-$c.log" >&2; exit 1; }
    for t in "${list[@]}"; do
        bin="$root/fuzz/target/x86_64-unknown-linux-gnu/release/$t"
        max_len=$(target_max_len "$t")
        rm -rf "$work/corpus"
        cp -r "$root/corpus/$t" "$work/corpus"
        log="$work/$t-$c.log"
        load=$(cut -d' ' -f1 /proc/loadavg)
        # CPU time of the fuzzer process (user + system): `times` in the subshell that
        # waited for it (a pipeline or $(...) would start from zero).
        (
            "$bin" "$work/corpus" -max_total_time="$seconds" -max_len="$max_len" \
                -dict="$root/fuzz/fuzz.dict" -seed=1 -print_final_stats=1 >"$log" 2>&1 || true
            times >"$work/times"
        )
        cpu=$(tail -1 "$work/times" | awk '{ split($1, u, /[ms]/); split($2, y, /[ms]/);
            print u[1] * 60 + u[2] + y[1] * 60 + y[2] }')
        execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
        rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
        status=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
        cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status")
        ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$status")
        per_cpu=$(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%d", (c > 0 ? e / c : 0) }')
        rows+=("| $t | $max_len | $c | ${rate:-?} | $per_cpu | ${cov:-?} | ${ft:-?} | $load |")
        echo "$t ($c, max_len $max_len): ${rate:-?} exec/s, $per_cpu per CPU-s, cov ${cov:-?}, ft ${ft:-?}, load $load" >&2
    done
done

echo "| target | max_len | config | exec/s | per CPU-s | cov | ft | load |"
echo "|---|---:|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "${seconds} s per run, one process, seed 1, from corpus/; $(machine), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
