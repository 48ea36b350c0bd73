#!/usr/bin/env bash
# Source coverage of the codec reached by each target's committed corpus: builds the
# target with -Cinstrument-coverage (`cargo fuzz coverage`), replays corpus/<target>/,
# and reports the lines, regions and functions of codec/src covered.
#
#   fuzz/coverage.sh [target...]
#
# Needs the nightly llvm-tools (installed if missing). Prints a markdown table; the
# per-file reports stay in fuzz/coverage/<target>/report.txt.
set -euo pipefail
source "$(dirname "$0")/common.sh"
if (($#)); then list=("$@"); else mapfile -t list < <(targets); fi

ensure_cargo_fuzz
sysroot=$(rustc "+$FUZZ_TOOLCHAIN" --print sysroot)
llvm_bin="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin"
[[ -x "$llvm_bin/llvm-cov" ]] || rustup component add llvm-tools-preview --toolchain "$FUZZ_TOOLCHAIN"

out="$root/fuzz/coverage"
mkdir -p "$out"
# A target directory of its own (cargo fuzz coverage would use the root one).
tdir="$root/fuzz/target/coverage"
report() { # report <profdata> <binary>...: llvm-cov's per-file table of codec/src
    local profile=$1 first=$2
    shift 2
    "$llvm_bin/llvm-cov" report "$first" "${@/#/-object=}" -instr-profile="$profile" \
        "$root"/codec/src/*.rs "$root"/codec/src/*/*.rs
}
# From a report: "file lines%" for every file the target reaches (line cover > 0).
reached() { awk '$1 != "TOTAL" && $10 ~ /%$/ && $10 != "0.00%" { printf "%s%s %s", sep, $1, $10; sep = ", " }' "$1"; }

rows=()
bins=()
profiles=()
for t in "${list[@]}"; do
    fuzz coverage --target-dir "$tdir" "$t" "$root/corpus/$t" >"$out/$t.log" 2>&1 ||
        { cat "$out/$t.log" >&2; exit 1; }
    bin=$(find "$tdir" -path '*coverage*' -type f -name "$t" -perm -u+x | head -1)
    profile="$out/$t/coverage.profdata"
    bins+=("$bin")
    profiles+=("$profile")
    report "$profile" "$bin" >"$out/$t/report.txt"
    rows+=("| $t | $(reached "$out/$t/report.txt") |")
    echo "$t: $(reached "$out/$t/report.txt")" >&2
done
# All targets together: which codec lines no corpus reaches.
"$llvm_bin/llvm-profdata" merge -sparse "${profiles[@]}" -o "$out/all.profdata"
report "$out/all.profdata" "${bins[@]}" >"$out/all.txt"
others=("${bins[@]:1}")
"$llvm_bin/llvm-cov" show "${bins[0]}" "${others[@]/#/-object=}" -instr-profile="$out/all.profdata" \
    -show-line-counts-or-regions "$root"/codec/src/*.rs "$root"/codec/src/*/*.rs >"$out/all-lines.txt"

echo "| target | codec files reached (line coverage by its corpus) |"
echo "|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "All targets together (fuzz/coverage/all.txt; line by line in all-lines.txt):"
echo
echo "| file | lines | regions | functions |"
echo "|---|---:|---:|---:|"
awk 'NR > 2 && $1 !~ /^-/ && NF > 9 { print "| " $1 " | " $10 " | " $4 " | " $7 " |" }' "$out/all.txt"
