#!/usr/bin/env bash
# Measures each libFuzzer target's speed and the coverage it reaches, in a few build
# configurations, starting from a copy of corpus/<target>/.
#
#   fuzz/measure.sh [target...]
#
# Environment: MEASURE_SECONDS (per run, default 30), MEASURE_CONFIGS (default
# "asan asan-small none"), FUZZ_TOOLCHAIN (default nightly). The configurations:
#
#   asan        -s address, trace-compares on (what nightly.sh and CI run), -max_len=64
#   asan-small  -s address, --no-trace-compares, -max_len=16: small inputs, fastest ASan
#   none        -s none, trace-compares on, -max_len=64
#
# (ASAN_OPTIONS and the uninstrumented libFuzzer come from fuzz/common.sh.)
#
# Prints a markdown table. "exec/s" is libFuzzer's own (wall clock, one process);
# "per CPU-s" divides the executions by the CPU time the process got, the fairer
# number on a machine shared with other work. cov/ft are libFuzzer's covered edges and
# features at the end (they differ between builds: ASan adds edges of its own).
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${MEASURE_SECONDS:-30}
read -r -a configs <<<"${MEASURE_CONFIGS:-asan asan-small none}"
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ensure_cargo_fuzz
rows=()
for c in "${configs[@]}"; do
    case "$c" in
    asan) build=(-s address) max_len=64 ;;
    asan-small) build=(-s address --no-trace-compares) max_len=16 ;;
    none) build=(-s none) max_len=64 ;;
    *) echo "unknown configuration $c" >&2; exit 2 ;;
    esac
    # cargo keeps each configuration's artifacts apart (RUSTFLAGS are in their
    # hashes), so switching back and forth only re-links.
    fuzz build "${build[@]}" >"$work/build-$c.log" 2>&1 || { cat "$work/build-$c.log" >&2; exit 1; }
    for t in "${list[@]}"; do
        bin="$root/fuzz/target/x86_64-unknown-linux-gnu/release/$t"
        rm -rf "$work/corpus"
        cp -r "$root/corpus/$t" "$work/corpus"
        log="$work/$t-$c.log"
        # CPU time of the fuzzer process (user + system): `times` in the subshell that
        # waited for it (a pipeline or $(...) would start from zero).
        (
            "$bin" "$work/corpus" -max_total_time="$seconds" -max_len="$max_len" \
                -seed=1 -print_final_stats=1 >"$log" 2>&1 || true
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
        rows+=("| $t | $c | ${rate:-?} | $per_cpu | ${cov:-?} | ${ft:-?} |")
        echo "$t ($c): ${rate:-?} exec/s, $per_cpu per CPU-s, cov ${cov:-?}, ft ${ft:-?}" >&2
    done
done

echo "| target | config | exec/s | per CPU-s | cov | ft |"
echo "|---|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "${seconds} s per run, one process, seed 1, from corpus/; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
