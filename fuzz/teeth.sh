#!/usr/bin/env bash
# Teeth: shows that each fuzz target catches a bug. For each mutation below, a scratch
# copy of the checkout gets one line of the codec changed, the target is built and run
# from an empty corpus (with fuzz/fuzz.dict, as the nightly job) for at most
# TEETH_SECONDS, and a crash is expected. The committed corpus is also replayed on
# the mutant (`-runs=0`), which is what `cargo test` would do.
#
#   fuzz/teeth.sh [mutation...]        (default: all; names in the table below)
#
# Environment: TEETH_SECONDS (default 60), TEETH_SEED (default 1), TEETH_DICT (default
# 1; 0 for no dictionary), TEETH_DIR (scratch copy, default /tmp/corrected-utf8-teeth),
# FUZZ_TOOLCHAIN (default nightly).
# Prints a markdown table: mutation, target, corpus replay, time to crash. Exits 1 if
# a mutation survives.
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=${TEETH_SECONDS:-60}
# TEETH_DICT=0 fuzzes without fuzz/fuzz.dict (the mutator must find the bytes itself).
dict=(-dict="$root/fuzz/fuzz.dict")
[[ "${TEETH_DICT:-1}" == 0 ]] && dict=()
seed=${TEETH_SEED:-1}
scratch=${TEETH_DIR:-/tmp/corrected-utf8-teeth}

if (($#)); then wanted=("$@"); else wanted=(); fi
selected() {
    ((${#wanted[@]} == 0)) && return 0
    local w
    for w in "${wanted[@]}"; do [[ "$w" == "$1" ]] && return 0; done
    return 1
}

ensure_cargo_fuzz
# The scratch copy: the working tree without build output or .git; its build cache is
# kept between runs so only the mutated crate and its dependents rebuild.
mkdir -p "$scratch"
(cd "$root" && tar --exclude=./target --exclude=./fuzz/target --exclude=./fuzz/afl/target \
    --exclude=./.git --exclude=./fuzz/nightly-out --exclude=./fuzz/artifacts -cf - .) |
    (cd "$scratch" && tar -xf -)
sfuzz() { (cd "$scratch" && cargo "+$FUZZ_TOOLCHAIN" fuzz "$@"); }

rows=()
survived=0
# mutation <name> <target> <file> <sed expression changing one line> <what it breaks>
mutation() {
    local name=$1 target=$2 file=$3 expr=$4 what=$5
    selected "$name" || return 0
    cp "$root/$file" "$scratch/$file"
    sed -i "$expr" "$scratch/$file"
    if cmp -s "$root/$file" "$scratch/$file"; then
        echo "!! $name: the mutation no longer applies to $file; update fuzz/teeth.sh" >&2
        rows+=("| $name | $target | — | does not apply |")
        survived=1
        return 0
    fi
    echo "== $name ($target): $what"
    diff -u "$root/$file" "$scratch/$file" | sed -n '/^[-+][^-+]/p'  || true
    if ! sfuzz build -s none "$target" >"$scratch/build-$name.log" 2>&1; then
        cat "$scratch/build-$name.log" >&2
        exit 2
    fi
    bin="$scratch/fuzz/target/x86_64-unknown-linux-gnu/release/$target"

    replay="passes"
    if ! "$bin" -runs=0 "$root/corpus/$target" >"$scratch/replay-$name.log" 2>&1; then
        replay="**fails**"
    fi

    empty="$scratch/empty-corpus/$name"
    rm -rf "$empty" "$scratch/artifacts/$name"
    mkdir -p "$empty" "$scratch/artifacts/$name"
    start=$(date +%s.%N)
    if "$bin" "$empty" -seed="$seed" -max_total_time="$seconds" "${dict[@]}" \
        -artifact_prefix="$scratch/artifacts/$name/" >"$scratch/fuzz-$name.log" 2>&1; then
        caught="**survived ${seconds}s**"
        survived=1
    else
        end=$(date +%s.%N)
        caught=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f s", e - s }')
        execs=$(grep -oE '^#[0-9]+' "$scratch/fuzz-$name.log" | tail -1 | tr -d '#')
        [[ -n "$execs" ]] && caught+=" (~$execs execs)"
        grep -m1 -A1 "check \`" "$scratch/fuzz-$name.log" | sed 's/^/   /' || true
    fi
    cp "$root/$file" "$scratch/$file"
    rows+=("| $name | $target | $replay | $caught |")
    echo "   corpus replay: $replay; from an empty corpus: $caught"
}

mutation validate-skips-continuations decode codec/src/corrected.rs \
    's/position(|&b| b >= 0x80)/position(|\&b| b >= 0xC0)/' \
    "corrected::validate's ASCII skip also skips 80-BF, so validate misses stray continuation bytes"
mutation c1-gap-one-short roundtrip codec/src/corrected.rs \
    's/0x80..=0x9F => Err(ErrorKind::C1Control)/0x80..=0x9E => Err(ErrorKind::C1Control)/' \
    "U+009F is no longer a c1-control encode error (it falls through to out-of-range)"
mutation four-byte-offset-off-by-one differential_literal codec/src/corrected.rs \
    's/offset: 69_792 }/offset: 69_793 }/' \
    "the 4-byte row's offset is 1 too high: decode and encode stay each other's inverse; only an independent oracle sees it"
mutation lossy-string-uses-question-mark differential_std codec/src/utf8.rs \
    '/pub fn decode_lossy_to_string/,/^}/s/\.lossy()/.lossy().map(|cp| if cp == 0xFFFD { 0x3F } else { cp })/' \
    "utf8::decode_lossy_to_string writes ? instead of U+FFFD"
mutation stream-ignores-narrow-ranges streaming codec/src/stream.rs \
    's/(Encoding::Utf8, utf8::Lead::Seq { lo, hi, .. }) => (lo, hi)/(Encoding::Utf8, utf8::Lead::Seq { .. }) => (0x80, 0xBF)/' \
    "the UTF-8 stream decoder ignores Table 3-7's second-byte ranges (E0 80 80 decodes)"
mutation magic-prefix-dropped-across-chunks document codec/src/document.rs \
    's/self.no_magic(matched, &mut sink)/self.no_magic(0, \&mut sink)/' \
    "a magic-number prefix held back across chunks is dropped when the next chunk does not match"

# Deeper ones: the fuzzer has to build a specific multi-byte sequence.
mutation f4-accepts-above-10ffff differential_std codec/src/utf8.rs \
    's/0xF4        => seq(4, 0x80, 0x8F, OutOfRange)/0xF4        => seq(4, 0x80, 0x90, OutOfRange)/' \
    "UTF-8 accepts F4 90 xx xx, i.e. U+110000 and up"
mutation paragraph-separator-not-reported document codec/src/document.rs \
    's/0x2029 => Some(FindingKind::ParagraphSeparator)/0x2029 => None/' \
    "U+2029 (Corrected UTF-8 E1 9E 89) raises no paragraph-separator warning"
mutation reserved-span-ends-only-at-ascii streaming codec/src/stream.rs \
    's/if corrected::is_recognized_lead(byte) {/if byte < 0x80 {/' \
    "in a stream, a reserved span runs on over C0-FD lead bytes"

echo
echo "| mutation | target | replay of corpus/ | fuzzing from empty corpus (seed $seed, dictionary ${TEETH_DICT:-1}) |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit "$survived"
