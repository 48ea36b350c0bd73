#!/usr/bin/env bash
# Measures each libFuzzer target: exec/s with AddressSanitizer and without a sanitizer,
# and the coverage reached, starting from a copy of corpus/<target>/.
#
#   fuzz/measure.sh [target...]
#
# Environment: MEASURE_SECONDS (per run, default 30), MEASURE_MAX_LEN (default 64),
# MEASURE_SANITIZERS (default "address none"), FUZZ_TOOLCHAIN (default nightly).
#
# Prints a markdown table. "exec/s" is libFuzzer's own (wall clock, one process);
# "per CPU-s" divides the executions by the CPU time the process got, which is the
# fairer number on a machine shared with other work. cov/ft are libFuzzer's covered
# edges and features at the end.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${MEASURE_SECONDS:-30}
max_len=${MEASURE_MAX_LEN:-64}
read -r -a sanitizers <<<"${MEASURE_SANITIZERS:-address none}"
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ensure_cargo_fuzz
rows=()
for s in "${sanitizers[@]}"; do
    fuzz build -s "$s" >"$work/build-$s.log" 2>&1 || { cat "$work/build-$s.log" >&2; exit 1; }
    for t in "${list[@]}"; do
        bin="$root/fuzz/target/x86_64-unknown-linux-gnu/release/$t"
        rm -rf "$work/corpus"
        cp -r "$root/corpus/$t" "$work/corpus"
        log="$work/$t-$s.log"
        # CPU time of the fuzzer process (user + system), from bash's `times`.
        cpu=$( (
            "$bin" "$work/corpus" -max_total_time="$seconds" -max_len="$max_len" \
                -seed=1 -print_final_stats=1 >"$log" 2>&1 || true
            times | tail -1 | awk '{ split($1, u, /[ms]/); split($2, y, /[ms]/);
                print u[1] * 60 + u[2] + y[1] * 60 + y[2] }'
        ))
        execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
        rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")
        status=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
        cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status")
        ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$status")
        per_cpu=$(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%d", c > 0 ? e / c : 0 }')
        rows+=("| $t | $s | ${rate:-?} | $per_cpu | ${cov:-?} | ${ft:-?} |")
        echo "$t ($s): ${rate:-?} exec/s, $per_cpu per CPU-s, cov ${cov:-?}, ft ${ft:-?}" >&2
    done
done

echo "| target | sanitizer | exec/s | per CPU-s | cov | ft |"
echo "|---|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "${seconds} s per run, -max_len=$max_len, one process, seed 1, from corpus/; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
