#!/usr/bin/env bash
# The throughput table of conformance/adapters/README.md: round-trip cases per second of
# each adapter, one case per line (--batch-size 1) and in batches (the default, 512),
# over the Corrected UTF-8 and UTF-8 vectors (2606 small cases; the UTF-∞-8 file's two
# 64 KiB codes would measure the decoders, not the protocol). Each figure is a hidden
# `conformance run --bench SECS`: the cases again and again for SECS seconds through the
# runner's own code (requests, batches, answers read and judged), after a first pass that
# starts the adapter. Also prints the CPU time per case of the batch run (runner and
# adapter together), which depends less on what else the machine is doing.
#
#   conformance/scripts/throughput.sh [SECS]      (default 4; needs python3 and node)
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-4}
cargo build --release -p conformance --quiet
bin=target/release/conformance
vectors=(--encoding corrected-utf8 --encoding utf-8)

rate() { # NAME=COMMAND BATCH-SIZE: cases/s
  "$bin" run "${vectors[@]}" --adapter "$1" --bench "$secs" --batch-size "$2" |
    sed -n 's/^[^:]*: \([0-9]*\) cases\/s.*/\1/p'
}

cpu_per_case() { # NAME=COMMAND: microseconds of CPU per case, batches
  local out cases report
  report=$(mktemp)
  out=$( { /usr/bin/time -f '%U %S' "$bin" run "${vectors[@]}" --adapter "$1" --bench "$secs" \
    >"$report" ; } 2>&1 | tail -1)
  cases=$(sed -n 's/.*(\([0-9]*\) cases in.*/\1/p' "$report")
  rm -f "$report"
  # The first pass (2606 cases) is in the CPU time too.
  awk -v t="$out" -v n="$cases" 'BEGIN { split(t, a, " "); printf "%.1f", (a[1] + a[2]) * 1e6 / (n + 2606) }'
}

printf '| adapter | one case per line (cases/s) | batches (cases/s) | CPU per case, batches (µs) |\n'
printf '|---|---:|---:|---:|\n'
for adapter in \
  "serve=$bin serve" \
  "corrected-py=python3 conformance/adapters/corrected_utf8.py" \
  "python-codec=python3 conformance/adapters/python_codec.py" \
  "node=node conformance/adapters/node_textdecoder.js"; do
  # shellcheck disable=SC2016 # the backquotes are Markdown's
  printf '| `%s` | %s | %s | %s |\n' "${adapter#*=}" "$(rate "$adapter" 1)" \
    "$(rate "$adapter" 512)" "$(cpu_per_case "$adapter")"
done
printf '\n(%s; %s cores; load average %s)\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
  "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
