#!/usr/bin/env bash
# Source coverage of the codec reached by each target's committed corpus: builds each
# target with -Cinstrument-coverage (`cargo fuzz coverage`), replays corpus/<target>/,
# and reports the lines, regions and functions of every file of codec/src covered, all
# targets together and per target.
#
#   fuzz/coverage.sh                 every target; writes fuzz/coverage/summary.md (the
#                                    table) and uncovered.md (every line not reached,
#                                    with its reason from fuzz/coverage/reasons.txt)
#   fuzz/coverage.sh target...       only those targets' reports (the table is kept)
#   fuzz/coverage.sh --check-files   no build: fails if summary.md's file list is not
#                                    the files of codec/src (CI runs this)
#
# Needs the nightly llvm-tools (installed if missing) and python3. The per-target
# reports stay in fuzz/coverage/<target>/report.txt (not committed). Exits 1 if an
# uncovered line has no reason.
set -euo pipefail
source "$(dirname "$0")/common.sh"
out="$root/fuzz/coverage"

# The codec's source files, relative to codec/src, at any depth.
codec_files() { (cd "$root/codec/src" && find . -name '*.rs' | sed 's|^\./||' | LC_ALL=C sort); }

if [[ "${1:-}" == --check-files ]]; then
    listed=$(sed -nE 's/^\| ([A-Za-z0-9_/]+\.rs) \|.*/\1/p' "$out/summary.md" | LC_ALL=C sort)
    if ! diff <(echo "$listed") <(codec_files) >/dev/null; then
        echo "fuzz/coverage/summary.md lists other files than codec/src has (< table, > codec/src):" >&2
        diff <(echo "$listed") <(codec_files) >&2 || true
        echo "Regenerate it with fuzz/coverage.sh (and give every new uncovered line a reason in fuzz/coverage/reasons.txt)." >&2
        exit 1
    fi
    echo "fuzz/coverage/summary.md lists the $(codec_files | wc -l) files of codec/src"
    exit 0
fi

all=0
if (($#)); then list=("$@"); else mapfile -t list < <(targets); all=1; fi

ensure_cargo_fuzz
sysroot=$(rustc "+$FUZZ_TOOLCHAIN" --print sysroot)
llvm_bin="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin"
[[ -x "$llvm_bin/llvm-cov" ]] || rustup component add llvm-tools-preview --toolchain "$FUZZ_TOOLCHAIN"

mkdir -p "$out"
mapfile -t sources < <(codec_files | sed "s|^|$root/codec/src/|")
# A target directory of its own (cargo fuzz coverage would use the root one).
tdir="$root/fuzz/target/coverage"
report() { # report <profdata> <binary>...: llvm-cov's per-file table of codec/src
    local profile=$1 first=$2
    shift 2
    "$llvm_bin/llvm-cov" report "$first" "${@/#/-object=}" -instr-profile="$profile" "${sources[@]}"
}

bins=()
profiles=()
for t in "${list[@]}"; do
    fuzz coverage --target-dir "$tdir" "$t" "$root/corpus/$t" >"$out/$t.log" 2>&1 ||
        { cat "$out/$t.log" >&2; exit 1; }
    # The binary cargo fuzz just built, not an older one of the same name that a build
    # script's directory under the same target directory may still hold.
    bin=$(rustc -vV | sed -n 's/^host: //p')
    bin="$tdir/$bin/release/$t"
    [[ -x "$bin" ]] || { echo "coverage.sh: cargo fuzz coverage left no $bin" >&2; exit 1; }
    profile="$out/$t/coverage.profdata"
    bins+=("$bin")
    profiles+=("$profile")
    report "$profile" "$bin" >"$out/$t/report.txt"
    echo "$t: $(awk '$1 != "TOTAL" && $10 ~ /%$/ && $10 != "0.00%" { printf "%s%s %s", sep, $1, $10; sep = ", " }' "$out/$t/report.txt")" >&2
done
((all)) || exit 0

# All targets together: the table, and which codec lines no corpus reaches.
"$llvm_bin/llvm-profdata" merge -sparse "${profiles[@]}" -o "$out/all.profdata"
report "$out/all.profdata" "${bins[@]}" >"$out/all.txt"
others=("${bins[@]:1}")
"$llvm_bin/llvm-cov" show "${bins[0]}" "${others[@]/#/-object=}" -instr-profile="$out/all.profdata" \
    -show-line-counts-or-regions "${sources[@]}" >"$out/all-lines.txt"

# The machine, since the instruction-set files are only measured where they run.
measured="Measured $(date -u +%Y-%m-%d) at commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?') on $(machine), $(nproc) cores. The fast targets run every instruction set this CPU has (portable, SSE2, AVX2 and, with all of its features, AVX-512) through the \`*_with\` functions, so each x86 file is measured on this machine; \`aarch64.rs\` is not built here."
python3 "$root/fuzz/coverage_report.py" "$out" "$root/codec/src" "$measured" "${list[@]}"
