#!/usr/bin/env bash
# The fuzzing part of CI (.ci/run): check what needs no build (every teeth.sh mutation
# still applies, the coverage table lists the files of codec/src, docs/oss-fuzz.md shows
# the files it submits), build every libFuzzer target (nightly, AddressSanitizer) and
# every AFL target, run each libFuzzer target briefly from its corpus (at its max_len),
# replay the corpus through the AFL binaries, and build the fuzzers with ClusterFuzzLite's
# and OSS-Fuzz's build.sh outside Docker.
#
#   fuzz/ci.sh
#
# Environment: CI_FUZZ_SECONDS (smoke per target, default 20), FUZZ_TOOLCHAIN.
# Installs nightly, cargo-fuzz and cargo-afl if missing. Fails on any crash.
set -euo pipefail
source "$(dirname "$0")/common.sh"
seconds=${CI_FUZZ_SECONDS:-20}
step() { printf '\n---- fuzz: %s (%ss)\n' "$*" "$SECONDS"; }

step "checks without a build: teeth.sh rows, the coverage table's files, docs/oss-fuzz.md"
"$root/fuzz/teeth.sh" --check
"$root/fuzz/coverage.sh" --check-files
# docs/oss-fuzz.md shows each file of fuzz/oss-fuzz/ verbatim, after a heading naming it.
for f in "$root"/fuzz/oss-fuzz/*; do
    name=fuzz/oss-fuzz/$(basename "$f")
    shown=$(awk -v h="### \`$name\`" '$0 == h { on = 1; next } on && /^```/ { if (inside) exit; inside = 1; next } inside' \
        "$root/docs/oss-fuzz.md")
    [[ "$shown" == "$(cat "$f")" ]] ||
        { echo "docs/oss-fuzz.md does not show $name as it is (a \"### \`$name\`\" heading, then the file in a fenced block)" >&2; exit 1; }
done
for t in $(targets); do target_max_len "$t" >/dev/null; done

step "tools"
ensure_cargo_fuzz
if ! cargo afl --version >/dev/null 2>&1; then
    cargo install cargo-afl --locked
fi
# AFL++ itself is built once per rustc; nothing to do when it is there.
cargo afl config --build >/dev/null 2>&1 || true

step "build every libFuzzer target (ASan)"
fuzz build -O --debug-assertions

step "smoke: ${seconds}s per target from corpus/, with the dictionary and its max_len, $(nproc) at a time; then its corpus/regressions files"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mapfile -t list < <(targets)
smoke() { # smoke <target>: writes its log and exit status under $work
    local t=$1 rc=0
    mkdir -p "$work/new/$t" "$work/artifacts/$t" "$root/corpus/$t"
    # New inputs go to a scratch directory; corpus/ is only read.
    "$root/fuzz/target/x86_64-unknown-linux-gnu/release/$t" "$work/new/$t" "$root/corpus/$t" \
        -max_total_time="$seconds" -dict="$root/fuzz/fuzz.dict" -max_len="$(target_max_len "$t")" \
        -artifact_prefix="$work/artifacts/$t/" >"$work/$t.log" 2>&1 || rc=$?
    # Its regressions too, under ASan (cargo test replays them without it).
    if ((rc == 0)) && compgen -G "$root/corpus/regressions/$t-*" >/dev/null; then
        "$root/fuzz/target/x86_64-unknown-linux-gnu/release/$t" -runs=0 \
            "$root/corpus/regressions/$t"-* >>"$work/$t.log" 2>&1 || rc=$?
    fi
    echo "$rc" >"$work/$t.rc"
}
running=0
for t in "${list[@]}"; do
    smoke "$t" &
    running=$((running + 1))
    if ((running >= $(nproc))); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait
failed=()
for t in "${list[@]}"; do
    [[ "$(cat "$work/$t.rc")" == 0 ]] || failed+=("$t")
    grep -E '^#[0-9]+' "$work/$t.log" | tail -1 | sed "s/^/$t: /"
done
for t in "${failed[@]}"; do
    tail -40 "$work/$t.log"
    echo "fuzz target $t failed; reproduce: cargo +$FUZZ_TOOLCHAIN fuzz run $t $work/artifacts/$t/<crash file>" >&2
done
((${#failed[@]} == 0)) || exit 1

step "build every AFL target"
(cd "$root/fuzz/afl" && cargo afl build --release --quiet)

step "replay corpus/ through the AFL binaries"
for bin in "$root"/fuzz/afl/src/bin/*.rs; do
    t=$(basename "$bin" .rs)
    n=0
    for f in "$root/corpus/$t"/*; do
        [[ -f "$f" ]] || continue
        "$root/fuzz/afl/target/release/$t" <"$f" >/dev/null 2>&1 ||
            { echo "AFL target $t fails on $f" >&2; exit 1; }
        n=$((n + 1))
    done
    echo "$t: $n files"
done

# Each build leaves, per target, the binary, its seed corpus, dictionary and options.
check_out() { # check_out <dir>
    local t
    for t in $(targets); do
        for f in "$t" "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
            [[ -s "$1/$f" ]] || { echo "$1/$f is missing" >&2; exit 1; }
        done
    done
    echo "$1: $(find "$1" -maxdepth 1 -type f | wc -l) files, every target's binary, seed corpus, dictionary and options"
}

step "ClusterFuzzLite build.sh outside Docker"
SRC=$(dirname "$root") OUT="$work/cflite-out" "$root/.clusterfuzzlite/build.sh" >"$work/cflite.log" 2>&1 ||
    { cat "$work/cflite.log"; exit 1; }
check_out "$work/cflite-out"

step "OSS-Fuzz build.sh (docs/oss-fuzz.md) outside Docker"
SRC=$(dirname "$root") OUT="$work/oss-fuzz-out" "$root/fuzz/oss-fuzz/build.sh" >"$work/oss-fuzz.log" 2>&1 ||
    { cat "$work/oss-fuzz.log"; exit 1; }
check_out "$work/oss-fuzz-out"

step "done"
