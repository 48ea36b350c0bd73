#!/usr/bin/env bash
# The flake hunt: runs tests many times with every core busy and counts each test's
# failures, so that a test that is red one run in twenty shows up here and not on a
# fresh clone.
#
#   scripts/flake-hunt.sh N         # the tests that wait on another process, a clock or
#                                   # a signal (the selection below), N rounds
#   scripts/flake-hunt.sh --all N   # the whole suite (cargo test --workspace), N rounds
#   scripts/flake-hunt.sh --quick N # the tests that wait for a child's end, a signal or a
#                                   # flush (CI's selection: a round takes seconds, where
#                                   # the full selection's fuzzing takes minutes)
#
# The test binaries are built first, without the load. Then 2 x nproc CPU burners start
# (FLAKE_HUNT_BURNERS overrides the number; 0: none), every round runs under them, and
# they stop when this script ends, whatever ends it (a trap on exit; each burner also
# stops by itself when this script's process is gone, so not even a SIGKILL leaves one
# behind). Prints each test's failure count, most failures first, and the tests that
# failed with their last output under target/flake-hunt/. Exit 0: no failure in any
# round; 1: a test failed (or a test binary did not finish); 2: usage.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/flake-hunt.sh [--all | --quick] N   (N rounds, N >= 1)" >&2
  exit 2
}
all=0
quick=0
case "${1:-}" in
  --all) all=1; shift ;;
  --quick) quick=1; shift ;;
esac
[ $# -eq 1 ] || usage
rounds=$1
case $rounds in '' | *[!0-9]* | 0) usage ;; esac

# The process- and time-sensitive tests: a cargo package, its test target, and libtest
# filters (module paths; `cargo test -p conformance --test it -- --list` lists them).
# Every test that starts an adapter or a child it must end, waits on a timeout, a
# deadline, the flush hint, `fuzz --seconds`, a FIFO or a signal, or bounds a child's
# time. Left out: the memory ceilings (conformance's `run::limits` and the two tests
# skipped below, cutf8's `limits` and `memory`), which are bounds under setrlimit or on a
# child's peak memory, not races, and take minutes each under load; `cargo test
# --workspace` and the nightly `--all` run them.
selection=(
  "conformance it run::processes run::batch run::gate run::verdicts run::inputs report::output streams:: adapter_check every_tool exhaustive::a_checkpoint exhaustive::checkpoint --skip every_tool::exhaustive_and_fuzz_with_every_answer_wrong_stay_under_256_mib --skip run::gate::splits_and_ascii_prefixes_count_only_applicable_cases_against_require"
  "cutf8 it streams::"
  "corrected-utf8 it utf_inf8::hostile_lengths_stay_cheap"
)
if [ "$quick" = 1 ]; then
  # The races this suite has had: a grandchild not yet started when the run ended, a
  # crash's last stderr lines, a signal's end, a closed or full stream, the flush hint.
  selection=(
    "conformance it run::processes streams:: report::output every_tool::fuzz_judges_a_case_still_waiting_when_time_runs_out adapter_check::fuzz::fuzz_seconds_bound_the_whole_command"
    "cutf8 it streams::"
  )
fi
if [ "$all" = 1 ]; then
  # Every package of the workspace, every target: `cargo test --workspace`, a package
  # at a time so that each test is counted under its package.
  mapfile -t selection < <(cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys; print(*(p["name"] for p in json.load(sys.stdin)["packages"]), sep="\n")')
fi

# A line of `selection` as `cargo test`'s arguments (`args`), libtest's filters
# (`filters`, `--skip NAME` included) and the name its tests are counted under (`key`:
# PACKAGE or PACKAGE/TARGET).
parse() {
  local w
  read -r -a w <<<"$1"
  args=(-p "${w[0]}")
  key=${w[0]}
  if [ ${#w[@]} -ge 2 ]; then
    args+=(--test "${w[1]}")
    key=${w[0]}/${w[1]}
  fi
  filters=("${w[@]:2}")
}

echo "flake-hunt: building the tests" >&2
for line in "${selection[@]}"; do
  parse "$line"
  cargo test --quiet "${args[@]}" --no-run
done

out=target/flake-hunt
rm -rf "$out"
mkdir -p "$out"

burners=${FLAKE_HUNT_BURNERS:-$((2 * $(nproc)))}
case $burners in '' | *[!0-9]*) usage ;; esac
pids=()
stop_burners() {
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  pids=()
}
trap stop_burners EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
hunter=$$
for _ in $(seq "$burners"); do
  # A busy loop that checks, each turn, that this script is still there.
  (while kill -0 "$hunter" 2>/dev/null; do :; done) &
  pids+=($!)
done
echo "flake-hunt: $rounds round(s) under $burners CPU burner(s) on $(nproc) core(s); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

declare -A failures=()
declare -A runs=()
broken=0
start=$SECONDS
for round in $(seq "$rounds"); do
  for line in "${selection[@]}"; do
    parse "$line"
    log="$out/round-$round-${key//\//-}.log"
    # A round of a line that has not finished in 30 minutes hangs (every test has a
    # watchdog far below that).
    if ! timeout --kill-after=10 1800 cargo test "${args[@]}" --no-fail-fast \
      -- "${filters[@]}" >"$log" 2>&1; then
      # A test failed (counted below), or a binary did not finish.
      if ! grep -q '^test result: FAILED' "$log"; then
        broken=$((broken + 1))
        echo "flake-hunt: round $round, $key: a test binary did not finish; see $log" >&2
      fi
    fi
    while IFS=$'\t' read -r status name; do
      name="$key: $name"
      runs[$name]=$((${runs[$name]:-0} + 1))
      if [ "$status" = FAILED ]; then
        failures[$name]=$((${failures[$name]:-0} + 1))
        cp "$log" "$out/failed-round-$round-${key//\//-}.log"
      fi
    done < <(sed -n 's/^test \(.*\) \.\.\. \(ok\|FAILED\)$/\2\t\1/p' "$log")
  done
  failed=0
  for name in "${!failures[@]}"; do failed=$((failed + failures[$name])); done
  echo "flake-hunt: round $round of $rounds done at $((SECONDS - start)) s; failures so far: $failed; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
stop_burners

echo
echo "failures per test over $rounds round(s) under $burners CPU burner(s) on $(nproc) core(s):"
for name in "${!runs[@]}"; do
  f=${failures[$name]:-0}
  printf '%d\t%d/%d\t%s\n' "$f" "$f" "${runs[$name]}" "$name"
done | sort -t"$(printf '\t')" -k1,1nr -k3,3 | cut -f2-
total=0
for name in "${!failures[@]}"; do total=$((total + failures[$name])); done
echo "tests: ${#runs[@]}; failures: $total; test binaries that did not finish: $broken; $((SECONDS - start)) s"
[ "$total" -eq 0 ] && [ "$broken" -eq 0 ]
