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
#   FUZZ_MAX_LEN    largest input libFuzzer makes (default: libFuzzer's own, 4096)
#   FUZZ_OUT        where logs, crashes and the summary go (default fuzz/nightly-out)
#   FUZZ_TOOLCHAIN  the nightly toolchain to use (default nightly)
#   FUZZ_NO_MERGE=1 leave corpus/ untouched
#
# Writes $FUZZ_OUT/summary.md and summary.json (execs, exec/s, coverage, corpus size,
# crashes with a reproduction command per target). Exits 1 if any target crashed.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-$(nproc)}
sanitizer=${FUZZ_SANITIZER:-address}
out=${FUZZ_OUT:-$root/fuzz/nightly-out}
max_len=()
[[ -n "${FUZZ_MAX_LEN:-}" ]] && max_len=(-max_len="$FUZZ_MAX_LEN")
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi

ensure_cargo_fuzz
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
    echo "== $t: ${seconds}s on $jobs job(s), $before corpus files"

    # New inputs go to $new (the first directory); corpus/ is only read. Crashes do
    # not stop the run (-ignore_crashes): each is saved under $artifacts.
    fuzz run -s "$sanitizer" "$t" "$new" "$corpus" -- \
        -fork="$jobs" -ignore_crashes=1 -max_total_time="$seconds" \
        -artifact_prefix="$artifacts/" -dict="$root/fuzz/fuzz.dict" "${max_len[@]}" \
        >"$log" 2>&1 || true

    # The last status line: "#EXECS: cov: C ft: F corp: N exec/s E oom/timeout/crash: ..."
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
    json_rows+=("{\"target\": \"$t\", \"seconds\": ${elapsed:-0}, \"execs\": ${execs:-0}, \"exec_per_sec\": ${rate:-0}, \"cov\": ${cov:-0}, \"ft\": ${ft:-0}, \"corpus_before\": $before, \"corpus_after\": $after, \"crashes\": [${joined}]}")
    md_rows+=("| $t | ${elapsed:-?} | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | $before → $after | ${#crashes[@]}${crash_md} |")
    echo "   execs ${execs:-?}, exec/s ${rate:-?}, cov ${cov:-?}, ft ${ft:-?}, corpus $before → $after, crashes ${#crashes[@]}"
done

{
    echo "# Nightly fuzzing, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), ${seconds}s per target, $jobs job(s), sanitizer $sanitizer, $(nproc) core(s)"
    echo
    echo "| target | s | execs | exec/s | cov | ft | corpus | crashes |"
    echo "|---|---:|---:|---:|---:|---:|---|---|"
    printf '%s\n' "${md_rows[@]}"
    echo
    echo "A crash becomes a regression: copy it to corpus/regressions/<target>-<what-it-shows>"
    echo "and add a line to \`regressions!\` in conformance/checks/tests/corpus_replay.rs."
} >"$out/summary.md"
{
    echo "{\"commit\": \"$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)\", \"seconds_per_target\": $seconds, \"jobs\": $jobs, \"sanitizer\": \"$sanitizer\", \"targets\": ["
    (IFS=$'\n'; echo "${json_rows[*]}" | sed '$!s/$/,/')
    echo "]}"
} >"$out/summary.json"
cat "$out/summary.md"
exit "$crashed"
