#!/usr/bin/env bash
# Nightly fuzzing: every libFuzzer target in turn, on every core, then the new inputs
# merged and minimized into corpus/, and a summary.
#
#   fuzz/nightly.sh [target...]
#
# Environment (all optional):
#   FUZZ_SECONDS    seconds per target (default 600)
#   FUZZ_JOBS       parallel fuzzing processes (-fork; default: nproc)
#   FUZZ_SANITIZER  address (default), none, memory, ...
#   FUZZ_MAX_LEN    largest input libFuzzer makes, for every target (default: each
#                   target's own, fuzz/options/<target>.options)
#   FUZZ_OUT        where logs, crashes and the summary go (default fuzz/nightly-out)
#   FUZZ_TOOLCHAIN  the nightly toolchain to use (default nightly)
#   FUZZ_NO_MERGE=1 leave corpus/ untouched
#
# Writes $FUZZ_OUT/summary.md and summary.json (execs, exec/s, coverage and features at
# the start and the end, corpus size before and after the merge, crashes with a
# reproduction command per target). Exits 1 if any target crashed.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-$(nproc)}
sanitizer=${FUZZ_SANITIZER:-address}
out=${FUZZ_OUT:-$root/fuzz/nightly-out}
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi

ensure_cargo_fuzz
started=$(date -u +%Y-%m-%dT%H:%MZ)
rm -rf "$out"
mkdir -p "$out/logs"
fuzz build -s "$sanitizer"

json_rows=()
md_rows=()
crashed=0
for t in "${list[@]}"; do
    corpus="$root/corpus/$t"
    new="$out/new/$t"
    artifacts="$out/artifacts/$t"
    log="$out/logs/$t.log"
    mkdir -p "$corpus" "$new" "$artifacts"
    before=$(find "$corpus" -type f | wc -l)
    max_len=${FUZZ_MAX_LEN:-$(target_max_len "$t")}
    echo "== $t: ${seconds}s on $jobs job(s), $before corpus files, max_len $max_len"

    # New inputs go to $new (the first directory); corpus/ is only read. Crashes do
    # not stop the run (-ignore_crashes): each is saved under $artifacts.
    fuzz run -s "$sanitizer" "$t" "$new" "$corpus" -- \
        -fork="$jobs" -ignore_crashes=1 -max_total_time="$seconds" \
        -artifact_prefix="$artifacts/" -dict="$root/fuzz/fuzz.dict" -max_len="$max_len" \
        >"$log" 2>&1 || true

    # The status lines of -fork: "#EXECS: cov: C ft: F corp: N exec/s E oom/timeout/crash:
    # ... time: Ts ..."; the first is the committed corpus, the last the end.
    first=$(grep -m1 -E '^#[0-9]+: cov: ' "$log" || true)
    cov0=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$first")
    ft0=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$first")
    status=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1 || true)
    execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$status")
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$status")
    rate=$(sed -nE 's/.* exec\/s:? ([0-9]+).*/\1/p' <<<"$status")
    elapsed=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$status")

    if [[ -z "${FUZZ_NO_MERGE:-}" ]] && compgen -G "$new/*" >/dev/null; then
        cp "$new"/* "$corpus"/
        fuzz cmin -s "$sanitizer" "$t" "$corpus" >>"$log" 2>&1
    fi
    after=$(find "$corpus" -type f | wc -l)

    crashes=()
    while IFS= read -r -d '' f; do crashes+=("$f"); done \
        < <(find "$artifacts" -type f -print0 | sort -z)
    crash_json=()
    crash_md=""
    for f in "${crashes[@]}"; do
        crashed=1
        repro="cargo +$FUZZ_TOOLCHAIN fuzz run $t $f"
        crash_json+=("{\"file\": \"$f\", \"reproduce\": \"$repro\"}")
        crash_md+="<br>\`$repro\`"
    done
    joined=$(IFS=,; echo "${crash_json[*]:-}")
    json_rows+=("{\"target\": \"$t\", \"max_len\": $max_len, \"seconds\": ${elapsed:-0}, \"execs\": ${execs:-0}, \"exec_per_sec\": ${rate:-0}, \"cov_start\": ${cov0:-0}, \"cov\": ${cov:-0}, \"ft_start\": ${ft0:-0}, \"ft\": ${ft:-0}, \"corpus_before\": $before, \"corpus_after\": $after, \"crashes\": [${joined}]}")
    md_rows+=("| $t | $max_len | ${elapsed:-?} | ${execs:-?} | ${rate:-?} | ${cov0:-?} → ${cov:-?} | ${ft0:-?} → ${ft:-?} | $before → $after | ${#crashes[@]}${crash_md} |")
    echo "   execs ${execs:-?}, exec/s ${rate:-?}, cov ${cov0:-?} → ${cov:-?}, ft ${ft0:-?} → ${ft:-?}, corpus $before → $after, crashes ${#crashes[@]}"
done

{
    echo "# Nightly fuzzing, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), ${seconds}s per target, $jobs job(s), sanitizer $sanitizer, $(nproc) core(s); started $started, took ${SECONDS}s in all (build and merges included); load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
    echo
    echo "| target | max_len | s | execs | exec/s | cov | ft | corpus files | crashes |"
    echo "|---|---:|---:|---:|---:|---|---|---|---|"
    printf '%s\n' "${md_rows[@]}"
    echo
    echo "A crash becomes a regression: copy it to corpus/regressions/<target>-<what-it-shows>"
    echo "and add a line to \`regressions!\` in conformance/checks/tests/corpus_replay.rs."
} >"$out/summary.md"
{
    echo "{\"commit\": \"$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)\", \"started\": \"$started\", \"total_seconds\": $SECONDS, \"seconds_per_target\": $seconds, \"jobs\": $jobs, \"sanitizer\": \"$sanitizer\", \"targets\": ["
    (IFS=$'\n'; echo "${json_rows[*]}" | sed '$!s/$/,/')
    echo "]}"
} >"$out/summary.json"
cat "$out/summary.md"
exit "$crashed"
